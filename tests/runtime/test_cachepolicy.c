/* tests/runtime/test_cachepolicy.c — createpolicy (runtime/exec_cache.c),
 * against the PTX ISA's definition ("Data Movement and Conversion
 * Instructions: createpolicy"):
 *   - the policy is an opaque .b64 value that .L2::cache_hint loads and
 *     stores accept; the hint never changes a loaded or stored value;
 *   - fraction is an f32 in (0.0, 1.0] and defaults to 1.0 when absent;
 *   - the secondary priority defaults to .L2::evict_unchanged and is
 *     .L2::evict_first or .L2::evict_unchanged;
 *   - primary-size must not exceed total-size;
 *   - createpolicy.cvt.L2 converts an (opaque) access property.
 * The two "defaults" facts are checked by value: a policy spelled with the
 * default must equal the one that leaves it out. */
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#define HEADER ".version 7.4\n.target sm_80\n.address_size 64\n"
#define N 70 /* three warps, the last one partial */

/* out[i] = in[i] + 1 through hinted loads and stores under three policies;
 * pol[0..5] receive policies for the default checks. */
static const char kernel[] = HEADER
    ".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 pol)\n{\n"
    "  .reg .u32 %r<4>;\n  .reg .u64 %rd<12>;\n  .reg .f32 %f1;\n  .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u64 %rd3, [pol];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd6, %rd2, %rd4;\n"
    "  createpolicy.fractional.L2::evict_last.b64 %rd7, 0.25;\n"
    "  createpolicy.range.global.L2::evict_first.L2::evict_first.b64 %rd8, [%rd5], 64, 256;\n"
    "  createpolicy.cvt.L2.b64 %rd9, %rd7;\n"
    "  ld.global.L2::cache_hint.u32 %r2, [%rd5], %rd7;\n"
    "  ld.global.L2::cache_hint.u32 %r3, [%rd5], %rd8;\n"
    "  add.u32 %r2, %r2, 1;\n"
    "  setp.eq.u32 %p1, %r2, %r3;\n" /* never: r3 is the unchanged value */
    "  @%p1 trap;\n"
    "  st.global.L2::cache_hint.u32 [%rd6], %r2, %rd9;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 ret;\n"
    "  createpolicy.fractional.L2::evict_first.b64 %rd10;\n"
    "  st.global.u64 [%rd3], %rd10;\n"
    "  createpolicy.fractional.L2::evict_first.b64 %rd10, 1.0;\n"
    "  st.global.u64 [%rd3+8], %rd10;\n"
    "  createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd10, 1.0;\n"
    "  st.global.u64 [%rd3+16], %rd10;\n"
    "  createpolicy.fractional.L2::evict_first.L2::evict_first.b64 %rd10;\n"
    "  st.global.u64 [%rd3+24], %rd10;\n"
    "  mov.f32 %f1, 0f3F800000;\n"     /* 1.0 from a register */
    "  createpolicy.fractional.L2::evict_first.b64 %rd10, %f1;\n"
    "  st.global.u64 [%rd3+32], %rd10;\n"
    "  st.global.u64 [%rd3+40], %rd7;\n"
    "  st.global.u64 [%rd3+48], %rd9;\n"
    "  ret;\n}\n";

static void test_policies_and_hinted_accesses(void **state)
{
    (void)state;
    uint32_t in[N], out[N];
    uint64_t pol[7];
    for (uint32_t i = 0; i < N; i++)
        in[i] = i * 2654435761u;
    memset(out, 0, sizeof out);
    memset(pol, 0, sizeof pol);
    test_buf bufs[] = {{in, sizeof in}, {out, sizeof out}, {pol, sizeof pol}};
    char *err = NULL;
    ptxemu_status st = test_run_ptx(kernel, "k", 1, N, bufs, 3, &err);
    if (st != PTXEMU_OK)
        fail_msg("launch failed: %s", err ? err : "?");
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(out[i], in[i] + 1u);
    assert_int_equal(pol[0], pol[1]);      /* fraction defaults to 1.0 */
    assert_int_equal(pol[1], pol[2]);      /* secondary defaults to evict_unchanged */
    assert_int_not_equal(pol[0], pol[3]);  /* ... and a different secondary differs */
    assert_int_equal(pol[1], pol[4]);      /* a register fraction is the same value */
    assert_int_not_equal(pol[0], pol[5]);  /* fraction 0.25 and evict_last differ */
    assert_int_equal(pol[5], pol[6]);      /* cvt passes the opaque value through */
}

static ptxemu_status run_one(const char *body, char **err)
{
    GString *k = g_string_new(HEADER ".visible .entry k(.param .u64 x)\n{\n"
                                     "  .reg .u64 %rd<4>;\n  .reg .f32 %f1;\n"
                                     "  .reg .u32 %r1;\n");
    g_string_append(k, body);
    g_string_append(k, "  ret;\n}\n");
    uint64_t x = 0;
    test_buf b = {&x, sizeof x};
    ptxemu_status st = test_run_ptx(k->str, "k", 1, 32, &b, 1, err);
    g_string_free(k, TRUE);
    return st;
}

static void expect(const char *body, ptxemu_status want, const char *needle)
{
    char *err = NULL;
    ptxemu_status st = run_one(body, &err);
    if (st != want || !err || !strstr(err, needle))
        fail_msg("'%s': status %d (want %d), message '%s' (want '%s')", body, st, want,
                 err ? err : "", needle);
    g_free(err);
}

/* fraction outside (0.0, 1.0] faults at run time with the lane's value;
 * primary-size > total-size too; malformed forms are refused at load. */
static void test_refusals(void **state)
{
    (void)state;
    expect("  mov.f32 %f1, 0f00000000;\n"
           "  createpolicy.fractional.L2::evict_last.b64 %rd1, %f1;\n",
           PTXEMU_ERR_LAUNCH_FAILED, "outside (0.0, 1.0]");
    expect("  createpolicy.fractional.L2::evict_last.b64 %rd1, 1.5;\n",
           PTXEMU_ERR_LAUNCH_FAILED, "1.5 is outside");
    expect("  mov.u32 %r1, %tid.x;\n"
           "  createpolicy.range.L2::evict_last.b64 %rd1, [%rd2], %r1, 16;\n",
           PTXEMU_ERR_LAUNCH_FAILED, "primary-size 17 exceeds total-size 16");
    expect("  createpolicy.fractional.b64 %rd1, 0.5;\n", PTXEMU_ERR_UNSUPPORTED,
           "primary priority");
    expect("  createpolicy.fractional.L2::evict_first.L2::evict_last.b64 %rd1;\n",
           PTXEMU_ERR_UNSUPPORTED, "secondary priority");
    expect("  createpolicy.fractional.L2::evict_last.b32 %r1;\n", PTXEMU_ERR_UNSUPPORTED,
           ".b64");
    /* the control: the same shapes with valid values run */
    char *err = NULL;
    assert_int_equal(run_one("  mov.f32 %f1, 0f3F000000;\n"
                             "  createpolicy.fractional.L2::evict_last.b64 %rd1, %f1;\n"
                             "  createpolicy.range.L2::evict_last.b64 %rd1, [%rd2], 16, 16;\n",
                             &err),
                     PTXEMU_OK);
    g_free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policies_and_hinted_accesses),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
