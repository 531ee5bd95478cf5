/* timing/sample.c — sampled simulation (timing/sample.h, docs/sampling.md):
 * IPC windows, the stability test, holding and draining, the functional
 * rest, the projection and its error, and the reuse of an earlier launch's
 * stable rate. */
#include "timing/sample.h"
#include "runtime/launch.h"

#include <math.h>
#include <string.h>

enum { SMP_MEASURE, SMP_HOLD, SMP_PROJECT, SMP_FULL };

/* A stable rate measured by a launch, for later launches of the same
 * kernel and shape (sample.reuse). */
typedef struct smp_rate {
    double ipc, rel_sd, cycles_per_cta;
    uint32_t windows;
    uint32_t ctas;               /* CTAs the CTA rate was measured over */
    uint32_t launch;
} smp_rate;

struct tm_sampler {
    gpu_config cfg;
    GHashTable *rates;           /* key (kernel_key) -> smp_rate* */
    GHashTable *warned;          /* "kernel\nreason" already said on stderr */
    uint64_t next_at;            /* earliest window end of a measuring kernel */
    uint64_t proj_end;           /* end of the kernel waiting for it; TM_NEVER */
};

struct tm_sample_k {
    int state;
    const char *refused;
    const char *basis;           /* "instructions" or "ctas" */
    bool spins;                  /* the kernel has spin loops: basis ctas */
    bool stable;
    uint64_t boundary;           /* end (exclusive) of the window being counted */
    uint64_t win;                /* its length: sample.window, then at least the
                                    first wave's time / K (stable_now) */
    uint64_t last;               /* its warp instructions at the window's start */
    uint64_t base;               /* every SM's warp instructions at arrival */
    uint64_t *ring;              /* the last 2K windows' warp instructions */
    uint32_t nwin;               /* windows closed */
    uint64_t wave_at;            /* cycle the first wave had retired (0: not yet) */
    uint32_t wave_fin;           /* CTAs finished then */
    double ipc, rel_sd, cycles_per_cta;
    uint32_t windows;
    uint32_t rate_ctas;          /* CTAs cycles_per_cta was measured over */
    int64_t reused_from;
    uint64_t *freed;             /* cycles the CTAs in flight when it became
                                    stable finished (its slots' free times) */
    uint32_t slots, nfreed;      /* those CTAs, and how many have finished */
    uint32_t fin_at_hold;
    uint64_t drained_at;         /* cycle the detailed CTAs had all finished */
    uint32_t detailed_ctas;
    uint64_t detailed_instrs;
    uint64_t end;                /* projected last cycle */
    uint64_t error;
    tm_core_counters *snap;      /* per SM at drained_at (counters end there) */
    char *key;
};

tm_sampler *tm_sampler_create(const gpu_config *cfg)
{
    if (cfg->sample.mode != GPU_SAMPLE_ON)
        return NULL;
    tm_sampler *s = g_new0(tm_sampler, 1);
    s->cfg = *cfg;
    s->rates = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    s->warned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    s->next_at = TM_NEVER;
    s->proj_end = TM_NEVER;
    return s;
}

void tm_sampler_destroy(tm_sampler *s)
{
    if (!s)
        return;
    g_hash_table_destroy(s->rates);
    g_hash_table_destroy(s->warned);
    g_free(s);
}

void tm_sample_kernel_free(tm_sample_k *s)
{
    if (!s)
        return;
    g_free(s->ring);
    g_free(s->freed);
    g_free(s->snap);
    g_free(s->key);
    g_free(s);
}

/* ------------------------------------------------------------- refusals */

/* The first chosen policy that says its effect cannot be projected. */
static const char *policy_refusal(const tm_gpu *g)
{
    const sched_selection *sel = &g->pol.sel;
    const sched_hooks *h[6 + SCHED_MAX_FILTERS];
    unsigned n = 0;
    h[n++] = &sel->kernel->h;
    h[n++] = &sel->cta->h;
    for (unsigned f = 0; f < sel->nfilters; f++)
        h[n++] = &sel->filters[f]->h;
    h[n++] = &sel->warp->h;
    h[n++] = &sel->backoff->h;
    h[n++] = &sel->fetch->h;
    h[n++] = &sel->l1->h;
    for (unsigned i = 0; i < n; i++)
        if (h[i]->sample_refuse)
            return h[i]->sample_refuse;
    return NULL;
}

