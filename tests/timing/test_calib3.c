/* tests/timing/test_calib3.c — calibration round 3 against GPGPU-Sim's
 * SM2_GTX480 (issue 29), each mechanism against counts worked out by hand
 * for a tiny kernel on the gtx480 preset:
 *   - l1d.fence_invalidate: one thread loads a word (an L1 miss that fills
 *     the line; the L2 has it from the host copy), waits for it, runs a
 *     membar and loads the word again.  Without the key the second load
 *     hits in L1 (1 hit, 1 miss, 1 L2 access); with it the membar
 *     invalidated the L1 and the second load misses again (0 hits, 2
 *     misses, 2 L2 hits, 1 line dropped) and pays the L2 round trip
 *     instead of the L1 hit: at least l2.hit_latency + 2 x noc.latency =
 *     128 cycles more.  Without the membar the key changes nothing;
 *   - l1d.volatile_cached: one thread's two ld.volatile of one word.
 *     Without the key both bypass the L1 (2 bypasses, 2 L2 hits, no L1
 *     lookup); with it the first misses and fills the L1, the second hits
 *     (1 miss, 1 hit, 1 L2 hit, no bypass).  Time: the first now leaves
 *     through the L1 latency queue (+34), the second takes the L1 hit
 *     latency (35) instead of a bypassing L2 round trip (>= 1 + 120 +
 *     2 x 4 = 129): the kernel ends at least 129 - 35 - 34 = 60 cycles
 *     sooner. */
#include "tests/support/test_util.h"

#include <glib.h>
#include <string.h>

/* One thread: load, use, [membar.gl,] load again, use. */
static const char *FENCE_PTX =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry ff(.param .u64 in)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.global.u32 %r1, [%rd1];\n"
    "  add.u32 %r2, %r1, 1;\n  membar.gl;\n  ld.global.u32 %r3, [%rd1];\n"
    "  add.u32 %r4, %r3, %r2;\n  ret;\n}\n"
    ".visible .entry nf(.param .u64 in)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.global.u32 %r1, [%rd1];\n"
    "  add.u32 %r2, %r1, 1;\n  ld.global.u32 %r3, [%rd1];\n"
    "  add.u32 %r4, %r3, %r2;\n  ret;\n}\n"
    ".visible .entry vv(.param .u64 in)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.volatile.global.u32 %r1, [%rd1];\n"
    "  add.u32 %r2, %r1, 1;\n  ld.volatile.global.u32 %r3, [%rd1];\n"
    "  add.u32 %r4, %r3, %r2;\n  ret;\n}\n";

typedef struct calib_env {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
} calib_env;

static calib_env env_open(const char *const *sets, const char *ptx)
{
    calib_env e = {0};
    test_timing_open("gtx480", sets, ptx, "calib3.ptx", &e.ctx, &e.mod);
    return e;
}

/* The first number called `key` in the statistics JSON (the first kernel's). */
static uint64_t stat_first(calib_env *e, const char *key)
{
    return test_json_nth(ptxemu_timing_stats_json(e->ctx), key, 0);
}

typedef struct fence_run {
    uint64_t cycles, l1_hits, l1_misses, l2_hits, drops, bypasses;
} fence_run;

/* Runs `kernel` of FENCE_PTX (one thread) with `key` set to on/off. */
static fence_run run_key(const char *key, bool on, const char *kernel)
{
    char *set = g_strdup_printf("%s=%s", key, on ? "true" : "false");
    const char *sets[] = {set, "const_cache.kernel_params=false", "l1i.enabled=false",
                          "l2.memcpy_fill=true", NULL};
    calib_env e = env_open(sets, FENCE_PTX);
    ptxemu_dptr in = 0;
    uint32_t host[32] = {0};
    assert_int_equal(ptxemu_malloc(e.ctx, &in, sizeof host), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(e.ctx, in, host, sizeof host), PTXEMU_OK);
    void *args[] = {&in};
    assert_int_equal(ptxemu_launch(e.mod, kernel, (ptxemu_dim3){1, 1, 1},
                                   (ptxemu_dim3){1, 1, 1}, 0, args),
                     PTXEMU_OK);
    fence_run r = {stat_first(&e, "cycles"), stat_first(&e, "l1_hits"),
                   stat_first(&e, "l1_misses"), stat_first(&e, "l2_hits"),
                   stat_first(&e, "l1_acquire_drops"), stat_first(&e, "l1_bypasses")};
    ptxemu_ctx_destroy(e.ctx);
    g_free(set);
    return r;
}

static fence_run run_fence(bool inval, const char *kernel)
{
    return run_key("l1d.fence_invalidate", inval, kernel);
}

static void test_fence_invalidate(void **state)
{
    (void)state;
    fence_run off = run_fence(false, "ff"), on = run_fence(true, "ff");
    assert_int_equal(off.l1_hits, 1);
    assert_int_equal(off.l1_misses, 1);
    assert_int_equal(off.l2_hits, 1);
    assert_int_equal(off.drops, 0);
    assert_int_equal(on.l1_hits, 0);
    assert_int_equal(on.l1_misses, 2);
    assert_int_equal(on.l2_hits, 2);
    assert_int_equal(on.drops, 1);
    if (on.cycles < off.cycles + 120 + 2 * 4)
        fail_msg("the load after the membar ended %lld cycles later, expected >= 128",
                 (long long)on.cycles - (long long)off.cycles);
    /* no membar: the key changes nothing */
    fence_run noff = run_fence(false, "nf"), non = run_fence(true, "nf");
    assert_int_equal(non.l1_hits, 1);
    assert_int_equal(non.cycles, noff.cycles);
}

static void test_volatile_cached(void **state)
{
    (void)state;
    fence_run off = run_key("l1d.volatile_cached", false, "vv");
    fence_run on = run_key("l1d.volatile_cached", true, "vv");
    assert_int_equal(off.bypasses, 2);
    assert_int_equal(off.l1_hits, 0);
    assert_int_equal(off.l1_misses, 0);
    assert_int_equal(off.l2_hits, 2);
    assert_int_equal(on.bypasses, 0);
    assert_int_equal(on.l1_hits, 1);
    assert_int_equal(on.l1_misses, 1);
    assert_int_equal(on.l2_hits, 1);
    if (on.cycles + 60 > off.cycles)
        fail_msg("the L1 hit saved %lld cycles, expected >= 60",
                 (long long)off.cycles - (long long)on.cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fence_invalidate),
        cmocka_unit_test(test_volatile_cached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
