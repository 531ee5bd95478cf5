/* isa/exec_compare.c — setp, set, selp and slct (PTX ISA §9.7.6, §9.7.7).
 *
 * A comparison is decoded into one of two shapes:
 *  - the hot form `setp.CmpOp.type p, a, b` for s32/u32/s64/u64/f32/f64
 *    gets a handler specialised for its type and operator that writes the
 *    predicate directly;
 *  - everything else (p|q pairs, .and/.or/.xor with {!}c, set, 16-bit and
 *    half-precision types) computes the per-lane comparison results as a lane
 *    bitmask and a shared tail combines them with c and writes the
 *    destination(s).
 * An operator is decoded as the set of relations (less / equal / greater /
 * unordered) it accepts; the generic integer and float paths switch on that
 * set once and run a loop specialised for it, the half-precision path tests
 * each lane's relation against the set. */
#include "runtime/decode.h"
#include "isa/fp.h"
#include "isa/half.h"

/* Relation classes; an operator is the set of classes it accepts. */
enum { R_LT = 1, R_EQ = 2, R_GT = 4, R_UN = 8 };

/* op2 of a generic comparison: operator mask (bits 0-3), bool op (4-5). */
enum { BOP_NONE, BOP_AND, BOP_OR, BOP_XOR };
#define OP2_MASK(op2) ((unsigned)(op2) & 15u)
#define OP2_BOP(op2) (((unsigned)(op2) >> 4) & 3u)

typedef enum cmp_op {
    C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE,
    C_LO, C_LS, C_HI, C_HS,
    C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN,
    C_COUNT
} cmp_op;

static const uint8_t cmp_classes[C_COUNT] = {
    [C_EQ] = R_EQ, [C_NE] = R_LT | R_GT, [C_LT] = R_LT, [C_LE] = R_LT | R_EQ,
    [C_GT] = R_GT, [C_GE] = R_GT | R_EQ,
    [C_LO] = R_LT, [C_LS] = R_LT | R_EQ, [C_HI] = R_GT, [C_HS] = R_GT | R_EQ,
    [C_EQU] = R_EQ | R_UN, [C_NEU] = R_LT | R_GT | R_UN, [C_LTU] = R_LT | R_UN,
    [C_LEU] = R_LT | R_EQ | R_UN, [C_GTU] = R_GT | R_UN,
    [C_GEU] = R_GT | R_EQ | R_UN, [C_NUM] = R_LT | R_EQ | R_GT, [C_NAN] = R_UN,
};

static const char *const cmp_names[C_COUNT] = {
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

static inline uint64_t width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

/* ------------------------------------------------- hot setp handlers */

/* Integer operators; lo/ls/hi/hs are folded into unsigned lt/le/gt/ge.
 * CAST_s32 reads the low 32 bits as a signed value. */
#define CAST_u32(v) ((uint32_t)(v))
#define CAST_s32(v) ((int32_t)(uint32_t)(v))
#define CAST_u64(v) ((uint64_t)(v))
#define CAST_s64(v) ((int64_t)(v))

#define DEF_SETP_I(TN, OPN, OPC)                                              \
    static void h_setp_##TN##_##OPN(ex_warp *w, const ex_instr *in,          \
                                   uint32_t mask)                            \
    {                                                                         \
        const uint64_t *A = w->r[in->a], *B = w->r[in->b];                    \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, D[l] = CAST_##TN(A[l]) OPC CAST_##TN(B[l]););      \
    }
#define DEF_SETP_I_ALL(TN)                                                    \
    DEF_SETP_I(TN, eq, ==) DEF_SETP_I(TN, ne, !=) DEF_SETP_I(TN, lt, <)       \
    DEF_SETP_I(TN, le, <=) DEF_SETP_I(TN, gt, >) DEF_SETP_I(TN, ge, >=)
DEF_SETP_I_ALL(u32)
DEF_SETP_I_ALL(s32)
DEF_SETP_I_ALL(u64)
DEF_SETP_I_ALL(s64)

