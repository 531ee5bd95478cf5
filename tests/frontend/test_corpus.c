/* tests/frontend/test_corpus.c — the parser accepts every nvcc and
 * hand-written corpus file, and the IR of the nvcc kernels matches facts
 * read off the PTX text by hand (names, parameters, register declarations,
 * instruction counts, chosen instructions operand by operand).
 *
 * Long because it holds one table of hand-read facts per corpus file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/parser.h"
#include "frontend/print.h"
#include "tests/support/test_util.h"

#include <string.h>

/* ---------------------------------------------------------------- helpers */

static ptx_module *load(const char *rel)
{
    gsize len = 0;
    char *text = test_read_file(rel, &len);
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(text, len, rel, &err);
    g_free(text);
    if (!m)
        fail_msg("%s", err->message);
    return m;
}

/* The definition (function with a body) named `name`. */
static const ptx_func *func_named(const ptx_module *m, const char *name)
{
    int32_t i = ptx_module_find_func(m, name);
    if (i < 0)
        fail_msg("no function '%s'", name);
    const ptx_func *f = ptx_module_func(m, (uint32_t)i);
    assert_string_equal(f->name, name);
    return f;
}

/* Register id of `name`; the first declared when scopes reuse a name. */
static int32_t reg_id(const ptx_func *f, const char *name)
{
    char buf[300];
    for (guint i = 0; i < f->regs->len; i++)
        if (strcmp(ptx_reg_name(f, i, buf, sizeof buf), name) == 0)
            return (int32_t)i;
    fail_msg("no register '%s' in %s", name, f->name);
    return -1;
}

static const ptx_instr *instr(const ptx_func *f, unsigned i)
{
    assert_true(i < f->instrs->len);
    return ptx_func_instr(f, i);
}

static const ptx_operand *opnd(const ptx_func *f, const ptx_instr *in, unsigned i)
{
    assert_true(i < in->nopnds);
    return ptx_instr_opnd(f, in, i);
}

/* The instruction as dump prints it, compared with the expected text. */
static void assert_text(const ptx_module *m, const ptx_func *f, unsigned i,
                        const char *want)
{
    GString *s = g_string_new(NULL);
    ptx_print_instr(s, m, f, instr(f, i));
    assert_string_equal(s->str, want);
    g_string_free(s, TRUE);
}

/* Modifiers in source order, joined with '.' ("global.cas.b32"). */
static void assert_mods(const ptx_module *m, const ptx_instr *in, const char *want)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < in->nmods; i++)
        g_string_append_printf(s, "%s%s", i ? "." : "", ptx_module_mod_name(m, in->mods[i]));
    assert_string_equal(s->str, want);
    g_string_free(s, TRUE);
}

static void assert_reg(const ptx_func *f, const ptx_instr *in, unsigned i, const char *name)
{
    const ptx_operand *o = opnd(f, in, i);
    assert_int_equal(o->kind, PTX_OPND_REG);
    assert_int_equal(o->id, reg_id(f, name));
    assert_int_equal(o->comp, 0);
}

static void assert_imm(const ptx_func *f, const ptx_instr *in, unsigned i, int64_t v)
{
    const ptx_operand *o = opnd(f, in, i);
    assert_int_equal(o->kind, PTX_OPND_IMM);
    assert_int_equal(o->val, v);
}

/* [reg+off] */
static void assert_addr_reg(const ptx_func *f, const ptx_instr *in, unsigned i,
                            const char *reg, int64_t off)
{
    const ptx_operand *o = opnd(f, in, i);
    assert_int_equal(o->kind, PTX_OPND_ADDR);
    assert_int_equal(o->id, reg_id(f, reg));
    assert_int_equal(o->id2, -1);
    assert_int_equal(o->val, off);
}

/* [symbol+off] */
static void assert_addr_sym(const ptx_module *m, const ptx_func *f, const ptx_instr *in,
                            unsigned i, const char *sym, int64_t off)
{
    const ptx_operand *o = opnd(f, in, i);
    assert_int_equal(o->kind, PTX_OPND_ADDR);
    assert_int_equal(o->id, -1);
    assert_true(o->id2 >= 0);
    assert_string_equal(ptx_module_sym(m, o->id2)->name, sym);
    assert_int_equal(o->val, off);
}

static void assert_sreg(const ptx_func *f, const ptx_instr *in, unsigned i,
                        ptx_sreg sr, unsigned comp)
{
    const ptx_operand *o = opnd(f, in, i);
    assert_int_equal(o->kind, PTX_OPND_SREG);
    assert_int_equal(o->id, sr);
    assert_int_equal(o->comp, comp);
}

/* A symbol operand naming `name` of the given kind; returns the symbol. */
static const ptx_symbol *assert_sym(const ptx_module *m, const ptx_func *f,
                                    const ptx_instr *in, unsigned i, const char *name,
                                    ptx_sym_kind kind)
{
    const ptx_operand *o = opnd(f, in, i);
    assert_int_equal(o->kind, PTX_OPND_SYM);
    const ptx_symbol *s = ptx_module_sym(m, o->id);
    assert_string_equal(s->name, name);
    assert_int_equal(s->kind, kind);
    return s;
}

static void assert_guard(const ptx_func *f, const ptx_instr *in, const char *pred, bool neg)
{
    assert_int_equal(in->guard, reg_id(f, pred));
    assert_int_equal(in->guard_neg, neg);
}

/* The instruction index a label marks. */
static int32_t label_at(const ptx_module *m, const ptx_func *f, const char *name)
{
    for (guint i = 0; i < f->labels->len; i++) {
        const ptx_symbol *s = ptx_module_sym(m, g_array_index(f->labels, int32_t, i));
        if (strcmp(s->name, name) == 0) {
            assert_int_equal(s->kind, PTX_SYM_LABEL);
            return s->index;
        }
    }
    fail_msg("no label '%s' in %s", name, f->name);
    return -1;
}

typedef struct regdecl_want {
    const char *prefix;
    ptx_type type;
    uint32_t count;
    bool range;
} regdecl_want;

/* The function's .reg statements, in order, are exactly `want`. */
static void assert_regdecls(const ptx_func *f, const regdecl_want *want, unsigned n)
{
    assert_int_equal(f->regdecls->len, n);
    uint32_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        const ptx_regdecl *d = &g_array_index(f->regdecls, ptx_regdecl, i);
        assert_string_equal(d->prefix, want[i].prefix);
        assert_int_equal(d->type, want[i].type);
        assert_int_equal(d->count, want[i].count);
        assert_int_equal(d->is_range, want[i].range);
        assert_int_equal(d->first_reg, total);
        total += want[i].count;
    }
    assert_int_equal(f->regs->len, total);
}

