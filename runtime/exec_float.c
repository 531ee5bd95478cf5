/* isa/exec_float.c — executor handlers for .f32/.f64 arithmetic (PTX ISA
 * §9.7.3): add sub mul mad fma div rcp sqrt rsqrt sin cos lg2 ex2 tanh min
 * max abs neg copysign testp, and the mixed-precision fma.rnd.f32.{f16,bf16}.
 *
 * Every rounding/flag combination is resolved at load into its own handler:
 * the common .rn forms (with or without .ftz) call the inline fast paths of
 * isa/fp.h directly; everything else calls the general fp.h entry points,
 * with the rounding mode in in->rnd and the PTX_FP_* flags in in->op2.
 *
 * Opcodes shared with the integer and half families are claimed only for an
 * .f32/.f64 instruction type; the others are left (empty why) to them.
 *
 * Legacy rules (manual, per-instruction "PTX ISA notes"/"Target ISA notes"):
 *   - .target sm_1x: f32 add/sub/mul/mad/min/max flush subnormals (implied
 *     .ftz); mad.f32 there runs as fma.rn.ftz.f32, what the manual says the
 *     JIT gives it on sm_20+ hardware;
 *   - mad without a rounding modifier is mad.rn (manual errata, see fp.h);
 *   - PTX ISA 1.0-1.3: div/rcp/sqrt.f32 without modifiers are .approx.ftz,
 *     their .f64 forms .rn; rsqrt/sin/cos/lg2/ex2.f32 are .approx.ftz and
 *     rsqrt.f64 is .approx.  From ISA 1.4 on the modifier is required. */
#include "isa/fp.h"
#include "isa/half.h"
#include "isa/opcodes.h"
#include "runtime/decode.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ handlers */

/* Handler skeletons: operand rows are fetched once, the lane loop applies
 * EXPR to the low bits of each source and zero-extends the result. */
#define DEF_UN(name, T, EXPR)                                                 \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const uint64_t *ra = w->r[in->a];                                     \
        uint64_t *rd = w->r[in->d];                                           \
        const unsigned fl = in->op2;                                          \
        const ptx_rnd rnd = (ptx_rnd)in->rnd;                                 \
        (void)fl;                                                             \
        (void)rnd;                                                            \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l];                                                   \
            rd[l] = (uint64_t)(EXPR);                                         \
        });                                                                   \
    }

#define DEF_BIN(name, T, EXPR)                                                \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const uint64_t *ra = w->r[in->a], *rb = w->r[in->b];                  \
        uint64_t *rd = w->r[in->d];                                           \
        const unsigned fl = in->op2;                                          \
        const ptx_rnd rnd = (ptx_rnd)in->rnd;                                 \
        (void)fl;                                                             \
        (void)rnd;                                                            \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l], b = (T)rb[l];                                     \
            rd[l] = (uint64_t)(EXPR);                                         \
        });                                                                   \
    }

#define DEF_TRI(name, T, EXPR)                                                \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const uint64_t *ra = w->r[in->a], *rb = w->r[in->b];                  \
        const uint64_t *rc = w->r[in->c];                                     \
        uint64_t *rd = w->r[in->d];                                           \
        const unsigned fl = in->op2;                                          \
        const ptx_rnd rnd = (ptx_rnd)in->rnd;                                 \
        (void)fl;                                                             \
        (void)rnd;                                                            \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l], b = (T)rb[l], c = (T)rc[l];                       \
            rd[l] = (uint64_t)(EXPR);                                         \
        });                                                                   \
    }

#define U32 uint32_t
#define U64 uint64_t
#define FTZ32 ptx_f32_ftz

/* ---- f32 add/sub/mul/fma: .rn, .rn.ftz, and everything else ---- */
DEF_BIN(h_add_f32_rn, U32, ptx_f32_add_rn(a, b))
DEF_BIN(h_sub_f32_rn, U32, ptx_f32_sub_rn(a, b))
DEF_BIN(h_mul_f32_rn, U32, ptx_f32_mul_rn(a, b))
DEF_TRI(h_fma_f32_rn, U32, ptx_f32_fma_rn(a, b, c))
DEF_BIN(h_add_f32_rn_ftz, U32, FTZ32(ptx_f32_add_rn(FTZ32(a), FTZ32(b))))
DEF_BIN(h_sub_f32_rn_ftz, U32, FTZ32(ptx_f32_sub_rn(FTZ32(a), FTZ32(b))))
DEF_BIN(h_mul_f32_rn_ftz, U32, FTZ32(ptx_f32_mul_rn(FTZ32(a), FTZ32(b))))
DEF_TRI(h_fma_f32_rn_ftz, U32,
        FTZ32(ptx_f32_fma_rn(FTZ32(a), FTZ32(b), FTZ32(c))))
