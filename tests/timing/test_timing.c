/* tests/timing/test_timing.c — the timing model (timing/sm.c, timing/gpu.c,
 * timing/stats.c) and the baseline policies of sched/:
 *   - lrr and gto pick what they should from hand-made views;
 *   - rr places CTAs round-robin, and the decision trace says so;
 *   - IPC never exceeds the issue bandwidth (SMs x schedulers x width /
 *     dispatch interval) on several benchmarks and configs, and equals
 *     warp instructions / cycles (hand-derived IPC windows, both bounds:
 *     tests/timing/test_micro.c);
 *   - timing runs leave device memory bit-identical to the functional run
 *     (vector-add, reduction, bfs, hotspot, matrixmul; lrr and gto);
 *   - the same inputs and config give byte-identical statistics JSON;
 *   - every scheduler issue slot is issued or one of the three idle states,
 *     and the ALU/MEM split adds up;
 *   - bad --set keys/values and unimplemented policies give one message,
 *     through the API and the command line;
 *   - faults (barrier deadlock, livelock, trap) end a timing run cleanly.
 *
 * The benchmarks' own host drivers are compiled into this test (below), so
 * the runs are exactly what `ptxemu bench run NAME --timing` does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "benchmarks/bench.h"
#include "api/api_internal.h"
#include "sched/sched.h"
#include "tests/support/sched_harness.h"
#include "tests/support/test_util.h"
#include "timing/gpu.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The benchmarks most checks run on (the registry holds them all). */
static const char *const core_names[] = {"vector-add", "reduction", "bfs", "hotspot",
                                         "matrixmul"};

static const bench_def *named(const char *name)
{
    const bench_def *b = bench_find(name);
    if (!b)
        fail_msg("no benchmark '%s' in the registry", name);
    return b;
}

/* ------------------------------------------------------------ helpers */

typedef struct run_result {
    bench_outcome outcome;
    ptxemu_counters counters;
    ptxemu_timing_summary summary;
    char *json;            /* g_free; NULL without timing */
    char msg[512];
} run_result;

static ptxemu_options timing_opts(const char *config, const char *warp)
{
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = config;
    o.warp_sched = warp;
    o.memory_digest = 1;
    return o;
}

/* Runs benchmark b at size tiny in a fresh context made from opts. */
static void run_bench(const bench_def *b, const ptxemu_options *opts, run_result *r)
{
    memset(r, 0, sizeof *r);
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, opts) != PTXEMU_OK)
        fail_msg("%s: %s", b->name, ptxemu_last_error(ctx));
    char *rel = g_build_filename("benchmarks", b->ptx, NULL);
    char *path = test_source_path(rel);
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("%s: %s", path, ptxemu_last_error(ctx));
    bench_env env = {0};
    env.ctx = ctx;
    env.mod = mod;
    env.size = BENCH_TINY;
    env.seed = 1;
    r->outcome = b->run(&env);
    memcpy(r->msg, env.msg, sizeof r->msg);
    ptxemu_get_counters(ctx, &r->counters);
    if (opts && opts->timing) {
        assert_int_equal(ptxemu_get_timing_summary(ctx, &r->summary), PTXEMU_OK);
        r->json = g_strdup(ptxemu_timing_stats_json(ctx));
    }
    ptxemu_ctx_destroy(ctx);
    g_free(rel);
    g_free(path);
}

static void expect_pass(const bench_def *b, const run_result *r, const char *how)
{
    if (r->outcome != BENCH_PASS)
        fail_msg("%s (%s): %s", b->name, how, r->msg);
}

/* Every "ipc" number in the JSON (per kernel and total) is in (0, peak]. */
static unsigned check_ipc_values(const char *json, double peak)
{
    unsigned n = 0;
    for (const char *p = json; (p = strstr(p, "\"ipc\": ")); n++) {
        p += 7;
        double v = g_ascii_strtod(p, NULL);
        if (!(v > 0 && v <= peak + 1e-9))
            fail_msg("IPC %g outside (0, %g]", v, peak);
    }
    return n;
}

