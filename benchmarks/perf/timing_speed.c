/* benchmarks/perf/timing_speed.c — speed of the cycle-level timing model (a
 * benchmark, not a test): hotspot and bfs through their own host drivers
 * with timing on, reported as simulated core cycles per second and warp
 * instructions per second of host wall time, best of 3.  Usage:
 *   timing_speed [tiny|small|paper] [PRESET]     (default: small m2090)
 * Wall time is the driver's run minus its CPU reference, as `ptxemu bench`
 * counts it; every rep runs in a fresh context, so each starts cold. */
#include "benchmarks/bench_util.c"
#include "benchmarks/bfs/driver.c"
#include "benchmarks/hotspot/driver.c"

#include <glib.h>
#include <stdio.h>
#include <string.h>

typedef struct speed {
    uint64_t cycles, warp_instrs;
    double secs;
} speed;

/* One run of b in a fresh timing context; false (with a message) on failure. */
static bool run_once(const bench_def *b, bench_size size, const char *preset, speed *out)
{
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = preset;
    ptxemu_ctx *ctx;
    bool ok = false;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK) {
        fprintf(stderr, "%s: %s\n", b->name, ptxemu_last_error(ctx));
        ptxemu_ctx_destroy(ctx);
        return false;
    }
    const char *root = g_getenv("PTXEMU_SOURCE_DIR");
    char *path = g_build_filename(root ? root : PTXEMU_SOURCE_ROOT, "benchmarks", b->ptx, NULL);
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK) {
        fprintf(stderr, "%s: %s\n", path, ptxemu_last_error(ctx));
    } else {
        bench_env env = {0};
        env.ctx = ctx;
        env.mod = mod;
        env.size = size;
        env.seed = 1;
        double t0 = bench_now();
        bench_outcome r = b->run(&env);
        double secs = bench_now() - t0 - env.ref_seconds;
        ptxemu_counters c;
        ptxemu_get_counters(ctx, &c);
        if (r != BENCH_PASS) {
            fprintf(stderr, "%s: %s\n", b->name, env.msg);
        } else {
            out->cycles = c.cycles;
            out->warp_instrs = c.warp_instructions;
            out->secs = secs;
            ok = true;
        }
    }
    g_free(path);
    ptxemu_ctx_destroy(ctx);
    return ok;
}

int main(int argc, char **argv)
{
    bench_size size = BENCH_SMALL;
    if (argc > 1) {
        if (!strcmp(argv[1], "tiny"))
            size = BENCH_TINY;
        else if (!strcmp(argv[1], "paper"))
            size = BENCH_PAPER;
        else if (strcmp(argv[1], "small")) {
            fprintf(stderr, "usage: timing_speed [tiny|small|paper] [PRESET]\n");
            return 2;
        }
    }
    const char *preset = argc > 2 ? argv[2] : "m2090";
    static const bench_def *const benches[] = {&bench_hotspot, &bench_bfs};
    printf("timing model speed, preset %s, size %s, best of 3 (host wall time)\n", preset,
           argc > 1 ? argv[1] : "small");
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
        speed best = {0}, s;
        for (int rep = 0; rep < 3; rep++) {
            if (!run_once(benches[i], size, preset, &s))
                return 1;
            if (rep == 0 || s.secs < best.secs)
                best = s;
        }
        double secs = best.secs > 0 ? best.secs : 1e-9;
        printf("%-10s %12llu cycles %12llu warp-instrs %8.3f s   %8.3f M cycles/s   "
               "%8.3f M warp-instructions/s\n",
               benches[i]->name, (unsigned long long)best.cycles,
               (unsigned long long)best.warp_instrs, best.secs, (double)best.cycles / secs / 1e6,
               (double)best.warp_instrs / secs / 1e6);
    }
    return 0;
}
