// gaussian: Rodinia-style Gaussian elimination of a dense n x n system
// A x = b without pivoting (the generated matrices are diagonally
// dominant).  For each column t the host launches two kernels:
//
// gauss_fan1: one thread per row below t computes its multiplier
//   m[row][t] = a[row][t] / a[t][t].
// gauss_fan2: a 2-D grid of 4 x 4 CTAs over the trailing block, rows
//   t+1..n-1 x columns t..n-1, subtracts m[row][t] * (row t) from each row;
//   the column-t thread of each row also updates b[row].
//
// The host then solves the upper-triangular system by back substitution.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void gauss_fan1(const float *a, float *m, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t)
        return;
    int row = t + 1 + i;
    m[row * n + t] = a[row * n + t] / a[t * n + t];
}

extern "C" __global__ void gauss_fan2(float *a, float *b, const float *m,
                                      int n, int t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x; // column - t
    int y = blockIdx.y * blockDim.y + threadIdx.y; // row - (t + 1)
    if (y >= n - 1 - t || x >= n - t)
        return;
    int row = t + 1 + y;
    int col = t + x;
    float mult = m[row * n + t];
    a[row * n + col] -= mult * a[t * n + col];
    if (x == 0)
        b[row] -= mult * b[t];
}
