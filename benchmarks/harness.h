/* benchmarks/harness.h — the runner shared by `ptxemu bench` and the tests. */
#ifndef PTXEMU_BENCH_HARNESS_H
#define PTXEMU_BENCH_HARNESS_H

#include "benchmarks/bench.h"

#include <stdbool.h>
#include <stdint.h>

/* Absolute path of a benchmark's committed PTX ($PTXEMU_SOURCE_DIR or the
 * source tree it was built from).  Free with g_free. */
char *bench_ptx_path(const bench_def *b);
/* "tiny" | "small" | "paper" | "claso" | "thesis" */
bool bench_parse_size(const char *s, bench_size *out);
/* The size's name, as bench_parse_size reads it. */
const char *bench_size_name(bench_size s);
/* Whether b's driver defines `s` (tiny, small and paper: always). */
bool bench_has_size(const bench_def *b, bench_size s);
/* Runs one benchmark and prints its result line; 0 = PASS. */
int bench_run_one(const bench_def *b, bench_size size, uint64_t seed, bool break_ref,
                  bool quiet);
/* The same with context options (NULL: defaults).  With opts->timing the
 * timing summary follows the result line unless `quiet`. */
int bench_run_one_opts(const bench_def *b, bench_size size, uint64_t seed, bool break_ref,
                       bool quiet, const ptxemu_options *opts);
/* Runs the driver in a fresh context made from `opts` and keeps the
 * context for inspection (counters, timing statistics); the caller destroys
 * it.  Returns the outcome; env_msg (512 bytes) gets the driver's message. */
bench_outcome bench_run_ctx(const bench_def *b, bench_size size, uint64_t seed,
                            const ptxemu_options *opts, ptxemu_ctx **ctx_out,
                            char *env_msg);
/* The same, with the perturbed-reference test hook, also giving the wall
 * time of the driver's CPU reference. */
bench_outcome bench_run_ctx_ref(const bench_def *b, bench_size size, uint64_t seed,
                                const ptxemu_options *opts, bool break_ref,
                                ptxemu_ctx **ctx_out, char *env_msg, double *ref_seconds);

/* Two benchmarks concurrently in one fresh context made from `opts`
 * (benchmarks/pair.c): each driver's launches go to its own stream.  The
 * context is kept for inspection (the caller destroys it, also on failure);
 * out[i] and msg[i] (512 bytes) are each driver's outcome and message.
 * False when the context or a module could not be set up. */
bool bench_run_pair_ctx(const bench_def *const defs[2], bench_size size, uint64_t seed,
                        const ptxemu_options *opts, ptxemu_ctx **ctx_out,
                        bench_outcome out[2], char msg[2][512]);

#endif
