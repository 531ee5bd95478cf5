/* tests/timing/test_concurrent.c — the concurrent-kernel policies of
 * sched/kernel/ (thesis §5.4, SEED-TARGETS §4):
 *   - spatial bookkeeping on the Fig. 5.6 / 5.7 example, driven through the
 *     policy's hooks: K9 (128,128,1) next (19,18,1) 4096/128 on 9 cores,
 *     K10 (256,1,1) next (182,1,1) 2048/256 on 7, core 16 assigned K10 but
 *     still finishing 2 blocks of K9 (then switching when they end);
 *   - interleaved caps recomputed at launch and exit, from occupancy;
 *   - through the real scheduler (m2090, 64 warps per core): the 4+4 split
 *     (two kernels of 8-warp blocks hold at most 4 blocks each per core
 *     until the shorter one is fully issued, then the longer one takes more);
 *     spatial never mixes two kernels on a core; leftover starts the next
 *     kernel only after the current one has placed all its CTAs.  Every
 *     answer is checked against the CPU reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/ptxemu.h"
#include "sched/kernel/spatial.h"
#include "tests/support/sched_harness.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- hook-level bookkeeping */

/* A kernel-level policy on `nsms` cores of `warps` warp slots, `ctas` CTA
 * slots, `regs` registers and `shared` bytes each; keys at their defaults. */
static void open_policy(sched_harness *sh, const char *name, uint32_t nsms, uint32_t warps,
                        uint32_t ctas, uint32_t regs, uint32_t shared)
{
    sh_open(sh, SCHED_LEVEL_KERNEL, name);
    sh->env.nsms = nsms;
    sh->env.warp_slots = warps;
    sh->env.max_ctas = ctas;
    sh->env.sm_registers = regs;
    sh->env.sm_shared = shared;
    sh_start(sh);
}

static sched_kernel_info kinfo(uint32_t id, uint32_t gx, uint32_t gy, uint32_t regs,
                               uint32_t shared, uint32_t warps, uint32_t max_fit)
{
    sched_kernel_info k = {.id = id, .total_ctas = gx * gy, .max_fit = max_fit,
                           .warps_per_cta = warps, .grid = {gx, gy, 1}, .regs_per_cta = regs,
                           .shared_per_cta = shared};
    return k;
}

static void cta(sched_harness *sh, uint32_t kernel, uint32_t sm, bool issue)
{
    if (issue)
        sh_cta_issued(sh, kernel, 0, sm);
    else
        sh_cta_finished(sh, kernel, 0, sm);
}

