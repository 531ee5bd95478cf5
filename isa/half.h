/* isa/half.h — PTX .f16/.f16x2/.bf16/.bf16x2 semantics (PTX ISA §9.7.4)
 * and the conversions between the 16-bit formats and f32/f64.
 *
 * Values are raw bits: uint16_t for .f16/.bf16, uint32_t for the x2 forms
 * with element 0 in bits 15:0 and element 1 in bits 31:16.  (cvt's packing
 * forms put operand a in the UPPER half; see cvt.h.)
 *
 * Arithmetic is .rn only (the manual's only mode) and correctly rounded:
 * add/sub/mul are computed exactly or with a harmless double rounding in
 * double (53 >= 2*11+2), fma rounds once (exact product, round-to-odd sum).
 * Flags (PTX_FP_* from fp.h): FTZ (f16 only: flush subnormal inputs and
 * results), SAT (f16 add/sub/mul/fma: clamp to [+0,1], NaN -> +0), RELU
 * (fma: negative -> +0, NaN -> canonical NaN), NAN / XORSIGN_ABS (min/max).
 * NaN results: the manual says "unspecified NaN"; we always give the
 * canonical 0x7fff for both .f16 and .bf16 (what CUDA's conversions use).
 */
#ifndef PTXEMU_ISA_HALF_H
#define PTXEMU_ISA_HALF_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/fp.h"
#include "isa/types.h"

#define PTX_F16_CANON_NAN 0x7fffu
#define PTX_BF16_CANON_NAN 0x7fffu
#define PTX_F16_ONE 0x3c00u
#define PTX_BF16_ONE 0x3f80u

static inline bool ptx_f16_isnan(uint16_t h)
{
    return (h & 0x7fffu) > 0x7c00u;
}
static inline bool ptx_bf16_isnan(uint16_t h)
{
    return (h & 0x7fffu) > 0x7f80u;
}
static inline bool ptx_f16_issub(uint16_t h)
{
    return (h & 0x7c00u) == 0 && (h & 0x03ffu) != 0;
}
static inline bool ptx_bf16_issub(uint16_t h)
{
    return (h & 0x7f80u) == 0 && (h & 0x007fu) != 0;
}
static inline uint16_t ptx_f16_ftz(uint16_t h)
{
    return ptx_f16_issub(h) ? (uint16_t)(h & 0x8000u) : h;
}
static inline uint16_t ptx_bf16_ftz(uint16_t h)
{
    return ptx_bf16_issub(h) ? (uint16_t)(h & 0x8000u) : h;
}

/* Exact value of a 16-bit float as a double (NaN stays NaN). */
double ptx_f16_to_double(uint16_t h);
static inline double ptx_bf16_to_double(uint16_t h)
{
    return ptx_f32_from_bits((uint32_t)h << 16);
}

/* ---- conversions (cvt uses these; see cvt.h for the full matrix) ----
 * Widening is exact.  NaN: to f32 gives 0x7fffffff; to f64 keeps sign and
 * payload, quieted.  Narrowing takes rnd (RN RZ RM RP RNA) and flags:
 * FTZ flushes an f32 subnormal *input* (cvt's .ftz applies only to f32),
 * SATFINITE (|x| > max-finite, inf included -> signed max-finite; NaN stays
 * NaN), SAT ([+0,1], NaN -> +0), RELU (negative or -0 -> +0, NaN ->
 * canonical NaN). */
uint32_t ptx_f16_to_f32(uint16_t h);
uint64_t ptx_f16_to_f64(uint16_t h);
static inline uint32_t ptx_bf16_to_f32(uint16_t h)
{
    return ptx_bf16_isnan(h) ? PTX_F32_CANON_NAN : (uint32_t)h << 16;
}
uint64_t ptx_bf16_to_f64(uint16_t h);

uint16_t ptx_f16_from_f32(uint32_t f, ptx_rnd rnd, unsigned flags);
uint16_t ptx_f16_from_f64(uint64_t d, ptx_rnd rnd, unsigned flags);
uint16_t ptx_bf16_from_f32(uint32_t f, ptx_rnd rnd, unsigned flags);
uint16_t ptx_bf16_from_f64(uint64_t d, ptx_rnd rnd, unsigned flags);
/* Rounds an exact soft-float value to f16/bf16 (fmt PTX_FMT_F16 or
 * PTX_FMT_BF16) and applies SATFINITE, SAT and RELU from flags. */
uint16_t ptx_half_from_fpval(ptx_fpfmt fmt, ptx_fpval v, ptx_rnd rnd,
                             unsigned flags);

