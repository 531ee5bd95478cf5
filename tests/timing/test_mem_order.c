/* tests/timing/test_mem_order.c — memory ordering in the timing memory
 * system (runtime/decode.c ex_mem_order, timing/memorder.c):
 *   - the PTX qualifiers map to the order bits the PTX ISA's memory model
 *     implies (volatile, strong wider than the CTA, acquire, .cg, .cv);
 *   - memsys: a volatile / relaxed.gpu / .cg / .cv load of a line that L1
 *     holds goes to L2 (an L2 hit's latency, counted as an L1 bypass, not
 *     a hit); weak and .cta loads still hit; an acquire drops the SM's
 *     clean global lines; a strong store under write-back L1 is written
 *     through; a kernel boundary (memsys_invalidate_l1) makes a cached line
 *     miss;
 *   - whole kernels (tests/corpus/hand/mem_order.ptx) under timing with one
 *     CTA per SM: a two-CTA flag handshake across SMs (st.release.gpu /
 *     ld.acquire.gpu) and a volatile spin terminate with the producer's
 *     data, every spin load is an L1 bypass, and the consumer's L1 copy of
 *     the data (read before the spin) is dropped by the acquire;
 *   - relaunching a kernel: its loads miss in L1 again (kernel boundary).
 * Values never come from the timing caches (the executor reads memory at
 * issue), so a stale L1 shows in the statistics, not in the answers: the
 * tests check both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/ptxemu.h"
#include "frontend/parser.h"
#include "runtime/decode.h"
#include "tests/support/test_util.h"
#include "timing/config.h"
#include "timing/memsys.h"
#include "tests/support/memsys_harness.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ decoding */

/* Each line's ld/st/atom and the order bits the PTX ISA gives it. */
static void test_order_bits(void **state)
{
    (void)state;
    static const struct { const char *ptx; uint8_t bits; } rows[] = {
        {"ld.global.u32 %r1, [%rd1];", 0},
        {"ld.weak.global.u32 %r1, [%rd1];", 0},
        {"ld.global.ca.u32 %r1, [%rd1];", 0},
        {"ld.global.nc.u32 %r1, [%rd1];", 0},
        {"ld.volatile.global.u32 %r1, [%rd1];", EX_ORD_VOLATILE},
        {"ld.relaxed.cta.global.u32 %r1, [%rd1];", 0},
        {"ld.acquire.cta.global.u32 %r1, [%rd1];", 0},
        {"ld.relaxed.gpu.global.u32 %r1, [%rd1];", EX_ORD_STRONG},
        {"ld.relaxed.sys.global.u32 %r1, [%rd1];", EX_ORD_STRONG},
        {"ld.acquire.gpu.global.u32 %r1, [%rd1];", EX_ORD_STRONG | EX_ORD_ACQUIRE},
        {"ld.acquire.sys.global.u32 %r1, [%rd1];", EX_ORD_STRONG | EX_ORD_ACQUIRE},
        {"ld.global.cg.u32 %r1, [%rd1];", EX_ORD_CG},
        {"ld.global.cv.u32 %r1, [%rd1];", EX_ORD_CV},
        {"st.volatile.global.u32 [%rd1], %r1;", EX_ORD_VOLATILE},
        {"st.release.gpu.global.u32 [%rd1], %r1;", EX_ORD_STRONG},
        {"st.relaxed.cta.global.u32 [%rd1], %r1;", 0},
        {"st.global.u32 [%rd1], %r1;", 0},
        {"atom.global.add.u32 %r1, [%rd1], 1;", 0},
        {"atom.acquire.gpu.global.add.u32 %r1, [%rd1], 1;", EX_ORD_STRONG | EX_ORD_ACQUIRE},
        {"atom.acq_rel.sys.global.add.u32 %r1, [%rd1], 1;", EX_ORD_STRONG | EX_ORD_ACQUIRE},
        {"red.release.gpu.global.add.u32 [%rd1], 1;", EX_ORD_STRONG},
        {"red.relaxed.cta.global.add.u32 [%rd1], 1;", 0},
    };
    GString *src = g_string_new(".version 7.0\n.target sm_70\n.address_size 64\n"
                                ".visible .entry k(.param .u64 p)\n{\n"
                                "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
                                "  ld.param.u64 %rd1, [p];\n");
    for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
        g_string_append_printf(src, "  %s\n", rows[i].ptx);
    g_string_append(src, "  ret;\n}\n");
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(src->str, src->len, "order.ptx", &err);
    if (!m)
        fail_msg("%s", err->message);
    const ptx_func *f = ptx_module_func(m, 0);
    assert_int_equal(f->instrs->len, G_N_ELEMENTS(rows) + 2);
    for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
        uint8_t got = ex_mem_order(ptx_func_instr(f, (uint32_t)i + 1));
        if (got != rows[i].bits)
            fail_msg("'%s': order bits 0x%x, expected 0x%x", rows[i].ptx, got, rows[i].bits);
    }
    ptx_module_free(m);
    g_string_free(src, TRUE);
}

