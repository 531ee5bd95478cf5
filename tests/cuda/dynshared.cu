// tests/cuda/dynshared.cu — dynamic shared memory above 48 KiB, the way
// programs opt in (cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicShared-
// MemorySize) up to cudaDevAttrMaxSharedMemoryPerBlockOptin), the
// cudaErrorInvalidValue CUDA returns without opt-in or above the limit,
// cudaFuncGetAttributes, the carveout hint and the occupancy query.  Run
// with a config whose SM has more than 48 KiB of shared memory
// (--set core.shared_mem=228K, an H100's).
#include "check.h"

__device__ __shared__ int stat_part[64]; // 256 bytes of static shared memory

// each block fills `words` ints of dynamic shared memory, then every thread
// sums a strided part of it back into out[block]
__global__ void fill_and_sum(int *out, int words)
{
    extern __shared__ int dyn[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        dyn[i] = i + blockIdx.x;
    if (threadIdx.x < 64)
        stat_part[threadIdx.x] = 0;
    __syncthreads();
    int sum = 0;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        sum += dyn[i];
    atomicAdd(&stat_part[threadIdx.x % 64], sum);
    __syncthreads();
    if (threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < 64; i++)
            t += stat_part[i];
        out[blockIdx.x] = t;
    }
}

static bool run(int *d_out, size_t bytes, int blocks)
{
    int words = (int)(bytes / sizeof(int));
    fill_and_sum<<<blocks, 256, bytes>>>(d_out, words);
    if (cudaGetLastError() != cudaSuccess)
        return false;
    CHECK(cudaDeviceSynchronize());
    int h[8];
    CHECK(cudaMemcpy(h, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        long long want = (long long)words * (words - 1) / 2 + (long long)words * b;
        REQUIRE(h[b] == (int)want);
    }
    return true;
}

int main()
{
    int optin = 0, per_block = 0, per_sm = 0, reserved = 0;
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0));
    std::printf("shared memory: per block %d, opt-in %d, per SM %d, reserved %d\n", per_block,
                optin, per_sm, reserved);
    REQUIRE(per_block == 48 * 1024);
    REQUIRE(optin > 100 * 1024 && optin + reserved == per_sm);

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, fill_and_sum));
    REQUIRE(fa.sharedSizeBytes == 256);
    REQUIRE(fa.maxDynamicSharedSizeBytes == 48 * 1024 - 256); // without opt-in
    REQUIRE(fa.preferredShmemCarveout == -1);

    int *d_out;
    CHECK(cudaMalloc(&d_out, 8 * sizeof(int)));
    REQUIRE(run(d_out, 16 * 1024, 4));                // below the default limit
    REQUIRE(run(d_out, 48 * 1024 - 256, 2));          // exactly the default limit
    // above 48 KiB without opt-in: cudaErrorInvalidValue, as CUDA returns
    fill_and_sum<<<1, 256, 64 * 1024>>>(d_out, 16 * 1024);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);

    // opt in to the device's maximum
    int most = optin - (int)fa.sharedSizeBytes;
    EXPECT_ERR(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    most + 1), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, -1),
               cudaErrorInvalidValue);
    (void)cudaGetLastError();
    CHECK(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
    CHECK(cudaFuncGetAttributes(&fa, fill_and_sum));
    REQUIRE(fa.maxDynamicSharedSizeBytes == most);
    REQUIRE(run(d_out, 100 * 1024, 3));
    REQUIRE(run(d_out, (size_t)most / 16 * 16, 2)); // the whole opt-in maximum
    // a lower opt-in limits launches again
    CHECK(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               64 * 1024));
    REQUIRE(run(d_out, 64 * 1024, 2));
    fill_and_sum<<<1, 256, 64 * 1024 + 4>>>(d_out, 16 * 1024);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    void *args[] = {&d_out, &most};
    EXPECT_ERR(cudaLaunchKernel((const void *)fill_and_sum, dim3(1), dim3(256), args,
                                (size_t)most, 0), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    // the carveout hint
    CHECK(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    CHECK(cudaFuncGetAttributes(&fa, fill_and_sum));
    REQUIRE(fa.preferredShmemCarveout == 50);
    CHECK(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared));
    EXPECT_ERR(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    101), cudaErrorInvalidValue);
    // attributes that cannot be written, and clusters (not supported)
    EXPECT_ERR(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeClusterDimMustBeSet, 1),
               cudaErrorInvalidValue);
    EXPECT_ERR(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMax, 0), cudaErrorInvalidValue);
    CHECK(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeRequiredClusterWidth, 0));
    EXPECT_ERR(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeRequiredClusterWidth, 2),
               cudaErrorNotSupported);
    EXPECT_ERR(cudaFuncSetAttribute((const void *)main, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    1024), cudaErrorInvalidDeviceFunction);
    (void)cudaGetLastError();

    // occupancy with dynamic shared memory
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, fill_and_sum, 2, 64));
    REQUIRE(avail > 48 * 1024 && avail <= (size_t)per_sm / 2);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_and_sum, 64, avail));
    REQUIRE(blocks >= 2);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_and_sum, 64, 100 * 1024));
    REQUIRE(blocks == per_sm / (100 * 1024 + 256 + reserved));
    CHECK(cudaFree(d_out));
    std::printf("PASS dynshared: opt-in %d bytes\n", optin);
    return 0;
}
