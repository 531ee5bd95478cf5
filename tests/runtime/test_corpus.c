/* tests/runtime/test_corpus.c — the nvcc-generated kernels of the parser
 * corpus run through the C API and match C reference computations
 * (the .cu files in tests/corpus/cuda hold the sources these references mirror). */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* tests/corpus/nvcc/NAME.sm_ARCH.ptx.  PTXEMU_TEST_ITS set (the
 * runtime_corpus_its test): every kernel runs under independent thread
 * scheduling, against the same references. */
static void load(test_corpus *f, const char *name, const char *arch)
{
    ptxemu_options o = {0};
    o.its = g_getenv("PTXEMU_TEST_ITS") != NULL;
    test_corpus_load(f, name, arch, &o);
}

static uint32_t rng(uint32_t *s)
{
    return test_lcg(s) >> 8;
}

/* ------------------------------------------------------------ vector_add */

static void test_vector_add(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "vector_add", "75");
    enum { N = 1000 };
    float a[N], b[N], c[N];
    uint32_t s = 1;
    for (int i = 0; i < N; i++) {
        a[i] = (float)rng(&s) / 65536.0f;
        b[i] = (float)rng(&s) / 4096.0f;
    }
    ptxemu_dptr da = test_corpus_upload(&f, a, sizeof a), db = test_corpus_upload(&f, b, sizeof b),
                dc = test_corpus_upload(&f, NULL, sizeof c);
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    test_corpus_launch(&f, "vector_add", 4, 256, args);
    test_corpus_download(&f, c, dc, sizeof c);
    for (int i = 0; i < N; i++)
        assert_true(c[i] == a[i] + b[i]);
    test_corpus_close(&f);
}

/* ------------------------------------------------------------- reduction */

static void test_reduction(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "reduction", "75");
    enum { N = 5000 };
    int in[N];
    long long want = 0;
    uint32_t s = 7;
    for (int i = 0; i < N; i++) {
        in[i] = (int)(rng(&s) % 2001) - 1000;
        want += in[i];
    }
    ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                dout = test_corpus_upload(&f, NULL, sizeof(int));
    int n = N;
    void *args[] = {&din, &dout, &n};
    test_corpus_launch(&f, "block_reduce", (N + 255) / 256, 256, args);
    int got;
    test_corpus_download(&f, &got, dout, sizeof got);
    assert_int_equal(got, (int)want);
    test_corpus_close(&f);
}

/* ----------------------------------------------------------- device calls */

static int ref_mix(int a, int b) { return a * 31 + (b ^ 0x5a); }
static int ref_fib(int n) { return n < 2 ? n : ref_fib(n - 1) + ref_fib(n - 2); }

static void test_device_calls(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "device_calls", "75");
    enum { N = 300 };
    int in[N], out[N];
    uint32_t s = 3;
    for (int i = 0; i < N; i++)
        in[i] = (int)(rng(&s) % 100000) - 50000;
    ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                dout = test_corpus_upload(&f, NULL, sizeof out);
    int n = N;
    void *args[] = {&din, &dout, &n};
    test_corpus_launch(&f, "calls_kernel", 3, 128, args);
    test_corpus_download(&f, out, dout, sizeof out);
    for (int i = 0; i < N; i++) {
        int x = in[i];
        int r = ref_mix(x, i) + ref_fib((x & 7) + 1);
        int want = i % 3 == 0 ? r + x : i % 3 == 1 ? r - x : (r > x ? r : x);
        if (out[i] != want)
            print_error("lane %d: got %d want %d\n", i, out[i], want);
        assert_int_equal(out[i], want);
    }
    test_corpus_close(&f);
}

/* ---------------------------------------------------------------- spinlock */

static void test_spinlock_8192_threads_16_locks(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "spinlock", "75");
    enum { LOCKS = 16, THREADS = 8192 };
    ptxemu_dptr locks = test_corpus_upload(&f, NULL, LOCKS * sizeof(int));
    ptxemu_dptr counters = test_corpus_upload(&f, NULL, LOCKS * sizeof(int));
    int nlocks = LOCKS;
    void *args[] = {&locks, &counters, &nlocks};
    test_corpus_launch(&f, "spinlock_count", THREADS / 256, 256, args);
    int c[LOCKS], l[LOCKS];
    test_corpus_download(&f, c, counters, sizeof c);
    test_corpus_download(&f, l, locks, sizeof l);
    for (int i = 0; i < LOCKS; i++) {
        assert_int_equal(c[i], THREADS / LOCKS);
        assert_int_equal(l[i], 0);
    }
    test_corpus_close(&f);
}

