/* timing/gpu_cdp.c — device-side launches on the timing model
 * (docs/cdp.md, runtime/cdp.h).
 *
 * Every grid of a run has a record (tm_grid): the host launches, and each
 * device launch made while a CTA executes.  A device launch travels, after
 * `cdp.launch_latency` core cycles plus `cdp.launch_latency_per_lane` per
 * launch its warp instruction made so far, from the SM to the KMU as a
 * kernel of its own, then waits for a KDU entry like any kernel
 * (cdp.mode = cdp); or,
 * after `cdp.dtbl_latency`, its CTAs join the pool of the kernel its parent
 * runs in, after that kernel's CTAs (cdp.mode = dtbl, Wang et al. ISCA 2015).
 *
 * Completion follows CUDA: a grid is complete once its CTAs have finished
 * and every grid it launched is complete.  Tail launches are held until the
 * parent's CTAs and its other children are done, then go one at a time in
 * launch order.  A kernel whose CTAs are done but whose grid waits for
 * children gives its KDU entry back, so deep trees cannot fill the KDU with
 * waiting parents. */
#include "timing/gpu_internal.h"

#include <string.h>

static tm_grid *grid_at(const tm_gpu *g, uint32_t i)
{
    return g->cdp.grids->pdata[i];
}

static void grid_free(gpointer p)
{
    tm_grid *gr = p;
    if (gr->rec) { /* a device launch's own ex_launch */
        if (gr->own.error)
            g_string_free(gr->own.error, TRUE);
        ex_cdp_release(&gr->own);
    }
    if (gr->tails)
        g_ptr_array_free(gr->tails, TRUE);
    g_free(gr);
}

void tm_cdp_init(tm_gpu *g)
{
    tm_cdp_state *s = &g->cdp;
    s->grids = g_ptr_array_new_with_free_func(grid_free);
    s->waiting = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    s->dirty = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    s->next = TM_NEVER;
    s->why = g_string_new(NULL);
}

void tm_cdp_free(tm_gpu *g)
{
    tm_cdp_state *s = &g->cdp;
    if (!s->grids)
        return;
    /* The context's instruction counters count a host launch with all of its
     * device launches, as functional runs do (runtime/cdp_run.c); the
     * kernels' statistics are final by now, so nothing is counted twice. */
    for (guint i = 0; i < s->grids->len; i++) {
        tm_grid *gr = grid_at(g, i), *root = gr;
        if (!gr->rec)
            continue;
        while (root->parent != TM_NO_GRID)
            root = grid_at(g, root->parent);
        if (root != gr && root->L) {
            root->L->warp_instrs += gr->own.warp_instrs;
            root->L->thread_instrs += gr->own.thread_instrs;
        }
    }
    g_ptr_array_free(s->grids, TRUE);
    g_array_free(s->waiting, TRUE);
    g_array_free(s->dirty, TRUE);
    g_string_free(s->why, TRUE);
    g_free(s->queued);
    if (s->lines)
        g_hash_table_destroy(s->lines);
    if (s->last)
        g_hash_table_destroy(s->last);
    if (s->reuse)
        g_hash_table_destroy(s->reuse);
    g->env.touch = NULL;
    memset(s, 0, sizeof *s);
}

static uint32_t grid_new(tm_gpu *g, tm_grid **out)
{
    tm_grid *gr = g_new0(tm_grid, 1);
    gr->parent = TM_NO_GRID;
    gr->kernel = TM_NO_GRID;
    gr->sub = TM_KMU_NONE;
    g_ptr_array_add(g->cdp.grids, gr);
    *out = gr;
    return g->cdp.grids->len - 1;
}

static void mark_dirty(tm_gpu *g, uint32_t i)
{
    tm_grid *gr = grid_at(g, i);
    if (gr->dirty || gr->complete)
        return;
    gr->dirty = true;
    g_array_append_val(g->cdp.dirty, i);
}

