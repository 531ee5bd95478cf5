/* benchmarks/global-increment/driver.c — the spin seed's Global Increment
 * Benchmark: one CAS lock per array slot, every thread increments its slot
 * under the lock `iters` times.
 *
 * Threads: tiny 512 (2 CTAs of 256), small 1,536 (6 CTAs: one GTX480 SM
 * filled with 48 warps, the seed's Fig. 4 setting), paper 23,040 (90 CTAs:
 * all 15 SMs, the seed's full-GPU run).  Three mappings (see kernels.cu):
 *   global-increment        32 lanes x 2 warps per lock (seed Fig. 3)
 *   global-increment-intra  32 lanes x 1 warp per lock  (intra-warp only)
 *   global-increment-inter   1 lane  x 8 warps per lock (inter-warp only)
 * The check is exact: every counter equals iters times the number of threads
 * mapped to it, and every lock is free again. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define GI_BLOCK 256u

typedef struct gi_config {
    unsigned lanes_per_lock;
    unsigned warps_per_lock;
} gi_config;

static unsigned gi_lock_of(unsigned tid, const gi_config *cfg)
{
    unsigned lane = tid % 32u, warp = tid / 32u;
    return (warp / cfg->warps_per_lock) * (32u / cfg->lanes_per_lock) +
           lane / cfg->lanes_per_lock;
}

static bench_outcome gi_run(bench_env *env, const gi_config *cfg)
{
    unsigned nthreads = env->size == BENCH_TINY    ? 512u
                        : env->size == BENCH_SMALL ? 1536u
                                                   : 23040u;
    unsigned iters = 1; /* Listing 1: one locked increment per thread */
    unsigned nwarps = nthreads / 32u;
    unsigned nlocks = (nwarps + cfg->warps_per_lock - 1) / cfg->warps_per_lock *
                      (32u / cfg->lanes_per_lock);
    size_t bytes = (size_t)nlocks * sizeof(int);
    int *counters = calloc(nlocks, sizeof(int));
    int *locks = calloc(nlocks, sizeof(int));
    int *ref = calloc(nlocks, sizeof(int));
    int *got = calloc(nlocks, sizeof(int));
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dlocks = 0, dcounters = 0;
    if (!counters || !locks || !ref || !got) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    /* Start the counters at seeded values so a kernel that writes instead
     * of incrementing cannot pass. */
    uint64_t rng = env->seed;
    for (unsigned i = 0; i < nlocks; i++)
        counters[i] = (int)(bench_rng_next(&rng) % 1000u);

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dlocks, bytes));
    TRY(ptxemu_malloc(env->ctx, &dcounters, bytes));
    TRY(ptxemu_memset(env->ctx, dlocks, 0, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, dcounters, counters, bytes));
    unsigned lanes = cfg->lanes_per_lock, warps = cfg->warps_per_lock;
    void *args[] = {&dlocks, &dcounters, &lanes, &warps, &iters};
    ptxemu_dim3 grid = {nthreads / GI_BLOCK, 1, 1};
    ptxemu_dim3 block = {GI_BLOCK, 1, 1};
    TRY(ptxemu_launch(env->mod, "global_increment", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, locks, dlocks, bytes));
    TRY(ptxemu_memcpy_dtoh(env->ctx, got, dcounters, bytes));
#undef TRY

    double t0 = bench_now();
    for (unsigned i = 0; i < nlocks; i++)
        ref[i] = counters[i];
    for (unsigned t = 0; t < nthreads; t++)
        ref[gi_lock_of(t, cfg)] += (int)iters;
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[nlocks / 2] += 1;

    out = BENCH_PASS;
    for (unsigned i = 0; i < nlocks; i++) {
        if (got[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "counter[%u] = %d, expected %d (lost or extra increments)",
                     i, got[i], ref[i]);
            out = BENCH_FAIL;
            break;
        }
        if (locks[i] != 0) {
            snprintf(env->msg, sizeof env->msg,
                     "lock[%u] = %d after the kernel, expected 0 (free)", i,
                     locks[i]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (dlocks) ptxemu_free(env->ctx, dlocks);
    if (dcounters) ptxemu_free(env->ctx, dcounters);
    free(counters);
    free(locks);
    free(ref);
    free(got);
    return out;
}

static bench_outcome gi_run_fig3(bench_env *env)
{
    static const gi_config cfg = {32, 2};
    return gi_run(env, &cfg);
}

static bench_outcome gi_run_intra(bench_env *env)
{
    static const gi_config cfg = {32, 1};
    return gi_run(env, &cfg);
}

static bench_outcome gi_run_inter(bench_env *env)
{
    static const gi_config cfg = {1, 8};
    return gi_run(env, &cfg);
}

const bench_def bench_global_increment = {
    "global-increment",
    "CAS lock per slot, each thread increments its slot; 32 lanes x 2 warps per lock (spin seed Fig. 3)",
    "global-increment/kernels.ptx", gi_run_fig3};
const bench_def bench_global_increment_intra = {
    "global-increment-intra",
    "global-increment with one lock per warp: intra-warp contention only",
    "global-increment/kernels.ptx", gi_run_intra};
const bench_def bench_global_increment_inter = {
    "global-increment-inter",
    "global-increment with one lock per lane across 8 warps: inter-warp contention only",
    "global-increment/kernels.ptx", gi_run_inter};
