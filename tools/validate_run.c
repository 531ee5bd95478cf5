/* tools/validate_run.c — `ptxemu validate --ptx FILE -- RUN-OPTIONS`: the
 * run-spec form of validate.  Each run is `ptxemu run FILE RUN-OPTIONS`
 * as a subprocess, once functionally and once per policy combination with
 * --timing, dumping every buffer argument (file:, zeros:, iota:, rand:)
 * with --dump; the dumps are compared byte for byte. */
#include "tools/validate.h"

#include <string.h>

/* Indices of the buffer arguments among the --arg/-a specs of `opts`. */
static GArray *buffer_args(char **opts)
{
    GArray *idx = g_array_new(FALSE, FALSE, sizeof(unsigned));
    unsigned n = 0;
    for (unsigned i = 0; opts[i]; i++) {
        const char *spec = NULL;
        if ((!strcmp(opts[i], "--arg") || !strcmp(opts[i], "-a")) && opts[i + 1])
            spec = opts[++i];
        else if (g_str_has_prefix(opts[i], "--arg="))
            spec = opts[i] + 6;
        if (!spec)
            continue;
        if (g_str_has_prefix(spec, "file:") || g_str_has_prefix(spec, "zeros:") ||
            g_str_has_prefix(spec, "iota:") || g_str_has_prefix(spec, "rand:"))
            g_array_append_val(idx, n);
        n++;
    }
    return idx;
}

/* Runs `ptxemu run` and reads back the dumped buffers; NULL on failure
 * (msg says why).  *cycles from the timing summary. */
static GPtrArray *run_spec(const char *self, const char *ptx, char **opts, const char *tmp,
                           const char *tag, const char *config, char **sets, GArray *bufs,
                           uint64_t *cycles, GString *msg)
{
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup(self));
    g_ptr_array_add(argv, g_strdup("run"));
    g_ptr_array_add(argv, g_strdup(ptx));
    for (unsigned i = 0; opts[i]; i++)
        g_ptr_array_add(argv, g_strdup(opts[i]));
    if (sets) {
        g_ptr_array_add(argv, g_strdup("--timing"));
        if (config) {
            g_ptr_array_add(argv, g_strdup("--config"));
            g_ptr_array_add(argv, g_strdup(config));
        }
        for (unsigned i = 0; sets[i]; i++) {
            g_ptr_array_add(argv, g_strdup("--set"));
            g_ptr_array_add(argv, g_strdup(sets[i]));
        }
    }
    for (guint b = 0; b < bufs->len; b++) {
        unsigned a = g_array_index(bufs, unsigned, b);
        g_ptr_array_add(argv, g_strdup("--dump"));
        g_ptr_array_add(argv, g_strdup_printf("%u:%s/%s-%u.bin", a, tmp, tag, a));
    }
    g_ptr_array_add(argv, NULL);
    char *out = NULL, *err = NULL;
    int st = 0;
    GError *e = NULL;
    GPtrArray *data = NULL;
    *cycles = 0;
    if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                      &st, &e)) {
        g_string_printf(msg, "%s", e->message);
        g_error_free(e);
    } else if (!g_spawn_check_wait_status(st, NULL)) {
        g_string_printf(msg, "ptxemu run failed: %s", g_strstrip(err));
    } else {
        const char *c = strstr(out, "\n  cycles ");
        if (c)
            *cycles = g_ascii_strtoull(c + 10, NULL, 10);
        data = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
        for (guint b = 0; b < bufs->len; b++) {
            char *p = g_strdup_printf("%s/%s-%u.bin", tmp, tag, g_array_index(bufs, unsigned, b));
            char *bytes = NULL;
            gsize n = 0;
            if (!g_file_get_contents(p, &bytes, &n, NULL))
                bytes = g_strdup("");
            g_ptr_array_add(data, g_bytes_new_take(bytes, n));
            g_unlink(p);
            g_free(p);
        }
    }
    g_free(out);
    g_free(err);
    g_ptr_array_free(argv, TRUE);
    return data;
}

int validate_run_spec(const char *ptx, char **opts, const char *config, char **extra,
                      GPtrArray *combos)
{
    char *self = g_file_read_link("/proc/self/exe", NULL);
    char *tmp = g_dir_make_tmp("ptxemu-validate-XXXXXX", NULL);
    GArray *bufs = buffer_args(opts);
    GString *msg = g_string_new(NULL);
    uint64_t cycles;
    int rc = 0;
    GPtrArray *ref = self && tmp ? run_spec(self, ptx, opts, tmp, "functional", NULL, NULL, bufs,
                                            &cycles, msg) : NULL;
    if (!ref) {
        printf("%s: the functional run failed: %s\n", ptx, msg->str);
        rc = 2;
        goto out;
    }
    printf("validate %s (config %s): %u buffer arguments\n", ptx,
           config ? config : "built-in defaults", bufs->len);
    int width = validate_width(combos);
    printf("%-*s %10s  %s\n", width, "policies", "cycles", "result");
    unsigned same = 0;
    for (guint k = 0; k < combos->len; k++) {
        char **sets = validate_combo_sets(g_ptr_array_index(combos, k), extra);
        GPtrArray *got = run_spec(self, ptx, opts, tmp, "timing", config, sets, bufs, &cycles, msg);
        GString *why = g_string_new(NULL);
        for (guint b = 0; got && b < bufs->len && !why->len; b++) {
            gsize na, nb;
            const guint8 *da = g_bytes_get_data(g_ptr_array_index(ref, b), &na);
            const guint8 *db = g_bytes_get_data(g_ptr_array_index(got, b), &nb);
            char *name = g_strdup_printf("argument %u", g_array_index(bufs, unsigned, b));
            validate_describe_diff(name, da, na, db, nb, why);
            g_free(name);
        }
        const char *combo = g_ptr_array_index(combos, k);
        printf("%-*s %10" G_GUINT64_FORMAT "  %s\n", width, *combo ? combo : "(the baselines)",
               cycles,
               !got ? "ERROR" : why->len ? "DIFFERENT" : "identical");
        if (!got || why->len) {
            rc = 1;
            GString *cmd = g_string_new("ptxemu run ");
            char *q = g_shell_quote(ptx);
            g_string_append(cmd, q);
            g_free(q);
            for (unsigned i = 0; opts[i]; i++) {
                q = g_shell_quote(opts[i]);
                g_string_append_printf(cmd, " %s", q);
                g_free(q);
            }
            g_string_append(cmd, " --timing");
            if (config)
                g_string_append_printf(cmd, " --config %s", config);
            for (unsigned i = 0; sets[i]; i++)
                g_string_append_printf(cmd, " --set %s", sets[i]);
            printf("    %s\n    replay: %s --sched-trace run.trace\n", got ? why->str : msg->str,
                   cmd->str);
            g_string_free(cmd, TRUE);
        } else {
            same++;
        }
        g_string_free(why, TRUE);
        if (got)
            g_ptr_array_free(got, TRUE);
        g_strfreev(sets);
    }
    printf("%s: %u of %u policy combinations leave every buffer argument identical to the "
           "functional run\n", ptx, same, combos->len);
out:
    if (ref)
        g_ptr_array_free(ref, TRUE);
    if (tmp)
        g_rmdir(tmp);
    g_free(tmp);
    g_free(self);
    g_array_free(bufs, TRUE);
    g_string_free(msg, TRUE);
    return rc;
}
