/* timing/gpu_stall.c — what the cycle loop (timing/gpu.c) says when
 * nothing can happen any more: the barrier deadlock of a CTA, or CTAs that
 * wait to be placed with no policy left to place them. */
#include "timing/gpu_internal.h"
#include "runtime/warp.h"

/* Nothing can ever happen again: a barrier nobody else reaches, CTAs that
 * the policies hold back with nothing left to wake them, or a bug. */
void tm_gpu_report_stall(tm_gpu *g, uint64_t now)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        tm_cta *c = tm_sm_find_deadlock(g->sms[i]);
        if (!c)
            continue;
        ex_warp *w0 = NULL;
        GString *who = g_string_new(NULL);
        for (uint32_t k = 0; k < c->nwarps; k++) {
            ex_warp *w = &c->cta.warps[k];
            if (w->state == WARP_AT_BARRIER) {
                g_string_append_printf(who, "%swarp %u waits at barrier %u",
                                       who->len ? ", " : "", k, w->barrier_id);
                if (!w0)
                    w0 = w;
            } else {
                g_string_append_printf(who, "%swarp %u has exited", who->len ? ", " : "", k);
            }
        }
        if (w0) {
            uint32_t id = w0->barrier_id;
            ex_fault(w0, -1, "barrier deadlock: %u of %u threads arrived at barrier %u (%s)",
                     c->cta.bar_arrived[id],
                     c->cta.bar_expected[id] ? c->cta.bar_expected[id] : c->cta.nthreads, id,
                     who->str);
            tm_cta_publish_fault(c);
        }
        g_string_free(who, TRUE);
        if (w0) {
            g->env.failed = true;
            return;
        }
    }
    ex_launch *L = g->kernels[0]->L;
    for (uint32_t i = 0; i < g->nkernels; i++)
        if (g->kernels[i]->arrived && !g->kernels[i]->done) {
            L = g->kernels[i]->L;
            break;
        }
    L->failed = true;
    if (!L->error)
        L->error = g_string_new(NULL);
    uint32_t waiting = 0, open = 0;
    for (uint32_t i = 0; i < g->nkernels; i++)
        if (g->kernels[i]->arrived && !g->kernels[i]->done)
            waiting += g->kernels[i]->total - g->kernels[i]->issued;
    for (uint32_t i = 0; i < g->nsms; i++)
        open += tm_sm_accepts(g->sms[i]);
    if (waiting)
        g_string_printf(L->error, "kernel '%s': %u CTAs wait to be placed at cycle %llu but "
                        "no SM runs anything and no policy asked to be asked again (%u of %u "
                        "SMs accept CTAs; policies: kernel %s, cta %s, %u filters): a "
                        "scheduling-policy deadlock", L->kernel->name, waiting,
                        (unsigned long long)now, open, g->nsms, g->pol.sel.kernel->h.name,
                        g->pol.sel.cta->h.name, g->pol.sel.nfilters);
    else
        g_string_printf(L->error, "kernel '%s': the timing model made no progress at cycle "
                        "%llu (internal error)", L->kernel->name, (unsigned long long)now);
    g->env.failed = true;
}
