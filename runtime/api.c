/* runtime/api.c — the public host API (runtime/ptxemu.h) over the parser,
 * loader, device memory and the functional launch driver. */
#include "runtime/ptxemu.h"
#include "frontend/parser.h"
#include "runtime/api_internal.h"

#include <stdarg.h>
#include <string.h>

struct ptxemu_ctx {
    dev_memory mem;
    ptxemu_options opts;
    GString *error;
    GPtrArray *modules;      /* ptxemu_module* */
    ptxemu_counters counters;
};

struct ptxemu_module {
    ptxemu_ctx *ctx;
    ptx_module *ir;
    ex_module *ex;
};

#define DEFAULT_LIVELOCK_LIMIT 100000000ull
#define DEFAULT_STACK_LIMIT (64u * 1024u)

static ptxemu_status fail(ptxemu_ctx *ctx, ptxemu_status s, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static ptxemu_status fail(ptxemu_ctx *ctx, ptxemu_status s, const char *fmt, ...)
{
    if (!ctx)
        return s;
    va_list ap;
    va_start(ap, fmt);
    g_string_vprintf(ctx->error, fmt, ap);
    va_end(ap);
    return s;
}

static ptxemu_status ok(ptxemu_ctx *ctx)
{
    g_string_truncate(ctx->error, 0);
    return PTXEMU_OK;
}

const char *ptxemu_status_string(ptxemu_status s)
{
    switch (s) {
    case PTXEMU_OK: return "success";
    case PTXEMU_ERR_INVALID_VALUE: return "invalid value";
    case PTXEMU_ERR_PARSE: return "PTX parse error";
    case PTXEMU_ERR_UNSUPPORTED: return "not supported yet";
    case PTXEMU_ERR_NOT_FOUND: return "not found";
    case PTXEMU_ERR_OUT_OF_MEMORY: return "out of device memory";
    case PTXEMU_ERR_INVALID_ADDRESS: return "invalid device address";
    case PTXEMU_ERR_LAUNCH_RESOURCES: return "too many resources requested for launch";
    case PTXEMU_ERR_LAUNCH_FAILED: return "launch failed";
    case PTXEMU_ERR_IO: return "I/O error";
    }
    return "unknown status";
}

ptxemu_status ptxemu_ctx_create(ptxemu_ctx **out, const ptxemu_options *opts)
{
    if (!out)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_ctx *c = g_new0(ptxemu_ctx, 1);
    mem_init(&c->mem);
    if (opts)
        c->opts = *opts;
    if (!c->opts.livelock_limit)
        c->opts.livelock_limit = DEFAULT_LIVELOCK_LIMIT;
    c->error = g_string_new(NULL);
    c->modules = g_ptr_array_new();
    *out = c;
    return PTXEMU_OK;
}

static void module_free(ptxemu_module *m)
{
    ex_module_free(m->ex);
    ptx_module_free(m->ir);
    g_free(m);
}

void ptxemu_ctx_destroy(ptxemu_ctx *ctx)
{
    if (!ctx)
        return;
    for (guint i = 0; i < ctx->modules->len; i++)
        module_free(g_ptr_array_index(ctx->modules, i));
    g_ptr_array_free(ctx->modules, TRUE);
    mem_destroy(&ctx->mem);
    g_string_free(ctx->error, TRUE);
    g_free(ctx);
}

const char *ptxemu_last_error(const ptxemu_ctx *ctx)
{
    return ctx ? ctx->error->str : "no context";
}

void ptxemu_get_counters(const ptxemu_ctx *ctx, ptxemu_counters *out)
{
    if (ctx && out)
        *out = ctx->counters;
}

/* ---------------------------------------------------------------- modules */

static ptxemu_status load_ir(ptxemu_ctx *ctx, ptx_module *ir, ptxemu_module **out)
{
    GPtrArray *unsupported = g_ptr_array_new_with_free_func(g_free);
    GError *err = NULL;
    ex_module *ex = ex_module_load_ex(ir, &ctx->mem, unsupported, &err);
    if (!ex) {
        ptxemu_status s = fail(ctx, PTXEMU_ERR_PARSE, "%s", err ? err->message : "load failed");
        g_clear_error(&err);
        g_ptr_array_free(unsupported, TRUE);
        ptx_module_free(ir);
        return s;
    }
    if (unsupported->len) {
        GString *msg = g_string_new(NULL);
        for (guint i = 0; i < unsupported->len && i < 20; i++)
            g_string_append_printf(msg, "%s%s", i ? "\n" : "",
                                   (const char *)g_ptr_array_index(unsupported, i));
        if (unsupported->len > 20)
            g_string_append_printf(msg, "\n... and %u more", unsupported->len - 20);
        fail(ctx, PTXEMU_ERR_UNSUPPORTED, "%s", msg->str);
        g_string_free(msg, TRUE);
        g_ptr_array_free(unsupported, TRUE);
        ex_module_free(ex);
        ptx_module_free(ir);
        return PTXEMU_ERR_UNSUPPORTED;
    }
    g_ptr_array_free(unsupported, TRUE);
    ptxemu_module *m = g_new0(ptxemu_module, 1);
    m->ctx = ctx;
    m->ir = ir;
    m->ex = ex;
    g_ptr_array_add(ctx->modules, m);
    *out = m;
    return ok(ctx);
}

ptxemu_status ptxemu_module_load_string(ptxemu_ctx *ctx, const char *ptx, const char *name,
                                        ptxemu_module **out)
{
    if (!ctx || !ptx || !out)
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "module_load_string: NULL argument");
    GError *err = NULL;
    ptx_module *ir = ptx_parse_string(ptx, strlen(ptx), name ? name : "<string>", &err);
    if (!ir) {
        ptxemu_status s = fail(ctx, PTXEMU_ERR_PARSE, "%s", err->message);
        g_error_free(err);
        return s;
    }
    return load_ir(ctx, ir, out);
}

