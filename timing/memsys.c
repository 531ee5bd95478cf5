/* timing/memsys.c — the memory hierarchy behind memsys.h.
 *
 * How a load flows:
 *   memsys_issue (core cycle c): coalesce -> per transaction an L1 lookup;
 *     hits finish at c + j + l1d.hit_latency (the L1 takes one transaction
 *     per cycle, j = its position); misses merge into an MSHR or take a
 *     new one and a packet joins the SM's miss queue, ready at c + j + 1
 *     (+ icc.latency with ICC).  All or nothing: a refused instruction
 *     changes no state.
 *   cluster bus (NoC clock): one ready packet per cycle, round-robin over
 *     the cluster's SMs, into the cluster's single injection port (after
 *     the ICC merge table / coalesced cache when enabled).
 *   request crossbar -> partition ejection buffer -> L2 slice (L2 clock):
 *     hit -> reply after l2.hit_latency; miss -> L2 MSHR (merge) -> DRAM
 *     queue (DRAM clock, FR-FCFS) -> fill -> reply after l2.hit_latency.
 *   reply crossbar -> cluster response FIFO -> the SM (and, with ICC,
 *     every SM in the merge-table entry): L1 fill, MSHR waiters finish at
 *     the next core cycle.
 * Stores are accepted at c + j + 1 and travel on as write packets (no
 * reply); atomics bypass L1 and are performed at L2 (reply needed).
 *
 * Clock domains: NoC, L2 and DRAM each count their own cycles; tick k of
 * a domain at f MHz happens at time k / f.  memsys_cycle(c) runs, in time
 * order, every tick earlier than the end of core cycle c, i.e. with
 * k * f_core < (c + 1) * f (exact integer cross-multiplication; ties go
 * NoC, L2, DRAM).  A domain only runs ticks at which it has work: each
 * keeps the next tick it needs and producers wake consumers with the
 * first consumer tick at (or after) the hand-over time.  Completions are
 * delivered from a heap ordered by (core cycle, issue order).
 *
 * The memory partitions (L2 slices and their DRAM channels) are in
 * mempart.c; memsys_internal.h holds the structs both files use.
 *
 * Long (past 800 lines) because the request path through L1, the cluster
 * port, the crossbar and the partitions is one state machine; its parts
 * with their own state live in cache.c, noc.c, dram.c, icc.c, mempart.c
 * and memorder.c.
 */
#include "timing/memsys.h"
#include "timing/memsys_internal.h"

#include <glib.h>
#include <string.h>

/* ------------------------------------------------------------ addresses */

/* Partition, partition-local byte address (interleave chunks packed
 * together) and L2 slice of a packet's line: computed once per packet. */
static void place_pkt(const memsys *m, noc_pkt *p)
{
    uint64_t chunk = p->addr >> m->il_shift;
    p->part = (uint16_t)(chunk % m->nparts);
    p->local = ((chunk / m->nparts) << m->il_shift) | (p->addr & (m->cfg.dram.interleave - 1));
    p->slice = (uint16_t)((p->local >> m->l2_shift) % m->nslices);
}

/* ------------------------------------------------------------ pools */

static uint32_t pkt_alloc(memsys *m, ms_sm *s)
{
    uint32_t i = s->pkt_free;
    sig_touch(m, s);
    s->pkt_free = m->pool[i].next;
    s->npkt_free--;
    m->pkts_used++;
    return i;
}

static void heap_push(memsys *m, uint64_t cycle, uint32_t sm, uint32_t inst)
{
    ms_event ev = {cycle, m->seq++, sm, inst};
    uint32_t i = m->nheap++;
    while (i) {
        uint32_t up = (i - 1) / 2;
        const ms_event *u = &m->heap[up];
        if (u->cycle < ev.cycle || (u->cycle == ev.cycle && u->seq < ev.seq))
            break;
        m->heap[i] = *u;
        i = up;
    }
    m->heap[i] = ev;
}

static ms_event heap_pop(memsys *m)
{
    ms_event top = m->heap[0], last = m->heap[--m->nheap];
    uint32_t i = 0, n = m->nheap;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && (m->heap[c + 1].cycle < m->heap[c].cycle ||
                          (m->heap[c + 1].cycle == m->heap[c].cycle &&
                           m->heap[c + 1].seq < m->heap[c].seq)))
            c++;
        if (last.cycle < m->heap[c].cycle ||
            (last.cycle == m->heap[c].cycle && last.seq < m->heap[c].seq))
            break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (n)
        m->heap[i] = last;
    return top;
}

static uint32_t inst_alloc(memsys *m, ms_sm *s, uint64_t token, uint64_t c, bool load)
{
    uint32_t i = s->inst_free[--s->ninst_free];
    sig_touch(m, s);
    ms_inst *in = &s->inst[i];
    in->token = token;
    in->issue = in->done_at = c;
    in->pending = 0;
    in->load = load;
    m->insts_used++;
    if (load && s->loads_out++ == 0)
        s->busy_since = c;
    return i;
}

