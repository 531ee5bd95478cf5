/* runtime/loader.c — turns a parsed module into decoded functions: memory
 * layout of variables (global allocations, per-thread frame offsets; shared
 * offsets come from runtime/shared_layout.c), initializers, per-function
 * analyses (CFG, phases, spin candidates, register use), and one decoded
 * instruction each through the family dispatch (runtime/decode.h). */
#include "runtime/loader.h"
#include "runtime/decode.h"
#include "runtime/its.h"
#include "runtime/par_class.h"
#include "runtime/reginit.h"
#include "runtime/shared_layout.h"
#include "frontend/phase.h"
#include "frontend/print.h"
#include "frontend/spin.h"

#include <stdlib.h>
#include <string.h>

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ------------------------------------------------------------ initializers */

static void write_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t sym_value(const ex_module *m, int32_t sym)
{
    const ptx_symbol *s = ptx_module_sym(m->ir, sym);
    if (s->kind == PTX_SYM_FUNC)
        return EX_FUNC_ADDR(s->index);
    if (s->kind == PTX_SYM_VAR)
        return m->var_addr[s->index];
    return 0;
}

static bool apply_init(ex_module *m, const ptx_var *v, uint8_t *data, uint64_t size,
                       GError **err)
{
    unsigned esz = ptx_type_size(v->type);
    uint64_t off = 0;
    for (guint i = 0; i < v->init->len; i++) {
        const ptx_init *it = &g_array_index(v->init, ptx_init, i);
        if (it->kind == PTX_INIT_OPEN || it->kind == PTX_INIT_CLOSE || it->kind == PTX_INIT_KV)
            continue;
        if (off + esz > size) {
            g_set_error(err, g_quark_from_static_string("ptxemu"), 1,
                        "%s:%u:%u: error: initializer of '%s' has more values than it has room for",
                        m->ir->source_name, v->loc.line, v->loc.col, v->name);
            return false;
        }
        uint64_t bits = (uint64_t)it->val;
        if (it->kind == PTX_INIT_SYM) {
            bits = sym_value(m, it->sym) + (uint64_t)it->val;
        } else if (it->kind == PTX_INIT_F64 && v->type == PTX_T_F32) {
            double d;
            memcpy(&d, &bits, 8);
            float f = (float)d;
            uint32_t fb;
            memcpy(&fb, &f, 4);
            bits = fb;
        } else if (it->kind == PTX_INIT_F32 && v->type == PTX_T_F64) {
            uint32_t fb = (uint32_t)bits;
            float f;
            memcpy(&f, &fb, 4);
            double d = f;
            memcpy(&bits, &d, 8);
        } else if (it->kind == PTX_INIT_INT && ptx_type_is_float(v->type) && esz >= 4) {
            if (esz == 4) {
                float f = (float)it->val;
                uint32_t fb;
                memcpy(&fb, &f, 4);
                bits = fb;
            } else {
                double d = (double)it->val;
                memcpy(&bits, &d, 8);
            }
        }
        write_le(data + off, bits, esz);
        off += esz;
    }
    return true;
}

/* --------------------------------------------------------------- decoding */

/* Registers read and written by one instruction, as slots: the row's
 * operand roles (frontend/operands.h) mapped through the register layout.
 * A whole vector register stands for all its elements. */
typedef struct reguse_ctx {
    const ex_decoder *d;
    const ptx_func *f;
    GArray *reads, *writes;  /* uint32_t, reused for every instruction */
} reguse_ctx;

static void add_unique(GArray *a, uint32_t slot)
{
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, uint32_t, i) == slot)
            return;
    g_array_append_val(a, slot);
}

static void reguse_visit(void *user, int32_t reg, uint8_t comp, bool write)
{
    reguse_ctx *u = user;
    if (reg < 0 || (guint)reg >= u->f->regs->len)
        return;
    const ptx_reg *r = &g_array_index(u->f->regs, ptx_reg, reg);
    uint32_t first = ex_reg_slot(u->d, reg), n = 1;
    if (comp >= 1 && comp <= 4)
        first += comp - 1u;
    else
        n = ptx_reg_slots(r);
    for (uint32_t k = 0; k < n; k++)
        add_unique(write ? u->writes : u->reads, first + k);
}

