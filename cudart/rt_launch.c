/* cudart/rt_launch.c — kernel launches (<<<>>>, cudaLaunchKernel and the
 * CUDA 13 __cudaGetKernel/__cudaLaunchKernel pair), function attributes
 * and occupancy queries.  Launches are queued on their stream (rt_stream.c)
 * once their configuration is checked. */
#include "api/api_internal.h"
#include "cudart/rt.h"
#include "cudart/rt_managed.h"
#include "cudart/rt_stream.h"
#include "cudart/rt_graph.h"

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

static cudaError_t check_config(const cudart *rt, dim3 g, dim3 b)
{
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !threads)
        return cudaErrorInvalidConfiguration;
    if (b.x > MAX_BLOCK_XY || b.y > MAX_BLOCK_XY || b.z > MAX_BLOCK_Z ||
        threads > rt_max_threads_per_block(rt))
        return cudaErrorInvalidConfiguration;
    if (g.x > MAX_GRID_X || g.y > MAX_GRID_YZ || g.z > MAX_GRID_YZ)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

/* The decoded kernel of a registered one (NULL: not in its module). */
static const ex_func *kernel_ex(const rt_kernel *k)
{
    return k->fb->mod ? g_hash_table_lookup(ptxemu_module_ex(k->fb->mod)->kernels, k->name)
                      : NULL;
}

/* Static shared memory the program declared (without ptxemu's reserved
 * region): cudaFuncAttributes.sharedSizeBytes. */
static size_t user_static_shared(const ex_func *f)
{
    return f ? f->shared_static - MIN(f->shared_static, f->shared_reserved) : 0;
}

/* The most dynamic shared memory `f` may opt in to: what the SM's shared
 * memory leaves beside its static part (ptxemu's reserved region
 * included: for an sm_80+ module that is sharedMemPerBlockOptin less
 * sharedSizeBytes). */
static size_t optin_dynamic_shared(const cudart *rt, const ex_func *f)
{
    size_t sm = rt->cfg.core.shared_mem, stat = f ? f->shared_static : 0;
    return sm > stat ? sm - stat : 0;
}

/* The most dynamic shared memory a launch of `k` may ask for: without
 * opt-in what is left of the 48 KiB of a block, with
 * cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) the
 * value set. */
