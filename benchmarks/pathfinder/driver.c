/* benchmarks/pathfinder/driver.c — Rodinia-style pathfinder: minimum-cost
 * top-to-bottom path through a grid of weights 0..9, moving down or
 * diagonally one column per row.
 *
 * Host flow: the first row is the initial cost; then launches of
 * pathfinder_rows advance `pyramid` rows each (fewer for the last),
 * ping-ponging two cost rows.
 * Columns x rows, pyramid height, CTAs of 256 threads per launch:
 *   tiny     4,096 x 21,  10: 18 CTAs x 2 launches
 *   small   20,000 x 100, 20: 93 CTAs x 5 launches
 *   paper  100,000 x 100, 20: 463 CTAs x 5 launches (Rodinia's usual run;
 *          the thesis's Table 4.2 uses 256-thread CTAs, its Table 4.4 counts
 *          46,297 CTAs, a longer run than this one)
 * The check is exact: the last row's costs equal the CPU's row-by-row DP. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define PF_BLOCK 256

static bench_outcome pathfinder_run(bench_env *env)
{
    int cols, rows, pyramid;
    switch (env->size) {
    case BENCH_TINY: cols = 4096; rows = 21; pyramid = 10; break;
    case BENCH_SMALL: cols = 20000; rows = 100; pyramid = 20; break;
    /* thesis Table 4.4: one launch of ceil(1e7 / 216) = 46297 CTAs */
    case BENCH_THESIS: cols = 10000000; rows = 21; pyramid = 20; break;
    default: cols = 100000; rows = 100; pyramid = 20; break;
    }
    size_t cells = (size_t)cols * rows;
    size_t rowbytes = (size_t)cols * sizeof(int);
    int *wall = malloc(cells * sizeof(int));
    int *got = malloc(rowbytes), *ra = malloc(rowbytes), *rb = malloc(rowbytes);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dwall = 0, drow[2] = {0, 0};
    if (!wall || !got || !ra || !rb) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (size_t i = 0; i < cells; i++)
        wall[i] = (int)(bench_rng_next(&rng) % 10u);

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dwall, cells * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &drow[0], rowbytes));
    TRY(ptxemu_malloc(env->ctx, &drow[1], rowbytes));
    TRY(ptxemu_memcpy_htod(env->ctx, dwall, wall, cells * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, drow[0], wall, rowbytes)); /* row 0 */
    int src = 0;
    for (int r = 1; r < rows;) {
        int steps = rows - r < pyramid ? rows - r : pyramid;
        unsigned valid = (unsigned)(PF_BLOCK - 2 * steps);
        ptxemu_dim3 grid = {((unsigned)cols + valid - 1) / valid, 1, 1};
        ptxemu_dim3 block = {PF_BLOCK, 1, 1};
        void *args[] = {&dwall, &drow[src], &drow[1 - src], &cols, &r, &steps};
        TRY(ptxemu_launch(env->mod, "pathfinder_rows", grid, block, 0, args));
        src = 1 - src;
        r += steps;
    }
    TRY(ptxemu_memcpy_dtoh(env->ctx, got, drow[src], rowbytes));
#undef TRY

    double t0 = bench_now();
    int *prev = ra, *cur = rb;
    for (int c = 0; c < cols; c++)
        prev[c] = wall[c];
    for (int r = 1; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = prev[c];
            if (c > 0 && prev[c - 1] < best)
                best = prev[c - 1];
            if (c < cols - 1 && prev[c + 1] < best)
                best = prev[c + 1];
            cur[c] = wall[(size_t)r * cols + c] + best;
        }
        int *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        prev[cols / 2] += 1;

    out = BENCH_PASS;
    for (int c = 0; c < cols; c++) {
        if (got[c] != prev[c]) {
            snprintf(env->msg, sizeof env->msg,
                     "cost[row %d][col %d] = %d, expected %d", rows - 1, c,
                     got[c], prev[c]);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (dwall) ptxemu_free(env->ctx, dwall);
    if (drow[0]) ptxemu_free(env->ctx, drow[0]);
    if (drow[1]) ptxemu_free(env->ctx, drow[1]);
    free(wall);
    free(got);
    free(ra);
    free(rb);
    return out;
}

const bench_def bench_pathfinder = {
    "pathfinder",
    "minimum-cost path DP over a weight grid, rows advanced in shared memory (pyramid), ping-pong rows",
    "pathfinder/kernels.ptx", pathfinder_run};
