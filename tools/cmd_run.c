/* tools/cmd_run.c — `ptxemu check` (will this PTX run?) and `ptxemu run`
 * (launch one kernel with arguments given on the command line). */
#include "frontend/parser.h"
#include "api/api_internal.h"
#include "sched/sched.h"
#include "timing/stats.h"
#include "tools/commands.h"
#include "tools/run_args.h"
#include "tools/run_file.h"
#include "runtime/loader.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ check */

int cmd_check(int argc, char **argv)
{
    gboolean quiet = FALSE;
    GOptionEntry entries[] = {
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "print problems only", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("FILE...");
    g_option_context_set_summary(oc, "Parse and decode every function; list each instruction "
                                     "that cannot run yet.  Exit status 0 only when all can.");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu check: %s\n", err->message);
        g_error_free(err);
        g_option_context_free(oc);
        return 2;
    }
    g_option_context_free(oc);
    if (argc < 2) {
        fprintf(stderr, "ptxemu check: no input files\n");
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        ptx_module *ir = ptx_parse_file(argv[i], &err);
        if (!ir) {
            fprintf(stderr, "%s\n", err->message);
            g_clear_error(&err);
            status = 1;
            continue;
        }
        dev_memory mem;
        mem_init(&mem);
        GPtrArray *unsupported = g_ptr_array_new_with_free_func(g_free);
        ex_module *ex = ex_module_load_ex(ir, &mem, unsupported, &err);
        if (!ex) {
            fprintf(stderr, "%s\n", err ? err->message : "load failed");
            g_clear_error(&err);
            status = 1;
        } else {
            for (guint k = 0; k < unsupported->len; k++)
                printf("%s\n", (const char *)g_ptr_array_index(unsupported, k));
            if (unsupported->len)
                status = 1;
            else if (!quiet)
                printf("%s: every instruction of %u function%s can run\n", argv[i],
                       ir->funcs->len, ir->funcs->len == 1 ? "" : "s");
            ex_module_free(ex);
        }
        g_ptr_array_free(unsupported, TRUE);
        mem_destroy(&mem);
        ptx_module_free(ir);
    }
    return status;
}

/* -------------------------------------------------------------------- run */

static bool parse_dims(const char *s, ptxemu_dim3 *d)
{
    unsigned v[3] = {1, 1, 1};
    char *end;
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        errno = 0;
        if (!g_ascii_isdigit(*p))
            return false;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p || errno || x == 0 || x > 0x7fffffffUL)
            return false;
        v[i] = (unsigned)x;
        if (*end == '\0')
            break;
        if (*end != ',' || i == 2)
            return false;
        p = end + 1;
    }
    d->x = v[0];
    d->y = v[1];
    d->z = v[2];
    return true;
}

/* `--dump N:FILE`: buffer argument N (0-based); checked before the launch. */
static bool parse_dump(const char *spec, const run_arg *args, guint nargs, guint *idx,
                       const char **path)
{
    const char *colon = strchr(spec, ':');
    if (!colon || colon == spec || !colon[1])
        return false;
    guint64 v;
    char *num = g_strndup(spec, (gsize)(colon - spec));
    bool ok = g_ascii_string_to_unsigned(num, 10, 0, G_MAXUINT, &v, NULL);
    g_free(num);
    if (!ok || v >= nargs || args[v].kind == RUN_ARG_SCALAR)
        return false;
    *idx = (guint)v;
    *path = colon + 1;
    return true;
}

/* Loads the buffers (allocation, contents, copy) and points argv at the
 * values; every message names the argument. */
