/* isa/exec_convert.c — cvt and cvt.pack (PTX ISA §9.7.9.21, §9.7.9.22).
 *
 * The semantics live in isa/cvt.h; this file only picks, once at load, the
 * cheapest handler that computes them: an inline lane loop for the pairs
 * nvcc emits most (int <-> int extensions and truncations, f32 <-> int,
 * f32 <-> f64, f32 <-> f16/bf16), the library's specialised converter
 * (ptx_cvt_lookup) through a pointer for the other common pairs, and the
 * generic ptx_cvt for the rest.
 *
 * Destination width: cvt.h returns signed integer results sign-extended to
 * 64 bits and everything else zero-extended, and the manual's rule for a
 * destination register wider than the destination type is exactly that
 * extension; so every handler masks its result to the width of the
 * destination *register* (in->imm), which also keeps the register file's
 * zero-extension invariant. */
#include "runtime/decode.h"
#include "runtime/warp.h"
#include "isa/cvt.h"

#include <string.h>

_Static_assert(sizeof(ptx_cvt_fn) == sizeof(const void *),
               "a converter pointer is kept in ex_instr.ext");

static inline uint64_t width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

static inline uint64_t sx32(int32_t v)
{
    return (uint64_t)(int64_t)v;
}

/* ------------------------------------------------------------ handlers */

/* One lane loop per inline conversion; x is the source register. */
#define DEF_CVT(NAME, EXPR)                                                   \
    static void h_cvt_##NAME(ex_warp *w, const ex_instr *in, uint32_t mask)   \
    {                                                                         \
        const uint64_t *A = w->r[in->a];                                      \
        uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;                     \
        EX_LANES(mask, l, {                                                   \
            uint64_t x = A[l];                                                \
            D[l] = (uint64_t)(EXPR) & m;                                      \
        });                                                                   \
    }

/* int -> int without .sat: extend the source by its own signedness from
 * its width (op2 = 64 - source bits), then truncate to the destination
 * type and extend by the destination's signedness (shift from in->type). */
#define SEXT(v, s) ((uint64_t)((int64_t)((v) << (s)) >> (s)))
#define ZEXT(v, s) (((v) << (s)) >> (s))
#define DEF_CVT_I2I(NAME, SRC_EXT, DST_EXT)                                   \
    static void h_cvt_##NAME(ex_warp *w, const ex_instr *in, uint32_t mask)   \
    {                                                                         \
        const uint64_t *A = w->r[in->a];                                      \
        uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;                     \
        unsigned s1 = in->op2, s2 = 64u - 8u * ptx_type_size((ptx_type)in->type); \
        EX_LANES(mask, l, {                                                   \
            uint64_t v = SRC_EXT(A[l], s1);                                   \
            D[l] = DST_EXT(v, s2) & m;                                        \
        });                                                                   \
    }
DEF_CVT_I2I(i2i_uu, ZEXT, ZEXT)
DEF_CVT_I2I(i2i_us, ZEXT, SEXT)
DEF_CVT_I2I(i2i_su, SEXT, ZEXT)
DEF_CVT_I2I(i2i_ss, SEXT, SEXT)

/* the commonest integer forms: cvt.u64.u32, cvt.s64.s32, cvt.u32.u64 */
DEF_CVT(zext32, x & 0xffffffffu)
DEF_CVT(sext32, sx32((int32_t)(uint32_t)x))
DEF_CVT(s32_f32_rzi, sx32(ptx_cvt_f32_to_s32_rzi((uint32_t)x)))
DEF_CVT(s32_f32_rni, sx32(ptx_cvt_f32_to_s32_rni((uint32_t)x)))
DEF_CVT(u32_f32_rzi, ptx_cvt_f32_to_u32_rzi((uint32_t)x))
DEF_CVT(u32_f32_rni, ptx_cvt_f32_to_u32_rni((uint32_t)x))
DEF_CVT(s32_f64_rzi, sx32(ptx_cvt_f64_to_s32_rzi(x)))
DEF_CVT(f32_s32_rn, ptx_cvt_s32_to_f32_rn((int32_t)(uint32_t)x))
DEF_CVT(f32_u32_rn, ptx_cvt_u32_to_f32_rn((uint32_t)x))
/* 32-bit ints are exact in f64 */
DEF_CVT(f64_s32, ptx_f64_bits((double)(int32_t)(uint32_t)x))
DEF_CVT(f64_u32, ptx_f64_bits((double)(uint32_t)x))
DEF_CVT(f64_f32, ptx_cvt_f32_to_f64((uint32_t)x))
DEF_CVT(f32_f64_rn, ptx_cvt_f64_to_f32_rn(x))
DEF_CVT(f16_f32_rn, ptx_f16_from_f32_rn((uint32_t)x))
DEF_CVT(f32_f16, ptx_f16_to_f32((uint16_t)x))
DEF_CVT(bf16_f32_rn, ptx_bf16_from_f32_rn((uint32_t)x))
DEF_CVT(f32_bf16, ptx_bf16_to_f32((uint16_t)x))

