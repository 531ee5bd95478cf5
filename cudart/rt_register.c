/* cudart/rt_register.c — the entry points nvcc's host code calls before
 * main and around every <<<>>> launch (crt/host_runtime.h): fatbinary,
 * kernel and variable registration, and the call-configuration stack. */
#include "cudart/fatbin.h"
#include "cudart/rt.h"
#include "cudart/rt_output.h"
#include "timing/outfile.h"

#include <errno.h>
#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

static unsigned fatbin_index(const cudart *rt, const rt_fatbin *fb)
{
    guint i = 0;
    return g_ptr_array_find(rt->fatbins, fb, &i) ? i : 0;
}

/* The PTX of one fatbinary image for the configured target, or NULL. */
static char *image_ptx(const cudart *rt, const void *image, uint32_t *arch, GError **err)
{
    GArray *entries = g_array_new(FALSE, FALSE, sizeof(fatbin_entry));
    char *ptx = NULL;
    if (fatbin_parse(image, 0, entries, err))
        ptx = fatbin_pick_ptx(entries, rt->cfg.gpu.compute_capability, arch, err);
    g_array_free(entries, TRUE);
    return ptx;
}

/* -rdc=true: the PTX of the translation units (fatbin_prelinked).  Units
 * without PTX (libcudadevrt's, machine code only) are skipped; the PTX of
 * one unit loads on its own, several would need PTX linking. */
static char *linked_ptx(const cudart *rt, const void *const *units, uint32_t *arch, GError **err)
{
    char *ptx = NULL;
    unsigned with_ptx = 0, n = 0;
    GError *first = NULL;
    for (; units[n]; n++) {
        GError *e = NULL;
        uint32_t a = 0;
        char *p = image_ptx(rt, units[n], &a, &e);
        if (!p) {
            if (!first)
                first = e;
            else
                g_error_free(e);
            continue;
        }
        with_ptx++;
        if (!ptx) {
            ptx = p;
            *arch = a;
        } else {
            g_free(p);
        }
    }
    if (with_ptx > 1) {
        g_free(ptx);
        ptx = NULL;
        g_clear_error(&first);
        g_set_error(err, FATBIN_ERROR, FATBIN_ERROR_FORMAT, "not supported yet: a program "
                    "built with -rdc=true whose device code is in %u translation units "
                    "(ptxemu does not link PTX modules; one unit with device code works)",
                    with_ptx);
    } else if (!ptx) {
        if (first)
            g_propagate_error(err, first);
        else
            g_set_error(err, FATBIN_ERROR, FATBIN_ERROR_SASS_ONLY,
                        "the -rdc binary lists no translation unit with PTX");
    } else {
        g_clear_error(&first);
    }
    return ptx;
}

/* PTXEMU_KEEP_PTX: writes `ptx` into that folder as `name` and returns
 * the path, which messages then locate the PTX by (takes `name`); on a
 * failure says why and keeps the bare name. */
static char *keep_ptx(cudart *rt, char *name, const char *ptx)
{
    char *path = g_build_filename(rt->keep_ptx_dir, name, NULL);
    GError *err = NULL;
    if (!out_file_write_all(path, ptx, strlen(ptx), &err)) {
        rt_log(rt, RT_LOG_ERROR, "PTXEMU_KEEP_PTX: %s", err->message);
        rt_output_failed(rt, err->message);
        g_error_free(err);
        g_free(path);
        return name;
    }
    rt_log(rt, RT_LOG_INFO, "PTX written to %s", path);
    g_free(name);
    return path;
}

