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
/* Adds the CTA's instruction counts to the launch once it is done. */
void ex_cta_account(ex_launch *L, const ex_cta *c);

#endif
