/* tests/isa/test_cvt.c — cvt against hand-worked values from the manual,
 * an __int128 model for integer saturation, and the host FPU under
 * fesetround for int -> float and f64 -> f32 rounding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fenv.h>
#include <math.h>

#include "isa/cvt.h"

static uint32_t F(float f)
{
    return ptx_f32_bits(f);
}
static uint64_t D(double d)
{
    return ptx_f64_bits(d);
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

/* cvt that must succeed */
static uint64_t cv(ptx_type d, ptx_type s, ptx_rnd r, unsigned fl,
                   uint64_t in)
{
    uint64_t out = 0xdeadbeef;
    if (!ptx_cvt(d, s, r, fl, in, &out))
        fail_msg("cvt %s.%s unexpectedly unsupported", ptx_type_name(d),
                 ptx_type_name(s));
    return out;
}

/* ---- int -> int ---- */

static const ptx_type ints[] = {PTX_T_U8,  PTX_T_U16, PTX_T_U32, PTX_T_U64,
                                PTX_T_S8,  PTX_T_S16, PTX_T_S32, PTX_T_S64};

__extension__ typedef __int128 i128;

static i128 int_min(ptx_type t)
{
    unsigned w = ptx_type_size(t) * 8;
    return ptx_type_is_signed(t) ? -((i128)1 << (w - 1)) : 0;
}
static i128 int_max(ptx_type t)
{
    unsigned w = ptx_type_size(t) * 8;
    return ptx_type_is_signed(t) ? ((i128)1 << (w - 1)) - 1
                                 : ((i128)1 << w) - 1;
}
/* Encodes v (in range of t) as cvt's output convention. */
static uint64_t enc(ptx_type t, i128 v)
{
    unsigned w = ptx_type_size(t) * 8;
    uint64_t u = (uint64_t)v;
    if (w < 64)
        u &= (UINT64_C(1) << w) - 1;
    if (ptx_type_is_signed(t) && w < 64 && (u >> (w - 1)))
        u |= ~UINT64_C(0) << w;
    return u;
}

static void test_int_to_int(void **state)
{
    (void)state;
    for (size_t i = 0; i < 8; i++) {
        for (size_t j = 0; j < 8; j++) {
            ptx_type d = ints[i], s = ints[j];
            /* source values at and around every boundary of both types */
            i128 cand[] = {int_min(s), int_min(s) + 1, -1, 0, 1,
                           int_max(s) - 1, int_max(s), int_min(d) - 1,
                           int_min(d), int_max(d), int_max(d) + 1, 0x5a,
                           -0x5a};
            for (size_t k = 0; k < sizeof cand / sizeof cand[0]; k++) {
                i128 v = cand[k];
                if (v < int_min(s) || v > int_max(s))
                    continue;
                uint64_t in = enc(s, v);
                /* plain: the low bits, re-read as the destination type */
                unsigned dw = ptx_type_size(d) * 8;
                uint64_t bits = (uint64_t)v;
                i128 dv = dw == 64 ? (i128)bits
                                   : (i128)(bits & ((UINT64_C(1) << dw) - 1));
                if (ptx_type_is_signed(d) && dv > int_max(d))
                    dv -= (i128)1 << dw;
                if (!ptx_type_is_signed(d) && dv < 0)
                    dv += (i128)1 << 64;
                uint64_t want = enc(d, dv);
                uint64_t got = cv(d, s, PTX_RND_NONE, 0, in);
                if (got != want)
                    fail_msg("cvt.%s.%s %lld: %llx want %llx",
                             ptx_type_name(d), ptx_type_name(s), (long long)v,
                             (unsigned long long)got,
                             (unsigned long long)want);
                /* .sat: clamp */
                i128 sv = v < int_min(d) ? int_min(d)
                          : v > int_max(d) ? int_max(d)
                                           : v;
                uint64_t gs = cv(d, s, PTX_RND_NONE, PTX_CVT_SAT, in);
                if (gs != enc(d, sv))
                    fail_msg("cvt.sat.%s.%s %lld: %llx", ptx_type_name(d),
                             ptx_type_name(s), (long long)v,
                             (unsigned long long)gs);
            }
        }
    }
    /* only the source width is read */
    assert_true(cv(PTX_T_S32, PTX_T_S8, PTX_RND_NONE, 0, 0x1ff) ==
                UINT64_C(0xffffffffffffffff));
    assert_true(cv(PTX_T_U32, PTX_T_U8, PTX_RND_NONE, 0, 0x1ff) == 0xff);
    assert_true(cv(PTX_T_U32, PTX_T_S8, PTX_RND_NONE, 0, 0x80) == 0xffffff80);
    assert_true(cv(PTX_T_U8, PTX_T_S32, PTX_RND_NONE, PTX_CVT_SAT, 300) == 255);
    assert_true(cv(PTX_T_S8, PTX_T_U32, PTX_RND_NONE, PTX_CVT_SAT,
                   0xffffffff) == 127);
}

