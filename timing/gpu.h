/* timing/gpu.h — the timing driver: a GPU of SMs (timing/sm.h) and the
 * memory system (timing/memsys.h) advanced cycle by cycle, with the kernel
 * and CTA scheduling levels of sched/ deciding what runs where.
 *
 * One cycle: the kernel level names the kernels that may place CTAs, the
 * CTA placement policy and its admission filters give each SM at most one
 * new CTA, every SM with work fetches, schedules and issues (executing at
 * issue), then the memory system advances and delivers completions.  When
 * nothing can happen before some later cycle (every SM waits and the memory
 * system is idle) the driver jumps there; with sim.step_every_cycle it
 * visits every SM and the memory system every cycle instead, which must
 * give the same statistics (tests/bench/test_stepping.c).
 *
 * The GPU lives as long as its user wants: caches and DRAM keep their state
 * from one run to the next, and the statistics of every kernel accumulate
 * in tm_gpu_stats. */
#ifndef PTXEMU_TIMING_GPU_H
#define PTXEMU_TIMING_GPU_H

#include "runtime/exec.h"
#include "timing/config.h"
#include "timing/stats.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct tm_options {
    FILE *trace;               /* scheduler decisions, one line each; NULL: none */
    bool trace_warps;          /* the trace also gets every warp issue */
    const char *csv_dir;       /* per-kernel CSV time series; NULL: none */
    uint32_t csv_interval;     /* cycles per CSV row; 0: stats.interval */
    uint32_t regs_per_thread;  /* occupancy: registers per thread; 0: estimate
                                  (peak live registers of the kernel's PTX) */
    uint32_t host_threads;     /* SM visits of a cycle on this many host threads
                                  (timing/gpu_par.c); 0 or 1: one */
} tm_options;

typedef struct tm_gpu tm_gpu;

/* Resolves the config's policies; fails with one message when a chosen
 * policy is not implemented. */
tm_gpu *tm_gpu_create(const gpu_config *cfg, const tm_options *opts, GError **error);
void tm_gpu_destroy(tm_gpu *g);

/* A host operation of a run (a stream's memory copy, an event record): run
 * at the cycle its submission arrives; it takes no simulated time. */
typedef void (*tm_host_fn)(void *user, uint64_t cycle);

/* One submission of a run.  A launch arrives `arrival` cycles after the run
 * starts, and not before every submission in `after` has finished (stream
 * order and events; indices of earlier submissions), and then waits for a
 * kernel dispatch entry (timing/kmu.h).  Kernels that arrive while others
 * run may run beside them, as the kernel policy allows.  With `append_to`
 * >= 0 its CTAs are appended to the kernel of submission `append_to` (which
 * must have arrived and not yet finished; the dynamic-parallelism TB-group
 * model) instead of forming a kernel of their own.  With L NULL it is a host
 * operation: `host` runs when it arrives.  `done_at`, when set, receives the
 * cycle it finished (a kernel: its last cycle). */
typedef struct tm_submit {
    ex_launch *L;
    uint64_t arrival;
    int32_t append_to;
    const uint32_t *after;
    uint32_t nafter;
    tm_host_fn host;
    void *host_user;
    uint64_t *done_at;
} tm_submit;

/* Runs the submissions until all finish.  Memory effects are exactly those
 * of the functional executor running them in arrival order when they touch
 * disjoint memory.  On a fault the launch's message is in *error and in its
 * L->error. */
bool tm_gpu_run_at(tm_gpu *g, const tm_submit *subs, uint32_t n, GError **error);
/* `n` launches that all arrive at the start of the run. */
bool tm_gpu_run(tm_gpu *g, ex_launch *const *launches, uint32_t n, GError **error);

const tm_stats *tm_gpu_stats(const tm_gpu *g);
const gpu_config *tm_gpu_config(const tm_gpu *g);
/* CTAs of `kernel` (threads, shared bytes per CTA; registers per thread, 0 =
 * estimated from its PTX) that all SMs of `c` hold at once; *why names the
 * limiting resource (timing/coresident.c). */
uint32_t tm_coresident_ctas(const gpu_config *c, const ex_func *kernel, uint32_t threads,
                            uint32_t shared, uint32_t regs_per_thread, const char **why);
/* A host copy of n bytes to or from device address addr happened
 * (timing/gpu_copy.c): the memory system's state follows it
 * (l2.memcpy_fill). */
void tm_gpu_host_copy(tm_gpu *g, uint64_t addr, uint64_t n);
/* The last simulated cycle. */
uint64_t tm_gpu_cycle(const tm_gpu *g);

#endif
