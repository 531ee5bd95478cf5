/* frontend/spin.c — setp-spin candidates (rules in frontend/spin.h): the candidate
 * search and its reasons; the operand and loop evidence live in spin_evidence.c. */
#include "frontend/spin.h"
#include "frontend/spin_internal.h"

#include "frontend/phase.h"
#include "frontend/print.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ reasons */

static const char *label_of_block(const spin_ctx *c, uint32_t b, char *buf, size_t len)
{
    if (b >= c->cfg->nblocks) {
        snprintf(buf, len, "exit");
        return buf;
    }
    uint32_t first = c->cfg->blocks[b].first;
    for (guint k = 0; k < c->f->labels->len; k++) {
        const ptx_symbol *s = ptx_module_sym(c->m, g_array_index(c->f->labels, int32_t, k));
        if (s->index >= 0 && (uint32_t)s->index == first) {
            snprintf(buf, len, "%s", s->name);
            return buf;
        }
    }
    snprintf(buf, len, "block %u", b);
    return buf;
}

const char *ptx_spin_role_name(ptx_spin_role r)
{
    switch (r) {
    case PTX_SPIN_BACK_EDGE: return "back-edge";
    case PTX_SPIN_EXIT: return "exit";
    case PTX_SPIN_GUARD: return "guard";
    }
    return "?";
}

const char *ptx_spin_mem_name(unsigned bit)
{
    switch (bit) {
    case PTX_SPIN_MEM_ATOMIC: return "atomic";
    case PTX_SPIN_MEM_VOLATILE: return "volatile-load";
    case PTX_SPIN_MEM_SHARED_RW: return "load-of-written-space";
    case PTX_SPIN_MEM_POLL: return "invariant-address-load";
    default: return "?";
    }
}

const char *ptx_spin_opnd_name(unsigned bit)
{
    switch (bit) {
    case PTX_SPIN_OPND_INVARIANT: return "loop-invariant";
    case PTX_SPIN_OPND_CONST: return "constant";
    case PTX_SPIN_OPND_LOAD: return "load";
    case PTX_SPIN_OPND_ATOMIC: return "atomic";
    case PTX_SPIN_OPND_SREG: return "special-register";
    default: return "?";
    }
}

static void append_operand_desc(GString *o, spin_ctx *c, const ptx_operand *op,
                                unsigned fl)
{
    ptx_print_operand(o, c->m, c->f, op);
    g_string_append(o, " (");
    bool first = true;
    for (unsigned k = 0; k < PTX_SPIN_OPND_KINDS; k++) {
        unsigned bit = 1u << k;
        if (!(fl & bit))
            continue;
        g_string_append_printf(o, "%s%s", first ? "" : "+", ptx_spin_opnd_name(bit));
        if ((bit == PTX_SPIN_OPND_LOAD || bit == PTX_SPIN_OPND_ATOMIC) &&
            c->first_origin[k] != PTX_SPIN_NONE)
            g_string_append_printf(o, " line %u", instr(c, c->first_origin[k])->loc.line);
        first = false;
    }
    g_string_append_c(o, ')');
}

