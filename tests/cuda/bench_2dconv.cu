// tests/cuda/bench_2dconv.cu — the project's 2dconv benchmark
// (benchmarks/2dconv/kernels.cu) as a standalone CUDA program: random
// image, one conv2d launch with 32 x 8 CTAs, checked against the same taps
// applied on the CPU with fmaf.  Usage: bench_2dconv [N] (N x N image).
#include "check.h"
#include "../../benchmarks/2dconv/kernels.cu"

#include <cmath>
#include <cstdint>
#include <vector>

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 256;
    std::vector<float> a((size_t)n * n), b((size_t)n * n), ref((size_t)n * n, 0.0f);
    uint32_t s = 12345;
    for (auto &v : a) {
        s = s * 1664525u + 1013904223u;
        v = (float)(s >> 8) / 16777216.0f;
    }
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++) {
            const float *up = &a[(size_t)(i - 1) * n + j], *mid = &a[(size_t)i * n + j],
                        *down = &a[(size_t)(i + 1) * n + j];
            float v = W00 * up[-1];
            v = fmaf(W01, up[0], v);
            v = fmaf(W02, up[1], v);
            v = fmaf(W10, mid[-1], v);
            v = fmaf(W11, mid[0], v);
            v = fmaf(W12, mid[1], v);
            v = fmaf(W20, down[-1], v);
            v = fmaf(W21, down[0], v);
            v = fmaf(W22, down[1], v);
            ref[(size_t)i * n + j] = v;
        }
    float *da, *db;
    size_t bytes = a.size() * sizeof(float);
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(db, 0, bytes));
    conv2d<<<dim3((n + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(da, db, n, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(b.data(), db, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < b.size(); i++)
        REQUIRE(b[i] == ref[i]);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    std::printf("PASS 2dconv %d x %d\n", n, n);
    return 0;
}
