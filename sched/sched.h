/* sched/sched.h — the scheduling framework: levels, views, hooks, controls.
 *
 * A policy is one file under sched/<level>/ that fills in one ops struct,
 * plus its lines in sched/policies.def (level, name, its own config keys).
 * It sees only what this header defines and the isa rows (isa/opcodes.h,
 * isa/annot.h): never the executor's warps, the SM's internals or the GPU
 * config.  The timing driver (timing/policy.c, timing/cta_sched.c and the
 * SM's timing/sm*.c) builds the views, calls the hooks and applies the
 * decisions a policy returns or asks for through its controls (sched_ctl).
 *
 * How the levels compose (DESIGN.md "Schedulers"):
 *   kernel   which kernels may place CTAs now, in what order, and how many
 *            CTAs of each an SM may hold (one instance per GPU);
 *   CTA      a placement policy picks an SM for a kernel's next CTA (per GPU);
 *   filter   admission filters, in cta.filters order; every filter sees every
 *            request, even one an earlier filter refused (CLASO counts
 *            refused requests); a refused CTA waits and is asked for again
 *            at the cycle a filter names or at the next event (per GPU);
 *   backoff  spin detection: backs warps off and decides which backed-off
 *            warp may go when nothing else can issue (per SM);
 *   warp     an ordering policy picks the warp each scheduler issues (per
 *            SM scheduler);
 *   fetch    which waiting warp the fetch stage fills next (per SM);
 *   L1       which refused L1 request retries first (per SM).
 *
 * Every hook is optional except a level's decision function.  Policies
 * never allocate in the cycle loop: their state is `state_size` bytes the
 * driver allocates and zeroes once per instance; `destroy` frees what
 * `init` allocated.  Every decision may be explained in `why` (at most
 * SCHED_WHY_LEN bytes) and is then written to the decision trace. */
#ifndef PTXEMU_SCHED_SCHED_H
#define PTXEMU_SCHED_SCHED_H

#include "isa/annot.h"
#include "isa/opcodes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCHED_NEVER UINT64_MAX
#define SCHED_MAX_WARP_SLOTS 128 /* core.max_threads 4096 / 32 */
#define SCHED_MAX_KERNELS 64     /* concurrent kernels a driver tracks */
#define SCHED_MAX_FILTERS 7      /* entries of cta.filters */
#define SCHED_WHY_LEN 96         /* bytes of a policy's reason text */
#define SCHED_NO_LIMIT UINT32_MAX
#define SCHED_ALL_KERNELS UINT32_MAX
#define SCHED_NONE UINT32_MAX

/* ------------------------------------------------------------ the registry */

typedef enum sched_level {
    SCHED_LEVEL_KERNEL, SCHED_LEVEL_CTA, SCHED_LEVEL_FILTER, SCHED_LEVEL_WARP,
    SCHED_LEVEL_BACKOFF, SCHED_LEVEL_FETCH, SCHED_LEVEL_L1, SCHED_LEVEL_COUNT
} sched_level;

/* Every policy's own keys, one field each (ident_key), generated from
 * sched/policies.def; the GPU config holds one of these. */
#define SCHED_FIELD_U32(f) uint32_t f;
#define SCHED_FIELD_DBL(f) double f;
#define SCHED_FIELD_BOOL(f) bool f;
typedef struct sched_keys {
#define SCHED_POLICY(lv, id, name, ops)
#define SCHED_PLANNED(lv, name, where)
#define SCHED_KEY(id, name, key, KIND, def, lo, hi, unit, doc) SCHED_FIELD_##KIND(id##_##key)
#include "sched/policies.def"
#undef SCHED_POLICY
#undef SCHED_PLANNED
#undef SCHED_KEY
    uint8_t unused_; /* keeps the struct non-empty with no keys */
} sched_keys;

typedef enum sched_key_kind { SCHED_KEY_U32, SCHED_KEY_DBL, SCHED_KEY_BOOL } sched_key_kind;

/* One policy key as the config table and `config --list` see it. */
typedef struct sched_key_def {
    const char *policy;          /* INI section: the policy's name */
    const char *name;
    sched_key_kind kind;
    size_t offset;               /* of the field in sched_keys */
    double def, min, max;
    const char *unit, *doc;
} sched_key_def;

/* ------------------------------------------------------------ shared views */

