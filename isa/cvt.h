/* isa/cvt.h — the PTX `cvt` instruction (PTX ISA §9.7.9.21).
 *
 * Values are raw bits in a uint64_t.  Inputs: only the low bits of the
 * source type's width are read (the manual allows wider source registers).
 * Outputs: the destination type's bits, sign-extended to 64 bits for
 * signed integer destinations and zero-extended otherwise, so the executor
 * can simply truncate to the destination register's width (which is the
 * manual's extension rule for wider destination registers).
 *
 * Semantics implemented (from the manual):
 *  - int -> int: truncate / sign- or zero-extend by the source type;
 *    .sat clamps to the destination range.  The rounding field is ignored.
 *  - float -> int: needs .rni/.rzi/.rmi/.rpi; always clamps to the
 *    destination range (.sat is redundant).  NaN -> 0, except when the
 *    source is .f64 or the destination is 64-bit: then 1 << (width-1).
 *    .ftz flushes an f32 subnormal input first (matters for .rmi/.rpi).
 *  - int -> float: needs .rn/.rz/.rm/.rp (.rna accepted); correctly
 *    rounded, including 64-bit ints to f32/f16/bf16.
 *  - float -> float: widening is exact and takes no rounding; narrowing
 *    (and f16 <-> bf16) needs .rn/.rz/.rm/.rp/.rna; same-type conversion
 *    with .rni/.rzi/.rmi/.rpi rounds to an integral value (sign kept, so
 *    rni(-0.3) = -0.0); same type without rounding is a move (.ftz/.sat).
 *    NaN results: canonical for f32 (0x7fffffff), f16/bf16 (0x7fff) and
 *    tf32 (0x7fffffff); an f64 result keeps the source NaN's sign and
 *    payload, quieted.
 *  - .ftz: only f32 inputs and f32 results are flushed.
 *  - .sat (float destination): clamp to [+0, 1], NaN -> +0.
 *  - .relu (f16, bf16, tf32, e4m3x2, e5m2x2 destinations): negative and -0
 *    -> +0; NaN -> canonical NaN.
 *  - .satfinite: |x| > max-finite (inf included) -> signed max-finite;
 *    NaN stays NaN.
 *  - packing: cvt.frnd.{f16x2,bf16x2}.f32 d, a, b and
 *    cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, a, b put a in the UPPER half
 *    and b in the lower half (ptx_cvt_pack2).  {e4m3x2,e5m2x2}.{f16x2,
 *    bf16x2} and f16x2.{e4m3x2,e5m2x2} keep halves in place (ptx_cvt).
 *  - .tf32 destination (from .f32 only): result in f32 layout with the low
 *    13 bits zero; .rna, .rn, .rz (and .rm/.rp) supported.
 *
 * Not supported (functions return false; never a made-up result): .rs
 * stochastic rounding (needs the rbits operand), e2m1x2/e2m3x2/e3m2x2/
 * ue8m0x2/s2f6x2 and the x4 packings, s4/u4/b1, scalar e4m3/e5m2, tf32 as
 * a source, and a missing mandatory rounding modifier.
 */
#ifndef PTXEMU_ISA_CVT_H
#define PTXEMU_ISA_CVT_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/fp.h"
#include "isa/half.h"
#include "isa/types.h"

/* Modifier flags (same bits as the PTX_FP_* flags). */
enum {
    PTX_CVT_FTZ = PTX_FP_FTZ,
    PTX_CVT_SAT = PTX_FP_SAT,
    PTX_CVT_RELU = PTX_FP_RELU,
    PTX_CVT_SATFINITE = PTX_FP_SATFINITE,
};

/* Generic cvt d, a.  Returns false for a combination that is unsupported
 * (or lacks a mandatory rounding modifier); *out is then untouched. */
bool ptx_cvt(ptx_type dst, ptx_type src, ptx_rnd rnd, unsigned flags,
             uint64_t in, uint64_t *out);

/* Two-source packing forms cvt d, a, b: dst F16X2/BF16X2/E4M3X2/E5M2X2,
 * src F32; a goes to the upper half of d. */
