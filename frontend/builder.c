/* frontend/builder.c — semantic actions of the PTX grammar for module-level
 * directives, declarations, functions and statements.  The lexer's helpers
 * are in builder_lex.c, scopes and operands in builder_names.c, instruction
 * decoding and operand checks in builder_instr.c. */
#include "frontend/builder_internal.h"
#include "frontend/ptx.tab.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ module level */

void builder_version(ptx_builder *b, ptx_strref text, const PTX_YYLTYPE *loc)
{
    unsigned maj = 0, min = 0, i = 0, nmaj = 0, nmin = 0;
    for (; i < text.len && g_ascii_isdigit(text.s[i]) && nmaj < 3; i++, nmaj++)
        maj = maj * 10 + (unsigned)(text.s[i] - '0');
    bool dot = i < text.len && text.s[i] == '.';
    for (i += dot; i < text.len && g_ascii_isdigit(text.s[i]) && nmin < 3; i++, nmin++)
        min = min * 10 + (unsigned)(text.s[i] - '0');
    if (!nmaj || !dot || !nmin || i != text.len) {
        builder_error(b, loc, "malformed .version '%.*s': expected MAJOR.MINOR, such as 8.0",
                      (int)MIN(text.len, 40u), text.s);
        return;
    }
    if (maj < 1 || maj > 9) {
        builder_error(b, loc, "unsupported PTX ISA version %u.%u (ptxemu reads 1.0 to 9.x)",
                      maj, min);
        return;
    }
    b->m->version_major = maj;
    b->m->version_minor = min;
}

/* PTX ISA "Target ISA notes": sm_NN architectures (with the a/f feature
 * suffixes of sm_90 and later) and the platform options. */
static bool target_known(ptx_strref name, bool first)
{
    static const char *const options[] = {"texmode_unified", "texmode_independent", "debug",
                                          "map_f64_to_f32"};
    static const unsigned sms[] = {10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60,
                                   61, 62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101,
                                   103, 110, 120, 121};
    for (size_t i = 0; i < G_N_ELEMENTS(options); i++)
        if (strlen(options[i]) == name.len && memcmp(options[i], name.s, name.len) == 0)
            return !first;
    if (name.len < 5 || name.len > 7 || memcmp(name.s, "sm_", 3) != 0)
        return false;
    unsigned n = 0, i = 3;
    for (; i < name.len && g_ascii_isdigit(name.s[i]); i++)
        n = n * 10 + (unsigned)(name.s[i] - '0');
    if (i == 3 || (i < name.len && (i + 1 != name.len || (name.s[i] != 'a' && name.s[i] != 'f'))))
        return false;
    if (i < name.len && n < 90)
        return false;
    for (size_t k = 0; k < G_N_ELEMENTS(sms); k++)
        if (sms[k] == n)
            return true;
    return false;
}

void builder_module_end(ptx_builder *b, const PTX_YYLTYPE *version_loc)
{
    if (!b->m->target)
        builder_error(b, version_loc, "the module has no .target directive (PTX needs one "
                                      "after .version, such as '.target sm_80')");
}

void builder_target(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc)
{
    if (!target_known(name, b->m->target == NULL)) {
        builder_error(b, loc, "unknown .target '%.*s' (expected sm_NN such as sm_80, then "
                              "options such as texmode_independent or debug)",
                      (int)MIN(name.len, 64u), name.s);
        return;
    }
    char *old = b->m->target;
    b->m->target = old ? g_strdup_printf("%s, %.*s", old, (int)name.len, name.s)
                       : g_strndup(name.s, name.len);
    g_free(old);
}

void builder_address_size(ptx_builder *b, uint64_t n, const PTX_YYLTYPE *loc)
{
    if (n != 32 && n != 64)
        builder_error(b, loc, ".address_size must be 32 or 64, not %llu",
                      (unsigned long long)n);
    b->m->address_size = (uint32_t)n;
}

void builder_file(ptx_builder *b, uint64_t idx, ptx_strref path, const char *extra)
{
    ptx_file_entry fe = {(uint32_t)idx, builder_intern(b, path), g_strdup(extra)};
    g_array_append_val(b->m->files, fe);
    builder_add_item(b, PTX_ITEM_FILE, b->m->files->len - 1);
}

