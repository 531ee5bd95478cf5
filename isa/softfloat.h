/* isa/softfloat.h — the exact soft-float core that fp.c, half.c, cvt.c share. */
#ifndef PTXEMU_ISA_SOFTFLOAT_H
#define PTXEMU_ISA_SOFTFLOAT_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/types.h"

/* ======================================================================
 * Exact soft-float core, shared with half.c and cvt.c.
 * A finite value is sig * 2^(exp - 63) with bit 63 of sig set; `sticky`
 * says the exact value lies strictly between that and the next sig (the
 * round-to-odd information rounding needs).  Operations take exact inputs
 * (sticky false) and return exact-with-sticky results; rounding happens
 * only in ptx_fp_pack, so every mode is correctly rounded.
 * ==================================================================== */
typedef enum ptx_fpfmt {
    PTX_FMT_F16,   /* 1.5.10 */
    PTX_FMT_BF16,  /* 1.8.7 */
    PTX_FMT_TF32,  /* 1.8.10, packed in the low 19 bits */
    PTX_FMT_F32,   /* 1.8.23 */
    PTX_FMT_F64,   /* 1.11.52 */
    PTX_FMT_E4M3,  /* 1.4.3, no infinity, NaN = S.1111.111, max 448 */
    PTX_FMT_E5M2,  /* 1.5.2, IEEE-like */
    PTX_FMT_F64HI, /* 1.11.20: the upper word of an f64 */
    PTX_FMT_COUNT
} ptx_fpfmt;

enum { PTX_FPC_ZERO, PTX_FPC_FINITE, PTX_FPC_INF, PTX_FPC_NAN };

typedef struct ptx_fpval {
    uint8_t cls; /* PTX_FPC_* */
    bool sign;
    bool sticky;
    int32_t exp;
    uint64_t sig;
} ptx_fpval;

ptx_fpval ptx_fp_unpack(ptx_fpfmt f, uint64_t bits);
/* Rounds to format f.  NaN gives the format's canonical NaN.  Overflow gives
 * inf or max-finite as the mode dictates, or max-finite with satfinite (E4M3
 * overflow without satfinite gives NaN: it has no infinity). */
uint64_t ptx_fp_pack(ptx_fpfmt f, ptx_fpval v, ptx_rnd rnd, bool satfinite);
uint64_t ptx_fp_canon_nan(ptx_fpfmt f);
bool ptx_fp_is_nan_bits(ptx_fpfmt f, uint64_t bits);
ptx_fpval ptx_fp_from_u64(bool neg, uint64_t mag);
/* `rnd` only decides the sign of an exact zero sum (-0 under .rm). */
ptx_fpval ptx_sf_add(ptx_fpval a, ptx_fpval b, ptx_rnd rnd);
ptx_fpval ptx_sf_mul(ptx_fpval a, ptx_fpval b);
ptx_fpval ptx_sf_fma(ptx_fpval a, ptx_fpval b, ptx_fpval c, ptx_rnd rnd);
ptx_fpval ptx_sf_div(ptx_fpval a, ptx_fpval b);
ptx_fpval ptx_sf_sqrt(ptx_fpval a);
/* Integer rounding (RNI/RZI/RMI/RPI, or the matching RN/RZ/RM/RP) of a
 * finite value: *mag gets the rounded magnitude; false when it is >= 2^64. */
bool ptx_fp_round_u64(ptx_fpval v, ptx_rnd irnd, uint64_t *mag);
/* Round to an integral value kept in floating point (cvt.rni.f32.f32). */
ptx_fpval ptx_fp_round_integral(ptx_fpval v, ptx_rnd irnd);

#endif
