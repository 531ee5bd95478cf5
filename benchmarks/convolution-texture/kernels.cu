// convolution-texture: 2D convolution with a separable 17-tap filter
// (radius 8) as a row pass then a column pass, each reading its source
// through a 2-D texture (point sampling, unnormalised coordinates, clamp
// addressing: edge pixels repeat), the shape of the CUDA SDK's
// convolutionTexture (thesis Table 4.4 CVT-K1/K2).  Written for ptxemu.
//   conv_tex_rows, conv_tex_cols: one thread per output pixel, CTAs of
//   16 x 12 threads; taps in constant memory.
// Each output: sum = fma(tex(x + j), c_kernel[R - j], sum) for j = -R .. R.

#define KR 8
#define KTAPS (2 * KR + 1)

__constant__ float c_kernel[KTAPS];

extern "C" __global__ void conv_tex_rows(float *out, int width, int height,
                                         cudaTextureObject_t src)
{
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    const int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix >= width || iy >= height)
        return;
    const float x = (float)ix + 0.5f, y = (float)iy + 0.5f;
    float sum = 0.0f;
#pragma unroll
    for (int j = -KR; j <= KR; j++)
        sum = fmaf(tex2D<float>(src, x + (float)j, y), c_kernel[KR - j], sum);
    out[iy * width + ix] = sum;
}

extern "C" __global__ void conv_tex_cols(float *out, int width, int height,
                                         cudaTextureObject_t src)
{
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    const int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix >= width || iy >= height)
        return;
    const float x = (float)ix + 0.5f, y = (float)iy + 0.5f;
    float sum = 0.0f;
#pragma unroll
    for (int j = -KR; j <= KR; j++)
        sum = fmaf(tex2D<float>(src, x, y + (float)j), c_kernel[KR - j], sum);
    out[iy * width + ix] = sum;
}
