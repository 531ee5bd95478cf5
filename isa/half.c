/* isa/half.c — .f16/.bf16 arithmetic, min/max, approximations and the
 * conversions between the 16-bit formats and f32/f64. */
#include "isa/half.h"

#include <math.h>

/* The two 16-bit formats differ only in field widths; the helpers below take
 * the format so every operation is written once. */
static inline bool h_isnan(ptx_fpfmt f, uint16_t h)
{
    return f == PTX_FMT_F16 ? ptx_f16_isnan(h) : ptx_bf16_isnan(h);
}
static inline uint16_t h_ftz(ptx_fpfmt f, uint16_t h)
{
    return f == PTX_FMT_F16 ? ptx_f16_ftz(h) : ptx_bf16_ftz(h);
}
static inline double h_to_d(ptx_fpfmt f, uint16_t h)
{
    return f == PTX_FMT_F16 ? ptx_f16_to_double(h) : ptx_bf16_to_double(h);
}
static inline uint16_t h_one(ptx_fpfmt f)
{
    return f == PTX_FMT_F16 ? PTX_F16_ONE : PTX_BF16_ONE;
}

double ptx_f16_to_double(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    double v;
    if (e == 0x1f)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = (double)m * 0x1p-24; /* exact */
    else
        v = ptx_f64_from_bits((uint64_t)(e - 15 + 1023) << 52 |
                              (uint64_t)m << 42);
    return (h & 0x8000u) ? -v : v;
}

uint32_t ptx_f16_to_f32(uint16_t h)
{
    if (ptx_f16_isnan(h))
        return PTX_F32_CANON_NAN;
    return ptx_f32_bits((float)ptx_f16_to_double(h)); /* exact */
}

/* A NaN widened to f64 keeps its sign and payload (top-aligned), quieted. */
static uint64_t nan_to_f64(uint16_t h, unsigned mbits)
{
    uint64_t payload = (uint64_t)(h & ((1u << mbits) - 1u)) << (52 - mbits);
    return ((uint64_t)(h >> 15) << 63) | UINT64_C(0x7ff8000000000000) |
           payload;
}

uint64_t ptx_f16_to_f64(uint16_t h)
{
    if (ptx_f16_isnan(h))
        return nan_to_f64(h, 10);
    return ptx_f64_bits(ptx_f16_to_double(h));
}

uint64_t ptx_bf16_to_f64(uint16_t h)
{
    if (ptx_bf16_isnan(h))
        return nan_to_f64(h, 7);
    return ptx_f64_bits(ptx_bf16_to_double(h));
}

/* .sat and .relu on a finished 16-bit result. */
static uint16_t h_post(ptx_fpfmt f, uint16_t h, unsigned flags)
{
    if (flags & PTX_FP_SAT) {
        if ((h & 0x8000u) || h_isnan(f, h))
            h = 0;
        else if (h > h_one(f))
            h = h_one(f);
    }
    if (flags & PTX_FP_RELU) {
        if (h_isnan(f, h))
            h = (uint16_t)ptx_fp_canon_nan(f);
        else if (h & 0x8000u)
            h = 0;
    }
    return h;
}

uint16_t ptx_half_from_fpval(ptx_fpfmt fmt, ptx_fpval v, ptx_rnd rnd,
                             unsigned flags)
{
    uint16_t h = (uint16_t)ptx_fp_pack(fmt, v, rnd,
                                       (flags & PTX_FP_SATFINITE) != 0);
    return h_post(fmt, h, flags);
}

static uint16_t from_f32(ptx_fpfmt fmt, uint32_t f, ptx_rnd rnd,
                         unsigned flags)
{
    if (flags & PTX_FP_FTZ)
        f = ptx_f32_ftz(f);
    return ptx_half_from_fpval(fmt, ptx_fp_unpack(PTX_FMT_F32, f), rnd, flags);
}

static uint16_t from_f64(ptx_fpfmt fmt, uint64_t d, ptx_rnd rnd,
                         unsigned flags)
{
    return ptx_half_from_fpval(fmt, ptx_fp_unpack(PTX_FMT_F64, d), rnd, flags);
}

