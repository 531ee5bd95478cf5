// tests/cuda/texture.cu — texture and surface objects through the runtime
// API: a 2D float CUDA array (cudaMallocArray, cudaMemcpy2DToArray) read
// by tex2D with linear filtering, normalised coordinates and wrap, checked
// against the Programming Guide's formula with 9-bit weights on the host;
// tex1Dfetch on linear memory; a 3D array filled by cudaMemcpy3D and read
// by tex3D (point); a mipmapped array read by tex2DLod; a surface object
// written by surf2Dwrite and read back by cudaMemcpy2DFromArray; the
// descriptor and array queries.
#include "check.h"

#include <cmath>
#include <cstring>
#include <vector>

__global__ void sample2d(cudaTextureObject_t t, const float2 *uv, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}

__global__ void fetch1d(cudaTextureObject_t t, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int>(t, i - 2);
}

__global__ void sample3d(cudaTextureObject_t t, float *out)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    out[(z * 3 + y) * 4 + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void sample_lod(cudaTextureObject_t t, float lod, float *out)
{
    out[threadIdx.x] = tex2DLod<float>(t, (threadIdx.x + 0.5f) / 8.0f, 0.5f / 8.0f, lod);
}

__global__ void write_surface(cudaSurfaceObject_t s, int w, int h)
{
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h)
        surf2Dwrite(x * 1000 + y, s, x * (int)sizeof(int), y);
    // out of bounds with the zero mode: dropped
    surf2Dwrite(-1, s, (w + 3) * (int)sizeof(int), y, cudaBoundaryModeZero);
}

static float weight(float f) { return std::floor(f * 256.0f + 0.5f) / 256.0f; }

