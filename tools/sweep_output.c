/* tools/sweep_output.c — the three result files of a sweep, rebuilt from
 * the per-job records every time (so an interrupted or partial sweep
 * still leaves consistent files):
 *   results.jsonl  one JSON object per job: inputs, status, counters, stats
 *   results.csv    the same flattened: inputs, status, counters, total.*
 *   summary.csv    per benchmark and variant, the summary metrics (mean
 *                  over repetitions), their ratio to the baseline variant
 *                  and the speedup (baseline cycles / cycles); a geomean
 *                  row per variant. */
#include "tools/sweep.h"

#include "tools/json_flat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void csv_field(GString *o, const char *s)
{
    if (!s)
        s = "";
    if (!strpbrk(s, ",\"\n\r")) {
        g_string_append(o, s);
        return;
    }
    g_string_append_c(o, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            g_string_append_c(o, '"');
        g_string_append_c(o, *p);
    }
    g_string_append_c(o, '"');
}

static bool save(const char *dir, const char *name, GString *text, GError **error)
{
    char *p = g_build_filename(dir, name, NULL);
    bool ok = g_file_set_contents(p, text->str, (gssize)text->len, error);
    g_free(p);
    return ok;
}

/* Statistics go into the CSV when they are run totals. */
static bool csv_stat(const char *key)
{
    return g_str_has_prefix(key, "total.") || !strchr(key, '.');
}

static void jsonl_record(GString *o, const sweep_job *j, const sweep_record *r)
{
    g_string_append(o, "{\"id\": ");
    json_append_string(o, j->id);
    g_string_append_printf(o, ", \"index\": %u, \"benchmark\": ", j->index);
    json_append_string(o, j->bench->name);
    g_string_append(o, ", \"size\": ");
    json_append_string(o, j->size);
    g_string_append_printf(o, ", \"seed\": %" G_GUINT64_FORMAT ", \"rep\": %u, \"mode\": \"%s\"",
                           j->seed, j->rep, j->mode == SWEEP_TIMING ? "timing" : "functional");
    g_string_append(o, ", \"config\": ");
    if (j->config)
        json_append_string(o, j->config);
    else
        g_string_append(o, "null");
    g_string_append(o, ", \"overrides\": {");
    for (unsigned i = 0; j->sets && j->sets[i]; i++) {
        const char *eq = strchr(j->sets[i], '=');
        char *k = g_strndup(j->sets[i], (gsize)(eq - j->sets[i]));
        g_string_append(o, i ? ", " : "");
        json_append_string(o, k);
        g_string_append(o, ": ");
        json_append_string(o, eq + 1);
        g_free(k);
    }
    g_string_append(o, "}, \"variant\": ");
    json_append_string(o, j->variant);
    g_string_append_printf(o, ", \"status\": \"%s\"", !r ? "missing" : r->ok ? "ok" : "failed");
    if (r) {
        g_string_append(o, ", \"version\": ");
        json_append_string(o, r->version);
        g_string_append_printf(o, ", \"wall_s\": %.3f, \"reason\": ", r->wall_s);
        if (r->reason)
            json_append_string(o, r->reason);
        else
            g_string_append(o, "null");
        g_string_append(o, ", \"stderr_tail\": ");
        json_append_string(o, r->stderr_tail);
        g_string_append(o, ", \"counters\": {");
        unsigned n = 0;
        for (guint i = 0; i < r->order->len; i++) {
            const char *k = g_ptr_array_index(r->order, i);
            if (strchr(k, '.') || !strcmp(k, "schema"))
                continue;
            g_string_append(o, n++ ? ", " : "");
            json_append_string(o, k);
            g_string_append_printf(o, ": %s", (const char *)g_hash_table_lookup(r->values, k));
        }
        g_string_append(o, "}, \"stats\": ");
        if (r->stats_json) {
            /* one line: the stats JSON has no newlines inside strings */
            char *flat = g_strdup(r->stats_json);
            g_strdelimit(flat, "\n", ' ');
            g_string_append(o, g_strstrip(flat));
            g_free(flat);
        } else {
            g_string_append(o, "null");
        }
    }
    g_string_append(o, "}\n");
}

