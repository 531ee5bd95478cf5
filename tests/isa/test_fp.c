/* tests/isa/test_fp.c — f32/f64 semantics against independent references:
 * hand-worked bit patterns from the PTX manual / IEEE 754, the host FPU run
 * under fesetround (directed modes, volatile operands so nothing is folded),
 * and long double libm for the .approx accuracy bounds.
 *
 * Long because it is table-driven: one block of cases per operation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fenv.h>
#include <float.h>
#include <math.h>

#include "isa/fp.h"

/* Random cases per operation and mode (raise with -DFP_ITERS=... locally). */
#ifndef FP_ITERS
#define FP_ITERS 40000
#endif

/* ---- helpers ---- */

static uint32_t F(float f)
{
    return ptx_f32_bits(f);
}
static uint64_t D(double d)
{
    return ptx_f64_bits(d);
}
static float FF(uint32_t b)
{
    return ptx_f32_from_bits(b);
}

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Random f32 biased towards the interesting places. */
static uint32_t rand_f32(uint64_t *s)
{
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff,
        0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
        0x7fc00000, 0x7f800001, 0x3f800000, 0xbf800000, 0x33800000,
        0x34000000, 0x4b000000, 0x4b800000};
    uint64_t r = next_rand(s);
    uint32_t sign = (uint32_t)(r >> 63) << 31;
    switch (r & 7) {
    case 0:
        return (uint32_t)(r >> 32);
    case 1:
        return special[(r >> 8) % (sizeof special / sizeof special[0])];
    case 2:
        return sign | ((uint32_t)(r >> 32) & 0x7fffffu);
    case 3: /* near the bottom of the normal range */
        return sign | ((uint32_t)(1 + (r >> 8) % 40) << 23) |
               ((uint32_t)(r >> 32) & 0x7fffffu);
    case 4: /* short mantissas: exact ties are likely */
        return sign | ((uint32_t)(110 + (r >> 8) % 40) << 23) |
               ((uint32_t)(r >> 32) & 0x7f0000u);
    default:
        return sign | ((uint32_t)(112 + (r >> 8) % 32) << 23) |
               ((uint32_t)(r >> 32) & 0x7fffffu);
    }
}

static uint64_t rand_f64(uint64_t *s)
{
    static const uint64_t special[] = {
        0, UINT64_C(0x8000000000000000), 1, UINT64_C(0x000fffffffffffff),
        UINT64_C(0x0010000000000000), UINT64_C(0x7fefffffffffffff),
        UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000),
        UINT64_C(0x7ff8000000000000), UINT64_C(0x3ff0000000000000),
        UINT64_C(0x3ca0000000000000)};
    uint64_t r = next_rand(s), m = next_rand(s);
    uint64_t sign = r & (UINT64_C(1) << 63);
    switch (r & 7) {
    case 0:
        return m;
    case 1:
        return special[(r >> 8) % (sizeof special / sizeof special[0])];
    case 2:
        return sign | (m & UINT64_C(0x000fffffffffffff));
    case 3:
        return sign | ((uint64_t)(1 + (r >> 8) % 60) << 52) |
               (m & UINT64_C(0x000fffffffffffff));
    case 4:
        return sign | ((uint64_t)(1000 + (r >> 8) % 50) << 52) |
               (m & UINT64_C(0x000ff00000000000));
    default:
        return sign | ((uint64_t)(990 + (r >> 8) % 70) << 52) |
               (m & UINT64_C(0x000fffffffffffff));
    }
}

enum { R_ADD, R_SUB, R_MUL, R_DIV, R_FMA, R_SQRT, R_NOPS };

static const int host_mode[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                                FE_UPWARD};
static const ptx_rnd ptx_mode[] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM,
                                   PTX_RND_RP};

