/* tests/timing/test_laperm.c — device-side launches on the timing model and
 * the LaPerm TB schedulers, through the real scheduler (ptxemu_launch and
 * the decision trace):
 *   - the RR baseline's §6 example: 100 TBs on 13 SMXs with 3 per SMX:
 *     SMX0 gets 0, 13, 26; TB39 goes to the SMX that frees first (SMX4,
 *     where TB17 ends early);
 *   - the §6 Fig. 4 rounds (4 SMXs, 1 TB each, P2 launches C0-C1, P4
 *     launches C2-C5) for rr, laperm-tbpri, laperm-smxbind and
 *     laperm-adaptive: which TBs run in which round and on which SMX, as
 *     the seed's text states it (FIG4_DUMP=1 prints the placements);
 *   - every TB policy x the device-launch test kernels x {cdp, dtbl}: the
 *     answers the CPU computes (which the functional run also gives,
 *     tests/runtime/test_cdp.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/api_internal.h"
#include "timing/stats.h"
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAPERM_PTX "tests/corpus/cdp/laperm.sm_90.ptx"
#define CDP_PTX "tests/corpus/cdp/cdp_launch.sm_90.ptx"
#define DEVICE_IDS (1u << 30) /* device-launched grids' ids start here (docs/cdp.md) */

typedef struct world {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    char *trace;
    size_t trace_len;
    FILE *trace_f;
} world;

static void world_open(world *w, const char *ptx, const char *const *sets)
{
    memset(w, 0, sizeof *w);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_set = sets;
    w->trace_f = open_memstream(&w->trace, &w->trace_len);
    o.sched_trace = w->trace_f;
    ptxemu_status st = ptxemu_ctx_create(&w->ctx, &o);
    if (st != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(w->ctx));
    char *path = test_source_path(ptx);
    assert_int_equal(ptxemu_module_load_file(w->ctx, path, &w->mod), PTXEMU_OK);
    g_free(path);
}

static void world_close(world *w)
{
    ptxemu_ctx_destroy(w->ctx);
    fclose(w->trace_f);
    g_free(w->trace);
}

/* One placement from the trace: "cycle C: kernel K CTA c -> SM s". */
typedef struct placement {
    uint64_t cycle;
    uint32_t kernel, cta, sm;
    int round;
} placement;

static GArray *placements(world *w)
{
    fflush(w->trace_f);
    GArray *a = g_array_new(FALSE, FALSE, sizeof(placement));
    char **lines = g_strsplit(w->trace, "\n", -1);
    for (char **l = lines; *l; l++) {
        placement p = {0};
        unsigned long long c;
        if (sscanf(*l, "cycle %llu: kernel %u CTA %u -> SM %u", &c, &p.kernel, &p.cta,
                   &p.sm) == 4) {
            p.cycle = c;
            g_array_append_val(a, p);
        }
    }
    g_strfreev(lines);
    return a;
}

static const placement *find(const GArray *a, uint32_t kernel, uint32_t cta)
{
    for (guint i = 0; i < a->len; i++) {
        const placement *p = &g_array_index(a, placement, i);
        if (p->kernel == kernel && p->cta == cta)
            return p;
    }
    fail_msg("kernel %u CTA %u was never placed", kernel, cta);
    return NULL;
}

static void test_rr_example(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.num_sms=13", "core.max_ctas=3", "cta.policy=rr", NULL};
    world w;
    world_open(&w, LAPERM_PTX, sets);
    int done[100] = {0};
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(w.ctx, &d, sizeof done), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(w.ctx, d, 0, sizeof done), PTXEMU_OK);
    int quick = 17, spin = 400;
    void *args[] = {&d, &quick, &spin};
    assert_int_equal(ptxemu_launch(w.mod, "_Z10rr_examplePiii", (ptxemu_dim3){100, 1, 1},
                                   (ptxemu_dim3){1, 1, 1}, 0, args),
                     PTXEMU_OK);
    GArray *a = placements(&w);
    assert_int_equal(a->len, 100);
    /* the first three rounds: TB i on SMX i mod 13, so SMX0 holds 0, 13, 26 */
    for (uint32_t i = 0; i < 39; i++)
        assert_int_equal(find(a, 1, i)->sm, i % 13);
    /* TB17 ends first: its SMX (4) takes TB39 */
    assert_int_equal(find(a, 1, 39)->sm, 17 % 13);
    assert_true(find(a, 1, 39)->cycle < find(a, 1, 40)->cycle);
    assert_int_equal(ptxemu_memcpy_dtoh(w.ctx, done, d, sizeof done), PTXEMU_OK);
    for (int i = 0; i < 100; i++)
        assert_int_equal(done[i], 1);
    g_array_free(a, TRUE);
    world_close(&w);
}

