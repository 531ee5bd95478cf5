/* sched/cta/laperm.h — the LaPerm TB-scheduling engine (Wang et al. 2016;
 * SEED-TARGETS §6), shared by laperm-tbpri, laperm-smxbind and
 * laperm-adaptive.
 *
 * A CTA's priority level is its grid's nesting depth capped at L
 * (laperm.levels): host kernels 0, a child one above its parent.  The
 * driver groups a kernel's CTAs by origin (sched_cta_group): with
 * cdp.mode = cdp every device launch is a kernel of its own, with dtbl its
 * CTAs are a group appended to the parent's kernel; the engine treats both
 * alike.  Every time CTAs are placed, order_kernels counts the waiting CTAs
 * of every level-0 group and, per SMX, of the level >= 1 groups bound to it
 * (their parent ran there: the SMX's queues), and puts kernels with
 * higher-level waiting CTAs first, first come first served within a level.
 * Then SMs are offered CTAs round-robin from the one after the last SM that
 * took one (the RR baseline's order: the seed's SMX scheduler visits one SMX
 * per cycle, SMX0, SMX1, ...), and each takes:
 *   tbpri     the highest-level waiting CTA anywhere (FCFS within a level);
 *   smxbind   the highest-level CTA of its own queues; only when they are
 *             empty a level-0 CTA; never another SMX's children;
 *   adaptive  its own queues; else a level-0 CTA; else, when no level-0 CTA
 *             waits anywhere, the highest-level CTA of a backup SMX's queues
 *             (remembered and reused until its queues are empty; the first
 *             choice round-robin from the SMX after it).
 * The driver offers SMs kernel by kernel (placing a kernel's CTAs until the
 * policy declines, then the next kernel, repeating while any is placed); so
 * that SMs still take their turns in SMX order, smxbind and adaptive decline
 * an SM for kernel k when that SM's stage-1 or stage-2 choice lies in
 * another kernel (its queues hold CTAs of a child kernel, or the level-0
 * parents are another kernel's): that kernel is offered the SM next.
 * A queue holds laperm.queue_entries CTAs on chip; more overflow to memory:
 * counted (the trace says so), with no extra latency modelled yet. */
#ifndef PTXEMU_SCHED_CTA_LAPERM_H
#define PTXEMU_SCHED_CTA_LAPERM_H

#include "sched/sched.h"

typedef enum laperm_mode { LAPERM_TBPRI, LAPERM_SMXBIND, LAPERM_ADAPTIVE } laperm_mode;

typedef struct laperm {
    laperm_mode mode;
    const char *name;
    uint32_t levels;             /* L: priorities 0..L */
    uint32_t queue_entries;      /* on-chip entries of one SMX's queues */
    uint32_t nsms;
    uint32_t last;               /* SM that took the last CTA */
    bool any;
    uint32_t *own;               /* [nsms] CTAs waiting in each SMX's queues */
    uint32_t *backup;            /* [nsms] adaptive: remembered backup SMX */
    uint32_t level0;             /* level-0 CTAs waiting */
    uint32_t level0_ready;       /* of those, in kernels offered CTAs now */
    uint32_t choice, choice_sm;  /* what place() chose, for pick_cta */
    uint64_t overflow;           /* queue entries that did not fit on chip */
} laperm;

void laperm_init(laperm *s, laperm_mode mode, const char *name, const sched_env *env);
void laperm_destroy(laperm *s);
void laperm_order_kernels(laperm *s, const sched_ctl *c, const sched_kernel_view *v,
                          sched_kernel_decision *out);
int32_t laperm_place(laperm *s, const sched_ctl *c, const sched_cta_view *v, char *why);
uint32_t laperm_pick_cta(laperm *s, uint32_t sm);
void laperm_cta_issued(laperm *s, const sched_cta_event *e);

#endif
