/* tests/tools/test_hardening.c — issue 20: every bad input a clear error,
 * no write lost silently, every run bounded.  Runs the built `ptxemu`
 * (PTXEMU_BIN, set by meson test; the test fails without it) and checks
 * the exit status and the located message of each class of bad input, plus
 * the API's device-memory limit. */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void assert_contains(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle)) {
        print_error("expected \"%s\" in:\n%s\n", needle, hay ? hay : "(null)");
        fail();
    }
}

/* Runs ptxemu with `args` (NULL-terminated); stdout to `out_path` when not
 * NULL.  Returns the exit status; a signal fails the test. */
static int run_to(const char *out_path, char **out, char **err, ...)
{
    const char *bin = g_getenv("PTXEMU_BIN");
    if (!bin)
        fail_msg("PTXEMU_BIN is not set: run this test through 'meson test'");
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    if (out_path) { /* the shell redirects stdout */
        g_ptr_array_add(argv, g_strdup("/bin/sh"));
        g_ptr_array_add(argv, g_strdup("-c"));
        g_ptr_array_add(argv, g_strdup("out=$1; shift; exec \"$@\" > \"$out\""));
        g_ptr_array_add(argv, g_strdup("sh"));
        g_ptr_array_add(argv, g_strdup(out_path));
    }
    g_ptr_array_add(argv, g_strdup(bin));
    va_list ap;
    va_start(ap, err);
    for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *))
        g_ptr_array_add(argv, g_strdup(a));
    va_end(ap);
    g_ptr_array_add(argv, NULL);
    gint ws = 0;
    char *o = NULL, *e = NULL;
    GError *ge = NULL;
    gboolean ok = g_spawn_sync(NULL, (gchar **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &o, &e, &ws, &ge);
    g_ptr_array_free(argv, TRUE);
    if (!ok)
        fail_msg("cannot run ptxemu: %s", ge->message);
    if (WIFSIGNALED(ws))
        fail_msg("ptxemu died of signal %d; stderr:\n%s", WTERMSIG(ws), e);
    if (out)
        *out = o;
    else
        g_free(o);
    if (err)
        *err = e;
    else
        g_free(e);
    return WEXITSTATUS(ws);
}

#define RUN(out, err, ...) run_to(NULL, out, err, __VA_ARGS__, NULL)

static char *bad(const char *name)
{
    char rel[128];
    g_snprintf(rel, sizeof rel, "tests/corpus/runtime_bad/%s", name);
    return test_source_path(rel);
}

/* A scratch directory for written files and small PTX texts. */
static char *scratch(void)
{
    GError *e = NULL;
    char *d = g_dir_make_tmp("ptxemu-hardening-XXXXXX", &e);
    assert_non_null(d);
    return d;
}

static char *write_ptx(const char *dir, const char *name, const char *text)
{
    char *p = g_build_filename(dir, name, NULL);
    assert_true(g_file_set_contents(p, text, -1, NULL));
    return p;
}

static void rm_tree(char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, n, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR))
            rm_tree(g_strdup(p));
        else
            g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
    g_free(dir);
}

static unsigned count_files(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    unsigned n = 0;
    while (d && g_dir_read_name(d))
        n++;
    if (d)
        g_dir_close(d);
    return n;
}

/* `run params.ptx` with the four given --arg specs. */
static int run_params(const char *a0, const char *a1, const char *a2, const char *a3,
                      const char *dump, char **err)
{
    char *p = bad("params.ptx");
    int rc = dump ? RUN(NULL, err, "run", p, "--kernel", "params", "--grid", "1", "--block", "1",
                        "--arg", a0, "--arg", a1, "--arg", a2, "--arg", a3, "--dump", dump)
                  : RUN(NULL, err, "run", p, "--kernel", "params", "--grid", "1", "--block", "1",
                        "--arg", a0, "--arg", a1, "--arg", a2, "--arg", a3);
    g_free(p);
    return rc;
}

/* ------------------------------------------------------ 1. buffer sizes */

