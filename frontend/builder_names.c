/* frontend/builder_names.c — scopes, name resolution and operand values:
 * registers (incl. %r<N> ranges), special registers, symbols and forward
 * labels, immediates, addresses and operand lists. */
#include "frontend/builder_internal.h"
#include "frontend/ptx.tab.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of a token: in buf when it fits, else on the heap
 * (mangled C++ names can be long; truncating would resolve a wrong name). */
char *builder_name_copy(ptx_strref s, char *buf, size_t size)
{
    if (s.len < size) {
        memcpy(buf, s.s, s.len);
        buf[s.len] = '\0';
        return buf;
    }
    return g_strndup(s.s, s.len);
}

void builder_name_free(char *name, const char *buf)
{
    if (name != buf)
        g_free(name);
}

const char *builder_intern(ptx_builder *b, ptx_strref s)
{
    return g_string_chunk_insert_len(b->m->strings, s.s, (gssize)s.len);
}

void builder_add_item(ptx_builder *b, ptx_item_kind kind, uint32_t index)
{
    ptx_item it = {kind, index};
    g_array_append_val(b->m->items, it);
}

/* MAJOR.MINOR, digits only; ISA 1.0 (CUDA 1) up to 9.x (CUDA 13). */
/* ----------------------------------------------------------------- scopes */

ptx_scope *builder_scope_new(void)
{
    ptx_scope *s = g_new0(ptx_scope, 1);
    s->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    s->ranges = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    return s;
}

void builder_scope_free(gpointer p)
{
    ptx_scope *s = p;
    g_hash_table_destroy(s->names);
    g_hash_table_destroy(s->ranges);
    g_free(s);
}

ptx_scope *builder_scope_top(ptx_builder *b)
{
    return g_ptr_array_index(b->scopes, b->scopes->len - 1);
}

void builder_add_stmt(ptx_builder *b, ptx_stmt_kind kind, uint32_t index)
{
    ptx_stmt st = {kind, index};
    g_array_append_val(b->fn->stmts, st);
}

void builder_scope_push(ptx_builder *b)
{
    g_ptr_array_add(b->scopes, builder_scope_new());
    builder_add_stmt(b, PTX_STMT_OPEN, 0);
}

void builder_scope_pop(ptx_builder *b)
{
    g_ptr_array_remove_index(b->scopes, b->scopes->len - 1);
    builder_add_stmt(b, PTX_STMT_CLOSE, 0);
}

/* Finds a name (register or symbol) from the innermost scope out, then at
 * module scope.  Returns the encoded value or NULL. */
gpointer builder_lookup_name(ptx_builder *b, const char *name, size_t len)
{
    for (guint i = b->scopes->len; i-- > 0;) {
        ptx_scope *s = g_ptr_array_index(b->scopes, i);
        gpointer v = g_hash_table_lookup(s->names, name);
        if (v)
            return v;
        /* %r12: a range %r<N> declares the prefix */
        size_t d = len;
        while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
            d--;
        if (d < len && d > 0 && g_hash_table_size(s->ranges) > 0 &&
            !(name[d] == '0' && d + 1 < len)) {
            char buf[256];
            char *pfx = builder_name_copy((ptx_strref){name, (unsigned)d}, buf, sizeof buf);
            gpointer r = g_hash_table_lookup(s->ranges, pfx);
            builder_name_free(pfx, buf);
            if (r) {
                const ptx_regdecl *rd = &g_array_index(
                    b->fn->regdecls, ptx_regdecl, GPOINTER_TO_INT(r) - 1);
                errno = 0;
                unsigned long idx = strtoul(name + d, NULL, 10);
                if (errno == 0 && idx < rd->count)
                    return NAME_ENC(NAME_REG, rd->first_reg + (uint32_t)idx);
            }
        }
    }
    gpointer v = g_hash_table_lookup(b->m->globals, name);
    if (v)
        return NAME_ENC(NAME_SYM, GPOINTER_TO_INT(v) - 1);
    return NULL;
}

int32_t builder_add_symbol(ptx_builder *b, const char *name, ptx_sym_kind kind,
                          int32_t index, const PTX_YYLTYPE *loc)
{
    ptx_symbol s = {name, kind, index, b->fn ? b->fn_index : -1,
                    {(uint32_t)loc->first_line, (uint32_t)loc->first_column}};
    g_array_append_val(b->m->syms, s);
    return (int32_t)b->m->syms->len - 1;
}

/* --------------------------------------------------------------- operands */

