/* benchmarks/bicg/kernels.cu — the two matrix-vector products of the BiCG
 * solver's inner step (PolyBench-style BICG) as two kernels of 256-thread
 * CTAs: bicg_1 gives one thread per column of A (s = A^T r), bicg_2 one
 * thread per row (q = A p).  A is nx x ny, row-major; sums are fmaf chains
 * in index order. */

extern "C" __global__ void bicg_1(const float *a, const float *r, float *s, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny)
        return;
    float acc = 0.0f;
    for (int i = 0; i < nx; i++)
        acc = fmaf(r[i], a[i * ny + j], acc);
    s[j] = acc;
}

extern "C" __global__ void bicg_2(const float *a, const float *p, float *q, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;
    float acc = 0.0f;
    for (int j = 0; j < ny; j++)
        acc = fmaf(a[i * ny + j], p[j], acc);
    q[i] = acc;
}
