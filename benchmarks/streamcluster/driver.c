/* benchmarks/streamcluster/driver.c — host driver for the pgain local
 * search of streaming k-median clustering (Rodinia streamcluster style).
 *
 * Input: n weighted points in dim dimensions around a few hidden centres.
 * Host flow: open one centre (point 0) and assign every point to it; then
 * for each of a seeded sequence of candidate points x: launch pgain, add
 * up the per-CTA sums, and decide.  Opening x costs the facility cost z;
 * every switching point saves cost[p] - d; an open centre whose remaining
 * points would cost less than z extra to move to x is closed (saving z).
 * If the total saving is positive, x is opened: the host copies the new
 * distances back, moves the switching points and the points of the closed
 * centres to x, renumbers the centres and copies assign/cost to the device.
 * The CPU reference computes the kernel's per-CTA sums itself (same float
 * order) and shares the host decision code, so every decision, assignment
 * and cost must match. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SC_BLOCK 256 /* must match kernels.cu */
#define SC_KMAX 64   /* most open centres (nc + 1 <= SC_BLOCK) */

typedef struct sc_cfg {
    int n, dim, ncand;
} sc_cfg;

static sc_cfg sc_config(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (sc_cfg){1024, 16, 12};
    case BENCH_SMALL: return (sc_cfg){16384, 64, 20};
    /* Rodinia's usual run: 65536 points of 256 dimensions (256 CTAs) */
    default: return (sc_cfg){65536, 256, 20};
    }
}

typedef struct sc_state {
    int nc;                 /* open centres */
    int centre[SC_KMAX];    /* point index of each open centre */
    int *assign;            /* n: centre slot of each point */
    float *cost;            /* n: weight * squared distance to its centre */
    int accepted;
} sc_state;

typedef struct sc_input {
    float *coord;  /* dim * n, feature-major */
    float *weight; /* n */
    int *cand;     /* ncand candidate point indices */
    float z;       /* facility cost */
} sc_input;

static float sc_dist(const sc_input *in, int n, int dim, int p, int x)
{
    float d = 0.0f;
    for (int f = 0; f < dim; f++) {
        float diff = in->coord[(size_t)f * n + p] - in->coord[(size_t)f * n + x];
        d = fmaf(diff, diff, d);
    }
    return d * in->weight[p];
}

static void sc_generate(sc_input *in, const sc_cfg *c, uint64_t seed)
{
    uint64_t st = seed;
    enum { G = 8 };
    float *centre = malloc((size_t)G * c->dim * sizeof(float));
    if (!centre)
        return;
    for (int k = 0; k < G * c->dim; k++)
        centre[k] = 10.0f * bench_rng_float(&st);
    for (int p = 0; p < c->n; p++) {
        int g = (int)(bench_rng_next(&st) % G);
        for (int f = 0; f < c->dim; f++)
            in->coord[(size_t)f * c->n + p] =
                centre[g * c->dim + f] + 2.0f * bench_rng_float(&st) - 1.0f;
        in->weight[p] = (float)(1 + bench_rng_next(&st) % 2);
    }
    for (int k = 0; k < c->ncand; k++)
        in->cand[k] = (int)(bench_rng_next(&st) % (uint64_t)c->n);
    free(centre);
}

/* Initial solution (host): one centre at point 0.  Also sets z to a
 * fraction of the initial total cost, so that a handful of centres pay. */
static void sc_init(sc_state *s, sc_input *in, const sc_cfg *c)
{
    double total = 0.0;
    s->nc = 1;
    s->centre[0] = 0;
    s->accepted = 0;
    for (int p = 0; p < c->n; p++) {
        s->assign[p] = 0;
        s->cost[p] = sc_dist(in, c->n, c->dim, p, 0);
        total += s->cost[p];
    }
    in->z = (float)(total / 32.0);
}

static bool sc_is_centre(const sc_state *s, int x)
{
    for (int k = 0; k < s->nc; k++)
        if (s->centre[k] == x)
            return true;
    return false;
}

/* The host decision: from the per-CTA sums, is opening x worth it?  Fills
 * closed[] with the centres to close. */
