/* timing/icc.c — merge table, coalesced cache, locality window (icc.h). */
#include "timing/icc.h"

#include "timing/config.h"

#include <glib.h>
#include <string.h>

void icc_init(icc_unit *u, uint32_t merge_entries, uint32_t cc_lines, bool with_cc)
{
    memset(u, 0, sizeof *u);
    u->entries = merge_entries;
    u->line = g_new(uint64_t, merge_entries);
    u->sms = g_new0(uint64_t, merge_entries);
    for (uint32_t i = 0; i < merge_entries; i++)
        u->line[i] = CACHE_NO_KEY;
    u->has_cc = with_cc;
    /* one set of cc_lines ways: fully associative */
    cache_init(&u->cc, cc_lines, cc_lines, GPU_REPL_LRU);
}

void icc_free(icc_unit *u)
{
    g_free(u->line);
    g_free(u->sms);
    cache_free(&u->cc);
    memset(u, 0, sizeof *u);
}

int32_t icc_find(const icc_unit *u, uint64_t line)
{
    if (u->used == 0)
        return -1;
    for (uint32_t i = 0; i < u->entries; i++)
        if (u->line[i] == line)
            return (int32_t)i;
    return -1;
}

bool icc_allocate(icc_unit *u, uint64_t line, uint32_t local)
{
    if (u->used == u->entries)
        return false;
    uint32_t i = 0;
    while (u->line[i] != CACHE_NO_KEY)
        i++;
    u->line[i] = line;
    u->sms[i] = 1ull << local;
    u->used++;
    return true;
}

uint64_t icc_reply(icc_unit *u, uint64_t line)
{
    int32_t e = icc_find(u, line);
    if (e < 0)
        return 0;
    uint64_t sms = u->sms[e];
    u->line[e] = CACHE_NO_KEY;
    u->sms[e] = 0;
    u->used--;
    if (u->has_cc && (sms & (sms - 1))) {
        uint64_t victim;
        bool vd;
        cache_insert(&u->cc, line, false, &victim, &vd);
    }
    return sms;
}

bool icc_cc_hit(icc_unit *u, uint64_t line)
{
    return u->has_cc && cache_lookup(&u->cc, line, true);
}

void icc_cc_invalidate(icc_unit *u, uint64_t line)
{
    if (u->has_cc)
        cache_invalidate(&u->cc, line, NULL);
}

/* ------------------------------------------------- locality window */

#define LW_NIL UINT32_MAX

void locality_init(locality_win *w, uint64_t window, uint32_t cap)
{
    uint32_t c = 16;
    while (c < cap)
        c *= 2;
    memset(w, 0, sizeof *w);
    w->window = window;
    w->cap = c;
    w->line = g_new0(uint64_t, c);
    w->cycle = g_new0(uint64_t, c);
    w->chain = g_new(uint32_t, c);
    w->live = g_new0(uint8_t, c);
    w->bucket = g_new(uint32_t, c);
    for (uint32_t i = 0; i < c; i++)
        w->bucket[i] = LW_NIL;
}

void locality_free(locality_win *w)
{
    g_free(w->line);
    g_free(w->cycle);
    g_free(w->chain);
    g_free(w->live);
    g_free(w->bucket);
    memset(w, 0, sizeof *w);
}

static inline uint32_t lw_hash(const locality_win *w, uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & (w->cap - 1);
}

static void lw_unlink(locality_win *w, uint32_t i)
{
    uint32_t *p = &w->bucket[lw_hash(w, w->line[i])];
    while (*p != i)
        p = &w->chain[*p];
    *p = w->chain[i];
    w->live[i] = 0;
}

bool locality_note(locality_win *w, uint64_t line, uint64_t cycle)
{
    /* forget requests older than the window (or beyond the ring) */
    while (w->count) {
        uint32_t tail = (w->head - w->count) & (w->cap - 1);
        if (w->count < w->cap && cycle - w->cycle[tail] <= w->window)
            break;
        if (w->live[tail])
            lw_unlink(w, tail);
        w->count--;
    }
    bool redundant = false;
    for (uint32_t i = w->bucket[lw_hash(w, line)]; i != LW_NIL; i = w->chain[i])
        if (w->line[i] == line) {
            redundant = true;
            lw_unlink(w, i);  /* keep only the newest request per line */
            break;
        }
    uint32_t n = w->head;
    w->head = (w->head + 1) & (w->cap - 1);
    w->count++;
    w->line[n] = line;
    w->cycle[n] = cycle;
    w->live[n] = 1;
    uint32_t *b = &w->bucket[lw_hash(w, line)];
    w->chain[n] = *b;
    *b = n;
    return redundant;
}
