/* timing/config.c — the key table of timing/config.h put to work: defaults,
 * INI loading with one clear message per error, --set overrides and
 * cross-key checks.  Writing configs back out and the Markdown key
 * reference are in config_write.c. */
#include "timing/config_internal.h"
#include "timing/config_paths.h" /* PTXEMU_CONFIG_DIR, from timing/meson.build */
#include "sched/kernel/caps.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ names */

#define NAME(e, s) s,
const char *const gpu_write_policy_names[] = {GPU_WRITE_POLICIES(NAME) NULL};
const char *const gpu_replacement_names[] = {GPU_REPLACEMENTS(NAME) NULL};
const char *const gpu_dram_scheduler_names[] = {GPU_DRAM_SCHEDULERS(NAME) NULL};
const char *const gpu_set_index_names[] = {GPU_SET_INDEXES(NAME) NULL};
const char *const gpu_icc_mode_names[] = {GPU_ICC_MODES(NAME) NULL};
const char *const gpu_cdp_mode_names[] = {GPU_CDP_MODES(NAME) NULL};
const char *const gpu_its_mode_names[] = {GPU_ITS_MODES(NAME) NULL};
const char *const gpu_sample_mode_names[] = {GPU_SAMPLE_MODES(NAME) NULL};
#undef NAME

/* ------------------------------------------------------------ the table */

#define DEFV_U32(d) (double)(d), NULL
#define DEFV_SIZE(d) (double)(d), NULL
#define DEFV_DBL(d) (double)(d), NULL
#define DEFV_BOOL(d) (double)(d), NULL
#define DEFV_ENUM(d) (double)(d), NULL
#define DEFV_LIST(d) (double)(d), NULL
#define DEFV_STR(d) 0.0, (d)
#define ROW(g, n, KIND, d, lo, hi, fl, unit, names, doc)                     \
    {#g, #n, GPU_KIND_##KIND, offsetof(gpu_config, g.n), DEFV_##KIND(d),     \
     (double)(lo), (double)(hi), (fl), (unit), (names), (doc)},
