/* sched/filter/perf_sat.c — Perf-Sat (Awatramani thesis §4.3.2): a per-core
 * cap on active CTAs found at run time from the stalled-cycle count S
 * (scoreboard + pipeline stalls, §4.3.1.3).  N+1 CTAs beat N when
 * S(N+1) < S(N).
 *
 * Per core, at kernel start: cap N = c = ceil(Nmax/2), Nmax = CTAs of the
 * kernel that fit an empty core.  One_TB = cycles until the core's first
 * CTA completes; from then a sample of T = One_TB x Nmax cycles is taken
 * (the `period_scale` key scales T; 1 = the thesis), S is the growth of the
 * core's stall counter over the sample, and the state machine below moves
 * N.  The cap is applied through ctl->sm_limit: a lowered cap drains (the
 * CTAs above it run to completion, no new one starts), it never kills.
 *
 * The machine (Fig. 4.4 as SEED-TARGETS.md §3 reads it; the readings of the
 * [gap]s are marked "reading"):
 *   sample 1 (at c): P = S, N = c+1, mode WI;
 *   sample 2: S < P: stay WI, H = 1, keep N (P kept: the next sample must
 *     confirm against S(c)); otherwise WD, P = S(c+1), N = c;
 *   weak mode, S < P: strong mode of the same direction, D = 1, P = S, step;
 *   weak mode, S >= P: H = 0, the opposite weak mode (a toggle), P = S,
 *     step the new way (reading); after more than 3 such toggles N = c+1;
 *   strong mode, S < P: P = S, step;  S >= P: discard, weak mode, keep N,
 *     H = 0; the next sample again >= P fixes the previous N (N - step);
 *     one below P returns to strong (a toggle; after more than 3, the
 *     previous N);
 *   steps are clamped to [1, Nmax]: a step past a bound fixes N at the
 *     bound (reading). */
#include "sched/filter/perf_sat.h"
#include "sched/sched.h"

#include <stdlib.h>

/* ------------------------------------------------------ the state machine */

static void psat_done(psat_fsm *m, uint32_t n)
{
    m->n = n < 1 ? 1 : (n > m->nmax ? m->nmax : n);
    m->mode = PSAT_DONE;
}

static int psat_dir(const psat_fsm *m)
{
    return m->mode == PSAT_WI || m->mode == PSAT_SI ? 1 : -1;
}

/* One step in the current direction; at a bound N is fixed there. */
static void psat_step(psat_fsm *m)
{
    int dir = psat_dir(m);
    if ((dir > 0 && m->n >= m->nmax) || (dir < 0 && m->n <= 1)) {
        psat_done(m, m->n);
        return;
    }
    m->n = (uint32_t)((int)m->n + dir);
}

void psat_start(psat_fsm *m, uint32_t nmax)
{
    *m = (psat_fsm){0};
    m->nmax = nmax ? nmax : 1;
    m->c = (m->nmax + 1) / 2;
    m->n = m->c;
    m->mode = PSAT_WI;
}

uint32_t psat_sample(psat_fsm *m, uint64_t s)
{
    if (m->mode == PSAT_DONE)
        return m->n;
    m->samples++;
    if (m->samples == 1) {
        m->p = s;
        m->mode = PSAT_WI;
        psat_step(m);
        return m->n;
    }
    if (m->samples == 2) {
        if (s < m->p) {
            m->h = true;
        } else {
            m->mode = PSAT_WD;
            m->p = s;
            m->n = m->c;
        }
        return m->n;
    }
    bool weak = m->mode == PSAT_WI || m->mode == PSAT_WD;
    int dir = psat_dir(m);
    if (weak && m->fell) {
        if (s >= m->p) {
            psat_done(m, (uint32_t)((int)m->n - dir)); /* the previous N */
            return m->n;
        }
        if (++m->strong_toggles > 3) {
            psat_done(m, (uint32_t)((int)m->n - dir));
            return m->n;
        }
        m->fell = false;
        m->mode = dir > 0 ? PSAT_SI : PSAT_SD;
        m->p = s;
        psat_step(m);
        return m->n;
    }
    if (weak) {
        if (s < m->p) {
            m->mode = dir > 0 ? PSAT_SI : PSAT_SD;
            m->d = true;
            m->p = s;
            psat_step(m);
            return m->n;
        }
        m->h = false;
        if (++m->weak_toggles > 3) {
            psat_done(m, m->c + 1); /* conservative */
            return m->n;
        }
        m->mode = dir > 0 ? PSAT_WD : PSAT_WI;
        m->p = s;
        psat_step(m);
        return m->n;
    }
    /* strong */
    if (s < m->p) {
        m->p = s;
        psat_step(m);
        return m->n;
    }
    m->mode = dir > 0 ? PSAT_WI : PSAT_WD;
    m->fell = true;
    m->h = false;
    return m->n;
}

