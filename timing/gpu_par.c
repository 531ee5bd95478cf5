/* timing/gpu_par.c — the SM visits of one cycle on several host threads
 * (-j N, sim.host_threads, in timing mode).
 *
 * Within a cycle the SMs do not look at each other: a visit changes its
 * SM, the memory system's SM side (held per SM until memsys_commit) and
 * memory that only its own CTAs use, when every resident CTA runs on its
 * own launch copy (tm_cta.own: the kernel's CTAs cannot observe each
 * other).  The GPU loop (timing/gpu.c, step_sms) applies what the visits
 * left for the shared state afterwards, in SM order, whichever thread
 * made the visit; so N threads give the statistics and memory of one.
 *
 * Thread t of N (the caller is 0) always visits the same SMs (visit_some):
 * an SM's warps, registers and caches stay in one core's cache (handing
 * SMs out dynamically moved them between cores every cycle and made two
 * threads slower than one).  Workers spin a while for the next cycle,
 * then sleep on a condition variable (a machine whose cores are busy
 * otherwise must not lose them to spinning). */
#include "timing/gpu_internal.h"

#include <stdio.h>

#define SPIN_WORKER 4000u /* polls before a worker sleeps */
#define SPIN_CALLER 1000u /* polls before the caller yields its core */

typedef struct par_worker {
    struct tm_par *p;
    uint32_t index;         /* 1..nthreads-1 */
} par_worker;

struct tm_par {
    uint32_t nthreads;      /* including the caller */
    GThread **th;           /* nthreads - 1 workers */
    par_worker *wk;
    /* the current cycle's work, written before gen is bumped */
    tm_sm *const *sms;
    uint32_t n;
    uint64_t now;
    uint32_t busy;          /* atomic: workers not done with this cycle */
    uint64_t gen;           /* atomic: cycles handed out */
    uint32_t sleepers;      /* atomic: workers waiting on cv */
    bool quit;
    GMutex mu;
    GCond cv;
    /* whether the SMs go to their owners (tm_par_on) */
    uint32_t arm;           /* ARM_* in use */
    uint32_t windows;       /* windows measured */
    uint64_t win_cycles, win_visits;
    gint64 win_start;       /* µs */
    double cost[2];    /* µs per SM visit in each arm's last window */
    uint32_t explore_at;    /* window that tries the arm not in use again */
};

/* Whether a cycle's visits are worth handing to the threads depends on
 * how much a visit costs, which varies by kernel and phase: a memory-bound
 * kernel's SMs mostly retry refused accesses or wait, and waking another
 * core for a few cheap visits costs more than it saves.  So the GPU
 * measures: each window of WINDOW cycles (with an SM due) runs under one
 * arm (the caller visits every SM; or every SM is visited by its owner,
 * the workers woken only for cycles in which one of theirs is due), its
 * wall time per SM visit is recorded, and the arm whose last window was
 * cheapest runs next, every EXPLORE-th window trying the other (phases of
 * a kernel differ).  An SM's state moves to the caller's cache under the
 * first arm and back under the second, so the arms change seldom.  Which
 * thread visits an SM changes no result, only the time. */
enum { ARM_SERIAL, ARM_OWNED, NARMS };
#define WINDOW 4096u
#define EXPLORE 16u
/* The arm not in use is tried again EXPLORE windows later times how much
 * dearer it was (at most MAX_SPACING times): a losing arm then costs the
 * run about 1/EXPLORE of its time.  With a fixed EXPLORE, atax small on two
 * threads under a load of ~7 on 2 cores spent 23 of 364 windows on its
 * owners at 15x the cost per SM visit (4.36 against 0.29 us), doubling
 * the run. */
#define MAX_SPACING 64u

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Thread t's SMs (tm_par_owner). */
static void visit_some(tm_par *p, uint32_t t)
{
    for (uint32_t i = (t + 1) % p->nthreads; i < p->n; i += p->nthreads)
        tm_sm_cycle(p->sms[i], p->now);
}

static gpointer worker(gpointer data)
{
    par_worker *wk = data;
    tm_par *p = wk->p;
    uint64_t seen = 0;
    for (;;) {
        uint64_t g;
        unsigned spin = 0;
        while ((g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE)) == seen) {
            if (++spin < SPIN_WORKER) {
                relax();
                continue;
            }
            /* sleepers before gen, as the caller bumps gen before it reads
             * sleepers: one of the two sees the other */
            g_mutex_lock(&p->mu);
            __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
            while (__atomic_load_n(&p->gen, __ATOMIC_SEQ_CST) == seen)
                g_cond_wait(&p->cv, &p->mu);
            __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
            g_mutex_unlock(&p->mu);
            spin = 0;
        }
        seen = g;
        if (p->quit)
            return NULL;
        visit_some(p, wk->index);
        __atomic_sub_fetch(&p->busy, 1, __ATOMIC_RELEASE);
    }
}

static void hand_out(tm_par *p)
{
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
        g_mutex_lock(&p->mu);
        g_cond_broadcast(&p->cv);
        g_mutex_unlock(&p->mu);
    }
}

bool tm_par_on(const tm_par *p)
{
    return p->arm == ARM_OWNED;
}

