/* sched/backoff/ddos.c — a DDOS/BoWS-style spin predictor (SEED-TARGETS.md
 * §5, "DDOS/BoWS table (re-implemented)"): the decision is taken at the
 * backward branch that closes a loop, from a per-SM prediction table.
 *
 * Spinning warps.  As in DDOS, one "frontier" thread stands for the warp:
 * the lowest lane that ran each setp.  Between two taken backward branches
 * the warp folds the frontier's setp (pc, src1, src2) values into a
 * signature.  A traversal (one taken backward branch) is spinning when its
 * signature and branch PC equal those of the warp's previous traversal:
 * the loop saw the same values again, i.e. made no progress.  A warp's
 * first traversal of a loop is never spinning, and a backward branch that
 * no lane takes (the loop exits) forgets the previous traversal.
 *
 * The table.  Per SM, `table_size` rows, one per backward-branch PC, each
 * with a confidence counter.  A spinning traversal adds 1 to its branch's
 * row (creating it: an empty row, else the row with the lowest confidence,
 * ties to the least recently used); a non-spinning traversal of a listed
 * branch subtracts 1 (not below 0: the counter is unsigned).
 *
 * The seed (Nayak et al. §2) says only "increases the confidence value by
 * 1" and "decremented by 1", and calls a branch spin-inducing once its
 * confidence is "over a particular threshold".  So by default the counter
 * does not saturate (32 bits) and the test is strict: confidence >
 * `threshold`, tested after the update, so with PT2 the third spinning
 * traversal backs the warp off, and a branch that has gathered many
 * spinning traversals stays spin-inducing through as many non-spinning
 * ones.  The other readings are keys: `saturate` caps the counter at the
 * first spin-inducing value (threshold, or threshold + 1 under >), so one
 * non-spinning traversal turns detection off again and PT2 and PT4 differ
 * only in how soon a branch turns on; `inclusive` tests >= instead of >.  Any spinning traversal of a spin-inducing branch
 * backs its warp off for `backoff` cycles.  Release: release.h. */
#include "sched/backoff/release.h"
#include "sched/backoff/spin_stats.h"
#include "sched/sched.h"

#include <glib.h>

typedef struct ddos_row {
    uint32_t pc;                 /* SCHED_NONE: empty */
    uint32_t conf;
    uint64_t used;               /* stamp of its last update */
} ddos_row;

/* One warp slot's traversal state. */
typedef struct ddos_warp {
    uint64_t sig;                /* signature of the traversal in progress */
    uint64_t prev_sig;           /* of the previous traversal */
    uint32_t prev_pc;            /* its backward branch; SCHED_NONE: none */
    bool flagged;                /* the traversal ran a static spin candidate */
    uint64_t until;              /* end of its current backoff */
    bool was_backed;             /* backed off since it arrived */
    spin_watch watch;            /* its last decision */
} ddos_warp;

typedef struct ddos_state {
    uint32_t threshold, size, backoff, release;
    bool saturate, inclusive;
    uint32_t sm, nslots;
    ddos_row *table;
    ddos_warp *warp;             /* [slot] */
    uint64_t *until;             /* [slot], for the release rule */
    uint64_t stamp;
    spin_stats st;
} ddos_state;

#define SIG_SEED 0x9e3779b97f4a7c15ull

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + SIG_SEED + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

static void ddos_init(void *st, const sched_env *env)
{
    ddos_state *s = st;
    s->threshold = env->keys->ddos_threshold;
    s->size = env->keys->ddos_table_size;
    s->backoff = env->keys->ddos_backoff;
    s->release = env->keys->ddos_release;
    s->saturate = env->keys->ddos_saturate;
    s->inclusive = env->keys->ddos_inclusive;
    s->sm = env->sm;
    s->nslots = env->warp_slots;
    s->table = g_new(ddos_row, s->size);
    for (uint32_t i = 0; i < s->size; i++)
        s->table[i] = (ddos_row){.pc = SCHED_NONE};
    s->warp = g_new0(ddos_warp, s->nslots);
    s->until = g_new0(uint64_t, s->nslots);
}

static void ddos_destroy(void *st)
{
    ddos_state *s = st;
    g_free(s->table);
    g_free(s->warp);
    g_free(s->until);
}

static ddos_row *find(ddos_state *s, uint32_t pc)
{
    for (uint32_t i = 0; i < s->size; i++)
        if (s->table[i].pc == pc)
            return &s->table[i];
    return NULL;
}

