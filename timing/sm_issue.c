/* timing/sm_issue.c — issuing one warp instruction on an SM: it executes
 * (execute at issue), books its unit, its result registers in the
 * scoreboard and its memory traffic, and tells the policies; and the
 * memory system's replies that free those registers. */
#include "timing/sm.h"
#include "timing/sm_internal.h"
#include "runtime/warp.h"

#include <stdlib.h>

/* ---------------------------------------------------------- shared memory */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Passes a shared-memory access needs: lanes reading the same 4-byte word
 * share one (broadcast); distinct words in one bank serialise. */
static uint32_t bank_passes(const ex_access *a, uint32_t banks)
{
    uint64_t words[WARP_SIZE * 8];
    uint32_t n = 0, per = a->size >= 4 ? (a->size + 3u) / 4u : 1u;
    if (per > 8)
        per = 8;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint32_t k = 0; k < per; k++)
            words[n++] = a->addr[l] / 4 + k;
    }
    if (n <= 64) { /* lanes usually come in address order: insertion sort */
        for (uint32_t i = 1; i < n; i++) {
            uint64_t x = words[i];
            uint32_t j = i;
            for (; j && words[j - 1] > x; j--)
                words[j] = words[j - 1];
            words[j] = x;
        }
    } else {
        qsort(words, n, sizeof words[0], cmp_u64);
    }
    uint32_t cnt[64] = {0}, passes = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (i && words[i] == words[i - 1])
            continue;
        uint32_t b = (uint32_t)(words[i] % banks);
        if (++cnt[b] > passes)
            passes = cnt[b];
    }
    return passes;
}

/* ------------------------------------------------------------------ issue */

static void add_pending(tm_warp *tw, uint32_t slot, uint32_t tag, uint64_t ready, bool mem)
{
    if (tw->npend < TM_MAX_PENDING)
        tw->pend[tw->npend++] = (tm_pending){slot, tag, ready, mem};
}

/* A backoff decision at pc for `cycles`, in the SM's counters. */
static void count_backoff(tm_sm *sm, tm_warp *tw, uint32_t pc, uint64_t cycles)
{
    sm->c.spin_backoffs++;
    sm->c.spin_backoff_cycles += cycles;
    sm->c.spin_warps_backed_off += !tw->backed_once;
    tw->backed_once = true;
    for (uint32_t i = 0; i < sm->nspin_pcs; i++)
        if (sm->spin_pc[i] == pc)
            return;
    if (sm->nspin_pcs < TM_SPIN_PCS) {
        sm->spin_pc[sm->nspin_pcs++] = pc;
        sm->c.spin_pcs++;
    }
}

/* What the policies learn of one issued instruction: the backoff level's
 * observe (setps and backward branches, or everything) and the generic
 * `issued` hook; then barrier and exit events.  Built only when wanted. */
static void report_issue(tm_sm *sm, tm_sched *s, tm_warp *tw, const ex_instr *in,
                         const tm_ins *t, uint32_t pc, uint32_t active, uint32_t guard,
                         uint64_t now)
{
    tm_policies *pol = sm->env->pol;
    ex_warp *w = tw->w;
    const sched_warp_view *v = &s->views[tw->view];
    tm_pol_inst *bi = tm_pol_backoff(pol, sm->id);
    const sched_backoff_ops *bo = (const sched_backoff_ops *)bi->h;
    bool branch = (t->flags & TM_INS_BRANCH) != 0;
    uint8_t flags = (uint8_t)(((t->flags & TM_INS_SETP) ? SCHED_ISSUE_SETP : 0) |
                              (branch ? SCHED_ISSUE_BRANCH : 0) |
                              (branch && in->target <= pc ? SCHED_ISSUE_BACKWARD : 0) |
                              (t->unit == TM_UNIT_LDST ? SCHED_ISSUE_MEM : 0) |
                              ((in->flags & EXF_CTA_BARRIER) ? SCHED_ISSUE_BARRIER : 0) |
                              (w->state == WARP_DONE ? SCHED_ISSUE_EXIT : 0));
    bool spin_kind = (flags & SCHED_ISSUE_SETP) || (flags & SCHED_ISSUE_BACKWARD);
    bool to_backoff = (bo->h.wants & SCHED_WANT_ISSUE) ||
                      ((bo->h.wants & SCHED_WANT_ISSUE_SPIN) && spin_kind);
    if (to_backoff || (pol->wants & SCHED_WANT_ISSUE)) {
        sched_issue ev = {sm->id, s->id, v->slot, v->kernel, v->cta, v->warp, pc,
                          branch ? in->target : SCHED_NONE, in->op, flags,
                          tw->tf ? &tw->tf->annot[pc] : NULL, active, guard,
                          branch ? guard : 0, NULL, NULL, tw->writes};
        if (flags & SCHED_ISSUE_SETP) {
            ev.a = in->a != EX_NONE ? ex_warp_reg(w, in->a) : NULL;
            ev.b = in->b != EX_NONE ? ex_warp_reg(w, in->b) : NULL;
        }
        if (to_backoff) {
            char why[SCHED_WHY_LEN] = "";
            uint64_t until = bo->observe(bi->st, tm_pol_ctl(pol, now), &ev, why);
            if (until > now) {
                tw->backoff_until = until;
                count_backoff(sm, tw, pc, until - now);
                if (sm->env->trace)
                    fprintf(sm->env->trace, "cycle %llu: SM %u warp slot %u backed off until "
                            "%llu (%s: %s)\n", (unsigned long long)now, sm->id, v->slot,
                            (unsigned long long)until, bo->h.name, why);
            }
        }
        if (pol->wants & SCHED_WANT_ISSUE)
            tm_pol_event_send(pol, now, TM_EV_ISSUED, sm->id, s->id, &ev);
    }
    if ((pol->wants & SCHED_WANT_WARP) && (flags & (SCHED_ISSUE_BARRIER | SCHED_ISSUE_EXIT))) {
        sched_warp_event we = {sm->id, s->id, v->slot, v->kernel, v->cta, v->warp, pc,
                               w->barrier_id};
        tm_pol_event_send(pol, now, (flags & SCHED_ISSUE_EXIT) ? TM_EV_EXIT : TM_EV_BARRIER,
                          sm->id, s->id, &we);
    }
}

