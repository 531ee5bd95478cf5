// cp: Coulombic potential on a 2D lattice slice by direct summation over
// atoms held in constant memory (the GPGPU-Sim/VMD "cenergy" shape).
// Written for ptxemu.
// The host precomputes per atom (x, y, dz^2, q) for the slice and uploads
// up to CP_MAX_ATOMS atoms per launch; each launch adds its atoms'
// contribution to the energy grid, so the host loops over atom chunks.
// CTA: 16x8 threads; each thread owns 4 lattice points 16 apart in x, so a
// CTA covers 64 x 8 points.  width must be a multiple of 64.

#define CP_MAX_ATOMS 4000
#define CP_BX 16
#define CP_BY 8
#define CP_UNROLL 4

__constant__ float4 c_atoms[CP_MAX_ATOMS];

extern "C" __global__ void cenergy(float *energy, int width, float spacing,
                                   int natoms)
{
    const int gx = blockIdx.x * CP_BX * CP_UNROLL + threadIdx.x;
    const int gy = blockIdx.y * CP_BY + threadIdx.y;
    const float y = gy * spacing;
    float x[CP_UNROLL], e[CP_UNROLL];
#pragma unroll
    for (int k = 0; k < CP_UNROLL; k++) {
        x[k] = (gx + k * CP_BX) * spacing;
        e[k] = 0.0f;
    }

    for (int a = 0; a < natoms; a++) {
        float4 atom = c_atoms[a];
        float dy = y - atom.y;
        float dyz2 = dy * dy + atom.z;
#pragma unroll
        for (int k = 0; k < CP_UNROLL; k++) {
            float dx = x[k] - atom.x;
            e[k] += atom.w * rsqrtf(dx * dx + dyz2);
        }
    }

#pragma unroll
    for (int k = 0; k < CP_UNROLL; k++)
        energy[gy * width + gx + k * CP_BX] += e[k];
}
