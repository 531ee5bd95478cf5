/* tests/frontend/test_errors.c — malformed PTX is rejected with exactly one
 * "PATH:LINE:COL: error: message" naming the right place and the problem:
 * every file of tests/corpus/bad, inline cases for each kind of mistake, and
 * hostile inputs (deep nesting, huge lines, huge literals) that must not
 * crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/parser.h"
#include "tests/support/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
/* a kernel whose body starts on line 5 */
#define KERNEL(body) HDR ".entry k() {\n" body "}\n"

/* Checks the single error of a failed parse: "name:line:col: error: ...",
 * one line, one "error:", containing `phrase`.  col 0 = any column. */
static void check_message(const GError *err, const char *name, int line, int col,
                          const char *phrase)
{
    assert_non_null(err);
    const char *msg = err->message;
    assert_int_equal(err->domain, PTX_PARSE_ERROR);
    assert_int_equal(err->code, PTX_PARSE_ERROR_SYNTAX);
    char *prefix = g_strdup_printf("%s:", name);
    if (!g_str_has_prefix(msg, prefix))
        fail_msg("'%s' does not start with '%s'", msg, prefix);
    const char *p = msg + strlen(prefix);
    g_free(prefix);
    char *end;
    long l = strtol(p, &end, 10);
    assert_true(end > p && *end == ':');
    p = end + 1;
    long c = strtol(p, &end, 10);
    assert_true(end > p && c >= 1);
    if (strncmp(end, ": error: ", 9) != 0)
        fail_msg("no ': error: ' after the location in '%s'", msg);
    if (l != line || (col && c != col))
        fail_msg("'%.300s': expected line %d col %d", msg, line, col);
    assert_null(strchr(msg, '\n'));
    assert_null(strstr(end + 9, "error:"));
    if (!strstr(msg, phrase))
        fail_msg("'%.300s' does not contain '%s'", msg, phrase);
}

static void expect_error_len(const char *text, size_t len, int line, int col,
                             const char *phrase)
{
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(text, len, "t.ptx", &err);
    if (m) {
        ptx_module_free(m);
        fail_msg("parsed without error; expected '%s'", phrase);
    }
    check_message(err, "t.ptx", line, col, phrase);
    g_error_free(err);
}

static void expect_error(const char *text, int line, int col, const char *phrase)
{
    expect_error_len(text, strlen(text), line, col, phrase);
}

static void expect_ok(const char *text)
{
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(text, strlen(text), "t.ptx", &err);
    if (!m)
        fail_msg("%s", err->message);
    ptx_module_free(m);
}

/* ------------------------------------------------------------ corpus/bad */

static const struct {
    const char *file;
    int col;
    const char *phrase;
} bad_files[] = {
    {"bad_modifier_rounding.ptx", 2, "'.rz' (rounding) needs a floating-point type, not '.s32'"},
    {"bad_modifier_space.ptx", 2, "unknown modifier '.globl' in 'ld.globl.u32'"},
    {"duplicate_label.ptx", 1, "duplicate label '$L__dup' (first defined at 19:1)"},
    {"garbage.bin.ptx", 1, "unexpected byte 0x00 (is this a PTX text file?)"},
    {"missing_semicolon.ptx", 2, "unexpected instruction, expecting ';'"},
    {"truncated.ptx", 0, "unexpected end of file inside function 'bad'"},
    {"undeclared_label.ptx", 11, "undefined label or symbol '$L__nowhere'"},
    {"undeclared_register.ptx", 20, "undeclared register '%r8'"},
    {"unknown_directive.ptx", 1, "unknown directive '.foo'"},
    {"unknown_opcode.ptx", 2, "unknown instruction 'foo'"},
    {"unterminated_string.ptx", 9, "unterminated string"},
    {"vector_wrong_size.ptx", 2, "'.v4' needs a vector of 4 values, found 3"},
    {"wrong_operand_count.ptx", 2, "'add' expects 3 operands, found 2"},
};

