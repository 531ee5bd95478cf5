/* timing/gpu.c — the cycle loop, kernel- and CTA-level scheduling, kernel
 * completion and statistics snapshots (timing/gpu.h). */
#include "timing/gpu.h"
#include "timing/memsys.h"
#include "timing/sm.h"

#include <string.h>

/* A kernel of the current run. */
typedef struct tm_kernel {
    ex_launch *L;
    uint32_t id;                 /* launch id */
    uint32_t total, next, finished;
    tm_cta_req req;
    tm_occupancy occ;
    uint64_t arrival, end;
    bool done;
    uint32_t *resident;          /* per SM */
    uint64_t *issued_on, *finished_on;
    tm_core_counters *base;      /* SM counters at arrival */
    tm_mem_counters mem_base;
    uint64_t *served_base;
} tm_kernel;

struct tm_gpu {
    gpu_config cfg;
    tm_options opts;
    char *csv_dir;
    sched_selection pol;
    tm_env env;
    memsys *mem;
    tm_sm **sms;
    uint32_t nsms;
    uint64_t now;                /* last simulated cycle */
    tm_stats stats;
    void *cta_state, *kernel_state;
    void *filter_state[GPU_CONFIG_LIST_MAX];
    /* the current run */
    tm_kernel *kernels;
    uint32_t nkernels;
    bool cta_dirty;              /* CTA placement may succeed now */
    uint32_t *limits;            /* SCHED_MAX_KERNELS x nsms */
    sched_cta_sm_view *smv;
    sched_kernel_info kinfo[SCHED_MAX_KERNELS];
    uint32_t kidx[SCHED_MAX_KERNELS];
};

static void on_mem_done(void *user, uint64_t token, uint64_t cycle)
{
    tm_gpu *g = user;
    uint32_t sm = (uint32_t)(token >> 48);
    if (sm < g->nsms)
        tm_sm_mem_done(g->sms[sm], (uint32_t)(token >> 32) & 0xffffu, (uint32_t)token, cycle);
}

static void on_cta_done(void *user, tm_sm *sm, void *kernel, uint32_t cta, uint64_t cycle)
{
    tm_gpu *g = user;
    tm_kernel *k = kernel;
    k->finished++;
    k->resident[sm->id]--;
    k->finished_on[sm->id]++;
    if (g->pol.cta->finished)
        g->pol.cta->finished(g->cta_state, k->id, cta, sm->id, cycle);
    for (unsigned f = 0; f < g->pol.nfilters; f++)
        if (g->pol.filters[f]->finished)
            g->pol.filters[f]->finished(g->filter_state[f], k->id, cta, sm->id, cycle);
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u CTA %u finished on SM %u\n",
                (unsigned long long)cycle, k->id, cta, sm->id);
    g->cta_dirty = true;
}

static void free_funcs(gpointer p)
{
    tm_func_free(p);
}

tm_gpu *tm_gpu_create(const gpu_config *cfg, const tm_options *opts, GError **error)
{
    if (!gpu_config_validate(cfg, NULL, error))
        return NULL;
    tm_gpu *g = g_new0(tm_gpu, 1);
    g->cfg = *cfg;
    if (!sched_select(&g->cfg, &g->pol, error)) {
        g_free(g);
        return NULL;
    }
    if (opts)
        g->opts = *opts;
    g->csv_dir = g_strdup(g->opts.csv_dir);
    g->opts.csv_dir = g->csv_dir;
    if (!g->opts.csv_interval)
        g->opts.csv_interval = g->cfg.stats.interval;
    g->env.cfg = &g->cfg;
    g->env.pol = &g->pol;
    g->env.trace = g->opts.trace;
    g->env.trace_warps = g->opts.trace && g->opts.trace_warps;
    g->env.funcs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_funcs);
    g->env.cta_done = on_cta_done;
    g->env.user = g;
    g->mem = memsys_create(&g->cfg, on_mem_done, g);
    g->env.mem = g->mem;
    g->nsms = g->cfg.gpu.num_sms;
    g->sms = g_new0(tm_sm *, g->nsms);
    for (uint32_t i = 0; i < g->nsms; i++)
        g->sms[i] = tm_sm_create(&g->env, i, 0);
    g->limits = g_new0(uint32_t, (size_t)SCHED_MAX_KERNELS * g->nsms);
    g->smv = g_new0(sched_cta_sm_view, g->nsms);
    g->cta_state = g_malloc0(g->pol.cta->state_size ? g->pol.cta->state_size : 1);
    if (g->pol.cta->init)
        g->pol.cta->init(g->cta_state, &g->cfg);
    for (unsigned f = 0; f < g->pol.nfilters; f++) {
        size_t sz = g->pol.filters[f]->state_size;
        g->filter_state[f] = g_malloc0(sz ? sz : 1);
        if (g->pol.filters[f]->init)
            g->pol.filters[f]->init(g->filter_state[f], &g->cfg);
    }
    g->kernel_state = g_malloc0(g->pol.kernel->state_size ? g->pol.kernel->state_size : 1);
    if (g->pol.kernel->init)
        g->pol.kernel->init(g->kernel_state, &g->cfg);
    tm_stats_init(&g->stats);
    return g;
}