static char *make_reason(spin_ctx *c, const ptx_spin_cand *cand, const ptx_spin_loop *sl,
                         const GString *opnds)
{
    GString *o = g_string_new(NULL);
    char lb[128], tb[128];
    const ptx_instr *via = instr(c, cand->via);
    label_of_block(c, c->loop->header, lb, sizeof lb);
    switch (cand->role) {
    case PTX_SPIN_BACK_EDGE:
        g_string_append_printf(o, "decides the back edge to %s (bra at line %u)", lb,
                               via->loc.line);
        break;
    case PTX_SPIN_EXIT: {
        const GArray *s = c->cfg->blocks[c->cfg->block_of[cand->via]].succs;
        tb[0] = 0;
        for (guint k = 0; k < s->len; k++)
            if (u32_at(s, k) >= c->cfg->nblocks || !c->in_loop[u32_at(s, k)])
                label_of_block(c, u32_at(s, k), tb, sizeof tb);
        g_string_append_printf(o, "decides the exit of loop %s to %s (bra at line %u)",
                               lb, tb, via->loc.line);
        break;
    }
    case PTX_SPIN_GUARD:
        g_string_append_printf(o, "selects the exit condition of loop %s through the %s at "
                               "line %u (exit bra at line %u)", lb,
                               ptx_opcode_info((ptx_opcode)via->op)->name, via->loc.line,
                               instr(c, cand->decides)->loc.line);
        break;
    }
    g_string_append(o, "; loop has ");
    bool first = true;
    for (unsigned k = 0; k < PTX_SPIN_MEM_KINDS; k++) {
        unsigned bit = 1u << k;
        if (!(sl->mem & bit))
            continue;
        g_string_append_printf(o, "%s%s (line %u)", first ? "" : ", ", ptx_spin_mem_name(bit),
                               instr(c, sl->mem_instr[k])->loc.line);
        first = false;
    }
    g_string_append_printf(o, "; operands %s", opnds->str);
    return g_string_free(o, FALSE);
}

/* ------------------------------------------------------------ the pass */

typedef struct pending {
    uint32_t setp, via, decides;
    ptx_spin_role role;
} pending;

static void add_pending(GArray *pend, uint32_t setp, ptx_spin_role role,
                        uint32_t via, uint32_t decides)
{
    for (guint k = 0; k < pend->len; k++)
        if (g_array_index(pend, pending, k).setp == setp)
            return;
    pending p = {setp, via, decides, role};
    g_array_append_val(pend, p);
}

static bool is_latch(const ptx_loop *l, uint32_t b)
{
    for (guint k = 0; k < l->latches->len; k++)
        if (u32_at(l->latches, k) == b)
            return true;
    return false;
}

/* Which loop edge the guarded bra ending block b decides, if any. */
static bool deciding_role(const spin_ctx *c, uint32_t b, ptx_spin_role *role)
{
    const GArray *s = c->cfg->blocks[b].succs;
    bool back = false, exit = false;
    for (guint k = 0; k < s->len; k++) {
        uint32_t t = u32_at(s, k);
        if (t == c->loop->header && is_latch(c->loop, b))
            back = true;
        else if (t >= c->cfg->nblocks || !c->in_loop[t])
            exit = true;
    }
    if (back)
        *role = PTX_SPIN_BACK_EDGE;
    else if (exit)
        *role = PTX_SPIN_EXIT;
    return back || exit;
}

static const ptx_instr *guarded_bra(const spin_ctx *c, uint32_t b, uint32_t *at)
{
    const ptx_block *blk = &c->cfg->blocks[b];
    const ptx_instr *in = instr(c, blk->end - 1);
    if (!ptx_opcode_direct_branch(in->op) || in->guard < 0)
        return NULL;
    *at = blk->end - 1;
    return in;
}

static void push_reg(GArray *work, bool *in_x, uint32_t nregs, int32_t r)
{
    if (r >= 0 && (uint32_t)r < nregs && !in_x[r]) {
        in_x[r] = true;
        g_array_append_val(work, r);
    }
}

/* X: the registers the accepted deciding setps compare, closed over their
 * in-loop non-memory definitions (sources, guards and selp selectors). */
