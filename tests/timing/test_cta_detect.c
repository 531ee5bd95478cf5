/* tests/timing/test_cta_detect.c — the detection machines of Perf-Sat,
 * ONAC and Seq-Det (sched/filter/perf_sat.c, sched/filter/core_count.c) driven
 * with scripted curves, against the worked examples of the thesis
 * (SEED-TARGETS.md §3 and §8); then each policy end to end through the
 * real timing model: the answer equals the CPU reference, the decisions it
 * traces are the ones the machine makes, and a gated core executes nothing
 * while it is gated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/api_internal.h"
#include "api/ptxemu.h"
#include "sched/filter/core_count.h"
#include "sched/filter/perf_sat.h"
#include "timing/stats.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ Perf-Sat */

/* Feeds S(N) until the machine fixes N; returns the N of every sample. */
static uint32_t psat_run(uint32_t nmax, uint64_t (*s)(uint32_t), uint32_t *seq, uint32_t cap)
{
    psat_fsm m;
    psat_start(&m, nmax);
    uint32_t k = 0;
    while (m.mode != PSAT_DONE) {
        assert_true(k < cap);
        seq[k++] = m.n;
        psat_sample(&m, s(m.n));
    }
    seq[k] = m.n; /* the final N */
    return k;
}

static uint64_t s_text(uint32_t n) { return (uint64_t)((n - 12.0) * (n - 12.0)) + 100; }
static uint64_t s_mirror(uint32_t n) { return (uint64_t)((n - 3.0) * (n - 3.0)) + 50; }
static uint64_t s_falling(uint32_t n) { return 1000 - n; }     /* C-strong */
static uint64_t s_rising(uint32_t n) { return 1000 + n; }      /* one CTA best */

static void expect_seq(const uint32_t *got, uint32_t n, const uint32_t *want, uint32_t wn,
                       uint32_t final)
{
    for (uint32_t i = 0; i < n && i < wn; i++)
        if (got[i] != want[i])
            fail_msg("sample %u at N=%u, expected N=%u", i + 1, got[i], want[i]);
    assert_int_equal(n, wn);
    assert_int_equal(got[n], final);
}

static void test_perf_sat_text(void **state)
{
    (void)state;
    uint32_t seq[32];
    uint32_t n = psat_run(15, s_text, seq, 31);
    static const uint32_t want[] = {8, 9, 9, 10, 11, 12, 13, 13};
    expect_seq(seq, n, want, G_N_ELEMENTS(want), 12);
}

static void test_perf_sat_mirror(void **state)
{
    (void)state;
    uint32_t seq[32];
    uint32_t n = psat_run(8, s_mirror, seq, 31);
    static const uint32_t want[] = {4, 5, 4, 3, 2, 2};
    expect_seq(seq, n, want, G_N_ELEMENTS(want), 3);
}

static void test_perf_sat_bounds(void **state)
{
    (void)state;
    uint32_t seq[32];
    /* more CTAs always help: climbs to Nmax and stops there */
    uint32_t n = psat_run(8, s_falling, seq, 31);
    static const uint32_t up[] = {4, 5, 5, 6, 7, 8};
    expect_seq(seq, n, up, G_N_ELEMENTS(up), 8);
    /* fewer always help: down to 1 */
    n = psat_run(8, s_rising, seq, 31);
    static const uint32_t down[] = {4, 5, 4, 3, 2, 1};
    expect_seq(seq, n, down, G_N_ELEMENTS(down), 1);
}

/* ------------------------------------------------------------ ONAC, Seq-Det */

/* The Backprop-like curve of §3: IPC_1=1, IPC_9=8, IPC_10=8.5, IPC_11=8.7,
 * IPC_12=8.85, IPC_32=9 (other points do not matter). */
static double ipc_backprop(uint32_t n)
{
    switch (n) {
    case 1: return 1.0;
    case 9: return 8.0;
    case 10: return 8.5;
    case 11: return 8.7;
    case 12: return 8.85;
    case 32: return 9.0;
    default: return n < 12 ? n * 0.8 : 8.9;
    }
}

