/* tests/runtime/test_api.c — the host API contract (api/ptxemu.h):
 * statuses and messages, memory bounds, symbols, launch validation. */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

static const char module_text[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 counter = 7;\n"
    ".const .align 4 .b8 table[16];\n"
    ".visible .entry k(.param .u64 out, .param .u32 add)\n"
    ".maxntid 128, 1, 1\n{\n"
    ".reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "ld.param.u32 %r1, [add];\n"
    "mov.u32 %r2, %tid.x;\n"
    "ld.global.u32 %r3, [counter];\n"
    "shl.b32 %r4, %r2, 2;\n"
    "and.b32 %r4, %r4, 12;\n"
    "cvt.u64.u32 %rd2, %r4;\n"
    "mov.u64 %rd3, table;\n"
    "add.s64 %rd3, %rd3, %rd2;\n"
    "ld.const.u32 %r5, [%rd3];\n"
    "add.u32 %r3, %r3, %r1;\n"
    "add.u32 %r3, %r3, %r5;\n"
    "mul.wide.u32 %rd2, %r2, 4;\n"
    "add.s64 %rd2, %rd1, %rd2;\n"
    "st.global.u32 [%rd2], %r3;\n"
    "ret;\n}\n";

static void test_status_strings(void **state)
{
    (void)state;
    for (int s = PTXEMU_OK; s <= PTXEMU_ERR_IO; s++) {
        const char *t = ptxemu_status_string((ptxemu_status)s);
        assert_non_null(t);
        assert_true(strlen(t) > 3);
    }
    assert_string_equal(ptxemu_status_string(PTXEMU_OK), "success");
}

static void test_parse_error_has_location(void **state)
{
    (void)state;
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
    ptxemu_module *m;
    const char *bad = ".version 8.0\n.target sm_80\n.address_size 64\n"
                      ".visible .entry k()\n{\n\tfrob.u32 %r1;\n}\n";
    assert_int_equal(ptxemu_module_load_string(ctx, bad, "bad.ptx", &m), PTXEMU_ERR_PARSE);
    assert_non_null(strstr(ptxemu_last_error(ctx), "bad.ptx:6:2: error: unknown instruction 'frob'"));
    assert_int_equal(ptxemu_module_load_file(ctx, "/nonexistent/x.ptx", &m), PTXEMU_ERR_IO);
    ptxemu_ctx_destroy(ctx);
}

static void test_memory_bounds(void **state)
{
    (void)state;
    ptxemu_ctx *ctx;
    ptxemu_ctx_create(&ctx, NULL);
    ptxemu_dptr a, b;
    assert_int_equal(ptxemu_malloc(ctx, &a, 100), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, 100), PTXEMU_OK);
    assert_true(a != 0 && b != 0 && a != b);
    uint8_t buf[200] = {0};
    assert_int_equal(ptxemu_memcpy_htod(ctx, a, buf, 100), PTXEMU_OK);
    /* one byte past the end is refused, with the range in the message */
    assert_int_equal(ptxemu_memcpy_htod(ctx, a, buf, 101), PTXEMU_ERR_INVALID_ADDRESS);
    assert_non_null(strstr(ptxemu_last_error(ctx), "is not inside one allocation"));
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, buf, a + 50, 51), PTXEMU_ERR_INVALID_ADDRESS);
    assert_int_equal(ptxemu_memset(ctx, b, 0xab, 100), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtod(ctx, a, b, 100), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, buf, a, 100), PTXEMU_OK);
    for (int i = 0; i < 100; i++)
        assert_int_equal(buf[i], 0xab);
    assert_int_equal(ptxemu_free(ctx, a + 4), PTXEMU_ERR_INVALID_ADDRESS);
    assert_int_equal(ptxemu_free(ctx, a), PTXEMU_OK);
    assert_int_equal(ptxemu_free(ctx, a), PTXEMU_ERR_INVALID_ADDRESS);
    assert_int_equal(ptxemu_memcpy_htod(ctx, a, buf, 1), PTXEMU_ERR_INVALID_ADDRESS);
    assert_int_equal(ptxemu_free(ctx, 0), PTXEMU_OK);
    ptxemu_ctx_destroy(ctx);
}

