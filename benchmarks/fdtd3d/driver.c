/* fdtd3d/driver.c — time steps of an 8th-order 3-D finite-difference
 * stencil (radius 4: the point, 4 neighbours each way along x, y, z), the
 * shape of the CUDA SDK's FDTD3d that the ICC seed's Table 3 lists.
 *
 * Host flow, as in the SDK sample: the volume goes to the device into both
 * buffers, the 5 coefficients into `__constant__`, then one fdtd3d_step
 * launch per time step ping-pongs input and output (32 x 8-thread CTAs over
 * the xy interior, each marching along z); the host reads the final volume.
 * Check: bit-exact against a CPU stencil with the same float operations in
 * the same order (explicit fmaf, no contraction).
 *
 * Sizes: interior extents are multiples of the 32 x 8 tile.  paper is
 * 1032 x 520 x 32 (2,048 CTAs per step): at 3 CTAs per SM (the kernel's 40
 * registers per thread) that is 11 waves on icc60's 60 SMs; the SDK's
 * default 376^3 volume would be about 550 CTAs, 3 waves. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FD_RAD 4
#define FD_TX 32
#define FD_TY 8

typedef struct fd_size {
    int nx, ny, nz, steps;
} fd_size;

static fd_size fd_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (fd_size){72, 24, 12, 2};     /* 2 x 2 CTAs */
    case BENCH_SMALL:
        /* 18 x 30 = 540 CTAs per step: 3 waves at 3 CTAs per SM on
         * icc60's 60 SMs, the waves of the SDK's 376^3 default (the ICC
         * seed's input; EXPERIMENT-METHOD.md section 1), on a shallower
         * volume (16 interior planes) to keep a run short. */
        return (fd_size){584, 248, 24, 2};
    default:
        return (fd_size){1032, 520, 32, 2};  /* 32 x 64 CTAs */
    }
}

static const float fd_coef[FD_RAD + 1] = {-2.6f, 0.8f, -0.2f, 0.05f, -0.01f};

/* One step on the CPU: interior points only, the kernel's operation order. */
static void fd_step_cpu(const fd_size *sz, const float *in, float *out)
{
    size_t nx = (size_t)sz->nx, plane = nx * (size_t)sz->ny;
    for (int z = FD_RAD; z < sz->nz - FD_RAD; z++)
        for (int y = FD_RAD; y < sz->ny - FD_RAD; y++)
            for (int x = FD_RAD; x < sz->nx - FD_RAD; x++) {
                size_t c = (size_t)z * plane + (size_t)y * nx + (size_t)x;
                float v = fd_coef[0] * in[c];
                for (int r = 1; r <= FD_RAD; r++) {
                    float s = in[c + r * plane] + in[c - r * plane];
                    s = s + in[c - r * nx];
                    s = s + in[c + r * nx];
                    s = s + in[c - r];
                    s = s + in[c + r];
                    v = fmaf(fd_coef[r], s, v);
                }
                out[c] = v;
            }
}

static bench_outcome fd_device(bench_env *env, const fd_size *sz, const float *vol, float *out)
{
    size_t bytes = (size_t)sz->nx * sz->ny * sz->nz * sizeof(float);
    ptxemu_dptr d[2];
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d[0], bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d[1], bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d[0], vol, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d[1], vol, bytes));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "coef", fd_coef, sizeof fd_coef, 0));
    int nx = sz->nx, ny = sz->ny, nz = sz->nz;
    ptxemu_dim3 grid = {(unsigned)(nx - 2 * FD_RAD) / FD_TX, (unsigned)(ny - 2 * FD_RAD) / FD_TY, 1};
    for (int s = 0; s < sz->steps; s++) {
        void *args[] = {&d[s & 1], &d[(s + 1) & 1], &nx, &ny, &nz};
        BENCH_TRY(env, ptxemu_launch(env->mod, "fdtd3d_step", grid,
                                     (ptxemu_dim3){FD_TX, FD_TY, 1}, 0, args));
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d[sz->steps & 1], bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d[0]));
    BENCH_TRY(env, ptxemu_free(env->ctx, d[1]));
    return BENCH_PASS;
}

static bench_outcome fd_run(bench_env *env)
{
    fd_size sz = fd_pick(env->size);
    size_t n = (size_t)sz.nx * sz.ny * sz.nz;
    float *vol = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
    float *ref[2] = {malloc(n * sizeof(float)), malloc(n * sizeof(float))};
    bench_outcome rc = BENCH_ERROR;
    if (!vol || !out || !ref[0] || !ref[1]) {
        snprintf(env->msg, sizeof env->msg, "fdtd3d: out of host memory");
        goto done;
    }
    /* a smooth field plus noise in [-1, 1] */
    uint64_t rng = env->seed;
    for (size_t i = 0; i < n; i++) {
        size_t x = i % (size_t)sz.nx, y = i / sz.nx % (size_t)sz.ny, z = i / ((size_t)sz.nx * sz.ny);
        vol[i] = 0.5f * (float)((x * 7 + y * 3 + z * 5) % 64) / 64.0f + bench_rng_float(&rng) - 0.5f;
    }
    rc = fd_device(env, &sz, vol, out);
    if (rc != BENCH_PASS)
        goto done;
    double t0 = bench_now();
    memcpy(ref[0], vol, n * sizeof(float));
    memcpy(ref[1], vol, n * sizeof(float));
    for (int s = 0; s < sz.steps; s++)
        fd_step_cpu(&sz, ref[s & 1], ref[(s + 1) & 1]);
    env->ref_seconds = bench_now() - t0;
    float *r = ref[sz.steps & 1];
    size_t mid = (size_t)(sz.nz / 2) * sz.nx * sz.ny + (size_t)(sz.ny / 2) * sz.nx + sz.nx / 2;
    if (env->break_reference)
        r[mid] += 1.0f;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&out[i], &r[i], sizeof(float)) != 0) {
            snprintf(env->msg, sizeof env->msg, "fdtd3d: point (%zu, %zu, %zu) = %.9g, reference %.9g",
                     i % (size_t)sz.nx, i / sz.nx % (size_t)sz.ny, i / ((size_t)sz.nx * sz.ny),
                     (double)out[i], (double)r[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(vol);
    free(out);
    free(ref[0]);
    free(ref[1]);
    return rc;
}

const bench_def bench_fdtd3d = {
    "fdtd3d", "8th-order 3-D finite-difference stencil time steps (SDK FDTD3d shape)",
    "fdtd3d/kernels.ptx", fd_run};
