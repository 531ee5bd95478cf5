/* tests/bench/test_benchmarks.c — every benchmark at size tiny must PASS
 * against its CPU reference.  `test_benchmarks N` runs registry entry N;
 * `test_benchmarks broken` checks that a perturbed reference FAILS (so the
 * checks can fail at all). */
#include "benchmarks/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    if (argc == 2 && !strcmp(argv[1], "broken")) {
        const char *names[] = {"vector-add", "hotspot", "gemm", "histogram"};
        int bad = 0;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            const bench_def *b = bench_find(names[i]);
            if (!b)
                continue;
            /* a broken reference must make the run fail */
            if (bench_run_one(b, BENCH_TINY, 1, true, true) == 0) {
                printf("%s passed with a broken reference\n", names[i]);
                bad = 1;
            }
        }
        return bad;
    }
    if (argc != 2)
        return 2;
    unsigned i = (unsigned)strtoul(argv[1], NULL, 10);
    if (i >= n) {
        printf("no benchmark %u (registry has %u)\n", i, n);
        return 77; /* skipped */
    }
    return bench_run_one(all[i], BENCH_TINY, 1, false, true);
}
