/* tests/isa/test_intops.c — integer, bit and logic instruction semantics,
 * checked against independent references (exact __int128 arithmetic,
 * bit-by-bit loops written from the ISA text) and hand-computed values.
 *
 * Long because it is table-driven: one block of cases per operation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "isa/intops.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* Deterministic inputs: splitmix64 plus a list of edge values. */
typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static const uint64_t edges[] = {
    0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x10000,
    0x7fffffff, 0x80000000, 0xffffffff, UINT64_C(0x100000000),
    UINT64_C(0x7fffffffffffffff), UINT64_C(0x8000000000000000),
    UINT64_C(0xffffffffffffffff), UINT64_C(0xfffffffffffffffe),
    UINT64_C(0xfffffffe), 0xfffe, UINT64_C(0x123456789abcdef0),
};
#define NEDGE (sizeof edges / sizeof edges[0])

/* The i-th test input: edges first, then random values, some truncated to
 * small magnitudes so that narrow widths see interesting values too. */
static uint64_t input(rng *r, unsigned i)
{
    if (i < NEDGE)
        return edges[i];
    uint64_t v = next(r);
    switch (next(r) & 3) {
    case 0: return v & 0xffff;
    case 1: return v | UINT64_C(0xffffffffffff0000);
    default: return v;
    }
}

#define N_RANDOM 3000
static const unsigned widths[] = {16, 32, 64};

static u128 mask128(unsigned bits)
{
    return bits >= 128 ? ~(u128)0 : ((u128)1 << bits) - 1;
}

/* Exact value of the low `bits` bits read as signed or unsigned. */
static i128 val(uint64_t v, unsigned bits, int sgn)
{
    u128 x = (u128)v & mask128(bits);
    if (sgn && (x >> (bits - 1)) & 1)
        return (i128)x - ((i128)1 << bits);
    return (i128)x;
}

/* Low `bits` bits of an exact value, as a register pattern. */
static uint64_t pat(u128 v, unsigned bits)
{
    return (uint64_t)(v & mask128(bits));
}

static i128 clamp128(i128 v, i128 lo, i128 hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- add / sub / mul / mad --------------------------------------------- */

static void test_add_sub_mul_random(void **state)
{
    (void)state;
    rng r = {1};
    for (unsigned w = 0; w < 3; w++) {
        unsigned n = widths[w];
        for (unsigned i = 0; i < N_RANDOM; i++) {
            uint64_t a = input(&r, i), b = input(&r, i * 7 % NEDGE + i);
            uint64_t c = next(&r);
            for (int sgn = 0; sgn < 2; sgn++) {
                i128 x = val(a, n, sgn), y = val(b, n, sgn);
                /* the product mod 2^128 holds every bit we look at */
                u128 p = (u128)x * (u128)y;
                assert_int_equal(ptx_int_add(a, b, n), pat(x + y, n));
                assert_int_equal(ptx_int_sub(a, b, n), pat(x - y, n));
                assert_int_equal(ptx_int_mul_lo(a, b, n), pat(p, n));
                assert_int_equal(ptx_int_mul_hi(a, b, n, sgn),
                                 (uint64_t)((p >> n) & mask128(n)));
                assert_int_equal(ptx_int_mad_lo(a, b, c, n), pat(p + val(c, n, 0), n));
                assert_int_equal(ptx_int_mad_hi(a, b, c, n, sgn),
                                 pat(((p >> n) & mask128(n)) + (u128)val(c, n, 0), n));
                if (n <= 32) {
                    assert_int_equal(ptx_int_mul_wide(a, b, n, sgn), pat(p, 2 * n));
                    assert_int_equal(ptx_int_mad_wide(a, b, c, n, sgn),
                                     pat(p + val(c, 2 * n, 0), 2 * n));
                }
                /* results are zero-extended above the width */
                assert_int_equal(ptx_int_add(a, b, n) & ~ptx_int_mask(n), 0);
            }
        }
    }
}

static void test_mul_examples(void **state)
{
    (void)state;
    /* mul.hi.s32 of -1 * 1 = all ones, mul.hi.u32 of 0xffffffff * 1 = 0 */
    assert_int_equal(ptx_int_mul_hi(0xffffffff, 1, 32, true), 0xffffffff);
    assert_int_equal(ptx_int_mul_hi(0xffffffff, 1, 32, false), 0);
    /* 64-bit .hi via 128-bit product */
    assert_int_equal(ptx_int_mul_hi(UINT64_C(0xffffffffffffffff),
                                UINT64_C(0xffffffffffffffff), 64, false),
                     UINT64_C(0xfffffffffffffffe));
    assert_int_equal(ptx_int_mul_hi(UINT64_C(0x8000000000000000),
                                UINT64_C(0x8000000000000000), 64, true),
                     UINT64_C(0x4000000000000000));
    assert_int_equal(ptx_int_mul_hi(UINT64_C(0x8000000000000000), 2, 64, true),
                     UINT64_C(0xffffffffffffffff));
    /* mul.wide.s16: -2 * 3 = -6 as 32 bits; .u16 of the same bits */
    assert_int_equal(ptx_int_mul_wide(0xfffe, 3, 16, true), 0xfffffffa);
    assert_int_equal(ptx_int_mul_wide(0xfffe, 3, 16, false), 0x2fffa);
    assert_int_equal(ptx_int_mul_wide(0x80000000, 0x80000000, 32, true),
                     UINT64_C(0x4000000000000000));
    /* mad.wide.s32 adds a 64-bit c */
    assert_int_equal(ptx_int_mad_wide(0xffffffff, 2, UINT64_C(0x100000000), 32, true),
                     UINT64_C(0xfffffffe));
}

static void test_sat(void **state)
{
    (void)state;
    rng r = {2};
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint32_t a = (uint32_t)input(&r, i), b = (uint32_t)next(&r);
        uint32_t c = (uint32_t)input(&r, (i * 5) % (NEDGE + 50));
        i128 x = val(a, 32, 1), y = val(b, 32, 1), z = val(c, 32, 1);
        i128 lo = INT32_MIN, hi = INT32_MAX;
        assert_int_equal(ptx_int_add_sat_s32(a, b), pat(clamp128(x + y, lo, hi), 32));
        assert_int_equal(ptx_int_sub_sat_s32(a, b), pat(clamp128(x - y, lo, hi), 32));
        i128 ph = (x * y) >> 32; /* floor: the signed high word */
        assert_int_equal(ptx_int_mad_hi_sat_s32(a, b, c),
                         pat(clamp128(ph + z, lo, hi), 32));
    }
    assert_int_equal(ptx_int_add_sat_s32(0x7fffffff, 1), 0x7fffffff);
    assert_int_equal(ptx_int_add_sat_s32(0x80000000, 0xffffffff), 0x80000000);
    assert_int_equal(ptx_int_sub_sat_s32(0x80000000, 1), 0x80000000);
    assert_int_equal(ptx_int_sub_sat_s32(0x7fffffff, 0xffffffff), 0x7fffffff);
    assert_int_equal(ptx_int_sub_sat_s32(0, 0x80000000), 0x7fffffff);
    assert_int_equal(ptx_int_add_sat_s32(5, 0xfffffffd), 2);
    /* hi(0x7fffffff^2) = 0x3fffffff; + 0x7fffffff overflows -> MAXINT */
    assert_int_equal(ptx_int_mad_hi_sat_s32(0x7fffffff, 0x7fffffff, 0x7fffffff),
                     0x7fffffff);
    assert_int_equal(ptx_int_mad_hi_sat_s32(0x80000000, 0x7fffffff, 0x80000000),
                     0x80000000);
}

