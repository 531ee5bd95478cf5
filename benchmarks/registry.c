/* benchmarks/registry.c — every benchmark the project ships, by name.
 * Each group's list lives in its own .inc file: one BENCH(sym) line per
 * benchmark, where `extern const bench_def sym;` is defined by its driver. */
#include "benchmarks/bench.h"

#include <string.h>

#define BENCH(sym) extern const bench_def sym;
#include "benchmarks/registry_seed_rodinia.inc"
#include "benchmarks/registry_rodinia_polybench.inc"
#include "benchmarks/registry_sdk.inc"
#include "benchmarks/registry_micro.inc"
#include "benchmarks/registry_cdp.inc"
#undef BENCH

static const bench_def *const all_benches[] = {
#define BENCH(sym) &sym,
#include "benchmarks/registry_seed_rodinia.inc"
#include "benchmarks/registry_rodinia_polybench.inc"
#include "benchmarks/registry_sdk.inc"
#include "benchmarks/registry_micro.inc"
#include "benchmarks/registry_cdp.inc"
#undef BENCH
    NULL,
};

const bench_def *const *bench_all(unsigned *count)
{
    *count = (unsigned)(sizeof all_benches / sizeof all_benches[0]) - 1;
    return all_benches;
}

const bench_def *bench_find(const char *name)
{
    for (unsigned i = 0; all_benches[i]; i++)
        if (strcmp(all_benches[i]->name, name) == 0)
            return all_benches[i];
    return NULL;
}