static void test_malformed_sizes(void **state)
{
    (void)state;
    static const char *const sizes[] = {"zeros:-5", "zeros:99999999999999",
                                        "zeros:18446744073709551615",
                                        "zeros:18446744073709551616", "zeros:0", "zeros:1e3",
                                        "zeros: 4", "iota:u32:99999999999999999",
                                        "rand:f32:-1:1", "iota:f16:4", "rand:u32:4:x"};
    for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
        char *err;
        assert_int_equal(run_params(sizes[i], "u32:1", "s32:1", "f32:1", NULL, &err), 2);
        assert_contains(err, "ptxemu run: --arg 0: bad ");
        g_free(err);
    }
    /* within the parser's bound but beyond the device: names the limit */
    char *err;
    assert_int_equal(run_params("zeros:8589934592", "u32:1", "s32:1", "f32:1", NULL, &err), 1);
    assert_contains(err, "--arg 0 'zeros:8589934592': malloc of 8589934592 bytes failed");
    assert_contains(err, "4294967296 bytes (limits.device_memory)");
    g_free(err);
}

/* The functional path honours the device-memory limit too. */
static void test_device_memory_limit(void **state)
{
    (void)state;
    ptxemu_options o = {0};
    o.device_memory = 1u << 20;
    ptxemu_ctx *ctx;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    ptxemu_dptr a, b;
    assert_int_equal(ptxemu_malloc(ctx, &a, 768 * 1024), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, 512 * 1024), PTXEMU_ERR_OUT_OF_MEMORY);
    assert_contains(ptxemu_last_error(ctx), "the device has 1048576 bytes");
    assert_int_equal(ptxemu_free(ctx, a), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &b, 512 * 1024), PTXEMU_OK);
    /* a module variable beyond it fails at load, at the variable */
    const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                      ".global .b8 big[2000000];\n";
    ptxemu_module *m;
    assert_int_equal(ptxemu_module_load_string(ctx, ptx, "big.ptx", &m), PTXEMU_ERR_PARSE);
    assert_contains(ptxemu_last_error(ctx), "big.ptx:4:13: error: cannot allocate 2000000 bytes");
    ptxemu_ctx_destroy(ctx);
}

/* ----------------------------------------------------- 2. scalar values */

