/* sched/cta/laperm_tbpri.c — LaPerm's TB-Pri TB scheduler (Wang et al.
 * 2016, SEED-TARGETS §6); the engine and its rules: sched/cta/laperm.h. */
#include "sched/cta/laperm.h"

static void tbpri_init(void *st, const sched_env *env)
{
    laperm_init(st, LAPERM_TBPRI, "laperm-tbpri", env);
}

static void tbpri_destroy(void *st)
{
    laperm_destroy(st);
}

static void tbpri_order(void *st, const sched_ctl *c, const sched_kernel_view *v,
                       sched_kernel_decision *out)
{
    laperm_order_kernels(st, c, v, out);
}

static int32_t tbpri_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    return laperm_place(st, c, v, why);
}

static uint32_t tbpri_pick(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm)
{
    (void)c, (void)v;
    return laperm_pick_cta(st, sm);
}

static void tbpri_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    laperm_cta_issued(st, e);
}

const sched_cta_ops sched_cta_laperm_tbpri = {
    .h = {.name = "laperm-tbpri",
          .summary = "TB-Pri: priority levels 0..L (a child at its parent's level + 1); the highest waiting level first, FCFS within a level",
          .state_size = sizeof(laperm), .init = tbpri_init, .destroy = tbpri_destroy,
          .cta_issued = tbpri_issued},
    .place = tbpri_place,
    .pick_cta = tbpri_pick,
    .order_kernels = tbpri_order,
};
