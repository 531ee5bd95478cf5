/* tests/runtime/test_par.c — `-j N`: the CTAs of a functional launch on N
 * host threads (runtime/launch.c run_parallel, runtime/par_class.c).
 *  - integer red.global.{add,max,or} from many CTAs and lanes run in
 *    parallel (no notice) and give exactly the one-thread memory and
 *    instruction counts;
 *  - kernels whose CTAs may observe each other run on one thread and
 *    `ptxemu run -j 2` says so once, naming the instruction (or the printf
 *    call) and its line;
 *  - a faulting kernel under -j 2 reports the lowest faulting CTA with its
 *    location and exits non-zero;
 *  - -j 0 and -j -3 are refused, naming sim.host_threads and the value. */
#include "tests/support/test_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static char *tmp_dir;

static int setup(void **state)
{
    (void)state;
    tmp_dir = g_dir_make_tmp("ptxemu-par-XXXXXX", NULL);
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

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

/* 100 rounds per thread of red.add (tid+1), red.max (ctaid*1000+tid) and
 * red.or (1 << (ctaid % 32)) into out[0], out[1], out[2]. */
static const char red_ptx[] = HEAD
    ".visible .entry reds(.param .u64 p)\n"
    "{\n"
    "  .reg .u64 %rd<4>;\n"
    "  .reg .u32 %r<10>;\n"
    "  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  add.u32 %r3, %r1, 1;\n"
    "  mad.lo.u32 %r4, %r2, 1000, %r1;\n"
    "  and.b32 %r5, %r2, 31;\n"
    "  shl.b32 %r6, 1, %r5;\n"
    "  mov.u32 %r7, 0;\n"
    "LOOP:\n"
    "  red.global.add.u32 [%rd2], %r3;\n"
    "  red.global.max.u32 [%rd2+4], %r4;\n"
    "  red.global.or.b32 [%rd2+8], %r6;\n"
    "  add.u32 %r7, %r7, 1;\n"
    "  setp.lt.u32 %p, %r7, 100;\n"
    "  @%p bra LOOP;\n"
    "  ret;\n"
    "}\n";

static void run_reds(uint32_t threads, uint32_t out[3], ptxemu_counters *c)
{
    ptxemu_options o = {0};
    o.host_threads = threads;
    o.memory_digest = 1;
    ptxemu_ctx *ctx = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_module_load_string(ctx, red_ptx, "reds.ptx", &mod), PTXEMU_OK);
    ptxemu_dptr d = 0;
    assert_int_equal(ptxemu_malloc(ctx, &d, 12), PTXEMU_OK);
    assert_int_equal(ptxemu_memset(ctx, d, 0, 12), PTXEMU_OK);
    void *args[] = {&d};
    ptxemu_status s = ptxemu_launch(mod, "reds", (ptxemu_dim3){64, 1, 1},
                                    (ptxemu_dim3){96, 1, 1}, 0, args);
    if (s != PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(ctx));
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, out, d, 12), PTXEMU_OK);
    ptxemu_get_counters(ctx, c);
    ptxemu_ctx_destroy(ctx);
}

static void test_red_exact(void **state)
{
    (void)state;
    uint32_t one[3], two[3], four[3];
    ptxemu_counters c1, c2, c4;
    run_reds(1, one, &c1);
    run_reds(2, two, &c2);
    run_reds(4, four, &c4);
    /* 64 CTAs x 100 rounds x (1 + ... + 96) */
    assert_int_equal(one[0], 64u * 100u * (96u * 97u / 2u));
    assert_int_equal(one[1], 63u * 1000u + 95u);
    assert_int_equal(one[2], 0xffffffffu);
    assert_memory_equal(one, two, sizeof one);
    assert_memory_equal(one, four, sizeof one);
    assert_true(c1.warp_instructions == c2.warp_instructions);
    assert_true(c1.thread_instructions == c2.thread_instructions);
    assert_true(c1.warp_instructions == c4.warp_instructions);
    assert_true(c1.memory_digest == c2.memory_digest);
    assert_true(c1.memory_digest == c4.memory_digest);
}

/* Writes `ptx` to NAME.ptx and runs its kernel `name` under -j 2 (or
 * `jobs`) on 8 CTAs of 64 threads with one 4 KB buffer; returns the exit
 * status, stderr in *err. */
static int run_cli(const char *name, const char *ptx, const char *jobs, char **err)
{
    char *file = g_strdup_printf("%s.ptx", name);
    assert_true(g_file_set_contents(file, ptx, -1, NULL));
    const char *argv[] = {"run", file, "--kernel", name, "--grid", "8", "--block", "64",
                          "--arg", "zeros:4096", "-j", jobs, NULL};
    char *out = NULL;
    int rc = test_run_cli(argv, &out, err);
    g_free(out);
    g_remove(file);
    g_free(file);
    return rc;
}

static void expect_in(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("expected '%s' in:\n%s", want, text);
}

static void test_red_runs_parallel(void **state)
{
    (void)state;
    char *err = NULL;
    int rc = run_cli("reds", red_ptx, "2", &err);
    if (rc != 0 || strstr(err, "one thread"))
        fail_msg("rc %d, stderr:\n%s", rc, err);
    g_free(err);
}

