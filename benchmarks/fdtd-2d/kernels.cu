/* benchmarks/fdtd-2d/kernels.cu — 2-D finite-difference time-domain
 * (PolyBench-style FDTD-2D, TE mode): per time step the host launches three
 * kernels, one thread per grid point, 32 x 8 threads per CTA:
 *   fdtd_ey  ey -= 0.5 * d(hz)/di, with the source fict[t] on row 0;
 *   fdtd_ex  ex -= 0.5 * d(hz)/dj;
 *   fdtd_hz  hz -= 0.7 * (d(ex)/dj + d(ey)/di).
 * All arrays are nx x ny, row-major. */

extern "C" __global__ void fdtd_ey(float *ey, const float *hz, const float *fict,
                                   int nx, int ny, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    if (i == 0)
        ey[j] = fict[t];
    else
        ey[i * ny + j] = fmaf(-0.5f, hz[i * ny + j] - hz[(i - 1) * ny + j], ey[i * ny + j]);
}

extern "C" __global__ void fdtd_ex(float *ex, const float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j < 1 || j >= ny)
        return;
    ex[i * ny + j] = fmaf(-0.5f, hz[i * ny + j] - hz[i * ny + j - 1], ex[i * ny + j]);
}

extern "C" __global__ void fdtd_hz(float *hz, const float *ex, const float *ey, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx - 1 || j >= ny - 1)
        return;
    float curl = ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j];
    hz[i * ny + j] = fmaf(-0.7f, curl, hz[i * ny + j]);
}
