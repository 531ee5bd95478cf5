/* tools/cmd_validate.c — `ptxemu validate NAME...`: does a scheduler
 * change the answer?  Runs a benchmark's host driver once functionally and
 * then under the timing model with every implemented policy combination,
 * captures every device buffer at the end of each run (those the driver
 * frees on the way, through ptxemu_options.on_free, and those still live),
 * and compares them byte for byte.  Prints one table row per combination;
 * on a difference, the buffer, the first differing offset, both values and
 * the command that replays the run with --sched-trace.  Exit 1 on any
 * difference.
 *
 * Built with -DPTXEMU_VALIDATE_TEST_POLICY (tests only) it adds a
 * combination "test-corrupt-store" that flips one 32-bit word of the last
 * buffer it captures, at byte offset PTXEMU_VALIDATE_TEST_POLICY, standing
 * in for a scheduler that corrupts a store: real policies cannot touch
 * functional state (sched/sched.h), so this shows the comparison catches
 * one that did. */
#include "benchmarks/harness.h"
#include "sched/sched.h"
#include "tools/commands.h"
#include "tools/validate.h"

#include <string.h>

/* Every implemented policy combination as a "k=v k=v" list: one policy
 * per level from the registry (sched/policies.def), CTA filters none or
 * each alone.  The one place that maps levels to config keys; adapt it
 * when a level is added. */
static const struct { sched_level level; const char *key; } levels[] = {
    {SCHED_LEVEL_WARP, "warp.policy"},   {SCHED_LEVEL_CTA, "cta.policy"},
    {SCHED_LEVEL_FILTER, "cta.filters"}, {SCHED_LEVEL_BACKOFF, "spin.policy"},
    {SCHED_LEVEL_KERNEL, "kernel.policy"}, {SCHED_LEVEL_FETCH, "fetch.policy"},
    {SCHED_LEVEL_L1, "l1d.policy"},
};

/* Every policy once: the baselines (each level's first policy, no
 * filter), then each other policy with every other level at its baseline.
 * Grows with the sum of the levels' policies, not their product, so the
 * test suite can afford "every policy x every benchmark". */
static GPtrArray *policy_each(void)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(out, g_strdup("")); /* every level's baseline */
    for (unsigned l = 0; l < G_N_ELEMENTS(levels); l++) {
        uint32_t n;
        const sched_policy *p = sched_policies(levels[l].level, &n);
        for (uint32_t i = levels[l].level == SCHED_LEVEL_FILTER ? 0 : 1; i < n; i++)
            g_ptr_array_add(out, g_strdup_printf("%s=%s", levels[l].key, p[i].name));
    }
    return out;
}

static GPtrArray *policy_combinations(void)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(out, g_strdup(""));
    for (unsigned l = 0; l < G_N_ELEMENTS(levels); l++) {
        uint32_t n;
        const sched_policy *p = sched_policies(levels[l].level, &n);
        GPtrArray *next = g_ptr_array_new_with_free_func(g_free);
        for (guint c = 0; c < out->len; c++) {
            const char *prefix = g_ptr_array_index(out, c);
            const char *sep = *prefix ? " " : "";
            if (levels[l].level == SCHED_LEVEL_FILTER) /* no filter at all */
                g_ptr_array_add(next, g_strdup(prefix));
            for (uint32_t i = 0; i < n; i++)
                g_ptr_array_add(next, g_strdup_printf("%s%s%s=%s", prefix, sep, levels[l].key,
                                                      p[i].name));
        }
        g_ptr_array_free(out, TRUE);
        out = next;
    }
    return out;
}

typedef struct buffer {
    uint64_t addr;
    GBytes *bytes;
    bool freed;              /* freed by the driver (else live at the end) */
} buffer;

typedef struct capture {
    GArray *bufs;            /* buffer */
    bool corrupt;            /* test build: flip a word of the last buffer */
} capture;

static void on_buffer(void *user, ptxemu_dptr addr, const void *bytes, size_t size, bool freed)
{
    capture *c = user;
    buffer b = {addr, g_bytes_new(bytes, size), freed};
    g_array_append_val(c->bufs, b);
}

static void on_free(void *user, ptxemu_dptr addr, const void *bytes, size_t size)
{
    on_buffer(user, addr, bytes, size, true);
}

static void on_live(void *user, ptxemu_dptr addr, const void *bytes, size_t size)
{
    on_buffer(user, addr, bytes, size, false);
}

