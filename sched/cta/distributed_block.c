/* sched/cta/distributed_block.c — distributed-block scheduling (ICC seed
 * §5): per-cluster pools as in distributed; within a cluster, blocks of
 * `block` (default 2) consecutive CTAs go to one SM, and an SM starts a
 * new block only when it has room for all of it (delayed mapping).  Fig. 6:
 * C0 {0,1} {2,3}, C1 {5,6} {7,8}; after CTA 0 finishes nothing is placed;
 * CTA 4 goes to C0S0 once CTAs 0 and 1 have both finished.  The driver
 * gives an SM one CTA per cycle, so a block's second CTA follows its
 * first one cycle later.  Gaps (pool split, stealing, odd slot counts):
 * sched/cta/pools.h. */
#include "sched/cta/pools.h"

static void distributed_block_init(void *st, const sched_env *env)
{
    pools_init(st, "distributed-block", env, true, env->keys->distributed_block_block, env->keys->distributed_block_steal);
}

static void distributed_block_destroy(void *st)
{
    pools_destroy(st);
}

static void distributed_block_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    pools_kernel_arrive(st, k);
}

static void distributed_block_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    pools_kernel_finish(st, k);
}

static int32_t distributed_block_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    return pools_place(st, c, v, why);
}

static uint32_t distributed_block_pick(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm)
{
    (void)c;
    return pools_pick_cta(st, v, sm);
}

static void distributed_block_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    pools_cta_issued(st, e);
}

const sched_cta_ops sched_cta_distributed_block = {
    .h = {.name = "distributed-block",
          .summary = "distributed-block: per-cluster pools as distributed; blocks of consecutive CTAs to one SM once it has room for a whole block",
          .state_size = sizeof(cta_pools), .init = distributed_block_init, .destroy = distributed_block_destroy,
          .kernel_arrive = distributed_block_arrive, .kernel_finish = distributed_block_finish,
          .cta_issued = distributed_block_issued},
    .place = distributed_block_place,
    .pick_cta = distributed_block_pick,
};