/* The Fig. 4 TBs: P0..P7 are kernel 1's CTAs; C0-C1 the first child grid,
 * C2-C5 the second. */
static const placement *fig4_tb(const GArray *a, const char *name)
{
    int n = name[1] - '0';
    if (name[0] == 'P')
        return find(a, 1, (uint32_t)n);
    return n < 2 ? find(a, DEVICE_IDS + 1, (uint32_t)n) : find(a, DEVICE_IDS + 2, (uint32_t)n - 2);
}

/* Rounds: placements more than a third of a CTA's run time apart start a
 * new round (a launching parent ends a few dozen cycles after the rest). */
static void number_rounds(GArray *a)
{
    int round = 1;
    for (guint i = 0; i < a->len; i++) {
        placement *p = &g_array_index(a, placement, i);
        if (i > 0 && p->cycle - g_array_index(a, placement, i - 1).cycle > 2000)
            round++;
        p->round = round;
    }
}

/* rounds[r] lists the TBs of round r + 1, space separated; "C3@3" also
 * names the SMX the seed puts it on (a TB without "@" is checked for its
 * round only). */
static void expect_rounds(const GArray *a, const char *const *rounds, unsigned nrounds,
                          const char *policy)
{
    unsigned total = 0;
    if (getenv("FIG4_DUMP"))
        for (guint i = 0; i < a->len; i++) {
            const placement *q = &g_array_index(a, placement, i);
            fprintf(stderr, "%s: cycle %llu kernel %u cta %u sm %u round %d\n", policy,
                    (unsigned long long)q->cycle, q->kernel, q->cta, q->sm, q->round);
        }
    for (unsigned r = 0; r < nrounds; r++) {
        char **tbs = g_strsplit(rounds[r], " ", -1);
        for (char **t = tbs; *t; t++, total++) {
            const placement *p = fig4_tb(a, *t);
            if (p->round != (int)r + 1)
                fail_msg("%s: %.2s ran in round %d, the seed says %u", policy, *t, p->round,
                         r + 1);
            const char *at = strchr(*t, '@');
            if (at && p->sm != (uint32_t)atoi(at + 1))
                fail_msg("%s: %.2s ran on SMX%u, the seed says SMX%s", policy, *t, p->sm, at + 1);
        }
        g_strfreev(tbs);
    }
    assert_int_equal(total, a->len);
}

static GArray *run_fig4_mode(world *w, const char *policy, const char *mode)
{
    char *pol = g_strdup_printf("cta.policy=%s", policy);
    char *md = g_strdup_printf("cdp.mode=%s", mode);
    const char *sets[] = {"gpu.num_sms=4", "core.max_ctas=1", "cdp.launch_latency=10",
                          "cdp.launch_latency_per_lane=0", pol, md, NULL};
    world_open(w, LAPERM_PTX, sets);
    g_free(pol);
    g_free(md);
    int done[14];
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(w->ctx, &d, sizeof done), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(w->ctx, d, 0, sizeof done), PTXEMU_OK);
    int first = 0, spin = 3000;
    void *args[] = {&d, &first, &spin};
    assert_int_equal(ptxemu_launch(w->mod, "_Z4fig4Piii", (ptxemu_dim3){8, 1, 1},
                                   (ptxemu_dim3){64, 1, 1}, 0, args),
                     PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(w->ctx, done, d, sizeof done), PTXEMU_OK);
    for (int i = 0; i < 14; i++) /* every parent and child ran */
        assert_int_equal(done[i], 1);
    GArray *a = placements(w);
    number_rounds(a);
    return a;
}