uint16_t ptx_f16_from_f32(uint32_t f, ptx_rnd rnd, unsigned flags)
{
    return from_f32(PTX_FMT_F16, f, rnd, flags);
}
uint16_t ptx_f16_from_f64(uint64_t d, ptx_rnd rnd, unsigned flags)
{
    return from_f64(PTX_FMT_F16, d, rnd, flags);
}
uint16_t ptx_bf16_from_f32(uint32_t f, ptx_rnd rnd, unsigned flags)
{
    return from_f32(PTX_FMT_BF16, f, rnd, flags);
}
uint16_t ptx_bf16_from_f64(uint64_t d, ptx_rnd rnd, unsigned flags)
{
    return from_f64(PTX_FMT_BF16, d, rnd, flags);
}

/* ---------------------------------------------------------------------
 * Arithmetic
 * ------------------------------------------------------------------- */

/* Round-to-odd p + c in double: TwoSum gives the exact error of the .rn
 * sum; an inexact even result moves one ulp towards the exact value.  A
 * later rounding to <= 51 bits is then the correct single rounding. */
static double sum_round_odd(double p, double c)
{
    double s = p + c;
    if (!isfinite(s))
        return s;
    double bb = s - p;
    double err = (p - (s - bb)) + (c - bb);
    uint64_t bits = ptx_f64_bits(s);
    if (err != 0 && !(bits & 1))
        bits += ((err > 0) == (s > 0)) ? 1 : (uint64_t)-1;
    return ptx_f64_from_bits(bits);
}

typedef enum hop { H_ADD, H_SUB, H_MUL, H_FMA } hop;

static uint16_t h_arith(ptx_fpfmt f, hop op, uint16_t a, uint16_t b,
                        uint16_t c, unsigned flags)
{
    if (flags & PTX_FP_FTZ) {
        a = h_ftz(f, a);
        b = h_ftz(f, b);
        c = h_ftz(f, c);
    }
    double x = h_to_d(f, a), y = h_to_d(f, b), r;
    /* Products of two 16-bit values are exact in double; f16 sums are too,
     * bf16 sums round once more, which cannot change a .rn result. */
    switch (op) {
    case H_ADD:
        r = x + y;
        break;
    case H_SUB:
        r = x - y;
        break;
    case H_MUL:
        r = x * y;
        break;
    default:
        r = sum_round_odd(x * y, h_to_d(f, c));
        break;
    }
    uint16_t h = isnan(r) ? (uint16_t)ptx_fp_canon_nan(f)
                          : (uint16_t)ptx_fp_pack(
                                f, ptx_fp_unpack(PTX_FMT_F64, ptx_f64_bits(r)),
                                PTX_RND_RN, false);
    if (flags & PTX_FP_FTZ)
        h = h_ftz(f, h);
    return h_post(f, h, flags);
}

uint16_t ptx_f16_add(uint16_t a, uint16_t b, unsigned flags)
{
    return h_arith(PTX_FMT_F16, H_ADD, a, b, 0, flags);
}
uint16_t ptx_f16_sub(uint16_t a, uint16_t b, unsigned flags)
{
    return h_arith(PTX_FMT_F16, H_SUB, a, b, 0, flags);
}
uint16_t ptx_f16_mul(uint16_t a, uint16_t b, unsigned flags)
{
    return h_arith(PTX_FMT_F16, H_MUL, a, b, 0, flags);
}
uint16_t ptx_f16_fma(uint16_t a, uint16_t b, uint16_t c, unsigned flags)
{
    return h_arith(PTX_FMT_F16, H_FMA, a, b, c, flags);
}
uint16_t ptx_bf16_add(uint16_t a, uint16_t b, unsigned flags)
{
    return h_arith(PTX_FMT_BF16, H_ADD, a, b, 0, flags);
}
uint16_t ptx_bf16_sub(uint16_t a, uint16_t b, unsigned flags)
{
    return h_arith(PTX_FMT_BF16, H_SUB, a, b, 0, flags);
}
uint16_t ptx_bf16_mul(uint16_t a, uint16_t b, unsigned flags)
{
    return h_arith(PTX_FMT_BF16, H_MUL, a, b, 0, flags);
}
uint16_t ptx_bf16_fma(uint16_t a, uint16_t b, uint16_t c, unsigned flags)
{
    return h_arith(PTX_FMT_BF16, H_FMA, a, b, c, flags);
}

/* Element-wise over both halves; element 0 is bits 15:0. */
#define LO(x) ((uint16_t)((x) & 0xffffu))
#define HI(x) ((uint16_t)((x) >> 16))
#define PACK(hi, lo) (((uint32_t)(hi) << 16) | (uint32_t)(lo))

