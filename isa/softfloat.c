/* isa/softfloat.c — the exact soft-float core (see softfloat.h). */
#include "isa/softfloat.h"

#include "isa/fp.h" /* PTX_F64_DEFAULT_NAN */

__extension__ typedef unsigned __int128 u128;

/* ---------------------------------------------------------------------
 * Formats
 * ------------------------------------------------------------------- */

typedef struct fmt_desc {
    uint8_t mbits;
    uint8_t ebits;
    bool has_inf; /* false: E4M3 style (all-ones exponent still finite) */
    uint64_t nan; /* canonical NaN */
} fmt_desc;

static const fmt_desc fmts[PTX_FMT_COUNT] = {
    [PTX_FMT_F16] = {10, 5, true, 0x7fff},
    [PTX_FMT_BF16] = {7, 8, true, 0x7fff},
    [PTX_FMT_TF32] = {10, 8, true, 0x3ffff},
    [PTX_FMT_F32] = {23, 8, true, 0x7fffffff},
    [PTX_FMT_F64] = {52, 11, true, PTX_F64_DEFAULT_NAN},
    [PTX_FMT_E4M3] = {3, 4, false, 0x7f},
    [PTX_FMT_E5M2] = {2, 5, true, 0x7f},
    [PTX_FMT_F64HI] = {20, 11, true, 0x7fffffff},
};

static inline int fmt_bias(const fmt_desc *d)
{
    return (1 << (d->ebits - 1)) - 1;
}
static inline uint64_t fmt_emask(const fmt_desc *d)
{
    return (UINT64_C(1) << d->ebits) - 1;
}
static inline uint64_t fmt_mmask(const fmt_desc *d)
{
    return (UINT64_C(1) << d->mbits) - 1;
}
/* Largest finite magnitude as an encoding without the sign. */
static inline uint64_t fmt_maxfinite(const fmt_desc *d)
{
    if (d->has_inf)
        return (fmt_emask(d) << d->mbits) - 1;
    return (fmt_emask(d) << d->mbits) | (fmt_mmask(d) - 1);
}

uint64_t ptx_fp_canon_nan(ptx_fpfmt f)
{
    return fmts[f].nan;
}

bool ptx_fp_is_nan_bits(ptx_fpfmt f, uint64_t bits)
{
    const fmt_desc *d = &fmts[f];
    uint64_t e = (bits >> d->mbits) & fmt_emask(d);
    uint64_t m = bits & fmt_mmask(d);
    if (e != fmt_emask(d))
        return false;
    return d->has_inf ? m != 0 : m == fmt_mmask(d);
}

static inline int clz64(uint64_t x)
{
    return __builtin_clzll(x);
}
static inline int clz128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? clz64(hi) : 64 + clz64((uint64_t)x);
}

ptx_fpval ptx_fp_unpack(ptx_fpfmt f, uint64_t bits)
{
    const fmt_desc *d = &fmts[f];
    unsigned total = 1u + d->ebits + d->mbits;
    ptx_fpval v = {PTX_FPC_ZERO, (bits >> (total - 1)) & 1, false, 0, 0};
    uint64_t e = (bits >> d->mbits) & fmt_emask(d);
    uint64_t m = bits & fmt_mmask(d);
    int emin = 1 - fmt_bias(d);

    if (ptx_fp_is_nan_bits(f, bits)) {
        v.cls = PTX_FPC_NAN;
    } else if (e == fmt_emask(d) && d->has_inf) {
        v.cls = PTX_FPC_INF;
    } else if (e == 0) {
        if (m != 0) {
            int lz = clz64(m);
            v.cls = PTX_FPC_FINITE;
            v.sig = m << lz;
            v.exp = emin - d->mbits + 63 - lz;
        }
    } else {
        v.cls = PTX_FPC_FINITE;
        v.sig = (m | (UINT64_C(1) << d->mbits)) << (63 - d->mbits);
        v.exp = (int32_t)e - fmt_bias(d);
    }
    return v;
}

/* Whether to add one unit in the last kept place. */
static inline bool round_up(ptx_rnd rnd, bool sign, bool lsb, bool guard,
                            bool rest)
{
    switch (rnd) {
    case PTX_RND_RZ:
    case PTX_RND_RZI:
        return false;
    case PTX_RND_RM:
    case PTX_RND_RMI:
        return sign && (guard || rest);
    case PTX_RND_RP:
    case PTX_RND_RPI:
        return !sign && (guard || rest);
    case PTX_RND_RNA:
        return guard;
    default: /* RN, RNI, NONE, RS */
        return guard && (rest || lsb);
    }
}

