// fastwalsh: dyadic (XOR) convolution through the fast Walsh-Hadamard
// transform: out = WHT(WHT(data) .* WHT(kernel)) / N.  Written for ptxemu.
//
// A length-N WHT is log2(N) butterfly stages (a, b) -> (a + b, a - b) with
// strides 1, 2, 4, ..., N/2.  Strides below 2048 run in shared memory, one
// CTA per 2048-element chunk (fwt_shared); larger strides run from global
// memory, two stages per launch (fwt_radix4) and a last single stage when
// the count is odd (fwt_radix2).  Every path applies the strides in
// increasing order, so the result equals the plain sequential radix-2
// algorithm bit for bit (driver.c's reference).

#define FWT_CHUNK 2048   // elements per CTA of fwt_shared
#define FWT_THREADS 512  // threads per CTA of fwt_shared (FWT_CHUNK / 4)

extern "C" __global__ void fwt_shared(float *data)
{
    __shared__ float s[FWT_CHUNK];
    float *base = data + (size_t)blockIdx.x * FWT_CHUNK;
    const int t = threadIdx.x;

    for (int i = t; i < FWT_CHUNK; i += FWT_THREADS)
        s[i] = base[i];
    __syncthreads();

    // Strides (1,2), (4,8), ..., (256,512): four elements per thread.
    for (int stride = 1; stride < FWT_CHUNK / 2; stride <<= 2) {
        int lo = t & (stride - 1);
        int i0 = ((t - lo) << 2) + lo;
        float a0 = s[i0], a1 = s[i0 + stride];
        float a2 = s[i0 + 2 * stride], a3 = s[i0 + 3 * stride];
        float b0 = a0 + a1, b1 = a0 - a1, b2 = a2 + a3, b3 = a2 - a3;
        s[i0] = b0 + b2;
        s[i0 + stride] = b1 + b3;
        s[i0 + 2 * stride] = b0 - b2;
        s[i0 + 3 * stride] = b1 - b3;
        __syncthreads();
    }
    // Stride 1024: two pairs per thread.
    for (int p = t; p < FWT_CHUNK / 2; p += FWT_THREADS) {
        float a = s[p], b = s[p + FWT_CHUNK / 2];
        s[p] = a + b;
        s[p + FWT_CHUNK / 2] = a - b;
    }
    __syncthreads();

    for (int i = t; i < FWT_CHUNK; i += FWT_THREADS)
        base[i] = s[i];
}

// Stages `stride` and `2 * stride` over the whole array; quarter_n = N / 4.
extern "C" __global__ void fwt_radix4(float *data, int stride, int quarter_n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= quarter_n)
        return;
    int lo = t & (stride - 1);
    int i0 = ((t - lo) << 2) + lo;
    float a0 = data[i0], a1 = data[i0 + stride];
    float a2 = data[i0 + 2 * stride], a3 = data[i0 + 3 * stride];
    float b0 = a0 + a1, b1 = a0 - a1, b2 = a2 + a3, b3 = a2 - a3;
    data[i0] = b0 + b2;
    data[i0 + stride] = b1 + b3;
    data[i0 + 2 * stride] = b0 - b2;
    data[i0 + 3 * stride] = b1 - b3;
}

// One stage `stride`; half_n = N / 2.
extern "C" __global__ void fwt_radix2(float *data, int stride, int half_n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half_n)
        return;
    int lo = t & (stride - 1);
    int i = ((t - lo) << 1) + lo;
    float a = data[i], b = data[i + stride];
    data[i] = a + b;
    data[i + stride] = a - b;
}

// Pointwise product of the two spectra, scaled by 1/N (a power of two).
extern "C" __global__ void fwt_modulate(float *data, const float *kernel,
                                        float inv_n, int n)
{
    const int step = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        data[i] = data[i] * kernel[i] * inv_n;
}