static bool prepare_args(ptxemu_ctx *ctx, run_arg *args, guint nargs, char **specs,
                         void **argv_ptrs, const ptxemu_dptr *shared)
{
    GString *why = g_string_new(NULL);
    bool ok = true;
    for (guint i = 0; i < nargs && ok; i++) {
        run_arg *a = &args[i];
        if (a->kind == RUN_ARG_SCALAR) {
            argv_ptrs[i] = &a->scalar;
            continue;
        }
        if (shared[i]) { /* buffer:L:N: an earlier launch's buffer, not ours to fill */
            a->dptr = shared[i];
            argv_ptrs[i] = &a->dptr;
            continue;
        }
        if (ptxemu_malloc(ctx, &a->dptr, a->bytes) != PTXEMU_OK) {
            fprintf(stderr, "ptxemu run: --arg %u '%.64s%s': %s\n", i, specs[i],
                    strlen(specs[i]) > 64 ? "..." : "", ptxemu_last_error(ctx));
            ok = false;
        } else if (!run_arg_materialise(a, why)) {
            fprintf(stderr, "ptxemu run: --arg %u: %s\n", i, why->str);
            ok = false;
        } else if (ptxemu_memcpy_htod(ctx, a->dptr, a->host, a->bytes) != PTXEMU_OK) {
            fprintf(stderr, "ptxemu run: --arg %u: %s\n", i, ptxemu_last_error(ctx));
            ok = false;
        }
        argv_ptrs[i] = &a->dptr;
    }
    g_string_free(why, TRUE);
    return ok;
}

/* Scalars must fit the kernel's parameters (size, type class, range). */
static bool check_params(ptxemu_module *mod, const char *kernel, const run_arg *args,
                         guint nargs)
{
    const ex_func *kf = g_hash_table_lookup(ptxemu_module_ex(mod)->kernels, kernel);
    if (!kf)
        return true; /* the launch reports the unknown kernel */
    if (kf->nparams != nargs) {
        fprintf(stderr, "ptxemu run: kernel '%.64s' takes %u parameters, %u --arg given\n",
                kernel, kf->nparams, nargs);
        return false;
    }
    const ptx_module *ir = ptxemu_module_ex(mod)->ir;
    GString *why = g_string_new(NULL);
    bool ok = true;
    for (guint i = 0; i < nargs && ok; i++) {
        const ptx_var *p = ptx_module_var(ir, g_array_index(kf->ir->params, int32_t, i));
        if (!run_arg_fits_param(&args[i], p, why)) {
            fprintf(stderr, "ptxemu run: --arg %u (parameter '%.64s' of '%.64s'): %s\n", i,
                    p->name, kernel, why->str);
            ok = false;
        }
    }
    g_string_free(why, TRUE);
    return ok;
}

static bool write_dumps(ptxemu_ctx *ctx, run_arg *args, guint nargs, char **dumps)
{
    for (guint i = 0; dumps && dumps[i]; i++) {
        guint idx;
        const char *path;
        parse_dump(dumps[i], args, nargs, &idx, &path); /* checked before the launch */
        GError *err = NULL;
        if (ptxemu_memcpy_dtoh(ctx, args[idx].host, args[idx].dptr, args[idx].bytes) !=
                PTXEMU_OK ||
            !out_file_write_all(path, args[idx].host, args[idx].bytes, &err)) {
            fprintf(stderr, "ptxemu run: --dump %u: %s\n", idx,
                    err ? err->message : ptxemu_last_error(ctx));
            g_clear_error(&err);
            return false;
        }
    }
    return true;
}

/* One launch of the command line: the options before the first --then,
 * or between two --then. */
typedef struct launch_spec {
    gchar *kernel, *grid_s, *block_s;
    gint64 shared, arrive, append_to;
    gint64 stream, wait;         /* -1: none (a batch launch) */
    gchar *module_path;          /* run file: its module; NULL: FILE.ptx */
    gint *ref_launch, *ref_arg;  /* per argument: buffer:L:N, or -1 */
    gchar **arg_specs, **dumps;
    ptxemu_dim3 grid, block;
    run_arg *args;
    guint nargs;
    void **argv_ptrs;
    ptxemu_module *mod;
} launch_spec;

