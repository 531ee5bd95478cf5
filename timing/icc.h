/* timing/icc.h — per-cluster structures of the ICC seed (§3.3, §6):
 * the intra-cluster coalescing merge table, the coalesced cache, and the
 * redundant-request window that measures intra-cluster locality.
 *
 * Merge table (§6.1): fully associative, icc.merge_table entries of
 * {line, SM list, valid}.  A global read leaving the cluster looks it up:
 * hit -> the SM joins the list and nothing is sent; miss -> a free entry
 * is taken (if any) and the request goes to the NoC.  A reply looks it up
 * again: hit -> broadcast to every SM in the list, entry freed.
 * Coalesced cache (§6.3): icc.coalesced_cache lines, fully associative,
 * LRU; a reply with more than one requester is inserted; a read that hits
 * it is answered inside the cluster.  Writes invalidate the line there. */
#ifndef PTXEMU_TIMING_ICC_H
#define PTXEMU_TIMING_ICC_H

#include "timing/cache.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct icc_unit {
    uint32_t entries, used;
    uint64_t *line;       /* CACHE_NO_KEY = invalid */
    uint64_t *sms;        /* SM list: bit i = i-th SM of the cluster */
    bool has_cc;
    cache cc;
} icc_unit;

void icc_init(icc_unit *u, uint32_t merge_entries, uint32_t cc_lines, bool with_cc);
void icc_free(icc_unit *u);
/* Merge-table entry of line, or -1. */
int32_t icc_find(const icc_unit *u, uint64_t line);
/* Adds SM `local` to entry e. */
static inline void icc_join(icc_unit *u, int32_t e, uint32_t local)
{
    u->sms[e] |= 1ull << local;
}
/* Takes a free entry for line with `local` as its first SM; false when
 * the table is full (the request then goes out untracked). */
bool icc_allocate(icc_unit *u, uint64_t line, uint32_t local);
/* A reply for line: the SM list of its entry (0 when untracked), entry
 * freed; a coalesced line (two or more SMs) enters the coalesced cache. */
uint64_t icc_reply(icc_unit *u, uint64_t line);
/* Coalesced-cache probe (touches LRU). */
bool icc_cc_hit(icc_unit *u, uint64_t line);
void icc_cc_invalidate(icc_unit *u, uint64_t line);

/* ------------------------------------------------- locality window */
/* Requests (line, cycle) of one cluster in arrival order; a request is
 * redundant when the same line was requested within the last `window`
 * cycles.  Only the newest request per line is kept; when more than
 * `cap` requests fall in the window the oldest are forgotten early. */
typedef struct locality_win {
    uint64_t window;
    uint32_t cap, head, count;    /* ring of cap entries */
    uint64_t *line, *cycle;
    uint32_t *chain;              /* next entry in the same hash bucket */
    uint8_t *live;
    uint32_t *bucket;             /* cap buckets */
} locality_win;

void locality_init(locality_win *w, uint64_t window, uint32_t cap);
void locality_free(locality_win *w);
/* Records a request; true when it is redundant. */
bool locality_note(locality_win *w, uint64_t line, uint64_t cycle);

#endif
