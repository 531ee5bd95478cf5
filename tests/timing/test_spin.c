/* tests/timing/test_spin.c — the spin policies (sched/backoff/greedy.c,
 * sched/backoff/ddos.c), SEED-TARGETS.md §8 rows "Greedy spin" and
 * "DDOS PT":
 *   - the table logic on hand-built issue events (five equal tuples at one
 *     PC on all lanes -> backoff of B; one lane differs -> none until its
 *     tuple leaves the window; k-of-W; guard mask; clear-after-backoff; LRU
 *     rows; static filter; the DDOS counter rule on a hand-worked
 *     sequence under each reading (no saturation and ">" by default: PT2
 *     backs off from the third spinning traversal, PT4 from the fifth; a
 *     non-spinning traversal decrements; saturated and ">=" readings);
 *     release rule);
 *   - through the real timing model: the spinloop kernel's decisions in the
 *     trace (backoff of exactly B at the fifth traversal), no backoff when
 *     one lane differs, a lone warp backed off for far longer than the
 *     kernel still runs (all warps backed off -> one issues);
 *   - the global-increment lock kernel under both policies: backoffs at the
 *     static candidates, backoff warp-cycles in the stats;
 *   - every policy x lock benchmark (tiny): CPU reference passes and the
 *     device memory equals the functional run's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/api_internal.h"
#include "api/ptxemu.h"
#include "benchmarks/harness.h"
#include "sched/sched.h"
#include "timing/stats.h"
#include "tests/support/sched_harness.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------ policy instances by hand */

/* One SM's instance of a spin policy (tests/support/sched_harness.h). */
typedef struct inst {
    sched_harness sh;
    uint32_t writes;             /* sched_issue.writes of the events it makes */
} inst;

/* `policy` with its keys at their defaults, then "name.key=value" sets; an
 * SM of 2 schedulers and 8 warp slots, all 8 warps arrived at cycle 1000. */
static void inst_open(inst *in, const char *policy, const char *const *sets)
{
    memset(in, 0, sizeof *in);
    sh_open(&in->sh, SCHED_LEVEL_BACKOFF, policy);
    sh_setv(&in->sh, sets);
    in->sh.env.schedulers = 2;
    in->sh.env.warp_slots = 8;
    sh_start(&in->sh);
    in->sh.ctl.cycle = 1000;
    for (uint32_t slot = 0; slot < 8; slot++) {
        sched_warp_event e = {.slot = slot};
        sh_warp_arrive(&in->sh, &e);
    }
}

static void inst_close(inst *in)
{
    sh_close(&in->sh);
}

static const ptx_annot candidate = {.spin_candidate = 1};
static const ptx_annot plain = {.spin_candidate = 0};

/* A setp at pc by `slot`: lanes in guard ran it with (a[l], b[l]). */
static uint64_t setp(inst *in, uint32_t slot, uint32_t pc, uint32_t guard, const uint64_t *a,
                     const uint64_t *b, const ptx_annot *an)
{
    sched_issue e = {.slot = slot, .pc = pc, .target = SCHED_NONE, .flags = SCHED_ISSUE_SETP,
                     .annot = an, .active = 0xffffffffu, .guard = guard, .a = a, .b = b,
                     .writes = in->writes};
    in->sh.ctl.cycle++;
    return sh_observe(&in->sh, &e);
}

/* A backward branch at pc (to pc - 5) taken by `taken` lanes. */
static uint64_t branch(inst *in, uint32_t slot, uint32_t pc, uint32_t taken)
{
    sched_issue e = {.slot = slot, .pc = pc, .target = pc - 5,
                     .flags = SCHED_ISSUE_BRANCH | SCHED_ISSUE_BACKWARD, .annot = &plain,
                     .active = 0xffffffffu, .guard = 0xffffffffu, .taken = taken,
                     .writes = in->writes};
    in->sh.ctl.cycle++;
    return sh_observe(&in->sh, &e);
}

static void fill(uint64_t *v, uint64_t x)
{
    for (int i = 0; i < 32; i++)
        v[i] = x;
}

/* Pushes the tuple (1, 0) on all lanes at pc `times` times; returns the
 * 1-based push that first backed the warp off (0: none) and checks that
 * it was for exactly B cycles. */
