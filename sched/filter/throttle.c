/* sched/filter/throttle.c — an admission filter that limits how fast CTAs
 * enter the GPU, and the framework's worked example (docs/adding-a-
 * scheduler.md): it implements every hook of sched/sched.h.
 *
 * Behaviour: at most `burst` CTAs are admitted GPU-wide in each period of
 * `period` cycles; a request beyond that is refused until the next period
 * starts (the driver asks again then).  With `active_sms` = N > 0 the SMs
 * from N up are gated (powered off) while kernels run, as a core-gating
 * policy such as ONAC would do, and powered on again when the last kernel
 * finishes.  With a decision trace it logs every hook, so a user (and the
 * framework's test) can see the order in which the driver calls them, and
 * at the end of each kernel a summary of what it saw. */
#include "sched/sched.h"

#include <stdlib.h>

typedef struct throttle_state {
    uint32_t burst, period, active_sms, nsms;
    uint64_t window;            /* period index the counts below belong to */
    uint32_t admitted;          /* CTAs issued in that period */
    uint32_t running;           /* kernels arrived and not finished */
    /* what it saw, per kernel run (reported at kernel_finish) */
    uint64_t refused, issued_ctas, finished_ctas, instrs, replies;
    uint64_t warps_in, warps_out, barriers, exits;
    uint32_t *per_sm;           /* CTAs issued per SM (allocated in init) */
} throttle_state;

static void log_hook(const sched_ctl *c, const char *what, uint32_t a, uint32_t b)
{
    if (c->trace)
        c->log(c, "throttle", "%s %u %u", what, a, b);
}

static void throttle_init(void *st, const sched_env *env)
{
    throttle_state *s = st;
    s->burst = env->keys->throttle_burst;
    s->period = env->keys->throttle_period;
    s->active_sms = env->keys->throttle_active_sms;
    s->nsms = env->nsms;
    s->per_sm = calloc(env->nsms, sizeof *s->per_sm);
}

static void throttle_destroy(void *st)
{
    throttle_state *s = st;
    free(s->per_sm);
    s->per_sm = NULL;
}

/* Period boundaries while kernels run: reopen the window and tell the CTA
 * level to ask again (refused requests named this cycle already). */
static uint64_t throttle_tick(void *st, const sched_ctl *c)
{
    throttle_state *s = st;
    if (!s->running)
        return SCHED_NEVER;
    log_hook(c, "tick", (uint32_t)(c->cycle / s->period), s->admitted);
    return (c->cycle / s->period + 1) * s->period;
}

static void throttle_kernel_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    throttle_state *s = st;
    log_hook(c, "kernel_arrive", k->id, k->total_ctas);
    if (s->running++ == 0 && s->active_sms)
        for (uint32_t sm = s->active_sms; sm < s->nsms; sm++)
            c->sm_gate(c, sm);
}

static void throttle_kernel_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    throttle_state *s = st;
    log_hook(c, "kernel_finish", k->id, k->finished);
    if (c->trace)
        c->log(c, "throttle", "kernel %u: %llu CTAs issued, %llu finished, %llu requests "
               "refused, %llu instructions, %llu memory replies, %llu/%llu warps in/out, "
               "%llu barrier waits, %llu exits", k->id,
               (unsigned long long)s->issued_ctas, (unsigned long long)s->finished_ctas,
               (unsigned long long)s->refused, (unsigned long long)s->instrs,
               (unsigned long long)s->replies, (unsigned long long)s->warps_in,
               (unsigned long long)s->warps_out, (unsigned long long)s->barriers,
               (unsigned long long)s->exits);
    if (--s->running == 0 && s->active_sms)
        for (uint32_t sm = s->active_sms; sm < s->nsms; sm++)
            c->sm_resume(c, sm);
}

static sched_verdict throttle_admit(void *st, const sched_ctl *c, const sched_cta_view *v,
                                    uint32_t sm, bool refused, char *why)
{
    throttle_state *s = st;
    uint64_t w = v->cycle / s->period;
    if (w != s->window) {
        s->window = w;
        s->admitted = 0;
    }
    log_hook(c, "request", v->next_cta, sm);
    if (refused || s->admitted < s->burst)
        return SCHED_ADMIT; /* an earlier refusal already holds it back */
    if (c->trace)
        snprintf(why, SCHED_WHY_LEN, "%u CTAs admitted in period %llu", s->admitted,
                 (unsigned long long)w);
    return SCHED_REFUSE_UNTIL((w + 1) * s->period);
}

static void throttle_cta_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    throttle_state *s = st;
    log_hook(c, "cta_issued", e->cta, e->sm);
    s->admitted++;
    s->issued_ctas++;
    s->per_sm[e->sm]++;
}

static void throttle_cta_dropped(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    throttle_state *s = st;
    log_hook(c, "cta_dropped", e->cta, e->sm);
    s->refused++;
}

static void throttle_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    throttle_state *s = st;
    log_hook(c, "cta_finished", e->cta, e->sm);
    s->finished_ctas++;
}

static void throttle_warp_arrive(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    log_hook(c, "warp_arrive", e->cta, e->warp);
    ((throttle_state *)st)->warps_in++;
}

static void throttle_warp_leave(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    log_hook(c, "warp_leave", e->cta, e->warp);
    ((throttle_state *)st)->warps_out++;
}

static void throttle_barrier(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    log_hook(c, "barrier", e->cta, e->warp);
    ((throttle_state *)st)->barriers++;
}

static void throttle_exit(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    log_hook(c, "exit", e->cta, e->warp);
    ((throttle_state *)st)->exits++;
}

static void throttle_issued(void *st, const sched_ctl *c, const sched_issue *e)
{
    log_hook(c, "issued", e->cta, e->pc);
    ((throttle_state *)st)->instrs++;
}

static void throttle_mem_reply(void *st, const sched_ctl *c, const sched_mem_reply *e)
{
    log_hook(c, "mem_reply", e->cta, e->warp);
    ((throttle_state *)st)->replies++;
}

const sched_filter_ops sched_filter_throttle = {
    .h = {.name = "throttle",
          .summary = "admits at most `burst` CTAs per `period` cycles; can gate SMs "
                     "(the framework's example: implements every hook)",
          .state_size = sizeof(throttle_state),
          .wants = SCHED_WANT_ISSUE | SCHED_WANT_MEM_REPLY | SCHED_WANT_WARP,
          .init = throttle_init,
          .destroy = throttle_destroy,
          .tick = throttle_tick,
          .kernel_arrive = throttle_kernel_arrive,
          .kernel_finish = throttle_kernel_finish,
          .cta_issued = throttle_cta_issued,
          .cta_dropped = throttle_cta_dropped,
          .cta_finished = throttle_cta_finished,
          .warp_arrive = throttle_warp_arrive,
          .warp_leave = throttle_warp_leave,
          .barrier = throttle_barrier,
          .exit = throttle_exit,
          .issued = throttle_issued,
          .mem_reply = throttle_mem_reply},
    .admit = throttle_admit,
};