/* One transaction of instruction i is done, its data usable at core cycle t. */
static void inst_progress(memsys *m, uint32_t smi, uint32_t i, uint64_t t)
{
    ms_inst *in = &m->sm[smi].inst[i];
    in->done_at = max64(in->done_at, t);
    if (--in->pending == 0)
        heap_push(m, in->done_at, smi, i);
}

/* ------------------------------------------------------------ SM side */

static inline bool missq_room(const memsys *m, const ms_sm *s, uint32_t need)
{
    return s->missq.n == 0 || s->missq.n + need <= m->missq_cap;
}

/* Queues packet p towards the cluster port, usable from NoC tick `ready`. */
static void missq_push(memsys *m, ms_sm *s, uint32_t p, uint64_t ready)
{
    m->pool[p].ready = ready;
    m->pool[p].flits = 0;
    place_pkt(m, &m->pool[p]);
    fifo_push(m->pool, &s->missq, p);
    sig_touch(m, s);
    m->n_missq++;
    if (m->cl[s->cluster].queued++ == 0)
        bit_set(m->cl_live, s->cluster);
    wake(m, D_ICNT, ready);
}

static inline uint32_t popcount32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

static void init_pkt(noc_pkt *p, uint64_t addr, uint8_t kind, uint8_t flags,
                     uint32_t bytes, uint32_t inst)
{
    p->addr = addr;
    p->kind = kind;
    p->flags = flags;
    p->bytes = (uint16_t)bytes;
    p->inst = inst;
}

/* A write packet for `bytes` at line address `addr`, ready at core cycle r. */
static void send_write(memsys *m, ms_sm *s, uint64_t addr, uint32_t bytes, uint64_t r)
{
    uint32_t p = pkt_alloc(m, s);
    init_pkt(&m->pool[p], addr, PKT_WRITE, 0, bytes, 0);
    missq_push(m, s, p, conv_ceil(m, D_CORE, r, D_ICNT));
}

/* The SM cache a read goes through: the L1 data cache (global, local), the
 * constant cache or the texture cache (read-only, always cached). */
enum { SEL_L1, SEL_CONST, SEL_TEX };
static int read_sel(uint8_t space)
{
    return space == EX_SPACE_TEX ? SEL_TEX : coal_is_const(space) ? SEL_CONST : SEL_L1;
}
static cache *sel_cache(ms_sm *s, int sel)
{
    return sel == SEL_TEX ? &s->tc : sel == SEL_CONST ? &s->cc : &s->l1;
}
static mshr_table *sel_mshrs(ms_sm *s, int sel)
{
    return sel == SEL_TEX ? &s->tcm : sel == SEL_CONST ? &s->ccm : &s->l1m;
}
static uint32_t sel_shift(const memsys *m, int sel)
{
    return sel == SEL_TEX ? m->tc_shift : sel == SEL_CONST ? m->cc_shift : m->l1_shift;
}
static uint32_t sel_line(const memsys *m, int sel)
{
    return sel == SEL_TEX ? m->cfg.tex_cache.line
           : sel == SEL_CONST ? m->cfg.const_cache.line : m->cfg.l1d.line;
}

/* Loads through the L1 data cache (global, local), the constant cache or
 * the texture cache. */