/* Type B: only the full chip reaches 98% of its IPC. */
static double ipc_type_b(uint32_t n) { return n * 0.5; }
/* Type A, flat beyond 20 cores. */
static double ipc_sat20(uint32_t n) { return (n < 20 ? n : 20) * 0.5; }

static uint32_t cc_run(cc_kind kind, double (*ipc)(uint32_t), uint32_t *seq, uint32_t cap)
{
    cc_fsm m;
    cc_start(&m, kind, 32, 0.98);
    uint32_t k = 0;
    while (!m.done) {
        assert_true(k < cap);
        seq[k++] = m.n;
        cc_sample(&m, ipc(m.n));
    }
    seq[k] = m.n;
    return k;
}

static void test_onac_backprop(void **state)
{
    (void)state;
    uint32_t seq[40];
    uint32_t n = cc_run(CC_ONAC, ipc_backprop, seq, 39);
    /* all cores, one core, then the estimates 9, 10, 11, 12 */
    static const uint32_t want[] = {32, 1, 9, 10, 11, 12};
    expect_seq(seq, n, want, G_N_ELEMENTS(want), 12);
}

static void test_onac_type_b(void **state)
{
    (void)state;
    uint32_t seq[40];
    uint32_t n = cc_run(CC_ONAC, ipc_type_b, seq, 39);
    /* 0.98 x 16 / 0.5 = 31.36 -> 32: the full chip, no check needed */
    static const uint32_t want[] = {32, 1};
    expect_seq(seq, n, want, G_N_ELEMENTS(want), 32);
}

static void test_seq_det(void **state)
{
    (void)state;
    uint32_t seq[40];
    uint32_t n = cc_run(CC_SEQ_DET, ipc_type_b, seq, 39);
    static const uint32_t b[] = {32, 31}; /* samples 31 once, returns to 32 */
    expect_seq(seq, n, b, G_N_ELEMENTS(b), 32);
    n = cc_run(CC_SEQ_DET, ipc_sat20, seq, 39);
    /* 20 cores keep 100%; 19 give 95% < 98%: back to 20 */
    assert_int_equal(n, 14); /* 32, 31, ..., 19 */
    assert_int_equal(seq[0], 32);
    assert_int_equal(seq[13], 19);
    assert_int_equal(seq[14], 20);
    /* ONAC on the same curve: 0.98 x 10 / 0.5 = 19.6 -> 20, checked */
    n = cc_run(CC_ONAC, ipc_sat20, seq, 39);
    static const uint32_t o[] = {32, 1, 20};
    expect_seq(seq, n, o, G_N_ELEMENTS(o), 20);
}

/* ------------------------------------------------------------ end to end */

/* b[i] = a[i] + 1 (tests/corpus/sched/copyadd.ptx), n elements in CTAs of
 * 64 threads, on the c2050 preset with `sets`. */
static char *run_copyadd(const char *const *sets, uint32_t n, const tm_kernel_stats **ks,
                         ptxemu_ctx **pctx)
{
    char *trace = NULL;
    size_t len = 0;
    FILE *tf = open_memstream(&trace, &len);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "c2050";
    o.timing_set = sets;
    o.sched_trace = tf;
    ptxemu_ctx *ctx = NULL;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    char *path = test_source_path("tests/corpus/sched/copyadd.ptx");
    ptxemu_module *mod = NULL;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    g_free(path);
    uint32_t *h = g_new(uint32_t, n);
    for (uint32_t i = 0; i < n; i++)
        h[i] = i * 13u + 5u;
    ptxemu_dptr a, b;
    assert_int_equal(ptxemu_malloc(ctx, &a, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, a, h, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, b, 0, n * 4), PTXEMU_OK);
    void *args[3] = {&a, &b, &n};
    ptxemu_launch_desc d = {mod, "copyadd", {(n + 63) / 64, 1, 1}, {64, 1, 1}, 0, args, 0, -1};
    if (ptxemu_launch_batch(ctx, &d, 1) != PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(ctx));
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, h, b, n * 4), PTXEMU_OK);
    for (uint32_t i = 0; i < n; i++)
        if (h[i] != i * 13u + 6u)
            fail_msg("b[%u] = %u, expected %u", i, h[i], i * 13u + 6u);
    g_free(h);
    fclose(tf);
    const tm_stats *st = ptxemu_timing_stats(ctx);
    assert_non_null(st);
    assert_int_equal(st->kernels->len, 1);
    *ks = g_ptr_array_index(st->kernels, 0);
    *pctx = ctx;
    return trace;
}

