/* timing/dram.c — one partition's DRAM channel (see dram.h). */
#include "timing/dram.h"

#include <glib.h>
#include <string.h>

/* orow's closed bank: no request's row (addr / (row_buffer * banks)) */
#define DRAM_NO_ROW UINT64_MAX

typedef struct dram_bank {
    bool open;
    uint64_t row;
    uint64_t act_ok, cas_ok, pre_ok;  /* earliest cycle for each command */
} dram_bank;

typedef struct dram_entry {
    dram_req r;
    uint64_t arrive, seq, row;
    uint32_t bank;
    uint16_t cas_left;
    bool acted, started;
} dram_entry;

struct dram {
    uint32_t tCL, tRP, tRC, tRAS, tRCD, tRRD, tCCD, tWR;
    uint32_t nbanks, qsize, nq;
    uint64_t row_buffer;
    uint32_t burst_bytes, burst_cycles;
    bool fcfs;
    dram_bank *bank;
    dram_entry *q;      /* nq entries, oldest first */
    uint32_t *miss;     /* dram_tick's scratch: arrived row misses, oldest first */
    uint64_t *orow;     /* per bank: its open row, DRAM_NO_ROW when closed */
    uint64_t seq;
    uint64_t act_ok, cas_ok, bus_free;  /* channel-wide: tRRD, tCCD, data bus */
    int32_t last_sm;
    dram_stats st;
};

dram *dram_create(const gpu_config *cfg)
{
    dram *d = g_new0(dram, 1);
    d->tCL = cfg->dram.tCL;
    d->tRP = cfg->dram.tRP;
    d->tRC = cfg->dram.tRC;
    d->tRAS = cfg->dram.tRAS;
    d->tRCD = cfg->dram.tRCD;
    d->tRRD = cfg->dram.tRRD;
    d->tCCD = cfg->dram.tCCD;
    d->tWR = cfg->dram.tWR;
    d->nbanks = cfg->dram.banks;
    d->qsize = cfg->dram.queue_size;
    d->row_buffer = cfg->dram.row_buffer;
    d->burst_bytes = cfg->dram.bus_width / 8 * cfg->dram.burst_length;
    if (d->burst_bytes == 0)
        d->burst_bytes = 1;
    d->burst_cycles = (cfg->dram.burst_length + cfg->dram.data_rate - 1) / cfg->dram.data_rate;
    if (d->burst_cycles == 0)
        d->burst_cycles = 1;
    d->fcfs = cfg->dram.scheduler == GPU_DRAM_FCFS;
    d->bank = g_new0(dram_bank, d->nbanks);
    d->q = g_new0(dram_entry, d->qsize);
    d->miss = g_new0(uint32_t, d->qsize);
    d->orow = g_new(uint64_t, d->nbanks);
    for (uint32_t i = 0; i < d->nbanks; i++)
        d->orow[i] = DRAM_NO_ROW;
    d->last_sm = -1;
    return d;
}

void dram_destroy(dram *d)
{
    if (!d)
        return;
    g_free(d->bank);
    g_free(d->q);
    g_free(d->miss);
    g_free(d->orow);
    g_free(d);
}

bool dram_full(const dram *d) { return d->nq >= d->qsize; }
bool dram_empty(const dram *d) { return d->nq == 0; }
const dram_stats *dram_get_stats(const dram *d) { return &d->st; }

void dram_push(dram *d, const dram_req *r, uint64_t arrive)
{
    dram_entry *e = &d->q[d->nq];
    e->r = *r;
    e->arrive = arrive;
    e->seq = d->seq++;
    e->bank = (uint32_t)((r->addr / d->row_buffer) % d->nbanks);
    e->row = r->addr / (d->row_buffer * d->nbanks);
    uint32_t ncas = (r->bytes + d->burst_bytes - 1) / d->burst_bytes;
    e->cas_left = (uint16_t)(ncas ? ncas : 1);
    e->acted = e->started = false;
    d->nq++;
}

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Earliest cycle the column command of a row hit may issue. */
static inline uint64_t cas_time(const dram *d, const dram_bank *b)
{
    uint64_t bus = d->bus_free > d->tCL ? d->bus_free - d->tCL : 0;
    return max64(max64(b->cas_ok, d->cas_ok), bus);
}

/* Earliest cycle of the PRE or ACT a row miss needs next. */
static inline uint64_t row_time(const dram *d, const dram_bank *b)
{
    return b->open ? b->pre_ok : max64(b->act_ok, d->act_ok);
}

