/* api/heap_limit.c — the device heap of malloc in kernels as a context
 * setting (CUDA's cudaDeviceSetLimit(cudaLimitMallocHeapSize); the config
 * key limits.malloc_heap gives the default). */
#include "api/api_ctx.h"
ptxemu_status ptxemu_set_malloc_heap(ptxemu_ctx *ctx, uint64_t bytes)
{
    if (!ctx || bytes < 16)
        return PTXEMU_ERR_INVALID_VALUE;
    if (ctx->mem.heap_base)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "the device malloc heap cannot change "
                        "after a kernel has used it");
    ctx->mem.heap_size = bytes;
    ctx->opts.malloc_heap = bytes;
    return api_ok(ctx);
}

uint64_t ptxemu_malloc_heap(const ptxemu_ctx *ctx)
{
    return ctx ? ctx->mem.heap_size : 0;
}
