/* timing/sm.h — one streaming multiprocessor of the timing model.
 *
 * Per SM: warp slots with an instruction buffer and a scoreboard each,
 * core.warp_schedulers warp schedulers (warp slot s belongs to scheduler
 * s % N) with their own slice of the SP/SFU/DP/LD-ST units, a fetch stage
 * that refills one warp's ibuffer per cycle, resident CTAs and the
 * resources they hold.
 *
 * Execute at issue: the chosen warp's instruction runs in the functional
 * executor (ex_warp_step) when it issues; the SM only decides when.  Its
 * destination registers stay pending in the scoreboard until the modelled
 * latency has passed (ALU), the shared-memory access has finished (bank
 * conflicts add passes) or the memory system reports completion (global,
 * local and constant accesses through memsys_issue).
 *
 * The SM is event-skipping: every warp carries the cycle at which its state
 * can next change; an SM whose warps all wait (and whose fetch queue is
 * empty) is not looked at until then, and the counters of the skipped
 * cycles are added in bulk. */
#ifndef PTXEMU_TIMING_SM_H
#define PTXEMU_TIMING_SM_H

#include "runtime/exec.h"
#include "sched/sched.h"
#include "timing/cache.h"
#include "timing/config.h"
#include "timing/memsys.h"
#include "timing/policy.h"
#include "timing/stats.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TM_NEVER UINT64_MAX
#define TM_MAX_PENDING 48   /* scoreboard entries per warp */
#define TM_MAX_CTA_WARPS 32 /* 1024 threads */
#define TM_SPIN_PCS 32      /* distinct backoff decision PCs counted per SM */

typedef enum tm_unit {
    TM_UNIT_SP, TM_UNIT_SFU, TM_UNIT_DP, TM_UNIT_LDST,
    TM_UNIT_TENSOR, /* mma.sync, wmma.mma: occupancy from the work (units.tensor) */
    TM_UNIT_COUNT
} tm_unit;

enum {
    TM_INS_DRAIN = 1u << 0,   /* call/ret: wait until no register is pending */
    TM_INS_FENCE = 1u << 1,   /* membar/fence: wait until memory is done */
    TM_INS_WAKE_CTA = 1u << 2,/* bar/exit/ret: may release the CTA's barriers */
    TM_INS_SETP = 1u << 3,
    TM_INS_BRANCH = 1u << 4,
    TM_INS_CAS = 1u << 5,     /* atom.cas with a destination: a lock attempt */
    TM_INS_SPIN_LOOP = 1u << 6,/* in a loop of a static spin candidate */
    TM_INS_ASYNC = 1u << 7,   /* cp/mbarrier: tracked by timing/sm_async.c */
};

/* Timing facts of one decoded instruction, derived once per function.  The
 * registers come from the opcode row's operand roles (ex_func.reguse): src
 * and dst point into the function's slot array, so there is no cap. */
typedef struct tm_ins {
    uint8_t unit;            /* tm_unit */
    uint8_t flags;           /* TM_INS_* */
    uint16_t occupancy;      /* cycles its unit stays busy */
    uint16_t lat_class;      /* ptx_lat_class */
    uint32_t latency;        /* issue to result (non-memory) */
    uint32_t nsrc, ndst;
    const uint32_t *src;     /* register slots read (constants left out) */
    const uint32_t *dst;     /* register slots written */
} tm_ins;

typedef struct tm_func {
    const ex_func *fn;
    tm_ins *ins;             /* per instruction */
    ex_annot *annot;         /* per instruction, phases in the config's latencies */
    uint32_t regs32;         /* estimated 32-bit registers per thread */
} tm_func;

/* Builds the table of `fn` for an SM with `nsched` schedulers. */
tm_func *tm_func_build(const gpu_config *cfg, const ex_func *fn);
void tm_func_free(tm_func *f);

/* Resources one CTA of a kernel holds on an SM. */
typedef struct tm_cta_req {
    uint32_t threads, warps;
    uint32_t regs;           /* registers of the whole CTA */
    uint32_t shared;         /* bytes */
} tm_cta_req;

typedef struct tm_sm tm_sm;