#define SETP_I_ROW(TN)                                                        \
    {h_setp_##TN##_eq, h_setp_##TN##_ne, h_setp_##TN##_lt,                    \
     h_setp_##TN##_le, h_setp_##TN##_gt, h_setp_##TN##_ge}
/* rows: u32 s32 u64 s64; columns: eq ne lt le gt ge */
static const ex_handler setp_int_fast[4][6] = {
    SETP_I_ROW(u32), SETP_I_ROW(s32), SETP_I_ROW(u64), SETP_I_ROW(s64),
};

/* Float operators in C: the plain relations are false on NaN, != is true;
 * the unordered forms are negations of the opposite ordered relation. */
#define F_eq(a, b) ((a) == (b))
#define F_ne(a, b) ((a) < (b) || (a) > (b))
#define F_lt(a, b) ((a) < (b))
#define F_le(a, b) ((a) <= (b))
#define F_gt(a, b) ((a) > (b))
#define F_ge(a, b) ((a) >= (b))
#define F_equ(a, b) (!((a) < (b) || (a) > (b)))
#define F_neu(a, b) ((a) != (b))
#define F_ltu(a, b) (!((a) >= (b)))
#define F_leu(a, b) (!((a) > (b)))
#define F_gtu(a, b) (!((a) <= (b)))
#define F_geu(a, b) (!((a) < (b)))
#define F_num(a, b) ((a) == (a) && (b) == (b))
#define F_nan(a, b) ((a) != (a) || (b) != (b))

#define T_f32 float
#define T_f32ftz float
#define T_f64 double
#define LD_f32(v) ptx_f32_from_bits((uint32_t)(v))
#define LD_f32ftz(v) ptx_f32_from_bits(ptx_f32_ftz((uint32_t)(v)))
#define LD_f64(v) ptx_f64_from_bits(v)

#define DEF_SETP_F(TN, OPN)                                                   \
    static void h_setp_##TN##_##OPN(ex_warp *w, const ex_instr *in,          \
                                   uint32_t mask)                            \
    {                                                                         \
        const uint64_t *A = w->r[in->a], *B = w->r[in->b];                    \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, {                                                   \
            T_##TN a = LD_##TN(A[l]), b = LD_##TN(B[l]);                      \
            D[l] = F_##OPN(a, b);                                             \
        });                                                                   \
    }
#define FLOAT_OPS(M, TN)                                                      \
    M(TN, eq) M(TN, ne) M(TN, lt) M(TN, le) M(TN, gt) M(TN, ge) M(TN, equ)    \
    M(TN, neu) M(TN, ltu) M(TN, leu) M(TN, gtu) M(TN, geu) M(TN, num)         \
    M(TN, nan)
FLOAT_OPS(DEF_SETP_F, f32)
FLOAT_OPS(DEF_SETP_F, f32ftz)
FLOAT_OPS(DEF_SETP_F, f64)

#define SETP_F_ENTRY(TN, OPN) [C_##OPN##_IDX] = h_setp_##TN##_##OPN,
#define C_eq_IDX C_EQ
#define C_ne_IDX C_NE
#define C_lt_IDX C_LT
#define C_le_IDX C_LE
#define C_gt_IDX C_GT
#define C_ge_IDX C_GE
#define C_equ_IDX C_EQU
#define C_neu_IDX C_NEU
#define C_ltu_IDX C_LTU
#define C_leu_IDX C_LEU
#define C_gtu_IDX C_GTU
#define C_geu_IDX C_GEU
#define C_num_IDX C_NUM
#define C_nan_IDX C_NAN
/* rows: f32, f32.ftz, f64; indexed by cmp_op (lo..hs stay NULL) */
static const ex_handler setp_float_fast[3][C_COUNT] = {
    {FLOAT_OPS(SETP_F_ENTRY, f32)},
    {FLOAT_OPS(SETP_F_ENTRY, f32ftz)},
    {FLOAT_OPS(SETP_F_ENTRY, f64)},
};

/* ------------------------------------------------ generic comparisons */

static inline unsigned rel_of(int lt, int eq, int gt)
{
    unsigned r = (unsigned)lt | (unsigned)eq << 1 | (unsigned)gt << 2;
    return r ? r : R_UN;
}

