/* benchmarks/srad/driver.c — host driver for SRAD (speckle reducing
 * anisotropic diffusion).
 *
 * Input: a positive speckled image (a smooth pattern times multiplicative
 * noise).  Host flow per iteration: take the region-of-interest statistics
 * (mean and variance of the ROI pixels, from the host image before the first
 * step and from the per-CTA partial sums that srad_2 leaves afterwards),
 * derive q0^2 = var / mean^2, launch srad_1 and srad_2.  The CPU reference
 * repeats the same steps with the same operation order (including the
 * per-CTA tree reduction). */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 16 /* must match kernels.cu */

typedef struct srad_cfg {
    int rows, cols, iters, roi_rows, roi_cols;
    float lambda;
} srad_cfg;

static srad_cfg srad_config(bench_size s)
{
    srad_cfg c;
    switch (s) {
    case BENCH_TINY: c.rows = c.cols = 64; c.iters = 3; break;
    case BENCH_SMALL: c.rows = c.cols = 512; c.iters = 4; break;
    /* 2048 x 2048 = 16384 CTAs of 256 threads (thesis Table 3.2); two
     * iterations, ROI 128 x 128 and lambda 0.5 as in Rodinia's usual run. */
    default: c.rows = c.cols = 2048; c.iters = 2; break;
    }
    c.roi_rows = c.rows / 2 < 128 ? c.rows / 2 : 128;
    c.roi_cols = c.cols / 2 < 128 ? c.cols / 2 : 128;
    c.lambda = 0.5f;
    return c;
}

static void srad_generate(float *img, const srad_cfg *c, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < c->rows; i++)
        for (int j = 0; j < c->cols; j++) {
            /* a bright rectangle (outside the ROI, which stays a
             * homogeneous speckle region) on a dark background */
            int inside = i >= c->rows / 2 && i < 7 * c->rows / 8 &&
                         j >= c->cols / 2 && j < 7 * c->cols / 8;
            float base = inside ? 1.6f : 1.0f;
            img[(size_t)i * c->cols + j] = base * (0.6f + 0.8f * bench_rng_float(&st));
        }
}

/* q0^2 = var / mean^2 of the ROI from a sum and a sum of squares. */
static float srad_q0sqr(double sum, double sum2, int npix)
{
    double mean = sum / npix;
    double var = sum2 / npix - mean * mean;
    return (float)(var / (mean * mean));
}

static float srad_q0sqr_image(const float *img, const srad_cfg *c)
{
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < c->roi_rows; i++)
        for (int j = 0; j < c->roi_cols; j++) {
            double v = img[(size_t)i * c->cols + j];
            sum += v;
            sum2 += v * v;
        }
    return srad_q0sqr(sum, sum2, c->roi_rows * c->roi_cols);
}

/* The host reduction step: add the per-CTA (sum, sum of squares) pairs. */
static float srad_q0sqr_partials(const float *partial, int nblocks, const srad_cfg *c)
{
    double sum = 0.0, sum2 = 0.0;
    for (int b = 0; b < nblocks; b++) {
        sum += partial[2 * b];
        sum2 += partial[2 * b + 1];
    }
    return srad_q0sqr(sum, sum2, c->roi_rows * c->roi_cols);
}

/* ---- CPU reference: the kernels' arithmetic, in the same order ---- */

static void ref_srad_1(const float *J, float *dN, float *dS, float *dW, float *dE,
                       float *C, const srad_cfg *cf, float q0sqr)
{
    int rows = cf->rows, cols = cf->cols;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t idx = (size_t)i * cols + j;
            int iN = i > 0 ? i - 1 : 0, iS = i < rows - 1 ? i + 1 : rows - 1;
            int jW = j > 0 ? j - 1 : 0, jE = j < cols - 1 ? j + 1 : cols - 1;
            float jc = J[idx];
            float n = J[(size_t)iN * cols + j] - jc;
            float s = J[(size_t)iS * cols + j] - jc;
            float w = J[(size_t)i * cols + jW] - jc;
            float e = J[(size_t)i * cols + jE] - jc;
            float g2 = n * n;
            g2 = fmaf(s, s, g2);
            g2 = fmaf(w, w, g2);
            g2 = fmaf(e, e, g2);
            g2 = g2 / (jc * jc);
            float l = (n + s + w + e) / jc;
            float num = fmaf(-0.0625f * l, l, 0.5f * g2);
            float den = fmaf(0.25f, l, 1.0f);
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            float c = 1.0f / (1.0f + den);
            if (c < 0.0f)
                c = 0.0f;
            else if (c > 1.0f)
                c = 1.0f;
            dN[idx] = n;
            dS[idx] = s;
            dW[idx] = w;
            dE[idx] = e;
            C[idx] = c;
        }
}