static void buffer_clear(gpointer p)
{
    g_bytes_unref(((buffer *)p)->bytes);
}

typedef struct run_result {
    bench_outcome outcome;
    char msg[512];
    uint64_t cycles;
    GArray *bufs;
} run_result;

/* Runs the benchmark (timing when sets != NULL) and captures its buffers. */
static bool run_once(const bench_def *b, bench_size size, uint64_t seed, const char *config,
                     char **sets, bool corrupt, run_result *r, GString *err)
{
    capture cap = {g_array_new(FALSE, FALSE, sizeof(buffer)), corrupt};
    g_array_set_clear_func(cap.bufs, buffer_clear);
    ptxemu_options o = {0};
    o.on_free = on_free;
    o.on_free_user = &cap;
    if (sets) {
        o.timing = 1;
        o.timing_config = config;
        o.timing_set = (const char *const *)sets;
    }
    ptxemu_ctx *ctx = NULL;
    r->outcome = bench_run_ctx(b, size, seed, &o, &ctx, r->msg);
    ptxemu_visit_buffers(ctx, on_live, &cap);
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    r->cycles = c.cycles;
    if (r->outcome == BENCH_ERROR && !cap.bufs->len)
        g_string_printf(err, "%s", r->msg[0] ? r->msg : ptxemu_last_error(ctx));
    ptxemu_ctx_destroy(ctx);
#ifdef PTXEMU_VALIDATE_TEST_POLICY
    if (corrupt && cap.bufs->len) {
        buffer *last = &g_array_index(cap.bufs, buffer, cap.bufs->len - 1);
        gsize n;
        guint8 *d = g_bytes_unref_to_data(last->bytes, &n);
        size_t at = (size_t)PTXEMU_VALIDATE_TEST_POLICY;
        if (at + 4 <= n)
            d[at] ^= 0x01;
        last->bytes = g_bytes_new_take(d, n);
    }
#else
    (void)corrupt;
#endif
    r->bufs = cap.bufs;
    return err->len == 0;
}

static uint32_t word_at(const guint8 *d, size_t n, size_t off)
{
    uint32_t w = 0;
    size_t base = off & ~(size_t)3;
    for (size_t i = 0; i < 4 && base + i < n; i++)
        w |= (uint32_t)d[base + i] << (8 * i);
    return w;
}

int validate_width(GPtrArray *combos)
{
    size_t w = 15; /* "(the baselines)" */
    for (guint i = 0; i < combos->len; i++)
        w = MAX(w, strlen(g_ptr_array_index(combos, i)));
    return (int)w;
}

char **validate_combo_sets(const char *combo, char **extra)
{
    GPtrArray *sets = g_ptr_array_new();
    char **words = g_strsplit(combo, " ", -1);
    for (unsigned i = 0; words[i]; i++)
        if (*words[i])
            g_ptr_array_add(sets, g_strdup(words[i]));
    for (unsigned i = 0; extra && extra[i]; i++)
        g_ptr_array_add(sets, g_strdup(extra[i]));
    g_ptr_array_add(sets, NULL);
    g_strfreev(words);
    return (char **)g_ptr_array_free(sets, FALSE);
}

void validate_describe_diff(const char *name, const guint8 *da, size_t na, const guint8 *db,
                            size_t nb, GString *why)
{
    if (na != nb) {
        g_string_printf(why, "%s: functional %zu bytes, this run %zu bytes", name, na, nb);
        return;
    }
    if (!memcmp(da, db, na))
        return;
    size_t off = 0, ndiff = 0;
    while (da[off] == db[off])
        off++;
    for (size_t k = off; k < na; k++)
        ndiff += da[k] != db[k];
    g_string_printf(why, "%s: first difference at byte offset %zu: functional 0x%02x, timing "
                    "0x%02x (32-bit word at offset %zu: 0x%08x vs 0x%08x); %zu bytes differ",
                    name, off, da[off], db[off], off & ~(size_t)3, word_at(da, na, off),
                    word_at(db, nb, off), ndiff);
}

