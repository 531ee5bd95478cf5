/* tests/bench/test_cdp_refs.c — the dynamic-parallelism benchmarks' inputs
 * and CPU references (benchmarks/cdp_inputs.c, cdp_ref.c), checked without
 * the emulator: generator invariants and shapes (the seed's citation-like,
 * graph500 and cage-like graphs; uniform and Gaussian join keys), and each
 * reference against a second, independent algorithm:
 *   BFS levels      - unit-weight Bellman-Ford to a fixed point
 *   SSSP (Dijkstra) - Bellman-Ford to a fixed point
 *   JP colouring    - colour(v) = 1 + max colour of higher-priority
 *                     neighbours, by dynamic programming in priority order
 *   join            - nested loops
 *   AMR             - per unit point, the leaf that covers it
 *   BHT             - breadth-first build from key prefixes
 *   regx            - hand-counted strings; the kernels' anchored DFA walked
 *                     from every position
 *   pre             - a hand-computed user; scores summed item by item */
#include "benchmarks/cdp_ref.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cdp_graph_kind kinds[] = {CDP_GRAPH_CITATION, CDP_GRAPH_GRAPH500, CDP_GRAPH_CAGE};

static void make(cdp_graph *g, cdp_graph_kind k, uint64_t seed)
{
    char err[256];
    assert_true(cdp_graph_make(g, k, BENCH_TINY, seed, err));
}

static bool has_edge(const cdp_graph *g, int v, int u)
{
    int lo = g->row[v], hi = g->row[v + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (g->col[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->row[v + 1] && g->col[lo] == u;
}

static void test_graph_invariants(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        cdp_graph g, h;
        make(&g, kinds[i], 1);
        assert_int_equal(g.row[0], 0);
        assert_int_equal(g.row[g.n], g.m);
        for (int v = 0; v < g.n; v++) {
            assert_true(g.row[v] <= g.row[v + 1]);
            for (int e = g.row[v]; e < g.row[v + 1]; e++) {
                assert_true(g.col[e] >= 0 && g.col[e] < g.n);
                assert_int_not_equal(g.col[e], v);
                if (e > g.row[v])
                    assert_true(g.col[e - 1] < g.col[e]);
                assert_true(has_edge(&g, g.col[e], v)); /* undirected */
                assert_true(g.w[e] >= 1 && g.w[e] <= 100);
            }
        }
        /* same seed, same graph; another seed, another graph */
        make(&h, kinds[i], 1);
        assert_int_equal(g.m, h.m);
        assert_memory_equal(g.col, h.col, (size_t)g.m * sizeof(int));
        assert_memory_equal(g.w, h.w, (size_t)g.m * sizeof(int));
        cdp_graph_free(&h);
        make(&h, kinds[i], 2);
        assert_true(g.m != h.m || memcmp(g.col, h.col, (size_t)g.m * sizeof(int)) != 0);
        cdp_graph_free(&h);
        cdp_graph_free(&g);
    }
}

/* Degree shapes: citation and graph500 are power-law (hubs far above the
 * mean), cage-like is regular; citation and cage keep most edges near the
 * diagonal, graph500 spreads them over the id space. */
static void test_graph_shapes(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        cdp_graph g;
        make(&g, kinds[i], 1);
        double avg = (double)g.m / g.n;
        int maxd = cdp_graph_max_degree(&g), mind = g.m;
        long near = 0;
        for (int v = 0; v < g.n; v++) {
            int d = g.row[v + 1] - g.row[v];
            mind = d < mind ? d : mind;
            for (int e = g.row[v]; e < g.row[v + 1]; e++)
                near += abs(g.col[e] - v) <= 64;
        }
        double near_frac = (double)near / g.m;
        double uniform = 129.0 / g.n; /* |u-v| <= 64 for uniformly random ends */
        printf("%-8s n %d, m %d, degree avg %.1f min %d max %d, |u-v| <= 64: %.0f%%\n",
               cdp_graph_name(kinds[i]), g.n, g.m, avg, mind, maxd, 100 * near_frac);
        if (kinds[i] == CDP_GRAPH_CAGE) {
            assert_true(avg >= 14 && avg <= 20);
            assert_true(maxd <= 2 * avg);
            assert_true(near_frac > 4 * uniform);
        } else {
            assert_true(maxd >= 8 * avg);
            if (kinds[i] == CDP_GRAPH_CITATION)
                assert_true(near_frac > 4 * uniform);
            else
                assert_true(near_frac < 1.5 * uniform);
        }
        cdp_graph_free(&g);
    }
}

/* Bellman-Ford with weights w (NULL: unit) from src to a fixed point. */
static void bellman_ford(const cdp_graph *g, int src, const int *w, int *d)
{
    for (int v = 0; v < g->n; v++)
        d[v] = INT32_MAX;
    d[src] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int v = 0; v < g->n; v++) {
            if (d[v] == INT32_MAX)
                continue;
            for (int e = g->row[v]; e < g->row[v + 1]; e++) {
                int nd = d[v] + (w ? w[e] : 1);
                if (nd < d[g->col[e]])
                    d[g->col[e]] = nd, changed = true;
            }
        }
    }
}

