// global-increment: the spin seed's Global Increment Benchmark (Listing 1,
// Fig. 3).  Every thread maps to one array slot, takes that slot's lock
// with a compare-and-swap, increments the slot, and releases the lock.
//
// Contention is set by the thread-to-lock mapping:
//   lanes_per_lock  how many lanes of one warp share a lock (1..32, a divisor
//                   of 32): intra-warp contention;
//   warps_per_lock  how many consecutive warps share the same lanes' locks:
//                   inter-warp contention.  With 2, warps 2k and 2k+1 (which a
//                   two-scheduler SM places on different schedulers) contend,
//                   while warps on one scheduler do not (the seed's Fig. 3).
//   lock = (warp / warps_per_lock) * (32 / lanes_per_lock) + lane / lanes_per_lock
//
// The loop has the "done flag" shape: the thread that wins the CAS does its
// critical section and releases the lock inside the taken side of the branch,
// before the reconvergence point, so lanes of the same warp that lost the CAS
// never wait at a reconvergence point for a lock their own warp holds.  A
// loop of the shape `while (atomicCAS(...) != 0) ; critical; release;` would
// deadlock under stack-based SIMT reconvergence.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void global_increment(int *locks, int *counters,
                                            unsigned lanes_per_lock,
                                            unsigned warps_per_lock,
                                            unsigned iters)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = tid % 32u;
    unsigned warp = tid / 32u;
    unsigned id = (warp / warps_per_lock) * (32u / lanes_per_lock) +
                  lane / lanes_per_lock;
    volatile int *slot = counters + id;

    for (unsigned k = 0; k < iters; k++) {
        int done = 0;
        while (!done) {
            if (atomicCAS(&locks[id], 0, 1) == 0) {
                __threadfence();
                *slot = *slot + 1;
                __threadfence();
                done = 1;
                atomicExch(&locks[id], 0);
            }
            // Opaque to the optimiser, so nvcc cannot thread the failed-CAS
            // path straight back to the CAS (which would give the bare spin
            // loop `while (atomicCAS(...) != 0);` with the critical section
            // after it -- it does exactly that for longer critical sections).
            asm volatile("" : "+r"(done));
        }
    }
}