static size_t max_dynamic_shared(const cudart *rt, const rt_kernel *k, const ex_func *f)
{
    if (k->dyn_shared_set)
        return (size_t)k->dyn_shared_max;
    size_t stat = user_static_shared(f), lim = 48 * 1024;
    return MIN(lim > stat ? lim - stat : 0, optin_dynamic_shared(rt, f));
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
    cudaError_t e = check_config(rt, g, b);
    if (e) {
        rt_log(rt, RT_LOG_INFO, "launch of %s: invalid configuration grid (%u,%u,%u) block "
               "(%u,%u,%u) shared %zu", k->name, g.x, g.y, g.z, b.x, b.y, b.z, shared);
        return e;
    }
    /* dynamic shared memory above the function's maximum: CUDA returns
     * cudaErrorInvalidValue */
    size_t dyn_max = max_dynamic_shared(rt, k, kernel_ex(k));
    if (shared > dyn_max) {
        rt_log(rt, RT_LOG_INFO, "launch of %s: %zu bytes of dynamic shared memory, at most %zu%s",
               k->name, shared, dyn_max, k->dyn_shared_set ? "" : " without "
               "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)");
        return cudaErrorInvalidValue;
    }
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    e = rt_capture_begin_op(rt, stream, &cg, &deps);
    if (e)
        return e;
    if (cg) { /* captured: a kernel node with copies of the arguments */
        if (coop)
            return rt_capture_refuse(rt, stream, "cudaLaunchCooperativeKernel");
        rt_gnode *n = NULL;
        e = rt_graph_add(cg, cudaGraphNodeTypeKernel, (const cudaGraphNode_t *)deps->pdata,
                         deps->len, &n);
        if (!e && (e = rt_gnode_set_kernel(rt, n, k, g, b, shared, args)) != cudaSuccess)
            rt_graph_drop_last(cg);
        if (!e)
            rt_capture_added(rt, stream, n);
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

cudaError_t rt_launch_kernel(cudart *rt, const rt_kernel *k, dim3 grid, dim3 block,
                             void **args, size_t shared, cudaStream_t s)
{
    return launch(rt, k, grid, block, args, shared, s, false);
}

cudaError_t rt_kernel_params(const rt_kernel *k, unsigned *n, const uint32_t **sizes)
{
    if (!k->fb->mod)
        return k->fb->load_error ? k->fb->load_error : cudaErrorNoKernelImageForDevice;
    const ex_func *f = kernel_ex(k);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    *n = f->nparams;
    *sizes = f->param_sizes;
    return cudaSuccess;
}

static gboolean is_handle(gpointer key, gpointer value, gpointer handle)
{
    (void)key;
    return value == handle;
}

/* A host stub, or else a cudaKernel_t (__cudaGetKernel's handle), as
 * cudaFuncSetAttribute takes either. */
static rt_kernel *find_kernel_or_handle(const cudart *rt, const void *func)
{
    rt_kernel *k = func ? g_hash_table_lookup(rt->kernels, func) : NULL;
    if (!k && func)
        k = g_hash_table_find(rt->kernels, is_handle, (gpointer)func);
    return k;
}

const rt_kernel *rt_find_kernel(const cudart *rt, const void *func)
{
    return find_kernel_or_handle(rt, func);
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
    const rt_kernel *k = find_kernel_or_handle(rt, func);
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    if (!k->fb->mod)
        return k->fb->load_error ? k->fb->load_error : cudaErrorNoKernelImageForDevice;
    *out = kernel_ex(k);
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
    attr->sharedSizeBytes = user_static_shared(f); /* the user's variables */
    attr->localSizeBytes = f->frame_size;
    attr->numRegs = kernel_regs(f);
    attr->maxThreadsPerBlock = (int)rt_max_threads_per_block(rt);
    if (attr->numRegs)
        attr->maxThreadsPerBlock = (int)MIN((unsigned)attr->maxThreadsPerBlock,
                                            rt->cfg.core.registers / (unsigned)attr->numRegs / 32u * 32u);
    const ptx_module *ir = ptxemu_module_ex(k->fb->mod)->ir;
    attr->ptxVersion = (int)(ir->version_major * 10 + ir->version_minor);
    attr->binaryVersion = (int)k->fb->arch;
    attr->maxDynamicSharedSizeBytes = (int)max_dynamic_shared(rt, k, f);
    attr->preferredShmemCarveout = k->carveout_set ? k->carveout : -1;
    attr->nonPortableClusterSizeAllowed = k->non_portable_cluster;
    attr->clusterSchedulingPolicyPreference = k->cluster_policy;
    return rt_leave(rt, cudaSuccess);
}

/* enum cudaFuncAttribute (driver_types.h) */
#define FUNC_ATTR_MAX_DYNAMIC_SHARED 8
#define FUNC_ATTR_CARVEOUT 9
#define FUNC_ATTR_CLUSTER_DIM_MUST_BE_SET 10
#define FUNC_ATTR_CLUSTER_WIDTH 11
#define FUNC_ATTR_CLUSTER_DEPTH 13
#define FUNC_ATTR_NON_PORTABLE_CLUSTER 14
#define FUNC_ATTR_CLUSTER_POLICY 15

/* The dynamic shared memory opt-in (up to sharedMemPerBlockOptin less
 * the function's static shared memory) and the hints; clusters are not
 * supported (cudaLaunchKernelExC is not), so a required cluster size other
 * than 0 is cudaErrorNotSupported.  A bad value, or an attribute that
 * cannot be written, is cudaErrorInvalidValue (CUDA's code). */
CUDART_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    cudart *rt = rt_enter();
    const rt_kernel *kc = NULL;
    const ex_func *f = NULL;
    cudaError_t e = kernel_func(rt, func, &kc, &f);
    if (e)
        return rt_leave(rt, e);
    rt_kernel *k = (rt_kernel *)kc; /* owned by rt->kernels */
    switch (attr) {
    case FUNC_ATTR_MAX_DYNAMIC_SHARED: {
        size_t most = optin_dynamic_shared(rt, f);
        if (value < 0 || (size_t)value > most) {
            rt_log(rt, RT_LOG_INFO, "cudaFuncSetAttribute(%s, MaxDynamicSharedMemorySize, %d): "
                   "above the opt-in maximum %zu for this function", k->name, value, most);
            return rt_leave(rt, cudaErrorInvalidValue);
        }
        k->dyn_shared_set = true;
        k->dyn_shared_max = value;
        return rt_leave(rt, cudaSuccess);
    }
    case FUNC_ATTR_CARVEOUT: /* a hint: the L1/shared split is the config's */
        if (value < -1 || value > 100)
            return rt_leave(rt, cudaErrorInvalidValue);
        k->carveout_set = true;
        k->carveout = value;
        return rt_leave(rt, cudaSuccess);
    case FUNC_ATTR_CLUSTER_WIDTH:
    case FUNC_ATTR_CLUSTER_WIDTH + 1:
    case FUNC_ATTR_CLUSTER_DEPTH:
        if (value < 0)
            return rt_leave(rt, cudaErrorInvalidValue);
        return rt_leave(rt, value == 0 ? cudaSuccess
                                       : rt_unsupported(rt, "cudaFuncSetAttribute(cluster "
                                                            "dimensions): thread block clusters"));
    case FUNC_ATTR_NON_PORTABLE_CLUSTER:
        if (value != 0 && value != 1)
            return rt_leave(rt, cudaErrorInvalidValue);
        k->non_portable_cluster = value;
        return rt_leave(rt, cudaSuccess);
    case FUNC_ATTR_CLUSTER_POLICY: /* cudaClusterSchedulingPolicy: 0..2 */
        if (value < 0 || value > 2)
            return rt_leave(rt, cudaErrorInvalidValue);
        k->cluster_policy = value;
        return rt_leave(rt, cudaSuccess);
    case FUNC_ATTR_CLUSTER_DIM_MUST_BE_SET: /* read-only */
    default:
        return rt_leave(rt, cudaErrorInvalidValue);
    }
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

/* The most dynamic shared memory each of `numBlocks` blocks of
 * `blockSize` threads may use with that many resident on one SM: 0 when
 * the CTA, thread or register limits do not let that many reside. */
CUDART_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                    const void *func,
                                                                    int numBlocks, int blockSize)
{
    cudart *rt = rt_enter();
    const rt_kernel *k = NULL;
    const ex_func *f = NULL;
    cudaError_t e = kernel_func(rt, func, &k, &f);
    if (e)
        return rt_leave(rt, e);
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0 ||
        (unsigned)blockSize > rt_max_threads_per_block(rt))
        return rt_leave(rt, cudaErrorInvalidValue);
    const gpu_config *c = &rt->cfg;
    uint64_t warps = ((uint64_t)blockSize + 31u) / 32u, nb = (uint64_t)numBlocks;
    uint64_t regs = (uint64_t)kernel_regs(f) * warps * 32u * nb;
    *dynamicSmemSize = 0;
    if (nb > c->core.max_ctas || warps * 32u * nb > c->core.max_threads ||
        regs > c->core.registers)
        return rt_leave(rt, cudaSuccess);
    uint64_t per_block = c->core.shared_mem / nb;
    if (per_block > f->shared_static)
        *dynamicSmemSize = (size_t)(per_block - f->shared_static);
    return rt_leave(rt, cudaSuccess);
}
