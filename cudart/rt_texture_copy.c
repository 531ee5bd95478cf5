/* cudart/rt_texture_copy.c — copies into and out of CUDA arrays:
 * cudaMemcpy2DToArray/FromArray, cudaMemcpyToArray/FromArray (row-major
 * runs), the array-to-array copies, and cudaMemcpy3D with an array side
 * (rt_memory3d.c calls rt_array_copy_3d).  Offsets and widths along x are
 * in bytes, except cudaMemcpy3D's, which count array elements (as in CUDA).  Execution is synchronous (rt.h), so the Async forms
 * check their stream and copy at once. */
#include "cudart/rt_stream.h"
#include "cudart/rt_graph.h"
#include "cudart/rt_texture.h"

#include "runtime/hostmem.h"

#include <stdlib.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

/* Whether the memory side `p` of a copy of `kind` is device memory: the
 * side is the source when `to_array`.  -1 when kind does not fit. */
static int device_side(cudart *rt, const void *p, int kind, bool to_array)
{
    switch (kind) {
    case cudaMemcpyHostToDevice: return to_array ? 0 : -1;
    case cudaMemcpyDeviceToHost: return to_array ? -1 : 0;
    case cudaMemcpyDeviceToDevice: return 1;
    case cudaMemcpyDefault: return rt_device_range(rt, (uint64_t)(uintptr_t)p, 0) ? 1 : 0;
    default: return -1;
    }
}

static cudaError_t copy_box(cudart *rt, ptxemu_array *a, bool to_array, size_t x, size_t y,
                            size_t z, void *mem, size_t pitch, size_t ysize, size_t width,
                            size_t height, size_t depth, int kind)
{
    if (!a)
        return cudaErrorInvalidResourceHandle;
    if (!width || !height || !depth)
        return cudaSuccess;
    if (!mem)
        return cudaErrorInvalidValue;
    int dev = device_side(rt, mem, kind, to_array);
    if (dev < 0)
        return cudaErrorInvalidMemcpyDirection;
    ptxemu_copy_side side = {dev ? NULL : mem, dev ? (uint64_t)(uintptr_t)mem : 0, pitch, ysize};
    ptxemu_status s = ptxemu_array_copy(rt->ctx, a, to_array, x, y, z, &side, width, height,
                                        depth);
    return s == PTXEMU_OK ? cudaSuccess : rt_status(rt, s, "array copy");
}

