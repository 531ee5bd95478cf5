/* timing/outfile.h — output files that never fail silently.
 *
 * A result file (statistics, CSV series, scheduler traces, buffer dumps) is
 * written to a temporary file in the same folder and renamed over its name
 * only after every write, the flush and the close succeeded, so a failed run
 * never leaves a truncated file that looks complete.  A target that is not a
 * regular file (a character device such as /dev/full or /dev/stdout, a FIFO)
 * cannot be replaced by a rename; it is written in place, with the same
 * checks.  Every failure is a GError naming the file. */
#ifndef PTXEMU_TIMING_OUTFILE_H
#define PTXEMU_TIMING_OUTFILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct out_file {
    FILE *f;            /* write here between open and close */
    char *path;         /* the name the result gets */
    char *tmp;          /* the temporary file, or NULL when written in place */
} out_file;

bool out_file_open(out_file *o, const char *path, GError **error);
/* Flushes, checks for write errors, closes and renames; on any failure the
 * temporary file is removed and `path` is left as it was. */
bool out_file_close(out_file *o, GError **error);
/* Gives up: closes and removes the temporary file (no-op when not open). */
void out_file_abort(out_file *o);
/* open + one write + close. */
bool out_file_write_all(const char *path, const void *data, size_t len, GError **error);

#endif
