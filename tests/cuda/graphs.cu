// tests/cuda/graphs.cu — CUDA graphs as the public samples use them
// (simpleCudaGraphs): a two-stage reduction built once from explicit nodes
// and once by stream capture across two streams with events, each launched
// several times and checked against the CPU; child graphs, host and memset
// nodes, cudaGraphExecKernelNodeSetParams and cudaGraphExecUpdate; and the
// documented error codes for misuse.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

#define THREADS 256

__global__ void reduce(const float *in, float *out, size_t n)
{
    __shared__ float s[THREADS];
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = 0;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x)
        v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

__global__ void reduce_final(const float *in, double *out, size_t n)
{
    __shared__ double s[THREADS];
    double v = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = s[0];
}

__global__ void scale(float *x, float f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= f;
}

struct host_data {
    double *result;
    double *seen;
    int calls;
};

static void CUDART_CB record_result(void *p)
{
    host_data *h = (host_data *)p;
    h->seen[h->calls++ % 8] = *h->result;
}

static double cpu_sum(const std::vector<float> &v)
{
    double s = 0;
    for (float x : v)
        s += x;
    return s;
}

static bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-3 * std::fabs(b) + 1e-3;
}

int main()
{
    const size_t n = 1 << 16;
    const unsigned blocks = 64;
    std::vector<float> h(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (float)((i * 7) % 13) * 0.25f;
    const double want = cpu_sum(h);

    float *in, *partial;
    double *result, *host_result;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&partial, blocks * sizeof(float)));
    CHECK(cudaMalloc(&result, sizeof(double)));
    CHECK(cudaMallocHost(&host_result, sizeof(double)));
    std::vector<float> staging(h);
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

    // ---- explicit nodes: memcpy -> memset -> reduce -> reduce_final -> memcpy -> host
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t cpy_in, zero, k1, k2, cpy_out, hostn;
    CHECK(cudaGraphAddMemcpyNode1D(&cpy_in, g, nullptr, 0, in, staging.data(), n * sizeof(float),
                                   cudaMemcpyHostToDevice));
    cudaMemsetParams ms = {};
    ms.dst = partial;
    ms.value = 0;
    ms.elementSize = sizeof(float);
    ms.width = blocks;
    ms.height = 1;
    CHECK(cudaGraphAddMemsetNode(&zero, g, nullptr, 0, &ms));
    size_t nn = n;
    void *a1[] = {&in, &partial, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)reduce;
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(THREADS);
    kp.kernelParams = a1;
    cudaGraphNode_t deps1[] = {cpy_in, zero};
    CHECK(cudaGraphAddKernelNode(&k1, g, deps1, 2, &kp));
    nn = 12345; // the node copied the argument values when it was added
    size_t nb = blocks;
    void *a2[] = {&partial, &result, &nb};
    cudaKernelNodeParams kp2 = {};
    kp2.func = (void *)reduce_final;
    kp2.gridDim = dim3(1);
    kp2.blockDim = dim3(THREADS);
    kp2.kernelParams = a2;
    CHECK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp2));
    CHECK(cudaGraphAddMemcpyNode1D(&cpy_out, g, &k2, 1, host_result, result, sizeof(double),
                                   cudaMemcpyDeviceToHost));
    double seen[8] = {0};
    host_data hd = {host_result, seen, 0};
    cudaHostNodeParams hp = {record_result, &hd};
    CHECK(cudaGraphAddHostNode(&hostn, g, &cpy_out, 1, &hp));

    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    REQUIRE(count == 6);
    CHECK(cudaGraphGetRootNodes(g, nullptr, &count));
    REQUIRE(count == 2);
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(k1, &type));
    REQUIRE(type == cudaGraphNodeTypeKernel);

    cudaGraphExec_t ge;
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int it = 0; it < 3; it++)
        CHECK(cudaGraphLaunch(ge, s1));
    CHECK(cudaStreamSynchronize(s1));
    REQUIRE(hd.calls == 3);
    for (int it = 0; it < 3; it++)
        REQUIRE(near(seen[it], want));

    // the graph reads the host source when it runs: a new input, a new sum
    for (size_t i = 0; i < n; i++)
        staging[i] = 1.0f;
    CHECK(cudaGraphLaunch(ge, s1));
    CHECK(cudaStreamSynchronize(s1));
    REQUIRE(near(*host_result, (double)n));
    staging = h;

    // an executable graph's kernel parameters can be changed
    float *in2;
    CHECK(cudaMalloc(&in2, n * sizeof(float)));
    CHECK(cudaMemset(in2, 0, n * sizeof(float)));
    void *a3[] = {&in2, &partial, &nb}; // sum only the first 64 (zero) values of in2
    cudaKernelNodeParams kp3 = kp;
    kp3.kernelParams = a3;
    CHECK(cudaGraphExecKernelNodeSetParams(ge, k1, &kp3));
    CHECK(cudaGraphLaunch(ge, s1));
    CHECK(cudaStreamSynchronize(s1));
    REQUIRE(*host_result == 0.0);

    // cudaGraphExecUpdate: the same topology with the original arguments
    nn = n;
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(ge, g, &info));
    REQUIRE(info.result == cudaGraphExecUpdateSuccess);
    CHECK(cudaGraphLaunch(ge, s1));
    CHECK(cudaStreamSynchronize(s1));
    REQUIRE(near(*host_result, want));

    // ---- capture across two streams with events (fork and join)
    cudaEvent_t fork, join;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&join));
    cudaGraph_t cg;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s1, &st));
    REQUIRE(st == cudaStreamCaptureStatusActive);
    CHECK(cudaStreamIsCapturing(s2, &st));
    REQUIRE(st == cudaStreamCaptureStatusNone);
    CHECK(cudaMemcpyAsync(in, staging.data(), n * sizeof(float), cudaMemcpyHostToDevice, s1));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0)); // s2 joins the capture
    CHECK(cudaStreamIsCapturing(s2, &st));
    REQUIRE(st == cudaStreamCaptureStatusActive);
    CHECK(cudaMemsetAsync(partial, 0, blocks * sizeof(float), s2));
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    reduce<<<blocks, THREADS, 0, s1>>>(in, partial, n);
    CHECK(cudaGetLastError());
    reduce_final<<<1, THREADS, 0, s1>>>(partial, result, blocks);
    CHECK(cudaMemcpyAsync(host_result, result, sizeof(double), cudaMemcpyDeviceToHost, s1));
    hd.calls = 0;
    CHECK(cudaLaunchHostFunc(s1, record_result, &hd));
    unsigned long long id = 0;
    size_t ndeps = 0;
    const cudaGraphNode_t *deps = nullptr;
    cudaGraph_t during = nullptr;
    CHECK(cudaStreamGetCaptureInfo(s1, &st, &id, &during, &deps, nullptr, &ndeps));
    REQUIRE(st == cudaStreamCaptureStatusActive && id != 0 && during && ndeps == 1);
    REQUIRE(hd.calls == 0); // nothing ran during capture
    CHECK(cudaStreamEndCapture(s1, &cg));
    CHECK(cudaStreamIsCapturing(s2, &st));
    REQUIRE(st == cudaStreamCaptureStatusNone);
    CHECK(cudaGraphGetNodes(cg, nullptr, &count));
    REQUIRE(count == 6);
    CHECK(cudaGraphGetRootNodes(cg, nullptr, &count));
    REQUIRE(count == 1);
    cudaGraphExec_t ce;
    CHECK(cudaGraphInstantiateWithFlags(&ce, cg, 0));
    for (int it = 0; it < 4; it++)
        CHECK(cudaGraphLaunch(ce, s2));
    CHECK(cudaStreamSynchronize(s2));
    REQUIRE(hd.calls == 4);
    for (int it = 0; it < 4; it++)
        REQUIRE(near(seen[it], want));

    // the captured graph updates the explicit one's executable (same topology? no)
    EXPECT_ERR(cudaGraphExecUpdate(ge, cg, &info), cudaErrorGraphExecUpdateFailure);
    REQUIRE(info.result != cudaGraphExecUpdateSuccess);

    // ---- child graph node, and a graph launch captured as a child node
    cudaGraph_t parent;
    CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t child, empty, sc;
    CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g));
    CHECK(cudaGraphAddEmptyNode(&empty, parent, &child, 1));
    float f = 2.0f;
    int ni = (int)n;
    void *a4[] = {&in, &f, &ni};
    cudaKernelNodeParams kp4 = {};
    kp4.func = (void *)scale;
    kp4.gridDim = dim3((unsigned)(n / THREADS));
    kp4.blockDim = dim3(THREADS);
    kp4.kernelParams = a4;
    CHECK(cudaGraphAddKernelNode(&sc, parent, &empty, 1, &kp4));
    cudaGraphExec_t pe;
    CHECK(cudaGraphInstantiate(&pe, parent, 0));
    CHECK(cudaGraphLaunch(pe, s1));
    CHECK(cudaStreamSynchronize(s1));
    REQUIRE(near(*host_result, want));
    std::vector<float> back(n);
    CHECK(cudaMemcpy(back.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost));
    REQUIRE(near(cpu_sum(back), 2 * want));

    cudaGraph_t outer;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
    CHECK(cudaGraphLaunch(ce, s1));
    CHECK(cudaStreamEndCapture(s1, &outer));
    CHECK(cudaGraphGetNodes(outer, nullptr, &count));
    REQUIRE(count == 1);
    cudaGraphNode_t on;
    count = 1;
    CHECK(cudaGraphGetNodes(outer, &on, &count));
    CHECK(cudaGraphNodeGetType(on, &type));
    REQUIRE(type == cudaGraphNodeTypeGraph);

    // ---- misuse and its documented codes
    EXPECT_ERR(cudaGraphLaunch(nullptr, s1), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphLaunch((cudaGraphExec_t)g, s1), cudaErrorInvalidValue); // not instantiated
    EXPECT_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
               cudaErrorStreamCaptureUnsupported);
    EXPECT_ERR(cudaStreamEndCapture(s1, &outer), cudaErrorIllegalState); // not capturing
    cudaGraphNode_t bad;
    cudaGraphNode_t from[] = {k2}, to[] = {k1};
    EXPECT_ERR(cudaGraphAddDependencies(g, from, to, nullptr, 1), cudaErrorInvalidValue); // cycle
    EXPECT_ERR(cudaGraphAddKernelNode(&bad, g, nullptr, 0, nullptr), cudaErrorInvalidValue);
    cudaKernelNodeParams nokern = kp;
    nokern.func = (void *)record_result;
    EXPECT_ERR(cudaGraphAddKernelNode(&bad, g, nullptr, 0, &nokern),
               cudaErrorInvalidDeviceFunction);

    // a synchronising call on a capturing stream invalidates the capture
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    scale<<<1, 32, 0, s1>>>(in, 1.0f, 32);
    EXPECT_ERR(cudaStreamSynchronize(s1), cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamIsCapturing(s1, &st));
    REQUIRE(st == cudaStreamCaptureStatusInvalidated);
    scale<<<1, 32, 0, s1>>>(in, 1.0f, 32);
    EXPECT_ERR(cudaGetLastError(), cudaErrorStreamCaptureInvalidated);
    cudaGraph_t none = (cudaGraph_t)1;
    EXPECT_ERR(cudaStreamEndCapture(s1, &none), cudaErrorStreamCaptureInvalidated);
    REQUIRE(none == nullptr);
    CHECK(cudaStreamIsCapturing(s1, &st));
    REQUIRE(st == cudaStreamCaptureStatusNone);

    // cudaMalloc during a global-mode capture: not permitted, capture invalidated
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    float *tmp;
    EXPECT_ERR(cudaMalloc(&tmp, 64), cudaErrorStreamCaptureUnsupported);
    EXPECT_ERR(cudaStreamEndCapture(s1, &none), cudaErrorStreamCaptureInvalidated);
    // ... but allowed from a thread that made itself relaxed
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    REQUIRE(mode == cudaStreamCaptureModeGlobal);
    CHECK(cudaMalloc(&tmp, 64));
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    scale<<<1, 32, 0, s1>>>(tmp, 1.0f, 16);
    cudaGraph_t ok;
    CHECK(cudaStreamEndCapture(s1, &ok));
    CHECK(cudaGraphDestroy(ok));

    // a fork that never joins back
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    scale<<<1, 32, 0, s2>>>(tmp, 1.0f, 16);
    EXPECT_ERR(cudaStreamEndCapture(s2, &none), cudaErrorStreamCaptureUnmatched);
    EXPECT_ERR(cudaStreamEndCapture(s1, &none), cudaErrorStreamCaptureInvalidated);
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    scale<<<1, 32, 0, s2>>>(tmp, 1.0f, 16);
    EXPECT_ERR(cudaStreamEndCapture(s1, &none), cudaErrorStreamCaptureUnjoined);
    CHECK(cudaStreamIsCapturing(s2, &st));
    REQUIRE(st == cudaStreamCaptureStatusNone);

    // the legacy stream while a blocking stream captures
    cudaStream_t blocking;
    CHECK(cudaStreamCreate(&blocking));
    CHECK(cudaStreamBeginCapture(blocking, cudaStreamCaptureModeRelaxed));
    EXPECT_ERR(cudaStreamIsCapturing(0, &st), cudaErrorStreamCaptureImplicit);
    EXPECT_ERR(cudaMemsetAsync(tmp, 0, 64, 0), cudaErrorStreamCaptureImplicit);
    EXPECT_ERR(cudaStreamEndCapture(blocking, &none), cudaErrorStreamCaptureInvalidated);
    CHECK(cudaStreamDestroy(blocking));
    (void)cudaGetLastError();

    CHECK(cudaGraphExecDestroy(pe));
    CHECK(cudaGraphExecDestroy(ce));
    CHECK(cudaGraphExecDestroy(ge));
    EXPECT_ERR(cudaGraphExecDestroy(ge), cudaErrorInvalidValue);
    CHECK(cudaGraphDestroy(outer));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(cg));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(tmp));
    CHECK(cudaFree(in));
    CHECK(cudaFree(in2));
    CHECK(cudaFree(partial));
    CHECK(cudaFree(result));
    CHECK(cudaFreeHost(host_result));
    CHECK(cudaDeviceSynchronize());
    std::printf("PASS graphs\n");
    return 0;
}
