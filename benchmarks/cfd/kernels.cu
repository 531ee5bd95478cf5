/* benchmarks/cfd/kernels.cu — finite-volume solver for the 3-D Euler
 * equations on an unstructured mesh (Rodinia "euler3d" style).
 *
 * Every element i has NNB faces; face j leads to element nbr[j*nelr + i]
 * (or -1 for a solid wall, -2 for the far field) and has the inward normal
 * normals[(j*3 + d)*nelr + i] whose length is the face area.  The five
 * conserved variables (density, momentum x/y/z, energy density) are stored
 * as variables[v*nelr + i].
 *
 *   compute_step_factor  local time step from the cell size and wave speed;
 *   compute_flux         per element: central flux plus artificial viscosity
 *                        over its faces (walls add pressure, far-field faces
 *                        use the free-stream state in constant memory);
 *   time_step            one Runge-Kutta stage: v = v_old + dt/(RK+1-j) * flux.
 * All multiply-adds are explicit fmaf so the CPU reference can repeat the
 * arithmetic exactly. */

#define NNB 4
#define NVAR 5
#define RK 3
#define GAMMA 1.4f
#define GAMMA_M1 0.4f
#define SMOOTH_HALF 0.1f /* smoothing coefficient 0.2, halved */

/* free stream: variables[5], then flux contributions of momentum x, y, z
 * and energy, 3 components each */
__constant__ float c_ff[NVAR + 12];

__device__ __forceinline__ float speed_sqd(float vx, float vy, float vz)
{
    return fmaf(vz, vz, fmaf(vy, vy, vx * vx));
}

__device__ __forceinline__ float pressure(float rho, float e, float v2)
{
    return GAMMA_M1 * fmaf(-0.5f * rho, v2, e);
}

__device__ __forceinline__ float sound(float rho, float p)
{
    return sqrtf(GAMMA * p / rho);
}

extern "C" __global__ void compute_step_factor(const float *variables, const float *areas,
                                               float *step_factors, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr)
        return;
    float rho = variables[i];
    float vx = variables[1 * nelr + i] / rho;
    float vy = variables[2 * nelr + i] / rho;
    float vz = variables[3 * nelr + i] / rho;
    float e = variables[4 * nelr + i];
    float v2 = speed_sqd(vx, vy, vz);
    float c = sound(rho, pressure(rho, e, v2));
    step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(v2) + c));
}