static void test_16x2(void **state)
{
    (void)state;
    assert_int_equal(ptx_int_add_16x2(0xffff0001, 0x00020003), 0x00010004);
    assert_int_equal(ptx_int_add_16x2(0x7fff8000, 0x00018000), 0x80000000);
    /* min/max per half, signed and unsigned, relu */
    assert_int_equal(ptx_int_minmax_16x2(0x8000ffff, 0x00010001, false, true, false),
                     0x8000ffff);
    assert_int_equal(ptx_int_minmax_16x2(0x8000ffff, 0x00010001, false, false, false),
                     0x00010001);
    assert_int_equal(ptx_int_minmax_16x2(0x8000ffff, 0x00010001, true, true, false),
                     0x00010001);
    assert_int_equal(ptx_int_minmax_16x2(0x8000ffff, 0x00010001, true, false, false),
                     0x8000ffff);
    assert_int_equal(ptx_int_minmax_16x2(0x8000ffff, 0x00010005, false, true, true),
                     0x00000000);
    assert_int_equal(ptx_int_minmax_16x2(0x80000007, 0x00030005, false, true, true),
                     0x00000005);
    assert_int_equal(ptx_int_minmax_16x2(0x80000007, 0x8001fff0, true, true, true),
                     0x00000007);
}

static void test_mul24(void **state)
{
    (void)state;
    rng r = {3};
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint32_t a = (uint32_t)input(&r, i), b = (uint32_t)next(&r);
        uint32_t c = (uint32_t)next(&r);
        for (int sgn = 0; sgn < 2; sgn++) {
            i128 t = val(a, 24, sgn) * val(b, 24, sgn); /* 48-bit product */
            uint32_t lo = (uint32_t)pat(t, 32);
            uint32_t hi = (uint32_t)(((u128)t >> 16) & 0xffffffffu);
            assert_int_equal(ptx_int_mul24(a, b, false, sgn), lo);
            assert_int_equal(ptx_int_mul24(a, b, true, sgn), hi);
            assert_int_equal(ptx_int_mad24(a, b, c, false, sgn), (uint32_t)(lo + c));
            assert_int_equal(ptx_int_mad24(a, b, c, true, sgn), (uint32_t)(hi + c));
        }
        i128 hs = val(ptx_int_mul24(a, b, true, true), 32, 1);
        assert_int_equal(ptx_int_mad24_hi_sat_s32(a, b, c),
                         pat(clamp128(hs + val(c, 32, 1), INT32_MIN, INT32_MAX), 32));
    }
    /* upper 8 bits of the operands are ignored */
    assert_int_equal(ptx_int_mul24(0xff000002, 0xab000003, false, false), 6);
    /* 0xffffff * 0xffffff = 0xfffffe000001: .hi = bits 47..16 */
    assert_int_equal(ptx_int_mul24(0xffffff, 0xffffff, true, false), 0xfffffe00);
    assert_int_equal(ptx_int_mul24(0xffffff, 0xffffff, false, false), 0xfe000001);
    /* signed: -1 * -1 = 1; -1 * 2 = -2 -> .hi is all ones */
    assert_int_equal(ptx_int_mul24(0xffffff, 0xffffff, false, true), 1);
    assert_int_equal(ptx_int_mul24(0xffffff, 0xffffff, true, true), 0);
    assert_int_equal(ptx_int_mul24(0xffffff, 2, true, true), 0xffffffff);
    assert_int_equal(ptx_int_mul24(0x800000, 0x800000, true, true), 0x40000000);
}

static void test_sad(void **state)
{
    (void)state;
    rng r = {4};
    for (unsigned w = 0; w < 3; w++) {
        unsigned n = widths[w];
        for (unsigned i = 0; i < N_RANDOM; i++) {
            uint64_t a = input(&r, i), b = next(&r), c = next(&r);
            for (int sgn = 0; sgn < 2; sgn++) {
                i128 x = val(a, n, sgn), y = val(b, n, sgn);
                i128 d = x < y ? y - x : x - y;
                assert_int_equal(ptx_int_sad(a, b, c, n, sgn), pat(val(c, n, 0) + d, n));
            }
        }
    }
    assert_int_equal(ptx_int_sad(0xffffffff, 1, 10, 32, true), 12);
    /* unsigned: 0xfffffffe + 10 wraps to 8 */
    assert_int_equal(ptx_int_sad(0xffffffff, 1, 10, 32, false), 8);
}

/* ---- div / rem ---------------------------------------------------------- */