void builder_section(ptx_builder *b)
{
    g_ptr_array_add(b->m->texts, g_strdup(b->section->str));
    builder_add_item(b, PTX_ITEM_SECTION, b->m->texts->len - 1);
}

void builder_module_pragma(ptx_builder *b, ptx_strref s)
{
    g_ptr_array_add(b->m->texts, g_strdup_printf(".pragma \"%.*s\";", (int)s.len, s.s));
    builder_add_item(b, PTX_ITEM_PRAGMA, b->m->texts->len - 1);
}

/* `.alias a, b;` makes function a another name for function b: kept as text
 * for printing and as a name map the loader resolves calls through. */
void builder_alias(ptx_builder *b, ptx_strref alias, ptx_strref target,
                   const PTX_YYLTYPE *loc)
{
    char *a = g_strndup(alias.s, alias.len);
    if (ptx_module_find_func(b->m, a) < 0)
        builder_error(b, loc, ".alias: '%s' is not a declared function", a);
    else
        g_hash_table_insert(b->m->aliases, (gpointer)builder_intern(b, alias),
                            (gpointer)builder_intern(b, target));
    g_free(a);
    g_ptr_array_add(b->m->texts, g_strdup_printf(".alias %.*s, %.*s;", (int)alias.len,
                                                 alias.s, (int)target.len, target.s));
    builder_add_item(b, PTX_ITEM_PRAGMA, b->m->texts->len - 1);
}

/* ----------------------------------------------------------- declarations */

static void attrs_reset(ptx_builder *b)
{
    g_free(b->attrs.attribute);
    memset(&b->attrs, 0, sizeof b->attrs);
    b->attrs.vec = 1;
}

static void attrs_note_loc(ptx_builder *b, const PTX_YYLTYPE *loc)
{
    if (!b->attrs.has_loc && loc) {
        b->attrs.loc = *loc;
        b->attrs.has_loc = true;
    }
}

void builder_attr_link(ptx_builder *b, int flag)
{
    b->attrs.linkage |= (uint32_t)flag;
}

void builder_attr_space(ptx_builder *b, int space, const PTX_YYLTYPE *loc)
{
    attrs_note_loc(b, loc);
    if (b->attrs.is_ptr) {
        b->attrs.ptr_space = (ptx_space)space;
        return;
    }
    if (b->attrs.nspaces++ > 0) {
        builder_error(b, loc, "a declaration takes one state space, found '.%s' after '.%s'",
                      ptx_space_name((ptx_space)space), ptx_space_name(b->attrs.space));
        return;
    }
    b->attrs.space = (ptx_space)space;
}

void builder_attr_type(ptx_builder *b, int type, const PTX_YYLTYPE *loc)
{
    attrs_note_loc(b, loc);
    if (b->attrs.ntypes++ > 0) {
        builder_error(b, loc, "a declaration takes one type, found '.%s' after '.%s'",
                      ptx_type_name((ptx_type)type), ptx_type_name(b->attrs.type));
        return;
    }
    b->attrs.type = (ptx_type)type;
}

void builder_attr_vec(ptx_builder *b, int vec)
{
    b->attrs.vec = (uint8_t)vec;
}

void builder_attr_align(ptx_builder *b, uint64_t align, const PTX_YYLTYPE *loc)
{
    if (align == 0 || (align & (align - 1)) || align > (1u << 20)) {
        builder_error(b, loc, ".align must be a power of two, not %llu",
                      (unsigned long long)align);
        return;
    }
    if (b->attrs.is_ptr)
        b->attrs.ptr_align = (uint32_t)align;
    else
        b->attrs.align = (uint32_t)align;
}

void builder_attr_ptr(ptx_builder *b)
{
    b->attrs.is_ptr = true;
}

void builder_attr_attribute(ptx_builder *b, ptx_strref s)
{
    g_free(b->attrs.attribute);
    b->attrs.attribute = g_strndup(s.s, s.len);
}

