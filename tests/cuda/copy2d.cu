// tests/cuda/copy2d.cu — pitched memory: cudaMallocPitch, cudaMemcpy2D
// both ways (host rows narrower than the pitch), cudaMemset2D, a kernel
// that walks rows by pitch; width > pitch is cudaErrorInvalidPitchValue;
// then 3-D: cudaMalloc3D, cudaMemcpy3D with positions, cudaMemset3D.
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

    // 3-D: a 10 x 3 x 4 int volume in, a 2 x 2 x 2 box at (3, 1, 1) out
    const int X = 10, Y = 3, Z = 4;
    int vol[Z][Y][X], box[2][2][2];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++)
                vol[z][y][x] = 100 * z + 10 * y + x;
    cudaPitchedPtr dv;
    CHECK(cudaMalloc3D(&dv, make_cudaExtent(X * sizeof(int), Y, Z)));
    REQUIRE(dv.pitch >= X * sizeof(int) && dv.ysize == Y);
    cudaMemcpy3DParms in = {};
    in.srcPtr = make_cudaPitchedPtr(vol, X * sizeof(int), X, Y);
    in.dstPtr = dv;
    in.extent = make_cudaExtent(X * sizeof(int), Y, Z);
    in.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&in));
    cudaMemcpy3DParms out = {};
    out.srcPtr = dv;
    out.srcPos = make_cudaPos(3 * sizeof(int), 1, 1);
    out.dstPtr = make_cudaPitchedPtr(box, 2 * sizeof(int), 2, 2);
    out.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
    out.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&out));
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++)
                REQUIRE(box[z][y][x] == 100 * (z + 1) + 10 * (y + 1) + x + 3);
    CHECK(cudaMemset3D(dv, 0, make_cudaExtent(X * sizeof(int), Y, 2)));
    out.srcPos = make_cudaPos(0, 0, 1);
    CHECK(cudaMemcpy3D(&out));
    REQUIRE(box[0][0][0] == 0 && box[1][1][1] == 211);
    CHECK(cudaFree(dv.ptr));
    std::printf("PASS copy2d (pitch %zu)\n", pitch);
    return 0;
}