static void assert_params(const ptx_module *m, const GArray *idx, const ptx_type *types,
                          unsigned n, const char *prefix)
{
    assert_int_equal(idx->len, n);
    for (unsigned i = 0; i < n; i++) {
        const ptx_var *v = ptx_module_var(m, g_array_index(idx, int32_t, i));
        assert_int_equal(v->space, PTX_SPACE_PARAM);
        assert_int_equal(v->type, types[i]);
        if (prefix) {
            char name[128];
            g_snprintf(name, sizeof name, "%s%u", prefix, i);
            assert_string_equal(v->name, name);
        }
    }
}

static unsigned count_op(const ptx_func *f, ptx_opcode op)
{
    unsigned n = 0;
    for (guint i = 0; i < f->instrs->len; i++)
        n += ptx_func_instr(f, i)->op == op;
    return n;
}

static unsigned count_bodies(const ptx_module *m)
{
    unsigned n = 0;
    for (guint i = 0; i < m->funcs->len; i++)
        n += ptx_module_func(m, i)->has_body;
    return n;
}

/* The function-scope variable `name` declared in f. */
static const ptx_var *local_var(const ptx_module *m, const ptx_func *f, const char *name)
{
    int32_t fi = ptx_module_find_func(m, f->name);
    for (guint i = 0; i < m->vars->len; i++) {
        const ptx_var *v = ptx_module_var(m, (int32_t)i);
        if (v->func == fi && strcmp(v->name, name) == 0)
            return v;
    }
    fail_msg("no variable '%s' in %s", name, f->name);
    return NULL;
}

static void assert_header(const ptx_module *m, const char *target)
{
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_string_equal(m->target, target);
    assert_int_equal(m->address_size, 64);
}

/* ------------------------------------------------------- every file parses */

static unsigned parse_dir(const char *rel, unsigned *nfuncs)
{
    char *dir = test_source_path(rel);
    GError *err = NULL;
    GDir *d = g_dir_open(dir, 0, &err);
    if (!d)
        fail_msg("%s", err->message);
    unsigned n = 0;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".ptx"))
            continue;
        char *path = g_build_filename(rel, name, NULL);
        ptx_module *m = load(path);
        assert_true(m->version_major >= 1);
        *nfuncs += m->funcs->len;
        ptx_module_free(m);
        g_free(path);
        n++;
    }
    g_dir_close(d);
    g_free(dir);
    return n;
}

static void test_all_nvcc_parse(void **state)
{
    (void)state;
    unsigned funcs = 0;
    assert_int_equal(parse_dir("tests/corpus/nvcc", &funcs), 54);
    assert_true(funcs >= 24);
}

static void test_all_hand_parse(void **state)
{
    (void)state;
    unsigned funcs = 0;
    assert_int_equal(parse_dir("tests/corpus/hand", &funcs), 16);
    assert_true(funcs >= 15);
}

/* The three targets of each program parse, carry their own .target, and
 * define the same kernels (the bodies may differ: half_double does). */
static void test_all_targets(void **state)
{
    (void)state;
    static const struct {
        const char *base;
        const char *kernels[2];
    } progs[] = {
        {"vector_add", {"vector_add", NULL}},
        {"reduction", {"block_reduce", NULL}},
        {"device_calls", {"calls_kernel", NULL}},
        {"spinlock", {"spinlock_count", NULL}},
        {"half_double", {"half_ops", "double_ops"}},
        {"printf", {"print_kernel", NULL}},
        {"stencil2d", {"stencil5", NULL}},
        {"ldg_volatile", {"prod_cons", NULL}},
    };
    static const char *const sms[] = {"sm_75", "sm_80", "sm_90"};
    for (size_t p = 0; p < G_N_ELEMENTS(progs); p++) {
        unsigned ref_instrs = 0;
        for (size_t s = 0; s < G_N_ELEMENTS(sms); s++) {
            char *rel = g_strdup_printf("tests/corpus/nvcc/%s.%s.ptx", progs[p].base, sms[s]);
            ptx_module *m = load(rel);
            assert_header(m, sms[s]);
            unsigned entries = 0, instrs = 0;
            for (guint i = 0; i < m->funcs->len; i++) {
                const ptx_func *f = ptx_module_func(m, i);
                entries += f->is_entry;
                instrs += f->instrs->len;
            }
            unsigned want = progs[p].kernels[1] ? 2 : 1;
            assert_int_equal(entries, want);
            for (unsigned k = 0; k < want; k++)
                assert_true(func_named(m, progs[p].kernels[k])->is_entry);
            /* only half_double's code changes with the target */
            if (s == 0)
                ref_instrs = instrs;
            else if (strcmp(progs[p].base, "half_double") != 0)
                assert_int_equal(instrs, ref_instrs);
            ptx_module_free(m);
            g_free(rel);
        }
    }
}

/* ------------------------------------------------------------- vector_add */