/* Combines results with c and writes the destination(s).  t0: the result
 * (x2: the low halves), t1: the high halves when x2. */
static inline void cmp_finish(ex_warp *w, const ex_instr *in, uint32_t mask, uint32_t t0,
                              uint32_t t1, bool x2)
{
    unsigned bop = OP2_BOP(in->op2);
    uint32_t c = 0;
    if (bop != BOP_NONE) {
        const uint64_t *C = w->r[in->c];
        EX_LANES(mask, l, c |= (uint32_t)(C[l] & 1u) << l;);
        if (in->flags & EXF_NOT_C)
            c = ~c;
    }
    /* setp's q is the complement's combination; x2 forms use the high half */
    uint32_t p = t0, q = x2 ? t1 : ~t0;
    switch (bop) {
    case BOP_AND: p &= c; q &= c; break;
    case BOP_OR: p |= c; q |= c; break;
    case BOP_XOR: p ^= c; q ^= c; break;
    default: break;
    }
    if (in->op == PTX_OP_SETP) {
        if (in->d != EX_NONE) {
            uint64_t *D = w->r[in->d];
            EX_LANES(mask, l, D[l] = (p >> l) & 1u;);
        }
        if (in->d2 != EX_NONE) {
            uint64_t *D2 = w->r[in->d2];
            EX_LANES(mask, l, D2[l] = (q >> l) & 1u;);
        }
        return;
    }
    if (in->d == EX_NONE)
        return;
    uint64_t tv = (uint64_t)in->imm, *D = w->r[in->d];
    if (x2)
        EX_LANES(mask, l, D[l] = (((p >> l) & 1u) ? tv : 0) | (((q >> l) & 1u) ? tv << 16 : 0););
    else
        EX_LANES(mask, l, D[l] = ((p >> l) & 1u) ? tv : 0;);
}

/* One lane loop per operator (the switch is outside the loop): LOAD sets
 * a and b for lane l, and the operator's result goes to bit l. */
#define BITS_LOOP(LOAD, EXPR)                                                 \
    do {                                                                      \
        EX_LANES(mask, l, {                                                   \
            LOAD;                                                             \
            t |= (uint32_t)(EXPR) << l;                                       \
        });                                                                   \
    } while (0)

#define BITS_SWITCH(LOAD)                                                     \
    switch (ops) {                                                            \
    case R_EQ: BITS_LOOP(LOAD, F_eq(a, b)); break;                            \
    case R_LT | R_GT: BITS_LOOP(LOAD, F_ne(a, b)); break;                     \
    case R_LT: BITS_LOOP(LOAD, F_lt(a, b)); break;                            \
    case R_LT | R_EQ: BITS_LOOP(LOAD, F_le(a, b)); break;                     \
    case R_GT: BITS_LOOP(LOAD, F_gt(a, b)); break;                            \
    case R_GT | R_EQ: BITS_LOOP(LOAD, F_ge(a, b)); break;                     \
    case R_EQ | R_UN: BITS_LOOP(LOAD, F_equ(a, b)); break;                    \
    case R_LT | R_GT | R_UN: BITS_LOOP(LOAD, F_neu(a, b)); break;             \
    case R_LT | R_UN: BITS_LOOP(LOAD, F_ltu(a, b)); break;                    \
    case R_LT | R_EQ | R_UN: BITS_LOOP(LOAD, F_leu(a, b)); break;             \
    case R_GT | R_UN: BITS_LOOP(LOAD, F_gtu(a, b)); break;                    \
    case R_GT | R_EQ | R_UN: BITS_LOOP(LOAD, F_geu(a, b)); break;             \
    case R_LT | R_EQ | R_GT: BITS_LOOP(LOAD, F_num(a, b)); break;             \
    default: BITS_LOOP(LOAD, F_nan(a, b)); break;                             \
    }

/* Integers: the low `size` bytes, with the sign bit flipped for signed
 * comparisons so that one unsigned comparison orders both (integers are
 * never unordered, so the float spellings of the operators apply). */
