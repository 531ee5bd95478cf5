/* frontend/operands.c — register reads and writes from the opcode row's
 * operand roles (definitions in frontend/operands.h). */
#include "frontend/operands.h"

#include "isa/opcodes.h"

bool ptx_instr_operand_is_def(const ptx_func *f, const ptx_instr *in, unsigned i)
{
    const ptx_operand *o = ptx_instr_opnd(f, in, i);
    if (ptx_opcode_has(in->op, PTX_OPF_CALL))
        /* call (rets), fn, (args): only a leading list before the callee. */
        return i == 0 && o->kind == PTX_OPND_LIST && in->nopnds >= 2;
    char letter = ptx_shape_letter(ptx_opcode_info((ptx_opcode)in->op)->shape, i);
    switch (letter) {
    case 'd':
        return true;
    case 'r':
        return ptx_instr_has_mod(in, PTX_MOD_RED);
    case '*':
        return i == 0 && (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_VEC ||
                          o->kind == PTX_OPND_PAIR);
    default:
        return false;
    }
}

static void visit_operand(const ptx_func *f, const ptx_operand *o, bool write,
                          ptx_reg_visit visit, void *user)
{
    switch ((ptx_operand_kind)o->kind) {
    case PTX_OPND_REG:
        visit(user, o->id, o->comp, write);
        break;
    case PTX_OPND_PAIR: /* a half may be the sink `_` (-1) */
        if (o->id >= 0)
            visit(user, o->id, 0, write);
        if (o->id2 >= 0)
            visit(user, o->id2, 0, write);
        break;
    case PTX_OPND_ADDR:
        if (o->id >= 0)
            visit(user, o->id, 0, false); /* the base is read, whatever the role */
        break;
    case PTX_OPND_VEC: case PTX_OPND_LIST: case PTX_OPND_ADDRLIST:
        for (int32_t k = 0; k < o->id2; k++)
            visit_operand(f, ptx_func_opnd(f, (uint32_t)(o->id + k)), write, visit, user);
        break;
    default:
        break;
    }
}

void ptx_instr_visit_regs(const ptx_func *f, const ptx_instr *in, ptx_reg_visit visit,
                          void *user)
{
    if (in->guard >= 0)
        visit(user, in->guard, 0, false);
    for (unsigned i = 0; i < in->nopnds; i++)
        visit_operand(f, ptx_instr_opnd(f, in, i), ptx_instr_operand_is_def(f, in, i),
                      visit, user);
}

typedef struct collect {
    GArray *out;
    bool write;
} collect;

static void collect_reg(void *user, int32_t reg, uint8_t comp, bool write)
{
    (void)comp;
    collect *c = user;
    if (write == c->write)
        g_array_append_val(c->out, reg);
}

void ptx_instr_defs(const ptx_func *f, const ptx_instr *in, GArray *out)
{
    collect c = {out, true};
    ptx_instr_visit_regs(f, in, collect_reg, &c);
}

void ptx_instr_uses(const ptx_func *f, const ptx_instr *in, GArray *out)
{
    collect c = {out, false};
    ptx_instr_visit_regs(f, in, collect_reg, &c);
}
