/* tools/cmd_run.c — `ptxemu check` (will this PTX run?) and `ptxemu run`
 * (launch one kernel with arguments given on the command line). */
#include "frontend/parser.h"
#include "api/api_internal.h"
#include "tools/commands.h"

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

/* ------------------------------------------------------- timing options */

/* `--timing [--config NAME|FILE] [--set k=v]... [--warp-sched NAME]
 * [--cta-sched NAME] [--stats FILE] [--trace-csv DIR] [--trace-interval N]
 * [--sched-trace FILE]`, shared by `run` and `bench run`. */
void timing_cli_add_group(GOptionContext *oc, timing_cli *t)
{
    GOptionEntry e[] = {
        {"timing", 0, 0, G_OPTION_ARG_NONE, &t->timing,
         "run on the cycle-level timing model and print a timing summary", NULL},
        {"config", 0, 0, G_OPTION_ARG_STRING, &t->config,
         "GPU preset (m2090, c2050, gtx480, k20x, k20c, onac32, icc60) or INI file "
         "(default: built-in generic Fermi)", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &t->sets,
         "override one config key (repeatable)", "GROUP.KEY=VALUE"},
        {"warp-sched", 0, 0, G_OPTION_ARG_STRING, &t->warp, "warp scheduler (lrr, gto)", "NAME"},
        {"cta-sched", 0, 0, G_OPTION_ARG_STRING, &t->cta, "CTA scheduler (rr)", "NAME"},
        {"stats", 0, 0, G_OPTION_ARG_FILENAME, &t->stats, "write statistics as JSON", "FILE"},
        {"trace-csv", 0, 0, G_OPTION_ARG_FILENAME, &t->csv_dir,
         "write CSV time series (one file per launch) into DIR", "DIR"},
        {"trace-interval", 0, 0, G_OPTION_ARG_INT64, &t->interval,
         "cycles per CSV row (default: stats.interval)", "N"},
        {"regs-per-thread", 0, 0, G_OPTION_ARG_INT64, &t->regs,
         "registers per thread for occupancy (default: peak live registers of the "
         "kernel's .reg declarations)", "N"},
        {"sched-trace", 0, 0, G_OPTION_ARG_FILENAME, &t->sched_trace,
         "write every scheduling decision (CTA placement, kernel start/end) to FILE", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *g = g_option_group_new("timing", "Timing model options:",
                                         "Show the timing model options", NULL, NULL);
    g_option_group_add_entries(g, e);
    g_option_context_add_group(oc, g);
}

bool timing_cli_options(timing_cli *t, ptxemu_options *o, FILE **trace, const char *who)
{
    bool any = t->config || t->sets || t->warp || t->cta || t->stats || t->csv_dir ||
               t->interval || t->sched_trace || t->regs;
    if (any && !t->timing) {
        fprintf(stderr, "%s: timing options need --timing\n", who);
        return false;
    }
    if (t->interval < 0 || t->interval > 1000000000) {
        fprintf(stderr, "%s: --trace-interval must be between 1 and 1e9 cycles\n", who);
        return false;
    }
    o->timing = t->timing;
    o->timing_config = t->config;
    o->timing_set = (const char *const *)t->sets;
    o->warp_sched = t->warp;
    o->cta_sched = t->cta;
    o->stats_path = t->stats;
    o->trace_csv_dir = t->csv_dir;
    o->trace_interval = (uint32_t)t->interval;
    if (t->regs < 0 || t->regs > 255) {
        fprintf(stderr, "%s: --regs-per-thread must be between 1 and 255\n", who);
        return false;
    }
    o->regs_per_thread = (uint32_t)t->regs;
    if (t->sched_trace) {
        *trace = fopen(t->sched_trace, "w");
        if (!*trace) {
            fprintf(stderr, "%s: cannot write %s: %s\n", who, t->sched_trace, g_strerror(errno));
            return false;
        }
        o->sched_trace = *trace;
    }
    return true;
}

void timing_cli_free(timing_cli *t)
{
    g_free(t->config);
    g_strfreev(t->sets);
    g_free(t->warp);
    g_free(t->cta);
    g_free(t->stats);
    g_free(t->csv_dir);
    g_free(t->sched_trace);
    memset(t, 0, sizeof *t);
}

/* -------------------------------------------------------------------- run */

typedef struct run_arg {
    bool is_buffer;
    uint64_t scalar;        /* scalar value bits */
    unsigned scalar_size;
    ptxemu_dptr dptr;
    gsize bytes;
    guint8 *host;           /* buffer contents */
} run_arg;

static bool parse_dims(const char *s, ptxemu_dim3 *d)
{
    unsigned v[3] = {1, 1, 1};
    char *end;
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        errno = 0;
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

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Writes element i of `type` into buf: iota (value i) or random. */
static void fill_elem(guint8 *buf, ptx_type t, gsize i, bool random, uint64_t *state)
{
    unsigned sz = ptx_type_size(t);
    uint64_t bits = 0;
    if (t == PTX_T_F32) {
        float f = random ? (float)(splitmix(state) >> 40) / 16777216.0f : (float)i;
        memcpy(&bits, &f, 4);
    } else if (t == PTX_T_F64) {
        double d = random ? (double)(splitmix(state) >> 11) / 9007199254740992.0 : (double)i;
        memcpy(&bits, &d, 8);
    } else {
        bits = random ? splitmix(state) : (uint64_t)i;
    }
    memcpy(buf + i * sz, &bits, sz);
}

static bool parse_scalar(const char *type, const char *val, run_arg *a, GString *why)
{
    ptx_type t = ptx_type_from_name(type, (unsigned)strlen(type));
    char *end = NULL;
    errno = 0;
    a->scalar_size = ptx_type_size(t);
    switch (ptx_type_kind_of(t)) {
    case PTX_TK_U: case PTX_TK_B:
        a->scalar = strtoull(val, &end, 0);
        break;
    case PTX_TK_S:
        a->scalar = (uint64_t)strtoll(val, &end, 0);
        break;
    case PTX_TK_F:
        if (t == PTX_T_F32) {
            float f = strtof(val, &end);
            uint32_t b;
            memcpy(&b, &f, 4);
            a->scalar = b;
        } else if (t == PTX_T_F64) {
            double d = strtod(val, &end);
            memcpy(&a->scalar, &d, 8);
        } else {
            g_string_printf(why, "scalar type '%s' is not supported on the command line", type);
            return false;
        }
        break;
    default:
        g_string_printf(why, "unknown scalar type '%s'", type);
        return false;
    }
    if (!end || *end || errno) {
        g_string_printf(why, "bad %s value '%s'", type, val);
        return false;
    }
    return true;
}

/* SPEC: u32:5 | f32:1.5 | file:PATH | zeros:BYTES | iota:TYPE:COUNT | rand:TYPE:COUNT:SEED */
static bool parse_arg(const char *spec, run_arg *a, GString *why)
{
    gchar **f = g_strsplit(spec, ":", 4);
    guint n = g_strv_length(f);
    bool ok = false;
    if (n < 2) {
        g_string_printf(why, "argument '%s' is not TYPE:VALUE or a buffer spec", spec);
    } else if (!strcmp(f[0], "file")) {
        GError *err = NULL;
        gchar *path = g_strjoinv(":", f + 1);
        ok = g_file_get_contents(path, (gchar **)&a->host, &a->bytes, &err);
        if (!ok) {
            g_string_printf(why, "%s", err->message);
            g_error_free(err);
        }
        g_free(path);
        a->is_buffer = true;
    } else if (!strcmp(f[0], "zeros") && n == 2) {
        char *end;
        a->bytes = strtoull(f[1], &end, 0);
        ok = *end == '\0' && a->bytes > 0;
        if (ok)
            a->host = g_malloc0(a->bytes);
        else
            g_string_printf(why, "bad byte count in '%s'", spec);
        a->is_buffer = true;
    } else if ((!strcmp(f[0], "iota") && n == 3) || (!strcmp(f[0], "rand") && n == 4)) {
        bool random = f[0][0] == 'r';
        ptx_type t = ptx_type_from_name(f[1], (unsigned)strlen(f[1]));
        char *end;
        gsize count = strtoull(f[2], &end, 0);
        uint64_t seed = random ? strtoull(f[3], NULL, 0) : 0;
        unsigned sz = ptx_type_size(t);
        if (!sz || sz > 8 || *end || count == 0 || count > (1ull << 32)) {
            g_string_printf(why, "bad element type or count in '%s'", spec);
        } else {
            a->is_buffer = true;
            a->bytes = count * sz;
            a->host = g_malloc0(a->bytes);
            for (gsize i = 0; i < count; i++)
                fill_elem(a->host, t, i, random, &seed);
            ok = true;
        }
    } else if (n == 2) {
        ok = parse_scalar(f[0], f[1], a, why);
    } else {
        g_string_printf(why, "argument '%s' is not TYPE:VALUE or a buffer spec", spec);
    }
    g_strfreev(f);
    return ok;
}

int cmd_run(int argc, char **argv)
{
    gchar *kernel = NULL, *grid_s = NULL, *block_s = NULL;
    gint64 shared = 0, livelock = 0;
    gchar **arg_specs = NULL, **dumps = NULL;
    timing_cli tc = {0};
    GOptionEntry entries[] = {
        {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel, "kernel (.entry) to launch", "NAME"},
        {"grid", 'g', 0, G_OPTION_ARG_STRING, &grid_s, "grid size", "X[,Y[,Z]]"},
        {"block", 'b', 0, G_OPTION_ARG_STRING, &block_s, "block size", "X[,Y[,Z]]"},
        {"shared", 's', 0, G_OPTION_ARG_INT64, &shared, "dynamic shared memory", "BYTES"},
        {"arg", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &arg_specs,
         "kernel argument, in parameter order: u32:5, s64:-3, f32:1.5, f64:2, file:PATH, "
         "zeros:BYTES, iota:TYPE:COUNT, rand:TYPE:COUNT:SEED", "SPEC"},
        {"dump", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &dumps,
         "after the launch write buffer argument N (0-based) to FILE", "N:FILE"},
        {"livelock-limit", 0, 0, G_OPTION_ARG_INT64, &livelock,
         "warp instructions without a memory change before a launch is stopped", "N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("FILE.ptx");
    g_option_context_set_summary(oc, "Launch one kernel functionally (or, with --timing, on the "
                                     "cycle-level timing model) and report instruction counts "
                                     "and speed.");
    g_option_context_add_main_entries(oc, entries, NULL);
    timing_cli_add_group(oc, &tc);
    GError *err = NULL;
    int status = 2;
    run_arg *args = NULL;
    FILE *sched_trace = NULL;
    guint nargs = 0;
    ptxemu_ctx *ctx = NULL;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu run: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    ptxemu_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    if (argc != 2 || !kernel || !grid_s || !block_s) {
        fprintf(stderr, "ptxemu run: need FILE.ptx, --kernel, --grid and --block\n");
        goto out;
    }
    if (!parse_dims(grid_s, &grid) || !parse_dims(block_s, &block)) {
        fprintf(stderr, "ptxemu run: --grid/--block take X[,Y[,Z]] with positive integers\n");
        goto out;
    }
    if (shared < 0 || livelock < 0) {
        fprintf(stderr, "ptxemu run: --shared and --livelock-limit must not be negative\n");
        goto out;
    }
    nargs = arg_specs ? g_strv_length(arg_specs) : 0;
    args = g_new0(run_arg, nargs + 1);
    GString *why = g_string_new(NULL);
    for (guint i = 0; i < nargs; i++) {
        if (!parse_arg(arg_specs[i], &args[i], why)) {
            fprintf(stderr, "ptxemu run: --arg %u: %s\n", i, why->str);
            g_string_free(why, TRUE);
            goto out;
        }
    }
    g_string_free(why, TRUE);
    ptxemu_options opts = {0};
    opts.livelock_limit = (uint64_t)livelock;
    if (!timing_cli_options(&tc, &opts, &sched_trace, "ptxemu run"))
        goto out;
    if (ptxemu_ctx_create(&ctx, &opts) != PTXEMU_OK) {
        fprintf(stderr, "ptxemu run: %s\n", ptxemu_last_error(ctx));
        goto out;
    }
    ptxemu_module *mod;
    status = 1;
    if (ptxemu_module_load_file(ctx, argv[1], &mod) != PTXEMU_OK) {
        fprintf(stderr, "%s\n", ptxemu_last_error(ctx));
        goto out;
    }
    void **argv_ptrs = g_new0(void *, nargs + 1);
    for (guint i = 0; i < nargs; i++) {
        if (args[i].is_buffer) {
            if (ptxemu_malloc(ctx, &args[i].dptr, args[i].bytes) != PTXEMU_OK ||
                ptxemu_memcpy_htod(ctx, args[i].dptr, args[i].host, args[i].bytes) != PTXEMU_OK) {
                fprintf(stderr, "ptxemu run: %s\n", ptxemu_last_error(ctx));
                g_free(argv_ptrs);
                goto out;
            }
            argv_ptrs[i] = &args[i].dptr;
        } else {
            argv_ptrs[i] = &args[i].scalar;
        }
    }
    const ex_func *kf = g_hash_table_lookup(ptxemu_module_ex(mod)->kernels, kernel);
    if (kf && kf->nparams != nargs) {
        fprintf(stderr, "ptxemu run: kernel '%s' takes %u parameters, %u --arg given\n", kernel,
                kf->nparams, nargs);
        g_free(argv_ptrs);
        goto out;
    }
    for (guint i = 0; kf && i < nargs; i++) {
        if (!args[i].is_buffer && args[i].scalar_size != kf->param_sizes[i]) {
            fprintf(stderr, "ptxemu run: --arg %u is %u bytes but parameter %u of '%s' is %u\n",
                    i, args[i].scalar_size, i, kernel, kf->param_sizes[i]);
            g_free(argv_ptrs);
            goto out;
        }
        if (args[i].is_buffer && kf->param_sizes[i] != 8) {
            fprintf(stderr, "ptxemu run: --arg %u is a buffer but parameter %u of '%s' is not "
                            "a 64-bit pointer\n", i, i, kernel);
            g_free(argv_ptrs);
            goto out;
        }
    }
    gint64 t0 = g_get_monotonic_time();
    ptxemu_status s = ptxemu_launch(mod, kernel, grid, block, (size_t)shared, argv_ptrs);
    gint64 t1 = g_get_monotonic_time();
    g_free(argv_ptrs);
    fflush(stdout);
    if (s != PTXEMU_OK) {
        fprintf(stderr, "ptxemu run: %s: %s\n", ptxemu_status_string(s), ptxemu_last_error(ctx));
        goto out;
    }
    for (guint i = 0; dumps && dumps[i]; i++) {
        char *colon = strchr(dumps[i], ':');
        char *end;
        unsigned long idx = colon ? strtoul(dumps[i], &end, 10) : nargs;
        if (!colon || end != colon || idx >= nargs || !args[idx].is_buffer) {
            fprintf(stderr, "ptxemu run: --dump '%s' must name a buffer argument as N:FILE\n",
                    dumps[i]);
            goto out;
        }
        ptxemu_memcpy_dtoh(ctx, args[idx].host, args[idx].dptr, args[idx].bytes);
        if (!g_file_set_contents(colon + 1, (const gchar *)args[idx].host,
                                 (gssize)args[idx].bytes, &err)) {
            fprintf(stderr, "ptxemu run: %s\n", err->message);
            g_clear_error(&err);
            goto out;
        }
    }
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    double secs = (double)(t1 - t0) / 1e6;
    printf("kernel %s: grid (%u,%u,%u) block (%u,%u,%u)\n", kernel, grid.x, grid.y, grid.z,
           block.x, block.y, block.z);
    printf("warp instructions:   %llu\n", (unsigned long long)c.warp_instructions);
    printf("thread instructions: %llu\n", (unsigned long long)c.thread_instructions);
    printf("wall time:           %.3f s\n", secs);
    printf("speed:               %.1f M thread-instructions/s\n",
           secs > 0 ? (double)c.thread_instructions / secs / 1e6 : 0.0);
    if (tc.timing) {
        printf("simulation speed:    %.2f M warp-instructions/s, %.2f M cycles/s\n",
               secs > 0 ? (double)c.warp_instructions / secs / 1e6 : 0.0,
               secs > 0 ? (double)c.cycles / secs / 1e6 : 0.0);
        ptxemu_print_timing_summary(ctx, stdout);
    }
    status = 0;
out:
    if (sched_trace)
        fclose(sched_trace);
    timing_cli_free(&tc);
    for (guint i = 0; args && i < nargs; i++)
        g_free(args[i].host);
    g_free(args);
    ptxemu_ctx_destroy(ctx);
    g_free(kernel);
    g_free(grid_s);
    g_free(block_s);
    g_strfreev(arg_specs);
    g_strfreev(dumps);
    g_option_context_free(oc);
    return status;
}