DEF_BIN(h_add_f32, U32, ptx_f32_add_slow(a, b, rnd, fl))
DEF_BIN(h_sub_f32, U32, ptx_f32_sub_slow(a, b, rnd, fl))
DEF_BIN(h_mul_f32, U32, ptx_f32_mul_slow(a, b, rnd, fl))
DEF_TRI(h_fma_f32, U32, ptx_f32_fma_slow(a, b, c, rnd, fl))
/* .rz/.rm/.rp without flags (expf/exp2f expansions use fma.rm) */
DEF_TRI(h_fma_f32_dir, U32, ptx_f32_fma_directed(a, b, c, rnd))
/* fma.rnd{.sat}.f32.f16 / .f32.bf16: a and b widen exactly to f32 first. */
DEF_TRI(h_fma_f32_f16, U32,
        ptx_f32_fma(ptx_f16_to_f32((uint16_t)a), ptx_f16_to_f32((uint16_t)b), c,
                    rnd, fl))
DEF_TRI(h_fma_f32_bf16, U32,
        ptx_f32_fma(ptx_bf16_to_f32((uint16_t)a), ptx_bf16_to_f32((uint16_t)b),
                    c, rnd, fl))
/* add/sub{.rnd}{.sat}.f32.f16 / .f32.bf16 d, a, c: a widens exactly first */
DEF_BIN(h_add_f32_f16, U32, ptx_f32_add(ptx_f16_to_f32((uint16_t)a), b, rnd, fl))
DEF_BIN(h_add_f32_bf16, U32, ptx_f32_add(ptx_bf16_to_f32((uint16_t)a), b, rnd, fl))
DEF_BIN(h_sub_f32_f16, U32, ptx_f32_sub(ptx_f16_to_f32((uint16_t)a), b, rnd, fl))
DEF_BIN(h_sub_f32_bf16, U32, ptx_f32_sub(ptx_bf16_to_f32((uint16_t)a), b, rnd, fl))

/* ---- f32 div/rcp/sqrt ---- */
/* .rn without .ftz is the host's correctly rounded IEEE operation. */
DEF_BIN(h_div_f32_rn, U32,
        ptx_f32_canon(ptx_f32_from_bits(a) / ptx_f32_from_bits(b)))
DEF_BIN(h_div_f32, U32, ptx_f32_div(a, b, rnd, fl))
DEF_BIN(h_div_f32_approx, U32, ptx_f32_div_approx(a, b, fl))
DEF_BIN(h_div_f32_full, U32, ptx_f32_div_full(a, b, fl))
DEF_UN(h_rcp_f32, U32, ptx_f32_rcp(a, rnd, fl))
DEF_UN(h_rcp_f32_approx, U32, ptx_f32_rcp_approx(a, fl))
DEF_UN(h_sqrt_f32_rn, U32, ptx_f32_canon(sqrtf(ptx_f32_from_bits(a))))
DEF_UN(h_sqrt_f32, U32, ptx_f32_sqrt(a, rnd, fl))
DEF_UN(h_sqrt_f32_approx, U32, ptx_f32_sqrt_approx(a, fl))

/* ---- f32 special functions ---- */
DEF_UN(h_rsqrt_f32, U32, ptx_f32_rsqrt_approx(a, fl))
DEF_UN(h_sin_f32, U32, ptx_f32_sin_approx(a, fl))
DEF_UN(h_cos_f32, U32, ptx_f32_cos_approx(a, fl))
DEF_UN(h_lg2_f32, U32, ptx_f32_lg2_approx(a, fl))
DEF_UN(h_ex2_f32, U32, ptx_f32_ex2_approx(a, fl))
DEF_UN(h_tanh_f32, U32, ptx_f32_tanh_approx(a))

