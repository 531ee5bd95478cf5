/* timing/sm_internal.h — what the files of one SM share: sm.c (set-up,
 * counters, fetch, refused-access retries, the visit), sm_sched.c (warp
 * evaluation and picking), sm_issue.c (issuing an instruction, memory
 * replies), sm_cta.c (occupancy, CTA lifetime, policy controls),
 * sm_instr.c (the instruction tables) and sm_async.c (asynchronous
 * copies).  The warp-slot state helpers are static inline here because
 * the per-cycle paths in several of those files call them. */
#ifndef PTXEMU_TIMING_SM_INTERNAL_H
#define PTXEMU_TIMING_SM_INTERNAL_H

#include "timing/sm.h"
#include "runtime/warp.h"

#include <stdint.h>

/* Cycles a unit slice is busy with one warp instruction (sm_instr.c). */
uint32_t tm_unit_occupancy(const gpu_config *cfg, tm_unit u);

/* Asynchronous copies (timing/sm_async.c): a cp.async or cp.async.bulk is
 * issued to the memory system like a load but holds no register, so the
 * warp runs on; cp.async.wait_group / cp.async.bulk.wait_group hold the
 * warp until the copies of the groups they name have landed, and
 * mbarrier.test_wait/try_wait until the copies tracked by that mbarrier
 * (any warp of the CTA) have. */
#define TM_MAX_ASYNC 64u
/* True when `in` must wait for copies in flight. */
bool tm_async_blocked(const tm_sm *sm, const tm_warp *tw, const ex_instr *in);
/* After `in` issued: starts tracking a copy (to_memsys: it went to the
 * memory system with `tag`), closes a group, or ties copies to an mbarrier. */
void tm_async_issued(tm_warp *tw, const ex_instr *in, const ex_access *a, bool to_memsys,
                     uint32_t tag);
/* Memory reply `tag` of tw: true when it was a copy an mbarrier tracks
 * (the CTA's waiting warps must look again). */
bool tm_async_landed(tm_warp *tw, uint32_t tag);
void tm_async_reset(tm_warp *tw);
void tm_async_free(tm_warp *tw);

/* Instruction cache (timing/sm_fetch.c, l1i.enabled). */
void tm_l1i_init(tm_sm *sm);
void tm_l1i_free(tm_sm *sm);
/* Drops the fetches in flight (a failed run: the memory system restarts). */
void tm_l1i_abort(tm_sm *sm);
/* Fetch for warp `slot` at `now`: true when its instructions are there,
 * *n of them (at most core.ibuffer_entries, not past the line); false when
 * it waits for a line (it rejoins the fetch queue when the line arrives)
 * or the cache could not take the miss (it rejoins the queue at once). */
bool tm_l1i_fetch(tm_sm *sm, uint32_t slot, uint64_t now, uint32_t *n);
/* The line of MSHR entry e arrived at `cycle`. */
void tm_l1i_done(tm_sm *sm, uint32_t e, uint64_t cycle);

/* sm_sched.c: the timing table of fn, built on first use by any SM. */
const tm_func *tm_sm_func_of(tm_env *env, const ex_func *fn);
/* sm_sched.c: issues from one scheduler at slot `now`; returns the
 * earliest cycle one of its warps needs looking at again. */
uint64_t tm_sm_schedule(tm_sm *sm, tm_sched *s, uint64_t now, bool *issued_any);
/* sm_issue.c: issues tw's next instruction; returns a CTA that completed. */
tm_cta *tm_sm_issue(tm_sm *sm, tm_sched *s, tm_warp *tw, uint64_t now);
/* sm_cta.c: CTA c finished at `cycle`: it is released and waits for
 * tm_sm_retire. */
void tm_sm_cta_complete(tm_sm *sm, tm_cta *c, uint64_t cycle);

/* ------------------------------------------------- warp-slot state helpers */

/* How an issue slot that issued nothing is counted (tm_sched.idle_cls). */
enum { SM_CLS_NO_WARP, SM_CLS_SB_ALU, SM_CLS_SB_MEM, SM_CLS_PIPE_ALU, SM_CLS_PIPE_MEM };

/* Scheduler state of a slot that issued nothing (thesis §3.5.3): a ready
 * warp blocked by a unit beats operand waits, which beat "no warp". */
static inline uint8_t sm_classify(const tm_sched *s)
{
    if (s->n[SCHED_WS_STALL_MEM])
        return SM_CLS_PIPE_MEM;
    if (s->n[SCHED_WS_STALL_ALU])
        return SM_CLS_PIPE_ALU;
    if (s->n[SCHED_WS_SB_MEM])
        return SM_CLS_SB_MEM;
    if (s->n[SCHED_WS_SB_ALU])
        return SM_CLS_SB_ALU;
    return SM_CLS_NO_WARP;
}