static const char *launch_refusal(const tm_gpu *g, const tm_kernel *k)
{
    if (k->L->cooperative)
        return "a cooperative launch: its CTAs wait for each other at grid-wide barriers";
    if (k->L->origin || g->cdp.lines) /* lines: kept while a module can launch */
        return "dynamic parallelism: device launches overlap the launch that made them";
    if (k->pending_appends || k->segs->len > 1)
        return "TB groups are appended to it while it runs";
    if (g->opts.csv_dir)
        return "CSV time series (--trace-csv) need every cycle simulated";
    return NULL;
}

/* Another kernel resident now, or one that may arrive before k ends (a
 * submission not waiting, directly or not, for k's). */
static const char *concurrency_refusal(const tm_gpu *g, const tm_kernel *k)
{
    for (uint32_t i = 0; i < g->nkernels; i++)
        if (g->kernels[i] != k && g->kernels[i]->arrived && !g->kernels[i]->done)
            return "another kernel is resident (concurrent kernels run in full)";
    const tm_kmu *q = &g->kmu;
    uint8_t *after = g_new0(uint8_t, q->n ? q->n : 1); /* waits for k */
    GArray *frontier = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_array_append_val(frontier, k->sub);
    after[k->sub] = 1;
    while (frontier->len) {
        uint32_t i = g_array_index(frontier, uint32_t, frontier->len - 1);
        g_array_set_size(frontier, frontier->len - 1);
        for (uint32_t e = q->succ_first[i]; e < q->succ_first[i + 1]; e++)
            if (!after[q->succ[e]]) {
                after[q->succ[e]] = 1;
                g_array_append_val(frontier, q->succ[e]);
            }
    }
    g_array_free(frontier, TRUE);
    const char *why = NULL;
    for (uint32_t i = 0; i < q->n && !why; i++) {
        const tm_kmu_sub *u = &q->subs[i];
        if (u->s.L && !u->arrived && !after[i])
            why = "another kernel may arrive while it runs (concurrent streams run in full)";
    }
    g_free(after);
    return why;
}

static void warn_once(tm_gpu *g, const tm_kernel *k, const char *why)
{
    char *key = g_strdup_printf("%s\n%s", k->L->kernel->name, why);
    if (g_hash_table_contains(g->sampler->warned, key)) {
        g_free(key);
        return;
    }
    g_hash_table_add(g->sampler->warned, key);
    fprintf(stderr, "ptxemu: warning: sampling: kernel '%s' runs in full: %s\n",
            k->L->kernel->name, why);
}

static void refuse(tm_gpu *g, tm_kernel *k, const char *why)
{
    k->smp->refused = why;
    k->smp->state = SMP_FULL;
    warn_once(g, k, why);
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u sampling refused: %s\n",
                (unsigned long long)g->now, k->id, why);
}

/* -------------------------------------------------------------- arrival */

static bool has_spin_loop(const ex_func *f)
{
    for (uint32_t i = 0; f->annot && i < f->ninstrs; i++)
        if (f->annot[i].spin_loop)
            return true;
    return false;
}

static uint64_t gpu_instrs(const tm_gpu *g)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < g->nsms; i++)
        n += g->sms[i]->c.warp_instrs;
    return n;
}

void tm_sample_begin(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    if (!g->sampler)
        return;
    const gpu_config *c = &g->sampler->cfg;
    tm_sample_k *s = g_new0(tm_sample_k, 1);
    k->smp = s;
    s->reused_from = -1;
    s->end = TM_NEVER;
    s->spins = has_spin_loop(k->L->kernel);
    s->basis = s->spins ? "ctas" : "instructions";
    s->ring = g_new0(uint64_t, 2 * (size_t)c->sample.windows);
    s->base = s->last = gpu_instrs(g);
    s->win = c->sample.window;
    s->boundary = now + s->win;
    const ex_launch *L = k->L;
    s->key = g_strdup_printf("%s/%u/%u,%u,%u/%u,%u,%u/%u", L->kernel->name,
                             L->kernel->ninstrs, L->grid[0], L->grid[1], L->grid[2],
                             L->block[0], L->block[1], L->block[2], L->dyn_shared);
    const char *why = policy_refusal(g);
    if (!why)
        why = launch_refusal(g, k);
    if (why) {
        refuse(g, k, why);
        return;
    }
    if (s->boundary < g->sampler->next_at)
        g->sampler->next_at = s->boundary;
}

/* ------------------------------------------------------------ stability */

/* Every SM that received k's CTAs has retired one wave of them. */
static bool first_wave_done(const tm_gpu *g, const tm_kernel *k)
{
    for (uint32_t i = 0; i < g->nsms; i++) {
        if (!k->issued_on[i])
            continue;
        uint32_t wave = k->occ.ctas_per_sm;
        if (g->sms[i]->cta_limit != SCHED_NO_LIMIT && g->sms[i]->cta_limit < wave)
            wave = g->sms[i]->cta_limit ? g->sms[i]->cta_limit : 1;
        if (k->finished_on[i] < wave)
            return false;
    }
    return true;
}