static void test_bad_corpus(void **state)
{
    (void)state;
    /* the table covers the directory */
    char *dir = test_source_path("tests/corpus/bad");
    GDir *d = g_dir_open(dir, 0, NULL);
    assert_non_null(d);
    unsigned files = 0;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".ptx"))
            continue;
        bool known = false;
        for (size_t i = 0; i < G_N_ELEMENTS(bad_files); i++)
            known = known || strcmp(bad_files[i].file, name) == 0;
        if (!known)
            fail_msg("tests/corpus/bad/%s has no entry in bad_files", name);
        files++;
    }
    g_dir_close(d);
    g_free(dir);
    assert_int_equal(files, G_N_ELEMENTS(bad_files));

    for (size_t i = 0; i < G_N_ELEMENTS(bad_files); i++) {
        char *rel = g_build_filename("tests/corpus/bad", bad_files[i].file, NULL);
        gsize len = 0;
        char *text = test_read_file(rel, &len);
        int line = 0;
        assert_int_equal(sscanf(text, "// expect-error-line: %d", &line), 1);
        /* from memory, named by the relative path */
        GError *err = NULL;
        assert_null(ptx_parse_string(text, len, rel, &err));
        check_message(err, rel, line, bad_files[i].col, bad_files[i].phrase);
        g_error_free(err);
        /* from the file, named by its path */
        char *path = test_source_path(rel);
        err = NULL;
        assert_null(ptx_parse_file(path, &err));
        check_message(err, path, line, bad_files[i].col, bad_files[i].phrase);
        g_error_free(err);
        g_free(path);
        g_free(text);
        g_free(rel);
    }
}

static void test_missing_file(void **state)
{
    (void)state;
    GError *err = NULL;
    assert_null(ptx_parse_file("/nonexistent/x.ptx", &err));
    assert_int_equal(err->code, PTX_PARSE_ERROR_IO);
    assert_true(g_str_has_prefix(err->message, "/nonexistent/x.ptx: error: "));
    g_error_free(err);
}

/* ---------------------------------------------------------- module header */

static void test_header(void **state)
{
    (void)state;
    /* a module starts with .version (PTX ISA: "Each PTX module must begin
     * with a .version directive"), so empty input is not a module */
    expect_error("", 1, 1, "unexpected end of file, expecting .version");
    expect_error("  // just a comment\n/* and another */\n", 2, 0, "expecting .version");
    expect_error(".target sm_80\n.entry k() { ret; }\n", 1, 1,
                 "unexpected .target, expecting .version");
    expect_error("// header\n.entry k() { ret; }\n", 2, 1,
                 "unexpected .entry, expecting .version");
    expect_error(".version 9\n", 1, 10, ".version needs MAJOR.MINOR, such as 8.0");
    expect_error(".version abc\n", 1, 10, "unexpected identifier");
    expect_error(".version 1.5e3\n", 1, 10, "malformed .version '1.5e3'");
    expect_error(".version 8.\n", 1, 10, "malformed .version '8.'");
    expect_error(".version 99.0\n", 1, 10, "unsupported PTX ISA version 99.0");
    expect_error(".version 0.9\n", 1, 10, "unsupported PTX ISA version 0.9");
    expect_error(HDR ".version 8.0\n", 4, 1, "duplicate .version directive");
    expect_error(".version 8.0\n.target sm_80\n.address_size 48\n", 3, 15,
                 ".address_size must be 32 or 64, not 48");
    expect_error(".version 8.0\n.target sm_80\n.address_size sixty\n", 3, 15,
                 "unexpected identifier, expecting integer");
    /* the smallest module: .version and .target (PTX ISA 11.1) */
    expect_ok(".version 1.0\n.target sm_10\n");
    expect_ok(".version 9.0\n.target sm_90a\n.address_size 32\n");
}

/* ----------------------------------------------------------- instructions */