ptxemu_status ptxemu_module_load_file(ptxemu_ctx *ctx, const char *path, ptxemu_module **out)
{
    if (!ctx || !path || !out)
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "module_load_file: NULL argument");
    GError *err = NULL;
    ptx_module *ir = ptx_parse_file(path, &err);
    if (!ir) {
        ptxemu_status s = fail(ctx, err->code == PTX_PARSE_ERROR_IO ? PTXEMU_ERR_IO : PTXEMU_ERR_PARSE,
                               "%s", err->message);
        g_error_free(err);
        return s;
    }
    return load_ir(ctx, ir, out);
}

ex_module *ptxemu_module_ex(ptxemu_module *mod)
{
    return mod ? mod->ex : NULL;
}

void ptxemu_module_unload(ptxemu_module *mod)
{
    if (!mod)
        return;
    g_ptr_array_remove(mod->ctx->modules, mod);
    module_free(mod);
}

/* ----------------------------------------------------------------- memory */

ptxemu_status ptxemu_malloc(ptxemu_ctx *ctx, ptxemu_dptr *out, size_t bytes)
{
    if (!ctx || !out)
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "malloc: NULL argument");
    uint64_t a = mem_alloc_bytes(&ctx->mem, bytes, false);
    if (!a)
        return fail(ctx, PTXEMU_ERR_OUT_OF_MEMORY, "malloc of %zu bytes failed", bytes);
    *out = a;
    return ok(ctx);
}

ptxemu_status ptxemu_free(ptxemu_ctx *ctx, ptxemu_dptr ptr)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (ptr == 0)
        return ok(ctx);
    if (!mem_free(&ctx->mem, ptr))
        return fail(ctx, PTXEMU_ERR_INVALID_ADDRESS,
                    "free of 0x%llx, which is not the start of an allocation",
                    (unsigned long long)ptr);
    return ok(ctx);
}

static uint8_t *host_view(ptxemu_ctx *ctx, ptxemu_dptr p, size_t n, const char *what)
{
    mem_alloc *a = mem_find(&ctx->mem, p, n ? n : 1);
    if (!a) {
        fail(ctx, PTXEMU_ERR_INVALID_ADDRESS, "%s: [0x%llx, +%zu) is not inside one allocation",
             what, (unsigned long long)p, n);
        return NULL;
    }
    return a->data + (p - a->base);
}

ptxemu_status ptxemu_memcpy_htod(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src, size_t n)
{
    if (!ctx || (!src && n))
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "memcpy_htod: NULL argument");
    if (n == 0)
        return ok(ctx);
    uint8_t *d = host_view(ctx, dst, n, "memcpy_htod");
    if (!d)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memcpy(d, src, n);
    return ok(ctx);
}

ptxemu_status ptxemu_memcpy_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n)
{
    if (!ctx || (!dst && n))
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "memcpy_dtoh: NULL argument");
    if (n == 0)
        return ok(ctx);
    uint8_t *s = host_view(ctx, src, n, "memcpy_dtoh");
    if (!s)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memcpy(dst, s, n);
    return ok(ctx);
}

ptxemu_status ptxemu_memcpy_dtod(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src, size_t n)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (n == 0)
        return ok(ctx);
    uint8_t *s = host_view(ctx, src, n, "memcpy_dtod source");
    if (!s)
        return PTXEMU_ERR_INVALID_ADDRESS;
    uint8_t *d = host_view(ctx, dst, n, "memcpy_dtod destination");
    if (!d)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memmove(d, s, n);
    return ok(ctx);
}

ptxemu_status ptxemu_memset(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t n)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (n == 0)
        return ok(ctx);
    uint8_t *d = host_view(ctx, dst, n, "memset");
    if (!d)
        return PTXEMU_ERR_INVALID_ADDRESS;
    memset(d, value, n);
    return ok(ctx);
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
        return fail(ctx, PTXEMU_ERR_NOT_FOUND, "no module variable named '%s'", name);
    int32_t vi = ptx_module_sym(mod->ir, s)->index;
    const ptx_var *v = ptx_module_var(mod->ir, vi);
    if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST)
        return fail(ctx, PTXEMU_ERR_NOT_FOUND, "'%s' is a .%s variable, not .global or .const",
                    name, ptx_space_name(v->space));
    uint64_t a = mod->ex->var_addr[vi];
    mem_alloc *al = a ? mem_find(&ctx->mem, a, 1) : NULL;
    if (!al)
        return fail(ctx, PTXEMU_ERR_NOT_FOUND, "'%s' has no storage (extern?)", name);
    if (addr)
        *addr = a;
    if (bytes)
        *bytes = al->size;
    return ok(ctx);
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
        return fail(mod->ctx, PTXEMU_ERR_INVALID_VALUE,
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
    return s != PTXEMU_OK ? s : ptxemu_memcpy_htod(mod->ctx, a, src, bytes);
}