static void h_cmp_int(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t m = width_mask(in->size);
    uint64_t x = (in->flags & EXF_SIGNED) ? (m >> 1) + 1 : 0;
    unsigned ops = OP2_MASK(in->op2);
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint32_t t = 0;
    BITS_SWITCH(uint64_t a = (A[l] & m) ^ x; uint64_t b = (B[l] & m) ^ x)
    cmp_finish(w, in, mask, t, 0, false);
}

static void h_cmp_f32(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned ops = OP2_MASK(in->op2);
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint32_t t = 0;
    if (in->flags & EXF_FTZ) {
        BITS_SWITCH(float a = LD_f32ftz(A[l]); float b = LD_f32ftz(B[l]))
    } else {
        BITS_SWITCH(float a = LD_f32(A[l]); float b = LD_f32(B[l]))
    }
    cmp_finish(w, in, mask, t, 0, false);
}

static void h_cmp_f64(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned ops = OP2_MASK(in->op2);
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint32_t t = 0;
    BITS_SWITCH(double a = LD_f64(A[l]); double b = LD_f64(B[l]))
    cmp_finish(w, in, mask, t, 0, false);
}

/* 16-bit floats compared as sign-magnitude integers (+0 == -0); `inf` is
 * the infinity pattern (larger magnitudes are NaN), `sub` the smallest
 * normal magnitude (.ftz flushes anything below it). */
static inline uint32_t half_bits(const ex_warp *w, const ex_instr *in, uint32_t mask,
                                 unsigned shift, uint32_t inf, uint32_t sub)
{
    unsigned ops = OP2_MASK(in->op2);
    const uint64_t *A = w->r[in->a], *B = w->r[in->b];
    uint32_t t = 0;
    EX_LANES(mask, l, {
        uint32_t ha = (uint32_t)(A[l] >> shift) & 0xffffu;
        uint32_t hb = (uint32_t)(B[l] >> shift) & 0xffffu;
        uint32_t ma = ha & 0x7fffu, mb = hb & 0x7fffu;
        unsigned r;
        if (ma > inf || mb > inf) {
            r = R_UN;
        } else {
            ma = ma < sub ? 0 : ma;
            mb = mb < sub ? 0 : mb;
            int32_t a = (ha & 0x8000u) ? -(int32_t)ma : (int32_t)ma;
            int32_t b = (hb & 0x8000u) ? -(int32_t)mb : (int32_t)mb;
            r = rel_of(a < b, a == b, a > b);
        }
        t |= (uint32_t)((r & ops) != 0) << l;
    });
    return t;
}

#define F16_INF 0x7c00u
#define BF16_INF 0x7f80u
#define F16_SUB(in) (((in)->flags & EXF_FTZ) ? 0x0400u : 0u)

static void h_cmp_f16(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    cmp_finish(w, in, mask, half_bits(w, in, mask, 0, F16_INF, F16_SUB(in)), 0, false);
}
static void h_cmp_bf16(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    cmp_finish(w, in, mask, half_bits(w, in, mask, 0, BF16_INF, 0), 0, false);
}
static void h_cmp_f16x2(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint32_t lo = half_bits(w, in, mask, 0, F16_INF, F16_SUB(in));
    uint32_t hi = half_bits(w, in, mask, 16, F16_INF, F16_SUB(in));
    cmp_finish(w, in, mask, lo, hi, true);
}
static void h_cmp_bf16x2(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint32_t lo = half_bits(w, in, mask, 0, BF16_INF, 0);
    uint32_t hi = half_bits(w, in, mask, 16, BF16_INF, 0);
    cmp_finish(w, in, mask, lo, hi, true);
}

/* --------------------------------------------------------- selp, slct */

static void h_selp(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t m = (uint64_t)in->imm;
    const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
    uint64_t *D = w->r[in->d];
    EX_LANES(mask, l, D[l] = ((C[l] & 1u) ? A[l] : B[l]) & m;);
}

static void h_slct_s32(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t m = (uint64_t)in->imm;
    const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
    uint64_t *D = w->r[in->d];
    EX_LANES(mask, l, D[l] = ((int32_t)(uint32_t)C[l] >= 0 ? A[l] : B[l]) & m;);
}

