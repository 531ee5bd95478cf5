/* frontend/ir.h — the in-memory form of a PTX module.
 *
 * A module owns every string (one GStringChunk), its variables, functions and
 * a symbol table.  Each function owns flat arrays of instructions and
 * operands; operands that hold several values (vectors, call lists,
 * texture coordinates) point at a run of further operands in the same array.
 * Names are resolved at parse time: an operand names a register id, a
 * special register, or a symbol id, never a string. */
#ifndef PTXEMU_FRONTEND_IR_H
#define PTXEMU_FRONTEND_IR_H

#include "isa/opcodes.h"
#include "isa/types.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ptx_loc {
    uint32_t line, col;
} ptx_loc;

typedef enum ptx_space {
    PTX_SPACE_NONE = 0,
    PTX_SPACE_REG, PTX_SPACE_SREG, PTX_SPACE_CONST, PTX_SPACE_GLOBAL,
    PTX_SPACE_LOCAL, PTX_SPACE_PARAM, PTX_SPACE_SHARED, PTX_SPACE_TEX,
    PTX_SPACE_GENERIC,
} ptx_space;
const char *ptx_space_name(ptx_space s);

/* The most static shared memory of any GPU ptxemu models (228 KiB, sm_90's
 * per-CTA maximum): the parser refuses one .shared variable above it, and
 * the loader (EX_SHARED_MAX) a module whose .shared variables do not fit
 * together in it; a timing config checks its own core.shared_mem. */
#define PTX_SHARED_MAX (228u * 1024u)

enum {
    PTX_LINK_VISIBLE = 1u << 0,
    PTX_LINK_EXTERN = 1u << 1,
    PTX_LINK_WEAK = 1u << 2,
    PTX_LINK_COMMON = 1u << 3,
};

/* Special registers: X(ENUM, "name without %", has .x/.y/.z components) */
#define PTX_SREG_LIST(X)                                                   \
    X(TID, "tid", 1) X(NTID, "ntid", 1) X(CTAID, "ctaid", 1)                \
    X(NCTAID, "nctaid", 1) X(LANEID, "laneid", 0) X(WARPID, "warpid", 0)    \
    X(NWARPID, "nwarpid", 0) X(SMID, "smid", 0) X(NSMID, "nsmid", 0)        \
    X(GRIDID, "gridid", 0) X(CLOCK, "clock", 0) X(CLOCK_HI, "clock_hi", 0)  \
    X(CLOCK64, "clock64", 0) X(GLOBALTIMER, "globaltimer", 0)               \
    X(GLOBALTIMER_LO, "globaltimer_lo", 0)                                  \
    X(GLOBALTIMER_HI, "globaltimer_hi", 0)                                  \
    X(LANEMASK_EQ, "lanemask_eq", 0) X(LANEMASK_LE, "lanemask_le", 0)       \
    X(LANEMASK_LT, "lanemask_lt", 0) X(LANEMASK_GE, "lanemask_ge", 0)       \
    X(LANEMASK_GT, "lanemask_gt", 0)                                        \
    X(DYNAMIC_SMEM_SIZE, "dynamic_smem_size", 0)                            \
    X(TOTAL_SMEM_SIZE, "total_smem_size", 0)                                \
    X(AGGR_SMEM_SIZE, "aggr_smem_size", 0)                                  \
    X(CLUSTERID, "clusterid", 1) X(NCLUSTERID, "nclusterid", 1)             \
    X(CLUSTER_CTAID, "cluster_ctaid", 1)                                    \
    X(CLUSTER_NCTAID, "cluster_nctaid", 1)                                  \
    X(CLUSTER_CTARANK, "cluster_ctarank", 0)                                \
    X(CLUSTER_NCTARANK, "cluster_nctarank", 0)                              \
    X(IS_EXPLICIT_CLUSTER, "is_explicit_cluster", 0)                        \
    X(ENVREG, "envreg", 0) X(PM, "pm", 0) X(PM64, "pm64", 0)                \
    X(RESERVED_SMEM_OFFSET, "reserved_smem_offset_begin", 0)               \
    X(RESERVED_SMEM_END, "reserved_smem_offset_end", 0)                     \
    X(RESERVED_SMEM_CAP, "reserved_smem_offset_cap", 0)                     \
    X(RESERVED_SMEM_0, "reserved_smem_offset_0", 0)                         \
    X(RESERVED_SMEM_1, "reserved_smem_offset_1", 0)                         \
    X(CURRENT_GRAPH_EXEC, "current_graph_exec", 0)

