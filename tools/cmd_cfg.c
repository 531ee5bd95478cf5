/* tools/cmd_cfg.c — `ptxemu cfg`: basic blocks, dominators, reconvergence
 * points and loops of the functions of a PTX file, as text or Graphviz. */
#include "frontend/cfg.h"
#include "frontend/parser.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>

int cmd_cfg(int argc, char **argv)
{
    gchar *kernel = NULL;
    gboolean dot = FALSE;
    GOptionEntry entries[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel,
         "only this kernel or function", "NAME"},
        {"dot", 0, 0, G_OPTION_ARG_NONE, &dot, "print Graphviz dot instead of text", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("FILE");
    g_option_context_set_summary(ctx, "Print the control-flow graph, dominators, SIMT "
                                      "reconvergence points and loops of each function.");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    gboolean ok = g_option_context_parse(ctx, &argc, &argv, &err);
    g_option_context_free(ctx);
    if (!ok) {
        fprintf(stderr, "ptxemu: %s\n", err->message);
        g_error_free(err);
        g_free(kernel);
        return 2;
    }
    if (argc != 2) {
        fprintf(stderr, "ptxemu cfg: expected one input file\n");
        g_free(kernel);
        return 2;
    }

    ptx_module *m = ptx_parse_file(argv[1], &err);
    if (!m) {
        fprintf(stderr, "%s\n", err->message);
        g_error_free(err);
        g_free(kernel);
        return 1;
    }
    int status = 0;
    guint shown = 0;
    GString *out = g_string_new(NULL);
    if (dot)
        g_string_append(out, "digraph cfg {\n    node [shape=box, fontname=monospace];\n");
    for (guint k = 0; k < m->funcs->len; k++) {
        const ptx_func *f = ptx_module_func(m, k);
        if (!f->has_body || (kernel && g_strcmp0(f->name, kernel) != 0))
            continue;
        ptx_cfg *cfg = ptx_cfg_build(m, f, &err);
        if (!cfg) {
            fprintf(stderr, "%s\n", err->message);
            g_clear_error(&err);
            status = 1;
            continue;
        }
        if (dot) {
            /* one graph, a cluster per function, so `dot -Tsvg` draws them all */
            char *prefix = g_strdup_printf("f%u_", k);
            g_string_append_printf(out, "  subgraph cluster_%u {\n    label=\"%s\";\n", k,
                                   f->name);
            ptx_cfg_print_dot_subgraph(out, m, cfg, prefix);
            g_string_append(out, "  }\n");
            g_free(prefix);
        } else {
            if (shown)
                g_string_append_c(out, '\n');
            ptx_cfg_print(out, m, cfg);
        }
        shown++;
        ptx_cfg_free(cfg);
    }
    if (dot)
        g_string_append(out, "}\n");
    if (kernel && !shown && status == 0) {
        fprintf(stderr, "ptxemu cfg: %s: no function '%s' with a body\n", argv[1], kernel);
        status = 1;
    }
    fwrite(out->str, 1, out->len, stdout);
    g_string_free(out, TRUE);
    ptx_module_free(m);
    g_free(kernel);
    return status;
}
