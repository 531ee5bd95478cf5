/* tests/tools/test_run_cooperative.c — `ptxemu run --cooperative`: the
 * grid_total kernel of tests/corpus/cuda/async_grid_heap.cu (nvcc 13, sm_80)
 * counts its threads with an atomic, waits at cooperative_groups'
 * grid.sync() and reads the count: every CTA must read all of them
 * (8 CTAs x 64 threads = 512), functionally and under timing.  Without
 * --cooperative the grid barrier has no workspace and the kernel traps, as
 * on a GPU; a grid larger than the config holds at once is refused with the
 * bound; --cooperative with a second launch is a usage error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/support/test_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static char *tmp_dir;
static char *ptx;

static int setup(void **state)
{
    (void)state;
    ptx = test_source_path("tests/corpus/nvcc/async_grid_heap.sm_80.ptx");
    tmp_dir = g_dir_make_tmp("ptxemu-coop-XXXXXX", NULL);
    return tmp_dir && g_chdir(tmp_dir) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    g_chdir("/");
    g_rmdir(tmp_dir);
    g_free(tmp_dir);
    g_free(ptx);
    return 0;
}

/* Runs grid_total over `grid` CTAs of 64 threads with `extra` options;
 * returns the exit status, stderr in *err. */
static int run_total(const char *grid, const char *const *extra, char **err)
{
    gchar *outbytes = g_strdup_printf("zeros:%d", 4 * atoi(grid));
    const char *argv[32] = {"run", ptx, "--kernel", "grid_total", "--grid", grid,
                            "--block", "64", "--arg", "zeros:4", "--arg", outbytes,
                            "--dump", "1:out.bin"};
    int n = 14;
    for (; extra && *extra && n < 31; extra++)
        argv[n++] = *extra;
    argv[n] = NULL;
    char *out = NULL;
    int rc = test_run_cli(argv, &out, err);
    g_free(out);
    g_free(outbytes);
    return rc;
}

static void expect_totals(unsigned ctas, unsigned want)
{
    gchar *data = NULL;
    gsize len = 0;
    assert_true(g_file_get_contents("out.bin", &data, &len, NULL));
    assert_int_equal(len, ctas * 4);
    const uint32_t *v = (const uint32_t *)(void *)data;
    for (unsigned i = 0; i < ctas; i++)
        if (v[i] != want)
            fail_msg("CTA %u read %u threads, expected %u", i, v[i], want);
    g_free(data);
    g_remove("out.bin");
}

static void test_functional(void **state)
{
    (void)state;
    const char *extra[] = {"--cooperative", NULL};
    char *err = NULL;
    int rc = run_total("8", extra, &err);
    if (rc != 0)
        fail_msg("rc %d: %s", rc, err);
    expect_totals(8, 512);
    g_free(err);
}

static void test_timing(void **state)
{
    (void)state;
    const char *extra[] = {"--cooperative", "--timing", "--config", "m2090", NULL};
    char *err = NULL;
    int rc = run_total("8", extra, &err);
    if (rc != 0)
        fail_msg("rc %d: %s", rc, err);
    expect_totals(8, 512);
    g_free(err);
}

static void test_plain_launch_traps(void **state)
{
    (void)state;
    char *err = NULL;
    assert_int_equal(run_total("8", NULL, &err), 1);
    if (!strstr(err, "trap") || !strstr(err, "grid_total"))
        fail_msg("stderr: %s", err);
    g_free(err);
    g_remove("out.bin");
}

static void test_too_large(void **state)
{
    (void)state;
    /* m2090: 16 SMs x 8 CTA slots = 128 CTAs of 64 threads at once */
    const char *extra[] = {"--cooperative", "--timing", "--config", "m2090", NULL};
    char *err = NULL;
    assert_int_equal(run_total("129", extra, &err), 1);
    if (!strstr(err, "129 CTAs cannot all be resident") || !strstr(err, "at most 128"))
        fail_msg("stderr: %s", err);
    g_free(err);
    assert_int_equal(run_total("128", extra, &err), 0);
    expect_totals(128, 128 * 64);
    g_free(err);
}

static void test_one_launch_only(void **state)
{
    (void)state;
    const char *extra[] = {"--cooperative", "--then", "--kernel", "grid_total", "--grid", "1",
                           "--block", "1", NULL};
    char *err = NULL;
    assert_int_equal(run_total("8", extra, &err), 2);
    if (!strstr(err, "--cooperative takes exactly one launch"))
        fail_msg("stderr: %s", err);
    g_free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional),
        cmocka_unit_test(test_timing),
        cmocka_unit_test(test_plain_launch_traps),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_one_launch_only),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
