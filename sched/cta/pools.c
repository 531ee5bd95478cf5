/* sched/cta/pools.c — contiguous per-group CTA pools placed in blocks
 * (sched/cta/pools.h documents the rules and the choices for the seed's
 * gaps). */
#include "sched/cta/pools.h"

#include <stdlib.h>
#include <string.h>

void pools_init(cta_pools *p, const char *name, const sched_env *env, bool by_cluster,
                uint32_t block, bool steal)
{
    uint32_t per = by_cluster && env->sms_per_cluster ? env->sms_per_cluster : env->nsms;
    p->name = name;
    p->nsms = env->nsms;
    p->ngroups = (env->nsms + per - 1) / per;
    p->block = block ? block : 1;
    p->steal = steal;
    p->group = calloc(env->nsms, sizeof *p->group);
    p->sm = calloc(env->nsms, sizeof *p->sm);
    p->closed = calloc(p->ngroups, sizeof *p->closed);
    if (!p->group || !p->sm || !p->closed)
        abort();
    /* the driver numbers SMs cluster by cluster (cluster = sm / per) */
    for (uint32_t s = 0; s < env->nsms; s++)
        p->group[s] = s / per;
}

void pools_destroy(cta_pools *p)
{
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS; i++)
        free(p->k[i].pool);
    free(p->group);
    free(p->sm);
    free(p->closed);
}

static pools_kernel *find_kernel(cta_pools *p, uint32_t kernel)
{
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS; i++)
        if (p->k[i].used && p->k[i].kernel == kernel)
            return &p->k[i];
    return NULL;
}

/* Splits `total` CTAs into contiguous pools; the first total mod G pools
 * hold one more. */
static pools_kernel *add_kernel(cta_pools *p, uint32_t kernel, uint32_t total)
{
    pools_kernel *k = NULL;
    for (uint32_t i = 0; i < SCHED_MAX_KERNELS && !k; i++)
        if (!p->k[i].used)
            k = &p->k[i];
    if (!k)
        return NULL;
    if (!k->pool) {
        k->pool = calloc(p->ngroups, sizeof *k->pool);
        if (!k->pool)
            abort();
    }
    k->used = true;
    k->kernel = kernel;
    k->split = k->tail = total;
    uint32_t base = total / p->ngroups, extra = total % p->ngroups, lo = 0;
    for (uint32_t g = 0; g < p->ngroups; g++) {
        uint32_t n = base + (g < extra);
        k->pool[g] = (cta_pool){lo, lo + n};
        lo += n;
    }
    return k;
}

void pools_kernel_arrive(cta_pools *p, const sched_kernel_info *k)
{
    if (!find_kernel(p, k->id))
        add_kernel(p, k->id, k->total_ctas);
}