/* Splits sig (plus sticky) at `shift` fractional bits. */
static inline void split_bits(uint64_t sig, bool sticky, int shift,
                              uint64_t *keep, bool *guard, bool *rest)
{
    if (shift <= 0) {
        *keep = sig;
        *guard = false;
        *rest = sticky;
    } else if (shift > 64) {
        *keep = 0;
        *guard = false;
        *rest = sig != 0 || sticky;
    } else if (shift == 64) {
        *keep = 0;
        *guard = sig >> 63;
        *rest = (sig << 1) != 0 || sticky;
    } else {
        *keep = sig >> shift;
        *guard = (sig >> (shift - 1)) & 1;
        *rest = (sig & ((UINT64_C(1) << (shift - 1)) - 1)) != 0 || sticky;
    }
}

uint64_t ptx_fp_pack(ptx_fpfmt f, ptx_fpval v, ptx_rnd rnd, bool satfinite)
{
    const fmt_desc *d = &fmts[f];
    unsigned total = 1u + d->ebits + d->mbits;
    uint64_t sbit = (uint64_t)v.sign << (total - 1);
    uint64_t maxf = fmt_maxfinite(d);
    uint64_t inf = fmt_emask(d) << d->mbits;
    int bias = fmt_bias(d);
    int emin = 1 - bias;
    int emax = d->has_inf ? bias : (int)fmt_emask(d) - bias;

    switch (v.cls) {
    case PTX_FPC_NAN:
        return d->nan;
    case PTX_FPC_INF:
        if (satfinite)
            return sbit | maxf;
        return d->has_inf ? (sbit | inf) : d->nan;
    case PTX_FPC_ZERO:
        return sbit;
    default:
        break;
    }
    if (v.exp > emax + 1)
        goto overflow;

    int shift = 63 - d->mbits;
    if (v.exp < emin) /* subnormal: fewer significant bits */
        shift += (emin - v.exp > 70) ? 70 : emin - v.exp;
    uint64_t keep;
    bool guard, rest;
    split_bits(v.sig, v.sticky, shift, &keep, &guard, &rest);
    keep += round_up(rnd, v.sign, keep & 1, guard, rest);
    /* Normal: biased exponent field is exp - emin + 1, and keep carries the
     * implicit bit, which adds that 1; a carry out of the significand lands
     * in the exponent field by itself.  Subnormal: keep is the encoding. */
    uint64_t mag = v.exp < emin
                       ? keep
                       : ((uint64_t)(v.exp - emin) << d->mbits) + keep;
    if (mag <= maxf)
        return sbit | mag;

overflow:
    if (satfinite)
        return sbit | maxf;
    if (!d->has_inf)
        return d->nan;
    switch (rnd) {
    case PTX_RND_RZ:
        return sbit | maxf;
    case PTX_RND_RM:
        return sbit | (v.sign ? inf : maxf);
    case PTX_RND_RP:
        return sbit | (v.sign ? maxf : inf);
    default:
        return sbit | inf;
    }
}

ptx_fpval ptx_fp_from_u64(bool neg, uint64_t mag)
{
    ptx_fpval v = {PTX_FPC_ZERO, neg, false, 0, 0};
    if (mag) {
        int lz = clz64(mag);
        v.cls = PTX_FPC_FINITE;
        v.sig = mag << lz;
        v.exp = 63 - lz;
    }
    return v;
}

static inline ptx_fpval mk_special(uint8_t cls, bool sign)
{
    ptx_fpval v = {cls, sign, false, 0, 0};
    return v;
}

/* s != 0 with value s * 2^(top - 127): normalise to a 64-bit sig + sticky. */
static ptx_fpval norm128(bool sign, int32_t top, u128 s)
{
    int lz = clz128(s);
    s <<= lz;
    ptx_fpval v = {PTX_FPC_FINITE, sign, (uint64_t)s != 0, top - lz,
                   (uint64_t)(s >> 64)};
    return v;
}

/* Exact-with-sticky sum of A * 2^(ea-126) and B * 2^(eb-126), A and B below
 * 2^127 and non-zero.  Callers leave enough zero bits at the bottom that a
 * right shift which could be followed by cancellation (d <= 1) is exact; a
 * larger shift jams lost bits into the LSB, far below the 64 kept bits. */