/* ---- float -> int ---- */

static void test_float_to_int(void **state)
{
    (void)state;
    const ptx_rnd RNI = PTX_RND_RNI, RZI = PTX_RND_RZI, RMI = PTX_RND_RMI,
                  RPI = PTX_RND_RPI;
    const ptx_type S32 = PTX_T_S32, U32 = PTX_T_U32, F32 = PTX_T_F32,
                   F64 = PTX_T_F64;
    /* integer rounding modes */
    assert_true(cv(S32, F32, RNI, 0, F(2.5f)) == 2);
    assert_true(cv(S32, F32, RNI, 0, F(3.5f)) == 4);
    assert_true(cv(S32, F32, RNI, 0, F(-2.5f)) == (uint64_t)-2);
    assert_true(cv(S32, F32, RNI, 0, F(0.5f)) == 0);
    assert_true(cv(S32, F32, RZI, 0, F(-2.9f)) == (uint64_t)-2);
    assert_true(cv(S32, F32, RMI, 0, F(-0.1f)) == (uint64_t)-1);
    assert_true(cv(S32, F32, RPI, 0, F(0.1f)) == 1);
    assert_true(cv(S32, F32, RPI, 0, F(-0.9f)) == 0);
    assert_true(cv(U32, F32, RMI, 0, F(-0.5f)) == 0);
    /* saturation at the s32/u32 boundaries (default, no .sat needed) */
    assert_true(cv(S32, F32, RZI, 0, F(2147483520.0f)) == 2147483520);
    assert_true(cv(S32, F32, RZI, 0, F(2147483648.0f)) == INT32_MAX);
    assert_true(cv(S32, F32, RZI, 0, F(-2147483648.0f)) ==
                (uint64_t)(int64_t)INT32_MIN);
    assert_true(cv(S32, F32, RZI, 0, F(-3e9f)) == (uint64_t)(int64_t)INT32_MIN);
    assert_true(cv(S32, F64, RNI, 0, D(2147483647.4)) == INT32_MAX);
    assert_true(cv(S32, F64, RNI, 0, D(2147483647.5)) == INT32_MAX);
    assert_true(cv(S32, F64, RNI, 0, D(-2147483648.5)) ==
                (uint64_t)(int64_t)INT32_MIN);
    assert_true(cv(U32, F64, RZI, 0, D(4294967295.9)) == UINT32_MAX);
    assert_true(cv(U32, F64, RPI, 0, D(4294967295.1)) == UINT32_MAX);
    assert_true(cv(U32, F32, RZI, 0, F(-1.0f)) == 0);
    assert_true(cv(U32, F32, RZI, 0, F(INFINITY)) == UINT32_MAX);
    assert_true(cv(S32, F32, RZI, 0, F(-INFINITY)) ==
                (uint64_t)(int64_t)INT32_MIN);
    assert_true(cv(PTX_T_U8, F32, RNI, 0, F(255.5f)) == 255);
    assert_true(cv(PTX_T_U8, F32, RNI, 0, F(254.5f)) == 254);
    assert_true(cv(PTX_T_S8, F32, RNI, 0, F(-128.5f)) == (uint64_t)-128);
    assert_true(cv(PTX_T_S8, F32, RNI, 0, F(-129.0f)) == (uint64_t)-128);
    assert_true(cv(PTX_T_S8, F32, RNI, 0, F(127.4f)) == 127);
    assert_true(cv(PTX_T_S16, F32, RZI, 0, F(40000.0f)) == 32767);
    assert_true(cv(PTX_T_U16, F32, RZI, 0, F(70000.0f)) == 65535);
    assert_true(cv(PTX_T_S64, F64, RZI, 0, D(9.3e18)) == INT64_MAX);
    assert_true(cv(PTX_T_S64, F64, RZI, 0, D(-9223372036854775808.0)) ==
                (uint64_t)INT64_MIN);
    assert_true(cv(PTX_T_U64, F32, RZI, 0, F(0x1.fp63f)) ==
                UINT64_C(0xf800000000000000));
    assert_true(cv(PTX_T_U64, F32, RZI, 0, F(1.9e19f)) == UINT64_MAX);
    assert_true(cv(PTX_T_S64, F32, RMI, 0, F(-1.5f)) == (uint64_t)-2);
    /* NaN: 0 unless the source is f64 or the destination is 64-bit */
    const uint32_t fnan = 0x7fc00000;
    const uint64_t dnan = UINT64_C(0x7ff8000000000000);
    assert_true(cv(S32, F32, RZI, 0, fnan) == 0);
    assert_true(cv(U32, F32, RNI, 0, fnan) == 0);
    assert_true(cv(PTX_T_S16, PTX_T_F16, RNI, 0, 0x7e00) == 0);
    assert_true(cv(S32, F64, RZI, 0, dnan) == (uint64_t)(int64_t)INT32_MIN);
    assert_true(cv(U32, F64, RZI, 0, dnan) == 0x80000000u);
    assert_true(cv(PTX_T_U8, F64, RZI, 0, dnan) == 0x80);
    assert_true(cv(PTX_T_S64, F32, RZI, 0, fnan) == (uint64_t)INT64_MIN);
    assert_true(cv(PTX_T_U64, F32, RZI, 0, fnan) == UINT64_C(1) << 63);
    assert_true(cv(PTX_T_U64, F64, RZI, 0, dnan) == UINT64_C(1) << 63);
    /* .ftz flushes an f32 subnormal input: -tiny rmi is -1 or 0 */
    assert_true(cv(S32, F32, RMI, 0, 0x80000001u) == (uint64_t)-1);
    assert_true(cv(S32, F32, RMI, PTX_CVT_FTZ, 0x80000001u) == 0);
    assert_true(cv(S32, F32, RPI, 0, 1) == 1);
    assert_true(cv(S32, F32, RPI, PTX_CVT_FTZ, 1) == 0);
    /* f16 / bf16 sources */
    assert_true(cv(S32, PTX_T_F16, RNI, 0, 0xc100) == (uint64_t)-2); /* -2.5 */
    assert_true(cv(PTX_T_U8, PTX_T_F16, RZI, 0, 0x7bff) == 255);
    assert_true(cv(PTX_T_S8, PTX_T_BF16, RPI, 0, 0x3fc0) == 2); /* 1.5 */
    assert_true(cv(S32, PTX_T_BF16, RZI, 0, 0xff80) ==
                (uint64_t)(int64_t)INT32_MIN);
    /* a mandatory integer rounding is missing */
    uint64_t out;
    assert_false(ptx_cvt(S32, F32, PTX_RND_NONE, 0, F(1.0f), &out));
    assert_false(ptx_cvt(S32, F32, PTX_RND_RN, 0, F(1.0f), &out));
}

