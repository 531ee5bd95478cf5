/* tests/timing/test_cluster_cta.c — the ICC seed's clustered CTA policies
 * (sched/cta/two_level_rr.c, global_rr.c, greedy_cluster.c, distributed.c,
 * distributed_block.c, bcs.c) through the real scheduler:
 *   - Fig. 6 (SEED-TARGETS.md §7 and §8): 10 CTAs, 2 clusters x 2 SMs, 2
 *     slots per SM: which CTAs each SM holds at first, and where the next
 *     CTA goes once CTA 0 (the seed's CTA 1) finishes -- including the
 *     delayed mapping of distributed-block, which refills an SM only once
 *     both CTAs of its pair are done;
 *   - the documented gaps: pools when n mod clusters != 0, stealing off
 *     (a cluster's SMs run only their pool) and on, odd slot counts;
 *   - every run's answer equals the CPU reference.
 * CTAs are numbered from 0 here; the seed numbers them from 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* out[g] = iters[cta] * (iters[cta] - 1) / 2 + g; CTA c loops iters[c] times. */
#define KERNEL_FILE "tests/corpus/sched/ctaspin.ptx"
#define BLOCK 64u
#define MAX_CTAS 64u

/* One placement or completion from the decision trace. */
typedef struct cta_ev {
    bool placed;             /* false: finished */
    uint64_t cycle;
    uint32_t cta, sm;
} cta_ev;

typedef struct run {
    GArray *ev;              /* cta_ev in trace order */
    int32_t sm_of[MAX_CTAS]; /* SM each CTA ran on */
} run;

static void parse_trace(const char *t, run *r)
{
    r->ev = g_array_new(FALSE, FALSE, sizeof(cta_ev));
    for (uint32_t i = 0; i < MAX_CTAS; i++)
        r->sm_of[i] = -1;
    /* line by line through copies: g_strsplit's strstr and sscanf on the
     * whole remaining trace each cost its length under ASan (its strstr
     * interceptor measures the haystack on every call), which made this
     * test quadratic in the trace's length there */
    for (const char *p = t; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *l = g_strndup(p, n);
        p += nl ? n + 1 : n;
        unsigned long long cyc;
        unsigned k, cta, sm;
        cta_ev e = {0};
        bool placed = sscanf(l, "cycle %llu: kernel %u CTA %u -> SM %u", &cyc, &k, &cta, &sm) == 4;
        bool finished = !placed && sscanf(l, "cycle %llu: kernel %u CTA %u finished on SM %u",
                                          &cyc, &k, &cta, &sm) == 4;
        g_free(l);
        if (placed)
            e.placed = true;
        else if (!finished)
            continue;
        assert_true(cta < MAX_CTAS);
        e.cycle = cyc;
        e.cta = cta;
        e.sm = sm;
        g_array_append_val(r->ev, e);
        if (e.placed) {
            if (r->sm_of[cta] >= 0)
                fail_msg("CTA %u placed twice", cta);
            r->sm_of[cta] = (int32_t)sm;
        }
    }
}

/* Runs ctaspin over `n` CTAs with iters[c] on the icc60 preset shrunk by
 * `sets`, under CTA policy `policy`; checks the answer against the CPU
 * reference and parses the decision trace into r. */
static void run_spin(const char *policy, const char *const *extra, uint32_t n,
                     const uint32_t *iters, run *r)
{
    const char *sets[16];
    unsigned ns = 0;
    char *pol = g_strdup_printf("cta.policy=%s", policy);
    sets[ns++] = pol;
    for (unsigned i = 0; extra && extra[i]; i++)
        sets[ns++] = extra[i];
    sets[ns] = NULL;
    char *trace = NULL;
    size_t len = 0;
    FILE *tf = open_memstream(&trace, &len);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "icc60";
    o.timing_set = sets;
    o.sched_trace = tf;
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    char *path = test_source_path(KERNEL_FILE);
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    g_free(path);
    uint32_t threads = n * BLOCK;
    ptxemu_dptr di, dout;
    assert_int_equal(ptxemu_malloc(ctx, &di, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &dout, threads * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, di, iters, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, dout, 0, threads * 4), PTXEMU_OK);
    void *args[2] = {&di, &dout};
    ptxemu_launch_desc d = {mod, "ctaspin", {n, 1, 1}, {BLOCK, 1, 1}, 0, args, 0, -1};
    if (ptxemu_launch_batch(ctx, &d, 1) != PTXEMU_OK)
        fail_msg("%s: %s", policy, ptxemu_last_error(ctx));
    uint32_t *out = g_new(uint32_t, threads);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, out, dout, threads * 4), PTXEMU_OK);
    for (uint32_t g = 0; g < threads; g++) {
        uint32_t it = iters[g / BLOCK], want = it ? it * (it - 1) / 2 + g : g;
        if (out[g] != want)
            fail_msg("%s: out[%u] = %u, expected %u", policy, g, out[g], want);
    }
    g_free(out);
    ptxemu_ctx_destroy(ctx);
    fclose(tf);
    parse_trace(trace, r);
    free(trace);
    g_free(pol);
    for (uint32_t c = 0; c < n; c++)
        if (r->sm_of[c] < 0)
            fail_msg("%s: CTA %u never placed", policy, c);
}

