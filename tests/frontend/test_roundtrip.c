/* tests/frontend/test_roundtrip.c — dump -> parse -> dump is a fixed point
 * for every corpus file, and the re-parsed IR equals the first one item by
 * item (functions, registers, instructions, operands, variables). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/parser.h"
#include "frontend/print.h"
#include "tests/support/test_util.h"

#include <string.h>

static ptx_module *parse_or_fail(const char *text, size_t len, const char *name)
{
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(text, len, name, &err);
    if (!m)
        fail_msg("%s", err->message);
    return m;
}

static char *dump(const ptx_module *m)
{
    GString *s = g_string_new(NULL);
    ptx_print_module(s, m);
    return g_string_free(s, FALSE);
}

static void assert_same_operand(const ptx_operand *a, const ptx_operand *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->flags, b->flags);
    assert_int_equal(a->comp, b->comp);
    assert_int_equal(a->id, b->id);
    assert_int_equal(a->id2, b->id2);
    assert_int_equal(a->val, b->val);
}

static void assert_same_instr(const ptx_instr *a, const ptx_instr *b)
{
    assert_int_equal(a->op, b->op);
    assert_int_equal(a->nmods, b->nmods);
    assert_memory_equal(a->mods, b->mods, a->nmods * sizeof a->mods[0]);
    assert_int_equal(a->ntypes, b->ntypes);
    assert_memory_equal(a->types, b->types, a->ntypes);
    assert_int_equal(a->vec, b->vec);
    assert_int_equal(a->space, b->space);
    assert_int_equal(a->rnd, b->rnd);
    assert_int_equal(a->guard, b->guard);
    assert_int_equal(a->guard_neg, b->guard_neg);
    assert_int_equal(a->first_opnd, b->first_opnd);
    assert_int_equal(a->nopnds, b->nopnds);
}

static void assert_same_var(const ptx_var *a, const ptx_var *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->space, b->space);
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->vec, b->vec);
    assert_int_equal(a->align, b->align);
    assert_int_equal(a->linkage, b->linkage);
    assert_int_equal(a->ndims, b->ndims);
    assert_memory_equal(a->dims, b->dims, sizeof a->dims);
    assert_int_equal(a->func, b->func);
    assert_int_equal(a->init == NULL, b->init == NULL);
    if (a->init) {
        assert_int_equal(a->init->len, b->init->len);
        for (guint i = 0; i < a->init->len; i++) {
            const ptx_init *x = &g_array_index(a->init, ptx_init, i);
            const ptx_init *y = &g_array_index(b->init, ptx_init, i);
            assert_int_equal(x->kind, y->kind);
            assert_int_equal(x->sym, y->sym);
            assert_int_equal(x->generic, y->generic);
            if (x->kind != PTX_INIT_KV) /* KV: an index into texts */
                assert_int_equal(x->val, y->val);
        }
    }
}

/* The two modules hold the same things in the same order; only source
 * positions may differ. */
static void assert_same_ir(const ptx_module *a, const ptx_module *b)
{
    assert_int_equal(a->version_major, b->version_major);
    assert_int_equal(a->version_minor, b->version_minor);
    assert_int_equal(a->address_size, b->address_size);
    assert_int_equal(a->target == NULL, b->target == NULL);
    if (a->target)
        assert_string_equal(a->target, b->target);
    assert_int_equal(a->funcs->len, b->funcs->len);
    assert_int_equal(a->vars->len, b->vars->len);
    assert_int_equal(a->syms->len, b->syms->len);
    assert_int_equal(a->items->len, b->items->len);
    assert_int_equal(a->files->len, b->files->len);
    for (guint i = 0; i < a->syms->len; i++) {
        const ptx_symbol *x = ptx_module_sym(a, (int32_t)i);
        const ptx_symbol *y = ptx_module_sym(b, (int32_t)i);
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->index, y->index);
        assert_int_equal(x->func, y->func);
    }
    for (guint i = 0; i < a->vars->len; i++)
        assert_same_var(ptx_module_var(a, (int32_t)i), ptx_module_var(b, (int32_t)i));
    for (guint i = 0; i < a->funcs->len; i++) {
        const ptx_func *f = ptx_module_func(a, i);
        const ptx_func *g = ptx_module_func(b, i);
        assert_string_equal(f->name, g->name);
        assert_int_equal(f->is_entry, g->is_entry);
        assert_int_equal(f->has_body, g->has_body);
        assert_int_equal(f->linkage, g->linkage);
        assert_int_equal(f->noreturn, g->noreturn);
        assert_int_equal(f->params->len, g->params->len);
        assert_int_equal(f->rets->len, g->rets->len);
        assert_int_equal(f->regdecls->len, g->regdecls->len);
        assert_int_equal(f->regs->len, g->regs->len);
        assert_int_equal(f->instrs->len, g->instrs->len);
        assert_int_equal(f->operands->len, g->operands->len);
        assert_int_equal(f->stmts->len, g->stmts->len);
        assert_int_equal(f->labels->len, g->labels->len);
        assert_int_equal(f->protos->len, g->protos->len);
        assert_int_equal(f->targets->len, g->targets->len);
        assert_memory_equal(&f->perf, &g->perf, sizeof f->perf);
        for (guint k = 0; k < f->regs->len; k++) {
            const ptx_reg *x = &g_array_index(f->regs, ptx_reg, k);
            const ptx_reg *y = &g_array_index(g->regs, ptx_reg, k);
            assert_int_equal(x->decl, y->decl);
            assert_int_equal(x->index, y->index);
            assert_int_equal(x->type, y->type);
        }
        for (guint k = 0; k < f->instrs->len; k++)
            assert_same_instr(ptx_func_instr(f, k), ptx_func_instr(g, k));
        for (guint k = 0; k < f->operands->len; k++)
            assert_same_operand(ptx_func_opnd(f, k), ptx_func_opnd(g, k));
        for (guint k = 0; k < f->stmts->len; k++) {
            const ptx_stmt *x = &g_array_index(f->stmts, ptx_stmt, k);
            const ptx_stmt *y = &g_array_index(g->stmts, ptx_stmt, k);
            assert_int_equal(x->kind, y->kind);
            assert_int_equal(x->index, y->index);
        }
    }
}

