// tests/cuda/cdp.cu — a device-side launch (CUDA dynamic parallelism,
// built with -rdc=true; docs/cdp.md).  The child's writes are checked
// against the CPU and it prints "PASS cdp".  (A runtime without device
// launches returns cudaErrorNotSupported: it prints "CDP not supported",
// which the test counts as a failure.)
#include "check.h"

__global__ void child(int *p, int base)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = base + (int)(blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void parent(int *p)
{
    if (threadIdx.x == 0)
        child<<<2, 32>>>(p + 64 * blockIdx.x, 1000 * (int)blockIdx.x);
}

int main()
{
    int *d;
    CHECK(cudaMalloc(&d, 4 * 64 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 4 * 64 * sizeof(int)));
    parent<<<4, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    if (e == cudaErrorNotSupported) {
        std::printf("CDP not supported\n");
        return 0;
    }
    CHECK(e);
    CHECK(cudaDeviceSynchronize());
    int h[4 * 64];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < 64; i++)
            REQUIRE(h[64 * b + i] == 1000 * b + i);
    std::printf("PASS cdp\n");
    return 0;
}