static void test_vector_add(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/vector_add.sm_75.ptx");
    assert_header(m, "sm_75");
    assert_int_equal(m->funcs->len, 1);
    const ptx_func *f = func_named(m, "vector_add");
    assert_true(f->is_entry);
    assert_true(f->has_body);
    assert_int_equal(f->linkage, PTX_LINK_VISIBLE);
    assert_int_equal(f->loc.line, 15);
    static const ptx_type pt[] = {PTX_T_U64, PTX_T_U64, PTX_T_U64, PTX_T_U32};
    assert_params(m, f->params, pt, 4, "vector_add_param_");
    assert_int_equal(f->rets->len, 0);
    static const regdecl_want rd[] = {
        {"%p", PTX_T_PRED, 2, true}, {"%f", PTX_T_F32, 4, true},
        {"%r", PTX_T_B32, 6, true}, {"%rd", PTX_T_B64, 11, true},
    };
    assert_regdecls(f, rd, 4);
    assert_int_equal(f->instrs->len, 22);
    assert_int_equal(f->labels->len, 1);
    assert_int_equal(label_at(m, f, "$L__BB0_2"), 21);

    /* ld.param.u64 %rd1, [vector_add_param_0]; */
    const ptx_instr *in = instr(f, 0);
    assert_int_equal(in->op, PTX_OP_LD);
    assert_int_equal(in->space, PTX_SPACE_PARAM);
    assert_mods(m, in, "param.u64");
    assert_reg(f, in, 0, "%rd1");
    assert_addr_sym(m, f, in, 1, "vector_add_param_0", 0);
    assert_int_equal(in->loc.line, 28);
    assert_int_equal(in->loc.col, 2);
    /* mov.u32 %r3, %ctaid.x; mov.u32 %r5, %tid.x; */
    assert_sreg(f, instr(f, 4), 1, PTX_SREG_CTAID, 1);
    assert_sreg(f, instr(f, 5), 1, PTX_SREG_NTID, 1);
    assert_sreg(f, instr(f, 6), 1, PTX_SREG_TID, 1);
    /* mad.lo.s32 %r1, %r3, %r4, %r5; */
    in = instr(f, 7);
    assert_int_equal(in->op, PTX_OP_MAD);
    assert_mods(m, in, "lo.s32");
    assert_int_equal(in->ntypes, 1);
    assert_int_equal(in->types[0], PTX_T_S32);
    assert_reg(f, in, 0, "%r1");
    assert_reg(f, in, 3, "%r5");
    /* setp.ge.s32 %p1, %r1, %r2;  @%p1 bra $L__BB0_2; */
    in = instr(f, 8);
    assert_int_equal(in->op, PTX_OP_SETP);
    assert_mods(m, in, "ge.s32");
    assert_reg(f, in, 0, "%p1");
    in = instr(f, 9);
    assert_int_equal(in->op, PTX_OP_BRA);
    assert_guard(f, in, "%p1", false);
    const ptx_symbol *l = assert_sym(m, f, in, 0, "$L__BB0_2", PTX_SYM_LABEL);
    assert_int_equal(l->index, 21);
    /* mul.wide.s32 %rd5, %r1, 4; */
    in = instr(f, 11);
    assert_mods(m, in, "wide.s32");
    assert_imm(f, in, 2, 4);
    /* ld.global.f32 %f1, [%rd8]; */
    in = instr(f, 15);
    assert_int_equal(in->op, PTX_OP_LD);
    assert_int_equal(in->space, PTX_SPACE_GLOBAL);
    assert_int_equal(in->vec, 1);
    assert_int_equal(in->types[0], PTX_T_F32);
    assert_reg(f, in, 0, "%f1");
    assert_addr_reg(f, in, 1, "%rd8", 0);
    assert_text(m, f, 17, "add.f32 %f3, %f2, %f1;");
    /* st.global.f32 [%rd10], %f3; */
    in = instr(f, 20);
    assert_int_equal(in->op, PTX_OP_ST);
    assert_addr_reg(f, in, 0, "%rd10", 0);
    assert_reg(f, in, 1, "%f3");
    assert_int_equal(instr(f, 21)->op, PTX_OP_RET);
    assert_int_equal(instr(f, 21)->guard, -1);
    ptx_module_free(m);
}

/* -------------------------------------------------------------- reduction */

static void test_reduction(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/reduction.sm_75.ptx");
    assert_int_equal(m->funcs->len, 1);
    const ptx_func *f = func_named(m, "block_reduce");
    static const ptx_type pt[] = {PTX_T_U64, PTX_T_U64, PTX_T_U32};
    assert_params(m, f->params, pt, 3, "block_reduce_param_");
    static const regdecl_want rd[] = {
        {"%p", PTX_T_PRED, 12, true}, {"%r", PTX_T_B32, 41, true},
        {"%rd", PTX_T_B64, 7, true},
    };
    assert_regdecls(f, rd, 3);
    assert_int_equal(f->instrs->len, 64);
    assert_int_equal(f->labels->len, 5);
    assert_int_equal(count_op(f, PTX_OP_SHFL), 5);
    assert_int_equal(count_op(f, PTX_OP_BAR), 4);
    assert_int_equal(count_op(f, PTX_OP_BRA), 6);

    /* the demoted __shared__ array lives in the function */
    const ptx_var *buf = local_var(m, f, "_ZZ12block_reduceE3buf");
    assert_int_equal(buf->space, PTX_SPACE_SHARED);
    assert_int_equal(buf->type, PTX_T_B8);
    assert_int_equal(buf->align, 4);
    assert_int_equal(buf->ndims, 1);
    assert_int_equal(buf->dims[0], 1024);
    assert_null(buf->init);
    assert_int_equal(ptx_module_find(m, "_ZZ12block_reduceE3buf"), -1);

    /* mov.u32 %r12, _ZZ12block_reduceE3buf; */
    const ptx_instr *in = instr(f, 15);
    assert_int_equal(in->op, PTX_OP_MOV);
    assert_sym(m, f, in, 1, "_ZZ12block_reduceE3buf", PTX_SYM_VAR);
    /* bar.sync 0; */
    in = instr(f, 18);
    assert_int_equal(in->op, PTX_OP_BAR);
    assert_mods(m, in, "sync");
    assert_int_equal(in->nopnds, 1);
    assert_imm(f, in, 0, 0);
    /* ld.shared.u32 %r14, [%r5+512]; */
    in = instr(f, 22);
    assert_int_equal(in->space, PTX_SPACE_SHARED);
    assert_addr_reg(f, in, 1, "%r5", 512);
    /* shfl.sync.down.b32 %r27|%p6, %r22, %r25, %r24, %r26; */
    in = instr(f, 46);
    assert_int_equal(in->op, PTX_OP_SHFL);
    assert_mods(m, in, "sync.down.b32");
    assert_int_equal(in->types[0], PTX_T_B32);
    assert_int_equal(in->nopnds, 5);
    const ptx_operand *o = opnd(f, in, 0);
    assert_int_equal(o->kind, PTX_OPND_PAIR);
    assert_int_equal(o->id, reg_id(f, "%r27"));
    assert_int_equal(o->id2, reg_id(f, "%p6"));
    assert_reg(f, in, 1, "%r22");
    assert_reg(f, in, 2, "%r25");
    assert_reg(f, in, 3, "%r24");
    assert_reg(f, in, 4, "%r26");
    assert_int_equal(in->loc.line, 87);
    assert_text(m, f, 57, "shfl.sync.down.b32 %r38|%p10, %r36, %r37, %r24, %r26;");
    /* mov.u32 %r26, -1; */
    assert_imm(f, instr(f, 45), 1, -1);
    /* atom.global.add.u32 %r39, [%rd6], %r6; */
    in = instr(f, 62);
    assert_int_equal(in->op, PTX_OP_ATOM);
    assert_int_equal(in->space, PTX_SPACE_GLOBAL);
    assert_mods(m, in, "global.add.u32");
    assert_reg(f, in, 0, "%r39");
    assert_addr_reg(f, in, 1, "%rd6", 0);
    assert_reg(f, in, 2, "%r6");
    /* @%p4 bra $L__BB0_11; twice to the same label */
    assert_int_equal(label_at(m, f, "$L__BB0_11"), 63);
    assert_guard(f, instr(f, 40), "%p4", false);
    assert_sym(m, f, instr(f, 40), 0, "$L__BB0_11", PTX_SYM_LABEL);
    assert_sym(m, f, instr(f, 60), 0, "$L__BB0_11", PTX_SYM_LABEL);
    ptx_module_free(m);
}