/* ---- int -> float ---- */

__attribute__((noinline)) static float host_i64_to_f32(int64_t v, bool uns,
                                                       int mode)
{
    volatile int64_t vi = v;
    volatile uint64_t vu = (uint64_t)v;
    volatile float r;
    fesetround(mode);
    r = uns ? (float)vu : (float)vi;
    fesetround(FE_TONEAREST);
    return r;
}

__attribute__((noinline)) static double host_i64_to_f64(int64_t v, bool uns,
                                                        int mode)
{
    volatile int64_t vi = v;
    volatile uint64_t vu = (uint64_t)v;
    volatile double r;
    fesetround(mode);
    r = uns ? (double)vu : (double)vi;
    fesetround(FE_TONEAREST);
    return r;
}

__attribute__((noinline)) static float host_f64_to_f32(double d, int mode)
{
    volatile double v = d;
    volatile float r;
    fesetround(mode);
    r = (float)v;
    fesetround(FE_TONEAREST);
    return r;
}

static void test_int_to_float(void **state)
{
    (void)state;
    uint64_t s = 31;
    for (int i = 0; i < 100000; i++) {
        uint64_t r = next_rand(&s);
        int64_t v = (int64_t)(r >> (r & 63)); /* every magnitude */
        if (i & 1)
            v = -v;
        if (i % 7 == 0) /* exact f32 ties: 2^k*(odd) near 2^24 multiples */
            v = (int64_t)(((r >> 8) & 0xffffff) | 0x1000000) << (r & 31);
        for (int m = 0; m < 4; m++) {
            uint32_t w32 = F(host_i64_to_f32(v, false, host_mode[m]));
            uint32_t u32 = F(host_i64_to_f32(v, true, host_mode[m]));
            uint64_t w64 = D(host_i64_to_f64(v, false, host_mode[m]));
            uint64_t u64 = D(host_i64_to_f64(v, true, host_mode[m]));
            assert_true(cv(PTX_T_F32, PTX_T_S64, ptx_mode[m], 0,
                           (uint64_t)v) == w32);
            assert_true(cv(PTX_T_F32, PTX_T_U64, ptx_mode[m], 0,
                           (uint64_t)v) == u32);
            assert_true(cv(PTX_T_F64, PTX_T_S64, ptx_mode[m], 0,
                           (uint64_t)v) == w64);
            assert_true(cv(PTX_T_F64, PTX_T_U64, ptx_mode[m], 0,
                           (uint64_t)v) == u64);
            int32_t v32 = (int32_t)v;
            assert_true(cv(PTX_T_F32, PTX_T_S32, ptx_mode[m], 0,
                           (uint32_t)v32) ==
                        F(host_i64_to_f32(v32, false, host_mode[m])));
        }
    }
    /* hand-worked: 2^24 + 1 is a tie; 2^63 - 1 rounds to 2^63 under rn */
    assert_true(cv(PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0, 16777217) ==
                F(16777216.0f));
    assert_true(cv(PTX_T_F32, PTX_T_S32, PTX_RND_RP, 0, 16777217) ==
                F(16777218.0f));
    assert_true(cv(PTX_T_F32, PTX_T_S64, PTX_RND_RN, 0, INT64_MAX) ==
                F(0x1p63f));
    assert_true(cv(PTX_T_F32, PTX_T_S64, PTX_RND_RZ, 0, INT64_MAX) ==
                0x5effffff);
    assert_true(cv(PTX_T_F32, PTX_T_S64, PTX_RND_RM, 0, (uint64_t)INT64_MIN) ==
                F(-0x1p63f));
    assert_true(cv(PTX_T_F32, PTX_T_U64, PTX_RND_RN, 0, UINT64_MAX) ==
                F(0x1p64f));
    assert_true(cv(PTX_T_F32, PTX_T_S8, PTX_RND_RN, 0, 0x80) == F(-128.0f));
    /* to f16 / bf16 */
    assert_true(cv(PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0, 65519) == 0x7bff);
    assert_true(cv(PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0, 65520) == 0x7c00);
    assert_true(cv(PTX_T_F16, PTX_T_U32, PTX_RND_RZ, 0, 65535) == 0x7bff);
    assert_true(cv(PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0, 2049) == 0x6800);
    assert_true(cv(PTX_T_F16, PTX_T_U32, PTX_RND_RN, 0, 2051) == 0x6802);
    assert_true(cv(PTX_T_F16, PTX_T_S32, PTX_RND_RN, 0, (uint32_t)-70000) ==
                0xfc00);
    assert_true(cv(PTX_T_F16, PTX_T_S32, PTX_RND_RP, 0, (uint32_t)-70000) ==
                0xfbff);
    assert_true(cv(PTX_T_BF16, PTX_T_U64, PTX_RND_RZ, 0, 257) == 0x4380);
    assert_true(cv(PTX_T_BF16, PTX_T_U64, PTX_RND_RP, 0, 257) == 0x4381);
    assert_true(cv(PTX_T_F16, PTX_T_S32, PTX_RND_RN, PTX_CVT_RELU,
                   (uint32_t)-5) == 0);
    assert_true(cv(PTX_T_F32, PTX_T_S32, PTX_RND_RN, PTX_CVT_SAT, 7) ==
                F(1.0f));
    uint64_t out;
    assert_false(ptx_cvt(PTX_T_F32, PTX_T_S32, PTX_RND_NONE, 0, 1, &out));
    assert_false(ptx_cvt(PTX_T_F32, PTX_T_S32, PTX_RND_RZI, 0, 1, &out));
}

