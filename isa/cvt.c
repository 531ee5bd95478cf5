/* isa/cvt.c — the cvt instruction: every supported type pair goes through
 * one exact path (soft-float unpack -> round -> pack); a few hot pairs also
 * get host-FPU fast paths, exposed through ptx_cvt_lookup. */
#include "isa/cvt.h"

/* ---------------------------------------------------------------------
 * Type helpers
 * ------------------------------------------------------------------- */

static bool is_int(ptx_type t)
{
    switch (t) {
    case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64:
    case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64:
    case PTX_T_B8: case PTX_T_B16: case PTX_T_B32: case PTX_T_B64:
        return true;
    default:
        return false;
    }
}

/* Scalar float types cvt handles, with their soft-float format. */
static bool float_fmt(ptx_type t, ptx_fpfmt *f)
{
    switch (t) {
    case PTX_T_F16:
        *f = PTX_FMT_F16;
        return true;
    case PTX_T_BF16:
        *f = PTX_FMT_BF16;
        return true;
    case PTX_T_F32:
        *f = PTX_FMT_F32;
        return true;
    case PTX_T_F64:
        *f = PTX_FMT_F64;
        return true;
    default:
        return false;
    }
}

static unsigned width(ptx_type t)
{
    return ptx_type_size(t) * 8;
}

static uint64_t low_bits(uint64_t v, unsigned w)
{
    return w >= 64 ? v : v & ((UINT64_C(1) << w) - 1);
}

/* The output convention: signed integers sign-extended, all else zero. */
static uint64_t extend_out(ptx_type dst, uint64_t v)
{
    unsigned w = width(dst);
    v = low_bits(v, w);
    if (ptx_type_is_signed(dst) && w < 64 && (v >> (w - 1)) & 1)
        v |= ~UINT64_C(0) << w;
    return v;
}

static bool is_frnd(ptx_rnd r)
{
    return r == PTX_RND_RN || r == PTX_RND_RZ || r == PTX_RND_RM ||
           r == PTX_RND_RP || r == PTX_RND_RNA;
}
static bool is_irnd(ptx_rnd r)
{
    return r == PTX_RND_RNI || r == PTX_RND_RZI || r == PTX_RND_RMI ||
           r == PTX_RND_RPI;
}

/* ---------------------------------------------------------------------
 * int -> int
 * ------------------------------------------------------------------- */

static uint64_t cvt_i2i(ptx_type dst, ptx_type src, unsigned flags,
                        uint64_t in)
{
    unsigned sw = width(src), dw = width(dst);
    bool ss = ptx_type_is_signed(src), ds = ptx_type_is_signed(dst);
    uint64_t u = low_bits(in, sw);
    int64_t s = 0;
    if (ss) { /* sign-extend the source value */
        s = (sw < 64 && (u >> (sw - 1)) & 1) ? (int64_t)(u | (~UINT64_C(0) << sw))
                                             : (int64_t)u;
        u = (uint64_t)s;
    }
    if (flags & PTX_CVT_SAT) {
        uint64_t umax = dw >= 64 ? UINT64_MAX : (UINT64_C(1) << dw) - 1;
        int64_t smax = (int64_t)(umax >> 1), smin = -smax - 1;
        if (ds) {
            if (ss)
                u = (uint64_t)(s > smax ? smax : s < smin ? smin : s);
            else
                u = u > (uint64_t)smax ? (uint64_t)smax : u;
        } else {
            if (ss && s < 0)
                u = 0;
            else
                u = u > umax ? umax : u;
        }
    }
    return extend_out(dst, u);
}

/* ---------------------------------------------------------------------
 * float -> int
 * ------------------------------------------------------------------- */

static uint64_t cvt_f2i(ptx_type dst, ptx_type src, ptx_fpval v,
                        ptx_rnd irnd)
{
    unsigned w = width(dst);
    bool sgn = ptx_type_is_signed(dst);
    uint64_t umax = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    uint64_t max = sgn ? umax >> 1 : umax;
    uint64_t min_neg_mag = sgn ? (umax >> 1) + 1 : 0; /* |MININT| */
    uint64_t mag;

    if (v.cls == PTX_FPC_NAN) {
        if (src != PTX_T_F64 && w != 64)
            return 0;
        return extend_out(dst, UINT64_C(1) << (w - 1));
    }
    bool ok = v.cls != PTX_FPC_INF && ptx_fp_round_u64(v, irnd, &mag);
    if (!v.sign) {
        if (!ok || mag > max)
            mag = max;
        return extend_out(dst, mag);
    }
    if (!ok || mag > min_neg_mag)
        mag = min_neg_mag;
    return extend_out(dst, (uint64_t)0 - mag);
}

