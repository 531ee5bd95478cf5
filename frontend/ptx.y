/* frontend/ptx.y — PTX grammar (ISA 1.4 … 9.0).
 * The grammar only recognises shapes; names, types, modifiers and operand
 * shapes are checked by the builder (frontend/builder.c) against the opcode
 * table in isa/, so errors name what was expected. */
%define api.pure full
%define api.prefix {ptx_yy}
%define parse.error detailed
%locations
%lex-param {void *scanner}
%parse-param {void *scanner} {ptx_builder *b}

%code requires {
#include "frontend/builder.h"
}

%code {
/* the sink `_` as one half of a p|q destination */
#define SINK_NAME ((ptx_strref){"_", 1})
int ptx_yylex(PTX_YYSTYPE *lval, PTX_YYLTYPE *lloc, void *scanner);
static void ptx_yyerror(PTX_YYLTYPE *loc, void *scanner, ptx_builder *b,
                        const char *msg)
{
    (void)scanner;
    /* bison's stack is full only on absurd nesting ({{{...), never on
     * ordinary input: say so instead of "memory exhausted" */
    if (strcmp(msg, "memory exhausted") == 0)
        builder_error(b, loc, "nesting too deep (the parser's stack is exhausted)");
    else if (b->fn && strstr(msg, "end of file"))
        builder_error(b, loc, "%s inside function '%s'", msg, b->fn->name ? b->fn->name : "?");
    else
        builder_error(b, loc, "%s", msg);
}
/* Elements of {..}, (..) and [..] lists are plain operands; only an
 * address list [tex, {coords}] holds vectors. */
static bool flat_list(ptx_builder *b, uint32_t start, ptx_operand_kind kind,
                      const PTX_YYLTYPE *loc)
{
    for (guint i = start; i < b->stack->len; i++) {
        uint8_t k = g_array_index(b->stack, ptx_operand, i).kind;
        if (k == PTX_OPND_LIST || k == PTX_OPND_ADDRLIST || k == PTX_OPND_ADDR ||
            (k == PTX_OPND_VEC && kind != PTX_OPND_ADDRLIST)) {
            builder_error(b, loc, "%s cannot contain %s",
                          kind == PTX_OPND_VEC ? "a vector operand {..}"
                          : kind == PTX_OPND_LIST ? "an argument list (..)"
                                                  : "an address list [..]",
                          k == PTX_OPND_VEC ? "a vector {..}"
                          : k == PTX_OPND_LIST ? "a list (..)" : "an address [..]");
            return false;
        }
    }
    return true;
}
/* Stop at the first error the builder recorded. */
#define CHECK() do { if (builder_failed(b)) YYABORT; } while (0)
}

/* The strings name the tokens in syntax errors ("unexpected instruction,
 * expecting ';'"). */
%token <str> IDENT "identifier" REGNAME "register" REGCOMP "register component"
%token <str> OPCODE "instruction" STRING "string" ATTRIBUTE ".attribute"
%token <str> FLOATLIT "decimal number"
%token <u> INTLIT "integer" F32LIT "0f literal" F64LIT "0d literal"
%token <i> DIR_SPACE "state space" DIR_TYPE "type" DIR_VEC "vector size"
%token <i> DIR_LINK "linkage directive"
%token <str> DIR_PERF "performance directive"
%token DIR_VERSION ".version" DIR_TARGET ".target" DIR_ADDRSIZE ".address_size"
%token DIR_ENTRY ".entry" DIR_FUNC ".func" DIR_FILE ".file" DIR_LOC ".loc"
%token DIR_PRAGMA ".pragma" DIR_CALLPROTOTYPE ".callprototype"
%token DIR_CALLTARGETS ".calltargets" DIR_BRANCHTARGETS ".branchtargets"
%token DIR_NORETURN ".noreturn" DIR_ALIGN ".align" DIR_PTR ".ptr" DIR_ALIAS ".alias"
%token SECTION ".section" LEXERROR "invalid token"