/* ---- float -> float ---- */

static void test_float_to_float(void **state)
{
    (void)state;
    const ptx_type F16 = PTX_T_F16, BF16 = PTX_T_BF16, F32 = PTX_T_F32,
                   F64 = PTX_T_F64;
    /* f64 -> f32 in every mode vs the host */
    uint64_t s = 3;
    for (int i = 0; i < 100000; i++) {
        uint64_t r = next_rand(&s);
        uint64_t d = (r & UINT64_C(0x800fffffffffffff)) |
                     ((uint64_t)(1023 - 160 + (r >> 52) % 300) << 52);
        if (i % 5 == 0)
            d &= ~UINT64_C(0xfffffff); /* exact ties */
        for (int m = 0; m < 4; m++) {
            uint32_t want = F(host_f64_to_f32(ptx_f64_from_bits(d),
                                              host_mode[m]));
            assert_true(cv(F32, F64, ptx_mode[m], 0, d) == want);
        }
    }
    /* widening is exact and needs no rounding */
    assert_true(cv(F64, F32, PTX_RND_NONE, 0, F(0.1f)) == D((double)0.1f));
    assert_true(cv(F32, F16, PTX_RND_NONE, 0, 0x0001) == F(0x1p-24f));
    assert_true(cv(F64, BF16, PTX_RND_NONE, 0, 0xc0a0) == D(-5.0));
    assert_true(cv(F64, F32, PTX_RND_NONE, 0, 0xff800001u) ==
                UINT64_C(0xfff8000020000000));
    assert_true(cv(F32, F64, PTX_RND_RN, 0, UINT64_C(0x7ff0000000000001)) ==
                PTX_F32_CANON_NAN);
    assert_true(cv(F64, F32, PTX_RND_NONE, PTX_CVT_FTZ, 0x80000001u) ==
                D(-0.0));
    /* narrowing needs a rounding modifier */
    uint64_t out;
    assert_false(ptx_cvt(F32, F64, PTX_RND_NONE, 0, D(1.0), &out));
    assert_false(ptx_cvt(F16, F32, PTX_RND_NONE, 0, F(1.0f), &out));
    assert_false(ptx_cvt(BF16, F16, PTX_RND_NONE, 0, 0x3c00, &out));
    assert_false(ptx_cvt(F64, F32, PTX_RND_RNI, 0, F(1.0f), &out));
    /* f64 -> f32 results flushed by .ftz; subnormal overflow edges */
    assert_true(cv(F32, F64, PTX_RND_RN, 0, D(0x1p-140)) == F(0x1p-140f));
    assert_true(cv(F32, F64, PTX_RND_RN, PTX_CVT_FTZ, D(-0x1p-140)) ==
                0x80000000u);
    assert_true(cv(F32, F64, PTX_RND_RZ, 0, D(1e300)) == 0x7f7fffff);
    assert_true(cv(F32, F64, PTX_RND_RN, 0, D(1e300)) == 0x7f800000);
    /* f16 <-> bf16 */
    assert_true(cv(BF16, F16, PTX_RND_RZ, 0, 0x3c01) == 0x3f80);
    assert_true(cv(BF16, F16, PTX_RND_RP, 0, 0x3c01) == 0x3f81);
    assert_true(cv(F16, BF16, PTX_RND_RN, 0, 0x4780) == 0x7c00); /* 65536 */
    assert_true(cv(F16, BF16, PTX_RND_RZ, 0, 0x4780) == 0x7bff);
    assert_true(cv(F16, BF16, PTX_RND_RN, 0, 0x7fc1) == 0x7fff);
    /* integral rounding within a type */
    const ptx_rnd RNI = PTX_RND_RNI;
    assert_true(cv(F32, F32, RNI, 0, F(2.5f)) == F(2.0f));
    assert_true(cv(F32, F32, RNI, 0, F(-0.3f)) == F(-0.0f));
    assert_true(cv(F32, F32, PTX_RND_RMI, 0, F(-0.5f)) == F(-1.0f));
    assert_true(cv(F32, F32, PTX_RND_RPI, 0, F(0.5f)) == F(1.0f));
    assert_true(cv(F32, F32, PTX_RND_RZI, 0, F(-7.9f)) == F(-7.0f));
    assert_true(cv(F32, F32, RNI, 0, F(1e30f)) == F(1e30f));
    assert_true(cv(F32, F32, RNI, 0, F(8388607.5f)) == F(8388608.0f));
    assert_true(cv(F32, F32, RNI, 0, 0x7fc00001) == PTX_F32_CANON_NAN);
    assert_true(cv(F32, F32, PTX_RND_RPI, 0, 1) == F(1.0f));
    assert_true(cv(F32, F32, PTX_RND_RPI, PTX_CVT_FTZ, 1) == 0);
    assert_true(cv(F64, F64, PTX_RND_RNI, 0, D(-4.5)) == D(-4.0));
    assert_true(cv(F64, F64, PTX_RND_RMI, 0, D(0x1p60 + 0.0)) ==
                D(0x1p60));
    assert_true(cv(F16, F16, PTX_RND_RNI, 0, 0x3e00) == 0x4000); /* 1.5 */
    assert_true(cv(BF16, BF16, PTX_RND_RPI, 0, 0x3f81) == 0x4000);
    /* same type without rounding: a move with .ftz/.sat */
    assert_true(cv(F32, F32, PTX_RND_NONE, 0, 0x80000001u) == 0x80000001u);
    assert_true(cv(F32, F32, PTX_RND_NONE, PTX_CVT_FTZ, 0x80000001u) ==
                0x80000000u);
    assert_true(cv(F32, F32, PTX_RND_NONE, PTX_CVT_SAT, F(2.0f)) == F(1.0f));
    assert_true(cv(F32, F32, PTX_RND_NONE, PTX_CVT_SAT, 0x7fc00000) == 0);
    assert_true(cv(F32, F32, PTX_RND_NONE, PTX_CVT_SAT, F(-1.0f)) == 0);
    assert_true(cv(F64, F64, PTX_RND_NONE, PTX_CVT_SAT, D(0.25)) == D(0.25));
    assert_true(cv(F64, F32, PTX_RND_NONE, PTX_CVT_SAT, 0x7fc00000) == 0);
    assert_true(cv(F16, F32, PTX_RND_RN, PTX_CVT_SAT, F(1.5f)) == 0x3c00);
    /* .relu / .satfinite on half destinations */
    assert_true(cv(F16, F32, PTX_RND_RN, PTX_CVT_RELU, F(-2.0f)) == 0);
    assert_true(cv(BF16, F32, PTX_RND_RN, PTX_CVT_RELU, 0x7fc00001) == 0x7fff);
    assert_true(cv(F16, F32, PTX_RND_RZ, PTX_CVT_SATFINITE, F(-1e9f)) ==
                0xfbff);
}

