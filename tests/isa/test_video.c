/* tests/isa/test_video.c — video instructions: hand-computed examples from
 * the ISA pseudo-code, and randomized comparison against plain per-lane
 * reference code written independently of isa/video.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "isa/video.h"

__extension__ typedef __int128 i128;

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next32(rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (uint32_t)((z ^ (z >> 31)) >> 16);
}

/* Random operands biased towards lane boundary values. */
static uint32_t operand(rng *r)
{
    static const uint32_t special[] = {
        0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x7f7f7f7f, 0x80808080,
        0xffff0000, 0x00007fff, 0x80007fff, 0x01ff7f80, 0xfffffffe,
    };
    uint32_t k = next32(r);
    if ((k & 3) == 0)
        return special[(k >> 2) % (sizeof special / sizeof special[0])];
    return next32(r);
}

static i128 clampv(i128 v, i128 lo, i128 hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static ptx_video_mods vm(ptx_vop op, bool ds, bool as, bool bs)
{
    ptx_video_mods m = {0};
    m.op = (uint8_t)op;
    m.dsigned = ds;
    m.asigned = as;
    m.bsigned = bs;
    return m;
}

/* ---- scalar: hand-computed ---------------------------------------------- */

static void test_scalar_examples(void **state)
{
    (void)state;
    /* vadd.s32.u32.s32.sat r1, r2.b0, r3.h0: 255 + -32768 */
    ptx_video_mods m = vm(PTX_VOP_ADD, true, false, true);
    m.sat = true;
    m.asel = PTX_VSEL_B0;
    m.bsel = PTX_VSEL_H0;
    assert_int_equal(ptx_video_scalar(&m, 0x123456ff, 0x77778000, 0), 0xffff80ff);

    /* word forms: unsigned overflow saturates or wraps */
    m = vm(PTX_VOP_ADD, false, false, false);
    assert_int_equal(ptx_video_scalar(&m, 0xffffffff, 1, 0), 0);
    m.sat = true;
    assert_int_equal(ptx_video_scalar(&m, 0xffffffff, 1, 0), 0xffffffff);
    m = vm(PTX_VOP_SUB, false, false, false);
    assert_int_equal(ptx_video_scalar(&m, 1, 2, 0), 0xffffffff);
    m.sat = true;
    assert_int_equal(ptx_video_scalar(&m, 1, 2, 0), 0);
    m = vm(PTX_VOP_SUB, true, true, true);
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 1, 0), 0x7fffffff);
    m.sat = true;
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 1, 0), 0x80000000);
    /* s32 dtype from u32 operands: 0xffffffff + 0xffffffff = 2^33 - 2 */
    m = vm(PTX_VOP_ADD, true, false, false);
    m.sat = true;
    assert_int_equal(ptx_video_scalar(&m, 0xffffffff, 0xffffffff, 0), 0x7fffffff);

    /* vabsdiff.s32.s32.s32.sat r1.h0, r2.b0, r3.b2, c: |-128 - 127| = 255 */
    m = vm(PTX_VOP_ABSDIFF, true, true, true);
    m.sat = true;
    m.asel = PTX_VSEL_B0;
    m.bsel = PTX_VSEL_B2;
    m.dsel = PTX_VSEL_H0;
    assert_int_equal(ptx_video_scalar(&m, 0x00000080, 0x007f0000, 0xaaaa5555),
                     0xaaaa00ff);
    /* merge into a byte: the saturation range is that of the byte */
    m = vm(PTX_VOP_ADD, true, true, true);
    m.sat = true;
    m.dsel = PTX_VSEL_B1;
    assert_int_equal(ptx_video_scalar(&m, 100, 100, 0x11223344), 0x11227f44);
    assert_int_equal(ptx_video_scalar(&m, (uint32_t)-100, (uint32_t)-100, 0x11223344),
                     0x11228044);
    m.dsigned = false;
    m.dsel = PTX_VSEL_B3;
    assert_int_equal(ptx_video_scalar(&m, 200, 100, 0x11223344), 0xff223344);
    assert_int_equal(ptx_video_scalar(&m, 2, (uint32_t)-5, 0x11223344), 0x00223344);
    m.sat = false; /* merge without saturation truncates: 300 -> 0x2c */
    assert_int_equal(ptx_video_scalar(&m, 200, 100, 0x11223344), 0x2c223344);
    m.dsel = PTX_VSEL_H1;
    assert_int_equal(ptx_video_scalar(&m, 0x12345, 1, 0x11223344), 0x23463344);

    /* secondary operations; c has the destination's signedness */
    m = vm(PTX_VOP_MIN, true, true, true);
    m.sat = true;
    m.secop = PTX_VSECOP_ADD;
    assert_int_equal(ptx_video_scalar(&m, 5, (uint32_t)-3, 10), 7);
    m = vm(PTX_VOP_MAX, false, false, false);
    m.secop = PTX_VSECOP_MAX;
    assert_int_equal(ptx_video_scalar(&m, 1, 2, 0x80000000), 0x80000000);
    m.dsigned = true;
    assert_int_equal(ptx_video_scalar(&m, 1, 2, 0x80000000), 2);
    m.secop = PTX_VSECOP_MIN;
    assert_int_equal(ptx_video_scalar(&m, 1, 2, 0x80000000), 0x80000000);
    /* saturation happens before the secondary add, which wraps */
    m = vm(PTX_VOP_ADD, true, true, true);
    m.sat = true;
    m.secop = PTX_VSECOP_ADD;
    assert_int_equal(ptx_video_scalar(&m, 0x7fffffff, 1, 1), 0x80000000);

    /* shifts */
    m = vm(PTX_VOP_SHL, false, false, false);
    m.shift_clamp = true;
    assert_int_equal(ptx_video_scalar(&m, 1, 33, 0), 0);
    assert_int_equal(ptx_video_scalar(&m, 3, 31, 0), 0x80000000);
    m.sat = true;
    assert_int_equal(ptx_video_scalar(&m, 1, 33, 0), 0xffffffff);
    assert_int_equal(ptx_video_scalar(&m, 0, 33, 0), 0);
    m.shift_clamp = false;
    m.sat = false;
    assert_int_equal(ptx_video_scalar(&m, 1, 33, 0), 2); /* 33 & 31 */
    m = vm(PTX_VOP_SHL, true, true, false);
    m.sat = true;
    m.shift_clamp = true;
    assert_int_equal(ptx_video_scalar(&m, (uint32_t)-1, 31, 0), 0x80000000);
    assert_int_equal(ptx_video_scalar(&m, (uint32_t)-1, 32, 0), 0x80000000);
    assert_int_equal(ptx_video_scalar(&m, 0x40000000, 1, 0), 0x7fffffff);
    m = vm(PTX_VOP_SHR, true, true, false);
    m.shift_clamp = true;
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 40, 0), 0xffffffff);
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 4, 0), 0xf8000000);
    m.shift_clamp = false;
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 33, 0), 0xc0000000);
    m.asel = PTX_VSEL_H1; /* -32768 >> 4 */
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 4, 0), 0xfffff800);
    m = vm(PTX_VOP_SHR, false, false, true); /* bsigned is ignored: b is .u32 */
    m.shift_clamp = true;
    m.bsel = PTX_VSEL_B0;
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 0xff, 0), 0);
    m.asel = PTX_VSEL_B3;
    assert_int_equal(ptx_video_scalar(&m, 0x80000000, 4, 0), 0x8);

    /* vset: result 0/1, unsigned; operands compared as their own types */
    m = vm(PTX_VOP_SET, false, true, false);
    m.cmp = PTX_VCMP_LT;
    assert_int_equal(ptx_video_scalar(&m, 0xffffffff, 0xffffffff, 0), 1);
    m.asigned = false;
    assert_int_equal(ptx_video_scalar(&m, 0xffffffff, 0xffffffff, 0), 0);
    m.cmp = PTX_VCMP_LE;
    assert_int_equal(ptx_video_scalar(&m, 0xffffffff, 0xffffffff, 0), 1);
    m.cmp = PTX_VCMP_EQ;
    m.secop = PTX_VSECOP_ADD;
    assert_int_equal(ptx_video_scalar(&m, 5, 5, 10), 11);
    m.cmp = PTX_VCMP_NE;
    m.secop = PTX_VSECOP_MAX; /* c is unsigned for vset */
    assert_int_equal(ptx_video_scalar(&m, 5, 5, 0x80000000), 0x80000000);
    m.secop = PTX_VSECOP_NONE;
    m.dsel = PTX_VSEL_B2;
    assert_int_equal(ptx_video_scalar(&m, 1, 2, 0xffffffff), 0xff01ffff);
    /* vset.u32.u32.ne r1, r2, r3.h1 */
    m = vm(PTX_VOP_SET, false, false, false);
    m.cmp = PTX_VCMP_NE;
    m.bsel = PTX_VSEL_H1;
    assert_int_equal(ptx_video_scalar(&m, 0x1234, 0x12345678, 0), 0);
    m.cmp = PTX_VCMP_GT;
    m.asel = PTX_VSEL_B1;
    m.asigned = true;
    assert_int_equal(ptx_video_scalar(&m, 0x8000, 0x00010000, 0), 0);
    m.cmp = PTX_VCMP_GE;
    m.asigned = false;
    assert_int_equal(ptx_video_scalar(&m, 0x8000, 0x00010000, 0), 1);
}

