/* sched/filter/core_count.h — how many cores to keep powered (thesis §4.4):
 * the ONAC and Seq-Det detection machines, drivable by tests with a
 * scripted IPC(N) curve, and the driver both policies share
 * (sched/filter/core_count.c; the policies are sched/filter/onac.c and
 * sched/filter/seq_det.c). */
#ifndef PTXEMU_SCHED_FILTER_CORE_COUNT_H
#define PTXEMU_SCHED_FILTER_CORE_COUNT_H

#include "sched/sched.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum cc_kind { CC_ONAC, CC_SEQ_DET } cc_kind;

typedef struct cc_fsm {
    cc_kind kind;
    uint32_t ncores;
    uint32_t n;             /* cores on for the next sample */
    uint32_t samples;
    bool done;
    double thr;             /* 0.98 x IPC with every core on (the 2% rule) */
    double frac;            /* that 0.98 */
    uint32_t prev_n;        /* ONAC: the previous point of the line */
    double prev_ipc;
} cc_fsm;

/* Start: the first sample has every core on (m->n = ncores). */
void cc_start(cc_fsm *m, cc_kind kind, uint32_t ncores, double frac);
/* One sample: ipc measured with m->n cores on.  Returns the cores for the
 * next sample, or the final count (m->done). */
uint32_t cc_sample(cc_fsm *m, double ipc);

/* The shared policy (hooks of sched/filter/onac.c and seq_det.c). */
typedef struct cc_state {
    cc_fsm m;
    cc_kind kind;
    uint32_t nsms, running;
    double waves, frac;
    double warmup;          /* waves run before the first sample (0: none) */
    bool warming;           /* the kernel's warm-up is running: no sample yet */
    bool detecting;
    bool settling;          /* waiting for the cores switched off to drain */
    uint32_t max_fit;
    bool *on;               /* [nsms] powered and taking CTAs */
    uint64_t start, base_instrs, finished, base_finished, target;
} cc_state;

void cc_init(cc_state *s, cc_kind kind, const sched_env *env, double waves, double frac,
             double warmup);
void cc_destroy(void *st);
void cc_kernel_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k);
void cc_kernel_finish(void *st, const sched_ctl *c, const sched_kernel_info *k);
void cc_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e);
sched_verdict cc_admit(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm,
                       bool refused, char *why);

#endif
