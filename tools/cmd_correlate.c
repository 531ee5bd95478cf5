/* tools/cmd_correlate.c — `ptxemu correlate REF.csv`: runs every benchmark
 * a reference file lists (each (benchmark, size) once, under the timing
 * model), joins ptxemu's per-launch statistics with the reference's rows
 * and reports, per launch and per metric, both values, the error, Pearson
 * r, MAPE and the geometric-mean ratio, for all launches and for each half
 * of them (calibration / test).  The format and the metric mapping are in
 * docs/correlate.md. */
#include "api/api_internal.h"
#include "benchmarks/harness.h"
#include "timing/config.h"
#include "timing/stats.h"
#include "tools/commands.h"
#include "tools/correlate.h"
#include "tools/correlate_stats.h"

#include <math.h>
#include <string.h>

#define CORR_MAX_RUN 100000000000ull /* as `bench`: the benchmarks finish */

typedef struct corr_run {
    const char *config;
    const char *const *sets;
    uint64_t seed;
    uint32_t jobs;
    double ptx_mhz, ref_mhz;     /* core clocks; ref_mhz 0: no conversion */
    double ptx_dram_bytes, ref_dram_bytes; /* DRAM request sizes; ref 0: as counted */
} corr_run;

static int cmp_launch(const void *a, const void *b)
{
    const tm_kernel_stats *x = *(const tm_kernel_stats *const *)a;
    const tm_kernel_stats *y = *(const tm_kernel_stats *const *)b;
    return x->launch < y->launch ? -1 : x->launch > y->launch;
}

static void fill_ptx(corr_row *r, const tm_kernel_stats *k, double scale, double dram_scale)
{
    double cycles = (double)tm_kernel_cycles(k) * scale;
    const tm_mem_counters *m = &k->mem;
    r->ptx[CM_CYCLES] = cycles;
    r->ptx[CM_WARP_INSTRUCTIONS] = (double)k->warp_instrs;
    r->ptx[CM_INSTRUCTIONS] = (double)k->thread_instrs;
    r->ptx[CM_IPC] = cycles > 0 ? (double)k->thread_instrs / cycles : 0;
    r->ptx[CM_L1_HIT] = tm_ratio(m->l1_hits, m->l1_hits + m->l1_misses);
    r->ptx[CM_L2_HIT] = tm_ratio(m->l2_hits, m->l2_hits + m->l2_misses);
    r->ptx[CM_DRAM_READS] = (double)m->dram_reads * dram_scale;
    r->ptx[CM_DRAM_WRITES] = (double)m->dram_writes * dram_scale;
    for (int i = 0; i < CM_COUNT; i++)
        r->has_ptx[i] = corr_metrics[i].ptxemu != NULL;
    /* a hit rate without a single access is not a rate: leave it out */
    r->has_ptx[CM_L1_HIT] = m->l1_hits + m->l1_misses > 0;
    r->has_ptx[CM_L2_HIT] = m->l2_hits + m->l2_misses > 0;
}

/* Runs one (benchmark, size) and fills the rows that name it (rows[0..n)
 * share both); launch and kernel mismatches go to `errors`.  0, or the
 * exit status after a message. */
static int run_one(const corr_run *cr, const corr_ref *ref, corr_row **rows, unsigned n,
                   GPtrArray *errors)
{
    const bench_def *b = rows[0]->bench;
    const char *size = corr_size_name(rows[0]->size);
    ptxemu_options opts = {0};
    opts.timing = 1;
    opts.timing_config = cr->config;
    opts.timing_set = cr->sets;
    opts.host_threads = cr->jobs;
    opts.max_warp_instructions = CORR_MAX_RUN;
    opts.max_cycles = CORR_MAX_RUN;
    ptxemu_ctx *ctx;
    char msg[512];
    double t0 = bench_now();
    bench_outcome o = bench_run_ctx(b, rows[0]->size, cr->seed, &opts, &ctx, msg);
    if (o != BENCH_PASS) {
        fprintf(stderr, "ptxemu correlate: %s (%s): %s: %s\n", b->name, size,
                o == BENCH_FAIL ? "FAIL" : "ERROR", msg);
        ptxemu_ctx_destroy(ctx);
        return 1;
    }
    const tm_stats *st = ptxemu_timing_stats(ctx);
    unsigned nk = st->kernels->len;
    /* the records come in finishing order; the launch ids give launch order */
    const tm_kernel_stats **ks = g_new(const tm_kernel_stats *, nk ? nk : 1);
    for (unsigned i = 0; i < nk; i++)
        ks[i] = g_ptr_array_index(st->kernels, i);
    qsort(ks, nk, sizeof *ks, cmp_launch);
    double scale = cr->ref_mhz > 0 ? cr->ref_mhz / cr->ptx_mhz : 1;
    double dram_scale = cr->ref_dram_bytes > 0 ? cr->ptx_dram_bytes / cr->ref_dram_bytes : 1;
    for (unsigned i = 0; i < n; i++) {
        corr_row *r = rows[i];
        if (r->launch >= nk) {
            char range[32] = "";
            if (nk)
                snprintf(range, sizeof range, " (0..%u)", nk - 1);
            g_ptr_array_add(errors, g_strdup_printf(
                "%s:%u: %s (%s) has no launch %u: ptxemu ran %u launch%s%s", ref->path, r->line,
                b->name, size, r->launch, nk, nk == 1 ? "" : "es", range));
        } else if (strcmp(ks[r->launch]->name, r->kernel)) {
            g_ptr_array_add(errors, g_strdup_printf(
                "%s:%u: %s (%s) launch %u is kernel '%s' in ptxemu, the reference says '%s'",
                ref->path, r->line, b->name, size, r->launch, ks[r->launch]->name, r->kernel));
        } else {
            fill_ptx(r, ks[r->launch], scale, dram_scale);
        }
    }
    fprintf(stderr, "correlate: %s %s: %u launch%s run, %u in the reference, %.1f s\n", b->name,
            size, nk, nk == 1 ? "" : "es", n, bench_now() - t0);
    g_free(ks);
    ptxemu_ctx_destroy(ctx);
    return 0;
}