/* Rounding to an integral value in the same type (floorf and friends).
 * Host trunc/floor/ceil keep the sign of a zero result as the manual
 * wants; an f32 NaN becomes the canonical NaN, an f64 NaN is quieted. */
static inline uint64_t rint_f32(uint64_t x, double (*rnd)(double))
{
    uint32_t f = (uint32_t)x;
    if (ptx_f32_isnan(f))
        return PTX_F32_CANON_NAN;
    return ptx_f32_bits((float)rnd(ptx_f32_from_bits(f)));
}
static inline uint64_t rint_f64(uint64_t x, double (*rnd)(double))
{
    if (ptx_f64_isnan(x))
        return x | UINT64_C(0x0008000000000000);
    return ptx_f64_bits(rnd(ptx_f64_from_bits(x)));
}
DEF_CVT(f32_rzi, rint_f32(x, trunc))
DEF_CVT(f32_rmi, rint_f32(x, floor))
DEF_CVT(f32_rpi, rint_f32(x, ceil))
DEF_CVT(f32_rni, rint_f32(x, ptx_rne_integral))
DEF_CVT(f64_rzi, rint_f64(x, trunc))
DEF_CVT(f64_rmi, rint_f64(x, floor))
DEF_CVT(f64_rpi, rint_f64(x, ceil))
DEF_CVT(f64_rni, rint_f64(x, ptx_rne_integral))

/* A specialised converter from ptx_cvt_lookup. */
static void h_cvt_fn(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ptx_cvt_fn fn;
    memcpy(&fn, &in->ext, sizeof fn);
    const uint64_t *A = w->r[in->a];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, D[l] = fn(A[l]) & m;);
}

/* Everything else; the combination was checked at load (op2 = flags). */
static void h_cvt_generic(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    ptx_rnd rnd = (ptx_rnd)in->rnd;
    unsigned flags = in->op2;
    const uint64_t *A = w->r[in->a];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, {
        uint64_t r = 0;
        ptx_cvt(dt, st, rnd, flags, A[l], &r);
        D[l] = r & m;
    });
}

/* Old PTX (ISA 1.x) converts the thread/CTA index registers directly:
 * `cvt.u32.u16 %r, %tid.x`.  Only these four are accepted as cvt sources
 * (vr[0] = ptx_sreg, vr[1] = component 0..2); the value is read as mov
 * reads it and then converted exactly like a register source. */
static uint64_t index_sreg(const ex_warp *w, ptx_sreg s, unsigned comp, unsigned lane)
{
    const ex_launch *L = w->launch;
    uint32_t t = ex_thread_linear(w, lane);
    switch (s) {
    case PTX_SREG_TID:
        return comp == 0 ? t % L->block[0]
             : comp == 1 ? (t / L->block[0]) % L->block[1]
                         : t / (L->block[0] * L->block[1]);
    case PTX_SREG_NTID: return L->block[comp];
    case PTX_SREG_CTAID: return w->cta->ctaid[comp];
    default: return L->grid[comp]; /* PTX_SREG_NCTAID */
    }
}

static void h_cvt_sreg(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    ptx_rnd rnd = (ptx_rnd)in->rnd;
    unsigned flags = in->op2, comp = in->vr[1];
    ptx_sreg sr = (ptx_sreg)in->vr[0];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, {
        uint64_t r = 0;
        ptx_cvt(dt, st, rnd, flags, index_sreg(w, sr, comp, l), &r);
        D[l] = r & m;
    });
}

