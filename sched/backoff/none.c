/* sched/backoff/none.c — the baseline backoff level: no spin detection, so
 * no warp is ever backed off (and none ever needs releasing). */
#include "sched/sched.h"

static uint64_t none_observe(void *st, const sched_ctl *c, const sched_issue *e, char *why)
{
    (void)st;
    (void)c;
    (void)e;
    (void)why;
    return 0;
}

static int32_t none_release(void *st, const sched_warp_ctx *ctx, const sched_warp_view *views,
                            uint32_t n, char *why)
{
    (void)st;
    (void)ctx;
    (void)views;
    (void)n;
    (void)why;
    return -1;
}

const sched_backoff_ops sched_backoff_none = {
    .h = {.name = "none", .summary = "no spin detection: warps are never backed off"},
    .observe = none_observe,
    .release = none_release,
};
