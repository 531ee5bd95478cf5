/* timing/sm_sched.c — one warp scheduler of an SM at an issue slot: the
 * state of each of its warps (instruction buffer, scoreboard, backoff,
 * functional unit), the warp policy's pick among the issuable ones, and
 * the issue of up to core.issue_width instructions (sm_issue.c). */
#include "timing/sm.h"
#include "timing/sm_internal.h"
#include "runtime/warp.h"

/* --------------------------------------------------------------- evaluate */

const tm_func *tm_sm_func_of(tm_env *env, const ex_func *fn)
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

static uint8_t unit_check(tm_sm *sm, const tm_sched *s, tm_warp *tw, uint8_t u,
                          uint64_t now);

/* The state of a warp at `now`; sets *tw->re to the cycle it can next
 * change without an outside event (memory completion, barrier release,
 * fetch). */
static uint8_t eval(tm_sm *sm, tm_warp *tw, uint64_t now, bool ignore_backoff)
{
    ex_warp *w = tw->w;
    sm_set_re(sm, tw, TM_NEVER);
    tw->ready_unit = TM_UNIT_COUNT;
    if (w->state == WARP_DONE || w->state == WARP_FAULT)
        return SCHED_WS_DONE;
    if (w->state == WARP_AT_BARRIER)
        return SCHED_WS_BARRIER;
    if (!ignore_backoff && tw->backoff_until > now) {
        sm_set_re(sm, tw, tw->backoff_until);
        return SCHED_WS_BACKOFF;
    }
    if (tw->ibuf == 0)
        return SCHED_WS_IBUF_EMPTY;
    if (tw->ibuf_ready > now) {
        sm_set_re(sm, tw, tw->ibuf_ready);
        return SCHED_WS_IBUF_EMPTY;
    }
    const ex_instr *in = ex_warp_next(w);
    const tm_ins *t = sm_ins_of(sm, tw, in);
    tm_sched *s = &sm->scheds[tw->sched];
    sched_warp_view *v = &s->views[tw->view];
    if (in) {
        v->pc = ex_warp_pc_of(w, in);
        v->annot = tw->tf ? &tw->tf->annot[v->pc] : NULL;
    }
    /* scoreboard: drop retired entries, look for a hazard */
    uint32_t roff = ex_warp_reg_window(w);
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
    /* GPGPU-Sim's membar waits for pending register writes, not store
     * acknowledgements (shader_core_ctx::warp_waiting_at_mem_barrier) */
    if ((t->flags & TM_INS_FENCE) && tw->outstanding > tw->stores_out) {
        blocked = on_mem = waits_event = true;
    }
    if (in && (t->flags & TM_INS_ASYNC) && tm_async_blocked(sm, tw, in))
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
        sm_set_re(sm, tw, waits_event ? TM_NEVER : until);
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
         * (sm.c) gets the refused access in (unstick wakes it); looking
         * again every cycle would find the same state */
        sm_set_re(sm, tw, tw->ready_unit == TM_UNIT_LDST ? TM_NEVER : now + 1);
        return SCHED_WS_STALL_MEM;
    }
    if (s->unit_free[u] > now) {
        sm_set_re(sm, tw, s->unit_free[u]);
        return u == TM_UNIT_LDST ? SCHED_WS_STALL_MEM : SCHED_WS_STALL_ALU;
    }
    sm_set_re(sm, tw, now); /* issuable: look again at every slot */
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
                    if (f > now) { /* sm_set_re's bit is already set: not TM_NEVER */
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
                    sm_set_state(sm, s, tw, st, now);
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
            sm_flush_state(sm, st, now);
            sm->nstate[st] = (uint32_t)((int32_t)sm->nstate[st] + dn[st]);
            s->n[st] = (uint32_t)((int32_t)s->n[st] + dn[st]);
        }
    }
    s->min_re = next;
    return next;
}

/* --------------------------------------------------------- pick and issue */

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
    sm_set_re(sm, tw, now); /* back to BACKOFF at the next look unless released again */
    if (sched_ws_can_issue(st)) {
        sm_set_state(sm, s, tw, st, now);
        tw->relaxed_at = now;
        sm->c.spin_releases++;
    }
    if (sm->env->trace)
        fprintf(sm->env->trace, "cycle %llu: SM %u warp slot %u released from backoff (%s%s%s)\n",
                (unsigned long long)now, sm->id, s->views[i].slot, bo->h.name,
                why[0] ? ": " : "", why);
    return true;
}

/* Issues from one scheduler at slot `now`; returns the earliest cycle one
 * of its warps needs looking at again. */
uint64_t tm_sm_schedule(tm_sm *sm, tm_sched *s, uint64_t now,
                        bool *issued_any)
{
    tm_env *env = sm->env;
    if (s->acct_from < now) {
        sm_account(s, s->idle_cls, sm_slots_in(s->acct_from, now, sm->dispatch));
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
            sm_set_state(sm, s, tw, st, now);
            if (*tw->re < next)
                next = *tw->re;
            if (!sched_ws_can_issue(st))
                continue;
        }
        if (ctx.trace)
            trace_issue(sm, s, tw, now, why);
        tm_cta *done = tm_sm_issue(sm, s, tw, now);
        if (sm->failed)
            return now + 1;
        issued++;
        k++;
        sm_set_state(sm, s, tw, eval(sm, tw, now, false), now);
        if (*tw->re < next)
            next = *tw->re;
        if (done)
            tm_sm_cta_complete(sm, done, now);
    }
    uint8_t cls = sm_classify(s);
    if (issued) {
        s->c.slots++;
        s->c.issued++;
    } else {
        sm_account(s, cls, 1);
    }
    s->idle_cls = cls;
    s->acct_from = now + 1;
    *issued_any |= issued > 0;
    return next;
}