/* The config's name and core clock, and a check that config and
 * overrides are valid before any benchmark runs. */
static bool probe_config(corr_run *cr, char **name)
{
    ptxemu_options opts = {0};
    opts.timing = 1;
    opts.timing_config = cr->config;
    opts.timing_set = cr->sets;
    ptxemu_ctx *ctx;
    bool ok = ptxemu_ctx_create(&ctx, &opts) == PTXEMU_OK;
    if (!ok) {
        fprintf(stderr, "ptxemu correlate: %s\n", ptxemu_last_error(ctx));
    } else {
        const gpu_config *cfg = ptxemu_timing_config(ctx);
        cr->ptx_mhz = cfg->clock.core;
        cr->ptx_dram_bytes = cfg->l2.line; /* a DRAM request fills or writes back an L2 line */
        *name = g_strdup(cfg->gpu.name);
    }
    ptxemu_ctx_destroy(ctx);
    return ok;
}

/* --metric LIST, or every metric the reference has a column for. */
static bool choose_metrics(const char *list, const corr_ref *ref, int *metrics, unsigned *nm)
{
    *nm = 0;
    if (!list) {
        for (int m = 0; m < CM_COUNT; m++)
            if (ref->column[m])
                metrics[(*nm)++] = m;
        return true;
    }
    char **names = g_strsplit(list, ",", -1);
    bool ok = true;
    for (unsigned i = 0; names[i] && ok; i++) {
        char *name = g_strstrip(names[i]);
        int m = corr_metric_find(name);
        if (m < 0) {
            GString *all = g_string_new(NULL);
            for (int k = 0; k < CM_COUNT; k++)
                g_string_append_printf(all, "%s%s", k ? ", " : "", corr_metrics[k].name);
            fprintf(stderr, "ptxemu correlate: --metric: no metric '%s' (%s)\n", name, all->str);
            g_string_free(all, TRUE);
            ok = false;
        } else if (!ref->column[m]) {
            fprintf(stderr, "ptxemu correlate: --metric %s: %s has no '%s' column\n", name,
                    ref->path, name);
            ok = false;
        } else {
            bool dup = false;
            for (unsigned j = 0; j < *nm; j++)
                dup |= metrics[j] == m;
            if (!dup)
                metrics[(*nm)++] = m;
        }
    }
    g_strfreev(names);
    return ok;
}

