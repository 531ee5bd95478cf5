/* isa/exec_video.c — executor handlers for the video instructions: the
 * scalar vadd..vset and vmad, and the SIMD vop2/vop4 forms (decoded at load
 * time).
 *
 * The semantics live in isa/video.h; the decoder fills its modifier struct
 * once and stores it in the instruction's vr[] words (unused by these
 * instructions), so no per-instruction allocation has to be owned. */
#include "isa/video.h"
#include "runtime/decode.h"

#include <string.h>

_Static_assert(sizeof(ptx_video_mods) <= sizeof(((ex_instr *)0)->vr), "mods fit in vr");
_Static_assert(sizeof(ptx_vmad_mods) <= sizeof(((ex_instr *)0)->vr), "mods fit in vr");
_Static_assert(sizeof(ptx_vsimd_mods) <= sizeof(((ex_instr *)0)->vr), "mods fit in vr");

enum { VID_SCALAR, VID_MAD, VID_SIMD2, VID_SIMD4 };

#define DEF_VIDEO(name, MODS, CALL)                                           \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        MODS m;                                                               \
        memcpy(&m, in->vr, sizeof m);                                         \
        const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];  \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, {                                                   \
            D[l] = CALL(&m, (uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l]);  \
        });                                                                   \
    }

DEF_VIDEO(h_vscalar, ptx_video_mods, ptx_video_scalar)
DEF_VIDEO(h_vmad, ptx_vmad_mods, ptx_vmad)
DEF_VIDEO(h_vsimd2, ptx_vsimd_mods, ptx_video_simd2)
DEF_VIDEO(h_vsimd4, ptx_vsimd_mods, ptx_video_simd4)

/* --------------------------------------------------------------- decoding */

/* Byte/half selector of a register operand: the front end encodes .b0-.b3
 * as comp 5..8 and .h0/.h1 as 9/10; ptx_vsel counts B0 = 1 .. H1 = 6. */
static uint8_t vsel_of(const ptx_operand *o)
{
    return o->kind == PTX_OPND_REG && o->comp >= 5 && o->comp <= 10 ? (uint8_t)(o->comp - 4)
                                                                     : PTX_VSEL_NONE;
}

static bool reg_or_imm(ex_decoder *d, unsigned i, uint32_t *out)
{
    const ptx_operand *o = ex_opnd(d, i);
    if (!o || (o->kind != PTX_OPND_REG && o->kind != PTX_OPND_IMM) ||
        (o->kind == PTX_OPND_REG && o->comp >= 1 && o->comp <= 4) ||
        (o->flags & PTX_OPNDF_NOT)) {
        g_string_printf(d->why, "operand %u is not a register or an integer constant", i + 1);
        return false;
    }
    *out = ex_slot(d, o, PTX_T_B32);
    return *out != EX_NONE;
}

static bool is_word_type(ptx_type t)
{
    return t == PTX_T_U32 || t == PTX_T_S32;
}

static bool only_mods(ex_decoder *d, const uint16_t *allowed)
{
    const ptx_instr *pi = d->pi;
    for (unsigned i = 0; i < pi->nmods; i++) {
        uint16_t m = pi->mods[i];
        if (PTX_MOD_IS_TYPE(m))
            continue;
        bool ok = false;
        for (const uint16_t *p = allowed; *p && !ok; p++)
            ok = *p == m;
        if (!ok) {
            g_string_printf(d->why, "the .%s modifier on %s", ptx_module_mod_name(d->ir, m),
                            ptx_opcode_info((ptx_opcode)pi->op)->name);
            return false;
        }
    }
    return true;
}
#define ONLY(d, ...) only_mods((d), (const uint16_t[]){__VA_ARGS__, 0})

static bool has(const ex_decoder *d, uint16_t m)
{
    return ptx_instr_has_mod(d->pi, m);
}

