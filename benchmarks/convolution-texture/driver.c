/* convolution-texture/driver.c — separable 17x17 convolution of a W x H
 * float image read through textures (SDK convolutionTexture: radius 8,
 * point sampling, clamp addressing, thesis Table 4.4 CVT-K1 / CVT-K2).
 *
 * Host flow: generate the filter taps and copy them to constant memory
 * (c_kernel); copy the image into a 2-D float array and make a texture
 * object of it; launch conv_tex_rows into a device buffer; copy that
 * buffer into the array (as the SDK does) and launch conv_tex_cols from the
 * same texture; copy the result back.
 *
 * Check: the reference runs the same two passes on the CPU with clamped
 * indices, the same tap order and fmaf, so a correct run is bit-identical;
 * the 1e-6 relative + 1e-6 absolute guard only absorbs a legal difference
 * in fma contraction, while a wrong tap or an unclamped edge moves an
 * output by O(0.01) or more. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define KR 8 /* must match kernels.cu */
#define KTAPS (2 * KR + 1)
#define BX 16
#define BY 12

typedef struct ct_size {
    int width, height;
} ct_size;

static ct_size ct_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (ct_size){64, 48};
    case BENCH_SMALL:
        return (ct_size){1024, 480};
    default: /* thesis Table 4.4 "CVT-K1/K2": 98304 CTAs of 16 x 12 each */
        return (ct_size){3072, 6144};
    }
}

static int clampi(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

static void ct_reference(float *out, float *tmp, const float *in, const float *k, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = -KR; j <= KR; j++)
                sum = fmaf(in[(size_t)y * w + clampi(x + j, w - 1)], k[KR - j], sum);
            tmp[(size_t)y * w + x] = sum;
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int j = -KR; j <= KR; j++)
                sum = fmaf(tmp[(size_t)clampi(y + j, h - 1) * w + x], k[KR - j], sum);
            out[(size_t)y * w + x] = sum;
        }
}

static bench_outcome ct_device(bench_env *env, const float *taps, float *img, float *out,
                               int w, int h)
{
    size_t pitch = (size_t)w * sizeof(float), bytes = pitch * (size_t)h;
    ptxemu_channel_desc fmt = {32, 0, 0, 0, PTXEMU_CHANNEL_FLOAT};
    ptxemu_array *arr;
    ptxemu_dptr d_tmp, d_out;
    uint64_t tex;
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_kernel", taps, KTAPS * sizeof(float), 0));
    BENCH_TRY(env, ptxemu_array_create(env->ctx, &arr, &fmt,
                                       (ptxemu_extent){(size_t)w, (size_t)h, 0}, 0, 1));
    ptxemu_copy_side host = {img, 0, pitch, (size_t)h};
    BENCH_TRY(env, ptxemu_array_copy(env->ctx, arr, 1, 0, 0, 0, &host, pitch, (size_t)h, 1));
    ptxemu_resource_desc res = {.type = PTXEMU_RES_ARRAY, .array = arr};
    ptxemu_texture_desc td = {.addr = {1, 1, 1}, .filter = 0, .normalized = 0};
    BENCH_TRY(env, ptxemu_texture_create(env->ctx, &tex, &res, &td));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_tmp, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, bytes));

    ptxemu_dim3 grid = {(unsigned)((w + BX - 1) / BX), (unsigned)((h + BY - 1) / BY), 1};
    ptxemu_dim3 block = {BX, BY, 1};
    void *rargs[] = {&d_tmp, &w, &h, &tex};
    BENCH_TRY(env, ptxemu_launch(env->mod, "conv_tex_rows", grid, block, 0, rargs));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    ptxemu_copy_side dev = {NULL, d_tmp, pitch, (size_t)h};
    BENCH_TRY(env, ptxemu_array_copy(env->ctx, arr, 1, 0, 0, 0, &dev, pitch, (size_t)h, 1));
    void *cargs[] = {&d_out, &w, &h, &tex};
    BENCH_TRY(env, ptxemu_launch(env->mod, "conv_tex_cols", grid, block, 0, cargs));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_out, bytes));
    BENCH_TRY(env, ptxemu_object_destroy(env->ctx, tex));
    BENCH_TRY(env, ptxemu_array_destroy(env->ctx, arr));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_tmp));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    return BENCH_PASS;
}

static bench_outcome ct_run(bench_env *env)
{
    ct_size sz = ct_pick(env->size);
    return bench_separable_filter(env, "convolution-texture", sz.width, sz.height, KTAPS, ct_device,
                                  ct_reference);
}

const bench_def bench_convolution_texture = {
    "convolution-texture", "separable 17x17 image convolution read through 2-D textures (row + column passes)",
    "convolution-texture/kernels.ptx", ct_run};