#define GROUP_ROWS(g) GPU_CFG_##g(ROW)
#define LAT_ROW(e, k, d)                                                     \
    {"latency", k, GPU_KIND_U32,                                             \
     offsetof(gpu_config, latency.cycles[PTX_LAT_##e]), (double)(d), NULL,   \
     1, 100000, 0, "core cycles", NULL,                                      \
     "Issue-to-result latency of the " k " class"},
/* No seed gives initiation intervals: the dividers (the classes whose
 * latency is 32 cycles or more, but not mma, whose throughput is
 * units.tensor) are taken as unpipelined for 8 cycles. */
#define II_ROW(e, k, d)                                                      \
    {"initiation", k, GPU_KIND_U32,                                          \
     offsetof(gpu_config, initiation.cycles[PTX_LAT_##e]),                   \
     (d) >= 32 && PTX_LAT_##e != PTX_LAT_MMA ? 8.0 : 1.0, NULL, 1, 10000, 0, \
     "core cycles", NULL,                                                    \
     "Cycles a unit is busy with one warp instruction of the " k " class"},

/* A policy's own keys (sched/policies.def), in the section of its name. */
#define SCHED_POLICY(lv, id, name, ops)
#define SCHED_PLANNED(lv, name, where)
#define SCHED_KEY(id, name, key, KIND, d, lo, hi, unit, doc)                 \
    {name, #key, GPU_KIND_##KIND, offsetof(gpu_config, policy.id##_##key),   \
     DEFV_##KIND(d), (double)(lo), (double)(hi), 0, (unit), NULL, (doc)},

static const gpu_config_key key_table[] = {
    GPU_CONFIG_GROUPS_A(GROUP_ROWS)
    PTX_LATENCY_CLASSES(LAT_ROW)
    PTX_LATENCY_CLASSES(II_ROW)
    GPU_CONFIG_GROUPS_B(GROUP_ROWS)
#include "sched/policies.def"
};
#undef SCHED_POLICY
#undef SCHED_PLANNED
#undef SCHED_KEY
#define N_KEYS (sizeof key_table / sizeof key_table[0])

const gpu_config_key *gpu_config_keys(size_t *count)
{
    if (count)
        *count = N_KEYS;
    return key_table;
}

const gpu_config_key *gpu_config_find_key(const char *group, const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(key_table[i].group, group) == 0 &&
            strcmp(key_table[i].name, name) == 0)
            return &key_table[i];
    return NULL;
}

static bool group_exists(const char *group)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(key_table[i].group, group) == 0)
            return true;
    return false;
}

G_DEFINE_QUARK(ptxemu-gpu-config-error-quark, gpu_config_error)

/* ------------------------------------------------------------ fields */

static void *field(gpu_config *c, const gpu_config_key *k)
{
    return (char *)c + k->offset;
}

static void set_default(gpu_config *c, const gpu_config_key *k)
{
    void *p = field(c, k);
    switch (k->kind) {
    case GPU_KIND_U32: *(uint32_t *)p = (uint32_t)k->def; break;
    case GPU_KIND_SIZE: *(uint64_t *)p = (uint64_t)k->def; break;
    case GPU_KIND_DBL: *(double *)p = k->def; break;
    case GPU_KIND_BOOL: *(bool *)p = k->def != 0; break;
    case GPU_KIND_ENUM: *(int32_t *)p = (int32_t)k->def; break;
    case GPU_KIND_LIST: memset(p, 0, sizeof(gpu_name_list)); break;
    case GPU_KIND_STR:
        memset(p, 0, GPU_CONFIG_STR_LEN);
        g_strlcpy(p, k->sdef, GPU_CONFIG_STR_LEN);
        break;
    }
}

void gpu_config_defaults(gpu_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < N_KEYS; i++)
        set_default(cfg, &key_table[i]);
}

const char *gpu_config_choice_name(const char *const *names, int32_t v)
{
    for (int32_t i = 0; names[i]; i++)
        if (i == v)
            return names[i];
    return "?";
}

/* The registered policy of `level` at choice index i. */
static const sched_hooks *policy_at(sched_level level, int32_t i)
{
    uint32_t n;
    const sched_policy *p = sched_policies(level, &n);
    return i >= 0 && (uint32_t)i < n ? p[i].hooks : NULL;
}

void gpu_config_policies(const gpu_config *c, sched_selection *out)
{
    memset(out, 0, sizeof *out);
    out->kernel = (const sched_kernel_ops *)policy_at(SCHED_LEVEL_KERNEL, c->kernel.policy);
    out->cta = (const sched_cta_ops *)policy_at(SCHED_LEVEL_CTA, c->cta.policy);
    for (unsigned i = 0; i < c->cta.filters.count; i++)
        out->filters[out->nfilters++] =
            (const sched_filter_ops *)policy_at(SCHED_LEVEL_FILTER, c->cta.filters.items[i]);
    out->warp = (const sched_warp_ops *)policy_at(SCHED_LEVEL_WARP, c->warp.policy);
    out->backoff = (const sched_backoff_ops *)policy_at(SCHED_LEVEL_BACKOFF, c->spin.policy);
    out->fetch = (const sched_fetch_ops *)policy_at(SCHED_LEVEL_FETCH, c->fetch.policy);
    out->l1 = (const sched_l1_ops *)policy_at(SCHED_LEVEL_L1, c->l1d.policy);
}

/* The scheduling level whose policies are the choices `names`, or
 * SCHED_LEVEL_COUNT for other choice lists. */
static sched_level names_level(const char *const *names)
{
    for (unsigned l = 0; l < SCHED_LEVEL_COUNT; l++)
        if (names == sched_policy_names((sched_level)l))
            return (sched_level)l;
    return SCHED_LEVEL_COUNT;
}

/* "tl-rr is planned (issue 11: ...), not implemented yet; " for a planned
 * policy name, else nothing. */
static void append_planned(GString *why, const gpu_config_key *k, const char *item)
{
    sched_level l = names_level(k->names);
    const char *where = l < SCHED_LEVEL_COUNT ? sched_planned_where(l, item) : NULL;
    if (where)
        g_string_append_printf(why, "'%s' is planned (%s), not implemented yet; ", item, where);
}

/* ------------------------------------------------------------ parsing */

/* Why text is not a valid value of k, or NULL after storing it in *dst
 * (which is written only on success). */
static char *parse_value(const gpu_config_key *k, const char *text, void *dst,
                         gpu_config_error *code)
{
    char *t = g_strstrip(g_strdup(text));
    GString *why = g_string_new(NULL);
    *code = GPU_CONFIG_ERROR_BAD_VALUE;
    switch (k->kind) {
    case GPU_KIND_U32: case GPU_KIND_SIZE: {
        const char *digits = t[0] == '-' ? t + 1 : t;
        char *end = NULL;
        errno = 0;
        guint64 v = g_ascii_isdigit(digits[0]) ? g_ascii_strtoull(digits, &end, 10) : 0;
        bool overflow = errno == ERANGE;
        if (!end) {
            g_string_append(why, k->kind == GPU_KIND_SIZE
                                     ? "not a size (bytes, optionally with a K, M or G suffix)"
                                     : "not a whole number");
            break;
        }
        while (*end == ' ' || *end == '\t')
            end++;
        uint64_t mult = 1;
        if (k->kind == GPU_KIND_SIZE && *end) {
            static const char *const sfx[] = {"b", "k", "kb", "kib", "m", "mb",
                                              "mib", "g", "gb", "gib"};
            static const uint64_t sm[] = {1, 1u << 10, 1u << 10, 1u << 10,
                                          1u << 20, 1u << 20, 1u << 20,
                                          1u << 30, 1u << 30, 1u << 30};
            mult = 0;
            for (unsigned i = 0; i < G_N_ELEMENTS(sfx); i++)
                if (g_ascii_strcasecmp(end, sfx[i]) == 0)
                    mult = sm[i];
            if (mult == 0) {
                g_string_append(why, "not a size (bytes, optionally with a K, M or G suffix)");
                break;
            }
        } else if (*end) {
            g_string_append(why, "not a whole number");
            break;
        }
        if (overflow || v > UINT64_MAX / mult || t[0] == '-' ||
            (double)(v * mult) < k->min || (double)(v * mult) > k->max ||
            ((k->flags & GPU_KEY_POW2) && ((v * mult) & (v * mult - 1)) != 0)) {
            *code = GPU_CONFIG_ERROR_OUT_OF_RANGE;
            g_string_append(why, "out of range");
            break;
        }
        if (k->kind == GPU_KIND_U32)
            *(uint32_t *)dst = (uint32_t)v;
        else
            *(uint64_t *)dst = v * mult;
        break;
    }
    case GPU_KIND_DBL: {
        char *end = NULL;
        double v = t[0] ? g_ascii_strtod(t, &end) : 0;
        if (!end || *end || !isfinite(v)) {
            g_string_append(why, "not a number");
            break;
        }
        if (v < k->min || v > k->max) {
            *code = GPU_CONFIG_ERROR_OUT_OF_RANGE;
            g_string_append(why, "out of range");
            break;
        }
        *(double *)dst = v;
        break;
    }
    case GPU_KIND_BOOL: {
        static const char *const yes[] = {"true", "yes", "on", "1"};
        static const char *const no[] = {"false", "no", "off", "0"};
        int v = -1;
        for (unsigned i = 0; i < 4; i++) {
            if (g_ascii_strcasecmp(t, yes[i]) == 0)
                v = 1;
            if (g_ascii_strcasecmp(t, no[i]) == 0)
                v = 0;
        }
        if (v < 0) {
            g_string_append(why, "not a boolean");
            break;
        }
        *(bool *)dst = v == 1;
        break;
    }
    case GPU_KIND_ENUM: {
        int32_t v = -1;
        for (int32_t i = 0; k->names[i]; i++)
            if (g_ascii_strcasecmp(t, k->names[i]) == 0)
                v = i;
        if (v < 0) {
            append_planned(why, k, t);
            g_string_append(why, "not a valid choice");
            break;
        }
        *(int32_t *)dst = v;
        break;
    }
    case GPU_KIND_LIST: {
        gpu_name_list l = {0};
        /* '+' separates too: a list can then be one value of a comma
         * separated list elsewhere (ptxemu sweep: cta.filters = none, dyncta+claso) */
        char **parts = g_strsplit_set(t, ",+", -1);
        bool none = t[0] == '\0' || g_ascii_strcasecmp(t, "none") == 0;
        for (unsigned i = 0; !none && parts[i] && !why->len; i++) {
            char *item = g_strstrip(parts[i]);
            int32_t v = -1;
            for (int32_t j = 0; k->names[j]; j++)
                if (g_ascii_strcasecmp(item, k->names[j]) == 0)
                    v = j;
            if (v < 0) {
                append_planned(why, k, item);
                g_string_append_printf(why, "'%s' is not a valid choice", item);
            }
            else if (l.count == GPU_CONFIG_LIST_MAX)
                g_string_append_printf(why, "more than %d entries", GPU_CONFIG_LIST_MAX);
            else
                for (unsigned j = 0; j < l.count; j++)
                    if (l.items[j] == v)
                        g_string_append_printf(why, "'%s' is listed twice", item);
            if (!why->len)
                l.items[l.count++] = (uint8_t)v;
        }
        g_strfreev(parts);
        if (!why->len)
            *(gpu_name_list *)dst = l;
        break;
    }
    case GPU_KIND_STR:
        if (strlen(t) >= GPU_CONFIG_STR_LEN) {
            g_string_append(why, "too long");
            break;
        }
        memset(dst, 0, GPU_CONFIG_STR_LEN);
        g_strlcpy(dst, t, GPU_CONFIG_STR_LEN);
        break;
    }
    g_free(t);
    if (why->len == 0) {
        g_string_free(why, TRUE);
        return NULL;
    }
    g_string_append(why, "; valid values are ");
    gpu_config_append_valid(why, k);
    return g_string_free(why, FALSE);
}

/* ------------------------------------------------------------ suggestions */

static unsigned edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    unsigned *row = g_new(unsigned, m + 1);
    for (size_t j = 0; j <= m; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= m; j++) {
            unsigned up = row[j];
            unsigned cost = g_ascii_tolower(a[i - 1]) != g_ascii_tolower(b[j - 1]);
            unsigned best = MIN(row[j] + 1, row[j - 1] + 1);
            row[j] = MIN(best, diag + cost);
            diag = up;
        }
    }
    unsigned d = row[m];
    g_free(row);
    return d;
}

