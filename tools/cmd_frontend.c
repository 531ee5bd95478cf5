/* tools/cmd_frontend.c — `ptxemu parse` and `ptxemu dump`. */
#include "frontend/parser.h"
#include "frontend/print.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>

/* Parses argv with `entries`; returns FALSE (after printing) on bad options. */
static gboolean parse_options(int *argc, char ***argv, const char *params,
                              const char *summary, GOptionEntry *entries)
{
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    gboolean ok = g_option_context_parse(ctx, argc, argv, &err);
    if (!ok) {
        fprintf(stderr, "ptxemu: %s\n", err->message);
        g_error_free(err);
    }
    g_option_context_free(ctx);
    return ok;
}

int cmd_parse(int argc, char **argv)
{
    gboolean quiet = FALSE;
    GOptionEntry entries[] = {
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "print errors only", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    if (!parse_options(&argc, &argv, "FILE...", "Parse PTX files and list their functions.",
                       entries))
        return 2;
    if (argc < 2) {
        fprintf(stderr, "ptxemu parse: no input files\n");
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        GError *err = NULL;
        ptx_module *m = ptx_parse_file(argv[i], &err);
        if (!m) {
            fprintf(stderr, "%s\n", err->message);
            g_error_free(err);
            status = 1;
            continue;
        }
        if (!quiet) {
            printf("%s: PTX %u.%u, target %s, %u-bit addresses\n", argv[i],
                   m->version_major, m->version_minor, m->target ? m->target : "?",
                   m->address_size);
            for (guint k = 0; k < m->funcs->len; k++) {
                const ptx_func *f = ptx_module_func(m, k);
                if (!f->has_body)
                    continue;
                printf("  %s %s: %u params, %u registers, %u instructions\n",
                       f->is_entry ? ".entry" : ".func ", f->name, f->params->len,
                       f->regs->len, f->instrs->len);
            }
        }
        ptx_module_free(m);
    }
    return status;
}

int cmd_dump(int argc, char **argv)
{
    GOptionEntry entries[] = {{NULL, 0, 0, 0, NULL, NULL, NULL}};
    if (!parse_options(&argc, &argv, "FILE", "Parse a PTX file and print it back as PTX.",
                       entries))
        return 2;
    if (argc != 2) {
        fprintf(stderr, "ptxemu dump: expected one input file\n");
        return 2;
    }
    GError *err = NULL;
    ptx_module *m = ptx_parse_file(argv[1], &err);
    if (!m) {
        fprintf(stderr, "%s\n", err->message);
        g_error_free(err);
        return 1;
    }
    GString *out = g_string_new(NULL);
    ptx_print_module(out, m);
    fwrite(out->str, 1, out->len, stdout);
    g_string_free(out, TRUE);
    ptx_module_free(m);
    return 0;
}
