/* benchmarks/bfs/driver.c — Rodinia-style level-synchronous BFS.
 *
 * Graph: n nodes, each with 2..10 out-edges to uniformly random nodes
 * (self-edges and repeats allowed, as in a random edge list); source 0.
 * Nodes (= threads, 512 per CTA): tiny 4,096 (8 CTAs), small 16,384 (32),
 * paper 65,536 (128 CTAs x 512 per launch; with seed 1 the search takes 10
 * steps = 20 launches = 2,560 CTAs, the CLASO seed's Table 2 BFS).
 * Host flow: clear `changed`, launch bfs_expand then bfs_update, read
 * `changed`, repeat until a step discovers nothing.
 * The check is exact: every node's cost (hops from the source, -1 when
 * unreachable) equals the CPU's queue-based BFS. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BFS_BLOCK 512u

static bench_outcome bfs_run(bench_env *env)
{
    int n = env->size == BENCH_TINY    ? 4096
            : env->size == BENCH_SMALL ? 16384
                                       : 65536; /* paper and claso: CLASO Table 2 "BFS",
                                                   128 CTAs x 20 launches = 2,560 */
    int *nodes = malloc((size_t)n * 2 * sizeof(int)); /* (first, degree) */
    int *edges = malloc((size_t)n * 10 * sizeof(int));
    int *cost = malloc((size_t)n * sizeof(int));
    int *ref = malloc((size_t)n * sizeof(int));
    int *queue = malloc((size_t)n * sizeof(int));
    unsigned char *mask = malloc((size_t)n);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dnodes = 0, dedges = 0, dfront = 0, dupd = 0, dvis = 0;
    ptxemu_dptr dcost = 0, dchanged = 0;
    if (!nodes || !edges || !cost || !ref || !queue || !mask) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    int nedges = 0;
    for (int v = 0; v < n; v++) {
        int degree = 2 + (int)(bench_rng_next(&rng) % 9u);
        nodes[2 * v] = nedges;
        nodes[2 * v + 1] = degree;
        for (int k = 0; k < degree; k++)
            edges[nedges++] = (int)(bench_rng_next(&rng) % (unsigned)n);
    }
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    cost[0] = 0;

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dnodes, (size_t)n * 2 * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dedges, (size_t)nedges * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dfront, (size_t)n));
    TRY(ptxemu_malloc(env->ctx, &dupd, (size_t)n));
    TRY(ptxemu_malloc(env->ctx, &dvis, (size_t)n));
    TRY(ptxemu_malloc(env->ctx, &dcost, (size_t)n * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dchanged, sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dnodes, nodes, (size_t)n * 2 * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dedges, edges, (size_t)nedges * sizeof(int)));
    memset(mask, 0, (size_t)n);
    mask[0] = 1; /* the source is the first frontier and is visited */
    TRY(ptxemu_memcpy_htod(env->ctx, dfront, mask, (size_t)n));
    TRY(ptxemu_memcpy_htod(env->ctx, dvis, mask, (size_t)n));
    TRY(ptxemu_memset(env->ctx, dupd, 0, (size_t)n));
    TRY(ptxemu_memcpy_htod(env->ctx, dcost, cost, (size_t)n * sizeof(int)));

    ptxemu_dim3 grid = {((unsigned)n + BFS_BLOCK - 1) / BFS_BLOCK, 1, 1};
    ptxemu_dim3 block = {BFS_BLOCK, 1, 1};
    void *expand_args[] = {&dnodes, &dedges, &dfront, &dupd, &dvis, &dcost, &n};
    void *update_args[] = {&dfront, &dupd, &dvis, &dchanged, &n};
    int changed, steps = 0;
    do {
        changed = 0;
        TRY(ptxemu_memcpy_htod(env->ctx, dchanged, &changed, sizeof changed));
        TRY(ptxemu_launch(env->mod, "bfs_expand", grid, block, 0, expand_args));
        TRY(ptxemu_launch(env->mod, "bfs_update", grid, block, 0, update_args));
        TRY(ptxemu_memcpy_dtoh(env->ctx, &changed, dchanged, sizeof changed));
        if (++steps > n + 1) {
            snprintf(env->msg, sizeof env->msg,
                     "bfs did not converge after %d steps", steps);
            out = BENCH_FAIL;
            goto done;
        }
    } while (changed);
    TRY(ptxemu_memcpy_dtoh(env->ctx, cost, dcost, (size_t)n * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    for (int v = 0; v < n; v++)
        ref[v] = -1;
    ref[0] = 0;
    int head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = nodes[2 * v]; e < nodes[2 * v] + nodes[2 * v + 1]; e++) {
            int u = edges[e];
            if (ref[u] < 0) {
                ref[u] = ref[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[queue[tail / 2]] += 1;

    out = BENCH_PASS;
    for (int v = 0; v < n; v++) {
        if (cost[v] != ref[v]) {
            snprintf(env->msg, sizeof env->msg,
                     "cost[%d] = %d, expected %d (after %d steps)", v, cost[v],
                     ref[v], steps);
            out = BENCH_FAIL;
            break;
        }
    }
done:
    if (dnodes) ptxemu_free(env->ctx, dnodes);
    if (dedges) ptxemu_free(env->ctx, dedges);
    if (dfront) ptxemu_free(env->ctx, dfront);
    if (dupd) ptxemu_free(env->ctx, dupd);
    if (dvis) ptxemu_free(env->ctx, dvis);
    if (dcost) ptxemu_free(env->ctx, dcost);
    if (dchanged) ptxemu_free(env->ctx, dchanged);
    free(nodes);
    free(edges);
    free(cost);
    free(ref);
    free(queue);
    free(mask);
    return out;
}

const bench_def bench_bfs = {
    "bfs",
    "level-synchronous breadth-first search (frontier/updating/visited masks, two kernels per step)",
    "bfs/kernels.ptx", bfs_run};