%type <opnd> operand imm addr_base addr
%type <u> lb cexpr cterm cfactor
%type <str> name regref
%type <i> int_list_n

%%

/* PTX ISA §11.1: every module starts with .version. */
module: version items             { builder_module_end(b, &@1); CHECK(); } ;
version: DIR_VERSION FLOATLIT      { builder_version(b, $2, &@2); CHECK(); }
    | DIR_VERSION INTLIT           { builder_error(b, &@2, ".version needs MAJOR.MINOR, such as 8.0");
                                     YYABORT; }
    ;
items: %empty | items item ;

item: DIR_VERSION                  { builder_error(b, &@1, "duplicate .version directive");
                                     YYABORT; }
    | DIR_TARGET target_list
    | DIR_ADDRSIZE INTLIT          { builder_address_size(b, $2, &@2); CHECK(); }
    | DIR_FILE INTLIT STRING       { builder_file(b, $2, $3, NULL); }
    | DIR_FILE INTLIT STRING ',' INTLIT ',' INTLIT
                                   { char x[64]; g_snprintf(x, sizeof x, "%llu, %llu",
                                       (unsigned long long)$5, (unsigned long long)$7);
                                     builder_file(b, $2, $3, x); }
    | SECTION                      { builder_section(b); }
    | DIR_PRAGMA STRING ';'        { builder_module_pragma(b, $2); }
    | DIR_ALIAS IDENT ',' IDENT ';' { builder_alias(b, $2, $4, &@2); CHECK(); }
    | decl_words var_list ';'      { builder_decl_end(b); CHECK(); }
    | function
    | instruction ';'              /* reported by builder_instr_begin */
    | LEXERROR                     { YYABORT; }
    ;

target_list: IDENT                 { builder_target(b, $1, &@1); CHECK(); }
    | target_list ',' IDENT        { builder_target(b, $3, &@3); CHECK(); }
    ;

/* ---- declarations ---- */
decl_words: decl_word | decl_words decl_word ;
decl_word: DIR_LINK                { builder_attr_link(b, $1); }
    | DIR_SPACE                    { builder_attr_space(b, $1, &@1); CHECK(); }
    | DIR_TYPE                     { builder_attr_type(b, $1, &@1); CHECK(); }
    | DIR_VEC                      { builder_attr_vec(b, $1); }
    | DIR_ALIGN INTLIT             { builder_attr_align(b, $2, &@2); CHECK(); }
    | DIR_PTR                      { builder_attr_ptr(b); }
    | ATTRIBUTE                    { builder_attr_attribute(b, $1); }
    ;

var_list: var_decl | var_list ',' var_decl ;
var_decl: name dims                { builder_decl_name(b, $1, &@1, -1, false); CHECK(); }
    | name dims '=' init_val       { builder_decl_name(b, $1, &@1, -1, true); CHECK(); }
    | name '<' INTLIT '>'          { builder_decl_name(b, $1, &@1, (int64_t)$3, false); CHECK(); }
    ;
name: IDENT | REGNAME | '_'        { $$.s = "_"; $$.len = 1; } ;
dims: %empty | dims '[' INTLIT ']' { builder_decl_dim(b, $3, &@3); CHECK(); }
    | dims '[' ']'                 { builder_decl_dim(b, 0, &@2); CHECK(); }
    ;

init_val: init_scalar
    | '{'                          { builder_init_item(b, PTX_INIT_OPEN, 0); }
      init_list '}'                { builder_init_item(b, PTX_INIT_CLOSE, 0); }
    ;
init_list: init_val | init_list ',' init_val
    | IDENT '=' IDENT              { builder_init_kv(b, $1, $3); }
    | init_list ',' IDENT '=' IDENT { builder_init_kv(b, $3, $5); }
    | IDENT '=' INTLIT             { builder_init_kv_int(b, $1, $3); }
    | init_list ',' IDENT '=' INTLIT { builder_init_kv_int(b, $3, $5); }
    ;