/* ---- scalar: randomized against a reference ----------------------------- */

static i128 ref_part(uint32_t v, int sel, bool sgn)
{
    switch (sel) {
    case PTX_VSEL_B0: case PTX_VSEL_B1: case PTX_VSEL_B2: case PTX_VSEL_B3: {
        uint8_t x = (uint8_t)(v >> (8 * (sel - PTX_VSEL_B0)));
        return sgn ? (i128)(int8_t)x : (i128)x;
    }
    case PTX_VSEL_H0: case PTX_VSEL_H1: {
        uint16_t x = (uint16_t)(v >> (16 * (sel - PTX_VSEL_H0)));
        return sgn ? (i128)(int16_t)x : (i128)x;
    }
    default:
        return sgn ? (i128)(int32_t)v : (i128)v;
    }
}

static i128 floor_div_pow2(i128 v, unsigned n)
{
    i128 p = (i128)1 << n;
    return v >= 0 ? v / p : -((-v + p - 1) / p);
}

static uint32_t ref_scalar(const ptx_video_mods *m, uint32_t a, uint32_t b, uint32_t c)
{
    bool shift = m->op == PTX_VOP_SHL || m->op == PTX_VOP_SHR;
    bool set = m->op == PTX_VOP_SET;
    i128 x = ref_part(a, m->asel, m->asigned);
    i128 y = ref_part(b, m->bsel, shift ? false : m->bsigned);
    i128 t = 0;
    switch (m->op) {
    case PTX_VOP_ADD: t = x + y; break;
    case PTX_VOP_SUB: t = x - y; break;
    case PTX_VOP_ABSDIFF: t = x > y ? x - y : y - x; break;
    case PTX_VOP_MIN: t = x <= y ? x : y; break;
    case PTX_VOP_MAX: t = x >= y ? x : y; break;
    case PTX_VOP_SHL: case PTX_VOP_SHR: {
        unsigned n = m->shift_clamp ? (y > 32 ? 32 : (unsigned)y) : (unsigned)(y % 32);
        t = m->op == PTX_VOP_SHL ? x * ((i128)1 << n) : floor_div_pow2(x, n);
        break;
    }
    case PTX_VOP_SET: {
        static const int truth[6][3] = {/* lt eq gt */
            {0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 0}, {0, 0, 1}, {0, 1, 1}};
        int k = x < y ? 0 : x == y ? 1 : 2;
        t = truth[m->cmp][k];
        break;
    }
    default: break;
    }
    bool ds = set ? false : m->dsigned;
    if (m->sat && !set) {
        int w = m->dsel == PTX_VSEL_NONE ? 32 : m->dsel >= PTX_VSEL_H0 ? 16 : 8;
        i128 lo = ds ? -((i128)1 << (w - 1)) : 0;
        i128 hi = ds ? ((i128)1 << (w - 1)) - 1 : ((i128)1 << w) - 1;
        t = clampv(t, lo, hi);
    }
    i128 z = ds ? (i128)(int32_t)c : (i128)c;
    if (m->secop == PTX_VSECOP_ADD)
        t += z;
    else if (m->secop == PTX_VSECOP_MIN)
        t = t < z ? t : z;
    else if (m->secop == PTX_VSECOP_MAX)
        t = t > z ? t : z;
    uint32_t lo32 = (uint32_t)(t & 0xffffffff);
    if (m->dsel == PTX_VSEL_NONE)
        return lo32;
    uint8_t bytes[4] = {(uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16), (uint8_t)(c >> 24)};
    if (m->dsel >= PTX_VSEL_H0) {
        int h = m->dsel - PTX_VSEL_H0;
        bytes[2 * h] = (uint8_t)lo32;
        bytes[2 * h + 1] = (uint8_t)(lo32 >> 8);
    } else {
        bytes[m->dsel - PTX_VSEL_B0] = (uint8_t)lo32;
    }
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
           (uint32_t)bytes[3] << 24;
}

