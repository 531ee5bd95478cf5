/* sched/filter/onac.c — ONAC (thesis §4.4.2): finds how many cores to keep
 * powered from two-point IPC estimates, then drains and gates the rest;
 * CTAs go only to the cores left on.  The machine and the driver are in
 * sched/filter/core_count.c (shared with Seq-Det). */
#include "sched/filter/core_count.h"

static void onac_init(void *st, const sched_env *env)
{
    cc_init(st, CC_ONAC, env, env->keys->onac_waves, env->keys->onac_target,
            env->keys->onac_warmup);
}

const sched_filter_ops sched_filter_onac = {
    .h = {.name = "onac",
          .sample_refuse = "onac gates cores by IPC samples taken over the whole launch: the cores "
                           "left on, and so the cycles, depend on when each decision falls",
          .summary = "ONAC: detects the core count within 2% of all-cores IPC by two-point "
                     "estimates; drains and gates the other cores (thesis ch. 4)",
          .state_size = sizeof(cc_state),
          .init = onac_init,
          .destroy = cc_destroy,
          .kernel_arrive = cc_kernel_arrive,
          .kernel_finish = cc_kernel_finish,
          .cta_finished = cc_cta_finished},
    .admit = cc_admit,
};
