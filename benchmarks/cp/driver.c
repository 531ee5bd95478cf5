/* cp/driver.c — Coulombic potential of N point charges on a W x H lattice
 * slice (z = 0, spacing 0.1 A) by direct summation (CLASO's "CP": 1024 CTAs
 * of 128 threads, one kernel).
 *
 * Host flow: generate atoms above/below the slice; zero the energy grid;
 * for each chunk of at most `chunk` atoms: precompute (x, y, dz^2, q), copy
 * the chunk to constant memory (c_atoms) and launch cenergy, which adds the
 * chunk's contribution.  The tiny/small sizes use chunks smaller than the
 * 4000-atom constant capacity so the multi-launch host loop is exercised.
 *
 * Check: the reference sums q / r in double from the same float inputs and
 * the same float lattice coordinates, and also sums |q / r| (S).  Device
 * error: r^2 by two fmas (<= 2 roundings), rsqrtf = rsqrt.approx.f32 (<= 2
 * ulp, CUDA C Programming Guide), the fma into the accumulator: < 5 eps per
 * term relative; float accumulation of n terms plus one add per chunk: the
 * classic gamma_n bound, (n + chunks) eps S.  Tolerance:
 * (8 + natoms + chunks) * eps * S with eps = 2^-24 — rigorous, yet a
 * dropped atom (~S / natoms) is still far outside it. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CP_MAX_ATOMS 4000 /* must match kernels.cu */
#define CP_BX 16
#define CP_BY 8
#define CP_UNROLL 4
#define CP_SPACING 0.1f

typedef struct cp_size {
    int width, height, natoms, chunk;
} cp_size;

static cp_size cp_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return (cp_size){64, 32, 100, 40};
    case BENCH_SMALL:
        return (cp_size){256, 128, 600, 256};
    default: /* paper and claso: CLASO Table 2 "CP": 1 kernel, 1024 CTAs of 128 */
        return (cp_size){512, 1024, 256, CP_MAX_ATOMS};
    }
}

typedef struct cp_atom {
    float x, y, dz2, q; /* as the kernel's float4 */
} cp_atom;

static bench_outcome cp_device(bench_env *env, const cp_size *sz, const cp_atom *atoms,
                               float *energy, int *launches)
{
    size_t bytes = (size_t)sz->width * sz->height * sizeof(float);
    ptxemu_dptr d_energy;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_energy, bytes));
    BENCH_TRY(env, ptxemu_memset(env->ctx, d_energy, 0, bytes));
    int width = sz->width;
    float spacing = CP_SPACING;
    *launches = 0;
    for (int first = 0; first < sz->natoms; first += sz->chunk) {
        int n = sz->natoms - first < sz->chunk ? sz->natoms - first : sz->chunk;
        BENCH_TRY(env, ptxemu_memcpy_to_symbol(env->mod, "c_atoms", atoms + first,
                                               (size_t)n * sizeof(cp_atom), 0));
        void *args[] = {&d_energy, &width, &spacing, &n};
        BENCH_TRY(env, ptxemu_launch(env->mod, "cenergy",
                                     (ptxemu_dim3){(unsigned)(sz->width / (CP_BX * CP_UNROLL)),
                                                   (unsigned)(sz->height / CP_BY), 1},
                                     (ptxemu_dim3){CP_BX, CP_BY, 1}, 0, args));
        ++*launches;
    }
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, energy, d_energy, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_energy));
    return BENCH_PASS;
}

static bench_outcome cp_run(bench_env *env)
{
    cp_size sz = cp_pick(env->size);
    size_t points = (size_t)sz.width * sz.height;
    cp_atom *atoms = malloc((size_t)sz.natoms * sizeof *atoms);
    float *energy = malloc(points * sizeof(float));
    double *ref = malloc(points * sizeof(double)), *abssum = malloc(points * sizeof(double));
    bench_outcome rc = BENCH_ERROR;
    if (!atoms || !energy || !ref || !abssum) {
        snprintf(env->msg, sizeof env->msg, "cp: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (int a = 0; a < sz.natoms; a++) {
        float dz = 1.0f + 4.0f * bench_rng_float(&rng);
        atoms[a].x = bench_rng_float(&rng) * (float)sz.width * CP_SPACING;
        atoms[a].y = bench_rng_float(&rng) * (float)sz.height * CP_SPACING;
        atoms[a].dz2 = dz * dz;
        atoms[a].q = 2.0f * bench_rng_float(&rng) - 1.0f;
    }

    int launches = 0;
    rc = cp_device(env, &sz, atoms, energy, &launches);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    for (int gy = 0; gy < sz.height; gy++)
        for (int gx = 0; gx < sz.width; gx++) {
            double x = (float)gx * CP_SPACING, y = (float)gy * CP_SPACING;
            double e = 0.0, s = 0.0;
            for (int a = 0; a < sz.natoms; a++) {
                double dx = x - atoms[a].x, dy = y - atoms[a].y;
                double term = atoms[a].q / sqrt(dx * dx + dy * dy + atoms[a].dz2);
                e += term;
                s += fabs(term);
            }
            ref[(size_t)gy * sz.width + gx] = e;
            abssum[(size_t)gy * sz.width + gx] = s;
        }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[points / 3] += 0.01 * abssum[points / 3];

    const double eps = 1.0 / 16777216.0;
    double factor = (8.0 + sz.natoms + launches) * eps;
    for (size_t i = 0; i < points; i++)
        if (!(fabs((double)energy[i] - ref[i]) <= factor * abssum[i])) {
            snprintf(env->msg, sizeof env->msg,
                     "cp: energy at (%zu, %zu) = %.9g, reference %.9g (tolerance %.3g)",
                     i % (size_t)sz.width, i / (size_t)sz.width, (double)energy[i], ref[i],
                     factor * abssum[i]);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(atoms);
    free(energy);
    free(ref);
    free(abssum);
    return rc;
}

const bench_def bench_cp = {
    "cp", "Coulombic potential on a lattice slice, atoms in constant memory",
    "cp/kernels.ptx", cp_run};
