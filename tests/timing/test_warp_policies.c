/* tests/timing/test_warp_policies.c — the warp schedulers of thesis ch. 3
 * (pa, tl-rr, tl-gto, pa-tl, owl).
 *
 *   test_timing_warp_policies             the vector add's phases as the
 *                                         schedulers see them (m2090
 *                                         latencies); hand-built scheduler
 *                                         states: which
 *                                         warp issues over several picks,
 *                                         the pending -> active -> ready
 *                                         movement and the tie rules;
 *   test_timing_warp_policies bench NAME  every benchmark at size tiny under
 *                                         warp policy NAME passes its CPU
 *                                         reference and leaves device memory
 *                                         equal to the functional run.
 *
 * The expected picks are derived by hand from the rules in the policies'
 * headers (thesis §3.4.2-3.4.3, Fig. 3.6), step by step in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"
#include "benchmarks/bench.h"
#include "sched/sched.h"
#include "sched/warp/two_level.h"
#include "tests/support/sched_harness.h"
#include "tests/support/test_shard.h"
#include "tests/support/test_util.h"
#include "timing/config.h" /* the phases test's m2090 latencies, not the policies */
#include "timing/sm.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

enum { ALU = SCHED_WS_ISSUE_ALU, MEMW = SCHED_WS_SB_MEM, SBA = SCHED_WS_SB_ALU };

/* A scheduler of n warps (ages given) running `policy` with `sets`: the
 * harness's ready views, every warp 10 cycles from the end of a 10-cycle
 * phase. */
static void rig_open(sched_harness *r, const char *policy, uint32_t n, const uint64_t *ages,
                     const char *const *sets)
{
    sh_open(r, SCHED_LEVEL_WARP, policy);
    sh_setv(r, sets);
    sh_warps(r, n, ages);
    for (uint32_t i = 0; i < n; i++)
        r->annot[i].phase_distance = r->annot[i].phase_length = 10;
    sh_start(r);
}

static int32_t pick(sched_harness *r)
{
    return sh_pick(r);
}

static void states(sched_harness *r, const uint8_t *s)
{
    for (uint32_t i = 0; i < r->nwarps; i++)
        r->warps[i].state = s[i];
}

/* The two-level queues hold exactly these view indices, in this order. */
static void expect_queue(const uint16_t *q, uint32_t nq, const int *want, const char *what)
{
    uint32_t n = 0;
    while (want[n] >= 0)
        n++;
    GString *got = g_string_new("");
    for (uint32_t i = 0; i < nq; i++)
        g_string_append_printf(got, " %u", q[i]);
    if (nq != n)
        fail_msg("%s queue has%s, want %u entries", what, got->str, n);
    for (uint32_t i = 0; i < n; i++)
        if (q[i] != (uint16_t)want[i])
            fail_msg("%s queue has%s; entry %u should be %d", what, got->str, i, want[i]);
    g_string_free(got, TRUE);
}

#define READY(r, ...) \
    expect_queue(((tl_queues *)(r)->st)->ready, ((tl_queues *)(r)->st)->nready, \
                 (const int[]){__VA_ARGS__, -1}, "ready")
#define ACTIVE(r, ...) \
    expect_queue(((tl_queues *)(r)->st)->active, ((tl_queues *)(r)->st)->nactive, \
                 (const int[]){__VA_ARGS__, -1}, "active")
#define ACTIVE_EMPTY(r) assert_int_equal(((tl_queues *)(r)->st)->nactive, 0)
#define WHERE(r, i) (((tl_queues *)(r)->st)->where[i])

/* ------------------------------------------------ phases the policies see */

/* Thesis Fig. 3.2: the vector add has 2 phases, the second starting at the
 * first add that reads the loaded registers (instruction 12, add.f32), in
 * the annotations built for a GPU config (here m2090's latencies). */