/* Issue 20: invalid PTX that used to pass. */
static void test_targets(void **state)
{
    (void)state;
    expect_error(".version 8.0\n.address_size 64\n", 1, 1, "no .target directive");
    expect_error(".version 8.0\n.target sm_9999\n", 2, 9, "unknown .target 'sm_9999'");
    expect_error(".version 8.0\n.target banana\n", 2, 9, "unknown .target 'banana'");
    expect_error(".version 8.0\n.target sm_80a\n", 2, 9, "unknown .target 'sm_80a'");
    expect_error(".version 8.0\n.target debug\n", 2, 9, "unknown .target 'debug'");
    expect_error(".version 8.0\n.target sm_80, bogus\n", 2, 16, "unknown .target 'bogus'");
    expect_ok(".version 8.0\n.target sm_90a, debug\n");
    expect_ok(".version 8.0\n.target sm_100f\n");
    expect_ok(".version 1.4\n.target sm_13, texmode_independent, map_f64_to_f32\n");
}

/* Register classes against the instruction type (PTX ISA "Type Checking":
 * .b types take any register of their size; .u/.s take .u/.s/.b; .f
 * takes .f/.b; sizes must match). */
static void test_operand_types(void **state)
{
    (void)state;
    const char *regs = ".reg .f32 %f<4>;\n.reg .b64 %rd<4>;\n.reg .u32 %r<4>;\n"
                       ".reg .b32 %b<4>;\n.reg .s64 %sd<4>;\n.reg .pred %p<3>;\n";
    char *t;
#define TYPED(instr, line_col_phrase) \
    t = g_strdup_printf(HDR ".entry k() {\n%s%s\n}\n", regs, instr); line_col_phrase; g_free(t)
    TYPED("add.f32 %f3, %rd2, %f1;",
          expect_error(t, 11, 1, "second operand of 'add.f32' is the .b64 register '%rd2'"));
    TYPED("add.f32 %f3, %r2, %f1;",
          expect_error(t, 11, 1, "the .u32 register '%r2', which does not fit"));
    TYPED("add.u32 %r3, %f2, %r1;", expect_error(t, 11, 1, "the .f32 register '%f2'"));
    TYPED("add.u32 %r3, %sd2, %r1;", expect_error(t, 11, 1, "the .s64 register '%sd2'"));
    TYPED("and.pred %p1, %r1, %p2;", expect_error(t, 11, 1, "the .u32 register '%r1'"));
    TYPED("mov.f64 %rd1, %f1;", expect_error(t, 11, 1, "the .f32 register '%f1'"));
    /* the relaxed rules stay legal */
    TYPED("add.f32 %f3, %b2, %f1;", expect_ok(t));
    TYPED("add.s32 %r3, %r2, %b1;", expect_ok(t));
    TYPED("mov.b32 %f1, %r1;", expect_ok(t));
    TYPED("mov.b64 %rd1, %sd1;", expect_ok(t));
    TYPED("setp.lt.f32 %p1, %f1, %b2;", expect_ok(t));
    TYPED("selp.u32 %r1, %r2, %b3, %p1;", expect_ok(t));
    TYPED("mul.wide.u32 %rd1, %r1, %r2;", expect_ok(t));
    /* f32 immediates: a decimal literal that overflows, or one beyond FLT_MAX */
    TYPED("add.f32 %f3, %f1, 1e99999999999;",
          expect_error(t, 11, 19, "floating-point literal '1e99999999999' is out of range"));
    TYPED("add.f32 %f3, %f1, 1e39;", expect_error(t, 11, 1, "out of range for .f32"));
    TYPED("add.f64 %rd3, %rd1, 1e39;", expect_ok(t));
    /* labels are not data */
    TYPED("L1:\nmov.u32 %r1, L1;", expect_error(t, 12, 1, "is the label 'L1', which is not data"));
    TYPED("mov.u32 %r1, L2;\nL2:\nret;", expect_error(t, 11, 1, "names 'L2', which is not a declared"));
    TYPED("L1:\nld.global.u32 %r1, [L1];", expect_error(t, 12, 1, "['L1'] of 'ld' names a label"));
#undef TYPED
}

/* Array sizes are computed in 64 bits (2^32-byte and 2^46-byte arrays used
 * to wrap to small sizes). */
