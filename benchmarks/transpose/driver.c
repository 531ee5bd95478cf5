/* transpose/driver.c — matrix transpose with three kernels.
 *
 * Host flow (SDK transpose: each variant run and checked in turn) on an
 * H x W input A (W != H, so swapped dimensions are exercised):
 *   T = transpose_naive(A)      check T == A^T
 *   T = transpose_coalesced(A)  check T == A^T  (T cleared first)
 *   B = transpose_nobank(T)     check B == A    (transposing back)
 * Check: exact (pure data movement). */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TP_TILE 32 /* must match kernels.cu */
#define TP_ROWS 8

typedef struct tp_size {
    int width, height; /* of the input A */
} tp_size;

static tp_size tp_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (tp_size){256, 128};
    case BENCH_SMALL:
        return (tp_size){2048, 1024};
    default: /* thesis Table 4.4 "TP": 65536 CTAs per kernel */
        return (tp_size){8192, 8192};
    }
}

static bench_outcome tp_compare(bench_env *env, const char *what,
                                const float *got, const float *want,
                                size_t n, int cols)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "transpose: %s: [%zu][%zu] = %.9g, reference %.9g", what,
                     i / (size_t)cols, i % (size_t)cols, (double)got[i],
                     (double)want[i]);
            return BENCH_FAIL;
        }
    return BENCH_PASS;
}

static ptxemu_status tp_launch(bench_env *env, const char *kernel, ptxemu_dptr out,
                               ptxemu_dptr in, int width, int height)
{
    void *args[] = {&out, &in, &width, &height};
    return ptxemu_launch(env->mod, kernel,
                         (ptxemu_dim3){(unsigned)(width / TP_TILE),
                                       (unsigned)(height / TP_TILE), 1},
                         (ptxemu_dim3){TP_TILE, TP_ROWS, 1}, 0, args);
}

/* Runs the three kernels (two at size thesis), checking each result against ref (= A^T) / a. */
static bench_outcome tp_device(bench_env *env, const tp_size *sz, const float *a,
                               const float *ref, float *buf)
{
    size_t n = (size_t)sz->width * (size_t)sz->height;
    size_t bytes = n * sizeof(float);
    int w = sz->width, h = sz->height;
    ptxemu_dptr d_a, d_t;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_t, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, bytes));

    /* The thesis's ch. 4 set has no naive transpose, and at 65536 CTAs its
     * uncoalesced stores take 290 M cycles on onac32: size thesis skips it. */
    bench_outcome rc = BENCH_PASS;
    if (env->size != BENCH_THESIS) {
        BENCH_TRY(env, ptxemu_memset(env->ctx, d_t, 0, bytes));
        BENCH_TRY(env, tp_launch(env, "transpose_naive", d_t, d_a, w, h));
        BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, buf, d_t, bytes));
        rc = tp_compare(env, "naive", buf, ref, n, h);
    }

    if (rc == BENCH_PASS) {
        BENCH_TRY(env, ptxemu_memset(env->ctx, d_t, 0, bytes));
        BENCH_TRY(env, tp_launch(env, "transpose_coalesced", d_t, d_a, w, h));
        BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, buf, d_t, bytes));
        rc = tp_compare(env, "coalesced", buf, ref, n, h);
    }
    if (rc == BENCH_PASS) {
        BENCH_TRY(env, ptxemu_memset(env->ctx, d_a, 0, bytes));
        BENCH_TRY(env, tp_launch(env, "transpose_nobank", d_a, d_t, h, w));
        BENCH_TRY(env, ptxemu_synchronize(env->ctx));
        BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, buf, d_a, bytes));
        rc = tp_compare(env, "nobank (back)", buf, a, n, w);
    }
    BENCH_TRY(env, ptxemu_free(env->ctx, d_a));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_t));
    return rc;
}

static bench_outcome tp_run(bench_env *env)
{
    tp_size sz = tp_pick(env->size);
    size_t n = (size_t)sz.width * (size_t)sz.height;
    float *a = malloc(n * sizeof(float)), *ref = malloc(n * sizeof(float));
    float *buf = malloc(n * sizeof(float));
    bench_outcome rc = BENCH_ERROR;
    if (!a || !ref || !buf) {
        snprintf(env->msg, sizeof env->msg, "transpose: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (size_t i = 0; i < n; i++)
        a[i] = bench_rng_float(&rng);

    double t0 = bench_now();
    for (size_t r = 0; r < (size_t)sz.height; r++)
        for (size_t c = 0; c < (size_t)sz.width; c++)
            ref[c * (size_t)sz.height + r] = a[r * (size_t)sz.width + c];
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n / 2 + 5] += 1.0f;

    rc = tp_device(env, &sz, a, ref, buf);
done:
    free(a);
    free(ref);
    free(buf);
    return rc;
}

const bench_def bench_transpose = {
    "transpose", "matrix transpose: naive, shared-tile, padded shared-tile",
    "transpose/kernels.ptx", tp_run};
