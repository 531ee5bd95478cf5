/* tests/runtime/test_atomic_warp.c — atom/red and the warp-level
 * instructions through the public API, against hand-computed tables and a C
 * model of the manual's shfl pseudo-code.
 *
 * Long because each instruction family has its own hand-computed tables.
 */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#define HDR90 ".version 8.0\n.target sm_90\n.address_size 64\n"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static void run_ok(const char *ptx, const char *kernel, unsigned grid, unsigned block,
                   test_buf *bufs, unsigned n)
{
    char *err = NULL;
    ptxemu_status s = test_run_ptx(ptx, kernel, grid, block, bufs, n, &err);
    if (s != PTXEMU_OK) {
        print_error("%s failed (%s): %s\n", kernel, ptxemu_status_string(s), err ? err : "");
        g_free(err);
        fail();
    }
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle)) {
        print_error("expected \"%s\" in:\n%s\n", needle, hay ? hay : "(null)");
        fail();
    }
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* ------------------------------------------- one operation per thread */

/* Thread t applies `atom.global.OP d, [mem + t*4], b[t]` and stores d. */
static void pairs32(const char *op, unsigned n, uint32_t *mem, const uint32_t *b, uint32_t *old)
{
    char *ptx = g_strdup_printf(
        HDR ".visible .entry k(.param .u64 pm, .param .u64 pb, .param .u64 po)\n{\n"
            ".reg .b32 %%r<6>;\n.reg .b64 %%rd<8>;\n"
            "ld.param.u64 %%rd1, [pm];\nld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [po];\n"
            "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd4, %%r1, 4;\n"
            "add.s64 %%rd5, %%rd1, %%rd4;\nadd.s64 %%rd6, %%rd2, %%rd4;\n"
            "add.s64 %%rd7, %%rd3, %%rd4;\nld.global.u32 %%r2, [%%rd6];\n"
            "atom.global.%s %%r3, [%%rd5], %%r2;\nst.global.u32 [%%rd7], %%r3;\nret;\n}\n",
        op);
    test_buf bufs[] = {{mem, n * 4}, {(void *)b, n * 4}, {old, n * 4}};
    run_ok(ptx, "k", 1, n, bufs, 3);
    g_free(ptx);
}

static void pairs64(const char *op, unsigned n, uint64_t *mem, const uint64_t *b, uint64_t *old)
{
    char *ptx = g_strdup_printf(
        HDR ".visible .entry k(.param .u64 pm, .param .u64 pb, .param .u64 po)\n{\n"
            ".reg .b32 %%r<6>;\n.reg .b64 %%rd<12>;\n"
            "ld.param.u64 %%rd1, [pm];\nld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [po];\n"
            "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd4, %%r1, 8;\n"
            "add.s64 %%rd5, %%rd1, %%rd4;\nadd.s64 %%rd6, %%rd2, %%rd4;\n"
            "add.s64 %%rd7, %%rd3, %%rd4;\nld.global.u64 %%rd8, [%%rd6];\n"
            "atom.global.%s %%rd9, [%%rd5], %%rd8;\nst.global.u64 [%%rd7], %%rd9;\nret;\n}\n",
        op);
    test_buf bufs[] = {{mem, n * 8}, {(void *)b, n * 8}, {old, n * 8}};
    run_ok(ptx, "k", 1, n, bufs, 3);
    g_free(ptx);
}

typedef struct case32 {
    uint32_t init, b, expect;
} case32;

static void check_table32(const char *op, const case32 *c, unsigned n)
{
    uint32_t mem[32], b[32], old[32];
    for (unsigned i = 0; i < n; i++) {
        mem[i] = c[i].init;
        b[i] = c[i].b;
        old[i] = 0xdeadbeef;
    }
    pairs32(op, n, mem, b, old);
    for (unsigned i = 0; i < n; i++) {
        if (mem[i] != c[i].expect || old[i] != c[i].init) {
            print_error("atom.%s case %u: init 0x%08x b 0x%08x -> 0x%08x (old 0x%08x), "
                        "expected 0x%08x\n", op, i, c[i].init, c[i].b, mem[i], old[i],
                        c[i].expect);
            fail();
        }
    }
}

typedef struct case64 {
    uint64_t init, b, expect;
} case64;

static void check_table64(const char *op, const case64 *c, unsigned n)
{
    uint64_t mem[32], b[32], old[32];
    for (unsigned i = 0; i < n; i++) {
        mem[i] = c[i].init;
        b[i] = c[i].b;
        old[i] = 0xdeadbeef;
    }
    pairs64(op, n, mem, b, old);
    for (unsigned i = 0; i < n; i++) {
        if (mem[i] != c[i].expect || old[i] != c[i].init) {
            print_error("atom.%s case %u: init 0x%016llx b 0x%016llx -> 0x%016llx, expected "
                        "0x%016llx\n", op, i, (unsigned long long)c[i].init,
                        (unsigned long long)c[i].b, (unsigned long long)mem[i],
                        (unsigned long long)c[i].expect);
            fail();
        }
    }
}

/* inc(r,s) = r >= s ? 0 : r+1;  dec(r,s) = (r == 0 || r > s) ? s : r-1 */
static void test_inc_dec_table(void **state)
{
    (void)state;
    static const case32 inc[] = {
        {0, 9, 1}, {8, 9, 9}, {9, 9, 0}, {20, 9, 0}, {0, 0, 0}, {5, 0, 0},
        {0xfffffffe, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff, 0},
    };
    static const case32 dec[] = {
        {5, 9, 4}, {1, 9, 0}, {0, 9, 9}, {20, 9, 9}, {10, 9, 9}, {9, 9, 8}, {0, 0, 0},
        {3, 0, 0}, {0, 0xffffffff, 0xffffffff},
    };
    check_table32("inc.u32", inc, G_N_ELEMENTS(inc));
    check_table32("dec.u32", dec, G_N_ELEMENTS(dec));
}

/* The same operand bits compare differently as signed and unsigned. */
static void test_min_max_signedness(void **state)
{
    (void)state;
    /* init, b: -16 vs 5; 0x80000000 (INT_MIN) vs 0x7fffffff; -1 vs -2; 3 vs 3 */
    static const case32 min_s[] = {{0xfffffff0, 5, 0xfffffff0}, {0x80000000, 0x7fffffff, 0x80000000},
                                   {0xffffffff, 0xfffffffe, 0xfffffffe}, {3, 3, 3}, {7, 0, 0}};
    static const case32 min_u[] = {{0xfffffff0, 5, 5}, {0x80000000, 0x7fffffff, 0x7fffffff},
                                   {0xffffffff, 0xfffffffe, 0xfffffffe}, {3, 3, 3}, {7, 0, 0}};
    static const case32 max_s[] = {{0xfffffff0, 5, 5}, {0x80000000, 0x7fffffff, 0x7fffffff},
                                   {0xffffffff, 0xfffffffe, 0xffffffff}, {3, 3, 3}, {7, 0, 7}};
    static const case32 max_u[] = {{0xfffffff0, 5, 0xfffffff0}, {0x80000000, 0x7fffffff, 0x80000000},
                                   {0xffffffff, 0xfffffffe, 0xffffffff}, {3, 3, 3}, {7, 0, 7}};
    check_table32("min.s32", min_s, 5);
    check_table32("min.u32", min_u, 5);
    check_table32("max.s32", max_s, 5);
    check_table32("max.u32", max_u, 5);

    static const case64 min_s64[] = {
        {0xffffffff00000000ull, 0x00000000ffffffffull, 0xffffffff00000000ull},
        {0x8000000000000000ull, 1, 0x8000000000000000ull},
        {0x100000000ull, 0xffffffffull, 0xffffffffull}};
    static const case64 min_u64[] = {
        {0xffffffff00000000ull, 0x00000000ffffffffull, 0x00000000ffffffffull},
        {0x8000000000000000ull, 1, 1},
        {0x100000000ull, 0xffffffffull, 0xffffffffull}};
    static const case64 max_s64[] = {
        {0xffffffff00000000ull, 0x00000000ffffffffull, 0x00000000ffffffffull},
        {0x8000000000000000ull, 1, 1},
        {0x100000000ull, 0xffffffffull, 0x100000000ull}};
    static const case64 max_u64[] = {
        {0xffffffff00000000ull, 0x00000000ffffffffull, 0xffffffff00000000ull},
        {0x8000000000000000ull, 1, 0x8000000000000000ull},
        {0x100000000ull, 0xffffffffull, 0x100000000ull}};
    check_table64("min.s64", min_s64, 3);
    check_table64("min.u64", min_u64, 3);
    check_table64("max.s64", max_s64, 3);
    check_table64("max.u64", max_u64, 3);
}