typedef enum ptx_sreg {
#define X(e, n, c) PTX_SREG_##e,
    PTX_SREG_LIST(X)
#undef X
    PTX_SREG_COUNT
} ptx_sreg;
const char *ptx_sreg_name(ptx_sreg s);
bool ptx_sreg_has_components(ptx_sreg s);

typedef enum ptx_operand_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,      /* id = register id; comp = .x/.y/.z/.w (1..4) or 0 */
    PTX_OPND_SREG,     /* id = ptx_sreg; comp = component; val = index (envreg3, pm0) */
    PTX_OPND_IMM,      /* val = integer value */
    PTX_OPND_FIMM32,   /* val = f32 bit pattern (0f...) */
    PTX_OPND_FIMM64,   /* val = f64 bit pattern (0d... or decimal literal) */
    PTX_OPND_SYM,      /* id = symbol id (variable, function, label); val = +offset */
    PTX_OPND_ADDR,     /* [base+val]: id = base register or -1, id2 = base symbol or -1 */
    PTX_OPND_VEC,      /* {a,b,...}: id = first element operand index, id2 = count */
    PTX_OPND_LIST,     /* (a,b,...) call arguments: same encoding as VEC */
    PTX_OPND_ADDRLIST, /* [a, b, ...] texture/surface address: same encoding */
    PTX_OPND_SINK,     /* _ */
    PTX_OPND_PAIR,     /* p|q: id = first register, id2 = second register */
} ptx_operand_kind;

enum { PTX_OPNDF_NOT = 1u << 0 /* !p */, PTX_OPNDF_GENERIC = 1u << 1 };

typedef struct ptx_operand {
    uint8_t kind;  /* ptx_operand_kind */
    uint8_t flags; /* PTX_OPNDF_* */
    uint8_t comp;  /* 0 none, 1..4 = x y z w */
    uint8_t pad_;
    int32_t id;
    int32_t id2;
    int64_t val;
} ptx_operand;

#define PTX_MAX_MODS 16
#define PTX_MAX_TYPES 4

typedef struct ptx_instr {
    uint16_t op;            /* ptx_opcode */
    uint8_t nmods;
    uint8_t ntypes;
    uint16_t mods[PTX_MAX_MODS]; /* every modifier in source order (types too) */
    uint8_t types[PTX_MAX_TYPES]; /* the type modifiers, in order */
    uint8_t vec;            /* 1, 2, 4 or 8 (.v2/.v4/.v8) */
    uint8_t space;          /* ptx_space from the modifiers, or NONE */
    uint8_t rnd;            /* ptx_rnd from the modifiers, or NONE */
    uint8_t guard_neg;      /* @!p */
    int32_t guard;          /* predicate register id, or -1 */
    uint32_t first_opnd;    /* index into ptx_func.operands */
    uint16_t nopnds;
    uint16_t pad_;
    ptx_loc loc;            /* where the opcode token starts */
    uint32_t src_file;      /* last .loc before it: file index, 0 = none */
    uint32_t src_line;      /* last .loc before it: line */
} ptx_instr;

typedef struct ptx_regdecl {
    const char *prefix;  /* name, or the prefix of a %r<N> range */
    ptx_type type;
    uint8_t vec;
    uint32_t count;      /* registers declared: 1, or N for prefix<N> */
    bool is_range;       /* declared as prefix<N> */
    uint32_t first_reg;  /* id of the first register it declares */
} ptx_regdecl;

typedef struct ptx_reg {
    uint32_t decl;       /* index into ptx_func.regdecls */
    uint32_t index;      /* index within a range (name = prefix + index) */
    ptx_type type;
    uint8_t vec;
} ptx_reg;

