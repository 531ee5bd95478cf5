/* runtime/memory.c — the global-memory allocator and address lookup. */
#include "runtime/memory.h"
#include "runtime/hostmem.h"

#include <string.h>

void mem_init(dev_memory *m)
{
    m->allocs = g_array_new(FALSE, TRUE, sizeof(mem_alloc));
    m->next = MEM_GLOBAL_BASE;
    m->total = 0;
    m->peak = 0;
    m->limit = MEM_DEFAULT_LIMIT;
    m->heap_size = MEM_DEFAULT_HEAP;
    m->heap_base = 0;
    m->heap_blocks = NULL;
}

void mem_destroy(dev_memory *m)
{
    if (!m->allocs)
        return;
    for (guint i = 0; i < m->allocs->len; i++) {
        mem_alloc *a = &g_array_index(m->allocs, mem_alloc, i);
        ex_host_free(a->data, a->size);
    }
    g_array_free(m->allocs, TRUE);
    m->allocs = NULL;
    if (m->heap_blocks)
        g_array_free(m->heap_blocks, TRUE);
    m->heap_blocks = NULL;
}

uint64_t mem_alloc_bytes(dev_memory *m, uint64_t size, bool is_symbol)
{
    if (size == 0)
        size = 1;
    if (size > (1ull << 40) || size > m->limit || m->total > m->limit - size)
        return 0;
    /* large blocks bypass malloc (runtime/hostmem.h: the program's heap
     * stays as a native run leaves it) */
    uint8_t *data = ex_host_alloc0(size);
    if (!data)
        return 0;
    /* addresses only grow, so the array stays sorted; a 256-byte gap after
     * each allocation makes small overruns fault instead of aliasing */
    mem_alloc a = {m->next, size, data, is_symbol, false};
    m->next = (m->next + size + 256 + 255) & ~255ull;
    g_array_append_val(m->allocs, a);
    m->total += size;
    if (m->total > m->peak)
        m->peak = m->total;
    return a.base;
}

static gint find_index(dev_memory *m, uint64_t addr)
{
    guint lo = 0, hi = m->allocs->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        mem_alloc *a = &g_array_index(m->allocs, mem_alloc, mid);
        if (addr < a->base)
            hi = mid;
        else if (addr - a->base >= a->size)
            lo = mid + 1;
        else
            return (gint)mid;
    }
    return -1;
}

mem_alloc *mem_find(dev_memory *m, uint64_t addr, uint64_t len)
{
    gint i = find_index(m, addr);
    if (i < 0)
        return NULL;
    mem_alloc *a = &g_array_index(m->allocs, mem_alloc, i);
    if (a->size - (addr - a->base) < len)
        return NULL;
    return a;
}

bool mem_free(dev_memory *m, uint64_t base)
{
    gint i = find_index(m, base);
    if (i < 0)
        return false;
    mem_alloc *a = &g_array_index(m->allocs, mem_alloc, i);
    if (a->base != base || a->is_symbol)
        return false;
    m->total -= a->size;
    ex_host_free(a->data, a->size);
    g_array_remove_index(m->allocs, (guint)i);
    return true;
}
