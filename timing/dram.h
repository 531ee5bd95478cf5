/* timing/dram.h — one memory partition's DRAM channel: banks with open-row
 * buffers, a bounded request queue (dram.queue_size) and an FR-FCFS (or
 * FCFS) scheduler issuing one command per DRAM cycle.
 *
 * Address mapping (partition-local byte address a):
 *   column = a % row_buffer, bank = (a / row_buffer) % banks,
 *   row = a / (row_buffer * banks)
 * so a stream fills one row of a bank, then moves to the next bank.
 *
 * Commands and the timing they obey (all in DRAM cycles):
 *   ACT  bank closed; >= tRC after the bank's previous ACT, >= tRP after its
 *        PRE, >= tRRD after any ACT of the channel.
 *   PRE  bank open on another row; >= tRAS after its ACT, >= the end of a
 *        read burst, >= tWR after the end of a write's data.
 *   RD/WR (column) row open; >= tRCD after ACT, >= tCCD after the previous
 *        column command; data occupies the bus from +tCL for
 *        ceil(burst_length / data_rate) cycles (bursts never overlap; writes
 *        use tCL as their latency too).
 * A request of B bytes needs ceil(B / (bus_width/8 * burst_length)) column
 * commands; peak bandwidth = bus_width/8 * data_rate bytes per cycle.
 *
 * FR-FCFS: the oldest row hit whose column command can issue now goes
 * first; otherwise the oldest request whose PRE or ACT can issue now
 * (a bank with a queued row hit is not precharged).  FCFS: only the oldest
 * request is considered. */
#ifndef PTXEMU_TIMING_DRAM_H
#define PTXEMU_TIMING_DRAM_H

#include "timing/config.h"

#include <stdbool.h>
#include <stdint.h>

#define DRAM_IDLE UINT64_MAX
#define DRAM_NO_SM UINT16_MAX  /* write-backs: no requesting SM */

typedef struct dram_req {
    uint64_t addr;      /* partition-local byte address */
    uint32_t tag;       /* caller's id, handed back on completion */
    uint16_t sm;        /* requesting SM (statistics) */
    uint16_t bytes;
    bool write;
} dram_req;

typedef struct dram_stats {
    uint64_t reads, writes;
    uint64_t row_hits, row_misses;  /* per request: row already open or not */
    uint64_t activates, precharges;
    uint64_t bursts;                /* column commands */
    uint64_t bus_busy;              /* data-bus cycles */
    uint64_t bytes;                 /* moved on the data bus */
    uint64_t same_sm;               /* requests finished right after one for
                                       the same SM (CLASO Fig. 5) */
} dram_stats;

/* Called when a request's last column command issues; its data transfer
 * ends at DRAM cycle `done`. */
typedef void (*dram_done_fn)(void *ctx, const dram_req *r, uint64_t done);

typedef struct dram dram;

dram *dram_create(const gpu_config *cfg);
void dram_destroy(dram *d);
/* No room in the request queue. */
bool dram_full(const dram *d);
/* Nothing queued. */
bool dram_empty(const dram *d);
/* Queues r; the scheduler sees it from DRAM cycle `arrive` on. */
void dram_push(dram *d, const dram_req *r, uint64_t arrive);
/* DRAM cycle `now`: issues at most one command.  Returns the next cycle
 * at which a call can do anything (DRAM_IDLE: only a push can). */
uint64_t dram_tick(dram *d, uint64_t now, dram_done_fn done, void *ctx);
const dram_stats *dram_get_stats(const dram *d);

#endif