static GArray *run_fig4(world *w, const char *policy)
{
    return run_fig4_mode(w, policy, "cdp");
}

static void test_tb_stats_dtbl(void **state)
{
    (void)state;
    world w;
    GArray *a = run_fig4_mode(&w, "laperm-smxbind", "dtbl");
    const tm_stats *st = ptxemu_timing_stats(w.ctx);
    assert_int_equal(st->kernels->len, 1); /* the children joined kernel 1 */
    const tm_kernel_stats *k = g_ptr_array_index(st->kernels, 0);
    assert_non_null(k->tbs);
    assert_int_equal(k->tbs->len, 14);
    uint32_t sm_of[8] = {0};
    for (guint i = 0; i < k->tbs->len; i++) {
        const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, i);
        assert_int_equal(t->sm, find(a, 1, t->cta)->sm); /* as the trace says */
        if (t->cta < 8)
            sm_of[t->cta] = t->sm;
    }
    for (guint i = 0; i < k->tbs->len; i++) {
        const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, i);
        if (t->cta < 8) {
            assert_int_equal(t->depth, 0);
            /* Fig. 2 by hand: every TB touches only the one line of done[],
             * so P2's and P4's children share all of it with them (pc/c = 1),
             * the other parents have no children, and every parent shares
             * its line with the other parents */
            if (t->cta == 2 || t->cta == 4)
                assert_true(t->children_shared == 1.0);
            else
                assert_true(t->children_shared < 0);
            assert_true(t->shared_with_grid == 1.0);
            continue;
        }
        /* TBs 8-9 are C0-C1 (P2's), 10-13 are C2-C5 (P4's) */
        assert_int_equal(t->depth, 1);
        assert_int_equal(t->parent_kernel, 1);
        assert_int_equal(t->parent_cta, t->cta < 10 ? 2 : 4);
        assert_int_equal(t->parent_sm, sm_of[t->parent_cta]);
        assert_int_equal(t->sm, t->parent_sm); /* SMX-Bind: on the parent's SMX */
        assert_true(t->launch_cycle < t->issue_cycle);
        /* the parent stores done[p], the child done[8..13]: both in the one
         * 128-byte line of the 56-byte buffer (allocations are 256-aligned) */
        assert_true(t->shared_with_parent == 1.0);
        assert_true(t->shared_with_siblings == 1.0); /* cos/cs = 1 line / 1 line */
    }
    g_array_free(a, TRUE);
    world_close(&w);
}

static void test_fig4_rr(void **state)
{
    (void)state;
    world w;
    GArray *a = run_fig4(&w, "rr");
    /* Fig. 4(b): one TB per SMX in round-robin order, the children after
     * every parent (SEED-TARGETS §6: R3 C0-C3 on SMX0-3, R4 C4, C5 on SMX0, 1) */
    const char *rounds[] = {"P0@0 P1@1 P2@2 P3@3", "P4@0 P5@1 P6@2 P7@3", "C0@0 C1@1 C2@2 C3@3",
                            "C4@0 C5@1"};
    expect_rounds(a, rounds, 4, "rr");
    g_array_free(a, TRUE);
    world_close(&w);
}

static void test_fig4_tbpri(void **state)
{
    (void)state;
    world w;
    GArray *a = run_fig4(&w, "laperm-tbpri");
    /* Fig. 4(c): "C0 on SMX0, C1 on SMX1, P4 on SMX2 and P5 on SMX3"; "TB C4
     * is now executed on SMX2 immediately after P4", so round 3 is C2-C5 on
     * SMX0-3 (the text's "SMX0-SMX1" there cannot hold four TBs, SEED-TARGETS
     * §6 [conflict]); P6, P7 go in the final round, SMX unstated. */
    const char *rounds[] = {"P0@0 P1@1 P2@2 P3@3", "C0@0 C1@1 P4@2 P5@3", "C2@0 C3@1 C4@2 C5@3",
                            "P6 P7"};
    expect_rounds(a, rounds, 4, "laperm-tbpri");
    g_array_free(a, TRUE);
    world_close(&w);
}

