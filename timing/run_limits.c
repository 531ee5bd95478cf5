/* timing/run_limits.c — the cycle limit of a timing run (see run_limits.h). */
#include "timing/run_limits.h"

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

void tm_limits_stop_cycles(tm_sm *const *sms, uint32_t nsms, ex_launch *L, uint64_t cycles,
                           uint64_t now)
{
    char *hint = starved_hint(sms, nsms, cycles, now);
    char *why = g_strdup_printf("stopped after %llu core cycles (limits.max_cycles; raise it "
                                "with --max-cycles)%s", (unsigned long long)cycles, hint);
    g_free(hint);
    for (uint32_t i = 0; i < nsms; i++) {
        const tm_sm *sm = sms[i];
        for (uint32_t c = 0; c < sm->nctas; c++) {
            const tm_cta *tc = &sm->ctas[c];
            if (!tc->busy)
                continue;
            for (uint32_t k = 0; k < tc->nwarps; k++) {
                ex_warp *w = &tc->cta.warps[k];
                if (w->state == WARP_RUNNING) {
                    ex_warp_stop(w, why);
                    g_free(why);
                    return;
                }
            }
        }
    }
    L->failed = true;
    if (!L->error)
        L->error = g_string_new(NULL);
    g_string_printf(L->error, "kernel '%s': %s", L->kernel->name, why);
    g_free(why);
}