uint32_t tm_par_owner(const tm_par *p, uint32_t sm)
{
    /* SM i belongs to thread (i + N - 1) % N, so that with SMs left over the
     * caller (0), who also runs the cycle's serial part, has the fewest */
    return (sm + p->nthreads - 1) % p->nthreads;
}

void tm_par_count(tm_par *p, uint32_t due)
{
    if (!due)
        return;
    if (p->win_cycles++ == 0)
        p->win_start = g_get_monotonic_time();
    p->win_visits += due;
    if (p->win_cycles < WINDOW)
        return;
    double c = (double)(g_get_monotonic_time() - p->win_start) / (double)p->win_visits;
    /* the first window (one thread) pays for starting up: not measured, and
     * a run shorter than two windows never hands SMs out */
    if (p->windows)
        p->cost[p->arm] = c;
    p->win_cycles = p->win_visits = 0;
    p->windows++;
    if (p->windows == 1)
        return;
    if (p->windows <= NARMS || p->windows >= p->explore_at) {
        /* measure every arm, now and then again */
        p->arm = (p->arm + 1) % NARMS;
        double r = p->windows <= NARMS || p->cost[1 - p->arm] <= 0
                       ? 1 : p->cost[p->arm] / p->cost[1 - p->arm];
        uint32_t k = r <= 1 ? 1 : r >= MAX_SPACING ? MAX_SPACING : (uint32_t)r;
        p->explore_at = p->windows + EXPLORE * k;
        return;
    }
    uint32_t best = 0;
    for (uint32_t a = 1; a < NARMS; a++)
        if (p->cost[a] < p->cost[best])
            best = a;
    p->arm = best;
}

tm_par *tm_par_create(uint32_t nthreads)
{
    tm_par *p = g_new0(tm_par, 1);
    p->arm = ARM_SERIAL;
    p->nthreads = nthreads < 2 ? 2 : nthreads;
    g_mutex_init(&p->mu);
    g_cond_init(&p->cv);
    p->th = g_new0(GThread *, p->nthreads - 1);
    p->wk = g_new0(par_worker, p->nthreads - 1);
    for (uint32_t i = 0; i + 1 < p->nthreads; i++) {
        p->wk[i] = (par_worker){p, i + 1};
        p->th[i] = g_thread_new("ptxemu-sm", worker, &p->wk[i]);
    }
    return p;
}

void tm_par_destroy(tm_par *p)
{
    if (!p)
        return;
    p->quit = true;
    hand_out(p);
    for (uint32_t i = 0; i + 1 < p->nthreads; i++)
        g_thread_join(p->th[i]);
    g_free(p->th);
    g_free(p->wk);
    g_mutex_clear(&p->mu);
    g_cond_clear(&p->cv);
    g_free(p);
}

void tm_par_visit(tm_par *p, tm_sm *const *sms, uint32_t n, uint64_t now, bool workers)
{
    p->sms = sms;
    p->n = n;
    p->now = now;
    if (!workers) {
        visit_some(p, 0);
        return;
    }
    __atomic_store_n(&p->busy, p->nthreads - 1, __ATOMIC_RELAXED);
    hand_out(p);
    visit_some(p, 0);
    for (unsigned spin = 0; __atomic_load_n(&p->busy, __ATOMIC_ACQUIRE) != 0; spin++) {
        if (spin < SPIN_CALLER)
            relax();
        else
            g_thread_yield();
    }
}

/* Why this GPU's SMs never share a cycle's visits between threads, or NULL. */
static const char *static_why(const tm_gpu *g)
{
    if (g->opts.trace)
        return "the scheduling trace is written in issue order";
    unsigned wants = g->pol.wants;
    if (wants & (SCHED_WANT_ISSUE | SCHED_WANT_ISSUE_SPIN))
        return "a policy observes every issued instruction as it issues";
    if (wants & SCHED_WANT_WARP)
        return "a policy observes warps arriving and leaving as they do";
    return NULL;
}

void tm_gpu_par_setup(tm_gpu *g)
{
    uint32_t n = g->opts.host_threads;
    if (n > g->nsms)
        n = g->nsms;
    if (n < 2)
        return;
    const char *why = static_why(g);
    if (why) {
        fprintf(stderr, "ptxemu: the timing model steps its SMs on one thread: %s\n", why);
        return;
    }
    g->par = tm_par_create(n);
    g->par_noted = g_hash_table_new(g_direct_hash, g_direct_equal);
}

void tm_gpu_par_free(tm_gpu *g)
{
    tm_par_destroy(g->par);
    g->par = NULL;
    if (g->par_noted)
        g_hash_table_destroy(g->par_noted);
    g->par_noted = NULL;
}

void tm_gpu_par_note(tm_gpu *g, const ex_launch *L)
{
    const char *why = g->par ? tm_launch_shared_why(L) : NULL;
    if (!why || !g_hash_table_add(g->par_noted, (gpointer)L->kernel))
        return;
    fprintf(stderr, "ptxemu: while kernel '%s' runs, the timing model steps its SMs on one "
            "thread: %s\n", L->kernel->name, why);
}
