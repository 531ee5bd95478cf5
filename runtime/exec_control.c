/* runtime/exec_control.c — control flow: bra, brx.idx, call, ret, exit, trap,
 * barriers, fences and the no-op hints.  Branches diverge on the SIMT stack
 * and reconverge at the immediate post-dominator the CFG computed. */
#include "runtime/decode.h"
#include "runtime/cdp.h"
#include "runtime/hostmem.h"
#include "runtime/devheap.h"
#include "runtime/printf.h"
#include "runtime/barrier.h"
#include "runtime/warp.h"

#include <string.h>

/* ---------------------------------------------------------------- branches */

static void simt_push(ex_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t depth)
{
    ex_simt e = {pc, rpc, mask, depth};
    g_array_append_val(w->simt, e);
}

static void h_bra(ex_warp *w, const ex_instr *in, uint32_t taken)
{
    ex_simt *top = ex_simt_top(w);
    uint32_t active = top->mask, pc = top->pc;
    if (taken == active) {
        top->pc = in->target;
    } else if (taken == 0) {
        top->pc = pc + 1;
    } else {
        uint32_t nt = active & ~taken, depth = top->call_depth, rpc = in->reconv;
        if (rpc == EX_NONE) {
            /* the paths never meet again: split the entry in two */
            uint32_t outer = top->rpc;
            top->mask = nt;
            top->pc = pc + 1;
            simt_push(w, in->target, outer, taken, depth);
        } else {
            top->pc = rpc;
            simt_push(w, pc + 1, rpc, nt, depth);
            simt_push(w, in->target, rpc, taken, depth);
        }
    }
    top = ex_simt_top(w);
    if (top->pc == top->rpc)
        ex_simt_settle(w);
}

/* brx.idx: every lane picks a target from the table by its index. */
static void h_brx(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_simt *top = ex_simt_top(w);
    const uint32_t *table = in->ext;
    uint32_t n = (uint32_t)in->imm;
    uint32_t pc = top->pc, active = top->mask;
    if (!mask) {
        top->pc = pc + 1;
        return;
    }
    uint32_t left = mask, groups[WARP_SIZE], gmask[WARP_SIZE], ng = 0;
    while (left) {
        unsigned l0 = (unsigned)__builtin_ctz(left);
        uint64_t idx = w->r[in->a][l0] & 0xffffffffu;
        if (idx >= n) {
            ex_fault(w, (int)l0, "brx.idx index %llu is outside its %u targets",
                     (unsigned long long)idx, n);
            return;
        }
        uint32_t m = 0;
        EX_LANES(left, l, if ((w->r[in->a][l] & 0xffffffffu) == idx) m |= 1u << l;);
        groups[ng] = table[idx];
        gmask[ng++] = m;
        left &= ~m;
    }
    uint32_t depth = top->call_depth, rpc = in->reconv;
    if (ng == 1 && mask == active) {
        top->pc = groups[0];
    } else {
        uint32_t rest = active & ~mask;
        top->pc = rpc != EX_NONE ? rpc : pc + 1;
        if (rpc == EX_NONE)
            top->mask = rest;
        else if (rest)
            simt_push(w, pc + 1, rpc, rest, depth);
        for (uint32_t g = ng; g-- > 0;)
            simt_push(w, groups[g], rpc, gmask[g], depth);
    }
    if (ex_simt_top(w)->pc == ex_simt_top(w)->rpc)
        ex_simt_settle(w);
}

/* ------------------------------------------------------------------- calls */

static bool reserve_registers(ex_warp *w, uint32_t roff, uint32_t need)
{
    if (roff + need <= w->rcap)
        return true;
    uint32_t cap = w->rcap ? w->rcap : 64;
    while (cap < roff + need)
        cap *= 2;
    if (cap > (1u << 20)) {
        ex_fault(w, -1, "register stack overflow (call depth too large)");
        return false;
    }
    /* not g_realloc: large register files are mmapped (runtime/hostmem.h) */
    void *nr = ex_host_alloc(sizeof(*w->rfile) * cap);
    if (!nr) {
        ex_fault(w, -1, "no host memory for a register stack of %u slots", cap);
        return false;
    }
    memcpy(nr, w->rfile, sizeof(*w->rfile) * w->rcap);
    ex_host_free(w->rfile, sizeof(*w->rfile) * w->rcap);
    w->rfile = nr;
    w->rcap = cap;
    return true;
}

