/* isa/fp.c — PTX .f32/.f64 semantics: the directed-rounding and flagged
 * paths, the .approx functions and min/max/testp.  The exact soft-float
 * core they round through is in softfloat.c. */
#include "isa/fp.h"

#include <math.h>

/* ---------------------------------------------------------------------
 * f32 / f64 arithmetic
 * ------------------------------------------------------------------- */

typedef enum fop { OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_DIV, OP_SQRT } fop;

static ptx_fpval soft_op(fop op, ptx_fpval a, ptx_fpval b, ptx_fpval c,
                         ptx_rnd rnd)
{
    switch (op) {
    case OP_ADD:
        return ptx_sf_add(a, b, rnd);
    case OP_SUB:
        b.sign = !b.sign;
        return ptx_sf_add(a, b, rnd);
    case OP_MUL:
        return ptx_sf_mul(a, b);
    case OP_FMA:
        return ptx_sf_fma(a, b, c, rnd);
    case OP_DIV:
        return ptx_sf_div(a, b);
    default:
        return ptx_sf_sqrt(a);
    }
}

static float f32_native(fop op, float a, float b, float c)
{
    switch (op) {
    case OP_ADD:
        return a + b;
    case OP_SUB:
        return a - b;
    case OP_MUL:
        return a * b;
    case OP_FMA:
        return fmaf(a, b, c);
    case OP_DIV:
        return a / b;
    default:
        return sqrtf(a);
    }
}

static double f64_native(fop op, double a, double b, double c)
{
    switch (op) {
    case OP_ADD:
        return a + b;
    case OP_SUB:
        return a - b;
    case OP_MUL:
        return a * b;
    case OP_FMA:
        return fma(a, b, c);
    case OP_DIV:
        return a / b;
    default:
        return sqrt(a);
    }
}

/* Unused operands are passed as +0 (never NaN). */
static uint32_t f32_op(fop op, uint32_t a, uint32_t b, uint32_t c,
                       ptx_rnd rnd, unsigned flags)
{
    uint32_t r;
    if (flags & PTX_FP_FTZ) {
        a = ptx_f32_ftz(a);
        b = ptx_f32_ftz(b);
        c = ptx_f32_ftz(c);
    }
    if (ptx_rnd_is_rn(rnd)) {
        r = ptx_f32_canon(f32_native(op, ptx_f32_from_bits(a),
                                     ptx_f32_from_bits(b),
                                     ptx_f32_from_bits(c)));
    } else if (ptx_f32_isnan(a) || ptx_f32_isnan(b) || ptx_f32_isnan(c)) {
        r = PTX_F32_CANON_NAN;
    } else {
        ptx_fpval v = soft_op(op, ptx_fp_unpack(PTX_FMT_F32, a),
                              ptx_fp_unpack(PTX_FMT_F32, b),
                              ptx_fp_unpack(PTX_FMT_F32, c), rnd);
        r = (uint32_t)ptx_fp_pack(PTX_FMT_F32, v, rnd, false);
    }
    if (flags & PTX_FP_FTZ)
        r = ptx_f32_ftz(r);
    if (flags & PTX_FP_SAT)
        r = ptx_f32_sat(r);
    return r;
}

uint32_t ptx_f32_add_slow(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags)
{
    return f32_op(OP_ADD, a, b, 0, rnd, flags);
}
uint32_t ptx_f32_sub_slow(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags)
{
    return f32_op(OP_SUB, a, b, 0, rnd, flags);
}
uint32_t ptx_f32_mul_slow(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags)
{
    return f32_op(OP_MUL, a, b, 0, rnd, flags);
}
uint32_t ptx_f32_fma_slow(uint32_t a, uint32_t b, uint32_t c, ptx_rnd rnd,
                          unsigned flags)
{
    return f32_op(OP_FMA, a, b, c, rnd, flags);
}
/* fma.{rz,rm,rp}.f32 without flags from the host's round-to-nearest
 * double arithmetic: a*b is exact in double, TwoSum gives the exact p + c as
 * s + e, and the float nearest s is one of the two floats around the exact
 * value (floats lie on the double grid), so at most one step in the
 * rounding direction fixes it.  Zero, infinite and NaN cases take the
 * software path (their signs and NaNs follow its rules). */
