/* runtime/cdp_run.c — the functional order of device-launched grids and the
 * launch tree's lifetime (runtime/cdp.h).
 *
 * Order (deterministic; docs/cdp.md): a grid runs to completion first; then
 * the grids it launched into the NULL stream, named streams and the
 * fire-and-forget stream run one after another in launch order, each with
 * all of its own descendants before the next starts; then its tail launches,
 * in launch order.  This is one of the orders CUDA allows: a child may start
 * any time after its launch, launches into one stream run in order, a tail
 * launch starts after the parent grid and all of its other work, and a grid
 * counts as complete only once its children are. */
#include "runtime/cdp.h"
#include "runtime/launch.h"

#include <string.h>

void ex_cdp_child_launch(ex_launch *child, const ex_launch *parent, ex_cdp_launch *rec)
{
    memset(child, 0, sizeof *child);
    child->mod = parent->mod;
    child->kernel = rec->kernel;
    child->mem = parent->mem;
    memcpy(child->grid, rec->grid, sizeof child->grid);
    memcpy(child->block, rec->block, sizeof child->block);
    child->dyn_shared = rec->dyn_shared;
    child->kparams = rec->params;
    child->kparam_size = rec->kernel->kparam_size;
    child->printf_out = parent->printf_out;
    child->livelock_limit = parent->livelock_limit;
    child->its = parent->its;
    child->max_warp_instrs = parent->max_warp_instrs;
    child->max_cycles = parent->max_cycles;
    child->max_seconds = parent->max_seconds;
    child->progress_seconds = parent->progress_seconds;
    child->cycle_source = parent->cycle_source;
    child->stack_limit = parent->stack_limit;
    child->launch_id = rec->id;
    child->nsmid = parent->nsmid;
    child->cdp = parent->cdp;
    child->origin = rec;
    child->cdp_max_depth = parent->cdp_max_depth;
    child->cdp_pending_limit = parent->cdp_pending_limit;
    child->cdp_next_id = parent->cdp_next_id;
    child->on_device_launch = parent->on_device_launch;
    child->device_launch_user = parent->device_launch_user;
}

/* Runs one child grid (and its descendants); false with L's error set. */
static bool run_child(ex_launch *L, ex_cdp_launch *rec)
{
    ex_launch child;
    ex_cdp_child_launch(&child, L, rec);
    rec->started = true;
    L->cdp->pending--;
    bool ok = ex_launch_run(&child, NULL);
    L->warp_instrs += child.warp_instrs;
    L->thread_instrs += child.thread_instrs;
    if (!ok) {
        L->failed = true;
        if (!L->error)
            L->error = g_string_new(NULL);
        g_string_printf(L->error, "%s (in grid %u launched from kernel '%s', CTA %u, thread %u)",
                        child.error ? child.error->str : "launch failed", rec->id,
                        L->kernel->name, rec->parent_cta, rec->parent_thread);
    }
    if (child.error)
        g_string_free(child.error, TRUE);
    ex_cdp_release(&child);
    return ok;
}

bool ex_cdp_run_children(ex_launch *L)
{
    if (!L->cdp_kids)
        return true;
    for (int tail = 0; tail < 2; tail++)
        for (guint i = 0; i < L->cdp_kids->len; i++) {
            ex_cdp_launch *rec = L->cdp_kids->pdata[i];
            if ((rec->stream_kind == EX_CDP_STREAM_TAIL) != (tail == 1))
                continue;
            if (!run_child(L, rec))
                return false;
        }
    return true;
}

void ex_cdp_release(ex_launch *L)
{
    if (L->cdp_kids)
        g_ptr_array_free(L->cdp_kids, TRUE);
    L->cdp_kids = NULL;
    if (!L->cdp_owner || !L->cdp) {
        L->cdp = NULL;
        return;
    }
    ex_cdp *t = L->cdp;
    for (guint i = 0; i < t->launches->len; i++) {
        ex_cdp_launch *r = t->launches->pdata[i];
        g_free(r->params);
        g_free(r);
    }
    for (guint i = 0; i < t->slots->len; i++) { /* buffers taken, never launched */
        ex_cdp_launch *r = t->slots->pdata[i];
        if (r) {
            g_free(r->params);
            g_free(r);
        }
    }
    g_ptr_array_free(t->launches, TRUE);
    g_ptr_array_free(t->slots, TRUE);
    g_array_free(t->free_slots, TRUE);
    g_free(t);
    L->cdp = NULL;
    L->cdp_owner = false;
}
