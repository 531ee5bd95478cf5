/* tools/sweep_variants.c — an experiment file's [overrides] groups expanded
 * into variants: integer ranges, the cross product of each group's keys, a
 * config named inside a variant (config=NAME), and the [variants] keys
 * (docs/experiments.md).  The file's reading and checking are
 * tools/sweep_spec.c; errors go through its sweep_perr. */
#include "tools/sweep.h"
#include "tools/sweep_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "a..b" or "a..b:step" (integers) expanded into `out`; false = not a range. */
static bool expand_range(parse_ctx *p, const char *group, const char *key, const char *v,
                         GPtrArray *out, bool *bad)
{
    const char *dots = strstr(v, "..");
    *bad = false;
    if (!dots)
        return false;
    char *end;
    long long a, b, step = 1;
    errno = 0;
    a = strtoll(v, &end, 10);
    if (end != dots || end == v)
        goto bad;
    b = strtoll(dots + 2, &end, 10);
    if (end == dots + 2)
        goto bad;
    if (*end == ':') {
        const char *s = end + 1;
        step = strtoll(s, &end, 10);
        if (end == s)
            goto bad;
    }
    if (errno == ERANGE) {
        *bad = true;
        sweep_perr(p, group, key, "range '%s': a bound is beyond 64-bit integers", v);
        return true;
    }
    if (*end || step <= 0 || a > b)
        goto bad;
    /* b - a fits in 64 unsigned bits whatever the signs */
    unsigned long long count = ((unsigned long long)b - (unsigned long long)a) /
                                   (unsigned long long)step + 1;
    if (count > SWEEP_MAX_RANGE) {
        *bad = true;
        sweep_perr(p, group, key, "range '%s' has %llu values; at most %d per range (a larger "
             "STEP, or fewer values)", v, count, SWEEP_MAX_RANGE);
        return true;
    }
    for (unsigned long long i = 0; i < count; i++)
        g_ptr_array_add(out, g_strdup_printf("%s=%lld", key,
                                             (long long)((unsigned long long)a +
                                                         i * (unsigned long long)step)));
    return true;
bad:
    *bad = true;
    sweep_perr(p, group, key, "bad range '%s' (want FIRST..LAST or FIRST..LAST:STEP, "
         "integers, FIRST <= LAST, STEP > 0)", v);
    return true;
}

/* Each key of the overrides group `group` expanded into its "key=value"
 * choices; `keys` gets the key names in document order. */
static GPtrArray *override_axes(parse_ctx *p, const char *group, char ***keys_out)
{
    GPtrArray *axes = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    *keys_out = NULL;
    if (!g_key_file_has_group(p->kf, group))
        return axes;
    gsize nk;
    char **keys = g_key_file_get_keys(p->kf, group, &nk, NULL);
    bool ok = true;
    for (gsize k = 0; k < nk && ok; k++) {
        if (!strchr(keys[k], '.') || keys[k][0] == '.') {
            ok = sweep_perr(p, group, keys[k], "a key is group.name (e.g. warp.policy)");
            break;
        }
        char **vals = sweep_get_list(p, group, keys[k]);
        GPtrArray *axis = g_ptr_array_new_with_free_func(g_free);
        for (unsigned v = 0; vals[v] && ok; v++) {
            bool bad;
            if (!expand_range(p, group, keys[k], vals[v], axis, &bad))
                g_ptr_array_add(axis, g_strdup_printf("%s=%s", keys[k], vals[v]));
            ok = !bad;
        }
        g_strfreev(vals);
        if (ok && axis->len == 0)
            ok = sweep_perr(p, group, keys[k], "no values: the cross product is empty");
        g_ptr_array_add(axes, axis);
    }
    unsigned long long combos = 1;
    for (guint a = 0; a < axes->len && ok; a++) {
        combos *= ((GPtrArray *)g_ptr_array_index(axes, a))->len;
        if (combos > SWEEP_MAX_VARIANTS)
            ok = sweep_perr(p, group, NULL, "more than %d combinations of override values: the "
                      "cross product is too large", SWEEP_MAX_VARIANTS);
    }
    if (!ok) {
        g_strfreev(keys);
        g_ptr_array_free(axes, TRUE);
        return NULL;
    }
    *keys_out = keys;
    return axes;
}