/* Launches `kernel` of mod on the timing GPU g directly (as ptxemu_launch
 * would), so a test can read tm_gpu_stats. */
static void direct_launch(tm_gpu *g, ptxemu_module *mod, const char *kernel, unsigned grid,
                          unsigned block, void **args, uint32_t launch_id)
{
    ex_module *ex = ptxemu_module_ex(mod);
    const ex_func *k = g_hash_table_lookup(ex->kernels, kernel);
    assert_non_null(k);
    uint8_t *kp = g_malloc0(k->kparam_size ? k->kparam_size : 1);
    for (uint32_t i = 0; i < k->nparams; i++)
        memcpy(kp + k->param_offsets[i], args[i], k->param_sizes[i]);
    ex_launch L = {0};
    L.mod = ex;
    L.kernel = k;
    L.mem = ex->mem;
    L.grid[0] = grid;
    L.grid[1] = L.grid[2] = 1;
    L.block[0] = block;
    L.block[1] = L.block[2] = 1;
    L.kparams = kp;
    L.kparam_size = k->kparam_size;
    L.livelock_limit = 100000000ull;
    L.stack_limit = 64 * 1024;
    L.launch_id = launch_id;
    ex_launch *Lp = &L;
    GError *err = NULL;
    if (!tm_gpu_run(g, &Lp, 1, &err))
        fail_msg("%s: %s", kernel, err->message);
    if (L.error)
        g_string_free(L.error, TRUE);
    g_free(kp);
}

static tm_gpu *make_gpu(const char *preset, const char *const *sets, const tm_options *o)
{
    gpu_config cfg;
    GError *err = NULL;
    if (!gpu_config_load_preset(preset, &cfg, &err) ||
        (sets && !gpu_config_apply_overrides(&cfg, sets, &err)))
        fail_msg("%s: %s", preset, err->message);
    tm_gpu *g = tm_gpu_create(&cfg, o, &err);
    if (!g)
        fail_msg("%s: %s", preset, err->message);
    return g;
}

typedef struct va_bufs {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    ptxemu_dptr a, b, c;
    unsigned n;
} va_bufs;