static void test_spatial_fig_5_6(void **state)
{
    (void)state;
    sched_harness sh;
    open_policy(&sh, "spatial", 16, 48, 8, 32768, 48 * 1024);
    spatial_state *s = sh.st;
    sched_kernel_info k9 = kinfo(9, 128, 128, 4096, 128, 4, 8);
    sched_kernel_info k10 = kinfo(10, 256, 1, 2048, 256, 8, 8);
    sh_kernel_arrive(&sh, &k9);
    /* alone, K9 has every core */
    for (uint32_t c = 0; c < 16; c++) {
        assert_int_equal(s->b.cores[c].assigned, 0);
        assert_int_equal(s->b.cores[c].active, 0);
    }
    /* 2323 blocks of K9 issued (next = (19,18,1)), round robin over the
     * cores; all but the last 2 on core 15 (core "16") and 3 per even core
     * finish before K10 arrives */
    uint32_t on[16] = {0};
    for (uint32_t i = 0; i < 2323; i++) {
        cta(&sh, 9, i % 16, true);
        on[i % 16]++;
    }
    for (uint32_t c = 0; c < 16; c++) {
        uint32_t keep = c == 15 ? 2 : (c % 2 == 0 ? 3 : 0);
        for (; on[c] > keep; on[c]--)
            cta(&sh, 9, c, false);
    }
    sh_kernel_arrive(&sh, &k10);
    /* round robin: even cores K9, odd cores K10; drained odd cores switch
     * at once, core 15 still runs K9 */
    for (uint32_t c = 0; c < 16; c++) {
        assert_int_equal(s->b.cores[c].assigned, c % 2 ? 1 : 0);
        assert_int_equal(s->b.cores[c].active, c % 2 && c != 15 ? 1 : 0);
    }
    for (uint32_t i = 0; i < 182; i++) /* K10's blocks on its 7 active cores */
        cta(&sh, 10, 1 + 2 * (i % 7), true);
    const st_kernel_row *r9 = &s->b.rows[0], *r10 = &s->b.rows[1];
    uint32_t nb[3];
    /* Fig. 5.6 */
    assert_true(r9->valid && r9->id == 9);
    assert_int_equal(r9->grid[0], 128);
    assert_int_equal(r9->grid[1], 128);
    st_next_block(r9, nb);
    assert_int_equal(nb[0], 19);
    assert_int_equal(nb[1], 18);
    assert_int_equal(nb[2], 0); /* the figure's (19,18,1) counts z from 1 */
    assert_int_equal(r9->regs, 4096);
    assert_int_equal(r9->shared, 128);
    assert_int_equal(st_active_cores(&s->b, 0), 9);
    assert_true(r10->valid && r10->id == 10);
    assert_int_equal(r10->grid[0], 256);
    st_next_block(r10, nb);
    assert_int_equal(nb[0], 182);
    assert_int_equal(r10->regs, 2048);
    assert_int_equal(r10->shared, 256);
    assert_int_equal(st_active_cores(&s->b, 1), 7);
    /* Fig. 5.7: core 16 */
    assert_int_equal(s->b.cores[15].assigned, 1);
    assert_int_equal(s->b.cores[15].active, 0);
    assert_int_equal(st_active_blocks(&s->b, 0, 15), 2);
    /* rule 3: core 16 issues for neither kernel; even cores only K9 */
    sched_kernel_info ks[2] = {k9, k10};
    ks[0].issued = 2323;
    ks[1].issued = 182;
    sched_kernel_decision dec;
    uint32_t limit[2 * 16];
    sh_decide(&sh, ks, 2, &dec, limit);
    assert_int_equal(dec.count, 2);
    assert_int_equal(limit[0 * 16 + 15], 0);
    assert_int_equal(limit[1 * 16 + 15], 0);
    assert_int_equal(limit[0 * 16 + 2], 8);
    assert_int_equal(limit[1 * 16 + 2], 0);
    assert_int_equal(limit[1 * 16 + 3], 8);
    /* rule 4: core 16's last K9 blocks end, K10 becomes active there */
    cta(&sh, 9, 15, false);
    assert_int_equal(s->b.cores[15].active, 0);
    cta(&sh, 9, 15, false);
    assert_int_equal(s->b.cores[15].active, 1);
    assert_int_equal(st_active_cores(&s->b, 0), 8);
    assert_int_equal(st_active_cores(&s->b, 1), 8);
    sh_decide(&sh, ks, 2, &dec, limit);
    assert_int_equal(limit[1 * 16 + 15], 8);
    /* K9 finishes: its row is invalidated and K10 gets every core */
    k9.issued = k9.total_ctas;
    sh_kernel_finish(&sh, &k9);
    assert_false(s->b.rows[0].valid);
    for (uint32_t c = 0; c < 16; c++)
        assert_int_equal(s->b.cores[c].assigned, 1);
    /* the freed row is the next kernel's */
    sched_kernel_info k11 = kinfo(11, 4, 1, 1024, 0, 2, 8);
    sh_kernel_arrive(&sh, &k11);
    assert_true(s->b.rows[0].valid && s->b.rows[0].id == 11);
    sh_close(&sh);
}

