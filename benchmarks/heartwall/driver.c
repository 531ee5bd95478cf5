/* heartwall/driver.c — tracking points of the heart wall through a sequence
 * of ultrasound-like frames by template matching (the thesis's Heart
 * workload, Table 3.2: 56 CTAs of 256 threads, 45 phases).
 *
 * Host flow, as in the real application: the first frame goes to the device
 * once; each later frame is copied in and heart_track (one CTA per tracked
 * point, 256 threads) moves every point to the displacement, within +-7
 * pixels of its last position, whose 16 x 16 patch best matches (least sum
 * of squared differences) the point's patch in the first frame.  The points
 * sit on two ellipses (inner and outer wall); the frames are a blurred noise
 * texture that contracts and relaxes about the centre, with fresh noise per
 * frame.  Positions stay on the device from frame to frame; at the end the
 * host reads every frame's positions and best scores.  Check: exact (integer)
 * against a CPU tracker doing the same search.
 *
 * Sizes: the thesis's 56 points fill less than one CTA wave on m2090
 * (16 SMs x 4 CTAs: the kernel's 26 registers per thread allow 4, as in the
 * thesis's Table 3.2), so paper tracks 512 points (8 waves per frame). */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HW_TPL 16
#define HW_RAD 7
#define HW_SIDE (2 * HW_RAD + 1)
#define HW_THREADS 256

typedef struct hw_size {
    int w, h, points, frames;
} hw_size;

static hw_size hw_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (hw_size){96, 96, 4, 3};      /* 2 launches of 4 CTAs */
    case BENCH_SMALL:
        return (hw_size){320, 304, 56, 6};   /* the thesis's 56 CTAs, 5 launches */
    default:
        return (hw_size){640, 608, 512, 5};  /* 4 launches of 512 CTAs */
    }
}

static int hw_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Blurred noise texture, then per frame a radial contraction of up to a
 * few pixels plus fresh noise. */
static void hw_frames(const hw_size *sz, uint64_t seed, unsigned char *frames)
{
    int w = sz->w, h = sz->h;
    unsigned char *noise = malloc((size_t)w * h);
    unsigned char *base = malloc((size_t)w * h);
    uint64_t rng = seed;
    for (int i = 0; i < w * h; i++)
        noise[i] = (unsigned char)(bench_rng_next(&rng) & 255);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int s = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++)
                    s += noise[hw_clamp(y + j, 0, h - 1) * w + hw_clamp(x + i, 0, w - 1)];
            base[y * w + x] = (unsigned char)(s / 9);
        }
    static const int amp[8] = {0, 2, 4, 5, 4, 2, 0, -1};
    int cx = w / 2, cy = h / 2;
    for (int f = 0; f < sz->frames; f++) {
        unsigned char *fr = frames + (size_t)f * w * h;
        int a = amp[f % 8];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int srcx = hw_clamp(x + (x - cx) * a / (w / 4), 0, w - 1);
                int srcy = hw_clamp(y + (y - cy) * a / (h / 4), 0, h - 1);
                int v = base[srcy * w + srcx] + (int)(bench_rng_next(&rng) % 9) - 4;
                fr[y * w + x] = (unsigned char)hw_clamp(v, 0, 255);
            }
    }
    free(noise);
    free(base);
}

/* Points alternate between the inner (endocardium) and outer (epicardium)
 * ellipse; a position is the top-left corner of the point's patch. */
static void hw_points(const hw_size *sz, int *pos)
{
    for (int k = 0; k < sz->points; k++) {
        double r = (k & 1) ? 0.36 : 0.22;
        double ang = 2.0 * 3.14159265358979 * k / sz->points;
        int x = (int)lround(sz->w / 2 + r * sz->w * cos(ang)) - HW_TPL / 2;
        int y = (int)lround(sz->h / 2 + r * sz->h * sin(ang)) - HW_TPL / 2;
        pos[2 * k] = hw_clamp(x, HW_RAD, sz->w - HW_TPL - HW_RAD);
        pos[2 * k + 1] = hw_clamp(y, HW_RAD, sz->h - HW_TPL - HW_RAD);
    }
}

