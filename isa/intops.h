/* isa/intops.h — PTX integer, bit-manipulation and logic instruction semantics.
 *
 * Pure scalar functions; the executor calls them once per active lane.
 *
 * Conventions (all functions):
 * - Values travel as bit patterns in uint64_t (uint32_t where the instruction
 *   exists only at 32 bits).  `bits` is the operation width: 16, 32 or 64
 *   (8 also works for the width-generic helpers).  Get it from the
 *   instruction type as 8 * ptx_type_size(t); `sgn` is ptx_type_is_signed(t)
 *   (.sNN true; .uNN and .bNN false).
 * - Only the low `bits` bits of each input are read, so a register holding
 *   garbage above the width is fine.  Results are zero-extended: bits above
 *   the result width are 0.
 * - No function has undefined behaviour for any input (signed overflow is
 *   done in unsigned arithmetic, shift counts are range-checked).
 * - Choices where the PTX ISA says "unspecified" are documented at the
 *   function (div/rem by zero).
 */
#ifndef PTXEMU_ISA_INTOPS_H
#define PTXEMU_ISA_INTOPS_H

#include <stdbool.h>
#include <stdint.h>

/* 128-bit integers for the 64-bit .hi products (__extension__ keeps
 * -Wpedantic users of this header quiet). */
__extension__ typedef __int128 ptx_int_i128;
__extension__ typedef unsigned __int128 ptx_int_u128;

/* ---- width helpers ------------------------------------------------------ */

static inline uint64_t ptx_int_mask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

static inline uint64_t ptx_int_trunc(uint64_t v, unsigned bits)
{
    return v & ptx_int_mask(bits);
}

/* Low `bits` bits of v, sign-extended to 64 bits (returned as a pattern). */
static inline uint64_t ptx_int_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return v;
    uint64_t m = UINT64_C(1) << (bits - 1);
    return ((v & ptx_int_mask(bits)) ^ m) - m;
}

/* Sign- or zero-extend the low `bits` bits to 64. */
static inline uint64_t ptx_int_ext(uint64_t v, unsigned bits, bool sgn)
{
    return sgn ? ptx_int_sext(v, bits) : ptx_int_trunc(v, bits);
}

/* Arithmetic right shift of a 64-bit pattern without relying on
 * implementation-defined >> of negative values.  n < 64. */
static inline uint64_t ptx_int_asr64(uint64_t v, unsigned n)
{
    return (v >> 63) ? ~(~v >> n) : v >> n;
}

/* ---- add / sub ---------------------------------------------------------- */

/* add/sub .u16 .u32 .u64 .s16 .s32 .s64 (wrapping, sign irrelevant). */
static inline uint64_t ptx_int_add(uint64_t a, uint64_t b, unsigned bits)
{
    return ptx_int_trunc(a + b, bits);
}

static inline uint64_t ptx_int_sub(uint64_t a, uint64_t b, unsigned bits)
{
    return ptx_int_trunc(a - b, bits);
}

static inline uint32_t ptx_int_clamp_s32(int64_t v)
{
    if (v > INT32_MAX)
        return (uint32_t)INT32_MAX;
    if (v < INT32_MIN)
        return (uint32_t)INT32_MIN;
    return (uint32_t)v;
}

/* add.sat.s32 / sub.sat.s32: clamp to INT32_MIN..INT32_MAX. */
static inline uint32_t ptx_int_add_sat_s32(uint32_t a, uint32_t b)
{
    return ptx_int_clamp_s32((int64_t)(int32_t)a + (int32_t)b);
}

static inline uint32_t ptx_int_sub_sat_s32(uint32_t a, uint32_t b)
{
    return ptx_int_clamp_s32((int64_t)(int32_t)a - (int32_t)b);
}

/* add.u16x2 / add.s16x2: two independent wrapping 16-bit adds. */
static inline uint32_t ptx_int_add_16x2(uint32_t a, uint32_t b)
{
    uint32_t lo = (a + b) & 0xffffu;
    uint32_t hi = ((a >> 16) + (b >> 16)) & 0xffffu;
    return lo | hi << 16;
}

