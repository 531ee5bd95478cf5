/* timing/memsys.h — the memory hierarchy as the SM cores see it: per-warp
 * coalescing into transactions, L1 data caches with MSHRs, one NoC injection
 * port per cluster, a crossbar, L2 slices and DRAM partitions (FR-FCFS),
 * each in its own clock domain.  Functional values never pass through here:
 * the executor already did the access; this only decides *when* it ends. */
#ifndef PTXEMU_TIMING_MEMSYS_H
#define PTXEMU_TIMING_MEMSYS_H

#include "runtime/exec.h"
#include "timing/config.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct memsys memsys;

/* Called when every transaction of an issued instruction has completed
 * (loads: data back at the SM; stores: accepted by L1 / written through). */
typedef void (*memsys_done_fn)(void *user, uint64_t token, uint64_t core_cycle);

typedef struct memsys_stats {
    uint64_t l1_hits, l1_misses, l1_mshr_merges, l1_reservation_fails;
    uint64_t l2_hits, l2_misses, l2_mshr_merges;
    uint64_t noc_read_requests, noc_write_requests;
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_row_misses;
    uint64_t transactions;            /* after coalescing */
    uint64_t warp_accesses;           /* instructions that reached memsys */
    uint64_t redundant_requests;      /* same line from the same cluster within
                                         stats.locality_window cycles */
    uint64_t icc_merges, icc_cache_hits;
    uint64_t latency_sum, latency_count; /* load latency: AMAT = sum / count */
    uint64_t latency_overlapped_sum;  /* cycles with >= 1 load outstanding, per SM */
    uint64_t *served_per_sm;          /* DRAM/L2 requests served per SM (CLASO Figs 4-5) */
    uint32_t nsms;
} memsys_stats;

memsys *memsys_create(const gpu_config *cfg, memsys_done_fn done, void *user);
void memsys_destroy(memsys *m);

/* Sends one warp instruction's global/local/const accesses (acc from
 * ex_warp_step).  Returns false when the SM's L1 cannot take it this cycle
 * (MSHRs or queues full): the SM retries later and counts a stall. */
bool memsys_issue(memsys *m, uint32_t sm, uint32_t warp, const ex_access *acc,
                  uint64_t token, uint64_t core_cycle);

/* What a refused access's retry depends on in one SM's L1 (timing/sm.c
 * sleeps a stuck SM while it stays the same): the L1/MSHR version, its
 * packet quota, miss queue and instruction slots. */
typedef struct memsys_sm_sig {
    uint64_t ver;
    uint32_t npkt_free, missq_n, ninst_free;
} memsys_sm_sig;
void memsys_sm_signature(const memsys *m, uint32_t sm, memsys_sm_sig *out);
/* Bitset over SMs (bit i % 64 of word i / 64): SMs whose signature may
 * have changed since the last memsys_touched_clear (a superset of those
 * that changed).  The pointer stays valid for the memsys's lifetime. */
const uint64_t *memsys_touched(const memsys *m);
void memsys_touched_clear(memsys *m);
/* Whether the last refusal of memsys_issue was decided from state that had
 * not changed since an earlier full check (a retry with the same
 * signature is refused the same way). */
bool memsys_last_refusal_quick(const memsys *m, uint32_t sm);
/* Counts n refusals of that kind (the retries a sleeping SM skipped). */
void memsys_count_refusals(memsys *m, uint32_t sm, uint64_t n);

/* The SM side in batches: after memsys_batch, what memsys_issue (and
 * memsys_count_refusals) change outside the issuing SM's own state waits
 * until memsys_commit, which applies it SM by SM in SM order.  Different
 * SMs may then issue from different host threads (one thread per SM at a
 * time); the result is the same as issuing them one after the other in SM
 * order.  Outside a batch each issue applies its own changes at once. */
void memsys_batch(memsys *m);
void memsys_commit(memsys *m);
/* The same when only sms[0..n) (ascending) issued in the batch. */
void memsys_commit_sms(memsys *m, const uint32_t *sms, uint32_t n);

/* Advances every clock domain up to the end of this core cycle; completions
 * are delivered through the done callback. */
void memsys_cycle(memsys *m, uint64_t core_cycle);

/* No request in flight anywhere. */
bool memsys_idle(const memsys *m);

/* Counters so far (served_per_sm points into memsys-owned memory). */
void memsys_get_stats(const memsys *m, memsys_stats *out);
/* The same, with loads still outstanding counted up to core cycle `upto`
 * rather than the last cycle simulated: a kernel's statistics that end
 * while other kernels' loads are in flight must not depend on how far the
 * event-skipping loop last advanced the memory system. */
void memsys_get_stats_at(const memsys *m, uint64_t upto, memsys_stats *out);

/* ---- additions (memsys side) ---- */

