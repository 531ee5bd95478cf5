/* timing/mempart.c — the memory partitions: L2 slices and their DRAM channel glue. */
#include "timing/memsys_internal.h"

#include <glib.h>

/* ------------------------------------------------------------ L2 clock */

static inline uint64_t l2_line_addr(const memsys *m, uint64_t key, uint32_t sl)
{
    return (key * m->nslices + sl) << m->l2_shift;
}

static void wb_push(memsys *m, l2_slice *s, uint64_t addr, uint32_t bytes, uint32_t sm)
{
    uint32_t i = (s->wb_head + s->wb_n++) % s->wb_cap;
    s->wb_addr[i] = addr;
    s->wb_bytes[i] = (uint16_t)bytes;
    s->wb_sm[i] = (uint16_t)sm;
    m->dram_pending++;
}

/* A write (or an atomic's update) to L2 line key; at most two DRAM writes. */
static void l2_store(memsys *m, l2_slice *s, uint32_t sl, uint64_t key, uint64_t local,
                     uint32_t bytes, uint32_t sm)
{
    uint64_t victim;
    bool vd = false;
    uint32_t line = m->cfg.l2.line;
    switch (m->cfg.l2.write_policy) {
    case GPU_WRITE_BACK:
        if (cache_mark_dirty(&s->c, key))
            return;
        if (m->cfg.l2.write_allocate) {
            /* allocated without fetching the rest of the line */
            if (cache_insert(&s->c, key, true, &victim, &vd) && vd) {
                wb_push(m, s, l2_line_addr(m, victim, sl), line, DRAM_NO_SM);
                m->x.l2_writebacks++;
            }
            return;
        }
        break;
    case GPU_WRITE_THROUGH:
        if (!cache_lookup(&s->c, key, true) && m->cfg.l2.write_allocate &&
            cache_insert(&s->c, key, false, &victim, &vd) && vd) {
            wb_push(m, s, l2_line_addr(m, victim, sl), line, DRAM_NO_SM);
            m->x.l2_writebacks++;
        }
        break;
    default: /* write-evict */
        if (cache_invalidate(&s->c, key, &vd) && vd) {
            wb_push(m, s, l2_line_addr(m, key, sl), line, sm);
            m->x.l2_writebacks++;
            return;
        }
        break;
    }
    wb_push(m, s, local, bytes, sm);
}

static inline bool ret_room(const memsys *m, const l2_slice *s, uint32_t n)
{
    return s->ret.n == 0 || s->ret.n + n <= m->ret_cap;
}

static void to_ret(memsys *m, l2_slice *s, uint32_t p, uint64_t ready)
{
    noc_pkt *pk = &m->pool[p];
    pk->ready = ready;
    pk->flits =
        (uint16_t)noc_flits(pk->bytes, m->cfg.noc.header, m->cfg.noc.channel_width);
    fifo_push(m->pool, &s->ret, p);
}

/* DRAM data of the oldest finished miss: install and answer its waiters. */
static bool l2_fill(memsys *m, l2_slice *s, uint32_t sl, uint64_t k)
{
    uint32_t e = s->fill_mshr[s->fill_head];
    uint32_t n = s->m.count[e];
    if (!ret_room(m, s, n) || s->wb_n + 1 + 2 * n > s->wb_cap)
        return false;
    s->fill_head = (s->fill_head + 1) % s->m.n;
    s->fill_n--;
    uint64_t key = s->m.key[e], victim;
    bool vd = false;
    if (cache_insert(&s->c, key, false, &victim, &vd) && vd) {
        wb_push(m, s, l2_line_addr(m, victim, sl), m->cfg.l2.line, DRAM_NO_SM);
        m->x.l2_writebacks++;
    }
    const uint32_t *wt = mshr_waiters(&s->m, e);
    for (uint32_t i = 0; i < n; i++) {
        noc_pkt *pk = &m->pool[wt[i]];
        if (pk->kind == PKT_ATOMIC)
            l2_store(m, s, sl, key, pk->local, pk->bytes, pk->sm);
        to_ret(m, s, wt[i], k + m->cfg.l2.hit_latency);
    }
    mshr_release(&s->m, e);
    return true;
}

