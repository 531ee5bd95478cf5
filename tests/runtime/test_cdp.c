/* tests/runtime/test_cdp.c — dynamic parallelism (runtime/cdp.h) through the
 * C API, functional mode, on PTX that nvcc 13 emitted for `<<<>>>` in device
 * code (tests/corpus/cdp/cdp_launch.cu, -rdc=true -arch=sm_90):
 *   - the four device streams (named, tail launch, fire-and-forget, NULL);
 *   - nested launches to depth 3 (1, 2, 4, 8 blocks per level);
 *   - a child's writes read by the parent's tail launch;
 *   - the limits: cdp.max_depth (CUDA's 24 and a lower one) and
 *     cdp.pending_launches, each a located error;
 *   - cudaDeviceSynchronize in device code (removed by CUDA 12), calls not
 *     modelled yet and a bad parameter buffer: located errors.
 * Every expected value is computed here on the CPU from the kernels' source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <string.h>

#define CDP_PTX "tests/corpus/cdp/cdp_launch.sm_90.ptx"
#define K_STREAMS "_Z7streamsPii"
#define K_NEST "_Z4nestPiii"
#define K_CHAIN "_Z5chainPiii"
#define K_PRODUCE_CONSUME "_Z20produce_then_consumePiiS_"
#define K_FAN "_Z3fanPii"

typedef struct world {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
} world;

static void world_open(world *w, uint32_t max_depth, uint32_t pending)
{
    ptxemu_options o = {0};
    o.cdp_max_depth = max_depth;
    o.cdp_pending_launches = pending;
    assert_int_equal(ptxemu_ctx_create(&w->ctx, &o), PTXEMU_OK);
    char *path = test_source_path(CDP_PTX);
    assert_int_equal(ptxemu_module_load_file(w->ctx, path, &w->mod), PTXEMU_OK);
    g_free(path);
}

static ptxemu_dptr dev_ints(world *w, const int *host, size_t n)
{
    ptxemu_dptr d = 0;
    assert_int_equal(ptxemu_malloc(w->ctx, &d, n * sizeof(int)), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(w->ctx, d, host, n * sizeof(int)), PTXEMU_OK);
    return d;
}

static void get_ints(world *w, int *host, ptxemu_dptr d, size_t n)
{
    assert_int_equal(ptxemu_memcpy_dtoh(w->ctx, host, d, n * sizeof(int)), PTXEMU_OK);
}

static ptxemu_status launch(world *w, const char *k, unsigned grid, unsigned block, void **args)
{
    return ptxemu_launch(w->mod, k, (ptxemu_dim3){grid, 1, 1}, (ptxemu_dim3){block, 1, 1}, 0,
                         args);
}

static void test_streams(void **state)
{
    (void)state;
    enum { N = 64, GRID = 2 };
    world w;
    world_open(&w, 0, 0);
    int a[N] = {0}, want[N] = {0};
    ptxemu_dptr d = dev_ints(&w, a, N);
    int n = N;
    void *args[] = {&d, &n};
    assert_int_equal(launch(&w, K_STREAMS, GRID, 32, args), PTXEMU_OK);
    /* per block: +(block+1) on all; +100, +1000, +7 on the first 32 */
    for (int b = 0; b < GRID; b++)
        for (int i = 0; i < N; i++)
            want[i] += b + 1 + (i < 32 ? 100 + 1000 + 7 : 0);
    get_ints(&w, a, d, N);
    assert_memory_equal(a, want, sizeof a);
    ptxemu_counters c;
    ptxemu_get_counters(w.ctx, &c);
    /* the children's instructions count with the host launch */
    assert_true(c.warp_instructions > 2 * 8 * 10);
    ptxemu_ctx_destroy(w.ctx);
}

