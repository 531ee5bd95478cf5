/* benchmarks/cdp_inputs.c — the CDP benchmarks' generated inputs (see
 * cdp_inputs.h).  Sizes: tiny keeps every run well under a second in the
 * functional emulator; small (2^15 vertices: 512 parent TBs of 64
 * threads, 2.5 waves on the seed's 13 x 16 TB slots) is the LaPerm page's
 * reduced scale (docs/experiments/laperm.md); paper follows the seed's
 * inputs (citationCiteseer has 268,495 vertices; graph500 logn20; cage15 is
 * 5.15M rows, scaled here to 2^20 rows with its ~19 entries per row). */
#include "benchmarks/cdp_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cdp_graph_scale(cdp_graph_kind kind, bench_size size)
{
    switch (kind) {
    case CDP_GRAPH_CITATION:
        return size == BENCH_TINY ? 2048 : size == BENCH_SMALL ? 32768 : 268495;
    case CDP_GRAPH_GRAPH500:
        return size == BENCH_TINY ? 10 : size == BENCH_SMALL ? 15 : 20;
    case CDP_GRAPH_CAGE:
        return size == BENCH_TINY ? 2048 : size == BENCH_SMALL ? 32768 : 1 << 20;
    }
    return 0;
}

const char *cdp_graph_name(cdp_graph_kind kind)
{
    return kind == CDP_GRAPH_CITATION ? "citation" : kind == CDP_GRAPH_GRAPH500 ? "graph500"
                                                                                 : "cage";
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Edge list (both directions appended) -> sorted, deduplicated CSR. */
static bool build_csr(cdp_graph *g, int n, uint64_t *pairs, size_t np, uint64_t *rng)
{
    qsort(pairs, np, sizeof *pairs, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < np; i++)
        if (i == 0 || pairs[i] != pairs[i - 1])
            pairs[m++] = pairs[i];
    g->n = n;
    g->m = (int)m;
    g->row = calloc((size_t)n + 1, sizeof(int));
    g->col = malloc((m ? m : 1) * sizeof(int));
    g->w = malloc((m ? m : 1) * sizeof(int));
    if (!g->row || !g->col || !g->w)
        return false;
    for (size_t i = 0; i < m; i++) {
        int v = (int)(pairs[i] >> 32);
        g->row[v + 1]++;
        g->col[i] = (int)(uint32_t)pairs[i];
        g->w[i] = 1 + (int)(bench_rng_next(rng) % 100u);
    }
    for (int v = 0; v < n; v++)
        g->row[v + 1] += g->row[v];
    return true;
}

static void add_edge(uint64_t *pairs, size_t *np, int a, int b)
{
    if (a == b)
        return;
    pairs[(*np)++] = (uint64_t)(uint32_t)a << 32 | (uint32_t)b;
    pairs[(*np)++] = (uint64_t)(uint32_t)b << 32 | (uint32_t)a;
}

/* Each new vertex cites 1..7 earlier ones: half by preferential attachment
 * (the target of a random earlier citation, so popular papers get more),
 * half among the 64 most recent (citations cluster in time, so in ids). */
static size_t gen_citation(uint64_t *pairs, int n, uint64_t *rng)
{
    size_t np = 0;
    for (int v = 1; v < n; v++) {
        int k = 1 + (int)(bench_rng_next(rng) % 7u);
        for (int j = 0; j < k; j++) {
            uint64_t r = bench_rng_next(rng);
            int t;
            if ((r & 1) && np > 0)
                t = (int)(uint32_t)pairs[(r >> 1) % np]; /* an earlier edge's end */
            else {
                int lo = v > 64 ? v - 64 : 0;
                t = lo + (int)((r >> 1) % (uint64_t)(v - lo));
            }
            add_edge(pairs, &np, v, t);
        }
    }
    return np;
}

/* Graph500's Kronecker generator: 16 n edges, each placed by log n
 * quadrant choices with probabilities A=0.57, B=0.19, C=0.19, D=0.05;
 * vertex labels then shuffled so hubs are spread over the id space. */
static size_t gen_rmat(uint64_t *pairs, int scale, uint64_t *rng)
{
    int n = 1 << scale;
    int *perm = malloc((size_t)n * sizeof(int));
    if (!perm)
        return (size_t)-1;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(bench_rng_next(rng) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    size_t np = 0;
    for (long e = 0; e < 16L * n; e++) {
        int a = 0, b = 0;
        for (int l = 0; l < scale; l++) {
            uint32_t r = (uint32_t)(bench_rng_next(rng) % 100u);
            int qa = r >= 76;                      /* C and D: lower half */
            int qb = (r >= 57 && r < 76) || r >= 95; /* B and D: right half */
            a = a << 1 | qa;
            b = b << 1 | qb;
        }
        add_edge(pairs, &np, perm[a], perm[b]);
    }
    free(perm);
    return np;
}

/* A banded mesh like the cage matrices (DNA electrophoresis): every vertex
 * links to 9 forward neighbours at near, mid and far band offsets with a
 * jitter of +-1, so rows hold ~18 entries (cage15: 19) in a few bands. */
static size_t gen_cage(uint64_t *pairs, int n, uint64_t *rng)
{
    int s = 1;
    while (s * s < n)
        s++;
    /* offsets 3 apart, so the +-1 jitter never makes two of them collide */
    const int off[9] = {2, 5, 8, s - 3, s, s + 3, 2 * s, n / 16 + 1, n / 4 + 1};
    size_t np = 0;
    for (int v = 0; v < n; v++) {
        for (int j = 0; j < 9; j++) {
            int u = v + off[j] + (int)(bench_rng_next(rng) % 3u) - 1;
            if (u > v && u < n)
                add_edge(pairs, &np, v, u);
        }
    }
    return np;
}

bool cdp_graph_make(cdp_graph *g, cdp_graph_kind kind, bench_size size, uint64_t seed,
                    char *err)
{
    memset(g, 0, sizeof *g);
    int scale = cdp_graph_scale(kind, size);
    int n = kind == CDP_GRAPH_GRAPH500 ? 1 << scale : scale;
    size_t cap = kind == CDP_GRAPH_CITATION  ? (size_t)n * 14
                 : kind == CDP_GRAPH_GRAPH500 ? (size_t)n * 32
                                              : (size_t)n * 18;
    uint64_t *pairs = malloc(cap * sizeof *pairs);
    uint64_t rng = seed ^ (0x51ed270b7f3a4c1dull * (uint64_t)(kind + 1));
    if (!pairs) {
        snprintf(err, 256, "host allocation failed (%zu edge pairs)", cap);
        return false;
    }
    size_t np = kind == CDP_GRAPH_CITATION  ? gen_citation(pairs, n, &rng)
                : kind == CDP_GRAPH_GRAPH500 ? gen_rmat(pairs, scale, &rng)
                                             : gen_cage(pairs, n, &rng);
    bool ok = np != (size_t)-1 && build_csr(g, n, pairs, np, &rng);
    free(pairs);
    if (!ok) {
        snprintf(err, 256, "host allocation failed (graph %s)", cdp_graph_name(kind));
        cdp_graph_free(g);
    }
    return ok;
}

void cdp_graph_free(cdp_graph *g)
{
    free(g->row);
    free(g->col);
    free(g->w);
    memset(g, 0, sizeof *g);
}

int cdp_graph_max_degree(const cdp_graph *g)
{
    int best = 0;
    for (int v = 0; v < g->n; v++)
        if (g->row[v + 1] - g->row[v] > best)
            best = g->row[v + 1] - g->row[v];
    return best;
}

void cdp_join_keys(int *keys, int n, int range, bool gaussian, uint64_t *rng)
{
    for (int i = 0; i < n; i++) {
        if (!gaussian) {
            keys[i] = (int)(bench_rng_next(rng) % (uint64_t)range);
            continue;
        }
        uint64_t sum = 0;
        for (int k = 0; k < 12; k++)
            sum += bench_rng_next(rng) % (uint64_t)range;
        keys[i] = (int)(sum / 12u);
    }
}
