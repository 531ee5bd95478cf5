/* cudart/rt_memory3d.c — 3-D pitched memory: cudaMalloc3D, cudaMemcpy3D
 * and cudaMemset3D between pitched pointers, slice by slice through the
 * 2-D copy (so every slice's footprint is checked).  A copy with an array
 * side goes to rt_texture_copy.c. */
#include "cudart/rt_copy.h"
#include "cudart/rt_stream.h"
#include "cudart/rt_graph.h"
#include "cudart/rt_texture.h"

#define CUDART_EXPORT __attribute__((visibility("default")))

cudaError_t cudaMalloc(void **devPtr, size_t size);

CUDART_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *p, struct cudaExtent e)
{
    if (!p)
        return cudaMalloc(NULL, 0); /* records cudaErrorInvalidValue */
    size_t pitch = rt_pitch(e.width);
    *p = (struct cudaPitchedPtr){NULL, pitch, e.width, e.height};
    size_t rows = e.height * e.depth;
    if (pitch < e.width || (e.depth && e.height > SIZE_MAX / e.depth) ||
        (rows && pitch > SIZE_MAX / rows))
        return rt_too_large(&p->ptr, "cudaMalloc3D", e.width, e.height, e.depth);
    return cudaMalloc(&p->ptr, pitch * rows);
}

/* Byte address of (pos) in a pitched pointer: x in bytes, rows of
 * `pitch`, slices of pitch * ysize. */
static char *at(const struct cudaPitchedPtr *p, struct cudaPos pos)
{
    return (char *)p->ptr + pos.z * p->pitch * p->ysize + pos.y * p->pitch + pos.x;
}

static cudaError_t copy_3d(cudart *rt, const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return cudaErrorInvalidValue;
    const struct cudaExtent *e = &p->extent;
    if (p->srcArray || p->dstArray) {
        const struct cudaPitchedPtr *m = p->dstArray ? &p->srcPtr : &p->dstPtr;
        const struct cudaPos *ap = p->dstArray ? &p->dstPos : &p->srcPos;
        const struct cudaPos *mp = p->dstArray ? &p->srcPos : &p->dstPos;
        return rt_array_copy_3d(rt, p->srcArray, p->dstArray, ap->x, ap->y, ap->z, m->ptr,
                                m->pitch, m->ysize, mp->x, mp->y, mp->z, e->width, e->height,
                                e->depth, p->kind);
    }
    if (!e->width || !e->height || !e->depth)
        return cudaSuccess;
    if (e->height > p->srcPtr.ysize || e->height > p->dstPtr.ysize)
        return cudaErrorInvalidValue;
    cudaError_t err = cudaSuccess;
    for (size_t z = 0; !err && z < e->depth; z++) {
        struct cudaPos s = p->srcPos, d = p->dstPos;
        s.z += z;
        d.z += z;
        err = rt_copy_2d(rt, at(&p->dstPtr, d), p->dstPtr.pitch, at(&p->srcPtr, s),
                         p->srcPtr.pitch, e->width, e->height, p->kind);
    }
    return err;
}

CUDART_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, copy_3d(rt, p));
}

CUDART_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemcpy3DAsync"));
    return rt_leave(rt, copy_3d(rt, p));
}

static cudaError_t set_3d(cudart *rt, struct cudaPitchedPtr p, int value, struct cudaExtent e)
{
    if (e.height > p.ysize && e.depth > 1)
        return cudaErrorInvalidValue;
    cudaError_t err = cudaSuccess;
    for (size_t z = 0; !err && z < e.depth; z++)
        err = rt_set_2d(rt, (char *)p.ptr + z * p.pitch * p.ysize, p.pitch, value, e.width,
                        e.height);
    return err;
}

CUDART_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent e)
{
    cudart *rt = rt_enter();
    return rt_leave(rt, set_3d(rt, p, value, e));
}

CUDART_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value,
                                            struct cudaExtent e, cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (rt_capturing(rt, s))
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaMemset3DAsync"));
    return rt_leave(rt, set_3d(rt, p, value, e));
}
