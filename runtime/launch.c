/* runtime/launch.c — the functional driver: runs a grid's CTAs to completion.
 * A batch of CTAs is resident at once and their warps take turns in fixed
 * quanta, so producer/consumer code across warps and CTAs makes progress and
 * every run is deterministic. */
#include "runtime/cdp.h"
#include "runtime/warp.h"

#include <string.h>

#define RESIDENT_CTAS 8
#define QUANTUM 4096

typedef struct cta_slot {
    ex_cta cta;
    bool busy;
    uint32_t warp_cap;
    uint32_t shared_cap;
} cta_slot;

static void cta_start(ex_launch *L, ex_cta *c, uint32_t *warp_cap, uint32_t *shared_cap,
                      uint32_t linear);

/* The warps keep a pointer to `c`, so it must stay where it is until
 * ex_cta_end. */
void ex_cta_begin(ex_launch *L, ex_cta *c, uint32_t linear)
{
    uint32_t warp_cap = 0, shared_cap = 0;
    c->warps = NULL;
    c->shared = NULL;
    cta_start(L, c, &warp_cap, &shared_cap, linear);
}

void ex_cta_end(ex_cta *c)
{
    for (uint32_t k = 0; k < c->nwarps; k++)
        ex_warp_destroy(&c->warps[k]);
    g_free(c->warps);
    g_free(c->shared);
    c->warps = NULL;
    c->shared = NULL;
}

void ex_cta_account(ex_launch *L, const ex_cta *c)
{
    for (uint32_t k = 0; k < c->nwarps; k++) {
        L->warp_instrs += c->warps[k].instrs;
        L->thread_instrs += c->warps[k].thread_instrs;
    }
}

static void cta_start(ex_launch *L, ex_cta *c, uint32_t *warp_cap, uint32_t *shared_cap,
                      uint32_t linear)
{
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    uint32_t nwarps = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t shared = L->kernel->shared_static + L->dyn_shared;
    if (*warp_cap < nwarps) {
        c->warps = g_renew(ex_warp, c->warps, nwarps);
        memset(c->warps + *warp_cap, 0, sizeof(ex_warp) * (nwarps - *warp_cap));
        *warp_cap = nwarps;
    }
    if (*shared_cap < shared || !c->shared) {
        g_free(c->shared);
        c->shared = g_malloc0(shared ? shared : 1);
        *shared_cap = shared;
    } else {
        memset(c->shared, 0, shared);
    }
    c->shared_size = shared;
    c->linear_id = linear;
    c->ctaid[0] = linear % L->grid[0];
    c->ctaid[1] = (linear / L->grid[0]) % L->grid[1];
    c->ctaid[2] = linear / (L->grid[0] * L->grid[1]);
    c->nwarps = nwarps;
    c->nthreads = threads;
    c->done_warps = 0;
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_expected, 0, sizeof c->bar_expected);
    for (uint32_t i = 0; i < nwarps; i++)
        ex_warp_init(&c->warps[i], L, c, i);
}

static void report_deadlock(ex_launch *L, ex_cta *c)
{
    GString *who = g_string_new(NULL);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ex_warp *w = &c->warps[i];
        if (w->state == WARP_AT_BARRIER)
            g_string_append_printf(who, "%swarp %u waits at barrier %u", who->len ? ", " : "",
                                   i, w->barrier_id);
        else if (w->state == WARP_DONE)
            g_string_append_printf(who, "%swarp %u has exited", who->len ? ", " : "", i);
    }
    ex_warp *w0 = NULL;
    for (uint32_t i = 0; i < c->nwarps && !w0; i++)
        if (c->warps[i].state == WARP_AT_BARRIER)
            w0 = &c->warps[i];
    uint32_t id = w0 ? w0->barrier_id : 0;
    uint32_t expected = c->bar_expected[id];
    if (w0)
        ex_fault(w0, -1, "barrier deadlock: %u of %u threads arrived at barrier %u (%s)",
                 c->bar_arrived[id], expected ? expected : c->nthreads, id, who->str);
    else
        L->failed = true;
    g_string_free(who, TRUE);
}

static bool run_grid(ex_launch *L)
{
    uint64_t total = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    uint32_t nslots = total < RESIDENT_CTAS ? (uint32_t)total : RESIDENT_CTAS;
    if (L->cooperative) /* a grid barrier needs every CTA resident (the API checked it fits) */
        nslots = (uint32_t)total;
    cta_slot *slots = g_new0(cta_slot, nslots ? nslots : 1);
    uint64_t next = 0, done = 0;
    while (done < total && !L->failed) {
        for (uint32_t i = 0; i < nslots && next < total; i++)
            if (!slots[i].busy) {
                cta_start(L, &slots[i].cta, &slots[i].warp_cap, &slots[i].shared_cap,
                          (uint32_t)next++);
                slots[i].busy = true;
            }
        for (uint32_t i = 0; i < nslots && !L->failed; i++) {
            cta_slot *s = &slots[i];
            if (!s->busy)
                continue;
            ex_cta *c = &s->cta;
            for (uint32_t k = 0; k < c->nwarps && !L->failed; k++)
                if (c->warps[k].state == WARP_RUNNING)
                    ex_warp_run(&c->warps[k], QUANTUM);
            if (L->failed)
                break;
            /* a warp may have been released by a later warp's arrival */
            bool all_done = true;
            bool any_running = false;
            for (uint32_t k = 0; k < c->nwarps; k++) {
                all_done &= c->warps[k].state == WARP_DONE;
                any_running |= c->warps[k].state == WARP_RUNNING;
            }
            if (all_done) {
                ex_cta_account(L, c);
                s->busy = false;
                done++;
            } else if (!any_running) {
                /* every live warp waits at a barrier that cannot complete */
                report_deadlock(L, c);
            }
        }
    }
    for (uint32_t i = 0; i < nslots; i++) {
        if (slots[i].busy) /* a failed launch: count what ran */
            ex_cta_account(L, &slots[i].cta);
        for (uint32_t k = 0; k < slots[i].warp_cap; k++)
            ex_warp_destroy(&slots[i].cta.warps[k]);
        g_free(slots[i].cta.warps);
        g_free(slots[i].cta.shared);
    }
    g_free(slots);
    return !L->failed;
}

bool ex_launch_run(ex_launch *L, GError **err)
{
    /* the grid, then the grids it launched (runtime/cdp_run.c) */
    bool ok = run_grid(L) && ex_cdp_run_children(L);
    ex_cdp_release(L);
    if (!ok) {
        g_set_error(err, g_quark_from_static_string("ptxemu"), 1, "%s",
                    L->error ? L->error->str : "launch failed");
        return false;
    }
    return true;
}