/* ---- multiply ----------------------------------------------------------- */

/* mul.lo: low half of the product (same for signed and unsigned). */
static inline uint64_t ptx_int_mul_lo(uint64_t a, uint64_t b, unsigned bits)
{
    return ptx_int_trunc(a * b, bits);
}

/* mul.hi: bits [2n-1..n] of the full 2n-bit product. */
static inline uint64_t ptx_int_mul_hi(uint64_t a, uint64_t b, unsigned bits,
                                  bool sgn)
{
    if (bits >= 64) {
        if (sgn) {
            ptx_int_i128 p = (ptx_int_i128)(int64_t)a * (int64_t)b;
            return (uint64_t)((ptx_int_u128)p >> 64);
        }
        ptx_int_u128 p = (ptx_int_u128)a * b;
        return (uint64_t)(p >> 64);
    }
    /* n <= 32: the exact product fits in 64 bits; the low 64 bits of the
     * product of the sign-extended patterns are its two's complement. */
    uint64_t p = ptx_int_ext(a, bits, sgn) * ptx_int_ext(b, bits, sgn);
    return ptx_int_trunc(p >> bits, bits);
}

/* mul.wide (.16 and .32 only): the full 2n-bit product. */
static inline uint64_t ptx_int_mul_wide(uint64_t a, uint64_t b, unsigned bits,
                                    bool sgn)
{
    return ptx_int_trunc(ptx_int_ext(a, bits, sgn) * ptx_int_ext(b, bits, sgn), 2 * bits);
}

/* mad.lo / mad.hi / mad.wide: product part plus c (c is 2n bits wide for
 * .wide), wrapping. */
static inline uint64_t ptx_int_mad_lo(uint64_t a, uint64_t b, uint64_t c,
                                  unsigned bits)
{
    return ptx_int_trunc(a * b + c, bits);
}

static inline uint64_t ptx_int_mad_hi(uint64_t a, uint64_t b, uint64_t c,
                                  unsigned bits, bool sgn)
{
    return ptx_int_trunc(ptx_int_mul_hi(a, b, bits, sgn) + c, bits);
}

static inline uint64_t ptx_int_mad_wide(uint64_t a, uint64_t b, uint64_t c,
                                    unsigned bits, bool sgn)
{
    return ptx_int_trunc(ptx_int_mul_wide(a, b, bits, sgn) + c, 2 * bits);
}

/* mad.hi.sat.s32: high word of the signed product plus c, clamped. */
static inline uint32_t ptx_int_mad_hi_sat_s32(uint32_t a, uint32_t b, uint32_t c)
{
    int32_t hi = (int32_t)(uint32_t)ptx_int_mul_hi(a, b, 32, true);
    return ptx_int_clamp_s32((int64_t)hi + (int32_t)c);
}

/* mul24 / mad24 (.u32 .s32): the operands are the low 24 bits of a and b
 * (sign-extended for .s32); t is their 48-bit product.  .lo gives t<31..0>,
 * .hi gives t<47..16> (not t<47..32>: the result is a 32-bit window). */
static inline uint32_t ptx_int_mul24(uint32_t a, uint32_t b, bool hi, bool sgn)
{
    uint64_t p = ptx_int_ext(a, 24, sgn) * ptx_int_ext(b, 24, sgn);
    return (uint32_t)(hi ? p >> 16 : p);
}

static inline uint32_t ptx_int_mad24(uint32_t a, uint32_t b, uint32_t c, bool hi,
                                 bool sgn)
{
    return ptx_int_mul24(a, b, hi, sgn) + c;
}

/* mad24.hi.sat.s32: the 32-bit signed addition is clamped. */
static inline uint32_t ptx_int_mad24_hi_sat_s32(uint32_t a, uint32_t b,
                                            uint32_t c)
{
    int32_t t = (int32_t)ptx_int_mul24(a, b, true, true);
    return ptx_int_clamp_s32((int64_t)t + (int32_t)c);
}