/* Host FPU reference under an explicit rounding mode. */
__attribute__((noinline)) static float host_f32(int op, float a, float b,
                                                float c, int mode)
{
    volatile float va = a, vb = b, vc = c, r;
    fesetround(mode);
    switch (op) {
    case R_ADD:
        r = va + vb;
        break;
    case R_SUB:
        r = va - vb;
        break;
    case R_MUL:
        r = va * vb;
        break;
    case R_DIV:
        r = va / vb;
        break;
    case R_FMA:
        r = fmaf(va, vb, vc);
        break;
    default:
        r = sqrtf(va);
        break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

__attribute__((noinline)) static double host_f64(int op, double a, double b,
                                                 double c, int mode)
{
    volatile double va = a, vb = b, vc = c, r;
    fesetround(mode);
    switch (op) {
    case R_ADD:
        r = va + vb;
        break;
    case R_SUB:
        r = va - vb;
        break;
    case R_MUL:
        r = va * vb;
        break;
    case R_DIV:
        r = va / vb;
        break;
    case R_FMA:
        r = fma(va, vb, vc);
        break;
    default:
        r = sqrt(va);
        break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

static uint32_t ptx_f32(int op, uint32_t a, uint32_t b, uint32_t c,
                        ptx_rnd rnd, unsigned flags)
{
    switch (op) {
    case R_ADD:
        return ptx_f32_add(a, b, rnd, flags);
    case R_SUB:
        return ptx_f32_sub(a, b, rnd, flags);
    case R_MUL:
        return ptx_f32_mul(a, b, rnd, flags);
    case R_DIV:
        return ptx_f32_div(a, b, rnd, flags);
    case R_FMA:
        return ptx_f32_fma(a, b, c, rnd, flags);
    default:
        return ptx_f32_sqrt(a, rnd, flags);
    }
}

static uint64_t ptx_f64(int op, uint64_t a, uint64_t b, uint64_t c,
                        ptx_rnd rnd)
{
    switch (op) {
    case R_ADD:
        return ptx_f64_add(a, b, rnd);
    case R_SUB:
        return ptx_f64_sub(a, b, rnd);
    case R_MUL:
        return ptx_f64_mul(a, b, rnd);
    case R_DIV:
        return ptx_f64_div(a, b, rnd);
    case R_FMA:
        return ptx_f64_fma(a, b, c, rnd);
    default:
        return ptx_f64_sqrt(a, rnd);
    }
}

/* ---- rounding of exact ties, every mode ---- */

static void test_f32_ties_every_mode(void **state)
{
    (void)state;
    const uint32_t one = 0x3f800000, one1 = 0x3f800001, one2 = 0x3f800002;
    const uint32_t half_ulp = 0x33800000;     /* 2^-24 */
    const uint32_t three_half = 0x34400000;   /* 3 * 2^-24 */
    /* 1 + 2^-24: exactly halfway between 1 and 1+ulp */
    assert_int_equal(ptx_f32_add(one, half_ulp, PTX_RND_RN, 0), one);
    assert_int_equal(ptx_f32_add(one, half_ulp, PTX_RND_NONE, 0), one);
    assert_int_equal(ptx_f32_add(one, half_ulp, PTX_RND_RZ, 0), one);
    assert_int_equal(ptx_f32_add(one, half_ulp, PTX_RND_RM, 0), one);
    assert_int_equal(ptx_f32_add(one, half_ulp, PTX_RND_RP, 0), one1);
    /* negative counterpart */
    uint32_t n = 0x80000000u;
    assert_int_equal(ptx_f32_add(one | n, half_ulp | n, PTX_RND_RN, 0), one | n);
    assert_int_equal(ptx_f32_add(one | n, half_ulp | n, PTX_RND_RZ, 0), one | n);
    assert_int_equal(ptx_f32_add(one | n, half_ulp | n, PTX_RND_RM, 0), one1 | n);
    assert_int_equal(ptx_f32_add(one | n, half_ulp | n, PTX_RND_RP, 0), one | n);
    /* 1 + 1.5 ulp: tie between odd 1+ulp and even 1+2ulp */
    assert_int_equal(ptx_f32_add(one, three_half, PTX_RND_RN, 0), one2);
    assert_int_equal(ptx_f32_add(one, three_half, PTX_RND_RZ, 0), one1);
    assert_int_equal(ptx_f32_add(one, three_half, PTX_RND_RM, 0), one1);
    assert_int_equal(ptx_f32_add(one, three_half, PTX_RND_RP, 0), one2);
    /* 1 - 2^-25 via sub: below 1, halfway between 1-ulp/2.. (ulp 2^-24) */
    assert_int_equal(ptx_f32_sub(one, 0x33000000, PTX_RND_RN, 0), one);
    assert_int_equal(ptx_f32_sub(one, 0x33000000, PTX_RND_RZ, 0), 0x3f7fffff);
    assert_int_equal(ptx_f32_sub(one, 0x33000000, PTX_RND_RP, 0), one);
    /* fma: 1*1 + 2^-24 behaves like the add */
    assert_int_equal(ptx_f32_fma(one, one, half_ulp, PTX_RND_RP, 0), one1);
    assert_int_equal(ptx_f32_fma(one, one, half_ulp, PTX_RND_RN, 0), one);
}

static void test_f64_ties_every_mode(void **state)
{
    (void)state;
    const uint64_t one = D(1.0), one1 = one + 1, half = D(0x1p-53);
    assert_true(ptx_f64_add(one, half, PTX_RND_RN) == one);
    assert_true(ptx_f64_add(one, half, PTX_RND_RZ) == one);
    assert_true(ptx_f64_add(one, half, PTX_RND_RM) == one);
    assert_true(ptx_f64_add(one, half, PTX_RND_RP) == one1);
    uint64_t n = UINT64_C(1) << 63;
    assert_true(ptx_f64_add(one | n, half | n, PTX_RND_RM) == (one1 | n));
    assert_true(ptx_f64_add(one | n, half | n, PTX_RND_RP) == (one | n));
    assert_true(ptx_f64_add(one | n, half | n, PTX_RND_RZ) == (one | n));
    /* 1/3 in every mode: rn and rz round down, rp rounds up */
    uint64_t third = D(1.0 / 3.0);
    assert_true(ptx_f64_div(one, D(3.0), PTX_RND_RZ) == third);
    assert_true(ptx_f64_div(one, D(3.0), PTX_RND_RM) == third);
    assert_true(ptx_f64_div(one, D(3.0), PTX_RND_RP) == third + 1);
    assert_true(ptx_f64_rcp(D(3.0), PTX_RND_RP) == third + 1);
    /* sqrt(2) rn rounds up (0x3ff6a09e667f3bcd), rz down */
    assert_true(ptx_f64_sqrt(D(2.0), PTX_RND_RN) ==
                UINT64_C(0x3ff6a09e667f3bcd));
    assert_true(ptx_f64_sqrt(D(2.0), PTX_RND_RZ) ==
                UINT64_C(0x3ff6a09e667f3bcc));
    assert_true(ptx_f64_sqrt(D(2.0), PTX_RND_RP) ==
                UINT64_C(0x3ff6a09e667f3bcd));
}

static void test_overflow_and_subnormal_rounding(void **state)
{
    (void)state;
    const uint32_t max = 0x7f7fffff, two = 0x40000000, inf = 0x7f800000;
    assert_int_equal(ptx_f32_mul(max, two, PTX_RND_RN, 0), inf);
    assert_int_equal(ptx_f32_mul(max, two, PTX_RND_RZ, 0), max);
    assert_int_equal(ptx_f32_mul(max, two, PTX_RND_RM, 0), max);
    assert_int_equal(ptx_f32_mul(max, two, PTX_RND_RP, 0), inf);
    assert_int_equal(ptx_f32_mul(max | 0x80000000u, two, PTX_RND_RM, 0),
                     inf | 0x80000000u);
    assert_int_equal(ptx_f32_mul(max | 0x80000000u, two, PTX_RND_RP, 0),
                     max | 0x80000000u);
    /* 2^-149 * 0.5: tie between 0 and the smallest subnormal */
    const uint32_t tiny = 0x00000001, half = 0x3f000000, onehalf = 0x3fc00000;
    assert_int_equal(ptx_f32_mul(tiny, half, PTX_RND_RN, 0), 0);
    assert_int_equal(ptx_f32_mul(tiny, half, PTX_RND_RZ, 0), 0);
    assert_int_equal(ptx_f32_mul(tiny, half, PTX_RND_RP, 0), 1);
    assert_int_equal(ptx_f32_mul(tiny | 0x80000000u, half, PTX_RND_RM, 0),
                     0x80000001u);
    /* 1.5 * 2^-149: tie between 1 and 2 units -> even 2 */
    assert_int_equal(ptx_f32_mul(tiny, onehalf, PTX_RND_RN, 0), 2);
    assert_int_equal(ptx_f32_mul(tiny, onehalf, PTX_RND_RZ, 0), 1);
    assert_int_equal(ptx_f32_mul(tiny, onehalf, PTX_RND_RM, 0), 1);
    assert_int_equal(ptx_f32_mul(tiny, onehalf, PTX_RND_RP, 0), 2);
    /* f64 overflow in directed modes */
    uint64_t dmax = UINT64_C(0x7fefffffffffffff);
    assert_true(ptx_f64_add(dmax, dmax, PTX_RND_RZ) == dmax);
    assert_true(ptx_f64_add(dmax, dmax, PTX_RND_RP) ==
                UINT64_C(0x7ff0000000000000));
    /* f64 smallest subnormal times 0.5 */
    assert_true(ptx_f64_mul(1, D(0.5), PTX_RND_RN) == 0);
    assert_true(ptx_f64_mul(1, D(0.5), PTX_RND_RP) == 1);
}

/* ---- differential tests against the host FPU ---- */

static void test_f32_all_modes_vs_host(void **state)
{
    (void)state;
    uint64_t s = 12345;
    for (int op = 0; op < R_NOPS; op++) {
        for (int m = 0; m < 4; m++) {
            for (int i = 0; i < FP_ITERS; i++) {
                uint32_t a = rand_f32(&s), b = rand_f32(&s), c = rand_f32(&s);
                if (op == R_SQRT && (i & 1))
                    a &= 0x7fffffffu;
                if (op == R_FMA && (i & 3) == 0) /* near-total cancellation */
                    c = F(-(FF(a) * FF(b))) + (c & 3);
                float ref = host_f32(op, FF(a), FF(b), FF(c), host_mode[m]);
                uint32_t got = ptx_f32(op, a, b, c, ptx_mode[m], 0);
                uint32_t want = isnan(ref) ? PTX_F32_CANON_NAN : F(ref);
                if (got != want)
                    fail_msg("op %d mode %d: %08x %08x %08x -> %08x want %08x",
                             op, m, a, b, c, got, want);
            }
        }
    }
}

static void test_f64_all_modes_vs_host(void **state)
{
    (void)state;
    uint64_t s = 777;
    for (int op = 0; op < R_NOPS; op++) {
        for (int m = 0; m < 4; m++) {
            for (int i = 0; i < FP_ITERS; i++) {
                uint64_t a = rand_f64(&s), b = rand_f64(&s), c = rand_f64(&s);
                if (op == R_SQRT && (i & 1))
                    a &= ~(UINT64_C(1) << 63);
                if (op == R_FMA && (i & 3) == 0) /* near-total cancellation */
                    c = D(-(ptx_f64_from_bits(a) * ptx_f64_from_bits(b))) +
                        (c & 3);
                double ref = host_f64(op, ptx_f64_from_bits(a),
                                      ptx_f64_from_bits(b),
                                      ptx_f64_from_bits(c), host_mode[m]);
                uint64_t got = ptx_f64(op, a, b, c, ptx_mode[m]);
                bool ok = isnan(ref) ? ptx_f64_isnan(got) : got == D(ref);
                if (!ok)
                    fail_msg("op %d mode %d: %016llx %016llx %016llx -> "
                             "%016llx want %016llx",
                             op, m, (unsigned long long)a,
                             (unsigned long long)b, (unsigned long long)c,
                             (unsigned long long)got,
                             (unsigned long long)D(ref));
            }
        }
    }
}

/* The soft-float core in .rn must agree with the host (fast path) too. */
static void test_softcore_rn_vs_host(void **state)
{
    (void)state;
    uint64_t s = 99;
    for (int i = 0; i < 100000; i++) {
        uint32_t a = rand_f32(&s), b = rand_f32(&s), c = rand_f32(&s);
        ptx_fpval va = ptx_fp_unpack(PTX_FMT_F32, a);
        ptx_fpval vb = ptx_fp_unpack(PTX_FMT_F32, b);
        ptx_fpval vc = ptx_fp_unpack(PTX_FMT_F32, c);
        uint32_t got = (uint32_t)ptx_fp_pack(
            PTX_FMT_F32, ptx_sf_fma(va, vb, vc, PTX_RND_RN), PTX_RND_RN, false);
        float ref = fmaf(FF(a), FF(b), FF(c));
        if (isnan(ref))
            assert_int_equal(got, PTX_F32_CANON_NAN);
        else if (got != F(ref))
            fail_msg("fma %08x %08x %08x -> %08x want %08x", a, b, c, got,
                     F(ref));
    }
}

/* ---- NaN rules ---- */

static void test_nan_results(void **state)
{
    (void)state;
    const uint32_t one = F(1.0f), inf = 0x7f800000;
    /* f32: every NaN result is canonical, whatever the payload */
    assert_int_equal(ptx_f32_add(0x7fc00123, one, PTX_RND_RN, 0),
                     PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_add(0xff800001, one, PTX_RND_RZ, 0),
                     PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_add(inf, inf | 0x80000000u, PTX_RND_RN, 0),
                     PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_mul(0, inf, PTX_RND_RP, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_fma(0, inf, one, PTX_RND_RN, 0),
                     PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_sqrt(F(-1.0f), PTX_RND_RN, 0), PTX_F32_CANON_NAN);
    /* f64: first NaN operand's payload, quieted */
    const uint64_t snan = UINT64_C(0x7ff0000000000001);
    const uint64_t qa = UINT64_C(0xfff8000000000abc);
    const uint64_t qb = UINT64_C(0x7ff8000000000def);
    const uint64_t d1 = D(1.0);
    for (int m = 0; m < 4; m++) {
        ptx_rnd r = ptx_mode[m];
        assert_true(ptx_f64_add(snan, d1, r) == UINT64_C(0x7ff8000000000001));
        assert_true(ptx_f64_add(d1, qb, r) == qb);
        assert_true(ptx_f64_add(qa, qb, r) == qa);
        assert_true(ptx_f64_sub(qb, qa, r) == qb);
        assert_true(ptx_f64_mul(d1, qa, r) == qa);
        assert_true(ptx_f64_fma(d1, d1, qb, r) == qb);
        assert_true(ptx_f64_fma(d1, qa, qb, r) == qa);
        assert_true(ptx_f64_div(qb, qa, r) == qb);
        assert_true(ptx_f64_sqrt(qa, r) == qa);
        assert_true(ptx_f64_rcp(snan, r) == UINT64_C(0x7ff8000000000001));
        /* invalid operations make the default NaN */
        assert_true(ptx_f64_add(D(INFINITY), D(-INFINITY), r) ==
                    PTX_F64_DEFAULT_NAN);
        assert_true(ptx_f64_div(0, 0, r) == PTX_F64_DEFAULT_NAN);
        assert_true(ptx_f64_sqrt(D(-2.0), r) == PTX_F64_DEFAULT_NAN);
        assert_true(ptx_f64_fma(D(INFINITY), 0, d1, r) == PTX_F64_DEFAULT_NAN);
    }
}

static void test_division_by_zero(void **state)
{
    (void)state;
    for (int m = 0; m < 4; m++) {
        ptx_rnd r = ptx_mode[m];
        assert_int_equal(ptx_f32_div(F(1.0f), 0, r, 0), 0x7f800000);
        assert_int_equal(ptx_f32_div(F(-1.0f), 0, r, 0), 0xff800000);
        assert_int_equal(ptx_f32_div(F(1.0f), 0x80000000u, r, 0), 0xff800000);
        assert_int_equal(ptx_f32_div(0, 0, r, 0), PTX_F32_CANON_NAN);
        assert_int_equal(ptx_f32_rcp(0x80000000u, r, 0), 0xff800000);
        assert_true(ptx_f64_div(D(2.0), 0, r) == D(INFINITY));
        assert_true(ptx_f64_rcp(D(-0.0), r) == D(-INFINITY));
    }
    /* rcp.rn of a subnormal overflows; with .ftz it is 1/0 */
    assert_int_equal(ptx_f32_rcp(1, PTX_RND_RN, 0), 0x7f800000);
    assert_int_equal(ptx_f32_rcp(0x80000001u, PTX_RND_RZ, PTX_FP_FTZ),
                     0xff800000);
    /* 0 * x sign rules and exact cancellation: -0 only under .rm */
    assert_int_equal(ptx_f32_sub(F(2.0f), F(2.0f), PTX_RND_RN, 0), 0);
    assert_int_equal(ptx_f32_sub(F(2.0f), F(2.0f), PTX_RND_RZ, 0), 0);
    assert_int_equal(ptx_f32_sub(F(2.0f), F(2.0f), PTX_RND_RM, 0), 0x80000000u);
    assert_int_equal(ptx_f32_add(0x80000000u, 0x80000000u, PTX_RND_RP, 0),
                     0x80000000u);
    assert_int_equal(ptx_f32_add(0x80000000u, 0, PTX_RND_RM, 0), 0x80000000u);
    assert_int_equal(ptx_f32_add(0x80000000u, 0, PTX_RND_RZ, 0), 0);
    assert_true(ptx_f64_fma(D(2.0), D(3.0), D(-6.0), PTX_RND_RM) ==
                D(-0.0));
    assert_true(ptx_f64_fma(D(2.0), D(3.0), D(-6.0), PTX_RND_RP) == D(0.0));
}

/* ---- .ftz and .sat ---- */

static void test_ftz(void **state)
{
    (void)state;
    const uint32_t sub = 0x00000010, nsub = 0x80000010;
    /* inputs flushed */
    assert_int_equal(ptx_f32_add(sub, sub, PTX_RND_RN, 0), 0x00000020);
    assert_int_equal(ptx_f32_add(sub, sub, PTX_RND_RN, PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f32_add(nsub, nsub, PTX_RND_RZ, PTX_FP_FTZ),
                     0x80000000u);
    assert_int_equal(ptx_f32_mul(sub, F(0x1p30f), PTX_RND_RN, PTX_FP_FTZ), 0);
    /* results flushed, sign kept: 2^-100 * 2^-30 = 2^-130 is subnormal */
    assert_int_equal(ptx_f32_mul(F(0x1p-100f), F(0x1p-30f), PTX_RND_RN, 0),
                     0x00080000);
    assert_int_equal(
        ptx_f32_mul(F(0x1p-100f), F(0x1p-30f), PTX_RND_RN, PTX_FP_FTZ), 0);
    assert_int_equal(
        ptx_f32_mul(F(-0x1p-100f), F(0x1p-30f), PTX_RND_RP, PTX_FP_FTZ),
        0x80000000u);
    assert_int_equal(ptx_f32_fma(F(0x1p-100f), F(0x1p-30f), 0, PTX_RND_RN,
                                 PTX_FP_FTZ),
                     0);
    assert_int_equal(ptx_f32_div(F(0x1p-120f), F(0x1p10f), PTX_RND_RN,
                                 PTX_FP_FTZ),
                     0);
    assert_int_equal(ptx_f32_sqrt(sub, PTX_RND_RN, PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f32_sqrt(nsub, PTX_RND_RN, PTX_FP_FTZ), 0x80000000u);
    assert_int_equal(ptx_f32_sqrt(nsub, PTX_RND_RN, 0), PTX_F32_CANON_NAN);
    /* normal values are untouched */
    assert_int_equal(ptx_f32_add(0x00800000, 0, PTX_RND_RN, PTX_FP_FTZ),
                     0x00800000);
}

static void test_sat(void **state)
{
    (void)state;
    const unsigned S = PTX_FP_SAT;
    assert_int_equal(ptx_f32_add(F(0.75f), F(0.5f), PTX_RND_RN, S), F(1.0f));
    assert_int_equal(ptx_f32_add(F(0.25f), F(0.25f), PTX_RND_RN, S), F(0.5f));
    assert_int_equal(ptx_f32_add(F(-0.5f), F(0.25f), PTX_RND_RN, S), 0);
    assert_int_equal(ptx_f32_add(0x80000000u, 0x80000000u, PTX_RND_RN, S), 0);
    assert_int_equal(ptx_f32_mul(0, F(INFINITY), PTX_RND_RN, S), 0);
    assert_int_equal(ptx_f32_mul(F(3.0f), F(INFINITY), PTX_RND_RZ, S), F(1.0f));
    assert_int_equal(ptx_f32_sub(F(1.0f), F(-1.0f), PTX_RND_RM, S), F(1.0f));
    assert_int_equal(ptx_f32_fma(F(0.5f), F(0.5f), F(0.25f), PTX_RND_RN, S),
                     F(0.5f));
    assert_int_equal(ptx_f32_fma(0x7fc00000, F(1.0f), F(0.25f), PTX_RND_RP, S),
                     0);
    assert_int_equal(ptx_f32_sat(0xffc00000u), 0);
    assert_true(ptx_f64_sat(D(NAN)) == 0 && ptx_f64_sat(D(2.0)) == D(1.0));
}

/* ---- min / max / abs / neg / copysign / testp ---- */

static void test_minmax(void **state)
{
    (void)state;
    const uint32_t pz = 0, nz = 0x80000000u, nan = 0x7fc00001;
    assert_int_equal(ptx_f32_min(pz, nz, 0), nz);
    assert_int_equal(ptx_f32_min(nz, pz, 0), nz);
    assert_int_equal(ptx_f32_max(nz, pz, 0), pz);
    assert_int_equal(ptx_f32_max(pz, nz, 0), pz);
    assert_int_equal(ptx_f32_min(F(-2.0f), F(1.0f), 0), F(-2.0f));
    assert_int_equal(ptx_f32_max(F(-2.0f), F(1.0f), 0), F(1.0f));
    assert_int_equal(ptx_f32_min(F(-INFINITY), F(1.0f), 0), F(-INFINITY));
    /* one NaN is ignored, two give the canonical NaN, .NaN propagates */
    assert_int_equal(ptx_f32_min(nan, F(3.0f), 0), F(3.0f));
    assert_int_equal(ptx_f32_max(F(3.0f), nan, 0), F(3.0f));
    assert_int_equal(ptx_f32_min(nan, 0xffc00000u, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_min(nan, F(3.0f), PTX_FP_NAN), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_max(F(3.0f), nan, PTX_FP_NAN), PTX_F32_CANON_NAN);
    /* .xorsign.abs: magnitude min/max, sign = xor of the input signs */
    const unsigned XA = PTX_FP_XORSIGN_ABS;
    assert_int_equal(ptx_f32_min(F(-3.0f), F(2.0f), XA), F(-2.0f));
    assert_int_equal(ptx_f32_max(F(-3.0f), F(2.0f), XA), F(-3.0f));
    assert_int_equal(ptx_f32_max(F(-3.0f), F(-2.0f), XA), F(3.0f));
    assert_int_equal(ptx_f32_min(F(-3.0f), nan, XA), F(-3.0f));
    assert_int_equal(ptx_f32_min(nan, nan, XA), PTX_F32_CANON_NAN);
    /* .ftz on min */
    assert_int_equal(ptx_f32_min(0x80000001u, F(1.0f), PTX_FP_FTZ), nz);
    assert_int_equal(ptx_f32_min(0x80000001u, F(1.0f), 0), 0x80000001u);
    /* three inputs, .abs */
    assert_int_equal(ptx_f32_max3(F(1.0f), F(-5.0f), F(2.0f), 0), F(2.0f));
    assert_int_equal(ptx_f32_max3(F(1.0f), F(-5.0f), F(2.0f), PTX_FP_ABS),
                     F(5.0f));
    assert_int_equal(ptx_f32_min3(nan, nan, F(7.0f), 0), F(7.0f));
    assert_int_equal(ptx_f32_min3(F(1.0f), nan, F(7.0f), PTX_FP_NAN),
                     PTX_F32_CANON_NAN);
    /* f64 */
    const uint64_t q1 = UINT64_C(0x7ff8000000000001);
    assert_true(ptx_f64_min(D(-0.0), D(0.0)) == D(-0.0));
    assert_true(ptx_f64_max(D(-0.0), D(0.0)) == D(0.0));
    assert_true(ptx_f64_min(q1, D(4.0)) == D(4.0));
    assert_true(ptx_f64_max(D(-1.0), D(-4.0)) == D(-1.0));
    assert_true(ptx_f64_min(q1, UINT64_C(0x7ff8000000000002)) == q1);
}

static void test_sign_ops(void **state)
{
    (void)state;
    assert_int_equal(ptx_f32_neg(F(2.0f), 0), F(-2.0f));
    assert_int_equal(ptx_f32_neg(0, 0), 0x80000000u);
    assert_int_equal(ptx_f32_abs(F(-2.0f), 0), F(2.0f));
    assert_int_equal(ptx_f32_abs(0xffc00001u, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_neg(0x7fc00001u, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_neg(0x00000001u, PTX_FP_FTZ), 0x80000000u);
    assert_int_equal(ptx_f32_abs(0x80000001u, PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f32_abs(0x80000001u, 0), 1);
    /* f64 abs/neg leave NaNs alone */
    const uint64_t nn = UINT64_C(0xfff0000000000005);
    assert_true(ptx_f64_abs(nn) == nn && ptx_f64_neg(nn) == nn);
    assert_true(ptx_f64_abs(D(-3.0)) == D(3.0));
    assert_true(ptx_f64_neg(D(3.0)) == D(-3.0));
    /* copysign d, a, b: sign from a, magnitude from b */
    assert_int_equal(ptx_f32_copysign(F(-1.0f), F(2.0f)), F(-2.0f));
    assert_int_equal(ptx_f32_copysign(F(1.0f), F(-2.0f)), F(2.0f));
    assert_true(ptx_f64_copysign(D(-0.0), D(5.0)) == D(-5.0));
}

static void test_testp(void **state)
{
    (void)state;
    struct {
        uint32_t v;
        bool fin, inf, num, nan, nor, sub;
    } c[] = {
        {0x00000000, 1, 0, 1, 0, 1, 0}, {0x80000000, 1, 0, 1, 0, 1, 0},
        {0x00000001, 1, 0, 1, 0, 0, 1}, {0x807fffff, 1, 0, 1, 0, 0, 1},
        {0x00800000, 1, 0, 1, 0, 1, 0}, {0x7f7fffff, 1, 0, 1, 0, 1, 0},
        {0x7f800000, 0, 1, 1, 0, 0, 0}, {0xff800000, 0, 1, 1, 0, 0, 0},
        {0x7fc00000, 0, 0, 0, 1, 0, 0}, {0xff800001, 0, 0, 0, 1, 0, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uint32_t v = c[i].v;
        assert_int_equal(ptx_f32_testp(PTX_TESTP_FINITE, v), c[i].fin);
        assert_int_equal(ptx_f32_testp(PTX_TESTP_INFINITE, v), c[i].inf);
        assert_int_equal(ptx_f32_testp(PTX_TESTP_NUMBER, v), c[i].num);
        assert_int_equal(ptx_f32_testp(PTX_TESTP_NOTANUMBER, v), c[i].nan);
        assert_int_equal(ptx_f32_testp(PTX_TESTP_NORMAL, v), c[i].nor);
        assert_int_equal(ptx_f32_testp(PTX_TESTP_SUBNORMAL, v), c[i].sub);
        /* the same value widened to f64 keeps its class, except that f32
         * subnormals are normal in f64 */
        uint64_t d = D((double)FF(v));
        if (c[i].nan)
            d = UINT64_C(0x7ff8000000000000);
        assert_int_equal(ptx_f64_testp(PTX_TESTP_NOTANUMBER, d), c[i].nan);
        assert_int_equal(ptx_f64_testp(PTX_TESTP_INFINITE, d), c[i].inf);
        assert_int_equal(ptx_f64_testp(PTX_TESTP_NORMAL, d),
                         c[i].nor || c[i].sub);
    }
    assert_true(ptx_f64_testp(PTX_TESTP_SUBNORMAL, 1));
    assert_false(ptx_f64_testp(PTX_TESTP_NORMAL, 1));
}

/* ---- .approx / .full against the manual's bounds ---- */

/* Distance in ulps of the f32 grid around ref (ulp of a normal f32 with
 * ref's exponent; subnormal spacing below). */
static long double ulps32(uint32_t got, long double ref)
{
    long double r = fabsl(ref);
    int e;
    frexpl(r, &e); /* r = m * 2^e, m in [0.5, 1) */
    if (e - 1 < -126)
        e = -125;
    long double ulp = ldexpl(1.0L, e - 1 - 23);
    return fabsl((long double)FF(got) - ref) / ulp;
}

static void test_approx_bounds(void **state)
{
    (void)state;
    uint64_t s = 4242;
    long double worst[8] = {0};
    for (int i = 0; i < 200000; i++) {
        uint32_t x = rand_f32(&s);
        if (ptx_f32_isnan(x) || (x & 0x7fffffffu) == 0x7f800000u)
            continue;
        long double lx = FF(x);
        uint32_t y = rand_f32(&s);
        long double ly = FF(y);

        /* ex2: 2 ulp */
        if (fabsl(lx) < 126) {
            long double e = ulps32(ptx_f32_ex2_approx(x, 0), exp2l(lx));
            if (e > worst[0])
                worst[0] = e;
        }
        /* lg2: 2^-22 absolute in (0.5, 2), relative elsewhere */
        if (lx > 0) {
            long double ref = log2l(lx);
            long double err = fabsl((long double)FF(ptx_f32_lg2_approx(x, 0)) -
                                    ref);
            if (!(lx > 0.5L && lx < 2.0L))
                err /= fabsl(ref);
            if (err > worst[1])
                worst[1] = err;
        }
        /* sin/cos: 2^-20.5 absolute on [-2pi, 2pi] */
        long double t = fmodl(lx, 4 * 3.14159265358979323846L);
        uint32_t tx = F((float)t);
        long double lt = FF(tx);
        long double es = fabsl((long double)FF(ptx_f32_sin_approx(tx, 0)) -
                               sinl(lt));
        long double ec = fabsl((long double)FF(ptx_f32_cos_approx(tx, 0)) -
                               cosl(lt));
        if (fabsl(lt) <= 2 * 3.14159265358979323846L) {
            if (es > worst[2])
                worst[2] = es;
            if (ec > worst[2])
                worst[2] = ec;
        }
        if (lx > 0) {
            /* rsqrt: relative 2^-22.9; sqrt: relative 2^-23; rcp: 1 ulp */
            long double rr = 1.0L / sqrtl(lx);
            long double er =
                fabsl((long double)FF(ptx_f32_rsqrt_approx(x, 0)) - rr) / rr;
            if (er > worst[3])
                worst[3] = er;
            long double sq = sqrtl(lx);
            long double eq =
                fabsl((long double)FF(ptx_f32_sqrt_approx(x, 0)) - sq) / sq;
            if (eq > worst[4])
                worst[4] = eq;
            if (lx > 0x1p-126L && lx < 0x1p126L) {
                long double eu = ulps32(ptx_f32_rcp_approx(x, 0), 1.0L / lx);
                if (eu > worst[5])
                    worst[5] = eu;
            }
        }
        /* tanh: relative 2^-11 */
        if (lx != 0) {
            long double th = tanhl(lx);
            long double et =
                fabsl((long double)FF(ptx_f32_tanh_approx(x)) - th) / fabsl(th);
            if (et > worst[6])
                worst[6] = et;
        }
        /* div.approx and div.full: 2 ulp, |b| in [2^-126, 2^126] */
        long double q = lx / ly;
        if (!ptx_f32_isnan(y) && fabsl(ly) >= 0x1p-126L &&
            fabsl(ly) <= 0x1p126L && fabsl(q) >= 0x1p-126L &&
            fabsl(q) < 0x1p127L) {
            long double e1 = ulps32(ptx_f32_div_approx(x, y, 0), q);
            long double e2 = ulps32(ptx_f32_div_full(x, y, 0), q);
            if (e1 > worst[7])
                worst[7] = e1;
            if (e2 > worst[7])
                worst[7] = e2;
        }
    }
    assert_true(worst[0] <= 2.0L);
    assert_true(worst[1] <= 0x1p-22L);
    assert_true(worst[2] <= powl(2.0L, -20.5L));
    assert_true(worst[3] <= powl(2.0L, -22.9L));
    assert_true(worst[4] <= 0x1p-23L);
    assert_true(worst[5] <= 1.0L);
    assert_true(worst[6] <= 0x1p-11L);
    assert_true(worst[7] <= 2.0L);
    /* sin/cos on [-100pi, 100pi]: 2^-14.7 absolute */
    for (int i = -3000; i <= 3000; i++) {
        float xv = (float)i * 0.1047f;
        long double lx2 = xv;
        assert_true(fabsl((long double)FF(ptx_f32_sin_approx(F(xv), 0)) -
                          sinl(lx2)) <= powl(2.0L, -14.7L));
        assert_true(fabsl((long double)FF(ptx_f32_cos_approx(F(xv), 0)) -
                          cosl(lx2)) <= powl(2.0L, -14.7L));
    }
}

static void test_approx_special_values(void **state)
{
    (void)state;
    const uint32_t pinf = 0x7f800000, ninf = 0xff800000, nz = 0x80000000u;
    /* tables from the manual */
    assert_int_equal(ptx_f32_ex2_approx(ninf, 0), 0);
    assert_int_equal(ptx_f32_ex2_approx(nz, 0), F(1.0f));
    assert_int_equal(ptx_f32_ex2_approx(pinf, 0), pinf);
    assert_int_equal(ptx_f32_ex2_approx(0x7fc00001, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_ex2_approx(F(-140.0f), 0), F(0x1p-140f));
    assert_int_equal(ptx_f32_ex2_approx(F(-140.0f), PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f32_lg2_approx(ninf, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_lg2_approx(F(-1.0f), 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_lg2_approx(nz, 0), ninf);
    assert_int_equal(ptx_f32_lg2_approx(0, 0), ninf);
    assert_int_equal(ptx_f32_lg2_approx(pinf, 0), pinf);
    assert_int_equal(ptx_f32_lg2_approx(1, 0), F(-149.0f));
    assert_int_equal(ptx_f32_lg2_approx(1, PTX_FP_FTZ), ninf);
    assert_int_equal(ptx_f32_sin_approx(nz, 0), nz);
    assert_int_equal(ptx_f32_sin_approx(pinf, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_cos_approx(nz, 0), F(1.0f));
    assert_int_equal(ptx_f32_cos_approx(ninf, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_rsqrt_approx(nz, 0), ninf);
    assert_int_equal(ptx_f32_rsqrt_approx(0, 0), pinf);
    assert_int_equal(ptx_f32_rsqrt_approx(pinf, 0), 0);
    assert_int_equal(ptx_f32_rsqrt_approx(F(-4.0f), 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_rsqrt_approx(F(4.0f), 0), F(0.5f));
    assert_int_equal(ptx_f32_sqrt_approx(nz, 0), nz);
    assert_int_equal(ptx_f32_sqrt_approx(ninf, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_rcp_approx(ninf, 0), nz);
    assert_int_equal(ptx_f32_rcp_approx(nz, 0), ninf);
    assert_int_equal(ptx_f32_tanh_approx(ninf), F(-1.0f));
    assert_int_equal(ptx_f32_tanh_approx(pinf), F(1.0f));
    assert_int_equal(ptx_f32_tanh_approx(nz), nz);
    assert_int_equal(ptx_f32_tanh_approx(0x80000003u), 0x80000003u);
    /* div.approx for 2^126 < |b| < 2^128: signed zero, or NaN for inf a */
    const uint32_t big = F(0x1.8p126f);
    assert_int_equal(ptx_f32_div_approx(F(3.0f), big, 0), 0);
    assert_int_equal(ptx_f32_div_approx(F(-3.0f), big, 0), nz);
    assert_int_equal(ptx_f32_div_approx(pinf, big, 0), PTX_F32_CANON_NAN);
    assert_int_equal(ptx_f32_div_full(F(3.0f), big, 0), F(3.0f / 0x1.8p126f));
    assert_int_equal(ptx_f32_div_approx(F(6.0f), F(3.0f), 0), F(2.0f));
    /* rcp/rsqrt.approx.ftz.f64: 1.11.20 result, low word zero */
    uint64_t r3 = ptx_f64_rcp_approx_ftz(D(3.0));
    assert_true((r3 & 0xffffffffu) == 0);
    assert_true(fabs(ptx_f64_from_bits(r3) * 3.0 - 1.0) <= 0x1p-20);
    uint64_t rs = ptx_f64_rsqrt_approx_ftz(D(2.0));
    assert_true((rs & 0xffffffffu) == 0);
    assert_true(fabs(ptx_f64_from_bits(rs) * sqrt(2.0) - 1.0) <= 0x1p-20);
    /* only the upper word of the input is used */
    assert_true(ptx_f64_rcp_approx_ftz(D(4.0) | 0xffffffffu) == D(0.25));
    /* an f64 NaN whose upper word alone reads as infinity gives 1/inf */
    assert_true(ptx_f64_rcp_approx_ftz(UINT64_C(0x7ff0000000000001)) == 0);
    assert_true(ptx_f64_rcp_approx_ftz(UINT64_C(0x7ff0000100000000)) ==
                PTX_F64_APPROX_NAN);
    assert_true(ptx_f64_rcp_approx_ftz(UINT64_C(0x8000000100000000)) ==
                D(-INFINITY)); /* -subnormal */
    assert_true(ptx_f64_rcp_approx_ftz(D(INFINITY)) == 0);
    assert_true(ptx_f64_rcp_approx_ftz(D(0x1p1023)) == 0); /* flushed */
    assert_true(ptx_f64_rsqrt_approx_ftz(D(-INFINITY)) == PTX_F64_APPROX_NAN);
    assert_true(ptx_f64_rsqrt_approx_ftz(D(-0.0)) == D(-INFINITY));
    assert_true(ptx_f64_rsqrt_approx_ftz(D(INFINITY)) == 0);
    assert_true(ptx_f64_rsqrt_approx(D(4.0)) == D(0.5));
    assert_true(ptx_f64_rsqrt_approx(D(-0.0)) == D(-INFINITY));
}

/* The double-based directed fma against the software core, every mode. */
static void test_f32_fma_directed(void **state)
{
    (void)state;
    static const ptx_rnd modes[] = {PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP};
    uint64_t s = 77;
    for (int i = 0; i < 600000; i++) {
        uint32_t a = rand_f32(&s), b = rand_f32(&s), c = rand_f32(&s);
        if (i % 4 == 1) /* cancellation: c near -(a*b) */
            c = ptx_f32_bits(-(FF(a) * FF(b))) ^ (uint32_t)(next_rand(&s) & 3);
        for (unsigned m = 0; m < 3; m++) {
            uint32_t want = ptx_f32_fma_slow(a, b, c, modes[m], 0);
            uint32_t got = ptx_f32_fma_directed(a, b, c, modes[m]);
            if (got != want)
                fail_msg("fma mode %u %08x*%08x+%08x: %08x want %08x", m, a, b, c, got, want);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_ties_every_mode),
        cmocka_unit_test(test_f64_ties_every_mode),
        cmocka_unit_test(test_overflow_and_subnormal_rounding),
        cmocka_unit_test(test_f32_all_modes_vs_host),
        cmocka_unit_test(test_f64_all_modes_vs_host),
        cmocka_unit_test(test_softcore_rn_vs_host),
        cmocka_unit_test(test_nan_results),
        cmocka_unit_test(test_division_by_zero),
        cmocka_unit_test(test_ftz),
        cmocka_unit_test(test_sat),
        cmocka_unit_test(test_minmax),
        cmocka_unit_test(test_sign_ops),
        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_approx_bounds),
        cmocka_unit_test(test_approx_special_values),
        cmocka_unit_test(test_f32_fma_directed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