static uint32_t ctas_of(const ex_launch *L)
{
    return L->grid[0] * L->grid[1] * L->grid[2];
}

/* 128-byte lines, LaPerm's (and Kepler's) cache line */
#define CDP_LINE_SHIFT 7

static gpointer line_key(uint32_t grid, uint32_t cta)
{
    return GSIZE_TO_POINTER(((gsize)grid << 32) | cta);
}

/* Reuse distance of a child TB's reads (tm_tb_stat.reads*): one count per
 * line a warp instruction touches, in line accesses GPU-wide since that
 * line's previous access by anyone. */
typedef struct tm_cdp_reuse { uint32_t reads, cold, l1, l2; } tm_cdp_reuse;

static void reuse_count(tm_gpu *g, const ex_warp *w, const ex_access *a, gpointer key)
{
    tm_cdp_state *s = &g->cdp;
    gsize prev = (gsize)-1;
    tm_cdp_reuse *r = NULL;
    if (w->launch->origin && (!a->write || a->atomic)) { /* atomics read too */
        r = g_hash_table_lookup(s->reuse, key);
        if (!r) {
            r = g_new0(tm_cdp_reuse, 1);
            g_hash_table_insert(s->reuse, key, r);
        }
    }
    uint64_t l1 = g->cfg.l1d.size / g->cfg.l1d.line;
    uint64_t l2 = g->cfg.l2.partition_size * g->cfg.dram.partitions / g->cfg.l2.line;
    for (uint32_t m = a->mask; m; m &= m - 1) {
        gsize line = (gsize)(a->addr[__builtin_ctz(m)] >> CDP_LINE_SHIFT);
        if (line == prev)
            continue; /* the same line as the lane before: one access */
        prev = line;
        gpointer last;
        bool seen = g_hash_table_lookup_extended(s->last, GSIZE_TO_POINTER(line), NULL, &last);
        uint64_t d = s->accesses - GPOINTER_TO_SIZE(last);
        if (r) {
            r->reads++;
            r->cold += !seen;
            r->l1 += seen && d <= l1;
            r->l2 += seen && d <= l2;
        }
        g_hash_table_insert(s->last, GSIZE_TO_POINTER(line), GSIZE_TO_POINTER(++s->accesses));
    }
}

static void cdp_touch(void *user, const ex_warp *w, const ex_access *a)
{
    tm_gpu *g = user;
    if (a->space != EX_SPACE_GLOBAL || w->launch->driver_grid == TM_NO_GRID)
        return;
    gpointer key = line_key(w->launch->driver_grid, w->cta->linear_id);
    GHashTable *set = g_hash_table_lookup(g->cdp.lines, key);
    if (!set) {
        set = g_hash_table_new(g_direct_hash, g_direct_equal);
        g_hash_table_insert(g->cdp.lines, key, set);
    }
    for (uint32_t m = a->mask; m; m &= m - 1) {
        gsize line = (gsize)(a->addr[__builtin_ctz(m)] >> CDP_LINE_SHIFT);
        g_hash_table_add(set, GSIZE_TO_POINTER(line));
    }
    reuse_count(g, w, a, key);
}

/* Whether a module's code calls the device runtime (then its grids' line
 * footprints are kept from their first instruction). */
static bool module_launches(const ex_module *m)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const GArray *calls = m->funcs[i].calls;
        for (guint c = 0; calls && c < calls->len; c++)
            if (g_array_index(calls, ex_call, c).builtin == EX_BUILTIN_CDP)
                return true;
    }
    return false;
}

/* Lines of a set that `count` (line -> TBs touching it) says were touched by
 * at least `min` TBs. */
static guint lines_counted(GHashTable *set, GHashTable *count, guint min)
{
    guint n = 0;
    GHashTableIter it;
    gpointer line;
    g_hash_table_iter_init(&it, set);
    while (g_hash_table_iter_next(&it, &line, NULL))
        n += GPOINTER_TO_UINT(g_hash_table_lookup(count, line)) >= min;
    return n;
}

