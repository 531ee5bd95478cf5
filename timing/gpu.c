/* timing/gpu.c — the cycle loop, kernel arrival and completion, and the
 * statistics snapshots (timing/gpu.h); CTA scheduling and the controls
 * policies use are timing/cta_sched.c.
 */
#include "timing/gpu_internal.h"
#include "timing/kernel_csv.h"
#include "timing/run_limits.h"
#include "timing/sample.h"

#include <string.h>

static void on_mem_done(void *user, uint64_t token, uint64_t cycle)
{
    tm_gpu *g = user;
    uint32_t sm = (uint32_t)(token >> 48);
    if (sm < g->nsms)
        tm_sm_mem_done(g->sms[sm], (uint32_t)(token >> 32) & 0xffffu, (uint32_t)token, cycle);
}

static void on_cta_done(void *user, tm_sm *sm, void *kernel, ex_launch *L, uint32_t cta,
                        uint64_t cycle)
{
    tm_gpu *g = user;
    tm_kernel *k = kernel;
    k->finished++;
    if (L->driver_grid != TM_NO_GRID)
        tm_cdp_cta_done(g, L->driver_grid);
    k->resident[sm->id]--;
    k->finished_on[sm->id]++;
    sched_cta_event e = {k->id, cta, sm->id, NULL};
    tm_pol_event_send(&g->pol, cycle, TM_EV_CTA_FINISHED, sm->id, SCHED_NONE, &e);
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
    if (opts)
        g->opts = *opts;
    g->csv_dir = g_strdup(g->opts.csv_dir);
    g->opts.csv_dir = g->csv_dir;
    if (!g->opts.csv_interval)
        g->opts.csv_interval = g->cfg.stats.interval;
    g->env.cfg = &g->cfg;
    tm_pol_init(&g->pol, &g->cfg, g->opts.trace, &tm_gpu_pol_ops, g,
                gpu_config_max_warps(&g->cfg));
    g->env.pol = &g->pol;
    g->env.trace = g->opts.trace;
    g->env.trace_warps = g->opts.trace && g->opts.trace_warps;
    g->env.funcs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_funcs);
    g_mutex_init(&g->env.funcs_lock);
    g->env.cta_done = on_cta_done;
    g->env.user = g;
    g->mem = memsys_create(&g->cfg, on_mem_done, g);
    g->env.mem = g->mem;
    g->nsms = g->cfg.gpu.num_sms;
    g->sms = g_new0(tm_sm *, g->nsms);
    g->visited = g_new0(uint32_t, g->nsms);
    g->occupied = g_new0(uint64_t, (g->nsms + 63) / 64);
    for (uint32_t i = 0; i < g->nsms; i++) {
        g->sms[i] = tm_sm_create(&g->env, i, 0);
        g->sms[i]->step = g->cfg.sim.step_every_cycle;
    }
    g->limits = g_new0(uint32_t, (size_t)SCHED_MAX_KERNELS * g->nsms);
    g->smv = g_new0(sched_cta_sm_view, g->nsms);
    g->smview = g_new0(sched_sm_view, g->nsms);
    g->cta_retry_at = TM_NEVER;
    g->sampler = tm_sampler_create(&g->cfg);
    tm_stats_init(&g->stats);
    tm_gpu_par_setup(g);
    return g;
}

