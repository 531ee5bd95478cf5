// dct8x8: JPEG-style 8x8 block DCT round trip.  Written for ptxemu.
//   dct8x8_forward: one CTA of 8x8 threads per 8x8 block; the block is staged
//       in shared memory and transformed as C * X * C^T (rows, then columns)
//       with the orthonormal DCT-II basis C in constant memory.
//   quantize8x8:    coef = roundf(coef / Q) * Q with the 8x8 table Q in
//       constant memory (elementwise over the image, 16x16 threads per CTA).
//   idct8x8_inverse: C^T * F * C, the inverse transform.
// Every dot product runs k = 0..7 with fmaf in that order (driver.c repeats it).

__constant__ float c_dct[64];   // c_dct[u * 8 + x] = alpha(u) cos((2x+1) u pi / 16)
__constant__ float c_quant[64]; // quantisation step per coefficient

extern "C" __global__ void dct8x8_forward(float *out, const float *in, int stride)
{
    __shared__ float tile[8][8];
    __shared__ float rows[8][8];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int idx = (blockIdx.y * 8 + ty) * stride + blockIdx.x * 8 + tx;

    tile[ty][tx] = in[idx];
    __syncthreads();
    float sum = 0.0f; // row transform: coefficient u = tx of row ty
    for (int k = 0; k < 8; k++)
        sum = fmaf(c_dct[tx * 8 + k], tile[ty][k], sum);
    rows[ty][tx] = sum;
    __syncthreads();
    sum = 0.0f; // column transform: coefficient v = ty of column tx
    for (int k = 0; k < 8; k++)
        sum = fmaf(c_dct[ty * 8 + k], rows[k][tx], sum);
    out[idx] = sum;
}

extern "C" __global__ void quantize8x8(float *coef, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float q = c_quant[(y & 7) * 8 + (x & 7)];
        float *p = coef + y * width + x;
        *p = roundf(*p / q) * q;
    }
}

extern "C" __global__ void idct8x8_inverse(float *out, const float *in, int stride)
{
    __shared__ float tile[8][8];
    __shared__ float rows[8][8];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int idx = (blockIdx.y * 8 + ty) * stride + blockIdx.x * 8 + tx;

    tile[ty][tx] = in[idx];
    __syncthreads();
    float sum = 0.0f; // rows: sample x = tx of row ty
    for (int k = 0; k < 8; k++)
        sum = fmaf(c_dct[k * 8 + tx], tile[ty][k], sum);
    rows[ty][tx] = sum;
    __syncthreads();
    sum = 0.0f; // columns: sample y = ty of column tx
    for (int k = 0; k < 8; k++)
        sum = fmaf(c_dct[k * 8 + ty], rows[k][tx], sum);
    out[idx] = sum;
}
