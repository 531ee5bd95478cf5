/* dxtc/driver.c — DXT1 (BC1) compression of an RGBA image (the thesis's
 * DXTC workload, Table 3.2: 4096 CTAs of 256 threads; Table 4.4: 16384).
 *
 * Host flow: the image goes to the device, one dxt1_compress launch
 * compresses it (16 pixel blocks per 256-thread CTA), the host reads back
 * the 8-byte blocks (two RGB565 endpoints, 16 two-bit indices).  The image
 * is a smooth colour gradient with hard-edged patches and noise, so that
 * blocks range from flat to high contrast.  Check: exact against a CPU
 * encoder doing the same integer search (bounding box, 16 inset candidates,
 * least squared error, per-pixel nearest palette entry). */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define DXT_THREADS 256

typedef struct dxt_size {
    int w, h;
} dxt_size;

static dxt_size dxt_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (dxt_size){64, 32};     /* 128 blocks: 8 CTAs */
    case BENCH_SMALL:
        return (dxt_size){512, 256};   /* 8192 blocks: 512 CTAs */
    default:
        return (dxt_size){1024, 1024}; /* 65536 blocks: 4096 CTAs (Table 3.2) */
    }
}

static unsigned chan(unsigned c, int k) { return (c >> (8 * k)) & 255u; }
static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

static unsigned to565(const int *c)
{
    unsigned r = (unsigned)(c[0] * 31 + 127) / 255, g = (unsigned)(c[1] * 63 + 127) / 255,
             b = (unsigned)(c[2] * 31 + 127) / 255;
    return (r << 11) | (g << 5) | b;
}

static void from565(unsigned v, int *c)
{
    unsigned r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31;
    c[0] = (int)((r << 3) | (r >> 2));
    c[1] = (int)((g << 2) | (g >> 4));
    c[2] = (int)((b << 3) | (b >> 2));
}

static void palette(const int *e0, const int *e1, int k, int *p)
{
    for (int j = 0; j < 3; j++)
        p[j] = k == 0 ? e0[j] : k == 1 ? e1[j]
             : k == 2 ? (2 * e0[j] + e1[j]) / 3 : (e0[j] + 2 * e1[j]) / 3;
}

static int dist2(unsigned px, const int *p)
{
    int d0 = (int)chan(px, 0) - p[0], d1 = (int)chan(px, 1) - p[1], d2 = (int)chan(px, 2) - p[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

static void candidate(const int *lo, const int *hi, int cand, unsigned *v0, unsigned *v1)
{
    int a = cand & 3, b = cand >> 2, c0[3], c1[3];
    for (int j = 0; j < 3; j++) {
        c0[j] = hi[j] - (hi[j] - lo[j]) * a / 16;
        c1[j] = lo[j] + (hi[j] - lo[j]) * b / 16;
    }
    *v0 = to565(c0);
    *v1 = to565(c1);
}

/* One 4x4 block (pixels row-major) on the CPU -> two output words. */
static void dxt_block_cpu(const unsigned *px, unsigned *out)
{
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 3; j++) {
            lo[j] = imin(lo[j], (int)chan(px[k], j));
            hi[j] = imax(hi[j], (int)chan(px[k], j));
        }
    unsigned err[16], v0, v1;
    int e0[3], e1[3], pal[4][3];
    for (int c = 0; c < 16; c++) {
        candidate(lo, hi, c, &v0, &v1);
        from565(v0, e0);
        from565(v1, e1);
        for (int k = 0; k < 4; k++)
            palette(e0, e1, k, pal[k]);
        err[c] = 0;
        for (int q = 0; q < 16; q++) {
            int best = dist2(px[q], pal[0]);
            for (int k = 1; k < 4; k++)
                best = imin(best, dist2(px[q], pal[k]));
            err[c] += (unsigned)best;
        }
    }
    int bc = 0;
    for (int c = 1; c < 16; c++)
        if (err[c] < err[bc])
            bc = c;
    candidate(lo, hi, bc, &v0, &v1);
    if (v0 < v1) {
        unsigned s = v0;
        v0 = v1;
        v1 = s;
    }
    from565(v0, e0);
    from565(v1, e1);
    unsigned bits = 0;
    for (int q = 0; q < 16 && v0 != v1; q++) {
        int bd = 0x7fffffff;
        unsigned sel = 0;
        for (int k = 0; k < 4; k++) {
            int p[3];
            palette(e0, e1, k, p);
            int d = dist2(px[q], p);
            if (d < bd) {
                bd = d;
                sel = (unsigned)k;
            }
        }
        bits |= sel << (2 * q);
    }
    out[0] = v0 | (v1 << 16);
    out[1] = bits;
}

static bench_outcome dxt_device(bench_env *env, const dxt_size *sz, const unsigned *img,
                                unsigned *out)
{
    size_t n = (size_t)sz->w * sz->h, nblk = n / 16;
    ptxemu_dptr d_img, d_out;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_img, n * sizeof(unsigned)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, nblk * 2 * sizeof(unsigned)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_img, img, n * sizeof(unsigned)));
    int w = sz->w;
    void *args[] = {&d_img, &w, &d_out};
    BENCH_TRY(env, ptxemu_launch(env->mod, "dxt1_compress",
                                 (ptxemu_dim3){(unsigned)(nblk / 16), 1, 1},
                                 (ptxemu_dim3){DXT_THREADS, 1, 1}, 0, args));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_out, nblk * 2 * sizeof(unsigned)));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_img));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));

    return BENCH_PASS;
}

