// Kernels for the LaPerm worked examples (SEED-TARGETS §6), run by
// tests/timing/test_laperm.c on the timing model: every CTA spins for
// `spin` dependent multiply-adds, so CTAs take equal time and placements
// fall into rounds.

__device__ int spin_for(int spin)
{
    int x = threadIdx.x + 1;
    for (int i = 0; i < spin; i++)
        x = x * 1664525 + 1013904223;
    return x;
}

// Fig. 4: parents P0..P7 and children C0..C5 are CTAs of this one kernel,
// of two warps each.  Warp 0 spins, then marks the CTA done in
// done[first + blockIdx.x] (done[0..7] parents, done[8..13] children); warp 1
// of P2 launches C0-C1 and warp 1 of P4 launches C2-C5 as they start.  Warp 0
// runs the same instructions in every CTA, parent or child, launching or not,
// so all CTAs take the same time (the seed's "each parent TB and child TB is
// able to complete execution at the same pace"), and the launch work, on the
// other warp, does not delay the CTA's end.
__global__ void fig4(int *done, int first, int spin)
{
    if (threadIdx.x >= 32) {
        if (first == 0 && blockIdx.x == 2 && threadIdx.x == 32)
            fig4<<<2, 64>>>(done, 8, spin);
        if (first == 0 && blockIdx.x == 4 && threadIdx.x == 32)
            fig4<<<4, 64>>>(done, 10, spin);
        return;
    }
    int x = spin_for(spin);
    if (threadIdx.x == 0)
        done[first + blockIdx.x] = 1 + (x == 12345);
}

// The RR example: CTA `quick` spins `spin / 8`, the others `spin`.
__global__ void rr_example(int *done, int quick, int spin)
{
    int x = spin_for(blockIdx.x == quick ? spin / 8 : spin);
    done[blockIdx.x] = 1 + (x == 12345);
}
