/* timing/stats.h — counters of the timing model and their writers: one
 * JSON document per run (a record per kernel plus totals) and optional CSV
 * time series per kernel.  Every number is an integer count or a ratio of
 * two, formatted locale-independently, so the same run gives the same bytes.
 *
 * Scheduler accounting (thesis §3.5.3 and §4.3.1.3): every issue slot of
 * every warp scheduler is exactly one of
 *   issued            at least one instruction issued;
 *   idle_no_warp      state 1: no warp has an instruction (no warps, fetch
 *                     pending, all done or at a barrier);
 *   idle_scoreboard   state 2: every warp with an instruction waits for an
 *                     operand — a MEM scoreboard stall when one of them
 *                     waits on a memory instruction, else an ALU one;
 *   idle_pipeline     state 3: a warp is ready but its unit is busy — MEM
 *                     when the blocked unit is the LD/ST path (including
 *                     the memory system refusing a request), else ALU.
 * so slots == issued + idle_no_warp + idle_scoreboard + idle_pipeline. */
#ifndef PTXEMU_TIMING_STATS_H
#define PTXEMU_TIMING_STATS_H

#include "sched/sched.h"
#include "timing/config.h"
#include "timing/memsys.h"
#include "timing/outfile.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

typedef struct tm_sched_counters {
    uint64_t slots;              /* issue slots (every dispatch_interval) */
    uint64_t issued;             /* slots that issued */
    uint64_t idle_no_warp;
    uint64_t idle_scoreboard;    /* = sb_alu + sb_mem */
    uint64_t idle_pipeline;      /* = pipe_alu + pipe_mem */
    uint64_t sb_alu, sb_mem;
    uint64_t pipe_alu, pipe_mem;
    uint64_t instructions;       /* warp instructions (> issued with dual issue) */
} tm_sched_counters;

/* One SM (or, summed, the GPU). */
typedef struct tm_core_counters {
    tm_sched_counters sched;     /* summed over its schedulers */
    uint64_t warp_state[SCHED_WS_COUNT]; /* warp-cycles in each state */
    uint64_t cycles;             /* cycles counted */
    uint64_t idle_cycles;        /* cycles with no CTA resident */
    uint64_t gated_cycles;       /* cycles powered off by a policy */
    uint64_t paused_cycles;      /* cycles a policy refused it new CTAs
                                    (paused or draining, not gated) */
    uint64_t ctas_issued, ctas_finished;
    uint64_t warp_instrs, thread_instrs;
    uint64_t alu_instrs, mem_instrs;
    uint64_t sfu_instrs, dp_instrs; /* of alu_instrs: on the SFUs, the DP units */
    uint64_t alu_load;           /* ALU instruction-cycles in flight */
    uint64_t mem_load;           /* memory instruction-cycles in flight */
    uint64_t shared_accesses;    /* shared-memory warp accesses */
    uint64_t shared_conflicts;   /* extra bank passes they needed */
    uint64_t mem_refusals;       /* memsys_issue refused (retried) */
    uint64_t cta_cycles;         /* resident CTAs x cycles (of any kernel):
                                    / cycles = mean CTAs held */
    /* locks (spin seed): lanes of atom.cas that swapped / did not */
    uint64_t lock_acquisitions, lock_failed_attempts;
    uint64_t spin_loop_instrs;   /* warp instructions in static spin loops */
    uint64_t l1i_hits, l1i_misses; /* instruction-cache fetches (l1i.enabled);
                                    a fetch merged into a pending line is a miss */
    /* the backoff level (spin.policy): decisions that backed a warp off,
     * the cycles they granted, warps backed off at least once, distinct
     * (SM, PC) decision points (setps for greedy, spin-inducing branches
     * for ddos; the first TM_SPIN_PCS per SM), releases of backed-off
     * warps because every warp of the scheduler was backed off */
    uint64_t spin_backoffs, spin_backoff_cycles, spin_warps_backed_off;
    uint64_t spin_pcs, spin_releases;
} tm_core_counters;

void tm_core_counters_add(tm_core_counters *dst, const tm_core_counters *src);
void tm_core_counters_sub(tm_core_counters *dst, const tm_core_counters *src);

