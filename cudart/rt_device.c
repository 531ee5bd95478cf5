/* cudart/rt_device.c — device management, properties (from the active
 * GPU config), versions, errors, synchronisation and reset. */
#include "cudart/rt.h"
#include "cudart/rt_stream.h"

#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

/* The driver version this runtime claims (CUDA 13.0, as CUDART_VERSION). */
#define DRIVER_VERSION 13000

CUDART_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    cudart *rt = rt_enter();
    if (!count)
        return rt_leave(rt, cudaErrorInvalidValue);
    *count = rt->ctx ? 1 : 0;
    return rt_leave(rt, rt->ctx ? cudaSuccess : cudaErrorNoDevice);
}

CUDART_EXPORT cudaError_t cudaGetDevice(int *device)
{
    cudart *rt = rt_enter();
    if (!device)
        return rt_leave(rt, cudaErrorInvalidValue);
    *device = rt->device;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaSetDevice(int device)
{
    cudart *rt = rt_enter();
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    rt->device = device;
    return rt_leave(rt, rt->ctx ? cudaSuccess : rt->init_error);
}

CUDART_EXPORT cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags)
{
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(device);
}

CUDART_EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    cudart *rt = rt_enter();
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    cudart *rt = rt_enter();
    if (!flags)
        return rt_leave(rt, cudaErrorInvalidValue);
    *flags = 0;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    cudart *rt = rt_enter();
    if (!device || !prop)
        return rt_leave(rt, cudaErrorInvalidValue);
    *device = 0;
    return rt_leave(rt, cudaSuccess);
}

/* The properties of the emulated device, from the GPU config. */
static void fill_props(const cudart *rt, struct cudaDeviceProp *p)
{
    const gpu_config *c = &rt->cfg;
    memset(p, 0, sizeof *p);
    g_snprintf(p->name, sizeof p->name, "ptxemu %s", c->gpu.name);
    memcpy(p->uuid.bytes, "ptxemu-device-00", 16);
    p->totalGlobalMem = c->limits.device_memory;
    p->sharedMemPerBlock = MIN(c->core.shared_mem, 48u * 1024u);
    p->sharedMemPerBlockOptin = c->core.shared_mem;
    p->sharedMemPerMultiprocessor = c->core.shared_mem;
    p->regsPerBlock = (int)MIN(c->core.registers, 65536u);
    p->regsPerMultiprocessor = (int)c->core.registers;
    p->warpSize = (int)c->gpu.warp_size;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = (int)rt_max_threads_per_block(rt);
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 64 * 1024;
    p->major = (int)(c->gpu.compute_capability / 10);
    p->minor = (int)(c->gpu.compute_capability % 10);
    p->textureAlignment = 512;
    p->texturePitchAlignment = 256;
    p->multiProcessorCount = (int)c->gpu.num_sms;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 0; /* copies do not overlap kernels here */
    p->unifiedAddressing = 1;
    p->memoryBusWidth = (int)(c->dram.bus_width * c->dram.partitions);
    p->l2CacheSize = (int)MIN(gpu_config_l2_total(c), (uint64_t)INT32_MAX);
    p->maxThreadsPerMultiProcessor = (int)c->core.max_threads;
    p->maxBlocksPerMultiProcessor = (int)c->core.max_ctas;
    p->globalL1CacheSupported = c->l1d.enabled;
    p->localL1CacheSupported = 1;
    p->cooperativeLaunch = 1;
    p->hostRegisterSupported = 1;
    p->deviceNumaId = p->hostNumaId = -1;
}

