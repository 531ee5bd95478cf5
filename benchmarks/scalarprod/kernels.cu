// scalarprod: dot products of many vector pairs, one CTA per vector pair
// (grid-strided over the pairs), a per-thread strided partial sum and a
// shared-memory tree reduction.  Written for ptxemu; CUDA-SDK style.
//
// Order of operations (the CPU reference in driver.c repeats it exactly):
//   thread t: s_t = fma(a[i], b[i], s_t) for i = t, t + 256, t + 512, ...
//   tree:     for stride 128, 64, ..., 1: part[t] += part[t + stride]

#define SP_THREADS 256

extern "C" __global__ void scalar_prod(float *out, const float *a,
                                       const float *b, int vec_n, int elem_n)
{
    __shared__ float part[SP_THREADS];
    const int t = threadIdx.x;

    for (int v = blockIdx.x; v < vec_n; v += gridDim.x) {
        const float *va = a + (size_t)v * elem_n;
        const float *vb = b + (size_t)v * elem_n;
        float sum = 0.0f;
        for (int i = t; i < elem_n; i += SP_THREADS)
            sum = fmaf(va[i], vb[i], sum);
        part[t] = sum;
        __syncthreads();
        for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1) {
            if (t < stride)
                part[t] += part[t + stride];
            __syncthreads();
        }
        if (t == 0)
            out[v] = part[0];
        __syncthreads(); // part[0] is read before the next pair overwrites it
    }
}
