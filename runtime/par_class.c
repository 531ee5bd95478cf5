/* runtime/par_class.c — may a kernel's CTAs run on several host threads?
 *
 * The functional driver can run the CTAs of a launch on N host threads
 * (runtime/launch.c, ex_launch.host_threads) when no CTA can observe another
 * CTA's progress: then every interleaving gives the same memory and the same
 * instruction counts.  This file decides that once per kernel at load, from
 * the PTX of the kernel and of every function it can call (all functions of
 * the module when it makes an indirect call).  A kernel is serial when that
 * code has any of:
 *   - atom on .global or generic addresses (the value it returns, or the
 *     result of a float add, depends on the order of the CTAs);
 *   - red on .global/generic memory other than integer add/min/max/and/or/
 *     xor, scalar (those commute: the parallel driver applies them with host
 *     atomics); sured, multimem, cp.reduce.*;
 *   - reads of %clock, %clock64, %clock_hi, %globaltimer* (their functional
 *     value is the launch's instruction count so far);
 *   - .volatile/.mmio, strong (.relaxed/.acquire/... above .cta scope) or
 *     .cv loads from .global or generic addresses (cross-CTA polling);
 *   - membar/fence at .gl/.gpu/.sys/.cluster scope (cross-CTA ordering);
 *   - calls to vprintf (the output order), malloc/free (the heap), the
 *     device runtime (CDP launches, cudaDeviceSynchronize ...);
 *   - clusterlaunchcontrol (cancels CTAs not yet started), tensormap.
 * A cooperative launch (grid-wide sync) is serial too (runtime/launch.c).
 * Everything else only reads shared state (the allocation table, constant
 * and kernel-parameter memory, textures) or writes memory no other CTA
 * reads during the launch; see docs/performance-notes.md for what this
 * cannot see (data races between CTAs on plain loads and stores). */
#include "runtime/par_class.h"
#include "runtime/decode.h"
#include "isa/opcodes.h"

#include <string.h>

static bool has_mod_named(const ptx_module *m, const ptx_instr *pi, const char *name)
{
    for (unsigned i = 0; i < pi->nmods; i++)
        if (!strcmp(ptx_module_mod_name(m, pi->mods[i]), name))
            return true;
    return false;
}

static bool global_or_generic(const ptx_instr *pi)
{
    return pi->space == PTX_SPACE_GLOBAL || pi->space == PTX_SPACE_NONE;
}

static bool is_time_sreg(int32_t id)
{
    switch ((ptx_sreg)id) {
    case PTX_SREG_CLOCK: case PTX_SREG_CLOCK_HI: case PTX_SREG_CLOCK64:
    case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO: case PTX_SREG_GLOBALTIMER_HI:
        return true;
    default:
        return false;
    }
}

static bool reads_time(const ptx_func *f, const ptx_instr *pi, const char **what)
{
    for (unsigned i = 0; i < pi->nopnds; i++) {
        const ptx_operand *o = ptx_instr_opnd(f, pi, i);
        if (o->kind == PTX_OPND_SREG && is_time_sreg(o->id)) {
            *what = ptx_sreg_name((ptx_sreg)o->id);
            return true;
        }
        if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST)
            for (int32_t k = 0; k < o->id2; k++) {
                const ptx_operand *e = ptx_func_opnd(f, (uint32_t)(o->id + k));
                if (e->kind == PTX_OPND_SREG && is_time_sreg(e->id)) {
                    *what = ptx_sreg_name((ptx_sreg)e->id);
                    return true;
                }
            }
    }
    return false;
}

/* red forms that commute and return nothing: integer add/min/max/and/or/xor */
static bool red_commutes(const ptx_instr *pi)
{
    if (pi->vec > 1 || pi->ntypes != 1)
        return false;
    switch ((ptx_type)pi->types[0]) {
    case PTX_T_U32: case PTX_T_S32: case PTX_T_B32:
    case PTX_T_U64: case PTX_T_S64: case PTX_T_B64:
        break;
    default:
        return false;
    }
    return ptx_instr_has_mod(pi, PTX_MOD_ADD) || ptx_instr_has_mod(pi, PTX_MOD_MIN) ||
           ptx_instr_has_mod(pi, PTX_MOD_MAX) || ptx_instr_has_mod(pi, PTX_MOD_AND) ||
           ptx_instr_has_mod(pi, PTX_MOD_OR) || ptx_instr_has_mod(pi, PTX_MOD_XOR);
}

