/* cudart/rt_mempool.c — stream-ordered allocation: cudaMallocAsync,
 * cudaFreeAsync, cudaMallocFromPoolAsync and memory pools (the device's
 * default pool, pools from cudaMemPoolCreate, their attributes and
 * cudaMemPoolTrimTo).
 *
 * A pool hands out blocks of ptxemu device memory.  cudaMallocAsync gives
 * its pointer at once (usable earlier than CUDA promises, which is allowed);
 * cudaFreeAsync returns the block to its pool, where a later allocation may
 * reuse it: at once on the same stream (stream order puts the free before
 * it), on another stream only once the host has waited for all queued work
 * (the free is then complete; with cudaMemPoolReuseAllowOpportunistic set to
 * 0 not at all), so no queued kernel can still be using a reused block.
 * When the host waits (stream, event or device synchronisation), a pool
 * holding more than its cudaMemPoolAttrReleaseThreshold (default 0) gives
 * completed free blocks back to the device, as CUDA does.  Blocks are
 * rounded up to 256 bytes; UsedMem counts those sizes, ReservedMem the
 * device memory the pool holds.  Not supported: pools of host memory,
 * shareable handles (IPC), access descriptors, cudaMallocAsync in stream
 * capture (memory allocation nodes). */
#include "cudart/rt_mempool.h"
#include "cudart/rt_graph.h"
#include "cudart/rt_stream.h"

/* entry points of other files */
cudaError_t cudaFree(void *devPtr);

#define CUDART_EXPORT __attribute__((visibility("default")))

#define GRANULE 256u
#define ALLOC_TYPE_PINNED 1
#define LOCATION_DEVICE 1

typedef struct pool_block {
    uint64_t ptr;
    uint64_t size;
    ptxemu_stream *freed_on;     /* the stream of the free */
    bool done;                   /* the free is complete (the host waited since) */
} pool_block;

typedef struct rt_pool {
    bool is_default, destroyed;
    uint64_t max_size;           /* 0: the device's memory */
    uint64_t threshold;
    uint64_t reserved, reserved_high, used, used_high;
    int reuse[4];                /* cudaMemPoolReuse* (1..3), default 1 */
    GHashTable *live;            /* device address -> uint64_t* size (owned) */
    GArray *cached;              /* pool_block: freed, kept for reuse */
} rt_pool;

static rt_pool *pool_new(bool is_default)
{
    rt_pool *p = g_new0(rt_pool, 1);
    p->is_default = is_default;
    p->reuse[1] = p->reuse[2] = p->reuse[3] = 1;
    p->live = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    p->cached = g_array_new(FALSE, FALSE, sizeof(pool_block));
    return p;
}

static void pool_free(gpointer v)
{
    rt_pool *p = v;
    g_hash_table_destroy(p->live);
    g_array_free(p->cached, TRUE);
    g_free(p);
}

void rt_pools_init(cudart *rt)
{
    rt->pools = g_hash_table_new_full(g_direct_hash, g_direct_equal, pool_free, NULL);
    rt_pool *d = pool_new(true);
    g_hash_table_add(rt->pools, d);
    rt->default_pool = rt->current_pool = d;
}

static rt_pool *pool_of(const cudart *rt, cudaMemPool_t h)
{
    rt_pool *p = h && g_hash_table_contains(rt->pools, h) ? (rt_pool *)h : NULL;
    return p && !p->destroyed ? p : NULL;
}

/* The device range bookkeeping of rt_memory.c (pointer kinds, copies). */
static void track(cudart *rt, uint64_t base, uint64_t size)
{
    uint64_t *k = g_new(uint64_t, 1);
    *k = base;
    rt_alloc *a = g_new0(rt_alloc, 1);
    a->size = size;
    g_tree_replace(rt->allocs, k, a);
}

static void untrack(cudart *rt, uint64_t base)
{
    g_tree_remove(rt->allocs, &base);
}

/* Gives cached block i back to the device. */
static void release(cudart *rt, rt_pool *p, guint i)
{
    pool_block b = g_array_index(p->cached, pool_block, i);
    g_array_remove_index_fast(p->cached, i);
    if (rt->ctx)
        ptxemu_free(rt->ctx, b.ptr);
    p->reserved -= b.size;
    rt->allocated -= MIN(rt->allocated, b.size);
}

/* Releases completed free blocks while the pool holds more than `keep`. */
static void trim(cudart *rt, rt_pool *p, uint64_t keep)
{
    for (guint i = 0; i < p->cached->len && p->reserved > keep;)
        if (g_array_index(p->cached, pool_block, i).done)
            release(rt, p, i);
        else
            i++;
}

void rt_pools_synced(cudart *rt)
{
    GList *all = g_hash_table_get_keys(rt->pools);
    for (GList *l = all; l; l = l->next) {
        rt_pool *p = l->data;
        for (guint i = 0; i < p->cached->len; i++)
            g_array_index(p->cached, pool_block, i).done = true;
        trim(rt, p, p->destroyed ? 0 : p->threshold);
        if (p->destroyed && !g_hash_table_size(p->live) && !p->cached->len)
            g_hash_table_remove(rt->pools, p);
    }
    g_list_free(all);
}

