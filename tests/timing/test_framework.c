/* tests/timing/test_framework.c — the scheduler framework (sched/sched.h,
 * timing/policy.c, timing/cta_sched.c) driven through the real timing model:
 *   - the example policy `throttle` sees every hook, in the order a CTA's
 *     life implies (arrive < issued < warps < instructions < replies <
 *     barrier < exit < leave < finished < kernel finish);
 *   - a refusing filter makes CTAs wait and retry at the cycle it names;
 *     the kernel still finishes with the CPU reference's answer and the
 *     functional run's memory;
 *   - gating: the SMs a policy powers off get no CTA and count gated cycles;
 *   - two kernels that arrive at different cycles run concurrently under
 *     leftover, and CTAs appended to a running kernel run as part of it;
 *     the answers equal the functional run's;
 *   - outside the timing model (tests/support/sched_harness.h): keys start
 *     at their sched/policies.def defaults, policies without init/destroy
 *     run (rr, fifo), and throttle's admission, ticks and gating follow
 *     its rule on a hand-driven sequence of requests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/api_internal.h"
#include "api/ptxemu.h"
#include "frontend/phase.h"
#include "timing/sm.h"
#include "timing/stats.h"
#include "tests/support/sched_harness.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* b[i] = a[i] + 1 for i < n, with a CTA barrier between load and store. */
#define KERNEL_FILE "tests/corpus/sched/copyadd.ptx"

#define BLOCK 64u

/* One launch's buffers. */
typedef struct job {
    ptxemu_dptr a, b;
    uint32_t n;
    void *args[3];
} job;

typedef struct world {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    char *trace;
    size_t trace_len;
    FILE *trace_f;
    job jobs[4];
} world;