static ptx_fpval add_aligned(bool sa, int32_t ea, u128 A, bool sb, int32_t eb,
                             u128 B, ptx_rnd rnd)
{
    if (ea < eb) {
        bool ts = sa;
        int32_t te = ea;
        u128 tv = A;
        sa = sb, ea = eb, A = B;
        sb = ts, eb = te, B = tv;
    }
    int64_t dsh = (int64_t)ea - eb;
    if (dsh >= 127) {
        B = 1;
    } else if (dsh > 0) {
        u128 lost = B & (((u128)1 << dsh) - 1);
        B = (B >> dsh) | (lost != 0);
    }
    u128 s;
    bool sign;
    if (sa == sb) {
        s = A + B;
        sign = sa;
    } else if (A >= B) {
        s = A - B;
        sign = sa;
    } else {
        s = B - A;
        sign = sb;
    }
    if (s == 0) /* exact cancellation: +0, or -0 when rounding down */
        return mk_special(PTX_FPC_ZERO, rnd == PTX_RND_RM);
    return norm128(sign, ea + 1, s);
}

ptx_fpval ptx_sf_add(ptx_fpval a, ptx_fpval b, ptx_rnd rnd)
{
    if (a.cls == PTX_FPC_NAN || b.cls == PTX_FPC_NAN)
        return mk_special(PTX_FPC_NAN, false);
    if (a.cls == PTX_FPC_INF) {
        if (b.cls == PTX_FPC_INF && a.sign != b.sign)
            return mk_special(PTX_FPC_NAN, false);
        return a;
    }
    if (b.cls == PTX_FPC_INF)
        return b;
    if (a.cls == PTX_FPC_ZERO && b.cls == PTX_FPC_ZERO) {
        bool s = a.sign == b.sign ? a.sign : rnd == PTX_RND_RM;
        return mk_special(PTX_FPC_ZERO, s);
    }
    if (a.cls == PTX_FPC_ZERO)
        return b;
    if (b.cls == PTX_FPC_ZERO)
        return a;
    return add_aligned(a.sign, a.exp, (u128)a.sig << 63, b.sign, b.exp,
                       (u128)b.sig << 63, rnd);
}

ptx_fpval ptx_sf_mul(ptx_fpval a, ptx_fpval b)
{
    bool s = a.sign ^ b.sign;
    if (a.cls == PTX_FPC_NAN || b.cls == PTX_FPC_NAN)
        return mk_special(PTX_FPC_NAN, false);
    if (a.cls == PTX_FPC_INF || b.cls == PTX_FPC_INF) {
        if (a.cls == PTX_FPC_ZERO || b.cls == PTX_FPC_ZERO)
            return mk_special(PTX_FPC_NAN, false);
        return mk_special(PTX_FPC_INF, s);
    }
    if (a.cls == PTX_FPC_ZERO || b.cls == PTX_FPC_ZERO)
        return mk_special(PTX_FPC_ZERO, s);
    u128 p = (u128)a.sig * b.sig; /* in [2^126, 2^128) */
    return norm128(s, a.exp + b.exp + 1, p);
}

ptx_fpval ptx_sf_fma(ptx_fpval a, ptx_fpval b, ptx_fpval c, ptx_rnd rnd)
{
    bool ps = a.sign ^ b.sign;
    if (a.cls == PTX_FPC_NAN || b.cls == PTX_FPC_NAN || c.cls == PTX_FPC_NAN)
        return mk_special(PTX_FPC_NAN, false);
    if (a.cls == PTX_FPC_INF || b.cls == PTX_FPC_INF) {
        if (a.cls == PTX_FPC_ZERO || b.cls == PTX_FPC_ZERO)
            return mk_special(PTX_FPC_NAN, false);
        if (c.cls == PTX_FPC_INF && c.sign != ps)
            return mk_special(PTX_FPC_NAN, false);
        return mk_special(PTX_FPC_INF, ps);
    }
    if (c.cls == PTX_FPC_INF)
        return c;
    if (a.cls == PTX_FPC_ZERO || b.cls == PTX_FPC_ZERO)
        return ptx_sf_add(mk_special(PTX_FPC_ZERO, ps), c, rnd);
    if (c.cls == PTX_FPC_ZERO)
        return ptx_sf_mul(a, b);
    /* Inputs have at most 53 significant bits, so the 128-bit product has
     * >= 22 zero bits at the bottom: the 1-bit shift below is exact and the
     * product can be shifted 21 more places without loss. */
    u128 p = (u128)a.sig * b.sig;
    int32_t pe = a.exp + b.exp;
    if (p >> 127) {
        p = (p >> 1) | (p & 1);
        pe += 1;
    }
    return add_aligned(ps, pe, p, c.sign, c.exp, (u128)c.sig << 63, rnd);
}