/* Parses text, dumps, re-parses the dump, dumps again: the two dumps are
 * byte-identical and the two IRs equal. */
static void roundtrip(const char *text, size_t len, const char *name)
{
    ptx_module *m1 = parse_or_fail(text, len, name);
    char *d1 = dump(m1);
    ptx_module *m2 = parse_or_fail(d1, strlen(d1), "dump1");
    char *d2 = dump(m2);
    if (strcmp(d1, d2) != 0) {
        size_t i = 0;
        while (d1[i] && d1[i] == d2[i])
            i++;
        fail_msg("%s: second dump differs at byte %zu: '%.60s' vs '%.60s'", name, i,
                 d1 + i, d2 + i);
    }
    assert_same_ir(m1, m2);
    g_free(d2);
    g_free(d1);
    ptx_module_free(m2);
    ptx_module_free(m1);
}

static unsigned roundtrip_dir(const char *rel)
{
    char *dir = test_source_path(rel);
    GDir *d = g_dir_open(dir, 0, NULL);
    assert_non_null(d);
    unsigned n = 0;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".ptx"))
            continue;
        char *path = g_build_filename(rel, name, NULL);
        gsize len = 0;
        char *text = test_read_file(path, &len);
        roundtrip(text, len, path);
        g_free(text);
        g_free(path);
        n++;
    }
    g_dir_close(d);
    g_free(dir);
    return n;
}

static void test_nvcc(void **state)
{
    (void)state;
    assert_int_equal(roundtrip_dir("tests/corpus/nvcc"), 54);
}

static void test_hand(void **state)
{
    (void)state;
    assert_int_equal(roundtrip_dir("tests/corpus/hand"), 16);
}

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static void rt(const char *text)
{
    roundtrip(text, strlen(text), "inline");
}

/* Spellings the printer must reproduce exactly: negative and extreme
 * immediates, offsets, float bit patterns, nested scopes, long names. */
static void test_inline(void **state)
{
    (void)state;
    rt(HDR);
    rt(".version 1.0\n.target sm_10\n");
    rt(HDR ".entry k() {\n.reg .u64 %r<3>;\n"
           "mov.u64 %r1, -9223372036854775808;\nmov.u64 %r1, 18446744073709551615;\n"
           "mov.u64 %r1, -1;\nld.global.u64 %r1, [%r2+-8];\nld.global.u64 %r1, [%r2-16];\n"
           "ld.global.u64 %r1, [16];\nld.global.u64 %r1, [0];\n"
           "mov.b64 %r1, 0d7FF8000000000001;\nmov.b64 %r1, 1.5;\nmov.b64 %r1, -0.0;\n"
           "ret;\n}\n");
    /* found by the fuzzer: negating 9223372036854775808 overflowed int64_t */
    rt(HDR ".global .s64 m[2] = {-9223372036854775808, -18446744073709551615};\n"
           ".entry k() {\n.reg .u64 %r<3>;\nmov.u64 %r1, -18446744073709551615;\n"
           "ld.global.u64 %r1, [%r2+-9223372036854775808];\n"
           "ld.global.u64 %r1, [%r2-9223372036854775808];\nret;\n}\n");
    rt(HDR ".global .s32 g[4] = {-2147483648, -1, 0, 2147483647};\n"
           ".global .f64 d[2] = {0d8000000000000000, 1e300};\n"
           ".global .u64 p = generic(g)+4;\n");
    rt(HDR ".entry k() {\n.reg .b32 %a;\n{\n.reg .b32 %a;\n{\n.reg .b32 %a;\nmov.b32 %a, 3;\n}\n"
           "mov.b32 %a, 2;\n}\nmov.b32 %a, 1;\nret;\n}\n");
    /* names longer than any fixed buffer */
    GString *n = g_string_new(NULL);
    for (int i = 0; i < 1000; i++)
        g_string_append_c(n, (char)('a' + i % 26));
    char *t = g_strdup_printf(HDR ".func _Z%s() { ret; }\n.entry k() {\n.reg .b32 %%%s;\n"
                                  ".reg .b32 %%%sx<12>;\nmov.b32 %%%s, 1;\nmov.b32 %%%sx11, 2;\n"
                                  "call _Z%s, ();\nbra L%s;\nL%s:\nret;\n}\n",
                              n->str, n->str, n->str, n->str, n->str, n->str, n->str, n->str);
    rt(t);
    g_free(t);
    g_string_free(n, TRUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvcc),
        cmocka_unit_test(test_hand),
        cmocka_unit_test(test_inline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