/* Student's t, two-sided 95%, for df degrees of freedom. */
static double t95(uint32_t df)
{
    static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                               2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                               2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                               2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    return df >= 1 && df <= G_N_ELEMENTS(t) ? t[df - 1] : 1.96;
}

/* IPC of the window `back` windows before the last (0: the last). */
static double window_ipc(const tm_sample_k *s, uint32_t K, uint32_t back, double W)
{
    return (double)s->ring[(s->nwin - 1 - back) % (2 * K)] / W;
}

/* Mean and relative standard deviation of the last n windows' IPC; true
 * when each is within epsilon of their mean, or of `ref` when it is > 0 (a
 * reused rate), and that centre is not 0. */
static bool flat(const tm_sample_k *s, uint32_t K, uint32_t n, double W, double eps,
                 double ref, double *mean, double *rel_sd)
{
    double sum = 0, sq = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += window_ipc(s, K, i, W);
    double mu = sum / n;
    double centre = ref > 0 ? ref : mu;
    bool ok = centre > 0;
    for (uint32_t i = 0; i < n; i++) {
        double x = window_ipc(s, K, i, W);
        sq += (x - mu) * (x - mu);
        ok &= fabs(x - centre) <= eps * centre;
    }
    *mean = mu;
    *rel_sd = mu > 0 && n > 1 ? sqrt(sq / (n - 1)) / mu : 0;
    return ok;
}

static void hold(tm_gpu *g, tm_kernel *k, uint64_t at)
{
    tm_sample_k *s = k->smp;
    s->state = SMP_HOLD;
    s->stable = true;
    k->sample_hold = true;
    s->slots = k->issued - k->finished;
    s->fin_at_hold = k->finished;
    s->freed = g_new(uint64_t, s->slots ? s->slots : 1);
    if (s->reused_from < 0 && s->spins) {
        s->rate_ctas = k->finished - s->wave_fin; /* > 0: stable_now */
        s->cycles_per_cta = (double)(at - s->wave_at) / (double)s->rate_ctas;
    }
    if (s->reused_from < 0 && g->sampler->cfg.sample.reuse) {
        smp_rate *r = g_new(smp_rate, 1);
        *r = (smp_rate){s->ipc, s->rel_sd, s->cycles_per_cta, s->windows, s->rate_ctas, k->id};
        g_hash_table_replace(g->sampler->rates, g_strdup(s->key), r);
    }
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u stable at IPC %.3f (%u of %u CTAs "
                               "placed): holding the rest\n",
                (unsigned long long)at, k->id, s->ipc, k->issued, k->total);
}

/* A window of kernel k ended at `at`: is k stable now? */
static bool stable_now(tm_gpu *g, tm_kernel *k, uint64_t at)
{
    tm_sample_k *s = k->smp;
    const gpu_config *c = &g->sampler->cfg;
    if (!s->wave_at) {
        if (!first_wave_done(g, k))
            return false;
        s->wave_at = at;
        s->wave_fin = k->finished;
        /* K windows must span a CTA's lifetime (about the first wave's
         * time), or the phases CTAs go through in step (load a tile,
         * compute on it) pass for stable or unstable: measure afresh */
        uint64_t wave = (at - k->arrival + c->sample.windows - 1) / c->sample.windows;
        if (wave > s->win) {
            s->win = wave;
            s->nwin = 0;
            s->boundary = at + wave;
            return false;
        }
    }
    if ((double)k->issued < c->sample.min_fraction * k->total)
        return false;
    uint32_t K = c->sample.windows;
    double W = (double)s->win, mu, rsd;
    const smp_rate *r = c->sample.reuse ? g_hash_table_lookup(g->sampler->rates, s->key) : NULL;
    uint32_t n = s->nwin < K ? s->nwin : K;
    if (r && n >= 2 && flat(s, K, n, W, c->sample.threshold, r->ipc, &mu, &rsd)) {
        s->ipc = r->ipc; /* the earlier launch's rate, over more windows */
        s->rel_sd = r->rel_sd;
        s->windows = r->windows;
        s->cycles_per_cta = r->cycles_per_cta;
        s->rate_ctas = r->ctas;
        s->reused_from = r->launch;
        return true;
    }
    if (s->nwin < 2 * K || !flat(s, K, K, W, c->sample.threshold, 0, &mu, &rsd))
        return false;
    /* no trend: the K windows before had the same mean (IPC that still
     * climbs as CTAs fall out of step, gemm, passes the flat test) */
    double before = 0;
    for (uint32_t i = K; i < 2 * K; i++)
        before += window_ipc(s, K, i, W) / K;
    if (fabs(before - mu) > c->sample.threshold * mu)
        return false;
    /* a CTA rate needs CTAs finished after the first wave */
    if (s->spins && k->finished == s->wave_fin)
        return false;
    s->ipc = mu;
    s->rel_sd = rsd;
    s->windows = K;
    return true;
}

