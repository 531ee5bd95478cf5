/* cudart/rt_copy.h — the 2-D copy and memset of rt_memory.c, for the 3-D
 * forms (rt_memory3d.c).  Both check the pointers' sides and footprints. */
#ifndef PTXEMU_CUDART_RT_COPY_H
#define PTXEMU_CUDART_RT_COPY_H

#include "cudart/rt.h"

cudaError_t rt_copy_2d(cudart *rt, void *dst, size_t dpitch, const void *src, size_t spitch,
                       size_t width, size_t height, int kind);
cudaError_t rt_set_2d(cudart *rt, void *ptr, size_t pitch, int value, size_t width,
                      size_t height);
/* Row pitch of cudaMallocPitch / cudaMalloc3D for rows of `width` bytes. */
size_t rt_pitch(size_t width);
/* cudaErrorMemoryAllocation for a pitched allocation of width x height x
 * depth bytes (before padding) whose size does not fit in a size_t; says
 * so and clears *devPtr. */
cudaError_t rt_too_large(void **devPtr, const char *call, size_t width, size_t height,
                         size_t depth);

#endif
