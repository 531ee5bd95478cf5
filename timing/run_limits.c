/* timing/run_limits.c — the cycle limit of a timing run (see run_limits.h). */
#include "timing/run_limits.h"
#include "timing/gpu_internal.h"
#include "runtime/warp.h"

/* The warp that is ready (its operands are; at most its unit is busy) and
 * has waited longest since its last issue, if that is more than half the
 * budget: "; SM s warp slot ... starved". */
static char *starved_hint(tm_sm *const *sms, uint32_t nsms, uint64_t cycles, uint64_t now)
{
    const sched_warp_view *best = NULL;
    uint32_t best_sm = 0;
    for (uint32_t i = 0; i < nsms; i++)
        for (uint32_t s = 0; s < sms[i]->nsched; s++) {
            const tm_sched *sc = &sms[i]->scheds[s];
            for (uint32_t v = 0; v < sc->nviews; v++) {
                const sched_warp_view *w = &sc->views[v];
                bool ready = sched_ws_can_issue(w->state) || w->state == SCHED_WS_STALL_ALU ||
                             w->state == SCHED_WS_STALL_MEM;
                if (ready && w->last_issue != SCHED_NEVER &&
                    (!best || w->last_issue < best->last_issue)) {
                    best = w;
                    best_sm = i;
                }
            }
        }
    if (!best || now - best->last_issue <= cycles / 2)
        return g_strdup("");
    return g_strdup_printf("; SM %u warp slot %u (kernel %u, CTA %u, warp %u) is ready but "
                           "last issued at cycle %llu: its warp policy starves it (are older "
                           "warps spinning on a lock a starved warp holds?)",
                           best_sm, best->slot, best->kernel, best->cta, best->warp,
                           (unsigned long long)best->last_issue);
}

/* Faults the first running warp on the SMs (of launch `only`, or of any
 * launch when NULL) with `why`; when none runs, records it on L alone. */
static void stop_first_running(tm_sm *const *sms, uint32_t nsms, const ex_launch *only,
                               ex_launch *L, const char *why)
{
    for (uint32_t i = 0; i < nsms; i++) {
        tm_sm *sm = sms[i];
        for (uint32_t c = 0; c < sm->nctas; c++) {
            tm_cta *tc = &sm->ctas[c];
            if (!tc->busy || (only && tc->L != only))
                continue;
            for (uint32_t k = 0; k < tc->nwarps; k++)
                if (tc->cta.warps[k].state == WARP_RUNNING) {
                    ex_warp_stop(&tc->cta.warps[k], why);
                    tm_cta_publish_fault(tc); /* a CTA on its own launch copy */
                    return;
                }
        }
    }
    L->failed = true;
    if (!L->error)
        L->error = g_string_new(NULL);
    g_string_printf(L->error, "kernel '%s': %s", L->kernel->name, why);
}

void tm_limits_stop_cycles(tm_sm *const *sms, uint32_t nsms, ex_launch *L, uint64_t cycles,
                           uint64_t now)
{
    char *hint = starved_hint(sms, nsms, cycles, now);
    char *why = g_strdup_printf("stopped after %llu core cycles (limits.max_cycles; raise it "
                                "with --max-cycles or --set limits.max_cycles=N)%s", (unsigned long long)cycles, hint);
    g_free(hint);
    stop_first_running(sms, nsms, NULL, L, why);
    g_free(why);
}

void tm_limits_stop_seconds(tm_sm *const *sms, uint32_t nsms, ex_launch *L, uint32_t seconds)
{
    char *why = g_strdup_printf("stopped after %u s of wall-clock time (limits.max_seconds; "
                                "raise it with --max-seconds, 0 for no limit)",
                                seconds);
    stop_first_running(sms, nsms, NULL, L, why);
    g_free(why);
}

/* Warp instructions kernel k's launch has executed: its finished CTAs'
 * (added at retirement) and its resident ones'. */
static uint64_t launch_instrs(const tm_gpu *g, const ex_launch *L)
{
    uint64_t n = L->warp_instrs;
    for (uint32_t i = 0; i < g->nsms; i++) {
        const tm_sm *sm = g->sms[i];
        for (uint32_t c = 0; c < sm->nctas; c++) {
            const tm_cta *tc = &sm->ctas[c];
            if (tc->busy && tc->L == L)
                for (uint32_t k = 0; k < tc->cta.nwarps; k++)
                    n += tc->cta.warps[k].instrs;
        }
    }
    return n;
}

static void stop_instrs(tm_gpu *g, ex_launch *L)
{
    char *why = g_strdup_printf("stopped after %llu warp instructions (limits.max_warp_instructions; "
                                "raise it with --max-warp-instructions or --set "
                                "limits.max_warp_instructions=N)",
                                (unsigned long long)L->max_warp_instrs);
    stop_first_running(g->sms, g->nsms, L, L, why);
    g_free(why);
}

void tm_gpu_check_instrs(tm_gpu *g)
{
    uint64_t all = 0;
    for (uint32_t i = 0; i < g->nsms; i++)
        all += g->sms[i]->c.warp_instrs;
    for (uint32_t i = 0; i < g->nkernels; i++) {
        tm_kernel *k = g->kernels[i];
        if (!k->instr_limit || !k->arrived || k->done)
            continue;
        /* every instruction since it began bounds its own from above */
        if (all - k->instrs_at_begin <= k->L->max_warp_instrs)
            continue;
        if (launch_instrs(g, k->L) > k->L->max_warp_instrs) {
            stop_instrs(g, k->L);
            g->env.failed = true;
            return;
        }
    }
}
