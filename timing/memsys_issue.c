/* timing/memsys_issue.c — the SM side of the memory system: an issuing
 * warp instruction's accesses coalesced and looked up in the SM's L1 /
 * constant / texture cache, MSHRs taken, packets queued towards the
 * cluster port (the rest of the path is memsys.c and mempart.c).
 *
 * Everything here changes only the issuing SM's ms_sm.  What it would
 * change outside (the completion heap, the cluster's queue count, the NoC
 * wake-up, the pool counts, the touched bits) goes to the SM's front
 * (ms_front) and is applied by memsys_commit in SM order, or at once
 * outside a batch, so the SMs of one cycle can issue on several host
 * threads (timing/gpu_par.c) and leave the same state as one thread. */
#include "timing/memsys.h"
#include "timing/memsys_internal.h"

#include <glib.h>
#include <string.h>

/* ------------------------------------------------------------ the front */

static inline void front_touch(ms_sm *s)
{
    s->f.touched = true;
    s->f.dirty = true;
}

static inline uint32_t front_pkt(ms_sm *s, memsys *m)
{
    front_touch(s);
    s->f.pkts++;
    return pkt_take(m, s);
}

/* Queues packet p (this SM's) towards the cluster port from NoC tick `ready`. */
static void front_missq(memsys *m, ms_sm *s, uint32_t p, uint64_t ready)
{
    missq_link(m, s, p, ready);
    front_touch(s);
    s->f.missq++;
    if (ready < s->f.wake_icnt)
        s->f.wake_icnt = ready;
}

/* Instruction record i completes at core cycle `cycle` (a heap push once
 * committed; the heap orders equal cycles by push order). */
static inline void front_done(ms_sm *s, uint64_t cycle, uint32_t i)
{
    s->f.ev[s->f.nev++] = (ms_event){cycle, 0, 0, i};
    s->f.dirty = true;
}

static uint32_t inst_alloc(memsys *m, ms_sm *s, uint64_t token, uint64_t c, bool load)
{
    (void)m;
    uint32_t i = s->inst_free[--s->ninst_free];
    front_touch(s);
    ms_inst *in = &s->inst[i];
    in->token = token;
    in->issue = in->done_at = c;
    in->pending = 0;
    in->load = load;
    s->f.insts++;
    if (load && s->loads_out++ == 0)
        s->busy_since = c;
    return i;
}

/* ------------------------------------------------------------ issue */

static inline bool missq_room(const memsys *m, const ms_sm *s, uint32_t need)
{
    return s->missq.n == 0 || s->missq.n + need <= m->missq_cap;
}

/* A write packet for `bytes` at line address `addr`, ready at core cycle r. */
static void send_write(memsys *m, ms_sm *s, uint64_t addr, uint32_t bytes, uint64_t r)
{
    uint32_t p = front_pkt(s, m);
    init_pkt(&m->pool[p], addr, PKT_WRITE, 0, bytes, 0);
    front_missq(m, s, p, conv_ceil(m, D_CORE, r, D_ICNT));
}

/* A store's own write (not a victim's write-back): with l2.write_ack the L2
 * answers it and store record i waits for that answer. */
static void send_store_write(memsys *m, ms_sm *s, uint32_t i, uint64_t addr,
                             uint32_t bytes, uint64_t r)
{
    if (!m->cfg.l2.write_ack) {
        send_write(m, s, addr, bytes, r);
        return;
    }
    uint32_t p = front_pkt(s, m);
    init_pkt(&m->pool[p], addr, PKT_WRITE, PKTF_ACK, bytes, i);
    s->inst[i].pending++;
    front_missq(m, s, p, conv_ceil(m, D_CORE, r, D_ICNT));
}

static int read_sel(uint8_t space)
{
    return space == EX_SPACE_TEX ? SEL_TEX : coal_is_const(space) ? SEL_CONST : SEL_L1;
}
static uint32_t sel_line(const memsys *m, int sel)
{
    return sel == SEL_TEX ? m->cfg.tex_cache.line
           : sel == SEL_CONST ? m->cfg.const_cache.line : m->cfg.l1d.line;
}

/* Loads through the L1 data cache (global, local), the constant cache or
 * the texture cache. */
