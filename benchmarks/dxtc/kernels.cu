// dxtc/kernels.cu — DXT1 (BC1) compression of an RGBA image.
// A CTA of 256 threads compresses 16 pixel blocks of 4 x 4, 16 threads per
// block, one thread per pixel.  Each thread stages its pixel in shared
// memory, finds the block's per-channel bounding box, and scores one of 16
// candidate endpoint pairs (the box's corners moved inwards by 0..3
// sixteenths of its extent) by the block's total squared error against the
// pair's 4-colour palette; the block keeps the best pair (ties to the lower
// candidate), orders the endpoints for 4-colour mode and each thread picks
// its pixel's palette index.  All arithmetic is integer.  Written for ptxemu
// from the DXT1 format's definition, not from the CUDA SDK sample.

#define THREADS 256

__device__ static unsigned chan(unsigned c, int k) { return (c >> (8 * k)) & 255u; }

// 8-bit channels -> RGB565, and back with the usual bit replication
__device__ static unsigned to565(const int *c)
{
    unsigned r = (c[0] * 31 + 127) / 255, g = (c[1] * 63 + 127) / 255,
             b = (c[2] * 31 + 127) / 255;
    return (r << 11) | (g << 5) | b;
}

__device__ static void from565(unsigned v, int *c)
{
    unsigned r = (v >> 11) & 31, g = (v >> 5) & 63, b = v & 31;
    c[0] = (int)((r << 3) | (r >> 2));
    c[1] = (int)((g << 2) | (g >> 4));
    c[2] = (int)((b << 3) | (b >> 2));
}

// palette entry k of endpoints e0, e1 (expanded RGB)
__device__ static void palette(const int *e0, const int *e1, int k, int *p)
{
    for (int j = 0; j < 3; j++)
        p[j] = k == 0 ? e0[j] : k == 1 ? e1[j]
             : k == 2 ? (2 * e0[j] + e1[j]) / 3 : (e0[j] + 2 * e1[j]) / 3;
}

__device__ static int dist2(unsigned px, const int *p)
{
    int d0 = (int)chan(px, 0) - p[0], d1 = (int)chan(px, 1) - p[1], d2 = (int)chan(px, 2) - p[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

// candidate pair cand of bounding box lo..hi, as RGB565 values
__device__ static void candidate(const int *lo, const int *hi, int cand, unsigned *v0,
                                 unsigned *v1)
{
    int a = cand & 3, b = cand >> 2, c0[3], c1[3];
    for (int j = 0; j < 3; j++) {
        c0[j] = hi[j] - (hi[j] - lo[j]) * a / 16;
        c1[j] = lo[j] + (hi[j] - lo[j]) * b / 16;
    }
    *v0 = to565(c0);
    *v1 = to565(c1);
}

extern "C" __global__ void dxt1_compress(const unsigned *img, int w, unsigned *out)
{
    __shared__ unsigned pix[THREADS];
    __shared__ unsigned err[THREADS];
    __shared__ unsigned idx[THREADS];

    int t = threadIdx.x, g = t & ~15, i = t & 15;
    int blk = blockIdx.x * (THREADS / 16) + t / 16;   // pixel block, row-major
    int bw = w / 4;
    int x = (blk % bw) * 4 + (i & 3), y = (blk / bw) * 4 + (i >> 2);
    pix[t] = img[y * w + x];
    __syncthreads();

    // bounding box of the block (every thread of the group computes it)
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 3; j++) {
            int c = (int)chan(pix[g + k], j);
            lo[j] = min(lo[j], c);
            hi[j] = max(hi[j], c);
        }

    // score candidate i
    unsigned v0, v1;
    candidate(lo, hi, i, &v0, &v1);
    int e0[3], e1[3], pal[4][3];
    from565(v0, e0);
    from565(v1, e1);
    for (int k = 0; k < 4; k++)
        palette(e0, e1, k, pal[k]);
    unsigned total = 0;
    for (int q = 0; q < 16; q++) {
        int best = dist2(pix[g + q], pal[0]);
        for (int k = 1; k < 4; k++)
            best = min(best, dist2(pix[g + q], pal[k]));
        total += (unsigned)best;
    }
    err[t] = total;
    __syncthreads();

    // best candidate of the group, ties to the lower one
    int bc = 0;
    for (int k = 1; k < 16; k++)
        if (err[g + k] < err[g + bc])
            bc = k;
    candidate(lo, hi, bc, &v0, &v1);
    if (v0 < v1) {   // 4-colour mode needs color0 > color1
        unsigned s = v0;
        v0 = v1;
        v1 = s;
    }
    from565(v0, e0);
    from565(v1, e1);
    unsigned sel = 0;
    if (v0 != v1) {
        int bd = 0x7fffffff;
        for (int k = 0; k < 4; k++) {
            int p[3];
            palette(e0, e1, k, p);
            int d = dist2(pix[t], p);
            if (d < bd) {
                bd = d;
                sel = (unsigned)k;
            }
        }
    }
    idx[t] = sel << (2 * i);
    __syncthreads();
    if (i == 0) {
        unsigned bits = 0;
        for (int k = 0; k < 16; k++)
            bits |= idx[g + k];
        out[2 * blk] = v0 | (v1 << 16);
        out[2 * blk + 1] = bits;
    }
}