static void test_overflowing_scalars(void **state)
{
    (void)state;
    static const struct {
        const char *a1, *a2, *a3;
        int rc;
        const char *msg;
    } cases[] = {
        {"u32:99999999999", "s32:1", "f32:1", 2, "--arg 1: u32 value '99999999999' does not fit"},
        {"u32:1", "s32:4294967296", "f32:1", 2, "--arg 2: s32 value '4294967296' does not fit"},
        {"u32:-1", "s32:1", "f32:1", 2, "--arg 1: u32 value '-1' is negative"},
        {"u32:12abc", "s32:1", "f32:1", 2, "--arg 1: bad u32 value '12abc'"},
        {"u32:1", "s32:1", "f32:1e39", 2, "--arg 3: f32 value '1e39' is out of range"},
        {"u32:1", "s32:1", "f32:x", 2, "--arg 3: f32 value 'x' is not a number"},
        {"f32:1.5", "s32:1", "f32:1", 1,
         "--arg 1 (parameter 'n' of 'params'): a .f32 value, but the parameter is .u32 "
         "(write b32:BITS to pass raw bits)"},
        {"u32:1", "s32:1", "u32:1", 1, "--arg 3 (parameter 'x' of 'params'): a .u32 value"},
        {"u32:1", "u32:4000000000", "f32:1", 1,
         "--arg 2 (parameter 'm' of 'params'): the value does not fit the parameter's type .s32"},
        {"u64:1", "s32:1", "f32:1", 1, "8 bytes, but the parameter (.u32) has 4"},
        {"zeros:4", "s32:1", "f32:1", 1, "a buffer, but the parameter (.u32) is not a 64-bit"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *err;
        assert_int_equal(run_params("zeros:12", cases[i].a1, cases[i].a2, cases[i].a3, NULL,
                                    &err), cases[i].rc);
        assert_contains(err, cases[i].msg);
        g_free(err);
    }
    /* what does fit arrives bit for bit; b32: passes raw bits to an f32 */
    char *dir = scratch();
    char *dump = g_strdup_printf("0:%s/out.bin", dir);
    char *err;
    assert_int_equal(run_params("zeros:12", "u32:4294967295", "s32:-2147483648",
                                "b32:0x3fc00000", dump, &err), 0);
    g_free(err);
    char *path = g_build_filename(dir, "out.bin", NULL), *data;
    gsize len;
    assert_true(g_file_get_contents(path, &data, &len, NULL));
    assert_int_equal(len, 12);
    uint32_t w[3];
    memcpy(w, data, 12);
    assert_int_equal(w[0], 0xffffffffu);
    assert_int_equal(w[1], 0x80000000u);
    assert_int_equal(w[2], 0x3fc00000u); /* 1.5f */
    g_free(data);
    assert_int_equal(run_params("zeros:12", "u32:7", "s32:-3", "f32:1.5", dump, &err), 0);
    g_free(err);
    assert_true(g_file_get_contents(path, &data, &len, NULL));
    memcpy(w, data, 12);
    assert_int_equal(w[0], 7);
    assert_int_equal(w[1], (uint32_t)-3);
    assert_int_equal(w[2], 0x3fc00000u);
    g_free(data);
    g_free(path);
    g_free(dump);
    rm_tree(dir);
}

/* ------------------------------------------- 3./4. PTX the checks refuse */

/* `check FILE` on `text` exits 1 with "NAME:LINE:COL: error: ...PHRASE";
 * so does `phases --json` when the parser refuses it (the loader's checks
 * belong to check and run). */
static void refuses(const char *dir, const char *text, const char *located,
                    const char *phrase, bool parser)
{
    char *p = write_ptx(dir, "t.ptx", text);
    char *out, *err;
    assert_int_equal(RUN(&out, &err, "check", p), 1);
    char *want = g_strdup_printf("%s/t.ptx:%s: error: ", dir, located);
    assert_contains(err, want);
    assert_contains(err, phrase);
    g_free(want);
    g_free(out);
    g_free(err);
    assert_int_equal(RUN(&out, &err, "phases", p, "--json"), parser ? 1 : 0);
    if (parser)
        assert_contains(err, phrase);
    g_free(out);
    g_free(err);
    g_free(p);
}

#define check_refuses(dir, text, located, phrase) refuses(dir, text, located, phrase, true)
#define load_refuses(dir, text, located, phrase) refuses(dir, text, located, phrase, false)

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#define BODY(x) HDR ".entry k() {\n.reg .f32 %f<4>;\n.reg .b64 %rd<4>;\n.reg .u32 %r<4>;\n" \
                x "\nret;\n}\n"

static void test_array_sizes_64bit(void **state)
{
    (void)state;
    char *dir = scratch();
    /* one .shared variable: refused where it is parsed (parse, phases,
     * check and run alike), with the loader's limit, 228 KiB = 233472 */
    check_refuses(dir, HDR ".shared .b8 s[99999999999999];\n", "4:13",
                  "array 's' is too large: more than 233472 bytes in shared (the shared "
                  "memory of any GPU ptxemu models)");
    check_refuses(dir, HDR ".shared .b8 s[4294967296];\n.entry k() { ret; }\n", "4:13",
                  "array 's' is too large: more than 233472 bytes in shared");
    check_refuses(dir, HDR ".entry k() {\n.shared .align 4 .u32 s[1024][58];\nret;\n}\n",
                  "5:23", "array 's' is too large: more than 233472 bytes in shared");
    {
        char *p = write_ptx(dir, "big.ptx", HDR ".shared .b8 s[4294967296];\n");
        char *out, *err;
        assert_int_equal(RUN(&out, &err, "parse", p), 1);
        assert_contains(err, "big.ptx:4:13: error: array 's' is too large: more than 233472");
        g_free(out);
        g_free(err);
        g_free(p);
    }
    /* .local and .param keep the 4 GiB of their 32-bit offsets */
    check_refuses(dir, HDR ".entry k() {\n.local .b8 l[4294967297];\nret;\n}\n", "5:12",
                  "array 'l' is too large: more than 4294967296 bytes in local");
    /* exactly the limit parses; the loader still places it after the 1 KB
     * that sm_80 reserves for the system */
    load_refuses(dir, HDR ".shared .b8 s[233472];\n.entry k() { ret; }\n", "4:13",
                  ".shared 's' (233472 bytes at offset 1024) does not fit in the 233472 "
                  "bytes");
    /* variables that fit alone but not together: the loader */
    load_refuses(dir, HDR ".shared .b8 a[200000];\n.shared .b8 b[40000];\n", "5:13",
                  ".shared 'b' (40000 bytes at offset 201024) does not fit");
    /* against the timing config's shared memory, at load */
    char *p = write_ptx(dir, "sh.ptx", HDR ".visible .entry k(.param .u64 o) {\n"
                                       ".shared .b8 s[40000];\nret;\n}\n");
    char *err;
    assert_int_equal(RUN(NULL, &err, "run", p, "--kernel", "k", "--grid", "1", "--block", "1",
                         "--arg", "zeros:4", "--timing", "--set", "core.shared_mem=32K"), 1);
    assert_contains(err, "sh.ptx:5:13: error: .shared 's' (40000 bytes at offset 1024) does not "
                         "fit in the 32768 bytes of shared memory per SM (core.shared_mem)");
    g_free(err);
    g_free(p);
    rm_tree(dir);
}

static void test_operand_classes(void **state)
{
    (void)state;
    char *dir = scratch();
    check_refuses(dir, BODY("add.f32 %f3, %rd2, %f1;"), "8:1",
                  "the second operand of 'add.f32' is the .b64 register '%rd2'");
    check_refuses(dir, BODY("mul.lo.u32 %r1, %f1, %r2;"), "8:1", "the .f32 register '%f1'");
    check_refuses(dir, BODY("add.f32 %f1, %f2, 1e99999999999;"), "8:19",
                  "floating-point literal '1e99999999999' is out of range");
    rm_tree(dir);
}

static void test_label_operands(void **state)
{
    (void)state;
    char *dir = scratch();
    check_refuses(dir, BODY("L:\nmov.u32 %r1, L;"), "9:1",
                  "the second operand of 'mov' is the label 'L', which is not data");
    check_refuses(dir, BODY("L:\nld.global.u32 %r1, [L];"), "9:1", "['L'] of 'ld' names a label");
    rm_tree(dir);
}

static void test_bad_targets(void **state)
{
    (void)state;
    char *dir = scratch();
    check_refuses(dir, ".version 8.0\n.address_size 64\n.entry k() { ret; }\n", "1:1",
                  "the module has no .target directive");
    check_refuses(dir, ".version 8.0\n.target sm_9999\n", "2:9", "unknown .target 'sm_9999'");
    check_refuses(dir, ".version 8.0\n.target banana\n", "2:9", "unknown .target 'banana'");
    /* constant expressions in initializers are valid PTX */
    char *p = write_ptx(dir, "ok.ptx", HDR ".global .u32 a = (1);\n.global .u32 b = 1+2;\n");
    char *out;
    assert_int_equal(RUN(&out, NULL, "dump", p), 0);
    assert_contains(out, ".global .u32 a = 1;");
    assert_contains(out, ".global .u32 b = 3;");
    g_free(out);
    g_free(p);
    rm_tree(dir);
}

/* --------------------------------------------------- 5. unwritable outputs */

static void assert_dev_full_intact(void)
{
    struct stat st;
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void test_unwritable_outputs(void **state)
{
    (void)state;
    char *p = bad("params.ptx"), *err;
    const char *base[] = {"run", p, "--kernel", "params", "--grid", "1", "--block", "1",
                          "--arg", "zeros:12", "--arg", "u32:1", "--arg", "s32:1", "--arg",
                          "f32:1"};
#define PARAMS base[0], base[1], base[2], base[3], base[4], base[5], base[6], base[7], base[8], \
               base[9], base[10], base[11], base[12], base[13], base[14], base[15]
    assert_int_equal(RUN(NULL, &err, PARAMS, "--timing", "--stats", "/dev/full"), 1);
    assert_contains(err, "cannot write /dev/full: No space left on device");
    g_free(err);
    assert_int_equal(RUN(NULL, &err, PARAMS, "--dump", "0:/dev/full"), 1);
    assert_contains(err, "--dump 0: cannot write /dev/full: No space left on device");
    g_free(err);
    assert_int_equal(RUN(NULL, &err, PARAMS, "--timing", "--sched-trace", "/dev/full"), 1);
    assert_contains(err, "cannot write /dev/full: No space left on device");
    g_free(err);
    static const char *const cmds[] = {"parse", "dump", "cfg", "phases"};
    for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
        assert_int_equal(run_to("/dev/full", NULL, &err, cmds[i], p, NULL), 1);
        assert_contains(err, "ptxemu: cannot write standard output: No space left on device");
        g_free(err);
    }
    assert_dev_full_intact();
    /* a failed run leaves no statistics, trace or CSV behind, not even a
     * temporary file; a good one leaves complete files */
    char *dir = scratch(), *hang = bad("hang_store.ptx");
    char *stats = g_build_filename(dir, "s.json", NULL);
    char *trace = g_build_filename(dir, "t.txt", NULL);
    char *csv = g_build_filename(dir, "csv", NULL);
    assert_int_equal(RUN(NULL, &err, "run", hang, "--kernel", "hang_store", "--grid", "1",
                         "--block", "32", "--arg", "zeros:4", "--timing", "--max-cycles", "5000",
                         "--stats", stats, "--sched-trace", trace, "--trace-csv", csv), 1);
    g_free(err);
    assert_int_equal(count_files(dir), 1); /* the csv folder, empty */
    assert_int_equal(count_files(csv), 0);
    assert_int_equal(RUN(NULL, &err, PARAMS, "--timing", "--stats", stats, "--sched-trace",
                         trace, "--trace-csv", csv), 0);
    g_free(err);
    assert_int_equal(count_files(dir), 3);
    assert_int_equal(count_files(csv), 3); /* per SM, per-kernel CTAs, DRAM */
    char *json;
    assert_true(g_file_get_contents(stats, &json, NULL, NULL));
    assert_contains(json, "\"schema\": \"ptxemu-timing-stats/1\"");
    assert_true(g_str_has_suffix(json, "}\n"));
    struct stat st;
    assert_int_equal(stat(stats, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask); /* not mkstemp's 0600 */
    g_free(json);
#undef PARAMS
    g_free(stats);
    g_free(trace);
    g_free(csv);
    g_free(hang);
    rm_tree(dir);
    g_free(p);
}

/* ------------------------------------------------------ 6. hung kernels */

static void expect_stopped(int rc, char *err, const char *file, const char *why)
{
    assert_int_equal(rc, 1);
    assert_contains(err, "kernel '");
    assert_contains(err, "CTA (0,0,0), warp 0, function '");
    assert_contains(err, file);
    assert_contains(err, why);
    assert_contains(err, "in the loop at line 14 (LOOP)"); /* livelock: "it is spinning" */
    g_free(err);
}

static void test_hung_kernels(void **state)
{
    (void)state;
    char *h = bad("hang.ptx"), *hs = bad("hang_store.ptx"), *err;
    int rc;
    /* storing every iteration: only the instruction limit stops it */
    rc = RUN(NULL, &err, "run", hs, "--kernel", "hang_store", "--grid", "2", "--block", "64",
             "--arg", "zeros:4", "--max-warp-instructions", "200000");
    expect_stopped(rc, err, "hang_store.ptx:1", "stopped after 200000 warp instructions "
                                                "(limits.max_warp_instructions");
    rc = RUN(NULL, &err, "run", hs, "--kernel", "hang_store", "--grid", "2", "--block", "64",
             "--arg", "zeros:4", "--timing", "--max-warp-instructions", "20000");
    expect_stopped(rc, err, "hang_store.ptx:1", "stopped after 20000 warp instructions");
    /* the same stop with the SMs on two host threads (timing/gpu_par.c) */
    rc = RUN(NULL, &err, "run", hs, "--kernel", "hang_store", "--grid", "40", "--block", "64",
             "--arg", "zeros:4", "--timing", "-j", "2", "--max-warp-instructions", "20000");
    expect_stopped(rc, err, "hang_store.ptx:1", "stopped after 20000 warp instructions");
    rc = RUN(NULL, &err, "run", hs, "--kernel", "hang_store", "--grid", "2", "--block", "64",
             "--arg", "zeros:4", "--timing", "--max-cycles", "30000");
    expect_stopped(rc, err, "hang_store.ptx:1", "stopped after 30000 core cycles "
                                                "(limits.max_cycles");
    /* the same limits as config keys */
    rc = RUN(NULL, &err, "run", hs, "--kernel", "hang_store", "--grid", "1", "--block", "32",
             "--arg", "zeros:4", "--timing", "--set", "limits.max_cycles=40000");
    expect_stopped(rc, err, "hang_store.ptx:1", "stopped after 40000 core cycles");
    /* the progress (livelock) check runs under timing as it does functionally */
    rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "1", "--block", "32",
             "--arg", "zeros:4", "--livelock-limit", "50000");
    expect_stopped(rc, err, "hang.ptx:1", "no progress for 50000 warp instructions");
    rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "1", "--block", "32",
             "--arg", "zeros:4", "--timing", "--livelock-limit", "50000");
    expect_stopped(rc, err, "hang.ptx:1", "no progress for 50000 warp instructions");
    /* default settings: a while(1) stops by itself under timing (2e7 cycles) */
    gint64 t0 = g_get_monotonic_time();
    rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "1", "--block", "32",
             "--arg", "zeros:4", "--timing");
    expect_stopped(rc, err, "hang.ptx:1", "stopped after 20000000 core cycles");
    print_message("default timing limit stopped while(1) after %.1f s\n",
                  (double)(g_get_monotonic_time() - t0) / 1e6);
    g_free(h);
    g_free(hs);
}

