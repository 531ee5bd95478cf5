/* api/coop.c — cooperative launches (CUDA's cudaLaunchCooperativeKernel):
 * every CTA resident at once, and a zeroed grid-barrier workspace that
 * cooperative_groups' grid.sync() finds through %envreg1/%envreg2 (nvcc 13
 * emits an arrival counter at workspace+4 and a spin on it; a kernel that
 * syncs a grid launched without this traps, as on a GPU). */
#include "api/api_ctx.h"
#include "timing/gpu.h"

#define GRID_WS_BYTES 16u

static uint64_t coresident(ptxemu_ctx *ctx, const ex_func *k, ptxemu_dim3 block,
                           size_t dyn_shared, const char **why)
{
    gpu_config def;
    const gpu_config *cfg = ctx->gpu ? tm_gpu_config(ctx->gpu) : NULL;
    if (!cfg) {
        gpu_config_defaults(&def);
        cfg = &def;
    }
    uint32_t threads = block.x * block.y * block.z;
    return tm_coresident_ctas(cfg, k, threads, k->shared_static + (uint32_t)dyn_shared,
                              ctx->opts.regs_per_thread, why);
}

ptxemu_status ptxemu_max_coresident_ctas(ptxemu_module *mod, const char *kernel,
                                         ptxemu_dim3 block, size_t dyn_shared, uint64_t *ctas)
{
    if (!mod || !kernel || !ctas || !block.x || !block.y || !block.z)
        return PTXEMU_ERR_INVALID_VALUE;
    const ex_func *k = g_hash_table_lookup(mod->ex->kernels, kernel);
    if (!k)
        return api_fail(mod->ctx, PTXEMU_ERR_NOT_FOUND, "no kernel (.entry) named '%s'", kernel);
    const char *why = NULL;
    *ctas = coresident(mod->ctx, k, block, dyn_shared, &why);
    return api_ok(mod->ctx);
}

ptxemu_status api_coop_prepare(ptxemu_ctx *ctx, const ptxemu_launch_desc *d, ex_launch *L)
{
    const char *why = NULL;
    uint64_t total = (uint64_t)d->grid.x * d->grid.y * d->grid.z;
    uint64_t fit = coresident(ctx, L->kernel, d->block, d->dynamic_shared_bytes, &why);
    if (total > fit) {
        api_launch_release(L);
        return api_fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "cooperative launch of '%s': %llu CTAs "
                        "cannot all be resident at once; this GPU config holds at most %llu "
                        "(limited by %s)", d->kernel, (unsigned long long)total,
                        (unsigned long long)fit, why ? why : "?");
    }
    L->cooperative = true;
    L->grid_ws = mem_alloc_bytes(L->mem, GRID_WS_BYTES, true);
    if (!L->grid_ws) {
        api_launch_release(L);
        return api_fail(ctx, PTXEMU_ERR_OUT_OF_MEMORY, "cooperative launch of '%s': no device "
                        "memory for the grid-barrier workspace", d->kernel);
    }
    return PTXEMU_OK;
}

ptxemu_status ptxemu_launch_cooperative(ptxemu_module *mod, const char *kernel, ptxemu_dim3 grid,
                                        ptxemu_dim3 block, size_t dyn_shared, void **args)
{
    if (!mod || !kernel)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_launch_desc d = {mod, kernel, grid, block, dyn_shared, args, 0, -1};
    return api_launch_batch(mod->ctx, &d, 1, true);
}
