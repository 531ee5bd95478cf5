/* frontend/builder_instr.c — instructions: decoding an opcode token against
 * the ISA table (cached per distinct spelling), guards, operand assembly and
 * the operand-shape checks that give precise errors. */
#include "frontend/builder.h"
#include "isa/opcodes.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* What one opcode spelling ("ld.global.v4.f32") decodes to. */
typedef struct ptx_opdecode {
    char *error;            /* non-NULL: why the spelling is invalid */
    uint16_t op;
    uint8_t nmods, ntypes, vec, space, rnd;
    uint16_t mods[PTX_MAX_MODS];
    uint8_t types[PTX_MAX_TYPES];
} ptx_opdecode;

void builder_opdecode_free(gpointer p)
{
    ptx_opdecode *d = p;
    g_free(d->error);
    g_free(d);
}

static ptx_space mod_space(uint16_t m)
{
    switch (m) {
    case PTX_MOD_GLOBAL: return PTX_SPACE_GLOBAL;
    case PTX_MOD_SHARED: case PTX_MOD_SHARED_CTA: case PTX_MOD_SHARED_CLUSTER:
        return PTX_SPACE_SHARED;
    case PTX_MOD_LOCAL: return PTX_SPACE_LOCAL;
    case PTX_MOD_CONST: return PTX_SPACE_CONST;
    case PTX_MOD_PARAM: case PTX_MOD_PARAM_ENTRY: case PTX_MOD_PARAM_FUNC:
        return PTX_SPACE_PARAM;
    case PTX_MOD_TEX: return PTX_SPACE_TEX;
    default: return PTX_SPACE_NONE;
    }
}

static ptx_rnd mod_rnd(uint16_t m)
{
    switch (m) {
    case PTX_MOD_RN: return PTX_RND_RN;
    case PTX_MOD_RZ: return PTX_RND_RZ;
    case PTX_MOD_RM: return PTX_RND_RM;
    case PTX_MOD_RP: return PTX_RND_RP;
    case PTX_MOD_RNA: return PTX_RND_RNA;
    case PTX_MOD_RS: return PTX_RND_RS;
    case PTX_MOD_RNI: return PTX_RND_RNI;
    case PTX_MOD_RZI: return PTX_RND_RZI;
    case PTX_MOD_RMI: return PTX_RND_RMI;
    case PTX_MOD_RPI: return PTX_RND_RPI;
    default: return PTX_RND_NONE;
    }
}

static uint16_t dyn_mod(ptx_module *m, const char *s, unsigned len)
{
    for (guint i = 0; i < m->dyn_mods->len; i++) {
        const char *d = g_ptr_array_index(m->dyn_mods, i);
        if (strlen(d) == len && memcmp(d, s, len) == 0)
            return (uint16_t)(PTX_MOD_DYN_BASE + i);
    }
    g_ptr_array_add(m->dyn_mods, g_strndup(s, len));
    return (uint16_t)(PTX_MOD_DYN_BASE + m->dyn_mods->len - 1);
}

/* Arithmetic whose rounding/ftz modifiers need a float type and whose
 * lo/hi/wide/cc modifiers need an integer type. */
static bool is_typed_arith(ptx_opcode op)
{
    return ptx_opcode_has(op, PTX_OPF_TYPED_ARITH);
}

