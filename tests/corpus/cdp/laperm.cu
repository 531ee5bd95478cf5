// Kernels for the LaPerm worked examples (SEED-TARGETS §6), run by
// tests/timing/test_laperm.c on the timing model: every CTA is one thread
// that spins for `spin` dependent multiply-adds, so CTAs take equal time
// and placements fall into rounds.

__device__ int spin_for(int spin)
{
    int x = threadIdx.x + 1;
    for (int i = 0; i < spin; i++)
        x = x * 1664525 + 1013904223;
    return x;
}

// A child CTA: spins, then marks itself done in done[first + blockIdx.x].
__global__ void fig4_child(int *done, int first, int spin)
{
    int x = spin_for(spin);
    done[first + blockIdx.x] = 1 + (x == 12345);
}

// Fig. 4: parents P0..P7; P2 launches C0-C1 and P4 launches C2-C5 as it
// starts, then spins like every other CTA.  done[0..7] parents, done[8..13]
// children.
__global__ void fig4_parent(int *done, int spin)
{
    if (blockIdx.x == 2)
        fig4_child<<<2, 1>>>(done, 8, spin);
    if (blockIdx.x == 4)
        fig4_child<<<4, 1>>>(done, 10, spin);
    int x = spin_for(spin);
    done[blockIdx.x] = 1 + (x == 12345);
}

// The RR example: CTA `quick` spins `spin / 8`, the others `spin`.
__global__ void rr_example(int *done, int quick, int spin)
{
    int x = spin_for(blockIdx.x == quick ? spin / 8 : spin);
    done[blockIdx.x] = 1 + (x == 12345);
}
