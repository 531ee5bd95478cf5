// tests/cuda/errors.cu — the error codes the CUDA Runtime API reference
// documents for bad pointers, bad launch configurations, bad arguments, an
// unsupported call and a kernel's illegal address (sticky), and the
// cudaGetLastError / cudaPeekAtLastError contract.
#include "check.h"

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

int main()
{
    int *d;
    int host[16] = {0};
    CHECK(cudaMalloc(&d, sizeof host));
    // a host pointer where a device pointer belongs, and the reverse
    EXPECT_ERR(cudaMemcpy(host, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(host, host, sizeof host, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    // past the end of an allocation
    EXPECT_ERR(cudaMemcpy(d, host, 2 * sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(d, host, sizeof host, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    EXPECT_ERR(cudaFree(host), cudaErrorInvalidValue);
    EXPECT_ERR(cudaSetDevice(3), cudaErrorInvalidDevice);
    void *huge = nullptr;
    EXPECT_ERR(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
    // the last error is the latest failure, peeking keeps it, getting clears it
    EXPECT_ERR(cudaPeekAtLastError(), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaGetLastError(), cudaErrorMemoryAllocation);
    CHECK(cudaGetLastError());
    // bad launch configurations: reported by the launch itself
    fill<<<1, 2048>>>(d, 16, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<0, 32>>>(d, 16, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<dim3(1, 70000), 32>>>(d, 16, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    fill<<<1, dim3(1, 1, 65)>>>(d, 16, 1);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT_ERR(cudaLaunchKernel((const void *)host, dim3(1), dim3(1), nullptr, 0, 0),
               cudaErrorInvalidDeviceFunction);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    CHECK(cudaGetLastError());
    // a good launch still works after all that
    fill<<<1, 16>>>(d, 16, 7);
    CHECK(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
    REQUIRE(host[0] == 7 && host[15] == 7);
    // events and streams that do not exist
    float ms;
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    EXPECT_ERR(cudaEventElapsedTime(&ms, e, e), cudaErrorInvalidResourceHandle);
    CHECK(cudaEventDestroy(e));
    // an unsupported call says so and returns cudaErrorNotSupported
    int peer;
    EXPECT_ERR(cudaDeviceCanAccessPeer(&peer, 0, 0), cudaErrorNotSupported);
    EXPECT_ERR(cudaGetLastError(), cudaErrorNotSupported);
    // an illegal address inside a kernel: the launch returns, the next
    // synchronising call reports cudaErrorIllegalAddress, and it sticks
    fill<<<1, 32>>>(d + (1 << 28), 32, 1);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    std::printf("PASS errors\n");
    return 0;
}