init_scalar: cexpr                 { builder_init_item(b, PTX_INIT_INT, (int64_t)$1); }
    | F32LIT                       { builder_init_item(b, PTX_INIT_F32, (int64_t)$1); }
    | F64LIT                       { builder_init_item(b, PTX_INIT_F64, (int64_t)$1); }
    | FLOATLIT                     { ptx_operand o = builder_float_text(b, $1, false, &@1); CHECK();
                                     builder_init_item(b, PTX_INIT_F64, o.val); }
    | '-' FLOATLIT                 { ptx_operand o = builder_float_text(b, $2, true, &@2); CHECK();
                                     builder_init_item(b, PTX_INIT_F64, o.val); }
    | IDENT                        { builder_init_sym(b, $1, 0, false, &@1); CHECK(); }
    | IDENT '+' INTLIT             { builder_init_sym(b, $1, (int64_t)$3, false, &@1); CHECK(); }
    | IDENT '(' IDENT ')'          { if ($1.len != 7 || memcmp($1.s, "generic", 7)) {
                                         builder_error(b, &@1, "expected 'generic' in initializer"); YYABORT; }
                                     builder_init_sym(b, $3, 0, true, &@3); CHECK(); }
    | IDENT '(' IDENT ')' '+' INTLIT
                                   { if ($1.len != 7 || memcmp($1.s, "generic", 7)) {
                                         builder_error(b, &@1, "expected 'generic' in initializer"); YYABORT; }
                                     builder_init_sym(b, $3, (int64_t)$6, true, &@3); CHECK(); }
    ;

/* Integer constant expressions (PTX ISA 4.6.1): 64-bit two's complement,
 * the usual precedence; `= (1)` and `= 1+2` are valid initializers. */
cexpr: cterm
    | cexpr '+' cterm              { $$ = $1 + $3; }
    | cexpr '-' cterm              { $$ = $1 - $3; }
    ;
cterm: cfactor
    | cterm '*' cfactor            { $$ = $1 * $3; }
    | cterm '/' cfactor            { if (!builder_const_div(b, $1, $3, false, &$$, &@2)) YYABORT; }
    | cterm '%' cfactor            { if (!builder_const_div(b, $1, $3, true, &$$, &@2)) YYABORT; }
    ;
cfactor: INTLIT
    | '-' cfactor                  { $$ = 0 - $2; /* mod 2^64 */ }
    | '~' cfactor                  { $$ = ~$2; }
    | '(' cexpr ')'                { $$ = $2; }
    ;

/* ---- functions ---- */
function: entry_head func_attrs func_body
    | func_head func_attrs func_body
    ;
entry_head: DIR_ENTRY              { builder_func_begin(b, true, &@1); CHECK(); }
      IDENT                        { builder_func_name(b, $3, &@3); CHECK(); }
      param_block_opt
    | decl_words DIR_ENTRY         { builder_func_begin(b, true, &@2); CHECK(); }
      IDENT                        { builder_func_name(b, $4, &@4); CHECK(); }
      param_block_opt
    ;
func_head: func_kw ret_block_opt IDENT
                                   { builder_func_name(b, $3, &@3); CHECK(); }
      param_block_opt
    ;
func_kw: DIR_FUNC                  { builder_func_begin(b, false, &@1); CHECK(); }
    | decl_words DIR_FUNC          { builder_func_begin(b, false, &@2); CHECK(); }
    ;
ret_block_opt: %empty
    | '('                          { builder_param_mode(b, PARAMS_RETS); }
      param_list ')'               { builder_param_mode(b, PARAMS_FUNC); }
    ;
param_block_opt: %empty | '(' ')' | '(' param_list ')' ;
param_list: param | param_list ',' param ;
param: decl_words name dims        { builder_param(b, $2, &@2); CHECK(); } ;