static unsigned first_backoff(inst *in, uint32_t slot, uint32_t pc, unsigned times,
                              int odd_lane, unsigned odd_push, const ptx_annot *an)
{
    uint64_t a[32], b[32];
    fill(b, 0);
    for (unsigned k = 1; k <= times; k++) {
        fill(a, 1);
        if (odd_lane >= 0 && k == odd_push)
            a[odd_lane] = 99;
        uint64_t until = setp(in, slot, pc, 0xffffffffu, a, b, an);
        if (until) {
            assert_int_equal(until, in->sh.ctl.cycle + in->sh.keys.greedy_backoff);
            return k;
        }
    }
    return 0;
}

static void test_greedy_five_equal(void **state)
{
    (void)state;
    inst in;
    const char *const sets[] = {"greedy.backoff=700", NULL};
    inst_open(&in, "greedy", sets);
    /* Fig. 2: W = 5 equal tuples on every lane -> the fifth push backs off */
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 5);
    /* history cleared after the backoff: five fresh pushes again */
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 5);
    /* one lane differs at push 3: the window holds it through push 7 */
    assert_int_equal(first_backoff(&in, 1, 27, 12, 7, 3, &candidate), 8);
    /* one lane differs at every push: never */
    uint64_t a[32], b[32];
    fill(b, 0);
    for (unsigned k = 0; k < 20; k++) {
        fill(a, 1);
        a[31] = k;
        assert_int_equal(setp(&in, 2, 27, 0xffffffffu, a, b, &candidate), 0);
    }
    /* the guard applies: lanes that did not run the setp do not count */
    for (unsigned k = 1; k <= 5; k++) {
        fill(a, 1);
        a[20] = k; /* lane 20 is outside the guard */
        uint64_t u = setp(&in, 3, 27, 0x0000ffffu, a, b, &candidate);
        assert_int_equal(u != 0, k == 5);
    }
    inst_close(&in);
}

static void test_greedy_keys(void **state)
{
    (void)state;
    inst in;
    /* k of W: 4 of 5 equal to the newest suffices */
    const char *const kofw[] = {"greedy.repeat=4", NULL};
    inst_open(&in, "greedy", kofw);
    assert_int_equal(first_backoff(&in, 0, 27, 12, 7, 3, &candidate), 5);
    inst_close(&in);
    /* history kept after a backoff: the next spinning push backs off again */
    const char *const keep[] = {"greedy.clear_history=false", NULL};
    inst_open(&in, "greedy", keep);
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 5);
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 1);
    inst_close(&in);
    /* static filter: a setp the pass did not flag is not tracked */
    const char *const filt[] = {"greedy.static_filter=true", NULL};
    inst_open(&in, "greedy", filt);
    assert_int_equal(first_backoff(&in, 0, 27, 12, -1, 0, &plain), 0);
    assert_int_equal(first_backoff(&in, 0, 36, 12, -1, 0, &candidate), 5);
    inst_close(&in);
    /* rows: two setp PCs alternating fit in 2 rows, thrash 1 row (LRU) */
    for (unsigned rows = 1; rows <= 2; rows++) {
        const char *const r1[] = {rows == 1 ? "greedy.rows=1" : "greedy.rows=2", NULL};
        inst_open(&in, "greedy", r1);
        unsigned hit = 0;
        for (unsigned k = 1; k <= 10 && !hit; k++) {
            hit = first_backoff(&in, 0, 27, 1, -1, 0, &candidate) ? k : 0;
            if (!hit)
                hit = first_backoff(&in, 0, 36, 1, -1, 0, &candidate) ? k : 0;
        }
        assert_int_equal(hit, rows == 1 ? 0 : 5);
        inst_close(&in);
    }
    /* the transactions lock loop's three setp PCs in turn: 2 LRU rows
     * never fill a window; the default (a row per setp PC) backs off at
     * the fifth round, at the first PC */
    for (unsigned def = 0; def <= 1; def++) {
        const char *const r2[] = {def ? NULL : "greedy.rows=2", NULL};
        inst_open(&in, "greedy", r2);
        unsigned hit = 0;
        for (unsigned k = 1; k <= 10 && !hit; k++)
            for (uint32_t pc = 37; pc <= 45 && !hit; pc += 4)
                hit = first_backoff(&in, 0, pc, 1, -1, 0, &candidate) ? k : 0;
        assert_int_equal(hit, def ? 5 : 0);
        inst_close(&in);
    }
}

