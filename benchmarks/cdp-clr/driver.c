/* benchmarks/cdp-clr/driver.c — Jones-Plassmann graph colouring with
 * device-side launches (LaPerm seed's clr) on the three graph shapes:
 * cdp-clr-citation, cdp-clr-graph500, cdp-clr-cage (benchmarks/cdp_inputs.c;
 * at size small the tiny graphs, see below).
 * Priorities: one random 32-bit value per vertex (ties to the higher id).
 * Host flow: per round launch clr_parent (64-thread TBs; a vertex with more
 * than CDP_CLR_THRESH neighbours is checked by a child TB), clear `left`,
 * launch clr_assign (colour = round for every unbeaten vertex), read
 * `left`, stop when every vertex is coloured.
 * Check: exact, every colour equals the CPU's round-by-round JP colouring. */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define AB 256
#define CDP_CLR_THRESH 16

static bench_outcome clr_run(bench_env *env, cdp_graph_kind kind)
{
    cdp_graph g;
    char err[256];
    /* small uses the tiny graphs: Jones-Plassmann needs a round (two host
     * launches over every vertex) per colour, which made one timing run of
     * the 2^15-vertex graphs cost 12 (citation) to over 100 (graph500) CPU
     * seconds, beyond the LaPerm page's budget (docs/experiments/laperm.md) */
    bench_size gsize = env->size == BENCH_SMALL ? BENCH_TINY : env->size;
    if (!cdp_graph_make(&g, kind, gsize, env->seed, err)) {
        snprintf(env->msg, sizeof env->msg, "%s", err);
        return BENCH_ERROR;
    }
    int n = g.n, nblocks = (n + PB - 1) / PB;
    uint32_t *prio = malloc((size_t)n * sizeof *prio);
    int *colour = malloc((size_t)n * sizeof(int));
    int *ref = malloc((size_t)n * sizeof(int));
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr drow = 0, dcol = 0, dprio = 0, dcolour = 0, dlose = 0, dheavy = 0, dleft = 0;
    if (!prio || !colour || !ref) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    uint64_t rng = env->seed * 0x2545f4914f6cdd1dull + 7;
    for (int v = 0; v < n; v++) {
        prio[v] = (uint32_t)(bench_rng_next(&rng) >> 32);
        colour[v] = -1;
    }

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &drow, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dcol, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dprio, (size_t)n * sizeof(uint32_t)));
    TRY(ptxemu_malloc(env->ctx, &dcolour, (size_t)n * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dlose, (size_t)n));
    TRY(ptxemu_malloc(env->ctx, &dheavy, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dleft, sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, drow, g.row, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dcol, g.col, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dprio, prio, (size_t)n * sizeof(uint32_t)));
    TRY(ptxemu_memcpy_htod(env->ctx, dcolour, colour, (size_t)n * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dlose, 0, (size_t)n));
    TRY(ptxemu_memset(env->ctx, dheavy, 0, (size_t)nblocks * PB * sizeof(int)));

    ptxemu_dim3 pgrid = {(unsigned)nblocks, 1, 1}, pblock = {PB, 1, 1};
    ptxemu_dim3 agrid = {((unsigned)n + AB - 1) / AB, 1, 1}, ablock = {AB, 1, 1};
    int thresh = CDP_CLR_THRESH, left, round = 0;
    void *pargs[] = {&drow, &dcol, &dprio, &dcolour, &dlose, &dheavy, &n, &thresh};
    void *aargs[] = {&dcolour, &dlose, &dleft, &n, &round};
    do {
        left = 0;
        TRY(ptxemu_launch(env->mod, "clr_parent", pgrid, pblock, 0, pargs));
        TRY(ptxemu_memcpy_htod(env->ctx, dleft, &left, sizeof left));
        TRY(ptxemu_launch(env->mod, "clr_assign", agrid, ablock, 0, aargs));
        TRY(ptxemu_memcpy_dtoh(env->ctx, &left, dleft, sizeof left));
        if (++round > n) {
            snprintf(env->msg, sizeof env->msg, "clr did not finish after %d rounds", round);
            out = BENCH_FAIL;
            goto done;
        }
    } while (left);
    TRY(ptxemu_memcpy_dtoh(env->ctx, colour, dcolour, (size_t)n * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    int ref_rounds = cdp_ref_clr(&g, prio, ref);
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n / 2] += 1;

    out = BENCH_PASS;
    for (int v = 0; v < n; v++) {
        if (colour[v] != ref[v]) {
            snprintf(env->msg, sizeof env->msg,
                     "%s: colour[%d] = %d, expected %d (%d rounds, reference %d)",
                     cdp_graph_name(kind), v, colour[v], ref[v], round, ref_rounds);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (drow) ptxemu_free(env->ctx, drow);
    if (dcol) ptxemu_free(env->ctx, dcol);
    if (dprio) ptxemu_free(env->ctx, dprio);
    if (dcolour) ptxemu_free(env->ctx, dcolour);
    if (dlose) ptxemu_free(env->ctx, dlose);
    if (dheavy) ptxemu_free(env->ctx, dheavy);
    if (dleft) ptxemu_free(env->ctx, dleft);
    free(prio);
    free(colour);
    free(ref);
    cdp_graph_free(&g);
    return out;
}

static bench_outcome clr_citation(bench_env *env) { return clr_run(env, CDP_GRAPH_CITATION); }
static bench_outcome clr_graph500(bench_env *env) { return clr_run(env, CDP_GRAPH_GRAPH500); }
static bench_outcome clr_cage(bench_env *env) { return clr_run(env, CDP_GRAPH_CAGE); }

const bench_def bench_cdp_clr_citation = {
    "cdp-clr-citation",
    "Jones-Plassmann colouring with device-side child launches, citation-like graph",
    "cdp-clr/kernels.ptx", clr_citation};
const bench_def bench_cdp_clr_graph500 = {
    "cdp-clr-graph500",
    "Jones-Plassmann colouring with device-side child launches, R-MAT graph500",
    "cdp-clr/kernels.ptx", clr_graph500};
const bench_def bench_cdp_clr_cage = {
    "cdp-clr-cage",
    "Jones-Plassmann colouring with device-side child launches, cage-like mesh",
    "cdp-clr/kernels.ptx", clr_cage};
