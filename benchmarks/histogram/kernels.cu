// histogram: 256-bin byte histogram.  Written for ptxemu.
//   histogram256_partial: each CTA (6 warps) keeps one sub-histogram per warp
//       in shared memory, grid-strides over the data as 32-bit words and
//       counts their four bytes with shared-memory atomics, then writes the
//       sum of its warps' sub-histograms as the CTA's partial histogram.
//   histogram256_merge: one CTA per bin sums that bin over all partials
//       (strided loads + shared-memory tree).
// Integer atomics: the final counts do not depend on their order.

#define HIST_BINS 256
#define HIST_THREADS 192
#define HIST_WARPS (HIST_THREADS / 32)
#define MERGE_THREADS 256

extern "C" __global__ void histogram256_partial(unsigned *partial,
                                                const unsigned *data,
                                                unsigned word_n)
{
    __shared__ unsigned hist[HIST_WARPS * HIST_BINS];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < HIST_WARPS * HIST_BINS; i += HIST_THREADS)
        hist[i] = 0;
    __syncthreads();

    unsigned *mine = hist + (t / 32) * HIST_BINS;
    for (unsigned i = blockIdx.x * HIST_THREADS + t; i < word_n;
         i += HIST_THREADS * gridDim.x) {
        unsigned w = data[i];
        atomicAdd(mine + (w & 0xffu), 1u);
        atomicAdd(mine + ((w >> 8) & 0xffu), 1u);
        atomicAdd(mine + ((w >> 16) & 0xffu), 1u);
        atomicAdd(mine + (w >> 24), 1u);
    }
    __syncthreads();

    for (unsigned bin = t; bin < HIST_BINS; bin += HIST_THREADS) {
        unsigned sum = 0;
        for (int w = 0; w < HIST_WARPS; w++)
            sum += hist[w * HIST_BINS + bin];
        partial[blockIdx.x * HIST_BINS + bin] = sum;
    }
}

extern "C" __global__ void histogram256_merge(unsigned *hist,
                                              const unsigned *partial,
                                              unsigned partial_n)
{
    __shared__ unsigned s[MERGE_THREADS];
    const unsigned bin = blockIdx.x, t = threadIdx.x;
    unsigned sum = 0;
    for (unsigned p = t; p < partial_n; p += MERGE_THREADS)
        sum += partial[p * HIST_BINS + bin];
    s[t] = sum;
    for (unsigned stride = MERGE_THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride)
            s[t] += s[t + stride];
    }
    if (t == 0)
        hist[bin] = s[0];
}