/* Every combination of one choice per axis, each a NULL-terminated strv. */
static GPtrArray *cross(GPtrArray *axes)
{
    GPtrArray *combos = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    unsigned n = axes->len, *pos = g_new0(unsigned, n + 1);
    for (;;) {
        char **c = g_new0(char *, n + 1);
        for (unsigned a = 0; a < n; a++)
            c[a] = g_strdup(g_ptr_array_index((GPtrArray *)g_ptr_array_index(axes, a), pos[a]));
        g_ptr_array_add(combos, c);
        unsigned a = n;
        while (a > 0) {
            a--;
            GPtrArray *ax = g_ptr_array_index(axes, a);
            if (++pos[a] < ax->len)
                break;
            pos[a] = 0;
            if (a == 0) {
                a = n + 1;
                break;
            }
        }
        if (a == n + 1 || n == 0)
            break;
    }
    g_free(pos);
    return combos;
}

/* The variants' override combinations: the cross product of [overrides]
 * and, after it, of each [overrides.NAME] group (same keys, same order, so
 * every variant label has the same shape), a combination listed once.
 * A key is swept when the union gives it more than one value. */
GPtrArray *sweep_override_combos(parse_ctx *p, sweep_spec *s)
{
    char **keys = NULL;
    GPtrArray *axes = override_axes(p, "overrides", &keys);
    if (!axes)
        return NULL;
    GPtrArray *combos = cross(axes);
    g_ptr_array_free(axes, TRUE);
    gsize ng;
    char **groups = g_key_file_get_groups(p->kf, &ng);
    bool ok = true;
    for (gsize g = 0; g < ng && ok; g++) {
        if (!g_str_has_prefix(groups[g], "overrides.") || !groups[g][10])
            continue;
        if (!keys) {
            ok = sweep_perr(p, groups[g], NULL, "an [overrides.NAME] group needs an [overrides] group");
            break;
        }
        char **gkeys = NULL;
        GPtrArray *gaxes = override_axes(p, groups[g], &gkeys);
        if (!gaxes) {
            ok = false;
            break;
        }
        bool same = g_strv_length(gkeys) == g_strv_length(keys);
        for (unsigned k = 0; same && keys[k]; k++)
            same = !strcmp(keys[k], gkeys[k]);
        if (!same) {
            char *want = g_strjoinv(", ", keys);
            ok = sweep_perr(p, groups[g], NULL, "names other keys than [overrides]; want %s in that order",
                      want);
            g_free(want);
        }
        GPtrArray *more = ok ? cross(gaxes) : NULL;
        for (guint c = 0; more && c < more->len; c++) {
            char **m = g_ptr_array_index(more, c);
            bool dup = false;
            for (guint d = 0; d < combos->len && !dup; d++)
                dup = g_strv_equal((const char *const *)m,
                                   (const char *const *)g_ptr_array_index(combos, d));
            if (!dup)
                g_ptr_array_add(combos, g_strdupv(m));
        }
        if (more)
            g_ptr_array_free(more, TRUE);
        g_ptr_array_free(gaxes, TRUE);
        g_strfreev(gkeys);
    }
    g_strfreev(groups);
    for (unsigned k = 0; ok && keys && keys[k]; k++) {
        GHashTable *vals = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint c = 0; c < combos->len; c++)
            g_hash_table_add(vals, ((char **)g_ptr_array_index(combos, c))[k]);
        if (g_hash_table_size(vals) > 1)
            g_ptr_array_add(s->swept_keys, g_strdup(keys[k]));
        g_hash_table_destroy(vals);
    }
    g_strfreev(keys);
    if (!ok) {
        g_ptr_array_free(combos, TRUE);
        return NULL;
    }
    return combos;
}

/* [variants]: named override sets ("DB+ICC = cta.policy=distributed-block
 * icc.mode=icc"), for experiments whose variants are not a cross product.
 * Each is appended to every [overrides] combination; a set may pin its
 * config with config=NAME (one of [experiment] configs), and then runs on
 * that config only.  Takes `combos` and returns the combined list. */
