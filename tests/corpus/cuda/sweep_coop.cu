// tests/corpus/cuda/sweep_coop.cu — the cooperative-groups part of the
// intrinsics sweep (issue 17): cooperative_groups.h (thread_block,
// grid_group without a cooperative launch, static and dynamic tiles,
// coalesced groups, labeled/binary partitions), cooperative_groups/reduce.h
// and scan.h, cooperative_groups/memcpy_async.h, the pipeline primitives of
// cuda_pipeline_primitives.h (with the __mbarrier_* primitives of
// cuda_awbarrier_primitives.h for __pipeline_arrive_on), libcu++
// cuda::pipeline and cuda::barrier.  tests/runtime/test_sweep_coop.c runs the
// committed PTX (scripts/regen-ptx.sh) for sm_75/80/90 with the SIMT stack
// and under independent thread scheduling and checks every result against a
// CPU model written from the CUDA Programming Guide's cooperative-groups and
// asynchronous-copy chapters.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline_primitives.h>
#include <cstdint>

namespace cg = cooperative_groups;

// cuda::barrier and cuda::pipeline_shared_state in __shared__ memory are
// initialised by init() / make_pipeline, as the libcu++ documentation shows
#pragma nv_diag_suppress static_var_with_dynamic_init

// ------------------------------------------------------------ block_grid
// Grid (3,2,1) x block (8,4,2): 32 results per thread at out + 32 * (global
// linear thread id), the id being block_rank * 64 + thread_rank.
__global__ void block_grid(unsigned *out)
{
    __shared__ unsigned sm[64];
    cg::thread_block tb = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    unsigned r = tb.thread_rank();
    unsigned long long br = grid.block_rank();
    unsigned *o = out + 32 * (br * 64 + r);
    o[0] = r;
    o[1] = tb.group_index().x;
    o[2] = tb.group_index().y;
    o[3] = tb.group_index().z;
    o[4] = tb.thread_index().x;
    o[5] = tb.thread_index().y;
    o[6] = tb.thread_index().z;
    o[7] = tb.dim_threads().x;
    o[8] = tb.dim_threads().y;
    o[9] = tb.dim_threads().z;
    o[10] = tb.num_threads();
    o[11] = tb.size();
    o[12] = (unsigned)grid.thread_rank();
    o[13] = (unsigned)br;
    o[14] = (unsigned)grid.num_blocks();
    o[15] = grid.dim_blocks().x;
    o[16] = grid.dim_blocks().y;
    o[17] = grid.dim_blocks().z;
    o[18] = grid.block_index().x;
    o[19] = grid.block_index().y;
    o[20] = grid.block_index().z;
    o[21] = (unsigned)grid.num_threads();
    o[22] = grid.is_valid();
    sm[r] = r * 7u + (unsigned)br;
    tb.sync();
    o[23] = sm[(r + 1) % 64];
    cg::sync(tb);
    sm[r] = 0;
    // the type-erased group: dispatch on get_type()
    cg::thread_group g = tb;
    g.sync();
    o[24] = g.thread_rank();
    o[25] = g.size();
    o[26] = grid.thread_index().x;
    o[27] = grid.thread_index().y;
    o[28] = grid.thread_index().z;
    o[29] = grid.dim_threads().x;
    o[30] = grid.dim_threads().y;
    o[31] = grid.dim_threads().z;
}

