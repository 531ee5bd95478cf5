/* benchmarks/cfd/driver.c — host driver for the unstructured-mesh Euler
 * solver (Rodinia "cfd"/euler3d style).
 *
 * Input: a synthetic mesh of W x H hexahedral cells whose element numbers are
 * shuffled within windows of 256 (so neighbour accesses are irregular but
 * local, like a generated mesh); four faces per element with inward normals
 * that are exact opposites across each shared face; far-field faces on the
 * left and right edges and solid walls on the bottom and top.  The flow
 * starts as a Mach 1.2 free stream with seeded perturbations.
 *
 * Host flow per iteration: copy variables to old_variables, launch
 * compute_step_factor, then RK = 3 stages of compute_flux + time_step.  The
 * CPU reference repeats the same arithmetic (same fmaf, same order). */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* must match kernels.cu */
#define NNB 4
#define NVAR 5
#define RK 3
#define GAMMA 1.4f
#define GAMMA_M1 0.4f
#define SMOOTH_HALF 0.1f
#define NFF (NVAR + 12)
#define CFD_BLOCK 192

typedef struct cfd_cfg {
    int w, h, iters;
} cfd_cfg;

static cfd_cfg cfd_config(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return (cfd_cfg){32, 32, 2};     /* 1024 cells: 6 CTAs */
    case BENCH_SMALL: return (cfd_cfg){128, 128, 10}; /* 16384 cells: 86 CTAs */
    /* 552 x 632 = 348864 cells = 1817 CTAs of 192 threads (thesis Table
     * 3.2); 10 iterations rather than Rodinia's 2000. */
    default: return (cfd_cfg){552, 632, 10};
    }
}

typedef struct cfd_mesh {
    int nelr;
    int *nbr;       /* NNB * nelr */
    float *normals; /* NNB * 3 * nelr */
    float *areas;   /* nelr */
    float *vars;    /* NVAR * nelr, initial state */
    float ff[NFF];  /* free stream variables and flux contributions */
} cfd_mesh;

/* ---- the kernels' helpers, operation for operation ---- */
static float speed_sqd(float vx, float vy, float vz)
{
    return fmaf(vz, vz, fmaf(vy, vy, vx * vx));
}

static float pressure(float rho, float e, float v2)
{
    return GAMMA_M1 * fmaf(-0.5f * rho, v2, e);
}

static float sound(float rho, float p)
{
    return sqrtf(GAMMA * p / rho);
}

static void cfd_free_stream(float *ff)
{
    float rho = 1.4f, p = 1.0f, vx = 1.2f, vy = 0.0f, vz = 0.0f; /* c = 1, Mach 1.2 */
    float mx = rho * vx, my = rho * vy, mz = rho * vz;
    float v2 = speed_sqd(vx, vy, vz);
    float e = p / GAMMA_M1 + 0.5f * rho * v2;
    float ep = e + p;
    float f[NFF] = {rho, mx, my, mz, e,
                    fmaf(mx, vx, p), mx * vy, mx * vz,
                    my * vx, fmaf(my, vy, p), my * vz,
                    mz * vx, mz * vy, fmaf(mz, vz, p),
                    ep * vx, ep * vy, ep * vz};
    memcpy(ff, f, sizeof f);
}

static float cfd_jitter(uint64_t *st, float amp)
{
    return amp * (bench_rng_float(st) - 0.5f);
}