static void test_vecadd_two_phases(void **state)
{
    (void)state;
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
    char *path = test_source_path("tests/corpus/phase/fig32_vecadd.ptx");
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("%s: %s", path, ptxemu_last_error(ctx));
    const ex_func *fn = g_hash_table_lookup(ptxemu_module_ex(mod)->kernels, "vecadd");
    assert_non_null(fn);
    gpu_config cfg;
    GError *err = NULL;
    assert_true(gpu_config_load_preset("m2090", &cfg, &err));
    tm_func *tf = tm_func_build(&cfg, fn);
    const ptx_annot *a = tf->annot;
    const uint32_t add = 12; /* add.f32 %f3, %f1, %f2 */
    for (uint32_t i = 0; i < 16; i++) {
        assert_int_equal(a[i].phase, i < add ? 0 : 1);
        /* distances count down to the end of each phase */
        if (i + 1 != add && i + 1 < 16)
            assert_true(a[i].phase_distance > a[i + 1].phase_distance);
        assert_int_equal(a[i].next_phase_length, i < add ? a[add].phase_length : 0);
    }
    /* a phase's first instruction is a whole phase away from its end */
    assert_int_equal(a[0].phase_distance, a[0].phase_length);
    assert_int_equal(a[add].phase_distance, a[add].phase_length);
    assert_true(a[10].long_latency && a[11].long_latency); /* the two loads */
    assert_false(a[add].long_latency);
    tm_func_free(tf);
    g_free(path);
    ptxemu_ctx_destroy(ctx);
}

/* --------------------------------------------------------------- pa */

static void test_pa(void **state)
{
    (void)state;
    sched_harness r;
    /* distances 10, 4, 4, 2; v2 is older than v1; v3 waits on an operand */
    rig_open(&r, "pa", 4, (const uint64_t[]){5, 9, 3, 1}, NULL);
    r.annot[0].phase_distance = 10;
    r.annot[1].phase_distance = 4;
    r.annot[2].phase_distance = 4;
    r.annot[3].phase_distance = 2;
    r.warps[3].state = SBA;
    assert_int_equal(pick(&r), 2);  /* 4 = 4: v2 is the older */
    assert_int_equal(pick(&r), 2);  /* nothing changed: the same rule again */
    r.warps[3].state = ALU;
    assert_int_equal(pick(&r), 3);  /* distance 2 beats every other */
    r.annot[3].phase_distance = 12;    /* v3 moved into a long phase */
    r.annot[2].phase_distance = 6;     /* v2 advanced: 6 > v1's 4 */
    assert_int_equal(pick(&r), 1);
    r.warps[1].state = MEMW;            /* v1 stalls: v2 (6) before v0 (10) */
    assert_int_equal(pick(&r), 2);
    r.warps[2].annot = NULL;            /* no annotations: counts as farthest */
    assert_int_equal(pick(&r), 0);
    states(&r, (const uint8_t[]){SBA, MEMW, SCHED_WS_STALL_ALU, SCHED_WS_DONE});
    assert_int_equal(pick(&r), -1);
    sh_close(&r);

    /* pa.tie_rr: ties rotate from the warp after the last pick */
    rig_open(&r, "pa", 4, (const uint64_t[]){5, 9, 3, 1}, (const char *const[]){"pa.tie_rr=true", NULL});
    r.annot[0].phase_distance = 10;
    r.annot[1].phase_distance = 4;
    r.annot[2].phase_distance = 4;
    r.annot[3].phase_distance = 4;
    r.warps[3].state = SBA;
    assert_int_equal(pick(&r), 1);  /* scan from v0: v1 is the first 4 */
    assert_int_equal(pick(&r), 2);  /* scan from v2 */
    assert_int_equal(pick(&r), 1);  /* v3 cannot issue; wraps to v1 */
    r.warps[3].state = ALU;
    assert_int_equal(pick(&r), 2);
    assert_int_equal(pick(&r), 3);  /* now v3 takes its turn */
    assert_int_equal(pick(&r), 1);
    sh_close(&r);

    /* pa.by_length: v0 is 2 cycles from the end of a 300-cycle phase, v1
     * starts a 20-cycle phase (distance 20), v2 is in a 50-cycle phase:
     * by distance v0 goes first, by length v1, then v2, then v0 */
    rig_open(&r, "pa", 4, (const uint64_t[]){5, 9, 3, 1}, (const char *const[]){"pa.by_length=true", NULL});
    r.annot[0].phase_distance = 2;
    r.annot[0].phase_length = 300;
    r.annot[1].phase_distance = r.annot[1].phase_length = 20;
    r.annot[2].phase_distance = 30;
    r.annot[2].phase_length = 50;
    r.warps[3].state = SBA;
    assert_int_equal(pick(&r), 1);
    r.warps[1].state = MEMW;
    assert_int_equal(pick(&r), 2);
    r.warps[2].state = MEMW;
    assert_int_equal(pick(&r), 0);
    sh_close(&r);
    rig_open(&r, "pa", 4, (const uint64_t[]){5, 9, 3, 1}, NULL);
    r.annot[0].phase_distance = 2;
    r.annot[0].phase_length = 300;
    r.annot[1].phase_distance = r.annot[1].phase_length = 20;
    r.warps[3].state = SBA;
    assert_int_equal(pick(&r), 0);  /* the default: distance 2 first */
    sh_close(&r);
}