/* Issues the next instruction of tw: executes it, books its unit, its
 * result registers and its memory traffic.  Returns a CTA that completed. */
tm_cta *tm_sm_issue(tm_sm *sm, tm_sched *s, tm_warp *tw, uint64_t now)
{
    tm_env *env = sm->env;
    ex_warp *w = tw->w;
    ex_launch *L = w->launch;
    const ex_instr *in = ex_warp_next(w);
    const tm_ins *t = sm_ins_of(sm, tw, in);
    uint32_t slot = (uint32_t)(tw - sm->warps);
    uint32_t roff = ex_warp_reg_window(w);
    uint32_t pc = in ? ex_warp_pc_of(w, in) : 0;
    const ex_func *fn_before = w->fn;
    uint64_t wi0 = w->instrs, ti0 = w->thread_instrs;
    bool mem = t->unit == TM_UNIT_LDST;
    bool report = sm->report_issues;
    uint32_t active = 0, guard = 0;
    if (report && in) {
        active = ex_warp_active(w);
        guard = ex_warp_guard_mask(w, in, active);
    }
    /* a lock attempt: the compare values, before the step can overwrite them */
    uint32_t cas_lanes = 0;
    uint64_t cas_cmp[WARP_SIZE];
    if (in && (t->flags & TM_INS_CAS)) {
        cas_lanes = ex_warp_guard_mask(w, in, ex_warp_active(w));
        for (uint32_t m = cas_lanes; m; m &= m - 1)
            cas_cmp[__builtin_ctz(m)] = ex_warp_reg(w, in->b)[__builtin_ctz(m)];
    }
    L->smid = sm->id;
    uint64_t progress0 = L->last_progress;
    ex_warp_step(w, mem ? &s->acc : NULL);
    bool wrote = L->last_progress != progress0; /* it changed memory */
    tw->writes += wrote;
    sm->progressed |= wrote && tw->cta->own;
    tw->ready_unit = TM_UNIT_COUNT;
    if (L->failed) {
        sm->failed = true;
        sm->failed_cta = tw->cta;
        return NULL;
    }
    if (cas_lanes) {
        uint64_t bits = in->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (in->size * 8)) - 1;
        uint32_t won = 0;
        for (uint32_t m = cas_lanes; m; m &= m - 1)
            won += ((ex_warp_reg(w, in->d)[__builtin_ctz(m)] ^ cas_cmp[__builtin_ctz(m)]) & bits) == 0;
        sm->c.lock_acquisitions += won;
        sm->c.lock_failed_attempts += (uint32_t)__builtin_popcount(cas_lanes) - won;
    }
    uint64_t wi = w->instrs - wi0, ti = w->thread_instrs - ti0;
    if (t->flags & TM_INS_SPIN_LOOP)
        sm->c.spin_loop_instrs += wi;
    sm->c.warp_instrs += wi;
    sm->c.thread_instrs += ti;
    s->c.instructions += wi;
    s->views[tw->view].last_issue = now;

    uint32_t busy = t->occupancy;
    uint64_t ready = now + t->latency;
    bool to_memsys = false;
    uint32_t tag = 0;
    if (mem) {
        sm->c.mem_instrs++;
        const ex_access *a = &s->acc;
        if (a->mask == 0) {
            sm->c.mem_load += t->latency;
        } else if (a->space == EX_SPACE_SHARED) {
            uint32_t passes = bank_passes(a, sm->cfg->core.shared_banks);
            ready = now + sm->cfg->core.shared_latency + passes - 1;
            if (passes > busy)
                busy = passes;
            sm->c.shared_accesses++;
            sm->c.shared_conflicts += passes - 1;
            sm->c.mem_load += ready - now;
        } else if (a->space == EX_SPACE_KPARAM && !sm->cfg->const_cache.kernel_params) {
            ready = now + sm->cfg->const_cache.hit_latency;
            sm->c.mem_load += ready - now;
        } else if (a->space == EX_SPACE_FPARAM) {
            ready = now + sm->cfg->l1d.hit_latency;
            sm->c.mem_load += ready - now;
        } else {
            to_memsys = true;
            ready = TM_NEVER;
            tag = tw->next_tag++ & ~TM_TAG_STORE;
            if (a->write && !a->atomic && sm->cfg->l2.write_ack) {
                tag |= TM_TAG_STORE; /* no register waits for it */
                tw->stores_out++;
            }
            if (G_UNLIKELY(sm->env->touch != NULL) && a->space != EX_SPACE_KPARAM)
                sm->env->touch(sm->env->user, w, a);
        }
    } else {
        sm->c.alu_instrs++;
        /* energy classes: a DP instruction stays one on the SFU slice
         * (units.dp_on_sfu) */
        bool dp = t->lat_class >= PTX_LAT_DP_ADD && t->lat_class <= PTX_LAT_DP_DIV;
        sm->c.sfu_instrs += t->unit == TM_UNIT_SFU && !dp;
        sm->c.dp_instrs += dp;
        sm->c.alu_load += t->latency;
    }
    if (t->flags & TM_INS_FENCE) /* l1d.fence_invalidate (memorder.c) */
        memsys_fence(env->mem, sm->id);
    s->unit_free[t->unit] = now + busy;
    /* destinations are in the caller's window even when the instruction
     * was a call (calls drain first, so nothing else is pending) */
    for (unsigned j = 0; j < t->ndst; j++)
        add_pending(tw, roff + t->dst[j], tag, ready, mem);
    if (in && (t->flags & TM_INS_ASYNC))
        tm_async_issued(tw, in, &s->acc, to_memsys, tag);
    if (to_memsys) {
        sm_flush_mem(sm, now);
        sm->mem_inflight++;
        tw->outstanding++;
        tw->cta->outstanding++;
        uint64_t token = tm_token(sm->id, slot, tag);
        if (!memsys_issue(env->mem, sm->id, slot, &s->acc, token, now)) {
            s->stuck = true;
                    s->stuck_since = now;
            s->stuck_slot = slot;
            s->stuck_token = token;
            sm->c.mem_refusals++;
        }
    }

    /* instruction buffer: one entry used; a jump discards the rest */
    if (tw->ibuf)
        tw->ibuf--;
    uint32_t next_pc = ex_warp_pc(w);
    if (w->fn != fn_before || next_pc != pc + 1)
        tw->ibuf = 0;
    if (tw->ibuf == 0 && w->state != WARP_DONE)
        sm_fetch_enqueue(sm, slot, now);

    tm_cta *c = tw->cta;
    if (w->state == WARP_DONE)
        c->live--;
    if (t->flags & TM_INS_WAKE_CTA)
        sm_invalidate_cta(sm, c, now);
    s->views[tw->view].instrs++;
    s->views[tw->view].outstanding = tw->outstanding;
    if (report && in)
        report_issue(sm, s, tw, in, t, pc, active, guard, now);
    return c->live == 0 && c->outstanding == 0 ? c : NULL;
}