int main()
{
    // ---- 2D float array, linear filtering, normalised wrap
    const int W = 8, H = 5;
    float img[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = (float)(x * x + 3 * y);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, W, H));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                              cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    const int N = 100;
    std::vector<float2> uv(N);
    for (int i = 0; i < N; i++)
        uv[i] = make_float2(-1.3f + 0.037f * i, 2.1f - 0.029f * i);
    float2 *duv;
    float *dout;
    CHECK(cudaMalloc(&duv, N * sizeof(float2)));
    CHECK(cudaMalloc(&dout, N * sizeof(float)));
    CHECK(cudaMemcpy(duv, uv.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
    sample2d<<<2, 64>>>(tex, duv, dout, N);
    CHECK(cudaGetLastError());
    std::vector<float> got(N);
    CHECK(cudaMemcpy(got.data(), dout, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float x = (uv[i].x - std::floor(uv[i].x)) * W - 0.5f;
        float y = (uv[i].y - std::floor(uv[i].y)) * H - 0.5f;
        int i0 = (int)std::floor(x), j0 = (int)std::floor(y);
        double a = weight(x - std::floor(x)), b = weight(y - std::floor(y));
        auto T = [&](int xi, int yj) {
            return (double)img[(yj % H + H) % H][(xi % W + W) % W];
        };
        double want = (1 - a) * (1 - b) * T(i0, j0) + a * (1 - b) * T(i0 + 1, j0) +
                      (1 - a) * b * T(i0, j0 + 1) + a * b * T(i0 + 1, j0 + 1);
        if (std::fabs(got[i] - want) > 1e-4 * (1 + std::fabs(want))) {
            std::fprintf(stderr, "FAIL tex2D(%g, %g) = %.7g, expected %.7g\n", uv[i].x, uv[i].y,
                         got[i], want);
            return 1;
        }
    }
    cudaResourceDesc back;
    CHECK(cudaGetTextureObjectResourceDesc(&back, tex));
    REQUIRE(back.resType == cudaResourceTypeArray && back.res.array.array == arr);
    cudaChannelFormatDesc qd;
    cudaExtent qe;
    unsigned qf;
    CHECK(cudaArrayGetInfo(&qd, &qe, &qf, arr));
    REQUIRE(qd.x == 32 && qd.f == cudaChannelFormatKindFloat && qe.width == W && qe.height == H);
    CHECK(cudaDestroyTextureObject(tex));

    // ---- tex1Dfetch on linear memory: out of range reads zero
    int lin[6] = {5, -7, 11, 13, -17, 19}, fo[10];
    int *dl, *dfo;
    CHECK(cudaMalloc(&dl, sizeof lin));
    CHECK(cudaMalloc(&dfo, sizeof fo));
    CHECK(cudaMemcpy(dl, lin, sizeof lin, cudaMemcpyHostToDevice));
    cudaResourceDesc rl = {};
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = dl;
    rl.res.linear.desc = cudaCreateChannelDesc<int>();
    rl.res.linear.sizeInBytes = sizeof lin;
    cudaTextureDesc tl = {};
    cudaTextureObject_t tlin;
    CHECK(cudaCreateTextureObject(&tlin, &rl, &tl, nullptr));
    fetch1d<<<1, 10>>>(tlin, dfo, 10);
    CHECK(cudaMemcpy(fo, dfo, sizeof fo, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 10; i++)
        REQUIRE(fo[i] == (i - 2 >= 0 && i - 2 < 6 ? lin[i - 2] : 0));
    CHECK(cudaDestroyTextureObject(tlin));

    // ---- 3D array through cudaMemcpy3D, point sampling at texel centres
    float vol[2][3][4], vout[2][3][4];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++)
                vol[z][y][x] = 100.0f * z + 10.0f * y + x;
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(4, 3, 2)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
    p.dstArray = a3;
    p.extent = make_cudaExtent(4, 3, 2);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    rd.res.array.array = a3;
    cudaTextureDesc tp = {};
    cudaTextureObject_t t3;
    CHECK(cudaCreateTextureObject(&t3, &rd, &tp, nullptr));
    float *dv;
    CHECK(cudaMalloc(&dv, sizeof vout));
    sample3d<<<1, dim3(4, 3, 2)>>>(t3, dv);
    CHECK(cudaMemcpy(vout, dv, sizeof vout, cudaMemcpyDeviceToHost));
    REQUIRE(std::memcmp(vout, vol, sizeof vol) == 0);
    CHECK(cudaDestroyTextureObject(t3));
    CHECK(cudaFreeArray(a3));

    // ---- mipmapped 8x8 array: level l holds the value l + 1 everywhere
    cudaMipmappedArray_t mip;
    CHECK(cudaMallocMipmappedArray(&mip, &fd, make_cudaExtent(8, 8, 0), 4));
    for (unsigned l = 0; l < 4; l++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mip, l));
        int n = 8 >> l;
        std::vector<float> v(n * n, (float)(l + 1));
        CHECK(cudaMemcpy2DToArray(lev, 0, 0, v.data(), n * sizeof(float), n * sizeof(float), n,
                                  cudaMemcpyHostToDevice));
    }
    cudaResourceDesc rm = {};
    rm.resType = cudaResourceTypeMipmappedArray;
    rm.res.mipmap.mipmap = mip;
    cudaTextureDesc tm = {};
    tm.normalizedCoords = 1;
    tm.filterMode = cudaFilterModePoint;
    tm.mipmapFilterMode = cudaFilterModeLinear;
    tm.maxMipmapLevelClamp = 3.0f;
    cudaTextureObject_t tmip;
    CHECK(cudaCreateTextureObject(&tmip, &rm, &tm, nullptr));
    float lo[4];
    sample_lod<<<1, 4>>>(tmip, 1.25f, dv);
    CHECK(cudaMemcpy(lo, dv, sizeof lo, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        REQUIRE(std::fabs(lo[i] - 2.25f) < 1e-6f); // 0.75 * level 1 + 0.25 * level 2
    CHECK(cudaDestroyTextureObject(tmip));
    CHECK(cudaFreeMipmappedArray(mip));

    // ---- a surface object over an int array
    const int SW = 6, SH = 4;
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    cudaArray_t sa;
    CHECK(cudaMallocArray(&sa, &id, SW, SH, cudaArraySurfaceLoadStore));
    cudaResourceDesc rs = {};
    rs.resType = cudaResourceTypeArray;
    rs.res.array.array = sa;
    cudaSurfaceObject_t surf;
    CHECK(cudaCreateSurfaceObject(&surf, &rs));
    write_surface<<<1, dim3(SW, SH)>>>(surf, SW, SH);
    CHECK(cudaDeviceSynchronize());
    int sout[SH][SW];
    CHECK(cudaMemcpy2DFromArray(sout, SW * sizeof(int), sa, 0, 0, SW * sizeof(int), SH,
                                cudaMemcpyDeviceToHost));
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            REQUIRE(sout[y][x] == x * 1000 + y);
    CHECK(cudaDestroySurfaceObject(surf));
    EXPECT_ERR(cudaDestroySurfaceObject(surf), cudaErrorInvalidValue);
    CHECK(cudaFreeArray(sa));
    CHECK(cudaFreeArray(arr));
    std::printf("PASS texture\n");
    return 0;
}