/* copyadd over 400 CTAs on 4 SMs under `policy` (onac or seq-det) with
 * half-wave samples, and one more key `extra` (or NULL). */
static char *run_core_count(const char *policy, const char *extra, const tm_kernel_stats **k,
                            ptxemu_ctx **ctx)
{
    char filt[64], waves[64];
    g_snprintf(filt, sizeof filt, "cta.filters=%s", policy);
    g_snprintf(waves, sizeof waves, "%s.waves=0.5", policy);
    const char *const sets[] = {"gpu.num_sms=4", filt, waves, extra, NULL};
    return run_copyadd(sets, 400 * 64, k, ctx);
}

/* Seq-Det with a 2-SM GPU and a kernel too small to keep two cores busy:
 * it samples 1 core; the trace's decisions, the CTAs per core and the
 * gated cycles agree. */
static void test_core_count_end_to_end(void **state)
{
    (void)state;
    const char *const policies[] = {"onac", "seq-det"};
    for (unsigned p = 0; p < 2; p++) {
        const tm_kernel_stats *k;
        ptxemu_ctx *ctx;
        char *trace = run_core_count(policies[p], NULL, &k, &ctx);
        /* the first sample has every core on, the second fewer */
        char want[64];
        g_snprintf(want, sizeof want, "%s: IPC with 4 cores = ", policies[p]);
        const char *s1 = strstr(trace, want);
        if (!s1)
            fail_msg("%s: no first sample in the trace", policies[p]);
        assert_non_null(strstr(s1, " cores = "));
        /* a core switched off drains, is gated, and gets no CTA while gated */
        const char *drain = strstr(trace, "draining");
        assert_non_null(drain);
        uint64_t gated = 0;
        for (uint32_t s = 0; s < k->ncores; s++)
            gated += k->cores[s].gated_cycles;
        assert_true(gated > 0);
        /* the stats' cores off at the kernel's end are those the last
         * decision of the trace switched off */
        uint32_t last_n = 0;
        for (const char *q = trace; (q = strstr(q, " cycles -> ")); q++)
            assert_int_equal(sscanf(q, " cycles -> %u cores", &last_n), 1);
        assert_true(last_n >= 1 && last_n <= 4);
        uint32_t off = 0;
        for (uint32_t s = 0; s < k->ncores; s++)
            off += k->off_end[s];
        assert_int_equal(off, 4 - last_n);
        for (uint32_t s = 0; s < last_n; s++)
            assert_int_equal(k->off_end[s], 0); /* cores 0 .. N-1 stay on */
        for (const char *q = trace; (q = strstr(q, "cycle ")); q++) {
            unsigned long long cyc;
            unsigned sm;
            if (sscanf(q, "cycle %llu: SM %u gated", &cyc, &sm) != 2)
                continue;
            /* the next event on that SM is its resumption, not a CTA */
            char res[48], cta[48];
            g_snprintf(res, sizeof res, "SM %u resumed", sm);
            g_snprintf(cta, sizeof cta, "-> SM %u (", sm);
            const char *r = strstr(q, res), *c = strstr(q, cta);
            if (c && (!r || c < r))
                fail_msg("%s: SM %u got a CTA while gated", policies[p], sm);
        }
        free(trace);
        ptxemu_ctx_destroy(ctx);
    }
}

