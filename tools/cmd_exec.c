/* tools/cmd_exec.c — `ptxemu exec [options] -- ./app args`: runs an
 * unmodified CUDA program (built with `nvcc -cudart shared`) on ptxemu by
 * putting the drop-in libcudart.so.13 (cudart/) first on its library path
 * and passing the options as PTXEMU_* variables; prints what ran at exit
 * and exits with the program's status. */
#include "tools/commands.h"
#include "timing/config.h"
#include "timing/outfile.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PTXEMU_CUDART_DIR
#define PTXEMU_CUDART_DIR ""
#endif

typedef struct exec_opts {
    gboolean timing, quiet, race, sample;
    gchar *config, *stats, *log, *warp, *cta, *lib_dir, *keep_ptx;
    gchar **sets;
} exec_opts;

/* How the program ended. */
typedef enum exec_end { END_EXITED, END_SIGNALED, END_NOT_RUN } exec_end;

/* The folder holding libcudart.so.13: --cudart, $PTXEMU_CUDART_DIR, then
 * the build tree this ptxemu came from. */
static char *library_dir(const exec_opts *o)
{
    const char *env = g_getenv("PTXEMU_CUDART_DIR");
    const char *dir = o->lib_dir ? o->lib_dir : env && *env ? env : PTXEMU_CUDART_DIR;
    char *lib = g_build_filename(dir, "libcudart.so.13", NULL);
    bool ok = *dir && g_file_test(lib, G_FILE_TEST_EXISTS);
    g_free(lib);
    if (!ok) {
        fprintf(stderr, "ptxemu exec: no libcudart.so.13 in '%s' (set --cudart DIR or "
                        "PTXEMU_CUDART_DIR)\n", dir);
        return NULL;
    }
    return g_canonicalize_filename(dir, NULL);
}

/* The overrides as PTXEMU_SET carries them: ';'-separated. */
static char *joined_sets(const exec_opts *o)
{
    GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
    if (o->warp)
        g_ptr_array_add(a, g_strdup_printf("warp.policy=%s", o->warp));
    if (o->cta)
        g_ptr_array_add(a, g_strdup_printf("cta.policy=%s", o->cta));
    if (o->race)
        g_ptr_array_add(a, g_strdup("check.races=true"));
    for (unsigned i = 0; o->sets && o->sets[i]; i++)
        g_ptr_array_add(a, g_strdup(o->sets[i]));
    if (o->sample) /* after the --set overrides: --sample wins */
        g_ptr_array_add(a, g_strdup("sample.mode=on"));
    g_ptr_array_add(a, NULL);
    char *s = g_strjoinv(";", (char **)a->pdata);
    g_ptr_array_free(a, TRUE);
    return s;
}

/* The config and overrides are checked here, so a typo is one message
 * before the program starts. */
static bool check_config(const exec_opts *o, const char *sets)
{
    gpu_config cfg;
    GError *err = NULL;
    bool ok = o->config ? gpu_config_load_preset(o->config, &cfg, &err)
                        : (gpu_config_defaults(&cfg), true);
    char **list = g_strsplit(sets, ";", -1);
    if (ok && *sets)
        ok = gpu_config_apply_overrides(&cfg, (const char *const *)list, &err);
    g_strfreev(list);
    if (!ok) {
        fprintf(stderr, "ptxemu exec: %s\n", err->message);
        g_error_free(err);
    }
    return ok;
}

/* The --stats file can be created: checked before the program starts, so
 * a typo in its folder is one message instead of a run whose statistics
 * are lost at the end. */
static bool check_output(const char *option, const char *path)
{
    /* a device or FIFO is written in place: opened here, a FIFO would
     * block until a reader comes, so only its permission is checked */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : access(path, W_OK) != 0 ? errno : 0;
        if (e)
            fprintf(stderr, "ptxemu exec: %s: cannot write %s: %s\n", option, path,
                    g_strerror(e));
        return !e;
    }
    out_file f;
    GError *err = NULL;
    if (!out_file_open(&f, path, &err)) {
        fprintf(stderr, "ptxemu exec: %s: %s\n", option, err->message);
        g_error_free(err);
        return false;
    }
    out_file_abort(&f);
    return true;
}

/* --keep-ptx DIR: created when missing; its absolute name goes to the
 * program, so the locations in messages open from any folder. */
static char *keep_ptx_dir(const char *dir)
{
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        fprintf(stderr, "ptxemu exec: --keep-ptx: cannot create %s: %s\n", dir,
                g_strerror(errno));
        return NULL;
    }
    char *abs = g_canonicalize_filename(dir, NULL);
    char *probe = g_build_filename(abs, "probe.ptx", NULL);
    bool ok = check_output("--keep-ptx", probe);
    g_free(probe);
    if (!ok) {
        g_free(abs);
        return NULL;
    }
    return abs;
}