static void h_call(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_simt *top = ex_simt_top(w);
    uint32_t pc = top->pc;
    const ex_call *c = &g_array_index(w->fn->calls, ex_call, in->imm);
    if (!mask) {
        top->pc = pc + 1;
        return;
    }
    if (c->builtin != EX_BUILTIN_NONE) {
        if (c->builtin == EX_BUILTIN_VPRINTF)
            ex_vprintf(w, c, mask);
        else if (c->builtin == EX_BUILTIN_CDP)
            ex_cdp_call(w, c, mask);
        else if (c->builtin == EX_BUILTIN_MALLOC)
            ex_devheap_malloc(w, c, mask);
        else if (c->builtin == EX_BUILTIN_FREE)
            ex_devheap_free(w, c, mask);
        else
            ex_assertfail(w, c, mask);
        if (w->state == WARP_RUNNING)
            top->pc = pc + 1;
        return;
    }
    uint32_t callee = c->callee;
    bool split = false;
    if (callee == EX_NONE) {
        unsigned l0 = (unsigned)__builtin_ctz(mask);
        uint64_t v = w->r[c->target_slot][l0];
        uint32_t same = 0;
        EX_LANES(mask, l, if (w->r[c->target_slot][l] == v) same |= 1u << l;);
        uint64_t idx = (v - EX_FUNC_ADDR_BASE) / 16;
        if (v < EX_FUNC_ADDR_BASE || (v - EX_FUNC_ADDR_BASE) % 16 ||
            idx >= w->launch->mod->nfuncs || !w->launch->mod->funcs[idx].has_body) {
            ex_fault(w, (int)l0, "indirect call to 0x%llx, which is not a function with a body",
                     (unsigned long long)v);
            return;
        }
        callee = (uint32_t)idx;
        if (same != mask) {
            /* lanes calling other functions run this call again afterwards:
             * one group per target, one after another */
            uint32_t again = top->mask & ~same, depth = top->call_depth;
            top->pc = pc + 1;
            simt_push(w, pc, pc + 1, again, depth);
            split = true;
            mask = same;
        }
    }
    const ex_func *f = &w->launch->mod->funcs[callee];
    uint32_t caller_fp = w->fp, saved_top = w->stack_top;
    uint32_t caller_roff = (uint32_t)(w->r - w->rfile);
    uint32_t callee_roff = caller_roff + w->fn->nregs + w->fn->nconst;
    if (!reserve_registers(w, callee_roff, f->nregs + f->nconst))
        return;
    if (!ex_frame_push(w, f->frame_size))
        return;
    uint32_t callee_fp = w->fp;
    uint64_t (*caller_r)[WARP_SIZE] = w->rfile + caller_roff;
    uint64_t (*callee_r)[WARP_SIZE] = w->rfile + callee_roff;
    uint32_t nargs = c->nargs < f->nparams ? c->nargs : f->nparams;
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t preg = f->param_regs[i];
        EX_LANES(mask, l, {
            uint64_t v = 0;
            const uint8_t *src = NULL;
            if (c->arg_offsets[i] == EX_NONE)
                v = caller_r[c->arg_sizes[i]][l];
            else
                src = ex_lane_stack(w, l, caller_fp + c->arg_offsets[i]);
            if (preg != EX_NONE) {
                if (src)
                    memcpy(&v, src, c->arg_sizes[i] < 8 ? c->arg_sizes[i] : 8);
                callee_r[preg][l] = v;
            } else {
                uint32_t n = f->param_sizes[i];
                uint8_t *dst = ex_lane_stack(w, l, callee_fp + f->param_offsets[i]);
                if (src)
                    memcpy(dst, src, n < c->arg_sizes[i] ? n : c->arg_sizes[i]);
                else
                    memcpy(dst, &v, n < 8 ? n : 8);
            }
        });
    }
    ex_callframe cf = {(uint32_t)(w->fn - w->launch->mod->funcs), pc + 1, caller_fp, callee_fp,
                       c, w->simt->len, mask, saved_top, caller_roff};
    g_array_append_val(w->calls, cf);
    top = ex_simt_top(w);
    if (!split)
        top->pc = pc + 1;
    uint32_t depth = top->call_depth + 1;
    w->r = callee_r;
    ex_warp_enter(w, f);
    simt_push(w, 0, EX_NONE, mask, depth);
}

