/* tests/bench/test_stepping.c — event skipping must not change the timing
 * model's results.  The GPU loop normally jumps over cycles in which
 * nothing can happen and skips SMs that wait; with sim.step_every_cycle it
 * visits every SM every cycle.  Both must give the same statistics JSON,
 * byte for byte, and the same device memory.
 *
 * `test_stepping N` runs registry entry N at size tiny under every
 * registered warp policy and CTA placement policy (paired, the pairing
 * rotating with N), every admission filter and every backoff policy, each
 * once skipping and once stepping.  The
 * policy lists come from the registry (sched/policies.def), so a new
 * policy is covered without touching this file.  Further arguments
 * apply to every run: `group.key=value` overrides, and `preset=NAME` for a
 * preset of configs/ instead of the defaults. */
#include "benchmarks/harness.h"
#include "sched/sched.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statistics JSON and memory digest of one timed run; NULL after printing
 * why the run failed. */
static char *run_stats(const bench_def *b, const char *preset, const char *const *sets,
                       bool step, uint64_t *digest, char **failure)
{
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = preset;
    o.timing_set = sets;
    o.step_every_cycle = step;
    o.memory_digest = 1;
    ptxemu_ctx *ctx = NULL;
    char msg[512];
    bench_outcome out = bench_run_ctx(b, BENCH_TINY, 1, &o, &ctx, msg);
    char *json = NULL;
    if (out != BENCH_PASS) {
        printf("%s (%s): did not pass: %s %s\n", b->name, step ? "stepping" : "skipping", msg,
               ctx ? ptxemu_last_error(ctx) : "");
        *failure = g_strdup_printf("%s %s", msg, ctx ? ptxemu_last_error(ctx) : "");
    } else {
        const char *j = ptxemu_timing_stats_json(ctx);
        ptxemu_counters c;
        ptxemu_get_counters(ctx, &c);
        *digest = c.memory_digest;
        if (j && *j)
            json = g_strdup(j);
        else
            printf("%s: no statistics\n", b->name);
    }
    ptxemu_ctx_destroy(ctx);
    return json;
}

/* Prints the first line where a and b differ, with its line number. */
static void show_difference(const char *a, const char *b)
{
    gchar **la = g_strsplit(a, "\n", -1), **lb = g_strsplit(b, "\n", -1);
    for (guint i = 0; la[i] || lb[i]; i++) {
        if (la[i] && lb[i] && !strcmp(la[i], lb[i]))
            continue;
        printf("  first difference at line %u:\n    skipping: %s\n    stepping: %s\n", i + 1,
               la[i] ? la[i] : "(end)", lb[i] ? lb[i] : "(end)");
        break;
    }
    g_strfreev(la);
    g_strfreev(lb);
}

/* One configuration, skipping and stepping; true when both agree. */
static bool check(const bench_def *b, const char *const *policy, char **extra,
                  const char *label)
{
    GPtrArray *all = g_ptr_array_new();
    for (unsigned i = 0; policy[i]; i++)
        g_ptr_array_add(all, (gpointer)policy[i]);
    const char *preset = NULL;
    for (unsigned i = 0; extra[i]; i++) {
        if (g_str_has_prefix(extra[i], "preset="))
            preset = extra[i] + strlen("preset=");
        else
            g_ptr_array_add(all, extra[i]);
    }
    g_ptr_array_add(all, NULL);
    const char *const *sets = (const char *const *)all->pdata;
    uint64_t d0 = 0, d1 = 0;
    char *f0 = NULL, *f1 = NULL;
    char *skip = run_stats(b, preset, sets, false, &d0, &f0);
    char *step = run_stats(b, preset, sets, true, &d1, &f1);
    bool ok = skip && step && !strcmp(skip, step) && d0 == d1;
    /* a run that stops (a run limit, a livelock) must stop the same way in
     * both modes: that is equivalence too, and the policy's own problem */
    if (!skip && !step && f0 && f1) {
        ok = !strcmp(f0, f1);
        printf("%-24s %-28s %s\n", b->name, label,
               ok ? "same failure in both modes" : "DIFFERENT failures");
    } else if (!skip || !step) {
        printf("%-24s %-28s DIFFERENT: only one mode failed\n", b->name, label);
    }
    g_free(f0);
    g_free(f1);
    if (skip && step) {
        printf("%-24s %-28s %s\n", b->name, label, ok ? "same" : "DIFFERENT");
        if (strcmp(skip, step))
            show_difference(skip, step);
        else if (d0 != d1)
            printf("  device memory differs\n");
    }
    g_free(skip);
    g_free(step);
    g_ptr_array_free(all, TRUE);
    return ok;
}

