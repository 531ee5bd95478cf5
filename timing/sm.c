/* timing/sm.c — one SM: occupancy, fetch, scoreboard, functional units,
 * warp schedulers and their accounting (timing/sm.h); the instruction
 * tables live in sm_instr.c.
 *
 * Past 800 lines: evaluate, issue and the per-slot accounting share the
 * warp-slot state machine's static helpers (set_state, eval, account);
 * the CTA lifetime and policy controls at the end are the part to move
 * out next (timing/sm_cta.c) once no branch is editing this file.
 */
#include "timing/sm.h"
#include "timing/sm_internal.h"
#include "isa/latency.h"
#include "isa/opcodes.h"
#include "runtime/launch.h"
#include "runtime/warp.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- occupancy */

static uint32_t fit_in(uint32_t ctas, uint32_t warps, uint32_t regs, uint64_t shared,
                       const tm_cta_req *r, const char **why)
{
    uint32_t n = ctas;
    const char *by = "cta slots";
    if (warps / r->warps < n) {
        n = warps / r->warps;
        by = "threads";
    }
    if (r->regs && regs / r->regs < n) {
        n = regs / r->regs;
        by = "registers";
    }
    if (r->shared && shared / r->shared < n) {
        n = (uint32_t)(shared / r->shared);
        by = "shared memory";
    }
    if (why)
        *why = by;
    return n;
}

uint32_t tm_sm_fit(const tm_sm *sm, const tm_cta_req *r)
{
    return fit_in(sm->free_ctas, sm->free_warps, sm->free_regs, sm->free_shared, r, NULL);
}

uint32_t tm_sm_fit_empty(const gpu_config *cfg, const tm_cta_req *r, const char **why)
{
    return fit_in(cfg->core.max_ctas, gpu_config_max_warps(cfg), cfg->core.registers,
                  cfg->core.shared_mem, r, why);
}

/* ----------------------------------------------------------------- set-up */

tm_sm *tm_sm_create(tm_env *env, uint32_t id, uint64_t now)
{
    const gpu_config *cfg = env->cfg;
    tm_sm *sm = g_new0(tm_sm, 1);
    sm->id = id;
    sm->env = env;
    sm->cfg = cfg;
    sm->nwarps = gpu_config_max_warps(cfg);
    sm->nsched = cfg->core.warp_schedulers;
    sm->nctas = cfg->core.max_ctas;
    sm->dispatch = cfg->core.dispatch_interval;
    sm->issue_width = cfg->core.issue_width;
    sm->ibuf_entries = cfg->core.ibuffer_entries;
    for (unsigned u = 0; u < TM_UNIT_COUNT; u++)
        sm->occupancy[u] = tm_unit_occupancy(cfg, (tm_unit)u);
    sm->warps = g_new0(tm_warp, sm->nwarps);
    sm->retired = g_array_new(FALSE, FALSE, sizeof(tm_retired));
    sm->pend = g_new0(tm_pending, (size_t)sm->nwarps * TM_MAX_PENDING);
    sm->scheds = g_new0(tm_sched, sm->nsched);
    sm->ctas = g_new0(tm_cta, sm->nctas);
    sm->fetch_q = g_new0(uint32_t, sm->nwarps);
    sm->free_warps = sm->nwarps;
    sm->free_regs = cfg->core.registers;
    sm->free_ctas = sm->nctas;
    sm->free_shared = cfg->core.shared_mem;
    for (uint32_t s = 0; s < sm->nwarps; s++) {
        sm->warps[s].sched = (uint16_t)(s % sm->nsched);
        sm->warps[s].view = (uint16_t)(s / sm->nsched);
        sm->warps[s].pend = &sm->pend[(size_t)s * TM_MAX_PENDING];
    }
    for (uint32_t k = 0; k < sm->nsched; k++) {
        tm_sched *s = &sm->scheds[k];
        s->id = k;
        s->nviews = (sm->nwarps - k + sm->nsched - 1) / sm->nsched;
        s->views = g_new0(sched_warp_view, s->nviews ? s->nviews : 1);
        s->recheck = g_new(uint64_t, s->nviews ? s->nviews : 1);
        s->live = g_new0(uint64_t, s->nviews / 64 + 1);
        for (uint32_t i = 0; i < s->nviews; i++) {
            s->views[i].slot = i * sm->nsched + k;
            s->views[i].state = SCHED_WS_EMPTY;
            s->views[i].last_issue = SCHED_NEVER;
            s->recheck[i] = TM_NEVER;
        }
        s->n[SCHED_WS_EMPTY] = s->nviews;
        s->min_re = 0;
        s->pstate = tm_pol_warp(env->pol, id, k)->st;
        s->acct_from = now;
    }
    for (uint32_t w = 0; w < sm->nwarps; w++)
        sm->warps[w].re = &sm->scheds[sm->warps[w].sched].recheck[sm->warps[w].view];
    sm->nstate[SCHED_WS_EMPTY] = sm->nwarps;
    sm->backoff_state = tm_pol_backoff(env->pol, id)->st;
    sm->fetch_scratch = g_new0(sched_fetch_req, sm->nwarps);
    sm->cta_limit = SCHED_NO_LIMIT;
    {
        const sched_hooks *bh = tm_pol_backoff(env->pol, id)->h;
        sm->report_issues = (env->pol->wants & (SCHED_WANT_ISSUE | SCHED_WANT_WARP)) ||
                            (bh->wants & (SCHED_WANT_ISSUE | SCHED_WANT_ISSUE_SPIN));
    }
    sm->implicit_ret.unit = TM_UNIT_SP;
    sm->implicit_ret.flags = TM_INS_DRAIN | TM_INS_WAKE_CTA;
    sm->implicit_ret.occupancy = (uint16_t)sm->occupancy[TM_UNIT_SP];
    sm->implicit_ret.latency = 1;
    sm->implicit_ret.lat_class = PTX_LAT_CTRL;
    sm->next_wake = TM_NEVER;
    sm->mem_since = sm->idle_since = sm->counted_to = sm->cta_since = now;
    for (unsigned i = 0; i < SCHED_WS_COUNT; i++)
        sm->state_since[i] = now;
    return sm;
}

void tm_sm_destroy(tm_sm *sm)
{
    if (!sm)
        return;
    tm_sm_abort(sm);
    for (uint32_t k = 0; k < sm->nsched; k++) {
        g_free(sm->scheds[k].views);
        g_free(sm->scheds[k].recheck);
        g_free(sm->scheds[k].live);
    }
    g_free(sm->fetch_scratch);
    g_free(sm->scheds);
    for (uint32_t i = 0; i < sm->nwarps; i++)
        tm_async_free(&sm->warps[i]);
    g_free(sm->warps);
    g_free(sm->pend);
    g_free(sm->ctas);
    g_free(sm->fetch_q);
    g_array_free(sm->retired, TRUE);
    g_free(sm);
}

/* -------------------------------------------------------------- accounting */

enum { CLS_NO_WARP, CLS_SB_ALU, CLS_SB_MEM, CLS_PIPE_ALU, CLS_PIPE_MEM };

/* Scheduler state of a slot that issued nothing (thesis §3.5.3): a ready
 * warp blocked by a unit beats operand waits, which beat "no warp". */
