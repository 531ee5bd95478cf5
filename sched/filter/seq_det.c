/* sched/filter/seq_det.c — Seq-Det (the thesis's version of Song et al.,
 * §4.4): removes one core per sample while IPC stays within 2% of the
 * all-cores IPC, and returns to N when N-1 misses it; the cores off are
 * drained and gated.  The machine and the driver are in
 * sched/filter/core_count.c (shared with ONAC). */
#include "sched/filter/core_count.h"

static void seq_det_init(void *st, const sched_env *env)
{
    cc_init(st, CC_SEQ_DET, env, env->keys->seq_det_waves, env->keys->seq_det_target,
            env->keys->seq_det_warmup);
}

const sched_filter_ops sched_filter_seq_det = {
    .h = {.name = "seq-det",
          .sample_refuse = "seq-det removes cores one IPC sample at a time over the whole launch: "
                           "the cores left on, and so the cycles, depend on when each decision falls",
          .summary = "Seq-Det: removes one core per IPC sample until N-1 misses 98% of the "
                     "all-cores IPC; drains and gates the other cores (thesis ch. 4)",
          .state_size = sizeof(cc_state),
          .init = seq_det_init,
          .destroy = cc_destroy,
          .kernel_arrive = cc_kernel_arrive,
          .kernel_finish = cc_kernel_finish,
          .cta_finished = cc_cta_finished},
    .admit = cc_admit,
};