/* c >= 0 as a float: -0 selects a, NaN selects b. */
static void h_slct_f32(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t m = (uint64_t)in->imm;
    bool ftz = in->flags & EXF_FTZ;
    const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
    uint64_t *D = w->r[in->d];
    EX_LANES(mask, l, {
        uint32_t cb = (uint32_t)C[l];
        float c = ptx_f32_from_bits(ftz ? ptx_f32_ftz(cb) : cb);
        D[l] = (c >= 0.0f ? A[l] : B[l]) & m;
    });
}

/* -------------------------------------------------------------- decoding */

/* A source operand as a slot of type t.  Float literals given for a 16-bit
 * float type are rounded to it here (the loader keeps only raw bits). */
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

static int find_cmp(const ptx_instr *pi)
{
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch ((ptx_mod)pi->mods[i]) {
        case PTX_MOD_EQ: return C_EQ;
        case PTX_MOD_NE: return C_NE;
        case PTX_MOD_LT: return C_LT;
        case PTX_MOD_LE: return C_LE;
        case PTX_MOD_GT: return C_GT;
        case PTX_MOD_GE: return C_GE;
        case PTX_MOD_LO: return C_LO;
        case PTX_MOD_LS: return C_LS;
        case PTX_MOD_HI: return C_HI;
        case PTX_MOD_HS: return C_HS;
        case PTX_MOD_EQU: return C_EQU;
        case PTX_MOD_NEU: return C_NEU;
        case PTX_MOD_LTU: return C_LTU;
        case PTX_MOD_LEU: return C_LEU;
        case PTX_MOD_GTU: return C_GTU;
        case PTX_MOD_GEU: return C_GEU;
        case PTX_MOD_NUM: return C_NUM;
        case PTX_MOD_NANCMP: return C_NAN;
        default: break;
        }
    }
    return -1;
}

static unsigned find_bop(const ptx_instr *pi)
{
    for (unsigned i = 0; i < pi->nmods; i++) {
        switch ((ptx_mod)pi->mods[i]) {
        case PTX_MOD_AND: return BOP_AND;
        case PTX_MOD_OR: return BOP_OR;
        case PTX_MOD_XOR: return BOP_XOR;
        default: break;
        }
    }
    return BOP_NONE;
}

static bool is_int_type(ptx_type t)
{
    ptx_type_kind k = ptx_type_kind_of(t);
    return (k == PTX_TK_B || k == PTX_TK_U || k == PTX_TK_S) && ptx_type_size(t) <= 8 &&
           t != PTX_T_S16X2 && t != PTX_T_U16X2 && t != PTX_T_S4 && t != PTX_T_U4 &&
           t != PTX_T_B1;
}

