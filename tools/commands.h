/* tools/commands.h — the subcommands of the ptxemu program. */
#ifndef PTXEMU_TOOLS_COMMANDS_H
#define PTXEMU_TOOLS_COMMANDS_H

typedef int (*ptxemu_cmd_fn)(int argc, char **argv);

typedef struct ptxemu_cmd {
    const char *name;
    const char *summary;
    ptxemu_cmd_fn run;
} ptxemu_cmd;

int cmd_parse(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_cfg(int argc, char **argv);      /* tools/cmd_cfg.c */
int cmd_phases(int argc, char **argv);   /* tools/cmd_phases.c */
int cmd_check(int argc, char **argv);    /* tools/cmd_run.c */
int cmd_run(int argc, char **argv);      /* tools/cmd_run.c */
int cmd_bench(int argc, char **argv);    /* tools/cmd_bench.c */
int cmd_config(int argc, char **argv);   /* tools/cmd_config.c */
int cmd_sweep(int argc, char **argv);    /* tools/cmd_sweep.c */
int cmd_plot(int argc, char **argv);     /* tools/cmd_plot.c */
/* `plot --ctas CSV`: OUT/ctas.svg; the exit status (tools/plot_ctas.c). */
int plot_ctas(const char *csv_path, const char *out);
int cmd_validate(int argc, char **argv); /* tools/cmd_validate.c */
int cmd_exec(int argc, char **argv);     /* tools/cmd_exec.c */
int cmd_correlate(int argc, char **argv); /* tools/cmd_correlate.c */

/* The timing-model options `run` and `bench run` share (tools/cmd_run.c). */
#include "api/ptxemu.h"
#include "timing/outfile.h"

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct timing_cli {
    gboolean timing;
    gchar *config, *warp, *cta, *stats, *csv_dir, *sched_trace;
    gchar **sets;
    gint64 interval;
    gint64 regs;        /* registers per thread for occupancy; 0 = estimate */
    gint64 max_warp, max_cycles; /* run limits (functional and timing) */
    gchar *warp_help, *cta_help; /* option help listing the registered policies */
    gboolean step;      /* --step-every-cycle */
    gint64 jobs;        /* -j/--jobs: host threads for functional CTAs */
    gint64 max_seconds; /* --max-seconds: limits.max_seconds */
    gboolean progress;  /* --progress: a line on stderr every 10 s */
    gboolean race;      /* --race-check: check.races (functional) */
    gboolean sample;    /* --sample: sample.mode=on */
} timing_cli;

/* An option not given on the command line (an explicit 0 is an error). */
#define TIMING_CLI_UNSET G_MININT64

void timing_cli_add_group(GOptionContext *oc, timing_cli *t);
/* Fills the timing fields of *o (opening the decision trace into *trace);
 * false after printing a message. */
bool timing_cli_options(timing_cli *t, ptxemu_options *o, out_file *trace, const char *who);
/* Gives the trace its name after a good run (`keep`), or removes it;
 * false after printing a message when writing it failed. */
bool timing_cli_close_trace(out_file *trace, bool keep, const char *who);
void timing_cli_free(timing_cli *t);

/* One benchmark run printed as a `PERF key=value...` line (tools/bench_perf.c). */
struct bench_def;
int bench_perf_one(const struct bench_def *b, int size, uint64_t seed,
                   const ptxemu_options *opts);

#endif