/* Appends the first difference between two captures to `why`; false if none. */
static bool compare(const run_result *ref, const run_result *got, GString *why)
{
    if (ref->bufs->len != got->bufs->len) {
        g_string_printf(why, "the functional run left %u buffers, this run %u", ref->bufs->len,
                        got->bufs->len);
        return true;
    }
    for (guint i = 0; i < ref->bufs->len && !why->len; i++) {
        const buffer *a = &g_array_index(ref->bufs, buffer, i);
        const buffer *b = &g_array_index(got->bufs, buffer, i);
        gsize na, nb;
        const guint8 *da = g_bytes_get_data(a->bytes, &na), *db = g_bytes_get_data(b->bytes, &nb);
        char *name = g_strdup_printf("buffer #%u (0x%" G_GINT64_MODIFIER "x, %zu bytes, %s)", i,
                                     a->addr, (size_t)na,
                                     a->freed ? "freed by the driver" : "live at exit");
        if (a->addr != b->addr)
            g_string_printf(why, "%s: this run has it at 0x%" G_GINT64_MODIFIER "x", name, b->addr);
        else
            validate_describe_diff(name, da, na, db, nb, why);
        g_free(name);
    }
    return why->len > 0;
}

static void result_clear(run_result *r)
{
    if (r->bufs)
        g_array_free(r->bufs, TRUE);
    r->bufs = NULL;
}

