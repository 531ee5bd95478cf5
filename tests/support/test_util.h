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

/* cmocka needs these before cmocka.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

/* ------------------------------------------- the nvcc corpus, by kernel
 * Helpers for tests that run tests/corpus/nvcc/NAME.sm_ARCH.ptx through
 * the C API; each one fails the running cmocka test on an error. */

/* A context and the module loaded into it; sm is ARCH as a number. */
typedef struct test_corpus {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    unsigned sm;
} test_corpus;

/* Creates a context with `opts` (NULL: the defaults) and loads
 * tests/corpus/nvcc/NAME.sm_ARCH.ptx ("vector_add", "80") into it. */
void test_corpus_load(test_corpus *f, const char *name, const char *arch,
                      const ptxemu_options *opts);
/* A device buffer of `bytes` holding a copy of `host` (NULL: zeroed). */
ptxemu_dptr test_corpus_upload(test_corpus *f, const void *host, size_t bytes);
/* Launches `kernel`; a failure names sm_ARCH and the kernel. */
void test_corpus_launch_dim(test_corpus *f, const char *kernel, ptxemu_dim3 grid,
                            ptxemu_dim3 block, void **args);
/* The same on a one-dimensional grid of one-dimensional blocks. */
void test_corpus_launch(test_corpus *f, const char *kernel, unsigned blocks, unsigned threads,
                        void **args);
void test_corpus_download(test_corpus *f, void *host, ptxemu_dptr d, size_t bytes);
/* The common kernel(const T *in, U *out): uploads in_bytes of `in` and a
 * zeroed output of out_bytes, launches as test_corpus_launch, and copies
 * the output back to `out`. */
void test_corpus_run_io(test_corpus *f, const char *kernel, unsigned blocks, unsigned threads,
                        const void *in, size_t in_bytes, void *out, size_t out_bytes);
/* Destroys the context, and with it the module and the buffers. */
void test_corpus_close(test_corpus *f);

/* The tests' linear congruential generator: advances *state
 * (state * 1664525 + 1013904223 mod 2^32) and returns the new state. */
uint32_t test_lcg(uint32_t *state);
/* test_lcg's new state x tempered as x ^ (x >> 13). */
uint32_t test_rng(uint32_t *state);

/* Numbers in the timing statistics JSON, found by key: the kernels come in
 * launch order, then the total.  test_json_nth gives the idx-th (0-based)
 * number called `key` and fails the test when there is none; test_json_real
 * the same as a double; test_json_count how often `key` names a number. */
uint64_t test_json_nth(const char *json, const char *key, unsigned idx);
double test_json_real(const char *json, const char *key, unsigned idx);
unsigned test_json_count(const char *json, const char *key);

/* A timing context on preset `config` with the "key=value" overrides `sets`
 * (NULL-terminated, may be NULL) and `ptx` loaded as module `name`; fails
 * the test with the library's message when either step fails. */
void test_timing_open(const char *config, const char *const *sets, const char *ptx,
                      const char *name, ptxemu_ctx **ctx, ptxemu_module **mod);

#endif
