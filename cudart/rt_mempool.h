/* cudart/rt_mempool.h — stream-ordered allocation (rt_mempool.c): the
 * hooks the rest of the runtime calls. */
#ifndef PTXEMU_CUDART_RT_MEMPOOL_H
#define PTXEMU_CUDART_RT_MEMPOOL_H

#include "cudart/rt.h"

void rt_pools_init(cudart *rt);
/* cudaDeviceReset: every pool's memory went with the context. */
void rt_pools_reset(cudart *rt);
/* After the host waited for all queued work (rt_wait): frees pending in
 * stream order are complete, and pools above their release threshold
 * give memory back. */
void rt_pools_synced(cudart *rt);
/* cudaFree of a block from a pool: returns it to its pool after the queued
 * work (true, *err set), or false when `p` is not such a block. */
bool rt_pool_free_now(cudart *rt, void *p, cudaError_t *err);

#endif
