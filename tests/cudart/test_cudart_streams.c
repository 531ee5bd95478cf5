/* tests/cudart/test_cudart_streams.c — streams and events of the drop-in
 * libcudart.so.13 without a CUDA toolkit (so they also run under
 * ASan/UBSan): a hand-built fatbinary's kernel launched on streams with
 * async copies, results checked against the CPU; the same two kernels in
 * one stream and in two, timed by events in simulated time (meson runs it
 * with PTXEMU_MODE=timing), which must show the overlap; host functions;
 * a kernel's fault reported by the waiting call and sticky; cudaDeviceReset
 * dropping streams. */
#include "cudart/cuda_abi.h"
#include "fatbin_build.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
cudaError_t cudaLaunchKernel(const void *fn, dim3 g, dim3 b, void **args, size_t shared,
                             cudaStream_t s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, void (*fn)(void *), void *user);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);

#define LEGACY ((cudaStream_t)0x1)
#define PER_THREAD ((cudaStream_t)0x2)

/* add_k: a[i] = a[i] * 3 + k, repeated `reps` times, for i < n. */
static const char KERNEL_PTX[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry add_k(.param .u64 a, .param .u32 n, .param .u32 k, .param .u32 reps)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u32 %r1, [n];\n  ld.param.u32 %r7, [k];\n"
    "  ld.param.u32 %r8, [reps];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r2, %r3, %r4, %r2;\n  setp.ge.u32 %p1, %r2, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r5, [%rd3];\n"
    "LOOP:\n  mad.lo.s32 %r5, %r5, 3, %r7;\n  sub.s32 %r8, %r8, 1;\n"
    "  setp.ne.u32 %p2, %r8, 0;\n  @%p2 bra LOOP;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "DONE:\n  ret;\n}\n";

static const char add_stub = 0; /* stands in for nvcc's host stub */
static GByteArray *img;
static fatbin_wrapper wrapper;

static unsigned ref(unsigned x, unsigned k, unsigned reps)
{
    while (reps--)
        x = x * 3u + k;
    return x;
}

static int setup(void **state)
{
    (void)state;
    fb_spec spec[] = {{1, 75, 0, KERNEL_PTX, sizeof KERNEL_PTX - 1, 0}};
    img = fb_build(spec, 1);
    wrapper = (fatbin_wrapper){(int)FATBINC_MAGIC, 1, (const unsigned long long *)img->data, NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, &add_stub, (char *)"add_k", "add_k", -1, NULL, NULL, NULL, NULL,
                           NULL);
    __cudaRegisterFatBinaryEnd(h);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return 0; /* the runtime points at the image until exit */
}

enum { N = 64 };

static void launch(unsigned *dev, unsigned k, unsigned reps, cudaStream_t s)
{
    unsigned n = N;
    void *args[] = {&dev, &n, &k, &reps};
    dim3 grid = {N / 32, 1, 1}, block = {32, 1, 1};
    assert_int_equal(cudaLaunchKernel(&add_stub, grid, block, args, 0, s), cudaSuccess);
}

/* Two streams: copy in, kernel, copy out, each; the host buffers are
 * written only when the streams are waited for. */