static void h_ret(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    (void)in;
    ex_simt *top = ex_simt_top(w);
    if (!mask) {
        top->pc++;
        return;
    }
    uint32_t rest = top->mask & ~mask;
    if (rest)
        top->pc++; /* lanes whose guard was false go on */
    ex_do_return(w, mask);
}

static void h_exit(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    (void)in;
    ex_simt *top = ex_simt_top(w);
    if (top->mask & ~mask)
        top->pc++;
    if (!mask)
        return;
    w->exited |= mask;
    ex_simt_remove_lanes(w, mask);
    ex_lanes_exited(w, mask);
}

static void h_trap(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    (void)in;
    if (!mask) {
        ex_simt_top(w)->pc++;
        return;
    }
    ex_fault(w, __builtin_ctz(mask), "trap instruction executed");
}

/* brkpt suspends execution for a debugger (PTX ISA "brkpt"); without one
 * the launch stops there, with the location. */
static void h_brkpt(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    (void)in;
    if (!mask) {
        ex_simt_top(w)->pc++;
        return;
    }
    ex_fault(w, __builtin_ctz(mask), "brkpt instruction executed (a breakpoint; ptxemu has "
                                     "no debugger to resume it)");
}

static void h_nop(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    (void)w;
    (void)in;
    (void)mask;
}

/* ---------------------------------------------------------------- barriers */

/* EX_BAR_CARRIVE / EX_BAR_CWAIT: barrier.cluster.arrive / .wait, a split
 * barrier over all threads of the cluster; a launch without clusters runs
 * each CTA as a cluster of one, so it is a CTA-wide split barrier whose
 * wait does not arrive (unlike bar.sync after bar.arrive). */

static void h_cluster_bar(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_cta *cta = w->cta;
    if (in->op2 == EX_BAR_CWAIT) {
        if (w->cbar_pending & mask) {
            w->state = WARP_AT_BARRIER;
            w->barrier_id = EX_CLUSTER_BAR;
            w->bar_lanes = mask;
            w->bar_dst = EX_NONE;
            w->bar_redop = 0;
        }
        return;
    }
    if (w->cbar_pending & mask) {
        ex_fault(w, (int)__builtin_ctz(w->cbar_pending & mask),
                 "barrier.cluster.arrive twice without barrier.cluster.wait");
        return;
    }
    cta->bar_arrived[EX_CLUSTER_BAR] += ex_popc(mask);
    w->cbar_pending |= mask;
    ex_barrier_check(cta, EX_CLUSTER_BAR);
}

/* Under ITS, an aligned CTA barrier (bar.sync, bar.red, bar.arrive: what
 * __syncthreads compiles to) whose group waited for lanes of its warp that
 * then exited instead of arriving: CUDA leaves a barrier in divergent code
 * undefined, and the SIMT stack reports it as a barrier deadlock.  ITS
 * lets it complete without them, so say so (once a launch). */
static void check_divergent_bar(ex_warp *w, uint32_t mask)
{
    uint32_t skipped = w->its_bar_wait & w->exited & ~mask;
    w->its_bar_wait = 0;
    if (!skipped)
        return;
    ex_warn_once(w, "divergent barrier: %u lane%s of this warp (mask 0x%08x) exited without "
                 "arriving at it, while lanes 0x%08x arrived; undefined in CUDA (a CTA barrier "
                 "must be reached by all threads), completed here without them under "
                 "independent thread scheduling, a barrier deadlock without it",
                 ex_popc(skipped), ex_popc(skipped) == 1 ? "" : "s", skipped, mask);
}

