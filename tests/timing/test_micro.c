/* tests/timing/test_micro.c — the whole timing model (SM, scheduler, memory
 * system) against numbers the presets imply, through the public API and the
 * two microbenchmarks' own drivers (benchmarks/pointer-chase, stream-copy):
 *   - pointer-chase: cycles per dependent load within 10% of the expected
 *     value for L1-, L2- and DRAM-resident chains (m2090, gtx480), and each
 *     extra step is exactly one access of the intended level;
 *   - stream-copy: DRAM bandwidth at most the configured peak and at least
 *     70% of it; bytes moved over time at least 70% of the peak, and above
 *     the peak by no more than the L2 can hold back;
 *   - both give the functional answer, with timing on and off;
 *   - straight-line ALU code: cycles and IPC in a tight window (both
 *     bounds) around values derived by hand from the schedulers, dispatch
 *     interval, SP lanes and latency (independent adds, dependent chain). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/support/test_util.h"
#include "timing/config.h"

/* The drivers (and the helpers they use) come from benchmarks/, so the test
 * measures exactly what `ptxemu bench run NAME --timing` reports. */
#include "benchmarks/bench_util.c"
#include "benchmarks/pointer-chase/driver.c"
#include "benchmarks/stream-copy/driver.c"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

static gpu_config load_preset(const char *preset)
{
    gpu_config c;
    GError *err = NULL;
    if (!gpu_config_load_preset(preset, &c, &err))
        fail_msg("preset %s: %s", preset, err->message);
    return c;
}

/* A context (timing on `preset`, or off when NULL) with bench's PTX. */
static bench_env env_new(const char *preset, const char *bench)
{
    ptxemu_options o = {0};
    o.timing = preset != NULL;
    o.timing_config = preset;
    bench_env env = {0};
    if (ptxemu_ctx_create(&env.ctx, &o) != PTXEMU_OK)
        fail_msg("%s: %s", bench, ptxemu_last_error(env.ctx));
    char *rel = g_strdup_printf("benchmarks/%s/kernels.ptx", bench);
    char *path = test_source_path(rel);
    if (ptxemu_module_load_file(env.ctx, path, &env.mod) != PTXEMU_OK)
        fail_msg("%s: %s", path, ptxemu_last_error(env.ctx));
    g_free(rel);
    g_free(path);
    env.size = BENCH_TINY;
    env.seed = 1;
    return env;
}

static void assert_within(double measured, double expected, double tol, const char *what)
{
    if (!(fabs(measured - expected) <= tol * expected))
        fail_msg("%s: measured %.1f, expected %.1f (+-%.0f%%)", what, measured, expected,
                 tol * 100);
}

/* ------------------------------------------------------------ pointer-chase */

/* Expected cycles per step.  The PTX loop (benchmarks/pointer-chase/
 * kernels.ptx) is
 *     mul.wide.u32  %rd4, %r11, 4;       needs the last load's value
 *     add.s64       %rd5, %rd1, %rd4;    latency int_mul = 4 later
 *     ld.global.u32 %r11, [%rd5];        latency int_add = 4 later
 *     add.s32 / setp.lt.u32 / @%p2 bra   independent: issue under the load
 * The load issues at cycle t; its data is back at t + M (M: the memory
 * latency of the level, as tests/timing/test_memsys.c derives it).  The
 * memory system delivers completions after the SMs have run that cycle, so
 * the SM sees the value at t + M + 1 and issues the mul.wide at the next
 * issue slot of its scheduler (every core.dispatch_interval cycles), then
 * the add.s64 and the ld follow the ALU latencies:
 *     step = roundup(M + 1, dispatch_interval) + int_mul + int_add.
 *
 * M per level:
 *   L1    l1d.hit_latency (m2090 20, gtx480 35).
 *   L2    m2090 115 = 1 tag + 1 bus + 4 request crossbar + 100 L2 + 1
 *         hand-over + 7 reply crossbar (4 flits) + 1 fill; gtx480 135, the
 *         same path with l2.hit_latency 120 and 40-byte flits (4 flits),
 *         + 34 with l1d.latency_queue (the miss is found at issue + 35,
 *         not issue + 1): 169.
 *   DRAM  the cold miss of test_memsys (m2090 138, gtx480 ~257: L2 path +
 *         dram.latency 100 + ACT, tRCD 12, two reads, tCL 12, last burst) plus the
 *         precharge: the chain steps one row further in the same bank, so
 *         the open row must close first, tRP = 12 DRAM cycles (m2090: x
 *         1300/1850 = 8.4 core cycles; gtx480: x 700/924 = 9.1).
 * m2090 (dispatch 2): L1 22 + 8 = 30, L2 116 + 8 = 124,
 *                     DRAM roundup(147.4, 2) + 8 = 156.
 * gtx480 (dispatch 1): L1 36 + 8 = 44, L2 170 + 8 = 178,
 *                      DRAM roundup(301.1, 1) + 8 = 310. */
