/* benchmarks/stream-copy/driver.c — DRAM bandwidth: the STREAM copy kernel,
 * dst[i] = src[i] over n float4s, one float4 per thread, 256 threads per CTA.
 *
 * Sizes: tiny 2^16 float4s (1 MiB per array, 256 CTAs), small 2^20 (16 MiB,
 * 4,096 CTAs), paper 2^22 (64 MiB, 16,384 CTAs).  Every load is a cold miss
 * (nothing was read before), so the reads stream from DRAM; stores are
 * write-allocated in L2 (write-back) and reach DRAM as the lines are
 * evicted.
 *
 * In timing mode the driver reports two bandwidths over the launch's
 * simulated time (cycles / clock.core): bytes moved = 2 x 16 x n (STREAM's
 * count for copy: read plus write), and the DRAM traffic (the statistics'
 * dram_bytes).  The ceiling is the configured DRAM peak,
 *     dram.partitions x dram.bus_width / 8 x dram.data_rate x clock.dram
 * (m2090: 6 x 8 B x 2 x 1850 MHz = 177.6 GB/s = 136.6 B per 1300 MHz core
 * cycle; gtx480: 6 x 8 x 4 x 924 = 177.4 GB/s = 253.4 B per 700 MHz
 * cycle).  DRAM traffic stays under it; bytes moved can pass it by the
 * written lines still dirty in the write-back L2 when the kernel ends (at
 * most the L2's size), which is why STREAM wants arrays far larger than the
 * last-level cache.  tests/timing/test_micro.c checks both.
 *
 * The check is exact: a copy of 32-bit patterns. */
#include "benchmarks/bench.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SC_BLOCK 256u

/* What one copy measured. */
typedef struct sc_result {
    uint64_t bytes;       /* moved: read + written */
    uint64_t cycles;      /* simulated core cycles of the launch; 0 without timing */
    uint64_t dram_bytes;  /* on the DRAM data buses during the launch */
    double core_mhz;      /* from the statistics JSON; 0 when unknown */
    double bytes_per_cycle, gbps;          /* bytes moved / time */
    double dram_bytes_per_cycle, dram_gbps; /* DRAM traffic / time */
} sc_result;

static unsigned sc_elems(bench_size size)
{
    return size == BENCH_TINY ? 1u << 16 : size == BENCH_SMALL ? 1u << 20 : 1u << 22;
}

/* The last number called `key` in the statistics JSON (for counters: the
 * run total, which comes after the kernels), or 0: the core clock and the
 * DRAM traffic are not in the public summary. */
static double sc_json_last(ptxemu_ctx *ctx, const char *key)
{
    const char *json = ptxemu_timing_stats_json(ctx);
    char *pat = g_strdup_printf("\"%s\":", key);
    const char *last = NULL;
    for (const char *p = json; p && (p = strstr(p, pat)); p++)
        last = p;
    double v = last ? g_ascii_strtod(last + strlen(pat), NULL) : 0.0;
    g_free(pat);
    return v;
}

/* Copies n float4s once and checks the copy. */
static bench_outcome sc_copy(bench_env *env, unsigned n, sc_result *r)
{
    size_t words = (size_t)n * 4u, bytes = words * sizeof(uint32_t);
    uint32_t *src = malloc(bytes), *got = malloc(bytes);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dsrc = 0, ddst = 0;
    memset(r, 0, sizeof *r);
    r->bytes = 2u * (uint64_t)bytes;
    if (!src || !got) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    uint64_t rng = env->seed;
    for (size_t i = 0; i < words; i++)
        src[i] = (uint32_t)bench_rng_next(&rng);

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dsrc, bytes));
    TRY(ptxemu_malloc(env->ctx, &ddst, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, dsrc, src, bytes));
    void *args[] = {&dsrc, &ddst, &n};
    ptxemu_dim3 grid = {(n + SC_BLOCK - 1) / SC_BLOCK, 1, 1};
    ptxemu_dim3 block = {SC_BLOCK, 1, 1};
    ptxemu_counters before, after;
    ptxemu_get_counters(env->ctx, &before);
    double dram0 = sc_json_last(env->ctx, "dram_bytes");
    TRY(ptxemu_launch(env->mod, "stream_copy", grid, block, 0, args));
    ptxemu_get_counters(env->ctx, &after);
    TRY(ptxemu_memcpy_dtoh(env->ctx, got, ddst, bytes));
#undef TRY
    r->cycles = after.cycles - before.cycles;
    if (r->cycles) {
        r->dram_bytes = (uint64_t)(sc_json_last(env->ctx, "dram_bytes") - dram0);
        r->core_mhz = sc_json_last(env->ctx, "core_clock_mhz");
        r->bytes_per_cycle = (double)r->bytes / (double)r->cycles;
        r->dram_bytes_per_cycle = (double)r->dram_bytes / (double)r->cycles;
        r->gbps = r->bytes_per_cycle * r->core_mhz / 1e3;
        r->dram_gbps = r->dram_bytes_per_cycle * r->core_mhz / 1e3;
    }

    /* the reference of a copy is its input; comparing is the work */
    double t0 = bench_now();
    if (env->break_reference)
        src[words / 2] ^= 1u;
    out = BENCH_PASS;
    for (size_t i = 0; i < words; i++) {
        if (got[i] != src[i]) {
            snprintf(env->msg, sizeof env->msg, "dst word %zu = 0x%08x, reference 0x%08x",
                     i, got[i], src[i]);
            out = BENCH_FAIL;
            break;
        }
    }
    env->ref_seconds = bench_now() - t0;
done:
    if (dsrc)
        ptxemu_free(env->ctx, dsrc);
    if (ddst)
        ptxemu_free(env->ctx, ddst);
    free(src);
    free(got);
    return out;
}

static bench_outcome stream_copy_run(bench_env *env)
{
    sc_result r;
    bench_outcome o = sc_copy(env, sc_elems(env->size), &r);
    if (o == BENCH_PASS && r.cycles)
        printf("    stream-copy %llu bytes moved in %llu cycles: %.1f bytes/cycle, "
               "%.1f GB/s at %.0f MHz; DRAM %llu bytes: %.1f bytes/cycle, %.1f GB/s\n",
               (unsigned long long)r.bytes, (unsigned long long)r.cycles,
               r.bytes_per_cycle, r.gbps, r.core_mhz, (unsigned long long)r.dram_bytes,
               r.dram_bytes_per_cycle, r.dram_gbps);
    return o;
}

const bench_def bench_stream_copy = {
    "stream-copy", "dst[i] = src[i] over float4s, one per thread: DRAM bandwidth",
    "stream-copy/kernels.ptx", stream_copy_run};
