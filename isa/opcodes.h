/* isa/opcodes.h — the opcode rows and modifier tables (isa/opcodes.def,
 * isa/modifiers.def) and the queries the front end, loader, phase pass and
 * timing model need.  Every per-opcode fact lives in the row. */
#ifndef PTXEMU_ISA_OPCODES_H
#define PTXEMU_ISA_OPCODES_H

#include "isa/types.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum ptx_unit {
    PTX_UNIT_ALU, PTX_UNIT_SFU, PTX_UNIT_DP, PTX_UNIT_MEM,
    PTX_UNIT_CTRL, PTX_UNIT_SYNC, PTX_UNIT_TEX, PTX_UNIT_MMA,
} ptx_unit;

/* Which runtime decoder family binds an opcode (isa/families.def). */
typedef enum ptx_family {
#define FAMILY(e, name, decoder, why) PTX_FAM_##e,
#include "isa/families.def"
#undef FAMILY
    PTX_FAM_COUNT
} ptx_family;

/* How an opcode's latency class is found (isa/latency.c). */
typedef enum ptx_lat_kind {
    PTX_LATK_ADD, PTX_LATK_MAX, PTX_LATK_MUL, PTX_LATK_MAD, PTX_LATK_DIV,
    PTX_LATK_SFU, PTX_LATK_UNIT,
} ptx_lat_kind;

/* Modifier groups: an opcode accepts the modifiers of the groups it names. */
typedef enum ptx_modgroup {
    PTX_MG_SPACE, PTX_MG_VEC, PTX_MG_TYPE, PTX_MG_RND, PTX_MG_FTZ, PTX_MG_SAT,
    PTX_MG_APPROX, PTX_MG_RELU, PTX_MG_NAN, PTX_MG_OOB, PTX_MG_WIDE, PTX_MG_CC,
    PTX_MG_CMP, PTX_MG_BOOL, PTX_MG_ATOMOP, PTX_MG_VOP2, PTX_MG_SEM,
    PTX_MG_SCOPE, PTX_MG_CACHE, PTX_MG_SYNC, PTX_MG_UNI, PTX_MG_VOTE,
    PTX_MG_BAR, PTX_MG_SHFL, PTX_MG_BITS, PTX_MG_TESTP, PTX_MG_VSEL,
    PTX_MG_TEXC, PTX_MG_SURF, PTX_MG_MMA, PTX_MG_TO,
    PTX_MG_COUNT
} ptx_modgroup;
#define PTX_MG_BIT(g) (UINT64_C(1) << PTX_MG_##g)

typedef enum ptx_opcode {
    PTX_OP_INVALID = 0,
#define X(e, n, fam, u, lat, sh, tmin, tmax, g, f) PTX_OP_##e,
#define G(x) 0
#include "isa/opcodes.def"
#undef X
#undef G
    PTX_OP_COUNT
} ptx_opcode;

/* Modifier ids: [1, PTX_MOD_COUNT) are the static modifiers; a type t is
 * the modifier PTX_MOD_TYPE(t); ids from PTX_MOD_DYN_BASE up are spellings
 * a module met on long-tail opcodes (kept in the module for printing). */
typedef enum ptx_mod {
    PTX_MOD_NONE = 0,
#define X(e, s, g) PTX_MOD_##e,
#define G(x) 0
#include "isa/modifiers.def"
#undef X
#undef G
    PTX_MOD_COUNT
} ptx_mod;
#define PTX_MOD_TYPE(t) ((uint16_t)(PTX_MOD_COUNT + (t)))
#define PTX_MOD_IS_TYPE(m) ((m) > PTX_MOD_COUNT && (m) < PTX_MOD_DYN_BASE)
#define PTX_MOD_TYPE_OF(m) ((ptx_type)((m) - PTX_MOD_COUNT))
#define PTX_MOD_DYN_BASE ((uint16_t)(PTX_MOD_COUNT + PTX_T_COUNT))

/* Row flags (opcodes.def explains each). */
#define PTX_OPF_ANYMOD 1u
#define PTX_OPF_LONG 2u
#define PTX_OPF_LONG_SPACE 4u
#define PTX_OPF_WINDOW 8u
#define PTX_OPF_FENCE 16u
#define PTX_OPF_BARRIER_EVENT 32u
#define PTX_OPF_SYNC_MASK (1u << 6)
#define PTX_OPF_SYNC_WARP (1u << 7)
#define PTX_OPF_SYNC_BAR (1u << 8)
#define PTX_OPF_BRANCH (1u << 9)
#define PTX_OPF_BRANCH_LIST (1u << 10)
#define PTX_OPF_LEAVE (1u << 11)
#define PTX_OPF_CALL (1u << 12)
#define PTX_OPF_CTA_ORDER (1u << 13)
#define PTX_OPF_ASYNC (1u << 14)
#define PTX_OPF_TYPED_ARITH (1u << 15)
#define PTX_OPF_SAME_TYPE (1u << 16)
/* Unions the queries below ask for. */
#define PTX_OPF_COLLECTIVE (PTX_OPF_SYNC_MASK | PTX_OPF_SYNC_WARP | PTX_OPF_SYNC_BAR)
#define PTX_OPF_ENDS_BLOCK (PTX_OPF_BRANCH | PTX_OPF_LEAVE)

typedef struct ptx_opinfo {
    const char *name;
    ptx_family family;
    ptx_unit unit;
    ptx_lat_kind lat;
    const char *shape;       /* operand roles */
    uint8_t min_types, max_types;
    uint64_t groups;
    unsigned flags;
} ptx_opinfo;

const ptx_opinfo *ptx_opcode_info(ptx_opcode op);

/* The rows, indexed by opcode: read-only, visible so that the flag
 * queries below inline into the executor's and timing model's loops. */
extern const ptx_opinfo ptx_opcode_rows[PTX_OP_COUNT];

/* The row's flags (PTX_OPF_*); 0 for an opcode out of range. */
static inline unsigned ptx_opcode_flags(unsigned op)
{
    return op < PTX_OP_COUNT ? ptx_opcode_rows[op].flags : 0u;
}

/* Whether the row has any of `flags`. */
static inline bool ptx_opcode_has(unsigned op, unsigned flags)
{
    return (ptx_opcode_flags(op) & flags) != 0;
}

/* A branch to one label (bra), not through a .branchtargets list. */
static inline bool ptx_opcode_direct_branch(unsigned op)
{
    return (ptx_opcode_flags(op) & (PTX_OPF_BRANCH | PTX_OPF_BRANCH_LIST)) == PTX_OPF_BRANCH;
}
ptx_opcode ptx_opcode_lookup(const char *s, unsigned len);
const char *ptx_unit_name(ptx_unit u);
const char *ptx_family_name(ptx_family f);

/* Static modifier lookup (types included); PTX_MOD_NONE when unknown. */
uint16_t ptx_mod_lookup(const char *s, unsigned len);
/* Spelling of a static or type modifier; NULL for dynamic ids. */
const char *ptx_mod_name(uint16_t mod);
/* Group mask of a static or type modifier (0 for dynamic ids). */
uint64_t ptx_mod_groups(uint16_t mod);
/* Name of the first group in a mask, for messages ("rounding", "cache"). */
const char *ptx_modgroup_name(uint64_t mask);

/* Operand-shape helpers over ptx_opinfo.shape. */
unsigned ptx_shape_min_operands(const char *shape);
unsigned ptx_shape_max_operands(const char *shape); /* UINT32_MAX: unbounded */
char ptx_shape_letter(const char *shape, unsigned index); /* 0 when none */

#endif