/* ------------------------------------------------------------ memsys */

#define MAX_TOKENS 64

typedef memh harness;

static harness *h_new(const char *const *sets)
{
    return memh_new("m2090", sets, MAX_TOKENS);
}

/* Issues one access of `space` by lanes 0-31 (4 bytes each, one line) on
 * SM sm with order bits `order`, runs until the memory system is idle and
 * returns the cycles until the instruction was done. */
static uint64_t h_access_in(harness *h, uint8_t space, uint32_t sm, uint64_t addr, bool write,
                            uint8_t order)
{
    ex_access a = memh_access(space, write, FULL_MASK, addr, 4, 4);
    a.order = order;
    uint64_t t = memh_token(h);
    uint64_t c = memh_step(h);
    assert_true(memsys_issue(h->m, sm, 0, &a, t, c));
    memh_drain(h);
    assert_true(h->done_at[t] != MEMH_NOT_DONE);
    return h->done_at[t] - c;
}

static uint64_t h_access(harness *h, uint32_t sm, uint64_t addr, bool write, uint8_t order)
{
    return h_access_in(h, EX_SPACE_GLOBAL, sm, addr, write, order);
}

typedef struct l1_count {
    uint64_t hits, misses, bypasses, drops, writes, const_hits, const_misses;
} l1_count;

static l1_count h_count(const harness *h)
{
    memsys_stats st;
    memsys_extra_stats x;
    memsys_get_stats(h->m, &st);
    memsys_get_extra_stats(h->m, &x);
    return (l1_count){st.l1_hits, st.l1_misses, x.l1_bypasses, x.l1_acquire_drops,
                      st.noc_write_requests, x.const_hits, x.const_misses};
}

/* Asserts the counters moved by exactly (hits, misses, bypasses) since `b`. */
static void expect_delta(const harness *h, const l1_count *b, uint64_t hits, uint64_t misses,
                         uint64_t bypasses, const char *what)
{
    l1_count n = h_count(h);
    if (n.hits - b->hits != hits || n.misses - b->misses != misses ||
        n.bypasses - b->bypasses != bypasses)
        fail_msg("%s: L1 hits +%llu misses +%llu bypasses +%llu, expected +%llu +%llu +%llu",
                 what, (unsigned long long)(n.hits - b->hits),
                 (unsigned long long)(n.misses - b->misses),
                 (unsigned long long)(n.bypasses - b->bypasses), (unsigned long long)hits,
                 (unsigned long long)misses, (unsigned long long)bypasses);
}

/* A cached line, then each ordered load of it: L2 latency and a bypass;
 * weak loads in between still hit. */