/* How well `typed` matches `name`: 0 when it is a piece of it (at least 4
 * characters, "fetch" for fetch_group), else the edit distance when that
 * is small enough to be a typo; UINT32_MAX when it is no match. */
static unsigned match_score(const char *typed, const char *name)
{
    size_t tl = strlen(typed);
    if (tl >= 4) {
        char *t = g_ascii_strdown(typed, -1), *n = g_ascii_strdown(name, -1);
        bool piece = strstr(n, t) != NULL;
        g_free(t);
        g_free(n);
        if (piece)
            return 0;
    }
    unsigned d = edit_distance(typed, name);
    return d * 3 <= MAX(tl, strlen(name)) + 1 ? d : UINT32_MAX;
}

/* The best match for `name` among the keys of `group`, else a key of that
 * exact name in another group; NULL when nothing matches. */
static const gpu_config_key *closest_key(const char *group, const char *name)
{
    const gpu_config_key *best = NULL;
    unsigned best_s = UINT32_MAX;
    for (size_t i = 0; i < N_KEYS; i++) {
        if (strcmp(key_table[i].group, group) != 0)
            continue;
        unsigned sc = match_score(name, key_table[i].name);
        if (sc < best_s) {
            best_s = sc;
            best = &key_table[i];
        }
    }
    if (best)
        return best;
    for (size_t i = 0; i < N_KEYS; i++)
        if (g_ascii_strcasecmp(key_table[i].name, name) == 0)
            return &key_table[i];
    return NULL;
}