static double chase_expect(const gpu_config *c, double mem)
{
    double d = c->core.dispatch_interval;
    return ceil((mem + 1) / d) * d + c->latency.cycles[PTX_LAT_INT_MUL] +
           c->latency.cycles[PTX_LAT_INT_ADD];
}

static void check_chase(const char *preset, double l2_mem, double dram_cold)
{
    gpu_config cfg = load_preset(preset);
    double precharge = cfg.dram.tRP * (double)cfg.clock.core / cfg.clock.dram;
    const double mem[PC_LEVELS] = {cfg.l1d.hit_latency, l2_mem, dram_cold + precharge};
    const uint32_t n = pc_steps(BENCH_TINY);
    for (unsigned l = 0; l < PC_LEVELS; l++) {
        bench_env env = env_new(preset, "pointer-chase");
        pc_result r;
        bench_outcome o = pc_measure(&env, (pc_level)l, n, &r);
        if (o != BENCH_PASS)
            fail_msg("%s %s: %s", preset, pc_level_names[l], env.msg);
        double want = chase_expect(&cfg, mem[l]);
        printf("# %s pointer-chase %s: %.2f cycles/step, expected %.1f\n", preset,
               pc_level_names[l], r.cycles_per_step, want);
        char what[64];
        snprintf(what, sizeof what, "%s %s cycles per step", preset, pc_level_names[l]);
        assert_within(r.cycles_per_step, want, 0.10, what);

        /* launches: prime, W + N, prime, W + 2N.  The N extra steps are N
         * more accesses of exactly the intended level. */
        const char *json = ptxemu_timing_stats_json(env.ctx);
        assert_non_null(json);
#define EXTRA(key) (test_json_nth(json, key, 3) - test_json_nth(json, key, 1))
        assert_int_equal(test_json_count(json, "l1_hits"), 4 + 1); /* 4 launches + total */
        if (l == PC_L1) {
            assert_int_equal(EXTRA("l1_hits"), n);
            assert_int_equal(EXTRA("l1_misses"), 0);
        } else if (l == PC_L2) {
            assert_int_equal(EXTRA("l1_hits"), 0);
            assert_int_equal(EXTRA("l2_hits"), n);
            assert_int_equal(EXTRA("dram_reads"), 0);
        } else {
            assert_int_equal(EXTRA("l2_hits"), 0);
            assert_int_equal(EXTRA("dram_reads"), n);
            assert_int_equal(EXTRA("dram_row_hits"), 0);
            assert_int_equal(EXTRA("dram_row_misses"), n);
        }
#undef EXTRA
        ptxemu_ctx_destroy(env.ctx);
    }
}

static void test_chase_m2090(void **state)
{
    (void)state;
    check_chase("m2090", 115, 138);
}

static void test_chase_gtx480(void **state)
{
    (void)state;
    /* l1d.latency_queue: a miss leaves l1d.hit_latency - 1 = 34 cycles
     * later than the path above */
    check_chase("gtx480", 135 + 34, 257 + 34);
}

/* ------------------------------------------------------------ stream-copy */

/* 2^18 float4s: 4 MiB per array, 5.3 times the 768 KiB L2 of both presets;
 * 1,024 CTAs of 256 threads, 64 per SM, enough warps to keep every L1's
 * MSHRs full. */
static void check_stream(const char *preset)
{
    gpu_config cfg = load_preset(preset);
    /* dram.partitions x bus_width / 8 x data_rate x clock.dram, per core cycle */
    double peak = gpu_config_dram_gbps(&cfg) * 1e9 / (cfg.clock.core * 1e6);
    bench_env env = env_new(preset, "stream-copy");
    sc_result r;
    bench_outcome o = sc_copy(&env, 1u << 18, &r);
    if (o != BENCH_PASS)
        fail_msg("%s stream-copy: %s", preset, env.msg);
    printf("# %s stream-copy: %llu bytes moved in %llu cycles = %.1f B/cycle (%.1f%% of "
           "%.1f); DRAM %llu bytes = %.1f B/cycle (%.1f%%), %.1f GB/s of %.1f\n",
           preset, (unsigned long long)r.bytes, (unsigned long long)r.cycles,
           r.bytes_per_cycle, 100 * r.bytes_per_cycle / peak, peak,
           (unsigned long long)r.dram_bytes, r.dram_bytes_per_cycle,
           100 * r.dram_bytes_per_cycle / peak, r.dram_gbps, gpu_config_dram_gbps(&cfg));
    assert_true(r.cycles > 0);
    assert_within(r.core_mhz, cfg.clock.core, 1e-9, "core clock in the statistics");
    /* every read is a cold miss: the source crossed the DRAM bus */
    assert_true(r.dram_bytes >= r.bytes / 2);
    assert_true(r.dram_bytes_per_cycle <= peak);
    assert_true(r.dram_bytes_per_cycle >= 0.70 * peak);
    assert_true(r.bytes_per_cycle >= 0.70 * peak);
    /* what was moved but not (yet) on the DRAM bus is written lines held by
     * the write-back L2 */
    assert_true(r.bytes - r.dram_bytes <= gpu_config_l2_total(&cfg));
    ptxemu_ctx_destroy(env.ctx);
}

