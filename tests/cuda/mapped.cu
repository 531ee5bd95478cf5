// tests/cuda/mapped.cu — zero-copy host memory as the simpleZeroCopy-style
// samples use it: check canMapHostMemory, set cudaDeviceMapHost, allocate
// with cudaHostAlloc(cudaHostAllocMapped), get the device pointers with
// cudaHostGetDevicePointer (and cudaHostRegister(cudaHostRegisterMapped)
// for the program's own memory) and run kernels on them; the host sees the
// kernel's writes after it finishes and the next kernel sees the host's.
#include "check.h"

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void scale(float *c, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] *= f;
}

int main()
{
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    REQUIRE(p.canMapHostMemory == 1);
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));

    const int n = 1000;
    float *a, *b, *c;
    CHECK(cudaHostAlloc(&a, n * sizeof(float), cudaHostAllocMapped));
    CHECK(cudaHostAlloc(&b, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable));
    CHECK(cudaHostAlloc(&c, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocWriteCombined));
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i;
        c[i] = -1.0f;
    }
    float *da, *db, *dc;
    CHECK(cudaHostGetDevicePointer(&da, a, 0));
    CHECK(cudaHostGetDevicePointer(&db, b, 0));
    CHECK(cudaHostGetDevicePointer(&dc, c, 0));
    float *mid;
    CHECK(cudaHostGetDevicePointer(&mid, c + 10, 0)); // inside the block
    REQUIRE(mid == dc + 10);
    EXPECT_ERR(cudaHostGetDevicePointer(&mid, c, 1), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    vadd<<<(n + 127) / 128, 128>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        REQUIRE(c[i] == 3.0f * (float)i);
    // the host's writes reach the next kernel
    for (int i = 0; i < n; i++)
        c[i] = (float)(i % 7);
    scale<<<(n + 127) / 128, 128>>>(dc, n, 4.0f);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        REQUIRE(c[i] == 4.0f * (float)(i % 7));
    // copies to and from it, with the device pointer
    float h[n];
    CHECK(cudaMemcpy(h, dc, sizeof h, cudaMemcpyDefault));
    REQUIRE(h[5] == 20.0f);
    float *dev;
    CHECK(cudaMalloc(&dev, sizeof h));
    CHECK(cudaMemcpy(dev, da, sizeof h, cudaMemcpyDefault));
    CHECK(cudaMemcpy(h, dev, sizeof h, cudaMemcpyDeviceToHost));
    REQUIRE(h[999] == 999.0f);

    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, c));
    REQUIRE(pa.type == cudaMemoryTypeHost && pa.devicePointer == dc && pa.hostPointer == c);

    // host memory that is not mapped has no device pointer here
    float *pinned;
    CHECK(cudaMallocHost(&pinned, 64));
    EXPECT_ERR(cudaHostGetDevicePointer(&mid, pinned, 0), cudaErrorNotSupported);
    (void)cudaGetLastError();
    CHECK(cudaFreeHost(pinned));
    EXPECT_ERR(cudaFree(c), cudaErrorInvalidValue); // cudaFreeHost frees it
    (void)cudaGetLastError();

    // the program's own memory registered with cudaHostRegisterMapped: its
    // device pointer is a mirror (canUseHostPointerForRegisteredMem is 0),
    // kept in step at kernel boundaries like the blocks above
    REQUIRE(p.canUseHostPointerForRegisteredMem == 0);
    float *own = (float *)std::malloc(n * sizeof(float));
    REQUIRE(own != nullptr);
    for (int i = 0; i < n; i++)
        own[i] = (float)i;
    CHECK(cudaHostRegister(own, n * sizeof(float), cudaHostRegisterMapped));
    float *down;
    CHECK(cudaHostGetDevicePointer(&down, own, 0));
    REQUIRE(down != nullptr && down != own);
    CHECK(cudaHostGetDevicePointer(&mid, own + 3, 0));
    REQUIRE(mid == down + 3);
    scale<<<(n + 127) / 128, 128>>>(down, n, 2.0f);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        REQUIRE(own[i] == 2.0f * (float)i);
    own[7] = 100.0f; // the host's write reaches the next kernel
    scale<<<(n + 127) / 128, 128>>>(down, n, 0.5f);
    CHECK(cudaDeviceSynchronize());
    REQUIRE(own[7] == 50.0f && own[8] == 8.0f);
    own[9] = -3.0f; // a copy from the device pointer sees the host copy
    CHECK(cudaMemcpy(h, down, sizeof h, cudaMemcpyDefault));
    REQUIRE(h[9] == -3.0f && h[999] == 999.0f);
    CHECK(cudaPointerGetAttributes(&pa, down + 1));
    REQUIRE(pa.type == cudaMemoryTypeHost && pa.hostPointer == own + 1 &&
            pa.devicePointer == down + 1);
    CHECK(cudaHostUnregister(own));
    EXPECT_ERR(cudaHostGetDevicePointer(&mid, own, 0), cudaErrorNotSupported);
    (void)cudaGetLastError();
    // registered without the flag: page-locked, not mapped
    CHECK(cudaHostRegister(own, 64, cudaHostRegisterDefault));
    EXPECT_ERR(cudaHostGetDevicePointer(&mid, own, 0), cudaErrorNotSupported);
    (void)cudaGetLastError();
    CHECK(cudaHostUnregister(own));
    EXPECT_ERR(cudaHostRegister(own, 64, 0x100u), cudaErrorInvalidValue); // no such flag
    (void)cudaGetLastError();
    std::free(own);

    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(a));
    CHECK(cudaFreeHost(b));
    CHECK(cudaFreeHost(c));
    EXPECT_ERR(cudaFreeHost(c), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    std::printf("PASS mapped\n");
    return 0;
}