/* ---- f32 min/max/abs/neg/copysign/testp ---- */
DEF_BIN(h_min_f32, U32, ptx_f32_min(a, b, fl))
DEF_BIN(h_max_f32, U32, ptx_f32_max(a, b, fl))
DEF_TRI(h_min3_f32, U32, ptx_f32_min3(a, b, c, fl))
DEF_TRI(h_max3_f32, U32, ptx_f32_max3(a, b, c, fl))
DEF_UN(h_abs_f32, U32, ptx_f32_abs(a, 0))
DEF_UN(h_neg_f32, U32, ptx_f32_neg(a, 0))
DEF_UN(h_abs_f32_ftz, U32, ptx_f32_abs(a, PTX_FP_FTZ))
DEF_UN(h_neg_f32_ftz, U32, ptx_f32_neg(a, PTX_FP_FTZ))
DEF_BIN(h_copysign_f32, U32, ptx_f32_copysign(a, b))
DEF_UN(h_testp_f32, U32, ptx_f32_testp((ptx_testp_op)in->imm, a))

/* ---- f64 ---- */
static inline uint64_t f64_div_rn(uint64_t a, uint64_t b)
{
    double r = ptx_f64_from_bits(a) / ptx_f64_from_bits(b);
    return __builtin_expect(isnan(r), 0) ? ptx_f64_nan2(a, b) : ptx_f64_bits(r);
}
static inline uint64_t f64_sqrt_rn(uint64_t a)
{
    double r = sqrt(ptx_f64_from_bits(a));
    return __builtin_expect(isnan(r), 0) ? ptx_f64_nan2(a, a) : ptx_f64_bits(r);
}

DEF_BIN(h_add_f64_rn, U64, ptx_f64_add_rn(a, b))
DEF_BIN(h_sub_f64_rn, U64, ptx_f64_sub_rn(a, b))
DEF_BIN(h_mul_f64_rn, U64, ptx_f64_mul_rn(a, b))
DEF_TRI(h_fma_f64_rn, U64, ptx_f64_fma_rn(a, b, c))
DEF_BIN(h_add_f64, U64, ptx_f64_add_slow(a, b, rnd))
DEF_BIN(h_sub_f64, U64, ptx_f64_sub_slow(a, b, rnd))
DEF_BIN(h_mul_f64, U64, ptx_f64_mul_slow(a, b, rnd))
DEF_TRI(h_fma_f64, U64, ptx_f64_fma_slow(a, b, c, rnd))
DEF_BIN(h_div_f64_rn, U64, f64_div_rn(a, b))
DEF_BIN(h_div_f64, U64, ptx_f64_div(a, b, rnd))
DEF_UN(h_rcp_f64, U64, ptx_f64_rcp(a, rnd))
DEF_UN(h_rcp_f64_approx_ftz, U64, ptx_f64_rcp_approx_ftz(a))
DEF_UN(h_sqrt_f64_rn, U64, f64_sqrt_rn(a))
DEF_UN(h_sqrt_f64, U64, ptx_f64_sqrt(a, rnd))
DEF_UN(h_rsqrt_f64, U64, ptx_f64_rsqrt_approx(a))
DEF_UN(h_rsqrt_f64_approx_ftz, U64, ptx_f64_rsqrt_approx_ftz(a))
DEF_BIN(h_min_f64, U64, ptx_f64_min(a, b))
DEF_BIN(h_max_f64, U64, ptx_f64_max(a, b))
DEF_UN(h_abs_f64, U64, ptx_f64_abs(a))
DEF_UN(h_neg_f64, U64, ptx_f64_neg(a))
DEF_BIN(h_copysign_f64, U64, ptx_f64_copysign(a, b))
DEF_UN(h_testp_f64, U64, ptx_f64_testp((ptx_testp_op)in->imm, a))

/* ------------------------------------------------------------ decoding */

/* Modifier classes an instruction may carry (types and rounding apart). */
enum {
    M_FTZ = 1u << 0,
    M_SAT = 1u << 1,
    M_APPROX = 1u << 2,
    M_FULL = 1u << 3,
    M_NAN = 1u << 4,
    M_XORSIGN = 1u << 5,
    M_ABS = 1u << 6,
    M_TESTP = 1u << 7,
    M_OTHER = 1u << 8,
};

