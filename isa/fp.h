/* isa/fp.h — PTX floating-point semantics for .f32 and .f64 (PTX ISA §9.7.3).
 *
 * Values travel as raw register bits: uint32_t for .f32, uint64_t for .f64.
 * Every function is pure and deterministic.
 *
 * Rounding: `ptx_rnd` values RN/RZ/RM/RP select the IEEE mode; PTX_RND_NONE
 * means the instruction's default, which is .rn for every instruction here
 * (add/sub/mul default to .rn; mad/fma/div/rcp/sqrt have no default, the
 * front end requires one).  The common .rn paths use the host FPU and are
 * static inline; directed modes go through an exact integer soft-float core
 * (ptx_sf_*), so they never touch or depend on the host's fenv rounding mode.
 * Host requirement: the process keeps C's default floating-point environment
 * (round-to-nearest, x86 MXCSR FTZ/DAZ clear), i.e. never build with
 * -ffast-math.
 *
 * NaN results (manual: "Single-precision instructions return an unspecified
 * NaN"; "NaN payloads are supported for double-precision instructions"):
 *   - every .f32 NaN result is the canonical 0x7fffffff (what hardware and
 *     the CUDA guide show);
 *   - an .f64 result NaN is the first NaN operand (a, then b, then c) with
 *     its quiet bit set; an invalid operation with no NaN operand (0/0,
 *     inf-inf, sqrt(-1)) gives PTX_F64_DEFAULT_NAN (= CUDART_NAN);
 *   - abs/neg.f64 pass a NaN through unchanged (manual, §9.7.3.9);
 *   - rcp/rsqrt.approx.ftz.f64 give 0x7fffffff00000000 (manual).
 * .ftz flushes subnormal .f32 inputs and results to sign-preserving zero.
 * .sat clamps to [+0.0, 1.0]; NaN -> +0.0; -0.0 -> +0.0.
 */
#ifndef PTXEMU_ISA_FP_H
#define PTXEMU_ISA_FP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "isa/types.h"
#include "isa/softfloat.h" /* the exact soft-float core (ptx_fpval, ptx_sf_*) */

/* Modifier flags shared by fp.h, half.h and cvt.h (bitwise OR). */
enum {
    PTX_FP_FTZ = 1u << 0,         /* .ftz */
    PTX_FP_SAT = 1u << 1,         /* .sat */
    PTX_FP_NAN = 1u << 2,         /* min/max .NaN */
    PTX_FP_XORSIGN_ABS = 1u << 3, /* min/max .xorsign.abs (two inputs) */
    PTX_FP_ABS = 1u << 4,         /* min/max .abs (three inputs) */
    PTX_FP_RELU = 1u << 5,        /* .relu */
    PTX_FP_SATFINITE = 1u << 6,   /* .satfinite */
};

#define PTX_F32_CANON_NAN 0x7fffffffu
#define PTX_F64_DEFAULT_NAN UINT64_C(0xfff8000000000000)
#define PTX_F64_APPROX_NAN UINT64_C(0x7fffffff00000000)
#define PTX_F32_ONE 0x3f800000u
#define PTX_F64_ONE UINT64_C(0x3ff0000000000000)

/* ---- bit casts and classification ---- */

static inline float ptx_f32_from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static inline uint32_t ptx_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static inline double ptx_f64_from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}
static inline uint64_t ptx_f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static inline bool ptx_f32_isnan(uint32_t a)
{
    return (a & 0x7fffffffu) > 0x7f800000u;
}
static inline bool ptx_f64_isnan(uint64_t a)
{
    return (a & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000);
}
static inline bool ptx_f32_issub(uint32_t a)
{
    return (a & 0x7f800000u) == 0 && (a & 0x007fffffu) != 0;
}
static inline bool ptx_f64_issub(uint64_t a)
{
    return (a & UINT64_C(0x7ff0000000000000)) == 0 &&
           (a & UINT64_C(0x000fffffffffffff)) != 0;
}
/* Sign-preserving flush of a subnormal (the .ftz rule). */
static inline uint32_t ptx_f32_ftz(uint32_t a)
{
    return ptx_f32_issub(a) ? (a & 0x80000000u) : a;
}
/* .sat: clamp to [+0, 1]; NaN and every negative (incl. -0) give +0. */
static inline uint32_t ptx_f32_sat(uint32_t a)
{
    if ((a & 0x80000000u) || ptx_f32_isnan(a))
        return 0;
    return a > PTX_F32_ONE ? PTX_F32_ONE : a;
}
static inline uint64_t ptx_f64_sat(uint64_t a)
{
    if ((a >> 63) || ptx_f64_isnan(a))
        return 0;
    return a > PTX_F64_ONE ? PTX_F64_ONE : a;
}