cudaError_t rt_array_copy_3d(cudart *rt, const void *src_array, const void *dst_array,
                             size_t ax, size_t ay, size_t az, void *mem, size_t pitch,
                             size_t ysize, size_t mx, size_t my, size_t mz, size_t width,
                             size_t height, size_t depth, int kind)
{
    if (src_array && dst_array)
        return rt_unsupported(rt, "cudaMemcpy3D from an array to an array (not supported yet)");
    if (!mem)
        return cudaErrorInvalidValue;
    char *m = (char *)mem + mz * pitch * ysize + my * pitch + mx;
    bool to = dst_array != NULL;
    ptxemu_array *a = rt_array(rt, to ? dst_array : src_array);
    if (!a)
        return cudaErrorInvalidResourceHandle;
    /* the array's position and the extent count its elements (CUDA
     * Runtime API, cudaMemcpy3D); the pointer's position counts bytes */
    ptxemu_channel_desc f;
    ptxemu_array_get_info(a, &f, NULL, NULL, NULL);
    size_t esz = (size_t)(f.x + f.y + f.z + f.w) / 8;
    return copy_box(rt, a, to, ax * esz, ay, az, m, pitch, ysize, width * esz, height, depth,
                    kind);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArray(void *dst, size_t wo, size_t ho, const void *src,
                                              size_t spitch, size_t width, size_t height, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, copy_box(rt, rt_array(rt, dst), true, wo, ho, 0, (void *)src, spitch,
                                 height, width, height, 1, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(void *dst, size_t wo, size_t ho,
                                                   const void *src, size_t spitch, size_t width,
                                                   size_t height, int kind, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpy2DToArrayAsync"));
    return rt_leave(rt, copy_box(rt, rt_array(rt, dst), true, wo, ho, 0, (void *)src, spitch,
                                 height, width, height, 1, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, const void *src,
                                                size_t wo, size_t ho, size_t width,
                                                size_t height, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, copy_box(rt, rt_array(rt, src), false, wo, ho, 0, dst, dpitch, height,
                                 width, height, 1, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, const void *src,
                                                     size_t wo, size_t ho, size_t width,
                                                     size_t height, int kind, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpy2DFromArrayAsync"));
    return rt_leave(rt, copy_box(rt, rt_array(rt, src), false, wo, ho, 0, dst, dpitch, height,
                                 width, height, 1, kind));
}

/* cudaMemcpyToArray/FromArray: `count` bytes from (wo, ho) on, filling the
 * rest of the row and then whole rows. */
static cudaError_t copy_run(cudart *rt, ptxemu_array *a, bool to_array, size_t wo, size_t ho,
                            char *mem, size_t count, int kind)
{
    if (!a)
        return cudaErrorInvalidResourceHandle;
    ptxemu_channel_desc f;
    ptxemu_extent e;
    ptxemu_array_get_info(a, &f, &e, NULL, NULL);
    size_t row = e.width * (size_t)((f.x + f.y + f.z + f.w) / 8);
    while (count) {
        if (wo >= row)
            return cudaErrorInvalidValue;
        size_t n = row - wo < count ? row - wo : count;
        cudaError_t err = copy_box(rt, a, to_array, wo, ho, 0, mem, n, 1, n, 1, 1, kind);
        if (err != cudaSuccess)
            return err;
        mem += n;
        count -= n;
        wo = 0;
        ho++;
    }
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaMemcpyToArray(void *dst, size_t wo, size_t ho, const void *src,
                                            size_t count, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, copy_run(rt, rt_array(rt, dst), true, wo, ho, (char *)src, count, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyToArrayAsync(void *dst, size_t wo, size_t ho,
                                                 const void *src, size_t count, int kind,
                                                 cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpyToArrayAsync"));
    return rt_leave(rt, copy_run(rt, rt_array(rt, dst), true, wo, ho, (char *)src, count, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, const void *src, size_t wo, size_t ho,
                                              size_t count, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, copy_run(rt, rt_array(rt, src), false, wo, ho, dst, count, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void *dst, const void *src, size_t wo,
                                                   size_t ho, size_t count, int kind,
                                                   cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpyFromArrayAsync"));
    return rt_leave(rt, copy_run(rt, rt_array(rt, src), false, wo, ho, dst, count, kind));
}

/* Array to array: through a host buffer (both sides are device memory). */
static cudaError_t array_to_array(cudart *rt, void *dst, size_t dx, size_t dy, const void *src,
                                  size_t sx, size_t sy, size_t width, size_t height, int kind)
{
    ptxemu_array *d = rt_array(rt, dst), *s = rt_array(rt, src);
    if (!d || !s)
        return cudaErrorInvalidResourceHandle;
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (!width || !height)
        return cudaSuccess;
    char *buf = height <= SIZE_MAX / width ? ex_host_alloc(width * height) : NULL;
    if (!buf) {
        rt_log(rt, RT_LOG_WARN, "array to array copy of %zu x %zu bytes: no host memory to "
               "stage it", width, height);
        return cudaErrorMemoryAllocation;
    }
    cudaError_t e = copy_box(rt, s, false, sx, sy, 0, buf, width, height, width, height, 1,
                             cudaMemcpyDeviceToHost);
    if (e == cudaSuccess)
        e = copy_box(rt, d, true, dx, dy, 0, buf, width, height, width, height, 1,
                     cudaMemcpyHostToDevice);
    ex_host_free(buf, width * height);
    return e;
}

CUDART_EXPORT cudaError_t cudaMemcpy2DArrayToArray(void *dst, size_t dx, size_t dy,
                                                   const void *src, size_t sx, size_t sy,
                                                   size_t width, size_t height, int kind)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, array_to_array(rt, dst, dx, dy, src, sx, sy, width, height, kind));
}

CUDART_EXPORT cudaError_t cudaMemcpyArrayToArray(void *dst, size_t dx, size_t dy, const void *src,
                                                 size_t sx, size_t sy, size_t count, int kind)
{
    cudart *rt = rt_enter();
    /* one row run of `count` bytes (CUDA: must fit the rows it spans) */
    return rt_leave(rt, array_to_array(rt, dst, dx, dy, src, sx, sy, count, 1, kind));
}