static unsigned mod_class(uint16_t m)
{
    switch (m) {
    case PTX_MOD_FTZ: return M_FTZ;
    case PTX_MOD_SAT: return M_SAT;
    case PTX_MOD_APPROX: return M_APPROX;
    case PTX_MOD_FULL: return M_FULL;
    case PTX_MOD_NAN: return M_NAN;
    case PTX_MOD_XORSIGN: return M_XORSIGN;
    case PTX_MOD_ABS: return M_ABS;
    case PTX_MOD_FINITE: case PTX_MOD_INFINITE: case PTX_MOD_NUMBER:
    case PTX_MOD_NOTANUMBER: case PTX_MOD_NORMAL: case PTX_MOD_SUBNORMAL:
        return M_TESTP;
    case PTX_MOD_RN: case PTX_MOD_RZ: case PTX_MOD_RM: case PTX_MOD_RP:
    case PTX_MOD_RNA: case PTX_MOD_RS: case PTX_MOD_RNI: case PTX_MOD_RZI:
    case PTX_MOD_RMI: case PTX_MOD_RPI:
        return 0; /* judged through pi->rnd */
    default:
        return PTX_MOD_IS_TYPE(m) ? 0 : M_OTHER;
    }
}

static unsigned scan_mods(const ptx_instr *pi)
{
    unsigned have = 0;
    for (unsigned i = 0; i < pi->nmods; i++)
        have |= mod_class(pi->mods[i]);
    return have;
}

static const char *op_name(const ptx_instr *pi)
{
    return ptx_opcode_info((ptx_opcode)pi->op)->name;
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
                            op_name(pi), ptx_type_name((ptx_type)pi->types[0]));
            return true;
        }
    }
    return false;
}

static bool is_ieee_rnd(ptx_rnd r)
{
    return r == PTX_RND_RN || r == PTX_RND_RZ || r == PTX_RND_RM || r == PTX_RND_RP;
}

/* .target sm_10 .. sm_13 (the target line may list several entries). */
static bool target_sm1x(const ptx_module *m)
{
    const char *s = m->target;
    while (s && (s = strstr(s, "sm_")) != NULL) {
        s += 3;
        if (s[0] == '1' && s[1] >= '0' && s[1] <= '9' && !(s[2] >= '0' && s[2] <= '9'))
            return true;
    }
    return false;
}

static bool isa_before_14(const ptx_module *m)
{
    return m->version_major == 1 && m->version_minor < 4;
}

static bool fail(ex_decoder *d, const char *msg)
{
    g_string_assign(d->why, msg);
    return false;
}

/* Source/destination slots; false (with why) when an operand has none. */
static bool get_slots(ex_decoder *d, ex_instr *in, unsigned nsrc, ptx_type dt,
                      ptx_type st, ptx_type st2)
{
    uint32_t *src[3] = {&in->a, &in->b, &in->c};
    const ptx_operand *o = ex_opnd(d, 0);
    if (!o || d->pi->nopnds < 1 + nsrc)
        return fail(d, "missing operands");
    in->d = ex_slot(d, o, dt);
    if (in->d == EX_NONE || o->kind != PTX_OPND_REG)
        return fail(d, "the destination is not a register");
    for (unsigned i = 0; i < nsrc; i++) {
        o = ex_opnd(d, 1 + i);
        *src[i] = ex_slot(d, o, i < 2 ? st : st2);
        if (*src[i] == EX_NONE)
            return fail(d, "a source is not a register or an immediate");
    }
    return true;
}

static bool is_float_opcode(ptx_opcode op)
{
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD:
    case PTX_OP_FMA: case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2:
    case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
        return true;
    default:
        return false;
    }
}

/* fma.rn through the CPU's FMA unit where it has one (x86-64 without
 * -march: libm's fmaf is a call per lane).  Same single rounding, so the
 * same bits; chosen at decode time by hw_fma(). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EX_FMA_CLONES 1
#define DEF_TRI_FMA(name, T, EXPR)                                            \
    __attribute__((target("fma"))) static void name(ex_warp *w, const ex_instr *in, \
                                                    uint32_t mask)            \
    {                                                                         \
        const uint64_t *ra = w->r[in->a], *rb = w->r[in->b];                  \
        const uint64_t *rc = w->r[in->c];                                     \
        uint64_t *rd = w->r[in->d];                                           \
        EX_LANES(mask, l, {                                                   \
            T a = (T)ra[l], b = (T)rb[l], c = (T)rc[l];                       \
            rd[l] = (uint64_t)(EXPR);                                         \
        });                                                                   \
    }
DEF_TRI_FMA(h_fma_f32_rn_hw, U32,
            ptx_f32_canon(__builtin_fmaf(ptx_f32_from_bits(a), ptx_f32_from_bits(b),
                                         ptx_f32_from_bits(c))))
DEF_TRI_FMA(h_fma_f32_rn_ftz_hw, U32,
            FTZ32(ptx_f32_canon(__builtin_fmaf(ptx_f32_from_bits(FTZ32(a)),
                                               ptx_f32_from_bits(FTZ32(b)),
                                               ptx_f32_from_bits(FTZ32(c))))))
#endif

static bool hw_fma(void)
{
#ifdef EX_FMA_CLONES
    return __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

typedef struct arith_set {
    ex_handler rn, rn_ftz, any;     /* f32 */
    ex_handler rn64, any64;         /* f64 */
} arith_set;

