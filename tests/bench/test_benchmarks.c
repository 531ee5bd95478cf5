/* tests/bench/test_benchmarks.c — every benchmark at size tiny must PASS
 * against its CPU reference, and must FAIL once its reference is perturbed
 * (so every driver's check can fail at all).
 *
 *   test_benchmarks N          registry entry N passes
 *   test_benchmarks broken N   entry N passes, then with a broken reference
 *                              reports FAIL (not ERROR) with a message
 *   test_benchmarks cli-broken `ptxemu bench run all --size tiny
 *                              --break-reference` exits non-zero and prints
 *                              a FAIL line for every registry entry
 *
 * An index outside the registry is a failure, not a skip: meson creates
 * one test per BENCH() line, so a missing driver must not pass. */
#include "benchmarks/harness.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs b at size tiny in a fresh default context, as `ptxemu bench run`
 * does; msg (512 bytes) gets the driver's message. */
static bench_outcome run_tiny(const bench_def *b, bool break_ref, char *msg)
{
    ptxemu_ctx *ctx;
    bench_outcome o = BENCH_ERROR;
    msg[0] = '\0';
    if (ptxemu_ctx_create(&ctx, NULL) != PTXEMU_OK) {
        snprintf(msg, 512, "%s", ptxemu_last_error(ctx));
        ptxemu_ctx_destroy(ctx);
        return o;
    }
    char *path = bench_ptx_path(b);
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK) {
        snprintf(msg, 512, "%s", ptxemu_last_error(ctx));
    } else {
        bench_env env = {0};
        env.ctx = ctx;
        env.mod = mod;
        env.size = BENCH_TINY;
        env.seed = 1;
        env.break_reference = break_ref;
        o = b->run(&env);
        memcpy(msg, env.msg, sizeof env.msg);
    }
    g_free(path);
    ptxemu_ctx_destroy(ctx);
    return o;
}

static const bench_def *entry(const char *arg)
{
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    char *end;
    unsigned long i = strtoul(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || i >= n) {
        printf("no benchmark '%s' (the registry has %u, 0 to %u)\n", arg, n, n - 1);
        return NULL;
    }
    return all[i];
}

static int broken(const bench_def *b)
{
    char msg[512];
    bench_outcome o = run_tiny(b, false, msg);
    if (o != BENCH_PASS) {
        printf("%s: does not pass with its reference intact: %s\n", b->name, msg);
        return 1;
    }
    o = run_tiny(b, true, msg);
    if (o != BENCH_FAIL) {
        printf("%s: with a broken reference the outcome is %s, wanted FAIL (%s)\n", b->name,
               o == BENCH_PASS ? "PASS" : "ERROR", msg);
        return 1;
    }
    if (msg[0] == '\0') {
        printf("%s: FAIL without a message naming the mismatch\n", b->name);
        return 1;
    }
    printf("%s: FAIL as wanted: %s\n", b->name, msg);
    return 0;
}

/* Every registry name has a line "NAME FAIL ..." in `bench run all`'s
 * output with --break-reference, and the command exits non-zero. */
static int cli_broken(void)
{
    char *out = NULL;
    int rc = test_run_cli((const char *const[]){"bench", "run", "all", "--size", "tiny",
                                                "--break-reference", NULL},
                          &out, NULL);
    int bad = 0;
    if (rc == 0) {
        printf("bench run all --break-reference exited 0\n");
        bad = 1;
    }
    GHashTable *failed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char **lines = g_strsplit(out, "\n", -1);
    for (char **l = lines; *l; l++) {
        char name[128], word[16];
        if (sscanf(*l, "%127s %15s", name, word) == 2 && !strcmp(word, "FAIL"))
            g_hash_table_add(failed, g_strdup(name));
    }
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++)
        if (!g_hash_table_contains(failed, all[i]->name)) {
            printf("%s: no FAIL line with --break-reference\n", all[i]->name);
            bad = 1;
        }
    if (bad)
        printf("output was:\n%s", out);
    g_strfreev(lines);
    g_hash_table_destroy(failed);
    g_free(out);
    return bad;
}

/* `bench run all --shard 1/3` runs exactly the registry entries whose
 * index is 1 modulo 3, each once; a shard outside its count is refused. */
static int cli_shard(void)
{
    char *out = NULL, *err = NULL;
    int rc = test_run_cli((const char *const[]){"bench", "run", "all", "--size", "tiny",
                                                "--shard", "1/3", NULL},
                          &out, NULL);
    int bad = rc != 0;
    if (rc)
        printf("bench run all --shard 1/3 exited %d\n", rc);
    GHashTable *ran = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    char **lines = g_strsplit(out, "\n", -1);
    unsigned nran = 0;
    for (char **l = lines; *l; l++) {
        char name[128], word[16];
        if (sscanf(*l, "%127s %15s", name, word) == 2 &&
            (!strcmp(word, "PASS") || !strcmp(word, "FAIL"))) {
            g_hash_table_add(ran, g_strdup(name));
            nran++;
        }
    }
    unsigned n, want = 0;
    const bench_def *const *all = bench_all(&n);
    for (unsigned i = 0; i < n; i++) {
        bool in = g_hash_table_contains(ran, all[i]->name);
        want += i % 3 == 1;
        if (in != (i % 3 == 1)) {
            printf("%s (index %u): %s\n", all[i]->name, i, in ? "ran" : "did not run");
            bad = 1;
        }
    }
    if (nran != want) {
        printf("%u result lines, want %u\n", nran, want);
        bad = 1;
    }
    g_strfreev(lines);
    g_hash_table_destroy(ran);
    g_free(out);
    rc = test_run_cli((const char *const[]){"bench", "run", "all", "--shard", "3/3", NULL},
                      NULL, &err);
    if (rc != 2 || !strstr(err, "--shard wants I/N with I < N, got '3/3'")) {
        printf("--shard 3/3: exit %d, stderr: %s\n", rc, err);
        bad = 1;
    }
    g_free(err);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "cli-broken"))
        return cli_broken();
    if (argc == 2 && !strcmp(argv[1], "cli-shard"))
        return cli_shard();
    if (argc == 3 && !strcmp(argv[1], "broken")) {
        const bench_def *b = entry(argv[2]);
        return b ? broken(b) : 1;
    }
    if (argc != 2) {
        printf("usage: test_benchmarks N | broken N | cli-broken\n");
        return 1;
    }
    const bench_def *b = entry(argv[1]);
    return b ? bench_run_one(b, BENCH_TINY, 1, false, true) : 1;
}
