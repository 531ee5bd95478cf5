/* isa/video.c — PTX video instructions, following the ISA pseudo-code.
 *
 * Intermediates are __int128 so that the s33/s34 values of the ISA, the
 * 66-bit vmad product and left shifts of up to 32 are all exact. */
#include "isa/video.h"

#include <string.h>

__extension__ typedef __int128 wide;
__extension__ typedef unsigned __int128 uwide;

/* partSelectSignExtend: the selected byte/half/word, sign- or zero-extended. */
static wide part_select(uint32_t v, uint8_t sel, bool sgn)
{
    unsigned shift = 0, bits = 32;
    switch (sel) {
    case PTX_VSEL_B0: case PTX_VSEL_B1: case PTX_VSEL_B2: case PTX_VSEL_B3:
        shift = 8 * (unsigned)(sel - PTX_VSEL_B0);
        bits = 8;
        break;
    case PTX_VSEL_H0: case PTX_VSEL_H1:
        shift = 16 * (unsigned)(sel - PTX_VSEL_H0);
        bits = 16;
        break;
    default:
        break;
    }
    uint64_t x = (v >> shift) & ((UINT64_C(1) << bits) - 1);
    if (sgn && (x >> (bits - 1)) & 1)
        return (wide)x - ((wide)1 << bits);
    return (wide)x;
}