static void build_reguse(ex_func *ef, const ex_decoder *d)
{
    reguse_ctx u = {d, ef->ir, g_array_new(FALSE, FALSE, sizeof(uint32_t)),
                    g_array_new(FALSE, FALSE, sizeof(uint32_t))};
    GArray *all = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    ef->reguse = g_new0(ex_reguse, ef->ninstrs + 1);
    for (uint32_t i = 0; i < ef->ninstrs; i++) {
        g_array_set_size(u.reads, 0);
        g_array_set_size(u.writes, 0);
        ptx_instr_visit_regs(ef->ir, ptx_func_instr(ef->ir, i), reguse_visit, &u);
        ex_reguse *ru = &ef->reguse[i];
        ru->first = all->len;
        ru->nread = u.reads->len;
        ru->nwrite = u.writes->len;
        g_array_append_vals(all, u.reads->data, u.reads->len);
        g_array_append_vals(all, u.writes->data, u.writes->len);
    }
    ef->nreg_slots = all->len;
    ef->reg_slots = (uint32_t *)(void *)g_array_free(all, FALSE);
    g_array_free(u.reads, TRUE);
    g_array_free(u.writes, TRUE);
}

static void describe_instr(GString *out, const ptx_module *ir, const ptx_func *f,
                           const ptx_instr *pi)
{
    g_string_append_printf(out, "%s:%u:%u: ", ir->source_name, pi->loc.line, pi->loc.col);
    GString *text = g_string_new(NULL);
    ptx_print_instr(text, ir, f, pi);
    g_string_append_printf(out, "'%s'", text->str);
    g_string_free(text, TRUE);
}

/* Fills the phase fields of out[0..n) from the phase pass run with `lat`
 * and options `opts` (NULL: the default table of isa/latency.h, the default
 * options). */
static void fill_phases(const ex_func *ef, const ptx_latency_table *lat,
                        const ptx_phase_opts *opts, ex_annot *out)
{
    ptx_phase_info *ph = ptx_phase_analyze_opts(ef->cfg, lat, opts);
    if (!ph)
        return;
    for (uint32_t i = 0; i < ef->ir->instrs->len; i++) {
        ex_annot *a = &out[i];
        a->phase = ph->phase_of[i];
        a->phase_distance = ph->distance[i];
        a->phase_length = ph->phases[ph->phase_of[i]].length;
        a->next_phase_length = ph->next_length[i];
        a->long_latency = ph->is_long[i];
    }
    ptx_phase_info_free(ph);
}

/* Phases and spin candidates travel with the decoded code (default latency
 * table; the timing model recomputes the phases with its config's
 * latencies through ex_func_annotate). */
static void annotate(ex_module *m, ex_func *ef)
{
    uint32_t n = ef->ir->instrs->len;
    ef->annot = g_new0(ex_annot, n + 1);
    fill_phases(ef, NULL, NULL, ef->annot);
    ptx_phase_info *ph = ptx_phase_analyze(ef->cfg, NULL);
    ef->nphases = ph ? ph->nphases : 0;
    ptx_phase_info_free(ph);
    ptx_spin_info *sp = ptx_spin_analyze(m->ir, ef->cfg);
    for (uint32_t i = 0; sp && i < n; i++)
        ef->annot[i].spin_candidate = sp->is_candidate[i];
    /* every instruction of a candidate's loop (nested loops included) */
    for (guint c = 0; sp && c < sp->cands->len; c++) {
        const ptx_spin_cand *sc = &g_array_index(sp->cands, ptx_spin_cand, c);
        const ptx_loop *lp = &g_array_index(ef->cfg->loops, ptx_loop, sc->loop);
        for (guint b = 0; b < lp->blocks->len; b++) {
            const ptx_block *bl = &ef->cfg->blocks[g_array_index(lp->blocks, uint32_t, b)];
            for (uint32_t i = bl->first; i < bl->end && i < n; i++)
                ef->annot[i].spin_loop = 1;
        }
    }
    ptx_spin_info_free(sp);
}

ex_annot *ex_func_annotate(const ex_func *ef, const ptx_latency_table *lat,
                           const ptx_phase_opts *opts)
{
    uint32_t n = ef->ir->instrs->len;
    ex_annot *a = g_new0(ex_annot, n + 1);
    if (ef->annot)
        memcpy(a, ef->annot, sizeof *a * (n + 1)); /* spin candidates */
    fill_phases(ef, lat, opts, a);
    return a;
}

