/* tests/runtime/test_exec.c — the SIMT core: divergence and reconvergence at
 * immediate post-dominators, per-lane loop trip counts, early exit, calls
 * with divergent lanes, recursion, brx.idx, barriers with reductions, and
 * inactive lanes keeping their values.  Expected values are computed by hand
 * (or by the plain C loop each kernel describes). */
#include "frontend/phase.h"
#include "frontend/spin.h"
#include "api/api_internal.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

/* out[tid] = value computed by the kernel; one buffer of n u32 */
static void run_u32(const char *ptx, const char *kernel, unsigned grid, unsigned block,
                    uint32_t *out, unsigned n)
{
    test_buf b = {out, n * sizeof(uint32_t)};
    char *err = NULL;
    ptxemu_status s = test_run_ptx(ptx, kernel, grid, block, &b, 1, &err);
    if (s != PTXEMU_OK)
        print_error("%s\n", err);
    g_free(err);
    assert_int_equal(s, PTXEMU_OK);
}

/* Nested if/else: even lanes add 1 then (lane%4==0 ? +10 : +20); odd lanes
 * add 100; everybody adds 1000 after reconverging. */
static const char nested_if[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mov.u32 %r2, 0;\n"
    "and.b32 %r3, %r1, 1;\n"
    "setp.ne.u32 %p1, %r3, 0;\n"
    "@%p1 bra ODD;\n"
    "add.u32 %r2, %r2, 1;\n"
    "and.b32 %r4, %r1, 3;\n"
    "setp.eq.u32 %p2, %r4, 0;\n"
    "@%p2 bra FOUR;\n"
    "add.u32 %r2, %r2, 20;\n"
    "bra.uni JOIN1;\n"
    "FOUR:\n"
    "add.u32 %r2, %r2, 10;\n"
    "JOIN1:\n"
    "bra.uni JOIN;\n"
    "ODD:\n"
    "add.u32 %r2, %r2, 100;\n"
    "JOIN:\n"
    "add.u32 %r2, %r2, 1000;\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r2;\n"
    "ret;\n}\n";

static void test_nested_divergence(void **state)
{
    (void)state;
    uint32_t out[64] = {0};
    run_u32(nested_if, "k", 1, 64, out, 64);
    for (unsigned t = 0; t < 64; t++) {
        uint32_t want = t % 2 ? 1100 : (t % 4 == 0 ? 1011 : 1021);
        assert_int_equal(out[t], want);
    }
}

/* Each lane loops tid times accumulating i*i, with a per-lane break when the
 * sum passes 500: sum_{i<n} i*i capped by the break. */
static const char per_lane_loop[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mov.u32 %r2, 0;\n"   /* i */
    "mov.u32 %r3, 0;\n"   /* sum */
    "LOOP:\n"
    "setp.ge.u32 %p1, %r2, %r1;\n"
    "@%p1 bra DONE;\n"
    "mad.lo.u32 %r3, %r2, %r2, %r3;\n"
    "add.u32 %r2, %r2, 1;\n"
    "setp.gt.u32 %p2, %r3, 500;\n"
    "@%p2 bra DONE;\n"
    "bra.uni LOOP;\n"
    "DONE:\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r3;\n"
    "ret;\n}\n";

static void test_per_lane_loops_and_break(void **state)
{
    (void)state;
    uint32_t out[48] = {0};
    run_u32(per_lane_loop, "k", 1, 48, out, 48);
    for (unsigned t = 0; t < 48; t++) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < t; i++) {
            sum += i * i;
            if (sum > 500)
                break;
        }
        assert_int_equal(out[t], sum);
    }
}

/* Lanes >= 10 exit early; the rest store after a barrier-free loop, and
 * lanes 5..9 are inside a branch when others exit. */