/* --------------------------------------------------------------- spinlock */

static void test_spinlock(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/spinlock.sm_75.ptx");
    const ptx_func *f = func_named(m, "spinlock_count");
    static const ptx_type pt[] = {PTX_T_U64, PTX_T_U64, PTX_T_U32};
    assert_params(m, f->params, pt, 3, "spinlock_count_param_");
    static const regdecl_want rd[] = {
        {"%p", PTX_T_PRED, 4, true}, {"%r", PTX_T_B32, 13, true},
        {"%rd", PTX_T_B64, 8, true},
    };
    assert_regdecls(f, rd, 3);
    assert_int_equal(f->instrs->len, 27);
    assert_int_equal(label_at(m, f, "$L__BB0_1"), 13);
    assert_int_equal(label_at(m, f, "$L__BB0_3"), 24);

    /* rem.s32 %r6, %r5, %r1; */
    assert_int_equal(instr(f, 8)->op, PTX_OP_REM);
    /* atom.global.cas.b32 %r9, [%rd1], %r8, %r7; */
    const ptx_instr *in = instr(f, 15);
    assert_int_equal(in->op, PTX_OP_ATOM);
    assert_mods(m, in, "global.cas.b32");
    assert_true(ptx_instr_has_mod(in, PTX_MOD_CAS));
    assert_int_equal(in->space, PTX_SPACE_GLOBAL);
    assert_int_equal(in->ntypes, 1);
    assert_int_equal(in->types[0], PTX_T_B32);
    assert_int_equal(in->nopnds, 4);
    assert_reg(f, in, 0, "%r9");
    assert_addr_reg(f, in, 1, "%rd1", 0);
    assert_reg(f, in, 2, "%r8");
    assert_reg(f, in, 3, "%r7");
    assert_int_equal(in->loc.line, 43);
    /* the two setp that read the cas result */
    assert_mods(m, instr(f, 16), "eq.s32");
    assert_mods(m, instr(f, 17), "ne.s32");
    assert_imm(f, instr(f, 16), 2, 0);
    /* @%p2 bra $L__BB0_3; (forward) */
    in = instr(f, 18);
    assert_guard(f, in, "%p2", false);
    assert_int_equal(assert_sym(m, f, in, 0, "$L__BB0_3", PTX_SYM_LABEL)->index, 24);
    /* ld.volatile.global.u32 %r10, [%rd2]; */
    in = instr(f, 19);
    assert_int_equal(in->op, PTX_OP_LD);
    assert_mods(m, in, "volatile.global.u32");
    assert_true(ptx_instr_has_mod(in, PTX_MOD_VOLATILE));
    assert_int_equal(in->space, PTX_SPACE_GLOBAL);
    assert_addr_reg(f, in, 1, "%rd2", 0);
    /* st.volatile.global.u32 [%rd2], %r11; */
    in = instr(f, 21);
    assert_int_equal(in->op, PTX_OP_ST);
    assert_mods(m, in, "volatile.global.u32");
    /* membar.gl; */
    in = instr(f, 22);
    assert_int_equal(in->op, PTX_OP_MEMBAR);
    assert_mods(m, in, "gl");
    assert_int_equal(in->nopnds, 0);
    /* atom.global.exch.b32 %r12, [%rd1], 0; */
    in = instr(f, 23);
    assert_mods(m, in, "global.exch.b32");
    assert_int_equal(in->nopnds, 3);
    assert_imm(f, in, 2, 0);
    /* not.pred %p3, %p1;  @%p3 bra $L__BB0_1; (the backward edge) */
    in = instr(f, 24);
    assert_int_equal(in->op, PTX_OP_NOT);
    assert_int_equal(in->types[0], PTX_T_PRED);
    in = instr(f, 25);
    assert_guard(f, in, "%p3", false);
    assert_int_equal(assert_sym(m, f, in, 0, "$L__BB0_1", PTX_SYM_LABEL)->index, 13);
    assert_int_equal(instr(f, 26)->op, PTX_OP_RET);
    ptx_module_free(m);
}

/* ----------------------------------------------------------- device_calls */

static void assert_binary_func(const ptx_module *m, const ptx_func *f, const char *name,
                               bool body)
{
    assert_string_equal(f->name, name);
    assert_false(f->is_entry);
    assert_int_equal(f->has_body, body);
    assert_int_equal(f->linkage, 0);
    static const ptx_type b32[] = {PTX_T_B32, PTX_T_B32};
    assert_params(m, f->rets, b32, 1, NULL);
    assert_string_equal(ptx_module_var(m, g_array_index(f->rets, int32_t, 0))->name,
                        "func_retval0");
    char prefix[64];
    g_snprintf(prefix, sizeof prefix, "%s_param_", name);
    assert_params(m, f->params, b32, 2, prefix);
}

