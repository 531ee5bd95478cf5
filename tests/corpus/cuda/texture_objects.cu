// Texture and surface objects as CUDA C++ uses them: tex1Dfetch, tex2D,
// tex3D, tex2DLayered, texCubemap, tex2DLod, tex2DGrad, tex2Dgather (all
// lowered to tex/tld4 on a 64-bit handle), and surf2Dread/surf2Dwrite,
// surf1DLayeredwrite (suld.b/sust.b).  Run and checked against the CPU
// model by tests/runtime/test_texture_corpus.c.
#include <cuda_runtime.h>

extern "C" __global__ void fetch_linear(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, i - 3);
}

extern "C" __global__ void sample_2d(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

extern "C" __global__ void sample_3d(cudaTextureObject_t t, const float4 *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}

extern "C" __global__ void sample_layered(cudaTextureObject_t t, const float4 *c, float *out,
                                          int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].w);
}

extern "C" __global__ void sample_cube(cudaTextureObject_t t, const float4 *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = texCubemap<float>(t, c[i].x, c[i].y, c[i].z);
}

extern "C" __global__ void sample_lod_grad(cudaTextureObject_t t, const float4 *c, float *out,
                                           int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = tex2DLod<float>(t, c[i].x, c[i].y, c[i].z);
        out[2 * i + 1] = tex2DGrad<float>(t, c[i].x, c[i].y, make_float2(c[i].w, 0.0f),
                                          make_float2(0.0f, c[i].w));
    }
}

extern "C" __global__ void gather_green(cudaTextureObject_t t, const float2 *c, float4 *out,
                                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
}

// out(x, y) = in(x, y) * 2 + 1 over a w x h int surface; the row past the
// end is written in zero mode (dropped) and read in clamp mode
extern "C" __global__ void surface_update(cudaSurfaceObject_t s, int *edge, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        int v = surf2Dread<int>(s, x * 4, y);
        surf2Dwrite(v * 2 + 1, s, x * 4, y);
        surf2Dwrite(-5, s, x * 4, h, cudaBoundaryModeZero);
    }
}

extern "C" __global__ void surface_clamp_read(cudaSurfaceObject_t s, int *out, int w, int h)
{
    int x = threadIdx.x;
    out[x] = surf2Dread<int>(s, (x - 2) * 4, h + 1, cudaBoundaryModeClamp);
}

extern "C" __global__ void surface_layers(cudaSurfaceObject_t s, int w, int layers)
{
    int x = threadIdx.x, l = blockIdx.x;
    if (x < w && l < layers)
        surf1DLayeredwrite((short)(l * 100 + x), s, x * 2, l);
}