static bool cfd_make_mesh(cfd_mesh *m, const cfd_cfg *c, uint64_t seed)
{
    int w = c->w, h = c->h, n = w * h;
    const float A = 0.2f; /* face area */
    uint64_t st = seed;
    m->nelr = n;
    m->nbr = malloc((size_t)NNB * n * sizeof(int));
    m->normals = malloc((size_t)NNB * 3 * n * sizeof(float));
    m->areas = malloc((size_t)n * sizeof(float));
    m->vars = malloc((size_t)NVAR * n * sizeof(float));
    int *id = malloc((size_t)n * sizeof(int));
    float *fv = malloc((size_t)n * 3 * sizeof(float)); /* +x face normal of cell g */
    float *fh = malloc((size_t)n * 3 * sizeof(float)); /* +y face normal of cell g */
    if (!m->nbr || !m->normals || !m->areas || !m->vars || !id || !fv || !fh) {
        free(id);
        free(fv);
        free(fh);
        return false;
    }
    /* element number of grid cell g: shuffled within windows of 256 */
    for (int g = 0; g < n; g++)
        id[g] = g;
    for (int b = 0; b < n; b += 256) {
        int len = n - b < 256 ? n - b : 256;
        for (int k = len - 1; k > 0; k--) {
            int r = (int)(bench_rng_next(&st) % (uint64_t)(k + 1));
            int t = id[b + k];
            id[b + k] = id[b + r];
            id[b + r] = t;
        }
    }
    /* one normal per interior face, slightly tilted */
    for (int g = 0; g < n; g++) {
        fv[3 * g + 0] = A * (1.0f + cfd_jitter(&st, 0.2f));
        fv[3 * g + 1] = A * cfd_jitter(&st, 0.1f);
        fv[3 * g + 2] = A * cfd_jitter(&st, 0.1f);
        fh[3 * g + 0] = A * cfd_jitter(&st, 0.1f);
        fh[3 * g + 1] = A * (1.0f + cfd_jitter(&st, 0.2f));
        fh[3 * g + 2] = A * cfd_jitter(&st, 0.1f);
    }
    cfd_free_stream(m->ff);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int g = y * w + x, i = id[g];
            /* faces: 0 left, 1 right, 2 down, 3 up; inward normals */
            int nb[NNB];
            float nrm[NNB][3];
            for (int d = 0; d < 3; d++) {
                nrm[0][d] = x > 0 ? fv[3 * (g - 1) + d] : (d == 0 ? A : 0.0f);
                nrm[1][d] = x < w - 1 ? -fv[3 * g + d] : (d == 0 ? -A : 0.0f);
                nrm[2][d] = y > 0 ? fh[3 * (g - w) + d] : (d == 1 ? A : 0.0f);
                nrm[3][d] = y < h - 1 ? -fh[3 * g + d] : (d == 1 ? -A : 0.0f);
            }
            nb[0] = x > 0 ? id[g - 1] : -2;     /* far field */
            nb[1] = x < w - 1 ? id[g + 1] : -2; /* far field */
            nb[2] = y > 0 ? id[g - w] : -1;     /* wall */
            nb[3] = y < h - 1 ? id[g + w] : -1; /* wall */
            for (int j = 0; j < NNB; j++) {
                m->nbr[(size_t)j * n + i] = nb[j];
                for (int d = 0; d < 3; d++)
                    m->normals[(size_t)(j * 3 + d) * n + i] = nrm[j][d];
            }
            m->areas[i] = 1.0f + cfd_jitter(&st, 0.2f);
            /* perturbed free stream */
            float rho = m->ff[0] * (1.0f + cfd_jitter(&st, 0.1f));
            float vx = 1.2f * (1.0f + cfd_jitter(&st, 0.1f));
            float vy = cfd_jitter(&st, 0.1f), vz = cfd_jitter(&st, 0.05f);
            float p = 1.0f + cfd_jitter(&st, 0.1f);
            m->vars[i] = rho;
            m->vars[(size_t)1 * n + i] = rho * vx;
            m->vars[(size_t)2 * n + i] = rho * vy;
            m->vars[(size_t)3 * n + i] = rho * vz;
            m->vars[(size_t)4 * n + i] = p / GAMMA_M1 + 0.5f * rho * speed_sqd(vx, vy, vz);
        }
    free(id);
    free(fv);
    free(fh);
    return true;
}

static void cfd_free_mesh(cfd_mesh *m)
{
    free(m->nbr);
    free(m->normals);
    free(m->areas);
    free(m->vars);
}