static void test_fig4_smxbind(void **state)
{
    (void)state;
    world w;
    GArray *a = run_fig4(&w, "laperm-smxbind");
    /* Fig. 4(d): C0, C1 bound to P2's SMX2 in rounds 2 and 3, C2-C5 to P4's
     * SMX0 in rounds 3-6 (the text's "SMX4" is SMX0, SEED-TARGETS §6); the
     * parents round-robin over the SMXs with room; SMX3 idles from round 3 */
    const char *rounds[] = {"P0@0 P1@1 P2@2 P3@3", "P4@0 P5@1 C0@2 P6@3", "C2@0 P7@1 C1@2",
                            "C3@0", "C4@0", "C5@0"};
    expect_rounds(a, rounds, 6, "laperm-smxbind");
    /* children run on their parent's SMX, nowhere else */
    uint32_t p2 = fig4_tb(a, "P2")->sm, p4 = fig4_tb(a, "P4")->sm;
    for (int c = 0; c < 6; c++) {
        char name[3] = {'C', (char)('0' + c), 0};
        assert_int_equal(fig4_tb(a, name)->sm, c < 2 ? p2 : p4);
    }
    g_array_free(a, TRUE);
    world_close(&w);
}

static void test_fig4_adaptive(void **state)
{
    (void)state;
    world w;
    GArray *a = run_fig4(&w, "laperm-adaptive");
    /* Fig. 4(e): as SMX-Bind through round 2; in round 3 SMX3, with no
     * bound children and no parents left, takes C3 from SMX0's queue (its
     * backup); "a similar procedure applies in the fourth round on SMX1"
     * (C5), while C4 stays on SMX0: P2 with C0-C1 and P4 with C2, C4 share
     * their SMX. */
    const char *rounds[] = {"P0@0 P1@1 P2@2 P3@3", "P4@0 P5@1 C0@2 P6@3",
                            "C2@0 P7@1 C1@2 C3@3", "C4@0 C5@1"};
    expect_rounds(a, rounds, 4, "laperm-adaptive");
    g_array_free(a, TRUE);
    world_close(&w);
}

/* fan (CDP_PTX): one parent CTA of 32 threads, each launching a child over
 * its 32 ints of a zeroed buffer; returns the run's statistics. */
static const tm_stats *run_fan(world *w)
{
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(w->ctx, &d, 32 * 32 * sizeof(int)), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(w->ctx, d, 0, 32 * 32 * sizeof(int)), PTXEMU_OK);
    int n = 32 * 32;
    void *args[] = {&d, &n};
    assert_int_equal(ptxemu_launch(w->mod, "_Z3fanPii", (ptxemu_dim3){1, 1, 1},
                                   (ptxemu_dim3){32, 1, 1}, 0, args),
                     PTXEMU_OK);
    return ptxemu_timing_stats(w->ctx);
}

/* The cdp launch latency with its defaults (docs/cdp.md): the 32 lanes of one
 * warp instruction each launch a child; the k-th reaches the KMU
 * cdp.launch_latency + k x cdp.launch_latency_per_lane = 20000 + 1700k
 * cycles after the instruction, so with an idle GPU the children's waits
 * (launch to issue) step by 1700 cycles and the first is at least 21,700. */