/* sad: c + |a - b|, with the comparison signed or unsigned. */
static inline uint64_t ptx_int_sad(uint64_t a, uint64_t b, uint64_t c,
                               unsigned bits, bool sgn)
{
    uint64_t x = ptx_int_ext(a, bits, sgn), y = ptx_int_ext(b, bits, sgn);
    bool lt = sgn ? (int64_t)x < (int64_t)y : x < y;
    return ptx_int_trunc(c + (lt ? y - x : x - y), bits);
}

/* ---- divide ------------------------------------------------------------- */

/* div / rem.  The ISA leaves division by zero "unspecified, machine-specific";
 * we pick x / 0 = all ones (-1 for signed; NVIDIA's division sequence ends
 * in a "b == 0 ? ~b" fix-up) and x % 0 = x (what a - q*b gives), for signed
 * and unsigned alike.  Not checked on hardware here.  MIN / -1 wraps to MIN
 * (remainder 0), the two's complement result; C would make it undefined.
 * Signed division truncates toward zero; the remainder has the sign of a. */
static inline uint64_t ptx_int_div(uint64_t a, uint64_t b, unsigned bits, bool sgn)
{
    if (ptx_int_trunc(b, bits) == 0)
        return ptx_int_mask(bits);
    if (!sgn)
        return ptx_int_trunc(a, bits) / ptx_int_trunc(b, bits);
    uint64_t x = ptx_int_sext(a, bits), y = ptx_int_sext(b, bits);
    bool xn = (int64_t)x < 0, yn = (int64_t)y < 0;
    uint64_t ux = xn ? 0 - x : x, uy = yn ? 0 - y : y;
    uint64_t q = ux / uy;
    return ptx_int_trunc(xn != yn ? 0 - q : q, bits);
}

static inline uint64_t ptx_int_rem(uint64_t a, uint64_t b, unsigned bits, bool sgn)
{
    if (ptx_int_trunc(b, bits) == 0)
        return ptx_int_trunc(a, bits);
    if (!sgn)
        return ptx_int_trunc(a, bits) % ptx_int_trunc(b, bits);
    uint64_t x = ptx_int_sext(a, bits), y = ptx_int_sext(b, bits);
    bool xn = (int64_t)x < 0, yn = (int64_t)y < 0;
    uint64_t ux = xn ? 0 - x : x, uy = yn ? 0 - y : y;
    uint64_t r = ux % uy;
    return ptx_int_trunc(xn ? 0 - r : r, bits);
}

/* ---- abs / neg / min / max ---------------------------------------------- */

/* abs.sNN: |MIN| wraps to MIN. */
static inline uint64_t ptx_int_abs(uint64_t a, unsigned bits)
{
    uint64_t x = ptx_int_sext(a, bits);
    return ptx_int_trunc((int64_t)x < 0 ? 0 - x : x, bits);
}

static inline uint64_t ptx_int_neg(uint64_t a, unsigned bits)
{
    return ptx_int_trunc(0 - a, bits);
}

static inline uint64_t ptx_int_min(uint64_t a, uint64_t b, unsigned bits, bool sgn)
{
    uint64_t x = ptx_int_ext(a, bits, sgn), y = ptx_int_ext(b, bits, sgn);
    bool lt = sgn ? (int64_t)x < (int64_t)y : x < y;
    return ptx_int_trunc(lt ? x : y, bits);
}

static inline uint64_t ptx_int_max(uint64_t a, uint64_t b, unsigned bits, bool sgn)
{
    uint64_t x = ptx_int_ext(a, bits, sgn), y = ptx_int_ext(b, bits, sgn);
    bool gt = sgn ? (int64_t)x > (int64_t)y : x > y;
    return ptx_int_trunc(gt ? x : y, bits);
}

