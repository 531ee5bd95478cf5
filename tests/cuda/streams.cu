// tests/cuda/streams.cu — streams and events: async copies and launches on
// two streams, cudaStreamWaitEvent across streams, the legacy default
// stream's implicit synchronisation, cudaStreamNonBlocking, the per-thread
// default stream, event queries and elapsed times, host functions in
// streams, and the documented error codes; every result checked against a
// CPU computation.
// With the argument "overlap" it also times the same two independent
// kernels run in one stream and then in two streams, prints both simulated
// times, and (under PTXEMU_MODE=timing) requires the two-stream run to be
// faster.  Usage: streams [overlap]
// The same source built with --default-stream per-thread (the _ptsz/_ptds
// entry points) must pass too: it names the legacy stream explicitly where
// it relies on the legacy stream's synchronisation.
#include "check.h"

#include <cstring>
#include <vector>

// A chain of dependent integer steps per thread: `iters` sets the work.
__global__ void churn(unsigned *out, const unsigned *in, unsigned n, unsigned iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in ? in[i] : i;
    for (unsigned k = 0; k < iters; k++)
        x = x * 1664525u + 1013904223u;
    out[i] = x;
}

static unsigned churn_ref(unsigned x, unsigned iters)
{
    for (unsigned k = 0; k < iters; k++)
        x = x * 1664525u + 1013904223u;
    return x;
}

// Host functions in streams: each sees its stream's earlier work done.
static void host_fn(void *p)
{
    unsigned *h = static_cast<unsigned *>(p);
    h[1] = h[0] == churn_ref(3, 2) ? 1u : 2u; // the copy before it is done
}

static void callback(cudaStream_t, cudaError_t status, void *p)
{
    static_cast<unsigned *>(p)[2] = status == cudaSuccess ? 1u : 3u;
}

static void host_functions()
{
    cudaStream_t s;
    unsigned *d, *h;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc(&d, 4 * sizeof(unsigned)));
    CHECK(cudaMallocHost(&h, 4 * sizeof(unsigned)));
    h[0] = 3;
    h[1] = h[2] = 0;
    CHECK(cudaMemcpyAsync(d, h, sizeof(unsigned), cudaMemcpyHostToDevice, s));
    churn<<<1, 1, 0, s>>>(d, d, 1, 2);
    CHECK(cudaMemcpyAsync(h, d, sizeof(unsigned), cudaMemcpyDeviceToHost, s));
    CHECK(cudaLaunchHostFunc(s, host_fn, h));
    CHECK(cudaStreamAddCallback(s, callback, h, 0));
    CHECK(cudaStreamSynchronize(s));
    REQUIRE(h[0] == churn_ref(3, 2) && h[1] == 1 && h[2] == 1);
    EXPECT_ERR(cudaStreamAddCallback(s, callback, h, 1), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
}

// Two streams, each: copy in, churn, copy out (pinned host memory).
static void two_streams()
{
    const unsigned n = 1000, iters = 7;
    cudaStream_t s[2];
    unsigned *h_in[2], *h_out[2], *d_in[2], *d_out[2];
    for (int j = 0; j < 2; j++) {
        CHECK(cudaStreamCreate(&s[j]));
        CHECK(cudaMallocHost(&h_in[j], n * sizeof(unsigned)));
        CHECK(cudaMallocHost(&h_out[j], n * sizeof(unsigned)));
        CHECK(cudaMalloc(&d_in[j], n * sizeof(unsigned)));
        CHECK(cudaMalloc(&d_out[j], n * sizeof(unsigned)));
        for (unsigned i = 0; i < n; i++)
            h_in[j][i] = i * 7u + (unsigned)j * 100000u;
    }
    for (int j = 0; j < 2; j++) {
        CHECK(cudaMemcpyAsync(d_in[j], h_in[j], n * sizeof(unsigned), cudaMemcpyHostToDevice, s[j]));
        CHECK(cudaMemsetAsync(d_out[j], 0xff, n * sizeof(unsigned), s[j]));
        churn<<<(n + 127) / 128, 128, 0, s[j]>>>(d_out[j], d_in[j], n, iters);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_out[j], d_out[j], n * sizeof(unsigned), cudaMemcpyDeviceToHost, s[j]));
    }
    for (int j = 0; j < 2; j++) {
        CHECK(cudaStreamSynchronize(s[j]));
        CHECK(cudaStreamQuery(s[j]));
        for (unsigned i = 0; i < n; i++)
            REQUIRE(h_out[j][i] == churn_ref(h_in[j][i], iters));
        CHECK(cudaFreeHost(h_in[j]));
        CHECK(cudaFreeHost(h_out[j]));
        CHECK(cudaFree(d_in[j]));
        CHECK(cudaFree(d_out[j]));
        CHECK(cudaStreamDestroy(s[j]));
    }
}

