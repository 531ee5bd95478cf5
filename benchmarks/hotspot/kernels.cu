// hotspot: a Rodinia-style thermal simulation.  A chip is a rows x cols grid
// of cells with a temperature and a dissipated power; one explicit step is
//
//   T' = T + cp*P + cy*(T_north + T_south - 2T) + cx*(T_east + T_west - 2T)
//          + cz*(amb - T)
//
// with neighbours outside the chip replaced by the cell itself (no flux
// across the edge).
//
// One launch advances `steps` time steps with the "pyramid" scheme: a
// 16 x 16 CTA loads a tile that overlaps its neighbours by `steps` cells on
// each side into shared memory and iterates there; after step k only the
// cells at least k+1 from the tile edge are still exact, so a CTA writes
// back the (16 - 2*steps)^2 interior.  The host ping-pongs two temperature
// buffers between launches.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

#define HS_TILE 16

extern "C" __global__ void hotspot_step(const float *power, const float *tin,
                                        float *tout, int rows, int cols,
                                        int steps, float cx, float cy,
                                        float cz, float cp, float amb)
{
    __shared__ float t[HS_TILE][HS_TILE];
    __shared__ float p[HS_TILE][HS_TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int valid = HS_TILE - 2 * steps;
    int gx = blockIdx.x * valid - steps + tx;
    int gy = blockIdx.y * valid - steps + ty;
    bool inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;

    // Tile cells outside the chip load the nearest edge cell; they are never
    // computed or written and no inside cell reads them (edges clamp).
    int lx = min(max(gx, 0), cols - 1);
    int ly = min(max(gy, 0), rows - 1);
    t[ty][tx] = tin[ly * cols + lx];
    p[ty][tx] = power[ly * cols + lx];

    // Tile indices of the four neighbours, clamped at the chip edge.
    int w = gx > 0 ? tx - 1 : tx;
    int e = gx < cols - 1 ? tx + 1 : tx;
    int n = gy > 0 ? ty - 1 : ty;
    int s = gy < rows - 1 ? ty + 1 : ty;
    __syncthreads();

    for (int k = 0; k < steps; k++) {
        bool compute = inside && tx > k && tx < HS_TILE - 1 - k && ty > k &&
                       ty < HS_TILE - 1 - k;
        float v = 0.0f;
        if (compute) {
            float c = t[ty][tx];
            v = c + cp * p[ty][tx] + cy * (t[n][tx] + t[s][tx] - 2.0f * c) +
                cx * (t[ty][e] + t[ty][w] - 2.0f * c) + cz * (amb - c);
        }
        __syncthreads();
        if (compute)
            t[ty][tx] = v;
        __syncthreads();
    }

    if (inside && tx >= steps && tx < HS_TILE - steps && ty >= steps &&
        ty < HS_TILE - steps)
        tout[gy * cols + gx] = t[ty][tx];
}
