/* dwt/driver.c — multi-level 2-D Haar wavelet transform of an image (the
 * thesis's DWT workload, Table 3.2: 4096 CTAs of 512 threads).
 *
 * Host flow: level k transforms the (W>>k) x (H>>k) approximation of the
 * level before (the image at level 0) with dwt_haar2d, one thread per 2x2
 * block in 32x16-thread CTAs; the details land in their quadrants of the
 * W x H output, the approximation in a compact buffer that is the next
 * level's input (two buffers, ping-pong) and in the output's top-left
 * corner, where the next level overwrites it, so the output ends as the
 * standard pyramid layout.  Check: bit-exact against a CPU transform with
 * the same float operations in the same order (no fused multiply-add). */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DWT_BX 32
#define DWT_BY 16

typedef struct dwt_size {
    unsigned w, h, levels;
} dwt_size;

static dwt_size dwt_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (dwt_size){256, 128, 2};   /* level 0: 16 CTAs */
    case BENCH_SMALL:
        return (dwt_size){1024, 1024, 3}; /* level 0: 512 CTAs */
    default:
        return (dwt_size){4096, 2048, 3}; /* level 0: 4096 CTAs x 512 (Table 3.2) */
    }
}

/* One level on the CPU: the kernel's arithmetic, thread by thread. */
static void dwt_level_cpu(const float *in, unsigned in_stride, float *out, unsigned out_stride,
                          float *ll, unsigned w2, unsigned h2)
{
    for (unsigned y = 0; y < h2; y++)
        for (unsigned x = 0; x < w2; x++) {
            const float *p = in + (size_t)(2 * y) * in_stride + 2 * x;
            float a = p[0], b = p[1], c = p[in_stride], d = p[in_stride + 1];
            float lo = (a + b + c + d) * 0.5f;
            float hl = (a - b + c - d) * 0.5f;
            float lh = (a + b - c - d) * 0.5f;
            float hh = (a - b - c + d) * 0.5f;
            ll[(size_t)y * w2 + x] = lo;
            out[(size_t)y * out_stride + x] = lo;
            out[(size_t)y * out_stride + x + w2] = hl;
            out[(size_t)(y + h2) * out_stride + x] = lh;
            out[(size_t)(y + h2) * out_stride + x + w2] = hh;
        }
}

static bench_outcome dwt_device(bench_env *env, const dwt_size *sz, const float *img, float *out)
{
    size_t bytes = (size_t)sz->w * sz->h * sizeof(float);
    ptxemu_dptr d_img, d_out, d_ll[2];
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_img, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_ll[0], bytes / 4));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_ll[1], bytes / 4));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_img, img, bytes));
    ptxemu_dptr in = d_img;
    int in_stride = (int)sz->w, out_stride = (int)sz->w;
    for (unsigned k = 0; k < sz->levels; k++) {
        int w2 = (int)(sz->w >> (k + 1)), h2 = (int)(sz->h >> (k + 1));
        ptxemu_dptr ll = d_ll[k & 1];
        void *args[] = {&in, &in_stride, &d_out, &out_stride, &ll, &w2, &h2};
        ptxemu_dim3 grid = {((unsigned)w2 + DWT_BX - 1) / DWT_BX,
                            ((unsigned)h2 + DWT_BY - 1) / DWT_BY, 1};
        BENCH_TRY(env, ptxemu_launch(env->mod, "dwt_haar2d", grid,
                                     (ptxemu_dim3){DWT_BX, DWT_BY, 1}, 0, args));
        in = ll;
        in_stride = w2;
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_out, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_img));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_ll[0]));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_ll[1]));
    return BENCH_PASS;
}

static bench_outcome dwt_run(bench_env *env)
{
    dwt_size sz = dwt_pick(env->size);
    size_t n = (size_t)sz.w * sz.h;
    float *img = malloc(n * sizeof(float)), *out = calloc(n, sizeof(float));
    float *ref = calloc(n, sizeof(float)), *ll = malloc(n / 2 * sizeof(float));
    bench_outcome rc = BENCH_ERROR;
    if (!img || !out || !ref || !ll) {
        snprintf(env->msg, sizeof env->msg, "dwt: out of host memory");
        goto done;
    }
    /* a smooth ramp plus noise, pixel values 0..255 */
    uint64_t rng = env->seed;
    for (unsigned y = 0; y < sz.h; y++)
        for (unsigned x = 0; x < sz.w; x++)
            img[(size_t)y * sz.w + x] = (float)((x + y) % 200) + 55.0f * bench_rng_float(&rng);
    rc = dwt_device(env, &sz, img, out);
    if (rc != BENCH_PASS)
        goto done;
    double t0 = bench_now();
    const float *in = img;
    unsigned in_stride = sz.w;
    float *lls[2] = {ll, ll + n / 4};
    for (unsigned k = 0; k < sz.levels; k++) {
        unsigned w2 = sz.w >> (k + 1), h2 = sz.h >> (k + 1);
        dwt_level_cpu(in, in_stride, ref, sz.w, lls[k & 1], w2, h2);
        in = lls[k & 1];
        in_stride = w2;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n - 1] += 1.0f;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&out[i], &ref[i], sizeof(float)) != 0) {
            snprintf(env->msg, sizeof env->msg,
                     "dwt: coefficient (%zu, %zu) = %.9g, reference %.9g", i % sz.w, i / sz.w,
                     (double)out[i], (double)ref[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(img);
    free(out);
    free(ref);
    free(ll);
    return rc;
}

const bench_def bench_dwt = {
    "dwt", "multi-level 2-D Haar wavelet transform of an image (pyramid layout)",
    "dwt/kernels.ptx", dwt_run};