static void test_scalar_random(void **state)
{
    (void)state;
    static const ptx_vop ops[] = {PTX_VOP_ADD, PTX_VOP_SUB, PTX_VOP_ABSDIFF, PTX_VOP_MIN,
                                  PTX_VOP_MAX, PTX_VOP_SHL, PTX_VOP_SHR, PTX_VOP_SET};
    rng r = {21};
    for (unsigned i = 0; i < 200000; i++) {
        ptx_video_mods m = {0};
        uint32_t k = next32(&r);
        m.op = (uint8_t)ops[k % 8];
        m.dsigned = (k >> 3) & 1;
        m.asigned = (k >> 4) & 1;
        m.bsigned = (k >> 5) & 1;
        m.sat = (k >> 6) & 1;
        m.shift_clamp = (k >> 7) & 1;
        m.asel = (uint8_t)((k >> 8) % 7);
        m.bsel = (uint8_t)((k >> 11) % 7);
        m.cmp = (uint8_t)((k >> 14) % 6);
        /* either a data merge or a secondary op, never both */
        if ((k >> 17) & 1)
            m.dsel = (uint8_t)(1 + (k >> 18) % 6);
        else
            m.secop = (uint8_t)((k >> 18) % 4);
        uint32_t a = operand(&r), b = operand(&r), c = operand(&r);
        if (m.op == PTX_VOP_SHL || m.op == PTX_VOP_SHR)
            b = (next32(&r) & 1) ? b % 70 : b;
        uint32_t got = ptx_video_scalar(&m, a, b, c);
        uint32_t want = ref_scalar(&m, a, b, c);
        if (got != want)
            print_error("op %u ds %d as %d bs %d sat %d clamp %d asel %u bsel %u "
                        "dsel %u secop %u cmp %u a %08x b %08x c %08x\n",
                        m.op, m.dsigned, m.asigned, m.bsigned, m.sat, m.shift_clamp,
                        m.asel, m.bsel, m.dsel, m.secop, m.cmp, a, b, c);
        assert_int_equal(got, want);
    }
}

