/* cudart/rt_memory.c — device and pinned host memory: allocation, copies
 * (1D, 2D, to and from symbols), memsets, pointer attributes.  The 1D and
 * 2D async forms are queued on their stream; a host-to-host part of one
 * (host or managed memory on both sides) waits for the queued work and is
 * done at once, as are the async symbol copies (an order CUDA allows).  Which side a pointer is on comes from the live
 * device ranges (rt->allocs), so cudaMemcpyDefault works and a copy whose
 * direction contradicts its pointers fails with cudaErrorInvalidValue.  A
 * managed pointer may stand on either side; between launches its data is
 * its host copy (rt_managed.c), so it is copied as host memory. */
#include "cudart/rt.h"
#include "cudart/rt_copy.h"
#include "cudart/rt_managed.h"
#include "cudart/rt_stream.h"
#include "cudart/rt_graph.h"
#include "cudart/rt_mempool.h"

#include "runtime/hostmem.h"

#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

/* Row pitch of cudaMallocPitch: rows start on this boundary (the
 * texturePitchAlignment the device reports). */
#define PITCH_ALIGN 256u

size_t rt_pitch(size_t width)
{
    return (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
}

cudaError_t rt_too_large(void **devPtr, const char *call, size_t width, size_t height,
                         size_t depth)
{
    cudart *rt = rt_enter();
    if (devPtr)
        *devPtr = NULL;
    rt_log(rt, RT_LOG_WARN, "%s(%zu x %zu x %zu bytes): the size does not fit in 64 bits", call,
           width, height, depth);
    return rt_leave(rt, cudaErrorMemoryAllocation);
}

static uint64_t dp(const void *p) { return (uint64_t)(uintptr_t)p; }

static void track(cudart *rt, uint64_t base, uint64_t size, bool symbol)
{
    uint64_t *k = g_new(uint64_t, 1);
    *k = base;
    rt_alloc *a = g_new(rt_alloc, 1);
    a->size = size;
    a->symbol = symbol;
    g_tree_replace(rt->allocs, k, a);
}

static cudaError_t ready(const cudart *rt)
{
    if (!rt->ctx)
        return rt->init_error ? rt->init_error : cudaErrorInitializationError;
    return rt->sticky;
}

CUDART_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    cudart *rt = rt_enter();
    if (!devPtr)
        return rt_leave(rt, cudaErrorInvalidValue);
    cudaError_t e = ready(rt);
    if (!e)
        e = rt_capture_unsafe_call(rt, "cudaMalloc");
    if (e)
        return rt_leave(rt, e);
    if (size == 0) {
        *devPtr = NULL;
        return rt_leave(rt, cudaSuccess);
    }
    ptxemu_dptr p = 0;
    ptxemu_status s = ptxemu_malloc(rt->ctx, &p, size);
    if (s != PTXEMU_OK) {
        rt_log(rt, RT_LOG_INFO, "cudaMalloc(%zu): %s", size, ptxemu_last_error(rt->ctx));
        return rt_leave(rt, cudaErrorMemoryAllocation);
    }
    track(rt, p, size, false);
    rt->allocated += size;
    *devPtr = (void *)(uintptr_t)p;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return cudaMalloc(NULL, 0);
    *pitch = rt_pitch(width);
    if (*pitch < width || (height && *pitch > SIZE_MAX / height))
        return rt_too_large(devPtr, "cudaMallocPitch", width, height, 1);
    return cudaMalloc(devPtr, *pitch * height);
}

CUDART_EXPORT cudaError_t cudaFree(void *devPtr)
{
    cudart *rt = rt_enter();
    if (!devPtr)
        return rt_leave(rt, cudaSuccess);
    cudaError_t e = ready(rt);
    if (!e)
        e = rt_capture_unsafe_call(rt, "cudaFree");
    if (e)
        return rt_leave(rt, e);
    if (rt_pool_free_now(rt, devPtr, &e))
        return rt_leave(rt, e);
    if (rt_managed_free(rt, devPtr))
        return rt_leave(rt, cudaSuccess);
    rt_alloc *a = rt_alloc_at(rt, dp(devPtr));
    if (!a || a->symbol)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt->allocated -= a->size;
    uint64_t key = dp(devPtr);
    g_tree_remove(rt->allocs, &key);
    return rt_leave(rt, rt_status(rt, ptxemu_free(rt->ctx, key), "cudaFree"));
}

