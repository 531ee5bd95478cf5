/* benchmarks/gemm/kernels.cu — dense matrix multiply C = alpha A B + beta C
 * (PolyBench-style GEMM, untiled): one thread per element of C, 32 x 8
 * threads per CTA, the dot product accumulated with fmaf in k order.
 * A is ni x nk, B is nk x nj, C is ni x nj, all row-major. */

extern "C" __global__ void gemm(const float *a, const float *b, float *c, int ni, int nj,
                                int nk, float alpha, float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    float acc = 0.0f;
    for (int k = 0; k < nk; k++)
        acc = fmaf(a[i * nk + k], b[k * nj + j], acc);
    c[i * nj + j] = fmaf(alpha, acc, beta * c[i * nj + j]);
}
