/* sched/cta/pools.h — contiguous CTA pools, one per SM group, placed in
 * blocks of consecutive CTAs: the engine shared by the distributed,
 * distributed-block and bcs CTA policies (ICC seed §4.1 and §5).
 *
 * At a kernel's arrival its CTAs are split into one contiguous pool per
 * group (a cluster, or the whole GPU for bcs): the first n mod G groups get
 * one CTA more than the rest (CTAs 0..10 over 3 clusters: 0-3, 4-7, 8-10).
 * An SM takes CTAs only from its group's pool, `block` consecutive ones at
 * a time: the first of a block chooses the SM, the others are reserved for
 * it and follow as soon as the SM may take another CTA (the driver gives an
 * SM one CTA per cycle).  A new block starts on an SM only when it has room
 * for a whole block (min(block, CTAs the SM can hold of the kernel)), so
 * with an odd slot count the last slot waits until a second one frees.  A
 * block at the end of a pool is shorter (the pool's remainder) but still
 * waits for room for a whole block.  When a group's pool is empty its SMs
 * idle unless `steal` is on: they then take a block from the end of the
 * pool with the most CTAs left (ties: the lowest group), which keeps the
 * owner's next CTAs next to what it runs.  The pool of a group none of
 * whose SMs takes CTAs (gated, paused or draining by another policy) is
 * open to every group as if `steal` were on, so no CTA starves.  CTAs appended to a running
 * kernel after the split are placed in id order by any SM whose pool is
 * empty.  The order SMs are offered CTAs is round-robin over SM ids from
 * the one after the last SM that took a CTA, SMs with a reserved CTA first. */
#ifndef PTXEMU_SCHED_CTA_POOLS_H
#define PTXEMU_SCHED_CTA_POOLS_H

#include "sched/sched.h"

typedef struct cta_pool {
    uint32_t next, hi;           /* unplaced CTAs of the pool: [next, hi) */
} cta_pool;

typedef struct pools_kernel {
    bool used;
    uint32_t kernel;             /* launch id */
    uint32_t split;              /* CTAs split into the pools */
    uint32_t tail;               /* next appended CTA (ids >= split) */
    cta_pool *pool;              /* [ngroups] */
} pools_kernel;

typedef struct pools_sm {
    uint32_t kernel;             /* kernel of the reserved CTAs */
    uint32_t next, left;         /* reserved: CTAs next .. next+left-1 */
} pools_sm;

/* What the last pick_cta chose; cta_issued commits it. */
typedef struct pools_pick {
    bool valid, member;          /* member: a reserved CTA of a block */
    uint32_t kernel, sm, cta, count;
    int32_t pool;                /* pool taken from; -1: appended CTAs */
    bool stolen;                 /* taken from the end of another pool */
} pools_pick;

typedef struct cta_pools {
    const char *name;
    uint32_t nsms, ngroups, block;
    bool steal;
    uint32_t *group;             /* [nsms]: group of each SM */
    bool *closed;                /* [ngroups]: no SM of it takes CTAs now */
    pools_sm *sm;                /* [nsms] */
    uint32_t last;               /* SM that took the last CTA */
    bool any;
    pools_pick pick;
    pools_kernel k[SCHED_MAX_KERNELS];
} cta_pools;

/* by_cluster: one pool per cluster; otherwise one pool for the GPU. */
void pools_init(cta_pools *p, const char *name, const sched_env *env, bool by_cluster,
                uint32_t block, bool steal);
void pools_destroy(cta_pools *p);
void pools_kernel_arrive(cta_pools *p, const sched_kernel_info *k);
void pools_kernel_finish(cta_pools *p, const sched_kernel_info *k);
int32_t pools_place(cta_pools *p, const sched_ctl *c, const sched_cta_view *v, char *why);
uint32_t pools_pick_cta(cta_pools *p, const sched_cta_view *v, uint32_t sm);
void pools_cta_issued(cta_pools *p, const sched_cta_event *e);

#endif
