/* benchmarks/harness.h — the runner shared by `ptxemu bench` and the tests. */
#ifndef PTXEMU_BENCH_HARNESS_H
#define PTXEMU_BENCH_HARNESS_H

#include "benchmarks/bench.h"

#include <stdbool.h>
#include <stdint.h>

/* Absolute path of a benchmark's committed PTX ($PTXEMU_SOURCE_DIR or the
 * source tree it was built from).  Free with g_free. */
char *bench_ptx_path(const bench_def *b);
/* "tiny" | "small" | "paper" */
bool bench_parse_size(const char *s, bench_size *out);
/* Runs one benchmark and prints its result line; 0 = PASS. */
int bench_run_one(const bench_def *b, bench_size size, uint64_t seed, bool break_ref,
                  bool quiet);

#endif