static void test_stream_m2090(void **state)
{
    (void)state;
    check_stream("m2090");
}

static void test_stream_gtx480(void **state)
{
    (void)state;
    check_stream("gtx480");
}

/* ------------------------------------------------------------ ALU issue */

/* One CTA of `warps` warps on one SM runs a straight line of n_alu
 * add.s32 between a mov and the ret: independent adds read %r1 and write
 * %r2..%r33 in turn (a register is written again 32 adds later, long after
 * its 4-cycle result), a dependent chain adds into %r1 each time. */
#define ALU_N 1000
#define ALU_INSTRS (ALU_N + 2) /* mov + adds + ret, per warp */

static char *alu_ptx(bool dependent)
{
    GString *s = g_string_new(".version 7.0\n.target sm_70\n.address_size 64\n"
                              ".visible .entry alu()\n{\n    .reg .b32 %r<40>;\n"
                              "    mov.u32 %r1, %tid.x;\n");
    for (unsigned i = 0; i < ALU_N; i++) {
        if (dependent)
            g_string_append_printf(s, "    add.s32 %%r1, %%r1, %u;\n", i % 7 + 1);
        else
            g_string_append_printf(s, "    add.s32 %%r%u, %%r1, %u;\n", 2 + i % 32, i);
    }
    g_string_append(s, "    ret;\n}\n");
    return g_string_free(s, FALSE);
}

/* Runs the kernel and checks cycles and IPC against the hand-derived
 * `expect` cycles: at least that many (the model may not issue faster than
 * its config allows) and at most 16 more (getting the CTA onto the SM and
 * the first fetch, 2 cycles; the last result's latency, at most 7, and the
 * ret; rounding to a dispatch slot). */
static void check_alu(const char *preset, const char *const *sets, bool dependent,
                      unsigned warps, uint64_t expect)
{
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = preset;
    o.timing_set = sets;
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("%s: %s", preset, ptxemu_last_error(ctx));
    char *ptx = alu_ptx(dependent);
    ptxemu_module *mod;
    if (ptxemu_module_load_string(ctx, ptx, "alu.ptx", &mod) != PTXEMU_OK)
        fail_msg("alu.ptx: %s", ptxemu_last_error(ctx));
    if (ptxemu_launch(mod, "alu", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){32 * warps, 1, 1}, 0,
                      NULL) != PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(ctx));
    ptxemu_timing_summary s;
    assert_int_equal(ptxemu_get_timing_summary(ctx, &s), PTXEMU_OK);
    uint64_t instrs = (uint64_t)warps * ALU_INSTRS;
    printf("# %s%s%s %s, %u warps: %llu cycles (expected %llu), IPC %.4f\n", preset,
           sets ? " " : "", sets ? sets[0] : "", dependent ? "dependent chain" : "independent adds",
           warps, (unsigned long long)s.cycles, (unsigned long long)expect, s.ipc);
    assert_int_equal(s.warp_instructions, instrs);
    if (s.cycles < expect || s.cycles > expect + 16)
        fail_msg("%s: %llu cycles, expected %llu to %llu", preset,
                 (unsigned long long)s.cycles, (unsigned long long)expect,
                 (unsigned long long)expect + 16);
    double ipc_hi = (double)instrs / (double)expect, ipc_lo = (double)instrs / (expect + 16);
    if (!(s.ipc >= ipc_lo - 1e-9 && s.ipc <= ipc_hi + 1e-9))
        fail_msg("%s: IPC %.4f outside [%.4f, %.4f]", preset, s.ipc, ipc_lo, ipc_hi);
    g_free(ptx);
    ptxemu_ctx_destroy(ctx);
}

