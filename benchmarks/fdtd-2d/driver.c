/* benchmarks/fdtd-2d/driver.c — host driver for the PolyBench-style
 * FDTD-2D: seeded random fields, tmax time steps of three kernel launches
 * each (fdtd_ey, fdtd_ex, fdtd_hz), all three fields checked against a CPU
 * reference that performs the same fmaf updates in the same order. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BX 32
#define BY 8

typedef struct fdtd_cfg {
    int nx, ny, tmax;
} fdtd_cfg;

static fdtd_cfg fdtd_config(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (fdtd_cfg){64, 64, 8};      /* 2 x 8 CTAs */
    case BENCH_SMALL: return (fdtd_cfg){512, 512, 20};  /* 16 x 64 CTAs */
    /* PolyBench/GPU default grid 2048 x 2048 (64 x 256 CTAs); 20 time
     * steps instead of its 500 to keep emulated runs bounded. */
    default: return (fdtd_cfg){2048, 2048, 20};
    }
}

static void fdtd_reference(float *ex, float *ey, float *hz, const float *fict,
                           const fdtd_cfg *c)
{
    int nx = c->nx, ny = c->ny;
    for (int t = 0; t < c->tmax; t++) {
        for (int j = 0; j < ny; j++)
            ey[j] = fict[t];
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++) {
                size_t k = (size_t)i * ny + j;
                ey[k] = fmaf(-0.5f, hz[k] - hz[k - ny], ey[k]);
            }
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++) {
                size_t k = (size_t)i * ny + j;
                ex[k] = fmaf(-0.5f, hz[k] - hz[k - 1], ex[k]);
            }
        for (int i = 0; i < nx - 1; i++)
            for (int j = 0; j < ny - 1; j++) {
                size_t k = (size_t)i * ny + j;
                float curl = ex[k + 1] - ex[k] + ey[k + ny] - ey[k];
                hz[k] = fmaf(-0.7f, curl, hz[k]);
            }
    }
}

static bench_outcome fdtd_device(bench_env *env, float *ex, float *ey, float *hz,
                                 const float *fict, const fdtd_cfg *c)
{
    int nx = c->nx, ny = c->ny;
    size_t bytes = (size_t)nx * ny * sizeof(float);
    ptxemu_dptr d_ex, d_ey, d_hz, d_fict;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_ex, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_ey, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_hz, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_fict, (size_t)c->tmax * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_ex, ex, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_ey, ey, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_hz, hz, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_fict, fict, (size_t)c->tmax * sizeof(float)));
    ptxemu_dim3 grid = {(unsigned)((ny + BX - 1) / BX), (unsigned)((nx + BY - 1) / BY), 1};
    ptxemu_dim3 block = {BX, BY, 1};
    void *a2[] = {&d_ex, &d_hz, &nx, &ny};
    void *a3[] = {&d_hz, &d_ex, &d_ey, &nx, &ny};
    for (int t = 0; t < c->tmax; t++) {
        void *a1[] = {&d_ey, &d_hz, &d_fict, &nx, &ny, &t};
        BENCH_TRY(env, ptxemu_launch(env->mod, "fdtd_ey", grid, block, 0, a1));
        BENCH_TRY(env, ptxemu_launch(env->mod, "fdtd_ex", grid, block, 0, a2));
        BENCH_TRY(env, ptxemu_launch(env->mod, "fdtd_hz", grid, block, 0, a3));
    }
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, ex, d_ex, bytes));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, ey, d_ey, bytes));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, hz, d_hz, bytes));
    ptxemu_dptr all[] = {d_ex, d_ey, d_hz, d_fict};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-5 (fields are of order 1..10
 * and cancel towards 0 in places, hence the absolute term).  The reference
 * repeats the same operations, so an exact emulator matches bit for bit. */
static bench_outcome fdtd_check(bench_env *env, const char *what, const float *got,
                                const float *ref, int ny, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        float tol = 1e-5f * fabsf(ref[k]) + 1e-5f;
        if (!(fabsf(got[k] - ref[k]) <= tol)) {
            snprintf(env->msg, sizeof env->msg,
                     "%s[%zu] (i %zu, j %zu): got %.9g, expected %.9g", what, k,
                     k / (size_t)ny, k % (size_t)ny, got[k], ref[k]);
            return BENCH_FAIL;
        }
    }
    return BENCH_PASS;
}

static bench_outcome fdtd_run(bench_env *env)
{
    fdtd_cfg c = fdtd_config(env->size);
    size_t count = (size_t)c.nx * c.ny;
    float *buf = malloc(6 * count * sizeof *buf);
    float *fict = malloc((size_t)c.tmax * sizeof *fict);
    bench_outcome out;
    if (!buf || !fict) {
        snprintf(env->msg, sizeof env->msg, "fdtd-2d: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    float *ex = buf, *ey = ex + count, *hz = ey + count;
    float *rex = hz + count, *rey = rex + count, *rhz = rey + count;
    uint64_t st = env->seed;
    for (size_t k = 0; k < 3 * count; k++)
        buf[k] = bench_rng_float(&st);
    memcpy(rex, ex, 3 * count * sizeof *buf);
    for (int t = 0; t < c.tmax; t++)
        fict[t] = (float)t;

    out = fdtd_device(env, ex, ey, hz, fict, &c);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    fdtd_reference(rex, rey, rhz, fict, &c);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        rhz[count / 2 + 9] += 0.25f;
    out = fdtd_check(env, "ex", ex, rex, c.ny, count);
    if (out == BENCH_PASS)
        out = fdtd_check(env, "ey", ey, rey, c.ny, count);
    if (out == BENCH_PASS)
        out = fdtd_check(env, "hz", hz, rhz, c.ny, count);
done:
    free(buf);
    free(fict);
    return out;
}

const bench_def bench_fdtd2d = {
    "fdtd-2d", "PolyBench 2-D FDTD: three field-update kernels per time step",
    "fdtd-2d/kernels.ptx", fdtd_run};