/* The warm-up (key warmup): the kernel runs `warmup` waves on every core
 * first (1 wave = cores x CTAs per core completions); the first sample
 * starts when the warm-up ends, so its cycles are counted from there. */
static void test_core_count_warmup(void **state)
{
    (void)state;
    const char *const policies[] = {"onac", "seq-det"};
    for (unsigned p = 0; p < 2; p++) {
        char warm[64];
        g_snprintf(warm, sizeof warm, "%s.warmup=1", policies[p]);
        const tm_kernel_stats *k;
        ptxemu_ctx *ctx;
        char *trace = run_core_count(policies[p], warm, &k, &ctx);
        char want[64];
        g_snprintf(want, sizeof want, ": %s: warm-up over after ", policies[p]);
        const char *w = strstr(trace, want);
        if (!w)
            fail_msg("%s: no warm-up in the trace", policies[p]);
        while (w > trace && w[-1] != '\n')
            w--;
        unsigned long long wcyc, done;
        char name[16];
        assert_int_equal(sscanf(w, "cycle %llu: %15[a-z-]: warm-up over after %llu", &wcyc, name,
                                &done),
                         3);
        /* one wave: 4 cores x the CTAs that fit one */
        assert_int_equal(done, 4ull * k->occ.ctas_per_sm);
        /* the first sample follows it and spans exactly the cycles since */
        g_snprintf(want, sizeof want, "%s: IPC with 4 cores = ", policies[p]);
        const char *s1 = strstr(trace, want);
        assert_non_null(s1);
        assert_true(s1 > w);
        while (s1 > trace && s1[-1] != '\n')
            s1--;
        unsigned long long scyc, over;
        double ipc;
        assert_int_equal(sscanf(s1, "cycle %llu: %15[a-z-]: IPC with 4 cores = %lf over %llu", &scyc,
                                name, &ipc, &over),
                         4);
        assert_int_equal(over, scyc - wcyc);
        free(trace);
        ptxemu_ctx_destroy(ctx);
    }
}

/* Resident CTA-cycles: one CTA on one SM holds one slot for the whole
 * kernel; 40 CTAs on 2 SMs with no policy cap have no cta_limit. */
static void test_cta_cycles(void **state)
{
    (void)state;
    const char *const one[] = {"gpu.num_sms=1", NULL};
    const tm_kernel_stats *k;
    ptxemu_ctx *ctx;
    char *trace = run_copyadd(one, 64, &k, &ctx);
    uint64_t cycles = tm_kernel_cycles(k);
    assert_true(k->total.cta_cycles + 2 >= cycles && k->total.cta_cycles <= cycles);
    assert_int_equal(k->cta_limit[0], SCHED_NO_LIMIT);
    assert_int_equal(k->off_end[0], 0);
    free(trace);
    ptxemu_ctx_destroy(ctx);
    const char *const two[] = {"gpu.num_sms=2", NULL};
    trace = run_copyadd(two, 40 * 64, &k, &ctx);
    cycles = tm_kernel_cycles(k);
    /* at most 8 CTAs per SM, and each of the 40 lives at least a cycle */
    assert_true(k->total.cta_cycles <= 2 * 8 * cycles);
    assert_true(k->total.cta_cycles >= 40);
    assert_int_equal(k->cores[0].cta_cycles + k->cores[1].cta_cycles, k->total.cta_cycles);
    free(trace);
    ptxemu_ctx_destroy(ctx);
}

/* Replays a scheduler trace of one kernel of `nctas` CTAs on `nsms` SMs
 * ("CTA x -> SM s", "CTA x finished on SM s", "SM s limited to n CTAs", in
 * the order the driver wrote them) and checks that a lowered cap drains:
 * every CTA starts once and finishes on the SM it started on (nothing is
 * killed, restarted or moved), and a CTA is admitted to an SM only while
 * fewer CTAs than its cap are resident there.  Returns how many times a
 * cap fell below the CTAs then resident (the drains the run exercised);
 * *most_over the largest excess of resident CTAs over a lowered cap. */
