/* tests/cudart/test_cudart_api.c — the drop-in libcudart.so.13 driven the
 * way nvcc's host code drives it, without a CUDA toolkit: a hand-built
 * fatbinary (plain and LZ4-compressed PTX, and a SASS-only one) is
 * registered with its kernel and variable, then launched through every
 * launch path, with copies, symbols, 2-D copies and the documented error
 * codes.  meson runs it with PTXEMU_SET=gpu.compute_capability=86;
 * gpu.num_sms=7, so the device properties must show that config. */
#include "cudart/cuda_abi.h"
#include "fatbin_build.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* The entry points under test (the library exports them; cuda_abi.h has
 * the types). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shared, cudaStream_t s);
cudaError_t __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *shared, void *s);
cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *fn);
cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared,
                               cudaStream_t s);
cudaError_t cudaLaunchKernel(const void *fn, dim3 g, dim3 b, void **args, size_t shared,
                             cudaStream_t s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w,
                         size_t h, int kind);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev);
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *fn);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaGraphClone(void **clone, void *graph);
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *n, cudaGraph_t g, const cudaGraphNode_t *deps,
                                   size_t ndeps, const struct cudaKernelNodeParams *p);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *n, cudaGraph_t g, const cudaGraphNode_t *deps,
                                   size_t ndeps, const struct cudaMemsetParams *p);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *n, cudaGraph_t g,
                                       const cudaGraphNode_t *deps, size_t ndeps, cudaGraph_t c);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g, unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
                                cudaGraphExecUpdateResultInfo *info);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int dev);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, int attr, void *v);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t p, size_t keep);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags);
cudaError_t cudaHostUnregister(void *p);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
const char *cudaGetErrorName(cudaError_t e);

