// montecarlo: European call prices by Monte Carlo simulation of geometric
// Brownian motion.  Written for ptxemu.
//   mc_paths: grid (chunks, options), 256 threads.  Path pair q of option o
//       draws two 32-bit words from a counter-based generator (Philox-2x32,
//       10 rounds, counter (q, o), key = seed), turns them into two uniforms
//       u1 in (0,1], u2 in [0,1) and, by Box-Muller, into two normals, each
//       giving one terminal price S_T = S exp(mu T + sigma sqrt(T) z) and
//       payoff max(S_T - X, 0).  Each thread accumulates the payoff sum and
//       sum of squares of its pairs; the CTA reduces them in shared memory
//       and writes one partial per (option, chunk).
//   mc_finalize: one thread per option adds its chunks' partials in chunk
//       order, discounts the mean and computes the 95% confidence width.
// Results depend only on (seed, option, pair), never on scheduling.

#define MC_THREADS 256

__device__ __forceinline__ uint2 mc_philox(unsigned c0, unsigned c1, unsigned key)
{
#pragma unroll
    for (int round = 0; round < 10; round++) {
        unsigned hi = __umulhi(0xD256D193u, c0);
        unsigned lo = 0xD256D193u * c0;
        c0 = hi ^ key ^ c1;
        c1 = lo;
        key += 0x9E3779B9u;
    }
    return make_uint2(c0, c1);
}

extern "C" __global__ void mc_paths(float *psum, float *psum2, const float *price,
                                    const float *strike, const float *years,
                                    float riskfree, float volatility,
                                    int pairs_per_thread, unsigned seed)
{
    __shared__ float s_sum[MC_THREADS];
    __shared__ float s_sum2[MC_THREADS];
    const int t = threadIdx.x, chunk = blockIdx.x, opt = blockIdx.y;
    const float s0 = price[opt], x = strike[opt], tt = years[opt];
    const float mu_t = (riskfree - 0.5f * volatility * volatility) * tt;
    const float sig_t = volatility * sqrtf(tt);

    float sum = 0.0f, sum2 = 0.0f;
    const unsigned first = (unsigned)chunk * MC_THREADS * pairs_per_thread;
    for (int k = 0; k < pairs_per_thread; k++) {
        unsigned q = first + (unsigned)k * MC_THREADS + t;
        uint2 r = mc_philox(q, (unsigned)opt, seed);
        float u1 = (float)((r.x >> 8) + 1) * (1.0f / 16777216.0f);
        float u2 = (float)(r.y >> 8) * (1.0f / 16777216.0f);
        float radius = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincosf(6.28318531f * u2, &sn, &cs);
        float z[2] = {radius * cs, radius * sn};
#pragma unroll
        for (int i = 0; i < 2; i++) {
            float st = s0 * expf(mu_t + sig_t * z[i]);
            float payoff = fmaxf(st - x, 0.0f);
            sum += payoff;
            sum2 += payoff * payoff;
        }
    }
    s_sum[t] = sum;
    s_sum2[t] = sum2;
    for (int stride = MC_THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride) {
            s_sum[t] += s_sum[t + stride];
            s_sum2[t] += s_sum2[t + stride];
        }
    }
    if (t == 0) {
        psum[opt * gridDim.x + chunk] = s_sum[0];
        psum2[opt * gridDim.x + chunk] = s_sum2[0];
    }
}

extern "C" __global__ void mc_finalize(float *result, float *confidence,
                                       const float *psum, const float *psum2,
                                       const float *years, float riskfree,
                                       int chunks, int paths, int opt_n)
{
    const int opt = blockIdx.x * blockDim.x + threadIdx.x;
    if (opt >= opt_n)
        return;
    float sum = 0.0f, sum2 = 0.0f;
    for (int c = 0; c < chunks; c++) {
        sum += psum[opt * chunks + c];
        sum2 += psum2[opt * chunks + c];
    }
    const float n = (float)paths;
    const float disc = expf(-riskfree * years[opt]);
    const float mean = sum / n;
    const float var = fmaxf(sum2 / n - mean * mean, 0.0f) * (n / (n - 1.0f));
    result[opt] = disc * mean;
    confidence[opt] = 1.96f * disc * sqrtf(var / n);
}
