/* timing/noc.c — the crossbar (see noc.h). */
#include "timing/noc.h"

#include <glib.h>
#include <string.h>

void noc_init(noc_xbar *x, uint32_t nin, uint32_t nout, uint32_t depth,
              uint32_t latency)
{
    memset(x, 0, sizeof *x);
    x->nin = nin;
    x->nout = nout;
    x->depth = depth;
    x->latency = latency;
    x->in = g_new(pkt_fifo, nin);
    x->out = g_new(pkt_fifo, nout);
    x->in_free = g_new0(uint64_t, nin);
    x->in_live = g_new0(uint64_t, nin / 64 + 1);
    x->out_free = g_new0(uint64_t, nout);
    for (uint32_t i = 0; i < nin; i++)
        fifo_init(&x->in[i]);
    for (uint32_t o = 0; o < nout; o++)
        fifo_init(&x->out[o]);
}

void noc_free(noc_xbar *x)
{
    g_free(x->in);
    g_free(x->out);
    g_free(x->in_free);
    g_free(x->in_live);
    g_free(x->out_free);
    memset(x, 0, sizeof *x);
}

/* The first input at or after i (below n) with packets, else n. */
static inline uint32_t live_next(const uint64_t *b, uint32_t i, uint32_t n)
{
    while (i < n) {
        uint64_t w = b[i / 64] >> (i % 64);
        if (w) {
            i += (uint32_t)__builtin_ctzll(w);
            return i < n ? i : n;
        }
        i = (i / 64 + 1) * 64;
    }
    return n;
}

/* Input i's head packet, if it can go at `tick`. */
static inline void grant(noc_xbar *x, noc_pkt *pool, uint32_t i, uint64_t tick,
                         noc_arrive_fn arrive, void *ctx)
{
    pkt_fifo *q = &x->in[i];
    if (q->n == 0 || x->in_free[i] > tick)
        return;
    noc_pkt *p = &pool[q->head];
    if (p->ready > tick)
        return;
    uint32_t o = p->dst;
    if (x->out_free[o] > tick || !fifo_fits(&x->out[o], p->flits, x->depth))
        return;
    uint32_t id = fifo_pop(pool, q);
    if (q->n == 0)
        x->in_live[i / 64] &= ~(1ull << (i % 64));
    x->queued--;
    x->in_free[i] = x->out_free[o] = tick + p->flits;
    uint64_t at = tick + x->latency + p->flits - 1;
    p->ready = at;
    fifo_push(pool, &x->out[o], id);
    x->flits_sent += p->flits;
    x->packets_sent++;
    arrive(ctx, o, id, at);
}

void noc_step(noc_xbar *x, noc_pkt *pool, uint64_t tick, noc_arrive_fn arrive,
              void *ctx)
{
    if (x->queued == 0)
        return;
    uint32_t start = x->rr;
    x->rr = x->rr + 1 == x->nin ? 0 : x->rr + 1;
    /* inputs start, start + 1, ..., then 0 ... start - 1; only those with
     * packets (a grant's arrive callback never injects into this crossbar) */
    for (uint32_t i = live_next(x->in_live, start, x->nin); i < x->nin;
         i = live_next(x->in_live, i + 1, x->nin))
        grant(x, pool, i, tick, arrive, ctx);
    for (uint32_t i = live_next(x->in_live, 0, start); i < start;
         i = live_next(x->in_live, i + 1, start))
        grant(x, pool, i, tick, arrive, ctx);
}