static void test_div_rem_random(void **state)
{
    (void)state;
    rng r = {5};
    for (unsigned w = 0; w < 3; w++) {
        unsigned n = widths[w];
        for (unsigned i = 0; i < N_RANDOM; i++) {
            uint64_t a = input(&r, i), b = input(&r, (i * 3) % (NEDGE + 40));
            if (i % 3 == 0)
                b &= 0xff; /* small divisors */
            for (int sgn = 0; sgn < 2; sgn++) {
                i128 x = val(a, n, sgn), y = val(b, n, sgn);
                if (y == 0)
                    continue;
                /* C division truncates toward zero, as PTX does; the
                 * i128 domain has no MIN/-1 overflow at these widths. */
                assert_int_equal(ptx_int_div(a, b, n, sgn), pat(x / y, n));
                assert_int_equal(ptx_int_rem(a, b, n, sgn), pat(x % y, n));
            }
        }
    }
}

static void test_div_rem_edges(void **state)
{
    (void)state;
    /* division by zero: our documented choice */
    for (unsigned w = 0; w < 3; w++) {
        unsigned n = widths[w];
        for (int sgn = 0; sgn < 2; sgn++) {
            assert_int_equal(ptx_int_div(12345, 0, n, sgn), ptx_int_mask(n));
            assert_int_equal(ptx_int_div(ptx_int_mask(n), 0, n, sgn), ptx_int_mask(n));
            assert_int_equal(ptx_int_rem(12345, 0, n, sgn), 12345);
            assert_int_equal(ptx_int_rem(ptx_int_mask(n), 0, n, sgn), ptx_int_mask(n));
            /* only the low bits of b count: b = 2^n is zero */
            if (n < 64)
                assert_int_equal(ptx_int_div(7, UINT64_C(1) << n, n, sgn), ptx_int_mask(n));
        }
    }
    /* MIN / -1 wraps to MIN with remainder 0 */
    assert_int_equal(ptx_int_div(0x80000000, 0xffffffff, 32, true), 0x80000000);
    assert_int_equal(ptx_int_rem(0x80000000, 0xffffffff, 32, true), 0);
    assert_int_equal(ptx_int_div(0x8000, 0xffff, 16, true), 0x8000);
    assert_int_equal(ptx_int_div(UINT64_C(0x8000000000000000), ~UINT64_C(0), 64, true),
                     UINT64_C(0x8000000000000000));
    assert_int_equal(ptx_int_rem(UINT64_C(0x8000000000000000), ~UINT64_C(0), 64, true), 0);
    /* truncation toward zero; remainder takes the dividend's sign */
    assert_int_equal(ptx_int_div((uint32_t)-7, 2, 32, true), (uint32_t)-3);
    assert_int_equal(ptx_int_rem((uint32_t)-7, 2, 32, true), (uint32_t)-1);
    assert_int_equal(ptx_int_div(7, (uint32_t)-2, 32, true), (uint32_t)-3);
    assert_int_equal(ptx_int_rem(7, (uint32_t)-2, 32, true), 1);
    assert_int_equal(ptx_int_div(0xfffffff9, 2, 32, false), 0x7ffffffc);
    assert_int_equal(ptx_int_rem(0xfffffff9, 2, 32, false), 1);
}

/* ---- abs / neg / min / max ---------------------------------------------- */

static void test_abs_neg_min_max(void **state)
{
    (void)state;
    rng r = {6};
    for (unsigned w = 0; w < 3; w++) {
        unsigned n = widths[w];
        for (unsigned i = 0; i < N_RANDOM; i++) {
            uint64_t a = input(&r, i), b = input(&r, (i * 11) % (NEDGE + 30));
            i128 xs = val(a, n, 1);
            assert_int_equal(ptx_int_abs(a, n), pat(xs < 0 ? -xs : xs, n));
            assert_int_equal(ptx_int_neg(a, n), pat(-xs, n));
            for (int sgn = 0; sgn < 2; sgn++) {
                i128 x = val(a, n, sgn), y = val(b, n, sgn);
                assert_int_equal(ptx_int_min(a, b, n, sgn), pat(x < y ? x : y, n));
                assert_int_equal(ptx_int_max(a, b, n, sgn), pat(x > y ? x : y, n));
            }
            if (n == 32) {
                i128 y = val(b, 32, 1);
                i128 mn = xs < y ? xs : y, mx = xs > y ? xs : y;
                assert_int_equal(ptx_int_min_relu_s32((uint32_t)a, (uint32_t)b),
                                 pat(mn < 0 ? 0 : mn, 32));
                assert_int_equal(ptx_int_max_relu_s32((uint32_t)a, (uint32_t)b),
                                 pat(mx < 0 ? 0 : mx, 32));
            }
        }
    }
    assert_int_equal(ptx_int_abs(0x80000000, 32), 0x80000000);
    assert_int_equal(ptx_int_abs(0x8000, 16), 0x8000);
    assert_int_equal(ptx_int_abs(0xffff, 16), 1);
    assert_int_equal(ptx_int_neg(1, 16), 0xffff);
    assert_int_equal(ptx_int_min(0xffffffff, 1, 32, true), 0xffffffff);
    assert_int_equal(ptx_int_min(0xffffffff, 1, 32, false), 1);
    assert_int_equal(ptx_int_min_relu_s32(0xffffffff, 5), 0);
    assert_int_equal(ptx_int_max_relu_s32(0xffffffff, 0xfffffffe), 0);
    assert_int_equal(ptx_int_max_relu_s32(0xffffffff, 3), 3);
}

/* ---- bit counting ------------------------------------------------------- */

