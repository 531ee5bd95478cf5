/* benchmarks/vector-add/driver.c — c = a + b over n floats.
 *
 * Sizes: tiny 50,000 elements (the CUDA sample's default), small 2^20,
 * paper 2^22; 256 threads per CTA.  The check is exact: one IEEE single
 * add, correctly rounded on both sides, gives the same bits. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VA_BLOCK 256u

static bench_outcome vector_add_run(bench_env *env)
{
    unsigned n = env->size == BENCH_TINY    ? 50000u
                 : env->size == BENCH_SMALL ? (1u << 20)
                                            : (1u << 22);
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    float *ref = malloc(bytes);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr da = 0, db = 0, dc = 0;
    if (!a || !b || !c || !ref) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (unsigned i = 0; i < n; i++) {
        a[i] = bench_rng_float(&rng) * 200.0f - 100.0f;
        b[i] = bench_rng_float(&rng) * 200.0f - 100.0f;
    }

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &da, bytes));
    TRY(ptxemu_malloc(env->ctx, &db, bytes));
    TRY(ptxemu_malloc(env->ctx, &dc, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, da, a, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, db, b, bytes));
    void *args[] = {&da, &db, &dc, &n};
    ptxemu_dim3 grid = {(n + VA_BLOCK - 1) / VA_BLOCK, 1, 1};
    ptxemu_dim3 block = {VA_BLOCK, 1, 1};
    TRY(ptxemu_launch(env->mod, "vector_add", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, c, dc, bytes));
#undef TRY

    double t0 = bench_now();
    for (unsigned i = 0; i < n; i++)
        ref[i] = a[i] + b[i];
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n / 2] += 1.0f;

    out = BENCH_PASS;
    for (unsigned i = 0; i < n; i++) {
        if (memcmp(&c[i], &ref[i], sizeof(float)) != 0) {
            snprintf(env->msg, sizeof env->msg,
                     "c[%u] = %.9g, reference %.9g", i, (double)c[i],
                     (double)ref[i]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (da) ptxemu_free(env->ctx, da);
    if (db) ptxemu_free(env->ctx, db);
    if (dc) ptxemu_free(env->ctx, dc);
    free(a);
    free(b);
    free(c);
    free(ref);
    return out;
}

const bench_def bench_vector_add = {
    "vector-add", "c[i] = a[i] + b[i] over n floats", "vector-add/kernels.ptx",
    vector_add_run};
