// dwt/kernels.cu — one level of the 2-D Haar wavelet transform.
// Each thread turns one 2x2 block (a b / c d) of `in` into its four
// coefficients: the approximation LL goes to `ll` (compact, the next
// level's input) and to the top-left quadrant of `out`; the details HL, LH
// and HH go to the other three quadrants of the level's region of `out`.
// Written for ptxemu from the transform's definition.

extern "C" __global__ void dwt_haar2d(const float *in, int in_stride, float *out,
                                      int out_stride, float *ll, int w2, int h2)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w2 || y >= h2)
        return;
    const float *p = in + (size_t)(2 * y) * in_stride + 2 * x;
    float a = p[0], b = p[1];
    float c = p[in_stride], d = p[in_stride + 1];
    float lo = (a + b + c + d) * 0.5f;
    float hl = (a - b + c - d) * 0.5f;
    float lh = (a + b - c - d) * 0.5f;
    float hh = (a - b - c + d) * 0.5f;
    ll[(size_t)y * w2 + x] = lo;
    out[(size_t)y * out_stride + x] = lo;
    out[(size_t)y * out_stride + x + w2] = hl;
    out[(size_t)(y + h2) * out_stride + x] = lh;
    out[(size_t)(y + h2) * out_stride + x + w2] = hh;
}
