/* tools/cmd_config.c — `ptxemu config`: the scheduling policies and their
 * keys (--list), and a GPU config with every key's value (--show). */
#include "sched/sched.h"
#include "timing/config.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* The config key that chooses a level's policies. */
static const char *const level_key[SCHED_LEVEL_COUNT] = {
    "kernel.policy", "cta.policy", "cta.filters", "warp.policy", "spin.policy",
    "fetch.policy", "l1d.policy",
};

static void print_key(const sched_key_def *k)
{
    char def[32], range[64];
    if (k->kind == SCHED_KEY_BOOL) {
        snprintf(def, sizeof def, "%s", k->def != 0 ? "true" : "false");
        snprintf(range, sizeof range, "true or false");
    } else {
        snprintf(def, sizeof def, "%.10g", k->def);
        snprintf(range, sizeof range, "%.10g to %.10g", k->min, k->max);
    }
    printf("      %s.%s = %s  (%s%s%s)  %s\n", k->policy, k->name, def, range,
           k->unit[0] ? " " : "", k->unit, k->doc);
}

/* Every level: its key, its policies with their own keys, what is planned. */
static void list_policies(void)
{
    uint32_t nkeys;
    const sched_key_def *keys = sched_key_defs(&nkeys);
    for (unsigned l = 0; l < SCHED_LEVEL_COUNT; l++) {
        uint32_t n;
        const sched_policy *p = sched_policies((sched_level)l, &n);
        printf("%s level (%s):\n", sched_level_name((sched_level)l), level_key[l]);
        for (uint32_t i = 0; i < n; i++) {
            printf("  %-18s %s%s\n", p[i].name, p[i].hooks->summary,
                   i == 0 && l != SCHED_LEVEL_FILTER ? " [default]" : "");
            for (uint32_t k = 0; k < nkeys; k++)
                if (!strcmp(keys[k].policy, p[i].name))
                    print_key(&keys[k]);
        }
        sched_level pl;
        const char *where, *name;
        GString *planned = g_string_new(NULL);
        for (uint32_t i = 0; (name = sched_planned_list(i, &pl, &where)); i++)
            if (pl == (sched_level)l)
                g_string_append_printf(planned, "%s%s", planned->len ? ", " : "", name);
        if (planned->len)
            printf("  planned, not implemented yet: %s\n", planned->str);
        g_string_free(planned, TRUE);
    }
}

int cmd_config(int argc, char **argv)
{
    gboolean list = FALSE;
    gchar *show = NULL;
    gchar **sets = NULL;
    GOptionEntry entries[] = {
        {"list", 'l', 0, G_OPTION_ARG_NONE, &list,
         "list the scheduling policies of every level, with their own keys", NULL},
        {"show", 0, 0, G_OPTION_ARG_STRING, &show,
         "print a config (preset NAME or INI file) with every key's value", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
         "override one key of --show's config (repeatable)", "GROUP.KEY=VALUE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("");
    g_option_context_set_summary(oc, "Scheduling policies and GPU configurations.");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    int rc = 0;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu config: %s\n", err->message);
        g_clear_error(&err);
        rc = 2;
    } else if (!list && !show) {
        fprintf(stderr, "usage: ptxemu config --list | --show NAME|FILE [--set KEY=VALUE...]\n");
        rc = 2;
    } else {
        if (list)
            list_policies();
        if (show) {
            gpu_config cfg;
            if (!gpu_config_load_preset(show, &cfg, &err) ||
                (sets && !gpu_config_apply_overrides(&cfg, (const char *const *)sets, &err))) {
                fprintf(stderr, "ptxemu config: %s\n", err->message);
                g_clear_error(&err);
                rc = 2;
            } else {
                gsize len;
                char *text = gpu_config_to_data(&cfg, true, &len);
                if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
                    fprintf(stderr, "ptxemu config: cannot write the config to stdout\n");
                    rc = 1;
                }
                g_free(text);
            }
        }
    }
    g_option_context_free(oc);
    g_free(show);
    g_strfreev(sets);
    return rc;
}
