// tests/cuda/attributes.cu — a deviceQuery-like program: queries EVERY
// value of enum cudaDeviceAttr (the list of cudart/device_attrs.def, each
// checked here against the toolkit's own header), prints the properties,
// checks that attributes and cudaDeviceProp agree, picks the device by
// attributes as public samples do (managed memory, cooperative launch,
// compute capability) and uses what it found: managed memory and a
// dynamic shared memory size read from the device.
#include "check.h"

#include <cstring>

struct attr_name {
    const char *name;
    cudaDeviceAttr value;
};

static const attr_name ATTRS[] = {
#define CUDART_DEVICE_ATTR(name, value) {#name, name},
#define CUDART_DEVICE_ATTR_END(value)
#include "cudart/device_attrs.def"
#undef CUDART_DEVICE_ATTR
#undef CUDART_DEVICE_ATTR_END
};

// the generated list has the toolkit's numbers
#define CUDART_DEVICE_ATTR(name, value) static_assert(name == value, #name);
#define CUDART_DEVICE_ATTR_END(value) static_assert(cudaDevAttrMax == value, "cudaDevAttrMax");
#include "cudart/device_attrs.def"
#undef CUDART_DEVICE_ATTR
#undef CUDART_DEVICE_ATTR_END

__global__ void scale(float *a, int n, float f)
{
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n)
        a[i] = tile[threadIdx.x] * f;
}

static int attr(cudaDeviceAttr a, int dev)
{
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
}

