/* tools/sweep_spec.c — reads an experiment file (GKeyFile INI, see
 * docs/experiments.md), checks every name, key and value, and expands the
 * cross product into jobs.  Errors name the file and line.  Config keys
 * are opaque here: each variant is checked by creating a timing context
 * with it, so the key table lives only in timing/ and sched/. */
#include "tools/sweep.h"
#include "tools/sweep_parse.h"

#include "api/ptxemu.h"
#include "benchmarks/harness.h"
#include "timing/config.h"
#include "tools/version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *sweep_version(void)
{
    return PTXEMU_VERSION;
}

/* GKeyFile keeps no line numbers: find "[group]" / "key =" in the text. */
static unsigned line_of(const char *text, const char *group, const char *key)
{
    char **lines = g_strsplit(text, "\n", -1);
    unsigned found = 0;
    bool in = false;
    for (unsigned i = 0; lines[i] && !found; i++) {
        char *l = g_strstrip(lines[i]);
        if (l[0] == '[') {
            char *end = strchr(l, ']');
            in = end && (size_t)(end - l - 1) == strlen(group) && !strncmp(l + 1, group, strlen(group));
            if (in && !key)
                found = i + 1;
            continue;
        }
        if (!in || !key)
            continue;
        char *eq = strchr(l, '=');
        if (eq) {
            *eq = '\0';
            if (!strcmp(g_strstrip(l), key))
                found = i + 1;
        }
    }
    g_strfreev(lines);
    return found;
}

bool sweep_perr(parse_ctx *p, const char *group, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    unsigned line = line_of(p->text, group, key);
    if (!line && key)
        line = line_of(p->text, group, NULL);
    g_set_error(p->error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: [%s]%s%s: %s", p->path,
                line, group, key ? " " : "", key ? key : "", msg);
    g_free(msg);
    return false;
}

