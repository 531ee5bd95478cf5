/* tests/timing/test_occupancy_regs.c — core.regs_per_thread: CTAs per SM
 * of a 256-thread kernel on c2050 with 1,536 threads and 32,768 registers
 * per SM, worked out by hand:
 *   20 registers: 32,768 / (20 x 256) = 6.4 -> 6, threads 1,536 / 256 = 6:
 *                 6 CTAs (CLASO Table 2's CTAs per core for 256-thread CTAs);
 *   40 registers: 32,768 / (40 x 256) = 3.2 -> 3, limited by registers;
 *   0 (default):  the estimate from the PTX, the same as without the key;
 *   --regs-per-thread (ptxemu_options) wins over the key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"
#include "api/ptxemu.h"
#include "timing/stats.h"

#include <glib.h>
#include <string.h>

/* Each thread writes its global index: a few registers. */
static const char *PTX = ".version 7.0\n.target sm_75\n.address_size 64\n"
                         ".visible .entry k(.param .u64 out)\n{\n"
                         "  .reg .b32 %r<5>;\n  .reg .b64 %rd<4>;\n"
                         "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                         "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n"
                         "  mov.u32 %r3, %tid.x;\n  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
                         "  mul.wide.s32 %rd3, %r4, 4;\n  add.s64 %rd3, %rd2, %rd3;\n"
                         "  st.global.u32 [%rd3], %r4;\n  ret;\n}\n";

static tm_occupancy run(const char *regs_key, uint32_t opt_regs)
{
    const char *sets[] = {"core.max_threads=1536", regs_key, NULL};
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "c2050";
    o.timing_set = sets;
    o.regs_per_thread = opt_regs;
    ptxemu_ctx *ctx = NULL;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    ptxemu_module *mod = NULL;
    if (ptxemu_module_load_string(ctx, PTX, "occupancy", &mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    const uint32_t ctas = 28, block = 256;
    ptxemu_dptr out;
    assert_int_equal(ptxemu_malloc(ctx, &out, ctas * block * 4), PTXEMU_OK);
    void *args[] = {&out};
    assert_int_equal(ptxemu_launch(mod, "k", (ptxemu_dim3){ctas, 1, 1},
                                   (ptxemu_dim3){block, 1, 1}, 0, args),
                     PTXEMU_OK);
    const tm_stats *st = ptxemu_timing_stats(ctx);
    assert_non_null(st);
    assert_int_equal(st->kernels->len, 1);
    tm_occupancy occ = ((const tm_kernel_stats *)g_ptr_array_index(st->kernels, 0))->occ;
    ptxemu_ctx_destroy(ctx);
    return occ;
}

static void test_key_sets_occupancy(void **state)
{
    (void)state;
    tm_occupancy a = run("core.regs_per_thread=20", 0);
    assert_int_equal(a.regs_per_thread, 20);
    assert_int_equal(a.ctas_per_sm, 6);
    tm_occupancy b = run("core.regs_per_thread=40", 0);
    assert_int_equal(b.regs_per_thread, 40);
    assert_int_equal(b.ctas_per_sm, 3);
    assert_string_equal(b.limited_by, "registers");
}

static void test_default_is_the_estimate(void **state)
{
    (void)state;
    tm_occupancy d = run("core.regs_per_thread=0", 0);
    tm_occupancy n = run("core.max_threads=1536", 0); /* key not set at all */
    assert_int_equal(d.regs_per_thread, n.regs_per_thread);
    assert_int_equal(d.ctas_per_sm, n.ctas_per_sm);
    assert_true(d.regs_per_thread < 20); /* a handful for this kernel */
}

static void test_option_wins(void **state)
{
    (void)state;
    tm_occupancy o = run("core.regs_per_thread=20", 40);
    assert_int_equal(o.regs_per_thread, 40);
    assert_int_equal(o.ctas_per_sm, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_sets_occupancy),
        cmocka_unit_test(test_default_is_the_estimate),
        cmocka_unit_test(test_option_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
