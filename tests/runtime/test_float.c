/* tests/runtime/test_float.c — the float and half families through the
 * public API: every lane of a small kernel runs one instruction on its own
 * inputs and the results are compared with independent references
 * (hand-computed bit patterns, the host FPU under fesetround for directed
 * rounding, long double for exact sums, C's fma()/sqrt() for .rn, and a
 * small f16/bf16 rounding routine written here).
 *
 * Long because it is one kernel-per-instruction table over every float
 * and half instruction; the cases share one harness.
 */
#include "support/test_util.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ------------------------------------------------------------ harness */

typedef enum kind { K_F32, K_F64, K_B16, K_B32 } kind;

static const struct {
    const char *reg;
    unsigned size;
} kinds[] = {
    [K_F32] = {"f32", 4}, [K_F64] = {"f64", 8}, [K_B16] = {"b16", 2}, [K_B32] = {"b32", 4},
};

#define HDR_SM90 ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Thread t loads a[t], b[t], c[t] into %xa %xb %xc, runs `body`, and stores
 * %xd to d[t].  Scratch: %r %q %p (int, 64-bit, pred), %h (b16), %s (f32),
 * %w (b32). */
static char *make_ptx(const char *hdr, kind k, const char *body)
{
    const char *rt = kinds[k].reg;
    unsigned sz = kinds[k].size;
    return g_strdup_printf(
        "%s"
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n"
        "{\n"
        "  .reg .b32 %%r<8>;\n"
        "  .reg .b64 %%q<12>;\n"
        "  .reg .pred %%p<4>;\n"
        "  .reg .b16 %%h<8>;\n"
        "  .reg .f32 %%s<8>;\n"
        "  .reg .b32 %%w<8>;\n"
        "  .reg .%s %%xa, %%xb, %%xc, %%xd;\n"
        "  ld.param.u64 %%q1, [pa];\n"
        "  ld.param.u64 %%q2, [pb];\n"
        "  ld.param.u64 %%q3, [pc];\n"
        "  ld.param.u64 %%q4, [pd];\n"
        "  mov.u32 %%r1, %%tid.x;\n"
        "  mul.wide.u32 %%q5, %%r1, %u;\n"
        "  add.s64 %%q6, %%q1, %%q5;\n"
        "  add.s64 %%q7, %%q2, %%q5;\n"
        "  add.s64 %%q8, %%q3, %%q5;\n"
        "  add.s64 %%q9, %%q4, %%q5;\n"
        "  ld.global.%s %%xa, [%%q6];\n"
        "  ld.global.%s %%xb, [%%q7];\n"
        "  ld.global.%s %%xc, [%%q8];\n"
        "%s\n"
        "  st.global.%s [%%q9], %%xd;\n"
        "  ret;\n"
        "}\n",
        hdr, rt, sz, rt, rt, rt, body, rt);
}

/* Runs `body` on n lanes; a/b/c may be NULL (zeros).  Returns the status
 * and leaves the error text in *err (caller frees) when it is not OK. */
static ptxemu_status try_run(const char *hdr, kind k, const char *body, const void *a,
                             const void *b, const void *c, void *d, unsigned n, char **err)
{
    size_t bytes = (size_t)n * kinds[k].size;
    void *ha = g_malloc0(bytes), *hb = g_malloc0(bytes), *hc = g_malloc0(bytes);
    if (a)
        memcpy(ha, a, bytes);
    if (b)
        memcpy(hb, b, bytes);
    if (c)
        memcpy(hc, c, bytes);
    memset(d, 0xa5, bytes); /* a lane that is not written shows up */
    test_buf bufs[4] = {{ha, bytes}, {hb, bytes}, {hc, bytes}, {d, bytes}};
    char *ptx = make_ptx(hdr, k, body);
    ptxemu_status s = test_run_ptx(ptx, "k", 1, n, bufs, 4, err);
    g_free(ptx);
    g_free(ha);
    g_free(hb);
    g_free(hc);
    return s;
}

static void run(const char *hdr, kind k, const char *body, const void *a, const void *b,
                const void *c, void *d, unsigned n)
{
    char *err = NULL;
    ptxemu_status s = try_run(hdr, k, body, a, b, c, d, n, &err);
    if (s != PTXEMU_OK)
        fail_msg("'%s' did not run: %s", body, err ? err : "?");
    g_free(err);
}

static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t db(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}
static double bd(uint64_t u)
{
    double f;
    memcpy(&f, &u, 8);
    return f;
}

/* Deterministic generator (xorshift64*). */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/* A finite f32 with a random sign, exponent in [lo, hi] and mantissa. */
static uint32_t rand_f32(uint64_t *s, int lo, int hi)
{
    uint64_t r = rng_next(s);
    int e = lo + (int)(r % (uint64_t)(hi - lo + 1));
    uint32_t m = (uint32_t)(r >> 20) & 0x7fffffu;
    uint32_t sign = (uint32_t)(r >> 63) << 31;
    return sign | ((uint32_t)(e + 127) << 23) | m;
}
static uint64_t rand_f64(uint64_t *s, int lo, int hi)
{
    uint64_t r = rng_next(s), m = rng_next(s) & UINT64_C(0xfffffffffffff);
    int e = lo + (int)(r % (uint64_t)(hi - lo + 1));
    return ((r >> 63) << 63) | ((uint64_t)(e + 1023) << 52) | m;
}

/* ---- checks: one table row per lane ---- */

typedef struct c32 {
    uint32_t a, b, c, want;
} c32;
typedef struct c64 {
    uint64_t a, b, c, want;
} c64;

/* Runs `body` over the rows of a table and compares every lane's bits. */
static void check32(const char *hdr, const char *body, const c32 *t, unsigned n)
{
    uint32_t a[256], b[256], c[256], d[256];
    assert_true(n <= 256);
    for (unsigned i = 0; i < n; i++) {
        a[i] = t[i].a;
        b[i] = t[i].b;
        c[i] = t[i].c;
    }
    run(hdr, K_F32, body, a, b, c, d, n);
    for (unsigned i = 0; i < n; i++)
        if (d[i] != t[i].want)
            fail_msg("%s lane %u: a=%08x b=%08x c=%08x -> %08x, want %08x", body, i, a[i],
                     b[i], c[i], d[i], t[i].want);
}

static void check64(const char *body, const c64 *t, unsigned n)
{
    uint64_t a[64], b[64], c[64], d[64];
    assert_true(n <= 64);
    for (unsigned i = 0; i < n; i++) {
        a[i] = t[i].a;
        b[i] = t[i].b;
        c[i] = t[i].c;
    }
    run(HDR_SM90, K_F64, body, a, b, c, d, n);
    for (unsigned i = 0; i < n; i++)
        if (d[i] != t[i].want)
            fail_msg("%s lane %u: a=%016llx b=%016llx c=%016llx -> %016llx, want %016llx",
                     body, i, (unsigned long long)a[i], (unsigned long long)b[i],
                     (unsigned long long)c[i], (unsigned long long)d[i],
                     (unsigned long long)t[i].want);
}

/* 16-bit and packed forms use the same row type, bits in the low half. */
static void check16(kind k, const char *body, const c32 *t, unsigned n)
{
    uint16_t a16[64], b16[64], c16[64], d16[64];
    uint32_t a[64], b[64], c[64], d[64];
    assert_true(n <= 64);
    for (unsigned i = 0; i < n; i++) {
        a[i] = t[i].a, b[i] = t[i].b, c[i] = t[i].c;
        a16[i] = (uint16_t)t[i].a, b16[i] = (uint16_t)t[i].b, c16[i] = (uint16_t)t[i].c;
    }
    if (k == K_B16)
        run(HDR_SM90, k, body, a16, b16, c16, d16, n);
    else
        run(HDR_SM90, k, body, a, b, c, d, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t got = k == K_B16 ? d16[i] : d[i];
        if (got != t[i].want)
            fail_msg("%s lane %u: a=%x b=%x c=%x -> %x, want %x", body, i, t[i].a, t[i].b,
                     t[i].c, got, t[i].want);
    }
}

/* ---------------------------------------------------- references */