/* A list value, entries trimmed; NULL (and no error) when absent. */
char **sweep_get_list(parse_ctx *p, const char *group, const char *key)
{
    if (!g_key_file_has_key(p->kf, group, key, NULL))
        return NULL;
    char *raw = g_key_file_get_value(p->kf, group, key, NULL);
    char **items = g_strsplit_set(raw, ",", -1);
    g_free(raw);
    GPtrArray *out = g_ptr_array_new();
    for (unsigned i = 0; items[i]; i++) {
        char *t = g_strstrip(items[i]);
        if (*t)
            g_ptr_array_add(out, g_strdup(t));
    }
    g_strfreev(items);
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

char *sweep_get_str(parse_ctx *p, const char *group, const char *key)
{
    char *v = g_key_file_get_value(p->kf, group, key, NULL);
    return v ? g_strstrip(v) : NULL;
}

/* Asks the timing model whether `config` with `sets` is valid: the same
 * path a run takes, so per-policy keys need no table here. */
static bool check_variant(const char *config, char **sets, char **msg)
{
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = config;
    o.timing_set = (const char *const *)sets;
    ptxemu_ctx *ctx = NULL;
    bool ok = ptxemu_ctx_create(&ctx, &o) == PTXEMU_OK;
    if (!ok)
        *msg = g_strdup(ptxemu_last_error(ctx));
    ptxemu_ctx_destroy(ctx);
    return ok;
}

/* A job's id hashes every input but the ptxemu version, which its record
 * keeps instead: a rerun by another version redoes the job (a record of
 * another version is not finished), while reports and --collect can still
 * read the results a given version left. */

/* The bytes that define a config: its file (preset or path). */
static char *config_file(const char *config, const char *exp_dir)
{
    if (strchr(config, '/') || g_str_has_suffix(config, ".ini")) {
        if (g_path_is_absolute(config))
            return g_strdup(config);
        return g_build_filename(exp_dir, config, NULL);
    }
    char *dir = gpu_config_preset_dir();
    char *name = g_strconcat(config, ".ini", NULL);
    char *f = g_build_filename(dir, name, NULL);
    g_free(dir);
    g_free(name);
    return f;
}

static void job_identity(sweep_job *j, const char *config_bytes, const char *ptx_bytes)
{
    GChecksum *h = g_checksum_new(G_CHECKSUM_SHA256);
    GString *s = g_string_new(NULL);
    g_string_printf(s, "ptxemu-sweep-job/1\n%s\n%s\n%s\n%" G_GUINT64_FORMAT "\n", j->mode == SWEEP_TIMING ? "timing" : "functional",
                    j->bench->name, j->size, j->seed);
    for (unsigned i = 0; j->sets && j->sets[i]; i++)
        g_string_append_printf(s, "set %s\n", j->sets[i]);
    g_checksum_update(h, (const guchar *)s->str, s->len);
    g_checksum_update(h, (const guchar *)ptx_bytes, strlen(ptx_bytes));
    if (config_bytes)
        g_checksum_update(h, (const guchar *)config_bytes, strlen(config_bytes));
    memcpy(j->id, g_checksum_get_string(h), 16);
    j->id[16] = '\0';
    g_string_free(s, TRUE);
    g_checksum_free(h);
}

static void job_free(gpointer p)
{
    sweep_job *j = p;
    g_free(j->size);
    g_free(j->config);
    g_strfreev(j->sets);
    g_free(j->variant);
    g_free(j);
}

void sweep_spec_free(sweep_spec *s)
{
    if (!s)
        return;
    g_free(s->path);
    g_free(s->name);
    g_free(s->description);
    g_free(s->paper);
    g_free(s->expect);
    if (s->jobs)
        g_ptr_array_free(s->jobs, TRUE);
    if (s->variants)
        g_ptr_array_free(s->variants, TRUE);
    if (s->swept_keys)
        g_ptr_array_free(s->swept_keys, TRUE);
    g_free(s->baseline);
    g_strfreev(s->metrics);
    g_free(s->bars_metric);
    g_free(s->line_key);
    g_free(s->line_metric);
    g_free(s);
}

const char *sweep_job_get(const sweep_job *j, const char *key)
{
    size_t n = strlen(key);
    for (unsigned i = 0; j->sets && j->sets[i]; i++)
        if (!strncmp(j->sets[i], key, n) && j->sets[i][n] == '=')
            return j->sets[i] + n + 1;
    return NULL;
}

char *sweep_job_command(const sweep_job *j)
{
    GString *c = g_string_new(NULL);
    g_string_printf(c, "ptxemu bench run %s --size %s --seed %" G_GUINT64_FORMAT, j->bench->name,
                    j->size, j->seed);
    if (j->mode == SWEEP_TIMING) {
        g_string_append_printf(c, " --timing --config %s", j->config);
        for (unsigned i = 0; j->sets && j->sets[i]; i++)
            g_string_append_printf(c, " --set %s", j->sets[i]);
    }
    return g_string_free(c, FALSE);
}

/* Benchmarks selected by the `benchmarks` globs minus `exclude`. */
static GPtrArray *select_benchmarks(parse_ctx *p)
{
    char **pats = sweep_get_list(p, "experiment", "benchmarks");
    if (!pats || !pats[0]) {
        g_strfreev(pats);
        sweep_perr(p, "experiment", "benchmarks", "missing: name benchmarks or globs (e.g. *)");
        return NULL;
    }
    char **excl = sweep_get_list(p, "experiment", "exclude");
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    GPtrArray *sel = g_ptr_array_new();
    bool ok = true;
    for (unsigned k = 0; pats[k] && ok; k++) {
        unsigned hits = 0;
        for (unsigned i = 0; i < n; i++) {
            if (!g_pattern_match_simple(pats[k], all[i]->name))
                continue;
            hits++;
            bool skip = false;
            for (unsigned e = 0; excl && excl[e]; e++)
                skip |= g_pattern_match_simple(excl[e], all[i]->name);
            bool dup = false;
            for (guint s = 0; s < sel->len; s++)
                dup |= g_ptr_array_index(sel, s) == all[i];
            if (!skip && !dup)
                g_ptr_array_add(sel, (gpointer)all[i]);
        }
        if (!hits)
            ok = sweep_perr(p, "experiment", "benchmarks",
                      "unknown benchmark '%s' (see 'ptxemu bench list')", pats[k]);
    }
    if (ok && sel->len == 0)
        ok = sweep_perr(p, "experiment", "exclude", "no benchmark left after 'exclude'");
    g_strfreev(pats);
    g_strfreev(excl);
    if (!ok) {
        g_ptr_array_free(sel, TRUE);
        return NULL;
    }
    return sel;
}

static bool read_text(parse_ctx *p, const char *group, const char *key, const char *file,
                      char **out)
{
    GError *e = NULL;
    if (!g_file_get_contents(file, out, NULL, &e)) {
        sweep_perr(p, group, key, "%s", e->message);
        g_error_free(e);
        return false;
    }
    return true;
}

static bool read_settings(parse_ctx *p, sweep_spec *s)
{
    char *v = sweep_get_str(p, "experiment", "timeout");
    s->timeout_s = 900;
    if (v) {
        char *end;
        s->timeout_s = g_ascii_strtod(v, &end);
        bool bad = *end || s->timeout_s <= 0;
        g_free(v);
        if (bad)
            return sweep_perr(p, "experiment", "timeout", "want a positive number of seconds");
    }
    s->name = sweep_get_str(p, "experiment", "name");
    if (!s->name)
        s->name = g_path_get_basename(s->path);
    s->description = sweep_get_str(p, "experiment", "description");
    s->paper = sweep_get_str(p, "paper", "comparison");
    s->expect = sweep_get_str(p, "paper", "expect");
    char **claims = s->expect ? g_strsplit_set(s->expect, ";", -1) : NULL;
    bool ok = true;
    for (unsigned c = 0; claims && claims[c] && ok; c++) {
        char *colon = strchr(claims[c], ':');
        if (!g_strstrip(claims[c])[0])
            continue;
        if (!colon || !strchr(claims[c], '>') || strchr(claims[c], '>') > colon) {
            ok = sweep_perr(p, "paper", "expect", "want 'A > B: benchmark, ...; ...'");
            break;
        }
        char **names = g_strsplit(colon + 1, ",", -1);
        for (unsigned k = 0; names[k] && ok; k++)
            if (*g_strstrip(names[k]) && !bench_find(names[k]))
                ok = sweep_perr(p, "paper", "expect", "unknown benchmark '%s'", names[k]);
        g_strfreev(names);
    }
    g_strfreev(claims);
    if (!ok)
        return false;
    s->baseline = sweep_get_str(p, "summary", "baseline");
    s->metrics = sweep_get_list(p, "summary", "metrics");
    if (!s->metrics)
        s->metrics = g_strsplit("total.cycles,total.ipc", ",", -1);
    s->bars_metric = sweep_get_str(p, "plot", "bars");
    s->line_key = sweep_get_str(p, "plot", "line_key");
    s->line_metric = sweep_get_str(p, "plot", "line_metric");
    if (!s->bars_metric)
        s->bars_metric = g_strdup("speedup");
    if (!s->line_metric)
        s->line_metric = g_strdup("total.ipc");
    if (!s->line_key && s->swept_keys->len)
        s->line_key = g_strdup(g_ptr_array_index(s->swept_keys, 0));
    return true;
}

static void add_job(sweep_spec *s, const bench_def *b, const char *size, uint64_t seed,
                    unsigned rep, const char *config, char **sets, const char *variant,
                    const char *cfg_bytes, const char *ptx)
{
    sweep_job *j = g_new0(sweep_job, 1);
    j->index = s->jobs->len;
    j->bench = b;
    j->size = g_strdup(size);
    j->seed = seed;
    j->rep = rep;
    j->mode = config ? SWEEP_TIMING : SWEEP_FUNCTIONAL;
    j->config = g_strdup(config);
    j->sets = g_strdupv(sets);
    j->variant = g_strdup(variant);
    job_identity(j, cfg_bytes, ptx);
    g_ptr_array_add(s->jobs, j);
}

static bool expand(parse_ctx *p, sweep_spec *s, GPtrArray *benches, GPtrArray *combos)
{
    char **sizes = sweep_get_list(p, "experiment", "sizes");
    char **configs = sweep_get_list(p, "experiment", "configs");
    bool ok = true, functional = false;
    int reps = 1;
    GError *e = NULL;
    if (g_key_file_has_key(p->kf, "experiment", "functional", NULL)) {
        functional = g_key_file_get_boolean(p->kf, "experiment", "functional", &e);
        if (e) {
            g_clear_error(&e);
            ok = sweep_perr(p, "experiment", "functional", "want true or false");
        }
    }
    if (ok && g_key_file_has_key(p->kf, "experiment", "repetitions", NULL)) {
        reps = g_key_file_get_integer(p->kf, "experiment", "repetitions", &e);
        if (e) {
            g_clear_error(&e);
            reps = 0;
        }
    }
    char *exp_dir = g_path_get_dirname(s->path);
    if (!sizes)
        sizes = g_strsplit("small", ",", -1);
    if (!configs)
        configs = g_strsplit("gtx480", ",", -1);
    for (unsigned i = 0; sizes[i] && ok; i++) {
        bench_size bs;
        if (!bench_parse_size(sizes[i], &bs))
            ok = sweep_perr(p, "experiment", "sizes", "unknown size '%s' (tiny, small, paper, claso, thesis)", sizes[i]);
    }
    if (ok && (reps < 1 || reps > 1000))
        ok = sweep_perr(p, "experiment", "repetitions", "want a whole number from 1 to 1000");
    if (ok && (!sizes[0] || !configs[0]))
        ok = sweep_perr(p, "experiment", !sizes[0] ? "sizes" : "configs", "empty list: no jobs");
    for (guint k = 0; k < combos->len && ok; k++) {
        g_autofree char *pin = g_strconcat("config=", sweep_combo_config(g_ptr_array_index(combos, k)),
                                           NULL);
        if (pin[7] && !g_strv_contains((const char *const *)configs, pin + 7))
            ok = sweep_perr(p, "variants", sweep_variant_setting(p, pin),
                      "%s is not one of [experiment] configs", pin);
    }
    /* config bytes and validity of every variant, before any job exists */
    GPtrArray *cfg_bytes = g_ptr_array_new_with_free_func(g_free);
    /* what a job passes to --config: a preset's name, or a file's absolute
     * path (files are relative to the experiment file, not the cwd) */
    GPtrArray *cfg_arg = g_ptr_array_new_with_free_func(g_free);
    for (unsigned c = 0; configs[c] && ok; c++) {
        char *file = config_file(configs[c], exp_dir), *bytes = NULL;
        bool is_file = strchr(configs[c], '/') || g_str_has_suffix(configs[c], ".ini");
        if (is_file && !g_path_is_absolute(file)) {
            char *cwd = g_get_current_dir();
            g_ptr_array_add(cfg_arg, g_build_filename(cwd, file, NULL));
            g_free(cwd);
        } else {
            g_ptr_array_add(cfg_arg, g_strdup(is_file ? file : configs[c]));
        }
        if (!g_file_test(file, G_FILE_TEST_IS_REGULAR))
            ok = sweep_perr(p, "experiment", "configs", "unknown config '%s' (no preset or file %s)",
                      configs[c], file);
        else if (read_text(p, "experiment", "configs", file, &bytes))
            g_ptr_array_add(cfg_bytes, bytes);
        else
            ok = false;
        for (guint k = 0; k < combos->len && ok; k++) {
            char *msg = NULL;
            const char *pin = sweep_combo_config(g_ptr_array_index(combos, k));
            if (pin && strcmp(pin, configs[c]))
                continue;
            g_auto(GStrv) sets = sweep_combo_sets(g_ptr_array_index(combos, k));
            if (!check_variant(file, sets, &msg)) {
                /* name the line of the key the message mentions, if any */
                const char *key = NULL, *group = "overrides";
                for (unsigned i = 0; sets[i] && !key; i++) {
                    char *k2 = g_strndup(sets[i], strcspn(sets[i], "="));
                    if (strstr(msg, k2)) {
                        key = g_intern_string(k2);
                        if (!g_key_file_has_key(p->kf, "overrides", key, NULL)) {
                            group = "variants"; /* the variant that sets it */
                            key = sweep_variant_setting(p, sets[i]);
                        }
                    }
                    g_free(k2);
                }
                ok = sweep_perr(p, key ? group : "experiment", key ? key : "configs",
                          "config %s: %s", configs[c], msg);
            }
            g_free(msg);
        }
        g_free(file);
    }
    for (unsigned bi = 0; bi < benches->len && ok; bi++) {
        const bench_def *b = g_ptr_array_index(benches, bi);
        char *ptxf = bench_ptx_path(b), *ptx = NULL;
        ok = read_text(p, "experiment", "benchmarks", ptxf, &ptx);
        g_free(ptxf);
        for (unsigned si = 0; sizes[si] && ok; si++) {
            bench_size bs = BENCH_SMALL;
            bench_parse_size(sizes[si], &bs);
            if (!bench_has_size(b, bs))
                ok = sweep_perr(p, "experiment", "sizes", "benchmark %s has no input for size %s",
                          b->name, sizes[si]);
            for (int r = 1; r <= reps && ok; r++) {
                if (functional)
                    add_job(s, b, sizes[si], (uint64_t)r, (unsigned)r, NULL, NULL, "functional",
                            NULL, ptx);
                for (unsigned c = 0; configs[c]; c++)
                    for (guint k = 0; k < combos->len; k++) {
                        const char *pin = sweep_combo_config(g_ptr_array_index(combos, k));
                        if (pin && strcmp(pin, configs[c]))
                            continue;
                        g_auto(GStrv) sets = sweep_combo_sets(g_ptr_array_index(combos, k));
                        char *joined = g_strjoinv(" ", sets);
                        char *label = g_strdup_printf("%s%s%s", configs[c], *joined ? " " : "",
                                                      joined);
                        add_job(s, b, sizes[si], (uint64_t)r, (unsigned)r,
                                g_ptr_array_index(cfg_arg, c), sets,
                                label, g_ptr_array_index(cfg_bytes, c), ptx);
                        bool seen = false;
                        for (guint v = 0; v < s->variants->len; v++)
                            seen |= !strcmp(g_ptr_array_index(s->variants, v), label);
                        if (!seen)
                            g_ptr_array_add(s->variants, label);
                        else
                            g_free(label);
                        g_free(joined);
                    }
            }
        }
        g_free(ptx);
    }
    g_ptr_array_free(cfg_bytes, TRUE);
    g_ptr_array_free(cfg_arg, TRUE);
    g_strfreev(sizes);
    g_strfreev(configs);
    g_free(exp_dir);
    return ok;
}

/* The baseline names a variant by (a subset of) its words. */
static bool resolve_baseline(parse_ctx *p, sweep_spec *s)
{
    if (!s->baseline)
        return true;
    char **words = g_strsplit_set(s->baseline, " \t", -1);
    const char *match = NULL;
    unsigned matches = 0;
    for (guint v = 0; v < s->variants->len; v++) {
        const char *label = g_ptr_array_index(s->variants, v);
        char **lw = g_strsplit(label, " ", -1);
        bool all = true;
        for (unsigned w = 0; words[w]; w++)
            all &= !*words[w] || g_strv_contains((const char *const *)lw, words[w]);
        g_strfreev(lw);
        if (all) {
            matches++;
            match = match ? match : label;
        }
    }
    g_strfreev(words);
    if (matches == 0)
        return sweep_perr(p, "summary", "baseline", "'%s' matches no variant", s->baseline);
    g_free(s->baseline);
    s->baseline = g_strdup(match);
    return true;
}

sweep_spec *sweep_spec_load(const char *path, GError **error)
{
    sweep_spec *s = g_new0(sweep_spec, 1);
    s->path = g_strdup(path);
    s->jobs = g_ptr_array_new_with_free_func(job_free);
    s->variants = g_ptr_array_new_with_free_func(g_free);
    s->swept_keys = g_ptr_array_new_with_free_func(g_free);
    char *text = NULL;
    GKeyFile *kf = g_key_file_new();
    parse_ctx p = {path, NULL, kf, error};
    bool ok = g_file_get_contents(path, &text, NULL, error);
    p.text = text;
    if (ok && !sweep_lint(p.path, p.text, p.error))
        ok = false;
    else if (ok && !g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, error)) {
        g_prefix_error(error, "%s: ", path);
        ok = false;
    }
    if (ok && !g_key_file_has_group(kf, "experiment")) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:1: no [experiment] group", path);
        ok = false;
    }
    GPtrArray *benches = ok ? select_benchmarks(&p) : NULL;
    GPtrArray *combos = benches ? sweep_with_variants(&p, s, sweep_override_combos(&p, s)) : NULL;
    ok = combos && read_settings(&p, s) && expand(&p, s, benches, combos) && resolve_baseline(&p, s);
    if (ok && s->jobs->len == 0) {
        sweep_perr(&p, "experiment", NULL, "the cross product is empty: no jobs");
        ok = false;
    }
    if (benches)
        g_ptr_array_free(benches, TRUE);
    if (combos)
        g_ptr_array_free(combos, TRUE);
    g_key_file_free(kf);
    g_free(text);
    if (!ok) {
        sweep_spec_free(s);
        return NULL;
    }
    return s;
}