static cudaError_t host_alloc(void **pHost, size_t size, unsigned flags, const char *call)
{
    cudart *rt = rt_enter();
    if (!pHost)
        return rt_leave(rt, cudaErrorInvalidValue);
    /* page-locked memory stays resident: never more than the machine has */
    uint64_t phys = rt_host_memory();
    if (flags & 2u) { /* cudaHostAllocMapped: rt_managed.c */
        if (size > phys) {
            rt_log(rt, RT_LOG_WARN, "%s(%zu bytes): more than the host's physical memory, "
                   "which page-locked memory must fit in", call, size);
            *pHost = NULL;
            return rt_leave(rt, cudaErrorMemoryAllocation);
        }
        return rt_leave(rt, rt_host_alloc_mapped(rt, pHost, size));
    }
    /* not from malloc when large (runtime/hostmem.h): natively page-locked
     * memory is no part of the program's heap either */
    void *p = size <= phys ? ex_host_alloc0(MAX(size, 1)) : NULL;
    if (!p) {
        rt_log(rt, RT_LOG_WARN, "%s(%zu bytes): %s", call, size,
               size > phys ? "more than the host's physical memory, which page-locked memory "
                             "must fit in"
                           : "the host has no memory for it");
        *pHost = NULL;
        return rt_leave(rt, cudaErrorMemoryAllocation);
    }
    *pHost = p;
    g_hash_table_insert(rt->host_allocs, *pHost, GSIZE_TO_POINTER(size));
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags)
{
    return host_alloc(pHost, size, flags, "cudaHostAlloc");
}

CUDART_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return host_alloc(ptr, size, 0, "cudaMallocHost");
}

CUDART_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    cudart *rt = rt_enter();
    if (!ptr || rt_mapped_free(rt, ptr))
        return rt_leave(rt, cudaSuccess);
    gpointer size;
    if (!g_hash_table_lookup_extended(rt->host_allocs, ptr, NULL, &size))
        return rt_leave(rt, cudaErrorInvalidValue);
    g_hash_table_remove(rt->host_allocs, ptr);
    ex_host_free(ptr, MAX(GPOINTER_TO_SIZE(size), 1));
    return rt_leave(rt, cudaSuccess);
}

/* Page-locking changes nothing here (host memory is copied directly), but
 * the ranges are remembered: a range overlapping a registered one is
 * cudaErrorHostMemoryAlreadyRegistered, and cudaHostUnregister takes only
 * a registered base (cudaErrorHostMemoryNotRegistered otherwise). */
CUDART_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags)
{
    cudart *rt = rt_enter();
    uintptr_t a = (uintptr_t)ptr;
    /* Default 0, Portable 1, Mapped 2, IoMemory 4, ReadOnly 8 */
    if (!ptr || !size || size > UINTPTR_MAX - a || (flags & ~0xfu))
        return rt_leave(rt, cudaErrorInvalidValue);
    if (flags & 4u)
        return rt_leave(rt, rt_unsupported(rt, "cudaHostRegister(cudaHostRegisterIoMemory): "
                                               "there is no I/O memory to map here"));
    GHashTableIter it;
    gpointer base, len;
    g_hash_table_iter_init(&it, rt->host_registered);
    while (g_hash_table_iter_next(&it, &base, &len))
        if (a < (uintptr_t)base + GPOINTER_TO_SIZE(len) && (uintptr_t)base < a + size)
            return rt_leave(rt, cudaErrorHostMemoryAlreadyRegistered);
    if (flags & 2u) { /* cudaHostRegisterMapped: a device mirror (rt_managed.c) */
        cudaError_t e = rt_register_mapped(rt, ptr, size);
        if (e)
            return rt_leave(rt, e);
    }
    g_hash_table_insert(rt->host_registered, ptr, GSIZE_TO_POINTER(size));
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    cudart *rt = rt_enter();
    if (!ptr)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!g_hash_table_remove(rt->host_registered, ptr))
        return rt_leave(rt, cudaErrorHostMemoryNotRegistered);
    (void)rt_unregister_mapped(rt, ptr);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudart *rt = rt_enter();
    if (!free_bytes || !total)
        return rt_leave(rt, cudaErrorInvalidValue);
    *total = rt->cfg.limits.device_memory;
    *free_bytes = *total - MIN(*total, rt->allocated);
    return rt_leave(rt, cudaSuccess);
}