static void va_setup(va_bufs *v, unsigned n)
{
    assert_int_equal(ptxemu_ctx_create(&v->ctx, NULL), PTXEMU_OK);
    char *path = test_source_path("benchmarks/vector-add/kernels.ptx");
    assert_int_equal(ptxemu_module_load_file(v->ctx, path, &v->mod), PTXEMU_OK);
    g_free(path);
    v->n = n;
    assert_int_equal(ptxemu_malloc(v->ctx, &v->a, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(v->ctx, &v->b, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(v->ctx, &v->c, n * 4), PTXEMU_OK);
    float *h = g_new(float, n);
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)i * 0.5f;
    assert_int_equal(ptxemu_memcpy_htod(v->ctx, v->a, h, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(v->ctx, v->b, h, n * 4), PTXEMU_OK);
    g_free(h);
}

static void va_launch(tm_gpu *g, va_bufs *v, uint32_t id)
{
    void *args[] = {&v->a, &v->b, &v->c, &v->n};
    direct_launch(g, v->mod, "vector_add", (v->n + 255) / 256, 256, args, id);
    float *h = g_new(float, v->n);
    assert_int_equal(ptxemu_memcpy_dtoh(v->ctx, h, v->c, v->n * 4), PTXEMU_OK);
    for (unsigned i = 0; i < v->n; i++)
        if (h[i] != (float)i)
            fail_msg("c[%u] = %g", i, (double)h[i]);
    g_free(h);
}

/* --------------------------------------------------------------- policies */

static void set_views(sched_warp_view *v, unsigned n, const uint8_t *states)
{
    for (unsigned i = 0; i < n; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].slot = i * 2;
        v[i].age = 100 - i * 10; /* higher index = older */
        v[i].state = states[i];
    }
}

static void test_warp_policies(void **state)
{
    (void)state;
    const uint8_t ready[4] = {SCHED_WS_ISSUE_ALU, SCHED_WS_SB_MEM, SCHED_WS_ISSUE_MEM,
                              SCHED_WS_ISSUE_ALU};
    /* one scheduler of 4 warp slots per policy, keys at their defaults */
    sched_harness lrr, gto;
    sh_open(&lrr, SCHED_LEVEL_WARP, "lrr");
    sh_warps(&lrr, 4, NULL);
    sh_start(&lrr);
    sh_open(&gto, SCHED_LEVEL_WARP, "gto");
    sh_warps(&gto, 4, NULL);
    sh_start(&gto);
    set_views(lrr.warps, 4, ready);
    set_views(gto.warps, 4, ready);

    /* lrr: 0, 2, 3, 0, ... skipping the stalled warp */
    assert_int_equal(sh_pick(&lrr), 0);
    assert_int_equal(sh_pick(&lrr), 2);
    assert_int_equal(sh_pick(&lrr), 3);
    assert_int_equal(sh_pick(&lrr), 0);

    /* gto: the oldest ready (3), then greedily 3 while it stays ready */
    assert_int_equal(sh_pick(&gto), 3);
    assert_int_equal(sh_pick(&gto), 3);
    gto.warps[3].state = SCHED_WS_SB_ALU;
    assert_int_equal(sh_pick(&gto), 2); /* next oldest */
    gto.warps[3].state = SCHED_WS_ISSUE_ALU;
    assert_int_equal(sh_pick(&gto), 2); /* greedy now on 2 */

    /* nothing ready: both refuse */
    const uint8_t none[4] = {SCHED_WS_SB_ALU, SCHED_WS_DONE, SCHED_WS_STALL_MEM,
                             SCHED_WS_IBUF_EMPTY};
    set_views(lrr.warps, 4, none);
    set_views(gto.warps, 4, none);
    assert_int_equal(sh_pick(&lrr), -1);
    assert_int_equal(sh_pick(&gto), -1);
    sh_close(&lrr);
    sh_close(&gto);

    /* the default config's choices are the baselines */
    gpu_config cfg;
    gpu_config_defaults(&cfg);
    sched_selection sel;
    GError *err = NULL;
    gpu_config_policies(&cfg, &sel);
    assert_string_equal(sel.warp->h.name, "lrr");
    assert_string_equal(sel.cta->h.name, "rr");
    assert_string_equal(sel.kernel->h.name, "leftover");
    assert_string_equal(sel.backoff->h.name, "none");
    assert_string_equal(sel.fetch->h.name, "fifo");
    assert_string_equal(sel.l1->h.name, "sched-order");
    /* an unknown policy is an error that lists what runs */
    assert_false(gpu_config_set(&cfg, "cta.policy=no-such-policy", &err));
    assert_non_null(strstr(err->message, "cta.policy = 'no-such-policy'"));
    assert_non_null(strstr(err->message, "distributed"));
    assert_non_null(strstr(err->message, "laperm-smxbind"));
    g_clear_error(&err);
}

static void test_rr_trace(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *trace = open_memstream(&buf, &len);
    tm_options o = {0};
    o.trace = trace;
    tm_gpu *g = make_gpu("m2090", NULL, &o);
    va_bufs v;
    va_setup(&v, 64 * 256); /* 64 CTAs on 16 SMs */
    va_launch(g, &v, 7);
    fclose(trace);
    /* first wave: CTA i to SM i, all in cycle 1 */
    for (unsigned i = 0; i < 16; i++) {
        char want[96];
        g_snprintf(want, sizeof want, "cycle 1: kernel 7 CTA %u -> SM %u (rr", i, i);
        if (!strstr(buf, want))
            fail_msg("no '%s' in the trace", want);
    }
    /* every CTA placed once and finished once; the kernel ends once */
    for (unsigned i = 0; i < 64; i++) {
        char placed[64], done[64];
        g_snprintf(placed, sizeof placed, "kernel 7 CTA %u -> SM ", i);
        g_snprintf(done, sizeof done, "kernel 7 CTA %u finished on SM ", i);
        const char *p = strstr(buf, placed), *d = strstr(buf, done);
        assert_non_null(p);
        assert_non_null(d);
        assert_null(strstr(p + 1, placed));
        assert_true(p < d);
    }
    assert_non_null(strstr(buf, "kernel 7 (vector_add) finished"));
    free(buf);
    tm_gpu_destroy(g);
    ptxemu_ctx_destroy(v.ctx);
}

/* ------------------------------------------------------------------- IPC */

static void test_ipc_bound(void **state)
{
    (void)state;
    const char *const configs[][2] = {
        {"m2090", NULL},
        {"k20x", NULL},
        {"gtx480", "core.issue_width=2"},
    };
    for (size_t c = 0; c < G_N_ELEMENTS(configs); c++) {
        for (size_t i = 0; i < G_N_ELEMENTS(core_names); i++) {
            ptxemu_options o = timing_opts(configs[c][0], "gto");
            const char *sets[] = {configs[c][1], NULL};
            o.timing_set = sets;
            run_result r;
            run_bench(named(core_names[i]), &o, &r);
            expect_pass(named(core_names[i]), &r, configs[c][0]);
            const ptxemu_timing_summary *s = &r.summary;
            double peak = (double)s->num_sms * s->warp_schedulers * s->issue_width /
                          s->dispatch_interval;
            assert_true(s->cycles > 0);
            assert_true(s->ipc > 0 && s->ipc <= peak);
            /* and it is exactly what was issued over the cycles taken (the
             * hand-derived IPC windows are in test_micro.c) */
            assert_true(fabs(s->ipc - (double)s->warp_instructions / (double)s->cycles) <=
                        1e-12 * s->ipc);
            assert_int_equal(s->warp_instructions, r.counters.warp_instructions);
            assert_true(s->issued <= s->issue_slots);
            /* one "ipc" per kernel plus the total */
            assert_int_equal(check_ipc_values(r.json, peak), s->kernels + 1);
            assert_int_equal(r.counters.cycles, s->cycles);
            g_free(r.json);
        }
    }
}

/* ------------------------------------------------- memory bit-identical */

/* The spin-seed lock microbenchmarks (their kernels hold setp-spin loops). */
static bool spins_on_locks(const bench_def *b)
{
    return g_str_has_prefix(b->name, "global-increment") ||
           g_str_has_prefix(b->name, "hashtable") || g_str_has_prefix(b->name, "transactions");
}

static void test_memory_identical(void **state)
{
    (void)state;
    /* every benchmark (they are all deterministic in their final memory,
     * the lock benchmarks included: their checks demand exact totals) */
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    /* PTXEMU_TEST_SAMPLE=policies (the sanitizer build, tests/meson.build):
     * each benchmark under one of the two policies, alternating with the
     * registry index, so every benchmark and both policies still run there;
     * the optimised build runs both on every benchmark */
    bool alternate = !g_strcmp0(g_getenv("PTXEMU_TEST_SAMPLE"), "policies");
    unsigned ran = 0;
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        ptxemu_options f = {0};
        f.memory_digest = 1;
        run_result fr;
        run_bench(b, &f, &fr);
        expect_pass(b, &fr, "functional");
        assert_int_equal(fr.counters.cycles, 0);
        const char *const policies[] = {"lrr", "gto"};
        for (size_t p = 0; p < G_N_ELEMENTS(policies); p++) {
            if (alternate && p != i % G_N_ELEMENTS(policies))
                continue;
            ran++;
            ptxemu_options o = timing_opts("m2090", policies[p]);
            run_result tr;
            run_bench(b, &o, &tr);
            expect_pass(b, &tr, policies[p]);
            if (tr.counters.memory_digest != fr.counters.memory_digest)
                fail_msg("%s under %s: device memory differs from the functional run",
                         b->name, policies[p]);
            /* the same instructions ran, in another order -- except where
             * threads spin on locks: how often they retry depends on the
             * interleaving, only the final memory may not; and in the
             * dynamic-parallelism benchmarks, whose children run beside
             * their parents here but after them functionally: a check such
             * as BFS's "not visited yet" before a racing store of an equal
             * value takes the branch a different number of times */
            assert_int_equal(tr.counters.launches, fr.counters.launches);
            if (!spins_on_locks(b) && !g_str_has_prefix(b->name, "cdp-")) {
                assert_int_equal(tr.counters.warp_instructions, fr.counters.warp_instructions);
                assert_int_equal(tr.counters.thread_instructions,
                                 fr.counters.thread_instructions);
            }
            g_free(tr.json);
        }
    }
    assert_int_equal(ran, alternate ? n : 2 * n);
}