/* Memory-system counters over an interval (the scalar part of memsys_stats). */
typedef struct tm_mem_counters {
    uint64_t l1_hits, l1_misses, l1_mshr_merges, l1_reservation_fails;
    uint64_t l2_hits, l2_misses, l2_mshr_merges;
    uint64_t noc_read_requests, noc_write_requests;
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_row_misses;
    uint64_t transactions, warp_accesses, redundant_requests;
    uint64_t icc_merges, icc_cache_hits;
    uint64_t latency_sum, latency_count, latency_overlapped_sum;
    /* from memsys_extra_stats */
    uint64_t l1_port_stalls, l1_accesses, const_hits, const_misses;
    uint64_t l2_accesses, noc_flits, dram_activates, dram_bytes, dram_same_sm;
    uint64_t l1_bypasses, l1_acquire_drops;
    uint64_t tex_hits, tex_misses;
    uint64_t noc_req_flits, noc_req_packets, noc_req_inj_wait, noc_req_ej_wait,
        noc_req_ejected;
    uint64_t noc_rep_flits, noc_rep_packets, noc_rep_inj_wait, noc_rep_ej_wait,
        noc_rep_ejected;
    /* not subtracted per kernel (MAX_FIELDS): maxima since the run began,
     * port counts */
    uint64_t noc_req_inj_wait_max, noc_req_ej_wait_max;
    uint64_t noc_rep_inj_wait_max, noc_rep_ej_wait_max;
    uint64_t noc_cluster_ports, noc_mem_ports;
} tm_mem_counters;

void tm_mem_counters_from(tm_mem_counters *dst, const memsys_stats *src,
                          const memsys_extra_stats *extra);
void tm_mem_counters_sub(tm_mem_counters *dst, const tm_mem_counters *src);
void tm_mem_counters_add(tm_mem_counters *dst, const tm_mem_counters *src);

/* What bounded the CTAs per SM of a kernel. */
typedef struct tm_occupancy {
    uint32_t regs_per_thread;
    uint32_t shared_per_cta;
    uint32_t threads_per_cta;
    uint32_t ctas_per_sm;
    const char *limited_by;      /* "cta slots", "threads", "registers", "shared memory" */
} tm_occupancy;

/* One kernel launch. */
/* One TB (CTA) of a kernel that took part in dynamic parallelism
 * (docs/cdp.md): where it ran and where it came from. */
typedef struct tm_tb_stat {
    uint32_t cta;                /* kernel-wide CTA id */
    uint32_t sm;
    uint64_t issue_cycle;        /* cycle it was placed */
    uint32_t depth;              /* 0: host-launched */
    uint32_t parent_kernel, parent_cta, parent_sm; /* SCHED_NONE: host-launched */
    uint64_t launch_cycle;       /* cycle of the launching instruction (0: host) */
    uint32_t grid, grid_cta;     /* launch id of its own grid, its CTA id there */
    double shared_with_parent;   /* of the 128-byte global lines it touched, the
                                    fraction its parent TB touched too (LaPerm
                                    Fig. 2); < 0: not known */
    double shared_with_siblings; /* child: of the lines its sibling TBs (same
                                    parent TB) touched, the fraction it touched
                                    too (Fig. 2's cos/cs); < 0: not known */
    double children_shared;      /* parent: of the lines its children touched
                                    (union), the fraction it touched (Fig. 2's
                                    pc/c); < 0: no children */
    double shared_with_grid;     /* TB of a grid that launched: of its lines,
                                    the fraction another TB of its grid touched
                                    (Fig. 2's "among parents"); < 0: not known */
    /* child TB: its global reads (per 128-byte line a warp instruction
     * touched), by reuse distance = line accesses GPU-wide since the line's
     * previous access: never accessed before, within the L1's line count,
     * within the L2's line count (an access this close hits a fully
     * associative LRU cache of that size); the rest are farther */
    uint32_t reads, reads_cold, reads_l1, reads_l2;
} tm_tb_stat;

/* Sampled simulation of one launch (timing/sample.h; only with
 * sample.mode = on).  When `sampled`, the launch's cycles (and so its IPC
 * and end cycle) are detailed + projected, and its core and memory
 * counters cover the detailed part only. */
typedef struct tm_sample_stat {
    bool sampled;                /* stopped in detail and projected the rest */
    const char *refused;         /* why it ran in full although it could have
                                    been long enough (static text); NULL: not */
    bool stable;                 /* its IPC became stable (sampled, or stable
                                    with nothing left to project) */
    int64_t reused_from;         /* launch whose stable IPC it took; -1: own */
    const char *basis;           /* "instructions" or "ctas" (sample.c) */
    uint64_t detailed_cycles, projected_cycles;
    uint32_t detailed_ctas;
    uint64_t detailed_instrs;
    double stable_ipc;           /* warp instructions per cycle it projected with */
    double ipc_rel_sd;           /* relative standard deviation of the K windows */
    uint32_t window, windows;    /* W and K */
    uint64_t error_cycles;       /* 95% half-width on the projected cycles */
} tm_sample_stat;

