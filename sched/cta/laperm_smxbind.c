/* sched/cta/laperm_smxbind.c — LaPerm's SMX-Bind TB scheduler (Wang et al.
 * 2016, SEED-TARGETS §6); the engine and its rules: sched/cta/laperm.h. */
#include "sched/cta/laperm.h"

static void smxbind_init(void *st, const sched_env *env)
{
    laperm_init(st, LAPERM_SMXBIND, "laperm-smxbind", env);
}

static void smxbind_destroy(void *st)
{
    laperm_destroy(st);
}

static void smxbind_order(void *st, const sched_ctl *c, const sched_kernel_view *v,
                       sched_kernel_decision *out)
{
    laperm_order_kernels(st, c, v, out);
}

static int32_t smxbind_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    return laperm_place(st, c, v, why);
}

static uint32_t smxbind_pick(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm)
{
    (void)c, (void)v;
    return laperm_pick_cta(st, sm);
}

static void smxbind_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    laperm_cta_issued(st, e);
}

const sched_cta_ops sched_cta_laperm_smxbind = {
    .h = {.name = "laperm-smxbind",
          .summary = "SMX-Bind: children queue on their parent's SMX, which serves its own queues before level-0 parents",
          .state_size = sizeof(laperm), .init = smxbind_init, .destroy = smxbind_destroy,
          .cta_issued = smxbind_issued},
    .place = smxbind_place,
    .pick_cta = smxbind_pick,
    .order_kernels = smxbind_order,
};
