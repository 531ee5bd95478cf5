/* sched/l1/sched_order.c — the baseline L1 port policy: when the L1 (or the
 * memory system behind it) refused requests of several warp schedulers,
 * they retry in scheduler order, scheduler 0 first. */
#include "sched/sched.h"

static uint32_t order_pick(void *st, const sched_ctl *c, const sched_l1_req *q, uint32_t n)
{
    (void)st;
    (void)c;
    uint32_t best = 0;
    for (uint32_t i = 1; i < n; i++)
        if (q[i].scheduler < q[best].scheduler)
            best = i;
    return best;
}

const sched_l1_ops sched_l1_sched_order = {
    .h = {.name = "sched-order",
          .summary = "refused L1 requests retry in warp-scheduler order"},
    .pick = order_pick,
};