/* line -> number of the TBs in `tbs` (tm_tb_stat *, lines under `key`)
 * that touched it */
static GHashTable *count_lines(GHashTable *lines, GPtrArray *tbs, GPtrArray *keys)
{
    GHashTable *count = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint i = 0; i < tbs->len; i++) {
        GHashTable *set = g_hash_table_lookup(lines, keys->pdata[i]);
        GHashTableIter it;
        gpointer line;
        g_hash_table_iter_init(&it, set ? set : count);
        while (set && g_hash_table_iter_next(&it, &line, NULL))
            g_hash_table_insert(count, line, GUINT_TO_POINTER(
                GPOINTER_TO_UINT(g_hash_table_lookup(count, line)) + 1));
    }
    return count;
}

typedef struct fp_group { GPtrArray *tbs, *keys; } fp_group;

static void fp_group_free(gpointer p)
{
    fp_group *f = p;
    g_ptr_array_free(f->tbs, TRUE);
    g_ptr_array_free(f->keys, TRUE);
    g_free(f);
}

static void fp_add(GHashTable *groups, gpointer gkey, tm_tb_stat *t, gpointer lkey)
{
    fp_group *f = g_hash_table_lookup(groups, gkey);
    if (!f) {
        f = g_new0(fp_group, 1);
        f->tbs = g_ptr_array_new();
        f->keys = g_ptr_array_new();
        g_hash_table_insert(groups, gkey, f);
    }
    g_ptr_array_add(f->tbs, t);
    g_ptr_array_add(f->keys, lkey);
}

/* LaPerm's Fig. 2 footprints, from the 128-byte lines each TB touched:
 * per child TB shared_with_parent and shared_with_siblings (cos/cs); per
 * parent TB children_shared (pc/c); per TB of a grid that launched,
 * shared_with_grid (the seed's "among parents"). */