static const arith_set set_add = {h_add_f32_rn, h_add_f32_rn_ftz, h_add_f32,
                                  h_add_f64_rn, h_add_f64};
static const arith_set set_sub = {h_sub_f32_rn, h_sub_f32_rn_ftz, h_sub_f32,
                                  h_sub_f64_rn, h_sub_f64};
static const arith_set set_mul = {h_mul_f32_rn, h_mul_f32_rn_ftz, h_mul_f32,
                                  h_mul_f64_rn, h_mul_f64};
static const arith_set set_fma = {h_fma_f32_rn, h_fma_f32_rn_ftz, h_fma_f32,
                                  h_fma_f64_rn, h_fma_f64};

/* add sub mul mad fma (f32/f64). */
static bool decode_arith(ex_decoder *d, ex_instr *in, bool f64, unsigned have)
{
    const ptx_instr *pi = d->pi;
    ptx_opcode op = (ptx_opcode)pi->op;
    bool tri = op == PTX_OP_MAD || op == PTX_OP_FMA;
    const arith_set *s = op == PTX_OP_ADD ? &set_add : op == PTX_OP_SUB ? &set_sub
                       : op == PTX_OP_MUL ? &set_mul : &set_fma;
    ptx_rnd rnd = (ptx_rnd)pi->rnd;
    if (rnd == PTX_RND_NONE) {
        if (op == PTX_OP_FMA)
            return fail(d, "fma needs a rounding modifier (.rn .rz .rm .rp)");
        rnd = PTX_RND_RN; /* add/sub/mul default; mad per the errata */
    } else if (!is_ieee_rnd(rnd)) {
        return fail(d, "rounding must be .rn, .rz, .rm or .rp");
    }
    if (bad_mods(d, f64 ? 0 : M_FTZ | M_SAT))
        return false;
    ptx_type t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (!get_slots(d, in, tri ? 3 : 2, t, t, t))
        return false;
    in->rnd = (uint8_t)rnd;
    if (f64) {
        in->fn = rnd == PTX_RND_RN ? s->rn64 : s->any64;
        return true;
    }
    unsigned fl = (have & M_FTZ ? PTX_FP_FTZ : 0) | (have & M_SAT ? PTX_FP_SAT : 0);
    if (target_sm1x(d->ir) && op != PTX_OP_FMA)
        fl |= PTX_FP_FTZ; /* sm_1x single precision has no subnormals */
    in->op2 = (uint8_t)fl;
    in->flags |= (fl & PTX_FP_FTZ ? EXF_FTZ : 0) | (fl & PTX_FP_SAT ? EXF_SAT : 0);
    if (rnd == PTX_RND_RN && fl == 0)
        in->fn = s->rn;
    else if (rnd == PTX_RND_RN && fl == PTX_FP_FTZ)
        in->fn = s->rn_ftz;
    else
        in->fn = s->any;
    if (s == &set_fma && fl == 0 &&
        (rnd == PTX_RND_RZ || rnd == PTX_RND_RM || rnd == PTX_RND_RP))
        in->fn = h_fma_f32_dir;
#ifdef EX_FMA_CLONES
    if (s == &set_fma && (in->fn == s->rn || in->fn == s->rn_ftz) && hw_fma())
        in->fn = in->fn == s->rn ? h_fma_f32_rn_hw : h_fma_f32_rn_ftz_hw;
#endif
    return true;
}

/* Mixed precision (PTX ISA "Mixed Precision Floating-Point Instructions"):
 * fma.rnd{.sat}.f32.abtype d, a, b, c and add/sub{.rnd}{.sat}.f32.atype
 * d, a, c with a (and b) .f16 or .bf16, widened exactly to f32; .rnd
 * defaults to .rn for add/sub; no .ftz. */
