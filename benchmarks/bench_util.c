/* benchmarks/bench_util.c — small helpers shared by the benchmark drivers. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64: tiny, seedable, identical on every platform. */
uint64_t bench_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

float bench_rng_float(uint64_t *state)
{
    return (float)(bench_rng_next(state) >> 40) * (1.0f / 16777216.0f);
}

bench_outcome bench_api_error(bench_env *env, const char *what, ptxemu_status s)
{
    snprintf(env->msg, sizeof env->msg, "%s failed: %s: %s", what,
             ptxemu_status_string(s), ptxemu_last_error(env->ctx));
    return BENCH_ERROR;
}

bench_outcome bench_separable_filter(bench_env *env, const char *name, int w, int h, int ntaps,
                                     bench_filter_device device,
                                     bench_filter_reference reference)
{
    size_t n = (size_t)w * (size_t)h;
    float *img = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float)), *tmp = malloc(n * sizeof(float));
    float *taps = malloc((size_t)ntaps * sizeof(float));
    bench_outcome rc = BENCH_ERROR;
    if (!img || !out || !ref || !tmp || !taps) {
        snprintf(env->msg, sizeof env->msg, "%s: out of host memory", name);
        goto done;
    }
    uint64_t rng = env->seed;
    for (int i = 0; i < ntaps; i++)
        taps[i] = bench_rng_float(&rng);
    for (size_t i = 0; i < n; i++)
        img[i] = bench_rng_float(&rng);

    rc = device(env, taps, img, out, w, h);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    reference(ref, tmp, img, taps, w, h);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[7] += 0.5f;

    for (size_t i = 0; i < n; i++) {
        double diff = fabs((double)out[i] - (double)ref[i]);
        if (!(diff <= 1e-6 + 1e-6 * fabs((double)ref[i]))) {
            snprintf(env->msg, sizeof env->msg, "%s: (%zu, %zu) = %.9g, reference %.9g", name,
                     i % (size_t)w, i / (size_t)w, (double)out[i], (double)ref[i]);
            rc = BENCH_FAIL;
            break;
        }
    }
done:
    free(img);
    free(out);
    free(ref);
    free(tmp);
    free(taps);
    return rc;
}