static bool decode_func(ex_module *m, ex_func *ef, GPtrArray *unsupported, GError **err)
{
    const ptx_func *f = ef->ir;
    ex_decoder d;
    ex_decoder_open(&d, m, ef);
    ef->param_regs = g_new(uint32_t, ef->nparams + 1);
    ef->ret_regs = g_new(uint32_t, ef->nrets + 1);
    for (uint32_t i = 0; i < ef->nparams; i++) {
        const ptx_var *v = ptx_module_var(m->ir, g_array_index(f->params, int32_t, i));
        ef->param_regs[i] = ex_reg_slot(&d, v->reg);
    }
    for (uint32_t i = 0; i < ef->nrets; i++) {
        const ptx_var *v = ptx_module_var(m->ir, g_array_index(f->rets, int32_t, i));
        ef->ret_regs[i] = ex_reg_slot(&d, v->reg);
    }

    ef->cfg = ptx_cfg_build(m->ir, f, err);
    bool ok = ef->cfg != NULL;
    if (ok)
        annotate(m, ef);
    ef->ninstrs = f->instrs->len;
    ef->code = g_new0(ex_instr, ef->ninstrs + 1);
    ef->calls = g_array_new(FALSE, TRUE, sizeof(ex_call));
    for (uint32_t i = 0; ok && i < ef->ninstrs; i++) {
        const ptx_instr *pi = ptx_func_instr(f, i);
        ex_instr *in = &ef->code[i];
        in->d = in->a = in->b = in->c = in->e = in->d2 = EX_NONE;
        in->vr[0] = in->vr[1] = in->vr[2] = in->vr[3] = EX_NONE;
        in->target = in->reconv = EX_NONE;
        in->src = i;
        in->op = pi->op;
        in->type = pi->ntypes ? pi->types[0] : PTX_T_NONE;
        in->type2 = pi->ntypes > 1 ? pi->types[1] : PTX_T_NONE;
        in->vec = pi->vec;
        in->rnd = pi->rnd;
        in->guard = ex_reg_slot(&d, pi->guard);
        in->guard_neg = pi->guard_neg;
        in->order = ex_mem_order(pi);
        if (ef->cfg->reconv[i] != PTX_CFG_NONE)
            in->reconv = ef->cfg->reconv[i];
        d.pi = pi;
        g_string_truncate(d.why, 0);
        if (!ex_decode_instr(&d, in)) {
            GString *msg = g_string_new(NULL);
            describe_instr(msg, m->ir, f, pi);
            g_string_append_printf(msg, " is not supported yet%s%s",
                                   d.why->len ? ": " : "", d.why->str);
            g_ptr_array_add(unsupported, g_string_free(msg, FALSE));
            in->fn = NULL;
        }
    }
    if (ok) {
        build_reguse(ef, &d);
        ex_its_straight(ef);
        ex_reginit_analyze(ef);
    }
    ex_decoder_close(&d, ef);
    return ok;
}

/* ----------------------------------------------------------------- layout */

/* Frames and kernel parameter buffers use 32-bit offsets: a function whose
 * parameters and .local/.param variables take more than EX_FRAME_MAX bytes
 * per thread is refused at the variable that crosses it. */
#define EX_FRAME_MAX (1ull << 30)
static bool check_frame_size(const ex_module *m, int32_t index, GError **err)
{
    uint64_t total = 0;
    for (guint vi = 0; vi < m->ir->vars->len; vi++) {
        const ptx_var *v = ptx_module_var(m->ir, (int32_t)vi);
        if (v->func != index || !ex_var_in_frame(v) || v->reg >= 0)
            continue;
        total += ex_var_size(v) + ex_var_align(v);
        if (total > EX_FRAME_MAX) {
            g_set_error(err, g_quark_from_static_string("ptxemu"), 1,
                        "%s:%u:%u: error: '%s' (%llu bytes) takes the per-thread %s "
                        "variables past %llu bytes", m->ir->source_name, v->loc.line,
                        v->loc.col, v->name, (unsigned long long)ex_var_size(v),
                        ptx_space_name(v->space), (unsigned long long)EX_FRAME_MAX);
            return false;
        }
    }
    return true;
}