/* --------------------------------------------------------- determinism */

static void test_deterministic_json(void **state)
{
    (void)state;
    const bench_def *const bs[] = {named("hotspot"), named("bfs")};
    for (size_t i = 0; i < G_N_ELEMENTS(bs); i++) {
        ptxemu_options o = timing_opts("m2090", "lrr");
        run_result a, b;
        run_bench(bs[i], &o, &a);
        run_bench(bs[i], &o, &b);
        expect_pass(bs[i], &a, "first");
        assert_non_null(a.json);
        assert_string_equal(a.json, b.json);
        assert_non_null(strstr(a.json, "\"schema\": \"ptxemu-timing-stats/1\""));
        assert_non_null(strstr(a.json, "\"warp\": \"lrr\""));
        g_free(a.json);
        g_free(b.json);
    }
}

/* ------------------------------------------------------ stall accounting */

static uint64_t slots_between(uint64_t first, uint64_t last, uint32_t d)
{
    /* cycles c in [first, last] with c % d == 0 */
    return last / d - (first + d - 1) / d + 1;
}

static void check_accounting(const tm_gpu *g)
{
    const gpu_config *cfg = tm_gpu_config(g);
    const tm_stats *st = tm_gpu_stats(g);
    assert_true(st->kernels->len > 0);
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        uint64_t want = cfg->core.warp_schedulers *
                        slots_between(k->start, k->end, cfg->core.dispatch_interval);
        uint64_t issued = 0;
        for (uint32_t c = 0; c < k->ncores; c++) {
            const tm_sched_counters *s = &k->cores[c].sched;
            if (s->slots != want)
                fail_msg("kernel %u SM %u: %llu issue slots, expected %llu", k->launch, c,
                         (unsigned long long)s->slots, (unsigned long long)want);
            assert_int_equal(s->issued + s->idle_no_warp + s->idle_scoreboard + s->idle_pipeline,
                             s->slots);
            assert_int_equal(s->sb_alu + s->sb_mem, s->idle_scoreboard);
            assert_int_equal(s->pipe_alu + s->pipe_mem, s->idle_pipeline);
            assert_true(s->issued <= s->instructions);
            assert_true(s->instructions <= s->issued * cfg->core.issue_width);
            assert_int_equal(k->cores[c].cycles, tm_kernel_cycles(k));
            assert_true(k->cores[c].idle_cycles <= k->cores[c].cycles);
            issued += s->instructions;
        }
        /* every warp instruction of the kernel issued in its window */
        assert_int_equal(issued, k->warp_instrs);
        assert_int_equal(k->total.ctas_finished, k->ctas);
    }
}

