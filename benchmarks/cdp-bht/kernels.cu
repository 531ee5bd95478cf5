// cdp-bht: Barnes-Hut quadtree build by recursive device-side launches, in
// the style of the LaPerm seed's bht (random points).  Points arrive sorted
// by Morton code, so a node's points are a contiguous range and its four
// quadrants are sub-ranges.  A TB per node sums its points' coordinates
// (shared-memory tree), writes the node's record at slot depth * n + lo,
// finds its quadrants by binary search, writes the records of quadrants
// that stay leaves, and launches one grid with a TB per quadrant that
// splits further (up to 4, ranges passed as parameters).  Every slot has one
// writer and sums are integers, so memory is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh, which compiles sources
// marked "ptxemu: -rdc=true" with -rdc=true (device-side launches need it).
// ptxemu: -rdc=true

#define BT 128

__device__ __forceinline__ int pick(int4 v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

extern "C" __global__ void bht_node(const unsigned *code, const unsigned *px,
                                    const unsigned *py, int n, int depth, int maxdepth,
                                    int leafcap, int4 los, int4 his, int *ncnt,
                                    unsigned long long *nsx, unsigned long long *nsy)
{
    __shared__ unsigned long long sx[BT], sy[BT];
    __shared__ int bnd[5];
    int lo = pick(los, blockIdx.x), hi = pick(his, blockIdx.x);
    unsigned long long ax = 0, ay = 0;
    for (int i = lo + threadIdx.x; i < hi; i += BT)
        ax += px[i], ay += py[i];
    sx[threadIdx.x] = ax;
    sy[threadIdx.x] = ay;
    __syncthreads();
    for (int s = BT / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            sx[threadIdx.x] += sx[threadIdx.x + s];
            sy[threadIdx.x] += sy[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        long slot = (long)depth * n + lo;
        ncnt[slot] = hi - lo;
        nsx[slot] = sx[0];
        nsy[slot] = sy[0];
    }
    if (hi - lo <= leafcap || depth + 1 >= maxdepth)
        return; // uniform over the TB: no thread is left at a barrier
    int shift = 30 - 2 * depth;
    if (threadIdx.x <= 4) { // bnd[q] = first point whose quadrant is >= q
        unsigned q = threadIdx.x;
        int a = lo, b = hi;
        while (a < b) {
            int mid = (a + b) / 2;
            if (((code[mid] >> shift) & 3u) < q)
                a = mid + 1;
            else
                b = mid;
        }
        bnd[q] = q == 4 ? hi : a;
    }
    __syncthreads();
    int d1 = depth + 1;
    if (threadIdx.x < 4) { // quadrants that stay leaves: record them here
        int a = bnd[threadIdx.x], b = bnd[threadIdx.x + 1];
        if (b > a && (b - a <= leafcap || d1 + 1 >= maxdepth)) {
            unsigned long long qx = 0, qy = 0;
            for (int i = a; i < b; i++)
                qx += px[i], qy += py[i];
            long slot = (long)d1 * n + a;
            ncnt[slot] = b - a;
            nsx[slot] = qx;
            nsy[slot] = qy;
        }
    }
    if (threadIdx.x == 0) {
        int cl[4], ch[4], k = 0;
        for (int q = 0; q < 4; q++) {
            int a = bnd[q], b = bnd[q + 1];
            if (b - a > leafcap && d1 + 1 < maxdepth)
                cl[k] = a, ch[k] = b, k++;
        }
        for (int q = k; q < 4; q++)
            cl[q] = ch[q] = 0;
        if (k > 0)
            bht_node<<<k, BT>>>(code, px, py, n, d1, maxdepth, leafcap,
                                make_int4(cl[0], cl[1], cl[2], cl[3]),
                                make_int4(ch[0], ch[1], ch[2], ch[3]), ncnt, nsx, nsy);
    }
}
