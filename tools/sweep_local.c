/* tools/sweep_local.c — the local backend: jobs as subprocesses of this
 * program, `workers` at a time, each in its own process group with a
 * timeout, a progress line on stderr, and a clean stop on SIGINT/SIGTERM
 * (running jobs are killed and left unrecorded, so a rerun redoes exactly
 * those). */
#include "tools/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The one piece of process-wide state: a signal handler can only talk
 * to the loop through a flag. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    stop_requested = sig;
}

typedef struct running {
    pid_t pid;
    const sweep_job *job;
    double start;
} running;

static pid_t spawn(const char *self, const char *dir, const sweep_job *j)
{
    const char *exts[] = {".out", ".stats.json", ".rec", ".log"};
    for (unsigned i = 0; i < G_N_ELEMENTS(exts); i++) {
        char *p = sweep_job_path(dir, j, exts[i]);
        g_unlink(p);
        g_free(p);
    }
    char *log = sweep_job_path(dir, j, ".log");
    char **argv = sweep_job_argv(self, dir, j);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* Ctrl-C reaches the sweep, which stops its jobs */
        /* a sweep killed outright (SIGKILL, OOM) takes its jobs with it,
         * so that a rerun does not run them again beside orphans */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (null >= 0)
            dup2(null, 0);
        execv(self, argv);
        _exit(127);
    }
    if (pid > 0)
        setpgid(pid, pid);
    g_strfreev(argv);
    g_free(log);
    return pid;
}

int sweep_lock_dir(const char *dir, bool shared)
{
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        fprintf(stderr, "ptxemu sweep: cannot create %s: %s\n", dir, g_strerror(errno));
        return -1;
    }
    char *path = g_build_filename(dir, SWEEP_LOCK_FILE, NULL);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "ptxemu sweep: cannot open %s: %s\n", path, g_strerror(errno));
        g_free(path);
        return -1;
    }
    if (flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
        int err = errno;
        char buf[32] = "";
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        long holder = n > 0 ? strtol(buf, NULL, 10) : 0;
        char who[64] = "";
        if (holder > 0 && kill((pid_t)holder, 0) == 0)
            snprintf(who, sizeof who, " (pid %ld)", holder);
        if (err == EWOULDBLOCK)
            fprintf(stderr, "ptxemu sweep: %s is in use by another sweep%s: wait for it to end, "
                            "or give this one another --out\n", dir, who);
        else
            fprintf(stderr, "ptxemu sweep: cannot lock %s: %s\n", path, g_strerror(err));
        close(fd);
        g_free(path);
        return -1;
    }
    if (!shared) {
        char buf[32];
        int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
            /* the lock holds without the pid: only the message loses it */
        }
    }
    g_free(path);
    return fd;
}

void sweep_unlock_dir(int fd, bool shared)
{
    if (fd < 0)
        return;
    if (!shared && ftruncate(fd, 0) != 0) {
        /* a stale pid is checked for life before it is shown */
    }
    close(fd);
}