static void test_ordered_loads_bypass_l1(void **state)
{
    (void)state;
    harness *h = h_new(NULL);
    const uint64_t line = 0x700000000ull;
    h_access(h, 0, line, false, 0);                   /* cold: DRAM */
    uint64_t l1 = h_access(h, 0, line, false, 0);      /* now in L1 */
    uint64_t l2 = h_access(h, 1, line, false, 0);      /* another SM: an L2 hit */
    assert_int_equal(l1, h->cfg.l1d.hit_latency);
    assert_true(l2 > 4 * l1);
    static const uint8_t ordered[] = {EX_ORD_VOLATILE, EX_ORD_STRONG,
                                      EX_ORD_STRONG | EX_ORD_ACQUIRE, EX_ORD_CG, EX_ORD_CV};
    for (size_t i = 0; i < G_N_ELEMENTS(ordered); i++) {
        l1_count b = h_count(h);
        assert_int_equal(h_access(h, 0, line, false, ordered[i]), l2);
        expect_delta(h, &b, 0, 0, 1, "ordered load of a cached line");
        /* it did not drop or refill the line for weak loads (an acquire
         * does drop it: checked in test_acquire_drops_global_lines) */
        b = h_count(h);
        uint64_t again = h_access(h, 0, line, false, 0);
        if (ordered[i] & EX_ORD_ACQUIRE) {
            assert_int_equal(again, l2);
            expect_delta(h, &b, 0, 1, 0, "weak load after an acquire");
        } else {
            assert_int_equal(again, l1);
            expect_delta(h, &b, 1, 0, 0, "weak load after an ordered load");
        }
    }
    memh_free(h);
}

/* An acquire drops this SM's clean global lines, not another SM's. */
static void test_acquire_drops_global_lines(void **state)
{
    (void)state;
    harness *h = h_new(NULL);
    const uint64_t a = 0x700000000ull, b = 0x700010000ull, flag = 0x700020000ull;
    for (uint32_t sm = 0; sm < 2; sm++) {
        h_access(h, sm, a, false, 0);
        h_access(h, sm, b, false, 0);
    }
    l1_count c0 = h_count(h);
    h_access(h, 0, flag, false, EX_ORD_STRONG | EX_ORD_ACQUIRE);
    assert_int_equal(h_count(h).drops - c0.drops, 2);
    l1_count c1 = h_count(h);
    h_access(h, 0, a, false, 0);
    h_access(h, 0, b, false, 0);
    expect_delta(h, &c1, 0, 2, 0, "SM 0 after its acquire");
    c1 = h_count(h);
    h_access(h, 1, a, false, 0);
    h_access(h, 1, b, false, 0);
    expect_delta(h, &c1, 2, 0, 0, "SM 1 (no acquire there)");
    memh_free(h);
}

/* Under a write-back L1 a weak store stays in L1; a volatile or release
 * store is written through to L2. */
static void test_strong_store_writes_through(void **state)
{
    (void)state;
    static const char *const sets[] = {"l1d.write_policy=write-back",
                                       "l1d.write_allocate=true", NULL};
    harness *h = h_new(sets);
    const uint64_t line = 0x700000000ull;
    h_access(h, 0, line, false, 0);
    l1_count b = h_count(h);
    h_access(h, 0, line, true, 0);
    assert_int_equal(h_count(h).writes - b.writes, 0);
    static const uint8_t strong[] = {EX_ORD_VOLATILE, EX_ORD_STRONG, EX_ORD_CG};
    for (size_t i = 0; i < G_N_ELEMENTS(strong); i++) {
        b = h_count(h);
        h_access(h, 0, line + 256u * (i + 1), true, strong[i]);
        assert_int_equal(h_count(h).writes - b.writes, 1);
    }
    memh_free(h);
}

/* A kernel boundary: a line cached before it misses after it, in L1 and
 * in the constant cache alike. */
