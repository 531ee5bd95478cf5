/* cudart/rt_managed.c — managed memory (cudaMallocManaged, __managed__
 * variables) on a device whose memory the host cannot address.
 *
 * Each managed block has a host copy and a device copy.  Between launches
 * the host copy is the data: host code reads and writes it directly, and
 * copies and memsets of the runtime treat a managed pointer as host memory.
 * Every launch copies all managed blocks to the device first and back when
 * it has finished.  Because launches are synchronous this is exactly CUDA's
 * contract for managed memory on devices without concurrent access (the
 * host must not touch managed data while a kernel runs).
 *
 * cudaMallocManaged must return ONE pointer that works on both sides, so
 * its host copy is mapped at the device address itself (mmap with
 * MAP_FIXED_NOREPLACE on a page-aligned part of a device block).  Where
 * that address is taken (under AddressSanitizer, whose shadow covers
 * ptxemu's device window) the call fails with cudaErrorMemoryAllocation
 * and says why.  A __managed__ variable needs no such trick: host code
 * reaches it through the pointer __cudaRegisterManagedVar fills in. */
#include "cudart/rt_managed.h"
#include "cudart/rt_stream.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

typedef struct rt_managed {
    void *host;                  /* the host copy */
    rt_fatbin *fb;               /* a variable: its module and name */
    char *name;
    uint64_t dev;                /* the device copy */
    size_t size;
    uint64_t dev_block;          /* cudaMallocManaged: the device block to free, */
    size_t map_len;              /* and the length of the host mapping; 0: a variable */
    bool host_mapped;            /* cudaHostAlloc(cudaHostAllocMapped): freed by cudaFreeHost */
    bool borrowed;               /* cudaHostRegister(cudaHostRegisterMapped): the host copy is
                                  * the program's own memory, the device copy a mirror */
} rt_managed;

static void managed_free(gpointer p)
{
    rt_managed *m = p;
    if (m->map_len)
        munmap(m->host, m->map_len);
    else if (!m->borrowed)
        g_free(m->host);
    g_free(m->name);
    g_free(m);
}

void rt_managed_init(cudart *rt)
{
    rt->managed = g_ptr_array_new_with_free_func(managed_free);
}

void rt_managed_reset(cudart *rt)
{
    for (guint i = rt->managed->len; i-- > 0;) {
        rt_managed *m = g_ptr_array_index(rt->managed, i);
        size_t bytes = 0;
        ptxemu_dptr dev = 0;
        if (!m->map_len && !m->borrowed && m->fb->mod &&
            ptxemu_module_get_global(m->fb->mod, m->name, &dev, &bytes) == PTXEMU_OK &&
            bytes >= m->size)
            m->dev = dev;
        else
            g_ptr_array_remove_index(rt->managed, i);
    }
}

static const rt_managed *find(const cudart *rt, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    for (guint i = 0; i < rt->managed->len; i++) {
        const rt_managed *m = g_ptr_array_index(rt->managed, i);
        uintptr_t h = (uintptr_t)m->host;
        if (a - h < m->size && m->size - (a - h) >= n)
            return m;
    }
    return NULL;
}

bool rt_managed_range(const cudart *rt, const void *p, size_t n)
{
    return p && find(rt, p, n);
}

bool rt_mapped_host(const cudart *rt, const void *p)
{
    const rt_managed *m = p ? find(rt, p, 0) : NULL;
    return m && m->host_mapped;
}

/* Managed memory proper (cudaMallocManaged, __managed__), not mapped host
 * memory: what cudaMemPrefetchAsync and cudaMemAdvise take. */
static bool managed_proper(const cudart *rt, const void *p, size_t n)
{
    const rt_managed *m = p ? find(rt, p, n) : NULL;
    return m && !m->host_mapped;
}

void rt_managed_to_device(cudart *rt)
{
    for (guint i = 0; i < rt->managed->len; i++) {
        const rt_managed *m = g_ptr_array_index(rt->managed, i);
        (void)ptxemu_memcpy_htod(rt->ctx, m->dev, m->host, m->size);
    }
}

void rt_managed_to_host(cudart *rt)
{
    for (guint i = 0; i < rt->managed->len; i++) {
        const rt_managed *m = g_ptr_array_index(rt->managed, i);
        (void)ptxemu_memcpy_dtoh(rt->ctx, m->host, m->dev, m->size);
    }
}

bool rt_managed_free(cudart *rt, void *p)
{
    for (guint i = 0; i < rt->managed->len; i++) {
        rt_managed *m = g_ptr_array_index(rt->managed, i);
        if (m->host == p && m->map_len && !m->host_mapped) {
            (void)ptxemu_free(rt->ctx, m->dev_block);
            rt->allocated -= MIN(rt->allocated, m->size);
            g_ptr_array_remove_index_fast(rt->managed, i);
            return true;
        }
    }
    return false;
}

