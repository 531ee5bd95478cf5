/* runtime/launch.c — the functional driver: runs a grid's CTAs to completion.
 * A batch of CTAs is resident at once and their warps take turns in fixed
 * quanta, so producer/consumer code across warps and CTAs makes progress and
 * every run is deterministic.
 *
 * A kernel whose CTAs cannot observe each other (runtime/par_class.c) runs
 * on run_parallel, which gives each of N host threads (one included) its own
 * resident batch, each CTA its own launch copy; the threads take the next
 * CTA from a shared counter.  See run_parallel for what stays identical to
 * one thread.  Other kernels run on run_grid, one resident batch on one
 * launch. */
#include "runtime/launch.h"
#include "runtime/cdp.h"
#include "runtime/hostmem.h"
#include "runtime/par_class.h"
#include "runtime/race.h"
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
    ex_host_free(c->shared, c->shared_cap);
    c->warps = NULL;
    c->shared = NULL;
}

void ex_cta_restart(ex_launch *L, ex_cta *c, uint32_t *warp_cap, uint32_t linear)
{
    ex_warp *warps = c->warps;
    uint8_t *shared = c->shared;
    uint32_t shared_cap = c->shared_cap;
    memset(c, 0, sizeof *c);
    c->warps = warps;
    c->shared = shared;
    c->shared_cap = shared_cap;
    for (uint32_t k = 0; k < *warp_cap; k++)
        ex_warp_scrub(&warps[k]);
    cta_start(L, c, warp_cap, &shared_cap, linear);
}

void ex_cta_finish(ex_cta *c)
{
    c->nwarps = 0;
}

