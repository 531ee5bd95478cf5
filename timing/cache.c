/* timing/cache.c — tag arrays, line maps and MSHR tables (see cache.h). */
#include "timing/cache.h"

#include "timing/config.h"

#include <glib.h>
#include <string.h>

/* ------------------------------------------------------------ tag array */

void cache_init(cache *c, uint64_t lines, uint32_t assoc, int32_t repl)
{
    if (assoc == 0)
        assoc = 1;
    uint64_t sets = lines / assoc;
    c->nsets = sets ? (uint32_t)sets : 1;
    c->set_mask = (c->nsets & (c->nsets - 1)) == 0 ? c->nsets - 1 : 0;
    c->assoc = assoc;
    c->repl = repl;
    size_t n = (size_t)c->nsets * assoc;
    c->key = g_new(uint64_t, n);
    c->stamp = g_new0(uint64_t, n);
    c->dirty = g_new0(uint8_t, n);
    for (size_t i = 0; i < n; i++)
        c->key[i] = CACHE_NO_KEY;
    c->clock = 0;
}

void cache_free(cache *c)
{
    g_free(c->key);
    g_free(c->stamp);
    g_free(c->dirty);
    memset(c, 0, sizeof *c);
}

void cache_set_fermi_hash(cache *c, uint32_t line_lg)
{
    c->hash_lg = (uint8_t)line_lg;
}

/* Address bit b of a key that is address >> lg (b >= lg). */
#define ABIT(key, lg, b) (((key) >> ((b) - (lg))) & 1u)

static uint64_t fermi_set(const cache *c, uint64_t key)
{
    uint32_t lg = c->hash_lg;
    uint64_t upper = ABIT(key, lg, 13) | ABIT(key, lg, 14) << 1 | ABIT(key, lg, 15) << 2 |
                     ABIT(key, lg, 17) << 3 | ABIT(key, lg, 19) << 4;
    uint64_t set = (key & 0x1f) ^ upper;
    if (c->nsets == 64)
        set |= ABIT(key, lg, 12) << 5;
    return set;
}

static inline size_t set_base(const cache *c, uint64_t key)
{
    if (c->hash_lg)
        return (size_t)fermi_set(c, key) * c->assoc;
    /* a 64-bit divide per lookup showed in the profile: mask when we can */
    uint64_t set = c->set_mask || c->nsets == 1 ? key & c->set_mask : key % c->nsets;
    return (size_t)set * c->assoc;
}

/* Way index of key within the whole array, or SIZE_MAX. */
static inline size_t find_way(const cache *c, uint64_t key)
{
    size_t b = set_base(c, key);
    for (uint32_t w = 0; w < c->assoc; w++)
        if (c->key[b + w] == key)
            return b + w;
    return SIZE_MAX;
}

bool cache_lookup(cache *c, uint64_t key, bool touch)
{
    size_t i = find_way(c, key);
    if (i == SIZE_MAX)
        return false;
    if (touch && c->repl == GPU_REPL_LRU)
        c->stamp[i] = ++c->clock;
    return true;
}

bool cache_mark_dirty(cache *c, uint64_t key)
{
    size_t i = find_way(c, key);
    if (i == SIZE_MAX)
        return false;
    c->dirty[i] = 1;
    if (c->repl == GPU_REPL_LRU)
        c->stamp[i] = ++c->clock;
    return true;
}

bool cache_set_clean(cache *c, uint64_t key)
{
    size_t i = find_way(c, key);
    if (i == SIZE_MAX)
        return false;
    c->dirty[i] = 0;
    return true;
}

bool cache_invalidate(cache *c, uint64_t key, bool *was_dirty)
{
    size_t i = find_way(c, key);
    if (was_dirty)
        *was_dirty = i != SIZE_MAX && c->dirty[i];
    if (i == SIZE_MAX)
        return false;
    c->key[i] = CACHE_NO_KEY;
    c->dirty[i] = 0;
    return true;
}

uint32_t cache_drop_clean(cache *c, uint64_t key_limit)
{
    uint32_t n = 0;
    size_t ways = (size_t)c->nsets * c->assoc;
    for (size_t i = 0; i < ways; i++)
        if (c->key[i] < key_limit && !c->dirty[i]) {
            c->key[i] = CACHE_NO_KEY;
            n++;
        }
    return n;
}