/* The comparison of vset/vset2/vset4; -1 when there is not exactly one. */
static int vcmp_of(const ex_decoder *d)
{
    static const uint16_t mods[] = {PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT,
                                    PTX_MOD_LE, PTX_MOD_GT, PTX_MOD_GE};
    static const uint8_t cmps[] = {PTX_VCMP_EQ, PTX_VCMP_NE, PTX_VCMP_LT,
                                   PTX_VCMP_LE, PTX_VCMP_GT, PTX_VCMP_GE};
    int found = -1;
    for (size_t i = 0; i < G_N_ELEMENTS(mods); i++) {
        if (has(d, mods[i])) {
            if (found >= 0)
                return -1;
            found = cmps[i];
        }
    }
    return found;
}

/* Types: dtype, atype, btype, or atype, btype for the vset forms. */
static bool video_types(ex_decoder *d, bool is_set, bool *ds, bool *as, bool *bs)
{
    const ptx_instr *pi = d->pi;
    unsigned n = is_set ? 2 : 3;
    if (pi->ntypes != n) {
        g_string_printf(d->why, "%u type modifiers (expected %u)", pi->ntypes, n);
        return false;
    }
    for (unsigned i = 0; i < n; i++)
        if (!is_word_type((ptx_type)pi->types[i])) {
            g_string_printf(d->why, "type .%s (only .u32 and .s32)",
                            ptx_type_name((ptx_type)pi->types[i]));
            return false;
        }
    unsigned o = is_set ? 0 : 1;
    *ds = !is_set && ptx_type_is_signed((ptx_type)pi->types[0]);
    *as = ptx_type_is_signed((ptx_type)pi->types[o]);
    *bs = ptx_type_is_signed((ptx_type)pi->types[o + 1]);
    return true;
}

/* d, a, b and c (or a constant 0 when c is absent); selectors left on the
 * operands for the caller. */
static bool video_operands(ex_decoder *d, ex_instr *in, bool c_required)
{
    unsigned n = d->pi->nopnds;
    if (n != 4 && (n != 3 || c_required)) {
        g_string_printf(d->why, "%u operands", n);
        return false;
    }
    const ptx_operand *o = ex_opnd(d, 0);
    if (o->kind != PTX_OPND_REG || (o->comp >= 1 && o->comp <= 4)) {
        g_string_assign(d->why, "the destination must be a register");
        return false;
    }
    in->d = ex_slot(d, o, PTX_T_B32);
    if (in->d == EX_NONE || !reg_or_imm(d, 1, &in->a) || !reg_or_imm(d, 2, &in->b))
        return false;
    if (n == 4)
        return reg_or_imm(d, 3, &in->c);
    ptx_operand zero = {0};
    zero.kind = PTX_OPND_IMM;
    in->c = ex_slot(d, &zero, PTX_T_B32);
    return in->c != EX_NONE;
}

static ptx_vop scalar_op(ptx_opcode op)
{
    switch (op) {
    case PTX_OP_VADD: return PTX_VOP_ADD;
    case PTX_OP_VSUB: return PTX_VOP_SUB;
    case PTX_OP_VABSDIFF: return PTX_VOP_ABSDIFF;
    case PTX_OP_VMIN: return PTX_VOP_MIN;
    case PTX_OP_VMAX: return PTX_VOP_MAX;
    case PTX_OP_VSHL: return PTX_VOP_SHL;
    case PTX_OP_VSHR: return PTX_VOP_SHR;
    default: return PTX_VOP_SET;
    }
}