/* True for the modes that round to nearest-even (NONE is the default .rn;
 * RS is accepted and treated as .rn per isa/types.h). */
static inline bool ptx_rnd_is_rn(ptx_rnd r)
{
    return r == PTX_RND_NONE || r == PTX_RND_RN || r == PTX_RND_RS;
}

/* f64 NaN result for an operation whose result is NaN: first NaN operand,
 * quieted, else the default NaN.  Pass the same operand twice when unary. */
uint64_t ptx_f64_nan2(uint64_t a, uint64_t b);
uint64_t ptx_f64_nan3(uint64_t a, uint64_t b, uint64_t c);

/* ---- fast paths: .rn, no .ftz/.sat (the overwhelmingly common case) ---- */

static inline uint32_t ptx_f32_canon(float r)
{
    uint32_t b = ptx_f32_bits(r);
    return ptx_f32_isnan(b) ? PTX_F32_CANON_NAN : b;
}
static inline uint32_t ptx_f32_add_rn(uint32_t a, uint32_t b)
{
    return ptx_f32_canon(ptx_f32_from_bits(a) + ptx_f32_from_bits(b));
}
static inline uint32_t ptx_f32_sub_rn(uint32_t a, uint32_t b)
{
    return ptx_f32_canon(ptx_f32_from_bits(a) - ptx_f32_from_bits(b));
}
static inline uint32_t ptx_f32_mul_rn(uint32_t a, uint32_t b)
{
    return ptx_f32_canon(ptx_f32_from_bits(a) * ptx_f32_from_bits(b));
}
/* fma.rn.f32 == mad.rn.f32 (one rounding; libm fmaf is exact IEEE fma). */
static inline uint32_t ptx_f32_fma_rn(uint32_t a, uint32_t b, uint32_t c)
{
    return ptx_f32_canon(fmaf(ptx_f32_from_bits(a), ptx_f32_from_bits(b),
                              ptx_f32_from_bits(c)));
}

static inline uint64_t ptx_f64_add_rn(uint64_t a, uint64_t b)
{
    double r = ptx_f64_from_bits(a) + ptx_f64_from_bits(b);
    return __builtin_expect(isnan(r), 0) ? ptx_f64_nan2(a, b) : ptx_f64_bits(r);
}
static inline uint64_t ptx_f64_sub_rn(uint64_t a, uint64_t b)
{
    double r = ptx_f64_from_bits(a) - ptx_f64_from_bits(b);
    return __builtin_expect(isnan(r), 0) ? ptx_f64_nan2(a, b) : ptx_f64_bits(r);
}
static inline uint64_t ptx_f64_mul_rn(uint64_t a, uint64_t b)
{
    double r = ptx_f64_from_bits(a) * ptx_f64_from_bits(b);
    return __builtin_expect(isnan(r), 0) ? ptx_f64_nan2(a, b) : ptx_f64_bits(r);
}
static inline uint64_t ptx_f64_fma_rn(uint64_t a, uint64_t b, uint64_t c)
{
    double r = fma(ptx_f64_from_bits(a), ptx_f64_from_bits(b),
                   ptx_f64_from_bits(c));
    return __builtin_expect(isnan(r), 0) ? ptx_f64_nan3(a, b, c)
                                         : ptx_f64_bits(r);
}

/* ---- general entry points (any rounding mode and flags) ----
 * f32 flags: PTX_FP_FTZ, PTX_FP_SAT (.sat is legal on add/sub/mul/fma/mad).
 * div/rcp/sqrt take the IEEE modes here; their .approx/.full forms are
 * separate functions below. */
uint32_t ptx_f32_add_slow(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags);
uint32_t ptx_f32_sub_slow(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags);
uint32_t ptx_f32_mul_slow(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags);
uint32_t ptx_f32_fma_slow(uint32_t a, uint32_t b, uint32_t c, ptx_rnd rnd,
                          unsigned flags);
/* fma.rz/.rm/.rp.f32 without .ftz/.sat, through host doubles: the same
 * bits as ptx_f32_fma_slow (tests/isa/test_fp.c), several times faster. */
