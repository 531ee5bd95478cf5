/* tools/run_file.c — the INI run file of `ptxemu run --run-file`
 * (docs/run-files.md): [run] names the default module; each [launch NAME]
 * group is one launch, in file order, whose keys become the launch options
 * of `ptxemu run` (waits and appends name earlier launches by NAME). */
#include "tools/run_file.h"

#include <stdbool.h>
#include <string.h>

#define RF_ERR(err, ...) g_set_error(err, g_quark_from_static_string("ptxemu"), 1, __VA_ARGS__)

/* Launch keys that map one to one onto options. */
static const char *const plain_keys[] = {"kernel", "grid", "block", "shared", "stream",
                                         "arrive", NULL};

static int index_of(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* One [launch NAME] group as module path + options; false with a message. */
static bool load_launch(GKeyFile *kf, const char *path, const char *dir, const char *group,
                        const char *def_module, char **names, int n, GString *out,
                        GError **error)
{
    gsize nk = 0;
    char **keys = g_key_file_get_keys(kf, group, &nk, NULL);
    bool ok = true;
    char *module = g_key_file_get_string(kf, group, "module", NULL);
    if (!module && !def_module) {
        RF_ERR(error, "%s: [%s]: no module (set 'module' here or in [run])", path, group);
        ok = false;
    } else {
        char *m = module ? module : g_strdup(def_module);
        char *abs = g_path_is_absolute(m) ? g_strdup(m) : g_build_filename(dir, m, NULL);
        g_string_append(out, abs);
        g_free(abs);
        g_free(m);
    }
    for (gsize k = 0; ok && k < nk; k++) {
        const char *key = keys[k];
        char *val = g_key_file_get_string(kf, group, key, NULL);
        bool plain = false;
        for (unsigned p = 0; plain_keys[p]; p++)
            plain |= !strcmp(plain_keys[p], key);
        if (!strcmp(key, "module")) {
            /* handled above */
        } else if (plain) {
            g_string_append_printf(out, "\n--%s=%s", key, g_strstrip(val));
        } else if (!strcmp(key, "args") || !strcmp(key, "dump")) {
            char **items = g_key_file_get_string_list(kf, group, key, NULL, NULL);
            for (unsigned i = 0; ok && items && items[i]; i++) {
                char *it = g_strstrip(items[i]);
                if (!*it)
                    continue;
                const char *opt = !strcmp(key, "args") ? "arg" : key;
                char *colon = g_str_has_prefix(it, "buffer:") ? strchr(it + 7, ':') : NULL;
                if (!colon) {
                    g_string_append_printf(out, "\n--%s=%s", opt, it);
                    continue;
                }
                /* buffer:NAME:N names an earlier launch */
                *colon = '\0';
                int j = index_of(names, n, it + 7);
                if (j < 0) {
                    RF_ERR(error, "%s: [%s] args: buffer:%s: no earlier [launch %s]", path,
                           group, it + 7, it + 7);
                    ok = false;
                } else {
                    g_string_append_printf(out, "\n--arg=buffer:%d:%s", j, colon + 1);
                }
            }
            g_strfreev(items);
        } else if (!strcmp(key, "wait") || !strcmp(key, "append_to")) {
            int j = index_of(names, n, g_strstrip(val));
            if (j < 0) {
                RF_ERR(error, "%s: [%s] %s = '%s': no earlier [launch %s]", path, group, key,
                       val, val);
                ok = false;
            } else {
                g_string_append_printf(out, "\n--%s=%d",
                                       !strcmp(key, "wait") ? "wait" : "append-to", j);
            }
        } else {
            RF_ERR(error, "%s: [%s]: unknown key '%s' (kernel, grid, block, shared, args, dump, "
                   "stream, wait, arrive, append_to, module)", path, group, key);
            ok = false;
        }
        g_free(val);
    }
    g_strfreev(keys);
    return ok;
}

int run_file_load(const char *path, char ***out, GError **error)
{
    GKeyFile *kf = g_key_file_new();
    g_key_file_set_list_separator(kf, ';');
    *out = NULL;
    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, error)) {
        g_prefix_error(error, "%s: ", path);
        g_key_file_free(kf);
        return -1;
    }
    char *dir = g_path_get_dirname(path);
    char *def_module = g_key_file_get_string(kf, "run", "module", NULL);
    gsize ng = 0;
    char **groups = g_key_file_get_groups(kf, &ng);
    char **names = g_new0(char *, ng + 1);
    GPtrArray *launches = g_ptr_array_new_with_free_func(g_free);
    int n = 0;
    bool ok = true;
    for (gsize g = 0; ok && g < ng; g++) {
        if (!strcmp(groups[g], "run"))
            continue;
        if (!g_str_has_prefix(groups[g], "launch ") || !*g_strstrip(groups[g] + 7)) {
            RF_ERR(error, "%s: unknown group [%s] (want [run] and [launch NAME] groups)", path,
                   groups[g]);
            ok = false;
            break;
        }
        if (n == RUN_FILE_MAX_LAUNCHES) {
            RF_ERR(error, "%s: more than %d launches", path, RUN_FILE_MAX_LAUNCHES);
            ok = false;
            break;
        }
        GString *s = g_string_new(NULL);
        ok = load_launch(kf, path, dir, groups[g], def_module, names, n, s, error);
        g_ptr_array_add(launches, g_string_free(s, FALSE));
        names[n++] = groups[g] + 7;
    }
    if (ok && n == 0) {
        RF_ERR(error, "%s: no [launch NAME] group", path);
        ok = false;
    }
    g_ptr_array_add(launches, NULL);
    char **v = (char **)g_ptr_array_free(launches, FALSE);
    if (ok)
        *out = v;
    else
        g_strfreev(v);
    g_free(names);
    g_strfreev(groups);
    g_free(def_module);
    g_free(dir);
    g_key_file_free(kf);
    return ok ? n : -1;
}