static const char early_exit[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "setp.ge.u32 %p1, %r1, 5;\n"
    "@!%p1 bra LOW;\n"
    "setp.ge.u32 %p2, %r1, 10;\n"
    "@%p2 exit;\n"
    "st.global.u32 [%rd3], 55;\n"
    "bra.uni END;\n"
    "LOW:\n"
    "st.global.u32 [%rd3], 7;\n"
    "END:\n"
    "ld.global.u32 %r2, [%rd3];\n"
    "add.u32 %r2, %r2, 1;\n"
    "st.global.u32 [%rd3], %r2;\n"
    "ret;\n}\n";

static void test_early_exit_inside_divergence(void **state)
{
    (void)state;
    uint32_t out[32];
    for (unsigned i = 0; i < 32; i++)
        out[i] = 0xdead;
    run_u32(early_exit, "k", 1, 32, out, 32);
    for (unsigned t = 0; t < 32; t++)
        assert_int_equal(out[t], t < 5 ? 8u : t < 10 ? 56u : 0xdeadu);
}

/* A recursive .func (sum 1..n) called only by odd lanes, with a .param
 * return value; even lanes keep their register value. */
static const char recursion[] = HEADER
    ".func (.param .b32 ret) sumto(.param .b32 n)\n{\n"
    ".reg .pred %p<2>; .reg .b32 %r<6>;\n"
    "ld.param.b32 %r1, [n];\n"
    "setp.eq.u32 %p1, %r1, 0;\n"
    "@%p1 bra BASE;\n"
    "add.u32 %r2, %r1, -1;\n"
    "{\n.param .b32 a0;\n.param .b32 r0;\n"
    "st.param.b32 [a0], %r2;\n"
    "call (r0), sumto, (a0);\n"
    "ld.param.b32 %r3, [r0];\n}\n"
    "add.u32 %r4, %r3, %r1;\n"
    "st.param.b32 [ret], %r4;\n"
    "ret;\n"
    "BASE:\n"
    "st.param.b32 [ret], 0;\n"
    "ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mov.u32 %r5, 4242;\n"
    "and.b32 %r2, %r1, 1;\n"
    "setp.eq.u32 %p1, %r2, 0;\n"
    "@%p1 bra SKIP;\n"
    "{\n.param .b32 a0;\n.param .b32 r0;\n"
    "st.param.b32 [a0], %r1;\n"
    "call (r0), sumto, (a0);\n"
    "ld.param.b32 %r5, [r0];\n}\n"
    "SKIP:\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r5;\n"
    "ret;\n}\n";

static void test_recursion_with_divergent_callers(void **state)
{
    (void)state;
    uint32_t out[40] = {0};
    run_u32(recursion, "k", 1, 40, out, 40);
    for (unsigned t = 0; t < 40; t++)
        assert_int_equal(out[t], t % 2 ? t * (t + 1) / 2 : 4242u);
}

/* brx.idx with a per-lane index: three targets write 10, 20, 30. */
static const char brx[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "ts: .branchtargets A, B, C;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "rem.u32 %r2, %r1, 3;\n"
    "brx.idx %r2, ts;\n"
    "A:\n mov.u32 %r3, 10;\n bra.uni J;\n"
    "B:\n mov.u32 %r3, 20;\n bra.uni J;\n"
    "C:\n mov.u32 %r3, 30;\n"
    "J:\n"
    "add.u32 %r3, %r3, %r1;\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r3;\n"
    "ret;\n}\n";

static void test_brx_idx(void **state)
{
    (void)state;
    uint32_t out[32] = {0};
    run_u32(brx, "k", 1, 32, out, 32);
    for (unsigned t = 0; t < 32; t++)
        assert_int_equal(out[t], 10u * (t % 3 + 1) + t);
}

/* bar.red.popc over 96 threads: count of threads with tid % 3 == 0 (32),
 * and bar.red.and / .or on simple predicates. */
static const char bar_red[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "rem.u32 %r2, %r1, 3;\n"
    "setp.eq.u32 %p1, %r2, 0;\n"
    "bar.red.popc.u32 %r3, 0, %p1;\n"
    "setp.lt.u32 %p2, %r1, 200;\n"
    "bar.red.and.pred %p3, 1, %p2;\n"
    "selp.u32 %r4, 1000, 0, %p3;\n"
    "setp.eq.u32 %p2, %r1, 77;\n"
    "bar.red.or.pred %p3, 2, %p2;\n"
    "selp.u32 %r5, 100000, 0, %p3;\n"
    "add.u32 %r3, %r3, %r4;\n"
    "add.u32 %r3, %r3, %r5;\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r3;\n"
    "ret;\n}\n";

static void test_barrier_reductions(void **state)
{
    (void)state;
    uint32_t out[96] = {0};
    run_u32(bar_red, "k", 1, 96, out, 96);
    for (unsigned t = 0; t < 96; t++)
        assert_int_equal(out[t], 32u + 1000u + 100000u);
}

/* Shared memory across warps through a barrier: thread t writes t*3 to
 * s[t], then reads s[(t+33) % 128]. */
static const char shared_barrier[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".shared .align 4 .b8 s[512];\n"
    ".reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mov.u32 %r2, s;\n"
    "mul.lo.u32 %r3, %r1, 3;\n"
    "shl.b32 %r4, %r1, 2;\n"
    "add.u32 %r5, %r2, %r4;\n"
    "st.shared.u32 [%r5], %r3;\n"
    "bar.sync 0;\n"
    "add.u32 %r6, %r1, 33;\n"
    "rem.u32 %r6, %r6, 128;\n"
    "shl.b32 %r6, %r6, 2;\n"
    "add.u32 %r6, %r2, %r6;\n"
    "ld.shared.u32 %r7, [%r6];\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r7;\n"
    "ret;\n}\n";

static void test_shared_memory_across_warps(void **state)
{
    (void)state;
    uint32_t out[128] = {0};
    run_u32(shared_barrier, "k", 1, 128, out, 128);
    for (unsigned t = 0; t < 128; t++)
        assert_int_equal(out[t], ((t + 33) % 128) * 3);
}

/* Special registers in a 3D launch folded into one word per thread. */
static const char sregs[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b32 %r<12>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x; mov.u32 %r2, %tid.y; mov.u32 %r3, %ntid.x;\n"
    "mov.u32 %r4, %laneid; mov.u32 %r5, %warpid; mov.u32 %r6, %lanemask_lt;\n"
    "mad.lo.u32 %r7, %r2, %r3, %r1;\n"          /* linear tid */
    "popc.b32 %r8, %r6;\n"                      /* == laneid */
    "shl.b32 %r9, %r5, 16;\n"
    "shl.b32 %r10, %r8, 8;\n"
    "or.b32 %r9, %r9, %r10;\n"
    "or.b32 %r9, %r9, %r4;\n"
    "mul.wide.u32 %rd2, %r7, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r9;\n"
    "ret;\n}\n";

static void test_special_registers(void **state)
{
    (void)state;
    /* block 20 x 3: 60 threads, warps 0 and 1 */
    uint32_t out[60] = {0};
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    ptxemu_ctx_create(&ctx, NULL);
    assert_int_equal(ptxemu_module_load_string(ctx, sregs, "sregs", &mod), PTXEMU_OK);
    ptxemu_dptr d;
    ptxemu_malloc(ctx, &d, sizeof out);
    void *args[] = {&d};
    ptxemu_status s = ptxemu_launch(mod, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){20, 3, 1},
                                    0, args);
    if (s != PTXEMU_OK)
        print_error("%s\n", ptxemu_last_error(ctx));
    assert_int_equal(s, PTXEMU_OK);
    ptxemu_memcpy_dtoh(ctx, out, d, sizeof out);
    ptxemu_ctx_destroy(ctx);
    for (unsigned t = 0; t < 60; t++)
        assert_int_equal(out[t], ((t / 32) << 16) | ((t % 32) << 8) | (t % 32));
}

/* mov.v4 between vector registers and brace lists, and .x/.w components. */
static const char vector_moves[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b32 %r<8>; .reg .v4 .b32 %va; .reg .v4 .b32 %vb; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "add.u32 %r2, %r1, 100;\n"
    "add.u32 %r3, %r1, 200;\n"
    "add.u32 %r4, %r1, 300;\n"
    "mov.v4.b32 %va, {%r1, %r2, %r3, %r4};\n"
    "mov.v4.b32 %vb, %va;\n"
    "mov.v4.b32 {%r5, %r6, %r7, %r4}, %vb;\n"
    "add.u32 %r5, %r5, %vb.w;\n"          /* tid + tid+300 */
    "add.u32 %r5, %r5, %r7;\n"            /* + tid+200 */
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r5;\n"
    "ret;\n}\n";

static void test_vector_moves(void **state)
{
    (void)state;
    uint32_t out[40] = {0};
    run_u32(vector_moves, "k", 1, 40, out, 40);
    for (unsigned t = 0; t < 40; t++)
        assert_int_equal(out[t], 3 * t + 500);
}

/* A call through `.alias` runs the aliased function. */
static const char alias_call[] = HEADER
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
    ".reg .b32 %r<3>;\n"
    "ld.param.b32 %r1, [x];\n"
    "shl.b32 %r2, %r1, 1;\n"
    "st.param.b32 [r], %r2;\n"
    "ret;\n}\n"
    ".visible .func (.param .b32 r) dbl(.param .b32 x);\n"
    ".alias dbl, twice;\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\n"
    "{\n.param .b32 a0;\n.param .b32 r0;\n"
    "st.param.b32 [a0], %r1;\n"
    "call (r0), dbl, (a0);\n"
    "ld.param.b32 %r2, [r0];\n}\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "st.global.u32 [%rd3], %r2;\n"
    "ret;\n}\n";

static void test_alias_call(void **state)
{
    (void)state;
    uint32_t out[32] = {0};
    run_u32(alias_call, "k", 1, 32, out, 32);
    for (unsigned t = 0; t < 32; t++)
        assert_int_equal(out[t], 2 * t);
}

/* The decoded kernel carries the phase and spin annotations of the
 * analyses, instruction by instruction (issue: schedulers read them without
 * re-analysis). */
static void test_annotations_travel_to_decoded_kernel(void **state)
{
    (void)state;
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    ptxemu_ctx_create(&ctx, NULL);
    char *path = test_source_path("tests/corpus/nvcc/spinlock.sm_75.ptx");
    ptxemu_status s = ptxemu_module_load_file(ctx, path, &mod);
    g_free(path);
    if (s != PTXEMU_OK)
        print_error("%s\n", ptxemu_last_error(ctx));
    assert_int_equal(s, PTXEMU_OK);
    ex_module *ex = ptxemu_module_ex(mod);
    const ex_func *k = g_hash_table_lookup(ex->kernels, "spinlock_count");
    assert_non_null(k);
    ptx_phase_info *ph = ptx_phase_analyze(k->cfg, NULL);
    ptx_spin_info *sp = ptx_spin_analyze(ex->ir, k->cfg);
    unsigned candidates = 0;
    for (uint32_t i = 0; i < k->ninstrs; i++) {
        assert_int_equal(k->annot[i].phase, ph->phase_of[i]);
        assert_int_equal(k->annot[i].phase_distance, ph->distance[i]);
        assert_int_equal(k->annot[i].next_phase_length, ph->next_length[i]);
        assert_int_equal(k->annot[i].long_latency, ph->is_long[i]);
        assert_int_equal(k->annot[i].spin_candidate, sp->is_candidate[i]);
        candidates += k->annot[i].spin_candidate;
    }
    /* the CAS-result setp of the lock loop, and only it */
    assert_int_equal(candidates, 1);
    assert_int_equal(k->nphases, ph->nphases);
    ptx_phase_info_free(ph);
    ptx_spin_info_free(sp);
    ptxemu_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_divergence),
        cmocka_unit_test(test_per_lane_loops_and_break),
        cmocka_unit_test(test_early_exit_inside_divergence),
        cmocka_unit_test(test_recursion_with_divergent_callers),
        cmocka_unit_test(test_brx_idx),
        cmocka_unit_test(test_barrier_reductions),
        cmocka_unit_test(test_shared_memory_across_warps),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_vector_moves),
        cmocka_unit_test(test_alias_call),
        cmocka_unit_test(test_annotations_travel_to_decoded_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