static const char *closest_group(const char *group)
{
    const char *best = NULL;
    unsigned best_s = UINT32_MAX;
    for (size_t i = 0; i < N_KEYS; i++) {
        unsigned sc = match_score(group, key_table[i].group);
        if (sc < best_s) {
            best_s = sc;
            best = key_table[i].group;
        }
    }
    return best;
}

static void append_groups(GString *s)
{
    const char *last = NULL;
    for (size_t i = 0; i < N_KEYS; i++)
        if (!last || strcmp(last, key_table[i].group) != 0) {
            g_string_append_printf(s, "%s%s", last ? ", " : "", key_table[i].group);
            last = key_table[i].group;
        }
}

static void append_keys(GString *s, const char *group)
{
    bool first = true;
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(key_table[i].group, group) == 0) {
            g_string_append_printf(s, "%s%s", first ? "" : ", ", key_table[i].name);
            first = false;
        }
}

/* ------------------------------------------------------------ assigning */

/* Stores `value` into group.key of cfg; the error names source, key and
 * value.  cfg is untouched on failure. */
static bool assign(gpu_config *cfg, const char *source, const char *group,
                   const char *key, const char *value, GError **error)
{
    const gpu_config_key *k = gpu_config_find_key(group, key);
    if (!k) {
        GString *m = g_string_new(NULL);
        g_string_append_printf(m, "%s: %s.%s = '%s': ", source, group, key, value);
        if (!group_exists(group)) {
            const char *g = closest_group(group);
            g_string_append_printf(m, "unknown group [%s]; ", group);
            if (g)
                g_string_append_printf(m, "did you mean [%s]?", g);
            else {
                g_string_append(m, "valid groups are ");
                append_groups(m);
            }
            g_set_error_literal(error, GPU_CONFIG_ERROR,
                                GPU_CONFIG_ERROR_UNKNOWN_GROUP, m->str);
        } else {
            const gpu_config_key *c = closest_key(group, key);
            g_string_append_printf(m, "unknown key '%s' in group [%s]", key, group);
            if (c)
                g_string_append_printf(m, "; did you mean %s.%s?", c->group, c->name);
            else {
                g_string_append_printf(m, "; the keys of [%s] are ", group);
                append_keys(m, group);
            }
            g_set_error_literal(error, GPU_CONFIG_ERROR,
                                GPU_CONFIG_ERROR_UNKNOWN_KEY, m->str);
        }
        g_string_free(m, TRUE);
        return false;
    }
    gpu_config_error code;
    char *why = parse_value(k, value, field(cfg, k), &code);
    if (why) {
        g_set_error(error, GPU_CONFIG_ERROR, (gint)code, "%s: %s.%s = '%s': %s",
                    source, group, key, value, why);
        g_free(why);
        return false;
    }
    return true;
}

