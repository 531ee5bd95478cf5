/* tools/ptxemu.c — the command-line program: dispatches to subcommands. */
#include "tools/commands.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

static const ptxemu_cmd commands[] = {
    {"parse", "check that PTX files parse; print their kernels and functions", cmd_parse},
    {"dump", "re-emit a PTX file from its parsed form", cmd_dump},
    {"cfg", "basic blocks, dominators, reconvergence points and loops", cmd_cfg},
    {"phases", "phase annotations and setp-spin candidates", cmd_phases},
    {"check", "list the instructions of PTX files that cannot run yet", cmd_check},
    {"run", "launch one kernel functionally", cmd_run},
    {"bench", "run the project's benchmarks against their CPU references", cmd_bench},
    {"config", "scheduling policies and their keys; GPU configs with every value", cmd_config},
    {"sweep", "run an experiment: benchmarks x configs x overrides", cmd_sweep},
    {"plot", "SVG plots of a sweep's results (gnuplot)", cmd_plot},
    {"validate", "check every scheduling policy leaves memory as the functional run", cmd_validate},
    {"exec", "run a CUDA program (nvcc -cudart shared) on ptxemu", cmd_exec},
    {"correlate", "compare per-launch statistics with a reference (GPGPU-Sim, silicon)",
     cmd_correlate},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ptxemu COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'ptxemu COMMAND --help' describes a command's options.\n");
}

/* Standard output is a result too: a failed write (a full disk, /dev/full,
 * a closed pipe) makes the command fail instead of exiting 0. */
static int finish(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        fprintf(stderr, "ptxemu: cannot write standard output: %s\n",
                g_strerror(errno ? errno : EIO));
        return status ? status : 1;
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return finish(commands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "ptxemu: unknown command '%.64s%s'\n", argv[1],
            strlen(argv[1]) > 64 ? "..." : "");
    usage(stderr);
    return 2;
}