/* ------------------------------------------------------------ the policy */

typedef struct psat_core {
    psat_fsm m;
    bool active;               /* a kernel is being detected here */
    uint64_t start;            /* kernel start (for One_TB) */
    uint64_t period;           /* T; 0 until the first CTA completes */
    uint64_t next;             /* cycle of the next sample */
    uint64_t base;             /* stall counter at the sample's start */
} psat_core;

typedef struct psat_state {
    uint32_t nsms, running;
    double scale;
    psat_core *core;
} psat_state;

static void psat_init(void *st, const sched_env *env)
{
    psat_state *s = st;
    s->nsms = env->nsms;
    s->scale = env->keys->perf_sat_period_scale;
    s->core = calloc(env->nsms, sizeof *s->core);
}

static void psat_destroy(void *st)
{
    psat_state *s = st;
    free(s->core);
    s->core = NULL;
}

static void psat_kernel_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    psat_state *s = st;
    if (s->running++)
        return; /* concurrent kernels: the first one's detection goes on */
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        psat_core *pc = &s->core[sm];
        psat_start(&pc->m, k->max_fit);
        pc->active = true;
        pc->start = c->cycle;
        pc->period = 0;
        pc->next = SCHED_NEVER;
        c->sm_limit(c, sm, pc->m.n);
    }
    if (c->trace)
        c->log(c, "perf-sat", "kernel %u: Nmax=%u, every core starts at N=%u", k->id,
               k->max_fit, s->core[0].m.n);
}

static void psat_kernel_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)k;
    psat_state *s = st;
    if (s->running && --s->running)
        return;
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        s->core[sm].active = false;
        c->sm_limit(c, sm, SCHED_NO_LIMIT);
    }
}

/* The core's first CTA completion fixes One_TB and starts sampling. */
static void psat_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    psat_state *s = st;
    if (e->sm >= s->nsms)
        return;
    psat_core *pc = &s->core[e->sm];
    if (!pc->active || pc->period)
        return;
    uint64_t one_tb = c->cycle - pc->start;
    double t = (double)(one_tb ? one_tb : 1) * pc->m.nmax * s->scale;
    pc->period = t < 1 ? 1 : (uint64_t)t;
    pc->next = c->cycle + pc->period;
    pc->base = c->sm_view(c, e->sm)->stall_cycles;
}

static uint64_t psat_tick(void *st, const sched_ctl *c)
{
    psat_state *s = st;
    uint64_t next = SCHED_NEVER;
    bool waiting = false;
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        psat_core *pc = &s->core[sm];
        if (!pc->active || pc->m.mode == PSAT_DONE)
            continue;
        if (pc->next == SCHED_NEVER) {
            waiting = true;
            continue;
        }
        if (pc->next <= c->cycle) {
            uint64_t now = c->sm_view(c, sm)->stall_cycles;
            uint64_t sample = now - pc->base;
            uint32_t before = pc->m.n;
            uint32_t n = psat_sample(&pc->m, sample);
            pc->base = now;
            pc->next = c->cycle + pc->period;
            if (c->trace)
                c->log(c, "perf-sat", "SM %u: S(%u)=%llu -> N=%u%s", sm, before,
                       (unsigned long long)sample, n,
                       pc->m.mode == PSAT_DONE ? " (fixed)" : "");
            c->sm_limit(c, sm, n);
        }
        if (pc->m.mode != PSAT_DONE && pc->next < next)
            next = pc->next;
    }
    /* A tick that returns SCHED_NEVER is never called again, so an idle
     * detector polls slowly for the next kernel; cores still waiting for
     * their first CTA are looked at every 16 cycles (a sample may start up
     * to 16 cycles late, against periods of thousands). */
    if (waiting && c->cycle + 16 < next)
        next = c->cycle + 16;
    return next == SCHED_NEVER ? c->cycle + 1024 : next;
}

static sched_verdict psat_admit(void *st, const sched_ctl *c, const sched_cta_view *v,
                                uint32_t sm, bool refused, char *why)
{
    (void)st, (void)c, (void)v, (void)sm, (void)refused, (void)why;
    return SCHED_ADMIT; /* the cap works through sm_limit */
}

const sched_filter_ops sched_filter_perf_sat = {
    .h = {.name = "perf-sat",
          .summary = "Perf-Sat: per-core CTA cap found from stalled cycles at run time "
                     "(thesis ch. 4); lowered caps drain",
          .state_size = sizeof(psat_state),
          .init = psat_init,
          .destroy = psat_destroy,
          .tick = psat_tick,
          .kernel_arrive = psat_kernel_arrive,
          .kernel_finish = psat_kernel_finish,
          .cta_finished = psat_cta_finished},
    .admit = psat_admit,
};
