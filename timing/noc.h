/* timing/noc.h — memory packets and the crossbar that carries them.
 *
 * Packets live in one pool owned by memsys and move between intrusive
 * FIFOs (index links), so nothing is allocated while simulating.  One
 * crossbar is one direction: requests go cluster ports -> memory
 * partitions, replies partition ports -> cluster ports.
 *
 * Each input port has a buffer (filled by the producer, bounded to
 * noc.queue_depth flits) and each output port an ejection buffer of the
 * same bound that also holds packets still in flight.  Every NoC cycle an
 * input sends the head of its buffer if the head's output port is free
 * and has room; a packet of F flits holds both ports for F cycles
 * (channel width noc.channel_width bytes per cycle) and reaches the output
 * buffer noc.latency + F - 1 cycles after it was granted.  Inputs are
 * visited from a rotating start, which makes output arbitration
 * round-robin; a blocked head blocks its input (one FIFO per port). */
#ifndef PTXEMU_TIMING_NOC_H
#define PTXEMU_TIMING_NOC_H

#include <stdbool.h>
#include <stdint.h>

#define PKT_NIL UINT32_MAX

enum { PKT_READ, PKT_WRITE, PKT_ATOMIC };
enum {
    PKTF_CONST = 1u << 0,     /* constant-cache line (fills the const cache) */
    PKTF_UNCACHED = 1u << 1,  /* L1-bypassing load: no fill at the SM */
    PKTF_NOMSHR = 1u << 2,    /* load beyond the MSHRs: completes `inst` only */
    PKTF_LOCAL = 1u << 3,     /* local-space line (bypasses the ICC merge table) */
    PKTF_BYPASS = 1u << 4,    /* ordered load past L1 (memorder.c): no ICC either */
    PKTF_TEX = 1u << 5,       /* texture-cache line (fills the texture cache) */
    PKTF_ACK = 1u << 6,       /* store write the L2 acknowledges to `inst` */
};

typedef struct noc_pkt {
    uint64_t addr;      /* line address in the timing address space */
    uint64_t local;     /* its byte address within its memory partition */
    uint64_t ready;     /* tick (of the domain that consumes the FIFO it is
                           in) from which it may move on */
    uint32_t next;      /* FIFO link */
    uint32_t inst;      /* atomics, NOMSHR loads, acked writes: SM instruction record */
    uint16_t sm;
    uint16_t dst;       /* output port of the current crossbar leg */
    uint16_t bytes;     /* data: carried (writes, atomics) or asked for (reads) */
    uint16_t flits;     /* of the current leg */
    uint16_t part;      /* memory partition of addr */
    uint16_t slice;     /* L2 slice within the partition */
    uint8_t kind;       /* PKT_* */
    uint8_t flags;      /* PKTF_* */
} noc_pkt;

typedef struct pkt_fifo {
    uint32_t head, tail;
    uint32_t n;         /* packets */
    uint32_t flits;     /* flits they occupy (bounded buffers) */
} pkt_fifo;

static inline void fifo_init(pkt_fifo *q)
{
    q->head = q->tail = PKT_NIL;
    q->n = q->flits = 0;
}

static inline void fifo_push(noc_pkt *pool, pkt_fifo *q, uint32_t i)
{
    pool[i].next = PKT_NIL;
    if (q->tail == PKT_NIL)
        q->head = i;
    else
        pool[q->tail].next = i;
    q->tail = i;
    q->n++;
    q->flits += pool[i].flits;
}

static inline uint32_t fifo_pop(noc_pkt *pool, pkt_fifo *q)
{
    uint32_t i = q->head;
    q->head = pool[i].next;
    if (q->head == PKT_NIL)
        q->tail = PKT_NIL;
    q->n--;
    q->flits -= pool[i].flits;
    return i;
}

/* Room for `flits` more under a bound of `depth` (an empty buffer always
 * takes one packet, however long). */
static inline bool fifo_fits(const pkt_fifo *q, uint32_t flits, uint32_t depth)
{
    return q->n == 0 || q->flits + flits <= depth;
}

/* Called for each granted packet with the NoC cycle it lands in the
 * output buffer (the callee converts it to the consumer's clock). */
typedef void (*noc_arrive_fn)(void *ctx, uint32_t out, uint32_t pkt, uint64_t tick);

typedef struct noc_xbar {
    uint32_t nin, nout;
    uint32_t depth, latency;
    pkt_fifo *in, *out;
    uint64_t *in_free, *out_free;   /* NoC cycle a port is free again */
    uint32_t queued;                /* packets in input buffers */
    uint32_t rr;
    uint64_t flits_sent, packets_sent;
    /* Queueing (docs/stats-json.md "noc"): a packet's wait at its input
     * from the first cycle it could be granted to its grant (NoC cycles),
     * and in the output buffer from arrival to ejection (the consumer's
     * cycles). */
    uint64_t inj_wait_sum, inj_wait_max;
    uint64_t ej_wait_sum, ej_wait_max, ejected;
} noc_xbar;

void noc_init(noc_xbar *x, uint32_t nin, uint32_t nout, uint32_t depth,
              uint32_t latency);
void noc_free(noc_xbar *x);
static inline bool noc_can_inject(const noc_xbar *x, uint32_t in, uint32_t flits)
{
    return fifo_fits(&x->in[in], flits, x->depth);
}
/* The packet's dst, flits and ready (first NoC cycle it may be granted)
 * must be set. */
static inline void noc_inject(noc_xbar *x, noc_pkt *pool, uint32_t in, uint32_t p)
{
    fifo_push(pool, &x->in[in], p);
    x->queued++;
}
/* One NoC cycle of arbitration and transfer. */
void noc_step(noc_xbar *x, noc_pkt *pool, uint64_t tick, noc_arrive_fn arrive,
              void *ctx);
/* Takes the head of output `o` (the caller checked it has arrived) at the
 * consumer's tick `now`, in the clock its arrival (`ready`) was given in. */
static inline uint32_t noc_eject(noc_xbar *x, noc_pkt *pool, uint32_t o, uint64_t now)
{
    uint32_t i = fifo_pop(pool, &x->out[o]);
    uint64_t w = now > pool[i].ready ? now - pool[i].ready : 0;
    x->ej_wait_sum += w;
    if (w > x->ej_wait_max)
        x->ej_wait_max = w;
    x->ejected++;
    return i;
}
/* Flits for `bytes` of data plus a `header` of control bytes (noc.header
 * bytes; 0: the header rides along as sideband control) on a channel of
 * `width` bytes: at least one. */
static inline uint32_t noc_flits(uint32_t bytes, uint32_t header, uint32_t width)
{
    uint32_t f = (bytes + header + width - 1) / width;
    return f ? f : 1;
}

#endif
