/* sched/warp/tl_gto.c — two-level greedy-then-oldest (thesis ch. 3, after
 * Rogers et al.): the two-level queues of tl-rr, but the active queue is
 * sorted by launch order (oldest first) whenever a warp joins it, and the
 * ready queue issues greedily: the warp that issued last while it can,
 * else the oldest ready warp.  Queues: two_level.h. */
#include "sched/warp/two_level.h"

static void tl_gto_init(void *state, const sched_env *env)
{
    tl_init(state, env->keys->tl_gto_fetch_group, TL_SORT_AGE, TL_ORDER_GTO);
}

static int32_t tl_gto_pick(void *state, const sched_warp_ctx *ctx,
                           const sched_warp_view *views, uint32_t n, char *why)
{
    return tl_pick(state, ctx, views, n, why);
}

const sched_warp_ops sched_warp_tl_gto = {
    .h = {.name = "tl-gto",
          .summary = "two-level greedy-then-oldest: active queue sorted by launch order",
          .state_size = sizeof(tl_queues), .init = tl_gto_init},
    .pick = tl_gto_pick,
};
