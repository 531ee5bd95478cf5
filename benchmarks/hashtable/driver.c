/* benchmarks/hashtable/driver.c — the spin seed's HashTable Benchmark:
 * random keys inserted into a chained hash table with one CAS lock per
 * bucket, chains kept sorted by (key, node) so the result is unique.
 *
 * Threads x keys: tiny 1,024 x 4 (4 CTAs of 256), small 8,192 x 4,
 * paper 163,840 x 2 (640 CTAs of 256: a TITAN V, the seed's Fig. 5 GPU, with
 * 2,048 threads on each of its 80 SMs; the seed gives no table size).
 * Buckets:
 *   hashtable            one bucket per thread (low contention, as the seed
 *                        classifies it)
 *   hashtable-contended  one bucket per 32 threads (Fig. 1 of the seed:
 *                        contention grows as buckets shrink)
 * The check is exact: walking every bucket's chain on the host gives the same
 * node sequence as the CPU's per-bucket sort, so per-bucket multisets of keys
 * match and no key is lost or duplicated; every lock is free again. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define HT_BLOCK 256u

static const unsigned *ht_sort_keys; /* qsort context (single-threaded) */

static int ht_cmp(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    unsigned ka = ht_sort_keys[a], kb = ht_sort_keys[b];
    if (ka != kb)
        return ka < kb ? -1 : 1;
    return (a > b) - (a < b);
}

static bench_outcome ht_run(bench_env *env, unsigned threads_per_bucket)
{
    unsigned nthreads, keys_per_thread;
    switch (env->size) {
    case BENCH_TINY: nthreads = 1024u; keys_per_thread = 4; break;
    case BENCH_SMALL: nthreads = 8192u; keys_per_thread = 4; break;
    default: nthreads = 163840u; keys_per_thread = 2; break;
    }
    unsigned nkeys = nthreads * keys_per_thread;
    unsigned nbuckets = nthreads / threads_per_bucket;

    unsigned *keys = malloc((size_t)nkeys * sizeof *keys);
    int *next = malloc((size_t)nkeys * sizeof *next);
    int *heads = malloc((size_t)nbuckets * sizeof *heads);
    int *locks = malloc((size_t)nbuckets * sizeof *locks);
    int *ref_order = malloc((size_t)nkeys * sizeof *ref_order);
    unsigned *ref_start = calloc((size_t)nbuckets + 1, sizeof *ref_start);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dkeys = 0, dnext = 0, dheads = 0, dlocks = 0;
    if (!keys || !next || !heads || !locks || !ref_order || !ref_start) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (unsigned i = 0; i < nkeys; i++)
        keys[i] = (unsigned)(bench_rng_next(&rng) >> 32);

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dkeys, (size_t)nkeys * sizeof(unsigned)));
    TRY(ptxemu_malloc(env->ctx, &dnext, (size_t)nkeys * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dheads, (size_t)nbuckets * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dlocks, (size_t)nbuckets * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dkeys, keys,
                           (size_t)nkeys * sizeof(unsigned)));
    /* next[] is written by every insert; heads start empty (-1). */
    TRY(ptxemu_memset(env->ctx, dheads, 0xff, (size_t)nbuckets * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dlocks, 0, (size_t)nbuckets * sizeof(int)));
    void *args[] = {&dkeys, &dnext, &dheads, &dlocks, &nkeys, &nbuckets};
    ptxemu_dim3 grid = {nthreads / HT_BLOCK, 1, 1};
    ptxemu_dim3 block = {HT_BLOCK, 1, 1};
    TRY(ptxemu_launch(env->mod, "hashtable_insert", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, next, dnext, (size_t)nkeys * sizeof(int)));
    TRY(ptxemu_memcpy_dtoh(env->ctx, heads, dheads,
                           (size_t)nbuckets * sizeof(int)));
    TRY(ptxemu_memcpy_dtoh(env->ctx, locks, dlocks,
                           (size_t)nbuckets * sizeof(int)));
#undef TRY

    /* Reference: counting sort of nodes by bucket, then each bucket sorted
     * by (key, node index). */
    double t0 = bench_now();
    for (unsigned i = 0; i < nkeys; i++)
        ref_start[keys[i] % nbuckets + 1]++;
    for (unsigned b = 0; b < nbuckets; b++)
        ref_start[b + 1] += ref_start[b];
    {
        unsigned *fill = malloc((size_t)nbuckets * sizeof *fill);
        if (!fill) {
            snprintf(env->msg, sizeof env->msg, "host allocation failed");
            goto done;
        }
        for (unsigned b = 0; b < nbuckets; b++)
            fill[b] = ref_start[b];
        for (unsigned i = 0; i < nkeys; i++)
            ref_order[fill[keys[i] % nbuckets]++] = (int)i;
        free(fill);
    }
    ht_sort_keys = keys;
    for (unsigned b = 0; b < nbuckets; b++)
        qsort(ref_order + ref_start[b], ref_start[b + 1] - ref_start[b],
              sizeof(int), ht_cmp);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference) {
        /* Move the last node of the first non-empty bucket into the next
         * bucket's expected chain: both expected sequences change. */
        for (unsigned b = 0; b + 1 < nbuckets; b++) {
            if (ref_start[b + 1] - ref_start[b] >= 1) {
                ref_start[b + 1]--;
                break;
            }
        }
    }

    out = BENCH_PASS;
    for (unsigned b = 0; b < nbuckets && out == BENCH_PASS; b++) {
        if (locks[b] != 0) {
            snprintf(env->msg, sizeof env->msg,
                     "lock[%u] = %d after the kernel, expected 0 (free)", b,
                     locks[b]);
            out = BENCH_FAIL;
            break;
        }
        int node = heads[b];
        unsigned pos = ref_start[b], steps = 0;
        for (;;) {
            int want = pos < ref_start[b + 1] ? ref_order[pos] : -1;
            if (node != want) {
                snprintf(env->msg, sizeof env->msg,
                         "bucket %u position %u: node %d (key %u), expected "
                         "node %d (key %u)",
                         b, pos - ref_start[b], node,
                         node >= 0 && (unsigned)node < nkeys ? keys[node] : 0u,
                         want, want >= 0 ? keys[want] : 0u);
                out = BENCH_FAIL;
                break;
            }
            if (node < 0)
                break;
            if ((unsigned)node >= nkeys || ++steps > nkeys) {
                snprintf(env->msg, sizeof env->msg,
                         "bucket %u: chain leaves the node pool or loops", b);
                out = BENCH_FAIL;
                break;
            }
            node = next[node];
            pos++;
        }
    }
done:
    if (dkeys) ptxemu_free(env->ctx, dkeys);
    if (dnext) ptxemu_free(env->ctx, dnext);
    if (dheads) ptxemu_free(env->ctx, dheads);
    if (dlocks) ptxemu_free(env->ctx, dlocks);
    free(keys);
    free(next);
    free(heads);
    free(locks);
    free(ref_order);
    free(ref_start);
    return out;
}

static bench_outcome ht_run_default(bench_env *env) { return ht_run(env, 1); }
static bench_outcome ht_run_contended(bench_env *env) { return ht_run(env, 32); }

const bench_def bench_hashtable = {
    "hashtable",
    "random keys into a chained hash table, CAS lock per bucket, one bucket per thread",
    "hashtable/kernels.ptx", ht_run_default};
const bench_def bench_hashtable_contended = {
    "hashtable-contended",
    "hashtable with one bucket per 32 threads (high lock contention)",
    "hashtable/kernels.ptx", ht_run_contended};
