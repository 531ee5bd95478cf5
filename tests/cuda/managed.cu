// tests/cuda/managed.cu — managed memory: cudaMallocManaged data written
// on the host, changed by kernels, read back on the host without copies; a
// __managed__ variable read and written on both sides; copies and memsets
// on managed pointers; pointer attributes; the documented errors.
#include "check.h"

__managed__ int total = 5;

__global__ void bump(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = a[i] * 2 + 1;
        atomicAdd(&total, a[i]);
    }
}

int main()
{
    const int n = 300;
    int *a = nullptr;
    CHECK(cudaMallocManaged(&a, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        a[i] = i;
    REQUIRE(total == 5);
    total = 100;
    bump<<<(n + 127) / 128, 128>>>(a, n);
    CHECK(cudaDeviceSynchronize());
    int want = 100;
    for (int i = 0; i < n; i++) {
        REQUIRE(a[i] == 2 * i + 1);
        want += 2 * i + 1;
    }
    REQUIRE(total == want);
    // a second launch sees the host's changes
    a[0] = 1000;
    total = 0;
    bump<<<(n + 127) / 128, 128>>>(a, n);
    CHECK(cudaDeviceSynchronize());
    REQUIRE(a[0] == 2001 && a[1] == 7);
    // copies and memsets treat managed memory like any other
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, a, n * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemset(a, 0, n * sizeof(int)));
    REQUIRE(a[5] == 0);
    CHECK(cudaMemcpy(a, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    REQUIRE(a[0] == 2001 && a[1] == 7);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, a + 3));
    REQUIRE(attr.type == cudaMemoryTypeManaged);
    cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    CHECK(cudaMemPrefetchAsync(a, n * sizeof(int), loc, 0, 0));
    EXPECT_ERR(cudaMallocManaged(&a, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMallocManaged(&d, 16, 7), cudaErrorInvalidValue);
    CHECK(cudaFree(a));
    CHECK(cudaFree(d));
    std::printf("PASS managed\n");
    return 0;
}