/* The reason an instruction shares state across CTAs, or NULL. */
static const char *instr_reason(const ptx_module *m, const ptx_func *f, const ptx_instr *pi,
                                const char **sreg)
{
    if (reads_time(f, pi, sreg))
        return "reads";
    if (ptx_opcode_has(pi->op, PTX_OPF_CTA_ORDER))
        return "order-dependent";
    switch ((ptx_opcode)pi->op) { /* the forms that depend on modifiers */
    case PTX_OP_ATOM:
        return global_or_generic(pi) ? "order-dependent" : NULL;
    case PTX_OP_RED:
        if (!global_or_generic(pi))
            return NULL;
        return red_commutes(pi) ? NULL : "order-dependent";
    case PTX_OP_CP:
        return has_mod_named(m, pi, "reduce") ? "order-dependent" : NULL;
    case PTX_OP_LD:
        if (global_or_generic(pi) &&
            (ex_mem_order(pi) & (EX_ORD_VOLATILE | EX_ORD_STRONG | EX_ORD_CV)))
            return "another CTA may write what it reads";
        return NULL;
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        if (has_mod_named(m, pi, "gl") || has_mod_named(m, pi, "gpu") ||
            has_mod_named(m, pi, "sys") || has_mod_named(m, pi, "cluster"))
            return "orders memory between CTAs";
        if (pi->op == PTX_OP_FENCE && !has_mod_named(m, pi, "cta") &&
            !has_mod_named(m, pi, "proxy"))
            return "orders memory between CTAs";
        return NULL;
    case PTX_OP_CLUSTERLAUNCHCONTROL:
        return "cancels CTAs of the grid";
    case PTX_OP_TENSORMAP:
        return "shared tensor map";
    default:
        return NULL;
    }
}

static void set_reason(const ex_module *m, const ex_func *kernel, const ex_func *ef,
                       const ptx_instr *pi, const char *why, const char *sreg, GString *out)
{
    const ptx_module *ir = m->ir;
    g_string_truncate(out, 0);
    if (sreg) {
        g_string_append_printf(out, "reads %%%s", sreg);
    } else {
        const ptx_opinfo *info = ptx_opcode_info((ptx_opcode)pi->op);
        g_string_append(out, info && info->name ? info->name : "?");
        for (unsigned i = 0; i < pi->nmods; i++)
            g_string_append_printf(out, ".%s", ptx_module_mod_name(ir, pi->mods[i]));
    }
    g_string_append_printf(out, " at %s:%u", ir->source_name ? ir->source_name : "<ptx>",
                           pi->loc.line);
    if (ef != kernel)
        g_string_append_printf(out, " in '%s'", ef->name);
    if (!sreg)
        g_string_append_printf(out, " (%s)", why);
    else
        g_string_append(out, " (its value depends on the interleaving)");
}

static const char *call_reason(const ex_call *c)
{
    switch (c->builtin) {
    case EX_BUILTIN_VPRINTF: return "printf";
    case EX_BUILTIN_MALLOC: return "malloc";
    case EX_BUILTIN_FREE: return "free";
    case EX_BUILTIN_CDP: return "a device-runtime call (dynamic parallelism)";
    default: return NULL;
    }
}

/* Classifies one kernel: NULL when its CTAs may run in parallel, else a
 * newly allocated reason. */
static char *classify(const ex_module *m, const ex_func *kernel)
{
    uint32_t n = m->nfuncs;
    uint8_t *seen = g_new0(uint8_t, n ? n : 1);
    uint32_t *todo = g_new(uint32_t, n ? n : 1);
    uint32_t ntodo = 0;
    uint32_t k = (uint32_t)(kernel - m->funcs);
    seen[k] = 1;
    todo[ntodo++] = k;
    bool all = false;
    GString *why = g_string_new(NULL);
    char *res = NULL;
    for (uint32_t t = 0; t < ntodo && !res; t++) {
        const ex_func *ef = &m->funcs[todo[t]];
        if (!ef->has_body)
            continue;
        const ptx_func *f = ef->ir;
        for (guint i = 0; i < f->instrs->len && !res; i++) {
            const ptx_instr *pi = ptx_func_instr(f, i);
            const char *sreg = NULL;
            const char *r = instr_reason(m->ir, f, pi, &sreg);
            if (r) {
                set_reason(m, kernel, ef, pi, r, sreg, why);
                res = g_strdup(why->str);
            }
        }
        for (guint i = 0; ef->calls && i < ef->calls->len && !res; i++) {
            const ex_call *c = &g_array_index(ef->calls, ex_call, i);
            const char *r = call_reason(c);
            if (r) {
                /* the call instruction whose site this is, for its line */
                uint32_t line = 0;
                for (uint32_t pc = 0; pc < ef->ninstrs && !line; pc++)
                    if (ptx_opcode_has(ef->code[pc].op, PTX_OPF_CALL) &&
                        ef->code[pc].imm == (int64_t)i)
                        line = ptx_func_instr(f, ef->code[pc].src)->loc.line;
                res = g_strdup_printf("%s at %s:%u%s%s%s", r,
                                      m->ir->source_name ? m->ir->source_name : "<ptx>", line,
                                      ef != kernel ? " in '" : "", ef != kernel ? ef->name : "",
                                      ef != kernel ? "'" : "");
            } else if (c->builtin == EX_BUILTIN_NONE && c->callee == EX_NONE && !all) {
                all = true; /* an indirect call may reach any function */
                for (uint32_t j = 0; j < n; j++)
                    if (!seen[j]) {
                        seen[j] = 1;
                        todo[ntodo++] = j;
                    }
            } else if (c->builtin == EX_BUILTIN_NONE && c->callee < n && !seen[c->callee]) {
                seen[c->callee] = 1;
                todo[ntodo++] = c->callee;
            }
        }
    }
    g_string_free(why, TRUE);
    g_free(seen);
    g_free(todo);
    return res;
}

void ex_module_classify(ex_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ex_func *ef = &m->funcs[i];
        if (ef->is_entry && ef->has_body)
            ef->serial_why = classify(m, ef);
    }
}