static void test_device_calls(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/device_calls.sm_75.ptx");
    /* three prototypes without bodies, then six definitions */
    assert_int_equal(m->funcs->len, 9);
    assert_int_equal(count_bodies(m), 6);
    static const char *const ops[] = {"_Z6op_addii", "_Z6op_subii", "_Z6op_maxii"};
    for (unsigned i = 0; i < 3; i++) {
        const ptx_func *decl = ptx_module_func(m, i);
        assert_binary_func(m, decl, ops[i], false);
        const ptx_func *def = func_named(m, ops[i]);
        assert_true(def != decl);
        assert_binary_func(m, def, ops[i], true);
        assert_int_equal(ptx_module_find_func(m, ops[i]), 3 + i);
        assert_int_equal(decl->sym, def->sym); /* one symbol, declared then defined */
        assert_int_equal(def->instrs->len, 5);
        static const regdecl_want rd[] = {{"%r", PTX_T_B32, 4, true}};
        assert_regdecls(def, rd, 1);
        /* st.param.b32 [func_retval0+0], %r3; */
        const ptx_instr *in = instr(def, 3);
        assert_int_equal(in->op, PTX_OP_ST);
        assert_int_equal(in->space, PTX_SPACE_PARAM);
        assert_addr_sym(m, def, in, 0, "func_retval0", 0);
    }
    assert_int_equal(instr(func_named(m, "_Z6op_subii"), 2)->op, PTX_OP_SUB);
    assert_int_equal(instr(func_named(m, "_Z6op_maxii"), 2)->op, PTX_OP_MAX);

    /* the function-pointer table, initialised with the three names */
    int32_t ts = ptx_module_find(m, "op_table");
    assert_true(ts >= 0);
    assert_int_equal(ptx_module_sym(m, ts)->kind, PTX_SYM_VAR);
    const ptx_var *tab = ptx_module_var(m, ptx_module_sym(m, ts)->index);
    assert_int_equal(tab->space, PTX_SPACE_GLOBAL);
    assert_int_equal(tab->type, PTX_T_U64);
    assert_int_equal(tab->align, 8);
    assert_int_equal(tab->func, -1);
    assert_int_equal(tab->ndims, 1);
    assert_int_equal(tab->dims[0], 3);
    assert_non_null(tab->init);
    assert_int_equal(tab->init->len, 5);
    assert_int_equal(g_array_index(tab->init, ptx_init, 0).kind, PTX_INIT_OPEN);
    assert_int_equal(g_array_index(tab->init, ptx_init, 4).kind, PTX_INIT_CLOSE);
    for (unsigned i = 0; i < 3; i++) {
        const ptx_init *it = &g_array_index(tab->init, ptx_init, i + 1);
        assert_int_equal(it->kind, PTX_INIT_SYM);
        assert_int_equal(it->val, 0);
        assert_false(it->generic);
        assert_string_equal(ptx_module_sym(m, it->sym)->name, ops[i]);
        assert_int_equal(ptx_module_sym(m, it->sym)->kind, PTX_SYM_FUNC);
    }
    /* module items in source order: 3 prototypes, the table, 6 bodies */
    assert_int_equal(m->items->len, 10);
    assert_int_equal(g_array_index(m->items, ptx_item, 3).kind, PTX_ITEM_VAR);

    /* mix: xor.b32 %r3, %r2, 90; mad.lo.s32 %r4, %r1, 31, %r3; */
    const ptx_func *mix = func_named(m, "_Z3mixii");
    assert_int_equal(mix->instrs->len, 6);
    assert_imm(mix, instr(mix, 2), 2, 90);
    assert_imm(mix, instr(mix, 3), 2, 31);

    /* fib: recursion through two call sequences, each its own scope */
    const ptx_func *fib = func_named(m, "_Z3fibi");
    int32_t fib_index = ptx_module_find_func(m, "_Z3fibi");
    static const ptx_type one_b32[] = {PTX_T_B32};
    assert_params(m, fib->params, one_b32, 1, "_Z3fibi_param_");
    assert_int_equal(fib->instrs->len, 14);
    /* %p<2>, %r<9>, plus temp_param_reg in each callseq scope */
    static const regdecl_want fibregs[] = {
        {"%p", PTX_T_PRED, 2, true}, {"%r", PTX_T_B32, 9, true},
        {"temp_param_reg", PTX_T_B32, 1, false}, {"temp_param_reg", PTX_T_B32, 1, false},
    };
    assert_regdecls(fib, fibregs, 4);
    unsigned opens = 0, closes = 0;
    for (guint i = 0; i < fib->stmts->len; i++) {
        uint32_t k = g_array_index(fib->stmts, ptx_stmt, i).kind;
        opens += k == PTX_STMT_OPEN;
        closes += k == PTX_STMT_CLOSE;
    }
    assert_int_equal(opens, 2);
    assert_int_equal(closes, 2);
    assert_int_equal(count_op(fib, PTX_OP_CALL), 2);
    /* call.uni (retval0), _Z3fibi, (param0); */
    const ptx_instr *in = instr(fib, 5);
    assert_int_equal(in->op, PTX_OP_CALL);
    assert_mods(m, in, "uni");
    assert_int_equal(in->nopnds, 3);
    const ptx_operand *o = opnd(fib, in, 0);
    assert_int_equal(o->kind, PTX_OPND_LIST);
    assert_int_equal(o->id2, 1);
    const ptx_operand *e = ptx_func_opnd(fib, (uint32_t)o->id);
    assert_int_equal(e->kind, PTX_OPND_SYM);
    assert_string_equal(ptx_module_sym(m, e->id)->name, "retval0");
    const ptx_symbol *callee = assert_sym(m, fib, in, 1, "_Z3fibi", PTX_SYM_FUNC);
    assert_int_equal(callee->index, fib_index); /* recursion */
    o = opnd(fib, in, 2);
    assert_int_equal(o->kind, PTX_OPND_LIST);
    assert_int_equal(o->id2, 1);
    assert_string_equal(ptx_module_sym(m, ptx_func_opnd(fib, (uint32_t)o->id)->id)->name,
                        "param0");
    assert_int_equal(in->loc.line, 112);
    /* the two param0 are distinct variables, one per scope */
    const ptx_operand *p0 = ptx_func_opnd(fib, (uint32_t)o->id);
    const ptx_instr *in2 = instr(fib, 9);
    assert_int_equal(in2->op, PTX_OP_CALL);
    const ptx_operand *o2 = opnd(fib, in2, 2);
    assert_int_not_equal(ptx_func_opnd(fib, (uint32_t)o2->id)->id, p0->id);
    assert_int_equal(label_at(m, fib, "$L__BB4_2"), 12);

    /* calls_kernel: direct calls and one indirect call */
    const ptx_func *k = func_named(m, "calls_kernel");
    assert_true(k->is_entry);
    static const ptx_type kpt[] = {PTX_T_U64, PTX_T_U64, PTX_T_U32};
    assert_params(m, k->params, kpt, 3, "calls_kernel_param_");
    assert_int_equal(k->instrs->len, 40);
    assert_int_equal(k->regs->len, 2 + 18 + 12 + 3);
    assert_int_equal(count_op(k, PTX_OP_CALL), 3);
    /* mul.hi.s32 %r12, %r1, 1431655766; */
    in = instr(k, 23);
    assert_mods(m, in, "hi.s32");
    assert_imm(k, in, 2, 1431655766);
    /* mov.u64 %rd7, op_table; */
    assert_sym(m, k, instr(k, 29), 1, "op_table", PTX_SYM_VAR);
    /* call.uni (retval0), _Z3mixii, (param0, param1); */
    in = instr(k, 17);
    assert_int_equal(in->op, PTX_OP_CALL);
    assert_sym(m, k, in, 1, "_Z3mixii", PTX_SYM_FUNC);
    assert_int_equal(opnd(k, in, 2)->id2, 2);
    /* prototype_4 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _); */
    assert_int_equal(k->protos->len, 1);
    const ptx_proto *pr = &g_array_index(k->protos, ptx_proto, 0);
    assert_string_equal(ptx_module_sym(m, pr->sym)->name, "prototype_4");
    assert_int_equal(ptx_module_sym(m, pr->sym)->kind, PTX_SYM_PROTO);
    assert_int_equal(pr->rets->len, 1);
    assert_int_equal(pr->params->len, 2);
    assert_false(pr->noreturn);
    for (unsigned i = 0; i < 2; i++) {
        const ptx_var *v = &g_array_index(pr->params, ptx_var, i);
        assert_int_equal(v->space, PTX_SPACE_PARAM);
        assert_int_equal(v->type, PTX_T_B32);
    }
    assert_int_equal(g_array_index(pr->rets, ptx_var, 0).type, PTX_T_B32);
    /* the prototype's label is not a branch target */
    assert_int_equal(k->labels->len, 1);
    /* call (retval0), %rd9, (param0, param1), prototype_4; */
    in = instr(k, 34);
    assert_int_equal(in->op, PTX_OP_CALL);
    assert_int_equal(in->nmods, 0);
    assert_int_equal(in->nopnds, 4);
    assert_int_equal(opnd(k, in, 0)->kind, PTX_OPND_LIST);
    assert_reg(k, in, 1, "%rd9");
    assert_int_equal(opnd(k, in, 2)->kind, PTX_OPND_LIST);
    assert_int_equal(opnd(k, in, 2)->id2, 2);
    assert_sym(m, k, in, 3, "prototype_4", PTX_SYM_PROTO);
    assert_int_equal(in->loc.line, 212);
    assert_text(m, k, 34, "call (retval0), %rd9, (param0, param1), prototype_4;");
    ptx_module_free(m);
}

