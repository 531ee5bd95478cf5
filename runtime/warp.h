/* runtime/warp.h — one warp (runtime/warp.c): what its drivers call
 * (the functional launch, the timing model), the internals the family
 * handlers share (frames, calls, the reconvergence stack), and accessors
 * for the warp state the timing model reads. */
#ifndef PTXEMU_RUNTIME_WARP_H
#define PTXEMU_RUNTIME_WARP_H

#include "runtime/exec.h"

/* ---- driving a warp ---- */
void ex_warp_init(ex_warp *w, ex_launch *L, ex_cta *cta, uint32_t warp_id);
void ex_warp_destroy(ex_warp *w);
/* Zeroes the warp as a fresh one but keeps its host buffers (register
 * file, stack, SIMT arrays) for ex_warp_init to reuse. */
void ex_warp_scrub(ex_warp *w);
/* Runs up to `budget` instructions; stops early at a barrier, exit or fault. */
void ex_warp_run(ex_warp *w, uint64_t budget);
/* The lanes of `mask` whose guard predicate of `in` holds (all of them
 * when it has none): the lanes that run it. */
uint32_t ex_warp_guard_mask(const ex_warp *w, const ex_instr *in, uint32_t mask);
/* The instruction the warp issues next, or NULL when it cannot run
 * (inline: the timing model asks for every warp it evaluates). */
static inline const ex_instr *ex_warp_next(const ex_warp *w)
{
    if (w->state != WARP_RUNNING || w->simt->len == 0)
        return NULL;
    uint32_t pc = g_array_index(w->simt, ex_simt, w->simt->len - 1).pc;
    return pc < w->fn->ninstrs ? &w->code[pc] : NULL;
}
/* Executes exactly one instruction; with `rec`, records its memory accesses
 * (rec->mask == 0 when it touched none). */
void ex_warp_step(ex_warp *w, ex_access *rec);
/* Stops a running warp (a run limit was reached): a fault at its current
 * instruction naming `why` and the loop it is in. */
void ex_warp_stop(ex_warp *w, const char *why);
/* Prints "ptxemu: warning: LOCATION: MESSAGE" on stderr, located like a
 * fault, once per launch (the first warning of the launch only). */
void ex_warn_once(ex_warp *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Reports a fault at the warp's current instruction for `lane` (-1: warp). */
void ex_fault(ex_warp *w, int lane, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* Generic or state-space address -> host pointer for `lane`; NULL + fault. */
uint8_t *ex_addr(ex_warp *w, const ex_instr *in, ex_space space, uint64_t addr,
                 unsigned size, int lane, bool write);
uint32_t ex_thread_linear(const ex_warp *w, unsigned lane);
/* What a timing model's record (w->rec) keeps of lane `lane` touching
 * `addr` in resolved `space`: ex_addr's record, shared with the warp-wide
 * fast paths of ld/st (runtime/exec_memory.c). */
static inline void ex_rec_lane(ex_warp *w, const ex_instr *in, uint8_t space, uint64_t addr,
                               unsigned size, unsigned lane, bool write)
{
    ex_access *r = w->rec;
    if (r->mask & (1u << lane)) {
        /* a second touch by the same lane: read-modify-write (atomics) */
        r->atomic = 1;
        r->write |= write;
        return;
    }
    r->mask |= 1u << lane;
    r->space = space;
    r->order = in ? in->order : 0;
    r->size = (uint16_t)size;
    r->write |= write;
    r->addr[lane] = addr;
    if (!r->instr) {
        r->instr = in;
        r->fn = w->fn;
    }
}

/* ---- internals of the executor ---- */
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

/* Lane l's bytes at offset `off` of the per-thread stack. */
static inline uint8_t *ex_lane_stack(ex_warp *w, unsigned l, uint32_t off)
{
    return w->stack + (gsize)l * w->stack_cap + off;
}

static inline ex_simt *ex_simt_top(ex_warp *w)
{
    return &g_array_index(w->simt, ex_simt, w->simt->len - 1);
}

/* ---- warp state the timing model reads (no side effects, no cost) ---- */
/* Whether the reconvergence stack has an entry: a pc to issue from (false
 * once every lane has exited). */
static inline bool ex_warp_has_pc(const ex_warp *w)
{
    return w->simt->len != 0;
}

/* The pc the warp issues from next, 0 when it has none. */
static inline uint32_t ex_warp_pc(const ex_warp *w)
{
    return w->simt->len ? g_array_index(w->simt, ex_simt, w->simt->len - 1).pc : 0;
}

/* The lanes active at that pc (before the guard), 0 when it has none. */
static inline uint32_t ex_warp_active(const ex_warp *w)
{
    return w->simt->len ? g_array_index(w->simt, ex_simt, w->simt->len - 1).mask : 0;
}

/* The pc of `in`, an instruction of the function the warp executes now
 * (ex_warp_next's result). */
static inline uint32_t ex_warp_pc_of(const ex_warp *w, const ex_instr *in)
{
    return (uint32_t)(in - w->code);
}

/* The function the warp executes now. */
static inline const ex_func *ex_warp_func(const ex_warp *w)
{
    return w->fn;
}

/* Register (or constant) slot `slot` of the current function, one value
 * per lane. */
static inline const uint64_t *ex_warp_reg(const ex_warp *w, uint32_t slot)
{
    return w->r[slot];
}

/* Where the current function's register window starts in the warp's
 * register stack (calls move it up): slot s is stack slot window + s. */
static inline uint32_t ex_warp_reg_window(const ex_warp *w)
{
    return (uint32_t)(w->r - w->rfile);
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
