/* runtime/exec_cache.c — cache-control instructions: createpolicy,
 * applypriority and discard.
 *
 * createpolicy (PTX ISA "Data Movement and Conversion Instructions:
 * createpolicy") builds an opaque 64-bit cache eviction policy that loads
 * and stores with .L2::cache_hint take as an extra operand.  Priorities
 * only change which lines the L2 keeps, never a value, so the policy is
 * modelled as a value and checked, not acted on:
 *   bits 0-1   primary priority  (0 normal, 1 first, 2 last, 3 unchanged)
 *   bits 2-3   secondary priority (1 first, 3 unchanged: its default)
 *   bit  4     range-based (1) or fraction-based (0)
 *   bits 32-63 fraction-based: the fraction's f32 bits (default 1.0)
 *              range-based: primary-size
 * createpolicy.cvt.L2 converts a CUDA access property, itself opaque: the
 * value passes through. */
#include "runtime/decode.h"
#include "runtime/warp.h"

#include <string.h>

enum { PRIO_NORMAL, PRIO_FIRST, PRIO_LAST, PRIO_UNCHANGED, PRIO_NONE };
enum { POL_RANGE = 1u << 4 };
enum { CP_FRACTIONAL, CP_RANGE, CP_CVT };

#define F32_ONE 0x3f800000u

static void h_policy_fraction(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    EX_LANES(mask, l, {
        uint32_t bits = in->a == EX_NONE ? F32_ONE : (uint32_t)w->r[in->a][l];
        float f;
        memcpy(&f, &bits, 4);
        if (!(f > 0.0f && f <= 1.0f)) { /* NaN fails too */
            ex_fault(w, (int)l, "createpolicy fraction %g is outside (0.0, 1.0]", (double)f);
            return;
        }
        w->r[in->d][l] = (uint64_t)in->imm | (uint64_t)bits << 32;
    });
}

static void h_policy_range(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    EX_LANES(mask, l, {
        uint32_t primary = (uint32_t)w->r[in->b][l], total = (uint32_t)w->r[in->c][l];
        if (primary > total) {
            ex_fault(w, (int)l, "createpolicy primary-size %u exceeds total-size %u",
                     primary, total);
            return;
        }
        w->r[in->d][l] = (uint64_t)in->imm | (uint64_t)primary << 32;
    });
}

static void h_policy_cvt(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    EX_LANES(mask, l, { w->r[in->d][l] = w->r[in->a][l]; });
}