static void support_set(spin_ctx *c, const GArray *setps, bool *in_x)
{
    GArray *work = g_array_new(FALSE, FALSE, sizeof(int32_t));
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    for (guint k = 0; k < setps->len; k++) {
        const ptx_instr *in = instr(c, u32_at(setps, k));
        g_array_set_size(regs, 0);
        for (unsigned i = 1; i < 3 && i < in->nopnds; i++)
            spin_operand_leaves(c->f, ptx_instr_opnd(c->f, in, i), regs);
        for (guint j = 0; j < regs->len; j++)
            push_reg(work, in_x, c->nregs, g_array_index(regs, int32_t, j));
    }
    while (work->len) {
        int32_t r = g_array_index(work, int32_t, work->len - 1);
        g_array_set_size(work, work->len - 1);
        const GArray *d = c->defs[r];
        for (guint k = 0; d && k < d->len; k++) {
            uint32_t i = u32_at(d, k);
            const ptx_instr *in = instr(c, i);
            if (!instr_in_loop(c, i) || spin_memory_origin(in))
                continue;
            g_array_set_size(regs, 0);
            spin_value_sources(c, in, regs);
            if (in->guard >= 0)
                g_array_append_val(regs, in->guard);
            if (in->op == PTX_OP_SELP && in->nopnds >= 4)
                spin_operand_leaves(c->f, ptx_instr_opnd(c->f, in, 3), regs);
            for (guint j = 0; j < regs->len; j++)
                push_reg(work, in_x, c->nregs, g_array_index(regs, int32_t, j));
        }
    }
    g_array_free(regs, TRUE);
    g_array_free(work, TRUE);
}

/* Does the region of the conditional branch ending block b (blocks reached
 * from its successors inside the loop, stopping at the header and at b's
 * immediate post-dominator) write a register of X? */
static bool region_writes(spin_ctx *c, uint32_t b, const bool *in_x)
{
    const ptx_cfg *cfg = c->cfg;
    uint32_t stop = cfg->ipdom[b];
    bool *seen = g_new0(bool, cfg->nblocks + 1);
    GArray *work = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    bool hit = false;
    g_array_append_vals(work, cfg->blocks[b].succs->data, cfg->blocks[b].succs->len);
    while (work->len && !hit) {
        uint32_t v = u32_at(work, work->len - 1);
        g_array_set_size(work, work->len - 1);
        if (v >= cfg->nblocks || seen[v] || v == stop || v == c->loop->header ||
            !c->in_loop[v])
            continue;
        seen[v] = true;
        for (uint32_t i = cfg->blocks[v].first; i < cfg->blocks[v].end && !hit; i++) {
            g_array_set_size(regs, 0);
            ptx_instr_defs(c->f, instr(c, i), regs);
            for (guint j = 0; j < regs->len; j++) {
                int32_t r = g_array_index(regs, int32_t, j);
                hit |= r >= 0 && (uint32_t)r < c->nregs && in_x[r];
            }
        }
        g_array_append_vals(work, cfg->blocks[v].succs->data, cfg->blocks[v].succs->len);
    }
    g_array_free(regs, TRUE);
    g_array_free(work, TRUE);
    g_free(seen);
    return hit;
}

/* Checks the compared operands of each pending setp and records the ones
 * that can repeat.  Returns the accepted setps. */
static GArray *accept(spin_ctx *c, const GArray *pend, ptx_spin_info *si,
                      ptx_spin_loop *sl, uint32_t li)
{
    GArray *ok = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (guint k = 0; k < pend->len; k++) {
        const pending *p = &g_array_index(pend, pending, k);
        if (si->is_candidate[p->setp])
            continue;
        const ptx_instr *in = instr(c, p->setp);
        unsigned opnds = 0;
        bool progress = false;
        GString *desc = g_string_new(NULL);
        for (unsigned i = 1; i < 3 && i < in->nopnds; i++) {
            for (unsigned b = 0; b < PTX_SPIN_OPND_KINDS; b++)
                c->first_origin[b] = PTX_SPIN_NONE;
            const ptx_operand *o = ptx_instr_opnd(c->f, in, i);
            unsigned fl = spin_classify_operand(c, o);
            progress |= (fl & OPND_PROGRESS) != 0;
            opnds |= fl & ~OPND_PROGRESS;
            if (i > 1)
                g_string_append(desc, ", ");
            append_operand_desc(desc, c, o, fl & ~OPND_PROGRESS);
        }
        if (!progress) {
            ptx_spin_cand cand = {.setp = p->setp, .loop = li, .role = p->role,
                                  .via = p->via, .decides = p->decides,
                                  .mem = sl->mem, .opnds = opnds};
            cand.reason = make_reason(c, &cand, sl, desc);
            g_array_append_val(si->cands, cand);
            si->is_candidate[p->setp] = true;
            sl->ncands++;
            g_array_append_val(ok, p->setp);
        }
        g_string_free(desc, TRUE);
    }
    return ok;
}

