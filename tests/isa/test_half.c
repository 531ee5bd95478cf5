/* tests/isa/test_half.c — f16/bf16 conversions and arithmetic against
 * independent references: the compiler's _Float16 (libgcc soft-fp, which
 * honours the host rounding mode), the host FPU under fesetround with the
 * inexact flag (round-to-odd references for fma), the textbook bf16
 * rounding formulas, and long double libm for the .approx bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fenv.h>
#include <math.h>
#include <string.h>

#include "isa/half.h"

static uint32_t F(float f)
{
    return ptx_f32_bits(f);
}
static float FF(uint32_t b)
{
    return ptx_f32_from_bits(b);
}
static uint16_t H(_Float16 h)
{
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
}
static _Float16 HH(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, 2);
    return h;
}

static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static const int host_mode[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                                FE_UPWARD};
static const ptx_rnd ptx_mode[] = {PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM,
                                   PTX_RND_RP};

__attribute__((noinline)) static uint16_t host_f32_to_f16(uint32_t f,
                                                          int mode)
{
    volatile float v = FF(f);
    volatile _Float16 r;
    fesetround(mode);
    r = (_Float16)v;
    fesetround(FE_TONEAREST);
    return H(r);
}

__attribute__((noinline)) static uint16_t host_f64_to_f16(double d,
                                                          int mode)
{
    volatile double v = d;
    volatile _Float16 r;
    fesetround(mode);
    r = (_Float16)v;
    fesetround(FE_TONEAREST);
    return H(r);
}

/* Round-to-odd x*y+z in double (x*y exact): RZ sum, LSB set if inexact. */
__attribute__((noinline)) static double ro_fma_double(double x, double y,
                                                      double z)
{
    volatile double p = x * y, vz = z, s;
    feclearexcept(FE_INEXACT);
    fesetround(FE_TOWARDZERO);
    s = p + vz;
    fesetround(FE_TONEAREST);
    double r = s;
    if (fetestexcept(FE_INEXACT) && isfinite(r)) {
        uint64_t b = ptx_f64_bits(r);
        r = ptx_f64_from_bits(b | 1);
    }
    return r;
}

/* Round-to-odd fmaf in float precision. */
__attribute__((noinline)) static float ro_fma_float(float x, float y, float z)
{
    volatile float vx = x, vy = y, vz = z, s;
    feclearexcept(FE_INEXACT);
    fesetround(FE_TOWARDZERO);
    s = fmaf(vx, vy, vz);
    fesetround(FE_TONEAREST);
    float r = s;
    if (fetestexcept(FE_INEXACT) && isfinite(r))
        r = FF(F(r) | 1);
    return r;
}

