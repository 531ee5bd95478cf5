/* timing/gpu_internal.h — the timing driver's run records, shared by
 * timing/gpu.c (cycle loop, kernel lifetime), timing/cta_sched.c (CTA
 * scheduling, policy controls) and timing/gpu_cdp.c (device-side
 * launches).  Private to timing/. */
#ifndef PTXEMU_TIMING_GPU_INTERNAL_H
#define PTXEMU_TIMING_GPU_INTERNAL_H

#include "runtime/cdp.h"
#include "timing/gpu.h"
#include "timing/kmu.h"
#include "timing/memsys.h"
#include "timing/policy.h"
#include "timing/sm.h"

#define TM_NO_GRID UINT32_MAX

/* A grid of a run (timing/gpu_cdp.c): a host launch or a device launch,
 * with what its completion waits for (CUDA: a grid is complete once its
 * CTAs and every grid it launched are). */
typedef struct tm_grid {
    ex_launch own;               /* a device launch's ex_launch (L points here) */
    ex_launch *L;
    ex_cdp_launch *rec;          /* NULL: a host launch */
    uint32_t parent;             /* grid index, TM_NO_GRID for a host launch */
    uint32_t kernel;             /* kernel its CTAs run in (TM_NO_GRID: not yet) */
    uint32_t sub;                /* cdp mode: its KMU submission */
    uint64_t ready;              /* dtbl mode: the cycle it may join its kernel */
    uint64_t latency;            /* cycles from its launch until it reaches the GPU */
    uint32_t ctas_left;          /* CTAs not finished (known once it joined) */
    uint32_t open;               /* non-tail children not complete */
    uint32_t tails_open;         /* tail children submitted, not complete */
    GPtrArray *tails;            /* tm_grid* tail children not yet submitted */
    bool joined;                 /* its CTAs are in a kernel */
    bool complete;
    bool dirty;                  /* in the to-check list */
} tm_grid;

/* The device-launch state of a run. */
typedef struct tm_cdp_state {
    GPtrArray *grids;            /* tm_grid*; index = grid id */
    GArray *waiting;             /* dtbl: uint32_t grids waiting for their latency */
    GArray *dirty;               /* uint32_t grids whose completion may have changed */
    uint64_t next;               /* earliest cycle a waiting dtbl group joins */
    GString *why;                /* the message of a refused launch */
    /* the warp instruction that made the last device launch (its lanes
     * launch one after another) and how many launches it made so far */
    uint32_t warp_parent, warp_cta, warp_id, warp_launches;
    uint64_t warp_cycle;
    uint32_t *queued;            /* dtbl, LaPerm: [nsms] TB groups launched from
                                    each SM and not yet fully dispatched */
    uint64_t overflows;          /* of those, groups that found the queue full */
    GHashTable *last;            /* 128-byte line -> index of its last access */
    uint64_t accesses;           /* line accesses so far (global memory) */
    GHashTable *reuse;           /* (grid << 32 | cta) of a child TB -> its
                                    tm_cdp_reuse counts */
    GHashTable *lines;           /* (grid << 32 | cta) -> set of 128-byte lines it
                                    touched; only while a module can launch */
} tm_cdp_state;

/* Launches whose CTAs form one kernel: its own, then appended TB groups. */
typedef struct tm_seg {
    ex_launch *L;
    uint32_t first, count;       /* kernel-wide CTA indices [first, first+count) */
    tm_cta_req req;
    uint32_t grid;               /* its grid (timing/gpu_cdp.c), TM_NO_GRID: none */
} tm_seg;