/* min.relu.s32 / max.relu.s32: a negative result becomes 0. */
static inline uint32_t ptx_int_min_relu_s32(uint32_t a, uint32_t b)
{
    int32_t r = (int32_t)(uint32_t)ptx_int_min(a, b, 32, true);
    return r < 0 ? 0 : (uint32_t)r;
}

static inline uint32_t ptx_int_max_relu_s32(uint32_t a, uint32_t b)
{
    int32_t r = (int32_t)(uint32_t)ptx_int_max(a, b, 32, true);
    return r < 0 ? 0 : (uint32_t)r;
}

/* min/max .u16x2 .s16x2 (relu only with .s16x2): per half-word. */
static inline uint32_t ptx_int_minmax_16x2(uint32_t a, uint32_t b, bool is_max,
                                       bool sgn, bool relu)
{
    uint32_t d = 0;
    for (unsigned i = 0; i < 32; i += 16) {
        uint64_t x = a >> i, y = b >> i;
        uint64_t r = is_max ? ptx_int_max(x, y, 16, sgn) : ptx_int_min(x, y, 16, sgn);
        if (relu && sgn && (r & 0x8000u))
            r = 0;
        d |= (uint32_t)r << i;
    }
    return d;
}

/* ---- bit counting ------------------------------------------------------- */

/* popc.b32 / .b64 */
static inline uint32_t ptx_int_popc(uint64_t a, unsigned bits)
{
    return (uint32_t)__builtin_popcountll(ptx_int_trunc(a, bits));
}

/* clz.b32 / .b64: 0..bits. */
static inline uint32_t ptx_int_clz(uint64_t a, unsigned bits)
{
    uint64_t x = ptx_int_trunc(a, bits);
    if (x == 0)
        return bits;
    return (uint32_t)__builtin_clzll(x) - (64 - bits);
}

/* bfind (.u32 .u64 .s32 .s64, optional .shiftamt): position of the most
 * significant non-sign bit, or 0xffffffff when there is none (0, and -1 for
 * signed).  .shiftamt returns msb - position instead. */
static inline uint32_t ptx_int_bfind(uint64_t a, unsigned bits, bool sgn,
                                 bool shiftamt)
{
    uint64_t x = ptx_int_trunc(a, bits);
    if (sgn && (x >> (bits - 1)) & 1)
        x = ptx_int_trunc(~x, bits);
    if (x == 0)
        return 0xffffffffu;
    uint32_t pos = 63 - (uint32_t)__builtin_clzll(x);
    return shiftamt ? (bits - 1) - pos : pos;
}

/* brev.b32 / .b64 */
static inline uint64_t ptx_int_brev(uint64_t a, unsigned bits)
{
    uint64_t x = a;
    x = (x >> 1 & UINT64_C(0x5555555555555555)) |
        (x & UINT64_C(0x5555555555555555)) << 1;
    x = (x >> 2 & UINT64_C(0x3333333333333333)) |
        (x & UINT64_C(0x3333333333333333)) << 2;
    x = (x >> 4 & UINT64_C(0x0f0f0f0f0f0f0f0f)) |
        (x & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4;
    x = __builtin_bswap64(x);
    return x >> (64 - bits);
}

/* ---- bit fields --------------------------------------------------------- */

/* bfe (.u32 .u64 .s32 .s64): pos = b & 0xff, len = c & 0xff.  Bits past the
 * msb of a are not part of the field.  Fill (above the field, or everything
 * when pos > msb) is 0 for unsigned and for len == 0, otherwise
 * a[min(pos+len-1, msb)]. */
static inline uint64_t ptx_int_bfe(uint64_t a, uint32_t b, uint32_t c,
                               unsigned bits, bool sgn)
{
    unsigned pos = b & 0xff, len = c & 0xff, msb = bits - 1;
    uint64_t x = ptx_int_trunc(a, bits);
    bool sbit = false;
    if (sgn && len != 0) {
        unsigned s = pos + len - 1 < msb ? pos + len - 1 : msb;
        sbit = (x >> s) & 1;
    }
    unsigned n = 0; /* field bits actually taken from a */
    uint64_t field = 0;
    if (pos <= msb) {
        n = len < bits - pos ? len : bits - pos;
        field = (x >> pos) & ptx_int_mask(n);
    }
    if (sbit)
        field |= ~ptx_int_mask(n);
    return ptx_int_trunc(field, bits);
}

/* bfi (.b32 .b64): insert the low len bits of a into b at pos
 * (pos = c & 0xff, len = d & 0xff); bits beyond the msb are dropped; len 0 or
 * pos > msb give b. */
static inline uint64_t ptx_int_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d,
                               unsigned bits)
{
    unsigned pos = c & 0xff, len = d & 0xff;
    uint64_t f = ptx_int_trunc(b, bits);
    if (len == 0 || pos >= bits)
        return f;
    unsigned n = len < bits - pos ? len : bits - pos;
    uint64_t m = ptx_int_mask(n) << pos;
    return (f & ~m) | ((a << pos) & m);
}

