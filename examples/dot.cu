// examples/dot.cu — an ordinary CUDA program, unmodified for ptxemu: the dot
// product of two vectors (a grid-stride loop, a shared-memory tree
// reduction per block, one atomicAdd per block), checked against the CPU.
// scripts/demo.sh builds it with `nvcc -cudart shared` and runs it with
// `ptxemu exec`; on a GPU it runs as it is.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            std::fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(e_));                                \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

constexpr int kThreads = 256;

__global__ void dot(const float *x, const float *y, int n, float *result)
{
    __shared__ float partial[kThreads];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] * y[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(result, partial[0]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 1 << 16;
    std::vector<float> x(n), y(n);
    double want = 0.0;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 17) / 16.0f;
        y[i] = (float)(i % 7) * 0.5f - 1.0f;
        want += (double)x[i] * y[i];
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s (compute capability %d.%d, %d SMs)\n", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount);
    float *dx, *dy, *dr;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMalloc(&dr, sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dr, 0, sizeof(float)));
    int blocks = 32;
    dot<<<blocks, kThreads>>>(dx, dy, n, dr);
    CHECK(cudaGetLastError());
    float got = 0.0f;
    CHECK(cudaMemcpy(&got, dr, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dr));
    // the blocks add their partial sums in whatever order they finish
    bool ok = std::fabs(got - want) <= 1e-5 * std::fabs(want) + 1e-3;
    std::printf("dot product of %d floats: GPU %.3f, CPU %.3f: %s\n", n, got, want,
                ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