static void launch_entries(launch_spec *l, GOptionEntry *e)
{
    GOptionEntry v[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &l->kernel, "kernel (.entry) to launch", "NAME"},
        {"grid", 'g', 0, G_OPTION_ARG_STRING, &l->grid_s, "grid size", "X[,Y[,Z]]"},
        {"block", 'b', 0, G_OPTION_ARG_STRING, &l->block_s, "block size", "X[,Y[,Z]]"},
        {"shared", 's', 0, G_OPTION_ARG_INT64, &l->shared, "dynamic shared memory", "BYTES"},
        {"arg", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &l->arg_specs,
         "kernel argument, in parameter order: u32:5, s64:-3, f32:1.5, f64:2, b32:0x3fc00000 "
         "(raw bits), file:PATH, zeros:BYTES, iota:TYPE:COUNT, rand:TYPE:COUNT:SEED, "
         "buffer:L:N (buffer argument N of earlier launch L)", "SPEC"},
        {"dump", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &l->dumps,
         "after the launches write buffer argument N (0-based) of this launch to FILE",
         "N:FILE"},
        {"arrive", 0, 0, G_OPTION_ARG_INT64, &l->arrive,
         "with --timing: the launch arrives this many cycles after the first (default 0); "
         "functionally launches run in arrival order", "CYCLES"},
        {"append-to", 0, 0, G_OPTION_ARG_INT64, &l->append_to,
         "append this launch's CTAs to the kernel of launch N (0-based, an earlier launch): "
         "the dynamic-parallelism TB-group model", "N"},
        {"stream", 0, 0, G_OPTION_ARG_INT64, &l->stream,
         "launch asynchronously into stream N (0: the default stream); launches with streams "
         "run in command-line order per stream, concurrently across streams", "N"},
        {"wait", 0, 0, G_OPTION_ARG_INT64, &l->wait,
         "with streams: start only after launch N (0-based, an earlier one) has finished", "N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    memcpy(e, v, sizeof v);
}

static void launch_spec_clear(launch_spec *l)
{
    for (guint i = 0; l->args && i < l->nargs; i++)
        run_arg_clear(&l->args[i]);
    g_free(l->args);
    g_free(l->argv_ptrs);
    g_free(l->kernel);
    g_free(l->grid_s);
    g_free(l->block_s);
    g_free(l->module_path);
    g_free(l->ref_launch);
    g_free(l->ref_arg);
    g_strfreev(l->arg_specs);
    g_strfreev(l->dumps);
}

/* Checks one launch's options and parses its arguments; `n` numbers it in
 * messages when there are several. */
static bool launch_spec_check(launch_spec *l, guint n, guint count)
{
    char who[32] = "";
    if (count > 1)
        snprintf(who, sizeof who, "launch %u: ", n);
    if (!l->kernel || !l->grid_s || !l->block_s) {
        fprintf(stderr, "ptxemu run: %sneed --kernel, --grid and --block\n", who);
        return false;
    }
    if (!parse_dims(l->grid_s, &l->grid) || !parse_dims(l->block_s, &l->block)) {
        fprintf(stderr, "ptxemu run: %s--grid/--block take X[,Y[,Z]] with positive integers\n",
                who);
        return false;
    }
    if (l->shared < 0 || l->arrive < 0) {
        fprintf(stderr, "ptxemu run: %s--shared and --arrive must not be negative\n", who);
        return false;
    }
    if (l->wait < -1 || l->wait >= (gint64)n || l->stream < -1) {
        fprintf(stderr, "ptxemu run: %s--wait %lld must name an earlier launch (0 to %d) and "
                "--stream must not be negative\n", who, (long long)l->wait, (int)n - 1);
        return false;
    }
    if ((l->stream >= 0 || l->wait >= 0) && (l->arrive || l->append_to >= 0)) {
        fprintf(stderr, "ptxemu run: %s--stream/--wait and --arrive/--append-to do not "
                "mix (streams order launches by their dependencies)\n", who);
        return false;
    }
    if (l->append_to < -1 || l->append_to >= (gint64)n) {
        fprintf(stderr, "ptxemu run: %s--append-to %lld must name an earlier launch (0 to %d)\n",
                who, (long long)l->append_to, (int)n - 1);
        return false;
    }
    l->nargs = l->arg_specs ? g_strv_length(l->arg_specs) : 0;
    l->args = g_new0(run_arg, l->nargs + 1);
    l->ref_launch = g_new(gint, l->nargs + 1);
    l->ref_arg = g_new(gint, l->nargs + 1);
    GString *why = g_string_new(NULL);
    for (guint i = 0; i < l->nargs; i++) {
        l->ref_launch[i] = l->ref_arg[i] = -1;
        unsigned rl, ra;
        char tail;
        if (g_str_has_prefix(l->arg_specs[i], "buffer:")) {
            if (sscanf(l->arg_specs[i], "buffer:%u:%u%c", &rl, &ra, &tail) != 2 || rl >= n) {
                fprintf(stderr, "ptxemu run: %s--arg %u: buffer:L:N must name buffer argument "
                        "N of an earlier launch L\n", who, i);
                g_string_free(why, TRUE);
                return false;
            }
            l->ref_launch[i] = (gint)rl;
            l->ref_arg[i] = (gint)ra;
            l->args[i].kind = RUN_ARG_ZEROS; /* a buffer: checked against a pointer */
            l->args[i].bytes = 1;
            continue;
        }
        if (!run_arg_parse(l->arg_specs[i], &l->args[i], why)) {
            fprintf(stderr, "ptxemu run: %s--arg %u: %s\n", who, i, why->str);
            g_string_free(why, TRUE);
            return false;
        }
    }
    g_string_free(why, TRUE);
    for (guint i = 0; l->dumps && l->dumps[i]; i++) {
        guint idx;
        const char *path;
        if (parse_dump(l->dumps[i], l->args, l->nargs, &idx, &path) && l->ref_launch[idx] >= 0) {
            fprintf(stderr, "ptxemu run: %s--dump %u: a buffer:L:N argument is dumped by "
                            "launch L\n", who, idx);
            return false;
        }
        if (!parse_dump(l->dumps[i], l->args, l->nargs, &idx, &path)) {
            fprintf(stderr, "ptxemu run: %s--dump '%.64s%s' must name a buffer argument as "
                            "N:FILE\n", who, l->dumps[i], strlen(l->dumps[i]) > 64 ? "..." : "");
            return false;
        }
    }
    return true;
}

static void print_run(ptxemu_ctx *ctx, const launch_spec *ls, guint nl, double secs,
                      bool timing)
{
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    for (guint i = 0; i < nl; i++)
        printf("kernel %s: grid (%u,%u,%u) block (%u,%u,%u)%s\n", ls[i].kernel, ls[i].grid.x,
               ls[i].grid.y, ls[i].grid.z, ls[i].block.x, ls[i].block.y, ls[i].block.z,
               nl > 1 && ls[i].arrive ? " (arrives later)" : "");
    const tm_stats *st = ptxemu_timing_stats(ctx);
    for (guint i = 0; st && nl > 1 && i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        guint li = k->launch - 1; /* launch ids count from 1 in command-line order */
        printf("launch %u %s", li, k->name);
        if (li < nl && ls[li].stream >= 0)
            printf(" (stream %lld)", (long long)ls[li].stream);
        printf(": cycles %llu..%llu\n", (unsigned long long)k->start, (unsigned long long)k->end);
    }
    printf("warp instructions:   %llu\n", (unsigned long long)c.warp_instructions);
    printf("thread instructions: %llu\n", (unsigned long long)c.thread_instructions);
    printf("wall time:           %.3f s\n", secs);
    printf("speed:               %.1f M thread-instructions/s\n",
           secs > 0 ? (double)c.thread_instructions / secs / 1e6 : 0.0);
    if (timing) {
        printf("simulation speed:    %.2f M warp-instructions/s, %.2f M cycles/s\n",
               secs > 0 ? (double)c.warp_instructions / secs / 1e6 : 0.0,
               secs > 0 ? (double)c.cycles / secs / 1e6 : 0.0);
        ptxemu_print_timing_summary(ctx, stdout);
    }
}

/* Launches with streams: each into its stream (0: the default one) in
 * command-line order, a --wait as an event the stream waits on; then one
 * wait for all of them. */
static ptxemu_status run_streams(ptxemu_ctx *ctx, const ptxemu_launch_desc *d,
                                 const launch_spec *ls, int nl)
{
    GHashTable *streams = g_hash_table_new(g_int64_hash, g_int64_equal);
    ptxemu_event **ev = g_new0(ptxemu_event *, (size_t)nl);
    ptxemu_stream **sof = g_new0(ptxemu_stream *, (size_t)nl);
    ptxemu_status s = PTXEMU_OK;
    for (int i = 0; i < nl && s == PTXEMU_OK; i++) {
        const launch_spec *l = &ls[i];
        if (l->stream > 0 && !(sof[i] = g_hash_table_lookup(streams, &l->stream))) {
            s = ptxemu_stream_create(ctx, &sof[i]);
            g_hash_table_insert(streams, (gpointer)&l->stream, sof[i]);
        }
        if (s == PTXEMU_OK && l->wait >= 0)
            s = ptxemu_stream_wait_event(ctx, sof[i], ev[l->wait]);
        if (s == PTXEMU_OK)
            s = ptxemu_launch_async(d[i].mod, d[i].kernel, d[i].grid, d[i].block,
                                    d[i].dynamic_shared_bytes, d[i].args, sof[i]);
        if (s == PTXEMU_OK)
            s = ptxemu_event_create(ctx, &ev[i]);
        if (s == PTXEMU_OK)
            s = ptxemu_event_record(ev[i], sof[i]);
    }
    if (s == PTXEMU_OK)
        s = ptxemu_synchronize(ctx);
    ptxemu_status s2 = PTXEMU_OK;
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, streams);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        ptxemu_status sd = ptxemu_stream_destroy(ctx, v);
        if (s2 == PTXEMU_OK)
            s2 = sd;
    }
    for (int i = 0; i < nl; i++)
        ptxemu_event_destroy(ev[i]);
    g_hash_table_destroy(streams);
    g_free(ev);
    g_free(sof);
    return s != PTXEMU_OK ? s : s2;
}