func_attrs: %empty | func_attrs func_attr ;
func_attr: DIR_NORETURN            { builder_func_noreturn(b); }
    | DIR_PERF                     { builder_func_perf(b, $1, NULL, 0, &@1); CHECK(); }
    | DIR_PERF int_list_n          { builder_func_perf(b, $1, b->perf_vals, $2, &@1); CHECK(); }
    | DIR_PRAGMA STRING ';'        { builder_func_pragma(b, $2); }
    ;
int_list_n: INTLIT                 { b->perf_vals[0] = $1; $$ = 1; }
    | int_list_n ',' INTLIT        { if ($1 < 3) b->perf_vals[$1] = $3; $$ = $1 + 1; }
    ;

func_body: ';'                     { builder_func_end(b, false, &@1); CHECK(); }
    | '{'                          { builder_body_begin(b); }
      stmts '}'                    { builder_func_end(b, true, &@4); CHECK(); }
    ;

stmts: %empty | stmts stmt ;
stmt: decl_words var_list ';'      { builder_decl_end(b); CHECK(); }
    | IDENT ':'                    { builder_label(b, $1, &@1); CHECK(); }
    | instruction ';'
    | '{'                          { builder_scope_push(b); }
      stmts '}'                    { builder_scope_pop(b); }
    | DIR_LOC INTLIT INTLIT INTLIT { uint64_t v[3] = {$2, $3, $4};
                                     ptx_strref none = {NULL, 0};
                                     builder_loc(b, v, none, NULL, false); }
    | DIR_LOC INTLIT INTLIT INTLIT ',' IDENT IDENT ',' IDENT INTLIT INTLIT INTLIT
                                   { uint64_t v[3] = {$2, $3, $4}, w[4] = {$10, $11, $12, 0};
                                     builder_loc(b, v, $7, w, true); }
    | DIR_LOC INTLIT INTLIT INTLIT ',' IDENT IDENT '+' INTLIT ',' IDENT INTLIT INTLIT INTLIT
                                   { uint64_t v[3] = {$2, $3, $4}, w[4] = {$12, $13, $14, $9};
                                     builder_loc(b, v, $7, w, true); }
    | DIR_PRAGMA STRING ';'        { builder_stmt_pragma(b, $2); }
    | DIR_CALLPROTOTYPE            { builder_proto_begin(b, &@1); CHECK(); }
      proto_sig func_attrs_proto ';'
    | DIR_BRANCHTARGETS            { builder_targets_begin(b); }
      target_names ';'             { builder_targets_end(b, false, &@1); CHECK(); }
    | DIR_CALLTARGETS              { builder_targets_begin(b); }
      target_names ';'             { builder_targets_end(b, true, &@1); CHECK(); }
    | LEXERROR                     { YYABORT; }
    ;
proto_sig: proto_rets '_'          { builder_param_mode(b, PARAMS_PROTO); }
      param_block_opt
    ;
proto_rets: %empty
    | '(' ')'
    | '('                          { builder_param_mode(b, PARAMS_PROTO_RETS); }
      param_list ')'
    ;
func_attrs_proto: %empty           { builder_proto_end(b, false); }
    | DIR_NORETURN                 { builder_proto_end(b, true); }
    ;
target_names: IDENT                { builder_target_name(b, $1, &@1); CHECK(); }
    | target_names ',' IDENT       { builder_target_name(b, $3, &@3); CHECK(); }
    ;

/* ---- instructions ---- */
instruction: opcode operands_opt   { builder_instr_end(b, &@$); CHECK(); }
    | guard opcode operands_opt    { builder_instr_end(b, &@$); CHECK(); }
    ;
guard: '@' regref                  { builder_guard(b, $2, false, &@2); CHECK(); }
    | '@' '!' regref               { builder_guard(b, $3, true, &@3); CHECK(); }
    ;
/* a register where only a register may stand: '%'-names and the plain
 * identifiers PTX also allows (`.reg .pred p; @p ...`, `d|p`) */
regref: REGNAME | IDENT ;
opcode: OPCODE                     { builder_instr_begin(b, $1, &@1); CHECK(); }
    | IDENT                        { builder_instr_begin(b, $1, &@1); CHECK(); }
    ;
