/* montecarlo/driver.c — Monte Carlo pricing of European call options.
 *
 * Host flow (SDK MonteCarlo, several CTAs per option): generate options
 * (price 5..50, strike 10..25, 1..5 years; r = 6%, sigma = 10%), launch
 * mc_paths on a (chunks, options) grid of 256 threads, then mc_finalize
 * (one thread per option) which combines the per-chunk partial sums, copy
 * prices and 95% confidence widths back.
 *
 * The generator is counter-based (Philox-2x32-10 on (pair, option) with the
 * seed as key), so the reference draws exactly the same uniforms and then
 * computes every path in double precision.
 *
 * Tolerances.  Price: |gpu - ref| <= 1e-4 |ref| + 5e-4.  Per path the device
 * uses logf (1 ulp), sqrtf (exact rounding), sincosf (1-2 ulp) and expf
 * (2 ulp; CUDA C Programming Guide, single-precision math functions), so
 * the exponent (|arg| < 2) errs by < 1e-6 and S_T by < 2e-6 relative; with
 * S_T mostly below 100 the payoff (continuous in S_T) errs by < 2e-4
 * absolute, and their mean by less.  Float accumulation (a sequential run of
 * <= 2 x 8 payoffs per thread, then log2(256 x chunks) tree/sequential
 * levels) adds < ~30 eps ~ 2e-6 relative.  So 5e-4 absolute + 1e-4 relative
 * is a comfortable (>= 5x) margin; a lost chunk or wrong option moves a
 * price by percent.  Confidence width: variance by E[p^2] - E[p]^2 in float
 * loses up to ~2 digits to cancellation, so 2e-3 relative + 1e-4 absolute. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MC_THREADS 256 /* must match kernels.cu */
#define MC_FIN_THREADS 128
#define MC_RISKFREE 0.06f
#define MC_VOLATILITY 0.10f

typedef struct mc_size {
    int opt_n, paths, chunks; /* paths per option; CTAs per option */
} mc_size;

static mc_size mc_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (mc_size){8, 4096, 2};
    case BENCH_SMALL:
        return (mc_size){64, 16384, 4};
    case BENCH_CLASO: /* CLASO Table 2 "MC": 2 kernels, 384 CTAs: (4, 96) + 1 */
        return (mc_size){96, 16384, 4};
    default: /* thesis Table 3.3 "MCO": 2048 CTAs of 256 (256 options x 8) */
        return (mc_size){256, 32768, 8};
    }
}

static void mc_philox(uint32_t c0, uint32_t c1, uint32_t key, uint32_t *o0, uint32_t *o1)
{
    for (int round = 0; round < 10; round++) {
        uint64_t prod = (uint64_t)0xD256D193u * c0;
        uint32_t hi = (uint32_t)(prod >> 32), lo = (uint32_t)prod;
        c0 = hi ^ key ^ c1;
        c1 = lo;
        key += 0x9E3779B9u;
    }
    *o0 = c0;
    *o1 = c1;
}

static void mc_reference(double *result, double *conf, const float *price,
                         const float *strike, const float *years,
                         const mc_size *sz, uint32_t seed)
{
    const double r = MC_RISKFREE, v = MC_VOLATILITY;
    for (int o = 0; o < sz->opt_n; o++) {
        double t = years[o];
        double mu_t = (r - 0.5 * v * v) * t, sig_t = v * sqrt(t);
        double sum = 0.0, sum2 = 0.0;
        for (uint32_t q = 0; q < (uint32_t)sz->paths / 2; q++) {
            uint32_t w0, w1;
            mc_philox(q, (uint32_t)o, seed, &w0, &w1);
            float u1 = (float)((w0 >> 8) + 1) * (1.0f / 16777216.0f);
            float u2 = (float)(w1 >> 8) * (1.0f / 16777216.0f);
            double radius = sqrt(-2.0 * log((double)u1));
            double theta = (double)(6.28318531f * u2);
            double z[2] = {radius * cos(theta), radius * sin(theta)};
            for (int i = 0; i < 2; i++) {
                double st = price[o] * exp(mu_t + sig_t * z[i]);
                double payoff = st > strike[o] ? st - strike[o] : 0.0;
                sum += payoff;
                sum2 += payoff * payoff;
            }
        }
        double n = sz->paths, disc = exp(-r * t), mean = sum / n;
        double var = sum2 / n - mean * mean;
        var = (var > 0.0 ? var : 0.0) * (n / (n - 1.0));
        result[o] = disc * mean;
        conf[o] = 1.96 * disc * sqrt(var / n);
    }
}