/* Counters beyond memsys_stats: energy events, the constant cache, and
 * the same-core service fraction of CLASO Fig. 5. */
typedef struct memsys_extra_stats {
    uint64_t l1_port_stalls;      /* refusals: the L1 still busy with an earlier
                                     instruction's transactions (divergence) */
    uint64_t l1_accesses;         /* data transactions looked up in L1 (energy) */
    uint64_t l1_writebacks;       /* dirty L1 lines written back (local memory) */
    uint64_t const_hits, const_misses;
    uint64_t tex_hits, tex_misses;  /* texture-cache line lookups (tex, tld4) */
    uint64_t l2_accesses, l2_writebacks;
    uint64_t noc_flits;           /* both directions */
    uint64_t icc_lookups;         /* merge-table / coalesced-cache lookups */
    uint64_t dram_activates, dram_precharges, dram_bursts;
    uint64_t dram_bytes;          /* moved on the DRAM data buses */
    uint64_t dram_same_sm;        /* DRAM requests finished right after one for
                                     the same SM, in the same partition */
    uint64_t l1_bypasses;         /* global load transactions sent past L1 to L2
                                     (volatile, strong wider than the CTA, .cg,
                                     .cv): neither L1 hits nor misses */
    uint64_t l1_acquire_drops;    /* L1 lines dropped by acquires (memorder.c) */
    /* Per crossbar (req: cluster ports -> memory ports; rep: back), for
     * link utilisation and queueing (noc.h): flits and packets granted,
     * injection waits (NoC cycles) and ejection waits (the consumer's
     * cycles: L2 for req, NoC for rep) summed over `ejected` packets. */
    uint64_t noc_req_flits, noc_req_packets, noc_req_inj_wait, noc_req_ej_wait,
        noc_req_ejected;
    uint64_t noc_rep_flits, noc_rep_packets, noc_rep_inj_wait, noc_rep_ej_wait,
        noc_rep_ejected;
    /* Not differences: maxima since the run began, and the port counts. */
    uint64_t noc_req_inj_wait_max, noc_req_ej_wait_max;
    uint64_t noc_rep_inj_wait_max, noc_rep_ej_wait_max;
    uint64_t noc_cluster_ports, noc_mem_ports;
} memsys_extra_stats;

void memsys_get_extra_stats(const memsys *m, memsys_extra_stats *out);

/* Drops every clean line of every SM's L1 data and constant caches, as
 * GPUs do at a kernel boundary (the host or the previous kernel may have
 * changed the data).  Dirty lines (local memory, write-back stores) stay:
 * they hold the only copy.  Outstanding misses still fill when they
 * return.  See memorder.c for the rest of the ordering rules. */
void memsys_invalidate_l1(memsys *m);

/* A memory fence of SM sm has issued (its warp's loads are back): with
 * l1d.fence_invalidate its clean global L1 lines go, as GPGPU-Sim's
 * -gpgpu_flush_l1_cache invalidates the L1 at every membar
 * (shader.cc:3801-3812).  Nothing otherwise.  memorder.c. */
void memsys_fence(memsys *m, uint32_t sm);

/* A host copy of n bytes at device address addr (timing/memsys_copy.c):
 * with l2.memcpy_fill its lines are installed in the L2, clean, as
 * GPGPU-Sim's -gpgpu_perf_sim_memcpy does; else nothing happens. */
void memsys_host_copy(memsys *m, uint64_t addr, uint64_t n);

/* An instruction-cache line fetch of `bytes` at `addr` for SM sm
 * (timing/sm_fetch.c): one read through the SM's miss queue, the NoC and
 * the L2, filling no SM cache; `token` completes when the data is back.
 * False when the SM's queues cannot take it this cycle. */
bool memsys_ifetch(memsys *m, uint32_t sm, uint64_t addr, uint32_t bytes, uint64_t token,
                   uint64_t core_cycle);

/* memsys_issue with options.  MEMSYS_BYPASS_L1: a global load that must
 * not be served from L1 (ld.volatile, ld.cg, .cv: another SM may write
 * the data); it reads from L2 like loads do when l1d.enabled = false.
 * memsys_issue sets it itself from acc->order (memorder.c). */
enum { MEMSYS_BYPASS_L1 = 1u << 0 };
bool memsys_issue_flags(memsys *m, uint32_t sm, uint32_t warp, const ex_access *acc,
                        uint64_t token, uint64_t core_cycle, unsigned flags);

/* Earliest core cycle at which memsys_cycle has anything to do (a
 * completion to deliver or a component with work), UINT64_MAX when idle:
 * lets a driver whose SMs all wait skip cycles.  Calling memsys_cycle for
 * every cycle in between gives the same result. */
uint64_t memsys_next_cycle(memsys *m);
/* memsys_next_cycle(m) <= c, without its divisions. */
bool memsys_due(const memsys *m, uint64_t c);

#endif
