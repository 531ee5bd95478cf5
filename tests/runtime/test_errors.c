/* tests/runtime/test_errors.c — bad input at run time: every fault stops the
 * launch with kernel / CTA / thread / PC / source line, through the API and
 * through `ptxemu run` (message and exit status). */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

/* Loads tests/corpus/runtime_bad/NAME and launches `kernel` with one 64-byte
 * buffer; returns the status, and the message in *msg (g_free). */
static ptxemu_status launch_bad(const char *name, const char *kernel, unsigned block,
                                uint64_t livelock, char **msg)
{
    ptxemu_options opts = {0};
    opts.livelock_limit = livelock;
    opts.its = -1; /* the SIMT stack: livelock.ptx is its intra-warp livelock */
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, &opts), PTXEMU_OK);
    char rel[256];
    g_snprintf(rel, sizeof rel, "tests/corpus/runtime_bad/%s", name);
    char *path = test_source_path(rel);
    ptxemu_module *mod;
    ptxemu_status s = ptxemu_module_load_file(ctx, path, &mod);
    g_free(path);
    if (s == PTXEMU_OK) {
        ptxemu_dptr buf;
        assert_int_equal(ptxemu_malloc(ctx, &buf, 64), PTXEMU_OK);
        assert_int_equal(ptxemu_memset(ctx, buf, 0, 64), PTXEMU_OK);
        void *args[] = {&buf};
        ptxemu_dim3 g = {1, 1, 1}, b = {block, 1, 1};
        s = ptxemu_launch(mod, kernel, g, b, 0, args);
    }
    *msg = g_strdup(ptxemu_last_error(ctx));
    ptxemu_ctx_destroy(ctx);
    return s;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle)) {
        print_error("expected \"%s\" in:\n%s\n", needle, hay);
        fail();
    }
}

static void test_out_of_bounds(void **state)
{
    (void)state;
    char *msg;
    assert_int_equal(launch_bad("oob.ptx", "oob", 32, 0, &msg), PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "kernel 'oob'");
    assert_contains(msg, "CTA (0,0,0)");
    assert_contains(msg, "thread (0,0,0)");
    assert_contains(msg, "oob.ptx:11:");   /* the PTX line of the load */
    assert_contains(msg, "out-of-bounds 4-byte global load");
    g_free(msg);
}

static void test_misaligned(void **state)
{
    (void)state;
    char *msg;
    assert_int_equal(launch_bad("misaligned.ptx", "misaligned", 1, 0, &msg),
                     PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "misaligned 4-byte global load");
    assert_contains(msg, "misaligned.ptx:11:");
    g_free(msg);
}

static void test_barrier_deadlock(void **state)
{
    (void)state;
    char *msg;
    assert_int_equal(launch_bad("deadlock.ptx", "deadlock", 64, 0, &msg),
                     PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "barrier deadlock");
    assert_contains(msg, "warp 0 waits at barrier 0");
    assert_contains(msg, "warp 1 waits at barrier 1");
    g_free(msg);
}

static void test_trap(void **state)
{
    (void)state;
    char *msg;
    assert_int_equal(launch_bad("trap.ptx", "trapper", 32, 0, &msg), PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "trap instruction executed");
    assert_contains(msg, "thread (5,0,0)");
    assert_contains(msg, "trap.ptx:12:");
    g_free(msg);
}

static void test_livelock(void **state)
{
    (void)state;
    char *msg;
    assert_int_equal(launch_bad("livelock.ptx", "spin", 32, 200000, &msg),
                     PTXEMU_ERR_LAUNCH_FAILED);
    assert_contains(msg, "no progress for 200000 warp instructions");
    assert_contains(msg, "spinning in the loop at line 15 ($L_spin)");
    g_free(msg);
}

static void test_unsupported_refused_at_load(void **state)
{
    (void)state;
    char *msg;
    assert_int_equal(launch_bad("unsupported.ptx", "uses_mma", 32, 0, &msg),
                     PTXEMU_ERR_UNSUPPORTED);
    assert_contains(msg, "unsupported.ptx:10:2: 'mma.sp.sync.aligned.m16n8k32");
    assert_contains(msg, "is not supported yet");
    g_free(msg);
}

/* ---------------------------------------------------------- the CLI too */

static void cli_case(const char *file, const char *kernel, const char *block,
                     const char *expect, const char *livelock)
{
    char *path = NULL, rel[256];
    g_snprintf(rel, sizeof rel, "tests/corpus/runtime_bad/%s", file);
    path = test_source_path(rel);
    const char *argv[] = {"run", path, "--kernel", kernel, "--grid", "1", "--block", block,
                          "--arg", "zeros:64", "--livelock-limit", livelock,
                          "--no-its", NULL}; /* livelock.ptx livelocks on the SIMT stack */
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(argv, &out, &err);
    assert_int_equal(rc, 1);
    assert_contains(err, expect);
    g_free(out);
    g_free(err);
    g_free(path);
}

static void test_cli_exit_status(void **state)
{
    (void)state;
    cli_case("oob.ptx", "oob", "32", "out-of-bounds 4-byte global load", "0");
    cli_case("misaligned.ptx", "misaligned", "1", "misaligned 4-byte global load", "0");
    cli_case("deadlock.ptx", "deadlock", "64", "barrier deadlock", "0");
    cli_case("trap.ptx", "trapper", "32", "trap instruction executed", "0");
    cli_case("livelock.ptx", "spin", "32", "livelock", "100000");
    cli_case("unsupported.ptx", "uses_mma", "32", "is not supported yet", "0");
}

static void test_cli_check(void **state)
{
    (void)state;
    char *path = test_source_path("tests/corpus/runtime_bad/unsupported.ptx");
    const char *argv[] = {"check", path, NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(test_run_cli(argv, &out, &err), 1);
    assert_contains(out, "unsupported.ptx:10:2: 'mma.sp.sync");
    g_free(out);
    g_free(err);
    g_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_bounds),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_barrier_deadlock),
        cmocka_unit_test(test_trap),
        cmocka_unit_test(test_livelock),
        cmocka_unit_test(test_unsupported_refused_at_load),
        cmocka_unit_test(test_cli_exit_status),
        cmocka_unit_test(test_cli_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
