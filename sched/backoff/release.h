/* sched/backoff/release.h — the release rule the spin policies share
 * (greedy, ddos): which backed-off warp may issue when a scheduler has
 * nothing else to issue.
 *
 * The seed (Nayak et al. §2) lets a backed-off warp issue only when all
 * warps are backed off, and leaves open which one goes then.  Here the
 * rule is literal: the driver asks when no warp of the scheduler can issue
 * and some are backed off; we release one only if every live warp of the
 * scheduler (not empty, not done) is backed off.  A warp waiting at a CTA
 * barrier or on memory counts as live and not backed off, so it holds the
 * backed-off warps until their backoff ends or it leaves that state.
 * Which one goes is the policy's `release` key:
 *   0  oldest   the backed-off warp launched first (smallest age)
 *   1  soonest  the one whose backoff ends first (ties: oldest) */
#ifndef PTXEMU_SCHED_BACKOFF_RELEASE_H
#define PTXEMU_SCHED_BACKOFF_RELEASE_H

#include "sched/sched.h"

#include <stdio.h>

enum { BACKOFF_RELEASE_OLDEST = 0, BACKOFF_RELEASE_SOONEST = 1 };

/* until[slot]: the backoff end the policy returned for the warp in that SM
 * warp slot.  Returns the view index to release, or -1. */
static inline int32_t backoff_release_pick(uint32_t rule, const uint64_t *until,
                                           const sched_warp_view *views, uint32_t n,
                                           bool trace, char *why)
{
    int32_t best = -1;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t s = views[i].state;
        if (s == SCHED_WS_EMPTY || s == SCHED_WS_DONE)
            continue;
        if (s != SCHED_WS_BACKOFF)
            return -1; /* a live warp that is not backed off: nobody goes */
        if (best < 0) {
            best = (int32_t)i;
            continue;
        }
        const sched_warp_view *b = &views[best], *v = &views[i];
        bool better = v->age < b->age;
        if (rule == BACKOFF_RELEASE_SOONEST && until[v->slot] != until[b->slot])
            better = until[v->slot] < until[b->slot];
        if (better)
            best = (int32_t)i;
    }
    if (best >= 0 && trace)
        snprintf(why, SCHED_WHY_LEN, "all warps backed off; %s (age %llu)",
                 rule == BACKOFF_RELEASE_SOONEST ? "soonest end" : "oldest",
                 (unsigned long long)views[best].age);
    return best;
}

#endif
