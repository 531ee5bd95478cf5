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

#endif
