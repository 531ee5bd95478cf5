/* benchmarks/lud/driver.c — host driver for the blocked LU decomposition.
 *
 * Input: a dense n x n matrix made strictly diagonally dominant (so LU without
 * pivoting is stable).  Host flow: one step per diagonal tile, each step
 * launching lud_diagonal, then (except the last) lud_perimeter and
 * lud_internal, as the Rodinia-style application does.  The CPU reference
 * runs the same tiled algorithm with the same operations in the same order
 * (explicit fmaf), so a correct emulator matches it to the last bit; the
 * check still allows a few ulps (see check_matrix). */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BS 16 /* tile size; must match kernels.cu */

static int lud_dim(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return 64;    /* 4 x 4 tiles */
    case BENCH_SMALL: return 512;  /* 32 x 32 tiles */
    case BENCH_THESIS: return 1024; /* 63 x 63 = 3969 CTAs first: registry_sizes.inc */
    default: return 2048;          /* first lud_internal: 127 x 127 = 16129 CTAs (thesis Table 3.2) */
    }
}

static void lud_generate(float *a, int n, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = 2.0f * bench_rng_float(&st) - 1.0f;
        a[(size_t)i * n + i] += (float)n; /* |diag| > sum of |off-diagonal| */
    }
}

/* CPU reference: the kernels' tiled algorithm, element operation for element
 * operation. */
static void ref_diagonal(float *m, int n, int off)
{
    for (int k = 0; k < BS - 1; k++) {
        float piv = m[(size_t)(off + k) * n + off + k];
        for (int r = k + 1; r < BS; r++)
            m[(size_t)(off + r) * n + off + k] /= piv;
        for (int r = k + 1; r < BS; r++) {
            float lrk = m[(size_t)(off + r) * n + off + k];
            for (int c = k + 1; c < BS; c++) {
                float *e = &m[(size_t)(off + r) * n + off + c];
                *e = fmaf(-lrk, m[(size_t)(off + k) * n + off + c], *e);
            }
        }
    }
}

static void ref_perimeter(float *m, int n, int off, int p)
{
#define D(r, c) m[(size_t)(off + (r)) * n + off + (c)]
#define R(r, c) m[(size_t)(off + (r)) * n + p + (c)]
#define C(r, c) m[(size_t)(p + (r)) * n + off + (c)]
    for (int k = 0; k < BS; k++) {
        for (int r = k + 1; r < BS; r++)
            for (int c = 0; c < BS; c++)
                R(r, c) = fmaf(-D(r, k), R(k, c), R(r, c));
        for (int r = 0; r < BS; r++) {
            C(r, k) = C(r, k) / D(k, k);
            for (int c = k + 1; c < BS; c++)
                C(r, c) = fmaf(-C(r, k), D(k, c), C(r, c));
        }
    }
#undef D
#undef R
#undef C
}

static void ref_internal(float *m, int n, int off, int row, int col)
{
    for (int ty = 0; ty < BS; ty++)
        for (int tx = 0; tx < BS; tx++) {
            float sum = 0.0f;
            for (int k = 0; k < BS; k++)
                sum = fmaf(m[(size_t)(row + ty) * n + off + k],
                           m[(size_t)(off + k) * n + col + tx], sum);
            m[(size_t)(row + ty) * n + col + tx] -= sum;
        }
}

static void lud_reference(float *m, int n)
{
    int nb = n / BS;
    for (int i = 0; i < nb; i++) {
        int off = i * BS;
        ref_diagonal(m, n, off);
        for (int j = i + 1; j < nb; j++)
            ref_perimeter(m, n, off, j * BS);
        for (int y = i + 1; y < nb; y++)
            for (int x = i + 1; x < nb; x++)
                ref_internal(m, n, off, y * BS, x * BS);
    }
}

static bench_outcome lud_device(bench_env *env, float *a, int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    ptxemu_dptr d_m;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_m, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_m, a, bytes));
    int nb = n / BS;
    ptxemu_dim3 tile = {BS, BS, 1};
    for (int i = 0; i < nb; i++) {
        int off = i * BS;
        void *args[] = {&d_m, &n, &off};
        BENCH_TRY(env, ptxemu_launch(env->mod, "lud_diagonal",
                                     (ptxemu_dim3){1, 1, 1}, tile, 0, args));
        unsigned rest = (unsigned)(nb - 1 - i);
        if (rest == 0)
            break;
        BENCH_TRY(env, ptxemu_launch(env->mod, "lud_perimeter",
                                     (ptxemu_dim3){rest, 1, 1}, tile, 0, args));
        BENCH_TRY(env, ptxemu_launch(env->mod, "lud_internal",
                                     (ptxemu_dim3){rest, rest, 1}, tile, 0, args));
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, a, d_m, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_m));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-5 * |ref| + 1e-6.  The reference performs the
 * same IEEE single-precision operations in the same order, so an exact
 * emulator is bit-identical; the margin (tens of ulps) only keeps the check
 * meaningful rather than brittle, while any wrong index, missed barrier or
 * unfused multiply-add chain drifts far past it. */
static bench_outcome check_matrix(bench_env *env, const float *got,
                                  const float *ref, int n)
{
    for (size_t i = 0; i < (size_t)n * n; i++) {
        float tol = 1e-5f * fabsf(ref[i]) + 1e-6f;
        if (!(fabsf(got[i] - ref[i]) <= tol)) {
            snprintf(env->msg, sizeof env->msg,
                     "lu[%zu] (row %zu, col %zu): got %.9g, expected %.9g",
                     i, i / (size_t)n, i % (size_t)n, got[i], ref[i]);
            return BENCH_FAIL;
        }
    }
    return BENCH_PASS;
}

static bench_outcome lud_run(bench_env *env)
{
    int n = lud_dim(env->size);
    size_t count = (size_t)n * n;
    float *a = malloc(count * sizeof *a);
    float *ref = malloc(count * sizeof *ref);
    bench_outcome out;
    if (!a || !ref) {
        snprintf(env->msg, sizeof env->msg, "lud: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    lud_generate(a, n, env->seed);
    memcpy(ref, a, count * sizeof *a);

    out = lud_device(env, a, n);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    lud_reference(ref, n);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[count / 2 + (size_t)n / 3] += 1.0f;
    out = check_matrix(env, a, ref, n);
done:
    free(a);
    free(ref);
    return out;
}

const bench_def bench_lud = {
    "lud", "blocked LU decomposition without pivoting (diagonal/perimeter/internal tiles)",
    "lud/kernels.ptx", lud_run};
