/* frontend/print.c — re-emits a module as PTX.  The output parses back to
 * the same IR, so dump -> parse -> dump is a fixed point. */
#include "frontend/print.h"

#include <inttypes.h>
#include <string.h>

static void print_type_words(GString *o, const ptx_var *v)
{
    if (v->linkage & PTX_LINK_EXTERN)
        g_string_append(o, ".extern ");
    if (v->linkage & PTX_LINK_VISIBLE)
        g_string_append(o, ".visible ");
    if (v->linkage & PTX_LINK_WEAK)
        g_string_append(o, ".weak ");
    if (v->linkage & PTX_LINK_COMMON)
        g_string_append(o, ".common ");
    g_string_append_printf(o, ".%s ", ptx_space_name(v->space));
    if (v->attributes)
        g_string_append_printf(o, "%s ", v->attributes);
    if (v->align)
        g_string_append_printf(o, ".align %u ", v->align);
    if (v->vec > 1)
        g_string_append_printf(o, ".v%u ", v->vec);
    g_string_append_printf(o, ".%s", ptx_type_name(v->type));
    if (v->is_ptr) {
        g_string_append(o, " .ptr");
        if (v->ptr_space)
            g_string_append_printf(o, " .%s", ptx_space_name((ptx_space)v->ptr_space));
        if (v->ptr_align)
            g_string_append_printf(o, " .align %u", v->ptr_align);
    }
}

static void print_dims(GString *o, const ptx_var *v)
{
    for (uint32_t i = 0; i < v->ndims; i++) {
        if (v->dims[i])
            g_string_append_printf(o, "[%" PRIu64 "]", v->dims[i]);
        else
            g_string_append(o, "[]");
    }
}

static void print_init(GString *o, const ptx_module *m, const GArray *init)
{
    bool need_comma = false;
    for (guint i = 0; i < init->len; i++) {
        const ptx_init *it = &g_array_index(init, ptx_init, i);
        if (it->kind == PTX_INIT_CLOSE) {
            g_string_append_c(o, '}');
            need_comma = true;
            continue;
        }
        if (need_comma)
            g_string_append(o, ", ");
        need_comma = true;
        switch (it->kind) {
        case PTX_INIT_OPEN:
            g_string_append_c(o, '{');
            need_comma = false;
            break;
        case PTX_INIT_INT:
            if (it->val < 0)
                g_string_append_printf(o, "-%" PRIu64, (uint64_t)0 - (uint64_t)it->val);
            else
                g_string_append_printf(o, "%" PRId64, it->val);
            break;
        case PTX_INIT_F32:
            g_string_append_printf(o, "0f%08" PRIX32, (uint32_t)it->val);
            break;
        case PTX_INIT_F64:
            g_string_append_printf(o, "0d%016" PRIX64, (uint64_t)it->val);
            break;
        case PTX_INIT_KV:
            g_string_append(o, g_ptr_array_index(m->texts, (guint)it->val));
            break;
        case PTX_INIT_SYM: {
            const char *n = ptx_module_sym(m, it->sym)->name;
            if (it->generic)
                g_string_append_printf(o, "generic(%s)", n);
            else
                g_string_append(o, n);
            if (it->val)
                g_string_append_printf(o, "+%" PRId64, it->val);
            break;
        }
        default:
            break;
        }
    }
}

void ptx_print_var(GString *o, const ptx_module *m, const ptx_var *v)
{
    print_type_words(o, v);
    g_string_append_printf(o, " %s", v->name);
    print_dims(o, v);
    if (v->init) {
        g_string_append(o, " = ");
        print_init(o, m, v->init);
    }
}

static void print_imm(GString *o, const ptx_operand *op)
{
    switch (op->kind) {
    case PTX_OPND_IMM:
        if (op->val < 0)
            g_string_append_printf(o, "-%" PRIu64, (uint64_t)0 - (uint64_t)op->val);
        else
            g_string_append_printf(o, "%" PRId64, op->val);
        break;
    case PTX_OPND_FIMM32:
        g_string_append_printf(o, "0f%08" PRIX32, (uint32_t)op->val);
        break;
    case PTX_OPND_FIMM64:
        g_string_append_printf(o, "0d%016" PRIX64, (uint64_t)op->val);
        break;
    default:
        break;
    }
}