void tm_gpu_destroy(tm_gpu *g)
{
    if (!g)
        return;
    tm_gpu_par_free(g);
    for (uint32_t i = 0; i < g->nsms; i++)
        tm_sm_destroy(g->sms[i]);
    g_free(g->sms);
    g_free(g->visited);
    g_free(g->occupied);
    memsys_destroy(g->mem);
    g_hash_table_destroy(g->env.funcs);
    g_mutex_clear(&g->env.funcs_lock);
    g_free(g->limits);
    g_free(g->smv);
    g_free(g->smview);
    tm_pol_destroy(&g->pol);
    tm_sampler_destroy(g->sampler);
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

/* The resources one CTA of L holds and how many fit an empty SM; false and
 * a message when not even one does. */
bool tm_gpu_launch_req(tm_gpu *g, ex_launch *L, tm_cta_req *req, tm_occupancy *occ,
                       GError **error)
{
    const gpu_config *c = &g->cfg;
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    L->cycle_source = &g->now; /* %clock reads simulated cycles */
    L->nsmid = g->nsms;
    L->on_device_launch = tm_cdp_on_launch;
    L->device_launch_user = g;
    req->threads = threads;
    req->warps = (threads + c->gpu.warp_size - 1) / c->gpu.warp_size;
    req->shared = L->kernel->shared_static + L->dyn_shared;
    uint32_t regs = g->opts.regs_per_thread;
    if (!regs)
        regs = c->core.regs_per_thread;
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
        uint32_t cap = c->core.registers / (req->warps * c->gpu.warp_size);
        if (regs > cap)
            regs = cap & ~1u;
    }
    req->regs = regs * req->warps * c->gpu.warp_size;
    const char *why = NULL;
    uint32_t fit = tm_sm_fit_empty(c, req, &why);
    occ->regs_per_thread = regs;
    occ->shared_per_cta = req->shared;
    occ->threads_per_cta = threads;
    occ->ctas_per_sm = fit;
    occ->limited_by = why;
    if (fit == 0) {
        g_set_error(error, g_quark_from_static_string("ptxemu"), 1,
                    "launch of '%s': one CTA (%u threads, %u registers each, %u bytes of "
                    "shared memory) does not fit an SM of %s (%u threads, %u registers, "
                    "%llu bytes of shared memory); limited by %s",
                    L->kernel->name, threads, regs, req->shared, c->gpu.name,
                    c->core.max_threads, c->core.registers,
                    (unsigned long long)c->core.shared_mem, why);
        return false;
    }
    return true;
}

/* The origin of a segment's CTAs, for CTA policies (sched_cta_group). */
static void add_group(tm_kernel *k, const ex_launch *L, uint32_t first, uint32_t count)
{
    sched_cta_group gr = {first, count, 0, first, 0, SCHED_NONE, SCHED_NONE, SCHED_NONE, 0};
    const ex_cdp_launch *o = L->origin;
    if (o) {
        gr.depth = o->depth;
        gr.parent_kernel = o->parent_id;
        gr.parent_cta = o->parent_cta;
        gr.parent_sm = o->parent_sm;
        gr.launch_cycle = o->launch_cycle;
    }
    g_array_append_val(k->groups, gr);
}

tm_kernel *tm_gpu_kernel_add(tm_gpu *g, uint32_t *index)
{
    if (g->nkernels == g->kernels_cap) {
        g->kernels_cap = g->kernels_cap ? g->kernels_cap * 2 : 8;
        g->kernels = g_renew(tm_kernel *, g->kernels, g->kernels_cap);
    }
    tm_kernel *k = g_new0(tm_kernel, 1);
    k->grid = TM_NO_GRID;
    *index = g->nkernels;
    g->kernels[g->nkernels++] = k;
    return k;
}

bool tm_gpu_kernel_setup(tm_gpu *g, tm_kernel *k, ex_launch *L, GError **error)
{
    tm_seg seg = {L, 0, L->grid[0] * L->grid[1] * L->grid[2], {0}, L->driver_grid};
    k->L = L;
    k->id = L->launch_id;
    k->segs = g_array_new(FALSE, TRUE, sizeof(tm_seg));
    if (!tm_gpu_launch_req(g, L, &seg.req, &k->occ, error))
        return false;
    g_array_append_val(k->segs, seg);
    k->groups = g_array_new(FALSE, TRUE, sizeof(sched_cta_group));
    add_group(k, L, 0, seg.count);
    k->total = seg.count;
    k->placed = g_new0(uint8_t, k->total ? k->total : 1);
    k->resident = g_new0(uint32_t, g->nsms);
    k->issued_on = g_new0(uint64_t, g->nsms);
    k->finished_on = g_new0(uint64_t, g->nsms);
    k->base = g_new0(tm_core_counters, g->nsms);
    k->served_base = g_new0(uint64_t, g->nsms);
    return true;
}

static void kernel_free(tm_kernel *k)
{
    if (!k)
        return;
    if (k->segs)
        g_array_free(k->segs, TRUE);
    if (k->groups)
        g_array_free(k->groups, TRUE);
    if (k->tbs)
        g_array_free(k->tbs, TRUE);
    g_free(k->placed);
    g_free(k->resident);
    g_free(k->issued_on);
    g_free(k->finished_on);
    g_free(k->base);
    g_free(k->served_base);
    tm_sample_kernel_free(k->smp);
    g_free(k);
}

/* ------------------------------------------------------------ statistics */