/* Every key of kf, in file order, onto cfg (no cross-key checks). */
static bool apply_keyfile(GKeyFile *kf, const char *source, gpu_config *cfg,
                          GError **error)
{
    gchar **groups = g_key_file_get_groups(kf, NULL);
    bool ok = true;
    for (unsigned g = 0; ok && groups[g]; g++) {
        gchar **keys = g_key_file_get_keys(kf, groups[g], NULL, NULL);
        if (!keys || !keys[0]) {
            if (!group_exists(groups[g])) {
                const char *c = closest_group(groups[g]);
                g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_UNKNOWN_GROUP,
                            "%s: unknown group [%s]%s%s%s", source, groups[g],
                            c ? "; did you mean [" : "", c ? c : "", c ? "]?" : "");
                ok = false;
            }
        }
        for (unsigned i = 0; ok && keys && keys[i]; i++) {
            const gpu_config_key *k = gpu_config_find_key(groups[g], keys[i]);
            GError *e = NULL;
            gchar *v = k && k->kind == GPU_KIND_STR
                           ? g_key_file_get_string(kf, groups[g], keys[i], &e)
                           : g_key_file_get_value(kf, groups[g], keys[i], &e);
            if (!v) {
                g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_BAD_VALUE,
                            "%s: %s.%s: %s", source, groups[g], keys[i], e->message);
                g_error_free(e);
                ok = false;
                break;
            }
            ok = assign(cfg, source, groups[g], keys[i], v, error);
            g_free(v);
        }
        g_strfreev(keys);
    }
    g_strfreev(groups);
    return ok;
}

static bool load_data(const char *data, gsize len, const char *source,
                      gpu_config *cfg, bool from_defaults, GError **error)
{
    GKeyFile *kf = g_key_file_new();
    GError *e = NULL;
    if (!g_key_file_load_from_data(kf, data, len, G_KEY_FILE_NONE, &e)) {
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_FILE, "%s: %s",
                    source, e->message);
        g_error_free(e);
        g_key_file_free(kf);
        return false;
    }
    gpu_config tmp;
    if (from_defaults)
        gpu_config_defaults(&tmp);
    else
        memcpy(&tmp, cfg, sizeof tmp);
    bool ok = apply_keyfile(kf, source, &tmp, error) &&
              gpu_config_validate(&tmp, source, error);
    if (ok)
        memcpy(cfg, &tmp, sizeof tmp);
    g_key_file_free(kf);
    return ok;
}