static void run_free(run *r)
{
    g_array_free(r->ev, TRUE);
}

/* Index of the event (placed or finished) of CTA c. */
static guint ev_index(const run *r, bool placed, uint32_t c)
{
    for (guint i = 0; i < r->ev->len; i++) {
        const cta_ev *e = &g_array_index(r->ev, cta_ev, i);
        if (e->placed == placed && e->cta == c)
            return i;
    }
    fail_msg("no %s event for CTA %u", placed ? "placement" : "finish", c);
    return 0;
}

/* ------------------------------------------------------------- Fig. 6 */

/* 2 clusters x 2 SMs (SM 0, 1 form cluster 0), 2 CTA slots each. */
static const char *const fig6_sets[] = {"gpu.num_sms=4", "gpu.sms_per_cluster=2",
                                        "core.max_ctas=2", NULL};
/* CTA 0 finishes first, CTA 1 next, the rest much later. */
static const uint32_t fig6_iters[10] = {1, 80, 900, 900, 900, 900, 900, 900, 900, 900};

typedef struct fig6_row {
    const char *policy;
    int32_t initial[8];      /* SM of CTAs 0..7 at first (-1: not among them) */
    uint32_t initial_ctas[8];/* the eight CTAs placed first */
    uint32_t after_cta, after_sm; /* the first CTA placed once CTA 0 finished */
    bool waits_for_cta1;     /* distributed-block: nothing until CTA 1 finished too */
} fig6_row;

/* The §7 table, 0-based; sets per SM (SM0, SM1 | SM2, SM3):
 *   2lrr:    {0,4} {2,6} | {1,5} {3,7}; CTA 8 -> SM 0
 *   grr:     {0,4} {1,5} | {2,6} {3,7}; CTA 8 -> SM 0
 *   greedy:  {0,2} {1,3} | {4,6} {5,7}; CTA 8 -> SM 0
 *   distributed: pools 0-4, 5-9; {0,2} {1,3} | {5,7} {6,8}; CTA 4 -> SM 0
 *   distributed-block: {0,1} {2,3} | {5,6} {7,8}; none, then CTA 4 -> SM 0
 *   bcs (no clusters): {0,1} {2,3} | {4,5} {6,7}; pairs wait for 2 slots */