/* ---- vmad ---------------------------------------------------------------- */

static uint32_t ref_vmad(const ptx_vmad_mods *m, uint32_t a, uint32_t b, uint32_t c)
{
    i128 x = ref_part(a, m->asel, m->asigned), y = ref_part(b, m->bsel, m->bsigned);
    bool sf = m->asigned || m->bsigned || m->neg_ab || m->neg_c;
    i128 p = x * y;
    i128 z = sf ? (i128)(int32_t)c : (i128)c;
    if (m->po)
        p += 1;
    else if (m->neg_ab)
        p = -p;
    else if (m->neg_c)
        z = -z;
    i128 t = p + z;
    if (m->shr)
        t = floor_div_pow2(t, m->shr);
    if (m->sat)
        t = sf ? clampv(t, INT32_MIN, INT32_MAX) : clampv(t, 0, UINT32_MAX);
    return (uint32_t)(t & 0xffffffff);
}

static void test_vmad(void **state)
{
    (void)state;
    ptx_vmad_mods m = {0};
    /* (u32*u32)+u32: 0xffffffff^2 + 0xffffffff = 2^64 - 2^32 */
    assert_int_equal(ptx_vmad(&m, 0xffffffff, 0xffffffff, 0xffffffff), 0);
    m.sat = true;
    assert_int_equal(ptx_vmad(&m, 0xffffffff, 0xffffffff, 0xffffffff), 0xffffffff);
    m = (ptx_vmad_mods){.asigned = true, .bsigned = true};
    m.neg_c = true;
    assert_int_equal(ptx_vmad(&m, 3, 4, 5), 7);
    m.neg_c = false;
    m.neg_ab = true;
    assert_int_equal(ptx_vmad(&m, 3, 4, 5), (uint32_t)-7);
    m.neg_ab = false;
    m.po = true;
    assert_int_equal(ptx_vmad(&m, 3, 4, 5), 18);
    /* vmad.u32.u32.u32.shr15 r0, r1.h0, r2.h0, r3 */
    m = (ptx_vmad_mods){.asel = PTX_VSEL_H0, .bsel = PTX_VSEL_H0, .shr = 15};
    assert_int_equal(ptx_vmad(&m, 0xffff8000, 0x12348000, 0), 0x8000);
    /* signed scaling floors: -100 >> 7 = -1 */
    m = (ptx_vmad_mods){.asigned = true, .shr = 7};
    assert_int_equal(ptx_vmad(&m, (uint32_t)-1, 100, 0), 0xffffffff);
    m = (ptx_vmad_mods){.asigned = true, .bsigned = true, .sat = true};
    assert_int_equal(ptx_vmad(&m, 0x7fffffff, 2, 0), 0x7fffffff);
    assert_int_equal(ptx_vmad(&m, 0x80000000, 2, 0), 0x80000000);
    /* (u32*u32) - u32: final signed */
    m = (ptx_vmad_mods){.neg_c = true, .sat = true};
    assert_int_equal(ptx_vmad(&m, 2, 3, 10), (uint32_t)-4);
    /* -(u32*u32) + s32 of a 64-bit product saturates to MININT */
    m = (ptx_vmad_mods){.neg_ab = true, .sat = true};
    assert_int_equal(ptx_vmad(&m, 0xffffffff, 0xffffffff, 0), 0x80000000);
    /* c = MININT negated is +2^31 */
    m = (ptx_vmad_mods){.asigned = true, .neg_c = true, .sat = true};
    assert_int_equal(ptx_vmad(&m, 0, 0, 0x80000000), 0x7fffffff);
    /* byte operands */
    m = (ptx_vmad_mods){.asel = PTX_VSEL_B3, .bsel = PTX_VSEL_B1, .asigned = true};
    assert_int_equal(ptx_vmad(&m, 0xfe000000, 0x00000300, 1), (uint32_t)-5);

    rng r = {22};
    for (unsigned i = 0; i < 100000; i++) {
        uint32_t k = next32(&r);
        ptx_vmad_mods q = {0};
        q.asel = (uint8_t)(k % 7);
        q.bsel = (uint8_t)((k >> 3) % 7);
        q.asigned = (k >> 6) & 1;
        q.bsigned = (k >> 7) & 1;
        q.sat = (k >> 8) & 1;
        static const uint8_t shr[3] = {0, 7, 15};
        q.shr = shr[(k >> 9) % 3];
        switch ((k >> 11) % 4) { /* at most one of po / neg_ab / neg_c */
        case 1: q.po = true; break;
        case 2: q.neg_ab = true; break;
        case 3: q.neg_c = true; break;
        default: break;
        }
        uint32_t a = operand(&r), b = operand(&r), c = operand(&r);
        assert_int_equal(ptx_vmad(&q, a, b, c), ref_vmad(&q, a, b, c));
    }
}

