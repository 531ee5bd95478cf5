/* libor/driver.c — LIBOR market model Monte Carlo: value of a portfolio of
 * 15 receiver swaptions and its sensitivity to a parallel shift of the
 * initial forward rates (CLASO Table 2 "LIB": 2 kernels of 64-thread CTAs).
 *
 * Host flow: the host draws the normal increments (NMAT per path, Box-Muller
 * in double, stored step-major so a warp's loads coalesce) and the model's
 * constants into `__constant__`; libor_value prices every path; libor_delta
 * prices every path again with the tangent of the shift; the host reads
 * both and forms the Monte Carlo means.
 *
 * Check: against a double-precision CPU model of the same equations.  The
 * kernels run in float with CUDA's expf (2 ulp) through 40 steps x up to 79
 * rates of products, and the payoff -100 x swap value amplifies absolute
 * error by 100.  Measured at size small (4,096 paths, seed 1) the largest
 * float-vs-double difference, relative to 1 + |reference|, is 4.3e-5 for
 * values and 2.4e-4 for deltas (which are O(1000)); the check allows 1e-3
 * relative to 1 + |reference| for both, per path and for the means.  A path
 * whose reference has a swap value within 1e-5 of zero has its delta left
 * out: the payoff's derivative jumps there, so float rounding may
 * legitimately take the other side (the count is in the FAIL message; at
 * size small no path's delta differs even with none left out).
 *
 * Sizes: 32 / 4,096 / 32,768 paths (tiny with a half-size model); paper is 512 CTAs per kernel, 4.6 waves
 * on c2050 (14 SMs x 8 CTAs), where CLASO ran 256 CTAs over 2 kernels. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LB_NN 80
#define LB_NMAT 40
#define LB_NOPT 15
#define LB_THREADS 64
#define LB_DELTA 0.25
#define LB_L0 0.05
#define LB_TOL 1e-3

static const int lb_mat[LB_NOPT] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
static const float lb_rate[LB_NOPT] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                       .055f, .045f, .05f, .055f, .045f, .05f, .055f};

typedef struct lb_size {
    int npath, nn, nmat; /* paths, forward rates, time steps */
} lb_size;

/* tiny halves the model (40 rates, 20 steps, option maturities halved) so
 * that its one warp's serial chain stays short; small and paper use the
 * 80 / 40 of Giles's LIBOR code. */
static lb_size lb_pick(bench_size s)
{
    return s == BENCH_TINY ? (lb_size){32, 40, 20}
         : s == BENCH_SMALL ? (lb_size){4096, LB_NN, LB_NMAT}
         /* claso: CLASO Table 2 "LIB", 2 kernels of 128 CTAs x 64 threads */
         : s == BENCH_CLASO ? (lb_size){8192, LB_NN, LB_NMAT} : (lb_size){32768, LB_NN, LB_NMAT};
}

/* One path in double: value, tangent, and the smallest |swap value| seen. */
static void lb_path_cpu(const lb_size *sz, const int *mat, const float *lam, const float *z,
                        double *val, double *dval, double *closest)
{
    double L[LB_NN], Ld[LB_NN], B[LB_NN - LB_NMAT], Bd[LB_NN - LB_NMAT];
    double S[LB_NN - LB_NMAT], Sd[LB_NN - LB_NMAT];
    int nn = sz->nn, nmat = sz->nmat;
    for (int i = 0; i < nn; i++) {
        L[i] = LB_L0;
        Ld[i] = 1.0;
    }
    for (int n = 0; n < nmat; n++) {
        double sqez = sqrt(LB_DELTA) * z[(size_t)n * sz->npath], v = 0, vd = 0;
        for (int i = n + 1; i < nn; i++) {
            double l = lam[i - n - 1], con1 = LB_DELTA * l, den = 1.0 + LB_DELTA * L[i];
            v += con1 * L[i] / den;
            vd += con1 * Ld[i] / (den * den);
            double vrat = exp(con1 * v + l * (sqez - 0.5 * con1));
            Ld[i] = Ld[i] * vrat + L[i] * vrat * con1 * vd;
            L[i] *= vrat;
        }
    }
    double b = 1, bd = 0, s = 0, sd = 0;
    for (int n = nmat; n < nn; n++) {
        double den = 1.0 + LB_DELTA * L[n];
        b /= den;
        bd = (bd - b * LB_DELTA * Ld[n]) / den;
        s += LB_DELTA * b;
        sd += LB_DELTA * bd;
        B[n - nmat] = b;
        Bd[n - nmat] = bd;
        S[n - nmat] = s;
        Sd[n - nmat] = sd;
    }
    double v = 0, vd = 0;
    *closest = INFINITY;
    for (int k = 0; k < LB_NOPT; k++) {
        int m = mat[k] - 1;
        double sv = B[m] + lb_rate[k] * S[m] - 1.0;
        *closest = fmin(*closest, fabs(sv));
        if (sv < 0) {
            v += -100.0 * sv;
            vd += -100.0 * (Bd[m] + lb_rate[k] * Sd[m]);
        }
    }
    for (int n = 0; n < nmat; n++) {
        double den = 1.0 + LB_DELTA * L[n];
        v /= den;
        vd = (vd - v * LB_DELTA * Ld[n]) / den;
    }
    *val = v;
    *dval = vd;
}

