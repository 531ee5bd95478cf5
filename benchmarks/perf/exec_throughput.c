/* benchmarks/perf/exec_throughput.c — functional executor speed (a
 * benchmark, not a test): thread-instructions per second on one host thread
 * for a compute-bound FMA chain and a memory-bound strided copy.  Usage:
 *   exec_throughput [PTX]   (default: the committed benchmarks/perf/kernels.ptx) */
#include "api/ptxemu.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

static double now(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

static int measure(ptxemu_ctx *ctx, ptxemu_module *mod, const char *label, const char *kernel,
                   ptxemu_dim3 grid, ptxemu_dim3 block, void **args)
{
    double best = 0;
    unsigned long long instrs = 0;
    for (int rep = 0; rep < 3; rep++) {
        ptxemu_counters before, after;
        ptxemu_get_counters(ctx, &before);
        double t0 = now();
        if (ptxemu_launch(mod, kernel, grid, block, 0, args) != PTXEMU_OK) {
            fprintf(stderr, "%s: %s\n", kernel, ptxemu_last_error(ctx));
            return 1;
        }
        double secs = now() - t0;
        ptxemu_get_counters(ctx, &after);
        instrs = after.thread_instructions - before.thread_instructions;
        double rate = (double)instrs / secs;
        if (rate > best)
            best = rate;
    }
    printf("%-34s %14llu thread-instrs   best of 3: %8.1f M thread-instructions/s\n", label,
           instrs, best / 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : PTXEMU_SOURCE_ROOT "/benchmarks/perf/kernels.ptx";
    ptxemu_ctx *ctx;
    ptxemu_ctx_create(&ctx, NULL);
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK) {
        fprintf(stderr, "%s\n", ptxemu_last_error(ctx));
        return 1;
    }
    int rc = 0;
    {
        unsigned threads = 64 * 256;
        ptxemu_dptr out;
        ptxemu_malloc(ctx, &out, threads * sizeof(float));
        int iters = 2000;
        void *args[] = {&out, &iters};
        rc |= measure(ctx, mod, "compute-bound (fma_loop)", "fma_loop", (ptxemu_dim3){64, 1, 1},
                      (ptxemu_dim3){256, 1, 1}, args);
    }
    {
        int n = 1 << 22, stride = 33;
        ptxemu_dptr in, out;
        ptxemu_malloc(ctx, &in, (size_t)n * sizeof(float));
        ptxemu_malloc(ctx, &out, (size_t)n * sizeof(float));
        void *args[] = {&in, &out, &n, &stride};
        rc |= measure(ctx, mod, "memory-bound (strided_copy)", "strided_copy",
                      (ptxemu_dim3){256, 1, 1}, (ptxemu_dim3){256, 1, 1}, args);
    }
    {
        /* host cost of a launch beyond its instructions: one CTA of one
         * thread running the loop zero times, CPU time of this thread */
        ptxemu_dptr out;
        ptxemu_malloc(ctx, &out, 64);
        int iters = 0, n = 2000;
        void *args[] = {&out, &iters};
        ptxemu_counters before, after;
        ptxemu_get_counters(ctx, &before);
        for (int i = 0; i < n && rc == 0; i++)
            if (ptxemu_launch(mod, "fma_loop", (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){1, 1, 1}, 0,
                              args) != PTXEMU_OK)
                rc = 1;
        ptxemu_get_counters(ctx, &after);
        printf("%-34s %14llu thread-instrs   %8.2f us per launch (CPU), %.2f us wall\n",
               "launch overhead (1 thread, 0 iters)",
               (unsigned long long)(after.thread_instructions - before.thread_instructions) / n,
               (after.launch_cpu_seconds - before.launch_cpu_seconds) / n * 1e6,
               (after.launch_seconds - before.launch_seconds) / n * 1e6);
    }
    ptxemu_ctx_destroy(ctx);
    return rc;
}
