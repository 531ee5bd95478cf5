/* scalarprod/driver.c — dot products of VEC_N vector pairs of ELEM_N floats.
 *
 * Host flow (as the SDK sample): generate the vectors, copy them in, one
 * launch of scalar_prod (grid-strided over the pairs), copy the results back,
 * compare with a CPU reference.
 *
 * Check: the reference repeats the kernel's order of operations exactly (per
 * thread strided fmaf partial sums, then the same shared-memory tree), so a
 * correct emulator gives bit-identical results.  The tolerance (1e-6 relative
 * + 1e-6 absolute, results are O(10)) is only a guard against a different but
 * legal fma contraction; a wrong element or a lost partial sum moves a result
 * by at least ~1e-3. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define SP_THREADS 256 /* must match kernels.cu */

typedef struct sp_size {
    int vec_n, elem_n, grid;
} sp_size;

static sp_size sp_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (sp_size){32, 1024, 16};
    case BENCH_SMALL:
        return (sp_size){128, 4096, 64};
    default: /* paper and claso: CLASO Table 2 "SP": 128 CTAs of 256; SDK 256 x 4096 */
        return (sp_size){256, 4096, 128};
    }
}

static void sp_reference(float *out, const float *a, const float *b,
                         int vec_n, int elem_n)
{
    float part[SP_THREADS];
    for (int v = 0; v < vec_n; v++) {
        const float *va = a + (size_t)v * (size_t)elem_n;
        const float *vb = b + (size_t)v * (size_t)elem_n;
        for (int t = 0; t < SP_THREADS; t++) {
            float sum = 0.0f;
            for (int i = t; i < elem_n; i += SP_THREADS)
                sum = fmaf(va[i], vb[i], sum);
            part[t] = sum;
        }
        for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1)
            for (int t = 0; t < stride; t++)
                part[t] += part[t + stride];
        out[v] = part[0];
    }
}

static bench_outcome sp_device(bench_env *env, const sp_size *sz,
                               const float *a, const float *b, float *out)
{
    size_t in_bytes = (size_t)sz->vec_n * (size_t)sz->elem_n * sizeof(float);
    size_t out_bytes = (size_t)sz->vec_n * sizeof(float);
    ptxemu_dptr d_a, d_b, d_out;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_a, in_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_b, in_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, out_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_a, a, in_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_b, b, in_bytes));

    int vec_n = sz->vec_n, elem_n = sz->elem_n;
    void *args[] = {&d_out, &d_a, &d_b, &vec_n, &elem_n};
    BENCH_TRY(env, ptxemu_launch(env->mod, "scalar_prod",
                                 (ptxemu_dim3){(unsigned)sz->grid, 1, 1},
                                 (ptxemu_dim3){SP_THREADS, 1, 1}, 0, args));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_out, out_bytes));

    BENCH_TRY(env, ptxemu_free(env->ctx, d_a));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_b));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    return BENCH_PASS;
}

static bench_outcome sp_run(bench_env *env)
{
    sp_size sz = sp_pick(env->size);
    size_t n = (size_t)sz.vec_n * (size_t)sz.elem_n;
    float *a = malloc(n * sizeof *a);
    float *b = malloc(n * sizeof *b);
    float *out = malloc((size_t)sz.vec_n * sizeof *out);
    float *ref = malloc((size_t)sz.vec_n * sizeof *ref);
    bench_outcome rc = BENCH_ERROR;
    if (!a || !b || !out || !ref) {
        snprintf(env->msg, sizeof env->msg, "scalarprod: out of host memory");
        goto done;
    }

    uint64_t rng = env->seed;
    for (size_t i = 0; i < n; i++) {
        a[i] = 2.0f * bench_rng_float(&rng) - 1.0f;
        b[i] = 2.0f * bench_rng_float(&rng) - 1.0f;
    }

    rc = sp_device(env, &sz, a, b, out);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    sp_reference(ref, a, b, sz.vec_n, sz.elem_n);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[sz.vec_n / 2] += 1.0f;

    for (int v = 0; v < sz.vec_n; v++) {
        double diff = fabs((double)out[v] - (double)ref[v]);
        if (!(diff <= 1e-6 + 1e-6 * fabs((double)ref[v]))) {
            snprintf(env->msg, sizeof env->msg,
                     "scalarprod: out[%d] = %.9g, reference %.9g", v,
                     (double)out[v], (double)ref[v]);
            rc = BENCH_FAIL;
            goto done;
        }
    }
    rc = BENCH_PASS;
done:
    free(a);
    free(b);
    free(out);
    free(ref);
    return rc;
}

const bench_def bench_scalarprod = {
    "scalarprod", "dot products of many float vector pairs (shared-memory tree)",
    "scalarprod/kernels.ptx", sp_run};