/* ---------------------------------------------------------------------
 * -> float
 * ------------------------------------------------------------------- */

/* An f64 NaN built from a NaN of format f: sign and payload kept. */
static uint64_t nan_to_f64(ptx_type src, uint64_t in)
{
    switch (src) {
    case PTX_T_F32:
        return ptx_cvt_f32_to_f64((uint32_t)in);
    case PTX_T_F16:
        return ptx_f16_to_f64((uint16_t)in);
    case PTX_T_BF16:
        return ptx_bf16_to_f64((uint16_t)in);
    default:
        return in | (UINT64_C(1) << 51);
    }
}

/* Rounds v into float type dst and applies .ftz/.sat/.relu/.satfinite. */
static uint64_t to_float(ptx_type dst, ptx_fpval v, ptx_rnd rnd,
                         unsigned flags)
{
    switch (dst) {
    case PTX_T_F16:
        return ptx_half_from_fpval(PTX_FMT_F16, v, rnd, flags);
    case PTX_T_BF16:
        return ptx_half_from_fpval(PTX_FMT_BF16, v, rnd, flags);
    case PTX_T_F32: {
        uint32_t r = (uint32_t)ptx_fp_pack(PTX_FMT_F32, v, rnd, false);
        if (flags & PTX_CVT_FTZ)
            r = ptx_f32_ftz(r);
        if (flags & PTX_CVT_SAT)
            r = ptx_f32_sat(r);
        return r;
    }
    default: { /* F64 */
        uint64_t r = ptx_fp_pack(PTX_FMT_F64, v, rnd, false);
        return (flags & PTX_CVT_SAT) ? ptx_f64_sat(r) : r;
    }
    }
}

static bool cvt_i2f(ptx_type dst, ptx_type src, ptx_rnd rnd, unsigned flags,
                    uint64_t in, uint64_t *out)
{
    if (!is_frnd(rnd))
        return false; /* rounding is mandatory for int -> float */
    unsigned sw = width(src);
    uint64_t u = low_bits(in, sw);
    bool neg = false;
    if (ptx_type_is_signed(src) && (u >> (sw - 1)) & 1) {
        neg = true;
        u = (uint64_t)0 - (u | (sw < 64 ? ~UINT64_C(0) << sw : 0));
    }
    *out = to_float(dst, ptx_fp_from_u64(neg, u), rnd, flags);
    return true;
}

static bool cvt_f2f(ptx_type dst, ptx_type src, ptx_fpfmt sf, ptx_rnd rnd,
                    unsigned flags, uint64_t in, uint64_t *out)
{
    unsigned dw = width(dst), sw = width(src);
    in = low_bits(in, sw);
    if (src == PTX_T_F32 && (flags & PTX_CVT_FTZ))
        in = ptx_f32_ftz((uint32_t)in);
    ptx_fpval v = ptx_fp_unpack(sf, in);

    if (is_irnd(rnd)) {
        if (dst != src)
            return false; /* integer rounding only within one type */
        v = ptx_fp_round_integral(v, rnd);
        rnd = PTX_RND_RN; /* the value is now exact in dst */
    } else if (dst == src || dw > sw) {
        rnd = PTX_RND_RN; /* exact: any rounding field is moot */
    } else if (!is_frnd(rnd)) {
        return false; /* narrowing (or f16 <-> bf16) needs a rounding */
    }
    if (v.cls == PTX_FPC_NAN && dst == PTX_T_F64) {
        uint64_t r = nan_to_f64(src, in);
        *out = (flags & PTX_CVT_SAT) ? 0 : r;
        return true;
    }
    *out = to_float(dst, v, rnd, flags);
    return true;
}

/* ---------------------------------------------------------------------
 * tf32 and the 8-bit formats
 * ------------------------------------------------------------------- */