void tm_gpu_destroy(tm_gpu *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->nsms; i++)
        tm_sm_destroy(g->sms[i]);
    g_free(g->sms);
    memsys_destroy(g->mem);
    g_hash_table_destroy(g->env.funcs);
    g_free(g->limits);
    g_free(g->smv);
    g_free(g->cta_state);
    for (unsigned f = 0; f < g->pol.nfilters; f++)
        g_free(g->filter_state[f]);
    g_free(g->kernel_state);
    tm_stats_clear(&g->stats);
    g_free(g->csv_dir);
    g_free(g);
}

const tm_stats *tm_gpu_stats(const tm_gpu *g)
{
    return &g->stats;
}

const gpu_config *tm_gpu_config(const tm_gpu *g)
{
    return &g->cfg;
}

uint64_t tm_gpu_cycle(const tm_gpu *g)
{
    return g->now;
}

/* ------------------------------------------------------------- occupancy */

static bool kernel_setup(tm_gpu *g, tm_kernel *k, ex_launch *L, GError **error)
{
    const gpu_config *c = &g->cfg;
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    k->L = L;
    L->cycle_source = &g->now; /* %clock reads simulated cycles */
    k->id = L->launch_id;
    k->total = L->grid[0] * L->grid[1] * L->grid[2];
    k->req.threads = threads;
    k->req.warps = (threads + c->gpu.warp_size - 1) / c->gpu.warp_size;
    k->req.shared = L->kernel->shared_static + L->dyn_shared;
    uint32_t regs = g->opts.regs_per_thread;
    if (!regs) {
        tm_func *f = g_hash_table_lookup(g->env.funcs, L->kernel);
        if (!f) {
            f = tm_func_build(c, L->kernel);
            g_hash_table_insert(g->env.funcs, (gpointer)L->kernel, f);
        }
        /* registers come in pairs; at least a handful for addressing */
        regs = (f->regs32 + 1) & ~1u;
        if (regs < 4)
            regs = 4;
        if (regs > 255)
            regs = 255;
        /* a compiler spills rather than fail: one CTA must fit */
        uint32_t cap = c->core.registers / (k->req.warps * c->gpu.warp_size);
        if (regs > cap)
            regs = cap & ~1u;
    }
    k->req.regs = regs * k->req.warps * c->gpu.warp_size;
    const char *why = NULL;
    uint32_t fit = tm_sm_fit_empty(c, &k->req, &why);
    k->occ.regs_per_thread = regs;
    k->occ.shared_per_cta = k->req.shared;
    k->occ.threads_per_cta = threads;
    k->occ.ctas_per_sm = fit;
    k->occ.limited_by = why;
    if (fit == 0) {
        g_set_error(error, g_quark_from_static_string("ptxemu"), 1,
                    "launch of '%s': one CTA (%u threads, %u registers each, %u bytes of "
                    "shared memory) does not fit an SM of %s (%u threads, %u registers, "
                    "%llu bytes of shared memory); limited by %s",
                    L->kernel->name, threads, regs, k->req.shared, c->gpu.name,
                    c->core.max_threads, c->core.registers,
                    (unsigned long long)c->core.shared_mem, why);
        return false;
    }
    k->resident = g_new0(uint32_t, g->nsms);
    k->issued_on = g_new0(uint64_t, g->nsms);
    k->finished_on = g_new0(uint64_t, g->nsms);
    k->base = g_new0(tm_core_counters, g->nsms);
    k->served_base = g_new0(uint64_t, g->nsms);
    L->nsmid = g->nsms;
    return true;
}

static void kernel_free(tm_kernel *k)
{
    g_free(k->resident);
    g_free(k->issued_on);
    g_free(k->finished_on);
    g_free(k->base);
    g_free(k->served_base);
}

/* ------------------------------------------------------- CTA scheduling */