static void test_popc_clz_bfind_brev(void **state)
{
    (void)state;
    rng r = {7};
    for (unsigned n = 32; n <= 64; n += 32) {
        for (unsigned i = 0; i < N_RANDOM; i++) {
            uint64_t a = input(&r, i);
            if (i % 5 == 0)
                a >>= next(&r) % 64; /* varied leading-zero counts */
            unsigned pc = 0, lz = 0;
            for (unsigned k = 0; k < n; k++)
                pc += (a >> k) & 1;
            while (lz < n && !((a >> (n - 1 - lz)) & 1))
                lz++;
            assert_int_equal(ptx_int_popc(a, n), pc);
            assert_int_equal(ptx_int_clz(a, n), lz);
            uint64_t rev = 0;
            for (unsigned k = 0; k < n; k++)
                rev |= ((a >> (n - 1 - k)) & 1) << k;
            assert_int_equal(ptx_int_brev(a, n), rev);
            for (int sgn = 0; sgn < 2; sgn++) {
                /* most significant bit that differs from the sign */
                unsigned sbit = sgn ? (a >> (n - 1)) & 1 : 0;
                uint32_t pos = 0xffffffffu;
                for (int k = (int)n - 1; k >= 0; k--) {
                    if (((a >> k) & 1) != sbit) {
                        pos = (uint32_t)k;
                        break;
                    }
                }
                assert_int_equal(ptx_int_bfind(a, n, sgn, false), pos);
                assert_int_equal(ptx_int_bfind(a, n, sgn, true),
                                 pos == 0xffffffffu ? pos : n - 1 - pos);
            }
        }
    }
    assert_int_equal(ptx_int_clz(0, 32), 32);
    assert_int_equal(ptx_int_clz(0, 64), 64);
    assert_int_equal(ptx_int_clz(UINT64_C(0xffffffff00000000), 32), 32);
    assert_int_equal(ptx_int_bfind(0, 32, false, false), 0xffffffff);
    assert_int_equal(ptx_int_bfind(0xffffffff, 32, true, false), 0xffffffff);
    assert_int_equal(ptx_int_bfind(0xffffffff, 32, true, true), 0xffffffff);
    assert_int_equal(ptx_int_bfind(0xffffffff, 32, false, false), 31);
    assert_int_equal(ptx_int_bfind(0xffffffff, 32, false, true), 0);
    assert_int_equal(ptx_int_bfind(1, 64, false, true), 63);
    assert_int_equal(ptx_int_bfind(0x80000000, 32, true, false), 30);
    assert_int_equal(ptx_int_brev(1, 32), 0x80000000);
    assert_int_equal(ptx_int_brev(0x12345678, 32), 0x1e6a2c48);
    assert_int_equal(ptx_int_popc(UINT64_C(0xffffffffffffffff), 32), 32);
}

/* ---- bfe / bfi / bmsk / szext / fns -------------------------------------- */

/* The ISA pseudo-code of bfe, transliterated bit by bit. */
static uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, unsigned bits, int sgn)
{
    unsigned msb = bits - 1, pos = b & 0xff, len = c & 0xff;
    unsigned sbit = 0;
    if (sgn && len != 0) {
        unsigned k = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (a >> k) & 1;
    }
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        unsigned bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= (uint64_t)bit << i;
    }
    return d;
}

static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, unsigned bits)
{
    unsigned msb = bits - 1, pos = c & 0xff, len = d & 0xff;
    uint64_t f = b & ptx_int_mask(bits);
    for (unsigned i = 0; i < len && pos + i <= msb; i++) {
        f &= ~(UINT64_C(1) << (pos + i));
        f |= ((a >> i) & 1) << (pos + i);
    }
    return f;
}

static void test_bfe_bfi(void **state)
{
    (void)state;
    rng r = {8};
    for (unsigned n = 32; n <= 64; n += 32) {
        for (unsigned i = 0; i < 150; i++) {
            uint64_t a = input(&r, i), b = next(&r);
            /* exhaustive-ish over positions and lengths incl. > width,
             * and with junk above bit 7 that must be ignored */
            for (uint32_t pos = 0; pos < 80; pos += 1 + (i % 3)) {
                for (uint32_t len = 0; len < 80; len += 1 + (i % 4)) {
                    uint32_t pj = pos | (uint32_t)(next(&r) & 0xffffff00u);
                    uint32_t lj = len | (i & 1 ? 0x300u : 0);
                    for (int sgn = 0; sgn < 2; sgn++)
                        assert_int_equal(ptx_int_bfe(a, pj, lj, n, sgn),
                                         ref_bfe(a, pj, lj, n, sgn));
                    assert_int_equal(ptx_int_bfi(a, b, pj, lj, n),
                                     ref_bfi(a, b, pj, lj, n));
                }
            }
            for (uint32_t pos = 200; pos < 256; pos += 13) {
                assert_int_equal(ptx_int_bfe(a, pos, 8, n, true), ref_bfe(a, pos, 8, n, 1));
                assert_int_equal(ptx_int_bfi(a, b, pos, 255, n), ptx_int_trunc(b, n));
            }
        }
    }
    /* hand examples */
    assert_int_equal(ptx_int_bfe(0x12345678, 8, 8, 32, false), 0x56);
    assert_int_equal(ptx_int_bfe(0x0000f000, 12, 4, 32, true), 0xffffffff);
    assert_int_equal(ptx_int_bfe(0x0000f000, 12, 4, 32, false), 0xf);
    assert_int_equal(ptx_int_bfe(0xffffffff, 4, 0, 32, true), 0);   /* len 0 */
    assert_int_equal(ptx_int_bfe(0x80000000, 40, 4, 32, true), 0xffffffff); /* pos > msb */
    assert_int_equal(ptx_int_bfe(0x80000000, 40, 4, 32, false), 0);
    assert_int_equal(ptx_int_bfe(0x7fffffff, 40, 4, 32, true), 0);
    /* field past the msb: sign is a[msb] */
    assert_int_equal(ptx_int_bfe(0x80000000, 28, 10, 32, true), 0xfffffff8);
    assert_int_equal(ptx_int_bfe(0x80000000, 28, 10, 32, false), 0x8);
    assert_int_equal(ptx_int_bfe(0x12345678, 0x108, 0x208, 32, false), 0x56); /* & 0xff */
    assert_int_equal(ptx_int_bfe(UINT64_C(0x8000000000000000), 60, 4, 64, true),
                     UINT64_C(0xfffffffffffffff8));
    assert_int_equal(ptx_int_bfi(0xab, 0x11111111, 8, 8, 32), 0x1111ab11);
    assert_int_equal(ptx_int_bfi(0xff, 0x11111111, 28, 8, 32), 0xf1111111);
    assert_int_equal(ptx_int_bfi(0xff, 0x11111111, 32, 8, 32), 0x11111111);
    assert_int_equal(ptx_int_bfi(0xff, 0x11111111, 4, 0, 32), 0x11111111);
    assert_int_equal(ptx_int_bfi(0xffffffff, 0, 0, 32, 32), 0xffffffff);
    assert_int_equal(ptx_int_bfi(1, 0, 63, 1, 64), UINT64_C(0x8000000000000000));
}

