/* tests/timing/test_tensor.c — the tensor unit of the timing model
 * (timing/sm_instr.c, units.tensor and the mma latency class):
 *   - an MMA kernel leaves device memory exactly as the functional run
 *     (the nvcc wmma GEMM and the ldmatrix + mma.sync tile of
 *     tests/corpus/cuda/tensor_cores.cu);
 *   - throughput: one warp issuing 8 independent mma.m16n8k16 (2048 .f16
 *     multiply-adds each) keeps its scheduler's tensor slice busy
 *     2048 / (units.tensor / schedulers) cycles per instruction, so going
 *     from 1024 to 256 multiply-adds per cycle per SM (2 schedulers: 4 ->
 *     16 cycles each) delays the last one by 7 x 12 cycles;
 *   - latency: 8 dependent mma (D feeds C) take latency.mma each, so
 *     doubling it from 64 to 128 adds 8 x 64 cycles (at 32 other stalls
 *     of the tiny kernel overlap a little of the chain);
 *   - input types scale the work by A100's ratios: 8 independent
 *     m16n8k8 .tf32 (1024 multiply-adds, x2) cost what m16n8k16 .f16 do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <string.h>

/* Runs `kernel` of `ptx` on grid x block with buffers in/out (each one
 * pointer parameter); returns the cycles (0 when functional). */
static uint64_t run(const char *ptx, const char *kernel, unsigned grid, unsigned block,
                    int timing, const char *const *set, void *bufs[], size_t sizes[],
                    unsigned nbufs)
{
    ptxemu_options o = {0};
    o.timing = timing;
    o.timing_set = set;
    ptxemu_ctx *ctx = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    ptxemu_module *mod = NULL;
    if (ptxemu_module_load_string(ctx, ptx, "tensor.ptx", &mod) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(ctx));
    ptxemu_dptr d[4];
    void *args[4];
    for (unsigned i = 0; i < nbufs; i++) {
        assert_int_equal(ptxemu_malloc(ctx, &d[i], sizes[i]), PTXEMU_OK);
        assert_int_equal(ptxemu_memcpy_htod(ctx, d[i], bufs[i], sizes[i]), PTXEMU_OK);
        args[i] = &d[i];
    }
    ptxemu_dim3 g = {grid, 1, 1}, b = {block, 1, 1};
    if (ptxemu_launch(mod, kernel, g, b, 0, args) != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(ctx));
    for (unsigned i = 0; i < nbufs; i++)
        assert_int_equal(ptxemu_memcpy_dtoh(ctx, bufs[i], d[i], sizes[i]), PTXEMU_OK);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    ptxemu_module_unload(mod);
    ptxemu_ctx_destroy(ctx);
    return c.cycles;
}

static void test_memory_equals_functional(void **state)
{
    (void)state;
    char *ptx = test_read_file("tests/corpus/nvcc/tensor_cores.sm_80.ptx", NULL);
    uint16_t a[32 * 32], b[32 * 32];
    for (unsigned i = 0; i < 32 * 32; i++) { /* halves in [-2, 2) */
        a[i] = (uint16_t)(0x3800u + (i * 37u) % 1024u) | (uint16_t)((i & 1u) << 15);
        b[i] = (uint16_t)(0x3400u + (i * 11u) % 2048u) | (uint16_t)((i & 2u) << 14);
    }
    float cf[32 * 32] = {0}, ct[32 * 32] = {0};
    uint16_t a1[1024], b1[1024];
    memcpy(a1, a, sizeof a);
    memcpy(b1, b, sizeof b);
    void *bf[3] = {a1, b1, cf};
    size_t sz[3] = {sizeof a, sizeof b, sizeof cf};
    assert_int_equal(run(ptx, "wmma_gemm", 1, 128, 0, NULL, bf, sz, 3), 0);
    void *bt[3] = {a1, b1, ct};
    assert_true(run(ptx, "wmma_gemm", 1, 128, 1, NULL, bt, sz, 3) > 0);
    assert_memory_equal(cf, ct, sizeof cf);
    bool nonzero = false;
    for (unsigned i = 0; i < 32 * 32; i++)
        nonzero |= cf[i] != 0.0f;
    assert_true(nonzero);

    float df[128] = {0}, dt[128] = {0};
    uint32_t tf[32] = {0}, tt[32] = {0};
    void *mf[4] = {a1, b1, df, tf}, *mt[4] = {a1, b1, dt, tt};
    size_t ms[4] = {512, 256, sizeof df, sizeof tf};
    run(ptx, "mma_tile", 1, 32, 0, NULL, mf, ms, 4);
    assert_true(run(ptx, "mma_tile", 1, 32, 1, NULL, mt, ms, 4) > 0);
    assert_memory_equal(df, dt, sizeof df);
    assert_memory_equal(tf, tt, sizeof tf);
    g_free(ptx);
}