static bool issue_read(memsys *m, ms_sm *s, uint32_t smi, uint64_t token, uint64_t c,
                       int sel, bool local, bool bypass)
{
    const coal_out *co = m->cur;
    bool cst = sel == SEL_CONST, tex = sel == SEL_TEX;
    cache *ca = sel_cache(s, sel);
    mshr_table *t = sel_mshrs(s, sel);
    uint32_t shift = sel_shift(m, sel);
    bool cached = cst || tex || local || (m->cfg.l1d.enabled && !bypass);
    uint32_t hit_lat = tex ? m->cfg.tex_cache.hit_latency
                       : cst ? m->cfg.const_cache.hit_latency : m->cfg.l1d.hit_latency;
    /* the constant cache serves one distinct address per cycle */
    uint32_t passes = cst ? max64(co->naddrs, co->ntx) : co->ntx;

    uint32_t fresh = 0;
    for (uint32_t j = 0; j < co->ntx; j++) {
        uint64_t key = co->tx[j].line >> shift;
        if (cached && cache_lookup(ca, key, false))
            continue;
        uint32_t e = mshr_find(t, key);
        if (e != MSHR_NONE) {
            if (mshr_full(t, e))
                goto refuse;
            continue;
        }
        fresh++;
    }
    /* an instruction needing more MSHRs than exist goes out once all are
     * free, the excess as MSHR-less requests (it could never issue else) */
    if (fresh > t->nfree && (t->nfree < t->n || fresh <= t->n)) {
        m->refused_fresh = fresh;
        goto refuse;
    }
    if (fresh > s->npkt_free || !missq_room(m, s, fresh))
        goto refuse;

    uint32_t i = inst_alloc(m, s, token, c, true);
    ms_inst *in = &s->inst[i];
    in->done_at = c + 1;
    /* an ordered load (memorder.c) past L1 skips the cluster's ICC too */
    bool ordered = bypass && !cst && !tex && !local;
    uint8_t flags = (uint8_t)((cst ? PKTF_CONST : 0) | (tex ? PKTF_TEX : 0) |
                              (cached ? 0 : PKTF_UNCACHED) | (local ? PKTF_LOCAL : 0) |
                              (ordered ? PKTF_BYPASS : 0));
    uint32_t line_bytes = sel_line(m, sel);
    /* global reads pass the merge table on their way out */
    uint64_t extra = m->icc_on && !cst && !tex && !local ? m->icc_delay : 0;
    uint32_t hits = 0, misses = 0, merges = 0;
    for (uint32_t j = 0; j < co->ntx; j++) {
        uint64_t key = co->tx[j].line >> shift;
        if (cached && cache_lookup(ca, key, true)) {
            hits++;
            in->done_at = max64(in->done_at, c + hit_lat + (cst ? passes - 1 : j));
            continue;
        }
        misses++;
        in->pending++;
        uint32_t e = mshr_find(t, key);
        if (e != MSHR_NONE) {
            mshr_add(t, e, i);
            merges++;
            continue;
        }
        uint32_t p = pkt_alloc(m, s);
        uint32_t bytes = cached ? line_bytes : popcount32(co->tx[j].sectors) * COAL_SECTOR;
        init_pkt(&m->pool[p], co->tx[j].line, PKT_READ, flags, bytes, i);
        if (t->nfree) {
            e = mshr_alloc(t, key, flags);
            mshr_add(t, e, i);
            s->fills++;
        } else {
            m->pool[p].flags |= PKTF_NOMSHR;
        }
        uint64_t r = c + (cst ? passes : j + 1) + extra;
        missq_push(m, s, p, conv_ceil(m, D_CORE, r, D_ICNT));
    }
    if (cst) {
        m->x.const_hits += hits;
        m->x.const_misses += misses;
    } else if (tex) {
        m->x.tex_hits += hits;
        m->x.tex_misses += misses;
    } else if (ordered) {
        m->x.l1_bypasses += misses;
        m->st.l1_mshr_merges += merges;
        m->x.l1_accesses += co->ntx;
    } else {
        m->st.l1_hits += hits;
        m->st.l1_misses += misses;
        m->st.l1_mshr_merges += merges;
        m->x.l1_accesses += co->ntx;
    }
    m->st.transactions += co->ntx;
    m->st.warp_accesses++;
    s->port_free = c + passes;
    if (in->pending == 0)
        heap_push(m, in->done_at, smi, i);
    return true;
refuse:
    m->st.l1_reservation_fails++;
    return false;
}

static bool issue_store(memsys *m, ms_sm *s, uint32_t smi, uint64_t token, uint64_t c,
                        bool local, bool through)
{
    const coal_out *co = m->cur;
    /* local memory is write-back, write-allocate in L1 (as on Fermi); global
     * stores follow l1d.write_policy / l1d.write_allocate, except that a
     * strong store is not kept back in L1 (memorder.c) */
    int32_t pol = local ? GPU_WRITE_BACK : m->cfg.l1d.write_policy;
    bool alloc = local || m->cfg.l1d.write_allocate;
    if (through && !local && pol == GPU_WRITE_BACK) {
        pol = GPU_WRITE_THROUGH;
        alloc = false;
    }
    uint32_t need = co->ntx * (pol == GPU_WRITE_THROUGH && alloc ? 2 : 1);
    if (need > s->npkt_free || !missq_room(m, s, need)) {
        m->st.l1_reservation_fails++;
        return false;
    }
    uint32_t i = inst_alloc(m, s, token, c, false);
    for (uint32_t j = 0; j < co->ntx; j++) {
        uint64_t line = co->tx[j].line, key = line >> m->l1_shift, victim;
        uint32_t bytes = popcount32(co->tx[j].sectors) * COAL_SECTOR;
        uint64_t r = c + j + 1;
        bool vd = false;
        switch (pol) {
        case GPU_WRITE_BACK:
            if (cache_mark_dirty(&s->l1, key))
                break;
            if (alloc) {
                s->fills++;
                if (cache_insert(&s->l1, key, true, &victim, &vd) && vd) {
                    send_write(m, s, victim << m->l1_shift, m->cfg.l1d.line, r);
                    m->x.l1_writebacks++;
                }
                break;
            }
            send_write(m, s, line, bytes, r);
            break;
        case GPU_WRITE_THROUGH:
            if (!cache_lookup(&s->l1, key, true) && alloc && ++s->fills &&
                cache_insert(&s->l1, key, false, &victim, &vd) && vd) {
                send_write(m, s, victim << m->l1_shift, m->cfg.l1d.line, r);
                m->x.l1_writebacks++;
            }
            send_write(m, s, line, bytes, r);
            break;
        default: /* write-evict */
            cache_invalidate(&s->l1, key, NULL);
            send_write(m, s, line, bytes, r);
            break;
        }
    }
    m->x.l1_accesses += co->ntx;
    m->st.transactions += co->ntx;
    m->st.warp_accesses++;
    s->port_free = c + co->ntx;
    /* a store is done once the L1 has accepted its last transaction */
    s->inst[i].done_at = c + co->ntx;
    heap_push(m, s->inst[i].done_at, smi, i);
    return true;
}

