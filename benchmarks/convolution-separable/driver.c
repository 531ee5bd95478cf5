/* convolution-separable/driver.c — separable 17x17 convolution of a W x H
 * float image (SDK convolutionSeparable: radius 8, zero outside the image).
 *
 * Host flow: generate the filter taps and copy them to constant memory
 * (c_kernel), generate the image, launch conv_rows into a temporary image,
 * then conv_cols from it, copy the result back.
 *
 * Check: the reference runs the same two passes on the CPU with the same
 * tap order and fmaf, so a correct run is bit-identical; the 1e-6 relative +
 * 1e-6 absolute guard (outputs are O(10)) only absorbs a legal difference in
 * fma contraction, while a wrong tap or halo element moves an output by
 * O(0.01) or more. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define KR 8 /* must match kernels.cu */
#define KTAPS (2 * KR + 1)
#define ROW_TILE_W 64 /* 16 threads x 4 steps */
#define ROW_TILE_H 4
#define COL_TILE_W 16
#define COL_TILE_H 32 /* 8 threads x 4 steps */

typedef struct cs_size {
    int width, height;
} cs_size;

static cs_size cs_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (cs_size){256, 64};
    case BENCH_SMALL:
        return (cs_size){1024, 512};
    default: /* thesis Table 4.4 "CVSEP": 16384 CTAs (row pass) */
        return (cs_size){2048, 2048};
    }
}

static void cs_reference(float *out, float *tmp, const float *in, const float *k,
                         int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = -KR; j <= KR; j++) {
                int xx = x + j;
                float v = (xx >= 0 && xx < w) ? in[(size_t)y * w + xx] : 0.0f;
                sum = fmaf(k[KR - j], v, sum);
            }
            tmp[(size_t)y * w + x] = sum;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = -KR; j <= KR; j++) {
                int yy = y + j;
                float v = (yy >= 0 && yy < h) ? tmp[(size_t)yy * w + x] : 0.0f;
                sum = fmaf(k[KR - j], v, sum);
            }
            out[(size_t)y * w + x] = sum;
        }
}

static bench_outcome cs_device(bench_env *env, const float *taps, float *img, float *out,
                               int w, int h)
{
    size_t bytes = (size_t)w * h * sizeof(float);
    ptxemu_dptr d_in, d_tmp, d_out;
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_kernel", taps, KTAPS * sizeof(float), 0));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_in, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_tmp, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_in, img, bytes));

    void *rargs[] = {&d_tmp, &d_in, &w, &h};
    BENCH_TRY(env, ptxemu_launch(env->mod, "conv_rows",
                                 (ptxemu_dim3){(unsigned)(w / ROW_TILE_W), (unsigned)(h / ROW_TILE_H), 1},
                                 (ptxemu_dim3){16, 4, 1}, 0, rargs));
    void *cargs[] = {&d_out, &d_tmp, &w, &h};
    BENCH_TRY(env, ptxemu_launch(env->mod, "conv_cols",
                                 (ptxemu_dim3){(unsigned)(w / COL_TILE_W), (unsigned)(h / COL_TILE_H), 1},
                                 (ptxemu_dim3){16, 8, 1}, 0, cargs));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_out, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_in));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_tmp));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    return BENCH_PASS;
}

static bench_outcome cs_run(bench_env *env)
{
    cs_size sz = cs_pick(env->size);
    return bench_separable_filter(env, "convolution-separable", sz.width, sz.height, KTAPS, cs_device,
                                  cs_reference);
}

const bench_def bench_convolution_separable = {
    "convolution-separable", "separable 17x17 image convolution (row + column passes)",
    "convolution-separable/kernels.ptx", cs_run};