static uint64_t relu_or_nan(uint64_t r, bool is_nan, uint64_t canon,
                            unsigned sign_shift, unsigned flags)
{
    if (is_nan)
        return canon;
    if ((flags & PTX_CVT_RELU) && ((r >> sign_shift) & 1))
        return 0;
    return r;
}

static uint64_t to_tf32(uint32_t f, ptx_rnd rnd, unsigned flags)
{
    if (flags & PTX_CVT_FTZ)
        f = ptx_f32_ftz(f);
    uint64_t r = ptx_fp_pack(PTX_FMT_TF32, ptx_fp_unpack(PTX_FMT_F32, f), rnd,
                             (flags & PTX_CVT_SATFINITE) != 0);
    bool nan = ptx_fp_is_nan_bits(PTX_FMT_TF32, r);
    return relu_or_nan(r << 13, nan, PTX_F32_CANON_NAN, 31, flags);
}

static uint64_t to_f8(ptx_fpfmt f8, ptx_fpval v, ptx_rnd rnd, unsigned flags)
{
    uint64_t r = ptx_fp_pack(f8, v, rnd, (flags & PTX_CVT_SATFINITE) != 0);
    return relu_or_nan(r, ptx_fp_is_nan_bits(f8, r), ptx_fp_canon_nan(f8), 7,
                       flags);
}

static uint64_t f8_to_f16(ptx_fpfmt f8, uint64_t b, unsigned flags)
{
    uint64_t r = ptx_fp_pack(PTX_FMT_F16, ptx_fp_unpack(f8, b & 0xff),
                             PTX_RND_RN, false); /* exact */
    return relu_or_nan(r, ptx_f16_isnan((uint16_t)r), PTX_F16_CANON_NAN, 15,
                       flags);
}