static uint32_t h2_arith(ptx_fpfmt f, hop op, uint32_t a, uint32_t b,
                         uint32_t c, unsigned flags)
{
    return PACK(h_arith(f, op, HI(a), HI(b), HI(c), flags),
                h_arith(f, op, LO(a), LO(b), LO(c), flags));
}

uint32_t ptx_f16x2_add(uint32_t a, uint32_t b, unsigned flags)
{
    return h2_arith(PTX_FMT_F16, H_ADD, a, b, 0, flags);
}
uint32_t ptx_f16x2_sub(uint32_t a, uint32_t b, unsigned flags)
{
    return h2_arith(PTX_FMT_F16, H_SUB, a, b, 0, flags);
}
uint32_t ptx_f16x2_mul(uint32_t a, uint32_t b, unsigned flags)
{
    return h2_arith(PTX_FMT_F16, H_MUL, a, b, 0, flags);
}
uint32_t ptx_f16x2_fma(uint32_t a, uint32_t b, uint32_t c, unsigned flags)
{
    return h2_arith(PTX_FMT_F16, H_FMA, a, b, c, flags);
}
uint32_t ptx_bf16x2_add(uint32_t a, uint32_t b, unsigned flags)
{
    return h2_arith(PTX_FMT_BF16, H_ADD, a, b, 0, flags);
}
uint32_t ptx_bf16x2_sub(uint32_t a, uint32_t b, unsigned flags)
{
    return h2_arith(PTX_FMT_BF16, H_SUB, a, b, 0, flags);
}
uint32_t ptx_bf16x2_mul(uint32_t a, uint32_t b, unsigned flags)
{
    return h2_arith(PTX_FMT_BF16, H_MUL, a, b, 0, flags);
}
uint32_t ptx_bf16x2_fma(uint32_t a, uint32_t b, uint32_t c, unsigned flags)
{
    return h2_arith(PTX_FMT_BF16, H_FMA, a, b, c, flags);
}

/* ---------------------------------------------------------------------
 * min / max / neg / abs
 * ------------------------------------------------------------------- */

/* Orders non-NaN 16-bit floats like their values, -0 < +0. */
static inline uint16_t key16(uint16_t x)
{
    return (x & 0x8000u) ? (uint16_t)~x : (uint16_t)(x | 0x8000u);
}

/* The manual's half min/max semantics, one element. */
static uint16_t h_minmax(ptx_fpfmt f, uint16_t a, uint16_t b, unsigned flags,
                         bool is_max)
{
    if (flags & PTX_FP_FTZ) {
        a = h_ftz(f, a);
        b = h_ftz(f, b);
    }
    uint16_t xs = (a ^ b) & 0x8000u;
    if (flags & PTX_FP_XORSIGN_ABS) {
        a &= 0x7fffu;
        b &= 0x7fffu;
    }
    bool an = h_isnan(f, a), bn = h_isnan(f, b);
    uint16_t r;
    if (an || bn) {
        if ((an && bn) || (flags & PTX_FP_NAN))
            return (uint16_t)ptx_fp_canon_nan(f);
        r = an ? b : a;
    } else {
        bool a_less = key16(a) < key16(b);
        r = (a_less != is_max) ? a : b;
    }
    if (flags & PTX_FP_XORSIGN_ABS)
        r = (r & 0x7fffu) | xs;
    return r;
}

uint16_t ptx_f16_min(uint16_t a, uint16_t b, unsigned flags)
{
    return h_minmax(PTX_FMT_F16, a, b, flags, false);
}
uint16_t ptx_f16_max(uint16_t a, uint16_t b, unsigned flags)
{
    return h_minmax(PTX_FMT_F16, a, b, flags, true);
}
uint16_t ptx_bf16_min(uint16_t a, uint16_t b, unsigned flags)
{
    return h_minmax(PTX_FMT_BF16, a, b, flags, false);
}
uint16_t ptx_bf16_max(uint16_t a, uint16_t b, unsigned flags)
{
    return h_minmax(PTX_FMT_BF16, a, b, flags, true);
}
uint32_t ptx_f16x2_min(uint32_t a, uint32_t b, unsigned flags)
{
    return PACK(ptx_f16_min(HI(a), HI(b), flags),
                ptx_f16_min(LO(a), LO(b), flags));
}
uint32_t ptx_f16x2_max(uint32_t a, uint32_t b, unsigned flags)
{
    return PACK(ptx_f16_max(HI(a), HI(b), flags),
                ptx_f16_max(LO(a), LO(b), flags));
}
uint32_t ptx_bf16x2_min(uint32_t a, uint32_t b, unsigned flags)
{
    return PACK(ptx_bf16_min(HI(a), HI(b), flags),
                ptx_bf16_min(LO(a), LO(b), flags));
}
uint32_t ptx_bf16x2_max(uint32_t a, uint32_t b, unsigned flags)
{
    return PACK(ptx_bf16_max(HI(a), HI(b), flags),
                ptx_bf16_max(LO(a), LO(b), flags));
}

