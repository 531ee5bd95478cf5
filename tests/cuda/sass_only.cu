// tests/cuda/sass_only.cu — built with machine code only (no PTX): the
// launch fails with cudaErrorNoKernelImageForDevice, as CUDA reports a
// binary without an image for the device, and the runtime has said why.
#include "check.h"

__global__ void one(int *p) { *p = 1; }

int main()
{
    int *d;
    CHECK(cudaMalloc(&d, sizeof(int)));
    one<<<1, 1>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    std::printf("PASS sass_only\n");
    return 0;
}