ptxemu_status ptxemu_memcpy_from_symbol(ptxemu_module *mod, void *dst, const char *name,
                                        size_t bytes, size_t offset)
{
    ptxemu_dptr a;
    ptxemu_status s = symbol_range(mod, name, bytes, offset, "memcpy_from_symbol", &a);
    return s != PTXEMU_OK ? s : ptxemu_memcpy_dtoh(mod->ctx, dst, a, bytes);
}

/* ----------------------------------------------------------------- launch */

#define MAX_SHARED_BYTES (228u * 1024u)

ptxemu_status ptxemu_launch(ptxemu_module *mod, const char *kernel, ptxemu_dim3 grid,
                            ptxemu_dim3 block, size_t dyn_shared, void **args)
{
    if (!mod || !kernel)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_ctx *ctx = mod->ctx;
    ex_func *k = g_hash_table_lookup(mod->ex->kernels, kernel);
    if (!k)
        return fail(ctx, PTXEMU_ERR_NOT_FOUND, "no kernel (.entry) named '%s' in %s", kernel,
                    mod->ir->source_name);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch of '%s': grid and block dimensions "
                    "must be at least 1", kernel);
    if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        return fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': block (%u,%u,%u) exceeds "
                    "1024 threads or the per-dimension limits (1024,1024,64)", kernel, block.x,
                    block.y, block.z);
    if (grid.y > 65535 || grid.z > 65535)
        return fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': grid (%u,%u,%u) exceeds "
                    "65535 in y or z", kernel, grid.x, grid.y, grid.z);
    const ptx_perf *perf = &k->ir->perf;
    if (perf->has_reqntid && (block.x != perf->reqntid[0] || block.y != perf->reqntid[1] ||
                              block.z != perf->reqntid[2]))
        return fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': .reqntid %u,%u,%u requires "
                    "that block shape", kernel, perf->reqntid[0], perf->reqntid[1], perf->reqntid[2]);
    if (perf->has_maxntid &&
        threads > (uint64_t)perf->maxntid[0] * perf->maxntid[1] * perf->maxntid[2])
        return fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': %llu threads exceed "
                    ".maxntid", kernel, (unsigned long long)threads);
    if (k->shared_static + dyn_shared > MAX_SHARED_BYTES)
        return fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': %zu bytes of shared memory "
                    "exceed %u", kernel, k->shared_static + dyn_shared, MAX_SHARED_BYTES);
    if (k->nparams && !args)
        return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch of '%s': it takes %u parameters but "
                    "args is NULL", kernel, k->nparams);

    uint8_t *kparams = g_malloc0(k->kparam_size ? k->kparam_size : 1);
    for (uint32_t i = 0; i < k->nparams; i++) {
        if (!args[i]) {
            g_free(kparams);
            return fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch of '%s': args[%u] is NULL",
                        kernel, i);
        }
        memcpy(kparams + k->param_offsets[i], args[i], k->param_sizes[i]);
    }
    ex_launch L = {0};
    L.mod = mod->ex;
    L.kernel = k;
    L.mem = &ctx->mem;
    L.grid[0] = grid.x;
    L.grid[1] = grid.y;
    L.grid[2] = grid.z;
    L.block[0] = block.x;
    L.block[1] = block.y;
    L.block[2] = block.z;
    L.dyn_shared = (uint32_t)dyn_shared;
    L.kparams = kparams;
    L.kparam_size = k->kparam_size;
    L.printf_out = ctx->opts.printf_stream;
    L.livelock_limit = ctx->opts.livelock_limit;
    L.stack_limit = DEFAULT_STACK_LIMIT;
    L.launch_id = (uint32_t)ctx->counters.launches + 1;
    L.nsmid = 1;
    GError *err = NULL;
    bool good = ex_launch_run(&L, &err);
    ctx->counters.launches++;
    ctx->counters.warp_instructions += L.warp_instrs;
    ctx->counters.thread_instructions += L.thread_instrs;
    g_free(kparams);
    if (L.error)
        g_string_free(L.error, TRUE);
    if (!good) {
        ptxemu_status s = fail(ctx, PTXEMU_ERR_LAUNCH_FAILED, "%s", err->message);
        g_error_free(err);
        return s;
    }
    return ok(ctx);
}

ptxemu_status ptxemu_synchronize(ptxemu_ctx *ctx)
{
    return ctx ? PTXEMU_OK : PTXEMU_ERR_INVALID_VALUE;
}
