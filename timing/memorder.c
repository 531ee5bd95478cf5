/* timing/memorder.c — what the PTX memory model asks of the non-coherent
 * per-SM caches (L1 data, constant).
 *
 * The L1s are not kept coherent with each other: another SM's store goes
 * to L2 and leaves old copies in this SM's L1.  So (PTX ISA, Memory
 * Consistency Model, and the ld/st cache operators):
 *  - a global load that may observe another SM's store must not be served
 *    from L1: ld.volatile (relaxed at system scope), ld.relaxed / ld.acquire
 *    at .cluster, .gpu or .sys scope, and the cache operators .cg (cache in
 *    L2 only) and .cv (do not cache, fetch again).  They read L2 and do not
 *    fill L1.  ld.weak, plain ld and strong loads at .cta scope may hit;
 *  - an acquire at a scope wider than the CTA also makes this SM's later
 *    weak loads see what was released before it: its clean global L1 lines
 *    are dropped (the hardware invalidates the L1 for the same reason);
 *  - a strong or .cg store reaches L2 before it is done being visible to
 *    others: under l1d.write_policy = write-back it is written through
 *    (and not allocated) instead;
 *  - atomics and reductions are performed at L2 already (memsys.c);
 *    With l1d.volatile_cached (GPGPU-Sim's model) ld.volatile is served
 *    by the L1 like a plain ld;
 *  - at a kernel boundary every SM's clean L1 and constant-cache lines go
 *    (the host or an earlier kernel may have written the data);
 *  - the clusters' coalesced caches (icc.mode = icc-cc; icc.h) are
 *    non-coherent in the same way: a store leaving the cluster invalidates
 *    its line there (memsys.c), and the acquire and kernel-boundary rules
 *    above drop their lines too (the SM's cluster's, every cluster's), so
 *    they never serve a line the L1 could not.
 * Fences keep their issue-latency meaning in the SM model; with
 * l1d.fence_invalidate (GPGPU-Sim's -gpgpu_flush_l1_cache) a fence also
 * drops the SM's clean L1 lines, like an acquire.  Functional
 * values never pass through here: only the timing of these accesses
 * changes. */
#include "timing/memsys_internal.h"

/* Order bits that keep a global load away from L1. */
#define ORD_BYPASS (EX_ORD_VOLATILE | EX_ORD_STRONG | EX_ORD_CG | EX_ORD_CV)
/* Order bits that make a global store write through to L2. */
#define ORD_WRITE_THROUGH (EX_ORD_VOLATILE | EX_ORD_STRONG | EX_ORD_CG)

unsigned ms_order_flags(const memsys *m, const ex_access *acc, unsigned flags)
{
    if (acc->space != EX_SPACE_GLOBAL || acc->order == 0)
        return flags;
    if (acc->atomic) {
        /* performed at L2 whatever its order; an acquire still refreshes L1 */
        return flags | ((acc->order & EX_ORD_ACQUIRE) ? MS_ACQUIRE : 0);
    }
    if (acc->write)
        return flags | ((acc->order & ORD_WRITE_THROUGH) ? MS_WRITE_THROUGH : 0);
    unsigned bypass = acc->order & ORD_BYPASS;
    if (m->cfg.l1d.volatile_cached) /* GPGPU-Sim: ld.volatile is a plain ld */
        bypass &= ~(unsigned)EX_ORD_VOLATILE;
    if (bypass)
        flags |= MEMSYS_BYPASS_L1;
    if (acc->order & EX_ORD_ACQUIRE)
        flags |= MS_ACQUIRE;
    return flags;
}

void ms_acquire(memsys *m, ms_sm *s)
{
    /* global lines only: local memory is private to the thread */
    s->ver++;
    s->n.l1_acquire_drops += cache_drop_clean(&s->l1, COAL_KPARAM_BASE >> m->l1_shift);
    if (m->icc_on) /* the cluster's: memsys_commit drops them */
        s->f.acq_icc = s->f.dirty = true;
}

void memsys_fence(memsys *m, uint32_t sm)
{
    if (m->cfg.l1d.fence_invalidate)
        ms_acquire(m, &m->sm[sm]);
}

void memsys_invalidate_l1(memsys *m)
{
    for (uint32_t i = 0; i < m->nsms; i++) {
        ms_sm *s = &m->sm[i];
        s->ver++;
        cache_drop_clean(&s->l1, CACHE_NO_KEY);
        cache_drop_clean(&s->cc, CACHE_NO_KEY);
    }
    for (uint32_t c = 0; m->icc_on && c < m->nclusters; c++)
        cache_drop_clean(&m->cl[c].icc.cc, CACHE_NO_KEY);
}