// ---------------------------------------------------------------- tiles
// One block of 64 threads; for each tile size S (1, 2, 4, 8, 16, 32) 24
// results per thread at out + 24 * (64 * log2(S) + t).
template <unsigned S>
__device__ void tile_ops(cg::thread_block tb, const unsigned *in, unsigned *out, unsigned k)
{
    __shared__ unsigned sm[64];
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 24 * (64 * k + t);
    cg::thread_block_tile<S> tile = cg::tiled_partition<S>(tb);
    unsigned r = tile.thread_rank();
    o[0] = r;
    o[1] = tile.num_threads();
    o[2] = tile.meta_group_rank();
    o[3] = tile.meta_group_size();
    o[4] = tile.shfl(v, (r * 3 + 1) % S);
    o[5] = tile.shfl_up(v, 1);
    o[6] = tile.shfl_down(v, 1);
    o[7] = tile.shfl_xor(v, S > 1 ? S / 2 : 0);
    o[8] = tile.any(v & 1);
    o[9] = tile.all(v & 1);
    o[10] = tile.ballot(v & 1);
    o[11] = tile.match_any(v & 3);
    int pred = 0;
    o[12] = tile.match_all(v >> 8, pred);
    o[13] = (unsigned)pred;
    unsigned long long w = tile.shfl((unsigned long long)v << 32 | (v ^ 0x5a5a5a5au), S - 1);
    o[14] = (unsigned)w;
    o[15] = (unsigned)(w >> 32);
    double d = tile.shfl_down((double)v * 0.5, S > 1 ? 1 : 0);
    o[16] = (unsigned)(d * 2.0);
    sm[t] = v + 1;
    tile.sync();
    o[17] = sm[(t & ~(S - 1)) + (r + 1) % S];
    tb.sync();
    // a tile of a tile: ranks relative to the warp-sized parent
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tb);
    if constexpr (S < 32) {
        cg::thread_block_tile<S, cg::thread_block_tile<32>> sub = cg::tiled_partition<S>(warp);
        o[18] = sub.meta_group_rank();
        o[19] = sub.meta_group_size();
        o[20] = sub.shfl(v, 0);
    } else {
        o[18] = 0;
        o[19] = 1;
        o[20] = warp.shfl(v, 0);
    }
    // dynamic partitions (type-erased thread_group)
    cg::thread_group dyn = cg::tiled_partition(tb, S);
    dyn.sync();
    o[21] = dyn.thread_rank() | dyn.size() << 8;
    cg::thread_group dwarp = cg::tiled_partition(tb, 32);
    cg::thread_group dsub = cg::tiled_partition(dwarp, S);
    o[22] = dsub.thread_rank() | dsub.size() << 8;
    o[23] = cg::thread_rank(tile) | cg::group_size(tile) << 8;
}

__global__ void tiles(const unsigned *in, unsigned *out)
{
    cg::thread_block tb = cg::this_thread_block();
    tile_ops<1>(tb, in, out, 0);
    tile_ops<2>(tb, in, out, 1);
    tile_ops<4>(tb, in, out, 2);
    tile_ops<8>(tb, in, out, 3);
    tile_ops<16>(tb, in, out, 4);
    tile_ops<32>(tb, in, out, 5);
}

// ------------------------------------------------------------ coalesced
// One block of 64 threads; 24 results per thread, 0xffffffff where the
// thread did not take the branch.  Lanes with in[t] % 3 != 0 form the group.
__global__ void coalesced(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, v = in[t];
    unsigned *o = out + 24 * t;
    for (int k = 0; k < 24; k++)
        o[k] = 0xffffffffu;
    if (v % 3 != 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        unsigned n = g.num_threads();
        o[0] = g.thread_rank();
        o[1] = n;
        o[2] = g.size();
        o[3] = g.shfl(v, 0);
        o[4] = g.shfl(v, n - 1);
        o[5] = g.shfl(v, (g.thread_rank() + 1) % n);
        o[6] = g.shfl_up(v, 1);
        o[7] = g.shfl_down(v, 2);
        o[8] = g.any(v & 4);
        o[9] = g.all(v & 1);
        o[10] = g.ballot(v & 1);
        o[11] = g.match_any(v & 3);
        int pred = 0;
        o[12] = g.match_all(v & 0x80000000u, pred);
        o[13] = (unsigned)pred;
        o[14] = g.meta_group_rank() | g.meta_group_size() << 8;
        g.sync();
        o[15] = cg::reduce(g, v, cg::plus<unsigned>());
        o[16] = cg::reduce(g, v, cg::greater<unsigned>());
        o[17] = cg::inclusive_scan(g, v);
        o[18] = cg::exclusive_scan(g, v);
        cg::coalesced_group q = cg::tiled_partition(g, 4);
        o[19] = q.thread_rank() | q.num_threads() << 8;
        o[20] = q.meta_group_rank() | q.meta_group_size() << 8;
        o[21] = q.shfl(v, 0);
        // nested divergence: the group of the group's odd-valued threads
        if (v & 1) {
            cg::coalesced_group h = cg::coalesced_threads();
            o[22] = h.thread_rank() | h.num_threads() << 8;
            o[23] = cg::reduce(h, v, cg::bit_xor<unsigned>());
        }
    }
}

