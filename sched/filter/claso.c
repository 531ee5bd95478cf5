/* sched/filter/claso.c — CLASO (Yu et al., IJPP 2014): a credit-based CTA
 * admission filter in front of any base CTA scheduler.  The base proposes
 * "CTA to core c"; CLASO admits or refuses, it never picks the CTA or the
 * core.  Refused CTAs stay pending and the base places them elsewhere.
 *
 * Credits (Alg. 1 with the text's ceiling, SEED-TARGETS.md §1), one set per
 * running kernel: at arrival Cp[c] = ceil(n_cta / n_core) + pL for every
 * core and Cg = ((n_cta - 1) mod n_core) + 1 + (pA - 1) n_core.  A request
 * for core c first does Cp[c] -= 1; it is admitted if Cp[c] >= pA + pL;
 * else, if Cp[c] >= 0, it does Cg -= 1 and is admitted if Cg >= 0; else it
 * is refused.  Credits never refill during a kernel.  With the ceiling
 * exactly n_cta requests can be admitted; the listing's floor (kept behind
 * the test-only key `claso.listing_floor`) admits only n - n_core when
 * n mod n_core != 0, so the kernel never finishes.
 *
 * Counter drift.  The framework asks every SM with room at every event (a
 * CTA finishing anywhere, an arrival, a control change), not once per freed
 * slot as the paper's hardware does, so consuming on every ask would drive
 * the counters down without bound.  Both counters only ever fall, so once
 * CLASO refuses core c for a kernel it would refuse c for the rest of that
 * kernel anyway.  CLASO therefore makes a refusal sticky: the core's later
 * asks are refused without consuming until a CTA finishes on that core (a
 * slot freed: a new request in the paper's sense), which consumes once
 * more.  The counters then move exactly as in the paper's case study
 * (core 0 reaches Cp0 = -1 after CTA 8), stay within [-(slots + 1), n]
 * per core, and decisions are unchanged.
 *
 * Composition with other filters.  A request an earlier filter refused
 * (`refused`) never reached CLASO in the paper's composition (the base,
 * e.g. DYNCTA's pausing, decides whether a core asks at all), so CLASO
 * neither consumes nor judges it.  If a later filter refuses a request
 * CLASO admitted, the credits it took are given back (cta_dropped), so the
 * ceil invariant (every CTA can be admitted) holds whatever the order.
 *
 * n_core is the number of cores that accept CTAs when the kernel arrives
 * (not gated, paused or draining); cores off at arrival get no credits. */
#include "sched/sched.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct claso_set {
    bool used;
    uint32_t kernel;        /* launch id */
    int64_t cg;             /* global credits */
    int64_t *cp;            /* [nsms] local credits */
    bool *sticky;           /* [nsms] refused, no slot freed since */
} claso_set;

/* The credits one admitted request took, to give back if a later filter
 * refuses it. */
typedef struct claso_last {
    bool valid;
    uint32_t kernel, cta, sm;
    bool took_cg;
} claso_last;

typedef struct claso_state {
    int64_t pa, pl;
    bool floor_bug;
    uint32_t nsms;
    claso_set sets[SCHED_MAX_KERNELS];
    int64_t *cp_mem;
    bool *sticky_mem;
    claso_last last;
} claso_state;

static void claso_init(void *st, const sched_env *env)
{
    claso_state *s = st;
    s->pa = env->keys->claso_pa;
    s->pl = env->keys->claso_pl;
    s->floor_bug = env->keys->claso_listing_floor;
    s->nsms = env->nsms;
    s->cp_mem = calloc((size_t)SCHED_MAX_KERNELS * env->nsms, sizeof *s->cp_mem);
    s->sticky_mem = calloc((size_t)SCHED_MAX_KERNELS * env->nsms, sizeof *s->sticky_mem);
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS; i++) {
        s->sets[i].cp = s->cp_mem + (size_t)i * env->nsms;
        s->sets[i].sticky = s->sticky_mem + (size_t)i * env->nsms;
    }
}

static void claso_destroy(void *st)
{
    claso_state *s = st;
    free(s->cp_mem);
    free(s->sticky_mem);
    s->cp_mem = NULL;
    s->sticky_mem = NULL;
}

static claso_set *set_of(claso_state *s, uint32_t kernel)
{
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS; i++)
        if (s->sets[i].used && s->sets[i].kernel == kernel)
            return &s->sets[i];
    return NULL;
}