/* cvt.frnd.{f16x2,bf16x2,e4m3x2,e5m2x2}.f32 d, a, b: a to the upper half. */
static void h_cvt_pack2(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ptx_type dt = (ptx_type)in->type, st = (ptx_type)in->type2;
    ptx_rnd rnd = (ptx_rnd)in->rnd;
    unsigned flags = in->op2;
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, {
        uint64_t r = 0;
        ptx_cvt_pack2(dt, st, rnd, flags, A[l], B[l], &r);
        D[l] = r & m;
    });
}

static void h_cvt_f16x2_f32_rn(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, {
        uint64_t hi = ptx_f16_from_f32_rn((uint32_t)A[l]);
        D[l] = (hi << 16 | ptx_f16_from_f32_rn((uint32_t)B[l])) & m;
    });
}

static void h_cvt_bf16x2_f32_rn(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, {
        uint64_t hi = ptx_bf16_from_f32_rn((uint32_t)A[l]);
        D[l] = (hi << 16 | ptx_bf16_from_f32_rn((uint32_t)B[l])) & m;
    });
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b: both clamped to 16 bits, a in the
 * upper half.  op2: 1 when the 16-bit type is signed. */
static void h_cvt_pack_sat16(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    int32_t lo = in->op2 ? INT16_MIN : 0, hi = in->op2 ? INT16_MAX : UINT16_MAX;
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint64_t *D = w->r[in->d], m = (uint64_t)in->imm;
    EX_LANES(mask, l, {
        int32_t a = (int32_t)(uint32_t)A[l], b = (int32_t)(uint32_t)B[l];
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        D[l] = ((uint64_t)((uint32_t)a & 0xffffu) << 16 | ((uint32_t)b & 0xffffu)) & m;
    });
}

/* -------------------------------------------------------------- decoding */

/* A source operand as a slot of type t.  Float literals for a 16-bit float
 * type are rounded to it here (the loader keeps only raw bits). */
static uint32_t src_slot(ex_decoder *d, const ptx_operand *o, ptx_type t)
{
    if (!o)
        return EX_NONE;
    if ((t == PTX_T_F16 || t == PTX_T_BF16) &&
        (o->kind == PTX_OPND_FIMM32 || o->kind == PTX_OPND_FIMM64)) {
        uint64_t bits = (uint64_t)o->val;
        if (o->kind == PTX_OPND_FIMM32)
            bits = ptx_f64_bits((double)ptx_f32_from_bits((uint32_t)bits));
        ptx_operand imm = *o;
        imm.kind = PTX_OPND_IMM;
        imm.val = t == PTX_T_F16 ? ptx_f16_from_f64(bits, PTX_RND_RN, 0)
                                 : ptx_bf16_from_f64(bits, PTX_RND_RN, 0);
        return ex_slot(d, &imm, PTX_T_B16);
    }
    return ex_slot(d, o, t);
}

/* Bytes of the destination register (the type's size when it has none). */
static unsigned dst_bytes(const ex_decoder *d, const ptx_operand *o, ptx_type t)
{
    unsigned n = ptx_type_size(t);
    if (o->kind == PTX_OPND_REG && o->id >= 0 && (guint)o->id < d->irf->regs->len) {
        const ptx_reg *r = &g_array_index(d->irf->regs, ptx_reg, o->id);
        unsigned rn = ptx_type_size(r->type);
        if (rn >= 1 && rn <= 8)
            n = rn;
    }
    return n > 8 ? 8 : n;
}

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

static bool is_irnd(ptx_rnd r)
{
    return r == PTX_RND_RNI || r == PTX_RND_RZI || r == PTX_RND_RMI || r == PTX_RND_RPI;
}

/* .ftz flushes f32 subnormal inputs and results; for these pairs neither
 * can change the answer, so the flag-free fast converters apply. */