static bool f8_fmt(ptx_type t, ptx_fpfmt *f)
{
    if (t == PTX_T_E4M3X2) {
        *f = PTX_FMT_E4M3;
        return true;
    }
    if (t == PTX_T_E5M2X2) {
        *f = PTX_FMT_E5M2;
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------- */

bool ptx_cvt(ptx_type dst, ptx_type src, ptx_rnd rnd, unsigned flags,
             uint64_t in, uint64_t *out)
{
    ptx_fpfmt df = PTX_FMT_F32, sf = PTX_FMT_F32, f8;
    bool dfl = float_fmt(dst, &df), sfl = float_fmt(src, &sf);

    if (rnd == PTX_RND_RS)
        return false; /* needs the rbits operand */
    if (is_int(dst) && is_int(src)) {
        *out = cvt_i2i(dst, src, flags, in);
        return true;
    }
    if (is_int(dst) && sfl) {
        if (!is_irnd(rnd))
            return false; /* float -> int needs .rni/.rzi/.rmi/.rpi */
        in = low_bits(in, width(src));
        if (src == PTX_T_F32 && (flags & PTX_CVT_FTZ))
            in = ptx_f32_ftz((uint32_t)in);
        *out = cvt_f2i(dst, src, ptx_fp_unpack(sf, in), rnd);
        return true;
    }
    if (dfl && is_int(src))
        return cvt_i2f(dst, src, rnd, flags, in, out);
    if (dfl && sfl)
        return cvt_f2f(dst, src, sf, rnd, flags, in, out);
    if (dst == PTX_T_TF32 && src == PTX_T_F32) {
        if (!is_frnd(rnd))
            return false;
        *out = to_tf32((uint32_t)in, rnd, flags);
        return true;
    }
    /* {e4m3x2,e5m2x2}.{f16x2,bf16x2}: each half to a byte, in place */
    if (f8_fmt(dst, &f8) && (src == PTX_T_F16X2 || src == PTX_T_BF16X2)) {
        ptx_fpfmt hf = src == PTX_T_F16X2 ? PTX_FMT_F16 : PTX_FMT_BF16;
        if (!is_frnd(rnd))
            return false;
        uint64_t hi = to_f8(f8, ptx_fp_unpack(hf, (in >> 16) & 0xffff), rnd,
                            flags);
        uint64_t lo = to_f8(f8, ptx_fp_unpack(hf, in & 0xffff), rnd, flags);
        *out = hi << 8 | lo;
        return true;
    }
    /* f16x2.{e4m3x2,e5m2x2}: each byte to a half, in place (exact) */
    if (dst == PTX_T_F16X2 && f8_fmt(src, &f8)) {
        *out = f8_to_f16(f8, in >> 8, flags) << 16 | f8_to_f16(f8, in, flags);
        return true;
    }
    return false;
}

bool ptx_cvt_pack2(ptx_type dst, ptx_type src, ptx_rnd rnd, unsigned flags,
                   uint64_t a, uint64_t b, uint64_t *out)
{
    ptx_fpfmt f8;
    if (src != PTX_T_F32 || !is_frnd(rnd))
        return false;
    if (flags & PTX_CVT_FTZ) {
        a = ptx_f32_ftz((uint32_t)a);
        b = ptx_f32_ftz((uint32_t)b);
    }
    ptx_fpval va = ptx_fp_unpack(PTX_FMT_F32, a & 0xffffffffu);
    ptx_fpval vb = ptx_fp_unpack(PTX_FMT_F32, b & 0xffffffffu);
    if (dst == PTX_T_F16X2 || dst == PTX_T_BF16X2) {
        ptx_fpfmt hf = dst == PTX_T_F16X2 ? PTX_FMT_F16 : PTX_FMT_BF16;
        *out = (uint64_t)ptx_half_from_fpval(hf, va, rnd, flags) << 16 |
               ptx_half_from_fpval(hf, vb, rnd, flags);
        return true;
    }
    if (f8_fmt(dst, &f8)) {
        *out = to_f8(f8, va, rnd, flags) << 8 | to_f8(f8, vb, rnd, flags);
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------------
 * Specialised converters for ptx_cvt_lookup
 * ------------------------------------------------------------------- */

static uint64_t sx32(int32_t v)
{
    return (uint64_t)(int64_t)v;
}

static uint64_t c_f32_s32_rzi(uint64_t in)
{
    return sx32(ptx_cvt_f32_to_s32_rzi((uint32_t)in));
}
static uint64_t c_f32_s32_rni(uint64_t in)
{
    return sx32(ptx_cvt_f32_to_s32_rni((uint32_t)in));
}
static uint64_t c_f32_s32_rmi(uint64_t in)
{
    uint32_t f = (uint32_t)in;
    return sx32(ptx_f32_isnan(f) ? 0
                                 : ptx_clamp_s32(floor(ptx_f32_from_bits(f))));
}
static uint64_t c_f32_s32_rpi(uint64_t in)
{
    uint32_t f = (uint32_t)in;
    return sx32(ptx_f32_isnan(f) ? 0
                                 : ptx_clamp_s32(ceil(ptx_f32_from_bits(f))));
}
static uint64_t c_f32_u32_rzi(uint64_t in)
{
    return ptx_cvt_f32_to_u32_rzi((uint32_t)in);
}
static uint64_t c_f32_u32_rni(uint64_t in)
{
    return ptx_cvt_f32_to_u32_rni((uint32_t)in);
}
static uint64_t c_f64_s32_rzi(uint64_t in)
{
    return sx32(ptx_cvt_f64_to_s32_rzi(in));
}
static uint64_t c_f64_s32_rni(uint64_t in)
{
    return sx32(ptx_f64_isnan(in)
                    ? INT32_MIN
                    : ptx_clamp_s32(ptx_rne_integral(ptx_f64_from_bits(in))));
}
static uint64_t c_s32_f32_rn(uint64_t in)
{
    return ptx_cvt_s32_to_f32_rn((int32_t)(uint32_t)in);
}
static uint64_t c_u32_f32_rn(uint64_t in)
{
    return ptx_cvt_u32_to_f32_rn((uint32_t)in);
}
static uint64_t c_s32_f64(uint64_t in)
{
    return ptx_f64_bits((double)(int32_t)(uint32_t)in);
}
static uint64_t c_u32_f64(uint64_t in)
{
    return ptx_f64_bits((double)(uint32_t)in);
}
static uint64_t c_s64_f64_rn(uint64_t in)
{
    return ptx_f64_bits((double)(int64_t)in);
}
static uint64_t c_u64_f64_rn(uint64_t in)
{
    return ptx_f64_bits((double)in);
}
static uint64_t c_f32_f64(uint64_t in)
{
    return ptx_cvt_f32_to_f64((uint32_t)in);
}
static uint64_t c_f64_f32_rn(uint64_t in)
{
    return ptx_cvt_f64_to_f32_rn(in);
}
static uint64_t c_f16_f32(uint64_t in)
{
    return ptx_f16_to_f32((uint16_t)in);
}
static uint64_t c_f32_f16_rn(uint64_t in)
{
    return ptx_f16_from_f32_rn((uint32_t)in);
}
static uint64_t c_bf16_f32(uint64_t in)
{
    return ptx_bf16_to_f32((uint16_t)in);
}
static uint64_t c_f32_bf16_rn(uint64_t in)
{
    return ptx_bf16_from_f32_rn((uint32_t)in);
}
static uint64_t c_u32_u64(uint64_t in)
{
    return in & 0xffffffffu;
}
static uint64_t c_s32_s64(uint64_t in)
{
    return sx32((int32_t)(uint32_t)in);
}

/* cvt.sat.f32.f32: clamp to [0, 1], NaN to +0 (the generic path's answer,
 * checked bit for bit in tests/isa/test_cvt.c). */
static uint64_t c_f32_sat(uint64_t in)
{
    uint32_t b = (uint32_t)in;
    if (ptx_f32_isnan(b))
        return 0;
    if (b & 0x80000000u)
        return 0; /* negative, -0 included */
    return b >= 0x3f800000u ? 0x3f800000u : b;
}

ptx_cvt_fn ptx_cvt_lookup(ptx_type dst, ptx_type src, ptx_rnd rnd,
                          unsigned flags)
{
    static const struct {
        ptx_type dst, src;
        ptx_rnd rnd;
        ptx_cvt_fn fn;
    } table[] = {
        {PTX_T_S32, PTX_T_F32, PTX_RND_RZI, c_f32_s32_rzi},
        {PTX_T_S32, PTX_T_F32, PTX_RND_RNI, c_f32_s32_rni},
        {PTX_T_S32, PTX_T_F32, PTX_RND_RMI, c_f32_s32_rmi},
        {PTX_T_S32, PTX_T_F32, PTX_RND_RPI, c_f32_s32_rpi},
        {PTX_T_U32, PTX_T_F32, PTX_RND_RZI, c_f32_u32_rzi},
        {PTX_T_U32, PTX_T_F32, PTX_RND_RNI, c_f32_u32_rni},
        {PTX_T_S32, PTX_T_F64, PTX_RND_RZI, c_f64_s32_rzi},
        {PTX_T_S32, PTX_T_F64, PTX_RND_RNI, c_f64_s32_rni},
        {PTX_T_F32, PTX_T_S32, PTX_RND_RN, c_s32_f32_rn},
        {PTX_T_F32, PTX_T_U32, PTX_RND_RN, c_u32_f32_rn},
        {PTX_T_F64, PTX_T_S32, PTX_RND_RN, c_s32_f64},
        {PTX_T_F64, PTX_T_U32, PTX_RND_RN, c_u32_f64},
        {PTX_T_F64, PTX_T_S64, PTX_RND_RN, c_s64_f64_rn},
        {PTX_T_F64, PTX_T_U64, PTX_RND_RN, c_u64_f64_rn},
        {PTX_T_F64, PTX_T_F32, PTX_RND_NONE, c_f32_f64},
        {PTX_T_F32, PTX_T_F64, PTX_RND_RN, c_f64_f32_rn},
        {PTX_T_F32, PTX_T_F16, PTX_RND_NONE, c_f16_f32},
        {PTX_T_F16, PTX_T_F32, PTX_RND_RN, c_f32_f16_rn},
        {PTX_T_F32, PTX_T_BF16, PTX_RND_NONE, c_bf16_f32},
        {PTX_T_BF16, PTX_T_F32, PTX_RND_RN, c_f32_bf16_rn},
        {PTX_T_U64, PTX_T_U32, PTX_RND_NONE, c_u32_u64},
        {PTX_T_S64, PTX_T_S32, PTX_RND_NONE, c_s32_s64},
    };
    if (dst == PTX_T_F32 && src == PTX_T_F32 && rnd == PTX_RND_NONE && flags == PTX_CVT_SAT)
        return c_f32_sat; /* the clamp of expf/exp2f expansions */
    if (flags != 0)
        return NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].dst == dst && table[i].src == src && table[i].rnd == rnd)
            return table[i].fn;
    return NULL;
}
