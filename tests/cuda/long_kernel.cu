// tests/cuda/long_kernel.cu — one launch that runs longer than
// limits.max_warp_instructions' default (1e8 warp instructions): under
// `ptxemu exec` a CUDA program's launches have no instruction limit unless
// the config asks for one (--set limits.max_warp_instructions=N), and then
// the message names the key and how to raise it.  Argument: loop rounds.
#include "check.h"

__global__ void long_loop(unsigned *out, unsigned rounds)
{
    unsigned x = threadIdx.x;
    for (unsigned r = 0; r < rounds; r++) {
        x = x * 1664525u + 1013904223u;
        if ((r & 1023u) == 0)
            out[threadIdx.x] = x; // progress: memory changes
    }
    out[threadIdx.x] = x;
}

int main(int argc, char **argv)
{
    unsigned rounds = argc > 1 ? (unsigned)std::strtoul(argv[1], nullptr, 10) : 1000;
    unsigned *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(unsigned)));
    long_loop<<<1, 32>>>(d, rounds);
    CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("launch failed: %s\n", cudaGetErrorName(e));
        return 2;
    }
    unsigned h[32];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (unsigned t = 0; t < 32; t += 31) { // two lanes: the host loop is slow
        unsigned x = t;
        for (unsigned r = 0; r < rounds; r++)
            x = x * 1664525u + 1013904223u;
        REQUIRE(h[t] == x);
    }
    CHECK(cudaFree(d));
    std::printf("PASS long_kernel: %u rounds\n", rounds);
    return 0;
}
