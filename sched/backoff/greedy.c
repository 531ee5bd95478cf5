/* sched/backoff/greedy.c — the spin seed's greedy detector (Nayak et al.
 * §2, SEED-TARGETS.md §5): setp operand history per thread, warp backoff.
 *
 * Per SM warp slot and lane, `rows` history rows; a row belongs to one
 * setp PC and holds a FIFO window of the last `window` (src1, src2) tuples
 * that lane pushed at that PC.  Each issued setp pushes the tuple of every
 * lane that ran it (active lanes whose guard held).  A lane spins at the PC
 * when its window is full and at least `repeat` of its tuples equal the
 * newest one (`repeat` = `window`, the default, is Fig. 2's "all equal";
 * smaller values give k-of-W).  When every lane that ran the setp spins at
 * that PC, the warp is backed off for `backoff` cycles.
 *
 * Row replacement: a setp PC without a row takes an empty row, else the
 * row its lane updated least recently (LRU); the evicted history is lost.
 * clear_history (default on) empties the warp's rows for that PC after a
 * backoff, so the next backoff needs `window` fresh spinning iterations;
 * off, a warp still spinning backs off again at its next setp.  A new
 * warp in a slot starts with empty rows.  static_filter (off by default)
 * tracks only setps the front end's spin-candidate pass flagged.
 * Release (all warps backed off): sched/backoff/release.h. */
#include "sched/backoff/release.h"
#include "sched/backoff/spin_stats.h"
#include "sched/sched.h"

#include <glib.h>

#define LANES 32u

typedef struct tuple { uint64_t a, b; } tuple;

/* One history row of one lane. */
typedef struct row {
    uint32_t pc;                 /* SCHED_NONE: empty */
    uint8_t head, n;             /* next write position; tuples held */
    uint64_t used;               /* stamp of its last update (LRU) */
} row;

typedef struct greedy_state {
    uint32_t window, repeat, rows, backoff, release;
    bool clear, filter;
    uint32_t sm, nslots;
    row *row;                    /* [slot][lane][rows] */
    tuple *tup;                  /* [slot][lane][rows][window] */
    uint64_t *until;             /* [slot]: end of its current backoff */
    bool *was_backed;            /* [slot]: backed off since it arrived */
    spin_watch *watch;           /* [slot]: its last decision */
    uint64_t stamp;
    spin_stats st;
} greedy_state;

static void greedy_init(void *st, const sched_env *env)
{
    greedy_state *s = st;
    const sched_keys *k = env->keys;
    s->window = k->greedy_window;
    s->repeat = k->greedy_repeat < k->greedy_window ? k->greedy_repeat : k->greedy_window;
    s->rows = k->greedy_rows;
    s->backoff = k->greedy_backoff;
    s->release = k->greedy_release;
    s->clear = k->greedy_clear_history;
    s->filter = k->greedy_static_filter;
    s->sm = env->sm;
    s->nslots = env->warp_slots;
    size_t nrows = (size_t)s->nslots * LANES * s->rows;
    s->row = g_new(row, nrows);
    s->tup = g_new(tuple, nrows * s->window);
    s->until = g_new0(uint64_t, s->nslots);
    s->was_backed = g_new0(bool, s->nslots);
    s->watch = g_new0(spin_watch, s->nslots);
    for (size_t i = 0; i < nrows; i++)
        s->row[i] = (row){.pc = SCHED_NONE};
}

static void greedy_destroy(void *st)
{
    greedy_state *s = st;
    g_free(s->row);
    g_free(s->tup);
    g_free(s->until);
    g_free(s->was_backed);
    g_free(s->watch);
}

static row *rows_of(greedy_state *s, uint32_t slot, uint32_t lane)
{
    return &s->row[((size_t)slot * LANES + lane) * s->rows];
}

static tuple *tuples_of(greedy_state *s, const row *r)
{
    return &s->tup[(size_t)(r - s->row) * s->window];
}

/* The lane's row for pc, taking an empty or the least recently used one. */
static row *row_for(greedy_state *s, uint32_t slot, uint32_t lane, uint32_t pc)
{
    row *rs = rows_of(s, slot, lane), *victim = &rs[0];
    for (uint32_t i = 0; i < s->rows; i++) {
        if (rs[i].pc == pc)
            return &rs[i];
        if (victim->pc != SCHED_NONE && (rs[i].pc == SCHED_NONE || rs[i].used < victim->used))
            victim = &rs[i];
    }
    *victim = (row){.pc = pc};
    return victim;
}

