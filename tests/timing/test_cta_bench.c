/* tests/timing/test_cta_bench.c — every benchmark (size tiny) under one
 * admission filter of issue 13 (cta.filters=claso, dyncta, perf-sat, onac or
 * seq-det, behind cta.policy=rr) on the c2050 preset: each run passes its
 * CPU reference, launches as many kernels as the functional run and leaves
 * device memory bit for bit as the functional run does (issue 13: "each
 * policy x each benchmark (tiny): memory equals the functional run").
 *
 * Unlike test_cluster_bench, the spin-seed lock microbenchmarks stay in:
 * under c2050's default warp scheduler (lrr) every one of them finishes
 * under every filter here (measured), and their checks demand exact totals,
 * so their final memory does not depend on the interleaving either.
 *
 *   test_cta_bench FILTER */
#include "benchmarks/harness.h"
#include "tests/support/test_shard.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* Runs b at size tiny in a fresh context from opts; its counters in *c; 0
 * when it passed. */
static int run(const bench_def *b, const ptxemu_options *opts, ptxemu_counters *c,
               const char *how)
{
    ptxemu_ctx *ctx = NULL;
    char msg[512];
    bench_outcome o = bench_run_ctx(b, BENCH_TINY, 1, opts, &ctx, msg);
    memset(c, 0, sizeof *c);
    if (ctx)
        ptxemu_get_counters(ctx, c);
    ptxemu_ctx_destroy(ctx);
    if (o != BENCH_PASS) {
        printf("FAIL %s (%s): %s\n", b->name, how, msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        printf("usage: test_cta_bench FILTER\n");
        return 1;
    }
    char *filt = g_strdup_printf("cta.filters=%s", argv[1]);
    const char *const sets[] = {filt, NULL};
    char how[96];
    snprintf(how, sizeof how, "c2050, %s", filt);
    unsigned n, bad = 0, ran = 0;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        if (!test_in_sample(i))
            continue;
        ran++;
        ptxemu_options f = {0};
        f.memory_digest = 1;
        ptxemu_counters want, got;
        if (run(b, &f, &want, "functional")) {
            bad++;
            continue;
        }
        ptxemu_options o = {0};
        o.memory_digest = 1;
        o.timing = 1;
        o.timing_config = "c2050";
        o.timing_set = sets;
        if (run(b, &o, &got, how)) {
            bad++;
        } else if (got.cycles == 0) {
            printf("FAIL %s (%s): no cycles, the run was not timed\n", b->name, how);
            bad++;
        } else if (got.memory_digest != want.memory_digest) {
            printf("FAIL %s (%s): device memory differs from the functional run\n", b->name,
                   how);
            bad++;
        } else if (got.launches != want.launches) {
            printf("FAIL %s (%s): %llu launches, functional %llu\n", b->name, how,
                   (unsigned long long)got.launches, (unsigned long long)want.launches);
            bad++;
        } else {
            printf("ok   %s (%s)\n", b->name, how);
        }
    }
    printf("%u of %u benchmarks under %s: %u failures\n", ran, n, how, bad);
    g_free(filt);
    /* an empty selection must not pass, nor an unknown filter name (the
     * first run then fails to create its context) */
    return bad != 0 || (ran == 0 && !g_getenv("PTXEMU_TEST_SAMPLE"));
}
