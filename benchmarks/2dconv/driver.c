/* benchmarks/2dconv/driver.c — host driver for the PolyBench-style 2-D
 * convolution: random image in, one conv2d launch, image out.  The CPU
 * reference applies the same taps in the same order with fmaf. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* must match kernels.cu */
#define W00 0.25f
#define W01 (-0.5f)
#define W02 0.125f
#define W10 0.75f
#define W11 0.5f
#define W12 (-0.25f)
#define W20 (-0.375f)
#define W21 0.625f
#define W22 0.0625f
#define BX 32
#define BY 8

static int conv_dim(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return 256;   /* 8 x 32 CTAs */
    case BENCH_SMALL: return 2048; /* 64 x 256 CTAs */
    default: return 4096;          /* PolyBench/GPU default: 128 x 512 CTAs */
    }
}

static void conv_reference(const float *a, float *b, int ni, int nj)
{
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++) {
            const float *up = a + (size_t)(i - 1) * nj + j;
            const float *mid = a + (size_t)i * nj + j;
            const float *down = a + (size_t)(i + 1) * nj + j;
            float v = W00 * up[-1];
            v = fmaf(W01, up[0], v);
            v = fmaf(W02, up[1], v);
            v = fmaf(W10, mid[-1], v);
            v = fmaf(W11, mid[0], v);
            v = fmaf(W12, mid[1], v);
            v = fmaf(W20, down[-1], v);
            v = fmaf(W21, down[0], v);
            v = fmaf(W22, down[1], v);
            b[(size_t)i * nj + j] = v;
        }
}

static bench_outcome conv_device(bench_env *env, const float *a, float *b, int ni, int nj)
{
    size_t bytes = (size_t)ni * nj * sizeof(float);
    ptxemu_dptr d_a, d_b;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_b, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, bytes));
    BENCH_TRY(env, ptxemu_memset(env->ctx, d_b, 0, bytes));
    ptxemu_dim3 grid = {(unsigned)((nj + BX - 1) / BX), (unsigned)((ni + BY - 1) / BY), 1};
    ptxemu_dim3 block = {BX, BY, 1};
    void *args[] = {&d_a, &d_b, &ni, &nj};
    BENCH_TRY(env, ptxemu_launch(env->mod, "conv2d", grid, block, 0, args));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, b, d_b, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_a));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_b));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-6.  Same operations in the
 * same order, so an exact emulator matches bit for bit. */
static bench_outcome conv_run(bench_env *env)
{
    int n = conv_dim(env->size);
    size_t count = (size_t)n * n;
    float *a = malloc(count * sizeof *a);
    float *b = malloc(count * sizeof *b);
    float *ref = calloc(count, sizeof *ref); /* border stays 0, as on the device */
    bench_outcome out;
    if (!a || !b || !ref) {
        snprintf(env->msg, sizeof env->msg, "2dconv: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    uint64_t st = env->seed;
    for (size_t k = 0; k < count; k++)
        a[k] = bench_rng_float(&st);

    out = conv_device(env, a, b, n, n);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    conv_reference(a, ref, n, n);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[count / 2 + 5] += 0.5f;
    for (size_t k = 0; k < count; k++) {
        float tol = 1e-5f * fabsf(ref[k]) + 1e-6f;
        if (!(fabsf(b[k] - ref[k]) <= tol)) {
            snprintf(env->msg, sizeof env->msg,
                     "b[%zu] (row %zu, col %zu): got %.9g, expected %.9g", k,
                     k / (size_t)n, k % (size_t)n, b[k], ref[k]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    free(a);
    free(b);
    free(ref);
    return out;
}

const bench_def bench_2dconv = {
    "2dconv", "PolyBench 2-D convolution with a 3x3 filter", "2dconv/kernels.ptx", conv_run};
