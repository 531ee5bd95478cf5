/* runtime/exec_cvta.c — cvta (between generic addresses and the shared,
 * local, kernel-parameter and global windows) and isspacep; the memory
 * family's decoder (runtime/exec_memory.c) hands both over here. */
#include "runtime/decode.h"
#include "runtime/warp.h"

static inline uint64_t width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

enum { CVTA_TO_GENERIC, CVTA_FROM_GENERIC };

static void h_cvta(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t base = (uint64_t)in->imm, dm = width_mask(ptx_type_size((ptx_type)in->type));
    bool to_generic = in->op2 == CVTA_TO_GENERIC;
    EX_LANES(mask, l, {
        uint64_t v = w->r[in->a][l];
        /* shared/local offset 0 is a real variable, so it always converts;
         * a generic null stays null when converted to a window offset */
        if (base && (to_generic || v))
            v = to_generic ? v + base : v - base;
        w->r[in->d][l] = v & dm;
    });
}

static void h_isspacep(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    EX_LANES(mask, l, {
        uint64_t a = w->r[in->a][l];
        bool sh = a - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE;
        bool lo = a - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE;
        bool kp = a - MEM_KPARAM_WINDOW < MEM_WINDOW_SIZE;
        /* a .const variable's generic address is its allocation's address
         * (cvta.const adds nothing), so the allocation tells the spaces apart */
        bool co = false;
        if (!sh && !lo && !kp && (in->space == EX_SPACE_CONST || in->space == EX_SPACE_GLOBAL)) {
            const mem_alloc *ma = mem_find(w->launch->mem, a, 1);
            co = ma && ma->is_const;
        }
        bool r;
        switch ((ex_space)in->space) {
        case EX_SPACE_SHARED: r = sh; break;
        case EX_SPACE_LOCAL: r = lo; break;
        case EX_SPACE_CONST: r = co; break;
        /* isspacep.param: the kernel parameters' window (cvta.param) */
        case EX_SPACE_KPARAM: case EX_SPACE_FPARAM: r = kp; break;
        case EX_SPACE_GLOBAL: r = !sh && !lo && !kp && !co; break;
        default: r = false; break;
        }
        w->r[in->d][l] = r;
    });
}

bool ex_decode_cvta(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_CVTA: {
        ptx_type t = (ptx_type)pi->types[0];
        in->d = ex_opnd_slot(d, 0, t);
        const ptx_operand *src = ex_opnd(d, 1);
        in->op2 = ptx_instr_has_mod(pi, PTX_MOD_TO) ? CVTA_FROM_GENERIC : CVTA_TO_GENERIC;
        switch ((ptx_space)pi->space) {
        case PTX_SPACE_SHARED: in->imm = (int64_t)MEM_SHARED_WINDOW; break;
        case PTX_SPACE_LOCAL: in->imm = (int64_t)MEM_LOCAL_WINDOW; break;
        case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST: in->imm = 0; break;
        case PTX_SPACE_PARAM:
            /* kernel parameters only (PTX ISA, cvta): in a .func a register
             * operand holds a kernel parameter's address (what
             * __cvta_generic_to_grid_constant and back compute); a .func's
             * own parameter named as the operand has no such address */
            if (d->fn->is_entry || src->kind != PTX_OPND_SYM) {
                in->imm = (int64_t)MEM_KPARAM_WINDOW;
                break;
            }
            g_string_assign(d->why, "cvta.param of a .func parameter (kernel parameters only)");
            return false;
        default:
            g_string_printf(d->why, "cvta for the .%s space", ptx_space_name((ptx_space)pi->space));
            return false;
        }
        if (src->kind == PTX_OPND_SYM) {
            /* cvta.local d, depot: address of a frame variable, then convert */
            ptx_operand tmp = *src;
            const ptx_symbol *s = ptx_module_sym(d->ir, src->id);
            if (s->kind == PTX_SYM_VAR) {
                const ptx_var *v = ptx_module_var(d->ir, s->index);
                bool kparam = false;
                for (guint i = 0; d->fn->is_entry && i < d->irf->params->len; i++)
                    kparam |= g_array_index(d->irf->params, int32_t, i) == s->index;
                if (kparam && pi->space == PTX_SPACE_PARAM) {
                    tmp.kind = PTX_OPND_IMM;
                    tmp.val = (int64_t)(d->mod->var_addr[s->index] + (uint64_t)src->val);
                } else if (v->func >= 0 &&
                           (v->space == PTX_SPACE_LOCAL || v->space == PTX_SPACE_PARAM)) {
                    g_string_assign(d->why, "cvta of a frame variable by name");
                    return false;
                }
            }
            in->a = ex_slot(d, &tmp, t);
        } else {
            in->a = ex_slot(d, src, t);
        }
        in->fn = h_cvta;
        return in->a != EX_NONE && in->d != EX_NONE;
    }
    case PTX_OP_ISSPACEP:
        in->d = ex_opnd_slot(d, 0, PTX_T_PRED);
        in->a = ex_opnd_slot(d, 1, PTX_T_U64);
        in->space = (uint8_t)ex_decode_space(d, (ptx_space)pi->space);
        in->fn = h_isspacep;
        return true;
    default:
        return false;
    }
}