static void test_nest_depth3(void **state)
{
    (void)state;
    world w;
    world_open(&w, 0, 0);
    int count[5] = {0};
    ptxemu_dptr d = dev_ints(&w, count, 5);
    int depth = 0, maxdepth = 3;
    void *args[] = {&d, &depth, &maxdepth};
    assert_int_equal(launch(&w, K_NEST, 1, 1, args), PTXEMU_OK);
    get_ints(&w, count, d, 5);
    /* every block below maxdepth launches two blocks: 2^depth per level */
    for (int i = 0; i <= 3; i++)
        assert_int_equal(count[i], 1 << i);
    assert_int_equal(count[4], 0);
    ptxemu_ctx_destroy(w.ctx);
}

static void test_tail_launch_sees_child(void **state)
{
    (void)state;
    enum { N = 200 };
    world w;
    world_open(&w, 0, 0);
    int a[N], out = -1;
    memset(a, 0xff, sizeof a);
    ptxemu_dptr da = dev_ints(&w, a, N), dout = dev_ints(&w, &out, 1);
    int n = N;
    void *args[] = {&da, &n, &dout};
    assert_int_equal(launch(&w, K_PRODUCE_CONSUME, 1, 1, args), PTXEMU_OK);
    int want = 0;
    for (int i = 0; i < N; i++)
        want += 3 * i;
    get_ints(&w, &out, dout, 1);
    assert_int_equal(out, want);
    ptxemu_ctx_destroy(w.ctx);
}

static void test_depth_limit(void **state)
{
    (void)state;
    world w;
    world_open(&w, 2, 0);
    int count[5] = {0};
    ptxemu_dptr d = dev_ints(&w, count, 5);
    int depth = 0, maxdepth = 3;
    void *args[] = {&d, &depth, &maxdepth};
    assert_int_equal(launch(&w, K_NEST, 1, 1, args), PTXEMU_ERR_LAUNCH_FAILED);
    const char *e = ptxemu_last_error(w.ctx);
    assert_non_null(strstr(e, "nesting depth 3 exceeds cdp.max_depth = 2"));
    assert_non_null(strstr(e, "kernel '" K_NEST "', CTA (0,0,0)"));
    ptxemu_ctx_destroy(w.ctx);
}

static void test_default_depth_limit(void **state)
{
    (void)state;
    enum { LEVELS = 30 };
    world w;
    world_open(&w, 0, 0);
    int count[LEVELS + 1] = {0};
    ptxemu_dptr d = dev_ints(&w, count, LEVELS + 1);
    int depth = 0, maxdepth = LEVELS;
    void *args[] = {&d, &depth, &maxdepth};
    assert_int_equal(launch(&w, K_CHAIN, 1, 1, args), PTXEMU_ERR_LAUNCH_FAILED);
    assert_non_null(strstr(ptxemu_last_error(w.ctx),
                           "nesting depth 25 exceeds cdp.max_depth = 24"));
    /* levels 0..24 ran (CUDA's hardware limit), the 25th never started */
    get_ints(&w, count, d, LEVELS + 1);
    for (int i = 0; i <= LEVELS; i++)
        assert_int_equal(count[i], i <= 24 ? 1 : 0);
    ptxemu_ctx_destroy(w.ctx);
    /* a chain within the limit completes */
    world_open(&w, 0, 0);
    memset(count, 0, sizeof count);
    d = dev_ints(&w, count, LEVELS + 1);
    maxdepth = 24;
    assert_int_equal(launch(&w, K_CHAIN, 1, 1, args), PTXEMU_OK);
    get_ints(&w, count, d, LEVELS + 1);
    for (int i = 0; i <= LEVELS; i++)
        assert_int_equal(count[i], i <= 24 ? 1 : 0);
    ptxemu_ctx_destroy(w.ctx);
}

