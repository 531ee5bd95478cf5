/* runtime/barrier.h — completion of CTA barriers (runtime/barrier.c). */
#ifndef PTXEMU_RUNTIME_BARRIER_H
#define PTXEMU_RUNTIME_BARRIER_H

#include "runtime/exec.h"

/* Releases the warps waiting at barrier `id` of the CTA once every thread
 * it waits for has arrived, and resets the barrier. */
void ex_barrier_check(ex_cta *cta, uint32_t id);
/* Lanes exited: completes the barriers that no longer wait for them. */
void ex_lanes_exited(ex_warp *w, uint32_t lanes);

#endif
