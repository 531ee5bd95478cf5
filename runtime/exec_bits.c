/* isa/exec_bits.c — bit-field, dot-product, prmt, shift and logic handlers and their decoding. */
#include "runtime/exec_int_internal.h"

/* ------------------------------------------------------------- bit fields */

W2(DEF1, h_popc, false, ptx_int_popc(a, bits))
W2(DEF1, h_clz, false, ptx_int_clz(a, bits))
W2(DEF1, h_brev, false, ptx_int_brev(a, bits))
W2S(DEF1, h_bfind, ptx_int_bfind(a, bits, sgn, false))
W2S(DEF1, h_bfind_sa, ptx_int_bfind(a, bits, sgn, true))
W2S(DEF3, h_bfe, ptx_int_bfe(a, (uint32_t)b, (uint32_t)c, bits, sgn))
W2(DEF4, h_bfi, false, ptx_int_bfi(a, b, (uint32_t)c, (uint32_t)e, bits))
DEF3(h_fns, 32, false, ptx_int_fns((uint32_t)a, (uint32_t)b, (int32_t)(uint32_t)c))
DEF2(h_bmsk_clamp, 32, false, ptx_int_bmsk((uint32_t)a, (uint32_t)b, true))
DEF2(h_bmsk_wrap, 32, false, ptx_int_bmsk((uint32_t)a, (uint32_t)b, false))
DEF2(h_szext_clamp_u, 32, false, ptx_int_szext((uint32_t)a, (uint32_t)b, true, false))
DEF2(h_szext_clamp_s, 32, true, ptx_int_szext((uint32_t)a, (uint32_t)b, true, true))
DEF2(h_szext_wrap_u, 32, false, ptx_int_szext((uint32_t)a, (uint32_t)b, false, false))
DEF2(h_szext_wrap_s, 32, true, ptx_int_szext((uint32_t)a, (uint32_t)b, false, true))

/* dp4a / dp2a: [a signed][b signed] (and [hi] for dp2a) */
#define DEFDP4(name, AS, BS)                                                  \
    DEF3(name, 32, false, ptx_int_dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, AS, BS))
#define DEFDP2(name, AS, BS, HI)                                              \
    DEF3(name, 32, false,                                                     \
         ptx_int_dp2a((uint32_t)a, (uint32_t)b, (uint32_t)c, AS, BS, HI))
DEFDP4(h_dp4a_uu, false, false)
DEFDP4(h_dp4a_us, false, true)
DEFDP4(h_dp4a_su, true, false)
DEFDP4(h_dp4a_ss, true, true)
DEFDP2(h_dp2a_lo_uu, false, false, false)
DEFDP2(h_dp2a_lo_us, false, true, false)
DEFDP2(h_dp2a_lo_su, true, false, false)
DEFDP2(h_dp2a_lo_ss, true, true, false)
DEFDP2(h_dp2a_hi_uu, false, false, true)
DEFDP2(h_dp2a_hi_us, false, true, true)
DEFDP2(h_dp2a_hi_su, true, false, true)
DEFDP2(h_dp2a_hi_ss, true, true, true)

#define DEFPRMT(name, MODE)                                                   \
    DEF3(name, 32, false, ptx_int_prmt((uint32_t)a, (uint32_t)b, (uint32_t)c, MODE))
DEFPRMT(h_prmt, PTX_PRMT_DEFAULT)
DEFPRMT(h_prmt_f4e, PTX_PRMT_F4E)
DEFPRMT(h_prmt_b4e, PTX_PRMT_B4E)
DEFPRMT(h_prmt_rc8, PTX_PRMT_RC8)
DEFPRMT(h_prmt_ecl, PTX_PRMT_ECL)
DEFPRMT(h_prmt_ecr, PTX_PRMT_ECR)
DEFPRMT(h_prmt_rc16, PTX_PRMT_RC16)

/* ------------------------------------------------------- shifts and logic */

