/* tools/cmd_plot.c — `ptxemu plot DIR`: SVG figures of a sweep's results
 * with gnuplot.  It reads only DIR/summary.csv and DIR/results.csv, writes
 * each figure's data as CSV (always) and a gnuplot script next to it, then
 * runs gnuplot:
 *   bars.svg    a metric per benchmark and variant, with a geomean group
 *               (the seed papers' standard figure; default: speedup)
 *   line.svg    a metric against a swept key, geomean over benchmarks
 *   states.svg  warp states as fractions of warp-cycles, stacked per variant */
#include "tools/commands.h"
#include "tools/csv_read.h"

#include <math.h>
#include <string.h>

/* Axis label with unit for a statistic name. */
static const char *axis_label(const char *metric)
{
    static const struct { const char *key, *label; } names[] = {
        {"speedup", "speedup over the baseline (baseline cycles / cycles)"},
        {"total.cycles", "cycles (core clock)"},
        {"total.ipc", "IPC (warp instructions per cycle)"},
        {"total.warp_instructions", "warp instructions"},
        {"total.thread_instructions", "thread instructions"},
        {"total.memory.amat", "average memory access time (cycles)"},
        {"total.memory.l1_hit_rate", "L1 hit rate (fraction)"},
        {"total.memory.l2_hit_rate", "L2 hit rate (fraction)"},
        {"total.core_idle_cycles", "core idle cycles"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
        if (!strcmp(names[i].key, metric))
            return names[i].label;
    return metric;
}

/* Words all labels share are dropped ("gtx480 cta.policy=rr"). */
static GPtrArray *short_labels(GPtrArray *labels)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < labels->len; i++) {
        char **w = g_strsplit(g_ptr_array_index(labels, i), " ", -1);
        GString *o = g_string_new(NULL);
        for (unsigned k = 0; w[k]; k++) {
            bool common = labels->len > 1;
            for (guint v = 0; v < labels->len && common; v++) {
                char **vw = g_strsplit(g_ptr_array_index(labels, v), " ", -1);
                common = g_strv_contains((const char *const *)vw, w[k]);
                g_strfreev(vw);
            }
            if (!common)
                g_string_append_printf(o, "%s%s", o->len ? " " : "", w[k]);
        }
        if (!o->len)
            g_string_append(o, g_ptr_array_index(labels, i));
        g_strdelimit(o->str, ",\"", ' ');
        g_ptr_array_add(out, g_string_free(o, FALSE));
        g_strfreev(w);
    }
    return out;
}

static int index_of(GPtrArray *a, const char *s)
{
    for (guint i = 0; i < a->len; i++)
        if (!strcmp(g_ptr_array_index(a, i), s))
            return (int)i;
    return -1;
}

static void add_unique(GPtrArray *a, const char *s)
{
    if (index_of(a, s) < 0)
        g_ptr_array_add(a, g_strdup(s));
}

/* Distinct colours: gnuplot's default cycle repeats after eight. */
static const char *colour(unsigned i)
{
    static const char *const c[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
                                    "#1b9e77", "#7570b3"};
    return c[i % G_N_ELEMENTS(c)];
}

typedef struct figure {
    const char *name;        /* bars | line | states */
    GString *data, *script;
} figure;

static bool write_figure(const char *out, const figure *f, GError **error)
{
    char *csv = g_strdup_printf("%s/%s.csv", out, f->name);
    char *gp = g_strdup_printf("%s/%s.gp", out, f->name);
    bool ok = g_file_set_contents(csv, f->data->str, -1, error) &&
              g_file_set_contents(gp, f->script->str, -1, error);
    g_free(csv);
    g_free(gp);
    return ok;
}

static void script_head(GString *s, const char *name, unsigned width, const char *ylabel)
{
    g_string_append_printf(s, "set terminal svg size %u,480 dynamic noenhanced font 'sans,11'\n"
                              "set output '%s.svg'\nset datafile separator ','\n"
                              "set ylabel '%s'\nset key outside top center horizontal\n"
                              "set grid ytics\n", width, name, ylabel);
}