/* ---- SIMD ----------------------------------------------------------------- */

static ptx_vsimd_mods sm(ptx_vop op, unsigned lanes, bool ds, bool as, bool bs)
{
    ptx_vsimd_mods m = {0};
    m.op = (uint8_t)op;
    m.dsigned = ds;
    m.asigned = as;
    m.bsigned = bs;
    m.mask = lanes == 2 ? PTX_VSIMD2_MASK_DEFAULT : PTX_VSIMD4_MASK_DEFAULT;
    m.asel = lanes == 2 ? PTX_VSIMD2_ASEL_DEFAULT : PTX_VSIMD4_ASEL_DEFAULT;
    m.bsel = lanes == 2 ? PTX_VSIMD2_BSEL_DEFAULT : PTX_VSIMD4_BSEL_DEFAULT;
    return m;
}

static void test_simd_examples(void **state)
{
    (void)state;
    /* vadd2 unsigned: lane1 0xffff + 2 overflows */
    ptx_vsimd_mods m = sm(PTX_VOP_ADD, 2, false, false, false);
    assert_int_equal(ptx_video_simd2(&m, 0xffff0001, 0x00020003, 0), 0x00010004);
    m.sat = true;
    assert_int_equal(ptx_video_simd2(&m, 0xffff0001, 0x00020003, 0), 0xffff0004);
    m = sm(PTX_VOP_ADD, 2, true, true, true);
    assert_int_equal(ptx_video_simd2(&m, 0x7fff8000, 0x00010001, 0), 0x80008001);
    m.sat = true;
    assert_int_equal(ptx_video_simd2(&m, 0x7fff8000, 0x00010001, 0), 0x7fff8001);
    assert_int_equal(ptx_video_simd2(&m, 0x80008000, 0xffff8000, 0), 0x80008000);
    /* vadd2.s32.s32.u32.sat: signed dst from mixed operands */
    m = sm(PTX_VOP_ADD, 2, true, true, false);
    m.sat = true;
    assert_int_equal(ptx_video_simd2(&m, 0xffff0001, 0xffff0001, 0), 0x7fff0002);
    /* vsub2.s32.s32.s32.sat r1.h0, r2.h10, r3.h32, r1: lane 1 from c */
    m = sm(PTX_VOP_SUB, 2, true, true, true);
    m.sat = true;
    m.mask = 0x1;
    assert_int_equal(ptx_video_simd2(&m, 0x00058000, 0x00030001, 0xabcd1234), 0xabcd8000);
    m.mask = 0x2;
    assert_int_equal(ptx_video_simd2(&m, 0x00058000, 0x00030001, 0xabcd1234), 0x00021234);
    /* unsigned sub saturates at 0 */
    m = sm(PTX_VOP_SUB, 2, false, false, false);
    m.sat = true;
    assert_int_equal(ptx_video_simd2(&m, 0x00010005, 0x00020003, 0), 0x00000002);
    /* averages round half away from zero */
    m = sm(PTX_VOP_AVRG, 2, false, false, false);
    assert_int_equal(ptx_video_simd2(&m, 0xffff0003, 0xffff0004, 0), 0xffff0004);
    m = sm(PTX_VOP_AVRG, 2, true, true, true);
    assert_int_equal(ptx_video_simd2(&m, 0xfffdfffd, 0xfffcfffc, 0), 0xfffcfffc);
    assert_int_equal(ptx_video_simd2(&m, 0xfffeffff, 0x00010002, 0), 0xffff0001);
    /* selectors: vmin2.s32.u32.u32.add r1.h10, r2.h00, r3.h22, r1 */
    m = sm(PTX_VOP_MIN, 2, true, false, false);
    m.add = true;
    m.asel = 0x00;
    m.bsel = 0x22;
    assert_int_equal(ptx_video_simd2(&m, 0x99990007, 0x00000005, 100), 110);
    m.mask = 0x2;
    assert_int_equal(ptx_video_simd2(&m, 0x99990007, 0x00000005, 100), 105);
    /* selecting from b for a and from a for b swaps the operands */
    m = sm(PTX_VOP_SUB, 2, false, false, false);
    m.asel = 0x32;
    m.bsel = 0x10;
    assert_int_equal(ptx_video_simd2(&m, 0x00010002, 0x00050007, 0), 0x00040005);
    /* accumulate adds signed lane results */
    m = sm(PTX_VOP_SUB, 2, true, true, true);
    m.add = true;
    assert_int_equal(ptx_video_simd2(&m, 0x00010001, 0x00050003, 10), 4);
    m = sm(PTX_VOP_ABSDIFF, 2, false, false, false);
    m.add = true;
    assert_int_equal(ptx_video_simd2(&m, 0xffff0000, 0x0000ffff, 1), 0x1fffe + 1);

    /* vabsdiff4 .add: sum of absolute byte differences */
    m = sm(PTX_VOP_ABSDIFF, 4, false, false, false);
    m.add = true;
    assert_int_equal(ptx_video_simd4(&m, 0x01020304, 0x04030201, 100), 108);
    assert_int_equal(ptx_video_simd4(&m, 0xff00ff00, 0x00ff00ff, 0), 4 * 255);
    m.asigned = m.bsigned = true; /* |-1 - 0| per byte */
    assert_int_equal(ptx_video_simd4(&m, 0xff00ff00, 0x00ff00ff, 0), 4);
    m.mask = 0x5; /* .b20 */
    assert_int_equal(ptx_video_simd4(&m, 0x01020304, 0x04030201, 0), 4);
    /* byte saturation */
    m = sm(PTX_VOP_ADD, 4, false, false, false);
    m.sat = true;
    assert_int_equal(ptx_video_simd4(&m, 0xff80017f, 0x01800101, 0), 0xffff0280);
    m.sat = false;
    assert_int_equal(ptx_video_simd4(&m, 0xff80017f, 0x01800101, 0), 0x00000280);
    m = sm(PTX_VOP_ADD, 4, true, true, true);
    m.sat = true;
    assert_int_equal(ptx_video_simd4(&m, 0x7f80ff01, 0x01ff0101, 0), 0x7f800002);
    m = sm(PTX_VOP_SUB, 4, false, false, false);
    m.sat = true;
    assert_int_equal(ptx_video_simd4(&m, 0x00050a00, 0x01020b01, 0), 0x00030000);
    m = sm(PTX_VOP_SUB, 4, true, false, false); /* signed dst, unsigned ops */
    m.sat = true;
    assert_int_equal(ptx_video_simd4(&m, 0x00ff0a00, 0xff000b01, 0), 0x807fffff);
    /* vmax4 / vmin4 signed vs unsigned */
    m = sm(PTX_VOP_MAX, 4, false, false, false);
    assert_int_equal(ptx_video_simd4(&m, 0x80017f00, 0x7f0280ff, 0), 0x800280ff);
    m = sm(PTX_VOP_MAX, 4, true, true, true);
    assert_int_equal(ptx_video_simd4(&m, 0x80017f00, 0x7f0280ff, 0), 0x7f027f00);
    m = sm(PTX_VOP_MIN, 4, true, true, true);
    assert_int_equal(ptx_video_simd4(&m, 0x80017f00, 0x7f0280ff, 0), 0x800180ff);
    /* byte selectors and merge mask: .b31 takes lanes 1, 3 from the result */
    m = sm(PTX_VOP_ADD, 4, false, false, false);
    m.asel = 0x0000; /* broadcast a.b0 */
    m.bsel = 0x4567; /* b reversed */
    m.mask = 0xa;
    assert_int_equal(ptx_video_simd4(&m, 0x00000010, 0x04030201, 0xddccbbaa),
                     0x11cc13aa);
    /* vavrg4 */
    m = sm(PTX_VOP_AVRG, 4, true, true, true);
    assert_int_equal(ptx_video_simd4(&m, 0x7f80fd03, 0x7f80fc04, 0), 0x7f80fc04);

    /* vset4.u32.u32.lt, vset4.s32.s32.gt, vset2 with .add */
    m = sm(PTX_VOP_SET, 4, false, false, false);
    m.cmp = PTX_VCMP_LT;
    assert_int_equal(ptx_video_simd4(&m, 0x01020304, 0x04030201, 0), 0x01010000);
    m.mask = 0x4;
    assert_int_equal(ptx_video_simd4(&m, 0x01020304, 0x04030201, 0xaabbccdd), 0xaa01ccdd);
    m = sm(PTX_VOP_SET, 4, false, true, true);
    m.cmp = PTX_VCMP_GT;
    assert_int_equal(ptx_video_simd4(&m, 0x807f0000, 0x7f80ff01, 0), 0x00010100);
    m.sat = true; /* ignored for vset */
    assert_int_equal(ptx_video_simd4(&m, 0x807f0000, 0x7f80ff01, 0), 0x00010100);
    m = sm(PTX_VOP_SET, 2, false, false, false);
    m.cmp = PTX_VCMP_NE;
    m.add = true;
    assert_int_equal(ptx_video_simd2(&m, 0x00010002, 0x00010003, 40), 41);
    m.cmp = PTX_VCMP_EQ;
    assert_int_equal(ptx_video_simd2(&m, 0x00010002, 0x00010003, 40), 41);
    m.cmp = PTX_VCMP_GE;
    m.asigned = true;
    assert_int_equal(ptx_video_simd2(&m, 0x80000002, 0x00010003, 0), 0);
    m.asigned = false;
    assert_int_equal(ptx_video_simd2(&m, 0x80000002, 0x00010003, 0), 1);
}

