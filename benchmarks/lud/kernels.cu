/* benchmarks/lud/kernels.cu — blocked right-looking LU decomposition without
 * pivoting (Doolittle: unit lower L, upper U, both stored in place).
 *
 * The matrix is split into BS x BS tiles.  Step i (tile offset off = i*BS):
 *   lud_diagonal   factors the diagonal tile A11 = L11 U11 (one CTA);
 *   lud_perimeter  CTA j turns the tile right of it into U12 = L11^-1 A12 and
 *                  the tile below it into L21 = A21 U11^-1;
 *   lud_internal   CTA (x, y) updates the trailing tile A22 -= L21 U12.
 * The host loops over the steps.  Every CTA is BS x BS = 256 threads, one
 * thread per tile element; all arithmetic is written with explicit fmaf so
 * the CPU reference can repeat it operation for operation. */

#define BS 16

extern "C" __global__ void lud_diagonal(float *m, int n, int off)
{
    __shared__ float s[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    float *tile = m + off * n + off;

    s[ty][tx] = tile[ty * n + tx];
    __syncthreads();
    for (int k = 0; k < BS - 1; k++) {
        /* column k of L: divide by the pivot */
        if (tx == k && ty > k)
            s[ty][k] = s[ty][k] / s[k][k];
        __syncthreads();
        /* rank-1 update of the trailing part of the tile */
        if (tx > k && ty > k)
            s[ty][tx] = fmaf(-s[ty][k], s[k][tx], s[ty][tx]);
        __syncthreads();
    }
    tile[ty * n + tx] = s[ty][tx];
}

extern "C" __global__ void lud_perimeter(float *m, int n, int off)
{
    __shared__ float d[BS][BS]; /* factored diagonal tile (L11 \ U11) */
    __shared__ float r[BS][BS]; /* tile right of the diagonal -> U12 */
    __shared__ float c[BS][BS]; /* tile below the diagonal    -> L21 */
    int tx = threadIdx.x, ty = threadIdx.y;
    int p = off + (blockIdx.x + 1) * BS; /* offset of this CTA's panel tiles */

    d[ty][tx] = m[(off + ty) * n + off + tx];
    r[ty][tx] = m[(off + ty) * n + p + tx];
    c[ty][tx] = m[(p + ty) * n + off + tx];
    __syncthreads();
    for (int k = 0; k < BS; k++) {
        /* U12: forward substitution with the unit lower L11 (per column) */
        if (ty > k)
            r[ty][tx] = fmaf(-d[ty][k], r[k][tx], r[ty][tx]);
        /* L21: solve X U11 = A21 column by column (per row) */
        if (tx == k)
            c[ty][k] = c[ty][k] / d[k][k];
        __syncthreads();
        if (tx > k)
            c[ty][tx] = fmaf(-c[ty][k], d[k][tx], c[ty][tx]);
        __syncthreads();
    }
    m[(off + ty) * n + p + tx] = r[ty][tx];
    m[(p + ty) * n + off + tx] = c[ty][tx];
}

extern "C" __global__ void lud_internal(float *m, int n, int off)
{
    __shared__ float l[BS][BS]; /* L21 tile of this CTA's row */
    __shared__ float u[BS][BS]; /* U12 tile of this CTA's column */
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = off + (blockIdx.y + 1) * BS;
    int col = off + (blockIdx.x + 1) * BS;

    l[ty][tx] = m[(row + ty) * n + off + tx];
    u[ty][tx] = m[(off + ty) * n + col + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < BS; k++)
        sum = fmaf(l[ty][k], u[k][tx], sum);
    m[(row + ty) * n + col + tx] -= sum;
}