/* Textbook bf16 rounding of f32 bits (independent of ptx_fp_pack). */
static uint16_t ref_bf16(uint32_t f, int m)
{
    if ((f & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    uint32_t t = f >> 16, low = f & 0xffffu;
    bool neg = f >> 31;
    switch (m) {
    case 0:
        return (uint16_t)((f + 0x7fffu + (t & 1)) >> 16);
    case 1:
        return (uint16_t)t;
    case 2:
        return (uint16_t)(t + (neg && low));
    default:
        return (uint16_t)(t + (!neg && low));
    }
}

static bool f16_nan(uint16_t h)
{
    return ptx_f16_isnan(h);
}

/* ---- conversions ---- */

static void test_f16_widen_exhaustive(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        float ref = (float)HH((uint16_t)h);
        uint32_t got = ptx_f16_to_f32((uint16_t)h);
        uint64_t got64 = ptx_f16_to_f64((uint16_t)h);
        if (f16_nan((uint16_t)h)) {
            assert_int_equal(got, PTX_F32_CANON_NAN);
            /* payload and sign kept, quieted */
            assert_true((got64 >> 63) == (h >> 15));
            assert_true(((got64 >> 42) & 0x1ff) == (h & 0x1ff));
            assert_true(((got64 >> 51) & 0xfff) == 0xfff);
        } else {
            assert_int_equal(got, F(ref));
            assert_true(got64 == ptx_f64_bits((double)ref));
        }
        /* bf16 widening is a shift */
        uint32_t bw = ptx_bf16_to_f32((uint16_t)h);
        if (ptx_bf16_isnan((uint16_t)h))
            assert_int_equal(bw, PTX_F32_CANON_NAN);
        else
            assert_int_equal(bw, h << 16);
    }
}

static void check_f32_to_16(uint32_t f)
{
    for (int m = 0; m < 4; m++) {
        uint16_t ref = host_f32_to_f16(f, host_mode[m]);
        uint16_t got = ptx_f16_from_f32(f, ptx_mode[m], 0);
        if (f16_nan(ref))
            ref = PTX_F16_CANON_NAN;
        if (got != ref)
            fail_msg("f16 mode %d: %08x -> %04x want %04x", m, f, got, ref);
        uint16_t bref = ref_bf16(f, m);
        uint16_t bgot = ptx_bf16_from_f32(f, ptx_mode[m], 0);
        if (bgot != bref)
            fail_msg("bf16 mode %d: %08x -> %04x want %04x", m, f, bgot, bref);
    }
    uint16_t fast = ptx_f16_from_f32_rn(f);
    uint16_t slow = ptx_f16_from_f32(f, PTX_RND_RN, 0);
    if (fast != slow)
        fail_msg("f16 fast rn: %08x -> %04x want %04x", f, fast, slow);
    if (ptx_bf16_from_f32_rn(f) != ref_bf16(f, 0))
        fail_msg("bf16 fast rn: %08x", f);
}

static void test_f32_to_half_all_modes(void **state)
{
    (void)state;
    /* every boundary of the f16 range, both signs, +-300 encodings */
    static const uint32_t edges[] = {
        0x00000000, 0x33000000, /* 2^-25 */ 0x33800000, /* 2^-24 */
        0x387fc000, 0x38800000, /* 2^-14 */ 0x3f800000, 0x477fe000,
        0x477ff000, /* 65520 */ 0x47800000, 0x7f7fffff, 0x7f800000,
        0x7fc00000, 0x00800000, 0x7f7f8000};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        for (int d = -300; d <= 300; d++)
            for (uint32_t sgn = 0; sgn <= 1; sgn++)
                check_f32_to_16(((edges[i] + (uint32_t)d) & 0x7fffffffu) |
                                sgn << 31);
    /* a sparse sweep of every f32 */
    for (uint64_t f = 0; f < (UINT64_C(1) << 32); f += 65521)
        check_f32_to_16((uint32_t)f);
}

static void test_f64_to_half(void **state)
{
    (void)state;
    uint64_t s = 5;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_rand(&s);
        /* exponents around the f16 range */
        uint64_t d = (r & UINT64_C(0x800fffffffffffff)) |
                     ((uint64_t)(1023 - 30 + (r >> 52) % 50) << 52);
        double x = ptx_f64_from_bits(d);
        for (int m = 0; m < 4; m++) {
            uint16_t ref = host_f64_to_f16(x, host_mode[m]);
            uint16_t got = ptx_f16_from_f64(d, ptx_mode[m], 0);
            if (got != ref)
                fail_msg("f64->f16 mode %d: %016llx -> %04x want %04x", m,
                         (unsigned long long)d, got, ref);
        }
    }
    /* double rounding trap: 1 + 2^-11 + 2^-40 must round up directly,
     * while going through f32 first would land on the tie and round down */
    double trap = 1.0 + 0x1p-11 + 0x1p-40;
    assert_int_equal(ptx_f16_from_f64(ptx_f64_bits(trap), PTX_RND_RN, 0),
                     0x3c01);
    assert_int_equal(
        ptx_f16_from_f32(ptx_f32_bits((float)trap), PTX_RND_RN, 0), 0x3c00);
    /* bf16 from f64 */
    assert_int_equal(ptx_bf16_from_f64(ptx_f64_bits(1.0 + 0x1p-8 + 0x1p-40),
                                       PTX_RND_RN, 0),
                     0x3f81);
    assert_int_equal(ptx_bf16_from_f64(ptx_f64_bits(-1e300), PTX_RND_RZ, 0),
                     0xff7f);
    assert_int_equal(ptx_bf16_from_f64(ptx_f64_bits(1e-300), PTX_RND_RP, 0),
                     0x0001);
    assert_true(ptx_bf16_to_f64(0xffc1) == UINT64_C(0xfff8200000000000));
}

