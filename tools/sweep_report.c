/* tools/sweep_report.c — the Markdown page scripts/experiments.sh commits
 * under docs/experiments/: how to reproduce it, the per-benchmark table of
 * the summary metrics with speedups against the baseline and a geomean
 * row, the plots, the functional-speed table, failed jobs, and the
 * comparison with the paper's figure. */
#include "tools/sweep.h"

#include <math.h>
#include <string.h>

/* Words every variant shares ("gtx480", "cta.policy=rr") say nothing in a
 * column header; keep the rest. */
static char *short_label(const sweep_spec *s, const char *label)
{
    char **w = g_strsplit(label, " ", -1);
    GString *o = g_string_new(NULL);
    for (unsigned i = 0; w[i]; i++) {
        bool common = s->variants->len > 1;
        for (guint v = 0; v < s->variants->len && common; v++) {
            char **vw = g_strsplit(g_ptr_array_index(s->variants, v), " ", -1);
            common = g_strv_contains((const char *const *)vw, w[i]);
            g_strfreev(vw);
        }
        if (!common)
            g_string_append_printf(o, "%s%s", o->len ? " " : "", w[i]);
    }
    g_strfreev(w);
    if (!o->len)
        g_string_append(o, label);
    return g_string_free(o, FALSE);
}

static void cell(GString *o, double v, const char *fmt)
{
    if (isnan(v))
        g_string_append(o, " – |");
    else {
        g_string_append_c(o, ' ');
        g_string_append_printf(o, fmt, v);
        g_string_append(o, " |");
    }
}

static void timing_table(const sweep_spec *s, sweep_record **recs, GString *o)
{
    unsigned nv = s->variants->len, nm = g_strv_length(s->metrics);
    const char *base = s->baseline ? s->baseline : g_ptr_array_index(s->variants, 0);
    char *bshort = short_label(s, base);
    g_string_append_printf(o, "Speedup is %s cycles / cycles (higher is better).\n\n| benchmark |",
                           bshort);
    GString *rule = g_string_new("|---|");
    for (unsigned m = 0; m < nm; m++)
        for (unsigned v = 0; v < nv; v++) {
            char *sl = short_label(s, g_ptr_array_index(s->variants, v));
            g_string_append_printf(o, " %s %s |", m == 0 && 0 ? "" : s->metrics[m], sl);
            g_string_append(rule, "---:|");
            g_free(sl);
        }
    for (unsigned v = 0; v < nv; v++) {
        if (!strcmp(g_ptr_array_index(s->variants, v), base))
            continue;
        char *sl = short_label(s, g_ptr_array_index(s->variants, v));
        g_string_append_printf(o, " speedup %s |", sl);
        g_string_append(rule, "---:|");
        g_free(sl);
    }
    g_string_append_printf(o, "\n%s\n", rule->str);
    g_string_free(rule, TRUE);
    double *lsum = g_new0(double, nv);
    unsigned *lcnt = g_new0(unsigned, nv);
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        char *key = g_strdup_printf("%s %s", j->bench->name, j->size);
        if (j->mode != SWEEP_TIMING || g_hash_table_contains(seen, key)) {
            g_free(key);
            continue;
        }
        g_hash_table_add(seen, key);
        g_string_append_printf(o, "| %s |", j->bench->name);
        for (unsigned m = 0; m < nm; m++)
            for (unsigned v = 0; v < nv; v++) {
                double x;
                sweep_cell_mean(s, recs, j->bench, j->size, g_ptr_array_index(s->variants, v),
                                s->metrics[m], &x);
                cell(o, x, strstr(s->metrics[m], "cycles") ? "%.0f" : "%.3f");
            }
        double b;
        sweep_cell_mean(s, recs, j->bench, j->size, base, "total.cycles", &b);
        for (unsigned v = 0; v < nv; v++) {
            if (!strcmp(g_ptr_array_index(s->variants, v), base))
                continue;
            double x;
            sweep_cell_mean(s, recs, j->bench, j->size, g_ptr_array_index(s->variants, v),
                            "total.cycles", &x);
            double sp = x > 0 && b > 0 ? b / x : NAN;
            cell(o, sp, "%.3f");
            if (!isnan(sp)) {
                lsum[v] += log(sp);
                lcnt[v]++;
            }
        }
        g_string_append_c(o, '\n');
    }
    g_string_append(o, "| **geomean** |");
    for (unsigned k = 0; k < nm * nv; k++)
        g_string_append(o, " |");
    for (unsigned v = 0; v < nv; v++)
        if (strcmp(g_ptr_array_index(s->variants, v), base))
            cell(o, lcnt[v] ? exp(lsum[v] / lcnt[v]) : NAN, "**%.3f**");
    g_string_append(o, "\n\n");
    g_hash_table_destroy(seen);
    g_free(lsum);
    g_free(lcnt);
    g_free(bshort);
}