DEF3(h_shf_l_clamp, 32, false, ptx_int_shf_l((uint32_t)a, (uint32_t)b, (uint32_t)c, true))
DEF3(h_shf_l_wrap, 32, false, ptx_int_shf_l((uint32_t)a, (uint32_t)b, (uint32_t)c, false))
DEF3(h_shf_r_clamp, 32, false, ptx_int_shf_r((uint32_t)a, (uint32_t)b, (uint32_t)c, true))
DEF3(h_shf_r_wrap, 32, false, ptx_int_shf_r((uint32_t)a, (uint32_t)b, (uint32_t)c, false))
W3(DEF2, h_shl, false, ptx_int_shl(a, (uint32_t)b, bits))
W3S(DEF2, h_shr, ptx_int_shr(a, (uint32_t)b, bits, sgn))

W3(DEF2, h_and, false, ptx_int_and(a, b, bits))
W3(DEF2, h_or, false, ptx_int_or(a, b, bits))
W3(DEF2, h_xor, false, ptx_int_xor(a, b, bits))
W3(DEF1, h_not, false, ptx_int_not(a, bits))
W3(DEF1, h_cnot, false, ptx_int_cnot(a, bits))

/* .pred logic; in->imm bit 0 / bit 1: the first / second source is !p */
DEF2(h_pand, 1, false, ((a ^ (uint64_t)in->imm) & (b ^ (uint64_t)in->imm >> 1)) & 1u)
DEF2(h_por, 1, false, ((a ^ (uint64_t)in->imm) | (b ^ (uint64_t)in->imm >> 1)) & 1u)
DEF2(h_pxor, 1, false, ((a ^ (uint64_t)in->imm) ^ (b ^ (uint64_t)in->imm >> 1)) & 1u)
DEF1(h_pnot, 1, false, ((a ^ (uint64_t)in->imm) & 1u) ^ 1u)

/* lop3: the LUT is in->imm */
DEF3(h_lop3, 32, false, ptx_int_lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, (uint32_t)in->imm))

/* lop3.{and,or}.b32 d|p, a, b, c, lut, q: p = (d != 0) op q.  d may be a
 * sink (EX_NONE).  op2: 0 and, 1 or; EXF_NOT_C: q is !q. */
static void h_lop3_pred(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
    const uint64_t *Q = w->r[in->e];
    uint64_t *P = w->r[in->d2];
    uint32_t lut = (uint32_t)in->imm;
    uint64_t nq = (in->flags & EXF_NOT_C) ? 1u : 0u;
    bool is_or = in->op2 == 1;
    EX_LANES(mask, l, {
        uint32_t r = ptx_int_lop3((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], lut);
        uint64_t q = (Q[l] ^ nq) & 1u;
        uint64_t nz = r != 0;
        uint64_t p = is_or ? (nz | q) : (nz & q);
        if (in->d != EX_NONE)
            w->r[in->d][l] = r;
        P[l] = p;
    });
}
/* --------------------------------------------------------------- decoding */

static const htab_w t_popc = T2(h_popc), t_clz = T2(h_clz), t_brev = T2(h_brev),
                    t_bfi = T2(h_bfi), t_shl = T3(h_shl), t_and = T3(h_and), t_or = T3(h_or),
                    t_xor = T3(h_xor), t_not = T3(h_not), t_cnot = T3(h_cnot);
static const htab_sw t_bfind = T2S(h_bfind), t_bfind_sa = T2S(h_bfind_sa), t_bfe = T2S(h_bfe),
                     t_shr = T3S(h_shr);

/* and/or/xor/not on predicates; `!p` sources allowed. */
static bool decode_pred_logic(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    unsigned nsrc = pi->op == PTX_OP_NOT ? 1 : 2;
    if (!ONLY(d, 0) || !operands(d, in, nsrc, PTX_T_PRED, PTX_T_PRED))
        return false;
    for (unsigned i = 0; i < nsrc; i++)
        if (ex_opnd(d, i + 1)->flags & PTX_OPNDF_NOT)
            in->imm |= (int64_t)1 << i;
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_AND: in->fn = h_pand; break;
    case PTX_OP_OR: in->fn = h_por; break;
    case PTX_OP_XOR: in->fn = h_pxor; break;
    case PTX_OP_NOT: in->fn = h_pnot; break;
    default:
        g_string_assign(d->why, "this instruction on .pred");
        return false;
    }
    return true;
}

