/* benchmarks/bptree/driver.c — host driver for B+ tree search ("b+tree").
 *
 * Input: nkeys sorted unique keys with a record each.  Host flow: build the
 * B+ tree bottom-up on the host (nodes between half and completely full,
 * chosen by the seeded generator), copy it to the device, answer a batch of
 * point queries with findK and a batch of range queries with findRangeK.
 * The CPU reference answers the same queries by binary search over the
 * sorted key array, independently of the tree; all results are integers and
 * must match exactly. */
#include "benchmarks/bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORDER 256 /* slots per node = threads per CTA; must match kernels.cu */

typedef struct bt_cfg {
    int nkeys, nqueries;
} bt_cfg;

static bt_cfg bt_config(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (bt_cfg){60000, 64};
    case BENCH_SMALL: return (bt_cfg){500000, 2048};
    /* one million keys (Rodinia's usual input); 65535 one-query CTAs of
     * 256 threads per kernel (thesis Table 3.2). */
    default: return (bt_cfg){1000000, 65535};
    }
}

typedef struct bt_tree {
    int *keys, *vals, *base; /* nnodes * ORDER, nnodes * ORDER, nnodes */
    int nnodes, root, height;
} bt_tree;

/* Number of slots to fill in the next node: between ORDER/2 and ORDER,
 * never leaving fewer than ORDER/2 items for a last node. */
static int bt_fill(uint64_t *st, int left)
{
    if (left <= ORDER)
        return left;
    int f = ORDER / 2 + (int)(bench_rng_next(st) % (ORDER / 2 + 1));
    if (left - f < ORDER / 2)
        f = left - ORDER / 2;
    return f;
}

static int bt_nodes_bound(int nkeys)
{
    /* every node but the last of a level holds at least ORDER/2 items */
    int total = 0, n = nkeys;
    do {
        n = n / (ORDER / 2) + 1;
        total += n;
    } while (n > 1);
    return total + 1;
}

/* Builds the tree bottom-up; returns false when out of memory. */
static bool bt_build(bt_tree *t, const int *sorted, int nkeys, uint64_t *st)
{
    int cap = bt_nodes_bound(nkeys);
    t->keys = malloc((size_t)cap * ORDER * sizeof(int));
    t->vals = malloc((size_t)cap * ORDER * sizeof(int));
    t->base = malloc((size_t)cap * sizeof(int));
    int *minkey = malloc((size_t)cap * sizeof(int)); /* smallest key below a node */
    if (!t->keys || !t->vals || !t->base || !minkey) {
        free(minkey);
        return false;
    }
    for (size_t i = 0; i < (size_t)cap * ORDER; i++) {
        t->keys[i] = INT_MAX;
        t->vals[i] = 0;
    }
    memset(t->base, 0, (size_t)cap * sizeof(int));

    /* leaves */
    int n = 0;
    for (int pos = 0; pos < nkeys; n++) {
        int f = bt_fill(st, nkeys - pos);
        t->base[n] = pos;
        minkey[n] = sorted[pos];
        for (int i = 0; i < f; i++) {
            t->keys[(size_t)n * ORDER + i] = sorted[pos + i];
            t->vals[(size_t)n * ORDER + i] = pos + i;
        }
        pos += f;
    }
    /* internal levels over the previous level's nodes [first, n) */
    int first = 0, height = 0;
    while (n - first > 1) {
        int level_end = n;
        for (int c = first; c < level_end; n++) {
            int f = bt_fill(st, level_end - c);
            minkey[n] = minkey[c];
            for (int i = 0; i < f; i++) {
                t->keys[(size_t)n * ORDER + i] = i == 0 ? INT_MIN : minkey[c + i];
                t->vals[(size_t)n * ORDER + i] = c + i;
            }
            c += f;
        }
        first = level_end;
        height++;
    }
    t->nnodes = n;
    t->root = n - 1;
    t->height = height;
    free(minkey);
    return true;
}

typedef struct bt_data {
    int *sorted, *records, *queries, *starts, *ends;
} bt_data;

static void bt_generate(bt_data *d, const bt_cfg *c, uint64_t *st)
{
    int key = (int)(bench_rng_next(st) % 4);
    for (int i = 0; i < c->nkeys; i++) {
        d->sorted[i] = key;
        d->records[i] = (int)(bench_rng_next(st) >> 34); /* 30-bit payload */
        key += 1 + (int)(bench_rng_next(st) % 4);
    }
    int maxkey = d->sorted[c->nkeys - 1];
    for (int q = 0; q < c->nqueries; q++) {
        /* three in four queries hit a stored key; the rest are arbitrary */
        if (bench_rng_next(st) % 4 != 0)
            d->queries[q] = d->sorted[bench_rng_next(st) % (uint64_t)c->nkeys];
        else
            d->queries[q] = (int)(bench_rng_next(st) % (uint64_t)(maxkey + 10)) - 5;
        int lo = (int)(bench_rng_next(st) % (uint64_t)(maxkey + 10)) - 5;
        d->starts[q] = lo;
        d->ends[q] = lo + (int)(bench_rng_next(st) % 2000); /* up to ~800 keys */
    }
}

