/* cudart/rt_launch.c — kernel launches (<<<>>>, cudaLaunchKernel and the
 * CUDA 13 __cudaGetKernel/__cudaLaunchKernel pair), function attributes
 * and occupancy queries.  Launches are queued on their stream (rt_stream.c)
 * once their configuration is checked. */
#include "api/api_internal.h"
#include "cudart/rt.h"
#include "cudart/rt_managed.h"
#include "cudart/rt_stream.h"

#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

/* CUDA's limits on a launch (the same for every device since sm_30). */
#define MAX_BLOCK_XY 1024u
#define MAX_BLOCK_Z 64u
#define MAX_GRID_X 2147483647u
#define MAX_GRID_YZ 65535u

unsigned rt_max_threads_per_block(const cudart *rt)
{
    return MIN(1024u, rt->cfg.core.max_threads);
}

static cudaError_t check_config(const cudart *rt, dim3 g, dim3 b, size_t shared)
{
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !threads)
        return cudaErrorInvalidConfiguration;
    if (b.x > MAX_BLOCK_XY || b.y > MAX_BLOCK_XY || b.z > MAX_BLOCK_Z ||
        threads > rt_max_threads_per_block(rt))
        return cudaErrorInvalidConfiguration;
    if (g.x > MAX_GRID_X || g.y > MAX_GRID_YZ || g.z > MAX_GRID_YZ)
        return cudaErrorInvalidConfiguration;
    if (shared > rt->cfg.core.shared_mem)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

static cudaError_t launch(cudart *rt, const rt_kernel *k, dim3 g, dim3 b, void **args,
                          size_t shared, cudaStream_t stream, bool coop)
{
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (rt->sticky)
        return rt->sticky;
    if (!k->fb->mod)
        return k->fb->load_error ? k->fb->load_error : cudaErrorNoKernelImageForDevice;
    if (!rt_stream_valid(rt, stream))
        return cudaErrorInvalidResourceHandle;
    cudaError_t e = check_config(rt, g, b, shared);
    if (e) {
        rt_log(rt, RT_LOG_INFO, "launch of %s: invalid configuration grid (%u,%u,%u) block "
               "(%u,%u,%u) shared %zu", k->name, g.x, g.y, g.z, b.x, b.y, b.z, shared);
        return e;
    }
    rt_launch_record r = {.kernel = k->name, .grid = g, .block = b};
    g_array_append_val(rt->launches, r);
    ptxemu_dim3 pg = {g.x, g.y, g.z}, pb = {b.x, b.y, b.z};
    ptxemu_status s;
    if (coop) {
        /* a cooperative launch runs now, after all queued work, with every
         * CTA resident (api/coop.c) */
        rt_managed_to_device(rt);
        s = ptxemu_launch_cooperative(k->fb->mod, k->name, pg, pb, shared, args);
        rt_managed_to_host(rt);
    } else if (rt->managed->len) {
        /* managed blocks are synchronised around each launch (rt_managed.c),
         * so with any alive the launch runs now, after all queued work */
        rt_managed_to_device(rt);
        s = ptxemu_launch(k->fb->mod, k->name, pg, pb, shared, args);
        rt_managed_to_host(rt);
    } else {
        s = ptxemu_launch_async(k->fb->mod, k->name, pg, pb, shared, args,
                                rt_stream_of(rt, stream));
    }
    if (s == PTXEMU_ERR_LAUNCH_FAILED) /* an execution error: sticky, later calls fail */
        return rt_status(rt, s, "kernel launch"), cudaSuccess;
    e = rt_status(rt, s, "kernel launch");
    if (coop && s == PTXEMU_ERR_LAUNCH_RESOURCES)
        e = cudaErrorCooperativeLaunchTooLarge; /* the grid cannot be co-resident */
    if (e) { /* refused before it was queued: it never runs */
        rt_launch_record *last = &g_array_index(rt->launches, rt_launch_record,
                                                rt->launches->len - 1);
        last->status = e;
        last->refused = true;
    }
    return e;
}

static const rt_kernel *find_kernel(const cudart *rt, const void *func)
{
    return func ? g_hash_table_lookup(rt->kernels, func) : NULL;
}

CUDART_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, launch(rt, find_kernel(rt, func), gridDim, blockDim, args, sharedMem,
                               stream, false));
}

CUDART_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                                void **args, size_t sharedMem,
                                                cudaStream_t stream)
{
    /* the per-thread default stream form: NULL is cudaStreamPerThread */
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem,
                            stream ? stream : (cudaStream_t)0x2);
}

