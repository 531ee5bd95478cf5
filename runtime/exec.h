/* runtime/exec.h — the data types of decoded kernels and of the
 * functional SIMT executor (instructions, functions, modules, warps, CTAs,
 * launches), which the timing model reads too.  The units that work on
 * them declare their functions in their own headers: runtime/loader.h,
 * decode.h, warp.h, launch.h, its.h, barrier.h, par_class.h, reginit.h.
 *
 * A module is decoded once at load: every function becomes a flat array of
 * ex_instr, each with its handler, registers resolved to slots, immediates
 * turned into constant slots (filled once per warp) and branch targets and
 * reconvergence points resolved to instruction indices.
 *
 * A warp keeps its registers lane-contiguous: r[slot][lane], 32 lanes of
 * 64 bits side by side, so a handler is a tight loop over lanes. */
#ifndef PTXEMU_RUNTIME_EXEC_H
#define PTXEMU_RUNTIME_EXEC_H

#include "frontend/cfg.h"
#include "isa/annot.h"
#include "isa/latency.h"
#include "frontend/ir.h"
#include "runtime/memory.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WARP_SIZE 32
/* CTA barriers: the named barriers 0..15, then the cluster barrier
 * (barrier.cluster) of the one-CTA cluster every launch without clusters
 * runs in */
#define EX_CLUSTER_BAR 16u
#define EX_NBARRIERS 17u
#define FULL_MASK 0xffffffffu
#define EX_NONE UINT32_MAX
/* Generic address standing for function i (indirect calls, function tables). */
#define EX_FUNC_ADDR_BASE 0x0000000600000000ull
#define EX_FUNC_ADDR(i) (EX_FUNC_ADDR_BASE + (uint64_t)(i) * 16u)

typedef struct ex_warp ex_warp;
typedef struct ex_instr ex_instr;
typedef struct ex_func ex_func;
typedef struct ex_module ex_module;

typedef void (*ex_handler)(ex_warp *w, const ex_instr *in, uint32_t mask);

/* Where a memory operand's address comes from. */
typedef enum ex_space {
    EX_SPACE_GLOBAL, EX_SPACE_SHARED, EX_SPACE_LOCAL, EX_SPACE_KPARAM,
    EX_SPACE_FPARAM, EX_SPACE_CONST, EX_SPACE_GENERIC,
    EX_SPACE_TEX,   /* texture fetch: global memory through the texture cache */
} ex_space;

enum {
    EXF_CONTROL = 1u << 0,   /* handler sets the pc itself */
    EXF_SAT = 1u << 1,
    EXF_FTZ = 1u << 2,
    EXF_HI = 1u << 3,
    EXF_WIDE = 1u << 4,
    EXF_CC_OUT = 1u << 5,    /* writes the carry flag */
    EXF_CC_IN = 1u << 6,     /* reads the carry flag */
    EXF_SIGNED = 1u << 7,
    EXF_UNI = 1u << 8,
    EXF_VOLATILE = 1u << 9,  /* volatile/relaxed/acquire: another thread may write */
    EXF_NOT_A = 1u << 10,    /* first predicate source is !p */
    EXF_NOT_C = 1u << 11,    /* third source is !p (setp.and etc.) */
    EXF_APPROX = 1u << 12,
    EXF_RELU = 1u << 13,
    EXF_NAN = 1u << 14,
    EXF_CTA_BARRIER = 1u << 15, /* bar/barrier at CTA level (not bar.warp.sync) */
};

/* op2 of a CTA barrier (bar, barrier; runtime/exec_control.c).
 * EX_BAR_SYNC_THREADS is barrier.sync without .aligned: the barrier counts
 * threads, so under ITS the lanes of a warp may reach it from different
 * program points (runtime/its.c lets each group arrive on its own).
 * EX_BAR_CARRIVE / EX_BAR_CWAIT: barrier.cluster.arrive / .wait. */
enum { EX_BAR_SYNC, EX_BAR_ARRIVE, EX_BAR_RED, EX_BAR_CARRIVE, EX_BAR_CWAIT,
       EX_BAR_SYNC_THREADS };

/* One decoded instruction.  Operand slots: register or constant slot
 * numbers in the warp's register file; EX_NONE when absent. */