/* What was run and how the figures were made comparable. */
static void print_header(const corr_ref *ref, const corr_run *cr, const char *gpu,
                         unsigned nrows, const int *metrics, unsigned nm)
{
    const char *who = corr_ref_meta(ref, "reference");
    printf("reference: %s (%s), %u launch%s\n", ref->path, who ? who : "source not given",
           nrows, nrows == 1 ? "" : "es");
    printf("ptxemu: config %s (%s), core clock %g MHz, seed %llu\n", cr->config, gpu,
           cr->ptx_mhz, (unsigned long long)cr->seed);
    for (unsigned i = 0; cr->sets && cr->sets[i]; i++)
        printf("ptxemu: --set %s\n", cr->sets[i]);
    if (cr->ref_mhz > 0 && cr->ref_mhz != cr->ptx_mhz)
        printf("clock: the reference's core clock is %g MHz, ptxemu's %g MHz: ptxemu's cycles "
               "are converted to the reference's clock (x %g/%g) and its IPC likewise "
               "(x %g/%g), so both measure the same time\n", cr->ref_mhz, cr->ptx_mhz,
               cr->ref_mhz, cr->ptx_mhz, cr->ptx_mhz, cr->ref_mhz);
    else if (cr->ref_mhz > 0)
        printf("clock: the reference's core clock is ptxemu's (%g MHz)\n", cr->ref_mhz);
    else
        printf("clock: the reference gives no '# core_clock_mhz:'; cycles are compared as "
               "counted\n");
    if (cr->ref_dram_bytes > 0 && cr->ref_dram_bytes != cr->ptx_dram_bytes)
        printf("dram: the reference counts requests of %g bytes, ptxemu of %g (its L2 line): "
               "ptxemu's DRAM reads and writes are converted to the reference's unit (x %g/%g), "
               "so both measure the same traffic\n", cr->ref_dram_bytes, cr->ptx_dram_bytes,
               cr->ptx_dram_bytes, cr->ref_dram_bytes);
    for (unsigned j = 0; j < nm; j++) {
        const corr_metric_info *mi = &corr_metrics[metrics[j]];
        if (mi->ptxemu)
            printf("metric %s: ptxemu's %s\n", mi->name, mi->ptxemu);
        else
            printf("metric %s: %s\n", mi->name, mi->none);
    }
}

static int correlate(const char *path, corr_run *cr, const char *metric_list, int half,
                     const char *plot_dir, const char *csv_path)
{
    GPtrArray *errors = g_ptr_array_new_with_free_func(g_free);
    corr_ref *ref = corr_ref_read(path, errors);
    int metrics[CM_COUNT];
    unsigned nm = 0;
    char *gpu = NULL;
    int rc = 2;
    if (!ref)
        goto out;
    if (!choose_metrics(metric_list, ref, metrics, &nm) || !probe_config(cr, &gpu))
        goto out;
    cr->ref_mhz = ref->core_mhz;
    cr->ref_dram_bytes = ref->dram_bytes;
    unsigned n = ref->rows->len;
    corr_key *keys = g_new(corr_key, n);
    unsigned *order = g_new(unsigned, n);
    corr_row **rows = g_new(corr_row *, n);
    for (unsigned i = 0; i < n; i++) {
        const corr_row *r = &g_array_index(ref->rows, corr_row, i);
        keys[i] = (corr_key){r->bench_index, (uint32_t)r->size, r->launch};
    }
    unsigned split = corr_order(keys, n, order);
    for (unsigned i = 0; i < n; i++) {
        rows[i] = &g_array_index(ref->rows, corr_row, order[i]);
        rows[i]->half = i < split ? 1 : 2;
    }
    rc = 0;
    /* rows of one (benchmark, size) are adjacent in this order: one run each */
    for (unsigned i = 0, j; i < n && rc == 0; i = j) {
        for (j = i + 1; j < n && rows[j]->bench == rows[i]->bench && rows[j]->size == rows[i]->size;)
            j++;
        rc = run_one(cr, ref, rows + i, j - i, errors);
    }
    if (rc == 0 && errors->len == 0) {
        print_header(ref, cr, gpu, n, metrics, nm);
        if (split > 0 && split < n && rows[split - 1]->bench == rows[split]->bench &&
            rows[split - 1]->size == rows[split]->size)
            printf("halves: %s %s has launches in both halves (the split is at launch %u)\n",
                   rows[split]->bench->name, corr_size_name(rows[split]->size),
                   rows[split]->launch);
        /* the compared metrics: those ptxemu has a counterpart for */
        int cmp[CM_COUNT];
        unsigned nc = 0;
        for (unsigned j = 0; j < nm; j++)
            if (corr_metrics[metrics[j]].ptxemu)
                cmp[nc++] = metrics[j];
        const corr_row *const *all = (const corr_row *const *)rows;
        const corr_row *const *sel = half == 2 ? all + split : all;
        unsigned nsel = half == 0 ? n : half == 1 ? split : n - split;
        printf("\nper launch (ref: the reference; ptx: ptxemu; err: (ptx - ref) / ref; half: "
               "1 = first, 2 = second):\n");
        corr_print_launches(stdout, sel, nsel, cmp, nc);
        if (half == 0)
            corr_print_summary(stdout, "all", all, n, cmp, nc);
        if (half != 2)
            corr_print_summary(stdout, "first half", all, split, cmp, nc);
        if (half != 1)
            corr_print_summary(stdout, "second half", all + split, n - split, cmp, nc);
        fflush(stdout);
        GError *err = NULL;
        if (csv_path && !corr_write_csv(csv_path, sel, nsel, metrics, nm, &err)) {
            fprintf(stderr, "ptxemu correlate: %s\n", err->message);
            g_error_free(err);
            rc = 1;
        }
        if (plot_dir && rc == 0) {
            char *label = g_strdup_printf("%s", cr->config);
            rc = corr_plot(plot_dir, ref, label, sel, nsel, cmp, nc);
            g_free(label);
        }
    } else if (rc == 0) {
        rc = 2;
    }
    g_free(keys);
    g_free(order);
    g_free(rows);
out:
    for (guint i = 0; i < errors->len; i++)
        fprintf(stderr, "%s\n", (const char *)g_ptr_array_index(errors, i));
    g_ptr_array_free(errors, TRUE);
    corr_ref_free(ref);
    g_free(gpu);
    return rc;
}

