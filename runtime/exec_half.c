/* isa/exec_half.c — executor handlers for the 16-bit float types (PTX ISA
 * §9.7.4): add sub mul fma min max neg abs ex2.approx tanh.approx on .f16,
 * .f16x2, .bf16 and .bf16x2, with .rn .ftz .sat .relu .NaN .xorsign.abs.
 *
 * Semantics come from isa/half.h; each type/flag combination gets its own
 * handler at load, the PTX_FP_* flags travel in in->op2.  A .f16/.bf16
 * value is the low 16 bits of its register, an x2 value the low 32 bits
 * (element 0 in bits 15:0); results are written zero-extended. */
#include "isa/half.h"
#include "isa/opcodes.h"
#include "runtime/decode.h"

#include <math.h>

/* ------------------------------------------------------------ handlers */

#define DEF_UN(name, T, EXPR)                                                 \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const uint64_t *ra = w->r[in->a];                                     \
        uint64_t *rd = w->r[in->d];                                           \
        const unsigned fl = in->op2;                                          \
        (void)fl;                                                             \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l];                                                   \
            rd[l] = (uint64_t)(T)(EXPR);                                      \
        });                                                                   \
    }

#define DEF_BIN(name, T, EXPR)                                                \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const uint64_t *ra = w->r[in->a], *rb = w->r[in->b];                  \
        uint64_t *rd = w->r[in->d];                                           \
        const unsigned fl = in->op2;                                          \
        (void)fl;                                                             \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l], b = (T)rb[l];                                     \
            rd[l] = (uint64_t)(T)(EXPR);                                      \
        });                                                                   \
    }

#define DEF_TRI(name, T, EXPR)                                                \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const uint64_t *ra = w->r[in->a], *rb = w->r[in->b];                  \
        const uint64_t *rc = w->r[in->c];                                     \
        uint64_t *rd = w->r[in->d];                                           \
        const unsigned fl = in->op2;                                          \
        (void)fl;                                                             \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l], b = (T)rb[l], c = (T)rc[l];                       \
            rd[l] = (uint64_t)(T)(EXPR);                                      \
        });                                                                   \
    }

#define U16 uint16_t
#define U32 uint32_t

