/* timing/coalesce.c — warp accesses -> line transactions (see coalesce.h). */
#include "timing/coalesce.h"

#include <string.h>

/* Adds bytes [a, a + n) (within one line) to the transaction list. */
static inline void add_piece(coal_out *out, uint64_t a, uint32_t n, uint64_t lmask)
{
    uint64_t line = a & ~lmask;
    uint32_t off = (uint32_t)(a & lmask);
    uint32_t s0 = off / COAL_SECTOR, s1 = (off + n - 1) / COAL_SECTOR;
    uint32_t sec = (s1 >= 31 ? ~0u : ((1u << (s1 + 1)) - 1)) & ~((1u << s0) - 1);
    /* neighbouring lanes almost always share the last line: check it first */
    if (out->ntx && out->tx[out->ntx - 1].line == line) {
        out->tx[out->ntx - 1].sectors |= sec;
        return;
    }
    for (uint32_t i = 0; i + 1 < out->ntx; i++)
        if (out->tx[i].line == line) {
            out->tx[i].sectors |= sec;
            return;
        }
    if (out->ntx < COAL_MAX_TX)
        out->tx[out->ntx++] = (coal_tx){line, sec};
}

/* Lines already in the list, by a small open-addressing table, for the
 * fast path's scattered warps: 32 lanes on 32 lines cost 32 probes instead
 * of ~500 compares (atax's column walks spent ~1,950 instructions per
 * coalesce).  Built only once LT_FROM transactions exist; the list and its
 * order are exactly those of add_piece. */
#define LT_FROM 4u
#define LT_SLOTS 64u /* > 2 x the 32 lines a warp's lanes can touch */
typedef struct line_table {
    bool on;
    uint8_t idx[LT_SLOTS]; /* transaction index, 0xff empty */
} line_table;

static inline uint32_t lt_hash(uint64_t line)
{
    /* lines are multiples of 32 bytes; a collision only costs a probe */
    return (uint32_t)(((line >> 5) * 0x9E3779B97F4A7C15ull) >> 58); /* 6 bits */
}

static inline void lt_put(line_table *lt, uint64_t line, uint32_t i)
{
    uint32_t h = lt_hash(line);
    while (lt->idx[h] != 0xff)
        h = (h + 1) & (LT_SLOTS - 1);
    lt->idx[h] = (uint8_t)i;
}

/* As add_piece for one aligned sector-sized piece of line `line`. */
static inline void lt_add(line_table *lt, coal_out *out, uint64_t line, uint32_t sec)
{
    if (!lt->on) {
        memset(lt->idx, 0xff, sizeof lt->idx);
        for (uint32_t i = 0; i < out->ntx; i++)
            lt_put(lt, out->tx[i].line, i);
        lt->on = true;
    }
    uint32_t h = lt_hash(line);
    for (; lt->idx[h] != 0xff; h = (h + 1) & (LT_SLOTS - 1))
        if (out->tx[lt->idx[h]].line == line) {
            out->tx[lt->idx[h]].sectors |= sec;
            return;
        }
    lt->idx[h] = (uint8_t)out->ntx;
    out->tx[out->ntx++] = (coal_tx){line, sec};
}

/* Adds [a, a + n) split at line boundaries (a misaligned wide access may
 * straddle two lines). */
static inline void add_range(coal_out *out, uint64_t a, uint32_t n, uint64_t lmask)
{
    while (n) {
        uint32_t room = (uint32_t)(lmask + 1 - (a & lmask));
        uint32_t k = n < room ? n : room;
        add_piece(out, a, k, lmask);
        a += k;
        n -= k;
    }
}

