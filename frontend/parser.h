/* frontend/parser.h — turning PTX text into a ptx_module. */
#ifndef PTXEMU_FRONTEND_PARSER_H
#define PTXEMU_FRONTEND_PARSER_H

#include "frontend/ir.h"

#include <glib.h>

#define PTX_PARSE_ERROR (ptx_parse_error_quark())
GQuark ptx_parse_error_quark(void);
enum { PTX_PARSE_ERROR_SYNTAX = 1, PTX_PARSE_ERROR_IO = 2 };

/* Parses `len` bytes of PTX.  `name` labels messages ("file.ptx").  On
 * failure returns NULL and sets *err to "name:line:col: error: message". */
ptx_module *ptx_parse_string(const char *text, size_t len, const char *name,
                             GError **err);
ptx_module *ptx_parse_file(const char *path, GError **err);

/* Names echoed in messages stay readable: every '...'-quoted text longer
 * than PTX_MSG_QUOTE_MAX bytes is cut there and marked with "...". */
#define PTX_MSG_QUOTE_MAX 64
void ptx_message_shorten(GString *msg);

#endif
