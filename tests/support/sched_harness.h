/* tests/support/sched_harness.h — one scheduling policy instance outside the
 * timing model, for a policy's unit tests.
 *
 * The harness builds what the timing driver (timing/policy.c) would give
 * the policy: its keys at the defaults its lines in sched/policies.def
 * declare (sched_key_defs(), never the GPU config), an environment, a state
 * of `state_size` zeroed bytes, and controls that act on SM views the
 * harness owns.  It calls only the hooks the policy has (every hook but a
 * level's decision function is optional), so a test needs sched/ headers
 * and the isa rows alone.  Misuse (an unknown policy or key, a value out
 * of the key's range, a decision function of another level, a control on
 * an SM that does not exist) fails the running cmocka test.
 *
 *     sched_harness sh;
 *     sh_open(&sh, SCHED_LEVEL_WARP, "gto");    keys at their defaults
 *     sh_set(&sh, "pa.tie_rr=true");            any key, before start
 *     sh_warps(&sh, 4, ages);                   4 ready warps (nslots = 4)
 *     sh.env.nsms = 2;                          any env field, before start
 *     sh_start(&sh);                            state allocated, init if any
 *     sh.warps[1].state = SCHED_WS_SB_MEM;      views are plain fields
 *     assert_int_equal(sh_pick(&sh), 3);
 *     sh_close(&sh);                            destroy if any, freed
 */
#ifndef PTXEMU_TEST_SCHED_HARNESS_H
#define PTXEMU_TEST_SCHED_HARNESS_H

#include "sched/sched.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct sched_harness {
    const sched_policy *policy;  /* the registry's entry */
    const sched_hooks *h;        /* its hooks (first member of its ops) */
    sched_keys keys;             /* every policy's keys (env.keys points here) */
    /* Set by sh_open: 1 SM of 1 scheduler, 8 warp slots, 8 CTA slots, 32768
     * registers, 48 KiB shared; sm/scheduler as the driver numbers this
     * level's instance (SCHED_NONE for GPU-wide levels, 0 otherwise);
     * nslots = warp_slots at the warp level.  Edit before sh_start. */
    sched_env env;
    void *st;                    /* the policy's state, after sh_start */
    bool started;
    /* ctl.cycle is the clock every hook and decision sees (set it freely);
     * ctl.drv points back at the harness. */
    sched_ctl ctl;
    sched_sm_view *sms;          /* env.nsms SM views, after sh_start */
    sched_cta_sm_view *cta_sms;  /* per SM, for the view sh_cta_view builds */
    sched_cta_view cta;          /* the last view sh_cta_view built */
    uint64_t retry_at;           /* last ctl.cta_retry cycle; SCHED_NEVER: none */
    uint32_t retries;            /* ctl.cta_retry calls */
    GString *log;                /* "cycle N: policy: text\n" per c->log call */
    FILE *sink;                  /* ctl.trace while tracing (sh_trace) */
    char why[SCHED_WHY_LEN];     /* the last decision's reason ("" none) */
    /* Warp views of this scheduler (warp level) or SM (backoff release). */
    uint32_t nwarps;
    sched_warp_view warps[SCHED_MAX_WARP_SLOTS];
    ptx_annot annot[SCHED_MAX_WARP_SLOTS]; /* warps[i].annot = &annot[i] */
} sched_harness;

/* ------------------------------------------------------------ lifetime */

/* The policy `name` of `level` with every key at its policies.def default
 * and the default env (above); nothing of the policy runs yet. */
void sh_open(sched_harness *sh, sched_level level, const char *name);
/* "policy.key=value" for any policy's key (true/false or 1/0 for booleans),
 * checked against the key's kind and range; before sh_start. */
void sh_set(sched_harness *sh, const char *assignment);
/* Every assignment of a NULL-terminated list (NULL: none). */
void sh_setv(sched_harness *sh, const char *const *assignments);
/* Allocates the state (state_size bytes, zeroed) and the SM views, then
 * calls init if the policy has one. */
void sh_start(sched_harness *sh);
/* Calls destroy if the policy has one and frees everything. */
void sh_close(sched_harness *sh);
/* Tracing on: ctl.trace and the warp context's trace are non-NULL, so the
 * policy fills `why` and logs (into sh->log).  Off by default. */
