/* frontend/spin.h — setp-spin candidates (spin seed §1.3, §2; DDOS of
 * ElTantawy & Aamodt as summarised there).
 *
 * A spin loop re-executes a setp whose operands come round unchanged while
 * the warp waits for another thread.  This pass finds, statically, the
 * setps a runtime spin detector should watch:
 *
 * 1. Loops that talk to other threads: the natural loop (or a loop nested in
 *    it) contains an atomic/reduction, a volatile, `.cv`, `.relaxed` or
 *    `.acquire` load, a global/shared/generic load of a space the loop also
 *    writes (store, atomic), or a load that polls a loop-invariant address
 *    (a location no instruction of the loop moves away from).  Loops with
 *    none of these are never reported.
 * 2. Deciding setps: the predicate of a guarded `bra` that is a back edge of
 *    the loop or leaves it, traced back through mov/not/and/or/xor.pred to
 *    the setp/set instructions of the loop that produce it.
 * 3. Guarding setps: a setp of the loop whose predicate selects what the
 *    deciding setps compare — it guards a branch whose region (up to the
 *    branch's immediate post-dominator) writes a register the exit
 *    condition depends on, or it predicates / selp-selects such a write.
 *    This is the "done flag" shape of the seed's Listing 2 (PC-184).
 * 4. Operands that can repeat: each compared operand is followed through
 *    its definitions inside the loop.  Values from loads and atomics of a
 *    fixed address, calls, constants and loop-invariant registers can
 *    repeat.  A value that depends on a register updated from its own
 *    previous value by arithmetic (`add r, r, 1`, or a cycle through several
 *    registers with one such step), on %clock/%globaltimer, or on a load
 *    whose address moves each iteration (a list walk rather than a poll)
 *    progresses, and the setp is rejected (counted loop).
 *
 * Each setp is reported once, for the innermost loop that qualifies. */
#ifndef PTXEMU_FRONTEND_SPIN_H
#define PTXEMU_FRONTEND_SPIN_H

#include "frontend/cfg.h"
#include "frontend/ir.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define PTX_SPIN_NONE UINT32_MAX

typedef enum ptx_spin_role {
    PTX_SPIN_BACK_EDGE,   /* its predicate decides a back edge to the header */
    PTX_SPIN_EXIT,        /* its predicate decides an edge leaving the loop */
    PTX_SPIN_GUARD,       /* its predicate selects the values the exit compares */
} ptx_spin_role;

/* How a loop may communicate with other threads (ptx_spin_loop.mem). */
enum {
    PTX_SPIN_MEM_ATOMIC = 1u << 0,     /* atom / red */
    PTX_SPIN_MEM_VOLATILE = 1u << 1,   /* ld.volatile, ld.cv, ld.relaxed, ld.acquire */
    PTX_SPIN_MEM_SHARED_RW = 1u << 2,  /* load of a space the loop also writes */
    PTX_SPIN_MEM_POLL = 1u << 3,       /* load of a loop-invariant address */
};
#define PTX_SPIN_MEM_KINDS 4

/* Where a compared operand's value comes from (ptx_spin_cand.opnds). */
enum {
    PTX_SPIN_OPND_INVARIANT = 1u << 0, /* register not written in the loop */
    PTX_SPIN_OPND_CONST = 1u << 1,     /* immediate or constant-only chain */
    PTX_SPIN_OPND_LOAD = 1u << 2,      /* ld/ldu/tex/suld or a call result */
    PTX_SPIN_OPND_ATOMIC = 1u << 3,    /* atom result */
    PTX_SPIN_OPND_SREG = 1u << 4,      /* special register other than a clock */
};
#define PTX_SPIN_OPND_KINDS 5

typedef struct ptx_spin_loop {
    uint32_t loop;             /* index into cfg->loops */
    unsigned mem;              /* PTX_SPIN_MEM_* */
    uint32_t mem_instr[PTX_SPIN_MEM_KINDS]; /* first evidence per kind, or NONE */
    uint32_t ncands;           /* candidates reported for this loop */
} ptx_spin_loop;

typedef struct ptx_spin_cand {
    uint32_t setp;             /* instruction index of the setp/set */
    uint32_t loop;             /* index into cfg->loops */
    ptx_spin_role role;
    uint32_t via;              /* BACK_EDGE/EXIT: the guarded bra; GUARD: the
                                  bra, predicated or selp instruction through
                                  which the predicate acts */
    uint32_t decides;          /* GUARD: the bra deciding the exit it feeds;
                                  else the same as via */
    unsigned mem;              /* the loop's PTX_SPIN_MEM_* */
    unsigned opnds;            /* union of PTX_SPIN_OPND_* over its operands */
    char *reason;              /* one line: role, loop evidence, operands */
} ptx_spin_cand;

typedef struct ptx_spin_info {
    const ptx_func *func;
    uint32_t ninstrs;
    bool *is_candidate;        /* per instruction */
    uint32_t *cand_of;         /* per instruction: index in cands, or NONE */
    GArray *cands;             /* ptx_spin_cand, in instruction order */
    GArray *loops;             /* ptx_spin_loop, one per cfg loop, same order */
} ptx_spin_info;

/* Runs the pass on the function of `cfg` (m names registers in reasons). */
ptx_spin_info *ptx_spin_analyze(const ptx_module *m, const ptx_cfg *cfg);
void ptx_spin_info_free(ptx_spin_info *si);

const char *ptx_spin_role_name(ptx_spin_role r);    /* "back-edge" ... */
const char *ptx_spin_mem_name(unsigned kind_bit);   /* "atomic" ... */
const char *ptx_spin_opnd_name(unsigned kind_bit);  /* "load" ... */

#endif