static bool issue_atomic(memsys *m, ms_sm *s, uint32_t smi, uint64_t token, uint64_t c)
{
    const coal_out *co = m->cur;
    if (co->ntx > s->npkt_free || !missq_room(m, s, co->ntx)) {
        m->st.l1_reservation_fails++;
        return false;
    }
    (void)smi;
    uint32_t i = inst_alloc(m, s, token, c, false);
    s->inst[i].pending = co->ntx;
    for (uint32_t j = 0; j < co->ntx; j++) {
        /* performed at L2: drop any stale L1 copy */
        cache_invalidate(&s->l1, co->tx[j].line >> m->l1_shift, NULL);
        uint32_t p = pkt_alloc(m, s);
        init_pkt(&m->pool[p], co->tx[j].line, PKT_ATOMIC, 0,
                 popcount32(co->tx[j].sectors) * COAL_SECTOR, i);
        missq_push(m, s, p, conv_ceil(m, D_CORE, c + j + 1, D_ICNT));
    }
    m->x.l1_accesses += co->ntx;
    m->st.transactions += co->ntx;
    m->st.warp_accesses++;
    s->port_free = c + co->ntx;
    return true;
}

bool memsys_issue(memsys *m, uint32_t smi, uint32_t warp, const ex_access *acc,
                  uint64_t token, uint64_t c)
{
    return memsys_issue_flags(m, smi, warp, acc, token, c, 0);
}

bool memsys_issue_flags(memsys *m, uint32_t smi, uint32_t warp, const ex_access *acc,
                        uint64_t token, uint64_t c, unsigned flags)
{
    ms_sm *s = &m->sm[smi];
    m->refused_quick = false;
    if (s->ninst_free == 0) {
        m->st.l1_reservation_fails++;
        return false;
    }
    if (acc->mask == 0 || acc->space == EX_SPACE_SHARED) {
        /* nothing for the memory system: done next cycle */
        uint32_t i = inst_alloc(m, s, token, c, false);
        heap_push(m, c + 1, smi, i);
        return true;
    }
    if (s->port_free > c) {
        m->x.l1_port_stalls++;
        return false;
    }
    bool local = coal_is_local(acc->space);
    flags = ms_order_flags(acc, flags);
    uint64_t addr0 = acc->addr[__builtin_ctz(acc->mask)];
    ms_refused *r = NULL;
    if (s->rc) {
        for (uint32_t k = 0; k < MS_RC_N; k++) {
            ms_refused *e = &s->rc[k];
            if (e->valid && e->token == token && e->warp == warp && e->mask == acc->mask &&
                e->space == acc->space && e->write == acc->write &&
                e->atomic == acc->atomic && e->size == acc->size && e->addr0 == addr0 &&
                e->flags == (uint8_t)flags) {
                r = e;
                break;
            }
        }
    }
    if (r) {
        if (r->known && r->ver == s->ver && r->npkt_free == s->npkt_free &&
            r->missq_n == s->missq.n) {
            /* nothing the checks look at changed: refused again */
            m->st.l1_reservation_fails++;
            m->refused_quick = true;
            return false;
        }
        if (r->known && r->fresh != UINT32_MAX && !acc->atomic && !acc->write) {
            /* refused for want of MSHRs: fresh lines can have dropped by at
             * most the fills since, so while that bound still exceeds the
             * free MSHRs (not all free) the check would refuse again */
            const mshr_table *t = sel_mshrs(s, read_sel(acc->space));
            uint64_t gone = s->fills - r->fills_at;
            if (gone < r->fresh && r->fresh - gone > t->nfree && t->nfree < t->n) {
                m->st.l1_reservation_fails++;
                m->refused_quick = true;
                /* what a full check's refusal records (the unchanged-state
                 * path above then behaves exactly as without this one) */
                r->ver = s->ver;
                r->npkt_free = s->npkt_free;
                r->missq_n = s->missq.n;
                return false;
            }
        }
        m->cur = &r->co;
    } else {
        coalesce(acc, smi, warp, sel_line(m, read_sel(acc->space)), &m->co);
        m->cur = &m->co;
    }
    bool ok;
    m->refused_fresh = UINT32_MAX;
    if (acc->atomic)
        ok = issue_atomic(m, s, smi, token, c);
    else if (acc->write)
        ok = issue_store(m, s, smi, token, c, local, (flags & MS_WRITE_THROUGH) != 0);
    else
        ok = issue_read(m, s, smi, token, c, read_sel(acc->space), local,
                        (flags & MEMSYS_BYPASS_L1) != 0);
    if (ok) {
        s->ver++;
        sig_touch(m, s);
        if (flags & MS_ACQUIRE)
            ms_acquire(m, s);
        if (r)
            r->valid = false;
        return true;
    }
    if (!r) {
        /* keep the transactions for the retries */
        if (!s->rc)
            s->rc = g_new0(ms_refused, MS_RC_N);
        uint32_t k = 0;
        while (k < MS_RC_N && s->rc[k].valid)
            k++;
        if (k == MS_RC_N) {
            k = s->rc_next;
            s->rc_next = (s->rc_next + 1) % MS_RC_N;
        }
        r = &s->rc[k];
        r->valid = true;
        r->token = token;
        r->warp = warp;
        r->mask = acc->mask;
        r->space = acc->space;
        r->write = acc->write;
        r->atomic = acc->atomic;
        r->size = acc->size;
        r->addr0 = addr0;
        r->flags = (uint8_t)flags;
        r->co.ntx = m->co.ntx;
        r->co.naddrs = m->co.naddrs;
        memcpy(r->co.tx, m->co.tx, m->co.ntx * sizeof m->co.tx[0]);
    }
    r->known = true;
    r->fresh = m->refused_fresh;
    r->fills_at = s->fills;
    r->ver = s->ver;
    r->npkt_free = s->npkt_free;
    r->missq_n = s->missq.n;
    return false;
}

