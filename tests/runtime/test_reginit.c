/* tests/runtime/test_reginit.c — which registers a warp zeroes at CTA start
 * (runtime/reginit.c): exactly those some thread may read before writing
 * them, worked out by hand from the kernels' paths below; and, end to end,
 * a register read before any write still reads 0 in a warp slot that a
 * CTA of another kernel used before. */
#include "api/ptxemu.h"
#include "frontend/parser.h"
#include "runtime/exec.h"
#include "runtime/loader.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

/* Slots: %r0..%r5 = 0..5, %p0..%p1 = 6..7, %rd0 = 8. */
static const char text[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<1>;\n"
    "  ld.param.u64 %rd0, [p];\n"          /* rd0 written on every path */
    "  mov.u32 %r0, %tid.x;\n"            /* r0 written */
    "  setp.eq.u32 %p0, %r0, 0;\n"        /* p0 written */
    "  @%p0 mov.u32 %r1, 7;\n"            /* r1: guarded write only */
    "  @%p0 bra SKIP;\n"
    "  mov.u32 %r2, 5;\n"                 /* r2: written on one path */
    "SKIP:\n"
    "  add.u32 %r3, %r1, %r2;\n"          /* reads r1, r2: both may be unwritten */
    "  mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "  add.u32 %r4, %r4, 1;\n"            /* r4 written before the loop */
    "  setp.lt.u32 %p1, %r4, 3;\n"
    "  @%p1 bra LOOP;\n"
    "  shfl.sync.idx.b32 %r5, %r0, 0, 31, -1;\n" /* cross-lane: r0 (and r5) zeroed */
    "  add.u32 %r3, %r3, %r5;\n"
    "  st.global.u32 [%rd0], %r3;\n"
    "  ret;\n"
    "}\n";

/* A module loaded from PTX text, with everything its kernel `k` needs. */
typedef struct loaded {
    ptx_module *ir;
    dev_memory mem;
    GPtrArray *unsupported;
    ex_module *m;
    const ex_func *k;
} loaded;

static void load(loaded *x, const char *ptx, size_t len, const char *name)
{
    GError *err = NULL;
    x->ir = ptx_parse_string(ptx, len, name, &err);
    assert_non_null(x->ir);
    mem_init(&x->mem);
    x->unsupported = g_ptr_array_new_with_free_func(g_free);
    x->m = ex_module_load_ex(x->ir, &x->mem, x->unsupported, &err);
    assert_non_null(x->m);
    assert_int_equal(x->unsupported->len, 0);
    x->k = g_hash_table_lookup(x->m->kernels, "k");
    assert_non_null(x->k);
}

static void unload(loaded *x)
{
    ex_module_free(x->m);
    g_ptr_array_free(x->unsupported, TRUE);
    mem_destroy(&x->mem);
    ptx_module_free(x->ir);
}

static void test_zero_set(void **state)
{
    (void)state;
    loaded x;
    load(&x, text, sizeof text - 1, "reginit.ptx");
    const ex_func *fn = x.k;
    assert_false(fn->zero_all);
    bool z[9] = {false};
    for (uint32_t i = 0; i < fn->nzero; i++) {
        assert_true(fn->zero_slots[i] < 9);
        z[fn->zero_slots[i]] = true;
    }
    /* r0: shfl source; r1: guarded write; r2: one path; r5: shfl destination */
    const bool want[9] = {true, true, true, false, false, true, false, false, false};
    for (unsigned s = 0; s < 9; s++)
        if (z[s] != want[s])
            fail_msg("slot %u: zeroed %d, want %d", s, z[s], want[s]);
    unload(&x);
}

/* A kernel with a call zeroes everything (the analysis does not follow calls). */
static void test_calls_zero_all(void **state)
{
    (void)state;
    static const char t[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".func (.reg .u32 r) g(.reg .u32 a)\n{\n  add.u32 r, a, 1;\n  ret;\n}\n"
        ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n"
        "  mov.u32 %r0, 1;\n  call (%r1), g, (%r0);\n  ret;\n}\n";
    loaded x;
    load(&x, t, sizeof t - 1, "calls.ptx");
    assert_true(x.k->zero_all);
    unload(&x);
}

/* End to end: CTAs 0..7 write 0xdead0000 into %r3 on every thread; CTA 8
 * (the functional driver keeps 8 CTAs resident, so it reuses CTA 0's warp
 * slot) writes it only on even threads and reads it on all.  Odd threads
 * of CTA 8 must see 0, not the previous CTA's value. */
static const char e2e[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
    "  .reg .pred %q<2>;\n"
    "  ld.param.u64 %rd0, [p];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
    "  setp.lt.u32 %q0, %r2, 8;\n  @%q0 bra DIRTY;\n"
    "  and.b32 %r4, %r1, 1;\n  setp.ne.u32 %q1, %r4, 0;\n  @%q1 bra JOIN;\n"
    "  mov.u32 %r3, 100;\n  bra JOIN;\n"
    "DIRTY:\n  mov.u32 %r3, 0xdead0000;\n"
    "JOIN:\n  add.u32 %r5, %r3, %r1;\n  shl.b32 %r4, %r2, 6;\n  add.u32 %r4, %r4, %r1;\n"
    "  mul.wide.u32 %rd1, %r4, 4;\n  add.s64 %rd0, %rd0, %rd1;\n"
    "  st.global.u32 [%rd0], %r5;\n  ret;\n}\n";

static void test_unwritten_reads_zero(void **state)
{
    (void)state;
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    ptxemu_ctx *ctx = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_module_load_string(ctx, e2e, "e2e.ptx", &mod), PTXEMU_OK);
    ptxemu_dptr d = 0;
    assert_int_equal(ptxemu_malloc(ctx, &d, 9 * 64 * 4), PTXEMU_OK);
    void *args[] = {&d};
    assert_int_equal(ptxemu_launch(mod, "k", (ptxemu_dim3){9, 1, 1}, (ptxemu_dim3){64, 1, 1},
                                   0, args),
                     PTXEMU_OK);
    uint32_t out[9 * 64];
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, out, d, sizeof out), PTXEMU_OK);
    for (unsigned c = 0; c < 9; c++)
        for (unsigned t = 0; t < 64; t++) {
            uint32_t want = c < 8 ? 0xdead0000u + t : (t & 1) ? t : t + 100;
            if (out[c * 64 + t] != want)
                fail_msg("CTA %u thread %u: 0x%x, want 0x%x", c, t, out[c * 64 + t], want);
        }
    ptxemu_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_set),
        cmocka_unit_test(test_calls_zero_all),
        cmocka_unit_test(test_unwritten_reads_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