static void test_array_sizes(void **state)
{
    (void)state;
    expect_error(HDR ".shared .b8 s[4294967297];\n", 4, 13, "array 's' is too large");
    expect_error(HDR ".global .b32 g[2000000000000000000];\n", 4, 14, "array 'g' is too large");
    expect_error(HDR ".global .b64 g[65536][65536][65536][65536];\n", 4, 14, "too large");
    expect_error(HDR ".entry k(.param .b8 p[8589934592]) { ret; }\n", 4, 21, "array 'p'");
    expect_ok(HDR ".global .b8 g[99999999999999];\n");
    /* one .shared variable: at most the loader's limit, 228 KiB (which
     * check and run refused while parse and phases accepted 4 GiB) */
    expect_error(HDR ".shared .b8 s[4294967296];\n", 4, 13,
                 "array 's' is too large: more than 233472 bytes in shared");
    expect_error(HDR ".shared .b8 s[233473];\n", 4, 13, "more than 233472 bytes in shared");
    expect_error(HDR ".shared .v4 .f32 s[14593];\n", 4, 18, "more than 233472 bytes");
    expect_ok(HDR ".shared .b8 s[233472];\n");
    expect_ok(HDR ".shared .v4 .f32 s[14592];\n");
    expect_ok(HDR ".extern .shared .align 16 .b8 dyn[];\n");
}

/* Integer constant expressions in initializers (PTX ISA 4.6.1). */
/* Names echoed in messages are cut at 64 bytes with an ellipsis. */
static void test_long_names(void **state)
{
    (void)state;
    GString *s = g_string_new(HDR ".entry k() {\n.reg .u32 %r<2>;\nmov.u32 %r1, %");
    for (int i = 0; i < 100000; i++)
        g_string_append_c(s, 'A');
    g_string_append(s, ";\n}\n");
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(s->str, s->len, "t.ptx", &err);
    assert_null(m);
    assert_non_null(strstr(err->message, "AAAA...'"));
    assert_true(strlen(err->message) < 200);
    g_error_free(err);
    g_string_free(s, TRUE);
}

static void test_const_expr_init(void **state)
{
    (void)state;
    GError *err = NULL;
    const char *src = HDR ".global .s32 g[6] = {(1), 1+2, 2*3-1, -(4), 7/2, (~0) % 5};\n";
    ptx_module *m = ptx_parse_string(src, strlen(src), "t.ptx", &err);
    if (!m)
        fail_msg("%s", err->message);
    const ptx_var *v = ptx_module_var(m, 0);
    const int64_t want[] = {1, 3, 5, -4, 3, -1};
    unsigned k = 0;
    for (guint i = 0; i < v->init->len; i++) {
        const ptx_init *it = &g_array_index(v->init, ptx_init, i);
        if (it->kind != PTX_INIT_INT)
            continue;
        assert_true(k < 6);
        assert_int_equal(it->val, want[k]);
        k++;
    }
    assert_int_equal(k, 6);
    ptx_module_free(m);
    expect_ok(HDR ".global .u32 x = (1);\n");
    expect_error(HDR ".global .u32 x = 1/0;\n", 4, 19, "division by zero");
}

