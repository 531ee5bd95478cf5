// scan: exclusive prefix sum of unsigned 32-bit integers (mod 2^32) over
// arrays of any length.  Written for ptxemu.
//   scan_block: each CTA (256 threads) scans 512 elements in shared memory
//               with the work-efficient up-sweep / down-sweep (Blelloch)
//               algorithm, padding one word per 32 against bank conflicts,
//               and stores its total in block_sums[blockIdx.x] (when
//               block_sums is not null).  Elements past n count as 0.
//               out may equal in (each CTA reads its slice before writing).
//   scan_add:   adds the scanned block sums back: CTA b adds offsets[b] to
//               its 512 elements.
// The host scans the block sums with the same kernels, recursively.

#define SCAN_THREADS 256
#define SCAN_ELEMS 512
#define PAD(i) ((i) + ((i) >> 5))

extern "C" __global__ void scan_block(unsigned *out, const unsigned *in,
                                      unsigned *block_sums, unsigned n)
{
    __shared__ unsigned s[PAD(SCAN_ELEMS)];
    const unsigned t = threadIdx.x;
    const unsigned base = blockIdx.x * SCAN_ELEMS;
    const unsigned ai = t, bi = t + SCAN_THREADS;

    s[PAD(ai)] = base + ai < n ? in[base + ai] : 0u;
    s[PAD(bi)] = base + bi < n ? in[base + bi] : 0u;

    unsigned offset = 1;
    for (unsigned d = SCAN_ELEMS >> 1; d > 0; d >>= 1) { // up-sweep
        __syncthreads();
        if (t < d) {
            unsigned a = offset * (2 * t + 1) - 1;
            unsigned b = offset * (2 * t + 2) - 1;
            s[PAD(b)] += s[PAD(a)];
        }
        offset <<= 1;
    }
    if (t == 0) {
        if (block_sums)
            block_sums[blockIdx.x] = s[PAD(SCAN_ELEMS - 1)];
        s[PAD(SCAN_ELEMS - 1)] = 0;
    }
    for (unsigned d = 1; d < SCAN_ELEMS; d <<= 1) { // down-sweep
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            unsigned a = offset * (2 * t + 1) - 1;
            unsigned b = offset * (2 * t + 2) - 1;
            unsigned x = s[PAD(a)];
            s[PAD(a)] = s[PAD(b)];
            s[PAD(b)] += x;
        }
    }
    __syncthreads();

    if (base + ai < n)
        out[base + ai] = s[PAD(ai)];
    if (base + bi < n)
        out[base + bi] = s[PAD(bi)];
}

extern "C" __global__ void scan_add(unsigned *data, const unsigned *offsets,
                                    unsigned n)
{
    __shared__ unsigned add;
    if (threadIdx.x == 0)
        add = offsets[blockIdx.x];
    __syncthreads();
    const unsigned i = blockIdx.x * SCAN_ELEMS + threadIdx.x;
    if (i < n)
        data[i] += add;
    if (i + SCAN_THREADS < n)
        data[i + SCAN_THREADS] += add;
}