static void test_bfs_sssp(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        cdp_graph g;
        make(&g, kinds[i], 1);
        int *a = malloc((size_t)g.n * sizeof(int)), *b = malloc((size_t)g.n * sizeof(int));
        int reached = 0, deepest = 0;
        assert_true(cdp_ref_bfs(&g, 0, a));
        bellman_ford(&g, 0, NULL, b);
        for (int v = 0; v < g.n; v++) {
            assert_int_equal(a[v], b[v] == INT32_MAX ? -1 : b[v]);
            reached += a[v] >= 0;
            deepest = a[v] > deepest ? a[v] : deepest;
        }
        assert_true(cdp_ref_sssp(&g, 0, a));
        bellman_ford(&g, 0, g.w, b);
        for (int v = 0; v < g.n; v++)
            assert_int_equal(a[v], b[v]);
        printf("%-8s from 0: %d reached, %d levels\n", cdp_graph_name(kinds[i]), reached,
               deepest + 1);
        free(a);
        free(b);
        cdp_graph_free(&g);
    }
}

static int u64_desc(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

static void test_clr(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        cdp_graph g;
        make(&g, kinds[i], 1);
        uint32_t *prio = malloc((size_t)g.n * sizeof *prio);
        int *col = malloc((size_t)g.n * sizeof(int)), *dp = malloc((size_t)g.n * sizeof(int));
        uint64_t *order = malloc((size_t)g.n * sizeof *order);
        uint64_t rng = 99;
        for (int v = 0; v < g.n; v++)
            prio[v] = (uint32_t)(bench_rng_next(&rng) % 1000u); /* with ties */
        int rounds = cdp_ref_clr(&g, prio, col);
        for (int v = 0; v < g.n; v++) /* beats() order: priority, then id */
            order[v] = (uint64_t)prio[v] << 32 | (uint32_t)v;
        qsort(order, (size_t)g.n, sizeof *order, u64_desc);
        int maxc = -1;
        for (int k = 0; k < g.n; k++) {
            int v = (int)(uint32_t)order[k], c = 0;
            for (int e = g.row[v]; e < g.row[v + 1]; e++)
                if (cdp_clr_beats(prio, g.col[e], v) && dp[g.col[e]] + 1 > c)
                    c = dp[g.col[e]] + 1;
            dp[v] = c;
            maxc = c > maxc ? c : maxc;
        }
        for (int v = 0; v < g.n; v++) {
            assert_int_equal(col[v], dp[v]);
            for (int e = g.row[v]; e < g.row[v + 1]; e++)
                assert_int_not_equal(col[v], col[g.col[e]]); /* a proper colouring */
        }
        assert_int_equal(rounds, maxc + 1);
        printf("%-8s JP colouring: %d rounds\n", cdp_graph_name(kinds[i]), rounds);
        free(prio), free(col), free(dp), free(order);
        cdp_graph_free(&g);
    }
}