/* The footprint counter is the most bytes allocated at once (the
 * performance report compares peak RSS with it): 100 + 100, then after a
 * free 100 + 50 stays below the peak of 200, then 100 + 50 + 300 = 450. */
static void test_device_peak(void **state)
{
    (void)state;
    ptxemu_ctx *ctx;
    ptxemu_ctx_create(&ctx, NULL);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    assert_int_equal(c.device_peak_bytes, 0);
    ptxemu_dptr a, b, d, e;
    assert_int_equal(ptxemu_malloc(ctx, &a, 100), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, 100), PTXEMU_OK);
    assert_int_equal(ptxemu_free(ctx, a), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &d, 50), PTXEMU_OK);
    ptxemu_get_counters(ctx, &c);
    assert_int_equal(c.device_peak_bytes, 200);
    assert_int_equal(ptxemu_malloc(ctx, &e, 300), PTXEMU_OK);
    ptxemu_get_counters(ctx, &c);
    assert_int_equal(c.device_peak_bytes, 450);
    assert_true(c.launch_seconds == 0 && c.launch_cpu_seconds == 0); /* no launch yet */
    ptxemu_ctx_destroy(ctx);
}

static void test_symbols_and_launch(void **state)
{
    (void)state;
    ptxemu_ctx *ctx;
    ptxemu_ctx_create(&ctx, NULL);
    ptxemu_module *m;
    assert_int_equal(ptxemu_module_load_string(ctx, module_text, "api.ptx", &m), PTXEMU_OK);
    ptxemu_dptr addr;
    size_t size;
    assert_int_equal(ptxemu_module_get_global(m, "counter", &addr, &size), PTXEMU_OK);
    assert_int_equal(size, 4);
    uint32_t v = 0;
    assert_int_equal(ptxemu_memcpy_from_symbol(m, &v, "counter", 4, 0), PTXEMU_OK);
    assert_int_equal(v, 7); /* the initializer */
    uint32_t tab[4] = {100, 200, 300, 400};
    assert_int_equal(ptxemu_memcpy_to_symbol(m, "table", tab, sizeof tab, 0), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_to_symbol(m, "table", tab, 8, 12), PTXEMU_ERR_INVALID_VALUE);
    assert_int_equal(ptxemu_module_get_global(m, "nothere", NULL, NULL), PTXEMU_ERR_NOT_FOUND);

    ptxemu_dptr out;
    ptxemu_malloc(ctx, &out, 64 * 4);
    uint32_t add = 5;
    void *args[] = {&out, &add};
    assert_int_equal(ptxemu_launch(m, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){64, 1, 1}, 0,
                                   args), PTXEMU_OK);
    uint32_t res[64];
    ptxemu_memcpy_dtoh(ctx, res, out, sizeof res);
    for (unsigned t = 0; t < 64; t++)
        assert_int_equal(res[t], 7 + 5 + tab[t % 4]);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    assert_int_equal(c.launches, 1);
    assert_int_equal(c.warp_instructions, 2 * 16); /* 16 instructions, 2 warps */
    assert_int_equal(c.thread_instructions, 64 * 16);
    assert_true(c.launch_seconds >= 0 && c.launch_cpu_seconds > 0);

    /* launch validation */
    assert_int_equal(ptxemu_launch(m, "nope", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0,
                                   args), PTXEMU_ERR_NOT_FOUND);
    assert_int_equal(ptxemu_launch(m, "k", (ptxemu_dim3){0, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0,
                                   args), PTXEMU_ERR_INVALID_VALUE);
    assert_int_equal(ptxemu_launch(m, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){256, 1, 1}, 0,
                                   args), PTXEMU_ERR_LAUNCH_RESOURCES);
    assert_non_null(strstr(ptxemu_last_error(ctx), ".maxntid"));
    assert_int_equal(ptxemu_launch(m, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1},
                                   1u << 30, args), PTXEMU_ERR_LAUNCH_RESOURCES);
    assert_int_equal(ptxemu_launch(m, "k", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0,
                                   NULL), PTXEMU_ERR_INVALID_VALUE);
    assert_int_equal(ptxemu_synchronize(ctx), PTXEMU_OK);
    ptxemu_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_parse_error_has_location),
        cmocka_unit_test(test_memory_bounds),
        cmocka_unit_test(test_device_peak),
        cmocka_unit_test(test_symbols_and_launch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
