/* timing/run_limits.h — stopping a timing run that has used up its cycle
 * budget (limits.max_cycles), with the location of a warp still running. */
#ifndef PTXEMU_TIMING_RUN_LIMITS_H
#define PTXEMU_TIMING_RUN_LIMITS_H

#include "timing/sm.h"

/* Faults the first running warp found on the SMs (kernel, CTA, warp, PC,
 * PTX line and the loop it is in), or when none is running (all wait for
 * memory or a barrier) records the message on launch `L` alone.  `now` is
 * the cycle it stops at: a ready warp (at most its unit busy) that has not issued for
 * more than half the budget is named as starved by its warp policy (a
 * lock holder that older spinning warps keep from issuing under GTO). */
void tm_limits_stop_cycles(tm_sm *const *sms, uint32_t nsms, ex_launch *L, uint64_t cycles,
                           uint64_t now);

/* The same for limits.max_seconds: the run took more than `seconds` of
 * wall-clock time. */
void tm_limits_stop_seconds(tm_sm *const *sms, uint32_t nsms, ex_launch *L, uint32_t seconds);

#endif