/* Why a warp cannot issue now (per-warp "blocked on" reason). */
typedef enum sched_block {
    SCHED_BLOCK_NONE, SCHED_BLOCK_FETCH, SCHED_BLOCK_SCOREBOARD,
    SCHED_BLOCK_MEMORY, SCHED_BLOCK_PIPELINE, SCHED_BLOCK_BARRIER,
    SCHED_BLOCK_BACKOFF, SCHED_BLOCK_DONE, SCHED_BLOCK_COUNT
} sched_block;
extern const char *const sched_block_names[SCHED_BLOCK_COUNT];

/* The state of a warp slot in one cycle: the eight states of thesis §5.3
 * (ibuffer empty .. completed) plus two the thesis folds elsewhere. */
typedef enum sched_warp_state {
    SCHED_WS_EMPTY,      /* no warp in this slot */
    SCHED_WS_IBUF_EMPTY, /* 1: waiting for instruction fetch */
    SCHED_WS_SB_ALU,     /* 2: an operand waits on an ALU instruction */
    SCHED_WS_SB_MEM,     /* 3: an operand waits on a memory instruction */
    SCHED_WS_STALL_ALU,  /* 4: ready, but its ALU/SFU/DP unit is busy */
    SCHED_WS_STALL_MEM,  /* 5: ready, but the LD/ST unit or memory is stalled */
    SCHED_WS_ISSUE_ALU,  /* 6: can issue an ALU instruction */
    SCHED_WS_ISSUE_MEM,  /* 7: can issue a memory instruction */
    SCHED_WS_DONE,       /* 8: completed, waiting for its CTA */
    SCHED_WS_BARRIER,    /* waiting at a CTA barrier */
    SCHED_WS_BACKOFF,    /* backed off by the backoff level */
    SCHED_WS_COUNT
} sched_warp_state;

/* JSON/CSV names of the states, indexed by sched_warp_state. */
extern const char *const sched_warp_state_names[SCHED_WS_COUNT];

static inline bool sched_ws_can_issue(uint8_t s)
{
    return s == SCHED_WS_ISSUE_ALU || s == SCHED_WS_ISSUE_MEM;
}

static inline sched_block sched_blocked_on(uint8_t s)
{
    switch (s) {
    case SCHED_WS_IBUF_EMPTY: return SCHED_BLOCK_FETCH;
    case SCHED_WS_SB_ALU: return SCHED_BLOCK_SCOREBOARD;
    case SCHED_WS_SB_MEM: return SCHED_BLOCK_MEMORY;
    case SCHED_WS_STALL_ALU: case SCHED_WS_STALL_MEM: return SCHED_BLOCK_PIPELINE;
    case SCHED_WS_BARRIER: return SCHED_BLOCK_BARRIER;
    case SCHED_WS_BACKOFF: return SCHED_BLOCK_BACKOFF;
    case SCHED_WS_DONE: case SCHED_WS_EMPTY: return SCHED_BLOCK_DONE;
    default: return SCHED_BLOCK_NONE;
    }
}

/* What a policy sees of one warp slot. */
typedef struct sched_warp_view {
    uint64_t age;            /* launch order on the GPU: smaller is older */
    uint64_t last_issue;     /* cycle of its last issue; SCHED_NEVER: never */
    uint64_t instrs;         /* warp instructions it issued */
    uint32_t slot;           /* warp slot in the SM */
    uint32_t kernel;         /* launch id of its kernel */
    uint32_t cta;            /* linear CTA id within the kernel */
    uint32_t warp;           /* warp id within the CTA */
    uint32_t pc;             /* index of its next instruction */
    uint32_t outstanding;    /* its memory instructions in flight */
    const ptx_annot *annot;  /* annotations of that instruction (phases in the
                                config's latencies), or NULL */
    uint8_t state;           /* sched_warp_state; sched_blocked_on(state) */
} sched_warp_view;

/* One SM as policies see it. */
typedef struct sched_sm_view {
    uint32_t sm, cluster;
    uint32_t resident;           /* CTAs resident, all kernels */
    uint32_t warps;              /* warps resident */
    uint32_t limit;              /* CTA limit set by a policy (all kernels) */
    bool paused, draining, gated;
    uint64_t ctas_issued, ctas_finished;
    uint64_t warp_instrs;        /* warp instructions issued so far */
    uint64_t stall_cycles;       /* pipeline + scoreboard stall slots so far */
    uint64_t mem_stall_cycles;   /* of those, waiting on memory */
    uint64_t idle_cycles;        /* cycles without a resident CTA so far */
    uint64_t gated_cycles;       /* cycles powered off so far */
} sched_sm_view;

