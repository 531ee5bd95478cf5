// cdp-clr: Jones-Plassmann graph colouring with device-side launches, in the
// style of the LaPerm seed's clr.  Round r: every uncoloured vertex checks
// whether an uncoloured neighbour beats it (higher priority, ties to the
// higher id); a vertex with more than `thresh` neighbours is checked by a
// child TB (one child grid per parent TB, a TB per heavy vertex, gathered in
// thread order).  clr_assign gives colour r to every uncoloured vertex that
// nobody beat.  Only `lose` flags (all writers store 1) are written during
// the check, so memory after every launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh, which compiles sources
// marked "ptxemu: -rdc=true" with -rdc=true (device-side launches need it).
// ptxemu: -rdc=true

#define PB 64
#define CB 64

__device__ __forceinline__ bool clr_beats(const unsigned *prio, int u, int v)
{
    return prio[u] > prio[v] || (prio[u] == prio[v] && u > v);
}

extern "C" __global__ void clr_child(const int *row, const int *col, const int *heavy,
                                     const unsigned *prio, const int *colour,
                                     unsigned char *lose)
{
    int v = heavy[blockIdx.x];
    for (int e = row[v] + threadIdx.x; e < row[v + 1]; e += blockDim.x) {
        int u = col[e];
        if (colour[u] < 0 && clr_beats(prio, u, v))
            lose[v] = 1;
    }
}

extern "C" __global__ void clr_parent(const int *row, const int *col, const unsigned *prio,
                                      const int *colour, unsigned char *lose, int *heavy,
                                      int n, int thresh)
{
    __shared__ unsigned char is_heavy[PB];
    int v = blockIdx.x * PB + threadIdx.x;
    unsigned char h = 0;
    if (v < n && colour[v] < 0) {
        int b = row[v], e = row[v + 1];
        if (e - b > thresh) {
            h = 1;
        } else {
            for (int k = b; k < e; k++) {
                int u = col[k];
                if (colour[u] < 0 && clr_beats(prio, u, v)) {
                    lose[v] = 1;
                    break;
                }
            }
        }
    }
    is_heavy[threadIdx.x] = h;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *list = heavy + blockIdx.x * PB, k = 0;
        for (int t = 0; t < PB; t++)
            if (is_heavy[t])
                list[k++] = blockIdx.x * PB + t;
        if (k > 0)
            clr_child<<<k, CB>>>(row, col, list, prio, colour, lose);
    }
}

extern "C" __global__ void clr_assign(int *colour, unsigned char *lose, int *left, int n,
                                      int round)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || colour[v] >= 0)
        return;
    if (lose[v]) {
        lose[v] = 0;
        *left = 1;
    } else {
        colour[v] = round;
    }
}
