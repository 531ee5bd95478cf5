// hashtable: the spin seed's HashTable Benchmark.  Threads insert random
// keys into a chained hash table; each bucket has a CAS lock.  Node i of the
// preallocated pool holds keys[i] (so no allocator is needed) and
// next[i] links the chain; heads[b] is the first node of bucket b (-1: none).
//
// Each chain is kept sorted by (key, node index): the thread holding the
// bucket's lock walks the chain to its place and splices itself in.  The
// final table is then the same whatever order the locks were won in, so the
// benchmark leaves memory bit-identical under every scheduler, while the
// lock traffic (who spins on which bucket, when) still depends on it.
//
// The acquire loop has the "done flag" form (see global-increment): the
// winner releases the lock before the branch reconverges, so lanes of one
// warp never wait on a lock their own warp holds.  An empty `asm volatile`
// keeps nvcc from rewriting it into a bare spin loop (see below).
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void hashtable_insert(const unsigned *keys, int *next,
                                            int *heads, int *locks,
                                            unsigned nkeys, unsigned nbuckets)
{
    unsigned nthreads = gridDim.x * blockDim.x;
    volatile int *vnext = next;
    volatile int *vheads = heads;

    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nkeys;
         i += nthreads) {
        unsigned key = keys[i];
        unsigned b = key % nbuckets;
        int done = 0;
        while (!done) {
            if (atomicCAS(&locks[b], 0, 1) == 0) {
                __threadfence();
                int prev = -1;
                int cur = vheads[b];
                while (cur >= 0) {
                    unsigned ck = keys[cur];
                    if (ck > key || (ck == key && (unsigned)cur > i))
                        break;
                    prev = cur;
                    cur = vnext[cur];
                }
                vnext[i] = cur;
                if (prev < 0)
                    vheads[b] = (int)i;
                else
                    vnext[prev] = (int)i;
                __threadfence();
                done = 1;
                atomicExch(&locks[b], 0);
            }
            // Opaque to the optimiser: without it nvcc threads the failed-CAS
            // path straight back to the CAS, turning the loop into a bare
            // spin `while (atomicCAS(...) != 0);` with the critical section
            // after it -- the shape that deadlocks under SIMT reconvergence.
            asm volatile("" : "+r"(done));
        }
    }
}