static void test_stall_accounting(void **state)
{
    (void)state;
    const char *const *variants[] = {
        NULL,
        (const char *const[]){"core.dispatch_interval=1", "core.issue_width=2",
                              "core.warp_schedulers=4", NULL},
        (const char *const[]){"core.dispatch_interval=3", "units.sfu=2", NULL},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(variants); i++) {
        tm_gpu *g = make_gpu("m2090", variants[i], NULL);
        va_bufs v;
        va_setup(&v, 37 * 256 + 100); /* a partial last CTA too */
        va_launch(g, &v, 1);
        va_launch(g, &v, 2); /* warm caches, second kernel window */
        check_accounting(g);
        tm_gpu_destroy(g);
        ptxemu_ctx_destroy(v.ctx);
    }
    /* the same identity through the API on real benchmarks */
    for (size_t i = 0; i < G_N_ELEMENTS(core_names); i++) {
        ptxemu_options o = timing_opts("m2090", "lrr");
        run_result r;
        run_bench(named(core_names[i]), &o, &r);
        const ptxemu_timing_summary *s = &r.summary;
        assert_int_equal(s->issued + s->idle_no_warp + s->idle_scoreboard + s->idle_pipeline,
                         s->issue_slots);
        assert_int_equal(s->scoreboard_alu + s->scoreboard_mem, s->idle_scoreboard);
        assert_int_equal(s->pipeline_alu + s->pipeline_mem, s->idle_pipeline);
        g_free(r.json);
    }
}