/* A kernel of the current run. */
typedef struct tm_kernel {
    ex_launch *L;                /* its own launch (segment 0) */
    uint32_t id;                 /* launch id */
    uint32_t total, finished;
    uint32_t next;               /* lowest CTA id not yet placed */
    uint32_t issued;             /* CTAs placed (a CTA policy may place out of order) */
    uint8_t *placed;             /* [total]: CTA placed */
    GArray *segs;                /* tm_seg */
    GArray *groups;              /* sched_cta_group, one per segment */
    GArray *tbs;                 /* tm_tb_stat per placed CTA */
    tm_occupancy occ;
    uint64_t arrival, end;
    bool arrived, done;
    uint32_t pending_appends;    /* submissions still to append to it */
    uint32_t sub;                /* its own submission */
    uint32_t *resident;          /* per SM */
    uint64_t *issued_on, *finished_on;
    tm_core_counters *base;      /* SM counters at arrival */
    tm_mem_counters mem_base;
    uint64_t *served_base;
    uint32_t grid;               /* the grid it runs (timing/gpu_cdp.c), TM_NO_GRID: none */
    uint32_t dev_appends;        /* dtbl: device launches still to join it */
    /* limits.max_warp_instructions of a kernel whose CTAs run on launch
     * copies: checked after each cycle (tm_gpu_check_instrs) */
    bool instr_limit;
    uint64_t instrs_at_begin;    /* every SM's warp instructions when it began */
    /* sampled simulation (timing/sample.c): its state (NULL: sample.mode =
     * off), and whether its CTAs not yet placed are held back */
    struct tm_sample_k *smp;
    bool sample_hold;
} tm_kernel;

struct tm_gpu {
    gpu_config cfg;
    tm_options opts;
    char *csv_dir;
    tm_policies pol;
    tm_env env;
    memsys *mem;
    tm_sm **sms;
    uint32_t nsms;
    uint32_t *visited;           /* nsms: the SMs a cycle visits (step_sms) */
    /* bit per SM, a superset of the SMs holding a CTA: set at each CTA
     * launch, cleared by the GPU loop's scans once the SM is empty, so the
     * two scans per cycle skip idle SMs (never due, no wake-up) */
    uint64_t *occupied;
    uint64_t now;                /* last simulated cycle */
    tm_stats stats;
    /* the current run */
    tm_kernel **kernels;         /* stable: the SMs hold kernel pointers */
    uint32_t nkernels, kernels_cap;
    tm_kmu kmu;                  /* its submissions: KMU and KDU */
    uint64_t kmu_next;           /* earliest cycle a submission may arrive */
    bool cta_dirty;              /* CTA placement may succeed now */
    uint64_t cta_retry_at;       /* a policy asked to be asked again then */
    uint32_t *limits;            /* SCHED_MAX_KERNELS x nsms */
    sched_cta_sm_view *smv;
    sched_sm_view *smview;       /* per SM, refreshed when asked for */
    sched_kernel_info kinfo[SCHED_MAX_KERNELS];
    uint32_t kidx[SCHED_MAX_KERNELS];
    tm_cdp_state cdp;            /* device-side launches (timing/gpu_cdp.c) */
    /* host threads for the SM visits (timing/gpu_par.c); NULL: one */
    struct tm_par *par;
    GHashTable *par_noted;       /* kernels (ex_func*) said to keep one thread */
    uint32_t instr_limits;       /* running kernels with tm_kernel.instr_limit */
    struct tm_sampler *sampler;  /* sample.mode = on (timing/sample.h); NULL: off */
};

/* run_limits.c: after a cycle, stops (fails) a kernel whose CTAs run on
 * launch copies once its warp instructions exceed limits.max_warp_instructions
 * (kernels on the launch itself stop at the instruction, runtime/warp.c). */
void tm_gpu_check_instrs(tm_gpu *g);

/* gpu_par.c */
typedef struct tm_par tm_par;
tm_par *tm_par_create(uint32_t nthreads);
void tm_par_destroy(tm_par *p);
/* Visits the due SMs among sms[0..n) at `now`, each on its owner thread
 * (tm_par_owner); with !workers only the caller's own (no other is due).
 * Returns when every visit is done. */
void tm_par_visit(tm_par *p, tm_sm *const *sms, uint32_t n, uint64_t now, bool workers);
/* The thread (0: the caller) that visits SM `sm` while tm_par_on. */
uint32_t tm_par_owner(const tm_par *p, uint32_t sm);
/* Whether the SMs go to their owner threads now (else the caller visits
 * every SM), and, after each cycle with `due` SMs visited, the bookkeeping
 * that decides that from measured times. */
