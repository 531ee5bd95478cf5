// fdtd3d/kernels.cu — one time step of an 8th-order (radius 4) 3-D
// finite-difference stencil, the shape of the FDTD3d workload.
// A CTA of 32 x 8 threads owns a 32 x 8 column of the interior and marches
// along z: each thread keeps its column's z-neighbours in a register queue
// (4 behind, 4 in front), the current xy-plane goes through a shared tile
// with a 4-point halo on each side for the x- and y-neighbours.  Points
// within 4 of a face are not updated (both buffers start equal).  The sum
// is written with explicit fused multiply-adds so the CPU reference can
// repeat it bit for bit.  Written for ptxemu from the stencil's definition.

#define RAD 4
#define TX 32
#define TY 8

__constant__ float coef[RAD + 1];

extern "C" __global__ void fdtd3d_step(const float *in, float *out, int nx, int ny, int nz)
{
    __shared__ float tile[TY + 2 * RAD][TX + 2 * RAD];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = RAD + blockIdx.x * TX + tx, y = RAD + blockIdx.y * TY + ty;
    size_t plane = (size_t)nx * ny;
    size_t idx = (size_t)y * nx + x;   // this thread's column at z = 0

    float behind[RAD], infront[RAD], cur;
    for (int r = 0; r < RAD; r++)
        behind[r] = in[idx + (size_t)(RAD - 1 - r) * plane];   // behind[r]: z - 1 - r
    cur = in[idx + RAD * plane];
    for (int r = 0; r < RAD; r++)
        infront[r] = in[idx + (size_t)(RAD + 1 + r) * plane];  // infront[r]: z + 1 + r

    for (int z = RAD; z < nz - RAD; z++) {
        size_t c = idx + (size_t)z * plane;
        // stage the plane z: own point, then the halos
        tile[ty + RAD][tx + RAD] = cur;
        if (tx < RAD) {
            tile[ty + RAD][tx] = in[c - RAD];
            tile[ty + RAD][tx + TX + RAD] = in[c + TX];
        }
        if (ty < RAD) {
            tile[ty][tx + RAD] = in[c - (size_t)RAD * nx];
            tile[ty + TY + RAD][tx + RAD] = in[c + (size_t)TY * nx];
        }
        __syncthreads();

        float v = coef[0] * cur;
        for (int r = 1; r <= RAD; r++) {
            float s = __fadd_rn(infront[r - 1], behind[r - 1]);
            s = __fadd_rn(s, tile[ty + RAD - r][tx + RAD]);
            s = __fadd_rn(s, tile[ty + RAD + r][tx + RAD]);
            s = __fadd_rn(s, tile[ty + RAD][tx + RAD - r]);
            s = __fadd_rn(s, tile[ty + RAD][tx + RAD + r]);
            v = __fmaf_rn(coef[r], s, v);
        }
        out[c] = v;
        __syncthreads();

        // advance the queue to z + 1
        for (int r = RAD - 1; r > 0; r--)
            behind[r] = behind[r - 1];
        behind[0] = cur;
        cur = infront[0];
        for (int r = 0; r < RAD - 1; r++)
            infront[r] = infront[r + 1];
        if (z + 1 + RAD < nz)
            infront[RAD - 1] = in[c + (size_t)(RAD + 1) * plane];
    }
}