static ptx_opdecode *decode(ptx_builder *b, const char *tok, unsigned len)
{
    ptx_opdecode *d = g_new0(ptx_opdecode, 1);
    d->vec = 1;
    const char *dot = memchr(tok, '.', len);
    unsigned oplen = dot ? (unsigned)(dot - tok) : len;
    ptx_opcode op = ptx_opcode_lookup(tok, oplen);
    if (op == PTX_OP_INVALID) {
        d->error = g_strdup_printf("unknown instruction '%.*s'", (int)oplen, tok);
        return d;
    }
    d->op = (uint16_t)op;
    const ptx_opinfo *info = ptx_opcode_info(op);
    const char *p = dot;
    const char *end = tok + len;
    while (p && p < end) {
        const char *s = p + 1;
        const char *e = memchr(s, '.', (size_t)(end - s));
        if (!e)
            e = end;
        unsigned ml = (unsigned)(e - s);
        p = e < end ? e : NULL;
        if (d->nmods >= PTX_MAX_MODS) {
            d->error = g_strdup_printf("too many modifiers on '%.*s'", (int)len, tok);
            return d;
        }
        uint16_t m = ptx_mod_lookup(s, ml);
        uint64_t groups = ptx_mod_groups(m);
        if (info->flags & PTX_OPF_ANYMOD) {
            if (m == PTX_MOD_NONE)
                m = dyn_mod(b->m, s, ml);
        } else if (m == PTX_MOD_NONE) {
            d->error = g_strdup_printf("unknown modifier '.%.*s' in '%.*s'", (int)ml, s,
                                       (int)len, tok);
            return d;
        } else if (!(groups & info->groups)) {
            d->error = g_strdup_printf("'%s' does not take the %s modifier '.%.*s'",
                                       info->name, ptx_modgroup_name(groups), (int)ml, s);
            return d;
        }
        d->mods[d->nmods++] = m;
        if (PTX_MOD_IS_TYPE(m)) {
            if (d->ntypes >= PTX_MAX_TYPES) {
                d->error = g_strdup_printf("too many type modifiers on '%.*s'", (int)len, tok);
                return d;
            }
            d->types[d->ntypes++] = (uint8_t)PTX_MOD_TYPE_OF(m);
        } else if (m == PTX_MOD_V2 || m == PTX_MOD_V4 || m == PTX_MOD_V8) {
            d->vec = m == PTX_MOD_V2 ? 2 : m == PTX_MOD_V4 ? 4 : 8;
        } else if (mod_space(m) != PTX_SPACE_NONE && d->space == PTX_SPACE_NONE) {
            d->space = (uint8_t)mod_space(m);
        } else if (mod_rnd(m) != PTX_RND_NONE) {
            d->rnd = (uint8_t)mod_rnd(m);
        }
    }
    if (d->ntypes < info->min_types || d->ntypes > info->max_types) {
        if (info->min_types == info->max_types)
            d->error = g_strdup_printf("'%s' needs %u type modifier%s (such as .u32), found %u",
                                       info->name, info->min_types,
                                       info->min_types == 1 ? "" : "s", d->ntypes);
        else
            d->error = g_strdup_printf("'%s' needs %u to %u type modifiers, found %u",
                                       info->name, info->min_types, info->max_types, d->ntypes);
        return d;
    }
    if (is_typed_arith(op) && d->ntypes == 1) {
        ptx_type t = (ptx_type)d->types[0];
        bool fl = ptx_type_is_float(t);
        for (unsigned i = 0; i < d->nmods; i++) {
            uint64_t g = ptx_mod_groups(d->mods[i]);
            const char *mn = ptx_mod_name(d->mods[i]);
            if (!fl && (g & (PTX_MG_BIT(RND) | PTX_MG_BIT(FTZ) | PTX_MG_BIT(APPROX)))) {
                d->error = g_strdup_printf("'.%s' (%s) needs a floating-point type, not '.%s'",
                                           mn, ptx_modgroup_name(g), ptx_type_name(t));
                return d;
            }
            if (fl && (g & (PTX_MG_BIT(WIDE) | PTX_MG_BIT(CC)))) {
                d->error = g_strdup_printf("'.%s' needs an integer type, not '.%s'", mn,
                                           ptx_type_name(t));
                return d;
            }
        }
    }
    return d;
}

void builder_guard(ptx_builder *b, ptx_strref reg, bool neg, const PTX_YYLTYPE *loc)
{
    ptx_operand o = builder_reg(b, reg, loc);
    if (builder_failed(b))
        return;
    if (o.kind != PTX_OPND_REG ||
        g_array_index(b->fn->regs, ptx_reg, o.id).type != PTX_T_PRED) {
        builder_error(b, loc, "a guard must be a .pred register, '%.*s' is not",
                      (int)reg.len, reg.s);
        return;
    }
    b->guard = o.id;
    b->guard_neg = neg;
}

