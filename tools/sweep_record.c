/* tools/sweep_record.c — one job as a subprocess and its record.
 *
 * The parent runs `ptxemu sweep --run-job DIR ID BENCH SIZE SEED CONFIG
 * [SET...]` with stdout/stderr in DIR/jobs/ID.log.  The child writes
 * ID.out (outcome and counters) and ID.stats.json; the parent then writes
 * ID.rec (status, reason, wall time, stderr tail), atomically, which is
 * what marks a job finished.  A crash or timeout leaves no ID.out, so the
 * record says why from the exit status and the log's tail. */
#include "tools/sweep.h"

#include "benchmarks/harness.h"
#include "tools/json_flat.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

char *sweep_job_path(const char *dir, const sweep_job *j, const char *ext)
{
    char *name = g_strconcat(j->id, ext, NULL);
    char *p = g_build_filename(dir, "jobs", name, NULL);
    g_free(name);
    return p;
}

char **sweep_job_argv(const char *self, const char *dir, const sweep_job *j)
{
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, g_strdup(self));
    g_ptr_array_add(a, g_strdup("sweep"));
    g_ptr_array_add(a, g_strdup("--run-job"));
    g_ptr_array_add(a, g_strdup(dir));
    g_ptr_array_add(a, g_strdup(j->id));
    g_ptr_array_add(a, g_strdup(j->bench->name));
    g_ptr_array_add(a, g_strdup(j->size));
    g_ptr_array_add(a, g_strdup_printf("%" G_GUINT64_FORMAT, j->seed));
    g_ptr_array_add(a, g_strdup(j->config ? j->config : "-"));
    for (unsigned i = 0; j->sets && j->sets[i]; i++)
        g_ptr_array_add(a, g_strdup(j->sets[i]));
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

/* argv after "sweep --run-job": DIR ID BENCH SIZE SEED CONFIG [SET...] */
int sweep_run_job_main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "ptxemu sweep --run-job: DIR ID BENCH SIZE SEED CONFIG [SET...]\n");
        return 2;
    }
    const char *dir = argv[0], *id = argv[1], *config = argv[5];
    const bench_def *b = bench_find(argv[2]);
    bench_size size;
    if (!b || !bench_parse_size(argv[3], &size)) {
        fprintf(stderr, "ptxemu sweep --run-job: unknown benchmark or size\n");
        return 2;
    }
    ptxemu_options o = {0};
    char **sets = g_new0(char *, (gsize)argc);
    for (int i = 6; i < argc; i++)
        sets[i - 6] = argv[i];
    if (strcmp(config, "-")) {
        o.timing = 1;
        o.timing_config = config;
        o.timing_set = (const char *const *)sets;
    }
    char env_msg[512];
    ptxemu_ctx *ctx = NULL;
    double t0 = bench_now();
    /* Test hooks (tests/tools/test_sweep.sh): make the job of benchmark
     * NAME crash, hang or get a wrong answer, as a broken build might. */
    if (!g_strcmp0(g_getenv("PTXEMU_SWEEP_TEST_CRASH"), b->name)) {
        fprintf(stderr, "test hook: crashing %s\n", b->name);
        fflush(stderr);
        abort();
    }
    if (!g_strcmp0(g_getenv("PTXEMU_SWEEP_TEST_HANG"), b->name)) {
        fprintf(stderr, "test hook: hanging %s\n", b->name);
        fflush(stderr);
        for (;;)
            g_usleep(G_USEC_PER_SEC);
    }
    bool break_ref = !g_strcmp0(g_getenv("PTXEMU_SWEEP_TEST_WRONG"), b->name);
    double ref_s = 0;
    bench_outcome oc = bench_run_ctx_ref(b, size, g_ascii_strtoull(argv[4], NULL, 10), &o,
                                         break_ref, &ctx, env_msg, &ref_s);
    double secs = bench_now() - t0;
    ptxemu_counters c = {0};
    ptxemu_get_counters(ctx, &c);
    GKeyFile *kf = g_key_file_new();
    g_key_file_set_string(kf, "out", "outcome",
                          oc == BENCH_PASS ? "PASS" : oc == BENCH_FAIL ? "FAIL" : "ERROR");
    g_key_file_set_string(kf, "out", "message", env_msg);
    g_key_file_set_uint64(kf, "out", "launches", c.launches);
    g_key_file_set_uint64(kf, "out", "warp_instructions", c.warp_instructions);
    g_key_file_set_uint64(kf, "out", "thread_instructions", c.thread_instructions);
    g_key_file_set_double(kf, "out", "driver_seconds", secs);
    g_key_file_set_double(kf, "out", "reference_seconds", ref_s);
    /* emulation speed: the driver's time less its CPU reference */
    g_key_file_set_double(kf, "out", "thread_instructions_per_s",
                          secs - ref_s > 0 ? (double)c.thread_instructions / (secs - ref_s) : 0);
    int rc = oc == BENCH_PASS ? 0 : 1;
    char *base = g_build_filename(dir, "jobs", id, NULL);
    char *stats_path = g_strconcat(base, ".stats.json", NULL);
    const char *json = o.timing ? ptxemu_timing_stats_json(ctx) : NULL;
    GError *we = NULL;
    char *out_path = g_strconcat(base, ".out", NULL);
    /* the statistics first: .out marks the results complete */
    if ((json && !g_file_set_contents(stats_path, json, -1, &we)) ||
        !g_key_file_save_to_file(kf, out_path, &we)) {
        fprintf(stderr, "ptxemu sweep --run-job: %s\n", we->message);
        g_error_free(we);
        g_unlink(stats_path);
        rc = SWEEP_JOB_WRITE_FAILED;
    }
    if (oc != BENCH_PASS)
        fprintf(stderr, "%s: %s\n", b->name, env_msg);
    g_free(out_path);
    g_free(stats_path);
    g_free(base);
    g_key_file_free(kf);
    ptxemu_ctx_destroy(ctx);
    g_free(sets);
    return rc;
}

