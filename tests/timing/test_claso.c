/* tests/timing/test_claso.c — CLASO (sched/filter/claso.c) through the real
 * timing model: the case study of Yu et al. §3.2 (SEED-TARGETS.md §1).
 * 17 CTAs on 4 cores with 3 CTA slots each, pA=1, pL=0.  The finishing
 * order of the paper is forced with tests/corpus/sched/delay.ptx: CTA c
 * spins until cycle deadline[c].  Expected (hand-worked in the
 * seed): Cp=5, Cg=1; final per-core sets {0,4,8,14}, {1,5,9,15},
 * {2,6,10,16}, {3,7,11,12,13}.  The same order under plain greedy rr gives
 * core 3 CTAs 12-14 and core 0 CTAs 15-16; the listing's floor issues only
 * 13 CTAs and the run stops as a scheduling deadlock. */
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

#define NCTA 17u
#define BLOCK 32u
#define UNIT 1000u /* cycles between finishing ranks */

/* Finishing order of the first wave (§3.2): core 3 (7, 11, 3), core 0
 * (4, 0, 8), then cores 1 and 2.  Later CTAs run long, so no decision
 * depends on them. */
static const uint32_t first_wave_order[] = {7, 11, 3, 4, 0, 8, 5, 1, 9, 6, 2, 10};

typedef struct run {
    char *trace;
    size_t len;
    uint32_t core_of[NCTA];   /* SM each CTA went to, or UINT32_MAX */
    uint32_t placed;
    int rc;                   /* ptxemu_launch_batch result */
    char err[512];
} run;

static void run_case(run *r, const char *const *sets)
{
    memset(r, 0, sizeof *r);
    FILE *tf = open_memstream(&r->trace, &r->len);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "c2050";
    o.timing_set = sets;
    o.sched_trace = tf;
    ptxemu_ctx *ctx = NULL;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    char *path = test_source_path("tests/corpus/sched/delay.ptx");
    ptxemu_module *mod = NULL;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    g_free(path);
    uint32_t delays[NCTA];
    for (uint32_t c = 0; c < NCTA; c++)
        delays[c] = 40u * UNIT;
    for (uint32_t i = 0; i < G_N_ELEMENTS(first_wave_order); i++)
        delays[first_wave_order[i]] = (i + 1) * UNIT;
    ptxemu_dptr dd, dout;
    assert_int_equal(ptxemu_malloc(ctx, &dd, sizeof delays), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &dout, NCTA * BLOCK * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, dd, delays, sizeof delays), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, dout, 0, NCTA * BLOCK * 4), PTXEMU_OK);
    void *args[2] = {&dd, &dout};
    ptxemu_launch_desc d = {mod, "delay", {NCTA, 1, 1}, {BLOCK, 1, 1}, 0, args, 0, -1};
    r->rc = ptxemu_launch_batch(ctx, &d, 1);
    if (r->rc != PTXEMU_OK)
        g_strlcpy(r->err, ptxemu_last_error(ctx), sizeof r->err);
    fflush(tf);
    if (r->rc == PTXEMU_OK) { /* the CPU reference */
        uint32_t *h = g_new(uint32_t, NCTA * BLOCK);
        assert_int_equal(ptxemu_memcpy_dtoh(ctx, h, dout, NCTA * BLOCK * 4), PTXEMU_OK);
        for (uint32_t c = 0; c < NCTA; c++)
            for (uint32_t t = 0; t < BLOCK; t++)
                if (h[c * BLOCK + t] != ((c * BLOCK + t) ^ delays[c]))
                    fail_msg("out[%u] = %u, expected %u", c * BLOCK + t, h[c * BLOCK + t],
                             ((c * BLOCK + t) ^ delays[c]));
        g_free(h);
    }
    ptxemu_ctx_destroy(ctx);
    fclose(tf);
    /* "cycle N: kernel 1 CTA c -> SM s (...)" */
    for (uint32_t c = 0; c < NCTA; c++)
        r->core_of[c] = UINT32_MAX;
    for (const char *p = r->trace; (p = strstr(p, "kernel 1 CTA ")); p++) {
        unsigned cta, sm;
        if (sscanf(p, "kernel 1 CTA %u -> SM %u", &cta, &sm) == 2 && cta < NCTA) {
            assert_int_equal(r->core_of[cta], UINT32_MAX);
            r->core_of[cta] = sm;
            r->placed++;
        }
    }
}

