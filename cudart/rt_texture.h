/* cudart/rt_texture.h — CUDA arrays, texture and surface objects of the
 * drop-in runtime (rt_texture.c, rt_texture_copy.c). */
#ifndef PTXEMU_CUDART_RT_TEXTURE_H
#define PTXEMU_CUDART_RT_TEXTURE_H

#include "cudart/rt.h"

/* The array behind a cudaArray_t / cudaMipmappedArray_t, or NULL when it
 * is not one this runtime handed out. */
ptxemu_array *rt_array(cudart *rt, const void *handle);
/* Forgets every array and object (cudaDeviceReset; the context that goes
 * frees the arrays). */
void rt_texture_reset(cudart *rt);
/* cudaMemcpy3D where srcArray or dstArray is set: a box of
 * width x height x depth (bytes x rows x slices) between an array at
 * (x, y, z) and pitched memory at (mx, my, mz). */
cudaError_t rt_array_copy_3d(cudart *rt, const void *src_array, const void *dst_array,
                             size_t ax, size_t ay, size_t az, void *mem, size_t pitch,
                             size_t ysize, size_t mx, size_t my, size_t mz, size_t width,
                             size_t height, size_t depth, int kind);

#endif