/* A traversal of the loop closed at pc 50 by `slot`: one setp whose
 * frontier tuple is (v, 0), then the taken backward branch. */
static uint64_t traverse(inst *in, uint32_t slot, uint64_t v)
{
    uint64_t a[32], b[32];
    fill(a, v);
    fill(b, 0);
    setp(in, slot, 45, 0xffffffffu, a, b, &candidate);
    return branch(in, slot, 50, 0xffffffffu);
}

/* The seed's counter rule (§2) on one hand-worked sequence: warp 0
 * traverses the loop at pc 50 with the same values seven times (the
 * first has nothing to compare with, then six spinning traversals, +1
 * each), warp 2 three times with changing values (-1 each), then warp 0
 * spins once more.  Returns a bit per traversal that backed off. */
static unsigned ddos_sequence(const char *const *sets)
{
    inst in;
    inst_open(&in, "ddos", sets);
    unsigned bits = 0, k = 0;
    for (int i = 0; i < 7; i++, k++)
        bits |= (traverse(&in, 0, 1) != 0) << k;
    for (uint64_t v = 10; v < 13; v++, k++)
        bits |= (traverse(&in, 2, v) != 0) << k;
    bits |= (traverse(&in, 0, 1) != 0) << k;
    inst_close(&in);
    return bits;
}

static void test_ddos_counter_rule(void **state)
{
    (void)state;
    /* default: no saturation, confidence "over" the threshold (>).  PT2:
     * confidence 1, 2, 3, 4, 5, 6 -> backoffs from the 4th traversal (3 >
     * 2); warp 2 brings it to 3; warp 0's next spin (4) backs off. */
    const char *const pt2[] = {"ddos.threshold=2", NULL};
    assert_int_equal(ddos_sequence(pt2), 0x478u); /* traversals 4-7 and 11 */
    /* PT4: from confidence 5 (the 6th traversal); 6 - 3 + 1 = 4: none */
    const char *const pt4[] = {"ddos.threshold=4", NULL};
    assert_int_equal(ddos_sequence(pt4), 0x060u);
    /* the reading with a counter saturated at the threshold and >=: PT2
     * stays at 2 from the 3rd traversal, warp 2 takes it to 0, so warp 0's
     * next spin (1) does not back off */
    const char *const sat2[] = {"ddos.threshold=2", "ddos.saturate=true",
                                "ddos.inclusive=true", NULL};
    assert_int_equal(ddos_sequence(sat2), 0x07cu);
    /* saturated PT4 with >=: on at the 5th traversal, off after warp 2 */
    const char *const sat4[] = {"ddos.threshold=4", "ddos.saturate=true",
                                "ddos.inclusive=true", NULL};
    assert_int_equal(ddos_sequence(sat4), 0x070u);
    /* saturated with >: the cap is the first inducing value (3 for PT2) */
    const char *const sat2s[] = {"ddos.threshold=2", "ddos.saturate=true", NULL};
    assert_int_equal(ddos_sequence(sat2s), 0x078u);
    /* unbounded with >=: PT2 on from confidence 2 (3rd traversal); 6 - 3
     * + 1 = 4 >= 2 */
    const char *const inc2[] = {"ddos.threshold=2", "ddos.inclusive=true", NULL};
    assert_int_equal(ddos_sequence(inc2), 0x47cu);
}