/* Where a copy or memset goes: now (sync), or queued on `stream`. */
typedef struct rt_when {
    bool async;
    cudaStream_t stream;
} rt_when;
static const rt_when NOW = {false, NULL};

/* One copy whose sides are known: dd / sd say dst / src are device. */
static cudaError_t raw_copy(cudart *rt, void *dst, bool dd, const void *src, bool sd, size_t n,
                            rt_when w)
{
    ptxemu_status s = PTXEMU_OK;
    ptxemu_stream *ps = w.async ? rt_stream_of(rt, w.stream) : NULL;
    if (dd && sd)
        s = w.async ? ptxemu_memcpy_dtod_async(rt->ctx, dp(dst), dp(src), n, ps)
                    : ptxemu_memcpy_dtod(rt->ctx, dp(dst), dp(src), n);
    else if (dd)
        s = w.async ? ptxemu_memcpy_htod_async(rt->ctx, dp(dst), src, n, ps)
                    : ptxemu_memcpy_htod(rt->ctx, dp(dst), src, n);
    else if (sd)
        s = w.async ? ptxemu_memcpy_dtoh_async(rt->ctx, dst, dp(src), n, ps)
                    : ptxemu_memcpy_dtoh(rt->ctx, dst, dp(src), n);
    else if (w.async && (s = ptxemu_synchronize(rt->ctx)) != PTXEMU_OK)
        return rt_wait(rt, s, "cudaMemcpyAsync");
    else
        memmove(dst, src, n);
    return rt_status(rt, s, w.async ? "cudaMemcpyAsync" : "cudaMemcpy");
}

/* Which sides are device for `kind`; an error when a pointer is not on
 * the side the kind says (or, for the device side, out of its range). */
static cudaError_t sides(const cudart *rt, const void *dst, size_t dn, const void *src, size_t sn,
                         int kind, bool *dd, bool *sd)
{
    bool dev_dst = rt_device_range(rt, dp(dst), dn), dev_src = rt_device_range(rt, dp(src), sn);
    bool man_dst = rt_managed_range(rt, dst, dn), man_src = rt_managed_range(rt, src, sn);
    switch (kind) {
    case cudaMemcpyHostToHost: *dd = false, *sd = false; break;
    case cudaMemcpyHostToDevice: *dd = true, *sd = false; break;
    case cudaMemcpyDeviceToHost: *dd = false, *sd = true; break;
    case cudaMemcpyDeviceToDevice: *dd = true, *sd = true; break;
    case cudaMemcpyDefault: *dd = dev_dst, *sd = dev_src; return cudaSuccess;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if ((*dd && !dev_dst && !man_dst) || (*sd && !dev_src && !man_src) || !dst || !src)
        return cudaErrorInvalidValue;
    *dd = *dd && !man_dst;
    *sd = *sd && !man_src;
    return cudaSuccess;
}

/* Work for the legacy stream (a synchronous call) while a blocking stream
 * captures: cudaErrorStreamCaptureImplicit. */
static cudaError_t sync_call(cudart *rt, rt_when w)
{
    return w.async ? cudaSuccess : rt_capture_legacy(rt, NULL, true);
}

static cudaError_t copy(cudart *rt, void *dst, const void *src, size_t n, int kind, rt_when w)
{
    cudaError_t e = ready(rt);
    if (!e)
        e = sync_call(rt, w);
    if (e || n == 0)
        return e;
    bool dd, sd;
    /* a registered range's device mirror: its host copy holds the data */
    dst = rt_mapped_mirror_host(rt, dst, n);
    src = rt_mapped_mirror_host(rt, src, n);
    e = sides(rt, dst, n, src, n, kind, &dd, &sd);
    return e ? e : raw_copy(rt, dst, dd, src, sd, n, w);
}

CUDART_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, copy(rt, dst, src, count, kind, NOW));
}