static void test_half_conversion_edges(void **state)
{
    (void)state;
    /* overflow: rn -> inf, rz -> max, rm/rp by sign */
    const uint32_t big = F(1e6f), nbig = F(-1e6f);
    assert_int_equal(ptx_f16_from_f32(big, PTX_RND_RN, 0), 0x7c00);
    assert_int_equal(ptx_f16_from_f32(big, PTX_RND_RZ, 0), 0x7bff);
    assert_int_equal(ptx_f16_from_f32(big, PTX_RND_RM, 0), 0x7bff);
    assert_int_equal(ptx_f16_from_f32(big, PTX_RND_RP, 0), 0x7c00);
    assert_int_equal(ptx_f16_from_f32(nbig, PTX_RND_RM, 0), 0xfc00);
    assert_int_equal(ptx_f16_from_f32(nbig, PTX_RND_RP, 0), 0xfbff);
    assert_int_equal(ptx_f16_from_f32(F(65519.0f), PTX_RND_RN, 0), 0x7bff);
    assert_int_equal(ptx_f16_from_f32(F(65520.0f), PTX_RND_RN, 0), 0x7c00);
    /* subnormal boundary */
    assert_int_equal(ptx_f16_from_f32(F(0x1p-25f), PTX_RND_RN, 0), 0);
    assert_int_equal(ptx_f16_from_f32(F(0x1p-25f), PTX_RND_RP, 0), 1);
    assert_int_equal(ptx_f16_from_f32(F(0x1.8p-25f), PTX_RND_RN, 0), 1);
    assert_int_equal(ptx_f16_from_f32(F(0x1.8p-24f), PTX_RND_RN, 0), 2);
    assert_int_equal(ptx_f16_from_f32(F(-0x1p-30f), PTX_RND_RM, 0), 0x8001);
    assert_int_equal(ptx_f16_from_f32(F(0x1.ffcp-15f), PTX_RND_RN, 0),
                     0x0400); /* 1023.5 units: ties up into the smallest normal */
    assert_int_equal(ptx_f16_from_f32(F(0x1.ff8p-15f), PTX_RND_RN, 0), 0x03ff);
    /* .ftz flushes an f32 subnormal input: rp of a tiny positive value */
    assert_int_equal(ptx_f16_from_f32(1, PTX_RND_RP, 0), 1);
    assert_int_equal(ptx_f16_from_f32(1, PTX_RND_RP, PTX_FP_FTZ), 0);
    /* .satfinite, .relu, .sat */
    const unsigned SF = PTX_FP_SATFINITE, RL = PTX_FP_RELU;
    assert_int_equal(ptx_f16_from_f32(big, PTX_RND_RN, SF), 0x7bff);
    assert_int_equal(ptx_f16_from_f32(F(-INFINITY), PTX_RND_RN, SF), 0xfbff);
    assert_int_equal(ptx_f16_from_f32(0x7fc00000, PTX_RND_RN, SF), 0x7fff);
    assert_int_equal(ptx_bf16_from_f32(F(INFINITY), PTX_RND_RZ, SF), 0x7f7f);
    assert_int_equal(ptx_f16_from_f32(F(-1.0f), PTX_RND_RN, RL), 0);
    assert_int_equal(ptx_f16_from_f32(F(-0.0f), PTX_RND_RN, RL), 0);
    assert_int_equal(ptx_f16_from_f32(F(2.0f), PTX_RND_RN, RL), 0x4000);
    assert_int_equal(ptx_f16_from_f32(0xffc00001u, PTX_RND_RN, RL), 0x7fff);
    assert_int_equal(ptx_bf16_from_f32(F(-3.0f), PTX_RND_RZ, RL), 0);
    assert_int_equal(ptx_f16_from_f32(F(-1e6f), PTX_RND_RN, RL | SF), 0);
    assert_int_equal(ptx_f16_from_f32(F(1.5f), PTX_RND_RN, PTX_FP_SAT), 0x3c00);
    assert_int_equal(ptx_f16_from_f32(0x7fc00000, PTX_RND_RN, PTX_FP_SAT), 0);
    /* RNA: ties away from zero */
    assert_int_equal(ptx_f16_from_f32(F(1.0f + 0x1p-11f), PTX_RND_RNA, 0),
                     0x3c01);
    assert_int_equal(ptx_f16_from_f32(F(1.0f + 0x1p-11f), PTX_RND_RN, 0),
                     0x3c00);
}

/* ---- arithmetic ---- */