static void test_launch_latency(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.num_sms=4", "cdp.mode=cdp", NULL};
    world w;
    world_open(&w, CDP_PTX, sets);
    const tm_stats *st = run_fan(&w);
    uint64_t waits[32] = {0};
    unsigned nw = 0;
    uint64_t launch = 0;
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        for (guint j = 0; k->tbs && j < k->tbs->len; j++) {
            const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, j);
            if (t->depth != 1)
                continue;
            assert_true(nw < 32);
            if (nw == 0)
                launch = t->launch_cycle;
            assert_int_equal(t->launch_cycle, launch); /* one warp instruction */
            waits[nw++] = t->issue_cycle - t->launch_cycle;
        }
    }
    assert_int_equal(nw, 32);
    for (unsigned i = 1; i < nw; i++) /* sort */
        for (unsigned j = i; j > 0 && waits[j - 1] > waits[j]; j--) {
            uint64_t x = waits[j];
            waits[j] = waits[j - 1];
            waits[j - 1] = x;
        }
    assert_true(waits[0] >= 20000 + 1700);
    for (unsigned i = 1; i < nw; i++)
        assert_int_equal(waits[i] - waits[i - 1], 1700);
    world_close(&w);
}

/* One warp instruction of `fan` launches 32 children on an idle 4-SM GPU;
 * returns the shortest child wait (launch instruction to issue). */
static uint64_t fan_min_wait(const char *policy, const char *mode, const char *setup)
{
    char *pol = g_strdup_printf("cta.policy=%s", policy);
    char *md = g_strdup_printf("cdp.mode=%s", mode);
    char *su = g_strdup_printf("cdp.dtbl_latency=%s", setup);
    const char *sets[] = {"gpu.num_sms=4", pol, md, su, "cdp.launch_latency=1000",
                          "cdp.launch_latency_per_lane=0", "cdp.kmu_search_latency=1",
                          "cdp.dtbl_insert_latency=128", "laperm-tbpri.levels=4", NULL};
    world w;
    world_open(&w, CDP_PTX, sets);
    g_free(pol);
    g_free(md);
    g_free(su);
    const tm_stats *st = run_fan(&w);
    uint64_t best = UINT64_MAX;
    /* Fig. 2 by hand: child i writes a[32i..32i+31], its own 128-byte line
     * (a is 256-aligned), so it shares none with its 31 siblings; the parent
     * touches no global memory: it shares none of its children's lines. */
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        for (guint j = 0; k->tbs && j < k->tbs->len; j++) {
            const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, j);
            if (t->depth == 1 && t->issue_cycle - t->launch_cycle < best)
                best = t->issue_cycle - t->launch_cycle;
            if (t->depth == 1) {
                assert_true(t->shared_with_siblings == 0.0);
                /* its atomicAdd reads its own line, which nothing touched before */
                assert_int_equal(t->reads, 1);
                assert_int_equal(t->reads_cold, 1);
                assert_int_equal(t->reads_l1 + t->reads_l2, 0);
            }
            else
                assert_true(t->children_shared == 0.0);
        }
    }
    world_close(&w);
    return best;
}

/* LaPerm's launch-path costs (sec. IV-E; configs/k20c.ini).  A dtbl group
 * joins its kernel's pool the cycle it arrives and its first TB issues the
 * next cycle (+1); a cdp child kernel that finds a free KDU entry issues its
 * first TB the cycle it reaches the KMU (+0).
 *   dtbl, rr:     setup 100                          -> 100 + 1
 *   dtbl, TB-Pri: max(setup 100, insert 128)         -> 128 + 1
 *   dtbl, TB-Pri: setup 200 hides the insert         -> 200 + 1
 *   cdp, rr:      1000 + 1 lane x 0                  -> 1000
 *   cdp, TB-Pri:  1000 + L (4) levels x 1 searched   -> 1004 */
static void test_launch_path_costs(void **state)
{
    (void)state;
    assert_int_equal(fan_min_wait("rr", "dtbl", "100"), 101);
    assert_int_equal(fan_min_wait("laperm-tbpri", "dtbl", "100"), 129);
    assert_int_equal(fan_min_wait("laperm-tbpri", "dtbl", "200"), 201);
    assert_int_equal(fan_min_wait("rr", "cdp", "100"), 1000);
    assert_int_equal(fan_min_wait("laperm-tbpri", "cdp", "100"), 1004);
}

