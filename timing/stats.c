/* timing/stats.c — counter arithmetic and the JSON writer (timing/stats.h;
 * the per-core CSV time series are timing/core_csv.c).  Numbers are
 * written with g_ascii_* so the bytes do not depend on the locale. */
#include "timing/stats.h"
#include "timing/power.h"

#include <string.h>

/* ------------------------------------------------------------ arithmetic */

#define SCHED_FIELDS(X)                                                      \
    X(slots) X(issued) X(idle_no_warp) X(idle_scoreboard) X(idle_pipeline)   \
    X(sb_alu) X(sb_mem) X(pipe_alu) X(pipe_mem) X(instructions)
#define CORE_FIELDS(X)                                                       \
    X(cycles) X(idle_cycles) X(gated_cycles) X(paused_cycles) X(ctas_issued) X(ctas_finished) X(warp_instrs)  \
    X(thread_instrs) X(alu_instrs) X(mem_instrs) X(alu_load) X(mem_load)     \
    X(shared_accesses) X(shared_conflicts) X(mem_refusals) X(sfu_instrs) X(dp_instrs) \
    X(cta_cycles) X(lock_acquisitions) X(lock_failed_attempts) X(spin_loop_instrs) \
    X(l1i_hits) X(l1i_misses) \
    X(spin_backoffs) X(spin_backoff_cycles) X(spin_warps_backed_off) X(spin_pcs) X(spin_releases)
#define MEM_FIELDS(X)                                                        \
    X(l1_hits) X(l1_misses) X(l1_mshr_merges) X(l1_reservation_fails)        \
    X(l2_hits) X(l2_misses) X(l2_mshr_merges) X(noc_read_requests)           \
    X(noc_write_requests) X(dram_reads) X(dram_writes) X(dram_row_hits)      \
    X(dram_row_misses) X(transactions) X(warp_accesses)                      \
    X(redundant_requests) X(icc_merges) X(icc_cache_hits) X(latency_sum)     \
    X(latency_count) X(latency_overlapped_sum) X(l1_port_stalls)             \
    X(l1_accesses) X(const_hits) X(const_misses) X(l2_accesses) X(noc_flits) \
    X(dram_activates) X(dram_bytes) X(dram_same_sm) X(l1_bypasses)         \
    X(l1_acquire_drops) X(tex_hits) X(tex_misses) NOC_FIELDS(X)
#define NOC_FIELDS(X)                                                        \
    X(noc_req_flits) X(noc_req_packets) X(noc_req_inj_wait)                  \
    X(noc_req_ej_wait) X(noc_req_ejected) X(noc_rep_flits)                   \
    X(noc_rep_packets) X(noc_rep_inj_wait) X(noc_rep_ej_wait)                \
    X(noc_rep_ejected)
/* Kept as they are by a kernel's difference, combined by max. */
#define MAX_FIELDS(X)                                                        \
    X(noc_req_inj_wait_max) X(noc_req_ej_wait_max) X(noc_rep_inj_wait_max)   \
    X(noc_rep_ej_wait_max) X(noc_cluster_ports) X(noc_mem_ports)
#define MEMSYS_FIELDS(X)                                                     \
    X(l1_hits) X(l1_misses) X(l1_mshr_merges) X(l1_reservation_fails)        \
    X(l2_hits) X(l2_misses) X(l2_mshr_merges) X(noc_read_requests)           \
    X(noc_write_requests) X(dram_reads) X(dram_writes) X(dram_row_hits)      \
    X(dram_row_misses) X(transactions) X(warp_accesses)                      \
    X(redundant_requests) X(icc_merges) X(icc_cache_hits) X(latency_sum)     \
    X(latency_count) X(latency_overlapped_sum)
#define EXTRA_FIELDS(X)                                                      \
    X(l1_port_stalls) X(l1_accesses) X(const_hits) X(const_misses)           \
    X(l2_accesses) X(noc_flits) X(dram_activates) X(dram_bytes) X(dram_same_sm) \
    X(l1_bypasses) X(l1_acquire_drops) X(tex_hits) X(tex_misses)             \
    NOC_FIELDS(X) MAX_FIELDS(X)

void tm_core_counters_add(tm_core_counters *d, const tm_core_counters *s)
{
#define X(f) d->sched.f += s->sched.f;
    SCHED_FIELDS(X)
#undef X
#define X(f) d->f += s->f;
    CORE_FIELDS(X)
#undef X
    for (unsigned i = 0; i < SCHED_WS_COUNT; i++)
        d->warp_state[i] += s->warp_state[i];
}