static uint8_t classify(const tm_sched *s)
{
    if (s->n[SCHED_WS_STALL_MEM])
        return CLS_PIPE_MEM;
    if (s->n[SCHED_WS_STALL_ALU])
        return CLS_PIPE_ALU;
    if (s->n[SCHED_WS_SB_MEM])
        return CLS_SB_MEM;
    if (s->n[SCHED_WS_SB_ALU])
        return CLS_SB_ALU;
    return CLS_NO_WARP;
}

static void account(tm_sched *s, uint8_t cls, uint64_t n)
{
    if (!n)
        return;
    s->c.slots += n;
    switch (cls) {
    case CLS_SB_ALU: s->c.idle_scoreboard += n; s->c.sb_alu += n; break;
    case CLS_SB_MEM: s->c.idle_scoreboard += n; s->c.sb_mem += n; break;
    case CLS_PIPE_ALU: s->c.idle_pipeline += n; s->c.pipe_alu += n; break;
    case CLS_PIPE_MEM: s->c.idle_pipeline += n; s->c.pipe_mem += n; break;
    default: s->c.idle_no_warp += n; break;
    }
}

/* Issue slots in [a, b): cycles divisible by the dispatch interval. */
static uint64_t slots_in(uint64_t a, uint64_t b, uint32_t d)
{
    if (b <= a)
        return 0;
    return (b + d - 1) / d - (a + d - 1) / d;
}

/* Warp-cycles in state i up to `now` (each state keeps its own mark, so a
 * change costs two updates, not eleven). */
static void flush_state(tm_sm *sm, unsigned i, uint64_t now)
{
    if (now > sm->state_since[i]) {
        sm->c.warp_state[i] += (uint64_t)sm->nstate[i] * (now - sm->state_since[i]);
        sm->state_since[i] = now;
    }
}

static void flush_states(tm_sm *sm, uint64_t now)
{
    for (unsigned i = 1; i < SCHED_WS_COUNT; i++)
        flush_state(sm, i, now);
}

/* Resident CTA-cycles up to `upto` (before `resident` changes). */
static void count_ctas(tm_sm *sm, uint64_t upto)
{
    if (upto > sm->cta_since) {
        sm->c.cta_cycles += (uint64_t)sm->resident * (upto - sm->cta_since);
        sm->cta_since = upto;
    }
}

static void flush_mem(tm_sm *sm, uint64_t now)
{
    if (now > sm->mem_since) {
        sm->c.mem_load += (uint64_t)sm->mem_inflight * (now - sm->mem_since);
        sm->mem_since = now;
    }
}

static void stuck_catch_up(tm_sm *sm, uint64_t upto);

void tm_sm_flush(tm_sm *sm, uint64_t upto)
{
    stuck_catch_up(sm, upto);
    memset(&sm->c.sched, 0, sizeof sm->c.sched);
    for (uint32_t k = 0; k < sm->nsched; k++) {
        tm_sched *s = &sm->scheds[k];
        if (s->acct_from < upto) {
            account(s, s->idle_cls, slots_in(s->acct_from, upto, sm->dispatch));
            s->acct_from = upto;
        }
        tm_sched_counters *d = &sm->c.sched;
        d->slots += s->c.slots;
        d->issued += s->c.issued;
        d->idle_no_warp += s->c.idle_no_warp;
        d->idle_scoreboard += s->c.idle_scoreboard;
        d->idle_pipeline += s->c.idle_pipeline;
        d->sb_alu += s->c.sb_alu;
        d->sb_mem += s->c.sb_mem;
        d->pipe_alu += s->c.pipe_alu;
        d->pipe_mem += s->c.pipe_mem;
        d->instructions += s->c.instructions;
    }
    flush_states(sm, upto);
    flush_mem(sm, upto);
    if (!sm->resident && upto > sm->idle_since) {
        sm->c.idle_cycles += upto - sm->idle_since;
        sm->idle_since = upto;
    }
    if (sm->gated && upto > sm->gated_since) {
        sm->c.gated_cycles += upto - sm->gated_since;
        sm->gated_since = upto;
    }
    if ((sm->paused || sm->draining) && !sm->gated && upto > sm->paused_since) {
        sm->c.paused_cycles += upto - sm->paused_since;
        sm->paused_since = upto;
    }
    count_ctas(sm, upto);
    if (upto > sm->counted_to) {
        sm->c.cycles += upto - sm->counted_to;
        sm->counted_to = upto;
    }
}

/* Accounts a scheduler's unvisited slots before `t` with the class they
 * had, then reclassifies: for state changes made outside schedule() (CTA
 * launch and release). */
static void sched_touch(tm_sm *sm, tm_sched *s, uint64_t t)
{
    if (s->acct_from < t) {
        account(s, s->idle_cls, slots_in(s->acct_from, t, sm->dispatch));
        s->acct_from = t;
    }
    s->idle_cls = classify(s);
}

/* Every write of a warp's recheck cycle goes here, so the scheduler's
 * lower bound stays a lower bound. */
static inline void set_re(tm_sm *sm, tm_warp *tw, uint64_t t)
{
    *tw->re = t;
    tm_sched *s = &sm->scheds[tw->sched];
    uint64_t bit = UINT64_C(1) << (tw->view % 64);
    if (t == TM_NEVER)
        s->live[tw->view / 64] &= ~bit;
    else
        s->live[tw->view / 64] |= bit;
    if (t < s->min_re)
        s->min_re = t;
}

static void set_state(tm_sm *sm, tm_sched *s, tm_warp *tw, uint8_t st, uint64_t now)
{
    sched_warp_view *v = &s->views[tw->view];
    if (v->state == st)
        return;
    flush_state(sm, v->state, now);
    flush_state(sm, st, now);
    sm->nstate[v->state]--;
    sm->nstate[st]++;
    s->n[v->state]--;
    s->n[st]++;
    v->state = st;
}

/* ------------------------------------------------------------------ fetch */

/* `now`, not the SM's last flush (counted_to): when that was depends on
 * when the SM happened to be visited, so a fetch policy ordering by
 * `since` would see skipping and stepping differ. */
static void fetch_enqueue(tm_sm *sm, uint32_t slot, uint64_t now)
{
    tm_warp *tw = &sm->warps[slot];
    if (tw->in_fetch)
        return;
    tw->in_fetch = true;
    tw->fetch_since = now;
    sm->fetch_q[(sm->fq_head + sm->fq_len) % sm->nwarps] = slot;
    sm->fq_len++;
}

/* One warp per cycle gets its ibuffer filled; the instructions can issue
 * from the next cycle. */
