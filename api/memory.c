/* api/memory.c — the host API's device memory (api/ptxemu.h): allocation,
 * copies between host and device (each one told to the timing model, which
 * may fill its L2 as GPGPU-Sim's perf memcpy does), memset, and the module
 * symbols' addresses and copies.  Split out of api/api.c. */
#include "api/ptxemu.h"
#include "api/api_ctx.h"
#include "api/api_internal.h"
#include "runtime/loader.h"
#include "timing/gpu.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------- memory */

ptxemu_status ptxemu_malloc(ptxemu_ctx *ctx, ptxemu_dptr *out, size_t bytes)
{
    if (!ctx || !out)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "malloc: NULL argument");
    uint64_t a = mem_alloc_bytes(&ctx->mem, bytes, false);
    if (!a)
        return api_fail(ctx, PTXEMU_ERR_OUT_OF_MEMORY,
                    "malloc of %zu bytes failed: the device has %llu bytes "
                    "(limits.device_memory), %llu in use", bytes,
                    (unsigned long long)ctx->mem.limit, (unsigned long long)ctx->mem.total);
    *out = a;
    return api_ok(ctx);
}

ptxemu_status ptxemu_free(ptxemu_ctx *ctx, ptxemu_dptr ptr)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (ptr == 0)
        return api_ok(ctx);
    ptxemu_status qs = api_queue_drain(ctx); /* queued work may use it */
    if (qs != PTXEMU_OK)
        return qs;
    if (ctx->opts.on_free) {
        const mem_alloc *a = mem_find(&ctx->mem, ptr, 1);
        if (a && a->base == ptr)
            ctx->opts.on_free(ctx->opts.on_free_user, a->base, a->data, a->size);
    }
    if (!mem_free(&ctx->mem, ptr))
        return api_fail(ctx, PTXEMU_ERR_INVALID_ADDRESS,
                    "free of 0x%llx, which is not the start of an allocation",
                    (unsigned long long)ptr);
    return api_ok(ctx);
}

void ptxemu_visit_buffers(const ptxemu_ctx *ctx, ptxemu_buffer_fn fn, void *user)
{
    for (guint i = 0; ctx && i < ctx->mem.allocs->len; i++) {
        const mem_alloc *a = &g_array_index(ctx->mem.allocs, mem_alloc, i);
        fn(user, a->base, a->data, a->size);
    }
}

static uint8_t *host_view(ptxemu_ctx *ctx, ptxemu_dptr p, size_t n, const char *what)
{
    mem_alloc *a = mem_find(&ctx->mem, p, n ? n : 1);
    if (!a) {
        api_fail(ctx, PTXEMU_ERR_INVALID_ADDRESS, "%s: [0x%llx, +%zu) is not inside one allocation",
             what, (unsigned long long)p, n);
        return NULL;
    }
    return a->data + (p - a->base);
}

/* The copies; `perf`: the timing model sees the copy (tm_gpu_host_copy,
 * l2.memcpy_fill).  Symbol copies do not pass it, as in GPGPU-Sim, whose
 * cudaMemcpyToSymbol writes memory directly. */
static ptxemu_status copy_htod(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src, size_t n,
                               bool perf)
{
    if (!ctx || (!src && n))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "memcpy_htod: NULL argument");
    if (n == 0)
        return api_ok(ctx);
    uint8_t *d = host_view(ctx, dst, n, "memcpy_htod");
    if (!d)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memcpy(d, src, n);
    if (perf && ctx->gpu)
        tm_gpu_host_copy(ctx->gpu, dst, n);
    return api_ok(ctx);
}

static ptxemu_status copy_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n, bool perf)
{
    if (!ctx || (!dst && n))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "memcpy_dtoh: NULL argument");
    if (n == 0)
        return api_ok(ctx);
    uint8_t *s = host_view(ctx, src, n, "memcpy_dtoh");
    if (!s)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memcpy(dst, s, n);
    if (perf && ctx->gpu)
        tm_gpu_host_copy(ctx->gpu, src, n);
    return api_ok(ctx);
}

ptxemu_status api_htod(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src, size_t n)
{
    return copy_htod(ctx, dst, src, n, true);
}

ptxemu_status api_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n)
{
    return copy_dtoh(ctx, dst, src, n, true);
}

