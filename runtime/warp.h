/* runtime/warp.h — warp internals shared by the executor's families:
 * frames, calls and the reconvergence stack. */
#ifndef PTXEMU_RUNTIME_WARP_H
#define PTXEMU_RUNTIME_WARP_H

#include "runtime/exec.h"

void ex_warp_enter(ex_warp *w, const ex_func *f);
/* Pushes a zeroed per-thread frame of `size` bytes; sets w->fp. */
bool ex_frame_push(ex_warp *w, uint32_t size);
/* Pops empty or reconverged entries and finished calls. */
void ex_simt_settle(ex_warp *w);
/* Lanes leave the kernel (exit): removed from every entry. */
void ex_simt_remove_lanes(ex_warp *w, uint32_t lanes);
/* Lanes leave the current function (ret or falling off its end). */
void ex_do_return(ex_warp *w, uint32_t lanes);
/* All lanes of the innermost call have returned: back to the caller. */
void ex_call_return(ex_warp *w);

/* Runs up to `budget` instructions on the SIMT stack (no ITS settling). */
void ex_warp_run_stack(ex_warp *w, uint64_t budget);
/* Runs k instructions that ex_func.straight vouches for (no control, no
 * wait) from the stack top's pc. */
void ex_warp_run_plain(ex_warp *w, uint32_t k);
/* The ITS driver: one instruction of the issuing group at a time. */
void ex_its_run(ex_warp *w, uint64_t budget);

/* Lane l's bytes at offset `off` of the per-thread stack. */
static inline uint8_t *ex_lane_stack(ex_warp *w, unsigned l, uint32_t off)
{
    return w->stack + (gsize)l * w->stack_cap + off;
}

static inline ex_simt *ex_simt_top(ex_warp *w)
{
    return &g_array_index(w->simt, ex_simt, w->simt->len - 1);
}

/* What independent thread scheduling compares to see whether memory
 * changed since it last looked (runtime/its.c): the launch's progress
 * mark, plus, for a timing CTA running on its own launch copy, the
 * timing model's count of cycles in which some other CTA changed memory
 * (progress elsewhere becomes visible at the next cycle). */
static inline uint64_t ex_progress_mark(const ex_launch *L)
{
    return L->last_progress + (L->progress_epoch ? *L->progress_epoch : 0);
}

/* Records that memory changed: resets the launch's livelock clock. */
static inline void ex_mark_progress(ex_warp *w)
{
    w->launch->last_progress = w->launch->clock;
}

#endif