/* What a policy instance knows of the machine when it starts. */
typedef struct sched_env {
    const sched_keys *keys;      /* every policy's keys; read your own */
    uint32_t nsms, sms_per_cluster;
    uint32_t schedulers;         /* warp schedulers per SM */
    uint32_t warp_slots;         /* per SM */
    uint32_t max_ctas;           /* CTA slots per SM */
    uint32_t sm, scheduler;      /* this instance (SCHED_NONE: per GPU) */
    uint32_t nslots;             /* warp level: views of this scheduler */
    uint32_t sm_registers;       /* 32-bit registers per SM */
    uint32_t sm_shared;          /* shared-memory bytes per SM */
    const char *kernel_caps;     /* kernel.caps (sched/kernel/caps.h); NULL = none */
} sched_env;

/* The controls a policy may use from any hook.  The driver owns `drv`. */
typedef struct sched_ctl sched_ctl;
struct sched_ctl {
    uint64_t cycle;
    FILE *trace;                 /* non-NULL: decisions are being traced */
    void *drv;
    /* One line in the decision trace: "cycle N: <policy>: <text>". */
    void (*log)(const sched_ctl *c, const char *policy, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
    /* SM controls.  pause: no new CTAs (resident ones run on); drain: pause
     * and power off once empty; gate: power off now if empty, else drain;
     * resume: undo all three.  Gated cycles are counted in the stats. */
    void (*sm_pause)(const sched_ctl *c, uint32_t sm);
    void (*sm_drain)(const sched_ctl *c, uint32_t sm);
    void (*sm_gate)(const sched_ctl *c, uint32_t sm);
    void (*sm_resume)(const sched_ctl *c, uint32_t sm);
    /* CTAs an SM may hold (all kernels together); SCHED_NO_LIMIT: resources
     * alone decide. */
    void (*sm_limit)(const sched_ctl *c, uint32_t sm, uint32_t limit);
    const sched_sm_view *(*sm_view)(const sched_ctl *c, uint32_t sm);
    /* Ask the CTA level again at `cycle` (requests otherwise wait for the
     * next CTA completion, kernel arrival or control change). */
    void (*cta_retry)(const sched_ctl *c, uint64_t cycle);
};

/* ------------------------------------------------------------ events */

/* Where a group of a kernel's CTAs came from (dynamic parallelism,
 * docs/cdp.md).  A kernel's CTAs form groups of consecutive ids: its own
 * launch's, then each TB group appended to it (host batches, and device
 * launches in cdp.mode = dtbl).  A host launch has depth 0 and no parent
 * (SCHED_NONE); a device launch has its parent's depth + 1. */
typedef struct sched_cta_group {
    uint32_t first, count;       /* kernel-wide CTA ids [first, first + count) */
    uint32_t placed;             /* of them placed so far (the driver counts) */
    uint32_t next;               /* the lowest of them not placed (first + count: none) */
    uint32_t depth;              /* nesting depth: LaPerm's priority level before capping */
    uint32_t parent_kernel;      /* launch id of the launching grid, or SCHED_NONE */
    uint32_t parent_cta;         /* its linear CTA id there, or SCHED_NONE */
    uint32_t parent_sm;          /* SM that CTA ran on, or SCHED_NONE */
    uint64_t launch_cycle;       /* cycle of the launching instruction (host: arrival) */
} sched_cta_group;

typedef struct sched_kernel_info {
    uint32_t id;                 /* launch id */
    uint32_t total_ctas, issued, finished;
    uint32_t max_fit;            /* CTAs one empty SM holds */
    uint32_t warps_per_cta;
    uint64_t arrival;            /* cycle it arrived */
    const char *name;
    uint32_t grid[3];            /* its own launch's grid */
    uint32_t regs_per_cta;       /* registers one CTA holds */
    uint32_t shared_per_cta;     /* shared-memory bytes one CTA holds */
    /* its CTA groups, in CTA id order; groups[0] is its own launch, whose
     * origin is the kernel's (depth 0 for a host launch) */
    uint32_t ngroups;
    const sched_cta_group *groups;
} sched_kernel_info;

typedef struct sched_cta_event {
    uint32_t kernel, cta, sm;
    const char *why;             /* dropped: the refusing filters' reasons */
} sched_cta_event;

typedef struct sched_warp_event {
    uint32_t sm, scheduler, slot;
    uint32_t kernel, cta, warp;
    uint32_t pc;                 /* barrier/exit: the instruction */
    uint32_t barrier;            /* barrier id (barrier events) */
} sched_warp_event;

enum {
    SCHED_ISSUE_SETP = 1u << 0,
    SCHED_ISSUE_BRANCH = 1u << 1,
    SCHED_ISSUE_BACKWARD = 1u << 2,  /* a branch whose target is at or before it */
    SCHED_ISSUE_MEM = 1u << 3,
    SCHED_ISSUE_BARRIER = 1u << 4,   /* a CTA barrier (bar.sync, bar.arrive, bar.red) */
    SCHED_ISSUE_EXIT = 1u << 5,
};

/* One issued warp instruction. */
typedef struct sched_issue {
    uint32_t sm, scheduler, slot;
    uint32_t kernel, cta, warp;
    uint32_t pc;
    uint32_t target;             /* branch target, or SCHED_NONE */
    uint16_t opcode;             /* ptx_opcode; row: ptx_opcode_info(opcode) */
    uint8_t flags;               /* SCHED_ISSUE_* */
    const ptx_annot *annot;      /* phase id, distance, length, spin candidate */
    uint32_t active;             /* lanes active at issue (SIMT mask) */
    uint32_t guard;              /* active lanes whose guard predicate held
                                    (= active when unguarded): lanes that ran */
    uint32_t taken;              /* branches: lanes that took it (= guard) */
    const uint64_t *a, *b;       /* setp: source values per lane, or NULL */
    uint32_t writes;             /* instructions of this warp, this one included,
                                    that changed memory (a store or atomic that
                                    changed bits: the livelock detector's
                                    progress); compare two events' counts */
} sched_issue;

typedef struct sched_mem_reply {
    uint32_t sm, slot;
    uint32_t kernel, cta, warp;
    uint64_t cycle;              /* cycle the reply arrived */
} sched_mem_reply;

/* Which events an instance wants (the driver builds no event nobody asked
 * for, so the issue path stays fast). */
enum {
    SCHED_WANT_ISSUE = 1u << 0,        /* every issued instruction */
    SCHED_WANT_ISSUE_SPIN = 1u << 1,   /* setps and backward branches only */
    SCHED_WANT_MEM_REPLY = 1u << 2,
    SCHED_WANT_WARP = 1u << 3,         /* warp arrive/leave/barrier/exit */
};

/* Hooks every level may implement; the first member of every ops struct. */
typedef struct sched_hooks {
    const char *name;
    const char *summary;
    size_t state_size;           /* bytes of state per instance (zeroed) */
    unsigned wants;              /* SCHED_WANT_* */
    void (*init)(void *st, const sched_env *env);
    void (*destroy)(void *st);
    /* Called at the cycle it last asked for; returns the next cycle it wants
     * (SCHED_NEVER: none; it is then idle and costs nothing until the next
     * kernel arrives, which ticks it again). */
    uint64_t (*tick)(void *st, const sched_ctl *c);
    void (*kernel_arrive)(void *st, const sched_ctl *c, const sched_kernel_info *k);
    void (*kernel_finish)(void *st, const sched_ctl *c, const sched_kernel_info *k);
    void (*cta_issued)(void *st, const sched_ctl *c, const sched_cta_event *e);
    void (*cta_dropped)(void *st, const sched_ctl *c, const sched_cta_event *e);
    void (*cta_finished)(void *st, const sched_ctl *c, const sched_cta_event *e);
    void (*warp_arrive)(void *st, const sched_ctl *c, const sched_warp_event *e);
    void (*warp_leave)(void *st, const sched_ctl *c, const sched_warp_event *e);
    /* A warp issued a CTA barrier instruction (it may wait there). */
    void (*barrier)(void *st, const sched_ctl *c, const sched_warp_event *e);
    void (*exit)(void *st, const sched_ctl *c, const sched_warp_event *e);
    void (*issued)(void *st, const sched_ctl *c, const sched_issue *e);
    void (*mem_reply)(void *st, const sched_ctl *c, const sched_mem_reply *e);
    /* Sampled simulation (timing/sample.h): NULL when the policy's effect
     * over a launch is captured by measuring the launch's IPC until it is
     * stable; else why it is not (its decisions change over the whole
     * launch), and a launch run with it is simulated in full. */
    const char *sample_refuse;
} sched_hooks;

/* ------------------------------------------------------------ kernel level */

typedef struct sched_kernel_view {
    uint64_t cycle;
    uint32_t nkernels;           /* arrived, unfinished kernels, in arrival order */
    const sched_kernel_info *kernels;
    uint32_t nsms;
} sched_kernel_view;

/* The driver fills `limit` with SCHED_NO_LIMIT before calling decide. */
typedef struct sched_kernel_decision {
    uint32_t count;              /* kernels that may place CTAs now */
    uint32_t order[SCHED_MAX_KERNELS]; /* their view indices, by priority */
    uint32_t *limit;             /* [view index * nsms + sm]: CTA cap */
} sched_kernel_decision;

typedef struct sched_kernel_ops {
    sched_hooks h;
    void (*decide)(void *st, const sched_ctl *c, const sched_kernel_view *v,
                   sched_kernel_decision *out);
} sched_kernel_ops;

/* ------------------------------------------------------------ CTA level */

/* One SM as the CTA level sees it, for the kernel being placed. */
typedef struct sched_cta_sm_view {
    const sched_sm_view *sm;     /* the SM's own view */
    uint32_t resident_kernel;    /* CTAs of this kernel resident */
    uint32_t fit;                /* more CTAs of this kernel that fit now
                                    (resources, kernel-level and SM limits) */
    uint32_t limit;              /* kernel-level cap for this kernel here */
    uint64_t issued, finished;   /* CTAs of this kernel placed / done here */
    bool eligible;               /* fit > 0, powered, not paused, and not yet
                                    given or refused a CTA this cycle */
} sched_cta_sm_view;

typedef struct sched_cta_view {
    uint64_t cycle;
    uint32_t kernel;             /* launch id */
    uint32_t next_cta;           /* place: the lowest CTA id not yet placed;
                                    filters: the CTA asked about */
    uint32_t total_ctas;
    uint32_t issued;             /* CTAs of this kernel placed so far */
    uint32_t max_fit;            /* CTAs of this kernel an empty SM holds */
    uint32_t nsms, sms_per_cluster;
    const sched_cta_sm_view *sms;
    const sched_kernel_info *info; /* the kernel being placed (its CTA groups) */
} sched_cta_view;

/* Placement: which SM gets the next CTA. */
typedef struct sched_cta_ops {
    sched_hooks h;
    /* An eligible SM for the next CTA, or -1 to place nothing now. */
    int32_t (*place)(void *st, const sched_ctl *c, const sched_cta_view *v, char *why);
    /* Optional: which CTA goes to `sm`, the SM place() just returned: an id
     * in [v->next_cta, v->total_ctas) not placed yet, or SCHED_NONE to place
     * nothing now.  NULL: CTAs are placed in id order (v->next_cta).  The
     * choice is final only once cta_issued reports it (a filter may refuse
     * it; the same CTA can then be picked again). */
    uint32_t (*pick_cta)(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm);
    /* Optional: called each time CTAs are placed, after the kernel level's
     * decide, with every kernel's view (origins and CTA groups included):
     * may rewrite out->order[0 .. out->count) with view indices of kernels
     * that have CTAs left, in the order their CTAs are offered SMs: LaPerm's
     * priority queues span parent and child kernels, so it adds the child
     * kernels the kernel level holds back and puts higher levels first.
     * out->limit stays the kernel level's.  NULL: the kernel level's order. */
    void (*order_kernels)(void *st, const sched_ctl *c, const sched_kernel_view *v,
                          sched_kernel_decision *out);
} sched_cta_ops;

/* An admission filter's answer. */
typedef uint64_t sched_verdict;
#define SCHED_ADMIT ((sched_verdict)0)
/* Refused: ask again at the next event (CTA completion, arrival...). */
#define SCHED_REFUSE ((sched_verdict)UINT64_MAX)
/* Refused: ask again at cycle t (t > the current cycle). */
#define SCHED_REFUSE_UNTIL(t) ((sched_verdict)(t))

typedef struct sched_filter_ops {
    sched_hooks h;
    /* Admit the CTA v->next_cta on `sm`?  Called for every request, also
     * those an earlier filter refused (`refused` true then). */
    sched_verdict (*admit)(void *st, const sched_ctl *c, const sched_cta_view *v,
                           uint32_t sm, bool refused, char *why);
} sched_filter_ops;

/* ------------------------------------------------------------ warp level */

typedef struct sched_warp_ctx {
    uint64_t cycle;
    uint32_t sm, scheduler;
    FILE *trace;                 /* non-NULL: the driver will print `why` */
} sched_warp_ctx;

typedef struct sched_warp_ops {
    sched_hooks h;
    /* The view index of the warp to issue next; it must be one whose
     * state can issue (sched_ws_can_issue).  -1: issue nothing. */
    int32_t (*pick)(void *st, const sched_warp_ctx *ctx, const sched_warp_view *views,
                    uint32_t n, char *why);
} sched_warp_ops;

/* ------------------------------------------------------------ backoff */

typedef struct sched_backoff_ops {
    sched_hooks h;
    /* Sees the issued instructions it wants (h.wants: SCHED_WANT_ISSUE_SPIN
     * or SCHED_WANT_ISSUE); returns the cycle until which that warp is
     * backed off, 0 for none. */
    uint64_t (*observe)(void *st, const sched_ctl *c, const sched_issue *e, char *why);
    /* No warp of a scheduler can issue but some are backed off: the view
     * index of one to let go now (it may issue this slot), or -1. */
    int32_t (*release)(void *st, const sched_warp_ctx *ctx, const sched_warp_view *views,
                       uint32_t n, char *why);
} sched_backoff_ops;

/* ------------------------------------------------------------ fetch */

typedef struct sched_fetch_req {
    uint32_t slot;               /* warp slot waiting for its ibuffer */
    uint64_t age;                /* the warp's launch order */
    uint64_t since;              /* cycle it started waiting */
} sched_fetch_req;

typedef struct sched_fetch_ops {
    sched_hooks h;
    /* Which waiting warp (index into q, n >= 1) is fetched this cycle. */
    uint32_t (*pick)(void *st, const sched_ctl *c, const sched_fetch_req *q, uint32_t n);
} sched_fetch_ops;

/* ------------------------------------------------------------ L1 */

typedef struct sched_l1_req {
    uint32_t scheduler, slot;    /* who issued it */
    uint64_t since;              /* cycle it was first refused */
} sched_l1_req;

typedef struct sched_l1_ops {
    sched_hooks h;
    /* Which refused request (index into q, n >= 1) the L1 tries next. */
    uint32_t (*pick)(void *st, const sched_ctl *c, const sched_l1_req *q, uint32_t n);
} sched_l1_ops;

/* ------------------------------------------------------------ lookups */

/* One registered policy. */
typedef struct sched_policy {
    sched_level level;
    const char *name;
    const sched_hooks *hooks;    /* the ops struct (its first member) */
} sched_policy;

/* Implemented policies of a level in registry order; *n set. */
const sched_policy *sched_policies(sched_level level, uint32_t *n);
/* Their names, NULL-terminated (config choices). */
const char *const *sched_policy_names(sched_level level);
extern const char *const sched_names_kernel[], *const sched_names_cta[],
    *const sched_names_filter[], *const sched_names_warp[], *const sched_names_backoff[],
    *const sched_names_fetch[], *const sched_names_l1[];
/* The i-th planned policy (its name; NULL past the end), its level and
 * where it is planned; and where `name` of `level` is planned, or NULL. */
const char *sched_planned_list(uint32_t i, sched_level *level, const char **where);
const char *sched_planned_where(sched_level level, const char *name);
/* Every policy key, in registry order. */
const sched_key_def *sched_key_defs(uint32_t *n);
/* A level's name ("warp", "cta", ...). */
const char *sched_level_name(sched_level level);
/* The policy of `level` named `name`, or NULL. */
const sched_policy *sched_find(sched_level level, const char *name);
/* The policy with INI section `name` on any level, or NULL. */
const sched_policy *sched_find_any(const char *name);

/* The chosen policies of a run (indices from the config's choices). */
typedef struct sched_selection {
    const sched_kernel_ops *kernel;
    const sched_cta_ops *cta;
    const sched_filter_ops *filters[SCHED_MAX_FILTERS];
    unsigned nfilters;
    const sched_warp_ops *warp;
    const sched_backoff_ops *backoff;
    const sched_fetch_ops *fetch;
    const sched_l1_ops *l1;
} sched_selection;

#endif