void tm_cdp_footprints(tm_gpu *g, guint first)
{
    tm_cdp_state *s = &g->cdp;
    if (!s->lines)
        return;
    GHashTable *grid_of = g_hash_table_new(g_direct_hash, g_direct_equal); /* launch id -> grid */
    for (guint i = 0; i < s->grids->len; i++)
        g_hash_table_insert(grid_of, GUINT_TO_POINTER(grid_at(g, i)->L->launch_id),
                            GUINT_TO_POINTER(i + 1));
    GHashTable *tb_at = g_hash_table_new(g_direct_hash, g_direct_equal); /* lines key -> TB */
    GHashTable *kids = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, fp_group_free);
    GHashTable *grids = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, fp_group_free);
    for (guint k = first; k < g->stats.kernels->len; k++) {
        const tm_kernel_stats *ks = g_ptr_array_index(g->stats.kernels, k);
        for (guint i = 0; ks->tbs && i < ks->tbs->len; i++) {
            tm_tb_stat *t = &g_array_index(ks->tbs, tm_tb_stat, i);
            guint me = GPOINTER_TO_UINT(g_hash_table_lookup(grid_of, GUINT_TO_POINTER(t->grid)));
            if (!me)
                continue;
            gpointer key = line_key(me - 1, t->grid_cta);
            g_hash_table_insert(tb_at, key, t);
            fp_add(grids, GUINT_TO_POINTER(me), t, key);
            if (!t->depth)
                continue;
            const tm_cdp_reuse *r = g_hash_table_lookup(s->reuse, key);
            if (r)
                t->reads = r->reads, t->reads_cold = r->cold, t->reads_l1 = r->l1,
                t->reads_l2 = r->l2;
            guint pa = GPOINTER_TO_UINT(
                g_hash_table_lookup(grid_of, GUINT_TO_POINTER(t->parent_kernel)));
            if (!pa)
                continue;
            gpointer pkey = line_key(pa - 1, t->parent_cta);
            fp_add(kids, pkey, t, key);
            GHashTable *mine = g_hash_table_lookup(s->lines, key);
            GHashTable *theirs = g_hash_table_lookup(s->lines, pkey);
            if (!mine || !g_hash_table_size(mine))
                continue;
            guint both = 0;
            GHashTableIter it;
            gpointer line;
            g_hash_table_iter_init(&it, mine);
            while (theirs && g_hash_table_iter_next(&it, &line, NULL))
                both += g_hash_table_contains(theirs, line);
            t->shared_with_parent = (double)both / g_hash_table_size(mine);
        }
    }
    GHashTable *launched = g_hash_table_new(g_direct_hash, g_direct_equal); /* grids */
    GHashTableIter it;
    gpointer pkey, value;
    g_hash_table_iter_init(&it, kids);
    while (g_hash_table_iter_next(&it, &pkey, &value)) {
        fp_group *f = value;
        g_hash_table_add(launched, GSIZE_TO_POINTER((GPOINTER_TO_SIZE(pkey) >> 32) + 1));
        GHashTable *count = count_lines(s->lines, f->tbs, f->keys);
        guint all = g_hash_table_size(count);
        tm_tb_stat *parent = g_hash_table_lookup(tb_at, pkey);
        GHashTable *pset = g_hash_table_lookup(s->lines, pkey);
        if (parent && all)
            parent->children_shared = pset ? (double)lines_counted(pset, count, 1) / all : 0.0;
        for (guint i = 0; f->tbs->len > 1 && i < f->tbs->len; i++) {
            GHashTable *mine = g_hash_table_lookup(s->lines, f->keys->pdata[i]);
            guint shared = mine ? lines_counted(mine, count, 2) : 0;
            guint own = mine ? g_hash_table_size(mine) - shared : 0; /* only mine */
            if (all > own) /* siblings' union: everything but the lines only I touched */
                ((tm_tb_stat *)f->tbs->pdata[i])->shared_with_siblings =
                    (double)shared / (all - own);
        }
        g_hash_table_destroy(count);
    }
    g_hash_table_iter_init(&it, grids);
    while (g_hash_table_iter_next(&it, &pkey, &value)) {
        fp_group *f = value;
        if (!g_hash_table_contains(launched, pkey) || f->tbs->len < 2)
            continue;
        GHashTable *count = count_lines(s->lines, f->tbs, f->keys);
        for (guint i = 0; i < f->tbs->len; i++) {
            GHashTable *mine = g_hash_table_lookup(s->lines, f->keys->pdata[i]);
            if (mine && g_hash_table_size(mine))
                ((tm_tb_stat *)f->tbs->pdata[i])->shared_with_grid =
                    (double)lines_counted(mine, count, 2) / g_hash_table_size(mine);
        }
        g_hash_table_destroy(count);
    }
    g_hash_table_destroy(launched);
    g_hash_table_destroy(grids);
    g_hash_table_destroy(kids);
    g_hash_table_destroy(tb_at);
    g_hash_table_destroy(grid_of);
}

void tm_cdp_host_grid(tm_gpu *g, tm_kernel *k, uint32_t kernel_index, ex_launch *L)
{
    if (!g->cdp.lines && module_launches(L->mod)) { /* keep footprints this run */
        g->cdp.lines = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                             (GDestroyNotify)g_hash_table_destroy);
        g->cdp.last = g_hash_table_new(g_direct_hash, g_direct_equal);
        g->cdp.reuse = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
        g->env.touch = cdp_touch;
    }
    tm_grid *gr;
    uint32_t i = grid_new(g, &gr);
    gr->L = L;
    gr->kernel = kernel_index;
    gr->joined = true;
    gr->ctas_left = ctas_of(L);
    L->driver_grid = i;
    k->grid = i;
}

void tm_cdp_add_ctas(tm_gpu *g, uint32_t grid, uint32_t n)
{
    if (grid != TM_NO_GRID)
        grid_at(g, grid)->ctas_left += n;
}