bool ptx_cvt_pack2(ptx_type dst, ptx_type src, ptx_rnd rnd, unsigned flags,
                   uint64_t a, uint64_t b, uint64_t *out);

/* A specialised converter for a common combination, or NULL (then call
 * ptx_cvt).  Meant to be resolved once at load time. */
typedef uint64_t (*ptx_cvt_fn)(uint64_t in);
ptx_cvt_fn ptx_cvt_lookup(ptx_type dst, ptx_type src, ptx_rnd rnd,
                          unsigned flags);

/* ---- fast inline forms for the hottest conversions ---- */

/* Round-half-even to an integral double without using the host rounding
 * mode (trunc and the subtraction are exact). */
static inline double ptx_rne_integral(double x)
{
    double t = trunc(x), d = x - t;
    double s = x < 0 ? -1.0 : 1.0;
    if (fabs(d) > 0.5 || (fabs(d) == 0.5 && fmod(t, 2.0) != 0.0))
        t += s;
    return t;
}

static inline int32_t ptx_clamp_s32(double r)
{
    if (r >= 2147483648.0)
        return INT32_MAX;
    if (r < -2147483648.0)
        return INT32_MIN;
    return (int32_t)r;
}
static inline uint32_t ptx_clamp_u32(double r)
{
    if (r >= 4294967296.0)
        return UINT32_MAX;
    if (r < 0)
        return 0;
    return (uint32_t)r;
}

/* cvt.rzi.s32.f32 / cvt.rni.s32.f32 / cvt.rzi.u32.f32 / cvt.rni.u32.f32 */
static inline int32_t ptx_cvt_f32_to_s32_rzi(uint32_t f)
{
    return ptx_f32_isnan(f) ? 0 : ptx_clamp_s32(trunc(ptx_f32_from_bits(f)));
}
static inline int32_t ptx_cvt_f32_to_s32_rni(uint32_t f)
{
    return ptx_f32_isnan(f)
               ? 0
               : ptx_clamp_s32(ptx_rne_integral(ptx_f32_from_bits(f)));
}
static inline uint32_t ptx_cvt_f32_to_u32_rzi(uint32_t f)
{
    return ptx_f32_isnan(f) ? 0 : ptx_clamp_u32(trunc(ptx_f32_from_bits(f)));
}
static inline uint32_t ptx_cvt_f32_to_u32_rni(uint32_t f)
{
    return ptx_f32_isnan(f)
               ? 0
               : ptx_clamp_u32(ptx_rne_integral(ptx_f32_from_bits(f)));
}
/* cvt.rzi.s32.f64 (NaN from an f64 source gives INT32_MIN) */
static inline int32_t ptx_cvt_f64_to_s32_rzi(uint64_t d)
{
    return ptx_f64_isnan(d) ? INT32_MIN
                            : ptx_clamp_s32(trunc(ptx_f64_from_bits(d)));
}
/* cvt.rn.f32.s32 / cvt.rn.f32.u32 (host conversion rounds to nearest) */
static inline uint32_t ptx_cvt_s32_to_f32_rn(int32_t i)
{
    return ptx_f32_bits((float)i);
}
static inline uint32_t ptx_cvt_u32_to_f32_rn(uint32_t u)
{
    return ptx_f32_bits((float)u);
}
/* cvt.f64.f32 (exact; NaN keeps sign and payload, quieted) */
static inline uint64_t ptx_cvt_f32_to_f64(uint32_t f)
{
    if (ptx_f32_isnan(f))
        return ((uint64_t)(f >> 31) << 63) | UINT64_C(0x7ff8000000000000) |
               ((uint64_t)(f & 0x7fffffu) << 29);
    return ptx_f64_bits((double)ptx_f32_from_bits(f));
}
/* cvt.rn.f32.f64 */
static inline uint32_t ptx_cvt_f64_to_f32_rn(uint64_t d)
{
    return ptx_f32_canon((float)ptx_f64_from_bits(d));
}

#endif
