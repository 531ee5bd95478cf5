// tests/cuda/rdc.cu — a program built with -rdc=true (relocatable device
// code): nvcc registers it through __cudaRegisterLinkedBinary_* and the
// device-linked fatbinary, whose PTX sits in the translation unit's own
// relocatable fatbinary.  A kernel, a __device__ function with external
// linkage and a __device__ variable set with cudaMemcpyToSymbol; the
// results checked against the CPU.
#include "check.h"

#include <vector>

__device__ int offset;

__device__ __noinline__ int scaled(int x) { return 3 * x + offset; }

__global__ void apply(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = scaled(i);
}

int main()
{
    const int n = 300, off = 11;
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpyToSymbol(offset, &off, sizeof off));
    apply<<<(n + 127) / 128, 128>>>(d, n);
    CHECK(cudaGetLastError());
    std::vector<int> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        REQUIRE(h[i] == 3 * i + off);
    CHECK(cudaFree(d));
    std::printf("PASS rdc\n");
    return 0;
}
