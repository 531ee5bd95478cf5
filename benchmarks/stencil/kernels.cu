/* benchmarks/stencil/kernels.cu — Parboil-style 7-point 3-D Jacobi stencil
 * (one time step per launch; the host ping-pongs two volumes).
 *
 * Each CTA of 32 x 4 threads owns a 32 x 4 column block of the x-y plane and
 * marches along z: the z neighbours stay in registers (below, centre,
 * above), the x-y neighbours of the current plane come from a shared tile
 * with a one-cell halo.  Boundary cells are not written (the host copies the
 * input into both volumes, so they stay the input's).
 *
 *   next = (sum of the six neighbours) * c1 - centre * c0
 *
 * with the six added in a fixed order and the final step an explicit fmaf
 * after a rounded multiply, so the CPU reference matches bit for bit. */

#define TX 32
#define TY 4

extern "C" __global__ void stencil7(const float *a0, float *anext, int nx, int ny, int nz,
                                    float c0, float c1)
{
    __shared__ float tile[TY + 2][TX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.x * TX + tx;
    int j = blockIdx.y * TY + ty;
    bool inside = i < nx && j < ny;
    bool interior = i > 0 && i < nx - 1 && j > 0 && j < ny - 1;
    int plane = nx * ny;
    int col = j * nx + i;
    float below = inside ? a0[col] : 0.0f;
    float centre = inside ? a0[plane + col] : 0.0f;
    for (int k = 1; k < nz - 1; k++) {
        float above = inside ? a0[(k + 1) * plane + col] : 0.0f;
        int base = k * plane;
        tile[ty + 1][tx + 1] = centre;
        if (tx == 0 && i > 0 && j < ny)
            tile[ty + 1][0] = a0[base + col - 1];
        if (tx == TX - 1 && i + 1 < nx && j < ny)
            tile[ty + 1][TX + 1] = a0[base + col + 1];
        if (ty == 0 && j > 0 && i < nx)
            tile[0][tx + 1] = a0[base + col - nx];
        if (ty == TY - 1 && j + 1 < ny && i < nx)
            tile[TY + 1][tx + 1] = a0[base + col + nx];
        __syncthreads();
        if (interior) {
            float s = __fadd_rn(above, below);
            s = __fadd_rn(s, tile[ty + 2][tx + 1]);
            s = __fadd_rn(s, tile[ty][tx + 1]);
            s = __fadd_rn(s, tile[ty + 1][tx + 2]);
            s = __fadd_rn(s, tile[ty + 1][tx]);
            anext[base + col] = fmaf(-c0, centre, __fmul_rn(s, c1));
        }
        __syncthreads();
        below = centre;
        centre = above;
    }
}