void coalesce(const ex_access *acc, uint32_t sm, uint32_t warp, uint32_t line,
              coal_out *out)
{
    out->ntx = 0;
    out->naddrs = 0;
    uint64_t lmask = (uint64_t)line - 1;
    uint32_t size = acc->size ? acc->size : 1;
    uint32_t m = acc->mask;
    if (coal_is_local(acc->space)) {
        while (m) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            m &= m - 1;
            /* each 4-byte word of the lane's access lands in its own
             * 128-byte chunk (word interleaving across lanes) */
            uint64_t off = acc->addr[l], end = off + size;
            while (off < end) {
                uint64_t wend = (off | 3u) + 1;
                uint32_t n = (uint32_t)((wend < end ? wend : end) - off);
                add_range(out, coal_local_addr(sm, warp, l, off), n, lmask);
                off += n;
            }
        }
        out->naddrs = out->ntx;
        return;
    }
    uint64_t base = acc->space == EX_SPACE_KPARAM ? COAL_KPARAM_BASE : 0;
    bool count_addrs = coal_is_const(acc->space);
    if (!count_addrs && size <= COAL_SECTOR && !(size & (size - 1))) {
        /* fast path: an aligned power-of-two access never leaves its
         * sector; unaligned lanes (the executor faults on them) take the
         * general path */
        line_table lt;
        lt.on = false;
        bool hashed = true;
        while (m) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            m &= m - 1;
            uint64_t a = acc->addr[l];
            if (a & (size - 1)) {
                add_range(out, a, size, lmask);
                hashed = false; /* the table no longer lists every line */
                continue;
            }
            uint64_t line_a = a & ~lmask;
            uint32_t sec = 1u << ((a & lmask) / COAL_SECTOR);
            if (out->ntx && out->tx[out->ntx - 1].line == line_a)
                out->tx[out->ntx - 1].sectors |= sec;
            else if (hashed && out->ntx >= LT_FROM)
                lt_add(&lt, out, line_a, sec);
            else
                add_piece(out, a, size, lmask);
        }
        out->naddrs = out->ntx;
        return;
    }
    if (m) {
        /* every lane on one address (kernel parameters, constants): the
         * lanes after the first add exactly its pieces again */
        uint64_t a0 = acc->addr[__builtin_ctz(m)], diff = 0;
        for (uint32_t r = m; r; r &= r - 1)
            diff |= acc->addr[__builtin_ctz(r)] ^ a0;
        if (!diff) {
            add_range(out, base + a0, size, lmask);
            out->naddrs = count_addrs ? 1 : out->ntx;
            return;
        }
    }
    while (m) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        m &= m - 1;
        uint64_t a = base + acc->addr[l];
        add_range(out, a, size, lmask);
        if (count_addrs) {
            /* the constant cache serves one distinct address per pass */
            bool seen = false;
            for (uint32_t p = acc->mask & ((1u << l) - 1); p && !seen; p &= p - 1)
                seen = acc->addr[__builtin_ctz(p)] == acc->addr[l];
            out->naddrs += !seen;
        }
    }
    if (!count_addrs)
        out->naddrs = out->ntx;
}

void coalesce_atomic(const ex_access *acc, uint32_t line, coal_out *out)
{
    /* Lanes have one size and aligned addresses (the executor faults on
     * others), so two lanes' bytes overlap exactly when their addresses
     * are equal, and the rule puts the k-th lane (from 0) on an address
     * into the k-th transaction of its line: the earlier ones each hold
     * one lane on that address. */
    out->ntx = 0;
    uint64_t lmask = (uint64_t)line - 1;
    uint32_t size = acc->size ? acc->size : 1;
    uint64_t seen[WARP_SIZE];
    uint32_t n = 0;
    for (uint32_t m = acc->mask; m; m &= m - 1) {
        uint64_t a = acc->addr[__builtin_ctz(m)];
        if ((a & lmask) + size > line) {
            add_range(out, a, size, lmask); /* straddles (the executor faults) */
            continue;
        }
        uint32_t rank = 0;
        for (uint32_t j = 0; j < n; j++)
            rank += seen[j] == a;
        seen[n++] = a;
        uint64_t la = a & ~lmask;
        uint32_t t = out->ntx;
        for (uint32_t i = 0, k = 0; i < out->ntx; i++)
            if (out->tx[i].line == la && k++ == rank) {
                t = i;
                break;
            }
        if (t == out->ntx) {
            if (out->ntx == COAL_MAX_TX)
                continue;
            out->tx[out->ntx++] = (coal_tx){la, 0};
        }
        out->tx[t].sectors |= 1u << ((a & lmask) / COAL_SECTOR);
    }
    out->naddrs = out->ntx;
}