void builder_decl_dim(ptx_builder *b, uint64_t n, const PTX_YYLTYPE *loc)
{
    if (b->ndims >= 4) {
        builder_error(b, loc, "arrays have at most 4 dimensions");
        return;
    }
    b->dims[b->ndims++] = n;
}

bool builder_const_div(ptx_builder *b, uint64_t a, uint64_t d, bool rem, uint64_t *out,
                       const PTX_YYLTYPE *loc)
{
    if (d == 0) {
        builder_error(b, loc, "division by zero in a constant expression");
        return false;
    }
    int64_t x = (int64_t)a, y = (int64_t)d;
    if (x == INT64_MIN && y == -1) /* the one quotient that overflows */
        *out = rem ? 0 : a;
    else
        *out = (uint64_t)(rem ? x % y : x / y);
    return true;
}

void builder_init_item(ptx_builder *b, ptx_init_kind kind, int64_t val)
{
    if (!b->init)
        b->init = g_array_new(FALSE, TRUE, sizeof(ptx_init));
    ptx_init it = {(uint8_t)kind, 0, -1, val};
    g_array_append_val(b->init, it);
}

static void init_kv_text(ptx_builder *b, char *text)
{
    g_ptr_array_add(b->m->texts, text);
    builder_init_item(b, PTX_INIT_KV, (int64_t)b->m->texts->len - 1);
}

void builder_init_kv(ptx_builder *b, ptx_strref key, ptx_strref value)
{
    init_kv_text(b, g_strdup_printf("%.*s = %.*s", (int)key.len, key.s, (int)value.len,
                                    value.s));
}

void builder_init_kv_int(ptx_builder *b, ptx_strref key, uint64_t value)
{
    init_kv_text(b, g_strdup_printf("%.*s = %llu", (int)key.len, key.s,
                                    (unsigned long long)value));
}

void builder_init_sym(ptx_builder *b, ptx_strref name, int64_t off, bool generic,
                      const PTX_YYLTYPE *loc)
{
    char *n = g_strndup(name.s, name.len);
    int32_t sym = ptx_module_find(b->m, n);
    if (sym < 0)
        builder_error(b, loc, "undefined symbol '%s' in initializer", n);
    g_free(n);
    if (!b->init)
        b->init = g_array_new(FALSE, TRUE, sizeof(ptx_init));
    ptx_init it = {PTX_INIT_SYM, generic, sym, off};
    g_array_append_val(b->init, it);
}

static bool declare_name(ptx_builder *b, const char *name, gpointer enc,
                         const PTX_YYLTYPE *loc)
{
    if (b->fn) {
        ptx_scope *s = builder_scope_top(b);
        if (g_hash_table_contains(s->names, name) ||
            g_hash_table_contains(s->ranges, name)) {
            builder_error(b, loc, "'%s' is already declared in this scope", name);
            return false;
        }
        g_hash_table_insert(s->names, g_strdup(name), enc);
        return true;
    }
    return true;
}

static int32_t declare_reg(ptx_builder *b, const char *name, const PTX_YYLTYPE *loc,
                           int64_t range, bool stmt)
{
    ptx_func *f = b->fn;
    ptx_regdecl d = {.prefix = name, .type = b->attrs.type, .vec = b->attrs.vec,
                     .count = range >= 0 ? (uint32_t)range : 1,
                     .is_range = range >= 0, .first_reg = f->regs->len};
    if (range > (1 << 24)) {
        builder_error(b, loc, "register range %s<%lld> is too large", name,
                      (long long)range);
        return -1;
    }
    uint32_t di = f->regdecls->len;
    ptx_scope *s = builder_scope_top(b);
    if (d.is_range) {
        if (g_hash_table_contains(s->ranges, name) ||
            g_hash_table_contains(s->names, name)) {
            builder_error(b, loc, "register '%s' is already declared in this scope", name);
            return -1;
        }
        g_hash_table_insert(s->ranges, g_strdup(name), GINT_TO_POINTER(di + 1));
    } else if (!declare_name(b, name, NAME_ENC(NAME_REG, f->regs->len), loc)) {
        return -1;
    }
    g_array_append_val(f->regdecls, d);
    /* one resize for the whole %r<N> range */
    g_array_set_size(f->regs, d.first_reg + d.count);
    for (uint32_t i = 0; i < d.count; i++)
        g_array_index(f->regs, ptx_reg, d.first_reg + i) = (ptx_reg){di, i, d.type, d.vec};
    if (stmt)
        builder_add_stmt(b, PTX_STMT_REG, di);
    return (int32_t)d.first_reg;
}