static void fetch_stage(tm_sm *sm, uint64_t now)
{
    if (!sm->fq_len)
        return;
    /* the fetch policy picks one of the waiting warps (queue order kept) */
    uint32_t pick = 0;
    if (sm->fq_len > 1) {
        for (uint32_t i = 0; i < sm->fq_len; i++) {
            uint32_t sl = sm->fetch_q[(sm->fq_head + i) % sm->nwarps];
            const tm_warp *qw = &sm->warps[sl];
            sm->fetch_scratch[i] = (sched_fetch_req){
                sl, sm->scheds[qw->sched].views[qw->view].age, qw->fetch_since};
        }
        tm_pol_inst *fi = tm_pol_fetch(sm->env->pol, sm->id);
        const sched_fetch_ops *fo = (const sched_fetch_ops *)fi->h;
        pick = fo->pick(fi->st, tm_pol_ctl(sm->env->pol, now), sm->fetch_scratch, sm->fq_len);
        if (pick >= sm->fq_len)
            pick = 0;
    }
    uint32_t slot = sm->fetch_q[(sm->fq_head + pick) % sm->nwarps];
    for (uint32_t i = pick; i > 0; i--) /* close the gap, keeping the order */
        sm->fetch_q[(sm->fq_head + i) % sm->nwarps] =
            sm->fetch_q[(sm->fq_head + i - 1) % sm->nwarps];
    sm->fq_head = (sm->fq_head + 1) % sm->nwarps;
    sm->fq_len--;
    tm_warp *tw = &sm->warps[slot];
    tw->in_fetch = false;
    if (tw->w && tw->w->state != WARP_DONE && tw->ibuf == 0) {
        tw->ibuf = sm->ibuf_entries;
        tw->ibuf_ready = now + 1;
        set_re(sm, tw, now + 1);
    }
}

/* --------------------------------------------------------------- evaluate */

static const tm_func *func_of(tm_env *env, const ex_func *fn)
{
    g_mutex_lock(&env->funcs_lock);
    tm_func *f = g_hash_table_lookup(env->funcs, fn);
    if (!f) {
        f = tm_func_build(env->cfg, fn);
        g_hash_table_insert(env->funcs, (gpointer)fn, f);
    }
    g_mutex_unlock(&env->funcs_lock);
    return f;
}

static const tm_ins *ins_of(tm_sm *sm, tm_warp *tw, const ex_instr *in)
{
    if (!in)
        return &sm->implicit_ret;
    ex_warp *w = tw->w;
    if (!tw->tf || tw->tf->fn != w->fn)
        tw->tf = func_of(sm->env, w->fn);
    return &tw->tf->ins[in - w->code];
}

static bool reg_hit(const tm_ins *t, uint32_t rel)
{
    for (unsigned j = 0; j < t->nsrc; j++)
        if (t->src[j] == rel)
            return true;
    for (unsigned j = 0; j < t->ndst; j++) /* write after write */
        if (t->dst[j] == rel)
            return true;
    return false;
}

static uint8_t unit_check(tm_sm *sm, const tm_sched *s, tm_warp *tw, uint8_t u, uint64_t now);

/* The state of a warp at `now`; sets *tw->re to the cycle it can next
 * change without an outside event (memory completion, barrier release,
 * fetch). */
static uint8_t eval(tm_sm *sm, tm_warp *tw, uint64_t now, bool ignore_backoff)
{
    ex_warp *w = tw->w;
    set_re(sm, tw, TM_NEVER);
    tw->ready_unit = TM_UNIT_COUNT;
    if (w->state == WARP_DONE || w->state == WARP_FAULT)
        return SCHED_WS_DONE;
    if (w->state == WARP_AT_BARRIER)
        return SCHED_WS_BARRIER;
    if (!ignore_backoff && tw->backoff_until > now) {
        set_re(sm, tw, tw->backoff_until);
        return SCHED_WS_BACKOFF;
    }
    if (tw->ibuf == 0)
        return SCHED_WS_IBUF_EMPTY;
    if (tw->ibuf_ready > now) {
        set_re(sm, tw, tw->ibuf_ready);
        return SCHED_WS_IBUF_EMPTY;
    }
    const ex_instr *in = ex_warp_next(w);
    const tm_ins *t = ins_of(sm, tw, in);
    tm_sched *s = &sm->scheds[tw->sched];
    sched_warp_view *v = &s->views[tw->view];
    if (in) {
        v->pc = (uint32_t)(in - w->code);
        v->annot = tw->tf ? &tw->tf->annot[v->pc] : NULL;
    }
    /* scoreboard: drop retired entries, look for a hazard */
    uint32_t roff = (uint32_t)(w->r - w->rfile);
    bool blocked = false, on_mem = false, waits_event = false;
    uint64_t until = 0;
    uint32_t k = 0;
    bool drain = t->flags & TM_INS_DRAIN;
    for (uint32_t i = 0; i < tw->npend; i++) {
        tm_pending p = tw->pend[i];
        if (p.ready <= now)
            continue;
        tw->pend[k++] = p;
        if (drain || reg_hit(t, p.slot - roff)) {
            blocked = true;
            on_mem |= p.mem;
            if (p.ready == TM_NEVER)
                waits_event = true;
            else if (p.ready > until)
                until = p.ready;
        }
    }
    tw->npend = k;
    if ((t->flags & TM_INS_FENCE) && tw->outstanding) {
        blocked = on_mem = waits_event = true;
    }
    if (in && (in->op == PTX_OP_CP || in->op == PTX_OP_MBARRIER) && tm_async_blocked(sm, tw, in))
        blocked = on_mem = waits_event = true; /* copies still landing */
    if (!blocked && tw->npend + t->ndst > TM_MAX_PENDING) {
        /* scoreboard full: wait for the first entry to retire */
        blocked = true;
        until = TM_NEVER;
        for (uint32_t i = 0; i < tw->npend; i++) {
            on_mem |= tw->pend[i].mem;
            if (tw->pend[i].ready < until)
                until = tw->pend[i].ready;
        }
        waits_event = until == TM_NEVER;
    }
    if (blocked) {
        set_re(sm, tw, waits_event ? TM_NEVER : until);
        return on_mem ? SCHED_WS_SB_MEM : SCHED_WS_SB_ALU;
    }
    if (!ignore_backoff)
        tw->ready_unit = t->unit;
    return unit_check(sm, s, tw, t->unit, now);
}

/* A warp whose operands are ready waits only for its unit. */
static uint8_t unit_check(tm_sm *sm, const tm_sched *s, tm_warp *tw, uint8_t u, uint64_t now)
{
    if (u == TM_UNIT_LDST && s->stuck) {
        /* a warp known to wait only for the unit sleeps until retry_stuck
         * gets the refused access in (unstick wakes it); looking again
         * every cycle would find the same state */
        set_re(sm, tw, tw->ready_unit == TM_UNIT_LDST ? TM_NEVER : now + 1);
        return SCHED_WS_STALL_MEM;
    }
    if (s->unit_free[u] > now) {
        set_re(sm, tw, s->unit_free[u]);
        return u == TM_UNIT_LDST ? SCHED_WS_STALL_MEM : SCHED_WS_STALL_ALU;
    }
    set_re(sm, tw, now); /* issuable: look again at every slot */
    return u == TM_UNIT_LDST ? SCHED_WS_ISSUE_MEM : SCHED_WS_ISSUE_ALU;
}

/* Re-evaluates the scheduler's warps that are due; returns the earliest
 * cycle one of them needs looking at again. */
