/* blackscholes/driver.c — Black-Scholes call/put prices for OPT_N options.
 *
 * Host flow: generate option data (SDK ranges: price 5..30, strike 1..100,
 * 0.25..10 years; r = 2%, sigma = 30%), copy it in, then price the options in
 * two batches (two launches of black_scholes over the two halves, as CLASO's
 * two "BS" kernels of 480 CTAs x 128), copy back, compare with a CPU
 * reference computed in double precision with the same formula.
 *
 * Tolerance: |gpu - ref| <= 2e-4 + 1e-5 |ref|.  The device works in float:
 * every product/quotient is correctly rounded, logf/expf/sqrtf are within 1-2
 * ulp (CUDA programming guide, Table of single-precision math functions; the
 * PTX uses ex2.approx.ftz and rcp.rn inside expf and the CDF).  With inputs
 * bounded by 100 the rounding of the final products/differences is at most a
 * few ulp(100) ~ 2e-5; the error of d1/d2 (~4e-7 after division by
 * sigma*sqrt(T) >= 0.15) is scaled by at most pdf(0) * strike ~ 40, another
 * ~2e-5.  So a correct float result is within ~5e-5 of the double reference;
 * 2e-4 leaves a 4x margin while a wrong option is off by far more. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BS_THREADS 128
#define BS_RISKFREE 0.02f
#define BS_VOLATILITY 0.30f

typedef struct bs_size {
    int opt_n;  /* total options; two batches of opt_n / 2 */
    int grid;   /* CTAs per launch */
} bs_size;

static bs_size bs_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (bs_size){20000, 40};
    case BENCH_SMALL:
    case BENCH_CLASO: /* CLASO Table 2 "BS": 2 kernels, 480 CTAs of 128 in all */
        return (bs_size){500000, 240};
    default: /* SDK 4M options, 480 CTAs per launch */
        return (bs_size){4000000, 480};
    }
}

static double bs_cnd(double d)
{
    const double a1 = (double)0.31938153f, a2 = (double)-0.356563782f,
                 a3 = (double)1.781477937f, a4 = (double)-1.821255978f,
                 a5 = (double)1.330274429f;
    const double rsqrt_2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + (double)0.2316419f * fabs(d));
    double poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    double c = rsqrt_2pi * exp(-0.5 * d * d) * poly;
    return d > 0.0 ? 1.0 - c : c;
}

static void bs_reference(double *call, double *put, const float *price,
                         const float *strike, const float *years, int n)
{
    const double r = BS_RISKFREE, v = BS_VOLATILITY;
    for (int i = 0; i < n; i++) {
        double s = price[i], x = strike[i], t = years[i];
        double sqrt_t = sqrt(t);
        double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
        double d2 = d1 - v * sqrt_t;
        double cnd1 = bs_cnd(d1), cnd2 = bs_cnd(d2);
        double disc = x * exp(-r * t);
        call[i] = s * cnd1 - disc * cnd2;
        put[i] = disc * (1.0 - cnd2) - s * (1.0 - cnd1);
    }
}

static bench_outcome bs_device(bench_env *env, const bs_size *sz,
                               const float *price, const float *strike,
                               const float *years, float *call, float *put)
{
    size_t bytes = (size_t)sz->opt_n * sizeof(float);
    ptxemu_dptr d_price, d_strike, d_years, d_call, d_put;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_price, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_strike, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_years, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_call, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_put, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_price, price, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_strike, strike, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_years, years, bytes));

    float r = BS_RISKFREE, v = BS_VOLATILITY;
    int half = sz->opt_n / 2;
    for (int batch = 0; batch < 2; batch++) {
        int first = batch * half;
        int n = batch == 0 ? half : sz->opt_n - half;
        ptxemu_dptr off = (ptxemu_dptr)first * sizeof(float);
        ptxemu_dptr c = d_call + off, p = d_put + off, s = d_price + off,
                    x = d_strike + off, t = d_years + off;
        void *args[] = {&c, &p, &s, &x, &t, &r, &v, &n};
        BENCH_TRY(env, ptxemu_launch(env->mod, "black_scholes",
                                     (ptxemu_dim3){(unsigned)sz->grid, 1, 1},
                                     (ptxemu_dim3){BS_THREADS, 1, 1}, 0, args));
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, call, d_call, bytes));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, put, d_put, bytes));

    BENCH_TRY(env, ptxemu_free(env->ctx, d_price));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_strike));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_years));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_call));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_put));
    return BENCH_PASS;
}

static bool bs_close(float got, double ref)
{
    return fabs((double)got - ref) <= 2e-4 + 1e-5 * fabs(ref);
}

static bench_outcome bs_run(bench_env *env)
{
    bs_size sz = bs_pick(env->size);
    size_t n = (size_t)sz.opt_n;
    float *price = malloc(n * sizeof(float));
    float *strike = malloc(n * sizeof(float));
    float *years = malloc(n * sizeof(float));
    float *call = malloc(n * sizeof(float));
    float *put = malloc(n * sizeof(float));
    double *ref_call = malloc(n * sizeof(double));
    double *ref_put = malloc(n * sizeof(double));
    bench_outcome rc = BENCH_ERROR;
    if (!price || !strike || !years || !call || !put || !ref_call || !ref_put) {
        snprintf(env->msg, sizeof env->msg, "blackscholes: out of host memory");
        goto done;
    }

    uint64_t rng = env->seed;
    for (size_t i = 0; i < n; i++) {
        price[i] = 5.0f + 25.0f * bench_rng_float(&rng);
        strike[i] = 1.0f + 99.0f * bench_rng_float(&rng);
        years[i] = 0.25f + 9.75f * bench_rng_float(&rng);
    }

    rc = bs_device(env, &sz, price, strike, years, call, put);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    bs_reference(ref_call, ref_put, price, strike, years, sz.opt_n);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref_put[n - 1] += 0.01;

    rc = BENCH_PASS;
    for (size_t i = 0; i < n; i++) {
        if (!bs_close(call[i], ref_call[i]) || !bs_close(put[i], ref_put[i])) {
            snprintf(env->msg, sizeof env->msg,
                     "blackscholes: option %zu: call %.7g put %.7g, "
                     "reference call %.7g put %.7g",
                     i, (double)call[i], (double)put[i], ref_call[i], ref_put[i]);
            rc = BENCH_FAIL;
            break;
        }
    }
done:
    free(price);
    free(strike);
    free(years);
    free(call);
    free(put);
    free(ref_call);
    free(ref_put);
    return rc;
}

const bench_def bench_blackscholes = {
    "blackscholes", "Black-Scholes European call/put pricing (two batches)",
    "blackscholes/kernels.ptx", bs_run};