uint32_t ptx_f32_fma_directed(uint32_t a, uint32_t b, uint32_t c, ptx_rnd rnd);
uint32_t ptx_f32_div(uint32_t a, uint32_t b, ptx_rnd rnd, unsigned flags);
uint32_t ptx_f32_rcp(uint32_t a, ptx_rnd rnd, unsigned flags);
uint32_t ptx_f32_sqrt(uint32_t a, ptx_rnd rnd, unsigned flags);

static inline uint32_t ptx_f32_add(uint32_t a, uint32_t b, ptx_rnd rnd,
                                   unsigned flags)
{
    if (__builtin_expect(flags == 0 && ptx_rnd_is_rn(rnd), 1))
        return ptx_f32_add_rn(a, b);
    return ptx_f32_add_slow(a, b, rnd, flags);
}
static inline uint32_t ptx_f32_sub(uint32_t a, uint32_t b, ptx_rnd rnd,
                                   unsigned flags)
{
    if (__builtin_expect(flags == 0 && ptx_rnd_is_rn(rnd), 1))
        return ptx_f32_sub_rn(a, b);
    return ptx_f32_sub_slow(a, b, rnd, flags);
}
static inline uint32_t ptx_f32_mul(uint32_t a, uint32_t b, ptx_rnd rnd,
                                   unsigned flags)
{
    if (__builtin_expect(flags == 0 && ptx_rnd_is_rn(rnd), 1))
        return ptx_f32_mul_rn(a, b);
    return ptx_f32_mul_slow(a, b, rnd, flags);
}
/* fma.f32 and mad.f32 (sm_20+: mad.f32 is fma; a mad.f32 without a rounding
 * modifier is mad.rn.f32 per the manual's errata). */
static inline uint32_t ptx_f32_fma(uint32_t a, uint32_t b, uint32_t c,
                                   ptx_rnd rnd, unsigned flags)
{
    if (__builtin_expect(flags == 0 && ptx_rnd_is_rn(rnd), 1))
        return ptx_f32_fma_rn(a, b, c);
    return ptx_f32_fma_slow(a, b, c, rnd, flags);
}

uint64_t ptx_f64_add_slow(uint64_t a, uint64_t b, ptx_rnd rnd);
uint64_t ptx_f64_sub_slow(uint64_t a, uint64_t b, ptx_rnd rnd);
uint64_t ptx_f64_mul_slow(uint64_t a, uint64_t b, ptx_rnd rnd);
uint64_t ptx_f64_fma_slow(uint64_t a, uint64_t b, uint64_t c, ptx_rnd rnd);
uint64_t ptx_f64_div(uint64_t a, uint64_t b, ptx_rnd rnd);
uint64_t ptx_f64_rcp(uint64_t a, ptx_rnd rnd);
uint64_t ptx_f64_sqrt(uint64_t a, ptx_rnd rnd);

static inline uint64_t ptx_f64_add(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return ptx_rnd_is_rn(rnd) ? ptx_f64_add_rn(a, b)
                              : ptx_f64_add_slow(a, b, rnd);
}
static inline uint64_t ptx_f64_sub(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return ptx_rnd_is_rn(rnd) ? ptx_f64_sub_rn(a, b)
                              : ptx_f64_sub_slow(a, b, rnd);
}
static inline uint64_t ptx_f64_mul(uint64_t a, uint64_t b, ptx_rnd rnd)
{
    return ptx_rnd_is_rn(rnd) ? ptx_f64_mul_rn(a, b)
                              : ptx_f64_mul_slow(a, b, rnd);
}
/* fma.f64 == mad.f64 */
static inline uint64_t ptx_f64_fma(uint64_t a, uint64_t b, uint64_t c,
                                   ptx_rnd rnd)
{
    return ptx_rnd_is_rn(rnd) ? ptx_f64_fma_rn(a, b, c)
                              : ptx_f64_fma_slow(a, b, c, rnd);
}

/* ---- approximate forms; flags: PTX_FP_FTZ.  Accuracy promised by the
 * manual (ours is at least as good; tests check the bound):
 *   div.approx.f32   a * (1/b); 2 ulp for |b| in [2^-126, 2^126]; for
 *                    2^126 < |b| < 2^128: NaN if a is inf, else signed 0
 *   div.full.f32     2 ulp (ours: correctly rounded)
 *   rcp.approx.f32   1 ulp (ours: correctly rounded)
 *   sqrt.approx.f32  relative 2^-23 (ours: correctly rounded)
 *   rsqrt.approx.f32 relative 2^-22.9
 *   sin/cos.approx   absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on
 *                    [-100pi, 100pi], best effort outside
 *   lg2.approx.f32   absolute 2^-22 on (0.5, 2), else relative 2^-22
 *   ex2.approx.f32   2 ulp
 *   tanh.approx.f32  relative 2^-11 (no .ftz; subnormals pass through)
 * The transcendental ones are computed in double with the host libm and
 * rounded once to f32, which is within ~0.5 ulp. */