static int validate_one(const bench_def *b, bench_size size, const char *size_name,
                        uint64_t seed, const char *config, char **extra, GPtrArray *combos)
{
    run_result ref = {0};
    GString *err = g_string_new(NULL);
    if (!run_once(b, size, seed, NULL, NULL, false, &ref, err)) {
        printf("%s: the functional run failed: %s\n", b->name, err->str);
        g_string_free(err, TRUE);
        result_clear(&ref);
        return 2;
    }
    size_t total = 0;
    for (guint i = 0; i < ref.bufs->len; i++)
        total += g_bytes_get_size(g_array_index(ref.bufs, buffer, i).bytes);
    printf("validate %s (size %s, seed %" G_GUINT64_FORMAT ", config %s): %u device buffers, "
           "%zu bytes after the functional run (%s)\n", b->name, size_name, seed,
           config ? config : "built-in defaults", ref.bufs->len, total,
           ref.outcome == BENCH_PASS ? "PASS" : "its own check FAILED");
    int width = validate_width(combos);
    printf("%-*s %10s  %s\n", width, "policies", "cycles", "result");
    int rc = 0;
    unsigned same = 0;
    for (guint k = 0; k < combos->len; k++) {
        const char *combo = g_ptr_array_index(combos, k);
        bool corrupt = !strcmp(combo, "test-corrupt-store");
        char **sets = validate_combo_sets(corrupt ? "warp.policy=gto" : combo, extra);
        run_result got = {0};
        g_string_truncate(err, 0);
        GString *why = g_string_new(NULL);
        bool ran = run_once(b, size, seed, config, sets, corrupt, &got, err);
        bool differs = !ran || compare(&ref, &got, why);
        if (ran && !differs && got.outcome != ref.outcome) {
            g_string_printf(why, "buffers identical but the check says %s: %s",
                            got.outcome == BENCH_PASS ? "PASS" : "FAIL", got.msg);
            differs = true;
        }
        printf("%-*s %10" G_GUINT64_FORMAT "  %s\n", width, *combo ? combo : "(the baselines)",
               got.cycles,
               !ran ? "ERROR" : differs ? "DIFFERENT" : "identical");
        if (differs) {
            rc = 1;
            printf("    %s\n", ran ? why->str : err->str);
            GString *cmd = g_string_new(NULL);
            g_string_printf(cmd, "ptxemu bench run %s --size %s --seed %" G_GUINT64_FORMAT
                            " --timing", b->name, size_name, seed);
            if (config)
                g_string_append_printf(cmd, " --config %s", config);
            for (unsigned i = 0; sets[i]; i++)
                g_string_append_printf(cmd, " --set %s", sets[i]);
            g_string_append_printf(cmd, " --sched-trace %s.trace", b->name);
            printf("    replay: %s\n", cmd->str);
            g_string_free(cmd, TRUE);
        } else {
            same++;
        }
        g_string_free(why, TRUE);
        g_strfreev(sets);
        result_clear(&got);
    }
    printf("%s: %u of %u policy combinations leave every device buffer identical to the "
           "functional run\n", b->name, same, combos->len);
    g_string_free(err, TRUE);
    result_clear(&ref);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    gchar *size_s = NULL, *config = NULL, *ptx = NULL;
    gchar **sets = NULL, **only = NULL;
    gint64 seed = 1;
    gboolean list = FALSE, each = FALSE;
    gchar *shard_s = NULL;
    GOptionEntry entries[] = {
        {"size", 0, 0, G_OPTION_ARG_STRING, &size_s, "tiny (default), small or paper", "SIZE"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "input generator seed (default 1)", "N"},
        {"config", 0, 0, G_OPTION_ARG_STRING, &config, "GPU preset or INI file", "C"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "override for every run", "group.key=v"},
        {"only", 0, 0, G_OPTION_ARG_STRING_ARRAY, &only,
         "check only this combination (repeatable), e.g. 'warp.policy=gto cta.policy=rr'",
         "'k=v ...'"},
        {"ptx", 0, 0, G_OPTION_ARG_FILENAME, &ptx,
         "validate a run spec instead: ptxemu validate --ptx FILE -- --kernel K --grid G "
         "--block B --arg SPEC... (the options of ptxemu run)", "FILE"},
        {"shard", 0, 0, G_OPTION_ARG_STRING, &shard_s,
         "with all: only benchmarks whose registry index is I modulo N (test sharding)", "I/N"},
        {"list", 0, 0, G_OPTION_ARG_NONE, &list, "list the policy combinations and stop", NULL},
        {"each", 0, 0, G_OPTION_ARG_NONE, &each,
         "every policy once (others at their level's baseline) instead of every combination",
         NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("NAME... | all | --ptx FILE -- RUN-OPTIONS");
    g_option_context_set_summary(oc, "Run benchmarks functionally and under every implemented "
                                     "scheduling-policy combination; compare device memory "
                                     "byte for byte.");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    GPtrArray *combos = NULL;
    bench_size size = BENCH_TINY;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu validate: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    if (size_s && !bench_parse_size(size_s, &size)) {
        fprintf(stderr, "ptxemu validate: --size must be tiny, small or paper\n");
        goto out;
    }
    unsigned shard = 0, nshards = 1;
    if (shard_s && (sscanf(shard_s, "%u/%u", &shard, &nshards) != 2 || nshards == 0 ||
                    shard >= nshards)) {
        fprintf(stderr, "ptxemu validate: --shard wants I/N with I < N\n");
        goto out;
    }
    if (only) {
        combos = g_ptr_array_new_with_free_func(g_free);
        for (unsigned i = 0; only[i]; i++)
            g_ptr_array_add(combos, g_strdup(only[i]));
    } else {
        combos = each ? policy_each() : policy_combinations();
    }
#ifdef PTXEMU_VALIDATE_TEST_POLICY
    g_ptr_array_add(combos, g_strdup("test-corrupt-store"));
#endif
    if (list) {
        for (guint i = 0; i < combos->len; i++)
            printf("%s\n", (char *)g_ptr_array_index(combos, i));
        rc = 0;
        goto out;
    }
    if (ptx) {
        /* g_option_context_parse left "--" and what follows */
        int first = argc > 1 && !strcmp(argv[1], "--") ? 2 : 1;
        rc = validate_run_spec(ptx, argv + first, config, sets, combos);
        goto out;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: ptxemu validate NAME... | all [--size tiny] [--config C]\n"
                        "       ptxemu validate --ptx FILE -- --kernel K --grid G --block B "
                        "--arg SPEC...\n");
        goto out;
    }
    rc = 0;
    unsigned n;
    const bench_def *const *all = bench_all(&n);
    bool every = argc == 2 && !strcmp(argv[1], "all");
    for (int i = 1; i < argc || (every && (unsigned)(i - 1) < n); i++) {
        if (every && (unsigned)(i - 1) % nshards != shard)
            continue;
        const bench_def *b = every ? all[i - 1] : bench_find(argv[i]);
        if (!b) {
            fprintf(stderr, "ptxemu validate: no benchmark named '%s' (see 'ptxemu bench "
                            "list')\n", argv[i]);
            rc = 2;
            continue;
        }
        int r = validate_one(b, size, size_s ? size_s : "tiny", (uint64_t)seed, config, sets,
                             combos);
        rc = MAX(rc, r);
        fflush(stdout);
    }
out:
    if (combos)
        g_ptr_array_free(combos, TRUE);
    g_free(size_s);
    g_free(config);
    g_free(ptx);
    g_free(shard_s);
    g_strfreev(sets);
    g_strfreev(only);
    g_option_context_free(oc);
    return rc;
}
