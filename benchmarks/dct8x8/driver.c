/* dct8x8/driver.c — JPEG-style 8x8 DCT, quantisation and inverse DCT of a
 * W x H greyscale image (floats 0..255).
 *
 * Host flow: build the orthonormal DCT-II basis (double -> float) and the
 * JPEG luminance quantisation table (ITU-T T.81 Annex K, Table K.1), copy
 * both to constant memory; generate a textured image; launch
 * dct8x8_forward (one 8x8 CTA per block), quantize8x8, copy the quantised
 * coefficients back, launch idct8x8_inverse, copy the image back.
 *
 * Check: coefficients and reconstructed image.  The reference uses the same
 * float operations in the same order (fmaf over k = 0..7, IEEE division,
 * roundf = round half away from zero, as CUDA's roundf), so a correct run is
 * bit-identical; the 1e-5 relative + 1e-5 absolute guard only absorbs
 * harmless noise.  A single flipped rounding would move a coefficient by a
 * full quantisation step (>= 10) and a pixel by O(1). */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct dct_size {
    int width, height;
} dct_size;

static dct_size dct_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (dct_size){128, 128};
    case BENCH_SMALL:
        return (dct_size){1024, 512};
    default: /* thesis Table 4.4 "DCT-K1/K2": 32768 CTAs */
        return (dct_size){2048, 1024};
    }
}

static const float dct_quant[64] = {
    16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
    14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
    18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
};

static void dct_basis(float *c)
{
    const double pi = 3.14159265358979323846;
    for (int u = 0; u < 8; u++)
        for (int x = 0; x < 8; x++) {
            double alpha = u == 0 ? sqrt(1.0 / 8.0) : sqrt(2.0 / 8.0);
            c[u * 8 + x] = (float)(alpha * cos((2 * x + 1) * u * pi / 16.0));
        }
}

/* forward: out = C X C^T; inverse: out = C^T X C; same op order as kernels. */
static void dct_block_cpu(float *out, const float *in, int stride, const float *c,
                          bool inverse)
{
    float rows[8][8];
    for (int ty = 0; ty < 8; ty++)
        for (int tx = 0; tx < 8; tx++) {
            float sum = 0.0f;
            for (int k = 0; k < 8; k++)
                sum = fmaf(inverse ? c[k * 8 + tx] : c[tx * 8 + k], in[ty * stride + k], sum);
            rows[ty][tx] = sum;
        }
    for (int ty = 0; ty < 8; ty++)
        for (int tx = 0; tx < 8; tx++) {
            float sum = 0.0f;
            for (int k = 0; k < 8; k++)
                sum = fmaf(inverse ? c[k * 8 + ty] : c[ty * 8 + k], rows[k][tx], sum);
            out[ty * stride + tx] = sum;
        }
}

static void dct_reference(float *coef, float *img_out, const float *img,
                          const float *c, const dct_size *sz)
{
    int w = sz->width;
    for (int by = 0; by < sz->height; by += 8)
        for (int bx = 0; bx < w; bx += 8)
            dct_block_cpu(coef + (size_t)by * w + bx, img + (size_t)by * w + bx, w, c, false);
    for (int y = 0; y < sz->height; y++)
        for (int x = 0; x < w; x++) {
            float q = dct_quant[(y & 7) * 8 + (x & 7)];
            float *p = coef + (size_t)y * w + x;
            *p = roundf(*p / q) * q;
        }
    for (int by = 0; by < sz->height; by += 8)
        for (int bx = 0; bx < w; bx += 8)
            dct_block_cpu(img_out + (size_t)by * w + bx, coef + (size_t)by * w + bx, w, c, true);
}

static bench_outcome dct_device(bench_env *env, const dct_size *sz, const float *basis,
                                const float *img, float *coef, float *img_out)
{
    size_t bytes = (size_t)sz->width * sz->height * sizeof(float);
    ptxemu_dptr d_img, d_coef, d_out;
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_dct", basis, 64 * sizeof(float), 0));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_quant", dct_quant, sizeof dct_quant, 0));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_img, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_coef, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_img, img, bytes));

    int w = sz->width, h = sz->height;
    ptxemu_dim3 blocks = {(unsigned)(w / 8), (unsigned)(h / 8), 1}, b8 = {8, 8, 1};
    void *fargs[] = {&d_coef, &d_img, &w};
    BENCH_TRY(env, ptxemu_launch(env->mod, "dct8x8_forward", blocks, b8, 0, fargs));
    void *qargs[] = {&d_coef, &w, &h};
    BENCH_TRY(env, ptxemu_launch(env->mod, "quantize8x8",
                                 (ptxemu_dim3){(unsigned)((w + 15) / 16), (unsigned)((h + 15) / 16), 1},
                                 (ptxemu_dim3){16, 16, 1}, 0, qargs));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, coef, d_coef, bytes));
    void *iargs[] = {&d_out, &d_coef, &w};
    BENCH_TRY(env, ptxemu_launch(env->mod, "idct8x8_inverse", blocks, b8, 0, iargs));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, img_out, d_out, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_img));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_coef));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    return BENCH_PASS;
}

static bool dct_close(float got, float ref)
{
    return fabs((double)got - (double)ref) <= 1e-5 + 1e-5 * fabs((double)ref);
}

static bench_outcome dct_run(bench_env *env)
{
    dct_size sz = dct_pick(env->size);
    size_t n = (size_t)sz.width * sz.height;
    float *img = malloc(n * sizeof(float)), *coef = malloc(n * sizeof(float));
    float *out = malloc(n * sizeof(float)), *ref_coef = malloc(n * sizeof(float));
    float *ref_out = malloc(n * sizeof(float));
    float basis[64];
    bench_outcome rc = BENCH_ERROR;
    if (!img || !coef || !out || !ref_coef || !ref_out) {
        snprintf(env->msg, sizeof env->msg, "dct8x8: out of host memory");
        goto done;
    }
    dct_basis(basis);
    uint64_t rng = env->seed;
    for (int y = 0; y < sz.height; y++)
        for (int x = 0; x < sz.width; x++) {
            /* diagonal ramps plus noise: both smooth and busy blocks */
            unsigned v = (unsigned)((x * 3 + y * 5) & 127) + (unsigned)(bench_rng_next(&rng) & 63) + 32;
            img[(size_t)y * sz.width + x] = (float)v;
        }

    rc = dct_device(env, &sz, basis, img, coef, out);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    dct_reference(ref_coef, ref_out, img, basis, &sz);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref_out[n / 2 + 3] += 1.0f;

    rc = BENCH_PASS;
    for (size_t i = 0; i < n; i++) {
        const char *what = !dct_close(coef[i], ref_coef[i]) ? "quantised coefficient"
                           : !dct_close(out[i], ref_out[i]) ? "reconstructed pixel"
                                                            : NULL;
        if (what) {
            bool is_coef = what[0] == 'q';
            snprintf(env->msg, sizeof env->msg, "dct8x8: %s (%zu, %zu) = %.9g, reference %.9g",
                     what, i % (size_t)sz.width, i / (size_t)sz.width,
                     (double)(is_coef ? coef[i] : out[i]),
                     (double)(is_coef ? ref_coef[i] : ref_out[i]));
            rc = BENCH_FAIL;
            break;
        }
    }
done:
    free(img);
    free(coef);
    free(out);
    free(ref_coef);
    free(ref_out);
    return rc;
}

const bench_def bench_dct8x8 = {
    "dct8x8", "8x8 block DCT, JPEG quantisation and inverse DCT of an image",
    "dct8x8/kernels.ptx", dct_run};
