/* tools/json_flat.h — reads a JSON document into flat (path, value) pairs:
 * {"total": {"cycles": 5}} gives "total.cycles" = "5"; array elements are
 * numbered ("kernels.0.name").  Enough for the statistics JSON the sweep
 * and plot commands read back; no general JSON object model. */
#ifndef PTXEMU_TOOLS_JSON_FLAT_H
#define PTXEMU_TOOLS_JSON_FLAT_H

#include <glib.h>
#include <stdbool.h>

/* Fills `out` (path -> value, both g_strdup'ed; strings unquoted) and
 * `order` (paths in document order, borrowed from `out`) when not NULL.
 * false with *error ("offset N: ...") on malformed input. */
bool json_flatten(const char *text, GHashTable *out, GPtrArray *order, GError **error);
/* A new table suitable for json_flatten. */
GHashTable *json_flat_table(void);
/* `s` as a JSON string literal appended to `out`. */
void json_append_string(GString *out, const char *s);

#endif
