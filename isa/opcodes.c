/* isa/opcodes.c — tables generated from isa/opcodes.def and modifiers.def. */
#include "isa/opcodes.h"

#include <stdint.h>
#include <string.h>

#define G(x) PTX_MG_BIT(x)
#define OPF_ANYMOD PTX_OPF_ANYMOD
#define OPF_LONG PTX_OPF_LONG
#define OPF_LONG_SPACE PTX_OPF_LONG_SPACE
#define OPF_WINDOW PTX_OPF_WINDOW
#define OPF_FENCE PTX_OPF_FENCE
#define OPF_BARRIER_EVENT PTX_OPF_BARRIER_EVENT
#define OPF_SYNC_MASK PTX_OPF_SYNC_MASK
#define OPF_SYNC_WARP PTX_OPF_SYNC_WARP
#define OPF_SYNC_BAR PTX_OPF_SYNC_BAR
#define OPF_BRANCH PTX_OPF_BRANCH
#define OPF_BRANCH_LIST PTX_OPF_BRANCH_LIST
#define OPF_LEAVE PTX_OPF_LEAVE
#define OPF_CALL PTX_OPF_CALL
#define OPF_CTA_ORDER PTX_OPF_CTA_ORDER
#define OPF_ASYNC PTX_OPF_ASYNC
#define OPF_TYPED_ARITH PTX_OPF_TYPED_ARITH
#define OPF_SAME_TYPE PTX_OPF_SAME_TYPE
const ptx_opinfo ptx_opcode_rows[PTX_OP_COUNT] = {
    [PTX_OP_INVALID] = {"<invalid>", PTX_FAM_NONE, PTX_UNIT_ALU, PTX_LATK_UNIT, "", 0, 0, 0, 0},
#define X(e, n, fam, u, lat, sh, tmin, tmax, g, f) \
    [PTX_OP_##e] = {n, PTX_FAM_##fam, PTX_UNIT_##u, PTX_LATK_##lat, sh, tmin, tmax, (g), (f)},
#include "isa/opcodes.def"
#undef X
};
#undef OPF_LONG
#undef OPF_LONG_SPACE
#undef OPF_WINDOW
#undef OPF_FENCE
#undef OPF_BARRIER_EVENT
#undef OPF_SYNC_MASK
#undef OPF_SYNC_WARP
#undef OPF_SYNC_BAR
#undef OPF_BRANCH
#undef OPF_BRANCH_LIST
#undef OPF_LEAVE
#undef OPF_CALL
#undef OPF_CTA_ORDER
#undef OPF_ASYNC
#undef OPF_TYPED_ARITH
#undef OPF_SAME_TYPE

static const struct {
    const char *name;
    uint64_t groups;
} mod_table[PTX_MOD_COUNT] = {
    [PTX_MOD_NONE] = {"", 0},
#define X(e, s, g) [PTX_MOD_##e] = {s, (g)},
#include "isa/modifiers.def"
#undef X
};
#undef G
#undef OPF_ANYMOD

const ptx_opinfo *ptx_opcode_info(ptx_opcode op)
{
    if ((unsigned)op >= PTX_OP_COUNT)
        op = PTX_OP_INVALID;
    return &ptx_opcode_rows[op];
}

/* Linear scans are fine: the parser caches each distinct opcode token. */
ptx_opcode ptx_opcode_lookup(const char *s, unsigned len)
{
    for (unsigned i = 1; i < PTX_OP_COUNT; i++) {
        const char *n = ptx_opcode_rows[i].name;
        if (strncmp(n, s, len) == 0 && n[len] == '\0')
            return (ptx_opcode)i;
    }
    return PTX_OP_INVALID;
}

const char *ptx_unit_name(ptx_unit u)
{
    static const char *const names[] = {"ALU", "SFU", "DP", "MEM",
                                        "CTRL", "SYNC", "TEX", "MMA"};
    return (unsigned)u < sizeof names / sizeof names[0] ? names[u] : "?";
}

const char *ptx_family_name(ptx_family f)
{
    static const char *const names[PTX_FAM_COUNT] = {
#define FAMILY(e, name, decoder, why) [PTX_FAM_##e] = name,
#include "isa/families.def"
#undef FAMILY
    };
    return (unsigned)f < PTX_FAM_COUNT ? names[f] : "?";
}

uint16_t ptx_mod_lookup(const char *s, unsigned len)
{
    for (unsigned i = 1; i < PTX_MOD_COUNT; i++) {
        const char *n = mod_table[i].name;
        if (strncmp(n, s, len) == 0 && n[len] == '\0')
            return (uint16_t)i;
    }
    ptx_type t = ptx_type_from_name(s, len);
    return t == PTX_T_NONE ? PTX_MOD_NONE : PTX_MOD_TYPE(t);
}

const char *ptx_mod_name(uint16_t mod)
{
    if (mod > PTX_MOD_NONE && mod < PTX_MOD_COUNT)
        return mod_table[mod].name;
    if (PTX_MOD_IS_TYPE(mod))
        return ptx_type_name(PTX_MOD_TYPE_OF(mod));
    return NULL;
}

uint64_t ptx_mod_groups(uint16_t mod)
{
    if (mod > PTX_MOD_NONE && mod < PTX_MOD_COUNT)
        return mod_table[mod].groups;
    if (PTX_MOD_IS_TYPE(mod))
        return PTX_MG_BIT(TYPE);
    return 0;
}

const char *ptx_modgroup_name(uint64_t mask)
{
    static const char *const names[PTX_MG_COUNT] = {
        "state space", "vector", "type", "rounding", "flush-to-zero",
        "saturation", "approximation", "relu", "NaN handling", "out-of-bounds",
        "width (lo/hi/wide)", "carry", "comparison", "boolean combine",
        "atomic operation", "secondary operation", "memory semantics",
        "scope", "cache operator", "synchronisation", "uniform", "vote mode",
        "barrier", "shuffle mode", "bit-operation mode", "testp class",
        "selector", "texture", "surface", "matrix/async", "conversion"};
    for (unsigned g = 0; g < PTX_MG_COUNT; g++)
        if (mask & (UINT64_C(1) << g))
            return names[g];
    return "modifier";
}

unsigned ptx_shape_min_operands(const char *shape)
{
    unsigned n = 0;
    for (const char *p = shape; *p && *p != '?'; p++)
        if (*p != '+')
            n++;
    return n;
}

unsigned ptx_shape_max_operands(const char *shape)
{
    unsigned n = 0;
    for (const char *p = shape; *p; p++) {
        if (*p == '+')
            return UINT32_MAX;
        if (*p != '?')
            n++;
    }
    return n;
}

char ptx_shape_letter(const char *shape, unsigned index)
{
    unsigned n = 0;
    char last = 0;
    for (const char *p = shape; *p; p++) {
        if (*p == '?')
            continue;
        if (*p == '+')
            return last;
        if (n == index)
            return *p;
        last = *p;
        n++;
    }
    return 0;
}
