/* timing/policy.c — the policy host (timing/policy.h): instances, controls,
 * ticks and event delivery. */
#include "timing/policy.h"

#include <glib.h>
#include <stdarg.h>
#include <string.h>

/* ------------------------------------------------------------- controls */

static void ctl_log(const sched_ctl *c, const char *policy, const char *fmt, ...)
{
    if (!c->trace)
        return;
    fprintf(c->trace, "cycle %llu: %s: ", (unsigned long long)c->cycle, policy);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->trace, fmt, ap);
    va_end(ap);
    fputc('\n', c->trace);
}

static tm_policies *host_of(const sched_ctl *c)
{
    return c->drv;
}

static void ctl_pause(const sched_ctl *c, uint32_t sm)
{
    tm_policies *p = host_of(c);
    p->ops->sm_control(p->gpu, sm, TM_SM_PAUSE, 0);
}

static void ctl_drain(const sched_ctl *c, uint32_t sm)
{
    tm_policies *p = host_of(c);
    p->ops->sm_control(p->gpu, sm, TM_SM_DRAIN, 0);
}

static void ctl_gate(const sched_ctl *c, uint32_t sm)
{
    tm_policies *p = host_of(c);
    p->ops->sm_control(p->gpu, sm, TM_SM_GATE, 0);
}

static void ctl_resume(const sched_ctl *c, uint32_t sm)
{
    tm_policies *p = host_of(c);
    p->ops->sm_control(p->gpu, sm, TM_SM_RESUME, 0);
}

static void ctl_limit(const sched_ctl *c, uint32_t sm, uint32_t limit)
{
    tm_policies *p = host_of(c);
    p->ops->sm_control(p->gpu, sm, TM_SM_LIMIT, limit);
}

static const sched_sm_view *ctl_sm_view(const sched_ctl *c, uint32_t sm)
{
    tm_policies *p = host_of(c);
    return sm < p->nsms ? p->ops->sm_view(p->gpu, sm) : NULL;
}

static void ctl_cta_retry(const sched_ctl *c, uint64_t cycle)
{
    tm_policies *p = host_of(c);
    p->ops->cta_retry(p->gpu, cycle);
}

/* ------------------------------------------------------------- lifetime */

static void inst_init(tm_policies *p, tm_pol_inst *in, const sched_hooks *h,
                      const sched_env *env)
{
    in->h = h;
    in->st = g_malloc0(h->state_size ? h->state_size : 1);
    in->next_tick = SCHED_NEVER;
    if (h->init)
        h->init(in->st, env);
    /* a policy with a tick is ticked once at the start of the first run */
    if (h->tick)
        in->next_tick = 0;
    p->wants |= h->wants;
}

static void inst_free(tm_pol_inst *in)
{
    if (!in->h)
        return;
    if (in->h->destroy)
        in->h->destroy(in->st);
    g_free(in->st);
    in->h = NULL;
}

void tm_pol_init(tm_policies *p, const gpu_config *cfg, FILE *trace, const tm_pol_ops *ops,
                 void *gpu, uint32_t warp_slots)
{
    memset(p, 0, sizeof *p);
    gpu_config_policies(cfg, &p->sel);
    p->keys = cfg->policy;
    p->ops = ops;
    p->gpu = gpu;
    p->nsms = cfg->gpu.num_sms;
    p->nsched = cfg->core.warp_schedulers;
    p->ctl = (sched_ctl){0, trace, p, ctl_log, ctl_pause, ctl_drain, ctl_gate, ctl_resume,
                         ctl_limit, ctl_sm_view, ctl_cta_retry};
    sched_env env = {&p->keys, p->nsms, cfg->gpu.sms_per_cluster, p->nsched, warp_slots,
                     cfg->core.max_ctas, SCHED_NONE, SCHED_NONE, 0, cfg->core.registers,
                     (uint32_t)cfg->core.shared_mem, cfg->kernel.caps};
    p->ngpu = TM_POL_AT_FILTERS + p->sel.nfilters;
    p->gpu_level = g_new0(tm_pol_inst, p->ngpu);
    inst_init(p, tm_pol_kernel(p), &p->sel.kernel->h, &env);
    inst_init(p, tm_pol_cta(p), &p->sel.cta->h, &env);
    for (unsigned f = 0; f < p->sel.nfilters; f++)
        inst_init(p, tm_pol_filter(p, f), &p->sel.filters[f]->h, &env);
    p->sm_inst = g_new0(tm_pol_inst, (size_t)p->nsms * 3);
    p->warp_inst = g_new0(tm_pol_inst, (size_t)p->nsms * p->nsched);
    for (uint32_t s = 0; s < p->nsms; s++) {
        env.sm = s;
        env.scheduler = SCHED_NONE;
        env.nslots = warp_slots;
        inst_init(p, tm_pol_backoff(p, s), &p->sel.backoff->h, &env);
        inst_init(p, tm_pol_fetch(p, s), &p->sel.fetch->h, &env);
        inst_init(p, tm_pol_l1(p, s), &p->sel.l1->h, &env);
        for (uint32_t k = 0; k < p->nsched; k++) {
            env.scheduler = k;
            env.nslots = (warp_slots - k + p->nsched - 1) / p->nsched;
            inst_init(p, tm_pol_warp(p, s, k), &p->sel.warp->h, &env);
        }
    }
    p->next_tick = 0;
}

