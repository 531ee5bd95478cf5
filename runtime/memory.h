/* runtime/memory.h — device memory: sparse 64-bit global space made of
 * allocations (only allocated ranges exist, so any stray address faults),
 * and the generic-address windows of shared and local memory. */
#ifndef PTXEMU_RUNTIME_MEMORY_H
#define PTXEMU_RUNTIME_MEMORY_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Generic addresses: the shared and local windows sit below the first global
 * allocation; an address inside a window is an offset into the executing
 * CTA's shared memory or thread's local memory. */
#define MEM_SHARED_WINDOW 0x0000000100000000ull
#define MEM_LOCAL_WINDOW 0x0000000200000000ull
/* cvta.param of a kernel parameter: an offset into the launch's parameter
 * buffer (read-only; PTX ISA "Kernel Function Parameters") */
#define MEM_KPARAM_WINDOW 0x0000000300000000ull
#define MEM_WINDOW_SIZE 0x0000000100000000ull
#define MEM_GLOBAL_BASE 0x0000000700000000ull

typedef struct mem_alloc {
    uint64_t base;
    uint64_t size;
    uint8_t *data;
    bool is_symbol;     /* a module variable, not a user allocation */
    bool is_const;      /* a .const module variable (isspacep.const) */
} mem_alloc;

typedef struct dev_memory {
    GArray *allocs;     /* mem_alloc sorted by base */
    uint64_t next;      /* next free address */
    uint64_t total;     /* bytes allocated now */
    uint64_t limit;     /* most bytes allocated at once (device memory size) */
    uint64_t peak;      /* most bytes allocated at once so far (the footprint) */
    /* the device heap of malloc/free in kernels (runtime/devheap.c): one
     * allocation made at the first malloc, heap_size bytes */
    uint64_t heap_size;
    uint64_t heap_base; /* 0 until the first malloc */
    GArray *heap_blocks; /* live blocks {offset, bytes}, sorted by offset */
} dev_memory;

/* CUDA's default device heap (cudaLimitMallocHeapSize, limits.malloc_heap). */
#define MEM_DEFAULT_HEAP (8ull << 20)

/* The device-memory size when nobody sets one (limits.device_memory). */
#define MEM_DEFAULT_LIMIT (4ull << 30)

void mem_init(dev_memory *m);
void mem_destroy(dev_memory *m);
/* Allocates zeroed memory aligned to 256 bytes; 0 on failure (also when
 * it would take the total past `limit`). */
uint64_t mem_alloc_bytes(dev_memory *m, uint64_t size, bool is_symbol);
bool mem_free(dev_memory *m, uint64_t base);
/* The allocation containing [addr, addr+len), or NULL. */
mem_alloc *mem_find(dev_memory *m, uint64_t addr, uint64_t len);

/* Host pointer for [addr, addr+len) or NULL when out of bounds.  `hint`
 * caches the last allocation hit (per warp) to avoid the search. */
static inline uint8_t *mem_ptr(dev_memory *m, uint64_t addr, uint64_t len,
                               mem_alloc **hint)
{
    mem_alloc *a = *hint;
    if (a && addr - a->base < a->size && a->size - (addr - a->base) >= len)
        return a->data + (addr - a->base);
    a = mem_find(m, addr, len);
    if (!a)
        return NULL;
    *hint = a;
    return a->data + (addr - a->base);
}

#endif