static uint64_t refresh(tm_sm *sm, tm_sched *s, uint64_t now)
{
    if (s->min_re > now)
        return s->min_re; /* nothing due: the scan would find the same */
    /* only views with a recheck cycle (the others wait for an event), in
     * view order; an eval changes only its own view's entry.  A warp that
     * waits only for its unit (ready_unit known, not a stuck LD/ST) gets
     * unit_check's answer inline, and its state change is counted at the
     * end: the per-state flushes all happen at `now`, so deferring the
     * count changes within this cycle counts the same warp-cycles. */
    int32_t dn[SCHED_WS_COUNT] = {0};
    bool moved = false;
    uint64_t next = TM_NEVER;
    for (uint32_t wd = 0; wd * 64 < s->nviews; wd++) {
        for (uint64_t m = s->live[wd]; m; m &= m - 1) {
            uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(m);
            if (s->recheck[i] <= now) {
                tm_warp *tw = &sm->warps[i * sm->nsched + s->id];
                uint8_t u = tw->ready_unit;
                if (u != TM_UNIT_COUNT && !(u == TM_UNIT_LDST && s->stuck)) {
                    uint64_t f = s->unit_free[u];
                    uint8_t st;
                    if (f > now) { /* set_re's bit is already set: not TM_NEVER */
                        s->recheck[i] = f;
                        st = u == TM_UNIT_LDST ? SCHED_WS_STALL_MEM : SCHED_WS_STALL_ALU;
                    } else {
                        s->recheck[i] = now;
                        st = u == TM_UNIT_LDST ? SCHED_WS_ISSUE_MEM : SCHED_WS_ISSUE_ALU;
                    }
                    uint8_t old = s->views[i].state;
                    if (old != st) {
                        dn[old]--;
                        dn[st]++;
                        s->views[i].state = st;
                        moved = true;
                    }
                } else {
                    uint8_t st = u != TM_UNIT_COUNT ? unit_check(sm, s, tw, u, now)
                                                    : eval(sm, tw, now, false);
                    set_state(sm, s, tw, st, now);
                }
            }
            if (s->recheck[i] < next)
                next = s->recheck[i];
        }
    }
    if (moved) {
        for (unsigned st = 0; st < SCHED_WS_COUNT; st++) {
            if (!dn[st])
                continue;
            flush_state(sm, st, now);
            sm->nstate[st] = (uint32_t)((int32_t)sm->nstate[st] + dn[st]);
            s->n[st] = (uint32_t)((int32_t)s->n[st] + dn[st]);
        }
    }
    s->min_re = next;
    return next;
}

/* ------------------------------------------------------------------ issue */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Passes a shared-memory access needs: lanes reading the same 4-byte word
 * share one (broadcast); distinct words in one bank serialise. */
static uint32_t bank_passes(const ex_access *a, uint32_t banks)
{
    uint64_t words[WARP_SIZE * 8];
    uint32_t n = 0, per = a->size >= 4 ? (a->size + 3u) / 4u : 1u;
    if (per > 8)
        per = 8;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint32_t k = 0; k < per; k++)
            words[n++] = a->addr[l] / 4 + k;
    }
    if (n <= 64) { /* lanes usually come in address order: insertion sort */
        for (uint32_t i = 1; i < n; i++) {
            uint64_t x = words[i];
            uint32_t j = i;
            for (; j && words[j - 1] > x; j--)
                words[j] = words[j - 1];
            words[j] = x;
        }
    } else {
        qsort(words, n, sizeof words[0], cmp_u64);
    }
    uint32_t cnt[64] = {0}, passes = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (i && words[i] == words[i - 1])
            continue;
        uint32_t b = (uint32_t)(words[i] % banks);
        if (++cnt[b] > passes)
            passes = cnt[b];
    }
    return passes;
}

static void add_pending(tm_warp *tw, uint32_t slot, uint32_t tag, uint64_t ready, bool mem)
{
    if (tw->npend < TM_MAX_PENDING)
        tw->pend[tw->npend++] = (tm_pending){slot, tag, ready, mem};
}

static void cta_complete(tm_sm *sm, tm_cta *c, uint64_t cycle);

static void invalidate_cta(tm_sm *sm, tm_cta *c, uint64_t now)
{
    for (uint32_t k = 0; k < c->nwarps; k++) {
        tm_warp *tw = &sm->warps[c->slots[k]];
        set_re(sm, tw, 0);
        tw->ready_unit = TM_UNIT_COUNT;
    }
    if (sm->wake_hint > now + 1)
        sm->wake_hint = now + 1;
}

/* What the policies learn of one issued instruction: the backoff level's
 * observe (setps and backward branches, or everything) and the generic
 * `issued` hook; then barrier and exit events.  Built only when wanted. */
static void report_issue(tm_sm *sm, tm_sched *s, tm_warp *tw, const ex_instr *in,
                         const tm_ins *t, uint32_t pc, uint32_t active, uint32_t guard,
                         uint64_t now)
{
    tm_policies *pol = sm->env->pol;
    ex_warp *w = tw->w;
    const sched_warp_view *v = &s->views[tw->view];
    tm_pol_inst *bi = tm_pol_backoff(pol, sm->id);
    const sched_backoff_ops *bo = (const sched_backoff_ops *)bi->h;
    bool branch = (t->flags & TM_INS_BRANCH) != 0;
    uint8_t flags = (uint8_t)(((t->flags & TM_INS_SETP) ? SCHED_ISSUE_SETP : 0) |
                              (branch ? SCHED_ISSUE_BRANCH : 0) |
                              (branch && in->target <= pc ? SCHED_ISSUE_BACKWARD : 0) |
                              (t->unit == TM_UNIT_LDST ? SCHED_ISSUE_MEM : 0) |
                              ((in->flags & EXF_CTA_BARRIER) ? SCHED_ISSUE_BARRIER : 0) |
                              (w->state == WARP_DONE ? SCHED_ISSUE_EXIT : 0));
    bool spin_kind = (flags & SCHED_ISSUE_SETP) || (flags & SCHED_ISSUE_BACKWARD);
    bool to_backoff = (bo->h.wants & SCHED_WANT_ISSUE) ||
                      ((bo->h.wants & SCHED_WANT_ISSUE_SPIN) && spin_kind);
    if (to_backoff || (pol->wants & SCHED_WANT_ISSUE)) {
        sched_issue ev = {sm->id, s->id, v->slot, v->kernel, v->cta, v->warp, pc,
                          branch ? in->target : SCHED_NONE, in->op, flags,
                          tw->tf ? &tw->tf->annot[pc] : NULL, active, guard,
                          branch ? guard : 0, NULL, NULL, tw->writes};
        if (flags & SCHED_ISSUE_SETP) {
            ev.a = in->a != EX_NONE ? w->r[in->a] : NULL;
            ev.b = in->b != EX_NONE ? w->r[in->b] : NULL;
        }
        if (to_backoff) {
            char why[SCHED_WHY_LEN] = "";
            uint64_t until = bo->observe(bi->st, tm_pol_ctl(pol, now), &ev, why);
            if (until > now) {
                tw->backoff_until = until;
                if (sm->env->trace)
                    fprintf(sm->env->trace, "cycle %llu: SM %u warp slot %u backed off until "
                            "%llu (%s: %s)\n", (unsigned long long)now, sm->id, v->slot,
                            (unsigned long long)until, bo->h.name, why);
            }
        }
        if (pol->wants & SCHED_WANT_ISSUE)
            tm_pol_event_send(pol, now, TM_EV_ISSUED, sm->id, s->id, &ev);
    }
    if ((pol->wants & SCHED_WANT_WARP) && (flags & (SCHED_ISSUE_BARRIER | SCHED_ISSUE_EXIT))) {
        sched_warp_event we = {sm->id, s->id, v->slot, v->kernel, v->cta, v->warp, pc,
                               w->barrier_id};
        tm_pol_event_send(pol, now, (flags & SCHED_ISSUE_EXIT) ? TM_EV_EXIT : TM_EV_BARRIER,
                          sm->id, s->id, &we);
    }
}

