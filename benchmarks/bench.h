/* benchmarks/bench.h — the contract between a benchmark's host driver and the
 * harness behind `ptxemu bench` and the test suite.
 *
 * The harness creates a context, loads the benchmark's committed PTX, calls
 * run(), and times it.  A driver does what the real application does (several
 * kernels, host loops until convergence), then compares the device results
 * with its CPU reference and reports PASS or FAIL with the first mismatch. */
#ifndef PTXEMU_BENCH_H
#define PTXEMU_BENCH_H

#include "api/ptxemu.h"

#include <stdbool.h>
#include <stdint.h>

/* tiny, small and paper exist for every benchmark.  A size after them is one
 * paper's own input set, defined only by the drivers that benchmarks/
 * registry_sizes.inc lists for it (the harness refuses it for the others):
 *   BENCH_CLASO: the CLASO paper's (Yu et al., IJPP 2014) Table 2 inputs, with
 *   its kernel and CTA counts (docs/experiments/claso/benchmarks.md).
 *   BENCH_THESIS: the thesis's chapter 4 inputs (Awatramani, Table 4.4: CTAs
 *   per launch), where reaching them is affordable; otherwise paper
 *   (registry_sizes.inc says which driver differs and why). */
typedef enum bench_size { BENCH_TINY, BENCH_SMALL, BENCH_PAPER, BENCH_CLASO, BENCH_THESIS } bench_size;

typedef enum bench_outcome {
    BENCH_PASS = 0,
    BENCH_FAIL = 1,  /* ran, but the answer differs from the CPU reference */
    BENCH_ERROR = 2, /* a ptxemu call failed; msg says which */
} bench_outcome;

typedef struct bench_env {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;   /* the benchmark's PTX, loaded by the harness */
    bench_size size;
    uint64_t seed;        /* input generator seed (default 1) */
    double ref_seconds;   /* driver sets: wall time of its CPU reference */
    bool break_reference; /* test hook: driver perturbs its reference so the
                             check must fail (proves the check can fail) */
    char msg[512];        /* driver sets on FAIL/ERROR: what went wrong */
} bench_env;

typedef bench_outcome (*bench_run_fn)(bench_env *env);

typedef struct bench_def {
    const char *name;    /* "vector-add" */
    const char *summary; /* one line: what it computes */
    const char *ptx;     /* path relative to benchmarks/: "vector-add/vector_add.ptx" */
    bench_run_fn run;
} bench_def;

/* The registry (benchmarks/registry.c). */
const bench_def *bench_find(const char *name);
const bench_def *const *bench_all(unsigned *count);

/* Helpers for drivers (benchmarks/bench_util.c). */
double bench_now(void);                 /* monotonic seconds */
uint64_t bench_rng_next(uint64_t *state); /* splitmix64 */
float bench_rng_float(uint64_t *state);   /* uniform in [0,1) */
/* Fails the run with a message; returns BENCH_ERROR for `return bench_check(...)`. */
bench_outcome bench_api_error(bench_env *env, const char *what, ptxemu_status s);
/* The host side of a separable image-filter benchmark: `ntaps` taps and a
 * w x h image drawn from the seed (taps first), the device run, the CPU
 * reference (timed; broken on request), and the check of every pixel within
 * 1e-6 + 1e-6 x |reference|.  `name` heads the failure messages. */
typedef bench_outcome (*bench_filter_device)(bench_env *env, const float *taps, float *img,
                                             float *out, int w, int h);
typedef void (*bench_filter_reference)(float *out, float *tmp, const float *in,
                                       const float *taps, int w, int h);
bench_outcome bench_separable_filter(bench_env *env, const char *name, int w, int h, int ntaps,
                                     bench_filter_device device,
                                     bench_filter_reference reference);
#define BENCH_TRY(env, call)                                          \
    do {                                                              \
        ptxemu_status bench_st_ = (call);                             \
        if (bench_st_ != PTXEMU_OK)                                   \
            return bench_api_error((env), #call, bench_st_);          \
    } while (0)
/* The same for a driver that frees what it allocated: the error goes to
 * `out` and control to its `done:` label. */
#define BENCH_TRY_DONE(env, out, call)                                \
    do {                                                              \
        ptxemu_status bench_st_ = (call);                             \
        if (bench_st_ != PTXEMU_OK) {                                 \
            (out) = bench_api_error((env), #call, bench_st_);         \
            goto done;                                                \
        }                                                             \
    } while (0)

#endif