/* bars: rows benchmark (+ geomean), one column per variant. */
static bool bars(const csv_table *sum, const char *metric, figure *f, GError **error)
{
    char *col_name = !strcmp(metric, "speedup") || strchr(metric, '/')
                         ? g_strdup(metric) : g_strconcat(metric, "/baseline", NULL);
    int vc = csv_col(sum, "variant"), bc = csv_col(sum, "benchmark"), mc = csv_col(sum, col_name);
    if (mc < 0 && strcmp(metric, "speedup"))
        mc = csv_col(sum, metric);
    if (vc < 0 || bc < 0 || mc < 0) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "summary.csv has no column '%s' (see its header)", col_name);
        g_free(col_name);
        return false;
    }
    GPtrArray *vars = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *benches = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < sum->rows->len; r++) {
        add_unique(vars, csv_get(sum, r, vc));
        add_unique(benches, csv_get(sum, r, bc));
    }
    GPtrArray *labels = short_labels(vars);
    g_string_append(f->data, "benchmark");
    for (guint v = 0; v < labels->len; v++)
        g_string_append_printf(f->data, ",%s", (char *)g_ptr_array_index(labels, v));
    g_string_append_c(f->data, '\n');
    for (guint b = 0; b < benches->len; b++) {
        g_string_append(f->data, g_ptr_array_index(benches, b));
        for (guint v = 0; v < vars->len; v++) {
            const char *val = "";
            for (guint r = 0; r < sum->rows->len; r++)
                if (!strcmp(csv_get(sum, r, bc), g_ptr_array_index(benches, b)) &&
                    !strcmp(csv_get(sum, r, vc), g_ptr_array_index(vars, v)))
                    val = csv_get(sum, r, mc);
            g_string_append_printf(f->data, ",%s", val);
        }
        g_string_append_c(f->data, '\n');
    }
    unsigned width = MAX(640u, 18u * benches->len * (vars->len + 1));
    script_head(f->script, "bars", width, axis_label(metric));
    g_string_append(f->script, "set style data histogram\nset style histogram clustered gap 1\n"
                               "set style fill solid 0.85 border -1\nset xtics rotate by -60 "
                               "scale 0\nset yrange [0:*]\nset key autotitle columnhead\nplot ");
    for (guint v = 0; v < vars->len; v++)
        g_string_append_printf(f->script, "%s'bars.csv' using %u%s lc rgb '%s'", v ? ", " : "",
                               v + 2, v ? "" : ":xtic(1)", colour(v));
    g_string_append_c(f->script, '\n');
    g_ptr_array_free(labels, TRUE);
    g_ptr_array_free(vars, TRUE);
    g_ptr_array_free(benches, TRUE);
    g_free(col_name);
    return true;
}

/* line: metric (geomean over benchmarks) against the swept key; one line
 * per combination of the other variant words. */
