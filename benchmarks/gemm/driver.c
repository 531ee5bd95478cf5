/* benchmarks/gemm/driver.c — host driver for the PolyBench-style GEMM:
 * seeded random A, B, C, one gemm launch, C compared with a CPU reference
 * that accumulates in the same k order with fmaf. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BX 32
#define BY 8

static int gemm_dim(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return 64;   /* 2 x 8 CTAs */
    case BENCH_SMALL: return 256; /* 8 x 32 CTAs */
    default: return 512;          /* PolyBench/GPU default: 16 x 64 CTAs */
    }
}

static void gemm_reference(const float *a, const float *b, float *c, int ni, int nj,
                           int nk, float alpha, float beta)
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            float acc = 0.0f;
            for (int k = 0; k < nk; k++)
                acc = fmaf(a[(size_t)i * nk + k], b[(size_t)k * nj + j], acc);
            c[(size_t)i * nj + j] = fmaf(alpha, acc, beta * c[(size_t)i * nj + j]);
        }
}

static bench_outcome gemm_device(bench_env *env, const float *a, const float *b, float *c,
                                 int n, float alpha, float beta)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    ptxemu_dptr d_a, d_b, d_c;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_b, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_c, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_b, b, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_c, c, bytes));
    ptxemu_dim3 grid = {(unsigned)((n + BX - 1) / BX), (unsigned)((n + BY - 1) / BY), 1};
    ptxemu_dim3 block = {BX, BY, 1};
    void *args[] = {&d_a, &d_b, &d_c, &n, &n, &n, &alpha, &beta};
    BENCH_TRY(env, ptxemu_launch(env->mod, "gemm", grid, block, 0, args));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, c, d_c, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_a));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_b));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_c));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-5 (entries are of order n/4);
 * same fmaf chain in the same order, so an exact emulator is bit-identical. */
static bench_outcome gemm_run(bench_env *env)
{
    int n = gemm_dim(env->size);
    size_t count = (size_t)n * n;
    float alpha = 1.5f, beta = 1.2f; /* PolyBench's constants */
    float *buf = malloc(4 * count * sizeof *buf);
    bench_outcome out;
    if (!buf) {
        snprintf(env->msg, sizeof env->msg, "gemm: out of host memory");
        return BENCH_ERROR;
    }
    float *a = buf, *b = a + count, *c = b + count, *ref = c + count;
    uint64_t st = env->seed;
    for (size_t k = 0; k < 3 * count; k++)
        buf[k] = bench_rng_float(&st);
    memcpy(ref, c, count * sizeof *c);

    out = gemm_device(env, a, b, c, n, alpha, beta);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    gemm_reference(a, b, ref, n, n, n, alpha, beta);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[count / 2 + 1] += 1.0f;
    for (size_t k = 0; k < count; k++) {
        float tol = 1e-5f * fabsf(ref[k]) + 1e-5f;
        if (!(fabsf(c[k] - ref[k]) <= tol)) {
            snprintf(env->msg, sizeof env->msg,
                     "c[%zu] (row %zu, col %zu): got %.9g, expected %.9g", k,
                     k / (size_t)n, k % (size_t)n, c[k], ref[k]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    free(buf);
    return out;
}

const bench_def bench_gemm = {
    "gemm", "PolyBench GEMM: C = alpha*A*B + beta*C, one thread per element",
    "gemm/kernels.ptx", gemm_run};
