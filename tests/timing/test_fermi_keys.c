/* tests/timing/test_fermi_keys.c — the keys added so the gtx480 preset can
 * follow GPGPU-Sim's SM2_GTX480 value for value, each against a value
 * worked out by hand:
 *   - l1d.set_index = fermi-hash: the sets of chosen addresses (Nugteren et
 *     al., HPCA 2014: address bits 7-11 XOR bits 13, 14, 15, 17, 19; bit 12
 *     on top with 64 sets), seen as conflicts in a direct-mapped cache, and
 *     the 32-or-64-sets rule;
 *   - units.dp_on_sfu: DP and SFU instructions share one unit slice;
 *   - dram.latency: a cold miss takes exactly that many L2 cycles longer;
 *   - l1d.miss_queue: a full miss queue refuses the next instruction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/ptxemu.h"
#include "tests/support/test_util.h"
#include "timing/cache.h"
#include "timing/config.h"
#include "timing/memsys.h"
#include "tests/support/memsys_harness.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ set index */

/* Inserting b after a into a direct-mapped cache evicts a exactly when
 * both map to one set. */
static bool conflict(uint32_t sets, bool hash, uint64_t a, uint64_t b)
{
    cache c;
    cache_init(&c, sets, 1, GPU_REPL_LRU);
    if (hash)
        cache_set_fermi_hash(&c, 7); /* 128-byte lines: key = address >> 7 */
    uint64_t victim = CACHE_NO_KEY;
    bool vd = false;
    cache_insert(&c, a, false, &victim, &vd);
    bool evicted = cache_insert(&c, b, false, &victim, &vd) && victim == a;
    cache_free(&c);
    return evicted;
}

static void test_fermi_hash_sets(void **state)
{
    (void)state;
    /* 0x2080 (key 65): bits 7 and 13 -> lower 1 ^ upper 1 = set 0, as
     * address 0; linear: 65 % 32 = 1 */
    assert_true(conflict(32, true, 0, 0x2080 >> 7));
    assert_false(conflict(32, false, 0, 0x2080 >> 7));
    /* 0xA0000 (key 5120): bits 17, 19 -> upper 8 + 16 = 24, lower 0: set
     * 24, as 0xC00 (key 24, bits 10 and 11 -> lower 24); linear: set 0 */
    assert_true(conflict(32, true, 0xC00 >> 7, 0xA0000 >> 7));
    assert_false(conflict(32, false, 0xC00 >> 7, 0xA0000 >> 7));
    assert_true(conflict(32, false, 0, 0xA0000 >> 7));
    /* bit 12 (0x1000, key 32) is not used with 32 sets: set 0 */
    assert_true(conflict(32, true, 0, 0x1000 >> 7));
    /* with 64 sets it is set bit 5: 0x1000 -> set 32, not 0 */
    assert_false(conflict(64, true, 0, 0x1000 >> 7));
    /* 64 sets: 0x2000 (key 64, bit 13) -> set 1 = 0x80's (key 1);
     * linear: 64 % 64 = 0 */
    assert_true(conflict(64, true, 0x80 >> 7, 0x2000 >> 7));
    assert_false(conflict(64, false, 0x80 >> 7, 0x2000 >> 7));
}

static void test_fermi_hash_needs_32_or_64_sets(void **state)
{
    (void)state;
    gpu_config c;
    GError *err = NULL;
    gpu_config_defaults(&c); /* 16 KB, 4 ways, 128 B: 32 sets */
    const char *const ok[] = {"l1d.set_index=fermi-hash", NULL};
    assert_true(gpu_config_apply_overrides(&c, ok, &err));
    const char *const s64[] = {"l1d.size=32K", NULL};
    assert_true(gpu_config_apply_overrides(&c, s64, &err));
    const char *const s16[] = {"l1d.size=8K", NULL};
    assert_false(gpu_config_apply_overrides(&c, s16, &err));
    assert_non_null(strstr(err->message, "32 or 64 sets"));
    g_clear_error(&err);
}

/* ------------------------------------------------------------ DP on SFU */

/* One warp runs `pairs` independent add.f64 / sqrt.approx.f32 pairs
 * (destinations rotate over 16 registers, far beyond the 8-cycle
 * latencies). */
static uint64_t dp_sfu_cycles(bool on_sfu, unsigned pairs)
{
    GString *s = g_string_new(".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".visible .entry k()\n{\n    .reg .f64 %fd<20>;\n"
                              "    .reg .f32 %f<20>;\n"
                              "    mov.f64 %fd1, 0d3FF0000000000000;\n"
                              "    mov.f32 %f1, 0f3F800000;\n");
    for (unsigned i = 0; i < pairs; i++)
        g_string_append_printf(s, "    add.f64 %%fd%u, %%fd1, %%fd1;\n"
                                  "    sqrt.approx.f32 %%f%u, %%f1;\n",
                               2 + i % 16, 2 + i % 16);
    g_string_append(s, "    ret;\n}\n");
    /* 1000 instructions are 8 KB of code, four times gtx480's instruction
     * cache: every line would miss; the units are measured without it */
    const char *sets[] = {on_sfu ? "units.dp_on_sfu=true" : "units.dp_on_sfu=false",
                          "initiation.dp_add=4", "initiation.sfu=4", "l1i.enabled=false",
                          NULL};
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "gtx480";
    o.timing_set = sets;
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(ctx));
    ptxemu_module *mod;
    if (ptxemu_module_load_string(ctx, s->str, "dpsfu.ptx", &mod) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(ctx));
    if (ptxemu_launch(mod, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){32, 1, 1}, 0, NULL) !=
        PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(ctx));
    ptxemu_timing_summary sum;
    assert_int_equal(ptxemu_get_timing_summary(ctx, &sum), PTXEMU_OK);
    /* the energy classes stay DP and SFU wherever the DP adds ran:
     * pairs x energy.dp_inst 1.9 nJ and pairs x energy.sfu_inst 1.6 nJ */
    const char *json = ptxemu_timing_stats_json(ctx);
    assert_non_null(json);
    double dp_j = test_json_real(json, "dp_j", 0), sfu_j = test_json_real(json, "sfu_j", 0);
    if (fabs(dp_j - pairs * 1.9e-9) > 1e-12 || fabs(sfu_j - pairs * 1.6e-9) > 1e-12)
        fail_msg("energy: dp %g J, sfu %g J; by hand %g, %g", dp_j, sfu_j, pairs * 1.9e-9,
                 pairs * 1.6e-9);
    ptxemu_ctx_destroy(ctx);
    g_string_free(s, TRUE);
    return sum.cycles;
}

