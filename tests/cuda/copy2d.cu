// tests/cuda/copy2d.cu — pitched memory: cudaMallocPitch, cudaMemcpy2D
// both ways (host rows narrower than the pitch), cudaMemset2D, a kernel
// that walks rows by pitch; width > pitch is cudaErrorInvalidPitchValue.
#include "check.h"

#include <vector>

__global__ void scale_rows(float *m, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] = row[x] * (y + 1) + x;
    }
}

int main()
{
    const int w = 45, h = 19;
    std::vector<float> a(w * h), b(w * h);
    for (int i = 0; i < w * h; i++)
        a[i] = 0.5f * i;
    float *d;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&d, &pitch, w * sizeof(float), h));
    REQUIRE(pitch >= w * sizeof(float));
    CHECK(cudaMemset2D(d, pitch, 0, pitch, h));
    CHECK(cudaMemcpy2D(d, pitch, a.data(), w * sizeof(float), w * sizeof(float), h,
                       cudaMemcpyHostToDevice));
    dim3 block(16, 4), grid((w + 15) / 16, (h + 3) / 4);
    scale_rows<<<grid, block>>>(d, pitch, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(b.data(), w * sizeof(float), d, pitch, w * sizeof(float), h,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            REQUIRE(b[y * w + x] == a[y * w + x] * (y + 1) + x);
    // memset of a sub-rectangle: 3 bytes of every row set to 0x40 -> the
    // float's low bytes; check the bytes directly
    CHECK(cudaMemset2D(d, pitch, 0x40, 3, h));
    std::vector<unsigned char> bytes(pitch * h);
    CHECK(cudaMemcpy(bytes.data(), d, pitch * h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++) {
        REQUIRE(bytes[y * pitch] == 0x40 && bytes[y * pitch + 2] == 0x40);
        REQUIRE(bytes[y * pitch + 3] != 0x40 || b[y * w] == 0.0f);
    }
    EXPECT_ERR(cudaMemcpy2D(d, 8, a.data(), w * sizeof(float), 16, 2, cudaMemcpyHostToDevice),
               cudaErrorInvalidPitchValue);
    CHECK(cudaFree(d));
    std::printf("PASS copy2d (pitch %zu)\n", pitch);
    return 0;
}
