/* tests/tools/test_run_file.c — `ptxemu run --run-file` (docs/run-files.md)
 * and the launch options --stream, --wait and buffer:L:N: a producer in
 * stream 1, an independent launch and a consumer of the producer's output
 * in stream 2 (tests/corpus/runfile/two_streams.ini).  Functionally and
 * under timing the dumps equal the CPU reference (copyadd: b = a + 1, so
 * the consumer's output is iota + 2); under timing the consumer starts
 * after the producer's last cycle and the independent launch beside it.
 * Bad run files name the file, group and key. */
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

static int setup(void **state)
{
    (void)state;
    tmp_dir = g_dir_make_tmp("ptxemu-runfile-XXXXXX", NULL);
    return tmp_dir && g_chdir(tmp_dir) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    g_chdir("/");
    g_rmdir(tmp_dir);
    g_free(tmp_dir);
    return 0;
}

static void expect_dump(const char *name, uint32_t add)
{
    gchar *data = NULL;
    gsize len = 0;
    assert_true(g_file_get_contents(name, &data, &len, NULL));
    assert_int_equal(len, 512 * 4);
    const uint32_t *v = (const uint32_t *)(void *)data;
    for (uint32_t i = 0; i < 512; i++)
        if (v[i] != i + add)
            fail_msg("%s[%u] = %u, expected %u", name, i, v[i], i + add);
    g_free(data);
    g_remove(name);
}

/* First and last cycle of launch `id` from the run's summary lines. */
static void cycles_of(const char *out, unsigned id, unsigned long long *a,
                      unsigned long long *b)
{
    char key[32];
    snprintf(key, sizeof key, "launch %u copyadd", id);
    const char *p = strstr(out, key);
    assert_non_null(p);
    p = strstr(p, "cycles ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "cycles %llu..%llu", a, b), 2);
}

static void run_file(bool timing)
{
    char *path = test_source_path("tests/corpus/runfile/two_streams.ini");
    const char *fargv[] = {"run", "--run-file", path, NULL};
    const char *targv[] = {"run", "--run-file", path, "--timing", "--config", "m2090", NULL};
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(timing ? targv : fargv, &out, &err);
    if (rc != 0)
        fail_msg("rc %d: %s", rc, err);
    expect_dump("b.bin", 1);
    expect_dump("y.bin", 1);
    expect_dump("c.bin", 2);
    if (timing) {
        unsigned long long p0, p1, i0, i1, c0, c1;
        cycles_of(out, 0, &p0, &p1);
        cycles_of(out, 1, &i0, &i1);
        cycles_of(out, 2, &c0, &c1);
        assert_true(strstr(out, "launch 2 copyadd (stream 2)") != NULL);
        assert_int_equal(p0, i0);      /* streams 1 and 2 start together */
        assert_true(c0 > p1 && c0 > i1); /* the wait, and stream order */
    }
    g_free(out);
    g_free(err);
    g_free(path);
}

static void test_functional(void **state)
{
    (void)state;
    run_file(false);
}

static void test_timing(void **state)
{
    (void)state;
    run_file(true);
}

/* A run file with `body`; the run fails with exit `want` (2: bad usage, 1:
 * failed once set up) and says `expect`. */
static void bad_rc(const char *body, const char *expect, int want)
{
    char *module = test_source_path("tests/corpus/sched/copyadd.ptx");
    char *text = g_strdup_printf("[run]\nmodule = %s\n%s", module, body);
    assert_true(g_file_set_contents("bad.ini", text, -1, NULL));
    const char *argv[] = {"run", "--run-file", "bad.ini", NULL};
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(argv, &out, &err);
    assert_int_equal(rc, want);
    if (!strstr(err, expect))
        fail_msg("stderr lacks '%s': %s", expect, err);
    g_free(out);
    g_free(err);
    g_free(text);
    g_free(module);
}

static void bad(const char *body, const char *expect)
{
    bad_rc(body, expect, 2);
}

static void test_errors(void **state)
{
    (void)state;
    bad("[launch a]\nkernel = copyadd\ngrid = 1\nblock = 1\ncolour = red\n",
        "bad.ini: [launch a]: unknown key 'colour'");
    bad("[launch a]\nkernel = copyadd\ngrid = 1\nblock = 1\nwait = b\n",
        "bad.ini: [launch a] wait = 'b': no earlier [launch b]");
    bad("[launches]\n", "unknown group [launches]");
    bad("", "no [launch NAME] group");
    bad_rc("[launch a]\nkernel = copyadd\ngrid = 1\nblock = 64\nargs = zeros:256; zeros:256; "
           "u32:64\n[launch b]\nkernel = copyadd\ngrid = 1\nblock = 64\nargs = buffer:a:2; "
           "zeros:256; u32:64\n", "launch 0 has no buffer argument 2", 1);
    g_remove("bad.ini");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional),
        cmocka_unit_test(test_timing),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