// Stream b's kernel reads what stream a's kernel wrote, ordered by an event;
// a default-stream kernel then reads b's output (legacy implicit sync), and
// a non-blocking stream orders itself with an event as well.
static void cross_stream_order()
{
    const unsigned n = 512;
    cudaStream_t a, b, nb;
    cudaEvent_t done_a, done_def;
    unsigned *x, *y, *z, *w;
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreate(&b));
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    unsigned flags = 99;
    CHECK(cudaStreamGetFlags(nb, &flags));
    REQUIRE(flags == cudaStreamNonBlocking);
    CHECK(cudaStreamGetFlags(a, &flags));
    REQUIRE(flags == cudaStreamDefault);
    CHECK(cudaEventCreate(&done_a));
    CHECK(cudaEventCreateWithFlags(&done_def, cudaEventDisableTiming));
    CHECK(cudaMalloc(&x, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&y, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&z, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&w, n * sizeof(unsigned)));
    churn<<<n / 128, 128, 0, a>>>(x, nullptr, n, 3);
    CHECK(cudaEventRecord(done_a, a));
    CHECK(cudaStreamWaitEvent(b, done_a, 0));
    churn<<<n / 128, 128, 0, b>>>(y, x, n, 2);
    churn<<<n / 128, 128, 0, cudaStreamLegacy>>>(z, y, n, 1); // after b (legacy sync)
    CHECK(cudaEventRecord(done_def, cudaStreamLegacy));
    CHECK(cudaStreamWaitEvent(nb, done_def, 0));
    churn<<<n / 128, 128, 0, nb>>>(w, z, n, 4);
    std::vector<unsigned> got(n);
    CHECK(cudaStreamSynchronize(nb));
    CHECK(cudaMemcpy(got.data(), w, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
        REQUIRE(got[i] == churn_ref(churn_ref(churn_ref(churn_ref(i, 3), 2), 1), 4));
    // the per-thread default stream is an ordinary stream of this thread
    churn<<<n / 128, 128, 0, cudaStreamPerThread>>>(x, nullptr, n, 5);
    CHECK(cudaMemcpyAsync(got.data(), x, n * sizeof(unsigned), cudaMemcpyDeviceToHost,
                          cudaStreamPerThread));
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    for (unsigned i = 0; i < n; i++)
        REQUIRE(got[i] == churn_ref(i, 5));
    // stream 0: the legacy stream, or with --default-stream per-thread this
    // thread's stream; in order either way
    churn<<<n / 128, 128>>>(y, x, n, 6);
    CHECK(cudaMemcpyAsync(got.data(), y, n * sizeof(unsigned), cudaMemcpyDeviceToHost, 0));
    CHECK(cudaStreamSynchronize(0));
    for (unsigned i = 0; i < n; i++)
        REQUIRE(got[i] == churn_ref(churn_ref(i, 5), 6));
    // error codes (CUDA runtime API reference, cudaEventElapsedTime)
    float ms = -1.0f;
    EXPECT_ERR(cudaEventElapsedTime(&ms, done_a, done_def), cudaErrorInvalidResourceHandle);
    cudaEvent_t never;
    CHECK(cudaEventCreate(&never));
    CHECK(cudaEventQuery(never)); // never recorded: complete
    CHECK(cudaEventSynchronize(never));
    EXPECT_ERR(cudaEventElapsedTime(&ms, done_a, never), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventElapsedTime(nullptr, done_a, done_a), cudaErrorInvalidValue);
    CHECK(cudaEventElapsedTime(&ms, done_a, done_a));
    REQUIRE(ms == 0.0f);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue); // the last error, then reset
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(never));
    CHECK(cudaEventDestroy(done_a));
    CHECK(cudaEventDestroy(done_def));
    for (unsigned *p : {x, y, z, w})
        CHECK(cudaFree(p));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaStreamDestroy(nb));
    CHECK(cudaGetLastError());
}

// The same two kernels, one stream and then two: simulated milliseconds.
static void overlap()
{
    const unsigned n = 256, iters = 400;
    cudaStream_t s1, s2;
    cudaEvent_t e[4];
    unsigned *a, *b;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    for (auto &ev : e)
        CHECK(cudaEventCreate(&ev));
    CHECK(cudaMalloc(&a, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&b, n * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e[0], s1));
    churn<<<n / 128, 128, 0, s1>>>(a, nullptr, n, iters);
    churn<<<n / 128, 128, 0, s1>>>(b, nullptr, n, iters);
    CHECK(cudaEventRecord(e[1], s1));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e[2], cudaStreamLegacy));
    churn<<<n / 128, 128, 0, s1>>>(a, nullptr, n, iters);
    churn<<<n / 128, 128, 0, s2>>>(b, nullptr, n, iters);
    CHECK(cudaEventRecord(e[3], cudaStreamLegacy)); // waits for both
    CHECK(cudaEventSynchronize(e[3]));
    float one = 0, two = 0;
    CHECK(cudaEventElapsedTime(&one, e[0], e[1]));
    CHECK(cudaEventElapsedTime(&two, e[2], e[3]));
    std::vector<unsigned> got(n);
    CHECK(cudaMemcpy(got.data(), b, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
        REQUIRE(got[i] == churn_ref(i, iters));
    std::printf("overlap: one stream %.6f ms, two streams %.6f ms\n", one, two);
    const char *mode = std::getenv("PTXEMU_MODE");
    if (mode && !std::strcmp(mode, "timing"))
        REQUIRE(two > 0.0f && two < 0.75f * one);
    for (auto &ev : e)
        CHECK(cudaEventDestroy(ev));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
}

int main(int argc, char **argv)
{
    two_streams();
    cross_stream_order();
    host_functions();
    if (argc > 1 && !std::strcmp(argv[1], "overlap"))
        overlap();
    std::printf("PASS streams\n");
    return 0;
}