/* No fixed buffer: a truncated long name would not parse back. */
static void print_reg(GString *o, const ptx_func *f, int32_t id)
{
    const ptx_reg *r = &g_array_index(f->regs, ptx_reg, id);
    const ptx_regdecl *d = &g_array_index(f->regdecls, ptx_regdecl, r->decl);
    g_string_append(o, d->prefix);
    if (d->is_range)
        g_string_append_printf(o, "%u", r->index);
}

void ptx_print_operand(GString *o, const ptx_module *m, const ptx_func *f,
                       const ptx_operand *op)
{
    static const char *const comps[] = {"", "x", "y", "z", "w", "b0", "b1",
                                        "b2", "b3", "h0", "h1"};
    switch (op->kind) {
    case PTX_OPND_REG:
        if (op->flags & PTX_OPNDF_NOT)
            g_string_append_c(o, '!');
        print_reg(o, f, op->id);
        if (op->comp)
            g_string_append_printf(o, ".%s", comps[op->comp < 11 ? op->comp : 0]);
        break;
    case PTX_OPND_SREG:
        if (op->id == PTX_SREG_ENVREG || op->id == PTX_SREG_PM)
            g_string_append_printf(o, "%%%s%" PRId64, op->id == PTX_SREG_PM ? "pm" : "envreg",
                                   op->val);
        else if (op->id == PTX_SREG_PM64)
            g_string_append_printf(o, "%%pm%" PRId64 "_64", op->val);
        else
            g_string_append_printf(o, "%%%s", ptx_sreg_name((ptx_sreg)op->id));
        if (op->comp)
            g_string_append_printf(o, ".%s", comps[op->comp < 11 ? op->comp : 0]);
        break;
    case PTX_OPND_IMM: case PTX_OPND_FIMM32: case PTX_OPND_FIMM64:
        print_imm(o, op);
        break;
    case PTX_OPND_SYM:
        g_string_append(o, ptx_module_sym(m, op->id)->name);
        if (op->val)
            g_string_append_printf(o, "+%" PRId64, op->val);
        break;
    case PTX_OPND_ADDR:
        g_string_append_c(o, '[');
        if (op->id >= 0)
            print_reg(o, f, op->id);
        else if (op->id2 >= 0)
            g_string_append(o, ptx_module_sym(m, op->id2)->name);
        if (op->id >= 0 || op->id2 >= 0) {
            if (op->val > 0)
                g_string_append_printf(o, "+%" PRId64, op->val);
            else if (op->val < 0)
                g_string_append_printf(o, "+-%" PRIu64, (uint64_t)0 - (uint64_t)op->val);
        } else {
            g_string_append_printf(o, "%" PRIu64, (uint64_t)op->val);
        }
        g_string_append_c(o, ']');
        break;
    case PTX_OPND_VEC: case PTX_OPND_LIST: case PTX_OPND_ADDRLIST: {
        const char *open = op->kind == PTX_OPND_VEC ? "{" : op->kind == PTX_OPND_LIST ? "(" : "[";
        const char *close = op->kind == PTX_OPND_VEC ? "}" : op->kind == PTX_OPND_LIST ? ")" : "]";
        g_string_append(o, open);
        for (int32_t i = 0; i < op->id2; i++) {
            if (i)
                g_string_append(o, ", ");
            ptx_print_operand(o, m, f, ptx_func_opnd(f, (uint32_t)(op->id + i)));
        }
        g_string_append(o, close);
        break;
    }
    case PTX_OPND_SINK:
        g_string_append_c(o, '_');
        break;
    case PTX_OPND_PAIR:
        if (op->id >= 0)
            print_reg(o, f, op->id);
        else
            g_string_append_c(o, '_');
        g_string_append_c(o, '|');
        if (op->id2 >= 0)
            print_reg(o, f, op->id2);
        else
            g_string_append_c(o, '_');
        break;
    default:
        g_string_append(o, "<?>");
    }
}