// ----------------------------------------------------------- partitions
// One block of 64 threads; 16 results per thread.
__global__ void partitions(const unsigned *in, unsigned *out)
{
    cg::thread_block tb = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tb);
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 16 * t;
    cg::coalesced_group lp = cg::labeled_partition(warp, (int)(v % 5));
    o[0] = lp.thread_rank();
    o[1] = lp.num_threads();
    o[2] = lp.meta_group_rank();
    o[3] = lp.meta_group_size();
    o[4] = lp.shfl(v, lp.num_threads() - 1);
    o[5] = cg::reduce(lp, v, cg::plus<unsigned>());
    o[6] = lp.ballot(v & 1);
    cg::coalesced_group bp = cg::binary_partition(warp, (v & 8) != 0);
    o[7] = bp.thread_rank();
    o[8] = bp.num_threads();
    o[9] = bp.meta_group_rank() | bp.meta_group_size() << 8;
    o[10] = cg::reduce(bp, v, cg::less<unsigned>());
    o[11] = cg::exclusive_scan(bp, v);
    // partitions of a static 8-thread tile
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(tb);
    cg::coalesced_group lp8 = cg::labeled_partition(t8, (int)(v & 1));
    o[12] = lp8.thread_rank() | lp8.num_threads() << 8;
    o[13] = lp8.meta_group_rank() | lp8.meta_group_size() << 8;
    cg::coalesced_group bp8 = cg::binary_partition(t8, v > 2000000000u);
    o[14] = bp8.thread_rank() | bp8.num_threads() << 8;
    o[15] = cg::reduce(bp8, v, cg::bit_or<unsigned>());
}

// ----------------------------------------------------------- reductions
// One block of 64 threads; for each tile size S (4, 16, 32) 24 results per
// thread at out + 24 * (64 * k + t).  Tiles of 16 and 32 take redux.sync on
// sm_80+ for 32-bit integers; 4 takes the shuffle tree.
template <unsigned S>
__device__ void reduce_ops(cg::thread_block tb, const unsigned *in, unsigned *out, unsigned k,
                           unsigned long long *store)
{
    unsigned t = tb.thread_rank(), v = in[t];
    int s = (int)(v ^ 0x80000000u) >> 8;
    float f = (float)(int)(v % 2001u) - 1000.0f;
    unsigned long long w = (unsigned long long)v * 0x10001ull;
    unsigned *o = out + 24 * (64 * k + t);
    cg::thread_block_tile<S> tile = cg::tiled_partition<S>(tb);
    o[0] = cg::reduce(tile, v, cg::plus<unsigned>());
    o[1] = cg::reduce(tile, v, cg::less<unsigned>());
    o[2] = cg::reduce(tile, v, cg::greater<unsigned>());
    o[3] = cg::reduce(tile, v, cg::bit_and<unsigned>());
    o[4] = cg::reduce(tile, v, cg::bit_or<unsigned>());
    o[5] = cg::reduce(tile, v, cg::bit_xor<unsigned>());
    o[6] = (unsigned)cg::reduce(tile, s, cg::less<int>());
    o[7] = (unsigned)cg::reduce(tile, s, cg::greater<int>());
    o[8] = (unsigned)cg::reduce(tile, s, cg::plus<int>());
    float fs = cg::reduce(tile, f, cg::plus<float>());
    o[9] = __float_as_uint(fs);
    unsigned long long ws = cg::reduce(tile, w, cg::plus<unsigned long long>());
    o[10] = (unsigned)ws;
    o[11] = (unsigned)(ws >> 32);
    // a user functor (max as a lambda)
    o[12] = cg::reduce(tile, v, [](unsigned a, unsigned b) { return a < b ? b : a; });
    o[13] = cg::inclusive_scan(tile, v);
    o[14] = cg::exclusive_scan(tile, v);
    o[15] = cg::inclusive_scan(tile, v, cg::bit_xor<unsigned>());
    o[16] = cg::exclusive_scan(tile, v, cg::bit_or<unsigned>());
    o[17] = cg::inclusive_scan(tile, v, cg::greater<unsigned>());
    o[18] = cg::exclusive_scan(tile, v, cg::less<unsigned>());
    o[19] = (unsigned)cg::inclusive_scan(tile, s, cg::plus<int>());
    unsigned long long ws2 = cg::exclusive_scan(tile, w);
    o[20] = (unsigned)ws2;
    o[21] = (unsigned)(ws2 >> 32);
    // the asynchronous forms: one tile member stores / updates the result,
    // visible to the tile after tile.sync(); store[64k + m] takes tile m's
    // sum, store[64k + 32 + m] accumulates tile m's updates
    unsigned m = tile.meta_group_rank();
    cg::reduce_store_async(tile, (unsigned *)(store + 64 * k + m), v, cg::plus<unsigned>());
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> acc(store[64 * k + 32 + m]);
    cg::reduce_update_async(tile, acc, w, cg::plus<unsigned long long>());
    tile.sync();
    o[22] = *(volatile unsigned *)(store + 64 * k + m);
    // acc = sum(w) before; returns sum(w) + inclusive scan of v & 0xff
    o[23] = (unsigned)cg::inclusive_scan_update(tile, acc, (unsigned long long)(v & 0xffu),
                                                cg::plus<unsigned long long>());
}