extern "C" __global__ void compute_flux(const int *nbr, const float *normals,
                                        const float *variables, float *fluxes, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr)
        return;

    float rho = variables[i];
    float mx = variables[1 * nelr + i];
    float my = variables[2 * nelr + i];
    float mz = variables[3 * nelr + i];
    float e = variables[4 * nelr + i];
    float vx = mx / rho, vy = my / rho, vz = mz / rho;
    float v2 = speed_sqd(vx, vy, vz);
    float p = pressure(rho, e, v2);
    float c = sound(rho, p);
    float speed = sqrtf(v2);
    float ep = e + p;
    /* flux contributions of this element: rows momentum x/y/z, energy */
    float fxx = fmaf(mx, vx, p), fxy = mx * vy, fxz = mx * vz;
    float fyx = my * vx, fyy = fmaf(my, vy, p), fyz = my * vz;
    float fzx = mz * vx, fzy = mz * vy, fzz = fmaf(mz, vz, p);
    float fex = ep * vx, fey = ep * vy, fez = ep * vz;

    float f_rho = 0.0f, f_mx = 0.0f, f_my = 0.0f, f_mz = 0.0f, f_e = 0.0f;
    for (int j = 0; j < NNB; j++) {
        int nb = nbr[j * nelr + i];
        float nx = normals[(j * 3 + 0) * nelr + i];
        float ny = normals[(j * 3 + 1) * nelr + i];
        float nz = normals[(j * 3 + 2) * nelr + i];
        if (nb >= 0) {
            float rho_n = variables[nb];
            float mx_n = variables[1 * nelr + nb];
            float my_n = variables[2 * nelr + nb];
            float mz_n = variables[3 * nelr + nb];
            float e_n = variables[4 * nelr + nb];
            float vx_n = mx_n / rho_n, vy_n = my_n / rho_n, vz_n = mz_n / rho_n;
            float v2_n = speed_sqd(vx_n, vy_n, vz_n);
            float p_n = pressure(rho_n, e_n, v2_n);
            float c_n = sound(rho_n, p_n);
            float ep_n = e_n + p_n;

            /* artificial viscosity */
            float nlen = sqrtf(speed_sqd(nx, ny, nz));
            float f = -nlen * SMOOTH_HALF * (speed + sqrtf(v2_n) + c + c_n);
            f_rho = fmaf(f, rho - rho_n, f_rho);
            f_e = fmaf(f, e - e_n, f_e);
            f_mx = fmaf(f, mx - mx_n, f_mx);
            f_my = fmaf(f, my - my_n, f_my);
            f_mz = fmaf(f, mz - mz_n, f_mz);

            /* central flux through the face, x then y then z */
            f = 0.5f * nx;
            f_rho = fmaf(f, mx_n + mx, f_rho);
            f_e = fmaf(f, fmaf(ep_n, vx_n, fex), f_e);
            f_mx = fmaf(f, fmaf(mx_n, vx_n, p_n) + fxx, f_mx);
            f_my = fmaf(f, fmaf(my_n, vx_n, fyx), f_my);
            f_mz = fmaf(f, fmaf(mz_n, vx_n, fzx), f_mz);
            f = 0.5f * ny;
            f_rho = fmaf(f, my_n + my, f_rho);
            f_e = fmaf(f, fmaf(ep_n, vy_n, fey), f_e);
            f_mx = fmaf(f, fmaf(mx_n, vy_n, fxy), f_mx);
            f_my = fmaf(f, fmaf(my_n, vy_n, p_n) + fyy, f_my);
            f_mz = fmaf(f, fmaf(mz_n, vy_n, fzy), f_mz);
            f = 0.5f * nz;
            f_rho = fmaf(f, mz_n + mz, f_rho);
            f_e = fmaf(f, fmaf(ep_n, vz_n, fez), f_e);
            f_mx = fmaf(f, fmaf(mx_n, vz_n, fxz), f_mx);
            f_my = fmaf(f, fmaf(my_n, vz_n, fyz), f_my);
            f_mz = fmaf(f, fmaf(mz_n, vz_n, p_n) + fzz, f_mz);
        } else if (nb == -1) {
            /* solid wall: only the pressure pushes */
            f_mx = fmaf(nx, p, f_mx);
            f_my = fmaf(ny, p, f_my);
            f_mz = fmaf(nz, p, f_mz);
        } else if (nb == -2) {
            /* far field: central flux against the free stream */
            float f = 0.5f * nx;
            f_rho = fmaf(f, c_ff[1] + mx, f_rho);
            f_e = fmaf(f, c_ff[14] + fex, f_e);
            f_mx = fmaf(f, c_ff[5] + fxx, f_mx);
            f_my = fmaf(f, c_ff[8] + fyx, f_my);
            f_mz = fmaf(f, c_ff[11] + fzx, f_mz);
            f = 0.5f * ny;
            f_rho = fmaf(f, c_ff[2] + my, f_rho);
            f_e = fmaf(f, c_ff[15] + fey, f_e);
            f_mx = fmaf(f, c_ff[6] + fxy, f_mx);
            f_my = fmaf(f, c_ff[9] + fyy, f_my);
            f_mz = fmaf(f, c_ff[12] + fzy, f_mz);
            f = 0.5f * nz;
            f_rho = fmaf(f, c_ff[3] + mz, f_rho);
            f_e = fmaf(f, c_ff[16] + fez, f_e);
            f_mx = fmaf(f, c_ff[7] + fxz, f_mx);
            f_my = fmaf(f, c_ff[10] + fyz, f_my);
            f_mz = fmaf(f, c_ff[13] + fzz, f_mz);
        }
    }
    fluxes[i] = f_rho;
    fluxes[1 * nelr + i] = f_mx;
    fluxes[2 * nelr + i] = f_my;
    fluxes[3 * nelr + i] = f_mz;
    fluxes[4 * nelr + i] = f_e;
}

extern "C" __global__ void time_step(int j, int nelr, const float *old_variables,
                                     float *variables, const float *step_factors,
                                     const float *fluxes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr)
        return;
    float factor = step_factors[i] / (float)(RK + 1 - j);
    for (int v = 0; v < NVAR; v++)
        variables[v * nelr + i] = fmaf(factor, fluxes[v * nelr + i], old_variables[v * nelr + i]);
}
