/* runtime/hostmem.h — ptxemu's own large host buffers, straight from mmap.
 *
 * Under `ptxemu exec` ptxemu runs inside the CUDA program's process and
 * shares its malloc.  glibc serves a large malloc (128 KiB and up at
 * first) with a fresh mmap, and when such a chunk is freed it raises its
 * dynamic mmap threshold to that size (up to 32 MiB): later large
 * mallocs then come from the heap.  If ptxemu's device memory, shared
 * memory or staging copies were large mallocs, a cudaMalloc/cudaFree
 * would raise the threshold, and the program's next large malloc would be
 * recycled heap memory that ptxemu had dirtied, where a native run gets
 * a fresh (zeroed) mmap.  Buffers of EX_HOST_BIG bytes or more therefore
 * bypass malloc; smaller ones are ordinary GLib allocations (glibc serves
 * them from the heap and freeing them moves no threshold). */
#ifndef PTXEMU_RUNTIME_HOSTMEM_H
#define PTXEMU_RUNTIME_HOSTMEM_H

#include <stddef.h>

#define EX_HOST_BIG ((size_t)64 << 10)

/* `n` zeroed bytes (n > 0), NULL when the host refuses them. */
void *ex_host_alloc0(size_t n);
/* `n` bytes, uninitialised (zero when they come from mmap). */
void *ex_host_alloc(size_t n);
/* Frees what ex_host_alloc0/ex_host_alloc(n) returned (NULL is fine);
 * `n` must be the size it was allocated with. */
void ex_host_free(void *p, size_t n);

#endif