/* bmsk.{clamp,wrap}.b32 d, a(start), b(width). */
uint32_t ptx_int_bmsk(uint32_t a, uint32_t b, bool clamp);

/* szext.{clamp,wrap}.{u32,s32} d, a, b(N). */
uint32_t ptx_int_szext(uint32_t a, uint32_t b, bool clamp, bool sgn);

/* fns.b32 d, mask, base, offset: n-th set bit from base; base > 31 (undefined
 * in the ISA) gives 0xffffffff. */
uint32_t ptx_int_fns(uint32_t mask, uint32_t base, int32_t offset);

/* ---- dot products ------------------------------------------------------- */

static inline uint32_t ptx_int_byte_ext(uint32_t v, unsigned i, bool sgn)
{
    uint32_t x = (v >> (8 * i)) & 0xffu;
    return sgn ? (uint32_t)(int32_t)(int8_t)(uint8_t)x : x;
}

/* dp4a.atype.btype: c + sum of the four byte products (wrapping 32-bit). */
static inline uint32_t ptx_int_dp4a(uint32_t a, uint32_t b, uint32_t c, bool asgn,
                                bool bsgn)
{
    uint32_t d = c;
    for (unsigned i = 0; i < 4; i++)
        d += ptx_int_byte_ext(a, i, asgn) * ptx_int_byte_ext(b, i, bsgn);
    return d;
}

/* dp2a.{lo,hi}.atype.btype: c + a.h0*b.byte[s] + a.h1*b.byte[s+1],
 * s = 0 for .lo and 2 for .hi. */
static inline uint32_t ptx_int_dp2a(uint32_t a, uint32_t b, uint32_t c, bool asgn,
                                bool bsgn, bool hi)
{
    uint32_t d = c;
    unsigned s = hi ? 2 : 0;
    for (unsigned i = 0; i < 2; i++) {
        uint32_t h = (uint32_t)ptx_int_ext(a >> (16 * i), 16, asgn);
        d += h * ptx_int_byte_ext(b, s + i, bsgn);
    }
    return d;
}

/* ---- logic -------------------------------------------------------------- */

static inline uint64_t ptx_int_and(uint64_t a, uint64_t b, unsigned bits)
{
    return ptx_int_trunc(a & b, bits);
}

static inline uint64_t ptx_int_or(uint64_t a, uint64_t b, unsigned bits)
{
    return ptx_int_trunc(a | b, bits);
}

static inline uint64_t ptx_int_xor(uint64_t a, uint64_t b, unsigned bits)
{
    return ptx_int_trunc(a ^ b, bits);
}

static inline uint64_t ptx_int_not(uint64_t a, unsigned bits)
{
    return ptx_int_trunc(~a, bits);
}

/* cnot: 1 if a == 0 else 0. */
static inline uint64_t ptx_int_cnot(uint64_t a, unsigned bits)
{
    return ptx_int_trunc(a, bits) == 0;
}