void tm_core_counters_sub(tm_core_counters *d, const tm_core_counters *s)
{
#define X(f) d->sched.f -= s->sched.f;
    SCHED_FIELDS(X)
#undef X
#define X(f) d->f -= s->f;
    CORE_FIELDS(X)
#undef X
    for (unsigned i = 0; i < SCHED_WS_COUNT; i++)
        d->warp_state[i] -= s->warp_state[i];
}

void tm_mem_counters_from(tm_mem_counters *d, const memsys_stats *s,
                          const memsys_extra_stats *e)
{
#define X(f) d->f = s->f;
    MEMSYS_FIELDS(X)
#undef X
#define X(f) d->f = e->f;
    EXTRA_FIELDS(X)
#undef X
}

void tm_mem_counters_sub(tm_mem_counters *d, const tm_mem_counters *s)
{
#define X(f) d->f -= s->f;
    MEM_FIELDS(X)
#undef X
}

void tm_mem_counters_add(tm_mem_counters *d, const tm_mem_counters *s)
{
#define X(f) d->f += s->f;
    MEM_FIELDS(X)
#undef X
#define X(f) d->f = d->f > s->f ? d->f : s->f;
    MAX_FIELDS(X)
#undef X
}

double tm_ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

/* ---------------------------------------------------------------- records */

void tm_stats_init(tm_stats *s)
{
    s->kernels = g_ptr_array_new_with_free_func((GDestroyNotify)tm_kernel_stats_free);
}

void tm_stats_clear(tm_stats *s)
{
    if (s->kernels)
        g_ptr_array_free(s->kernels, TRUE);
    s->kernels = NULL;
}

tm_kernel_stats *tm_kernel_stats_new(uint32_t ncores)
{
    tm_kernel_stats *k = g_new0(tm_kernel_stats, 1);
    k->ncores = ncores;
    k->cores = g_new0(tm_core_counters, ncores ? ncores : 1);
    k->served_per_sm = g_new0(uint64_t, ncores ? ncores : 1);
    k->cta_limit = g_new0(uint32_t, ncores ? ncores : 1);
    k->off_end = g_new0(uint8_t, ncores ? ncores : 1);
    for (uint32_t i = 0; i < ncores; i++)
        k->cta_limit[i] = SCHED_NO_LIMIT;
    return k;
}

void tm_kernel_stats_free(tm_kernel_stats *k)
{
    if (!k)
        return;
    g_free(k->name);
    g_free(k->cores);
    g_free(k->served_per_sm);
    g_free(k->cta_limit);
    g_free(k->off_end);
    g_free(k->sample);
    if (k->tbs)
        g_array_free(k->tbs, TRUE);
    g_free(k);
}