/* ---- packing forms, tf32, fp8 ---- */

/* Independent e4m3 / e5m2 decoders. */
static double e4m3_value(unsigned b)
{
    unsigned e = (b >> 3) & 15, m = b & 7;
    double v = e ? ldexp(1.0 + m / 8.0, (int)e - 7) : ldexp(m / 8.0, -6);
    return (b & 0x80) ? -v : v;
}
static double e5m2_value(unsigned b)
{
    unsigned e = (b >> 2) & 31, m = b & 3;
    double v = e == 31 ? (m ? NAN : INFINITY)
               : e     ? ldexp(1.0 + m / 4.0, (int)e - 15)
                       : ldexp(m / 4.0, -14);
    return (b & 0x80) ? -v : v;
}

static void test_packing_tf32_fp8(void **state)
{
    (void)state;
    uint64_t out;
    /* a goes to the upper half */
    assert_true(ptx_cvt_pack2(PTX_T_F16X2, PTX_T_F32, PTX_RND_RN, 0,
                              F(1.0f), F(2.0f), &out));
    assert_true(out == 0x3c004000);
    assert_true(ptx_cvt_pack2(PTX_T_BF16X2, PTX_T_F32, PTX_RND_RZ, 0,
                              F(-1.0f), F(3.0f), &out));
    assert_true(out == 0xbf804040);
    assert_true(ptx_cvt_pack2(PTX_T_F16X2, PTX_T_F32, PTX_RND_RN,
                              PTX_CVT_RELU | PTX_CVT_SATFINITE, F(-1.0f),
                              F(1e9f), &out));
    assert_true(out == 0x00007bff);
    assert_false(ptx_cvt_pack2(PTX_T_F16X2, PTX_T_F32, PTX_RND_NONE, 0, 0, 0,
                               &out));
    assert_false(ptx_cvt_pack2(PTX_T_E2M1X2, PTX_T_F32, PTX_RND_RN,
                               PTX_CVT_SATFINITE, 0, 0, &out));
    /* fp8 from f32 pairs (satfinite is mandatory in PTX) */
    const unsigned SF = PTX_CVT_SATFINITE;
    assert_true(ptx_cvt_pack2(PTX_T_E4M3X2, PTX_T_F32, PTX_RND_RN, SF,
                              F(448.0f), F(1.0f), &out));
    assert_true(out == 0x7e38);
    assert_true(ptx_cvt_pack2(PTX_T_E4M3X2, PTX_T_F32, PTX_RND_RN, SF,
                              F(1000.0f), F(-INFINITY), &out));
    assert_true(out == 0x7efe);
    assert_true(ptx_cvt_pack2(PTX_T_E4M3X2, PTX_T_F32, PTX_RND_RN, SF,
                              0x7fc00000, F(0x1p-9f), &out));
    assert_true(out == 0x7f01);
    assert_true(ptx_cvt_pack2(PTX_T_E4M3X2, PTX_T_F32, PTX_RND_RN, SF,
                              F(464.0f), F(0x1p-10f), &out)); /* ties */
    assert_true(out == 0x7e00);
    assert_true(ptx_cvt_pack2(PTX_T_E5M2X2, PTX_T_F32, PTX_RND_RN, SF,
                              F(57344.0f), F(1e6f), &out));
    assert_true(out == 0x7b7b);
    assert_true(ptx_cvt_pack2(PTX_T_E5M2X2, PTX_T_F32, PTX_RND_RN,
                              SF | PTX_CVT_RELU, F(-2.0f), F(1.0f), &out));
    assert_true(out == 0x003c);
    /* fp8 from f16x2 / bf16x2, halves kept in place */
    assert_true(cv(PTX_T_E4M3X2, PTX_T_F16X2, PTX_RND_RN, SF, 0x3c00c000) ==
                0x38c0);
    assert_true(cv(PTX_T_E5M2X2, PTX_T_BF16X2, PTX_RND_RN, SF, 0x3f807f80) ==
                0x3c7b);
    /* fp8 -> f16x2 is exact for every encoding */
    for (unsigned b = 0; b < 256; b++) {
        uint64_t pair = (uint64_t)(b << 8 | (b ^ 0x80));
        uint64_t h4 = cv(PTX_T_F16X2, PTX_T_E4M3X2, PTX_RND_RN, 0, pair);
        uint64_t h5 = cv(PTX_T_F16X2, PTX_T_E5M2X2, PTX_RND_RN, 0, pair);
        double v4 = e4m3_value(b), v5 = e5m2_value(b);
        uint16_t hi4 = (uint16_t)(h4 >> 16), hi5 = (uint16_t)(h5 >> 16);
        if ((b & 0x7f) == 0x7f)
            assert_int_equal(hi4, 0x7fff);
        else
            assert_true(ptx_f16_to_double(hi4) == v4);
        if (isnan(v5))
            assert_int_equal(hi5, 0x7fff);
        else
            assert_true(ptx_f16_to_double(hi5) == v5);
        /* lower byte went to the lower half */
        assert_true(ptx_f16_to_double((uint16_t)h4) == -v4 ||
                    (b & 0x7f) == 0x7f);
        /* and back again (satfinite keeps finite values) */
        if (!isnan(v4) && (b & 0x7f) != 0x7f) {
            uint64_t back = cv(PTX_T_E4M3X2, PTX_T_F16X2, PTX_RND_RN, SF,
                               h4);
            assert_true(back == pair);
        }
    }
    assert_true(cv(PTX_T_F16X2, PTX_T_E4M3X2, PTX_RND_RN, PTX_CVT_RELU,
                   0xb838) == 0x00003c00);
    /* tf32: 10 mantissa bits in f32 layout */
    const uint32_t tie = F(1.0f + 0x1p-11f), tie3 = F(1.0f + 0x1.8p-10f);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0, tie) == 0x3f802000);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RN, 0, tie) == 0x3f800000);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RZ, 0, tie3) == 0x3f802000);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RN, 0, tie3) == 0x3f804000);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0, 0x7fc00001) ==
                PTX_F32_CANON_NAN);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RN, PTX_CVT_RELU,
                   F(-3.0f)) == 0);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, PTX_CVT_SATFINITE,
                   0x7f7fffff) == 0x7f7fe000);
    assert_true(cv(PTX_T_TF32, PTX_T_F32, PTX_RND_RNA, 0, 0x7f7fffff) ==
                0x7f800000);
    /* unsupported forms say so */
    assert_false(ptx_cvt(PTX_T_F32, PTX_T_S32, PTX_RND_RS, 0, 1, &out));
    assert_false(ptx_cvt(PTX_T_E2M1X2, PTX_T_F16X2, PTX_RND_RN, SF, 0, &out));
    assert_false(ptx_cvt(PTX_T_F32, PTX_T_TF32, PTX_RND_RN, 0, 0, &out));
    assert_false(ptx_cvt(PTX_T_E4M3, PTX_T_F32, PTX_RND_RN, SF, 0, &out));
    assert_false(ptx_cvt(PTX_T_S4, PTX_T_S32, PTX_RND_NONE, 0, 0, &out));
    assert_false(ptx_cvt(PTX_T_PRED, PTX_T_S32, PTX_RND_NONE, 0, 0, &out));
}

