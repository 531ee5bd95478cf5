/* timing/policy.h — the policy host: the instances of the chosen policies
 * (sched/), the controls they are given, their ticks and the delivery of
 * every event to every instance that wants it.
 *
 * Instances: kernel, CTA placement and the admission filters one per GPU;
 * backoff, fetch and L1 one per SM; warp one per SM scheduler.  A GPU-level
 * instance sees the events of every SM; an SM-level one those of its SM; a
 * warp instance those of its scheduler's warps.  The host owns no SM or
 * kernel state: the controls it hands to policies call back into the GPU
 * (tm_pol_ops), which applies them. */
#ifndef PTXEMU_TIMING_POLICY_H
#define PTXEMU_TIMING_POLICY_H

#include "sched/sched.h"
#include "timing/config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the GPU does for the controls policies use. */
typedef struct tm_pol_ops {
    void (*sm_control)(void *gpu, uint32_t sm, int what, uint32_t arg);
    const sched_sm_view *(*sm_view)(void *gpu, uint32_t sm);
    void (*cta_retry)(void *gpu, uint64_t cycle);
} tm_pol_ops;

enum { TM_SM_PAUSE, TM_SM_DRAIN, TM_SM_GATE, TM_SM_RESUME, TM_SM_LIMIT };

/* One instance: its hooks and its state. */
typedef struct tm_pol_inst {
    const sched_hooks *h;
    void *st;
    uint64_t next_tick;          /* SCHED_NEVER: idle */
} tm_pol_inst;

typedef struct tm_policies {
    sched_selection sel;
    sched_keys keys;
    sched_ctl ctl;
    const tm_pol_ops *ops;
    void *gpu;
    uint32_t nsms, nsched;
    /* GPU level, in delivery order: the kernel instance, the CTA-placement
     * instance, then the filters in cta.filters order (tm_pol_kernel,
     * tm_pol_cta, tm_pol_filter name them) */
    tm_pol_inst *gpu_level;
    uint32_t ngpu;
    /* per SM: backoff, fetch, L1 (3 per SM) and warp (nsched per SM) */
    tm_pol_inst *sm_inst;
    tm_pol_inst *warp_inst;
    unsigned wants;              /* union of every instance's wants */
    uint64_t next_tick;          /* earliest tick any instance asked for */
} tm_policies;

void tm_pol_init(tm_policies *p, const gpu_config *cfg, FILE *trace, const tm_pol_ops *ops,
                 void *gpu, uint32_t warp_slots);
void tm_pol_destroy(tm_policies *p);

/* Instances of the levels the SM and GPU call directly. */
enum { TM_POL_AT_KERNEL, TM_POL_AT_CTA, TM_POL_AT_FILTERS }; /* places in gpu_level */
static inline tm_pol_inst *tm_pol_kernel(tm_policies *p)
{
    return &p->gpu_level[TM_POL_AT_KERNEL];
}
static inline tm_pol_inst *tm_pol_cta(tm_policies *p)
{
    return &p->gpu_level[TM_POL_AT_CTA];
}
/* Filter f of sel.filters (f < sel.nfilters). */
static inline tm_pol_inst *tm_pol_filter(tm_policies *p, unsigned f)
{
    return &p->gpu_level[TM_POL_AT_FILTERS + f];
}
static inline tm_pol_inst *tm_pol_warp(tm_policies *p, uint32_t sm, uint32_t sched)
{
    return &p->warp_inst[(size_t)sm * p->nsched + sched];
}
static inline tm_pol_inst *tm_pol_backoff(tm_policies *p, uint32_t sm)
{
    return &p->sm_inst[(size_t)sm * 3];
}
static inline tm_pol_inst *tm_pol_fetch(tm_policies *p, uint32_t sm)
{
    return &p->sm_inst[(size_t)sm * 3 + 1];
}
static inline tm_pol_inst *tm_pol_l1(tm_policies *p, uint32_t sm)
{
    return &p->sm_inst[(size_t)sm * 3 + 2];
}

/* The controls as of `now` (sets ctl.cycle). */
static inline const sched_ctl *tm_pol_ctl(tm_policies *p, uint64_t now)
{
    if (p->ctl.cycle != now) /* SMs visited on several threads only read it */
        p->ctl.cycle = now;
    return &p->ctl;
}

/* Runs the ticks due at `now`. */
void tm_pol_tick(tm_policies *p, uint64_t now);

/* Events: GPU-level instances, then the SM's instances, then (warp events)
 * the scheduler's warp instance.  sm = SCHED_NONE: GPU-level only. */
typedef enum tm_pol_event {
    TM_EV_KERNEL_ARRIVE, TM_EV_KERNEL_FINISH,
    TM_EV_CTA_ISSUED, TM_EV_CTA_DROPPED, TM_EV_CTA_FINISHED,
    TM_EV_WARP_ARRIVE, TM_EV_WARP_LEAVE, TM_EV_BARRIER, TM_EV_EXIT,
    TM_EV_ISSUED, TM_EV_MEM_REPLY,
} tm_pol_event;

void tm_pol_event_send(tm_policies *p, uint64_t now, tm_pol_event ev, uint32_t sm,
                       uint32_t sched, const void *data);

#endif