/* One frame on the CPU: the kernel's search, point by point. */
static void hw_track_cpu(const hw_size *sz, const unsigned char *first, const unsigned char *fr,
                         const int *start, const int *prev, int *next, unsigned *score)
{
    int w = sz->w;
    for (int p = 0; p < sz->points; p++) {
        int sx = start[2 * p], sy = start[2 * p + 1], px = prev[2 * p], py = prev[2 * p + 1];
        unsigned best = 0xffffffffu;
        int bi = 0;
        for (int c = 0; c < HW_SIDE * HW_SIDE; c++) {
            int ox = px - HW_RAD + c % HW_SIDE, oy = py - HW_RAD + c / HW_SIDE;
            unsigned ssd = 0;
            for (int y = 0; y < HW_TPL; y++)
                for (int x = 0; x < HW_TPL; x++) {
                    int d = (int)fr[(oy + y) * w + ox + x] - (int)first[(sy + y) * w + sx + x];
                    ssd += (unsigned)(d * d);
                }
            if (ssd < best) {
                best = ssd;
                bi = c;
            }
        }
        next[2 * p] = hw_clamp(px + bi % HW_SIDE - HW_RAD, HW_RAD, w - HW_TPL - HW_RAD);
        next[2 * p + 1] = hw_clamp(py + bi / HW_SIDE - HW_RAD, HW_RAD, sz->h - HW_TPL - HW_RAD);
        score[p] = best;
    }
}

static bench_outcome hw_device(bench_env *env, const hw_size *sz, const unsigned char *frames,
                               int *pos, unsigned *score)
{
    size_t fbytes = (size_t)sz->w * sz->h, pbytes = (size_t)sz->points * 2 * sizeof(int);
    size_t sbytes = (size_t)sz->points * sizeof(unsigned);
    ptxemu_dptr d_first, d_frame, d_pos, d_score;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_first, fbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_frame, fbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_pos, pbytes * sz->frames));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_score, sbytes * sz->frames));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_first, frames, fbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_pos, pos, pbytes));
    int w = sz->w, h = sz->h;
    for (int f = 1; f < sz->frames; f++) {
        BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_frame, frames + f * fbytes, fbytes));
        ptxemu_dptr prev = d_pos + (f - 1) * pbytes, next = d_pos + f * pbytes;
        ptxemu_dptr sc = d_score + f * sbytes;
        void *args[] = {&d_first, &d_frame, &w, &h, &d_pos, &prev, &next, &sc};
        BENCH_TRY(env, ptxemu_launch(env->mod, "heart_track", (ptxemu_dim3){sz->points, 1, 1},
                                     (ptxemu_dim3){HW_THREADS, 1, 1}, 0, args));
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, pos + 2 * sz->points, d_pos + pbytes,
                                      pbytes * (sz->frames - 1)));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, score + sz->points, d_score + sbytes,
                                      sbytes * (sz->frames - 1)));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_first));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_frame));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_pos));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_score));
    return BENCH_PASS;
}

static bench_outcome hw_run(bench_env *env)
{
    hw_size sz = hw_pick(env->size);
    size_t np = (size_t)sz.points * sz.frames;
    unsigned char *frames = malloc((size_t)sz.w * sz.h * sz.frames);
    int *pos = calloc(np * 2, sizeof(int)), *ref = calloc(np * 2, sizeof(int));
    unsigned *score = calloc(np, sizeof(unsigned)), *rscore = calloc(np, sizeof(unsigned));
    bench_outcome rc = BENCH_ERROR;
    if (!frames || !pos || !ref || !score || !rscore) {
        snprintf(env->msg, sizeof env->msg, "heartwall: out of host memory");
        goto done;
    }
    hw_frames(&sz, env->seed, frames);
    hw_points(&sz, pos);
    memcpy(ref, pos, (size_t)sz.points * 2 * sizeof(int));
    rc = hw_device(env, &sz, frames, pos, score);
    if (rc != BENCH_PASS)
        goto done;
    double t0 = bench_now();
    size_t fb = (size_t)sz.w * sz.h, pp = (size_t)sz.points;
    for (int f = 1; f < sz.frames; f++)
        hw_track_cpu(&sz, frames, frames + f * fb, ref, ref + (f - 1) * 2 * pp,
                     ref + f * 2 * pp, rscore + f * pp);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[np * 2 - 1] += 1;
    for (size_t i = pp; i < np; i++)
        if (pos[2 * i] != ref[2 * i] || pos[2 * i + 1] != ref[2 * i + 1] ||
            score[i] != rscore[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "heartwall: frame %zu point %zu at (%d, %d) score %u, reference (%d, %d) "
                     "score %u", i / pp, i % pp, pos[2 * i], pos[2 * i + 1], score[i],
                     ref[2 * i], ref[2 * i + 1], rscore[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(frames);
    free(pos);
    free(ref);
    free(score);
    free(rscore);
    return rc;
}

const bench_def bench_heartwall = {
    "heartwall", "heart-wall tracking: template matching of 16x16 patches through frames",
    "heartwall/kernels.ptx", hw_run};