static void test_join(void **state)
{
    (void)state;
    const int n = 2048, range = n / 16;
    for (int gauss = 0; gauss < 2; gauss++) {
        int *r = malloc(n * sizeof(int)), *s = malloc(n * sizeof(int));
        int *first = malloc(n * sizeof(int)), *count = malloc(n * sizeof(int));
        uint64_t rng = 5;
        cdp_join_keys(r, n, range, gauss, &rng);
        cdp_join_keys(s, n, range, gauss, &rng);
        for (int i = 0; i < n; i++) /* sort R: insertion sort keeps it simple */
            for (int j = i; j > 0 && r[j - 1] > r[j]; j--) {
                int t = r[j];
                r[j] = r[j - 1], r[j - 1] = t;
            }
        assert_true(cdp_ref_join(r, n, s, n, range, first, count));
        int maxc = 0;
        long total = 0;
        for (int k = 0; k < n; k++) {
            int c = 0, f = n;
            for (int j = 0; j < n; j++)
                if (r[j] == s[k]) {
                    f = c == 0 ? j : f;
                    c++;
                }
            assert_int_equal(count[k], c);
            assert_int_equal(first[k], f);
            for (int j = f; j < f + c; j++)
                assert_int_equal(r[j], s[k]); /* matches are contiguous */
            maxc = c > maxc ? c : maxc;
            total += c;
        }
        for (int i = 0; i < n; i++)
            assert_true(r[i] >= 0 && r[i] < range);
        double mean = (double)total / n;
        printf("join %-8s: %ld pairs, %.1f per probe, max %d\n", gauss ? "gaussian" : "uniform",
               total, mean, maxc);
        if (gauss)
            assert_true(maxc >= 3 * 16); /* skewed: the centre keys match far more */
        else
            assert_true(mean > 12 && mean < 20 && maxc < 3 * 16);
        free(r), free(s), free(first), free(count);
    }
}

static void test_amr(void **state)
{
    (void)state;
    const int g = 8, w = CDP_AMR_COARSE * g + 1;
    uint32_t *f = malloc((size_t)w * w * sizeof *f);
    for (int y = 0; y < w; y++) /* one flame at (100, 130), R = 20 */
        for (int x = 0; x < w; x++) {
            int64_t d2 = (int64_t)(x - 100) * (x - 100) + (int64_t)(y - 130) * (y - 130);
            f[(size_t)y * w + x] = (uint32_t)(300 + 1500 * 400 / (400 + d2));
        }
    const uint32_t thr0 = 96, thr1 = 24;
    uint64_t sum[64];
    uint32_t leaves[64];
    cdp_ref_amr(f, g, thr0, thr1, sum, leaves);
    int refined = 0, twice = 0;
    for (int c = 0; c < g * g; c++) {
        int x0 = (c % g) * CDP_AMR_COARSE, y0 = (c / g) * CDP_AMR_COARSE;
        bool r0 = cdp_amr_spread(f, w, x0, y0, CDP_AMR_COARSE) > thr0;
        uint64_t s = 0;
        uint32_t l = 0;
        for (int y = y0; y < y0 + CDP_AMR_COARSE; y++)
            for (int x = x0; x < x0 + CDP_AMR_COARSE; x++) {
                int lx = x0, ly = y0; /* the corner of the leaf covering (x, y) */
                if (r0) {
                    lx = x / CDP_AMR_MID * CDP_AMR_MID, ly = y / CDP_AMR_MID * CDP_AMR_MID;
                    if (cdp_amr_spread(f, w, lx, ly, CDP_AMR_MID) > thr1)
                        lx = x, ly = y, twice++;
                }
                s += f[(size_t)ly * w + lx];
                l += lx == x && ly == y;
            }
        refined += r0;
        assert_true(s == sum[c]);
        assert_int_equal(l, leaves[c]);
    }
    printf("amr: %d of %d coarse cells refined, %d unit leaves\n", refined, g * g, twice);
    assert_true(refined > 0 && refined < g * g && twice > 0);
    free(f);
}