static void test_interleaved_caps(void **state)
{
    (void)state;
    /* a 64-warp core with 8 block slots (the case study's 4 + 4) */
    sched_harness sh;
    open_policy(&sh, "interleaved", 2, 64, 8, 65536, 48 * 1024);
    interleaved_state *s = sh.st;
    /* K1: 8-warp blocks, 16 registers a thread; alone it fits 8 */
    sched_kernel_info k1 = kinfo(1, 100, 1, 8 * 32 * 16, 0, 8, 8);
    sched_kernel_info k2 = kinfo(2, 10, 1, 8 * 32 * 16, 0, 8, 8);
    sh_kernel_arrive(&sh, &k1);
    assert_int_equal(s->b.rows[0].cap, 8);
    sh_kernel_arrive(&sh, &k2);
    assert_int_equal(s->b.rows[0].cap, 4); /* the even split */
    assert_int_equal(s->b.rows[1].cap, 4);
    /* a third kernel limited by shared memory: 48 KB / 3 = 16 KB, 12 KB a
     * block -> 1; slots 8 / 3 = 2 for the others */
    sched_kernel_info k3 = kinfo(3, 10, 1, 1024, 12 * 1024, 2, 4);
    sh_kernel_arrive(&sh, &k3);
    assert_int_equal(s->b.rows[0].cap, 2);
    assert_int_equal(s->b.rows[1].cap, 2);
    assert_int_equal(s->b.rows[2].cap, 1);
    /* registers bind: K4 with 64 registers a thread (16384 a block) gets
     * 65536 / 4 / 16384 = 1 */
    sched_kernel_info k4 = kinfo(4, 10, 1, 8 * 32 * 64, 0, 8, 4);
    sh_kernel_arrive(&sh, &k4);
    assert_int_equal(s->b.rows[3].cap, 1);
    assert_int_equal(s->b.rows[0].cap, 2);
    /* exit: K3 and K4 finish, the caps go back to 4 + 4 */
    sh_kernel_finish(&sh, &k3);
    sh_kernel_finish(&sh, &k4);
    assert_int_equal(s->b.rows[0].cap, 4);
    assert_int_equal(s->b.rows[1].cap, 4);
    /* K2 issues its last block: at the next decision its share moves to K1 */
    for (uint32_t i = 0; i < 10; i++)
        cta(&sh, 2, i % 2, true);
    sched_kernel_info ks[2] = {k1, k2};
    ks[1].issued = 10;
    sched_kernel_decision dec;
    uint32_t limit[2 * 2];
    sh_decide(&sh, ks, 2, &dec, limit);
    assert_int_equal(dec.count, 1);
    assert_int_equal(dec.order[0], 0);
    assert_int_equal(s->b.rows[0].cap, 8);
    assert_int_equal(limit[0], 8);
    assert_int_equal(limit[1], 8);
    sh_close(&sh);
}

/* kernel.caps (thesis §5.5.2: each kernel at its Fig. 5.1 optimum): on a
 * 48-warp core with 8 slots, two kernels of 8-warp blocks would split 3 + 3;
 * with "add_:2,stream_:4" they get 2 and 4; a kernel matching no entry keeps
 * its even share; alone, a kernel is uncapped (max_fit 6). */
static void test_interleaved_kernel_caps(void **state)
{
    (void)state;
    sched_harness sh;
    sh_open(&sh, SCHED_LEVEL_KERNEL, "interleaved");
    sh.env.nsms = 2;
    sh.env.warp_slots = 48;
    sh.env.max_ctas = 8;
    sh.env.sm_registers = 32768;
    sh.env.sm_shared = 48 * 1024;
    sh.env.kernel_caps = "add_:2,stream_:4";
    sh_start(&sh);
    interleaved_state *s = sh.st;
    sched_kernel_info k1 = kinfo(1, 100, 1, 8 * 32 * 8, 0, 8, 6);
    k1.name = "add_10_loops";
    sched_kernel_info k2 = kinfo(2, 100, 1, 8 * 32 * 8, 0, 8, 6);
    k2.name = "stream_3_words";
    sh_kernel_arrive(&sh, &k1);
    assert_int_equal(s->b.rows[0].cap, 6); /* alone: uncapped */
    sh_kernel_arrive(&sh, &k2);
    assert_int_equal(s->b.rows[0].cap, 2);
    assert_int_equal(s->b.rows[1].cap, 4);
    /* a third kernel matching nothing: its even share, 8 slots / 3 = 2,
     * 48 warps / 3 / 8 = 2 */
    sched_kernel_info k3 = kinfo(3, 100, 1, 8 * 32 * 8, 0, 8, 6);
    k3.name = "other";
    sh_kernel_arrive(&sh, &k3);
    assert_int_equal(s->b.rows[2].cap, 2);
    assert_int_equal(s->b.rows[1].cap, 4);
    sh_kernel_finish(&sh, &k3);
    sh_kernel_finish(&sh, &k1);
    assert_int_equal(s->b.rows[1].cap, 6); /* alone again */
    sh_close(&sh);
}