static void test_kernel_boundary_invalidates(void **state)
{
    (void)state;
    harness *h = h_new(NULL);
    const uint64_t line = 0x700000000ull, cline = 0x700100000ull;
    h_access(h, 0, line, false, 0);
    h_access_in(h, EX_SPACE_CONST, 0, cline, false, 0);
    l1_count b = h_count(h);
    h_access(h, 0, line, false, 0);
    h_access_in(h, EX_SPACE_CONST, 0, cline, false, 0);
    /* 128 bytes of constants: one transaction per constant-cache line */
    uint64_t clines = (128 + h->cfg.const_cache.line - 1) / h->cfg.const_cache.line;
    expect_delta(h, &b, 1, 0, 0, "before the boundary");
    assert_int_equal(h_count(h).const_hits - b.const_hits, clines);
    memsys_invalidate_l1(h->m);
    b = h_count(h);
    h_access(h, 0, line, false, 0);
    h_access_in(h, EX_SPACE_CONST, 0, cline, false, 0);
    expect_delta(h, &b, 0, 1, 0, "after the boundary");
    assert_int_equal(h_count(h).const_hits - b.const_hits, 0);
    assert_int_equal(h_count(h).const_misses - b.const_misses, clines);
    memh_free(h);
}

/* ------------------------------------------------------------ kernels */

typedef struct kctx {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
} kctx;

