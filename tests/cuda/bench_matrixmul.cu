// tests/cuda/bench_matrixmul.cu — the project's matrixmul benchmark
// (16 x 16 shared-memory tiles) as a standalone CUDA program, checked
// against a CPU product that accumulates with fmaf in the kernel's order.
// Usage: bench_matrixmul [HA WA WB] (multiples of 16).
#include "check.h"
#include "../../benchmarks/matrixmul/kernels.cu"

#include <cmath>
#include <vector>

int main(int argc, char **argv)
{
    int ha = argc > 3 ? std::atoi(argv[1]) : 64, wa = argc > 3 ? std::atoi(argv[2]) : 48,
        wb = argc > 3 ? std::atoi(argv[3]) : 80;
    std::vector<float> a((size_t)ha * wa), b((size_t)wa * wb), c((size_t)ha * wb);
    for (size_t i = 0; i < a.size(); i++)
        a[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    for (size_t i = 0; i < b.size(); i++)
        b[i] = (float)((i * 53) % 97) / 40.0f - 1.2f;
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, a.size() * sizeof(float)));
    CHECK(cudaMalloc(&db, b.size() * sizeof(float)));
    CHECK(cudaMalloc(&dc, c.size() * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
    matrix_mul<<<dim3(wb / TILE, ha / TILE), dim3(TILE, TILE)>>>(dc, da, db, wa, wb);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < ha; r++)
        for (int col = 0; col < wb; col++) {
            float sum = 0.0f;
            for (int k = 0; k < wa; k++)
                sum = fmaf(a[(size_t)r * wa + k], b[(size_t)k * wb + col], sum);
            REQUIRE(c[(size_t)r * wb + col] == sum);
        }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::printf("PASS matrixmul %d x %d x %d\n", ha, wa, wb);
    return 0;
}
