/* timing/cta_sched.c — CTA scheduling: each cycle the kernel policy orders
 * the resident kernels, the CTA policy names an SM for each kernel's next
 * CTA, every admission filter is asked about it, and an admitted CTA is
 * launched on that SM; and the controls (timing/policy.h, tm_pol_ops)
 * through which policies pause, drain, gate or limit SMs, read an SM's
 * view and ask to be asked again. */
#include "timing/gpu_internal.h"

#include <string.h>

/* ------------------------------------------------- controls for policies */

static void pol_sm_control(void *gpu, uint32_t sm, int what, uint32_t arg)
{
    tm_gpu *g = gpu;
    if (sm >= g->nsms)
        return;
    tm_sm_control(g->sms[sm], what, arg, g->now);
    if (g->opts.trace) {
        static const char *const names[] = {"paused", "draining", "gated", "resumed",
                                            "limited"};
        fprintf(g->opts.trace, "cycle %llu: SM %u %s", (unsigned long long)g->now, sm,
                names[what]);
        if (what == TM_SM_LIMIT)
            fprintf(g->opts.trace, " to %u CTAs", arg);
        fputc('\n', g->opts.trace);
    }
    g->cta_dirty = true;
}

static const sched_sm_view *pol_sm_view(void *gpu, uint32_t s)
{
    tm_gpu *g = gpu;
    tm_sm *sm = g->sms[s];
    tm_sm_flush(sm, g->now);
    sched_sm_view *v = &g->smview[s];
    v->sm = s;
    v->cluster = s / g->cfg.gpu.sms_per_cluster;
    v->resident = sm->resident;
    v->warps = sm->nwarps - sm->free_warps;
    v->limit = sm->cta_limit;
    v->paused = sm->paused;
    v->draining = sm->draining;
    v->gated = sm->gated;
    v->ctas_issued = sm->c.ctas_issued;
    v->ctas_finished = sm->c.ctas_finished;
    v->warp_instrs = sm->c.warp_instrs;
    v->stall_cycles = sm->c.sched.idle_scoreboard + sm->c.sched.idle_pipeline;
    v->mem_stall_cycles = sm->c.sched.sb_mem + sm->c.sched.pipe_mem;
    v->idle_cycles = sm->c.idle_cycles;
    v->gated_cycles = sm->c.gated_cycles;
    return v;
}

static void pol_cta_retry(void *gpu, uint64_t cycle)
{
    tm_gpu *g = gpu;
    if (cycle <= g->now)
        g->cta_dirty = true;
    else if (cycle < g->cta_retry_at)
        g->cta_retry_at = cycle;
}

const tm_pol_ops tm_gpu_pol_ops = {pol_sm_control, pol_sm_view, pol_cta_retry};

/* ---------------------------------------------------------- kernel views */

sched_kernel_info tm_gpu_kernel_info(const tm_kernel *k)
{
    const tm_cta_req *req = &g_array_index(k->segs, tm_seg, 0).req;
    return (sched_kernel_info){k->id, k->total, k->issued, k->finished, k->occ.ctas_per_sm,
                               req->warps, k->arrival, k->L->kernel->name,
                               {k->L->grid[0], k->L->grid[1], k->L->grid[2]}, req->regs,
                               req->shared, k->groups->len,
                               (const sched_cta_group *)(void *)k->groups->data};
}

/* The segment (launch) holding CTA `cta` of k (segments are few). */
static const tm_seg *seg_of(const tm_kernel *k, uint32_t cta)
{
    guint i = 0;
    while (i + 1 < k->segs->len && cta >= g_array_index(k->segs, tm_seg, i + 1).first)
        i++;
    return &g_array_index(k->segs, tm_seg, i);
}

/* CTA `cta` of segment `seg` was placed: its group's counts follow. */
static void group_placed(tm_gpu *g, tm_kernel *k, const tm_seg *seg, uint32_t cta,
                         uint32_t sm, uint64_t now)
{
    sched_cta_group *gr =
        &g_array_index(k->groups, sched_cta_group, (guint)(seg - (const tm_seg *)(void *)k->segs->data));
    tm_tb_stat t = {cta, sm, now, gr->depth, gr->parent_kernel, gr->parent_cta, gr->parent_sm,
                    gr->launch_cycle, seg->L->launch_id, cta - seg->first, -1.0, -1.0, -1.0, -1.0,
                    0, 0, 0, 0};
    if (!k->tbs)
        k->tbs = g_array_new(FALSE, FALSE, sizeof(tm_tb_stat));
    g_array_append_val(k->tbs, t);
    if (++gr->placed == gr->count && gr->depth > 0)
        tm_cdp_group_dispatched(g, gr->parent_sm);
    while (gr->next < gr->first + gr->count && k->placed[gr->next])
        gr->next++;
}

/* ------------------------------------------------------- CTA scheduling */