static bool line(const csv_table *res, const char *key, const char *metric, figure *f,
                 GError **error)
{
    int kc = key ? csv_col(res, key) : -1, mc = csv_col(res, metric);
    int vc = csv_col(res, "variant"), sc = csv_col(res, "status"), mo = csv_col(res, "mode");
    if (kc < 0 || mc < 0) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "results.csv has no column '%s' (a swept key: name it with --x)",
                    kc < 0 ? (key ? key : "(none swept)") : metric);
        return false;
    }
    GPtrArray *xs = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *row_series = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < res->rows->len; r++) {
        /* the series is the variant without the swept key's word */
        char **w = g_strsplit(csv_get(res, r, vc), " ", -1);
        GString *sname = g_string_new(NULL);
        for (unsigned k = 0; w[k]; k++)
            if (!g_str_has_prefix(w[k], key) || w[k][strlen(key)] != '=')
                g_string_append_printf(sname, "%s%s", sname->len ? " " : "", w[k]);
        g_strfreev(w);
        g_ptr_array_add(row_series, g_string_free(sname, FALSE));
        if (strcmp(csv_get(res, r, sc), "ok") || strcmp(csv_get(res, r, mo), "timing"))
            continue;
        add_unique(xs, csv_get(res, r, kc));
        add_unique(series, g_ptr_array_index(row_series, r));
    }
    bool numeric = xs->len > 0;
    for (guint i = 0; i < xs->len; i++) {
        char *end;
        g_ascii_strtod(g_ptr_array_index(xs, i), &end);
        numeric &= !*end;
    }
    GPtrArray *labels = short_labels(series);
    g_string_append_printf(f->data, "%s", key);
    for (guint s = 0; s < labels->len; s++)
        g_string_append_printf(f->data, ",%s", (char *)g_ptr_array_index(labels, s));
    g_string_append_c(f->data, '\n');
    for (guint x = 0; x < xs->len; x++) {
        g_string_append(f->data, g_ptr_array_index(xs, x));
        for (guint s = 0; s < series->len; s++) {
            double lsum = 0;
            unsigned n = 0;
            for (guint r = 0; r < res->rows->len; r++) {
                if (strcmp(csv_get(res, r, sc), "ok") || strcmp(csv_get(res, r, mo), "timing") ||
                    strcmp(csv_get(res, r, kc), g_ptr_array_index(xs, x)) ||
                    strcmp(g_ptr_array_index(row_series, r), g_ptr_array_index(series, s)))
                    continue;
                double v = g_ascii_strtod(csv_get(res, r, mc), NULL);
                if (v > 0) {
                    lsum += log(v);
                    n++;
                }
            }
            if (n)
                g_string_append_printf(f->data, ",%.6g", exp(lsum / n));
            else
                g_string_append(f->data, ",");
        }
        g_string_append_c(f->data, '\n');
    }
    script_head(f->script, "line", 720, axis_label(metric));
    g_string_append_printf(f->script, "set xlabel '%s'\nset key autotitle columnhead\n"
                                      "set title 'geomean over benchmarks'\n", key);
    if (!numeric) /* categorical x: one point per value, in file order */
        g_string_append(f->script, "set offsets 0.3, 0.3, 0, 0\n");
    g_string_append(f->script, "plot ");
    for (guint s = 0; s < series->len; s++)
        g_string_append_printf(f->script, "%s'line.csv' using %s%u%s with linespoints lw 2 "
                               "pt 7 lc rgb '%s'", s ? ", " : "", numeric ? "1:" : "", s + 2,
                               numeric ? "" : ":xtic(1)", colour(s));
    g_string_append_c(f->script, '\n');
    g_ptr_array_free(labels, TRUE);
    g_ptr_array_free(xs, TRUE);
    g_ptr_array_free(series, TRUE);
    g_ptr_array_free(row_series, TRUE);
    return true;
}

/* states: the warp-state counters of every ok timing job summed per
 * variant, as fractions. */
