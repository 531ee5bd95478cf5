/* tests/timing/test_cluster_bench.c — every benchmark (size tiny) under one
 * clustered CTA policy on the icc60 preset with one intra-cluster
 * coalescing mode (off, icc, icc-cc): each run passes its CPU reference and
 * leaves device memory bit for bit as the functional run does (ICC seed
 * issue: "memory equals the functional run").  tests/meson.build pairs the
 * six policies with the three modes so that every policy and every mode
 * runs every benchmark (all 18 pairs would cost three times as long under
 * the sanitizers for no extra path: placement and coalescing are
 * independent of each other).
 *
 * The spin-seed lock microbenchmarks (global-increment*, hashtable*,
 * transactions*) are left out: how long their try-lock loops retry depends
 * on the interleaving, and some deterministic interleavings never end
 * (transactions-2k under bcs + GTO: GTO never again issues the young warp
 * that holds a lock, because older warps spinning on it take every slot,
 * until limits.max_cycles stops it; with warp.policy=lrr it finishes;
 * measured in docs/experiments/spin-backoff.md).  That is the starvation
 * the spin-detection seed's backoff exists for, not a placement error;
 * test_timing's memory test runs them on m2090.
 *
 *   test_cluster_bench POLICY MODE */
#include "benchmarks/harness.h"
#include "tests/support/test_shard.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* Runs b at size tiny in a fresh context from opts; the memory digest in
 * *digest; 0 when it passed. */
static int run(const bench_def *b, const ptxemu_options *opts, uint64_t *digest,
               const char *how)
{
    ptxemu_ctx *ctx = NULL;
    char msg[512];
    bench_outcome o = bench_run_ctx(b, BENCH_TINY, 1, opts, &ctx, msg);
    ptxemu_counters c = {0};
    if (ctx)
        ptxemu_get_counters(ctx, &c);
    ptxemu_ctx_destroy(ctx);
    *digest = c.memory_digest;
    if (o != BENCH_PASS) {
        printf("%s (%s): %s\n", b->name, how, msg);
        return 1;
    }
    return 0;
}

static bool spins_on_locks(const bench_def *b)
{
    return g_str_has_prefix(b->name, "global-increment") ||
           g_str_has_prefix(b->name, "hashtable") || g_str_has_prefix(b->name, "transactions");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        printf("usage: test_cluster_bench POLICY MODE\n");
        return 1;
    }
    char *pol = g_strdup_printf("cta.policy=%s", argv[1]);
    char *mode = g_strdup_printf("icc.mode=%s", argv[2]);
    const char *const modes[] = {mode};
    unsigned n, bad = 0;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        if (spins_on_locks(b) || !test_in_sample(i))
            continue;
        ptxemu_options f = {0};
        f.memory_digest = 1;
        uint64_t want;
        if (run(b, &f, &want, "functional")) {
            bad++;
            continue;
        }
        for (unsigned m = 0; m < G_N_ELEMENTS(modes); m++) {
            const char *const sets[] = {pol, modes[m], NULL};
            ptxemu_options o = {0};
            o.memory_digest = 1;
            o.timing = 1;
            o.timing_config = "icc60";
            o.timing_set = sets;
            uint64_t got;
            char how[96];
            snprintf(how, sizeof how, "icc60, %s, %s", argv[1], modes[m]);
            if (run(b, &o, &got, how)) {
                bad++;
            } else if (got != want) {
                printf("%s (%s): device memory differs from the functional run\n", b->name,
                       how);
                bad++;
            }
        }
    }
    printf("%u benchmarks under %s, %s: %u failures\n", n, argv[1], mode, bad);
    g_free(pol);
    g_free(mode);
    return bad != 0;
}