/* Picks the PTX of `fb` for the configured target and loads it. */
static void load_fatbin(cudart *rt, rt_fatbin *fb)
{
    fb->mod = NULL;
    if (!rt->ctx) {
        fb->load_error = rt->init_error ? rt->init_error : cudaErrorInitializationError;
        return;
    }
    GError *err = NULL;
    char *ptx = NULL;
    const void *const *units = fatbin_prelinked(fb->registered);
    if (units) {
        ptx = linked_ptx(rt, units, &fb->arch, &err);
    } else {
        const void *image = fatbin_image(fb->registered, &err);
        if (image)
            ptx = image_ptx(rt, image, &fb->arch, &err);
    }
    if (!ptx) {
        bool no_image = err->domain == FATBIN_ERROR && (err->code == FATBIN_ERROR_SASS_ONLY ||
                                                        err->code == FATBIN_ERROR_NO_TARGET);
        fb->load_error = no_image ? cudaErrorNoKernelImageForDevice
                         : g_str_has_prefix(err->message, "not supported yet")
                             ? cudaErrorNotSupported
                             : cudaErrorInvalidKernelImage;
        rt_log(rt, RT_LOG_ERROR, "error: %s", err->message);
        g_error_free(err);
        return;
    }
    /* errors name the PTX as <program>.fatbin<N>.compute_<XX>.ptx */
    char *name = g_strdup_printf("%s.fatbin%u.compute_%u.ptx", program_invocation_short_name,
                                 fatbin_index(rt, fb), fb->arch);
    if (rt->keep_ptx_dir)
        name = keep_ptx(rt, name, ptx);
    ptxemu_status s = ptxemu_module_load_string(rt->ctx, ptx, name, &fb->mod);
    g_free(name);
    g_free(ptx);
    if (s != PTXEMU_OK) {
        fb->mod = NULL;
        fb->load_error = rt_status(rt, s, "loading the program's PTX");
        return;
    }
    fb->load_error = cudaSuccess;
    rt_log(rt, RT_LOG_DEBUG, "loaded PTX for compute_%u", fb->arch);
}

void rt_reload_fatbins(cudart *rt)
{
    for (guint i = 0; i < rt->fatbins->len; i++) {
        rt_fatbin *fb = g_ptr_array_index(rt->fatbins, i);
        if (!fb->unregistered)
            load_fatbin(rt, fb);
    }
}

CUDART_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    cudart *rt = rt_enter();
    rt_fatbin *fb = g_new0(rt_fatbin, 1);
    fb->registered = fatCubin;
    g_ptr_array_add(rt->fatbins, fb);
    load_fatbin(rt, fb);
    rt_unlock(rt);
    /* the handle the host code passes back: the record itself */
    return (void **)fb;
}

CUDART_EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

CUDART_EXPORT void __cudaUnregisterFatBinary(void **handle)
{
    cudart *rt = rt_enter();
    if (handle)
        ((rt_fatbin *)handle)->unregistered = true;
    rt_unlock(rt);
}

CUDART_EXPORT char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

CUDART_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                          const char *deviceName, int thread_limit, void *tid,
                                          void *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim,
        (void)wSize;
    cudart *rt = rt_enter();
    rt_kernel *k = g_new0(rt_kernel, 1);
    k->fb = (rt_fatbin *)handle;
    k->name = g_strdup(deviceFun);
    g_hash_table_replace(rt->kernels, (gpointer)hostFun, k);
    rt_log(rt, RT_LOG_DEBUG, "kernel %s at host %p", k->name, (const void *)hostFun);
    rt_unlock(rt);
}

CUDART_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant,
                                     int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    cudart *rt = rt_enter();
    rt_var *v = g_new0(rt_var, 1);
    v->fb = (rt_fatbin *)handle;
    v->name = g_strdup(deviceName);
    v->size = size;
    v->constant = constant != 0;
    g_hash_table_replace(rt->vars, hostVar, v);
    rt_unlock(rt);
}

CUDART_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                   cudaStream_t stream)
{
    cudart *rt = rt_enter();
    rt_call_config c = {gridDim, blockDim, sharedMem, stream};
    g_array_append_val(rt->config_stack, c);
    rt_unlock(rt);
    return 0;
}

CUDART_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                     size_t *sharedMem, void *stream)
{
    cudart *rt = rt_enter();
    if (!rt->config_stack->len)
        return rt_leave(rt, cudaErrorMissingConfiguration);
    rt_call_config c = g_array_index(rt->config_stack, rt_call_config, rt->config_stack->len - 1);
    g_array_set_size(rt->config_stack, rt->config_stack->len - 1);
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    memcpy(stream, &c.stream, sizeof c.stream);
    rt_unlock(rt);
    return cudaSuccess;
}
