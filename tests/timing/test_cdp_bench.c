/* tests/timing/test_cdp_bench.c — every dynamic-parallelism benchmark
 * (registry_cdp.inc, size tiny) under one TB policy on the k20c preset (the
 * LaPerm seed's Table I), in both launch modes (cdp.mode=cdp: a device
 * launch is a kernel of its own; dtbl: its TBs join the launching kernel's
 * pool): each run passes its CPU reference and leaves device memory bit for
 * bit as the functional run does (issue 16: "memory equals the functional
 * run").  The benchmarks are written so that memory after every host launch
 * does not depend on the schedule (see each kernels.cu).
 *
 *   test_cdp_bench POLICY [BENCHMARK SIZE]
 *
 * With BENCHMARK and SIZE only that benchmark runs, at that size: deep
 * launch trees that only larger inputs make (cdp-bht small: 358 kernels,
 * once more CDP parents waiting for their children than the kernel view
 * holds) must still finish. */
#include "benchmarks/harness.h"
#include "tests/support/test_shard.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* Runs b at `size` in a fresh context from opts; the memory digest in
 * *digest; 0 when it passed. */
static int run(const bench_def *b, bench_size size, const ptxemu_options *opts,
               uint64_t *digest, const char *how)
{
    ptxemu_ctx *ctx = NULL;
    char msg[512];
    bench_outcome o = bench_run_ctx(b, size, 1, opts, &ctx, msg);
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
    bench_size size = BENCH_TINY;
    const char *only = argc == 4 ? argv[2] : NULL;
    if ((argc != 2 && argc != 4) || (only && !bench_parse_size(argv[3], &size))) {
        printf("usage: test_cdp_bench POLICY [BENCHMARK SIZE]\n");
        return 1;
    }
    static const char *const modes[] = {"cdp", "dtbl"};
    char *pol = g_strdup_printf("cta.policy=%s", argv[1]);
    unsigned n, bad = 0, ran = 0;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        if (only ? strcmp(b->name, only) != 0
                 : !g_str_has_prefix(b->name, "cdp-") || !test_in_sample(i))
            continue;
        ran++;
        ptxemu_options f = {0};
        f.memory_digest = 1;
        uint64_t want;
        if (run(b, size, &f, &want, "functional")) {
            bad++;
            continue;
        }
        for (unsigned m = 0; m < G_N_ELEMENTS(modes); m++) {
            char *mode = g_strdup_printf("cdp.mode=%s", modes[m]);
            const char *const sets[] = {pol, mode, NULL};
            ptxemu_options o = {0};
            o.memory_digest = 1;
            o.timing = 1;
            o.timing_config = "k20c";
            o.timing_set = sets;
            uint64_t got;
            char how[96];
            snprintf(how, sizeof how, "k20c, %s, %s", argv[1], mode);
            if (run(b, size, &o, &got, how)) {
                bad++;
            } else if (got != want) {
                printf("%s (%s): device memory differs from the functional run\n", b->name,
                       how);
                bad++;
            } else {
                printf("%s (%s): ok\n", b->name, how);
            }
            g_free(mode);
        }
    }
    printf("%u CDP benchmarks under %s in cdp and dtbl modes: %u failures\n", ran, argv[1],
           bad);
    g_free(pol);
    /* an empty selection must not pass: the registry lost its CDP entries */
    return bad != 0 || (ran == 0 && (only || !g_getenv("PTXEMU_TEST_SAMPLE")));
}
