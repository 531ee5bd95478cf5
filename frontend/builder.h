/* frontend/builder.h — parser state and the semantic actions the grammar
 * calls (internal to the front end; users call frontend/parser.h). */
#ifndef PTXEMU_FRONTEND_BUILDER_H
#define PTXEMU_FRONTEND_BUILDER_H

#include "frontend/ir.h"

#include <glib.h>
#include <stdint.h>

typedef struct ptx_strref {
    const char *s;
    unsigned len;
} ptx_strref;

typedef union PTX_YYSTYPE {
    ptx_strref str;
    uint64_t u;
    int i;
    ptx_operand opnd;
} PTX_YYSTYPE;
#define PTX_YYSTYPE_IS_DECLARED 1

typedef struct PTX_YYLTYPE {
    int first_line, first_column, last_line, last_column;
} PTX_YYLTYPE;
#define PTX_YYLTYPE_IS_DECLARED 1

/* Declaration attributes collected from ".visible .global .align 4 .u32". */
typedef struct ptx_decl_attrs {
    uint32_t linkage;
    ptx_space space;
    ptx_type type;
    uint8_t vec;
    uint32_t align;
    bool is_ptr;
    ptx_space ptr_space;
    uint32_t ptr_align;
    char *attribute;
    int nspaces, ntypes;
    PTX_YYLTYPE loc;
    bool has_loc;
} ptx_decl_attrs;

typedef struct ptx_scope {
    GHashTable *names;  /* name -> encoded (kind << 28 | id) */
    GHashTable *ranges; /* prefix of %r<N> -> regdecl index + 1 */
} ptx_scope;

/* Where parameter declarations currently go. */
typedef enum { PARAMS_FUNC, PARAMS_RETS, PARAMS_PROTO_RETS, PARAMS_PROTO } ptx_param_mode;

typedef struct ptx_builder {
    ptx_module *m;
    void *scanner;
    GString *error;          /* first error, formatted; NULL while none */
    int line, col;           /* lexer position (1-based line, 0-based col) */
    int section_depth;
    GString *section;
    GHashTable *opcache;     /* opcode token text -> decoded (ptx_opdecode *) */
    ptx_decl_attrs attrs;
    ptx_func *fn;            /* function being parsed, or NULL */
    int32_t fn_index;
    GPtrArray *scopes;       /* ptx_scope*, innermost last */
    GHashTable *labels;      /* name -> label symbol id + 1 (function-wide) */
    GArray *stack;           /* ptx_operand under construction */
    GArray *final;           /* completed list elements of this instruction */
    uint32_t instr_start;
    int32_t guard;
    bool guard_neg;
    const struct ptx_opdecode *cur_op;
    PTX_YYLTYPE op_loc;
    ptx_param_mode param_mode;
    ptx_proto *proto;        /* .callprototype being built */
    int32_t last_label;      /* symbol of the label just defined, or -1 */
    uint32_t last_label_stmt;
    GArray *init;            /* initializer items being built */
    GArray *targets;         /* symbol ids for .branchtargets/.calltargets */
    uint32_t loc_file, loc_line;
    bool in_body;
    uint64_t perf_vals[3];
    uint64_t dims[4];
    uint32_t ndims;
} ptx_builder;

/* lexer support */
void builder_advance(ptx_builder *b, PTX_YYLTYPE *loc, const char *text, int len);
int builder_lex_error(ptx_builder *b, PTX_YYLTYPE *loc, const char *msg);
int builder_bad_char(ptx_builder *b, PTX_YYLTYPE *loc, unsigned char c);
int builder_directive(ptx_builder *b, PTX_YYSTYPE *val, PTX_YYLTYPE *loc,
                      const char *text, int len);
int builder_int(ptx_builder *b, PTX_YYSTYPE *val, PTX_YYLTYPE *loc,
                const char *text, int len, int base);
void builder_section_begin(ptx_builder *b, const char *text, int len);
void builder_section_text(ptx_builder *b, const char *text, int len);