bool tm_par_on(const tm_par *p);
void tm_par_count(tm_par *p, uint32_t due);
/* With opts.host_threads > 1: the workers, or a notice saying why the SMs
 * stay on one thread. */
void tm_gpu_par_setup(tm_gpu *g);
void tm_gpu_par_free(tm_gpu *g);
/* A kernel starts: once per kernel, a notice when its CTAs keep the SMs on
 * one thread while they are resident. */
void tm_gpu_par_note(tm_gpu *g, const ex_launch *L);


/* gpu_stall.c: nothing can ever happen again at `now` (a barrier no one
 * else reaches, CTAs the policies hold back with nothing left to wake
 * them, or a bug): the fault, and env.failed set. */
void tm_gpu_report_stall(tm_gpu *g, uint64_t now);

/* gpu.c, for gpu_cdp.c */
tm_kernel *tm_gpu_kernel_add(tm_gpu *g, uint32_t *index);
bool tm_gpu_kernel_setup(tm_gpu *g, tm_kernel *k, ex_launch *L, GError **error);
bool tm_gpu_launch_req(tm_gpu *g, ex_launch *L, tm_cta_req *req, tm_occupancy *occ,
                       GError **error);
/* Appends L's CTAs to kernel k as a segment of grid `grid`. */
void tm_gpu_append(tm_gpu *g, tm_kernel *k, ex_launch *L, uint32_t grid, uint64_t now);

/* cta_sched.c */
/* What the GPU does for the controls policies use (tm_pol_init). */
extern const tm_pol_ops tm_gpu_pol_ops;
/* The view of kernel k that kernel and CTA policies read. */
sched_kernel_info tm_gpu_kernel_info(const tm_kernel *k);
/* Places the CTAs the kernel, CTA and filter policies let go at `now`
 * (the loop calls it while g->cta_dirty or at g->cta_retry_at). */
void tm_gpu_schedule_ctas(tm_gpu *g, uint64_t now);

/* gpu_cdp.c */
void tm_cdp_init(tm_gpu *g);
void tm_cdp_free(tm_gpu *g);
/* The grid of a host kernel submission (called at set-up). */
void tm_cdp_host_grid(tm_gpu *g, tm_kernel *k, uint32_t kernel_index, ex_launch *L);
/* ex_launch.on_device_launch of every launch on the timing model. */
bool tm_cdp_on_launch(void *user, ex_launch *parent, ex_cdp_launch *child, const char **why);
/* Kernel k arrived on the GPU (a device-launched grid has started). */
void tm_cdp_kernel_arrived(tm_gpu *g, tm_kernel *k);
/* The last CTA of a device-launched TB group from SM parent_sm was placed:
 * its LaPerm queue entry is free (cdp.dtbl_overflow_latency). */
void tm_cdp_group_dispatched(tm_gpu *g, uint32_t parent_sm);
/* `n` more CTAs (a host TB group appended to its kernel) belong to `grid`. */
void tm_cdp_add_ctas(tm_gpu *g, uint32_t grid, uint32_t n);
/* A CTA of grid `grid` finished. */
void tm_cdp_cta_done(tm_gpu *g, uint32_t grid);
/* dtbl groups whose latency has passed join their kernels; grids whose
 * completion may have changed are settled (tail launches submitted,
 * parents told).  Call once a cycle before kernels are checked for done. */
void tm_cdp_progress(tm_gpu *g, uint64_t now);
/* Whether kernel k may finish: its grid (if any) is complete. */
bool tm_cdp_kernel_may_finish(const tm_gpu *g, const tm_kernel *k);
/* The earliest cycle a waiting dtbl group joins; TM_NEVER: none. */
uint64_t tm_cdp_next_cycle(const tm_gpu *g);
/* The shared_with_parent of every device-launched TB in the statistics of
 * kernels from index `first` on (this run's). */
void tm_cdp_footprints(tm_gpu *g, guint first);
/* The first failed device-launched grid's launch, or NULL. */
const ex_launch *tm_cdp_failed(const tm_gpu *g);

#endif