/* --------------------------------------------------------------- f16 / f64 */

/* binary16 rounding toward zero of a float (exact construction) */
static _Float16 f2h_rz(float x)
{
    _Float16 h = (_Float16)x;
    if (fabsf((float)h) > fabsf(x)) {
        uint16_t b;
        memcpy(&b, &h, 2);
        b--; /* one ulp toward zero: magnitudes are monotonic in the bits */
        memcpy(&h, &b, 2);
    }
    return h;
}

static void test_half_ops(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "half_double", "80");
    enum { N = 256 };
    float in[N], out[N];
    uint32_t s = 11;
    for (int i = 0; i < N; i++)
        in[i] = ((float)(rng(&s) % 80000) - 40000.0f) / 4096.0f;
    ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                dout = test_corpus_upload(&f, NULL, sizeof out);
    int n = N;
    void *args[] = {&din, &dout, &n};
    test_corpus_launch(&f, "half_ops", 2, 128, args);
    test_corpus_download(&f, out, dout, sizeof out);
    for (int i = 0; i < N; i++) {
        _Float16 a = (_Float16)in[i];
        _Float16 b = f2h_rz(0.5f * in[i]);
        _Float16 sum = (_Float16)((float)a + (float)b);
        _Float16 p = (_Float16)((float)a * (float)b);
        /* one rounding: the product of two halves is exact in double */
        _Float16 fm = (_Float16)((double)sum * (double)p + (double)(i & 15));
        _Float16 wl = (_Float16)1.25f, wh = (_Float16)-2.0f;
        _Float16 xl = (_Float16)((float)a + (float)wl), xh = (_Float16)((float)fm + (float)wh);
        xl = (_Float16)((float)xl * (float)wl);
        xh = (_Float16)((float)xh * (float)wh);
        float want = (float)fm + (float)xl;
        want = want + (float)xh;
        want = want + (float)(int)(float)sum;
        if (out[i] != want)
            print_error("lane %d: in %a got %a want %a\n", i, (double)in[i], (double)out[i],
                        (double)want);
        assert_true(out[i] == want);
    }
    test_corpus_close(&f);
}

static void test_double_ops(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "half_double", "80");
    enum { N = 200 };
    double in[N], out[N];
    uint32_t s = 5;
    for (int i = 0; i < N; i++)
        in[i] = ((double)rng(&s) - 8388608.0) / 1024.0;
    ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                dout = test_corpus_upload(&f, NULL, sizeof out);
    int n = N;
    void *args[] = {&din, &dout, &n};
    test_corpus_launch(&f, "double_ops", 2, 128, args);
    test_corpus_download(&f, out, dout, sizeof out);
    for (int i = 0; i < N; i++) {
        double a = in[i], b = (double)i + 1.0;
        double fm = fma(a, b, 0.25);
        double q = fm / b;
        double r = sqrt(fabs(q) + 1.0);
        double want = r + (double)(float)q + (double)(long long)a;
        assert_true(out[i] == want);
    }
    test_corpus_close(&f);
}

/* ------------------------------------------------------------------ printf */

static void test_printf_golden(void **state)
{
    (void)state;
    char *tmp = g_build_filename(g_get_tmp_dir(), "ptxemu-printf-XXXXXX", NULL);
    int fd = g_mkstemp(tmp);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w+");
    ptxemu_options opts = {0};
    opts.printf_stream = out;
    opts.its = g_getenv("PTXEMU_TEST_ITS") != NULL;
    test_corpus f;
    test_corpus_load(&f, "printf", "75", &opts);
    int base = 100;
    void *args[] = {&base};
    test_corpus_launch(&f, "print_kernel", 1, 32, args);
    fflush(out);
    gsize len;
    char *golden = test_read_file("tests/corpus/golden/printf.sm_75.out", &len);
    char *got = NULL;
    gsize glen = 0;
    assert_true(g_file_get_contents(tmp, &got, &glen, NULL));
    assert_string_equal(got, golden);
    fclose(out);
    unlink(tmp);
    g_free(tmp);
    g_free(got);
    g_free(golden);
    test_corpus_close(&f);
}

/* ----------------------------------------------------------------- stencil */