/* first position whose key is >= v (or > v when `after`) */
static int bt_bound(const int *sorted, int n, int v, bool after)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v || (after && sorted[mid] == v))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void bt_reference(const bt_data *d, const bt_cfg *c, int *ans, int *rs, int *rl)
{
    for (int q = 0; q < c->nqueries; q++) {
        int p = bt_bound(d->sorted, c->nkeys, d->queries[q], false);
        ans[q] = p < c->nkeys && d->sorted[p] == d->queries[q] ? d->records[p] : -1;
        int a = bt_bound(d->sorted, c->nkeys, d->starts[q], false);
        int b = bt_bound(d->sorted, c->nkeys, d->ends[q], true);
        rs[q] = a;
        rl[q] = b - a;
    }
}

static bench_outcome bt_device(bench_env *env, const bt_tree *t, const bt_data *d,
                               const bt_cfg *c, int *ans, int *rs, int *rl)
{
    size_t nbytes = (size_t)t->nnodes * ORDER * sizeof(int);
    size_t qbytes = (size_t)c->nqueries * sizeof(int);
    ptxemu_dptr d_keys, d_vals, d_base, d_rec, d_q, d_ans, d_lo, d_hi, d_rs, d_rl;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_keys, nbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_vals, nbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_base, (size_t)t->nnodes * sizeof(int)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_rec, (size_t)c->nkeys * sizeof(int)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_q, qbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_ans, qbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_lo, qbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_hi, qbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_rs, qbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_rl, qbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_keys, t->keys, nbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_vals, t->vals, nbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_base, t->base,
                                      (size_t)t->nnodes * sizeof(int)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_rec, d->records,
                                      (size_t)c->nkeys * sizeof(int)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_q, d->queries, qbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_lo, d->starts, qbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_hi, d->ends, qbytes));

    int root = t->root, height = t->height;
    ptxemu_dim3 grid = {(unsigned)c->nqueries, 1, 1}, block = {ORDER, 1, 1};
    void *ak[] = {&d_keys, &d_vals, &d_rec, &root, &height, &d_q, &d_ans};
    BENCH_TRY(env, ptxemu_launch(env->mod, "findK", grid, block, 0, ak));
    void *ar[] = {&d_keys, &d_vals, &d_base, &root, &height, &d_lo, &d_hi, &d_rs, &d_rl};
    BENCH_TRY(env, ptxemu_launch(env->mod, "findRangeK", grid, block, 0, ar));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, ans, d_ans, qbytes));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, rs, d_rs, qbytes));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, rl, d_rl, qbytes));

    ptxemu_dptr all[] = {d_keys, d_vals, d_base, d_rec, d_q, d_ans, d_lo, d_hi, d_rs, d_rl};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

static bench_outcome bt_check(bench_env *env, const char *what, const int *got,
                              const int *ref, const bt_data *d, const bt_cfg *c)
{
    for (int q = 0; q < c->nqueries; q++)
        if (got[q] != ref[q]) {
            snprintf(env->msg, sizeof env->msg,
                     "%s[%d] (key %d, range [%d, %d]): got %d, expected %d", what, q,
                     d->queries[q], d->starts[q], d->ends[q], got[q], ref[q]);
            return BENCH_FAIL;
        }
    return BENCH_PASS;
}

static bench_outcome bt_run(bench_env *env)
{
    bt_cfg c = bt_config(env->size);
    uint64_t st = env->seed;
    bt_data d = {malloc((size_t)c.nkeys * sizeof(int)), malloc((size_t)c.nkeys * sizeof(int)),
                 malloc((size_t)c.nqueries * sizeof(int)), malloc((size_t)c.nqueries * sizeof(int)),
                 malloc((size_t)c.nqueries * sizeof(int))};
    int *res = malloc((size_t)c.nqueries * 6 * sizeof(int));
    bt_tree t = {0};
    bench_outcome out;
    if (!d.sorted || !d.records || !d.queries || !d.starts || !d.ends || !res) {
        snprintf(env->msg, sizeof env->msg, "b+tree: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    bt_generate(&d, &c, &st);
    if (!bt_build(&t, d.sorted, c.nkeys, &st)) {
        snprintf(env->msg, sizeof env->msg, "b+tree: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    int *ans = res, *rs = res + c.nqueries, *rl = res + 2 * c.nqueries;
    int *ref_ans = res + 3 * c.nqueries, *ref_rs = res + 4 * c.nqueries,
        *ref_rl = res + 5 * c.nqueries;
    out = bt_device(env, &t, &d, &c, ans, rs, rl);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    bt_reference(&d, &c, ref_ans, ref_rs, ref_rl);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref_rl[c.nqueries / 2] += 1;
    out = bt_check(env, "findK answer", ans, ref_ans, &d, &c);
    if (out == BENCH_PASS)
        out = bt_check(env, "findRangeK recstart", rs, ref_rs, &d, &c);
    if (out == BENCH_PASS)
        out = bt_check(env, "findRangeK reclength", rl, ref_rl, &d, &c);
done:
    free(d.sorted);
    free(d.records);
    free(d.queries);
    free(d.starts);
    free(d.ends);
    free(res);
    free(t.keys);
    free(t.vals);
    free(t.base);
    return out;
}

const bench_def bench_bptree = {
    "b+tree", "B+ tree built on the host; findK point and findRangeK range queries",
    "bptree/kernels.ptx", bt_run};