static void test_instructions(void **state)
{
    (void)state;
    expect_error(KERNEL(".reg .f32 %f<2>;\ncvt.f32 %f1, %f0;\nret;\n"), 6, 1,
                 "'cvt' needs 2 to 4 type modifiers, found 1");
    expect_error(KERNEL(".reg .b32 %r<2>;\nmul %r1, %r0, %r0;\n"), 6, 1,
                 "'mul' needs 1 type modifier (such as .u32), found 0");
    /* add/sub take a second type in the mixed-precision .f32.f16 forms */
    expect_error(KERNEL(".reg .b32 %r<2>;\nadd %r1, %r0, %r0;\n"), 6, 1,
                 "'add' needs 1 to 2 type modifiers, found 0");
    expect_error(KERNEL(".reg .u32 %r<2>;\nld.global.u32 %r1, %r0;\n"), 6, 1,
                 "the second operand of 'ld' must be a memory address [..]");
    expect_error(KERNEL(".reg .u32 %r<2>;\nld.global.u32 %r1;\n"), 6, 1,
                 "'ld' expects at least 2 operands, found 1");
    expect_error(KERNEL(".reg .u32 %r<2>;\nst.global.u32 %r1, %r0;\n"), 6, 1,
                 "the first operand of 'st' must be a memory address [..]");
    expect_error(KERNEL(".reg .u32 %r<2>;\n@%r1 bra L;\nL: ret;\n"), 6, 2,
                 "a guard must be a .pred register, '%r1' is not");
    expect_error(KERNEL(".reg .pred %p;\n@%q bra L;\nL: ret;\n"), 6, 2,
                 "undeclared register '%q'");
    expect_error(KERNEL("bra L_missing;\nret;\n"), 5, 5,
                 "undefined label or symbol 'L_missing'");
    expect_error(KERNEL(".reg .b32 %r<2>;\nmov.u32 %r1, %tid;\n"), 6, 14,
                 "special register '%tid' needs a component (.x, .y or .z)");
    expect_error(KERNEL(".reg .b32 %r<2>;\nmov.u32 %r1, %laneid.x;\n"), 6, 14,
                 "special register '%laneid' has no components");
    expect_error(KERNEL(".reg .b32 %r<2>;\nadd.s32 %r1, [%r0], 1;\n"), 6, 1,
                 "the second operand of 'add' must be a register, immediate or symbol");
    expect_error(KERNEL(".reg .b32 %r<2>;\nmov.b32 !%r1, %r0;\n"), 6, 1,
                 "the first operand of 'mov' must be a destination register");
    expect_error(KERNEL(".reg .b32 %r<2>;\nbra %r1;\n"), 6, 1,
                 "the first operand of 'bra' must be a label");
    expect_error(KERNEL(".reg .b32 %r<4>;\nld.global.v2.u32 {%r1, %r2, %r3}, [%r0];\n"), 6, 1,
                 "'.v2' needs a vector of 2 values, found 3");
    expect_error(KERNEL(".reg .b32 %r<4>;\nld.global.u32 {%r1, %r2}, [%r0];\n"), 6, 1,
                 "a vector operand needs a .v2/.v4 modifier");
    expect_error(KERNEL(".reg .f32 %f<4>;\nmul.wide.f32 %f1, %f2, %f3;\n"), 6, 1,
                 "'.wide' needs an integer type, not '.f32'");
    expect_error(KERNEL("bar.sync.ftz 0;\n"), 5, 1,
                 "'bar' does not take the");
    /* at most 16 modifiers, even where any spelling is accepted */
    expect_error(KERNEL("ret.zz;\n"), 5, 1, "unknown modifier '.zz' in 'ret.zz'");
    expect_error(KERNEL("fence.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q;\n"), 5, 1,
                 "too many modifiers on 'fence.a.b");
    /* a missing ';' is reported at the next token */
    expect_error(KERNEL(".reg .b32 %r<2>;\nmov.b32 %r1, 0\nret;\n"), 7, 1,
                 "unexpected identifier, expecting ';'");
    /* nested aggregates are not operands */
    expect_error(KERNEL(".reg .b32 %r<3>;\nmov.b32 %r1, {{%r2}};\nret;\n"), 6, 14,
                 "a vector operand {..} cannot contain a vector {..}");
    expect_error(KERNEL(".reg .b32 %r<3>;\nmov.b32 %r1, {[%r2]};\nret;\n"), 6, 14,
                 "a vector operand {..} cannot contain an address [..]");
    expect_error(HDR ".func f(.param .b32 a)\n{\nret;\n}\n"
                     ".entry k()\n{\n.param .b32 p;\ncall f, ((p));\nret;\n}\n",
                 11, 9, "an argument list (..) cannot contain a list (..)");
}

/* ----------------------------------------------------------- declarations */

