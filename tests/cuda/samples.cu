// tests/cuda/samples.cu — what public samples do around their kernels:
// bracket the work with cudaProfilerStart/Stop, create streams with the
// priorities cudaDeviceGetStreamPriorityRange reports, run host functions
// in stream order (cudaLaunchHostFunc), and time kernels with events.
// Argument "timing": the program runs on the timing model and also checks
// that event times are simulated time (a kernel with 8x the work takes
// longer).
#include "check.h"

#include <cstring>
#include <cuda_profiler_api.h>

__global__ void work(float *a, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        for (int r = 0; r < rounds; r++)
            x = x * 0.5f + 1.0f;
        a[i] = x;
    }
}

__global__ void add(int *a, const int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += b[i];
}

struct host_step {
    const int *seen;  // pinned buffer the stream copied the kernel's result into
    int *next;        // pinned buffer the host function fills for the next copy
    int n;
    int calls;
    bool saw_result;
};

static void CUDART_CB host_fn(void *p)
{
    host_step *s = (host_step *)p;
    bool ok = true;
    for (int i = 0; i < s->n; i++)
        ok = ok && s->seen[i] == 3 * i;
    s->saw_result = ok;
    for (int i = 0; i < s->n; i++)
        s->next[i] = 100;
    s->calls++;
}

static float time_work(float *d, int n, int rounds, cudaStream_t s)
{
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s));
    work<<<(n + 127) / 128, 128, 0, s>>>(d, n, rounds);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, s));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms;
}

int main(int argc, char **argv)
{
    bool timing = argc > 1 && std::strcmp(argv[1], "timing") == 0;
    CHECK(cudaProfilerStart());

    // stream priorities, as the simplePriorities-style samples ask for them
    int least = 7, greatest = 7;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    REQUIRE(least >= greatest);
    int supported = -1;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrStreamPrioritiesSupported, 0));
    REQUIRE(supported == (least != greatest));
    cudaStream_t hi, lo;
    CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
    CHECK(cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, least));
    int p = 99;
    CHECK(cudaStreamGetPriority(hi, &p));
    REQUIRE(p == greatest);
    CHECK(cudaStreamGetPriority(lo, &p));
    REQUIRE(p == least);
    cudaStream_t clamped;  // out of range: clamped into it, as CUDA does
    CHECK(cudaStreamCreateWithPriority(&clamped, 0, greatest - 5));
    CHECK(cudaStreamGetPriority(clamped, &p));
    REQUIRE(p >= greatest && p <= least);
    CHECK(cudaStreamDestroy(clamped));

    // a host function between two pieces of stream work sees the first and
    // feeds the second
    const int n = 512;
    int *a, *b, *seen, *next;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMallocHost(&seen, n * sizeof(int)));
    CHECK(cudaMallocHost(&next, n * sizeof(int)));
    int h[n];
    for (int i = 0; i < n; i++)
        h[i] = i;
    CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice));
    host_step step = {seen, next, n, 0, false};
    add<<<(n + 127) / 128, 128, 0, hi>>>(a, b, n);         // a = 2i
    add<<<(n + 127) / 128, 128, 0, hi>>>(a, b, n);         // a = 3i
    CHECK(cudaMemcpyAsync(seen, a, n * sizeof(int), cudaMemcpyDeviceToHost, hi));
    CHECK(cudaLaunchHostFunc(hi, host_fn, &step));
    CHECK(cudaMemcpyAsync(b, next, n * sizeof(int), cudaMemcpyHostToDevice, hi));
    add<<<(n + 127) / 128, 128, 0, hi>>>(a, b, n);         // a = 3i + 100
    CHECK(cudaStreamSynchronize(hi));
    REQUIRE(step.calls == 1 && step.saw_result);
    CHECK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        REQUIRE(h[i] == 3 * i + 100);
    EXPECT_ERR(cudaLaunchHostFunc(hi, nullptr, nullptr), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    // events time kernels
    const int m = 4096;
    float *d;
    CHECK(cudaMalloc(&d, m * sizeof(float)));
    CHECK(cudaMemset(d, 0, m * sizeof(float)));
    float t1 = time_work(d, m, 16, lo);
    float t8 = time_work(d, m, 128, lo);
    std::printf("event times: %.6f ms (16 rounds), %.6f ms (128 rounds)\n", t1, t8);
    REQUIRE(t1 >= 0.0f && t8 >= 0.0f);
    if (timing) {
        // simulated time: more work takes longer (the first launch also
        // warms the caches, so a repeat is not exactly as long)
        REQUIRE(t1 > 0.0f && t8 > 2.0f * t1);
        float again = time_work(d, m, 16, lo);
        REQUIRE(again > 0.0f && 2.0f * again < t8);
    }
    CHECK(cudaFree(d));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFreeHost(seen));
    CHECK(cudaFreeHost(next));
    CHECK(cudaStreamDestroy(hi));
    CHECK(cudaStreamDestroy(lo));
    CHECK(cudaProfilerStop());
    std::printf("PASS samples%s\n", timing ? " (timing)" : "");
    return 0;
}
