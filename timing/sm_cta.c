/* timing/sm_cta.c — CTAs on an SM: how many fit, launch, completion and
 * release, retirement into the launch's counts, faults, abort and
 * deadlock detection; and the controls (pause, drain, gate, resume,
 * limit) policies apply to the SM. */
#include "timing/sm.h"
#include "timing/sm_internal.h"
#include "runtime/launch.h"

#include <string.h>

/* -------------------------------------------------------------- occupancy */

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

/* ----------------------------------------------------------- CTA lifetime */

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
    c->own = tm_launch_shared_why(L) == NULL;
    if (c->own) {
        c->shadow = *L;
        c->shadow.warned = L->warned ? L->warned : &L->warned_own;
        c->shadow.clock = c->shadow.last_progress = 0;
        c->shadow.warp_instrs = c->shadow.thread_instrs = 0;
        c->shadow.error = NULL;
        c->shadow.failed = false;
        c->shadow.host_atomics = true; /* integer red from several threads */
        c->shadow.max_warp_instrs = 0;   /* counted over the CTAs after each cycle */
        c->shadow.progress_epoch = &sm->env->progress_epoch;
    }
    /* the slot keeps its warps' buffers: a large register file is an mmap
     * whose pages the kernel zeroes on first touch, a third of hotspot's
     * CPU time when every CTA allocated its own */
    ex_cta_restart(c->own ? &c->shadow : L, &c->cta, &c->warp_cap, linear);
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
    sm_count_ctas(sm, now);
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
        sm_set_re(sm, tw, 0);
        tw->ready_unit = TM_UNIT_COUNT;
        tw->ibuf = 0;
        tw->ibuf_ready = 0;
        tw->backoff_until = 0;
        tw->backed_once = false;
        tw->writes = 0;
        tw->relaxed_at = TM_NEVER;
        tw->outstanding = 0;
        tw->stores_out = 0;
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
        sm_set_state(sm, s, tw, SCHED_WS_IBUF_EMPTY, now);
        sm_fetch_enqueue(sm, slot, now);
        v->instrs = 0;
        v->outstanding = 0;
        if (sm->env->pol->wants & SCHED_WANT_WARP) {
            sched_warp_event we = {sm->id, tw->sched, slot, kernel_id, linear, k, 0, 0};
            tm_pol_event_send(sm->env->pol, now, TM_EV_WARP_ARRIVE, sm->id, tw->sched, &we);
        }
    }
    for (uint32_t k = 0; k < sm->nsched; k++)
        sm_sched_touch(sm, &sm->scheds[k], now);
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
        sm_set_state(sm, &sm->scheds[tw->sched], tw, SCHED_WS_EMPTY, cycle);
        sm_set_re(sm, tw, TM_NEVER);
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
    sm_count_ctas(sm, cycle + 1); /* it was resident during `cycle` */
    sm->resident--;
    if (!sm->resident) {
        sm_flush_states(sm, cycle);
        sm->idle_since = cycle + 1; /* it was busy during `cycle` */
        if (sm->draining) /* a drained SM powers off once empty */
            tm_sm_control(sm, TM_SM_GATE, 0, cycle + 1);
    }
    for (uint32_t k = 0; k < sm->nsched; k++)
        sm_sched_touch(sm, &sm->scheds[k], cycle);
    ex_cta_finish(&c->cta);
    if (c->own && c->shadow.error)
        g_string_free(c->shadow.error, TRUE);
    c->shadow.error = NULL;
    c->busy = false;
}

void tm_sm_cta_complete(tm_sm *sm, tm_cta *c, uint64_t cycle)
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
    tm_l1i_abort(sm);
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

/* -------------------------------------------------------- policy controls */

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