static bool decode_lop3(ex_decoder *d, ex_instr *in, ptx_type t)
{
    bool and_ = has(d, PTX_MOD_AND), or_ = has(d, PTX_MOD_OR);
    if (!ONLY(d, PTX_MOD_AND, PTX_MOD_OR))
        return false;
    if (t != PTX_T_B32)
        return set_fn(d, in, NULL, t);
    const ptx_operand *lut = ex_opnd(d, 4);
    if (!lut || lut->kind != PTX_OPND_IMM || lut->val < 0 || lut->val > 255) {
        g_string_assign(d->why, "immLut must be an integer constant 0..255");
        return false;
    }
    in->imm = lut->val;
    if (!and_ && !or_) {
        if (!nopnds(d, 5) || !dst(d, 0, t, &in->d) || !src(d, 1, t, &in->a) ||
            !src(d, 2, t, &in->b) || !src(d, 3, t, &in->c))
            return false;
        in->fn = h_lop3;
        return true;
    }
    if (and_ && or_) {
        g_string_assign(d->why, "both .and and .or");
        return false;
    }
    const ptx_operand *pair = ex_opnd(d, 0);
    if (!nopnds(d, 6) || pair->kind != PTX_OPND_PAIR) {
        g_string_assign(d->why, "lop3 with a boolean operation needs d|p and q");
        return false;
    }
    if (pair->id < 0 || pair->id2 < 0) {
        g_string_assign(d->why, "a sink `_` in lop3's d|p");
        return false;
    }
    in->d = ex_reg_slot(d, pair->id);
    in->d2 = ex_reg_slot(d, pair->id2);
    if (!src(d, 1, t, &in->a) || !src(d, 2, t, &in->b) || !src(d, 3, t, &in->c) ||
        !src(d, 5, PTX_T_PRED, &in->e) || in->d2 == EX_NONE)
        return false;
    if (ex_opnd(d, 5)->flags & PTX_OPNDF_NOT)
        in->flags |= EXF_NOT_C;
    in->op2 = or_ ? 1 : 0;
    in->fn = h_lop3_pred;
    return true;
}

static bool decode_prmt(ex_decoder *d, ex_instr *in, ptx_type t)
{
    static const struct {
        uint16_t mod;
        ex_handler fn;
    } modes[] = {
        {PTX_MOD_F4E, h_prmt_f4e}, {PTX_MOD_B4E, h_prmt_b4e}, {PTX_MOD_RC8, h_prmt_rc8},
        {PTX_MOD_ECL, h_prmt_ecl}, {PTX_MOD_ECR, h_prmt_ecr}, {PTX_MOD_RC16, h_prmt_rc16},
    };
    if (!ONLY(d, PTX_MOD_F4E, PTX_MOD_B4E, PTX_MOD_RC8, PTX_MOD_ECL, PTX_MOD_ECR,
              PTX_MOD_RC16))
        return false;
    if (t != PTX_T_B32)
        return set_fn(d, in, NULL, t);
    if (!operands(d, in, 3, t, t))
        return false;
    in->fn = h_prmt;
    unsigned n = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(modes); i++)
        if (has(d, modes[i].mod)) {
            in->fn = modes[i].fn;
            n++;
        }
    if (n > 1) {
        g_string_assign(d->why, "more than one prmt mode");
        return false;
    }
    return true;
}

/* Decodes the operands of an instruction whose sources mix types:
 * d has type td, and source i has types ts[i]. */
static bool operands_mixed(ex_decoder *d, ex_instr *in, ptx_type td, unsigned nsrc,
                           const ptx_type *ts)
{
    uint32_t *slots[4] = {&in->a, &in->b, &in->c, &in->e};
    if (!nopnds(d, nsrc + 1) || !dst(d, 0, td, &in->d))
        return false;
    for (unsigned i = 0; i < nsrc; i++)
        if (!src(d, i + 1, ts[i], slots[i]))
            return false;
    return true;
}

