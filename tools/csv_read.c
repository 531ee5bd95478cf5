/* tools/csv_read.c — a CSV reader for the sweep's own output files. */
#include "tools/csv_read.h"

#include <stdbool.h>
#include <string.h>

static GPtrArray *new_row(void)
{
    return g_ptr_array_new_with_free_func(g_free);
}

csv_table *csv_read(const char *path, GError **error)
{
    char *text;
    if (!g_file_get_contents(path, &text, NULL, error))
        return NULL;
    csv_table *t = g_new0(csv_table, 1);
    t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    GPtrArray *row = new_row();
    GString *f = g_string_new(NULL);
    bool quoted = false, any = false;
    for (const char *p = text;; p++) {
        char c = *p;
        if (quoted) {
            if (c == '\0')
                break;
            if (c == '"' && p[1] == '"') {
                g_string_append_c(f, '"');
                p++;
            } else if (c == '"') {
                quoted = false;
            } else {
                g_string_append_c(f, c);
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',' || c == '\n' || c == '\0') {
            if (c != '\0' || any || f->len || row->len) {
                g_ptr_array_add(row, g_strdup(f->str));
                g_string_truncate(f, 0);
                any = false;
            }
            if ((c == '\n' || c == '\0') && row->len) {
                g_ptr_array_add(t->rows, row);
                row = new_row();
            }
            if (c == '\0')
                break;
        } else if (c != '\r') {
            g_string_append_c(f, c);
            any = true;
        }
    }
    g_ptr_array_unref(row);
    g_string_free(f, TRUE);
    g_free(text);
    if (t->rows->len == 0) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: empty CSV file", path);
        csv_free(t);
        return NULL;
    }
    t->header = g_ptr_array_steal_index(t->rows, 0);
    return t;
}

void csv_free(csv_table *t)
{
    if (!t)
        return;
    if (t->header)
        g_ptr_array_unref(t->header);
    g_ptr_array_unref(t->rows);
    g_free(t);
}

int csv_col(const csv_table *t, const char *name)
{
    for (guint i = 0; i < t->header->len; i++)
        if (!strcmp(g_ptr_array_index(t->header, i), name))
            return (int)i;
    return -1;
}

const char *csv_get(const csv_table *t, guint r, int col)
{
    GPtrArray *row = g_ptr_array_index(t->rows, r);
    return col >= 0 && (guint)col < row->len ? g_ptr_array_index(row, col) : "";
}