static void snapshot_mem(tm_gpu *g, tm_mem_counters *out, uint64_t *served, uint64_t upto)
{
    memsys_stats ms;
    memsys_extra_stats mx;
    memset(&ms, 0, sizeof ms);
    memset(&mx, 0, sizeof mx);
    memsys_get_stats_at(g->mem, upto, &ms);
    memsys_get_extra_stats(g->mem, &mx);
    tm_mem_counters_from(out, &ms, &mx);
    for (uint32_t i = 0; i < g->nsms; i++)
        served[i] = ms.served_per_sm && i < ms.nsms ? ms.served_per_sm[i] : 0;
}

static void kernel_begin(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    k->arrival = now;
    k->arrived = true;
    tm_gpu_par_note(g, k->L);
    k->instr_limit = k->L->max_warp_instrs && !tm_launch_shared_why(k->L);
    if (k->instr_limit) {
        g->instr_limits++;
        k->instrs_at_begin = 0;
        for (uint32_t i = 0; i < g->nsms; i++)
            k->instrs_at_begin += g->sms[i]->c.warp_instrs;
    }
    /* a host kernel boundary: L1s may hold stale lines (the driver's flush;
     * a device launch has none, docs/cdp.md) */
    if (!k->L->origin)
        memsys_invalidate_l1(g->mem);
    for (uint32_t i = 0; i < g->nsms; i++) {
        tm_sm_flush(g->sms[i], now);
        k->base[i] = g->sms[i]->c;
    }
    snapshot_mem(g, &k->mem_base, k->served_base, now);
    tm_sample_begin(g, k, now);
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u (%s) arrives: %u CTAs\n",
                (unsigned long long)now, k->id, k->L->kernel->name, k->total);
    sched_kernel_info ki = tm_gpu_kernel_info(k);
    tm_pol_event_send(&g->pol, now, TM_EV_KERNEL_ARRIVE, SCHED_NONE, SCHED_NONE, &ki);
    g->cta_dirty = true;
}

static void kernel_finish(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    k->done = true;
    k->end = now;
    g->instr_limits -= k->instr_limit;
    tm_kernel_stats *ks = tm_kernel_stats_new(g->nsms);
    ks->name = g_strdup(k->L->kernel->name);
    ks->launch = k->id;
    memcpy(ks->grid, k->L->grid, sizeof ks->grid);
    memcpy(ks->block, k->L->block, sizeof ks->block);
    ks->ctas = k->total;
    ks->occ = k->occ;
    ks->start = k->arrival;
    ks->end = now;
    for (guint i = 0; i < k->segs->len; i++) {
        const ex_launch *L = g_array_index(k->segs, tm_seg, i).L;
        ks->warp_instrs += L->warp_instrs;
        ks->thread_instrs += L->thread_instrs;
    }
    for (uint32_t i = 0; i < g->nsms; i++) {
        tm_sm_flush(g->sms[i], now + 1);
        ks->cores[i] = g->sms[i]->c;
        tm_core_counters_sub(&ks->cores[i], &k->base[i]);
        /* CTAs of this kernel only (others may share the SMs) */
        ks->cores[i].ctas_issued = k->issued_on[i];
        ks->cores[i].ctas_finished = k->finished_on[i];
        ks->cta_limit[i] = g->sms[i]->cta_limit;
        ks->off_end[i] = g->sms[i]->gated || g->sms[i]->draining;
        tm_core_counters_add(&ks->total, &ks->cores[i]);
    }
    snapshot_mem(g, &ks->mem, ks->served_per_sm, now + 1);
    tm_mem_counters_sub(&ks->mem, &k->mem_base);
    for (uint32_t i = 0; i < g->nsms; i++)
        ks->served_per_sm[i] -= k->served_base[i];
    if (k->L->cdp) { /* it took part in dynamic parallelism: per-TB origins */
        ks->tbs = k->tbs;
        k->tbs = NULL;
    }
    tm_sample_finish(g, k, ks);
    g_ptr_array_add(g->stats.kernels, ks);
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u (%s) finished\n",
                (unsigned long long)now, k->id, ks->name);
    sched_kernel_info ki = tm_gpu_kernel_info(k);
    tm_pol_event_send(&g->pol, now, TM_EV_KERNEL_FINISH, SCHED_NONE, SCHED_NONE, &ki);
}

static bool kernel_resident(void *user, uint32_t kernel)
{
    tm_gpu *g = user;
    return g->kernels[kernel]->arrived && !g->kernels[kernel]->done;
}