__global__ void reductions(const unsigned *in, unsigned *out, unsigned long long *store)
{
    cg::thread_block tb = cg::this_thread_block();
    reduce_ops<4>(tb, in, out, 0, store);
    reduce_ops<16>(tb, in, out, 1, store);
    reduce_ops<32>(tb, in, out, 2, store);
}

// ---------------------------------------------------------- memcpy_async
// One block of 128 threads: two block-wide copies waited for with
// wait_prior<1> and wait, then warp-wide copies of odd byte counts: 61 bytes
// at offsets 3 <- 4 (the pointers differ in bit 0: a byte copy) and 45
// bytes at 2 <- 70 (they differ in bit 2: two head bytes, then 4-byte
// async copies, then a tail).  (Both pointers odd with bit 1 differing, say
// 3 <- 5, makes the header pick unaligned 2-byte copies, which fault.)
// out[0..127]: a[t] + a[255 - t]; out[128..255]: b[t] ^ b[t + 128];
// out[256..335]: c (zero except c[3..63] = bytes[4..64]); out[336..399]:
// d (zero except d[2..46] = bytes[70..114]).
__global__ void memcpy_k(const unsigned *in, const unsigned char *bytes, unsigned *out)
{
    __shared__ __align__(16) unsigned a[256], b[256];
    __shared__ __align__(16) unsigned char c[80], d[64];
    cg::thread_block tb = cg::this_thread_block();
    unsigned t = tb.thread_rank();
    if (t < 80)
        c[t] = 0;
    if (t < 64)
        d[t] = 0;
    tb.sync();
    cg::memcpy_async(tb, a, in, sizeof(unsigned) * 256);
    cg::memcpy_async(tb, b, in + 256, cuda::aligned_size_t<16>(sizeof(unsigned) * 256));
    cg::wait_prior<1>(tb);
    out[t] = a[t] + a[255 - t];
    cg::wait(tb);
    out[128 + t] = b[t] ^ b[t + 128];
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tb);
    if (warp.meta_group_rank() == 1) {
        cg::memcpy_async(warp, c + 3, bytes + 4, 61);
        cg::wait(warp);
    } else if (warp.meta_group_rank() == 2) {
        cg::memcpy_async(warp, d + 2, bytes + 70, 45);
        cg::wait(warp);
    }
    tb.sync();
    if (t < 80)
        out[256 + t] = c[t];
    if (t < 64)
        out[336 + t] = d[t];
}