static const char *const rnd_names[4] = {"rn", "rz", "rm", "rp"};
static const int rnd_fe[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* The host FPU computes the IEEE result in the requested mode.  Operands
 * and results go through volatiles so nothing moves across fesetround. */
static uint32_t host_f32(char op, uint32_t ua, uint32_t ub, int mode)
{
    volatile float a = bf(ua), b = bf(ub), r = 0;
    int old = fegetround();
    fesetround(mode);
    switch (op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/': r = a / b; break;
    case 'r': r = 1.0f / a; break;
    default: r = sqrtf(a); break;
    }
    fesetround(old);
    return isnan(r) ? 0x7fffffffu : fb(r);
}

static uint64_t host_f64(char op, uint64_t ua, uint64_t ub, uint64_t uc, int mode)
{
    volatile double a = bd(ua), b = bd(ub), c = bd(uc), r = 0;
    int old = fegetround();
    fesetround(mode);
    switch (op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/': r = a / b; break;
    case 'r': r = 1.0 / a; break;
    case 'f': r = fma(a, b, c); break;
    default: r = sqrt(a); break;
    }
    fesetround(old);
    return db(r);
}

/* fma.f32 reference: a*b is exact in long double (48 bits) and so is
 * a*b + c for the operand ranges used (checked: the sum is the same when
 * rounded down and up); the conversion to float then rounds once. */
static uint32_t ref_fma_f32(uint32_t ua, uint32_t ub, uint32_t uc, int mode)
{
    volatile long double p = (long double)bf(ua) * (long double)bf(ub);
    volatile long double c = bf(uc), lo, hi;
    volatile float r;
    int old = fegetround();
    fesetround(FE_DOWNWARD);
    lo = p + c;
    fesetround(FE_UPWARD);
    hi = p + c;
    fesetround(mode);
    r = (float)lo;
    fesetround(old);
    assert_true(lo == hi);
    return fb(r);
}

/* The same with the product rounded to f32 first (GPGPU-Sim's mistake). */
static uint32_t ref_fma_f32_twice(uint32_t ua, uint32_t ub, uint32_t uc)
{
    volatile float p = bf(ua) * bf(ub);
    volatile float r = p + bf(uc);
    return fb(r);
}

/* Rounds a double to f16 (fmt 0) or bf16 (fmt 1): mode 0 = nearest even,
 * 1 = toward zero.  Written independently of isa/half.c. */
static uint16_t ref_half(double x, int fmt, int mode)
{
    const int mbits = fmt ? 7 : 10, bias = fmt ? 127 : 15, emax = fmt ? 127 : 15;
    if (isnan(x))
        return 0x7fff;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double ax = fabs(x);
    uint16_t inf = (uint16_t)(((2 * bias + 1) << mbits));
    uint16_t maxf = (uint16_t)(inf - 1);
    if (isinf(ax))
        return sign | inf;
    if (ax == 0)
        return sign;
    int e;
    frexp(ax, &e);
    e -= 1; /* ax in [2^e, 2^(e+1)) */
    if (e < 1 - bias)
        e = 1 - bias; /* subnormal range: fixed quantum */
    double q = ldexp(ax, mbits - e); /* in units of the last place */
    double r = mode == 0 ? nearbyint(q) : trunc(q);
    if (r >= ldexp(1.0, mbits + 1)) { /* carried into the next binade */
        r /= 2;
        e++;
    }
    if (e > emax)
        return sign | (mode == 0 ? inf : maxf);
    uint32_t m = (uint32_t)r;
    if (m < (1u << mbits)) /* subnormal (or rounded up to the min normal) */
        return sign | (uint16_t)m;
    return sign | (uint16_t)(((uint32_t)(e + bias) << mbits) | (m - (1u << mbits)));
}

static double f16_val(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                              : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}
static double bf16_val(uint16_t h)
{
    return bf((uint32_t)h << 16);
}

/* ============================================================ f32 tests */

static void test_f32_rn_tables(void **state)
{
    (void)state;
    static const c32 add[] = {
        {0x3f800000, 0x33800000, 0, 0x3f800000}, /* 1 + 2^-24: tie to even */
        {0x3f800001, 0x33800000, 0, 0x3f800002}, /* odd: tie rounds up */
        {0xbf800000, 0xb3800000, 0, 0xbf800000},
        {0x3f800000, 0x33000001, 0, 0x3f800000}, /* just above a quarter ulp */
        {0x7f7fffff, 0x7f7fffff, 0, 0x7f800000}, /* overflow */
        {0x80000000, 0x80000000, 0, 0x80000000}, /* -0 + -0 */
        {0x80000000, 0x00000000, 0, 0x00000000}, /* -0 + +0 */
        {0x3f800000, 0xbf800000, 0, 0x00000000}, /* x - x = +0 */
        {0x00000001, 0x00000001, 0, 0x00000002}, /* subnormals kept */
        {0x00400000, 0x00400000, 0, 0x00800000},
        {0x7f800000, 0xff800000, 0, 0x7fffffff}, /* inf - inf */
        {0x7fc01234, 0x3f800000, 0, 0x7fffffff}, /* NaN payload not kept */
        {0xff800001, 0x00000000, 0, 0x7fffffff}, /* signalling NaN */
        {0x7f800000, 0x3f800000, 0, 0x7f800000},
        {0x40400000, 0x40a00000, 0, 0x41000000}, /* 3 + 5 */
    };
    check32(HDR_SM90, "add.f32 %xd, %xa, %xb;", add, G_N_ELEMENTS(add));
    check32(HDR_SM90, "add.rn.f32 %xd, %xa, %xb;", add, G_N_ELEMENTS(add));

    static const c32 sub[] = {
        {0x3f800000, 0x3f800000, 0, 0x00000000},
        {0x80000000, 0x00000000, 0, 0x80000000}, /* -0 - +0 */
        {0x40a00000, 0x40400000, 0, 0x40000000},
        {0x3f800000, 0xb3800000, 0, 0x3f800000}, /* 1 - (-2^-24): tie */
        {0x00c00000, 0x00800000, 0, 0x00400000}, /* subnormal result */
        {0x7f800000, 0x7f800000, 0, 0x7fffffff},
        {0xff7fffff, 0x7f7fffff, 0, 0xff800000},
    };
    check32(HDR_SM90, "sub.f32 %xd, %xa, %xb;", sub, G_N_ELEMENTS(sub));

    static const c32 mul[] = {
        {0x3fc00000, 0x3f800001, 0, 0x3fc00002}, /* 1.5(1+2^-23): tie, up to even */
        {0x40400000, 0x40a00000, 0, 0x41700000}, /* 3 * 5 */
        {0x80000000, 0x40a00000, 0, 0x80000000}, /* -0 * 5 */
        {0x7f800000, 0x00000000, 0, 0x7fffffff}, /* inf * 0 */
        {0x7f000000, 0x40000000, 0, 0x7f800000}, /* 2^127 * 2 */
        {0x00800000, 0x3f000000, 0, 0x00400000}, /* 2^-126 / 2: subnormal */
        {0x00000001, 0x3f000000, 0, 0x00000000}, /* 2^-150: tie to even 0 */
        {0x00000001, 0x3f400000, 0, 0x00000001}, /* 0.75 * 2^-149 */
        {0xff800000, 0xbf800000, 0, 0x7f800000},
    };
    check32(HDR_SM90, "mul.f32 %xd, %xa, %xb;", mul, G_N_ELEMENTS(mul));

    static const c32 fma_t[] = {
        /* (1+2^-23)^2 - (1+2^-22) = 2^-46 exactly; rounding the product
         * first would give 0 */
        {0x3f800001, 0x3f800001, 0xbf800002, 0x28800000},
        {0x3f800001, 0x3f800001, 0xbf800000, 0x34800000}, /* tie, to even */
        {0x40400000, 0x40a00000, 0x3f800000, 0x41800000}, /* 3*5+1 */
        {0x7f800000, 0x00000000, 0x3f800000, 0x7fffffff}, /* inf*0 */
        {0x7f800000, 0x3f800000, 0xff800000, 0x7fffffff}, /* inf - inf */
        {0x3f800000, 0x3f800000, 0x7fc00001, 0x7fffffff},
        {0x80000000, 0x3f800000, 0x80000000, 0x80000000}, /* -0 + -0 */
        {0x80000000, 0x3f800000, 0x00000000, 0x00000000},
        {0x7f7fffff, 0x40000000, 0xff7fffff, 0x7f7fffff}, /* no intermediate overflow */
    };
    check32(HDR_SM90, "fma.rn.f32 %xd, %xa, %xb, %xc;", fma_t, G_N_ELEMENTS(fma_t));
    check32(HDR_SM90, "mad.rn.f32 %xd, %xa, %xb, %xc;", fma_t, G_N_ELEMENTS(fma_t));
    check32(HDR_SM90, "mad.f32 %xd, %xa, %xb, %xc;", fma_t, G_N_ELEMENTS(fma_t));
}

/* The same inputs under each rounding mode, bit patterns worked out by
 * hand: ties, exact zeros, overflow and underflow. */
static void test_f32_directed_ties(void **state)
{
    (void)state;
    typedef struct {
        uint32_t a, b, c, want[4]; /* rn rz rm rp */
    } row;
    static const row add[] = {
        {0x3f800000, 0x33800000, 0, {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001}},
        {0xbf800000, 0xb3800000, 0, {0xbf800000, 0xbf800000, 0xbf800001, 0xbf800000}},
        {0x3f800001, 0x33800000, 0, {0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002}},
        {0x3f800000, 0x33000000, 0, {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001}},
        {0x3f800000, 0xbf800000, 0, {0x00000000, 0x00000000, 0x80000000, 0x00000000}},
        {0x7f7fffff, 0x7f7fffff, 0, {0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000}},
        {0xff7fffff, 0xff7fffff, 0, {0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff}},
        {0x00000001, 0x00000001, 0, {0x00000002, 0x00000002, 0x00000002, 0x00000002}},
        {0x7fc00000, 0x3f800000, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
    };
    static const row mul[] = {
        {0x3fc00000, 0x3f800001, 0, {0x3fc00002, 0x3fc00001, 0x3fc00001, 0x3fc00002}},
        {0xbfc00000, 0x3f800001, 0, {0xbfc00002, 0xbfc00001, 0xbfc00002, 0xbfc00001}},
        {0x00000001, 0x3f000000, 0, {0x00000000, 0x00000000, 0x00000000, 0x00000001}},
        {0x80000001, 0x3f000000, 0, {0x80000000, 0x80000000, 0x80000001, 0x80000000}},
        {0x7f000000, 0x40000000, 0, {0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000}},
    };
    static const row fma_t[] = {
        {0x3f800001, 0x3f800001, 0xbf800000, {0x34800000, 0x34800000, 0x34800000, 0x34800001}},
        {0x3f800001, 0x3f800001, 0xbf800002, {0x28800000, 0x28800000, 0x28800000, 0x28800000}},
        {0x3f800000, 0x3f800000, 0xbf800000, {0x00000000, 0x00000000, 0x80000000, 0x00000000}},
        {0xbf800001, 0x3f800001, 0x3f800000, {0xb4800000, 0xb4800000, 0xb4800001, 0xb4800000}},
    };
    static const row div_t[] = {
        {0x3f800000, 0x40400000, 0, {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab}},
        {0xbf800000, 0x40400000, 0, {0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa}},
        {0x00000001, 0x40000000, 0, {0x00000000, 0x00000000, 0x00000000, 0x00000001}},
        {0x3f800000, 0x00000000, 0, {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000}},
        {0xbf800000, 0x00000000, 0, {0xff800000, 0xff800000, 0xff800000, 0xff800000}},
        {0x3f800000, 0x80000000, 0, {0xff800000, 0xff800000, 0xff800000, 0xff800000}},
        {0x00000000, 0x00000000, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
        {0x7f800000, 0x7f800000, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
        {0x80000000, 0x40a00000, 0, {0x80000000, 0x80000000, 0x80000000, 0x80000000}},
        {0x7f7fffff, 0x3f000000, 0, {0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000}},
    };
    static const row sqrt_t[] = {
        {0x40000000, 0, 0, {0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4}},
        {0x40800000, 0, 0, {0x40000000, 0x40000000, 0x40000000, 0x40000000}},
        {0xbf800000, 0, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
        {0x80000000, 0, 0, {0x80000000, 0x80000000, 0x80000000, 0x80000000}},
        {0x7f800000, 0, 0, {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000}},
        {0x00000001, 0, 0, {0x1a3504f3, 0x1a3504f3, 0x1a3504f3, 0x1a3504f4}},
    };
    static const row rcp_t[] = {
        {0x40400000, 0, 0, {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab}},
        {0x00000000, 0, 0, {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000}},
        {0x80000000, 0, 0, {0xff800000, 0xff800000, 0xff800000, 0xff800000}},
        {0x7f800000, 0, 0, {0x00000000, 0x00000000, 0x00000000, 0x00000000}},
        {0x00400000, 0, 0, {0x7f000000, 0x7f000000, 0x7f000000, 0x7f000000}},
    };
    static const struct {
        const char *fmt;
        const row *rows;
        unsigned n;
    } ops[] = {
        {"add.%s.f32 %%xd, %%xa, %%xb;", add, G_N_ELEMENTS(add)},
        {"mul.%s.f32 %%xd, %%xa, %%xb;", mul, G_N_ELEMENTS(mul)},
        {"fma.%s.f32 %%xd, %%xa, %%xb, %%xc;", fma_t, G_N_ELEMENTS(fma_t)},
        {"mad.%s.f32 %%xd, %%xa, %%xb, %%xc;", fma_t, G_N_ELEMENTS(fma_t)},
        {"div.%s.f32 %%xd, %%xa, %%xb;", div_t, G_N_ELEMENTS(div_t)},
        {"sqrt.%s.f32 %%xd, %%xa;", sqrt_t, G_N_ELEMENTS(sqrt_t)},
        {"rcp.%s.f32 %%xd, %%xa;", rcp_t, G_N_ELEMENTS(rcp_t)},
    };
    for (unsigned o = 0; o < G_N_ELEMENTS(ops); o++) {
        for (unsigned m = 0; m < 4; m++) {
            c32 t[16];
            for (unsigned i = 0; i < ops[o].n; i++)
                t[i] = (c32){ops[o].rows[i].a, ops[o].rows[i].b, ops[o].rows[i].c,
                             ops[o].rows[i].want[m]};
            char *body = g_strdup_printf(ops[o].fmt, rnd_names[m]);
            check32(HDR_SM90, body, t, ops[o].n);
            g_free(body);
        }
    }
    /* sub is add of the negation: x - x is -0 only under .rm */
    static const c32 sub_rm[] = {{0x3f800000, 0x3f800000, 0, 0x80000000},
                                 {0x3f800000, 0x33800000, 0, 0x3f7fffff}};
    check32(HDR_SM90, "sub.rm.f32 %xd, %xa, %xb;", sub_rm, 2);
}

/* Random operands in every mode against the host FPU in that mode. */
static void test_f32_directed_random(void **state)
{
    (void)state;
    enum { N = 200 };
    uint64_t seed = 0x1234567;
    uint32_t a[N], b[N], c[N], d[N];
    for (unsigned i = 0; i < N; i++) {
        a[i] = rand_f32(&seed, -30, 30);
        b[i] = rand_f32(&seed, -30, 30);
        c[i] = rand_f32(&seed, -4, 4);
    }
    /* some subnormal operands and results */
    a[0] = 0x00012345, b[0] = 0x3f000001;
    a[1] = 0x80400001, b[1] = 0x00300003;
    a[2] = 0x01000001, b[2] = 0x3e800003;
    static const char ops[] = {'+', '-', '*', '/', 's', 'r'};
    static const char *const names[] = {"add", "sub", "mul", "div", "sqrt", "rcp"};
    for (unsigned o = 0; o < G_N_ELEMENTS(ops); o++) {
        for (unsigned m = 0; m < 4; m++) {
            uint32_t x[N];
            for (unsigned i = 0; i < N; i++)
                x[i] = ops[o] == 's' ? a[i] & 0x7fffffffu : a[i];
            char *body = ops[o] == 's' || ops[o] == 'r'
                             ? g_strdup_printf("%s.%s.f32 %%xd, %%xa;", names[o], rnd_names[m])
                             : g_strdup_printf("%s.%s.f32 %%xd, %%xa, %%xb;", names[o],
                                               rnd_names[m]);
            run(HDR_SM90, K_F32, body, x, b, NULL, d, N);
            for (unsigned i = 0; i < N; i++) {
                uint32_t want = host_f32(ops[o], x[i], b[i], rnd_fe[m]);
                if (d[i] != want)
                    fail_msg("%s lane %u: %08x %08x -> %08x, want %08x", body, i, x[i], b[i],
                             d[i], want);
            }
            g_free(body);
        }
    }
    /* fma: operands in [2^-4, 2^5) keep a*b+c exact in long double */
    for (unsigned i = 0; i < N; i++) {
        a[i] = rand_f32(&seed, -4, 4);
        b[i] = rand_f32(&seed, -4, 4);
    }
    for (unsigned m = 0; m < 4; m++) {
        char *body = g_strdup_printf("fma.%s.f32 %%xd, %%xa, %%xb, %%xc;", rnd_names[m]);
        run(HDR_SM90, K_F32, body, a, b, c, d, N);
        for (unsigned i = 0; i < N; i++) {
            uint32_t want = ref_fma_f32(a[i], b[i], c[i], rnd_fe[m]);
            if (d[i] != want)
                fail_msg("%s lane %u: %08x %08x %08x -> %08x, want %08x", body, i, a[i], b[i],
                         c[i], d[i], want);
        }
        g_free(body);
    }
}

/* fma.rn.f32 rounds once.  One step over many lanes, then a loop that
 * accumulates acc = a*b + acc; the test data is checked to be such that
 * rounding the product first (GPGPU-Sim) would differ in many lanes. */
static void test_f32_fma_single_rounding(void **state)
{
    (void)state;
    enum { N = 256, ITERS = 48 };
    uint64_t seed = 99;
    uint32_t a[N], b[N], c[N], d[N];
    for (unsigned i = 0; i < N; i++) {
        a[i] = rand_f32(&seed, 0, 0) & 0x7fffffffu; /* [1, 2) */
        b[i] = rand_f32(&seed, 0, 0) & 0x7fffffffu;
        c[i] = rand_f32(&seed, 0, 1) | 0x80000000u; /* cancels: (-4, -1] */
    }
    run(HDR_SM90, K_F32, "fma.rn.f32 %xd, %xa, %xb, %xc;", a, b, c, d, N);
    unsigned differ = 0;
    for (unsigned i = 0; i < N; i++) {
        uint32_t want = ref_fma_f32(a[i], b[i], c[i], FE_TONEAREST);
        if (d[i] != want)
            fail_msg("fma.rn.f32 lane %u: %08x %08x %08x -> %08x, want %08x", i, a[i], b[i],
                     c[i], d[i], want);
        differ += ref_fma_f32_twice(a[i], b[i], c[i]) != want;
    }
    assert_true(differ >= N / 4); /* the data discriminates (about half) */

    static const char loop[] =
        "  mov.f32 %xd, %xc;\n"
        "  mov.u32 %r2, 0;\n"
        "LOOP:\n"
        "  fma.rn.f32 %xd, %xa, %xb, %xd;\n"
        "  add.u32 %r2, %r2, 1;\n"
        "  setp.lt.u32 %p1, %r2, 48;\n"
        "  @%p1 bra LOOP;\n";
    for (unsigned i = 0; i < N; i++)
        c[i] &= 0x7fffffffu;
    run(HDR_SM90, K_F32, loop, a, b, c, d, N);
    differ = 0;
    for (unsigned i = 0; i < N; i++) {
        uint32_t acc = c[i], acc2 = c[i];
        for (unsigned k = 0; k < ITERS; k++) {
            acc = ref_fma_f32(a[i], b[i], acc, FE_TONEAREST);
            acc2 = ref_fma_f32_twice(a[i], b[i], acc2);
        }
        if (d[i] != acc)
            fail_msg("fma loop lane %u: %08x %08x from %08x -> %08x, want %08x", i, a[i], b[i],
                     c[i], d[i], acc);
        differ += acc2 != acc;
    }
    /* the sum outgrows the product, so fewer lanes tell them apart (~18%) */
    assert_true(differ >= N / 8);
}

static void test_f32_ftz_sat(void **state)
{
    (void)state;
    static const c32 add_ftz[] = {
        {0x00400000, 0x00400000, 0, 0x00000000}, /* inputs flushed */
        {0x80400000, 0x3f800000, 0, 0x3f800000},
        {0x00c00000, 0x80800000, 0, 0x00000000}, /* subnormal result flushed */
        {0x80c00000, 0x00800000, 0, 0x80000000}, /* ... keeping its sign */
        {0x00800000, 0x00800000, 0, 0x01000000}, /* normals untouched */
        {0x3f800000, 0x33800000, 0, 0x3f800000},
    };
    check32(HDR_SM90, "add.ftz.f32 %xd, %xa, %xb;", add_ftz, G_N_ELEMENTS(add_ftz));
    check32(HDR_SM90, "add.rn.ftz.f32 %xd, %xa, %xb;", add_ftz, G_N_ELEMENTS(add_ftz));
    static const c32 add_noftz[] = {
        {0x00400000, 0x00400000, 0, 0x00800000},
        {0x00c00000, 0x80800000, 0, 0x00400000},
    };
    check32(HDR_SM90, "add.f32 %xd, %xa, %xb;", add_noftz, 2);
    static const c32 add_rz_ftz[] = {
        {0x00400000, 0x3f800000, 0, 0x3f800000},
        {0x3f800000, 0x33800000, 0, 0x3f800000},
        {0x00c00000, 0x80800000, 0, 0x00000000},
    };
    check32(HDR_SM90, "add.rp.ftz.f32 %xd, %xa, %xb;",
            (const c32[]){{0x00400000, 0x3f800000, 0, 0x3f800000},
                          {0x3f800000, 0x33800000, 0, 0x3f800001}},
            2);
    check32(HDR_SM90, "add.rz.ftz.f32 %xd, %xa, %xb;", add_rz_ftz, 3);
    static const c32 mul_ftz[] = {
        {0x00800000, 0x3f000000, 0, 0x00000000}, /* result 2^-127 flushed */
        {0x80800000, 0x3f000000, 0, 0x80000000},
        {0x00400000, 0x4b000000, 0, 0x00000000}, /* input flushed: 0 * 2^23 */
        {0x40400000, 0x40a00000, 0, 0x41700000},
    };
    check32(HDR_SM90, "mul.ftz.f32 %xd, %xa, %xb;", mul_ftz, G_N_ELEMENTS(mul_ftz));
    static const c32 fma_ftz[] = {
        {0x00400000, 0x4b000000, 0x00000000, 0x00000000}, /* not 2^-104 */
        {0x00800000, 0x3f000000, 0x00000000, 0x00000000},
        {0x3f800001, 0x3f800001, 0xbf800002, 0x28800000},
        {0x3f800000, 0x3f800000, 0x80400000, 0x3f800000},
    };
    check32(HDR_SM90, "fma.rn.ftz.f32 %xd, %xa, %xb, %xc;", fma_ftz, G_N_ELEMENTS(fma_ftz));
    static const c32 sat[] = {
        {0x3f400000, 0x3f000000, 0, 0x3f800000}, /* 0.75 + 0.5 -> 1 */
        {0xc0000000, 0x3f800000, 0, 0x00000000}, /* -1 -> 0 */
        {0x7fc00000, 0x3f800000, 0, 0x00000000}, /* NaN -> +0 */
        {0x80000000, 0x80000000, 0, 0x00000000}, /* -0 -> +0 */
        {0x3e800000, 0x3e800000, 0, 0x3f000000},
        {0x7f800000, 0x3f800000, 0, 0x3f800000}, /* inf -> 1 */
    };
    check32(HDR_SM90, "add.sat.f32 %xd, %xa, %xb;", sat, G_N_ELEMENTS(sat));
    check32(HDR_SM90, "add.rn.ftz.sat.f32 %xd, %xa, %xb;", sat, G_N_ELEMENTS(sat));
    static const c32 fma_sat[] = {
        {0x3f000000, 0x3f000000, 0x3f000000, 0x3f400000},
        {0x40000000, 0x40000000, 0x3f800000, 0x3f800000},
        {0xbf800000, 0x3f800000, 0x3f000000, 0x00000000},
        {0x7f800000, 0x00000000, 0x3f000000, 0x00000000},
    };
    check32(HDR_SM90, "fma.rn.sat.f32 %xd, %xa, %xb, %xc;", fma_sat, G_N_ELEMENTS(fma_sat));
    check32(HDR_SM90, "fma.rp.ftz.sat.f32 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3f800001, 0x3f800001, 0xbf800000, 0x34800001},
                          {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000}},
            2);
    check32(HDR_SM90, "mul.sat.f32 %xd, %xa, %xb;",
            (const c32[]){{0x3f000000, 0x3f000000, 0, 0x3e800000},
                          {0xbf000000, 0x3f000000, 0, 0x00000000}},
            2);
    check32(HDR_SM90, "sub.ftz.f32 %xd, %xa, %xb;",
            (const c32[]){{0x00c00000, 0x00800000, 0, 0x00000000},
                          {0x00800000, 0x00c00000, 0, 0x80000000}},
            2);
    static const c32 div_ftz[] = {
        {0x00400000, 0x3f800000, 0, 0x00000000},
        {0x3f800000, 0x00400000, 0, 0x7f800000},  /* x/(+0) after the flush */
        {0x00800000, 0x40000000, 0, 0x00000000},  /* result 2^-127 flushed */
        {0x3f800000, 0x40400000, 0, 0x3eaaaaab},
    };
    check32(HDR_SM90, "div.rn.ftz.f32 %xd, %xa, %xb;", div_ftz, G_N_ELEMENTS(div_ftz));
    check32(HDR_SM90, "sqrt.rn.ftz.f32 %xd, %xa;",
            (const c32[]){{0x00000001, 0, 0, 0}, {0x80400000, 0, 0, 0x80000000},
                          {0x40800000, 0, 0, 0x40000000}},
            3);
    check32(HDR_SM90, "rcp.rn.ftz.f32 %xd, %xa;",
            (const c32[]){{0x00400000, 0, 0, 0x7f800000}, {0x80400000, 0, 0, 0xff800000},
                          {0x7f000000, 0, 0, 0x00000000}}, /* 2^-127 flushed */
            3);
}

/* .approx and .full: the manual's error bounds against double references,
 * plus the special values. */
static double ulp_f32(double x)
{
    int e;
    frexp(fabs(x), &e);
    return e - 24 < -149 ? ldexp(1, -149) : ldexp(1, e - 24);
}

typedef enum bound { B_ULP, B_REL, B_ABS } bound;

static void check_approx(const char *body, const uint32_t *a, const uint32_t *b, unsigned n,
                         double (*ref)(double, double), bound kind, double tol)
{
    uint32_t d[256];
    assert_true(n <= 256);
    run(HDR_SM90, K_F32, body, a, b, NULL, d, n);
    for (unsigned i = 0; i < n; i++) {
        double want = ref(bf(a[i]), b ? bf(b[i]) : 0), got = bf(d[i]);
        double err = fabs(got - want);
        double lim = kind == B_ULP ? tol * ulp_f32(want) : kind == B_REL ? tol * fabs(want) : tol;
        if (!(err <= lim))
            fail_msg("%s lane %u: %08x (%g) %08x -> %08x (%.9g), want %.9g (error %g > %g)",
                     body, i, a[i], (double)bf(a[i]), b ? b[i] : 0, d[i], got, want, err, lim);
    }
}

static double r_div(double x, double y) { return x / y; }
static double r_rcp(double x, double y) { (void)y; return 1 / x; }
static double r_sqrt(double x, double y) { (void)y; return sqrt(x); }
static double r_rsqrt(double x, double y) { (void)y; return 1 / sqrt(x); }
static double r_sin(double x, double y) { (void)y; return sin(x); }
static double r_cos(double x, double y) { (void)y; return cos(x); }
static double r_lg2(double x, double y) { (void)y; return log2(x); }
static double r_ex2(double x, double y) { (void)y; return exp2(x); }
static double r_tanh(double x, double y) { (void)y; return tanh(x); }

static void test_f32_approx(void **state)
{
    (void)state;
    enum { N = 128 };
    uint64_t seed = 4242;
    uint32_t a[N], b[N], pos[N], trig[N], ex[N], near1[N];
    for (unsigned i = 0; i < N; i++) {
        a[i] = rand_f32(&seed, -60, 60);
        b[i] = rand_f32(&seed, -60, 60);
        pos[i] = rand_f32(&seed, -120, 120) & 0x7fffffffu;
        trig[i] = fb((float)((double)(rng_next(&seed) % 2000001) / 1e6 * 4 * M_PI - 2 * M_PI));
        ex[i] = fb((float)((double)(rng_next(&seed) % 2000001) / 1e4 - 100.0));
        near1[i] = fb((float)(0.5 + (double)(rng_next(&seed) % 1000001) / 1e6 * 1.5));
    }
    check_approx("div.approx.f32 %xd, %xa, %xb;", a, b, N, r_div, B_ULP, 2);
    check_approx("div.full.f32 %xd, %xa, %xb;", a, b, N, r_div, B_ULP, 2);
    check_approx("rcp.approx.f32 %xd, %xa;", a, NULL, N, r_rcp, B_ULP, 1);
    check_approx("sqrt.approx.f32 %xd, %xa;", pos, NULL, N, r_sqrt, B_REL, ldexp(1, -23));
    check_approx("rsqrt.approx.f32 %xd, %xa;", pos, NULL, N, r_rsqrt, B_REL, ldexp(1, -22.9));
    check_approx("sin.approx.f32 %xd, %xa;", trig, NULL, N, r_sin, B_ABS, ldexp(1, -20.5));
    check_approx("cos.approx.f32 %xd, %xa;", trig, NULL, N, r_cos, B_ABS, ldexp(1, -20.5));
    check_approx("lg2.approx.f32 %xd, %xa;", near1, NULL, N, r_lg2, B_ABS, ldexp(1, -22));
    check_approx("lg2.approx.f32 %xd, %xa;", pos, NULL, N, r_lg2, B_REL, ldexp(1, -22));
    check_approx("ex2.approx.f32 %xd, %xa;", ex, NULL, N, r_ex2, B_ULP, 2);
    check_approx("ex2.approx.ftz.f32 %xd, %xa;", ex, NULL, N, r_ex2, B_ULP, 2);
    check_approx("tanh.approx.f32 %xd, %xa;", trig, NULL, N, r_tanh, B_REL, ldexp(1, -11));

    /* special values, hand-written */
    check32(HDR_SM90, "div.approx.f32 %xd, %xa, %xb;",
            (const c32[]){{0x3f800000, 0x7e800001, 0, 0x00000000},  /* |b| > 2^126 */
                          {0xbf800000, 0x7f000000, 0, 0x80000000},
                          {0x7f800000, 0x7f000000, 0, 0x7fffffff},  /* inf * 0 */
                          {0x3f800000, 0x00000000, 0, 0x7f800000},
                          {0x00000000, 0x00000000, 0, 0x7fffffff}},
            5);
    check32(HDR_SM90, "div.approx.ftz.f32 %xd, %xa, %xb;",
            (const c32[]){{0x00400000, 0x3f800000, 0, 0x00000000},
                          {0x40400000, 0x40400000, 0, 0x3f800000}},
            2);
    check32(HDR_SM90, "div.full.ftz.f32 %xd, %xa, %xb;",
            (const c32[]){{0x3f800000, 0x00400000, 0, 0x7f800000},
                          {0x41000000, 0x40000000, 0, 0x40800000}},
            2);
    check32(HDR_SM90, "rcp.approx.ftz.f32 %xd, %xa;",
            (const c32[]){{0x00000001, 0, 0, 0x7f800000}, {0x80000000, 0, 0, 0xff800000},
                          {0x40000000, 0, 0, 0x3f000000}, {0xff800000, 0, 0, 0x80000000}},
            4);
    check32(HDR_SM90, "sqrt.approx.f32 %xd, %xa;",
            (const c32[]){{0xbf800000, 0, 0, 0x7fffffff}, {0x80000000, 0, 0, 0x80000000},
                          {0x7f800000, 0, 0, 0x7f800000}, {0x41100000, 0, 0, 0x40400000}},
            4);
    check32(HDR_SM90, "sqrt.approx.ftz.f32 %xd, %xa;",
            (const c32[]){{0x80000001, 0, 0, 0x80000000}, {0x00000004, 0, 0, 0x00000000}}, 2);
    check32(HDR_SM90, "rsqrt.approx.f32 %xd, %xa;",
            (const c32[]){{0x00000000, 0, 0, 0x7f800000}, {0x80000000, 0, 0, 0xff800000},
                          {0x7f800000, 0, 0, 0x00000000}, {0xbf800000, 0, 0, 0x7fffffff},
                          {0x40800000, 0, 0, 0x3f000000}},
            5);
    check32(HDR_SM90, "rsqrt.approx.ftz.f32 %xd, %xa;",
            (const c32[]){{0x00000010, 0, 0, 0x7f800000}}, 1);
    check32(HDR_SM90, "sin.approx.f32 %xd, %xa;",
            (const c32[]){{0x00000000, 0, 0, 0x00000000}, {0x80000000, 0, 0, 0x80000000},
                          {0x7f800000, 0, 0, 0x7fffffff}, {0x7fc00000, 0, 0, 0x7fffffff}},
            4);
    check32(HDR_SM90, "sin.approx.ftz.f32 %xd, %xa;",
            (const c32[]){{0x80000123, 0, 0, 0x80000000}}, 1);
    check32(HDR_SM90, "cos.approx.f32 %xd, %xa;",
            (const c32[]){{0x00000000, 0, 0, 0x3f800000}, {0xff800000, 0, 0, 0x7fffffff}}, 2);
    check32(HDR_SM90, "lg2.approx.f32 %xd, %xa;",
            (const c32[]){{0x00000000, 0, 0, 0xff800000}, {0x80000000, 0, 0, 0xff800000},
                          {0xbf800000, 0, 0, 0x7fffffff}, {0x7f800000, 0, 0, 0x7f800000},
                          {0x3f800000, 0, 0, 0x00000000}, {0x41000000, 0, 0, 0x40400000}},
            6);
    check32(HDR_SM90, "lg2.approx.ftz.f32 %xd, %xa;",
            (const c32[]){{0x00000001, 0, 0, 0xff800000}}, 1);
    check32(HDR_SM90, "ex2.approx.f32 %xd, %xa;",
            (const c32[]){{0xff800000, 0, 0, 0x00000000}, {0x7f800000, 0, 0, 0x7f800000},
                          {0x00000000, 0, 0, 0x3f800000}, {0x40400000, 0, 0, 0x41000000},
                          {0xc3150000, 0, 0, 0x00000001}, /* 2^-149 */
                          {0x7fc00000, 0, 0, 0x7fffffff}},
            6);
    check32(HDR_SM90, "ex2.approx.ftz.f32 %xd, %xa;",
            (const c32[]){{0xc3150000, 0, 0, 0x00000000}, {0x00000001, 0, 0, 0x3f800000}}, 2);
    check32(HDR_SM90, "tanh.approx.f32 %xd, %xa;",
            (const c32[]){{0x7f800000, 0, 0, 0x3f800000}, {0xff800000, 0, 0, 0xbf800000},
                          {0x80000000, 0, 0, 0x80000000}, {0x00000001, 0, 0, 0x00000001}},
            4);
}

static void test_f32_minmax_sign_testp(void **state)
{
    (void)state;
    static const c32 min_t[] = {
        {0x3f800000, 0x40000000, 0, 0x3f800000},
        {0x3f800000, 0x7fc00000, 0, 0x3f800000}, /* one NaN is ignored */
        {0x7fc00000, 0xbf800000, 0, 0xbf800000},
        {0x7fc00000, 0x7f800001, 0, 0x7fffffff}, /* both NaN */
        {0x80000000, 0x00000000, 0, 0x80000000}, /* -0 < +0 */
        {0x00000000, 0x80000000, 0, 0x80000000},
        {0xff800000, 0x3f800000, 0, 0xff800000},
        {0x00000005, 0x80000003, 0, 0x80000003}, /* subnormals compared */
    };
    check32(HDR_SM90, "min.f32 %xd, %xa, %xb;", min_t, G_N_ELEMENTS(min_t));
    static const c32 max_t[] = {
        {0x3f800000, 0x40000000, 0, 0x40000000},
        {0x7fc00000, 0xbf800000, 0, 0xbf800000},
        {0x80000000, 0x00000000, 0, 0x00000000},
        {0xff800000, 0x7f800000, 0, 0x7f800000},
    };
    check32(HDR_SM90, "max.f32 %xd, %xa, %xb;", max_t, G_N_ELEMENTS(max_t));
    check32(HDR_SM90, "min.NaN.f32 %xd, %xa, %xb;",
            (const c32[]){{0x3f800000, 0x7fc00000, 0, 0x7fffffff},
                          {0x3f800000, 0x40000000, 0, 0x3f800000}},
            2);
    check32(HDR_SM90, "max.NaN.f32 %xd, %xa, %xb;",
            (const c32[]){{0x7f800001, 0x3f800000, 0, 0x7fffffff},
                          {0x3f800000, 0x40000000, 0, 0x40000000}},
            2);
    check32(HDR_SM90, "min.ftz.f32 %xd, %xa, %xb;",
            (const c32[]){{0x00000005, 0x80000003, 0, 0x80000000},
                          {0x00000005, 0x3f800000, 0, 0x00000000}},
            2);
    check32(HDR_SM90, "min.ftz.NaN.f32 %xd, %xa, %xb;",
            (const c32[]){{0x00000005, 0x7fc00000, 0, 0x7fffffff}}, 1);
    /* .xorsign.abs: the smaller magnitude with the xor of the signs */
    check32(HDR_SM90, "min.xorsign.abs.f32 %xd, %xa, %xb;",
            (const c32[]){{0xc0400000, 0x40000000, 0, 0xc0000000},
                          {0xc0400000, 0xc0000000, 0, 0x40000000},
                          {0x3f800000, 0x40000000, 0, 0x3f800000}},
            3);
    check32(HDR_SM90, "max.xorsign.abs.f32 %xd, %xa, %xb;",
            (const c32[]){{0xc0400000, 0x40000000, 0, 0xc0400000},
                          {0xc0400000, 0xc0000000, 0, 0x40400000}},
            2);
    /* three inputs */
    check32(HDR_SM90, "min.f32 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x40400000, 0xbf800000, 0x40000000, 0xbf800000},
                          {0x40400000, 0x7fc00000, 0x40000000, 0x40000000},
                          {0x80000000, 0x00000000, 0x3f800000, 0x80000000}},
            3);
    check32(HDR_SM90, "max.abs.f32 %xd, %xa, %xb, %xc;",
            (const c32[]){{0xc0a00000, 0x40400000, 0x40000000, 0x40a00000}}, 1);
    check32(HDR_SM90, "max.NaN.f32 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3f800000, 0x40000000, 0x7fc00000, 0x7fffffff},
                          {0x3f800000, 0x40000000, 0x40400000, 0x40400000}},
            2);

    static const c32 abs_t[] = {
        {0xbf800000, 0, 0, 0x3f800000}, {0x80000000, 0, 0, 0x00000000},
        {0x80000001, 0, 0, 0x00000001}, {0xff800000, 0, 0, 0x7f800000},
        {0xffc00001, 0, 0, 0x7fffffff},
    };
    check32(HDR_SM90, "abs.f32 %xd, %xa;", abs_t, G_N_ELEMENTS(abs_t));
    check32(HDR_SM90, "abs.ftz.f32 %xd, %xa;",
            (const c32[]){{0x80000001, 0, 0, 0x00000000}, {0xbf800000, 0, 0, 0x3f800000}}, 2);
    static const c32 neg_t[] = {
        {0x3f800000, 0, 0, 0xbf800000}, {0x00000000, 0, 0, 0x80000000},
        {0x80000000, 0, 0, 0x00000000}, {0x00000001, 0, 0, 0x80000001},
        {0x7fc00000, 0, 0, 0x7fffffff},
    };
    check32(HDR_SM90, "neg.f32 %xd, %xa;", neg_t, G_N_ELEMENTS(neg_t));
    check32(HDR_SM90, "neg.ftz.f32 %xd, %xa;",
            (const c32[]){{0x00000001, 0, 0, 0x80000000}, {0x80400000, 0, 0, 0x00000000}}, 2);
    /* copysign d, a, b: |b| with the sign of a */
    check32(HDR_SM90, "copysign.f32 %xd, %xa, %xb;",
            (const c32[]){{0xbf800000, 0x40000000, 0, 0xc0000000},
                          {0x3f800000, 0xc0000000, 0, 0x40000000},
                          {0x80000000, 0x7fc00001, 0, 0xffc00001}},
            3);

    /* testp: 1.0 where the class holds */
    static const uint32_t vals[] = {0x00000000, 0x80000000, 0x3f800000, 0x00000001,
                                    0x807fffff, 0x7f800000, 0xff800000, 0x7fc00000,
                                    0xff800001, 0x7f7fffff};
    static const struct {
        const char *cls;
        uint32_t expect; /* bit i: vals[i] */
    } cls[] = {
        {"finite", 0x21f}, {"infinite", 0x060}, {"number", 0x27f},
        {"notanumber", 0x180}, {"normal", 0x207}, {"subnormal", 0x018},
    };
    for (unsigned k = 0; k < G_N_ELEMENTS(cls); k++) {
        c32 t[G_N_ELEMENTS(vals)];
        for (unsigned i = 0; i < G_N_ELEMENTS(vals); i++)
            t[i] = (c32){vals[i], 0, 0, (cls[k].expect >> i & 1) ? 0x3f800000u : 0u};
        char *body = g_strdup_printf("  testp.%s.f32 %%p1, %%xa;\n"
                                     "  mov.f32 %%xd, 0f00000000;\n"
                                     "  @%%p1 mov.f32 %%xd, 0f3F800000;",
                                     cls[k].cls);
        check32(HDR_SM90, body, t, G_N_ELEMENTS(vals));
        g_free(body);
    }
}

/* fma.rnd.f32.f16 / .f32.bf16: a and b are 16-bit values widened exactly. */
static void test_f32_mixed_fma(void **state)
{
    (void)state;
    static const char body16[] =
        "  mov.b32 {%h1, %h2}, %xa;\n"
        "  mov.b32 {%h3, %h4}, %xb;\n"
        "  fma.rn.f32.f16 %xd, %h1, %h3, %xc;";
    /* f16 1.5 * 2.5 + 0.25 = 4; 65504 * 65504 + 0 = 4290774016 exactly */
    check32(HDR_SM90, body16,
            (const c32[]){{0x3e00, 0x4100, 0x3e800000, 0x40800000},
                          {0x7bff, 0x7bff, 0x00000000, 0x4f7fc004},
                          {0x0001, 0x3c00, 0x00000000, 0x33800000}, /* 2^-24 */
                          {0x7e00, 0x3c00, 0x3f800000, 0x7fffffff}},
            4);
    static const char body16rz[] =
        "  mov.b32 {%h1, %h2}, %xa;\n"
        "  mov.b32 {%h3, %h4}, %xb;\n"
        "  fma.rz.sat.f32.f16 %xd, %h1, %h3, %xc;";
    check32(HDR_SM90, body16rz,
            (const c32[]){{0x3c00, 0x3c00, 0x3f000000, 0x3f800000},
                          {0x3800, 0x3800, 0x3e000000, 0x3ec00000}},
            2);
    static const char bodybf[] =
        "  mov.b32 {%h1, %h2}, %xa;\n"
        "  mov.b32 {%h3, %h4}, %xb;\n"
        "  fma.rn.f32.bf16 %xd, %h1, %h3, %xc;";
    /* bf16 3 * 5 + 1; (1+2^-7)^2 - 1 = 2^-6 + 2^-14 exactly */
    check32(HDR_SM90, bodybf,
            (const c32[]){{0x4040, 0x40a0, 0x3f800000, 0x41800000},
                          {0x3f81, 0x3f81, 0xbf800000, 0x3c808000}},
            2);
}

/* ============================================================ f64 tests */

static void test_f64(void **state)
{
    (void)state;
    const uint64_t ONE = 0x3ff0000000000000ull, TWO = 0x4000000000000000ull,
                   THREE = 0x4008000000000000ull, PINF = 0x7ff0000000000000ull,
                   NINF = 0xfff0000000000000ull, DNAN = 0xfff8000000000000ull,
                   F64_NZERO = 0x8000000000000000ull;
    static const uint64_t EPS53 = 0x3ca0000000000000ull; /* 2^-53 */
    c64 add[] = {
        {ONE, EPS53, 0, ONE},                                       /* tie to even */
        {0x3ff0000000000001ull, EPS53, 0, 0x3ff0000000000002ull},
        {PINF, NINF, 0, DNAN},                                      /* default NaN */
        {0x7ff0000000000123ull, ONE, 0, 0x7ff8000000000123ull},     /* payload, quieted */
        {ONE, 0xfff8000000000456ull, 0, 0xfff8000000000456ull},
        {F64_NZERO, F64_NZERO, 0, F64_NZERO},
        {ONE, 0xbff0000000000000ull, 0, 0},
        {0x0000000000000001ull, 0x0000000000000001ull, 0, 0x0000000000000002ull},
        {0x7fefffffffffffffull, 0x7fefffffffffffffull, 0, PINF},
    };
    check64("add.f64 %xd, %xa, %xb;", add, G_N_ELEMENTS(add));
    check64("add.rn.f64 %xd, %xa, %xb;", add, G_N_ELEMENTS(add));
    check64("add.rp.f64 %xd, %xa, %xb;",
            (c64[]){{ONE, EPS53, 0, 0x3ff0000000000001ull},
                    {0x7fefffffffffffffull, 0x7fefffffffffffffull, 0, PINF}},
            2);
    check64("add.rz.f64 %xd, %xa, %xb;",
            (c64[]){{0x7fefffffffffffffull, 0x7fefffffffffffffull, 0, 0x7fefffffffffffffull},
                    {ONE, EPS53, 0, ONE},
                    {0xbff0000000000000ull, 0xbca0000000000000ull, 0, 0xbff0000000000000ull}},
            3);
    check64("add.rm.f64 %xd, %xa, %xb;",
            (c64[]){{ONE, EPS53, 0, ONE},
                    {0xbff0000000000000ull, 0xbca0000000000000ull, 0, 0xbff0000000000001ull},
                    {ONE, 0xbff0000000000000ull, 0, F64_NZERO}},
            3);
    check64("add.rp.f64 %xd, %xa, %xb;",
            (c64[]){{0xbff0000000000000ull, 0xbca0000000000000ull, 0, 0xbff0000000000000ull}}, 1);
    check64("add.rn.f64 %xd, %xa, %xb;",
            (c64[]){{0xbff0000000000000ull, 0xbca0000000000000ull, 0, 0xbff0000000000000ull}}, 1);
    check64("sub.rm.f64 %xd, %xa, %xb;", (c64[]){{ONE, ONE, 0, F64_NZERO}}, 1);
    check64("mul.f64 %xd, %xa, %xb;",
            (c64[]){{THREE, TWO, 0, 0x4018000000000000ull}, {PINF, 0, 0, DNAN},
                    {F64_NZERO, THREE, 0, F64_NZERO}},
            3);
    /* fused: (1+2^-52)^2 - (1+2^-51) = 2^-104 */
    c64 fma_t[] = {
        {0x3ff0000000000001ull, 0x3ff0000000000001ull, 0xbff0000000000002ull,
         0x3970000000000000ull},
        {THREE, TWO, ONE, 0x401c000000000000ull},
        {PINF, 0, ONE, DNAN},
        {ONE, ONE, 0x7ff4000000000001ull, 0x7ffc000000000001ull},
    };
    check64("fma.rn.f64 %xd, %xa, %xb, %xc;", fma_t, G_N_ELEMENTS(fma_t));
    check64("mad.rn.f64 %xd, %xa, %xb, %xc;", fma_t, G_N_ELEMENTS(fma_t));
    check64("div.rn.f64 %xd, %xa, %xb;",
            (c64[]){{ONE, 0, 0, PINF}, {ONE, F64_NZERO, 0, NINF}, {0, 0, 0, DNAN},
                    {ONE, THREE, 0, 0x3fd5555555555555ull}, {F64_NZERO, THREE, 0, F64_NZERO}},
            5);
    check64("div.rp.f64 %xd, %xa, %xb;", (c64[]){{ONE, THREE, 0, 0x3fd5555555555556ull}}, 1);
    check64("sqrt.rn.f64 %xd, %xa;",
            (c64[]){{0xbff0000000000000ull, 0, 0, DNAN}, {F64_NZERO, 0, 0, F64_NZERO},
                    {PINF, 0, 0, PINF}, {0x4010000000000000ull, 0, 0, TWO},
                    {TWO, 0, 0, 0x3ff6a09e667f3bcdull}},
            5);
    check64("sqrt.rp.f64 %xd, %xa;", (c64[]){{TWO, 0, 0, 0x3ff6a09e667f3bcdull}}, 1);
    check64("sqrt.rm.f64 %xd, %xa;", (c64[]){{TWO, 0, 0, 0x3ff6a09e667f3bccull}}, 1);
    check64("rcp.rn.f64 %xd, %xa;",
            (c64[]){{THREE, 0, 0, 0x3fd5555555555555ull}, {F64_NZERO, 0, 0, NINF},
                    {PINF, 0, 0, 0}, {0x7ff8000000000077ull, 0, 0, 0x7ff8000000000077ull}},
            4);
    check64("rcp.rz.f64 %xd, %xa;", (c64[]){{THREE, 0, 0, 0x3fd5555555555555ull}}, 1);
    /* rcp.approx.ftz.f64 works on the upper word; the low word is zero */
    check64("rcp.approx.ftz.f64 %xd, %xa;",
            (c64[]){{TWO, 0, 0, 0x3fe0000000000000ull},
                    {0x4000000012345678ull, 0, 0, 0x3fe0000000000000ull},
                    {0x0000000100000000ull, 0, 0, PINF},   /* subnormal input flushed */
                    {0x7ff8000000000000ull, 0, 0, 0x7fffffff00000000ull}},
            4);
    check64("rsqrt.approx.f64 %xd, %xa;",
            (c64[]){{0x4010000000000000ull, 0, 0, 0x3fe0000000000000ull},
                    {0, 0, 0, PINF}, {PINF, 0, 0, 0}},
            3);
    check64("rsqrt.approx.ftz.f64 %xd, %xa;",
            (c64[]){{0x4010000000000000ull, 0, 0, 0x3fe0000000000000ull}}, 1);
    check64("min.f64 %xd, %xa, %xb;",
            (c64[]){{ONE, TWO, 0, ONE}, {DNAN, TWO, 0, TWO}, {F64_NZERO, 0, 0, F64_NZERO},
                    {0x7ff0000000000001ull, 0x7ff8000000000002ull, 0, 0x7ff8000000000001ull}},
            4);
    check64("max.f64 %xd, %xa, %xb;",
            (c64[]){{ONE, TWO, 0, TWO}, {ONE, DNAN, 0, ONE}, {F64_NZERO, 0, 0, 0}}, 3);
    /* abs/neg.f64 leave a NaN alone */
    check64("abs.f64 %xd, %xa;",
            (c64[]){{0xbff0000000000000ull, 0, 0, ONE}, {F64_NZERO, 0, 0, 0},
                    {0xfff8000000000001ull, 0, 0, 0xfff8000000000001ull}},
            3);
    check64("neg.f64 %xd, %xa;",
            (c64[]){{ONE, 0, 0, 0xbff0000000000000ull}, {0, 0, 0, F64_NZERO},
                    {0x7ff8000000000001ull, 0, 0, 0x7ff8000000000001ull}},
            3);
    check64("copysign.f64 %xd, %xa, %xb;", (c64[]){{F64_NZERO, THREE, 0, 0xc008000000000000ull}},
            1);
    check64("  testp.subnormal.f64 %p1, %xa;\n"
            "  mov.f64 %xd, 0d0000000000000000;\n"
            "  @%p1 mov.f64 %xd, 0d3FF0000000000000;",
            (c64[]){{1, 0, 0, ONE}, {0, 0, 0, 0}, {0x0010000000000000ull, 0, 0, 0},
                    {0x800fffffffffffffull, 0, 0, ONE}},
            4);
    check64("  testp.notanumber.f64 %p1, %xa;\n"
            "  mov.f64 %xd, 0d0000000000000000;\n"
            "  @%p1 mov.f64 %xd, 0d3FF0000000000000;",
            (c64[]){{DNAN, 0, 0, ONE}, {PINF, 0, 0, 0}, {ONE, 0, 0, 0}}, 3);

    /* random operands, every mode, against the host FPU in that mode */
    enum { N = 64 };
    uint64_t seed = 777, a[N], b[N], c[N], d[N];
    for (unsigned i = 0; i < N; i++) {
        a[i] = rand_f64(&seed, -200, 200);
        b[i] = rand_f64(&seed, -200, 200);
        c[i] = rand_f64(&seed, -200, 200);
    }
    a[0] = 0x000123456789abcdull, b[0] = 0x3fe0000000000001ull; /* subnormals */
    static const char ops[] = {'+', '-', '*', '/', 's', 'r', 'f'};
    static const char *const names[] = {"add", "sub", "mul", "div", "sqrt", "rcp", "fma"};
    for (unsigned o = 0; o < G_N_ELEMENTS(ops); o++) {
        for (unsigned m = 0; m < 4; m++) {
            uint64_t x[N];
            for (unsigned i = 0; i < N; i++)
                x[i] = ops[o] == 's' ? a[i] & ~F64_NZERO : a[i];
            char *body = ops[o] == 's' || ops[o] == 'r'
                             ? g_strdup_printf("%s.%s.f64 %%xd, %%xa;", names[o], rnd_names[m])
                         : ops[o] == 'f'
                             ? g_strdup_printf("fma.%s.f64 %%xd, %%xa, %%xb, %%xc;", rnd_names[m])
                             : g_strdup_printf("%s.%s.f64 %%xd, %%xa, %%xb;", names[o],
                                               rnd_names[m]);
            run(HDR_SM90, K_F64, body, x, b, c, d, N);
            for (unsigned i = 0; i < N; i++) {
                uint64_t want = host_f64(ops[o], x[i], b[i], c[i], rnd_fe[m]);
                if (d[i] != want)
                    fail_msg("%s lane %u -> %016llx, want %016llx", body, i,
                             (unsigned long long)d[i], (unsigned long long)want);
            }
            g_free(body);
        }
    }
}

/* ============================================================ legacy rules */

static void test_legacy_and_refusals(void **state)
{
    (void)state;
    /* sm_1x: single precision flushes subnormals; mad.f32 is fma.rn.ftz */
    static const char hdr13[] = ".version 1.4\n.target sm_13\n";
    check32(hdr13, "add.f32 %xd, %xa, %xb;",
            (const c32[]){{0x00400000, 0x00400000, 0, 0x00000000},
                          {0x3f800000, 0x40000000, 0, 0x40400000}},
            2);
    check32(hdr13, "mad.f32 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3f800001, 0x3f800001, 0xbf800002, 0x28800000},
                          {0x00400000, 0x4b000000, 0x00000000, 0x00000000}},
            2);
    /* ISA 1.0-1.3: div/sqrt.f32 without modifiers are .approx.ftz */
    static const char hdr12[] = ".version 1.2\n.target sm_13\n";
    check32(hdr12, "div.f32 %xd, %xa, %xb;",
            (const c32[]){{0x41000000, 0x40000000, 0, 0x40800000},
                          {0x00400000, 0x3f800000, 0, 0x00000000}},
            2);
    check32(hdr12, "sqrt.f32 %xd, %xa;", (const c32[]){{0x41100000, 0, 0, 0x40400000}}, 1);

    /* modern PTX: forms the manual does not define are refused at load */
    static const char *const bad[] = {
        "div.f32 %xd, %xa, %xb;",
        "sin.f32 %xd, %xa;",
        "fma.f32 %xd, %xa, %xb, %xc;",
        "min.rn.f32 %xd, %xa, %xb;",
        "min.xorsign.f32 %xd, %xa, %xb;",
        "tanh.approx.ftz.f32 %xd, %xa;",
        "rcp.approx.f64 %xd, %xa;",
        "sqrt.approx.f64 %xd, %xa;",
        "div.full.f64 %xd, %xa, %xb;",
        "add.sat.f64 %xd, %xa, %xb;",
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        uint64_t d[32];
        char *err = NULL;
        kind k = strstr(bad[i], "f64") ? K_F64 : K_F32;
        ptxemu_status s = try_run(HDR_SM90, k, bad[i], NULL, NULL, NULL, d, 4, &err);
        if (s != PTXEMU_ERR_UNSUPPORTED || !err || !strstr(err, "not supported"))
            fail_msg("'%s' was not refused (status %d: %s)", bad[i], (int)s, err ? err : "");
        g_free(err);
    }
}

/* ============================================================ half tests */

static void test_f16_arith(void **state)
{
    (void)state;
    static const c32 add[] = {
        {0x3c00, 0x1000, 0, 0x3c00}, /* 1 + 2^-11: tie to even */
        {0x3c01, 0x1000, 0, 0x3c02},
        {0x3c00, 0x3c00, 0, 0x4000},
        {0x7bff, 0x5000, 0, 0x7c00}, /* 65504 + 32 overflows */
        {0x7bff, 0x4800, 0, 0x7bff}, /* 65504 + 8 does not */
        {0x0001, 0x0001, 0, 0x0002}, /* subnormals */
        {0x8000, 0x8000, 0, 0x8000},
        {0x7c00, 0xfc00, 0, 0x7fff}, /* inf - inf: canonical NaN */
        {0x7e01, 0x3c00, 0, 0x7fff},
        {0x3c00, 0xbc00, 0, 0x0000},
    };
    check16(K_B16, "add.f16 %xd, %xa, %xb;", add, G_N_ELEMENTS(add));
    check16(K_B16, "add.rn.f16 %xd, %xa, %xb;", add, G_N_ELEMENTS(add));
    check16(K_B16, "add.ftz.f16 %xd, %xa, %xb;",
            (const c32[]){{0x0001, 0x0001, 0, 0x0000}, {0x0600, 0x8400, 0, 0x0000},
                          {0x3c00, 0x0200, 0, 0x3c00}},
            3);
    check16(K_B16, "add.sat.f16 %xd, %xa, %xb;",
            (const c32[]){{0x3c00, 0x3c00, 0, 0x3c00}, {0xbc00, 0x3800, 0, 0x0000},
                          {0x7e00, 0x3800, 0, 0x0000}, {0x3400, 0x3400, 0, 0x3800}},
            4);
    check16(K_B16, "add.rn.ftz.sat.f16 %xd, %xa, %xb;",
            (const c32[]){{0x8001, 0x0000, 0, 0x0000}, {0x3c00, 0x3800, 0, 0x3c00}}, 2);
    check16(K_B16, "sub.f16 %xd, %xa, %xb;",
            (const c32[]){{0x4200, 0x3c00, 0, 0x4000}, {0x0400, 0x0001, 0, 0x03ff},
                          {0x3c00, 0x3c00, 0, 0x0000}},
            3);
    check16(K_B16, "mul.f16 %xd, %xa, %xb;",
            (const c32[]){{0x3e00, 0x4000, 0, 0x4200}, /* 1.5 * 2 */
                          {0x3c01, 0x3c01, 0, 0x3c02}, /* (1+2^-10)^2 rounds down */
                          {0x0400, 0x3800, 0, 0x0200}, /* 2^-14 / 2: subnormal */
                          {0x7c00, 0x0000, 0, 0x7fff},
                          {0x5c00, 0x5c00, 0, 0x7c00}},
            5);
    check16(K_B16, "mul.ftz.f16 %xd, %xa, %xb;",
            (const c32[]){{0x0400, 0x3800, 0, 0x0000}, {0x8400, 0x3800, 0, 0x8000}}, 2);

    /* fma rounds once: reference in double (exact here) rounded by ref_half */
    enum { N = 64 };
    uint64_t seed = 5;
    c32 t[N];
    unsigned differ = 0;
    for (unsigned i = 0; i < N; i++) {
        uint16_t a = (uint16_t)(((rng_next(&seed) % 12 + 9) << 10) | (rng_next(&seed) & 0x3ff));
        uint16_t b = (uint16_t)(((rng_next(&seed) % 12 + 9) << 10) | (rng_next(&seed) & 0x3ff));
        uint16_t c = (uint16_t)(((rng_next(&seed) % 12 + 9) << 10) | (rng_next(&seed) & 0x3ff) |
                                (rng_next(&seed) & 0x8000));
        double exact = f16_val(a) * f16_val(b) + f16_val(c);
        t[i] = (c32){a, b, c, ref_half(exact, 0, 0)};
        uint16_t p = ref_half(f16_val(a) * f16_val(b), 0, 0);
        differ += ref_half(f16_val(p) + f16_val(c), 0, 0) != t[i].want;
    }
    check16(K_B16, "fma.rn.f16 %xd, %xa, %xb, %xc;", t, N);
    assert_true(differ >= 4);
    check16(K_B16, "fma.rn.f16 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3c01, 0x3c01, 0xbc02, 0x0010}, /* 2^-20: fused */
                          {0x7c00, 0x0000, 0x3c00, 0x7fff}},
            2);
    check16(K_B16, "fma.rn.relu.f16 %xd, %xa, %xb, %xc;",
            (const c32[]){{0xbc00, 0x4000, 0x3c00, 0x0000}, {0x3c00, 0x4000, 0x3c00, 0x4200},
                          {0x7c00, 0x0000, 0x3c00, 0x7fff}, {0x8000, 0x3c00, 0x8000, 0x0000}},
            4);
    check16(K_B16, "fma.rn.sat.f16 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3c00, 0x4000, 0x3c00, 0x3c00}, {0x3800, 0x3800, 0x0000, 0x3400},
                          {0x7c00, 0x0000, 0x3c00, 0x0000}},
            3);
    check16(K_B16, "fma.rn.ftz.f16 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x0200, 0x6400, 0x0000, 0x0000}, {0x3c00, 0x3c00, 0x0001, 0x3c00}}, 2);

    check16(K_B16, "neg.f16 %xd, %xa;",
            (const c32[]){{0x3c00, 0, 0, 0xbc00}, {0x0000, 0, 0, 0x8000},
                          {0x0001, 0, 0, 0x8001}, {0x7e00, 0, 0, 0x7fff}},
            4);
    check16(K_B16, "neg.ftz.f16 %xd, %xa;", (const c32[]){{0x0001, 0, 0, 0x8000}}, 1);
    check16(K_B16, "abs.f16 %xd, %xa;",
            (const c32[]){{0xbc00, 0, 0, 0x3c00}, {0x8001, 0, 0, 0x0001}}, 2);
    check16(K_B16, "abs.ftz.f16 %xd, %xa;", (const c32[]){{0x8001, 0, 0, 0x0000}}, 1);
    check16(K_B16, "min.f16 %xd, %xa, %xb;",
            (const c32[]){{0x3c00, 0x4000, 0, 0x3c00}, {0x7e00, 0x4000, 0, 0x4000},
                          {0x8000, 0x0000, 0, 0x8000}, {0x7e00, 0x7e00, 0, 0x7fff}},
            4);
    check16(K_B16, "max.NaN.f16 %xd, %xa, %xb;",
            (const c32[]){{0x3c00, 0x7e00, 0, 0x7fff}, {0x3c00, 0x4000, 0, 0x4000}}, 2);
    check16(K_B16, "max.ftz.f16 %xd, %xa, %xb;",
            (const c32[]){{0x0001, 0x8000, 0, 0x0000}}, 1);
    check16(K_B16, "min.xorsign.abs.f16 %xd, %xa, %xb;",
            (const c32[]){{0xc200, 0x4000, 0, 0xc000}}, 1);
}

