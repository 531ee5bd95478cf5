/* tools/sweep_slurm.c — the Slurm backend: one `sbatch --array` job whose
 * element N runs jobs [N*K, N*K+K) of the expansion with this same program
 * into the same results folder (a shared file system), and `--collect`,
 * which merges the records and names missing or failed jobs by array task. */
#include "tools/sweep.h"

#include <errno.h>
#include <string.h>

static char *absolute(const char *p)
{
    if (g_path_is_absolute(p))
        return g_strdup(p);
    char *cwd = g_get_current_dir();
    char *a = g_build_filename(cwd, p, NULL);
    g_free(cwd);
    return a;
}

int sweep_slurm_submit(const sweep_spec *s, const char *exp_path, const char *dir,
                       const sweep_slurm_opts *o)
{
    char *sbatch = g_find_program_in_path("sbatch");
    if (!sbatch) {
        fprintf(stderr, "ptxemu sweep: sbatch not found: Slurm is not installed here "
                        "(scripts/slurm-local.sh start sets up a single-node one)\n");
        return 2;
    }
    char *self = g_file_read_link("/proc/self/exe", NULL);
    char *adir = absolute(dir), *aexp = absolute(exp_path);
    char *sdir = g_build_filename(adir, "slurm", NULL), *jdir = g_build_filename(adir, "jobs", NULL);
    int rc = 2;
    if (g_mkdir_with_parents(sdir, 0755) || g_mkdir_with_parents(jdir, 0755)) {
        fprintf(stderr, "ptxemu sweep: cannot create %s: %s\n", sdir, g_strerror(errno));
        goto out;
    }
    unsigned tasks = (s->jobs->len + o->per_task - 1) / o->per_task;
    GString *sc = g_string_new("#!/bin/sh\n");
    g_string_append_printf(sc, "#SBATCH --job-name=ptxemu-%s\n", s->name);
    g_string_append_printf(sc, "#SBATCH --array=0-%u\n", tasks - 1);
    g_string_append_printf(sc, "#SBATCH --output=%s/task-%%a.log\n", sdir);
    g_string_append_printf(sc, "#SBATCH --time=%s\n", o->time_limit ? o->time_limit : "01:00:00");
    g_string_append(sc, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    if (o->partition)
        g_string_append_printf(sc, "#SBATCH --partition=%s\n", o->partition);
    char *qexp = g_shell_quote(aexp), *qdir = g_shell_quote(adir), *qself = g_shell_quote(self);
    g_string_append_printf(sc, "exec %s sweep %s --out %s --task \"$SLURM_ARRAY_TASK_ID\" "
                               "--per-task %u\n", qself, qexp, qdir, o->per_task);
    g_free(qexp);
    g_free(qdir);
    g_free(qself);
    char *script = g_build_filename(sdir, "sweep.sbatch", NULL);
    GError *e = NULL;
    if (!g_file_set_contents(script, sc->str, -1, &e)) {
        fprintf(stderr, "ptxemu sweep: %s\n", e->message);
        g_error_free(e);
        g_string_free(sc, TRUE);
        g_free(script);
        goto out;
    }
    g_string_free(sc, TRUE);
    const char *argv[] = {sbatch, "--parsable", o->wait ? "--wait" : script,
                          o->wait ? script : NULL, NULL};
    char *sout = NULL, *serr = NULL;
    int st = 0;
    if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &sout, &serr, &st,
                      &e)) {
        fprintf(stderr, "ptxemu sweep: sbatch: %s\n", e->message);
        g_error_free(e);
    } else if (!g_spawn_check_wait_status(st, NULL) && !o->wait) {
        fprintf(stderr, "ptxemu sweep: sbatch failed: %s\n", g_strstrip(serr));
    } else {
        /* with --wait sbatch exits non-zero when a task failed; collect says which */
        char *id = g_strstrip(g_strdup(sout));
        GKeyFile *kf = g_key_file_new();
        g_key_file_set_string(kf, "array", "job_id", id);
        g_key_file_set_integer(kf, "array", "tasks", (gint)tasks);
        g_key_file_set_integer(kf, "array", "per_task", (gint)o->per_task);
        char *meta = g_build_filename(sdir, "array.ini", NULL);
        g_key_file_save_to_file(kf, meta, NULL);
        printf("submitted Slurm job %s: %u array tasks of %u job%s (%s)\n", id, tasks,
               o->per_task, o->per_task == 1 ? "" : "s", script);
        if (!o->wait)
            printf("when it has finished: ptxemu sweep %s --out %s --collect\n", exp_path, dir);
        g_free(meta);
        g_key_file_free(kf);
        g_free(id);
        rc = 0;
    }
    g_free(sout);
    g_free(serr);
    g_free(script);
out:
    g_free(sbatch);
    g_free(self);
    g_free(adir);
    g_free(aexp);
    g_free(sdir);
    g_free(jdir);
    return rc;
}

int sweep_slurm_collect(const sweep_spec *s, const char *dir)
{
    char *meta = g_build_filename(dir, "slurm", "array.ini", NULL);
    GKeyFile *kf = g_key_file_new();
    unsigned per_task = 1;
    if (g_key_file_load_from_file(kf, meta, G_KEY_FILE_NONE, NULL))
        per_task = (unsigned)MAX(1, g_key_file_get_integer(kf, "array", "per_task", NULL));
    g_key_file_free(kf);
    g_free(meta);
    unsigned bad = 0;
    for (guint i = 0; i < s->jobs->len; i++) {
        const sweep_job *j = g_ptr_array_index(s->jobs, i);
        sweep_record *r = sweep_record_load(dir, j);
        if (!r || !r->ok) {
            bad++;
            printf("task %u: job %u %s (%s %s): %s\n", i / per_task, i, j->id, j->bench->name,
                   j->variant, r ? r->reason : "missing (no record: the task did not run it)");
        }
        sweep_record_free(r);
    }
    unsigned ok, failed, missing;
    GError *e = NULL;
    if (!sweep_write_outputs(s, dir, &ok, &failed, &missing, &e)) {
        fprintf(stderr, "ptxemu sweep: cannot write the results: %s\n", e->message);
        g_error_free(e);
        return 1; /* an output that could not be written (docs/errors.md) */
    }
    printf("%s: collected %u jobs: %u ok, %u failed, %u missing; task logs in %s/slurm/\n", dir,
           s->jobs->len, ok, failed, missing, dir);
    return bad ? 1 : 0;
}