/* add_g: a[i] += g for i < n, where g is a module .global variable. */
static const char KERNEL_PTX[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .u32 g = 3;\n"
    ".visible .entry add_g(.param .u64 a, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r2, %r3, %r4, %r2;\n  setp.ge.u32 %p1, %r2, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r5, [%rd3];\n"
    "  ld.global.u32 %r6, [g];\n  add.s32 %r5, %r5, %r6;\n  st.global.u32 [%rd3], %r5;\n"
    "DONE:\n  ret;\n}\n";

/* Host-side stand-ins for what nvcc generates: a stub per kernel and a
 * shadow per variable; only their addresses matter. */
static const char plain_stub = 0, lz4_stub = 0, sass_stub = 0;
static unsigned g_shadow;

static GByteArray *plain_img, *lz4_img, *sass_img, *lz4_block;
static fatbin_wrapper plain_w, lz4_w, sass_w;

static void **register_image(fatbin_wrapper *w, GByteArray *img, const char *stub, bool var)
{
    *w = (fatbin_wrapper){(int)FATBINC_MAGIC, 1, (const unsigned long long *)img->data, NULL};
    void **h = __cudaRegisterFatBinary(w);
    __cudaRegisterFunction(h, stub, (char *)"add_g", "add_g", -1, NULL, NULL, NULL, NULL, NULL);
    if (var)
        __cudaRegisterVar(h, (char *)&g_shadow, (char *)"g", "g", 0, sizeof(unsigned), 0, 0);
    __cudaRegisterFatBinaryEnd(h);
    return h;
}

static int setup(void **state)
{
    (void)state;
    /* the compute_75 PTX, and a decoy for a target above the config's */
    fb_spec plain[] = {{1, 75, 0, KERNEL_PTX, sizeof KERNEL_PTX - 1, 0},
                       {1, 90, 0, "garbage", 7, 0}};
    plain_img = fb_build(plain, 2);
    lz4_block = fb_lz4_literals(KERNEL_PTX, sizeof KERNEL_PTX - 1);
    fb_spec lz4[] = {{1, 80, 0x2000, lz4_block->data, lz4_block->len, sizeof KERNEL_PTX - 1}};
    lz4_img = fb_build(lz4, 1);
    fb_spec sass[] = {{2, 75, 0, "\x7f" "ELF", 4, 0}};
    sass_img = fb_build(sass, 1);
    register_image(&plain_w, plain_img, &plain_stub, true);
    register_image(&lz4_w, lz4_img, &lz4_stub, false);
    register_image(&sass_w, sass_img, &sass_stub, false);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* the runtime keeps pointing at the images until exit */
    return 0;
}

static void test_properties_from_config(void **state)
{
    (void)state;
    struct cudaDeviceProp p;
    assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    assert_int_equal(p.major, 8);
    assert_int_equal(p.minor, 6);
    assert_int_equal(p.multiProcessorCount, 7);
    assert_int_equal(p.warpSize, 32);
    assert_int_equal(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidDevice);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

/* Every attribute of enum cudaDeviceAttr (device_attrs.def, generated from
 * CUDA's header) is answered; values outside the enum are
 * cudaErrorInvalidValue, as in CUDA; answers agree with the properties. */
static void test_every_device_attribute(void **state)
{
    (void)state;
    static const struct { const char *name; int value; } attrs[] = {
#define CUDART_DEVICE_ATTR(name, value) {#name, value},
#define CUDART_DEVICE_ATTR_END(value)
#include "cudart/device_attrs.def"
#undef CUDART_DEVICE_ATTR
#undef CUDART_DEVICE_ATTR_END
    };
    bool known[cudaDevAttrMax] = {false};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = -12345;
        cudaError_t e = cudaDeviceGetAttribute(&v, attrs[i].value, 0);
        if (e != cudaSuccess)
            fail_msg("cudaDeviceGetAttribute(%s) -> %s", attrs[i].name, cudaGetErrorName(e));
        known[attrs[i].value] = true;
    }
    assert_int_equal(sizeof attrs / sizeof attrs[0], 137); /* CUDA 13.0's count */
    for (int a = -1; a <= cudaDevAttrMax + 1; a++) {
        if (a >= 0 && a < cudaDevAttrMax && known[a])
            continue;
        int v = 7;
        assert_int_equal(cudaDeviceGetAttribute(&v, a, 0), cudaErrorInvalidValue);
        assert_int_equal(v, 7);
    }
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    int v;
    assert_int_equal(cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0), cudaErrorInvalidValue);
    assert_int_equal(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
    (void)cudaGetLastError();
    struct cudaDeviceProp p;
    assert_int_equal(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    struct { int attr, want; } same[] = {
        {cudaDevAttrComputeCapabilityMajor, 8}, {cudaDevAttrComputeCapabilityMinor, 6},
        {cudaDevAttrMultiProcessorCount, 7}, {cudaDevAttrManagedMemory, 1},
        {cudaDevAttrComputeMode, 0}, {cudaDevAttrKernelExecTimeout, 0},
        {cudaDevAttrCooperativeLaunch, 1}, {cudaDevAttrConcurrentManagedAccess, 0},
        {cudaDevAttrPageableMemoryAccess, 0}, {cudaDevAttrCanMapHostMemory, p.canMapHostMemory},
        {cudaDevAttrGpuOverlap, p.asyncEngineCount > 0},
        {cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported},
        {cudaDevAttrMaxSharedMemoryPerBlock, (int)p.sharedMemPerBlock},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (int)p.sharedMemPerBlockOptin},
        {cudaDevAttrReservedSharedMemoryPerBlock, 1024}, /* compute capability 8.6 */
        {cudaDevAttrL2CacheSize, p.l2CacheSize}, {cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1]},
        {cudaDevAttrMaxSurfaceCubemapLayeredLayers, p.maxSurfaceCubemapLayered[1]},
        {cudaDevAttrHostNumaId, p.hostNumaId}, {cudaDevAttrNumaId, -1},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        assert_int_equal(cudaDeviceGetAttribute(&v, same[i].attr, 0), cudaSuccess);
        if (v != same[i].want)
            fail_msg("attribute %d: %d, expected %d", same[i].attr, v, same[i].want);
    }
    assert_int_equal(p.managedMemory, 1);
    assert_int_equal(p.sharedMemPerBlock, p.sharedMemPerBlockOptin < 48 * 1024 ? p.sharedMemPerBlockOptin : 48 * 1024);
    assert_true(p.sharedMemPerBlockOptin + p.reservedSharedMemPerBlock == p.sharedMemPerMultiprocessor);
}

