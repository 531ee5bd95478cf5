/* benchmarks/gaussian/driver.c — Rodinia-style Gaussian elimination: for
 * every column t the host launches gauss_fan1 (multipliers) and gauss_fan2
 * (row updates of the trailing block), then solves by back substitution.
 *
 * Matrix order n (2(n-1) launches; Fan1 CTAs of 512 threads, Fan2 CTAs of
 * 4 x 4 = 16 threads as in the thesis's Table 4.2):
 *   tiny 64 (Fan2 grids 16x16 down to 1x1), small 256 (64x64 ..),
 *   paper 512 (128x128 ..; the seeds give no Gaussian size).
 * Matrix: entries uniform in (-1, 1), the diagonal set to 1 + the row's
 * absolute sum, so elimination without pivoting is stable.
 *
 * Check: every x[i] within 1e-5 * (|ref_i| + max |ref|) of the CPU's
 * identical elimination.  Both sides divide correctly rounded; if nvcc
 * fuses m * a into an fma the updates round once instead of twice, and the
 * difference stays a few ulps relative to the solution's scale (1e-5 is
 * ~80 ulps) because the dominant diagonal damps error growth.  A wrong
 * multiplier, row or column shows up as a relative error of 1e-3 or more. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define GS_FAN1_BLOCK 512u
#define GS_FAN2_BLOCK 4u

static void gs_back_substitute(const float *a, const float *b, float *x, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < n; j++)
            s -= a[(size_t)i * n + j] * x[j];
        x[i] = s / a[(size_t)i * n + i];
    }
}

static bench_outcome gaussian_run(bench_env *env)
{
    int n = env->size == BENCH_TINY    ? 64
            : env->size == BENCH_SMALL ? 256
                                       : 512;
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * sizeof(float)), *ra = malloc(nn * sizeof(float));
    float *rm = malloc(nn * sizeof(float));
    float *b = malloc((size_t)n * sizeof(float));
    float *rb = malloc((size_t)n * sizeof(float));
    float *x = malloc((size_t)n * sizeof(float));
    float *rx = malloc((size_t)n * sizeof(float));
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr da = 0, db = 0, dm = 0;
    if (!a || !ra || !rm || !b || !rb || !x || !rx) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (int i = 0; i < n; i++) {
        float rowsum = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = 2.0f * bench_rng_float(&rng) - 1.0f;
            a[(size_t)i * n + j] = v;
            if (j != i)
                rowsum += fabsf(v);
        }
        a[(size_t)i * n + i] = 1.0f + rowsum;
        b[i] = 10.0f * (2.0f * bench_rng_float(&rng) - 1.0f);
    }
    for (size_t i = 0; i < nn; i++)
        ra[i] = a[i];
    for (int i = 0; i < n; i++)
        rb[i] = b[i];

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &da, nn * sizeof(float)));
    TRY(ptxemu_malloc(env->ctx, &db, (size_t)n * sizeof(float)));
    TRY(ptxemu_malloc(env->ctx, &dm, nn * sizeof(float)));
    TRY(ptxemu_memcpy_htod(env->ctx, da, a, nn * sizeof(float)));
    TRY(ptxemu_memcpy_htod(env->ctx, db, b, (size_t)n * sizeof(float)));
    TRY(ptxemu_memset(env->ctx, dm, 0, nn * sizeof(float)));
    for (int t = 0; t < n - 1; t++) {
        unsigned below = (unsigned)(n - 1 - t), width = (unsigned)(n - t);
        ptxemu_dim3 g1 = {(below + GS_FAN1_BLOCK - 1) / GS_FAN1_BLOCK, 1, 1};
        ptxemu_dim3 b1 = {GS_FAN1_BLOCK, 1, 1};
        void *args1[] = {&da, &dm, &n, &t};
        TRY(ptxemu_launch(env->mod, "gauss_fan1", g1, b1, 0, args1));
        ptxemu_dim3 g2 = {(width + GS_FAN2_BLOCK - 1) / GS_FAN2_BLOCK,
                          (below + GS_FAN2_BLOCK - 1) / GS_FAN2_BLOCK, 1};
        ptxemu_dim3 b2 = {GS_FAN2_BLOCK, GS_FAN2_BLOCK, 1};
        void *args2[] = {&da, &db, &dm, &n, &t};
        TRY(ptxemu_launch(env->mod, "gauss_fan2", g2, b2, 0, args2));
    }
    TRY(ptxemu_memcpy_dtoh(env->ctx, a, da, nn * sizeof(float)));
    TRY(ptxemu_memcpy_dtoh(env->ctx, b, db, (size_t)n * sizeof(float)));
#undef TRY
    gs_back_substitute(a, b, x, n);

    double t0 = bench_now();
    for (int t = 0; t < n - 1; t++) {
        for (int row = t + 1; row < n; row++)
            rm[(size_t)row * n + t] =
                ra[(size_t)row * n + t] / ra[(size_t)t * n + t];
        for (int row = t + 1; row < n; row++) {
            float mult = rm[(size_t)row * n + t];
            for (int col = t; col < n; col++)
                ra[(size_t)row * n + col] -= mult * ra[(size_t)t * n + col];
            rb[row] -= mult * rb[t];
        }
    }
    gs_back_substitute(ra, rb, rx, n);
    env->ref_seconds = bench_now() - t0;

    float scale = 0.0f;
    for (int i = 0; i < n; i++)
        scale = fmaxf(scale, fabsf(rx[i]));
    if (env->break_reference)
        rx[n / 2] += 1e-3f * scale;

    out = BENCH_PASS;
    for (int i = 0; i < n; i++) {
        if (!(fabsf(x[i] - rx[i]) <= 1e-5f * (fabsf(rx[i]) + scale))) {
            snprintf(env->msg, sizeof env->msg,
                     "x[%d] = %.9g, reference %.9g (max |x| %.3g)", i,
                     (double)x[i], (double)rx[i], (double)scale);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (da) ptxemu_free(env->ctx, da);
    if (db) ptxemu_free(env->ctx, db);
    if (dm) ptxemu_free(env->ctx, dm);
    free(a);
    free(ra);
    free(rm);
    free(b);
    free(rb);
    free(x);
    free(rx);
    return out;
}

const bench_def bench_gaussian = {
    "gaussian",
    "Gaussian elimination of a dense system: Fan1 multipliers and Fan2 row updates per column, host back substitution",
    "gaussian/kernels.ptx", gaussian_run};