static int cmp_start(const void *a, const void *b)
{
    const tm_kernel_stats *x = *(const tm_kernel_stats *const *)a;
    const tm_kernel_stats *y = *(const tm_kernel_stats *const *)b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Cycles in which some kernel ran: concurrent kernels count once. */
static uint64_t busy_cycles(const tm_stats *s)
{
    guint n = s->kernels ? s->kernels->len : 0;
    if (!n)
        return 0;
    const tm_kernel_stats **ks = g_new(const tm_kernel_stats *, n);
    memcpy(ks, s->kernels->pdata, n * sizeof *ks);
    qsort(ks, n, sizeof *ks, cmp_start);
    uint64_t total = 0, lo = ks[0]->start, hi = ks[0]->end;
    for (guint i = 1; i < n; i++) {
        if (ks[i]->start > hi) {
            total += hi - lo + 1;
            lo = ks[i]->start;
            hi = ks[i]->end;
        } else if (ks[i]->end > hi) {
            hi = ks[i]->end;
        }
    }
    total += hi - lo + 1;
    g_free(ks);
    return total;
}

void tm_stats_totals(const tm_stats *s, tm_run_totals *out)
{
    memset(out, 0, sizeof *out);
    out->cycles = busy_cycles(s);
    for (guint i = 0; s->kernels && i < s->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(s->kernels, i);
        out->warp_instrs += k->warp_instrs;
        out->thread_instrs += k->thread_instrs;
        tm_core_counters_add(&out->core, &k->total);
        tm_mem_counters_add(&out->mem, &k->mem);
    }
}

/* ------------------------------------------------------------------ JSON */

typedef struct jw {
    GString *out;
    unsigned depth;
    bool first;           /* no member written yet at this level */
} jw;

static void jw_indent(jw *j)
{
    g_string_append_c(j->out, '\n');
    for (unsigned i = 0; i < j->depth; i++)
        g_string_append(j->out, "  ");
}

static void jw_key(jw *j, const char *key)
{
    if (!j->first)
        g_string_append_c(j->out, ',');
    j->first = false;
    jw_indent(j);
    if (key)
        g_string_append_printf(j->out, "\"%s\": ", key);
}

static void jw_open(jw *j, const char *key, char brace)
{
    jw_key(j, key);
    g_string_append_c(j->out, brace);
    j->depth++;
    j->first = true;
}

static void jw_close(jw *j, char brace)
{
    j->depth--;
    if (!j->first)
        jw_indent(j);
    g_string_append_c(j->out, brace);
    j->first = false;
}

static void jw_u64(jw *j, const char *key, uint64_t v)
{
    jw_key(j, key);
    g_string_append_printf(j->out, "%" G_GUINT64_FORMAT, v);
}

static void jw_dbl(jw *j, const char *key, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    jw_key(j, key);
    g_string_append(j->out, g_ascii_formatd(buf, sizeof buf, "%.6f", v));
}

/* Physical quantities of any magnitude (energies of microjoules). */
static void jw_sci(jw *j, const char *key, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    jw_key(j, key);
    g_string_append(j->out, g_ascii_formatd(buf, sizeof buf, "%.9g", v));
}

static void jw_str(jw *j, const char *key, const char *v)
{
    jw_key(j, key);
    g_string_append_c(j->out, '"');
    for (const char *p = v ? v : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            g_string_append_printf(j->out, "\\%c", c);
        else if (c < 0x20)
            g_string_append_printf(j->out, "\\u%04x", c);
        else
            g_string_append_c(j->out, (char)c);
    }
    g_string_append_c(j->out, '"');
}

static void jw_bool(jw *j, const char *key, bool v)
{
    jw_key(j, key);
    g_string_append(j->out, v ? "true" : "false");
}

/* A launch under sample.mode = on (docs/sampling.md): what ran in detail,
 * what was projected and how far to trust it. */
static void write_sample(jw *j, const tm_sample_stat *s, uint64_t cycles, uint32_t ctas,
                         uint64_t instrs)
{
    jw_open(j, "sample", '{');
    jw_bool(j, "sampled", s->sampled);
    jw_bool(j, "cycles_projected", s->sampled);
    if (s->refused)
        jw_str(j, "refused", s->refused);
    jw_bool(j, "stable", s->stable);
    if (s->sampled) {
        if (s->reused_from >= 0)
            jw_u64(j, "reused_from_launch", (uint64_t)s->reused_from);
        jw_str(j, "projection", s->basis);
        jw_u64(j, "detailed_cycles", s->detailed_cycles);
        jw_u64(j, "projected_cycles", s->projected_cycles);
        jw_u64(j, "cycles", cycles);
        jw_u64(j, "detailed_ctas", s->detailed_ctas);
        jw_dbl(j, "detailed_cta_fraction", tm_ratio(s->detailed_ctas, ctas));
        jw_u64(j, "detailed_warp_instructions", s->detailed_instrs);
        jw_dbl(j, "detailed_instruction_fraction", tm_ratio(s->detailed_instrs, instrs));
        jw_dbl(j, "stable_ipc", s->stable_ipc);
        jw_dbl(j, "window_ipc_rel_sd", s->ipc_rel_sd);
        jw_u64(j, "window_cycles", s->window);
        jw_u64(j, "windows", s->windows);
        jw_u64(j, "error_cycles_95", s->error_cycles);
        jw_dbl(j, "error_pct_95", 100.0 * tm_ratio(s->error_cycles, cycles));
    }
    jw_close(j, '}');
}

/* The run's sampling totals, when any launch had sample.mode = on. */
static void write_sample_totals(jw *j, const tm_stats *st, uint64_t cycles)
{
    uint64_t n = 0, sampled = 0, refused = 0, det = 0, proj = 0, err = 0;
    for (guint i = 0; st->kernels && i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        if (!k->sample)
            continue;
        n++;
        sampled += k->sample->sampled;
        refused += k->sample->refused != NULL;
        det += k->sample->sampled ? k->sample->detailed_cycles : tm_kernel_cycles(k);
        proj += k->sample->projected_cycles;
        err += k->sample->error_cycles;
    }
    if (!n)
        return;
    jw_open(j, "sample", '{');
    jw_bool(j, "cycles_projected", sampled > 0);
    jw_u64(j, "kernels_sampled", sampled);
    jw_u64(j, "kernels_refused", refused);
    jw_u64(j, "kernels_full", n - sampled);
    jw_u64(j, "detailed_cycles", det);
    jw_u64(j, "projected_cycles", proj);
    /* the kernels' 95% half-widths added: no independence assumed */
    jw_u64(j, "error_cycles_95", err);
    jw_dbl(j, "error_pct_95", 100.0 * tm_ratio(err, cycles));
    jw_close(j, '}');
}

static void jw_dims(jw *j, const char *key, const uint32_t d[3])
{
    jw_key(j, key);
    g_string_append_printf(j->out, "[%u, %u, %u]", d[0], d[1], d[2]);
}

static void write_sched(jw *j, const tm_sched_counters *c)
{
    jw_open(j, "schedulers", '{');
    jw_u64(j, "issue_slots", c->slots);
    jw_u64(j, "issued", c->issued);
    jw_u64(j, "idle_no_warp", c->idle_no_warp);
    jw_u64(j, "idle_scoreboard", c->idle_scoreboard);
    jw_u64(j, "idle_pipeline", c->idle_pipeline);
    jw_open(j, "scoreboard_stalls", '{');
    jw_u64(j, "alu", c->sb_alu);
    jw_u64(j, "mem", c->sb_mem);
    jw_close(j, '}');
    jw_open(j, "pipeline_stalls", '{');
    jw_u64(j, "alu", c->pipe_alu);
    jw_u64(j, "mem", c->pipe_mem);
    jw_close(j, '}');
    jw_dbl(j, "idle_fraction", tm_ratio(c->slots - c->issued, c->slots));
    jw_close(j, '}');
}

/* The counters every kernel record and the totals share. */
static void write_core(jw *j, const tm_core_counters *c, uint64_t cycles, uint32_t nsms)
{
    write_sched(j, &c->sched);
    jw_open(j, "warp_states", '{');
    for (unsigned s = 1; s < SCHED_WS_COUNT; s++)
        jw_u64(j, sched_warp_state_names[s], c->warp_state[s]);
    jw_close(j, '}');
    uint64_t sm_cycles = cycles * nsms;
    jw_open(j, "load", '{');
    jw_u64(j, "alu_instructions", c->alu_instrs);
    jw_u64(j, "mem_instructions", c->mem_instrs);
    jw_dbl(j, "alu_avg", tm_ratio(c->alu_load, sm_cycles));
    jw_dbl(j, "mem_avg", tm_ratio(c->mem_load, sm_cycles));
    jw_close(j, '}');
    jw_open(j, "shared_memory", '{');
    jw_u64(j, "accesses", c->shared_accesses);
    jw_u64(j, "bank_conflict_passes", c->shared_conflicts);
    jw_close(j, '}');
    jw_u64(j, "core_idle_cycles", c->idle_cycles);
    jw_u64(j, "core_gated_cycles", c->gated_cycles);
    jw_u64(j, "core_paused_cycles", c->paused_cycles);
    jw_u64(j, "ctas_issued", c->ctas_issued);
    jw_u64(j, "ctas_finished", c->ctas_finished);
    jw_u64(j, "cta_cycles", c->cta_cycles);
    /* spin seed: lock attempts are atom.cas lanes (swapped = acquired);
     * spin loops are the loops of the front end's setp-spin candidates */
    jw_open(j, "spin", '{');
    jw_u64(j, "lock_acquisitions", c->lock_acquisitions);
    jw_u64(j, "lock_failed_attempts", c->lock_failed_attempts);
    jw_u64(j, "spin_loop_instructions", c->spin_loop_instrs);
    jw_dbl(j, "spin_loop_issue_fraction", tm_ratio(c->spin_loop_instrs, c->warp_instrs));
    jw_dbl(j, "spin_loop_slot_fraction", tm_ratio(c->spin_loop_instrs, c->sched.slots));
    /* the backoff level's decisions, whatever the policy (timing/sm_issue.c) */
    jw_u64(j, "backoffs", c->spin_backoffs);
    jw_u64(j, "backoff_cycles", c->spin_backoff_cycles);
    jw_u64(j, "warps_backed_off", c->spin_warps_backed_off);
    jw_u64(j, "spin_pcs_detected", c->spin_pcs);
    jw_u64(j, "releases", c->spin_releases);
    jw_close(j, '}');
}

/* Only with l1i.enabled, so the files of configs without one stay as they were. */
static void write_l1i(jw *j, const gpu_config *cfg, const tm_core_counters *c)
{
    if (!cfg->l1i.enabled)
        return;
    jw_open(j, "instruction_cache", '{');
    jw_u64(j, "hits", c->l1i_hits);
    jw_u64(j, "misses", c->l1i_misses);
    jw_dbl(j, "hit_rate", tm_ratio(c->l1i_hits, c->l1i_hits + c->l1i_misses));
    jw_close(j, '}');
}

static void write_mem(jw *j, const tm_mem_counters *m, uint64_t refusals)
{
    jw_open(j, "memory", '{');
    jw_u64(j, "l1_hits", m->l1_hits);
    jw_u64(j, "l1_misses", m->l1_misses);
    jw_dbl(j, "l1_hit_rate", tm_ratio(m->l1_hits, m->l1_hits + m->l1_misses));
    jw_u64(j, "l1_mshr_merges", m->l1_mshr_merges);
    jw_u64(j, "l1_reservation_fails", m->l1_reservation_fails);
    jw_u64(j, "l2_hits", m->l2_hits);
    jw_u64(j, "l2_misses", m->l2_misses);
    jw_dbl(j, "l2_hit_rate", tm_ratio(m->l2_hits, m->l2_hits + m->l2_misses));
    jw_u64(j, "l2_mshr_merges", m->l2_mshr_merges);
    jw_u64(j, "noc_read_requests", m->noc_read_requests);
    jw_u64(j, "noc_write_requests", m->noc_write_requests);
    jw_u64(j, "dram_reads", m->dram_reads);
    jw_u64(j, "dram_writes", m->dram_writes);
    jw_u64(j, "dram_row_hits", m->dram_row_hits);
    jw_u64(j, "dram_row_misses", m->dram_row_misses);
    jw_dbl(j, "dram_row_hit_rate",
           tm_ratio(m->dram_row_hits, m->dram_row_hits + m->dram_row_misses));
    jw_u64(j, "transactions", m->transactions);
    jw_u64(j, "warp_accesses", m->warp_accesses);
    jw_u64(j, "redundant_requests", m->redundant_requests);
    jw_u64(j, "icc_merges", m->icc_merges);
    jw_u64(j, "icc_cache_hits", m->icc_cache_hits);
    /* the ICC seed's ratios (§6.2 coverage; Fig. 3/8 locality: the share of
     * a cluster's outgoing reads whose line it requested in the window) */
    jw_dbl(j, "icc_coverage", tm_ratio(m->icc_merges, m->l1_misses));
    jw_dbl(j, "cluster_locality",
           tm_ratio(m->redundant_requests,
                    m->noc_read_requests + m->icc_merges + m->icc_cache_hits));
    jw_dbl(j, "amat", tm_ratio(m->latency_sum, m->latency_count));
    jw_u64(j, "loads_timed", m->latency_count);
    jw_u64(j, "load_overlapped_cycles", m->latency_overlapped_sum);
    jw_u64(j, "issue_refusals", refusals);
    jw_u64(j, "l1_port_stalls", m->l1_port_stalls);
    jw_u64(j, "l1_accesses", m->l1_accesses);
    jw_u64(j, "const_hits", m->const_hits);
    jw_u64(j, "const_misses", m->const_misses);
    jw_u64(j, "tex_hits", m->tex_hits);
    jw_u64(j, "tex_misses", m->tex_misses);
    jw_u64(j, "l2_accesses", m->l2_accesses);
    jw_u64(j, "noc_flits", m->noc_flits);
    jw_u64(j, "dram_activates", m->dram_activates);
    jw_u64(j, "dram_bytes", m->dram_bytes);
    jw_u64(j, "dram_same_sm", m->dram_same_sm);
    jw_u64(j, "l1_bypasses", m->l1_bypasses);
    jw_u64(j, "l1_acquire_drops", m->l1_acquire_drops);
    jw_close(j, '}');
}

/* One crossbar direction: utilisation of its input and output ports
 * (flits / (NoC cycles x ports), a flit holding one of each for a cycle)
 * and the queueing of its packets (noc.h). */
static void write_noc_dir(jw *j, const char *name, uint64_t flits, uint64_t packets,
                          uint64_t inj_wait, uint64_t inj_max, uint64_t ej_wait,
                          uint64_t ejected, uint64_t ej_max, uint64_t nin, uint64_t nout,
                          double noc_cycles)
{
    jw_open(j, name, '{');
    jw_u64(j, "flits", flits);
    jw_u64(j, "packets", packets);
    jw_u64(j, "in_ports", nin);
    jw_u64(j, "out_ports", nout);
    jw_dbl(j, "in_utilisation", noc_cycles > 0 && nin ? (double)flits / (noc_cycles * (double)nin) : 0);
    jw_dbl(j, "out_utilisation", noc_cycles > 0 && nout ? (double)flits / (noc_cycles * (double)nout) : 0);
    jw_dbl(j, "injection_wait_mean", tm_ratio(inj_wait, packets));
    jw_u64(j, "injection_wait_max_run", inj_max);
    jw_dbl(j, "ejection_wait_mean", tm_ratio(ej_wait, ejected));
    jw_u64(j, "ejection_wait_max_run", ej_max);
    jw_close(j, '}');
}

static void write_noc(jw *j, const gpu_config *cfg, const tm_mem_counters *m, uint64_t cycles)
{
    double noc_cycles = (double)cycles * cfg->clock.icnt / cfg->clock.core;
    jw_open(j, "noc", '{');
    jw_dbl(j, "noc_cycles", noc_cycles);
    write_noc_dir(j, "request", m->noc_req_flits, m->noc_req_packets, m->noc_req_inj_wait,
                  m->noc_req_inj_wait_max, m->noc_req_ej_wait, m->noc_req_ejected,
                  m->noc_req_ej_wait_max, m->noc_cluster_ports, m->noc_mem_ports, noc_cycles);
    write_noc_dir(j, "reply", m->noc_rep_flits, m->noc_rep_packets, m->noc_rep_inj_wait,
                  m->noc_rep_inj_wait_max, m->noc_rep_ej_wait, m->noc_rep_ejected,
                  m->noc_rep_ej_wait_max, m->noc_mem_ports, m->noc_cluster_ports, noc_cycles);
    jw_close(j, '}');
}

static void write_energy(jw *j, const gpu_config *cfg, const tm_kernel_stats *k)
{
    tm_energy e;
    tm_kernel_energy(cfg, k, &e);
    jw_open(j, "energy", '{');
    if (k->sample && k->sample->sampled) /* projected like the cycles (timing/power.c) */
        jw_bool(j, "projected", true);
    jw_sci(j, "seconds", e.seconds);
    jw_sci(j, "energy_j", e.total_j);
    jw_sci(j, "static_j", e.static_j);
    jw_sci(j, "static_core_j", e.static_core_j);
    jw_sci(j, "static_uncore_j", e.static_uncore_j);
    jw_sci(j, "dynamic_j", e.dynamic_j);
    jw_sci(j, "alu_j", e.alu_j);
    jw_sci(j, "sfu_j", e.sfu_j);
    jw_sci(j, "dp_j", e.dp_j);
    jw_sci(j, "mem_inst_j", e.mem_inst_j);
    jw_sci(j, "l1_j", e.l1_j);
    jw_sci(j, "shared_j", e.shared_j);
    jw_sci(j, "const_j", e.const_j);
    jw_sci(j, "l2_j", e.l2_j);
    jw_sci(j, "noc_j", e.noc_j);
    jw_sci(j, "dram_j", e.dram_j);
    jw_sci(j, "icc_j", e.icc_j);
    jw_sci(j, "avg_power_w", e.avg_power_w);
    jw_sci(j, "edp_js", e.edp_js);
    jw_close(j, '}');
}

static void write_kernel(jw *j, const gpu_config *cfg, const tm_kernel_stats *k)
{
    uint64_t cycles = tm_kernel_cycles(k);
    jw_open(j, NULL, '{');
    jw_u64(j, "launch", k->launch);
    jw_str(j, "name", k->name);
    jw_dims(j, "grid", k->grid);
    jw_dims(j, "block", k->block);
    jw_u64(j, "ctas", k->ctas);
    jw_open(j, "occupancy", '{');
    jw_u64(j, "regs_per_thread", k->occ.regs_per_thread);
    jw_u64(j, "shared_per_cta", k->occ.shared_per_cta);
    jw_u64(j, "threads_per_cta", k->occ.threads_per_cta);
    jw_u64(j, "ctas_per_sm", k->occ.ctas_per_sm);
    jw_str(j, "limited_by", k->occ.limited_by);
    jw_close(j, '}');
    jw_u64(j, "start_cycle", k->start);
    jw_u64(j, "end_cycle", k->end);
    jw_u64(j, "cycles", cycles);
    jw_u64(j, "warp_instructions", k->warp_instrs);
    jw_u64(j, "thread_instructions", k->thread_instrs);
    jw_dbl(j, "ipc", tm_ratio(k->warp_instrs, cycles));
    if (k->sample)
        write_sample(j, k->sample, cycles, k->ctas, k->warp_instrs);
    write_core(j, &k->total, cycles, k->ncores);
    write_l1i(j, cfg, &k->total);
    write_mem(j, &k->mem, k->total.mem_refusals);
    write_noc(j, cfg, &k->mem, cycles);
    write_energy(j, cfg, k);
    if (k->tbs) { /* dynamic parallelism: each TB's SM and origin */
        jw_open(j, "tbs", '[');
        for (guint i = 0; i < k->tbs->len; i++) {
            const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, i);
            jw_open(j, NULL, '{');
            jw_u64(j, "cta", t->cta);
            jw_u64(j, "sm", t->sm);
            jw_u64(j, "issue_cycle", t->issue_cycle);
            jw_u64(j, "depth", t->depth);
            if (t->depth) {
                jw_u64(j, "parent_kernel", t->parent_kernel);
                jw_u64(j, "parent_cta", t->parent_cta);
                jw_u64(j, "parent_sm", t->parent_sm);
                jw_u64(j, "launch_cycle", t->launch_cycle);
                if (t->shared_with_parent >= 0)
                    jw_dbl(j, "shared_with_parent", t->shared_with_parent);
                if (t->shared_with_siblings >= 0)
                    jw_dbl(j, "shared_with_siblings", t->shared_with_siblings);
                if (t->reads) {
                    jw_u64(j, "reads", t->reads);
                    jw_u64(j, "reads_cold", t->reads_cold);
                    jw_u64(j, "reads_within_l1", t->reads_l1);
                    jw_u64(j, "reads_within_l2", t->reads_l2);
                }
            }
            if (t->children_shared >= 0)
                jw_dbl(j, "children_shared", t->children_shared);
            if (t->shared_with_grid >= 0)
                jw_dbl(j, "shared_with_grid", t->shared_with_grid);
            jw_close(j, '}');
        }
        jw_close(j, ']');
    }
    jw_open(j, "cores", '[');
    for (uint32_t i = 0; i < k->ncores; i++) {
        const tm_core_counters *c = &k->cores[i];
        jw_open(j, NULL, '{');
        jw_u64(j, "sm", i);
        jw_u64(j, "idle_cycles", c->idle_cycles);
        jw_u64(j, "gated_cycles", c->gated_cycles);
        jw_u64(j, "paused_cycles", c->paused_cycles);
        jw_u64(j, "ctas_issued", c->ctas_issued);
        jw_u64(j, "ctas_finished", c->ctas_finished);
        jw_u64(j, "cta_cycles", c->cta_cycles);
        if (k->cta_limit[i] != SCHED_NO_LIMIT) /* Perf-Sat's detected N, ... */
            jw_u64(j, "cta_limit", k->cta_limit[i]);
        if (k->off_end[i]) /* ... ONAC's and Seq-Det's cores switched off */
            jw_u64(j, "off_at_end", 1);
        jw_u64(j, "warp_instructions", c->warp_instrs);
        jw_u64(j, "issue_slots", c->sched.slots);
        jw_u64(j, "issued", c->sched.issued);
        jw_u64(j, "idle_no_warp", c->sched.idle_no_warp);
        jw_u64(j, "scoreboard_alu", c->sched.sb_alu);
        jw_u64(j, "scoreboard_mem", c->sched.sb_mem);
        jw_u64(j, "pipeline_alu", c->sched.pipe_alu);
        jw_u64(j, "pipeline_mem", c->sched.pipe_mem);
        jw_open(j, "warp_states", '{'); /* thesis §5.3, per SM */
        for (unsigned s = 1; s < SCHED_WS_COUNT; s++)
            jw_u64(j, sched_warp_state_names[s], c->warp_state[s]);
        jw_close(j, '}');
        jw_u64(j, "memory_served", k->served_per_sm[i]);
        jw_close(j, '}');
    }
    jw_close(j, ']');
    jw_close(j, '}');
}

