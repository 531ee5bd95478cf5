/* tests/bench/test_par_bench.c — `-j N` changes nothing but the wall time:
 * every benchmark run with one and with two (and three) host threads
 * (ptxemu_options.host_threads) ends with the same outcome, the same
 * device memory digest after every launch and the same warp and thread
 * instruction counts.
 *
 * `test_par_bench tiny I/N` runs the registry entries i with i % N == I at
 * size tiny; `test_par_bench small NAME...` runs the named benchmarks at
 * size small. */
#include "benchmarks/harness.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct par_result {
    bench_outcome out;
    ptxemu_counters c;
    char msg[512];
} par_result;

static void run(const bench_def *b, bench_size size, uint32_t threads, par_result *r)
{
    ptxemu_options o = {0};
    o.memory_digest = 1;
    o.host_threads = threads;
    ptxemu_ctx *ctx = NULL;
    r->msg[0] = 0;
    r->out = bench_run_ctx(b, size, 1, &o, &ctx, r->msg);
    memset(&r->c, 0, sizeof r->c);
    if (ctx)
        ptxemu_get_counters(ctx, &r->c);
    ptxemu_ctx_destroy(ctx);
}

/* false after printing how the runs differ */
static bool same(const bench_def *b, bench_size size, uint32_t threads)
{
    par_result one, many;
    run(b, size, 1, &one);
    run(b, size, threads, &many);
    bool ok = one.out == many.out && one.c.memory_digest == many.c.memory_digest &&
              one.c.warp_instructions == many.c.warp_instructions &&
              one.c.thread_instructions == many.c.thread_instructions &&
              one.c.launches == many.c.launches;
    printf("%-24s -j %u: %s (outcome %d, %llu launches, %llu warp instructions, digest %016llx)\n",
           b->name, threads, ok ? "same" : "DIFFERENT", (int)one.out,
           (unsigned long long)one.c.launches, (unsigned long long)one.c.warp_instructions,
           (unsigned long long)one.c.memory_digest);
    if (!ok)
        printf("  one thread: outcome %d, digest %016llx, %llu/%llu instructions, %s\n"
               "  %u threads: outcome %d, digest %016llx, %llu/%llu instructions, %s\n",
               (int)one.out, (unsigned long long)one.c.memory_digest,
               (unsigned long long)one.c.warp_instructions,
               (unsigned long long)one.c.thread_instructions, one.msg, threads, (int)many.out,
               (unsigned long long)many.c.memory_digest,
               (unsigned long long)many.c.warp_instructions,
               (unsigned long long)many.c.thread_instructions, many.msg);
    else if (one.out != BENCH_PASS)
        printf("  (does not pass with one thread either: %s)\n", one.msg);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_par_bench tiny I/N | small NAME...\n");
        return 2;
    }
    unsigned n = 0, bad = 0, ran = 0;
    const bench_def *const *all = bench_all(&n);
    if (!strcmp(argv[1], "tiny")) {
        unsigned shard = 0, shards = 1;
        if (sscanf(argv[2], "%u/%u", &shard, &shards) != 2 || !shards || shard >= shards) {
            fprintf(stderr, "bad shard '%s'\n", argv[2]);
            return 2;
        }
        for (unsigned i = shard; i < n; i += shards) {
            /* alternate 2 and 3 threads: an odd count leaves a thread
             * with a different share of the CTAs */
            bad += !same(all[i], BENCH_TINY, 2 + (i / shards) % 2);
            ran++;
        }
    } else if (!strcmp(argv[1], "small")) {
        for (int i = 2; i < argc; i++) {
            const bench_def *b = bench_find(argv[i]);
            if (!b) {
                fprintf(stderr, "no benchmark '%s'\n", argv[i]);
                return 2;
            }
            bad += !same(b, BENCH_SMALL, 2);
            ran++;
        }
    } else {
        fprintf(stderr, "unknown size '%s'\n", argv[1]);
        return 2;
    }
    printf("%u of %u benchmarks differ\n", bad, ran);
    return bad || !ran ? 1 : 0;
}
