/* tools/cmd_sweep.c — `ptxemu sweep EXPERIMENT.ini`: expands the
 * experiment, runs its jobs locally (-j N) or as a Slurm job array, and
 * writes results.jsonl, results.csv and summary.csv into the results
 * folder (docs/experiments.md). */
#include "tools/commands.h"
#include "tools/sweep.h"

#include <string.h>

typedef struct sweep_cli {
    gchar *out, *backend, *partition, *time_limit, *report, *plots, *command;
    gint jobs, per_task, task;
    gboolean collect, dry_run, wait, quiet;
} sweep_cli;

static int list_jobs(const sweep_spec *s)
{
    for (guint i = 0; i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        char *cmd = sweep_job_command(j);
        printf("%4u %s  %s\n", i, j->id, cmd);
        g_free(cmd);
    }
    printf("%u jobs, %u timing variants (ptxemu %s)\n", s->jobs->len, s->variants->len,
           sweep_version());
    return 0;
}

static int finish(const sweep_spec *s, const char *dir, int rc, bool quiet)
{
    unsigned ok, failed, missing;
    GError *e = NULL;
    if (!sweep_write_outputs(s, dir, &ok, &failed, &missing, &e)) {
        fprintf(stderr, "ptxemu sweep: cannot write the results: %s\n", e->message);
        g_error_free(e);
        return 1; /* an output that could not be written (docs/errors.md) */
    }
    if (!quiet)
        printf("%s: %u ok, %u failed, %u not run; results.jsonl, results.csv, summary.csv "
               "written\n", dir, ok, failed, missing);
    if (rc == 0 && (failed || missing))
        rc = 1;
    return rc;
}

static int locked_collect(const sweep_spec *s, const char *dir)
{
    int lock = sweep_lock_dir(dir, false);
    int rc = lock < 0 ? 1 : sweep_slurm_collect(s, dir);
    sweep_unlock_dir(lock, false);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--run-job"))
        return sweep_run_job_main(argc - 2, argv + 2);
    sweep_cli c = {0};
    c.jobs = (gint)g_get_num_processors();
    c.per_task = 1;
    c.task = -1;
    GOptionEntry entries[] = {
        {"out", 'o', 0, G_OPTION_ARG_FILENAME, &c.out, "results folder (default results/NAME)", "DIR"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &c.jobs, "parallel jobs (default: cores)", "N"},
        {"backend", 0, 0, G_OPTION_ARG_STRING, &c.backend, "local (default) or slurm", "B"},
        {"partition", 0, 0, G_OPTION_ARG_STRING, &c.partition, "Slurm partition", "P"},
        {"time-limit", 0, 0, G_OPTION_ARG_STRING, &c.time_limit,
         "Slurm time limit per array task (default 01:00:00)", "T"},
        {"per-task", 0, 0, G_OPTION_ARG_INT, &c.per_task, "jobs per Slurm array task", "K"},
        {"wait", 0, 0, G_OPTION_ARG_NONE, &c.wait, "Slurm: wait for the array to finish", NULL},
        {"collect", 0, 0, G_OPTION_ARG_NONE, &c.collect,
         "merge a Slurm run's records; report missing and failed tasks", NULL},
        {"task", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &c.task,
         "run array task N's slice (used by the Slurm script)", "N"},
        {"dry-run", 'n', 0, G_OPTION_ARG_NONE, &c.dry_run, "list the jobs and stop", NULL},
        {"report", 0, 0, G_OPTION_ARG_FILENAME, &c.report,
         "write the Markdown report of the results to FILE (no jobs run)", "FILE"},
        {"plots", 0, 0, G_OPTION_ARG_FILENAME, &c.plots,
         "with --report: folder of the SVGs, relative to the report", "DIR"},
        {"command", 0, 0, G_OPTION_ARG_STRING, &c.command,
         "with --report: the command line to show for reproducing it", "CMD"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &c.quiet, "no progress output", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *oc = g_option_context_new("EXPERIMENT.ini");
    g_option_context_set_summary(oc, "Run an experiment: benchmarks x configs x overrides "
                                     "(docs/experiments.md).");
    g_option_context_add_main_entries(oc, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    sweep_spec *s = NULL;
    char *dir = NULL;
    if (!g_option_context_parse(oc, &argc, &argv, &err)) {
        fprintf(stderr, "ptxemu sweep: %s\n", err->message);
        goto out;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: ptxemu sweep EXPERIMENT.ini [--out DIR] [-j N] "
                        "[--backend local|slurm] [--collect] [--dry-run]\n");
        goto out;
    }
    if (c.jobs < 1 || c.per_task < 1) {
        fprintf(stderr, "ptxemu sweep: -j and --per-task must be at least 1\n");
        goto out;
    }
    s = sweep_spec_load(argv[1], &err);
    if (!s) {
        fprintf(stderr, "ptxemu sweep: %s\n", err->message);
        goto out;
    }
    dir = c.out ? g_strdup(c.out) : g_build_filename("results", s->name, NULL);
    if (c.dry_run) {
        rc = list_jobs(s);
    } else if (c.report) {
        if (!sweep_write_report(s, dir, c.report, c.plots ? c.plots : ".", c.command, &err)) {
            fprintf(stderr, "ptxemu sweep: %s\n", err->message);
        } else {
            rc = 0;
        }
    } else if (c.collect) {
        rc = locked_collect(s, dir);
    } else if (c.task >= 0) {
        /* the array's tasks share the folder with each other, not with a
         * local sweep or --collect */
        int lock = sweep_lock_dir(dir, true);
        unsigned first = (unsigned)c.task * (unsigned)c.per_task;
        rc = lock < 0 ? 1 : sweep_run_local(s, dir, 1, first, first + (unsigned)c.per_task,
                                            !c.quiet);
        sweep_unlock_dir(lock, true);
    } else if (c.backend && !strcmp(c.backend, "slurm")) {
        sweep_slurm_opts so = {c.partition, c.time_limit, (unsigned)c.per_task, c.wait};
        rc = sweep_slurm_submit(s, argv[1], dir, &so);
        if (rc == 0 && c.wait)
            rc = locked_collect(s, dir);
    } else if (c.backend && strcmp(c.backend, "local")) {
        fprintf(stderr, "ptxemu sweep: --backend must be local or slurm\n");
    } else {
        /* one sweep at a time per folder: a second would delete the first
         * one's running jobs' files and report them not run */
        int lock = sweep_lock_dir(dir, false);
        if (lock >= 0) {
            rc = sweep_run_local(s, dir, (unsigned)c.jobs, 0, s->jobs->len, !c.quiet);
            rc = finish(s, dir, rc, c.quiet);
        } else {
            rc = 1;
        }
        sweep_unlock_dir(lock, false);
    }
out:
    if (err)
        g_error_free(err);
    sweep_spec_free(s);
    g_free(dir);
    g_free(c.out);
    g_free(c.backend);
    g_free(c.partition);
    g_free(c.time_limit);
    g_free(c.report);
    g_free(c.plots);
    g_free(c.command);
    g_option_context_free(oc);
    return rc;
}