/* The last `lines` lines of a file, or "". */
static char *file_tail(const char *path, unsigned lines)
{
    char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, NULL))
        return g_strdup("");
    gsize i = len;
    unsigned n = 0;
    while (i > 0 && len - i < 2000) {
        if (text[i - 1] == '\n' && i != len && ++n == lines)
            break;
        i--;
    }
    char *t = g_strdup(text + i);
    g_free(text);
    return g_strstrip(t);
}

bool sweep_record_finish(const char *dir, const sweep_job *j, int wait_status, bool timed_out,
                         double wall_s, char **reason_out, GError **error)
{
    char *out_path = sweep_job_path(dir, j, ".out"), *log_path = sweep_job_path(dir, j, ".log");
    char *rec_path = sweep_job_path(dir, j, ".rec");
    GKeyFile *out = g_key_file_new();
    bool have_out = g_key_file_load_from_file(out, out_path, G_KEY_FILE_NONE, NULL);
    GKeyFile *rec = g_key_file_new();
    char *reason = NULL;
    bool ok = false;
    if (timed_out) {
        reason = g_strdup_printf("timed out after %.0f s", wall_s);
    } else if (WIFSIGNALED(wait_status)) {
        reason = g_strdup_printf("killed by signal %d (%s)", WTERMSIG(wait_status),
                                 g_strsignal(WTERMSIG(wait_status)));
    } else if (!have_out && WIFEXITED(wait_status) &&
               WEXITSTATUS(wait_status) == SWEEP_JOB_WRITE_FAILED) {
        /* the job said why on its stderr, if its log could take it */
        char *last = file_tail(log_path, 1);
        const char *why = g_str_has_prefix(last, "ptxemu sweep --run-job: ") ? last + 24 : NULL;
        reason = g_strdup_printf("could not write its results into %s/jobs%s%s", dir,
                                 why ? ": " : " (exit status 3; its log is empty)",
                                 why ? why : "");
        g_free(last);
    } else if (!have_out) {
        reason = g_strdup_printf("exited with status %d and no result",
                                 WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1);
    } else {
        char *oc = g_key_file_get_string(out, "out", "outcome", NULL);
        ok = oc && !strcmp(oc, "PASS") && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
        if (!ok) {
            char *msg = g_key_file_get_string(out, "out", "message", NULL);
            reason = g_strdup_printf("%s: %s", oc ? oc : "?", msg ? msg : "");
            g_free(msg);
        }
        g_free(oc);
        gsize nk = 0;
        char **keys = g_key_file_get_keys(out, "out", &nk, NULL);
        for (gsize k = 0; k < nk; k++) {
            if (!strcmp(keys[k], "outcome") || !strcmp(keys[k], "message"))
                continue;
            char *v = g_key_file_get_value(out, "out", keys[k], NULL);
            g_key_file_set_value(rec, "counters", keys[k], v);
            g_free(v);
        }
        g_strfreev(keys);
    }
    g_key_file_set_string(rec, "job", "status", ok ? "ok" : "failed");
    g_key_file_set_string(rec, "job", "version", sweep_version());
    g_key_file_set_double(rec, "job", "wall_s", wall_s);
    if (reason)
        g_key_file_set_string(rec, "job", "reason", reason);
    char *tail = file_tail(log_path, 8);
    g_key_file_set_string(rec, "job", "stderr_tail", tail);
    /* atomic: a record either exists whole or not at all */
    bool saved = g_key_file_save_to_file(rec, rec_path, error);
    g_free(tail);
    if (reason_out)
        *reason_out = reason;
    else
        g_free(reason);
    g_key_file_free(rec);
    g_key_file_free(out);
    g_free(out_path);
    g_free(log_path);
    g_free(rec_path);
    return saved;
}