/* kernel.caps syntax: accepted and rejected texts, first-match lookup. */
static void test_kernel_caps_parse(void **state)
{
    (void)state;
    kcaps c;
    char why[160];
    assert_true(kcaps_parse("", &c, why, sizeof why));
    assert_int_equal(c.n, 0);
    assert_int_equal(kcaps_lookup(&c, "x"), 0);
    assert_true(kcaps_parse("compute_:2,time_step:3,lud_:6", &c, why, sizeof why));
    assert_int_equal(c.n, 3);
    assert_int_equal(kcaps_lookup(&c, "compute_flux"), 2);
    assert_int_equal(kcaps_lookup(&c, "time_step"), 3);
    assert_int_equal(kcaps_lookup(&c, "lud_internal"), 6);
    assert_int_equal(kcaps_lookup(&c, "bp_layerforward"), 0);
    assert_false(kcaps_parse("lud_", &c, why, sizeof why));
    assert_false(kcaps_parse("lud_:0", &c, why, sizeof why));
    assert_false(kcaps_parse("lud_:x", &c, why, sizeof why));
    assert_false(kcaps_parse(":4", &c, why, sizeof why));
    assert_false(kcaps_parse("a:1,", &c, why, sizeof why) && c.n != 1);
}

/* ------------------------------------------------- through the scheduler */

#define KERNEL_FILE "tests/corpus/sched/copyadd.ptx"
#define BLOCK 256u

typedef struct run {
    char *csv_dir;               /* the run's --trace-csv series */
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    char *trace;
    size_t trace_len;
    FILE *trace_f;
    ptxemu_dptr a[2], b[2];
    uint32_t n[2];
    void *args[2][3];
} run;

/* Kernels 1 and 2 (copyadd over n1 and n2 elements) arrive together under
 * `policy` on m2090 with 64 warps a core. */
static void run_pair(run *r, const char *policy, uint32_t n1, uint32_t n2)
{
    memset(r, 0, sizeof *r);
    char *pol = g_strdup_printf("kernel.policy=%s", policy);
    const char *sets[] = {pol, "core.max_threads=2048", NULL};
    r->csv_dir = g_dir_make_tmp("ptxemu-concurrent-XXXXXX", NULL);
    ptxemu_options o = {.timing = 1, .timing_config = "m2090", .timing_set = sets,
                        .trace_csv_dir = r->csv_dir, .trace_interval = 50};
    r->trace_f = open_memstream(&r->trace, &r->trace_len);
    o.sched_trace = r->trace_f;
    if (ptxemu_ctx_create(&r->ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(r->ctx));
    g_free(pol);
    char *path = test_source_path(KERNEL_FILE);
    assert_int_equal(ptxemu_module_load_file(r->ctx, path, &r->mod), PTXEMU_OK);
    g_free(path);
    ptxemu_stream *s[2];
    r->n[0] = n1;
    r->n[1] = n2;
    for (int j = 0; j < 2; j++) {
        uint32_t *h = g_new(uint32_t, r->n[j]);
        for (uint32_t i = 0; i < r->n[j]; i++)
            h[i] = (uint32_t)j * 100000u + i;
        assert_int_equal(ptxemu_malloc(r->ctx, &r->a[j], r->n[j] * 4), PTXEMU_OK);
        assert_int_equal(ptxemu_malloc(r->ctx, &r->b[j], r->n[j] * 4), PTXEMU_OK);
        assert_int_equal(ptxemu_memcpy_htod(r->ctx, r->a[j], h, r->n[j] * 4), PTXEMU_OK);
        g_free(h);
        r->args[j][0] = &r->a[j];
        r->args[j][1] = &r->b[j];
        r->args[j][2] = &r->n[j];
        assert_int_equal(ptxemu_stream_create(r->ctx, &s[j]), PTXEMU_OK);
    }
    for (int j = 0; j < 2; j++)
        if (ptxemu_launch_async(r->mod, "copyadd", (ptxemu_dim3){r->n[j] / BLOCK, 1, 1},
                                (ptxemu_dim3){BLOCK, 1, 1}, 0, r->args[j], s[j]) != PTXEMU_OK)
            fail_msg("launch: %s", ptxemu_last_error(r->ctx));
    if (ptxemu_synchronize(r->ctx) != PTXEMU_OK)
        fail_msg("run: %s", ptxemu_last_error(r->ctx));
    fflush(r->trace_f);
    for (int j = 0; j < 2; j++) { /* the CPU reference: b = a + 1 */
        uint32_t *h = g_new(uint32_t, r->n[j]);
        assert_int_equal(ptxemu_memcpy_dtoh(r->ctx, h, r->b[j], r->n[j] * 4), PTXEMU_OK);
        for (uint32_t i = 0; i < r->n[j]; i++)
            if (h[i] != (uint32_t)j * 100000u + i + 1)
                fail_msg("kernel %d: b[%u] = %u", j + 1, i, h[i]);
        g_free(h);
    }
}

static void run_close(run *r)
{
    const char *names[] = {"launch-1-copyadd.csv", "launch-1-ctas.csv", "launch-1-dram.csv"};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        char *p = g_build_filename(r->csv_dir, names[i], NULL);
        g_remove(p);
        g_free(p);
    }
    g_rmdir(r->csv_dir);
    g_free(r->csv_dir);
    ptxemu_ctx_destroy(r->ctx);
    fclose(r->trace_f);
    g_free(r->trace);
}

