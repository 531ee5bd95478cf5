/* tests/runtime/test_reguse.c — the opcode rows (isa/opcodes.def) and what
 * the loader derives from them: the register slots each instruction reads
 * and writes (ex_func.reguse, used by the timing model's scoreboard and
 * liveness).  Expected slots are worked out by hand from the declaration
 * order (slots are handed out in declaration order, a .v4 register takes
 * four) and the PTX ISA's operand meanings. */
#include "frontend/operands.h"
#include "frontend/parser.h"
#include "isa/latency.h"
#include "isa/opcodes.h"
#include "runtime/exec.h"
#include "runtime/loader.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

/* Slots: %r0..%r4 = 0..4, %f0..%f4 = 5..9, %rd0..%rd1 = 10..11,
 * %p0..%p2 = 12..14, %v = 15..18. */
static const char text[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".func (.reg .u32 ret) g(.reg .u32 a)\n{\n  add.u32 ret, a, 1;\n  ret;\n}\n"
    ".visible .entry e(.param .u64 p)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<2>;\n"
    "  .reg .pred %p<3>;\n  .reg .v4 .f32 %v;\n"
    "  ld.param.u64 %rd1, [p];\n"                        /* 0 */
    "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n" /* 1 */
    "  setp.lt.f32 %p1|%p2, %f1, %f2;\n"                 /* 2 */
    "  @%p1 add.f32 %f1, %f1, %f1;\n"                    /* 3 */
    "  mov.v4.f32 %v, {%f1, %f2, %f3, %f4};\n"           /* 4 */
    "  mov.f32 %f0, %v.y;\n"                             /* 5 */
    "  bar.red.popc.u32 %r1, 0, %p1;\n"                  /* 6 */
    "  bar.sync %r1;\n"                                  /* 7 */
    "  atom.global.add.u32 %r2, [%rd1], %r1;\n"          /* 8 */
    "  call (%r3), g, (%r2);\n"                          /* 9 */
    "  st.global.u32 [%rd1], %r3;\n"                     /* 10 */
    "  ret;\n"                                           /* 11 */
    "}\n";

typedef struct want {
    uint32_t nread, reads[5];
    uint32_t nwrite, writes[5];
} want;

static const want wants[] = {
    {0, {0}, 1, {11}},
    {1, {11}, 4, {6, 7, 8, 9}},          /* vector destination: every element */
    {2, {6, 7}, 2, {13, 14}},            /* p|q: both halves written */
    {2, {13, 6}, 1, {6}},                /* guard read; %f1 read once */
    {4, {6, 7, 8, 9}, 4, {15, 16, 17, 18}}, /* whole vector register written */
    {1, {16}, 1, {5}},                   /* %v.y is slot 15 + 1 */
    {1, {13}, 1, {1}},                   /* bar.red: d written, 0 is an immediate */
    {1, {1}, 0, {0}},                    /* bar.sync: its operand is read */
    {2, {11, 1}, 1, {2}},                /* address base and operand read */
    {1, {2}, 1, {3}},                    /* call: arguments read, returns written */
    {2, {11, 3}, 0, {0}},
    {0, {0}, 0, {0}},
};

static bool contains(const uint32_t *set, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++)
        if (set[i] == v)
            return true;
    return false;
}

static void test_register_slots(void **state)
{
    (void)state;
    GError *err = NULL;
    ptx_module *ir = ptx_parse_string(text, sizeof text - 1, "reguse.ptx", &err);
    assert_non_null(ir);
    dev_memory mem;
    mem_init(&mem);
    GPtrArray *unsupported = g_ptr_array_new_with_free_func(g_free);
    ex_module *m = ex_module_load_ex(ir, &mem, unsupported, &err);
    assert_non_null(m);
    assert_int_equal(unsupported->len, 0);
    const ex_func *fn = g_hash_table_lookup(m->kernels, "e");
    assert_non_null(fn);
    assert_int_equal(fn->nregs, 19);
    assert_int_equal(fn->ninstrs, G_N_ELEMENTS(wants));
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ex_reguse *ru = &fn->reguse[i];
        const uint32_t *r = fn->reg_slots + ru->first, *w = r + ru->nread;
        const want *x = &wants[i];
        if (ru->nread != x->nread || ru->nwrite != x->nwrite)
            fail_msg("instruction %u: %u reads, %u writes; want %u, %u", i, ru->nread,
                     ru->nwrite, x->nread, x->nwrite);
        for (uint32_t k = 0; k < x->nread; k++)
            if (!contains(r, ru->nread, x->reads[k]))
                fail_msg("instruction %u does not read slot %u", i, x->reads[k]);
        for (uint32_t k = 0; k < x->nwrite; k++)
            if (!contains(w, ru->nwrite, x->writes[k]))
                fail_msg("instruction %u does not write slot %u", i, x->writes[k]);
    }
    /* the guard is listed first (the order documented in frontend/operands.h) */
    assert_int_equal(fn->reg_slots[fn->reguse[3].first], 13);
    ex_module_free(m);
    g_ptr_array_free(unsupported, TRUE);
    mem_destroy(&mem);
    ptx_module_free(ir);
}

/* The phase pass asks the same roles: bar.red's first operand is a def,
 * bar.sync's a use. */
static void test_bar_red_roles(void **state)
{
    (void)state;
    GError *err = NULL;
    ptx_module *ir = ptx_parse_string(text, sizeof text - 1, "reguse.ptx", &err);
    assert_non_null(ir);
    const ptx_func *f = ptx_module_func(ir, (uint32_t)ptx_module_find_func(ir, "e"));
    assert_true(ptx_instr_operand_is_def(f, ptx_func_instr(f, 6), 0));
    assert_false(ptx_instr_operand_is_def(f, ptx_func_instr(f, 7), 0));
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    ptx_instr_defs(f, ptx_func_instr(f, 6), regs);
    assert_int_equal(regs->len, 1);
    g_array_free(regs, TRUE);
    ptx_module_free(ir);
}

/* Row consistency: the facts other layers rely on. */
static void test_rows(void **state)
{
    (void)state;
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        const ptx_opinfo *in = ptx_opcode_info((ptx_opcode)op);
        assert_true(in->family < PTX_FAM_COUNT);
        /* typed latency families are arithmetic (int/fp32/fp64 by type) */
        if (in->lat <= PTX_LATK_DIV)
            assert_int_equal(in->family, PTX_FAM_ARITH);
        /* long "when off chip" needs a state space: memory instructions */
        if (in->flags & PTX_OPF_LONG_SPACE)
            assert_int_equal(in->unit, PTX_UNIT_MEM);
        for (const char *p = in->shape; *p; p++)
            if (!strchr("dsral*?+", *p))
                fail_msg("%s: role letter '%c'", in->name, *p);
    }
    /* the classes GPGPU-Sim's config keys name (isa/latency.h) */
    assert_int_equal(ptx_latency_class_of(PTX_OP_MAD24, PTX_T_S32), PTX_LAT_INT_MAD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_TANH, PTX_T_F32), PTX_LAT_SFU);
    assert_int_equal(ptx_latency_class_of(PTX_OP_CP, PTX_T_NONE), PTX_LAT_MEM);
    assert_int_equal(ptx_latency_class_of(PTX_OP_WMMA, PTX_T_NONE), PTX_LAT_MMA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_slots),
        cmocka_unit_test(test_bar_red_roles),
        cmocka_unit_test(test_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
