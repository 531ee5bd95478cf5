/* benchmarks/cdp-sssp/driver.c — SSSP with device-side launches (LaPerm
 * seed's sssp) on the three graph shapes: cdp-sssp-citation,
 * cdp-sssp-graph500, cdp-sssp-cage (benchmarks/cdp_inputs.c; weights 1..100
 * per directed entry).  Source: the vertex of highest degree.
 * Host flow: per step clear `changed`, launch sssp_parent (frontier
 * relaxation into dist_new, 64-thread TBs; a vertex with more than
 * CDP_SSSP_THRESH edges goes to a child TB) and sssp_update (improved
 * vertices form the next frontier), read `changed`, stop when nothing
 * improves.
 * Check: exact, every distance equals the CPU's Dijkstra. */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define UB 256
#define CDP_SSSP_THRESH 16

static bench_outcome sssp_run(bench_env *env, cdp_graph_kind kind)
{
    cdp_graph g;
    char err[256];
    if (!cdp_graph_make(&g, kind, env->size, env->seed, err)) {
        snprintf(env->msg, sizeof env->msg, "%s", err);
        return BENCH_ERROR;
    }
    int n = g.n, src = 0, nblocks = (n + PB - 1) / PB;
    for (int v = 1; v < n; v++)
        if (g.row[v + 1] - g.row[v] > g.row[src + 1] - g.row[src])
            src = v;
    int *dist = malloc((size_t)n * sizeof(int));
    int *ref = malloc((size_t)n * sizeof(int));
    unsigned char *front = calloc((size_t)n, 1);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr drow = 0, dcol = 0, dw = 0, dfront = 0, ddist = 0, dnew = 0, dheavy = 0;
    ptxemu_dptr dchanged = 0;
    if (!dist || !ref || !front) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    for (int v = 0; v < n; v++)
        dist[v] = INT32_MAX;
    dist[src] = 0;
    front[src] = 1;

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &drow, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dcol, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dw, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dfront, (size_t)n));
    TRY(ptxemu_malloc(env->ctx, &ddist, (size_t)n * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dnew, (size_t)n * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dheavy, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dchanged, sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, drow, g.row, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dcol, g.col, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dw, g.w, (size_t)g.m * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dfront, front, (size_t)n));
    TRY(ptxemu_memcpy_htod(env->ctx, ddist, dist, (size_t)n * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dnew, dist, (size_t)n * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dheavy, 0, (size_t)nblocks * PB * sizeof(int)));

    ptxemu_dim3 pgrid = {(unsigned)nblocks, 1, 1}, pblock = {PB, 1, 1};
    ptxemu_dim3 ugrid = {((unsigned)n + UB - 1) / UB, 1, 1}, ublock = {UB, 1, 1};
    int thresh = CDP_SSSP_THRESH, changed, steps = 0;
    void *pargs[] = {&drow, &dcol, &dw, &dfront, &ddist, &dnew, &dheavy, &n, &thresh};
    void *uargs[] = {&dfront, &ddist, &dnew, &dchanged, &n};
    do {
        changed = 0;
        TRY(ptxemu_memcpy_htod(env->ctx, dchanged, &changed, sizeof changed));
        TRY(ptxemu_launch(env->mod, "sssp_parent", pgrid, pblock, 0, pargs));
        TRY(ptxemu_launch(env->mod, "sssp_update", ugrid, ublock, 0, uargs));
        TRY(ptxemu_memcpy_dtoh(env->ctx, &changed, dchanged, sizeof changed));
        if (++steps > n) {
            snprintf(env->msg, sizeof env->msg, "sssp did not converge after %d steps", steps);
            out = BENCH_FAIL;
            goto done;
        }
    } while (changed);
    TRY(ptxemu_memcpy_dtoh(env->ctx, dist, ddist, (size_t)n * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    if (!cdp_ref_sssp(&g, src, ref)) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed (reference)");
        goto done;
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[g.col[g.row[src]]] += 1;

    out = BENCH_PASS;
    for (int v = 0; v < n; v++) {
        if (dist[v] != ref[v]) {
            snprintf(env->msg, sizeof env->msg,
                     "%s: dist[%d] = %d, expected %d (source %d, %d steps)",
                     cdp_graph_name(kind), v, dist[v], ref[v], src, steps);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (drow) ptxemu_free(env->ctx, drow);
    if (dcol) ptxemu_free(env->ctx, dcol);
    if (dw) ptxemu_free(env->ctx, dw);
    if (dfront) ptxemu_free(env->ctx, dfront);
    if (ddist) ptxemu_free(env->ctx, ddist);
    if (dnew) ptxemu_free(env->ctx, dnew);
    if (dheavy) ptxemu_free(env->ctx, dheavy);
    if (dchanged) ptxemu_free(env->ctx, dchanged);
    free(dist);
    free(ref);
    free(front);
    cdp_graph_free(&g);
    return out;
}

static bench_outcome sssp_citation(bench_env *env) { return sssp_run(env, CDP_GRAPH_CITATION); }
static bench_outcome sssp_graph500(bench_env *env) { return sssp_run(env, CDP_GRAPH_GRAPH500); }
static bench_outcome sssp_cage(bench_env *env) { return sssp_run(env, CDP_GRAPH_CAGE); }

const bench_def bench_cdp_sssp_citation = {
    "cdp-sssp-citation",
    "SSSP (frontier Bellman-Ford, atomicMin) with device-side child launches, citation-like graph",
    "cdp-sssp/kernels.ptx", sssp_citation};
const bench_def bench_cdp_sssp_graph500 = {
    "cdp-sssp-graph500",
    "SSSP (frontier Bellman-Ford, atomicMin) with device-side child launches, R-MAT graph500",
    "cdp-sssp/kernels.ptx", sssp_graph500};
const bench_def bench_cdp_sssp_cage = {
    "cdp-sssp-cage",
    "SSSP (frontier Bellman-Ford, atomicMin) with device-side child launches, cage-like mesh",
    "cdp-sssp/kernels.ptx", sssp_cage};
