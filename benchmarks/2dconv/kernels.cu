/* benchmarks/2dconv/kernels.cu — 2-D convolution with a fixed 3 x 3 filter
 * (PolyBench-style 2DCONV): one thread per output pixel, 32 x 8 threads per
 * CTA; the one-pixel border is left untouched.  The filter taps are applied
 * row by row with explicit fmaf so the CPU reference can match exactly. */

#define W00 0.25f
#define W01 (-0.5f)
#define W02 0.125f
#define W10 0.75f
#define W11 0.5f
#define W12 (-0.25f)
#define W20 (-0.375f)
#define W21 0.625f
#define W22 0.0625f

extern "C" __global__ void conv2d(const float *a, float *b, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1)
        return;
    const float *up = a + (i - 1) * nj + j;
    const float *mid = a + i * nj + j;
    const float *down = a + (i + 1) * nj + j;
    float v = W00 * up[-1];
    v = fmaf(W01, up[0], v);
    v = fmaf(W02, up[1], v);
    v = fmaf(W10, mid[-1], v);
    v = fmaf(W11, mid[0], v);
    v = fmaf(W12, mid[1], v);
    v = fmaf(W20, down[-1], v);
    v = fmaf(W21, down[0], v);
    v = fmaf(W22, down[1], v);
    b[i * nj + j] = v;
}