/* ---- CPU reference ---- */

static void ref_step_factor(const float *var, const float *areas, float *sf, int n)
{
    for (int i = 0; i < n; i++) {
        float rho = var[i];
        float vx = var[(size_t)1 * n + i] / rho;
        float vy = var[(size_t)2 * n + i] / rho;
        float vz = var[(size_t)3 * n + i] / rho;
        float e = var[(size_t)4 * n + i];
        float v2 = speed_sqd(vx, vy, vz);
        float c = sound(rho, pressure(rho, e, v2));
        sf[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(v2) + c));
    }
}

static void ref_flux(const cfd_mesh *m, const float *var, float *flux)
{
    int n = m->nelr;
    const float *ff = m->ff;
    for (int i = 0; i < n; i++) {
        float rho = var[i], mx = var[(size_t)1 * n + i], my = var[(size_t)2 * n + i];
        float mz = var[(size_t)3 * n + i], e = var[(size_t)4 * n + i];
        float vx = mx / rho, vy = my / rho, vz = mz / rho;
        float v2 = speed_sqd(vx, vy, vz);
        float p = pressure(rho, e, v2);
        float c = sound(rho, p);
        float speed = sqrtf(v2);
        float ep = e + p;
        float fxx = fmaf(mx, vx, p), fxy = mx * vy, fxz = mx * vz;
        float fyx = my * vx, fyy = fmaf(my, vy, p), fyz = my * vz;
        float fzx = mz * vx, fzy = mz * vy, fzz = fmaf(mz, vz, p);
        float fex = ep * vx, fey = ep * vy, fez = ep * vz;
        float f_rho = 0.0f, f_mx = 0.0f, f_my = 0.0f, f_mz = 0.0f, f_e = 0.0f;
        for (int j = 0; j < NNB; j++) {
            int nb = m->nbr[(size_t)j * n + i];
            float nx = m->normals[(size_t)(j * 3 + 0) * n + i];
            float ny = m->normals[(size_t)(j * 3 + 1) * n + i];
            float nz = m->normals[(size_t)(j * 3 + 2) * n + i];
            if (nb >= 0) {
                float rho_n = var[nb], mx_n = var[(size_t)1 * n + nb];
                float my_n = var[(size_t)2 * n + nb], mz_n = var[(size_t)3 * n + nb];
                float e_n = var[(size_t)4 * n + nb];
                float vx_n = mx_n / rho_n, vy_n = my_n / rho_n, vz_n = mz_n / rho_n;
                float v2_n = speed_sqd(vx_n, vy_n, vz_n);
                float p_n = pressure(rho_n, e_n, v2_n);
                float c_n = sound(rho_n, p_n);
                float ep_n = e_n + p_n;
                float nlen = sqrtf(speed_sqd(nx, ny, nz));
                float f = -nlen * SMOOTH_HALF * (speed + sqrtf(v2_n) + c + c_n);
                f_rho = fmaf(f, rho - rho_n, f_rho);
                f_e = fmaf(f, e - e_n, f_e);
                f_mx = fmaf(f, mx - mx_n, f_mx);
                f_my = fmaf(f, my - my_n, f_my);
                f_mz = fmaf(f, mz - mz_n, f_mz);
                f = 0.5f * nx;
                f_rho = fmaf(f, mx_n + mx, f_rho);
                f_e = fmaf(f, fmaf(ep_n, vx_n, fex), f_e);
                f_mx = fmaf(f, fmaf(mx_n, vx_n, p_n) + fxx, f_mx);
                f_my = fmaf(f, fmaf(my_n, vx_n, fyx), f_my);
                f_mz = fmaf(f, fmaf(mz_n, vx_n, fzx), f_mz);
                f = 0.5f * ny;
                f_rho = fmaf(f, my_n + my, f_rho);
                f_e = fmaf(f, fmaf(ep_n, vy_n, fey), f_e);
                f_mx = fmaf(f, fmaf(mx_n, vy_n, fxy), f_mx);
                f_my = fmaf(f, fmaf(my_n, vy_n, p_n) + fyy, f_my);
                f_mz = fmaf(f, fmaf(mz_n, vy_n, fzy), f_mz);
                f = 0.5f * nz;
                f_rho = fmaf(f, mz_n + mz, f_rho);
                f_e = fmaf(f, fmaf(ep_n, vz_n, fez), f_e);
                f_mx = fmaf(f, fmaf(mx_n, vz_n, fxz), f_mx);
                f_my = fmaf(f, fmaf(my_n, vz_n, fyz), f_my);
                f_mz = fmaf(f, fmaf(mz_n, vz_n, p_n) + fzz, f_mz);
            } else if (nb == -1) {
                f_mx = fmaf(nx, p, f_mx);
                f_my = fmaf(ny, p, f_my);
                f_mz = fmaf(nz, p, f_mz);
            } else if (nb == -2) {
                float f = 0.5f * nx;
                f_rho = fmaf(f, ff[1] + mx, f_rho);
                f_e = fmaf(f, ff[14] + fex, f_e);
                f_mx = fmaf(f, ff[5] + fxx, f_mx);
                f_my = fmaf(f, ff[8] + fyx, f_my);
                f_mz = fmaf(f, ff[11] + fzx, f_mz);
                f = 0.5f * ny;
                f_rho = fmaf(f, ff[2] + my, f_rho);
                f_e = fmaf(f, ff[15] + fey, f_e);
                f_mx = fmaf(f, ff[6] + fxy, f_mx);
                f_my = fmaf(f, ff[9] + fyy, f_my);
                f_mz = fmaf(f, ff[12] + fzy, f_mz);
                f = 0.5f * nz;
                f_rho = fmaf(f, ff[3] + mz, f_rho);
                f_e = fmaf(f, ff[16] + fez, f_e);
                f_mx = fmaf(f, ff[7] + fxz, f_mx);
                f_my = fmaf(f, ff[10] + fyz, f_my);
                f_mz = fmaf(f, ff[13] + fzz, f_mz);
            }
        }
        flux[i] = f_rho;
        flux[(size_t)1 * n + i] = f_mx;
        flux[(size_t)2 * n + i] = f_my;
        flux[(size_t)3 * n + i] = f_mz;
        flux[(size_t)4 * n + i] = f_e;
    }
}

