/* sched/warp/pa.c — single-level phase-aware scheduling (thesis §3.4.2):
 * every issue slot, the ready warp whose next instruction has the smallest
 * phase distance (cycles to the end of its phase, in the config's
 * latencies) issues, so warps near a phase's end reach their long-latency
 * operations first.  Ties go to the oldest warp, or with pa.tie_rr to the
 * first tied warp after the one that issued last (RR rotation).  A warp
 * without annotations counts as infinitely far from its phase's end.
 * pa.by_length: the key is the length of the warp's current phase instead
 * (§3.4.1 states the policy in phase lengths: "always choosing the warp
 * that is at the shortest next phase"; §3.4.2 stores distances), so a warp
 * deep in a long phase no longer outranks one starting a short phase. */
#include "sched/sched.h"

#include <stdio.h>

typedef struct pa_state {
    bool tie_rr;
    bool by_length;
    uint32_t last;    /* view index that issued last (RR ties) */
} pa_state;

static void pa_init(void *state, const sched_env *env)
{
    pa_state *s = state;
    s->tie_rr = env->keys->pa_tie_rr;
    s->by_length = env->keys->pa_by_length;
    s->last = env->nslots ? env->nslots - 1 : 0;
}

static uint32_t distance(const pa_state *s, const sched_warp_view *v)
{
    if (!v->annot)
        return UINT32_MAX;
    return s->by_length ? v->annot->phase_length : v->annot->phase_distance;
}

static int32_t pa_pick(void *state, const sched_warp_ctx *ctx,
                       const sched_warp_view *views, uint32_t n, char *why)
{
    pa_state *s = state;
    int32_t best = -1;
    uint32_t bd = 0;
    for (uint32_t k = 1; k <= n; k++) {
        /* RR ties: scan from the warp after the last one, keep the first
         * of equals; oldest ties: any order, compare ages */
        uint32_t i = s->tie_rr ? (s->last + k) % n : k - 1;
        if (!sched_ws_can_issue(views[i].state))
            continue;
        uint32_t d = distance(s, &views[i]);
        if (best < 0 || d < bd ||
            (d == bd && !s->tie_rr && views[i].age < views[best].age)) {
            best = (int32_t)i;
            bd = d;
        }
    }
    if (best >= 0) {
        s->last = (uint32_t)best;
        if (ctx->trace)
            snprintf(why, SCHED_WHY_LEN, "phase %s %u (age %llu)",
                     s->by_length ? "length" : "distance", bd,
                     (unsigned long long)views[best].age);
    }
    return best;
}

const sched_warp_ops sched_warp_pa = {
    .h = {.name = "pa",
          .summary = "phase-aware: the ready warp with the smallest phase distance, "
                     "ties to the oldest",
          .state_size = sizeof(pa_state), .init = pa_init},
    .pick = pa_pick,
};
