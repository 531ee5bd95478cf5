/* tools/sweep_lint.c — checks an experiment file's shape line by line
 * before GKeyFile reads it (tools/sweep_spec.c): GKeyFile keeps no line
 * numbers and quietly accepts a repeated key or group and unknown names,
 * so those, and syntax errors, are found here with their line. */
#include "tools/sweep.h"

#include <string.h>

/* The groups of an experiment file and, for the fixed ones, their keys
 * (docs/experiments.md).  [overrides], [overrides.NAME] and [variants]
 * take any key (checked against the timing model later); [pairs] belongs
 * to scripts/interleaved_report.py and is not read here. */
static const char *const experiment_keys[] = {"name", "description", "benchmarks", "exclude",
                                              "sizes", "configs", "repetitions", "functional",
                                              "timeout", NULL};
static const char *const summary_keys[] = {"baseline", "metrics", NULL};
static const char *const plot_keys[] = {"bars", "line_key", "line_metric", NULL};
static const char *const paper_keys[] = {"comparison", "expect", NULL};

/* The known keys of `group`; NULL for a group with free keys.  *known
 * is false for an unknown group. */
static const char *const *group_keys(const char *group, bool *known)
{
    *known = true;
    if (!strcmp(group, "experiment"))
        return experiment_keys;
    if (!strcmp(group, "summary"))
        return summary_keys;
    if (!strcmp(group, "plot"))
        return plot_keys;
    if (!strcmp(group, "paper"))
        return paper_keys;
    if (!strcmp(group, "overrides") || !strcmp(group, "variants") || !strcmp(group, "pairs") ||
        (g_str_has_prefix(group, "overrides.") && group[10]))
        return NULL;
    *known = false;
    return NULL;
}

/* Edit distance of two short names (for "did you mean"). */
static unsigned edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    unsigned row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

typedef struct lint_ctx {
    const char *path;
    const char *text;
    GError **error;
} lint_ctx;

G_GNUC_PRINTF(4, 5)
static bool lerr(lint_ctx *p, unsigned line, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(p->error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s%s%s", p->path, line,
                where ? where : "", where ? ": " : "", msg);
    g_free(msg);
    return false;
}

/* Checks the file's shape before GKeyFile reads it, since GKeyFile keeps
 * no line numbers and accepts what an experiment must not: a key set
 * twice (the last silently wins), a group written twice (merged), an
 * unknown group or key (ignored).  Syntax errors get their line here. */
bool sweep_lint(const char *path, const char *text, GError **error)
{
    lint_ctx ctx = {path, text, error}, *p = &ctx;
    char **lines = g_strsplit(p->text, "\n", -1);
    GHashTable *groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTable *keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char *group = NULL;
    const char *const *allowed = NULL;
    bool ok = true;
    for (unsigned i = 0; lines[i] && ok; i++) {
        unsigned ln = i + 1;
        if (!g_utf8_validate(lines[i], -1, NULL)) {
            ok = lerr(p, ln, NULL, "the line is not valid UTF-8");
            break;
        }
        char *l = g_strstrip(lines[i]);
        if (!*l || *l == '#')
            continue;
        if (*l == '[') {
            size_t n = strlen(l);
            char *name = g_strndup(l + 1, n >= 2 ? n - 2 : 0);
            bool known;
            if (l[n - 1] != ']' || n < 3 || strpbrk(name, "[]")) {
                ok = lerr(p, ln, NULL, "syntax error: '%.64s' is not a [group] header", l);
            } else if (g_hash_table_contains(groups, name)) {
                ok = lerr(p, ln, NULL, "[%s] again (first at line %u): write each group once",
                          name, GPOINTER_TO_UINT(g_hash_table_lookup(groups, name)));
            } else {
                allowed = group_keys(name, &known);
                if (!known)
                    ok = lerr(p, ln, NULL, "unknown group [%.64s] (want experiment, overrides, "
                              "overrides.NAME, variants, summary, plot or paper)", name);
            }
            if (ok) {
                g_hash_table_insert(groups, g_strdup(name), GUINT_TO_POINTER(ln));
                g_free(group);
                group = g_strdup(name);
            }
            g_free(name);
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq) {
            ok = lerr(p, ln, NULL,
                      "syntax error: '%.64s' is not 'key = value', a [group] or a # comment", l);
            break;
        }
        *eq = '\0';
        char *key = g_strstrip(l);
        if (!*key) {
            ok = lerr(p, ln, NULL, "syntax error: a value without a key");
            break;
        }
        if (!group) {
            ok = lerr(p, ln, NULL, "'%.64s' is outside any group (start with [experiment])", key);
            break;
        }
        char *gk = g_strconcat(group, "\n", key, NULL);
        unsigned first = GPOINTER_TO_UINT(g_hash_table_lookup(keys, gk));
        if (first) {
            ok = lerr(p, ln, NULL, "[%s] %.64s: set again (first at line %u); each key is set once",
                      group, key, first);
            g_free(gk);
        } else {
            g_hash_table_insert(keys, gk, GUINT_TO_POINTER(ln));
        }
        if (ok && allowed && !g_strv_contains(allowed, key)) {
            const char *near = NULL;
            unsigned best = 3;
            for (unsigned k = 0; allowed[k]; k++) {
                unsigned d = edit_distance(key, allowed[k]);
                if (d < best) {
                    best = d;
                    near = allowed[k];
                }
            }
            char *all = g_strjoinv(", ", (char **)allowed);
            char *hint = near ? g_strdup_printf("did you mean '%s'? ", near) : g_strdup("");
            ok = lerr(p, ln, NULL, "[%s] unknown key '%.64s' (%sthe keys of [%s]: %s)", group,
                      key, hint, group, all);
            g_free(hint);
            g_free(all);
        }
    }
    g_free(group);
    g_hash_table_destroy(groups);
    g_hash_table_destroy(keys);
    g_strfreev(lines);
    return ok;
}