static int priority_of(const char *name)
{
    static const char *const names[] = {"L2::evict_normal", "L2::evict_first",
                                        "L2::evict_last", "L2::evict_unchanged"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return PRIO_NONE;
}

static bool fail(ex_decoder *d, const char *msg)
{
    g_string_assign(d->why, msg);
    return false;
}

static bool decode_createpolicy(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    int form = -1, primary = PRIO_NONE, secondary = PRIO_NONE;
    bool global = false, l2 = false;
    for (unsigned i = 0; i < pi->nmods; i++) {
        if (PTX_MOD_IS_TYPE(pi->mods[i]))
            continue;
        const char *m = ptx_module_mod_name(d->ir, pi->mods[i]);
        int prio = priority_of(m);
        if (prio != PRIO_NONE) {
            if (primary == PRIO_NONE)
                primary = prio;
            else if (secondary == PRIO_NONE)
                secondary = prio;
            else
                return fail(d, "createpolicy takes at most two priorities");
        } else if (strcmp(m, "fractional") == 0 || strcmp(m, "range") == 0 ||
                   strcmp(m, "cvt") == 0) {
            if (form >= 0)
                return fail(d, "createpolicy takes one of .range, .fractional, .cvt");
            form = m[0] == 'f' ? CP_FRACTIONAL : m[0] == 'r' ? CP_RANGE : CP_CVT;
        } else if (strcmp(m, "global") == 0) {
            global = true;
        } else if (strcmp(m, "L2") == 0) {
            l2 = true;
        } else {
            g_string_printf(d->why, "createpolicy with .%s", m);
            return false;
        }
    }
    if (pi->ntypes != 1 || pi->types[0] != PTX_T_B64)
        return fail(d, "createpolicy needs the .b64 type");
    if (form < 0)
        return fail(d, "createpolicy needs .range, .fractional or .cvt");
    in->d = ex_opnd_slot(d, 0, PTX_T_B64);
    if (form == CP_CVT) {
        if (!l2 || primary != PRIO_NONE || global || pi->nopnds != 2)
            return fail(d, "createpolicy.cvt takes .L2 and one access-property operand");
        in->a = ex_opnd_slot(d, 1, PTX_T_B64);
        in->fn = h_policy_cvt;
        return in->a != EX_NONE;
    }
    if (l2 || primary == PRIO_NONE)
        return fail(d, "createpolicy needs a primary priority (.L2::evict_last, "
                       "_normal, _first or _unchanged)");
    if (secondary == PRIO_NONE)
        secondary = PRIO_UNCHANGED; /* the ISA's default */
    if (secondary != PRIO_FIRST && secondary != PRIO_UNCHANGED)
        return fail(d, "createpolicy's secondary priority is .L2::evict_first or "
                       ".L2::evict_unchanged");
    in->imm = (int64_t)(primary | secondary << 2 | (form == CP_RANGE ? POL_RANGE : 0));
    if (form == CP_FRACTIONAL) {
        if (global || pi->nopnds > 2)
            return fail(d, "createpolicy.fractional takes at most a fraction operand");
        if (pi->nopnds == 2) {
            in->a = ex_opnd_slot(d, 1, PTX_T_F32);
            if (in->a == EX_NONE)
                return fail(d, "createpolicy fraction operand");
        }
        in->fn = h_policy_fraction;
        return true;
    }
    if (pi->nopnds != 4 || ex_opnd(d, 1)->kind != PTX_OPND_ADDR)
        return fail(d, "createpolicy.range takes [a], primary-size, total-size");
    /* the address only says where the priorities apply; nothing is accessed */
    in->b = ex_opnd_slot(d, 2, PTX_T_U32);
    in->c = ex_opnd_slot(d, 3, PTX_T_U32);
    in->fn = h_policy_range;
    return in->b != EX_NONE && in->c != EX_NONE;
}

/* applypriority.global.L2::evict_normal [a], 128 and discard.global.L2 [a],
 * 128 (PTX ISA "Data Movement and Conversion Instructions"): a must be
 * 128-byte aligned and in the .global window (anything else is undefined
 * behaviour, reported here as a fault).  A priority changes no value; discard
 * is "a weak write of an unstable indeterminate value", and keeping the old
 * bytes is one such value, so neither changes memory. */
static void h_line_hint(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const char *what = in->op == PTX_OP_DISCARD ? "discard" : "applypriority";
    EX_LANES(mask, l, {
        uint64_t a = (uint64_t)in->imm + (in->a != EX_NONE ? w->r[in->a][l] : 0);
        if (a & 127u) {
            ex_fault(w, (int)l, "%s address 0x%llx is not 128-byte aligned", what,
                     (unsigned long long)a);
            return;
        }
        if (a - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE || a - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE ||
            !mem_ptr(w->launch->mem, a, 128, &w->hint)) {
            ex_fault(w, (int)l, "%s address 0x%llx is not 128 bytes of .global memory", what,
                     (unsigned long long)a);
            return;
        }
    });
}

static bool decode_line_hint(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    bool discard = pi->op == PTX_OP_DISCARD, level = false;
    for (unsigned i = 0; i < pi->nmods; i++) {
        const char *m = ptx_module_mod_name(d->ir, pi->mods[i]);
        if (strcmp(m, "global") == 0)
            continue;
        if (strcmp(m, discard ? "L2" : "L2::evict_normal") == 0 && !level) {
            level = true;
            continue;
        }
        g_string_printf(d->why, "%s with .%s", discard ? "discard" : "applypriority", m);
        return false;
    }
    if (!level)
        return fail(d, discard ? "discard needs .L2" : "applypriority needs .L2::evict_normal");
    const ptx_operand *a = ex_opnd(d, 0), *size = ex_opnd(d, 1);
    if (pi->nopnds != 2 || a->kind != PTX_OPND_ADDR || size->kind != PTX_OPND_IMM)
        return fail(d, "takes [a], size");
    if (size->val != 128)
        return fail(d, "size must be 128 (the only value the PTX ISA supports)");
    if (a->id2 >= 0)
        return fail(d, "an address by variable name");
    if (a->id >= 0)
        in->a = ex_reg_slot(d, a->id);
    in->imm = a->val;
    in->fn = h_line_hint;
    return true;
}

bool ex_decode_cache(ex_decoder *d, ex_instr *in)
{
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_CREATEPOLICY:
        return decode_createpolicy(d, in);
    case PTX_OP_APPLYPRIORITY: case PTX_OP_DISCARD:
        return decode_line_hint(d, in);
    default:
        return false;
    }
}