// ------------------------------------------------------- pipeline_prims
// One block of 64 threads; 8 results per thread at out + 8 * t.
__global__ void pipeline_prims(const unsigned *in, unsigned *out)
{
    __shared__ __align__(16) unsigned s4[64], s8[128], s16[256], z[256], x[64];
    __shared__ __mbarrier_t bar;
    unsigned t = threadIdx.x;
    unsigned *o = out + 8 * t;
    __pipeline_memcpy_async(&s4[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_memcpy_async(&s8[2 * t], &in[64 + 2 * t], 8);
    __pipeline_commit();
    __pipeline_memcpy_async(&s16[4 * t], &in[192 + 4 * t], 16);
    // zfill: the last 4 * (t % 4) bytes of the 16 are zeros, not copied
    __pipeline_memcpy_async(&z[4 * t], &in[448 + 4 * t], 16, 4 * (t % 4));
    __pipeline_commit();
    __pipeline_wait_prior(2);
    o[0] = s4[t];
    __pipeline_wait_prior(1);
    o[1] = s8[2 * t] + 3u * s8[2 * t + 1];
    __pipeline_wait_prior(0);
    o[2] = s16[4 * t] ^ s16[4 * t + 1] ^ s16[4 * t + 2] ^ s16[4 * t + 3];
    o[3] = z[4 * t] + z[4 * t + 1] * 2u + z[4 * t + 2] * 4u + z[4 * t + 3] * 8u;
#if __CUDA_ARCH__ >= 700
    // __pipeline_arrive_on: the barrier's phase completes once every
    // thread's prior copies have landed, so a thread may read another's
    if (t == 0)
        __mbarrier_init(&bar, 64);
    __syncthreads();
    __pipeline_memcpy_async(&x[t], &in[704 + t], 4);
    __pipeline_arrive_on(&bar);
    __mbarrier_token_t tok = __mbarrier_arrive(&bar);
    while (!__mbarrier_test_wait(&bar, tok))
        ;
    o[4] = x[63 - t];
    o[5] = __mbarrier_token_pending_count(tok) * 0u + 1u;
    __syncthreads();
    if (t == 0)
        __mbarrier_inval(&bar);
#else
    o[4] = in[704 + 63 - t];
    o[5] = 1u;
#endif
    o[6] = __mbarrier_maximum_count() >= 64u;
    o[7] = 0;
}

// --------------------------------------------------------- cuda_pipeline
// One block of 64 threads: warp 0 produces 8 chunks of 32 words through a
// two-stage cuda::pipeline, warp 1 consumes them: out[c * 32 + l] =
// in[c * 32 + l] * 3 + c.  Then a thread-scope pipeline per thread, four
// stages: out[256 + t] = in[256 + t] + in[320 + t] + in[384 + t] + in[448 + t].
__global__ void cuda_pipe(const unsigned *in, unsigned *out)
{
    constexpr unsigned stages = 2, chunks = 8;
    __shared__ __align__(16) unsigned buf[stages][32];
    __shared__ __align__(16) unsigned own[4][64];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    cg::thread_block tb = cg::this_thread_block();
    unsigned t = tb.thread_rank(), lane = t % 32;
    cuda::pipeline_role role = t < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(tb, &state, role);
    for (unsigned c = 0; c < chunks; c++) {
        unsigned s = c % stages;
        if (role == cuda::pipeline_role::producer) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[s][lane], &in[c * 32 + lane], sizeof(unsigned), pipe);
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();
            out[c * 32 + lane] = buf[s][lane] * 3u + c;
            pipe.consumer_release();
        }
    }
    cuda::pipeline<cuda::thread_scope_thread> mine = cuda::make_pipeline();
    for (unsigned k = 0; k < 4; k++) {
        mine.producer_acquire();
        cuda::memcpy_async(&own[k][t], &in[256 + 64 * k + t], cuda::aligned_size_t<4>(4), mine);
        mine.producer_commit();
    }
    unsigned sum = 0;
    for (unsigned k = 0; k < 4; k++) {
        mine.consumer_wait();
        sum += own[k][t];
        mine.consumer_release();
    }
    out[256 + t] = sum;
}

// ---------------------------------------------------------- cuda_barrier
struct count_phase {
    unsigned *n;
    __device__ void operator()() noexcept { *n += 1; }
};