static bool load_path(const char *path, gpu_config *cfg, bool from_defaults,
                      GError **error)
{
    gchar *data = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(path, &data, &len, &e)) {
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_FILE,
                    "cannot read GPU config: %s", e->message);
        g_error_free(e);
        return false;
    }
    bool ok = load_data(data, len, path, cfg, from_defaults, error);
    g_free(data);
    return ok;
}

bool gpu_config_load_data(const char *data, gsize len, const char *source,
                          gpu_config *cfg, GError **error)
{
    return load_data(data, len, source ? source : "config", cfg, true, error);
}

bool gpu_config_load_file(const char *path, gpu_config *cfg, GError **error)
{
    return load_path(path, cfg, true, error);
}

bool gpu_config_merge_file(const char *path, gpu_config *cfg, GError **error)
{
    return load_path(path, cfg, false, error);
}

/* ------------------------------------------------------------ presets */

char *gpu_config_preset_dir(void)
{
    const char *src = g_getenv("PTXEMU_SOURCE_DIR");
    if (src && *src)
        return g_build_filename(src, "configs", NULL);
    return g_strdup(PTXEMU_CONFIG_DIR);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **gpu_config_list_presets(GError **error)
{
    char *dir = gpu_config_preset_dir();
    GError *e = NULL;
    GDir *d = g_dir_open(dir, 0, &e);
    if (!d) {
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_FILE,
                    "cannot list GPU presets: %s", e->message);
        g_error_free(e);
        g_free(dir);
        return NULL;
    }
    GPtrArray *names = g_ptr_array_new();
    const char *f;
    while ((f = g_dir_read_name(d)))
        if (g_str_has_suffix(f, ".ini"))
            g_ptr_array_add(names, g_strndup(f, strlen(f) - 4));
    g_dir_close(d);
    g_free(dir);
    g_ptr_array_sort(names, cmp_str);
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, FALSE);
}

bool gpu_config_load_preset(const char *name, gpu_config *cfg, GError **error)
{
    if (strchr(name, '/') || g_str_has_suffix(name, ".ini"))
        return gpu_config_load_file(name, cfg, error);
    char *dir = gpu_config_preset_dir();
    char *file = g_strconcat(name, ".ini", NULL);
    char *path = g_build_filename(dir, file, NULL);
    g_free(file);
    bool ok;
    if (name[0] && g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        ok = gpu_config_load_file(path, cfg, error);
    } else {
        GString *m = g_string_new(NULL);
        g_string_append_printf(m, "unknown GPU preset '%s'; presets in %s: ", name, dir);
        char **all = gpu_config_list_presets(NULL);
        for (unsigned i = 0; all && all[i]; i++)
            g_string_append_printf(m, "%s%s", i ? ", " : "", all[i]);
        if (!all || !all[0])
            g_string_append(m, "none");
        g_strfreev(all);
        g_set_error_literal(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_NO_PRESET, m->str);
        g_string_free(m, TRUE);
        ok = false;
    }
    g_free(path);
    g_free(dir);
    return ok;
}

/* ------------------------------------------------------------ overrides */

bool gpu_config_set(gpu_config *cfg, const char *assignment, GError **error)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = eq ? memchr(assignment, '.', (size_t)(eq - assignment)) : NULL;
    if (!eq || !dot) {
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_SYNTAX,
                    "--set: '%s' is not group.key=value (e.g. l1d.size=32K)",
                    assignment);
        return false;
    }
    char *group = g_strstrip(g_strndup(assignment, (size_t)(dot - assignment)));
    char *key = g_strstrip(g_strndup(dot + 1, (size_t)(eq - dot - 1)));
    bool ok = assign(cfg, "--set", group, key, eq + 1, error);
    g_free(group);
    g_free(key);
    return ok;
}