/* setp / set: everything but the destination-specific parts. */
static bool decode_compare(ex_decoder *d, ex_instr *in, ptx_type st, unsigned first_src)
{
    const ptx_instr *pi = d->pi;
    int op = find_cmp(pi);
    unsigned bop = find_bop(pi);
    bool ftz = ptx_instr_has_mod(pi, PTX_MOD_FTZ);
    if (op < 0) {
        g_string_assign(d->why, "no comparison operator");
        return false;
    }
    bool is_int = is_int_type(st);
    bool is_float = st == PTX_T_F32 || st == PTX_T_F64 || st == PTX_T_F16 ||
                    st == PTX_T_BF16 || st == PTX_T_F16X2 || st == PTX_T_BF16X2;
    if (!is_int && !is_float) {
        g_string_printf(d->why, "comparison of .%s values", ptx_type_name(st));
        return false;
    }
    if (is_int && op >= C_EQU) {
        g_string_printf(d->why, "unordered comparison .%s on integer type .%s",
                        cmp_names[op], ptx_type_name(st));
        return false;
    }
    if (is_float && op >= C_LO && op <= C_HS) {
        g_string_printf(d->why, "unsigned comparison .%s on float type .%s",
                        cmp_names[op], ptx_type_name(st));
        return false;
    }
    /* lo/ls/hi/hs compare unsigned whatever the type */
    bool sgn = ptx_type_is_signed(st) && !(op >= C_LO && op <= C_HS);
    in->a = src_slot(d, ex_opnd(d, first_src), st);
    in->b = src_slot(d, ex_opnd(d, first_src + 1), st);
    if (in->a == EX_NONE || in->b == EX_NONE) {
        g_string_assign(d->why, "comparison operand is not a register or constant");
        return false;
    }
    const ptx_operand *c = ex_opnd(d, first_src + 2);
    if ((bop != BOP_NONE) != (c != NULL)) {
        g_string_assign(d->why, bop ? "boolean operation without its predicate operand"
                                    : "predicate operand without .and/.or/.xor");
        return false;
    }
    if (c) {
        in->c = ex_slot(d, c, PTX_T_PRED);
        if (in->c == EX_NONE) {
            g_string_assign(d->why, "boolean operand is not a predicate");
            return false;
        }
        if (c->flags & PTX_OPNDF_NOT)
            in->flags |= EXF_NOT_C;
    }
    if (sgn)
        in->flags |= EXF_SIGNED;
    /* .ftz only matters for f32 and f16 (f64 and bf16 never flush) */
    if (ftz && (st == PTX_T_F32 || st == PTX_T_F16 || st == PTX_T_F16X2))
        in->flags |= EXF_FTZ;
    in->size = (uint8_t)ptx_type_size(st);
    in->op2 = (uint8_t)(cmp_classes[op] | bop << 4);
    switch (st) {
    case PTX_T_F32: in->fn = h_cmp_f32; break;
    case PTX_T_F64: in->fn = h_cmp_f64; break;
    case PTX_T_F16: in->fn = h_cmp_f16; break;
    case PTX_T_BF16: in->fn = h_cmp_bf16; break;
    case PTX_T_F16X2: in->fn = h_cmp_f16x2; break;
    case PTX_T_BF16X2: in->fn = h_cmp_bf16x2; break;
    default: in->fn = h_cmp_int; break;
    }
    return true;
}

/* The hot form: no pair, no boolean operation, a 32/64-bit type. */
static ex_handler setp_fast(const ex_instr *in, ptx_type st, int op)
{
    if (OP2_BOP(in->op2) != BOP_NONE || in->d2 != EX_NONE || in->d == EX_NONE)
        return NULL;
    if (st == PTX_T_F32)
        return setp_float_fast[(in->flags & EXF_FTZ) ? 1 : 0][op];
    if (st == PTX_T_F64)
        return setp_float_fast[2][op];
    if (!is_int_type(st) || (in->size != 4 && in->size != 8))
        return NULL;
    int col = op >= C_LO && op <= C_HS ? op - C_LO + C_LT : op;
    int row = (in->size == 8 ? 2 : 0) + ((in->flags & EXF_SIGNED) ? 1 : 0);
    return setp_int_fast[row][col];
}

static bool decode_setp(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_type st = (ptx_type)pi->types[0];
    const ptx_operand *dst = ex_opnd(d, 0);
    if (!dst || pi->nopnds < 3) {
        g_string_assign(d->why, "setp needs a destination and two sources");
        return false;
    }
    if (dst->kind == PTX_OPND_PAIR) {
        in->d = ex_reg_slot(d, dst->id);
        in->d2 = ex_reg_slot(d, dst->id2);
    } else if (dst->kind == PTX_OPND_REG) {
        in->d = ex_slot(d, dst, PTX_T_PRED);
    } else if (dst->kind != PTX_OPND_SINK) {
        g_string_assign(d->why, "setp destination is not a predicate");
        return false;
    }
    if (!decode_compare(d, in, st, 1))
        return false;
    ex_handler fast = setp_fast(in, st, find_cmp(pi));
    if (fast)
        in->fn = fast;
    return true;
}

/* The value set writes for true in its destination type (false is 0);
 * x2 sources give per-half values. */
