/* sched/sched.h — the four scheduling levels as plug-in policies.
 *
 * Each level has one small ops struct; a policy is one file that fills one
 * in, and one line in sched/registry.c makes it selectable by name.  A
 * policy only reads a view the timing driver (timing/gpu.c, timing/sm.c)
 * builds and returns a decision; the driver applies it.  Policies never
 * touch functional state (warps, registers, memory) and never allocate in
 * the cycle loop: their state is a block of `state_size` bytes the driver
 * allocates and zeroes once.
 *
 * How the levels compose (DESIGN.md "Schedulers"):
 *   kernel level  decides which kernels may place CTAs now, in what order,
 *                 and how many CTAs of each kernel an SM may hold;
 *   CTA level     a placement policy picks an SM for the next CTA of a
 *                 kernel, then a chain of admission filters may refuse it;
 *   spin level    backs warps off (a filter in front of the warp level);
 *   warp level    an ordering policy picks the warp each scheduler issues.
 *
 * Every decision can be written to an optional trace (ctx->trace): the
 * driver prints one line per decision with the policy's own reason, e.g.
 * "cycle 1234: kernel 1 CTA 17 -> SM 3 (rr: next after SM 2)". */
#ifndef PTXEMU_SCHED_SCHED_H
#define PTXEMU_SCHED_SCHED_H

#include "runtime/exec.h"
#include "timing/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCHED_NEVER UINT64_MAX
#define SCHED_MAX_WARP_SLOTS 128 /* core.max_threads 4096 / 32 */
#define SCHED_MAX_KERNELS 64     /* concurrent kernels a driver tracks */
#define SCHED_WHY_LEN 96         /* bytes of a policy's reason text */
#define SCHED_NO_LIMIT UINT32_MAX

/* ------------------------------------------------------------ warp level */

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
    SCHED_WS_BACKOFF,    /* backed off by the spin level */
    SCHED_WS_COUNT
} sched_warp_state;

/* JSON/CSV names of the states, indexed by sched_warp_state. */
extern const char *const sched_warp_state_names[SCHED_WS_COUNT];

static inline bool sched_ws_can_issue(uint8_t s)
{
    return s == SCHED_WS_ISSUE_ALU || s == SCHED_WS_ISSUE_MEM;
}

/* What a warp policy sees of one warp slot of its scheduler. */
typedef struct sched_warp_view {
    uint64_t age;            /* launch order on the GPU: smaller is older */
    uint64_t last_issue;     /* cycle of its last issue; SCHED_NEVER: never */
    uint32_t slot;           /* warp slot in the SM */
    uint32_t kernel;         /* launch id of its kernel */
    uint32_t cta;            /* linear CTA id within the kernel */
    uint32_t warp;           /* warp id within the CTA */
    uint32_t pc;             /* index of its next instruction */
    const ex_annot *annot;   /* phase annotations of that instruction, or NULL */
    uint8_t state;           /* sched_warp_state */
} sched_warp_view;

typedef struct sched_warp_ctx {
    uint64_t cycle;
    uint32_t sm, scheduler;
    FILE *trace;             /* non-NULL: the driver will print `why` */
} sched_warp_ctx;

typedef struct sched_warp_ops {
    const char *name;
    const char *summary;
    size_t state_size;       /* bytes of per-scheduler state (zeroed) */
    /* Optional: set up the state for a scheduler owning `nslots` views. */
    void (*init)(void *state, const gpu_config *cfg, uint32_t nslots);
    /* The view index of the warp to issue next; it must be one whose
     * state can issue (sched_ws_can_issue).  -1: issue nothing.  When
     * ctx->trace is set the policy may explain itself in why[SCHED_WHY_LEN]. */
    int32_t (*pick)(void *state, const sched_warp_ctx *ctx,
                    const sched_warp_view *views, uint32_t n, char *why);
} sched_warp_ops;

/* ------------------------------------------------------------ spin level */

enum {
    SCHED_SPIN_SETP = 1u << 0,     /* a setp issued (operand values given) */
    SCHED_SPIN_BRANCH = 1u << 1,   /* a backward branch issued */
};

/* One issued instruction the spin level asked to see (`wants`). */
typedef struct sched_spin_event {
    uint64_t cycle;
    uint32_t sm, slot;
    uint32_t pc;
    uint32_t target;             /* branch target (SCHED_SPIN_BRANCH) */
    const ex_annot *annot;
    uint32_t active;             /* lanes that executed it */
    uint32_t taken;              /* lanes that took the branch */
    uint8_t kind;                /* SCHED_SPIN_SETP or SCHED_SPIN_BRANCH */
    const uint64_t *a, *b;       /* setp source values per lane, or NULL */
} sched_spin_event;

typedef struct sched_spin_ctx {
    uint64_t cycle;
    uint32_t sm;
    FILE *trace;
} sched_spin_ctx;

typedef struct sched_spin_ops {
    const char *name;
    const char *summary;
    size_t state_size;           /* per SM */
    unsigned wants;              /* SCHED_SPIN_* events the driver reports */
    void (*init)(void *state, const gpu_config *cfg, uint32_t nslots);
    /* A new warp took `slot` (forget its history). */
    void (*warp_start)(void *state, uint32_t slot);
    /* Returns the cycle until which the warp is backed off, 0 for none.
     * Backed-off warps are not issued unless every issuable warp of the
     * scheduler is backed off. */
    uint64_t (*observe)(void *state, const sched_spin_ctx *ctx,
                        const sched_spin_event *ev, char *why);
} sched_spin_ops;

/* ------------------------------------------------------------- CTA level */

