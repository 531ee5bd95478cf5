// convolution-separable: 2D convolution with a separable 17-tap filter
// (radius 8) as a row pass followed by a column pass, zero outside the
// image.  Filter taps live in constant memory.  Written for ptxemu.
//   conv_rows: CTA of 16x4 threads covers 64 columns x 4 rows; each thread
//       computes 4 outputs 16 apart; the shared tile holds one 16-wide halo
//       step on each side.  Width must be a multiple of 64.
//   conv_cols: CTA of 16x8 threads covers 16 columns x 32 rows; each thread
//       computes 4 outputs 8 rows apart, 8-row halo steps above and below;
//       the tile is stored transposed with one padding word per row.
//       Height must be a multiple of 32.
// Each output: sum = fma(c_kernel[R - j], x[j], sum) for j = -R .. R in order.

#define KR 8                 // filter radius
#define KTAPS (2 * KR + 1)

#define ROW_BX 16
#define ROW_BY 4
#define ROW_STEPS 4
#define COL_BX 16
#define COL_BY 8
#define COL_STEPS 4

__constant__ float c_kernel[KTAPS];

extern "C" __global__ void conv_rows(float *out, const float *in, int width,
                                     int height)
{
    __shared__ float s[ROW_BY][(ROW_STEPS + 2) * ROW_BX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * ROW_BY + ty;
    const int x0 = blockIdx.x * ROW_STEPS * ROW_BX - ROW_BX + tx;
    const float *src = in + (size_t)row * width;

#pragma unroll
    for (int i = 0; i < ROW_STEPS + 2; i++) {
        int x = x0 + i * ROW_BX;
        s[ty][tx + i * ROW_BX] = (x >= 0 && x < width) ? src[x] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (int i = 1; i <= ROW_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KR; j <= KR; j++)
            sum = fmaf(c_kernel[KR - j], s[ty][tx + i * ROW_BX + j], sum);
        out[(size_t)row * width + x0 + i * ROW_BX] = sum;
    }
}

extern "C" __global__ void conv_cols(float *out, const float *in, int width,
                                     int height)
{
    __shared__ float s[COL_BX][(COL_STEPS + 2) * COL_BY + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * COL_BX + tx;
    const int y0 = blockIdx.y * COL_STEPS * COL_BY - COL_BY + ty;

#pragma unroll
    for (int i = 0; i < COL_STEPS + 2; i++) {
        int y = y0 + i * COL_BY;
        s[tx][ty + i * COL_BY] = (y >= 0 && y < height) ? in[(size_t)y * width + col] : 0.0f;
    }
    __syncthreads();

#pragma unroll
    for (int i = 1; i <= COL_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KR; j <= KR; j++)
            sum = fmaf(c_kernel[KR - j], s[tx][ty + i * COL_BY + j], sum);
        out[(size_t)(y0 + i * COL_BY) * width + col] = sum;
    }
}
