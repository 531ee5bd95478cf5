/* timing/memsys_internal.h — memsys structs and clock helpers shared with mempart.c. */
#ifndef PTXEMU_TIMING_MEMSYS_INTERNAL_H
#define PTXEMU_TIMING_MEMSYS_INTERNAL_H

#include "timing/memsys.h"

#include "timing/cache.h"
#include "timing/coalesce.h"
#include "timing/dram.h"
#include "timing/icc.h"
#include "timing/noc.h"

#include <stdbool.h>
#include <stdint.h>

enum { D_CORE, D_ICNT, D_L2, D_DRAM, ND };
#define NEVER UINT64_MAX

typedef struct ms_inst {
    uint64_t token, issue, done_at;
    uint32_t pending;   /* transactions still outstanding */
    uint8_t load;
} ms_inst;

typedef struct ms_event {
    uint64_t cycle, seq;
    uint32_t sm, inst;
} ms_event;

/* The SM side's counters (memsys_issue.c); the getters add them to the
 * memory system's own. */
typedef struct ms_counts {
    uint64_t l1_hits, l1_misses, l1_mshr_merges, l1_reservation_fails;
    uint64_t transactions, warp_accesses;
    uint64_t l1_port_stalls, l1_accesses, l1_writebacks, l1_bypasses, l1_acquire_drops;
    uint64_t const_hits, const_misses, tex_hits, tex_misses;
} ms_counts;

/* What an SM-side call (memsys_issue) changes outside its own ms_sm, held
 * here until memsys_commit applies it.  SMs may issue on several host
 * threads at once (timing/gpu_par.c); applying every SM's changes in SM
 * order leaves the shared state (the completion heap and its order, the
 * cluster queues, the NoC wake-up, the pool counts) exactly as issuing
 * one SM after the other did. */
typedef struct ms_front {
    bool dirty;
    bool touched;                   /* a signature field changed (sig_touch) */
    bool acq_icc;                   /* an acquire: drop the cluster ICC's clean lines */
    int32_t insts, pkts, missq;     /* instruction records, packets, queued packets taken */
    uint64_t wake_icnt;             /* earliest NoC tick a queued packet is ready */
    ms_event *ev;                   /* completions for the heap, in push order */
    uint32_t nev;
    coal_out co;                    /* coalescing scratch of the issuing instruction */
    const coal_out *cur;            /* its transactions (co or a refusal's copy) */
    bool refused_quick;             /* the last refusal came from the rc fast paths */
    uint32_t refused_fresh;         /* issue_read: fresh lines when it refused for want
                                       of MSHRs, else UINT32_MAX */
} ms_front;

typedef struct ms_sm {
    uint32_t cluster, local;
    cache l1, cc, tc;               /* L1 data, constant and texture caches */
    mshr_table l1m, ccm, tcm;
    ms_inst *inst;
    uint32_t *inst_free, ninst_free;
    uint32_t pkt_free, npkt_free;   /* this SM's packet quota */
    pkt_fifo missq;                 /* ready in NoC ticks */
    uint64_t port_free;             /* core cycle the L1 takes the next instruction */
    uint32_t loads_out;
    uint64_t busy_since;
    /* coalescing results of instructions refused by the L1 (retried every
     * cycle with the same token until they go), so a retry skips coalescing */
    struct ms_refused *rc;          /* MS_RC_N entries, allocated on first refusal */
    uint32_t rc_next;               /* round-robin replacement */
    /* bumped whenever the L1 / constant cache contents or their MSHRs may
     * have changed (an issue, a fill, an invalidation): a refused
     * instruction whose inputs (this, npkt_free, missq.n) are unchanged is
     * refused again without re-checking its transactions */
    uint64_t ver;
    /* lines that entered the L1 / constant cache or got an MSHR: each can
     * make at most one of a refused load's fresh lines non-fresh */
    uint64_t fills;
    ms_front f;
    ms_counts n;
} ms_sm;

#define MS_RC_N 4u
typedef struct ms_refused {
    bool valid;
    uint8_t space, write, atomic;
    uint16_t size;
    uint8_t flags;
    bool known;                     /* ver/npkt_free/missq_n hold a refusal's state */
    uint32_t warp, mask;
    uint32_t npkt_free, missq_n;
    uint64_t token, addr0, ver;
    /* a load refused for want of MSHRs: its fresh lines then and s->fills
     * then (fresh == UINT32_MAX: refused for another reason) */
    uint32_t fresh;
    uint64_t fills_at;
    coal_out co;
} ms_refused;