/* ------------------------------------------------------------ two level */

/* Six warps, fetch group 3; v4 is the oldest, then v3, v2, v1, v0, v5. */
static const uint64_t six_ages[6] = {50, 40, 30, 20, 10, 60};

/* The steps tl-rr and tl-gto share up to the point where they differ. */
static void two_level_common(sched_harness *r, bool gto)
{
    /* first pick: all six arrive, join active in launch order, and the
     * head (v4, v3, v2) fills the ready queue */
    int32_t first = pick(r);
    READY(r, 4, 3, 2);
    ACTIVE(r, 1, 0, 5);
    assert_int_equal(first, 4);
    if (gto) {
        assert_int_equal(pick(r), 4); /* greedy */
        r->warps[4].state = SBA;          /* a short ALU wait: stays ready */
        assert_int_equal(pick(r), 3); /* oldest ready */
        r->warps[4].state = ALU;
        assert_int_equal(pick(r), 3); /* greedy on v3 now */
        READY(r, 4, 3, 2);
    } else {
        assert_int_equal(pick(r), 3); /* round robin over the ready queue */
        assert_int_equal(pick(r), 2);
        assert_int_equal(pick(r), 4);
    }
    /* v3 reaches a consumer of its outstanding load: pending; the head of
     * active (v1) takes its ready slot */
    r->warps[3].state = MEMW;
    r->warps[3].outstanding = 1;
    int32_t p = pick(r);
    READY(r, 4, 2, 1);
    ACTIVE(r, 0, 5);
    assert_int_equal(WHERE(r, 3), TL_PENDING);
    assert_int_equal(p, gto ? 4 : 2); /* gto: greedy v4; rr: after v4 */
    /* only ready warps issue: v3 (still with a load in flight), v0 and v5
     * could issue, but the ready ones wait on operands */
    r->warps[3].state = ALU;
    r->warps[4].state = r->warps[2].state = r->warps[1].state = SBA;
    assert_int_equal(pick(r), -1);
    assert_int_equal(WHERE(r, 3), TL_PENDING);
    /* its loads complete: v3 joins active */
    r->warps[3].outstanding = 0;
    assert_int_equal(pick(r), -1);
    assert_int_equal(WHERE(r, 3), TL_ACTIVE);
}

