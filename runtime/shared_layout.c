/* runtime/shared_layout.c — where each static .shared variable of a module
 * sits in a CTA's shared window, per kernel, after the system's reserved
 * region; and the size and alignment of any variable (runtime/loader.c lays
 * out the other state spaces with them). */
#include "runtime/shared_layout.h"
#include "isa/opcodes.h"

#include <stdlib.h>
#include <string.h>

static uint64_t var_elem_size(const ptx_var *v)
{
    return (uint64_t)ptx_type_size(v->type) * (v->vec ? v->vec : 1);
}

uint64_t ex_var_size(const ptx_var *v)
{
    uint64_t n = var_elem_size(v);
    for (uint32_t i = 0; i < v->ndims; i++)
        n *= v->dims[i];
    return n;
}

uint32_t ex_var_align(const ptx_var *v)
{
    uint32_t a = v->align ? v->align : (uint32_t)var_elem_size(v);
    return a ? a : 1;
}

/* Static .shared variables.  CUDA gives each kernel the shared memory of
 * the variables that it and the functions it reaches reference, so a
 * module of many kernels, each with its own __shared__ arrays, fits.  One
 * offset per variable serves every kernel: a variable goes above the
 * variables placed before it that share a kernel with it (those of
 * disjoint kernels overlap), and each kernel's static size is the top of
 * its own variables.  Reachability is conservative: any reference to a
 * function (call, mov, .calltargets) is an edge, and a function whose
 * address is taken (outside a call) or named in an initializer is reached
 * from every kernel.  A variable named in an initializer or by no kernel
 * at all goes into every kernel (the old module-wide layout).  Dynamic
 * shared memory (.extern .shared x[]) starts above the static variables
 * of every kernel that uses it.  Returns the module's largest size. */
typedef struct shared_refs {
    GArray *vars;  /* per function: slots (indices into the static list) it names */
    GArray *calls; /* per function: functions it names */
    bool dyn;      /* it names a dynamic shared variable */
} shared_refs;

static void note_sym(const ex_module *m, shared_refs *r, const int32_t *slot, int32_t sym,
                     bool call, bool *taken)
{
    const ptx_symbol *s = ptx_module_sym(m->ir, sym);
    if (s->kind == PTX_SYM_FUNC) {
        g_array_append_val(r->calls, s->index);
        if (!call)
            taken[s->index] = true;
    } else if (s->kind == PTX_SYM_VAR && slot[s->index] >= 0) {
        g_array_append_val(r->vars, slot[s->index]);
    } else if (s->kind == PTX_SYM_VAR && slot[s->index] == -2) {
        r->dyn = true;
    }
}

/* Shared memory reserved for the system at the start of each CTA's window:
 * CUDA reserves 1 KB per block from compute capability 8.0 on (the
 * Programming Guide's table of per-block limits), and cooperative_groups
 * keeps its multi-warp tile scratch there (%reserved_smem_offset_1, "at
 * least 288 bytes").  Older targets reserve nothing. */
#define EX_SHARED_RESERVED_SM80 1024u

static uint32_t reserved_shared_bytes(const ptx_module *ir)
{
    const char *p = ir->target ? strstr(ir->target, "sm_") : NULL;
    return p && strtoul(p + 3, NULL, 10) >= 80 ? EX_SHARED_RESERVED_SM80 : 0;
}