/* errors: the first one wins; later calls are ignored */
void builder_error(ptx_builder *b, const PTX_YYLTYPE *loc, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
static inline bool builder_failed(const ptx_builder *b) { return b->error != NULL; }

/* module level */
void builder_version(ptx_builder *b, ptx_strref text, const PTX_YYLTYPE *loc);
void builder_target(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
/* After the last item: a module must have a .target (PTX ISA 11.1). */
void builder_module_end(ptx_builder *b, const PTX_YYLTYPE *version_loc);
void builder_address_size(ptx_builder *b, uint64_t n, const PTX_YYLTYPE *loc);
void builder_file(ptx_builder *b, uint64_t idx, ptx_strref path, const char *extra);
void builder_section(ptx_builder *b);
void builder_module_pragma(ptx_builder *b, ptx_strref s);
void builder_alias(ptx_builder *b, ptx_strref alias, ptx_strref target,
                   const PTX_YYLTYPE *loc);

/* declarations */
void builder_attr_link(ptx_builder *b, int flag);
void builder_attr_space(ptx_builder *b, int space, const PTX_YYLTYPE *loc);
void builder_attr_type(ptx_builder *b, int type, const PTX_YYLTYPE *loc);
void builder_attr_vec(ptx_builder *b, int vec);
void builder_attr_align(ptx_builder *b, uint64_t align, const PTX_YYLTYPE *loc);
void builder_attr_ptr(ptx_builder *b);
void builder_attr_attribute(ptx_builder *b, ptx_strref s);
/* one declared name; dims/range from the builder's pending dims */
void builder_decl_name(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc,
                       int64_t range, bool has_init);
void builder_decl_dim(ptx_builder *b, uint64_t n, const PTX_YYLTYPE *loc);
void builder_decl_end(ptx_builder *b);
/* a / b or a % b of signed 64-bit constants; false (reported) on b == 0. */
bool builder_const_div(ptx_builder *b, uint64_t a, uint64_t d, bool rem, uint64_t *out,
                       const PTX_YYLTYPE *loc);
void builder_init_item(ptx_builder *b, ptx_init_kind kind, int64_t val);
void builder_init_kv(ptx_builder *b, ptx_strref key, ptx_strref value);
void builder_init_kv_int(ptx_builder *b, ptx_strref key, uint64_t value);
void builder_init_sym(ptx_builder *b, ptx_strref name, int64_t off, bool generic,
                      const PTX_YYLTYPE *loc);

/* functions */
void builder_func_begin(ptx_builder *b, bool entry, const PTX_YYLTYPE *loc);
void builder_func_name(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
void builder_param_mode(ptx_builder *b, ptx_param_mode mode);
void builder_param(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
void builder_func_noreturn(ptx_builder *b);
void builder_func_perf(ptx_builder *b, ptx_strref dir, const uint64_t *v, int n,
                       const PTX_YYLTYPE *loc);
void builder_func_pragma(ptx_builder *b, ptx_strref s);
void builder_body_begin(ptx_builder *b);
void builder_func_end(ptx_builder *b, bool has_body, const PTX_YYLTYPE *loc);

/* statements */
void builder_scope_push(ptx_builder *b);
void builder_scope_pop(ptx_builder *b);
void builder_label(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
void builder_loc(ptx_builder *b, const uint64_t *v, ptx_strref fname,
                 const uint64_t *inl, bool has_inlined);
void builder_stmt_pragma(ptx_builder *b, ptx_strref s);
void builder_proto_begin(ptx_builder *b, const PTX_YYLTYPE *loc);
void builder_proto_end(ptx_builder *b, bool noreturn);
void builder_targets_begin(ptx_builder *b);
void builder_target_name(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
void builder_targets_end(ptx_builder *b, bool calls, const PTX_YYLTYPE *loc);

/* instructions */
void builder_guard(ptx_builder *b, ptx_strref reg, bool neg, const PTX_YYLTYPE *loc);
void builder_instr_begin(ptx_builder *b, ptx_strref op, const PTX_YYLTYPE *loc);
void builder_instr_end(ptx_builder *b, const PTX_YYLTYPE *loc);
void builder_push(ptx_builder *b, const ptx_operand *o);
uint32_t builder_list_begin(ptx_builder *b);
ptx_operand builder_list_end(ptx_builder *b, uint32_t start, ptx_operand_kind kind);
ptx_operand builder_addrlist(ptx_builder *b, uint32_t start, const ptx_operand *first,
                             const PTX_YYLTYPE *loc);
ptx_operand builder_reg(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
ptx_operand builder_pair(ptx_builder *b, ptx_strref p, ptx_strref q,
                         const PTX_YYLTYPE *loc);
ptx_operand builder_sym(ptx_builder *b, ptx_strref name, const PTX_YYLTYPE *loc);
ptx_operand builder_imm(uint64_t v);
ptx_operand builder_fimm(ptx_operand_kind kind, uint64_t bits);
ptx_operand builder_float_text(ptx_builder *b, ptx_strref text, bool neg,
                               const PTX_YYLTYPE *loc);
ptx_operand builder_addr(ptx_builder *b, const ptx_operand *base, int64_t off,
                         const PTX_YYLTYPE *loc);
ptx_operand builder_sink(void);

#endif
