/* runtime/devheap.h — the device heap behind malloc/free called from
 * kernels (CUDA C++ "Dynamic Global Memory Allocation": nvcc declares them
 * `.extern .func malloc` / `free` in the PTX and calls them per thread). */
#ifndef PTXEMU_RUNTIME_DEVHEAP_H
#define PTXEMU_RUNTIME_DEVHEAP_H

#include "runtime/exec.h"

/* Allocates `bytes` (16-byte aligned, first fit by address, so the same
 * order of calls gives the same addresses) from the heap of `m`, creating
 * the heap (m->heap_size bytes) at the first call; 0 when it does not fit
 * or bytes == 0. */
uint64_t mem_heap_malloc(dev_memory *m, uint64_t bytes);
/* Frees a block mem_heap_malloc returned; false when `addr` is not one. */
bool mem_heap_free(dev_memory *m, uint64_t addr);
/* Live blocks and their bytes (for tests and statistics). */
void mem_heap_usage(const dev_memory *m, uint64_t *blocks, uint64_t *bytes);

/* The malloc and free builtins of a call instruction, lanes in lane order. */
void ex_devheap_malloc(ex_warp *w, const ex_call *c, uint32_t mask);
void ex_devheap_free(ex_warp *w, const ex_call *c, uint32_t mask);

#endif