static double value(const sweep_record *r, const char *key)
{
    const char *v = r ? g_hash_table_lookup(r->values, key) : NULL;
    return v ? g_ascii_strtod(v, NULL) : NAN;
}

static void speed_table(const sweep_spec *s, sweep_record **recs, GString *o)
{
    g_string_append(o, "## Functional speed\n\nOne functional run per benchmark (no timing "
                       "model).  Emulation time is the host driver's wall time less its CPU "
                       "reference; the ratio is emulation time / CPU reference time.  Jobs run in "
                       "parallel (see the command above), so these speeds were measured on a "
                       "loaded machine.\n\n"
                       "| benchmark | thread-instructions | emulation s | M thread-instr/s | "
                       "CPU reference s | ratio |\n|---|---:|---:|---:|---:|---:|\n");
    for (guint i = 0; i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        const sweep_record *r = recs[i];
        if (j->mode != SWEEP_FUNCTIONAL || j->rep != 1)
            continue;
        g_string_append_printf(o, "| %s |", j->bench->name);
        if (!r || !r->ok) {
            g_string_append_printf(o, " %s | | | | |\n", r ? "failed" : "not run");
            continue;
        }
        double drv = value(r, "driver_seconds"), ref = value(r, "reference_seconds");
        double emu = drv - ref;
        cell(o, value(r, "thread_instructions"), "%.0f");
        cell(o, emu, "%.3f");
        cell(o, value(r, "thread_instructions_per_s") / 1e6, "%.1f");
        cell(o, ref, "%.4f");
        cell(o, ref > 0 ? emu / ref : NAN, "%.0f×");
        g_string_append_c(o, '\n');
    }
    g_string_append_c(o, '\n');
}

/* Whether the variant label holds every word of `want` (as the baseline:
 * "cta.filters=none core.max_ctas=8" picks that one variant). */
static bool has_words(const char *label, const char *want)
{
    char **w = g_strsplit(label, " ", -1), **need = g_strsplit_set(want, " \t", -1);
    bool all = true;
    for (unsigned i = 0; need[i] && all; i++)
        all = !*need[i] || g_strv_contains((const char *const *)w, need[i]);
    g_strfreev(w);
    g_strfreev(need);
    return all;
}

/* "A > B: bench, bench; ..." — the paper says variant A beats B (fewer
 * cycles) on those benchmarks; compare with what was measured here. */
static void expect_table(const sweep_spec *s, sweep_record **recs, GString *o)
{
    char **claims = g_strsplit(s->expect, ";", -1);
    unsigned agree = 0, total = 0;
    g_string_append(o, "| benchmark | paper: faster | here: speedup of that over the other | "
                       "agrees |\n|---|---|---:|---|\n");
    for (unsigned c = 0; claims[c]; c++) {
        char *colon = strchr(claims[c], ':'), *gt = strchr(claims[c], '>');
        if (!colon || !gt || gt > colon)
            continue;
        char *a = g_strstrip(g_strndup(claims[c], (gsize)(gt - claims[c])));
        char *b = g_strstrip(g_strndup(gt + 1, (gsize)(colon - gt - 1)));
        const char *va = NULL, *vb = NULL;
        for (guint v = 0; v < s->variants->len; v++) {
            const char *label = g_ptr_array_index(s->variants, v);
            if (has_words(label, a))
                va = va ? va : label;
            if (has_words(label, b))
                vb = vb ? vb : label;
        }
        char **benches = g_strsplit(colon + 1, ",", -1);
        for (unsigned k = 0; benches[k] && va && vb; k++) {
            const bench_def *bd = bench_find(g_strstrip(benches[k]));
            if (!bd)
                continue;
            double xa = NAN, xb = NAN;
            for (guint i = 0; i < s->jobs->len && isnan(xa); i++) {
                const sweep_job *j = g_ptr_array_index(s->jobs, i);
                if (j->bench == bd && j->mode == SWEEP_TIMING) {
                    sweep_cell_mean(s, recs, bd, j->size, va, "total.cycles", &xa);
                    sweep_cell_mean(s, recs, bd, j->size, vb, "total.cycles", &xb);
                }
            }
            double sp = xa > 0 && xb > 0 ? xb / xa : NAN;
            bool yes = !isnan(sp) && sp > 1.0;
            total += !isnan(sp);
            agree += yes;
            g_string_append_printf(o, "| %s | %s |", bd->name, a);
            cell(o, sp, "%.3f");
            g_string_append_printf(o, " %s |\n", isnan(sp) ? "–" : yes ? "yes" : "**no**");
        }
        g_strfreev(benches);
        g_free(a);
        g_free(b);
    }
    g_string_append_printf(o, "\nThe direction agrees on %u of %u benchmarks.\n", agree, total);
    g_strfreev(claims);
}