/* A while(1) under limits set out of reach (1e12 instructions/cycles, no
 * livelock check) stops at the wall-clock limit, located like the others,
 * functionally and under --timing; --progress lines come every
 * limits.progress_seconds and never unasked. */
static void test_wall_clock_limit(void **state)
{
    (void)state;
    char *h = bad("hang.ptx"), *err;
    gint64 t0 = g_get_monotonic_time();
    int rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "1", "--block", "32",
                 "--arg", "zeros:4", "--max-seconds", "1", "--max-warp-instructions",
                 "1000000000000", "--livelock-limit", "1000000000000");
    double secs = (double)(g_get_monotonic_time() - t0) / 1e6;
    assert_null(strstr(err, "ptxemu: kernel 'hang': ")); /* no progress unasked */
    expect_stopped(rc, err, "hang.ptx:1", "stopped after 1 s of wall-clock time "
                                          "(limits.max_seconds; raise it with --max-seconds");
    assert_true(secs >= 1.0 && secs < 30.0);
    t0 = g_get_monotonic_time();
    rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "1", "--block", "32",
             "--arg", "zeros:4", "--timing", "--set", "limits.max_seconds=2", "--set",
             "limits.progress_seconds=1", "--max-cycles", "1000000000000", "--livelock-limit",
             "1000000000000", "--max-warp-instructions", "1000000000000");
    secs = (double)(g_get_monotonic_time() - t0) / 1e6;
    assert_contains(err, "ptxemu: kernel 'hang': 1 s, cycle ");
    expect_stopped(rc, err, "hang.ptx:1", "stopped after 2 s of wall-clock time "
                                          "(limits.max_seconds");
    assert_true(secs >= 2.0 && secs < 30.0);
    /* -j 2: the CTAs' threads check it too */
    rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "4", "--block", "32",
             "--arg", "zeros:4", "-j", "2", "--max-seconds", "1", "--max-warp-instructions",
             "1000000000000", "--livelock-limit", "1000000000000");
    assert_int_equal(rc, 1);
    assert_contains(err, "stopped after 1 s of wall-clock time (limits.max_seconds");
    assert_contains(err, "hang.ptx:1");
    g_free(err);
    rc = RUN(NULL, &err, "run", h, "--kernel", "hang", "--grid", "1", "--block", "32",
             "--arg", "zeros:4", "--max-seconds", "-1");
    assert_int_equal(rc, 2);
    assert_contains(err, "--max-seconds must be between 0 (no limit) and 1e9, not -1");
    g_free(err);
    g_free(h);
}