static void test_bmsk_szext_fns(void **state)
{
    (void)state;
    /* reference from the ISA description, not its pseudo-code */
    for (uint32_t a = 0; a < 70; a++) {
        for (uint32_t b = 0; b < 70; b++) {
            for (int clamp = 0; clamp < 2; clamp++) {
                uint32_t start = clamp ? a : (a & 31);
                uint32_t width = clamp ? (b > 32 ? 32 : b) : (b & 31);
                uint32_t m = 0;
                for (uint32_t k = start; k < 32 && k < start + width; k++)
                    m |= 1u << k;
                assert_int_equal(ptx_int_bmsk(a, b, clamp), m);

                uint32_t nb = clamp ? (b >= 32 ? 32 : b) : (b & 31);
                uint32_t x = 0x9abc8def ^ (a * 0x01010101u);
                for (int sgn = 0; sgn < 2; sgn++) {
                    uint32_t want;
                    if (nb == 0)
                        want = 0;
                    else if (nb == 32)
                        want = x;
                    else
                        want = (uint32_t)ptx_int_ext(x, nb, sgn);
                    assert_int_equal(ptx_int_szext(x, b, clamp, sgn), want);
                }
            }
        }
    }
    assert_int_equal(ptx_int_bmsk(1, 2, false), 0x6);   /* manual example */
    assert_int_equal(ptx_int_bmsk(0, 32, true), 0xffffffff);
    assert_int_equal(ptx_int_bmsk(0, 32, false), 0);
    assert_int_equal(ptx_int_bmsk(32, 4, true), 0);
    assert_int_equal(ptx_int_bmsk(32, 4, false), 0xf);
    assert_int_equal(ptx_int_bmsk(30, 8, true), 0xc0000000);
    assert_int_equal(ptx_int_bmsk(0xffffffff, 0xffffffff, true), 0);
    assert_int_equal(ptx_int_szext(0xffffffff, 0, false, false), 0); /* manual example */
    assert_int_equal(ptx_int_szext(0x80, 8, true, true), 0xffffff80);
    assert_int_equal(ptx_int_szext(0x180, 8, true, false), 0x80);
    assert_int_equal(ptx_int_szext(0x12345678, 40, true, true), 0x12345678);
    assert_int_equal(ptx_int_szext(0x12345678, 40, false, true), 0x78); /* 40&31 = 8 */

    /* manual examples */
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 3, 1), 3);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 3, -1), 3);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 2, 1), 3);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 2, -1), 1);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 2, 0), 0xffffffff);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 3, 0), 3);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 0, 16), 31);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 0, 17), 0xffffffff);
    assert_int_equal(ptx_int_fns(0xaaaaaaaa, 31, -16), 1);
    assert_int_equal(ptx_int_fns(0xffffffff, 5, INT32_MIN), 0xffffffff);
    assert_int_equal(ptx_int_fns(0xffffffff, 32, 1), 0xffffffff);
}

/* ---- dot products ------------------------------------------------------- */

static void test_dp4a_dp2a(void **state)
{
    (void)state;
    rng r = {9};
    for (unsigned i = 0; i < N_RANDOM; i++) {
        uint32_t a = (uint32_t)input(&r, i), b = (uint32_t)next(&r);
        uint32_t c = (uint32_t)next(&r);
        for (int as = 0; as < 2; as++) {
            for (int bs = 0; bs < 2; bs++) {
                i128 s = val(c, 32, as || bs);
                for (unsigned k = 0; k < 4; k++)
                    s += val(a >> (8 * k), 8, as) * val(b >> (8 * k), 8, bs);
                assert_int_equal(ptx_int_dp4a(a, b, c, as, bs), pat(s, 32));
                for (int hi = 0; hi < 2; hi++) {
                    i128 t = val(c, 32, as || bs);
                    for (unsigned k = 0; k < 2; k++)
                        t += val(a >> (16 * k), 16, as) *
                             val(b >> (8 * (k + 2 * hi)), 8, bs);
                    assert_int_equal(ptx_int_dp2a(a, b, c, as, bs, hi), pat(t, 32));
                }
            }
        }
    }
    /* bytes of a: 0x7f=127, 0x80=-128/128, 0x01=1, 0xff=-1/255 */
    uint32_t a = 0xff01807f, b = 0x02ff0102;
    /* b bytes: 0x02, 0x01, 0xff, 0x02 */
    /* s.s: 127*2 + -128*1 + 1*-1 + -1*2 = 254-128-1-2 = 123 */
    assert_int_equal(ptx_int_dp4a(a, b, 0, true, true), 123);
    /* u.u: 127*2 + 128*1 + 1*255 + 255*2 = 254+128+255+510 = 1147 */
    assert_int_equal(ptx_int_dp4a(a, b, 0, false, false), 1147);
    /* u.s: 254 + 128 - 1 + 510 = 891 */
    assert_int_equal(ptx_int_dp4a(a, b, 0, false, true), 891);
    /* s.u: 254 - 128 + 255 - 2 = 379; plus c = -400 -> -21 */
    assert_int_equal(ptx_int_dp4a(a, b, (uint32_t)-400, true, false), (uint32_t)-21);
    /* dp2a: a halves 0x807f (-32641 / 32895), 0xff01 (-255 / 65281) */
    /* .lo.s.s with b bytes 0x02, 0x01: -32641*2 + -255*1 = -65537 */
    assert_int_equal(ptx_int_dp2a(a, b, 0, true, true, false), (uint32_t)-65537);
    /* .hi.u.s with b bytes 0xff(-1), 0x02: -32895 + 130562 = 97667 */
    assert_int_equal(ptx_int_dp2a(a, b, 0, false, true, true), 97667);
}

/* ---- logic -------------------------------------------------------------- */