/* A block whose host copy is mapped at its device address (the file's
 * comment): one pointer for both sides, synchronised at every launch. */
static cudaError_t map_shared(cudart *rt, void **out, size_t size, bool host_mapped,
                              const char *call)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint64_t dev_mem = rt->cfg.limits.device_memory;
    /* the block is whole pages plus one page of alignment; a size that
     * cannot be the device's would wrap that sum around */
    if (size > dev_mem || size > SIZE_MAX - 2 * page) {
        rt_log(rt, RT_LOG_WARN, "%s(%zu bytes): larger than the device's %llu bytes of memory "
               "(limits.device_memory)", call, size, (unsigned long long)dev_mem);
        return cudaErrorMemoryAllocation;
    }
    size_t map_len = (size + page - 1) / page * page;
    ptxemu_dptr block = 0;
    if (ptxemu_malloc(rt->ctx, &block, map_len + page) != PTXEMU_OK) {
        rt_log(rt, RT_LOG_INFO, "%s(%zu bytes): %s", call, size, ptxemu_last_error(rt->ctx));
        return cudaErrorMemoryAllocation;
    }
    uint64_t at = (block + page - 1) / page * page;
    void *host = mmap((void *)(uintptr_t)at, map_len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (host != (void *)(uintptr_t)at) {
        int err = host == MAP_FAILED ? errno : EEXIST;
        if (host != MAP_FAILED)
            munmap(host, map_len);
        (void)ptxemu_free(rt->ctx, block);
        if (err == EEXIST)
            rt_log(rt, RT_LOG_WARN, "%s(%zu bytes): the device address 0x%llx is in use "
                   "on the host, so no shared mapping can be made there", call, size,
                   (unsigned long long)at);
        else
            rt_log(rt, RT_LOG_WARN, "%s(%zu bytes): cannot map its host copy at 0x%llx: %s",
                   call, size, (unsigned long long)at, g_strerror(err));
        return cudaErrorMemoryAllocation;
    }
    rt_managed *m = g_new0(rt_managed, 1);
    *m = (rt_managed){host, NULL, NULL, at, size, block, map_len, host_mapped, false};
    g_ptr_array_add(rt->managed, m);
    rt->allocated += size;
    *out = host;
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags)
{
    cudart *rt = rt_enter();
    if (!devPtr || !size || (flags != 1 && flags != 2))
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    if (rt->sticky)
        return rt_leave(rt, rt->sticky);
    return rt_leave(rt, map_shared(rt, devPtr, size, false, "cudaMallocManaged"));
}

CUDART_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                            char *deviceAddress, const char *deviceName, int ext,
                                            size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    cudart *rt = rt_enter();
    rt_fatbin *fb = (rt_fatbin *)handle;
    ptxemu_dptr dev = 0;
    size_t bytes = 0;
    if (!fb || !fb->mod || !hostVarPtrAddress ||
        ptxemu_module_get_global(fb->mod, deviceName, &dev, &bytes) != PTXEMU_OK ||
        bytes < size) {
        rt_log(rt, RT_LOG_ERROR, "__managed__ variable %s: not found in the program's PTX",
               deviceName);
        rt_unlock(rt);
        return;
    }
    void *host = g_try_malloc0(MAX(size, 1));
    if (!host) {
        rt_log(rt, RT_LOG_ERROR, "__managed__ variable %s: no host memory for its %zu bytes",
               deviceName, size);
        rt_unlock(rt);
        return;
    }
    rt_managed *m = g_new0(rt_managed, 1);
    *m = (rt_managed){host, fb, g_strdup(deviceName), dev, size, 0, 0, false, false};
    (void)ptxemu_memcpy_dtoh(rt->ctx, m->host, dev, size); /* its initialiser */
    g_ptr_array_add(rt->managed, m);
    *hostVarPtrAddress = m->host;
    rt_unlock(rt);
}

