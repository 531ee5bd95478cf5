/* tests/cuda/bench/bench_main.c — main() of a benchmark built as a
 * standalone CUDA program: runs the benchmark's own driver (its input
 * generator, host flow, CPU reference and check) through
 * ptxemu_on_cuda.c.  BENCH_DEFS lists the driver's bench_def symbols as
 * X(sym) X(sym2); the build script (run_cuda_tests.py) finds them.
 *
 * Usage: PROGRAM [NAME|--list] [tiny|small|paper] [SEED] [break]
 * `break` perturbs the driver's CPU reference (bench_env.break_reference),
 * so the check must fail: the test proves the comparison is live.
 * Prints "PASS NAME SIZE" and exits 0, or "FAIL NAME: why" and exits 1
 * (2 for an API error), as `ptxemu bench run` does. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_host_init(ptxemu_ctx **ctx, ptxemu_module **mod);
void bench_host_fini(ptxemu_ctx *ctx, ptxemu_module *mod);

#define X(sym) extern const bench_def sym;
BENCH_DEFS
#undef X
#define X(sym) &sym,
static const bench_def *const defs[] = {BENCH_DEFS};
#undef X

int main(int argc, char **argv)
{
    const bench_def *b = defs[0];
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
            printf("%s\n", defs[i]->name);
        return 0;
    }
    if (argc > 1) {
        b = NULL;
        for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
            if (!strcmp(defs[i]->name, argv[1]))
                b = defs[i];
        if (!b) {
            fprintf(stderr, "unknown benchmark %s; this program has:", argv[1]);
            for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
                fprintf(stderr, " %s", defs[i]->name);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    const char *size = argc > 2 ? argv[2] : "tiny";
    bench_env env = {.seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1,
                     .break_reference = argc > 4 && !strcmp(argv[4], "break")};
    if (!strcmp(size, "tiny"))
        env.size = BENCH_TINY;
    else if (!strcmp(size, "small"))
        env.size = BENCH_SMALL;
    else if (!strcmp(size, "paper"))
        env.size = BENCH_PAPER;
    else {
        fprintf(stderr, "size must be tiny, small or paper, not %s\n", size);
        return 2;
    }
    bench_host_init(&env.ctx, &env.mod);
    bench_outcome o = b->run(&env);
    bench_host_fini(env.ctx, env.mod);
    if (o == BENCH_PASS) {
        printf("PASS %s %s\n", b->name, size);
        return 0;
    }
    printf("FAIL %s %s: %s\n", b->name, size, env.msg);
    return o == BENCH_FAIL ? 1 : 2;
}
