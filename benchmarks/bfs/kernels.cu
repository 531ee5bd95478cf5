// bfs: level-synchronous breadth-first search in the Rodinia style.  Nodes
// are (first edge, degree) pairs into a flat edge array; three byte masks
// hold the current frontier, the nodes discovered in this step ("updating")
// and the visited set.  One thread per node.  The host alternates the two
// kernels until a step discovers nothing.
//
// bfs_expand: a frontier node leaves the frontier and gives every unvisited
// neighbour the cost one more than its own, marking it as updating.  All
// frontier nodes of one step have the same cost, so racing writes to a
// neighbour's cost store the same value.
// bfs_update: updating nodes join the frontier and the visited set, and
// raise the `changed` flag for the host.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void bfs_expand(const int2 *nodes, const int *edges,
                                      unsigned char *frontier,
                                      unsigned char *updating,
                                      const unsigned char *visited, int *cost,
                                      int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v])
        return;
    frontier[v] = 0;
    int2 node = nodes[v];
    int next_cost = cost[v] + 1;
    for (int e = node.x; e < node.x + node.y; e++) {
        int u = edges[e];
        if (!visited[u]) {
            cost[u] = next_cost;
            updating[u] = 1;
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *frontier,
                                      unsigned char *updating,
                                      unsigned char *visited, int *changed,
                                      int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !updating[v])
        return;
    frontier[v] = 1;
    visited[v] = 1;
    updating[v] = 0;
    *changed = 1;
}