/* gtx480: 32 SFU lanes and 32 DP lanes = 16 per scheduler, occupancy 2,
 * raised to the initiation interval 4 set here.
 *   on the SFU: all 1000 instructions take turns on one slice, 4 cycles
 *     each: 4000 cycles;
 *   DP lanes of their own: an add and a sqrt issue on consecutive cycles,
 *     then both units are busy until 4 cycles after the add: 500 x 4 =
 *     2000 cycles.
 * Plus at most 16 cycles of start-up, the last latency (8) and the ret. */
static void test_dp_on_sfu(void **state)
{
    (void)state;
    uint64_t shared = dp_sfu_cycles(true, 500), apart = dp_sfu_cycles(false, 500);
    printf("# DP on the SFU: %llu cycles (expected 4000), DP units: %llu (expected 2000)\n",
           (unsigned long long)shared, (unsigned long long)apart);
    assert_true(shared >= 4000 && shared <= 4016);
    assert_true(apart >= 2000 && apart <= 2016);
}

/* ------------------------------------------------------------ memory side */

/* A warp load of 4-byte words, lane l at base + l * stride. */
static ex_access load_of(uint64_t base, uint64_t stride)
{
    return memh_access(EX_SPACE_GLOBAL, false, 0xffffffffu, base, stride, 4);
}

/* Cycles of one cold load on SM 0 with the memory system otherwise idle. */
static uint64_t cold_miss(const char *latency)
{
    const char *const sets[] = {latency, NULL};
    memh *h = memh_new("gtx480", sets, 8);
    ex_access a = load_of(0x700000000ull, 4);
    uint64_t c = memh_step(h);
    assert_true(memsys_issue(h->m, 0, 0, &a, 1, c));
    uint64_t t = memh_wait(h, 1) - c;
    memh_free(h);
    return t;
}

/* dram.latency delays the request by that many L2 cycles = core cycles on
 * gtx480 (both 700 MHz); the DRAM clock (924 MHz) can move the result by
 * one core cycle either way. */
static void test_dram_latency(void **state)
{
    (void)state;
    uint64_t none = cold_miss("dram.latency=0"), hundred = cold_miss("dram.latency=100");
    printf("# cold miss: %llu cycles without dram.latency, %llu with 100\n",
           (unsigned long long)none, (unsigned long long)hundred);
    assert_true(hundred >= none + 99 && hundred <= none + 101);
    gpu_config d;
    gpu_config_defaults(&d);
    assert_int_equal(d.dram.latency, 0); /* other presets: no delay */
}

/* Five SMs share one cluster bus (one packet per NoC cycle = core cycle).
 * Each issues a load of 4 lines at cycle c; by c + 4 the bus has sent at
 * most 4 packets, at most 1 of SM 0's, so SM 0's miss queue still holds
 * at least 3 when its port takes the next 4-line load at c + 4: refused
 * with l1d.miss_queue = 4 (3 + 4 > 4), taken with l1d.miss_queue = 0 (as
 * many as the 64 MSHRs). */
static bool second_load_taken(const char *mq)
{
    /* without the L1 latency queue, whose stages would hold the packets
     * in front of the miss queue (its bound grows by them) */
    const char *const sets[] = {"gpu.sms_per_cluster=5", mq, "l1d.latency_queue=false", NULL};
    memh *h = memh_new("gtx480", sets, 8);
    uint64_t c = memh_step(h);
    for (uint32_t sm = 0; sm < 5; sm++) {
        ex_access a = load_of(0x700000000ull + sm * 0x10000ull, 16); /* 4 lines */
        assert_true(memsys_issue(h->m, sm, 0, &a, sm, c));
    }
    while (h->cycle < c + 4)
        memh_step(h);
    uint64_t c4 = memh_step(h);
    assert_int_equal(c4, c + 4);
    ex_access b = load_of(0x700100000ull, 16);
    bool taken = memsys_issue(h->m, 0, 1, &b, 5, c4);
    memh_free(h);
    return taken;
}

static void test_miss_queue(void **state)
{
    (void)state;
    assert_false(second_load_taken("l1d.miss_queue=4"));
    assert_true(second_load_taken("l1d.miss_queue=0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fermi_hash_sets),
        cmocka_unit_test(test_fermi_hash_needs_32_or_64_sets),
        cmocka_unit_test(test_dp_on_sfu),
        cmocka_unit_test(test_dram_latency),
        cmocka_unit_test(test_miss_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
