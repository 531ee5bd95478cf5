/* benchmarks/cdp-amr/driver.c — adaptive mesh refinement with nested
 * device-side launches (LaPerm seed's amr, "combustion simulation").
 * Field: a temperature of 300 plus CDP_AMR_FLAMES flames clustered round
 * the domain centre, each A R^2 / (R^2 + d^2) (integer), sampled on the
 * (32 G + 1)^2 unit lattice; G = 32 / 64 / 128 coarse cells per side (tiny /
 * small / paper).  The refinement thresholds (spread of a cell's corner
 * samples) thr0 = 96 for coarse cells, thr1 = 24 for 4-unit cells, refine
 * the flame zones twice and leave the cold background coarse.
 * Host flow: one launch of amr_coarse (64-thread TBs); refined coarse cells
 * go to child TBs, refined 4-unit cells to grandchild TBs.
 * Check: exact; every coarse cell's leaf sum and leaf count equal the CPU's
 * recursive refinement. */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define CDP_AMR_FLAMES 8
#define CDP_AMR_THR0 96u
#define CDP_AMR_THR1 24u

static void make_field(uint32_t *field, int w, uint64_t seed)
{
    uint64_t rng = seed * 0xd1342543de82ef95ull + 3;
    int64_t cx[CDP_AMR_FLAMES], cy[CDP_AMR_FLAMES], r2[CDP_AMR_FLAMES], a[CDP_AMR_FLAMES];
    for (int k = 0; k < CDP_AMR_FLAMES; k++) {
        cx[k] = w / 4 + (int64_t)(bench_rng_next(&rng) % (uint64_t)(w / 2));
        cy[k] = w / 4 + (int64_t)(bench_rng_next(&rng) % (uint64_t)(w / 2));
        int64_t r = w / 32 + (int64_t)(bench_rng_next(&rng) % (uint64_t)(w / 16));
        r2[k] = r * r;
        a[k] = 1000 + (int64_t)(bench_rng_next(&rng) % 1000u);
    }
    for (int y = 0; y < w; y++) {
        for (int x = 0; x < w; x++) {
            int64_t t = 300;
            for (int k = 0; k < CDP_AMR_FLAMES; k++) {
                int64_t d2 = (x - cx[k]) * (x - cx[k]) + (y - cy[k]) * (y - cy[k]);
                t += a[k] * r2[k] / (r2[k] + d2);
            }
            field[(size_t)y * w + x] = (uint32_t)t;
        }
    }
}

static bench_outcome amr_run(bench_env *env)
{
    int g = env->size == BENCH_TINY ? 32 : env->size == BENCH_SMALL ? 64 : 128;
    int w = CDP_AMR_COARSE * g + 1, cells = g * g, nblocks = (cells + PB - 1) / PB;
    uint32_t *field = malloc((size_t)w * w * sizeof *field);
    uint64_t *sum = malloc((size_t)cells * sizeof *sum), *rsum = malloc((size_t)cells * 8);
    uint32_t *leaves = malloc((size_t)cells * 4), *rleaves = malloc((size_t)cells * 4);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dfield = 0, dlist = 0, dlist2 = 0, dsum = 0, dleaves = 0;
    if (!field || !sum || !rsum || !leaves || !rleaves) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    make_field(field, w, env->seed);

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dfield, (size_t)w * w * sizeof *field));
    TRY(ptxemu_malloc(env->ctx, &dlist, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dlist2, (size_t)cells * 64 * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dsum, (size_t)cells * sizeof *sum));
    TRY(ptxemu_malloc(env->ctx, &dleaves, (size_t)cells * sizeof *leaves));
    TRY(ptxemu_memcpy_htod(env->ctx, dfield, field, (size_t)w * w * sizeof *field));
    TRY(ptxemu_memset(env->ctx, dlist, 0, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dlist2, 0, (size_t)cells * 64 * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dsum, 0, (size_t)cells * sizeof *sum));
    TRY(ptxemu_memset(env->ctx, dleaves, 0, (size_t)cells * sizeof *leaves));

    ptxemu_dim3 grid = {(unsigned)nblocks, 1, 1}, block = {PB, 1, 1};
    uint32_t thr0 = CDP_AMR_THR0, thr1 = CDP_AMR_THR1;
    void *args[] = {&dfield, &w, &g, &thr0, &thr1, &dlist, &dlist2, &dsum, &dleaves};
    TRY(ptxemu_launch(env->mod, "amr_coarse", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, sum, dsum, (size_t)cells * sizeof *sum));
    TRY(ptxemu_memcpy_dtoh(env->ctx, leaves, dleaves, (size_t)cells * sizeof *leaves));
#undef TRY

    double t0 = bench_now();
    cdp_ref_amr(field, g, thr0, thr1, rsum, rleaves);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        rleaves[cells / 2 + g / 2] += 1; /* the centre cell */

    out = BENCH_PASS;
    for (int c = 0; c < cells; c++) {
        if (sum[c] != rsum[c] || leaves[c] != rleaves[c]) {
            snprintf(env->msg, sizeof env->msg,
                     "coarse cell %d: %u leaves summing to %llu, expected %u summing to %llu",
                     c, leaves[c], (unsigned long long)sum[c], rleaves[c],
                     (unsigned long long)rsum[c]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (dfield) ptxemu_free(env->ctx, dfield);
    if (dlist) ptxemu_free(env->ctx, dlist);
    if (dlist2) ptxemu_free(env->ctx, dlist2);
    if (dsum) ptxemu_free(env->ctx, dsum);
    if (dleaves) ptxemu_free(env->ctx, dleaves);
    free(field), free(sum), free(rsum), free(leaves), free(rleaves);
    return out;
}

const bench_def bench_cdp_amr = {
    "cdp-amr",
    "adaptive mesh refinement of a flame field, two levels of nested device-side launches",
    "cdp-amr/kernels.ptx", amr_run};