/* A captured copy or memset: a node after the stream's current set. */
static cudaError_t capture_copy(cudart *rt, cudaStream_t s, rt_graph *g, GPtrArray *deps,
                                const struct cudaMemcpy3DParms *cp,
                                const struct cudaMemsetParams *sp)
{
    rt_gnode *n = NULL;
    cudaError_t e = rt_graph_add(g, cp ? cudaGraphNodeTypeMemcpy : cudaGraphNodeTypeMemset,
                                 (const cudaGraphNode_t *)deps->pdata, deps->len, &n);
    if (e)
        return e;
    e = cp ? rt_gnode_set_copy(rt, n, cp) : rt_gnode_set_memset(rt, n, sp);
    if (e)
        rt_graph_drop_last(g);
    else
        rt_capture_added(rt, s, n);
    return e;
}

static cudaError_t capture_copy_2d(cudart *rt, cudaStream_t s, rt_graph *g, GPtrArray *deps,
                                   void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, int kind)
{
    struct cudaMemcpy3DParms p = {0};
    p.srcPtr = (struct cudaPitchedPtr){(void *)src, spitch, width, height};
    p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, width, height};
    p.extent = (struct cudaExtent){width, height, 1};
    p.kind = kind;
    return capture_copy(rt, s, g, deps, &p, NULL);
}

cudaError_t rt_copy_async(cudart *rt, void *dst, const void *src, size_t n, int kind,
                          cudaStream_t s)
{
    return copy(rt, dst, src, n, kind, (rt_when){true, s});
}

CUDART_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                          cudaStream_t stream)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, stream))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    cudaError_t e = rt_capture_begin_op(rt, stream, &cg, &deps);
    if (e || cg)
        return rt_leave(rt, e ? e : capture_copy_2d(rt, stream, cg, deps, dst, count, src, count,
                                                    count, 1, kind));
    return rt_leave(rt, copy(rt, dst, src, count, kind, (rt_when){true, stream}));
}

/* Bytes from the first to the last byte of `height` rows of `width` bytes
 * `pitch` apart (width <= pitch); false when that does not fit a size_t. */
static bool footprint(size_t pitch, size_t width, size_t height, size_t *out)
{
    if (height > 1 && pitch > (SIZE_MAX - width) / (height - 1))
        return false;
    *out = pitch * (height - 1) + width;
    return true;
}

static cudaError_t copy_2d(cudart *rt, void *dst, size_t dpitch, const void *src, size_t spitch,
                           size_t width, size_t height, int kind, rt_when w)
{
    cudaError_t e = ready(rt);
    if (!e)
        e = sync_call(rt, w);
    if (e || !width || !height)
        return e;
    if (width > dpitch || width > spitch)
        return cudaErrorInvalidPitchValue;
    bool dd, sd;
    size_t dn, sn;
    if (!footprint(dpitch, width, height, &dn) || !footprint(spitch, width, height, &sn))
        return cudaErrorInvalidValue;
    dst = rt_mapped_mirror_host(rt, dst, dn);
    src = rt_mapped_mirror_host(rt, src, sn);
    /* the whole footprint of each side must be on that side */
    e = sides(rt, dst, dn, src, sn, kind, &dd, &sd);
    for (size_t r = 0; !e && r < height; r++)
        e = raw_copy(rt, (char *)dst + r * dpitch, dd, (const char *)src + r * spitch, sd, width,
                     w);
    return e;
}

cudaError_t rt_copy_2d(cudart *rt, void *dst, size_t dpitch, const void *src, size_t spitch,
                       size_t width, size_t height, int kind)
{
    return copy_2d(rt, dst, dpitch, src, spitch, width, height, kind, NOW);
}

