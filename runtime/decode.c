/* runtime/decode.c — operand decoding shared by the family decoders: a
 * function's register slots, its constant slots (immediates and symbol
 * addresses, each value stored once and filled into a warp's register
 * file when it enters the function), address operands and the memory
 * ordering of an instruction.  Called by the loader and the family files;
 * calls neither (runtime/decode.h). */
#include "runtime/decode.h"
#include "runtime/shared_layout.h"
#include "isa/half.h"

#include <string.h>

/* ------------------------------------------------------------- lifetime */

void ex_decoder_open(ex_decoder *d, ex_module *m, ex_func *ef)
{
    const ptx_func *f = ef->ir;
    memset(d, 0, sizeof *d);
    d->mod = m;
    d->fn = ef;
    d->ir = m->ir;
    d->irf = f;
    d->why = g_string_new(NULL);
    /* each register takes one slot per vector element */
    d->reg_slot = g_new0(uint32_t, f->regs->len + 1);
    uint32_t n = 0;
    for (guint i = 0; i < f->regs->len; i++) {
        d->reg_slot[i] = n;
        n += ptx_reg_slots(&g_array_index(f->regs, ptx_reg, i));
    }
    d->nregs = n;
    ef->nregs = n;
    d->consts = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    d->const_index = g_hash_table_new(g_direct_hash, g_direct_equal);
}

void ex_decoder_close(ex_decoder *d, ex_func *ef)
{
    ef->nconst = d->consts->len;
    ef->const_vals = (uint64_t *)(void *)g_array_free(d->consts, FALSE);
    g_hash_table_destroy(d->const_index);
    g_string_free(d->why, TRUE);
    g_free(d->reg_slot);
    memset(d, 0, sizeof *d);
}

/* ---------------------------------------------------------------- slots */

/* The constant slot holding `v` (one per distinct value in a function). */
static uint32_t const_slot(ex_decoder *c, uint64_t v)
{
    gpointer key = GSIZE_TO_POINTER((gsize)v);
    gpointer hit = g_hash_table_lookup(c->const_index, key);
    if (hit)
        return (uint32_t)GPOINTER_TO_SIZE(hit) - 1;
    uint32_t slot = c->nregs + c->consts->len;
    g_array_append_val(c->consts, v);
    g_hash_table_insert(c->const_index, key, GSIZE_TO_POINTER((gsize)slot + 1));
    return slot;
}

/* An immediate as the bits of type `as`. */
static uint64_t imm_bits(const ptx_operand *o, ptx_type as)
{
    unsigned sz = ptx_type_size(as);
    bool fl = ptx_type_is_float(as);
    uint64_t v = (uint64_t)o->val;
    if (fl && sz == 2 && (o->kind == PTX_OPND_FIMM32 || o->kind == PTX_OPND_FIMM64)) {
        /* a float literal for a 16-bit float operand: round it to that format */
        bool bf = as == PTX_T_BF16;
        if (o->kind == PTX_OPND_FIMM32)
            return bf ? ptx_bf16_from_f32((uint32_t)v, PTX_RND_RN, 0)
                      : ptx_f16_from_f32((uint32_t)v, PTX_RND_RN, 0);
        return bf ? ptx_bf16_from_f64(v, PTX_RND_RN, 0) : ptx_f16_from_f64(v, PTX_RND_RN, 0);
    }
    if (o->kind == PTX_OPND_FIMM64 && fl && sz == 4) {
        double d;
        memcpy(&d, &v, 8);
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    if (o->kind == PTX_OPND_FIMM32 && fl && sz == 8) {
        uint32_t b = (uint32_t)v;
        float f;
        memcpy(&f, &b, 4);
        double d = f;
        memcpy(&v, &d, 8);
        return v;
    }
    if (o->kind == PTX_OPND_IMM && fl && (sz == 4 || sz == 8)) {
        if (sz == 4) {
            float f = (float)o->val;
            uint32_t b;
            memcpy(&b, &f, 4);
            return b;
        }
        double d = (double)o->val;
        memcpy(&v, &d, 8);
        return v;
    }
    if (sz > 0 && sz < 8)
        v &= (1ull << (8 * sz)) - 1;
    return v;
}

uint32_t ex_slot(ex_decoder *d, const ptx_operand *o, ptx_type as)
{
    switch (o->kind) {
    case PTX_OPND_REG: {
        uint32_t s = d->reg_slot[o->id];
        if (o->comp >= 1 && o->comp <= 4)
            s += o->comp - 1u;
        return s;
    }
    case PTX_OPND_IMM: case PTX_OPND_FIMM32: case PTX_OPND_FIMM64:
        return const_slot(d, imm_bits(o, as));
    case PTX_OPND_SYM: {
        const ptx_symbol *s = ptx_module_sym(d->ir, o->id);
        if (s->kind == PTX_SYM_FUNC)
            return const_slot(d, EX_FUNC_ADDR(s->index) + (uint64_t)o->val);
        if (s->kind == PTX_SYM_VAR && !ex_var_in_frame(ptx_module_var(d->ir, s->index)))
            return const_slot(d, d->mod->var_addr[s->index] + (uint64_t)o->val);
        return EX_NONE;
    }
    default:
        return EX_NONE;
    }
}

const ptx_operand *ex_opnd(const ex_decoder *d, unsigned i)
{
    if (i >= d->pi->nopnds)
        return NULL;
    return ptx_instr_opnd(d->irf, d->pi, i);
}

uint32_t ex_opnd_slot(ex_decoder *d, unsigned i, ptx_type as)
{
    const ptx_operand *o = ex_opnd(d, i);
    return o ? ex_slot(d, o, as) : EX_NONE;
}

uint32_t ex_reg_slot(const ex_decoder *d, int32_t reg)
{
    return reg >= 0 ? d->reg_slot[reg] : EX_NONE;
}

const ptx_operand *ex_vec_elem(const ex_decoder *d, const ptx_operand *vec, unsigned k)
{
    return ptx_func_opnd(d->irf, (uint32_t)vec->id + k);
}

/* -------------------------------------------------------------- addresses */

ex_space ex_decode_space(const ex_decoder *d, ptx_space s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: return EX_SPACE_GLOBAL;
    case PTX_SPACE_SHARED: return EX_SPACE_SHARED;
    case PTX_SPACE_LOCAL: return EX_SPACE_LOCAL;
    case PTX_SPACE_CONST: return EX_SPACE_CONST;
    case PTX_SPACE_PARAM: return d->fn->is_entry ? EX_SPACE_KPARAM : EX_SPACE_FPARAM;
    default: return EX_SPACE_GENERIC;
    }
}