static bool parse_sreg(const char *name, ptx_operand *o)
{
    /* name without '%' and without component */
    size_t n = strlen(name);
    for (int i = 0; i < PTX_SREG_COUNT; i++) {
        const char *s = ptx_sreg_name((ptx_sreg)i);
        size_t sl = strlen(s);
        if (n == sl && memcmp(s, name, n) == 0) {
            o->kind = PTX_OPND_SREG;
            o->id = i;
            return true;
        }
    }
    /* indexed forms: %envreg0..31, %pm0..7, %pm0_64 */
    const char *digits = NULL;
    int id = -1;
    if (strncmp(name, "envreg", 6) == 0) {
        digits = name + 6;
        id = PTX_SREG_ENVREG;
    } else if (strncmp(name, "pm", 2) == 0) {
        digits = name + 2;
        id = PTX_SREG_PM;
    }
    if (!digits || !g_ascii_isdigit(digits[0]))
        return false;
    char *end;
    unsigned long v = strtoul(digits, &end, 10);
    if (id == PTX_SREG_PM && strcmp(end, "_64") == 0)
        id = PTX_SREG_PM64;
    else if (*end)
        return false;
    if ((id == PTX_SREG_ENVREG && v > 31) || (id != PTX_SREG_ENVREG && v > 7))
        return false;
    o->kind = PTX_OPND_SREG;
    o->id = id;
    o->val = (int64_t)v;
    return true;
}

static int comp_index(char c)
{
    switch (c) {
    case 'x': case 'r': return 1;
    case 'y': case 'g': return 2;
    case 'z': case 'b': return 3;
    case 'w': case 'a': return 4;
    default: return 0;
    }
}

/* name is a writable copy of the token; the component suffix is cut off. */
static ptx_operand resolve_reg(ptx_builder *b, char *name, unsigned len,
                               const PTX_YYLTYPE *loc)
{
    ptx_operand o = {0};
    o.id2 = -1;
    uint8_t comp = 0;
    if (len > 2 && name[len - 2] == '.') {
        comp = (uint8_t)comp_index(name[len - 1]);
        len -= 2;
        name[len] = '\0';
    } else if (len > 3 && name[len - 3] == '.' && (name[len - 2] == 'b' || name[len - 2] == 'h')) {
        /* video byte/half selectors: .b0-.b3 = 5..8, .h0/.h1 = 9/10 */
        comp = (uint8_t)((name[len - 2] == 'b' ? 5 : 9) + (name[len - 1] - '0'));
        len -= 3;
        name[len] = '\0';
    }
    o.comp = comp;
    if (!b->fn) {
        builder_error(b, loc, "register '%s' used outside a function", name);
        return o;
    }
    gpointer v = builder_lookup_name(b, name, len);
    if (v && NAME_KIND(v) == NAME_REG) {
        o.kind = PTX_OPND_REG;
        o.id = NAME_ID(v);
        return o;
    }
    if (name[0] == '%' && parse_sreg(name + 1, &o)) {
        if (comp && !ptx_sreg_has_components((ptx_sreg)o.id))
            builder_error(b, loc, "special register '%s' has no components", name);
        if (!comp && ptx_sreg_has_components((ptx_sreg)o.id))
            builder_error(b, loc, "special register '%s' needs a component (.x, .y or .z)", name);
        return o;
    }
    if (v && NAME_KIND(v) == NAME_SYM) {
        o.kind = PTX_OPND_SYM;
        o.id = NAME_ID(v);
        return o;
    }
    builder_error(b, loc, "undeclared register '%s'", name);
    return o;
}

ptx_operand builder_reg(ptx_builder *b, ptx_strref sname, const PTX_YYLTYPE *loc)
{
    char buf[256];
    char *name = builder_name_copy(sname, buf, sizeof buf);
    ptx_operand o = resolve_reg(b, name, sname.len, loc);
    builder_name_free(name, buf);
    return o;
}

ptx_operand builder_pair(ptx_builder *b, ptx_strref p, ptx_strref q,
                         const PTX_YYLTYPE *loc)
{
    /* either half may be the sink `_` (id -1), not both */
    bool psink = p.len == 1 && p.s[0] == '_', qsink = q.len == 1 && q.s[0] == '_';
    ptx_operand a = psink ? builder_sink() : builder_reg(b, p, loc);
    ptx_operand c = qsink ? builder_sink() : builder_reg(b, q, loc);
    ptx_operand o = {0};
    if ((a.kind != PTX_OPND_REG && !psink) || (c.kind != PTX_OPND_REG && !qsink)) {
        builder_error(b, loc, "both halves of a p|q destination must be registers");
        return o;
    }
    o.kind = PTX_OPND_PAIR;
    o.id = a.id;
    o.id2 = c.id;
    return o;
}

