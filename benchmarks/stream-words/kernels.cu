// stream-words: the thesis's memory benchmark stream_x_words (§5.3.2).  Each
// thread computes its addresses (a short compute phase), loads X words, then
// stores them to the output (the memory phase).  Word k of thread t lives at
// k * nthreads + t, so every load and store of a warp is coalesced.  X is a
// compile-time constant so all X loads are issued before the first store;
// one kernel per X.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

template <int X>
__device__ __forceinline__ void stream_body(const unsigned *in, unsigned *out,
                                            unsigned nthreads)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads)
        return;
    unsigned v[X];
#pragma unroll
    for (int k = 0; k < X; k++)
        v[k] = in[k * nthreads + t];
#pragma unroll
    for (int k = 0; k < X; k++)
        out[k * nthreads + t] = v[k];
}

extern "C" __global__ void stream_1_words(const unsigned *in, unsigned *out,
                                          unsigned nthreads)
{
    stream_body<1>(in, out, nthreads);
}

extern "C" __global__ void stream_2_words(const unsigned *in, unsigned *out,
                                          unsigned nthreads)
{
    stream_body<2>(in, out, nthreads);
}

extern "C" __global__ void stream_3_words(const unsigned *in, unsigned *out,
                                          unsigned nthreads)
{
    stream_body<3>(in, out, nthreads);
}

extern "C" __global__ void stream_4_words(const unsigned *in, unsigned *out,
                                          unsigned nthreads)
{
    stream_body<4>(in, out, nthreads);
}