/* ------------------------------------------------------------ half_double */

static void test_half_double(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/half_double.sm_75.ptx");
    assert_int_equal(m->funcs->len, 2);
    const ptx_func *h = func_named(m, "half_ops");
    /* five top-level ranges and three inline-asm scopes with low,high */
    assert_int_equal(h->regdecls->len, 5 + 6);
    assert_int_equal(h->regs->len, 2 + 18 + 12 + 18 + 8 + 6);
    const ptx_regdecl *low = &g_array_index(h->regdecls, ptx_regdecl, 5);
    assert_string_equal(low->prefix, "low");
    assert_int_equal(low->type, PTX_T_F16);
    assert_false(low->is_range);
    assert_int_equal(h->instrs->len, 43);
    /* {  cvt.rn.f16.f32 %rs1, %f1;} */
    const ptx_instr *in = instr(h, 13);
    assert_int_equal(in->op, PTX_OP_CVT);
    assert_int_equal(in->rnd, PTX_RND_RN);
    assert_int_equal(in->ntypes, 2);
    assert_int_equal(in->types[0], PTX_T_F16);
    assert_int_equal(in->types[1], PTX_T_F32);
    assert_int_equal(in->loc.line, 43);
    assert_int_equal(in->loc.col, 5);
    /* mul.f32 %f2, %f1, 0f3F000000; */
    in = instr(h, 14);
    const ptx_operand *o = opnd(h, in, 2);
    assert_int_equal(o->kind, PTX_OPND_FIMM32);
    assert_int_equal(o->val, 0x3F000000);
    /* add.f16 / mul.f16 / fma.rn.f16 */
    assert_int_equal(instr(h, 16)->types[0], PTX_T_F16);
    assert_mods(m, instr(h, 20), "rn.f16");
    assert_int_equal(instr(h, 20)->op, PTX_OP_FMA);
    /* mov.b32 %r7, {%rs1,%rs10}; */
    in = instr(h, 21);
    o = opnd(h, in, 1);
    assert_int_equal(o->kind, PTX_OPND_VEC);
    assert_int_equal(o->id2, 2);
    assert_int_equal(ptx_func_opnd(h, (uint32_t)o->id)->id, reg_id(h, "%rs1"));
    assert_int_equal(ptx_func_opnd(h, (uint32_t)o->id + 1)->id, reg_id(h, "%rs10"));
    /* mov.f32 %f4, 0fC0000000; */
    assert_int_equal(opnd(h, instr(h, 23), 1)->val, 0xC0000000);
    /* first scope: cvt.rn.f16.f32 low, %f3; ... mov.b32 %r8, {low,high}; */
    in = instr(h, 24);
    assert_int_equal(opnd(h, in, 0)->id, (int32_t)low->first_reg);
    in = instr(h, 26);
    o = opnd(h, in, 1);
    assert_int_equal(o->kind, PTX_OPND_VEC);
    assert_int_equal(ptx_func_opnd(h, (uint32_t)o->id)->id, (int32_t)low->first_reg);
    assert_int_equal(ptx_func_opnd(h, (uint32_t)o->id + 1)->id, (int32_t)low->first_reg + 1);
    /* add.f16x2 %r9,%r7,%r8; */
    assert_int_equal(instr(h, 27)->types[0], PTX_T_F16X2);
    /* the second scope's low,high are new registers: mov.b32 {low,high},%r12; */
    in = instr(h, 30);
    o = opnd(h, in, 0);
    assert_int_equal(o->kind, PTX_OPND_VEC);
    assert_int_equal(ptx_func_opnd(h, (uint32_t)o->id)->id, (int32_t)low->first_reg + 2);
    /* cvt.rzi.s32.f16 %r17, %rs3; */
    in = instr(h, 36);
    assert_int_equal(in->rnd, PTX_RND_RZI);
    assert_mods(m, in, "rzi.s32.f16");

    const ptx_func *d = func_named(m, "double_ops");
    static const regdecl_want rd[] = {
        {"%p", PTX_T_PRED, 2, true}, {"%f", PTX_T_F32, 2, true},
        {"%r", PTX_T_B32, 6, true}, {"%fd", PTX_T_F64, 14, true},
        {"%rd", PTX_T_B64, 9, true},
    };
    assert_regdecls(d, rd, 5);
    assert_int_equal(d->instrs->len, 31);
    /* add.f64 %fd2, %fd1, 0d3FF0000000000000; */
    o = opnd(d, instr(d, 13), 2);
    assert_int_equal(o->kind, PTX_OPND_FIMM64);
    assert_int_equal((uint64_t)o->val, UINT64_C(0x3FF0000000000000));
    /* fma.rn.f64 %fd5, %fd3, %fd2, %fd4; div.rn.f64; sqrt.rn.f64 */
    in = instr(d, 16);
    assert_int_equal(in->op, PTX_OP_FMA);
    assert_int_equal(in->rnd, PTX_RND_RN);
    assert_int_equal(in->types[0], PTX_T_F64);
    assert_int_equal(in->nopnds, 4);
    assert_int_equal(instr(d, 17)->op, PTX_OP_DIV);
    assert_int_equal(instr(d, 17)->rnd, PTX_RND_RN);
    assert_int_equal(instr(d, 20)->op, PTX_OP_SQRT);
    /* cvt.f64.f32 %fd10, %f1; has no rounding */
    in = instr(d, 22);
    assert_int_equal(in->rnd, PTX_RND_NONE);
    assert_mods(m, in, "f64.f32");
    assert_text(m, d, 24, "cvt.rzi.s64.f64 %rd6, %fd3;");
    ptx_module_free(m);

    /* sm_80 keeps the same kernels with its own instruction selection */
    m = load("tests/corpus/nvcc/half_double.sm_80.ptx");
    assert_int_equal(func_named(m, "double_ops")->instrs->len, 31);
    assert_true(func_named(m, "half_ops")->instrs->len > 0);
    ptx_module_free(m);
}

