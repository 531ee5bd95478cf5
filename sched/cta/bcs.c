/* sched/cta/bcs.c — block CTA scheduling (Lee et al., HPCA 2014; the SM
 * level of distributed-block, ICC seed §5): one pool of all CTAs, no
 * clusters; blocks of `block` (default 2) consecutive CTAs go to one SM,
 * round-robin over the SMs, and an SM starts a new block only when it has
 * room for all of it.  Rules and gaps: sched/cta/pools.h. */
#include "sched/cta/pools.h"

static void bcs_init(void *st, const sched_env *env)
{
    pools_init(st, "bcs", env, false, env->keys->bcs_block, false);
}

static void bcs_destroy(void *st)
{
    pools_destroy(st);
}

static void bcs_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    pools_kernel_arrive(st, k);
}

static void bcs_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    pools_kernel_finish(st, k);
}

static int32_t bcs_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    return pools_place(st, c, v, why);
}

static uint32_t bcs_pick(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm)
{
    (void)c;
    return pools_pick_cta(st, v, sm);
}

static void bcs_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    pools_cta_issued(st, e);
}

const sched_cta_ops sched_cta_bcs = {
    .h = {.name = "bcs",
          .summary = "block CTA scheduling (Lee et al.): pairs of consecutive CTAs to one SM once it has two free slots",
          .state_size = sizeof(cta_pools), .init = bcs_init, .destroy = bcs_destroy,
          .kernel_arrive = bcs_arrive, .kernel_finish = bcs_finish,
          .cta_issued = bcs_issued},
    .place = bcs_place,
    .pick_cta = bcs_pick,
};
