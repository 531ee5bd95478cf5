// tests/cuda/bench_reduction.cu — the project's reduction benchmark (SDK
// style, shuffles, multi-pass) as a standalone CUDA program: reduce_sum
// over 256-thread CTAs, relaunched on the partial sums until one value is
// left, checked against the CPU sum (unsigned, wraps identically).
// Usage: bench_reduction [N]
#include "check.h"
#include "../../benchmarks/reduction/kernels.cu"

#include <vector>

int main(int argc, char **argv)
{
    const unsigned threads = 256, max_blocks = 64;
    unsigned n = argc > 1 ? (unsigned)std::atoi(argv[1]) : 100000;
    std::vector<unsigned> in(n);
    unsigned want = 0;
    for (unsigned i = 0; i < n; i++) {
        in[i] = i * 2654435761u;
        want += in[i];
    }
    unsigned *din, *part[2];
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&part[0], max_blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&part[1], max_blocks * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    const unsigned *src = din;
    int which = 0, launches = 0;
    for (unsigned left = n; left > 1 || launches == 0; launches++) {
        unsigned blocks = (left + 2 * threads - 1) / (2 * threads);
        if (blocks > max_blocks)
            blocks = max_blocks;
        reduce_sum<<<blocks, threads, threads * sizeof(unsigned)>>>(part[which], src, left);
        CHECK(cudaGetLastError());
        src = part[which];
        which ^= 1;
        left = blocks;
    }
    unsigned got = 0;
    CHECK(cudaMemcpy(&got, src, sizeof got, cudaMemcpyDeviceToHost));
    REQUIRE(got == want);
    CHECK(cudaFree(din));
    CHECK(cudaFree(part[0]));
    CHECK(cudaFree(part[1]));
    std::printf("PASS reduction n=%u (%d launches)\n", n, launches);
    return 0;
}