static bool decode_scalar(ex_decoder *d, ex_instr *in)
{
    ptx_opcode op = (ptx_opcode)d->pi->op;
    ptx_video_mods m;
    memset(&m, 0, sizeof m);
    m.op = (uint8_t)scalar_op(op);
    bool is_set = op == PTX_OP_VSET, is_shift = op == PTX_OP_VSHL || op == PTX_OP_VSHR;
    if (is_set) {
        if (!ONLY(d, PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT, PTX_MOD_LE, PTX_MOD_GT, PTX_MOD_GE,
                  PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX))
            return false;
        int cmp = vcmp_of(d);
        if (cmp < 0) {
            g_string_assign(d->why, "vset needs exactly one comparison");
            return false;
        }
        m.cmp = (uint8_t)cmp;
    } else if (is_shift) {
        if (!ONLY(d, PTX_MOD_SAT, PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX, PTX_MOD_CLAMP,
                  PTX_MOD_WRAP))
            return false;
        if (has(d, PTX_MOD_CLAMP) == has(d, PTX_MOD_WRAP)) {
            g_string_printf(d->why, "%s needs exactly one of .clamp and .wrap",
                            ptx_opcode_info(op)->name);
            return false;
        }
        m.shift_clamp = has(d, PTX_MOD_CLAMP);
    } else if (!ONLY(d, PTX_MOD_SAT, PTX_MOD_ADD, PTX_MOD_MIN, PTX_MOD_MAX)) {
        return false;
    }
    if (!video_types(d, is_set, &m.dsigned, &m.asigned, &m.bsigned))
        return false;
    if (is_shift && ptx_type_is_signed((ptx_type)d->pi->types[2])) {
        g_string_assign(d->why, "a signed shift count (btype must be .u32)");
        return false;
    }
    m.sat = has(d, PTX_MOD_SAT);
    unsigned nsec = has(d, PTX_MOD_ADD) + has(d, PTX_MOD_MIN) + has(d, PTX_MOD_MAX);
    m.secop = has(d, PTX_MOD_ADD) ? PTX_VSECOP_ADD
            : has(d, PTX_MOD_MIN) ? PTX_VSECOP_MIN
            : has(d, PTX_MOD_MAX) ? PTX_VSECOP_MAX : PTX_VSECOP_NONE;
    m.dsel = vsel_of(ex_opnd(d, 0));
    if (nsec > 1 || (nsec && m.dsel != PTX_VSEL_NONE)) {
        g_string_assign(d->why, "more than one of .add/.min/.max and a destination selector");
        return false;
    }
    /* a secondary operation or a merge needs c; without either, a c operand
     * is accepted and unused (optMerge with no dsel passes the result) */
    bool needs_c = nsec || m.dsel != PTX_VSEL_NONE;
    if (!video_operands(d, in, needs_c))
        return false;
    m.asel = vsel_of(ex_opnd(d, 1));
    m.bsel = vsel_of(ex_opnd(d, 2));
    memcpy(in->vr, &m, sizeof m);
    in->op2 = VID_SCALAR;
    in->fn = h_vscalar;
    return true;
}

static bool decode_vmad(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_vmad_mods m;
    memset(&m, 0, sizeof m);
    bool ds;
    if (!video_types(d, false, &ds, &m.asigned, &m.bsigned))
        return false;
    for (unsigned i = 0; i < pi->nmods; i++) {
        uint16_t mod = pi->mods[i];
        if (PTX_MOD_IS_TYPE(mod))
            continue;
        const char *name = ptx_module_mod_name(d->ir, mod);
        if (mod == PTX_MOD_SAT)
            m.sat = true;
        else if (name && strcmp(name, "po") == 0)
            m.po = true;
        else if (name && strcmp(name, "shr7") == 0 && !m.shr)
            m.shr = 7;
        else if (name && strcmp(name, "shr15") == 0 && !m.shr)
            m.shr = 15;
        else {
            g_string_printf(d->why, "the .%s modifier on vmad", name ? name : "?");
            return false;
        }
    }
    /* operand negation ({-}a) does not parse yet, so neg_ab/neg_c stay off */
    if (!video_operands(d, in, true))
        return false;
    if (vsel_of(ex_opnd(d, 0)) != PTX_VSEL_NONE || vsel_of(ex_opnd(d, 3)) != PTX_VSEL_NONE) {
        g_string_assign(d->why, "a selector on vmad's d or c");
        return false;
    }
    m.asel = vsel_of(ex_opnd(d, 1));
    m.bsel = vsel_of(ex_opnd(d, 2));
    memcpy(in->vr, &m, sizeof m);
    in->op2 = VID_MAD;
    in->fn = h_vmad;
    return true;
}

static ptx_vop simd_op(ptx_opcode op)
{
    switch (op) {
    case PTX_OP_VADD2: case PTX_OP_VADD4: return PTX_VOP_ADD;
    case PTX_OP_VSUB2: case PTX_OP_VSUB4: return PTX_VOP_SUB;
    case PTX_OP_VAVRG2: case PTX_OP_VAVRG4: return PTX_VOP_AVRG;
    case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4: return PTX_VOP_ABSDIFF;
    case PTX_OP_VMIN2: case PTX_OP_VMIN4: return PTX_VOP_MIN;
    case PTX_OP_VMAX2: case PTX_OP_VMAX4: return PTX_VOP_MAX;
    default: return PTX_VOP_SET;
    }
}