void ex_cta_free(ex_cta *c, uint32_t warp_cap)
{
    c->nwarps = warp_cap;
    ex_cta_end(c);
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
        /* large ones are mmapped (runtime/hostmem.h) */
        ex_host_free(c->shared, c->shared_cap);
        uint32_t cap = shared ? shared : 1;
        c->shared = ex_host_alloc0(cap);
        if (!c->shared)
            g_error("ptxemu: no host memory for %u bytes of shared memory", cap);
        *shared_cap = cap;
        c->shared_cap = cap;
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
    c->bar_epoch = 0;
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

/* limits.max_seconds and limits.progress_seconds, checked by the
 * functional drivers after a warp's quantum: a warp still running past
 * the wall-clock limit is stopped (located, with its loop); with `next`,
 * a progress line goes to stderr every progress_seconds. */
static void wall_limits(ex_launch *L, ex_warp *w, uint64_t done, uint64_t total, int64_t *next)
{
    int64_t now = g_get_monotonic_time();
    if (L->max_seconds && now - L->start_us > (int64_t)L->max_seconds * G_USEC_PER_SEC &&
        w->state == WARP_RUNNING) {
        char *why = g_strdup_printf("stopped after %u s of wall-clock time (limits.max_seconds; "
                                    "raise it with --max-seconds, 0 for no limit)",
                                    L->max_seconds);
        ex_warp_stop(w, why);
        g_free(why);
    }
    if (next && L->progress_seconds && now >= *next) {
        fprintf(stderr, "ptxemu: kernel '%s': %.0f s, %llu warp instructions, %llu of %llu CTAs "
                        "done\n", L->kernel->name, (double)(now - L->start_us) / G_USEC_PER_SEC,
                (unsigned long long)L->clock, (unsigned long long)done,
                (unsigned long long)total);
        *next = now + (int64_t)L->progress_seconds * G_USEC_PER_SEC;
    }
}

/* Runs CTAs ids[0..total) (ids NULL: 0..total-1) in that order. */
static bool run_list(ex_launch *L, const uint32_t *ids, uint64_t total)
{
    int64_t next_report = L->start_us + (int64_t)L->progress_seconds * G_USEC_PER_SEC;
    uint32_t nslots = total < RESIDENT_CTAS ? (uint32_t)total : RESIDENT_CTAS;
    if (L->cooperative) /* a grid barrier needs every CTA resident (the API checked it fits) */
        nslots = (uint32_t)total;
    cta_slot *slots = g_new0(cta_slot, nslots ? nslots : 1);
    uint64_t next = 0, done = 0;
    while (done < total && !L->failed) {
        for (uint32_t i = 0; i < nslots && next < total; i++)
            if (!slots[i].busy) {
                cta_start(L, &slots[i].cta, &slots[i].warp_cap, &slots[i].shared_cap,
                          ids ? ids[next] : (uint32_t)next);
                next++;
                slots[i].busy = true;
            }
        for (uint32_t i = 0; i < nslots && !L->failed; i++) {
            cta_slot *s = &slots[i];
            if (!s->busy)
                continue;
            ex_cta *c = &s->cta;
            for (uint32_t k = 0; k < c->nwarps && !L->failed; k++)
                if (c->warps[k].state == WARP_RUNNING) {
                    if (G_LIKELY(!L->race))
                        ex_warp_run(&c->warps[k], QUANTUM);
                    else
                        ex_race_run(L->race, &c->warps[k], QUANTUM);
                    if (G_UNLIKELY(L->max_seconds || L->progress_seconds))
                        wall_limits(L, &c->warps[k], done, total, &next_report);
                }
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
        ex_host_free(slots[i].cta.shared, slots[i].cta.shared_cap);
    }
    g_free(slots);
    return !L->failed;
}

static bool run_grid(ex_launch *L)
{
    return run_list(L, NULL, (uint64_t)L->grid[0] * L->grid[1] * L->grid[2]);
}

bool ex_launch_run_ctas(ex_launch *L, const uint32_t *ids, uint32_t n)
{
    if (!L->start_us)
        L->start_us = g_get_monotonic_time();
    return run_list(L, ids, n);
}

/* ------------------------------------------------------ parallel driver */

/* Shared by the worker threads; the counters are only touched atomically. */
typedef struct par_grid {
    ex_launch *L;
    uint64_t total;
    uint64_t next;              /* next CTA to start */
    uint64_t stop_at;           /* lowest CTA that faulted (total: none) */
    uint64_t instrs;            /* warp instructions so far (max_warp_instrs) */
} par_grid;

/* One worker's results; workers share nothing else. */
typedef struct par_worker {
    par_grid *g;
    uint64_t warp_instrs, thread_instrs;
    uint64_t fault_cta;         /* lowest CTA that faulted here, or UINT64_MAX */
    GString *error;             /* its message */
    GThread *thread;
} par_worker;

/* A resident CTA with a launch of its own: the warps' `launch` points at
 * `shadow`, a copy of the launch whose clock (livelock detection), fault
 * and counts belong to this CTA alone. */
typedef struct par_slot {
    ex_launch shadow;
    ex_cta cta;
    bool busy;
    uint32_t warp_cap, shared_cap;
} par_slot;

static void par_fault(par_worker *wk, par_slot *s)
{
    uint64_t id = s->cta.linear_id;
    if (id < wk->fault_cta) {
        wk->fault_cta = id;
        if (wk->error)
            g_string_free(wk->error, TRUE);
        wk->error = s->shadow.error ? s->shadow.error
                                    : g_string_new("launch failed");
        s->shadow.error = NULL;
    }
    uint64_t cur = __atomic_load_n(&wk->g->stop_at, __ATOMIC_ACQUIRE);
    while (id < cur && !__atomic_compare_exchange_n(&wk->g->stop_at, &cur, id, false,
                                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
}

static void par_retire(par_worker *wk, par_slot *s)
{
    ex_cta_account(&s->shadow, &s->cta);
    wk->warp_instrs += s->shadow.warp_instrs;
    wk->thread_instrs += s->shadow.thread_instrs;
    if (s->shadow.error)
        g_string_free(s->shadow.error, TRUE);
    s->shadow.error = NULL;
    s->busy = false;
}

static gpointer par_work(gpointer data)
{
    par_worker *wk = data;
    par_grid *g = wk->g;
    ex_launch *L = g->L;
    uint32_t nslots = g->total < RESIDENT_CTAS ? (uint32_t)g->total : RESIDENT_CTAS;
    par_slot *slots = g_new0(par_slot, nslots);
    bool claiming = true;
    for (;;) {
        for (uint32_t i = 0; i < nslots && claiming; i++) {
            par_slot *s = &slots[i];
            if (s->busy)
                continue;
            uint64_t id = __atomic_fetch_add(&g->next, 1, __ATOMIC_RELAXED);
            if (id >= g->total || id > __atomic_load_n(&g->stop_at, __ATOMIC_ACQUIRE)) {
                claiming = false;
                break;
            }
            s->shadow = *L;
            s->shadow.warned = L->warned ? L->warned : &L->warned_own;
            s->shadow.clock = s->shadow.last_progress = 0;
            s->shadow.warp_instrs = s->shadow.thread_instrs = 0;
            s->shadow.error = NULL;
            s->shadow.failed = false;
            s->shadow.max_warp_instrs = 0; /* counted across threads below */
            s->shadow.host_atomics = true;
            cta_start(&s->shadow, &s->cta, &s->warp_cap, &s->shared_cap, (uint32_t)id);
            s->busy = true;
        }
        bool any = false;
        for (uint32_t i = 0; i < nslots; i++) {
            par_slot *s = &slots[i];
            if (!s->busy)
                continue;
            any = true;
            ex_cta *c = &s->cta;
            if (c->linear_id > __atomic_load_n(&g->stop_at, __ATOMIC_ACQUIRE)) {
                par_retire(wk, s); /* a lower CTA faulted: this one stops */
                continue;
            }
            for (uint32_t k = 0; k < c->nwarps && !s->shadow.failed; k++) {
                ex_warp *w = &c->warps[k];
                if (w->state != WARP_RUNNING)
                    continue;
                uint64_t before = w->instrs;
                ex_warp_run(w, QUANTUM);
                if (G_UNLIKELY(L->max_seconds))
                    wall_limits(L, w, 0, 0, NULL);
                if (L->max_warp_instrs &&
                    __atomic_add_fetch(&g->instrs, w->instrs - before, __ATOMIC_RELAXED) >
                        L->max_warp_instrs &&
                    w->state == WARP_RUNNING) {
                    char *why = g_strdup_printf(
                        "stopped after %llu warp instructions (limits.max_warp_instructions; "
                        "raise it with --max-warp-instructions or --set "
                        "limits.max_warp_instructions=N)",
                        (unsigned long long)L->max_warp_instrs);
                    ex_warp_stop(w, why);
                    g_free(why);
                }
            }
            if (!s->shadow.failed) {
                bool all_done = true, any_running = false;
                for (uint32_t k = 0; k < c->nwarps; k++) {
                    all_done &= c->warps[k].state == WARP_DONE;
                    any_running |= c->warps[k].state == WARP_RUNNING;
                }
                if (all_done) {
                    par_retire(wk, s);
                    continue;
                }
                if (!any_running)
                    report_deadlock(&s->shadow, c);
            }
            if (s->shadow.failed) {
                par_fault(wk, s);
                par_retire(wk, s);
            }
        }
        if (!any && !claiming)
            break;
    }
    for (uint32_t i = 0; i < nslots; i++) {
        for (uint32_t k = 0; k < slots[i].warp_cap; k++)
            ex_warp_destroy(&slots[i].cta.warps[k]);
        g_free(slots[i].cta.warps);
        ex_host_free(slots[i].cta.shared, slots[i].cta.shared_cap);
    }
    g_free(slots);
    return NULL;
}

const char *ex_launch_serial_why(const ex_launch *L)
{
    if (L->cooperative)
        return "a cooperative launch (grid-wide synchronisation)";
    if (L->on_device_launch || L->cycle_source)
        return "the timing model drives it";
    return L->kernel->serial_why;
}

/* Runs the grid on `n` host threads (the caller is one of them).  The
 * memory and the instruction counts of a launch that succeeds are those of
 * run_grid: the kernel's CTAs do not observe each other (par_class.c), and
 * sums do not depend on the order.  What differs:
 *  - livelock detection counts per CTA (a CTA that runs livelock_limit
 *    warp instructions without changing memory stops), not per launch;
 *  - limits.max_warp_instructions counts all threads' instructions after
 *    each quantum of a warp, so a launch stops iff it would stop on one
 *    thread, but the warp named in the message may differ;
 *  - after a fault, the launch reports the fault of the lowest CTA (linear
 *    id) that faults: CTAs below it run on, CTAs above it stop or never
 *    start.  Memory is then undefined (as on a GPU), and so are the counts. */
static bool run_parallel(ex_launch *L, uint32_t n)
{
    par_grid g = {.L = L, .total = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2]};
    g.stop_at = g.total;
    par_worker *wk = g_new0(par_worker, n);
    for (uint32_t i = 0; i < n; i++) {
        wk[i].g = &g;
        wk[i].fault_cta = UINT64_MAX;
    }
    for (uint32_t i = 1; i < n; i++)
        wk[i].thread = g_thread_new("ptxemu-cta", par_work, &wk[i]);
    par_work(&wk[0]);
    /* every worker copies *L when it starts a CTA: write L only after all
     * of them are done */
    for (uint32_t i = 1; i < n; i++)
        g_thread_join(wk[i].thread);
    par_worker *first = NULL;
    for (uint32_t i = 0; i < n; i++) {
        L->warp_instrs += wk[i].warp_instrs;
        L->thread_instrs += wk[i].thread_instrs;
        if (wk[i].error && (!first || wk[i].fault_cta < first->fault_cta))
            first = &wk[i];
    }
    L->clock += L->warp_instrs; /* as run_grid leaves it */
    if (first) {
        L->failed = true;
        if (!L->error) {
            L->error = first->error;
            first->error = NULL;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (wk[i].error)
            g_string_free(wk[i].error, TRUE);
    g_free(wk);
    return !L->failed;
}

static bool run_functional(ex_launch *L)
{
    L->start_us = g_get_monotonic_time();
    uint64_t total = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    uint32_t n = L->host_threads;
    if (n > total)
        n = (uint32_t)total;
    /* a kernel whose CTAs cannot observe each other runs on the parallel
     * driver even on one thread, so that its counts are those of -j N:
     * independent thread scheduling's yields (runtime/its.c) see only their
     * own CTA's memory changes there, where run_grid's shared launch would
     * also show them the interleaved CTAs' stores */
    if (n >= 1 && total > 0 && !L->race_check && !ex_launch_serial_why(L))
        return run_parallel(L, n);
    if (!L->race_check)
        return run_grid(L);
    L->race = ex_race_new(L);
    bool ok = run_grid(L);
    const char *report = ex_race_report(L->race);
    if (report && !L->race_report)
        L->race_report = g_string_new(report);
    ex_race_free(L->race);
    L->race = NULL;
    return ok;
}

bool ex_launch_run(ex_launch *L, GError **err)
{
    /* the grid, then the grids it launched (runtime/cdp_run.c) */
    bool ok = run_functional(L) && ex_cdp_run_children(L);
    ex_cdp_release(L);
    if (!ok) {
        g_set_error(err, g_quark_from_static_string("ptxemu"), 1, "%s",
                    L->error ? L->error->str : "launch failed");
        return false;
    }
    return true;
}