/* The head request of partition pt's input, for slice sl; false = stall. */
static bool l2_accept(memsys *m, ms_part *pt, uint32_t sl, uint32_t p, uint64_t k)
{
    l2_slice *s = &pt->sl[sl];
    noc_pkt *pk = &m->pool[p];
    uint64_t local = pk->local;
    uint64_t key = (local >> m->l2_shift) / m->nslices;
    if (pk->kind != PKT_READ && s->wb_n + 2 > s->wb_cap)
        return false;
    if (pk->kind == PKT_WRITE) {
        bool ack = pk->flags & PKTF_ACK;
        if (ack && !ret_room(m, s, 1))
            return false;
        noc_eject(&m->req, m->pool, part_port(m, pt->id, sl), k);
        l2_store(m, s, sl, key, local, pk->bytes, pk->sm);
        if (ack) {
            /* the packet goes back as the acknowledgement, after the same
             * pipeline delay as a hit's data; GPGPU-Sim answers each
             * 32-byte sector with its own 8-byte (1-flit) WRITE_ACK */
            to_ret(m, s, p, k + m->cfg.l2.hit_latency);
            uint32_t sectors = (pk->bytes + 31u) / 32u;
            pk->flits = (uint16_t)(sectors ? sectors : 1u);
        } else {
            pkt_release(m, p);
        }
    } else if (cache_lookup(&s->c, key, true)) {
        if (!ret_room(m, s, 1))
            return false;
        noc_eject(&m->req, m->pool, part_port(m, pt->id, sl), k);
        m->st.l2_hits++;
        if (pk->kind == PKT_ATOMIC)
            l2_store(m, s, sl, key, local, pk->bytes, pk->sm);
        to_ret(m, s, p, k + m->cfg.l2.hit_latency);
    } else {
        uint32_t e = mshr_find(&s->m, key);
        if (e != MSHR_NONE) {
            if (mshr_full(&s->m, e))
                return false;
            m->st.l2_mshr_merges++;
        } else {
            if (!s->m.nfree || dram_full(pt->dr))
                return false;
            e = mshr_alloc(&s->m, key, 0);
            dram_req r = {l2_line_addr(m, key, sl), (sl << 16) | e, pk->sm,
                          (uint16_t)m->cfg.l2.line, false};
            uint64_t at = conv_after(m, D_L2, k + m->cfg.dram.latency, D_DRAM);
            dram_push(pt->dr, &r, at);
            m->dram_pending++;
            wake_dram(m, pt, at);
        }
        noc_eject(&m->req, m->pool, part_port(m, pt->id, sl), k);
        mshr_add(&s->m, e, p);
        m->st.l2_misses++;
    }
    m->x.l2_accesses++;
    m->st.served_per_sm[pk->sm]++;
    return true;
}

static uint64_t part_l2_tick(memsys *m, ms_part *pt, uint64_t k)
{
    /* fills first: they free MSHRs the new requests may need */
    for (uint32_t sl = 0; sl < m->nslices; sl++) {
        l2_slice *s = &pt->sl[sl];
        if (s->fill_n && s->fill_ready[s->fill_head] <= k)
            l2_fill(m, s, sl, k);
    }
    /* new requests in arrival order (per port), one per slice per cycle */
    uint32_t used = 0;
    for (uint32_t j = 0; j < m->ports_pp; j++) {
        pkt_fifo *in = &m->req.out[pt->id * m->ports_pp + j];
        while (in->n && m->pool[in->head].ready <= k) {
            uint32_t p = in->head;
            uint32_t sl = m->pool[p].slice;
            if (used & (1u << sl))
                break;
            used |= 1u << sl;
            if (!l2_accept(m, pt, sl, p, k))
                break;
        }
    }
    /* write-backs into the DRAM queue, one per slice per cycle */
    for (uint32_t sl = 0; sl < m->nslices; sl++) {
        l2_slice *s = &pt->sl[sl];
        if (!s->wb_n || dram_full(pt->dr))
            continue;
        dram_req r = {s->wb_addr[s->wb_head], UINT32_MAX, s->wb_sm[s->wb_head],
                      s->wb_bytes[s->wb_head], true};
        s->wb_head = (s->wb_head + 1) % s->wb_cap;
        s->wb_n--;
        uint64_t at = conv_after(m, D_L2, k + m->cfg.dram.latency, D_DRAM);
        dram_push(pt->dr, &r, at);
        wake_dram(m, pt, at);
    }
    /* replies whose latency has passed go to the partition's NoC port */
    for (uint32_t j = 0, sl = pt->rr; j < m->nslices; j++, sl = sl + 1 == m->nslices ? 0 : sl + 1) {
        l2_slice *s = &pt->sl[sl];
        while (s->ret.n && m->pool[s->ret.head].ready <= k &&
               noc_can_inject(&m->rep, part_port(m, pt->id, sl),
                              m->pool[s->ret.head].flits)) {
            uint32_t p = fifo_pop(m->pool, &s->ret);
            noc_pkt *pk = &m->pool[p];
            pk->dst = (uint16_t)m->sm[pk->sm].cluster;
            pk->ready = conv_after(m, D_L2, k, D_ICNT);
            noc_inject(&m->rep, m->pool, part_port(m, pt->id, sl), p);
            wake(m, D_ICNT, pk->ready);
        }
    }
    pt->rr = pt->rr + 1 == m->nslices ? 0 : pt->rr + 1;
    uint64_t nxt = NEVER;
    for (uint32_t sl = 0; sl < m->nslices; sl++) {
        l2_slice *s = &pt->sl[sl];
        if (s->fill_n)
            nxt = min64(nxt, max64(k + 1, s->fill_ready[s->fill_head]));
        if (s->ret.n)
            nxt = min64(nxt, max64(k + 1, m->pool[s->ret.head].ready));
        if (s->wb_n)
            nxt = k + 1;
    }
    for (uint32_t j = 0; j < m->ports_pp; j++) {
        const pkt_fifo *in = &m->req.out[pt->id * m->ports_pp + j];
        if (in->n)
            nxt = min64(nxt, max64(k + 1, m->pool[in->head].ready));
    }
    return nxt;
}

