/* tools/correlate_stats.c — Pearson r, MAPE, the geometric-mean ratio and
 * the halves split behind `ptxemu correlate` (tools/correlate_stats.h). */
#include "tools/correlate_stats.h"

#include <stdint.h>

#include <math.h>

double corr_pearson(const double *x, const double *y, unsigned n)
{
    if (n < 2)
        return NAN;
    /* two passes (means first): the cycle counts reach 1e9, and the one-pass
     * sum-of-squares form loses the digits that carry the variance */
    double mx = 0, my = 0;
    for (unsigned i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (unsigned i = 0; i < n; i++) {
        double dx = x[i] - mx, dy = y[i] - my;
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if (sxx <= 0 || syy <= 0)
        return NAN;
    double r = sxy / sqrt(sxx * syy);
    /* rounding may carry a perfect fit just past 1 */
    return r > 1 ? 1 : r < -1 ? -1 : r;
}

double corr_mape(const double *ptx, const double *ref, unsigned n, unsigned *used,
                 unsigned *ref_zero)
{
    double sum = 0;
    unsigned u = 0, z = 0;
    for (unsigned i = 0; i < n; i++) {
        if (ref[i] == 0) {
            z++;
            continue;
        }
        sum += fabs(ptx[i] - ref[i]) / fabs(ref[i]);
        u++;
    }
    *used = u;
    *ref_zero = z;
    return u ? 100.0 * sum / u : NAN;
}

double corr_geomean_ratio(const double *ptx, const double *ref, unsigned n, unsigned *used,
                          unsigned *skipped)
{
    double logs = 0;
    unsigned u = 0, s = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!(ptx[i] > 0 && ref[i] > 0)) {
            s++;
            continue;
        }
        logs += log(ptx[i] / ref[i]);
        u++;
    }
    *used = u;
    *skipped = s;
    return u ? exp(logs / u) : NAN;
}

void corr_summarise(const double *ptx, const double *ref, unsigned n, corr_summary *out)
{
    out->n = n;
    out->r = corr_pearson(ptx, ref, n);
    out->mape = corr_mape(ptx, ref, n, &out->mape_n, &out->ref_zero);
    out->geomean = corr_geomean_ratio(ptx, ref, n, &out->geo_n, &out->geo_skipped);
}

static int key_cmp(const corr_key *x, const corr_key *y)
{
    if (x->bench != y->bench)
        return x->bench < y->bench ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    if (x->launch != y->launch)
        return x->launch < y->launch ? -1 : 1;
    return 0;
}

unsigned corr_order(const corr_key *keys, unsigned n, unsigned *order)
{
    /* insertion sort: stable, and a reference has hundreds of rows at most */
    for (unsigned i = 0; i < n; i++) {
        unsigned j = i;
        for (; j > 0 && key_cmp(&keys[order[j - 1]], &keys[i]) > 0; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    /* The halves are split between benchmarks, so that no program is in
     * both the calibration and the test half: the benchmark boundary
     * nearest the middle row ceil(n/2) (the later one on a tie); with a
     * single benchmark there is no boundary and the middle row is used. */
    unsigned mid = (n + 1) / 2, best = mid, best_d = UINT32_MAX;
    for (unsigned b = 1; b < n; b++) {
        if (keys[order[b - 1]].bench == keys[order[b]].bench)
            continue;
        unsigned d = b > mid ? b - mid : mid - b;
        if (d < best_d || (d == best_d && b > best))
            best = b, best_d = d;
    }
    return best;
}
