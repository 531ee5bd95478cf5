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

#endif