static bench_outcome dxt_run(bench_env *env)
{
    dxt_size sz = dxt_pick(env->size);
    size_t n = (size_t)sz.w * sz.h, nblk = n / 16;
    unsigned *img = malloc(n * sizeof(unsigned));
    unsigned *out = calloc(nblk * 2, sizeof(unsigned)), *ref = calloc(nblk * 2, sizeof(unsigned));
    bench_outcome rc = BENCH_ERROR;
    if (!img || !out || !ref) {
        snprintf(env->msg, sizeof env->msg, "dxtc: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (int y = 0; y < sz.h; y++)
        for (int x = 0; x < sz.w; x++) {
            /* gradient, hard-edged 12x12 patches of a shifted hue, noise */
            int patch = ((x / 12) + (y / 12) * 7) % 5 == 0;
            int r = (x * 255) / sz.w, g = (y * 255) / sz.h, b = ((x + y) * 3) & 255;
            if (patch) {
                int s = r;
                r = 255 - g;
                g = b;
                b = s;
            }
            unsigned nz = (unsigned)bench_rng_next(&rng);
            r = imin(255, imax(0, r + (int)(nz & 15) - 8));
            g = imin(255, imax(0, g + (int)((nz >> 4) & 15) - 8));
            b = imin(255, imax(0, b + (int)((nz >> 8) & 15) - 8));
            img[(size_t)y * sz.w + x] = (unsigned)r | (unsigned)g << 8 | (unsigned)b << 16 |
                                        255u << 24;
        }
    rc = dxt_device(env, &sz, img, out);
    if (rc != BENCH_PASS)
        goto done;
    double t0 = bench_now();
    int bw = sz.w / 4;
    for (size_t b = 0; b < nblk; b++) {
        unsigned px[16];
        int bx = (int)(b % (size_t)bw) * 4, by = (int)(b / (size_t)bw) * 4;
        for (int q = 0; q < 16; q++)
            px[q] = img[(size_t)(by + q / 4) * sz.w + bx + q % 4];
        dxt_block_cpu(px, ref + 2 * b);
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[2 * nblk - 1] ^= 1u;
    for (size_t i = 0; i < nblk * 2; i++)
        if (out[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "dxtc: block %zu %s = 0x%08x, reference 0x%08x", i / 2,
                     i % 2 ? "indices" : "endpoints", out[i], ref[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(img);
    free(out);
    free(ref);
    return rc;
}

const bench_def bench_dxtc = {
    "dxtc", "DXT1 (BC1) compression of an RGBA image, 16 threads per 4x4 block",
    "dxtc/kernels.ptx", dxt_run};