/* Replays the trace's placements and completions; calls `check` after each
 * with the residency per kernel (1, 2) and SM.  Returns the cycle of the
 * last placement of kernel 1 and the first of kernel 2. */
typedef struct replay {
    uint32_t res[3][16];
    uint32_t max_res[3];         /* most blocks of a kernel on one SM */
    uint32_t max_while_both[3];  /* ... while both kernels still place */
    bool mixed;                  /* an SM held blocks of both at once */
    uint64_t last_place[3], first_place[3];
    uint32_t placed[3];
} replay;

static void replay_trace(const run *r, replay *out)
{
    memset(out, 0, sizeof *out);
    out->first_place[1] = out->first_place[2] = UINT64_MAX;
    for (const char *p = r->trace; p && *p;) {
        const char *eol = strchr(p, '\n');
        unsigned long long cyc;
        unsigned k, c, sm;
        if (sscanf(p, "cycle %llu: kernel %u CTA %u -> SM %u", &cyc, &k, &c, &sm) == 4 &&
            k >= 1 && k <= 2 && sm < 16) {
            bool both = out->placed[1] < r->n[0] / BLOCK && out->placed[2] < r->n[1] / BLOCK;
            out->res[k][sm]++;
            out->placed[k]++;
            if (out->res[k][sm] > out->max_res[k])
                out->max_res[k] = out->res[k][sm];
            if (both && out->res[k][sm] > out->max_while_both[k])
                out->max_while_both[k] = out->res[k][sm];
            if (out->res[1][sm] && out->res[2][sm])
                out->mixed = true;
            out->last_place[k] = cyc;
            if (cyc < out->first_place[k])
                out->first_place[k] = cyc;
        } else if (sscanf(p, "cycle %llu: kernel %u CTA %u finished on SM %u", &cyc, &k, &c,
                          &sm) == 4 && k >= 1 && k <= 2 && sm < 16) {
            assert_true(out->res[k][sm] > 0);
            out->res[k][sm]--;
        }
        p = eol ? eol + 1 : NULL;
    }
}