static int32_t make_var(ptx_builder *b, const char *name, const PTX_YYLTYPE *loc)
{
    ptx_var v = {0};
    v.name = name;
    v.space = b->attrs.space;
    v.type = b->attrs.type;
    v.vec = b->attrs.vec;
    v.is_ptr = b->attrs.is_ptr;
    v.ptr_space = (uint8_t)b->attrs.ptr_space;
    v.ptr_align = b->attrs.ptr_align;
    v.align = b->attrs.align;
    v.linkage = b->attrs.linkage;
    v.ndims = b->ndims;
    memcpy(v.dims, b->dims, sizeof v.dims);
    v.attributes = g_strdup(b->attrs.attribute);
    v.func = b->fn ? b->fn_index : -1;
    v.reg = -1;
    v.loc.line = (uint32_t)loc->first_line;
    v.loc.col = (uint32_t)loc->first_column;
    g_array_append_val(b->m->vars, v);
    b->ndims = 0;
    return (int32_t)b->m->vars->len - 1;
}

/* Sizes are computed in 64 bits; .local and .param addresses are 32-bit
 * offsets, so one variable there is at most 4 GiB; one .shared variable
 * must fit in the shared memory of the largest GPU (PTX_SHARED_MAX, the
 * loader's limit), and no variable may reach 2^62 bytes (so sums of a few
 * cannot wrap). */
static bool check_var_size(ptx_builder *b, const char *name, const PTX_YYLTYPE *loc)
{
    uint64_t size = (uint64_t)ptx_type_size(b->attrs.type) * (b->attrs.vec ? b->attrs.vec : 1);
    ptx_space sp = b->attrs.space;
    uint64_t max = sp == PTX_SPACE_SHARED ? PTX_SHARED_MAX
                   : sp == PTX_SPACE_LOCAL || sp == PTX_SPACE_PARAM ? (1ull << 32)
                                                                     : (1ull << 62);
    const char *why = sp == PTX_SPACE_SHARED ? " (the shared memory of any GPU ptxemu models)"
                                             : "";
    bool fits = true;
    for (uint32_t i = 0; i < b->ndims && fits; i++) {
        if (b->dims[i] && size > max / b->dims[i])
            fits = false;
        else if (b->dims[i])
            size *= b->dims[i];
    }
    if (!fits || size > max) {
        builder_error(b, loc, "array '%s' is too large: more than %llu bytes in %s%s", name,
                      (unsigned long long)max, ptx_space_name(sp), why);
        return false;
    }
    return true;
}

