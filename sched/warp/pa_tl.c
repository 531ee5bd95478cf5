/* sched/warp/pa_tl.c — the thesis's phase-aware two-level scheduler
 * (§3.4.3, Fig. 3.6): the two-level queues of tl-rr, with the active queue
 * sorted, whenever a warp joins it, by the length of the phase each warp
 * runs next (shortest first, ties to the oldest).  A warp returns from
 * pending at the consumer that starts its next phase, so that length is its
 * next instruction's phase_length (in the config's latencies).
 *
 * The order inside the ready queue is not given by the thesis [gap]; the
 * key pa-tl.ready_order chooses it.  Default 0, phase-aware (smallest phase
 * distance, ties to the oldest, as single-level pa): it uses the same
 * compiler information at both levels, so a fetch group finishes its short
 * phases first, which is the thesis's stated aim for PA (§3.4.2). */
#include "sched/warp/two_level.h"

static void pa_tl_init(void *state, const sched_env *env)
{
    tl_init(state, env->keys->pa_tl_fetch_group, TL_SORT_PHASE,
            (tl_order)env->keys->pa_tl_ready_order);
}

static int32_t pa_tl_pick(void *state, const sched_warp_ctx *ctx,
                          const sched_warp_view *views, uint32_t n, char *why)
{
    return tl_pick(state, ctx, views, n, why);
}

const sched_warp_ops sched_warp_pa_tl = {
    .h = {.name = "pa-tl",
          .summary = "phase-aware two-level: active queue sorted by the next phase's length",
          .state_size = sizeof(tl_queues), .init = pa_tl_init},
    .pick = pa_tl_pick,
};