operands_opt: %empty | operand_list ;
operand_list: operand              { builder_push(b, &$1); }
    | operand_list ',' operand     { builder_push(b, &$3); }
    ;

lb: %empty                         { $$ = builder_list_begin(b); } ;

operand: REGNAME                   { $$ = builder_reg(b, $1, &@1); CHECK(); }
    | REGCOMP                      { $$ = builder_reg(b, $1, &@1); CHECK(); }
    | '!' REGNAME                  { $$ = builder_reg(b, $2, &@2); CHECK();
                                     $$.flags |= PTX_OPNDF_NOT; }
    | regref '|' regref            { $$ = builder_pair(b, $1, $3, &@1); CHECK(); }
    | regref '|' '_'               { $$ = builder_pair(b, $1, SINK_NAME, &@1); CHECK(); }
    | '_' '|' regref               { $$ = builder_pair(b, SINK_NAME, $3, &@3); CHECK(); }
    | IDENT                        { $$ = builder_sym(b, $1, &@1); CHECK(); }
    | IDENT '+' INTLIT             { $$ = builder_sym(b, $1, &@1); CHECK(); $$.val = (int64_t)$3; }
    | '_'                          { $$ = builder_sink(); }
    | imm
    | '{' lb elem_list '}'         { if (!flat_list(b, (uint32_t)$2, PTX_OPND_VEC, &@1)) YYABORT;
                                     $$ = builder_list_end(b, (uint32_t)$2, PTX_OPND_VEC); }
    | '(' lb ')'                   { $$ = builder_list_end(b, (uint32_t)$2, PTX_OPND_LIST); }
    | '(' lb elem_list ')'         { if (!flat_list(b, (uint32_t)$2, PTX_OPND_LIST, &@1)) YYABORT;
                                     $$ = builder_list_end(b, (uint32_t)$2, PTX_OPND_LIST); }
    | '[' lb addr ']'              { $$ = $3; }
    | '[' lb addr ',' elem_list ']'
                                   { if (!flat_list(b, (uint32_t)$2, PTX_OPND_ADDRLIST, &@1)) YYABORT;
                                     $$ = builder_addrlist(b, (uint32_t)$2, &$3, &@3); CHECK(); }
    ;
elem_list: operand                 { builder_push(b, &$1); }
    | elem_list ',' operand        { builder_push(b, &$3); }
    ;
imm: INTLIT                        { $$ = builder_imm($1); }
    | '-' INTLIT                   { $$ = builder_imm(0 - $2); /* mod 2^64: -INT64_MIN is UB */ }
    | F32LIT                       { $$ = builder_fimm(PTX_OPND_FIMM32, $1); }
    | F64LIT                       { $$ = builder_fimm(PTX_OPND_FIMM64, $1); }
    | FLOATLIT                     { $$ = builder_float_text(b, $1, false, &@1); CHECK(); }
    | '-' FLOATLIT                 { $$ = builder_float_text(b, $2, true, &@2); CHECK(); }
    ;
addr_base: REGNAME                 { $$ = builder_reg(b, $1, &@1); CHECK(); }
    | IDENT                        { $$ = builder_sym(b, $1, &@1); CHECK(); }
    ;
addr: addr_base                    { $$ = builder_addr(b, &$1, 0, &@1); CHECK(); }
    | addr_base '+' INTLIT         { $$ = builder_addr(b, &$1, (int64_t)$3, &@1); CHECK(); }
    | addr_base '+' '-' INTLIT     { $$ = builder_addr(b, &$1, (int64_t)(0 - $4), &@1); CHECK(); }
    | addr_base '-' INTLIT         { $$ = builder_addr(b, &$1, (int64_t)(0 - $3), &@1); CHECK(); }
    | INTLIT                       { ptx_operand z = builder_imm($1);
                                     $$ = builder_addr(b, &z, 0, &@1); CHECK(); }
    ;

%%