static uint32_t check_drains(const char *trace, uint32_t nsms, uint32_t nctas,
                             uint32_t *most_over)
{
    int32_t *on = g_new(int32_t, nctas);       /* the SM a CTA started on */
    uint8_t *done = g_new0(uint8_t, nctas);
    uint32_t *resident = g_new0(uint32_t, nsms), *cap = g_new(uint32_t, nsms);
    for (uint32_t i = 0; i < nctas; i++)
        on[i] = -1;
    for (uint32_t sm = 0; sm < nsms; sm++)
        cap[sm] = SCHED_NO_LIMIT;
    uint32_t lowered = 0, started = 0, finished = 0;
    *most_over = 0;
    for (const char *l = trace; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned long long cyc;
        unsigned kid, cta, sm, n;
        if (sscanf(l, "cycle %llu: kernel %u CTA %u -> SM %u (", &cyc, &kid, &cta, &sm) == 4) {
            assert_true(cta < nctas && sm < nsms);
            if (on[cta] >= 0)
                fail_msg("cycle %llu: CTA %u started a second time (on SM %u, first on %d)",
                         cyc, cta, sm, on[cta]);
            if (resident[sm] >= cap[sm])
                fail_msg("cycle %llu: CTA %u admitted to SM %u holding %u CTAs, cap %u", cyc,
                         cta, sm, resident[sm], cap[sm]);
            on[cta] = (int32_t)sm;
            resident[sm]++;
            started++;
        } else if (sscanf(l, "cycle %llu: kernel %u CTA %u finished on SM %u", &cyc, &kid,
                          &cta, &sm) == 4) {
            assert_true(cta < nctas && sm < nsms);
            if (on[cta] != (int32_t)sm || done[cta])
                fail_msg("cycle %llu: CTA %u finished on SM %u, started on %d%s", cyc, cta,
                         sm, on[cta], done[cta] ? " and finished before" : "");
            done[cta] = 1;
            assert_true(resident[sm] > 0);
            resident[sm]--;
            finished++;
        } else if (sscanf(l, "cycle %llu: SM %u limited to %u CTAs", &cyc, &sm, &n) == 3) {
            assert_true(sm < nsms);
            if (n < resident[sm]) {
                lowered++;
                if (resident[sm] - n > *most_over)
                    *most_over = resident[sm] - n;
            }
            cap[sm] = n;
        }
    }
    /* every CTA ran, once, to its end */
    assert_int_equal(started, nctas);
    assert_int_equal(finished, nctas);
    g_free(on);
    g_free(done);
    g_free(resident);
    g_free(cap);
    return lowered;
}

/* Perf-Sat end to end: every core starts at ceil(Nmax/2), the first sample
 * moves to c+1, the stats keep the last cap; and, replaying the trace,
 * lowered caps drain: no CTA resident when a cap falls below the CTAs
 * resident is removed (each finishes on the SM it started on) and no CTA is
 * admitted while a core holds its cap or more. */
