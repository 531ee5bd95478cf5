/* tools/run_file.h — `ptxemu run --run-file FILE`: several launches, their
 * modules, arguments, streams and dependencies in one INI file
 * (docs/run-files.md). */
#ifndef PTXEMU_TOOLS_RUN_FILE_H
#define PTXEMU_TOOLS_RUN_FILE_H

#include <glib.h>

#define RUN_FILE_MAX_LAUNCHES 64

/* The run file's launches, in file order, each as one string: its module's
 * path, then one `ptxemu run` launch option a line ("--kernel=NAME", ...).
 * Returns how many (>= 1), or -1 with a message naming the file, group and
 * key. */
int run_file_load(const char *path, char ***out, GError **error);

#endif
