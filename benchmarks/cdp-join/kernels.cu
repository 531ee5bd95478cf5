// cdp-join: relational equi-join S |><| R with device-side launches, in the
// style of the LaPerm seed's join.  R is sorted by key (the build side's
// index).  join_count finds every S tuple's matching R range by binary
// search; the host turns the counts into output offsets (exclusive scan);
// join_probe writes the matching (S payload, R payload) pairs, handing a
// tuple with more than `thresh` matches to a child TB (one child grid per
// parent TB, a TB per heavy tuple, gathered in thread order).  Every output
// slot has one writer, so memory after every launch is schedule-independent.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh, which compiles sources
// marked "ptxemu: -rdc=true" with -rdc=true (device-side launches need it).
// ptxemu: -rdc=true

#define PB 64
#define CB 64

extern "C" __global__ void join_count(const int *rkey, int nr, const int *skey, int ns,
                                      int *first, int *count)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= ns)
        return;
    int key = skey[s], lo = 0, hi = nr;
    while (lo < hi) { // first R row with key >= skey[s]
        int mid = (lo + hi) / 2;
        if (rkey[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    int b = lo;
    hi = nr;
    while (lo < hi) { // first R row with key > skey[s]
        int mid = (lo + hi) / 2;
        if (rkey[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    count[s] = lo - b;
    first[s] = lo > b ? b : nr;
}

__device__ __forceinline__ void join_emit(const int *rkey, const int *rpay, int key, int spay,
                                          int r, int2 *out)
{
    *out = rkey[r] == key ? make_int2(spay, rpay[r]) : make_int2(-1, -1);
}

extern "C" __global__ void join_child(const int *rkey, const int *rpay, const int *skey,
                                      const int *spay, const int *first, const int *count,
                                      const int *off, const int *heavy, int2 *out)
{
    int s = heavy[blockIdx.x];
    int f = first[s], c = count[s], o = off[s], key = skey[s], p = spay[s];
    for (int j = threadIdx.x; j < c; j += blockDim.x)
        join_emit(rkey, rpay, key, p, f + j, &out[o + j]);
}

extern "C" __global__ void join_probe(const int *rkey, const int *rpay, const int *skey,
                                      const int *spay, const int *first, const int *count,
                                      const int *off, int *heavy, int2 *out, int ns,
                                      int thresh)
{
    __shared__ unsigned char is_heavy[PB];
    int s = blockIdx.x * PB + threadIdx.x;
    unsigned char h = 0;
    if (s < ns) {
        int c = count[s];
        if (c > thresh) {
            h = 1;
        } else {
            int f = first[s], o = off[s], key = skey[s], p = spay[s];
            for (int j = 0; j < c; j++)
                join_emit(rkey, rpay, key, p, f + j, &out[o + j]);
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
            join_child<<<k, CB>>>(rkey, rpay, skey, spay, first, count, off, list, out);
    }
}