void tm_gpu_append(tm_gpu *g, tm_kernel *k, ex_launch *L, uint32_t grid, uint64_t now)
{
    tm_seg seg = {L, k->total, L->grid[0] * L->grid[1] * L->grid[2], {0}, grid};
    tm_occupancy occ;
    GError *err = NULL;
    if (!tm_gpu_launch_req(g, L, &seg.req, &occ, &err)) { /* checked at set-up/launch */
        g_error_free(err);
        return;
    }
    g_array_append_val(k->segs, seg);
    add_group(k, L, seg.first, seg.count);
    k->placed = g_realloc(k->placed, k->total + seg.count);
    memset(k->placed + k->total, 0, seg.count);
    k->total += seg.count;
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: %u CTAs of '%s' appended to kernel %u\n",
                (unsigned long long)now, seg.count, L->kernel->name, k->id);
    g->cta_dirty = true;
}

/* Submissions arriving at `now` (timing/kmu.h): new kernels begin, TB
 * groups join theirs, host operations run. */
static void arrivals(tm_gpu *g, uint64_t now)
{
    if (now < g->kmu_next)
        return;
    uint32_t i;
    while ((i = tm_kmu_pop(&g->kmu, now, kernel_resident, g)) != TM_KMU_NONE) {
        const tm_kmu_sub *p = &g->kmu.subs[i];
        if (!p->s.L) {
            if (p->s.host)
                p->s.host(p->s.host_user, now);
            if (g->opts.trace)
                fprintf(g->opts.trace, "cycle %llu: host operation %u done\n",
                        (unsigned long long)now, i);
            tm_kmu_finish(&g->kmu, i, now);
            continue;
        }
        tm_kernel *k = g->kernels[p->kernel];
        if (p->s.append_to < 0) {
            kernel_begin(g, k, now);
            tm_cdp_kernel_arrived(g, k);
            continue;
        }
        /* a host TB group joins its kernel's host grid */
        p->s.L->driver_grid = k->grid;
        tm_cdp_add_ctas(g, k->grid, p->s.L->grid[0] * p->s.L->grid[1] * p->s.L->grid[2]);
        tm_gpu_append(g, k, p->s.L, k->grid, now);
        k->pending_appends--;
    }
    g->kmu_next = tm_kmu_next_cycle(&g->kmu);
}

/* Kernel k finished at `now`: it and the submissions appended to it are
 * done; their dependants may arrive from the next cycle. */
static void kernel_done(tm_gpu *g, uint32_t ki, uint64_t now)
{
    kernel_finish(g, g->kernels[ki], now);
    for (uint32_t i = 0; i < g->kmu.n; i++)
        if (g->kmu.subs[i].kernel == ki && g->kmu.subs[i].s.L)
            tm_kmu_finish(&g->kmu, i, now);
    g->kmu_next = tm_kmu_next_cycle(&g->kmu);
}

/* --------------------------------------------------------------- the loop */

