/* sched/cta/distributed.c — distributed CTA scheduling (MCM-GPU; ICC seed
 * §4.1, the seed's baseline): the CTAs are split into equal contiguous
 * pools, one per cluster; each cluster's SMs take CTAs round-robin from its
 * own pool, also when a CTA finishes (Fig. 6: pools {0-4} {5-9}; C0 {0,2}
 * {1,3}, C1 {5,7} {6,8}; after CTA 0 finishes CTA 4 goes to C0).  The pool
 * engine, its split of n mod clusters and the `steal` key (default off: a
 * cluster whose pool is empty idles, as the seed's SRAD and BP imbalance
 * suggests) are in sched/cta/pools.h. */
#include "sched/cta/pools.h"

static void distributed_init(void *st, const sched_env *env)
{
    pools_init(st, "distributed", env, true, 1, env->keys->distributed_steal);
}

static void distributed_destroy(void *st)
{
    pools_destroy(st);
}

static void distributed_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    pools_kernel_arrive(st, k);
}

static void distributed_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)c;
    pools_kernel_finish(st, k);
}

static int32_t distributed_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    return pools_place(st, c, v, why);
}

static uint32_t distributed_pick(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm)
{
    (void)c;
    return pools_pick_cta(st, v, sm);
}

static void distributed_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    pools_cta_issued(st, e);
}

const sched_cta_ops sched_cta_distributed = {
    .h = {.name = "distributed",
          .summary = "distributed: equal contiguous CTA pools per cluster; a cluster refills from its own pool",
          .state_size = sizeof(cta_pools), .init = distributed_init, .destroy = distributed_destroy,
          .kernel_arrive = distributed_arrive, .kernel_finish = distributed_finish,
          .cta_issued = distributed_issued},
    .place = distributed_place,
    .pick_cta = distributed_pick,
};