/* What the SMs share with the GPU that owns them. */
typedef struct tm_env {
    const gpu_config *cfg;
    memsys *mem;
    tm_policies *pol;        /* the policy instances */
    FILE *trace;             /* decision trace, or NULL */
    bool trace_warps;        /* also one line per warp issue */
    GHashTable *funcs;       /* const ex_func* -> tm_func* */
    GMutex funcs_lock;       /* funcs, built on first use by any SM's thread */
    uint64_t next_age;       /* launch order of the next warp */
    uint64_t progress_epoch; /* cycles in which a CTA on its own launch copy
                                changed memory (ex_progress_mark) */
    bool failed;             /* a warp faulted: stop the run */
    /* A CTA finished (its warps are done and its memory traffic drained). */
    void (*cta_done)(void *user, tm_sm *sm, void *kernel, ex_launch *L, uint32_t cta,
                     uint64_t cycle);
    /* Non-NULL: told of every global-memory instruction sent to the memory
     * system (the dynamic-parallelism footprint, timing/gpu_cdp.c). */
    void (*touch)(void *user, const ex_warp *w, const ex_access *a);
    void *user;
} tm_env;

/* One scoreboard entry: a register written by an instruction in flight. */
typedef struct tm_pending {
    uint32_t slot;           /* absolute slot in the warp's register stack */
    uint32_t tag;            /* memory instruction it waits for */
    uint64_t ready;          /* cycle the value may be read; TM_NEVER: memory */
    uint8_t mem;             /* produced by a memory instruction */
} tm_pending;

typedef struct tm_cta {
    ex_cta cta;
    uint32_t warp_cap;       /* warps whose buffers cta keeps (ex_cta_restart) */
    bool busy;
    ex_launch *L;
    void *kernel;            /* the GPU's kernel record */
    uint32_t kernel_id;
    uint32_t nwarps, live;   /* warps, warps not done */
    uint32_t outstanding;    /* memory instructions in flight */
    uint32_t slots[TM_MAX_CTA_WARPS];
    tm_cta_req req;
    /* A CTA of a kernel whose CTAs cannot observe each other
     * (ex_launch_serial_why) runs against its own copy of the launch, as
     * the functional driver's parallel CTAs do: its warps' instruction
     * clock, progress mark (livelock, ITS), %smid and fault are the CTA's,
     * so SMs on different host threads share no launch state. */
    bool own;
    ex_launch shadow;
} tm_cta;

/* A CTA that finished during an SM's visit: its counts and the GPU's
 * cta_done callback wait for tm_sm_retire (after every SM's visit of the
 * cycle, in SM order). */
typedef struct tm_retired {
    void *kernel;
    ex_launch *L;
    uint32_t cta;
    uint64_t cycle, warp_instrs, thread_instrs;
} tm_retired;

typedef struct tm_warp {
    ex_warp *w;              /* NULL: slot free */
    tm_cta *cta;
    const tm_func *tf;       /* table of w->fn */
    uint64_t *re;            /* re-evaluate its state at this cycle: its entry
                                of the scheduler's recheck array */
    uint64_t ibuf_ready;     /* fetched instructions usable from here */
    uint64_t backoff_until;  /* backoff level */
    uint64_t relaxed_at;     /* slot its backoff was waived (all backed off) */
    bool backed_once;        /* backed off at least once (stats) */
    uint64_t fetch_since;    /* cycle it joined the fetch queue */
    uint32_t ibuf;           /* instructions in the buffer */
    uint32_t outstanding;    /* memory instructions in flight */
    uint32_t stores_out;     /* of them, stores waiting for l2.write_ack */
    uint32_t next_tag;
    uint32_t writes;         /* instructions that changed memory (sched_issue) */
    uint32_t npend;
    tm_pending *pend;        /* its TM_MAX_PENDING scoreboard entries (kept
                                out of line so scans over warps stay small) */
    uint16_t sched, view;    /* its scheduler and view index there */
    bool in_fetch;           /* queued for fetch */
    bool imiss;              /* waiting for an instruction-cache line */
    uint8_t ready_unit;      /* operands of its next instruction are known
                                ready and only this unit can hold it back;
                                TM_UNIT_COUNT: unknown (evaluate fully) */
    /* asynchronous copies in flight (timing/sm_async.c) */
    struct tm_async *async;  /* TM_MAX_ASYNC entries, made at its first copy */
    uint32_t nasync;
    uint32_t async_group, bulk_group; /* numbers of the open (uncommitted) groups */
} tm_warp;