typedef struct ms_cluster {
    uint32_t first, nsms, rr, queued;
    icc_unit icc;
    locality_win lw;
} ms_cluster;

typedef struct l2_slice {
    cache c;
    mshr_table m;
    pkt_fifo ret;                   /* replies in the L2 pipeline, ready in L2 ticks */
    uint32_t *fill_mshr;            /* ring: MSHRs whose DRAM data came back */
    uint64_t *fill_ready;
    uint32_t fill_head, fill_n;
    uint64_t *wb_addr;              /* ring: DRAM writes waiting for queue room */
    uint16_t *wb_bytes, *wb_sm;
    uint32_t wb_head, wb_n, wb_cap;
} l2_slice;

typedef struct ms_part {
    struct memsys *m;
    uint32_t id, rr;
    l2_slice *sl;
    dram *dr;
    uint64_t l2_next, dram_next;
} ms_part;

struct memsys {
    gpu_config cfg;
    memsys_done_fn done;
    void *user;
    uint32_t nsms, nclusters, nparts, nslices;
    uint32_t ports_pp;              /* crossbar ports per partition: 1, or
                                       nslices with noc.slice_ports */
    uint64_t f[ND];
    uint64_t next[ND];
    ms_sm *sm;
    ms_cluster *cl;
    ms_part *part;
    noc_pkt *pool;
    noc_xbar req, rep;
    ms_event *heap;
    uint32_t nheap, heap_cap;
    uint64_t seq;
    bool batch;                     /* memsys_batch: SM-side changes wait for
                                       memsys_commit (else each issue applies its own) */
    uint32_t l1_shift, cc_shift, tc_shift, l2_shift, il_shift;
    uint32_t missq_cap, ret_cap, icc_delay;
    bool icc_on;
    uint32_t pkts_used, insts_used, dram_pending;
    uint32_t n_missq, n_rep_out;
    uint64_t last_cycle;
    uint64_t memo_k[ND], memo_c[ND]; /* memsys_next_cycle: core_of(d, memo_k[d]) */
    uint64_t *rep_live;             /* bitset over clusters: rep.out[c] not empty */
    uint64_t *cl_live;              /* bitset over clusters: cl[c].queued != 0 */
    uint64_t *touched;              /* bitset over SMs: a field of the SM's
                                       memsys_sm_sig may have changed since
                                       memsys_touched_clear (sig_touch) */
    memsys_stats st;
    memsys_extra_stats x;
};

/* ------------------------------------------------------------ clocks */

/* First tick of `to` at or after tick k of `from`. */
static inline uint64_t conv_ceil(const memsys *m, int from, uint64_t k, int to)
{
    return (k * m->f[to] + m->f[from] - 1) / m->f[from];
}
/* First tick of `to` strictly after tick k of `from` (hand-over now). */
static inline uint64_t conv_after(const memsys *m, int from, uint64_t k, int to)
{
    return k * m->f[to] / m->f[from] + 1;
}
/* Core cycle during which tick k of domain d happens. */
static inline uint64_t core_of(const memsys *m, int d, uint64_t k)
{
    return k * m->f[D_CORE] / m->f[d];
}
static inline uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline void wake(memsys *m, int d, uint64_t k)
{
    if (k < m->next[d])
        m->next[d] = k;
}
/* The crossbar port of slice sl of partition part. */
static inline uint32_t part_port(const memsys *m, uint32_t part, uint32_t sl)
{
    return part * m->ports_pp + (m->ports_pp > 1 ? sl : 0);
}
static inline void wake_l2(memsys *m, ms_part *p, uint64_t k)
{
    p->l2_next = min64(p->l2_next, k);
    wake(m, D_L2, k);
}
static inline void wake_dram(memsys *m, ms_part *p, uint64_t k)
{
    p->dram_next = min64(p->dram_next, k);
    wake(m, D_DRAM, k);
}

/* ------------------------------------------------------------ pools */

/* Bitsets over clusters (rep_live, cl_live): first set bit at or after
 * `from`, or `n` when none.  Read afresh each call, so a loop over them
 * sees bits set while it runs, as a scan of every cluster would. */