void builder_decl_name(ptx_builder *b, ptx_strref sname, const PTX_YYLTYPE *loc,
                       int64_t range, bool has_init)
{
    const char *name = builder_intern(b, sname);
    if (b->attrs.space == PTX_SPACE_NONE) {
        builder_error(b, loc, "declaration of '%s' needs a state space (.reg, .global, ...)", name);
        return;
    }
    if (b->attrs.type == PTX_T_NONE) {
        builder_error(b, loc, "declaration of '%s' needs a type", name);
        return;
    }
    if (b->attrs.space == PTX_SPACE_SREG) {
        builder_error(b, loc, "not supported yet: .sreg declarations");
        return;
    }
    if (b->attrs.space == PTX_SPACE_REG) {
        if (!b->fn || !b->in_body) {
            builder_error(b, loc, ".reg declarations belong inside a function body");
            return;
        }
        if (has_init || b->ndims) {
            builder_error(b, loc, "register '%s' cannot be an array or have an initializer", name);
            return;
        }
        declare_reg(b, name, loc, range, true);
        return;
    }
    if (range >= 0) {
        builder_error(b, loc, "'%s<N>' ranges are only for .reg declarations", name);
        return;
    }
    if (!check_var_size(b, name, loc))
        return;
    int32_t vi = make_var(b, name, loc);
    if (has_init) {
        ptx_module_var(b->m, vi)->init = b->init;
        b->init = NULL;
    }
    int32_t sym = builder_add_symbol(b, name, PTX_SYM_VAR, vi, loc);
    if (b->fn) {
        if (!declare_name(b, name, NAME_ENC(NAME_SYM, sym), loc))
            return;
        builder_add_stmt(b, PTX_STMT_VAR, (uint32_t)vi);
    } else {
        gpointer old = g_hash_table_lookup(b->m->globals, name);
        if (old) {
            ptx_symbol *os = ptx_module_sym(b->m, GPOINTER_TO_INT(old) - 1);
            bool old_extern = os->kind == PTX_SYM_VAR &&
                              (ptx_module_var(b->m, os->index)->linkage & PTX_LINK_EXTERN);
            if (!old_extern) {
                builder_error(b, loc, "'%s' is already declared at %u:%u", name,
                              os->loc.line, os->loc.col);
                return;
            }
        }
        g_hash_table_insert(b->m->globals, (gpointer)name, GINT_TO_POINTER(sym + 1));
        builder_add_item(b, PTX_ITEM_VAR, (uint32_t)vi);
    }
}

void builder_decl_end(ptx_builder *b)
{
    attrs_reset(b);
    b->ndims = 0;
    if (b->init) {
        g_array_free(b->init, TRUE);
        b->init = NULL;
    }
}

/* -------------------------------------------------------------- functions */

void builder_func_begin(ptx_builder *b, bool entry, const PTX_YYLTYPE *loc)
{
    if (b->attrs.space != PTX_SPACE_NONE || b->attrs.type != PTX_T_NONE) {
        builder_error(b, loc, "only linkage directives may precede '%s'",
                      entry ? ".entry" : ".func");
        return;
    }
    ptx_func *f = ptx_func_new();
    f->is_entry = entry;
    f->linkage = b->attrs.linkage;
    f->loc.line = (uint32_t)loc->first_line;
    f->loc.col = (uint32_t)loc->first_column;
    attrs_reset(b);
    b->fn = f;
    b->fn_index = (int32_t)b->m->funcs->len;
    g_ptr_array_add(b->m->funcs, f);
    g_ptr_array_add(b->scopes, builder_scope_new());
    b->labels = g_hash_table_new(g_str_hash, g_str_equal);
    b->param_mode = PARAMS_FUNC;
    b->in_body = false;
}

void builder_func_name(ptx_builder *b, ptx_strref sname, const PTX_YYLTYPE *loc)
{
    ptx_func *f = b->fn;
    f->name = builder_intern(b, sname);
    gpointer old = g_hash_table_lookup(b->m->globals, f->name);
    if (old) {
        ptx_symbol *s = ptx_module_sym(b->m, GPOINTER_TO_INT(old) - 1);
        if (s->kind != PTX_SYM_FUNC) {
            builder_error(b, loc, "'%s' is already declared at %u:%u as a variable",
                          f->name, s->loc.line, s->loc.col);
            return;
        }
        f->sym = GPOINTER_TO_INT(old) - 1;
        return; /* a definition after a prototype: settled at the body */
    }
    int32_t saved = b->fn_index;
    b->fn_index = -1; /* function symbols are module scope */
    ptx_func *cur = b->fn;
    b->fn = NULL;
    f->sym = builder_add_symbol(b, f->name, PTX_SYM_FUNC, saved, loc);
    b->fn = cur;
    b->fn_index = saved;
    g_hash_table_insert(b->m->globals, (gpointer)f->name, GINT_TO_POINTER(f->sym + 1));
}

void builder_param_mode(ptx_builder *b, ptx_param_mode mode)
{
    b->param_mode = mode;
}

