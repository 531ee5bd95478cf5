// tests/cuda/mallocasync.cu — stream-ordered allocation as the public
// samples use it (streamOrderedAllocation): cudaMallocAsync / cudaFreeAsync
// in a loop on the default pool with a release threshold, a pool of its own
// (cudaMemPoolCreate, cudaMallocFromPoolAsync), the usage counters,
// cudaMemPoolTrimTo, two streams, and the documented error codes.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

static uint64_t attr(cudaMemPool_t p, cudaMemPoolAttr a)
{
    uint64_t v = 0;
    CHECK(cudaMemPoolGetAttribute(p, a, &v));
    return v;
}

int main()
{
    int dev = 0, pools = 0;
    CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
    REQUIRE(pools == 1);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    REQUIRE(prop.memoryPoolsSupported == 1);

    const int n = 1 << 14;
    const size_t bytes = n * sizeof(float);
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    cudaMemPool_t pool, current;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    CHECK(cudaDeviceGetMemPool(&current, dev));
    REQUIRE(pool == current);
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    REQUIRE(attr(pool, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX);

    for (int it = 0; it < 10; it++) {
        float *da, *db, *dc;
        CHECK(cudaMallocAsync(&da, bytes, s));
        CHECK(cudaMallocAsync(&db, bytes, s));
        CHECK(cudaMallocAsync(&dc, bytes, s));
        CHECK(cudaMemcpyAsync(da, a.data(), bytes, cudaMemcpyHostToDevice, s));
        CHECK(cudaMemcpyAsync(db, b.data(), bytes, cudaMemcpyHostToDevice, s));
        vadd<<<(n + 255) / 256, 256, 0, s>>>(da, db, dc, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(c.data(), dc, bytes, cudaMemcpyDeviceToHost, s));
        CHECK(cudaFreeAsync(da, s));
        CHECK(cudaFreeAsync(db, s));
        CHECK(cudaFreeAsync(dc, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < n; i++)
            REQUIRE(c[i] == a[i] + b[i] + 0.0f * it);
        a[it] += 1.0f;
    }
    // with the threshold at UINT64_MAX the pool keeps its memory: the loop
    // reused three blocks rather than reserving thirty
    uint64_t reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
    REQUIRE(reserved >= 3 * bytes && reserved < 6 * bytes);
    REQUIRE(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
    REQUIRE(attr(pool, cudaMemPoolAttrUsedMemHigh) >= 3 * bytes);
    REQUIRE(attr(pool, cudaMemPoolAttrReservedMemHigh) >= reserved);
    CHECK(cudaMemPoolTrimTo(pool, 0));
    REQUIRE(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
    uint64_t zero = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    REQUIRE(attr(pool, cudaMemPoolAttrUsedMemHigh) == 0);

    // release threshold 0: memory goes back at the next synchronisation
    threshold = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    float *t;
    CHECK(cudaMallocAsync(&t, bytes, s));
    REQUIRE(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= bytes);
    CHECK(cudaFreeAsync(t, s));
    CHECK(cudaStreamSynchronize(s));
    REQUIRE(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0);

    // a pool of its own, on two streams, with cudaMallocFromPoolAsync
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    cudaStream_t s2;
    CHECK(cudaStreamCreate(&s2));
    float *x, *y;
    CHECK(cudaMallocFromPoolAsync((void **)&x, bytes, mine, s));
    CHECK(cudaMallocFromPoolAsync((void **)&y, bytes, mine, s2));
    REQUIRE(x != y);
    CHECK(cudaMemsetAsync(x, 0, bytes, s));
    CHECK(cudaMemcpyAsync(y, b.data(), bytes, cudaMemcpyHostToDevice, s2));
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaEventRecord(ev, s2));
    CHECK(cudaStreamWaitEvent(s, ev, 0));
    vadd<<<(n + 255) / 256, 256, 0, s>>>(x, y, x, n);
    CHECK(cudaMemcpyAsync(c.data(), x, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(y, s));
    CHECK(cudaFreeAsync(x, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        REQUIRE(c[i] == b[i]);
    // the current pool can be changed and used by cudaMallocAsync
    CHECK(cudaDeviceSetMemPool(dev, mine));
    CHECK(cudaMallocAsync(&t, 100, s2));
    REQUIRE(attr(mine, cudaMemPoolAttrUsedMemCurrent) >= 100);
    CHECK(cudaFree(t)); // cudaFree takes pool memory too (it synchronises)
    REQUIRE(attr(mine, cudaMemPoolAttrUsedMemCurrent) == 0);
    CHECK(cudaMemPoolDestroy(mine));
    CHECK(cudaDeviceGetMemPool(&current, dev));
    REQUIRE(current == pool); // back to the default pool

    // misuse
    EXPECT_ERR(cudaMallocAsync(nullptr, 16, s), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMallocAsync(&t, 0, s), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFreeAsync(nullptr, s), cudaErrorInvalidValue);
    int local;
    EXPECT_ERR(cudaFreeAsync(&local, s), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemPoolDestroy(pool), cudaErrorInvalidValue); // the default pool
    EXPECT_ERR(cudaDeviceGetDefaultMemPool(&current, 7), cudaErrorInvalidDevice);
    uint64_t v = 5;
    EXPECT_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v),
               cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &v),
               cudaErrorInvalidValue);
    props.allocType = cudaMemAllocationTypeInvalid;
    EXPECT_ERR(cudaMemPoolCreate(&mine, &props), cudaErrorInvalidValue);
    // an allocation larger than the device
    size_t total = 0, free_bytes = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total));
    EXPECT_ERR(cudaMallocAsync(&t, total + 1, s), cudaErrorMemoryAllocation);
    (void)cudaGetLastError();

    CHECK(cudaEventDestroy(ev));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaDeviceSynchronize());
    std::printf("PASS mallocasync\n");
    return 0;
}
