/* tests/bench/test_pairs.c POLICY — every benchmark pair of the thesis's
 * chapter 5 (Table 5.2's add_x_loops + stream_x_words, and the Rodinia
 * pairs) run concurrently (`bench pair`, two streams) under kernel.policy
 * POLICY on m2090 at size tiny.  Each driver must pass its CPU reference,
 * and the memory both leave behind (every buffer's final bytes, taken when
 * the driver frees it) must equal that of running the two functionally one
 * after the other — as a multiset of (size, bytes), since the two runs
 * allocate in different orders.  The benchmarks share no memory.  The
 * first pairs run twice: the same cycles and memory (determinism).  Unless
 * -Dfull_tests=true, the pairs are sampled (PTXEMU_TEST_SAMPLE,
 * tests/support/test_shard.h, tests/meson.build). */
#include "benchmarks/harness.h"
#include "tests/support/test_shard.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const char *const pairs[][2] = {
    {"add-10-loops", "stream-1-words"}, {"add-10-loops", "stream-4-words"},
    {"add-loops", "stream-2-words"},    {"add-loops", "stream-words"},
    {"cfd", "pathfinder"},              {"cfd", "lud"},
    {"cfd", "backprop"},                {"gaussian", "pathfinder"},
    {"backprop", "lud"},                {"pathfinder", "lud"},
};

/* Freed buffers as "size:checksum" strings. */
static void on_free(void *user, ptxemu_dptr addr, const void *bytes, size_t size)
{
    (void)addr;
    GPtrArray *out = user;
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes, size);
    g_ptr_array_add(out, g_strdup_printf("%zu:%s", size, sum));
    g_free(sum);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The buffers of `def` run alone, functionally. */
static bool alone(const char *name, GPtrArray *bufs)
{
    const bench_def *def = bench_find(name);
    ptxemu_options o = {0};
    o.on_free = on_free;
    o.on_free_user = bufs;
    ptxemu_ctx *ctx;
    char msg[512];
    bench_outcome out = bench_run_ctx(def, BENCH_TINY, 1, &o, &ctx, msg);
    ptxemu_ctx_destroy(ctx);
    if (out != BENCH_PASS)
        fprintf(stderr, "%s alone: %s\n", name, msg);
    return out == BENCH_PASS;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_pairs KERNEL-POLICY\n");
        return 2;
    }
    char *set = g_strdup_printf("kernel.policy=%s", argv[1]);
    const char *sets[] = {set, NULL};
    int failures = 0;
    for (size_t p = 0; p < G_N_ELEMENTS(pairs); p++) {
        if (!test_in_sample((unsigned)p))
            continue;
        const bench_def *defs[2] = {bench_find(pairs[p][0]), bench_find(pairs[p][1])};
        if (!defs[0] || !defs[1]) {
            fprintf(stderr, "unknown benchmark in pair %zu\n", p);
            return 2;
        }
        GPtrArray *want = g_ptr_array_new_with_free_func(g_free);
        GPtrArray *got = g_ptr_array_new_with_free_func(g_free);
        bool ok = alone(pairs[p][0], want) && alone(pairs[p][1], want);
        ptxemu_options o = {.timing = 1, .timing_config = "m2090", .timing_set = sets,
                            .on_free = on_free, .on_free_user = got};
        ptxemu_ctx *ctx;
        bench_outcome out[2];
        char msg[2][512];
        ok = bench_run_pair_ctx(defs, BENCH_TINY, 1, &o, &ctx, out, msg) && ok;
        uint64_t cycles = 0;
        ptxemu_counters c;
        ptxemu_get_counters(ctx, &c);
        cycles = c.cycles;
        ptxemu_ctx_destroy(ctx);
        for (int i = 0; i < 2; i++)
            if (out[i] != BENCH_PASS) {
                fprintf(stderr, "%s + %s: %s: %s\n", pairs[p][0], pairs[p][1], pairs[p][i],
                        msg[i]);
                ok = false;
            }
        g_ptr_array_sort(want, cmp_str);
        g_ptr_array_sort(got, cmp_str);
        bool same = want->len == got->len && want->len > 0;
        for (guint i = 0; same && i < want->len; i++)
            same = !strcmp(g_ptr_array_index(want, i), g_ptr_array_index(got, i));
        if (!same) {
            fprintf(stderr, "%s + %s: memory differs from the functional runs one after the "
                            "other (%u vs %u buffers)\n", pairs[p][0], pairs[p][1], got->len,
                    want->len);
            ok = false;
        }
        if (p < 2) { /* host threads take deterministic turns: a rerun is identical */
            GPtrArray *again = g_ptr_array_new_with_free_func(g_free);
            o.on_free_user = again;
            bench_run_pair_ctx(defs, BENCH_TINY, 1, &o, &ctx, out, msg);
            ptxemu_get_counters(ctx, &c);
            ptxemu_ctx_destroy(ctx);
            g_ptr_array_sort(again, cmp_str);
            bool same_again = again->len == got->len && c.cycles == cycles;
            for (guint i = 0; same_again && i < got->len; i++)
                same_again = !strcmp(g_ptr_array_index(again, i), g_ptr_array_index(got, i));
            if (!same_again) {
                fprintf(stderr, "%s + %s: a rerun differs (%llu vs %llu cycles)\n",
                        pairs[p][0], pairs[p][1], (unsigned long long)c.cycles,
                        (unsigned long long)cycles);
                ok = false;
            }
            g_ptr_array_free(again, TRUE);
        }
        printf("%-16s + %-16s %-12s %s  %u buffers, %llu cycles\n", pairs[p][0], pairs[p][1],
               argv[1], ok ? "ok" : "FAILED", got->len, (unsigned long long)cycles);
        failures += !ok;
        g_ptr_array_free(want, TRUE);
        g_ptr_array_free(got, TRUE);
    }
    g_free(set);
    return failures ? 1 : 0;
}