static void expect_sets(const run *r, const uint32_t *const *sets, const uint32_t *sizes)
{
    for (uint32_t core = 0; core < 4; core++)
        for (uint32_t i = 0; i < sizes[core]; i++) {
            uint32_t cta = sets[core][i];
            if (r->core_of[cta] != core)
                fail_msg("CTA %u went to core %u, expected core %u", cta, r->core_of[cta],
                         core);
        }
}

static void test_case_study(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=4", "core.max_ctas=3", "cta.filters=claso",
                                "claso.pa=1", "claso.pl=0", NULL};
    run r;
    run_case(&r, sets);
    if (r.rc != PTXEMU_OK)
        fail_msg("run failed: %s", r.err);
    assert_int_equal(r.placed, NCTA);
    static const uint32_t c0[] = {0, 4, 8, 14}, c1[] = {1, 5, 9, 15}, c2[] = {2, 6, 10, 16},
                          c3[] = {3, 7, 11, 12, 13};
    const uint32_t *want[] = {c0, c1, c2, c3};
    const uint32_t sizes[] = {4, 4, 4, 5};
    expect_sets(&r, want, sizes);
    /* the credits of §3.2, step by step */
    const char *steps[] = {
        "claso: kernel 1: 17 CTAs on 4 cores: Cp=5 Cg=1",
        "claso: kernel 1 CTA 12 core 3: Cp3=1 Cg=1 -> allowed",
        "claso: kernel 1 CTA 13 core 3: Cp3=0 Cg=0 -> allowed",
        "claso: kernel 1 CTA 14 core 3: Cp3=-1 Cg=0 -> refused",
        "claso: kernel 1 CTA 14 core 0: Cp0=1 Cg=0 -> allowed",
        "claso: kernel 1 CTA 15 core 0: Cp0=0 Cg=-1 -> refused",
        "claso: kernel 1 CTA 15 core 0: Cp0=-1 Cg=-1 -> refused",
        "claso: kernel 1 CTA 15 core 1: Cp1=1 Cg=-1 -> allowed",
    };
    const char *p = r.trace;
    for (unsigned i = 0; i < G_N_ELEMENTS(steps); i++) {
        const char *q = strstr(p, steps[i]);
        if (!q)
            fail_msg("trace lacks '%s' in order", steps[i]);
        p = q;
    }
    /* sticky refusals: a refused core is asked again at later events
     * without consuming, so core 3 never goes below -1 before a slot frees */
    assert_null(strstr(r.trace, "core 3: Cp3=-2 Cg=0"));
    free(r.trace);
}

static void test_greedy_baseline(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=4", "core.max_ctas=3", NULL};
    run r;
    run_case(&r, sets);
    if (r.rc != PTXEMU_OK)
        fail_msg("run failed: %s", r.err);
    assert_int_equal(r.placed, NCTA);
    static const uint32_t c0[] = {0, 4, 8, 15, 16}, c1[] = {1, 5, 9}, c2[] = {2, 6, 10},
                          c3[] = {3, 7, 11, 12, 13, 14};
    const uint32_t *want[] = {c0, c1, c2, c3};
    const uint32_t sizes[] = {5, 3, 3, 6};
    expect_sets(&r, want, sizes);
    free(r.trace);
}

static void test_floor_bug(void **state)
{
    (void)state;
    const char *const sets[] = {"gpu.num_sms=4", "core.max_ctas=3", "cta.filters=claso",
                                "claso.listing_floor=true", NULL};
    run r;
    run_case(&r, sets);
    assert_int_not_equal(r.rc, PTXEMU_OK);
    if (!strstr(r.err, "deadlock"))
        fail_msg("expected a scheduling deadlock, got: %s", r.err);
    assert_int_equal(r.placed, 13); /* n - n_core = 17 - 4 */
    assert_non_null(strstr(r.trace, "17 CTAs on 4 cores: Cp=4 Cg=1"));
    free(r.trace);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_study),
        cmocka_unit_test(test_greedy_baseline),
        cmocka_unit_test(test_floor_bug),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
