/* tools/correlate_plot.c — `ptxemu correlate --plot DIR`: per metric a
 * scatter plot of ptxemu's value against the reference's, one point per
 * kernel launch, with the y = x line and r and MAPE in the title (the form
 * of Accel-Sim's correlator figures).  Counts and IPC on log-log axes
 * (they span orders of magnitude), hit rates on linear [0, 1] axes.  Each
 * figure's data (METRIC.csv) and gnuplot script (METRIC.gp) stay beside
 * its METRIC.svg. */
#include "tools/correlate.h"
#include "tools/correlate_stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* The reference's name for the axis: its `# reference:` up to the first comma. */
static char *ref_name(const corr_ref *ref)
{
    const char *r = corr_ref_meta(ref, "reference");
    if (!r || !*r)
        return g_strdup("reference");
    const char *comma = strchr(r, ',');
    return comma ? g_strndup(r, (gsize)(comma - r)) : g_strdup(r);
}

/* gnuplot single-quoted string: a quote is doubled. */
static void gp_quote(GString *s, const char *text)
{
    g_string_append_c(s, '\'');
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            g_string_append_c(s, '\'');
        g_string_append_c(s, *p);
    }
    g_string_append_c(s, '\'');
}

static bool run_gnuplot(const char *gnuplot, const char *dir, const char *script)
{
    const char *gargv[] = {gnuplot, script, NULL};
    char *errs = NULL;
    int st;
    GError *err = NULL;
    bool ok = g_spawn_sync(dir, (char **)gargv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                           NULL, &errs, &st, &err) &&
              g_spawn_check_wait_status(st, NULL);
    if (!ok)
        fprintf(stderr, "ptxemu correlate: gnuplot %s/%s failed: %s\n", dir, script,
                err ? err->message : errs);
    g_clear_error(&err);
    g_free(errs);
    return ok;
}

/* One metric's data file and script; false after a message. */
static bool write_figure(const char *dir, const char *refname, const char *ptx_label,
                         const corr_row *const *rows, unsigned n, int m)
{
    const corr_metric_info *mi = &corr_metrics[m];
    bool log_axes = mi->kind != CK_RATE;
    GString *data = g_string_new("# ref,ptxemu,half,benchmark,size,launch,kernel\n");
    double lo = INFINITY, hi = 0;
    unsigned hidden = 0;
    for (unsigned i = 0; i < n; i++) {
        const corr_row *r = rows[i];
        if (!r->has_ref[m] || !r->has_ptx[m])
            continue;
        g_string_append_printf(data, "%.17g,%.17g,%d,%s,%s,%u,%s\n", r->ref[m], r->ptx[m],
                               r->half, r->bench->name, corr_size_name(r->size), r->launch,
                               r->kernel);
        double v[2] = {r->ref[m], r->ptx[m]};
        if (log_axes && (v[0] <= 0 || v[1] <= 0)) {
            hidden++; /* no place on a log axis */
            continue;
        }
        for (int k = 0; k < 2; k++) {
            lo = MIN(lo, v[k]);
            hi = MAX(hi, v[k]);
        }
    }
    double *ptx = g_new(double, n ? n : 1), *ref = g_new(double, n ? n : 1);
    corr_summary s;
    corr_summarise(ptx, ref, corr_pairs(rows, n, m, ptx, ref), &s);
    g_free(ptx);
    g_free(ref);
    GString *gp = g_string_new(NULL);
    g_string_append_printf(gp, "set terminal svg size 640,600 dynamic noenhanced font 'sans,11'\n"
                               "set output '%s.svg'\nset datafile separator ','\n", mi->name);
    GString *title = g_string_new(mi->name);
    if (isnan(s.r))
        g_string_append(title, ": r = n/a");
    else
        g_string_append_printf(title, ": r = %.4f", s.r);
    if (isnan(s.mape))
        g_string_append(title, ", MAPE = n/a");
    else
        g_string_append_printf(title, ", MAPE = %.1f%%", s.mape);
    g_string_append_printf(title, ", N = %u", s.n);
    if (hidden)
        g_string_append_printf(title, " (%u at 0 not shown)", hidden);
    g_string_append(gp, "set title ");
    gp_quote(gp, title->str);
    g_string_free(title, TRUE);
    g_string_append(gp, "\nset xlabel ");
    char *xl = g_strdup_printf("%s (%s)", refname, mi->name);
    gp_quote(gp, xl);
    g_string_append(gp, "\nset ylabel ");
    char *yl = g_strdup_printf("ptxemu, %s (%s)", ptx_label, mi->name);
    gp_quote(gp, yl);
    g_string_append(gp, "\nset size square\nset grid\nset key top left\n");
    if (log_axes) {
        if (!(hi > 0)) /* nothing positive: any range will do */
            lo = 1, hi = 10;
        if (lo == hi)
            lo /= 2, hi *= 2;
        g_string_append_printf(gp, "set logscale xy\nset xrange [%.6g:%.6g]\nset yrange "
                                   "[%.6g:%.6g]\n", lo / 1.25, hi * 1.25, lo / 1.25, hi * 1.25);
    } else {
        g_string_append(gp, "set xrange [0:1]\nset yrange [0:1]\n");
    }
    /* log axes: points at 0 have no place (1/0 leaves a point out) */
    const char *keep = log_axes ? "$1 > 0 && $2 > 0 && " : "";
    g_string_append_printf(gp, "plot x with lines lc rgb '#888888' dt 2 title 'y = x', "
                               "'%s.csv' using 1:(%s$3 == 1 ? $2 : 1/0) with points pt 7 ps 0.8 "
                               "lc rgb '#1f77b4' title 'first half', "
                               "'%s.csv' using 1:(%s$3 == 2 ? $2 : 1/0) with points pt 5 ps 0.8 "
                               "lc rgb '#d62728' title 'second half'\n",
                    mi->name, keep, mi->name, keep);
    char *dp = g_strdup_printf("%s/%s.csv", dir, mi->name);
    char *sp = g_strdup_printf("%s/%s.gp", dir, mi->name);
    GError *err = NULL;
    bool ok = g_file_set_contents(dp, data->str, -1, &err) &&
              g_file_set_contents(sp, gp->str, -1, &err);
    if (!ok) {
        fprintf(stderr, "ptxemu correlate: %s\n", err->message);
        g_error_free(err);
    }
    g_free(dp);
    g_free(sp);
    g_free(xl);
    g_free(yl);
    g_string_free(gp, TRUE);
    g_string_free(data, TRUE);
    return ok;
}

int corr_plot(const char *dir, const corr_ref *ref, const char *ptx_label,
              const corr_row *const *rows, unsigned n, const int *metrics, unsigned nmetrics)
{
    char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot) {
        fprintf(stderr, "ptxemu correlate: --plot needs gnuplot, which is not installed (Debian: "
                        "apt-get install gnuplot-nox)\n");
        return 3;
    }
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        fprintf(stderr, "ptxemu correlate: cannot create %s: %s\n", dir, g_strerror(errno));
        g_free(gnuplot);
        return 1;
    }
    char *refname = ref_name(ref);
    int rc = 0;
    for (unsigned j = 0; j < nmetrics && rc == 0; j++) {
        const char *name = corr_metrics[metrics[j]].name;
        char *script = g_strdup_printf("%s.gp", name);
        if (!write_figure(dir, refname, ptx_label, rows, n, metrics[j]) ||
            !run_gnuplot(gnuplot, dir, script))
            rc = 1;
        else
            printf("%s/%s.svg\n", dir, name);
        g_free(script);
    }
    g_free(refname);
    g_free(gnuplot);
    return rc;
}
