/* tests/runtime/test_race.c — the functional data-race check
 * (options.race_check, check.races, runtime/race.h), on hand-written PTX:
 *  - thread 0 of each of two CTAs does out[0] += 1 with plain ld/st: a race,
 *    reported with both instructions (their PTX lines and text) and both
 *    CTAs; the memory result is that of the unchecked run;
 *  - the same with atom.global.add: no race;
 *  - one CTA, warp 0 writes, warp 1 reads after bar.sync: no race; the same
 *    without the bar.sync: a race between the two warps;
 *  - off by default: the racy kernel reports nothing. */
#include "tests/support/test_util.h"

#include <glib.h>
#include <string.h>

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

/* line 7: ld, line 9: st (the += of thread 0 of every CTA) */
static const char plus_ptx[] = HEAD
    ".visible .entry plus(.param .u64 p)\n"          /* 4 */
    "{\n"                                             /* 5 */
    "  .reg .u64 %rd<3>; .reg .u32 %r<4>; .reg .pred %p; ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; mov.u32 %r1, %tid.x; setp.ne.u32 %p, %r1, 0; @%p bra DONE;\n"
    "  ld.global.u32 %r2, [%rd2];\n"                  /* 7 */
    "  add.u32 %r3, %r2, 1;\n"                        /* 8 */
    "  st.global.u32 [%rd2], %r3;\n"                  /* 9 */
    "DONE:\n"
    "  ret;\n"
    "}\n";

static const char atom_ptx[] = HEAD
    ".visible .entry plus(.param .u64 p)\n"
    "{\n"
    "  .reg .u64 %rd<3>; .reg .u32 %r<4>; .reg .pred %p; ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; mov.u32 %r1, %tid.x; setp.ne.u32 %p, %r1, 0; @%p bra DONE;\n"
    "  atom.global.add.u32 %r2, [%rd2], 1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* thread 0 (warp 0) writes out[0] = 7; thread 32 (warp 1) copies it to
 * out[1]; BAR is the barrier between them, or nothing */
#define BAR_PTX(BAR) HEAD                                                     \
    ".visible .entry handoff(.param .u64 p)\n"                                \
    "{\n"                                                                     \
    "  .reg .u64 %rd<3>; .reg .u32 %r<4>; .reg .pred %p, %q; ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; mov.u32 %r1, %tid.x; setp.eq.u32 %p, %r1, 0; setp.eq.u32 %q, %r1, 32;\n" \
    "  @%p st.global.u32 [%rd2], 7;\n"                                        \
    BAR                                                                       \
    "  @%q ld.global.u32 %r2, [%rd2];\n"                                      \
    "  @%q st.global.u32 [%rd2+4], %r2;\n"                                    \
    "  ret;\n"                                                                \
    "}\n"

static const char bar_ptx[] = BAR_PTX("  bar.sync 0;\n");
static const char nobar_ptx[] = BAR_PTX("");

/* Runs `kernel` of `ptx` on (grid, block) with a zeroed 8-byte buffer;
 * returns the buffer, the races counted and (copied) the report. */
static void run(const char *ptx, const char *kernel, unsigned grid, unsigned block, int check,
                uint32_t out[2], uint64_t *races, char **report)
{
    ptxemu_options o = {0};
    o.race_check = check;
    ptxemu_ctx *ctx = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_module_load_string(ctx, ptx, "race.ptx", &mod), PTXEMU_OK);
    ptxemu_dptr d = 0;
    assert_int_equal(ptxemu_malloc(ctx, &d, 8), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, d, 0, 8), PTXEMU_OK);
    void *args[] = {&d};
    assert_int_equal(ptxemu_launch(mod, kernel, (ptxemu_dim3){grid, 1, 1},
                                   (ptxemu_dim3){block, 1, 1}, 0, args), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, out, d, 8), PTXEMU_OK);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    *races = c.races;
    const char *r = ptxemu_race_report(ctx);
    *report = r ? g_strdup(r) : NULL;
    ptxemu_ctx_destroy(ctx);
}

static void test_plain_increment_races(void **state)
{
    (void)state;
    uint32_t out[2];
    uint64_t races;
    char *rep;
    run(plus_ptx, "plus", 2, 32, 1, out, &races, &rep);
    assert_int_equal(out[0], 2); /* CTAs run one after the other functionally */
    assert_int_equal(races, 1);
    assert_non_null(rep);
    /* CTA 1's load of the word CTA 0 stored, both located */
    assert_non_null(strstr(rep, "race: read of global address"));
    assert_non_null(strstr(rep, "CTA (1,0,0), warp 0, thread (0,0,0), function 'plus' pc"));
    assert_non_null(strstr(rep, "(race.ptx:7:3: ld.global.u32"));
    assert_non_null(strstr(rep, "earlier write by kernel 'plus', CTA (0,0,0), warp 0"));
    assert_non_null(strstr(rep, "(race.ptx:9:3: st.global.u32"));
    assert_non_null(strstr(rep, "two CTAs"));
    g_free(rep);
}

static void test_atomic_increment_does_not(void **state)
{
    (void)state;
    uint32_t out[2];
    uint64_t races;
    char *rep;
    run(atom_ptx, "plus", 2, 32, 1, out, &races, &rep);
    assert_int_equal(out[0], 2);
    assert_int_equal(races, 0);
    assert_null(rep);
}

static void test_barrier_orders_warps(void **state)
{
    (void)state;
    uint32_t out[2];
    uint64_t races;
    char *rep;
    run(bar_ptx, "handoff", 1, 64, 1, out, &races, &rep);
    assert_int_equal(out[1], 7);
    assert_int_equal(races, 0);
    assert_null(rep);
    /* without the barrier the two warps race */
    run(nobar_ptx, "handoff", 1, 64, 1, out, &races, &rep);
    assert_int_equal(races, 1);
    assert_non_null(rep);
    assert_non_null(strstr(rep, "CTA (0,0,0), warp 1, thread (32,0,0)"));
    assert_non_null(strstr(rep, "earlier write by kernel 'handoff', CTA (0,0,0), warp 0"));
    assert_non_null(strstr(rep, "two warps of one CTA"));
    g_free(rep);
}

static void test_off_by_default(void **state)
{
    (void)state;
    uint32_t out[2];
    uint64_t races;
    char *rep;
    run(plus_ptx, "plus", 2, 32, 0, out, &races, &rep);
    assert_int_equal(out[0], 2);
    assert_int_equal(races, 0);
    assert_null(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_increment_races),
        cmocka_unit_test(test_atomic_increment_does_not),
        cmocka_unit_test(test_barrier_orders_warps),
        cmocka_unit_test(test_off_by_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