static void test_bit_ops_and_exch(void **state)
{
    (void)state;
    static const case32 and32[] = {{0xff00ff00, 0x0ff00ff0, 0x0f000f00}, {0xffffffff, 0, 0}};
    static const case32 or32[] = {{0xff00ff00, 0x0ff00ff0, 0xfff0fff0}, {0, 0, 0}};
    static const case32 xor32[] = {{0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0}, {5, 5, 0}};
    static const case32 exch32[] = {{0x12345678, 0x9abcdef0, 0x9abcdef0}, {7, 7, 7}};
    static const case32 add32[] = {{0xffffffff, 2, 1}, {0x7fffffff, 1, 0x80000000}};
    check_table32("and.b32", and32, 2);
    check_table32("or.b32", or32, 2);
    check_table32("xor.b32", xor32, 2);
    check_table32("exch.b32", exch32, 2);
    check_table32("add.u32", add32, 2);
    check_table32("add.s32", add32, 2);
    static const case64 and64[] = {{0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull,
                                    0x0f000f000f000f00ull}};
    static const case64 or64[] = {{0xff00000000000000ull, 0x00000000000000ffull,
                                   0xff000000000000ffull}};
    static const case64 xor64[] = {{0xffffffff00000000ull, 0xffffffffffffffffull,
                                    0x00000000ffffffffull}};
    static const case64 exch64[] = {{1, 0x123456789abcdef0ull, 0x123456789abcdef0ull}};
    static const case64 add64[] = {{0xffffffffull, 1, 0x100000000ull},
                                   {0xffffffffffffffffull, 2, 1}};
    check_table64("and.b64", and64, 1);
    check_table64("or.b64", or64, 1);
    check_table64("xor.b64", xor64, 1);
    check_table64("exch.b64", exch64, 1);
    check_table64("add.u64", add64, 2);
}

/* f32 add on global memory flushes subnormal inputs and results; on shared
 * memory it keeps them (manual, atom); the f16/bf16 forms never flush. */
static void test_float_add_tables(void **state)
{
    (void)state;
    const case32 add_global[] = {
        {f2u(1.5f), f2u(2.25f), f2u(3.75f)},
        {0x00000003, 0x80000001, 0x00000000},  /* subnormal inputs flushed */
        {0x00000000, 0x00000001, 0x00000000},
        {f2u(1.0f), 0x00000001, f2u(1.0f)},
        {0x00800000, 0x80000001, 0x00800000},  /* normal + flushed subnormal */
        {0x00800001, 0x80800000, 0x00000000},  /* subnormal result flushed */
        {0x7f800000, 0xff800000, 0x7fffffff},  /* inf - inf: canonical NaN */
    };
    check_table32("add.f32", add_global, G_N_ELEMENTS(add_global));
    check_table32("relaxed.gpu.add.f32", add_global, G_N_ELEMENTS(add_global));

    static const case32 add_f16x2[] = {
        {0x38003c00, 0x3c003c00, 0x3e004000},   /* (1, .5) + (1, 1) = (2, 1.5) */
        {0x00010001, 0x00010001, 0x00020002},   /* subnormals kept */
    };
    check_table32("add.noftz.f16x2", add_f16x2, 2);
    static const case32 add_bf16x2[] = {{0x3f803f80, 0x3f803f80, 0x40004000},
                                        {0x00010001, 0x00010001, 0x00020002}};
    check_table32("add.noftz.bf16x2", add_bf16x2, 2);

    const case64 add_f64[] = {{d2u(0.1), d2u(0.2), d2u(0.1 + 0.2)},
                              {1, 1, 2},                   /* f64 subnormals kept */
                              {d2u(1e308), d2u(1e308), d2u(__builtin_inf())}};
    check_table64("add.f64", add_f64, 3);

    /* shared and generic addresses: one location per thread in a .shared
     * array, through the .shared space and through a generic pointer */
    const char *ptx =
        HDR ".visible .entry k(.param .u64 pm, .param .u64 pb, .param .u64 po)\n{\n"
            ".shared .align 4 .b32 sm[64];\n"
            ".reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n"
            "ld.param.u64 %rd1, [pm];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [po];\n"
            "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\n"
            "add.s64 %rd5, %rd1, %rd4;\nadd.s64 %rd6, %rd2, %rd4;\nadd.s64 %rd7, %rd3, %rd4;\n"
            "mov.u64 %rd8, sm;\nadd.s64 %rd9, %rd8, %rd4;\n"
            "ld.global.u32 %r2, [%rd5];\nld.global.u32 %r3, [%rd6];\n"
            "st.shared.u32 [%rd9], %r2;\n"
            "atom.shared.add.f32 %r4, [%rd9], %r3;\n"
            "st.shared.u32 [%rd9+128], %r2;\n"
            "cvta.shared.u64 %rd10, %rd9;\n"
            "atom.add.f32 %r5, [%rd10+128], %r3;\n"   /* generic -> shared: no flush */
            "ld.shared.u32 %r6, [%rd9];\nld.shared.u32 %r7, [%rd9+128];\n"
            "st.global.u32 [%rd7], %r6;\nst.global.u32 [%rd7+128], %r7;\n"
            "atom.add.f32 %r5, [%rd5], %r3;\n"        /* generic -> global: flush */
            "ret;\n}\n";
    uint32_t init[] = {0x00000003, 0x00000000, f2u(1.0f), 0x00800001};
    uint32_t bb[] = {0x80000001, 0x00000001, 0x00000001, 0x80800000};
    uint32_t sh_expect[] = {0x00000002, 0x00000001, f2u(1.0f), 0x00000001};
    uint32_t gl_expect[] = {0x00000000, 0x00000000, f2u(1.0f), 0x00000000};
    uint32_t mem[4], b[4], out[64] = {0};
    memcpy(mem, init, sizeof mem);
    memcpy(b, bb, sizeof b);
    test_buf bufs[] = {{mem, 16}, {b, 16}, {out, sizeof out}};
    run_ok(ptx, "k", 1, 4, bufs, 3);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(out[i], sh_expect[i]);      /* .shared */
        assert_int_equal(out[32 + i], sh_expect[i]); /* generic -> shared */
        assert_int_equal(mem[i], gl_expect[i]);      /* generic -> global */
    }
}