/* Data for `line` reached SM smi (NoC tick k); waiters finish at core
 * cycle `done`.  `p` is the reply packet when it belongs to this SM
 * (reused for a dirty victim's write-back), else PKT_NIL. */
static void sm_fill(memsys *m, uint32_t smi, uint64_t line, uint8_t flags, uint32_t p,
                    uint64_t k, uint64_t done)
{
    ms_sm *s = &m->sm[smi];
    s->ver++;
    sig_touch(m, s);
    if (p != PKT_NIL && (m->pool[p].flags & PKTF_NOMSHR)) {
        inst_progress(m, smi, m->pool[p].inst, done);
        pkt_release(m, p);
        return;
    }
    int sel = (flags & PKTF_TEX) ? SEL_TEX : (flags & PKTF_CONST) ? SEL_CONST : SEL_L1;
    cache *ca = sel_cache(s, sel);
    mshr_table *t = sel_mshrs(s, sel);
    uint32_t shift = sel_shift(m, sel);
    uint64_t key = line >> shift;
    uint32_t e = mshr_find(t, key);
    uint32_t f = e != MSHR_NONE ? t->flags[e] : flags;
    uint64_t victim;
    bool vd = false;
    if (!(f & PKTF_UNCACHED) && ++s->fills && cache_insert(ca, key, false, &victim, &vd) &&
        vd) {
        uint32_t w = p;
        if (w == PKT_NIL && s->npkt_free)
            w = pkt_alloc(m, s);
        if (w != PKT_NIL) {
            /* the reply packet goes back out as the write-back */
            init_pkt(&m->pool[w], victim << shift, PKT_WRITE, 0, m->cfg.l1d.line, 0);
            missq_push(m, s, w, k + 1);
            m->x.l1_writebacks++;
            p = PKT_NIL;
        }
    }
    if (e != MSHR_NONE) {
        uint32_t n = t->count[e];
        const uint32_t *wt = mshr_waiters(t, e);
        for (uint32_t i = 0; i < n; i++)
            inst_progress(m, smi, wt[i], done);
        mshr_release(t, e);
    }
    if (p != PKT_NIL)
        pkt_release(m, p);
}

/* ------------------------------------------------------------ NoC clock */

static inline bool icc_eligible(const noc_pkt *p)
{
    return p->kind == PKT_READ &&
           !(p->flags & (PKTF_CONST | PKTF_TEX | PKTF_LOCAL | PKTF_NOMSHR | PKTF_BYPASS));
}

static void cluster_deliver(memsys *m, ms_cluster *cl, uint32_t p, uint64_t k)
{
    noc_pkt *pk = &m->pool[p];
    uint64_t done = core_of(m, D_ICNT, k) + 1;
    if (pk->kind == PKT_ATOMIC) {
        inst_progress(m, pk->sm, pk->inst, done);
        pkt_release(m, p);
        return;
    }
    uint64_t others = 0;
    if (m->icc_on && icc_eligible(pk))
        others = icc_reply(&cl->icc, pk->addr) & ~(1ull << (pk->sm - cl->first));
    uint64_t line = pk->addr;
    uint8_t flags = pk->flags;
    sm_fill(m, pk->sm, line, flags, p, k, done);
    while (others) {
        uint32_t b = (uint32_t)__builtin_ctzll(others);
        others &= others - 1;
        sm_fill(m, cl->first + b, line, flags, PKT_NIL, k, done);
    }
}

/* The cluster's bus: one ready packet per NoC cycle from its SMs' miss
 * queues (round-robin) through the ICC unit into the injection port. */