static void test_bht(void **state)
{
    (void)state;
    const int n = 3000, maxdepth = 12, leafcap = 16;
    uint32_t *code = malloc(n * 4), *px = malloc(n * 4), *py = malloc(n * 4);
    uint64_t rng = 11;
    for (int i = 0; i < n; i++)
        code[i] = (uint32_t)bench_rng_next(&rng) & 0x3fffffffu; /* keep the top quadrant empty */
    for (int i = 0; i < n; i++)
        for (int j = i; j > 0 && code[j - 1] > code[j]; j--) {
            uint32_t t = code[j];
            code[j] = code[j - 1], code[j - 1] = t;
        }
    for (int i = 0; i < n; i++) { /* x, y back from the code (de-interleave) */
        px[i] = py[i] = 0;
        for (int b = 0; b < 16; b++) {
            px[i] |= ((code[i] >> (2 * b)) & 1u) << b;
            py[i] |= ((code[i] >> (2 * b + 1)) & 1u) << b;
        }
        assert_int_equal(cdp_morton(px[i], py[i]), code[i]);
    }
    size_t slots = (size_t)maxdepth * n;
    int *cnt = malloc(slots * sizeof(int)), *want = calloc(slots, sizeof(int));
    uint64_t *sx = malloc(slots * 8), *sy = malloc(slots * 8);
    cdp_ref_bht(code, px, py, n, maxdepth, leafcap, cnt, sx, sy);
    /* breadth first: at depth d, a run of equal 2d-bit prefixes is a node
     * when the run of its parent prefix split */
    want[0] = n;
    int nodes = 1;
    for (int d = 1; d < maxdepth; d++) {
        for (int i = 0; i < n;) {
            uint32_t pre = code[i] >> (32 - 2 * d);
            int j = i;
            while (j < n && code[j] >> (32 - 2 * d) == pre)
                j++;
            int p = i; /* the parent's run starts at or before i */
            if (d == 1)
                p = 0;
            else
                while (p > 0 && code[p - 1] >> (34 - 2 * d) == code[i] >> (34 - 2 * d))
                    p--;
            if (want[(size_t)(d - 1) * n + p] > leafcap)
                want[(size_t)d * n + i] = j - i, nodes++;
            i = j;
        }
    }
    for (size_t s = 0; s < slots; s++) {
        assert_int_equal(cnt[s], want[s]);
        uint64_t ax = 0, ay = 0;
        for (int i = (int)(s % n); i < (int)(s % n) + want[s]; i++)
            ax += px[i], ay += py[i];
        assert_true(sx[s] == ax && sy[s] == ay);
    }
    printf("bht: %d nodes for %d points\n", nodes, n);
    assert_true(nodes > n / leafcap);
    free(code), free(px), free(py), free(cnt), free(want), free(sx), free(sy);
}

static int dfa_count(const cdp_regx_dfa *d, const unsigned char *s, int len)
{
    int n = 0;
    for (int p = 0; p < len; p++) {
        int st = 0;
        for (int i = p; i < len && (st = d->next[st * 256 + s[i]]) >= 0; i++)
            n += d->out[st];
    }
    return n;
}

static void test_regx(void **state)
{
    (void)state;
    /* by hand: "GET /" at 2, "/etc/passwd" at 6, "../" at 18 */
    const char *a = "xxGET /etc/passwd ../";
    assert_int_equal(cdp_ref_regx((const unsigned char *)a, (int)strlen(a)), 3);
    /* "%2e%2e/" at 0, "../" nowhere ("e/." is not it), "USER root" at 8 */
    const char *b = "%2e%2e/ USER root";
    assert_int_equal(cdp_ref_regx((const unsigned char *)b, (int)strlen(b)), 2);
    /* a signature cut by the string's end does not count */
    assert_int_equal(cdp_ref_regx((const unsigned char *)"GET ", 4), 0);
    cdp_regx_dfa d;
    assert_true(cdp_regx_dfa_make(&d));
    assert_int_equal(dfa_count(&d, (const unsigned char *)a, (int)strlen(a)), 3);
    for (int k = 0; k < 2; k++) {
        cdp_strings c;
        char err[256];
        assert_true(cdp_strings_make(&c, (cdp_regx_kind)k, BENCH_TINY, 1, err));
        long total = 0;
        int shortn = 0, maxlen = 0;
        for (int i = 0; i < c.n; i++) {
            const unsigned char *s = c.text + c.off[i];
            int len = c.off[i + 1] - c.off[i], want = cdp_ref_regx(s, len);
            assert_int_equal(dfa_count(&d, s, len), want);
            total += want;
            shortn += len <= 64;
            maxlen = len > maxlen ? len : maxlen;
            if (k == CDP_REGX_STRING) {
                assert_true(len >= 16 && len <= 512);
                for (int j = 0; j < len; j++)
                    assert_true(s[j] >= 32 && s[j] < 127);
            }
        }
        printf("regx %-6s: %d strings, %d bytes, %ld matches, %d of <= 64 B, longest %d\n",
               cdp_regx_name((cdp_regx_kind)k), c.n, c.off[c.n], total, shortn, maxlen);
        if (k == CDP_REGX_DARPA)
            assert_true(total > c.n / 8 && shortn > c.n * 2 / 5 && maxlen <= 1460);
        cdp_strings_free(&c);
    }
    cdp_regx_dfa_free(&d);
}