static void test_tl_rr(void **state)
{
    (void)state;
    sched_harness r;
    rig_open(&r, "tl-rr", 6, six_ages, (const char *const[]){"tl-rr.fetch_group=3", NULL});
    two_level_common(&r, false);
    ACTIVE(&r, 0, 5, 3); /* round robin: the tail, not sorted */
    /* v2 completes: the head of active, v0, fills its slot and issues */
    r.warps[2].state = SCHED_WS_DONE;
    r.warps[0].state = ALU;
    assert_int_equal(pick(&r), 0);
    READY(&r, 4, 1, 0);
    ACTIVE(&r, 5, 3);
    /* a warp at a barrier is pending too, and comes back when released */
    r.warps[0].state = SCHED_WS_BARRIER;
    r.warps[1].state = ALU;
    /* v5 fills ready position 2, which is where round robin resumes */
    assert_int_equal(pick(&r), 5);
    READY(&r, 4, 1, 5);
    ACTIVE(&r, 3);
    r.warps[0].state = ALU;
    pick(&r);
    ACTIVE(&r, 3, 0);
    /* a new warp in v2's slot (new age) joins active behind them */
    r.warps[2].state = SCHED_WS_IBUF_EMPTY;
    r.warps[2].age = 70;
    pick(&r);
    ACTIVE(&r, 3, 0, 2);
    sh_close(&r);
}

static void test_tl_gto(void **state)
{
    (void)state;
    sched_harness r;
    rig_open(&r, "tl-gto", 6, six_ages, (const char *const[]){"tl-gto.fetch_group=3", NULL});
    two_level_common(&r, true);
    ACTIVE(&r, 3, 0, 5); /* sorted by launch order: v3 (20) before v0 (50) */
    /* v2 completes: v3 takes the slot (tl-rr would take v0) */
    r.warps[2].state = SCHED_WS_DONE;
    r.warps[0].state = ALU;
    assert_int_equal(pick(&r), 3);
    READY(&r, 4, 1, 3);
    ACTIVE(&r, 0, 5);
    /* greedy inside the ready queue: v3 again, then the oldest, v4 */
    r.warps[4].state = ALU;
    assert_int_equal(pick(&r), 3);
    r.warps[3].state = SBA;
    assert_int_equal(pick(&r), 4);
    sh_close(&r);
}

static void test_pa_tl(void **state)
{
    (void)state;
    sched_harness r;
    /* phase lengths of each warp's next phase: v0 30, v1 8, v2 20, v3 8,
     * v4 50, v5 5; ages as above (v4 oldest) */
    rig_open(&r, "pa-tl", 6, six_ages, (const char *const[]){"pa-tl.fetch_group=2", NULL});
    const uint32_t len[6] = {30, 8, 20, 8, 50, 5};
    for (int i = 0; i < 6; i++)
        r.annot[i].phase_length = r.annot[i].phase_distance = len[i];
    /* active sorted by length, ties (v1, v3: 8) to the older v3:
     * v5 5, v3 8, v1 8, v2 20, v0 30, v4 50; v5 and v3 are ready and the
     * ready queue issues the smallest phase distance first: v5 */
    assert_int_equal(pick(&r), 5);
    READY(&r, 5, 3);
    ACTIVE(&r, 1, 2, 0, 4);
    /* v5 advances to distance 9 > v3's 8: v3 issues */
    r.annot[5].phase_distance = 9;
    assert_int_equal(pick(&r), 3);
    /* v3 waits on memory (pending), v1 fills; v1's 8 beats v5's 9 */
    r.warps[3].state = MEMW;
    r.warps[3].outstanding = 1;
    assert_int_equal(pick(&r), 1);
    READY(&r, 5, 1);
    ACTIVE(&r, 2, 0, 4);
    /* v3's load returns; its next phase is 25 cycles long: it is sorted in
     * between v2 (20) and v0 (30), not at the tail */
    r.warps[3].state = ALU;
    r.warps[3].outstanding = 0;
    r.annot[3].phase_length = r.annot[3].phase_distance = 25;
    pick(&r);
    ACTIVE(&r, 2, 3, 0, 4);
    sh_close(&r);

    /* pa-tl.ready_order=1: round robin inside the ready queue */
    rig_open(&r, "pa-tl", 6, six_ages,
             (const char *const[]){"pa-tl.fetch_group=2", "pa-tl.ready_order=1", NULL});
    for (int i = 0; i < 6; i++)
        r.annot[i].phase_length = r.annot[i].phase_distance = len[i];
    assert_int_equal(pick(&r), 5);
    assert_int_equal(pick(&r), 3);
    assert_int_equal(pick(&r), 5);
    sh_close(&r);
}

