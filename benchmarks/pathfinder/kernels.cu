// pathfinder: Rodinia-style dynamic programming over a grid of weights.  A
// path goes from the top row to the bottom row moving straight down or
// diagonally by one column per row; cost[r][c] = wall[r][c] +
// min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1]), with missing
// neighbours at the edges left out.
//
// One launch advances `steps` rows with the pyramid scheme: a CTA of 256
// threads loads 256 columns of the previous row (overlapping its neighbours
// by `steps` columns on each side) and computes row after row in a pair of
// shared-memory buffers; after step k only columns at least k+1 from the
// tile edge are exact, so it writes back the 256 - 2*steps middle columns.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

#define PF_BLOCK 256

extern "C" __global__ void pathfinder_rows(const int *wall, const int *src,
                                           int *dst, int cols, int start_row,
                                           int steps)
{
    __shared__ int buf[2][PF_BLOCK];

    int tx = threadIdx.x;
    int valid = PF_BLOCK - 2 * steps;
    int gc = blockIdx.x * valid - steps + tx;
    bool inside = gc >= 0 && gc < cols;

    buf[0][tx] = src[min(max(gc, 0), cols - 1)];
    // Tile indices of the diagonal neighbours; at the grid edge the missing
    // neighbour is replaced by the cell itself, which leaves the min as is.
    int w = gc > 0 ? tx - 1 : tx;
    int e = gc < cols - 1 ? tx + 1 : tx;
    __syncthreads();

    for (int k = 0; k < steps; k++) {
        int cur = k & 1;
        if (inside && tx > k && tx < PF_BLOCK - 1 - k) {
            int best = min(buf[cur][w], min(buf[cur][tx], buf[cur][e]));
            buf[cur ^ 1][tx] = wall[(start_row + k) * cols + gc] + best;
        }
        __syncthreads();
    }

    if (inside && tx >= steps && tx < PF_BLOCK - steps)
        dst[gc] = buf[steps & 1][tx];
}