/* cvt.rn.f16.f32 / cvt.rn.bf16.f32 without modifiers (the hot cases). */
static inline uint16_t ptx_f16_from_f32_rn(uint32_t f)
{
    uint16_t sign = (uint16_t)((f >> 16) & 0x8000u);
    uint32_t a = f & 0x7fffffffu;
    if (a > 0x7f800000u)
        return PTX_F16_CANON_NAN;
    if (a >= 0x477ff000u) /* >= 65520: rounds to infinity */
        return sign | 0x7c00u;
    if (a >= 0x38800000u) { /* >= 2^-14: normal; rebias 127 -> 15 */
        uint32_t r = a - 0x38000000u + 0xfffu + ((a >> 13) & 1u);
        return sign | (uint16_t)(r >> 13);
    }
    if (a < 0x33000000u) /* <= 2^-25 (a tie at 2^-25 goes to even 0) */
        return sign;
    /* Subnormal: count units of 2^-24. */
    uint32_t m = (a & 0x7fffffu) | 0x800000u;
    unsigned shift = 126u - (a >> 23);
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    q += rem > half || (rem == half && (q & 1u));
    return sign | (uint16_t)q;
}
static inline uint16_t ptx_bf16_from_f32_rn(uint32_t f)
{
    if ((f & 0x7fffffffu) > 0x7f800000u)
        return PTX_BF16_CANON_NAN;
    return (uint16_t)((f + 0x7fffu + ((f >> 16) & 1u)) >> 16);
}

/* ---- arithmetic (.rn) ---- */
uint16_t ptx_f16_add(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_f16_sub(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_f16_mul(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_f16_fma(uint16_t a, uint16_t b, uint16_t c, unsigned flags);
uint16_t ptx_bf16_add(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_bf16_sub(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_bf16_mul(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_bf16_fma(uint16_t a, uint16_t b, uint16_t c, unsigned flags);

uint32_t ptx_f16x2_add(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f16x2_sub(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f16x2_mul(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f16x2_fma(uint32_t a, uint32_t b, uint32_t c, unsigned flags);
uint32_t ptx_bf16x2_add(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_bf16x2_sub(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_bf16x2_mul(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_bf16x2_fma(uint32_t a, uint32_t b, uint32_t c, unsigned flags);

/* ---- min / max (flags: FTZ (f16), NAN, XORSIGN_ABS) ---- */
uint16_t ptx_f16_min(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_f16_max(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_bf16_min(uint16_t a, uint16_t b, unsigned flags);
uint16_t ptx_bf16_max(uint16_t a, uint16_t b, unsigned flags);
uint32_t ptx_f16x2_min(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_f16x2_max(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_bf16x2_min(uint32_t a, uint32_t b, unsigned flags);
uint32_t ptx_bf16x2_max(uint32_t a, uint32_t b, unsigned flags);

/* ---- neg / abs (flags: FTZ for f16); NaN -> canonical NaN ---- */
uint16_t ptx_f16_neg(uint16_t a, unsigned flags);
uint16_t ptx_f16_abs(uint16_t a, unsigned flags);
uint16_t ptx_bf16_neg(uint16_t a);
uint16_t ptx_bf16_abs(uint16_t a);
uint32_t ptx_f16x2_neg(uint32_t a, unsigned flags);
uint32_t ptx_f16x2_abs(uint32_t a, unsigned flags);
uint32_t ptx_bf16x2_neg(uint32_t a);
uint32_t ptx_bf16x2_abs(uint32_t a);

/* ---- .approx (computed in double, rounded once; manual's bounds):
 *   ex2.approx.f16        relative 2^-9.9 (subnormal inputs supported)
 *   ex2.approx.ftz.bf16   relative 2^-7 (subnormal inputs/results flushed)
 *   tanh.approx.f16       absolute 2^-10.987
 *   tanh.approx.bf16      absolute 2^-8 */
uint16_t ptx_f16_ex2_approx(uint16_t a);
uint16_t ptx_bf16_ex2_approx_ftz(uint16_t a);
uint16_t ptx_f16_tanh_approx(uint16_t a);
uint16_t ptx_bf16_tanh_approx(uint16_t a);
uint32_t ptx_f16x2_ex2_approx(uint32_t a);
uint32_t ptx_bf16x2_ex2_approx_ftz(uint32_t a);
uint32_t ptx_f16x2_tanh_approx(uint32_t a);
uint32_t ptx_bf16x2_tanh_approx(uint32_t a);

#endif
