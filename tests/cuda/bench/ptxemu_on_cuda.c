/* tests/cuda/bench/ptxemu_on_cuda.c — ptxemu's host API (api/ptxemu.h)
 * implemented on the CUDA runtime API, so that a benchmark's own driver
 * (benchmarks/NAME/driver.c: input generator, host flow, CPU reference and
 * check) runs unchanged as an ordinary CUDA program built by nvcc.  With
 * `-cudart shared` that program runs on NVIDIA's libcudart or on ptxemu's
 * drop-in one alike.
 *
 * Only what the drivers call is here.  Kernels and __constant__ variables
 * are named by their PTX names, as the drivers do; bench_host_syms maps
 * them to the host stubs and shadows nvcc generates.  The kernels of
 * benchmarks/ are extern "C" and namespace-scope variables are not
 * mangled, so each PTX name is also the C++ name, and the test script
 * (run_cuda_tests.py) writes that table from the .entry and variable
 * lines of the benchmark's kernels.ptx (a CUDA program names its kernels
 * by their stubs; this is the one line of glue that a PTX name needs).
 * Simulator-only queries (counters, timing statistics) report nothing: a
 * CUDA program has no such thing, and the drivers then skip their
 * timing-only output. */
#include "api/ptxemu.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PTX name -> host stub or shadow variable, NULL-terminated (generated). */
typedef struct bench_host_sym {
    const char *name;
    const void *host;
} bench_host_sym;
extern const bench_host_sym bench_host_syms[];

/* The driver's handles: the last error message, nothing else. */
struct ptxemu_ctx {
    char error[512];
};
struct ptxemu_module {
    ptxemu_ctx *ctx;
};

static ptxemu_status fail(ptxemu_ctx *ctx, ptxemu_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    return s;
}

/* A CUDA error as the ptxemu status the drivers expect, with its call. */
static ptxemu_status cuda(ptxemu_ctx *ctx, cudaError_t e, const char *call)
{
    if (e == cudaSuccess) {
        ctx->error[0] = '\0';
        return PTXEMU_OK;
    }
    ptxemu_status s;
    switch (e) {
    case cudaErrorInvalidValue: s = PTXEMU_ERR_INVALID_VALUE; break;
    case cudaErrorMemoryAllocation: s = PTXEMU_ERR_OUT_OF_MEMORY; break;
    case cudaErrorInvalidConfiguration:
    case cudaErrorLaunchOutOfResources: s = PTXEMU_ERR_LAUNCH_RESOURCES; break;
    case cudaErrorInvalidSymbol:
    case cudaErrorInvalidDeviceFunction: s = PTXEMU_ERR_NOT_FOUND; break;
    default: s = PTXEMU_ERR_LAUNCH_FAILED; break;
    }
    return fail(ctx, s, "%s: %s (%s)", call, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* The handles a driver gets (bench_main.c): one module per program, as
 * the program's fatbinary is one; freed by bench_host_fini. */
void bench_host_init(ptxemu_ctx **ctx, ptxemu_module **mod)
{
    *ctx = calloc(1, sizeof **ctx);
    *mod = calloc(1, sizeof **mod);
    if (!*ctx || !*mod) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    (*mod)->ctx = *ctx;
}

void bench_host_fini(ptxemu_ctx *ctx, ptxemu_module *mod)
{
    free(mod);
    free(ctx);
}

const char *ptxemu_status_string(ptxemu_status s)
{
    static const char *const names[] = {
        "ok", "invalid value", "parse error", "unsupported", "not found", "out of memory",
        "invalid address", "launch resources", "launch failed", "i/o error", "not ready",
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown status";
}

const char *ptxemu_last_error(const ptxemu_ctx *ctx)
{
    return ctx->error;
}

void ptxemu_get_counters(const ptxemu_ctx *ctx, ptxemu_counters *out)
{
    (void)ctx;
    memset(out, 0, sizeof *out);
}

const char *ptxemu_timing_stats_json(ptxemu_ctx *ctx)
{
    (void)ctx;
    return NULL;
}

ptxemu_status ptxemu_malloc(ptxemu_ctx *ctx, ptxemu_dptr *out, size_t bytes)
{
    void *p = NULL;
    ptxemu_status s = cuda(ctx, cudaMalloc(&p, bytes), "cudaMalloc");
    *out = (ptxemu_dptr)(uintptr_t)p;
    return s;
}

ptxemu_status ptxemu_free(ptxemu_ctx *ctx, ptxemu_dptr ptr)
{
    return cuda(ctx, cudaFree((void *)(uintptr_t)ptr), "cudaFree");
}

ptxemu_status ptxemu_memcpy_htod(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src, size_t n)
{
    return cuda(ctx, cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice),
                "cudaMemcpy (host to device)");
}

ptxemu_status ptxemu_memcpy_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n)
{
    return cuda(ctx, cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost),
                "cudaMemcpy (device to host)");
}

ptxemu_status ptxemu_memcpy_dtod(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src, size_t n)
{
    return cuda(ctx, cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n,
                                cudaMemcpyDeviceToDevice), "cudaMemcpy (device to device)");
}

ptxemu_status ptxemu_memset(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t n)
{
    return cuda(ctx, cudaMemset((void *)(uintptr_t)dst, value, n), "cudaMemset");
}

/* The host stub or shadow variable nvcc generated for a PTX name. */
static const void *host_symbol(ptxemu_module *mod, const char *what, const char *name)
{
    for (const bench_host_sym *s = bench_host_syms; s->name; s++)
        if (!strcmp(s->name, name))
            return s->host;
    fail(mod->ctx, PTXEMU_ERR_NOT_FOUND, "no %s named %s in the program's symbol table", what,
         name);
    return NULL;
}

ptxemu_status ptxemu_memcpy_to_symbol(ptxemu_module *mod, const char *name, const void *src,
                                      size_t bytes, size_t offset)
{
    const void *sym = host_symbol(mod, "variable", name);
    if (!sym)
        return PTXEMU_ERR_NOT_FOUND;
    return cuda(mod->ctx, cudaMemcpyToSymbol(sym, src, bytes, offset, cudaMemcpyHostToDevice),
                name);
}

ptxemu_status ptxemu_memcpy_from_symbol(ptxemu_module *mod, void *dst, const char *name,
                                        size_t bytes, size_t offset)
{
    const void *sym = host_symbol(mod, "variable", name);
    if (!sym)
        return PTXEMU_ERR_NOT_FOUND;
    return cuda(mod->ctx, cudaMemcpyFromSymbol(dst, sym, bytes, offset,
                                               cudaMemcpyDeviceToHost), name);
}

/* ptxemu_launch is synchronous: launch, then wait, so a kernel's execution
 * error is this call's error as the driver expects. */
ptxemu_status ptxemu_launch(ptxemu_module *mod, const char *kernel, ptxemu_dim3 grid,
                            ptxemu_dim3 block, size_t dyn_shared, void **args)
{
    const void *stub = host_symbol(mod, "kernel", kernel);
    if (!stub)
        return PTXEMU_ERR_NOT_FOUND;
    dim3 g = {grid.x, grid.y, grid.z}, b = {block.x, block.y, block.z};
    ptxemu_status s = cuda(mod->ctx, cudaLaunchKernel(stub, g, b, args, dyn_shared, 0), kernel);
    if (s == PTXEMU_OK)
        s = cuda(mod->ctx, cudaDeviceSynchronize(), kernel);
    return s;
}

ptxemu_status ptxemu_synchronize(ptxemu_ctx *ctx)
{
    return cuda(ctx, cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}
