/* isa/video.h — PTX video instructions (scalar vadd..vset, vmad, and the
 * SIMD vop2/vop4 families).
 *
 * The executor's decoder fills one small modifier struct per instruction at
 * load time and then calls one entry point per lane with the three 32-bit
 * source registers (pass 0 for c when the instruction has no c operand).
 * All arithmetic follows the PTX ISA pseudo-code exactly, in wide integers,
 * so no intermediate overflows.
 */
#ifndef PTXEMU_ISA_VIDEO_H
#define PTXEMU_ISA_VIDEO_H

#include <stdbool.h>
#include <stdint.h>

/* Operand part selectors of the scalar forms (.asel .bsel .dsel). */
typedef enum ptx_vsel {
    PTX_VSEL_NONE = 0, /* whole word (for dsel: no merge) */
    PTX_VSEL_B0,
    PTX_VSEL_B1,
    PTX_VSEL_B2,
    PTX_VSEL_B3,
    PTX_VSEL_H0,
    PTX_VSEL_H1,
} ptx_vsel;

/* Primary operation.  Scalar: ADD SUB ABSDIFF MIN MAX SHL SHR SET.
 * SIMD (vop2/vop4): ADD SUB AVRG ABSDIFF MIN MAX SET. */
typedef enum ptx_vop {
    PTX_VOP_ADD = 0,
    PTX_VOP_SUB,
    PTX_VOP_ABSDIFF,
    PTX_VOP_MIN,
    PTX_VOP_MAX,
    PTX_VOP_SHL,
    PTX_VOP_SHR,
    PTX_VOP_AVRG,
    PTX_VOP_SET,
} ptx_vop;

/* Secondary operation of the scalar forms (.add .min .max). */
typedef enum ptx_vsecop {
    PTX_VSECOP_NONE = 0,
    PTX_VSECOP_ADD,
    PTX_VSECOP_MIN,
    PTX_VSECOP_MAX,
} ptx_vsecop;

/* vset comparisons. */
typedef enum ptx_vcmp {
    PTX_VCMP_EQ = 0,
    PTX_VCMP_NE,
    PTX_VCMP_LT,
    PTX_VCMP_LE,
    PTX_VCMP_GT,
    PTX_VCMP_GE,
} ptx_vcmp;

/* vadd vsub vabsdiff vmin vmax vshl vshr vset (scalar).
 *   vop.dtype.atype.btype{.sat}{.op2}  d{.dsel}, a{.asel}, b{.bsel}{, c}
 * dsel and secop are mutually exclusive (the syntax has one or the other).
 * vshl/vshr: btype is always .u32 (bsigned ignored); shift_clamp selects
 * .clamp (count min(b, 32)) or .wrap (count b & 31).
 * vset: cmp is used; dsigned and sat are ignored (the result is unsigned). */
typedef struct ptx_video_mods {
    uint8_t op;    /* ptx_vop */
    uint8_t cmp;   /* ptx_vcmp, vset only */
    uint8_t asel;  /* ptx_vsel */
    uint8_t bsel;  /* ptx_vsel */
    uint8_t dsel;  /* ptx_vsel; NONE = no data merge */
    uint8_t secop; /* ptx_vsecop */
    bool dsigned, asigned, bsigned;
    bool sat;
    bool shift_clamp;
} ptx_video_mods;

uint32_t ptx_video_scalar(const ptx_video_mods *m, uint32_t a, uint32_t b,
                          uint32_t c);

/* vmad.dtype.atype.btype{.po}{.sat}{.scale} d, {-}a{.asel}, {-}b{.bsel}, {-}c
 * neg_ab: exactly one of a and b is negated (the product is negated).
 * neg_c: c is negated.  Setting both is not valid PTX (the decoder must
 * reject it); this function then ignores neg_c, as the ISA pseudo-code does.
 * shr: 0, 7 (.shr7) or 15 (.shr15).  dtype does not enter the computation:
 * signedness of the result follows from the operand types and negations. */
typedef struct ptx_vmad_mods {
    uint8_t asel, bsel; /* ptx_vsel */
    uint8_t shr;
    bool asigned, bsigned;
    bool neg_ab, neg_c;
    bool po;
    bool sat;
} ptx_vmad_mods;

uint32_t ptx_vmad(const ptx_vmad_mods *m, uint32_t a, uint32_t b, uint32_t c);

/* SIMD forms: vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 (2 lanes of 16
 * bits) and the 4-lane byte versions.
 *   vop2.dtype.atype.btype{.sat}  d{.mask}, a{.asel}, b{.bsel}, c   (merge)
 *   vop2.dtype.atype.btype.add    d{.mask}, a{.asel}, b{.bsel}, c   (accum.)
 * asel/bsel: nibble i gives the element of {b, a} feeding lane i (elements
 * 0..3 are half-words, 0..7 bytes; elements of a come first).  ".h10" is
 * 0x10, ".b7654" is 0x7654.  mask: bit i set = lane i is selected.
 * Merge: selected lanes take the (saturated) result, the others the same lane
 * of c.  Accumulate (add = true): d = c + sum of the selected lanes' results
 * (full-precision, signed per the operand types).  vset2/vset4: cmp is used,
 * results are 0/1, dsigned and sat are ignored.  (The ISA prose for
 * vset2/vset4 says unselected lanes come from b; its pseudo-code, which we
 * follow, takes them from c like the other SIMD forms.) */
typedef struct ptx_vsimd_mods {
    uint8_t op;  /* ptx_vop */
    uint8_t cmp; /* ptx_vcmp, vset2/vset4 only */
    uint8_t mask;
    uint16_t asel, bsel;
    bool dsigned, asigned, bsigned;
    bool sat;
    bool add;
} ptx_vsimd_mods;

/* Defaults of the optional SIMD modifiers. */
#define PTX_VSIMD2_MASK_DEFAULT 0x3u
#define PTX_VSIMD2_ASEL_DEFAULT 0x10u
#define PTX_VSIMD2_BSEL_DEFAULT 0x32u
#define PTX_VSIMD4_MASK_DEFAULT 0xfu
#define PTX_VSIMD4_ASEL_DEFAULT 0x3210u
#define PTX_VSIMD4_BSEL_DEFAULT 0x7654u

uint32_t ptx_video_simd2(const ptx_vsimd_mods *m, uint32_t a, uint32_t b,
                         uint32_t c);
uint32_t ptx_video_simd4(const ptx_vsimd_mods *m, uint32_t a, uint32_t b,
                         uint32_t c);

/* Decoder helpers; names are given without the leading dot.
 * "b0".."b3", "h0", "h1" -> ptx_vsel; -1 when unknown. */
int ptx_vsel_from_name(const char *s, unsigned len);
/* "eq" "ne" "lt" "le" "gt" "ge" -> ptx_vcmp; -1 when unknown. */
int ptx_vcmp_from_name(const char *s, unsigned len);
/* SIMD source selector: "h" + 2 digits 0..3 (lanes = 2) or "b" + 4 digits
 * 0..7 (lanes = 4), high lane first.  Returns false when malformed. */
bool ptx_vsimd_parse_sel(const char *s, unsigned len, unsigned lanes,
                         uint16_t *out);
/* SIMD mask: "h" or "b" and one or more lane digits (< lanes), e.g. "h10",
 * "b310".  Returns false when malformed. */
bool ptx_vsimd_parse_mask(const char *s, unsigned len, unsigned lanes,
                          uint8_t *out);

#endif