/* ----------------------------------------------------------------- printf */

static void test_printf(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/printf.sm_75.ptx");
    assert_int_equal(m->funcs->len, 2);
    /* .extern .func (.param .b32 func_retval0) vprintf (.param .b64, .param .b64); */
    const ptx_func *vp = func_named(m, "vprintf");
    assert_int_equal(ptx_module_find_func(m, "vprintf"), 0);
    assert_false(vp->has_body);
    assert_false(vp->is_entry);
    assert_int_equal(vp->linkage, PTX_LINK_EXTERN);
    static const ptx_type b32[] = {PTX_T_B32};
    static const ptx_type b64[] = {PTX_T_B64, PTX_T_B64};
    assert_params(m, vp->rets, b32, 1, NULL);
    assert_params(m, vp->params, b64, 2, "vprintf_param_");

    /* $str: the format string bytes with their NUL */
    static const char fmt[] = "t=%d u=%u f=%f s=%s x=%x ll=%lld c=%c\n";
    int32_t s = ptx_module_find(m, "$str");
    assert_true(s >= 0);
    const ptx_var *v = ptx_module_var(m, ptx_module_sym(m, s)->index);
    assert_int_equal(v->space, PTX_SPACE_GLOBAL);
    assert_int_equal(v->type, PTX_T_B8);
    assert_int_equal(v->align, 1);
    assert_int_equal(v->linkage, 0);
    assert_int_equal(v->ndims, 1);
    assert_int_equal(v->dims[0], sizeof fmt);
    assert_int_equal(v->init->len, 2 + sizeof fmt - 1);
    assert_int_equal(g_array_index(v->init, ptx_init, 0).kind, PTX_INIT_OPEN);
    for (size_t i = 0; i + 1 < sizeof fmt; i++) {
        const ptx_init *it = &g_array_index(v->init, ptx_init, i + 1);
        assert_int_equal(it->kind, PTX_INIT_INT);
        assert_int_equal(it->val, (unsigned char)fmt[i]);
    }
    assert_int_equal(g_array_index(v->init, ptx_init, v->init->len - 1).kind, PTX_INIT_CLOSE);
    /* $str$1[4] = {112, 116, 120}: shorter than the array */
    s = ptx_module_find(m, "$str$1");
    assert_true(s >= 0);
    v = ptx_module_var(m, ptx_module_sym(m, s)->index);
    assert_int_equal(v->dims[0], 4);
    assert_int_equal(v->init->len, 5);
    assert_int_equal(g_array_index(v->init, ptx_init, 3).val, 'x');

    const ptx_func *f = func_named(m, "print_kernel");
    static const ptx_type u32[] = {PTX_T_U32};
    assert_params(m, f->params, u32, 1, "print_kernel_param_");
    static const regdecl_want rd[] = {
        {"%SP", PTX_T_B64, 1, false}, {"%SPL", PTX_T_B64, 1, false},
        {"%p", PTX_T_PRED, 2, true}, {"%r", PTX_T_B32, 8, true},
        {"%fd", PTX_T_F64, 3, true}, {"%rd", PTX_T_B64, 9, true},
        {"temp_param_reg", PTX_T_B32, 1, false},
    };
    assert_regdecls(f, rd, 7);
    assert_int_equal(f->instrs->len, 31);
    const ptx_var *depot = local_var(m, f, "__local_depot0");
    assert_int_equal(depot->space, PTX_SPACE_LOCAL);
    assert_int_equal(depot->align, 8);
    assert_int_equal(depot->dims[0], 48);
    /* mov.u64 %SPL, __local_depot0;  cvta.local.u64 %SP, %SPL; */
    const ptx_instr *in = instr(f, 0);
    assert_reg(f, in, 0, "%SPL");
    assert_sym(m, f, in, 1, "__local_depot0", PTX_SYM_VAR);
    in = instr(f, 1);
    assert_int_equal(in->op, PTX_OP_CVTA);
    assert_int_equal(in->space, PTX_SPACE_LOCAL);
    assert_reg(f, in, 0, "%SP");
    assert_reg(f, in, 1, "%SPL");
    /* mul.lo.s64 %rd2, %rd1, 1000000000000; */
    assert_imm(f, instr(f, 8), 2, INT64_C(1000000000000));
    /* mul.f64 %fd2, %fd1, 0d3FE0000000000000; */
    assert_int_equal((uint64_t)opnd(f, instr(f, 10), 2)->val, UINT64_C(0x3FE0000000000000));
    /* st.local.v2.u32 [%rd4], {%r4, %r1}; */
    in = instr(f, 14);
    assert_int_equal(in->op, PTX_OP_ST);
    assert_int_equal(in->vec, 2);
    assert_int_equal(in->space, PTX_SPACE_LOCAL);
    assert_addr_reg(f, in, 0, "%rd4", 0);
    const ptx_operand *o = opnd(f, in, 1);
    assert_int_equal(o->kind, PTX_OPND_VEC);
    assert_int_equal(o->id2, 2);
    assert_int_equal(ptx_func_opnd(f, (uint32_t)o->id)->id, reg_id(f, "%r4"));
    assert_int_equal(ptx_func_opnd(f, (uint32_t)o->id + 1)->id, reg_id(f, "%r1"));
    /* st.local.f64 [%rd4+8], %fd2; */
    assert_addr_reg(f, instr(f, 15), 0, "%rd4", 8);
    /* mov.u64 %rd5, $str$1;  cvta.global.u64 %rd6, %rd5; */
    assert_sym(m, f, instr(f, 16), 1, "$str$1", PTX_SYM_VAR);
    assert_int_equal(instr(f, 17)->space, PTX_SPACE_GLOBAL);
    assert_sym(m, f, instr(f, 24), 1, "$str", PTX_SYM_VAR);
    /* call.uni (retval0), vprintf, (param0, param1); */
    in = instr(f, 28);
    assert_int_equal(in->op, PTX_OP_CALL);
    const ptx_symbol *callee = assert_sym(m, f, in, 1, "vprintf", PTX_SYM_FUNC);
    assert_int_equal(callee->index, 0);
    assert_int_equal(opnd(f, in, 2)->id2, 2);
    assert_text(m, f, 28, "call.uni (retval0), vprintf, (param0, param1);");
    ptx_module_free(m);
}

/* -------------------------------------------------------------- stencil2d */