typedef struct tm_sched {
    uint32_t id;
    uint32_t nviews;
    sched_warp_view *views;  /* view i is warp slot i * nsched + id */
    uint64_t *recheck;       /* per view: next cycle to look at that warp
                                (TM_NEVER when the slot is empty); one dense
                                array so the per-slot scan stays in cache */
    uint64_t *live;          /* bitset over views: recheck[i] != TM_NEVER
                                (refresh visits only these) */
    uint64_t min_re;         /* no recheck entry is below this (a lower bound:
                                refresh skips its scan while now < min_re) */
    void *pstate;            /* warp policy state (its tm_pol_inst's) */
    uint64_t stuck_since;    /* cycle its memory access was first refused */
    uint64_t unit_free[TM_UNIT_COUNT];
    bool stuck;              /* memsys refused acc: retry every cycle */
    uint32_t stuck_slot;
    uint64_t stuck_token;
    ex_access acc;           /* accesses of the memory instruction issuing */
    uint32_t n[SCHED_WS_COUNT]; /* views per state */
    uint64_t acct_from;      /* first cycle not yet accounted */
    uint8_t idle_cls;        /* classification of unvisited slots */
    tm_sched_counters c;
} tm_sched;

struct tm_sm {
    /* What the GPU loop reads every cycle, together at the start (the rest
     * may live in another host thread's cache, timing/gpu_par.c). */
    uint64_t next_wake;      /* do nothing before this cycle */
    uint32_t resident;       /* CTAs */
    uint32_t shared_ctas;    /* resident CTAs without their own launch copy */
    uint32_t nretired;       /* retired->len */
    bool step;               /* visit every cycle (no event skipping) */
    /* a warp faulted during this SM's visit (its launch holds the message;
     * tm_sm_publish_fault hands a CTA copy's fault to the launch) */
    bool failed;
    bool progressed;         /* a CTA with its own launch copy changed memory */
    uint64_t instrs_seen;    /* c.warp_instrs when the GPU loop last looked */
    tm_cta *failed_cta;
    uint32_t id;
    tm_env *env;
    const gpu_config *cfg;
    uint32_t nwarps, nsched, nctas;
    uint32_t dispatch, issue_width, ibuf_entries;
    uint32_t occupancy[TM_UNIT_COUNT];
    tm_warp *warps;
    tm_pending *pend;        /* nwarps x TM_MAX_PENDING */
    tm_sched *scheds;
    tm_cta *ctas;
    uint32_t free_warps, free_regs, free_ctas;
    uint64_t free_shared;
    uint32_t *fetch_q;       /* ring of warp slots waiting for fetch */
    uint32_t fq_head, fq_len;
    uint64_t wake_hint;      /* earliest re-evaluation asked for while
                                processing the current cycle */
    uint32_t nstate[SCHED_WS_COUNT];
    uint64_t state_since[SCHED_WS_COUNT]; /* c.warp_state[s] counts to here */
    uint32_t mem_inflight;
    uint64_t mem_since;
    uint64_t idle_since;     /* while resident == 0 */
    uint64_t counted_to;     /* c.cycles covers cycles before this */
    void *backoff_state;     /* the SM's backoff policy instance's state */
    uint32_t spin_pc[TM_SPIN_PCS]; /* distinct backoff decision PCs (stats) */
    uint32_t nspin_pcs;
    sched_fetch_req *fetch_scratch; /* nwarps: the queue as the fetch policy sees it */
    /* policy controls (timing/policy.h) */
    bool paused, draining, gated;
    uint32_t cta_limit;      /* CTAs it may hold (SCHED_NO_LIMIT: resources) */
    uint64_t cta_since;      /* c.cta_cycles counted up to here */
    uint64_t gated_since, paused_since;
    bool report_issues;      /* some policy wants issue or warp events */
    /* stuck sleep: every refused access was last refused from unchanged
     * L1 state, so until that state (sig) changes each cycle's retries would
     * be refused again; the SM is not visited and the refusals of the
     * cycles from stuck_from on are counted when it wakes */
    bool stuck_sleep;
    uint32_t stuck_n;        /* refused accesses (stuck schedulers) */
    uint64_t stuck_from;
    memsys_sm_sig stuck_sig;
    tm_ins implicit_ret;     /* a warp falling off the end of a function */
    /* instruction cache (l1i.enabled; timing/sm_fetch.c) */
    bool l1i_on;
    cache l1i;
    mshr_table l1im;         /* waiters: warp slots */
    uint32_t l1i_shift;
    const ex_func *code_fn;  /* the function code_base belongs to */
    uint64_t code_base;
    GArray *retired;         /* tm_retired, this cycle's */
    tm_core_counters c;
};

tm_sm *tm_sm_create(tm_env *env, uint32_t id, uint64_t now);
void tm_sm_destroy(tm_sm *sm);

/* How many more CTAs shaped `r` fit now (cta slots, warps, registers,
 * shared memory). */
