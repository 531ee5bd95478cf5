/* benchmarks/bicg/driver.c — host driver for the PolyBench-style BICG:
 * seeded random A (nx x ny), r and p; bicg_1 computes s = A^T r and bicg_2
 * q = A p; both compared with a CPU reference that sums in the same order
 * with fmaf. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BICG_BLOCK 256

typedef struct bicg_cfg {
    int nx, ny;
} bicg_cfg;

static bicg_cfg bicg_config(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (bicg_cfg){448, 512};    /* 2 CTAs per kernel */
    case BENCH_SMALL: return (bicg_cfg){2048, 2048}; /* 8 CTAs */
    default: return (bicg_cfg){4096, 4096};          /* PolyBench/GPU default: 16 CTAs */
    }
}

static void bicg_reference(const float *a, const float *r, const float *p, float *s,
                           float *q, int nx, int ny)
{
    for (int j = 0; j < ny; j++) {
        float acc = 0.0f;
        for (int i = 0; i < nx; i++)
            acc = fmaf(r[i], a[(size_t)i * ny + j], acc);
        s[j] = acc;
    }
    for (int i = 0; i < nx; i++) {
        float acc = 0.0f;
        for (int j = 0; j < ny; j++)
            acc = fmaf(a[(size_t)i * ny + j], p[j], acc);
        q[i] = acc;
    }
}

static bench_outcome bicg_device(bench_env *env, const float *a, const float *r,
                                 const float *p, float *s, float *q, int nx, int ny)
{
    ptxemu_dptr d_a, d_r, d_p, d_s, d_q;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, (size_t)nx * ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_r, (size_t)nx * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_p, (size_t)ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_s, (size_t)ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_q, (size_t)nx * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, (size_t)nx * ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_r, r, (size_t)nx * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_p, p, (size_t)ny * sizeof(float)));
    ptxemu_dim3 block = {BICG_BLOCK, 1, 1};
    ptxemu_dim3 g1 = {(unsigned)((ny + BICG_BLOCK - 1) / BICG_BLOCK), 1, 1};
    ptxemu_dim3 g2 = {(unsigned)((nx + BICG_BLOCK - 1) / BICG_BLOCK), 1, 1};
    void *a1[] = {&d_a, &d_r, &d_s, &nx, &ny};
    BENCH_TRY(env, ptxemu_launch(env->mod, "bicg_1", g1, block, 0, a1));
    void *a2[] = {&d_a, &d_p, &d_q, &nx, &ny};
    BENCH_TRY(env, ptxemu_launch(env->mod, "bicg_2", g2, block, 0, a2));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, s, d_s, (size_t)ny * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, q, d_q, (size_t)nx * sizeof(float)));
    ptxemu_dptr all[] = {d_a, d_r, d_p, d_s, d_q};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-5; same fmaf chains in the
 * same order, so an exact emulator is bit-identical. */
static bench_outcome bicg_compare(bench_env *env, const char *what, const float *got,
                                  const float *ref, int count)
{
    for (int k = 0; k < count; k++) {
        float tol = 1e-5f * fabsf(ref[k]) + 1e-5f;
        if (!(fabsf(got[k] - ref[k]) <= tol)) {
            snprintf(env->msg, sizeof env->msg, "%s[%d]: got %.9g, expected %.9g", what, k,
                     got[k], ref[k]);
            return BENCH_FAIL;
        }
    }
    return BENCH_PASS;
}

static bench_outcome bicg_run(bench_env *env)
{
    bicg_cfg c = bicg_config(env->size);
    size_t na = (size_t)c.nx * c.ny;
    float *a = malloc(na * sizeof *a);
    float *vec = malloc(((size_t)c.nx * 3 + (size_t)c.ny * 3) * sizeof *vec);
    bench_outcome out;
    if (!a || !vec) {
        snprintf(env->msg, sizeof env->msg, "bicg: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    float *r = vec, *q = r + c.nx, *ref_q = q + c.nx;
    float *p = ref_q + c.nx, *s = p + c.ny, *ref_s = s + c.ny;
    uint64_t st = env->seed;
    for (size_t k = 0; k < na; k++)
        a[k] = bench_rng_float(&st);
    for (int i = 0; i < c.nx; i++)
        r[i] = bench_rng_float(&st);
    for (int j = 0; j < c.ny; j++)
        p[j] = bench_rng_float(&st);

    out = bicg_device(env, a, r, p, s, q, c.nx, c.ny);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    bicg_reference(a, r, p, ref_s, ref_q, c.nx, c.ny);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref_q[c.nx / 2] *= 1.001f;
    out = bicg_compare(env, "s", s, ref_s, c.ny);
    if (out == BENCH_PASS)
        out = bicg_compare(env, "q", q, ref_q, c.nx);
done:
    free(a);
    free(vec);
    return out;
}

const bench_def bench_bicg = {
    "bicg", "PolyBench BICG: s = A^T r and q = A p as two matrix-vector kernels",
    "bicg/kernels.ptx", bicg_run};