/* a[i] = 10 * i, launched through `how`, must come back as 10 * i + g. */
static void run_add(const void *stub, int how, unsigned g)
{
    enum { N = 100 };
    unsigned host[N], *dev = NULL;
    for (unsigned i = 0; i < N; i++)
        host[i] = 10 * i;
    assert_int_equal(cudaMalloc((void **)&dev, sizeof host), cudaSuccess);
    assert_int_equal(cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    unsigned n = N;
    void *args[] = {&dev, &n};
    dim3 grid = {4, 1, 1}, block = {32, 1, 1};
    if (how == 0) {
        assert_int_equal(cudaLaunchKernel(stub, grid, block, args, 0, NULL), cudaSuccess);
    } else {
        /* what <<<>>> expands to in CUDA 13 */
        assert_int_equal(__cudaPushCallConfiguration(grid, block, 0, NULL), 0);
        dim3 g2, b2;
        size_t shared = 1;
        cudaStream_t s = (cudaStream_t)&n;
        assert_int_equal(__cudaPopCallConfiguration(&g2, &b2, &shared, &s), cudaSuccess);
        assert_int_equal(g2.x, 4);
        assert_int_equal(b2.x, 32);
        assert_int_equal(shared, 0);
        assert_null(s);
        cudaKernel_t k = NULL;
        assert_int_equal(__cudaGetKernel(&k, stub), cudaSuccess);
        assert_int_equal(__cudaLaunchKernel(k, g2, b2, args, shared, s), cudaSuccess);
    }
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(host[i], 10 * i + g);
    assert_int_equal(cudaFree(dev), cudaSuccess);
}

static void test_launch_paths_and_symbols(void **state)
{
    (void)state;
    unsigned g = 0;
    /* the initialiser of g in the PTX */
    assert_int_equal(cudaMemcpyFromSymbol(&g, &g_shadow, sizeof g, 0, cudaMemcpyDeviceToHost),
                     cudaSuccess);
    assert_int_equal(g, 3);
    run_add(&plain_stub, 0, 3);
    g = 41;
    assert_int_equal(cudaMemcpyToSymbol(&g_shadow, &g, sizeof g, 0, cudaMemcpyHostToDevice),
                     cudaSuccess);
    run_add(&plain_stub, 1, 41);
    /* the LZ4 image is its own module: its g still holds the initialiser */
    run_add(&lz4_stub, 1, 3);
    assert_int_equal(cudaMemcpyToSymbol(&g_shadow, &g, sizeof g, 2, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpyToSymbol(&g, &g, sizeof g, 0, cudaMemcpyHostToDevice),
                     cudaErrorInvalidSymbol);
    struct cudaFuncAttributes a;
    assert_int_equal(cudaFuncGetAttributes(&a, &plain_stub), cudaSuccess);
    assert_int_equal(a.binaryVersion, 75); /* compute_90 is above the config's 86 */
    assert_int_equal(a.ptxVersion, 75);    /* .version 7.5 */
    assert_true(a.numRegs > 0);
    assert_int_equal(cudaFuncGetAttributes(&a, &lz4_stub), cudaSuccess);
    assert_int_equal(a.binaryVersion, 80);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidSymbol);
}

static void test_copy_2d(void **state)
{
    (void)state;
    unsigned char host[3][5], back[3][5], *dev = NULL;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++)
            host[r][c] = (unsigned char)(r * 16 + c);
    assert_int_equal(cudaMalloc((void **)&dev, 3 * 8), cudaSuccess);
    assert_int_equal(cudaMemset(dev, 0xee, 24), cudaSuccess);
    assert_int_equal(cudaMemcpy2D(dev, 8, host, 5, 5, 3, cudaMemcpyHostToDevice), cudaSuccess);
    unsigned char raw[24];
    assert_int_equal(cudaMemcpy(raw, dev, 24, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(raw[8 + 4], 0x14);  /* row 1, column 4 at pitch 8 */
    assert_int_equal(raw[8 + 5], 0xee);  /* the padding is untouched */
    assert_int_equal(cudaMemcpy2D(back, 5, dev, 8, 5, 3, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(back, host, sizeof host);
    assert_int_equal(cudaMemcpy2D(dev, 4, host, 5, 5, 3, cudaMemcpyHostToDevice),
                     cudaErrorInvalidPitchValue);
    /* the footprint of 3 rows at pitch 8 would pass the 24-byte block */
    assert_int_equal(cudaMemcpy2D(dev + 8, 8, host, 5, 5, 3, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaFree(dev), cudaSuccess);
    (void)cudaGetLastError();
}

static void test_errors(void **state)
{
    (void)state;
    unsigned n = 1, *dev = NULL;
    void *args[] = {&dev, &n};
    dim3 one = {1, 1, 1}, big = {2048, 1, 1};
    assert_int_equal(cudaMalloc((void **)&dev, 4), cudaSuccess);
    assert_int_equal(cudaLaunchKernel(&plain_stub, one, big, args, 0, NULL),
                     cudaErrorInvalidConfiguration);
    assert_int_equal(cudaLaunchKernel(&n, one, one, args, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaLaunchKernel(&plain_stub, one, one, args, 0, (cudaStream_t)&n),
                     cudaErrorInvalidResourceHandle);
    /* SASS only: no kernel image for the device */
    assert_int_equal(cudaLaunchKernel(&sass_stub, one, one, args, 0, NULL),
                     cudaErrorNoKernelImageForDevice);
    assert_string_equal(cudaGetErrorName(cudaGetLastError()), "cudaErrorNoKernelImageForDevice");
    assert_int_equal(cudaMemcpy(&n, &n, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(dev, &n, 8, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(&n), cudaErrorInvalidValue);
    dim3 g = {0, 0, 0};
    size_t sh;
    cudaStream_t s;
    assert_int_equal(__cudaPopCallConfiguration(&g, &g, &sh, &s), cudaErrorMissingConfiguration);
    void *graph = NULL;
    assert_int_equal(cudaGraphClone(&graph, NULL), cudaErrorNotSupported);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaFree(dev), cudaSuccess);
}

/* Sizes no host or device has fail softly with the documented code
 * (cudaErrorMemoryAllocation), host registration is tracked, and the
 * runtime keeps working after each. */
static void test_host_memory_errors(void **state)
{
    (void)state;
    const size_t tb = (size_t)1 << 40;
    void *p = &p;
    assert_int_equal(cudaMallocHost(&p, tb), cudaErrorMemoryAllocation);
    assert_null(p);
    assert_int_equal(cudaHostAlloc(&p, SIZE_MAX, 0), cudaErrorMemoryAllocation);
    assert_int_equal(cudaMallocManaged(&p, SIZE_MAX, 1), cudaErrorMemoryAllocation);
    size_t pitch = 0;
    assert_int_equal(cudaMallocPitch(&p, &pitch, SIZE_MAX / 2, 4), cudaErrorMemoryAllocation);
    assert_int_equal(cudaMallocPitch(&p, &pitch, SIZE_MAX, 1), cudaErrorMemoryAllocation);
    assert_int_equal(cudaGetLastError(), cudaErrorMemoryAllocation);
    /* the footprint of a 2-D copy wraps around: not a range of anything */
    unsigned char *dev = NULL, host[16] = {0};
    assert_int_equal(cudaMalloc((void **)&dev, 16), cudaSuccess);
    assert_int_equal(cudaMemcpy2D(dev, SIZE_MAX / 2, host, 1, 1, 4, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaFree(dev), cudaSuccess);
    /* registration: twice is an error, unregistering needs the base */
    char buf[64];
    assert_int_equal(cudaHostUnregister(buf), cudaErrorHostMemoryNotRegistered);
    assert_int_equal(cudaHostUnregister(NULL), cudaErrorInvalidValue);
    assert_int_equal(cudaHostRegister(buf, 0, 0), cudaErrorInvalidValue);
    assert_int_equal(cudaHostRegister(buf, sizeof buf, 0), cudaSuccess);
    assert_int_equal(cudaHostRegister(buf + 8, 8, 0), cudaErrorHostMemoryAlreadyRegistered);
    assert_int_equal(cudaHostUnregister(buf + 8), cudaErrorHostMemoryNotRegistered);
    assert_int_equal(cudaHostUnregister(buf), cudaSuccess);
    assert_int_equal(cudaHostUnregister(buf), cudaErrorHostMemoryNotRegistered);
    assert_string_equal(cudaGetErrorName(cudaGetLastError()), "cudaErrorHostMemoryNotRegistered");
    /* still working */
    assert_int_equal(cudaMallocHost(&p, 64), cudaSuccess);
    assert_non_null(p);
    assert_int_equal(cudaFreeHost(p), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

/* Managed memory: one pointer for both sides.  Under AddressSanitizer the
 * device window lies in ASan's shadow, so the mapping cannot be made and
 * the documented allocation error comes back instead. */
static void test_managed(void **state)
{
    (void)state;
    unsigned *m = NULL, n = 64;
#if defined(__SANITIZE_ADDRESS__)
    assert_int_equal(cudaMallocManaged((void **)&m, n * 4, 1), cudaErrorMemoryAllocation);
    (void)cudaGetLastError();
#else
    assert_int_equal(cudaMallocManaged((void **)&m, n * 4, 1), cudaSuccess);
    for (unsigned i = 0; i < n; i++)
        m[i] = 3 * i;
    unsigned g = 4;
    assert_int_equal(cudaMemcpyToSymbol(&g_shadow, &g, 4, 0, cudaMemcpyHostToDevice), cudaSuccess);
    void *args[] = {&m, &n};
    dim3 grid = {2, 1, 1}, block = {32, 1, 1};
    assert_int_equal(cudaLaunchKernel(&plain_stub, grid, block, args, 0, NULL), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(m[i], 3 * i + 4);
    assert_int_equal(cudaFree(m), cudaSuccess);
#endif
}

/* cudaHostAlloc(cudaHostAllocMapped): the device pointer is the host
 * pointer, synchronised at launch boundaries (rt_managed.c). */
static void test_mapped_host(void **state)
{
    (void)state;
    unsigned *h = NULL, n = 64;
    void *d = NULL;
#if defined(__SANITIZE_ADDRESS__)
    assert_int_equal(cudaHostAlloc((void **)&h, n * 4, 2), cudaErrorMemoryAllocation);
    (void)cudaGetLastError();
#else
    assert_int_equal(cudaHostAlloc((void **)&h, n * 4, 2 /* Mapped */), cudaSuccess);
    assert_int_equal(cudaHostGetDevicePointer(&d, h, 0), cudaSuccess);
    assert_ptr_equal(d, h);
    for (unsigned i = 0; i < n; i++)
        h[i] = 5 * i;
    unsigned g = 2;
    assert_int_equal(cudaMemcpyToSymbol(&g_shadow, &g, 4, 0, cudaMemcpyHostToDevice), cudaSuccess);
    void *args[] = {&d, &n};
    dim3 grid = {2, 1, 1}, block = {32, 1, 1};
    assert_int_equal(cudaLaunchKernel(&plain_stub, grid, block, args, 0, NULL), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(h[i], 5 * i + 2);
    assert_int_equal(cudaFree(h), cudaErrorInvalidValue);
    assert_int_equal(cudaFreeHost(h), cudaSuccess);
    assert_int_equal(cudaFreeHost(h), cudaErrorInvalidValue);
    (void)cudaGetLastError();
#endif
    unsigned plain[4];
    assert_int_equal(cudaHostGetDevicePointer(&d, plain, 0), cudaErrorNotSupported);
    assert_int_equal(cudaHostGetDevicePointer(NULL, plain, 0), cudaErrorInvalidValue);
    (void)cudaGetLastError();
}

/* Last: a kernel's illegal address is reported by the next synchronising
 * call, and sticks. */
static void test_sticky_fault(void **state)
{
    (void)state;
    unsigned n = 32, *bad = (unsigned *)(uintptr_t)0x10;
    void *args[] = {&bad, &n};
    dim3 one = {1, 1, 1}, warp = {32, 1, 1};
    assert_int_equal(cudaLaunchKernel(&plain_stub, one, warp, args, 0, NULL), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    void *p = NULL;
    assert_int_equal(cudaMalloc(&p, 4), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
}

/* After the fault: cudaDeviceReset clears the sticky error, reloads the
 * registered PTX (g is back to its initialiser) and the device works. */
/* Graphs (explicit, captured, child), stream-ordered allocation, and
 * capture state dropped by cudaDeviceReset: also under ASan/UBSan. */
static void test_graphs_and_pools(void **state)
{
    (void)state;
    unsigned *a = NULL, *b = NULL, want[64], got[64];
    unsigned n = 64;
    dim3 one = {1, 1, 1}, block = {64, 1, 1};
    assert_int_equal(cudaDeviceReset(), cudaSuccess); /* the fault test's sticky error */
    assert_int_equal(cudaMalloc((void **)&a, sizeof want), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&b, sizeof want), cudaSuccess);
    assert_int_equal(cudaMemset(a, 0, sizeof want), cudaSuccess);
    void *args_a[] = {&a, &n}, *args_b[] = {&b, &n};
    assert_int_equal(cudaLaunchKernel(&plain_stub, one, block, args_a, 0, NULL), cudaSuccess);
    assert_int_equal(cudaMemcpy(want, a, sizeof want, cudaMemcpyDeviceToHost), cudaSuccess);

    cudaGraph_t g, parent, cap;
    cudaGraphNode_t set, k, child;
    assert_int_equal(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaMemsetParams ms = {b, 0, 0x01010101u, 4, 64, 1};
    assert_int_equal(cudaGraphAddMemsetNode(&set, g, NULL, 0, &ms), cudaSuccess);
    struct cudaKernelNodeParams kp = {(void *)&plain_stub, one, block, 0, args_b, NULL};
    assert_int_equal(cudaGraphAddKernelNode(&k, g, &set, 1, &kp), cudaSuccess);
    unsigned *b_saved = b;
    b = NULL; /* the node holds its own copy of the arguments */
    assert_int_equal(cudaGraphCreate(&parent, 0), cudaSuccess);
    assert_int_equal(cudaGraphAddChildGraphNode(&child, parent, NULL, 0, g), cudaSuccess);
    cudaGraphExec_t x, px;
    assert_int_equal(cudaGraphInstantiate(&x, g, 0), cudaSuccess);
    assert_int_equal(cudaGraphInstantiate(&px, parent, 0), cudaSuccess);
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(x, s), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(px, s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaMemcpy(got, b_saved, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned i = 0; i < n; i++) /* 4-byte memset pattern, then the kernel */
        assert_int_equal(got[i], want[i] + 0x01010101u);

    /* capture: a memset and the kernel on `s` become a graph */
    void *pool_ptr = NULL;
    assert_int_equal(cudaStreamBeginCapture(s, 0), cudaSuccess);
    assert_int_equal(cudaMallocAsync(&pool_ptr, 64, s), cudaErrorNotSupported);
    assert_int_equal(cudaStreamEndCapture(s, &cap), cudaErrorStreamCaptureInvalidated);
    assert_int_equal(cudaStreamBeginCapture(s, 0), cudaSuccess);
    assert_int_equal(cudaMemsetAsync(a, 0, sizeof want, s), cudaSuccess);
    assert_int_equal(cudaLaunchKernel(&plain_stub, one, block, args_a, 0, s), cudaSuccess);
    assert_int_equal(cudaStreamEndCapture(s, &cap), cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    assert_int_equal(cudaGraphExecUpdate(x, cap, &info), cudaSuccess); /* same topology */
    assert_int_equal(info.result, 0);
    assert_int_equal(cudaGraphExecUpdate(x, parent, &info), cudaErrorGraphExecUpdateFailure);
    assert_int_equal(cudaGraphLaunch(x, s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(got, want, sizeof want);

    /* stream-ordered allocation */
    cudaMemPool_t pool;
    uint64_t used = 1;
    assert_int_equal(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    assert_int_equal(cudaMallocAsync(&pool_ptr, 64 * sizeof(unsigned), s), cudaSuccess);
    assert_int_equal(cudaMemsetAsync(pool_ptr, 0, 64 * sizeof(unsigned), s), cudaSuccess);
    void *args_p[] = {&pool_ptr, &n};
    assert_int_equal(cudaLaunchKernel(&plain_stub, one, block, args_p, 0, s), cudaSuccess);
    assert_int_equal(cudaMemcpy(got, pool_ptr, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(cudaFreeAsync(pool_ptr, s), cudaSuccess);
    assert_int_equal(cudaFreeAsync(pool_ptr, s), cudaErrorInvalidValue);
    assert_int_equal(cudaMemPoolGetAttribute(pool, 7, &used), cudaSuccess); /* UsedMemCurrent */
    assert_int_equal(used, 0);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaMemPoolTrimTo(pool, 0), cudaSuccess);

    /* a capture in progress and pool memory go with cudaDeviceReset */
    assert_int_equal(cudaMallocAsync(&pool_ptr, 256, s), cudaSuccess);
    assert_int_equal(cudaStreamBeginCapture(s, 2), cudaSuccess);
    assert_int_equal(cudaGraphExecDestroy(x), cudaSuccess);
    assert_int_equal(cudaGraphExecDestroy(px), cudaSuccess);
    assert_int_equal(cudaGraphDestroy(cap), cudaSuccess);
    assert_int_equal(cudaGraphDestroy(parent), cudaSuccess);
    assert_int_equal(cudaGraphDestroy(g), cudaSuccess);
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    (void)cudaGetLastError();
    (void)a;
}

static void test_reset(void **state)
{
    (void)state;
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    run_add(&plain_stub, 1, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties_from_config),
        cmocka_unit_test(test_every_device_attribute),
        cmocka_unit_test(test_launch_paths_and_symbols),
        cmocka_unit_test(test_copy_2d),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_host_memory_errors),
        cmocka_unit_test(test_managed),
        cmocka_unit_test(test_mapped_host),
        cmocka_unit_test(test_sticky_fault),
        cmocka_unit_test(test_graphs_and_pools),
        cmocka_unit_test(test_reset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