static bool have_gnuplot(void)
{
    char *p = g_find_program_in_path("gnuplot");
    g_free(p);
    return p != NULL;
}

int cmd_correlate(int argc, char **argv)
{
    gchar *config = NULL, *metric = NULL, *half_s = NULL, *plot = NULL, *csv = NULL;
    gchar **sets = NULL;
    gint64 seed = 1, jobs = 0;
    GOptionEntry entries[] = {
        {"config", 0, 0, G_OPTION_ARG_STRING, &config,
         "GPU preset or INI file (default gtx480)", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "override one config key (repeatable)",
         "GROUP.KEY=VALUE"},
        {"metric", 0, 0, G_OPTION_ARG_STRING, &metric,
         "metrics to compare, comma-separated column names (default: every metric column of "
         "REF.csv)", "LIST"},
        {"half", 0, 0, G_OPTION_ARG_STRING, &half_s,
         "first, second or all (default): the launches shown (the summary of all and of "
         "both halves, or of one half)", "first|second|all"},
        {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv,
         "write the joined table (reference and ptxemu values per launch)", "FILE"},
        {"plot", 0, 0, G_OPTION_ARG_FILENAME, &plot,
         "write METRIC.svg per metric (gnuplot): ptxemu against the reference", "DIR"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "input generator seed (default 1)", "N"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT64, &jobs,
         "host threads for the SMs of each cycle (sim.host_threads; same statistics)", "N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("REF.csv");
    g_option_context_set_summary(
        oc, "Compare ptxemu's per-launch statistics with a reference (GPGPU-Sim, silicon).\n\n"
            "REF.csv: '#' lines (free text; '# key: value' is metadata, '# reference: ...' "
            "names the source,\n'# core_clock_mhz: F' its core clock, '# dram_request_bytes: B' its DRAM request size), then the header "
            "benchmark,size,launch,kernel,METRIC...\nand one row per kernel launch: a "
            "benchmark of 'ptxemu bench list', tiny|small|paper, the launch's\n0-based index "
            "in the benchmark's run, the PTX entry name, then the figures (an empty field: "
            "not\nmeasured).  Metrics: cycles, warp_instructions, instructions (per thread), "
            "ipc (thread instructions\nper cycle), l1_hit, l2_hit (rates in [0,1]), "
            "dram_reads, dram_writes, icnt_stalls; other\ncolumns are ignored.  The halves: "
            "the launches ordered by the benchmark's registry position,\nsize and launch, "
            "split at the\nbenchmark boundary nearest ceil(N/2).  docs/correlate.md has the details.");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    int half = 0;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu correlate: %s\n", err->message);
        g_error_free(err);
    } else if (argc != 2) {
        fprintf(stderr, "usage: ptxemu correlate REF.csv [--config C] [--metric LIST] "
                        "[--half first|second|all] [--csv FILE] [--plot DIR] [--set K=V]...\n");
    } else if (half_s && strcmp(half_s, "all") && strcmp(half_s, "first") &&
               strcmp(half_s, "second")) {
        fprintf(stderr, "ptxemu correlate: --half must be first, second or all, not '%s'\n",
                half_s);
    } else if (jobs < 0 || jobs > 256) {
        fprintf(stderr, "ptxemu correlate: -j/--jobs must be between 1 and 256\n");
    } else if (plot && !have_gnuplot()) {
        /* said before the runs, not after minutes of them; 3 as `ptxemu plot` */
        fprintf(stderr, "ptxemu correlate: --plot needs gnuplot, which is not installed "
                        "(Debian: apt-get install gnuplot-nox)\n");
        rc = 3;
    } else {
        half = !half_s || !strcmp(half_s, "all") ? 0 : !strcmp(half_s, "first") ? 1 : 2;
        corr_run cr = {config ? config : "gtx480", (const char *const *)sets, (uint64_t)seed,
                       (uint32_t)jobs, 0, 0, 0, 0};
        rc = correlate(argv[1], &cr, metric, half, plot, csv);
    }
    g_free(config);
    g_free(metric);
    g_free(half_s);
    g_free(plot);
    g_free(csv);
    g_strfreev(sets);
    g_option_context_free(oc);
    return rc;
}
