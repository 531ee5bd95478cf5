// matrixmul: C = A * B with 16x16 shared-memory tiles, one output element
// per thread.  Dimensions are multiples of 16 (as in the SDK sample).
// Written for ptxemu.  Each thread accumulates sum = fma(A[row][k], B[k][col],
// sum) for k = 0, 1, ..., wa - 1 in order (driver.c repeats that order).

#define TILE 16

extern "C" __global__ void matrix_mul(float *c, const float *a, const float *b,
                                      int wa, int wb)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float sum = 0.0f;
    for (int k0 = 0; k0 < wa; k0 += TILE) {
        as[ty][tx] = a[row * wa + k0 + tx];
        bs[ty][tx] = b[(k0 + ty) * wb + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum = fmaf(as[ty][k], bs[k][tx], sum);
        __syncthreads();
    }
    c[row * wb + col] = sum;
}