void ptx_print_instr(GString *o, const ptx_module *m, const ptx_func *f,
                     const ptx_instr *in)
{
    if (in->guard >= 0) {
        g_string_append(o, in->guard_neg ? "@!" : "@");
        print_reg(o, f, in->guard);
        g_string_append_c(o, ' ');
    }
    g_string_append(o, ptx_opcode_info((ptx_opcode)in->op)->name);
    for (unsigned i = 0; i < in->nmods; i++)
        g_string_append_printf(o, ".%s", ptx_module_mod_name(m, in->mods[i]));
    for (unsigned i = 0; i < in->nopnds; i++) {
        g_string_append(o, i ? ", " : " ");
        ptx_print_operand(o, m, f, ptx_instr_opnd(f, in, i));
    }
    g_string_append_c(o, ';');
}

/* A parameter: the same words as any variable (params carry no linkage). */
static void print_param_var(GString *o, const ptx_module *m, const ptx_var *v)
{
    (void)m;
    print_type_words(o, v);
    g_string_append_printf(o, " %s", v->name);
    print_dims(o, v);
}

static void print_param_list(GString *o, const ptx_module *m, const GArray *idx)
{
    g_string_append_c(o, '(');
    for (guint i = 0; i < idx->len; i++) {
        g_string_append(o, i ? ",\n\t" : "\n\t");
        print_param_var(o, m, ptx_module_var(m, g_array_index(idx, int32_t, i)));
    }
    g_string_append(o, idx->len ? "\n)" : ")");
}

static void print_proto_list(GString *o, const ptx_module *m, const GArray *vars)
{
    g_string_append_c(o, '(');
    for (guint i = 0; i < vars->len; i++) {
        if (i)
            g_string_append(o, ", ");
        print_param_var(o, m, &g_array_index(vars, ptx_var, i));
    }
    g_string_append_c(o, ')');
}

static void indent(GString *o, int depth)
{
    for (int i = 0; i < depth; i++)
        g_string_append_c(o, '\t');
}

static void print_body(GString *o, const ptx_module *m, const ptx_func *f)
{
    int depth = 1;
    char buf[300];
    for (guint i = 0; i < f->stmts->len; i++) {
        const ptx_stmt *st = &g_array_index(f->stmts, ptx_stmt, i);
        switch (st->kind) {
        case PTX_STMT_INSTR:
            indent(o, depth);
            ptx_print_instr(o, m, f, ptx_func_instr(f, st->index));
            break;
        case PTX_STMT_LABEL:
            g_string_append_printf(o, "%s:", ptx_module_sym(m, (int32_t)st->index)->name);
            break;
        case PTX_STMT_VAR:
            indent(o, depth);
            ptx_print_var(o, m, ptx_module_var(m, (int32_t)st->index));
            g_string_append_c(o, ';');
            break;
        case PTX_STMT_REG: {
            const ptx_regdecl *d = &g_array_index(f->regdecls, ptx_regdecl, st->index);
            indent(o, depth);
            g_string_append(o, ".reg ");
            if (d->vec > 1)
                g_string_append_printf(o, ".v%u ", d->vec);
            g_string_append_printf(o, ".%s %s", ptx_type_name(d->type), d->prefix);
            if (d->is_range)
                g_string_append_printf(o, "<%u>", d->count);
            g_string_append_c(o, ';');
            (void)buf;
            break;
        }
        case PTX_STMT_OPEN:
            indent(o, depth++);
            g_string_append_c(o, '{');
            break;
        case PTX_STMT_CLOSE:
            indent(o, --depth);
            g_string_append_c(o, '}');
            break;
        case PTX_STMT_PRAGMA: case PTX_STMT_LOC:
            indent(o, depth);
            g_string_append(o, g_ptr_array_index(f->texts, st->index));
            break;
        case PTX_STMT_PROTO: {
            const ptx_proto *p = &g_array_index(f->protos, ptx_proto, st->index);
            g_string_append_printf(o, "%s: .callprototype ", ptx_module_sym(m, p->sym)->name);
            if (p->rets->len) {
                print_proto_list(o, m, p->rets);
                g_string_append_c(o, ' ');
            }
            g_string_append(o, "_ ");
            print_proto_list(o, m, p->params);
            if (p->noreturn)
                g_string_append(o, " .noreturn");
            g_string_append_c(o, ';');
            break;
        }
        case PTX_STMT_TARGETS: {
            const ptx_targets *t = &g_array_index(f->targets, ptx_targets, st->index);
            const ptx_symbol *s = ptx_module_sym(m, t->sym);
            g_string_append_printf(o, "%s: %s ", s->name,
                                   s->kind == PTX_SYM_CALLTARGETS ? ".calltargets"
                                                                  : ".branchtargets");
            for (guint k = 0; k < t->syms->len; k++)
                g_string_append_printf(o, "%s%s", k ? ", " : "",
                                       ptx_module_sym(m, g_array_index(t->syms, int32_t, k))->name);
            g_string_append_c(o, ';');
            break;
        }
        default:
            break;
        }
        g_string_append_c(o, '\n');
    }
}