void tm_cdp_cta_done(tm_gpu *g, uint32_t grid)
{
    tm_grid *gr = grid_at(g, grid);
    if (gr->ctas_left && --gr->ctas_left == 0)
        mark_dirty(g, grid);
}

/* Sends grid i on its way, arriving at `ready`: a kernel of its own through
 * the KMU (cdp), or a TB group waiting to join its parent's kernel (dtbl). */
static void submit(tm_gpu *g, uint32_t i, uint64_t ready)
{
    tm_grid *gr = grid_at(g, i);
    gr->ctas_left = ctas_of(gr->L);
    if (g->cfg.cdp.mode == GPU_CDP_DTBL) {
        gr->kernel = grid_at(g, gr->parent)->kernel;
        g->kernels[gr->kernel]->dev_appends++;
        gr->ready = ready;
        g_array_append_val(g->cdp.waiting, i);
        if (ready < g->cdp.next)
            g->cdp.next = ready;
        return;
    }
    uint32_t ki;
    tm_kernel *k = tm_gpu_kernel_add(g, &ki);
    GError *err = NULL;
    if (!tm_gpu_kernel_setup(g, k, gr->L, &err)) /* checked at the launch */
        g_error_free(err);
    k->grid = i;
    gr->kernel = ki;
    gr->joined = true;
    gr->sub = tm_kmu_add(&g->kmu, gr->L, ki, ready);
    k->sub = gr->sub;
    if (ready < g->kmu_next)
        g->kmu_next = ready;
}

/* L (the levels key) of the run's LaPerm TB policy; 0 for any other policy,
 * which has no priority queues to search. */
static uint32_t laperm_levels(const tm_gpu *g)
{
    const char *p = gpu_config_choice_name(sched_names_cta, g->cfg.cta.policy);
    if (!strcmp(p, "laperm-tbpri"))
        return g->cfg.policy.laperm_tbpri_levels;
    if (!strcmp(p, "laperm-smxbind"))
        return g->cfg.policy.laperm_smxbind_levels;
    if (!strcmp(p, "laperm-adaptive"))
        return g->cfg.policy.laperm_adaptive_levels;
    return 0;
}

/* The run's LaPerm queue capacity in TB groups (laperm-*.queue_entries). */
static uint32_t laperm_entries(const tm_gpu *g)
{
    const char *p = gpu_config_choice_name(sched_names_cta, g->cfg.cta.policy);
    if (!strcmp(p, "laperm-tbpri"))
        return g->cfg.policy.laperm_tbpri_queue_entries;
    if (!strcmp(p, "laperm-smxbind"))
        return g->cfg.policy.laperm_smxbind_queue_entries;
    return g->cfg.policy.laperm_adaptive_queue_entries;
}

/* dtbl under LaPerm: a group enters its launching SM's on-chip queue, or,
 * when that holds queue_entries groups not yet fully dispatched, the
 * overflow queue in memory (sec. IV-E); true for the latter.  The entry is
 * released by tm_cdp_group_dispatched. */
static bool queue_insert(tm_gpu *g, const ex_cdp_launch *rec)
{
    tm_cdp_state *s = &g->cdp;
    if (!s->queued)
        s->queued = g_new0(uint32_t, g->nsms);
    if (rec->parent_sm >= g->nsms)
        return false;
    bool full = s->queued[rec->parent_sm] >= laperm_entries(g);
    s->queued[rec->parent_sm]++;
    s->overflows += full;
    return full;
}

void tm_cdp_group_dispatched(tm_gpu *g, uint32_t parent_sm)
{
    if (g->cdp.queued && parent_sm < g->nsms && g->cdp.queued[parent_sm])
        g->cdp.queued[parent_sm]--;
}

