// Exercises: shared-memory tree reduction, __syncthreads, __shfl_down_sync warp reduction, atomicAdd.
#define BLOCK 256

extern "C" __global__ void block_reduce(const int *in, int *out, int n)
{
    __shared__ int buf[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * BLOCK + tid;

    buf[tid] = (i < (unsigned)n) ? in[i] : 0;
    __syncthreads();

    for (unsigned s = BLOCK / 2; s >= 32; s >>= 1) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }

    if (tid < 32) {
        int v = buf[tid];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0)
            atomicAdd(out, v);
    }
}
