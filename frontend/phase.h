/* frontend/phase.h — kernel phases (Awatramani thesis §3.3.1, §3.4.2.1).
 *
 * A phase is a run of consecutive instructions of one basic block none of
 * which reads a value that a long-latency instruction of the same phase
 * produced.  Phases are formed per block, top to bottom, with a set of
 * "long-op" registers (destinations of long-latency instructions issued in
 * the current phase): the first instruction that reads one of them starts a
 * new phase and empties the set; every block starts a new phase.  (Option
 * blocks=linear, ptx_phase_opts below: phases may span blocks and only the
 * long-op rule starts them.)
 *
 * Definitions (all in cycles of the latency table, isa/latency.h, as the
 * thesis's Tables 3.2/3.3 and §3.3.2 measure phases in cycles):
 *   latency(i)   the table latency of instruction i (issue latency for
 *                memory and control instructions, see isa/latency.h);
 *   length(P)    the sum of latency(i) over the instructions of phase P;
 *   distance(i)  the sum of latency(j) from i to the last instruction of its
 *                phase, both included: the first instruction's distance is
 *                the phase length and the last instruction's distance is its
 *                own latency (>= 1), the time it still needs to finish;
 *   next(P)      the phase that runs after P when no branch is taken: the
 *                next phase of the same block, else the first phase of the
 *                block's fall-through successor (the block after it when its
 *                last instruction is not an unconditional control transfer,
 *                the target of an unguarded bra, nothing after ret/exit/
 *                trap/brx or at the end of the function);
 *   next_length(i) length(next(phase(i))), 0 when there is no next phase.
 *
 * The result is plain arrays indexed by instruction or phase id so the
 * runtime can copy them into decoded kernels without re-running anything. */
#ifndef PTXEMU_FRONTEND_PHASE_H
#define PTXEMU_FRONTEND_PHASE_H

#include "frontend/cfg.h"
#include "frontend/ir.h"
#include "frontend/operands.h"
#include "isa/latency.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define PTX_PHASE_NONE UINT32_MAX

/* Why a phase starts where it does. */
typedef enum ptx_phase_start {
    PTX_PHASE_START_BLOCK,   /* first instruction of a basic block */
    PTX_PHASE_START_LONGOP,  /* reads a long-op register of the previous phase */
} ptx_phase_start;

typedef struct ptx_phase {
    uint32_t first;          /* first instruction index */
    uint32_t end;            /* one past the last instruction */
    uint32_t block;          /* basic block id */
    uint32_t length;         /* cycles */
    uint32_t next;           /* phase id of next(P), or PTX_PHASE_NONE */
    ptx_phase_start start;
    int32_t trigger_reg;     /* START_LONGOP: the long-op register read; -1 */
    uint32_t trigger_src;    /* START_LONGOP: the long-latency instruction
                                that produced it; PTX_PHASE_NONE */
} ptx_phase;

typedef struct ptx_phase_info {
    const ptx_func *func;
    uint32_t ninstrs;
    /* per instruction */
    uint32_t *phase_of;      /* phase id */
    uint32_t *distance;      /* cycles to the end of its phase */
    uint32_t *next_length;   /* length of next(phase_of[i]), 0 if none */
    uint32_t *latency;       /* latency(i) from the table */
    bool *is_long;           /* long-latency instruction (footnote 1) */
    /* per phase */
    uint32_t nphases;
    ptx_phase *phases;
    /* summary (Tables 3.2/3.3): 0 / PTX_PHASE_NONE when there is no phase */
    uint32_t longest, shortest;           /* cycles */
    uint32_t longest_phase, shortest_phase; /* ids (first one on ties) */
    uint32_t nlong;                       /* long-latency instructions */
} ptx_phase_info;

/* Two readings of the thesis that its text and its tables do not settle
 * (docs/experiments/phases-table33.md measures both):
 *   blocks  SPLIT: every basic block starts a new phase (§3.4.2.1 "In
 *           addition, each basic block starts a new phase", §3.6.2); the
 *           default.  LINEAR: only the long-op rule starts phases, over the
 *           whole function in instruction order, the long-op set carried
 *           across block boundaries (what Tables 3.2/3.3's 2-phase counts
 *           for kernels with loops imply).
 *   loads   OFFCHIP: loads of global, local, texture and generic memory
 *           are long, param/shared/const are not (in the thesis's PTXPlus
 *           those are operands, not loads); the default.  ALL: every ld/st
 *           is long, whatever its space (footnote 1 read literally on PTX). */
typedef enum ptx_phase_blocks {
    PTX_PHASE_BLOCKS_SPLIT,
    PTX_PHASE_BLOCKS_LINEAR,
} ptx_phase_blocks;

typedef enum ptx_phase_loads {
    PTX_PHASE_LOADS_OFFCHIP,
    PTX_PHASE_LOADS_ALL,
} ptx_phase_loads;

typedef struct ptx_phase_opts {
    ptx_phase_blocks blocks;
    ptx_phase_loads loads;
} ptx_phase_opts;

/* Choice names in enum order, NULL-terminated (config keys phase.blocks
 * and phase.loads, timing/config.h). */
extern const char *const ptx_phase_blocks_names[];
extern const char *const ptx_phase_loads_names[];
/* The defaults (SPLIT, OFFCHIP). */
void ptx_phase_opts_init(ptx_phase_opts *o);
/* Names for options and output: "split"/"linear", "offchip"/"all"; the
 * lookups return false on an unknown name. */
const char *ptx_phase_blocks_name(ptx_phase_blocks b);
const char *ptx_phase_loads_name(ptx_phase_loads l);
bool ptx_phase_blocks_lookup(const char *name, ptx_phase_blocks *out);
bool ptx_phase_loads_lookup(const char *name, ptx_phase_loads *out);

/* Runs the pass over the function of `cfg` with latency table `lat` (the
 * default table when NULL) and options `opts` (the defaults when NULL).
 * Never fails. */
ptx_phase_info *ptx_phase_analyze_opts(const ptx_cfg *cfg, const ptx_latency_table *lat,
                                       const ptx_phase_opts *opts);
/* ptx_phase_analyze_opts with the default options. */
ptx_phase_info *ptx_phase_analyze(const ptx_cfg *cfg,
                                  const ptx_latency_table *lat);
void ptx_phase_info_free(ptx_phase_info *pi);

/* Long-latency instructions, thesis §3.3.1 footnote 1: loads and stores of
 * global, local, texture/surface and generic memory (not param, shared or
 * const), atomics and reductions (any space), branches and other control
 * transfers (bra, brx, call, ret, exit), barriers, fences and other
 * synchronisation (bar, barrier, membar, fence, mbarrier, nanosleep...).
 * The opcode rows carry it (OPF_LONG, OPF_LONG_SPACE in isa/opcodes.def). */
bool ptx_instr_is_long_latency(const ptx_instr *in);
/* The same under `loads` (PTX_PHASE_LOADS_ALL: any space is long). */
bool ptx_instr_is_long_latency_opts(const ptx_instr *in, ptx_phase_loads loads);

/* Latency of one instruction under `lat` (default table when NULL). */
uint32_t ptx_instr_latency(const ptx_instr *in, const ptx_latency_table *lat);

#endif