static void test_stencil2d(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/stencil2d.sm_75.ptx");
    const ptx_func *f = func_named(m, "stencil5");
    static const ptx_type pt[] = {PTX_T_U64, PTX_T_U64, PTX_T_U32, PTX_T_U32};
    assert_params(m, f->params, pt, 4, "stencil5_param_");
    static const regdecl_want rd[] = {
        {"%p", PTX_T_PRED, 8, true}, {"%f", PTX_T_F32, 16, true},
        {"%r", PTX_T_B32, 65, true}, {"%rd", PTX_T_B64, 21, true},
    };
    assert_regdecls(f, rd, 4);
    assert_int_equal(f->instrs->len, 87);
    assert_int_equal(f->labels->len, 5);
    const ptx_var *tile = local_var(m, f, "_ZZ8stencil5E4tile");
    assert_int_equal(tile->space, PTX_SPACE_SHARED);
    assert_int_equal(tile->dims[0], 1296);
    /* mov.u32 %r12, %ctaid.y;  mov.u32 %r14, %tid.y; */
    assert_sreg(f, instr(f, 9), 1, PTX_SREG_CTAID, 2);
    assert_sreg(f, instr(f, 11), 1, PTX_SREG_TID, 2);
    /* add.s32 %r15, %r6, -1;  min.s32 %r2, %r11, %r15; */
    assert_imm(f, instr(f, 13), 2, -1);
    assert_int_equal(instr(f, 14)->op, PTX_OP_MIN);
    /* mad.lo.s32 %r19, %r14, 72, %r18;  st.shared.f32 [%r21+76], %f1; */
    assert_imm(f, instr(f, 23), 2, 72);
    const ptx_instr *in = instr(f, 26);
    assert_int_equal(in->space, PTX_SPACE_SHARED);
    assert_addr_reg(f, in, 0, "%r21", 76);
    /* max.s32 %r23, %r22, 0; */
    assert_int_equal(instr(f, 30)->op, PTX_OP_MAX);
    /* st.shared.f32 [%r64+1224], %f5; */
    in = instr(f, 65);
    assert_int_equal(in->op, PTX_OP_ST);
    assert_addr_reg(f, in, 0, "%r64", 1224);
    assert_reg(f, in, 1, "%f5");
    assert_int_equal(in->loc.line, 105);
    /* or.pred %p7, %p5, %p6;  @%p7 bra $L__BB0_10; */
    in = instr(f, 69);
    assert_int_equal(in->op, PTX_OP_OR);
    assert_int_equal(in->types[0], PTX_T_PRED);
    assert_reg(f, in, 0, "%p7");
    assert_guard(f, instr(f, 70), "%p7", false);
    assert_int_equal(label_at(m, f, "$L__BB0_10"), 86);
    /* fma.rn.f32 %f15, %f6, 0f3F000000, %f14; */
    assert_text(m, f, 80, "fma.rn.f32 %f15, %f6, 0f3F000000, %f14;");
    assert_int_equal(count_op(f, PTX_OP_BAR), 1);
    ptx_module_free(m);
}

/* ----------------------------------------------------------- ldg_volatile */

static void test_ldg_volatile(void **state)
{
    (void)state;
    ptx_module *m = load("tests/corpus/nvcc/ldg_volatile.sm_75.ptx");
    const ptx_func *f = func_named(m, "prod_cons");
    static const ptx_type pt[] = {PTX_T_U64, PTX_T_U64, PTX_T_U64};
    assert_params(m, f->params, pt, 3, "prod_cons_param_");
    static const regdecl_want rd[] = {
        {"%p", PTX_T_PRED, 5, true}, {"%r", PTX_T_B32, 11, true},
        {"%rd", PTX_T_B64, 8, true},
    };
    assert_regdecls(f, rd, 3);
    assert_int_equal(f->instrs->len, 35);
    static const char *const vars[] = {"_ZZ9prod_consE4flag", "_ZZ9prod_consE5value"};
    for (unsigned i = 0; i < 2; i++) {
        const ptx_var *v = local_var(m, f, vars[i]);
        assert_int_equal(v->space, PTX_SPACE_SHARED);
        assert_int_equal(v->type, PTX_T_U32);
        assert_int_equal(v->align, 4);
        assert_int_equal(v->ndims, 0);
    }
    /* st.volatile.shared.u32 [_ZZ9prod_consE4flag], %r2; */
    const ptx_instr *in = instr(f, 8);
    assert_int_equal(in->op, PTX_OP_ST);
    assert_mods(m, in, "volatile.shared.u32");
    assert_int_equal(in->space, PTX_SPACE_SHARED);
    assert_addr_sym(m, f, in, 0, "_ZZ9prod_consE4flag", 0);
    assert_reg(f, in, 1, "%r2");
    /* the spin loop: ld.volatile.shared.u32 %r3, [flag]; setp; @%p4 bra $L__BB0_5; */
    assert_int_equal(label_at(m, f, "$L__BB0_5"), 16);
    in = instr(f, 16);
    assert_int_equal(in->op, PTX_OP_LD);
    assert_true(ptx_instr_has_mod(in, PTX_MOD_VOLATILE));
    in = instr(f, 18);
    assert_guard(f, in, "%p4", false);
    assert_int_equal(assert_sym(m, f, in, 0, "$L__BB0_5", PTX_SYM_LABEL)->index, 16);
    /* ld.global.nc.s32 %r4, [%rd6]; (from __ldg inline asm) */
    in = instr(f, 21);
    assert_int_equal(in->op, PTX_OP_LD);
    assert_mods(m, in, "global.nc.s32");
    assert_true(ptx_instr_has_mod(in, PTX_MOD_NC));
    assert_int_equal(in->types[0], PTX_T_S32);
    assert_addr_reg(f, in, 1, "%rd6", 0);
    assert_int_equal(in->loc.line, 61);
    /* st.global.u32 [%rd2+4], %r7; */
    assert_addr_reg(f, instr(f, 25), 0, "%rd2", 4);
    /* bra.uni $L__BB0_8; */
    in = instr(f, 26);
    assert_int_equal(in->op, PTX_OP_BRA);
    assert_mods(m, in, "uni");
    assert_int_equal(in->guard, -1);
    assert_int_equal(assert_sym(m, f, in, 0, "$L__BB0_8", PTX_SYM_LABEL)->index, 34);
    /* membar.cta; */
    in = instr(f, 31);
    assert_int_equal(in->op, PTX_OP_MEMBAR);
    assert_mods(m, in, "cta");
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_nvcc_parse),
        cmocka_unit_test(test_all_hand_parse),
        cmocka_unit_test(test_all_targets),
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_reduction),
        cmocka_unit_test(test_spinlock),
        cmocka_unit_test(test_device_calls),
        cmocka_unit_test(test_half_double),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_stencil2d),
        cmocka_unit_test(test_ldg_volatile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
