/* sched/warp/lrr.c — loose round-robin: starting after the warp that issued
 * last, the first warp that can issue does (GPGPU-Sim's LRR, the baseline
 * RR of thesis chapter 3). */
#include "sched/sched.h"

#include <stdio.h>

typedef struct lrr_state {
    uint32_t last;   /* view index that issued last */
} lrr_state;

static void lrr_init(void *state, const sched_env *env)
{
    /* the first pick starts at view 0 */
    ((lrr_state *)state)->last = env->nslots ? env->nslots - 1 : 0;
}

static int32_t lrr_pick(void *state, const sched_warp_ctx *ctx,
                        const sched_warp_view *views, uint32_t n, char *why)
{
    lrr_state *s = state;
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t i = (s->last + k) % n;
        if (sched_ws_can_issue(views[i].state)) {
            if (ctx->trace)
                snprintf(why, SCHED_WHY_LEN, "next ready after slot %u",
                         views[s->last].slot);
            s->last = i;
            return (int32_t)i;
        }
    }
    return -1;
}

const sched_warp_ops sched_warp_lrr = {
    .h = {.name = "lrr", .summary = "loose round-robin over the ready warps",
          .state_size = sizeof(lrr_state), .init = lrr_init},
    .pick = lrr_pick,
};