/* ---------------------------------------------------------- bad options */

static void expect_bad(const ptxemu_options *o, const char *const *needles)
{
    ptxemu_ctx *ctx = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, o), PTXEMU_ERR_INVALID_VALUE);
    assert_non_null(ctx);
    const char *msg = ptxemu_last_error(ctx);
    assert_null(strchr(msg, '\n'));
    for (unsigned i = 0; needles[i]; i++)
        if (!strstr(msg, needles[i]))
            fail_msg("'%s' not in: %s", needles[i], msg);
    /* the context still works, functionally */
    ptxemu_timing_summary s;
    assert_int_equal(ptxemu_get_timing_summary(ctx, &s), PTXEMU_ERR_INVALID_VALUE);
    assert_null(ptxemu_timing_stats_json(ctx));
    ptxemu_ctx_destroy(ctx);
}

static void test_bad_options(void **state)
{
    (void)state;
    ptxemu_options o = timing_opts("m2090", NULL);
    const char *bad_value[] = {"core.issue_width=9", NULL};
    o.timing_set = bad_value;
    expect_bad(&o, (const char *const[]){"--set", "core.issue_width", "9", NULL});
    const char *bad_key[] = {"l1d.sise=16K", NULL};
    o.timing_set = bad_key;
    expect_bad(&o, (const char *const[]){"l1d.sise", "l1d.size", NULL});
    const char *bad_syntax[] = {"warp_schedulers", NULL};
    o.timing_set = bad_syntax;
    expect_bad(&o, (const char *const[]){"warp_schedulers", "group.key=value", NULL});
    o.timing_set = NULL;
    const char *unknown[] = {"cta.policy=no-such-policy", NULL};
    o.timing_set = unknown;
    expect_bad(&o, (const char *const[]){"'no-such-policy'", "not a valid choice", NULL});
    o.timing_set = NULL;
    o.warp_sched = "fastest";
    expect_bad(&o, (const char *const[]){"warp.policy", "fastest", NULL});
    o.warp_sched = NULL;
    o.timing_config = "no-such-gpu";
    expect_bad(&o, (const char *const[]){"no-such-gpu", NULL});

    /* the command line: one line on stderr, a non-zero status */
    char *ptx = test_source_path("benchmarks/vector-add/kernels.ptx");
    char *err = NULL;
    int status = test_run_cli((const char *const[]){"run", ptx, "-k", "vector_add", "-g", "1",
                                                    "-b", "32", "--timing", "--set",
                                                    "core.issue_width=9", NULL},
                              NULL, &err);
    assert_true(status != 0);
    assert_non_null(strstr(err, "core.issue_width"));
    assert_non_null(strstr(err, "'9'"));
    assert_int_equal(strchr(err, '\n') - err, (ptrdiff_t)strlen(err) - 1);
    g_free(err);
    status = test_run_cli((const char *const[]){"run", ptx, "-k", "vector_add", "-g", "1", "-b",
                                                "32", "--set", "core.issue_width=2", NULL},
                          NULL, &err);
    assert_true(status != 0);
    assert_non_null(strstr(err, "need --timing"));
    g_free(err);
    g_free(ptx);
}

/* ---------------------------------------------------------------- faults */