static bool decode_bits(ex_decoder *d, ex_instr *in, ptx_type t, int wi, bool sgn)
{
    const ptx_instr *pi = d->pi;
    ptx_type_kind k = ptx_type_kind_of(t);
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: {
        bool brev = pi->op == PTX_OP_BREV;
        if (!ONLY(d, 0))
            return false;
        if (k != PTX_TK_B || wi < 1)
            return set_fn(d, in, NULL, t);
        ptx_type ts[1] = {t};
        if (!operands_mixed(d, in, brev ? t : PTX_T_U32, 1, ts))
            return false;
        return set_fn(d, in, pick(brev ? t_brev : pi->op == PTX_OP_POPC ? t_popc : t_clz, wi),
                      t);
    }
    case PTX_OP_BFIND: {
        ptx_type ts[1] = {t};
        if (!ONLY(d, PTX_MOD_SHIFTAMT))
            return false;
        if (k == PTX_TK_B || wi < 1)
            return set_fn(d, in, NULL, t);
        if (!operands_mixed(d, in, PTX_T_U32, 1, ts))
            return false;
        return set_fn(d, in, pick_s(has(d, PTX_MOD_SHIFTAMT) ? t_bfind_sa : t_bfind, sgn, wi),
                      t);
    }
    case PTX_OP_BFE: {
        ptx_type ts[3] = {t, PTX_T_U32, PTX_T_U32};
        if (!ONLY(d, 0))
            return false;
        if (k == PTX_TK_B || wi < 1)
            return set_fn(d, in, NULL, t);
        if (!operands_mixed(d, in, t, 3, ts))
            return false;
        return set_fn(d, in, pick_s(t_bfe, sgn, wi), t);
    }
    case PTX_OP_BFI: {
        ptx_type ts[4] = {t, t, PTX_T_U32, PTX_T_U32};
        if (!ONLY(d, 0))
            return false;
        if (k != PTX_TK_B || wi < 1)
            return set_fn(d, in, NULL, t);
        if (!operands_mixed(d, in, t, 4, ts))
            return false;
        return set_fn(d, in, pick(t_bfi, wi), t);
    }
    case PTX_OP_FNS: {
        ptx_type ts[3] = {PTX_T_B32, PTX_T_U32, PTX_T_S32};
        if (!ONLY(d, 0))
            return false;
        if (t != PTX_T_B32)
            return set_fn(d, in, NULL, t);
        if (!operands_mixed(d, in, PTX_T_B32, 3, ts))
            return false;
        in->fn = h_fns;
        return true;
    }
    case PTX_OP_BMSK: case PTX_OP_SZEXT: {
        bool clamp = has(d, PTX_MOD_CLAMP), wrap = has(d, PTX_MOD_WRAP);
        bool bmsk = pi->op == PTX_OP_BMSK;
        ptx_type ts[2] = {bmsk ? PTX_T_U32 : t, PTX_T_U32};
        if (!ONLY(d, PTX_MOD_CLAMP, PTX_MOD_WRAP))
            return false;
        if (bmsk ? t != PTX_T_B32 : (t != PTX_T_U32 && t != PTX_T_S32))
            return set_fn(d, in, NULL, t);
        if (clamp == wrap) {
            g_string_printf(d->why, "%s needs exactly one of .clamp and .wrap",
                            bmsk ? "bmsk" : "szext");
            return false;
        }
        if (!operands_mixed(d, in, t, 2, ts))
            return false;
        if (bmsk)
            in->fn = clamp ? h_bmsk_clamp : h_bmsk_wrap;
        else
            in->fn = clamp ? (sgn ? h_szext_clamp_s : h_szext_clamp_u)
                           : (sgn ? h_szext_wrap_s : h_szext_wrap_u);
        return true;
    }
    case PTX_OP_DP4A: case PTX_OP_DP2A: {
        ptx_type tb = (ptx_type)pi->types[1];
        bool dp4 = pi->op == PTX_OP_DP4A, hi = has(d, PTX_MOD_HI);
        if (!(dp4 ? ONLY(d, 0) : ONLY(d, PTX_MOD_LO, PTX_MOD_HI)))
            return false;
        if ((t != PTX_T_U32 && t != PTX_T_S32) || (tb != PTX_T_U32 && tb != PTX_T_S32))
            return set_fn(d, in, NULL, t);
        if (!dp4 && hi == has(d, PTX_MOD_LO)) {
            g_string_assign(d->why, "dp2a needs exactly one of .lo and .hi");
            return false;
        }
        bool as = t == PTX_T_S32, bs = tb == PTX_T_S32;
        ptx_type tc = as || bs ? PTX_T_S32 : PTX_T_U32;
        ptx_type ts[3] = {t, tb, tc};
        if (!operands_mixed(d, in, tc, 3, ts))
            return false;
        static const ex_handler h4[2][2] = {{h_dp4a_uu, h_dp4a_us}, {h_dp4a_su, h_dp4a_ss}};
        static const ex_handler h2[2][2][2] = {
            {{h_dp2a_lo_uu, h_dp2a_lo_us}, {h_dp2a_lo_su, h_dp2a_lo_ss}},
            {{h_dp2a_hi_uu, h_dp2a_hi_us}, {h_dp2a_hi_su, h_dp2a_hi_ss}},
        };
        in->fn = dp4 ? h4[as][bs] : h2[hi][as][bs];
        return true;
    }
    default:
        return false;
    }
}