static void issue_cas(dram *d, uint32_t i, uint64_t now, dram_done_fn done, void *ctx)
{
    dram_entry *e = &d->q[i];
    dram_bank *b = &d->bank[e->bank];
    if (!e->started) {
        e->started = true;
        if (e->acted)
            d->st.row_misses++;
        else
            d->st.row_hits++;
    }
    uint64_t end = now + d->tCL + d->burst_cycles;
    d->bus_free = end;
    d->cas_ok = now + d->tCCD;
    b->pre_ok = max64(b->pre_ok, e->r.write ? end + d->tWR : now + d->burst_cycles);
    d->st.bursts++;
    d->st.bus_busy += d->burst_cycles;
    d->st.bytes += d->burst_bytes;
    if (--e->cas_left)
        return;
    if (e->r.write)
        d->st.writes++;
    else
        d->st.reads++;
    if (e->r.sm != DRAM_NO_SM && d->last_sm == (int32_t)e->r.sm)
        d->st.same_sm++;
    d->last_sm = e->r.sm == DRAM_NO_SM ? -1 : e->r.sm;
    dram_req r = e->r;
    /* keep the queue compact and in age order */
    memmove(e, e + 1, (size_t)(d->nq - i - 1) * sizeof *e);
    d->nq--;
    done(ctx, &r, end);
}

static void issue_row(dram *d, dram_entry *e, uint64_t now)
{
    dram_bank *b = &d->bank[e->bank];
    e->acted = true;
    if (b->open) {
        b->open = false;
        d->orow[e->bank] = DRAM_NO_ROW;
        b->act_ok = max64(b->act_ok, now + d->tRP);
        d->st.precharges++;
    } else {
        b->open = true;
        b->row = e->row;
        d->orow[e->bank] = e->row;
        b->cas_ok = now + d->tRCD;
        b->pre_ok = now + d->tRAS;
        b->act_ok = now + d->tRC;
        d->act_ok = now + d->tRRD;
        d->st.activates++;
    }
}

static inline bool row_hit(const dram *d, const dram_entry *e)
{
    const dram_bank *b = &d->bank[e->bank];
    return b->open && b->row == e->row;
}

uint64_t dram_tick(dram *d, uint64_t now, dram_done_fn done, void *ctx)
{
    if (d->nq == 0)
        return DRAM_IDLE;
    uint64_t earliest = DRAM_IDLE;
    if (d->fcfs) {
        /* only the oldest arrived request may get a command */
        for (uint32_t i = 0; i < d->nq; i++) {
            dram_entry *e = &d->q[i];
            if (e->arrive > now) {
                earliest = earliest < e->arrive ? earliest : e->arrive;
                continue;
            }
            bool hit = row_hit(d, e);
            uint64_t t = hit ? cas_time(d, &d->bank[e->bank]) : row_time(d, &d->bank[e->bank]);
            if (t > now)
                return earliest < t ? earliest : t;
            if (hit)
                issue_cas(d, i, now, done, ctx);
            else
                issue_row(d, e, now);
            return now + 1;
        }
        return earliest;
    }
    /* pass 1, oldest first: the first row hit that can go now goes; the
     * arrived row misses are remembered for pass 2 (no command issues in
     * between, so the banks' rows stay as pass 1 saw them) */
    uint64_t hit_banks = 0;
    uint64_t bus = d->bus_free > d->tCL ? d->bus_free - d->tCL : 0;
    uint64_t chan = max64(d->cas_ok, bus); /* cas_time's channel-wide part */
    uint32_t nmiss = 0;
    for (uint32_t i = 0; i < d->nq; i++) {
        dram_entry *e = &d->q[i];
        if (e->arrive > now) {
            earliest = earliest < e->arrive ? earliest : e->arrive;
            continue;
        }
        if (d->orow[e->bank] != e->row) { /* row_hit */
            d->miss[nmiss++] = i;
            continue;
        }
        hit_banks |= 1ull << (e->bank & 63);
        uint64_t t = max64(d->bank[e->bank].cas_ok, chan);
        if (t <= now) {
            issue_cas(d, i, now, done, ctx);
            return now + 1;
        }
        earliest = earliest < t ? earliest : t;
    }
    /* pass 2: the oldest row miss whose PRE/ACT can go now; a bank with a
     * queued row hit keeps its row open */
    for (uint32_t j = 0; j < nmiss; j++) {
        dram_entry *e = &d->q[d->miss[j]];
        if (hit_banks >> (e->bank & 63) & 1)
            continue;
        uint64_t t = row_time(d, &d->bank[e->bank]);
        if (t <= now) {
            issue_row(d, e, now);
            return now + 1;
        }
        earliest = earliest < t ? earliest : t;
    }
    return earliest;
}