static void test_two_streams(void **state)
{
    (void)state;
    cudaStream_t s[2];
    unsigned in[2][N], out[2][N], *dev[2];
    for (int j = 0; j < 2; j++) {
        assert_int_equal(cudaStreamCreate(&s[j]), cudaSuccess);
        assert_int_equal(cudaMalloc((void **)&dev[j], sizeof in[j]), cudaSuccess);
        for (unsigned i = 0; i < N; i++)
            in[j][i] = i + 100u * (unsigned)j;
        memset(out[j], 0, sizeof out[j]);
    }
    for (int j = 0; j < 2; j++) {
        assert_int_equal(cudaMemcpyAsync(dev[j], in[j], sizeof in[j], cudaMemcpyHostToDevice,
                                         s[j]), cudaSuccess);
        launch(dev[j], 5u + (unsigned)j, 3, s[j]);
        assert_int_equal(cudaMemcpyAsync(out[j], dev[j], sizeof out[j], cudaMemcpyDeviceToHost,
                                         s[j]), cudaSuccess);
    }
    assert_int_equal(out[0][1], 0); /* queued, not run */
    for (int j = 0; j < 2; j++) {
        assert_int_equal(cudaStreamSynchronize(s[j]), cudaSuccess);
        for (unsigned i = 0; i < N; i++)
            assert_int_equal(out[j][i], ref(in[j][i], 5u + (unsigned)j, 3));
        assert_int_equal(cudaFree(dev[j]), cudaSuccess);
        assert_int_equal(cudaStreamDestroy(s[j]), cudaSuccess);
    }
    assert_int_equal(cudaStreamDestroy(s[0]), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
}

/* The same two kernels in one stream, then in two: event times. */
static void test_overlap_in_simulated_time(void **state)
{
    (void)state;
    cudaStream_t a, b;
    cudaEvent_t e[4];
    unsigned *x, *y;
    assert_int_equal(cudaStreamCreate(&a), cudaSuccess);
    assert_int_equal(cudaStreamCreateWithFlags(&b, 1), cudaSuccess); /* non-blocking */
    unsigned flags = 0;
    assert_int_equal(cudaStreamGetFlags(b, &flags), cudaSuccess);
    assert_int_equal(flags, 1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(cudaEventCreate(&e[i]), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&x, N * 4), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&y, N * 4), cudaSuccess);
    assert_int_equal(cudaMemsetAsync(x, 0, N * 4, a), cudaSuccess);
    assert_int_equal(cudaMemsetAsync(y, 0, N * 4, b), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaEventRecord(e[0], a), cudaSuccess);
    launch(x, 1, 200, a);
    launch(y, 2, 200, a);
    assert_int_equal(cudaEventRecord(e[1], a), cudaSuccess);
    assert_int_equal(cudaEventRecord(e[2], a), cudaSuccess);
    assert_int_equal(cudaStreamWaitEvent(b, e[2], 0), cudaSuccess);
    launch(x, 1, 200, a);
    launch(y, 2, 200, b);
    assert_int_equal(cudaStreamWaitEvent(a, e[1], 0), cudaSuccess); /* already before it */
    cudaEvent_t done_b;
    assert_int_equal(cudaEventCreateWithFlags(&done_b, 2), cudaSuccess); /* no timing */
    assert_int_equal(cudaEventRecord(done_b, b), cudaSuccess);
    assert_int_equal(cudaStreamWaitEvent(a, done_b, 0), cudaSuccess);
    assert_int_equal(cudaEventRecord(e[3], a), cudaSuccess);
    assert_int_equal(cudaEventQuery(e[3]), cudaSuccess);
    assert_int_equal(cudaEventSynchronize(e[3]), cudaSuccess);
    float one = 0, two = 0;
    assert_int_equal(cudaEventElapsedTime(&one, e[0], e[1]), cudaSuccess);
    assert_int_equal(cudaEventElapsedTime(&two, e[2], e[3]), cudaSuccess);
    assert_true(two > 0.0f && two < 0.75f * one);
    assert_int_equal(cudaEventElapsedTime(&one, e[0], done_b), cudaErrorInvalidResourceHandle);
    (void)cudaGetLastError();
    unsigned hx[N], hy[N];
    assert_int_equal(cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned i = 0; i < N; i++) {
        assert_int_equal(hx[i], ref(ref(0, 1, 200), 1, 200));
        assert_int_equal(hy[i], ref(ref(0, 2, 200), 2, 200));
    }
    for (int i = 0; i < 4; i++)
        assert_int_equal(cudaEventDestroy(e[i]), cudaSuccess);
    assert_int_equal(cudaEventDestroy(done_b), cudaSuccess);
    assert_int_equal(cudaFree(x), cudaSuccess);
    assert_int_equal(cudaFree(y), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(a), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(b), cudaSuccess);
}

static void seen_copy(void *p)
{
    unsigned *h = p;
    h[1] = h[0]; /* the stream's copy before this function has run */
}

static void test_host_function_and_per_thread_stream(void **state)
{
    (void)state;
    unsigned *dev, h[2] = {7, 0};
    assert_int_equal(cudaMalloc((void **)&dev, 4), cudaSuccess);
    assert_int_equal(cudaMemcpyAsync(dev, h, 4, cudaMemcpyHostToDevice, PER_THREAD), cudaSuccess);
    unsigned n = 1, k = 4, reps = 2;
    void *args[] = {&dev, &n, &k, &reps};
    dim3 one = {1, 1, 1};
    assert_int_equal(cudaLaunchKernel(&add_stub, one, one, args, 0, PER_THREAD), cudaSuccess);
    assert_int_equal(cudaMemcpyAsync(h, dev, 4, cudaMemcpyDeviceToHost, PER_THREAD), cudaSuccess);
    assert_int_equal(cudaLaunchHostFunc(PER_THREAD, seen_copy, h), cudaSuccess);
    assert_int_equal(cudaStreamQuery(PER_THREAD), cudaSuccess);
    assert_int_equal(h[0], ref(7, 4, 2));
    assert_int_equal(h[1], h[0]);
    assert_int_equal(cudaStreamSynchronize(LEGACY), cudaSuccess);
    assert_int_equal(cudaFree(dev), cudaSuccess);
}

/* Last: a queued kernel's fault reaches the waiting call and sticks;
 * cudaDeviceReset clears it and destroys the streams. */
static void test_fault_and_reset(void **state)
{
    (void)state;
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    launch((unsigned *)(uintptr_t)0x10, 1, 1, s);
    assert_int_equal(cudaStreamSynchronize(s), cudaErrorIllegalAddress);
    assert_int_equal(cudaStreamQuery(s), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    unsigned *dev, h[N];
    assert_int_equal(cudaMalloc((void **)&dev, sizeof h), cudaSuccess);
    for (unsigned i = 0; i < N; i++)
        h[i] = i;
    assert_int_equal(cudaMemcpy(dev, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    launch(dev, 9, 1, NULL);
    assert_int_equal(cudaMemcpy(h, dev, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(h[i], ref(i, 9, 1));
    assert_int_equal(cudaFree(dev), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_streams),
        cmocka_unit_test(test_overlap_in_simulated_time),
        cmocka_unit_test(test_host_function_and_per_thread_stream),
        cmocka_unit_test(test_fault_and_reset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