/* Per-lane reference for the SIMD forms. */
static uint32_t ref_simd(const ptx_vsimd_mods *m, uint32_t a, uint32_t b, uint32_t c,
                         unsigned lanes)
{
    unsigned w = 32 / lanes;
    uint32_t elem[8];
    for (unsigned e = 0; e < 2 * lanes; e++) {
        uint32_t word = e < lanes ? a : b;
        unsigned idx = e % lanes;
        elem[e] = w == 16 ? (uint16_t)(word >> (16 * idx)) : (uint8_t)(word >> (8 * idx));
    }
    int64_t acc = (int32_t)c;
    uint32_t out = 0;
    for (unsigned i = 0; i < lanes; i++) {
        uint32_t ea = elem[(m->asel >> (4 * i)) % (16) % (2 * lanes)];
        uint32_t eb = elem[(m->bsel >> (4 * i)) % (16) % (2 * lanes)];
        int64_t x = m->asigned ? (w == 16 ? (int16_t)ea : (int8_t)ea) : (int64_t)ea;
        int64_t y = m->bsigned ? (w == 16 ? (int16_t)eb : (int8_t)eb) : (int64_t)eb;
        int64_t t = 0;
        switch (m->op) {
        case PTX_VOP_ADD: t = x + y; break;
        case PTX_VOP_SUB: t = x - y; break;
        case PTX_VOP_AVRG: {
            int64_t s = x + y;
            t = s >= 0 ? (s + 1) / 2 : (s - 1) / 2;
            break;
        }
        case PTX_VOP_ABSDIFF: t = x > y ? x - y : y - x; break;
        case PTX_VOP_MIN: t = x < y ? x : y; break;
        case PTX_VOP_MAX: t = x > y ? x : y; break;
        case PTX_VOP_SET:
            switch (m->cmp) {
            case PTX_VCMP_EQ: t = x == y; break;
            case PTX_VCMP_NE: t = x != y; break;
            case PTX_VCMP_LT: t = x < y; break;
            case PTX_VCMP_LE: t = x <= y; break;
            case PTX_VCMP_GT: t = x > y; break;
            default: t = x >= y; break;
            }
            break;
        default: break;
        }
        if (m->sat && !m->add && m->op != PTX_VOP_SET) {
            int64_t lo = m->dsigned ? -(INT64_C(1) << (w - 1)) : 0;
            int64_t hi = m->dsigned ? (INT64_C(1) << (w - 1)) - 1 : (INT64_C(1) << w) - 1;
            t = t < lo ? lo : t > hi ? hi : t;
        }
        bool on = (m->mask >> i) & 1;
        if (m->add) {
            if (on)
                acc += t;
        } else {
            uint32_t lanemask = (uint32_t)((UINT64_C(1) << w) - 1);
            uint32_t v = on ? (uint32_t)t : c >> (w * i);
            out |= (v & lanemask) << (w * i);
        }
    }
    return m->add ? (uint32_t)acc : out;
}