static void build_sm_views(tm_gpu *g, tm_kernel *k, uint32_t vi, const tm_cta_req *req)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = g->sms[s];
        sched_cta_sm_view *v = &g->smv[s];
        uint32_t limit = g->limits[(size_t)vi * g->nsms + s];
        uint32_t fit = tm_sm_accepts(sm) ? tm_sm_fit(sm, req) : 0;
        if (sm->cta_limit != SCHED_NO_LIMIT && sm->cta_limit - sm->resident < fit)
            fit = sm->cta_limit - sm->resident;
        if (limit != SCHED_NO_LIMIT)
            fit = k->resident[s] >= limit ? 0 : (limit - k->resident[s] < fit ? limit - k->resident[s] : fit);
        v->sm = pol_sm_view(g, s);
        v->resident_kernel = k->resident[s];
        v->fit = fit;
        v->limit = limit;
        v->issued = k->issued_on[s];
        v->finished = k->finished_on[s];
        v->eligible = fit > 0;
    }
}

/* Asks every admission filter about CTA v->next_cta on SM s: every filter
 * sees the request, refused or not; the earliest retry cycle wins. */
static sched_verdict admit_all(tm_gpu *g, const sched_ctl *ctl, const sched_cta_view *v,
                               uint32_t s, char *reasons)
{
    sched_verdict verdict = SCHED_ADMIT;
    char fwhy[SCHED_WHY_LEN];
    reasons[0] = '\0';
    for (unsigned f = 0; f < g->pol.sel.nfilters; f++) {
        const sched_filter_ops *fo = g->pol.sel.filters[f];
        fwhy[0] = '\0';
        sched_verdict vf = fo->admit(tm_pol_filter(&g->pol, f)->st, ctl, v, s,
                                     verdict != SCHED_ADMIT, fwhy);
        if (vf == SCHED_ADMIT)
            continue;
        if (verdict == SCHED_ADMIT || vf < verdict)
            verdict = vf;
        size_t len = strlen(reasons);
        snprintf(reasons + len, SCHED_WHY_LEN * 2 - len, "%s%s%s%s", len ? "; " : "",
                 fo->h.name, fwhy[0] ? ": " : "", fwhy);
    }
    return verdict;
}

/* Which CTA goes to SM s: the lowest unplaced one, or the one the CTA
 * policy's pick_cta names (distributed pools place out of order).  Sets
 * v->next_cta (what the filters are asked about) and *seg; false when the
 * policy places nothing there now or names a CTA it may not. */
static bool pick_cta(tm_gpu *g, tm_kernel *k, uint32_t vi, const sched_ctl *ctl,
                     sched_cta_view *v, uint32_t s, const tm_seg **seg)
{
    const sched_cta_ops *ops = g->pol.sel.cta;
    if (!ops->pick_cta)
        return true;
    uint32_t cta = ops->pick_cta(tm_pol_cta(&g->pol)->st, ctl, v, s);
    if (cta == SCHED_NONE || cta >= k->total || k->placed[cta])
        return false;
    v->next_cta = cta;
    const tm_seg *sg = seg_of(k, cta);
    if (sg != *seg) { /* an appended launch: its own resources */
        *seg = sg;
        build_sm_views(g, k, vi, &sg->req);
        return g->smv[s].eligible;
    }
    return true;
}

/* Offers SMs to the kernels in the order the policies decided, each kernel's
 * CTAs until the CTA policy declines; true when any CTA was placed. */