/* Independent adds are limited by issue: a scheduler issues at most once
 * per dispatch slot (core.dispatch_interval = d cycles) and its SP slice
 * takes a warp instruction every occ = 32 / (units.sp / warp_schedulers)
 * cycles; dual issue (core.issue_width = 2) does not help, the second
 * instruction of a slot would need a second SP slice.  So a scheduler
 * issues one add every roundup(occ, d) cycles, and a scheduler holding w
 * warps needs w x 1002 x roundup(occ, d) cycles.  The ibuffer refill (2
 * entries, one warp fetched per cycle, usable the next cycle) hides in
 * those gaps: a warp that empties its ibuffer at t is fetched at t + 1 and
 * can issue at t + 2.
 *   m2090 (Table 3.1: 2 schedulers, one instruction every 2 cycles each;
 *   32 SP = 16 lanes per scheduler, occ 2):
 *     1 warp:   1002 x 2 = 2004 cycles, IPC 0.5
 *     4 warps:  2 per scheduler, 2 x 1002 x 2 = 4008 cycles, IPC 1.0 (the
 *               thesis's peak: 2 schedulers x 1/2)
 *     d = 3:    roundup(2, 3) = 3: 1002 x 3 = 3006 cycles, IPC 1/3
 *   k20x (4 schedulers, d 1, dual issue; 192 SP = 48 lanes each, occ 1),
 *   8 warps, ibuffer of 16 (with 2, one fetch per cycle for 8 warps would
 *   cap the SM at 2 instructions per cycle):
 *     2 per scheduler, 2 x 1002 x 1 = 2004 cycles, IPC 4.0 (not 8). */
static void test_alu_independent(void **state)
{
    (void)state;
    check_alu("m2090", NULL, false, 1, 2004);
    check_alu("m2090", NULL, false, 4, 4008);
    check_alu("m2090", (const char *const[]){"core.dispatch_interval=3", NULL}, false, 1, 3006);
    check_alu("k20x", (const char *const[]){"core.ibuffer_entries=16", NULL}, false, 8, 2004);
}

/* A dependent chain is limited by latency: each add waits latency.int_add
 * = L cycles for the last one's result, then for the next dispatch slot:
 * roundup(L, d) per add, 1000 adds (the mov's 1 cycle and the ret's slot
 * fall in the allowance).
 *   m2090 as is (L 4, d 2):   1000 x 4 = 4000 cycles
 *   gtx480, L = 7 (d 1):      1000 x 7 = 7000 cycles
 *   m2090, L = 7 (d 2):       1000 x roundup(7, 2) = 8000 cycles */
static void test_alu_dependent(void **state)
{
    (void)state;
    /* the 1000 adds are 8 KB of code, four times gtx480's instruction
     * cache (l1i): every line would miss; the ALU is measured without it */
    const char *const l7[] = {"latency.int_add=7", "l1i.enabled=false", NULL};
    check_alu("m2090", NULL, true, 1, 4000);
    check_alu("gtx480", l7, true, 1, 7000);
    check_alu("m2090", l7, true, 1, 8000);
}

/* ------------------------------------------------------------ functional */

/* Without timing both drivers still check their answers, report no cycles,
 * and a broken reference fails. */
static void test_functional(void **state)
{
    (void)state;
    bench_env env = env_new(NULL, "pointer-chase");
    pc_result r;
    assert_int_equal(pc_measure(&env, PC_L2, 8, &r), BENCH_PASS);
    assert_true(isnan(r.cycles_per_step));
    assert_int_equal(r.cycles[0], 0);
    assert_int_equal(bench_pointer_chase.run(&env), BENCH_PASS);
    env.break_reference = true;
    assert_int_equal(bench_pointer_chase.run(&env), BENCH_FAIL);
    ptxemu_ctx_destroy(env.ctx);

    env = env_new(NULL, "stream-copy");
    sc_result s;
    assert_int_equal(sc_copy(&env, 1000, &s), BENCH_PASS); /* a partial last CTA */
    assert_int_equal(s.cycles, 0);
    assert_int_equal(bench_stream_copy.run(&env), BENCH_PASS);
    env.break_reference = true;
    assert_int_equal(bench_stream_copy.run(&env), BENCH_FAIL);
    ptxemu_ctx_destroy(env.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chase_m2090),
        cmocka_unit_test(test_chase_gtx480),
        cmocka_unit_test(test_stream_m2090),
        cmocka_unit_test(test_stream_gtx480),
        cmocka_unit_test(test_functional),
        cmocka_unit_test(test_alu_independent),
        cmocka_unit_test(test_alu_dependent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
