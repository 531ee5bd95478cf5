/* tools/plot_ctas.c — `ptxemu plot --ctas launch-N-ctas.csv`: CTAs per core
 * of each kernel over time (thesis Fig. 5.8), from the concurrent-kernel
 * series of a timing run (timing/kernel_csv.h): one line per kernel, the
 * average over the SMs of its resident CTAs at each sample. */
#include "tools/commands.h"
#include "tools/csv_read.h"

#include <string.h>

int plot_ctas(const char *csv_path, const char *out)
{
    GError *err = NULL;
    csv_table *t = csv_read(csv_path, &err);
    if (!t) {
        fprintf(stderr, "ptxemu plot: %s\n", err->message);
        g_error_free(err);
        return 2;
    }
    int cc = csv_col(t, "cycle"), cl = csv_col(t, "launch"), ck = csv_col(t, "kernel");
    int s0 = csv_col(t, "sm0");
    if (cc < 0 || cl < 0 || ck < 0 || s0 < 0) {
        fprintf(stderr, "ptxemu plot: %s: not a launch-N-ctas.csv series (want cycle, launch, "
                        "kernel, sm0...)\n", csv_path);
        csv_free(t);
        return 2;
    }
    unsigned nsms = t->header->len - (unsigned)s0;
    /* columns: one per launch, in first-seen order; rows: one per cycle */
    GPtrArray *launches = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < t->rows->len; r++) {
        const char *l = csv_get(t, r, cl);
        bool seen = false;
        for (guint i = 0; i < launches->len && !seen; i++)
            seen = !strcmp(g_ptr_array_index(launches, i), l);
        if (!seen) {
            g_ptr_array_add(launches, g_strdup(l));
            g_ptr_array_add(names, g_strdup_printf("%s (launch %s)", csv_get(t, r, ck), l));
        }
    }
    GString *data = g_string_new("cycle");
    for (guint i = 0; i < names->len; i++)
        g_string_append_printf(data, ",%s", (const char *)g_ptr_array_index(names, i));
    g_string_append_c(data, '\n');
    for (guint r = 0; r < t->rows->len;) {
        const char *cycle = csv_get(t, r, cc);
        double *avg = g_new0(double, launches->len);
        bool *has = g_new0(bool, launches->len);
        for (; r < t->rows->len && !strcmp(csv_get(t, r, cc), cycle); r++) {
            guint li = 0;
            while (strcmp(g_ptr_array_index(launches, li), csv_get(t, r, cl)))
                li++;
            double sum = 0;
            for (unsigned s = 0; s < nsms; s++)
                sum += g_ascii_strtod(csv_get(t, r, s0 + (int)s), NULL);
            avg[li] = sum / nsms;
            has[li] = true;
        }
        g_string_append(data, cycle);
        for (guint i = 0; i < launches->len; i++) {
            char num[G_ASCII_DTOSTR_BUF_SIZE];
            g_string_append_printf(data, ",%s",
                                   has[i] ? g_ascii_formatd(num, sizeof num, "%.3f", avg[i]) : "0");
        }
        g_string_append_c(data, '\n');
        g_free(avg);
        g_free(has);
    }
    GString *gp = g_string_new(NULL);
    g_string_append_printf(gp, "set terminal svg size 900,480 dynamic noenhanced font 'sans,11'\n"
                               "set output 'ctas.svg'\nset datafile separator ','\n"
                               "set xlabel 'cycle (core clock)'\n"
                               "set ylabel 'CTAs per core (average over the SMs)'\n"
                               "set key outside top center horizontal\nset grid ytics\n"
                               "plot ");
    for (guint i = 0; i < names->len; i++)
        g_string_append_printf(gp, "%s'ctas.csv' using 1:%u with steps lw 2 title columnhead",
                               i ? ", " : "", i + 2);
    g_string_append_c(gp, '\n');
    g_mkdir_with_parents(out, 0755);
    char *dp = g_build_filename(out, "ctas.csv", NULL), *sp = g_build_filename(out, "ctas.gp", NULL);
    int rc = 0;
    if (!g_file_set_contents(dp, data->str, -1, &err) ||
        !g_file_set_contents(sp, gp->str, -1, &err)) {
        fprintf(stderr, "ptxemu plot: %s\n", err->message);
        g_clear_error(&err);
        rc = 1;
    }
    char *gnuplot = rc ? NULL : g_find_program_in_path("gnuplot");
    if (!rc && !gnuplot) {
        fprintf(stderr, "ptxemu plot: gnuplot not found; the figure's data and script are in "
                        "%s/ctas.csv, ctas.gp\n", out);
        rc = 3;
    } else if (!rc) {
        const char *gargv[] = {gnuplot, "ctas.gp", NULL};
        char *errs = NULL;
        int st;
        if (!g_spawn_sync(out, (char **)gargv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                          &errs, &st, &err) || !g_spawn_check_wait_status(st, NULL)) {
            fprintf(stderr, "ptxemu plot: gnuplot %s/ctas.gp failed: %s\n", out,
                    err ? err->message : errs);
            g_clear_error(&err);
            rc = 1;
        } else {
            printf("%s/ctas.svg\n", out);
        }
        g_free(errs);
    }
    g_free(gnuplot);
    g_free(dp);
    g_free(sp);
    g_string_free(gp, TRUE);
    g_string_free(data, TRUE);
    g_ptr_array_free(launches, TRUE);
    g_ptr_array_free(names, TRUE);
    csv_free(t);
    return rc;
}