static void test_f16_arith_vs_reference(void **state)
{
    (void)state;
    uint64_t s = 17;
    for (int i = 0; i < 300000; i++) {
        uint64_t r = next_rand(&s);
        uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16), c = (uint16_t)(r >> 32);
        if (i & 1) /* keep exponents close so sums cancel and tie */
            b = (uint16_t)((b & 0x83ff) | (a & 0x7c00));
        float fa = (float)HH(a), fb = (float)HH(b);
        uint16_t want[3] = {H((_Float16)(fa + fb)), H((_Float16)(fa - fb)),
                            H((_Float16)(fa * fb))};
        uint16_t got[3] = {ptx_f16_add(a, b, 0), ptx_f16_sub(a, b, 0),
                           ptx_f16_mul(a, b, 0)};
        for (int k = 0; k < 3; k++) {
            if (f16_nan(want[k]))
                want[k] = PTX_F16_CANON_NAN;
            if (got[k] != want[k])
                fail_msg("f16 op %d: %04x %04x -> %04x want %04x", k, a, b,
                         got[k], want[k]);
        }
        if ((i & 3) == 0) /* fma cancellation: c ~ -(a*b) */
            c = H((_Float16)(-(fa * fb))) ^ (uint16_t)(r >> 60);
        double ro = ro_fma_double(fa, fb, (float)HH(c));
        uint16_t wf = H((_Float16)ro);
        if (f16_nan(wf))
            wf = PTX_F16_CANON_NAN;
        uint16_t gf = ptx_f16_fma(a, b, c, 0);
        if (gf != wf)
            fail_msg("f16 fma: %04x %04x %04x -> %04x want %04x", a, b, c, gf,
                     wf);
    }
}

static void test_bf16_arith_vs_reference(void **state)
{
    (void)state;
    uint64_t s = 23;
    for (int i = 0; i < 300000; i++) {
        uint64_t r = next_rand(&s);
        uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16), c = (uint16_t)(r >> 32);
        if (i & 1)
            b = (uint16_t)((b & 0x807f) | (a & 0x7f80));
        float fa = FF((uint32_t)a << 16), fb = FF((uint32_t)b << 16);
        uint16_t want[3] = {ref_bf16(F(fa + fb), 0), ref_bf16(F(fa - fb), 0),
                            ref_bf16(F(fa * fb), 0)};
        uint16_t got[3] = {ptx_bf16_add(a, b, 0), ptx_bf16_sub(a, b, 0),
                           ptx_bf16_mul(a, b, 0)};
        for (int k = 0; k < 3; k++)
            if (got[k] != want[k])
                fail_msg("bf16 op %d: %04x %04x -> %04x want %04x", k, a, b,
                         got[k], want[k]);
        if ((i & 3) == 0)
            c = ref_bf16(F(-(fa * fb)), 1) ^ (uint16_t)(r >> 61);
        float ro = ro_fma_float(fa, fb, FF((uint32_t)c << 16));
        uint16_t wf = ref_bf16(F(ro), 0);
        uint16_t gf = ptx_bf16_fma(a, b, c, 0);
        if (gf != wf)
            fail_msg("bf16 fma: %04x %04x %04x -> %04x want %04x", a, b, c,
                     gf, wf);
    }
}

