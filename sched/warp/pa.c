/* sched/warp/pa.c — single-level phase-aware scheduling (thesis §3.4.2):
 * every issue slot, the ready warp whose next instruction has the smallest
 * phase distance (cycles to the end of its phase, in the config's
 * latencies) issues, so warps near a phase's end reach their long-latency
 * operations first.  Ties go to the oldest warp, or with pa.tie_rr to the
 * first tied warp after the one that issued last (RR rotation).  A warp
 * without annotations counts as infinitely far from its phase's end. */
#include "sched/sched.h"

#include <stdio.h>

typedef struct pa_state {
    bool tie_rr;
    uint32_t last;    /* view index that issued last (RR ties) */
} pa_state;

static void pa_init(void *state, const sched_env *env)
{
    pa_state *s = state;
    s->tie_rr = env->keys->pa_tie_rr;
    s->last = env->nslots ? env->nslots - 1 : 0;
}

static uint32_t distance(const sched_warp_view *v)
{
    return v->annot ? v->annot->phase_distance : UINT32_MAX;
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
        uint32_t d = distance(&views[i]);
        if (best < 0 || d < bd ||
            (d == bd && !s->tie_rr && views[i].age < views[best].age)) {
            best = (int32_t)i;
            bd = d;
        }
    }
    if (best >= 0) {
        s->last = (uint32_t)best;
        if (ctx->trace)
            snprintf(why, SCHED_WHY_LEN, "phase distance %u (age %llu)", bd,
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
