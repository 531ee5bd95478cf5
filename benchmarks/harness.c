/* benchmarks/harness.c — runs one benchmark: context, committed PTX, the
 * driver's run() with timing, and a one-line PASS/FAIL report. */
#include "benchmarks/harness.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* Where the committed PTX lives: $PTXEMU_SOURCE_DIR or the source tree the
 * program was built from. */
char *bench_ptx_path(const bench_def *b)
{
    const char *root = g_getenv("PTXEMU_SOURCE_DIR");
    return g_build_filename(root ? root : PTXEMU_SOURCE_ROOT, "benchmarks", b->ptx, NULL);
}

bool bench_parse_size(const char *s, bench_size *out)
{
    if (!strcmp(s, "tiny"))
        *out = BENCH_TINY;
    else if (!strcmp(s, "small"))
        *out = BENCH_SMALL;
    else if (!strcmp(s, "paper"))
        *out = BENCH_PAPER;
    else if (!strcmp(s, "claso"))
        *out = BENCH_CLASO;
    else if (!strcmp(s, "thesis"))
        *out = BENCH_THESIS;
    else
        return false;
    return true;
}

const char *bench_size_name(bench_size s)
{
    switch (s) {
    case BENCH_TINY: return "tiny";
    case BENCH_SMALL: return "small";
    case BENCH_PAPER: return "paper";
    case BENCH_CLASO: return "claso";
    case BENCH_THESIS: return "thesis";
    }
    return "?";
}

/* Which benchmark defines which paper's size: registry_sizes.inc. */
typedef struct size_entry {
    const char *bench;
    bench_size size;
} size_entry;

static const size_entry extra_sizes[] = {
#define BENCH_SIZE(name, size) {name, size},
#include "benchmarks/registry_sizes.inc"
#undef BENCH_SIZE
};

bool bench_has_size(const bench_def *b, bench_size s)
{
    if (s <= BENCH_PAPER)
        return true;
    for (size_t i = 0; i < sizeof extra_sizes / sizeof extra_sizes[0]; i++)
        if (extra_sizes[i].size == s && !strcmp(extra_sizes[i].bench, b->name))
            return true;
    return false;
}

bench_outcome bench_run_ctx(const bench_def *b, bench_size size, uint64_t seed,
                            const ptxemu_options *opts, ptxemu_ctx **ctx_out,
                            char *env_msg)
{
    return bench_run_ctx_ref(b, size, seed, opts, false, ctx_out, env_msg, NULL);
}

bench_outcome bench_run_ctx_ref(const bench_def *b, bench_size size, uint64_t seed,
                                const ptxemu_options *opts, bool break_ref,
                                ptxemu_ctx **ctx_out, char *env_msg, double *ref_seconds)
{
    ptxemu_ctx *ctx;
    bench_outcome o = BENCH_ERROR;
    env_msg[0] = '\0';
    if (ptxemu_ctx_create(&ctx, opts) != PTXEMU_OK) {
        snprintf(env_msg, 512, "%s", ptxemu_last_error(ctx));
    } else {
        char *path = bench_ptx_path(b);
        ptxemu_module *mod;
        if (!bench_has_size(b, size)) {
            snprintf(env_msg, 512, "not supported yet: %s has no input for size %s", b->name,
                     bench_size_name(size));
        } else if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK) {
            snprintf(env_msg, 512, "%s", ptxemu_last_error(ctx));
        } else {
            bench_env env = {0};
            env.ctx = ctx;
            env.mod = mod;
            env.size = size;
            env.seed = seed;
            env.break_reference = break_ref;
            o = b->run(&env);
            memcpy(env_msg, env.msg, sizeof env.msg);
            if (ref_seconds)
                *ref_seconds = env.ref_seconds;
        }
        g_free(path);
    }
    *ctx_out = ctx;
    return o;
}

int bench_run_one(const bench_def *b, bench_size size, uint64_t seed, bool break_ref,
                  bool quiet)
{
    return bench_run_one_opts(b, size, seed, break_ref, quiet, NULL);
}

int bench_run_one_opts(const bench_def *b, bench_size size, uint64_t seed, bool break_ref,
                       bool quiet, const ptxemu_options *opts)
{
    ptxemu_ctx *ctx;
    int rc;
    if (!bench_has_size(b, size)) {
        fprintf(stderr, "%-28s ERROR  not supported yet: no input for size %s\n", b->name,
                bench_size_name(size));
        return 1;
    }
    if (ptxemu_ctx_create(&ctx, opts) != PTXEMU_OK) {
        fprintf(stderr, "%-28s ERROR  %s\n", b->name, ptxemu_last_error(ctx));
        fflush(stdout);
        ptxemu_ctx_destroy(ctx);
        return 1;
    }
    char *path = bench_ptx_path(b);
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK) {
        fprintf(stderr, "%-28s ERROR  %s\n", b->name, ptxemu_last_error(ctx));
        rc = 1;
    } else {
        bench_env env = {0};
        env.ctx = ctx;
        env.mod = mod;
        env.size = size;
        env.seed = seed;
        env.break_reference = break_ref;
        double t0 = bench_now();
        bench_outcome o = b->run(&env);
        double secs = bench_now() - t0;
        ptxemu_counters c;
        ptxemu_get_counters(ctx, &c);
        const char *word = o == BENCH_PASS ? "PASS" : o == BENCH_FAIL ? "FAIL" : "ERROR";
        printf("%-28s %-5s  %3llu launches  %12llu warp-instrs  %14llu thread-instrs  "
               "%8.3f s  (CPU reference %.3f s)\n", b->name, word,
               (unsigned long long)c.launches, (unsigned long long)c.warp_instructions,
               (unsigned long long)c.thread_instructions, secs, env.ref_seconds);
        if (o != BENCH_PASS)
            printf("    %s\n", env.msg);
        else if (!quiet && secs > 0)
            printf("    %.1f M thread-instructions/s\n",
                   (double)c.thread_instructions / secs / 1e6);
        if (!quiet && opts && opts->timing && o == BENCH_PASS) {
            /* wall time includes the host driver and the CPU reference */
            double sim = secs - env.ref_seconds;
            if (sim > 0)
                printf("    simulated %llu cycles: %.2f M warp-instructions/s, "
                       "%.2f M cycles/s\n", (unsigned long long)c.cycles,
                       (double)c.warp_instructions / sim / 1e6, (double)c.cycles / sim / 1e6);
            ptxemu_print_timing_summary(ctx, stdout);
        }
        rc = o == BENCH_PASS ? 0 : 1;
    }
    fflush(stdout);
    g_free(path);
    ptxemu_ctx_destroy(ctx);
    return rc;
}