static void world_open(world *w, const char *config, const char *const *sets, bool trace)
{
    memset(w, 0, sizeof *w);
    ptxemu_options o = {0};
    if (config) {
        o.timing = 1;
        o.timing_config = config;
        o.timing_set = sets;
        if (trace) {
            w->trace_f = open_memstream(&w->trace, &w->trace_len);
            o.sched_trace = w->trace_f;
        }
    }
    if (ptxemu_ctx_create(&w->ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(w->ctx));
    char *path = test_source_path(KERNEL_FILE);
    if (ptxemu_module_load_file(w->ctx, path, &w->mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(w->ctx));
    g_free(path);
}

static void world_close(world *w)
{
    ptxemu_ctx_destroy(w->ctx);
    if (w->trace_f)
        fclose(w->trace_f);
    g_free(w->trace);
}

/* Job j over n elements with input a[i] = base + i. */
static void job_make(world *w, unsigned j, uint32_t n, uint32_t base)
{
    job *jb = &w->jobs[j];
    jb->n = n;
    uint32_t *h = g_new(uint32_t, n);
    for (uint32_t i = 0; i < n; i++)
        h[i] = base + i * 7u;
    assert_int_equal(ptxemu_malloc(w->ctx, &jb->a, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(w->ctx, &jb->b, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(w->ctx, jb->a, h, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(w->ctx, jb->b, 0, n * 4), PTXEMU_OK);
    jb->args[0] = &jb->a;
    jb->args[1] = &jb->b;
    jb->args[2] = &jb->n;
    g_free(h);
}

/* The CPU reference: b[i] = a[i] + 1. */
static void job_check(world *w, unsigned j, uint32_t base)
{
    job *jb = &w->jobs[j];
    uint32_t *h = g_new(uint32_t, jb->n);
    assert_int_equal(ptxemu_memcpy_dtoh(w->ctx, h, jb->b, jb->n * 4), PTXEMU_OK);
    for (uint32_t i = 0; i < jb->n; i++)
        if (h[i] != base + i * 7u + 1u)
            fail_msg("job %u: b[%u] = %u, expected %u", j, i, h[i], base + i * 7u + 1u);
    g_free(h);
}

static ptxemu_launch_desc desc_of(world *w, unsigned j, uint64_t arrival, int append_to)
{
    job *jb = &w->jobs[j];
    ptxemu_launch_desc d = {w->mod, "copyadd", {(jb->n + BLOCK - 1) / BLOCK, 1, 1},
                            {BLOCK, 1, 1}, 0, jb->args, arrival, append_to};
    return d;
}

static void batch(world *w, const ptxemu_launch_desc *d, unsigned n)
{
    if (ptxemu_launch_batch(w->ctx, d, n) != PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(w->ctx));
    if (w->trace_f)
        fflush(w->trace_f);
}

static const tm_kernel_stats *kernel_stats(world *w, uint32_t launch)
{
    const tm_stats *st = ptxemu_timing_stats(w->ctx);
    assert_non_null(st);
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        if (k->launch == launch)
            return k;
    }
    fail_msg("no statistics for launch %u", launch);
    return NULL;
}

/* Position of the first trace line containing `needle` at or after `from`. */
static const char *find_from(const char *from, const char *needle)
{
    const char *p = strstr(from, needle);
    if (!p)
        fail_msg("trace lacks '%s' after the expected point", needle);
    return p;
}

/* ---------------------------------------------------------------- tests */

static void test_hook_order(void **state)
{
    (void)state;
    const char *const sets[] = {"cta.filters=throttle", "throttle.burst=1000", NULL};
    world w;
    world_open(&w, "m2090", sets, true);
    job_make(&w, 0, 2 * BLOCK, 5);
    ptxemu_launch_desc d = desc_of(&w, 0, 0, -1);
    batch(&w, &d, 1);
    job_check(&w, 0, 5);
    const char *t = w.trace;
    /* a CTA's life, in order (CTA 0, warp 0 where it matters) */
    const char *p = find_from(t, "throttle: kernel_arrive 1 2");
    p = find_from(p, "throttle: request 0 ");
    p = find_from(p, "throttle: cta_issued 0 ");
    p = find_from(p, "throttle: warp_arrive 0 0");
    const char *first_issue = p = find_from(p, "throttle: issued 0 ");
    p = find_from(p, "throttle: barrier 0 ");
    p = find_from(p, "throttle: exit 0 ");
    p = find_from(p, "throttle: warp_leave 0 0");
    const char *finished = p = find_from(p, "throttle: cta_finished 0 ");
    p = find_from(p, "throttle: kernel_finish 1 2");
    /* CTA 0's load replies come after its first issue, before it finishes
     * (a CTA ends only once its memory traffic has drained) */
    const char *reply = find_from(first_issue, "throttle: mem_reply 0 ");
    assert_true(reply < finished);
    /* the period ticks run while the kernel does */
    find_from(t, "throttle: tick ");
    /* the summary counts what the hooks saw: 2 CTAs x 2 warps */
    find_from(p, "2 CTAs issued, 2 finished, 0 requests refused");
    find_from(p, "4/4 warps in/out, 4 barrier waits, 4 exits");
    world_close(&w);
}

/* CTAs issued per throttle period, from the decision trace. */
static void issue_cycles(const char *trace, GArray *out)
{
    for (const char *p = trace; (p = strstr(p, "cycle ")); p++) {
        const char *eol = strchr(p, '\n');
        const char *arrow = strstr(p, " -> SM ");
        if (arrow && (!eol || arrow < eol) && strstr(p, "CTA ") < arrow) {
            uint64_t c = g_ascii_strtoull(p + 6, NULL, 10);
            g_array_append_val(out, c);
        }
        if (!eol)
            break;
        p = eol;
    }
}

static void test_refusing_filter_retries(void **state)
{
    (void)state;
    const uint32_t period = 300;
    const char *const sets[] = {"cta.filters=throttle", "throttle.burst=1",
                                "throttle.period=300", NULL};
    world w;
    world_open(&w, "m2090", sets, true);
    job_make(&w, 0, 10 * BLOCK - 3, 11);
    ptxemu_launch_desc d = desc_of(&w, 0, 0, -1);
    batch(&w, &d, 1);
    job_check(&w, 0, 11);
    /* refused requests are named, and each period admits one CTA */
    find_from(w.trace, "refused on SM");
    GArray *cyc = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    issue_cycles(w.trace, cyc);
    assert_int_equal(cyc->len, 10);
    for (guint i = 1; i < cyc->len; i++) {
        uint64_t a = g_array_index(cyc, uint64_t, i - 1), b = g_array_index(cyc, uint64_t, i);
        if (a / period == b / period)
            fail_msg("CTAs %u and %u both issued in period %llu", i - 1, i,
                     (unsigned long long)(a / period));
        /* retried as soon as the next period opens */
        assert_int_equal(b, (a / period + 1) * period);
    }
    g_array_free(cyc, TRUE);
    const tm_kernel_stats *k = kernel_stats(&w, 1);
    assert_true(tm_kernel_cycles(k) > 9 * period);
    world_close(&w);
}

static void test_gating(void **state)
{
    (void)state;
    const char *const sets[] = {"cta.filters=throttle", "throttle.active_sms=2",
                                "throttle.burst=1000", NULL};
    world w;
    world_open(&w, "m2090", sets, false);
    job_make(&w, 0, 24 * BLOCK, 3);
    ptxemu_launch_desc d = desc_of(&w, 0, 0, -1);
    batch(&w, &d, 1);
    job_check(&w, 0, 3);
    const tm_kernel_stats *k = kernel_stats(&w, 1);
    assert_int_equal(k->ncores, 16);
    uint64_t placed = 0;
    for (uint32_t s = 0; s < k->ncores; s++) {
        placed += k->cores[s].ctas_issued;
        if (s >= 2) {
            assert_int_equal(k->cores[s].ctas_issued, 0);
            /* powered off for the whole kernel */
            assert_int_equal(k->cores[s].gated_cycles, tm_kernel_cycles(k));
        } else {
            assert_true(k->cores[s].ctas_issued > 0);
            assert_int_equal(k->cores[s].gated_cycles, 0);
        }
    }
    assert_int_equal(placed, 24);
    world_close(&w);
}

static void test_concurrent_arrivals(void **state)
{
    (void)state;
    world w;
    world_open(&w, "m2090", NULL, false);
    job_make(&w, 0, 4 * BLOCK, 100);
    job_make(&w, 1, 4 * BLOCK, 900);
    ptxemu_launch_desc d[2] = {desc_of(&w, 0, 0, -1), desc_of(&w, 1, 60, -1)};
    batch(&w, d, 2);
    job_check(&w, 0, 100);
    job_check(&w, 1, 900);
    const tm_kernel_stats *k1 = kernel_stats(&w, 1), *k2 = kernel_stats(&w, 2);
    assert_int_equal(k2->start, k1->start + 60);
    /* the second ran while the first was still running */
    if (!(k2->start < k1->end))
        fail_msg("no overlap: kernel 1 [%llu, %llu], kernel 2 from %llu",
                 (unsigned long long)k1->start, (unsigned long long)k1->end,
                 (unsigned long long)k2->start);
    world_close(&w);

    /* the same batch functionally gives the same answers */
    world_open(&w, NULL, NULL, false);
    job_make(&w, 0, 4 * BLOCK, 100);
    job_make(&w, 1, 4 * BLOCK, 900);
    ptxemu_launch_desc f[2] = {desc_of(&w, 1, 400, -1), desc_of(&w, 0, 0, -1)};
    batch(&w, f, 2);
    job_check(&w, 0, 100);
    job_check(&w, 1, 900);
    world_close(&w);
}

static void test_appended_ctas(void **state)
{
    (void)state;
    world w;
    world_open(&w, "m2090", NULL, false);
    job_make(&w, 0, 4 * BLOCK, 1);
    job_make(&w, 1, 3 * BLOCK, 50);
    ptxemu_launch_desc d[2] = {desc_of(&w, 0, 0, -1), desc_of(&w, 1, 50, 0)};
    batch(&w, d, 2);
    job_check(&w, 0, 1);
    job_check(&w, 1, 50);
    const tm_stats *st = ptxemu_timing_stats(w.ctx);
    assert_int_equal(st->kernels->len, 1); /* one kernel took both */
    const tm_kernel_stats *k = kernel_stats(&w, 1);
    assert_int_equal(k->ctas, 7);
    uint64_t issued = 0;
    for (uint32_t s = 0; s < k->ncores; s++)
        issued += k->cores[s].ctas_issued;
    assert_int_equal(issued, 7);
    /* appending to a later launch is refused with a message */
    ptxemu_launch_desc bad[2] = {desc_of(&w, 0, 0, 1), desc_of(&w, 1, 0, -1)};
    assert_int_not_equal(ptxemu_launch_batch(w.ctx, bad, 2), PTXEMU_OK);
    assert_non_null(strstr(ptxemu_last_error(w.ctx), "append_to"));
    world_close(&w);
}

/* The annotations the schedulers see (tm_func, built per GPU config) carry
 * phase distances in that config's latencies: what `ptxemu phases --config`
 * prints (both call ptx_phase_analyze with the config's table). */
static void test_annotations_use_config_latencies(void **state)
{
    (void)state;
    world w;
    world_open(&w, NULL, NULL, false);
    const ex_module *ex = ptxemu_module_ex(w.mod);
    const ex_func *fn = g_hash_table_lookup(ex->kernels, "copyadd");
    assert_non_null(fn);
    gpu_config cfg;
    GError *err = NULL;
    assert_true(gpu_config_load_preset("m2090", &cfg, &err));
    const char *const sets[] = {"latency.int_add=17", "latency.int_mul=23", NULL};
    assert_true(gpu_config_apply_overrides(&cfg, sets, &err));
    tm_func *tf = tm_func_build(&cfg, fn);
    ptx_phase_info *mine = ptx_phase_analyze(fn->cfg, &cfg.latency);
    ptx_phase_info *dflt = ptx_phase_analyze(fn->cfg, NULL);
    bool differs = false;
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        assert_int_equal(tf->annot[i].phase, mine->phase_of[i]);
        assert_int_equal(tf->annot[i].phase_distance, mine->distance[i]);
        assert_int_equal(tf->annot[i].next_phase_length, mine->next_length[i]);
        differs |= tf->annot[i].phase_distance != dflt->distance[i];
    }
    /* the first instruction's distance is its phase's length */
    assert_int_equal(tf->annot[0].phase_length, tf->annot[0].phase_distance);
    assert_true(differs); /* the overrides did reach the annotations */
    ptx_phase_info_free(mine);
    ptx_phase_info_free(dflt);
    tm_func_free(tf);
    world_close(&w);
}

/* The same two concurrent kernels from the command line: launches separated
 * by --then, the second with --arrive. */
static void test_cli_concurrent_launches(void **state)
{
    (void)state;
    char *ptx = test_source_path(KERNEL_FILE);
    char *dir = g_dir_make_tmp("ptxemu-fw-XXXXXX", NULL);
    char *stats = g_build_filename(dir, "s.json", NULL);
    char *o1 = g_build_filename(dir, "o1.bin", NULL), *o2 = g_build_filename(dir, "o2.bin", NULL);
    char *d1 = g_strdup_printf("1:%s", o1), *d2 = g_strdup_printf("1:%s", o2);
    const char *const args[] = {
        "run", ptx, "--timing", "--config", "m2090", "--stats", stats,
        "--kernel", "copyadd", "--grid", "4", "--block", "64", "--arg", "iota:u32:256",
        "--arg", "zeros:1024", "--arg", "u32:256", "--dump", d1,
        "--then", "--kernel", "copyadd", "--grid", "4", "--block", "64", "--arrive", "60",
        "--arg", "iota:u32:256", "--arg", "zeros:1024", "--arg", "u32:256", "--dump", d2, NULL};
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(args, &out, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    gchar *json = NULL;
    assert_true(g_file_get_contents(stats, &json, NULL, NULL));
    /* kernel 2 arrives 60 cycles after kernel 1 and starts before it ends */
    const char *k1 = strstr(json, "\"launch\": 1,"), *k2 = strstr(json, "\"launch\": 2,");
    assert_non_null(k1);
    assert_non_null(k2);
    uint64_t s1 = g_ascii_strtoull(strstr(k1, "\"start_cycle\": ") + 15, NULL, 10);
    uint64_t e1 = g_ascii_strtoull(strstr(k1, "\"end_cycle\": ") + 13, NULL, 10);
    uint64_t s2 = g_ascii_strtoull(strstr(k2, "\"start_cycle\": ") + 15, NULL, 10);
    assert_int_equal(s2, s1 + 60);
    assert_true(s2 < e1);
    const char *dumps[2] = {o1, o2};
    for (unsigned d = 0; d < 2; d++) {
        gchar *buf = NULL;
        gsize len = 0;
        assert_true(g_file_get_contents(dumps[d], &buf, &len, NULL));
        assert_int_equal(len, 1024);
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t v;
            memcpy(&v, buf + 4 * i, 4);
            assert_int_equal(v, i + 1);
        }
        g_free(buf);
    }
    /* a run-wide option after --then is refused with a hint */
    const char *const bad[] = {"run", ptx, "--kernel", "copyadd", "--grid", "1", "--block", "1",
                               "--arg", "zeros:4", "--arg", "zeros:4", "--arg", "u32:1",
                               "--then", "--stats", stats, NULL};
    g_free(out);
    g_free(err);
    assert_int_equal(test_run_cli(bad, &out, &err), 2);
    assert_non_null(strstr(err, "come before the first --then"));
    g_free(json);
    g_free(out);
    g_free(err);
    g_remove(stats);
    g_remove(o1);
    g_remove(o2);
    g_rmdir(dir);
    g_free(dir);
    g_free(stats);
    g_free(o1);
    g_free(o2);
    g_free(d1);
    g_free(d2);
    g_free(ptx);
}

/* `ptxemu config --list` shows every level and each policy's keys (no
 * policy is planned since the LaPerm ones landed). */
static void test_cli_config_list(void **state)
{
    (void)state;
    const char *const args[] = {"config", "--list", NULL};
    char *out = NULL;
    assert_int_equal(test_run_cli(args, &out, NULL), 0);
    const char *want[] = {"warp level (warp.policy)", "gto", "filter level (cta.filters)",
                          "throttle.burst = 4", "throttle.period = 500",
                          "tl-rr.fetch_group = 6", "laperm-adaptive.levels = 4", "fetch level", "l1 level"};
    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++)
        if (!strstr(out, want[i]))
            fail_msg("config --list lacks '%s'", want[i]);
    g_free(out);
}

/* ------------------------------------------------ outside the timing model */

/* The harness's keys are the defaults policies.def declares (copied here by
 * hand), and a set changes one key only. */
static void test_harness_keys(void **state)
{
    (void)state;
    sched_harness sh;
    sh_open(&sh, SCHED_LEVEL_WARP, "tl-rr");
    assert_int_equal(sh.keys.tl_rr_fetch_group, 6);
    assert_int_equal(sh.keys.tl_gto_fetch_group, 6);
    assert_false(sh.keys.pa_tie_rr);
    assert_true(sh.keys.greedy_clear_history);
    assert_int_equal(sh.keys.throttle_burst, 4);
    assert_int_equal(sh.keys.throttle_period, 500);
    assert_true(sh.keys.onac_target == 0.98);
    sh_set(&sh, "tl-rr.fetch_group=3");
    sh_set(&sh, "pa.tie_rr=true");
    sh_set(&sh, "onac.target=0.5");
    assert_int_equal(sh.keys.tl_rr_fetch_group, 3);
    assert_int_equal(sh.keys.tl_gto_fetch_group, 6);
    assert_true(sh.keys.pa_tie_rr);
    assert_true(sh.keys.onac_target == 0.5);
    sh_start(&sh);
    assert_true(sh.env.keys == &sh.keys);
    sh_close(&sh);
}

/* rr has state but neither init nor destroy, fifo has neither state nor
 * init: both run.  rr walks the SMs from the one after the last that took
 * a CTA; an SM holding max_fit CTAs, or paused, is not eligible. */
static void test_harness_optional_hooks(void **state)
{
    (void)state;
    sched_harness sh;
    sh_open(&sh, SCHED_LEVEL_CTA, "rr");
    sh.env.nsms = 3;
    sh_start(&sh);
    sched_kernel_info k = sh_kernel(1, 5, 1, 2);
    assert_int_equal(sh_place(&sh, &k), 0);
    assert_string_equal(sh.why, ""); /* no trace: no reason */
    sh_cta_issued(&sh, 1, k.issued++, 0);
    sh_trace(&sh, true);
    assert_int_equal(sh_place(&sh, &k), 1);
    assert_string_equal(sh.why, "first SM with room after SM 0");
    sh_cta_issued(&sh, 1, k.issued++, 1);
    assert_int_equal(sh_place(&sh, &k), 2);
    sh_cta_issued(&sh, 1, k.issued++, 2);
    assert_int_equal(sh_place(&sh, &k), -1); /* every SM holds its one CTA */
    sh_cta_finished(&sh, 1, 1, 1);
    assert_int_equal(sh.sms[1].resident, 0);
    assert_int_equal(sh_place(&sh, &k), 1); /* after SM 2: SM 0 full, SM 1 free */
    sh.ctl.sm_pause(&sh.ctl, 1);
    assert_int_equal(sh_place(&sh, &k), -1);
    sh.ctl.sm_resume(&sh.ctl, 1);
    assert_int_equal(sh_place(&sh, &k), 1);
    sh_close(&sh);

    sh_open(&sh, SCHED_LEVEL_FETCH, "fifo");
    sh_start(&sh);
    const sched_fetch_req q[3] = {{4, 7, 10}, {1, 2, 11}, {0, 1, 12}};
    assert_int_equal(sh_fetch_pick(&sh, q, 3), 0); /* the driver's queue order */
    assert_int_equal(sh_tick(&sh), SCHED_NEVER);   /* no tick hook */
    sh_close(&sh);
}

/* throttle (burst 2, period 100, 2 of 4 SMs on), request by request: the
 * third CTA of period 0 waits until cycle 100; a request an earlier filter
 * refused is not refused again; SMs 2 and 3 are gated while the kernel
 * runs; ticks fall on period boundaries. */
static void test_throttle_by_hand(void **state)
{
    (void)state;
    sched_harness sh;
    sh_open(&sh, SCHED_LEVEL_FILTER, "throttle");
    sh_setv(&sh, (const char *const[]){"throttle.burst=2", "throttle.period=100",
                                       "throttle.active_sms=2", NULL});
    sh.env.nsms = 4;
    sh_start(&sh);
    sh_trace(&sh, true);
    assert_int_equal(sh_tick(&sh), SCHED_NEVER); /* no kernel yet */
    sched_kernel_info k = sh_kernel(1, 8, 2, 4);
    sh_kernel_arrive(&sh, &k);
    assert_false(sh.sms[0].gated || sh.sms[1].gated);
    assert_true(sh.sms[2].gated && sh.sms[3].gated);
    assert_int_equal(sh_tick(&sh), 100);
    sh.ctl.cycle = 10;
    assert_int_equal(sh_admit(&sh, &k, 0, 0, false), SCHED_ADMIT);
    sh_cta_issued(&sh, 1, 0, 0);
    assert_int_equal(sh_admit(&sh, &k, 1, 1, false), SCHED_ADMIT);
    sh_cta_issued(&sh, 1, 1, 1);
    sh.ctl.cycle = 20;
    assert_int_equal(sh_admit(&sh, &k, 2, 0, false), SCHED_REFUSE_UNTIL(100));
    assert_string_equal(sh.why, "2 CTAs admitted in period 0");
    assert_int_equal(sh_admit(&sh, &k, 2, 0, true), SCHED_ADMIT);
    sh_cta_dropped(&sh, 1, 2, 0, "throttle");
    sh.ctl.cycle = 100;
    assert_int_equal(sh_admit(&sh, &k, 2, 0, false), SCHED_ADMIT); /* a new period */
    sh_cta_issued(&sh, 1, 2, 0);
    sh_cta_finished(&sh, 1, 0, 0);
    sh.ctl.cycle = 150;
    assert_int_equal(sh_tick(&sh), 200);
    k.issued = k.finished = 8;
    sh_kernel_finish(&sh, &k);
    assert_false(sh.sms[2].gated || sh.sms[3].gated);
    assert_int_equal(sh_tick(&sh), SCHED_NEVER);
    if (!strstr(sh.log->str, "kernel 1: 3 CTAs issued, 1 finished, 1 requests refused"))
        fail_msg("throttle's summary is missing from its log:\n%s", sh.log->str);
    sh_close(&sh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_order),
        cmocka_unit_test(test_refusing_filter_retries),
        cmocka_unit_test(test_gating),
        cmocka_unit_test(test_concurrent_arrivals),
        cmocka_unit_test(test_appended_ctas),
        cmocka_unit_test(test_annotations_use_config_latencies),
        cmocka_unit_test(test_cli_concurrent_launches),
        cmocka_unit_test(test_cli_config_list),
        cmocka_unit_test(test_harness_keys),
        cmocka_unit_test(test_harness_optional_hooks),
        cmocka_unit_test(test_throttle_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