/* 16-bit atomics: cas.b16 and add.noftz.f16/.bf16 touch only their half-word. */
static void test_16bit(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 pm)\n{\n"
            ".reg .b16 %rs<12>;\n.reg .b64 %rd<4>;\n"
            "ld.param.u64 %rd1, [pm];\n"
            "mov.b16 %rs1, 0x2222;\nmov.b16 %rs2, 0xbeef;\n"
            "atom.global.cas.b16 %rs3, [%rd1+2], %rs1, %rs2;\n"      /* succeeds */
            "mov.b16 %rs4, 0x9999;\nmov.b16 %rs5, 0xdead;\n"
            "atom.global.cas.b16 %rs6, [%rd1+4], %rs4, %rs5;\n"      /* fails */
            "mov.b16 %rs7, 0x3800;\n"
            "atom.global.add.noftz.f16 %rs8, [%rd1+8], %rs7;\n"      /* 1 + .5 */
            "mov.b16 %rs9, 0x0001;\n"
            "atom.global.add.noftz.f16 %rs10, [%rd1+10], %rs9;\n"    /* subnormal kept */
            "mov.b16 %rs11, 0x3f80;\n"
            "red.global.add.noftz.bf16 [%rd1+12], %rs11;\n"          /* 1 + 1 */
            "st.global.u16 [%rd1+16], %rs3;\nst.global.u16 [%rd1+18], %rs6;\n"
            "st.global.u16 [%rd1+20], %rs8;\nst.global.u16 [%rd1+22], %rs10;\n"
            "ret;\n}\n";
    uint16_t m[12] = {0x1111, 0x2222, 0x3333, 0x4444, 0x3c00, 0x0001, 0x3f80, 0x5555};
    test_buf bufs[] = {{m, sizeof m}};
    run_ok(ptx, "k", 1, 1, bufs, 1);
    assert_int_equal(m[0], 0x1111);
    assert_int_equal(m[1], 0xbeef);
    assert_int_equal(m[2], 0x3333);
    assert_int_equal(m[3], 0x4444);
    assert_int_equal(m[4], 0x3e00);
    assert_int_equal(m[5], 0x0002);
    assert_int_equal(m[6], 0x4000);
    assert_int_equal(m[7], 0x5555);
    assert_int_equal(m[8], 0x2222); /* old values */
    assert_int_equal(m[9], 0x3333);
    assert_int_equal(m[10], 0x3c00);
    assert_int_equal(m[11], 0x0001);
}

/* ---------------------------------------------- many threads, few places */

/* 1024 threads add to 16 counters (u32 and u64 via atom, u32/s32 via red);
 * every total is exact and the old values of each counter form one chain. */
static void test_counters_contended(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 p_idx, .param .u64 p_v32, .param .u64 p_v64,\n"
            "  .param .u64 p_c32, .param .u64 p_c64, .param .u64 p_old, .param .u64 p_red)\n{\n"
            ".reg .b32 %r<8>;\n.reg .b64 %rd<24>;\n"
            "ld.param.u64 %rd1, [p_idx];\nld.param.u64 %rd2, [p_v32];\n"
            "ld.param.u64 %rd3, [p_v64];\nld.param.u64 %rd4, [p_c32];\n"
            "ld.param.u64 %rd5, [p_c64];\nld.param.u64 %rd6, [p_old];\n"
            "ld.param.u64 %rd7, [p_red];\n"
            "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd8, %r1, 4;\nmul.wide.u32 %rd9, %r1, 8;\n"
            "add.s64 %rd10, %rd1, %rd8;\nld.global.u32 %r2, [%rd10];\n"
            "add.s64 %rd11, %rd2, %rd8;\nld.global.u32 %r3, [%rd11];\n"
            "add.s64 %rd12, %rd3, %rd9;\nld.global.u64 %rd13, [%rd12];\n"
            "mul.wide.u32 %rd14, %r2, 4;\nmul.wide.u32 %rd15, %r2, 8;\n"
            "add.s64 %rd16, %rd4, %rd14;\n"
            "atom.global.add.u32 %r4, [%rd16], %r3;\n"
            "add.s64 %rd17, %rd5, %rd15;\n"
            "atom.global.relaxed.gpu.add.u64 %rd18, [%rd17], %rd13;\n"
            "mul.wide.u32 %rd19, %r1, 16;\nadd.s64 %rd20, %rd6, %rd19;\n"
            "st.global.u32 [%rd20], %r4;\nst.global.u64 [%rd20+8], %rd18;\n"
            "add.s64 %rd21, %rd7, %rd14;\n"
            "red.global.add.u32 [%rd21], 1;\n"
            "red.global.sys.add.s32 [%rd21+64], -1;\n"
            "ret;\n}\n";
    enum { N = 1024, C = 16 };
    uint32_t *idx = g_new(uint32_t, N), *v32 = g_new(uint32_t, N);
    uint64_t *v64 = g_new(uint64_t, N), *old = g_new0(uint64_t, 2 * N);
    uint32_t c32[C] = {0}, red[2 * C] = {0};
    uint64_t c64[C] = {0};
    uint32_t e32[C] = {0}, ecount[C] = {0};
    uint64_t e64[C] = {0};
    for (unsigned t = 0; t < N; t++) {
        idx[t] = (uint32_t)(rnd64() % C);
        v32[t] = (uint32_t)rnd64();
        v64[t] = rnd64();
        e32[idx[t]] += v32[t];
        e64[idx[t]] += v64[t];
        ecount[idx[t]]++;
    }
    test_buf bufs[] = {{idx, N * 4}, {v32, N * 4}, {v64, N * 8}, {c32, sizeof c32},
                       {c64, sizeof c64}, {old, N * 16}, {red, sizeof red}};
    run_ok(ptx, "k", 1, N, bufs, 7);
    for (unsigned c = 0; c < C; c++) {
        assert_int_equal(c32[c], e32[c]);
        assert_true(c64[c] == e64[c]);
        assert_int_equal(red[c], ecount[c]);
        assert_int_equal(red[C + c], (uint32_t)-(int32_t)ecount[c]);
        /* walk the chain: each old value is the sum of the adds before it */
        uint32_t cur32 = 0;
        uint64_t cur64 = 0;
        bool *used = g_new0(bool, N);
        for (unsigned k = 0; k < ecount[c]; k++) {
            unsigned hit = N;
            for (unsigned t = 0; t < N && hit == N; t++)
                if (idx[t] == c && !used[t] && (uint32_t)old[2 * t] == cur32 &&
                    old[2 * t + 1] == cur64)
                    hit = t;
            assert_int_not_equal(hit, N);
            used[hit] = true;
            cur32 += v32[hit];
            cur64 += v64[hit];
        }
        g_free(used);
    }
    g_free(idx);
    g_free(v32);
    g_free(v64);
    g_free(old);
}

