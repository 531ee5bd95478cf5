/* benchmarks/srad/kernels.cu — speckle reducing anisotropic diffusion
 * (SRAD), one diffusion step as two kernels over 16 x 16 pixel tiles.
 *
 *   srad_1  per pixel: differences to the four neighbours (clamped at the
 *           image border), the instantaneous coefficient of variation q^2
 *           and from it, with the ROI statistic q0^2 computed by the host,
 *           the diffusion coefficient c in [0, 1].
 *   srad_2  per pixel: divergence of c * gradient, image update
 *           J += lambda/4 * div; then a shared-memory tree reduction of the
 *           updated pixels inside the ROI into one (sum, sum of squares)
 *           pair per CTA, which the host adds up for the next step's q0^2.
 * Multiply-adds are written as explicit fmaf so the CPU reference can repeat
 * them exactly. */

#define TILE 16

extern "C" __global__ void srad_1(const float *J, float *dN, float *dS, float *dW,
                                  float *dE, float *C, int rows, int cols,
                                  float q0sqr)
{
    int j = blockIdx.x * TILE + threadIdx.x;
    int i = blockIdx.y * TILE + threadIdx.y;
    int idx = i * cols + j;
    int iN = i > 0 ? i - 1 : 0;
    int iS = i < rows - 1 ? i + 1 : rows - 1;
    int jW = j > 0 ? j - 1 : 0;
    int jE = j < cols - 1 ? j + 1 : cols - 1;

    float jc = J[idx];
    float n = J[iN * cols + j] - jc;
    float s = J[iS * cols + j] - jc;
    float w = J[i * cols + jW] - jc;
    float e = J[i * cols + jE] - jc;

    float g2 = n * n;
    g2 = fmaf(s, s, g2);
    g2 = fmaf(w, w, g2);
    g2 = fmaf(e, e, g2);
    g2 = g2 / (jc * jc);
    float l = (n + s + w + e) / jc;

    float num = fmaf(-0.0625f * l, l, 0.5f * g2);
    float den = fmaf(0.25f, l, 1.0f);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    if (c < 0.0f)
        c = 0.0f;
    else if (c > 1.0f)
        c = 1.0f;

    dN[idx] = n;
    dS[idx] = s;
    dW[idx] = w;
    dE[idx] = e;
    C[idx] = c;
}

extern "C" __global__ void srad_2(float *J, const float *dN, const float *dS,
                                  const float *dW, const float *dE, const float *C,
                                  int rows, int cols, float lambda, int roi_rows,
                                  int roi_cols, float *partial)
{
    __shared__ float ssum[TILE * TILE];
    __shared__ float ssq[TILE * TILE];
    int t = threadIdx.y * TILE + threadIdx.x;
    int j = blockIdx.x * TILE + threadIdx.x;
    int i = blockIdx.y * TILE + threadIdx.y;
    int idx = i * cols + j;
    int iS = i < rows - 1 ? i + 1 : rows - 1;
    int jE = j < cols - 1 ? j + 1 : cols - 1;

    float cN = C[idx];
    float cS = C[iS * cols + j];
    float cW = cN;
    float cE = C[i * cols + jE];
    float d = cN * dN[idx];
    d = fmaf(cS, dS[idx], d);
    d = fmaf(cW, dW[idx], d);
    d = fmaf(cE, dE[idx], d);
    float v = fmaf(0.25f * lambda, d, J[idx]);
    J[idx] = v;

    if (i >= roi_rows || j >= roi_cols)
        v = 0.0f;
    ssum[t] = v;
    ssq[t] = v * v;
    __syncthreads();
    for (int s = TILE * TILE / 2; s > 0; s >>= 1) {
        if (t < s) {
            ssum[t] += ssum[t + s];
            ssq[t] += ssq[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        int b = blockIdx.y * gridDim.x + blockIdx.x;
        partial[2 * b] = ssum[0];
        partial[2 * b + 1] = ssq[0];
    }
}