struct ex_instr {
    ex_handler fn;
    uint32_t d, a, b, c, e;     /* destination and sources */
    uint32_t d2;                /* second destination (p|q, setp pair) */
    uint32_t guard;             /* predicate slot or EX_NONE */
    uint8_t guard_neg;
    uint8_t type, type2;        /* ptx_type of the instruction (and source) */
    uint8_t vec;                /* 1, 2, 4 */
    uint8_t space;              /* ex_space for memory instructions */
    uint8_t op2;                /* family-specific sub-operation */
    uint8_t rnd;                /* ptx_rnd */
    uint8_t size;               /* access size in bytes */
    uint16_t flags;             /* EXF_* */
    uint16_t op;                /* ptx_opcode, for messages and timing */
    uint32_t target;            /* branch target / callee function index */
    uint32_t reconv;            /* reconvergence pc of a branch */
    int64_t imm;                /* address offset or immediate */
    uint32_t vr[4];             /* vector element slots (ld/st.v2/.v4, mov packs) */
    uint32_t src;               /* index of the ptx_instr it came from */
    uint8_t order;              /* EX_ORD_* of a memory instruction (decode.c) */
    const void *ext;            /* family data owned by the ex_func (call info) */
};

/* Compiler-side annotations of one instruction (isa/annot.h), read by the
 * schedulers (phase-aware warp scheduling, spin backoff) without re-analysis. */
typedef ptx_annot ex_annot;

/* A parameter-space or local-space variable that lives in a thread's frame. */
typedef struct ex_frame_var {
    uint32_t offset;
    uint32_t size;
} ex_frame_var;

/* Call-site data for `call`. */
typedef struct ex_call {
    uint32_t callee;            /* ex_func index; EX_NONE: indirect */
    uint32_t target_slot;       /* indirect: register holding the function address */
    uint32_t nargs, nrets;
    uint32_t *arg_offsets;      /* caller frame offsets of the argument vars, or
                                   EX_NONE when the argument is a register */
    uint32_t *arg_sizes;        /* bytes, or for a register argument its slot */
    uint32_t *ret_offsets;      /* caller frame offsets of the return vars, or EX_NONE */
    uint32_t *ret_sizes;        /* bytes, or for a register its slot */
    uint8_t builtin;            /* EX_BUILTIN_* for bodiless system functions */
    uint8_t cdp_op;             /* EX_BUILTIN_CDP: which call (runtime/cdp.c) */
} ex_call;

/* Register slots one instruction reads and writes (from the opcode row's
 * operand roles, frontend/operands.h): reads are reg_slots[first ..
 * first+nread), writes the nwrite slots right after.  No duplicates within
 * either list; constants and special registers are not slots here. */
typedef struct ex_reguse {
    uint32_t first;
    uint32_t nread, nwrite;
} ex_reguse;

enum { EX_BUILTIN_NONE, EX_BUILTIN_VPRINTF, EX_BUILTIN_ASSERTFAIL, EX_BUILTIN_CDP,
       EX_BUILTIN_MALLOC, EX_BUILTIN_FREE /* runtime/devheap.c */ };

struct ex_func {
    const char *name;
    const ptx_func *ir;
    int32_t ir_index;
    bool is_entry;
    bool has_body;
    uint32_t ninstrs;
    ex_instr *code;
    uint32_t nregs;             /* register slots (declared registers) */
    uint32_t nconst;            /* constant slots after the registers */
    uint64_t *const_vals;       /* values of the constant slots */
    uint32_t frame_size;        /* bytes per thread: params, locals, returns */
    uint32_t nparams, nrets;
    uint32_t *param_offsets;    /* .func: frame offsets; .entry: kernel-param offsets */
    uint32_t *param_sizes;
    uint32_t *ret_offsets;
    uint32_t *ret_sizes;
    uint32_t *param_regs;       /* old-style .reg params: slot or EX_NONE */
    uint32_t *ret_regs;
    uint32_t kparam_size;       /* .entry: bytes of the kernel parameter buffer */
    uint32_t shared_static;     /* bytes of static shared memory it uses */
    uint32_t shared_reserved;   /* of those, the system's region at offset 0 (sm_80+: 1 KB) */
    GArray *calls;              /* ex_call; a call instruction's imm indexes it */
    GPtrArray *tables;          /* uint32_t arrays owned here (brx.idx targets) */
    ptx_cfg *cfg;
    ex_annot *annot;            /* per instruction */
    ex_reguse *reguse;          /* per instruction: registers read/written */
    uint32_t *reg_slots;        /* the slot lists reguse indexes */
    uint32_t nreg_slots;
    uint32_t nphases;
    uint32_t *straight;         /* per pc: instructions from there that neither
                                   branch nor wait for other lanes (ITS runs
                                   them as one batch; runtime/its.c) */
    bool zero_all;              /* a warp zeroes every register at CTA start, */
    uint32_t *zero_slots;       /* or only these (runtime/reginit.c) */
    uint32_t nzero;
    /* .entry: NULL when its CTAs may run on several host threads, else why
     * not (the first instruction that shares state across CTAs, located;
     * runtime/par_class.c) */
    char *serial_why;
};

