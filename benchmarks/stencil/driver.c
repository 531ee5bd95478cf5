/* benchmarks/stencil/driver.c — host driver for the Parboil-style 7-point
 * 3-D Jacobi stencil (CLASO Table 2 "ST": Parboil stencil, 1 kernel,
 * 128 CTAs of 128 threads).  A seeded random volume is copied into both
 * buffers; each time step is one launch of 32 x 4-thread CTAs over the x-y
 * plane, the host swapping input and output; the CPU reference repeats the
 * kernel's float operations in the same order. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST_TX 32 /* must match kernels.cu */
#define ST_TY 4

typedef struct st_size {
    int nx, ny, nz, steps;
} st_size;

/* paper: one step on a 128 x 128 x 32 volume, the x-y plane tiled by
 * (4, 32) = 128 CTAs of 32 x 4 threads, CLASO Table 2's "ST" grid (Parboil's
 * small dataset is 128 x 128 x 32). */
static st_size st_dims(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (st_size){64, 32, 8, 2};    /* (2, 8) = 16 CTAs */
    case BENCH_SMALL: return (st_size){128, 64, 16, 2}; /* (4, 16) = 64 CTAs */
    default: return (st_size){128, 128, 32, 1};         /* (4, 32) = 128 CTAs; also claso */
    }
}

/* Parboil's coefficients: c0 = 1/6, c1 = 1/36. */
static const float ST_C0 = 1.0f / 6.0f;
static const float ST_C1 = 1.0f / 6.0f / 6.0f;

static void st_reference_step(const float *a, float *b, int nx, int ny, int nz)
{
    size_t plane = (size_t)nx * ny;
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++) {
                size_t c = (size_t)k * plane + (size_t)j * nx + i;
                float s = a[c + plane] + a[c - plane];
                s = s + a[c + nx];
                s = s + a[c - nx];
                s = s + a[c + 1];
                s = s + a[c - 1];
                float m = s * ST_C1;
                b[c] = fmaf(-ST_C0, a[c], m);
            }
}

static bench_outcome st_device(bench_env *env, const float *in, float *out, st_size d)
{
    size_t bytes = (size_t)d.nx * d.ny * d.nz * sizeof(float);
    ptxemu_dptr buf[2];
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &buf[0], bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &buf[1], bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, buf[0], in, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, buf[1], in, bytes));
    ptxemu_dim3 grid = {(unsigned)((d.nx + ST_TX - 1) / ST_TX),
                        (unsigned)((d.ny + ST_TY - 1) / ST_TY), 1};
    ptxemu_dim3 block = {ST_TX, ST_TY, 1};
    float c0 = ST_C0, c1 = ST_C1;
    for (int t = 0; t < d.steps; t++) {
        void *args[] = {&buf[t & 1], &buf[(t + 1) & 1], &d.nx, &d.ny, &d.nz, &c0, &c1};
        BENCH_TRY(env, ptxemu_launch(env->mod, "stencil7", grid, block, 0, args));
    }
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, buf[d.steps & 1], bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, buf[0]));
    BENCH_TRY(env, ptxemu_free(env->ctx, buf[1]));
    return BENCH_PASS;
}

/* Same operations in the same order (the kernel's adds and multiply are
 * __fadd_rn / __fmul_rn, its last step an fmaf), so an exact emulator
 * matches bit for bit; the check keeps a 1e-6-scale guard. */
static bench_outcome st_run(bench_env *env)
{
    st_size d = st_dims(env->size);
    size_t count = (size_t)d.nx * d.ny * d.nz;
    float *in = malloc(count * sizeof *in);
    float *out = malloc(count * sizeof *out);
    float *ref[2] = {malloc(count * sizeof(float)), malloc(count * sizeof(float))};
    bench_outcome o;
    if (!in || !out || !ref[0] || !ref[1]) {
        snprintf(env->msg, sizeof env->msg, "stencil: out of host memory");
        o = BENCH_ERROR;
        goto done;
    }
    uint64_t st = env->seed;
    for (size_t k = 0; k < count; k++)
        in[k] = bench_rng_float(&st);

    o = st_device(env, in, out, d);
    if (o != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    memcpy(ref[0], in, count * sizeof(float));
    memcpy(ref[1], in, count * sizeof(float));
    for (int t = 0; t < d.steps; t++)
        st_reference_step(ref[t & 1], ref[(t + 1) & 1], d.nx, d.ny, d.nz);
    env->ref_seconds = bench_now() - t0;
    float *r = ref[d.steps & 1];
    size_t probe = (size_t)(d.nz / 2) * d.nx * d.ny + (size_t)(d.ny / 2) * d.nx + d.nx / 2;
    if (env->break_reference)
        r[probe] += 0.5f;
    for (size_t k = 0; k < count; k++) {
        float tol = 1e-6f * fabsf(r[k]) + 1e-7f;
        if (!(fabsf(out[k] - r[k]) <= tol)) {
            size_t plane = (size_t)d.nx * d.ny;
            snprintf(env->msg, sizeof env->msg,
                     "next[%zu] (x %zu, y %zu, z %zu): got %.9g, expected %.9g", k,
                     k % (size_t)d.nx, (k % plane) / (size_t)d.nx, k / plane, out[k], r[k]);
            o = BENCH_FAIL;
            break;
        }
    }
done:
    free(in);
    free(out);
    free(ref[0]);
    free(ref[1]);
    return o;
}

const bench_def bench_stencil = {"stencil",
                                 "Parboil-style 7-point 3-D Jacobi stencil time steps",
                                 "stencil/kernels.ptx", st_run};
