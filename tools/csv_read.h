/* tools/csv_read.h — reads the CSV files the sweep writes (RFC 4180
 * quoting) into rows of fields. */
#ifndef PTXEMU_TOOLS_CSV_READ_H
#define PTXEMU_TOOLS_CSV_READ_H

#include <glib.h>

typedef struct csv_table {
    GPtrArray *header;       /* char* */
    GPtrArray *rows;         /* GPtrArray* of char* */
} csv_table;

/* NULL with *error when the file cannot be read or has no header. */
csv_table *csv_read(const char *path, GError **error);
void csv_free(csv_table *t);
/* Column index of `name`, or -1. */
int csv_col(const csv_table *t, const char *name);
/* Field `col` of row `r` ("" when short). */
const char *csv_get(const csv_table *t, guint r, int col);

#endif