#define KERNEL(name, decls, body)                                               \
    HEAD ".visible .entry " name "(.param .u64 p)\n{\n  .reg .u64 %rd<4>;\n" decls \
         "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n" body     \
         "  ret;\n}\n"

typedef struct serial_case {
    const char *name;
    const char *ptx;
    const char *reason; /* expected in the notice */
} serial_case;

static void test_serial_reasons(void **state)
{
    (void)state;
    static const serial_case cases[] = {
        {"fsum", KERNEL("fsum", "  .reg .f32 %f<2>;\n", "  mov.f32 %f1, 0f3F800000;\n"
                        "  atom.global.add.f32 %f1, [%rd2], %f1;\n"),
         "atom.global.add.f32 at fsum.ptx:11 (order-dependent)"},
        {"fred", KERNEL("fred", "  .reg .f32 %f<2>;\n", "  mov.f32 %f1, 0f3F800000;\n"
                        "  red.global.add.f32 [%rd2], %f1;\n"),
         "red.global.add.f32 at fred.ptx:11 (order-dependent)"},
        {"iatom", KERNEL("iatom", "  .reg .u32 %r<2>;\n",
                         "  atom.global.add.u32 %r1, [%rd2], 1;\n"),
         "atom.global.add.u32 at iatom.ptx:10 (order-dependent)"},
        {"clk", KERNEL("clk", "  .reg .u64 %c;\n",
                       "  mov.u64 %c, %clock64;\n  st.global.u64 [%rd2], %c;\n"),
         "reads %clock64 at clk.ptx:10"},
        {"vol", KERNEL("vol", "  .reg .u32 %r<2>;\n",
                       "  ld.volatile.global.u32 %r1, [%rd2];\n"),
         "ld.volatile.global.u32 at vol.ptx:10"},
        {"fence", KERNEL("fence", "", "  membar.gl;\n"), "membar.gl at fence.ptx:9"},
        {"pf", HEAD
         ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, "
         ".param .b64 vprintf_param_1);\n"
         ".global .align 1 .b8 $str[1] = {0};\n"
         ".visible .entry pf(.param .u64 p)\n{\n  .reg .u64 %rd<4>;\n  .reg .b32 %r<2>;\n"
         "  cvta.global.u64 %rd3, $str;\n  {\n  .param .b64 param0;\n"
         "  st.param.b64 [param0+0], %rd3;\n  .param .b64 param1;\n"
         "  st.param.b64 [param1+0], 0;\n  .param .b32 retval0;\n"
         "  call.uni (retval0), vprintf, (param0, param1);\n"
         "  ld.param.b32 %r1, [retval0+0];\n  }\n  ret;\n}\n",
         "printf at pf.ptx:17"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const serial_case *k = &cases[i];
        char *err = NULL;
        int rc = run_cli(k->name, k->ptx, "2", &err);
        if (rc != 0)
            fail_msg("%s: rc %d, stderr:\n%s", k->name, rc, err);
        char *head = g_strdup_printf("ptxemu: kernel '%s' runs its CTAs on one thread: ", k->name);
        expect_in(err, head);
        expect_in(err, k->reason);
        g_free(head);
        g_free(err);
        /* with one thread nothing is said */
        rc = run_cli(k->name, k->ptx, "1", &err);
        assert_int_equal(rc, 0);
        if (strstr(err, "one thread"))
            fail_msg("%s -j 1 said: %s", k->name, err);
        g_free(err);
    }
}

/* CTAs 3 and up load from address 8 (line 16), which is not allocated */
static const char fault_ptx[] = KERNEL("bad", "  .reg .u32 %r<2>;\n  .reg .pred %p;\n  .reg .u64 %z;\n",
    "  mov.u32 %r1, %ctaid.x;\n"
    "  setp.lt.u32 %p, %r1, 3;\n"
    "  @%p bra DONE;\n"
    "  mov.u64 %z, 8;\n"
    "  ld.global.u32 %r1, [%z];\n"
    "DONE:\n");

static void test_fault(void **state)
{
    (void)state;
    for (int rep = 0; rep < 3; rep++) {
        char *err = NULL;
        int rc = run_cli("bad", fault_ptx, "2", &err);
        assert_int_not_equal(rc, 0);
        /* the lowest CTA that faults, whichever thread ran it */
        expect_in(err, "kernel 'bad', CTA (3,0,0)");
        expect_in(err, "bad.ptx:16");
        g_free(err);
    }
}

static void test_bad_jobs(void **state)
{
    (void)state;
    const char *bad[] = {"0", "-3", "257"};
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *err = NULL;
        int rc = run_cli("reds", red_ptx, bad[i], &err);
        assert_int_not_equal(rc, 0);
        expect_in(err, "sim.host_threads");
        char *val = g_strdup_printf("not %s", bad[i]);
        expect_in(err, val);
        g_free(val);
        g_free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_red_exact),
        cmocka_unit_test(test_red_runs_parallel),
        cmocka_unit_test(test_serial_reasons),
        cmocka_unit_test(test_fault),
        cmocka_unit_test(test_bad_jobs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