CUDART_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudart *rt = rt_enter();
    if (!prop)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    fill_props(rt, prop);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    cudart *rt = rt_enter();
    if (!value)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    struct cudaDeviceProp p;
    fill_props(rt, &p);
    const gpu_config *c = &rt->cfg;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = (int)(c->clock.core * 1000u); break;
    case cudaDevAttrMemoryClockRate: *value = (int)(c->clock.dram * 1000u); break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = (int)p.sharedMemPerMultiprocessor;
        break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: {
        char *what = g_strdup_printf("cudaDeviceGetAttribute(attribute %d)", attr);
        cudaError_t e = rt_unsupported(rt, what);
        g_free(what);
        return rt_leave(rt, e);
    }
    }
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaDriverGetVersion(int *v)
{
    cudart *rt = rt_enter();
    if (!v)
        return rt_leave(rt, cudaErrorInvalidValue);
    *v = DRIVER_VERSION;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaRuntimeGetVersion(int *v)
{
    cudart *rt = rt_enter();
    if (!v)
        return rt_leave(rt, cudaErrorInvalidValue);
    *v = CUDART_ABI_VERSION;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    cudart *rt = rt_enter();
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    return rt_leave(rt, rt_wait(rt, ptxemu_synchronize(rt->ctx), "cudaDeviceSynchronize"));
}

CUDART_EXPORT cudaError_t cudaDeviceReset(void)
{
    cudart *rt = rt_enter();
    rt_reset(rt);
    return rt_leave(rt, rt->init_error);
}

/* cudaLimitMallocHeapSize sizes the device heap of malloc in kernels; the
 * other limits and the cache preferences change nothing an emulated run
 * shows. */
#define LIMIT_MALLOC_HEAP 2 /* cudaLimitMallocHeapSize */
CUDART_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    cudart *rt = rt_enter();
    if (limit == LIMIT_MALLOC_HEAP && rt->ctx)
        return rt_leave(rt, ptxemu_set_malloc_heap(rt->ctx, value) == PTXEMU_OK
                                ? cudaSuccess : cudaErrorInvalidValue);
    return rt_leave(rt, limit >= 0 && limit <= 6 ? cudaSuccess : cudaErrorInvalidValue);
}

/* CUDA's defaults for the limits that do not change a run (CUDA Runtime
 * API, cudaDeviceSetLimit), and the device heap's size. */
CUDART_EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    cudart *rt = rt_enter();
    static const size_t defaults[] = {1024, 1u << 20, 0, 2, 2048, 64, 0};
    if (!value || limit < 0 || limit > 6)
        return rt_leave(rt, cudaErrorInvalidValue);
    *value = limit == LIMIT_MALLOC_HEAP ? (size_t)ptxemu_malloc_heap(rt->ctx) : defaults[limit];
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaDeviceSetCacheConfig(int config)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, config >= 0 && config <= 3 ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_EXPORT cudaError_t cudaGetLastError(void)
{
    cudart *rt = rt_enter();
    cudaError_t e = rt->last_error;
    rt->last_error = rt->sticky; /* a sticky error stays */
    rt_unlock(rt);
    return e;
}

CUDART_EXPORT cudaError_t cudaPeekAtLastError(void)
{
    cudart *rt = rt_enter();
    cudaError_t e = rt->last_error;
    rt_unlock(rt);
    return e;
}

/* X(code, name, description) */
#define CUDART_ERRORS(X)                                                               \
    X(cudaSuccess, "cudaSuccess", "no error")                                          \
    X(cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument")              \
    X(cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory")         \
    X(cudaErrorInitializationError, "cudaErrorInitializationError",                    \
      "initialization error")                                                          \
    X(cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down")    \
    X(cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",                  \
      "invalid configuration argument")                                                \
    X(cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument") \
    X(cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol")       \
    X(cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer",                  \
      "invalid device pointer")                                                        \
    X(cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",              \
      "invalid copy direction for memcpy")                                             \
    X(cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",                  \
      "__global__ function call is not configured")                                    \
    X(cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction",                \
      "invalid device function")                                                       \
    X(cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected")    \
    X(cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal")      \
    X(cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage",                      \
      "device kernel image is invalid")                                                \
    X(cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",              \
      "no kernel image is available for execution on the device")                      \
    X(cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed")      \
    X(cudaErrorUnsupportedPtxVersion, "cudaErrorUnsupportedPtxVersion",                \
      "the provided PTX was compiled with an unsupported toolchain.")                  \
    X(cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle",                \
      "invalid resource handle")                                                       \
    X(cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found")    \
    X(cudaErrorNotReady, "cudaErrorNotReady", "device not ready")                      \
    X(cudaErrorIllegalAddress, "cudaErrorIllegalAddress",                              \
      "an illegal memory access was encountered")                                      \
    X(cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",                  \
      "too many resources requested for launch")                                       \
    X(cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout",                                \
      "the launch timed out and was terminated")                                       \
    X(cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered")              \
    X(cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",    \
      "part or all of the requested memory range is already mapped")                   \
    X(cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",            \
      "pointer does not correspond to a registered memory region")                     \
    X(cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address")  \
    X(cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure")  \
    X(cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",        \
      "too many blocks in cooperative launch")                                         \
    X(cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported")       \
    X(cudaErrorUnknown, "cudaErrorUnknown", "unknown error")

CUDART_EXPORT const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
#define X(code, name, text) case code: return name;
        CUDART_ERRORS(X)
#undef X
    }
    return "cudaErrorUnknown";
}

CUDART_EXPORT const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
#define X(code, name, text) case code: return text;
        CUDART_ERRORS(X)
#undef X
    }
    return "unrecognized error code";
}