static void fmt_secs(char *buf, size_t n, double s)
{
    if (s < 0)
        snprintf(buf, n, "?");
    else if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static void progress(bool tty, unsigned done, unsigned failed, unsigned total, unsigned nrun,
                     double elapsed, const char *last)
{
    unsigned left = total - done - failed;
    double per = done + failed ? elapsed / (done + failed) : -1;
    char eta[32];
    fmt_secs(eta, sizeof eta, per < 0 ? -1 : per * left);
    unsigned width = 24, fill = total ? (done + failed) * width / total : width;
    char bar[32];
    for (unsigned i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    if (tty)
        fprintf(stderr, "\r[%s] %u done, %u failed, %u remaining (%u running), ETA %s   ", bar,
                done, failed, left, nrun, eta);
    else if (last)
        fprintf(stderr, "[%s] %u done, %u failed, %u remaining, ETA %s: %s\n", bar, done, failed,
                left, eta, last);
    fflush(stderr);
}

static void stop_all(GArray *run)
{
    for (guint i = 0; i < run->len; i++)
        kill(-g_array_index(run, running, i).pid, SIGKILL);
    for (guint i = 0; i < run->len; i++)
        waitpid(g_array_index(run, running, i).pid, NULL, 0);
    g_array_set_size(run, 0);
}

int sweep_run_local(const sweep_spec *s, const char *dir, unsigned workers, unsigned first,
                    unsigned last, bool show_progress)
{
    char *self = g_file_read_link("/proc/self/exe", NULL);
    char *jobs_dir = g_build_filename(dir, "jobs", NULL);
    if (!self || g_mkdir_with_parents(jobs_dir, 0755) != 0) {
        fprintf(stderr, "ptxemu sweep: cannot create %s: %s\n", jobs_dir, g_strerror(errno));
        g_free(self);
        g_free(jobs_dir);
        return 1;
    }
    g_free(jobs_dir);
    /* finished jobs (an ok record of the same inputs and version) are skipped */
    GPtrArray *todo = g_ptr_array_new();
    unsigned skipped = 0;
    /* jobs with equal inputs (e.g. a preset and a copy of it) share one run */
    GHashTable *ids = g_hash_table_new(g_str_hash, g_str_equal);
    for (unsigned i = first; i < last && i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        if (!g_hash_table_add(ids, (gpointer)j->id)) {
            skipped++;
            continue;
        }
        sweep_record *r = sweep_record_load(dir, j);
        if (r && r->ok && !g_strcmp0(r->version, sweep_version()))
            skipped++;
        else
            g_ptr_array_add(todo, (gpointer)j);
        sweep_record_free(r);
    }
    if (show_progress)
        fprintf(stderr, "ptxemu sweep: %u jobs, %u already finished, %u to run with %u "
                        "worker%s\n", skipped + todo->len, skipped, todo->len, workers,
                workers == 1 ? "" : "s");
    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    stop_requested = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    bool tty = isatty(2);
    GArray *run = g_array_new(FALSE, FALSE, sizeof(running));
    unsigned next = 0, done = 0, failed = 0, unrecorded = 0;
    double t0 = g_get_monotonic_time() / 1e6, last_draw = 0;
    while ((next < todo->len || run->len) && !stop_requested) {
        while (run->len < workers && next < todo->len) {
            const sweep_job *j = g_ptr_array_index(todo, next++);
            running r = {spawn(self, dir, j), j, g_get_monotonic_time() / 1e6};
            if (r.pid < 0) {
                fprintf(stderr, "ptxemu sweep: cannot start job %s (%s %s): %s\n", j->id,
                        j->bench->name, j->variant, g_strerror(errno));
                if (!sweep_record_finish(dir, j, 127 << 8, false, 0, NULL, NULL))
                    unrecorded++;
                failed++;
                continue;
            }
            g_array_append_val(run, r);
        }
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        double now = g_get_monotonic_time() / 1e6;
        for (guint i = 0; i < run->len; i++) {
            running *r = &g_array_index(run, running, i);
            bool timed_out = false;
            int tst = 0;
            if (r->pid != pid && now - r->start > s->timeout_s) {
                kill(-r->pid, SIGKILL);
                waitpid(r->pid, &tst, 0);
                timed_out = true;
            } else if (r->pid != pid) {
                continue;
            }
            char *reason = NULL;
            GError *we = NULL;
            bool saved = sweep_record_finish(dir, r->job, timed_out ? tst : st, timed_out,
                                             now - r->start, &reason, &we);
            sweep_record *rec = saved ? sweep_record_load(dir, r->job) : NULL;
            bool ok = rec && rec->ok;
            ok ? done++ : failed++;
            char *why;
            if (!saved) {
                /* no record: say why here, since nothing on disk will */
                why = g_strdup_printf("%s%sits record could not be written: %s",
                                      reason ? reason : "", reason ? "; " : "", we->message);
                unrecorded++;
                g_error_free(we);
            } else {
                why = g_strdup(rec && rec->reason ? rec->reason
                               : "its record could not be read back");
            }
            char *what = g_strdup_printf("%s %s %s%s%s", ok ? "ok" : "FAILED", r->job->bench->name,
                                         r->job->variant, ok ? "" : ": ", ok ? "" : why);
            g_free(why);
            g_free(reason);
            if (!saved || (show_progress && (!tty || !ok))) {
                if (tty || !show_progress)
                    fprintf(stderr, "%s%-100s\n", tty ? "\r" : "ptxemu sweep: ", what);
                else
                    progress(false, done, failed, todo->len, run->len - 1, now - t0, what);
            }
            g_free(what);
            sweep_record_free(rec);
            g_array_remove_index(run, i);
            i--;
            last_draw = 0;
        }
        if (show_progress && tty && now - last_draw > 0.25) {
            progress(true, done, failed, todo->len, run->len, now - t0, NULL);
            last_draw = now;
        }
        if (pid <= 0)
            g_usleep(20000);
    }
    int rc = failed ? 1 : 0;
    if (stop_requested) {
        stop_all(run);
        rc = 130;
        if (show_progress)
            fprintf(stderr, "%sptxemu sweep: interrupted; %u jobs finished, %u not started or "
                            "stopped (rerun to resume)\n", tty ? "\n" : "", done + failed,
                    todo->len - done - failed);
    } else if (show_progress && tty) {
        progress(true, done, failed, todo->len, 0, g_get_monotonic_time() / 1e6 - t0, NULL);
        fputc('\n', stderr);
    }
    if (unrecorded)
        fprintf(stderr, "ptxemu sweep: %u job record%s could not be written in %s/jobs (see "
                        "above); those jobs will run again\n", unrecorded,
                unrecorded == 1 ? "" : "s", dir);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    g_array_free(run, TRUE);
    g_ptr_array_free(todo, TRUE);
    g_hash_table_destroy(ids);
    g_free(self);
    return rc;
}