static void ref_time_step(int j, int n, const float *old, float *var, const float *sf,
                          const float *flux)
{
    for (int i = 0; i < n; i++) {
        float factor = sf[i] / (float)(RK + 1 - j);
        for (int v = 0; v < NVAR; v++)
            var[(size_t)v * n + i] = fmaf(factor, flux[(size_t)v * n + i], old[(size_t)v * n + i]);
    }
}

/* scratch: old variables, step factors, fluxes */
static void cfd_reference(const cfd_mesh *m, float *var, int iters, float *scratch)
{
    int n = m->nelr;
    float *old = scratch, *sf = old + (size_t)NVAR * n, *flux = sf + n;
    for (int it = 0; it < iters; it++) {
        memcpy(old, var, (size_t)NVAR * n * sizeof(float));
        ref_step_factor(var, m->areas, sf, n);
        for (int j = 0; j < RK; j++) {
            ref_flux(m, var, flux);
            ref_time_step(j, n, old, var, sf, flux);
        }
    }
}

static bench_outcome cfd_device(bench_env *env, const cfd_mesh *m, float *var, int iters)
{
    int n = m->nelr;
    size_t vbytes = (size_t)NVAR * n * sizeof(float);
    ptxemu_dptr d_nbr, d_nrm, d_area, d_var, d_old, d_sf, d_flux;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_nbr, (size_t)NNB * n * sizeof(int)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_nrm, (size_t)NNB * 3 * n * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_area, (size_t)n * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_var, vbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_old, vbytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_sf, (size_t)n * sizeof(float)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_flux, vbytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_nbr, m->nbr, (size_t)NNB * n * sizeof(int)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_nrm, m->normals,
                                      (size_t)NNB * 3 * n * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_area, m->areas, (size_t)n * sizeof(float)));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_var, var, vbytes));
    BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_ff", m->ff, sizeof m->ff, 0));

    ptxemu_dim3 grid = {(unsigned)((n + CFD_BLOCK - 1) / CFD_BLOCK), 1, 1};
    ptxemu_dim3 block = {CFD_BLOCK, 1, 1};
    void *asf[] = {&d_var, &d_area, &d_sf, &n};
    void *afl[] = {&d_nbr, &d_nrm, &d_var, &d_flux, &n};
    for (int it = 0; it < iters; it++) {
        BENCH_TRY(env, ptxemu_memcpy_dtod(env->ctx, d_old, d_var, vbytes));
        BENCH_TRY(env, ptxemu_launch(env->mod, "compute_step_factor", grid, block, 0, asf));
        for (int j = 0; j < RK; j++) {
            BENCH_TRY(env, ptxemu_launch(env->mod, "compute_flux", grid, block, 0, afl));
            void *ats[] = {&j, &n, &d_old, &d_var, &d_sf, &d_flux};
            BENCH_TRY(env, ptxemu_launch(env->mod, "time_step", grid, block, 0, ats));
        }
    }
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, var, d_var, vbytes));
    ptxemu_dptr all[] = {d_nbr, d_nrm, d_area, d_var, d_old, d_sf, d_flux};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        BENCH_TRY(env, ptxemu_free(env->ctx, all[k]));
    return BENCH_PASS;
}

