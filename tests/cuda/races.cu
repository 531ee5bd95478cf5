// tests/cuda/races.cu — `ptxemu exec --race-check`: thread 0 of every block
// does *p += 1 (a race between blocks, reported with both instructions),
// the same with atomicAdd (none), and a hand-off between two warps of one
// block across __syncthreads (none).
#include "check.h"

__global__ void plain_inc(unsigned *p)
{
    if (threadIdx.x == 0)
        *p += 1;
}

__global__ void atomic_inc(unsigned *p)
{
    if (threadIdx.x == 0)
        atomicAdd(p, 1u);
}

__global__ void handoff(unsigned *p)
{
    if (threadIdx.x == 0)
        p[0] = 7;
    __syncthreads();
    if (threadIdx.x == 32)
        p[1] = p[0];
}

int main()
{
    unsigned *d, h[2];
    CHECK(cudaMalloc(&d, 8));
    CHECK(cudaMemset(d, 0, 8));
    plain_inc<<<4, 32>>>(d);
    atomic_inc<<<4, 32>>>(d);
    handoff<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost));
    REQUIRE(h[0] == 7 && h[1] == 7);
    CHECK(cudaFree(d));
    std::printf("PASS races\n");
    return 0;
}
