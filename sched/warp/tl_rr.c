/* sched/warp/tl_rr.c — two-level round robin (Narasiman et al., the TLRR
 * baseline of thesis ch. 3): a ready queue of fetch_group warps issued in
 * round robin; a warp reaching a consumer of an outstanding long-latency
 * result leaves for the pending queue and, once its long-latency operations
 * are done, joins the tail of the (unsorted) active queue, whose head fills
 * the free ready slot.  Queues: two_level.h. */
#include "sched/warp/two_level.h"

static void tl_rr_init(void *state, const sched_env *env)
{
    tl_init(state, env->keys->tl_rr_fetch_group, TL_SORT_NONE, TL_ORDER_RR);
}

static int32_t tl_rr_pick(void *state, const sched_warp_ctx *ctx,
                          const sched_warp_view *views, uint32_t n, char *why)
{
    return tl_pick(state, ctx, views, n, why);
}

const sched_warp_ops sched_warp_tl_rr = {
    .h = {.name = "tl-rr",
          .summary = "two-level round robin: ready queue of fetch_group warps, "
                     "active queue in arrival order",
          .state_size = sizeof(tl_queues), .init = tl_rr_init},
    .pick = tl_rr_pick,
};