static wide clamp(wide v, wide lo, wide hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Clamp to the signed or unsigned range of an n-bit destination. */
static wide sat_bits(wide v, unsigned bits, bool sgn)
{
    if (sgn)
        return clamp(v, -((wide)1 << (bits - 1)), ((wide)1 << (bits - 1)) - 1);
    return clamp(v, 0, ((wide)1 << bits) - 1);
}

static bool compare(wide x, wide y, uint8_t cmp)
{
    switch (cmp) {
    case PTX_VCMP_EQ: return x == y;
    case PTX_VCMP_NE: return x != y;
    case PTX_VCMP_LT: return x < y;
    case PTX_VCMP_LE: return x <= y;
    case PTX_VCMP_GT: return x > y;
    case PTX_VCMP_GE: return x >= y;
    default: return false;
    }
}

/* Arithmetic shift right of an exact value (floor division by 2^n). */
static wide asr(wide v, unsigned n)
{
    if (v >= 0)
        return v >> n;
    return -((-v - 1) >> n) - 1;
}

static wide shl(wide v, unsigned n)
{
    return (wide)((uwide)v << n);
}

/* The common primary operations of the scalar and SIMD forms. */
static wide primary(uint8_t op, uint8_t cmp, wide x, wide y)
{
    switch (op) {
    case PTX_VOP_ADD: return x + y;
    case PTX_VOP_SUB: return x - y;
    case PTX_VOP_ABSDIFF: return x < y ? y - x : x - y;
    case PTX_VOP_MIN: return x < y ? x : y;
    case PTX_VOP_MAX: return x > y ? x : y;
    case PTX_VOP_AVRG: {
        /* Rounds halves away from zero: +1 then floor for non-negative
         * sums, plain floor for negative ones. */
        wide s = x + y;
        return s >= 0 ? asr(s + 1, 1) : asr(s, 1);
    }
    case PTX_VOP_SET: return compare(x, y, cmp) ? 1 : 0;
    default: return 0;
    }
}

uint32_t ptx_video_scalar(const ptx_video_mods *m, uint32_t a, uint32_t b,
                          uint32_t c)
{
    bool is_set = m->op == PTX_VOP_SET;
    bool is_shift = m->op == PTX_VOP_SHL || m->op == PTX_VOP_SHR;
    bool dsigned = is_set ? false : m->dsigned;
    wide ta = part_select(a, m->asel, m->asigned);
    wide tb = part_select(b, m->bsel, is_shift ? false : m->bsigned);
    wide tmp;
    if (is_shift) {
        unsigned n;
        if (m->shift_clamp)
            n = tb > 32 ? 32 : (unsigned)tb;
        else
            n = (unsigned)tb & 0x1f;
        tmp = m->op == PTX_VOP_SHL ? shl(ta, n) : asr(ta, n);
    } else {
        tmp = primary(m->op, m->cmp, ta, tb);
    }

    /* optSaturate: to the destination range, or to the merged part. */
    if (m->sat && !is_set) {
        unsigned bits = 32;
        if (m->dsel >= PTX_VSEL_B0 && m->dsel <= PTX_VSEL_B3)
            bits = 8;
        else if (m->dsel == PTX_VSEL_H0 || m->dsel == PTX_VSEL_H1)
            bits = 16;
        tmp = sat_bits(tmp, bits, dsigned);
    }

    /* c has the signedness of the destination. */
    wide tc = part_select(c, PTX_VSEL_NONE, dsigned);
    switch (m->secop) {
    case PTX_VSECOP_ADD: tmp = tmp + tc; break;
    case PTX_VSECOP_MIN: tmp = tmp < tc ? tmp : tc; break;
    case PTX_VSECOP_MAX: tmp = tmp > tc ? tmp : tc; break;
    default: break;
    }

    uint32_t r = (uint32_t)tmp;
    switch (m->dsel) {
    case PTX_VSEL_B0: case PTX_VSEL_B1: case PTX_VSEL_B2: case PTX_VSEL_B3: {
        unsigned sh = 8 * (unsigned)(m->dsel - PTX_VSEL_B0);
        return ((r & 0xffu) << sh) | (c & ~(0xffu << sh));
    }
    case PTX_VSEL_H0: case PTX_VSEL_H1: {
        unsigned sh = 16 * (unsigned)(m->dsel - PTX_VSEL_H0);
        return ((r & 0xffffu) << sh) | (c & ~(0xffffu << sh));
    }
    default:
        return r;
    }
}

uint32_t ptx_vmad(const ptx_vmad_mods *m, uint32_t a, uint32_t b, uint32_t c)
{
    wide ta = part_select(a, m->asel, m->asigned);
    wide tb = part_select(b, m->bsel, m->bsigned);
    bool signed_final = m->asigned || m->bsigned || m->neg_ab || m->neg_c;
    wide tmp = ta * tb; /* |ta*tb| < 2^64: exact */
    uint32_t cc = c;
    int lsb = 0;
    /* Negation is one's complement plus the carry-in lsb, as in the ISA. */
    if (m->po) {
        lsb = 1;
    } else if (m->neg_ab) {
        tmp = ~tmp;
        lsb = 1;
    } else if (m->neg_c) {
        cc = ~cc;
        lsb = 1;
    }
    wide c128 = part_select(cc, PTX_VSEL_NONE, signed_final);
    tmp = tmp + c128 + lsb;
    if (m->shr)
        tmp = asr(tmp, m->shr);
    if (m->sat)
        tmp = sat_bits(tmp, 32, signed_final);
    return (uint32_t)tmp;
}

/* One SIMD instruction over `lanes` lanes of `lbits` bits each. */
static uint32_t simd(const ptx_vsimd_mods *m, uint32_t a, uint32_t b,
                     uint32_t c, unsigned lanes, unsigned lbits)
{
    uint64_t src = (uint64_t)b << 32 | a;
    uint32_t lmask = (uint32_t)((UINT64_C(1) << lbits) - 1);
    bool is_set = m->op == PTX_VOP_SET;
    wide acc = c; /* accumulate form: d = c + selected lanes */
    uint32_t d = 0;
    for (unsigned i = 0; i < lanes; i++) {
        unsigned ea = (m->asel >> (4 * i)) & (2 * lanes - 1);
        unsigned eb = (m->bsel >> (4 * i)) & (2 * lanes - 1);
        uint32_t xa = (uint32_t)(src >> (lbits * ea)) & lmask;
        uint32_t xb = (uint32_t)(src >> (lbits * eb)) & lmask;
        wide va = m->asigned && (xa >> (lbits - 1)) ? (wide)xa - ((wide)1 << lbits)
                                                    : (wide)xa;
        wide vb = m->bsigned && (xb >> (lbits - 1)) ? (wide)xb - ((wide)1 << lbits)
                                                    : (wide)xb;
        wide t = primary(m->op, m->cmp, va, vb);
        if (m->sat && !is_set && !m->add)
            t = sat_bits(t, lbits, m->dsigned);
        bool sel = (m->mask >> i) & 1;
        if (m->add) {
            if (sel)
                acc += t;
        } else {
            uint32_t lane = sel ? (uint32_t)t : c >> (lbits * i);
            d |= (lane & lmask) << (lbits * i);
        }
    }
    return m->add ? (uint32_t)acc : d;
}

uint32_t ptx_video_simd2(const ptx_vsimd_mods *m, uint32_t a, uint32_t b,
                         uint32_t c)
{
    return simd(m, a, b, c, 2, 16);
}

uint32_t ptx_video_simd4(const ptx_vsimd_mods *m, uint32_t a, uint32_t b,
                         uint32_t c)
{
    return simd(m, a, b, c, 4, 8);
}

static bool name_is(const char *s, unsigned len, const char *name)
{
    return strlen(name) == len && memcmp(s, name, len) == 0;
}

int ptx_vsel_from_name(const char *s, unsigned len)
{
    static const char *const names[] = {"b0", "b1", "b2", "b3", "h0", "h1"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (name_is(s, len, names[i]))
            return PTX_VSEL_B0 + (int)i;
    }
    return -1;
}

int ptx_vcmp_from_name(const char *s, unsigned len)
{
    static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (name_is(s, len, names[i]))
            return PTX_VCMP_EQ + (int)i;
    }
    return -1;
}

bool ptx_vsimd_parse_sel(const char *s, unsigned len, unsigned lanes,
                         uint16_t *out)
{
    if ((lanes != 2 && lanes != 4) || len != lanes + 1 ||
        s[0] != (lanes == 2 ? 'h' : 'b'))
        return false;
    uint16_t v = 0;
    for (unsigned i = 1; i < len; i++) {
        unsigned dig = (unsigned)(s[i] - '0');
        if (s[i] < '0' || dig >= 2 * lanes)
            return false;
        v = (uint16_t)(v << 4 | dig);
    }
    *out = v;
    return true;
}

bool ptx_vsimd_parse_mask(const char *s, unsigned len, unsigned lanes,
                          uint8_t *out)
{
    if ((lanes != 2 && lanes != 4) || len < 2 || len > lanes + 1 ||
        s[0] != (lanes == 2 ? 'h' : 'b'))
        return false;
    uint8_t v = 0;
    /* Digits are a set of lanes; repeats are accepted (the ISA's own
     * examples write ".b00"). */
    for (unsigned i = 1; i < len; i++) {
        unsigned dig = (unsigned)(s[i] - '0');
        if (s[i] < '0' || dig >= lanes)
            return false;
        v = (uint8_t)(v | 1u << dig);
    }
    *out = v;
    return true;
}