uint32_t ptx_f32_div_approx(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f32_div_full(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f32_rcp_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_sqrt_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_rsqrt_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_sin_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_cos_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_lg2_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_ex2_approx(uint32_t a, unsigned flags);
uint32_t ptx_f32_tanh_approx(uint32_t a);
/* rsqrt.approx.f64 (no bound in the manual; ours ~1 ulp). */
uint64_t ptx_f64_rsqrt_approx(uint64_t a);
/* rcp/rsqrt.approx.ftz.f64: operate on a[63:32] as a 1.11.20 number, give a
 * 1.11.20 result in d[63:32] and zeros in d[31:0]; subnormals flushed;
 * NaN -> 0x7fffffff00000000.  Ours rounds the 1.11.20 result to nearest. */
uint64_t ptx_f64_rcp_approx_ftz(uint64_t a);
uint64_t ptx_f64_rsqrt_approx_ftz(uint64_t a);

/* ---- min / max ----
 * f32 flags: PTX_FP_FTZ, PTX_FP_NAN, PTX_FP_XORSIGN_ABS (2 inputs),
 * PTX_FP_ABS (3 inputs).  -0.0 < +0.0.  Without .NaN a single NaN input
 * is ignored; two NaNs (or .NaN with any NaN) give the canonical NaN. */
uint32_t ptx_f32_min(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f32_max(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f32_min3(uint32_t a, uint32_t b, uint32_t c, unsigned flags);
uint32_t ptx_f32_max3(uint32_t a, uint32_t b, uint32_t c, unsigned flags);
uint64_t ptx_f64_min(uint64_t a, uint64_t b);
uint64_t ptx_f64_max(uint64_t a, uint64_t b);

/* ---- sign operations ---- */
/* abs/neg.f32 (flags: PTX_FP_FTZ): NaN input -> canonical NaN. */
static inline uint32_t ptx_f32_abs(uint32_t a, unsigned flags)
{
    if (ptx_f32_isnan(a))
        return PTX_F32_CANON_NAN;
    if (flags & PTX_FP_FTZ)
        a = ptx_f32_ftz(a);
    return a & 0x7fffffffu;
}
static inline uint32_t ptx_f32_neg(uint32_t a, unsigned flags)
{
    if (ptx_f32_isnan(a))
        return PTX_F32_CANON_NAN;
    if (flags & PTX_FP_FTZ)
        a = ptx_f32_ftz(a);
    return a ^ 0x80000000u;
}
/* abs/neg.f64: NaN passes through unchanged (manual). */
static inline uint64_t ptx_f64_abs(uint64_t a)
{
    return ptx_f64_isnan(a) ? a : a & UINT64_C(0x7fffffffffffffff);
}
static inline uint64_t ptx_f64_neg(uint64_t a)
{
    return ptx_f64_isnan(a) ? a : a ^ (UINT64_C(1) << 63);
}
/* copysign d, a, b: d = b with the sign bit of a (pure bit operation). */
static inline uint32_t ptx_f32_copysign(uint32_t a, uint32_t b)
{
    return (b & 0x7fffffffu) | (a & 0x80000000u);
}
static inline uint64_t ptx_f64_copysign(uint64_t a, uint64_t b)
{
    return (b & UINT64_C(0x7fffffffffffffff)) | (a & (UINT64_C(1) << 63));
}

/* ---- testp ---- (±0 counts as .normal, per the manual) */
typedef enum ptx_testp_op {
    PTX_TESTP_FINITE,
    PTX_TESTP_INFINITE,
    PTX_TESTP_NUMBER,
    PTX_TESTP_NOTANUMBER,
    PTX_TESTP_NORMAL,
    PTX_TESTP_SUBNORMAL,
} ptx_testp_op;
bool ptx_f32_testp(ptx_testp_op op, uint32_t a);
bool ptx_f64_testp(ptx_testp_op op, uint64_t a);

#endif