static void test_ddos_table(void **state)
{
    (void)state;
    inst in;
    const char *const pt2[] = {"ddos.threshold=2", "ddos.backoff=500", NULL};
    inst_open(&in, "ddos", pt2);
    /* traversal 1 has nothing to compare with; 2-4 repeat it: the third
     * spinning traversal reaches confidence 3 > PT2 and backs off */
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_equal(traverse(&in, 0, 1), 0);
    uint64_t u = traverse(&in, 0, 1);
    assert_int_equal(u, in.sh.ctl.cycle + 500);
    /* spin-inducing now: another warp's first traversal is not spinning
     * (3 -> 2), its second spins (3 > 2) and backs off at once */
    assert_int_equal(traverse(&in, 1, 7), 0);
    assert_int_not_equal(traverse(&in, 1, 7), 0);
    /* a loop exit (branch not taken) forgets the previous traversal */
    assert_int_equal(branch(&in, 0, 50, 0), 0);
    assert_int_equal(traverse(&in, 0, 1), 0); /* not spinning: 3 -> 2 */
    inst_close(&in);

    /* table of 1 row: another branch's spinning replaces the row */
    const char *const small[] = {"ddos.table_size=1", NULL};
    inst_open(&in, "ddos", small);
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_equal(traverse(&in, 0, 1), 0); /* conf(50) = 2 */
    uint64_t a[32], b[32];
    fill(a, 2);
    fill(b, 0);
    for (int k = 0; k < 2; k++) { /* loop at pc 80: first, then spinning */
        setp(&in, 1, 75, 0xffffffffu, a, b, &candidate);
        assert_int_equal(branch(&in, 1, 80, 0xffffffffu), 0);
    }
    /* 50 re-enters at 1 (it would be 3 > 2 and back off had it stayed) */
    assert_int_equal(traverse(&in, 0, 1), 0);
    inst_close(&in);
}

/* Every warp leaves; the summary line's "false (memory changed) N". */
static unsigned false_memory(inst *in)
{
    sh_trace(&in->sh, true);
    for (uint32_t slot = 0; slot < 8; slot++) {
        sched_warp_event e = {.slot = slot};
        sh_warp_leave(&in->sh, &e);
    }
    sh_trace(&in->sh, false);
    const char *p = strstr(in->sh.log->str, "false (memory changed) ");
    assert_non_null(p);
    return (unsigned)g_ascii_strtoull(p + strlen("false (memory changed) "), NULL, 10);
}

/* A decision is false when the warp changed memory (sched_issue.writes
 * moved) before it issued the decision's PC again: its next iteration. */
static void test_false_memory(void **state)
{
    (void)state;
    inst in;
    inst_open(&in, "greedy", NULL);
    in.writes = 3;
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 5); /* armed at 3 */
    /* next setp at 27 with no write in between: a true detection */
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 5); /* armed at 3 */
    in.writes = 4; /* the warp took a lock: the next setp at 27 counts */
    assert_int_equal(first_backoff(&in, 0, 27, 8, -1, 0, &candidate), 5); /* armed at 4 */
    uint64_t a[32], b[32];
    fill(a, 5);
    fill(b, 0);
    setp(&in, 0, 30, 0xffffffffu, a, b, &candidate); /* another PC: not the watched one */
    setp(&in, 0, 27, 0xffffffffu, a, b, &candidate); /* still 4: true */
    assert_int_equal(false_memory(&in), 1);
    inst_close(&in);

    const char *const pt2[] = {"ddos.threshold=2", NULL};
    inst_open(&in, "ddos", pt2);
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_equal(traverse(&in, 0, 1), 0);
    assert_int_not_equal(traverse(&in, 0, 1), 0); /* decision at branch 50, armed at 0 */
    in.writes = 2;
    assert_int_not_equal(traverse(&in, 0, 1), 0); /* false (0 -> 2); armed at 2 */
    assert_int_not_equal(traverse(&in, 0, 1), 0); /* true; armed at 2 */
    in.writes = 3;
    assert_int_equal(branch(&in, 0, 50, 0), 0);   /* the loop exits: false (2 -> 3) */
    assert_int_equal(false_memory(&in), 2);
    inst_close(&in);
}

/* The release test's four warps of one scheduler: three backed off, one done. */
static void release_views(inst *in)
{
    const sched_warp_view v[4] = {
        {.age = 9, .slot = 0, .state = SCHED_WS_BACKOFF},
        {.age = 4, .slot = 2, .state = SCHED_WS_BACKOFF},
        {.age = 6, .slot = 4, .state = SCHED_WS_BACKOFF},
        {.age = 1, .slot = 6, .state = SCHED_WS_DONE},
    };
    memcpy(in->sh.warps, v, sizeof v);
    in->sh.nwarps = 4;
}

