// transactions: the spin seed's Transactions Benchmark.  Each transaction
// moves `amount` from account src to account dst; the thread doing it must
// hold the locks of both accounts.  Threads take a strided, disjoint subset
// of the host-generated transactions.
//
// Locks are taken in a fixed order (lower account first) and with try-lock
// semantics: a thread that gets the first lock but not the second releases
// the first and retries.  Together with the "done flag" loop form (the
// winner finishes and releases before the branches reconverge) this cannot
// deadlock under stack-based SIMT reconvergence, where lanes of one warp
// holding each other's locks would otherwise wait forever.
//
// Transfers are unconditional (balances may go negative), so the final
// balances are sums and do not depend on the order locks are won in.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void transactions(const int *src, const int *dst,
                                        const int *amount, int *balance,
                                        int *locks, unsigned ntx)
{
    unsigned nthreads = gridDim.x * blockDim.x;
    volatile int *bal = balance;

    for (unsigned t = blockIdx.x * blockDim.x + threadIdx.x; t < ntx;
         t += nthreads) {
        int s = src[t], d = dst[t], amt = amount[t];
        int first = min(s, d), second = max(s, d);
        int done = 0;
        while (!done) {
            if (atomicCAS(&locks[first], 0, 1) == 0) {
                if (atomicCAS(&locks[second], 0, 1) == 0) {
                    __threadfence();
                    bal[s] = bal[s] - amt;
                    bal[d] = bal[d] + amt;
                    __threadfence();
                    done = 1;
                    atomicExch(&locks[second], 0);
                }
                atomicExch(&locks[first], 0);
            }
            // Opaque to the optimiser, so nvcc keeps the failed paths going
            // through this loop test rather than threading them into bare
            // spin loops around each CAS (which deadlock under SIMT).
            asm volatile("" : "+r"(done));
        }
    }
}