static bool decode_mixed(ex_decoder *d, ex_instr *in, unsigned have)
{
    const ptx_instr *pi = d->pi;
    bool fma = pi->op == PTX_OP_FMA;
    unsigned nhalf = fma ? 2 : 1;
    ptx_type ab = (ptx_type)pi->types[1];
    if (ab != PTX_T_F16 && ab != PTX_T_BF16)
        return fail(d, "mixed precision takes .f32.f16 or .f32.bf16");
    ptx_rnd rnd = (ptx_rnd)pi->rnd;
    if (rnd == PTX_RND_NONE && !fma)
        rnd = PTX_RND_RN;
    if (!is_ieee_rnd(rnd))
        return fail(d, fma ? "fma needs a rounding modifier (.rn .rz .rm .rp)"
                           : "rounding must be .rn, .rz, .rm or .rp");
    if (bad_mods(d, M_SAT))
        return false;
    for (unsigned i = 1; i <= nhalf; i++) {
        const ptx_operand *o = ex_opnd(d, i);
        if (o && (o->kind == PTX_OPND_FIMM32 || o->kind == PTX_OPND_FIMM64))
            return fail(d, "a float literal as a 16-bit operand");
    }
    if (fma) {
        if (!get_slots(d, in, 3, PTX_T_F32, ab, PTX_T_F32))
            return false;
    } else {
        if (pi->nopnds != 3 || !get_slots(d, in, 1, PTX_T_F32, ab, ab))
            return fail(d, "takes d, a, c");
        in->b = ex_opnd_slot(d, 2, PTX_T_F32);
        if (in->b == EX_NONE)
            return fail(d, "a source is not a register or an immediate");
    }
    in->rnd = (uint8_t)rnd;
    in->op2 = have & M_SAT ? PTX_FP_SAT : 0;
    in->flags |= have & M_SAT ? EXF_SAT : 0;
    bool h = ab == PTX_T_F16;
    in->fn = fma ? (h ? h_fma_f32_f16 : h_fma_f32_bf16)
           : pi->op == PTX_OP_ADD ? (h ? h_add_f32_f16 : h_add_f32_bf16)
                                  : (h ? h_sub_f32_f16 : h_sub_f32_bf16);
    return true;
}

/* div rcp sqrt: IEEE rounding, .approx, .full (div) and the legacy
 * defaults of PTX ISA 1.0-1.3. */
static bool decode_divlike(ex_decoder *d, ex_instr *in, bool f64, unsigned have)
{
    const ptx_instr *pi = d->pi;
    ptx_opcode op = (ptx_opcode)pi->op;
    ptx_rnd rnd = (ptx_rnd)pi->rnd;
    bool approx = have & M_APPROX, full = have & M_FULL;
    if (rnd == PTX_RND_NONE && !approx && !full) {
        if (!isa_before_14(d->ir))
            return fail(d, op == PTX_OP_DIV ? "div needs .approx, .full or a rounding modifier"
                                            : "needs .approx or a rounding modifier");
        if (f64)
            rnd = PTX_RND_RN;
        else {
            approx = true;
            have |= M_FTZ;
        }
    }
    if (rnd != PTX_RND_NONE && !is_ieee_rnd(rnd))
        return fail(d, "rounding must be .rn, .rz, .rm or .rp");
    if ((rnd != PTX_RND_NONE) + approx + full != 1)
        return fail(d, "exactly one of .approx, .full or a rounding modifier");
    if (full && op != PTX_OP_DIV)
        return fail(d, "'.full' is only defined for div");
    unsigned allowed = f64 ? M_APPROX | M_FTZ : M_APPROX | M_FULL | M_FTZ;
    if (bad_mods(d, allowed))
        return false;
    ptx_type t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (!get_slots(d, in, op == PTX_OP_DIV ? 2 : 1, t, t, t))
        return false;
    in->rnd = (uint8_t)rnd;
    unsigned fl = have & M_FTZ ? PTX_FP_FTZ : 0;
    in->op2 = (uint8_t)fl;
    in->flags |= (fl ? EXF_FTZ : 0) | (approx ? EXF_APPROX : 0);
    if (f64) {
        if (op == PTX_OP_RCP && approx) {
            if (!fl)
                return fail(d, "rcp.approx.f64 needs .ftz");
            in->fn = h_rcp_f64_approx_ftz;
            return true;
        }
        if (approx || fl)
            return fail(d, "the .f64 form takes only a rounding modifier");
        bool rn = rnd == PTX_RND_RN;
        in->fn = op == PTX_OP_DIV ? (rn ? h_div_f64_rn : h_div_f64)
               : op == PTX_OP_SQRT ? (rn ? h_sqrt_f64_rn : h_sqrt_f64)
                                   : h_rcp_f64;
        return true;
    }
    bool plain_rn = rnd == PTX_RND_RN && fl == 0;
    switch (op) {
    case PTX_OP_DIV:
        in->fn = approx ? h_div_f32_approx : full ? h_div_f32_full
               : plain_rn ? h_div_f32_rn : h_div_f32;
        break;
    case PTX_OP_SQRT:
        in->fn = approx ? h_sqrt_f32_approx : plain_rn ? h_sqrt_f32_rn : h_sqrt_f32;
        break;
    default:
        in->fn = approx ? h_rcp_f32_approx : h_rcp_f32;
        break;
    }
    return true;
}

