/* benchmarks/atax/kernels.cu — y = A^T (A x) (PolyBench-style ATAX) as two
 * kernels of 256-thread CTAs: atax_1 gives one thread per row of A
 * (tmp = A x), atax_2 one thread per column (y = A^T tmp).  A is nx x ny,
 * row-major; sums are fmaf chains in index order. */

extern "C" __global__ void atax_1(const float *a, const float *x, float *tmp, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;
    float acc = 0.0f;
    for (int j = 0; j < ny; j++)
        acc = fmaf(a[i * ny + j], x[j], acc);
    tmp[i] = acc;
}

extern "C" __global__ void atax_2(const float *a, const float *tmp, float *y, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny)
        return;
    float acc = 0.0f;
    for (int i = 0; i < nx; i++)
        acc = fmaf(a[i * ny + j], tmp[i], acc);
    y[j] = acc;
}