static void bus_step(memsys *m, uint32_t ci, uint64_t k)
{
    ms_cluster *cl = &m->cl[ci];
    ms_sm *s = NULL;
    for (uint32_t j = 0, i = cl->rr; j < cl->nsms; j++, i = i + 1 == cl->nsms ? 0 : i + 1) {
        ms_sm *c = &m->sm[cl->first + i];
        if (c->missq.n && m->pool[c->missq.head].ready <= k) {
            s = c;
            break;
        }
    }
    if (!s)
        return;
    uint32_t p = s->missq.head;
    noc_pkt *pk = &m->pool[p];
    uint64_t cyc = core_of(m, D_ICNT, k);
    bool icc = m->icc_on && icc_eligible(pk);
    int32_t entry = -1;
    bool cc_hit = false;
    if (icc) {
        cc_hit = icc_cc_hit(&cl->icc, pk->addr);
        if (!cc_hit)
            entry = icc_find(&cl->icc, pk->addr);
    }
    uint32_t flits = pk->kind == PKT_READ ? 1 : noc_flits(pk->bytes, m->cfg.noc.channel_width);
    bool consumed_here = cc_hit || entry >= 0;
    if (!consumed_here && !noc_can_inject(&m->req, ci, flits))
        return; /* port full: the bus stalls this cycle */

    fifo_pop(m->pool, &s->missq);
    sig_touch(m, s);
    m->n_missq--;
    if (--cl->queued == 0)
        bit_clear(m->cl_live, ci);
    cl->rr = (s->local + 1) % cl->nsms;
    if (pk->kind == PKT_READ && !(pk->flags & PKTF_CONST) &&
        locality_note(&cl->lw, pk->addr, cyc))
        m->st.redundant_requests++;
    if (icc)
        m->x.icc_lookups++;
    if (cc_hit) {
        m->st.icc_cache_hits++;
        sm_fill(m, pk->sm, pk->addr, pk->flags, p, k, cyc + m->icc_delay + 1);
        return;
    }
    if (entry >= 0) {
        icc_join(&cl->icc, entry, s->local);
        m->st.icc_merges++;
        pkt_release(m, p);
        return;
    }
    if (icc)
        icc_allocate(&cl->icc, pk->addr, s->local);
    if (pk->kind == PKT_WRITE && m->icc_on)
        icc_cc_invalidate(&cl->icc, pk->addr);
    pk->dst = pk->part;
    pk->flits = (uint16_t)flits;
    pk->ready = k + 1;
    noc_inject(&m->req, m->pool, ci, p);
    if (pk->kind == PKT_WRITE)
        m->st.noc_write_requests++;
    else
        m->st.noc_read_requests++;
}

static void req_arrive(void *ctx, uint32_t out, uint32_t p, uint64_t at)
{
    memsys *m = ctx;
    uint64_t r = conv_ceil(m, D_ICNT, at, D_L2);
    m->pool[p].ready = r;
    wake_l2(m, &m->part[out], r);
}

static void rep_arrive(void *ctx, uint32_t out, uint32_t p, uint64_t at)
{
    memsys *m = ctx;
    (void)p;
    bit_set(m->rep_live, out);
    m->n_rep_out++;
    wake(m, D_ICNT, at);
}

static uint64_t icnt_tick(memsys *m, uint64_t k)
{
    uint64_t nxt = NEVER;
    if (m->n_rep_out) {
        for (uint32_t ci = bits_next(m->rep_live, 0, m->nclusters); ci < m->nclusters;
             ci = bits_next(m->rep_live, ci + 1, m->nclusters)) {
            pkt_fifo *q = &m->rep.out[ci];
            if (q->n == 0) {
                bit_clear(m->rep_live, ci);
                continue;
            }
            if (m->pool[q->head].ready <= k) {
                uint32_t p = noc_eject(&m->rep, m->pool, ci);
                m->n_rep_out--;
                cluster_deliver(m, &m->cl[ci], p, k);
            }
            if (q->n)
                nxt = min64(nxt, max64(k + 1, m->pool[q->head].ready));
            else
                bit_clear(m->rep_live, ci);
        }
    }
    noc_step(&m->rep, m->pool, k, rep_arrive, m);
    noc_step(&m->req, m->pool, k, req_arrive, m);
    if (m->n_missq) {
        for (uint32_t ci = bits_next(m->cl_live, 0, m->nclusters); ci < m->nclusters;
             ci = bits_next(m->cl_live, ci + 1, m->nclusters)) {
            ms_cluster *cl = &m->cl[ci];
            bus_step(m, ci, k);
            for (uint32_t j = 0; j < cl->nsms; j++) {
                const ms_sm *s = &m->sm[cl->first + j];
                if (s->missq.n)
                    nxt = min64(nxt, max64(k + 1, m->pool[s->missq.head].ready));
            }
        }
    }
    /* after the bus: what it injected is granted from the next cycle on */
    if (m->rep.queued || m->req.queued)
        nxt = k + 1;
    return nxt;
}

/* ------------------------------------------------------------ stepping */