ptxemu_status api_dtod(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src, size_t n)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (n == 0)
        return api_ok(ctx);
    uint8_t *s = host_view(ctx, src, n, "memcpy_dtod source");
    if (!s)
        return PTXEMU_ERR_INVALID_ADDRESS;
    uint8_t *d = host_view(ctx, dst, n, "memcpy_dtod destination");
    if (!d)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memmove(d, s, n);
    return api_ok(ctx);
}

ptxemu_status api_memset(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t n)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (n == 0)
        return api_ok(ctx);
    uint8_t *d = host_view(ctx, dst, n, "memset");
    if (!d)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memset(d, value, n);
    return api_ok(ctx);
}

ptxemu_status ptxemu_memcpy_htod(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src, size_t n)
{
    WAIT_QUEUE(ctx);
    return api_htod(ctx, dst, src, n);
}

ptxemu_status ptxemu_memcpy_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n)
{
    WAIT_QUEUE(ctx);
    return api_dtoh(ctx, dst, src, n);
}

ptxemu_status ptxemu_memcpy_dtod(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src, size_t n)
{
    WAIT_QUEUE(ctx);
    return api_dtod(ctx, dst, src, n);
}

ptxemu_status ptxemu_memset(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t n)
{
    WAIT_QUEUE(ctx);
    return api_memset(ctx, dst, value, n);
}

/* ---------------------------------------------------------------- symbols */

ptxemu_status ptxemu_module_get_global(ptxemu_module *mod, const char *name,
                                       ptxemu_dptr *addr, size_t *bytes)
{
    if (!mod || !name)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_ctx *ctx = mod->ctx;
    int32_t s = ptx_module_find(mod->ir, name);
    if (s < 0 || ptx_module_sym(mod->ir, s)->kind != PTX_SYM_VAR)
        return api_fail(ctx, PTXEMU_ERR_NOT_FOUND, "no module variable named '%s'", name);
    int32_t vi = ptx_module_sym(mod->ir, s)->index;
    const ptx_var *v = ptx_module_var(mod->ir, vi);
    if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST)
        return api_fail(ctx, PTXEMU_ERR_NOT_FOUND, "'%s' is a .%s variable, not .global or .const",
                    name, ptx_space_name(v->space));
    uint64_t a = mod->ex->var_addr[vi];
    mem_alloc *al = a ? mem_find(&ctx->mem, a, 1) : NULL;
    if (!al)
        return api_fail(ctx, PTXEMU_ERR_NOT_FOUND, "'%s' has no storage (extern?)", name);
    if (addr)
        *addr = a;
    if (bytes)
        *bytes = al->size;
    return api_ok(ctx);
}

/* Address of [offset, offset+bytes) inside module variable `name`. */
static ptxemu_status symbol_range(ptxemu_module *mod, const char *name, size_t bytes,
                                  size_t offset, const char *what, ptxemu_dptr *out)
{
    size_t size;
    ptxemu_status s = ptxemu_module_get_global(mod, name, out, &size);
    if (s != PTXEMU_OK)
        return s;
    if (offset > size || bytes > size - offset)
        return api_fail(mod->ctx, PTXEMU_ERR_INVALID_VALUE,
                    "%s: %zu bytes at offset %zu exceed '%s' (%zu bytes)", what, bytes, offset,
                    name, size);
    *out += offset;
    return PTXEMU_OK;
}

ptxemu_status ptxemu_memcpy_to_symbol(ptxemu_module *mod, const char *name, const void *src,
                                      size_t bytes, size_t offset)
{
    ptxemu_dptr a;
    ptxemu_status s = symbol_range(mod, name, bytes, offset, "memcpy_to_symbol", &a);
    if (s != PTXEMU_OK)
        return s;
    WAIT_QUEUE(mod->ctx);
    return copy_htod(mod->ctx, a, src, bytes, false);
}

ptxemu_status ptxemu_memcpy_from_symbol(ptxemu_module *mod, void *dst, const char *name,
                                        size_t bytes, size_t offset)
{
    ptxemu_dptr a;
    ptxemu_status s = symbol_range(mod, name, bytes, offset, "memcpy_from_symbol", &a);
    if (s != PTXEMU_OK)
        return s;
    WAIT_QUEUE(mod->ctx);
    return copy_dtoh(mod->ctx, dst, a, bytes, false);
}