/* lop3.b32: result bit = immLut bit number (a<<2 | b<<1 | c), following
 * immLut = F(0xF0, 0xCC, 0xAA).  Computed as a 3-level mux, branch-free. */
static inline uint32_t ptx_int_lop3(uint32_t a, uint32_t b, uint32_t c,
                                uint32_t lut)
{
    uint32_t l[8];
    for (unsigned k = 0; k < 8; k++)
        l[k] = 0u - ((lut >> k) & 1u);
    uint32_t c00 = (l[0] & ~c) | (l[1] & c), c01 = (l[2] & ~c) | (l[3] & c);
    uint32_t c10 = (l[4] & ~c) | (l[5] & c), c11 = (l[6] & ~c) | (l[7] & c);
    uint32_t b0 = (c00 & ~b) | (c01 & b), b1 = (c10 & ~b) | (c11 & b);
    return (b0 & ~a) | (b1 & a);
}

/* ---- shifts ------------------------------------------------------------- */

/* shl.b16/.b32/.b64: n is the unsigned 32-bit count; n >= bits gives 0. */
static inline uint64_t ptx_int_shl(uint64_t a, uint32_t n, unsigned bits)
{
    return n >= bits ? 0 : ptx_int_trunc(a << n, bits);
}

/* shr: counts >= bits are clamped to bits, i.e. 0 for .u/.b and sign fill
 * (0 or all ones) for .s. */
static inline uint64_t ptx_int_shr(uint64_t a, uint32_t n, unsigned bits, bool sgn)
{
    if (!sgn)
        return n >= bits ? 0 : ptx_int_trunc(a, bits) >> n;
    uint64_t x = ptx_int_sext(a, bits);
    return ptx_int_trunc(ptx_int_asr64(x, n >= bits ? bits - 1 : n), bits);
}

/* shf.l / shf.r .{clamp,wrap}.b32 on the 64-bit value {b:a} (b high).  The
 * count is min(c, 32) for .clamp and c & 31 for .wrap.  shf.l returns the
 * high word of {b:a} << n, shf.r the low word of {b:a} >> n. */
static inline uint32_t ptx_int_shf_l(uint32_t a, uint32_t b, uint32_t c,
                                 bool clamp)
{
    unsigned n = clamp ? (c < 32 ? c : 32) : (c & 31);
    uint64_t v = (uint64_t)b << 32 | a;
    return (uint32_t)((v << n) >> 32);
}

static inline uint32_t ptx_int_shf_r(uint32_t a, uint32_t b, uint32_t c,
                                 bool clamp)
{
    unsigned n = clamp ? (c < 32 ? c : 32) : (c & 31);
    uint64_t v = (uint64_t)b << 32 | a;
    return (uint32_t)(v >> n);
}

/* ---- byte permute ------------------------------------------------------- */

typedef enum ptx_prmt_mode {
    PTX_PRMT_DEFAULT = 0, /* four 4-bit selectors in c[15:0] */
    PTX_PRMT_F4E,         /* forward 4 extract */
    PTX_PRMT_B4E,         /* backward 4 extract */
    PTX_PRMT_RC8,         /* replicate byte */
    PTX_PRMT_ECL,         /* edge clamp left */
    PTX_PRMT_ECR,         /* edge clamp right */
    PTX_PRMT_RC16,        /* replicate half-word */
    PTX_PRMT_MODE_COUNT
} ptx_prmt_mode;

/* "f4e" (no dot) -> PTX_PRMT_F4E; returns -1 when unknown. */
int ptx_int_prmt_mode_from_name(const char *s, unsigned len);

/* The moded forms are a generic selector picked by c[1:0] (nibble i is the
 * source byte of destination byte i), with no sign replication. */