void memsys_cycle(memsys *m, uint64_t c)
{
    const uint64_t fc = m->f[D_CORE], lim = c + 1;
    for (;;) {
        int best = -1;
        for (int d = D_ICNT; d < ND; d++) {
            uint64_t k = m->next[d];
            if (k == NEVER || k * fc >= lim * m->f[d])
                continue;
            if (best < 0 || k * m->f[best] < m->next[best] * m->f[d])
                best = d;
        }
        if (best < 0)
            break;
        uint64_t k = m->next[best], r;
        m->next[best] = NEVER;
        if (best == D_ICNT)
            r = icnt_tick(m, k);
        else if (best == D_L2)
            r = mempart_l2_tick(m, k);
        else
            r = mempart_dram_tick(m, k);
        wake(m, best, r);
    }
    m->last_cycle = c;
    while (m->nheap && m->heap[0].cycle <= c) {
        ms_event ev = heap_pop(m);
        ms_sm *s = &m->sm[ev.sm];
        ms_inst *in = &s->inst[ev.inst];
        uint64_t token = in->token;
        if (in->load) {
            m->st.latency_sum += ev.cycle - in->issue;
            m->st.latency_count++;
            if (--s->loads_out == 0)
                m->st.latency_overlapped_sum += ev.cycle - s->busy_since;
        }
        s->inst_free[s->ninst_free++] = ev.inst;
        sig_touch(m, s);
        m->insts_used--;
        m->done(m->user, token, ev.cycle);
    }
}

uint64_t memsys_next_cycle(const memsys *m)
{
    /* a domain may still hold a wake-up that will find nothing to do */
    if (memsys_idle(m))
        return NEVER;
    uint64_t n = m->nheap ? m->heap[0].cycle : NEVER;
    for (int d = D_ICNT; d < ND; d++)
        if (m->next[d] != NEVER)
            n = min64(n, core_of(m, d, m->next[d]));
    return n;
}

bool memsys_idle(const memsys *m)
{
    return m->insts_used == 0 && m->pkts_used == 0 && m->dram_pending == 0;
}

/* ------------------------------------------------------------ setup */

static uint32_t log2u(uint64_t x)
{
    uint32_t s = 0;
    while ((1ull << s) < x)
        s++;
    return s;
}

memsys *memsys_create(const gpu_config *cfg, memsys_done_fn done, void *user)
{
    memsys *m = g_new0(memsys, 1);
    m->cfg = *cfg;
    m->done = done;
    m->user = user;
    m->nsms = cfg->gpu.num_sms;
    m->nclusters = gpu_config_num_clusters(cfg);
    m->nparts = cfg->dram.partitions;
    m->nslices = cfg->l2.slices_per_partition;
    m->f[D_CORE] = cfg->clock.core;
    m->f[D_ICNT] = cfg->clock.icnt;
    m->f[D_L2] = cfg->clock.l2;
    m->f[D_DRAM] = cfg->clock.dram;
    for (int d = 0; d < ND; d++)
        m->next[d] = NEVER;
    m->l1_shift = log2u(cfg->l1d.line);
    m->cc_shift = log2u(cfg->const_cache.line);
    m->tc_shift = log2u(cfg->tex_cache.line);
    m->l2_shift = log2u(cfg->l2.line);
    m->il_shift = log2u(cfg->dram.interleave);
    m->icc_on = cfg->icc.mode != GPU_ICC_OFF;
    m->icc_delay = m->icc_on ? cfg->icc.latency : 0;
    m->missq_cap = cfg->l1d.mshrs;
    m->ret_cap = cfg->l2.hit_latency + cfg->l2.mshrs + cfg->l2.mshr_merge;

    /* SMs: each owns its instruction records and a packet quota that
     * covers its MSHRs, a full miss queue and the widest instruction */
    uint32_t ninst = 4 * gpu_config_max_warps(cfg);
    if (ninst < 16)
        ninst = 16;
    uint32_t quota = 2 * cfg->l1d.mshrs + m->missq_cap + 2 * COAL_MAX_TX;
    m->pool = g_new0(noc_pkt, (size_t)m->nsms * quota);
    m->sm = g_new0(ms_sm, m->nsms);
    for (uint32_t i = 0; i < m->nsms; i++) {
        ms_sm *s = &m->sm[i];
        s->cluster = i / cfg->gpu.sms_per_cluster;
        s->local = i % cfg->gpu.sms_per_cluster;
        cache_init(&s->l1, cfg->l1d.size / cfg->l1d.line, cfg->l1d.assoc, cfg->l1d.replacement);
        cache_init(&s->cc, cfg->const_cache.size / cfg->const_cache.line,
                   cfg->const_cache.assoc, GPU_REPL_LRU);
        mshr_init(&s->l1m, cfg->l1d.mshrs, cfg->l1d.mshr_merge);
        mshr_init(&s->ccm, cfg->l1d.mshrs, cfg->l1d.mshr_merge);
        cache_init(&s->tc, cfg->tex_cache.size / cfg->tex_cache.line, cfg->tex_cache.assoc,
                   GPU_REPL_LRU);
        mshr_init(&s->tcm, cfg->l1d.mshrs, cfg->l1d.mshr_merge);
        s->inst = g_new0(ms_inst, ninst);
        s->inst_free = g_new(uint32_t, ninst);
        for (uint32_t j = 0; j < ninst; j++)
            s->inst_free[j] = ninst - 1 - j;
        s->ninst_free = ninst;
        s->pkt_free = PKT_NIL;
        for (uint32_t j = quota; j-- > 0;) {
            uint32_t p = i * quota + j;
            m->pool[p].sm = (uint16_t)i;
            m->pool[p].next = s->pkt_free;
            s->pkt_free = p;
        }
        s->npkt_free = quota;
        fifo_init(&s->missq);
    }
    m->touched = g_new0(uint64_t, m->nsms / 64 + 1);
    m->rep_live = g_new0(uint64_t, m->nclusters / 64 + 1);
    m->cl_live = g_new0(uint64_t, m->nclusters / 64 + 1);
    m->heap_cap = m->nsms * ninst;
    m->heap = g_new(ms_event, m->heap_cap);

    /* clusters: at most one request per NoC cycle enters the window */
    uint64_t lw_cap = (uint64_t)cfg->stats.locality_window * cfg->clock.icnt / cfg->clock.core + 2;
    if (lw_cap > (1u << 16))
        lw_cap = 1u << 16;
    m->cl = g_new0(ms_cluster, m->nclusters);
    for (uint32_t c = 0; c < m->nclusters; c++) {
        ms_cluster *cl = &m->cl[c];
        cl->first = c * cfg->gpu.sms_per_cluster;
        cl->nsms = cfg->gpu.sms_per_cluster;
        icc_init(&cl->icc, cfg->icc.merge_table, cfg->icc.coalesced_cache,
                 cfg->icc.mode == GPU_ICC_ICC_CC);
        locality_init(&cl->lw, cfg->stats.locality_window, (uint32_t)lw_cap);
    }

    /* partitions: L2 slices and a DRAM channel each */
    mempart_create(m, cfg);
    noc_init(&m->req, m->nclusters, m->nparts, cfg->noc.queue_depth, cfg->noc.latency);
    noc_init(&m->rep, m->nparts, m->nclusters, cfg->noc.queue_depth, cfg->noc.latency);

    m->st.served_per_sm = g_new0(uint64_t, m->nsms);
    m->st.nsms = m->nsms;
    return m;
}