CUDART_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                       size_t width, size_t height, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, rt_copy_2d(rt, dst, dpitch, src, spitch, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                            size_t spitch, size_t width, size_t height, int kind,
                                            cudaStream_t stream)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, stream))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    cudaError_t e = rt_capture_begin_op(rt, stream, &cg, &deps);
    if (e || cg)
        return rt_leave(rt, e ? e : capture_copy_2d(rt, stream, cg, deps, dst, dpitch, src,
                                                    spitch, width, height, kind));
    return rt_leave(rt, copy_2d(rt, dst, dpitch, src, spitch, width, height, kind,
                                (rt_when){true, stream}));
}

cudaError_t rt_copy_2d_async(cudart *rt, void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height, int kind,
                             cudaStream_t s)
{
    return copy_2d(rt, dst, dpitch, src, spitch, width, height, kind, (rt_when){true, s});
}

static cudaError_t set_2d(cudart *rt, void *ptr, size_t pitch, int value, size_t width,
                          size_t height, rt_when w)
{
    cudaError_t e = ready(rt);
    if (!e)
        e = sync_call(rt, w);
    if (e || !width || !height)
        return e;
    size_t n = 0;
    if (width <= pitch && !footprint(pitch, width, height, &n))
        return cudaErrorInvalidValue;
    if (width <= pitch && rt_managed_range(rt, ptr, n)) {
        if (w.async && (e = rt_wait(rt, ptxemu_synchronize(rt->ctx), "cudaMemsetAsync")))
            return e;
        for (size_t r = 0; r < height; r++)
            memset((char *)ptr + r * pitch, value, width);
        return cudaSuccess;
    }
    if (width > pitch || !rt_device_range(rt, dp(ptr), n))
        return width > pitch ? cudaErrorInvalidPitchValue : cudaErrorInvalidValue;
    ptxemu_stream *ps = w.async ? rt_stream_of(rt, w.stream) : NULL;
    for (size_t r = 0; !e && r < height; r++) {
        uint64_t row = dp(ptr) + r * pitch;
        e = rt_status(rt, w.async ? ptxemu_memset_async(rt->ctx, row, value, width, ps)
                                  : ptxemu_memset(rt->ctx, row, value, width), "cudaMemset");
    }
    return e;
}

cudaError_t rt_set_2d(cudart *rt, void *ptr, size_t pitch, int value, size_t width,
                      size_t height)
{
    return set_2d(rt, ptr, pitch, value, width, height, NOW);
}

CUDART_EXPORT cudaError_t cudaMemset(void *ptr, int value, size_t count)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, rt_set_2d(rt, ptr, count, value, count, 1));
}

cudaError_t rt_set_2d_async(cudart *rt, void *ptr, size_t pitch, int value, size_t width,
                            size_t height, cudaStream_t s)
{
    return set_2d(rt, ptr, pitch, value, width, height, (rt_when){true, s});
}

CUDART_EXPORT cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width,
                                            size_t height, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    cudaError_t e = rt_capture_begin_op(rt, s, &cg, &deps);
    if (e || cg) {
        struct cudaMemsetParams p = {ptr, pitch, (unsigned char)value, 1, width, height};
        return rt_leave(rt, e ? e : capture_copy(rt, s, cg, deps, NULL, &p));
    }
    return rt_leave(rt, set_2d(rt, ptr, pitch, value, width, height, (rt_when){true, s}));
}

CUDART_EXPORT cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t s)
{
    return cudaMemset2DAsync(ptr, count, value, count, 1, s);
}

CUDART_EXPORT cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width,
                                       size_t height)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, rt_set_2d(rt, ptr, pitch, value, width, height));
}

/* The device address and size of a registered variable. */
static cudaError_t symbol(cudart *rt, const void *sym, uint64_t *addr, size_t *size)
{
    cudaError_t e = ready(rt);
    if (e)
        return e;
    const rt_var *v = sym ? g_hash_table_lookup(rt->vars, sym) : NULL;
    if (!v)
        return cudaErrorInvalidSymbol;
    if (!v->fb->mod)
        return v->fb->load_error ? v->fb->load_error : cudaErrorInvalidSymbol;
    ptxemu_dptr a = 0;
    size_t n = 0;
    if (ptxemu_module_get_global(v->fb->mod, v->name, &a, &n) != PTXEMU_OK)
        return cudaErrorInvalidSymbol;
    *addr = a;
    *size = n;
    return cudaSuccess;
}