struct ex_module {
    const ptx_module *ir;
    ex_func *funcs;
    uint32_t nfuncs;
    uint32_t nslots_max;        /* largest register file of any function */
    uint32_t shared_static;     /* largest static shared memory of any kernel */
    uint64_t *var_addr;         /* per ptx_var: global address / shared offset / frame offset */
    GHashTable *kernels;        /* name -> ex_func* */
    dev_memory *mem;
};

/* Reconvergence-stack entry. */
typedef struct ex_simt {
    uint32_t pc;
    uint32_t rpc;               /* pop when pc reaches it (EX_NONE: never) */
    uint32_t mask;
    uint32_t call_depth;        /* frame depth the entry belongs to */
} ex_simt;

/* An active call: where to go back and what to copy back. */
typedef struct ex_callframe {
    uint32_t func;              /* ex_func index of the caller */
    uint32_t ret_pc;
    uint32_t fp;                /* caller frame base */
    uint32_t callee_fp;
    const ex_call *site;
    uint32_t simt_base;         /* simt length before the callee's entry */
    uint32_t mask;              /* lanes that made the call */
    uint32_t saved_top;         /* stack_top before the callee frame */
    uint32_t caller_roff;       /* caller's register window offset */
} ex_callframe;

/* Memory-ordering facts of a memory instruction, from its PTX qualifiers
 * (PTX ISA, "Memory Consistency Model" and the ld/st cache operators).
 * The executor only carries them; the timing memory system decides what
 * they mean for its caches (timing/memsys.c). */
enum {
    EX_ORD_VOLATILE = 1u << 0, /* .volatile (relaxed at system scope), .mmio */
    EX_ORD_STRONG = 1u << 1,   /* .relaxed/.acquire/.release/.acq_rel/.sc at a scope
                                  wider than the CTA (.cluster, .gpu, .sys) */
    EX_ORD_ACQUIRE = 1u << 2,  /* strong with acquire semantics (.acquire, .acq_rel, .sc) */
    EX_ORD_CG = 1u << 3,       /* .cg: cache in L2, not in L1 */
    EX_ORD_CV = 1u << 4,       /* .cv: do not cache, fetch again */
};

/* What one issued instruction touched in memory, per lane (filled only while
 * a timing model asks for it: ex_warp_step with a record). */
typedef struct ex_access {
    uint32_t mask;              /* lanes that accessed memory */
    uint8_t space;              /* ex_space after generic resolution */
    uint8_t write;              /* 1 store, 0 load; atomics record both */
    uint8_t atomic;
    uint8_t order;              /* EX_ORD_* of the instruction */
    uint16_t size;              /* bytes per lane */
    uint8_t async;              /* 1 cp.async, 2 cp.async.bulk: a copy that lands
                                   later, tracked by its group or mbarrier */
    uint32_t mbar;              /* shared offset of the mbarrier tracking it,
                                   or UINT32_MAX (runtime/exec_async.c) */
    uint64_t addr[WARP_SIZE];   /* resolved address (global, shared or local offset) */
    const ex_instr *instr;      /* the instruction that made the first access */
    const struct ex_func *fn;   /* and its function (runtime/race.c) */
} ex_access;

typedef enum ex_warp_state {
    WARP_RUNNING, WARP_AT_BARRIER, WARP_DONE, WARP_FAULT,
} ex_warp_state;