/* Windows of twice the length: the last 2K become K, in order, so the
 * measurement goes on where it was. */
static void merge_windows(tm_sample_k *s, uint32_t K, uint64_t at)
{
    uint64_t *w = g_new(uint64_t, 2 * (size_t)K);
    for (uint32_t j = 0; j < 2 * K; j++) /* oldest first */
        w[j] = s->ring[(s->nwin - 2 * K + j) % (2 * K)];
    for (uint32_t i = 0; i < K; i++)
        s->ring[i] = w[2 * i] + w[2 * i + 1];
    g_free(w);
    s->nwin = K;
    s->win *= 2;
    s->boundary = at + s->win;
}

static void close_windows(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    tm_sample_k *s = k->smp;
    const gpu_config *c = &g->sampler->cfg;
    uint64_t count = gpu_instrs(g); /* nothing issued in the cycles skipped */
    while (s->state == SMP_MEASURE && now >= s->boundary) {
        s->ring[s->nwin % (2 * c->sample.windows)] = count - s->last;
        s->nwin++;
        s->last = count;
        uint64_t at = s->boundary;
        s->boundary += s->win;
        if (k->issued == k->total) { /* nothing left to hold: it runs in full */
            s->state = SMP_FULL;
            break;
        }
        if (!stable_now(g, k, at)) {
            /* noisy (memory-bound) IPC: after 2K windows without a verdict
             * the windows double, up to 64 x sample.window */
            if (s->wave_at && s->nwin >= 2 * c->sample.windows &&
                s->win < 64ull * c->sample.window)
                merge_windows(s, c->sample.windows, at);
            continue;
        }
        const char *why = concurrency_refusal(g, k);
        if (why)
            refuse(g, k, why);
        else
            hold(g, k, at);
    }
}

void tm_sample_step(tm_gpu *g, uint64_t now)
{
    tm_sampler *sp = g->sampler;
    if (now < sp->next_at)
        return;
    sp->next_at = TM_NEVER;
    for (uint32_t i = 0; i < g->nkernels; i++) {
        tm_kernel *k = g->kernels[i];
        if (!k->smp || k->smp->state != SMP_MEASURE || k->done)
            continue;
        close_windows(g, k, now);
        if (k->smp->state == SMP_MEASURE && k->smp->boundary < sp->next_at)
            sp->next_at = k->smp->boundary;
    }
}

/* ------------------------------------------------------ the functional rest */

/* When `n` CTAs of `per_cta` cycles each end if every one starts on the
 * slot that frees first (the full run's CTA scheduler refills a slot as
 * soon as its CTA finishes); slot i frees at freed[i] (ascending).  CTAs
 * that run in step make the last wave a whole CTA lifetime even when it is
 * partly empty, which remaining work / IPC alone would miss. */
static uint64_t replay_end(const uint64_t *freed, uint32_t slots, uint32_t n, double per_cta)
{
    if (!slots)
        return 0;
    double *t = g_new(double, slots); /* a min-heap of the slots' free times */
    for (uint32_t i = 0; i < slots; i++)
        t[i] = (double)freed[i]; /* ascending: already a heap */
    for (uint32_t c = 0; c < n; c++) {
        double v = t[0] + per_cta;
        uint32_t i = 0;
        for (;;) { /* sift the root down */
            uint32_t l = 2 * i + 1, m = i;
            if (l < slots && t[l] < v)
                m = l;
            if (l + 1 < slots && t[l + 1] < (m == i ? v : t[l]))
                m = l + 1;
            if (m == i)
                break;
            t[i] = t[m];
            i = m;
        }
        t[i] = v;
    }
    double end = 0;
    for (uint32_t i = 0; i < slots; i++)
        end = t[i] > end ? t[i] : end;
    g_free(t);
    return (uint64_t)llround(end);
}