void sh_trace(sched_harness *sh, bool on);

/* ------------------------------------------------------------ views */

/* n warps (n <= SCHED_MAX_WARP_SLOTS) in views 0..n-1: slot i, age ages[i]
 * (NULL: i, so view 0 is the oldest), able to issue an ALU instruction,
 * never issued, annotations zeroed.  Before sh_start it also sets
 * env.warp_slots and env.nslots to n, as the driver gives one scheduler. */
void sh_warps(sched_harness *sh, uint32_t n, const uint64_t *ages);
/* A kernel of `ctas` CTAs (grid ctas x 1 x 1) of `warps_per_cta` warps,
 * `max_fit` of which an empty SM holds; no CTA groups (ngroups 0: a test
 * of a policy that reads them points groups at its own). */
sched_kernel_info sh_kernel(uint32_t id, uint32_t ctas, uint32_t max_fit,
                            uint32_t warps_per_cta);
/* The CTA level's view of kernel k at ctl.cycle: next_cta = k->issued and
 * one entry per SM from the SM views, as if k were the only kernel (its
 * resident CTAs are the SM's): fit = max_fit (or the SM's limit, if lower)
 * less the resident CTAs, eligible = fit > 0 and the SM is neither paused,
 * draining nor gated.  Edit sh->cta / sh->cta_sms after it to taste. */
const sched_cta_view *sh_cta_view(sched_harness *sh, const sched_kernel_info *k);

/* ------------------------------------------------------------ decisions
 * Each calls the level's decision function with sh->why cleared first. */

int32_t sh_pick(sched_harness *sh);                          /* warp: over sh->warps */
uint64_t sh_observe(sched_harness *sh, const sched_issue *e); /* backoff */
int32_t sh_release(sched_harness *sh);                       /* backoff: over sh->warps */
/* kernel: limit holds n * env.nsms entries, set to SCHED_NO_LIMIT first */
void sh_decide(sched_harness *sh, const sched_kernel_info *ks, uint32_t n,
               sched_kernel_decision *out, uint32_t *limit);
int32_t sh_place(sched_harness *sh, const sched_kernel_info *k); /* CTA: a new view */
/* filter: asks about CTA `cta` of k on `sm` (a new view, next_cta = cta) */
sched_verdict sh_admit(sched_harness *sh, const sched_kernel_info *k, uint32_t cta,
                       uint32_t sm, bool refused);
uint32_t sh_fetch_pick(sched_harness *sh, const sched_fetch_req *q, uint32_t n);
uint32_t sh_l1_pick(sched_harness *sh, const sched_l1_req *q, uint32_t n);

/* ------------------------------------------------------------ hooks
 * Each calls the hook only if the policy has it.  The driver sends an
 * instance only the events some policy of the run wants (h.wants), so a
 * policy must cope with events it did not ask for; the harness sends every
 * event it is given. */

uint64_t sh_tick(sched_harness *sh); /* the tick's answer; SCHED_NEVER: no tick hook */
void sh_kernel_arrive(sched_harness *sh, const sched_kernel_info *k);
void sh_kernel_finish(sched_harness *sh, const sched_kernel_info *k);
/* Keep the SM views as the driver would (resident, ctas_issued/finished; a
 * draining SM powers off when its last CTA finishes), then the hook. */
void sh_cta_issued(sched_harness *sh, uint32_t kernel, uint32_t cta, uint32_t sm);
void sh_cta_finished(sched_harness *sh, uint32_t kernel, uint32_t cta, uint32_t sm);
void sh_cta_dropped(sched_harness *sh, uint32_t kernel, uint32_t cta, uint32_t sm,
                    const char *why);
void sh_warp_arrive(sched_harness *sh, const sched_warp_event *e);
void sh_warp_leave(sched_harness *sh, const sched_warp_event *e);
void sh_barrier(sched_harness *sh, const sched_warp_event *e);
void sh_exit(sched_harness *sh, const sched_warp_event *e);
void sh_issued(sched_harness *sh, const sched_issue *e);
void sh_mem_reply(sched_harness *sh, const sched_mem_reply *e);

#endif