static void test_stencil_with_barriers(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "stencil2d", "75");
    enum { W = 50, H = 37 };
    static float in[W * H], out[W * H];
    uint32_t s = 9;
    for (int i = 0; i < W * H; i++)
        in[i] = (float)(rng(&s) % 1000) / 8.0f;
    ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                dout = test_corpus_upload(&f, NULL, sizeof out);
    int w = W, h = H;
    void *args[] = {&din, &dout, &w, &h};
    test_corpus_launch_dim(&f, "stencil5", (ptxemu_dim3){(W + 15) / 16, (H + 15) / 16, 1},
                           (ptxemu_dim3){16, 16, 1}, args);
    test_corpus_download(&f, out, dout, sizeof out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
#define IN(xx, yy) in[(yy) * W + (xx)]
            /* every tile cell holds a clamped load, halo cells too */
            int l = x > 0 ? x - 1 : 0, r = x + 1 < W ? x + 1 : W - 1;
            int u = y > 0 ? y - 1 : 0, d = y + 1 < H ? y + 1 : H - 1;
            float sum = ((IN(l, y) + IN(r, y)) + IN(x, u)) + IN(x, d);
            float want = fmaf(IN(x, y), 0.5f, sum * 0.125f);
#undef IN
            if (out[y * W + x] != want)
                print_error("(%d,%d): got %a want %a\n", x, y, (double)out[y * W + x],
                            (double)want);
            assert_true(out[y * W + x] == want);
        }
    test_corpus_close(&f);
}

/* ------------------------------------------------------- producer/consumer */

static void test_ldg_volatile_producer_consumer(void **state)
{
    (void)state;
    test_corpus f;
    load(&f, "ldg_volatile", "75");
    int in[2] = {21, 5}, out[2] = {0, 0};
    ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                dout = test_corpus_upload(&f, NULL, sizeof out),
                dflag = test_corpus_upload(&f, NULL, sizeof(int));
    void *args[] = {&din, &dout, &dflag};
    test_corpus_launch(&f, "prod_cons", 1, 64, args);
    test_corpus_download(&f, out, dout, sizeof out);
    assert_int_equal(out[0], 47);
    assert_int_equal(out[1], 1);
    test_corpus_close(&f);
}

/* ------------------------------------------------- through `ptxemu run` */

static void test_cli_vector_add(void **state)
{
    (void)state;
    char *ptx = test_source_path("tests/corpus/nvcc/vector_add.sm_75.ptx");
    char *dir = g_dir_make_tmp("ptxemu-run-XXXXXX", NULL);
    char *outf = g_build_filename(dir, "c.bin", NULL);
    char *dump = g_strdup_printf("2:%s", outf);
    const char *args[] = {"run", ptx, "--kernel", "vector_add", "--grid", "3", "--block", "128",
                          "--arg", "iota:f32:300", "--arg", "rand:f32:300:42", "--arg",
                          "zeros:1200", "--arg", "s32:300", "--dump", dump, NULL};
    char *out = NULL, *err = NULL;
    int rc = test_run_cli(args, &out, &err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "thread instructions:"));
    gsize len;
    char *c = NULL;
    assert_true(g_file_get_contents(outf, &c, &len, NULL));
    assert_int_equal(len, 1200);
    /* rand:f32 is documented as uniform [0,1): c[i] - i must lie there */
    const float *cf = (const float *)c;
    for (int i = 0; i < 300; i++) {
        float r = cf[i] - (float)i;
        assert_true(r >= 0.0f && r < 1.0f);
    }
    unlink(outf);
    rmdir(dir);
    g_free(c);
    g_free(out);
    g_free(err);
    g_free(dump);
    g_free(outf);
    g_free(dir);
    g_free(ptx);
}

static void test_cli_printf(void **state)
{
    (void)state;
    char *ptx = test_source_path("tests/corpus/nvcc/printf.sm_75.ptx");
    const char *args[] = {"run", ptx, "--kernel", "print_kernel", "--grid", "1", "--block", "32",
                          "--arg", "s32:100", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(test_run_cli(args, &out, &err), 0);
    gsize len;
    char *golden = test_read_file("tests/corpus/golden/printf.sm_75.out", &len);
    /* device output comes first, then the counters */
    assert_memory_equal(out, golden, len);
    g_free(golden);
    g_free(out);
    g_free(err);
    g_free(ptx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_reduction),
        cmocka_unit_test(test_device_calls),
        cmocka_unit_test(test_spinlock_8192_threads_16_locks),
        cmocka_unit_test(test_half_ops),
        cmocka_unit_test(test_double_ops),
        cmocka_unit_test(test_printf_golden),
        cmocka_unit_test(test_stencil_with_barriers),
        cmocka_unit_test(test_ldg_volatile_producer_consumer),
        cmocka_unit_test(test_cli_vector_add),
        cmocka_unit_test(test_cli_printf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