static void h_bar(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_simt *top = ex_simt_top(w);
    if (mask && w->its && in->op2 != EX_BAR_SYNC_THREADS && in->op2 != EX_BAR_CARRIVE &&
        in->op2 != EX_BAR_CWAIT)
        check_divergent_bar(w, mask);
    top->pc++;
    if (!mask)
        return;
    if (in->op2 == EX_BAR_CARRIVE || in->op2 == EX_BAR_CWAIT) {
        h_cluster_bar(w, in, mask);
        return;
    }
    unsigned l0 = (unsigned)__builtin_ctz(mask);
    uint64_t id = in->a != EX_NONE ? w->r[in->a][l0] : 0;
    if (id >= 16) {
        ex_fault(w, (int)l0, "barrier id %llu is out of range (0..15)", (unsigned long long)id);
        return;
    }
    ex_cta *cta = w->cta;
    if (in->b != EX_NONE) {
        uint64_t count = w->r[in->b][l0];
        if (count == 0 || count > cta->nthreads) {
            ex_fault(w, (int)l0, "barrier thread count %llu is invalid for a CTA of %u threads",
                     (unsigned long long)count, cta->nthreads);
            return;
        }
        cta->bar_expected[id] = (uint32_t)count;
    }
    if (cta->bar_arrived[id] == 0) {
        cta->bar_popc[id] = 0;
        cta->bar_and[id] = 1;
        cta->bar_or[id] = 0;
    }
    cta->bar_arrived[id] += ex_popc(mask);
    if (in->op2 == EX_BAR_RED) {
        bool neg = in->flags & EXF_NOT_C;
        EX_LANES(mask, l, {
            bool p = (w->r[in->c][l] != 0) != neg;
            cta->bar_popc[id] += p;
            cta->bar_and[id] &= p;
            cta->bar_or[id] |= p;
        });
    }
    if (in->op2 == EX_BAR_SYNC_THREADS && w->its) {
        /* under ITS a group of the warp arrives on its own; the warp stops
         * once all its live lanes wait here, until then its other groups
         * run on (runtime/its.c skips the parked lanes) */
        uint32_t alive = w->valid & ~w->exited;
        w->its_parked |= mask;
        w->barrier_id = (uint32_t)id;
        if ((w->its_parked & alive) != alive) {
            ex_barrier_check(cta, (uint32_t)id);
            return;
        }
        mask = w->its_parked;
        w->its_parked = 0;
    }
    if (in->op2 != EX_BAR_ARRIVE) {
        w->state = WARP_AT_BARRIER;
        w->barrier_id = (uint32_t)id;
        w->bar_lanes = mask;
        w->bar_dst = in->op2 == EX_BAR_RED ? in->d : EX_NONE;
        w->bar_redop = (uint8_t)(in->op2 == EX_BAR_RED ? in->e : 0);
    }
    ex_barrier_check(cta, (uint32_t)id);
}

/* ---------------------------------------------------------------- decoding */