static void test_pre(void **state)
{
    (void)state;
    /* by hand: one user rated item 0 (5 stars) and 1 (1 star): mean10 = 30,
     * deviations +20 and -20; item 2 = 500 x 20 + 300 x (-20) = 4000 */
    int urow[2] = {0, 2}, uitem[2] = {0, 1}, urate[2] = {5, 1};
    int nbr[3 * CDP_PRE_K] = {0}, nsim[3 * CDP_PRE_K] = {0};
    nbr[0] = 2, nsim[0] = 500, nbr[1] = 1, nsim[1] = 100;
    nbr[CDP_PRE_K] = 2, nsim[CDP_PRE_K] = 300, nbr[CDP_PRE_K + 1] = 0, nsim[CDP_PRE_K + 1] = 200;
    cdp_ratings h = {1, 3, 2, urow, uitem, urate, nbr, nsim};
    long long sc[3], bs = 0;
    assert_int_equal(cdp_ref_pre_user(&h, 0, sc, &bs), 2);
    assert_true(bs == 4000);

    cdp_ratings r;
    char err[256];
    assert_true(cdp_ratings_make(&r, BENCH_SMALL, 1, err)); /* MovieLens 100K's shape */
    assert_int_equal(r.users, 943);
    assert_int_equal(r.items, 1682);
    assert_int_equal(r.nratings, 100000);
    int most = 0;
    for (int u = 0; u < r.users; u++) {
        int n = r.urow[u + 1] - r.urow[u];
        assert_true(n >= 20);
        most = n > most ? n : most;
        for (int k = r.urow[u]; k < r.urow[u + 1]; k++) {
            assert_true(r.urate[k] >= 1 && r.urate[k] <= 5);
            assert_true(k == r.urow[u] || r.uitem[k - 1] < r.uitem[k]);
        }
    }
    for (int i = 0; i < r.items; i++)
        for (int q = 0; q < CDP_PRE_K; q++) {
            assert_true(r.nbr[i * CDP_PRE_K + q] != i);
            assert_true(q == 0 || r.nsim[i * CDP_PRE_K + q - 1] >= r.nsim[i * CDP_PRE_K + q]);
        }
    long long *score = malloc((size_t)r.items * sizeof *score);
    for (int u = 0; u < r.users; u += 97) { /* every 97th user, item by item */
        long long best = 0;
        int want = cdp_ref_pre_user(&r, u, score, &best), b = r.urow[u], e = r.urow[u + 1];
        int sum = 0, got = -1;
        long long gs = 0;
        for (int k = b; k < e; k++)
            sum += r.urate[k];
        for (int i = 0; i < r.items; i++) {
            long long s = 0;
            bool rated = false;
            for (int k = b; k < e; k++) {
                rated |= r.uitem[k] == i;
                for (int q = 0; q < CDP_PRE_K; q++)
                    if (r.nbr[r.uitem[k] * CDP_PRE_K + q] == i)
                        s += (long long)r.nsim[r.uitem[k] * CDP_PRE_K + q] *
                             (10 * r.urate[k] - 10 * sum / (e - b));
            }
            if (!rated && (got < 0 || s > gs))
                got = i, gs = s;
        }
        assert_int_equal(want, got);
        assert_true(best == gs);
    }
    printf("pre: %d users, %d items, %d ratings, most by one user %d\n", r.users, r.items,
           r.nratings, most);
    free(score);
    cdp_ratings_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph_invariants), cmocka_unit_test(test_graph_shapes),
        cmocka_unit_test(test_bfs_sssp),         cmocka_unit_test(test_clr),
        cmocka_unit_test(test_join),             cmocka_unit_test(test_amr),
        cmocka_unit_test(test_bht),
        cmocka_unit_test(test_regx),             cmocka_unit_test(test_pre),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