/* Parses argv[from, to) as the options of launch l (with no FILE). */
static bool parse_more(launch_spec *l, char **argv, int from, int to)
{
    GOptionEntry e[11];
    launch_entries(l, e);
    GOptionContext *oc = g_option_context_new("");
    g_option_context_add_main_entries(oc, e, NULL);
    int n = to - from + 1;
    char **v = g_new0(char *, (size_t)n + 1);
    v[0] = (char *)"ptxemu run --then";
    for (int i = from; i < to; i++)
        v[i - from + 1] = argv[i];
    char **vv = v;
    GError *err = NULL;
    bool ok = g_option_context_parse(oc, &n, &vv, &err);
    if (!ok) {
        fprintf(stderr, "ptxemu run: after --then: %s (options of the whole run, such as "
                        "--timing and --stats, come before the first --then)\n", err->message);
        g_error_free(err);
    } else if (n != 1) {
        fprintf(stderr, "ptxemu run: after --then: unexpected '%s' (the PTX file comes before "
                        "the first --then)\n", vv[1]);
        ok = false;
    }
    g_free(vv);
    g_option_context_free(oc);
    return ok;
}

int cmd_run(int argc, char **argv)
{
    gint64 livelock = 0;
    gchar *run_file = NULL;
    char **file_argv = NULL;     /* launch options from the run file */
    timing_cli tc = {0};
    /* launches are separated by --then; the first part also holds FILE and
     * the options that apply to the whole run */
    int nl = 1;
    for (int i = 1; i < argc; i++)
        nl += !strcmp(argv[i], "--then");
    for (int i = 1; i < argc; i++) /* a run file brings its own launches */
        if (!strcmp(argv[i], "--run-file") || g_str_has_prefix(argv[i], "--run-file="))
            nl = RUN_FILE_MAX_LAUNCHES;
    launch_spec *ls = g_new0(launch_spec, (size_t)nl);
    for (int i = 0; i < nl; i++)
        ls[i].append_to = ls[i].stream = ls[i].wait = -1;
    int first_end = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--then")) {
            first_end = i;
            break;
        }
    gboolean its = FALSE, no_its = FALSE, coop = FALSE;
    GOptionEntry entries[16];
    launch_entries(&ls[0], entries);
    entries[10] = (GOptionEntry){"livelock-limit", 0, 0, G_OPTION_ARG_INT64, &livelock,
                                 "warp instructions without a memory change before a launch is "
                                 "stopped", "N"};
    entries[11] = (GOptionEntry){"run-file", 0, 0, G_OPTION_ARG_FILENAME, &run_file,
                                 "the launches (modules, kernels, arguments, streams, waits) "
                                 "from an INI run file (docs/run-files.md) instead of FILE.ptx "
                                 "and launch options", "FILE"};
    entries[12] = (GOptionEntry){"its", 0, 0, G_OPTION_ARG_NONE, &its,
                                 "independent thread scheduling (per-lane PCs, sm_70 and newer) "
                                 "instead of the SIMT reconvergence stack", NULL};
    entries[13] = (GOptionEntry){"no-its", 0, 0, G_OPTION_ARG_NONE, &no_its,
                                 "the SIMT reconvergence stack even where warp.its would turn "
                                 "independent thread scheduling on", NULL};
    entries[14] = (GOptionEntry){"cooperative", 0, 0, G_OPTION_ARG_NONE, &coop,
                                 "a cooperative launch (cudaLaunchCooperativeKernel): every CTA "
                                 "resident at once, so cooperative_groups' grid.sync() works; "
                                 "one launch only", NULL};
    entries[15] = (GOptionEntry){NULL, 0, 0, 0, NULL, NULL, NULL};
    GOptionContext *oc = g_option_context_new("FILE.ptx [--then LAUNCH-OPTIONS]... | "
                                              "--run-file FILE");
    g_option_context_set_summary(oc, "Launch a kernel functionally (or, with --timing, on the "
                                     "cycle-level timing model) and report instruction counts "
                                     "and speed.  Several launches separated by --then (each "
                                     "with --kernel, --grid, --block, --arg... and optionally "
                                     "--arrive and --append-to) are submitted together: under "
                                     "timing they run concurrently as kernel.policy allows.");
    g_option_context_add_main_entries(oc, entries, NULL);
    timing_cli_add_group(oc, &tc);
    GError *err = NULL;
    int status = 2;
    out_file sched_trace = {0};
    ptxemu_ctx *ctx = NULL;
    ptxemu_launch_desc *descs = NULL;
    int argc0 = first_end;
    if (!g_option_context_parse(oc, &argc0, &argv, &err)) {
        fprintf(stderr, "ptxemu run: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    if (run_file) {
        GError *rerr = NULL;
        if (argc0 != 1 || first_end != argc || ls[0].kernel) {
            fprintf(stderr, "ptxemu run: --run-file takes no FILE.ptx, launch options or "
                            "--then\n");
            goto out;
        }
        int got = run_file_load(run_file, &file_argv, &rerr);
        if (got < 0) {
            fprintf(stderr, "ptxemu run: %s\n", rerr->message);
            g_error_free(rerr);
            goto out;
        }
        for (int i = 0; i < got; i++) {
            char **v = g_strsplit(file_argv[i], "\n", -1);
            gchar *module = g_strdup(v[0]); /* line 1: the module, then one option a line */
            bool ok = parse_more(&ls[i], v + 1, 0, (int)g_strv_length(v + 1));
            g_strfreev(v);
            ls[i].module_path = module;
            if (!ok)
                goto out;
        }
        nl = got;
    } else if (argc0 != 2) {
        fprintf(stderr, "ptxemu run: need FILE.ptx, --kernel, --grid and --block\n");
        goto out;
    }
    for (int i = 1, from = first_end + 1; !run_file && i < nl; i++) {
        int to = from;
        while (to < argc && strcmp(argv[to], "--then"))
            to++;
        if (!parse_more(&ls[i], argv, from, to))
            goto out;
        from = to + 1;
    }
    if (livelock < 0) {
        fprintf(stderr, "ptxemu run: --livelock-limit must not be negative\n");
        goto out;
    }
    /* a cooperative grid owns the GPU: no concurrent launches to place beside it */
    if (coop && (nl != 1 || ls[0].stream >= 0 || ls[0].wait >= 0 || ls[0].arrive ||
                 ls[0].append_to >= 0)) {
        fprintf(stderr, "ptxemu run: --cooperative takes exactly one launch, without "
                        "--then, --stream, --wait, --arrive or --append-to\n");
        goto out;
    }
    for (int i = 0; i < nl; i++)
        if (!launch_spec_check(&ls[i], (guint)i, (guint)nl))
            goto out;
    ptxemu_options opts = {0};
    opts.livelock_limit = (uint64_t)livelock;
    opts.its = its ? 1 : no_its ? -1 : 0; /* 0: the config's warp.its */
    if (!timing_cli_options(&tc, &opts, &sched_trace, "ptxemu run"))
        goto out;
    if (ptxemu_ctx_create(&ctx, &opts) != PTXEMU_OK) {
        fprintf(stderr, "ptxemu run: %s\n", ptxemu_last_error(ctx));
        goto out;
    }
    ptxemu_module *mod = NULL;
    status = 1;
    if (!run_file && ptxemu_module_load_file(ctx, argv[1], &mod) != PTXEMU_OK) {
        fprintf(stderr, "%s\n", ptxemu_last_error(ctx));
        goto out;
    }
    descs = g_new0(ptxemu_launch_desc, (size_t)nl);
    bool streams = false;
    for (int i = 0; i < nl; i++) {
        launch_spec *l = &ls[i];
        streams |= l->stream >= 0 || l->wait >= 0;
        /* a run file's launches: each module loaded once */
        for (int j = 0; l->module_path && j <= i; j++) {
            if (j < i && strcmp(ls[j].module_path, l->module_path))
                continue;
            if (j < i) {
                mod = (ptxemu_module *)descs[j].mod;
                break;
            }
            if (ptxemu_module_load_file(ctx, l->module_path, &mod) != PTXEMU_OK) {
                fprintf(stderr, "%s\n", ptxemu_last_error(ctx));
                goto out;
            }
        }
        if (!check_params(mod, l->kernel, l->args, l->nargs))
            goto out;
        l->argv_ptrs = g_new0(void *, l->nargs + 1);
        ptxemu_dptr *shared = g_new0(ptxemu_dptr, l->nargs + 1);
        bool refs_ok = true;
        for (guint a = 0; a < l->nargs; a++) {
            gint rl = l->ref_launch[a], ra = l->ref_arg[a];
            if (rl < 0)
                continue;
            if ((guint)ra >= ls[rl].nargs || ls[rl].args[ra].kind == RUN_ARG_SCALAR) {
                fprintf(stderr, "ptxemu run: launch %d: --arg %u: launch %d has no buffer "
                        "argument %d\n", i, a, rl, ra);
                refs_ok = false;
            } else {
                shared[a] = ls[rl].args[ra].dptr;
            }
        }
        bool prepared = refs_ok && prepare_args(ctx, l->args, l->nargs, l->arg_specs,
                                                l->argv_ptrs, shared);
        g_free(shared);
        if (!prepared)
            goto out;
        descs[i] = (ptxemu_launch_desc){mod, l->kernel, l->grid, l->block, (size_t)l->shared,
                                        l->argv_ptrs, (uint64_t)l->arrive, (int)l->append_to};
    }
    gint64 t0 = g_get_monotonic_time();
    ptxemu_status s =
        coop      ? ptxemu_launch_cooperative(descs[0].mod, descs[0].kernel, descs[0].grid,
                                              descs[0].block, descs[0].dynamic_shared_bytes,
                                              descs[0].args)
        : streams ? run_streams(ctx, descs, ls, nl)
                  : ptxemu_launch_batch(ctx, descs, (unsigned)nl);
    gint64 t1 = g_get_monotonic_time();
    fflush(stdout);
    if (s != PTXEMU_OK) {
        fprintf(stderr, "ptxemu run: %s: %s\n", ptxemu_status_string(s), ptxemu_last_error(ctx));
        goto out;
    }
    for (int i = 0; i < nl; i++)
        if (!write_dumps(ctx, ls[i].args, ls[i].nargs, ls[i].dumps))
            goto out;
    if (!timing_cli_close_trace(&sched_trace, true, "ptxemu run"))
        goto out;
    print_run(ctx, ls, (guint)nl, (double)(t1 - t0) / 1e6, tc.timing);
    status = 0;
out:
    timing_cli_close_trace(&sched_trace, false, "ptxemu run");
    timing_cli_free(&tc);
    for (int i = 0; i < nl; i++)
        launch_spec_clear(&ls[i]);
    g_free(ls);
    g_free(descs);
    g_free(run_file);
    g_strfreev(file_argv);
    ptxemu_ctx_destroy(ctx);
    g_option_context_free(oc);
    return status;
}