static const fig6_row fig6[] = {
    {"2lrr", {0, 2, 1, 3, 0, 2, 1, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, 8, 0, false},
    {"grr", {0, 1, 2, 3, 0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, 8, 0, false},
    {"greedy-cluster", {0, 1, 0, 1, 2, 3, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, 8, 0, false},
    {"distributed", {0, 1, 0, 1, 2, 3, 2, 3}, {0, 1, 2, 3, 5, 6, 7, 8}, 4, 0, false},
    {"distributed-block", {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1, 2, 3, 5, 6, 7, 8}, 4, 0, true},
    {"bcs", {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, 8, 0, true},
};

static void check_fig6(const fig6_row *row)
{
    run r;
    run_spin(row->policy, fig6_sets, 10, fig6_iters, &r);
    /* the first eight placements fill the 8 slots: which CTAs, on which SMs */
    uint32_t filled[8];
    for (guint i = 0, k = 0; k < 8; i++) {
        assert_true(i < r.ev->len);
        const cta_ev *e = &g_array_index(r.ev, cta_ev, i);
        if (!e->placed)
            fail_msg("%s: CTA %u finished before the 8 slots filled", row->policy, e->cta);
        filled[k++] = e->cta;
    }
    for (unsigned k = 0; k < 8; k++) {
        bool found = false;
        for (unsigned j = 0; j < 8; j++)
            found |= filled[j] == row->initial_ctas[k];
        if (!found)
            fail_msg("%s: CTA %u is not among the first eight placed", row->policy,
                     row->initial_ctas[k]);
        uint32_t c = row->initial_ctas[k];
        if (r.sm_of[c] != row->initial[k])
            fail_msg("%s: CTA %u on SM %d, expected SM %d", row->policy, c, r.sm_of[c],
                     row->initial[k]);
    }
    /* after CTA 0 finishes: the next placement */
    guint f0 = ev_index(&r, false, 0);
    guint next = f0 + 1;
    while (next < r.ev->len && !g_array_index(r.ev, cta_ev, next).placed)
        next++;
    assert_true(next < r.ev->len);
    const cta_ev *e = &g_array_index(r.ev, cta_ev, next);
    if (row->waits_for_cta1) {
        /* delayed mapping: no placement between CTA 0's and CTA 1's ends */
        guint f1 = ev_index(&r, false, 1);
        if (next < f1)
            fail_msg("%s: CTA %u placed on SM %u after CTA 0 finished, before CTA 1 did",
                     row->policy, e->cta, e->sm);
        /* CTAs 0 and 1 shared SM 0: its two free slots take the next block */
        assert_int_equal(e->cta, row->after_cta);
        assert_int_equal(e->sm, row->after_sm);
        assert_int_equal(r.sm_of[1], 0);
    } else {
        assert_int_equal(e->cta, row->after_cta);
        assert_int_equal(e->sm, row->after_sm);
        /* placed as soon as the slot freed (same or next cycle) */
        uint64_t fin = g_array_index(r.ev, cta_ev, f0).cycle;
        assert_true(e->cycle <= fin + 1);
    }
    run_free(&r);
}

static void test_fig6_2lrr(void **s) { (void)s; check_fig6(&fig6[0]); }
static void test_fig6_grr(void **s) { (void)s; check_fig6(&fig6[1]); }
static void test_fig6_greedy_cluster(void **s) { (void)s; check_fig6(&fig6[2]); }
static void test_fig6_distributed(void **s) { (void)s; check_fig6(&fig6[3]); }
static void test_fig6_distributed_block(void **s) { (void)s; check_fig6(&fig6[4]); }
static void test_fig6_bcs(void **s) { (void)s; check_fig6(&fig6[5]); }

/* Distributed refills from the cluster's own pool for the whole run: every
 * CTA of pool {0-4} runs in cluster 0, every CTA of {5-9} in cluster 1,
 * whatever the finishing order. */
static void test_distributed_pools_hold(void **state)
{
    (void)state;
    const char *const pols[] = {"distributed", "distributed-block"};
    for (unsigned p = 0; p < 2; p++) {
        run r;
        run_spin(pols[p], fig6_sets, 10, fig6_iters, &r);
        for (uint32_t c = 0; c < 10; c++)
            if ((uint32_t)r.sm_of[c] / 2 != (c < 5 ? 0u : 1u))
                fail_msg("%s: CTA %u ran on SM %d, outside its pool's cluster", pols[p], c,
                         r.sm_of[c]);
        run_free(&r);
    }
}

/* -------------------------------------------------------- the gaps */

/* n mod clusters != 0: 11 CTAs over 3 clusters -> pools 0-3, 4-7, 8-10 (the
 * first n mod C pools hold one more); one SM per cluster, one slot. */
static void test_pool_split_remainder(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=3", "gpu.sms_per_cluster=1", "core.max_ctas=1",
                                NULL};
    uint32_t iters[11];
    for (unsigned i = 0; i < 11; i++)
        iters[i] = 20 + 7 * i;
    run r;
    run_spin("distributed", sets, 11, iters, &r);
    const uint32_t cluster_of[11] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2};
    for (uint32_t c = 0; c < 11; c++)
        assert_int_equal(r.sm_of[c], cluster_of[c]);
    /* each pool is run in id order on its cluster */
    assert_true(ev_index(&r, true, 0) < ev_index(&r, true, 1));
    assert_true(ev_index(&r, true, 9) < ev_index(&r, true, 10));
    run_free(&r);
}

/* Stealing: cluster 1's pool (CTAs 4-7) is quick, cluster 0's (0-3) slow.
 * Off (default): cluster 1 idles once its pool is empty.  On: it takes
 * from the end of cluster 0's pool (CTA 3 first, then 2). */
static void test_stealing(void **state)
{
    (void)state;
    const uint32_t iters[8] = {900, 900, 900, 900, 5, 5, 5, 5};
    const char *const off[] = {"gpu.num_sms=2", "gpu.sms_per_cluster=1", "core.max_ctas=1",
                               NULL};
    const char *const on[] = {"gpu.num_sms=2", "gpu.sms_per_cluster=1", "core.max_ctas=1",
                              "distributed.steal=true", NULL};
    run r;
    run_spin("distributed", off, 8, iters, &r);
    for (uint32_t c = 0; c < 8; c++)
        assert_int_equal(r.sm_of[c], c < 4 ? 0 : 1);
    run_free(&r);
    run_spin("distributed", on, 8, iters, &r);
    /* CTA 0 runs on SM 0 while cluster 1 empties its pool, then steals the
     * tail of pool 0: CTA 3, then CTA 2 (CTA 1 goes to SM 0 when CTA 0 ends) */
    assert_int_equal(r.sm_of[0], 0);
    assert_int_equal(r.sm_of[3], 1);
    assert_true(ev_index(&r, true, 3) < ev_index(&r, true, 1));
    for (uint32_t c = 4; c < 8; c++)
        assert_int_equal(r.sm_of[c], 1);
    run_free(&r);
}

/* A cluster whose SMs are all gated by another policy (the throttle
 * filter keeps SMs 0 and 1 only) leaves its pool open: cluster 0 runs all
 * ten CTAs instead of the kernel deadlocking. */
static void test_gated_cluster_pool_open(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=4", "gpu.sms_per_cluster=2", "core.max_ctas=2",
                                "cta.filters=throttle", "throttle.active_sms=2",
                                "throttle.burst=1000", NULL};
    const char *const pols[] = {"distributed", "distributed-block"};
    for (unsigned p = 0; p < 2; p++) {
        run r;
        run_spin(pols[p], sets, 10, fig6_iters, &r);
        for (uint32_t c = 0; c < 10; c++)
            if (r.sm_of[c] > 1)
                fail_msg("%s: CTA %u on gated SM %d", pols[p], c, r.sm_of[c]);
        run_free(&r);
    }
}

/* Odd slot count: 3 slots per SM, blocks of 2.  An SM starts a block only
 * with 2 free slots, so the third slot waits: SM 0 (pool 0-3) holds CTAs
 * 0 and 1 at first, and CTAs 2 and 3 are placed together after one of
 * them finishes. */
static void test_odd_slots(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=2", "gpu.sms_per_cluster=1", "core.max_ctas=3",
                                NULL};
    const uint32_t iters[8] = {30, 600, 600, 600, 600, 600, 600, 600};
    run r;
    run_spin("distributed-block", sets, 8, iters, &r);
    guint f0 = ev_index(&r, false, 0), p2 = ev_index(&r, true, 2), p3 = ev_index(&r, true, 3);
    if (p2 < f0)
        fail_msg("CTA 2 placed in SM 0's odd slot before a second slot freed");
    assert_int_equal(r.sm_of[2], 0);
    assert_int_equal(r.sm_of[3], 0);
    assert_true(p3 > p2);
    /* the block's second CTA follows its first by one cycle (one CTA per
     * SM per cycle) */
    assert_int_equal(g_array_index(r.ev, cta_ev, p3).cycle,
                     g_array_index(r.ev, cta_ev, p2).cycle + 1);
    run_free(&r);
}

/* A block larger than an SM can hold shrinks to what it holds (no
 * deadlock): blocks of 4 with 2 slots place pairs. */
static void test_block_larger_than_slots(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=4", "gpu.sms_per_cluster=2", "core.max_ctas=2",
                                "distributed-block.block=4", NULL};
    run r;
    run_spin("distributed-block", sets, 10, fig6_iters, &r);
    assert_int_equal(r.sm_of[0], 0);
    assert_int_equal(r.sm_of[1], 0);
    assert_int_equal(r.sm_of[2], 1);
    assert_int_equal(r.sm_of[3], 1);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig6_2lrr),
        cmocka_unit_test(test_fig6_grr),
        cmocka_unit_test(test_fig6_greedy_cluster),
        cmocka_unit_test(test_fig6_distributed),
        cmocka_unit_test(test_fig6_distributed_block),
        cmocka_unit_test(test_fig6_bcs),
        cmocka_unit_test(test_distributed_pools_hold),
        cmocka_unit_test(test_pool_split_remainder),
        cmocka_unit_test(test_stealing),
        cmocka_unit_test(test_gated_cluster_pool_open),
        cmocka_unit_test(test_odd_slots),
        cmocka_unit_test(test_block_larger_than_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