void builder_instr_begin(ptx_builder *b, ptx_strref op, const PTX_YYLTYPE *loc)
{
    if (!b->fn || !b->in_body) {
        builder_error(b, loc, "instruction outside a function body");
        return;
    }
    /* never truncate: a cut-off spelling could decode as another one */
    char buf[512];
    char *key = op.len < sizeof buf ? buf : g_malloc(op.len + 1);
    memcpy(key, op.s, op.len);
    key[op.len] = '\0';
    ptx_opdecode *d = g_hash_table_lookup(b->opcache, key);
    if (!d) {
        d = decode(b, key, op.len);
        g_hash_table_insert(b->opcache, g_strdup(key), d);
    }
    if (key != buf)
        g_free(key);
    if (d->error) {
        builder_error(b, loc, "%s", d->error);
        return;
    }
    b->cur_op = d;
    b->op_loc = *loc;
    b->instr_start = b->stack->len;
}

static const char *ordinal(unsigned i)
{
    static const char *const n[] = {"first", "second", "third", "fourth",
                                    "fifth", "sixth", "seventh", "eighth"};
    return i < 8 ? n[i] : "next";
}

static bool check_operand(ptx_builder *b, const ptx_opinfo *info, unsigned i,
                          const ptx_operand *o)
{
    char want = ptx_shape_letter(info->shape, i);
    bool ok = true;
    const char *need = "";
    switch (want) {
    case 'd':
        ok = o->kind == PTX_OPND_REG || o->kind == PTX_OPND_VEC ||
             o->kind == PTX_OPND_SINK || o->kind == PTX_OPND_PAIR;
        ok = ok && !(o->flags & PTX_OPNDF_NOT);
        need = "a destination register";
        break;
    case 's': case 'r':
        ok = o->kind != PTX_OPND_ADDR && o->kind != PTX_OPND_ADDRLIST &&
             o->kind != PTX_OPND_LIST && o->kind != PTX_OPND_PAIR;
        need = "a register, immediate or symbol";
        break;
    case 'a':
        ok = o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_ADDRLIST;
        need = "a memory address [..]";
        break;
    case 'l':
        ok = o->kind == PTX_OPND_SYM;
        if (ok) {
            const ptx_symbol *s = ptx_module_sym(b->m, o->id);
            /* bra takes a label, brx.idx a .branchtargets list */
            ok = info->flags & PTX_OPF_BRANCH_LIST ? s->kind == PTX_SYM_BRANCHTARGETS
                                                   : s->kind == PTX_SYM_LABEL;
        }
        need = info->flags & PTX_OPF_BRANCH_LIST ? "a .branchtargets list" : "a label";
        break;
    default:
        break;
    }
    if (!ok)
        builder_error(b, &b->op_loc, "the %s operand of '%s' must be %s", ordinal(i),
                      info->name, need);
    return ok;
}

/* Instructions whose every data register has the instruction type (PTX ISA
 * "Operand Type Information" / "Type Checking"); the forms with a wider
 * destination (.wide) and those with per-operand types are left out. */
static bool checks_reg_types(const ptx_opdecode *d)
{
    if (!ptx_opcode_has(d->op, PTX_OPF_SAME_TYPE) || d->ntypes != 1)
        return false;
    for (unsigned i = 0; i < d->nmods; i++)
        if (d->mods[i] == PTX_MOD_WIDE)
            return false;
    switch ((ptx_type)d->types[0]) {
    case PTX_T_B16: case PTX_T_B32: case PTX_T_B64: case PTX_T_U16: case PTX_T_U32:
    case PTX_T_U64: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: case PTX_T_F32:
    case PTX_T_F64: case PTX_T_PRED:
        return true;
    default:
        return false;
    }
}

/* The fundamental-type rules: a bit-size instruction type takes any
 * register of its size; .u/.s take .u, .s or .b registers of the same size;
 * .f takes .f or .b registers of the same size; .pred only predicates. */