static void test_perf_sat_end_to_end(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=2", "cta.filters=perf-sat",
                                "perf-sat.period_scale=0.05", NULL};
    const tm_kernel_stats *k;
    ptxemu_ctx *ctx;
    char *trace = run_copyadd(sets, 600 * 64, &k, &ctx);
    /* copyadd: 2 warps per CTA; c2050 holds 8 CTAs per core -> start at 4 */
    assert_non_null(strstr(trace, "perf-sat: kernel 1: Nmax=8, every core starts at N=4"));
    assert_non_null(strstr(trace, "SM 0 limited to 4 CTAs"));
    const char *s = strstr(trace, "perf-sat: SM 0: S(4)=");
    if (!s)
        fail_msg("no Perf-Sat sample on SM 0");
    assert_non_null(strstr(s, "-> N=5")); /* sample 1 always tries c+1 */
    /* the stats keep each core's cap at the kernel's end: the last one the
     * trace set on that core before the kernel finished (the finish then
     * lifts every cap) */
    const char *end = strstr(trace, ") finished");
    assert_non_null(end);
    for (uint32_t sm = 0; sm < 2; sm++) {
        char pat[48];
        g_snprintf(pat, sizeof pat, "SM %u limited to ", sm);
        unsigned last = 0;
        for (const char *q = trace; (q = strstr(q, pat)) && q < end; q++)
            assert_int_equal(sscanf(q + strlen(pat), "%u", &last), 1);
        assert_true(last >= 1 && last <= 8);
        assert_int_equal(k->cta_limit[sm], last);
    }
    uint32_t over;
    uint32_t lowered = check_drains(trace, 2, 600, &over);
    /* the run must exercise a drain, or the replay proves nothing: the
     * sample that returns from c+1 to c lowers a cap under full cores */
    if (lowered == 0)
        fail_msg("no cap fell below the CTAs resident: nothing drained");
    print_message("perf-sat: %u caps fell below the CTAs resident (by up to %u)\n", lowered,
                  over);
    free(trace);
    ptxemu_ctx_destroy(ctx);
}

/* DYNCTA's rule directions: with t_mem_h = 0 and the other thresholds out
 * of reach every period with memory waits removes a CTA down to 1; with
 * t_idle = 0 (any idle cycle) every period adds one up to Nmax. */
static void test_dyncta_directions(void **state)
{
    (void)state;
    const char *const down[] = {"gpu.num_sms=2", "cta.filters=dyncta", "dyncta.period=300",
                                "dyncta.t_idle=100000000", "dyncta.t_mem_l=0",
                                "dyncta.t_mem_h=0", NULL};
    const tm_kernel_stats *k;
    ptxemu_ctx *ctx;
    char *trace = run_copyadd(down, 300 * 64, &k, &ctx);
    const char *p = strstr(trace, "dyncta: kernel 1: Nmax=8, every core starts at 4");
    assert_non_null(p);
    static const char *const steps[] = {"SM 0: C_idle=", ": limit 4 -> 3", ": limit 3 -> 2",
                                        ": limit 2 -> 1", ": limit 1 -> 1"};
    for (unsigned i = 0; i < G_N_ELEMENTS(steps); i++) {
        p = strstr(p, steps[i]);
        if (!p)
            fail_msg("trace lacks '%s' in order", steps[i]);
    }
    assert_null(strstr(trace, "-> 5"));
    free(trace);
    ptxemu_ctx_destroy(ctx);
    const char *const up[] = {"gpu.num_sms=2", "cta.filters=dyncta", "dyncta.period=300",
                              "dyncta.t_idle=0", "dyncta.start=1", NULL};
    trace = run_copyadd(up, 300 * 64, &k, &ctx);
    p = strstr(trace, "every core starts at 1");
    assert_non_null(p);
    for (uint32_t n = 1; n < 8; n++) {
        char want[32];
        g_snprintf(want, sizeof want, ": limit %u -> %u", n, n + 1);
        p = strstr(p, want);
        if (!p)
            fail_msg("trace lacks '%s' in order", want);
    }
    assert_null(strstr(trace, "-> 9"));
    free(trace);
    ptxemu_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perf_sat_text),
        cmocka_unit_test(test_perf_sat_mirror),
        cmocka_unit_test(test_perf_sat_bounds),
        cmocka_unit_test(test_onac_backprop),
        cmocka_unit_test(test_onac_type_b),
        cmocka_unit_test(test_seq_det),
        cmocka_unit_test(test_core_count_warmup),
        cmocka_unit_test(test_core_count_end_to_end),
        cmocka_unit_test(test_perf_sat_end_to_end),
        cmocka_unit_test(test_cta_cycles),
        cmocka_unit_test(test_dyncta_directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