static bool states(const csv_table *res, figure *f, GError **error)
{
    const char *prefix = "total.warp_states.";
    GArray *cols = g_array_new(FALSE, FALSE, sizeof(int));
    for (guint c = 0; c < res->header->len; c++)
        if (g_str_has_prefix(g_ptr_array_index(res->header, c), prefix)) {
            int ci = (int)c;
            g_array_append_val(cols, ci);
        }
    int vc = csv_col(res, "variant"), sc = csv_col(res, "status"), mo = csv_col(res, "mode");
    if (!cols->len) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "results.csv has no %s* columns (no timing job finished)", prefix);
        g_array_free(cols, TRUE);
        return false;
    }
    GPtrArray *vars = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < res->rows->len; r++)
        if (!strcmp(csv_get(res, r, sc), "ok") && !strcmp(csv_get(res, r, mo), "timing"))
            add_unique(vars, csv_get(res, r, vc));
    GPtrArray *labels = short_labels(vars);
    g_string_append(f->data, "variant");
    for (guint c = 0; c < cols->len; c++)
        g_string_append_printf(f->data, ",%s",
                               (char *)g_ptr_array_index(res->header, g_array_index(cols, int, c)) +
                                   strlen(prefix));
    g_string_append_c(f->data, '\n');
    for (guint v = 0; v < vars->len; v++) {
        double *sum = g_new0(double, cols->len), all = 0;
        for (guint r = 0; r < res->rows->len; r++) {
            if (strcmp(csv_get(res, r, sc), "ok") || strcmp(csv_get(res, r, mo), "timing") ||
                strcmp(csv_get(res, r, vc), g_ptr_array_index(vars, v)))
                continue;
            for (guint c = 0; c < cols->len; c++) {
                double x = g_ascii_strtod(csv_get(res, r, g_array_index(cols, int, c)), NULL);
                sum[c] += x;
                all += x;
            }
        }
        g_string_append(f->data, g_ptr_array_index(labels, v));
        for (guint c = 0; c < cols->len; c++)
            g_string_append_printf(f->data, ",%.6f", all > 0 ? sum[c] / all : 0);
        g_string_append_c(f->data, '\n');
        g_free(sum);
    }
    script_head(f->script, "states", MAX(640u, 240u + 160u * vars->len),
                "fraction of warp-cycles");
    g_string_append(f->script, "set style data histogram\nset style histogram rowstacked\n"
                               "set style fill solid 0.85 border -1\nset boxwidth 0.6\n"
                               "set yrange [0:1]\nset key outside right vertical\n"
                               "set key autotitle columnhead\nset title 'warp states, all "
                               "benchmarks'\nplot ");
    for (guint c = 0; c < cols->len; c++)
        g_string_append_printf(f->script, "%s'states.csv' using %u%s lc rgb '%s'", c ? ", " : "",
                               c + 2, c ? "" : ":xtic(1)", colour(c));
    g_string_append_c(f->script, '\n');
    g_ptr_array_free(labels, TRUE);
    g_ptr_array_free(vars, TRUE);
    g_array_free(cols, TRUE);
    return true;
}

/* First swept-key column of results.csv: between "variant" and "status". */
static char *default_key(const csv_table *res)
{
    int v = csv_col(res, "variant"), s = csv_col(res, "status");
    return v >= 0 && s == v + 2 ? g_strdup(g_ptr_array_index(res->header, v + 1)) : NULL;
}