/* The held CTAs run functionally at `now`; the projected end follows. */
static void run_rest(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    tm_sample_k *s = k->smp;
    s->drained_at = now;
    s->detailed_ctas = k->issued;
    s->detailed_instrs = k->L->warp_instrs;
    s->snap = g_new(tm_core_counters, g->nsms);
    for (uint32_t i = 0; i < g->nsms; i++) {
        tm_sm_flush(g->sms[i], now + 1);
        s->snap[i] = g->sms[i]->c;
    }
    uint32_t n = 0, *ids = g_new(uint32_t, k->total - k->issued);
    for (uint32_t c = 0; c < k->total; c++)
        if (!k->placed[c]) {
            ids[n++] = c;
            k->placed[c] = 1;
        }
    if (g->opts.trace)
        fprintf(g->opts.trace, "cycle %llu: kernel %u drained; %u CTAs run functionally\n",
                (unsigned long long)now, k->id, n);
    if (!ex_launch_run_ctas(k->L, ids, n))
        g->env.failed = true; /* the launch's error is the run's (fail_run) */
    g_free(ids);
    k->issued += n;
    k->finished += n;
    for (uint32_t i = 0; i < n && k->L->driver_grid != TM_NO_GRID; i++)
        tm_cdp_cta_done(g, k->L->driver_grid); /* its grid completes with them */
    k->next = k->total;
    k->sample_hold = false;
    /* the held CTAs' cycles at the stable rate: GPU-wide, and per CTA on
     * one of the slots (CTAs in flight when it became stable) */
    double rate_cycles, rel;
    if (s->spins) { /* held CTAs x cycles per CTA since the first wave */
        rate_cycles = n * s->cycles_per_cta;
        rel = 1.96 / sqrt((double)(s->rate_ctas ? s->rate_ctas : 1));
    } else { /* their warp instructions at the stable IPC */
        rate_cycles = (double)(k->L->warp_instrs - s->detailed_instrs) / s->ipc;
        rel = t95(s->windows - 1) * s->rel_sd / sqrt((double)s->windows);
    }
    double proj = rate_cycles; /* nothing was in flight: the plain rate */
    if (s->slots && n) {
        double per_cta = s->slots * rate_cycles / n;
        proj = (double)replay_end(s->freed, s->slots, n, per_cta) - (double)now;
    }
    uint64_t cycles = proj > 0 ? (uint64_t)llround(proj) : 0;
    s->end = now + cycles;
    s->error = (uint64_t)llround(rel * (double)cycles);
    s->state = SMP_PROJECT;
    g->sampler->proj_end = s->end;
}

bool tm_sample_settle(tm_gpu *g, tm_kernel *k, uint64_t now)
{
    tm_sample_k *s = k->smp;
    while (s->state == SMP_HOLD && s->nfreed < k->finished - s->fin_at_hold &&
           s->nfreed < s->slots)
        s->freed[s->nfreed++] = now; /* a slot the full run would refill now */
    if (s->state == SMP_HOLD && k->finished == k->issued && !g->env.failed)
        run_rest(g, k, now);
    if (s->state != SMP_PROJECT)
        return true;
    if (now < s->end)
        return false;
    g->sampler->proj_end = TM_NEVER;
    return true;
}

uint64_t tm_sample_next(const tm_gpu *g)
{
    return g->sampler ? g->sampler->proj_end : TM_NEVER;
}

void tm_sample_finish(tm_gpu *g, tm_kernel *k, tm_kernel_stats *ks)
{
    tm_sample_k *s = k->smp;
    if (!s)
        return;
    tm_sample_stat *o = g_new0(tm_sample_stat, 1);
    ks->sample = o;
    o->refused = s->refused;
    o->stable = s->stable;
    o->reused_from = s->reused_from;
    o->basis = s->basis;
    o->window = (uint32_t)s->win;
    o->windows = s->windows;
    if (s->state != SMP_PROJECT)
        return;
    o->sampled = true;
    o->detailed_cycles = s->drained_at - k->arrival + 1;
    o->projected_cycles = s->end - s->drained_at;
    o->detailed_ctas = s->detailed_ctas;
    o->detailed_instrs = s->detailed_instrs;
    o->stable_ipc = s->ipc;
    o->ipc_rel_sd = s->rel_sd;
    o->error_cycles = s->error;
    /* the SMs sat idle while the clock ran to the projected end: their
     * counters stop where the detailed part did */
    memset(&ks->total, 0, sizeof ks->total);
    for (uint32_t i = 0; i < g->nsms; i++) {
        ks->cores[i] = s->snap[i];
        tm_core_counters_sub(&ks->cores[i], &k->base[i]);
        ks->cores[i].ctas_issued = k->issued_on[i];
        ks->cores[i].ctas_finished = k->finished_on[i];
        tm_core_counters_add(&ks->total, &ks->cores[i]);
    }
}