static void test_simd_random(void **state)
{
    (void)state;
    static const ptx_vop ops[] = {PTX_VOP_ADD, PTX_VOP_SUB, PTX_VOP_AVRG, PTX_VOP_ABSDIFF,
                                  PTX_VOP_MIN, PTX_VOP_MAX, PTX_VOP_SET};
    rng r = {23};
    for (unsigned i = 0; i < 200000; i++) {
        uint32_t k = next32(&r);
        unsigned lanes = (k & 1) ? 4 : 2;
        ptx_vsimd_mods m = {0};
        m.op = (uint8_t)ops[(k >> 1) % 7];
        m.dsigned = (k >> 4) & 1;
        m.asigned = (k >> 5) & 1;
        m.bsigned = (k >> 6) & 1;
        m.add = (k >> 7) & 1;
        m.sat = !m.add && ((k >> 8) & 1);
        m.cmp = (uint8_t)((k >> 9) % 6);
        m.mask = (uint8_t)(((k >> 12) % 15 + 1) & (lanes == 2 ? 3 : 15));
        uint32_t s = next32(&r);
        m.asel = (uint16_t)(lanes == 2 ? s & 0x33 : s & 0x7777);
        m.bsel = (uint16_t)(lanes == 2 ? (s >> 16) & 0x33 : (s >> 16) & 0x7777);
        uint32_t a = operand(&r), b = operand(&r), c = operand(&r);
        uint32_t got = lanes == 2 ? ptx_video_simd2(&m, a, b, c) : ptx_video_simd4(&m, a, b, c);
        uint32_t want = ref_simd(&m, a, b, c, lanes);
        if (got != want)
            print_error("lanes %u op %u ds %d as %d bs %d add %d sat %d cmp %u mask %x "
                        "asel %x bsel %x a %08x b %08x c %08x\n",
                        lanes, m.op, m.dsigned, m.asigned, m.bsigned, m.add, m.sat, m.cmp,
                        m.mask, m.asel, m.bsel, a, b, c);
        assert_int_equal(got, want);
    }
}