static void fail_run(tm_gpu *g, GError **error)
{
    const char *msg = "timing run failed";
    const ex_launch *child = tm_cdp_failed(g);
    if (child)
        msg = child->error->str;
    for (uint32_t i = 0; i < g->kmu.n && !child; i++) {
        const ex_launch *L = g->kmu.subs[i].s.L;
        if (L && L->failed && L->error) {
            msg = L->error->str;
            break;
        }
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

static void run_free(tm_gpu *g)
{
    for (uint32_t i = 0; i < g->nkernels; i++)
        kernel_free(g->kernels[i]);
    g_free(g->kernels);
    g->kernels = NULL;
    g->nkernels = g->kernels_cap = 0;
    g->instr_limits = 0;
    tm_kmu_free(&g->kmu);
    tm_cdp_free(g);
}

/* Kernels and the KMU of a run; false with a message on a bad submission. */
static bool run_setup(tm_gpu *g, const tm_submit *subs, uint32_t n, uint64_t start,
                      GError **error)
{
    tm_cdp_init(g);
    uint32_t *kernel_of = g_new(uint32_t, n);
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        const tm_submit *s = &subs[i];
        if (!s->L) {
            kernel_of[i] = TM_KMU_NONE;
        } else if (s->append_to < 0) {
            tm_kernel *k = tm_gpu_kernel_add(g, &kernel_of[i]);
            k->sub = i;
            tm_cdp_host_grid(g, k, kernel_of[i], s->L);
            ok = tm_gpu_kernel_setup(g, k, s->L, error);
        } else if ((uint32_t)s->append_to >= i || !subs[s->append_to].L ||
                   subs[s->append_to].append_to >= 0 ||
                   subs[s->append_to].arrival > s->arrival) {
            g_set_error(error, g_quark_from_static_string("ptxemu"), 1,
                        "launch of '%s': append_to = %d must name an earlier launch that "
                        "forms its own kernel and arrives no later", s->L->kernel->name,
                        s->append_to);
            ok = false;
        } else {
            tm_cta_req req;
            tm_occupancy occ;
            kernel_of[i] = kernel_of[s->append_to];
            ok = tm_gpu_launch_req(g, s->L, &req, &occ, error);
            if (ok)
                g->kernels[kernel_of[i]]->pending_appends++;
        }
    }
    if (ok)
        ok = tm_kmu_init(&g->kmu, subs, kernel_of, n, start, g->cfg.kernel.hw_queues, error);
    g_free(kernel_of);
    g->kmu_next = ok ? tm_kmu_next_cycle(&g->kmu) : TM_NEVER;
    return ok;
}

/* The concurrent-kernel series: each resident kernel's CTAs per SM, and
 * the DRAM traffic (timing/kernel_csv.h). */
static void sample_kernels(tm_gpu *g, tm_kcsv *kcsv, uint64_t now)
{
    for (uint32_t i = 0; i < g->nkernels; i++) {
        const tm_kernel *k = g->kernels[i];
        if (k->arrived && (!k->done || k->end == now))
            tm_kcsv_kernel(kcsv, now, k->id, k->L->kernel->name, k->resident);
    }
    memsys_extra_stats mx;
    memset(&mx, 0, sizeof mx);
    memsys_get_extra_stats(g->mem, &mx);
    tm_kcsv_dram(kcsv, now, mx.dram_bytes);
}

/* Every SM's visit of cycle `now`, then, in SM order, what the visits
 * left for the shared state: the memory system's SM side, the CTAs that
 * finished, the first fault.  The same whether the visits ran on one host
 * thread or several (timing/gpu_par.c). */
static void step_sms(tm_gpu *g, uint64_t now)
{
    memsys_batch(g->mem);
    uint32_t n = 0, *vis = g->visited; /* the SMs due, ascending */
    bool par = false;
    bool workers = false;
    if (g->par && tm_par_on(g->par)) {
        /* SMs go to their owners if the SMs due have only their own CTAs */
        bool shared = g->env.touch != NULL;
        for (uint32_t i = 0; i < g->nsms; i++)
            if (tm_sm_due(g->sms[i], now)) {
                vis[n++] = i;
                shared |= g->sms[i]->shared_ctas != 0;
                workers |= tm_par_owner(g->par, i) != 0;
            }
        par = !shared;
    }
    if (par) {
        tm_pol_ctl(&g->pol, now); /* the visits only read it */
        tm_par_visit(g->par, g->sms, g->nsms, now, workers);
    } else {
        n = 0;
        bool failed = false;
        for (uint32_t w = 0; w * 64 < g->nsms && !failed; w++)
            for (uint64_t bits = g->occupied[w]; bits; bits &= bits - 1) {
                uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
                tm_sm *sm = g->sms[i];
                if (!tm_sm_due(sm, now))
                    continue;
                vis[n++] = i;
                tm_sm_visit(sm, now);
                if ((failed = sm->failed))
                    break;
            }
    }
    if (g->par)
        tm_par_count(g->par, n);
    memsys_commit_sms(g->mem, vis, n);
    bool progressed = false, issued = false;
    for (uint32_t j = 0; j < n; j++) {
        tm_sm *sm = g->sms[vis[j]];
        progressed |= sm->progressed;
        sm->progressed = false;
        /* warp instructions issue only in visits */
        issued |= sm->c.warp_instrs != sm->instrs_seen;
        sm->instrs_seen = sm->c.warp_instrs;
        if (sm->nretired)
            tm_sm_retire(sm);
        if (sm->failed) {
            tm_sm_publish_fault(sm);
            g->env.failed = true;
            break;
        }
    }
    g->env.progress_epoch += progressed;
    /* nothing issued: every sum the check compares is what it was */
    if (issued && g->instr_limits && !g->env.failed)
        tm_gpu_check_instrs(g);
}

/* The earliest cycle after `now` at which anything can happen. */
static uint64_t next_event(tm_gpu *g)
{
    uint64_t next = memsys_next_cycle(g->mem);
    for (uint32_t w = 0; w * 64 < g->nsms; w++)
        for (uint64_t bits = g->occupied[w]; bits; bits &= bits - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
            const tm_sm *sm = g->sms[i];
            if (!sm->resident) /* empty until a launch sets the bit again */
                g->occupied[w] &= ~(1ull << (i & 63));
            else if (sm->next_wake < next)
                next = sm->next_wake;
        }
    if (g->kmu_next < next)
        next = g->kmu_next;
    if (tm_cdp_next_cycle(g) < next)
        next = tm_cdp_next_cycle(g);
    if (g->cta_retry_at < next)
        next = g->cta_retry_at;
    if (g->pol.next_tick < next)
        next = g->pol.next_tick;
    if (tm_sample_next(g) < next) /* a sampled kernel's projected end */
        next = tm_sample_next(g);
    return next;
}

bool tm_gpu_run(tm_gpu *g, ex_launch *const *launches, uint32_t n, GError **error)
{
    tm_submit *subs = g_new0(tm_submit, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        subs[i] = (tm_submit){.L = launches[i], .append_to = -1};
    bool ok = tm_gpu_run_at(g, subs, n, error);
    g_free(subs);
    return ok;
}

bool tm_gpu_run_at(tm_gpu *g, const tm_submit *subs, uint32_t n, GError **error)
{
    if (n == 0)
        return true;
    uint64_t start = g->now + 1;
    guint stats_first = g->stats.kernels->len;
    bool ok = run_setup(g, subs, n, start, error);
    tm_csv csv = {0};
    tm_kcsv kcsv = {0};
    bool csv_on = false;
    if (ok && g->opts.csv_dir && g->nkernels) {
        for (uint32_t i = 0; i < g->nsms; i++)
            tm_sm_flush(g->sms[i], start);
        tm_core_counters *base = g_new0(tm_core_counters, g->nsms);
        for (uint32_t i = 0; i < g->nsms; i++)
            base[i] = g->sms[i]->c;
        ok = csv_on = tm_csv_open(&csv, g->opts.csv_dir, g->kernels[0]->id,
                                  g->kernels[0]->L->kernel->name, g->nsms, base, start - 1,
                                  error);
        g_free(base);
        if (ok) {
            tm_mem_counters m;
            uint64_t *served = g_new0(uint64_t, g->nsms);
            snapshot_mem(g, &m, served, start - 1);
            g_free(served);
            ok = tm_kcsv_open(&kcsv, g->opts.csv_dir, g->kernels[0]->id, &g->cfg, start - 1,
                              m.dram_bytes, error);
            if (!ok)
                tm_csv_close(&csv, false, NULL);
            csv_on = ok;
        }
    }
    if (!ok) {
        run_free(g);
        return false;
    }
    uint32_t interval = g->opts.csv_interval;
    uint64_t next_sample = start - 1 + interval;
    uint32_t *resident = g_new0(uint32_t, g->nsms);
    tm_core_counters *snap = g_new0(tm_core_counters, g->nsms);
    uint64_t now = g->now;
    g->cta_dirty = true;
    g->cta_retry_at = TM_NEVER;
    ex_launch *L0 = g->nkernels ? g->kernels[0]->L : NULL;
    uint64_t max_cycles = L0 && L0->max_cycles ? L0->max_cycles : UINT64_MAX;
    /* limits.max_seconds and limits.progress_seconds: wall-clock time,
     * read every 4096 cycles (neither touches what is simulated) */
    uint32_t max_s = L0 ? L0->max_seconds : 0, progress_s = L0 ? L0->progress_seconds : 0;
    int64_t t0_us = g_get_monotonic_time(), next_report = t0_us + (int64_t)progress_s * G_USEC_PER_SEC;
    const uint64_t *touched = memsys_touched(g->mem);
    while (!tm_kmu_all_done(&g->kmu) && !g->env.failed) {
        now++;
        g->now = now; /* what %clock reads while instructions issue */
        if (g->cfg.sim.step_every_cycle) /* counters current at every cycle, too */
            for (uint32_t i = 0; i < g->nsms; i++)
                tm_sm_flush(g->sms[i], now);
        arrivals(g, now);
        tm_pol_tick(&g->pol, now);
        if (g->sampler) /* IPC windows; a stable kernel holds its CTAs */
            tm_sample_step(g, now);
        if (g->cta_dirty || now >= g->cta_retry_at)
            tm_gpu_schedule_ctas(g, now);
        step_sms(g, now);
        if (g->env.failed)
            break;
        if (G_UNLIKELY(now - start + 1 > max_cycles)) { /* limits.max_cycles */
            tm_limits_stop_cycles(g->sms, g->nsms, L0, max_cycles, now);
            g->env.failed = true;
            break;
        }
        if (G_UNLIKELY((max_s || progress_s) && (now & 4095) == 0)) {
            int64_t t_us = g_get_monotonic_time();
            if (max_s && t_us - t0_us > (int64_t)max_s * G_USEC_PER_SEC) {
                tm_limits_stop_seconds(g->sms, g->nsms, L0, max_s);
                g->env.failed = true;
                break;
            }
            if (progress_s && t_us >= next_report) {
                uint64_t instrs = 0;
                for (uint32_t i = 0; i < g->nsms; i++)
                    instrs += g->sms[i]->c.warp_instrs;
                fprintf(stderr, "ptxemu: kernel '%s': %.0f s, cycle %llu, %llu warp "
                                "instructions\n", L0->kernel->name,
                        (double)(t_us - t0_us) / G_USEC_PER_SEC,
                        (unsigned long long)(now - start + 1), (unsigned long long)instrs);
                next_report = t_us + (int64_t)progress_s * G_USEC_PER_SEC;
            }
        }
        /* stepping visits the memory system every cycle as well */
        if (g->cfg.sim.step_every_cycle || memsys_due(g->mem, now))
            memsys_cycle(g->mem, now);
        tm_cdp_progress(g, now); /* grids complete, tail launches go (gpu_cdp.c) */
        for (uint32_t i = 0; i < g->nkernels; i++) {
            tm_kernel *k = g->kernels[i];
            if (k->smp && !k->done && !tm_sample_settle(g, k, now))
                continue; /* held CTAs run functionally; the projected end */
            if (!k->arrived || k->done || k->finished != k->total || k->pending_appends)
                continue;
            if (tm_cdp_kernel_may_finish(g, k))
                kernel_done(g, i, now);
            else /* only its children left: it leaves the KDU */
                tm_kmu_release(&g->kmu, k->sub);
        }
        /* L1 changes (memory system, kernel ends) wake stuck SMs; only an
         * SM whose signature the memory system touched can have changed */
        for (uint32_t w = 0; w * 64 < g->nsms; w++)
            for (uint64_t bits = touched[w]; bits; bits &= bits - 1)
                tm_sm_check_stuck(g->sms[w * 64 + (uint32_t)__builtin_ctzll(bits)], now);
        memsys_touched_clear(g->mem);
        bool left = !tm_kmu_all_done(&g->kmu);
        if (csv_on && (now == next_sample || !left)) {
            for (uint32_t i = 0; i < g->nsms; i++) {
                tm_sm_flush(g->sms[i], now + 1);
                snap[i] = g->sms[i]->c;
                resident[i] = g->sms[i]->resident;
            }
            tm_csv_sample(&csv, now, snap, resident);
            sample_kernels(g, &kcsv, now);
            next_sample += interval;
        }
        if (!left || g->cta_dirty)
            continue;
        /* jump to the next cycle at which anything has something to do
         * (memsys_cycle may skip the cycles between) */
        uint64_t next = next_event(g);
        if (next == TM_NEVER) {
            tm_gpu_report_stall(g, now);
            break;
        }
        if (g->cfg.sim.step_every_cycle)
            continue;
        if (csv_on && next > next_sample)
            next = next_sample;
        if (next > now + 1)
            now = next - 1;
    }
    g->now = now;
    tm_cdp_footprints(g, stats_first); /* the TBs' shared_with_parent */
    if (csv_on && !tm_csv_close(&csv, !g->env.failed, g->env.failed ? NULL : error))
        ok = false;
    if (csv_on && !tm_kcsv_close(&kcsv, ok && !g->env.failed, ok ? error : NULL))
        ok = false;
    g_free(resident);
    g_free(snap);
    if (g->env.failed) {
        fail_run(g, error);
        ok = false;
    }
    run_free(g);
    /* the decoded functions may belong to modules unloaded after this run */
    g_hash_table_remove_all(g->env.funcs);
    return ok;
}
