/* timing/run_limits.c — the cycle limit of a timing run (see run_limits.h). */
#include "timing/run_limits.h"

void tm_limits_stop_cycles(tm_sm *const *sms, uint32_t nsms, ex_launch *L, uint64_t cycles)
{
    char *why = g_strdup_printf("stopped after %llu core cycles (limits.max_cycles; raise it "
                                "with --max-cycles)", (unsigned long long)cycles);
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