/* All threads of two warps on one location: inc/dec wrap, exch. */
static void contend32(const char *op, unsigned n, uint32_t *mem, const uint32_t *b,
                      uint32_t *old)
{
    char *ptx = g_strdup_printf(
        HDR ".visible .entry k(.param .u64 pm, .param .u64 pb, .param .u64 po)\n{\n"
            ".reg .b32 %%r<6>;\n.reg .b64 %%rd<8>;\n"
            "ld.param.u64 %%rd1, [pm];\nld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [po];\n"
            "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd4, %%r1, 4;\n"
            "add.s64 %%rd6, %%rd2, %%rd4;\nadd.s64 %%rd7, %%rd3, %%rd4;\n"
            "ld.global.u32 %%r2, [%%rd6];\n"
            "atom.global.%s %%r3, [%%rd1], %%r2;\nst.global.u32 [%%rd7], %%r3;\nret;\n}\n",
        op);
    test_buf bufs[] = {{mem, 4}, {(void *)b, n * 4}, {old, n * 4}};
    run_ok(ptx, "k", 1, n, bufs, 3);
    g_free(ptx);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void test_inc_dec_exch_contended(void **state)
{
    (void)state;
    enum { N = 64 };
    uint32_t b[N], old[N], model[N];
    /* inc with bound 9 from 0: the old values are 0..9 six times, then 0..3 */
    uint32_t mem = 0;
    for (unsigned t = 0; t < N; t++)
        b[t] = 9;
    contend32("inc.u32", N, &mem, b, old);
    assert_int_equal(mem, N % 10);
    uint32_t s = 0;
    for (unsigned k = 0; k < N; k++) {
        model[k] = s;
        s = s >= 9 ? 0 : s + 1;
    }
    qsort(old, N, 4, cmp_u32);
    qsort(model, N, 4, cmp_u32);
    assert_memory_equal(old, model, sizeof old);

    /* dec with bound 7 from 5: 5 4 3 2 1 0 7 6 5 ... */
    mem = 5;
    for (unsigned t = 0; t < N; t++)
        b[t] = 7;
    contend32("dec.u32", N, &mem, b, old);
    s = 5;
    for (unsigned k = 0; k < N; k++) {
        model[k] = s;
        s = (s == 0 || s > 7) ? 7 : s - 1;
    }
    assert_int_equal(mem, s);
    qsort(old, N, 4, cmp_u32);
    qsort(model, N, 4, cmp_u32);
    assert_memory_equal(old, model, sizeof old);

    /* exch: the old values and the final value are {1000, 1..N} exactly once */
    mem = 1000;
    for (unsigned t = 0; t < N; t++)
        b[t] = t + 1;
    contend32("exch.b32", N, &mem, b, old);
    bool seen[N + 1] = {false};
    bool seen_init = false;
    for (unsigned t = 0; t <= N; t++) {
        uint32_t v = t < N ? old[t] : mem;
        if (v == 1000) {
            assert_false(seen_init);
            seen_init = true;
        } else {
            assert_true(v >= 1 && v <= N);
            assert_false(seen[v]);
            seen[v] = true;
        }
    }
    assert_true(seen_init);

    /* min/max from many threads: order does not matter */
    mem = 0x7fffffff;
    for (unsigned t = 0; t < N; t++)
        b[t] = (uint32_t)((int32_t)t - 20);
    contend32("min.s32", N, &mem, b, old);
    assert_int_equal(mem, (uint32_t)-20);
    mem = 0;
    contend32("max.u32", N, &mem, b, old);
    assert_int_equal(mem, (uint32_t)-1);
}

/* A CAS loop counter: every thread retries until its increment lands. */
static void test_cas_loop(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 pm)\n{\n"
            ".reg .pred %p<3>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
            "ld.param.u64 %rd1, [pm];\n"
            "$L_retry:\n"
            "ld.volatile.global.u32 %r2, [%rd1];\n"
            "add.u32 %r3, %r2, 1;\n"
            "atom.global.cas.b32 %r4, [%rd1], %r2, %r3;\n"
            "setp.ne.u32 %p1, %r4, %r2;\n"
            "@%p1 bra $L_retry;\n"
            "$L_retry64:\n"
            "ld.volatile.global.u64 %rd2, [%rd1+8];\n"
            "add.u64 %rd3, %rd2, 0x100000001;\n"
            "atom.global.cas.b64 %rd4, [%rd1+8], %rd2, %rd3;\n"
            "setp.ne.u64 %p2, %rd4, %rd2;\n"
            "@%p2 bra $L_retry64;\n"
            "ret;\n}\n";
    uint64_t m[2] = {0, 0};
    test_buf bufs[] = {{m, sizeof m}};
    run_ok(ptx, "k", 4, 256, bufs, 1);
    assert_int_equal((uint32_t)m[0], 1024);
    assert_true(m[1] == 1024ull * 0x100000001ull);
}

/* The nvcc spin lock (tests/corpus/cuda/spinlock.cu): 8192 threads contend
 * for 16 locks; every critical-section counter must be exact. */
static void test_spinlock_corpus(void **state)
{
    (void)state;
    char *ptx = test_read_file("tests/corpus/nvcc/spinlock.sm_75.ptx", NULL);
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
    ptxemu_status s = ptxemu_module_load_string(ctx, ptx, "spinlock.sm_75.ptx", &mod);
    if (s != PTXEMU_OK)
        print_error("%s\n", ptxemu_last_error(ctx));
    assert_int_equal(s, PTXEMU_OK);
    enum { NLOCKS = 16, GRID = 32, BLOCK = 256 };
    ptxemu_dptr locks, counters;
    assert_int_equal(ptxemu_malloc(ctx, &locks, NLOCKS * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &counters, NLOCKS * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, locks, 0, NLOCKS * 4), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, counters, 0, NLOCKS * 4), PTXEMU_OK);
    int nlocks = NLOCKS;
    void *args[] = {&locks, &counters, &nlocks};
    ptxemu_dim3 g = {GRID, 1, 1}, b = {BLOCK, 1, 1};
    s = ptxemu_launch(mod, "spinlock_count", g, b, 0, args);
    if (s != PTXEMU_OK)
        print_error("%s\n", ptxemu_last_error(ctx));
    assert_int_equal(s, PTXEMU_OK);
    int32_t host_counters[NLOCKS], host_locks[NLOCKS];
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, host_counters, counters, sizeof host_counters),
                     PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, host_locks, locks, sizeof host_locks), PTXEMU_OK);
    for (unsigned i = 0; i < NLOCKS; i++) {
        assert_int_equal(host_counters[i], GRID * BLOCK / NLOCKS);
        assert_int_equal(host_locks[i], 0);
    }
    ptxemu_ctx_destroy(ctx);
    g_free(ptx);
}

/* Shared-memory atomics (through .shared and through generic pointers),
 * totals copied out after a barrier; f32 totals use exactly representable
 * values so any summation order gives the same result. */
static void test_shared_and_float_totals(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 p_idx, .param .u64 p_f, .param .u64 p_out)\n{\n"
            ".shared .align 8 .b8 sm[256];\n"
            ".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .f32 %f<4>;\n.reg .f64 %fd<4>;\n"
            ".reg .b64 %rd<24>;\n"
            "ld.param.u64 %rd1, [p_idx];\nld.param.u64 %rd2, [p_f];\nld.param.u64 %rd3, [p_out];\n"
            "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\n"
            "add.s64 %rd5, %rd1, %rd4;\nld.global.u32 %r2, [%rd5];\n"
            "add.s64 %rd6, %rd2, %rd4;\nld.global.f32 %f1, [%rd6];\n"
            "cvt.f64.f32 %fd1, %f1;\n"
            "mov.u64 %rd7, sm;\n"
            "mul.wide.u32 %rd8, %r2, 4;\nmul.wide.u32 %rd9, %r2, 8;\n"
            "add.s64 %rd10, %rd7, %rd8;\n"             /* u32 counters at sm[0..64) */
            "cvta.shared.u64 %rd11, %rd10;\n"
            "atom.shared.add.u32 %r3, [%rd10], 1;\n"
            "atom.add.u32 %r4, [%rd11], 2;\n"          /* generic -> shared */
            "atom.shared.add.f32 %f2, [%rd10+64], %f1;\n"
            "add.s64 %rd12, %rd7, %rd9;\n"
            "atom.shared.cta.add.f64 %fd2, [%rd12+128], %fd1;\n"
            "add.s64 %rd13, %rd3, %rd8;\n"
            "atom.global.add.f32 %f3, [%rd13+256], %f1;\n"
            "red.global.add.f32 [%rd13+320], %f1;\n"
            "add.s64 %rd14, %rd3, %rd9;\n"
            "atom.global.add.f64 %fd3, [%rd14+384], %fd1;\n"
            "bar.sync 0;\n"
            "setp.lt.u32 %p1, %r1, 64;\n"
            "@!%p1 bra $L_done;\n"
            "add.s64 %rd15, %rd7, %rd4;\nld.shared.u32 %r5, [%rd15];\n"
            "add.s64 %rd16, %rd3, %rd4;\nst.global.u32 [%rd16], %r5;\n"
            "$L_done:\n"
            "ret;\n}\n";
    enum { N = 1024, C = 16 };
    uint32_t *idx = g_new(uint32_t, N);
    float *f = g_new(float, N);
    /* out: [0,16) u32 counts, [16,32) f32 shared sums, [32,64) f64 shared
     * sums, [64,80) f32 global atom, [80,96) f32 global red, [96,128) f64 */
    uint32_t out[128] = {0};
    double ef[C] = {0};
    uint32_t ecount[C] = {0};
    for (unsigned t = 0; t < N; t++) {
        idx[t] = (uint32_t)(rnd64() % C);
        f[t] = (float)((int)(rnd64() % 2001) - 1000) * 0.125f; /* multiples of 1/8 */
        ef[idx[t]] += f[t];
        ecount[idx[t]]++;
    }
    test_buf bufs[] = {{idx, N * 4}, {f, N * 4}, {out, sizeof out}};
    run_ok(ptx, "k", 1, N, bufs, 3);
    for (unsigned c = 0; c < C; c++) {
        assert_int_equal(out[c], 3 * ecount[c]);
        float fs, fg, fr;
        double ds, dg;
        memcpy(&fs, &out[16 + c], 4);
        memcpy(&ds, &out[32 + 2 * c], 8);
        memcpy(&fg, &out[64 + c], 4);
        memcpy(&fr, &out[80 + c], 4);
        memcpy(&dg, &out[96 + 2 * c], 8);
        assert_true(fs == (float)ef[c]);
        assert_true(ds == ef[c]);
        assert_true(fg == (float)ef[c]);
        assert_true(fr == (float)ef[c]);
        assert_true(dg == ef[c]);
    }
    g_free(idx);
    g_free(f);
}