/* ---------------------------------------------------------------- owl */

static void test_owl(void **state)
{
    (void)state;
    sched_harness r;
    rig_open(&r, "owl", 5, (const uint64_t[]){1, 2, 3, 4, 5}, NULL);
    const uint32_t cta[5] = {0, 0, 1, 1, 2};
    for (int i = 0; i < 5; i++)
        r.warps[i].cta = cta[i];
    /* group CTA 0 first, round robin inside it */
    assert_int_equal(pick(&r), 0);
    assert_int_equal(pick(&r), 1);
    assert_int_equal(pick(&r), 0);
    /* CTA 0 stalls: priority moves to CTA 1 */
    r.warps[0].state = r.warps[1].state = MEMW;
    assert_int_equal(pick(&r), 2);
    assert_int_equal(pick(&r), 3);
    /* CTA 0 could issue again, but CTA 1 keeps priority until it stalls */
    r.warps[0].state = r.warps[1].state = ALU;
    assert_int_equal(pick(&r), 2);
    /* CTA 1 stalls: the next group in order is CTA 2, not CTA 0 */
    r.warps[2].state = r.warps[3].state = SBA;
    assert_int_equal(pick(&r), 4);
    /* CTA 2 finishes: wrap around to CTA 0 */
    r.warps[4].state = SCHED_WS_DONE;
    assert_int_equal(pick(&r), 0);
    sh_close(&r);

    /* owl.group_ctas=2: CTAs 0 and 1 form one group, round robin over 4 */
    rig_open(&r, "owl", 5, (const uint64_t[]){1, 2, 3, 4, 5},
             (const char *const[]){"owl.group_ctas=2", NULL});
    for (int i = 0; i < 5; i++)
        r.warps[i].cta = cta[i];
    for (int k = 0; k < 8; k++)
        assert_int_equal(pick(&r), k % 4);
    sh_close(&r);
}

/* ------------------------------------------- every benchmark, one policy */

typedef struct run_result {
    bench_outcome outcome;
    ptxemu_counters counters;
    char msg[512];
} run_result;

static bool run_bench(const bench_def *b, const ptxemu_options *opts, run_result *r)
{
    memset(r, 0, sizeof *r);
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, opts) != PTXEMU_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", ptxemu_last_error(ctx));
        ptxemu_ctx_destroy(ctx);
        return false;
    }
    char *rel = g_build_filename("benchmarks", b->ptx, NULL);
    char *path = test_source_path(rel);
    ptxemu_module *mod;
    bool ok = ptxemu_module_load_file(ctx, path, &mod) == PTXEMU_OK;
    if (ok) {
        bench_env env = {0};
        env.ctx = ctx;
        env.mod = mod;
        env.size = BENCH_TINY;
        env.seed = 1;
        r->outcome = b->run(&env);
        memcpy(r->msg, env.msg, sizeof r->msg);
        ptxemu_get_counters(ctx, &r->counters);
    } else {
        snprintf(r->msg, sizeof r->msg, "%s", ptxemu_last_error(ctx));
    }
    ptxemu_ctx_destroy(ctx);
    g_free(rel);
    g_free(path);
    return ok;
}

/* Every benchmark under `policy` (m2090, size tiny): PASS, the functional
 * run's memory digest; returns the number of failures. */
