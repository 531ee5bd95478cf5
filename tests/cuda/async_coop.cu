// tests/cuda/async_coop.cu — through the drop-in libcudart: a cooperative
// launch whose kernel syncs the whole grid (cooperative_groups grid.sync),
// a grid too large to be co-resident (cudaErrorCooperativeLaunchTooLarge),
// the device heap sized with cudaDeviceSetLimit(cudaLimitMallocHeapSize)
// and read back with cudaDeviceGetLimit, malloc returning NULL beyond it,
// and a cuda_pipeline double buffer; each result against a CPU model.
#include "check.h"

#include <cooperative_groups.h>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

// Two phases separated by grid.sync(): phase 1 writes a[i] = i, phase 2
// reads the element another block wrote: b[i] = a[(i + 97) % n] * 2.
__global__ void two_phase(int *a, int *b, int n)
{
    cg::grid_group g = cg::this_grid();
    for (int i = g.thread_rank(); i < n; i += g.size())
        a[i] = i;
    g.sync();
    for (int i = g.thread_rank(); i < n; i += g.size())
        b[i] = a[(i + 97) % n] * 2;
}

__global__ void heap(int bytes, int *ok)
{
    char *p = (char *)malloc(bytes);
    ok[threadIdx.x] = p != nullptr;
    if (p) {
        p[bytes - 1] = 1;
        free(p);
    }
}

#define TILE 32
__global__ void pipe(const float *in, float *out, int ntiles)
{
    __shared__ float buf[2][TILE];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&buf[0][i], &in[i], sizeof(float));
    __pipeline_commit();
    for (int t = 0; t < ntiles; t++) {
        if (t + 1 < ntiles)
            __pipeline_memcpy_async(&buf[(t + 1) & 1][i], &in[(t + 1) * TILE + i], sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        out[t * TILE + i] = buf[t & 1][TILE - 1 - i] + 0.5f;
        __syncthreads();
    }
}

int main()
{
    const int n = 5000;
    int *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    int nn = n;
    void *args[] = {&a, &b, &nn};
    CHECK(cudaLaunchCooperativeKernel((void *)two_phase, dim3(8), dim3(128), args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    int *hb = new int[n];
    CHECK(cudaMemcpy(hb, b, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        REQUIRE(hb[i] == ((i + 97) % n) * 2);
    EXPECT_ERR(cudaLaunchCooperativeKernel((void *)two_phase, dim3(100000), dim3(128), args, 0, 0),
               cudaErrorCooperativeLaunchTooLarge);

    size_t heap_bytes = 0;
    CHECK(cudaDeviceGetLimit(&heap_bytes, cudaLimitMallocHeapSize));
    REQUIRE(heap_bytes == 8u << 20);
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
    CHECK(cudaDeviceGetLimit(&heap_bytes, cudaLimitMallocHeapSize));
    REQUIRE(heap_bytes == 1u << 20);
    int *ok;
    CHECK(cudaMalloc(&ok, 8 * sizeof(int)));
    heap<<<1, 8>>>(300 * 1024, ok); // 1 MiB holds three 300 KiB blocks
    CHECK(cudaDeviceSynchronize());
    int hok[8];
    CHECK(cudaMemcpy(hok, ok, sizeof hok, cudaMemcpyDeviceToHost));
    int got = 0;
    for (int i = 0; i < 8; i++)
        got += hok[i];
    REQUIRE(got == 3);
    // the heap cannot change once a kernel used it
    EXPECT_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20), cudaErrorInvalidValue);

    const int nt = 6;
    float hin[nt * TILE], hout[nt * TILE], *din, *dout;
    for (int i = 0; i < nt * TILE; i++)
        hin[i] = i * 0.25f;
    CHECK(cudaMalloc(&din, sizeof hin));
    CHECK(cudaMalloc(&dout, sizeof hout));
    CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    pipe<<<1, TILE>>>(din, dout, nt);
    CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < TILE; i++)
            REQUIRE(hout[t * TILE + i] == hin[t * TILE + TILE - 1 - i] + 0.5f);
    std::printf("PASS async_coop\n");
    return 0;
}
