/* tests/runtime/test_convert.c — cvt, setp, set, selp and slct run through
 * the executor, checked lane by lane against references written here
 * independently of isa/cvt.c and isa/exec_compare.c (plain C comparisons,
 * hand-computed tables, manual rounding of integers).
 *
 * Every kernel has the same frame: lane i reads A[i], B[i], C[i] (one
 * 64-bit word each) into registers of every width, runs a test body, and
 * stores 64-bit results to OUT[i * nout + k].
 *
 * Long because it covers every cvt type pair and rounding mode by table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/support/test_util.h"

#define SENTINEL UINT64_C(0x5a5a5a5a5a5a5a5a)
#define MAXL 32

/* Registers the body can use:
 *   A: %rd11 (b64), %r1 (b32), %h1 (b16), %f1 (f32), %fd1 (f64)
 *   B: %rd12, %r2, %h2, %f2, %fd2      C: %rd13, %r3, %h3, %f3, %fd3
 *   %p3 = (low 32 bits of C) != 0;  %rd10 = &OUT[i * nout];  %r0 = lane */
static const char *frame_head =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po)\n"
    "{\n"
    "  .reg .pred %p<16>;\n  .reg .b16 %h<32>;\n  .reg .b32 %r<64>;\n"
    "  .reg .b64 %rd<64>;\n  .reg .f32 %f<32>;\n  .reg .f64 %fd<32>;\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n"
    "  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [po];\n"
    "  mov.u32 %r0, %tid.x;\n"
    "  mul.wide.u32 %rd5, %r0, 8;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n  add.s64 %rd7, %rd2, %rd5;\n  add.s64 %rd8, %rd3, %rd5;\n"
    "  ld.global.u64 %rd11, [%rd6];\n  ld.global.u32 %r1, [%rd6];\n"
    "  ld.global.u16 %h1, [%rd6];\n  ld.global.f32 %f1, [%rd6];\n  ld.global.f64 %fd1, [%rd6];\n"
    "  ld.global.u64 %rd12, [%rd7];\n  ld.global.u32 %r2, [%rd7];\n"
    "  ld.global.u16 %h2, [%rd7];\n  ld.global.f32 %f2, [%rd7];\n  ld.global.f64 %fd2, [%rd7];\n"
    "  ld.global.u64 %rd13, [%rd8];\n  ld.global.u32 %r3, [%rd8];\n"
    "  ld.global.u16 %h3, [%rd8];\n  ld.global.f32 %f3, [%rd8];\n  ld.global.f64 %fd3, [%rd8];\n"
    "  setp.ne.u32 %p3, %r3, 0;\n";

/* Runs `body` on `lanes` threads; out gets nout words per lane (unwritten
 * words keep SENTINEL). */
static void run_body(const char *body, unsigned lanes, const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, unsigned nout, uint64_t *out)
{
    uint64_t A[MAXL] = {0}, B[MAXL] = {0}, C[MAXL] = {0};
    memcpy(A, a, lanes * 8);
    if (b)
        memcpy(B, b, lanes * 8);
    if (c)
        memcpy(C, c, lanes * 8);
    for (unsigned i = 0; i < lanes * nout; i++)
        out[i] = SENTINEL;
    GString *ptx = g_string_new(frame_head);
    g_string_append_printf(ptx, "  mul.wide.u32 %%rd9, %%r0, %u;\n  add.s64 %%rd10, %%rd4, %%rd9;\n",
                           nout * 8);
    g_string_append(ptx, body);
    g_string_append(ptx, "  ret;\n}\n");
    test_buf bufs[4] = {{A, sizeof A}, {B, sizeof B}, {C, sizeof C}, {out, (size_t)lanes * nout * 8}};
    char *err = NULL;
    ptxemu_status s = test_run_ptx(ptx->str, "k", 1, lanes, bufs, 4, &err);
    if (s != PTXEMU_OK)
        fail_msg("launch failed: %s\n--- kernel ---\n%s", err ? err : "?", ptx->str);
    g_free(err);
    g_string_free(ptx, TRUE);
}

