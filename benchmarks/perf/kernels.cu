// Kernels for the executor throughput benchmark (benchmarks/perf/exec_throughput.c):
// a compute-bound FMA chain and a memory-bound strided copy.
extern "C" __global__ void fma_loop(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 1.0f + i * 1e-6f, b = 0.999f, c = 1e-3f;
    float x = a, y = b;
#pragma unroll 4
    for (int k = 0; k < iters; k++) {
        x = fmaf(x, b, c);
        y = fmaf(y, a, -c);
    }
    out[i] = x + y;
}

extern "C" __global__ void strided_copy(const float *in, float *out, int n, int stride)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int total = gridDim.x * blockDim.x;
    for (int i = t; i < n; i += total) {
        int j = (int)(((long long)i * stride) % n);
        out[i] = in[j];
    }
}