void builder_param(ptx_builder *b, ptx_strref sname, const PTX_YYLTYPE *loc)
{
    const char *name = builder_intern(b, sname);
    if (b->attrs.space != PTX_SPACE_PARAM && b->attrs.space != PTX_SPACE_REG) {
        builder_error(b, loc, "parameter '%s' must be declared .param or .reg", name);
        return;
    }
    if (b->attrs.type == PTX_T_NONE) {
        builder_error(b, loc, "parameter '%s' needs a type", name);
        return;
    }
    if (!check_var_size(b, name, loc))
        return;
    if (b->param_mode == PARAMS_PROTO || b->param_mode == PARAMS_PROTO_RETS) {
        ptx_var v = {0};
        v.name = name;
        v.space = b->attrs.space;
        v.type = b->attrs.type;
        v.vec = b->attrs.vec;
        v.align = b->attrs.align;
        v.ndims = b->ndims;
        memcpy(v.dims, b->dims, sizeof v.dims);
        v.func = b->fn_index;
        b->ndims = 0;
        g_array_append_val(b->param_mode == PARAMS_PROTO ? b->proto->params
                                                         : b->proto->rets, v);
        attrs_reset(b);
        return;
    }
    int32_t vi = make_var(b, name, loc);
    if (b->attrs.space == PTX_SPACE_REG) {
        /* old-style .reg parameters are registers inside the body */
        int32_t r = declare_reg(b, name, loc, -1, false);
        ptx_module_var(b->m, vi)->reg = r;
    } else {
        int32_t sym = builder_add_symbol(b, name, PTX_SYM_VAR, vi, loc);
        declare_name(b, name, NAME_ENC(NAME_SYM, sym), loc);
    }
    g_array_append_val(b->param_mode == PARAMS_RETS ? b->fn->rets : b->fn->params, vi);
    attrs_reset(b);
}

void builder_func_noreturn(ptx_builder *b)
{
    b->fn->noreturn = true;
}

void builder_func_perf(ptx_builder *b, ptx_strref dir, const uint64_t *v, int n,
                       const PTX_YYLTYPE *loc)
{
    ptx_perf *p = &b->fn->perf;
    char name[40];
    g_snprintf(name, sizeof name, "%.*s", (int)dir.len - 1, dir.s + 1);
    int maxn = 1, minn = 1;
    if (!strcmp(name, "maxntid") || !strcmp(name, "reqntid") ||
        !strcmp(name, "reqnctapercluster"))
        maxn = 3;
    else if (!strcmp(name, "explicitcluster") || !strcmp(name, "blocksareclusters"))
        maxn = minn = 0;
    if (n < minn || n > maxn) {
        builder_error(b, loc, ".%s takes %d to %d values, found %d", name, minn, maxn, n);
        return;
    }
    uint32_t v3[3] = {1, 1, 1};
    for (int i = 0; i < n; i++)
        v3[i] = (uint32_t)v[i];
    if (!strcmp(name, "maxntid")) {
        memcpy(p->maxntid, v3, sizeof v3);
        p->has_maxntid = true;
        p->maxntid_dims = (uint8_t)n;
    } else if (!strcmp(name, "reqntid")) {
        memcpy(p->reqntid, v3, sizeof v3);
        p->has_reqntid = true;
        p->reqntid_dims = (uint8_t)n;
    } else if (!strcmp(name, "reqnctapercluster")) {
        memcpy(p->reqnctapercluster, v3, sizeof v3);
        p->has_reqnctapercluster = true;
        p->reqnctapercluster_dims = (uint8_t)n;
    } else if (!strcmp(name, "minnctapersm")) {
        p->minnctapersm = v3[0];
    } else if (!strcmp(name, "maxnreg")) {
        p->maxnreg = v3[0];
    } else if (!strcmp(name, "maxclusterrank")) {
        p->maxclusterrank = v3[0];
    } else if (!strcmp(name, "explicitcluster")) {
        p->explicitcluster = true;
    } else {
        /* kept verbatim (.maxnctapersm, .abi_preserve ...) for printing */
        GString *s = g_string_new(NULL);
        g_string_append_printf(s, ".%s", name);
        for (int i = 0; i < n; i++)
            g_string_append_printf(s, "%s%llu", i ? ", " : " ", (unsigned long long)v[i]);
        g_ptr_array_add(b->fn->pragmas, g_string_free(s, FALSE));
    }
}

