// cdp-bfs: level-synchronous breadth-first search with device-side launches
// (CUDA dynamic parallelism), in the style of the LaPerm seed's bfs.  One
// parent thread per vertex of the current level; a vertex with more than
// `thresh` neighbours is handed to a child thread block that expands its
// edge list in parallel, the rest are expanded by their own thread.  Each
// parent TB gathers its heavy vertices (in thread order, so the list is the
// same under any schedule) and its thread 0 launches one child grid with a
// TB per heavy vertex.  Racing writes to a neighbour's level store the same
// value, so memory after every launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -rdc=true
// -arch=sm_75; the marker line below asks for -rdc=true).
// ptxemu: -rdc=true

#define PB 64 // parent TB size
#define CB 64 // child TB size

__device__ __forceinline__ void bfs_visit(int u, int next, int *level, int *changed)
{
    if (level[u] < 0) {
        level[u] = next;
        *changed = 1;
    }
}

extern "C" __global__ void bfs_child(const int *row, const int *col, const int *heavy,
                                     int *level, int next, int *changed)
{
    int v = heavy[blockIdx.x];
    for (int e = row[v] + threadIdx.x; e < row[v + 1]; e += blockDim.x)
        bfs_visit(col[e], next, level, changed);
}

extern "C" __global__ void bfs_parent(const int *row, const int *col, int *level, int *heavy,
                                      int n, int cur, int thresh, int *changed)
{
    __shared__ unsigned char is_heavy[PB];
    int v = blockIdx.x * PB + threadIdx.x;
    unsigned char h = 0;
    if (v < n && level[v] == cur) {
        int b = row[v], e = row[v + 1];
        if (e - b > thresh)
            h = 1;
        else
            for (int k = b; k < e; k++)
                bfs_visit(col[k], cur + 1, level, changed);
    }
    is_heavy[threadIdx.x] = h;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *list = heavy + blockIdx.x * PB, k = 0;
        for (int t = 0; t < PB; t++)
            if (is_heavy[t])
                list[k++] = blockIdx.x * PB + t;
        if (k > 0)
            bfs_child<<<k, CB>>>(row, col, list, level, cur + 1, changed);
    }
}