/* --------------------------------------------------------- memory replies */

void tm_sm_mem_done(tm_sm *sm, uint32_t slot, uint32_t tag, uint64_t cycle)
{
    if (slot == TM_IFETCH_SLOT) {
        tm_l1i_done(sm, tag, cycle);
        return;
    }
    tm_warp *tw = &sm->warps[slot];
    if (!tw->w)
        return;
    for (uint32_t i = 0; i < tw->npend; i++)
        if (tw->pend[i].tag == tag && tw->pend[i].ready == TM_NEVER)
            tw->pend[i].ready = cycle;
    sm_flush_mem(sm, cycle);
    if (sm->mem_inflight)
        sm->mem_inflight--;
    tw->outstanding--;
    if (tag & TM_TAG_STORE)
        tw->stores_out--;
    tm_cta *c = tw->cta;
    c->outstanding--;
    if (tw->nasync && tm_async_landed(tw, tag))
        sm_invalidate_cta(sm, c, cycle); /* warps may wait on its mbarrier */
    sched_warp_view *v = &sm->scheds[tw->sched].views[tw->view];
    v->outstanding = tw->outstanding;
    if (sm->env->pol->wants & SCHED_WANT_MEM_REPLY) {
        sched_mem_reply r = {sm->id, slot, v->kernel, v->cta, v->warp, cycle};
        tm_pol_event_send(sm->env->pol, cycle, TM_EV_MEM_REPLY, sm->id, tw->sched, &r);
    }
    sm_set_re(sm, tw, 0);
    tw->ready_unit = TM_UNIT_COUNT;
    if (sm->next_wake > cycle + 1)
        sm->next_wake = cycle + 1;
    if (c->live == 0 && c->outstanding == 0) {
        tm_sm_cta_complete(sm, c, cycle);
        tm_sm_retire(sm); /* the memory system runs on one thread */
    }
}