/* The signal's name: SIGSEGV for 11. */
static const char *signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
        {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
        {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
        {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "a signal";
}

/* Prints what ran (the runtime's summary; not with -q); without one, why
 * not.  Returns false when the runtime reports an output file it could not
 * write (said even with -q). */
static bool print_summary(const char *path, const char *prog, exec_end end, bool quiet)
{
    GKeyFile *kf = g_key_file_new();
    char *text = NULL;
    gsize len = 0;
    bool good = true;
    if (!g_file_get_contents(path, &text, &len, NULL)) {
        /* a program that never ran or died by a signal wrote no summary
         * whatever runtime it had; only one that exited says something */
        if (!quiet && end == END_EXITED)
            fprintf(stderr, "ptxemu exec: %s did not load ptxemu's libcudart.so.13 (build it "
                            "with `nvcc -cudart shared`; a statically linked runtime cannot be "
                            "replaced)\n", prog);
        else if (!quiet && end == END_SIGNALED)
            fprintf(stderr, "ptxemu exec: no summary: %s ended by a signal before ptxemu's "
                            "runtime could write it\n", prog);
        g_key_file_free(kf);
        return true;
    }
    char *ini = g_strconcat("[s]\n", text, NULL);
    if (g_key_file_load_from_data(kf, ini, (gsize)-1, G_KEY_FILE_NONE, NULL)) {
        char *mode = g_key_file_get_string(kf, "s", "mode", NULL);
        char *cfg = g_key_file_get_string(kf, "s", "config", NULL);
        char *out_err = g_key_file_get_string(kf, "s", "output_error", NULL);
        if (!quiet)
            fprintf(stderr,
                    "ptxemu exec: %s mode on %s: %lld launches of %lld kernels (%lld failed), "
                    "%lld warp instructions, %lld thread instructions, %lld cycles\n",
                    mode ? mode : "?", cfg ? cfg : "?",
                    (long long)g_key_file_get_int64(kf, "s", "launches", NULL),
                    (long long)g_key_file_get_int64(kf, "s", "kernels", NULL),
                    (long long)g_key_file_get_int64(kf, "s", "failed_launches", NULL),
                    (long long)g_key_file_get_int64(kf, "s", "warp_instructions", NULL),
                    (long long)g_key_file_get_int64(kf, "s", "thread_instructions", NULL),
                    (long long)g_key_file_get_int64(kf, "s", "cycles", NULL));
        if (out_err && *out_err) {
            fprintf(stderr, "ptxemu exec: error: %s\n", out_err);
            good = false;
        }
        g_free(mode);
        g_free(cfg);
        g_free(out_err);
    }
    g_free(ini);
    g_free(text);
    g_key_file_free(kf);
    return good;
}

/* Runs the program with `env`; its exit status (128 + signal when killed,
 * 127 when it does not exist, 126 when it cannot be run). */
static int run_program(char **prog, char **env, exec_end *end)
{
    GError *err = NULL;
    int wait_status = 0;
    if (!g_spawn_sync(NULL, prog, env,
                      G_SPAWN_SEARCH_PATH_FROM_ENVP | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                      NULL, NULL, &wait_status, &err)) {
        bool missing = g_error_matches(err, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT);
        fprintf(stderr, "ptxemu exec: cannot run %s: %s\n", prog[0],
                missing ? "no such program (not a file, and not found on PATH)" : err->message);
        g_error_free(err);
        *end = END_NOT_RUN;
        return missing ? 127 : 126;
    }
    *end = END_EXITED;
    if (WIFEXITED(wait_status))
        return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        *end = END_SIGNALED;
        fprintf(stderr, "ptxemu exec: %s was killed by %s (signal %d: %s)%s\n", prog[0],
                signal_name(sig), sig, g_strsignal(sig),
                WCOREDUMP(wait_status) ? ", core dumped" : "");
        return 128 + sig;
    }
    return 1;
}

static char **program_env(const exec_opts *o, const char *dir, const char *sets,
                          const char *summary)
{
    char **env = g_get_environ();
    const char *old = g_environ_getenv(env, "LD_LIBRARY_PATH");
    char *path = old && *old ? g_strconcat(dir, ":", old, NULL) : g_strdup(dir);
    env = g_environ_setenv(env, "LD_LIBRARY_PATH", path, TRUE);
    g_free(path);
    env = g_environ_setenv(env, "PTXEMU_MODE", o->timing ? "timing" : "functional", TRUE);
    if (o->config)
        env = g_environ_setenv(env, "PTXEMU_CONFIG", o->config, TRUE);
    if (*sets)
        env = g_environ_setenv(env, "PTXEMU_SET", sets, TRUE);
    if (o->stats)
        env = g_environ_setenv(env, "PTXEMU_STATS", o->stats, TRUE);
    if (o->log)
        env = g_environ_setenv(env, "PTXEMU_LOG", o->log, TRUE);
    if (o->keep_ptx)
        env = g_environ_setenv(env, "PTXEMU_KEEP_PTX", o->keep_ptx, TRUE);
    return g_environ_setenv(env, "PTXEMU_SUMMARY", summary, TRUE);
}

int cmd_exec(int argc, char **argv)
{
    /* everything after "--" is the program and its arguments */
    int split = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            split = i;
            break;
        }
    exec_opts o = {0};
    GOptionEntry entries[] = {
        {"timing", 0, 0, G_OPTION_ARG_NONE, &o.timing, "run kernels on the timing model", NULL},
        {"config", 0, 0, G_OPTION_ARG_STRING, &o.config, "GPU preset or INI file", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "override one config key", "K=V"},
        {"warp-sched", 0, 0, G_OPTION_ARG_STRING, &o.warp, "shorthand for --set warp.policy=", "NAME"},
        {"cta-sched", 0, 0, G_OPTION_ARG_STRING, &o.cta, "shorthand for --set cta.policy=", "NAME"},
        {"stats", 0, 0, G_OPTION_ARG_FILENAME, &o.stats, "statistics JSON at exit", "FILE"},
        {"log", 0, 0, G_OPTION_ARG_STRING, &o.log, "error, warn (default), info or debug", "LEVEL"},
        {"keep-ptx", 0, 0, G_OPTION_ARG_FILENAME, &o.keep_ptx,
         "write the program's PTX into DIR under the names messages locate it by", "DIR"},
        {"cudart", 0, 0, G_OPTION_ARG_FILENAME, &o.lib_dir, "folder of libcudart.so.13", "DIR"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, "no summary at exit", NULL},
        {"race-check", 0, 0, G_OPTION_ARG_NONE, &o.race,
         "report the first data race of each launch (functional; shorthand for --set "
         "check.races=true)", NULL},
        {"sample", 0, 0, G_OPTION_ARG_NONE, &o.sample,
         "with --timing: sampled simulation, cycles projected once a launch's IPC is stable "
         "(shorthand for --set sample.mode=on; docs/sampling.md)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("[options] -- PROGRAM [ARGS...]");
    g_option_context_set_summary(oc, "Run a CUDA program built with `nvcc -cudart shared` on ptxemu.");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    int oargc = split;
    char **oargv = g_new0(char *, (gsize)split + 1);
    for (int i = 0; i < split; i++)
        oargv[i] = argv[i];
    int rc = 2;
    char *dir = NULL, *sets = NULL, *tmp = NULL, *summary = NULL;
    if (!g_option_context_parse(oc, &oargc, &oargv, &err)) {
        fprintf(stderr, "ptxemu exec: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    if (oargc > 1 || split + 1 >= argc) {
        fprintf(stderr, "ptxemu exec: usage: ptxemu exec [options] -- PROGRAM [ARGS...]\n");
        goto out;
    }
    if (o.sample && !o.timing) {
        fprintf(stderr, "ptxemu exec: --sample samples the timing model; add --timing\n");
        goto out;
    }
    sets = joined_sets(&o);
    if (!(dir = library_dir(&o)) || !check_config(&o, sets))
        goto out;
    rc = 1; /* an output the run could not write (docs/errors.md) */
    if (o.stats && !check_output("--stats", o.stats))
        goto out;
    if (o.keep_ptx) {
        char *abs = keep_ptx_dir(o.keep_ptx);
        g_free(o.keep_ptx);
        if (!(o.keep_ptx = abs))
            goto out;
    }
    rc = 2;
    tmp = g_dir_make_tmp("ptxemu-exec-XXXXXX", &err);
    if (!tmp) {
        fprintf(stderr, "ptxemu exec: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    summary = g_build_filename(tmp, "summary", NULL);
    char **env = program_env(&o, dir, sets, summary);
    exec_end end = END_EXITED;
    rc = run_program(argv + split + 1, env, &end);
    g_strfreev(env);
    /* a lost output is an error even with -q, and fails a run that passed */
    if (!print_summary(summary, argv[split + 1], end, o.quiet) && rc == 0)
        rc = 1;
    g_unlink(summary);
    g_rmdir(tmp);
out:
    g_free(summary);
    g_free(tmp);
    g_free(sets);
    g_free(dir);
    g_free(oargv);
    g_option_context_free(oc);
    g_free(o.config), g_free(o.stats), g_free(o.log), g_free(o.warp), g_free(o.cta);
    g_free(o.lib_dir), g_free(o.keep_ptx);
    g_strfreev(o.sets);
    return rc;
}
