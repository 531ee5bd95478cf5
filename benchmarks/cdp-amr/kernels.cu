// cdp-amr: adaptive mesh refinement with nested device-side launches, in the
// style of the LaPerm seed's amr (a combustion-like temperature field with
// flame fronts).  A coarse cell of 32 x 32 units whose 4 corner samples
// spread by more than thr0 is refined by a child TB into 8 x 8 cells of 4
// units (a thread each); such a cell spreading by more than thr1 is refined
// by a grandchild TB into 4 x 4 cells of 1 unit.  Every leaf adds its
// lower-left sample x area to its coarse cell's sum and counts itself.  A
// TB gathers its refined cells in thread order and launches one grid with a
// TB per refined cell; integer atomics make the sums order-independent, so
// memory after the launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh, which compiles sources
// marked "ptxemu: -rdc=true" with -rdc=true (device-side launches need it).
// ptxemu: -rdc=true

#define PB 64    // parent TB: 64 coarse cells
#define COARSE 32
#define MID 4    // level-1 cell side; 8 x 8 of them per coarse cell

__device__ __forceinline__ unsigned amr_spread(const unsigned *f, int w, int x, int y, int s)
{
    unsigned a = f[y * w + x], b = f[y * w + x + s];
    unsigned c = f[(y + s) * w + x], d = f[(y + s) * w + x + s];
    unsigned lo = min(min(a, b), min(c, d)), hi = max(max(a, b), max(c, d));
    return hi - lo;
}

__device__ __forceinline__ void amr_leaf(const unsigned *f, int w, int x, int y,
                                         unsigned area, unsigned long long *sum,
                                         unsigned *leaves)
{
    atomicAdd(sum, (unsigned long long)f[y * w + x] * area);
    atomicAdd(leaves, 1u);
}

// grandchild: TB per refined level-1 cell, 16 threads = 4 x 4 unit cells
extern "C" __global__ void amr_fine(const unsigned *f, int w, int g, int c, const int *list,
                                    unsigned long long *sum, unsigned *leaves)
{
    int sub = list[blockIdx.x];
    int x = (c % g) * COARSE + (sub % 8) * MID + threadIdx.x % MID;
    int y = (c / g) * COARSE + (sub / 8) * MID + threadIdx.x / MID;
    amr_leaf(f, w, x, y, 1, &sum[c], &leaves[c]);
}

// child: TB per refined coarse cell, 64 threads = 8 x 8 level-1 cells
extern "C" __global__ void amr_mid(const unsigned *f, int w, int g, unsigned thr1,
                                   const int *list, int *list2, unsigned long long *sum,
                                   unsigned *leaves)
{
    __shared__ unsigned char refine[64];
    int c = list[blockIdx.x];
    int x = (c % g) * COARSE + (threadIdx.x % 8) * MID;
    int y = (c / g) * COARSE + (threadIdx.x / 8) * MID;
    unsigned char r = amr_spread(f, w, x, y, MID) > thr1;
    if (!r)
        amr_leaf(f, w, x, y, MID * MID, &sum[c], &leaves[c]);
    refine[threadIdx.x] = r;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *l2 = list2 + c * 64, k = 0;
        for (int t = 0; t < 64; t++)
            if (refine[t])
                l2[k++] = t;
        if (k > 0)
            amr_fine<<<k, MID * MID>>>(f, w, g, c, l2, sum, leaves);
    }
}

extern "C" __global__ void amr_coarse(const unsigned *f, int w, int g, unsigned thr0,
                                      unsigned thr1, int *list, int *list2,
                                      unsigned long long *sum, unsigned *leaves)
{
    __shared__ unsigned char refine[PB];
    int c = blockIdx.x * PB + threadIdx.x;
    unsigned char r = 0;
    if (c < g * g) {
        int x = (c % g) * COARSE, y = (c / g) * COARSE;
        r = amr_spread(f, w, x, y, COARSE) > thr0;
        if (!r)
            amr_leaf(f, w, x, y, COARSE * COARSE, &sum[c], &leaves[c]);
    }
    refine[threadIdx.x] = r;
    __syncthreads();
    if (threadIdx.x == 0) {
        int *l1 = list + blockIdx.x * PB, k = 0;
        for (int t = 0; t < PB; t++)
            if (refine[t])
                l1[k++] = blockIdx.x * PB + t;
        if (k > 0)
            amr_mid<<<k, 64>>>(f, w, g, thr1, l1, list2, sum, leaves);
    }
}
