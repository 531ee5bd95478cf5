/* benchmarks/cdp_pre_inputs.c — inputs of cdp-pre (see cdp_inputs.h): a
 * user x item rating set shaped like MovieLens 100K, the LaPerm seed's PRE
 * input (GroupLens' published figures: 943 users, 1,682 movies, 100,000
 * ratings of 1-5 stars, every user with at least 20), and the item-based
 * collaborative-filtering model of the seed's [34]: per item its K most
 * similar items by cosine similarity of their rating columns.  The MovieLens
 * files are not available here; popularity follows a Zipf law over item ids
 * (so related, popular items sit close together in memory) and user activity
 * a heavy tail, both with the data set's totals. */
#include "benchmarks/cdp_inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cdp_pre_shape(bench_size size, int *users, int *items, int *ratings)
{
    if (size == BENCH_TINY) {
        *users = 240, *items = 420, *ratings = 25000;
    } else { /* small and paper: MovieLens 100K itself */
        *users = 943, *items = 1682, *ratings = 100000;
    }
}

/* Star distribution of MovieLens 100K (1-5 stars: 6%, 11%, 27%, 34%, 21%). */
static int stars(uint64_t *rng)
{
    uint32_t r = (uint32_t)(bench_rng_next(rng) % 100u);
    return r < 6 ? 1 : r < 17 ? 2 : r < 44 ? 3 : r < 78 ? 4 : 5;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Each user: at least 20 ratings plus a Pareto-tailed share of the rest
 * (capped at 44% of the items: MovieLens' most active user rated 737 of
 * 1,682), items drawn by Zipf popularity without repeats. */
static bool make_ratings(cdp_ratings *r, uint64_t *rng)
{
    int nu = r->users, ni = r->items, total = r->nratings, cap = ni * 44 / 100;
    double *x = malloc((size_t)nu * sizeof(double)), *cdf = malloc((size_t)ni * sizeof(double));
    unsigned char *seen = calloc((size_t)ni, 1);
    r->urow = malloc(((size_t)nu + 1) * sizeof(int));
    r->uitem = malloc((size_t)total * sizeof(int));
    r->urate = malloc((size_t)total * sizeof(int));
    if (!x || !cdf || !seen || !r->urow || !r->uitem || !r->urate) {
        free(x), free(cdf), free(seen);
        return false;
    }
    double sx = 0, c = 0;
    for (int u = 0; u < nu; u++) {
        double v = (double)(bench_rng_next(rng) >> 11) / 9007199254740992.0;
        x[u] = pow(1.0 - v, -1.0 / 1.2) - 1.0; /* Pareto, shape 1.2 */
        sx += x[u];
    }
    for (int i = 0; i < ni; i++)
        cdf[i] = (c += 1.0 / pow(i + 10.0, 0.9));
    int *cnt = malloc((size_t)nu * sizeof(int)), sum = 0;
    if (!cnt) {
        free(x), free(cdf), free(seen);
        return false;
    }
    for (int u = 0; u < nu; u++) {
        cnt[u] = 20 + (int)(x[u] / sx * (total - 20 * nu));
        cnt[u] = cnt[u] > cap ? cap : cnt[u];
        sum += cnt[u];
    }
    for (int u = 0; sum < total; u = (u + 1) % nu) /* rounding: one more each */
        if (cnt[u] < cap)
            cnt[u]++, sum++;
    r->urow[0] = 0;
    for (int u = 0; u < nu; u++)
        r->urow[u + 1] = r->urow[u] + cnt[u];
    free(cnt);
    r->nratings = r->urow[nu];
    for (int u = 0; u < nu; u++) {
        int *it = r->uitem + r->urow[u], n = r->urow[u + 1] - r->urow[u];
        for (int k = 0; k < n; k++) {
            int i;
            do { /* inverse-CDF draw, redrawn until unseen */
                double v = (double)(bench_rng_next(rng) >> 11) / 9007199254740992.0 * c;
                int lo = 0, hi = ni - 1;
                while (lo < hi) {
                    int mid = (lo + hi) / 2;
                    if (cdf[mid] < v)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                i = lo;
            } while (seen[i]);
            seen[i] = 1;
            it[k] = i;
        }
        qsort(it, (size_t)n, sizeof(int), cmp_int);
        for (int k = 0; k < n; k++) {
            seen[it[k]] = 0;
            r->urate[r->urow[u] + k] = stars(rng);
        }
    }
    free(x), free(cdf), free(seen);
    return true;
}

/* Per item its K neighbours: the items of highest cosine similarity of the
 * rating columns (ties to the lower id), similarity x 1000 rounded. */
static bool make_neighbours(cdp_ratings *r)
{
    int ni = r->items, K = CDP_PRE_K;
    double *dot = calloc((size_t)ni * ni, sizeof(double)), *norm = calloc((size_t)ni, sizeof(double));
    r->nbr = malloc((size_t)ni * K * sizeof(int));
    r->nsim = malloc((size_t)ni * K * sizeof(int));
    if (!dot || !norm || !r->nbr || !r->nsim) {
        free(dot), free(norm);
        return false;
    }
    for (int u = 0; u < r->users; u++)
        for (int a = r->urow[u]; a < r->urow[u + 1]; a++) {
            int i = r->uitem[a];
            norm[i] += (double)r->urate[a] * r->urate[a];
            for (int b = r->urow[u]; b < r->urow[u + 1]; b++)
                if (b != a)
                    dot[(size_t)i * ni + r->uitem[b]] += (double)r->urate[a] * r->urate[b];
        }
    for (int i = 0; i < ni; i++) {
        int *nb = r->nbr + (size_t)i * K, *ns = r->nsim + (size_t)i * K;
        for (int q = 0; q < K; q++)
            nb[q] = -1, ns[q] = -1;
        for (int j = 0; j < ni; j++) {
            if (j == i)
                continue;
            double d = norm[i] > 0 && norm[j] > 0 ? dot[(size_t)i * ni + j] / sqrt(norm[i] * norm[j]) : 0;
            int s = (int)lround(d * 1000.0);
            if (s <= ns[K - 1])
                continue; /* strictly better only: ties keep the lower id */
            int q = K - 1;
            while (q > 0 && ns[q - 1] < s) {
                nb[q] = nb[q - 1], ns[q] = ns[q - 1];
                q--;
            }
            nb[q] = j, ns[q] = s;
        }
        for (int q = 0; q < K; q++)
            if (nb[q] < 0) /* fewer than K items: pad with a zero weight */
                nb[q] = i == 0 ? 1 : 0, ns[q] = 0;
    }
    free(dot), free(norm);
    return true;
}

bool cdp_ratings_make(cdp_ratings *r, bench_size size, uint64_t seed, char *err)
{
    memset(r, 0, sizeof *r);
    cdp_pre_shape(size, &r->users, &r->items, &r->nratings);
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 0x9e;
    if (!make_ratings(r, &rng) || !make_neighbours(r)) {
        snprintf(err, 256, "host allocation failed (%d users x %d items)", r->users, r->items);
        cdp_ratings_free(r);
        return false;
    }
    return true;
}

void cdp_ratings_free(cdp_ratings *r)
{
    free(r->urow), free(r->uitem), free(r->urate), free(r->nbr), free(r->nsim);
    memset(r, 0, sizeof *r);
}