static void analyze_loop(spin_ctx *c, uint32_t li, ptx_spin_info *si)
{
    const ptx_cfg *cfg = c->cfg;
    c->loop = &g_array_index(cfg->loops, ptx_loop, li);
    memset(c->in_loop, 0, (cfg->nblocks + 1) * sizeof(bool));
    for (guint k = 0; k < c->loop->blocks->len; k++)
        c->in_loop[u32_at(c->loop->blocks, k)] = true;
    ptx_spin_loop *sl = &g_array_index(si->loops, ptx_spin_loop, li);
    spin_loop_evidence(c, sl);
    if (!sl->mem)
        return;

    GArray *pend = g_array_new(FALSE, FALSE, sizeof(pending));
    GArray *setps = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (guint k = 0; k < c->loop->blocks->len; k++) {
        uint32_t b = u32_at(c->loop->blocks, k), at;
        const ptx_instr *bra = guarded_bra(c, b, &at);
        ptx_spin_role role;
        if (!bra || !deciding_role(c, b, &role))
            continue;
        g_array_set_size(setps, 0);
        spin_setps_of_pred(c, bra->guard, setps);
        for (guint j = 0; j < setps->len; j++)
            add_pending(pend, u32_at(setps, j), role, at, at);
    }
    GArray *deciders = accept(c, pend, si, sl, li);

    /* Guards only matter when the exit condition itself can repeat. */
    if (deciders->len) {
        uint32_t decides = PTX_SPIN_NONE;
        for (guint k = 0; k < si->cands->len; k++) {
            const ptx_spin_cand *cd = &g_array_index(si->cands, ptx_spin_cand, k);
            if (cd->setp == u32_at(deciders, 0))
                decides = cd->via;
        }
        bool *in_x = g_new0(bool, c->nregs ? c->nregs : 1);
        support_set(c, deciders, in_x);
        g_array_set_size(pend, 0);
        /* predicated or selp-selected writes of X */
        for (uint32_t r = 0; r < c->nregs; r++) {
            const GArray *d = c->defs[r];
            for (guint k = 0; in_x[r] && d && k < d->len; k++) {
                uint32_t i = u32_at(d, k);
                const ptx_instr *in = instr(c, i);
                if (!instr_in_loop(c, i) || spin_memory_origin(in))
                    continue;
                g_array_set_size(setps, 0);
                if (in->guard >= 0)
                    spin_setps_of_pred(c, in->guard, setps);
                if (in->op == PTX_OP_SELP && in->nopnds >= 4 &&
                    ptx_instr_opnd(c->f, in, 3)->kind == PTX_OPND_REG)
                    spin_setps_of_pred(c, ptx_instr_opnd(c->f, in, 3)->id, setps);
                for (guint j = 0; j < setps->len; j++)
                    add_pending(pend, u32_at(setps, j), PTX_SPIN_GUARD, i, decides);
            }
        }
        /* branches whose region writes X */
        for (guint k = 0; k < c->loop->blocks->len; k++) {
            uint32_t b = u32_at(c->loop->blocks, k), at;
            const ptx_instr *bra = guarded_bra(c, b, &at);
            ptx_spin_role role;
            if (!bra || deciding_role(c, b, &role) || !region_writes(c, b, in_x))
                continue;
            g_array_set_size(setps, 0);
            spin_setps_of_pred(c, bra->guard, setps);
            for (guint j = 0; j < setps->len; j++)
                add_pending(pend, u32_at(setps, j), PTX_SPIN_GUARD, at, decides);
        }
        g_array_free(accept(c, pend, si, sl, li), TRUE);
        g_free(in_x);
    }
    g_array_free(deciders, TRUE);
    g_array_free(setps, TRUE);
    g_array_free(pend, TRUE);
}