typedef struct tm_kernel_stats {
    char *name;
    uint32_t launch;
    uint32_t grid[3], block[3];
    uint32_t ctas;
    tm_occupancy occ;
    uint64_t start, end;         /* first and last cycle, inclusive */
    uint64_t warp_instrs, thread_instrs;
    tm_core_counters total;      /* summed over the SMs, while it ran */
    tm_core_counters *cores;     /* per SM, while it ran */
    uint32_t ncores;
    tm_mem_counters mem;
    uint64_t *served_per_sm;     /* memory requests served per SM */
    uint32_t *cta_limit;         /* per SM: a policy's CTA cap when the kernel
                                    ended (SCHED_NO_LIMIT: none) */
    GArray *tbs;                 /* tm_tb_stat per TB, in placement order: only
                                    kernels that launched or were launched by
                                    device code; NULL otherwise */
    uint8_t *off_end;            /* per SM: 1 when a policy had it draining or
                                    gated as the kernel ended (ONAC, Seq-Det:
                                    the cores left on are their detected N) */
    tm_sample_stat *sample;      /* NULL unless sample.mode = on */
} tm_kernel_stats;

static inline uint64_t tm_kernel_cycles(const tm_kernel_stats *k)
{
    return k->end >= k->start ? k->end - k->start + 1 : 0;
}

/* A whole run: every kernel in launch order. */
typedef struct tm_stats {
    GPtrArray *kernels;          /* tm_kernel_stats* */
} tm_stats;

void tm_stats_init(tm_stats *s);
void tm_stats_clear(tm_stats *s);
tm_kernel_stats *tm_kernel_stats_new(uint32_t ncores);
void tm_kernel_stats_free(tm_kernel_stats *k);

/* Ratios the reports use (0 when the denominator is 0). */
double tm_ratio(uint64_t num, uint64_t den);

/* Sums over every kernel of the run (cores summed too).  `cycles` counts
 * the cycles in which any kernel ran, once even when kernels overlap (a
 * kernel's own counters cover every SM while it ran, so with concurrent
 * kernels the summed core and memory counters count overlapping work in
 * each of them). */
typedef struct tm_run_totals {
    uint64_t cycles, warp_instrs, thread_instrs;
    tm_core_counters core;
    tm_mem_counters mem;
} tm_run_totals;
void tm_stats_totals(const tm_stats *s, tm_run_totals *out);

/* With sample.mode = on: one summary line of what was projected. */
void tm_stats_print_sample(const tm_stats *s, FILE *out);

/* The run as JSON (schema in the README and tests/timing/test_timing.c). */
void tm_stats_write_json(const tm_stats *s, const gpu_config *cfg, GString *out);

/* ------------------------------------------------------------ time series */
/* One CSV file per kernel: a row per SM per sampling interval with the
 * average number of warps in each state, the average ALU and MEM load, and
 * the instructions and CTAs issued/finished in the interval. */
typedef struct tm_csv {
    FILE *f;                     /* out.f while open */
    out_file out;
    uint32_t ncores;
    tm_core_counters *last;      /* counters at the previous sample, per SM */
    uint64_t last_cycle;
} tm_csv;

/* Opens DIR/launch-<launch>-<kernel>.csv and writes the header; `base`
 * holds each SM's counters when the kernel started at `start`. */
bool tm_csv_open(tm_csv *c, const char *dir, uint32_t launch, const char *kernel,
                 uint32_t ncores, const tm_core_counters *base, uint64_t start,
                 GError **error);
/* A row per SM covering (last sample, cycle]: `now` holds each SM's
 * counters up to and including `cycle`. */
void tm_csv_sample(tm_csv *c, uint64_t cycle, const tm_core_counters *now,
                   const uint32_t *resident);
/* Closes the file and, with `keep`, gives it its name; false (with the file
 * named) when any write failed.  Without `keep` (the run failed) nothing is
 * left behind. */
bool tm_csv_close(tm_csv *c, bool keep, GError **error);

#endif