static void test_interleaved_split_4_4(void **state)
{
    (void)state;
    run r;
    /* K1: 512 blocks (long), K2: 64 blocks of 8 warps */
    run_pair(&r, "interleaved", 512 * BLOCK, 64 * BLOCK);
    replay rp;
    replay_trace(&r, &rp);
    assert_non_null(strstr(r.trace, "interleaved: caps K1=8\n"));
    assert_non_null(strstr(r.trace, "interleaved: caps K1=4 K2=4\n"));
    assert_int_equal(rp.placed[1], 512);
    assert_int_equal(rp.placed[2], 64);
    /* both on the same cores, at most 4 each while both place */
    assert_true(rp.mixed);
    assert_true(rp.max_while_both[1] <= 4 && rp.max_while_both[2] <= 4);
    assert_int_equal(rp.max_while_both[1], 4);
    assert_int_equal(rp.max_res[2], 4);
    /* K2 fully issued: K1 gets the whole core */
    assert_true(rp.max_res[1] > 4);
    /* the time series (timing/kernel_csv.h): a sample with both kernels at
     * their cap on SM 0, one with K1 above it later; DRAM near or below its
     * peak */
    char *p = g_build_filename(r.csv_dir, "launch-1-ctas.csv", NULL), *text = NULL;
    assert_true(g_file_get_contents(p, &text, NULL, NULL));
    assert_true(g_str_has_prefix(text, "cycle,launch,kernel,sm0,sm1,"));
    bool split = false, more = false;
    unsigned long long last = 0;
    for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        unsigned long long cyc;
        unsigned launch, sm0;
        assert_int_equal(sscanf(line + 1, "%llu,%u,copyadd,%u", &cyc, &launch, &sm0), 3);
        assert_true(cyc >= last);
        if (launch == 2 && sm0 == 4 && cyc == last)
            split = true; /* the K1 row of this sample came first */
        if (launch == 1 && sm0 > 4)
            more = true;
        last = cyc;
    }
    assert_true(split && more);
    g_free(text);
    g_free(p);
    p = g_build_filename(r.csv_dir, "launch-1-dram.csv", NULL);
    assert_true(g_file_get_contents(p, &text, NULL, NULL));
    assert_true(g_str_has_prefix(text, "cycle,dram_bytes,bandwidth\n"));
    bool moved = false;
    for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        unsigned long long cyc, bytes;
        double bw;
        assert_int_equal(sscanf(line + 1, "%llu,%llu,%lf", &cyc, &bytes, &bw), 3);
        /* bytes count when a burst is accounted, so a 50-cycle window may
         * read about 1% above the peak */
        assert_true(bw >= 0 && bw <= 1.05);
        moved |= bytes > 0;
    }
    assert_true(moved);
    g_free(text);
    g_free(p);
    run_close(&r);
}

static void test_spatial_never_mixes(void **state)
{
    (void)state;
    run r;
    run_pair(&r, "spatial", 256 * BLOCK, 64 * BLOCK);
    replay rp;
    replay_trace(&r, &rp);
    assert_false(rp.mixed);
    assert_int_equal(rp.placed[1], 256);
    assert_int_equal(rp.placed[2], 64);
    /* both start at once on their own cores (odd SMs for kernel 2) */
    assert_int_equal(rp.first_place[1], rp.first_place[2]);
    const char *p = strstr(r.trace, "kernel 2 CTA 0 -> SM ");
    assert_non_null(p);
    assert_int_equal(atoi(p + strlen("kernel 2 CTA 0 -> SM ")) % 2, 1);
    assert_non_null(strstr(r.trace, "spatial: cores mapped round robin to K1 K2"));
    run_close(&r);
}

static void test_leftover_rule(void **state)
{
    (void)state;
    run r;
    run_pair(&r, "leftover", 256 * BLOCK, 64 * BLOCK);
    replay rp;
    replay_trace(&r, &rp);
    /* the next kernel starts only after the current one placed all */
    assert_true(rp.first_place[2] >= rp.last_place[1]);
    run_close(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spatial_fig_5_6),
        cmocka_unit_test(test_interleaved_caps),
        cmocka_unit_test(test_interleaved_split_4_4),
        cmocka_unit_test(test_interleaved_kernel_caps),
        cmocka_unit_test(test_kernel_caps_parse),
        cmocka_unit_test(test_spatial_never_mixes),
        cmocka_unit_test(test_leftover_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