/* The mean of `metric` over the ok repetitions of (bench, variant). */
bool sweep_cell_mean(const sweep_spec *s, sweep_record **recs, const bench_def *b,
                      const char *size, const char *variant, const char *metric, double *out)
{
    double sum = 0;
    unsigned n = 0;
    for (guint i = 0; i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        if (j->bench != b || strcmp(j->size, size) || strcmp(j->variant, variant) ||
            !recs[i] || !recs[i]->ok)
            continue;
        const char *v = g_hash_table_lookup(recs[i]->values, metric);
        if (!v)
            continue;
        sum += g_ascii_strtod(v, NULL);
        n++;
    }
    *out = n ? sum / n : NAN;
    return n > 0;
}

static void num(GString *o, double v)
{
    if (isnan(v))
        g_string_append(o, ",");
    else
        g_string_append_printf(o, ",%.6g", v);
}

static void write_summary(const sweep_spec *s, sweep_record **recs, GString *o)
{
    const char *base = s->baseline ? s->baseline
                                   : s->variants->len ? g_ptr_array_index(s->variants, 0) : "";
    g_string_append(o, "benchmark,size,variant");
    for (unsigned m = 0; s->metrics[m]; m++)
        g_string_append_printf(o, ",%s,%s/baseline", s->metrics[m], s->metrics[m]);
    g_string_append(o, ",speedup\n");
    unsigned nm = g_strv_length(s->metrics), nv = s->variants->len;
    /* log sums for the geomean of every ratio column (+1: speedup) */
    double *lsum = g_new0(double, (gsize)nv * (nm + 1));
    unsigned *lcnt = g_new0(unsigned, (gsize)nv * (nm + 1));
    GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        char *key = g_strdup_printf("%s/%s", j->bench->name, j->size);
        bool dup = j->mode != SWEEP_TIMING;
        for (guint k = 0; k < seen->len && !dup; k++)
            dup = !strcmp(g_ptr_array_index(seen, k), key);
        if (dup) {
            g_free(key);
            continue;
        }
        g_ptr_array_add(seen, key);
        for (unsigned v = 0; v < nv; v++) {
            const char *var = g_ptr_array_index(s->variants, v);
            g_string_append_printf(o, "%s,%s,", j->bench->name, j->size);
            csv_field(o, var);
            for (unsigned m = 0; m <= nm; m++) {
                const char *metric = m < nm ? s->metrics[m] : "total.cycles";
                double x, b, ratio;
                bool hx = sweep_cell_mean(s, recs, j->bench, j->size, var, metric, &x);
                bool hb = sweep_cell_mean(s, recs, j->bench, j->size, base, metric, &b);
                ratio = hx && hb && b != 0 && x != 0 ? (m < nm ? x / b : b / x) : NAN;
                if (m < nm)
                    num(o, hx ? x : NAN);
                num(o, ratio);
                if (!isnan(ratio) && ratio > 0) {
                    lsum[v * (nm + 1) + m] += log(ratio);
                    lcnt[v * (nm + 1) + m]++;
                }
            }
            g_string_append_c(o, '\n');
        }
    }
    for (unsigned v = 0; v < nv; v++) {
        g_string_append(o, "geomean,,");
        csv_field(o, g_ptr_array_index(s->variants, v));
        for (unsigned m = 0; m <= nm; m++) {
            unsigned c = lcnt[v * (nm + 1) + m];
            if (m < nm)
                g_string_append_c(o, ',');
            num(o, c ? exp(lsum[v * (nm + 1) + m] / c) : NAN);
        }
        g_string_append_c(o, '\n');
    }
    g_ptr_array_free(seen, TRUE);
    g_free(lsum);
    g_free(lcnt);
}

