/* benchmarks/cdp-join/driver.c — relational equi-join with device-side
 * launches (LaPerm seed's join) on uniform and Gaussian keys:
 * cdp-join-uniform, cdp-join-gaussian.  |R| = |S| = 2,048 / 32,768 /
 * 262,144 (tiny / small / paper); keys in [0, |R| / 16): uniform gives 16
 * matches per probe on average, Gaussian (Irwin-Hall, sd |R| / 192) ~5x
 * that near the mean and none in the tails.  R rows carry their original
 * index as payload and are sorted by (key, index) on the host (the build
 * side's index); S payloads are their index.
 * Host flow: join_count (binary search per S tuple), read the counts, scan
 * them into output offsets, join_probe (a tuple with more than
 * CDP_JOIN_THRESH matches goes to a child TB).
 * Check: exact; every S tuple's first match and count equal a counting-sort
 * reference's, and every output pair equals (S payload, R payload). */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define CDP_JOIN_THRESH 16

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

static bench_outcome join_run(bench_env *env, bool gaussian)
{
    int nr = env->size == BENCH_TINY ? 2048 : env->size == BENCH_SMALL ? 32768 : 262144;
    int ns = nr, range = nr / 16, nblocks = (ns + PB - 1) / PB;
    int *pairs = malloc((size_t)nr * 2 * sizeof(int));
    int *rkey = malloc((size_t)nr * sizeof(int)), *rpay = malloc((size_t)nr * sizeof(int));
    int *skey = malloc((size_t)ns * sizeof(int)), *spay = malloc((size_t)ns * sizeof(int));
    int *first = malloc((size_t)ns * sizeof(int)), *count = malloc((size_t)ns * sizeof(int));
    int *rfirst = malloc((size_t)ns * sizeof(int)), *rcount = malloc((size_t)ns * sizeof(int));
    int *off = malloc((size_t)ns * sizeof(int)), *res = NULL;
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr drkey = 0, drpay = 0, dskey = 0, dspay = 0, dfirst = 0, dcount = 0, doff = 0;
    ptxemu_dptr dheavy = 0, dout = 0;
    if (!pairs || !rkey || !rpay || !skey || !spay || !first || !count || !rfirst || !rcount ||
        !off) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    uint64_t rng = env->seed * 0x9e3779b97f4a7c15ull + (gaussian ? 2 : 1);
    cdp_join_keys(rkey, nr, range, gaussian, &rng);
    cdp_join_keys(skey, ns, range, gaussian, &rng);
    for (int i = 0; i < nr; i++)
        pairs[2 * i] = rkey[i], pairs[2 * i + 1] = i;
    qsort(pairs, (size_t)nr, 2 * sizeof(int), cmp_pair);
    for (int i = 0; i < nr; i++)
        rkey[i] = pairs[2 * i], rpay[i] = pairs[2 * i + 1];
    for (int s = 0; s < ns; s++)
        spay[s] = s;

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &drkey, (size_t)nr * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &drpay, (size_t)nr * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dskey, (size_t)ns * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dspay, (size_t)ns * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dfirst, (size_t)ns * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dcount, (size_t)ns * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &doff, (size_t)ns * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dheavy, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, drkey, rkey, (size_t)nr * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, drpay, rpay, (size_t)nr * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dskey, skey, (size_t)ns * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dspay, spay, (size_t)ns * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dheavy, 0, (size_t)nblocks * PB * sizeof(int)));

    ptxemu_dim3 block = {PB, 1, 1}, grid = {(unsigned)nblocks, 1, 1};
    void *cargs[] = {&drkey, &nr, &dskey, &ns, &dfirst, &dcount};
    TRY(ptxemu_launch(env->mod, "join_count", grid, block, 0, cargs));
    TRY(ptxemu_memcpy_dtoh(env->ctx, first, dfirst, (size_t)ns * sizeof(int)));
    TRY(ptxemu_memcpy_dtoh(env->ctx, count, dcount, (size_t)ns * sizeof(int)));
    long total = 0;
    for (int s = 0; s < ns; s++) {
        if (count[s] < 0 || count[s] > nr) {
            snprintf(env->msg, sizeof env->msg, "count[%d] = %d is out of range", s, count[s]);
            out = BENCH_FAIL;
            goto done;
        }
        off[s] = (int)total;
        total += count[s];
    }
    res = malloc((size_t)(total ? total : 1) * 2 * sizeof(int));
    if (!res) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed (%ld pairs)", total);
        goto done;
    }
    TRY(ptxemu_malloc(env->ctx, &dout, (size_t)(total ? total : 1) * 2 * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dout, 0xff, (size_t)(total ? total : 1) * 2 * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, doff, off, (size_t)ns * sizeof(int)));
    int thresh = CDP_JOIN_THRESH;
    void *pargs[] = {&drkey, &drpay, &dskey, &dspay, &dfirst, &dcount, &doff,
                     &dheavy, &dout, &ns, &thresh};
    TRY(ptxemu_launch(env->mod, "join_probe", grid, block, 0, pargs));
    TRY(ptxemu_memcpy_dtoh(env->ctx, res, dout, (size_t)total * 2 * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    if (!cdp_ref_join(rkey, nr, skey, ns, range, rfirst, rcount)) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed (reference)");
        goto done;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        rcount[ns / 2] += 1;

    out = BENCH_PASS;
    for (int s = 0; s < ns && out == BENCH_PASS; s++) {
        if (first[s] != rfirst[s] || count[s] != rcount[s]) {
            snprintf(env->msg, sizeof env->msg,
                     "S tuple %d (key %d): matches R[%d] x %d, expected R[%d] x %d", s,
                     skey[s], first[s], count[s], rfirst[s], rcount[s]);
            out = BENCH_FAIL;
            break;
        }
        for (int j = 0; j < count[s]; j++) {
            const int *p = &res[2 * (off[s] + j)];
            if (p[0] != spay[s] || p[1] != rpay[rfirst[s] + j]) {
                snprintf(env->msg, sizeof env->msg,
                         "output %d (S tuple %d, match %d) = (%d, %d), expected (%d, %d)",
                         off[s] + j, s, j, p[0], p[1], spay[s], rpay[rfirst[s] + j]);
                out = BENCH_FAIL;
                break;
            }
        }
    }
done:
    if (drkey) ptxemu_free(env->ctx, drkey);
    if (drpay) ptxemu_free(env->ctx, drpay);
    if (dskey) ptxemu_free(env->ctx, dskey);
    if (dspay) ptxemu_free(env->ctx, dspay);
    if (dfirst) ptxemu_free(env->ctx, dfirst);
    if (dcount) ptxemu_free(env->ctx, dcount);
    if (doff) ptxemu_free(env->ctx, doff);
    if (dheavy) ptxemu_free(env->ctx, dheavy);
    if (dout) ptxemu_free(env->ctx, dout);
    free(pairs), free(rkey), free(rpay), free(skey), free(spay);
    free(first), free(count), free(rfirst), free(rcount), free(off), free(res);
    return out;
}

static bench_outcome join_uniform(bench_env *env) { return join_run(env, false); }
static bench_outcome join_gaussian(bench_env *env) { return join_run(env, true); }

const bench_def bench_cdp_join_uniform = {
    "cdp-join-uniform",
    "equi-join (binary-search probe, child TB per heavy probe) on uniform keys",
    "cdp-join/kernels.ptx", join_uniform};
const bench_def bench_cdp_join_gaussian = {
    "cdp-join-gaussian",
    "equi-join (binary-search probe, child TB per heavy probe) on Gaussian keys",
    "cdp-join/kernels.ptx", join_gaussian};
