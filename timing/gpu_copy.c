/* timing/gpu_copy.c — host copies as the timing model sees them (gpu.h
 * tm_gpu_host_copy): they take no simulated time; with l2.memcpy_fill the
 * memory system installs their lines in the L2 (timing/memsys_copy.c). */
#include "timing/gpu.h"
#include "timing/gpu_internal.h"
#include "timing/memsys.h"

void tm_gpu_host_copy(tm_gpu *g, uint64_t addr, uint64_t n)
{
    if (g && g->mem)
        memsys_host_copy(g->mem, addr, n);
}
