/* tools/correlate.h — `ptxemu correlate`: the reference file (rows of
 * per-launch figures measured elsewhere), the metrics it may hold and the
 * ptxemu statistic each is compared with.  The format is in
 * docs/correlate.md. */
#ifndef PTXEMU_TOOLS_CORRELATE_H
#define PTXEMU_TOOLS_CORRELATE_H

#include "benchmarks/harness.h"

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum corr_metric {
    CM_CYCLES,
    CM_WARP_INSTRUCTIONS,
    CM_INSTRUCTIONS,
    CM_IPC,
    CM_L1_HIT,
    CM_L2_HIT,
    CM_DRAM_READS,
    CM_DRAM_WRITES,
    CM_ICNT_STALLS,
    CM_COUNT
} corr_metric;

typedef enum corr_kind {
    CK_COUNT, /* a non-negative count: log-log plot */
    CK_RATE,  /* a hit rate in [0, 1]: linear plot */
    CK_RATIO, /* a non-negative ratio (IPC): log-log plot */
} corr_kind;

typedef struct corr_metric_info {
    const char *name;    /* the reference column and --metric name */
    corr_kind kind;
    /* the ptxemu statistic it is compared with (stats JSON names), or NULL
     * when ptxemu has none; then `none` says what is missing */
    const char *ptxemu;
    const char *none;
} corr_metric_info;

extern const corr_metric_info corr_metrics[CM_COUNT];
/* The metric named `name`, or -1. */
int corr_metric_find(const char *name);

static inline const char *corr_size_name(bench_size s)
{
    return bench_size_name(s);
}

/* One reference row (one kernel launch), and after the run ptxemu's side. */
typedef struct corr_row {
    unsigned line;               /* in the reference file */
    const bench_def *bench;
    unsigned bench_index;        /* position in the registry */
    bench_size size;
    unsigned launch;             /* 0-based, in the benchmark's launch order */
    char *kernel;
    double ref[CM_COUNT];
    bool has_ref[CM_COUNT];      /* false: the field was empty */
    double ptx[CM_COUNT];
    bool has_ptx[CM_COUNT];      /* false: ptxemu has no value (no counterpart,
                                    or a hit rate without accesses) */
    int half;                    /* 1 or 2 (corr_order) */
} corr_row;

typedef struct corr_ref {
    char *path;
    GPtrArray *meta;             /* "key: value" lines, "key" and "value" alternating */
    double core_mhz;             /* # core_clock_mhz: F; 0 when not given */
    double dram_bytes;           /* # dram_request_bytes: B; 0 when not given */
    bool column[CM_COUNT];       /* the metric has a column */
    GArray *rows;                /* corr_row, in file order */
} corr_ref;

/* Reads and checks a reference file (tools/correlate_ref.c): columns,
 * numbers, benchmark and size names, duplicate launches.  Every problem
 * found is appended to `errors` as "FILE:LINE: message" (or "FILE: ..."),
 * and the result is NULL when there is any. */
corr_ref *corr_ref_read(const char *path, GPtrArray *errors);
void corr_ref_free(corr_ref *r);
/* The value of metadata `key`, or NULL. */
const char *corr_ref_meta(const corr_ref *r, const char *key);

/* The pairs of one metric where both values are known, in row order, into
 * ptx[] and ref[] (room for n each); their count (tools/correlate_report.c). */
unsigned corr_pairs(const corr_row *const *rows, unsigned n, int metric, double *ptx,
                    double *ref);
/* The per-launch table: half, benchmark, size, launch, kernel, then per
 * metric the reference value, ptxemu's and the relative error. */
void corr_print_launches(FILE *out, const corr_row *const *rows, unsigned n, const int *metrics,
                         unsigned nm);
/* Per metric over `rows`: N, Pearson r, MAPE and the geometric-mean ratio. */
void corr_print_summary(FILE *out, const char *title, const corr_row *const *rows, unsigned n,
                        const int *metrics, unsigned nm);
/* `--csv FILE`: the joined table, a row per launch. */
bool corr_write_csv(const char *path, const corr_row *const *rows, unsigned n, const int *metrics,
                    unsigned nm, GError **error);

/* `--plot DIR`: DIR/METRIC.svg per metric, from METRIC.csv and METRIC.gp
 * written beside it (tools/correlate_plot.c); `ptx_label` names ptxemu's
 * configuration on the y axis.  The exit status: 3 without gnuplot. */
int corr_plot(const char *dir, const corr_ref *ref, const char *ptx_label,
              const corr_row *const *rows, unsigned n, const int *metrics, unsigned nmetrics);

#endif
