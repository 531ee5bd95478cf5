/* frontend/builder_internal.h — helpers the builder's files share: token
 * copies, interning, statements, scopes and name lookup. */
#ifndef PTXEMU_FRONTEND_BUILDER_INTERNAL_H
#define PTXEMU_FRONTEND_BUILDER_INTERNAL_H

#include "frontend/builder.h"

/* A scope maps a name to (kind << 28 | id): a register or a symbol. */
enum { NAME_REG = 1, NAME_SYM = 2 };
#define NAME_ENC(kind, id) GINT_TO_POINTER(((kind) << 28) | (id))
#define NAME_KIND(v) (GPOINTER_TO_INT(v) >> 28)
#define NAME_ID(v) (GPOINTER_TO_INT(v) & 0x0fffffff)

char *builder_name_copy(ptx_strref s, char *buf, size_t size);
void builder_name_free(char *name, const char *buf);
const char *builder_intern(ptx_builder *b, ptx_strref s);
void builder_add_item(ptx_builder *b, ptx_item_kind kind, uint32_t index);
void builder_add_stmt(ptx_builder *b, ptx_stmt_kind kind, uint32_t index);
ptx_scope *builder_scope_new(void);
ptx_scope *builder_scope_top(ptx_builder *b);
/* innermost scope out, then module scope; NULL when unknown */
gpointer builder_lookup_name(ptx_builder *b, const char *name, size_t len);
int32_t builder_add_symbol(ptx_builder *b, const char *name, ptx_sym_kind kind,
                           int32_t index, const PTX_YYLTYPE *loc);

#endif