static void claso_kernel_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    claso_state *s = st;
    claso_set *set = NULL;
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS && !set; i++)
        if (!s->sets[i].used)
            set = &s->sets[i];
    if (!set)
        return; /* more kernels than the driver tracks: admitted unfiltered */
    int64_t ncore = 0;
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        const sched_sm_view *v = c->sm_view(c, sm);
        ncore += !(v->gated || v->paused || v->draining);
    }
    if (ncore == 0)
        ncore = s->nsms;
    int64_t n = k->total_ctas;
    int64_t per = s->floor_bug ? n / ncore : (n + ncore - 1) / ncore;
    set->used = true;
    set->kernel = k->id;
    set->cg = (n - 1) % ncore + 1 + (s->pa - 1) * ncore;
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        const sched_sm_view *v = c->sm_view(c, sm);
        bool on = !(v->gated || v->paused || v->draining) || ncore == (int64_t)s->nsms;
        set->cp[sm] = on ? per + s->pl : -1;
        set->sticky[sm] = false;
    }
    if (c->trace)
        c->log(c, "claso", "kernel %u: %lld CTAs on %lld cores: Cp=%lld Cg=%lld", k->id,
               (long long)n, (long long)ncore, (long long)(per + s->pl), (long long)set->cg);
}

static void claso_kernel_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    claso_set *set = set_of(st, k->id);
    if (set)
        set->used = false;
}

static sched_verdict claso_admit(void *st, const sched_ctl *c, const sched_cta_view *v,
                                 uint32_t sm, bool refused, char *why)
{
    claso_state *s = st;
    s->last.valid = false;
    claso_set *set = set_of(s, v->kernel);
    if (refused || !set || sm >= s->nsms)
        return SCHED_ADMIT; /* not CLASO's request (see the header) */
    if (set->sticky[sm]) {
        if (c->trace)
            snprintf(why, SCHED_WHY_LEN, "core %u already refused, no slot freed since", sm);
        return SCHED_REFUSE;
    }
    bool took_cg = false, ok;
    set->cp[sm]--;
    if (set->cp[sm] >= s->pa + s->pl) {
        ok = true;
    } else if (set->cp[sm] >= 0) {
        set->cg--;
        took_cg = true;
        ok = set->cg >= 0;
    } else {
        ok = false;
    }
    if (c->trace)
        c->log(c, "claso", "kernel %u CTA %u core %u: Cp%u=%lld Cg=%lld -> %s", v->kernel,
               v->next_cta, sm, sm, (long long)set->cp[sm], (long long)set->cg,
               ok ? "allowed" : "refused");
    if (ok) {
        s->last = (claso_last){true, v->kernel, v->next_cta, sm, took_cg};
        return SCHED_ADMIT;
    }
    set->sticky[sm] = true;
    if (c->trace)
        snprintf(why, SCHED_WHY_LEN, "Cp%u=%lld, Cg=%lld", sm, (long long)set->cp[sm],
                 (long long)set->cg);
    return SCHED_REFUSE;
}

/* A later filter refused a request CLASO admitted: give its credits back. */
static void claso_cta_dropped(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    claso_state *s = st;
    if (!s->last.valid || s->last.kernel != e->kernel || s->last.cta != e->cta ||
        s->last.sm != e->sm)
        return;
    claso_set *set = set_of(s, e->kernel);
    if (set) {
        set->cp[e->sm]++;
        if (s->last.took_cg)
            set->cg++;
    }
    s->last.valid = false;
}

static void claso_cta_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    (void)e;
    ((claso_state *)st)->last.valid = false;
}

/* A slot freed on the core: its next ask is a new request. */
static void claso_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    claso_state *s = st;
    if (e->sm >= s->nsms)
        return;
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS; i++)
        if (s->sets[i].used)
            s->sets[i].sticky[e->sm] = false;
}

const sched_filter_ops sched_filter_claso = {
    .h = {.name = "claso",
          .sample_refuse = "claso's per-kernel credits run down over the whole launch and bite at "
                           "its end, which a projection from the stable part would miss",
          .summary = "CLASO credit-based admission: per-kernel local credits per core plus "
                     "one global pool (Yu et al. 2014)",
          .state_size = sizeof(claso_state),
          .init = claso_init,
          .destroy = claso_destroy,
          .kernel_arrive = claso_kernel_arrive,
          .kernel_finish = claso_kernel_finish,
          .cta_issued = claso_cta_issued,
          .cta_dropped = claso_cta_dropped,
          .cta_finished = claso_cta_finished},
    .admit = claso_admit,
};