static bool issue_read(memsys *m, ms_sm *s, uint64_t token, uint64_t c,
                       int sel, bool local, bool bypass)
{
    const coal_out *co = s->f.cur;
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
        s->f.refused_fresh = fresh;
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
    /* l1d.latency_queue: a miss is found l1d.hit_latency cycles after issue */
    uint64_t lq = sel == SEL_L1 && cached && m->cfg.l1d.latency_queue ? hit_lat - 1 : 0;
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
        uint32_t p = front_pkt(s, m);
        uint32_t bytes = cached ? line_bytes : popcount32(co->tx[j].sectors) * COAL_SECTOR;
        init_pkt(&m->pool[p], co->tx[j].line, PKT_READ, flags, bytes, i);
        if (t->nfree) {
            e = mshr_alloc(t, key, flags);
            mshr_add(t, e, i);
            s->fills++;
        } else {
            m->pool[p].flags |= PKTF_NOMSHR;
        }
        uint64_t r = c + (cst ? passes : j + 1 + lq) + extra;
        front_missq(m, s, p, conv_ceil(m, D_CORE, r, D_ICNT));
    }
    if (cst) {
        s->n.const_hits += hits;
        s->n.const_misses += misses;
    } else if (tex) {
        s->n.tex_hits += hits;
        s->n.tex_misses += misses;
    } else if (ordered) {
        s->n.l1_bypasses += misses;
        s->n.l1_mshr_merges += merges;
        s->n.l1_accesses += co->ntx;
    } else {
        s->n.l1_hits += hits;
        s->n.l1_misses += misses;
        s->n.l1_mshr_merges += merges;
        s->n.l1_accesses += co->ntx;
    }
    s->n.transactions += co->ntx;
    s->n.warp_accesses++;
    s->port_free = c + passes;
    if (in->pending == 0)
        front_done(s, in->done_at, i);
    return true;
refuse:
    s->n.l1_reservation_fails++;
    return false;
}

static bool issue_store(memsys *m, ms_sm *s, uint64_t token, uint64_t c,
                        bool local, bool through)
{
    const coal_out *co = s->f.cur;
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
    /* l1d.latency_queue: the write leaves l1d.hit_latency cycles after issue */
    uint64_t lq = m->cfg.l1d.latency_queue ? m->cfg.l1d.hit_latency - 1 : 0;
    if (need > s->npkt_free || !missq_room(m, s, need)) {
        s->n.l1_reservation_fails++;
        return false;
    }
    uint32_t i = inst_alloc(m, s, token, c, false);
    for (uint32_t j = 0; j < co->ntx; j++) {
        uint64_t line = co->tx[j].line, key = line >> m->l1_shift, victim;
        uint32_t bytes = popcount32(co->tx[j].sectors) * COAL_SECTOR;
        uint64_t r = c + j + 1 + lq;
        bool vd = false;
        switch (pol) {
        case GPU_WRITE_BACK:
            if (cache_mark_dirty(&s->l1, key))
                break;
            if (alloc) {
                s->fills++;
                if (cache_insert(&s->l1, key, true, &victim, &vd) && vd) {
                    send_write(m, s, victim << m->l1_shift, m->cfg.l1d.line, r);
                    s->n.l1_writebacks++;
                }
                break;
            }
            send_store_write(m, s, i, line, bytes, r);
            break;
        case GPU_WRITE_THROUGH:
            if (!cache_lookup(&s->l1, key, true) && alloc && ++s->fills &&
                cache_insert(&s->l1, key, false, &victim, &vd) && vd) {
                send_write(m, s, victim << m->l1_shift, m->cfg.l1d.line, r);
                s->n.l1_writebacks++;
            }
            send_store_write(m, s, i, line, bytes, r);
            break;
        default: /* write-evict */
            cache_invalidate(&s->l1, key, NULL);
            send_store_write(m, s, i, line, bytes, r);
            break;
        }
    }
    s->n.l1_accesses += co->ntx;
    s->n.transactions += co->ntx;
    s->n.warp_accesses++;
    s->port_free = c + co->ntx;
    /* a store is done once the L1 has accepted its last transaction, or
     * with l2.write_ack once the L2 has answered all its writes */
    s->inst[i].done_at = c + co->ntx;
    if (s->inst[i].pending == 0)
        front_done(s, s->inst[i].done_at, i);
    return true;
}

static bool issue_atomic(memsys *m, ms_sm *s, uint64_t token, uint64_t c)
{
    const coal_out *co = s->f.cur;
    if (co->ntx > s->npkt_free || !missq_room(m, s, co->ntx)) {
        s->n.l1_reservation_fails++;
        return false;
    }
    uint32_t i = inst_alloc(m, s, token, c, false);
    s->inst[i].pending = co->ntx;
    for (uint32_t j = 0; j < co->ntx; j++) {
        /* performed at L2: drop any stale L1 copy */
        cache_invalidate(&s->l1, co->tx[j].line >> m->l1_shift, NULL);
        uint32_t p = front_pkt(s, m);
        init_pkt(&m->pool[p], co->tx[j].line, PKT_ATOMIC, 0,
                 popcount32(co->tx[j].sectors) * COAL_SECTOR, i);
        front_missq(m, s, p, conv_ceil(m, D_CORE, c + j + 1, D_ICNT));
    }
    s->n.l1_accesses += co->ntx;
    s->n.transactions += co->ntx;
    s->n.warp_accesses++;
    s->port_free = c + co->ntx;
    return true;
}

bool memsys_issue(memsys *m, uint32_t smi, uint32_t warp, const ex_access *acc,
                  uint64_t token, uint64_t c)
{
    return memsys_issue_flags(m, smi, warp, acc, token, c, 0);
}

