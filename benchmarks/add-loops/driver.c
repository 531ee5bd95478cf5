/* benchmarks/add-loops/driver.c — the thesis's add_x_loops compute
 * benchmark (§5.3.1): two loads, x dependent multiply-adds on each value,
 * one store.
 *
 * CTAs of 256 threads (8 warps): tiny 40, small 160, paper 640 (the thesis's
 * grid: 5 waves of 8 CTAs on each of 16 cores).  add-loops is add_20_loops
 * (Figs. 5.3-5.4); add-10-loops is the other size of Table 5.2.
 *
 * Check: the kernel uses __fmaf_rn (one rounding per iteration) and the CPU
 * reference uses C's fmaf, so a correct emulator matches bit for bit.  The
 * tolerance |got - ref| <= 1e-6 * |ref| + 1e-6 (about 8 ulps at the results'
 * magnitude, 1..20) only forgives a host libm whose fmaf is not correctly
 * rounded; a wrong operation or a lost iteration is far outside it.
 */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define AL_BLOCK 256u

static bench_outcome al_run(bench_env *env, unsigned loops)
{
    unsigned ctas = env->size == BENCH_TINY    ? 40u
                    : env->size == BENCH_SMALL ? 160u
                                               : 640u;
    unsigned n = ctas * AL_BLOCK;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    float *ref = malloc(bytes);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr da = 0, db = 0, dc = 0;
    if (!a || !b || !c || !ref) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (unsigned i = 0; i < n; i++) {
        a[i] = bench_rng_float(&rng) * 2.0f - 1.0f;
        b[i] = bench_rng_float(&rng) * 2.0f - 1.0f;
    }

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &da, bytes));
    TRY(ptxemu_malloc(env->ctx, &db, bytes));
    TRY(ptxemu_malloc(env->ctx, &dc, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, da, a, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, db, b, bytes));
    void *args[] = {&da, &db, &dc, &n, &loops};
    ptxemu_dim3 grid = {ctas, 1, 1};
    ptxemu_dim3 block = {AL_BLOCK, 1, 1};
    TRY(ptxemu_launch(env->mod, "add_loops", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, c, dc, bytes));
#undef TRY

    double t0 = bench_now();
    for (unsigned i = 0; i < n; i++) {
        float x = a[i], y = b[i];
        for (unsigned k = 0; k < loops; k++) {
            x = fmaf(x, 0.999f, 0.5f);
            y = fmaf(y, 1.001f, -0.25f);
        }
        ref[i] = x + y;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n / 2] += 0.5f;

    out = BENCH_PASS;
    for (unsigned i = 0; i < n; i++) {
        if (!(fabsf(c[i] - ref[i]) <= 1e-6f * fabsf(ref[i]) + 1e-6f)) {
            snprintf(env->msg, sizeof env->msg,
                     "c[%u] = %.9g, reference %.9g", i, (double)c[i],
                     (double)ref[i]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (da) ptxemu_free(env->ctx, da);
    if (db) ptxemu_free(env->ctx, db);
    if (dc) ptxemu_free(env->ctx, dc);
    free(a);
    free(b);
    free(c);
    free(ref);
    return out;
}

static bench_outcome al_run_20(bench_env *env) { return al_run(env, 20u); }
static bench_outcome al_run_10(bench_env *env) { return al_run(env, 10u); }

const bench_def bench_add_loops = {
    "add-loops",
    "add_20_loops: per thread two loads, 20 dependent fma iterations each, one store",
    "add-loops/kernels.ptx", al_run_20};
const bench_def bench_add_10_loops = {
    "add-10-loops", "add_x_loops with x = 10 (thesis Table 5.2)",
    "add-loops/kernels.ptx", al_run_10};