uint32_t tm_sm_fit(const tm_sm *sm, const tm_cta_req *r);
/* The same for an empty SM of this config; *why names the bound. */
uint32_t tm_sm_fit_empty(const gpu_config *cfg, const tm_cta_req *r, const char **why);

/* Why the CTAs of L run against the launch itself rather than their own
 * copies (tm_cta.own), which also keeps the launch's SMs on one host
 * thread; NULL: they get copies. */
const char *tm_launch_shared_why(const ex_launch *L);

/* Starts CTA `linear` of launch L; the caller checked tm_sm_fit. */
void tm_sm_launch(tm_sm *sm, ex_launch *L, void *kernel, uint32_t kernel_id,
                  uint32_t linear, const tm_cta_req *r, uint64_t now);

/* Applies a policy control (TM_SM_PAUSE, DRAIN, GATE, RESUME, LIMIT of
 * timing/policy.h) at `now`.  Gating an SM with CTAs drains it first. */
void tm_sm_control(tm_sm *sm, int what, uint32_t arg, uint64_t now);
/* Whether a policy lets the SM take a new CTA now. */
static inline bool tm_sm_accepts(const tm_sm *sm)
{
    return !sm->paused && !sm->draining && !sm->gated && sm->resident < sm->cta_limit;
}

/* Simulates cycle `now`; true when it issued an instruction.  After a
 * fault sm->failed is set and the launch holds the message.  A visit
 * changes only the SM's own state, the memory system's SM side (see
 * memsys_batch) and memory its own CTAs own: SMs whose CTAs all run on
 * their own launch copies may be visited on different host threads
 * (timing/gpu_par.c).  The test
 * whether the SM has anything to do is inline: most SM-cycles of a
 * memory-bound kernel are skipped there. */
bool tm_sm_visit(tm_sm *sm, uint64_t now);
/* Whether cycle `now` must visit the SM. */
static inline bool tm_sm_due(const tm_sm *sm, uint64_t now)
{
    return (now >= sm->next_wake || sm->step) && sm->resident;
}

static inline bool tm_sm_cycle(tm_sm *sm, uint64_t now)
{
    if (!tm_sm_due(sm, now))
        return false;
    return tm_sm_visit(sm, now);
}

static inline uint64_t tm_sm_next_wake(const tm_sm *sm)
{
    return sm->resident ? sm->next_wake : TM_NEVER;
}

/* After every SM's visit of a cycle, in SM order: the CTAs that finished
 * during the visit add their counts to their launch and go to env->cta_done. */
void tm_sm_retire(tm_sm *sm);
/* A faulted CTA running on its own launch copy: the fault goes to the
 * launch (the first one; later ones are dropped). */
void tm_cta_publish_fault(tm_cta *c);
/* After a failed visit: tm_cta_publish_fault of the CTA that faulted. */
void tm_sm_publish_fault(tm_sm *sm);

/* memsys completion of the instruction (slot, tag) at `cycle`. */
void tm_sm_mem_done(tm_sm *sm, uint32_t slot, uint32_t tag, uint64_t cycle);

/* A stuck-sleeping SM whose L1 state changed is woken for the next cycle
 * (the gpu loop calls this after each cycle's memory-system work). */
void tm_sm_stuck_recheck(tm_sm *sm, uint64_t now);
static inline void tm_sm_check_stuck(tm_sm *sm, uint64_t now)
{
    if (sm->stuck_sleep && sm->next_wake > now + 1)
        tm_sm_stuck_recheck(sm, now);
}

/* Brings every counter up to date for the cycles before `upto`. */
void tm_sm_flush(tm_sm *sm, uint64_t upto);

/* Frees every resident CTA without running it further (failed launch);
 * counts their instructions into their launches. */
void tm_sm_abort(tm_sm *sm);

/* A CTA whose live warps all wait at a barrier no one else can reach, or
 * NULL. */
tm_cta *tm_sm_find_deadlock(tm_sm *sm);

/* The warp-slot field of a memsys token of an instruction fetch (its tag:
 * the instruction cache's MSHR entry). */
#define TM_IFETCH_SLOT 0xffffu
/* a memory tag with this bit is a store that waits for its L2 ack */
#define TM_TAG_STORE 0x80000000u

/* memsys tokens: SM, warp slot and tag in one 64-bit number. */
static inline uint64_t tm_token(uint32_t sm, uint32_t slot, uint32_t tag)
{
    return ((uint64_t)sm << 48) | ((uint64_t)(slot & 0xffffu) << 32) | tag;
}

#endif
