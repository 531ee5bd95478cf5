/* frontend/ir.c — construction, destruction and small queries of the IR. */
#include "frontend/ir.h"

#include <stdio.h>
#include <string.h>

const char *ptx_space_name(ptx_space s)
{
    static const char *const names[] = {"",      "reg",   "sreg",  "const",
                                        "global", "local", "param", "shared",
                                        "tex",   "generic"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static const struct {
    const char *name;
    bool comps;
} sreg_table[PTX_SREG_COUNT] = {
#define X(e, n, c) [PTX_SREG_##e] = {n, c},
    PTX_SREG_LIST(X)
#undef X
};

const char *ptx_sreg_name(ptx_sreg s)
{
    return (unsigned)s < PTX_SREG_COUNT ? sreg_table[s].name : "?";
}

bool ptx_sreg_has_components(ptx_sreg s)
{
    return (unsigned)s < PTX_SREG_COUNT && sreg_table[s].comps;
}

static void clear_var(gpointer p)
{
    ptx_var *v = p;
    if (v->init)
        g_array_free(v->init, TRUE);
    g_free(v->attributes);
}

static void clear_proto(gpointer p)
{
    ptx_proto *pr = p;
    g_array_free(pr->rets, TRUE);
    g_array_free(pr->params, TRUE);
}

static void clear_targets(gpointer p)
{
    ptx_targets *t = p;
    g_array_free(t->syms, TRUE);
}

static void clear_file(gpointer p)
{
    g_free(((ptx_file_entry *)p)->extra);
}

ptx_module *ptx_module_new(const char *source_name)
{
    ptx_module *m = g_new0(ptx_module, 1);
    m->source_name = g_strdup(source_name ? source_name : "<string>");
    m->strings = g_string_chunk_new(16384);
    m->vars = g_array_new(FALSE, TRUE, sizeof(ptx_var));
    g_array_set_clear_func(m->vars, clear_var);
    m->funcs = g_ptr_array_new_with_free_func((GDestroyNotify)ptx_func_free);
    m->syms = g_array_new(FALSE, TRUE, sizeof(ptx_symbol));
    m->files = g_array_new(FALSE, TRUE, sizeof(ptx_file_entry));
    g_array_set_clear_func(m->files, clear_file);
    m->texts = g_ptr_array_new_with_free_func(g_free);
    m->items = g_array_new(FALSE, TRUE, sizeof(ptx_item));
    m->dyn_mods = g_ptr_array_new_with_free_func(g_free);
    m->globals = g_hash_table_new(g_str_hash, g_str_equal);
    m->aliases = g_hash_table_new(g_str_hash, g_str_equal);
    m->address_size = 64;
    return m;
}

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    g_hash_table_destroy(m->globals);
    g_hash_table_destroy(m->aliases);
    g_ptr_array_free(m->dyn_mods, TRUE);
    g_array_free(m->items, TRUE);
    g_ptr_array_free(m->texts, TRUE);
    g_array_free(m->files, TRUE);
    g_array_free(m->syms, TRUE);
    g_ptr_array_free(m->funcs, TRUE);
    g_array_free(m->vars, TRUE);
    g_string_chunk_free(m->strings);
    g_free(m->target);
    g_free(m->source_name);
    g_free(m);
}

ptx_func *ptx_func_new(void)
{
    ptx_func *f = g_new0(ptx_func, 1);
    f->pragmas = g_ptr_array_new_with_free_func(g_free);
    f->params = g_array_new(FALSE, FALSE, sizeof(int32_t));
    f->rets = g_array_new(FALSE, FALSE, sizeof(int32_t));
    f->regdecls = g_array_new(FALSE, TRUE, sizeof(ptx_regdecl));
    f->regs = g_array_new(FALSE, TRUE, sizeof(ptx_reg));
    f->instrs = g_array_new(FALSE, TRUE, sizeof(ptx_instr));
    f->operands = g_array_new(FALSE, TRUE, sizeof(ptx_operand));
    f->stmts = g_array_new(FALSE, FALSE, sizeof(ptx_stmt));
    f->labels = g_array_new(FALSE, FALSE, sizeof(int32_t));
    f->protos = g_array_new(FALSE, TRUE, sizeof(ptx_proto));
    g_array_set_clear_func(f->protos, clear_proto);
    f->targets = g_array_new(FALSE, TRUE, sizeof(ptx_targets));
    g_array_set_clear_func(f->targets, clear_targets);
    f->texts = g_ptr_array_new_with_free_func(g_free);
    f->sym = -1;
    return f;
}

void ptx_func_free(ptx_func *f)
{
    if (!f)
        return;
    g_ptr_array_free(f->pragmas, TRUE);
    g_array_free(f->params, TRUE);
    g_array_free(f->rets, TRUE);
    g_array_free(f->regdecls, TRUE);
    g_array_free(f->regs, TRUE);
    g_array_free(f->instrs, TRUE);
    g_array_free(f->operands, TRUE);
    g_array_free(f->stmts, TRUE);
    g_array_free(f->labels, TRUE);
    g_array_free(f->protos, TRUE);
    g_array_free(f->targets, TRUE);
    g_ptr_array_free(f->texts, TRUE);
    g_free(f);
}

int32_t ptx_module_find(const ptx_module *m, const char *name)
{
    gpointer v = g_hash_table_lookup(m->globals, name);
    return v ? (int32_t)GPOINTER_TO_INT(v) - 1 : -1;
}

int32_t ptx_module_find_func(const ptx_module *m, const char *name)
{
    int32_t s = ptx_module_find(m, name);
    if (s < 0 || ptx_module_sym(m, s)->kind != PTX_SYM_FUNC)
        return -1;
    return ptx_module_sym(m, s)->index;
}

const char *ptx_reg_name(const ptx_func *f, uint32_t reg, char *buf,
                         size_t len)
{
    const ptx_reg *r = &g_array_index(f->regs, ptx_reg, reg);
    const ptx_regdecl *d = &g_array_index(f->regdecls, ptx_regdecl, r->decl);
    if (!d->is_range)
        snprintf(buf, len, "%s", d->prefix);
    else
        snprintf(buf, len, "%s%u", d->prefix, r->index);
    return buf;
}

const char *ptx_module_mod_name(const ptx_module *m, uint16_t mod)
{
    const char *s = ptx_mod_name(mod);
    if (s)
        return s;
    if (mod >= PTX_MOD_DYN_BASE && (guint)(mod - PTX_MOD_DYN_BASE) < m->dyn_mods->len)
        return g_ptr_array_index(m->dyn_mods, mod - PTX_MOD_DYN_BASE);
    return "?";
}

bool ptx_instr_has_mod(const ptx_instr *in, uint16_t mod)
{
    for (unsigned i = 0; i < in->nmods; i++)
        if (in->mods[i] == mod)
            return true;
    return false;
}