static void test_declarations(void **state)
{
    (void)state;
    expect_error(KERNEL(".reg .u32 %r<2>;\n.reg .u32 %r<3>;\nret;\n"), 6, 11,
                 "register '%r' is already declared in this scope");
    expect_error(KERNEL(".reg .u32 %a;\n.reg .b32 %a;\nret;\n"), 6, 11,
                 "'%a' is already declared in this scope");
    expect_error(KERNEL(".reg .u32 %a, %b, %a;\nret;\n"), 5, 19,
                 "'%a' is already declared in this scope");
    /* an inner scope may re-declare; the same scope may not */
    expect_ok(KERNEL(".reg .u32 %a;\n{\n.reg .u32 %a;\n}\nret;\n"));
    expect_error(KERNEL(".reg %a;\nret;\n"), 5, 6, "declaration of '%a' needs a type");
    expect_error(KERNEL(".reg .u32 .f32 %a;\nret;\n"), 5, 11,
                 "a declaration takes one type, found '.f32' after '.u32'");
    expect_error(KERNEL(".reg .u32 %a[4];\nret;\n"), 5, 11,
                 "register '%a' cannot be an array or have an initializer");
    expect_error(HDR ".global .u32 g<4>;\n", 4, 14, "ranges are only for .reg declarations");
    expect_error(HDR ".reg .u32 %r;\n", 4, 11, ".reg declarations belong inside a function body");
    expect_error(HDR ".global .u32 g;\n.global .u32 g;\n", 5, 14, "'g' is already declared at 4:14");
    expect_error(HDR ".global .u32 g = h;\n", 4, 18, "undefined symbol 'h' in initializer");
    expect_error(HDR ".global .align 3 .u32 g;\n", 4, 16, ".align must be a power of two, not 3");
    expect_error(HDR ".global .u32 g[1][2][3][4][5];\n", 4, 28, "arrays have at most 4 dimensions");
    expect_error(HDR ".entry k() { ret; }\n.entry k() { ret; }\n", 5, 19,
                 "function 'k' is defined twice (first at 4:1)");
    expect_error(HDR ".global .u32 k;\n.entry k() { ret; }\n", 5, 8,
                 "'k' is already declared at 4:14 as a variable");
    expect_error(HDR ".entry k(.param a) { ret; }\n", 4, 17, "parameter 'a' needs a type");
    expect_error(HDR ".entry k(.global .u32 a) { ret; }\n", 4, 23,
                 "parameter 'a' must be declared .param or .reg");
    expect_error(KERNEL(".callprototype _ (.param .b32 _);\nret;\n"), 5, 1,
                 ".callprototype must follow a label");
    expect_error(HDR ".alias a, b;\n", 4, 8, ".alias: 'a' is not a declared function");
}

/* ------------------------------------------------------------------ lexer */

static void test_lexer(void **state)
{
    (void)state;
    expect_error(HDR "add.s32 %r1, %r2, %r3;\n", 4, 1, "instruction outside a function body");
    expect_error(HDR "ret;\n", 4, 1, "instruction outside a function body");
    expect_error(HDR "/* never closed\n.entry k() { ret; }\n", 4, 1, "unterminated comment");
    expect_error(KERNEL("ret; /* open\n"), 5, 6, "unterminated comment");
    expect_error(HDR ".file 1 \"a.cu\n", 4, 9, "unterminated string");
    expect_error(HDR ".section .debug_info {\n.b8 1\n", 4, 0, "unterminated .section block");
    expect_error(HDR ".foo 1;\n", 4, 1, "unknown directive '.foo'");
    expect_error(HDR ".section;\n", 4, 1, "malformed .section: expected '.section NAME {'");
    expect_error(KERNEL("ret;\n#\n"), 6, 1, "unexpected character '#'");
    expect_error_len(KERNEL("ret;\n\x7f\n"), sizeof KERNEL("ret;\n\x7f\n") - 1, 6, 1,
                     "unexpected byte 0x7f");
    /* a NUL inside the text is an error, not the end of the input */
    static const char nul[] = KERNEL("ret;\n\0\n");
    expect_error_len(nul, sizeof nul - 1, 6, 1, "unexpected byte 0x00");
}

/* Integer literals are 64-bit; wider ones are errors, never silently
 * truncated. */
