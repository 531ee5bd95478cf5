/* sched/fetch/fifo.c — the baseline fetch policy: warps whose instruction
 * buffer ran empty are refilled one per cycle in the order they emptied. */
#include "sched/sched.h"

static uint32_t fifo_pick(void *st, const sched_ctl *c, const sched_fetch_req *q, uint32_t n)
{
    (void)st;
    (void)c;
    (void)q;
    (void)n;
    return 0; /* the driver keeps the queue in arrival order */
}

const sched_fetch_ops sched_fetch_fifo = {
    .h = {.name = "fifo",
          .summary = "one warp per cycle gets its ibuffer filled, first come first served"},
    .pick = fifo_pick,
};