void rt_pools_reset(cudart *rt)
{
    GList *all = g_hash_table_get_keys(rt->pools);
    for (GList *l = all; l; l = l->next) {
        rt_pool *p = l->data;
        if (p->destroyed) {
            g_hash_table_remove(rt->pools, p);
            continue;
        }
        g_hash_table_remove_all(p->live);
        g_array_set_size(p->cached, 0);
        p->reserved = p->used = 0;
    }
    g_list_free(all);
}

/* The pool holding live block `ptr`, and its size. */
static rt_pool *owner(const cudart *rt, uint64_t ptr, uint64_t *size)
{
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, rt->pools);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        rt_pool *p = k;
        uint64_t *sz = g_hash_table_lookup(p->live, &ptr);
        if (sz) {
            *size = *sz;
            return p;
        }
    }
    return NULL;
}

static void set_live(rt_pool *p, uint64_t ptr, uint64_t size)
{
    uint64_t *k = g_new(uint64_t, 2);
    k[0] = ptr;
    k[1] = size;
    g_hash_table_insert(p->live, k, &k[1]);
    p->used += size;
    p->used_high = MAX(p->used_high, p->used);
}

static cudaError_t pool_alloc(cudart *rt, rt_pool *p, void **out, size_t size, cudaStream_t s,
                              const char *call)
{
    if (!out || !p)
        return cudaErrorInvalidValue;
    if (!rt_stream_valid(rt, s))
        return cudaErrorInvalidResourceHandle;
    if (!rt->ctx)
        return rt->init_error ? rt->init_error : cudaErrorInitializationError;
    if (rt->sticky)
        return rt->sticky;
    if (rt_capturing(rt, s))
        return rt_capture_refuse(rt, s, call);
    cudaError_t e = rt_capture_legacy(rt, s, true);
    if (e)
        return e;
    if (size == 0 || size > UINT64_MAX - GRANULE)
        return cudaErrorInvalidValue;
    uint64_t need = (size + GRANULE - 1) / GRANULE * GRANULE;
    ptxemu_stream *ps = rt_stream_of(rt, s);
    /* the smallest cached block that fits and may be reused now */
    guint best = G_MAXUINT;
    for (guint i = 0; i < p->cached->len; i++) {
        const pool_block *b = &g_array_index(p->cached, pool_block, i);
        bool usable = b->freed_on == ps || (b->done && p->reuse[2]);
        if (usable && b->size >= need && b->size <= 2 * need &&
            (best == G_MAXUINT || b->size < g_array_index(p->cached, pool_block, best).size))
            best = i;
    }
    uint64_t ptr, bsize;
    if (best != G_MAXUINT) {
        pool_block b = g_array_index(p->cached, pool_block, best);
        g_array_remove_index_fast(p->cached, best);
        ptr = b.ptr;
        bsize = b.size;
    } else {
        uint64_t cap = p->max_size ? p->max_size : rt->cfg.limits.device_memory;
        if (p->reserved + need > cap) {
            trim(rt, p, cap > need ? cap - need : 0); /* completed frees first */
            if (p->reserved + need > cap) {
                rt_log(rt, RT_LOG_INFO, "%s(%zu): the pool holds %" G_GUINT64_FORMAT " of at "
                       "most %" G_GUINT64_FORMAT " bytes", call, size, p->reserved, cap);
                return cudaErrorMemoryAllocation;
            }
        }
        ptxemu_dptr d = 0;
        if (ptxemu_malloc(rt->ctx, &d, need) != PTXEMU_OK) {
            rt_log(rt, RT_LOG_INFO, "%s(%zu): %s", call, size, ptxemu_last_error(rt->ctx));
            return cudaErrorMemoryAllocation;
        }
        ptr = d;
        bsize = need;
        p->reserved += need;
        p->reserved_high = MAX(p->reserved_high, p->reserved);
        rt->allocated += need;
    }
    set_live(p, ptr, bsize);
    track(rt, ptr, bsize);
    *out = (void *)(uintptr_t)ptr;
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t s)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, pool_alloc(rt, rt->current_pool, devPtr, size, s, "cudaMallocAsync"));
}

CUDART_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                                  cudaStream_t s)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, pool_alloc(rt, pool_of(rt, pool), ptr, size, s,
                                   "cudaMallocFromPoolAsync"));
}

/* Takes block `ptr` of `p` out of use, into the pool's cache. */
static void to_cache(cudart *rt, rt_pool *p, uint64_t ptr, uint64_t size, ptxemu_stream *ps,
                     bool done)
{
    g_hash_table_remove(p->live, &ptr);
    p->used -= MIN(p->used, size);
    untrack(rt, ptr);
    pool_block b = {ptr, size, ps, done};
    g_array_append_val(p->cached, b);
}