bool sweep_write_report(const sweep_spec *s, const char *dir, const char *md_path,
                        const char *plot_dir, const char *command, GError **error)
{
    guint n = s->jobs->len;
    sweep_record **recs = g_new0(sweep_record *, n);
    unsigned ok = 0, failed = 0, functional = 0;
    for (guint i = 0; i < n; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        recs[i] = sweep_record_load(dir, j);
        ok += recs[i] && recs[i]->ok;
        failed += recs[i] && !recs[i]->ok;
        functional += j->mode == SWEEP_FUNCTIONAL;
    }
    /* the versions that produced these records, not the one reading them */
    GString *vers = g_string_new(NULL);
    for (guint i = 0; i < n; i++) {
        const char *v = recs[i] && recs[i]->version ? recs[i]->version : NULL;
        if (v && !strstr(vers->str, v))
            g_string_append_printf(vers, "%s`%s`", vers->len ? ", " : "", v);
    }
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "# Experiment: %s\n\n", s->name);
    if (s->description)
        g_string_append_printf(o, "%s\n\n", s->description);
    char *exp_base = g_path_get_basename(s->path);
    g_string_append_printf(o, "Regenerate with `scripts/experiments.sh %s` (runs `%s`, then "
                              "`ptxemu plot`).  Experiment file: `experiments/%s`.  "
                              "ptxemu version: %s.  %u jobs: %u ok, %u failed, %u not run.\n\n",
                           s->name, command ? command : "ptxemu sweep", exp_base,
                           vers->len ? vers->str : "(no results yet)", n, ok, failed,
                           n - ok - failed);
    g_string_free(vers, TRUE);
    g_free(exp_base);
    if (s->variants->len) {
        g_string_append(o, "## Timing results\n\n");
        timing_table(s, recs, o);
        g_string_append_printf(o, "![speedup per benchmark](%s/bars.svg)\n\n"
                                  "![metric against the swept key](%s/line.svg)\n\n"
                                  "![warp states](%s/states.svg)\n\n", plot_dir, plot_dir,
                               plot_dir);
    }
    if (functional)
        speed_table(s, recs, o);
    if (failed) {
        g_string_append(o, "## Failed jobs\n\n");
        for (guint i = 0; i < n; i++)
            if (recs[i] && !recs[i]->ok) {
                char *cmd = sweep_job_command(g_ptr_array_index(s->jobs, i));
                g_string_append_printf(o, "- `%s`: %s\n", cmd, recs[i]->reason);
                g_free(cmd);
            }
        g_string_append_c(o, '\n');
    }
    if (s->paper || s->expect) {
        g_string_append_printf(o, "## Comparison with the paper\n\n%s\n\n", s->paper ? s->paper : "");
        if (s->expect)
            expect_table(s, recs, o);
    }
    bool w = g_file_set_contents(md_path, o->str, (gssize)o->len, error);
    g_string_free(o, TRUE);
    for (guint i = 0; i < n; i++)
        sweep_record_free(recs[i]);
    g_free(recs);
    return w;
}
