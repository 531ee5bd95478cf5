// pointer-chase: one thread follows a chain of indices, i = next[i], n times,
// and stores where it ended.  Every load's address depends on the previous
// load, so the run time per step is the load-to-use latency of whatever level
// of the memory hierarchy holds the chain (the classic lat_mem_rd).
//
// `#pragma unroll 1` keeps one step per loop iteration, so the loop is the
// dependent chain (mul.wide, add.s64, ld.global) plus a counter, a setp and
// a branch that issue while the load is outstanding (see driver.c for the
// expected cycles per step).
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void pointer_chase(const unsigned *next, unsigned start,
                                         unsigned n, unsigned *out)
{
    unsigned i = start;
#pragma unroll 1
    for (unsigned k = 0; k < n; k++)
        i = next[i];
    out[0] = i;
}