/* rsqrt sin cos lg2 ex2 tanh: .approx only. */
static bool decode_approx(ex_decoder *d, ex_instr *in, bool f64, unsigned have)
{
    const ptx_instr *pi = d->pi;
    ptx_opcode op = (ptx_opcode)pi->op;
    if (pi->rnd != PTX_RND_NONE)
        return fail(d, "takes .approx, not a rounding modifier");
    if (!(have & M_APPROX)) {
        if (!isa_before_14(d->ir) || op == PTX_OP_TANH)
            return fail(d, "needs .approx");
        if (!f64)
            have |= M_FTZ; /* ISA 1.0-1.3 default: .approx.ftz */
    }
    if (f64 && op != PTX_OP_RSQRT)
        return fail(d, "there is no .f64 form");
    if (bad_mods(d, op == PTX_OP_TANH ? M_APPROX : M_APPROX | M_FTZ))
        return false;
    ptx_type t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (!get_slots(d, in, 1, t, t, t))
        return false;
    unsigned fl = have & M_FTZ ? PTX_FP_FTZ : 0;
    in->op2 = (uint8_t)fl;
    in->flags |= EXF_APPROX | (fl ? EXF_FTZ : 0);
    switch (op) {
    case PTX_OP_RSQRT:
        in->fn = f64 ? (fl ? h_rsqrt_f64_approx_ftz : h_rsqrt_f64) : h_rsqrt_f32;
        break;
    case PTX_OP_SIN: in->fn = h_sin_f32; break;
    case PTX_OP_COS: in->fn = h_cos_f32; break;
    case PTX_OP_LG2: in->fn = h_lg2_f32; break;
    case PTX_OP_EX2: in->fn = h_ex2_f32; break;
    default: in->fn = h_tanh_f32; break;
    }
    return true;
}

static bool decode_minmax(ex_decoder *d, ex_instr *in, bool f64, unsigned have)
{
    const ptx_instr *pi = d->pi;
    bool is_max = pi->op == PTX_OP_MAX;
    bool three = pi->nopnds == 4;
    if (pi->rnd != PTX_RND_NONE)
        return fail(d, "min/max take no rounding modifier");
    unsigned allowed = f64 ? 0 : three ? M_FTZ | M_NAN | M_ABS
                                       : M_FTZ | M_NAN | M_XORSIGN | M_ABS;
    if (bad_mods(d, allowed))
        return false;
    if (f64 && three)
        return fail(d, "three-input min/max is .f32 only");
    if (!three && ((have & M_XORSIGN) != 0) != ((have & M_ABS) != 0))
        return fail(d, "two-input min/max take .xorsign.abs together");
    unsigned fl = (have & M_FTZ ? PTX_FP_FTZ : 0) | (have & M_NAN ? PTX_FP_NAN : 0);
    if (have & M_ABS)
        fl |= three ? PTX_FP_ABS : PTX_FP_XORSIGN_ABS;
    if (!f64 && target_sm1x(d->ir))
        fl |= PTX_FP_FTZ;
    ptx_type t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (!get_slots(d, in, three ? 3 : 2, t, t, t))
        return false;
    in->op2 = (uint8_t)fl;
    in->flags |= (fl & PTX_FP_FTZ ? EXF_FTZ : 0) | (fl & PTX_FP_NAN ? EXF_NAN : 0);
    if (f64)
        in->fn = is_max ? h_max_f64 : h_min_f64;
    else if (three)
        in->fn = is_max ? h_max3_f32 : h_min3_f32;
    else
        in->fn = is_max ? h_max_f32 : h_min_f32;
    return true;
}