static void build_sm_views(tm_gpu *g, const tm_kernel *k, uint32_t vi)
{
    for (uint32_t s = 0; s < g->nsms; s++) {
        tm_sm *sm = g->sms[s];
        sched_cta_sm_view *v = &g->smv[s];
        uint32_t limit = g->limits[(size_t)vi * g->nsms + s];
        uint32_t fit = tm_sm_fit(sm, &k->req);
        if (limit != SCHED_NO_LIMIT)
            fit = k->resident[s] >= limit ? 0 : (limit - k->resident[s] < fit ? limit - k->resident[s] : fit);
        v->sm = s;
        v->cluster = s / g->cfg.gpu.sms_per_cluster;
        v->resident = sm->resident;
        v->resident_kernel = k->resident[s];
        v->fit = fit;
        v->limit = limit;
        v->issued = k->issued_on[s];
        v->finished = k->finished_on[s];
        v->stall_cycles = sm->c.sched.idle_scoreboard + sm->c.sched.idle_pipeline;
        v->idle_cycles = sm->c.idle_cycles;
        v->warp_instrs = sm->c.warp_instrs;
        v->eligible = fit > 0;
    }
}

static void schedule_ctas(tm_gpu *g, uint64_t now)
{
    g->cta_dirty = false;
    uint32_t nk = 0;
    for (uint32_t i = 0; i < g->nkernels && nk < SCHED_MAX_KERNELS; i++) {
        tm_kernel *k = &g->kernels[i];
        if (k->done)
            continue;
        g->kidx[nk] = i;
        g->kinfo[nk] = (sched_kernel_info){k->id, k->total, k->next, k->finished,
                                           k->occ.ctas_per_sm, k->arrival};
        nk++;
    }
    if (!nk)
        return;
    for (size_t i = 0; i < (size_t)nk * g->nsms; i++)
        g->limits[i] = SCHED_NO_LIMIT;
    sched_kernel_view kv = {now, nk, g->kinfo, g->nsms};
    sched_kernel_decision dec = {0};
    dec.limit = g->limits;
    sched_kernel_ctx kctx = {g->opts.trace};
    g->pol.kernel->decide(g->kernel_state, &kctx, &kv, &dec);
    sched_cta_ctx cctx = {g->opts.trace};
    char why[SCHED_WHY_LEN], fwhy[SCHED_WHY_LEN];
    for (uint32_t o = 0; o < dec.count && o < nk; o++) {
        uint32_t vi = dec.order[o];
        if (vi >= nk)
            continue;
        tm_kernel *k = &g->kernels[g->kidx[vi]];
        if (k->next >= k->total)
            continue;
        build_sm_views(g, k, vi);
        sched_cta_view v = {now, k->id, k->next, k->total, k->next, k->occ.ctas_per_sm,
                            g->nsms, g->cfg.gpu.sms_per_cluster, g->smv};
        while (k->next < k->total) {
            v.next_cta = k->next;
            v.issued = k->next;
            why[0] = '\0';
            int32_t s = g->pol.cta->place(g->cta_state, &cctx, &v, why);
            if (s < 0 || (uint32_t)s >= g->nsms || !g->smv[s].eligible)
                break;
            bool admitted = true;
            for (unsigned f = 0; f < g->pol.nfilters && admitted; f++) {
                fwhy[0] = '\0';
                if (!g->pol.filters[f]->admit(g->filter_state[f], &cctx, &v, (uint32_t)s, fwhy)) {
                    admitted = false;
                    if (g->opts.trace)
                        fprintf(g->opts.trace, "cycle %llu: kernel %u CTA %u refused on SM %d "
                                "(%s%s%s)\n", (unsigned long long)now, k->id, k->next, s,
                                g->pol.filters[f]->name, fwhy[0] ? ": " : "", fwhy);
                }
            }
            g->smv[s].eligible = false; /* one decision per SM per cycle */
            if (!admitted)
                continue;
            if (g->opts.trace && k->next == 0)
                fprintf(g->opts.trace, "cycle %llu: kernel %u (%s) starts placing CTAs: %u CTAs, "
                        "at most %u per SM (limited by %s) (%s)\n", (unsigned long long)now,
                        k->id, k->L->kernel->name, k->total, k->occ.ctas_per_sm,
                        k->occ.limited_by, g->pol.kernel->name);
            if (g->opts.trace)
                fprintf(g->opts.trace, "cycle %llu: kernel %u CTA %u -> SM %d (%s%s%s)\n",
                        (unsigned long long)now, k->id, k->next, s, g->pol.cta->name,
                        why[0] ? ": " : "", why);
            tm_sm_launch(g->sms[s], k->L, k, k->id, k->next, &k->req, now);
            k->resident[s]++;
            k->issued_on[s]++;
            k->next++;
            g->smv[s].resident++;
            g->smv[s].resident_kernel++;
            g->smv[s].issued++;
            g->smv[s].fit--;
            if (g->pol.cta->placed)
                g->pol.cta->placed(g->cta_state, &v, (uint32_t)s);
            for (unsigned f = 0; f < g->pol.nfilters; f++)
                if (g->pol.filters[f]->placed)
                    g->pol.filters[f]->placed(g->filter_state[f], &v, (uint32_t)s);
            /* SMs with room left take the next CTA next cycle */
            if (g->smv[s].fit)
                g->cta_dirty = true;
        }
    }
}