static void test_release_rule(void **state)
{
    (void)state;
    const char *const pol[] = {"greedy", "ddos"};
    for (int p = 0; p < 2; p++) {
        inst in;
        inst_open(&in, pol[p], NULL);
        release_views(&in);
        /* all live warps backed off: the oldest goes (the done one does not count) */
        assert_int_equal(sh_release(&in.sh), 1);
        /* one live warp waits on memory: nobody goes */
        in.sh.warps[2].state = SCHED_WS_SB_MEM;
        assert_int_equal(sh_release(&in.sh), -1);
        inst_close(&in);
    }
    /* release = soonest: the warp whose backoff ends first */
    const char *const soon[] = {"greedy.release=1", "greedy.backoff=100", NULL};
    inst in;
    inst_open(&in, "greedy", soon);
    first_backoff(&in, 4, 27, 5, -1, 0, &candidate); /* slot 4 ends first */
    first_backoff(&in, 2, 27, 5, -1, 0, &candidate);
    first_backoff(&in, 0, 27, 5, -1, 0, &candidate);
    release_views(&in);
    assert_int_equal(sh_release(&in.sh), 2);
    inst_close(&in);
}

/* ------------------------------------------------ through the timing model */

typedef struct run {
    char *trace;
    size_t len;
    uint64_t cycles, backoff_warp_cycles;
} run;

/* spinloop (tests/corpus/sched/spinloop.ptx) on gtx480 with `sets`: grid x
 * 32-thread CTAs, `iters` iterations, odd lane `odd`; checks the answer. */
static void run_spinloop(const char *const *sets, uint32_t ctas, uint32_t iters, uint32_t odd,
                         run *r)
{
    memset(r, 0, sizeof *r);
    FILE *tf = open_memstream(&r->trace, &r->len);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "gtx480";
    o.timing_set = sets;
    o.sched_trace = tf;
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    char *path = test_source_path("tests/corpus/sched/spinloop.ptx");
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    g_free(path);
    uint32_t n = ctas * 32;
    ptxemu_dptr out;
    assert_int_equal(ptxemu_malloc(ctx, &out, n * 4), PTXEMU_OK);
    void *args[] = {&out, &iters, &odd};
    ptxemu_dim3 grid = {ctas, 1, 1}, block = {32, 1, 1};
    if (ptxemu_launch(mod, "spinloop", grid, block, 0, args) != PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(ctx));
    uint32_t *h = g_new(uint32_t, n);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, h, out, n * 4), PTXEMU_OK);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t want = t % 32 == odd ? (iters > 8 ? iters - 8 : 0) : iters;
        if (h[t] != want)
            fail_msg("out[%u] = %u, expected %u", t, h[t], want);
    }
    g_free(h);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    r->cycles = c.cycles;
    const tm_stats *st = ptxemu_timing_stats(ctx);
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        for (uint32_t s = 0; s < k->ncores; s++)
            r->backoff_warp_cycles += k->cores[s].warp_state[SCHED_WS_BACKOFF];
    }
    ptxemu_ctx_destroy(ctx);
    fclose(tf);
}

/* Every "backed off until U" line: its cycle C and U - C; returns the count. */
static unsigned backoffs(const char *trace, uint64_t *lengths, unsigned max)
{
    unsigned n = 0;
    for (const char *p = trace; (p = strstr(p, " backed off until ")); p++) {
        const char *line = p;
        while (line > trace && line[-1] != '\n')
            line--;
        uint64_t c = g_ascii_strtoull(line + 6, NULL, 10);
        uint64_t u = g_ascii_strtoull(p + 18, NULL, 10);
        if (n < max)
            lengths[n] = u - c;
        n++;
    }
    return n;
}