static inline uint32_t bits_next(const uint64_t *b, uint32_t from, uint32_t n)
{
    for (uint32_t w = from / 64; w * 64 < n; w++) {
        uint64_t x = b[w];
        if (w == from / 64)
            x &= ~UINT64_C(0) << (from % 64);
        if (x)
            return w * 64 + (uint32_t)__builtin_ctzll(x);
    }
    return n;
}
static inline void bit_set(uint64_t *b, uint32_t i)
{
    b[i / 64] |= UINT64_C(1) << (i % 64);
}
static inline void bit_clear(uint64_t *b, uint32_t i)
{
    b[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* Every change of an SM's signature fields (ver, npkt_free, missq.n,
 * ninst_free) calls this. */
static inline void sig_touch(memsys *m, const ms_sm *s)
{
    uint32_t i = (uint32_t)(s - m->sm);
    m->touched[i / 64] |= UINT64_C(1) << (i % 64);
}

/* ------------------------------------------------------------ packets */

/* Partition, partition-local byte address (interleave chunks packed
 * together) and L2 slice of a packet's line: computed once per packet. */
static inline void place_pkt(const memsys *m, noc_pkt *p)
{
    uint64_t chunk = p->addr >> m->il_shift;
    p->part = (uint16_t)(chunk % m->nparts);
    p->local = ((chunk / m->nparts) << m->il_shift) | (p->addr & (m->cfg.dram.interleave - 1));
    p->slice = (uint16_t)((p->local >> m->l2_shift) % m->nslices);
}

static inline void init_pkt(noc_pkt *p, uint64_t addr, uint8_t kind, uint8_t flags,
                            uint32_t bytes, uint32_t inst)
{
    p->addr = addr;
    p->kind = kind;
    p->flags = flags;
    p->bytes = (uint16_t)bytes;
    p->inst = inst;
}

static inline uint32_t popcount32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

/* The SM's part of taking a packet from its quota (the pool count is the
 * caller's: pkt_alloc, or the SM side's front). */
static inline uint32_t pkt_take(memsys *m, ms_sm *s)
{
    uint32_t i = s->pkt_free;
    s->pkt_free = m->pool[i].next;
    s->npkt_free--;
    return i;
}

/* The SM's part of queuing packet p towards the cluster port, usable from
 * NoC tick `ready`. */
static inline void missq_link(memsys *m, ms_sm *s, uint32_t p, uint64_t ready)
{
    m->pool[p].ready = ready;
    m->pool[p].flits = 0;
    place_pkt(m, &m->pool[p]);
    fifo_push(m->pool, &s->missq, p);
}

/* The SM cache a read goes through: the L1 data cache (global, local), the
 * constant cache or the texture cache (read-only, always cached). */
enum { SEL_L1, SEL_CONST, SEL_TEX };
static inline cache *sel_cache(ms_sm *s, int sel)
{
    return sel == SEL_TEX ? &s->tc : sel == SEL_CONST ? &s->cc : &s->l1;
}
static inline mshr_table *sel_mshrs(ms_sm *s, int sel)
{
    return sel == SEL_TEX ? &s->tcm : sel == SEL_CONST ? &s->ccm : &s->l1m;
}
static inline uint32_t sel_shift(const memsys *m, int sel)
{
    return sel == SEL_TEX ? m->tc_shift : sel == SEL_CONST ? m->cc_shift : m->l1_shift;
}

static inline void pkt_release(memsys *m, uint32_t i)
{
    ms_sm *s = &m->sm[m->pool[i].sm];
    sig_touch(m, s);
    m->pool[i].next = s->pkt_free;
    s->pkt_free = i;
    s->npkt_free++;
    m->pkts_used--;
}

/* ------------------------------------------------------------ memorder.c */

/* Issue flags beyond memsys.h's, derived from an access's order bits. */
enum {
    MS_WRITE_THROUGH = 1u << 6, /* a strong / .cg global store: through to L2 */
    MS_ACQUIRE = 1u << 7,       /* acquire wider than the CTA: refresh the L1 */
};
/* `flags` plus what acc->order asks of the L1 (MEMSYS_BYPASS_L1 etc.). */
unsigned ms_order_flags(const memsys *m, const ex_access *acc, unsigned flags);
/* Drops the SM's clean global L1 lines (an acquire issued there; the
 * cluster ICC's are dropped by memsys_commit). */
void ms_acquire(memsys *m, ms_sm *s);

/* ------------------------------------------------------------ memsys.c */

/* Applies SM smi's front (ms_front) to the shared state. */
void ms_front_apply(memsys *m, uint32_t smi);

/* ------------------------------------------------------------ mempart.c */

/* Builds m->part (L2 slices and a DRAM channel per partition) from cfg;
 * m->nparts and m->nslices must be set. */
void mempart_create(memsys *m, const gpu_config *cfg);
void mempart_destroy(memsys *m);
/* One L2 / DRAM clock tick k of every partition with work due; returns
 * the next tick any of them needs (NEVER: none). */
uint64_t mempart_l2_tick(memsys *m, uint64_t k);
uint64_t mempart_dram_tick(memsys *m, uint64_t k);

#endif