static void test_pending_limit(void **state)
{
    (void)state;
    enum { THREADS = 32, N = THREADS * 32 };
    int a[N] = {0};
    int n = N;
    /* within CUDA's 2048: every thread's child adds its thread index */
    world w;
    world_open(&w, 0, 0);
    ptxemu_dptr d = dev_ints(&w, a, N);
    void *args[] = {&d, &n};
    assert_int_equal(launch(&w, K_FAN, 1, THREADS, args), PTXEMU_OK);
    get_ints(&w, a, d, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(a[i], i / 32);
    ptxemu_ctx_destroy(w.ctx);
    /* 32 launches against a buffer of 16 */
    world_open(&w, 0, 16);
    memset(a, 0, sizeof a);
    d = dev_ints(&w, a, N);
    assert_int_equal(launch(&w, K_FAN, 1, THREADS, args), PTXEMU_ERR_LAUNCH_FAILED);
    const char *e = ptxemu_last_error(w.ctx);
    assert_non_null(strstr(e, "16 launches already pending, the limit "
                              "cdp.pending_launches = 16"));
    assert_non_null(strstr(e, "thread (16,0,0)")); /* the 17th launching thread */
    ptxemu_ctx_destroy(w.ctx);
}

/* Hand-written PTX calling what nvcc 13 no longer emits or ptxemu does not
 * model yet. */
static const char *const bad_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".extern .func (.param .b32 r) cudaDeviceSynchronize ();\n"
    ".extern .func (.param .b32 r) __cudaCDP2Malloc (.param .b64 p, .param .b64 n);\n"
    ".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2 (.param .b64 b, .param .b64 s);\n"
    ".visible .entry sync_k()\n{\n"
    "  .reg .b32 %r<2>;\n"
    "  { .param .b32 r0;\n"
    "    call.uni (r0), cudaDeviceSynchronize, ();\n"
    "    ld.param.b32 %r1, [r0]; }\n"
    "  ret;\n}\n"
    ".visible .entry malloc_k()\n{\n"
    "  .reg .b32 %r<2>;\n"
    "  { .param .b64 p0; .param .b64 p1; .param .b32 r0;\n"
    "    st.param.b64 [p0], 0; st.param.b64 [p1], 16;\n"
    "    call.uni (r0), __cudaCDP2Malloc, (p0, p1);\n"
    "    ld.param.b32 %r1, [r0]; }\n"
    "  ret;\n}\n"
    ".visible .entry badbuf_k()\n{\n"
    "  .reg .b32 %r<2>;\n"
    "  { .param .b64 p0; .param .b64 p1; .param .b32 r0;\n"
    "    st.param.b64 [p0], 4096; st.param.b64 [p1], 0;\n"
    "    call.uni (r0), __cudaCDP2LaunchDeviceV2, (p0, p1);\n"
    "    ld.param.b32 %r1, [r0]; }\n"
    "  ret;\n}\n";

static void expect_failure(ptxemu_module *m, ptxemu_ctx *ctx, const char *kernel,
                           const char *needle)
{
    assert_int_equal(ptxemu_launch(m, kernel, (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0,
                                   NULL),
                     PTXEMU_ERR_LAUNCH_FAILED);
    const char *e = ptxemu_last_error(ctx);
    if (!strstr(e, needle) || !strstr(e, kernel))
        fail_msg("'%s' lacks '%s' or the kernel name", e, needle);
    assert_non_null(strstr(e, "bad_cdp.ptx:")); /* file:line of the call */
}

static void test_errors(void **state)
{
    (void)state;
    ptxemu_ctx *ctx = NULL;
    ptxemu_module *m = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
    assert_int_equal(ptxemu_module_load_string(ctx, bad_ptx, "bad_cdp.ptx", &m), PTXEMU_OK);
    expect_failure(m, ctx, "sync_k", "cudaDeviceSynchronize() in device code: CUDA 12 removed");
    expect_failure(m, ctx, "malloc_k", "not supported yet: device-runtime call "
                                       "'__cudaCDP2Malloc'");
    expect_failure(m, ctx, "badbuf_k", "parameter buffer 0x1000, which is not a buffer");
    ptxemu_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streams),
        cmocka_unit_test(test_nest_depth3),
        cmocka_unit_test(test_tail_launch_sees_child),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_default_depth_limit),
        cmocka_unit_test(test_pending_limit),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
