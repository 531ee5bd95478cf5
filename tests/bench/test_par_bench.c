/* tests/bench/test_par_bench.c — `-j N` changes nothing but the wall time:
 * every benchmark run with one and with two (and three) host threads
 * (ptxemu_options.host_threads) ends with the same outcome, the same
 * device memory digest after every launch and the same warp and thread
 * instruction counts.
 *
 * Under the timing model (-j N steps the SMs of a cycle on N threads,
 * timing/gpu_par.c) the statistics JSON must be the same bytes as well.
 *
 * `test_par_bench tiny I/N` runs the registry entries i with i % N == I at
 * size tiny; `test_par_bench small NAME...` runs the named benchmarks at
 * size small; `timing I/N` and `timing-small NAME...` do the same on the
 * timing model (GTX 480 preset; with PTXEMU_TEST_SAMPLE set, as unless
 * -Dfull_tests=true, every eighth benchmark of the shard and the first one
 * named); `timing-policies
 * NAME...` runs the named benchmarks at size tiny under a few policy sets. */
#include "benchmarks/harness.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct par_result {
    bench_outcome out;
    ptxemu_counters c;
    char msg[512];
    char *stats;            /* timing: the statistics JSON */
} par_result;

/* The timing model's options of a run, or none (functional). */
typedef struct timing_opts {
    bool on;
    const char *const *sets; /* config overrides, NULL-terminated, or NULL */
} timing_opts;

static void run(const bench_def *b, bench_size size, uint32_t threads, const timing_opts *t,
                par_result *r)
{
    ptxemu_options o = {0};
    o.memory_digest = 1;
    o.host_threads = threads;
    char *dir = NULL, *path = NULL;
    if (t->on) {
        dir = g_dir_make_tmp("ptxemu-par-XXXXXX", NULL);
        g_assert(dir);
        path = g_build_filename(dir, "stats.json", NULL);
        o.timing = 1;
        o.timing_config = "gtx480";
        o.timing_set = t->sets;
        o.stats_path = path;
    }
    ptxemu_ctx *ctx = NULL;
    r->msg[0] = 0;
    r->out = bench_run_ctx(b, size, 1, &o, &ctx, r->msg);
    memset(&r->c, 0, sizeof r->c);
    if (ctx)
        ptxemu_get_counters(ctx, &r->c);
    ptxemu_ctx_destroy(ctx);
    r->stats = NULL;
    if (path) {
        if (!g_file_get_contents(path, &r->stats, NULL, NULL))
            r->stats = g_strdup("(no statistics written)");
        g_remove(path);
        g_rmdir(dir);
    }
    g_free(path);
    g_free(dir);
}

/* false after printing how the runs differ */
static bool same(const bench_def *b, bench_size size, uint32_t threads, const timing_opts *t)
{
    par_result one, many;
    run(b, size, 1, t, &one);
    run(b, size, threads, t, &many);
    bool stats_same = !t->on || !strcmp(one.stats, many.stats);
    bool ok = one.out == many.out && one.c.memory_digest == many.c.memory_digest &&
              one.c.warp_instructions == many.c.warp_instructions &&
              one.c.thread_instructions == many.c.thread_instructions &&
              one.c.launches == many.c.launches && one.c.cycles == many.c.cycles &&
              stats_same;
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
    if (!stats_same)
        printf("  the statistics JSON differs (%llu vs %llu cycles)\n",
               (unsigned long long)one.c.cycles, (unsigned long long)many.c.cycles);
    g_free(one.stats);
    g_free(many.stats);
    return ok;
}

static const bench_def *find(const char *name)
{
    const bench_def *b = bench_find(name);
    if (!b)
        fprintf(stderr, "no benchmark '%s'\n", name);
    return b;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_par_bench tiny|timing I/N | small|timing-small|"
                        "timing-policies NAME...\n");
        return 2;
    }
    unsigned n = 0, bad = 0, ran = 0;
    const bench_def *const *all = bench_all(&n);
    const char *mode = argv[1];
    timing_opts t = {.on = !strncmp(mode, "timing", 6)};
    if (!strcmp(mode, "tiny") || !strcmp(mode, "timing")) {
        unsigned shard = 0, shards = 1;
        if (sscanf(argv[2], "%u/%u", &shard, &shards) != 2 || !shards || shard >= shards) {
            fprintf(stderr, "bad shard '%s'\n", argv[2]);
            return 2;
        }
        unsigned every = t.on && g_getenv("PTXEMU_TEST_SAMPLE") ? 8 : 1;
        for (unsigned i = shard, k = 0; i < n; i += shards, k++) {
            if (k % every)
                continue;
            /* alternate 2 and 3 threads: an odd count leaves a thread
             * with a different share of the CTAs (or SMs) */
            bad += !same(all[i], BENCH_TINY, 2 + (i / shards) % 2, &t);
            ran++;
        }
    } else if (!strcmp(mode, "small") || !strcmp(mode, "timing-small")) {
        /* sampled (PTXEMU_TEST_SAMPLE): the first benchmark named */
        int last = t.on && g_getenv("PTXEMU_TEST_SAMPLE") ? 3 : argc;
        for (int i = 2; i < last; i++) {
            const bench_def *b = find(argv[i]);
            if (!b)
                return 2;
            bad += !same(b, BENCH_SMALL, 2, &t);
            ran++;
        }
    } else if (!strcmp(mode, "timing-policies")) {
        /* warp policies with their own state, CTA placement, admission
         * filters that pause SMs, the cluster ICC */
        static const char *const sets[][3] = {
            {"warp.policy=owl", NULL},
            {"warp.policy=tl-gto", "cta.policy=bcs", NULL},
            {"warp.policy=pa", "cta.filters=claso", NULL},
            {"cta.filters=dyncta", NULL},
            {"icc.mode=icc", NULL},
        };
        for (int i = 2; i < argc; i++) {
            const bench_def *b = find(argv[i]);
            if (!b)
                return 2;
            for (size_t s = 0; s < G_N_ELEMENTS(sets); s++) {
                printf("[%s%s%s]\n", sets[s][0], sets[s][1] ? " " : "",
                       sets[s][1] ? sets[s][1] : "");
                t.sets = sets[s];
                bad += !same(b, BENCH_TINY, 2 + s % 2, &t);
                ran++;
            }
        }
    } else {
        fprintf(stderr, "unknown mode '%s'\n", mode);
        return 2;
    }
    printf("%u of %u runs differ\n", bad, ran);
    return bad || !ran ? 1 : 0;
}
