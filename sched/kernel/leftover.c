/* sched/kernel/leftover.c — left-over concurrent-kernel policy: kernels run
 * first come, first served; a kernel may place CTAs only once every earlier
 * kernel has placed all of its CTAs, so it uses whatever they leave over
 * (thesis §5.3; the policy of GPGPU-Sim and current GPUs). */
#include "sched/sched.h"

#include <stdio.h>

static void leftover_decide(void *state, const sched_ctl *ctx,
                            const sched_kernel_view *v, sched_kernel_decision *out)
{
    (void)state;
    (void)ctx;
    out->count = 0;
    for (uint32_t i = 0; i < v->nkernels && out->count < SCHED_MAX_KERNELS; i++) {
        const sched_kernel_info *k = &v->kernels[i];
        if (k->issued < k->total_ctas) {
            /* the oldest kernel with CTAs left; later ones wait for it */
            out->order[out->count++] = i;
            break;
        }
    }
}

const sched_kernel_ops sched_kernel_leftover = {
    .h = {.name = "leftover",
          .summary = "first come, first served; the next kernel starts once every CTA "
                     "of the previous one is placed"},
    .decide = leftover_decide,
};
