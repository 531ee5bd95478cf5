/* runtime/launch.h — the functional driver of a launch and the CTA
 * lifetime other drivers share (runtime/launch.c). */
#ifndef PTXEMU_RUNTIME_LAUNCH_H
#define PTXEMU_RUNTIME_LAUNCH_H

#include "runtime/exec.h"

bool ex_launch_run(ex_launch *L, GError **err);
/* CTA lifetime, for drivers that place CTAs themselves (the timing model):
 * starts CTA `linear` (ids, shared memory, warps) and frees it again. */
void ex_cta_begin(ex_launch *L, ex_cta *c, uint32_t linear);
void ex_cta_end(ex_cta *c);
/* The same for a CTA slot that keeps its host buffers (the warps' register
 * files, stacks and SIMT arrays, shared memory) from one CTA to the next:
 * `c` is zeroed or was left by ex_cta_finish, *warp_cap counts the warps
 * kept (0 at first); the CTA starts exactly as under ex_cta_begin.
 * ex_cta_finish ends it keeping the buffers; ex_cta_free frees them. */
void ex_cta_restart(ex_launch *L, ex_cta *c, uint32_t *warp_cap, uint32_t linear);
void ex_cta_finish(ex_cta *c);
void ex_cta_free(ex_cta *c, uint32_t warp_cap);
/* Adds the CTA's instruction counts to the launch once it is done. */
void ex_cta_account(ex_launch *L, const ex_cta *c);
/* Runs CTAs ids[0..n) of L to completion with the functional driver, in
 * that order and nothing else (the timing model's sampled simulation,
 * timing/sample.c, runs a launch's CTAs it did not simulate in detail);
 * counts go to L as ex_launch_run's do.  False when one faults (L->error). */
bool ex_launch_run_ctas(ex_launch *L, const uint32_t *ids, uint32_t n);

#endif