static void print_dims3(GString *o, const char *name, const uint32_t *v, unsigned n)
{
    g_string_append_printf(o, "%s ", name);
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(o, "%s%u", i ? ", " : "", v[i]);
    g_string_append_c(o, '\n');
}

void ptx_print_func(GString *o, const ptx_module *m, const ptx_func *f)
{
    if (f->linkage & PTX_LINK_EXTERN)
        g_string_append(o, ".extern ");
    if (f->linkage & PTX_LINK_VISIBLE)
        g_string_append(o, ".visible ");
    if (f->linkage & PTX_LINK_WEAK)
        g_string_append(o, ".weak ");
    if (f->is_entry) {
        g_string_append_printf(o, ".entry %s", f->name);
    } else {
        g_string_append(o, ".func ");
        if (f->rets->len) {
            print_param_list(o, m, f->rets);
            g_string_append_c(o, ' ');
        }
        g_string_append(o, f->name);
    }
    print_param_list(o, m, f->params);
    g_string_append_c(o, '\n');
    if (f->noreturn)
        g_string_append(o, ".noreturn\n");
    const ptx_perf *p = &f->perf;
    if (p->has_maxntid)
        print_dims3(o, ".maxntid", p->maxntid, p->maxntid_dims);
    if (p->has_reqntid)
        print_dims3(o, ".reqntid", p->reqntid, p->reqntid_dims);
    if (p->minnctapersm)
        g_string_append_printf(o, ".minnctapersm %u\n", p->minnctapersm);
    if (p->maxnreg)
        g_string_append_printf(o, ".maxnreg %u\n", p->maxnreg);
    if (p->maxclusterrank)
        g_string_append_printf(o, ".maxclusterrank %u\n", p->maxclusterrank);
    if (p->explicitcluster)
        g_string_append(o, ".explicitcluster\n");
    if (p->has_reqnctapercluster)
        print_dims3(o, ".reqnctapercluster", p->reqnctapercluster, p->reqnctapercluster_dims);
    for (guint i = 0; i < f->pragmas->len; i++)
        g_string_append_printf(o, "%s\n", (const char *)g_ptr_array_index(f->pragmas, i));
    if (!f->has_body) {
        g_string_append(o, ";\n");
        return;
    }
    g_string_append(o, "{\n");
    print_body(o, m, f);
    g_string_append(o, "}\n");
}

void ptx_print_module(GString *o, const ptx_module *m)
{
    g_string_append_printf(o, ".version %u.%u\n", m->version_major, m->version_minor);
    if (m->target)
        g_string_append_printf(o, ".target %s\n", m->target);
    g_string_append_printf(o, ".address_size %u\n", m->address_size);
    for (guint i = 0; i < m->items->len; i++) {
        const ptx_item *it = &g_array_index(m->items, ptx_item, i);
        g_string_append_c(o, '\n');
        switch (it->kind) {
        case PTX_ITEM_VAR:
            ptx_print_var(o, m, ptx_module_var(m, (int32_t)it->index));
            g_string_append(o, ";\n");
            break;
        case PTX_ITEM_FUNC:
            ptx_print_func(o, m, ptx_module_func(m, it->index));
            break;
        case PTX_ITEM_FILE: {
            const ptx_file_entry *fe = &g_array_index(m->files, ptx_file_entry, it->index);
            g_string_append_printf(o, ".file %u \"%s\"%s%s\n", fe->index, fe->path,
                                   fe->extra ? ", " : "", fe->extra ? fe->extra : "");
            break;
        }
        case PTX_ITEM_SECTION: case PTX_ITEM_PRAGMA:
            g_string_append_printf(o, "%s\n", (const char *)g_ptr_array_index(m->texts, it->index));
            break;
        default:
            break;
        }
    }
}