static bool decode_simd(ex_decoder *d, ex_instr *in, unsigned lanes)
{
    ptx_opcode op = (ptx_opcode)d->pi->op;
    ptx_vsimd_mods m;
    memset(&m, 0, sizeof m);
    m.op = (uint8_t)simd_op(op);
    bool is_set = m.op == PTX_VOP_SET;
    if (is_set) {
        if (!ONLY(d, PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT, PTX_MOD_LE, PTX_MOD_GT, PTX_MOD_GE,
                  PTX_MOD_ADD))
            return false;
        int cmp = vcmp_of(d);
        if (cmp < 0) {
            g_string_printf(d->why, "%s needs exactly one comparison", ptx_opcode_info(op)->name);
            return false;
        }
        m.cmp = (uint8_t)cmp;
    } else if (!ONLY(d, PTX_MOD_SAT, PTX_MOD_ADD)) {
        return false;
    }
    if (!video_types(d, is_set, &m.dsigned, &m.asigned, &m.bsigned))
        return false;
    m.sat = has(d, PTX_MOD_SAT);
    m.add = has(d, PTX_MOD_ADD);
    if (m.sat && m.add) {
        g_string_assign(d->why, ".sat with the .add accumulate form");
        return false;
    }
    if (!video_operands(d, in, true))
        return false;
    m.mask = (uint8_t)(lanes == 2 ? PTX_VSIMD2_MASK_DEFAULT : PTX_VSIMD4_MASK_DEFAULT);
    m.asel = (uint16_t)(lanes == 2 ? PTX_VSIMD2_ASEL_DEFAULT : PTX_VSIMD4_ASEL_DEFAULT);
    m.bsel = (uint16_t)(lanes == 2 ? PTX_VSIMD2_BSEL_DEFAULT : PTX_VSIMD4_BSEL_DEFAULT);
    /* A one-lane mask parses as a byte/half selector on d (.h0 .h1, .b0-.b3). */
    uint8_t dsel = vsel_of(ex_opnd(d, 0));
    if (dsel != PTX_VSEL_NONE) {
        bool half = dsel == PTX_VSEL_H0 || dsel == PTX_VSEL_H1;
        if (half != (lanes == 2)) {
            g_string_assign(d->why, "a destination mask of the wrong lane size");
            return false;
        }
        m.mask = (uint8_t)(1u << (half ? dsel - PTX_VSEL_H0 : dsel - PTX_VSEL_B0));
    }
    if (vsel_of(ex_opnd(d, 1)) != PTX_VSEL_NONE || vsel_of(ex_opnd(d, 2)) != PTX_VSEL_NONE ||
        vsel_of(ex_opnd(d, 3)) != PTX_VSEL_NONE) {
        g_string_assign(d->why, "source selectors (.hxy/.bxyzw) and multi-lane masks "
                                "are not parsed yet");
        return false;
    }
    memcpy(in->vr, &m, sizeof m);
    in->op2 = lanes == 2 ? VID_SIMD2 : VID_SIMD4;
    in->fn = lanes == 2 ? h_vsimd2 : h_vsimd4;
    return true;
}

bool ex_decode_video(ex_decoder *d, ex_instr *in)
{
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN:
    case PTX_OP_VMAX: case PTX_OP_VSHL: case PTX_OP_VSHR: case PTX_OP_VSET:
        return decode_scalar(d, in);
    case PTX_OP_VMAD:
        return decode_vmad(d, in);
    case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2: case PTX_OP_VABSDIFF2:
    case PTX_OP_VMIN2: case PTX_OP_VMAX2: case PTX_OP_VSET2:
        return decode_simd(d, in, 2);
    case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4: case PTX_OP_VABSDIFF4:
    case PTX_OP_VMIN4: case PTX_OP_VMAX4: case PTX_OP_VSET4:
        return decode_simd(d, in, 4);
    default:
        return false;
    }
}