typedef struct ex_cta ex_cta;
typedef struct ex_launch ex_launch;

struct ex_warp {
    uint64_t (*r)[WARP_SIZE];   /* register window of the current function:
                                   r[slot][lane] */
    uint64_t (*rfile)[WARP_SIZE]; /* the whole register stack; calls move r up */
    uint32_t rcap;              /* slots in rfile */
    uint32_t nslots;
    const ex_func *fn;          /* function executing now */
    const ex_instr *code;
    GArray *simt;               /* ex_simt */
    GArray *calls;              /* ex_callframe */
    uint32_t fp;                /* frame base of the current function (per lane offset) */
    uint8_t *stack;             /* per-thread stack memory: lane l at l*stack_cap */
    uint32_t stack_cap;         /* bytes per lane */
    uint32_t stack_top;         /* bytes in use per lane */
    uint32_t valid;             /* lanes that exist (partial last warp) */
    uint32_t exited;            /* lanes that have exited */
    uint32_t carry;             /* per-lane carry flags (.cc) */
    uint32_t warp_id;           /* within the CTA */
    ex_warp_state state;
    uint32_t barrier_id;
    uint32_t bar_dst;           /* bar.red destination slot, EX_NONE if none */
    uint32_t bar_lanes;         /* lanes waiting at the barrier */
    uint8_t bar_redop;          /* 0 none, 1 popc, 2 and, 3 or */
    uint32_t cbar_pending;      /* lanes arrived at the cluster barrier
                                   (barrier.cluster.arrive) whose phase has
                                   not completed yet */
    uint64_t instrs;            /* warp instructions executed */
    uint64_t thread_instrs;
    mem_alloc *hint;            /* last global allocation touched */
    mem_alloc *hint2;           /* the one before (ld/st fast path: a loop
                                   reading two arrays alternates) */
    ex_access *rec;             /* non-NULL: record memory accesses (timing) */
    /* independent thread scheduling (runtime/its.c): per-lane PCs; the
     * SIMT stack holds only the group issuing now */
    bool its;
    uint32_t its_group;         /* lanes of the group on the stack */
    uint32_t its_spins;         /* backward branches without memory progress */
    uint32_t its_yield_pc;      /* EX_NONE, or the pc of the group that yielded */
    uint32_t its_released;      /* lanes let through their bar.warp.sync */
    uint32_t its_parked;        /* lanes waiting at CTA barrier barrier_id
                                   (EX_BAR_SYNC_THREADS) while other groups
                                   of the warp still run */
    uint32_t its_cross;         /* lanes (other PCs included) that run the
                                   issuing group's .sync collective with it */
    uint32_t its_bar_wait;      /* lanes an aligned CTA barrier's group waited
                                   for: those that exit instead of arriving
                                   make it divergent (undefined in CUDA) */
    uint64_t its_mark;          /* launch->last_progress when counting began */
    uint32_t lpc[WARP_SIZE];    /* each lane's pc (valid while its) */
    ex_cta *cta;
    ex_launch *launch;
};

struct ex_cta {
    uint32_t ctaid[3];
    uint32_t linear_id;
    uint8_t *shared;
    uint32_t shared_size;
    uint32_t shared_cap;        /* bytes allocated at `shared` (runtime/hostmem.h) */
    uint32_t bar_epoch;         /* CTA barriers completed so far (runtime/race.c) */
    ex_warp *warps;
    uint32_t nwarps;
    uint32_t nthreads;
    uint32_t done_warps;
    /* named barriers 0..15 and, at EX_CLUSTER_BAR, the cluster barrier of
     * the one-CTA cluster of a launch without clusters: threads arrived,
     * and the reduction accumulators */
    uint32_t bar_arrived[EX_NBARRIERS];
    uint32_t bar_expected[EX_NBARRIERS];
    uint32_t bar_popc[EX_NBARRIERS];
    uint32_t bar_and[EX_NBARRIERS];
    uint32_t bar_or[EX_NBARRIERS];
};