int cmd_plot(int argc, char **argv)
{
    gchar *out = NULL, *bars_metric = NULL, *line_key = NULL, *line_metric = NULL;
    gchar *ctas = NULL;
    GOptionEntry entries[] = {
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "folder for the figures (default DIR/plots)",
         "OUT"},
        {"bars", 0, 0, G_OPTION_ARG_STRING, &bars_metric,
         "metric of the grouped bars (default speedup; or a summary metric)", "M"},
        {"x", 0, 0, G_OPTION_ARG_STRING, &line_key, "swept key of the line plot", "KEY"},
        {"line", 0, 0, G_OPTION_ARG_STRING, &line_metric,
         "metric of the line plot (default total.ipc)", "M"},
        {"ctas", 0, 0, G_OPTION_ARG_FILENAME, &ctas,
         "instead of a sweep: CTAs per core of each kernel over time (ctas.svg, thesis Fig. "
         "5.8) from a timing run's --trace-csv launch-N-ctas.csv", "CSV"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("RESULTS-DIR");
    g_option_context_set_summary(oc, "Figures (bars.svg, line.svg, states.svg) of a sweep's "
                                     "results; needs gnuplot (Debian: gnuplot-nox).");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    csv_table *sum = NULL, *res = NULL;
    figure figs[3] = {{"bars", g_string_new(NULL), g_string_new(NULL)},
                      {"line", g_string_new(NULL), g_string_new(NULL)},
                      {"states", g_string_new(NULL), g_string_new(NULL)}};
    bool parsed = g_option_context_parse(oc, &argc, &argv, &err);
    if (parsed && ctas) {
        if (argc != 1) {
            fprintf(stderr, "ptxemu plot: --ctas takes no RESULTS-DIR\n");
        } else {
            char *dir = out ? g_strdup(out) : g_path_get_dirname(ctas);
            rc = plot_ctas(ctas, dir);
            g_free(dir);
        }
        g_free(ctas);
        goto done;
    }
    g_free(ctas);
    if (!parsed || argc != 2) {
        fprintf(stderr, "ptxemu plot: %s\n", err ? err->message : "usage: ptxemu plot RESULTS-DIR");
        goto done;
    }
    char *p = g_build_filename(argv[1], "summary.csv", NULL);
    sum = csv_read(p, &err);
    g_free(p);
    p = g_build_filename(argv[1], "results.csv", NULL);
    res = sum ? csv_read(p, &err) : NULL;
    g_free(p);
    if (!res) {
        fprintf(stderr, "ptxemu plot: %s\n", err->message);
        goto done;
    }
    if (!out)
        out = g_build_filename(argv[1], "plots", NULL);
    /* the experiment file's [plot] defaults, saved by the sweep */
    p = g_build_filename(argv[1], "plot.ini", NULL);
    GKeyFile *kf = g_key_file_new();
    if (g_key_file_load_from_file(kf, p, G_KEY_FILE_NONE, NULL)) {
        if (!bars_metric)
            bars_metric = g_key_file_get_string(kf, "plot", "bars", NULL);
        if (!line_key)
            line_key = g_key_file_get_string(kf, "plot", "line_key", NULL);
        if (!line_metric)
            line_metric = g_key_file_get_string(kf, "plot", "line_metric", NULL);
    }
    g_key_file_free(kf);
    g_free(p);
    if (!line_key)
        line_key = default_key(res);
    g_mkdir_with_parents(out, 0755);
    bool made[3] = {
        bars(sum, bars_metric ? bars_metric : "speedup", &figs[0], &err),
        false, false};
    for (unsigned i = 0; i < 3; i++) {
        if (i == 1)
            made[1] = line(res, line_key, line_metric ? line_metric : "total.ipc", &figs[1], &err);
        if (i == 2)
            made[2] = states(res, &figs[2], &err);
        if (!made[i]) {
            fprintf(stderr, "ptxemu plot: %s: %s\n", figs[i].name, err->message);
            g_clear_error(&err);
        } else if (!write_figure(out, &figs[i], &err)) {
            fprintf(stderr, "ptxemu plot: %s\n", err->message);
            goto done;
        }
    }
    char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot) {
        fprintf(stderr, "ptxemu plot: gnuplot not found; install it (Debian: apt-get install "
                        "gnuplot-nox, or scripts/install-deps.sh).  The figures' data and "
                        "scripts are in %s/*.csv, *.gp\n", out);
        rc = 3;
        goto done;
    }
    rc = made[0] && made[1] && made[2] ? 0 : 1;
    for (unsigned i = 0; i < 3; i++) {
        if (!made[i])
            continue;
        char *gp = g_strdup_printf("%s.gp", figs[i].name), *errs = NULL;
        const char *gargv[] = {gnuplot, gp, NULL};
        int st;
        if (!g_spawn_sync(out, (char **)gargv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                          &errs, &st, &err) || !g_spawn_check_wait_status(st, NULL)) {
            fprintf(stderr, "ptxemu plot: gnuplot %s/%s failed: %s\n", out, gp,
                    err ? err->message : errs);
            g_clear_error(&err);
            rc = 1;
        } else {
            printf("%s/%s.svg\n", out, figs[i].name);
        }
        g_free(errs);
        g_free(gp);
    }
    g_free(gnuplot);
done:
    for (unsigned i = 0; i < 3; i++) {
        g_string_free(figs[i].data, TRUE);
        g_string_free(figs[i].script, TRUE);
    }
    if (err)
        g_error_free(err);
    csv_free(sum);
    csv_free(res);
    g_free(out);
    g_free(bars_metric);
    g_free(line_key);
    g_free(line_metric);
    g_option_context_free(oc);
    return rc;
}
