// cdp-sssp: single-source shortest paths (frontier Bellman-Ford) with
// device-side launches, in the style of the LaPerm seed's sssp.  A frontier
// vertex relaxes its out-edges into dist_new with atomicMin; one with more
// than `thresh` edges is handed to a child TB (one child grid per parent
// TB, a TB per heavy vertex, gathered in thread order).  sssp_update then
// moves improved distances into dist and forms the next frontier.  The
// minimum does not depend on the order of the atomics, so memory after
// every launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh, which compiles sources
// marked "ptxemu: -rdc=true" with -rdc=true (device-side launches need it).
// ptxemu: -rdc=true

#define PB 64
#define CB 64

extern "C" __global__ void sssp_child(const int *row, const int *col, const int *w,
                                      const int *heavy, const int *dist, int *dist_new)
{
    int v = heavy[blockIdx.x];
    int d = dist[v];
    for (int e = row[v] + threadIdx.x; e < row[v + 1]; e += blockDim.x)
        atomicMin(&dist_new[col[e]], d + w[e]);
}

extern "C" __global__ void sssp_parent(const int *row, const int *col, const int *w,
                                       const unsigned char *front, const int *dist,
                                       int *dist_new, int *heavy, int n, int thresh)
{
    __shared__ unsigned char is_heavy[PB];
    int v = blockIdx.x * PB + threadIdx.x;
    unsigned char h = 0;
    if (v < n && front[v]) {
        int b = row[v], e = row[v + 1], d = dist[v];
        if (e - b > thresh)
            h = 1;
        else
            for (int k = b; k < e; k++)
                atomicMin(&dist_new[col[k]], d + w[k]);
    }
    is_heavy[threadIdx.x] = h;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *list = heavy + blockIdx.x * PB, k = 0;
        for (int t = 0; t < PB; t++)
            if (is_heavy[t])
                list[k++] = blockIdx.x * PB + t;
        if (k > 0)
            sssp_child<<<k, CB>>>(row, col, w, list, dist, dist_new);
    }
}

extern "C" __global__ void sssp_update(unsigned char *front, int *dist, const int *dist_new,
                                       int *changed, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    int nd = dist_new[v];
    unsigned char f = nd < dist[v];
    front[v] = f;
    if (f) {
        dist[v] = nd;
        *changed = 1;
    }
}