static bool decode_shift(ex_decoder *d, ex_instr *in, ptx_type t, int wi, bool sgn)
{
    const ptx_instr *pi = d->pi;
    ptx_type_kind k = ptx_type_kind_of(t);
    if (pi->op == PTX_OP_SHF) {
        bool l = has(d, PTX_MOD_L), r = has(d, PTX_MOD_R);
        bool clamp = has(d, PTX_MOD_CLAMP), wrap = has(d, PTX_MOD_WRAP);
        ptx_type ts[3] = {t, t, PTX_T_U32};
        if (!ONLY(d, PTX_MOD_L, PTX_MOD_R, PTX_MOD_CLAMP, PTX_MOD_WRAP))
            return false;
        if (t != PTX_T_B32)
            return set_fn(d, in, NULL, t);
        if (l == r || clamp == wrap) {
            g_string_assign(d->why, "shf needs one of .l/.r and one of .clamp/.wrap");
            return false;
        }
        if (!operands_mixed(d, in, t, 3, ts))
            return false;
        in->fn = l ? (clamp ? h_shf_l_clamp : h_shf_l_wrap)
                   : (clamp ? h_shf_r_clamp : h_shf_r_wrap);
        return true;
    }
    ptx_type ts[2] = {t, PTX_T_U32};
    if (!ONLY(d, 0))
        return false;
    if (pi->op == PTX_OP_SHL && k != PTX_TK_B)
        return set_fn(d, in, NULL, t);
    if (!operands_mixed(d, in, t, 2, ts))
        return false;
    if (pi->op == PTX_OP_SHL)
        return set_fn(d, in, pick(t_shl, wi), t);
    return set_fn(d, in, pick_s(t_shr, sgn, wi), t);
}

static bool decode_logic(ex_decoder *d, ex_instr *in, ptx_type t, int wi)
{
    const ptx_instr *pi = d->pi;
    if (t == PTX_T_PRED)
        return decode_pred_logic(d, in);
    if (!ONLY(d, 0))
        return false;
    if (ptx_type_kind_of(t) != PTX_TK_B)
        return set_fn(d, in, NULL, t);
    unsigned nsrc = pi->op == PTX_OP_NOT || pi->op == PTX_OP_CNOT ? 1 : 2;
    if (!operands(d, in, nsrc, t, t))
        return false;
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_AND: return set_fn(d, in, pick(t_and, wi), t);
    case PTX_OP_OR: return set_fn(d, in, pick(t_or, wi), t);
    case PTX_OP_XOR: return set_fn(d, in, pick(t_xor, wi), t);
    case PTX_OP_NOT: return set_fn(d, in, pick(t_not, wi), t);
    default: return set_fn(d, in, pick(t_cnot, wi), t);
    }
}
bool ex_decode_int_bits(ex_decoder *d, ex_instr *in, ptx_type t, int wi, bool sgn)
{
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
        return decode_logic(d, in, t, wi);
    case PTX_OP_LOP3:
        return decode_lop3(d, in, t);
    case PTX_OP_PRMT:
        return decode_prmt(d, in, t);
    case PTX_OP_SHF: case PTX_OP_SHL: case PTX_OP_SHR:
        return decode_shift(d, in, t, wi, sgn);
    default:
        return decode_bits(d, in, t, wi, sgn);
    }
}
