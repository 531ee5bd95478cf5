/* benchmarks/cdp-bht/driver.c — Barnes-Hut quadtree build by recursive
 * device-side launches (LaPerm seed's bht, "random data points").
 * Points: n = 4,096 / 32,768 / 262,144 (tiny / small / paper) with uniform
 * random 16-bit coordinates, sorted on the host by Morton code (ties by
 * x, then y).  A node splits while it holds more than leafcap = 16 points
 * (32 at paper) and is shallower than CDP_BHT_MAXDEPTH - 1.
 * Host flow: one launch of bht_node for the root (one 128-thread TB); every
 * node's TB launches its splitting quadrants as one child grid.
 * Check: exact; every node slot (count, sum of x, sum of y) equals the CPU's
 * recursive build (unused slots stay 0). */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BT 128
#define CDP_BHT_MAXDEPTH 12

typedef struct point {
    uint32_t code, x, y;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->code != q->code)
        return p->code < q->code ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

static bench_outcome bht_run(bench_env *env)
{
    int n = env->size == BENCH_TINY ? 4096 : env->size == BENCH_SMALL ? 32768 : 262144;
    int leafcap = env->size == BENCH_PAPER ? 32 : 16, maxdepth = CDP_BHT_MAXDEPTH;
    size_t slots = (size_t)maxdepth * n;
    point *pts = malloc((size_t)n * sizeof *pts);
    uint32_t *code = malloc((size_t)n * 4), *px = malloc((size_t)n * 4), *py = malloc((size_t)n * 4);
    int *ncnt = malloc(slots * sizeof(int)), *rcnt = malloc(slots * sizeof(int));
    uint64_t *nsx = malloc(slots * 8), *nsy = malloc(slots * 8);
    uint64_t *rsx = malloc(slots * 8), *rsy = malloc(slots * 8);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dcode = 0, dpx = 0, dpy = 0, dcnt = 0, dsx = 0, dsy = 0;
    if (!pts || !code || !px || !py || !ncnt || !rcnt || !nsx || !nsy || !rsx || !rsy) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    uint64_t rng = env->seed * 0xa0761d6478bd642full + 5;
    for (int i = 0; i < n; i++) {
        uint64_t r = bench_rng_next(&rng);
        pts[i].x = (uint32_t)(r & 0xffffu);
        pts[i].y = (uint32_t)((r >> 16) & 0xffffu);
        pts[i].code = cdp_morton(pts[i].x, pts[i].y);
    }
    qsort(pts, (size_t)n, sizeof *pts, cmp_point);
    for (int i = 0; i < n; i++)
        code[i] = pts[i].code, px[i] = pts[i].x, py[i] = pts[i].y;

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dcode, (size_t)n * 4));
    TRY(ptxemu_malloc(env->ctx, &dpx, (size_t)n * 4));
    TRY(ptxemu_malloc(env->ctx, &dpy, (size_t)n * 4));
    TRY(ptxemu_malloc(env->ctx, &dcnt, slots * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dsx, slots * 8));
    TRY(ptxemu_malloc(env->ctx, &dsy, slots * 8));
    TRY(ptxemu_memcpy_htod(env->ctx, dcode, code, (size_t)n * 4));
    TRY(ptxemu_memcpy_htod(env->ctx, dpx, px, (size_t)n * 4));
    TRY(ptxemu_memcpy_htod(env->ctx, dpy, py, (size_t)n * 4));
    TRY(ptxemu_memset(env->ctx, dcnt, 0, slots * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dsx, 0, slots * 8));
    TRY(ptxemu_memset(env->ctx, dsy, 0, slots * 8));

    ptxemu_dim3 grid = {1, 1, 1}, block = {BT, 1, 1};
    int depth = 0, los[4] = {0, 0, 0, 0}, his[4] = {n, 0, 0, 0};
    void *args[] = {&dcode, &dpx, &dpy, &n, &depth, &maxdepth, &leafcap, los, his,
                    &dcnt, &dsx, &dsy};
    TRY(ptxemu_launch(env->mod, "bht_node", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, ncnt, dcnt, slots * sizeof(int)));
    TRY(ptxemu_memcpy_dtoh(env->ctx, nsx, dsx, slots * 8));
    TRY(ptxemu_memcpy_dtoh(env->ctx, nsy, dsy, slots * 8));
#undef TRY

    double t0 = bench_now();
    cdp_ref_bht(code, px, py, n, maxdepth, leafcap, rcnt, rsx, rsy);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        rsx[(size_t)n + n / 2] += 1;

    out = BENCH_PASS;
    for (size_t s = 0; s < slots; s++) {
        if (ncnt[s] != rcnt[s] || nsx[s] != rsx[s] || nsy[s] != rsy[s]) {
            snprintf(env->msg, sizeof env->msg,
                     "node slot depth %zu, first point %zu: count %d, sums (%llu, %llu); "
                     "expected %d, (%llu, %llu)",
                     s / (size_t)n, s % (size_t)n, ncnt[s], (unsigned long long)nsx[s],
                     (unsigned long long)nsy[s], rcnt[s], (unsigned long long)rsx[s],
                     (unsigned long long)rsy[s]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (dcode) ptxemu_free(env->ctx, dcode);
    if (dpx) ptxemu_free(env->ctx, dpx);
    if (dpy) ptxemu_free(env->ctx, dpy);
    if (dcnt) ptxemu_free(env->ctx, dcnt);
    if (dsx) ptxemu_free(env->ctx, dsx);
    if (dsy) ptxemu_free(env->ctx, dsy);
    free(pts), free(code), free(px), free(py), free(ncnt), free(rcnt);
    free(nsx), free(nsy), free(rsx), free(rsy);
    return out;
}

const bench_def bench_cdp_bht = {
    "cdp-bht",
    "Barnes-Hut quadtree build over random points, one device-side launch per splitting node",
    "cdp-bht/kernels.ptx", bht_run};