/* ------------------------------------------------------------ statistics */

static void snapshot_mem(tm_gpu *g, tm_mem_counters *out, uint64_t *served)
{
    memsys_stats ms;
    memsys_extra_stats mx;
    memset(&ms, 0, sizeof ms);
    memset(&mx, 0, sizeof mx);
    memsys_get_stats(g->mem, &ms);
    memsys_get_extra_stats(g->mem, &mx);
    tm_mem_counters_from(out, &ms, &mx);
    for (uint32_t i = 0; i < g->nsms; i++)
        served[i] = ms.served_per_sm && i < ms.nsms ? ms.served_per_sm[i] : 0;
}

static void kernel_begin(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    k->arrival = now;
    memsys_invalidate_l1(g->mem); /* a kernel boundary: L1s may hold stale lines */
    for (uint32_t i = 0; i < g->nsms; i++) {
        tm_sm_flush(g->sms[i], now);
        k->base[i] = g->sms[i]->c;
    }
    snapshot_mem(g, &k->mem_base, k->served_base);
}

static void kernel_finish(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    k->done = true;
    k->end = now;
    tm_kernel_stats *ks = tm_kernel_stats_new(g->nsms);
    ks->name = g_strdup(k->L->kernel->name);
    ks->launch = k->id;
    memcpy(ks->grid, k->L->grid, sizeof ks->grid);
    memcpy(ks->block, k->L->block, sizeof ks->block);
    ks->ctas = k->total;
    ks->occ = k->occ;
    ks->start = k->arrival;
    ks->end = now;
    ks->warp_instrs = k->L->warp_instrs;
    ks->thread_instrs = k->L->thread_instrs;
    for (uint32_t i = 0; i < g->nsms; i++) {
        tm_sm_flush(g->sms[i], now + 1);
        ks->cores[i] = g->sms[i]->c;
        tm_core_counters_sub(&ks->cores[i], &k->base[i]);
        /* CTAs of this kernel only (others may share the SMs) */
        ks->cores[i].ctas_issued = k->issued_on[i];
        ks->cores[i].ctas_finished = k->finished_on[i];
        tm_core_counters_add(&ks->total, &ks->cores[i]);
    }
    snapshot_mem(g, &ks->mem, ks->served_per_sm);
    tm_mem_counters_sub(&ks->mem, &k->mem_base);
    for (uint32_t i = 0; i < g->nsms; i++)
        ks->served_per_sm[i] -= k->served_base[i];
    g_ptr_array_add(g->stats.kernels, ks);
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u (%s) finished\n",
                (unsigned long long)now, k->id, ks->name);
}

/* --------------------------------------------------------------- the loop */

static void fail_run(tm_gpu *g, GError **error)
{
    const char *msg = "timing run failed";
    for (uint32_t i = 0; i < g->nkernels; i++)
        if (g->kernels[i].L->failed && g->kernels[i].L->error) {
            msg = g->kernels[i].L->error->str;
            break;
        }
    g_set_error(error, g_quark_from_static_string("ptxemu"), 1, "%s", msg);
    for (uint32_t i = 0; i < g->nsms; i++)
        tm_sm_abort(g->sms[i]);
    /* requests in flight belong to the aborted CTAs: start the memory
     * system afresh so none completes into a later run */
    memsys_destroy(g->mem);
    g->mem = memsys_create(&g->cfg, on_mem_done, g);
    g->env.mem = g->mem;
    g->env.failed = false;
}