ptx_fpval ptx_sf_div(ptx_fpval a, ptx_fpval b)
{
    bool s = a.sign ^ b.sign;
    if (a.cls == PTX_FPC_NAN || b.cls == PTX_FPC_NAN)
        return mk_special(PTX_FPC_NAN, false);
    if (a.cls == PTX_FPC_INF)
        return b.cls == PTX_FPC_INF ? mk_special(PTX_FPC_NAN, false)
                                    : mk_special(PTX_FPC_INF, s);
    if (b.cls == PTX_FPC_INF)
        return mk_special(PTX_FPC_ZERO, s);
    if (b.cls == PTX_FPC_ZERO)
        return a.cls == PTX_FPC_ZERO ? mk_special(PTX_FPC_NAN, false)
                                     : mk_special(PTX_FPC_INF, s);
    if (a.cls == PTX_FPC_ZERO)
        return mk_special(PTX_FPC_ZERO, s);
    u128 n = (u128)a.sig << 64;
    u128 q = n / b.sig; /* in (2^63, 2^65) */
    bool rem = (n % b.sig) != 0;
    ptx_fpval v = {PTX_FPC_FINITE, s, rem, a.exp - b.exp - 1, 0};
    if (q >> 64) {
        v.sticky |= q & 1;
        q >>= 1;
        v.exp += 1;
    }
    v.sig = (uint64_t)q;
    return v;
}

/* floor(sqrt(x)) and whether it was exact (digit-by-digit method). */
static uint64_t isqrt128(u128 x, bool *inexact)
{
    u128 rem = x, res = 0, bit = (u128)1 << 126;
    while (bit > rem)
        bit >>= 2;
    while (bit) {
        if (rem >= res + bit) {
            rem -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    *inexact = rem != 0;
    return (uint64_t)res;
}

ptx_fpval ptx_sf_sqrt(ptx_fpval a)
{
    if (a.cls == PTX_FPC_NAN)
        return a;
    if (a.cls == PTX_FPC_ZERO)
        return a; /* sqrt(-0) = -0 */
    if (a.sign)
        return mk_special(PTX_FPC_NAN, false);
    if (a.cls == PTX_FPC_INF)
        return a;
    /* value = sig * 2^m, m = exp - 63; make the scale even and the radicand
     * 127 or 128 bits so the root has its top bit at 63. */
    int32_t m = a.exp - 63;
    u128 x;
    if (m & 1) {
        x = (u128)a.sig << 63;
        m -= 63;
    } else {
        x = (u128)a.sig << 64;
        m -= 64;
    }
    bool inexact;
    ptx_fpval v = {PTX_FPC_FINITE, false, false, 0, 0};
    v.sig = isqrt128(x, &inexact);
    v.sticky = inexact;
    v.exp = 63 + m / 2;
    return v;
}

bool ptx_fp_round_u64(ptx_fpval v, ptx_rnd irnd, uint64_t *mag)
{
    if (v.cls == PTX_FPC_ZERO) {
        *mag = 0;
        return true;
    }
    if (v.cls != PTX_FPC_FINITE || v.exp >= 64)
        return false;
    uint64_t keep;
    bool guard, rest;
    split_bits(v.sig, v.sticky, 63 - v.exp, &keep, &guard, &rest);
    keep += round_up(irnd, v.sign, keep & 1, guard, rest);
    *mag = keep; /* keep < 2^63 whenever a fraction existed: no overflow */
    return true;
}

ptx_fpval ptx_fp_round_integral(ptx_fpval v, ptx_rnd irnd)
{
    uint64_t mag;
    if (v.cls != PTX_FPC_FINITE || v.exp >= 63)
        return v;
    ptx_fp_round_u64(v, irnd, &mag);
    if (mag == 0) /* keeps the sign: rni(-0.3) = -0.0 */
        return mk_special(PTX_FPC_ZERO, v.sign);
    return ptx_fp_from_u64(v.sign, mag);
}