/* Overflow to memory (cdp.dtbl_overflow_latency).  One warp instruction of
 * `fan` launches 32 TB groups from one SM whose queue holds 8: the first 8
 * take an on-chip entry and join at max(setup 100, insert 128) = 128; the
 * other 24 find it full (none is dispatched before they launch), write to
 * memory after the search and join at max(100, 128 + 300) = 428.  Their
 * first TBs issue a cycle or more after that. */
static void test_overflow_latency(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.num_sms=4", "cta.policy=laperm-tbpri", "cdp.mode=dtbl",
                          "cdp.dtbl_latency=100", "cdp.dtbl_insert_latency=128",
                          "cdp.dtbl_overflow_latency=300", "laperm-tbpri.levels=4",
                          "laperm-tbpri.queue_entries=8", NULL};
    world w;
    world_open(&w, CDP_PTX, sets);
    const tm_stats *st = run_fan(&w);
    unsigned early = 0, late = 0;
    uint64_t late_min = UINT64_MAX;
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        for (guint j = 0; k->tbs && j < k->tbs->len; j++) {
            const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, j);
            if (t->depth != 1)
                continue;
            uint64_t wait = t->issue_cycle - t->launch_cycle;
            assert_true(wait >= 129);
            if (wait < 429) {
                early++;
            } else {
                late++;
                late_min = wait < late_min ? wait : late_min;
            }
        }
    }
    assert_int_equal(early, 8);
    assert_int_equal(late, 24);
    assert_int_equal(late_min, 429);
    world_close(&w);
}

/* Reuse distance of child reads.  produce_then_consume(n = 200): the child
 * grid's 7 warps that have lanes below 200 each write one 128-byte line of a
 * (32 ints); then the tail launch's single thread reads a[0..200) one int
 * per instruction: 200 reads, none cold.  A line's first read comes after
 * the reads of the lines before it and at most 6 other lines' writes: line 6
 * (elements 192-199) at 192 + 6 = 198 accesses at most; its other reads at
 * distance 1.  So all are within a 32 KB L1's 256 lines, and the L2's. */
static void test_child_reuse(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.num_sms=4", "cdp.launch_latency=100", "l1d.size=32K", NULL};
    world w;
    world_open(&w, CDP_PTX, sets);
    ptxemu_dptr d, out;
    assert_int_equal(ptxemu_malloc(w.ctx, &d, 256 * sizeof(int)), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(w.ctx, &out, sizeof(int)), PTXEMU_OK);
    int m = 200;
    void *args[] = {&d, &m, &out};
    assert_int_equal(ptxemu_launch(w.mod, "_Z20produce_then_consumePiiS_",
                                   (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0, args),
                     PTXEMU_OK);
    const tm_stats *st = ptxemu_timing_stats(w.ctx);
    unsigned readers = 0;
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        for (guint j = 0; k->tbs && j < k->tbs->len; j++) {
            const tm_tb_stat *t = &g_array_index(k->tbs, tm_tb_stat, j);
            if (t->depth == 0 || !t->reads)
                continue;
            readers++;
            assert_int_equal(t->reads, 200);
            assert_int_equal(t->reads_cold, 0);
            assert_int_equal(t->reads_l1, 200);
            assert_int_equal(t->reads_l2, 200);
        }
    }
    assert_int_equal(readers, 1);
    world_close(&w);
}

