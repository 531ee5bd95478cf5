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
 * The SM side (memsys_issue: coalescing, the L1 lookup, MSHRs, the miss
 * queue) is memsys_issue.c; the memory partitions (L2 slices and their
 * DRAM channels) are mempart.c; memsys_internal.h holds the structs they
 * share.  Caches, the NoC, DRAM, the ICC and memory ordering have their
 * own files (cache.c, noc.c, dram.c, icc.c, memorder.c).
 */
#include "timing/memsys.h"
#include "timing/memsys_internal.h"

#include <glib.h>
#include <string.h>

/* ------------------------------------------------------------ pools */

static uint32_t pkt_alloc(memsys *m, ms_sm *s)
{
    sig_touch(m, s);
    m->pkts_used++;
    return pkt_take(m, s);
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

/* Queues packet p towards the cluster port, usable from NoC tick `ready`. */
static void missq_push(memsys *m, ms_sm *s, uint32_t p, uint64_t ready)
{
    missq_link(m, s, p, ready);
    sig_touch(m, s);
    m->n_missq++;
    if (m->cl[s->cluster].queued++ == 0)
        bit_set(m->cl_live, s->cluster);
    wake(m, D_ICNT, ready);
}

/* ------------------------------------------------------------ commit */

void ms_front_apply(memsys *m, uint32_t smi)
{
    ms_sm *s = &m->sm[smi];
    ms_front *f = &s->f;
    if (f->touched)
        sig_touch(m, s);
    m->insts_used += (uint32_t)f->insts;
    m->pkts_used += (uint32_t)f->pkts;
    if (f->missq) {
        m->n_missq += (uint32_t)f->missq;
        m->cl[s->cluster].queued += (uint32_t)f->missq;
        bit_set(m->cl_live, s->cluster);
    }
    if (f->wake_icnt != NEVER)
        wake(m, D_ICNT, f->wake_icnt);
    for (uint32_t j = 0; j < f->nev; j++)
        heap_push(m, f->ev[j].cycle, smi, f->ev[j].inst);
    if (f->acq_icc)
        cache_drop_clean(&m->cl[s->cluster].icc.cc, CACHE_NO_KEY);
    f->dirty = f->touched = f->acq_icc = false;
    f->insts = f->pkts = f->missq = 0;
    f->wake_icnt = NEVER;
    f->nev = 0;
}

void memsys_batch(memsys *m)
{
    m->batch = true;
}

void memsys_commit(memsys *m)
{
    m->batch = false;
    for (uint32_t i = 0; i < m->nsms; i++)
        if (m->sm[i].f.dirty)
            ms_front_apply(m, i);
}

void memsys_commit_sms(memsys *m, const uint32_t *sms, uint32_t n)
{
    m->batch = false;
    for (uint32_t j = 0; j < n; j++)
        if (m->sm[sms[j]].f.dirty)
            ms_front_apply(m, sms[j]);
}

/* One transaction of instruction i is done, its data usable at core cycle t. */
static void inst_progress(memsys *m, uint32_t smi, uint32_t i, uint64_t t)
{
    ms_inst *in = &m->sm[smi].inst[i];
    in->done_at = max64(in->done_at, t);
    if (--in->pending == 0)
        heap_push(m, in->done_at, smi, i);
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
    if (pk->kind == PKT_ATOMIC || pk->kind == PKT_WRITE) { /* a write: its ack */
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
    uint32_t flits = pk->kind == PKT_READ
                         ? 1
                         : noc_flits(pk->bytes, m->cfg.noc.header, m->cfg.noc.channel_width);
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
    pk->dst = (uint16_t)part_port(m, pk->part, pk->slice);
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
    wake_l2(m, &m->part[out / m->ports_pp], r);
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
                uint32_t p = noc_eject(&m->rep, m->pool, ci, k);
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

uint64_t memsys_next_cycle(memsys *m)
{
    /* a domain may still hold a wake-up that will find nothing to do */
    if (memsys_idle(m))
        return NEVER;
    uint64_t n = m->nheap ? m->heap[0].cycle : NEVER;
    for (int d = D_ICNT; d < ND; d++)
        if (m->next[d] != NEVER) {
            if (m->memo_k[d] != m->next[d]) { /* the division once per wake-up */
                m->memo_k[d] = m->next[d];
                m->memo_c[d] = core_of(m, d, m->next[d]);
            }
            n = min64(n, m->memo_c[d]);
        }
    return n;
}

bool memsys_due(const memsys *m, uint64_t c)
{
    if (memsys_idle(m))
        return false;
    if (m->nheap && m->heap[0].cycle <= c)
        return true;
    /* core_of(d, k) <= c  <=>  k * f_core < (c + 1) * f[d] */
    for (int d = D_ICNT; d < ND; d++)
        if (m->next[d] != NEVER && m->next[d] * m->f[D_CORE] < (c + 1) * m->f[d])
            return true;
    return false;
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
    m->ports_pp = cfg->noc.slice_ports ? m->nslices : 1;
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
    m->missq_cap = cfg->l1d.miss_queue ? cfg->l1d.miss_queue : cfg->l1d.mshrs;
    /* l1d.latency_queue: its l1d.hit_latency stages (one access each) hold
     * the accesses still on their way to the lookup in front of the miss
     * queue; here they wait in the miss queue's FIFO, not yet ready */
    if (cfg->l1d.latency_queue)
        m->missq_cap += cfg->l1d.hit_latency;
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
        if (cfg->l1d.set_index == GPU_SET_INDEX_FERMI_HASH)
            cache_set_fermi_hash(&s->l1, m->l1_shift);
        cache_init(&s->cc, cfg->const_cache.size / cfg->const_cache.line,
                   cfg->const_cache.assoc, GPU_REPL_LRU);
        mshr_init(&s->l1m, cfg->l1d.mshrs, cfg->l1d.mshr_merge);
        mshr_init(&s->ccm, cfg->const_cache.mshrs ? cfg->const_cache.mshrs : cfg->l1d.mshrs,
                  cfg->const_cache.mshr_merge ? cfg->const_cache.mshr_merge
                                              : cfg->l1d.mshr_merge);
        cache_init(&s->tc, cfg->tex_cache.size / cfg->tex_cache.line, cfg->tex_cache.assoc,
                   GPU_REPL_LRU);
        mshr_init(&s->tcm, cfg->l1d.mshrs, cfg->l1d.mshr_merge);
        s->inst = g_new0(ms_inst, ninst);
        s->inst_free = g_new(uint32_t, ninst);
        for (uint32_t j = 0; j < ninst; j++)
            s->inst_free[j] = ninst - 1 - j;
        s->ninst_free = ninst;
        s->f.ev = g_new(ms_event, ninst); /* at most every record in one cycle */
        s->f.wake_icnt = NEVER;
        s->f.refused_fresh = UINT32_MAX;
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
    uint32_t nports = m->nparts * m->ports_pp;
    noc_init(&m->req, m->nclusters, nports, cfg->noc.queue_depth, cfg->noc.latency);
    noc_init(&m->rep, nports, m->nclusters, cfg->noc.queue_depth, cfg->noc.latency);

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
        g_free(s->f.ev);
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

/* ------------------------------------------------------------ statistics */

void memsys_get_stats(const memsys *m, memsys_stats *out)
{
    memsys_get_stats_at(m, m->last_cycle, out);
}

void memsys_get_stats_at(const memsys *m, uint64_t upto, memsys_stats *out)
{
    *out = m->st;
    for (uint32_t i = 0; i < m->nsms; i++) {
        const ms_counts *n = &m->sm[i].n;
        out->l1_hits += n->l1_hits;
        out->l1_misses += n->l1_misses;
        out->l1_mshr_merges += n->l1_mshr_merges;
        out->l1_reservation_fails += n->l1_reservation_fails;
        out->transactions += n->transactions;
        out->warp_accesses += n->warp_accesses;
    }
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
    for (uint32_t i = 0; i < m->nsms; i++) {
        const ms_counts *n = &m->sm[i].n;
        out->l1_port_stalls += n->l1_port_stalls;
        out->l1_accesses += n->l1_accesses;
        out->l1_writebacks += n->l1_writebacks;
        out->l1_bypasses += n->l1_bypasses;
        out->l1_acquire_drops += n->l1_acquire_drops;
        out->const_hits += n->const_hits;
        out->const_misses += n->const_misses;
        out->tex_hits += n->tex_hits;
        out->tex_misses += n->tex_misses;
    }
    out->noc_flits = m->req.flits_sent + m->rep.flits_sent;
    out->noc_req_flits = m->req.flits_sent;
    out->noc_req_packets = m->req.packets_sent;
    out->noc_req_inj_wait = m->req.inj_wait_sum;
    out->noc_req_ej_wait = m->req.ej_wait_sum;
    out->noc_req_ejected = m->req.ejected;
    out->noc_rep_flits = m->rep.flits_sent;
    out->noc_rep_packets = m->rep.packets_sent;
    out->noc_rep_inj_wait = m->rep.inj_wait_sum;
    out->noc_rep_ej_wait = m->rep.ej_wait_sum;
    out->noc_rep_ejected = m->rep.ejected;
    out->noc_req_inj_wait_max = m->req.inj_wait_max;
    out->noc_req_ej_wait_max = m->req.ej_wait_max;
    out->noc_rep_inj_wait_max = m->rep.inj_wait_max;
    out->noc_rep_ej_wait_max = m->rep.ej_wait_max;
    out->noc_cluster_ports = m->req.nin;
    out->noc_mem_ports = m->req.nout;
    for (uint32_t p = 0; p < m->nparts; p++) {
        const dram_stats *d = dram_get_stats(m->part[p].dr);
        out->dram_activates += d->activates;
        out->dram_precharges += d->precharges;
        out->dram_bursts += d->bursts;
        out->dram_bytes += d->bytes;
        out->dram_same_sm += d->same_sm;
    }
}