static void ref_srad_2(float *J, const float *dN, const float *dS, const float *dW,
                       const float *dE, const float *C, const srad_cfg *cf,
                       float *partial)
{
    int rows = cf->rows, cols = cf->cols;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t idx = (size_t)i * cols + j;
            int iS = i < rows - 1 ? i + 1 : rows - 1;
            int jE = j < cols - 1 ? j + 1 : cols - 1;
            float cN = C[idx], cS = C[(size_t)iS * cols + j], cW = cN;
            float cE = C[(size_t)i * cols + jE];
            float d = cN * dN[idx];
            d = fmaf(cS, dS[idx], d);
            d = fmaf(cW, dW[idx], d);
            d = fmaf(cE, dE[idx], d);
            J[idx] = fmaf(0.25f * cf->lambda, d, J[idx]);
        }
    /* per-CTA tree reduction over the ROI, thread t = ty * TILE + tx */
    int gx = cols / TILE, gy = rows / TILE;
    float ssum[TILE * TILE], ssq[TILE * TILE];
    for (int by = 0; by < gy; by++)
        for (int bx = 0; bx < gx; bx++) {
            for (int t = 0; t < TILE * TILE; t++) {
                int i = by * TILE + t / TILE, j = bx * TILE + t % TILE;
                float v = J[(size_t)i * cols + j];
                if (i >= cf->roi_rows || j >= cf->roi_cols)
                    v = 0.0f;
                ssum[t] = v;
                ssq[t] = v * v;
            }
            for (int s = TILE * TILE / 2; s > 0; s >>= 1)
                for (int t = 0; t < s; t++) {
                    ssum[t] += ssum[t + s];
                    ssq[t] += ssq[t + s];
                }
            int b = by * gx + bx;
            partial[2 * b] = ssum[0];
            partial[2 * b + 1] = ssq[0];
        }
}

static void srad_reference(float *J, const srad_cfg *cf, float *scratch)
{
    size_t np = (size_t)cf->rows * cf->cols;
    float *dN = scratch, *dS = dN + np, *dW = dS + np, *dE = dW + np, *C = dE + np;
    float *partial = C + np;
    int nblocks = (cf->rows / TILE) * (cf->cols / TILE);
    float q0sqr = srad_q0sqr_image(J, cf);
    for (int it = 0; it < cf->iters; it++) {
        ref_srad_1(J, dN, dS, dW, dE, C, cf, q0sqr);
        ref_srad_2(J, dN, dS, dW, dE, C, cf, partial);
        q0sqr = srad_q0sqr_partials(partial, nblocks, cf);
    }
}

static bench_outcome srad_device(bench_env *env, float *img, const srad_cfg *cf,
                                 float *partial)
{
    int rows = cf->rows, cols = cf->cols;
    size_t bytes = (size_t)rows * cols * sizeof(float);
    unsigned gx = (unsigned)(cols / TILE), gy = (unsigned)(rows / TILE);
    int nblocks = (int)(gx * gy);
    size_t pbytes = (size_t)nblocks * 2 * sizeof(float);
    ptxemu_dptr d_J, d_N, d_S, d_W, d_E, d_C, d_part;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_J, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_N, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_S, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_W, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_E, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_C, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_part, pbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_J, img, bytes));

    ptxemu_dim3 grid = {gx, gy, 1}, block = {TILE, TILE, 1};
    float lambda = cf->lambda;
    int roi_rows = cf->roi_rows, roi_cols = cf->roi_cols;
    float q0sqr = srad_q0sqr_image(img, cf);
    for (int it = 0; it < cf->iters; it++) {
        void *a1[] = {&d_J, &d_N, &d_S, &d_W, &d_E, &d_C, &rows, &cols, &q0sqr};
        BENCH_TRY(env, ptxemu_launch(env->mod, "srad_1", grid, block, 0, a1));
        void *a2[] = {&d_J, &d_N, &d_S, &d_W, &d_E, &d_C, &rows, &cols,
                      &lambda, &roi_rows, &roi_cols, &d_part};
        BENCH_TRY(env, ptxemu_launch(env->mod, "srad_2", grid, block, 0, a2));
        BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, partial, d_part, pbytes));
        q0sqr = srad_q0sqr_partials(partial, nblocks, cf);
    }
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, img, d_J, bytes));
    ptxemu_dptr all[] = {d_J, d_N, d_S, d_W, d_E, d_C, d_part};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-6 (pixels are around 1).  The
 * reference repeats the kernels' single-precision operations in order, so an
 * exact emulator matches bit for bit; the margin is a few tens of ulps. */
static bench_outcome srad_run(bench_env *env)
{
    srad_cfg cf = srad_config(env->size);
    size_t np = (size_t)cf.rows * cf.cols;
    int nblocks = (cf.rows / TILE) * (cf.cols / TILE);
    float *img = malloc(np * sizeof *img);
    float *ref = malloc(np * sizeof *ref);
    float *scratch = malloc((5 * np + 2 * (size_t)nblocks) * sizeof *scratch);
    bench_outcome out;
    if (!img || !ref || !scratch) {
        snprintf(env->msg, sizeof env->msg, "srad: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    srad_generate(img, &cf, env->seed);
    memcpy(ref, img, np * sizeof *img);

    out = srad_device(env, img, &cf, scratch);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    srad_reference(ref, &cf, scratch);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[np / 2 + 7] += 0.5f;
    for (size_t k = 0; k < np; k++) {
        float tol = 1e-5f * fabsf(ref[k]) + 1e-6f;
        if (!(fabsf(img[k] - ref[k]) <= tol)) {
            snprintf(env->msg, sizeof env->msg,
                     "J[%zu] (row %zu, col %zu): got %.9g, expected %.9g", k,
                     k / (size_t)cf.cols, k % (size_t)cf.cols, img[k], ref[k]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    free(img);
    free(ref);
    free(scratch);
    return out;
}

const bench_def bench_srad = {
    "srad", "speckle reducing anisotropic diffusion: 2 kernels per step, host ROI statistics",
    "srad/kernels.ptx", srad_run};
