/* runtime/devheap.c — device-side malloc/free: a first-fit allocator over
 * one global allocation of limits.malloc_heap bytes (CUDA's default heap is
 * 8 MiB).  Blocks are 16-byte aligned like CUDA's; malloc returns NULL when
 * nothing fits, as CUDA does.  Lanes call in lane order, warps in the
 * executor's deterministic order, so addresses repeat run to run. */
#include "runtime/devheap.h"
#include "runtime/warp.h"

#include <string.h>

typedef struct heap_block {
    uint64_t off, bytes;
} heap_block;

#define HEAP_ALIGN 16u

uint64_t mem_heap_malloc(dev_memory *m, uint64_t bytes)
{
    if (bytes == 0 || bytes > m->heap_size)
        return 0;
    if (!m->heap_base) {
        m->heap_base = mem_alloc_bytes(m, m->heap_size, true);
        if (!m->heap_base)
            return 0;
        m->heap_blocks = g_array_new(FALSE, FALSE, sizeof(heap_block));
    }
    uint64_t need = (bytes + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
    uint64_t at = 0;
    guint i = 0;
    for (; i < m->heap_blocks->len; i++) {
        const heap_block *b = &g_array_index(m->heap_blocks, heap_block, i);
        if (b->off - at >= need)
            break;
        at = b->off + b->bytes;
    }
    if (m->heap_size - at < need)
        return 0;
    heap_block nb = {at, need};
    g_array_insert_val(m->heap_blocks, i, nb);
    /* CUDA gives no promise about the contents; zero keeps runs identical */
    mem_alloc *hint = NULL;
    uint8_t *p = mem_ptr(m, m->heap_base + at, need, &hint);
    if (p)
        memset(p, 0, need);
    return m->heap_base + at;
}

bool mem_heap_free(dev_memory *m, uint64_t addr)
{
    if (!m->heap_base || addr < m->heap_base)
        return false;
    uint64_t off = addr - m->heap_base;
    guint lo = 0, hi = m->heap_blocks->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        const heap_block *b = &g_array_index(m->heap_blocks, heap_block, mid);
        if (b->off == off) {
            g_array_remove_index(m->heap_blocks, mid);
            return true;
        }
        if (b->off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

void mem_heap_usage(const dev_memory *m, uint64_t *blocks, uint64_t *bytes)
{
    *blocks = *bytes = 0;
    for (guint i = 0; m->heap_blocks && i < m->heap_blocks->len; i++) {
        (*blocks)++;
        *bytes += g_array_index(m->heap_blocks, heap_block, i).bytes;
    }
}

/* ---------------------------------------------------------- the builtins */

static uint64_t arg0(const ex_warp *w, const ex_call *c, unsigned lane)
{
    if (c->nargs == 0)
        return 0;
    if (c->arg_offsets[0] == EX_NONE)
        return w->r[c->arg_sizes[0]][lane];
    uint64_t v = 0;
    memcpy(&v, w->stack + (gsize)lane * w->stack_cap + w->fp + c->arg_offsets[0], 8);
    return v;
}

static void ret0(ex_warp *w, const ex_call *c, unsigned lane, uint64_t v)
{
    if (c->nrets == 0)
        return;
    if (c->ret_offsets[0] == EX_NONE)
        w->r[c->ret_sizes[0]][lane] = v;
    else
        memcpy(w->stack + (gsize)lane * w->stack_cap + w->fp + c->ret_offsets[0], &v, 8);
}

void ex_devheap_malloc(ex_warp *w, const ex_call *c, uint32_t mask)
{
    EX_LANES(mask, l, { ret0(w, c, l, mem_heap_malloc(w->launch->mem, arg0(w, c, l))); });
    w->launch->last_progress = w->launch->clock;
}

void ex_devheap_free(ex_warp *w, const ex_call *c, uint32_t mask)
{
    EX_LANES(mask, l, {
        uint64_t p = arg0(w, c, l);
        if (p && !mem_heap_free(w->launch->mem, p)) {
            ex_fault(w, (int)l, "free(0x%llx): not a block that device malloc returned "
                     "(or freed twice)", (unsigned long long)p);
            return;
        }
    });
    w->launch->last_progress = w->launch->clock;
}