struct ex_launch {
    ex_module *mod;
    const ex_func *kernel;
    dev_memory *mem;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint8_t *kparams;
    uint32_t kparam_size;
    FILE *printf_out;
    uint64_t livelock_limit;
    bool its;                   /* independent thread scheduling (runtime/its.c) */
    bool cooperative;           /* every CTA resident at once (grid-wide sync) */
    uint64_t grid_ws;           /* cooperative: global address of the grid-barrier
                                   workspace (%envreg1/%envreg2); 0 otherwise */
    uint64_t max_warp_instrs;   /* stop the launch beyond this many; 0 = none */
    uint64_t max_cycles;        /* timing model: core cycles; 0 = none */
    uint32_t max_seconds;       /* wall-clock seconds (limits.max_seconds); 0 = none */
    uint32_t progress_seconds;  /* a progress line on stderr this often; 0 = none */
    int64_t start_us;           /* g_get_monotonic_time() when the run began
                                   (set by the driver that checks the two above) */
    uint64_t clock;             /* warp instructions executed so far (also %clock) */
    uint64_t last_progress;     /* clock when memory last changed */
    const uint64_t *progress_epoch; /* NULL, or (a timing CTA's own launch copy)
                                       the cycles in which other CTAs changed
                                       memory (ex_progress_mark) */
    const uint64_t *cycle_source; /* timing mode: the simulated core cycle that
                                     %clock/%globaltimer read; NULL otherwise */
    uint32_t stack_limit;       /* bytes of stack per thread */
    uint32_t launch_id;
    uint64_t warp_instrs, thread_instrs;
    GString *error;             /* first fault, with kernel/CTA/thread/PC/line */
    int warned_own;             /* a warning of this launch was printed */
    int *warned;                /* NULL, or the flag of the launch a CTA's
                                   shadow copy stands for (one warning a launch) */
    bool failed;
    uint32_t smid, nsmid;
    /* dynamic parallelism (runtime/cdp.h) */
    struct ex_cdp *cdp;         /* the launch tree's device runtime, or NULL */
    bool cdp_owner;             /* this (host) launch created cdp and frees it */
    GPtrArray *cdp_kids;        /* ex_cdp_launch* this grid launched, in order */
    const struct ex_cdp_launch *origin; /* NULL: a host launch (depth 0) */
    uint32_t cdp_max_depth;     /* 0: CUDA's 24 */
    uint32_t cdp_pending_limit; /* 0: CUDA's 2048 */
    uint32_t *cdp_next_id;      /* the caller's launch-id counter; NULL: the tree's own */
    /* set by a driver that runs children as they are launched (timing);
     * false: the driver cannot take it (the launching thread faults with
     * the driver's message in *why) */
    bool (*on_device_launch)(void *user, ex_launch *parent, struct ex_cdp_launch *child,
                             const char **why);
    void *device_launch_user;
    uint32_t driver_grid;       /* the timing driver's record of this grid */
    /* functional driver: host threads for the CTAs (0 or 1: one); used
     * only when the kernel allows it (ex_func.serial_why == NULL) */
    uint32_t host_threads;
    bool host_atomics;          /* red on global memory uses host atomics
                                   (set while CTAs run in parallel) */
    /* --race-check (check.races): run on one thread, checking plain global
     * accesses (runtime/race.h); race_report: the first race it found
     * (owned by the launch's creator), or NULL */
    bool race_check;
    GString *race_report;
    struct ex_race *race;
};

/* Population count without a libgcc call (the build targets baseline x86-64,
 * where __builtin_popcount is not a single instruction). */
static inline uint32_t ex_popc(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Runs the statement(s) for every lane in `mask`, with `l` the lane number;
 * a full warp takes a plain counted loop the compiler can vectorise. */
#define EX_LANES(mask, l, ...)                                                \
    do {                                                                      \
        uint32_t ex_m_ = (mask);                                              \
        if (ex_m_ == FULL_MASK) {                                             \
            for (unsigned l = 0; l < WARP_SIZE; l++) {                        \
                __VA_ARGS__                                                   \
            }                                                                 \
        } else {                                                              \
            while (ex_m_) {                                                   \
                unsigned l = (unsigned)__builtin_ctz(ex_m_);                  \
                ex_m_ &= ex_m_ - 1;                                           \
                __VA_ARGS__                                                   \
            }                                                                 \
        }                                                                     \
    } while (0)

#endif