static bool reg_fits(ptx_type in, ptx_type reg)
{
    ptx_type_kind ik = ptx_type_kind_of(in), rk = ptx_type_kind_of(reg);
    if (ik == PTX_TK_P)
        return rk == PTX_TK_P;
    if (rk == PTX_TK_P)
        return true; /* the predicate operands of setp and selp */
    if (reg == PTX_T_F16 || reg == PTX_T_BF16 || reg == PTX_T_F16X2 || reg == PTX_T_BF16X2)
        rk = PTX_TK_B; /* half values live in bit registers; leave them to the .b rules */
    if (ptx_type_size(in) != ptx_type_size(reg))
        return false;
    switch (ik) {
    case PTX_TK_B: return true;
    case PTX_TK_U: case PTX_TK_S: return rk == PTX_TK_U || rk == PTX_TK_S || rk == PTX_TK_B;
    case PTX_TK_F: return rk == PTX_TK_F || rk == PTX_TK_B;
    default: return true;
    }
}

static bool check_operand_types(ptx_builder *b, const ptx_opdecode *d, const ptx_operand *ops,
                                unsigned n)
{
    const ptx_opinfo *info = ptx_opcode_info((ptx_opcode)d->op);
    ptx_type it = d->ntypes ? (ptx_type)d->types[0] : PTX_T_NONE;
    for (unsigned i = 0; i < n; i++) {
        const ptx_operand *o = &ops[i];
        if (o->kind == PTX_OPND_SYM) {
            const ptx_symbol *s = ptx_module_sym(b->m, o->id);
            char want = ptx_shape_letter(info->shape, i);
            if (s->kind == PTX_SYM_LABEL && want != 'l' && !(info->flags & PTX_OPF_CALL)) {
                if (s->index < 0) /* not declared before: a variable must be */
                    builder_error(b, &b->op_loc, "the %s operand of '%s' names '%s', which is "
                                  "not a declared variable or function (a label is not data)",
                                  ordinal(i), info->name, s->name);
                else
                    builder_error(b, &b->op_loc, "the %s operand of '%s' is the label '%s', "
                                  "which is not data (only branches take labels)", ordinal(i),
                                  info->name, s->name);
                return false;
            }
        }
        if (o->kind == PTX_OPND_ADDR && o->id2 >= 0 &&
            ptx_module_sym(b->m, o->id2)->kind == PTX_SYM_LABEL) {
            const ptx_symbol *s = ptx_module_sym(b->m, o->id2);
            builder_error(b, &b->op_loc, "the address ['%s'] of '%s' names a label or an "
                          "undeclared name, not a variable", s->name, info->name);
            return false;
        }
        if (o->kind == PTX_OPND_FIMM64 && it == PTX_T_F32) {
            double v;
            memcpy(&v, &o->val, sizeof v);
            if (isfinite(v) && fabs(v) > FLT_MAX) {
                builder_error(b, &b->op_loc, "the %s operand of '%s' (%g) is out of range "
                              "for .f32", ordinal(i), info->name, v);
                return false;
            }
        }
        if (o->kind != PTX_OPND_REG || o->comp || !checks_reg_types(d))
            continue;
        const ptx_reg *r = &g_array_index(b->fn->regs, ptx_reg, o->id);
        if (r->vec > 1 || reg_fits(it, r->type))
            continue;
        const ptx_regdecl *rd = &g_array_index(b->fn->regdecls, ptx_regdecl, r->decl);
        char name[80];
        if (rd->is_range)
            g_snprintf(name, sizeof name, "%.64s%u", rd->prefix, r->index);
        else
            g_snprintf(name, sizeof name, "%.64s", rd->prefix);
        builder_error(b, &b->op_loc, "the %s operand of '%s.%s' is the .%s register '%s', "
                      "which does not fit the instruction type .%s", ordinal(i), info->name,
                      ptx_type_name(it), ptx_type_name(r->type), name, ptx_type_name(it));
        return false;
    }
    return true;
}