static void test_logic_lop3(void **state)
{
    (void)state;
    rng r = {10};
    for (unsigned i = 0; i < 200; i++) {
        uint32_t a = (uint32_t)next(&r), b = (uint32_t)next(&r), c = (uint32_t)next(&r);
        /* every LUT against a per-bit table lookup */
        for (uint32_t lut = 0; lut < 256; lut++) {
            uint32_t want = 0;
            for (unsigned k = 0; k < 32; k++) {
                unsigned idx = ((a >> k) & 1) << 2 | ((b >> k) & 1) << 1 | ((c >> k) & 1);
                want |= ((lut >> idx) & 1u) << k;
            }
            assert_int_equal(ptx_int_lop3(a, b, c, lut), want);
        }
        /* named formulas and their immLut = F(0xF0, 0xCC, 0xAA) */
        assert_int_equal(ptx_int_lop3(a, b, c, 0x80), a & b & c);
        assert_int_equal(ptx_int_lop3(a, b, c, 0xfe), a | b | c);
        assert_int_equal(ptx_int_lop3(a, b, c, 0x40), a & b & ~c);
        assert_int_equal(ptx_int_lop3(a, b, c, 0x1a), ((a & b) | c) ^ a);
        assert_int_equal(ptx_int_lop3(a, b, c, 0x96), a ^ b ^ c);
        assert_int_equal(ptx_int_lop3(a, b, c, 0xe8), (a & b) | (a & c) | (b & c));
        assert_int_equal(ptx_int_lop3(a, b, c, 0xca), (a & b) | (~a & c));
        assert_int_equal(ptx_int_lop3(a, b, c, 0xf0), a);
        assert_int_equal(ptx_int_lop3(a, b, c, 0x0f), ~a);
        assert_int_equal(ptx_int_lop3(a, b, c, 0), 0);
        assert_int_equal(ptx_int_lop3(a, b, c, 0xff), 0xffffffff);
    }
    assert_int_equal(ptx_int_and(0xff00ff, 0x0ff0f0, 16), 0x00f0);
    assert_int_equal(ptx_int_or(0xf0000, 0x1, 16), 0x1);
    assert_int_equal(ptx_int_xor(0xffff, 0x0f0f, 16), 0xf0f0);
    assert_int_equal(ptx_int_not(0, 32), 0xffffffff);
    assert_int_equal(ptx_int_not(0, 64), UINT64_C(0xffffffffffffffff));
    assert_int_equal(ptx_int_cnot(0, 32), 1);
    assert_int_equal(ptx_int_cnot(5, 32), 0);
    assert_int_equal(ptx_int_cnot(UINT64_C(0x100000000), 32), 1);
}

/* ---- shifts ------------------------------------------------------------- */

static void test_shifts(void **state)
{
    (void)state;
    rng r = {11};
    for (unsigned w = 0; w < 3; w++) {
        unsigned n = widths[w];
        for (unsigned i = 0; i < 300; i++) {
            uint64_t a = input(&r, i);
            uint32_t counts[] = {0, 1, n - 1, n, n + 1, 63, 64, 65, 255, 256,
                                 0x80000000u, 0xffffffffu, (uint32_t)(next(&r) % 70)};
            for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
                uint32_t s = counts[k];
                uint64_t l = 0, ru = 0, rs = 0;
                unsigned fill = (a >> (n - 1)) & 1;
                for (unsigned j = 0; j < n; j++) {
                    if (j >= s)
                        l |= ((a >> (j - s)) & 1) << j;
                    uint64_t src = (uint64_t)j + s;
                    uint64_t bu = src < n ? (a >> src) & 1 : 0;
                    uint64_t bs = src < n ? (a >> src) & 1 : fill;
                    ru |= bu << j;
                    rs |= bs << j;
                }
                assert_int_equal(ptx_int_shl(a, s, n), l);
                assert_int_equal(ptx_int_shr(a, s, n, false), ru);
                assert_int_equal(ptx_int_shr(a, s, n, true), rs);
            }
        }
    }
    assert_int_equal(ptx_int_shl(1, 32, 32), 0);
    assert_int_equal(ptx_int_shr(0x80000000, 32, 32, false), 0);
    assert_int_equal(ptx_int_shr(0x80000000, 32, 32, true), 0xffffffff);
    assert_int_equal(ptx_int_shr(0x80000000, 0xffffffff, 32, true), 0xffffffff);
    assert_int_equal(ptx_int_shr(0x7fffffff, 1000, 32, true), 0);
    assert_int_equal(ptx_int_shr(0x8000, 3, 16, true), 0xf000);
    assert_int_equal(ptx_int_shr(0x8000, 3, 16, false), 0x1000);
    assert_int_equal(ptx_int_shl(0x8001, 1, 16), 0x0002);
}

static void test_shf(void **state)
{
    (void)state;
    rng r = {12};
    for (unsigned i = 0; i < 2000; i++) {
        uint32_t a = (uint32_t)next(&r), b = (uint32_t)next(&r);
        uint32_t c = i < 100 ? i : (uint32_t)next(&r) >> (next(&r) % 32);
        for (int clamp = 0; clamp < 2; clamp++) {
            unsigned n = clamp ? (c < 32 ? c : 32) : (c & 31);
            uint32_t l = 0, rr = 0;
            for (unsigned j = 0; j < 32; j++) {
                unsigned li = j + 32 - n, ri = j + n; /* bits of {b:a} */
                uint32_t lb = li < 32 ? (a >> li) & 1 : (b >> (li - 32)) & 1;
                uint32_t rb = ri < 32 ? (a >> ri) & 1 : (b >> (ri - 32)) & 1;
                l |= lb << j;
                rr |= rb << j;
            }
            assert_int_equal(ptx_int_shf_l(a, b, c, clamp), l);
            assert_int_equal(ptx_int_shf_r(a, b, c, clamp), rr);
        }
        /* rotate when a == b */
        unsigned s = c & 31;
        uint32_t rotl = s ? (a << s) | (a >> (32 - s)) : a;
        uint32_t rotr = s ? (a >> s) | (a << (32 - s)) : a;
        assert_int_equal(ptx_int_shf_l(a, a, c, false), rotl);
        assert_int_equal(ptx_int_shf_r(a, a, c, false), rotr);
    }
    assert_int_equal(ptx_int_shf_l(0x89abcdef, 0x01234567, 32, true), 0x89abcdef);
    assert_int_equal(ptx_int_shf_r(0x89abcdef, 0x01234567, 32, true), 0x01234567);
    assert_int_equal(ptx_int_shf_l(0x89abcdef, 0x01234567, 32, false), 0x01234567);
    assert_int_equal(ptx_int_shf_r(0x89abcdef, 0x01234567, 36, false), 0x789abcde);
    assert_int_equal(ptx_int_shf_l(0x89abcdef, 0x01234567, 100, true), 0x89abcdef);
    assert_int_equal(ptx_int_shf_l(0x89abcdef, 0x01234567, 8, true), 0x23456789);
}