/* ------------------------------------------------------- 7. zero settings */

static void test_zero_settings(void **state)
{
    (void)state;
    char *p = bad("hang.ptx"), *err;
    static const char *const opts[][3] = {
        {"--timing", "--regs-per-thread", "--regs-per-thread must be between 1 and 255, not 0"},
        {"--timing", "--trace-interval", "--trace-interval must be between 1 and 1e9 cycles, not 0"},
        {"--timing", "--max-cycles", "--max-cycles must be at least 1, not 0"},
        {"--timing", "--max-warp-instructions", "--max-warp-instructions must be at least 1"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(opts); i++) {
        assert_int_equal(RUN(NULL, &err, "run", p, "--kernel", "hang", "--grid", "1", "--block",
                             "1", "--arg", "zeros:4", opts[i][0], opts[i][1], "0"), 2);
        assert_contains(err, opts[i][2]);
        g_free(err);
    }
    assert_int_equal(RUN(NULL, &err, "run", p, "--kernel", "hang", "--grid", "1", "--block", "1",
                         "--arg", "zeros:4", "--timing", "--set", "limits.max_cycles=0"), 2);
    assert_contains(err, "limits.max_cycles");
    g_free(err);
    g_free(p);
}

/* ------------------------------------------------------------ 9. minor */

static void test_errors_to_stderr(void **state)
{
    (void)state;
    char *out, *err;
    int rc = RUN(&out, &err, "bench", "run", "vector-add", "--timing", "--config", "nosuch");
    assert_true(rc != 0);
    assert_null(strstr(out, "ERROR"));
    assert_contains(err, "nosuch");
    g_free(out);
    g_free(err);
    /* a 10,000-byte kernel name is echoed cut short */
    GString *name = g_string_new(NULL);
    for (int i = 0; i < 10000; i++)
        g_string_append_c(name, 'K');
    char *p = bad("hang.ptx");
    rc = RUN(NULL, &err, "run", p, "--kernel", name->str, "--grid", "1", "--block", "1",
             "--arg", "zeros:4");
    assert_int_equal(rc, 1);
    assert_contains(err, "KKK...'");
    assert_true(strlen(err) < 400);
    g_free(err);
    g_free(p);
    g_string_free(name, TRUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed_sizes),
        cmocka_unit_test(test_device_memory_limit),
        cmocka_unit_test(test_overflowing_scalars),
        cmocka_unit_test(test_array_sizes_64bit),
        cmocka_unit_test(test_operand_classes),
        cmocka_unit_test(test_label_operands),
        cmocka_unit_test(test_bad_targets),
        cmocka_unit_test(test_unwritable_outputs),
        cmocka_unit_test(test_hung_kernels),
        cmocka_unit_test(test_wall_clock_limit),
        cmocka_unit_test(test_zero_settings),
        cmocka_unit_test(test_errors_to_stderr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