void builder_func_pragma(ptx_builder *b, ptx_strref s)
{
    g_ptr_array_add(b->fn->pragmas, g_strdup_printf(".pragma \"%.*s\";", (int)s.len, s.s));
}

void builder_body_begin(ptx_builder *b)
{
    b->in_body = true;
    b->loc_file = b->loc_line = 0;
}

void builder_func_end(ptx_builder *b, bool has_body, const PTX_YYLTYPE *loc)
{
    ptx_func *f = b->fn;
    if (has_body) {
        /* every label used must be defined; the function's own label table
         * is searched, not every symbol of the module (that was quadratic),
         * and the first one used is reported */
        int32_t undef = -1;
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init(&it, b->labels);
        while (g_hash_table_iter_next(&it, NULL, &v)) {
            int32_t id = GPOINTER_TO_INT(v) - 1;
            const ptx_symbol *s = ptx_module_sym(b->m, id);
            if (s->kind == PTX_SYM_LABEL && s->index < 0 && (undef < 0 || id < undef))
                undef = id;
        }
        if (undef >= 0) {
            const ptx_symbol *s = ptx_module_sym(b->m, undef);
            PTX_YYLTYPE l = {(int)s->loc.line, (int)s->loc.col, 0, 0};
            builder_error(b, &l, "undefined label or symbol '%s'", s->name);
        }
        ptx_symbol *fs = ptx_module_sym(b->m, f->sym);
        ptx_func *prev = ptx_module_func(b->m, (guint)fs->index);
        if (prev != f && prev->has_body) {
            builder_error(b, loc, "function '%s' is defined twice (first at %u:%u)",
                          f->name, prev->loc.line, prev->loc.col);
        }
        f->has_body = true;
        fs->index = b->fn_index;
    }
    g_ptr_array_set_size(b->scopes, 0);
    g_hash_table_destroy(b->labels);
    b->labels = NULL;
    b->fn = NULL;
    b->in_body = false;
    builder_add_item(b, PTX_ITEM_FUNC, (uint32_t)b->fn_index);
    b->fn_index = -1;
}

/* ------------------------------------------------------------- statements */

void builder_label(ptx_builder *b, ptx_strref sname, const PTX_YYLTYPE *loc)
{
    char *name = g_strndup(sname.s, sname.len);
    gpointer v = g_hash_table_lookup(b->labels, name);
    int32_t sym;
    if (v) {
        sym = GPOINTER_TO_INT(v) - 1;
        ptx_symbol *s = ptx_module_sym(b->m, sym);
        if (s->index >= 0 || s->kind != PTX_SYM_LABEL) {
            builder_error(b, loc, "duplicate label '%s' (first defined at %u:%u)",
                          name, s->loc.line, s->loc.col);
            g_free(name);
            return;
        }
        s->index = (int32_t)b->fn->instrs->len;
        s->loc.line = (uint32_t)loc->first_line;
        s->loc.col = (uint32_t)loc->first_column;
    } else {
        const char *iname = builder_intern(b, sname);
        sym = builder_add_symbol(b, iname, PTX_SYM_LABEL, (int32_t)b->fn->instrs->len, loc);
        g_hash_table_insert(b->labels, (gpointer)iname, GINT_TO_POINTER(sym + 1));
    }
    g_free(name);
    g_array_append_val(b->fn->labels, sym);
    builder_add_stmt(b, PTX_STMT_LABEL, (uint32_t)sym);
    b->last_label = sym;
    b->last_label_stmt = b->fn->stmts->len - 1;
}

