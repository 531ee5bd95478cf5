/* sched/cta/rr.c — the baseline CTA scheduler: greedy round-robin.  Every
 * cycle, walking the SMs round-robin from the one after the last SM that
 * received a CTA, each SM with room takes the next CTA (GPGPU-Sim's
 * default; the baseline of the CLASO, ICC and thesis chapter 4 seeds). */
#include "sched/sched.h"

#include <stdio.h>

typedef struct rr_state {
    uint32_t last;   /* SM that received the last CTA */
    bool any;        /* a CTA was placed before */
} rr_state;

static int32_t rr_place(void *state, const sched_ctl *ctx, const sched_cta_view *v,
                        char *why)
{
    rr_state *s = state;
    uint32_t start = s->any ? s->last + 1 : 0;
    for (uint32_t k = 0; k < v->nsms; k++) {
        uint32_t sm = (start + k) % v->nsms;
        if (v->sms[sm].eligible) {
            if (ctx->trace) {
                if (s->any)
                    snprintf(why, SCHED_WHY_LEN, "first SM with room after SM %u", s->last);
                else
                    snprintf(why, SCHED_WHY_LEN, "first SM with room");
            }
            return (int32_t)sm;
        }
    }
    return -1;
}

static void rr_issued(void *state, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    rr_state *s = state;
    s->last = e->sm;
    s->any = true;
}

const sched_cta_ops sched_cta_rr = {
    .h = {.name = "rr",
          .summary = "greedy round-robin: the next SM with free resources takes the next CTA",
          .state_size = sizeof(rr_state), .cta_issued = rr_issued},
    .place = rr_place,
};
