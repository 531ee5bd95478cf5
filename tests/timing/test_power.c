/* tests/timing/test_power.c — the energy model (timing/power.c,
 * docs/energy.md) against hand-computed values: static energy counts only
 * powered SM-cycles (a gated SM draws none), dynamic energy is count x
 * coefficient per event class, and power and EDP follow from energy and
 * time; then through the real timing model, where SMs a policy gates for
 * the whole kernel add no static energy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/api_internal.h"
#include "api/ptxemu.h"
#include "timing/power.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) <= 1e-12 * fmax(1.0, fabs(b)) + 1e-18)

static void test_hand_computed(void **state)
{
    (void)state;
    gpu_config cfg;
    GError *err = NULL;
    assert_true(gpu_config_load_preset("c2050", &cfg, &err));
    const char *const sets[] = {"clock.core=1000", "energy.static_core=2",
                                "energy.static_uncore=10", "energy.alu_inst=0.5",
                                "energy.sfu_inst=1", "energy.dp_inst=2", "energy.mem_inst=0.25",
                                "energy.l1_access=3", "energy.shared_access=4",
                                "energy.const_access=0", "energy.l2_access=5",
                                "energy.noc_flit=6", "energy.dram_access=7",
                                "energy.dram_activate=8", NULL};
    assert_true(gpu_config_apply_overrides(&cfg, sets, &err));
    tm_kernel_stats *k = tm_kernel_stats_new(3);
    k->start = 1;
    k->end = 1000; /* 1000 cycles = 1 us at 1000 MHz */
    k->cores[1].gated_cycles = 1000; /* off for the whole kernel */
    k->cores[2].gated_cycles = 250;
    k->total.alu_instrs = 100; /* 70 SP, 20 SFU, 10 DP */
    k->total.sfu_instrs = 20;
    k->total.dp_instrs = 10;
    k->total.mem_instrs = 40;
    k->total.shared_accesses = 5;
    k->total.shared_conflicts = 1;
    k->mem.l1_accesses = 30;
    k->mem.l2_accesses = 11;
    k->mem.noc_flits = 9;
    k->mem.dram_reads = 3;
    k->mem.dram_writes = 1;
    k->mem.dram_activates = 2;
    tm_energy e;
    tm_kernel_energy(&cfg, k, &e);
    NEAR(e.seconds, 1e-6);
    /* powered SM-cycles: 1000 + 0 + 750 */
    NEAR(e.static_core_j, 2.0 * 1750 / 1e9);
    NEAR(e.static_uncore_j, 10.0 * 1e-6);
    double dyn_nj = 70 * 0.5 + 20 * 1 + 10 * 2 + 40 * 0.25 + 30 * 3 + 6 * 4 + 11 * 5 + 9 * 6 +
                    4 * 7 + 2 * 8;
    NEAR(e.dynamic_j, dyn_nj * 1e-9);
    NEAR(e.total_j, 3.5e-6 + 1e-5 + dyn_nj * 1e-9);
    NEAR(e.avg_power_w, e.total_j / 1e-6);
    NEAR(e.edp_js, e.total_j * 1e-6);
    tm_kernel_stats_free(k);
}

/* throttle.active_sms=2 gates SMs 2..15 for the whole kernel: the static
 * core energy is that of 2 SMs, and the JSON carries the energy record. */
static void test_gated_sms_draw_nothing(void **state)
{
    (void)state;
    const char *const sets[] = {"cta.filters=throttle", "throttle.active_sms=2",
                                "throttle.burst=1000", NULL};
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "m2090";
    o.timing_set = sets;
    ptxemu_ctx *ctx = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    char *path = test_source_path("tests/corpus/sched/copyadd.ptx");
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_module_load_file(ctx, path, &mod), PTXEMU_OK);
    g_free(path);
    uint32_t n = 24 * 64;
    ptxemu_dptr a, b;
    assert_int_equal(ptxemu_malloc(ctx, &a, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, n * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, a, 0, n * 4), PTXEMU_OK);
    void *args[3] = {&a, &b, &n};
    ptxemu_launch_desc d = {mod, "copyadd", {24, 1, 1}, {64, 1, 1}, 0, args, 0, -1};
    assert_int_equal(ptxemu_launch_batch(ctx, &d, 1), PTXEMU_OK);
    const tm_stats *st = ptxemu_timing_stats(ctx);
    const tm_kernel_stats *k = g_ptr_array_index(st->kernels, 0);
    gpu_config cfg;
    GError *err = NULL;
    assert_true(gpu_config_load_preset("m2090", &cfg, &err));
    tm_energy e;
    tm_kernel_energy(&cfg, k, &e);
    double hz = cfg.clock.core * 1e6;
    NEAR(e.static_core_j, cfg.energy.static_core * 2.0 * (double)tm_kernel_cycles(k) / hz);
    assert_true(e.dynamic_j > 0);
    const char *json = ptxemu_timing_stats_json(ctx);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"energy\": {"));
    assert_non_null(strstr(json, "\"edp_js\": "));
    ptxemu_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_computed),
        cmocka_unit_test(test_gated_sms_draw_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
