// Exercises: spin lock with atomicCAS/atomicExch and __threadfence in the SIMT-safe loop-with-done-flag form.
extern "C" __global__ void spinlock_count(int *locks, int *counters, int nlocks)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int l = tid % nlocks;
    bool done = false;

    while (!done) {
        if (atomicCAS(&locks[l], 0, 1) == 0) {
            /* critical section */
            volatile int *c = counters;
            c[l] = c[l] + 1;
            __threadfence();
            atomicExch(&locks[l], 0);
            done = true;
        }
    }
}