uint32_t ex_layout_shared(ex_module *m, const GArray *vars, const GArray *dyn)
{
    const ptx_module *ir = m->ir;
    uint32_t nf = m->nfuncs, nv = vars->len;
    int32_t *slot = g_new(int32_t, ir->vars->len + 1);
    for (guint vi = 0; vi < ir->vars->len; vi++)
        slot[vi] = -1;
    for (uint32_t i = 0; i < nv; i++)
        slot[g_array_index(vars, int32_t, i)] = (int32_t)i;
    for (guint i = 0; i < dyn->len; i++)
        slot[g_array_index(dyn, int32_t, i)] = -2;
    shared_refs *refs = g_new0(shared_refs, nf + 1);
    bool *taken = g_new0(bool, nf + 1), *everyone = g_new0(bool, nv + 1);
    for (uint32_t f = 0; f < nf; f++) {
        const ptx_func *pf = ptx_module_func(ir, f);
        shared_refs *r = &refs[f];
        r->vars = g_array_new(FALSE, FALSE, sizeof(int32_t));
        r->calls = g_array_new(FALSE, FALSE, sizeof(int32_t));
        if (!pf->has_body)
            continue;
        for (guint i = 0; i < pf->instrs->len; i++) {
            const ptx_instr *in = &g_array_index(pf->instrs, ptx_instr, i);
            for (unsigned j = 0; j < in->nopnds; j++) {
                const ptx_operand *o = ptx_instr_opnd(pf, in, j);
                if (o->kind == PTX_OPND_SYM && o->id >= 0 &&
                    !ptx_opcode_has(in->op, PTX_OPF_CALL))
                    note_sym(m, r, slot, o->id, false, taken);
                /* a function handed over as an argument or vector element */
                for (int32_t e = 0; (o->kind == PTX_OPND_LIST || o->kind == PTX_OPND_VEC) &&
                                    e < o->id2; e++) {
                    const ptx_operand *x = ptx_func_opnd(pf, (uint32_t)(o->id + e));
                    if (x->kind == PTX_OPND_SYM && x->id >= 0)
                        note_sym(m, r, slot, x->id, false, taken);
                }
            }
        }
        /* every operand, nested vector and list elements included */
        for (guint i = 0; i < pf->operands->len; i++) {
            const ptx_operand *o = ptx_func_opnd(pf, i);
            if (o->kind == PTX_OPND_SYM && o->id >= 0)
                note_sym(m, r, slot, o->id, true, taken);
            else if (o->kind == PTX_OPND_ADDR && o->id2 >= 0)
                note_sym(m, r, slot, o->id2, true, taken);
        }
        for (guint t = 0; pf->targets && t < pf->targets->len; t++) {
            const ptx_targets *tg = &g_array_index(pf->targets, ptx_targets, t);
            for (guint k = 0; k < tg->syms->len; k++)
                note_sym(m, r, slot, g_array_index(tg->syms, int32_t, k), false, taken);
        }
    }
    for (guint vi = 0; vi < ir->vars->len; vi++) {
        const ptx_var *v = ptx_module_var(ir, (int32_t)vi);
        for (guint k = 0; v->init && k < v->init->len; k++) {
            const ptx_init *it = &g_array_index(v->init, ptx_init, k);
            if (it->kind != PTX_INIT_SYM || it->sym < 0)
                continue;
            const ptx_symbol *s = ptx_module_sym(ir, it->sym);
            if (s->kind == PTX_SYM_FUNC)
                taken[s->index] = true;
            else if (s->kind == PTX_SYM_VAR && slot[s->index] >= 0)
                everyone[slot[s->index]] = true;
        }
    }
    /* per kernel: the variables of every function it reaches */
    GArray *kernels = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (uint32_t f = 0; f < nf; f++)
        if (ptx_module_func(ir, f)->is_entry)
            g_array_append_val(kernels, f);
    uint32_t nk = kernels->len;
    bool *uses = g_new0(bool, (size_t)nk * nv + 1), *kdyn = g_new0(bool, nk + 1);
    bool *seen = g_new(bool, nf + 1);
    GArray *stack = g_array_new(FALSE, FALSE, sizeof(int32_t));
    for (uint32_t k = 0; k < nk; k++) {
        memset(seen, 0, nf + 1);
        for (uint32_t f = 0; f <= nf; f++) {
            int32_t root = f == nf ? (int32_t)g_array_index(kernels, uint32_t, k) : (int32_t)f;
            if ((f < nf && !taken[f]) || seen[root])
                continue;
            seen[root] = true;
            g_array_append_val(stack, root);
            while (stack->len) {
                int32_t g = g_array_index(stack, int32_t, stack->len - 1);
                g_array_set_size(stack, stack->len - 1);
                const shared_refs *r = &refs[g];
                for (guint i = 0; i < r->vars->len; i++)
                    uses[(size_t)k * nv + (uint32_t)g_array_index(r->vars, int32_t, i)] = true;
                kdyn[k] |= r->dyn;
                for (guint i = 0; i < r->calls->len; i++) {
                    int32_t c = g_array_index(r->calls, int32_t, i);
                    if (c >= 0 && (uint32_t)c < nf && !seen[c]) {
                        seen[c] = true;
                        g_array_append_val(stack, c);
                    }
                }
            }
        }
    }
    /* top[nk]: the variables every kernel gets (named in an initializer,
     * or by no kernel: laid out as before, end to end, so that an
     * oversized one is still refused at load) */
    uint32_t reserved = reserved_shared_bytes(ir);
    uint64_t *top = g_new0(uint64_t, nk + 2);
    for (uint32_t k = 0; k <= nk; k++) /* every layout starts after the reserved region */
        top[k] = reserved;
    for (uint32_t i = 0; i < nv; i++) {
        int32_t vi = g_array_index(vars, int32_t, i);
        const ptx_var *v = ptx_module_var(ir, vi);
        bool some = false;
        for (uint32_t k = 0; k < nk; k++)
            some |= uses[(size_t)k * nv + i];
        bool all = everyone[i] || !some;
        uint64_t off = 0;
        for (uint32_t k = 0; k <= nk; k++)
            if ((k == nk ? all : all || uses[(size_t)k * nv + i]) && top[k] > off)
                off = top[k];
        off = (off + ex_var_align(v) - 1) / ex_var_align(v) * ex_var_align(v);
        m->var_addr[vi] = off;
        /* sizes are below 2^62 (the builder checks), so this cannot wrap */
        for (uint32_t k = 0; k <= nk; k++)
            if (k == nk ? all : all || uses[(size_t)k * nv + i])
                top[k] = off + ex_var_size(v);
    }
    uint64_t base = 0, most = (top[nk] + 15) & ~(uint64_t)15;
    for (uint32_t k = 0; k < nk; k++) {
        top[k] = (top[k] + 15) & ~(uint64_t)15;
        if (kdyn[k] && top[k] > base)
            base = top[k];
    }
    for (guint i = 0; i < dyn->len; i++)
        m->var_addr[g_array_index(dyn, int32_t, i)] = base;
    for (uint32_t k = 0; k < nk; k++) {
        if (kdyn[k])
            top[k] = base;
        if (top[k] > most)
            most = top[k];
    }
    for (uint32_t f = 0; f < nf; f++) { /* functions other than kernels: the largest */
        m->funcs[f].shared_static = (uint32_t)MIN(most, UINT32_MAX);
        m->funcs[f].shared_reserved = reserved;
    }
    for (uint32_t k = 0; k < nk; k++)
        m->funcs[g_array_index(kernels, uint32_t, k)].shared_static =
            (uint32_t)MIN(top[k], UINT32_MAX);
    for (uint32_t f = 0; f < nf; f++) {
        g_array_free(refs[f].vars, TRUE);
        g_array_free(refs[f].calls, TRUE);
    }
    g_array_free(stack, TRUE);
    g_array_free(kernels, TRUE);
    g_free(refs);
    g_free(taken);
    g_free(everyone);
    g_free(uses);
    g_free(kdyn);
    g_free(seen);
    g_free(top);
    g_free(slot);
    return (uint32_t)MIN(most, UINT32_MAX);
}