static void layout_func_frame(ex_module *m, ex_func *ef, int32_t index)
{
    const ptx_func *f = ef->ir;
    uint32_t frame = 0, kparam = 0;
    ef->nparams = f->params->len;
    ef->nrets = f->rets->len;
    ef->param_offsets = g_new0(uint32_t, ef->nparams + 1);
    ef->param_sizes = g_new0(uint32_t, ef->nparams + 1);
    ef->ret_offsets = g_new0(uint32_t, ef->nrets + 1);
    ef->ret_sizes = g_new0(uint32_t, ef->nrets + 1);
    for (uint32_t i = 0; i < ef->nparams; i++) {
        int32_t vi = g_array_index(f->params, int32_t, i);
        const ptx_var *v = ptx_module_var(m->ir, vi);
        uint32_t sz = (uint32_t)ex_var_size(v), al = ex_var_align(v);
        if (f->is_entry) {
            kparam = align_up(kparam, al);
            ef->param_offsets[i] = kparam;
            kparam += sz;
        } else {
            frame = align_up(frame, al);
            ef->param_offsets[i] = frame;
            frame += sz;
        }
        ef->param_sizes[i] = sz;
        m->var_addr[vi] = ef->param_offsets[i];
    }
    for (uint32_t i = 0; i < ef->nrets; i++) {
        int32_t vi = g_array_index(f->rets, int32_t, i);
        const ptx_var *v = ptx_module_var(m->ir, vi);
        uint32_t sz = (uint32_t)ex_var_size(v);
        frame = align_up(frame, ex_var_align(v));
        ef->ret_offsets[i] = frame;
        ef->ret_sizes[i] = sz;
        m->var_addr[vi] = frame;
        frame += sz;
    }
    /* body .local and .param variables live in the frame too */
    for (guint vi = 0; vi < m->ir->vars->len; vi++) {
        const ptx_var *v = ptx_module_var(m->ir, (int32_t)vi);
        if (v->func != index || !ex_var_in_frame(v) || v->reg >= 0)
            continue;
        bool is_sig = false;
        for (uint32_t i = 0; i < ef->nparams && !is_sig; i++)
            is_sig = g_array_index(f->params, int32_t, i) == (int32_t)vi;
        for (uint32_t i = 0; i < ef->nrets && !is_sig; i++)
            is_sig = g_array_index(f->rets, int32_t, i) == (int32_t)vi;
        if (is_sig)
            continue;
        frame = align_up(frame, ex_var_align(v));
        m->var_addr[vi] = frame;
        frame += (uint32_t)ex_var_size(v);
    }
    ef->frame_size = align_up(frame, 16);
    ef->kparam_size = kparam;
}

bool ex_module_check_shared(const ex_module *m, uint64_t limit, const char *what,
                            GError **err)
{
    const ptx_module *ir = m->ir;
    for (guint vi = 0; vi < ir->vars->len; vi++) {
        const ptx_var *v = ptx_module_var(ir, (int32_t)vi);
        uint64_t size = ex_var_size(v);
        if (v->space != PTX_SPACE_SHARED || ex_var_in_frame(v) || v->reg >= 0 || size == 0)
            continue;
        if (size > limit || m->var_addr[vi] > limit - size) {
            g_set_error(err, g_quark_from_static_string("ptxemu"), 1,
                        "%s:%u:%u: error: .shared '%s' (%llu bytes at offset %llu) does not "
                        "fit in the %llu bytes of shared memory %s", ir->source_name,
                        v->loc.line, v->loc.col, v->name, (unsigned long long)size,
                        (unsigned long long)m->var_addr[vi], (unsigned long long)limit, what);
            return false;
        }
    }
    return true;
}

