/* sched/cta/global_rr.c — global (one-level) round-robin (ICC seed §4.1):
 * every SM of cluster 0, then of cluster 1, .., repeating for extra slots,
 * from the global pool in id order.  The driver numbers SMs cluster by
 * cluster, so the order is SM id order, starting after the SM that took
 * the last CTA (Fig. 6: C0 {0,4} {1,5}, C1 {2,6} {3,7}; after CTA 0
 * finishes CTA 8 goes to C0S0).  It places as `rr` does; it is its own
 * policy so the seed's five policies can be named and compared. */
#include "sched/sched.h"

#include <stdio.h>

typedef struct grr_state {
    uint32_t per;
    uint32_t last;
    bool any;
} grr_state;

static void grr_init(void *st, const sched_env *env)
{
    grr_state *s = st;
    s->per = env->sms_per_cluster ? env->sms_per_cluster : 1;
}

static int32_t grr_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    grr_state *s = st;
    uint32_t start = s->any ? s->last + 1 : 0;
    for (uint32_t i = 0; i < v->nsms; i++) {
        uint32_t sm = (start + i) % v->nsms;
        if (!v->sms[sm].eligible)
            continue;
        if (c->trace)
            snprintf(why, SCHED_WHY_LEN, "cluster %u, its SM %u", sm / s->per, sm % s->per);
        return (int32_t)sm;
    }
    return -1;
}

static void grr_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    grr_state *s = st;
    s->last = e->sm;
    s->any = true;
}

const sched_cta_ops sched_cta_grr = {
    .h = {.name = "grr",
          .summary = "global round-robin: every SM of a cluster, then the next cluster",
          .state_size = sizeof(grr_state), .init = grr_init, .cta_issued = grr_issued},
    .place = grr_place,
};