static ptx_operand resolve_sym(ptx_builder *b, const char *name, ptx_strref sname,
                               const PTX_YYLTYPE *loc)
{
    ptx_operand o = {0};
    o.id2 = -1;
    unsigned len = sname.len;
    gpointer v = b->fn ? builder_lookup_name(b, name, len) : NULL;
    if (!v) {
        gpointer g = g_hash_table_lookup(b->m->globals, name);
        if (g)
            v = NAME_ENC(NAME_SYM, GPOINTER_TO_INT(g) - 1);
    }
    if (v && NAME_KIND(v) == NAME_REG) {
        o.kind = PTX_OPND_REG;
        o.id = NAME_ID(v);
        return o;
    }
    if (v) {
        o.kind = PTX_OPND_SYM;
        o.id = NAME_ID(v);
        return o;
    }
    if (strcmp(name, "WARP_SZ") == 0) /* predefined constant (PTX ISA 5.4) */
        return builder_imm(32);
    if (!b->fn || !b->labels) {
        builder_error(b, loc, "undefined symbol '%s'", name);
        return o;
    }
    gpointer l = g_hash_table_lookup(b->labels, name);
    if (!l) { /* forward reference: must be defined before the function ends */
        const char *iname = builder_intern(b, sname);
        int32_t sym = builder_add_symbol(b, iname, PTX_SYM_LABEL, -1, loc);
        g_hash_table_insert(b->labels, (gpointer)iname, GINT_TO_POINTER(sym + 1));
        l = GINT_TO_POINTER(sym + 1);
    }
    o.kind = PTX_OPND_SYM;
    o.id = GPOINTER_TO_INT(l) - 1;
    return o;
}

ptx_operand builder_sym(ptx_builder *b, ptx_strref sname, const PTX_YYLTYPE *loc)
{
    char buf[256];
    char *name = builder_name_copy(sname, buf, sizeof buf);
    ptx_operand o = resolve_sym(b, name, sname, loc);
    builder_name_free(name, buf);
    return o;
}

ptx_operand builder_imm(uint64_t v)
{
    ptx_operand o = {0};
    o.kind = PTX_OPND_IMM;
    o.id = o.id2 = -1;
    o.val = (int64_t)v;
    return o;
}

ptx_operand builder_fimm(ptx_operand_kind kind, uint64_t bits)
{
    ptx_operand o = builder_imm(bits);
    o.kind = (uint8_t)kind;
    return o;
}

ptx_operand builder_float_text(ptx_builder *b, ptx_strref text, bool neg,
                               const PTX_YYLTYPE *loc)
{
    char buf[128];
    char *t = builder_name_copy(text, buf, sizeof buf);
    double d = g_ascii_strtod(t, NULL);
    builder_name_free(t, buf);
    if (!isfinite(d))
        builder_error(b, loc, "floating-point literal '%.*s%s' is out of range",
                      (int)MIN(text.len, 64u), text.s, text.len > 64 ? "..." : "");
    if (neg)
        d = -d;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return builder_fimm(PTX_OPND_FIMM64, bits);
}

ptx_operand builder_addr(ptx_builder *b, const ptx_operand *base, int64_t off,
                         const PTX_YYLTYPE *loc)
{
    ptx_operand o = {0};
    o.kind = PTX_OPND_ADDR;
    o.id = o.id2 = -1;
    o.val = off;
    switch (base->kind) {
    case PTX_OPND_REG:
        o.id = base->id;
        break;
    case PTX_OPND_SYM:
        o.id2 = base->id;
        break;
    case PTX_OPND_IMM:
        o.val = base->val + off;
        break;
    default:
        builder_error(b, loc, "an address is [register], [symbol] or [immediate], "
                              "optionally plus an offset");
    }
    return o;
}

ptx_operand builder_sink(void)
{
    ptx_operand o = {0};
    o.kind = PTX_OPND_SINK;
    o.id = o.id2 = -1;
    return o;
}

void builder_push(ptx_builder *b, const ptx_operand *o)
{
    g_array_append_val(b->stack, *o);
}

uint32_t builder_list_begin(ptx_builder *b)
{
    return b->stack->len;
}

/* Moves the elements of a finished list out of the stack so an enclosing
 * list's elements stay contiguous; ids are made absolute at instr_end. */
ptx_operand builder_list_end(ptx_builder *b, uint32_t start, ptx_operand_kind kind)
{
    ptx_operand o = {0};
    o.kind = (uint8_t)kind;
    o.id = (int32_t)b->final->len;
    o.id2 = (int32_t)(b->stack->len - start);
    if (b->stack->len > start) /* "()" may come before any push: no NULL + 0 */
        g_array_append_vals(b->final, &g_array_index(b->stack, ptx_operand, start),
                            b->stack->len - start);
    g_array_set_size(b->stack, start);
    return o;
}

ptx_operand builder_addrlist(ptx_builder *b, uint32_t start, const ptx_operand *first,
                             const PTX_YYLTYPE *loc)
{
    ptx_operand f = *first;
    if (f.kind != PTX_OPND_ADDR || f.val != 0) {
        builder_error(b, loc, "the first element of [a, b, ...] must be a name");
        return f;
    }
    /* [tex, ...]: the address form of a plain name becomes the name itself */
    if (f.id >= 0) {
        f.kind = PTX_OPND_REG;
    } else {
        f.kind = PTX_OPND_SYM;
        f.id = f.id2;
    }
    f.id2 = -1;
    g_array_insert_val(b->stack, start, f);
    return builder_list_end(b, start, PTX_OPND_ADDRLIST);
}