/* One warp: 8 mma of `form` (A, B, C registers zero), independent (each
 * into its own D) or chained (D of one is C of the next); D stored. */
static char *mma_kernel(const char *form, unsigned na, unsigned nb, bool chained)
{
    GString *s = g_string_new(".version 8.0\n.target sm_80\n.address_size 64\n"
                              ".visible .entry k(.param .u64 out)\n{\n"
                              "  .reg .b32 %a<4>, %b<2>;\n  .reg .f32 %d<36>;\n"
                              "  .reg .b64 %rd<3>;\n  .reg .b32 %l;\n");
    for (unsigned i = 0; i < 4; i++)
        g_string_append_printf(s, "  mov.b32 %%a%u, 0;\n  mov.f32 %%d%u, 0f00000000;\n", i, i);
    g_string_append(s, "  mov.b32 %b0, 0;\n  mov.b32 %b1, 0;\n");
    for (unsigned m = 0; m < 8; m++) {
        unsigned dbase = 4 + 4 * m, cbase = chained ? 4 * m : 0;
        g_string_append_printf(s, "  %s {%%d%u, %%d%u, %%d%u, %%d%u}, {", form, dbase, dbase + 1,
                               dbase + 2, dbase + 3);
        for (unsigned i = 0; i < na; i++)
            g_string_append_printf(s, "%s%%a%u", i ? ", " : "", i);
        g_string_append(s, "}, {");
        for (unsigned i = 0; i < nb; i++)
            g_string_append_printf(s, "%s%%b%u", i ? ", " : "", i);
        g_string_append_printf(s, "}, {%%d%u, %%d%u, %%d%u, %%d%u};\n", cbase, cbase + 1,
                               cbase + 2, cbase + 3);
    }
    g_string_append(s, "  ld.param.u64 %rd1, [out];\n  mov.u32 %l, %tid.x;\n"
                       "  mul.wide.u32 %rd2, %l, 4;\n  add.s64 %rd1, %rd1, %rd2;\n");
    for (unsigned m = 0; m < 8; m++) /* every D is used */
        g_string_append_printf(s, "  st.global.f32 [%%rd1], %%d%u;\n", 4 + 4 * m);
    g_string_append(s, "  ret;\n}\n");
    return g_string_free(s, FALSE);
}

static uint64_t cycles_with(const char *ptx, const char *key)
{
    const char *set[] = {key, NULL};
    float out[32];
    void *b[1] = {out};
    size_t sz[1] = {sizeof out};
    return run(ptx, "k", 1, 32, 1, set, b, sz, 1);
}

static void test_throughput_and_latency(void **state)
{
    (void)state;
    static const char f16[] = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
    static const char tf32[] = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    char *indep = mma_kernel(f16, 4, 2, false), *chain = mma_kernel(f16, 4, 2, true);
    char *indep_tf32 = mma_kernel(tf32, 4, 2, false);
    uint64_t fast = cycles_with(indep, "units.tensor=1024");
    uint64_t slow = cycles_with(indep, "units.tensor=256");
    assert_int_equal(slow - fast, 7 * (16 - 4));
    assert_int_equal(cycles_with(indep_tf32, "units.tensor=256"), slow);
    uint64_t lat64 = cycles_with(chain, "latency.mma=64");
    uint64_t lat128 = cycles_with(chain, "latency.mma=128");
    assert_int_equal(lat128 - lat64, 8 * 64);
    assert_true(cycles_with(chain, "latency.mma=32") < lat64);
    g_free(indep);
    g_free(chain);
    g_free(indep_tf32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_equals_functional),
        cmocka_unit_test(test_throughput_and_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