static bool issue_flags(memsys *m, uint32_t smi, uint32_t warp, const ex_access *acc,
                        uint64_t token, uint64_t c, unsigned flags)
{
    ms_sm *s = &m->sm[smi];
    s->f.refused_quick = false;
    if (s->ninst_free == 0) {
        s->n.l1_reservation_fails++;
        return false;
    }
    if (acc->mask == 0 || acc->space == EX_SPACE_SHARED) {
        /* nothing for the memory system: done next cycle */
        uint32_t i = inst_alloc(m, s, token, c, false);
        front_done(s, c + 1, i);
        return true;
    }
    if (s->port_free > c) {
        s->n.l1_port_stalls++;
        return false;
    }
    bool local = coal_is_local(acc->space);
    flags = ms_order_flags(m, acc, flags);
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
            s->n.l1_reservation_fails++;
            s->f.refused_quick = true;
            return false;
        }
        if (r->known && r->fresh != UINT32_MAX && !acc->atomic && !acc->write) {
            /* refused for want of MSHRs: fresh lines can have dropped by at
             * most the fills since, so while that bound still exceeds the
             * free MSHRs (not all free) the check would refuse again */
            const mshr_table *t = sel_mshrs(s, read_sel(acc->space));
            uint64_t gone = s->fills - r->fills_at;
            if (gone < r->fresh && r->fresh - gone > t->nfree && t->nfree < t->n) {
                s->n.l1_reservation_fails++;
                s->f.refused_quick = true;
                /* what a full check's refusal records (the unchanged-state
                 * path above then behaves exactly as without this one) */
                r->ver = s->ver;
                r->npkt_free = s->npkt_free;
                r->missq_n = s->missq.n;
                return false;
            }
        }
        s->f.cur = &r->co;
    } else if (acc->atomic && acc->space == EX_SPACE_GLOBAL && m->cfg.l2.atomic_serialize) {
        coalesce_atomic(acc, sel_line(m, read_sel(acc->space)), &s->f.co);
        s->f.cur = &s->f.co;
    } else {
        coalesce(acc, smi, warp, sel_line(m, read_sel(acc->space)), &s->f.co);
        s->f.cur = &s->f.co;
    }
    bool ok;
    s->f.refused_fresh = UINT32_MAX;
    if (acc->atomic)
        ok = issue_atomic(m, s, token, c);
    else if (acc->write)
        ok = issue_store(m, s, token, c, local, (flags & MS_WRITE_THROUGH) != 0);
    else
        ok = issue_read(m, s, token, c, read_sel(acc->space), local,
                        (flags & MEMSYS_BYPASS_L1) != 0);
    if (ok) {
        s->ver++;
        front_touch(s);
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
        r->co.ntx = s->f.co.ntx;
        r->co.naddrs = s->f.co.naddrs;
        memcpy(r->co.tx, s->f.co.tx, s->f.co.ntx * sizeof s->f.co.tx[0]);
    }
    r->known = true;
    r->fresh = s->f.refused_fresh;
    r->fills_at = s->fills;
    r->ver = s->ver;
    r->npkt_free = s->npkt_free;
    r->missq_n = s->missq.n;
    return false;
}

bool memsys_issue_flags(memsys *m, uint32_t smi, uint32_t warp, const ex_access *acc,
                        uint64_t token, uint64_t c, unsigned flags)
{
    bool ok = issue_flags(m, smi, warp, acc, token, c, flags);
    if (!m->batch && m->sm[smi].f.dirty)
        ms_front_apply(m, smi);
    return ok;
}

/* ------------------------------------------------------------ fetch */

bool memsys_ifetch(memsys *m, uint32_t smi, uint64_t addr, uint32_t bytes, uint64_t token,
                   uint64_t c)
{
    ms_sm *s = &m->sm[smi];
    s->f.refused_quick = false;
    if (s->ninst_free == 0 || s->npkt_free == 0 || !missq_room(m, s, 1))
        return false;
    uint32_t i = inst_alloc(m, s, token, c, false);
    s->inst[i].pending = 1;
    uint32_t p = front_pkt(s, m);
    /* no SM cache fills from it (NOMSHR) and it passes no ICC unit or
     * locality window (CONST, LOCAL): the reply only completes `i` */
    init_pkt(&m->pool[p], addr, PKT_READ, PKTF_NOMSHR | PKTF_CONST | PKTF_LOCAL, bytes, i);
    front_missq(m, s, p, conv_ceil(m, D_CORE, c + 1, D_ICNT));
    s->ver++;
    if (!m->batch && s->f.dirty)
        ms_front_apply(m, smi);
    return true;
}

/* ------------------------------------------------------------ queries */

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
        if (m->touched[w]) /* mostly one word: no memset call */
            m->touched[w] = 0;
}

bool memsys_last_refusal_quick(const memsys *m, uint32_t smi)
{
    return m->sm[smi].f.refused_quick;
}

void memsys_count_refusals(memsys *m, uint32_t smi, uint64_t n)
{
    m->sm[smi].n.l1_reservation_fails += n;
}