/* A cooperative launch: every CTA resident at once, so that
 * cooperative_groups' grid.sync() works (api/coop.c); a grid the config
 * cannot hold at once is cudaErrorCooperativeLaunchTooLarge, as in CUDA. */
CUDART_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                                      dim3 blockDim, void **args,
                                                      size_t sharedMem, cudaStream_t stream)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, launch(rt, find_kernel(rt, func), gridDim, blockDim, args, sharedMem,
                               stream, true));
}

CUDART_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    cudart *rt = rt_enter();
    const rt_kernel *k = find_kernel(rt, func);
    if (kernel)
        *kernel = (cudaKernel_t)k;
    return rt_leave(rt, k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

CUDART_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, launch(rt, (const rt_kernel *)kernel, gridDim, blockDim, args, sharedMem,
                               stream, false));
}

CUDART_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
                                                  dim3 blockDim, void **args, size_t sharedMem,
                                                  cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem,
                              stream ? stream : (cudaStream_t)0x2);
}

/* The decoded function behind a host stub, or an error. */
static cudaError_t kernel_func(cudart *rt, const void *func, const rt_kernel **kout,
                               const ex_func **out)
{
    const rt_kernel *k = find_kernel(rt, func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!k->fb->mod)
        return k->fb->load_error ? k->fb->load_error : cudaErrorNoKernelImageForDevice;
    *out = g_hash_table_lookup(ptxemu_module_ex(k->fb->mod)->kernels, k->name);
    *kout = k;
    return *out ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

/* Registers per thread as a compiled kernel would report them: the PTX's
 * declared registers, capped at the architectural 255. */
static int kernel_regs(const ex_func *f)
{
    return (int)MIN(f->nregs, 255u);
}

CUDART_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    cudart *rt = rt_enter();
    if (!attr)
        return rt_leave(rt, cudaErrorInvalidValue);
    const rt_kernel *k = NULL;
    const ex_func *f = NULL;
    cudaError_t e = kernel_func(rt, func, &k, &f);
    if (e)
        return rt_leave(rt, e);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = f->shared_static - f->shared_reserved; /* the user's variables */
    attr->localSizeBytes = f->frame_size;
    attr->numRegs = kernel_regs(f);
    attr->maxThreadsPerBlock = (int)rt_max_threads_per_block(rt);
    if (attr->numRegs)
        attr->maxThreadsPerBlock = (int)MIN((unsigned)attr->maxThreadsPerBlock,
                                            rt->cfg.core.registers / (unsigned)attr->numRegs / 32u * 32u);
    const ptx_module *ir = ptxemu_module_ex(k->fb->mod)->ir;
    attr->ptxVersion = (int)(ir->version_major * 10 + ir->version_minor);
    attr->binaryVersion = (int)k->fb->arch;
    attr->maxDynamicSharedSizeBytes = (int)(rt->cfg.core.shared_mem - MIN(rt->cfg.core.shared_mem,
                                                                          f->shared_static));
    return rt_leave(rt, cudaSuccess);
}

/* Hints that change nothing an emulated run can observe: accepted. */
CUDART_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
    (void)config;
    cudart *rt = rt_enter();
    return rt_leave(rt, find_kernel(rt, func) ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

CUDART_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    return cudaFuncSetCacheConfig(func, config);
}

/* Resident blocks of `func` per SM at `block` threads: the least of the
 * config's CTA, thread, register and shared-memory limits. */
CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned flags)
{
    (void)flags;
    cudart *rt = rt_enter();
    const rt_kernel *k = NULL;
    const ex_func *f = NULL;
    cudaError_t e = kernel_func(rt, func, &k, &f);
    if (e)
        return rt_leave(rt, e);
    if (!numBlocks || blockSize <= 0)
        return rt_leave(rt, cudaErrorInvalidValue);
    const gpu_config *c = &rt->cfg;
    unsigned warps = ((unsigned)blockSize + 31u) / 32u;
    unsigned n = c->core.max_ctas;
    n = MIN(n, c->core.max_threads / (warps * 32u));
    unsigned regs = (unsigned)kernel_regs(f) * warps * 32u;
    if (regs)
        n = MIN(n, c->core.registers / regs);
    uint64_t shared = f->shared_static + dynamicSMemSize;
    if (shared)
        n = (unsigned)MIN((uint64_t)n, c->core.shared_mem / shared);
    *numBlocks = (int)n;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                        const void *func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}