static bench_outcome lb_device(bench_env *env, const lb_size *sz, const int *mat,
                               const float *lam, const float *z, float *val, float *val2,
                               float *dval)
{
    int npath = sz->npath, nn = sz->nn, nmat = sz->nmat;
    size_t zb = (size_t)npath * nmat * sizeof(float), vb = (size_t)npath * sizeof(float);
    ptxemu_dptr d_z, d_val, d_val2, d_dval;
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "lambda", lam, LB_NN * sizeof(float), 0));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "maturities", mat, LB_NOPT * sizeof(int), 0));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "swaprates", lb_rate, sizeof lb_rate, 0));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_z, zb));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_val, vb));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_val2, vb));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_dval, vb));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_z, z, zb));
    ptxemu_dim3 grid = {(unsigned)(npath + LB_THREADS - 1) / LB_THREADS, 1, 1};
    ptxemu_dim3 block = {LB_THREADS, 1, 1};
    void *a1[] = {&d_z, &d_val, &npath, &nn, &nmat};
    BENCH_TRY(env, ptxemu_launch(env->mod, "libor_value", grid, block, 0, a1));
    void *a2[] = {&d_z, &d_val2, &d_dval, &npath, &nn, &nmat};
    BENCH_TRY(env, ptxemu_launch(env->mod, "libor_delta", grid, block, 0, a2));
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, val, d_val, vb));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, val2, d_val2, vb));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, dval, d_dval, vb));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_z));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_val));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_val2));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_dval));
    return BENCH_PASS;
}

static bool lb_close(double got, double ref)
{
    return fabs(got - ref) <= LB_TOL * (1.0 + fabs(ref));
}

static bench_outcome lb_run(bench_env *env)
{
    lb_size sz = lb_pick(env->size);
    int npath = sz.npath, mat[LB_NOPT];
    for (int k = 0; k < LB_NOPT; k++)
        mat[k] = lb_mat[k] * (sz.nn - sz.nmat) / (LB_NN - LB_NMAT);
    float lam[LB_NN];
    for (int i = 0; i < LB_NN; i++)
        lam[i] = 0.2f - 0.001f * (float)(i % 40);
    float *z = malloc((size_t)npath * sz.nmat * sizeof(float));
    float *val = malloc((size_t)npath * 3 * sizeof(float));
    double *ref = malloc((size_t)npath * 2 * sizeof(double));
    bool *edge = calloc((size_t)npath, sizeof(bool));
    bench_outcome rc = BENCH_ERROR;
    if (!z || !val || !ref || !edge) {
        snprintf(env->msg, sizeof env->msg, "libor: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (size_t i = 0; i < (size_t)npath * sz.nmat; i += 2) {
        double u1 = 1.0 - bench_rng_float(&rng), u2 = bench_rng_float(&rng);
        double r = sqrt(-2.0 * log(u1));
        z[i] = (float)(r * cos(2.0 * 3.14159265358979 * u2));
        z[i + 1] = (float)(r * sin(2.0 * 3.14159265358979 * u2));
    }
    float *val2 = val + npath, *dval = val + 2 * (size_t)npath;
    rc = lb_device(env, &sz, mat, lam, z, val, val2, dval);
    if (rc != BENCH_PASS)
        goto done;
    double t0 = bench_now();
    int skipped = 0;
    double mv = 0, md = 0, rmv = 0, rmd = 0;
    for (int p = 0; p < npath; p++) {
        double closest;
        lb_path_cpu(&sz, mat, lam, z + p, &ref[2 * p], &ref[2 * p + 1], &closest);
        edge[p] = closest < 1e-5;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[2 * (npath - 1)] += 1.0;
    for (int p = 0; p < npath && rc == BENCH_PASS; p++) {
        mv += val[p];
        rmv += ref[2 * p];
        if (edge[p]) {
            skipped++;
        } else {
            md += dval[p];
            rmd += ref[2 * p + 1];
        }
        if (!lb_close(val[p], ref[2 * p]) || !lb_close(val2[p], ref[2 * p]) ||
            (!edge[p] && !lb_close(dval[p], ref[2 * p + 1]))) {
            snprintf(env->msg, sizeof env->msg,
                     "libor: path %d value %.7g / %.7g delta %.7g, reference %.7g delta %.7g "
                     "(tolerance %g relative to 1 + |ref|)", p, (double)val[p], (double)val2[p],
                     (double)dval[p], ref[2 * p], ref[2 * p + 1], LB_TOL);
            rc = BENCH_FAIL;
        }
    }
    if (rc == BENCH_PASS && (!lb_close(mv / npath, rmv / npath) ||
                             !lb_close(md / npath, rmd / npath))) {
        snprintf(env->msg, sizeof env->msg,
                 "libor: mean value %.7g delta %.7g, reference %.7g delta %.7g (%d edge paths "
                 "left out of the delta)", mv / npath, md / npath, rmv / npath, rmd / npath,
                 skipped);
        rc = BENCH_FAIL;
    }
done:
    free(edge);
    free(z);
    free(val);
    free(ref);
    return rc;
}

const bench_def bench_libor = {
    "libor", "LIBOR market model Monte Carlo: swaption portfolio value and delta per path",
    "libor/kernels.ptx", lb_run};