static void write_names(jw *j, const char *key, const gpu_name_list *l,
                        const char *const *names)
{
    jw_key(j, key);
    g_string_append_c(j->out, '[');
    for (unsigned i = 0; i < l->count; i++)
        g_string_append_printf(j->out, "%s\"%s\"", i ? ", " : "",
                               gpu_config_choice_name(names, l->items[i]));
    g_string_append_c(j->out, ']');
}

void tm_stats_write_json(const tm_stats *s, const gpu_config *cfg, GString *out)
{
    jw j = {out, 0, true};
    g_string_append_c(out, '{');
    j.depth = 1;
    jw_str(&j, "schema", "ptxemu-timing-stats/1");
    jw_open(&j, "gpu", '{');
    jw_str(&j, "name", cfg->gpu.name);
    jw_u64(&j, "num_sms", cfg->gpu.num_sms);
    jw_u64(&j, "warp_schedulers", cfg->core.warp_schedulers);
    jw_u64(&j, "issue_width", cfg->core.issue_width);
    jw_u64(&j, "dispatch_interval", cfg->core.dispatch_interval);
    jw_u64(&j, "core_clock_mhz", cfg->clock.core);
    jw_close(&j, '}');
    jw_open(&j, "policies", '{');
    jw_str(&j, "warp", gpu_config_choice_name(sched_names_warp, cfg->warp.policy));
    jw_str(&j, "spin", gpu_config_choice_name(sched_names_backoff, cfg->spin.policy));
    jw_str(&j, "cta", gpu_config_choice_name(sched_names_cta, cfg->cta.policy));
    write_names(&j, "cta_filters", &cfg->cta.filters, sched_names_filter);
    jw_str(&j, "kernel", gpu_config_choice_name(sched_names_kernel, cfg->kernel.policy));
    jw_str(&j, "fetch", gpu_config_choice_name(sched_names_fetch, cfg->fetch.policy));
    jw_str(&j, "l1", gpu_config_choice_name(sched_names_l1, cfg->l1d.policy));
    jw_close(&j, '}');
    jw_open(&j, "kernels", '[');
    for (guint i = 0; s->kernels && i < s->kernels->len; i++)
        write_kernel(&j, cfg, g_ptr_array_index(s->kernels, i));
    jw_close(&j, ']');
    tm_run_totals t;
    tm_stats_totals(s, &t);
    jw_open(&j, "total", '{');
    jw_u64(&j, "kernels", s->kernels ? s->kernels->len : 0);
    jw_u64(&j, "cycles", t.cycles);
    jw_u64(&j, "warp_instructions", t.warp_instrs);
    jw_u64(&j, "thread_instructions", t.thread_instrs);
    jw_dbl(&j, "ipc", tm_ratio(t.warp_instrs, t.cycles));
    write_sample_totals(&j, s, t.cycles);
    write_core(&j, &t.core, t.cycles, cfg->gpu.num_sms);
    write_l1i(&j, cfg, &t.core);
    write_mem(&j, &t.mem, t.core.mem_refusals);
    /* the run's energy: the sum over its kernels (time: their cycles) */
    double ej = 0, es = 0, secs = 0, enoc = 0, el2 = 0, edram = 0;
    for (guint i = 0; s->kernels && i < s->kernels->len; i++) {
        tm_energy e;
        tm_kernel_energy(cfg, g_ptr_array_index(s->kernels, i), &e);
        ej += e.total_j;
        es += e.static_j;
        secs += e.seconds;
        enoc += e.noc_j;
        el2 += e.l2_j;
        edram += e.dram_j;
    }
    jw_open(&j, "energy", '{');
    jw_sci(&j, "seconds", secs);
    jw_sci(&j, "energy_j", ej);
    jw_sci(&j, "static_j", es);
    jw_sci(&j, "dynamic_j", ej - es);
    jw_sci(&j, "noc_j", enoc);
    jw_sci(&j, "l2_j", el2);
    jw_sci(&j, "dram_j", edram);
    jw_dbl(&j, "noc_share", ej > 0 ? enoc / ej : 0); /* ICC seed §8: NoC share of energy */
    jw_sci(&j, "avg_power_w", secs > 0 ? ej / secs : 0);
    jw_sci(&j, "edp_js", ej * secs);
    jw_close(&j, '}');
    jw_close(&j, '}');
    g_string_append(out, "\n}\n");
}

void tm_stats_print_sample(const tm_stats *s, FILE *out)
{
    uint64_t n = 0, sampled = 0, det = 0, proj = 0, err = 0;
    for (guint i = 0; s->kernels && i < s->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(s->kernels, i);
        if (!k->sample)
            continue;
        n++;
        sampled += k->sample->sampled;
        det += k->sample->sampled ? k->sample->detailed_cycles : tm_kernel_cycles(k);
        proj += k->sample->projected_cycles;
        err += k->sample->error_cycles;
    }
    if (n)
        fprintf(out, "  sampled: %llu of %llu kernels projected; cycles = %llu detailed + %llu "
                     "projected (+-%llu, 95%%)\n", (unsigned long long)sampled,
                (unsigned long long)n, (unsigned long long)det, (unsigned long long)proj,
                (unsigned long long)err);
}
