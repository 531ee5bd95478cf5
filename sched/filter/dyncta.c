/* sched/filter/dyncta.c — DYNCTA (Kayiran et al., PACT 2013), as the thesis
 * §4.3.4.2 and CLASO ("CTA pausing") describe it: each core's CTA limit
 * moves by one per sampling period from two counters:
 *   C_idle  cycles the core had nothing to issue for a reason other than
 *           memory (no CTA resident, or scoreboard/pipeline stalls not on
 *           memory): more CTAs would fill them;
 *   C_mem   cycles every warp waited on memory: more CTAs would add to the
 *           memory pressure.
 * At the end of each period: C_idle > t_idle: one CTA more; otherwise
 * C_mem < t_mem_l: one more; C_mem > t_mem_h: one fewer; else unchanged.
 * Limits stay in [1, Nmax], Nmax = CTAs of the kernel that fit an empty
 * core; a lowered limit drains (ctl->sm_limit: resident CTAs run on).
 *
 * The counters come from the SM view: stall and memory-stall slots are
 * counted per warp scheduler, so they are divided by the schedulers per
 * core to give cycles.  Defaults (keys): period 2048 cycles, t_idle 16,
 * t_mem_l 128, t_mem_h 384 — this project's choices, not values taken from
 * Kayiran et al.: the seeds call them empirical and leave them open
 * ([gap]), and the paper's parameter section could not be read with the
 * sources at hand (docs/cta-schedulers.md "DYNCTA").  The start limit is
 * ceil(Nmax/2) (the thesis prints "⌈N_max⌉", read as a slip; `start` sets
 * another). */
#include "sched/sched.h"

#include <stdlib.h>

typedef struct dyn_core {
    uint32_t n;                       /* the core's limit */
    uint64_t idle, stall, mem;        /* counters at the period's start */
} dyn_core;

typedef struct dyn_state {
    uint32_t nsms, schedulers, running, nmax;
    uint32_t period, t_idle, t_mem_l, t_mem_h, start;
    uint64_t next;
    dyn_core *core;
} dyn_state;

static void dyn_init(void *st, const sched_env *env)
{
    dyn_state *s = st;
    s->nsms = env->nsms;
    s->schedulers = env->schedulers ? env->schedulers : 1;
    s->period = env->keys->dyncta_period;
    s->t_idle = env->keys->dyncta_t_idle;
    s->t_mem_l = env->keys->dyncta_t_mem_l;
    s->t_mem_h = env->keys->dyncta_t_mem_h;
    s->start = env->keys->dyncta_start;
    s->next = SCHED_NEVER;
    s->core = calloc(env->nsms, sizeof *s->core);
}

static void dyn_destroy(void *st)
{
    dyn_state *s = st;
    free(s->core);
    s->core = NULL;
}

static void dyn_mark(dyn_state *s, const sched_ctl *c, uint32_t sm)
{
    const sched_sm_view *v = c->sm_view(c, sm);
    s->core[sm].idle = v->idle_cycles;
    s->core[sm].stall = v->stall_cycles;
    s->core[sm].mem = v->mem_stall_cycles;
}

static void dyn_kernel_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    dyn_state *s = st;
    if (s->running++)
        return; /* concurrent kernels: limits are per core, all kernels */
    s->nmax = k->max_fit ? k->max_fit : 1;
    uint32_t n = s->start ? s->start : (s->nmax + 1) / 2;
    if (n > s->nmax)
        n = s->nmax;
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        s->core[sm].n = n;
        c->sm_limit(c, sm, n);
        dyn_mark(s, c, sm);
    }
    s->next = c->cycle + s->period;
    if (c->trace)
        c->log(c, "dyncta", "kernel %u: Nmax=%u, every core starts at %u", k->id, s->nmax, n);
}

static void dyn_kernel_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)k;
    dyn_state *s = st;
    if (s->running && --s->running)
        return;
    s->next = SCHED_NEVER;
    for (uint32_t sm = 0; sm < s->nsms; sm++)
        c->sm_limit(c, sm, SCHED_NO_LIMIT);
}

static uint64_t dyn_tick(void *st, const sched_ctl *c)
{
    dyn_state *s = st;
    if (s->next == SCHED_NEVER)
        return c->cycle + 1024; /* SCHED_NEVER would end the ticks for good */
    if (c->cycle < s->next)
        return s->next;
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        dyn_core *d = &s->core[sm];
        const sched_sm_view *v = c->sm_view(c, sm);
        if (v->gated) {
            dyn_mark(s, c, sm);
            continue;
        }
        uint64_t stall = v->stall_cycles - d->stall, mem = v->mem_stall_cycles - d->mem;
        uint64_t c_mem = mem / s->schedulers;
        uint64_t c_idle = (v->idle_cycles - d->idle) + (stall - mem) / s->schedulers;
        uint32_t n = d->n;
        if (c_idle > s->t_idle || c_mem < s->t_mem_l) {
            if (n < s->nmax)
                n++;
        } else if (c_mem > s->t_mem_h && n > 1) {
            n--;
        }
        if (c->trace)
            c->log(c, "dyncta", "SM %u: C_idle=%llu C_mem=%llu: limit %u -> %u", sm,
                   (unsigned long long)c_idle, (unsigned long long)c_mem, d->n, n);
        if (n != d->n) {
            d->n = n;
            c->sm_limit(c, sm, n);
        }
        dyn_mark(s, c, sm);
    }
    s->next = c->cycle + s->period;
    return s->next;
}

static sched_verdict dyn_admit(void *st, const sched_ctl *c, const sched_cta_view *v,
                               uint32_t sm, bool refused, char *why)
{
    (void)st, (void)c, (void)v, (void)sm, (void)refused, (void)why;
    return SCHED_ADMIT; /* the limits work through sm_limit */
}

const sched_filter_ops sched_filter_dyncta = {
    .h = {.name = "dyncta",
          .summary = "DYNCTA: per-core CTA limit moved each period by idle and "
                     "memory-wait cycles (Kayiran et al. 2013)",
          .state_size = sizeof(dyn_state),
          .init = dyn_init,
          .destroy = dyn_destroy,
          .tick = dyn_tick,
          .kernel_arrive = dyn_kernel_arrive,
          .kernel_finish = dyn_kernel_finish},
    .admit = dyn_admit,
};