/* One arithmetic operation in all four types. */
#define DEF_BIN4(op)                                                          \
    DEF_BIN(h_##op##_f16, U16, ptx_f16_##op(a, b, fl))                        \
    DEF_BIN(h_##op##_f16x2, U32, ptx_f16x2_##op(a, b, fl))                    \
    DEF_BIN(h_##op##_bf16, U16, ptx_bf16_##op(a, b, fl))                      \
    DEF_BIN(h_##op##_bf16x2, U32, ptx_bf16x2_##op(a, b, fl))

DEF_BIN4(add)
DEF_BIN4(sub)
DEF_BIN4(mul)
DEF_BIN4(min)
DEF_BIN4(max)
DEF_TRI(h_fma_f16, U16, ptx_f16_fma(a, b, c, fl))
DEF_TRI(h_fma_f16x2, U32, ptx_f16x2_fma(a, b, c, fl))
DEF_TRI(h_fma_bf16, U16, ptx_bf16_fma(a, b, c, fl))
DEF_TRI(h_fma_bf16x2, U32, ptx_bf16x2_fma(a, b, c, fl))

DEF_UN(h_neg_f16, U16, ptx_f16_neg(a, fl))
DEF_UN(h_neg_f16x2, U32, ptx_f16x2_neg(a, fl))
DEF_UN(h_neg_bf16, U16, ptx_bf16_neg(a))
DEF_UN(h_neg_bf16x2, U32, ptx_bf16x2_neg(a))
DEF_UN(h_abs_f16, U16, ptx_f16_abs(a, fl))
DEF_UN(h_abs_f16x2, U32, ptx_f16x2_abs(a, fl))
DEF_UN(h_abs_bf16, U16, ptx_bf16_abs(a))
DEF_UN(h_abs_bf16x2, U32, ptx_bf16x2_abs(a))

DEF_UN(h_ex2_f16, U16, ptx_f16_ex2_approx(a))
DEF_UN(h_ex2_f16x2, U32, ptx_f16x2_ex2_approx(a))
DEF_UN(h_ex2_bf16, U16, ptx_bf16_ex2_approx_ftz(a))
DEF_UN(h_ex2_bf16x2, U32, ptx_bf16x2_ex2_approx_ftz(a))
DEF_UN(h_tanh_f16, U16, ptx_f16_tanh_approx(a))
DEF_UN(h_tanh_f16x2, U32, ptx_f16x2_tanh_approx(a))
DEF_UN(h_tanh_bf16, U16, ptx_bf16_tanh_approx(a))
DEF_UN(h_tanh_bf16x2, U32, ptx_bf16x2_tanh_approx(a))

/* ---- .rn without flags: the common case, computed in f32/f64 ----
 * f16/bf16 products are exact in f32.  A sum of two 16-bit values is exact
 * in f32 unless the smaller one lies below 2^-13 of the larger, far under
 * half an ulp of the 16-bit result, so rounding the f32 sum once more to
 * 16 bits still gives the correctly rounded value.  For f16 fma, a*b + c is
 * exact in f64 whenever the terms can both matter to a finite result (they
 * span at most 42 bits); rounding that to odd in f32 keeps the last
 * rounding single.  bf16 fma (a much wider exponent range) stays on the
 * general path. */

/* Exact f16 -> f32 (the half.h conversion goes through double). */
static inline float f16f(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (__builtin_expect(e == 0, 0)) {
        float v = (float)m * 0x1p-24f;
        return s ? -v : v;
    }
    if (e == 0x1f)
        return ptx_f32_from_bits(s | 0x7f800000u | (m << 13));
    return ptx_f32_from_bits(s | ((e + 112u) << 23) | (m << 13));
}
static inline float bf16f(uint16_t h)
{
    return ptx_f32_from_bits((uint32_t)h << 16);
}
static inline uint16_t to_f16(float x)
{
    return ptx_f16_from_f32_rn(ptx_f32_bits(x));
}
static inline uint16_t to_bf16(float x)
{
    return ptx_bf16_from_f32_rn(ptx_f32_bits(x));
}
/* f64 -> f32 rounded to odd (RZ, then the last bit set when inexact). */
static inline float f32_odd(double s)
{
    float f = (float)s;
    if ((double)f != s && !isinf(f)) {
        uint32_t b = ptx_f32_bits(f);
        if (fabs((double)f) > fabs(s))
            b -= 1; /* rounded away from zero: step back (magnitude > 0) */
        f = ptx_f32_from_bits(b | 1u);
    }
    return f;
}
static inline uint16_t f16_fma_rn(uint16_t a, uint16_t b, uint16_t c)
{
    double s = (double)f16f(a) * (double)f16f(b) + (double)f16f(c);
    return to_f16(f32_odd(s));
}

#define LO16(x) ((uint16_t)(x))
#define HI16(x) ((uint16_t)((x) >> 16))
#define PACK2(hi, lo) (((uint32_t)(hi) << 16) | (uint32_t)(lo))
#define DEF_FAST(op, OPX)                                                     \
    DEF_BIN(h_##op##_f16_rn, U16, to_f16(f16f(a) OPX f16f(b)))                \
    DEF_BIN(h_##op##_bf16_rn, U16, to_bf16(bf16f(a) OPX bf16f(b)))            \
    DEF_BIN(h_##op##_f16x2_rn, U32,                                           \
            PACK2(to_f16(f16f(HI16(a)) OPX f16f(HI16(b))),                    \
                  to_f16(f16f(LO16(a)) OPX f16f(LO16(b)))))                   \
    DEF_BIN(h_##op##_bf16x2_rn, U32,                                          \
            PACK2(to_bf16(bf16f(HI16(a)) OPX bf16f(HI16(b))),                 \
                  to_bf16(bf16f(LO16(a)) OPX bf16f(LO16(b)))))

DEF_FAST(add, +)
DEF_FAST(sub, -)
DEF_FAST(mul, *)
DEF_TRI(h_fma_f16_rn, U16, f16_fma_rn(a, b, c))
DEF_TRI(h_fma_f16x2_rn, U32,
        PACK2(f16_fma_rn(HI16(a), HI16(b), HI16(c)), f16_fma_rn(LO16(a), LO16(b), LO16(c))))

/* Handlers indexed by type: f16, f16x2, bf16, bf16x2. */
typedef ex_handler quad[4];
static const quad q_add = {h_add_f16, h_add_f16x2, h_add_bf16, h_add_bf16x2};
static const quad q_sub = {h_sub_f16, h_sub_f16x2, h_sub_bf16, h_sub_bf16x2};
static const quad q_mul = {h_mul_f16, h_mul_f16x2, h_mul_bf16, h_mul_bf16x2};
static const quad q_min = {h_min_f16, h_min_f16x2, h_min_bf16, h_min_bf16x2};
static const quad q_max = {h_max_f16, h_max_f16x2, h_max_bf16, h_max_bf16x2};
static const quad q_fma = {h_fma_f16, h_fma_f16x2, h_fma_bf16, h_fma_bf16x2};
static const quad q_neg = {h_neg_f16, h_neg_f16x2, h_neg_bf16, h_neg_bf16x2};
static const quad q_abs = {h_abs_f16, h_abs_f16x2, h_abs_bf16, h_abs_bf16x2};
static const quad q_ex2 = {h_ex2_f16, h_ex2_f16x2, h_ex2_bf16, h_ex2_bf16x2};
static const quad q_tanh = {h_tanh_f16, h_tanh_f16x2, h_tanh_bf16, h_tanh_bf16x2};
/* .rn without flags (NULL: no fast path) */
static const quad q_add_rn = {h_add_f16_rn, h_add_f16x2_rn, h_add_bf16_rn, h_add_bf16x2_rn};
static const quad q_sub_rn = {h_sub_f16_rn, h_sub_f16x2_rn, h_sub_bf16_rn, h_sub_bf16x2_rn};
static const quad q_mul_rn = {h_mul_f16_rn, h_mul_f16x2_rn, h_mul_bf16_rn, h_mul_bf16x2_rn};
static const quad q_fma_rn = {h_fma_f16_rn, h_fma_f16x2_rn, NULL, NULL};

/* ------------------------------------------------------------ decoding */

enum {
    M_FTZ = 1u << 0,
    M_SAT = 1u << 1,
    M_RELU = 1u << 2,
    M_NAN = 1u << 3,
    M_XORSIGN = 1u << 4,
    M_ABS = 1u << 5,
    M_APPROX = 1u << 6,
    M_OOB = 1u << 7,
    M_OTHER = 1u << 8,
};

static unsigned mod_class(uint16_t m)
{
    switch (m) {
    case PTX_MOD_FTZ: return M_FTZ;
    case PTX_MOD_SAT: return M_SAT;
    case PTX_MOD_RELU: return M_RELU;
    case PTX_MOD_NAN: return M_NAN;
    case PTX_MOD_XORSIGN: return M_XORSIGN;
    case PTX_MOD_ABS: return M_ABS;
    case PTX_MOD_APPROX: return M_APPROX;
    case PTX_MOD_OOB: return M_OOB;
    case PTX_MOD_RN: case PTX_MOD_RZ: case PTX_MOD_RM: case PTX_MOD_RP:
    case PTX_MOD_RNA: case PTX_MOD_RS: case PTX_MOD_RNI: case PTX_MOD_RZI:
    case PTX_MOD_RMI: case PTX_MOD_RPI:
        return 0; /* judged through pi->rnd */
    default:
        return PTX_MOD_IS_TYPE(m) ? 0 : M_OTHER;
    }
}

static bool fail(ex_decoder *d, const char *msg)
{
    g_string_assign(d->why, msg);
    return false;
}

/* Names the first modifier outside `allowed` in d->why; false if none. */
static bool bad_mods(ex_decoder *d, unsigned allowed)
{
    const ptx_instr *pi = d->pi;
    for (unsigned i = 0; i < pi->nmods; i++) {
        uint16_t m = pi->mods[i];
        if (mod_class(m) & ~allowed) {
            const char *mn = ptx_module_mod_name(d->ir, m);
            g_string_printf(d->why, "'.%s' is not defined for %s.%s", mn ? mn : "?",
                            ptx_opcode_info((ptx_opcode)pi->op)->name,
                            ptx_type_name((ptx_type)pi->types[0]));
            return true;
        }
    }
    return false;
}

/* A source slot.  Float literals (0f/0d) are rounded to the 16-bit format;
 * integer immediates are taken as raw bits. */
static uint32_t half_slot(ex_decoder *d, const ptx_operand *o, ptx_type t)
{
    bool x2 = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
    ptx_type raw = x2 ? PTX_T_B32 : PTX_T_B16;
    if (o->kind != PTX_OPND_FIMM32 && o->kind != PTX_OPND_FIMM64)
        return ex_slot(d, o, raw);
    if (x2)
        return EX_NONE; /* a single float literal does not name two halves */
    bool bf = t == PTX_T_BF16;
    uint64_t v = (uint64_t)o->val;
    uint16_t h;
    if (o->kind == PTX_OPND_FIMM32)
        h = bf ? ptx_bf16_from_f32((uint32_t)v, PTX_RND_RN, 0)
               : ptx_f16_from_f32((uint32_t)v, PTX_RND_RN, 0);
    else
        h = bf ? ptx_bf16_from_f64(v, PTX_RND_RN, 0) : ptx_f16_from_f64(v, PTX_RND_RN, 0);
    ptx_operand tmp = *o;
    tmp.kind = PTX_OPND_IMM;
    tmp.val = h;
    return ex_slot(d, &tmp, raw);
}

static bool get_slots(ex_decoder *d, ex_instr *in, unsigned nsrc, ptx_type t)
{
    uint32_t *src[3] = {&in->a, &in->b, &in->c};
    const ptx_operand *o = ex_opnd(d, 0);
    if (!o || d->pi->nopnds != 1 + nsrc)
        return fail(d, "wrong number of operands");
    in->d = ex_slot(d, o, t);
    if (in->d == EX_NONE || o->kind != PTX_OPND_REG)
        return fail(d, "the destination is not a register");
    for (unsigned i = 0; i < nsrc; i++) {
        *src[i] = half_slot(d, ex_opnd(d, 1 + i), t);
        if (*src[i] == EX_NONE)
            return fail(d, "a source is not a register or an immediate");
    }
    return true;
}

static int type_index(ptx_type t)
{
    switch (t) {
    case PTX_T_F16: return 0;
    case PTX_T_F16X2: return 1;
    case PTX_T_BF16: return 2;
    case PTX_T_BF16X2: return 3;
    default: return -1;
    }
}

static unsigned fp_flags(unsigned have)
{
    unsigned fl = 0;
    fl |= have & M_FTZ ? PTX_FP_FTZ : 0;
    fl |= have & M_SAT ? PTX_FP_SAT : 0;
    fl |= have & M_RELU ? PTX_FP_RELU : 0;
    fl |= have & M_NAN ? PTX_FP_NAN : 0;
    fl |= have & M_ABS ? PTX_FP_XORSIGN_ABS : 0;
    return fl;
}

bool ex_decode_half(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_opcode op = (ptx_opcode)pi->op;
    if (pi->ntypes == 0)
        return false;
    ptx_type t = (ptx_type)pi->types[0];
    int ti = type_index(t);
    if (ti < 0)
        return false;
    bool bf = ti >= 2;
    unsigned have = 0;
    for (unsigned i = 0; i < pi->nmods; i++)
        have |= mod_class(pi->mods[i]);
    const ex_handler *q = NULL, *fast = NULL;
    unsigned nsrc = 2, allowed = 0;
    bool rn_only = true; /* accepts no rounding or .rn; else none at all */
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
        q = op == PTX_OP_ADD ? q_add : op == PTX_OP_SUB ? q_sub : q_mul;
        fast = op == PTX_OP_ADD ? q_add_rn : op == PTX_OP_SUB ? q_sub_rn : q_mul_rn;
        allowed = bf ? 0 : M_FTZ | M_SAT;
        break;
    case PTX_OP_FMA:
        if (have & M_OOB)
            return fail(d, "fma.oob (out-of-bounds operands from tensor memory)");
        if (pi->rnd != PTX_RND_RN)
            return fail(d, "fma needs .rn");
        q = q_fma;
        fast = q_fma_rn;
        nsrc = 3;
        allowed = bf ? M_RELU : M_FTZ | M_SAT | M_RELU;
        if ((have & M_SAT) && (have & M_RELU))
            return fail(d, "'.sat' and '.relu' cannot be combined");
        break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        q = op == PTX_OP_MIN ? q_min : q_max;
        rn_only = false;
        allowed = (bf ? 0 : M_FTZ) | M_NAN | M_XORSIGN | M_ABS;
        if (((have & M_XORSIGN) != 0) != ((have & M_ABS) != 0))
            return fail(d, "min/max take .xorsign.abs together");
        break;
    case PTX_OP_NEG: case PTX_OP_ABS:
        q = op == PTX_OP_NEG ? q_neg : q_abs;
        rn_only = false;
        nsrc = 1;
        allowed = bf ? 0 : M_FTZ;
        break;
    case PTX_OP_EX2:
        rn_only = false;
        nsrc = 1;
        if (!(have & M_APPROX))
            return fail(d, "ex2 needs .approx");
        if (bf && !(have & M_FTZ))
            return fail(d, "ex2.approx on .bf16 needs .ftz");
        allowed = bf ? M_APPROX | M_FTZ : M_APPROX;
        q = q_ex2;
        break;
    case PTX_OP_TANH:
        rn_only = false;
        nsrc = 1;
        if (!(have & M_APPROX))
            return fail(d, "tanh needs .approx");
        allowed = M_APPROX;
        q = q_tanh;
        break;
    case PTX_OP_MAD: case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2:
    case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
        g_string_printf(d->why, "%s has no .%s form", ptx_opcode_info(op)->name,
                        ptx_type_name(t));
        return false;
    default:
        return false; /* cvt, ld, st, mov, setp... belong to other families */
    }
    if (pi->ntypes != 1)
        return fail(d, "unexpected second type");
    if (rn_only ? (pi->rnd != PTX_RND_NONE && pi->rnd != PTX_RND_RN)
                : pi->rnd != PTX_RND_NONE)
        return fail(d, rn_only ? "16-bit float arithmetic rounds with .rn only"
                               : "takes no rounding modifier");
    if (bad_mods(d, allowed))
        return false;
    if (!get_slots(d, in, nsrc, t))
        return false;
    unsigned fl = fp_flags(have);
    in->op2 = (uint8_t)fl;
    in->flags |= (fl & PTX_FP_FTZ ? EXF_FTZ : 0) | (fl & PTX_FP_SAT ? EXF_SAT : 0) |
                 (fl & PTX_FP_RELU ? EXF_RELU : 0) | (fl & PTX_FP_NAN ? EXF_NAN : 0) |
                 (have & M_APPROX ? EXF_APPROX : 0);
    in->rnd = PTX_RND_RN;
    in->fn = fl == 0 && fast && fast[ti] ? fast[ti] : q[ti];
    return true;
}
