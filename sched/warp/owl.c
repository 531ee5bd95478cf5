/* sched/warp/owl.c — CTA-aware two-level scheduling, the OWL baseline of
 * CLASO's Fig. 13 (Jog et al., ASPLOS 2013), modelled as its CTA-aware
 * part only: the warps of a scheduler are grouped by CTA (owl.group_ctas
 * consecutive CTAs of a kernel per group); one group has priority and
 * issues, round robin among its warps, for as long as one of its warps can
 * issue.  When none can (the group stalls), priority moves to the next
 * group, in (kernel, group) order cyclically, that has a warp able to
 * issue.  OWL's locality, bank-level-parallelism and prefetching parts are
 * not modelled; this is a baseline, not a seed result. */
#include "sched/sched.h"

#include <stdio.h>

typedef struct owl_state {
    uint32_t group_ctas;
    uint64_t group;    /* the prioritised group's key; UINT64_MAX: none yet */
    uint32_t last;     /* view index that issued last (RR inside a group) */
} owl_state;

static void owl_init(void *state, const sched_env *env)
{
    owl_state *s = state;
    s->group_ctas = env->keys->owl_group_ctas ? env->keys->owl_group_ctas : 1;
    s->group = UINT64_MAX;
    s->last = env->nslots ? env->nslots - 1 : 0;
}

static uint64_t group_of(const owl_state *s, const sched_warp_view *v)
{
    return ((uint64_t)v->kernel << 32) | (v->cta / s->group_ctas);
}

/* Round robin inside group g from the warp after the last one; -1 if no
 * warp of g can issue. */
static int32_t rr_in(const owl_state *s, const sched_warp_view *views, uint32_t n, uint64_t g)
{
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t i = (s->last + k) % n;
        if (sched_ws_can_issue(views[i].state) && group_of(s, &views[i]) == g)
            return (int32_t)i;
    }
    return -1;
}

static int32_t owl_pick(void *state, const sched_warp_ctx *ctx,
                        const sched_warp_view *views, uint32_t n, char *why)
{
    owl_state *s = state;
    int32_t i = s->group == UINT64_MAX ? -1 : rr_in(s, views, n, s->group);
    bool moved = false;
    if (i < 0) {
        /* the prioritised group stalled: the next group that can issue */
        uint64_t after = UINT64_MAX, first = UINT64_MAX;
        for (uint32_t v = 0; v < n; v++) {
            if (!sched_ws_can_issue(views[v].state))
                continue;
            uint64_t g = group_of(s, &views[v]);
            if (g < first)
                first = g;
            if ((s->group == UINT64_MAX || g > s->group) && g < after)
                after = g;
        }
        uint64_t next = after != UINT64_MAX ? after : first;
        if (next == UINT64_MAX)
            return -1;
        s->group = next;
        moved = true;
        i = rr_in(s, views, n, next);
    }
    if (i >= 0) {
        s->last = (uint32_t)i;
        if (ctx->trace)
            snprintf(why, SCHED_WHY_LEN, "%sgroup kernel %u CTA %u..%u", moved ? "new " : "",
                     (unsigned)(s->group >> 32),
                     (unsigned)(s->group & 0xffffffffu) * s->group_ctas,
                     (unsigned)(s->group & 0xffffffffu) * s->group_ctas + s->group_ctas - 1);
    }
    return i;
}

const sched_warp_ops sched_warp_owl = {
    .h = {.name = "owl",
          .summary = "CTA-aware two-level (OWL baseline): one CTA group issues until it stalls",
          .state_size = sizeof(owl_state), .init = owl_init},
    .pick = owl_pick,
};