static inline uint32_t ptx_int_prmt_mode_selector(ptx_prmt_mode mode, uint32_t c)
{
    static const uint16_t sel[PTX_PRMT_MODE_COUNT][4] = {
        [PTX_PRMT_F4E] = {0x3210, 0x4321, 0x5432, 0x6543},
        [PTX_PRMT_B4E] = {0x5670, 0x6701, 0x7012, 0x0123},
        [PTX_PRMT_RC8] = {0x0000, 0x1111, 0x2222, 0x3333},
        [PTX_PRMT_ECL] = {0x3210, 0x3211, 0x3222, 0x3333},
        [PTX_PRMT_ECR] = {0x0000, 0x1110, 0x2210, 0x3210},
        [PTX_PRMT_RC16] = {0x1010, 0x3232, 0x1010, 0x3232},
    };
    return sel[mode][c & 3];
}

/* prmt.b32{.mode} d, a, b, c.  Source bytes are {b, a} = b7..b4 b3..b0.
 * Default mode: nibble i of c picks destination byte i; its bit 3 set means
 * "replicate the sign bit of the picked byte over all 8 bits". */
static inline uint32_t ptx_int_prmt(uint32_t a, uint32_t b, uint32_t c,
                                ptx_prmt_mode mode)
{
    uint64_t src = (uint64_t)b << 32 | a;
    uint32_t sel = mode == PTX_PRMT_DEFAULT ? c : ptx_int_prmt_mode_selector(mode, c);
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t s = (sel >> (4 * i)) & 0xfu;
        uint32_t byte = (uint32_t)(src >> (8 * (s & 7))) & 0xffu;
        if (s & 8)
            byte = (byte & 0x80u) ? 0xffu : 0;
        d |= byte << (8 * i);
    }
    return d;
}

/* ---- carry chains ------------------------------------------------------- */

/* Result and CC.CF of the extended-precision instructions (32 or 64 bits).
 * For add-type instructions cf is the carry-out; for sub.cc/subc it is the
 * borrow-out (1 when a < b + borrow-in as unsigned numbers), which is what
 * the ISA writes to CC.CF and what subc reads back: subc computes
 * a - (b + CC.CF).  Signed and unsigned behave the same. */
typedef struct ptx_int_cc {
    uint64_t v;
    bool cf;
} ptx_int_cc;

/* add.cc (cin = 0) and addc{.cc} (cin = CC.CF). */
static inline ptx_int_cc ptx_int_addc(uint64_t a, uint64_t b, bool cin,
                                  unsigned bits)
{
    ptx_int_cc r;
    if (bits >= 64) {
        uint64_t s = a + b;
        uint64_t t = s + cin;
        r.v = t;
        r.cf = s < a || t < s;
    } else {
        uint64_t s = ptx_int_trunc(a, bits) + ptx_int_trunc(b, bits) + cin;
        r.v = ptx_int_trunc(s, bits);
        r.cf = (s >> bits) & 1;
    }
    return r;
}

/* sub.cc (bin = 0) and subc{.cc} (bin = CC.CF): d = a - (b + bin). */
static inline ptx_int_cc ptx_int_subc(uint64_t a, uint64_t b, bool bin,
                                  unsigned bits)
{
    uint64_t x = ptx_int_trunc(a, bits), y = ptx_int_trunc(b, bits);
    ptx_int_cc r;
    r.v = ptx_int_trunc(x - y - bin, bits);
    r.cf = x < y || (bin && x == y);
    return r;
}

/* mad{.lo,.hi}.cc (cin = 0) and madc{.lo,.hi}{.cc} (cin = CC.CF): the
 * selected half of a*b plus c plus cin; cf is the carry of that addition. */
static inline ptx_int_cc ptx_int_madc(uint64_t a, uint64_t b, uint64_t c, bool cin,
                                  unsigned bits, bool hi, bool sgn)
{
    uint64_t t = hi ? ptx_int_mul_hi(a, b, bits, sgn) : ptx_int_mul_lo(a, b, bits);
    return ptx_int_addc(t, c, cin, bits);
}

#endif
