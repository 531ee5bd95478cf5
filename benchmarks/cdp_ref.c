/* benchmarks/cdp_ref.c — sequential CPU references of the CDP benchmarks
 * (see cdp_ref.h). */
#include "benchmarks/cdp_ref.h"

#include <stdlib.h>
#include <string.h>

bool cdp_ref_bfs(const cdp_graph *g, int src, int *level)
{
    int *queue = malloc((size_t)g->n * sizeof(int));
    if (!queue)
        return false;
    for (int v = 0; v < g->n; v++)
        level[v] = -1;
    int head = 0, tail = 0;
    level[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->row[v]; e < g->row[v + 1]; e++) {
            int u = g->col[e];
            if (level[u] < 0) {
                level[u] = level[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    free(queue);
    return true;
}

/* Binary min-heap of (distance, vertex) with lazy deletion. */
typedef struct heap_item {
    int d, v;
} heap_item;

static void heap_push(heap_item *h, int *len, heap_item it)
{
    int i = (*len)++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h[p].d <= it.d)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = it;
}

static heap_item heap_pop(heap_item *h, int *len)
{
    heap_item top = h[0], last = h[--(*len)];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && h[c + 1].d < h[c].d)
            c++;
        if (last.d <= h[c].d)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*len > 0)
        h[i] = last;
    return top;
}

bool cdp_ref_sssp(const cdp_graph *g, int src, int *dist)
{
    heap_item *h = malloc(((size_t)g->m + 1) * sizeof *h);
    if (!h)
        return false;
    for (int v = 0; v < g->n; v++)
        dist[v] = INT32_MAX;
    int len = 0;
    dist[src] = 0;
    heap_push(h, &len, (heap_item){0, src});
    while (len > 0) {
        heap_item it = heap_pop(h, &len);
        if (it.d != dist[it.v])
            continue; /* stale entry */
        for (int e = g->row[it.v]; e < g->row[it.v + 1]; e++) {
            int u = g->col[e], nd = it.d + g->w[e];
            if (nd < dist[u]) {
                dist[u] = nd;
                heap_push(h, &len, (heap_item){nd, u});
            }
        }
    }
    free(h);
    return true;
}

bool cdp_clr_beats(const uint32_t *prio, int u, int v)
{
    return prio[u] > prio[v] || (prio[u] == prio[v] && u > v);
}

int cdp_ref_clr(const cdp_graph *g, const uint32_t *prio, int *colour)
{
    for (int v = 0; v < g->n; v++)
        colour[v] = -1;
    int left = g->n, round = 0;
    while (left > 0) {
        /* decide from the colours before this round: winners take `round` */
        for (int v = 0; v < g->n; v++) {
            if (colour[v] != -1)
                continue;
            bool wins = true;
            for (int e = g->row[v]; e < g->row[v + 1] && wins; e++) {
                int u = g->col[e];
                if ((colour[u] == -1 || colour[u] == round) && cdp_clr_beats(prio, u, v))
                    wins = false;
            }
            if (wins)
                colour[v] = round, left--;
        }
        round++;
    }
    return round;
}

bool cdp_ref_join(const int *rkey, int nr, const int *skey, int ns, int range, int *first,
                  int *count)
{
    /* counting sort's histogram of R: key k occupies [start[k], start[k+1]) */
    int *start = calloc((size_t)range + 1, sizeof(int));
    if (!start)
        return false;
    for (int i = 0; i < nr; i++)
        start[rkey[i] + 1]++;
    for (int k = 0; k < range; k++)
        start[k + 1] += start[k];
    for (int s = 0; s < ns; s++) {
        int k = skey[s];
        count[s] = start[k + 1] - start[k];
        first[s] = count[s] ? start[k] : nr;
    }
    free(start);
    return true;
}

uint32_t cdp_amr_spread(const uint32_t *field, int w, int x, int y, int s)
{
    uint32_t a = field[(size_t)y * w + x], b = field[(size_t)y * w + x + s];
    uint32_t c = field[(size_t)(y + s) * w + x], d = field[(size_t)(y + s) * w + x + s];
    uint32_t lo = a, hi = a;
    lo = b < lo ? b : lo, hi = b > hi ? b : hi;
    lo = c < lo ? c : lo, hi = c > hi ? c : hi;
    lo = d < lo ? d : lo, hi = d > hi ? d : hi;
    return hi - lo;
}