static bool ftz_is_moot(ptx_type dt, ptx_type st, ptx_rnd rnd)
{
    if (st == PTX_T_F32 && (is_int(dt) || dt == PTX_T_F32))
        return rnd == PTX_RND_RZI || rnd == PTX_RND_RNI; /* subnormals round to 0 */
    if (dt == PTX_T_F32 && (is_int(st) || st == PTX_T_F16))
        return true; /* results are never subnormal */
    if (dt == PTX_T_F16 && st == PTX_T_F32)
        return rnd == PTX_RND_RN; /* f32 subnormals round to a signed zero */
    return false;
}

/* The inline handler for a flag-free pair, or NULL. */
static ex_handler fast_cvt(ptx_type dt, ptx_type st, ptx_rnd rnd)
{
    static const struct {
        ptx_type dt, st;
        ptx_rnd rnd;
        ex_handler fn;
    } table[] = {
        {PTX_T_S32, PTX_T_F32, PTX_RND_RZI, h_cvt_s32_f32_rzi},
        {PTX_T_S32, PTX_T_F32, PTX_RND_RNI, h_cvt_s32_f32_rni},
        {PTX_T_U32, PTX_T_F32, PTX_RND_RZI, h_cvt_u32_f32_rzi},
        {PTX_T_U32, PTX_T_F32, PTX_RND_RNI, h_cvt_u32_f32_rni},
        {PTX_T_S32, PTX_T_F64, PTX_RND_RZI, h_cvt_s32_f64_rzi},
        {PTX_T_F32, PTX_T_S32, PTX_RND_RN, h_cvt_f32_s32_rn},
        {PTX_T_F32, PTX_T_U32, PTX_RND_RN, h_cvt_f32_u32_rn},
        {PTX_T_F64, PTX_T_S32, PTX_RND_RN, h_cvt_f64_s32},
        {PTX_T_F64, PTX_T_U32, PTX_RND_RN, h_cvt_f64_u32},
        {PTX_T_F64, PTX_T_F32, PTX_RND_NONE, h_cvt_f64_f32},
        {PTX_T_F32, PTX_T_F64, PTX_RND_RN, h_cvt_f32_f64_rn},
        {PTX_T_F16, PTX_T_F32, PTX_RND_RN, h_cvt_f16_f32_rn},
        {PTX_T_F32, PTX_T_F16, PTX_RND_NONE, h_cvt_f32_f16},
        {PTX_T_BF16, PTX_T_F32, PTX_RND_RN, h_cvt_bf16_f32_rn},
        {PTX_T_F32, PTX_T_BF16, PTX_RND_NONE, h_cvt_f32_bf16},
        {PTX_T_F32, PTX_T_F32, PTX_RND_RZI, h_cvt_f32_rzi},
        {PTX_T_F32, PTX_T_F32, PTX_RND_RMI, h_cvt_f32_rmi},
        {PTX_T_F32, PTX_T_F32, PTX_RND_RPI, h_cvt_f32_rpi},
        {PTX_T_F32, PTX_T_F32, PTX_RND_RNI, h_cvt_f32_rni},
        {PTX_T_F64, PTX_T_F64, PTX_RND_RZI, h_cvt_f64_rzi},
        {PTX_T_F64, PTX_T_F64, PTX_RND_RMI, h_cvt_f64_rmi},
        {PTX_T_F64, PTX_T_F64, PTX_RND_RPI, h_cvt_f64_rpi},
        {PTX_T_F64, PTX_T_F64, PTX_RND_RNI, h_cvt_f64_rni},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
        if (table[i].dt == dt && table[i].st == st && table[i].rnd == rnd)
            return table[i].fn;
    return NULL;
}

/* Why ptx_cvt refused a combination. */
static void why_cvt(ex_decoder *d, ptx_type dt, ptx_type st, ptx_rnd rnd)
{
    const char *dn = ptx_type_name(dt), *sn = ptx_type_name(st);
    bool dfl = ptx_type_is_float(dt), sfl = ptx_type_is_float(st);
    if (rnd == PTX_RND_RS)
        g_string_assign(d->why, "cvt.rs (stochastic rounding needs the rbits operand)");
    else if (is_int(dt) && sfl && !is_irnd(rnd))
        g_string_printf(d->why, "cvt.%s.%s needs .rni/.rzi/.rmi/.rpi", dn, sn);
    else if (dfl && (is_int(st) || sfl) && rnd == PTX_RND_NONE)
        g_string_printf(d->why, "cvt.%s.%s needs a rounding modifier", dn, sn);
    else
        g_string_printf(d->why, "cvt.%s.%s with these modifiers", dn, sn);
}

static bool decode_pack_sat(ex_decoder *d, ex_instr *in, ptx_type ct, ptx_type abt,
                            unsigned flags)
{
    if (d->pi->nopnds != 3 || (ct != PTX_T_U16 && ct != PTX_T_S16) || abt != PTX_T_S32 ||
        !(flags & PTX_CVT_SAT)) {
        g_string_printf(d->why, "cvt.pack.%s.%s with %u operands", ptx_type_name(ct),
                        ptx_type_name(abt), d->pi->nopnds);
        return false;
    }
    const ptx_operand *dst = ex_opnd(d, 0);
    in->d = ex_slot(d, dst, PTX_T_B32);
    in->a = ex_opnd_slot(d, 1, abt);
    in->b = ex_opnd_slot(d, 2, abt);
    if (in->d == EX_NONE || in->a == EX_NONE || in->b == EX_NONE) {
        g_string_assign(d->why, "operand is not a register or constant");
        return false;
    }
    in->imm = (int64_t)width_mask(dst_bytes(d, dst, PTX_T_B32));
    in->op2 = ct == PTX_T_S16;
    in->fn = h_cvt_pack_sat16;
    return true;
}

static bool decode_sreg_src(ex_decoder *d, ex_instr *in, const ptx_operand *src, ptx_type dt,
                            ptx_type st, ptx_rnd rnd, unsigned flags)
{
    ptx_sreg sr = (ptx_sreg)src->id;
    uint64_t probe;
    if (sr != PTX_SREG_TID && sr != PTX_SREG_NTID && sr != PTX_SREG_CTAID &&
        sr != PTX_SREG_NCTAID) {
        g_string_printf(d->why, "cvt from %%%s (only %%tid, %%ntid, %%ctaid and %%nctaid)",
                        ptx_sreg_name(sr));
        return false;
    }
    if (!ptx_cvt(dt, st, rnd, flags, 0, &probe)) {
        why_cvt(d, dt, st, rnd);
        return false;
    }
    in->vr[0] = (uint32_t)sr;
    in->vr[1] = src->comp >= 1 && src->comp <= 3 ? src->comp - 1u : 0;
    in->imm = (int64_t)width_mask(dst_bytes(d, ex_opnd(d, 0), dt));
    in->op2 = (uint8_t)flags;
    in->fn = h_cvt_sreg;
    return true;
}

bool ex_decode_convert(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    if (pi->op != PTX_OP_CVT)
        return false;
    unsigned flags = 0;
    bool pack = false;
    for (unsigned i = 0; i < pi->nmods; i++) {
        uint16_t m = pi->mods[i];
        if (PTX_MOD_IS_TYPE(m))
            continue;
        switch (m) {
        case PTX_MOD_RN: case PTX_MOD_RZ: case PTX_MOD_RM: case PTX_MOD_RP:
        case PTX_MOD_RNA: case PTX_MOD_RS: case PTX_MOD_RNI: case PTX_MOD_RZI:
        case PTX_MOD_RMI: case PTX_MOD_RPI:
            break; /* pi->rnd has it */
        case PTX_MOD_FTZ: flags |= PTX_CVT_FTZ; break;
        case PTX_MOD_SAT: flags |= PTX_CVT_SAT; break;
        case PTX_MOD_SATFINITE: flags |= PTX_CVT_SATFINITE; break;
        case PTX_MOD_RELU: flags |= PTX_CVT_RELU; break;
        default:
            if (strcmp(ptx_module_mod_name(d->ir, m), "pack") == 0) {
                pack = true;
                break;
            }
            g_string_printf(d->why, "cvt with .%s", ptx_module_mod_name(d->ir, m));
            return false;
        }
    }
    if (pi->ntypes < 2) {
        g_string_assign(d->why, "cvt needs a destination and a source type");
        return false;
    }
    ptx_type dt = (ptx_type)pi->types[0], st = (ptx_type)pi->types[1];
    ptx_rnd rnd = (ptx_rnd)pi->rnd;
    if (pack)
        return decode_pack_sat(d, in, dt, st, flags);
    if (pi->ntypes > 2 || pi->nopnds < 2 || pi->nopnds > 3) {
        g_string_assign(d->why, "cvt form");
        return false;
    }
    const ptx_operand *dst = ex_opnd(d, 0), *src = ex_opnd(d, 1);
    in->d = ex_slot(d, dst, dt);
    if (src->kind == PTX_OPND_SREG && pi->nopnds == 2 && in->d != EX_NONE)
        return decode_sreg_src(d, in, src, dt, st, rnd, flags);
    in->a = src_slot(d, src, st);
    if (in->d == EX_NONE || in->a == EX_NONE) {
        g_string_assign(d->why, "operand is not a register or constant");
        return false;
    }
    in->imm = (int64_t)width_mask(dst_bytes(d, dst, dt));
    in->op2 = (uint8_t)flags;
    uint64_t probe;

    if (pi->nopnds == 3) { /* two f32 sources packed, a in the upper half */
        in->b = src_slot(d, ex_opnd(d, 2), st);
        if (in->b == EX_NONE) {
            g_string_assign(d->why, "operand is not a register or constant");
            return false;
        }
        if (!ptx_cvt_pack2(dt, st, rnd, flags, 0, 0, &probe)) {
            why_cvt(d, dt, st, rnd);
            return false;
        }
        if (flags == 0 && rnd == PTX_RND_RN && dt == PTX_T_F16X2)
            in->fn = h_cvt_f16x2_f32_rn;
        else if (flags == 0 && rnd == PTX_RND_RN && dt == PTX_T_BF16X2)
            in->fn = h_cvt_bf16x2_f32_rn;
        else
            in->fn = h_cvt_pack2;
        return true;
    }

    if (!ptx_cvt(dt, st, rnd, flags, 0, &probe)) {
        why_cvt(d, dt, st, rnd);
        return false;
    }
    if (flags == PTX_CVT_FTZ && ftz_is_moot(dt, st, rnd))
        flags = 0;
    if (flags == 0 && is_int(dt) && is_int(st)) {
        bool ss = ptx_type_is_signed(st), ds = ptx_type_is_signed(dt);
        unsigned dn = ptx_type_size(dt), sn = ptx_type_size(st);
        if (dn == 8 && sn == 4) {
            in->fn = ss ? h_cvt_sext32 : h_cvt_zext32;
            return true;
        }
        if (dn == 4 && sn >= 4 && in->imm == (int64_t)0xffffffffu) {
            in->fn = h_cvt_zext32; /* the low 32 bits, in a 32-bit register */
            return true;
        }
        in->op2 = (uint8_t)(64u - 8u * ptx_type_size(st));
        in->fn = ss ? (ds ? h_cvt_i2i_ss : h_cvt_i2i_su) : (ds ? h_cvt_i2i_us : h_cvt_i2i_uu);
        return true;
    }
    if (flags == 0) {
        /* widening float conversions take no rounding: accept any given */
        ptx_rnd key = rnd;
        if ((dt == PTX_T_F64 && st == PTX_T_F32) ||
            (dt == PTX_T_F32 && (st == PTX_T_F16 || st == PTX_T_BF16)))
            key = PTX_RND_NONE;
        ex_handler fast = fast_cvt(dt, st, key);
        if (fast) {
            in->fn = fast;
            return true;
        }
        ptx_cvt_fn fn = ptx_cvt_lookup(dt, st, key, 0);
        if (fn) {
            memcpy(&in->ext, &fn, sizeof fn);
            in->fn = h_cvt_fn;
            return true;
        }
    }
    ptx_cvt_fn fn = flags ? ptx_cvt_lookup(dt, st, rnd, flags) : NULL;
    if (fn) { /* a flagged form with its own converter (cvt.sat.f32.f32) */
        memcpy(&in->ext, &fn, sizeof fn);
        in->fn = h_cvt_fn;
        return true;
    }
    in->fn = h_cvt_generic;
    return true;
}
