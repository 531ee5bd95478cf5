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
    g_free(x->out_free);
    memset(x, 0, sizeof *x);
}

void noc_step(noc_xbar *x, noc_pkt *pool, uint64_t tick, noc_arrive_fn arrive,
              void *ctx)
{
    if (x->queued == 0)
        return;
    uint32_t start = x->rr;
    x->rr = x->rr + 1 == x->nin ? 0 : x->rr + 1;
    /* inputs start..nin-1 then 0..start-1: two straight runs, no wrap test */
    for (uint32_t run = 0; run < 2; run++)
    for (uint32_t i = run ? 0 : start, end = run ? start : x->nin; i < end; i++) {
        pkt_fifo *q = &x->in[i];
        if (q->n == 0 || x->in_free[i] > tick)
            continue;
        noc_pkt *p = &pool[q->head];
        if (p->ready > tick)
            continue;
        uint32_t o = p->dst;
        if (x->out_free[o] > tick || !fifo_fits(&x->out[o], p->flits, x->depth))
            continue;
        uint32_t id = fifo_pop(pool, q);
        x->queued--;
        uint64_t w = tick - p->ready;
        x->inj_wait_sum += w;
        if (w > x->inj_wait_max)
            x->inj_wait_max = w;
        x->in_free[i] = x->out_free[o] = tick + p->flits;
        uint64_t at = tick + x->latency + p->flits - 1;
        p->ready = at;
        fifo_push(pool, &x->out[o], id);
        x->flits_sent += p->flits;
        x->packets_sent++;
        arrive(ctx, o, id, at);
    }
}