bool ex_decode_address(ex_decoder *d, const ptx_operand *o, ex_instr *in, ptx_space space)
{
    in->space = (uint8_t)ex_decode_space(d, space);
    in->imm = o->val;
    if (o->kind == PTX_OPND_ADDR && o->id >= 0) {
        in->a = ex_reg_slot(d, o->id);
        return true;
    }
    if (o->kind == PTX_OPND_ADDR && o->id2 >= 0) {
        const ptx_symbol *s = ptx_module_sym(d->ir, o->id2);
        if (s->kind != PTX_SYM_VAR) {
            g_string_printf(d->why, "'%s' is not a variable", s->name);
            return false;
        }
        const ptx_var *v = ptx_module_var(d->ir, s->index);
        uint64_t base = d->mod->var_addr[s->index];
        in->imm = (int64_t)(base + (uint64_t)o->val);
        switch (v->space) {
        case PTX_SPACE_PARAM:
            if (v->func >= 0 && d->fn->is_entry && (int32_t)(d->fn - d->mod->funcs) == v->func) {
                /* a kernel parameter unless it was declared in the body */
                bool is_param = false;
                for (guint i = 0; i < d->irf->params->len; i++)
                    is_param |= g_array_index(d->irf->params, int32_t, i) == s->index;
                if (is_param) {
                    in->space = EX_SPACE_KPARAM;
                    break;
                }
            }
            in->space = EX_SPACE_FPARAM;
            in->op2 |= EX_OP2_FRAME;
            break;
        case PTX_SPACE_LOCAL:
            in->space = space == PTX_SPACE_NONE ? EX_SPACE_LOCAL : in->space;
            in->op2 |= EX_OP2_FRAME;
            break;
        case PTX_SPACE_SHARED:
            if (space == PTX_SPACE_NONE)
                in->imm += (int64_t)MEM_SHARED_WINDOW;
            break;
        default:
            break;
        }
        return true;
    }
    if (o->kind == PTX_OPND_ADDR)
        return true; /* [imm] */
    g_string_assign(d->why, "unsupported address form");
    return false;
}

/* ----------------------------------------------------- memory ordering */

uint8_t ex_mem_order(const ptx_instr *pi)
{
    uint8_t o = 0;
    if (ptx_instr_has_mod(pi, PTX_MOD_VOLATILE) || ptx_instr_has_mod(pi, PTX_MOD_MMIO))
        o |= EX_ORD_VOLATILE;
    bool acquire = ptx_instr_has_mod(pi, PTX_MOD_ACQUIRE) ||
                   ptx_instr_has_mod(pi, PTX_MOD_ACQ_REL) || ptx_instr_has_mod(pi, PTX_MOD_SC);
    bool strong = acquire || ptx_instr_has_mod(pi, PTX_MOD_RELAXED) ||
                  ptx_instr_has_mod(pi, PTX_MOD_RELEASE);
    /* a strong operation synchronises with threads of its scope; only
     * .cta keeps them all on one SM (a missing scope means .gpu, as for
     * atom and red) */
    if (strong && !ptx_instr_has_mod(pi, PTX_MOD_CTA))
        o |= EX_ORD_STRONG | (acquire ? EX_ORD_ACQUIRE : 0);
    if (ptx_instr_has_mod(pi, PTX_MOD_CG))
        o |= EX_ORD_CG;
    if (ptx_instr_has_mod(pi, PTX_MOD_CV))
        o |= EX_ORD_CV;
    return o;
}