uint32_t ptx_f32_fma_directed(uint32_t a, uint32_t b, uint32_t c, ptx_rnd rnd)
{
    double p = (double)ptx_f32_from_bits(a) * (double)ptx_f32_from_bits(b);
    double dc = ptx_f32_from_bits(c);
    double s = p + dc;
    if (!isfinite(p) || !isfinite(dc) || !isfinite(s) || s == 0.0)
        return ptx_f32_fma_slow(a, b, c, rnd, 0);
    double bb = s - p;
    double e = (p - (s - bb)) + (dc - bb);
    float r = (float)s;
    double dr = r;
    /* where the candidate lies against the exact value s + e */
    int side = dr > s ? 1 : dr < s ? -1 : e < 0 ? 1 : e > 0 ? -1 : 0;
    uint32_t bits = ptx_f32_bits(r);
    bool neg = s < 0;
    switch (rnd) {
    case PTX_RND_RM:
        if (side > 0) /* one float down */
            bits = r == 0.0f ? 0x80000001u : neg ? bits + 1 : bits - 1;
        break;
    case PTX_RND_RP:
        if (side < 0) /* one float up */
            bits = r == 0.0f ? 0x00000001u : neg ? bits - 1 : bits + 1;
        break;
    default: /* PTX_RND_RZ: one float towards zero */
        if ((!neg && side > 0) || (neg && side < 0))
            bits = bits - 1; /* r != 0 here: |r| > |exact| > 0 */
        break;
    }
    return bits;
}

uint32_t ptx_f32_div(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags)
{
    return f32_op(OP_DIV, a, b, 0, rnd, flags & PTX_FP_FTZ);
}
uint32_t ptx_f32_rcp(uint32_t a, ptx_rnd rnd, unsigned flags)
{
    return f32_op(OP_DIV, PTX_F32_ONE, a, 0, rnd, flags & PTX_FP_FTZ);
}
uint32_t ptx_f32_sqrt(uint32_t a, ptx_rnd rnd, unsigned flags)
{
    return f32_op(OP_SQRT, a, 0, 0, rnd, flags & PTX_FP_FTZ);
}

uint64_t ptx_f64_nan2(uint64_t a, uint64_t b)
{
    const uint64_t quiet = UINT64_C(1) << 51;
    if (ptx_f64_isnan(a))
        return a | quiet;
    if (ptx_f64_isnan(b))
        return b | quiet;
    return PTX_F64_DEFAULT_NAN;
}

uint64_t ptx_f64_nan3(uint64_t a, uint64_t b, uint64_t c)
{
    return ptx_f64_isnan(a) || ptx_f64_isnan(b) ? ptx_f64_nan2(a, b)
                                                : ptx_f64_nan2(c, c);
}

/* Operands that an op does not use must repeat a used one (NaN choice). */
static uint64_t f64_op(fop op, uint64_t a, uint64_t b, uint64_t c,
                       ptx_rnd rnd)
{
    if (ptx_f64_isnan(a) || ptx_f64_isnan(b) || ptx_f64_isnan(c))
        return ptx_f64_nan3(a, b, c);
    if (ptx_rnd_is_rn(rnd)) {
        double r = f64_native(op, ptx_f64_from_bits(a), ptx_f64_from_bits(b),
                              ptx_f64_from_bits(c));
        return isnan(r) ? PTX_F64_DEFAULT_NAN : ptx_f64_bits(r);
    }
    ptx_fpval v = soft_op(op, ptx_fp_unpack(PTX_FMT_F64, a),
                          ptx_fp_unpack(PTX_FMT_F64, b),
                          ptx_fp_unpack(PTX_FMT_F64, c), rnd);
    return ptx_fp_pack(PTX_FMT_F64, v, rnd, false);
}

uint64_t ptx_f64_add_slow(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return f64_op(OP_ADD, a, b, b, rnd);
}
uint64_t ptx_f64_sub_slow(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return f64_op(OP_SUB, a, b, b, rnd);
}
uint64_t ptx_f64_mul_slow(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return f64_op(OP_MUL, a, b, b, rnd);
}
uint64_t ptx_f64_fma_slow(uint64_t a, uint64_t b, uint64_t c, ptx_rnd rnd)
{
    return f64_op(OP_FMA, a, b, c, rnd);
}
uint64_t ptx_f64_div(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return f64_op(OP_DIV, a, b, b, rnd);
}
uint64_t ptx_f64_rcp(uint64_t a, ptx_rnd rnd)
{
    if (ptx_f64_isnan(a))
        return ptx_f64_nan2(a, a);
    return f64_op(OP_DIV, PTX_F64_ONE, a, a, rnd);
}
uint64_t ptx_f64_sqrt(uint64_t a, ptx_rnd rnd)
{
    return f64_op(OP_SQRT, a, a, a, rnd);
}

/* ---------------------------------------------------------------------
 * .approx / .full
 * ------------------------------------------------------------------- */