static bool set_true_value(ptx_type dt, ptx_type st, uint64_t *tv)
{
    bool x2 = st == PTX_T_F16X2 || st == PTX_T_BF16X2;
    switch (dt) {
    case PTX_T_U32: case PTX_T_S32: case PTX_T_B32:
        *tv = x2 ? 0xffffu : 0xffffffffu;
        return true;
    case PTX_T_U16: case PTX_T_S16: case PTX_T_B16:
        *tv = 0xffffu;
        return !x2;
    case PTX_T_F32:
        *tv = 0x3f800000u;
        return !x2;
    case PTX_T_F16:
        *tv = PTX_F16_ONE;
        return !x2;
    case PTX_T_BF16:
        *tv = PTX_BF16_ONE;
        return !x2;
    case PTX_T_F16X2:
        *tv = PTX_F16_ONE;
        return st == PTX_T_F16X2;
    case PTX_T_BF16X2:
        *tv = PTX_BF16_ONE;
        return st == PTX_T_BF16X2;
    default:
        return false;
    }
}

static bool decode_set(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    if (pi->ntypes < 2 || pi->nopnds < 3) {
        g_string_assign(d->why, "set needs a destination type, a source type and two sources");
        return false;
    }
    ptx_type dt = (ptx_type)pi->types[0], st = (ptx_type)pi->types[1];
    uint64_t tv;
    if (!set_true_value(dt, st, &tv)) {
        g_string_printf(d->why, "set.%s.%s", ptx_type_name(dt), ptx_type_name(st));
        return false;
    }
    in->imm = (int64_t)tv;
    const ptx_operand *dst = ex_opnd(d, 0);
    in->d = dst && dst->kind != PTX_OPND_SINK ? ex_slot(d, dst, dt) : EX_NONE;
    if (dst && dst->kind != PTX_OPND_SINK && in->d == EX_NONE) {
        g_string_assign(d->why, "set destination is not a register");
        return false;
    }
    return decode_compare(d, in, st, 1);
}

static bool decode_selp_slct(ex_decoder *d, ex_instr *in, bool slct)
{
    const ptx_instr *pi = d->pi;
    ptx_type t = (ptx_type)pi->types[0];
    ptx_type ct = slct && pi->ntypes > 1 ? (ptx_type)pi->types[1] : PTX_T_PRED;
    unsigned sz = ptx_type_size(t);
    if (pi->nopnds != 4 || (sz != 1 && sz != 2 && sz != 4 && sz != 8)) {
        g_string_printf(d->why, "%s.%s", slct ? "slct" : "selp", ptx_type_name(t));
        return false;
    }
    if (slct && ct != PTX_T_S32 && ct != PTX_T_F32) {
        g_string_printf(d->why, "slct with a .%s selector", ptx_type_name(ct));
        return false;
    }
    const ptx_operand *c = ex_opnd(d, 3);
    in->d = ex_opnd_slot(d, 0, t);
    in->a = src_slot(d, ex_opnd(d, 1), t);
    in->b = src_slot(d, ex_opnd(d, 2), t);
    in->c = ex_slot(d, c, ct);
    if (in->d == EX_NONE || in->a == EX_NONE || in->b == EX_NONE || in->c == EX_NONE) {
        g_string_assign(d->why, "operand is not a register or constant");
        return false;
    }
    if (!slct && (c->flags & PTX_OPNDF_NOT)) { /* selp a, b, !p == selp b, a, p */
        uint32_t s = in->a;
        in->a = in->b;
        in->b = s;
    }
    in->imm = (int64_t)width_mask(sz);
    if (!slct)
        in->fn = h_selp;
    else if (ct == PTX_T_S32)
        in->fn = h_slct_s32;
    else {
        if (ptx_instr_has_mod(pi, PTX_MOD_FTZ))
            in->flags |= EXF_FTZ;
        in->fn = h_slct_f32;
    }
    return true;
}

bool ex_decode_compare(ex_decoder *d, ex_instr *in)
{
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_SETP: return decode_setp(d, in);
    case PTX_OP_SET: return decode_set(d, in);
    case PTX_OP_SELP: return decode_selp_slct(d, in, false);
    case PTX_OP_SLCT: return decode_selp_slct(d, in, true);
    default: return false;
    }
}
