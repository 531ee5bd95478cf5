/* tools/timing_cli.c — the timing options `run` and `bench run` share
 * (`--timing`, `--config`, `--set`, `--sample`, schedulers, stats and
 * trace files): their GOption group and their translation into
 * ptxemu_options.  Split out of tools/cmd_run.c. */
#include "api/api_internal.h"
#include "sched/sched.h"
#include "timing/stats.h"
#include "tools/commands.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `--timing [--config NAME|FILE] [--set k=v]... [--warp-sched NAME]
 * [--cta-sched NAME] [--stats FILE] [--trace-csv DIR] [--trace-interval N]
 * [--sched-trace FILE] [--step-every-cycle]`, shared by `run` and `bench run`. */
void timing_cli_add_group(GOptionContext *oc, timing_cli *t)
{
    /* the choices are whatever sched/policies.def registers */
    char *w = g_strjoinv(", ", (char **)sched_names_warp);
    char *c = g_strjoinv(", ", (char **)sched_names_cta);
    t->warp_help = g_strdup_printf("warp scheduler (%s); same as --set warp.policy=NAME", w);
    t->cta_help = g_strdup_printf("CTA placement policy (%s); same as --set cta.policy=NAME; "
                                  "'ptxemu config --list' shows every level", c);
    g_free(w);
    g_free(c);
    GOptionEntry e[] = {
        {"timing", 0, 0, G_OPTION_ARG_NONE, &t->timing,
         "run on the cycle-level timing model and print a timing summary", NULL},
        {"config", 0, 0, G_OPTION_ARG_STRING, &t->config,
         "GPU preset (m2090, c2050, gtx480, k20x, k20c, onac32, icc60) or INI file "
         "(default: built-in generic Fermi)", "NAME|FILE"},
        {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &t->sets,
         "override one config key (repeatable)", "GROUP.KEY=VALUE"},
        {"warp-sched", 0, 0, G_OPTION_ARG_STRING, &t->warp, t->warp_help, "NAME"},
        {"cta-sched", 0, 0, G_OPTION_ARG_STRING, &t->cta, t->cta_help, "NAME"},
        {"stats", 0, 0, G_OPTION_ARG_FILENAME, &t->stats, "write statistics as JSON", "FILE"},
        {"trace-csv", 0, 0, G_OPTION_ARG_FILENAME, &t->csv_dir,
         "write CSV time series (one file per launch) into DIR", "DIR"},
        {"trace-interval", 0, 0, G_OPTION_ARG_INT64, &t->interval,
         "cycles per CSV row (default: stats.interval)", "N"},
        {"regs-per-thread", 0, 0, G_OPTION_ARG_INT64, &t->regs,
         "registers per thread for occupancy (default: peak live registers of the "
         "kernel's .reg declarations)", "N"},
        {"step-every-cycle", 0, 0, G_OPTION_ARG_NONE, &t->step,
         "visit every SM every cycle instead of skipping idle cycles (same statistics, "
         "slower; sets sim.step_every_cycle)", NULL},
        {"sample", 0, 0, G_OPTION_ARG_NONE, &t->sample,
         "sampled simulation: each launch in detail until its IPC is stable, the rest "
         "functionally with projected cycles (sets sample.mode=on; docs/sampling.md)", NULL},
        {"sched-trace", 0, 0, G_OPTION_ARG_FILENAME, &t->sched_trace,
         "write every scheduling decision (CTA placement, kernel start/end) to FILE", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *g = g_option_group_new("timing", "Timing model options:",
                                         "Show the timing model options", NULL, NULL);
    g_option_group_add_entries(g, e);
    g_option_context_add_group(oc, g);
    GOptionEntry lim[] = {
        {"max-warp-instructions", 0, 0, G_OPTION_ARG_INT64, &t->max_warp,
         "stop a launch after N warp instructions (default: limits.max_warp_instructions, "
         "1e8; 1e11 for bench)", "N"},
        {"max-cycles", 0, 0, G_OPTION_ARG_INT64, &t->max_cycles,
         "with --timing: stop a launch after N core cycles (default: limits.max_cycles, "
         "2e7; 1e11 for bench)", "N"},
        {"max-seconds", 0, 0, G_OPTION_ARG_INT64, &t->max_seconds,
         "stop a launch after N seconds of wall-clock time (default: limits.max_seconds, "
         "0 = no limit)", "N"},
        {"progress", 0, 0, G_OPTION_ARG_NONE, &t->progress,
         "a progress line on stderr every 10 s of a launch (limits.progress_seconds)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *lg = g_option_group_new("limits", "Run limits:", "Show the run limits",
                                          NULL, NULL);
    g_option_group_add_entries(lg, lim);
    g_option_context_add_group(oc, lg);
    GOptionEntry host[] = {
        {"jobs", 'j', 0, G_OPTION_ARG_INT64, &t->jobs,
         "run the CTAs of a functional launch (with --timing: the SMs of each cycle) "
         "on N host threads (default: sim.host_threads, 1); kernels whose CTAs may "
         "observe each other run on one, said on stderr", "N"},
        {"race-check", 0, 0, G_OPTION_ARG_NONE, &t->race,
         "functional runs: report the first data race of each launch (conflicting plain "
         "global accesses of two warps with no barrier or fence between them; "
         "check.races; runs CTAs on one thread, slower)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionGroup *hg = g_option_group_new("host", "Host threads:", "Show the host-thread options",
                                          NULL, NULL);
    g_option_group_add_entries(hg, host);
    g_option_context_add_group(oc, hg);
    /* "not given" differs from an explicit 0, which is an error */
    t->interval = t->regs = t->max_warp = t->max_cycles = t->jobs = TIMING_CLI_UNSET;
    t->max_seconds = TIMING_CLI_UNSET;
}

bool timing_cli_options(timing_cli *t, ptxemu_options *o, out_file *trace, const char *who)
{
    bool any = t->config || t->sets || t->warp || t->cta || t->stats || t->csv_dir ||
               t->interval != TIMING_CLI_UNSET || t->sched_trace || t->regs != TIMING_CLI_UNSET ||
               t->max_cycles != TIMING_CLI_UNSET || t->step || t->sample;
    if (any && !t->timing) {
        fprintf(stderr, "%s: timing options need --timing\n", who);
        return false;
    }
    if (t->interval == TIMING_CLI_UNSET)
        t->interval = 0;
    else if (t->interval < 1 || t->interval > 1000000000) {
        fprintf(stderr, "%s: --trace-interval must be between 1 and 1e9 cycles, not %lld\n",
                who, (long long)t->interval);
        return false;
    }
    if (t->max_warp != TIMING_CLI_UNSET && t->max_warp < 1) {
        fprintf(stderr, "%s: --max-warp-instructions must be at least 1, not %lld\n", who,
                (long long)t->max_warp);
        return false;
    }
    if (t->max_cycles != TIMING_CLI_UNSET && t->max_cycles < 1) {
        fprintf(stderr, "%s: --max-cycles must be at least 1, not %lld\n", who,
                (long long)t->max_cycles);
        return false;
    }
    if (t->max_seconds != TIMING_CLI_UNSET && (t->max_seconds < 0 || t->max_seconds > 1000000000)) {
        fprintf(stderr, "%s: --max-seconds must be between 0 (no limit) and 1e9, not %lld\n",
                who, (long long)t->max_seconds);
        return false;
    }
    if (t->jobs != TIMING_CLI_UNSET && (t->jobs < 1 || t->jobs > 256)) {
        fprintf(stderr, "%s: -j/--jobs (sim.host_threads) must be between 1 and 256, not %lld\n",
                who, (long long)t->jobs);
        return false;
    }
    if (t->race && t->timing) {
        fprintf(stderr, "%s: --race-check checks functional runs; drop --timing\n", who);
        return false;
    }
    o->race_check = t->race ? 1 : 0;
    o->host_threads = t->jobs == TIMING_CLI_UNSET ? 0 : (uint32_t)t->jobs;
    o->max_warp_instructions = t->max_warp == TIMING_CLI_UNSET ? 0 : (uint64_t)t->max_warp;
    o->max_cycles = t->max_cycles == TIMING_CLI_UNSET ? 0 : (uint64_t)t->max_cycles;
    o->max_seconds = t->max_seconds == TIMING_CLI_UNSET ? 0 : (uint32_t)t->max_seconds;
    o->progress_seconds = t->progress ? 10 : 0;
    o->timing = t->timing;
    o->timing_config = t->config;
    if (t->sample) { /* after the --set overrides: --sample wins */
        guint n = t->sets ? g_strv_length(t->sets) : 0;
        t->sets = g_renew(gchar *, t->sets, n + 2);
        t->sets[n] = g_strdup("sample.mode=on");
        t->sets[n + 1] = NULL;
        t->sample = false; /* added once */
    }
    o->timing_set = (const char *const *)t->sets;
    o->warp_sched = t->warp;
    o->cta_sched = t->cta;
    o->stats_path = t->stats;
    o->trace_csv_dir = t->csv_dir;
    o->trace_interval = (uint32_t)t->interval;
    if (t->regs == TIMING_CLI_UNSET)
        t->regs = 0;
    else if (t->regs < 1 || t->regs > 255) {
        fprintf(stderr, "%s: --regs-per-thread must be between 1 and 255, not %lld\n", who,
                (long long)t->regs);
        return false;
    }
    o->regs_per_thread = (uint32_t)t->regs;
    o->step_every_cycle = t->step;
    if (t->sched_trace) {
        GError *err = NULL;
        if (!out_file_open(trace, t->sched_trace, &err)) {
            fprintf(stderr, "%s: %s\n", who, err->message);
            g_error_free(err);
            return false;
        }
        o->sched_trace = trace->f;
    }
    return true;
}

bool timing_cli_close_trace(out_file *trace, bool keep, const char *who)
{
    if (!trace->f)
        return true;
    if (!keep) {
        out_file_abort(trace);
        return true;
    }
    GError *err = NULL;
    if (out_file_close(trace, &err))
        return true;
    fprintf(stderr, "%s: %s\n", who, err->message);
    g_error_free(err);
    return false;
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
    g_free(t->warp_help);
    g_free(t->cta_help);
    memset(t, 0, sizeof *t);
}