int main()
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    REQUIRE(count == 1);

    // every attribute answers
    const size_t n_attrs = sizeof ATTRS / sizeof ATTRS[0];
    bool known[cudaDevAttrMax] = {};
    for (size_t i = 0; i < n_attrs; i++) {
        int v = -12345;
        cudaError_t e = cudaDeviceGetAttribute(&v, ATTRS[i].value, 0);
        if (e != cudaSuccess) {
            std::fprintf(stderr, "FAIL cudaDeviceGetAttribute(%s = %d) -> %s\n", ATTRS[i].name,
                         (int)ATTRS[i].value, cudaGetErrorName(e));
            return 1;
        }
        known[ATTRS[i].value] = true;
        std::printf("  %-48s %d\n", ATTRS[i].name, v);
    }
    // values outside the enum: cudaErrorInvalidValue, as CUDA returns
    int unknown = 0;
    for (int a = 0; a < (int)cudaDevAttrMax + 2; a++)
        if (a >= (int)cudaDevAttrMax || !known[a]) {
            int v = 0;
            EXPECT_ERR(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0), cudaErrorInvalidValue);
            unknown++;
        }
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    int v;
    EXPECT_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    (void)cudaGetLastError();

    // the properties, as deviceQuery prints them, agree with the attributes
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    std::printf("Device 0: \"%s\"\n", p.name);
    std::printf("  compute capability %d.%d, %d SMs, %d threads/SM, %d blocks/SM\n", p.major,
                p.minor, p.multiProcessorCount, p.maxThreadsPerMultiProcessor,
                p.maxBlocksPerMultiProcessor);
    std::printf("  global memory %zu MiB, L2 %d KiB, bus %d bits, clock %d kHz, memory %d kHz\n",
                p.totalGlobalMem >> 20, p.l2CacheSize >> 10, p.memoryBusWidth,
                attr(cudaDevAttrClockRate, 0), attr(cudaDevAttrMemoryClockRate, 0));
    std::printf("  shared memory per block %zu (opt-in %zu, reserved %zu), per SM %zu\n",
                p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock,
                p.sharedMemPerMultiprocessor);
    std::printf("  managed %d, concurrent managed %d, pageable %d, map host %d, overlap %d, "
                "cooperative %d, pools %d\n", p.managedMemory, p.concurrentManagedAccess,
                p.pageableMemoryAccess, p.canMapHostMemory, attr(cudaDevAttrGpuOverlap, 0),
                p.cooperativeLaunch, p.memoryPoolsSupported);
    struct { cudaDeviceAttr a; long long prop; const char *what; } same[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "maxThreadsPerBlock"},
        {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "maxThreadsDim[0]"},
        {cudaDevAttrMaxGridDimX, p.maxGridSize[0], "maxGridSize[0]"},
        {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock, "sharedMemPerBlock"},
        {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem, "totalConstMem"},
        {cudaDevAttrWarpSize, p.warpSize, "warpSize"},
        {cudaDevAttrMaxPitch, (long long)p.memPitch, "memPitch"},
        {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "regsPerBlock"},
        {cudaDevAttrTextureAlignment, (long long)p.textureAlignment, "textureAlignment"},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "multiProcessorCount"},
        {cudaDevAttrIntegrated, p.integrated, "integrated"},
        {cudaDevAttrCanMapHostMemory, p.canMapHostMemory, "canMapHostMemory"},
        {cudaDevAttrMaxTexture1DWidth, p.maxTexture1D, "maxTexture1D"},
        {cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1], "maxTexture2D[1]"},
        {cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2], "maxTexture3D[2]"},
        {cudaDevAttrMaxTexture2DLayeredLayers, p.maxTexture2DLayered[2], "maxTexture2DLayered[2]"},
        {cudaDevAttrSurfaceAlignment, (long long)p.surfaceAlignment, "surfaceAlignment"},
        {cudaDevAttrConcurrentKernels, p.concurrentKernels, "concurrentKernels"},
        {cudaDevAttrEccEnabled, p.ECCEnabled, "ECCEnabled"},
        {cudaDevAttrPciBusId, p.pciBusID, "pciBusID"},
        {cudaDevAttrTccDriver, p.tccDriver, "tccDriver"},
        {cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth, "memoryBusWidth"},
        {cudaDevAttrL2CacheSize, p.l2CacheSize, "l2CacheSize"},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor, "maxThreadsPerMP"},
        {cudaDevAttrAsyncEngineCount, p.asyncEngineCount, "asyncEngineCount"},
        {cudaDevAttrUnifiedAddressing, p.unifiedAddressing, "unifiedAddressing"},
        {cudaDevAttrMaxTexture2DLinearPitch, p.maxTexture2DLinear[2], "maxTexture2DLinear[2]"},
        {cudaDevAttrMaxSurfaceCubemapLayeredLayers, p.maxSurfaceCubemapLayered[1], "maxSurfaceCubemapLayered[1]"},
        {cudaDevAttrComputeCapabilityMajor, p.major, "major"},
        {cudaDevAttrComputeCapabilityMinor, p.minor, "minor"},
        {cudaDevAttrStreamPrioritiesSupported, p.streamPrioritiesSupported, "streamPrioritiesSupported"},
        {cudaDevAttrGlobalL1CacheSupported, p.globalL1CacheSupported, "globalL1CacheSupported"},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor, "sharedMemPerMultiprocessor"},
        {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor, "regsPerMultiprocessor"},
        {cudaDevAttrManagedMemory, p.managedMemory, "managedMemory"},
        {cudaDevAttrPageableMemoryAccess, p.pageableMemoryAccess, "pageableMemoryAccess"},
        {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess, "concurrentManagedAccess"},
        {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch, "cooperativeLaunch"},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin, "sharedMemPerBlockOptin"},
        {cudaDevAttrHostRegisterSupported, p.hostRegisterSupported, "hostRegisterSupported"},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor, "maxBlocksPerMultiProcessor"},
        {cudaDevAttrReservedSharedMemoryPerBlock, (long long)p.reservedSharedMemPerBlock, "reservedSharedMemPerBlock"},
        {cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported, "memoryPoolsSupported"},
        {cudaDevAttrClusterLaunch, p.clusterLaunch, "clusterLaunch"},
        {cudaDevAttrNumaId, p.deviceNumaId, "deviceNumaId"},
        {cudaDevAttrHostNumaId, p.hostNumaId, "hostNumaId"},
    };
    for (const auto &s : same)
        if (attr(s.a, 0) != s.prop) {
            std::fprintf(stderr, "FAIL attribute %d = %d, cudaDeviceProp.%s = %lld\n", (int)s.a,
                         attr(s.a, 0), s.what, s.prop);
            return 1;
        }
    // what the issue asks for, on any preset
    REQUIRE(attr(cudaDevAttrComputeMode, 0) == cudaComputeModeDefault);
    REQUIRE(attr(cudaDevAttrKernelExecTimeout, 0) == 0);
    REQUIRE(p.managedMemory == 1 && p.cooperativeLaunch == 1);
    REQUIRE(attr(cudaDevAttrClockRate, 0) > 0 && attr(cudaDevAttrMemoryClockRate, 0) > 0);
    REQUIRE(p.l2CacheSize > 0 && p.sharedMemPerMultiprocessor > 0);
    REQUIRE(p.sharedMemPerBlock <= p.sharedMemPerBlockOptin);
    REQUIRE(p.sharedMemPerBlockOptin + p.reservedSharedMemPerBlock <= p.sharedMemPerMultiprocessor);

    // pick a device by attributes, as the samples do
    cudaDeviceProp want;
    std::memset(&want, 0, sizeof want);
    want.major = p.major;
    want.minor = p.minor;
    int chosen = -1;
    CHECK(cudaChooseDevice(&chosen, &want));
    REQUIRE(chosen == 0);
    CHECK(cudaSetDevice(chosen));

    // use what was found: managed memory (managedMemory = 1) and a dynamic
    // shared memory size within sharedMemPerBlock
    const int n = 1000, block = 256;
    float *a = nullptr;
    CHECK(cudaMallocManaged(&a, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        a[i] = (float)i;
    REQUIRE((size_t)block * sizeof(float) <= p.sharedMemPerBlock);
    scale<<<(n + block - 1) / block, block, block * sizeof(float)>>>(a, n, 2.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        REQUIRE(a[i] == 2.0f * (float)i);
    CHECK(cudaFree(a));
    std::printf("PASS attributes: %zu attributes, %d values outside the enum refused\n", n_attrs,
                unknown);
    return 0;
}