static bool decode_call(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    const ptx_operand *rets = NULL, *args = NULL, *callee = NULL;
    for (unsigned i = 0; i < pi->nopnds; i++) {
        const ptx_operand *o = ex_opnd(d, i);
        if (o->kind == PTX_OPND_LIST) {
            if (!callee)
                rets = o;
            else if (!args)
                args = o;
        } else if (!callee) {
            callee = o;
        }
    }
    if (!callee) {
        g_string_assign(d->why, "call without a target");
        return false;
    }
    ex_call c = {0};
    c.callee = EX_NONE;
    c.target_slot = EX_NONE;
    if (callee->kind == PTX_OPND_SYM) {
        const ptx_symbol *s = ptx_module_sym(d->ir, callee->id);
        if (s->kind != PTX_SYM_FUNC) {
            g_string_printf(d->why, "call target '%s' is not a function", s->name);
            return false;
        }
        const ptx_func *f = ptx_module_func(d->ir, (guint)s->index);
        c.callee = (uint32_t)s->index;
        const char *target = g_hash_table_lookup(d->ir->aliases, f->name);
        int32_t ti = target ? ptx_module_find_func(d->ir, target) : -1;
        if (!f->has_body && ti >= 0 && ptx_module_func(d->ir, (guint)ti)->has_body) {
            c.callee = (uint32_t)ti; /* .alias f, target */
            f = ptx_module_func(d->ir, (guint)ti);
        }
        if (!f->has_body) {
            if (!strcmp(f->name, "vprintf"))
                c.builtin = EX_BUILTIN_VPRINTF;
            else if (!strcmp(f->name, "__assertfail"))
                c.builtin = EX_BUILTIN_ASSERTFAIL;
            else if (ex_cdp_op(f->name) >= 0) {
                c.builtin = EX_BUILTIN_CDP; /* the device runtime (runtime/cdp.c) */
                c.cdp_op = (uint8_t)ex_cdp_op(f->name);
            }
            else if (!strcmp(f->name, "malloc"))
                c.builtin = EX_BUILTIN_MALLOC;
            else if (!strcmp(f->name, "free"))
                c.builtin = EX_BUILTIN_FREE;
            else if (!strncmp(f->name, "cudaGraph", 9)) {
                g_string_printf(d->why, "device-side CUDA graph call '%s'", f->name);
                return false;
            } else {
                g_string_printf(d->why, "call to external function '%s' (no body in this module)",
                                f->name);
                return false;
            }
        }
    } else if (callee->kind == PTX_OPND_REG) {
        c.target_slot = ex_slot(d, callee, PTX_T_U64);
    } else {
        g_string_assign(d->why, "unsupported call target");
        return false;
    }
    const ptx_operand *lists[2] = {args, rets};
    for (int which = 0; which < 2; which++) {
        const ptx_operand *lst = lists[which];
        uint32_t n = lst ? (uint32_t)lst->id2 : 0;
        uint32_t *offs = g_new0(uint32_t, n + 1), *sizes = g_new0(uint32_t, n + 1);
        for (uint32_t i = 0; i < n; i++) {
            const ptx_operand *o = ex_vec_elem(d, lst, i);
            if (o->kind == PTX_OPND_SYM && ptx_module_sym(d->ir, o->id)->kind == PTX_SYM_VAR) {
                int32_t vi = ptx_module_sym(d->ir, o->id)->index;
                const ptx_var *v = ptx_module_var(d->ir, vi);
                offs[i] = (uint32_t)d->mod->var_addr[vi];
                uint64_t sz = (uint64_t)ptx_type_size(v->type) * (v->vec ? v->vec : 1);
                for (uint32_t k = 0; k < v->ndims; k++)
                    sz *= v->dims[k];
                sizes[i] = (uint32_t)sz;
                if (v->space != PTX_SPACE_PARAM) {
                    g_string_printf(d->why, "call argument '%s' is not a .param variable", v->name);
                    g_free(offs);
                    g_free(sizes);
                    return false;
                }
            } else if (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_IMM) {
                offs[i] = EX_NONE;
                sizes[i] = ex_slot(d, o, PTX_T_B64);
            } else {
                g_string_assign(d->why, "unsupported call argument");
                g_free(offs);
                g_free(sizes);
                return false;
            }
        }
        if (which == 0) {
            c.nargs = n;
            c.arg_offsets = offs;
            c.arg_sizes = sizes;
        } else {
            c.nrets = n;
            c.ret_offsets = offs;
            c.ret_sizes = sizes;
        }
    }
    g_array_append_val(d->fn->calls, c);
    in->imm = d->fn->calls->len - 1;
    in->fn = h_call;
    in->flags |= EXF_CONTROL;
    return true;
}

static uint32_t label_pc(ex_decoder *d, int32_t sym)
{
    const ptx_symbol *s = ptx_module_sym(d->ir, sym);
    return s->kind == PTX_SYM_LABEL && s->index >= 0 ? (uint32_t)s->index : EX_NONE;
}