/* Nothing can ever happen again: a barrier nobody else reaches, or a bug. */
static void report_stall(tm_gpu *g, uint64_t now)
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
        }
        g_string_free(who, TRUE);
        if (w0) {
            g->env.failed = true;
            return;
        }
    }
    ex_launch *L = g->kernels[0].L;
    L->failed = true;
    if (!L->error)
        L->error = g_string_new(NULL);
    g_string_printf(L->error, "kernel '%s': the timing model made no progress at cycle %llu "
                    "(internal error)", L->kernel->name, (unsigned long long)now);
    g->env.failed = true;
}

bool tm_gpu_run(tm_gpu *g, ex_launch *const *launches, uint32_t n, GError **error)
{
    if (n == 0)
        return true;
    g->kernels = g_new0(tm_kernel, n);
    g->nkernels = n;
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++)
        ok = kernel_setup(g, &g->kernels[i], launches[i], error);
    uint64_t start = g->now + 1;
    tm_csv csv = {0};
    bool csv_on = false;
    if (ok && g->opts.csv_dir) {
        for (uint32_t i = 0; i < g->nsms; i++)
            tm_sm_flush(g->sms[i], start);
        tm_core_counters *base = g_new0(tm_core_counters, g->nsms);
        for (uint32_t i = 0; i < g->nsms; i++)
            base[i] = g->sms[i]->c;
        ok = csv_on = tm_csv_open(&csv, g->opts.csv_dir, g->kernels[0].id,
                                  g->kernels[0].L->kernel->name, g->nsms, base, start - 1,
                                  error);
        g_free(base);
    }
    if (!ok) {
        for (uint32_t i = 0; i < n; i++)
            kernel_free(&g->kernels[i]);
        g_free(g->kernels);
        g->kernels = NULL;
        g->nkernels = 0;
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        kernel_begin(g, &g->kernels[i], start);
    for (uint32_t i = 0; i < n; i++)
        if (g->kernels[i].total == 0)
            kernel_finish(g, &g->kernels[i], start);
    uint32_t interval = g->opts.csv_interval;
    uint64_t next_sample = start - 1 + interval;
    uint32_t *resident = g_new0(uint32_t, g->nsms);
    tm_core_counters *snap = g_new0(tm_core_counters, g->nsms);
    uint64_t now = g->now;
    uint32_t left = 0;
    for (uint32_t i = 0; i < n; i++)
        left += !g->kernels[i].done;
    g->cta_dirty = true;
    while (left && !g->env.failed) {
        now++;
        g->now = now; /* what %clock reads while instructions issue */
        if (g->cta_dirty)
            schedule_ctas(g, now);
        for (uint32_t i = 0; i < g->nsms && !g->env.failed; i++)
            tm_sm_cycle(g->sms[i], now);
        if (g->env.failed)
            break;
        if (memsys_next_cycle(g->mem) <= now)
            memsys_cycle(g->mem, now);
        for (uint32_t i = 0; i < n; i++) {
            tm_kernel *k = &g->kernels[i];
            if (!k->done && k->finished == k->total) {
                kernel_finish(g, k, now);
                left--;
            }
        }
        if (csv_on && (now == next_sample || !left)) {
            for (uint32_t i = 0; i < g->nsms; i++) {
                tm_sm_flush(g->sms[i], now + 1);
                snap[i] = g->sms[i]->c;
                resident[i] = g->sms[i]->resident;
            }
            tm_csv_sample(&csv, now, snap, resident);
            next_sample += interval;
        }
        if (!left || g->cta_dirty)
            continue;
        /* jump to the next cycle at which an SM or the memory system has
         * something to do (memsys_cycle may skip the cycles between) */
        uint64_t next = memsys_next_cycle(g->mem);
        for (uint32_t i = 0; i < g->nsms; i++) {
            uint64_t w = tm_sm_next_wake(g->sms[i]);
            if (w < next)
                next = w;
        }
        if (next == TM_NEVER) {
            report_stall(g, now);
            break;
        }
        if (csv_on && next > next_sample)
            next = next_sample;
        if (next > now + 1)
            now = next - 1;
    }
    g->now = now;
    if (csv_on)
        tm_csv_close(&csv);
    g_free(resident);
    g_free(snap);
    if (g->env.failed) {
        fail_run(g, error);
        ok = false;
    }
    for (uint32_t i = 0; i < n; i++)
        kernel_free(&g->kernels[i]);
    g_free(g->kernels);
    g->kernels = NULL;
    g->nkernels = 0;
    /* the decoded functions may belong to modules unloaded after this run */
    g_hash_table_remove_all(g->env.funcs);
    return ok;
}
