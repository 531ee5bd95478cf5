/* tests/runtime/test_async_cuda.c — tests/corpus/cuda/async_grid_heap.cu as
 * nvcc 13 compiles it (committed PTX for sm_75, sm_80, sm_90), run through
 * the C API functionally and on the timing model; every result against a
 * CPU model of the kernel:
 *   pipeline_tiles  __pipeline_memcpy_async / commit / wait_prior(1)
 *                   (cp.async on sm_80+, plain copies on sm_75);
 *   barrier_copy    cuda::barrier + cuda::memcpy_async (cp.async,
 *                   cp.async.mbarrier.arrive, mbarrier.arrive/test_wait);
 *   grid_total      cooperative_groups grid.sync() under a cooperative
 *                   launch; the same kernel launched normally traps, and a
 *                   grid larger than the config holds at once is refused;
 *   heap_sum        malloc/free per thread (exhaustion: test_async.c). */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

#define TILE 64
static const char *const archs[] = {"75", "80", "90"};

static void load(test_corpus *f, const char *arch, bool timing)
{
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    o.timing = timing;
    test_corpus_load(f, "async_grid_heap", arch, &o);
}

static void must(test_corpus *f, ptxemu_status s)
{
    if (s != PTXEMU_OK)
        fail_msg("%s", ptxemu_last_error(f->ctx));
}

static void test_pipeline_tiles(void **state)
{
    (void)state;
    enum { CTAS = 3, NT = 5, N = CTAS * NT * TILE };
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 97) * 0.5f - 7.0f;
    for (int timing = 0; timing < 2; timing++)
        for (size_t a = 0; a < G_N_ELEMENTS(archs); a++) {
            test_corpus f;
            load(&f, archs[a], timing);
            ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                        dout = test_corpus_upload(&f, NULL, sizeof out);
            int nt = NT;
            void *args[] = {&din, &dout, &nt};
            test_corpus_launch(&f, "pipeline_tiles", CTAS, TILE, args);
            test_corpus_download(&f, out, dout, sizeof out);
            for (int c = 0; c < CTAS; c++)
                for (int t = 0; t < NT; t++)
                    for (int i = 0; i < TILE; i++) {
                        int base = (c * NT + t) * TILE;
                        assert_true(out[base + i] == 2.0f * in[base + (i + 1) % TILE] + 1.0f);
                    }
            test_corpus_close(&f);
        }
}

static void test_barrier_copy(void **state)
{
    (void)state;
    enum { CTAS = 4, N = CTAS * TILE };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 13 - 400;
    for (int timing = 0; timing < 2; timing++)
        for (size_t a = 0; a < G_N_ELEMENTS(archs); a++) {
            test_corpus f;
            load(&f, archs[a], timing);
            ptxemu_dptr din = test_corpus_upload(&f, in, sizeof in),
                        dout = test_corpus_upload(&f, NULL, sizeof out);
            void *args[] = {&din, &dout};
            /* 96 threads: the barrier counts all of them, 64 copy */
            test_corpus_launch(&f, "barrier_copy", CTAS, 96, args);
            test_corpus_download(&f, out, dout, sizeof out);
            for (int c = 0; c < CTAS; c++)
                for (int i = 0; i < TILE; i++)
                    assert_int_equal(out[c * TILE + i], in[c * TILE + TILE - 1 - i] * 3);
            test_corpus_close(&f);
        }
}

static void test_grid_sync(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++)
        for (size_t a = 0; a < G_N_ELEMENTS(archs); a++) {
            test_corpus f;
            load(&f, archs[a], timing);
            uint64_t most = 0;
            must(&f, ptxemu_max_coresident_ctas(f.mod, "grid_total", (ptxemu_dim3){128, 1, 1}, 0,
                                                &most));
            assert_true(most >= 12);
            unsigned ctas = 12, block = 128;
            unsigned outh[12];
            ptxemu_dptr cnt = test_corpus_upload(&f, NULL, 4),
                        out = test_corpus_upload(&f, NULL, sizeof outh);
            void *args[] = {&cnt, &out};
            must(&f, ptxemu_launch_cooperative(f.mod, "grid_total", (ptxemu_dim3){ctas, 1, 1},
                                               (ptxemu_dim3){block, 1, 1}, 0, args));
            test_corpus_download(&f, outh, out, sizeof outh);
            for (unsigned b = 0; b < ctas; b++) /* every CTA saw every arrival */
                assert_int_equal(outh[b], ctas * block);
            /* more CTAs than can be resident: refused with the bound */
            ptxemu_status s = ptxemu_launch_cooperative(
                f.mod, "grid_total", (ptxemu_dim3){(unsigned)most + 1, 1, 1},
                (ptxemu_dim3){block, 1, 1}, 0, args);
            assert_int_equal(s, PTXEMU_ERR_LAUNCH_RESOURCES);
            char want[64];
            snprintf(want, sizeof want, "holds at most %llu", (unsigned long long)most);
            assert_non_null(strstr(ptxemu_last_error(f.ctx), want));
            /* grid.sync() outside a cooperative launch traps, as on a GPU */
            s = ptxemu_launch(f.mod, "grid_total", (ptxemu_dim3){2, 1, 1},
                              (ptxemu_dim3){32, 1, 1}, 0, args);
            assert_int_equal(s, PTXEMU_ERR_LAUNCH_FAILED);
            assert_non_null(strstr(ptxemu_last_error(f.ctx), "trap"));
            test_corpus_close(&f);
        }
}

static void test_heap_sum(void **state)
{
    (void)state;
    enum { T = 96 };
    for (size_t a = 0; a < G_N_ELEMENTS(archs); a++) {
        test_corpus f;
        load(&f, archs[a], a == 1); /* sm_80 under timing too */
        int out[T];
        ptxemu_dptr dout = test_corpus_upload(&f, NULL, sizeof out);
        int n = 50;
        void *args[] = {&n, &dout};
        test_corpus_launch(&f, "heap_sum", 3, T / 3, args);
        test_corpus_download(&f, out, dout, sizeof out);
        for (int t = 0; t < T; t++) /* sum of t .. t+n-1 */
            assert_int_equal(out[t], n * t + n * (n - 1) / 2);
        test_corpus_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_tiles),
        cmocka_unit_test(test_barrier_copy),
        cmocka_unit_test(test_grid_sync),
        cmocka_unit_test(test_heap_sum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