static bool sc_decide(const sc_state *s, const float *block_out, int nblocks, float z,
                      bool *closed)
{
    int nc = s->nc;
    double gain = 0.0, lower[SC_KMAX] = {0};
    for (int b = 0; b < nblocks; b++) {
        gain += block_out[(size_t)b * (nc + 1) + nc];
        for (int k = 0; k < nc; k++)
            lower[k] += block_out[(size_t)b * (nc + 1) + k];
    }
    double benefit = gain - z;
    int nclosed = 0;
    for (int k = 0; k < nc; k++) {
        closed[k] = z + lower[k] > 0.0;
        if (closed[k]) {
            benefit += z + lower[k];
            nclosed++;
        }
    }
    return benefit > 0.0 && nc - nclosed + 1 <= SC_KMAX;
}

/* Open x: renumber the surviving centres, move points. */
static void sc_apply(sc_state *s, const float *dist, const bool *closed, int x, int n)
{
    int map[SC_KMAX], nc = 0;
    for (int k = 0; k < s->nc; k++) {
        map[k] = closed[k] ? -1 : nc;
        if (!closed[k])
            s->centre[nc++] = s->centre[k];
    }
    s->centre[nc] = x;
    for (int p = 0; p < n; p++) {
        int a = map[s->assign[p]];
        if (dist[p] < s->cost[p] || a < 0) {
            s->assign[p] = nc;
            s->cost[p] = dist[p];
        } else {
            s->assign[p] = a;
        }
    }
    s->nc = nc + 1;
    s->accepted++;
}

/* CPU version of the pgain kernel, same float order per CTA. */
static void ref_pgain(const sc_state *s, const sc_input *in, const sc_cfg *c, int x,
                      float *dist, float *block_out)
{
    int n = c->n, nc = s->nc, nblocks = (n + SC_BLOCK - 1) / SC_BLOCK;
    float save[SC_BLOCK];
    int cen[SC_BLOCK];
    for (int b = 0; b < nblocks; b++) {
        for (int t = 0; t < SC_BLOCK; t++) {
            int p = b * SC_BLOCK + t;
            if (p < n) {
                float d = sc_dist(in, n, c->dim, p, x);
                dist[p] = d;
                save[t] = s->cost[p] - d;
                cen[t] = d < s->cost[p] ? -1 : s->assign[p];
            } else {
                save[t] = 0.0f;
                cen[t] = -2;
            }
        }
        for (int t = 0; t <= nc; t++) {
            int want = t < nc ? t : -1;
            float acc = 0.0f;
            for (int j = 0; j < SC_BLOCK; j++)
                if (cen[j] == want)
                    acc += save[j];
            block_out[(size_t)b * (nc + 1) + t] = acc;
        }
    }
}

static void sc_reference(sc_state *s, sc_input *in, const sc_cfg *c, float *dist,
                         float *block_out)
{
    int nblocks = (c->n + SC_BLOCK - 1) / SC_BLOCK;
    bool closed[SC_KMAX];
    sc_init(s, in, c);
    for (int k = 0; k < c->ncand; k++) {
        int x = in->cand[k];
        if (sc_is_centre(s, x))
            continue;
        ref_pgain(s, in, c, x, dist, block_out);
        if (sc_decide(s, block_out, nblocks, in->z, closed))
            sc_apply(s, dist, closed, x, c->n);
    }
}

static bench_outcome sc_device(bench_env *env, sc_state *s, sc_input *in, const sc_cfg *c,
                               float *dist, float *block_out)
{
    int n = c->n, dim = c->dim;
    int nblocks = (n + SC_BLOCK - 1) / SC_BLOCK;
    size_t nbytes = (size_t)n * sizeof(float);
    ptxemu_dptr d_coord, d_weight, d_cost, d_assign, d_dist, d_out;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_coord, (size_t)dim * nbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_weight, nbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_cost, nbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_assign, (size_t)n * sizeof(int)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_dist, nbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out,
                                 (size_t)nblocks * (SC_KMAX + 1) * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_coord, in->coord, (size_t)dim * nbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_weight, in->weight, nbytes));

    sc_init(s, in, c);
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_cost, s->cost, nbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_assign, s->assign, (size_t)n * sizeof(int)));
    ptxemu_dim3 grid = {(unsigned)nblocks, 1, 1}, block = {SC_BLOCK, 1, 1};
    bool closed[SC_KMAX];
    for (int k = 0; k < c->ncand; k++) {
        int x = in->cand[k];
        if (sc_is_centre(s, x))
            continue;
        int nc = s->nc;
        void *args[] = {&d_coord, &d_weight, &d_cost, &d_assign, &n, &dim, &nc, &x,
                        &d_dist, &d_out};
        BENCH_TRY(env, ptxemu_launch(env->mod, "pgain", grid, block, 0, args));
        BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, block_out, d_out,
                                          (size_t)nblocks * (nc + 1) * sizeof(float)));
        if (!sc_decide(s, block_out, nblocks, in->z, closed))
            continue;
        BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, dist, d_dist, nbytes));
        sc_apply(s, dist, closed, x, n);
        BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_cost, s->cost, nbytes));
        BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_assign, s->assign,
                                          (size_t)n * sizeof(int)));
    }
    ptxemu_dptr all[] = {d_coord, d_weight, d_cost, d_assign, d_dist, d_out};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

