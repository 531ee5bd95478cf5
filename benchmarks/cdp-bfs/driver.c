/* benchmarks/cdp-bfs/driver.c — BFS with device-side launches (LaPerm seed's
 * bfs) on the three graph shapes of its Table II: cdp-bfs-citation,
 * cdp-bfs-graph500, cdp-bfs-cage (benchmarks/cdp_inputs.c; tiny 2,048
 * vertices, small 32,768, paper 268,495 / 2^20 / 2^20).
 * Source: the vertex of highest degree (lowest id on ties), so every graph
 * is searched from its giant component.  Host flow: per level clear
 * `changed`, launch bfs_parent (64-thread TBs, one per 64 vertices; a vertex
 * with more than CDP_BFS_THRESH neighbours goes to a child TB), read
 * `changed`, stop when a level discovers nothing.
 * Check: exact, every vertex's level equals the CPU's queue BFS. */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define CDP_BFS_THRESH 16

static int max_degree_vertex(const cdp_graph *g)
{
    int best = 0;
    for (int v = 1; v < g->n; v++)
        if (g->row[v + 1] - g->row[v] > g->row[best + 1] - g->row[best])
            best = v;
    return best;
}

static bench_outcome bfs_run(bench_env *env, cdp_graph_kind kind)
{
    cdp_graph g;
    char err[256];
    if (!cdp_graph_make(&g, kind, env->size, env->seed, err)) {
        snprintf(env->msg, sizeof env->msg, "%s", err);
        return BENCH_ERROR;
    }
    int n = g.n, src = max_degree_vertex(&g), nblocks = (n + PB - 1) / PB;
    int *level = malloc((size_t)n * sizeof(int));
    int *ref = malloc((size_t)n * sizeof(int));
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr drow = 0, dcol = 0, dlevel = 0, dheavy = 0, dchanged = 0;
    if (!level || !ref) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    for (int v = 0; v < n; v++)
        level[v] = -1;
    level[src] = 0;

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &drow, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dcol, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dlevel, (size_t)n * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dheavy, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dchanged, sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, drow, g.row, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dcol, g.col, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dlevel, level, (size_t)n * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dheavy, 0, (size_t)nblocks * PB * sizeof(int)));

    ptxemu_dim3 grid = {(unsigned)nblocks, 1, 1}, block = {PB, 1, 1};
    int cur = 0, thresh = CDP_BFS_THRESH, changed;
    void *args[] = {&drow, &dcol, &dlevel, &dheavy, &n, &cur, &thresh, &dchanged};
    do {
        changed = 0;
        TRY(ptxemu_memcpy_htod(env->ctx, dchanged, &changed, sizeof changed));
        TRY(ptxemu_launch(env->mod, "bfs_parent", grid, block, 0, args));
        TRY(ptxemu_memcpy_dtoh(env->ctx, &changed, dchanged, sizeof changed));
        if (++cur > n) {
            snprintf(env->msg, sizeof env->msg, "bfs did not converge after %d levels", cur);
            out = BENCH_FAIL;
            goto done;
        }
    } while (changed);
    TRY(ptxemu_memcpy_dtoh(env->ctx, level, dlevel, (size_t)n * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    if (!cdp_ref_bfs(&g, src, ref)) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed (reference)");
        goto done;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[g.col[g.row[src]]] += 1; /* a neighbour of the source */

    out = BENCH_PASS;
    for (int v = 0; v < n; v++) {
        if (level[v] != ref[v]) {
            snprintf(env->msg, sizeof env->msg,
                     "%s: level[%d] = %d, expected %d (source %d, %d levels)",
                     cdp_graph_name(kind), v, level[v], ref[v], src, cur);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (drow) ptxemu_free(env->ctx, drow);
    if (dcol) ptxemu_free(env->ctx, dcol);
    if (dlevel) ptxemu_free(env->ctx, dlevel);
    if (dheavy) ptxemu_free(env->ctx, dheavy);
    if (dchanged) ptxemu_free(env->ctx, dchanged);
    free(level);
    free(ref);
    cdp_graph_free(&g);
    return out;
}

static bench_outcome bfs_citation(bench_env *env) { return bfs_run(env, CDP_GRAPH_CITATION); }
static bench_outcome bfs_graph500(bench_env *env) { return bfs_run(env, CDP_GRAPH_GRAPH500); }
static bench_outcome bfs_cage(bench_env *env) { return bfs_run(env, CDP_GRAPH_CAGE); }

const bench_def bench_cdp_bfs_citation = {
    "cdp-bfs-citation",
    "BFS with device-side child launches per heavy vertex, power-law citation-like graph",
    "cdp-bfs/kernels.ptx", bfs_citation};
const bench_def bench_cdp_bfs_graph500 = {
    "cdp-bfs-graph500",
    "BFS with device-side child launches per heavy vertex, R-MAT graph500 graph",
    "cdp-bfs/kernels.ptx", bfs_graph500};
const bench_def bench_cdp_bfs_cage = {
    "cdp-bfs-cage",
    "BFS with device-side child launches per heavy vertex, cage-like banded mesh",
    "cdp-bfs/kernels.ptx", bfs_cage};