static uint64_t f32b(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bf32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t f64b(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s ^ (*s >> 29);
}

#define CHECK(got, want, ...)                                                 \
    do {                                                                      \
        uint64_t g_ = (got), w_ = (want);                                     \
        if (g_ != w_) {                                                       \
            print_error(__VA_ARGS__);                                         \
            fail_msg(" got 0x%llx want 0x%llx", (unsigned long long)g_,        \
                     (unsigned long long)w_);                                 \
        }                                                                     \
    } while (0)

/* ======================================================================
 * Comparison references
 * ==================================================================== */

static bool int_ref(const char *op, unsigned bits, bool sgn, uint64_t a, uint64_t b)
{
    uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t ua = a & m, ub = b & m;
    int64_t sa = (int64_t)(ua << (64 - bits)) >> (64 - bits);
    int64_t sb = (int64_t)(ub << (64 - bits)) >> (64 - bits);
    if (!strcmp(op, "eq")) return ua == ub;
    if (!strcmp(op, "ne")) return ua != ub;
    if (!strcmp(op, "lt")) return sgn ? sa < sb : ua < ub;
    if (!strcmp(op, "le")) return sgn ? sa <= sb : ua <= ub;
    if (!strcmp(op, "gt")) return sgn ? sa > sb : ua > ub;
    if (!strcmp(op, "ge")) return sgn ? sa >= sb : ua >= ub;
    if (!strcmp(op, "lo")) return ua < ub;
    if (!strcmp(op, "ls")) return ua <= ub;
    if (!strcmp(op, "hi")) return ua > ub;
    if (!strcmp(op, "hs")) return ua >= ub;
    fail_msg("unknown op %s", op);
    return false;
}

/* The manual's table: ordered comparisons are false when either is NaN,
 * the u-forms are true then. */
static bool flt_ref(const char *op, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    if (!strcmp(op, "eq")) return !un && a == b;
    if (!strcmp(op, "ne")) return !un && a != b;
    if (!strcmp(op, "lt")) return !un && a < b;
    if (!strcmp(op, "le")) return !un && a <= b;
    if (!strcmp(op, "gt")) return !un && a > b;
    if (!strcmp(op, "ge")) return !un && a >= b;
    if (!strcmp(op, "equ")) return un || a == b;
    if (!strcmp(op, "neu")) return un || a != b;
    if (!strcmp(op, "ltu")) return un || a < b;
    if (!strcmp(op, "leu")) return un || a <= b;
    if (!strcmp(op, "gtu")) return un || a > b;
    if (!strcmp(op, "geu")) return un || a >= b;
    if (!strcmp(op, "num")) return !un;
    if (!strcmp(op, "nan")) return un;
    fail_msg("unknown op %s", op);
    return false;
}

static float flushf(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* Value of an IEEE half from its fields. */
static double f16_val(uint16_t h, bool ftz)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    if (e == 0)
        return ftz ? s * 0.0 : s * ldexp(m, -24);
    return s * ldexp(1024 + m, e - 25);
}
static double bf16_val(uint16_t h)
{
    return bf32((uint32_t)h << 16);
}

/* ======================================================================
 * setp on integers
 * ==================================================================== */

typedef struct icase {
    const char *op, *type;
    unsigned bits;
    bool sgn;
} icase;

static void test_setp_int(void **state)
{
    (void)state;
    static const icase cases[] = {
        {"eq", "s32", 32, true}, {"ne", "s32", 32, true}, {"lt", "s32", 32, true},
        {"le", "s32", 32, true}, {"gt", "s32", 32, true}, {"ge", "s32", 32, true},
        {"lo", "s32", 32, true}, {"ls", "s32", 32, true}, {"hi", "s32", 32, true},
        {"hs", "s32", 32, true}, {"lt", "u32", 32, false}, {"le", "u32", 32, false},
        {"gt", "u32", 32, false}, {"ge", "u32", 32, false}, {"lo", "u32", 32, false},
        {"hs", "u32", 32, false}, {"eq", "b32", 32, false}, {"ne", "b32", 32, false},
        {"lt", "s64", 64, true}, {"ge", "s64", 64, true}, {"lt", "u64", 64, false},
        {"hi", "s64", 64, true}, {"eq", "b64", 64, false}, {"le", "s64", 64, true},
        {"lt", "s16", 16, true}, {"ge", "u16", 16, false}, {"hi", "s16", 16, true},
        {"ne", "b16", 16, false}, {"gt", "s16", 16, true},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    uint64_t A[MAXL], B[MAXL], out[MAXL * N];
    static const uint64_t fixed[][2] = {
        {0, 0}, {1, 2}, {2, 1}, {0x80000000u, 1}, {1, 0x80000000u},
        {0xffffffffu, 0}, {0, 0xffffffffu}, {0x7fffffffu, 0x80000000u},
        {0xffffffffu, 0xffffffffu}, {0x8000000000000000ull, 1},
        {1, 0x8000000000000000ull}, {0xffffffffffffffffull, 0},
        {0x7fffffffffffffffull, 0x8000000000000000ull}, {0x8000, 0x7fff},
        {0xffff, 1}, {0x7fff, 0xffff}, {0x100000000ull, 1}, {0x1ffff, 0x10000},
    };
    uint64_t seed = 7;
    for (unsigned i = 0; i < MAXL; i++) {
        if (i < G_N_ELEMENTS(fixed)) {
            A[i] = fixed[i][0];
            B[i] = fixed[i][1];
        } else {
            A[i] = lcg(&seed);
            B[i] = (i & 3) == 0 ? A[i] : lcg(&seed);
        }
    }
    GString *body = g_string_new(NULL);
    for (unsigned k = 0; k < N; k++) {
        const icase *c = &cases[k];
        const char *ra = c->bits == 16 ? "%h1" : c->bits == 32 ? "%r1" : "%rd11";
        const char *rb = c->bits == 16 ? "%h2" : c->bits == 32 ? "%r2" : "%rd12";
        g_string_append_printf(body,
                               "  setp.%s.%s %%p1, %s, %s;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
                               "  st.global.u64 [%%rd10+%u], %%rd20;\n",
                               c->op, c->type, ra, rb, k * 8);
    }
    run_body(body->str, MAXL, A, B, NULL, N, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < MAXL; i++)
        for (unsigned k = 0; k < N; k++)
            CHECK(out[i * N + k], int_ref(cases[k].op, cases[k].bits, cases[k].sgn, A[i], B[i]),
                  "setp.%s.%s lane %u a=0x%llx b=0x%llx", cases[k].op, cases[k].type, i,
                  (unsigned long long)A[i], (unsigned long long)B[i]);
}

/* Immediate operands and a predicate register read back whole. */
static void test_setp_imm(void **state)
{
    (void)state;
    uint64_t A[4] = {0xfffffffbu /* -5 */, 0xfffffffau, 7, 0x80000000u}, out[4 * 4];
    run_body("  setp.lt.s32 %p1, %r1, -5;\n  st.global.b64 [%rd10], %p1;\n"
             "  setp.ge.u32 %p2, %r1, 7;\n  st.global.b64 [%rd10+8], %p2;\n"
             "  setp.gt.f32 %p4, %f1, 0f00000000;\n  st.global.b64 [%rd10+16], %p4;\n"
             "  setp.eq.s32 %p5, 7, %r1;\n  st.global.b64 [%rd10+24], %p5;\n",
             4, A, NULL, NULL, 4, out);
    for (unsigned i = 0; i < 4; i++) {
        int32_t s = (int32_t)(uint32_t)A[i];
        CHECK(out[i * 4 + 0], s < -5, "lt imm lane %u", i);
        CHECK(out[i * 4 + 1], (uint32_t)A[i] >= 7, "ge.u32 imm lane %u", i);
        CHECK(out[i * 4 + 2], bf32(A[i]) > 0.0f, "gt.f32 imm lane %u", i);
        CHECK(out[i * 4 + 3], s == 7, "eq imm first lane %u", i);
    }
}

/* ======================================================================
 * setp on f32 / f64
 * ==================================================================== */

static const char *const fops[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ",
                                   "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
enum { NFOPS = 14 };

static void test_setp_float(void **state)
{
    (void)state;
    const float sub = 1.0e-40f; /* subnormal */
    const float fa[] = {1, 2, 1, NAN, 1, NAN, 0.0f, -INFINITY, INFINITY, sub, -sub, sub,
                        -0.0f, 3.5f, -2, NAN, sub, 1e30f};
    const float fb[] = {2, 1, 1, 1, NAN, NAN, -0.0f, INFINITY, INFINITY, 0, 0, -sub,
                        0.0f, -3.5f, -2, -INFINITY, 2 * sub, INFINITY};
    enum { L = sizeof fa / sizeof fa[0], K = 3 * NFOPS };
    uint64_t A32[L], B32[L], A64[L], B64[L], out[L * K];
    for (unsigned i = 0; i < L; i++) {
        A32[i] = f32b(fa[i]);
        B32[i] = f32b(fb[i]);
    }
    GString *body = g_string_new(NULL);
    for (unsigned k = 0; k < NFOPS; k++)
        g_string_append_printf(body,
                               "  setp.%s.f32 %%p1, %%f1, %%f2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
                               "  st.global.u64 [%%rd10+%u], %%rd20;\n"
                               "  setp.%s.ftz.f32 %%p1, %%f1, %%f2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
                               "  st.global.u64 [%%rd10+%u], %%rd20;\n",
                               fops[k], k * 8, fops[k], (NFOPS + k) * 8);
    run_body(body->str, L, A32, B32, NULL, K, out);
    for (unsigned i = 0; i < L; i++)
        for (unsigned k = 0; k < NFOPS; k++) {
            CHECK(out[i * K + k], flt_ref(fops[k], fa[i], fb[i]), "setp.%s.f32 lane %u (%g, %g)",
                  fops[k], i, fa[i], fb[i]);
            CHECK(out[i * K + NFOPS + k], flt_ref(fops[k], flushf(fa[i]), flushf(fb[i])),
                  "setp.%s.ftz.f32 lane %u (%g, %g)", fops[k], i, fa[i], fb[i]);
        }
    /* f64: the same pairs widened, plus an f64 subnormal (never flushed) */
    double da[L], db[L];
    for (unsigned i = 0; i < L; i++) {
        da[i] = fa[i];
        db[i] = fb[i];
    }
    da[L - 1] = 4.9e-324;
    db[L - 1] = 0;
    for (unsigned i = 0; i < L; i++) {
        A64[i] = f64b(da[i]);
        B64[i] = f64b(db[i]);
    }
    g_string_truncate(body, 0);
    for (unsigned k = 0; k < NFOPS; k++)
        g_string_append_printf(body,
                               "  setp.%s.f64 %%p1, %%fd1, %%fd2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
                               "  st.global.u64 [%%rd10+%u], %%rd20;\n"
                               "  setp.%s.f64 %%p1|%%p2, %%fd1, %%fd2;\n"
                               "  selp.u64 %%rd20, 1, 0, %%p2;\n"
                               "  st.global.u64 [%%rd10+%u], %%rd20;\n",
                               fops[k], (2 * NFOPS + k) * 8, fops[k], (NFOPS + k) * 8);
    run_body(body->str, L, A64, B64, NULL, K, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < L; i++)
        for (unsigned k = 0; k < NFOPS; k++) {
            bool t = flt_ref(fops[k], da[i], db[i]);
            CHECK(out[i * K + 2 * NFOPS + k], t, "setp.%s.f64 lane %u (%g, %g)", fops[k], i, da[i],
                  db[i]);
            /* q of p|q is the complement */
            CHECK(out[i * K + NFOPS + k], !t, "setp.%s.f64 q lane %u (%g, %g)", fops[k], i,
                  da[i], db[i]);
        }
}

/* ======================================================================
 * .and/.or/.xor with {!}c, p|q, and set
 * ==================================================================== */

static bool bop_ref(const char *bop, bool t, bool c)
{
    if (!strcmp(bop, "and")) return t && c;
    if (!strcmp(bop, "or")) return t || c;
    return t != c;
}

static void test_setp_bool(void **state)
{
    (void)state;
    static const char *const bops[] = {"and", "or", "xor"};
    enum { L = 24, K = 3 * 2 * 2 + 4 };
    uint64_t A[L], B[L], C[L], out[L * K];
    uint64_t seed = 99;
    for (unsigned i = 0; i < L; i++) {
        A[i] = (uint32_t)lcg(&seed) % 5 + ((i & 4) ? 0x80000000u : 0);
        B[i] = (uint32_t)lcg(&seed) % 5;
        C[i] = (i >> 1) & 1;
    }
    GString *body = g_string_new(NULL);
    unsigned k = 0;
    for (unsigned bi = 0; bi < 3; bi++)
        for (unsigned neg = 0; neg < 2; neg++) {
            g_string_append_printf(body,
                                   "  setp.lt.%s.s32 %%p1|%%p2, %%r1, %%r2, %s%%p3;\n"
                                   "  selp.u64 %%rd20, 1, 0, %%p1;\n  st.global.u64 [%%rd10+%u], %%rd20;\n"
                                   "  selp.u64 %%rd20, 1, 0, %%p2;\n  st.global.u64 [%%rd10+%u], %%rd20;\n",
                                   bops[bi], neg ? "!" : "", k * 8, (k + 1) * 8);
            k += 2;
        }
    /* float with unordered operator and a negated c */
    g_string_append_printf(body,
                           "  setp.gtu.or.f32 %%p4|%%p5, %%f1, %%f2, !%%p3;\n"
                           "  selp.u64 %%rd20, 1, 0, %%p4;\n  st.global.u64 [%%rd10+%u], %%rd20;\n"
                           "  selp.u64 %%rd20, 1, 0, %%p5;\n  st.global.u64 [%%rd10+%u], %%rd20;\n",
                           k * 8, (k + 1) * 8);
    /* set with a boolean op, and set.f32 */
    g_string_append_printf(body,
                           "  set.hi.xor.u32.s32 %%r10, %%r1, %%r2, !%%p3;\n"
                           "  st.global.b64 [%%rd10+%u], %%r10;\n"
                           "  set.le.and.f32.u32 %%f10, %%r1, %%r2, %%p3;\n"
                           "  st.global.b64 [%%rd10+%u], %%f10;\n",
                           (k + 2) * 8, (k + 3) * 8);
    /* lanes 0 and 1 carry float NaNs for the f32 form; every reference
     * reads the same bits */
    A[0] = f32b(NAN);
    A[1] = f32b(2.0f);
    B[1] = f32b(NAN);
    run_body(body->str, L, A, B, C, K, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < L; i++) {
        bool c = (uint32_t)C[i] != 0;
        bool lt = (int32_t)(uint32_t)A[i] < (int32_t)(uint32_t)B[i];
        k = 0;
        for (unsigned bi = 0; bi < 3; bi++)
            for (unsigned neg = 0; neg < 2; neg++) {
                bool cc = neg ? !c : c;
                CHECK(out[i * K + k], bop_ref(bops[bi], lt, cc), "setp.lt.%s p lane %u neg %u",
                      bops[bi], i, neg);
                CHECK(out[i * K + k + 1], bop_ref(bops[bi], !lt, cc),
                      "setp.lt.%s q lane %u neg %u", bops[bi], i, neg);
                k += 2;
            }
        bool gtu = flt_ref("gtu", bf32(A[i]), bf32(B[i]));
        CHECK(out[i * K + k], gtu || !c, "setp.gtu.or p lane %u", i);
        CHECK(out[i * K + k + 1], !gtu || !c, "setp.gtu.or q lane %u", i);
        bool hi = (uint32_t)A[i] > (uint32_t)B[i];
        CHECK(out[i * K + k + 2], (hi != !c) ? 0xffffffffu : 0, "set.hi.xor lane %u", i);
        bool le = (uint32_t)A[i] <= (uint32_t)B[i];
        CHECK(out[i * K + k + 3], (le && c) ? 0x3f800000u : 0, "set.le.and.f32 lane %u", i);
    }
}

static void test_set(void **state)
{
    (void)state;
    const float fa[] = {1, 2, NAN, -1, 0.0f, 5};
    const float fb[] = {2, 1, 1, -1, -0.0f, NAN};
    enum { L = 6, K = 5 };
    uint64_t A[L], B[L], out[L * K];
    for (unsigned i = 0; i < L; i++) {
        A[i] = f32b(fa[i]);
        B[i] = f32b(fb[i]);
    }
    run_body("  set.lt.u32.f32 %r10, %f1, %f2;\n  st.global.b64 [%rd10], %r10;\n"
             "  set.ltu.s32.f32 %r11, %f1, %f2;\n  st.global.b64 [%rd10+8], %r11;\n"
             "  set.ge.f32.f32 %f12, %f1, %f2;\n  st.global.b64 [%rd10+16], %f12;\n"
             "  set.ne.u32.s32 %r13, %r1, %r2;\n  st.global.b64 [%rd10+24], %r13;\n"
             "  set.eq.u16.f16 %h14, %h1, %h2;\n  st.global.b64 [%rd10+32], %h14;\n",
             L, A, B, NULL, K, out);
    for (unsigned i = 0; i < L; i++) {
        CHECK(out[i * K + 0], flt_ref("lt", fa[i], fb[i]) ? 0xffffffffu : 0, "set.lt lane %u", i);
        CHECK(out[i * K + 1], flt_ref("ltu", fa[i], fb[i]) ? 0xffffffffu : 0, "set.ltu lane %u", i);
        CHECK(out[i * K + 2], flt_ref("ge", fa[i], fb[i]) ? 0x3f800000u : 0, "set.ge.f32 lane %u",
              i);
        CHECK(out[i * K + 3], (uint32_t)A[i] != (uint32_t)B[i] ? 0xffffffffu : 0,
              "set.ne.s32 lane %u", i);
        CHECK(out[i * K + 4],
              flt_ref("eq", f16_val((uint16_t)A[i], false), f16_val((uint16_t)B[i], false)) ? 0xffffu : 0,
              "set.eq.u16.f16 lane %u", i);
    }
}

/* ======================================================================
 * half precision comparisons
 * ==================================================================== */

static void test_compare_half(void **state)
{
    (void)state;
    /* pairs of 16-bit patterns; the x2 forms pair lane i's low half with
     * lane (i + 5) % L's pattern in the high half */
    static const uint16_t ha[] = {0x3c00, 0x4000, 0x7e00, 0x3c00, 0x0000, 0xfc00, 0x0001,
                                  0x8001, 0x7c00, 0xc000, 0x7e00, 0x3555, 0x0200};
    static const uint16_t hb[] = {0x4000, 0x3c00, 0x3c00, 0x7e00, 0x8000, 0x7c00, 0x0000,
                                  0x0000, 0x7c00, 0xc000, 0x7e00, 0x3556, 0x0100};
    enum { L = sizeof ha / sizeof ha[0] };
    static const char *const hops[] = {"lt", "equ", "ne", "num", "nan", "geu", "le"};
    enum { NH = 7, K = 4 * NH + 6 };
    uint64_t A[L], B[L], out[L * K];
    for (unsigned i = 0; i < L; i++) {
        A[i] = ha[i] | (uint64_t)ha[(i + 5) % L] << 16;
        B[i] = hb[i] | (uint64_t)hb[(i + 5) % L] << 16;
    }
    GString *body = g_string_new(NULL);
    for (unsigned k = 0; k < NH; k++)
        g_string_append_printf(
            body,
            "  setp.%s.f16 %%p1, %%h1, %%h2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
            "  st.global.u64 [%%rd10+%u], %%rd20;\n"
            "  setp.%s.ftz.f16 %%p1, %%h1, %%h2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
            "  st.global.u64 [%%rd10+%u], %%rd20;\n"
            "  setp.%s.bf16 %%p1, %%h1, %%h2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
            "  st.global.u64 [%%rd10+%u], %%rd20;\n"
            "  setp.%s.f16x2 %%p1|%%p2, %%r1, %%r2;\n  selp.u64 %%rd20, 1, 0, %%p1;\n"
            "  selp.u64 %%rd21, 2, 0, %%p2;\n  or.b64 %%rd20, %%rd20, %%rd21;\n"
            "  st.global.u64 [%%rd10+%u], %%rd20;\n",
            hops[k], k * 8, hops[k], (NH + k) * 8, hops[k], (2 * NH + k) * 8, hops[k],
            (3 * NH + k) * 8);
    unsigned o = 4 * NH * 8;
    g_string_append_printf(body,
                           "  set.lt.u32.f16x2 %%r20, %%r1, %%r2;\n  st.global.b64 [%%rd10+%u], %%r20;\n"
                           "  set.ltu.f16x2.f16x2 %%r21, %%r1, %%r2;\n  st.global.b64 [%%rd10+%u], %%r21;\n"
                           "  set.lt.bf16x2.bf16x2 %%r22, %%r1, %%r2;\n  st.global.b64 [%%rd10+%u], %%r22;\n"
                           "  set.gt.f16.f32 %%h23, %%f1, %%f2;\n  st.global.b64 [%%rd10+%u], %%h23;\n"
                           "  setp.lt.and.ftz.f16x2 %%p1|%%p2, %%r1, %%r2, !%%p3;\n"
                           "  selp.u64 %%rd20, 1, 0, %%p1;\n"
                           "  selp.u64 %%rd21, 2, 0, %%p2;\n  or.b64 %%rd20, %%rd20, %%rd21;\n"
                           "  st.global.u64 [%%rd10+%u], %%rd20;\n"
                           "  set.eq.s32.bf16 %%r24, %%h1, %%h2;\n  st.global.b64 [%%rd10+%u], %%r24;\n",
                           o, o + 8, o + 16, o + 24, o + 32, o + 40);
    uint64_t C[L];
    for (unsigned i = 0; i < L; i++)
        C[i] = i % 3 == 0;
    run_body(body->str, L, A, B, C, K, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < L; i++) {
        uint16_t a0 = (uint16_t)A[i], b0 = (uint16_t)B[i];
        uint16_t a1 = (uint16_t)(A[i] >> 16), b1 = (uint16_t)(B[i] >> 16);
        for (unsigned k = 0; k < NH; k++) {
            const char *op = hops[k];
            CHECK(out[i * K + k], flt_ref(op, f16_val(a0, false), f16_val(b0, false)),
                  "setp.%s.f16 lane %u (0x%x, 0x%x)", op, i, a0, b0);
            CHECK(out[i * K + NH + k], flt_ref(op, f16_val(a0, true), f16_val(b0, true)),
                  "setp.%s.ftz.f16 lane %u (0x%x, 0x%x)", op, i, a0, b0);
            CHECK(out[i * K + 2 * NH + k], flt_ref(op, bf16_val(a0), bf16_val(b0)),
                  "setp.%s.bf16 lane %u (0x%x, 0x%x)", op, i, a0, b0);
            uint64_t x2 = (uint64_t)flt_ref(op, f16_val(a0, false), f16_val(b0, false)) |
                          (uint64_t)flt_ref(op, f16_val(a1, false), f16_val(b1, false)) << 1;
            CHECK(out[i * K + 3 * NH + k], x2, "setp.%s.f16x2 p|q lane %u", op, i);
        }
        const uint64_t *r = &out[i * K + 4 * NH];
        uint64_t lt0 = flt_ref("lt", f16_val(a0, false), f16_val(b0, false));
        uint64_t lt1 = flt_ref("lt", f16_val(a1, false), f16_val(b1, false));
        CHECK(r[0], (lt0 ? 0xffffu : 0) | (lt1 ? 0xffff0000u : 0), "set.lt.u32.f16x2 lane %u", i);
        uint64_t ltu0 = flt_ref("ltu", f16_val(a0, false), f16_val(b0, false));
        uint64_t ltu1 = flt_ref("ltu", f16_val(a1, false), f16_val(b1, false));
        CHECK(r[1], (ltu0 ? 0x3c00u : 0) | (ltu1 ? 0x3c000000u : 0), "set.ltu.f16x2 lane %u", i);
        uint64_t bl0 = flt_ref("lt", bf16_val(a0), bf16_val(b0));
        uint64_t bl1 = flt_ref("lt", bf16_val(a1), bf16_val(b1));
        CHECK(r[2], (bl0 ? 0x3f80u : 0) | (bl1 ? 0x3f800000u : 0), "set.lt.bf16x2 lane %u", i);
        CHECK(r[3], flt_ref("gt", bf32(A[i]), bf32(B[i])) ? 0x3c00u : 0, "set.gt.f16.f32 lane %u",
              i);
        bool nc = !(C[i] != 0);
        uint64_t f0 = flt_ref("lt", f16_val(a0, true), f16_val(b0, true)) && nc;
        uint64_t f1 = flt_ref("lt", f16_val(a1, true), f16_val(b1, true)) && nc;
        CHECK(r[4], f0 | f1 << 1, "setp.lt.and.ftz.f16x2 lane %u", i);
        CHECK(r[5], flt_ref("eq", bf16_val(a0), bf16_val(b0)) ? 0xffffffffu : 0,
              "set.eq.s32.bf16 lane %u", i);
    }
}

/* ======================================================================
 * selp, slct
 * ==================================================================== */

static void test_selp_slct(void **state)
{
    (void)state;
    const float sub = 1.0e-40f;
    const float fc[] = {-0.0f, 0.0f, NAN, -sub, sub, -1, INFINITY, -INFINITY, 2};
    enum { L = sizeof fc / sizeof fc[0], K = 6 };
    uint64_t A[L], B[L], C[L], out[L * K];
    static const uint32_t ic[] = {0xffffffffu, 0, 1, 0x80000000u, 0x7fffffffu,
                                  5, 0xfffffffeu, 2, 0x80000001u};
    for (unsigned i = 0; i < L; i++) {
        A[i] = 0x1111222233334444ull * (i + 1);
        B[i] = 0xaaaabbbbccccddddull ^ i;
        C[i] = (uint64_t)ic[i] << 32 | f32b(fc[i]);
    }
    /* %r3 holds C's low word (the float), %rd13 all of it; %p3 = low != 0 */
    run_body("  selp.b64 %rd20, %rd11, %rd12, %p3;\n  st.global.u64 [%rd10], %rd20;\n"
             "  selp.b16 %h20, %h1, %h2, %p3;\n  st.global.b64 [%rd10+8], %h20;\n"
             "  slct.b32.f32 %r20, %r1, %r2, %f3;\n  st.global.b64 [%rd10+16], %r20;\n"
             "  slct.ftz.u64.f32 %rd21, %rd11, %rd12, %f3;\n  st.global.u64 [%rd10+24], %rd21;\n"
             "  mov.b64 {%r30, %r31}, %rd13;\n"
             "  slct.s32.s32 %r21, %r1, %r2, %r31;\n  st.global.b64 [%rd10+32], %r21;\n"
             "  selp.f32 %f21, %f1, 0f3F800000, %p3;\n  st.global.b64 [%rd10+40], %f21;\n",
             L, A, B, C, K, out);
    for (unsigned i = 0; i < L; i++) {
        bool p = (uint32_t)C[i] != 0;
        CHECK(out[i * K + 0], p ? A[i] : B[i], "selp.b64 lane %u", i);
        CHECK(out[i * K + 1], (p ? A[i] : B[i]) & 0xffff, "selp.b16 lane %u", i);
        /* c >= 0: -0 yes, NaN no; a negative subnormal counts as -0 with .ftz */
        bool ge = !isnan(fc[i]) && fc[i] >= 0.0f;
        bool geftz = !isnan(fc[i]) && flushf(fc[i]) >= 0.0f;
        CHECK(out[i * K + 2], (ge ? A[i] : B[i]) & 0xffffffffu, "slct.f32 lane %u (%g)", i, fc[i]);
        CHECK(out[i * K + 3], geftz ? A[i] : B[i], "slct.ftz.f32 lane %u (%g)", i, fc[i]);
        CHECK(out[i * K + 4], ((int32_t)ic[i] >= 0 ? A[i] : B[i]) & 0xffffffffu,
              "slct.s32 lane %u", i);
        CHECK(out[i * K + 5], p ? (A[i] & 0xffffffffu) : 0x3f800000u, "selp.f32 lane %u", i);
    }
}

/* ======================================================================
 * cvt: integers
 * ==================================================================== */

typedef struct cvt_int_case {
    const char *dt, *st;
    unsigned dbits, sbits;
    bool dsg, ssg;
} cvt_int_case;

static int64_t sext_bits(uint64_t v, unsigned bits)
{
    return bits == 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* Reference: the exact source value as __int128, clamped (sat) or
 * truncated, then extended to 64 bits by the destination signedness. */
static uint64_t cvt_int_ref(const cvt_int_case *c, uint64_t x, bool sat)
{
    uint64_t sm = c->sbits == 64 ? ~0ull : (1ull << c->sbits) - 1;
    __int128 v = c->ssg ? (__int128)sext_bits(x & sm, c->sbits) : (__int128)(x & sm);
    __int128 lo, hi;
    if (c->dsg) {
        hi = ((__int128)1 << (c->dbits - 1)) - 1;
        lo = -hi - 1;
    } else {
        hi = ((__int128)1 << c->dbits) - 1;
        lo = 0;
    }
    if (sat)
        v = v < lo ? lo : v > hi ? hi : v;
    uint64_t dm = c->dbits == 64 ? ~0ull : (1ull << c->dbits) - 1;
    uint64_t r = (uint64_t)v & dm;
    return c->dsg ? (uint64_t)sext_bits(r, c->dbits) : r;
}

/* Name of register n of the width class for `bits` (8-bit values live in
 * 16-bit registers). */
static void reg_name(char *buf, unsigned bits, int n)
{
    snprintf(buf, 16, "%%%s%d", bits <= 16 ? "h" : bits == 32 ? "r" : "rd", n);
}

static void test_cvt_int(void **state)
{
    (void)state;
    static const cvt_int_case cases[] = {
        {"s8", "s32", 8, 32, true, true},    {"u8", "s32", 8, 32, false, true},
        {"s16", "u32", 16, 32, true, false}, {"u16", "s16", 16, 16, false, true},
        {"u32", "s64", 32, 64, false, true}, {"s32", "u64", 32, 64, true, false},
        {"s32", "s64", 32, 64, true, true},  {"u64", "s64", 64, 64, false, true},
        {"s64", "u64", 64, 64, true, false}, {"s64", "s32", 64, 32, true, true},
        {"s64", "s16", 64, 16, true, true},  {"s64", "s8", 64, 8, true, true},
        {"u64", "u32", 64, 32, false, false}, {"u32", "u16", 32, 16, false, false},
        {"u64", "s32", 64, 32, false, true}, {"s16", "s8", 16, 8, true, true},
        {"u16", "u32", 16, 32, false, false}, {"s32", "u32", 32, 32, true, false},
    };
    enum { N = sizeof cases / sizeof cases[0], K = 2 * N };
    static const uint64_t vals[] = {
        0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
        0x80000000u, 0xffffffffu, 0x100000000ull, 0x7fffffffffffffffull,
        0x8000000000000000ull, 0xffffffffffffffffull, 0xffffffffffffff80ull,
        0xffffffffffffff7full, 0xffffffff80000000ull, 0xffffffff7fffffffull,
        0xffffffffffff8000ull, 0x123456789abcdef0ull, 0xfffffffffffffffeull,
        0x0000000100000001ull, 0x7ffe, 0xfffe, 0x81, 0x7ffffffe, 0xfffffff0u, 0x17f, 0x80ff,
    };
    uint64_t A[MAXL], out[MAXL * K];
    memcpy(A, vals, sizeof A);
    GString *body = g_string_new(NULL);
    for (unsigned k = 0; k < N; k++) {
        const cvt_int_case *c = &cases[k];
        char src[16], d0[16], d1[16];
        reg_name(src, c->sbits, c->sbits == 64 ? 11 : 1);
        reg_name(d0, c->dbits, 20);
        reg_name(d1, c->dbits, 21);
        g_string_append_printf(body,
                               "  cvt.%s.%s %s, %s;\n  st.global.b64 [%%rd10+%u], %s;\n"
                               "  cvt.sat.%s.%s %s, %s;\n  st.global.b64 [%%rd10+%u], %s;\n",
                               c->dt, c->st, d0, src, k * 8, d0, c->dt, c->st, d1, src,
                               (N + k) * 8, d1);
    }
    run_body(body->str, MAXL, A, NULL, NULL, K, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < MAXL; i++)
        for (unsigned k = 0; k < N; k++) {
            const cvt_int_case *c = &cases[k];
            unsigned rb = c->dbits < 16 ? 16 : c->dbits;
            uint64_t rm = rb == 64 ? ~0ull : (1ull << rb) - 1;
            /* the register holds the result extended to its own width */
            CHECK(out[i * K + k], cvt_int_ref(c, A[i], false) & rm, "cvt.%s.%s lane %u x=0x%llx",
                  c->dt, c->st, i, (unsigned long long)A[i]);
            CHECK(out[i * K + N + k], cvt_int_ref(c, A[i], true) & rm,
                  "cvt.sat.%s.%s lane %u x=0x%llx", c->dt, c->st, i, (unsigned long long)A[i]);
        }
}

/* Sign extension into 64 bits, and narrowing into wider or equal registers. */
static void test_cvt_extend(void **state)
{
    (void)state;
    uint64_t A[4] = {0x80, 0xff85, 0x8000fffbu, 0x7f}, out[4 * 7];
    run_body("  cvt.s64.s8 %rd20, %h1;\n  st.global.u64 [%rd10], %rd20;\n"
             "  cvt.s64.s16 %rd21, %h1;\n  st.global.u64 [%rd10+8], %rd21;\n"
             "  cvt.s64.s32 %rd22, %r1;\n  st.global.u64 [%rd10+16], %rd22;\n"
             "  cvt.u64.u32 %rd23, %r1;\n  st.global.u64 [%rd10+24], %rd23;\n"
             "  cvt.s16.s32 %h24, %r1;\n  st.global.b64 [%rd10+32], %h24;\n"
             "  cvt.s16.s32 %r25, %r1;\n  st.global.b64 [%rd10+40], %r25;\n"
             "  cvt.u8.u32 %rd26, %r1;\n  st.global.b64 [%rd10+48], %rd26;\n",
             4, A, NULL, NULL, 7, out);
    static const uint64_t want[4][7] = {
        {0xffffffffffffff80ull, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
        {0xffffffffffffff85ull, 0xffffffffffffff85ull, 0xff85, 0xff85, 0xff85, 0xffffff85u,
         0x85},
        {0xfffffffffffffffbull, 0xfffffffffffffffbull, 0xffffffff8000fffbull, 0x8000fffbu,
         0xfffb, 0xfffffffbu, 0xfb},
        {0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f},
    };
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 7; k++)
            CHECK(out[i * 7 + k], want[i][k], "extend lane %u form %u", i, k);
}

/* ======================================================================
 * cvt: float -> int rounding, NaN, saturation
 * ==================================================================== */

static double rne(double x)
{
    double f = floor(x), d = x - f;
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0))
        f += 1;
    return f;
}

/* Float -> int reference: round, clamp to the range; NaN gives 0 (f32
 * source, 32-bit destination) or the most negative / top-bit pattern
 * (f64 source or 64-bit destination), as isa/cvt.h documents. */
static uint64_t f2i_ref(double x, char mode, unsigned bits, bool sgn, bool src64)
{
    if (isnan(x))
        return (src64 || bits == 64) ? 1ull << (bits - 1) : 0;
    double r = mode == 'n' ? rne(x) : mode == 'z' ? trunc(x) : mode == 'm' ? floor(x) : ceil(x);
    long double lo = sgn ? -ldexpl(1, (int)bits - 1) : 0;
    long double hi = sgn ? ldexpl(1, (int)bits - 1) - 1 : ldexpl(1, (int)bits) - 1;
    long double v = r;
    if (v < lo)
        v = lo;
    if (v > hi)
        v = hi;
    uint64_t u = sgn ? (uint64_t)(int64_t)v : (uint64_t)v;
    return bits == 64 ? u : u & ((1ull << bits) - 1);
}

static void test_cvt_f2i(void **state)
{
    (void)state;
    const double xs[] = {2.5, -2.5, 3.5, -3.5, 0.5, -0.5, 1.5, -1.5, 2.4999998, -0.0,
                         NAN, INFINITY, -INFINITY, 3e9, -3e9, 1e20, -1e20, 2147483520.0,
                         -2147483648.0, 65535.5, -32768.5, 4294967040.0, 1.0e-40, -1.0e-40,
                         9.2233720368547758e18, 1.8446744073709552e19, 123.75, -123.75};
    enum { L = sizeof xs / sizeof xs[0] };
    static const struct {
        const char *dt;
        unsigned bits;
        bool sgn;
    } dts[] = {{"s32", 32, true}, {"u32", 32, false}, {"s64", 64, true},
               {"u64", 64, false}, {"s16", 16, true}, {"u8", 8, false}};
    static const char modes[] = {'n', 'z', 'm', 'p'};
    enum { ND = 6, K = ND * 4 * 2 + 2 };
    uint64_t A32[L], A64[L], out[L * K];
    float fx[L];
    for (unsigned i = 0; i < L; i++) {
        fx[i] = (float)xs[i];
        A32[i] = f32b(fx[i]);
        A64[i] = f64b(xs[i]);
    }
    for (unsigned src64 = 0; src64 < 2; src64++) {
        GString *body = g_string_new(NULL);
        unsigned k = 0;
        for (unsigned d = 0; d < ND; d++)
            for (unsigned m = 0; m < 4; m++) {
                char d0[16], d1[16];
                const char *st = src64 ? "f64" : "f32", *src = src64 ? "%fd1" : "%f1";
                reg_name(d0, dts[d].bits, 20);
                reg_name(d1, dts[d].bits, 21);
                g_string_append_printf(body,
                                       "  cvt.r%ci.%s.%s %s, %s;\n  st.global.b64 [%%rd10+%u], %s;\n"
                                       "  cvt.r%ci.sat.%s.%s %s, %s;\n  st.global.b64 [%%rd10+%u], %s;\n",
                                       modes[m], dts[d].dt, st, d0, src, k * 8, d0, modes[m],
                                       dts[d].dt, st, d1, src, (k + 1) * 8, d1);
                k += 2;
            }
        /* .ftz on an f32 subnormal matters for rmi/rpi */
        g_string_append_printf(body,
                               "  cvt.rmi.ftz.s32.%s %%r22, %s;\n  st.global.b64 [%%rd10+%u], %%r22;\n"
                               "  cvt.rpi.ftz.s32.%s %%r23, %s;\n  st.global.b64 [%%rd10+%u], %%r23;\n",
                               src64 ? "f64" : "f32", src64 ? "%fd1" : "%f1", k * 8,
                               src64 ? "f64" : "f32", src64 ? "%fd1" : "%f1", (k + 1) * 8);
        run_body(body->str, L, src64 ? A64 : A32, NULL, NULL, K, out);
        g_string_free(body, TRUE);
        for (unsigned i = 0; i < L; i++) {
            double x = src64 ? xs[i] : (double)fx[i];
            k = 0;
            for (unsigned d = 0; d < ND; d++)
                for (unsigned m = 0; m < 4; m++) {
                    unsigned rb = dts[d].bits < 16 ? 16 : dts[d].bits;
                    uint64_t want = f2i_ref(x, modes[m], dts[d].bits, dts[d].sgn, src64);
                    if (dts[d].sgn && dts[d].bits < rb) /* sign-extended into the register */
                        want = (uint64_t)sext_bits(want, dts[d].bits) & ((1ull << rb) - 1);
                    CHECK(out[i * K + k], want, "cvt.r%ci.%s.%s lane %u x=%.17g", modes[m],
                          dts[d].dt, src64 ? "f64" : "f32", i, x);
                    CHECK(out[i * K + k + 1], want, "cvt.r%ci.sat.%s lane %u x=%.17g", modes[m],
                          dts[d].dt, i, x);
                    k += 2;
                }
            /* f32 .ftz flushes the input; f64 inputs are never flushed */
            double fz = src64 ? x : (double)flushf((float)x);
            CHECK(out[i * K + k], f2i_ref(fz, 'm', 32, true, src64) & 0xffffffffu,
                  "cvt.rmi.ftz lane %u x=%g", i, x);
            CHECK(out[i * K + k + 1], f2i_ref(fz, 'p', 32, true, src64) & 0xffffffffu,
                  "cvt.rpi.ftz lane %u x=%g", i, x);
        }
    }
}

/* ======================================================================
 * cvt: int -> float rounding
 * ==================================================================== */

/* Rounds magnitude m (sign neg) to a float with `mant` significand bits in
 * mode 'n' 'z' 'm' 'p'; returns the value as a long double (exact). */
static long double round_int(bool neg, uint64_t m, unsigned mant, char mode)
{
    if (m == 0)
        return 0;
    int msb = 63 - __builtin_clzll(m);
    if (msb < (int)mant)
        return neg ? -(long double)m : (long double)m;
    unsigned drop = (unsigned)msb + 1 - mant;
    uint64_t q = m >> drop, rem = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    bool up;
    switch (mode) {
    case 'n': up = rem > half || (rem == half && (q & 1)); break;
    case 'z': up = false; break;
    case 'm': up = neg && rem; break;
    default: up = !neg && rem; break;
    }
    long double v = ldexpl((long double)(q + up), (int)drop);
    return neg ? -v : v;
}

static void test_cvt_i2f(void **state)
{
    (void)state;
    static const uint64_t vals[] = {
        (1ull << 24) + 1, (1ull << 24) + 3, (1ull << 53) + 1, 0x7fffffffffffffffull,
        0x8000000000000000ull, 0xffffffffffffffffull, (uint64_t) - ((1ll << 40) + 1),
        (uint64_t) - ((1ll << 24) + 1), 0x123456789abcdefull, 0, 1, 0xfffffffffffffffeull,
        (1ull << 25) + 2, (1ull << 25) + 6, 0xffffff7fffffffffull, 16777217ull << 20,
        0x00000000ffffffffull, 0x0000000080000001ull,
    };
    enum { L = sizeof vals / sizeof vals[0] };
    static const char modes[] = {'n', 'z', 'm', 'p'};
    enum { K = 4 * 4 + 4 };
    uint64_t out[L * K];
    GString *body = g_string_new(NULL);
    unsigned k = 0;
    for (unsigned m = 0; m < 4; m++) {
        g_string_append_printf(body,
                               "  cvt.r%c.f32.s64 %%f20, %%rd11;\n  st.global.b64 [%%rd10+%u], %%f20;\n"
                               "  cvt.r%c.f32.u64 %%f21, %%rd11;\n  st.global.b64 [%%rd10+%u], %%f21;\n"
                               "  cvt.r%c.f64.s64 %%fd20, %%rd11;\n  st.global.b64 [%%rd10+%u], %%fd20;\n"
                               "  cvt.r%c.f32.s32 %%f22, %%r1;\n  st.global.b64 [%%rd10+%u], %%f22;\n",
                               modes[m], k * 8, modes[m], (k + 1) * 8, modes[m], (k + 2) * 8,
                               modes[m], (k + 3) * 8);
        k += 4;
    }
    g_string_append_printf(body,
                           "  cvt.rn.f32.u32 %%f23, %%r1;\n  st.global.b64 [%%rd10+%u], %%f23;\n"
                           "  cvt.rn.f64.u64 %%fd21, %%rd11;\n  st.global.b64 [%%rd10+%u], %%fd21;\n"
                           "  cvt.rn.f16.s64 %%h20, %%rd11;\n  st.global.b64 [%%rd10+%u], %%h20;\n"
                           "  cvt.rn.f64.s32 %%fd22, %%r1;\n  st.global.b64 [%%rd10+%u], %%fd22;\n",
                           k * 8, (k + 1) * 8, (k + 2) * 8, (k + 3) * 8);
    run_body(body->str, L, vals, NULL, NULL, K, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < L; i++) {
        uint64_t x = vals[i];
        int64_t s = (int64_t)x;
        bool sneg = s < 0;
        uint64_t smag = sneg ? 0 - x : x;
        int32_t s32 = (int32_t)(uint32_t)x;
        uint64_t s32mag = s32 < 0 ? (uint64_t)(-(int64_t)s32) : (uint64_t)s32;
        k = 0;
        for (unsigned m = 0; m < 4; m++) {
            CHECK(out[i * K + k], f32b((float)round_int(sneg, smag, 24, modes[m])),
                  "cvt.r%c.f32.s64 lane %u x=%lld", modes[m], i, (long long)s);
            CHECK(out[i * K + k + 1], f32b((float)round_int(false, x, 24, modes[m])),
                  "cvt.r%c.f32.u64 lane %u", modes[m], i);
            CHECK(out[i * K + k + 2], f64b((double)round_int(sneg, smag, 53, modes[m])),
                  "cvt.r%c.f64.s64 lane %u", modes[m], i);
            CHECK(out[i * K + k + 3], f32b((float)round_int(s32 < 0, s32mag, 24, modes[m])),
                  "cvt.r%c.f32.s32 lane %u", modes[m], i);
            k += 4;
        }
        CHECK(out[i * K + k], f32b((float)round_int(false, (uint32_t)x, 24, 'n')),
              "cvt.rn.f32.u32 lane %u", i);
        CHECK(out[i * K + k + 1], f64b((double)round_int(false, x, 53, 'n')),
              "cvt.rn.f64.u64 lane %u", i);
        /* f16 max is 65504; anything rounding past it is infinity */
        long double h = round_int(sneg, smag, 11, 'n');
        uint64_t hw;
        if (h == 0)
            hw = 0;
        else if (fabsl(h) >= 65520.0L || fabsl(h) > 65504.0L)
            hw = h < 0 ? 0xfc00 : 0x7c00;
        else {
            int e;
            long double fr = frexpl(fabsl(h), &e); /* h = fr * 2^e, fr in [0.5,1) */
            hw = (uint64_t)((e + 14) << 10) | ((uint64_t)ldexpl(fr, 11) & 1023);
            if (h < 0)
                hw |= 0x8000;
        }
        CHECK(out[i * K + k + 2], hw, "cvt.rn.f16.s64 lane %u x=%lld", i, (long long)s);
        CHECK(out[i * K + k + 3], f64b((double)s32), "cvt.rn.f64.s32 lane %u", i);
    }
}

/* ======================================================================
 * cvt: between float formats
 * ==================================================================== */

static void test_cvt_f32_f16(void **state)
{
    (void)state;
    /* f32 -> f16 (rn, rz, rm) and back, hand-computed */
    static const struct {
        float x;
        uint16_t rn, rz, rm;
    } t[] = {
        {1.0f, 0x3c00, 0x3c00, 0x3c00},
        {65504.0f, 0x7bff, 0x7bff, 0x7bff},
        {65519.0f, 0x7bff, 0x7bff, 0x7bff},
        {65520.0f, 0x7c00, 0x7bff, 0x7bff},
        {-65520.0f, 0xfc00, 0xfbff, 0xfc00},
        {5.9604644775390625e-08f, 0x0001, 0x0001, 0x0001}, /* 2^-24 */
        {2.98023223876953125e-08f, 0x0000, 0x0000, 0x0000}, /* 2^-25: tie to 0 */
        {4.4703483581542969e-08f, 0x0001, 0x0000, 0x0000},  /* 3*2^-26 */
        {-4.4703483581542969e-08f, 0x8001, 0x8000, 0x8001},
        {0.33333334f, 0x3555, 0x3555, 0x3555},
        {-0.0f, 0x8000, 0x8000, 0x8000},
        {1.00048828125f, 0x3c00, 0x3c00, 0x3c00}, /* 1 + 2^-11: tie to even */
        {1.00146484375f, 0x3c02, 0x3c01, 0x3c01}, /* 1 + 3*2^-11 */
        {INFINITY, 0x7c00, 0x7c00, 0x7c00}, /* infinity is exact */
        {1.0e-40f, 0x0000, 0x0000, 0x0000},
        {-1.0e-40f, 0x8000, 0x8000, 0x8001},
        {NAN, 0x7fff, 0x7fff, 0x7fff},
    };
    enum { L = sizeof t / sizeof t[0], K = 8 };
    uint64_t A[L], B[L], out[L * K];
    /* B holds f16 patterns for the widening direction */
    static const uint16_t hs[L] = {0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00,
                                   0x7e00, 0x3c00, 0xc000, 0x8000, 0x3555, 0x7d01, 0x0200,
                                   0x5640, 0xfbff, 0x0000};
    for (unsigned i = 0; i < L; i++) {
        A[i] = f32b(t[i].x);
        B[i] = hs[i];
    }
    run_body("  cvt.rn.f16.f32 %h20, %f1;\n  st.global.b64 [%rd10], %h20;\n"
             "  cvt.rz.f16.f32 %h21, %f1;\n  st.global.b64 [%rd10+8], %h21;\n"
             "  cvt.rm.f16.f32 %h22, %f1;\n  st.global.b64 [%rd10+16], %h22;\n"
             "  cvt.f32.f16 %f20, %h2;\n  st.global.b64 [%rd10+24], %f20;\n"
             "  cvt.f64.f16 %fd20, %h2;\n  st.global.b64 [%rd10+32], %fd20;\n"
             "  cvt.rn.ftz.f16.f32 %h23, %f1;\n  st.global.b64 [%rd10+40], %h23;\n"
             "  cvt.rn.f16.f32 %r20, %f1;\n  st.global.b64 [%rd10+48], %r20;\n"
             "  cvt.ftz.f32.f16 %f21, %h2;\n  st.global.b64 [%rd10+56], %f21;\n",
             L, A, B, NULL, K, out);
    for (unsigned i = 0; i < L; i++) {
        CHECK(out[i * K + 0], t[i].rn, "cvt.rn.f16.f32 lane %u x=%g", i, t[i].x);
        CHECK(out[i * K + 1], t[i].rz, "cvt.rz.f16.f32 lane %u x=%g", i, t[i].x);
        CHECK(out[i * K + 2], t[i].rm, "cvt.rm.f16.f32 lane %u x=%g", i, t[i].x);
        double v = f16_val(hs[i], false);
        uint64_t w32 = isnan(v) ? 0x7fffffffu : f32b((float)v);
        CHECK(out[i * K + 3], w32, "cvt.f32.f16 lane %u h=0x%x", i, hs[i]);
        if (isnan(v)) /* f64 keeps the NaN's payload, quieted */
            CHECK(out[i * K + 4] & 0x7ff8000000000000ull, 0x7ff8000000000000ull,
                  "cvt.f64.f16 NaN lane %u", i);
        else
            CHECK(out[i * K + 4], f64b(v), "cvt.f64.f16 lane %u h=0x%x", i, hs[i]);
        /* .ftz flushes the f32 subnormal input first: same as rn here */
        CHECK(out[i * K + 5], t[i].rn, "cvt.rn.ftz.f16.f32 lane %u", i);
        CHECK(out[i * K + 6], t[i].rn, "cvt.rn.f16.f32 into b32 lane %u", i);
        CHECK(out[i * K + 7], w32, "cvt.ftz.f32.f16 lane %u", i);
    }
}

static void test_cvt_float_misc(void **state)
{
    (void)state;
    const float xs[] = {1.0f, 1.5f, -2.5f, 1.0e-40f, -1.0e-40f, 3.4e38f, NAN, 0.75f,
                        1.00048828125f /* 0x3f801000 */, 2.5f, -0.3f};
    enum { L = sizeof xs / sizeof xs[0], K = 14 };
    uint64_t A[L], B[L], out[L * K];
    for (unsigned i = 0; i < L; i++) {
        A[i] = f32b(xs[i]);
        B[i] = f32b(-xs[i] * 2);
    }
    run_body("  cvt.f64.f32 %fd20, %f1;\n  st.global.u64 [%rd10], %fd20;\n"
             "  cvt.rn.f32.f64 %f20, %fd20;\n  st.global.b64 [%rd10+8], %f20;\n"
             "  cvt.rni.f32.f32 %f21, %f1;\n  st.global.b64 [%rd10+16], %f21;\n"
             "  cvt.sat.f32.f32 %f22, %f1;\n  st.global.b64 [%rd10+24], %f22;\n"
             "  cvt.ftz.f32.f32 %f23, %f1;\n  st.global.b64 [%rd10+32], %f23;\n"
             "  cvt.rn.f16x2.f32 %r20, %f1, %f2;\n  st.global.b64 [%rd10+40], %r20;\n"
             "  cvt.rn.bf16x2.f32 %r21, %f1, %f2;\n  st.global.b64 [%rd10+48], %r21;\n"
             "  cvt.rna.tf32.f32 %r22, %f1;\n  st.global.b64 [%rd10+56], %r22;\n"
             "  cvt.rn.relu.f16x2.f32 %r23, %f1, %f2;\n  st.global.b64 [%rd10+64], %r23;\n"
             "  cvt.rz.bf16.f32 %h20, %f1;\n  st.global.b64 [%rd10+72], %h20;\n"
             "  cvt.rn.satfinite.e4m3x2.f32 %h21, %f1, %f2;\n  st.global.b64 [%rd10+80], %h21;\n"
             "  cvt.rzi.f32.f32 %f24, %f1;\n  st.global.b64 [%rd10+88], %f24;\n"
             "  cvt.rn.f16x2.e4m3x2 %r24, %h21;\n  st.global.b64 [%rd10+96], %r24;\n"
             "  cvt.rn.satfinite.e5m2x2.f16x2 %h25, %r20;\n  st.global.b64 [%rd10+104], %h25;\n",
             L, A, B, NULL, K, out);
    for (unsigned i = 0; i < L; i++) {
        float x = xs[i];
        const uint64_t *r = &out[i * K];
        if (isnan(x)) {
            CHECK(r[0] & 0x7ff8000000000000ull, 0x7ff8000000000000ull, "f64.f32 NaN");
            CHECK(r[1], 0x7fffffffu, "f32.f64 NaN canonical");
            CHECK(r[3], 0, "sat NaN -> 0");
            continue;
        }
        CHECK(r[0], f64b((double)x), "cvt.f64.f32 lane %u", i);
        CHECK(r[1], f32b(x), "cvt.rn.f32.f64 round trip lane %u", i);
        CHECK(r[2], f32b((float)rne(x) == 0 ? copysignf(0.0f, x) : (float)rne(x)),
              "cvt.rni.f32.f32 lane %u", i);
        float sat = x < 0 ? 0.0f : x > 1 ? 1.0f : x;
        CHECK(r[3], f32b(sat), "cvt.sat.f32.f32 lane %u", i);
        CHECK(r[4], f32b(flushf(x)), "cvt.ftz.f32.f32 lane %u", i);
        float tz = truncf(x);
        CHECK(r[11], f32b(tz), "cvt.rzi.f32.f32 lane %u", i);
    }
    /* hand-checked packed results */
    CHECK(out[0 * K + 5], 0x3c00c000u, "f16x2 (1, -2): a in the upper half");
    CHECK(out[1 * K + 5], 0x3e00c200u, "f16x2 (1.5, -3)");
    CHECK(out[2 * K + 5], 0xc1004500u, "f16x2 (-2.5, 5)");
    CHECK(out[0 * K + 6], 0x3f80c000u, "bf16x2 (1, -2)");
    CHECK(out[2 * K + 6], 0xc02040a0u, "bf16x2 (-2.5, 5)");
    CHECK(out[8 * K + 7], 0x3f802000u, "tf32 rna of 1+2^-11 ties away");
    CHECK(out[0 * K + 7], 0x3f800000u, "tf32 of 1");
    CHECK(out[0 * K + 8], 0x3c000000u, "relu f16x2 (1, -2)");
    CHECK(out[2 * K + 8], 0x00004500u, "relu f16x2 (-2.5, 5)");
    CHECK(out[8 * K + 9], 0x3f80u, "bf16 rz of 0x3f801000");
    CHECK(out[0 * K + 10], 0x38c0u, "e4m3x2 (1, -2)");
    CHECK(out[5 * K + 10], 0x7efeu, "e4m3x2 satfinite (3.4e38, -6.8e38->-inf)");
    CHECK(out[6 * K + 10], 0x7f7fu, "e4m3x2 NaN");
    CHECK(out[0 * K + 12], 0x3c00c000u, "f16x2 from e4m3x2 (1, -2): halves in place");
    /* e5m2 is the top byte of an f16: 1 -> 0x3c, -2 -> 0xc0, 5 -> 0x45 */
    CHECK(out[0 * K + 13], 0x3cc0u, "e5m2x2 from f16x2 (1, -2)");
    CHECK(out[2 * K + 13], 0xc145u, "e5m2x2 from f16x2 (-2.5, 5)");
}

/* cvt.r*i.f32.f32 / .f64.f64: round to an integral value, sign of a zero
 * result kept; NaN canonical (f32) or quieted with its payload (f64). */
static void test_cvt_round_integral(void **state)
{
    (void)state;
    const double xs[] = {2.5, -2.5, 3.5, -0.3, -0.5, 0.5, 1.5, -1.5, 0.0, -0.0, 1e30,
                         -INFINITY, 8388609.0, 4503599627370497.5, 1.0e-40, -1.0e-40, NAN};
    enum { L = sizeof xs / sizeof xs[0], K = 10 };
    static const char modes[] = {'n', 'z', 'm', 'p'};
    uint64_t A32[L], A64[L], B[L], out[L * K];
    for (unsigned i = 0; i < L; i++) {
        A32[i] = f32b((float)xs[i]);
        A64[i] = f64b(xs[i]);
        B[i] = A32[i];
    }
    /* a signalling f64 NaN with a payload */
    A64[L - 1] = 0xfff0000000000123ull;
    GString *body = g_string_new(NULL);
    for (unsigned m = 0; m < 4; m++)
        g_string_append_printf(body,
                               "  cvt.r%ci.f32.f32 %%f20, %%f2;\n  st.global.b64 [%%rd10+%u], %%f20;\n"
                               "  cvt.r%ci.f64.f64 %%fd20, %%fd1;\n  st.global.u64 [%%rd10+%u], %%fd20;\n",
                               modes[m], m * 16, modes[m], m * 16 + 8);
    g_string_append(body, "  cvt.rmi.ftz.f32.f32 %f21, %f2;\n  st.global.b64 [%rd10+64], %f21;\n"
                          "  cvt.rzi.ftz.f32.f32 %f22, %f2;\n  st.global.b64 [%rd10+72], %f22;\n");
    run_body(body->str, L, A64, B, NULL, K, out);
    g_string_free(body, TRUE);
    for (unsigned i = 0; i < L; i++) {
        for (unsigned m = 0; m < 4; m++) {
            float xf = bf32(A32[i]);
            double xd = xs[i];
            double rf, rd;
            switch (modes[m]) {
            case 'n': rf = rne(xf); rd = rne(xd); break;
            case 'z': rf = trunc(xf); rd = trunc(xd); break;
            case 'm': rf = floor(xf); rd = floor(xd); break;
            default: rf = ceil(xf); rd = ceil(xd); break;
            }
            uint64_t wf = isnan(xf) ? 0x7fffffffu : f32b(copysignf((float)rf, xf));
            uint64_t wd = i == L - 1 ? 0xfff8000000000123ull : f64b(copysign(rd, xd));
            CHECK(out[i * K + 2 * m], wf, "cvt.r%ci.f32.f32 lane %u x=%g", modes[m], i, xf);
            CHECK(out[i * K + 2 * m + 1], wd, "cvt.r%ci.f64.f64 lane %u x=%g", modes[m], i, xd);
        }
        float xf = bf32(A32[i]), fz = flushf(xf);
        uint64_t wm = isnan(xf) ? 0x7fffffffu : f32b(copysignf(floorf(fz), fz));
        uint64_t wz = isnan(xf) ? 0x7fffffffu : f32b(copysignf(truncf(fz), fz));
        CHECK(out[i * K + 8], wm, "cvt.rmi.ftz.f32.f32 lane %u x=%g", i, xf);
        CHECK(out[i * K + 9], wz, "cvt.rzi.ftz.f32.f32 lane %u x=%g", i, xf);
    }
}

/* cvt.pack.sat.{s16,u16}.s32 and an immediate source. */
static void test_cvt_pack_sat(void **state)
{
    (void)state;
    static const int32_t va[] = {0, 40000, -40000, 32767, -32768, 65535, 65536, -1};
    static const int32_t vb[] = {5, -5, 70000, 32768, -32769, -1, 1, 100};
    enum { L = 8, K = 3 };
    uint64_t A[L], B[L], out[L * K];
    for (unsigned i = 0; i < L; i++) {
        A[i] = (uint32_t)va[i];
        B[i] = (uint32_t)vb[i];
    }
    run_body("  cvt.pack.sat.s16.s32 %r20, %r1, %r2;\n  st.global.b64 [%rd10], %r20;\n"
             "  cvt.pack.sat.u16.s32 %r21, %r1, %r2;\n  st.global.b64 [%rd10+8], %r21;\n"
             "  cvt.rn.f32.s32 %f20, -7;\n  st.global.b64 [%rd10+16], %f20;\n",
             L, A, B, NULL, K, out);
    for (unsigned i = 0; i < L; i++) {
        int32_t sa = va[i] < -32768 ? -32768 : va[i] > 32767 ? 32767 : va[i];
        int32_t sb = vb[i] < -32768 ? -32768 : vb[i] > 32767 ? 32767 : vb[i];
        int32_t ua = va[i] < 0 ? 0 : va[i] > 65535 ? 65535 : va[i];
        int32_t ub = vb[i] < 0 ? 0 : vb[i] > 65535 ? 65535 : vb[i];
        CHECK(out[i * K], ((uint32_t)(uint16_t)sa << 16) | (uint16_t)sb, "pack.s16 lane %u", i);
        CHECK(out[i * K + 1], ((uint32_t)ua << 16) | (uint32_t)ub, "pack.u16 lane %u", i);
        CHECK(out[i * K + 2], f32b(-7.0f), "cvt of an immediate lane %u", i);
    }
}

/* ======================================================================
 * guards and partial warps
 * ==================================================================== */

static void test_cvt_guard_partial(void **state)
{
    (void)state;
    /* 20 threads: a partial warp; odd lanes pass the guard; lanes >= 13
     * branch around a second conversion */
    enum { L = 20, K = 3 };
    uint64_t A[L], out[L * K];
    for (unsigned i = 0; i < L; i++)
        A[i] = f32b((float)i * 1.5f - 7.25f);
    run_body("  mov.b32 %r20, 0xdeadbeef;\n"
             "  and.b32 %r21, %r0, 1;\n  setp.ne.u32 %p5, %r21, 0;\n"
             "  @%p5 cvt.rni.s32.f32 %r20, %f1;\n  st.global.b64 [%rd10], %r20;\n"
             "  mov.b64 %rd20, 0x1234;\n"
             "  @!%p5 cvt.rzi.s64.f32 %rd20, %f1;\n  st.global.u64 [%rd10+8], %rd20;\n"
             "  setp.ge.u32 %p6, %r0, 13;\n"
             "  @%p6 bra SKIP;\n"
             "  cvt.rmi.u16.f32 %h20, %f1;\n  st.global.b64 [%rd10+16], %h20;\n"
             "SKIP:\n",
             L, A, NULL, NULL, K, out);
    for (unsigned i = 0; i < L; i++) {
        double x = bf32(A[i]);
        CHECK(out[i * K], (i & 1) ? f2i_ref(x, 'n', 32, true, false) : 0xdeadbeef,
              "guarded cvt.rni lane %u", i);
        CHECK(out[i * K + 1], (i & 1) ? 0x1234 : f2i_ref(x, 'z', 64, true, false),
              "@! guarded cvt.rzi.s64 lane %u", i);
        CHECK(out[i * K + 2], i >= 13 ? SENTINEL : f2i_ref(x, 'm', 16, false, false),
              "diverged cvt.rmi.u16 lane %u", i);
    }
}

/* Old PTX converts index registers directly: cvt.u32.u16 %r, %tid.x. */
static void test_cvt_sreg(void **state)
{
    (void)state;
    enum { L = 20, K = 3 };
    uint64_t A[L] = {0}, out[L * K];
    run_body("  cvt.u32.u16 %r20, %tid.x;\n  st.global.b64 [%rd10], %r20;\n"
             "  cvt.rn.f32.u32 %f20, %ntid.x;\n  st.global.b64 [%rd10+8], %f20;\n"
             "  cvt.u64.u32 %rd20, %ctaid.x;\n  st.global.u64 [%rd10+16], %rd20;\n",
             L, A, NULL, NULL, K, out);
    for (unsigned i = 0; i < L; i++) {
        CHECK(out[i * K], i, "cvt.u32.u16 from %%tid.x lane %u", i);
        CHECK(out[i * K + 1], f32b((float)L), "cvt.rn.f32.u32 from %%ntid.x lane %u", i);
        CHECK(out[i * K + 2], 0, "cvt.u64.u32 from %%ctaid.x lane %u", i);
    }
}

/* Forms that cannot run are refused at load with a reason. */
static void test_unsupported(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "  cvt.s32.f32 %r20, %f1;\n",          /* float -> int needs .rni etc. */
        "  cvt.f32.s32 %f20, %r1;\n",          /* int -> float needs a rounding */
        "  setp.lo.f32 %p1, %f1, %f2;\n",      /* unsigned compare on floats */
        "  setp.ltu.s32 %p1, %r1, %r2;\n",     /* unordered compare on ints */
        "  cvt.u32.u32 %r20, %clock;\n",       /* only index registers as sources */
        "  cvt.rs.f16x2.f32 %r20, %f1, %f2;\n", /* stochastic rounding */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        GString *ptx = g_string_new(frame_head);
        g_string_append_printf(ptx, "%s  ret;\n}\n", bad[i]);
        uint64_t A[1] = {0}, B[1] = {0}, C[1] = {0}, O[1] = {0};
        test_buf bufs[4] = {{A, 8}, {B, 8}, {C, 8}, {O, 8}};
        char *err = NULL;
        ptxemu_status s = test_run_ptx(ptx->str, "k", 1, 1, bufs, 4, &err);
        if (s == PTXEMU_OK || !err || !strstr(err, "not supported yet"))
            fail_msg("'%s' was not refused: %s", bad[i], err ? err : "(ok)");
        g_free(err);
        g_string_free(ptx, TRUE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setp_int),
        cmocka_unit_test(test_setp_imm),
        cmocka_unit_test(test_setp_float),
        cmocka_unit_test(test_setp_bool),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_compare_half),
        cmocka_unit_test(test_selp_slct),
        cmocka_unit_test(test_cvt_int),
        cmocka_unit_test(test_cvt_extend),
        cmocka_unit_test(test_cvt_f2i),
        cmocka_unit_test(test_cvt_i2f),
        cmocka_unit_test(test_cvt_f32_f16),
        cmocka_unit_test(test_cvt_float_misc),
        cmocka_unit_test(test_cvt_round_integral),
        cmocka_unit_test(test_cvt_pack_sat),
        cmocka_unit_test(test_cvt_guard_partial),
        cmocka_unit_test(test_cvt_sreg),
        cmocka_unit_test(test_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
