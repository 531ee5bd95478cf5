// tests/cuda/fresh_heap.cu — ptxemu's own work leaves the program's heap as
// a native run would.  Natively, a large malloc that glibc serves with a
// fresh mmap reads as zeros (PolyBench programs that copy never-initialised
// host arrays to the device rely on that without knowing it).  glibc raises
// its dynamic mmap threshold when a large mmapped chunk is freed, so if
// ptxemu's in-process allocations (device memory, per-launch buffers,
// staging copies) went through malloc, a cudaMalloc/cudaFree of 16 MiB
// would make the program's later 8 MiB malloc come from a heap that
// ptxemu's freed device buffers had dirtied.
//
// Natively: the 64 MiB array is above glibc's largest dynamic threshold
// (32 MiB), so freeing it moves nothing; device memory is not host memory;
// every malloc below is then above the initial 128 KiB threshold, a fresh
// mmap, all zeros.  (Run it without MALLOC_PERTURB_, which makes glibc
// fill every malloc, natively too.)
#include "check.h"

#include <cstring>

__global__ void fill(unsigned *p, size_t n, unsigned v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = v ^ (unsigned)i;
}

static bool all_zero(const unsigned char *p, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) {
            *at = i;
            return false;
        }
    return true;
}

int main()
{
    // a large host array the program fills and frees
    size_t big = 64u << 20;
    unsigned char *h = (unsigned char *)std::malloc(big);
    REQUIRE(h);
    std::memset(h, 0x5a, big);
    std::free(h);

    // a host buffer for copies, above 32 MiB (its free moves nothing either)
    size_t hb = 40u << 20;
    unsigned *host = (unsigned *)std::malloc(hb);
    REQUIRE(host);
    std::memset(host, 0x77, hb);

    // device buffers: one of 16 MiB, then four of 4 MiB, filled (by copies,
    // an asynchronous copy from pageable memory, a memset and kernels) and freed
    unsigned *d;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc(&d, 16u << 20));
    CHECK(cudaMemcpy(d, host, 16u << 20, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyAsync(d, host, 16u << 20, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemsetAsync(d, 0x33, 8u << 20, s));
    fill<<<64, 256, 0, s>>>(d, (16u << 20) / 4, 0xdeadbeefu);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(host, d, 16u << 20, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    REQUIRE(host[1] == (0xdeadbeefu ^ 1u));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    unsigned *q[4];
    for (int k = 0; k < 4; k++) {
        CHECK(cudaMalloc(&q[k], 4u << 20));
        fill<<<64, 256>>>(q[k], (4u << 20) / 4, 0xc0ffee00u + (unsigned)k);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < 4; k++)
        CHECK(cudaFree(q[k]));

    // fresh large host arrays read as zeros, as natively
    const size_t sizes[] = {8u << 20, 1u << 20, 256u << 10, 64u << 20};
    unsigned char *keep[4];
    for (int k = 0; k < 4; k++) {
        keep[k] = (unsigned char *)std::malloc(sizes[k]);
        REQUIRE(keep[k]);
        size_t at = 0;
        if (!all_zero(keep[k], sizes[k], &at)) {
            std::fprintf(stderr, "FAIL fresh_heap: a fresh malloc(%zu) has byte %zu = 0x%02x, "
                         "not 0 (a native run's fresh mmap reads as zeros)\n",
                         sizes[k], at, keep[k][at]);
            return 1;
        }
    }
    for (int k = 0; k < 4; k++)
        std::free(keep[k]);
    std::free(host);
    std::printf("PASS fresh_heap\n");
    return 0;
}