void memsys_destroy(memsys *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nsms; i++) {
        ms_sm *s = &m->sm[i];
        cache_free(&s->l1);
        cache_free(&s->cc);
        mshr_free(&s->l1m);
        mshr_free(&s->ccm);
        cache_free(&s->tc);
        mshr_free(&s->tcm);
        g_free(s->inst);
        g_free(s->inst_free);
        g_free(s->rc);
    }
    for (uint32_t c = 0; c < m->nclusters; c++) {
        icc_free(&m->cl[c].icc);
        locality_free(&m->cl[c].lw);
    }
    mempart_destroy(m);
    noc_free(&m->req);
    noc_free(&m->rep);
    g_free(m->cl);
    g_free(m->sm);
    g_free(m->pool);
    g_free(m->heap);
    g_free(m->touched);
    g_free(m->rep_live);
    g_free(m->cl_live);
    g_free(m->st.served_per_sm);
    g_free(m);
}

void memsys_sm_signature(const memsys *m, uint32_t smi, memsys_sm_sig *out)
{
    const ms_sm *s = &m->sm[smi];
    *out = (memsys_sm_sig){s->ver, s->npkt_free, s->missq.n, s->ninst_free};
}

const uint64_t *memsys_touched(const memsys *m)
{
    return m->touched;
}

void memsys_touched_clear(memsys *m)
{
    for (uint32_t w = 0; w <= m->nsms / 64; w++)
        m->touched[w] = 0;
}

bool memsys_last_refusal_quick(const memsys *m)
{
    return m->refused_quick;
}

void memsys_count_refusals(memsys *m, uint64_t n)
{
    m->st.l1_reservation_fails += n;
}

/* ------------------------------------------------------------ statistics */

void memsys_get_stats(const memsys *m, memsys_stats *out)
{
    memsys_get_stats_at(m, m->last_cycle, out);
}

void memsys_get_stats_at(const memsys *m, uint64_t upto, memsys_stats *out)
{
    *out = m->st;
    out->dram_reads = out->dram_writes = out->dram_row_hits = out->dram_row_misses = 0;
    for (uint32_t p = 0; p < m->nparts; p++) {
        const dram_stats *d = dram_get_stats(m->part[p].dr);
        out->dram_reads += d->reads;
        out->dram_writes += d->writes;
        out->dram_row_hits += d->row_hits;
        out->dram_row_misses += d->row_misses;
    }
    /* SMs still waiting on a load count up to `upto` */
    for (uint32_t i = 0; i < m->nsms; i++)
        if (m->sm[i].loads_out && upto > m->sm[i].busy_since)
            out->latency_overlapped_sum += upto - m->sm[i].busy_since;
}

void memsys_get_extra_stats(const memsys *m, memsys_extra_stats *out)
{
    *out = m->x;
    out->noc_flits = m->req.flits_sent + m->rep.flits_sent;
    for (uint32_t p = 0; p < m->nparts; p++) {
        const dram_stats *d = dram_get_stats(m->part[p].dr);
        out->dram_activates += d->activates;
        out->dram_precharges += d->precharges;
        out->dram_bursts += d->bursts;
        out->dram_bytes += d->bytes;
        out->dram_same_sm += d->same_sm;
    }
}