int main(int argc, char **argv)
{
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    if (argc < 2)
        return 2;
    char **extra = argv + 2;
    unsigned i = (unsigned)strtoul(argv[1], NULL, 10);
    if (i >= n) {
        printf("no benchmark %u (registry has %u)\n", i, n);
        return 1;
    }
    const bench_def *b = all[i];
    /* the sanitizer build lists its slowest benchmarks here (tests/meson.build):
     * they are checked in the optimised build */
    const char *skip = g_getenv("PTXEMU_STEPPING_SKIP");
    if (skip) {
        gchar **names = g_strsplit(skip, ",", -1);
        bool listed = g_strv_contains((const gchar *const *)names, b->name);
        g_strfreev(names);
        if (listed) {
            printf("%s: skipped in this build (PTXEMU_STEPPING_SKIP)\n", b->name);
            return 77;
        }
    }
    /* The configurations of this benchmark: every warp policy and every CTA
     * placement policy once, paired so that the pairs rotate with the
     * registry index (over the registry, every warp x CTA pair occurs);
     * then every admission filter and every backoff policy once.  The full
     * cross product per benchmark costs 3x more and finds nothing that the
     * rotation does not: event skipping is per SM and per cycle, not per pair. */
    unsigned nw = g_strv_length((gchar **)sched_names_warp);
    unsigned nc = g_strv_length((gchar **)sched_names_cta);
    GPtrArray *cfgs = g_ptr_array_new_with_free_func(g_free); /* "set;set" */
    for (unsigned k = 0; k < MAX(nw, nc); k++)
        g_ptr_array_add(cfgs, g_strdup_printf("warp.policy=%s;cta.policy=%s",
                                              sched_names_warp[k % nw],
                                              sched_names_cta[(k + i) % nc]));
    for (unsigned f = 0; sched_names_filter[f]; f++)
        g_ptr_array_add(cfgs, g_strdup_printf("cta.filters=%s", sched_names_filter[f]));
    for (unsigned s = 1; sched_names_backoff[s]; s++)
        g_ptr_array_add(cfgs, g_strdup_printf("spin.policy=%s", sched_names_backoff[s]));
    /* PTXEMU_TEST_SAMPLE=N: every N-th configuration, starting at the
     * registry index modulo N, so the union over the registry still covers
     * every configuration.  PTXEMU_TEST_SAMPLE=one (the default test run):
     * one configuration, the registry index modulo their count -- every
     * benchmark still compares both modes, and as the registry has more
     * entries than there are configurations, every
     * configuration still runs somewhere; -Dfull_tests=true runs them all in
     * the optimised build (tests/meson.build). */
    unsigned every = 1, from = 0;
    const char *sample = g_getenv("PTXEMU_TEST_SAMPLE");
    if (sample && !strcmp(sample, "one"))
        every = cfgs->len;
    else if (!sample || sscanf(sample, "%u", &every) != 1 || every < 1)
        every = 1;
    from = i % every;
    bool ok = true;
    for (unsigned k = from; k < cfgs->len; k += every) {
        gchar **sets = g_strsplit(cfgs->pdata[k], ";", -1);
        char *label = g_strjoinv(", ", sets);
        ok &= check(b, (const char *const *)sets, extra, label);
        g_free(label);
        g_strfreev(sets);
    }
    g_ptr_array_free(cfgs, TRUE);
    return ok ? 0 : 1;
}