/* Check: number of accepted candidates, the open centres and every point's
 * centre exactly; costs with |got - ref| <= 1e-5 * |ref| + 1e-6 (they are
 * the same fmaf chains, so equal on an exact emulator; a few ulps allowed). */
static bench_outcome sc_check(bench_env *env, const sc_state *g, const sc_state *r, int n)
{
    if (g->accepted != r->accepted || g->nc != r->nc) {
        snprintf(env->msg, sizeof env->msg,
                 "accepted candidates / open centres: got %d / %d, expected %d / %d",
                 g->accepted, g->nc, r->accepted, r->nc);
        return BENCH_FAIL;
    }
    for (int k = 0; k < g->nc; k++)
        if (g->centre[k] != r->centre[k]) {
            snprintf(env->msg, sizeof env->msg, "centre[%d]: got point %d, expected %d",
                     k, g->centre[k], r->centre[k]);
            return BENCH_FAIL;
        }
    for (int p = 0; p < n; p++) {
        float tol = 1e-5f * fabsf(r->cost[p]) + 1e-6f;
        if (g->assign[p] != r->assign[p] || !(fabsf(g->cost[p] - r->cost[p]) <= tol)) {
            snprintf(env->msg, sizeof env->msg,
                     "point %d: got centre %d cost %.9g, expected centre %d cost %.9g", p,
                     g->assign[p], g->cost[p], r->assign[p], r->cost[p]);
            return BENCH_FAIL;
        }
    }
    return BENCH_PASS;
}

static bench_outcome sc_run(bench_env *env)
{
    sc_cfg c = sc_config(env->size);
    int nblocks = (c.n + SC_BLOCK - 1) / SC_BLOCK;
    sc_input in = {malloc((size_t)c.dim * c.n * sizeof(float)),
                   malloc((size_t)c.n * sizeof(float)), malloc((size_t)c.ncand * sizeof(int)),
                   0.0f};
    sc_state g = {0}, r = {0};
    g.assign = malloc((size_t)c.n * sizeof(int));
    g.cost = malloc((size_t)c.n * sizeof(float));
    r.assign = malloc((size_t)c.n * sizeof(int));
    r.cost = malloc((size_t)c.n * sizeof(float));
    float *dist = malloc((size_t)c.n * sizeof(float));
    float *block_out = malloc((size_t)nblocks * (SC_KMAX + 1) * sizeof(float));
    bench_outcome out;
    if (!in.coord || !in.weight || !in.cand || !g.assign || !g.cost || !r.assign ||
        !r.cost || !dist || !block_out) {
        snprintf(env->msg, sizeof env->msg, "streamcluster: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    sc_generate(&in, &c, env->seed);

    out = sc_device(env, &g, &in, &c, dist, block_out);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    sc_reference(&r, &in, &c, dist, block_out);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        r.assign[c.n / 2] = (r.assign[c.n / 2] + 1) % (r.nc + 1);
    out = sc_check(env, &g, &r, c.n);
done:
    free(in.coord);
    free(in.weight);
    free(in.cand);
    free(g.assign);
    free(g.cost);
    free(r.assign);
    free(r.cost);
    free(dist);
    free(block_out);
    return out;
}

const bench_def bench_streamcluster = {
    "streamcluster", "k-median local search: pgain kernel per candidate centre, host accepts/rejects",
    "streamcluster/kernels.ptx", sc_run};