static int cand_cmp(gconstpointer a, gconstpointer b)
{
    uint32_t x = ((const ptx_spin_cand *)a)->setp, y = ((const ptx_spin_cand *)b)->setp;
    return (x > y) - (x < y);
}

ptx_spin_info *ptx_spin_analyze(const ptx_module *m, const ptx_cfg *cfg)
{
    const ptx_func *f = cfg->func;
    uint32_t n = f->instrs->len;
    ptx_spin_info *si = g_new0(ptx_spin_info, 1);
    si->func = f;
    si->ninstrs = n;
    si->is_candidate = g_new0(bool, n ? n : 1);
    si->cand_of = g_new(uint32_t, n ? n : 1);
    si->cands = g_array_new(FALSE, FALSE, sizeof(ptx_spin_cand));
    si->loops = g_array_new(FALSE, TRUE, sizeof(ptx_spin_loop));
    g_array_set_size(si->loops, cfg->loops->len);
    for (guint k = 0; k < cfg->loops->len; k++) {
        ptx_spin_loop *sl = &g_array_index(si->loops, ptx_spin_loop, k);
        sl->loop = k;
        for (unsigned b = 0; b < PTX_SPIN_MEM_KINDS; b++)
            sl->mem_instr[b] = PTX_SPIN_NONE;
    }

    uint32_t first_origin[PTX_SPIN_OPND_KINDS];
    for (unsigned b = 0; b < PTX_SPIN_OPND_KINDS; b++)
        first_origin[b] = PTX_SPIN_NONE;
    spin_ctx c = {.m = m, .cfg = cfg, .f = f, .nregs = f->regs->len,
                  .first_origin = first_origin};
    c.defs = g_new0(GArray *, c.nregs ? c.nregs : 1);
    c.mark = g_new0(uint32_t, c.nregs ? c.nregs : 1);
    c.in_loop = g_new0(bool, cfg->nblocks + 1);
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    for (uint32_t i = 0; i < n; i++) {
        g_array_set_size(regs, 0);
        ptx_instr_defs(f, ptx_func_instr(f, i), regs);
        for (guint k = 0; k < regs->len; k++) {
            int32_t r = g_array_index(regs, int32_t, k);
            if (r < 0 || (uint32_t)r >= c.nregs)
                continue;
            if (!c.defs[r])
                c.defs[r] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
            g_array_append_val(c.defs[r], i);
        }
    }
    g_array_free(regs, TRUE);

    /* cfg->loops lists outer loops first: walk backwards so a setp is
     * reported for the innermost loop it qualifies in. */
    for (guint k = cfg->loops->len; k-- > 0;)
        analyze_loop(&c, k, si);

    g_array_sort(si->cands, cand_cmp);
    for (uint32_t i = 0; i < n; i++)
        si->cand_of[i] = PTX_SPIN_NONE;
    for (guint k = 0; k < si->cands->len; k++)
        si->cand_of[g_array_index(si->cands, ptx_spin_cand, k).setp] = k;

    for (uint32_t r = 0; r < c.nregs; r++)
        if (c.defs[r])
            g_array_free(c.defs[r], TRUE);
    g_free(c.defs);
    g_free(c.mark);
    g_free(c.in_loop);
    return si;
}

void ptx_spin_info_free(ptx_spin_info *si)
{
    if (!si)
        return;
    for (guint k = 0; k < si->cands->len; k++)
        g_free(g_array_index(si->cands, ptx_spin_cand, k).reason);
    g_array_free(si->cands, TRUE);
    g_array_free(si->loops, TRUE);
    g_free(si->is_candidate);
    g_free(si->cand_of);
    g_free(si);
}