static void test_huge_literals(void **state)
{
    (void)state;
    expect_error(KERNEL(".reg .u64 %r<2>;\nmov.u64 %r1, 123456789012345678901234567890;\n"),
                 6, 14, "integer literal '123456789012345678901234567890' out of range");
    expect_error(KERNEL(".reg .u64 %r<2>;\nmov.u64 %r1, 18446744073709551616;\n"), 6, 14,
                 "integer literal '18446744073709551616' out of range");
    expect_error(KERNEL(".reg .u64 %r<2>;\nmov.u64 %r1, 0x1FFFFFFFFFFFFFFFF;\n"), 6, 14,
                 "integer literal '0x1FFFFFFFFFFFFFFFF' out of range");
    expect_error(KERNEL(".reg .u64 %r<2>;\nmov.u64 %r1, 0b1"
                        "0000000000000000000000000000000000000000000000000000000000000000;\n"),
                 6, 14, "out of range");
    expect_error(KERNEL(".reg .u64 %r<2>;\nmov.u64 %r1, 02000000000000000000000;\n"), 6, 14,
                 "out of range");
    expect_error(HDR ".global .u32 g[99999999999999999999];\n", 4, 16, "out of range");
    /* the largest ones are fine */
    expect_ok(KERNEL(".reg .u64 %r<2>;\nmov.u64 %r1, 18446744073709551615;\n"
                     "mov.u64 %r1, 0xFFFFFFFFFFFFFFFF;\nmov.u64 %r1, 01777777777777777777777;\n"
                     "mov.u64 %r1, -9223372036854775808;\nret;\n"));
}

/* 10000 levels of braces: bison's stack fills up, which must be an error
 * at the right place, not a crash. */
static void test_deep_nesting(void **state)
{
    (void)state;
    enum { DEPTH = 10000 };
    GString *s = g_string_new(HDR ".entry k()\n{\n");
    for (int i = 0; i < DEPTH; i++)
        g_string_append_c(s, '{');
    for (int i = 0; i < DEPTH; i++)
        g_string_append_c(s, '}');
    g_string_append(s, "\nret;\n}\n");
    expect_error(s->str, 6, 0, "nesting too deep");
    g_string_assign(s, HDR ".global .u32 g[1] = ");
    for (int i = 0; i < DEPTH; i++)
        g_string_append_c(s, '{');
    g_string_append(s, "1");
    for (int i = 0; i < DEPTH; i++)
        g_string_append_c(s, '}');
    g_string_append(s, ";\n");
    expect_error(s->str, 4, 0, "nesting too deep");
    g_string_assign(s, HDR ".entry k() {\n.reg .b32 %r<2>;\nmov.b32 %r1, ");
    for (int i = 0; i < DEPTH; i++)
        g_string_append_c(s, '{');
    expect_error(s->str, 6, 0, "nesting too deep");
    /* a depth that fits parses: 100 nested scopes */
    g_string_assign(s, HDR ".entry k()\n{\n");
    for (int i = 0; i < 100; i++)
        g_string_append(s, "{ .reg .b32 %r; mov.b32 %r, 1;\n");
    for (int i = 0; i < 100; i++)
        g_string_append_c(s, '}');
    g_string_append(s, "\nret;\n}\n");
    expect_ok(s->str);
    g_string_free(s, TRUE);
}

/* Multi-megabyte lines and names: positions stay exact, names are never
 * truncated. */