/* 64-bit register slots the executor gives one register: one per vector
 * element, two for a .b128 element (low half first). */
static inline uint32_t ptx_reg_slots(const ptx_reg *r)
{
    uint32_t n = r->vec > 1 ? r->vec : 1;
    return r->type == PTX_T_B128 ? 2 * n : n;
}

/* An initializer is a flat list: brace items keep the nesting for printing;
 * readers that only want the values skip them (row-major order). */
typedef enum ptx_init_kind {
    PTX_INIT_INT, PTX_INIT_F32, PTX_INIT_F64, PTX_INIT_SYM,
    PTX_INIT_OPEN, PTX_INIT_CLOSE,
    PTX_INIT_KV,         /* sampler/texture field: val = index of "k = v" in module texts */
} ptx_init_kind;

typedef struct ptx_init {
    uint8_t kind;
    uint8_t generic;     /* SYM: generic(sym) */
    int32_t sym;         /* SYM: symbol id */
    int64_t val;         /* INT value, float bits, or SYM offset */
} ptx_init;

typedef struct ptx_var {
    const char *name;
    ptx_space space;
    ptx_type type;
    uint8_t vec;
    uint8_t is_ptr;      /* .param .ptr */
    uint8_t ptr_space;   /* .ptr .global etc. */
    uint32_t ptr_align;
    uint32_t align;      /* 0 = natural */
    uint32_t linkage;    /* PTX_LINK_* */
    uint32_t ndims;
    uint64_t dims[4];    /* 0 = unsized ([]) */
    GArray *init;        /* ptx_init, or NULL */
    char *attributes;    /* text of .attribute(...), or NULL */
    int32_t func;        /* owning function index, -1 for module scope */
    int32_t reg;         /* .reg parameter: its register id; else -1 */
    ptx_loc loc;
} ptx_var;

typedef enum ptx_sym_kind {
    PTX_SYM_VAR, PTX_SYM_FUNC, PTX_SYM_LABEL, PTX_SYM_PROTO,
    PTX_SYM_BRANCHTARGETS, PTX_SYM_CALLTARGETS,
} ptx_sym_kind;

typedef struct ptx_symbol {
    const char *name;
    ptx_sym_kind kind;
    int32_t index;       /* VAR: var index; FUNC: func index;
                            LABEL: instruction index in func (-1 = not yet);
                            PROTO/targets: index into ptx_func.protos/targets */
    int32_t func;        /* owning function for labels, protos, targets; -1 */
    ptx_loc loc;         /* definition (or first use while undefined) */
} ptx_symbol;

/* A .callprototype: parameter declarations without names. */
typedef struct ptx_proto {
    int32_t sym;
    GArray *rets;        /* ptx_var (name "_"), in order */
    GArray *params;
    bool noreturn;
} ptx_proto;

/* .branchtargets / .calltargets: a list of symbol ids. */
typedef struct ptx_targets {
    int32_t sym;
    GArray *syms;        /* int32_t symbol ids */
} ptx_targets;

/* Body statements in source order, for printing (instructions and labels
 * alone make the control flow). */
typedef enum ptx_stmt_kind {
    PTX_STMT_INSTR, PTX_STMT_LABEL, PTX_STMT_VAR, PTX_STMT_REG,
    PTX_STMT_OPEN, PTX_STMT_CLOSE, PTX_STMT_PRAGMA, PTX_STMT_LOC,
    PTX_STMT_PROTO, PTX_STMT_TARGETS,
} ptx_stmt_kind;

typedef struct ptx_stmt {
    uint32_t kind;
    uint32_t index;      /* instr, symbol, var, regdecl, pragma/loc text, proto, targets */
} ptx_stmt;

typedef struct ptx_perf {
    uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
    uint32_t minnctapersm, maxnreg, maxclusterrank;
    bool has_maxntid, has_reqntid, has_reqnctapercluster, explicitcluster;
    uint8_t maxntid_dims, reqntid_dims, reqnctapercluster_dims;
} ptx_perf;

