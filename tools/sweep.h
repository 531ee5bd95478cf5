/* tools/sweep.h — `ptxemu sweep`: an experiment file expanded into jobs
 * (benchmark x size x seed x config x overrides), run as subprocesses of
 * this program, recorded one file per job in a results folder, and
 * summarised (results.jsonl, results.csv, summary.csv).  The file format
 * is documented in docs/experiments.md. */
#ifndef PTXEMU_TOOLS_SWEEP_H
#define PTXEMU_TOOLS_SWEEP_H

#include "benchmarks/bench.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum sweep_mode { SWEEP_TIMING, SWEEP_FUNCTIONAL } sweep_mode;

typedef struct sweep_job {
    unsigned index;          /* position in the expansion (Slurm slices by it) */
    char id[17];             /* 16 hex digits: hash of every input but the
                                version (which the record holds) */
    const bench_def *bench;
    char *size;              /* tiny | small | paper */
    uint64_t seed;
    unsigned rep;            /* repetition number, 1-based */
    sweep_mode mode;
    char *config;            /* preset name or file; NULL when functional */
    char **sets;             /* NULL-terminated "group.key=value" */
    char *variant;           /* "gtx480 warp.policy=gto", or "functional" */
} sweep_job;

typedef struct sweep_spec {
    char *path, *name, *description, *paper;
    char *expect;            /* [paper] expect: "A > B: bench, ...; ..." */
    GPtrArray *jobs;         /* sweep_job*, owned */
    GPtrArray *variants;     /* distinct timing variant labels, in order */
    GPtrArray *swept_keys;   /* override keys with more than one value */
    char *baseline;          /* variant label, or NULL */
    char **metrics;          /* summary metrics ("total.cycles") */
    char *bars_metric, *line_key, *line_metric;
    double timeout_s;        /* per job */
} sweep_spec;

/* tools/sweep_spec.c: parses and checks `path`; errors name its line. */
sweep_spec *sweep_spec_load(const char *path, GError **error);
/* The experiment file's shape (groups, keys, syntax), each error with its
 * line (tools/sweep_lint.c); sweep_spec_load runs it first. */
bool sweep_lint(const char *path, const char *text, GError **error);
void sweep_spec_free(sweep_spec *s);
/* The ptxemu version that goes into every job's identity. */
const char *sweep_version(void);
/* The value of `key` in a job's overrides, or NULL. */
const char *sweep_job_get(const sweep_job *j, const char *key);
/* The shell command that reruns a job by hand (g_free). */
char *sweep_job_command(const sweep_job *j);

/* tools/sweep_record.c: one record per finished job in DIR/jobs/. */
typedef struct sweep_record {
    const sweep_job *job;
    bool ok;
    char *version;           /* ptxemu version that ran it */
    char *reason;            /* failed: why (exit status, timeout, FAIL message) */
    char *stderr_tail;
    double wall_s;
    GHashTable *values;      /* flattened stats + counters: "total.cycles" -> "123" */
    GPtrArray *order;        /* keys of `values` in document order */
    char *stats_json;        /* raw statistics JSON, or NULL */
} sweep_record;

char *sweep_job_path(const char *dir, const sweep_job *j, const char *ext);
/* In the job subprocess: runs the job and writes DIR/jobs/ID.out (+ .stats.json). */
int sweep_run_job_main(int argc, char **argv);
/* The argv (NULL-terminated, g_strfreev) that runs `j` as a subprocess. */
char **sweep_job_argv(const char *self, const char *dir, const sweep_job *j);
/* After the subprocess ended: reads its output, writes DIR/jobs/ID.rec.
 * False, with the system's reason in `error`, when the record could not
 * be written (a full disk): the job then has no record and counts as
 * failed.  `reason` (may be NULL) gets why the job failed, or NULL. */
bool sweep_record_finish(const char *dir, const sweep_job *j, int wait_status,
                         bool timed_out, double wall_s, char **reason, GError **error);
/* The exit status of a job subprocess that could not write its results. */
#define SWEEP_JOB_WRITE_FAILED 3
/* The record of `j`, or NULL when it has none (never ran, or interrupted).
 * A job is finished when its record is ok and of this version. */
sweep_record *sweep_record_load(const char *dir, const sweep_job *j);
void sweep_record_free(sweep_record *r);

/* tools/sweep_local.c: the results folder's lock, DIR/.sweep.lock (flock):
 * exclusive for a local sweep and --collect, shared for the tasks of a
 * Slurm array (which run into one folder together).  Creates DIR.  The
 * descriptor, or -1 after saying why on stderr (another sweep holds it). */
#define SWEEP_LOCK_FILE ".sweep.lock"
int sweep_lock_dir(const char *dir, bool shared);
void sweep_unlock_dir(int fd, bool shared);

/* tools/sweep_local.c: runs the jobs in [first, last) that have no ok
 * record, `workers` at a time; 0 all ok, 1 some failed, 130 interrupted. */
int sweep_run_local(const sweep_spec *s, const char *dir, unsigned workers,
                    unsigned first, unsigned last, bool progress);

/* tools/sweep_output.c: results.jsonl, results.csv and summary.csv from
 * every record in DIR; counts of ok / failed / missing jobs. */
bool sweep_write_outputs(const sweep_spec *s, const char *dir, unsigned *ok,
                         unsigned *failed, unsigned *missing, GError **error);

/* The mean of `metric` over the ok repetitions of (bench, size, variant);
 * recs[i] is job i's record or NULL.  false (and NAN) when there is none. */
bool sweep_cell_mean(const sweep_spec *s, sweep_record **recs, const bench_def *b,
                     const char *size, const char *variant, const char *metric, double *out);

/* tools/sweep_slurm.c */
typedef struct sweep_slurm_opts {
    const char *partition, *time_limit;
    unsigned per_task;       /* jobs per array element */
    bool wait;               /* sbatch --wait */
} sweep_slurm_opts;
int sweep_slurm_submit(const sweep_spec *s, const char *exp_path, const char *dir,
                       const sweep_slurm_opts *o);
int sweep_slurm_collect(const sweep_spec *s, const char *dir);

/* tools/sweep_report.c: the Markdown page of docs/experiments/. */
bool sweep_write_report(const sweep_spec *s, const char *dir, const char *md_path,
                        const char *plot_dir, const char *command, GError **error);

#endif