GPtrArray *sweep_with_variants(parse_ctx *p, sweep_spec *s, GPtrArray *combos)
{
    if (!g_key_file_has_group(p->kf, "variants"))
        return combos;
    gsize nk;
    char **names = g_key_file_get_keys(p->kf, "variants", &nk, NULL);
    GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    bool ok = nk > 0;
    if (!ok)
        sweep_perr(p, "variants", NULL, "no variants: the cross product is empty");
    for (gsize k = 0; k < nk && ok; k++) {
        char *raw = sweep_get_str(p, "variants", names[k]);
        char **toks = g_strsplit_set(raw, " \t", -1);
        GPtrArray *set = g_ptr_array_new();
        for (unsigned t = 0; toks[t] && ok; t++) {
            if (!*toks[t])
                continue;
            const char *eq = strchr(toks[t], '=');
            char *key = eq ? g_strndup(toks[t], (gsize)(eq - toks[t])) : NULL;
            if (!eq || !eq[1] || (strcmp(key, "config") && (!strchr(key, '.') || key[0] == '.')))
                ok = sweep_perr(p, "variants", names[k],
                          "'%s': want group.key=value or config=NAME", toks[t]);
            else if (strcmp(key, "config") &&
                     !g_ptr_array_find_with_equal_func(s->swept_keys, key, g_str_equal, NULL))
                g_ptr_array_add(s->swept_keys, g_strdup(key));
            g_free(key);
            g_ptr_array_add(set, toks[t]);
        }
        if (ok && set->len == 0)
            ok = sweep_perr(p, "variants", names[k], "no settings");
        for (guint c = 0; c < combos->len && ok; c++) {
            char **base = g_ptr_array_index(combos, c);
            GPtrArray *all = g_ptr_array_new();
            for (unsigned i = 0; base[i]; i++)
                g_ptr_array_add(all, g_strdup(base[i]));
            for (guint i = 0; i < set->len; i++)
                if (*(char *)g_ptr_array_index(set, i))
                    g_ptr_array_add(all, g_strdup(g_ptr_array_index(set, i)));
            g_ptr_array_add(all, NULL);
            g_ptr_array_add(out, g_ptr_array_free(all, FALSE));
        }
        g_ptr_array_free(set, TRUE);
        g_strfreev(toks);
        g_free(raw);
    }
    g_strfreev(names);
    g_ptr_array_free(combos, TRUE);
    if (!ok) {
        g_ptr_array_free(out, TRUE);
        return NULL;
    }
    return out;
}

/* The name of the first variant with the setting `kv` (interned), or NULL. */
const char *sweep_variant_setting(parse_ctx *p, const char *kv)
{
    gsize nk;
    char **names = g_key_file_get_keys(p->kf, "variants", &nk, NULL);
    const char *found = NULL;
    for (gsize k = 0; k < nk && !found; k++) {
        char *raw = sweep_get_str(p, "variants", names[k]);
        char **toks = g_strsplit_set(raw ? raw : "", " \t", -1);
        if (g_strv_contains((const char *const *)toks, kv))
            found = g_intern_string(names[k]);
        g_strfreev(toks);
        g_free(raw);
    }
    g_strfreev(names);
    return found;
}

/* The config a combination pins (config=NAME), or NULL. */
const char *sweep_combo_config(char **sets)
{
    for (unsigned i = 0; sets[i]; i++)
        if (g_str_has_prefix(sets[i], "config="))
            return sets[i] + 7;
    return NULL;
}

/* The combination's settings without its config=NAME (g_strfreev). */
char **sweep_combo_sets(char **sets)
{
    GPtrArray *o = g_ptr_array_new();
    for (unsigned i = 0; sets[i]; i++)
        if (!g_str_has_prefix(sets[i], "config="))
            g_ptr_array_add(o, g_strdup(sets[i]));
    g_ptr_array_add(o, NULL);
    return (char **)g_ptr_array_free(o, FALSE);
}
