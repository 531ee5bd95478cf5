// mergesort: sort (key, value) pairs of unsigned ints by key, then value
// (values are the original indices, so the order is total and equals a
// stable sort by key).  Pairs are compared as the 64-bit number
// key << 32 | value.  Written for ptxemu.
//   sort_block:      each CTA (512 threads) bitonic-sorts 1024 pairs in
//                    shared memory -> sorted runs of 1024.
//   merge_partition: merge-path split: for every 512-element output tile of
//                    a pass (runs of `width` merged pairwise into runs of
//                    2*width) a binary search finds how many elements of
//                    the tile's left run precede the tile.
//   merge_tile:      one CTA (256 threads) per tile loads the tile's slices
//                    of both runs into shared memory; every element finds
//                    its output slot from its rank in its own slice plus a
//                    binary search of the other slice.
// n must be a multiple of 1024 (the host pads with maximal pairs).

#define SORT_THREADS 512
#define SORT_ELEMS 1024
#define MERGE_TILE 512
#define MERGE_THREADS 256

typedef unsigned long long u64;

__device__ __forceinline__ u64 ms_pack(unsigned k, unsigned v)
{
    return ((u64)k << 32) | v;
}

extern "C" __global__ void sort_block(unsigned *keys, unsigned *vals)
{
    __shared__ u64 s[SORT_ELEMS];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SORT_ELEMS;

    s[t] = ms_pack(keys[base + t], vals[base + t]);
    s[t + SORT_THREADS] = ms_pack(keys[base + t + SORT_THREADS],
                                  vals[base + t + SORT_THREADS]);
    for (unsigned size = 2; size <= SORT_ELEMS; size <<= 1) {
        for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * t - (t & (stride - 1));
            bool descending = (pos & size) != 0;
            u64 a = s[pos], b = s[pos + stride];
            if ((a > b) != descending) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    keys[base + t] = (unsigned)(s[t] >> 32);
    vals[base + t] = (unsigned)s[t];
    keys[base + t + SORT_THREADS] = (unsigned)(s[t + SORT_THREADS] >> 32);
    vals[base + t + SORT_THREADS] = (unsigned)s[t + SORT_THREADS];
}

// The two runs merged into output position p: A = [a_beg, a_beg + a_len),
// B = [a_beg + a_len, ... + b_len); start = a_beg.
__device__ __forceinline__ void ms_runs(unsigned p, unsigned n, unsigned width,
                                        unsigned *start, unsigned *a_len,
                                        unsigned *b_len)
{
    unsigned st = p / (2 * width) * (2 * width);
    unsigned al = min(width, n - st);
    unsigned b_beg = st + al;
    *start = st;
    *a_len = al;
    *b_len = b_beg < n ? min(width, n - b_beg) : 0;
}

extern "C" __global__ void merge_partition(unsigned *splits, const unsigned *keys,
                                           const unsigned *vals, unsigned n,
                                           unsigned width, unsigned tiles)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= tiles)
        return;
    unsigned start, a_len, b_len;
    const unsigned p = g * MERGE_TILE;
    ms_runs(p, n, width, &start, &a_len, &b_len);
    const unsigned *ak = keys + start, *av = vals + start;
    const unsigned *bk = ak + a_len, *bv = av + a_len;
    const unsigned d = p - start;

    unsigned lo = d > b_len ? d - b_len : 0, hi = min(d, a_len);
    while (lo < hi) {
        unsigned mid = (lo + hi) >> 1;
        if (ms_pack(ak[mid], av[mid]) < ms_pack(bk[d - mid - 1], bv[d - mid - 1]))
            lo = mid + 1;
        else
            hi = mid;
    }
    splits[g] = lo;
}

extern "C" __global__ void merge_tile(unsigned *keys_out, unsigned *vals_out,
                                      const unsigned *keys, const unsigned *vals,
                                      const unsigned *splits, unsigned n,
                                      unsigned width)
{
    __shared__ u64 s[MERGE_TILE];
    const unsigned g = blockIdx.x, t = threadIdx.x;
    const unsigned p = g * MERGE_TILE;
    unsigned start, a_len, b_len;
    ms_runs(p, n, width, &start, &a_len, &b_len);
    const unsigned d0 = p - start, d1 = d0 + MERGE_TILE;
    const unsigned a0 = splits[g];
    const unsigned a1 = d1 == a_len + b_len ? a_len : splits[g + 1];
    const unsigned b0 = d0 - a0;
    const unsigned la = a1 - a0; // elements from A in this tile; the rest from B
    const unsigned *ak = keys + start, *av = vals + start;
    const unsigned *bk = ak + a_len, *bv = av + a_len;

    for (unsigned e = t; e < MERGE_TILE; e += MERGE_THREADS)
        s[e] = e < la ? ms_pack(ak[a0 + e], av[a0 + e])
                      : ms_pack(bk[b0 + e - la], bv[b0 + e - la]);
    __syncthreads();

    for (unsigned e = t; e < MERGE_TILE; e += MERGE_THREADS) {
        u64 x = s[e];
        unsigned lo, hi, own;
        if (e < la) { // rank among B's slice: elements smaller than x
            lo = la;
            hi = MERGE_TILE;
            own = e;
        } else {      // rank among A's slice
            lo = 0;
            hi = la;
            own = e - la;
        }
        const unsigned first = lo;
        while (lo < hi) {
            unsigned mid = (lo + hi) >> 1;
            if (s[mid] < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        unsigned pos = p + own + (lo - first);
        keys_out[pos] = (unsigned)(x >> 32);
        vals_out[pos] = (unsigned)x;
    }
}