static ddos_row *insert(ddos_state *s, uint32_t pc)
{
    ddos_row *v = &s->table[0];
    for (uint32_t i = 0; i < s->size && v->pc != SCHED_NONE; i++) {
        ddos_row *r = &s->table[i];
        if (r->pc == SCHED_NONE || r->conf < v->conf || (r->conf == v->conf && r->used < v->used))
            v = r;
    }
    *v = (ddos_row){.pc = pc};
    return v;
}

/* Whether a row of confidence conf is spin-inducing. */
static bool ddos_inducing(const ddos_state *s, uint32_t conf)
{
    return s->inclusive ? conf >= s->threshold : conf > s->threshold;
}

/* A taken backward branch: update the table; the backoff end or 0. */
static uint64_t traversal(ddos_state *s, const sched_ctl *c, const sched_issue *e, ddos_warp *w,
                          char *why)
{
    bool spinning = w->prev_pc == e->pc && w->prev_sig == w->sig;
    bool flagged = w->flagged;
    w->prev_pc = e->pc;
    w->prev_sig = w->sig;
    w->sig = SIG_SEED;
    w->flagged = false;
    ddos_row *r = find(s, e->pc);
    if (!spinning) {
        if (r && r->conf > 0) {
            r->conf--;
            r->used = ++s->stamp;
        }
        return 0;
    }
    if (!r)
        r = insert(s, e->pc);
    if (r->conf < (s->saturate ? s->threshold + !s->inclusive : UINT32_MAX))
        r->conf++;
    r->used = ++s->stamp;
    if (!ddos_inducing(s, r->conf))
        return 0;
    spin_stats_detect(&s->st, e->pc, flagged, s->backoff, !w->was_backed);
    w->was_backed = true;
    spin_watch_arm(&w->watch, e);
    w->until = c->cycle + s->backoff;
    s->until[e->slot] = w->until;
    if (c->trace)
        snprintf(why, SCHED_WHY_LEN, "branch pc %u spin-inducing (confidence %u %s %u)%s",
                 e->pc, r->conf, s->inclusive ? ">=" : ">", s->threshold,
                 flagged ? "" : "; no static candidate");
    return w->until;
}

static uint64_t ddos_observe(void *st, const sched_ctl *c, const sched_issue *e, char *why)
{
    ddos_state *s = st;
    if (e->slot >= s->nslots)
        return 0;
    ddos_warp *w = &s->warp[e->slot];
    if ((e->flags & SCHED_ISSUE_SETP) && e->guard) {
        uint32_t lane = (uint32_t)__builtin_ctz(e->guard);
        w->sig = mix(w->sig, e->pc);
        w->sig = mix(w->sig, e->a ? e->a[lane] : 0);
        w->sig = mix(w->sig, e->b ? e->b[lane] : 0);
        w->flagged |= e->annot && e->annot->spin_candidate;
        return 0;
    }
    if (!(e->flags & SCHED_ISSUE_BACKWARD))
        return 0;
    spin_watch_check(&s->st, &w->watch, e);
    if (e->taken)
        return traversal(s, c, e, w, why);
    w->prev_pc = SCHED_NONE; /* the loop exits: its next entry starts afresh */
    w->sig = SIG_SEED;
    w->flagged = false;
    return 0;
}

static int32_t ddos_release(void *st, const sched_warp_ctx *ctx, const sched_warp_view *views,
                            uint32_t n, char *why)
{
    ddos_state *s = st;
    int32_t i = backoff_release_pick(s->release, s->until, views, n, ctx->trace != NULL, why);
    s->st.releases += i >= 0;
    return i;
}

static void ddos_warp_arrive(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    (void)c;
    ddos_state *s = st;
    if (e->slot >= s->nslots)
        return;
    s->warp[e->slot] = (ddos_warp){.sig = SIG_SEED, .prev_pc = SCHED_NONE};
    s->until[e->slot] = 0;
    s->st.live++;
}

static void ddos_warp_leave(void *st, const sched_ctl *c, const sched_warp_event *e)
{
    ddos_state *s = st;
    (void)e;
    if (s->st.live && --s->st.live == 0)
        spin_stats_log(&s->st, c, "ddos", s->sm);
}

const sched_backoff_ops sched_backoff_ddos = {
    .h = {.name = "ddos",
          .summary = "per-SM backward-branch confidence table (DDOS/BoWS); spinning warps back off",
          .state_size = sizeof(ddos_state),
          .wants = SCHED_WANT_ISSUE_SPIN | SCHED_WANT_WARP,
          .init = ddos_init,
          .destroy = ddos_destroy,
          .warp_arrive = ddos_warp_arrive,
          .warp_leave = ddos_warp_leave},
    .observe = ddos_observe,
    .release = ddos_release,
};