bool gpu_config_apply_overrides(gpu_config *cfg, const char *const *assignments,
                                GError **error)
{
    gpu_config tmp;
    memcpy(&tmp, cfg, sizeof tmp);
    for (unsigned i = 0; assignments && assignments[i]; i++)
        if (!gpu_config_set(&tmp, assignments[i], error))
            return false;
    if (!gpu_config_validate(&tmp, "--set", error))
        return false;
    memcpy(cfg, &tmp, sizeof tmp);
    return true;
}

/* ------------------------------------------------------------ validation */

static bool cache_geometry(const char *source, const char *g, uint64_t size,
                           uint32_t parts, uint32_t assoc, uint32_t line,
                           GError **error)
{
    uint64_t unit = (uint64_t)parts * assoc * line;
    if (size % unit == 0)
        return true;
    GString *s = g_string_new(NULL);
    gpu_config_append_size(s, size);
    if (parts > 1)
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_INCONSISTENT,
                    "%s: %s.partition_size = %s is not a multiple of "
                    "%s.slices_per_partition x %s.assoc x %s.line = %u x %u x %u",
                    source, g, s->str, g, g, g, parts, assoc, line);
    else
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_INCONSISTENT,
                    "%s: %s.%s = %s is not a multiple of %s.assoc x %s.line = %u x %u",
                    source, g, strcmp(g, "l2") == 0 ? "partition_size" : "size",
                    s->str, g, g, assoc, line);
    g_string_free(s, TRUE);
    return false;
}

#define FAIL(...)                                                            \
    do {                                                                     \
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_INCONSISTENT,  \
                    __VA_ARGS__);                                            \
        return false;                                                        \
    } while (0)

bool gpu_config_validate(const gpu_config *c, const char *source, GError **error)
{
    const char *src = source ? source : "config";
    if (c->gpu.num_sms % c->gpu.sms_per_cluster)
        FAIL("%s: gpu.num_sms = %u is not a multiple of gpu.sms_per_cluster = %u",
             src, c->gpu.num_sms, c->gpu.sms_per_cluster);
    if (c->core.max_threads % c->gpu.warp_size)
        FAIL("%s: core.max_threads = %u is not a multiple of gpu.warp_size = %u",
             src, c->core.max_threads, c->gpu.warp_size);
    if (c->core.warp_schedulers > gpu_config_max_warps(c))
        FAIL("%s: core.warp_schedulers = %u exceeds the %u warps that "
             "core.max_threads = %u allows",
             src, c->core.warp_schedulers, gpu_config_max_warps(c),
             c->core.max_threads);
    if (!cache_geometry(src, "l1d", c->l1d.size, 1, c->l1d.assoc, c->l1d.line, error) ||
        !cache_geometry(src, "l2", c->l2.partition_size, c->l2.slices_per_partition,
                        c->l2.assoc, c->l2.line, error) ||
        !cache_geometry(src, "const_cache", c->const_cache.size, 1,
                        c->const_cache.assoc, c->const_cache.line, error) ||
        !cache_geometry(src, "tex_cache", c->tex_cache.size, 1, c->tex_cache.assoc,
                        c->tex_cache.line, error) ||
        (c->l1i.enabled &&
         !cache_geometry(src, "l1i", c->l1i.size, 1, c->l1i.assoc, c->l1i.line, error)))
        return false;
    if (c->l1d.set_index == GPU_SET_INDEX_FERMI_HASH) {
        uint64_t sets = c->l1d.size / c->l1d.line / c->l1d.assoc;
        if (sets != 32 && sets != 64)
            FAIL("%s: l1d.set_index = fermi-hash needs 32 or 64 sets; l1d.size / "
                 "(l1d.line x l1d.assoc) = %" G_GUINT64_FORMAT,
                 src, sets);
    }
    if (c->dram.interleave < c->l2.line)
        FAIL("%s: dram.interleave = %" G_GUINT64_FORMAT " is smaller than "
             "l2.line = %u (a line must live in one partition)",
             src, c->dram.interleave, c->l2.line);
    if (c->dram.tRAS > c->dram.tRC)
        FAIL("%s: dram.tRAS = %u exceeds dram.tRC = %u", src, c->dram.tRAS,
             c->dram.tRC);
    kcaps caps;
    char why[160];
    if (!kcaps_parse(c->kernel.caps, &caps, why, sizeof why))
        FAIL("%s: kernel.caps = '%s': %s", src, c->kernel.caps, why);
    return true;
}