// One block of 64 threads; out[0..63] etc. as the test describes.
__global__ void cuda_bar(const unsigned *in, unsigned *out)
{
    using barrier_t = cuda::barrier<cuda::thread_scope_block>;
    __shared__ barrier_t bar, cpbar;
    __shared__ cuda::barrier<cuda::thread_scope_block, count_phase> cbar;
    __shared__ unsigned sm[64], cp[64], phases;
    cg::thread_block tb = cg::this_thread_block();
    unsigned t = tb.thread_rank();
    if (t == 0) {
        init(&bar, 64);
        init(&cpbar, 64);
        phases = 0;
        init(&cbar, 64, count_phase{&phases});
    }
    tb.sync();
    // memcpy_async completing on a barrier
    cuda::memcpy_async(tb, cp, in, sizeof(unsigned) * 64, cpbar);
    cpbar.arrive_and_wait();
    out[t] = cp[63 - t];
    sm[t] = t * 5u + 1u;
    bar.arrive_and_wait();
    out[64 + t] = sm[63 - t];
    bar.arrive_and_wait();
    sm[t] = t + 100u;
    barrier_t::arrival_token tok = bar.arrive();
    bar.wait(std::move(tok));
    out[128 + t] = sm[(t + 1) % 64];
    // three phases of the barrier with a completion function
    for (int k = 0; k < 3; k++)
        cbar.arrive_and_wait();
    out[192 + t] = phases;
    bar.arrive_and_wait();
    // the upper half drops out: later phases expect 32 arrivals
    if (t >= 32) {
        bar.arrive_and_drop();
        out[256 + t] = 0;
        out[320 + t] = 0;
    } else {
        sm[t] = t * t;
        bar.arrive_and_wait();
        out[256 + t] = sm[31 - t];
        bar.arrive_and_wait();
        sm[t] = t ^ 0x55u;
        bar.arrive_and_wait();
        out[320 + t] = sm[(t + 5) % 32];
    }
}

// ----------------------------------------------------------- multi_tiles
// One block of 512 threads; thread_block_tile<64/128/256/512>: 12 results
// per thread at out + 12 * (512 * k + t).  sm_80+ keeps the tiles' scratch
// in reserved shared memory (%reserved_smem_offset_1); sm_75 needs a
// block_tile_memory.
template <unsigned S>
__device__ void multi_ops(cg::thread_block tb, const unsigned *in, unsigned *out, unsigned k)
{
    __shared__ unsigned sm[512];
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 12 * (512 * k + t);
    cg::thread_block_tile<S> tile = cg::tiled_partition<S>(tb);
    unsigned r = tile.thread_rank();
    o[0] = r;
    o[1] = tile.num_threads();
    o[2] = tile.meta_group_rank();
    o[3] = tile.meta_group_size();
    o[4] = tile.shfl(v, S / 2 + 3);
    o[5] = tile.any(v == 0x12345677u);
    o[6] = tile.all(v != 0xffffffffu);
    o[7] = cg::reduce(tile, v, cg::plus<unsigned>());
    o[8] = cg::reduce(tile, v, cg::greater<unsigned>());
    o[9] = cg::inclusive_scan(tile, v);
    o[10] = cg::exclusive_scan(tile, v, cg::bit_xor<unsigned>());
    sm[t] = v ^ 0xffu;
    tile.sync();
    o[11] = sm[t - r + (r + 1) % S];
    tb.sync();
}

__global__ void multi_tiles(const unsigned *in, unsigned *out)
{
#if __CUDA_ARCH__ >= 800
    cg::thread_block tb = cg::this_thread_block();
#else
    __shared__ cg::block_tile_memory<512> scratch;
    cg::thread_block tb = cg::this_thread_block(scratch);
#endif
    multi_ops<64>(tb, in, out, 0);
    multi_ops<128>(tb, in, out, 1);
    multi_ops<256>(tb, in, out, 2);
    multi_ops<512>(tb, in, out, 3);
}

