/* tools/cmd_bench.c — `ptxemu bench list` and `ptxemu bench run NAME`:
 * runs a benchmark's host driver, checks it against its CPU reference and
 * prints PASS/FAIL with instruction counts and wall time. */
#include "benchmarks/bench.h"
#include "benchmarks/harness.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#define BENCH_MAX_RUN 100000000000ull /* warp instructions or cycles per launch */

int cmd_bench(int argc, char **argv)
{
    gchar *size_s = NULL;
    gint64 seed = 1;
    gboolean break_ref = FALSE;
    gchar *shard_s = NULL;
    timing_cli tc = {0};
    out_file trace = {0};
    GOptionEntry entries[] = {
        {"size", 0, 0, G_OPTION_ARG_STRING, &size_s, "tiny, small (default) or paper", "SIZE"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "input generator seed (default 1)", "N"},
        {"shard", 0, 0, G_OPTION_ARG_STRING, &shard_s,
         "with run all: only benchmarks whose registry index is I modulo N (split a run)", "I/N"},
        {"break-reference", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &break_ref,
         "perturb the CPU reference (shows the check can fail)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("list | run NAME... | run all");
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
        fprintf(stderr, "ptxemu bench: --size must be tiny, small or paper\n");
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
                rc |= bench_run_one_opts(b, size, (uint64_t)seed, break_ref, false, &opts);
            }
        }
    } else {
        fprintf(stderr, "usage: ptxemu bench list | ptxemu bench run NAME... [--size SIZE] "
                        "[--timing ...]\n");
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