/* Hints about where managed data should live: nothing to move here. */
CUDART_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                               struct cudaMemLocation location, unsigned flags,
                                               cudaStream_t stream)
{
    (void)location, (void)flags, (void)stream;
    cudart *rt = rt_enter();
    return rt_leave(rt, managed_proper(rt, devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                        struct cudaMemLocation location)
{
    (void)advice, (void)location;
    cudart *rt = rt_enter();
    return rt_leave(rt, managed_proper(rt, devPtr, count) ? cudaSuccess : cudaErrorInvalidValue);
}

/* Mapped host memory (cudaHostAlloc with cudaHostAllocMapped) is a block
 * like cudaMallocManaged's: its host pages lie at its device address, so
 * the host pointer is the device pointer, and every launch copies it to
 * the device first and back when it ends.  The device therefore sees the
 * host's writes made before a launch and the host sees the kernel's
 * writes once the launch has finished (coherent at kernel boundaries; not
 * while a kernel runs, so a kernel cannot poll a flag the host sets).
 * The caller (cudaHostAlloc) holds the lock. */
cudaError_t rt_host_alloc_mapped(cudart *rt, void **pHost, size_t size)
{
    if (!rt->ctx)
        return rt->init_error;
    if (rt->sticky)
        return rt->sticky;
    return map_shared(rt, pHost, MAX(size, 1), true, "cudaHostAlloc(cudaHostAllocMapped)");
}

bool rt_mapped_free(cudart *rt, void *p)
{
    for (guint i = 0; i < rt->managed->len; i++) {
        rt_managed *m = g_ptr_array_index(rt->managed, i);
        if (m->host == p && m->host_mapped && !m->borrowed) {
            (void)rt_wait(rt, ptxemu_synchronize(rt->ctx), "cudaFreeHost");
            (void)ptxemu_free(rt->ctx, m->dev_block);
            rt->allocated -= MIN(rt->allocated, m->size);
            g_ptr_array_remove_index_fast(rt->managed, i);
            return true;
        }
    }
    return false;
}

/* Registered host memory mapped for the device
 * (cudaHostRegister(cudaHostRegisterMapped)) cannot be moved to a device
 * address: the program owns it.  Its device copy is a mirror, a device
 * block of its size, synchronised like the blocks above (to the device
 * before every launch, back after it), so its device pointer differs from
 * the host pointer (canUseHostPointerForRegisteredMem 0).  Copies given
 * the mirror's address act on the host copy (rt_mapped_mirror_host), which
 * holds the data between launches.  The caller holds the lock. */
cudaError_t rt_register_mapped(cudart *rt, void *host, size_t size)
{
    if (!rt->ctx)
        return rt->init_error;
    if (rt->sticky)
        return rt->sticky;
    ptxemu_dptr block = 0;
    if (size > rt->cfg.limits.device_memory ||
        ptxemu_malloc(rt->ctx, &block, size) != PTXEMU_OK) {
        rt_log(rt, RT_LOG_WARN, "cudaHostRegister(%zu bytes, cudaHostRegisterMapped): no device "
               "memory for its device copy (limits.device_memory %llu bytes)", size,
               (unsigned long long)rt->cfg.limits.device_memory);
        return cudaErrorMemoryAllocation;
    }
    rt_managed *m = g_new0(rt_managed, 1);
    *m = (rt_managed){host, NULL, NULL, block, size, block, 0, true, true};
    g_ptr_array_add(rt->managed, m);
    rt->allocated += size;
    return cudaSuccess;
}

bool rt_unregister_mapped(cudart *rt, void *host)
{
    for (guint i = 0; i < rt->managed->len; i++) {
        rt_managed *m = g_ptr_array_index(rt->managed, i);
        if (m->host == host && m->borrowed) {
            (void)rt_wait(rt, ptxemu_synchronize(rt->ctx), "cudaHostUnregister");
            (void)ptxemu_free(rt->ctx, m->dev_block);
            rt->allocated -= MIN(rt->allocated, m->size);
            g_ptr_array_remove_index_fast(rt->managed, i);
            return true;
        }
    }
    return false;
}

void *rt_mapped_device(const cudart *rt, const void *p)
{
    const rt_managed *m = p ? find(rt, p, 0) : NULL;
    if (!m || !m->host_mapped)
        return NULL;
    return (void *)(uintptr_t)(m->dev + ((uintptr_t)p - (uintptr_t)m->host));
}

void *rt_mapped_mirror_host(const cudart *rt, const void *p, size_t n)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    for (guint i = 0; p && i < rt->managed->len; i++) {
        const rt_managed *m = g_ptr_array_index(rt->managed, i);
        if (m->borrowed && a - m->dev < m->size && m->size - (a - m->dev) >= n)
            return (char *)m->host + (a - m->dev);
    }
    return (void *)p;
}

/* The device pointer of mapped host memory: the host pointer itself for
 * cudaHostAlloc(cudaHostAllocMapped), the mirror's address for registered
 * memory.  Host memory that is not mapped (cudaMallocHost, cudaHostAlloc
 * without cudaHostAllocMapped, cudaHostRegister without
 * cudaHostRegisterMapped) cannot be reached by a kernel here:
 * cudaErrorNotSupported, named on stderr. */
CUDART_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned flags)
{
    cudart *rt = rt_enter();
    if (!pDevice || !pHost || flags)
        return rt_leave(rt, cudaErrorInvalidValue);
    void *dev = rt_mapped_device(rt, pHost);
    if (!dev)
        return rt_leave(rt, rt_unsupported(rt, "cudaHostGetDevicePointer of host memory not "
                                               "allocated with cudaHostAlloc(cudaHostAllocMapped) "
                                               "or registered with cudaHostRegisterMapped"));
    *pDevice = dev;
    return rt_leave(rt, cudaSuccess);
}