static void test_f16x2_bf16(void **state)
{
    (void)state;
    /* element 0 in bits 15:0, element 1 in bits 31:16 */
    check16(K_B32, "add.f16x2 %xd, %xa, %xb;",
            (const c32[]){{0x3c003c01, 0x10001000, 0, 0x3c003c02},
                          {0x7bffc000, 0x50003c00, 0, 0x7c00bc00},
                          {0x7e000001, 0x3c000001, 0, 0x7fff0002}},
            3);
    check16(K_B32, "sub.ftz.f16x2 %xd, %xa, %xb;",
            (const c32[]){{0x06000400, 0x04000001, 0, 0x00000400}}, 1);
    check16(K_B32, "mul.f16x2 %xd, %xa, %xb;",
            (const c32[]){{0x3e004000, 0x40004200, 0, 0x42004600}}, 1);
    check16(K_B32, "fma.rn.f16x2 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3c013c00, 0x3c014000, 0xbc023c00, 0x00104200}}, 1);
    check16(K_B32, "fma.rn.relu.f16x2 %xd, %xa, %xb, %xc;",
            (const c32[]){{0xbc003c00, 0x40004000, 0x3c003c00, 0x00004200}}, 1);
    check16(K_B32, "min.NaN.f16x2 %xd, %xa, %xb;",
            (const c32[]){{0x7e003c00, 0x3c004000, 0, 0x7fff3c00}}, 1);
    check16(K_B32, "max.f16x2 %xd, %xa, %xb;",
            (const c32[]){{0x7e003c00, 0x3c004000, 0, 0x3c004000}}, 1);
    check16(K_B32, "neg.f16x2 %xd, %xa;", (const c32[]){{0x3c008000, 0, 0, 0xbc000000}}, 1);
    check16(K_B32, "abs.f16x2 %xd, %xa;", (const c32[]){{0xbc008001, 0, 0, 0x3c000001}}, 1);

    /* bf16: 8-bit exponent, 7-bit mantissa, no .ftz */
    check16(K_B16, "add.bf16 %xd, %xa, %xb;",
            (const c32[]){{0x3f80, 0x3b80, 0, 0x3f80}, /* 1 + 2^-8: tie to even */
                          {0x3f81, 0x3b80, 0, 0x3f82},
                          {0x0001, 0x0001, 0, 0x0002}, /* subnormals kept */
                          {0x7f7f, 0x7f7f, 0, 0x7f80},
                          {0x7f80, 0xff80, 0, 0x7fff}},
            5);
    check16(K_B16, "add.rn.bf16 %xd, %xa, %xb;", (const c32[]){{0x4040, 0x40a0, 0, 0x4100}}, 1);
    check16(K_B16, "sub.bf16 %xd, %xa, %xb;", (const c32[]){{0x40a0, 0x4040, 0, 0x4000}}, 1);
    check16(K_B16, "mul.bf16 %xd, %xa, %xb;",
            (const c32[]){{0x3fc0, 0x3f81, 0, 0x3fc2}, {0x4040, 0x40a0, 0, 0x4170}}, 2);
    /* (1+2^-7)^2 - (1+2^-6) = 2^-14, lost if the product were rounded */
    check16(K_B16, "fma.rn.bf16 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3f81, 0x3f81, 0xbf82, 0x3880}, {0xbf80, 0x4000, 0x3f80, 0xbf80}},
            2);
    check16(K_B16, "fma.rn.relu.bf16 %xd, %xa, %xb, %xc;",
            (const c32[]){{0xbf80, 0x4000, 0x3f80, 0x0000}, {0x7fc0, 0x4000, 0x3f80, 0x7fff}},
            2);
    check16(K_B32, "fma.rn.bf16x2 %xd, %xa, %xb, %xc;",
            (const c32[]){{0x3f813f80, 0x3f814000, 0xbf823f80, 0x38804040}}, 1);
    check16(K_B16, "max.bf16 %xd, %xa, %xb;",
            (const c32[]){{0x3f80, 0x4000, 0, 0x4000}, {0x7fc0, 0x4000, 0, 0x4000},
                          {0x8000, 0x0000, 0, 0x0000}},
            3);
    check16(K_B16, "min.NaN.bf16 %xd, %xa, %xb;", (const c32[]){{0x7fc0, 0x4000, 0, 0x7fff}}, 1);
    check16(K_B16, "neg.bf16 %xd, %xa;", (const c32[]){{0x3f80, 0, 0, 0xbf80}}, 1);
    check16(K_B32, "abs.bf16x2 %xd, %xa;", (const c32[]){{0xbf808001, 0, 0, 0x3f800001}}, 1);
    check16(K_B32, "add.bf16x2 %xd, %xa, %xb;",
            (const c32[]){{0x3f813f80, 0x3b803b80, 0, 0x3f823f80}}, 1);

    /* random bf16 add/mul against ref_half on the exact double result */
    enum { N = 64 };
    uint64_t seed = 31;
    c32 ta[N], tm[N];
    for (unsigned i = 0; i < N; i++) {
        uint16_t a = (uint16_t)((rng_next(&seed) & 0x8000) | ((rng_next(&seed) % 40 + 107) << 7) |
                                (rng_next(&seed) & 0x7f));
        uint16_t b = (uint16_t)((rng_next(&seed) & 0x8000) | ((rng_next(&seed) % 40 + 107) << 7) |
                                (rng_next(&seed) & 0x7f));
        ta[i] = (c32){a, b, 0, ref_half(bf16_val(a) + bf16_val(b), 1, 0)};
        tm[i] = (c32){a, b, 0, ref_half(bf16_val(a) * bf16_val(b), 1, 0)};
    }
    check16(K_B16, "add.bf16 %xd, %xa, %xb;", ta, N);
    check16(K_B16, "mul.bf16 %xd, %xa, %xb;", tm, N);

    /* approximations, within the manual's bounds */
    enum { M = 48 };
    uint16_t x16[M], y16[M];
    uint32_t x2[M], y2[M];
    for (unsigned i = 0; i < M; i++) {
        double v = -14.0 + 29.0 * i / (M - 1);
        x16[i] = ref_half(v, 0, 0);
        x2[i] = (uint32_t)ref_half(v / 4, 0, 0) << 16 | x16[i];
    }
    run(HDR_SM90, K_B16, "ex2.approx.f16 %xd, %xa;", x16, NULL, NULL, y16, M);
    run(HDR_SM90, K_B32, "ex2.approx.f16x2 %xd, %xa;", x2, NULL, NULL, y2, M);
    for (unsigned i = 0; i < M; i++) {
        double want = exp2(f16_val(x16[i]));
        assert_true(fabs(f16_val(y16[i]) - want) <= ldexp(1, -9.9) * want);
        assert_true((uint16_t)y2[i] == y16[i]);
        double want_hi = exp2(f16_val((uint16_t)(x2[i] >> 16)));
        assert_true(fabs(f16_val((uint16_t)(y2[i] >> 16)) - want_hi) <= ldexp(1, -9.9) * want_hi);
    }
    run(HDR_SM90, K_B16, "tanh.approx.f16 %xd, %xa;", x16, NULL, NULL, y16, M);
    for (unsigned i = 0; i < M; i++)
        assert_true(fabs(f16_val(y16[i]) - tanh(f16_val(x16[i]))) <= ldexp(1, -10.987));
    for (unsigned i = 0; i < M; i++)
        x16[i] = ref_half(-14.0 + 29.0 * i / (M - 1), 1, 0);
    run(HDR_SM90, K_B16, "ex2.approx.ftz.bf16 %xd, %xa;", x16, NULL, NULL, y16, M);
    for (unsigned i = 0; i < M; i++) {
        double want = exp2(bf16_val(x16[i]));
        assert_true(fabs(bf16_val(y16[i]) - want) <= ldexp(1, -7) * want);
    }
    run(HDR_SM90, K_B16, "tanh.approx.bf16 %xd, %xa;", x16, NULL, NULL, y16, M);
    for (unsigned i = 0; i < M; i++)
        assert_true(fabs(bf16_val(y16[i]) - tanh(bf16_val(x16[i]))) <= ldexp(1, -8));

    /* forms the manual does not define are refused */
    static const char *const bad[] = {
        "add.ftz.bf16 %xd, %xa, %xb;", "add.rz.f16 %xd, %xa, %xb;",
        "fma.rn.sat.relu.f16 %xd, %xa, %xb, %xc;", "ex2.approx.bf16 %xd, %xa;",
        "div.rn.f16 %xd, %xa, %xb;", "fma.f16 %xd, %xa, %xb, %xc;",
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        uint16_t d[8];
        char *err = NULL;
        ptxemu_status s = try_run(HDR_SM90, K_B16, bad[i], NULL, NULL, NULL, d, 4, &err);
        if (s != PTXEMU_ERR_UNSUPPORTED)
            fail_msg("'%s' was not refused (status %d: %s)", bad[i], (int)s, err ? err : "");
        g_free(err);
    }
}

/* ============================================================ corpus */

/* half_ops and double_ops of tests/corpus/cuda/half_double.cu, compiled by
 * nvcc for sm_80, against the same computation in C. */
static void test_corpus_half_double(void **state)
{
    (void)state;
    enum { N = 200 };
    char *ptx = test_read_file("tests/corpus/nvcc/half_double.sm_80.ptx", NULL);
    float in[N], out[N];
    double din[N], dout[N];
    uint64_t seed = 2024;
    for (int i = 0; i < N; i++) {
        double r = (double)(rng_next(&seed) % 2000001) / 1e4 - 100.0; /* [-100, 100] */
        in[i] = (float)(i % 7 == 0 ? r * 30 : i % 11 == 0 ? r * 1e-6 : r);
        din[i] = i % 5 == 0 ? r * 1e6 : r;
    }
    ptxemu_ctx *ctx = NULL;
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
    ptxemu_status s = ptxemu_module_load_string(ctx, ptx, "half_double.sm_80.ptx", &mod);
    if (s != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    ptxemu_dptr pin, pout, pdin, pdout;
    int n = N;
    assert_int_equal(ptxemu_malloc(ctx, &pin, sizeof in), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &pout, sizeof out), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &pdin, sizeof din), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &pdout, sizeof dout), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, pin, in, sizeof in), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, pdin, din, sizeof din), PTXEMU_OK);
    void *args[3] = {&pin, &pout, &n};
    ptxemu_dim3 grid = {(N + 63) / 64, 1, 1}, block = {64, 1, 1};
    s = ptxemu_launch(mod, "half_ops", grid, block, 0, args);
    if (s != PTXEMU_OK)
        fail_msg("half_ops: %s", ptxemu_last_error(ctx));
    void *dargs[3] = {&pdin, &pdout, &n};
    s = ptxemu_launch(mod, "double_ops", grid, block, 0, dargs);
    if (s != PTXEMU_OK)
        fail_msg("double_ops: %s", ptxemu_last_error(ctx));
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, out, pout, sizeof out), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, dout, pdout, sizeof dout), PTXEMU_OK);
    ptxemu_ctx_destroy(ctx);
    g_free(ptx);

    for (int i = 0; i < N; i++) {
        /* __float2half, __float2half_rz, __hadd, __hmul, __hfma (one
         * rounding), __int2half_rn, __halves2half2, __floats2half2_rn,
         * __hadd2, __hmul2, __half2float, __half2int_rz */
        uint16_t a = ref_half(in[i], 0, 0);
        uint16_t b = ref_half((double)(0.5f * in[i]), 0, 1);
        uint16_t sum = ref_half(f16_val(a) + f16_val(b), 0, 0);
        uint16_t p = ref_half(f16_val(a) * f16_val(b), 0, 0);
        uint16_t f = ref_half(f16_val(sum) * f16_val(p) + (double)(i & 15), 0, 0);
        uint16_t wlo = ref_half(1.25, 0, 0), whi = ref_half(-2.0, 0, 0);
        uint16_t xlo = ref_half(f16_val(a) + f16_val(wlo), 0, 0);
        uint16_t xhi = ref_half(f16_val(f) + f16_val(whi), 0, 0);
        xlo = ref_half(f16_val(xlo) * f16_val(wlo), 0, 0);
        xhi = ref_half(f16_val(xhi) * f16_val(whi), 0, 0);
        double sv = trunc(f16_val(sum));
        int si = isnan(sv) ? 0 : sv >= 2147483647.0 ? INT32_MAX : sv <= -2147483648.0 ? INT32_MIN
                                                                                       : (int)sv;
        volatile float acc = (float)f16_val(f);
        acc = acc + (float)f16_val(xlo);
        acc = acc + (float)f16_val(xhi);
        acc = acc + (float)si;
        if (isnan(acc) ? !isnan(out[i]) : fb(out[i]) != fb(acc))
            fail_msg("half_ops[%d] (in %a) = %a (%08x), want %a (%08x)", i, (double)in[i],
                     (double)out[i], fb(out[i]), (double)acc, fb(acc));

        double x = din[i], y = (double)i + 1.0;
        double fm = fma(x, y, 0.25);
        double q = fm / y;
        double r = sqrt(fabs(q) + 1.0);
        volatile double want = r + (double)(float)q;
        want = want + (double)(long long)x;
        if (db(dout[i]) != db(want))
            fail_msg("double_ops[%d] (in %a) = %a, want %a", i, x, dout[i], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_rn_tables),
        cmocka_unit_test(test_f32_directed_ties),
        cmocka_unit_test(test_f32_directed_random),
        cmocka_unit_test(test_f32_fma_single_rounding),
        cmocka_unit_test(test_f32_ftz_sat),
        cmocka_unit_test(test_f32_approx),
        cmocka_unit_test(test_f32_minmax_sign_testp),
        cmocka_unit_test(test_f32_mixed_fma),
        cmocka_unit_test(test_f64),
        cmocka_unit_test(test_legacy_and_refusals),
        cmocka_unit_test(test_f16_arith),
        cmocka_unit_test(test_f16x2_bf16),
        cmocka_unit_test(test_corpus_half_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
