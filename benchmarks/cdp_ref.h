/* benchmarks/cdp_ref.h — CPU references of the dynamic-parallelism (CDP)
 * benchmarks, shared by their drivers and checked against second,
 * independent algorithms in tests/bench/test_cdp_refs.c.  Each one computes
 * the answer the sequential way, not the way the kernels split the work. */
#ifndef PTXEMU_BENCH_CDP_REF_H
#define PTXEMU_BENCH_CDP_REF_H

#include "benchmarks/cdp_inputs.h"

#include <stdbool.h>
#include <stdint.h>

/* Hops from src (-1: unreachable), by a FIFO queue. */
bool cdp_ref_bfs(const cdp_graph *g, int src, int *level);
/* Shortest weighted distance from src (INT32_MAX: unreachable), Dijkstra
 * with a binary heap. */
bool cdp_ref_sssp(const cdp_graph *g, int src, int *dist);
/* Jones-Plassmann colouring with colour = round: in round r every
 * uncoloured vertex that beats all its uncoloured neighbours (higher prio,
 * ties to the higher id) takes colour r.  Returns the number of rounds. */
int cdp_ref_clr(const cdp_graph *g, const uint32_t *prio, int *colour);
bool cdp_clr_beats(const uint32_t *prio, int u, int v);

/* Equi-join of S against R sorted by key: for S tuple s its matches are
 * R rows first[s] .. first[s] + count[s] - 1 (first = nR when none).  Keys
 * lie in [0, range). */
bool cdp_ref_join(const int *rkey, int nr, const int *skey, int ns, int range, int *first,
                  int *count);

/* AMR: a field of (32 G + 1)^2 samples (row-major, width w = 32 G + 1);
 * coarse cells of 32 x 32 units refine to 8 x 8 cells of 4 units when the
 * spread of their 4 corner samples exceeds thr0, those to 4 x 4 cells of 1
 * unit when it exceeds thr1.  Per coarse cell: sum of (lower-left sample x
 * area) over its leaves, and the leaf count. */
#define CDP_AMR_COARSE 32
#define CDP_AMR_MID 4
void cdp_ref_amr(const uint32_t *field, int g, uint32_t thr0, uint32_t thr1, uint64_t *sum,
                 uint32_t *leaves);
uint32_t cdp_amr_spread(const uint32_t *field, int w, int x, int y, int s);

/* Barnes-Hut quadtree over n points sorted by 32-bit Morton code (x bits
 * even, y bits odd): the node at depth d holding points [lo, hi) is slot
 * d * n + lo (count, sum of x, sum of y); a node with more than leafcap
 * points and depth + 1 < maxdepth splits into its 4 quadrants. */
uint32_t cdp_morton(uint32_t x, uint32_t y);
void cdp_ref_bht(const uint32_t *code, const uint32_t *px, const uint32_t *py, int n,
                 int maxdepth, int leafcap, int *ncnt, uint64_t *nsx, uint64_t *nsy);

/* Matches of the signature alternation in string [s, s + len): the number
 * of (start position, signature) pairs where the signature occurs, found by
 * comparing every signature at every position. */
int cdp_ref_regx(const unsigned char *s, int len);

/* Item-based CF prediction for user u: score[i] = sum over u's ratings
 * (item j, stars r) and j's neighbours (i, sim) of sim x (10 r - mean10),
 * mean10 = 10 x (u's star sum) / (u's count), integer division; best =
 * the unrated item of highest score (ties: lowest id).  score has
 * r->items entries. */
int cdp_ref_pre_user(const cdp_ratings *r, int u, long long *score, long long *best_score);

#endif
