/* cudart/rt_device.c — device management, properties (from the active
 * GPU config), versions, errors, synchronisation and reset. */
#include "cudart/rt.h"
#include "cudart/rt_stream.h"
#include "cudart/rt_graph.h"

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

/* Texture and surface limits: those of a current NVIDIA GPU (sm_80/sm_90),
 * capped at what api/textures.c accepts (no dimension above 65536, linear
 * textures of up to 2^27 elements), so a program that sizes its arrays
 * from them runs here. */
#define TEX_1D 65536             /* sm_90: 131072; ptxemu's array limit */
#define TEX_2D_W 65536           /* sm_90: 131072 */
#define TEX_2D_H 65536
#define TEX_3D 16384
#define TEX_3D_ALT_WH 8192
#define TEX_3D_ALT_D 32768
#define TEX_CUBE 32768
#define TEX_LAYERED 32768
#define TEX_LAYERS 2048
#define TEX_CUBE_LAYERS 2046
#define TEX_1D_LINEAR (1 << 27)  /* api/textures.c: linear resources */
#define TEX_2D_LINEAR 65536
#define TEX_2D_LINEAR_PITCH 2097120
#define TEX_GATHER 32768
#define TEX_MIPMAP 32768
#define SURF_1D 32768
#define SURF_2D 65536            /* sm_90: 131072 x 65536 */

/* Shared memory a block may use: without opt-in CUDA caps it at 48 KiB;
 * with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)
 * up to the SM's shared memory less the system's reserved region. */
size_t rt_shared_reserved(const cudart *rt)
{
    /* the region ptxemu lays out at offset 0 of every block's shared
     * memory for sm_80 and newer modules (runtime/shared_layout.c) */
    return rt->cfg.gpu.compute_capability >= 80 ? 1024 : 0;
}

size_t rt_shared_per_block_optin(const cudart *rt)
{
    size_t sm = rt->cfg.core.shared_mem, res = rt_shared_reserved(rt);
    return sm > res ? sm - res : 0;
}

size_t rt_shared_per_block(const cudart *rt)
{
    return MIN(rt_shared_per_block_optin(rt), (size_t)48 * 1024);
}

/* The properties of the emulated device, from the GPU config and what
 * ptxemu supports (docs/cudart.md, "The device"). */
