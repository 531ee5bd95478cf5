/* sched/cta/laperm_adaptive.c — LaPerm's Adaptive-Bind TB scheduler (Wang et al.
 * 2016, SEED-TARGETS §6); the engine and its rules: sched/cta/laperm.h. */
#include "sched/cta/laperm.h"

static void adaptive_init(void *st, const sched_env *env)
{
    laperm_init(st, LAPERM_ADAPTIVE, "laperm-adaptive", env);
}

static void adaptive_destroy(void *st)
{
    laperm_destroy(st);
}

static void adaptive_order(void *st, const sched_ctl *c, const sched_kernel_view *v,
                       sched_kernel_decision *out)
{
    laperm_order_kernels(st, c, v, out);
}

static int32_t adaptive_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    return laperm_place(st, c, v, why);
}

static uint32_t adaptive_pick(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm)
{
    (void)c, (void)v;
    return laperm_pick_cta(st, sm);
}

static void adaptive_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    laperm_cta_issued(st, e);
}

const sched_cta_ops sched_cta_laperm_adaptive = {
    .h = {.name = "laperm-adaptive",
          .summary = "Adaptive-Bind: own queues, then level-0 parents, then a remembered backup SMX's queues",
          .state_size = sizeof(laperm), .init = adaptive_init, .destroy = adaptive_destroy,
          .cta_issued = adaptive_issued},
    .place = adaptive_place,
    .pick_cta = adaptive_pick,
    .order_kernels = adaptive_order,
};
