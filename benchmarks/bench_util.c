/* benchmarks/bench_util.c — small helpers shared by the benchmark drivers. */
#include "benchmarks/bench.h"

#include <stdio.h>
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
