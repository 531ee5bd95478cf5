/* runtime/barrier.c — completion of CTA barriers: when every thread a
 * barrier waits for has arrived (or exited), its warps go on and bar.red
 * delivers its reduction.  Arrival is the handlers' (runtime/
 * exec_control.c); this file is shared with the warp's exit path
 * (runtime/warp.c), so neither has to call the other. */
#include "runtime/barrier.h"
#include "runtime/warp.h"

static uint32_t cta_live_threads(const ex_cta *cta)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cta->nwarps; i++)
        n += ex_popc(cta->warps[i].valid & ~cta->warps[i].exited);
    return n;
}

void ex_barrier_check(ex_cta *cta, uint32_t id)
{
    if (cta->bar_arrived[id] == 0)
        return; /* nobody waits (checked first: counting live threads visits every warp) */
    uint32_t expected = cta->bar_expected[id] ? cta->bar_expected[id] : cta_live_threads(cta);
    if (cta->bar_arrived[id] < expected)
        return;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        ex_warp *w = &cta->warps[i];
        if (w->its_parked && w->barrier_id == id) { /* lanes that arrived alone */
            w->its_parked = 0;
            ex_mark_progress(w);
        }
        if (w->state != WARP_AT_BARRIER || w->barrier_id != id)
            continue;
        w->state = WARP_RUNNING;
        if (w->bar_dst != EX_NONE) {
            uint64_t v = w->bar_redop == 1 ? cta->bar_popc[id]
                       : w->bar_redop == 2 ? (cta->bar_and[id] != 0)
                                           : (cta->bar_or[id] != 0);
            EX_LANES(w->bar_lanes, l, w->r[w->bar_dst][l] = v;);
        }
        ex_mark_progress(w);
    }
    if (id == EX_CLUSTER_BAR) /* the phase is complete for every arrived lane */
        for (uint32_t i = 0; i < cta->nwarps; i++)
            cta->warps[i].cbar_pending = 0;
    cta->bar_epoch++;
    cta->bar_arrived[id] = 0;
    cta->bar_expected[id] = 0;
    cta->bar_popc[id] = 0;
    cta->bar_and[id] = 1;
    cta->bar_or[id] = 0;
}

void ex_lanes_exited(ex_warp *w, uint32_t lanes)
{
    (void)lanes;
    for (uint32_t id = 0; id < EX_NBARRIERS; id++)
        ex_barrier_check(w->cta, id);
}
