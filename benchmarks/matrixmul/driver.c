/* matrixmul/driver.c — C = A * B with shared-memory tiles.
 *
 * Host flow (SDK matrixMul): generate A (hA x wA) and B (wA x wB), copy in,
 * launch matrix_mul on a (wB/16, hA/16) grid of 16x16 CTAs, copy C back,
 * compare with a CPU reference.
 *
 * Check: the reference accumulates each element with fmaf over k in the same
 * order as the kernel, so a correct run is bit-identical; the tolerance
 * (1e-6 absolute + 1e-6 relative; elements are O(10)) only guards against a
 * legal difference in fma contraction.  A wrong tile or element is off by
 * O(0.1) or more. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MM_TILE 16 /* must match kernels.cu */

typedef struct mm_size {
    int ha, wa, wb;
} mm_size;

static mm_size mm_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (mm_size){64, 64, 128};
    case BENCH_SMALL:
        return (mm_size){256, 256, 512};
    default: /* SDK default: A 320x320, B 320x640 (ICC Table 3 "MM") */
        return (mm_size){320, 320, 640};
    }
}

static void mm_reference(float *c, const float *a, const float *b, const mm_size *sz)
{
    for (int r = 0; r < sz->ha; r++)
        for (int col = 0; col < sz->wb; col++) {
            float sum = 0.0f;
            for (int k = 0; k < sz->wa; k++)
                sum = fmaf(a[(size_t)r * sz->wa + k], b[(size_t)k * sz->wb + col], sum);
            c[(size_t)r * sz->wb + col] = sum;
        }
}

static bench_outcome mm_device(bench_env *env, const mm_size *sz, const float *a,
                               const float *b, float *c)
{
    size_t a_bytes = (size_t)sz->ha * sz->wa * sizeof(float);
    size_t b_bytes = (size_t)sz->wa * sz->wb * sizeof(float);
    size_t c_bytes = (size_t)sz->ha * sz->wb * sizeof(float);
    ptxemu_dptr d_a, d_b, d_c;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, a_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_b, b_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_c, c_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, a_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_b, b, b_bytes));

    int wa = sz->wa, wb = sz->wb;
    void *args[] = {&d_c, &d_a, &d_b, &wa, &wb};
    BENCH_TRY(env, ptxemu_launch(env->mod, "matrix_mul",
                                 (ptxemu_dim3){(unsigned)(sz->wb / MM_TILE),
                                               (unsigned)(sz->ha / MM_TILE), 1},
                                 (ptxemu_dim3){MM_TILE, MM_TILE, 1}, 0, args));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, c, d_c, c_bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_a));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_b));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_c));
    return BENCH_PASS;
}

static bench_outcome mm_run(bench_env *env)
{
    mm_size sz = mm_pick(env->size);
    size_t na = (size_t)sz.ha * sz.wa, nb = (size_t)sz.wa * sz.wb,
           nc = (size_t)sz.ha * sz.wb;
    float *a = malloc(na * sizeof(float)), *b = malloc(nb * sizeof(float));
    float *c = malloc(nc * sizeof(float)), *ref = malloc(nc * sizeof(float));
    bench_outcome rc = BENCH_ERROR;
    if (!a || !b || !c || !ref) {
        snprintf(env->msg, sizeof env->msg, "matrixmul: out of host memory");
        goto done;
    }

    uint64_t rng = env->seed;
    for (size_t i = 0; i < na; i++)
        a[i] = 2.0f * bench_rng_float(&rng) - 1.0f;
    for (size_t i = 0; i < nb; i++)
        b[i] = 2.0f * bench_rng_float(&rng) - 1.0f;

    rc = mm_device(env, &sz, a, b, c);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    mm_reference(ref, a, b, &sz);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[nc - 17] += 0.25f;

    rc = BENCH_PASS;
    for (size_t i = 0; i < nc; i++) {
        double diff = fabs((double)c[i] - (double)ref[i]);
        if (!(diff <= 1e-6 + 1e-6 * fabs((double)ref[i]))) {
            snprintf(env->msg, sizeof env->msg,
                     "matrixmul: C[%zu][%zu] = %.9g, reference %.9g",
                     i / (size_t)sz.wb, i % (size_t)sz.wb, (double)c[i], (double)ref[i]);
            rc = BENCH_FAIL;
            break;
        }
    }
done:
    free(a);
    free(b);
    free(c);
    free(ref);
    return rc;
}

const bench_def bench_matrixmul = {
    "matrixmul", "dense float matrix product with 16x16 shared-memory tiles",
    "matrixmul/kernels.ptx", mm_run};
