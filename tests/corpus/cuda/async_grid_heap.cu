// Asynchronous copies, barriers, grid-wide sync and the device heap as
// nvcc 13 lowers them (tests/runtime/test_async_cuda.c runs each kernel
// against a CPU model).
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

#define TILE 64

// Double buffering with __pipeline_memcpy_async: tile t+1 is in flight while
// tile t is used.  out[t*TILE+i] = 2 * in[t*TILE + (i+1)%TILE] + 1.
extern "C" __global__ void pipeline_tiles(const float *in, float *out, int ntiles)
{
    __shared__ float buf[2][TILE];
    int i = threadIdx.x;
    const float *src = in + (size_t)blockIdx.x * ntiles * TILE;
    float *dst = out + (size_t)blockIdx.x * ntiles * TILE;
    __pipeline_memcpy_async(&buf[0][i], &src[i], sizeof(float));
    __pipeline_commit();
    for (int t = 0; t < ntiles; t++) {
        if (t + 1 < ntiles)
            __pipeline_memcpy_async(&buf[(t + 1) & 1][i], &src[(t + 1) * TILE + i], sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        dst[t * TILE + i] = 2.0f * buf[t & 1][(i + 1) % TILE] + 1.0f;
        __syncthreads();
    }
}

// cuda::barrier with cuda::memcpy_async (cp.async + cp.async.mbarrier.arrive
// + mbarrier.arrive / test_wait on sm_80).  out[i] = in[TILE-1-i] * 3.
extern "C" __global__ void barrier_copy(const int *in, int *out)
{
    __shared__ int buf[TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x < TILE)
        cuda::memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * TILE + threadIdx.x], sizeof(int), bar);
    bar.arrive_and_wait();
    if (threadIdx.x < TILE)
        out[blockIdx.x * TILE + threadIdx.x] = buf[TILE - 1 - threadIdx.x] * 3;
}

// grid.sync(): every block adds to a counter, then every block reads the
// total after the grid barrier.  out[b] = gridDim.x * blockDim.x.
extern "C" __global__ void grid_total(unsigned *count, unsigned *out)
{
    cg::grid_group g = cg::this_grid();
    atomicAdd(count, 1u);
    g.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = atomicAdd(count, 0u);
}

// Device heap: every thread allocates n ints, fills them, sums them back
// and frees them; out[t] = the sum, or -1 where malloc returned NULL.
extern "C" __global__ void heap_sum(int n, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        out[t] = -1;
        return;
    }
    for (int k = 0; k < n; k++)
        p[k] = t + k;
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k];
    out[t] = s;
    free(p);
}
