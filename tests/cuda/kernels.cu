// tests/cuda/kernels.cu — several kernels launched with <<<>>> (1-D, 2-D,
// dynamic shared memory, atomics, a __device__ function), copies and
// memsets, streams and events, device properties and function attributes,
// each result checked against a CPU computation.
// Usage: kernels [EXPECTED_BINARY_VERSION [EXPECTED_CC]]
#include "check.h"

#include <cstring>
#include <vector>

__device__ float twice(float x) { return 2.0f * x; }

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + twice(y[i]);
}

__global__ void transpose(const int *in, int *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[c * rows + r] = in[r * cols + c];
}

__global__ void block_sum(const unsigned *in, unsigned *out, unsigned n)
{
    extern __shared__ unsigned buf[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

__global__ void histogram(const unsigned char *in, int n, unsigned *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[in[i] % 16], 1u);
}

static void test_saxpy()
{
    const int n = 1000;
    std::vector<float> x(n), y(n), ref(n);
    for (int i = 0; i < n; i++) {
        x[i] = 0.5f * i;
        y[i] = 1000.0f - i;
        ref[i] = 3.0f * x[i] + 2.0f * y[i];
    }
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyDefault));
    saxpy<<<(n + 127) / 128, 128>>>(n, 3.0f, dx, dy);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        REQUIRE(y[i] == ref[i]);
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
}

static void test_transpose()
{
    const int rows = 37, cols = 53;
    std::vector<int> in(rows * cols), out(rows * cols, -1);
    for (int i = 0; i < rows * cols; i++)
        in[i] = i * 7 + 1;
    int *din, *dout, *dcopy;
    CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
    CHECK(cudaMalloc(&dout, in.size() * sizeof(int)));
    CHECK(cudaMalloc(&dcopy, in.size() * sizeof(int)));
    CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xff, in.size() * sizeof(int)));
    dim3 block(16, 8), grid((cols + 15) / 16, (rows + 7) / 8);
    transpose<<<grid, block>>>(din, dout, rows, cols);
    CHECK(cudaMemcpy(dcopy, dout, in.size() * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(out.data(), dcopy, in.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            REQUIRE(out[c * rows + r] == in[r * cols + c]);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dcopy));
}

// block_sum and histogram on a created stream, timed with events.
static void test_stream_and_atomics()
{
    const unsigned n = 3000, threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<unsigned> in(n), sums(blocks);
    std::vector<unsigned char> bytes(n);
    for (unsigned i = 0; i < n; i++) {
        in[i] = i * 3 + 1;
        bytes[i] = (unsigned char)(i * 31 + 7);
    }
    unsigned *din, *dsum, *dbins;
    unsigned char *dbytes;
    unsigned *pinned;
    CHECK(cudaMallocHost(&pinned, n * sizeof(unsigned)));
    std::memcpy(pinned, in.data(), n * sizeof(unsigned));
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dsum, blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&dbins, 16 * sizeof(unsigned)));
    CHECK(cudaMalloc(&dbytes, n));
    cudaStream_t s;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, s));
    CHECK(cudaMemcpyAsync(din, pinned, n * sizeof(unsigned), cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(dbytes, bytes.data(), n, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemsetAsync(dbins, 0, 16 * sizeof(unsigned), s));
    block_sum<<<blocks, threads, threads * sizeof(unsigned), s>>>(din, dsum, n);
    histogram<<<4, 128, 0, s>>>(dbytes, (int)n, dbins);
    CHECK(cudaEventRecord(stop, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    REQUIRE(ms >= 0.0f);
    unsigned bins[16];
    CHECK(cudaMemcpy(sums.data(), dsum, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bins, dbins, sizeof bins, cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; b++) {
        unsigned want = 0;
        for (unsigned i = b * threads; i < n && i < (b + 1) * threads; i++)
            want += in[i];
        REQUIRE(sums[b] == want);
    }
    unsigned want_bins[16] = {0};
    for (unsigned i = 0; i < n; i++)
        want_bins[bytes[i] % 16]++;
    for (int b = 0; b < 16; b++)
        REQUIRE(bins[b] == want_bins[b]);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dsum));
    CHECK(cudaFree(dbins));
    CHECK(cudaFree(dbytes));
}

int main(int argc, char **argv)
{
    int count = 0, version = 0;
    CHECK(cudaGetDeviceCount(&count));
    REQUIRE(count == 1);
    CHECK(cudaRuntimeGetVersion(&version));
    REQUIRE(version == CUDART_VERSION);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    REQUIRE(prop.warpSize == 32 && prop.maxThreadsPerBlock >= 512);
    int major = -1;
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    REQUIRE(major == prop.major);
    if (argc > 2)
        REQUIRE(prop.major * 10 + prop.minor == std::atoi(argv[2]));
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, saxpy));
    REQUIRE(attr.numRegs > 0 && attr.maxThreadsPerBlock > 0);
    if (argc > 1)
        REQUIRE(attr.binaryVersion == std::atoi(argv[1]));
    test_saxpy();
    test_transpose();
    test_stream_and_atomics();
    std::printf("PASS kernels (%s, compute_%d PTX)\n", prop.name, attr.binaryVersion);
    return 0;
}
