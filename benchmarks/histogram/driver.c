/* histogram/driver.c — 256-bin histogram of a byte stream.
 *
 * Host flow (SDK histogram256): generate bytes (skewed towards low values,
 * the AND of two uniform bytes, so shared-memory atomics collide), launch
 * histogram256_partial on P CTAs of 192 threads (one partial histogram per
 * CTA), then histogram256_merge with one CTA of 256 threads per bin.
 * Check: exact counts against a sequential CPU histogram. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIST_BINS 256 /* must match kernels.cu */
#define HIST_THREADS 192
#define MERGE_THREADS 256

typedef struct hist_size {
    unsigned bytes, partials;
} hist_size;

static hist_size hist_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (hist_size){1u << 18, 16};
    case BENCH_SMALL:
        return (hist_size){1u << 22, 64};
    default: /* SDK default 64 MiB; thesis Table 3.3 "HIST": 256 CTAs of 192 */
        return (hist_size){1u << 26, 256};
    }
}

static bench_outcome hist_device(bench_env *env, const hist_size *sz,
                                 const uint8_t *data, uint32_t *hist)
{
    ptxemu_dptr d_data, d_partial, d_hist;
    size_t partial_bytes = (size_t)sz->partials * HIST_BINS * sizeof(uint32_t);
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_data, sz->bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_partial, partial_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_hist, HIST_BINS * sizeof(uint32_t)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_data, data, sz->bytes));

    unsigned words = sz->bytes / 4, partials = sz->partials;
    void *pargs[] = {&d_partial, &d_data, &words};
    BENCH_TRY(env, ptxemu_launch(env->mod, "histogram256_partial",
                                 (ptxemu_dim3){partials, 1, 1},
                                 (ptxemu_dim3){HIST_THREADS, 1, 1}, 0, pargs));
    void *margs[] = {&d_hist, &d_partial, &partials};
    BENCH_TRY(env, ptxemu_launch(env->mod, "histogram256_merge",
                                 (ptxemu_dim3){HIST_BINS, 1, 1},
                                 (ptxemu_dim3){MERGE_THREADS, 1, 1}, 0, margs));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, hist, d_hist, HIST_BINS * sizeof(uint32_t)));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_data));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_partial));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_hist));
    return BENCH_PASS;
}

static bench_outcome hist_run(bench_env *env)
{
    hist_size sz = hist_pick(env->size);
    uint8_t *data = malloc(sz.bytes);
    if (!data) {
        snprintf(env->msg, sizeof env->msg, "histogram: out of host memory");
        return BENCH_ERROR;
    }
    uint64_t rng = env->seed;
    for (unsigned i = 0; i < sz.bytes; i += 4) {
        uint64_t r = bench_rng_next(&rng);
        for (int k = 0; k < 4; k++)
            data[i + (unsigned)k] = (uint8_t)((r >> (16 * k)) & (r >> (16 * k + 8)));
    }

    uint32_t hist[HIST_BINS];
    bench_outcome rc = hist_device(env, &sz, data, hist);
    if (rc == BENCH_PASS) {
        uint32_t ref[HIST_BINS];
        double t0 = bench_now();
        memset(ref, 0, sizeof ref);
        for (unsigned i = 0; i < sz.bytes; i++)
            ref[data[i]]++;
        env->ref_seconds = bench_now() - t0;
        if (env->break_reference)
            ref[200]++;
        for (int b = 0; b < HIST_BINS; b++)
            if (hist[b] != ref[b]) {
                snprintf(env->msg, sizeof env->msg,
                         "histogram: bin %d = %u, reference %u", b, hist[b], ref[b]);
                rc = BENCH_FAIL;
                break;
            }
    }
    free(data);
    return rc;
}

const bench_def bench_histogram = {
    "histogram", "256-bin byte histogram (shared-memory atomics, merged partials)",
    "histogram/kernels.ptx", hist_run};
