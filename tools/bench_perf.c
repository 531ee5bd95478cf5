/* tools/bench_perf.c — `ptxemu bench run NAME --perf`: runs one benchmark
 * and prints a single machine-readable line of what scripts/perf.sh
 * tabulates (docs/performance.md): counts, host times, memory. */
#include "benchmarks/harness.h"
#include "tools/commands.h"

#include <glib.h>
#include <stdio.h>
#include <sys/resource.h>

int bench_perf_one(const struct bench_def *b, int size, uint64_t seed,
                   const ptxemu_options *opts)
{
    ptxemu_ctx *ctx = NULL;
    char msg[512];
    /* the memory digest (hashed after each launch, outside the launch
     * times) shows that runs with different host thread counts agree */
    ptxemu_options po = opts ? *opts : (ptxemu_options){0};
    po.memory_digest = 1;
    opts = &po;
    double ref = 0;
    double t0 = bench_now();
    bench_outcome o = bench_run_ctx_ref(b, (bench_size)size, seed, opts, false, &ctx, msg, &ref);
    double wall = bench_now() - t0;
    ptxemu_counters c = {0};
    ptxemu_get_counters(ctx, &c);
    struct rusage ru = {0};
    getrusage(RUSAGE_SELF, &ru); /* peak RSS of this process: one benchmark per process */
    const char *word = o == BENCH_PASS ? "PASS" : o == BENCH_FAIL ? "FAIL" : "ERROR";
    printf("PERF name=%s size=%s mode=%s outcome=%s launches=%llu warp_instrs=%llu thread_instrs=%llu "
           "cycles=%llu wall_s=%.6f cpu_s=%.6f launch_s=%.6f launch_cpu_s=%.6f ref_s=%.6f "
           "device_peak_bytes=%llu rss_peak_kb=%ld threads=%u digest=%016llx\n",
           b->name, bench_size_name((bench_size)size),
           opts && opts->timing ? "timing" : "functional", word,
           (unsigned long long)c.launches, (unsigned long long)c.warp_instructions,
           (unsigned long long)c.thread_instructions, (unsigned long long)c.cycles, wall,
           (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
           c.launch_seconds, c.launch_cpu_seconds, ref, (unsigned long long)c.device_peak_bytes, ru.ru_maxrss,
           opts->host_threads ? opts->host_threads : 1u, (unsigned long long)c.memory_digest);
    if (o != BENCH_PASS)
        fprintf(stderr, "%s: %s\n", b->name, msg);
    fflush(stdout);
    ptxemu_ctx_destroy(ctx);
    return o == BENCH_PASS ? 0 : 1;
}
