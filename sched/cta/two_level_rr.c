/* sched/cta/two_level_rr.c — two-level round-robin (ICC seed §2.3, §4.1;
 * the seed's baseline): one CTA per cluster, then the next SM of each
 * cluster, repeating for extra slots.  SMs are offered CTAs in the order
 * C0S0, C1S0, .., C0S1, C1S1, .. starting after the position of the SM
 * that took the last CTA; CTAs come from the global pool in id order, so a
 * finished CTA's slot takes the next CTA of the kernel (Fig. 6: 10 CTAs,
 * 2 clusters x 2 SMs x 2 slots -> C0 {0,4} {2,6}, C1 {1,5} {3,7}; after
 * CTA 0 finishes CTA 8 goes to C0S0). */
#include "sched/sched.h"

#include <stdio.h>

typedef struct lrr2_state {
    uint32_t per, clusters;  /* SMs per cluster, clusters */
    uint32_t last;           /* position (in the interleaved order) of the last SM served */
    bool any;
} lrr2_state;

static void lrr2_init(void *st, const sched_env *env)
{
    lrr2_state *s = st;
    s->per = env->sms_per_cluster ? env->sms_per_cluster : 1;
    s->clusters = env->nsms / s->per;
}

/* The SM at position j of the interleaved order. */
static uint32_t lrr2_sm(const lrr2_state *s, uint32_t j)
{
    return (j % s->clusters) * s->per + j / s->clusters;
}

static int32_t lrr2_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    lrr2_state *s = st;
    uint32_t start = s->any ? s->last + 1 : 0;
    for (uint32_t i = 0; i < v->nsms; i++) {
        uint32_t j = (start + i) % v->nsms, sm = lrr2_sm(s, j);
        if (!v->sms[sm].eligible)
            continue;
        if (c->trace)
            snprintf(why, SCHED_WHY_LEN, "cluster %u, its SM %u", j % s->clusters,
                     j / s->clusters);
        return (int32_t)sm;
    }
    return -1;
}

static void lrr2_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    lrr2_state *s = st;
    uint32_t cl = e->sm / s->per, idx = e->sm % s->per;
    s->last = idx * s->clusters + cl;
    s->any = true;
}

const sched_cta_ops sched_cta_2lrr = {
    .h = {.name = "2lrr",
          .summary = "two-level round-robin: across clusters first, then across the SMs of "
                     "each cluster (ICC seed baseline)",
          .state_size = sizeof(lrr2_state), .init = lrr2_init, .cta_issued = lrr2_issued},
    .place = lrr2_place,
};