/* Issues the next instruction of tw: executes it, books its unit, its
 * result registers and its memory traffic.  Returns a CTA that completed. */
static tm_cta *issue(tm_sm *sm, tm_sched *s, tm_warp *tw, uint64_t now)
{
    tm_env *env = sm->env;
    ex_warp *w = tw->w;
    ex_launch *L = w->launch;
    const ex_instr *in = ex_warp_next(w);
    const tm_ins *t = ins_of(sm, tw, in);
    uint32_t slot = (uint32_t)(tw - sm->warps);
    uint32_t roff = (uint32_t)(w->r - w->rfile);
    uint32_t pc = in ? (uint32_t)(in - w->code) : 0;
    const ex_func *fn_before = w->fn;
    uint64_t wi0 = w->instrs, ti0 = w->thread_instrs;
    bool mem = t->unit == TM_UNIT_LDST;
    bool report = sm->report_issues;
    uint32_t active = 0, guard = 0;
    if (report && in && w->simt->len) {
        active = g_array_index(w->simt, ex_simt, w->simt->len - 1).mask;
        guard = ex_warp_guard_mask(w, in, active);
    }
    /* a lock attempt: the compare values, before the step can overwrite them */
    uint32_t cas_lanes = 0;
    uint64_t cas_cmp[WARP_SIZE];
    if (in && (t->flags & TM_INS_CAS) && w->simt->len) {
        cas_lanes = ex_warp_guard_mask(w, in, g_array_index(w->simt, ex_simt,
                                                            w->simt->len - 1).mask);
        for (uint32_t m = cas_lanes; m; m &= m - 1)
            cas_cmp[__builtin_ctz(m)] = w->r[in->b][__builtin_ctz(m)];
    }
    L->smid = sm->id;
    uint64_t progress0 = L->last_progress;
    ex_warp_step(w, mem ? &s->acc : NULL);
    bool wrote = L->last_progress != progress0; /* it changed memory */
    tw->writes += wrote;
    sm->progressed |= wrote && tw->cta->own;
    tw->ready_unit = TM_UNIT_COUNT;
    if (L->failed) {
        sm->failed = true;
        sm->failed_cta = tw->cta;
        return NULL;
    }
    if (cas_lanes) {
        uint64_t bits = in->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (in->size * 8)) - 1;
        uint32_t won = 0;
        for (uint32_t m = cas_lanes; m; m &= m - 1)
            won += ((w->r[in->d][__builtin_ctz(m)] ^ cas_cmp[__builtin_ctz(m)]) & bits) == 0;
        sm->c.lock_acquisitions += won;
        sm->c.lock_failed_attempts += (uint32_t)__builtin_popcount(cas_lanes) - won;
    }
    uint64_t wi = w->instrs - wi0, ti = w->thread_instrs - ti0;
    if (t->flags & TM_INS_SPIN_LOOP)
        sm->c.spin_loop_instrs += wi;
    sm->c.warp_instrs += wi;
    sm->c.thread_instrs += ti;
    s->c.instructions += wi;
    s->views[tw->view].last_issue = now;

    uint32_t busy = t->occupancy;
    uint64_t ready = now + t->latency;
    bool to_memsys = false;
    uint32_t tag = 0;
    if (mem) {
        sm->c.mem_instrs++;
        const ex_access *a = &s->acc;
        if (a->mask == 0) {
            sm->c.mem_load += t->latency;
        } else if (a->space == EX_SPACE_SHARED) {
            uint32_t passes = bank_passes(a, sm->cfg->core.shared_banks);
            ready = now + sm->cfg->core.shared_latency + passes - 1;
            if (passes > busy)
                busy = passes;
            sm->c.shared_accesses++;
            sm->c.shared_conflicts += passes - 1;
            sm->c.mem_load += ready - now;
        } else if (a->space == EX_SPACE_KPARAM) {
            ready = now + sm->cfg->const_cache.hit_latency;
            sm->c.mem_load += ready - now;
        } else if (a->space == EX_SPACE_FPARAM) {
            ready = now + sm->cfg->l1d.hit_latency;
            sm->c.mem_load += ready - now;
        } else {
            to_memsys = true;
            ready = TM_NEVER;
            tag = tw->next_tag++;
            if (G_UNLIKELY(sm->env->touch != NULL))
                sm->env->touch(sm->env->user, w, a);
        }
    } else {
        sm->c.alu_instrs++;
        sm->c.sfu_instrs += t->unit == TM_UNIT_SFU; /* energy classes */
        sm->c.dp_instrs += t->unit == TM_UNIT_DP;
        sm->c.alu_load += t->latency;
    }
    s->unit_free[t->unit] = now + busy;
    /* destinations are in the caller's window even when the instruction
     * was a call (calls drain first, so nothing else is pending) */
    for (unsigned j = 0; j < t->ndst; j++)
        add_pending(tw, roff + t->dst[j], tag, ready, mem);
    if (in && (in->op == PTX_OP_CP || in->op == PTX_OP_MBARRIER))
        tm_async_issued(tw, in, &s->acc, to_memsys, tag);
    if (to_memsys) {
        flush_mem(sm, now);
        sm->mem_inflight++;
        tw->outstanding++;
        tw->cta->outstanding++;
        uint64_t token = tm_token(sm->id, slot, tag);
        if (!memsys_issue(env->mem, sm->id, slot, &s->acc, token, now)) {
            s->stuck = true;
                    s->stuck_since = now;
            s->stuck_slot = slot;
            s->stuck_token = token;
            sm->c.mem_refusals++;
        }
    }

    /* instruction buffer: one entry used; a jump discards the rest */
    if (tw->ibuf)
        tw->ibuf--;
    uint32_t next_pc = w->simt->len ? g_array_index(w->simt, ex_simt, w->simt->len - 1).pc : 0;
    if (w->fn != fn_before || next_pc != pc + 1)
        tw->ibuf = 0;
    if (tw->ibuf == 0 && w->state != WARP_DONE)
        fetch_enqueue(sm, slot, now);

    tm_cta *c = tw->cta;
    if (w->state == WARP_DONE)
        c->live--;
    if (t->flags & TM_INS_WAKE_CTA)
        invalidate_cta(sm, c, now);
    s->views[tw->view].instrs++;
    s->views[tw->view].outstanding = tw->outstanding;
    if (report && in)
        report_issue(sm, s, tw, in, t, pc, active, guard, now);
    return c->live == 0 && c->outstanding == 0 ? c : NULL;
}

static void trace_issue(tm_sm *sm, tm_sched *s, tm_warp *tw, uint64_t now, const char *why)
{
    const sched_warp_view *v = &s->views[tw->view];
    fprintf(sm->env->trace, "cycle %llu: SM %u scheduler %u issues warp slot %u "
                            "(kernel %u CTA %u warp %u pc %u) (%s%s%s)\n",
            (unsigned long long)now, sm->id, s->id, v->slot, v->kernel, v->cta, v->warp,
            v->pc, sm->env->pol->sel.warp->h.name, why[0] ? ": " : "", why);
}