static void test_half_modifiers(void **state)
{
    (void)state;
    const uint16_t sub = 0x0003, one = 0x3c00;
    /* .ftz: inputs and results */
    assert_int_equal(ptx_f16_add(sub, sub, 0), 0x0006);
    assert_int_equal(ptx_f16_add(sub, sub, PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f16_add(0x8003, 0x8003, PTX_FP_FTZ), 0x8000);
    assert_int_equal(ptx_f16_mul(0x0400, 0x3800, 0), 0x0200); /* 2^-15 */
    assert_int_equal(ptx_f16_mul(0x0400, 0x3800, PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f16_mul(0x8400, 0x3800, PTX_FP_FTZ), 0x8000);
    /* .sat */
    assert_int_equal(ptx_f16_add(one, one, PTX_FP_SAT), one);
    assert_int_equal(ptx_f16_sub(0x3800, one, PTX_FP_SAT), 0);
    assert_int_equal(ptx_f16_mul(0x7c00, 0, PTX_FP_SAT), 0);
    assert_int_equal(ptx_f16_fma(0x3800, 0x3800, 0x3400, PTX_FP_SAT),
                     0x3800); /* .25+.25 */
    /* .relu on fma */
    assert_int_equal(ptx_f16_fma(one, 0xc000, one, PTX_FP_RELU), 0);
    assert_int_equal(ptx_f16_fma(one, one, one, PTX_FP_RELU), 0x4000);
    assert_int_equal(ptx_f16_fma(0x7c00, 0, one, PTX_FP_RELU), 0x7fff);
    assert_int_equal(ptx_bf16_fma(0x3f80, 0xc000, 0x3f80, PTX_FP_RELU), 0);
    assert_int_equal(ptx_bf16_fma(0x3f80, 0x3f80, 0x3f80, PTX_FP_RELU),
                     0x4000);
    /* NaN results are canonical */
    assert_int_equal(ptx_f16_add(0x7e01, one, 0), 0x7fff);
    assert_int_equal(ptx_bf16_mul(0xffc1, 0x3f80, 0), 0x7fff);
    assert_int_equal(ptx_f16_add(0x7c00, 0xfc00, 0), 0x7fff);
    /* x2: element 0 in the low half */
    uint32_t a = 0x40003c00, b = 0x3c004200; /* {1,2} + {3,1} */
    assert_int_equal(ptx_f16x2_add(a, b, 0), 0x42004400); /* {4,3} */
    assert_int_equal(ptx_f16x2_mul(a, b, 0), 0x40004200); /* {3,2} */
    assert_int_equal(ptx_f16x2_sub(a, b, 0), 0x3c00c000); /* {-2,1} */
    assert_int_equal(ptx_f16x2_fma(a, b, a, 0), 0x44004400); /* {4,4} */
    uint32_t ba = 0x40003f80, bb = 0x3f804040; /* bf16 {1,2} {3,1} */
    assert_int_equal(ptx_bf16x2_add(ba, bb, 0), 0x40404080);
    assert_int_equal(ptx_bf16x2_mul(ba, bb, 0), 0x40004040);
    assert_int_equal(ptx_bf16x2_sub(ba, bb, 0), 0x3f80c000);
    assert_int_equal(ptx_bf16x2_fma(ba, bb, ba, 0), 0x40804080);
}

static void test_half_minmax_sign(void **state)
{
    (void)state;
    const unsigned XA = PTX_FP_XORSIGN_ABS;
    assert_int_equal(ptx_f16_min(0x0000, 0x8000, 0), 0x8000);
    assert_int_equal(ptx_f16_max(0x8000, 0x0000, 0), 0x0000);
    assert_int_equal(ptx_f16_min(0x7e00, 0x4000, 0), 0x4000);
    assert_int_equal(ptx_f16_min(0x7e00, 0x4000, PTX_FP_NAN), 0x7fff);
    assert_int_equal(ptx_f16_max(0x7e00, 0xfe01, 0), 0x7fff);
    assert_int_equal(ptx_f16_min(0xc200, 0x4000, XA), 0xc000); /* -(min 3,2) */
    assert_int_equal(ptx_f16_max(0xc200, 0xc000, XA), 0x4200);
    assert_int_equal(ptx_f16_min(0x8001, 0x3c00, PTX_FP_FTZ), 0x8000);
    assert_int_equal(ptx_bf16_min(0xc040, 0x3f80, 0), 0xc040);
    assert_int_equal(ptx_bf16_max(0xc040, 0x3f80, 0), 0x3f80);
    assert_int_equal(ptx_bf16_max(0xc040, 0x3f80, XA), 0xc040);
    assert_int_equal(ptx_bf16_min(0x7fc0, 0x7fc1, 0), 0x7fff);
    assert_int_equal(ptx_f16x2_min(0x3c00c000, 0x40003c00, 0), 0x3c00c000);
    assert_int_equal(ptx_f16x2_max(0x3c00c000, 0x40003c00, 0), 0x40003c00);
    assert_int_equal(ptx_bf16x2_max(0x3f80c000, 0x40003f80, 0), 0x40003f80);
    assert_int_equal(ptx_f16x2_min(0x7e003c00, 0x40007e00, PTX_FP_NAN),
                     0x7fff7fff);
    /* neg / abs */
    assert_int_equal(ptx_f16_neg(0x3c00, 0), 0xbc00);
    assert_int_equal(ptx_f16_abs(0xbc00, 0), 0x3c00);
    assert_int_equal(ptx_f16_neg(0x7e01, 0), 0x7fff);
    assert_int_equal(ptx_f16_abs(0x8001, PTX_FP_FTZ), 0);
    assert_int_equal(ptx_f16_neg(0x0001, PTX_FP_FTZ), 0x8000);
    assert_int_equal(ptx_bf16_neg(0x3f80), 0xbf80);
    assert_int_equal(ptx_bf16_abs(0xffc0), 0x7fff);
    assert_int_equal(ptx_bf16x2_abs(0xbf80c000), 0x3f804000);
    assert_int_equal(ptx_f16x2_neg(0x3c00bc00, 0), 0xbc003c00);
}

static void test_half_approx(void **state)
{
    (void)state;
    long double w_ex2 = 0, w_tanh = 0, w_bex2 = 0, w_btanh = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if (!ptx_f16_isnan((uint16_t)h) && (h & 0x7fff) != 0x7c00) {
            long double x = (long double)(float)HH((uint16_t)h);
            long double e = exp2l(x);
            if (e >= 0x1p-14L && e <= 65504.0L) {
                long double got = (float)HH(ptx_f16_ex2_approx((uint16_t)h));
                long double err = fabsl(got - e) / e;
                if (err > w_ex2)
                    w_ex2 = err;
            }
            long double t = tanhl(x);
            long double gt = (float)HH(ptx_f16_tanh_approx((uint16_t)h));
            if (fabsl(gt - t) > w_tanh)
                w_tanh = fabsl(gt - t);
        }
        if (!ptx_bf16_isnan((uint16_t)h) && (h & 0x7fff) != 0x7f80) {
            long double x = FF(h << 16);
            long double e = exp2l(x);
            if (e >= 0x1p-126L && e <= 0x1p127L) {
                long double got = FF((uint32_t)ptx_bf16_ex2_approx_ftz(
                                         (uint16_t)h)
                                     << 16);
                long double err = fabsl(got - e) / e;
                if (err > w_bex2)
                    w_bex2 = err;
            }
            long double t = tanhl(x);
            long double gt = FF((uint32_t)ptx_bf16_tanh_approx((uint16_t)h)
                                << 16);
            if (fabsl(gt - t) > w_btanh)
                w_btanh = fabsl(gt - t);
        }
    }
    assert_true(w_ex2 <= powl(2.0L, -9.9L));
    assert_true(w_tanh <= powl(2.0L, -10.987L));
    assert_true(w_bex2 <= 0x1p-7L);
    assert_true(w_btanh <= 0x1p-8L);
    /* corner cases from the manual's tables */
    assert_int_equal(ptx_f16_ex2_approx(0xfc00), 0);
    assert_int_equal(ptx_f16_ex2_approx(0x8000), 0x3c00);
    assert_int_equal(ptx_f16_ex2_approx(0x7c00), 0x7c00);
    assert_int_equal(ptx_f16_ex2_approx(0x7e00), 0x7fff);
    assert_int_equal(ptx_bf16_ex2_approx_ftz(0x8001), 0x3f80);
    assert_int_equal(ptx_bf16_ex2_approx_ftz(0xff80), 0);
    assert_int_equal(ptx_bf16_ex2_approx_ftz(0xc304), 0); /* 2^-132 flushed */
    assert_int_equal(ptx_f16_tanh_approx(0xfc00), 0xbc00);
    assert_int_equal(ptx_f16_tanh_approx(0x8000), 0x8000);
    assert_int_equal(ptx_f16_tanh_approx(0x0001), 0x0001);
    assert_int_equal(ptx_bf16_tanh_approx(0x7f80), 0x3f80);
    assert_int_equal(ptx_f16x2_ex2_approx(0x3c000000), 0x40003c00);
    assert_int_equal(ptx_bf16x2_tanh_approx(0x7f80ff80), 0x3f80bf80);
    assert_int_equal(ptx_bf16x2_ex2_approx_ftz(0x3f800000), 0x40003f80);
    assert_int_equal(ptx_f16x2_tanh_approx(0x00007c00), 0x00003c00);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_widen_exhaustive),
        cmocka_unit_test(test_f32_to_half_all_modes),
        cmocka_unit_test(test_f64_to_half),
        cmocka_unit_test(test_half_conversion_edges),
        cmocka_unit_test(test_f16_arith_vs_reference),
        cmocka_unit_test(test_bf16_arith_vs_reference),
        cmocka_unit_test(test_half_modifiers),
        cmocka_unit_test(test_half_minmax_sign),
        cmocka_unit_test(test_half_approx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
