/* cudart/rt_managed.h — managed memory: host copies synchronised around
 * every launch (rt_managed.c explains the scheme). */
#ifndef PTXEMU_CUDART_RT_MANAGED_H
#define PTXEMU_CUDART_RT_MANAGED_H

#include "cudart/rt.h"

void rt_managed_init(cudart *rt);
/* cudaDeviceReset: drops cudaMallocManaged blocks; __managed__ variables
 * keep their host copy and are found again in the reloaded modules. */
void rt_managed_reset(cudart *rt);
/* Whether [p, p+n) lies in one managed block (its host copy). */
bool rt_managed_range(const cudart *rt, const void *p, size_t n);
/* Before a launch: host copies to the device; after it: back. */
void rt_managed_to_device(cudart *rt);
void rt_managed_to_host(cudart *rt);
/* cudaFree of a cudaMallocManaged block; false when p is not one. */
bool rt_managed_free(cudart *rt, void *p);
/* Mapped host memory (cudaHostAlloc with cudaHostAllocMapped): a block
 * like a managed one, whose device pointer is its host pointer. */
cudaError_t rt_host_alloc_mapped(cudart *rt, void **pHost, size_t size);
/* Frees it (cudaFreeHost); false: p is no such block. */
bool rt_mapped_free(cudart *rt, void *p);
/* Whether p lies in such a block. */
bool rt_mapped_host(const cudart *rt, const void *p);
/* cudaHostRegister(cudaHostRegisterMapped): a device mirror of the
 * program's range; rt_unregister_mapped drops it (false: none there). */
cudaError_t rt_register_mapped(cudart *rt, void *host, size_t size);
bool rt_unregister_mapped(cudart *rt, void *host);
/* A pointer into a registered range's device mirror as the host pointer it
 * mirrors (n bytes must fit); any other pointer unchanged. */
void *rt_mapped_mirror_host(const cudart *rt, const void *p, size_t n);
/* The device pointer of mapped host memory at p; NULL: p is not mapped. */
void *rt_mapped_device(const cudart *rt, const void *p);

#endif
