/* fastwalsh/driver.c — dyadic convolution of a 2^L-element signal with a
 * 128-tap kernel through the fast Walsh-Hadamard transform (SDK
 * fastWalshTransform: log2(data) 23, log2(kernel) 7 by default).
 *
 * Host flow: generate data and kernel (zero-padded to N), then
 *   WHT(data); WHT(kernel); modulate (data .* kernel / N); WHT(data)
 * where each WHT is one fwt_shared launch (strides < 2048) followed by
 * fwt_radix4 launches (two strides each) and a last fwt_radix2 when the
 * remaining stride count is odd — launches chosen by the host from N.
 *
 * Check: exact.  All stages apply their strides in increasing order, a
 * butterfly is a single rounded add or sub, and the modulation is
 * (d * k) * (1/N) with 1/N a power of two, so the reference (the plain
 * sequential radix-2 transform in float, same stride order) is bit-identical.
 * The reference itself is validated against direct dyadic convolution in
 * double, out[i] = sum_m kernel[m] * data[i ^ m], on a sample of outputs;
 * there the tolerance is 1e-3 absolute: outputs are O(4), the float FWT path
 * errs by ~1e-6 for these zero-mean inputs, and a wrong index errs by O(1). */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FWT_CHUNK_LOG2 11 /* must match kernels.cu */
#define FWT_CHUNK (1 << FWT_CHUNK_LOG2)
#define FWT_THREADS 512
#define FWT_GLOBAL_THREADS 256
#define FWT_KERNEL_LOG2 7

static int fwt_log2n(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return 14;
    case BENCH_SMALL:
        return 19;
    case BENCH_CLASO: /* CLASO Table 2 "FWT": 13 launches, 64 + 3 x 128 CTAs per
                         transform, x 3, + 128 = 1,472 CTAs, as the table */
        return 17;
    default: /* SDK default; thesis Table 3.3 "FWT": 4096 CTAs of 512 */
        return 23;
    }
}

/* One in-place WHT on the device. */
static bench_outcome fwt_device_transform(bench_env *env, ptxemu_dptr d, int log2n)
{
    int n = 1 << log2n;
    void *a_shared[] = {&d};
    BENCH_TRY(env, ptxemu_launch(env->mod, "fwt_shared",
                                 (ptxemu_dim3){(unsigned)(n / FWT_CHUNK), 1, 1},
                                 (ptxemu_dim3){FWT_THREADS, 1, 1}, 0, a_shared));
    int bit = FWT_CHUNK_LOG2;
    for (; bit + 1 < log2n; bit += 2) {
        int stride = 1 << bit, quarter = n / 4;
        void *args[] = {&d, &stride, &quarter};
        unsigned grid = (unsigned)((quarter + FWT_GLOBAL_THREADS - 1) / FWT_GLOBAL_THREADS);
        BENCH_TRY(env, ptxemu_launch(env->mod, "fwt_radix4", (ptxemu_dim3){grid, 1, 1},
                                     (ptxemu_dim3){FWT_GLOBAL_THREADS, 1, 1}, 0, args));
    }
    if (bit < log2n) {
        int stride = 1 << bit, half = n / 2;
        void *args[] = {&d, &stride, &half};
        unsigned grid = (unsigned)((half + FWT_GLOBAL_THREADS - 1) / FWT_GLOBAL_THREADS);
        BENCH_TRY(env, ptxemu_launch(env->mod, "fwt_radix2", (ptxemu_dim3){grid, 1, 1},
                                     (ptxemu_dim3){FWT_GLOBAL_THREADS, 1, 1}, 0, args));
    }
    return BENCH_PASS;
}

