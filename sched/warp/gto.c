/* sched/warp/gto.c — greedy-then-oldest: keep issuing from the warp that
 * issued last while it can; otherwise the oldest ready warp (smallest
 * launch order) takes over (Rogers et al., the GTO of thesis chapter 3). */
#include "sched/sched.h"

#include <stdio.h>

typedef struct gto_state {
    int32_t last;    /* view index of the greedy warp, -1 none */
    uint64_t age;    /* its age, to notice a new warp in the same slot */
} gto_state;

static void gto_init(void *state, const sched_env *env)
{
    (void)env;
    ((gto_state *)state)->last = -1;
}

static int32_t gto_pick(void *state, const sched_warp_ctx *ctx,
                        const sched_warp_view *views, uint32_t n, char *why)
{
    gto_state *s = state;
    if (s->last >= 0 && (uint32_t)s->last < n && views[s->last].age == s->age &&
        sched_ws_can_issue(views[s->last].state)) {
        if (ctx->trace)
            snprintf(why, SCHED_WHY_LEN, "greedy");
        return s->last;
    }
    int32_t best = -1;
    for (uint32_t i = 0; i < n; i++)
        if (sched_ws_can_issue(views[i].state) &&
            (best < 0 || views[i].age < views[best].age))
            best = (int32_t)i;
    if (best >= 0) {
        if (ctx->trace)
            snprintf(why, SCHED_WHY_LEN, "oldest ready (age %llu)",
                     (unsigned long long)views[best].age);
        s->last = best;
        s->age = views[best].age;
    }
    return best;
}

const sched_warp_ops sched_warp_gto = {
    .h = {.name = "gto",
          .summary = "greedy-then-oldest: the last warp while it is ready, else the oldest",
          .state_size = sizeof(gto_state), .init = gto_init},
    .pick = gto_pick,
};