/* ---- prmt --------------------------------------------------------------- */

static void test_prmt(void **state)
{
    (void)state;
    /* {b, a}: b7..b0 = 88 77 66 55 | 44 33 22 11 */
    const uint32_t a = 0x44332211, b = 0x88776655;
    static const struct {
        ptx_prmt_mode mode;
        uint32_t want[4]; /* for c[1:0] = 0..3 */
    } tab[] = {
        {PTX_PRMT_F4E, {0x44332211, 0x55443322, 0x66554433, 0x77665544}},
        {PTX_PRMT_B4E, {0x66778811, 0x77881122, 0x88112233, 0x11223344}},
        {PTX_PRMT_RC8, {0x11111111, 0x22222222, 0x33333333, 0x44444444}},
        {PTX_PRMT_ECL, {0x44332211, 0x44332222, 0x44333333, 0x44444444}},
        {PTX_PRMT_ECR, {0x11111111, 0x22222211, 0x33332211, 0x44332211}},
        {PTX_PRMT_RC16, {0x22112211, 0x44334433, 0x22112211, 0x44334433}},
    };
    for (unsigned m = 0; m < sizeof tab / sizeof tab[0]; m++) {
        for (uint32_t s = 0; s < 4; s++) {
            assert_int_equal(ptx_int_prmt(a, b, s, tab[m].mode), tab[m].want[s]);
            /* only c[1:0] counts; no sign replication in moded forms */
            assert_int_equal(ptx_int_prmt(a, b, s | 0xfffffffc, tab[m].mode),
                             tab[m].want[s]);
        }
    }
    /* default mode */
    assert_int_equal(ptx_int_prmt(a, b, 0x3210, PTX_PRMT_DEFAULT), a);
    assert_int_equal(ptx_int_prmt(a, b, 0x7654, PTX_PRMT_DEFAULT), b);
    assert_int_equal(ptx_int_prmt(a, b, 0x0123, PTX_PRMT_DEFAULT), 0x11223344);
    assert_int_equal(ptx_int_prmt(a, b, 0x5140, PTX_PRMT_DEFAULT), 0x66225511);
    assert_int_equal(ptx_int_prmt(a, b, 0xabcd3210, PTX_PRMT_DEFAULT), a);
    /* sign replication: bit 3 of a selector copies the msb of the byte */
    assert_int_equal(ptx_int_prmt(a, b, 0x000f, PTX_PRMT_DEFAULT), 0x111111ff);
    assert_int_equal(ptx_int_prmt(a, b, 0x8888, PTX_PRMT_DEFAULT), 0x00000000);
    assert_int_equal(ptx_int_prmt(a, b, 0xf8e0, PTX_PRMT_DEFAULT), 0xff000011);
    assert_int_equal(ptx_int_prmt(0x00000080, 0, 0x8880, PTX_PRMT_DEFAULT), 0xffffff80);

    /* default mode against a byte-array reference on random data */
    rng r = {13};
    for (unsigned i = 0; i < 2000; i++) {
        uint32_t x = (uint32_t)next(&r), y = (uint32_t)next(&r), c = (uint32_t)next(&r);
        uint8_t bytes[8];
        for (unsigned k = 0; k < 4; k++) {
            bytes[k] = (uint8_t)(x >> (8 * k));
            bytes[k + 4] = (uint8_t)(y >> (8 * k));
        }
        uint32_t want = 0;
        for (unsigned k = 0; k < 4; k++) {
            unsigned sel = (c >> (4 * k)) & 0xf;
            uint8_t v = bytes[sel & 7];
            if (sel & 8)
                v = (v & 0x80) ? 0xff : 0x00;
            want |= (uint32_t)v << (8 * k);
        }
        assert_int_equal(ptx_int_prmt(x, y, c, PTX_PRMT_DEFAULT), want);
    }

    assert_int_equal(ptx_int_prmt_mode_from_name("f4e", 3), PTX_PRMT_F4E);
    assert_int_equal(ptx_int_prmt_mode_from_name("rc16", 4), PTX_PRMT_RC16);
    assert_int_equal(ptx_int_prmt_mode_from_name("rc1", 3), -1);
    assert_int_equal(ptx_int_prmt_mode_from_name("", 0), -1);
}

/* ---- carry chains ------------------------------------------------------- */