static void fill_props(const cudart *rt, struct cudaDeviceProp *p)
{
    const gpu_config *c = &rt->cfg;
    memset(p, 0, sizeof *p);
    g_snprintf(p->name, sizeof p->name, "ptxemu %s", c->gpu.name);
    memcpy(p->uuid.bytes, "ptxemu-device-00", 16);
    p->totalGlobalMem = c->limits.device_memory;
    p->sharedMemPerBlock = rt_shared_per_block(rt);
    p->regsPerBlock = (int)MIN(c->core.registers, 65536u);
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
    p->integrated = 0;
    p->canMapHostMemory = 1; /* cudaHostAllocMapped memory (rt_managed.c) */
    p->maxTexture1D = TEX_1D;
    p->maxTexture1DMipmap = TEX_MIPMAP;
    p->maxTexture2D[0] = TEX_2D_W;
    p->maxTexture2D[1] = TEX_2D_H;
    p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = TEX_MIPMAP;
    p->maxTexture2DLinear[0] = p->maxTexture2DLinear[1] = TEX_2D_LINEAR;
    p->maxTexture2DLinear[2] = TEX_2D_LINEAR_PITCH;
    p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = TEX_GATHER;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = TEX_3D;
    p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = TEX_3D_ALT_WH;
    p->maxTexture3DAlt[2] = TEX_3D_ALT_D;
    p->maxTextureCubemap = TEX_CUBE;
    p->maxTexture1DLayered[0] = TEX_LAYERED;
    p->maxTexture1DLayered[1] = TEX_LAYERS;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = TEX_LAYERED;
    p->maxTexture2DLayered[2] = TEX_LAYERS;
    p->maxTextureCubemapLayered[0] = TEX_CUBE;
    p->maxTextureCubemapLayered[1] = TEX_CUBE_LAYERS;
    p->maxSurface1D = SURF_1D;
    p->maxSurface2D[0] = p->maxSurface2D[1] = SURF_2D;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = TEX_3D;
    p->maxSurface1DLayered[0] = TEX_LAYERED;
    p->maxSurface1DLayered[1] = TEX_LAYERS;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = TEX_LAYERED;
    p->maxSurface2DLayered[2] = TEX_LAYERS;
    p->maxSurfaceCubemap = TEX_CUBE;
    p->maxSurfaceCubemapLayered[0] = TEX_CUBE;
    p->maxSurfaceCubemapLayered[1] = TEX_CUBE_LAYERS;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->ECCEnabled = 0;
    p->pciBusID = p->pciDeviceID = p->pciDomainID = 0; /* no PCI device */
    p->tccDriver = 0;
    p->asyncEngineCount = 0; /* copies take no simulated time, overlap nothing */
    p->unifiedAddressing = 1;
    p->memoryBusWidth = (int)(c->dram.bus_width * c->dram.partitions);
    p->l2CacheSize = (int)MIN(gpu_config_l2_total(c), (uint64_t)INT32_MAX);
    p->persistingL2CacheMaxSize = 0; /* no persisting L2 lines */
    p->maxThreadsPerMultiProcessor = (int)c->core.max_threads;
    p->streamPrioritiesSupported = 0; /* accepted, not modelled: range 0..0 */
    p->globalL1CacheSupported = c->l1d.enabled;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = c->core.shared_mem;
    p->regsPerMultiprocessor = (int)c->core.registers;
    p->managedMemory = 1;          /* cudaMallocManaged works (rt_managed.c) */
    p->isMultiGpuBoard = 0;
    p->multiGpuBoardGroupID = 0;
    p->hostNativeAtomicSupported = 0;
    p->pageableMemoryAccess = 0;
    p->concurrentManagedAccess = 0; /* managed data moves at launch boundaries */
    p->computePreemptionSupported = 0;
    p->canUseHostPointerForRegisteredMem = 0;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = rt_shared_per_block_optin(rt);
    p->pageableMemoryAccessUsesHostPageTables = 0;
    p->directManagedMemAccessFromHost = 0;
    p->maxBlocksPerMultiProcessor = (int)c->core.max_ctas;
    p->accessPolicyMaxWindowSize = 0;
    p->reservedSharedMemPerBlock = rt_shared_reserved(rt);
    p->hostRegisterSupported = 1;
    p->sparseCudaArraySupported = 0;
    p->hostRegisterReadOnlySupported = 0;
    p->timelineSemaphoreInteropSupported = 0;
    p->memoryPoolsSupported = 1; /* cudaMallocAsync and device pools (rt_mempool.c) */
    p->gpuDirectRDMASupported = 0;
    p->gpuDirectRDMAFlushWritesOptions = 0;
    p->gpuDirectRDMAWritesOrdering = 0; /* cudaGPUDirectRDMAWritesOrderingNone */
    p->memoryPoolSupportedHandleTypes = 0;
    p->deferredMappingCudaArraySupported = 0;
    p->ipcEventSupported = 0;
    p->clusterLaunch = 0;        /* cudaLaunchKernelExC is not supported */
    p->unifiedFunctionPointers = 0;
    p->deviceNumaConfig = 0;     /* cudaDeviceNumaConfigNone */
    p->deviceNumaId = -1;
    p->mpsEnabled = 0;
    p->hostNumaId = -1;
    p->gpuPciDeviceID = p->gpuPciSubsystemID = 0;
    p->hostNumaMultinodeIpcSupported = 0;
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

/* The value of every attribute of enum cudaDeviceAttr (device_attrs.def,
 * generated from CUDA's driver_types.h).  The switch has no default:
 * -Wswitch (an error here) fails the build when an attribute of the
 * header has no case.  Values with a cudaDeviceProp field read it; the
 * clocks, which CUDA 13's cudaDeviceProp no longer has, come from [clock].
 * False: `a` is no attribute of the enum. */
static bool device_attr(const cudart *rt, const struct cudaDeviceProp *p, enum cudaDeviceAttr a,
                        int *v)
{
    const gpu_config *c = &rt->cfg;
    switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p->maxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: *v = p->maxThreadsDim[0]; return true;
    case cudaDevAttrMaxBlockDimY: *v = p->maxThreadsDim[1]; return true;
    case cudaDevAttrMaxBlockDimZ: *v = p->maxThreadsDim[2]; return true;
    case cudaDevAttrMaxGridDimX: *v = p->maxGridSize[0]; return true;
    case cudaDevAttrMaxGridDimY: *v = p->maxGridSize[1]; return true;
    case cudaDevAttrMaxGridDimZ: *v = p->maxGridSize[2]; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p->sharedMemPerBlock; return true;
    case cudaDevAttrTotalConstantMemory: *v = (int)p->totalConstMem; return true;
    case cudaDevAttrWarpSize: *v = p->warpSize; return true;
    case cudaDevAttrMaxPitch: *v = (int)MIN(p->memPitch, (size_t)INT32_MAX); return true;
    case cudaDevAttrMaxRegistersPerBlock: *v = p->regsPerBlock; return true;
    case cudaDevAttrClockRate: *v = (int)(c->clock.core * 1000u); return true; /* kHz */
    case cudaDevAttrTextureAlignment: *v = (int)p->textureAlignment; return true;
    case cudaDevAttrGpuOverlap: *v = p->asyncEngineCount > 0; return true;
    case cudaDevAttrMultiProcessorCount: *v = p->multiProcessorCount; return true;
    case cudaDevAttrKernelExecTimeout: *v = 0; return true; /* no watchdog */
    case cudaDevAttrIntegrated: *v = p->integrated; return true;
    case cudaDevAttrCanMapHostMemory: *v = p->canMapHostMemory; return true;
    case cudaDevAttrComputeMode: *v = 0; return true; /* cudaComputeModeDefault */
    case cudaDevAttrMaxTexture1DWidth: *v = p->maxTexture1D; return true;
    case cudaDevAttrMaxTexture2DWidth: *v = p->maxTexture2D[0]; return true;
    case cudaDevAttrMaxTexture2DHeight: *v = p->maxTexture2D[1]; return true;
    case cudaDevAttrMaxTexture3DWidth: *v = p->maxTexture3D[0]; return true;
    case cudaDevAttrMaxTexture3DHeight: *v = p->maxTexture3D[1]; return true;
    case cudaDevAttrMaxTexture3DDepth: *v = p->maxTexture3D[2]; return true;
    case cudaDevAttrMaxTexture2DLayeredWidth: *v = p->maxTexture2DLayered[0]; return true;
    case cudaDevAttrMaxTexture2DLayeredHeight: *v = p->maxTexture2DLayered[1]; return true;
    case cudaDevAttrMaxTexture2DLayeredLayers: *v = p->maxTexture2DLayered[2]; return true;
    case cudaDevAttrSurfaceAlignment: *v = (int)p->surfaceAlignment; return true;
    case cudaDevAttrConcurrentKernels: *v = p->concurrentKernels; return true;
    case cudaDevAttrEccEnabled: *v = p->ECCEnabled; return true;
    case cudaDevAttrPciBusId: *v = p->pciBusID; return true;
    case cudaDevAttrPciDeviceId: *v = p->pciDeviceID; return true;
    case cudaDevAttrTccDriver: *v = p->tccDriver; return true;
    case cudaDevAttrMemoryClockRate: *v = (int)(c->clock.dram * 1000u); return true; /* kHz */
    case cudaDevAttrGlobalMemoryBusWidth: *v = p->memoryBusWidth; return true;
    case cudaDevAttrL2CacheSize: *v = p->l2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p->maxThreadsPerMultiProcessor; return true;
    case cudaDevAttrAsyncEngineCount: *v = p->asyncEngineCount; return true;
    case cudaDevAttrUnifiedAddressing: *v = p->unifiedAddressing; return true;
    case cudaDevAttrMaxTexture1DLayeredWidth: *v = p->maxTexture1DLayered[0]; return true;
    case cudaDevAttrMaxTexture1DLayeredLayers: *v = p->maxTexture1DLayered[1]; return true;
    case cudaDevAttrMaxTexture2DGatherWidth: *v = p->maxTexture2DGather[0]; return true;
    case cudaDevAttrMaxTexture2DGatherHeight: *v = p->maxTexture2DGather[1]; return true;
    case cudaDevAttrMaxTexture3DWidthAlt: *v = p->maxTexture3DAlt[0]; return true;
    case cudaDevAttrMaxTexture3DHeightAlt: *v = p->maxTexture3DAlt[1]; return true;
    case cudaDevAttrMaxTexture3DDepthAlt: *v = p->maxTexture3DAlt[2]; return true;
    case cudaDevAttrPciDomainId: *v = p->pciDomainID; return true;
    case cudaDevAttrTexturePitchAlignment: *v = (int)p->texturePitchAlignment; return true;
    case cudaDevAttrMaxTextureCubemapWidth: *v = p->maxTextureCubemap; return true;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = p->maxTextureCubemapLayered[0]; return true;
    case cudaDevAttrMaxTextureCubemapLayeredLayers:
        *v = p->maxTextureCubemapLayered[1];
        return true;
    case cudaDevAttrMaxSurface1DWidth: *v = p->maxSurface1D; return true;
    case cudaDevAttrMaxSurface2DWidth: *v = p->maxSurface2D[0]; return true;
    case cudaDevAttrMaxSurface2DHeight: *v = p->maxSurface2D[1]; return true;
    case cudaDevAttrMaxSurface3DWidth: *v = p->maxSurface3D[0]; return true;
    case cudaDevAttrMaxSurface3DHeight: *v = p->maxSurface3D[1]; return true;
    case cudaDevAttrMaxSurface3DDepth: *v = p->maxSurface3D[2]; return true;
    case cudaDevAttrMaxSurface1DLayeredWidth: *v = p->maxSurface1DLayered[0]; return true;
    case cudaDevAttrMaxSurface1DLayeredLayers: *v = p->maxSurface1DLayered[1]; return true;
    case cudaDevAttrMaxSurface2DLayeredWidth: *v = p->maxSurface2DLayered[0]; return true;
    case cudaDevAttrMaxSurface2DLayeredHeight: *v = p->maxSurface2DLayered[1]; return true;
    case cudaDevAttrMaxSurface2DLayeredLayers: *v = p->maxSurface2DLayered[2]; return true;
    case cudaDevAttrMaxSurfaceCubemapWidth: *v = p->maxSurfaceCubemap; return true;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = p->maxSurfaceCubemapLayered[0]; return true;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
        *v = p->maxSurfaceCubemapLayered[1];
        return true;
    case cudaDevAttrMaxTexture1DLinearWidth: *v = TEX_1D_LINEAR; return true;
    case cudaDevAttrMaxTexture2DLinearWidth: *v = p->maxTexture2DLinear[0]; return true;
    case cudaDevAttrMaxTexture2DLinearHeight: *v = p->maxTexture2DLinear[1]; return true;
    case cudaDevAttrMaxTexture2DLinearPitch: *v = p->maxTexture2DLinear[2]; return true;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *v = p->maxTexture2DMipmap[0]; return true;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *v = p->maxTexture2DMipmap[1]; return true;
    case cudaDevAttrComputeCapabilityMajor: *v = p->major; return true;
    case cudaDevAttrComputeCapabilityMinor: *v = p->minor; return true;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *v = p->maxTexture1DMipmap; return true;
    case cudaDevAttrStreamPrioritiesSupported: *v = p->streamPrioritiesSupported; return true;
    case cudaDevAttrGlobalL1CacheSupported: *v = p->globalL1CacheSupported; return true;
    case cudaDevAttrLocalL1CacheSupported: *v = p->localL1CacheSupported; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *v = (int)p->sharedMemPerMultiprocessor;
        return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p->regsPerMultiprocessor; return true;
    case cudaDevAttrManagedMemory: *v = p->managedMemory; return true;
    case cudaDevAttrIsMultiGpuBoard: *v = p->isMultiGpuBoard; return true;
    case cudaDevAttrMultiGpuBoardGroupID: *v = p->multiGpuBoardGroupID; return true;
    case cudaDevAttrHostNativeAtomicSupported: *v = p->hostNativeAtomicSupported; return true;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
        /* FP32 lanes per FP64 lane of the [units] of the config */
        *v = (int)MAX(1u, c->units.sp / MAX(1u, c->units.dp));
        return true;
    case cudaDevAttrPageableMemoryAccess: *v = p->pageableMemoryAccess; return true;
    case cudaDevAttrConcurrentManagedAccess: *v = p->concurrentManagedAccess; return true;
    case cudaDevAttrComputePreemptionSupported: *v = p->computePreemptionSupported; return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
        *v = p->canUseHostPointerForRegisteredMem;
        return true;
    case cudaDevAttrCooperativeLaunch: *v = p->cooperativeLaunch; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p->sharedMemPerBlockOptin; return true;
    case cudaDevAttrCanFlushRemoteWrites: *v = 0; return true;
    case cudaDevAttrHostRegisterSupported: *v = p->hostRegisterSupported; return true;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
        *v = p->pageableMemoryAccessUsesHostPageTables;
        return true;
    case cudaDevAttrDirectManagedMemAccessFromHost: *v = p->directManagedMemAccessFromHost; return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p->maxBlocksPerMultiProcessor; return true;
    case cudaDevAttrMaxPersistingL2CacheSize: *v = p->persistingL2CacheMaxSize; return true;
    case cudaDevAttrMaxAccessPolicyWindowSize: *v = p->accessPolicyMaxWindowSize; return true;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)p->reservedSharedMemPerBlock; return true;
    case cudaDevAttrSparseCudaArraySupported: *v = p->sparseCudaArraySupported; return true;
    case cudaDevAttrHostRegisterReadOnlySupported: *v = p->hostRegisterReadOnlySupported; return true;
    case cudaDevAttrTimelineSemaphoreInteropSupported:
        *v = p->timelineSemaphoreInteropSupported;
        return true;
    case cudaDevAttrMemoryPoolsSupported: *v = p->memoryPoolsSupported; return true;
    case cudaDevAttrGPUDirectRDMASupported: *v = p->gpuDirectRDMASupported; return true;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
        *v = (int)p->gpuDirectRDMAFlushWritesOptions;
        return true;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *v = p->gpuDirectRDMAWritesOrdering; return true;
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
        *v = (int)p->memoryPoolSupportedHandleTypes;
        return true;
    case cudaDevAttrClusterLaunch: *v = p->clusterLaunch; return true;
    case cudaDevAttrDeferredMappingCudaArraySupported:
        *v = p->deferredMappingCudaArraySupported;
        return true;
    case cudaDevAttrIpcEventSupport: *v = p->ipcEventSupported; return true;
    case cudaDevAttrMemSyncDomainCount: *v = 1; return true; /* one domain, as before sm_90 */
    case cudaDevAttrNumaConfig: *v = p->deviceNumaConfig; return true;
    case cudaDevAttrNumaId: *v = p->deviceNumaId; return true;
    case cudaDevAttrMpsEnabled: *v = p->mpsEnabled; return true;
    case cudaDevAttrHostNumaId: *v = p->hostNumaId; return true;
    case cudaDevAttrD3D12CigSupported: *v = 0; return true;
    case cudaDevAttrVulkanCigSupported: *v = 0; return true;
    case cudaDevAttrGpuPciDeviceId: *v = (int)p->gpuPciDeviceID; return true;
    case cudaDevAttrGpuPciSubsystemId: *v = (int)p->gpuPciSubsystemID; return true;
    case cudaDevAttrHostNumaMemoryPoolsSupported: *v = 0; return true;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *v = p->hostNumaMultinodeIpcSupported; return true;
    case cudaDevAttrHostMemoryPoolsSupported: *v = 0; return true;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *v = 0; return true;
    /* reserved values name capabilities (stream memory operations, the
     * old multi-device cooperative launch, ...) that ptxemu has not */
    case cudaDevAttrReserved92:
    case cudaDevAttrReserved93:
    case cudaDevAttrReserved94:
    case cudaDevAttrReserved96:
    case cudaDevAttrReserved122:
    case cudaDevAttrReserved123:
    case cudaDevAttrReserved124:
    case cudaDevAttrReserved127:
    case cudaDevAttrReserved128:
    case cudaDevAttrReserved129:
    case cudaDevAttrReserved132:
    case cudaDevAttrReserved141:
    case cudaDevAttrReserved145: *v = 0; return true;
    case cudaDevAttrMax: return false;
    }
    return false;
}