// -------------------------------------------------------------- invoke_k
// One block of 64 threads: invoke_one / invoke_one_broadcast (elect.sync on
// sm_90, rank 0 before) on tiles of 8 and 32 and on a coalesced group.
// counts[0..7]: calls per 8-tile, counts[8..9]: per warp, counts[10..11]:
// per coalesced group (one per warp); out + 4 * t: the broadcast ranks
// (tile<8>, tile<32>, coalesced or 0xffffffff) and the thread's
// coalesced-group rank.
__global__ void invoke_k(const unsigned *in, unsigned *out, unsigned *counts)
{
    cg::thread_block tb = cg::this_thread_block();
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 4 * t;
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(tb);
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(tb);
    unsigned r8 = t8.thread_rank(), r32 = t32.thread_rank();
    cg::invoke_one(t8, [&] { atomicAdd(&counts[t8.meta_group_rank()], 1u); });
    cg::invoke_one(t32, [&] { atomicAdd(&counts[8 + t32.meta_group_rank()], 1u); });
    o[0] = cg::invoke_one_broadcast(t8, [&] { return r8; });
    o[1] = cg::invoke_one_broadcast(t32, [&] { return r32; });
    o[2] = 0xffffffffu;
    o[3] = 0xffffffffu;
    if (v & 2) {
        cg::coalesced_group g = cg::coalesced_threads();
        unsigned rg = g.thread_rank();
        cg::invoke_one(g, [&] { atomicAdd(&counts[10 + t / 32], 1u); });
        o[2] = cg::invoke_one_broadcast(g, [&] { return rg; });
        o[3] = rg;
    }
}

// ------------------------------------------------------------ shfl_edges
// One block of 64 threads; tiles of 8 and 32, 8 results each per thread at
// out + 8 * (64 * k + t): source ranks out of range (taken modulo the
// width), deltas of the tile width (own value), a 12-byte struct and a
// float through the generic shuffle.
struct three {
    unsigned a, b, c;
};

template <unsigned S>
__device__ void edge_ops(cg::thread_block tb, const unsigned *in, unsigned *out, unsigned k)
{
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 8 * (64 * k + t);
    cg::thread_block_tile<S> tile = cg::tiled_partition<S>(tb);
    unsigned r = tile.thread_rank();
    o[0] = tile.shfl(v, r + S);
    o[1] = tile.shfl(v, 3 + 2 * S);
    o[2] = tile.shfl_up(v, S);
    o[3] = tile.shfl_down(v, S);
    three x = {v, v ^ 0xffffffffu, r};
    three y = tile.shfl(x, (r + 2) % S);
    o[4] = y.a;
    o[5] = y.b;
    o[6] = y.c;
    float f = __uint_as_float(v);
    o[7] = __float_as_uint(tile.shfl_xor(f, 1));
}

__global__ void shfl_edges(const unsigned *in, unsigned *out)
{
    cg::thread_block tb = cg::this_thread_block();
    edge_ops<8>(tb, in, out, 0);
    edge_ops<32>(tb, in, out, 1);
}

// ------------------------------------------------------- divergent_sync
// One block of 64 threads.  Odd and even lanes reach warp.sync() and the
// block's sync() at different program points, which sm_70+ (independent
// thread scheduling; barrier.sync without .aligned counts threads) allows;
// with the SIMT stack of older GPUs it is undefined.  out + 2 * t.
__global__ void divergent_sync(const unsigned *in, unsigned *out)
{
    __shared__ unsigned sm[64];
    cg::thread_block tb = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tb);
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 2 * t;
    if (t & 1) {
        sm[t] = v * 3u;
        warp.sync();
        o[0] = sm[t ^ 1u];
    } else {
        sm[t] = v + 7u;
        warp.sync();
        o[0] = sm[t ^ 1u] ^ 0x10000u;
    }
    tb.sync();
    if (t < 16) {
        sm[t] = t;
        tb.sync();
    } else {
        tb.sync();
    }
    o[1] = t < 16 ? 0 : sm[t % 16];
}

