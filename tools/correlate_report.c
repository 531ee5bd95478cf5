/* tools/correlate_report.c — what `ptxemu correlate` prints and writes: the
 * per-launch table (both values and the relative error per metric), the
 * per-metric summaries (N, Pearson r, MAPE, geometric-mean ratio) and the
 * joined table as CSV (--csv). */
#include "timing/outfile.h"
#include "tools/correlate.h"
#include "tools/correlate_stats.h"

#include <math.h>
#include <string.h>

unsigned corr_pairs(const corr_row *const *rows, unsigned n, int metric, double *ptx,
                    double *ref)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (rows[i]->has_ref[metric] && rows[i]->has_ptx[metric]) {
            ptx[k] = rows[i]->ptx[metric];
            ref[k] = rows[i]->ref[metric];
            k++;
        }
    return k;
}

/* A value as the table shows it (counts rounded: a clock-converted cycle
 * count has a fraction). */
static void fmt_value(char *buf, size_t len, int metric, bool has, double v)
{
    if (!has)
        snprintf(buf, len, "-");
    else if (corr_metrics[metric].kind == CK_COUNT)
        snprintf(buf, len, "%.0f", v);
    else if (corr_metrics[metric].kind == CK_RATE)
        snprintf(buf, len, "%.4f", v);
    else
        snprintf(buf, len, "%.3f", v);
}

/* (ptx - ref) / ref in percent; "-" when a value is missing, "n/a" at ref 0. */
static void fmt_error(char *buf, size_t len, const corr_row *r, int metric)
{
    if (!r->has_ref[metric] || !r->has_ptx[metric])
        snprintf(buf, len, "-");
    else if (r->ref[metric] == 0)
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%+.1f%%", 100.0 * (r->ptx[metric] - r->ref[metric]) / r->ref[metric]);
}

void corr_print_launches(FILE *out, const corr_row *const *rows, unsigned n, const int *metrics,
                         unsigned nm)
{
    int kw = 6, bw = 9;
    for (unsigned i = 0; i < n; i++) {
        kw = MAX(kw, (int)strlen(rows[i]->kernel));
        bw = MAX(bw, (int)strlen(rows[i]->bench->name));
    }
    fprintf(out, "%-4s %-*s %-5s %6s %-*s", "half", bw, "benchmark", "size", "launch", kw,
            "kernel");
    for (unsigned j = 0; j < nm; j++) {
        const char *name = corr_metrics[metrics[j]].name;
        char h[3][64];
        snprintf(h[0], sizeof h[0], "%s.ref", name);
        snprintf(h[1], sizeof h[1], "%s.ptx", name);
        snprintf(h[2], sizeof h[2], "%s.err", name);
        fprintf(out, "  %12s %12s %10s", h[0], h[1], h[2]);
    }
    fputc('\n', out);
    for (unsigned i = 0; i < n; i++) {
        const corr_row *r = rows[i];
        fprintf(out, "%-4d %-*s %-5s %6u %-*s", r->half, bw, r->bench->name,
                corr_size_name(r->size), r->launch, kw, r->kernel);
        for (unsigned j = 0; j < nm; j++) {
            int m = metrics[j];
            char a[48], b[48], e[48];
            fmt_value(a, sizeof a, m, r->has_ref[m], r->ref[m]);
            fmt_value(b, sizeof b, m, r->has_ptx[m], r->ptx[m]);
            fmt_error(e, sizeof e, r, m);
            fprintf(out, "  %12s %12s %10s", a, b, e);
        }
        fputc('\n', out);
    }
}

static void fmt_stat(char *buf, size_t len, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, fmt, v);
}

void corr_print_summary(FILE *out, const char *title, const corr_row *const *rows, unsigned n,
                        const int *metrics, unsigned nm)
{
    fprintf(out, "\n%s: %u launch%s", title, n, n == 1 ? "" : "es");
    if (n)
        fprintf(out, " (%s %s %u .. %s %s %u)", rows[0]->bench->name,
                corr_size_name(rows[0]->size), rows[0]->launch, rows[n - 1]->bench->name,
                corr_size_name(rows[n - 1]->size), rows[n - 1]->launch);
    fprintf(out, "\n  %-18s %5s %9s %9s %14s  %s\n", "metric", "N", "pearson_r", "MAPE%",
            "geomean_ratio", "notes");
    double *ptx = g_new(double, n ? n : 1), *ref = g_new(double, n ? n : 1);
    for (unsigned j = 0; j < nm; j++) {
        corr_summary s;
        unsigned k = corr_pairs(rows, n, metrics[j], ptx, ref);
        corr_summarise(ptx, ref, k, &s);
        char r[32], mape[32], geo[32];
        fmt_stat(r, sizeof r, "%.4f", s.r);
        fmt_stat(mape, sizeof mape, "%.2f", s.mape);
        fmt_stat(geo, sizeof geo, "%.4f", s.geomean);
        GString *notes = g_string_new(NULL);
        if (s.ref_zero)
            g_string_append_printf(notes, "%u with reference 0 not in MAPE; ", s.ref_zero);
        if (s.geo_skipped)
            g_string_append_printf(notes, "%u with a 0 not in the geomean; ", s.geo_skipped);
        if (k < n)
            g_string_append_printf(notes, "%u without both values; ", n - k);
        if (notes->len)
            g_string_truncate(notes, notes->len - 2);
        fprintf(out, "  %-18s %5u %9s %9s %14s%s%s\n", corr_metrics[metrics[j]].name, k, r, mape,
                geo, notes->len ? "  " : "", notes->str);
        g_string_free(notes, TRUE);
    }
    g_free(ptx);
    g_free(ref);
}

/* A CSV field: counts and ratios with every digit a double carries. */
static void csv_num(GString *s, bool has, double v)
{
    if (has)
        g_string_append_printf(s, ",%.17g", v);
    else
        g_string_append_c(s, ',');
}

bool corr_write_csv(const char *path, const corr_row *const *rows, unsigned n, const int *metrics,
                    unsigned nm, GError **error)
{
    GString *s = g_string_new("benchmark,size,launch,kernel,half");
    for (unsigned j = 0; j < nm; j++) {
        const char *name = corr_metrics[metrics[j]].name;
        g_string_append_printf(s, ",%s_ref,%s_ptxemu,%s_error", name, name, name);
    }
    g_string_append_c(s, '\n');
    for (unsigned i = 0; i < n; i++) {
        const corr_row *r = rows[i];
        /* kernel names are PTX identifiers: no comma or quote to escape */
        g_string_append_printf(s, "%s,%s,%u,%s,%s", r->bench->name, corr_size_name(r->size),
                               r->launch, r->kernel, r->half == 1 ? "first" : "second");
        for (unsigned j = 0; j < nm; j++) {
            int m = metrics[j];
            csv_num(s, r->has_ref[m], r->ref[m]);
            csv_num(s, r->has_ptx[m], r->ptx[m]);
            bool err = r->has_ref[m] && r->has_ptx[m] && r->ref[m] != 0;
            csv_num(s, err, err ? (r->ptx[m] - r->ref[m]) / r->ref[m] : 0);
        }
        g_string_append_c(s, '\n');
    }
    bool ok = out_file_write_all(path, s->str, s->len, error);
    g_string_free(s, TRUE);
    return ok;
}