static int bench_all_under(const char *policy)
{
    if (!sched_find(SCHED_LEVEL_WARP, policy)) {
        printf("no warp policy '%s'\n", policy);
        return 1;
    }
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        if (!test_in_sample(i))
            continue;
        ptxemu_options f = {0};
        f.memory_digest = 1;
        run_result fr, tr;
        ptxemu_options o = {0};
        o.timing = 1;
        o.timing_config = "m2090";
        o.warp_sched = policy;
        o.memory_digest = 1;
        if (!run_bench(b, &f, &fr) || fr.outcome != BENCH_PASS) {
            printf("FAIL %s functional: %s\n", b->name, fr.msg);
            bad++;
            continue;
        }
        if (!run_bench(b, &o, &tr) || tr.outcome != BENCH_PASS) {
            printf("FAIL %s under %s: %s\n", b->name, policy, tr.msg);
            bad++;
        } else if (tr.counters.memory_digest != fr.counters.memory_digest) {
            printf("FAIL %s under %s: device memory differs from the functional run\n",
                   b->name, policy);
            bad++;
        } else if (tr.counters.launches != fr.counters.launches) {
            printf("FAIL %s under %s: %llu launches, functional %llu\n", b->name, policy,
                   (unsigned long long)tr.counters.launches,
                   (unsigned long long)fr.counters.launches);
            bad++;
        } else {
            printf("ok   %s under %s\n", b->name, policy);
        }
    }
    return bad;
}

/* ------------------------------------------------- warp-state statistics */

/* The eight warp states of thesis §5.3 (plus barrier and backoff) are kept
 * per SM and per kernel: every SM's counts add up to the kernel's, and the
 * JSON has a warp_states record per kernel, per SM and in the totals. */
static void test_warp_state_stats(void **state)
{
    (void)state;
    const bench_def *b = bench_find("hotspot");
    assert_non_null(b);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "m2090";
    o.warp_sched = "tl-gto";
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    char *rel = g_build_filename("benchmarks", b->ptx, NULL);
    char *path = test_source_path(rel);
    ptxemu_module *mod;
    assert_int_equal(ptxemu_module_load_file(ctx, path, &mod), PTXEMU_OK);
    bench_env env = {0};
    env.ctx = ctx;
    env.mod = mod;
    env.size = BENCH_TINY;
    env.seed = 1;
    assert_int_equal(b->run(&env), BENCH_PASS);
    const tm_stats *st = ptxemu_timing_stats(ctx);
    uint32_t records = 1; /* the totals */
    for (guint k = 0; k < st->kernels->len; k++) {
        const tm_kernel_stats *ks = g_ptr_array_index(st->kernels, k);
        records += 1 + ks->ncores;
        for (unsigned s = 1; s < SCHED_WS_COUNT; s++) {
            uint64_t sum = 0;
            for (uint32_t c = 0; c < ks->ncores; c++)
                sum += ks->cores[c].warp_state[s];
            if (sum != ks->total.warp_state[s])
                fail_msg("kernel %u %s: SMs add up to %llu, kernel says %llu", k,
                         sched_warp_state_names[s], (unsigned long long)sum,
                         (unsigned long long)ks->total.warp_state[s]);
        }
        /* hotspot waits on its loads and at its barriers */
        assert_true(ks->total.warp_state[SCHED_WS_SB_MEM] > 0);
        assert_true(ks->total.warp_state[SCHED_WS_BARRIER] > 0);
    }
    const char *json = ptxemu_timing_stats_json(ctx);
    uint32_t found = 0;
    for (const char *p = json; (p = strstr(p, "\"warp_states\": {")); p++) {
        const char *first = strstr(p, "\"ibuffer_empty\": ");
        assert_true(first && first - p < 40); /* state 1 opens each record */
        found++;
    }
    assert_int_equal(found, records);
    g_free(rel);
    g_free(path);
    ptxemu_ctx_destroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "bench") == 0)
        return bench_all_under(argv[2]) ? 1 : 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd_two_phases),
        cmocka_unit_test(test_pa),
        cmocka_unit_test(test_tl_rr),
        cmocka_unit_test(test_tl_gto),
        cmocka_unit_test(test_pa_tl),
        cmocka_unit_test(test_owl),
        cmocka_unit_test(test_warp_state_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