sweep_record *sweep_record_load(const char *dir, const sweep_job *j)
{
    char *rec_path = sweep_job_path(dir, j, ".rec");
    GKeyFile *kf = g_key_file_new();
    sweep_record *r = NULL;
    if (g_key_file_load_from_file(kf, rec_path, G_KEY_FILE_NONE, NULL)) {
        r = g_new0(sweep_record, 1);
        r->job = j;
        char *st = g_key_file_get_string(kf, "job", "status", NULL);
        r->ok = st && !strcmp(st, "ok");
        g_free(st);
        r->reason = g_key_file_get_string(kf, "job", "reason", NULL);
        r->version = g_key_file_get_string(kf, "job", "version", NULL);
        r->stderr_tail = g_key_file_get_string(kf, "job", "stderr_tail", NULL);
        r->wall_s = g_key_file_get_double(kf, "job", "wall_s", NULL);
        r->values = json_flat_table();
        r->order = g_ptr_array_new();
        gsize nk = 0;
        char **keys = g_key_file_get_keys(kf, "counters", &nk, NULL);
        for (gsize k = 0; k < nk; k++) {
            char *key = g_strdup(keys[k]);
            g_ptr_array_add(r->order, key);
            g_hash_table_insert(r->values, key, g_key_file_get_value(kf, "counters", keys[k], NULL));
        }
        g_strfreev(keys);
        char *stats_path = sweep_job_path(dir, j, ".stats.json");
        if (g_file_get_contents(stats_path, &r->stats_json, NULL, NULL) &&
            !json_flatten(r->stats_json, r->values, r->order, NULL)) {
            r->ok = false;
            g_free(r->reason);
            r->reason = g_strdup("statistics JSON is malformed");
        }
        g_free(stats_path);
    }
    g_key_file_free(kf);
    g_free(rec_path);
    return r;
}

void sweep_record_free(sweep_record *r)
{
    if (!r)
        return;
    g_free(r->reason);
    g_free(r->version);
    g_free(r->stderr_tail);
    if (r->values)
        g_hash_table_destroy(r->values);
    if (r->order)
        g_ptr_array_free(r->order, TRUE);
    g_free(r->stats_json);
    g_free(r);
}