void builder_loc(ptx_builder *b, const uint64_t *v, ptx_strref fname,
                 const uint64_t *inl, bool has_inlined)
{
    b->loc_file = (uint32_t)v[0];
    b->loc_line = (uint32_t)v[1];
    char *t = has_inlined
        ? g_strdup_printf(".loc %llu %llu %llu, function_name %.*s%s%.0llu, inlined_at %llu %llu %llu",
                          (unsigned long long)v[0], (unsigned long long)v[1],
                          (unsigned long long)v[2], (int)fname.len, fname.s,
                          inl[3] ? "+" : "", (unsigned long long)inl[3],
                          (unsigned long long)inl[0], (unsigned long long)inl[1],
                          (unsigned long long)inl[2])
        : g_strdup_printf(".loc %llu %llu %llu", (unsigned long long)v[0],
                          (unsigned long long)v[1], (unsigned long long)v[2]);
    g_ptr_array_add(b->fn->texts, t);
    builder_add_stmt(b, PTX_STMT_LOC, b->fn->texts->len - 1);
}

void builder_stmt_pragma(ptx_builder *b, ptx_strref s)
{
    g_ptr_array_add(b->fn->texts, g_strdup_printf(".pragma \"%.*s\";", (int)s.len, s.s));
    builder_add_stmt(b, PTX_STMT_PRAGMA, b->fn->texts->len - 1);
}

/* A label immediately before .callprototype/.branchtargets/.calltargets names
 * that directive instead of an instruction position. */
static int32_t take_last_label(ptx_builder *b, const PTX_YYLTYPE *loc, const char *what)
{
    ptx_func *f = b->fn;
    if (b->last_label < 0 || f->stmts->len == 0 ||
        b->last_label_stmt != f->stmts->len - 1) {
        builder_error(b, loc, "%s must follow a label ('name: %s ...')", what, what);
        return -1;
    }
    g_array_set_size(f->stmts, f->stmts->len - 1);
    g_array_set_size(f->labels, f->labels->len - 1);
    int32_t sym = b->last_label;
    b->last_label = -1;
    return sym;
}

void builder_proto_begin(ptx_builder *b, const PTX_YYLTYPE *loc)
{
    int32_t sym = take_last_label(b, loc, ".callprototype");
    if (sym < 0)
        return;
    ptx_proto p = {sym, g_array_new(FALSE, TRUE, sizeof(ptx_var)),
                   g_array_new(FALSE, TRUE, sizeof(ptx_var)), false};
    g_array_append_val(b->fn->protos, p);
    ptx_symbol *s = ptx_module_sym(b->m, sym);
    s->kind = PTX_SYM_PROTO;
    s->index = (int32_t)b->fn->protos->len - 1;
    b->proto = &g_array_index(b->fn->protos, ptx_proto, b->fn->protos->len - 1);
}

void builder_proto_end(ptx_builder *b, bool noreturn)
{
    b->proto->noreturn = noreturn;
    builder_add_stmt(b, PTX_STMT_PROTO, b->fn->protos->len - 1);
    b->proto = NULL;
    b->param_mode = PARAMS_FUNC;
}

void builder_targets_begin(ptx_builder *b)
{
    if (!b->targets)
        b->targets = g_array_new(FALSE, FALSE, sizeof(int32_t));
    g_array_set_size(b->targets, 0);
}

void builder_target_name(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc)
{
    ptx_operand o = builder_sym(b, name, loc);
    if (o.kind != PTX_OPND_SYM) {
        builder_error(b, loc, "'%.*s' is not a label or function", (int)name.len, name.s);
        return;
    }
    g_array_append_val(b->targets, o.id);
}

void builder_targets_end(ptx_builder *b, bool calls, const PTX_YYLTYPE *loc)
{
    const char *what = calls ? ".calltargets" : ".branchtargets";
    /* the label was consumed before the names; find it in the statements */
    int32_t sym = take_last_label(b, loc, what);
    if (sym < 0)
        return;
    ptx_targets t = {sym, g_array_new(FALSE, FALSE, sizeof(int32_t))};
    g_array_append_vals(t.syms, b->targets->data, b->targets->len);
    g_array_append_val(b->fn->targets, t);
    ptx_symbol *s = ptx_module_sym(b->m, sym);
    s->kind = calls ? PTX_SYM_CALLTARGETS : PTX_SYM_BRANCHTARGETS;
    s->index = (int32_t)b->fn->targets->len - 1;
    builder_add_stmt(b, PTX_STMT_TARGETS, b->fn->targets->len - 1);
}