/* ---- decoder helpers ------------------------------------------------------ */

static void test_parsers(void **state)
{
    (void)state;
    assert_int_equal(ptx_vsel_from_name("b0", 2), PTX_VSEL_B0);
    assert_int_equal(ptx_vsel_from_name("b3", 2), PTX_VSEL_B3);
    assert_int_equal(ptx_vsel_from_name("h1", 2), PTX_VSEL_H1);
    assert_int_equal(ptx_vsel_from_name("h2", 2), -1);
    assert_int_equal(ptx_vsel_from_name("b", 1), -1);
    assert_int_equal(ptx_vcmp_from_name("ge", 2), PTX_VCMP_GE);
    assert_int_equal(ptx_vcmp_from_name("lo", 2), -1);

    uint16_t sel = 0;
    assert_true(ptx_vsimd_parse_sel("h10", 3, 2, &sel));
    assert_int_equal(sel, 0x10);
    assert_true(ptx_vsimd_parse_sel("h32", 3, 2, &sel));
    assert_int_equal(sel, 0x32);
    assert_true(ptx_vsimd_parse_sel("b7654", 5, 4, &sel));
    assert_int_equal(sel, 0x7654);
    assert_true(ptx_vsimd_parse_sel("b0000", 5, 4, &sel));
    assert_int_equal(sel, 0);
    assert_false(ptx_vsimd_parse_sel("h14", 3, 2, &sel));
    assert_false(ptx_vsimd_parse_sel("b8000", 5, 4, &sel));
    assert_false(ptx_vsimd_parse_sel("b765", 4, 4, &sel));
    assert_false(ptx_vsimd_parse_sel("h10", 3, 4, &sel));
    assert_false(ptx_vsimd_parse_sel("hx0", 3, 2, &sel));

    uint8_t mask = 0;
    assert_true(ptx_vsimd_parse_mask("h10", 3, 2, &mask));
    assert_int_equal(mask, 3);
    assert_true(ptx_vsimd_parse_mask("h1", 2, 2, &mask));
    assert_int_equal(mask, 2);
    assert_true(ptx_vsimd_parse_mask("b310", 4, 4, &mask));
    assert_int_equal(mask, 0xb);
    assert_true(ptx_vsimd_parse_mask("b3210", 5, 4, &mask));
    assert_int_equal(mask, 0xf);
    assert_true(ptx_vsimd_parse_mask("b00", 3, 4, &mask));
    assert_int_equal(mask, 1);
    assert_false(ptx_vsimd_parse_mask("h2", 2, 2, &mask));
    assert_false(ptx_vsimd_parse_mask("b4", 2, 4, &mask));
    assert_false(ptx_vsimd_parse_mask("b", 1, 4, &mask));
    assert_false(ptx_vsimd_parse_mask("b32100", 6, 4, &mask));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_examples),
        cmocka_unit_test(test_scalar_random),
        cmocka_unit_test(test_vmad),
        cmocka_unit_test(test_simd_examples),
        cmocka_unit_test(test_simd_random),
        cmocka_unit_test(test_parsers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
