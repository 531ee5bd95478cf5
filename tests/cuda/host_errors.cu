// tests/cuda/host_errors.cu — host-memory calls with sizes no machine has
// and registrations that do not exist: each returns the code the CUDA
// Runtime API reference documents (cudaMallocHost / cudaHostAlloc /
// cudaMallocManaged / cudaMallocPitch / cudaMalloc3D: cudaErrorMemoryAllocation;
// cudaHostUnregister: cudaErrorHostMemoryNotRegistered; cudaHostRegister of
// a registered range: cudaErrorHostMemoryAlreadyRegistered), and the program
// keeps running after each: a kernel still runs and its result is checked.
#include "check.h"

#include <cstdint>

__global__ void twice(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= 2;
}

// A kernel round trip through pinned memory: the runtime still works.
static void still_works(const char *after)
{
    const int n = 64;
    int *h = nullptr, *d = nullptr;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        h[i] = i;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    twice<<<2, 32>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != 2 * i) {
            std::fprintf(stderr, "FAIL after %s: h[%d] = %d\n", after, i, h[i]);
            std::exit(1);
        }
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    std::printf("ok   %s\n", after);
}

int main()
{
    const size_t tb = (size_t)1 << 40;
    void *p = nullptr;

    EXPECT_ERR(cudaMallocHost(&p, tb), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaGetLastError(), cudaErrorMemoryAllocation);
    still_works("cudaMallocHost(1 TB)");

    EXPECT_ERR(cudaHostAlloc(&p, tb, cudaHostAllocDefault), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaHostAlloc(&p, SIZE_MAX, cudaHostAllocPortable), cudaErrorMemoryAllocation);
    (void)cudaGetLastError();
    still_works("cudaHostAlloc(1 TB and SIZE_MAX)");

    EXPECT_ERR(cudaMallocManaged(&p, SIZE_MAX), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaMallocManaged(&p, tb), cudaErrorMemoryAllocation);
    (void)cudaGetLastError();
    still_works("cudaMallocManaged(SIZE_MAX and 1 TB)");

    size_t pitch = 0;
    EXPECT_ERR(cudaMallocPitch(&p, &pitch, SIZE_MAX / 2, 4), cudaErrorMemoryAllocation);
    cudaPitchedPtr pp;
    EXPECT_ERR(cudaMalloc3D(&pp, make_cudaExtent(1024, (size_t)1 << 40, (size_t)1 << 40)),
               cudaErrorMemoryAllocation);
    (void)cudaGetLastError();
    still_works("cudaMallocPitch / cudaMalloc3D sizes beyond 64 bits");

    static char buf[4096];
    EXPECT_ERR(cudaHostUnregister(buf), cudaErrorHostMemoryNotRegistered);
    EXPECT_ERR(cudaGetLastError(), cudaErrorHostMemoryNotRegistered);
    CHECK(cudaHostRegister(buf, sizeof buf, cudaHostRegisterDefault));
    EXPECT_ERR(cudaHostRegister(buf + 64, 64, cudaHostRegisterDefault),
               cudaErrorHostMemoryAlreadyRegistered);
    EXPECT_ERR(cudaHostUnregister(buf + 64), cudaErrorHostMemoryNotRegistered);
    CHECK(cudaHostUnregister(buf));
    EXPECT_ERR(cudaHostUnregister(buf), cudaErrorHostMemoryNotRegistered);
    (void)cudaGetLastError();
    still_works("cudaHostRegister / cudaHostUnregister errors");

    std::printf("PASS host_errors\n");
    return 0;
}
