/* timing/memsys_copy.c — what a host copy does to the memory system's
 * state (l2.memcpy_fill).
 *
 * GPGPU-Sim with -gpgpu_perf_sim_memcpy 1 (its SM2_GTX480 config,
 * gpgpusim.config:80) passes every host-to-device and device-to-host copy
 * through the L2 tags (src/gpgpu-sim/gpu-sim.cc gpgpu_sim::
 * perf_memcpy_to_gpu, called from src/cuda-sim/cuda-sim.cc
 * gpgpu_t::memcpy_to_gpu and memcpy_from_gpu; symbol copies and memsets
 * write memory directly and do not): for each 32-byte step of the copy the
 * owning sub-partition's L2 fills that line's sector at once
 * (l2cache.h force_l2_tag_update -> gpu-cache.h force_tag_access ->
 * tag_array::fill), with a time stamp one higher per step, so the copy's
 * lines become the most recently used in copy order.  The fill marks the
 * line VALID: a new line is clean, a line already present becomes clean
 * and keeps its LRU position, and a dirty line evicted for it is not
 * written back.  No request, latency or statistic is involved.
 *
 * ptxemu's L2 is not sectored: a line is installed whole when the copy
 * touches any of its 32-byte steps. */
#include "timing/memsys.h"
#include "timing/memsys_internal.h"

void memsys_host_copy(memsys *m, uint64_t addr, uint64_t n)
{
    if (!m->cfg.l2.memcpy_fill || n == 0)
        return;
    uint64_t last = UINT64_MAX;
    for (uint64_t off = 0; off < n; off += COAL_SECTOR) {
        uint64_t a = addr + off;
        uint64_t line = a >> m->l2_shift;
        if (line == last)
            continue;
        last = line;
        /* the placement of place_pkt (memsys_internal.h) */
        uint64_t chunk = a >> m->il_shift;
        uint32_t part = (uint32_t)(chunk % m->nparts);
        uint64_t local = ((chunk / m->nparts) << m->il_shift) |
                         (a & (m->cfg.dram.interleave - 1));
        uint32_t sl = (uint32_t)((local >> m->l2_shift) % m->nslices);
        uint64_t key = (local >> m->l2_shift) / m->nslices;
        cache *c = &m->part[part].sl[sl].c;
        if (cache_set_clean(c, key))
            continue;
        uint64_t victim;
        bool victim_dirty;
        cache_insert(c, key, false, &victim, &victim_dirty);
    }
}
