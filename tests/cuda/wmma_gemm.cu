// tests/cuda/wmma_gemm.cu — a 64x64x64 f16 GEMM with f32 accumulation on
// nvcuda::wmma 16x16x16 fragments (one warp per 16x16 tile of C, A
// row-major, B column-major, C = alpha * A x B + beta * C0 with C0 loaded
// as an accumulator fragment), checked against a CPU GEMM in double.
// Products of halves are exact in f32; the only differences are the f32
// sums, so the bound is 64 ulps of the largest partial sum.
#include "check.h"

#include <cmath>
#include <cuda_fp16.h>
#include <mma.h>
#include <vector>

using namespace nvcuda;

constexpr int M = 64, N = 64, K = 64;

__global__ void gemm(const half *a, const half *b, float *c, float alpha, float beta)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tm = (warp / (N / 16)) * 16, tn = (warp % (N / 16)) * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, c0;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::load_matrix_sync(c0, c + tm * N + tn, N, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = alpha * acc.x[i] + beta * c0.x[i];
    wmma::store_matrix_sync(c + tm * N + tn, acc, N, wmma::mem_row_major);
}

int main()
{
    std::vector<half> a(M * K), b(K * N);
    std::vector<float> c(M * N), out(M * N);
    for (int i = 0; i < M * K; i++)
        a[i] = __float2half((float)((i * 37) % 23 - 11) / 8.0f);
    for (int i = 0; i < K * N; i++) // column-major: b[n * K + k]
        b[i] = __float2half((float)((i * 11) % 19 - 9) / 4.0f);
    for (int i = 0; i < M * N; i++)
        c[i] = (float)(i % 7) - 3.0f;
    half *da, *db;
    float *dc;
    CHECK(cudaMalloc((void **)&da, a.size() * sizeof(half)));
    CHECK(cudaMalloc((void **)&db, b.size() * sizeof(half)));
    CHECK(cudaMalloc((void **)&dc, c.size() * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
    const float alpha = 1.5f, beta = -0.5f;
    gemm<<<(M / 16) * (N / 16) / 4, 128>>>(da, db, dc, alpha, beta);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), dc, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0, mag = 0.0;
            for (int k = 0; k < K; k++) {
                double p = (double)__half2float(a[i * K + k]) * __half2float(b[j * K + k]);
                s += p;
                mag += std::fabs(p);
            }
            double want = alpha * s + beta * c[i * N + j];
            double tol = 64.0 * std::ldexp(1.0, -23) * (alpha * mag + std::fabs(beta * c[i * N + j]) + 1.0);
            if (std::fabs(out[i * N + j] - want) > tol) {
                std::fprintf(stderr, "FAIL C(%d,%d) = %.9g, want %.9g\n", i, j, out[i * N + j], want);
                return 1;
            }
        }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::printf("PASS wmma_gemm %dx%dx%d\n", M, N, K);
    return 0;
}