static void test_spinloop_end_to_end(void **state)
{
    (void)state;
    uint64_t len[8];
    run r;
    /* 12 iterations, all lanes (7, 9): backoffs at the 5th and 10th setp
     * (history cleared after each), each of exactly B = 300 */
    const char *const g300[] = {"spin.policy=greedy", "greedy.backoff=300", NULL};
    run_spinloop(g300, 1, 12, 32, &r);
    assert_int_equal(backoffs(r.trace, len, 8), 2);
    assert_int_equal(len[0], 300);
    assert_int_equal(len[1], 300);
    assert_non_null(strstr(r.trace, "greedy: pc 10: 32 lanes repeat, last (7, 9); not a static"));
    /* a lone warp is always "all warps backed off": it is released and the
     * kernel takes as long as without a policy */
    run base;
    const char *const none[] = {"spin.policy=none", NULL};
    run_spinloop(none, 1, 12, 32, &base);
    assert_non_null(strstr(r.trace, "SM 0 warp slot 0 released from backoff (greedy"));
    assert_int_equal(r.cycles, base.cycles);
    g_free(r.trace);
    g_free(base.trace);
    /* one lane differs in every iteration: no backoff */
    run_spinloop(g300, 1, 12, 5, &r);
    assert_int_equal(backoffs(r.trace, len, 8), 0);
    g_free(r.trace);
    /* the static filter: the spinloop setp is no candidate, so nothing */
    const char *const filt[] = {"spin.policy=greedy", "greedy.static_filter=true", NULL};
    run_spinloop(filt, 1, 12, 32, &r);
    assert_int_equal(backoffs(r.trace, len, 8), 0);
    g_free(r.trace);
    /* ddos: the loop's counter setp changes, so no traversal spins */
    const char *const dd[] = {"spin.policy=ddos", NULL};
    run_spinloop(dd, 1, 12, 32, &r);
    assert_int_equal(backoffs(r.trace, len, 8), 0);
    g_free(r.trace);
    /* all warps backed off for a huge B: one still issues each slot, so the
     * kernel ends long before the backoff would */
    const char *const huge[] = {"spin.policy=greedy", "greedy.backoff=10000000", NULL};
    run_spinloop(huge, 2, 40, 32, &r);
    assert_true(backoffs(r.trace, len, 8) >= 2);
    assert_true(r.cycles < 100000);
    g_free(r.trace);
}

/* The global-increment lock kernel (spin seed Fig. 3 mapping: a warp's 32
 * lanes and two warps share a lock) at size tiny on gtx480. */
static void lock_run(const char *policy, const char *extra, uint64_t *digest, uint64_t *cycles,
                     uint64_t *backoff, char **trace, tm_core_counters *tot)
{
    size_t len;
    FILE *tf = trace ? open_memstream(trace, &len) : NULL;
    char set[64];
    snprintf(set, sizeof set, "spin.policy=%s", policy);
    const char *const sets[] = {set, extra, NULL};
    ptxemu_options o = {0};
    o.timing = policy != NULL;
    o.timing_config = "gtx480";
    o.timing_set = sets;
    o.memory_digest = 1;
    o.sched_trace = tf;
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    bench_outcome out = BENCH_ERROR;
    const bench_def *b = bench_find("global-increment");
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
    out = b->run(&env);
    if (out != BENCH_PASS)
        fail_msg("global-increment under %s: %s", policy, env.msg);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    *digest = c.memory_digest;
    *cycles = c.cycles;
    *backoff = 0;
    const tm_stats *st = ptxemu_timing_stats(ctx);
    for (guint i = 0; st && i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        for (uint32_t s = 0; s < k->ncores; s++) {
            *backoff += k->cores[s].warp_state[SCHED_WS_BACKOFF];
            if (tot)
                tm_core_counters_add(tot, &k->cores[s]);
        }
    }
    ptxemu_ctx_destroy(ctx);
    g_free(rel);
    g_free(path);
    if (tf)
        fclose(tf);
}

