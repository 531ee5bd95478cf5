// reduction: sum of unsigned 32-bit integers (mod 2^32), multi-pass.
// Each pass: every thread adds two elements per grid stride, the CTA reduces
// its partial sums in dynamic shared memory down to one warp, the last warp
// finishes with __shfl_down_sync, and thread 0 writes the CTA's partial.
// The host relaunches on the partials until one value remains.
// blockDim.x must be a power of two >= 64; dynamic shared memory holds
// blockDim.x words.  Written for ptxemu.

extern "C" __global__ void reduce_sum(unsigned *out, const unsigned *in,
                                      unsigned n)
{
    extern __shared__ unsigned sdata[];
    const unsigned t = threadIdx.x;
    const unsigned grid_size = blockDim.x * 2 * gridDim.x;

    unsigned sum = 0;
    for (unsigned i = blockIdx.x * blockDim.x * 2 + t; i < n; i += grid_size) {
        sum += in[i];
        if (i + blockDim.x < n)
            sum += in[i + blockDim.x];
    }
    sdata[t] = sum;
    __syncthreads();

    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s)
            sdata[t] = sum = sum + sdata[t + s];
        __syncthreads();
    }
    if (t < 32) {
        sum += sdata[t + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (t == 0)
            out[blockIdx.x] = sum;
    }
}
