/* tests/timing/test_cluster_bench.c — every benchmark (size tiny) under one
 * clustered CTA policy on the icc60 preset, with intra-cluster coalescing
 * off and with the merge table plus coalesced cache (icc-cc): each run
 * passes its CPU reference and leaves device memory bit for bit as the
 * functional run does (ICC seed issue: "memory equals the functional run").
 *
 *   test_cluster_bench POLICY */
#include "benchmarks/harness.h"
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

int main(int argc, char **argv)
{
    if (argc != 2) {
        printf("usage: test_cluster_bench POLICY\n");
        return 1;
    }
    char *pol = g_strdup_printf("cta.policy=%s", argv[1]);
    const char *const modes[] = {"icc.mode=off", "icc.mode=icc-cc"};
    unsigned n, bad = 0;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        ptxemu_options f = {0};
        f.memory_digest = 1;
        uint64_t want;
        if (run(b, &f, &want, "functional")) {
            bad++;
            continue;
        }
        for (unsigned m = 0; m < 2; m++) {
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
    printf("%u benchmarks x 2 ICC modes under %s: %u failures\n", n, argv[1], bad);
    g_free(pol);
    return bad != 0;
}