static inline uint32_t in_ftz(uint32_t a, unsigned flags)
{
    return (flags & PTX_FP_FTZ) ? ptx_f32_ftz(a) : a;
}
/* Canonicalises NaN and applies the output half of .ftz. */
static inline uint32_t out_f32(float r, unsigned flags)
{
    uint32_t b = ptx_f32_canon(r);
    return (flags & PTX_FP_FTZ) ? ptx_f32_ftz(b) : b;
}

uint32_t ptx_f32_div_approx(uint32_t a, uint32_t b, unsigned flags)
{
    float fa = ptx_f32_from_bits(in_ftz(a, flags));
    float r = 1.0f / ptx_f32_from_bits(in_ftz(b, flags));
    /* The manual defines it as a * (1/b) with the reciprocal flushed, which
     * is what gives 0 (or NaN for inf a) when 2^126 < |b| < 2^128. */
    if (ptx_f32_issub(ptx_f32_bits(r)))
        r = ptx_f32_from_bits(ptx_f32_bits(r) & 0x80000000u);
    return out_f32(fa * r, flags);
}

uint32_t ptx_f32_div_full(uint32_t a, uint32_t b, unsigned flags)
{
    return out_f32(ptx_f32_from_bits(in_ftz(a, flags)) /
                       ptx_f32_from_bits(in_ftz(b, flags)),
                   flags);
}

uint32_t ptx_f32_rcp_approx(uint32_t a, unsigned flags)
{
    return out_f32(1.0f / ptx_f32_from_bits(in_ftz(a, flags)), flags);
}

uint32_t ptx_f32_sqrt_approx(uint32_t a, unsigned flags)
{
    return out_f32(sqrtf(ptx_f32_from_bits(in_ftz(a, flags))), flags);
}

uint32_t ptx_f32_rsqrt_approx(uint32_t a, unsigned flags)
{
    double x = ptx_f32_from_bits(in_ftz(a, flags));
    return out_f32((float)(1.0 / sqrt(x)), flags);
}

uint32_t ptx_f32_sin_approx(uint32_t a, unsigned flags)
{
    return out_f32((float)sin(ptx_f32_from_bits(in_ftz(a, flags))), flags);
}

uint32_t ptx_f32_cos_approx(uint32_t a, unsigned flags)
{
    return out_f32((float)cos(ptx_f32_from_bits(in_ftz(a, flags))), flags);
}

uint32_t ptx_f32_lg2_approx(uint32_t a, unsigned flags)
{
    return out_f32((float)log2(ptx_f32_from_bits(in_ftz(a, flags))), flags);
}

uint32_t ptx_f32_ex2_approx(uint32_t a, unsigned flags)
{
    return out_f32((float)exp2(ptx_f32_from_bits(in_ftz(a, flags))), flags);
}

uint32_t ptx_f32_tanh_approx(uint32_t a)
{
    return out_f32((float)tanh(ptx_f32_from_bits(a)), 0);
}

uint64_t ptx_f64_rsqrt_approx(uint64_t a)
{
    if (ptx_f64_isnan(a))
        return ptx_f64_nan2(a, a);
    double r = 1.0 / sqrt(ptx_f64_from_bits(a));
    return isnan(r) ? PTX_F64_DEFAULT_NAN : ptx_f64_bits(r);
}

/* Shared by the two 1.11.20 approximations: x is the flushed upper word as
 * a double (exact); r the double result, rounded once more to 20 bits. */
static uint64_t f64hi_result(double r)
{
    if (isnan(r))
        return PTX_F64_APPROX_NAN;
    uint64_t hi = ptx_fp_pack(PTX_FMT_F64HI,
                              ptx_fp_unpack(PTX_FMT_F64, ptx_f64_bits(r)),
                              PTX_RND_RN, false);
    if ((hi & 0x7ff00000u) == 0) /* flush a subnormal result */
        hi &= 0x80000000u;
    return hi << 32;
}

static double f64hi_input(uint64_t a)
{
    uint64_t hi = a >> 32;
    if ((hi & 0x7ff00000u) == 0) /* subnormal (or zero) upper word -> ±0 */
        hi &= 0x80000000u;
    return ptx_f64_from_bits(hi << 32);
}

uint64_t ptx_f64_rcp_approx_ftz(uint64_t a)
{
    if (ptx_fp_is_nan_bits(PTX_FMT_F64HI, a >> 32))
        return PTX_F64_APPROX_NAN;
    return f64hi_result(1.0 / f64hi_input(a));
}

uint64_t ptx_f64_rsqrt_approx_ftz(uint64_t a)
{
    if (ptx_fp_is_nan_bits(PTX_FMT_F64HI, a >> 32))
        return PTX_F64_APPROX_NAN;
    return f64hi_result(1.0 / sqrt(f64hi_input(a)));
}