/* Cycles from launch `rec` until it reaches the GPU.  dtbl: cdp.dtbl_latency.
 * Under a LaPerm policy: dtbl, the queue insert search (cdp.dtbl_insert_latency)
 * overlapped with that setup, plus cdp.dtbl_overflow_latency after the search
 * when the launching SM's queue is full; cdp, plus L x cdp.kmu_search_latency.
 * cdp: the device runtime's calls as the DTBL paper's method models them
 * (docs/cdp.md): a fixed part per launching warp instruction
 * (cdp.launch_latency) and a part per launch in it
 * (cdp.launch_latency_per_lane); the lanes of one warp instruction launch in
 * lane order, so its k-th launch (from 1) arrives after fixed + k x per-lane
 * cycles, the last one when the whole call would have ended. */
static uint64_t latency(tm_gpu *g, const ex_cdp_launch *rec)
{
    uint32_t levels = laperm_levels(g);
    if (g->cfg.cdp.mode == GPU_CDP_DTBL) {
        /* LaPerm's queue insert overlaps the TB group's setup (sec. IV-E) */
        uint64_t setup = g->cfg.cdp.dtbl_latency;
        uint64_t insert = levels ? g->cfg.cdp.dtbl_insert_latency : 0;
        /* an overflowing entry is written to memory after the search */
        if (levels && g->cfg.cdp.dtbl_overflow_latency && queue_insert(g, rec))
            insert += g->cfg.cdp.dtbl_overflow_latency;
        return insert > setup ? insert : setup;
    }
    tm_cdp_state *s = &g->cdp;
    uint32_t warp = rec->parent_thread / 32;
    if (s->warp_launches && s->warp_parent == rec->parent_id && s->warp_cta == rec->parent_cta &&
        s->warp_id == warp && s->warp_cycle == rec->launch_cycle) {
        s->warp_launches++;
    } else {
        s->warp_parent = rec->parent_id;
        s->warp_cta = rec->parent_cta;
        s->warp_id = warp;
        s->warp_cycle = rec->launch_cycle;
        s->warp_launches = 1;
    }
    /* LaPerm's KMU searches up to L priority levels per dispatch (sec. IV-E) */
    return g->cfg.cdp.launch_latency +
           (uint64_t)s->warp_launches * g->cfg.cdp.launch_latency_per_lane +
           (uint64_t)levels * g->cfg.cdp.kmu_search_latency;
}

bool tm_cdp_on_launch(void *user, ex_launch *parent, ex_cdp_launch *rec, const char **why)
{
    tm_gpu *g = user;
    tm_grid *gr;
    uint32_t i = grid_new(g, &gr);
    ex_cdp_child_launch(&gr->own, parent, rec);
    gr->L = &gr->own;
    gr->L->driver_grid = i;
    gr->rec = rec;
    gr->parent = parent->driver_grid;
    /* a child that cannot fit an SM fails at its launch, with the reason */
    tm_cta_req req;
    tm_occupancy occ;
    GError *err = NULL;
    if (!tm_gpu_launch_req(g, gr->L, &req, &occ, &err)) {
        g_string_assign(g->cdp.why, err->message);
        g_error_free(err);
        *why = g->cdp.why->str;
        return false;
    }
    tm_grid *p = grid_at(g, gr->parent);
    gr->latency = latency(g, rec);
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u CTA %u on SM %u launches grid %u (%s, "
                "depth %u%s)\n", (unsigned long long)g->now, parent->launch_id,
                rec->parent_cta, rec->parent_sm, rec->id, rec->kernel->name, rec->depth,
                rec->stream_kind == EX_CDP_STREAM_TAIL ? ", tail launch" : "");
    if (rec->stream_kind == EX_CDP_STREAM_TAIL) {
        if (!p->tails)
            p->tails = g_ptr_array_new();
        g_ptr_array_add(p->tails, GUINT_TO_POINTER(i));
        /* dtbl: the kernel must not end before its held tail launches join */
        if (g->cfg.cdp.mode == GPU_CDP_DTBL)
            g->kernels[p->kernel]->dev_appends++;
        return true;
    }
    p->open++;
    submit(g, i, rec->launch_cycle + gr->latency);
    return true;
}

