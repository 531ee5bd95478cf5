// tests/cuda/symbols.cu — __constant__ and __device__ variables from the
// host: cudaMemcpyToSymbol (whole, with an offset, device to device),
// cudaMemcpyFromSymbol, cudaGetSymbolAddress/Size, an initialised
// variable, and the documented errors for a copy past the symbol's end and
// for an address that is not a symbol.
#include "check.h"

__constant__ float coef[4];
__device__ int counter;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coef[3] * v + coef[2]) * v + coef[1]) * v + coef[0];
        atomicAdd(&counter, table[i % 8]);
    }
}

int main()
{
    const int n = 64;
    float hc[4] = {1.0f, -2.0f, 0.5f, 0.25f};
    CHECK(cudaMemcpyToSymbol(coef, hc, sizeof hc));
    // overwrite coef[2] alone through an offset
    float c2 = 0.75f;
    CHECK(cudaMemcpyToSymbol(coef, &c2, sizeof c2, 2 * sizeof(float)));
    hc[2] = c2;
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice));
    float hx[n], hy[n];
    for (int i = 0; i < n; i++)
        hx[i] = 0.125f * i - 2.0f;
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, sizeof hx));
    CHECK(cudaMalloc(&dy, sizeof hy));
    CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    poly<<<2, 32>>>(dx, dy, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float v = hx[i];
        REQUIRE(hy[i] == ((hc[3] * v + hc[2]) * v + hc[1]) * v + hc[0]);
    }
    int got = -1;
    CHECK(cudaMemcpyFromSymbol(&got, counter, sizeof got));
    REQUIRE(got == (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8) * (n / 8));
    int t5 = 0;
    CHECK(cudaMemcpyFromSymbol(&t5, table, sizeof t5, 5 * sizeof(int)));
    REQUIRE(t5 == 6);
    // the symbol's device address works like any device pointer
    int *dtable = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress((void **)&dtable, table));
    CHECK(cudaGetSymbolSize(&size, table));
    REQUIRE(size == 8 * sizeof(int));
    int nine[8] = {9, 9, 9, 9, 9, 9, 9, 9}, back[8];
    CHECK(cudaMemcpy(dtable, nine, sizeof nine, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyFromSymbol(back, table, sizeof back));
    REQUIRE(back[0] == 9 && back[7] == 9);
    // device to device into a symbol
    float dev_coef[4] = {4.0f, 3.0f, 2.0f, 1.0f}, coef_back[4];
    CHECK(cudaMemcpy(dx, dev_coef, sizeof dev_coef, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(coef, dx, sizeof dev_coef, 0, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpyFromSymbol(coef_back, coef, sizeof coef_back));
    REQUIRE(coef_back[0] == 4.0f && coef_back[3] == 1.0f);
    // errors: past the end, and a host address that is no symbol
    EXPECT_ERR(cudaMemcpyToSymbol(coef, hc, sizeof hc, sizeof(float)), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyToSymbol(hc, hc, sizeof hc), cudaErrorInvalidSymbol);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidSymbol);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    std::printf("PASS symbols\n");
    return 0;
}