bool cache_insert(cache *c, uint64_t key, bool dirty, uint64_t *victim,
                  bool *victim_dirty)
{
    size_t b = set_base(c, key);
    size_t pick = SIZE_MAX;
    for (uint32_t w = 0; w < c->assoc; w++) {
        size_t i = b + w;
        if (c->key[i] == key) {
            if (c->repl == GPU_REPL_LRU)
                c->stamp[i] = ++c->clock;
            c->dirty[i] |= dirty;
            return false;
        }
        /* first invalid way, else the oldest stamp */
        if (pick == SIZE_MAX || (c->key[pick] != CACHE_NO_KEY &&
                                 (c->key[i] == CACHE_NO_KEY || c->stamp[i] < c->stamp[pick])))
            pick = i;
    }
    bool evicted = c->key[pick] != CACHE_NO_KEY;
    if (evicted) {
        *victim = c->key[pick];
        *victim_dirty = c->dirty[pick];
    }
    c->key[pick] = key;
    c->dirty[pick] = dirty;
    c->stamp[pick] = ++c->clock;
    return evicted;
}

/* ------------------------------------------------------------ line map */

static inline uint32_t lmap_hash(const lmap *m, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;
}

void lmap_init(lmap *m, uint32_t max_keys)
{
    uint32_t cap = 8;
    while (cap < 2 * max_keys + 2)
        cap *= 2;
    m->mask = cap - 1;
    m->keys = g_new(uint64_t, cap);
    m->vals = g_new(uint32_t, cap);
    for (uint32_t i = 0; i < cap; i++)
        m->keys[i] = CACHE_NO_KEY;
}

void lmap_free(lmap *m)
{
    g_free(m->keys);
    g_free(m->vals);
    memset(m, 0, sizeof *m);
}

uint32_t lmap_get(const lmap *m, uint64_t key)
{
    for (uint32_t i = lmap_hash(m, key);; i = (i + 1) & m->mask) {
        if (m->keys[i] == key)
            return m->vals[i];
        if (m->keys[i] == CACHE_NO_KEY)
            return UINT32_MAX;
    }
}

void lmap_put(lmap *m, uint64_t key, uint32_t val)
{
    uint32_t i = lmap_hash(m, key);
    while (m->keys[i] != CACHE_NO_KEY && m->keys[i] != key)
        i = (i + 1) & m->mask;
    m->keys[i] = key;
    m->vals[i] = val;
}

void lmap_del(lmap *m, uint64_t key)
{
    uint32_t i = lmap_hash(m, key);
    while (m->keys[i] != key) {
        if (m->keys[i] == CACHE_NO_KEY)
            return;
        i = (i + 1) & m->mask;
    }
    /* backward-shift deletion keeps every probe chain unbroken without
     * tombstones */
    for (;;) {
        m->keys[i] = CACHE_NO_KEY;
        uint32_t j = i;
        for (;;) {
            j = (j + 1) & m->mask;
            if (m->keys[j] == CACHE_NO_KEY)
                return;
            uint32_t home = lmap_hash(m, m->keys[j]);
            /* j may move to i when its home is not in (i, j] cyclically */
            bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (!stays)
                break;
        }
        m->keys[i] = m->keys[j];
        m->vals[i] = m->vals[j];
        i = j;
    }
}

/* ------------------------------------------------------------ MSHRs */

void mshr_init(mshr_table *t, uint32_t entries, uint32_t merge)
{
    t->n = entries;
    t->merge = merge ? merge : 1;
    t->key = g_new(uint64_t, entries);
    t->count = g_new0(uint32_t, entries);
    t->waiters = g_new0(uint32_t, (size_t)entries * t->merge);
    t->flags = g_new0(uint32_t, entries);
    t->free_ids = g_new(uint32_t, entries);
    /* hand out low entries first (deterministic, and easy to read in traces) */
    for (uint32_t i = 0; i < entries; i++)
        t->free_ids[i] = entries - 1 - i;
    t->nfree = entries;
    lmap_init(&t->map, entries);
}

void mshr_free(mshr_table *t)
{
    g_free(t->key);
    g_free(t->count);
    g_free(t->waiters);
    g_free(t->flags);
    g_free(t->free_ids);
    lmap_free(&t->map);
    memset(t, 0, sizeof *t);
}

uint32_t mshr_alloc(mshr_table *t, uint64_t key, uint32_t flags)
{
    uint32_t e = t->free_ids[--t->nfree];
    t->key[e] = key;
    t->count[e] = 0;
    t->flags[e] = flags;
    lmap_put(&t->map, key, e);
    return e;
}

bool mshr_add(mshr_table *t, uint32_t e, uint32_t waiter)
{
    if (t->count[e] >= t->merge)
        return false;
    t->waiters[(uint64_t)e * t->merge + t->count[e]++] = waiter;
    return true;
}

void mshr_release(mshr_table *t, uint32_t e)
{
    lmap_del(&t->map, t->key[e]);
    t->key[e] = CACHE_NO_KEY;
    t->count[e] = 0;
    t->free_ids[t->nfree++] = e;
}
