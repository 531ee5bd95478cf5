/* sched/cta/greedy_cluster.c — greedy clustering (ICC seed §4.1): fill the
 * lowest-numbered cluster that has room, round-robin over its SMs, before
 * any CTA goes to the next cluster; CTAs come from the global pool in id
 * order.  The driver gives an SM one CTA per cycle, so when the cluster
 * still has room but its SMs each took a CTA this cycle, nothing is placed
 * until the next cycle (rather than spilling to the next cluster).
 * Fig. 6: C0 {0,2} {1,3}, C1 {4,6} {5,7}; after CTA 0 finishes CTA 8 goes
 * to C0S0. */
#include "sched/sched.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct greedy_state {
    uint32_t per, clusters;
    uint32_t *last;          /* [clusters]: SM of the cluster served last */
    bool *any;               /* [clusters] */
} greedy_state;

static void greedy_init(void *st, const sched_env *env)
{
    greedy_state *s = st;
    s->per = env->sms_per_cluster ? env->sms_per_cluster : 1;
    s->clusters = env->nsms / s->per;
    s->last = calloc(s->clusters, sizeof *s->last);
    s->any = calloc(s->clusters, sizeof *s->any);
    if (!s->last || !s->any)
        abort();
}

static void greedy_destroy(void *st)
{
    greedy_state *s = st;
    free(s->last);
    free(s->any);
}

static int32_t greedy_place(void *st, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    greedy_state *s = st;
    for (uint32_t cl = 0; cl < s->clusters; cl++) {
        bool room = false;
        for (uint32_t i = 0; i < s->per; i++)
            room |= v->sms[cl * s->per + i].fit > 0;
        if (!room)
            continue;
        uint32_t start = s->any[cl] ? s->last[cl] + 1 : 0;
        for (uint32_t i = 0; i < s->per; i++) {
            uint32_t sm = cl * s->per + (start + i) % s->per;
            if (!v->sms[sm].eligible)
                continue;
            if (c->trace)
                snprintf(why, SCHED_WHY_LEN, "lowest cluster with room: %u, its SM %u", cl,
                         sm % s->per);
            return (int32_t)sm;
        }
        return -1; /* the cluster still has room: fill it next cycle */
    }
    return -1;
}

static void greedy_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    greedy_state *s = st;
    uint32_t cl = e->sm / s->per;
    if (cl < s->clusters) {
        s->last[cl] = e->sm % s->per;
        s->any[cl] = true;
    }
}

const sched_cta_ops sched_cta_greedy_cluster = {
    .h = {.name = "greedy-cluster",
          .summary = "greedy clustering: fill the lowest cluster with room before the next",
          .state_size = sizeof(greedy_state), .init = greedy_init, .destroy = greedy_destroy,
          .cta_issued = greedy_issued},
    .place = greedy_place,
};