static void expect_fault(const char *file, const char *kernel, unsigned block,
                         uint64_t livelock, const char *needle)
{
    ptxemu_options o = timing_opts("m2090", "gto");
    o.livelock_limit = livelock;
    o.its = -1; /* the SIMT stack: the intra-warp livelock of livelock.ptx */
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    char rel[256];
    g_snprintf(rel, sizeof rel, "tests/corpus/runtime_bad/%s", file);
    char *path = test_source_path(rel);
    ptxemu_module *mod;
    assert_int_equal(ptxemu_module_load_file(ctx, path, &mod), PTXEMU_OK);
    ptxemu_dptr buf;
    assert_int_equal(ptxemu_malloc(ctx, &buf, 64), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, buf, 0, 64), PTXEMU_OK);
    void *args[] = {&buf};
    ptxemu_status s = ptxemu_launch(mod, kernel, (ptxemu_dim3){1, 1, 1},
                                    (ptxemu_dim3){block, 1, 1}, 0, args);
    assert_int_equal(s, PTXEMU_ERR_LAUNCH_FAILED);
    if (!strstr(ptxemu_last_error(ctx), needle))
        fail_msg("'%s' not in: %s", needle, ptxemu_last_error(ctx));
    /* the GPU is usable again after a failed launch */
    char *va = test_source_path("benchmarks/vector-add/kernels.ptx");
    ptxemu_module *vm;
    assert_int_equal(ptxemu_module_load_file(ctx, va, &vm), PTXEMU_OK);
    ptxemu_dptr a, b, c;
    unsigned n = 1000;
    assert_int_equal(ptxemu_malloc(ctx, &a, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &c, n * 4), PTXEMU_OK);
    void *vargs[] = {&a, &b, &c, &n};
    assert_int_equal(ptxemu_launch(vm, "vector_add", (ptxemu_dim3){4, 1, 1},
                                   (ptxemu_dim3){256, 1, 1}, 0, vargs), PTXEMU_OK);
    g_free(va);
    g_free(path);
    ptxemu_ctx_destroy(ctx);
}

static void test_faults(void **state)
{
    (void)state;
    expect_fault("deadlock.ptx", "deadlock", 64, 0, "barrier deadlock");
    expect_fault("livelock.ptx", "spin", 32, 200000, "no progress for 200000 warp instructions");
    expect_fault("trap.ptx", "trapper", 32, 0, "trap instruction executed");
}

/* %clock64 around a cold global load: in timing mode it counts simulated
 * cycles, so the difference covers the DRAM round trip (m2090: 138 cycles
 * from test_memsys.c); functionally it counts executed warp instructions. */
static uint64_t clock_delta(bool timing)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .b32 %r<3>; .reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [p];\n"
        "mov.u64 %rd2, %clock64;\n"
        "ld.global.u32 %r1, [%rd1+64];\n"
        "add.u32 %r2, %r1, 1;\n"
        "mov.u64 %rd3, %clock64;\n"
        "sub.s64 %rd4, %rd3, %rd2;\n"
        "st.global.u64 [%rd1], %rd4;\n"
        "st.global.u32 [%rd1+8], %r2;\n"
        "ret;\n}\n";
    ptxemu_options o = timing ? timing_opts("m2090", "lrr") : (ptxemu_options){0};
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    ptxemu_module *m;
    assert_int_equal(ptxemu_module_load_string(ctx, ptx, "clock.ptx", &m), PTXEMU_OK);
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(ctx, &d, 128), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, d, 0, 128), PTXEMU_OK);
    void *args[] = {&d};
    assert_int_equal(ptxemu_launch(m, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0,
                                   args), PTXEMU_OK);
    uint64_t delta = 0;
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, &delta, d, 8), PTXEMU_OK);
    ptxemu_ctx_destroy(ctx);
    return delta;
}

static void test_clock_reads_simulated_cycles(void **state)
{
    (void)state;
    /* functional: the three warp instructions between the two reads */
    assert_int_equal(clock_delta(false), 3);
    uint64_t cycles = clock_delta(true);
    if (cycles < 138 || cycles > 300)
        fail_msg("timing %%clock64 delta %llu cycles, expected a DRAM round trip",
                 (unsigned long long)cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_reads_simulated_cycles),
        cmocka_unit_test(test_warp_policies),
        cmocka_unit_test(test_rr_trace),
        cmocka_unit_test(test_ipc_bound),
        cmocka_unit_test(test_memory_identical),
        cmocka_unit_test(test_deterministic_json),
        cmocka_unit_test(test_stall_accounting),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
