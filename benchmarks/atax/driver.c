/* benchmarks/atax/driver.c — host driver for the PolyBench-style ATAX:
 * seeded random A (nx x ny) and x, atax_1 then atax_2 (the intermediate
 * tmp = A x stays on the device), y compared with a CPU reference that sums
 * in the same order with fmaf. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATAX_BLOCK 256

typedef struct atax_cfg {
    int nx, ny;
} atax_cfg;

static atax_cfg atax_config(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (atax_cfg){512, 448};    /* 2 CTAs per kernel */
    case BENCH_SMALL: return (atax_cfg){2048, 2048}; /* 8 CTAs */
    default: return (atax_cfg){4096, 4096};          /* PolyBench/GPU default: 16 CTAs */
    }
}

static void atax_reference(const float *a, const float *x, float *tmp, float *y, int nx,
                           int ny)
{
    for (int i = 0; i < nx; i++) {
        float acc = 0.0f;
        for (int j = 0; j < ny; j++)
            acc = fmaf(a[(size_t)i * ny + j], x[j], acc);
        tmp[i] = acc;
    }
    for (int j = 0; j < ny; j++) {
        float acc = 0.0f;
        for (int i = 0; i < nx; i++)
            acc = fmaf(a[(size_t)i * ny + j], tmp[i], acc);
        y[j] = acc;
    }
}

static bench_outcome atax_device(bench_env *env, const float *a, const float *x, float *y,
                                 int nx, int ny)
{
    ptxemu_dptr d_a, d_x, d_tmp, d_y;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, (size_t)nx * ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_x, (size_t)ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_tmp, (size_t)nx * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_y, (size_t)ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, (size_t)nx * ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_x, x, (size_t)ny * sizeof(float)));
    ptxemu_dim3 block = {ATAX_BLOCK, 1, 1};
    ptxemu_dim3 g1 = {(unsigned)((nx + ATAX_BLOCK - 1) / ATAX_BLOCK), 1, 1};
    ptxemu_dim3 g2 = {(unsigned)((ny + ATAX_BLOCK - 1) / ATAX_BLOCK), 1, 1};
    void *a1[] = {&d_a, &d_x, &d_tmp, &nx, &ny};
    BENCH_TRY(env, ptxemu_launch(env->mod, "atax_1", g1, block, 0, a1));
    void *a2[] = {&d_a, &d_tmp, &d_y, &nx, &ny};
    BENCH_TRY(env, ptxemu_launch(env->mod, "atax_2", g2, block, 0, a2));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, y, d_y, (size_t)ny * sizeof(float)));
    ptxemu_dptr all[] = {d_a, d_x, d_tmp, d_y};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-5 (entries are large sums of
 * products in [0,1)); same fmaf chains in the same order, so an exact
 * emulator is bit-identical. */
static bench_outcome atax_run(bench_env *env)
{
    atax_cfg c = atax_config(env->size);
    size_t na = (size_t)c.nx * c.ny;
    float *a = malloc(na * sizeof *a);
    float *vec = malloc(((size_t)c.ny * 3 + (size_t)c.nx) * sizeof *vec);
    bench_outcome out;
    if (!a || !vec) {
        snprintf(env->msg, sizeof env->msg, "atax: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    float *x = vec, *y = x + c.ny, *ref_y = y + c.ny, *ref_tmp = ref_y + c.ny;
    uint64_t st = env->seed;
    for (size_t k = 0; k < na; k++)
        a[k] = bench_rng_float(&st);
    for (int j = 0; j < c.ny; j++)
        x[j] = bench_rng_float(&st);

    out = atax_device(env, a, x, y, c.nx, c.ny);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    atax_reference(a, x, ref_tmp, ref_y, c.nx, c.ny);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref_y[c.ny / 2] *= 1.001f;
    for (int j = 0; j < c.ny; j++) {
        float tol = 1e-5f * fabsf(ref_y[j]) + 1e-5f;
        if (!(fabsf(y[j] - ref_y[j]) <= tol)) {
            snprintf(env->msg, sizeof env->msg, "y[%d]: got %.9g, expected %.9g", j, y[j],
                     ref_y[j]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    free(a);
    free(vec);
    return out;
}

const bench_def bench_atax = {
    "atax", "PolyBench ATAX: y = A^T (A x) as two matrix-vector kernels",
    "atax/kernels.ptx", atax_run};