/* The grid's launch has reached the GPU: it is no longer pending. */
static void started(tm_grid *gr)
{
    if (!gr->rec || gr->rec->started)
        return;
    gr->rec->started = true;
    if (gr->L->cdp && gr->L->cdp->pending)
        gr->L->cdp->pending--;
}

void tm_cdp_kernel_arrived(tm_gpu *g, tm_kernel *k)
{
    if (k->grid != TM_NO_GRID)
        started(grid_at(g, k->grid));
}

/* Grid i may have become complete (or ready for its next tail launch). */
static void settle(tm_gpu *g, uint32_t i, uint64_t now)
{
    tm_grid *gr = grid_at(g, i);
    gr->dirty = false;
    if (gr->complete || !gr->joined || gr->ctas_left || gr->open || gr->tails_open)
        return;
    if (!gr->rec && g->kernels[gr->kernel]->pending_appends)
        return; /* host TB groups still to join */
    if (gr->tails && gr->tails->len) {
        uint32_t t = GPOINTER_TO_UINT(gr->tails->pdata[0]);
        g_ptr_array_remove_index(gr->tails, 0);
        gr->tails_open++;
        tm_grid *tg = grid_at(g, t);
        uint64_t ready = tg->rec->launch_cycle + tg->latency;
        if (g->cfg.cdp.mode == GPU_CDP_DTBL)
            g->kernels[gr->kernel]->dev_appends--; /* submit counts it again */
        submit(g, t, ready > now ? ready : now + 1);
        return;
    }
    gr->complete = true;
    if (gr->parent == TM_NO_GRID)
        return;
    tm_grid *p = grid_at(g, gr->parent);
    if (gr->rec->stream_kind == EX_CDP_STREAM_TAIL)
        p->tails_open--;
    else
        p->open--;
    mark_dirty(g, gr->parent);
}

void tm_cdp_progress(tm_gpu *g, uint64_t now)
{
    tm_cdp_state *s = &g->cdp;
    if (s->next <= now) { /* dtbl groups join their kernels, in launch order */
        s->next = TM_NEVER;
        guint keep = 0;
        for (guint k = 0; k < s->waiting->len; k++) {
            uint32_t i = g_array_index(s->waiting, uint32_t, k);
            tm_grid *gr = grid_at(g, i);
            if (gr->ready > now) {
                g_array_index(s->waiting, uint32_t, keep++) = i;
                if (gr->ready < s->next)
                    s->next = gr->ready;
                continue;
            }
            tm_kernel *kn = g->kernels[gr->kernel];
            tm_gpu_append(g, kn, gr->L, i, now);
            kn->dev_appends--;
            gr->joined = true;
            started(gr);
        }
        g_array_set_size(s->waiting, keep);
    }
    /* settling may dirty parents: the list grows while we walk it */
    if (!s->dirty->len)
        return;
    for (guint k = 0; k < s->dirty->len; k++)
        settle(g, g_array_index(s->dirty, uint32_t, k), now);
    g_array_set_size(s->dirty, 0);
}

bool tm_cdp_kernel_may_finish(const tm_gpu *g, const tm_kernel *k)
{
    if (k->dev_appends)
        return false;
    return k->grid == TM_NO_GRID || grid_at(g, k->grid)->complete;
}

uint64_t tm_cdp_next_cycle(const tm_gpu *g)
{
    return g->cdp.next;
}

const ex_launch *tm_cdp_failed(const tm_gpu *g)
{
    for (guint i = 0; g->cdp.grids && i < g->cdp.grids->len; i++) {
        const tm_grid *gr = grid_at(g, i);
        if (gr->rec && gr->own.failed && gr->own.error)
            return &gr->own;
    }
    return NULL;
}
