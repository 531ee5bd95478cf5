/* runtime/hostmem.c — large host buffers from mmap (runtime/hostmem.h). */
#include "runtime/hostmem.h"

#include <glib.h>
#include <sys/mman.h>

static void *map_bytes(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void *ex_host_alloc0(size_t n)
{
    return n >= EX_HOST_BIG ? map_bytes(n) : g_try_malloc0(n);
}

void *ex_host_alloc(size_t n)
{
    return n >= EX_HOST_BIG ? map_bytes(n) : g_try_malloc(n);
}

void ex_host_free(void *p, size_t n)
{
    if (!p)
        return;
    if (n >= EX_HOST_BIG)
        munmap(p, n);
    else
        g_free(p);
}