uint64_t mempart_l2_tick(memsys *m, uint64_t k)
{
    uint64_t nxt = NEVER;
    for (uint32_t i = 0; i < m->nparts; i++) {
        ms_part *pt = &m->part[i];
        if (pt->l2_next <= k) {
            pt->l2_next = NEVER;
            pt->l2_next = min64(pt->l2_next, part_l2_tick(m, pt, k));
        }
        nxt = min64(nxt, pt->l2_next);
    }
    return nxt;
}

/* ------------------------------------------------------------ DRAM clock */

static void dram_done(void *ctx, const dram_req *r, uint64_t done)
{
    ms_part *pt = ctx;
    memsys *m = pt->m;
    m->dram_pending--;
    if (r->write)
        return;
    l2_slice *s = &pt->sl[r->tag >> 16];
    uint32_t i = (s->fill_head + s->fill_n++) % s->m.n;
    s->fill_mshr[i] = r->tag & 0xffffu;
    s->fill_ready[i] = conv_ceil(m, D_DRAM, done, D_L2);
    wake_l2(m, pt, s->fill_ready[i]);
}

uint64_t mempart_dram_tick(memsys *m, uint64_t k)
{
    uint64_t nxt = NEVER;
    for (uint32_t i = 0; i < m->nparts; i++) {
        ms_part *pt = &m->part[i];
        if (pt->dram_next <= k) {
            pt->dram_next = NEVER;
            pt->dram_next = min64(pt->dram_next, dram_tick(pt->dr, k, dram_done, pt));
        }
        nxt = min64(nxt, pt->dram_next);
    }
    return nxt;
}

/* ------------------------------------------------------------ setup */

void mempart_create(memsys *m, const gpu_config *cfg)
{
    m->part = g_new0(ms_part, m->nparts);
    uint64_t slice_lines = cfg->l2.partition_size / m->nslices / cfg->l2.line;
    for (uint32_t p = 0; p < m->nparts; p++) {
        ms_part *pt = &m->part[p];
        pt->m = m;
        pt->id = p;
        pt->l2_next = pt->dram_next = NEVER;
        pt->dr = dram_create(cfg);
        pt->sl = g_new0(l2_slice, m->nslices);
        for (uint32_t sl = 0; sl < m->nslices; sl++) {
            l2_slice *s = &pt->sl[sl];
            cache_init(&s->c, slice_lines, cfg->l2.assoc, cfg->l2.replacement);
            mshr_init(&s->m, cfg->l2.mshrs, cfg->l2.mshr_merge);
            fifo_init(&s->ret);
            s->fill_mshr = g_new(uint32_t, cfg->l2.mshrs);
            s->fill_ready = g_new(uint64_t, cfg->l2.mshrs);
            s->wb_cap = cfg->l2.mshrs + 2 * cfg->l2.mshr_merge + 4;
            s->wb_addr = g_new(uint64_t, s->wb_cap);
            s->wb_bytes = g_new(uint16_t, s->wb_cap);
            s->wb_sm = g_new(uint16_t, s->wb_cap);
        }
    }
}

void mempart_destroy(memsys *m)
{
    for (uint32_t p = 0; p < m->nparts; p++) {
        ms_part *pt = &m->part[p];
        for (uint32_t sl = 0; sl < m->nslices; sl++) {
            l2_slice *s = &pt->sl[sl];
            cache_free(&s->c);
            mshr_free(&s->m);
            g_free(s->fill_mshr);
            g_free(s->fill_ready);
            g_free(s->wb_addr);
            g_free(s->wb_bytes);
            g_free(s->wb_sm);
        }
        g_free(pt->sl);
        dram_destroy(pt->dr);
    }
    g_free(m->part);
}
