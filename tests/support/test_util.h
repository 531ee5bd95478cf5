/* tests/support/test_util.h — helpers shared by the cmocka tests. */
#ifndef PTXEMU_TEST_UTIL_H
#define PTXEMU_TEST_UTIL_H

#include <glib.h>

/* Absolute path of a file in the source tree ("tests/corpus/nvcc/x.ptx"),
 * from PTXEMU_SOURCE_DIR (set by meson test).  Free with g_free. */
char *test_source_path(const char *relative);
/* Whole file as a NUL-terminated string; aborts the test when missing. */
char *test_read_file(const char *relative, gsize *len);
/* Runs the ptxemu program named by $PTXEMU_BIN (meson test sets it) with
 * the NULL-terminated `args`; returns its exit status (128 + n when signal
 * n ended it) and its stdout and stderr (free with g_free; pass NULL to
 * discard).  Aborts with a message when PTXEMU_BIN is unset or the program
 * cannot be started: a command-line test must fail, never pass by running
 * nothing. */
int test_run_cli(const char *const *args, char **out, char **err);

#include "api/ptxemu.h"

#include <stdbool.h>
#include <stddef.h>

/* A device buffer for test_run_ptx: copied in before the launch and back
 * after it.  Each buffer becomes one .u64 kernel parameter, in order. */
typedef struct test_buf {
    void *host;
    size_t bytes;
} test_buf;

/* Parses and loads `ptx`, launches `kernel` on grid x block threads with
 * one pointer parameter per buffer, and copies every buffer back.  On
 * failure returns the status and, if `error` is not NULL, the message
 * (free with g_free). */
ptxemu_status test_run_ptx(const char *ptx, const char *kernel, unsigned grid,
                           unsigned block, test_buf *bufs, unsigned nbufs,
                           char **error);

#endif