/* Adds the leaves of the cell at (x, y) of side s to *sum, *leaves. */
static void amr_cell(const uint32_t *field, int w, int x, int y, int s, uint32_t thr0,
                     uint32_t thr1, uint64_t *sum, uint32_t *leaves)
{
    uint32_t thr = s == CDP_AMR_COARSE ? thr0 : thr1;
    if (s > 1 && cdp_amr_spread(field, w, x, y, s) > thr) {
        int sub = s == CDP_AMR_COARSE ? CDP_AMR_MID : 1;
        for (int j = 0; j < s; j += sub)
            for (int i = 0; i < s; i += sub)
                amr_cell(field, w, x + i, y + j, sub, thr0, thr1, sum, leaves);
        return;
    }
    *sum += (uint64_t)field[(size_t)y * w + x] * (uint64_t)(s * s);
    *leaves += 1;
}

void cdp_ref_amr(const uint32_t *field, int g, uint32_t thr0, uint32_t thr1, uint64_t *sum,
                 uint32_t *leaves)
{
    int w = CDP_AMR_COARSE * g + 1;
    for (int c = 0; c < g * g; c++) {
        sum[c] = 0;
        leaves[c] = 0;
        amr_cell(field, w, (c % g) * CDP_AMR_COARSE, (c / g) * CDP_AMR_COARSE,
                 CDP_AMR_COARSE, thr0, thr1, &sum[c], &leaves[c]);
    }
}

uint32_t cdp_morton(uint32_t x, uint32_t y)
{
    uint32_t c = 0;
    for (int b = 0; b < 16; b++)
        c |= ((x >> b) & 1u) << (2 * b) | ((y >> b) & 1u) << (2 * b + 1);
    return c;
}

static void bht_node(const uint32_t *code, const uint32_t *px, const uint32_t *py, int n,
                     int maxdepth, int leafcap, int depth, int lo, int hi, int *ncnt,
                     uint64_t *nsx, uint64_t *nsy)
{
    size_t slot = (size_t)depth * n + lo;
    uint64_t sx = 0, sy = 0;
    for (int i = lo; i < hi; i++)
        sx += px[i], sy += py[i];
    ncnt[slot] = hi - lo;
    nsx[slot] = sx;
    nsy[slot] = sy;
    if (hi - lo <= leafcap || depth + 1 >= maxdepth)
        return;
    int shift = 30 - 2 * depth;
    for (int i = lo; i < hi;) {
        uint32_t q = (code[i] >> shift) & 3u;
        int j = i;
        while (j < hi && ((code[j] >> shift) & 3u) == q)
            j++;
        bht_node(code, px, py, n, maxdepth, leafcap, depth + 1, i, j, ncnt, nsx, nsy);
        i = j;
    }
}

void cdp_ref_bht(const uint32_t *code, const uint32_t *px, const uint32_t *py, int n,
                 int maxdepth, int leafcap, int *ncnt, uint64_t *nsx, uint64_t *nsy)
{
    size_t slots = (size_t)maxdepth * n;
    memset(ncnt, 0, slots * sizeof *ncnt);
    memset(nsx, 0, slots * sizeof *nsx);
    memset(nsy, 0, slots * sizeof *nsy);
    bht_node(code, px, py, n, maxdepth, leafcap, 0, 0, n, ncnt, nsx, nsy);
}

int cdp_ref_regx(const unsigned char *s, int len)
{
    int n = 0, ns = cdp_regx_nsignatures();
    for (int p = 0; p < len; p++)
        for (int k = 0; k < ns; k++) {
            const char *sig = cdp_regx_signature(k);
            int l = (int)strlen(sig);
            if (p + l <= len && !memcmp(s + p, sig, (size_t)l))
                n++;
        }
    return n;
}

int cdp_ref_pre_user(const cdp_ratings *r, int u, long long *score, long long *best_score)
{
    int b = r->urow[u], e = r->urow[u + 1], sum = 0, best = -1;
    for (int k = b; k < e; k++)
        sum += r->urate[k];
    int mean10 = 10 * sum / (e - b);
    memset(score, 0, (size_t)r->items * sizeof *score);
    for (int k = b; k < e; k++) {
        int j = r->uitem[k], dev = 10 * r->urate[k] - mean10;
        for (int q = 0; q < CDP_PRE_K; q++)
            score[r->nbr[j * CDP_PRE_K + q]] += (long long)r->nsim[j * CDP_PRE_K + q] * dev;
    }
    int k = b;
    for (int i = 0; i < r->items; i++) {
        while (k < e && r->uitem[k] < i)
            k++;
        if (k < e && r->uitem[k] == i)
            continue; /* rated */
        if (best < 0 || score[i] > *best_score)
            best = i, *best_score = score[i];
    }
    return best;
}