static void test_long_lines(void **state)
{
    (void)state;
    enum { N = 2 * 1024 * 1024 };
    /* a 2 MB comment line; the error on the next line keeps its number */
    GString *s = g_string_new(HDR "// ");
    for (int i = 0; i < N; i++)
        g_string_append_c(s, 'x');
    g_string_append(s, "\n.foo;\n");
    expect_error(s->str, 5, 1, "unknown directive '.foo'");
    /* 100000 instructions on one line; the last one is wrong */
    g_string_assign(s, KERNEL(".reg .b32 %r;\n"));
    g_string_truncate(s, s->len - 2); /* drop "}\n" */
    const char *ins = "add.s32 %r, %r, 1; ";
    for (int i = 0; i < 100000; i++)
        g_string_append(s, ins);
    size_t col = 100000 * strlen(ins) + 1;
    g_string_append(s, "add.s32 %r, %r, %q;\n}\n");
    char phrase[64];
    g_snprintf(phrase, sizeof phrase, "undeclared register '%%q'");
    expect_error(s->str, 6, (int)(col + 16), phrase);
    /* a 100000-character register name that differs in its last character
     * from a declared one */
    g_string_assign(s, KERNEL(".reg .b32 %"));
    g_string_truncate(s, s->len - 2);
    GString *name = g_string_new(NULL);
    for (int i = 0; i < 100000; i++)
        g_string_append_c(name, 'a');
    g_string_append_printf(s, "%sb;\nmov.b32 %%%sc, 1;\n}\n", name->str, name->str);
    expect_error(s->str, 6, 9, "undeclared register '%aaaa");
    /* ... and the same name used correctly */
    g_string_assign(s, KERNEL(""));
    g_string_truncate(s, s->len - 2);
    g_string_append_printf(s, ".reg .b32 %%%s<4>;\nmov.b32 %%%s3, 1;\nret;\n}\n", name->str,
                           name->str);
    expect_ok(s->str);
    /* a 2 MB opcode spelling */
    g_string_assign(s, KERNEL(""));
    g_string_truncate(s, s->len - 2);
    g_string_append(s, "fence");
    for (int i = 0; i < N / 4; i++)
        g_string_append(s, ".sc");
    g_string_append(s, ";\n}\n");
    expect_error(s->str, 5, 1, "too many modifiers");
    g_string_free(name, TRUE);
    g_string_free(s, TRUE);
}

/* The end of the input in the middle of something names what is open. */
static void test_end_of_file(void **state)
{
    (void)state;
    expect_error(HDR ".entry k()\n{\nret;\n", 6, 0,
                 "unexpected end of file inside function 'k'");
    expect_error(HDR ".entry k()\n{\nret", 6, 0, "expecting ';' inside function 'k'");
    expect_error(HDR ".entry k(.param .u32 a", 4, 0, "unexpected end of file");
    expect_error(HDR ".global .u32 g[2] = {1, 2", 4, 0, "unexpected end of file");
}

/* Inputs the fuzzer (tests/fuzz) found; each once broke a promise. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    /* a NUL inside a .section body cut the stored text, so the dump lost
     * the closing brace and did not parse back */
    static const char sec[] = HDR ".section .debug_info {\n.b8 1\0\n}\n";
    expect_error_len(sec, sizeof sec - 1, 5, 6, "unexpected byte 0x00");
    static const char sec_name[] = HDR ".section .debug\0info {\n}\n";
    expect_error_len(sec_name, sizeof sec_name - 1, 4, 1,
                     "malformed .section: expected '.section NAME {'");
    /* ... and the same in strings and attributes */
    static const char str[] = HDR ".file 1 \"a\0b.cu\"\n";
    expect_error_len(str, sizeof str - 1, 4, 9, "unexpected byte 0x00 in a string");
    static const char attr[] = HDR ".global .attribute(.managed\0) .u32 g;\n";
    expect_error_len(attr, sizeof attr - 1, 4, 9, "unknown directive '.attribute'");
    /* bytes >= 0x80 once indexed past the 7-bit tables of a "full" flex
     * scanner; in comments and strings they are text (UTF-8) */
    expect_ok(HDR "// caf\xc3\xa9 \xff\x80\n/* \xe2\x88\x80 */\n.file 1 \"d\xc3\xafr/a.cu\"\n");
    expect_error(KERNEL("ret;\n\xc3\xa9\n"), 6, 1, "unexpected byte 0xc3");
    expect_error(KERNEL(".reg .b32 %r\xff;\n"), 5, 13, "unexpected byte 0xff");
    /* an instruction without operands, or an empty list, before anything
     * was ever pushed on the operand stack (NULL + 0 under UBSan) */
    expect_ok(KERNEL("ret;\n"));
    expect_ok(HDR ".func f()\n{\nret;\n}\n.entry k()\n{\ncall f, ();\nret;\n}\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_corpus),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_instructions),
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_lexer),
        cmocka_unit_test(test_huge_literals),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_end_of_file),
        cmocka_unit_test(test_fuzz_regressions),
        cmocka_unit_test(test_targets),
        cmocka_unit_test(test_operand_types),
        cmocka_unit_test(test_array_sizes),
        cmocka_unit_test(test_const_expr_init),
        cmocka_unit_test(test_long_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