static bool check_vector_width(ptx_builder *b, const ptx_instr *in,
                               const ptx_operand *ops, unsigned n)
{
    int data = -1;
    switch (in->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        data = 0;
        break;
    case PTX_OP_ST:
        data = 1;
        break;
    default:
        return true;
    }
    if ((unsigned)data >= n)
        return true;
    const ptx_operand *o = &ops[data];
    unsigned have = o->kind == PTX_OPND_VEC ? (unsigned)o->id2 : 1;
    if (in->vec > 1 && have != in->vec) {
        builder_error(b, &b->op_loc, "'.v%u' needs a vector of %u values, found %u",
                      in->vec, in->vec, have);
        return false;
    }
    if (in->vec == 1 && o->kind == PTX_OPND_VEC) {
        builder_error(b, &b->op_loc, "a vector operand needs a .v2/.v4 modifier");
        return false;
    }
    return true;
}

void builder_instr_end(ptx_builder *b, const PTX_YYLTYPE *loc)
{
    (void)loc;
    ptx_func *f = b->fn;
    const ptx_opdecode *d = b->cur_op;
    const ptx_opinfo *info = ptx_opcode_info((ptx_opcode)d->op);
    unsigned ntop = b->stack->len - b->instr_start;
    /* no operands: the stack may never have been allocated (NULL + 0 is UB) */
    ptx_operand *ops = ntop ? &g_array_index(b->stack, ptx_operand, b->instr_start) : NULL;

    unsigned mn = ptx_shape_min_operands(info->shape);
    unsigned mx = ptx_shape_max_operands(info->shape);
    if (ntop < mn || ntop > mx) {
        if (mn == mx)
            builder_error(b, &b->op_loc, "'%s' expects %u operand%s, found %u", info->name,
                          mn, mn == 1 ? "" : "s", ntop);
        else if (ntop < mn)
            builder_error(b, &b->op_loc, "'%s' expects at least %u operands, found %u",
                          info->name, mn, ntop);
        else
            builder_error(b, &b->op_loc, "'%s' expects at most %u operands, found %u",
                          info->name, mx, ntop);
        return;
    }
    for (unsigned i = 0; i < ntop; i++)
        if (!check_operand(b, info, i, &ops[i]))
            return;
    if (!check_operand_types(b, d, ops, ntop))
        return;

    ptx_instr in = {0};
    in.op = d->op;
    in.nmods = d->nmods;
    in.ntypes = d->ntypes;
    memcpy(in.mods, d->mods, sizeof in.mods);
    memcpy(in.types, d->types, sizeof in.types);
    in.vec = d->vec;
    in.space = d->space;
    in.rnd = d->rnd;
    in.guard = b->guard;
    in.guard_neg = b->guard_neg;
    in.loc.line = (uint32_t)b->op_loc.first_line;
    in.loc.col = (uint32_t)b->op_loc.first_column;
    in.src_file = b->loc_file;
    in.src_line = b->loc_line;
    if (!check_vector_width(b, &in, ops, ntop))
        return;

    uint32_t base = f->operands->len;
    in.first_opnd = base;
    in.nopnds = (uint16_t)ntop;
    if (ntop)
        g_array_append_vals(f->operands, ops, ntop);
    if (b->final->len)
        g_array_append_vals(f->operands, b->final->data, b->final->len);
    for (uint32_t i = base; i < f->operands->len; i++) {
        ptx_operand *o = ptx_func_opnd(f, i);
        if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST ||
            o->kind == PTX_OPND_ADDRLIST)
            o->id += (int32_t)(base + ntop);
    }
    g_array_append_val(f->instrs, in);
    ptx_stmt st = {PTX_STMT_INSTR, f->instrs->len - 1};
    g_array_append_val(f->stmts, st);

    g_array_set_size(b->stack, b->instr_start);
    g_array_set_size(b->final, 0);
    b->guard = -1;
    b->guard_neg = false;
    b->cur_op = NULL;
    b->last_label = -1;
}