/* Vector atomics (sm_90): atom.v4.f32.add returns the four old values. */
static void test_vector_f32(void **state)
{
    (void)state;
    const char *ptx =
        HDR90 ".visible .entry k(.param .u64 p_acc, .param .u64 p_old)\n{\n"
              ".reg .f32 %f<12>;\n.reg .b32 %r<2>;\n.reg .b64 %rd<6>;\n"
              "ld.param.u64 %rd1, [p_acc];\nld.param.u64 %rd2, [p_old];\n"
              "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
              "mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f40000000;\n"
              "mov.f32 %f3, 0f3F000000;\nmov.f32 %f4, 0f3E800000;\n"
              "atom.global.v4.f32.add {%f5, %f6, %f7, %f8}, [%rd1], {%f1, %f2, %f3, %f4};\n"
              "st.global.v4.f32 [%rd4], {%f5, %f6, %f7, %f8};\n"
              "red.global.v2.f32.add [%rd1+16], {%f1, %f2};\n"
              "ret;\n}\n";
    enum { N = 64 };
    float acc[8] = {0}, old[N * 4];
    test_buf bufs[] = {{acc, sizeof acc}, {old, sizeof old}};
    run_ok(ptx, "k", 1, N, bufs, 2);
    assert_true(acc[0] == N * 1.0f && acc[1] == N * 2.0f && acc[2] == N * 0.5f &&
                acc[3] == N * 0.25f);
    assert_true(acc[4] == N * 1.0f && acc[5] == N * 2.0f);
    /* each thread saw k earlier adds in every element, for one k each */
    bool seen[N] = {false};
    for (unsigned t = 0; t < N; t++) {
        unsigned k = (unsigned)old[4 * t];
        assert_true(k < N && !seen[k]);
        seen[k] = true;
        assert_true(old[4 * t + 1] == 2.0f * k && old[4 * t + 2] == 0.5f * k &&
                    old[4 * t + 3] == 0.25f * k);
    }
}

/* ------------------------------------------------------------------- shfl */

enum { M_UP, M_DOWN, M_BFLY, M_IDX };

/* The manual's pseudo-code, lane by lane. */
static void shfl_model(int mode, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                       uint32_t *d, uint32_t *p)
{
    for (int lane = 0; lane < 32; lane++) {
        int bval = (int)(b[lane] & 0x1f), cval = (int)(c[lane] & 0x1f);
        int segmask = (int)((c[lane] >> 8) & 0x1f);
        int max_lane = (lane & segmask) | (cval & ~segmask);
        int min_lane = lane & segmask;
        int j = lane;
        bool pval = false;
        switch (mode) {
        case M_UP: j = lane - bval; pval = j >= max_lane; break;
        case M_DOWN: j = lane + bval; pval = j <= max_lane; break;
        case M_BFLY: j = lane ^ bval; pval = j <= max_lane; break;
        default: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
        }
        if (!pval)
            j = lane;
        d[lane] = a[j];
        p[lane] = pval;
    }
}

static const char *const mode_name[] = {"up", "down", "bfly", "idx"};

/* Runs shfl.MODE on 64 threads with per-thread a, b, c; d and p come back. */
static void run_shfl(int mode, bool sync, const uint32_t *a, const uint32_t *b,
                     const uint32_t *c, uint32_t *d, uint32_t *p)
{
    char *ptx = g_strdup_printf(
        HDR ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd,"
            " .param .u64 pp)\n{\n"
            ".reg .pred %%p<2>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<16>;\n"
            "ld.param.u64 %%rd1, [pa];\nld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [pc];\n"
            "ld.param.u64 %%rd4, [pd];\nld.param.u64 %%rd5, [pp];\n"
            "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd6, %%r1, 4;\n"
            "add.s64 %%rd7, %%rd1, %%rd6;\nadd.s64 %%rd8, %%rd2, %%rd6;\n"
            "add.s64 %%rd9, %%rd3, %%rd6;\nadd.s64 %%rd10, %%rd4, %%rd6;\n"
            "add.s64 %%rd11, %%rd5, %%rd6;\n"
            "ld.global.u32 %%r2, [%%rd7];\nld.global.u32 %%r3, [%%rd8];\n"
            "ld.global.u32 %%r4, [%%rd9];\n"
            "shfl%s.%s.b32 %%r5|%%p1, %%r2, %%r3, %%r4%s;\n"
            "st.global.u32 [%%rd10], %%r5;\n"
            "@%%p1 st.global.u32 [%%rd11], 1;\n"
            "ret;\n}\n",
        sync ? ".sync" : "", mode_name[mode], sync ? ", -1" : "");
    memset(p, 0, 64 * 4);
    test_buf bufs[] = {{(void *)a, 256}, {(void *)b, 256}, {(void *)c, 256}, {d, 256},
                       {p, 256}};
    run_ok(ptx, "k", 1, 64, bufs, 5);
    g_free(ptx);
}

static void check_shfl(int mode, bool sync, const uint32_t *a, const uint32_t *b,
                       const uint32_t *c)
{
    uint32_t d[64], p[64], ed[64], ep[64];
    run_shfl(mode, sync, a, b, c, d, p);
    shfl_model(mode, a, b, c, ed, ep);
    shfl_model(mode, a + 32, b + 32, c + 32, ed + 32, ep + 32);
    for (unsigned l = 0; l < 64; l++) {
        if (d[l] != ed[l] || p[l] != ep[l]) {
            print_error("shfl.%s thread %u: b 0x%x c 0x%x -> d 0x%x p %u, expected d 0x%x "
                        "p %u\n", mode_name[mode], l, b[l], c[l], d[l], p[l], ed[l], ep[l]);
            fail();
        }
    }
}

/* Hand-computed cases first (independent of the model), then the model
 * over every segment width and random b/c. */