/* No warp can issue but some are backed off: the backoff policy names one
 * that may go after all (or none).  If an operand or its unit still holds
 * the released warp back, nothing issues this slot.  Returns whether one
 * was released: the scheduler then looks again next cycle (the released
 * warp is back in backoff, and would otherwise sleep until its end). */
static bool relax_backoff(tm_sm *sm, tm_sched *s, uint64_t now, const sched_warp_ctx *ctx)
{
    tm_pol_inst *bi = tm_pol_backoff(sm->env->pol, sm->id);
    const sched_backoff_ops *bo = (const sched_backoff_ops *)bi->h;
    char why[SCHED_WHY_LEN] = "";
    int32_t i = bo->release(bi->st, ctx, s->views, s->nviews, why);
    if (i < 0 || (uint32_t)i >= s->nviews || s->views[i].state != SCHED_WS_BACKOFF)
        return false;
    tm_warp *tw = &sm->warps[(uint32_t)i * sm->nsched + s->id];
    uint8_t st = eval(sm, tw, now, true);
    set_re(sm, tw, now); /* back to BACKOFF at the next look unless released again */
    if (sched_ws_can_issue(st)) {
        set_state(sm, s, tw, st, now);
        tw->relaxed_at = now;
    }
    if (sm->env->trace)
        fprintf(sm->env->trace, "cycle %llu: SM %u warp slot %u released from backoff (%s%s%s)\n",
                (unsigned long long)now, sm->id, s->views[i].slot, bo->h.name,
                why[0] ? ": " : "", why);
    return true;
}

/* Issues from one scheduler at slot `now`; returns the earliest cycle one
 * of its warps needs looking at again. */
static uint64_t schedule(tm_sm *sm, tm_sched *s, uint64_t now, bool *issued_any)
{
    tm_env *env = sm->env;
    if (s->acct_from < now) {
        account(s, s->idle_cls, slots_in(s->acct_from, now, sm->dispatch));
        s->acct_from = now;
    }
    uint64_t next = refresh(sm, s, now);
    uint32_t issued = 0;
    const sched_warp_ops *wp = env->pol->sel.warp;
    sched_warp_ctx ctx = {now, sm->id, s->id, env->trace_warps ? env->trace : NULL};
    char why[SCHED_WHY_LEN];
    for (uint32_t k = 0; k < sm->issue_width;) {
        if (!s->n[SCHED_WS_ISSUE_ALU] && !s->n[SCHED_WS_ISSUE_MEM]) {
            if (!s->n[SCHED_WS_BACKOFF])
                break;
            if (relax_backoff(sm, s, now, &ctx) && next > now + 1)
                next = now + 1;
            if (!s->n[SCHED_WS_ISSUE_ALU] && !s->n[SCHED_WS_ISSUE_MEM])
                break;
        }
        why[0] = '\0';
        int32_t i = wp->pick(s->pstate, &ctx, s->views, s->nviews, why);
        if (i < 0 || (uint32_t)i >= s->nviews || !sched_ws_can_issue(s->views[i].state))
            break;
        tm_warp *tw = &sm->warps[(uint32_t)i * sm->nsched + s->id];
        if (k > 0) {
            /* an earlier issue this slot may have taken its unit: the view
             * is stale, look again (each miss removes one candidate) */
            uint8_t st = eval(sm, tw, now, tw->relaxed_at == now);
            set_state(sm, s, tw, st, now);
            if (*tw->re < next)
                next = *tw->re;
            if (!sched_ws_can_issue(st))
                continue;
        }
        if (ctx.trace)
            trace_issue(sm, s, tw, now, why);
        tm_cta *done = issue(sm, s, tw, now);
        if (sm->failed)
            return now + 1;
        issued++;
        k++;
        set_state(sm, s, tw, eval(sm, tw, now, false), now);
        if (*tw->re < next)
            next = *tw->re;
        if (done)
            cta_complete(sm, done, now);
    }
    uint8_t cls = classify(s);
    if (issued) {
        s->c.slots++;
        s->c.issued++;
    } else {
        account(s, cls, 1);
    }
    s->idle_cls = cls;
    s->acct_from = now + 1;
    *issued_any |= issued > 0;
    return next;
}

/* The refused access went in: the warps that slept on the stuck unit
 * (unit_check) look again now. */
static void unstick(tm_sm *sm, tm_sched *s, uint64_t now)
{
    s->stuck = false;
    for (uint32_t i = 0; i < s->nviews; i++) {
        tm_warp *tw = &sm->warps[i * sm->nsched + s->id];
        if (tw->w && s->recheck[i] == TM_NEVER && tw->ready_unit == TM_UNIT_LDST &&
            s->views[i].state == SCHED_WS_STALL_MEM)
            set_re(sm, tw, now);
    }
}

/* The retries a stuck-sleeping SM skipped in [stuck_from, upto): each
 * would have been refused (the SM's and the memory system's counters). */
static void stuck_catch_up(tm_sm *sm, uint64_t upto)
{
    if (!sm->stuck_sleep || upto <= sm->stuck_from)
        return;
    uint64_t n = (upto - sm->stuck_from) * sm->stuck_n;
    sm->c.mem_refusals += n;
    memsys_count_refusals(sm->env->mem, sm->id, n);
    sm->stuck_from = upto;
}

static bool sig_same(const memsys_sm_sig *a, const memsys_sm_sig *b)
{
    return a->ver == b->ver && a->npkt_free == b->npkt_free && a->missq_n == b->missq_n &&
           a->ninst_free == b->ninst_free;
}

/* tm_sm_check_stuck's slow part: a stuck-sleeping SM due later than now + 1. */
void tm_sm_stuck_recheck(tm_sm *sm, uint64_t now)
{
    memsys_sm_sig g;
    memsys_sm_signature(sm->env->mem, sm->id, &g);
    if (!sig_same(&g, &sm->stuck_sig))
        sm->next_wake = now + 1;
}

/* After a visit at `now` that left schedulers stuck: whether the SM may
 * sleep until its warps need it (or its L1 state changes) instead of
 * retrying every cycle.  Only when nothing else happens per cycle: no
 * fetch, no backed-off warps (the backoff policy is asked every slot), a
 * stateless L1 policy, and every retry this cycle refused from unchanged
 * state (`quick`). */
static bool may_stuck_sleep(const tm_sm *sm, bool quick, uint32_t nstuck)
{
    if (sm->step || sm->fq_len || !quick || !nstuck)
        return false;
    for (uint32_t k = 0; k < sm->nsched; k++)
        if (sm->scheds[k].n[SCHED_WS_BACKOFF])
            return false;
    return tm_pol_l1(sm->env->pol, sm->id)->h->state_size == 0;
}

/* Refused memory accesses try again, in the order the L1 policy gives.
 * Returns whether every refusal was a quick one (memsys_last_refusal_quick). */