static bool layout_module_vars(ex_module *m, GError **err)
{
    const ptx_module *ir = m->ir;
    GArray *stat = g_array_new(FALSE, FALSE, sizeof(int32_t));
    GArray *dyn = g_array_new(FALSE, FALSE, sizeof(int32_t));
    for (guint vi = 0; vi < ir->vars->len; vi++) {
        const ptx_var *v = ptx_module_var(ir, (int32_t)vi);
        if (ex_var_in_frame(v) || v->reg >= 0)
            continue;
        uint64_t size = ex_var_size(v);
        switch (v->space) {
        case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST:
            if (size == 0 && (v->linkage & PTX_LINK_EXTERN))
                continue; /* declared elsewhere; an access will fault */
            m->var_addr[vi] = mem_alloc_bytes(m->mem, size, true);
            if (!m->var_addr[vi]) {
                g_set_error(err, g_quark_from_static_string("ptxemu"), 1,
                            "%s:%u:%u: error: cannot allocate %llu bytes for '%s' (device "
                            "memory: %llu bytes, %llu in use)",
                            ir->source_name, v->loc.line, v->loc.col,
                            (unsigned long long)size, v->name,
                            (unsigned long long)m->mem->limit,
                            (unsigned long long)m->mem->total);
                g_array_free(dyn, TRUE);
                return false;
            }
            if (v->space == PTX_SPACE_CONST) {
                mem_alloc *a = mem_find(m->mem, m->var_addr[vi], 0);
                if (a)
                    a->is_const = true;
            }
            break;
        case PTX_SPACE_SHARED: {
            int32_t i = (int32_t)vi;
            /* size 0: .extern .shared x[], dynamic shared memory */
            g_array_append_val(size == 0 ? dyn : stat, i);
            break;
        }
        default:
            break;
        }
    }
    m->shared_static = ex_layout_shared(m, stat, dyn);
    g_array_free(stat, TRUE);
    g_array_free(dyn, TRUE);
    if (!ex_module_check_shared(m, EX_SHARED_MAX, "of any GPU ptxemu models", err))
        return false;
    /* initializers, once every address is known */
    for (guint vi = 0; vi < ir->vars->len; vi++) {
        const ptx_var *v = ptx_module_var(ir, (int32_t)vi);
        if (!v->init || (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) ||
            !m->var_addr[vi])
            continue;
        mem_alloc *a = mem_find(m->mem, m->var_addr[vi], 1);
        if (!apply_init(m, v, a->data, a->size, err))
            return false;
    }
    return true;
}

ex_module *ex_module_load_ex(const ptx_module *ir, dev_memory *mem,
                             GPtrArray *unsupported, GError **err)
{
    ex_module *m = g_new0(ex_module, 1);
    m->ir = ir;
    m->mem = mem;
    m->nfuncs = ir->funcs->len;
    m->funcs = g_new0(ex_func, m->nfuncs + 1);
    m->var_addr = g_new0(uint64_t, ir->vars->len + 1);
    m->kernels = g_hash_table_new(g_str_hash, g_str_equal);
    if (!layout_module_vars(m, err)) {
        ex_module_free(m);
        return NULL;
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ex_func *ef = &m->funcs[i];
        ef->ir = ptx_module_func(ir, i);
        ef->ir_index = (int32_t)i;
        ef->name = ef->ir->name;
        ef->is_entry = ef->ir->is_entry;
        ef->has_body = ef->ir->has_body;
        if (!check_frame_size(m, (int32_t)i, err)) {
            ex_module_free(m);
            return NULL;
        }
        layout_func_frame(m, ef, (int32_t)i);
    }
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ex_func *ef = &m->funcs[i];
        if (!ef->has_body)
            continue;
        if (!decode_func(m, ef, unsupported, err)) {
            ex_module_free(m);
            return NULL;
        }
        uint32_t slots = ef->nregs + ef->nconst;
        if (slots > m->nslots_max)
            m->nslots_max = slots;
        if (ef->is_entry)
            g_hash_table_insert(m->kernels, (gpointer)ef->name, ef);
    }
    ex_module_classify(m);
    return m;
}

void ex_module_free(ex_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ex_func *ef = &m->funcs[i];
        if (ef->calls) {
            for (guint k = 0; k < ef->calls->len; k++) {
                ex_call *c = &g_array_index(ef->calls, ex_call, k);
                g_free(c->arg_offsets);
                g_free(c->arg_sizes);
                g_free(c->ret_offsets);
                g_free(c->ret_sizes);
            }
            g_array_free(ef->calls, TRUE);
        }
        g_free(ef->code);
        g_free(ef->straight);
        g_free(ef->zero_slots);
        g_free(ef->annot);
        g_free(ef->reguse);
        g_free(ef->reg_slots);
        if (ef->tables)
            g_ptr_array_free(ef->tables, TRUE);
        g_free(ef->const_vals);
        g_free(ef->param_offsets);
        g_free(ef->param_sizes);
        g_free(ef->ret_offsets);
        g_free(ef->ret_sizes);
        g_free(ef->param_regs);
        g_free(ef->ret_regs);
        ptx_cfg_free(ef->cfg);
        g_free(ef->serial_why);
    }
    g_free(m->funcs);
    g_free(m->var_addr);
    g_hash_table_destroy(m->kernels);
    g_free(m);
}
