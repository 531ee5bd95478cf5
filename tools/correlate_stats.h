/* tools/correlate_stats.h — the statistics `ptxemu correlate` reports for
 * each metric over a set of kernel launches (ptxemu value against reference
 * value), and the calibration/test split of the launches.  Pure functions
 * on arrays: no I/O, no ptxemu state. */
#ifndef PTXEMU_TOOLS_CORRELATE_STATS_H
#define PTXEMU_TOOLS_CORRELATE_STATS_H

#include <stdint.h>

/* Pearson's correlation coefficient of x and y; NAN when n < 2 or either
 * has no variance (r is undefined then). */
double corr_pearson(const double *x, const double *y, unsigned n);

/* Mean absolute percentage error of ptx against ref: the mean over the
 * pairs with ref != 0 of |ptx - ref| / |ref|, times 100.  *used gets the
 * pairs averaged, *ref_zero the pairs left out because ref == 0; NAN when
 * none is left. */
double corr_mape(const double *ptx, const double *ref, unsigned n, unsigned *used,
                 unsigned *ref_zero);

/* Geometric mean of ptx / ref over the pairs where both are > 0 (a ratio
 * with a zero has no logarithm); *used and *skipped count the pairs taken
 * and left out; NAN when none is taken. */
double corr_geomean_ratio(const double *ptx, const double *ref, unsigned n, unsigned *used,
                          unsigned *skipped);

/* All of the above for one metric over one set of pairs. */
typedef struct corr_summary {
    unsigned n;               /* pairs given (both values known) */
    double r;                 /* Pearson r over all n pairs */
    double mape;              /* percent, over mape_n pairs */
    unsigned mape_n, ref_zero;
    double geomean;           /* geometric mean of ptx / ref over geo_n pairs */
    unsigned geo_n, geo_skipped;
} corr_summary;

void corr_summarise(const double *ptx, const double *ref, unsigned n, corr_summary *out);

/* The order of the launches and the halves.  A key per reference row: the
 * benchmark's position in the registry, the size (tiny < small < paper)
 * and the launch index.  corr_order fills order[0..n) with the row indices
 * sorted by (bench, size, launch) — stable, so equal keys keep their row
 * order — and returns the position where the second half starts: the
 * benchmark boundary nearest ceil(n / 2) (the later one on a tie), so no
 * benchmark is in both halves; ceil(n / 2) when all rows are one
 * benchmark.  The first half is order[0..split), the second
 * order[split..n). */
typedef struct corr_key {
    uint32_t bench, size, launch;
} corr_key;

unsigned corr_order(const corr_key *keys, unsigned n, unsigned *order);

#endif