/* Pushes t into r; true when the lane now spins at r's PC. */
static bool push(greedy_state *s, row *r, tuple t)
{
    tuple *w = tuples_of(s, r);
    w[r->head] = t;
    r->head = (uint8_t)((r->head + 1u) % s->window);
    if (r->n < s->window)
        r->n++;
    r->used = ++s->stamp;
    if (r->n < s->window)
        return false;
    uint32_t same = 0;
    for (uint32_t i = 0; i < s->window; i++)
        same += w[i].a == t.a && w[i].b == t.b;
    return same >= s->repeat;
}

static void clear_pc(greedy_state *s, uint32_t slot, uint32_t pc)
{
    for (uint32_t lane = 0; lane < LANES; lane++) {
        row *rs = rows_of(s, slot, lane);
        for (uint32_t i = 0; i < s->rows; i++)
            if (rs[i].pc == pc)
                rs[i] = (row){.pc = SCHED_NONE};
    }
}

static uint64_t greedy_observe(void *st, const sched_ctl *c, const sched_issue *e, char *why)
{
    greedy_state *s = st;
    if (!(e->flags & SCHED_ISSUE_SETP) || e->slot >= s->nslots)
        return 0;
    spin_watch_check(&s->st, &s->watch[e->slot], e);
    if (e->guard == 0)
        return 0;
    if (s->filter && (!e->annot || !e->annot->spin_candidate))
        return 0;
    bool all = true;
    uint32_t lanes = 0;
    tuple last = {0, 0};
    for (uint32_t m = e->guard; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        tuple t = {e->a ? e->a[lane] : 0, e->b ? e->b[lane] : 0};
        all &= push(s, row_for(s, e->slot, lane, e->pc), t);
        last = t;
        lanes++;
    }
    if (!all)
        return 0;
    if (s->clear)
        clear_pc(s, e->slot, e->pc);
    bool flagged = e->annot && e->annot->spin_candidate;
    spin_stats_detect(&s->st, e->pc, flagged, s->backoff, !s->was_backed[e->slot]);
    s->was_backed[e->slot] = true;
    spin_watch_arm(&s->watch[e->slot], e);
    s->until[e->slot] = c->cycle + s->backoff;
    if (c->trace)
        snprintf(why, SCHED_WHY_LEN, "pc %u: %u lanes repeat, last (%llu, %llu)%s", e->pc,
                 lanes, (unsigned long long)last.a, (unsigned long long)last.b,
                 flagged ? "" : "; not a static candidate");
    return s->until[e->slot];
}

static int32_t greedy_release(void *st, const sched_warp_ctx *ctx, const sched_warp_view *views,
                              uint32_t n, char *why)
{
    greedy_state *s = st;
    int32_t i = backoff_release_pick(s->release, s->until, views, n, ctx->trace != NULL, why);
    s->st.releases += i >= 0;
    return i;
}

static void greedy_warp_arrive(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    (void)c;
    greedy_state *s = st;
    if (e->slot >= s->nslots)
        return;
    for (uint32_t lane = 0; lane < LANES; lane++) {
        row *rs = rows_of(s, e->slot, lane);
        for (uint32_t i = 0; i < s->rows; i++)
            rs[i] = (row){.pc = SCHED_NONE};
    }
    s->until[e->slot] = 0;
    s->was_backed[e->slot] = false;
    s->st.live++;
}

static void greedy_warp_leave(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    greedy_state *s = st;
    (void)e;
    if (s->st.live && --s->st.live == 0)
        spin_stats_log(&s->st, c, "greedy", s->sm);
}

const sched_backoff_ops sched_backoff_greedy = {
    .h = {.name = "greedy",
          .summary = "setp operand history per thread; a warp whose lanes all repeat backs off",
          .state_size = sizeof(greedy_state),
          .wants = SCHED_WANT_ISSUE_SPIN | SCHED_WANT_WARP,
          .init = greedy_init,
          .destroy = greedy_destroy,
          .warp_arrive = greedy_warp_arrive,
          .warp_leave = greedy_warp_leave},
    .observe = greedy_observe,
    .release = greedy_release,
};