/* An attribute outside the enum is cudaErrorInvalidValue, as in CUDA. */
CUDART_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    cudart *rt = rt_enter();
    if (!value)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    struct cudaDeviceProp p;
    fill_props(rt, &p);
    int v = 0;
    if (attr < 0 || attr >= cudaDevAttrMax || !device_attr(rt, &p, (enum cudaDeviceAttr)attr, &v))
        return rt_leave(rt, cudaErrorInvalidValue);
    *value = v;
    return rt_leave(rt, cudaSuccess);
}

/* Profiler control: ptxemu has no external profiler to start or stop (its
 * statistics cover every launch: PTXEMU_STATS, --stats), so these succeed
 * and change nothing, as CUDA's do when no profiler is attached. */
CUDART_EXPORT cudaError_t cudaProfilerStart(void)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, rt->ctx ? cudaSuccess : rt->init_error);
}

CUDART_EXPORT cudaError_t cudaProfilerStop(void)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, rt->ctx ? cudaSuccess : rt->init_error);
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
    cudaError_t e = rt_capture_unsafe_call(rt, "cudaDeviceSynchronize");
    if (e)
        return rt_leave(rt, e);
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
    X(cudaErrorIllegalState, "cudaErrorIllegalState",                                  \
      "the operation cannot be performed in the present state")                        \
    X(cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",          \
      "operation not permitted when stream is capturing")                              \
    X(cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",          \
      "operation failed due to a previous error during capture")                       \
    X(cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge",                      \
      "operation would result in a merge of separate capture sequences")               \
    X(cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",              \
      "capture was not ended in the same stream as it began")                          \
    X(cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined",                \
      "capturing stream has unjoined work")                                            \
    X(cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation",              \
      "dependency created on uncaptured work in another stream")                       \
    X(cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",                \
      "operation would make the legacy stream depend on a capturing blocking stream")  \
    X(cudaErrorCapturedEvent, "cudaErrorCapturedEvent",                                \
      "operation not permitted on an event last recorded in a capturing stream")       \
    X(cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread",          \
      "attempt to terminate a thread-local capture sequence from another thread")      \
    X(cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",              \
      "the graph update was not performed because it included changes which violated " \
      "constraints specific to instantiated graph update")                             \
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