typedef struct ptx_func {
    const char *name;
    int32_t sym;
    bool is_entry;
    bool has_body;
    bool noreturn;
    uint32_t linkage;
    ptx_perf perf;
    GPtrArray *pragmas;  /* char*: .pragma strings in the header */
    GArray *params;      /* int32_t var indices */
    GArray *rets;        /* int32_t var indices */
    GArray *regdecls;    /* ptx_regdecl */
    GArray *regs;        /* ptx_reg */
    GArray *instrs;      /* ptx_instr */
    GArray *operands;    /* ptx_operand */
    GArray *stmts;       /* ptx_stmt */
    GArray *labels;      /* int32_t symbol ids of labels, definition order */
    GArray *protos;      /* ptx_proto */
    GArray *targets;     /* ptx_targets */
    GPtrArray *texts;    /* char*: pragma and .loc texts referenced by stmts */
    ptx_loc loc;
} ptx_func;

typedef struct ptx_file_entry {
    uint32_t index;
    const char *path;
    char *extra;          /* ", timestamp, size" text or NULL */
} ptx_file_entry;

/* Module-level items in source order, for printing. */
typedef enum ptx_item_kind {
    PTX_ITEM_VAR, PTX_ITEM_FUNC, PTX_ITEM_FILE, PTX_ITEM_SECTION,
    PTX_ITEM_PRAGMA,
} ptx_item_kind;

typedef struct ptx_item {
    uint32_t kind;
    uint32_t index;
} ptx_item;

typedef struct ptx_module {
    char *source_name;    /* for messages */
    GStringChunk *strings;
    uint32_t version_major, version_minor;
    char *target;         /* "sm_90a, texmode_independent" */
    uint32_t address_size;
    GArray *vars;         /* ptx_var (module and function scope) */
    GPtrArray *funcs;     /* ptx_func* */
    GArray *syms;         /* ptx_symbol */
    GArray *files;        /* ptx_file_entry */
    GPtrArray *texts;     /* char*: section blocks and module pragmas */
    GArray *items;        /* ptx_item */
    GPtrArray *dyn_mods;  /* char*: spellings of dynamic modifier ids */
    GHashTable *globals;  /* name -> symbol id + 1 (module scope) */
    GHashTable *aliases;  /* .alias: function name -> target function name */
} ptx_module;

ptx_module *ptx_module_new(const char *source_name);
void ptx_module_free(ptx_module *m);

ptx_func *ptx_func_new(void);
void ptx_func_free(ptx_func *f);

static inline ptx_instr *ptx_func_instr(const ptx_func *f, uint32_t i)
{
    return &g_array_index(f->instrs, ptx_instr, i);
}
static inline ptx_operand *ptx_instr_opnd(const ptx_func *f,
                                          const ptx_instr *in, unsigned i)
{
    return &g_array_index(f->operands, ptx_operand, in->first_opnd + i);
}
static inline ptx_operand *ptx_func_opnd(const ptx_func *f, uint32_t i)
{
    return &g_array_index(f->operands, ptx_operand, i);
}
static inline ptx_symbol *ptx_module_sym(const ptx_module *m, int32_t id)
{
    return &g_array_index(m->syms, ptx_symbol, id);
}
static inline ptx_var *ptx_module_var(const ptx_module *m, int32_t id)
{
    return &g_array_index(m->vars, ptx_var, id);
}
static inline ptx_func *ptx_module_func(const ptx_module *m, uint32_t i)
{
    return g_ptr_array_index(m->funcs, i);
}

/* Looks up a module-scope symbol (variable or function) by name; -1. */
int32_t ptx_module_find(const ptx_module *m, const char *name);
/* Index of the function named `name`, or -1. */
int32_t ptx_module_find_func(const ptx_module *m, const char *name);
/* Name of a register ("%r12"), written into buf. */
const char *ptx_reg_name(const ptx_func *f, uint32_t reg, char *buf,
                         size_t len);
/* Spelling of any modifier id of this module. */
const char *ptx_module_mod_name(const ptx_module *m, uint16_t mod);
bool ptx_instr_has_mod(const ptx_instr *in, uint16_t mod);

#endif