/* ---- the specialised converters agree with the generic path ---- */

static void test_lookup_fast_paths(void **state)
{
    (void)state;
    static const struct {
        ptx_type d, s;
        ptx_rnd r;
    } pairs[] = {
        {PTX_T_S32, PTX_T_F32, PTX_RND_RZI}, {PTX_T_S32, PTX_T_F32, PTX_RND_RNI},
        {PTX_T_S32, PTX_T_F32, PTX_RND_RMI}, {PTX_T_S32, PTX_T_F32, PTX_RND_RPI},
        {PTX_T_U32, PTX_T_F32, PTX_RND_RZI}, {PTX_T_U32, PTX_T_F32, PTX_RND_RNI},
        {PTX_T_S32, PTX_T_F64, PTX_RND_RZI}, {PTX_T_S32, PTX_T_F64, PTX_RND_RNI},
        {PTX_T_F32, PTX_T_S32, PTX_RND_RN},  {PTX_T_F32, PTX_T_U32, PTX_RND_RN},
        {PTX_T_F64, PTX_T_S32, PTX_RND_RN},  {PTX_T_F64, PTX_T_U32, PTX_RND_RN},
        {PTX_T_F64, PTX_T_S64, PTX_RND_RN},  {PTX_T_F64, PTX_T_U64, PTX_RND_RN},
        {PTX_T_F64, PTX_T_F32, PTX_RND_NONE}, {PTX_T_F32, PTX_T_F64, PTX_RND_RN},
        {PTX_T_F32, PTX_T_F16, PTX_RND_NONE}, {PTX_T_F16, PTX_T_F32, PTX_RND_RN},
        {PTX_T_F32, PTX_T_BF16, PTX_RND_NONE}, {PTX_T_BF16, PTX_T_F32, PTX_RND_RN},
        {PTX_T_U64, PTX_T_U32, PTX_RND_NONE}, {PTX_T_S64, PTX_T_S32, PTX_RND_NONE},
    };
    uint64_t s = 8;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        ptx_cvt_fn fn = ptx_cvt_lookup(pairs[p].d, pairs[p].s, pairs[p].r, 0);
        assert_non_null(fn);
        unsigned sw = ptx_type_size(pairs[p].s) * 8;
        for (int i = 0; i < 50000; i++) {
            uint64_t r = next_rand(&s);
            uint64_t in = sw == 64 ? r : r & ((UINT64_C(1) << sw) - 1);
            if (i % 3 == 0 && sw == 32) /* values near integers */
                in = F((float)(int32_t)(r >> 40) * 0.5f);
            if (i % 3 == 0 && sw == 64 && pairs[p].s == PTX_T_F64)
                in = D((double)(int64_t)(r >> 20) * 0.5);
            uint64_t want = cv(pairs[p].d, pairs[p].s, pairs[p].r, 0, in);
            uint64_t got = fn(in);
            if (got != want)
                fail_msg("fast cvt.%s.%s %llx: %llx want %llx",
                         ptx_type_name(pairs[p].d), ptx_type_name(pairs[p].s),
                         (unsigned long long)in, (unsigned long long)got,
                         (unsigned long long)want);
        }
    }
    /* cvt.sat.f32.f32 (the flagged form with its own converter): every
     * sign/exponent class and random mantissas, against the generic path */
    ptx_cvt_fn sat = ptx_cvt_lookup(PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_CVT_SAT);
    assert_non_null(sat);
    static const uint32_t special[] = {0, 0x80000000u, 1, 0x80000001u, 0x3f800000u,
                                       0x3f800001u, 0x3f7fffffu, 0xbf800000u, 0x7f800000u,
                                       0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
                                       0x007fffffu};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        assert_int_equal(sat(special[i]), cv(PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_CVT_SAT,
                                              special[i]));
    for (int i = 0; i < 200000; i++) {
        uint32_t in = (uint32_t)next_rand(&s);
        uint64_t want = cv(PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_CVT_SAT, in);
        if (sat(in) != want)
            fail_msg("fast cvt.sat.f32.f32 %x: %llx want %llx", in,
                     (unsigned long long)sat(in), (unsigned long long)want);
    }
    assert_null(ptx_cvt_lookup(PTX_T_S32, PTX_T_F32, PTX_RND_RZI, PTX_CVT_FTZ));
    assert_null(ptx_cvt_lookup(PTX_T_F16, PTX_T_F64, PTX_RND_RN, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_to_int),
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_float_to_float),
        cmocka_unit_test(test_packing_tf32_fp8),
        cmocka_unit_test(test_lookup_fast_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