static bool retry_stuck(tm_sm *sm, uint64_t now)
{
    bool quick = true;
    sched_l1_req q[8];
    uint32_t who[8], n = 0;
    for (uint32_t k = 0; k < sm->nsched; k++)
        if (sm->scheds[k].stuck) {
            q[n] = (sched_l1_req){k, sm->scheds[k].stuck_slot, sm->scheds[k].stuck_since};
            who[n++] = k;
        }
    tm_pol_inst *li = tm_pol_l1(sm->env->pol, sm->id);
    const sched_l1_ops *lo = (const sched_l1_ops *)li->h;
    while (n) {
        uint32_t i = n > 1 ? lo->pick(li->st, tm_pol_ctl(sm->env->pol, now), q, n) : 0;
        if (i >= n)
            i = 0;
        tm_sched *s = &sm->scheds[who[i]];
        if (memsys_issue(sm->env->mem, sm->id, s->stuck_slot, &s->acc, s->stuck_token, now)) {
            unstick(sm, s, now);
        } else {
            sm->c.mem_refusals++;
            quick &= memsys_last_refusal_quick(sm->env->mem, sm->id);
        }
        q[i] = q[n - 1];
        who[i] = who[n - 1];
        n--;
    }
    return quick;
}

bool tm_sm_visit(tm_sm *sm, uint64_t now)
{
    stuck_catch_up(sm, now);
    sm->stuck_sleep = false;
    fetch_stage(sm, now);
    memsys_sm_sig sig0; /* before the retries: one that goes in changes it */
    memsys_sm_signature(sm->env->mem, sm->id, &sig0);
    bool quick = retry_stuck(sm, now);
    uint64_t wake = TM_NEVER;
    bool any = false;
    uint32_t d = sm->dispatch;
    if (now % d == 0) {
        sm->wake_hint = TM_NEVER;
        uint64_t minre = TM_NEVER;
        for (uint32_t k = 0; k < sm->nsched && !sm->failed; k++) {
            uint64_t n = schedule(sm, &sm->scheds[k], now, &any);
            if (n < minre)
                minre = n;
        }
        if (sm->wake_hint < minre)
            minre = sm->wake_hint;
        if (minre != TM_NEVER) {
            uint64_t t = minre > now ? minre : now + 1;
            wake = (t + d - 1) / d * d;
        }
    } else {
        wake = (now / d + 1) * d;
    }
    uint32_t nstuck = 0;
    for (uint32_t k = 0; k < sm->nsched; k++) {
        nstuck += sm->scheds[k].stuck;
        if (sm->scheds[k].stuck && sm->scheds[k].stuck_since == now)
            quick = false; /* refused at issue this cycle: not retried yet */
    }
    if (may_stuck_sleep(sm, quick, nstuck) && wake > now + 1) {
        /* an access that went in this cycle (a retry or an issue: new
         * MSHRs, a busy port) changes what the next retry sees */
        memsys_sm_signature(sm->env->mem, sm->id, &sm->stuck_sig);
        sm->stuck_sleep = sig_same(&sig0, &sm->stuck_sig);
        sm->stuck_n = nstuck;
        sm->stuck_from = now + 1;
    }
    if (nstuck && !sm->stuck_sleep) {
        wake = now + 1;
    }
    if (sm->fq_len)
        wake = now + 1;
    sm->next_wake = wake;
    return any;
}

/* ---------------------------------------------------------- CTA lifetime */

const char *tm_launch_shared_why(const ex_launch *L)
{
    if (L->cooperative)
        return "a cooperative launch (grid-wide synchronisation)";
    if (L->origin)
        return "a grid launched from the device";
    return L->kernel->serial_why;
}

void tm_sm_launch(tm_sm *sm, ex_launch *L, void *kernel, uint32_t kernel_id,
                  uint32_t linear, const tm_cta_req *r, uint64_t now)
{
    tm_cta *c = NULL;
    for (uint32_t i = 0; i < sm->nctas && !c; i++)
        if (!sm->ctas[i].busy)
            c = &sm->ctas[i];
    g_assert(c && r->warps <= TM_MAX_CTA_WARPS);
    memset(&c->cta, 0, sizeof c->cta);
    c->own = tm_launch_shared_why(L) == NULL;
    if (c->own) {
        c->shadow = *L;
        c->shadow.clock = c->shadow.last_progress = 0;
        c->shadow.warp_instrs = c->shadow.thread_instrs = 0;
        c->shadow.error = NULL;
        c->shadow.failed = false;
        c->shadow.host_atomics = true; /* integer red from several threads */
        c->shadow.max_warp_instrs = 0;   /* counted over the CTAs after each cycle */
        c->shadow.progress_epoch = &sm->env->progress_epoch;
    }
    ex_cta_begin(c->own ? &c->shadow : L, &c->cta, linear);
    sm->shared_ctas += !c->own;
    c->busy = true;
    c->L = L;
    c->kernel = kernel;
    c->kernel_id = kernel_id;
    c->nwarps = c->cta.nwarps;
    c->live = c->nwarps;
    c->outstanding = 0;
    c->req = *r;
    if (!sm->resident)
        tm_sm_flush(sm, now); /* closes the idle (no CTA) stretch */
    count_ctas(sm, now);
    sm->resident++;
    sm->free_ctas--;
    sm->free_warps -= r->warps;
    sm->free_regs -= r->regs;
    sm->free_shared -= r->shared;
    sm->c.ctas_issued++;
    uint32_t slot = 0;
    for (uint32_t k = 0; k < c->nwarps; k++) {
        ex_warp *w = &c->cta.warps[k];
        while (sm->warps[slot].w)
            slot++;
        tm_warp *tw = &sm->warps[slot];
        c->slots[k] = slot;
        tw->w = w;
        tw->cta = c;
        tw->tf = NULL;
        set_re(sm, tw, 0);
        tw->ready_unit = TM_UNIT_COUNT;
        tw->ibuf = 0;
        tw->ibuf_ready = 0;
        tw->backoff_until = 0;
        tw->writes = 0;
        tw->relaxed_at = TM_NEVER;
        tw->outstanding = 0;
        tw->npend = 0;
        tm_async_reset(tw);
        tm_sched *s = &sm->scheds[tw->sched];
        sched_warp_view *v = &s->views[tw->view];
        v->age = sm->env->next_age++;
        v->last_issue = SCHED_NEVER;
        v->kernel = kernel_id;
        v->cta = linear;
        v->warp = k;
        v->pc = 0;
        v->annot = NULL;
        set_state(sm, s, tw, SCHED_WS_IBUF_EMPTY, now);
        fetch_enqueue(sm, slot, now);
        v->instrs = 0;
        v->outstanding = 0;
        if (sm->env->pol->wants & SCHED_WANT_WARP) {
            sched_warp_event we = {sm->id, tw->sched, slot, kernel_id, linear, k, 0, 0};
            tm_pol_event_send(sm->env->pol, now, TM_EV_WARP_ARRIVE, sm->id, tw->sched, &we);
        }
    }
    for (uint32_t k = 0; k < sm->nsched; k++)
        sched_touch(sm, &sm->scheds[k], now);
    if (sm->next_wake > now)
        sm->next_wake = now;
}