static void test_lock_kernel_end_to_end(void **state)
{
    (void)state;
    uint64_t d0, c0, b0, d, c, b;
    tm_core_counters n0 = {0}, g = {0}, dd = {0};
    lock_run("none", NULL, &d0, &c0, &b0, NULL, &n0);
    assert_int_equal(b0, 0);
    assert_int_equal(n0.spin_backoffs, 0);
    assert_int_equal(n0.spin_warps_backed_off, 0);
    /* every thread takes its lock once (tiny: 512 threads); a failed CAS
     * lane is a failed attempt, and with 64 lanes per lock there are some */
    assert_int_equal(n0.lock_acquisitions, 512);
    assert_true(n0.lock_failed_attempts > 0);
    char *t;
    /* greedy: the two setps of the lock loop (the static pass's candidates
     * at pcs 27 and 36) are where it backs warps off; none is false */
    lock_run("greedy", NULL, &d, &c, &b, &t, &g);
    assert_int_equal(d, d0);
    assert_true(b > 0);
    /* the stats JSON's spin counters: decisions, warps, cycles granted
     * (B each), (SM, PC) decision points: the two setps on the two SMs
     * that run the two CTAs */
    assert_true(g.spin_backoffs > 0);
    assert_true(g.spin_warps_backed_off > 0 && g.spin_warps_backed_off <= 16);
    assert_int_equal(g.spin_backoff_cycles, g.spin_backoffs * 1000);
    assert_true(g.spin_pcs >= 1 && g.spin_pcs <= 4);
    assert_int_equal(g.lock_acquisitions, 512);
    assert_non_null(strstr(t, "backed off until"));
    assert_non_null(strstr(t, "(greedy: pc 27: "));
    assert_non_null(strstr(t, " lanes repeat, last (1, 0))"));
    assert_non_null(strstr(t, "greedy: SM 0 summary: detections"));
    assert_non_null(strstr(t, ", false 0, "));
    assert_null(strstr(t, "not a static candidate"));
    g_free(t);
    /* ddos: the inner loop's backward branch (pc 37) becomes spin-inducing */
    lock_run("ddos", "ddos.threshold=2", &d, &c, &b, &t, &dd);
    assert_int_equal(d, d0);
    assert_true(b > 0);
    assert_non_null(strstr(t, "(ddos: branch pc 37 spin-inducing (confidence 3 > 2))"));
    /* one spin-inducing branch detected on the SM(s) that ran warps */
    assert_true(dd.spin_backoffs > 0 && dd.spin_warps_backed_off > 0);
    assert_true(dd.spin_pcs >= 1);
    assert_int_equal(dd.spin_backoff_cycles, dd.spin_backoffs * 1000);
    g_free(t);
}

/* Every spin policy x lock benchmark at size tiny: passes its CPU
 * reference, and device memory equals the functional run's. */
static void test_lock_benchmarks_memory(void **state)
{
    (void)state;
    static const char *const sets[][3] = {
        {"spin.policy=greedy", NULL, NULL},
        {"spin.policy=greedy", "greedy.static_filter=true", NULL},
        {"spin.policy=ddos", "ddos.threshold=2", NULL},
        {"spin.policy=ddos", "ddos.threshold=4", NULL},
    };
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    unsigned locks = 0;
    for (unsigned i = 0; i < n; i++) {
        const bench_def *b = all[i];
        if (!g_str_has_prefix(b->name, "global-increment") &&
            !g_str_has_prefix(b->name, "hashtable") && !g_str_has_prefix(b->name, "transactions"))
            continue;
        locks++;
        uint64_t ref = 0;
        for (int p = -1; p < (int)G_N_ELEMENTS(sets); p++) {
            ptxemu_options o = {0};
            o.memory_digest = 1;
            if (p >= 0) {
                o.timing = 1;
                o.timing_config = "gtx480";
                o.timing_set = sets[p];
            }
            ptxemu_ctx *ctx;
            if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
                fail_msg("context: %s", ptxemu_last_error(ctx));
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
            bench_outcome out = b->run(&env);
            const char *how = p < 0 ? "functional" : sets[p][1] ? sets[p][1] : sets[p][0];
            if (out != BENCH_PASS)
                fail_msg("%s (%s): %s", b->name, how, env.msg);
            ptxemu_counters c;
            ptxemu_get_counters(ctx, &c);
            if (p < 0)
                ref = c.memory_digest;
            else if (c.memory_digest != ref)
                fail_msg("%s under %s: device memory differs from the functional run",
                         b->name, how);
            ptxemu_ctx_destroy(ctx);
            g_free(rel);
            g_free(path);
        }
    }
    assert_true(locks >= 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_five_equal),
        cmocka_unit_test(test_greedy_keys),
        cmocka_unit_test(test_ddos_counter_rule),
        cmocka_unit_test(test_ddos_table),
        cmocka_unit_test(test_release_rule),
        cmocka_unit_test(test_false_memory),
        cmocka_unit_test(test_spinloop_end_to_end),
        cmocka_unit_test(test_lock_kernel_end_to_end),
        cmocka_unit_test(test_lock_benchmarks_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