static void test_shfl(void **state)
{
    (void)state;
    uint32_t a[64], b[64], c[64], d[64], p[64];
    for (unsigned l = 0; l < 64; l++)
        a[l] = 1000 + l;

    /* down by 1 in segments of 8 (CUDA width 8: c = ((32-8)<<8) | 0x1f) */
    for (unsigned l = 0; l < 64; l++) {
        b[l] = 1;
        c[l] = 0x181f;
    }
    run_shfl(M_DOWN, true, a, b, c, d, p);
    for (unsigned l = 0; l < 64; l++) {
        bool last = (l % 8) == 7;
        assert_int_equal(d[l], last ? 1000 + l : 1000 + l + 1);
        assert_int_equal(p[l], !last);
    }
    /* up by 3, whole warp (c = 0) */
    for (unsigned l = 0; l < 64; l++) {
        b[l] = 3;
        c[l] = 0;
    }
    run_shfl(M_UP, true, a, b, c, d, p);
    for (unsigned l = 0; l < 64; l++) {
        bool in = (l % 32) >= 3;
        assert_int_equal(d[l], in ? 1000 + l - 3 : 1000 + l);
        assert_int_equal(p[l], in);
    }
    /* bfly 16 over the warp, and idx 3 in segments of 8 */
    for (unsigned l = 0; l < 64; l++) {
        b[l] = 16;
        c[l] = 0x1f;
    }
    run_shfl(M_BFLY, true, a, b, c, d, p);
    for (unsigned l = 0; l < 64; l++)
        assert_int_equal(d[l], 1000 + (l ^ 16));
    for (unsigned l = 0; l < 64; l++) {
        b[l] = 3;
        c[l] = 0x181f;
    }
    run_shfl(M_IDX, true, a, b, c, d, p);
    for (unsigned l = 0; l < 64; l++) {
        assert_int_equal(d[l], 1000 + (l & ~7u) + 3);
        assert_int_equal(p[l], 1);
    }
    /* idx with clamp 5 (c = 0x05): lanes beyond 5 are out of range */
    for (unsigned l = 0; l < 64; l++) {
        b[l] = l % 8;
        c[l] = 0x05;
    }
    run_shfl(M_IDX, true, a, b, c, d, p);
    for (unsigned l = 0; l < 64; l++) {
        unsigned j = l % 8;
        bool in = j <= 5;
        assert_int_equal(d[l], in ? 1000 + (l & ~31u) + j : 1000 + l);
        assert_int_equal(p[l], in);
    }

    /* the model: each width with the CUDA encodings, b from 0 to 40 */
    for (int mode = 0; mode < 4; mode++) {
        for (unsigned width = 1; width <= 32; width *= 2) {
            for (unsigned l = 0; l < 64; l++) {
                a[l] = (uint32_t)rnd64();
                b[l] = (uint32_t)(rnd64() % 41);
                uint32_t seg = (32 - width) << 8;
                c[l] = mode == M_UP ? seg : seg | 0x1f;
            }
            check_shfl(mode, true, a, b, c);
        }
        /* arbitrary bit patterns in b and c, per lane */
        for (int rep = 0; rep < 4; rep++) {
            for (unsigned l = 0; l < 64; l++) {
                a[l] = (uint32_t)rnd64();
                b[l] = (uint32_t)rnd64();
                c[l] = (uint32_t)rnd64();
            }
            check_shfl(mode, true, a, b, c);
            check_shfl(mode, false, a, b, c); /* the pre-6.0 form without membermask */
        }
    }
}

/* Inside a branch only even lanes run; shfl.idx from lane^1 reads an
 * inactive lane, which the manual leaves unpredictable: ptxemu gives that
 * lane's current register value (deterministic). */
static void test_shfl_inactive_source(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
            ".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
            "ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\n"
            "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n"
            "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
            "ld.global.u32 %r2, [%rd4];\n"
            "and.b32 %r3, %r1, 1;\nsetp.ne.u32 %p1, %r3, 0;\n"
            "@%p1 bra $L_end;\n"
            "mov.u32 %r2, 7;\n"                      /* only even lanes overwrite */
            "activemask.b32 %r4;\n"
            "xor.b32 %r5, %r1, 1;\n"
            "shfl.sync.idx.b32 %r6|%p2, %r2, %r5, 0x1f, %r4;\n"
            "st.global.u32 [%rd5], %r6;\n"
            "$L_end:\n"
            "ret;\n}\n";
    uint32_t in[64], out[64];
    for (unsigned t = 0; t < 64; t++) {
        in[t] = 500 + t;
        out[t] = 0;
    }
    test_buf bufs[] = {{in, sizeof in}, {out, sizeof out}};
    run_ok(ptx, "k", 1, 64, bufs, 2);
    for (unsigned t = 0; t < 64; t++)
        assert_int_equal(out[t], t % 2 ? 0 : in[t + 1]);
}

/* ------------------------------------------------ vote, activemask, elect */

/* Thread t: pred = in[t] != 0; lanes with br[t] != 0 take a branch and run
 * the instructions there with membermask = activemask; then the whole warp
 * votes again.  out has 16 words per thread. */
static void test_vote_divergent(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 pin, .param .u64 pbr, .param .u64 pout)\n{\n"
            ".reg .pred %p<12>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n"
            "ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pbr];\nld.param.u64 %rd3, [pout];\n"
            "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\nmul.wide.u32 %rd5, %r1, 64;\n"
            "add.s64 %rd6, %rd1, %rd4;\nadd.s64 %rd7, %rd2, %rd4;\nadd.s64 %rd8, %rd3, %rd5;\n"
            "ld.global.u32 %r2, [%rd6];\nld.global.u32 %r3, [%rd7];\n"
            "setp.ne.u32 %p1, %r2, 0;\nsetp.ne.u32 %p2, %r3, 0;\n"
            "@!%p2 bra $L_join;\n"
            "activemask.b32 %r4;\nst.global.u32 [%rd8], %r4;\n"
            "vote.sync.ballot.b32 %r5, %p1, %r4;\nst.global.u32 [%rd8+4], %r5;\n"
            "vote.sync.all.pred %p3, %p1, %r4;\n@%p3 st.global.u32 [%rd8+8], 1;\n"
            "vote.sync.any.pred %p4, %p1, %r4;\n@%p4 st.global.u32 [%rd8+12], 1;\n"
            "vote.sync.uni.pred %p5, %p1, %r4;\n@%p5 st.global.u32 [%rd8+16], 1;\n"
            "vote.ballot.b32 %r6, !%p1;\nst.global.u32 [%rd8+20], %r6;\n"
            "elect.sync %r7|%p6, %r4;\nst.global.u32 [%rd8+24], %r7;\n"
            "@%p6 st.global.u32 [%rd8+28], 1;\n"
            "vote.sync.all.pred %p7, !%p1, %r4;\n@%p7 st.global.u32 [%rd8+32], 1;\n"
            "$L_join:\n"
            "vote.sync.ballot.b32 %r8, %p1, 0xffffffff;\nst.global.u32 [%rd8+36], %r8;\n"
            "vote.all.pred %p8, %p1;\n@%p8 st.global.u32 [%rd8+40], 1;\n"
            "vote.any.pred %p9, %p1;\n@%p9 st.global.u32 [%rd8+44], 1;\n"
            "activemask.b32 %r9;\nst.global.u32 [%rd8+48], %r9;\n"
            "@%p2 activemask.b32 %r10;\n@%p2 st.global.u32 [%rd8+52], %r10;\n"
            "ret;\n}\n";
    enum { N = 96 }; /* three warps, the last one partial below */
    for (int pattern = 0; pattern < 6; pattern++) {
        uint32_t in[N], br[N], out[N * 16];
        unsigned nthreads = pattern == 5 ? 80 : N;
        for (unsigned t = 0; t < N; t++) {
            switch (pattern) {
            case 0: in[t] = 1; br[t] = 1; break;                        /* all true */
            case 1: in[t] = 0; br[t] = t % 2; break;                    /* all false */
            case 2: in[t] = t % 3 == 0; br[t] = (t / 4) % 2; break;
            case 3: in[t] = (t % 32) < 5; br[t] = (t % 32) < 5 || t % 7 == 0; break;
            default: in[t] = (uint32_t)(rnd64() % 2); br[t] = (uint32_t)(rnd64() % 3 != 0); break;
            }
        }
        memset(out, 0, sizeof out);
        test_buf bufs[] = {{in, sizeof in}, {br, sizeof br}, {out, sizeof out}};
        run_ok(ptx, "k", 1, nthreads, bufs, 3);
        for (unsigned t = 0; t < nthreads; t++) {
            unsigned w0 = t / 32 * 32;
            uint32_t valid = 0, act = 0, pb = 0;
            for (unsigned k = 0; k < 32 && w0 + k < nthreads; k++) {
                valid |= 1u << k;
                act |= (uint32_t)(br[w0 + k] != 0) << k;
                pb |= (uint32_t)(in[w0 + k] != 0) << k;
            }
            const uint32_t *o = &out[t * 16];
            if (br[t]) {
                uint32_t bal = pb & act;
                assert_int_equal(o[0], act);
                assert_int_equal(o[1], bal);
                assert_int_equal(o[2], bal == act);
                assert_int_equal(o[3], bal != 0);
                assert_int_equal(o[4], bal == 0 || bal == act);
                assert_int_equal(o[5], ~pb & act);
                assert_int_equal(o[6], (uint32_t)__builtin_ctz(act));
                assert_int_equal(o[7], (t % 32) == (unsigned)__builtin_ctz(act));
                assert_int_equal(o[8], bal == 0);
            } else {
                for (unsigned k = 0; k < 9; k++)
                    assert_int_equal(o[k], 0);
            }
            assert_int_equal(o[9], pb & valid);
            assert_int_equal(o[10], (pb & valid) == valid);
            assert_int_equal(o[11], (pb & valid) != 0);
            assert_int_equal(o[12], valid);
            /* a predicated activemask counts only the predicated-on lanes */
            assert_int_equal(o[13], br[t] ? act : 0);
        }
    }
}