/* Tolerance: |got - ref| <= 1e-4 * |ref| + 1e-5 (the variables are of order
 * 0.1..5).  The reference performs the kernels' exact single-precision
 * operations, so an exact emulator matches bit for bit; the margin allows an
 * ulp-level difference to be amplified by the nonlinear solver over the
 * stages without hiding any real error, which shows up at 1e-2 or more. */
static bench_outcome cfd_run(bench_env *env)
{
    static const char *const names[NVAR] = {"density", "momentum.x", "momentum.y",
                                            "momentum.z", "energy"};
    cfd_cfg c = cfd_config(env->size);
    cfd_mesh m = {0};
    size_t nv = (size_t)NVAR * c.w * c.h;
    float *var = malloc(nv * sizeof *var);
    float *ref = malloc(nv * sizeof *ref);
    float *scratch = malloc((2 * nv + (size_t)c.w * c.h) * sizeof *scratch);
    bench_outcome out;
    if (!var || !ref || !scratch || !cfd_make_mesh(&m, &c, env->seed)) {
        snprintf(env->msg, sizeof env->msg, "cfd: out of host memory");
        out = BENCH_ERROR;
        goto done;
    }
    memcpy(var, m.vars, nv * sizeof *var);
    memcpy(ref, m.vars, nv * sizeof *ref);

    out = cfd_device(env, &m, var, c.iters);
    if (out != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    cfd_reference(&m, ref, c.iters, scratch);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[nv / 2 + 3] *= 1.01f;
    for (size_t k = 0; k < nv; k++) {
        float tol = 1e-4f * fabsf(ref[k]) + 1e-5f;
        if (!(fabsf(var[k] - ref[k]) <= tol)) {
            snprintf(env->msg, sizeof env->msg, "%s[%zu]: got %.9g, expected %.9g",
                     names[k / (size_t)m.nelr], k % (size_t)m.nelr, var[k], ref[k]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    cfd_free_mesh(&m);
    free(var);
    free(ref);
    free(scratch);
    return out;
}

const bench_def bench_cfd = {
    "cfd", "unstructured-mesh 3-D Euler solver: step factor, flux and RK time-step kernels",
    "cfd/kernels.ptx", cfd_run};