static bool place_kernels(tm_gpu *g, uint64_t now, const sched_ctl *ctl,
                          const sched_kernel_decision *dec, uint32_t nk)
{
    char why[SCHED_WHY_LEN], reasons[SCHED_WHY_LEN * 2];
    bool placed = false;
    for (uint32_t o = 0; o < dec->count && o < nk; o++) {
        uint32_t vi = dec->order[o];
        if (vi >= nk)
            continue;
        tm_kernel *k = g->kernels[g->kidx[vi]];
        if (k->issued >= k->total || k->sample_hold) /* held: timing/sample.c */
            continue;
        const tm_seg *seg = seg_of(k, k->next);
        build_sm_views(g, k, vi, &seg->req);
        sched_cta_view v = {now, k->id, k->next, k->total, k->issued, k->occ.ctas_per_sm,
                            g->nsms, g->cfg.gpu.sms_per_cluster, g->smv, &g->kinfo[vi]};
        while (k->issued < k->total) {
            const tm_seg *sg = seg_of(k, k->next);
            if (sg != seg) { /* an appended launch: its own resources */
                seg = sg;
                build_sm_views(g, k, vi, &seg->req);
            }
            v.next_cta = k->next;
            v.issued = k->issued;
            why[0] = '\0';
            int32_t s = g->pol.sel.cta->place(tm_pol_cta(&g->pol)->st, ctl, &v, why);
            if (s < 0 || (uint32_t)s >= g->nsms || !g->smv[s].eligible)
                break;
            if (!pick_cta(g, k, vi, ctl, &v, (uint32_t)s, &seg))
                break;
            sched_verdict verdict = admit_all(g, ctl, &v, (uint32_t)s, reasons);
            g->smv[s].eligible = false; /* one decision per SM per cycle */
            if (verdict != SCHED_ADMIT) {
                if (verdict != SCHED_REFUSE) /* a filter named a cycle to ask again */
                    pol_cta_retry(g, verdict > now ? verdict : now + 1);
                if (g->opts.trace)
                    fprintf(g->opts.trace, "cycle %llu: kernel %u CTA %u refused on SM %d "
                            "(%s)\n", (unsigned long long)now, k->id, v.next_cta, s, reasons);
                sched_cta_event e = {k->id, v.next_cta, (uint32_t)s, reasons};
                tm_pol_event_send(&g->pol, now, TM_EV_CTA_DROPPED, (uint32_t)s, SCHED_NONE, &e);
                continue;
            }
            if (g->opts.trace && k->issued == 0)
                fprintf(g->opts.trace, "cycle %llu: kernel %u (%s) starts placing CTAs: %u CTAs, "
                        "at most %u per SM (limited by %s) (%s)\n", (unsigned long long)now,
                        k->id, k->L->kernel->name, k->total, k->occ.ctas_per_sm,
                        k->occ.limited_by, g->pol.sel.kernel->h.name);
            if (g->opts.trace)
                fprintf(g->opts.trace, "cycle %llu: kernel %u CTA %u -> SM %d (%s%s%s)\n",
                        (unsigned long long)now, k->id, v.next_cta, s, g->pol.sel.cta->h.name,
                        why[0] ? ": " : "", why);
            /* policies hear of the CTA before its warps arrive */
            sched_cta_event e = {k->id, v.next_cta, (uint32_t)s, NULL};
            tm_pol_event_send(&g->pol, now, TM_EV_CTA_ISSUED, (uint32_t)s, SCHED_NONE, &e);
            tm_sm_launch(g->sms[s], seg->L, k, k->id, v.next_cta - seg->first, &seg->req, now);
            g->occupied[(uint32_t)s / 64] |= 1ull << ((uint32_t)s % 64);
            k->resident[s]++;
            k->issued_on[s]++;
            k->placed[v.next_cta] = 1;
            group_placed(g, k, seg, v.next_cta, (uint32_t)s, now);
            k->issued++;
            while (k->next < k->total && k->placed[k->next])
                k->next++;
            g->smv[s].resident_kernel++;
            g->smv[s].issued++;
            g->smv[s].fit--;
            /* SMs with room left take the next CTA next cycle; so do SMs
             * left idle when this kernel has placed its last CTA (the
             * kernel-level choice, made before this pass, may admit the
             * next kernel now) */
            if (g->smv[s].fit || k->issued == k->total)
                g->cta_dirty = true;
            placed = true;
        }
    }
    return placed;
}

void tm_gpu_schedule_ctas(tm_gpu *g, uint64_t now)
{
    g->cta_dirty = false;
    if (g->cta_retry_at <= now)
        g->cta_retry_at = TM_NEVER;
    uint32_t nk = 0;
    for (uint32_t i = 0; i < g->nkernels && nk < SCHED_MAX_KERNELS; i++) {
        tm_kernel *k = g->kernels[i];
        if (!k->arrived || k->done)
            continue;
        /* a CDP parent with only its children left has left the KDU: with
         * nothing to place (DTBL may still append CTAs) it has no business
         * in the view, and deep launch trees hold more of them than the
         * view's SCHED_MAX_KERNELS, which would hide the children that do
         * have CTAs to place */
        if (g->kmu.subs[k->sub].released && k->issued == k->total)
            continue;
        g->kidx[nk] = i;
        g->kinfo[nk] = tm_gpu_kernel_info(k);
        nk++;
    }
    if (!nk)
        return;
    for (size_t i = 0; i < (size_t)nk * g->nsms; i++)
        g->limits[i] = SCHED_NO_LIMIT;
    const sched_ctl *ctl = tm_pol_ctl(&g->pol, now);
    sched_kernel_view kv = {now, nk, g->kinfo, g->nsms};
    sched_kernel_decision dec = {0};
    dec.limit = g->limits;
    g->pol.sel.kernel->decide(tm_pol_kernel(&g->pol)->st, ctl, &kv, &dec);
    if (g->pol.sel.cta->order_kernels) /* priorities across kernels (LaPerm) */
        g->pol.sel.cta->order_kernels(tm_pol_cta(&g->pol)->st, ctl, &kv, &dec);
    /* a policy that orders kernels (LaPerm) may decline an SM for one kernel
     * because its turn is another's: offer the kernels again while any CTA
     * was placed */
    while (place_kernels(g, now, ctl, &dec, nk) && g->pol.sel.cta->order_kernels)
        ;
}