/* -------------------------------------------------------------- match */

static void test_match(void **state)
{
    (void)state;
    const char *ptx =
        HDR ".visible .entry k(.param .u64 p32, .param .u64 p64, .param .u64 pm, .param .u64 pout)\n{\n"
            ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<16>;\n"
            "ld.param.u64 %rd1, [p32];\nld.param.u64 %rd2, [p64];\nld.param.u64 %rd3, [pm];\n"
            "ld.param.u64 %rd4, [pout];\n"
            "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 4;\nmul.wide.u32 %rd6, %r1, 8;\n"
            "mul.wide.u32 %rd7, %r1, 32;\n"
            "add.s64 %rd8, %rd1, %rd5;\nld.global.u32 %r2, [%rd8];\n"
            "add.s64 %rd9, %rd2, %rd6;\nld.global.u64 %rd10, [%rd9];\n"
            "add.s64 %rd11, %rd3, %rd5;\nld.global.u32 %r3, [%rd11];\n"
            "add.s64 %rd12, %rd4, %rd7;\n"
            "match.any.sync.b32 %r4, %r2, %r3;\nst.global.u32 [%rd12], %r4;\n"
            "match.all.sync.b32 %r5|%p1, %r2, %r3;\nst.global.u32 [%rd12+4], %r5;\n"
            "@%p1 st.global.u32 [%rd12+8], 1;\n"
            "match.any.sync.b64 %r6, %rd10, %r3;\nst.global.u32 [%rd12+12], %r6;\n"
            "match.all.sync.b64 %r7|%p2, %rd10, %r3;\nst.global.u32 [%rd12+16], %r7;\n"
            "@%p2 st.global.u32 [%rd12+20], 1;\n"
            "match.all.sync.b32 %r8, %r2, %r3;\nst.global.u32 [%rd12+24], %r8;\n"
            "ret;\n}\n";
    enum { N = 64 };
    for (int pattern = 0; pattern < 5; pattern++) {
        uint32_t v32[N], mem[N], out[N * 8];
        uint64_t v64[N];
        for (unsigned t = 0; t < N; t++) {
            unsigned l = t % 32;
            switch (pattern) {
            case 0: v32[t] = 7; break;                          /* all equal */
            case 1: v32[t] = l % 3; break;
            case 2: v32[t] = (uint32_t)(rnd64() % 4); break;
            case 3: v32[t] = l < 16 ? 1 : 2; break;            /* equal per half */
            default: v32[t] = l; break;                         /* all distinct */
            }
            /* the 64-bit values differ only in their upper halves for odd lanes */
            v64[t] = ((uint64_t)(l % 2 ? v32[t] + 100 : v32[t]) << 32) | 0x55u;
            /* patterns 3 and 4 split the warp into two groups by membermask */
            mem[t] = pattern >= 3 ? (l < 16 ? 0x0000ffffu : 0xffff0000u) : 0xffffffffu;
        }
        memset(out, 0, sizeof out);
        test_buf bufs[] = {{v32, sizeof v32}, {v64, sizeof v64}, {mem, sizeof mem},
                           {out, sizeof out}};
        run_ok(ptx, "k", 1, N, bufs, 4);
        for (unsigned t = 0; t < N; t++) {
            unsigned w0 = t / 32 * 32;
            uint32_t g = mem[t], any32 = 0, any64 = 0;
            for (unsigned k = 0; k < 32; k++) {
                if (!(g >> k & 1))
                    continue;
                any32 |= (uint32_t)(v32[w0 + k] == v32[t]) << k;
                any64 |= (uint32_t)(v64[w0 + k] == v64[t]) << k;
            }
            const uint32_t *o = &out[t * 8];
            assert_int_equal(o[0], any32);
            assert_int_equal(o[1], any32 == g ? g : 0);
            assert_int_equal(o[2], any32 == g);
            assert_int_equal(o[3], any64);
            assert_int_equal(o[4], any64 == g ? g : 0);
            assert_int_equal(o[5], any64 == g);
            assert_int_equal(o[6], any32 == g ? g : 0);
        }
    }
}

/* -------------------------------------------------------------- redux */

static void test_redux_int(void **state)
{
    (void)state;
    static const char *const ops[] = {"add.u32", "add.s32", "min.u32", "max.u32", "min.s32",
                                      "max.s32", "and.b32", "or.b32", "xor.b32"};
    GString *body = g_string_new(NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(ops); i++)
        g_string_append_printf(body, "redux.sync.%s %%r4, %%r2, %%r3;\n"
                                     "st.global.u32 [%%rd10+%u], %%r4;\n", ops[i], 4 * i);
    char *ptx = g_strdup_printf(
        HDR ".visible .entry k(.param .u64 pv, .param .u64 pm, .param .u64 pout)\n{\n"
            ".reg .b32 %%r<8>;\n.reg .b64 %%rd<12>;\n"
            "ld.param.u64 %%rd1, [pv];\nld.param.u64 %%rd2, [pm];\nld.param.u64 %%rd3, [pout];\n"
            "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd4, %%r1, 4;\nmul.wide.u32 %%rd5, %%r1, 64;\n"
            "add.s64 %%rd6, %%rd1, %%rd4;\nld.global.u32 %%r2, [%%rd6];\n"
            "add.s64 %%rd7, %%rd2, %%rd4;\nld.global.u32 %%r3, [%%rd7];\n"
            "add.s64 %%rd10, %%rd3, %%rd5;\n%s"
            "redux.sync.add.u32 %%r2, %%r2, %%r3;\n"   /* d is the source */
            "st.global.u32 [%%rd10+36], %%r2;\n"
            "ret;\n}\n",
        body->str);
    g_string_free(body, TRUE);
    enum { N = 64 };
    for (int pattern = 0; pattern < 4; pattern++) {
        uint32_t v[N], mem[N], out[N * 16];
        for (unsigned t = 0; t < N; t++) {
            unsigned l = t % 32;
            v[t] = pattern == 0 ? (uint32_t)((int32_t)l - 16) : (uint32_t)rnd64();
            mem[t] = pattern == 2 ? (l < 16 ? 0x0000ffffu : 0xffff0000u)
                   : pattern == 3 ? (l % 2 ? 0xaaaaaaaau : 0x55555555u) : 0xffffffffu;
        }
        test_buf bufs[] = {{v, sizeof v}, {mem, sizeof mem}, {out, sizeof out}};
        run_ok(ptx, "k", 1, N, bufs, 3);
        for (unsigned t = 0; t < N; t++) {
            unsigned w0 = t / 32 * 32;
            uint32_t g = mem[t];
            uint64_t sum = 0;
            uint32_t mnu = UINT32_MAX, mxu = 0, a = ~0u, o = 0, x = 0;
            int32_t mns = INT32_MAX, mxs = INT32_MIN;
            for (unsigned k = 0; k < 32; k++) {
                if (!(g >> k & 1))
                    continue;
                uint32_t e = v[w0 + k];
                sum += e;
                mnu = e < mnu ? e : mnu;
                mxu = e > mxu ? e : mxu;
                mns = (int32_t)e < mns ? (int32_t)e : mns;
                mxs = (int32_t)e > mxs ? (int32_t)e : mxs;
                a &= e;
                o |= e;
                x ^= e;
            }
            const uint32_t *r = &out[t * 16];
            assert_int_equal(r[0], (uint32_t)sum);
            assert_int_equal(r[1], (uint32_t)sum);
            assert_int_equal(r[2], mnu);
            assert_int_equal(r[3], mxu);
            assert_int_equal(r[4], (uint32_t)mns);
            assert_int_equal(r[5], (uint32_t)mxs);
            assert_int_equal(r[6], a);
            assert_int_equal(r[7], o);
            assert_int_equal(r[8], x);
            assert_int_equal(r[9], (uint32_t)sum);
        }
    }
    g_free(ptx);
}