static uint16_t h_sign_op(ptx_fpfmt f, uint16_t a, unsigned flags, bool neg)
{
    if (h_isnan(f, a))
        return (uint16_t)ptx_fp_canon_nan(f);
    if (flags & PTX_FP_FTZ)
        a = h_ftz(f, a);
    return neg ? (uint16_t)(a ^ 0x8000u) : (uint16_t)(a & 0x7fffu);
}

uint16_t ptx_f16_neg(uint16_t a, unsigned flags)
{
    return h_sign_op(PTX_FMT_F16, a, flags, true);
}
uint16_t ptx_f16_abs(uint16_t a, unsigned flags)
{
    return h_sign_op(PTX_FMT_F16, a, flags, false);
}
uint16_t ptx_bf16_neg(uint16_t a)
{
    return h_sign_op(PTX_FMT_BF16, a, 0, true);
}
uint16_t ptx_bf16_abs(uint16_t a)
{
    return h_sign_op(PTX_FMT_BF16, a, 0, false);
}
uint32_t ptx_f16x2_neg(uint32_t a, unsigned flags)
{
    return PACK(ptx_f16_neg(HI(a), flags), ptx_f16_neg(LO(a), flags));
}
uint32_t ptx_f16x2_abs(uint32_t a, unsigned flags)
{
    return PACK(ptx_f16_abs(HI(a), flags), ptx_f16_abs(LO(a), flags));
}
uint32_t ptx_bf16x2_neg(uint32_t a)
{
    return PACK(ptx_bf16_neg(HI(a)), ptx_bf16_neg(LO(a)));
}
uint32_t ptx_bf16x2_abs(uint32_t a)
{
    return PACK(ptx_bf16_abs(HI(a)), ptx_bf16_abs(LO(a)));
}

/* ---------------------------------------------------------------------
 * .approx
 * ------------------------------------------------------------------- */

static uint16_t h_round_d(ptx_fpfmt f, double r)
{
    if (isnan(r))
        return (uint16_t)ptx_fp_canon_nan(f);
    return (uint16_t)ptx_fp_pack(f, ptx_fp_unpack(PTX_FMT_F64, ptx_f64_bits(r)),
                                 PTX_RND_RN, false);
}

uint16_t ptx_f16_ex2_approx(uint16_t a)
{
    return h_round_d(PTX_FMT_F16, exp2(ptx_f16_to_double(a)));
}
uint16_t ptx_bf16_ex2_approx_ftz(uint16_t a)
{
    double x = ptx_bf16_to_double(ptx_bf16_ftz(a));
    return ptx_bf16_ftz(h_round_d(PTX_FMT_BF16, exp2(x)));
}
uint16_t ptx_f16_tanh_approx(uint16_t a)
{
    return h_round_d(PTX_FMT_F16, tanh(ptx_f16_to_double(a)));
}
uint16_t ptx_bf16_tanh_approx(uint16_t a)
{
    return h_round_d(PTX_FMT_BF16, tanh(ptx_bf16_to_double(a)));
}
uint32_t ptx_f16x2_ex2_approx(uint32_t a)
{
    return PACK(ptx_f16_ex2_approx(HI(a)), ptx_f16_ex2_approx(LO(a)));
}
uint32_t ptx_bf16x2_ex2_approx_ftz(uint32_t a)
{
    return PACK(ptx_bf16_ex2_approx_ftz(HI(a)),
                ptx_bf16_ex2_approx_ftz(LO(a)));
}
uint32_t ptx_f16x2_tanh_approx(uint32_t a)
{
    return PACK(ptx_f16_tanh_approx(HI(a)), ptx_f16_tanh_approx(LO(a)));
}
uint32_t ptx_bf16x2_tanh_approx(uint32_t a)
{
    return PACK(ptx_bf16_tanh_approx(HI(a)), ptx_bf16_tanh_approx(LO(a)));
}