/* One SM as the CTA level sees it, for the kernel being placed. */
typedef struct sched_cta_sm_view {
    uint32_t sm, cluster;
    uint32_t resident;           /* CTAs resident, all kernels */
    uint32_t resident_kernel;    /* CTAs of this kernel resident */
    uint32_t fit;                /* more CTAs of this kernel that fit now
                                    (resources and the kernel-level limit) */
    uint32_t limit;              /* kernel-level cap for this kernel here */
    uint64_t issued, finished;   /* CTAs of this kernel placed / done here */
    uint64_t stall_cycles;       /* pipeline + scoreboard stall slots so far */
    uint64_t idle_cycles;        /* cycles without a resident CTA so far */
    uint64_t warp_instrs;        /* warp instructions issued so far */
    bool eligible;               /* fit > 0 and not yet given or refused a
                                    CTA this cycle */
} sched_cta_sm_view;

typedef struct sched_cta_view {
    uint64_t cycle;
    uint32_t kernel;             /* launch id */
    uint32_t next_cta;           /* linear id of the CTA to place */
    uint32_t total_ctas;
    uint32_t issued;             /* CTAs of this kernel placed so far */
    uint32_t max_fit;            /* CTAs of this kernel an empty SM holds */
    uint32_t nsms, sms_per_cluster;
    const sched_cta_sm_view *sms;
} sched_cta_view;

typedef struct sched_cta_ctx {
    FILE *trace;
} sched_cta_ctx;

/* Placement: which SM gets the next CTA. */
typedef struct sched_cta_ops {
    const char *name;
    const char *summary;
    size_t state_size;           /* one per GPU */
    void (*init)(void *state, const gpu_config *cfg);
    /* An eligible SM for v->next_cta, or -1 to place nothing now. */
    int32_t (*place)(void *state, const sched_cta_ctx *ctx,
                     const sched_cta_view *v, char *why);
    /* Optional notifications. */
    void (*placed)(void *state, const sched_cta_view *v, uint32_t sm);
    void (*finished)(void *state, uint32_t kernel, uint32_t cta, uint32_t sm,
                     uint64_t cycle);
} sched_cta_ops;

/* Admission filter: may refuse a placement (credits, per-core limits,
 * paused cores).  Filters run in cta.filters order after placement. */
typedef struct sched_cta_filter_ops {
    const char *name;
    const char *summary;
    size_t state_size;
    void (*init)(void *state, const gpu_config *cfg);
    /* true: admit the CTA on `sm`.  Called for every request, refused or
     * not (CLASO consumes credits on both). */
    bool (*admit)(void *state, const sched_cta_ctx *ctx,
                  const sched_cta_view *v, uint32_t sm, char *why);
    void (*placed)(void *state, const sched_cta_view *v, uint32_t sm);
    void (*finished)(void *state, uint32_t kernel, uint32_t cta, uint32_t sm,
                     uint64_t cycle);
} sched_cta_filter_ops;

/* ---------------------------------------------------------- kernel level */

typedef struct sched_kernel_info {
    uint32_t id;                 /* launch id */
    uint32_t total_ctas, issued, finished;
    uint32_t max_fit;            /* CTAs one empty SM holds */
    uint64_t arrival;            /* cycle it was submitted */
} sched_kernel_info;

typedef struct sched_kernel_view {
    uint64_t cycle;
    uint32_t nkernels;           /* unfinished kernels, in arrival order */
    const sched_kernel_info *kernels;
    uint32_t nsms;
} sched_kernel_view;

/* The driver fills `limit` with SCHED_NO_LIMIT before calling decide. */
typedef struct sched_kernel_decision {
    uint32_t count;              /* kernels that may place CTAs now */
    uint32_t order[SCHED_MAX_KERNELS]; /* their view indices, by priority */
    uint32_t *limit;             /* [view index * nsms + sm]: CTA cap */
} sched_kernel_decision;

typedef struct sched_kernel_ctx {
    FILE *trace;
} sched_kernel_ctx;

typedef struct sched_kernel_ops {
    const char *name;
    const char *summary;
    size_t state_size;
    void (*init)(void *state, const gpu_config *cfg);
    void (*decide)(void *state, const sched_kernel_ctx *ctx,
                   const sched_kernel_view *v, sched_kernel_decision *out);
} sched_kernel_ops;

/* -------------------------------------------------------------- registry */
/* Policies by name (NULL when unknown) and NULL-terminated lists. */
const sched_warp_ops *sched_warp_lookup(const char *name);
const sched_spin_ops *sched_spin_lookup(const char *name);
const sched_cta_ops *sched_cta_lookup(const char *name);
const sched_cta_filter_ops *sched_cta_filter_lookup(const char *name);
const sched_kernel_ops *sched_kernel_lookup(const char *name);
const sched_warp_ops *const *sched_warp_policies(void);
const sched_spin_ops *const *sched_spin_policies(void);
const sched_cta_ops *const *sched_cta_policies(void);
const sched_cta_filter_ops *const *sched_cta_filter_policies(void);
const sched_kernel_ops *const *sched_kernel_policies(void);

/* The registered policies of a config's choices; false and one message
 * naming the key when a chosen policy is not implemented yet. */
typedef struct sched_selection {
    const sched_warp_ops *warp;
    const sched_spin_ops *spin;
    const sched_cta_ops *cta;
    const sched_cta_filter_ops *filters[GPU_CONFIG_LIST_MAX];
    unsigned nfilters;
    const sched_kernel_ops *kernel;
} sched_selection;
bool sched_select(const gpu_config *cfg, sched_selection *out, GError **error);

#endif