static inline void sm_account(tm_sched *s, uint8_t cls, uint64_t n)
{
    if (!n)
        return;
    s->c.slots += n;
    switch (cls) {
    case SM_CLS_SB_ALU: s->c.idle_scoreboard += n; s->c.sb_alu += n; break;
    case SM_CLS_SB_MEM: s->c.idle_scoreboard += n; s->c.sb_mem += n; break;
    case SM_CLS_PIPE_ALU: s->c.idle_pipeline += n; s->c.pipe_alu += n; break;
    case SM_CLS_PIPE_MEM: s->c.idle_pipeline += n; s->c.pipe_mem += n; break;
    default: s->c.idle_no_warp += n; break;
    }
}

/* Issue slots in [a, b): cycles divisible by the dispatch interval. */
static inline uint64_t sm_slots_in(uint64_t a, uint64_t b, uint32_t d)
{
    if (b <= a)
        return 0;
    return (b + d - 1) / d - (a + d - 1) / d;
}

/* Warp-cycles in state i up to `now` (each state keeps its own mark, so a
 * change costs two updates, not eleven). */
static inline void sm_flush_state(tm_sm *sm, unsigned i, uint64_t now)
{
    if (now > sm->state_since[i]) {
        sm->c.warp_state[i] += (uint64_t)sm->nstate[i] * (now - sm->state_since[i]);
        sm->state_since[i] = now;
    }
}

static inline void sm_flush_states(tm_sm *sm, uint64_t now)
{
    for (unsigned i = 1; i < SCHED_WS_COUNT; i++)
        sm_flush_state(sm, i, now);
}

/* Resident CTA-cycles up to `upto` (before `resident` changes). */
static inline void sm_count_ctas(tm_sm *sm, uint64_t upto)
{
    if (upto > sm->cta_since) {
        sm->c.cta_cycles += (uint64_t)sm->resident * (upto - sm->cta_since);
        sm->cta_since = upto;
    }
}

static inline void sm_flush_mem(tm_sm *sm, uint64_t now)
{
    if (now > sm->mem_since) {
        sm->c.mem_load += (uint64_t)sm->mem_inflight * (now - sm->mem_since);
        sm->mem_since = now;
    }
}

/* Accounts a scheduler's unvisited slots before `t` with the class they
 * had, then reclassifies: for state changes made outside tm_sm_schedule
 * (CTA launch and release). */
static inline void sm_sched_touch(tm_sm *sm, tm_sched *s, uint64_t t)
{
    if (s->acct_from < t) {
        sm_account(s, s->idle_cls, sm_slots_in(s->acct_from, t, sm->dispatch));
        s->acct_from = t;
    }
    s->idle_cls = sm_classify(s);
}

/* Every write of a warp's recheck cycle goes here, so the scheduler's
 * lower bound stays a lower bound. */
static inline void sm_set_re(tm_sm *sm, tm_warp *tw, uint64_t t)
{
    *tw->re = t;
    tm_sched *s = &sm->scheds[tw->sched];
    uint64_t bit = UINT64_C(1) << (tw->view % 64);
    if (t == TM_NEVER)
        s->live[tw->view / 64] &= ~bit;
    else
        s->live[tw->view / 64] |= bit;
    if (t < s->min_re)
        s->min_re = t;
}

static inline void sm_set_state(tm_sm *sm, tm_sched *s, tm_warp *tw, uint8_t st,
                                uint64_t now)
{
    sched_warp_view *v = &s->views[tw->view];
    if (v->state == st)
        return;
    sm_flush_state(sm, v->state, now);
    sm_flush_state(sm, st, now);
    sm->nstate[v->state]--;
    sm->nstate[st]++;
    s->n[v->state]--;
    s->n[st]++;
    v->state = st;
}

/* Queues a warp for the fetch stage.  Its time is
 * `now`, not the SM's last flush (counted_to): when that was depends on
 * when the SM happened to be visited, so a fetch policy ordering by
 * `since` would see skipping and stepping differ. */
static inline void sm_fetch_enqueue(tm_sm *sm, uint32_t slot, uint64_t now)
{
    tm_warp *tw = &sm->warps[slot];
    if (tw->in_fetch)
        return;
    tw->in_fetch = true;
    tw->fetch_since = now;
    sm->fetch_q[(sm->fq_head + sm->fq_len) % sm->nwarps] = slot;
    sm->fq_len++;
}

/* Every warp of CTA c is evaluated afresh (a barrier released, an
 * mbarrier's copies landed), the SM no later than next cycle. */
static inline void sm_invalidate_cta(tm_sm *sm, tm_cta *c, uint64_t now)
{
    for (uint32_t k = 0; k < c->nwarps; k++) {
        tm_warp *tw = &sm->warps[c->slots[k]];
        sm_set_re(sm, tw, 0);
        tw->ready_unit = TM_UNIT_COUNT;
    }
    if (sm->wake_hint > now + 1)
        sm->wake_hint = now + 1;
}

/* The timing facts of `in` (NULL: falling off the end of a function). */
static inline const tm_ins *sm_ins_of(tm_sm *sm, tm_warp *tw, const ex_instr *in)
{
    if (!in)
        return &sm->implicit_ret;
    ex_warp *w = tw->w;
    if (!tw->tf || tw->tf->fn != w->fn)
        tw->tf = tm_sm_func_of(sm->env, w->fn);
    return &tw->tf->ins[ex_warp_pc_of(w, in)];
}

#endif