static bool decode_sign(ex_decoder *d, ex_instr *in, bool f64, unsigned have)
{
    const ptx_instr *pi = d->pi;
    if (pi->rnd != PTX_RND_NONE)
        return fail(d, "takes no rounding modifier");
    bool cs = pi->op == PTX_OP_COPYSIGN;
    if (bad_mods(d, f64 || cs ? 0 : M_FTZ))
        return false;
    ptx_type t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (!get_slots(d, in, cs ? 2 : 1, t, t, t))
        return false;
    bool ftz = have & M_FTZ;
    in->flags |= ftz ? EXF_FTZ : 0;
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_ABS:
        in->fn = f64 ? h_abs_f64 : ftz ? h_abs_f32_ftz : h_abs_f32;
        break;
    case PTX_OP_NEG:
        in->fn = f64 ? h_neg_f64 : ftz ? h_neg_f32_ftz : h_neg_f32;
        break;
    default:
        in->fn = f64 ? h_copysign_f64 : h_copysign_f32;
        break;
    }
    return true;
}

static bool decode_testp(ex_decoder *d, ex_instr *in, bool f64)
{
    const ptx_instr *pi = d->pi;
    int cls = -1, n = 0;
    for (unsigned i = 0; i < pi->nmods; i++) {
        int c = -1;
        switch (pi->mods[i]) {
        case PTX_MOD_FINITE: c = PTX_TESTP_FINITE; break;
        case PTX_MOD_INFINITE: c = PTX_TESTP_INFINITE; break;
        case PTX_MOD_NUMBER: c = PTX_TESTP_NUMBER; break;
        case PTX_MOD_NOTANUMBER: c = PTX_TESTP_NOTANUMBER; break;
        case PTX_MOD_NORMAL: c = PTX_TESTP_NORMAL; break;
        case PTX_MOD_SUBNORMAL: c = PTX_TESTP_SUBNORMAL; break;
        default: break;
        }
        if (c >= 0) {
            cls = c;
            n++;
        }
    }
    if (n != 1)
        return fail(d, "testp needs exactly one class (.finite .infinite .number "
                       ".notanumber .normal .subnormal)");
    if (bad_mods(d, M_TESTP))
        return false;
    ptx_type t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (!get_slots(d, in, 1, PTX_T_PRED, t, t))
        return false;
    in->imm = cls;
    in->fn = f64 ? h_testp_f64 : h_testp_f32;
    return true;
}

bool ex_decode_float(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_opcode op = (ptx_opcode)pi->op;
    if (!is_float_opcode(op) || pi->ntypes == 0)
        return false;
    ptx_type t = (ptx_type)pi->types[0];
    if (t != PTX_T_F32 && t != PTX_T_F64)
        return false; /* integer forms: int family; 16-bit floats: half family */
    bool f64 = t == PTX_T_F64;
    unsigned have = scan_mods(pi);
    bool mixable = op == PTX_OP_FMA || op == PTX_OP_ADD || op == PTX_OP_SUB;
    if (pi->ntypes > 1 && !(mixable && !f64 && pi->ntypes == 2))
        return fail(d, "unexpected second type");
    if (pi->ntypes == 2)
        return decode_mixed(d, in, have);
    if (have & M_TESTP && op != PTX_OP_TESTP)
        return fail(d, "unexpected testp class");
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD:
        return decode_arith(d, in, f64, have);
    case PTX_OP_FMA:
        return decode_arith(d, in, f64, have);
    case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT:
        return decode_divlike(d, in, f64, have);
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2:
    case PTX_OP_EX2: case PTX_OP_TANH:
        return decode_approx(d, in, f64, have);
    case PTX_OP_MIN: case PTX_OP_MAX:
        return decode_minmax(d, in, f64, have);
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_COPYSIGN:
        return decode_sign(d, in, f64, have);
    case PTX_OP_TESTP:
        return decode_testp(d, in, f64);
    default:
        return false;
    }
}