static bench_outcome mc_device(bench_env *env, const mc_size *sz, uint32_t seed,
                               const float *price, const float *strike,
                               const float *years, float *result, float *conf)
{
    size_t opt_bytes = (size_t)sz->opt_n * sizeof(float);
    size_t part_bytes = opt_bytes * (size_t)sz->chunks;
    ptxemu_dptr d_price, d_strike, d_years, d_psum, d_psum2, d_result, d_conf;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_price, opt_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_strike, opt_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_years, opt_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_psum, part_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_psum2, part_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_result, opt_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_conf, opt_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_price, price, opt_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_strike, strike, opt_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_years, years, opt_bytes));

    float r = MC_RISKFREE, v = MC_VOLATILITY;
    int pairs_per_thread = sz->paths / 2 / (sz->chunks * MC_THREADS);
    void *pargs[] = {&d_psum, &d_psum2, &d_price, &d_strike, &d_years,
                     &r, &v, &pairs_per_thread, &seed};
    BENCH_TRY(env, ptxemu_launch(env->mod, "mc_paths",
                                 (ptxemu_dim3){(unsigned)sz->chunks, (unsigned)sz->opt_n, 1},
                                 (ptxemu_dim3){MC_THREADS, 1, 1}, 0, pargs));
    int chunks = sz->chunks, paths = sz->paths, opt_n = sz->opt_n;
    void *fargs[] = {&d_result, &d_conf, &d_psum, &d_psum2, &d_years, &r,
                     &chunks, &paths, &opt_n};
    BENCH_TRY(env, ptxemu_launch(env->mod, "mc_finalize",
                                 (ptxemu_dim3){(unsigned)((opt_n + MC_FIN_THREADS - 1) / MC_FIN_THREADS), 1, 1},
                                 (ptxemu_dim3){MC_FIN_THREADS, 1, 1}, 0, fargs));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, result, d_result, opt_bytes));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, conf, d_conf, opt_bytes));
    ptxemu_dptr all[] = {d_price, d_strike, d_years, d_psum, d_psum2, d_result, d_conf};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[i]));
    return BENCH_PASS;
}

static bench_outcome mc_run(bench_env *env)
{
    mc_size sz = mc_pick(env->size);
    size_t n = (size_t)sz.opt_n;
    float *price = malloc(n * sizeof(float)), *strike = malloc(n * sizeof(float));
    float *years = malloc(n * sizeof(float)), *result = malloc(n * sizeof(float));
    float *conf = malloc(n * sizeof(float));
    double *ref = malloc(n * sizeof(double)), *ref_conf = malloc(n * sizeof(double));
    bench_outcome rc = BENCH_ERROR;
    if (!price || !strike || !years || !result || !conf || !ref || !ref_conf) {
        snprintf(env->msg, sizeof env->msg, "montecarlo: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (size_t i = 0; i < n; i++) {
        price[i] = 5.0f + 45.0f * bench_rng_float(&rng);
        strike[i] = 10.0f + 15.0f * bench_rng_float(&rng);
        years[i] = 1.0f + 4.0f * bench_rng_float(&rng);
    }
    uint32_t seed = (uint32_t)bench_rng_next(&rng);

    rc = mc_device(env, &sz, seed, price, strike, years, result, conf);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    mc_reference(ref, ref_conf, price, strike, years, &sz, seed);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n - 1] += 0.01;

    for (size_t i = 0; i < n; i++) {
        bool price_ok = fabs((double)result[i] - ref[i]) <= 1e-4 * fabs(ref[i]) + 5e-4;
        bool conf_ok = fabs((double)conf[i] - ref_conf[i]) <= 2e-3 * fabs(ref_conf[i]) + 1e-4;
        if (!price_ok || !conf_ok) {
            snprintf(env->msg, sizeof env->msg,
                     "montecarlo: option %zu: price %.7g +- %.5g, reference %.7g +- %.5g",
                     i, (double)result[i], (double)conf[i], ref[i], ref_conf[i]);
            rc = BENCH_FAIL;
            break;
        }
    }
done:
    free(price);
    free(strike);
    free(years);
    free(result);
    free(conf);
    free(ref);
    free(ref_conf);
    return rc;
}

const bench_def bench_montecarlo = {
    "montecarlo", "Monte Carlo European option pricing (Philox + Box-Muller)",
    "montecarlo/kernels.ptx", mc_run};