static void release(tm_sm *sm, tm_cta *c, uint64_t cycle)
{
    for (uint32_t k = 0; k < c->nwarps; k++) {
        tm_warp *tw = &sm->warps[c->slots[k]];
        if (sm->env->pol->wants & SCHED_WANT_WARP) {
            sched_warp_event we = {sm->id, tw->sched, c->slots[k], c->kernel_id,
                                   c->cta.linear_id, k, 0, 0};
            tm_pol_event_send(sm->env->pol, cycle, TM_EV_WARP_LEAVE, sm->id, tw->sched, &we);
        }
        set_state(sm, &sm->scheds[tw->sched], tw, SCHED_WS_EMPTY, cycle);
        set_re(sm, tw, TM_NEVER);
        tw->w = NULL;
        tw->cta = NULL;
        tw->tf = NULL;
        tw->npend = 0;
    }
    sm->shared_ctas -= !c->own;
    sm->free_ctas++;
    sm->free_warps += c->req.warps;
    sm->free_regs += c->req.regs;
    sm->free_shared += c->req.shared;
    count_ctas(sm, cycle + 1); /* it was resident during `cycle` */
    sm->resident--;
    if (!sm->resident) {
        flush_states(sm, cycle);
        sm->idle_since = cycle + 1; /* it was busy during `cycle` */
        if (sm->draining) /* a drained SM powers off once empty */
            tm_sm_control(sm, TM_SM_GATE, 0, cycle + 1);
    }
    for (uint32_t k = 0; k < sm->nsched; k++)
        sched_touch(sm, &sm->scheds[k], cycle);
    ex_cta_end(&c->cta);
    if (c->own && c->shadow.error)
        g_string_free(c->shadow.error, TRUE);
    c->shadow.error = NULL;
    c->busy = false;
}

static void cta_complete(tm_sm *sm, tm_cta *c, uint64_t cycle)
{
    tm_retired r = {c->kernel, c->L, c->cta.linear_id, cycle, 0, 0};
    for (uint32_t k = 0; k < c->cta.nwarps; k++) {
        r.warp_instrs += c->cta.warps[k].instrs;
        r.thread_instrs += c->cta.warps[k].thread_instrs;
    }
    g_array_append_val(sm->retired, r);
    sm->nretired = sm->retired->len;
    sm->c.ctas_finished++;
    release(sm, c, cycle);
}

void tm_sm_retire(tm_sm *sm)
{
    for (guint i = 0; i < sm->retired->len; i++) {
        const tm_retired *r = &g_array_index(sm->retired, tm_retired, i);
        r->L->warp_instrs += r->warp_instrs;
        r->L->thread_instrs += r->thread_instrs;
        if (sm->env->cta_done)
            sm->env->cta_done(sm->env->user, sm, r->kernel, r->L, r->cta, r->cycle);
    }
    g_array_set_size(sm->retired, 0);
    sm->nretired = 0;
}

void tm_cta_publish_fault(tm_cta *c)
{
    if (!c->own || !c->shadow.failed)
        return;
    if (!c->L->failed) {
        c->L->failed = true;
        if (c->L->error)
            g_string_free(c->L->error, TRUE);
        c->L->error = c->shadow.error ? c->shadow.error : g_string_new("launch failed");
        c->shadow.error = NULL;
    }
}

void tm_sm_publish_fault(tm_sm *sm)
{
    if (sm->failed_cta)
        tm_cta_publish_fault(sm->failed_cta);
}

void tm_sm_mem_done(tm_sm *sm, uint32_t slot, uint32_t tag, uint64_t cycle)
{
    tm_warp *tw = &sm->warps[slot];
    if (!tw->w)
        return;
    for (uint32_t i = 0; i < tw->npend; i++)
        if (tw->pend[i].tag == tag && tw->pend[i].ready == TM_NEVER)
            tw->pend[i].ready = cycle;
    flush_mem(sm, cycle);
    if (sm->mem_inflight)
        sm->mem_inflight--;
    tw->outstanding--;
    tm_cta *c = tw->cta;
    c->outstanding--;
    if (tw->nasync && tm_async_landed(tw, tag))
        invalidate_cta(sm, c, cycle); /* warps may wait on its mbarrier */
    sched_warp_view *v = &sm->scheds[tw->sched].views[tw->view];
    v->outstanding = tw->outstanding;
    if (sm->env->pol->wants & SCHED_WANT_MEM_REPLY) {
        sched_mem_reply r = {sm->id, slot, v->kernel, v->cta, v->warp, cycle};
        tm_pol_event_send(sm->env->pol, cycle, TM_EV_MEM_REPLY, sm->id, tw->sched, &r);
    }
    set_re(sm, tw, 0);
    tw->ready_unit = TM_UNIT_COUNT;
    if (sm->next_wake > cycle + 1)
        sm->next_wake = cycle + 1;
    if (c->live == 0 && c->outstanding == 0) {
        cta_complete(sm, c, cycle);
        tm_sm_retire(sm); /* the memory system runs on one thread */
    }
}

void tm_sm_abort(tm_sm *sm)
{
    for (uint32_t i = 0; i < sm->nctas; i++) {
        tm_cta *c = &sm->ctas[i];
        if (!c->busy)
            continue;
        ex_cta_account(c->L, &c->cta);
        release(sm, c, sm->counted_to);
    }
    for (uint32_t k = 0; k < sm->nsched; k++)
        sm->scheds[k].stuck = false;
    sm->failed = false;
    sm->failed_cta = NULL;
    g_array_set_size(sm->retired, 0);
    sm->nretired = 0;
    sm->stuck_sleep = false;
    sm->fq_len = 0;
    sm->mem_inflight = 0;
    for (uint32_t s = 0; s < sm->nwarps; s++)
        sm->warps[s].in_fetch = false;
}

tm_cta *tm_sm_find_deadlock(tm_sm *sm)
{
    for (uint32_t i = 0; i < sm->nctas; i++) {
        tm_cta *c = &sm->ctas[i];
        if (!c->busy || c->outstanding || !c->live)
            continue;
        bool all_wait = true;
        for (uint32_t k = 0; k < c->nwarps && all_wait; k++) {
            ex_warp_state st = c->cta.warps[k].state;
            all_wait = st == WARP_AT_BARRIER || st == WARP_DONE;
        }
        if (all_wait)
            return c;
    }
    return NULL;
}

/* ------------------------------------------------------- policy controls */

void tm_sm_control(tm_sm *sm, int what, uint32_t arg, uint64_t now)
{
    tm_sm_flush(sm, now); /* close the stretches counted so far */
    bool was_held = sm->paused || sm->draining;
    switch (what) {
    case TM_SM_PAUSE:
        sm->paused = true;
        break;
    case TM_SM_DRAIN:
        if (!sm->gated)
            sm->draining = true;
        if (!sm->resident && !sm->gated) {
            sm->draining = false;
            sm->gated = true;
        }
        break;
    case TM_SM_GATE:
        if (sm->resident) {
            sm->draining = true;
        } else if (!sm->gated) {
            sm->draining = false;
            sm->gated = true;
        }
        break;
    case TM_SM_RESUME:
        sm->paused = sm->draining = sm->gated = false;
        break;
    case TM_SM_LIMIT:
        sm->cta_limit = arg;
        break;
    }
    if (sm->gated)
        sm->gated_since = now;
    if ((sm->paused || sm->draining) && !was_held)
        sm->paused_since = now;
}