/* redux.sync.min/max.f32 with .abs and .NaN: +0 > -0; NaN inputs ignored
 * unless .NaN; results NaN are canonical. */
static void test_redux_f32(void **state)
{
    (void)state;
    static const char *const ops[] = {"min.f32", "max.f32", "min.abs.f32", "max.abs.f32",
                                      "min.NaN.f32", "max.abs.NaN.f32"};
    GString *body = g_string_new(NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(ops); i++)
        g_string_append_printf(body, "redux.sync.%s %%r4, %%r2, 0xffffffff;\n"
                                     "st.global.u32 [%%rd10+%u], %%r4;\n", ops[i], 4 * i);
    char *ptx = g_strdup_printf(
        ".version 8.6\n.target sm_100a\n.address_size 64\n"
        ".visible .entry k(.param .u64 pv, .param .u64 pout)\n{\n"
        ".reg .b32 %%r<8>;\n.reg .b64 %%rd<12>;\n"
        "ld.param.u64 %%rd1, [pv];\nld.param.u64 %%rd3, [pout];\n"
        "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd4, %%r1, 4;\nmul.wide.u32 %%rd5, %%r1, 32;\n"
        "add.s64 %%rd6, %%rd1, %%rd4;\nld.global.u32 %%r2, [%%rd6];\n"
        "add.s64 %%rd10, %%rd3, %%rd5;\n%s"
        "ret;\n}\n",
        body->str);
    g_string_free(body, TRUE);
    typedef struct {
        uint32_t v[4];
        uint32_t expect[6];
    } fcase;
    const uint32_t NaN = 0x7fc00001, CN = 0x7fffffff;
    const fcase cases[] = {
        /* 1, -2, 3, -0.5 */
        {{f2u(1), f2u(-2), f2u(3), f2u(-0.5f)},
         {f2u(-2), f2u(3), f2u(0.5f), f2u(3), f2u(-2), f2u(3)}},
        /* +0, -0 twice: min -0, max +0; abs makes all +0 */
        {{0x00000000, 0x80000000, 0x00000000, 0x80000000},
         {0x80000000, 0x00000000, 0x00000000, 0x00000000, 0x80000000, 0x00000000}},
        /* a NaN among numbers */
        {{f2u(5), NaN, f2u(-7), f2u(2)}, {f2u(-7), f2u(5), f2u(2), f2u(7), CN, CN}},
        /* all NaN */
        {{NaN, 0xffc00000, NaN, NaN}, {CN, CN, CN, CN, CN, CN}},
    };
    for (unsigned ci = 0; ci < G_N_ELEMENTS(cases); ci++) {
        uint32_t v[32], out[32 * 8];
        for (unsigned l = 0; l < 32; l++)
            v[l] = cases[ci].v[l % 4];
        test_buf bufs[] = {{v, sizeof v}, {out, sizeof out}};
        run_ok(ptx, "k", 1, 32, bufs, 2);
        for (unsigned l = 0; l < 32; l++)
            for (unsigned k = 0; k < 6; k++) {
                if (out[l * 8 + k] != cases[ci].expect[k]) {
                    print_error("redux.%s case %u lane %u: 0x%08x, expected 0x%08x\n", ops[k],
                                ci, l, out[l * 8 + k], cases[ci].expect[k]);
                    fail();
                }
            }
    }
    g_free(ptx);
}

/* ---------------------------------------------------------------- errors */

static ptxemu_status run_expect_fail(const char *ptx, unsigned block, char **msg)
{
    uint32_t buf[64] = {0};
    test_buf bufs[] = {{buf, sizeof buf}};
    return test_run_ptx(ptx, "k", 1, block, bufs, 1, msg);
}

static void test_errors(void **state)
{
    (void)state;
    char *msg = NULL;
    /* an executing lane missing from its membermask */
    const char *bad_mask =
        HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
            "mov.u32 %r1, %tid.x;\n"
            "shfl.sync.bfly.b32 %r2, %r1, 1, 0x1f, 0xffff;\nret;\n}\n";
    assert_int_equal(run_expect_fail(bad_mask, 32, &msg), PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "membermask 0x0000ffff");
    assert_contains(msg, "thread (16,0,0)");
    g_free(msg);
    /* the same with only 16 threads is fine */
    assert_int_equal(run_expect_fail(bad_mask, 16, &msg), PTXEMU_OK);
    g_free(msg);

    /* atomics on a generic address that points into .local memory */
    const char *local_atom =
        HDR ".visible .entry k(.param .u64 p)\n{\n.local .align 4 .b32 x;\n"
            ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
            "mov.u64 %rd1, x;\ncvta.local.u64 %rd2, %rd1;\n"
            "atom.add.u32 %r1, [%rd2], 1;\nret;\n}\n";
    assert_int_equal(run_expect_fail(local_atom, 1, &msg), PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, ".local address");
    g_free(msg);

    /* misaligned and out-of-bounds atomics fault like loads and stores */
    const char *misaligned =
        HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
            "ld.param.u64 %rd1, [p];\n"
            "atom.global.add.u32 %r1, [%rd1+2], 1;\nret;\n}\n";
    assert_int_equal(run_expect_fail(misaligned, 1, &msg), PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "misaligned");
    g_free(msg);
    const char *oob =
        HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<4>;\n"
            "ld.param.u64 %rd1, [p];\n"
            "red.global.add.u64 [%rd1+256], 1;\nret;\n}\n";
    assert_int_equal(run_expect_fail(oob, 1, &msg), PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "out-of-bounds");
    g_free(msg);

    /* forms the PTX ISA does not define are refused at load, with a reason */
    const char *inc_signed =
        HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
            "ld.param.u64 %rd1, [p];\n"
            "atom.global.inc.s32 %r1, [%rd1], 1;\nret;\n}\n";
    assert_int_equal(run_expect_fail(inc_signed, 1, &msg), PTXEMU_ERR_UNSUPPORTED);
    assert_contains(msg, "atom.inc.s32 is not a form the PTX ISA defines");
    g_free(msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inc_dec_table),
        cmocka_unit_test(test_min_max_signedness),
        cmocka_unit_test(test_bit_ops_and_exch),
        cmocka_unit_test(test_float_add_tables),
        cmocka_unit_test(test_16bit),
        cmocka_unit_test(test_counters_contended),
        cmocka_unit_test(test_inc_dec_exch_contended),
        cmocka_unit_test(test_cas_loop),
        cmocka_unit_test(test_spinlock_corpus),
        cmocka_unit_test(test_shared_and_float_totals),
        cmocka_unit_test(test_vector_f32),
        cmocka_unit_test(test_shfl),
        cmocka_unit_test(test_shfl_inactive_source),
        cmocka_unit_test(test_vote_divergent),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_redux_int),
        cmocka_unit_test(test_redux_f32),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