static void test_carry_chains(void **state)
{
    (void)state;
    rng r = {14};
    for (unsigned i = 0; i < N_RANDOM; i++) {
        u128 x = (u128)input(&r, i) << 64 | next(&r);
        u128 y = (u128)next(&r) << 64 | input(&r, (i * 13) % (NEDGE + 20));
        if (i % 4 == 0)
            y = 0 - x; /* long carry propagation */
        if (i % 4 == 1)
            y = x; /* long borrow propagation with borrow-in */
        if (i % 4 == 2)
            y = ~x;

        /* 4 x 32-bit: add.cc, addc.cc, addc.cc, addc(.cc) */
        u128 s = 0, d = 0;
        bool cf = false;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t xa = (uint64_t)(x >> (32 * k)) & 0xffffffff;
            uint64_t ya = (uint64_t)(y >> (32 * k)) & 0xffffffff;
            ptx_int_cc v = ptx_int_addc(xa, ya, k ? cf : false, 32);
            s |= (u128)v.v << (32 * k);
            cf = v.cf;
        }
        assert_true(s == x + y);
        assert_int_equal(cf, (x + y) < x); /* carry out of bit 127 */

        /* 4 x 32-bit subtraction: sub.cc, subc.cc ... */
        cf = false;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t xa = (uint64_t)(x >> (32 * k)) & 0xffffffff;
            uint64_t ya = (uint64_t)(y >> (32 * k)) & 0xffffffff;
            ptx_int_cc v = ptx_int_subc(xa, ya, k ? cf : false, 32);
            d |= (u128)v.v << (32 * k);
            cf = v.cf;
        }
        assert_true(d == x - y);
        assert_int_equal(cf, x < y); /* final borrow */

        /* 2 x 64-bit */
        ptx_int_cc lo = ptx_int_addc((uint64_t)x, (uint64_t)y, false, 64);
        ptx_int_cc hi = ptx_int_addc((uint64_t)(x >> 64), (uint64_t)(y >> 64), lo.cf, 64);
        assert_true(((u128)hi.v << 64 | lo.v) == x + y);
        assert_int_equal(hi.cf, (x + y) < x);
        lo = ptx_int_subc((uint64_t)x, (uint64_t)y, false, 64);
        hi = ptx_int_subc((uint64_t)(x >> 64), (uint64_t)(y >> 64), lo.cf, 64);
        assert_true(((u128)hi.v << 64 | lo.v) == x - y);
        assert_int_equal(hi.cf, x < y);

        /* the manual's 64x64 -> 128 multiply from 32-bit mad.cc/madc */
        uint32_t r4 = (uint32_t)x, r5 = (uint32_t)(x >> 32);
        uint32_t r6 = (uint32_t)y, r7 = (uint32_t)(y >> 32);
        uint64_t r0 = ptx_int_mul_lo(r4, r6, 32);
        uint64_t r1 = ptx_int_mul_hi(r4, r6, 32, false);
        ptx_int_cc v = ptx_int_madc(r5, r6, r1, false, 32, false, false);
        r1 = v.v;
        uint64_t r2 = ptx_int_madc(r5, r6, 0, v.cf, 32, true, false).v;
        v = ptx_int_madc(r4, r7, r1, false, 32, false, false);
        r1 = v.v;
        v = ptx_int_madc(r4, r7, r2, v.cf, 32, true, false);
        r2 = v.v;
        uint64_t r3 = ptx_int_addc(0, 0, v.cf, 32).v;
        v = ptx_int_madc(r5, r7, r2, false, 32, false, false);
        r2 = v.v;
        r3 = ptx_int_madc(r5, r7, r3, v.cf, 32, true, false).v;
        u128 prod = (u128)(uint64_t)x * (uint64_t)y;
        assert_true(((u128)r3 << 96 | (u128)r2 << 64 | (u128)r1 << 32 | r0) == prod);

        /* 64-bit mad.hi.cc: high half plus c plus carry */
        uint64_t p = next(&r), q = next(&r), cc = next(&r);
        for (int sgn = 0; sgn < 2; sgn++) {
            for (int cin = 0; cin < 2; cin++) {
                u128 t = sgn ? (u128)((i128)(int64_t)p * (int64_t)q) : (u128)p * q;
                uint64_t h = (uint64_t)(t >> 64);
                u128 sum = (u128)h + cc + (unsigned)cin;
                ptx_int_cc m = ptx_int_madc(p, q, cc, cin, 64, true, sgn);
                assert_int_equal(m.v, (uint64_t)sum);
                assert_int_equal(m.cf, (bool)(sum >> 64));
                u128 sl = (u128)(uint64_t)t + cc + (unsigned)cin;
                m = ptx_int_madc(p, q, cc, cin, 64, false, sgn);
                assert_int_equal(m.v, (uint64_t)sl);
                assert_int_equal(m.cf, (bool)(sl >> 64));
            }
        }
    }
    /* borrow convention: CC.CF = 1 means a borrow happened */
    ptx_int_cc v = ptx_int_subc(0, 1, false, 32);
    assert_int_equal(v.v, 0xffffffff);
    assert_true(v.cf);
    v = ptx_int_subc(5, 5, true, 32);
    assert_int_equal(v.v, 0xffffffff);
    assert_true(v.cf);
    v = ptx_int_subc(5, 4, true, 32);
    assert_int_equal(v.v, 0);
    assert_false(v.cf);
    v = ptx_int_subc(0, 0xffffffff, true, 32);
    assert_int_equal(v.v, 0);
    assert_true(v.cf);
    v = ptx_int_addc(0xffffffff, 0, true, 32);
    assert_int_equal(v.v, 0);
    assert_true(v.cf);
    v = ptx_int_addc(~UINT64_C(0), ~UINT64_C(0), true, 64);
    assert_int_equal(v.v, ~UINT64_C(0));
    assert_true(v.cf);
    v = ptx_int_addc(0xfffffffe, 0, true, 32);
    assert_int_equal(v.v, 0xffffffff);
    assert_false(v.cf);
    /* mad.lo.cc.s32: carry is the unsigned carry of the addition */
    v = ptx_int_madc(0xffffffff, 1, 1, false, 32, false, true); /* -1*1 + 1 */
    assert_int_equal(v.v, 0);
    assert_true(v.cf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub_mul_random),
        cmocka_unit_test(test_mul_examples),
        cmocka_unit_test(test_sat),
        cmocka_unit_test(test_16x2),
        cmocka_unit_test(test_mul24),
        cmocka_unit_test(test_sad),
        cmocka_unit_test(test_div_rem_random),
        cmocka_unit_test(test_div_rem_edges),
        cmocka_unit_test(test_abs_neg_min_max),
        cmocka_unit_test(test_popc_clz_bfind_brev),
        cmocka_unit_test(test_bfe_bfi),
        cmocka_unit_test(test_bmsk_szext_fns),
        cmocka_unit_test(test_dp4a_dp2a),
        cmocka_unit_test(test_logic_lop3),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_shf),
        cmocka_unit_test(test_prmt),
        cmocka_unit_test(test_carry_chains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
