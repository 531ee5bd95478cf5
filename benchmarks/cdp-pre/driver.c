/* benchmarks/cdp-pre/driver.c — product recommendation (item-based
 * collaborative filtering, the LaPerm seed's pre after its [34]) with
 * device-side launches, on a rating set shaped like MovieLens 100K
 * (benchmarks/cdp_pre_inputs.c: 943 users, 1,682 items, 100,000 ratings at
 * small and paper; 240 x 420, 25,000 at tiny).  Host flow: pre_parent
 * (64-thread TBs, one user per thread; a user with more than
 * CDP_PRE_THRESH ratings goes to a child TB), then pre_pick (one thread per
 * user: the best unrated item).
 * Check: exact, every user's recommended item and its score equal the CPU's
 * sequential scoring (cdp_ref_pre_user). */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define CDP_PRE_THRESH 64

static bench_outcome pre_run(bench_env *env)
{
    cdp_ratings r;
    char err[256];
    if (!cdp_ratings_make(&r, env->size, env->seed, err)) {
        snprintf(env->msg, sizeof env->msg, "%s", err);
        return BENCH_ERROR;
    }
    bench_outcome out = BENCH_ERROR;
    int nu = r.users, ni = r.items, nr = r.nratings, nblocks = (nu + PB - 1) / PB;
    size_t nk = (size_t)ni * CDP_PRE_K, cells = (size_t)nu * ni;
    int *best = malloc((size_t)nu * sizeof(int)), *bscore = malloc((size_t)nu * sizeof(int));
    long long *ref = malloc((size_t)ni * sizeof(long long));
    ptxemu_dptr durow = 0, duitem = 0, durate = 0, dnbr = 0, dnsim = 0, dmean = 0, dheavy = 0;
    ptxemu_dptr dscore = 0, dbest = 0, dbscore = 0;
    if (!best || !bscore || !ref) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &durow, ((size_t)nu + 1) * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &duitem, (size_t)nr * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &durate, (size_t)nr * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dnbr, nk * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dnsim, nk * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dmean, (size_t)nu * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dheavy, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dscore, cells * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dbest, (size_t)nu * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dbscore, (size_t)nu * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, durow, r.urow, ((size_t)nu + 1) * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, duitem, r.uitem, (size_t)nr * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, durate, r.urate, (size_t)nr * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dnbr, r.nbr, nk * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dnsim, r.nsim, nk * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dheavy, 0, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dscore, 0, cells * sizeof(int)));

    ptxemu_dim3 grid = {(unsigned)nblocks, 1, 1}, block = {PB, 1, 1};
    int thresh = CDP_PRE_THRESH;
    void *pargs[] = {&durow, &duitem, &durate, &dnbr, &dnsim, &dmean, &dheavy, &dscore,
                     &nu, &ni, &thresh};
    TRY(ptxemu_launch(env->mod, "pre_parent", grid, block, 0, pargs));
    void *kargs[] = {&durow, &duitem, &dscore, &dbest, &dbscore, &nu, &ni};
    TRY(ptxemu_launch(env->mod, "pre_pick", grid, block, 0, kargs));
    TRY(ptxemu_memcpy_dtoh(env->ctx, best, dbest, (size_t)nu * sizeof(int)));
    TRY(ptxemu_memcpy_dtoh(env->ctx, bscore, dbscore, (size_t)nu * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    out = BENCH_PASS;
    for (int u = 0; u < nu; u++) {
        long long ws = 0;
        int want = cdp_ref_pre_user(&r, u, ref, &ws);
        if (env->break_reference && u == nu / 2)
            want = (want + 1) % ni;
        if (best[u] != want || bscore[u] != ws) {
            snprintf(env->msg, sizeof env->msg,
                     "user %d (%d ratings): recommends item %d (score %d), expected %d (%lld)",
                     u, r.urow[u + 1] - r.urow[u], best[u], bscore[u], want, ws);
            out = BENCH_FAIL;
            break;
        }
    }
    env->ref_seconds = bench_now() - t0;
done:
    if (durow) ptxemu_free(env->ctx, durow);
    if (duitem) ptxemu_free(env->ctx, duitem);
    if (durate) ptxemu_free(env->ctx, durate);
    if (dnbr) ptxemu_free(env->ctx, dnbr);
    if (dnsim) ptxemu_free(env->ctx, dnsim);
    if (dmean) ptxemu_free(env->ctx, dmean);
    if (dheavy) ptxemu_free(env->ctx, dheavy);
    if (dscore) ptxemu_free(env->ctx, dscore);
    if (dbest) ptxemu_free(env->ctx, dbest);
    if (dbscore) ptxemu_free(env->ctx, dbscore);
    free(best), free(bscore), free(ref);
    cdp_ratings_free(&r);
    return out;
}

const bench_def bench_cdp_pre = {
    "cdp-pre",
    "item-based collaborative filtering with a child TB per user of many ratings, MovieLens-100K-like ratings",
    "cdp-pre/kernels.ptx", pre_run};