static bench_outcome fwt_device(bench_env *env, int log2n, const float *data,
                                const float *kernel, float *out)
{
    int n = 1 << log2n;
    size_t bytes = (size_t)n * sizeof(float);
    ptxemu_dptr d_data, d_kernel;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_data, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_kernel, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_data, data, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_kernel, kernel, bytes));

    bench_outcome rc;
    if ((rc = fwt_device_transform(env, d_data, log2n)) != BENCH_PASS)
        return rc;
    if ((rc = fwt_device_transform(env, d_kernel, log2n)) != BENCH_PASS)
        return rc;
    float inv_n = 1.0f / (float)n;
    void *margs[] = {&d_data, &d_kernel, &inv_n, &n};
    BENCH_TRY(env, ptxemu_launch(env->mod, "fwt_modulate", (ptxemu_dim3){128, 1, 1},
                                 (ptxemu_dim3){FWT_GLOBAL_THREADS, 1, 1}, 0, margs));
    if ((rc = fwt_device_transform(env, d_data, log2n)) != BENCH_PASS)
        return rc;

    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_data, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_data));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_kernel));
    return BENCH_PASS;
}

/* Sequential radix-2 WHT, strides in increasing order. */
static void fwt_cpu(float *x, int n)
{
    for (int s = 1; s < n; s <<= 1)
        for (int base = 0; base < n; base += 2 * s)
            for (int i = base; i < base + s; i++) {
                float a = x[i], b = x[i + s];
                x[i] = a + b;
                x[i + s] = a - b;
            }
}

static bench_outcome fwt_run(bench_env *env)
{
    int log2n = fwt_log2n(env->size);
    int n = 1 << log2n, kn = 1 << FWT_KERNEL_LOG2;
    size_t bytes = (size_t)n * sizeof(float);
    float *data = malloc(bytes), *kernel = malloc(bytes), *out = malloc(bytes);
    float *ref = malloc(bytes), *kref = malloc(bytes);
    bench_outcome rc = BENCH_ERROR;
    if (!data || !kernel || !out || !ref || !kref) {
        snprintf(env->msg, sizeof env->msg, "fastwalsh: out of host memory");
        goto done;
    }

    uint64_t rng = env->seed;
    for (int i = 0; i < n; i++)
        data[i] = 2.0f * bench_rng_float(&rng) - 1.0f;
    memset(kernel, 0, bytes);
    for (int i = 0; i < kn; i++)
        kernel[i] = 2.0f * bench_rng_float(&rng) - 1.0f;

    rc = fwt_device(env, log2n, data, kernel, out);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    memcpy(ref, data, bytes);
    memcpy(kref, kernel, bytes);
    fwt_cpu(ref, n);
    fwt_cpu(kref, n);
    float inv_n = 1.0f / (float)n;
    for (int i = 0; i < n; i++)
        ref[i] = ref[i] * kref[i] * inv_n;
    fwt_cpu(ref, n);
    env->ref_seconds = bench_now() - t0;

    /* Validate the reference: direct dyadic convolution on 256 outputs. */
    for (int k = 0; k < 256; k++) {
        int i = (int)(((uint64_t)k * 2654435761u) & (uint64_t)(n - 1));
        double direct = 0.0;
        for (int m = 0; m < kn; m++)
            direct += (double)kernel[m] * (double)data[i ^ m];
        if (fabs(direct - (double)ref[i]) > 1e-3) {
            snprintf(env->msg, sizeof env->msg,
                     "fastwalsh: reference broken: out[%d] %.7g, direct %.7g",
                     i, (double)ref[i], direct);
            rc = BENCH_FAIL;
            goto done;
        }
    }

    if (env->break_reference)
        ref[n / 3] += 0.5f;

    rc = BENCH_PASS;
    for (int i = 0; i < n; i++) {
        if (out[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "fastwalsh: out[%d] = %.9g, reference %.9g (exact)", i,
                     (double)out[i], (double)ref[i]);
            rc = BENCH_FAIL;
            break;
        }
    }
done:
    free(data);
    free(kernel);
    free(out);
    free(ref);
    free(kref);
    return rc;
}

const bench_def bench_fastwalsh = {
    "fastwalsh", "dyadic convolution via the fast Walsh-Hadamard transform",
    "fastwalsh/kernels.ptx", fwt_run};