bool sweep_write_outputs(const sweep_spec *s, const char *dir, unsigned *ok, unsigned *failed,
                         unsigned *missing, GError **error)
{
    guint n = s->jobs->len;
    sweep_record **recs = g_new0(sweep_record *, n);
    *ok = *failed = *missing = 0;
    /* CSV columns: the union of every record's counters and totals */
    GPtrArray *cols = g_ptr_array_new();
    GHashTable *have = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < n; i++) {
        recs[i] = sweep_record_load(dir, g_ptr_array_index(s->jobs, i));
        if (!recs[i]) {
            (*missing)++;
            continue;
        }
        recs[i]->ok ? (*ok)++ : (*failed)++;
        for (guint k = 0; k < recs[i]->order->len; k++) {
            char *key = g_ptr_array_index(recs[i]->order, k);
            if (csv_stat(key) && strcmp(key, "schema") && !g_hash_table_contains(have, key)) {
                g_hash_table_add(have, key);
                g_ptr_array_add(cols, key);
            }
        }
    }
    GString *jsonl = g_string_new(NULL), *csv = g_string_new(NULL), *sum = g_string_new(NULL);
    g_string_append(csv, "id,benchmark,size,seed,rep,mode,config,variant");
    for (guint k = 0; k < s->swept_keys->len; k++) {
        g_string_append_c(csv, ',');
        csv_field(csv, g_ptr_array_index(s->swept_keys, k));
    }
    g_string_append(csv, ",status,wall_s,reason");
    for (guint k = 0; k < cols->len; k++)
        g_string_append_printf(csv, ",%s", (char *)g_ptr_array_index(cols, k));
    g_string_append_c(csv, '\n');
    for (guint i = 0; i < n; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        const sweep_record *r = recs[i];
        jsonl_record(jsonl, j, r);
        g_string_append_printf(csv, "%s,%s,%s,%" G_GUINT64_FORMAT ",%u,%s,%s,", j->id,
                               j->bench->name, j->size, j->seed, j->rep,
                               j->mode == SWEEP_TIMING ? "timing" : "functional",
                               j->config ? j->config : "");
        csv_field(csv, j->variant);
        for (guint k = 0; k < s->swept_keys->len; k++) {
            g_string_append_c(csv, ',');
            csv_field(csv, sweep_job_get(j, g_ptr_array_index(s->swept_keys, k)));
        }
        g_string_append_printf(csv, ",%s,", !r ? "missing" : r->ok ? "ok" : "failed");
        if (r)
            g_string_append_printf(csv, "%.3f", r->wall_s);
        g_string_append_c(csv, ',');
        csv_field(csv, r ? r->reason : NULL);
        for (guint k = 0; k < cols->len; k++) {
            g_string_append_c(csv, ',');
            if (r)
                csv_field(csv, g_hash_table_lookup(r->values, g_ptr_array_index(cols, k)));
        }
        g_string_append_c(csv, '\n');
    }
    write_summary(s, recs, sum);
    /* the [plot] defaults, for `ptxemu plot DIR` */
    GKeyFile *pk = g_key_file_new();
    g_key_file_set_string(pk, "plot", "bars", s->bars_metric);
    if (s->line_key)
        g_key_file_set_string(pk, "plot", "line_key", s->line_key);
    g_key_file_set_string(pk, "plot", "line_metric", s->line_metric);
    gsize plen;
    char *ptext = g_key_file_to_data(pk, &plen, NULL);
    GString *pstr = g_string_new_len(ptext, (gssize)plen);
    g_free(ptext);
    g_key_file_free(pk);
    bool okw = save(dir, "results.jsonl", jsonl, error) && save(dir, "results.csv", csv, error) &&
               save(dir, "summary.csv", sum, error) && save(dir, "plot.ini", pstr, error);
    g_string_free(pstr, TRUE);
    g_string_free(jsonl, TRUE);
    g_string_free(csv, TRUE);
    g_string_free(sum, TRUE);
    g_hash_table_destroy(have);
    g_ptr_array_free(cols, TRUE);
    for (guint i = 0; i < n; i++)
        sweep_record_free(recs[i]);
    g_free(recs);
    return okw;
}
