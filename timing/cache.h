/* timing/cache.h — building blocks of every cache in the memory system:
 * a set-associative tag array (LRU or FIFO, dirty bits), a small hash map
 * from line keys to indices, and an MSHR table whose entries merge the
 * misses to one line.  Used for the L1 data cache, the constant cache, the
 * L2 slices and the ICC coalesced cache.  Everything is allocated at
 * creation; lookups and updates never allocate.
 *
 * A "key" identifies a line (the caller's line index: address >> line
 * shift, or a partition-local index for L2); the set is key % nsets. */
#ifndef PTXEMU_TIMING_CACHE_H
#define PTXEMU_TIMING_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#define CACHE_NO_KEY UINT64_MAX

/* ------------------------------------------------------------ tag array */
typedef struct cache {
    uint32_t nsets, assoc;
    uint32_t set_mask;  /* nsets - 1 when nsets is a power of two (no divide), else 0 */
    int32_t repl;       /* GPU_REPL_LRU or GPU_REPL_FIFO */
    uint64_t *key;      /* nsets * assoc, CACHE_NO_KEY when invalid */
    uint64_t *stamp;    /* last use (LRU) or insertion (FIFO) */
    uint8_t *dirty;
    uint64_t clock;     /* stamp source: bumps on every touch */
    uint8_t hash_lg;    /* 0: set = key % nsets; else the Fermi L1 hash of keys
                           that are byte address >> hash_lg (cache_set_fermi_hash) */
} cache;

/* `lines` = capacity / line size; sets = lines / assoc (at least 1). */
void cache_init(cache *c, uint64_t lines, uint32_t assoc, int32_t repl);
void cache_free(cache *c);
/* Sets come from the Fermi L1's XOR hash (l1d.set_index = fermi-hash;
 * Nugteren et al., HPCA 2014) of keys that are byte address >> line_lg:
 * address bits line_lg..line_lg+4 XOR bits 13, 14, 15, 17, 19, and bit 12
 * on top with 64 sets.  The cache must have 32 or 64 sets, line_lg <= 12. */
void cache_set_fermi_hash(cache *c, uint32_t line_lg);
/* Whether key is present; `touch` updates its LRU position. */
bool cache_lookup(cache *c, uint64_t key, bool touch);
/* Sets the dirty bit of a present line; false when absent. */
bool cache_mark_dirty(cache *c, uint64_t key);
/* Drops the line; *was_dirty (may be NULL) tells whether it held data
 * that memory does not have.  False when absent. */
bool cache_invalidate(cache *c, uint64_t key, bool *was_dirty);
/* Drops every clean line whose key is below key_limit (dirty lines keep
 * the only copy of their data and stay); returns how many went. */
uint32_t cache_drop_clean(cache *c, uint64_t key_limit);
/* Clears the dirty bit of a present line without touching its LRU
 * position; false when absent. */
bool cache_set_clean(cache *c, uint64_t key);
/* Installs key (a present key is only touched and, with `dirty`, marked).
 * Returns true when a valid line was evicted, with its key and dirtiness. */
bool cache_insert(cache *c, uint64_t key, bool dirty, uint64_t *victim,
                  bool *victim_dirty);

/* ------------------------------------------------------------ line map */
/* Open addressing with linear probing; capacity fixed at init (at least
 * twice the most keys ever held, so probes stay short). */
typedef struct lmap {
    uint64_t *keys;
    uint32_t *vals;
    uint32_t mask;
} lmap;

void lmap_init(lmap *m, uint32_t max_keys);
void lmap_free(lmap *m);
/* Value of key, or UINT32_MAX. */
uint32_t lmap_get(const lmap *m, uint64_t key);
void lmap_put(lmap *m, uint64_t key, uint32_t val);
void lmap_del(lmap *m, uint64_t key);

/* ------------------------------------------------------------ MSHRs */
#define MSHR_NONE UINT32_MAX

typedef struct mshr_table {
    uint32_t n, merge;   /* entries; waiters one entry can hold */
    uint64_t *key;
    uint32_t *count;     /* waiters per entry */
    uint32_t *waiters;   /* n * merge caller ids */
    uint32_t *flags;     /* per entry, caller-defined */
    uint32_t *free_ids;  /* stack of free entries */
    uint32_t nfree;
    lmap map;
} mshr_table;

void mshr_init(mshr_table *t, uint32_t entries, uint32_t merge);
void mshr_free(mshr_table *t);
/* Entry tracking key, or MSHR_NONE. */
static inline uint32_t mshr_find(const mshr_table *t, uint64_t key)
{
    return lmap_get(&t->map, key);
}
/* New entry for key (the caller checked nfree > 0). */
uint32_t mshr_alloc(mshr_table *t, uint64_t key, uint32_t flags);
/* Appends a waiter; false when the entry is full. */
bool mshr_add(mshr_table *t, uint32_t e, uint32_t waiter);
static inline bool mshr_full(const mshr_table *t, uint32_t e)
{
    return t->count[e] >= t->merge;
}
static inline const uint32_t *mshr_waiters(const mshr_table *t, uint32_t e)
{
    return &t->waiters[(uint64_t)e * t->merge];
}
void mshr_release(mshr_table *t, uint32_t e);

#endif