bool ex_decode_control(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_BRA:
        in->target = label_pc(d, ex_opnd(d, 0)->id);
        in->fn = h_bra;
        in->flags |= EXF_CONTROL;
        return in->target != EX_NONE;
    case PTX_OP_BRX: {
        const ptx_operand *t = ex_opnd(d, 1);
        const ptx_symbol *s = ptx_module_sym(d->ir, t->id);
        if (s->kind != PTX_SYM_BRANCHTARGETS) {
            g_string_assign(d->why, "brx.idx needs a .branchtargets list");
            return false;
        }
        const ptx_targets *tg = &g_array_index(d->irf->targets, ptx_targets, s->index);
        uint32_t *table = g_new(uint32_t, tg->syms->len + 1);
        for (guint i = 0; i < tg->syms->len; i++)
            table[i] = label_pc(d, g_array_index(tg->syms, int32_t, i));
        if (!d->fn->tables)
            d->fn->tables = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(d->fn->tables, table);
        in->ext = table;
        in->imm = tg->syms->len;
        in->a = ex_opnd_slot(d, 0, PTX_T_U32);
        in->fn = h_brx;
        in->flags |= EXF_CONTROL;
        return true;
    }
    case PTX_OP_CALL:
        return decode_call(d, in);
    case PTX_OP_RET:
        in->fn = h_ret;
        in->flags |= EXF_CONTROL;
        return true;
    case PTX_OP_EXIT:
        in->fn = h_exit;
        in->flags |= EXF_CONTROL;
        return true;
    case PTX_OP_BRKPT:
        in->fn = h_brkpt;
        in->flags |= EXF_CONTROL;
        return true;
    case PTX_OP_TRAP:
        in->fn = h_trap;
        in->flags |= EXF_CONTROL;
        return true;
    case PTX_OP_BAR: case PTX_OP_BARRIER: {
        bool red = ptx_instr_has_mod(pi, PTX_MOD_RED);
        bool arrive = ptx_instr_has_mod(pi, PTX_MOD_ARRIVE);
        if (ptx_instr_has_mod(pi, PTX_MOD_WARP)) {
            /* bar.warp.sync: lanes of one group are in lockstep; under ITS
             * the group waits for the membermask (in->a, runtime/its.c) */
            const ptx_operand *m = ex_opnd(d, 0);
            in->a = m ? ex_slot(d, m, PTX_T_B32) : EX_NONE;
            in->fn = h_nop;
            return true;
        }
        unsigned i = 0;
        in->flags |= EXF_CTA_BARRIER;
        if (ptx_instr_has_mod(pi, PTX_MOD_CLUSTER)) {
            /* barrier.cluster.arrive[.relaxed|.release][.aligned] /
             * barrier.cluster.wait[.acquire][.aligned] */
            in->op2 = arrive ? EX_BAR_CARRIVE : EX_BAR_CWAIT;
            in->fn = h_bar;
            in->flags |= EXF_CONTROL;
            return true;
        }
        if (red) {
            in->d = ex_opnd_slot(d, i++, PTX_T_U32);
            in->op2 = EX_BAR_RED;
            in->e = ptx_instr_has_mod(pi, PTX_MOD_POPC) ? 1 : ptx_instr_has_mod(pi, PTX_MOD_AND) ? 2 : 3;
        } else {
            bool aligned = pi->op == PTX_OP_BAR || ptx_instr_has_mod(pi, PTX_MOD_ALIGNED);
            in->op2 = arrive ? EX_BAR_ARRIVE : aligned ? EX_BAR_SYNC : EX_BAR_SYNC_THREADS;
        }
        unsigned rest = pi->nopnds - i - (red ? 1u : 0u);
        if (rest >= 1)
            in->a = ex_opnd_slot(d, i++, PTX_T_U32);
        if (rest >= 2)
            in->b = ex_opnd_slot(d, i++, PTX_T_U32);
        if (red) {
            const ptx_operand *p = ex_opnd(d, i);
            in->c = ex_slot(d, p, PTX_T_PRED);
            if (p->flags & PTX_OPNDF_NOT)
                in->flags |= EXF_NOT_C;
        }
        if (in->a == EX_NONE && rest >= 1)
            return false;
        in->fn = h_bar;
        in->flags |= EXF_CONTROL;
        return true;
    }
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_NANOSLEEP:
    case PTX_OP_PMEVENT: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        /* one functional memory order and no caches: nothing to do */
        in->fn = h_nop;
        return true;
    default:
        return false;
    }
}
