/* benchmarks/cdp_inputs.h — deterministic inputs for the dynamic-parallelism
 * (CDP) benchmarks, shaped like the LaPerm seed's (Table II): graphs in CSR
 * form (a power-law citation-like graph, an R-MAT graph500 graph, a
 * cage-like banded sparse mesh) and relational-join key columns (uniform,
 * Gaussian-like).  Everything comes from bench_rng_next (splitmix64), so the
 * same seed gives the same input on every platform. */
#ifndef PTXEMU_BENCH_CDP_INPUTS_H
#define PTXEMU_BENCH_CDP_INPUTS_H

#include "benchmarks/bench.h"

#include <stdbool.h>
#include <stdint.h>

/* An undirected simple graph in CSR form: row[v]..row[v+1] index col[]
 * (sorted, no self-loops, no repeats; u in v's list iff v in u's), w[] one
 * positive weight per directed entry (1..100). */
typedef struct cdp_graph {
    int n;
    int m; /* directed entries = 2 x undirected edges */
    int *row;
    int *col;
    int *w;
} cdp_graph;

typedef enum cdp_graph_kind {
    CDP_GRAPH_CITATION, /* preferential attachment + recency: power-law, local */
    CDP_GRAPH_GRAPH500, /* R-MAT (0.57, 0.19, 0.19), edge factor 16, labels permuted */
    CDP_GRAPH_CAGE,     /* banded mesh, 17-18 neighbours per vertex, like cage15 (19) */
} cdp_graph_kind;

/* Vertex count (citation, cage) or log2 of it (graph500) per size. */
int cdp_graph_scale(cdp_graph_kind kind, bench_size size);
const char *cdp_graph_name(cdp_graph_kind kind);
/* Builds the graph; false (and a message in err, 256 bytes) when a host
 * allocation fails. */
bool cdp_graph_make(cdp_graph *g, cdp_graph_kind kind, bench_size size, uint64_t seed,
                    char *err);
void cdp_graph_free(cdp_graph *g);
int cdp_graph_max_degree(const cdp_graph *g);

/* A join key column: n keys in [0, range); uniform, or the sum of 12
 * uniforms (Irwin-Hall, a Gaussian of mean range/2, sd ~ range/12). */
void cdp_join_keys(int *keys, int n, int range, bool gaussian, uint64_t *rng);

/* cdp-regx (cdp_regx_inputs.c): a string collection (string i is
 * text[off[i] .. off[i+1])) and the anchored DFA of the signature
 * alternation: next[state * 256 + byte] (-1: no signature continues),
 * out[state] signatures ending there, first[byte] 1 if a signature starts
 * with it.  State 0 is the start. */
typedef enum cdp_regx_kind {
    CDP_REGX_DARPA,  /* packet payloads shaped like the DARPA 1999 traces' */
    CDP_REGX_STRING, /* random printable strings of 16-512 characters */
} cdp_regx_kind;
typedef struct cdp_strings {
    int n;
    int *off;
    unsigned char *text;
} cdp_strings;
typedef struct cdp_regx_dfa {
    int nstates;
    int *next;
    int *out;
    unsigned char first[256];
} cdp_regx_dfa;
int cdp_regx_count(cdp_regx_kind kind, bench_size size);
const char *cdp_regx_name(cdp_regx_kind kind);
int cdp_regx_nsignatures(void);
const char *cdp_regx_signature(int i);
bool cdp_regx_dfa_make(cdp_regx_dfa *d);
void cdp_regx_dfa_free(cdp_regx_dfa *d);
bool cdp_strings_make(cdp_strings *c, cdp_regx_kind kind, bench_size size, uint64_t seed,
                      char *err);
void cdp_strings_free(cdp_strings *c);

/* cdp-pre (cdp_pre_inputs.c): ratings by user in CSR form (user u rated
 * uitem[urow[u] .. urow[u+1]), ascending, with urate[] stars 1-5) and the
 * item-based model: item i's CDP_PRE_K neighbours nbr[i * K + q] with
 * similarity nsim[i * K + q] (cosine x 1000, descending). */
#define CDP_PRE_K 20
typedef struct cdp_ratings {
    int users, items, nratings;
    int *urow, *uitem, *urate;
    int *nbr, *nsim;
} cdp_ratings;
void cdp_pre_shape(bench_size size, int *users, int *items, int *ratings);
bool cdp_ratings_make(cdp_ratings *r, bench_size size, uint64_t seed, char *err);
void cdp_ratings_free(cdp_ratings *r);

#endif