/* Every TB policy x {cdp, dtbl} x the device-launch kernels: the CPU's answers. */
static void run_cdp_kernels(const char *policy, const char *mode)
{
    char *pol = g_strdup_printf("cta.policy=%s", policy);
    char *md = g_strdup_printf("cdp.mode=%s", mode);
    const char *sets[] = {"gpu.num_sms=4", pol, md, NULL};
    world w;
    world_open(&w, CDP_PTX, sets);
    enum { N = 64 };
    int a[N] = {0}, want[N] = {0};
    ptxemu_dptr d;
    assert_int_equal(ptxemu_malloc(w.ctx, &d, 256 * sizeof(int)), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(w.ctx, d, 0, 256 * sizeof(int)), PTXEMU_OK);
    int n = N;
    void *sargs[] = {&d, &n};
    assert_int_equal(ptxemu_launch(w.mod, "_Z7streamsPii", (ptxemu_dim3){2, 1, 1},
                                   (ptxemu_dim3){32, 1, 1}, 0, sargs),
                     PTXEMU_OK);
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < N; i++)
            want[i] += b + 1 + (i < 32 ? 1107 : 0);
    assert_int_equal(ptxemu_memcpy_dtoh(w.ctx, a, d, sizeof a), PTXEMU_OK);
    assert_memory_equal(a, want, sizeof a);
    /* nest to depth 3 */
    assert_int_equal(ptxemu_memset(w.ctx, d, 0, 256 * sizeof(int)), PTXEMU_OK);
    int depth = 0, maxdepth = 3;
    void *nargs[] = {&d, &depth, &maxdepth};
    assert_int_equal(ptxemu_launch(w.mod, "_Z4nestPiii", (ptxemu_dim3){1, 1, 1},
                                   (ptxemu_dim3){1, 1, 1}, 0, nargs),
                     PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(w.ctx, a, d, 5 * sizeof(int)), PTXEMU_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(a[i], 1 << i);
    assert_int_equal(a[4], 0);
    /* a child's writes, read by the tail launch */
    ptxemu_dptr out;
    assert_int_equal(ptxemu_malloc(w.ctx, &out, sizeof(int)), PTXEMU_OK);
    int m = 200;
    void *pargs[] = {&d, &m, &out};
    assert_int_equal(ptxemu_launch(w.mod, "_Z20produce_then_consumePiiS_",
                                   (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0, pargs),
                     PTXEMU_OK);
    int got = 0;
    assert_int_equal(ptxemu_memcpy_dtoh(w.ctx, &got, out, sizeof got), PTXEMU_OK);
    assert_int_equal(got, 3 * 199 * 200 / 2);
    world_close(&w);
    g_free(pol);
    g_free(md);
}

/* The limits stop a timing run as they stop a functional one. */
static void test_limits_timing(void **state)
{
    (void)state;
    const char *modes[] = {"cdp.mode=cdp", "cdp.mode=dtbl"};
    for (unsigned m = 0; m < 2; m++) {
        const char *sets[] = {"gpu.num_sms=4", "cdp.max_depth=2", modes[m], NULL};
        world w;
        world_open(&w, CDP_PTX, sets);
        ptxemu_dptr d;
        assert_int_equal(ptxemu_malloc(w.ctx, &d, 5 * sizeof(int)), PTXEMU_OK);
        int depth = 0, maxdepth = 3;
        void *args[] = {&d, &depth, &maxdepth};
        assert_int_equal(ptxemu_launch(w.mod, "_Z4nestPiii", (ptxemu_dim3){1, 1, 1},
                                       (ptxemu_dim3){1, 1, 1}, 0, args),
                         PTXEMU_ERR_LAUNCH_FAILED);
        assert_non_null(strstr(ptxemu_last_error(w.ctx),
                               "nesting depth 3 exceeds cdp.max_depth = 2"));
        world_close(&w);
    }
}

static void test_policies_modes(void **state)
{
    (void)state;
    const char *policies[] = {"rr", "laperm-tbpri", "laperm-smxbind", "laperm-adaptive"};
    for (unsigned p = 0; p < 4; p++) {
        run_cdp_kernels(policies[p], "cdp");
        run_cdp_kernels(policies[p], "dtbl");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rr_example),
        cmocka_unit_test(test_fig4_rr),
        cmocka_unit_test(test_fig4_tbpri),
        cmocka_unit_test(test_fig4_smxbind),
        cmocka_unit_test(test_fig4_adaptive),
        cmocka_unit_test(test_tb_stats_dtbl),
        cmocka_unit_test(test_launch_latency),
        cmocka_unit_test(test_launch_path_costs),
        cmocka_unit_test(test_overflow_latency),
        cmocka_unit_test(test_child_reuse),
        cmocka_unit_test(test_limits_timing),
        cmocka_unit_test(test_policies_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