static cudaError_t symbol_copy(cudart *rt, const void *sym, void *host, size_t count,
                               size_t offset, int kind, bool to_symbol)
{
    uint64_t addr;
    size_t size;
    cudaError_t e = symbol(rt, sym, &addr, &size);
    if (e)
        return e;
    if (offset > size || count > size - offset)
        return cudaErrorInvalidValue;
    int other = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != other && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    bool host_dev = kind == cudaMemcpyDeviceToDevice ||
                    (kind == cudaMemcpyDefault && rt_device_range(rt, dp(host), count));
    if (kind == cudaMemcpyDeviceToDevice && !rt_device_range(rt, dp(host), count))
        return cudaErrorInvalidValue;
    if (!count)
        return cudaSuccess;
    void *dev = (void *)(uintptr_t)(addr + offset);
    return to_symbol ? raw_copy(rt, dev, true, host, host_dev, count, NOW)
                     : raw_copy(rt, host, host_dev, dev, true, count, NOW);
}

CUDART_EXPORT cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t count,
                                             size_t offset, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, symbol_copy(rt, sym, (void *)src, count, offset, kind, true));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t count,
                                               size_t offset, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, symbol_copy(rt, sym, dst, count, offset, kind, false));
}

CUDART_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t count,
                                                  size_t offset, int kind, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpyToSymbolAsync"));
    return rt_leave(rt, symbol_copy(rt, sym, (void *)src, count, offset, kind, true));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t count,
                                                    size_t offset, int kind, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpyFromSymbolAsync"));
    return rt_leave(rt, symbol_copy(rt, sym, dst, count, offset, kind, false));
}

CUDART_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym)
{
    cudart *rt = rt_enter();
    uint64_t addr;
    size_t size;
    cudaError_t e = devPtr ? symbol(rt, sym, &addr, &size) : cudaErrorInvalidValue;
    if (e)
        return rt_leave(rt, e);
    /* the program may now copy to it like to a cudaMalloc block */
    if (!rt_alloc_at(rt, addr))
        track(rt, addr, size, true);
    *devPtr = (void *)(uintptr_t)addr;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
    cudart *rt = rt_enter();
    uint64_t addr;
    cudaError_t e = size ? symbol(rt, sym, &addr, size) : cudaErrorInvalidValue;
    return rt_leave(rt, e);
}

CUDART_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr,
                                                   const void *ptr)
{
    cudart *rt = rt_enter();
    if (!attr)
        return rt_leave(rt, cudaErrorInvalidValue);
    memset(attr, 0, sizeof *attr);
    void *mirrored = rt_mapped_mirror_host(rt, ptr, 0);
    if (mirrored != ptr) { /* the device mirror of registered mapped memory */
        attr->type = cudaMemoryTypeHost;
        attr->device = rt->device;
        attr->devicePointer = (void *)ptr;
        attr->hostPointer = mirrored;
    } else if (rt_mapped_host(rt, ptr)) { /* mapped host memory */
        attr->type = cudaMemoryTypeHost;
        attr->device = rt->device;
        attr->devicePointer = rt_mapped_device(rt, ptr);
        attr->hostPointer = (void *)ptr;
    } else if (rt_managed_range(rt, ptr, 0)) {
        attr->type = cudaMemoryTypeManaged;
        attr->device = rt->device;
        attr->devicePointer = attr->hostPointer = (void *)ptr;
    } else if (ptr && rt_device_range(rt, dp(ptr), 0)) {
        attr->type = cudaMemoryTypeDevice;
        attr->device = rt->device;
        attr->devicePointer = (void *)ptr;
    } else if (ptr && g_hash_table_contains(rt->host_allocs, ptr)) {
        attr->type = cudaMemoryTypeHost;
        attr->device = rt->device;
        attr->hostPointer = (void *)ptr;
    } else {
        attr->type = cudaMemoryTypeUnregistered;
        attr->device = rt->device;
        attr->hostPointer = (void *)ptr;
    }
    return rt_leave(rt, cudaSuccess);
}