void tm_pol_destroy(tm_policies *p)
{
    for (uint32_t i = 0; i < p->ngpu; i++)
        inst_free(&p->gpu_level[i]);
    for (size_t i = 0; i < (size_t)p->nsms * 3; i++)
        inst_free(&p->sm_inst[i]);
    for (size_t i = 0; i < (size_t)p->nsms * p->nsched; i++)
        inst_free(&p->warp_inst[i]);
    g_free(p->gpu_level);
    g_free(p->sm_inst);
    g_free(p->warp_inst);
    memset(p, 0, sizeof *p);
}

/* ----------------------------------------------------------------- ticks */

static uint64_t tick_range(tm_policies *p, tm_pol_inst *in, size_t n, uint64_t now)
{
    uint64_t next = SCHED_NEVER;
    for (size_t i = 0; i < n; i++) {
        if (in[i].next_tick <= now) {
            uint64_t t = in[i].h->tick(in[i].st, tm_pol_ctl(p, now));
            in[i].next_tick = t > now ? t : (t == SCHED_NEVER ? SCHED_NEVER : now + 1);
        }
        if (in[i].next_tick < next)
            next = in[i].next_tick;
    }
    return next;
}

void tm_pol_tick(tm_policies *p, uint64_t now)
{
    if (now < p->next_tick)
        return;
    uint64_t a = tick_range(p, p->gpu_level, p->ngpu, now);
    uint64_t b = tick_range(p, p->sm_inst, (size_t)p->nsms * 3, now);
    uint64_t c = tick_range(p, p->warp_inst, (size_t)p->nsms * p->nsched, now);
    p->next_tick = MIN(a, MIN(b, c));
}

/* ---------------------------------------------------------------- events */

static void deliver(tm_pol_inst *in, const sched_ctl *c, tm_pol_event ev, const void *d)
{
    const sched_hooks *h = in->h;
    switch (ev) {
    case TM_EV_KERNEL_ARRIVE: if (h->kernel_arrive) h->kernel_arrive(in->st, c, d); break;
    case TM_EV_KERNEL_FINISH: if (h->kernel_finish) h->kernel_finish(in->st, c, d); break;
    case TM_EV_CTA_ISSUED: if (h->cta_issued) h->cta_issued(in->st, c, d); break;
    case TM_EV_CTA_DROPPED: if (h->cta_dropped) h->cta_dropped(in->st, c, d); break;
    case TM_EV_CTA_FINISHED: if (h->cta_finished) h->cta_finished(in->st, c, d); break;
    case TM_EV_WARP_ARRIVE: if (h->warp_arrive) h->warp_arrive(in->st, c, d); break;
    case TM_EV_WARP_LEAVE: if (h->warp_leave) h->warp_leave(in->st, c, d); break;
    case TM_EV_BARRIER: if (h->barrier) h->barrier(in->st, c, d); break;
    case TM_EV_EXIT: if (h->exit) h->exit(in->st, c, d); break;
    case TM_EV_ISSUED: if (h->issued) h->issued(in->st, c, d); break;
    case TM_EV_MEM_REPLY: if (h->mem_reply) h->mem_reply(in->st, c, d); break;
    }
}

/* A kernel's arrival wakes every idle tick (one that returned SCHED_NEVER):
 * policies that sample while kernels run need not poll while none does. */
static void rearm_ticks(tm_policies *p, tm_pol_inst *in, size_t n, uint64_t now)
{
    for (size_t i = 0; i < n; i++)
        if (in[i].h && in[i].h->tick && in[i].next_tick == SCHED_NEVER)
            in[i].next_tick = now;
    if (now < p->next_tick)
        p->next_tick = now;
}

void tm_pol_event_send(tm_policies *p, uint64_t now, tm_pol_event ev, uint32_t sm,
                       uint32_t sched, const void *data)
{
    const sched_ctl *c = tm_pol_ctl(p, now);
    if (ev == TM_EV_KERNEL_ARRIVE) {
        rearm_ticks(p, p->gpu_level, p->ngpu, now);
        rearm_ticks(p, p->sm_inst, (size_t)p->nsms * 3, now);
        rearm_ticks(p, p->warp_inst, (size_t)p->nsms * p->nsched, now);
    }
    for (uint32_t i = 0; i < p->ngpu; i++)
        deliver(&p->gpu_level[i], c, ev, data);
    if (sm >= p->nsms)
        return;
    for (uint32_t i = 0; i < 3; i++)
        deliver(&p->sm_inst[(size_t)sm * 3 + i], c, ev, data);
    if (sched < p->nsched)
        deliver(tm_pol_warp(p, sm, sched), c, ev, data);
    else if (ev == TM_EV_CTA_ISSUED || ev == TM_EV_CTA_FINISHED)
        for (uint32_t k = 0; k < p->nsched; k++)
            deliver(tm_pol_warp(p, sm, k), c, ev, data);
}