CUDART_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!devPtr)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaFreeAsync"));
    cudaError_t e = rt_capture_legacy(rt, s, true);
    if (e)
        return rt_leave(rt, e);
    uint64_t ptr = (uint64_t)(uintptr_t)devPtr, size = 0;
    rt_pool *p = owner(rt, ptr, &size);
    if (!p) {
        /* cudaMalloc memory: cudaFree waits for the queued work first, so
         * stream order holds */
        rt_alloc *a = rt_alloc_at(rt, ptr);
        if (!a || a->symbol)
            return rt_leave(rt, cudaErrorInvalidValue);
        rt_unlock(rt);
        return cudaFree(devPtr);
    }
    to_cache(rt, p, ptr, size, rt_stream_of(rt, s), false);
    return rt_leave(rt, rt->sticky);
}

bool rt_pool_free_now(cudart *rt, void *devPtr, cudaError_t *err)
{
    uint64_t ptr = (uint64_t)(uintptr_t)devPtr, size = 0;
    rt_pool *p = owner(rt, ptr, &size);
    if (!p)
        return false;
    /* cudaFree synchronises: the block is free once the queued work ran */
    to_cache(rt, p, ptr, size, NULL, false);
    *err = rt_wait(rt, ptxemu_synchronize(rt->ctx), "cudaFree");
    return true;
}

CUDART_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
    cudart *rt = rt_enter();
    if (!pool)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    *pool = (cudaMemPool_t)rt->default_pool;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
    cudart *rt = rt_enter();
    if (!pool)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    *pool = (cudaMemPool_t)rt->current_pool;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool)
{
    cudart *rt = rt_enter();
    if (device != 0)
        return rt_leave(rt, cudaErrorInvalidDevice);
    rt_pool *p = pool_of(rt, pool);
    if (!p)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt->current_pool = p;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool,
                                            const struct cudaMemPoolProps *props)
{
    cudart *rt = rt_enter();
    if (!pool || !props || props->allocType != ALLOC_TYPE_PINNED)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (props->location.type >= 2 && props->location.type <= 4)
        return rt_leave(rt, rt_unsupported(rt, "cudaMemPoolCreate of a host memory pool"));
    if (props->location.type != LOCATION_DEVICE || props->location.id != 0)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (props->handleTypes)
        return rt_leave(rt, rt_unsupported(rt, "cudaMemPoolCreate with shareable handle types "
                                               "(IPC)"));
    rt_pool *p = pool_new(false);
    p->max_size = props->maxSize;
    g_hash_table_add(rt->pools, p);
    *pool = (cudaMemPool_t)p;
    return rt_leave(rt, cudaSuccess);
}

/* Outstanding blocks keep a destroyed pool's memory until they are freed
 * (CUDA's rule); the pool goes once it holds nothing. */
CUDART_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
    cudart *rt = rt_enter();
    rt_pool *p = pool_of(rt, pool);
    if (!p || p->is_default)
        return rt_leave(rt, cudaErrorInvalidValue);
    p->destroyed = true;
    if (rt->current_pool == p)
        rt->current_pool = rt->default_pool;
    trim(rt, p, 0);
    if (!g_hash_table_size(p->live) && !p->cached->len)
        g_hash_table_remove(rt->pools, p);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep)
{
    cudart *rt = rt_enter();
    rt_pool *p = pool_of(rt, pool);
    if (!p)
        return rt_leave(rt, cudaErrorInvalidValue);
    trim(rt, p, minBytesToKeep);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    cudart *rt = rt_enter();
    rt_pool *p = pool_of(rt, pool);
    if (!p || !value)
        return rt_leave(rt, cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        p->reuse[attr] = *(int *)value != 0;
        return rt_leave(rt, cudaSuccess);
    case cudaMemPoolAttrReleaseThreshold:
        p->threshold = *(uint64_t *)value;
        return rt_leave(rt, cudaSuccess);
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: /* may only be reset (to 0) */
        if (*(uint64_t *)value != 0)
            return rt_leave(rt, cudaErrorInvalidValue);
        if (attr == cudaMemPoolAttrReservedMemHigh)
            p->reserved_high = p->reserved;
        else
            p->used_high = p->used;
        return rt_leave(rt, cudaSuccess);
    default: /* the current counters are read-only */
        return rt_leave(rt, cudaErrorInvalidValue);
    }
}

CUDART_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    cudart *rt = rt_enter();
    rt_pool *p = pool_of(rt, pool);
    if (!p || !value)
        return rt_leave(rt, cudaErrorInvalidValue);
    uint64_t v;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        *(int *)value = p->reuse[attr];
        return rt_leave(rt, cudaSuccess);
    case cudaMemPoolAttrReleaseThreshold: v = p->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent: v = p->reserved; break;
    case cudaMemPoolAttrReservedMemHigh: v = p->reserved_high; break;
    case cudaMemPoolAttrUsedMemCurrent: v = p->used; break;
    case cudaMemPoolAttrUsedMemHigh: v = p->used_high; break;
    default: return rt_leave(rt, cudaErrorInvalidValue);
    }
    *(uint64_t *)value = v;
    return rt_leave(rt, cudaSuccess);
}