/* ---------------------------------------------------------------------
 * min / max / testp
 * ------------------------------------------------------------------- */

/* Maps non-NaN f32 bits to integers ordered like the values, -0 < +0. */
static inline uint32_t key32(uint32_t x)
{
    return (x & 0x80000000u) ? ~x : (x | 0x80000000u);
}
static inline uint64_t key64(uint64_t x)
{
    return (x >> 63) ? ~x : (x | (UINT64_C(1) << 63));
}

/* The manual's min_num/min_nan (max_num/max_nan) on two f32 values. */
static uint32_t mm32(uint32_t a, uint32_t b, bool nan_mode, bool is_max)
{
    bool an = ptx_f32_isnan(a), bn = ptx_f32_isnan(b);
    if (an || bn) {
        if ((an && bn) || nan_mode)
            return PTX_F32_CANON_NAN;
        return an ? b : a;
    }
    bool a_less = key32(a) < key32(b);
    return (a_less != is_max) ? a : b;
}

static uint32_t minmax32(uint32_t a, uint32_t b, unsigned flags, bool is_max)
{
    if (flags & PTX_FP_FTZ) {
        a = ptx_f32_ftz(a);
        b = ptx_f32_ftz(b);
    }
    uint32_t xs = (a ^ b) & 0x80000000u;
    if (flags & (PTX_FP_XORSIGN_ABS | PTX_FP_ABS)) {
        a &= 0x7fffffffu;
        b &= 0x7fffffffu;
    }
    uint32_t r = mm32(a, b, flags & PTX_FP_NAN, is_max);
    if ((flags & PTX_FP_XORSIGN_ABS) && !ptx_f32_isnan(r))
        r = (r & 0x7fffffffu) | xs;
    return r;
}

static uint32_t minmax32_3(uint32_t a, uint32_t b, uint32_t c, unsigned flags,
                           bool is_max)
{
    if (flags & PTX_FP_FTZ) {
        a = ptx_f32_ftz(a);
        b = ptx_f32_ftz(b);
        c = ptx_f32_ftz(c);
    }
    if (flags & PTX_FP_ABS) {
        a &= 0x7fffffffu;
        b &= 0x7fffffffu;
        c &= 0x7fffffffu;
    }
    bool nm = flags & PTX_FP_NAN;
    return mm32(mm32(a, b, nm, is_max), c, nm, is_max);
}

uint32_t ptx_f32_min(uint32_t a, uint32_t b, unsigned flags)
{
    return minmax32(a, b, flags, false);
}
uint32_t ptx_f32_max(uint32_t a, uint32_t b, unsigned flags)
{
    return minmax32(a, b, flags, true);
}
uint32_t ptx_f32_min3(uint32_t a, uint32_t b, uint32_t c, unsigned flags)
{
    return minmax32_3(a, b, c, flags, false);
}
uint32_t ptx_f32_max3(uint32_t a, uint32_t b, uint32_t c, unsigned flags)
{
    return minmax32_3(a, b, c, flags, true);
}

static uint64_t mm64(uint64_t a, uint64_t b, bool is_max)
{
    bool an = ptx_f64_isnan(a), bn = ptx_f64_isnan(b);
    if (an && bn)
        return ptx_f64_nan2(a, b);
    if (an || bn)
        return an ? b : a;
    bool a_less = key64(a) < key64(b);
    return (a_less != is_max) ? a : b;
}

uint64_t ptx_f64_min(uint64_t a, uint64_t b)
{
    return mm64(a, b, false);
}
uint64_t ptx_f64_max(uint64_t a, uint64_t b)
{
    return mm64(a, b, true);
}

static bool testp(ptx_testp_op op, bool nan, bool inf, bool sub)
{
    switch (op) {
    case PTX_TESTP_FINITE:
        return !nan && !inf;
    case PTX_TESTP_INFINITE:
        return inf;
    case PTX_TESTP_NUMBER:
        return !nan;
    case PTX_TESTP_NOTANUMBER:
        return nan;
    case PTX_TESTP_NORMAL:
        return !nan && !inf && !sub;
    case PTX_TESTP_SUBNORMAL:
        return sub;
    }
    return false;
}

bool ptx_f32_testp(ptx_testp_op op, uint32_t a)
{
    return testp(op, ptx_f32_isnan(a), (a & 0x7fffffffu) == 0x7f800000u,
                 ptx_f32_issub(a));
}

bool ptx_f64_testp(ptx_testp_op op, uint64_t a)
{
    return testp(op, ptx_f64_isnan(a),
                 (a & UINT64_C(0x7fffffffffffffff)) ==
                     UINT64_C(0x7ff0000000000000),
                 ptx_f64_issub(a));
}