void pools_kernel_finish(cta_pools *p, const sched_kernel_info *k)
{
    pools_kernel *pk = find_kernel(p, k->id);
    if (pk)
        pk->used = false;
    for (uint32_t s = 0; s < p->nsms; s++)
        if (p->sm[s].left && p->sm[s].kernel == k->id)
            p->sm[s].left = 0;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* Room an SM needs before it starts a block: a whole block, or all the
 * CTAs it can hold when that is fewer. */
static uint32_t block_room(const cta_pools *p, const sched_cta_view *v, uint32_t s)
{
    uint32_t cap = v->max_fit ? v->max_fit : 1;
    const sched_cta_sm_view *sv = &v->sms[s];
    if (sv->limit != SCHED_NO_LIMIT)
        cap = min_u32(cap, sv->limit);
    if (sv->sm->limit != SCHED_NO_LIMIT)
        cap = min_u32(cap, sv->sm->limit);
    return min_u32(p->block, cap ? cap : 1);
}

/* Where group g's SMs take their next block from: its own pool, the
 * appended CTAs, or (steal) the fullest other pool.  False: nowhere. */
static bool source(const cta_pools *p, const pools_kernel *k, uint32_t total, uint32_t g,
                   uint32_t block, pools_pick *out)
{
    const cta_pool *own = &k->pool[g];
    if (own->next < own->hi) {
        out->pool = (int32_t)g;
        out->stolen = false;
        out->cta = own->next;
        out->count = min_u32(block, own->hi - own->next);
        return true;
    }
    if (k->tail < total) {
        out->pool = -1;
        out->stolen = false;
        out->cta = k->tail;
        out->count = min_u32(block, total - k->tail);
        return true;
    }
    uint32_t best = 0;
    int32_t victim = -1;
    for (uint32_t o = 0; o < p->ngroups; o++)
        if ((p->steal || p->closed[o]) && k->pool[o].hi - k->pool[o].next > best) {
            best = k->pool[o].hi - k->pool[o].next;
            victim = (int32_t)o;
        }
    if (victim < 0)
        return false;
    out->pool = victim;
    out->stolen = true;
    out->count = min_u32(block, best);
    out->cta = k->pool[victim].hi - out->count;
    return true;
}

int32_t pools_place(cta_pools *p, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    pools_kernel *k = find_kernel(p, v->kernel);
    if (!k)
        k = add_kernel(p, v->kernel, v->total_ctas);
    if (!k)
        return -1;
    /* groups none of whose SMs takes CTAs (gated, paused or draining by a
     * policy): their pools are open to the others, or they would starve */
    for (uint32_t g = 0; g < p->ngroups; g++)
        p->closed[g] = true;
    for (uint32_t s = 0; s < p->nsms; s++) {
        const sched_sm_view *sv = v->sms[s].sm;
        if (!sv->gated && !sv->paused && !sv->draining)
            p->closed[p->group[s]] = false;
    }
    /* a block's reserved CTAs first: their SM took the block's first */
    for (uint32_t s = 0; s < p->nsms; s++)
        if (p->sm[s].left && p->sm[s].kernel == v->kernel && v->sms[s].eligible) {
            if (c->trace)
                snprintf(why, SCHED_WHY_LEN, "CTA %u of the block started by CTA %u",
                         p->sm[s].next, p->sm[s].next - 1);
            return (int32_t)s;
        }
    uint32_t start = p->any ? p->last + 1 : 0;
    for (uint32_t i = 0; i < p->nsms; i++) {
        uint32_t s = (start + i) % p->nsms;
        if (!v->sms[s].eligible || p->sm[s].left)
            continue;
        uint32_t room = block_room(p, v, s);
        if (v->sms[s].fit < room)
            continue; /* a block waits until the SM has room for all of it */
        pools_pick src;
        if (!source(p, k, v->total_ctas, p->group[s], room, &src))
            continue;
        if (c->trace) {
            if (src.pool < 0)
                snprintf(why, SCHED_WHY_LEN, "group %u: appended CTAs from %u", p->group[s],
                         src.cta);
            else
                snprintf(why, SCHED_WHY_LEN, "group %u %s pool %d: CTAs %u..%u left, %u free",
                         p->group[s], src.stolen ? "steals from" : "own", src.pool,
                         k->pool[src.pool].next, k->pool[src.pool].hi - 1, v->sms[s].fit);
        }
        return (int32_t)s;
    }
    return -1;
}

uint32_t pools_pick_cta(cta_pools *p, const sched_cta_view *v, uint32_t sm)
{
    pools_kernel *k = find_kernel(p, v->kernel);
    p->pick.valid = false;
    if (!k || sm >= p->nsms)
        return SCHED_NONE;
    pools_pick pk = {.valid = true, .kernel = v->kernel, .sm = sm};
    if (p->sm[sm].left && p->sm[sm].kernel == v->kernel) {
        pk.member = true;
        pk.cta = p->sm[sm].next;
    } else if (!source(p, k, v->total_ctas, p->group[sm], block_room(p, v, sm), &pk)) {
        return SCHED_NONE;
    }
    pk.valid = true;
    pk.kernel = v->kernel;
    pk.sm = sm;
    p->pick = pk;
    return pk.cta;
}

void pools_cta_issued(cta_pools *p, const sched_cta_event *e)
{
    p->last = e->sm;
    p->any = true;
    pools_pick *pk = &p->pick;
    if (!pk->valid || pk->sm != e->sm || pk->cta != e->cta || pk->kernel != e->kernel)
        return;
    pk->valid = false;
    pools_sm *s = &p->sm[e->sm];
    if (pk->member) {
        s->next++;
        s->left--;
        return;
    }
    pools_kernel *k = find_kernel(p, e->kernel);
    if (!k)
        return;
    if (pk->pool < 0)
        k->tail += pk->count;
    else if (pk->stolen)
        k->pool[pk->pool].hi -= pk->count;
    else
        k->pool[pk->pool].next += pk->count;
    s->kernel = e->kernel;
    s->next = e->cta + 1;
    s->left = pk->count - 1;
}
