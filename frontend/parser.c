/* frontend/parser.c — runs the flex scanner and bison parser over a buffer. */
#include "frontend/parser.h"
#include "frontend/builder.h"
#include "frontend/ptx.tab.h"

#include <string.h>

typedef void *yyscan_t;
int ptx_yylex_init_extra(ptx_builder *extra, yyscan_t *scanner);
int ptx_yylex_destroy(yyscan_t scanner);
void *ptx_yy_scan_bytes(const char *bytes, int len, yyscan_t scanner);
int ptx_yyparse(void *scanner, ptx_builder *b);

void builder_scope_free(gpointer p);
void builder_opdecode_free(gpointer p);

G_DEFINE_QUARK(ptx-parse-error-quark, ptx_parse_error)

void ptx_message_shorten(GString *msg)
{
    gsize i = 0;
    while (i < msg->len) {
        char *open = memchr(msg->str + i, '\'', msg->len - i);
        if (!open)
            return;
        gsize start = (gsize)(open - msg->str) + 1;
        char *close = memchr(msg->str + start, '\'', msg->len - start);
        if (!close)
            return;
        gsize end = (gsize)(close - msg->str);
        if (end - start > PTX_MSG_QUOTE_MAX) {
            gsize keep = start + PTX_MSG_QUOTE_MAX;
            g_string_erase(msg, (gssize)keep, (gssize)(end - keep));
            g_string_insert(msg, (gssize)keep, "...");
            end = keep + 3;
        }
        i = end + 1;
    }
}

ptx_module *ptx_parse_string(const char *text, size_t len, const char *name,
                             GError **err)
{
    if (len > (size_t)G_MAXINT - 2) {
        g_set_error(err, PTX_PARSE_ERROR, PTX_PARSE_ERROR_IO,
                    "%s: error: input too large", name ? name : "<string>");
        return NULL;
    }
    ptx_builder b = {0};
    b.m = ptx_module_new(name);
    b.line = 1;
    b.opcache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                      builder_opdecode_free);
    b.scopes = g_ptr_array_new_with_free_func(builder_scope_free);
    b.stack = g_array_new(FALSE, TRUE, sizeof(ptx_operand));
    b.final = g_array_new(FALSE, TRUE, sizeof(ptx_operand));
    b.guard = -1;
    b.last_label = -1;
    b.fn_index = -1;
    b.attrs.vec = 1;

    yyscan_t scanner;
    ptx_yylex_init_extra(&b, &scanner);
    b.scanner = scanner;
    ptx_yy_scan_bytes(text, (int)len, scanner);
    int rc = ptx_yyparse(scanner, &b);
    ptx_yylex_destroy(scanner);

    if (rc != 0 && !b.error) {
        b.error = g_string_new(NULL);
        g_string_printf(b.error, "%s:%d:%d: error: %s", b.m->source_name, b.line,
                        b.col + 1, rc == 2 ? "out of memory" : "syntax error");
    }
    if (!b.error && b.fn) {
        b.error = g_string_new(NULL);
        g_string_printf(b.error, "%s:%d:%d: error: unexpected end of file inside function '%s'",
                        b.m->source_name, b.line, b.col + 1,
                        b.fn->name ? b.fn->name : "?");
    }
    if (b.labels)
        g_hash_table_destroy(b.labels);
    g_free(b.attrs.attribute);
    if (b.init)
        g_array_free(b.init, TRUE);
    if (b.targets)
        g_array_free(b.targets, TRUE);
    if (b.section)
        g_string_free(b.section, TRUE);
    g_array_free(b.stack, TRUE);
    g_array_free(b.final, TRUE);
    g_ptr_array_free(b.scopes, TRUE);
    g_hash_table_destroy(b.opcache);
    if (b.error) {
        g_set_error_literal(err, PTX_PARSE_ERROR, PTX_PARSE_ERROR_SYNTAX, b.error->str);
        g_string_free(b.error, TRUE);
        ptx_module_free(b.m);
        return NULL;
    }
    return b.m;
}

ptx_module *ptx_parse_file(const char *path, GError **err)
{
    gchar *text = NULL;
    gsize len = 0;
    GError *ioerr = NULL;
    if (!g_file_get_contents(path, &text, &len, &ioerr)) {
        g_set_error(err, PTX_PARSE_ERROR, PTX_PARSE_ERROR_IO, "%s: error: %s", path,
                    ioerr->message);
        g_error_free(ioerr);
        return NULL;
    }
    ptx_module *m = ptx_parse_string(text, len, path, err);
    g_free(text);
    return m;
}
