/* tools/cmd_bench.c — `ptxemu bench list`, `ptxemu bench run NAME` and
 * `ptxemu bench pair A B`: runs benchmark host drivers (two concurrently,
 * each in its own stream, for `pair`), checks each against its CPU
 * reference and prints PASS/FAIL with instruction counts and wall time. */
#include "api/api_internal.h"
#include "benchmarks/bench.h"
#include "benchmarks/harness.h"
#include "timing/stats.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#define BENCH_MAX_RUN 100000000000ull /* warp instructions or cycles per launch */

/* `bench pair A B`: both answers, then under timing each kernel's cycles
 * (first and last cycle, in launch order) and the pair's busy cycles. */
static int bench_pair(const char *na, const char *nb, bench_size size, uint64_t seed,
                      const ptxemu_options *opts)
{
    const bench_def *defs[2] = {bench_find(na), bench_find(nb)};
    for (int i = 0; i < 2; i++)
        if (!defs[i]) {
            fprintf(stderr, "ptxemu bench: no benchmark named '%s' (see 'ptxemu bench "
                            "list')\n", i ? nb : na);
            return 2;
        }
    ptxemu_ctx *ctx;
    bench_outcome out[2];
    char msg[2][512];
    double t0 = bench_now();
    bool set_up = bench_run_pair_ctx(defs, size, seed, opts, &ctx, out, msg);
    double secs = bench_now() - t0;
    int rc = 0;
    if (!set_up) {
        fprintf(stderr, "ptxemu bench pair: %s\n", msg[0][0] ? msg[0] : msg[1]);
        ptxemu_ctx_destroy(ctx);
        return 1;
    }
    for (int i = 0; i < 2; i++) {
        const char *word = out[i] == BENCH_PASS ? "PASS" : out[i] == BENCH_FAIL ? "FAIL" : "ERROR";
        printf("%-28s %s\n", defs[i]->name, word);
        if (out[i] != BENCH_PASS) {
            printf("    %s\n", msg[i]);
            rc = 1;
        }
    }
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    printf("pair: %llu launches, %llu warp-instrs, %.3f s\n", (unsigned long long)c.launches,
           (unsigned long long)c.warp_instructions, secs);
    const tm_stats *st = ptxemu_timing_stats(ctx);
    if (st && rc == 0) {
        for (guint i = 0; i < st->kernels->len; i++) {
            const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
            printf("  kernel %u %-24s cycles %llu..%llu: %llu\n", k->launch, k->name,
                   (unsigned long long)k->start, (unsigned long long)k->end,
                   (unsigned long long)tm_kernel_cycles(k));
        }
        tm_run_totals t;
        tm_stats_totals(st, &t);
        printf("pair cycles: %llu\n", (unsigned long long)t.cycles);
        ptxemu_print_timing_summary(ctx, stdout);
    }
    fflush(stdout);
    ptxemu_ctx_destroy(ctx);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    gchar *size_s = NULL;
    gint64 seed = 1;
    gboolean break_ref = FALSE, perf = FALSE;
    gchar *shard_s = NULL;
    timing_cli tc = {0};
    out_file trace = {0};
    GOptionEntry entries[] = {
        {"size", 0, 0, G_OPTION_ARG_STRING, &size_s, "tiny, small (default), paper, claso (CLASO Table 2 inputs) or thesis (thesis ch. 4 inputs); the last two on some benchmarks", "SIZE"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "input generator seed (default 1)", "N"},
        {"shard", 0, 0, G_OPTION_ARG_STRING, &shard_s,
         "with run all: only benchmarks whose registry index is I modulo N (split a run)", "I/N"},
        {"perf", 0, 0, G_OPTION_ARG_NONE, &perf,
         "print one machine-readable PERF line per benchmark (scripts/perf.sh)", NULL},
        {"break-reference", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &break_ref,
         "perturb the CPU reference (shows the check can fail)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("list | run NAME... | run all | pair A B");
    g_option_context_set_summary(oc, "Run the project's benchmarks and check their answers.");
    g_option_context_add_main_entries(oc, entries, NULL);
    timing_cli_add_group(oc, &tc);
    GError *err = NULL;
    int rc = 2;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu bench: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    bench_size size = BENCH_SMALL;
    if (size_s && !bench_parse_size(size_s, &size)) {
        fprintf(stderr, "ptxemu bench: --size must be tiny, small, paper, claso or thesis\n");
        goto out;
    }
    unsigned shard = 0, nshards = 1;
    if (shard_s && (sscanf(shard_s, "%u/%u", &shard, &nshards) != 2 || nshards == 0 ||
                    shard >= nshards)) {
        fprintf(stderr, "ptxemu bench: --shard wants I/N with I < N, got '%s'\n", shard_s);
        goto out;
    }
    ptxemu_options opts = {0};
    if (!timing_cli_options(&tc, &opts, &trace, "ptxemu bench"))
        goto out;
    /* The benchmarks are known to finish: the hang-stopping default limits
     * (a few seconds) would cut their paper sizes short.  Explicit options
     * and limits.* overrides still apply. */
    bool set_limits = false;
    for (unsigned i = 0; tc.sets && tc.sets[i]; i++)
        set_limits |= g_str_has_prefix(tc.sets[i], "limits.max_");
    if (!set_limits && !opts.max_warp_instructions)
        opts.max_warp_instructions = BENCH_MAX_RUN;
    if (!set_limits && !opts.max_cycles)
        opts.max_cycles = BENCH_MAX_RUN;
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    if (argc >= 2 && !strcmp(argv[1], "list")) {
        for (unsigned i = 0; i < n; i++)
            printf("%-28s %s\n", all[i]->name, all[i]->summary);
        rc = 0;
    } else if (argc >= 3 && !strcmp(argv[1], "run")) {
        rc = 0;
        if (argc == 3 && !strcmp(argv[2], "all")) {
            for (unsigned i = shard; i < n; i += nshards)
                rc |= bench_run_one_opts(all[i], size, (uint64_t)seed, break_ref, true, &opts);
        } else {
            for (int i = 2; i < argc; i++) {
                const bench_def *b = bench_find(argv[i]);
                if (!b) {
                    fprintf(stderr, "ptxemu bench: no benchmark named '%s' (see 'ptxemu bench "
                                    "list')\n", argv[i]);
                    rc = 2;
                    continue;
                }
                rc |= perf ? bench_perf_one(b, size, (uint64_t)seed, &opts)
                           : bench_run_one_opts(b, size, (uint64_t)seed, break_ref, false, &opts);
            }
        }
    } else if (argc == 4 && !strcmp(argv[1], "pair")) {
        rc = bench_pair(argv[2], argv[3], size, (uint64_t)seed, &opts);
    } else {
        fprintf(stderr, "usage: ptxemu bench list | ptxemu bench run NAME... | ptxemu bench "
                        "pair A B [--size SIZE] [--timing ...]\n");
    }
    if (!timing_cli_close_trace(&trace, rc == 0, "ptxemu bench") && rc == 0)
        rc = 1;
out:
    timing_cli_close_trace(&trace, false, "ptxemu bench");
    timing_cli_free(&tc);
    g_free(size_s);
    g_free(shard_s);
    g_option_context_free(oc);
    return rc;
}