// Two blocks of 64 threads: lanes t % 4 == 0 and t % 4 == 2 reach the
// block's sync() (barrier.sync, counted per thread) at two program points,
// the odd lanes finish without it (exited threads do not count; CG's sync,
// unlike __syncthreads, which is bar.sync and must not be divergent).
// out[t]: sm[t ^ 2] + 1000 * block for even t, 7 for odd t.
__global__ void barrier_exit(unsigned *out)
{
    __shared__ unsigned sm[64];
    cg::thread_block tb = cg::this_thread_block();
    unsigned t = threadIdx.x, b = blockIdx.x;
    unsigned *o = out + 64 * b;
    if ((t & 3) == 0) {
        sm[t] = t + 1u;
        tb.sync();
        o[t] = sm[t ^ 2u] + 1000u * b;
    } else if ((t & 3) == 2) {
        sm[t] = t + 1u;
        tb.sync();
        o[t] = sm[t ^ 2u] + 1000u * b;
    } else {
        o[t] = 7u;
    }
}

// The same for warp.shfl and warp.ballot (shfl.sync / vote.sync at two
// program points): out + 2 * t.
__global__ void divergent_shfl(const unsigned *in, unsigned *out)
{
    cg::thread_block tb = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(tb);
    unsigned t = tb.thread_rank(), v = in[t];
    unsigned *o = out + 2 * t;
    if (t & 1) {
        o[0] = warp.shfl(v, 0);
        o[1] = warp.ballot(v & 1u);
    } else {
        o[0] = warp.shfl(v + 1u, 31);
        o[1] = warp.ballot(!(v & 1u)) ^ 0x5u;
    }
}

// ------------------------------------------------------------ grid_split
// A cooperative launch of 4 blocks x 32 threads: grid.barrier_arrive /
// barrier_wait (split grid barrier) and thread_block::barrier_arrive /
// barrier_wait.  out[b * 32 + l] = buf[(b + 1) % 4] * 32 + l + l' where
// buf[b] = b + 1 written before the barrier and l' = the neighbour lane's
// value through shared memory.
__global__ void grid_split(unsigned *buf, unsigned *out)
{
    __shared__ unsigned sm[32];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block tb = cg::this_thread_block();
    unsigned b = (unsigned)grid.block_rank(), l = tb.thread_rank();
    if (l == 0)
        buf[b] = b + 1;
    sm[l] = l * l;
    cg::thread_block::arrival_token btok = tb.barrier_arrive();
    tb.barrier_wait(std::move(btok));
    cg::grid_group::arrival_token tok = grid.barrier_arrive();
    unsigned mine = sm[(l + 1) % 32];
    grid.barrier_wait(std::move(tok));
    out[b * 32 + l] = *(volatile unsigned *)&buf[(b + 1) % grid.num_blocks()] * 32u + l + mine;
}

// ------------------------------------------------------------- cluster_k
// sm_90: this_cluster() of an ordinary launch (a cluster of one block),
// its queries (%cluster_* special registers) and barrier.cluster,
// grid (2,1,1) x block 64: 12 results per thread at out + 12 * (64 * b + t).
__global__ void cluster_k(unsigned *out)
{
    cg::thread_block tb = cg::this_thread_block();
    unsigned t = tb.thread_rank(), b = blockIdx.x;
    unsigned *o = out + 12 * (64 * b + t);
#if __CUDA_ARCH__ >= 900
    __shared__ unsigned sm[64];
    cg::cluster_group cl = cg::this_cluster();
    o[0] = cl.block_rank();
    o[1] = cl.num_blocks();
    o[2] = cl.dim_blocks().x | cl.dim_blocks().y << 8 | cl.dim_blocks().z << 16;
    o[3] = cl.block_index().x | cl.block_index().y << 8 | cl.block_index().z << 16;
    o[4] = cl.thread_rank();
    o[5] = cl.num_threads();
    o[6] = cl.dim_threads().x;
    sm[t] = t + 1000u * b;
    cl.sync();
    // map_shared_rank / query_shared_rank (mapa, getctarank) are left
    // out: ptxemu does not run cluster instructions yet
    o[7] = sm[(t + 1) % 64];
    o[8] = 0;
    o[9] = (unsigned)cg::this_grid().cluster_rank() | (unsigned)cg::this_grid().num_clusters() << 8;
    cl.barrier_wait(cl.barrier_arrive());
    o[10] = cg::this_grid().cluster_index().x;
    o[11] = cg::this_grid().dim_clusters().x;
#else
    for (int k = 0; k < 12; k++)
        o[k] = 0xffffffffu;
#endif
}