static kctx k_open(void)
{
    static const char *const sets[] = {"core.max_ctas=1", NULL};
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "m2090";
    o.timing_set = sets;
    kctx k;
    if (ptxemu_ctx_create(&k.ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(k.ctx));
    char *path = test_source_path("tests/corpus/hand/mem_order.ptx");
    if (ptxemu_module_load_file(k.ctx, path, &k.mod) != PTXEMU_OK)
        fail_msg("%s: %s", path, ptxemu_last_error(k.ctx));
    g_free(path);
    return k;
}

enum { VALUE = 0x5eed, DELAY = 2000, BOUND = 100000 };

/* Runs a handshake kernel on two CTAs (one per SM); returns out[0..5]. */
static void handshake(const char *kernel, uint32_t out[6], char **json)
{
    kctx k = k_open();
    ptxemu_dptr data, flag, o;
    /* separate allocations: data and flag on different lines */
    assert_int_equal(ptxemu_malloc(k.ctx, &data, 256), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(k.ctx, &flag, 256), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(k.ctx, &o, 32), PTXEMU_OK);
    assert_true(data / 128 != flag / 128);
    assert_int_equal(ptxemu_memset(k.ctx, data, 0, 256), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(k.ctx, flag, 0, 256), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(k.ctx, o, 0xff, 32), PTXEMU_OK);
    uint32_t value = VALUE, delay = DELAY, bound = BOUND;
    void *args[] = {&data, &flag, &o, &value, &delay, &bound};
    ptxemu_dim3 grid = {2, 1, 1}, block = {1, 1, 1};
    if (ptxemu_launch(k.mod, kernel, grid, block, 0, args) != PTXEMU_OK)
        fail_msg("%s: %s", kernel, ptxemu_last_error(k.ctx));
    assert_int_equal(ptxemu_memcpy_dtoh(k.ctx, out, o, 6 * sizeof(uint32_t)), PTXEMU_OK);
    *json = g_strdup(ptxemu_timing_stats_json(k.ctx));
    ptxemu_ctx_destroy(k.ctx);
}

/* What both handshakes must show: the consumer ran on another SM, saw the
 * flag within the bound after seeing it clear at least once, and then
 * read the producer's data; every flag load went past L1. */
static void check_handshake(const char *kernel, const uint32_t out[6], const char *json)
{
    printf("# %s: consumer on SM %u, producer on SM %u, %u flag loads, L1 bypasses %llu, "
           "hits %llu, misses %llu, acquire drops %llu\n",
           kernel, out[3], out[4], out[1], (unsigned long long)test_json_nth(json, "l1_bypasses", 0),
           (unsigned long long)test_json_nth(json, "l1_hits", 0),
           (unsigned long long)test_json_nth(json, "l1_misses", 0),
           (unsigned long long)test_json_nth(json, "l1_acquire_drops", 0));
    assert_int_not_equal(out[3], out[4]);
    assert_int_equal(out[2], 1);
    assert_true(out[1] >= 2 && out[1] < BOUND);
    assert_int_equal(out[0], VALUE);
}

/* (a) st.release.gpu / ld.acquire.gpu across SMs, with the consumer's L1
 * holding the old data before the spin. */
static void test_handshake_acquire(void **state)
{
    (void)state;
    uint32_t out[6];
    char *json;
    handshake("handshake_acquire", out, &json);
    check_handshake("handshake_acquire", out, json);
    assert_int_equal(out[5], 0); /* the data was still clear when it was cached */
    /* loads: the priming read (miss), out[1] spin loads (bypasses), the
     * data read after the acquire (a miss again: the acquire dropped the
     * line, which without it would have been a stale hit) */
    assert_int_equal(test_json_nth(json, "l1_bypasses", 0), out[1]);
    assert_int_equal(test_json_nth(json, "l1_hits", 0), 0);
    assert_int_equal(test_json_nth(json, "l1_misses", 0), 2);
    assert_int_equal(test_json_nth(json, "l1_acquire_drops", 0), 1);
    g_free(json);
}

/* (b) a volatile spin on a flag set by another CTA sees the new value. */
static void test_handshake_volatile(void **state)
{
    (void)state;
    uint32_t out[6];
    char *json;
    handshake("handshake_volatile", out, &json);
    check_handshake("handshake_volatile", out, json);
    /* out[1] volatile flag loads and one volatile data load, none in L1 */
    assert_int_equal(test_json_nth(json, "l1_bypasses", 0), (uint64_t)out[1] + 1);
    assert_int_equal(test_json_nth(json, "l1_hits", 0), 0);
    assert_int_equal(test_json_nth(json, "l1_misses", 0), 0);
    g_free(json);
}

/* (c) the same kernel twice: one CTA per SM, each loading one line twice
 * (a miss, then a hit).  Without the kernel-boundary invalidation the
 * second launch would find the line in every L1 and hit twice. */
static void test_relaunch_misses_again(void **state)
{
    (void)state;
    kctx k = k_open();
    gpu_config cfg;
    GError *err = NULL;
    if (!gpu_config_load_preset("m2090", &cfg, &err))
        fail_msg("m2090: %s", err->message);
    const uint32_t nsms = cfg.gpu.num_sms;
    assert_true(nsms <= 64);
    ptxemu_dptr a, o;
    uint32_t seed = 21;
    assert_int_equal(ptxemu_malloc(k.ctx, &a, 128), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(k.ctx, &o, nsms * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(k.ctx, a, &seed, 4), PTXEMU_OK);
    void *args[] = {&a, &o};
    ptxemu_dim3 grid = {nsms, 1, 1}, block = {32, 1, 1};
    for (int launch = 0; launch < 2; launch++)
        if (ptxemu_launch(k.mod, "reread", grid, block, 0, args) != PTXEMU_OK)
            fail_msg("reread: %s", ptxemu_last_error(k.ctx));
    uint32_t out[64];
    assert_int_equal(ptxemu_memcpy_dtoh(k.ctx, out, o, nsms * 4), PTXEMU_OK);
    for (uint32_t i = 0; i < nsms; i++)
        assert_int_equal(out[i], 2 * seed);
    const char *json = ptxemu_timing_stats_json(k.ctx);
    for (unsigned kern = 0; kern < 2; kern++) {
        assert_int_equal(test_json_nth(json, "l1_misses", kern), nsms);
        assert_int_equal(test_json_nth(json, "l1_hits", kern), nsms);
    }
    ptxemu_ctx_destroy(k.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_bits),
        cmocka_unit_test(test_ordered_loads_bypass_l1),
        cmocka_unit_test(test_acquire_drops_global_lines),
        cmocka_unit_test(test_strong_store_writes_through),
        cmocka_unit_test(test_kernel_boundary_invalidates),
        cmocka_unit_test(test_handshake_acquire),
        cmocka_unit_test(test_handshake_volatile),
        cmocka_unit_test(test_relaunch_misses_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
