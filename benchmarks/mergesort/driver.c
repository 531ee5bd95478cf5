/* mergesort/driver.c — sort N (key, value) pairs by key (stable: values are
 * the original indices, ties broken by value).
 *
 * Host flow: generate keys with many duplicates, pad to a multiple of 1024
 * with (0xffffffff, index) pairs that sort last, launch sort_block (runs of
 * 1024), then for width = 1024, 2048, ... while width < padded N: launch
 * merge_partition (one thread per 512-element output tile) and merge_tile
 * (one CTA per tile), ping-ponging two key/value buffer pairs.  Copy the
 * first N pairs back.  Check: exact against qsort on the 64-bit pairs. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define SORT_THREADS 512 /* must match kernels.cu */
#define SORT_ELEMS 1024
#define MERGE_TILE 512
#define MERGE_THREADS 256
#define PART_THREADS 128

static unsigned ms_n(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return 5000; /* 5 runs, 3 merge passes */
    case BENCH_SMALL:
        return 100000; /* 98 runs, 7 merge passes (odd run counts) */
    default: /* 1 Mi pairs: 1024 + 10 x (16 + 2048) CTAs, near thesis Table 4.4 "MS" */
        return 1u << 20;
    }
}

static bench_outcome ms_device(bench_env *env, unsigned n, unsigned n_pad,
                               const uint32_t *keys, const uint32_t *vals,
                               uint32_t *out_keys, uint32_t *out_vals)
{
    size_t bytes = (size_t)n_pad * sizeof(uint32_t);
    unsigned tiles = n_pad / MERGE_TILE;
    ptxemu_dptr k[2], v[2], d_splits;
    for (int i = 0; i < 2; i++) {
        BENCH_TRY(env, ptxemu_malloc(env->ctx, &k[i], bytes));
        BENCH_TRY(env, ptxemu_malloc(env->ctx, &v[i], bytes));
    }
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_splits, (size_t)tiles * sizeof(uint32_t)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, k[0], keys, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, v[0], vals, bytes));

    void *sargs[] = {&k[0], &v[0]};
    BENCH_TRY(env, ptxemu_launch(env->mod, "sort_block", (ptxemu_dim3){n_pad / SORT_ELEMS, 1, 1},
                                 (ptxemu_dim3){SORT_THREADS, 1, 1}, 0, sargs));
    int cur = 0;
    for (unsigned width = SORT_ELEMS; width < n_pad; width *= 2) {
        void *pargs[] = {&d_splits, &k[cur], &v[cur], &n_pad, &width, &tiles};
        BENCH_TRY(env, ptxemu_launch(env->mod, "merge_partition",
                                     (ptxemu_dim3){(tiles + PART_THREADS - 1) / PART_THREADS, 1, 1},
                                     (ptxemu_dim3){PART_THREADS, 1, 1}, 0, pargs));
        void *margs[] = {&k[1 - cur], &v[1 - cur], &k[cur], &v[cur], &d_splits, &n_pad, &width};
        BENCH_TRY(env, ptxemu_launch(env->mod, "merge_tile", (ptxemu_dim3){tiles, 1, 1},
                                     (ptxemu_dim3){MERGE_THREADS, 1, 1}, 0, margs));
        cur = 1 - cur;
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out_keys, k[cur], (size_t)n * sizeof(uint32_t)));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out_vals, v[cur], (size_t)n * sizeof(uint32_t)));
    for (int i = 0; i < 2; i++) {
        BENCH_TRY(env, ptxemu_free(env->ctx, k[i]));
        BENCH_TRY(env, ptxemu_free(env->ctx, v[i]));
    }
    BENCH_TRY(env, ptxemu_free(env->ctx, d_splits));
    return BENCH_PASS;
}

static int ms_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bench_outcome ms_run(bench_env *env)
{
    unsigned n = ms_n(env->size);
    unsigned n_pad = (n + SORT_ELEMS - 1) / SORT_ELEMS * SORT_ELEMS;
    uint32_t *keys = malloc((size_t)n_pad * sizeof(uint32_t));
    uint32_t *vals = malloc((size_t)n_pad * sizeof(uint32_t));
    uint32_t *out_keys = malloc((size_t)n * sizeof(uint32_t));
    uint32_t *out_vals = malloc((size_t)n * sizeof(uint32_t));
    uint64_t *ref = malloc((size_t)n * sizeof(uint64_t));
    bench_outcome rc = BENCH_ERROR;
    if (!keys || !vals || !out_keys || !out_vals || !ref) {
        snprintf(env->msg, sizeof env->msg, "mergesort: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (unsigned i = 0; i < n_pad; i++) {
        /* ~4 copies of every key value, so the value tie-break matters */
        keys[i] = i < n ? (uint32_t)(bench_rng_next(&rng) % (n / 4 + 1)) : 0xffffffffu;
        vals[i] = i;
    }

    rc = ms_device(env, n, n_pad, keys, vals, out_keys, out_vals);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    for (unsigned i = 0; i < n; i++)
        ref[i] = (uint64_t)keys[i] << 32 | vals[i];
    qsort(ref, n, sizeof *ref, ms_cmp);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n / 2] ^= 1;

    for (unsigned i = 0; i < n; i++)
        if (out_keys[i] != (uint32_t)(ref[i] >> 32) || out_vals[i] != (uint32_t)ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "mergesort: position %u holds (key %u, value %u), reference (%u, %u)",
                     i, out_keys[i], out_vals[i], (uint32_t)(ref[i] >> 32), (uint32_t)ref[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(keys);
    free(vals);
    free(out_keys);
    free(out_vals);
    free(ref);
    return rc;
}

const bench_def bench_mergesort = {
    "mergesort", "key-value merge sort: bitonic block sort + merge-path passes",
    "mergesort/kernels.ptx", ms_run};
