/* timing/sm.c — one SM (timing/sm.h): its set-up, its counters, the fetch
 * stage, the retries of memory accesses the memory system refused, and the
 * visit that runs them and each warp scheduler (sm_sched.c) for a cycle.
 * Issuing is sm_issue.c, CTAs and policy controls sm_cta.c, the
 * instruction tables sm_instr.c; what they share is sm_internal.h. */
#include "timing/sm.h"
#include "timing/sm_internal.h"
#include "isa/latency.h"
#include "runtime/launch.h"

#include <string.h>

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
    tm_l1i_init(sm);
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
    tm_l1i_free(sm);
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
    for (uint32_t i = 0; i < sm->nctas; i++)
        ex_cta_free(&sm->ctas[i].cta, sm->ctas[i].warp_cap);
    g_free(sm->ctas);
    g_free(sm->fetch_q);
    g_array_free(sm->retired, TRUE);
    g_free(sm);
}

/* --------------------------------------------------------------- counters */

static void stuck_catch_up(tm_sm *sm, uint64_t upto);

void tm_sm_flush(tm_sm *sm, uint64_t upto)
{
    stuck_catch_up(sm, upto);
    memset(&sm->c.sched, 0, sizeof sm->c.sched);
    for (uint32_t k = 0; k < sm->nsched; k++) {
        tm_sched *s = &sm->scheds[k];
        if (s->acct_from < upto) {
            sm_account(s, s->idle_cls, sm_slots_in(s->acct_from, upto, sm->dispatch));
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
    sm_flush_states(sm, upto);
    sm_flush_mem(sm, upto);
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
    sm_count_ctas(sm, upto);
    if (upto > sm->counted_to) {
        sm->c.cycles += upto - sm->counted_to;
        sm->counted_to = upto;
    }
}

/* ------------------------------------------------------------------ fetch */

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
        uint32_t n = sm->ibuf_entries;
        if (sm->l1i_on && !tm_l1i_fetch(sm, slot, now, &n))
            return; /* it waits for its line, or tries again */
        tw->ibuf = n;
        tw->ibuf_ready = now + 1;
        sm_set_re(sm, tw, now + 1);
    }
}

/* ------------------------------------------------ refused memory accesses */

/* The refused access went in: the warps that slept on the stuck unit
 * (unit_check in sm_sched.c) look again now. */
static void unstick(tm_sm *sm, tm_sched *s, uint64_t now)
{
    s->stuck = false;
    for (uint32_t i = 0; i < s->nviews; i++) {
        tm_warp *tw = &sm->warps[i * sm->nsched + s->id];
        if (tw->w && s->recheck[i] == TM_NEVER && tw->ready_unit == TM_UNIT_LDST &&
            s->views[i].state == SCHED_WS_STALL_MEM)
            sm_set_re(sm, tw, now);
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

/* -------------------------------------------------------------- the visit */

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
            uint64_t n = tm_sm_schedule(sm, &sm->scheds[k], now, &any);
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
