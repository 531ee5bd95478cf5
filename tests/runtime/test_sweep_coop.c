/* tests/runtime/test_sweep_coop.c — the cooperative-groups part of the
 * intrinsics sweep (issue 17): tests/corpus/cuda/sweep_coop.cu as nvcc 13
 * compiles it for sm_75, sm_80 and sm_90 (committed PTX from
 * scripts/regen-ptx.sh), each kernel run with the SIMT stack and again under
 * independent thread scheduling (ptxemu_options.its), every result checked
 * against a CPU model written from the CUDA Programming Guide's
 * cooperative-groups and asynchronous-copy chapters:
 *   block_grid      this_thread_block() and this_grid() members (ranks,
 *                   indices, dimensions, sync, the type-erased thread_group),
 *                   grid.is_valid() false without and true with a
 *                   cooperative launch;
 *   tiles           thread_block_tile<1..32> of the block and of a warp tile,
 *                   shfl/shfl_up/shfl_down/shfl_xor (32 and 64 bit), any,
 *                   all, ballot, match_any, match_all, sync, meta_group_*,
 *                   dynamic tiled_partition;
 *   coalesced       coalesced_threads() in a divergent branch (rank among
 *                   the active lanes) and nested inside it, its collectives,
 *                   reduce/scan over it, tiled_partition of it;
 *   partitions      labeled_partition and binary_partition of a warp tile
 *                   and of an 8-thread tile;
 *   reductions      cg::reduce with plus/less/greater/bit_and/bit_or/bit_xor
 *                   and a lambda on tiles of 4, 16 and 32 (redux.sync on
 *                   sm_80+ for 16 and 32), inclusive/exclusive_scan,
 *                   reduce_store_async, reduce_update_async,
 *                   inclusive_scan_update;
 *   memcpy_k        cg::memcpy_async, wait_prior<1>, wait;
 *   pipeline_prims  __pipeline_memcpy_async (4/8/16 bytes, zero fill),
 *                   __pipeline_commit, __pipeline_wait_prior,
 *                   __pipeline_arrive_on with the __mbarrier_* primitives;
 *   cuda_pipe       cuda::pipeline producer/consumer (block scope, two
 *                   stages) and a thread-scope pipeline;
 *   cuda_bar        cuda::barrier arrive/wait/arrive_and_wait/arrive_and_drop,
 *                   a completion function, cuda::memcpy_async on a barrier;
 *   multi_tiles     thread_block_tile<64/128/256/512> (reserved shared
 *                   memory on sm_80+, block_tile_memory on sm_75): ranks,
 *                   shfl, any, all, sync, reduce, scans;
 *   invoke_k        invoke_one / invoke_one_broadcast (elect.sync on sm_90):
 *                   one call per group, the caller a member, one value;
 *   shfl_edges      source ranks past the tile (modulo the width), deltas of
 *                   the tile width, a 12-byte struct and a float (NaN, -0,
 *                   subnormal bits) through the generic shuffle;
 *   divergent_sync  warp.sync and thread_block::sync (barrier.sync, counted
 *                   per thread) from two program points: ITS only; the SIMT
 *                   stack deadlocks as a pre-Volta GPU would;
 *   barrier_exit    the same with the warp's other lanes exiting (ITS);
 *   divergent_shfl  shfl/ballot from two program points: legal on sm_70+,
 *                   ITS only;
 *   grid_split      grid.barrier_arrive/barrier_wait and
 *                   thread_block::barrier_arrive/barrier_wait under a
 *                   cooperative launch;
 *   cluster_k       sm_90 this_cluster() of a launch without clusters (one
 *                   block per cluster): %cluster_* queries, this_grid()'s
 *                   cluster queries, barrier.cluster.arrive/wait.
 * An exclusive scan's result for rank 0 is not specified and not checked;
 * neither is which lane invoke_one elects. */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>

static const char *const archs[] = {"75", "80", "90"};

typedef struct fixture {
    test_corpus c;
    bool its, timing;
} fixture;

/* variant v: archs[v / 2], ITS when v is odd */
#define VARIANTS (2 * G_N_ELEMENTS(archs))

static void load(fixture *f, size_t variant, bool timing)
{
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    f->its = variant % 2 == 1;
    o.its = f->its ? 1 : -1;
    o.timing = timing;
    f->timing = timing;
    test_corpus_load(&f->c, "sweep_coop", archs[variant / 2], &o);
}

static void launch(fixture *f, const char *k, ptxemu_dim3 g, ptxemu_dim3 b, void **args)
{
    ptxemu_status s = ptxemu_launch(f->c.mod, k, g, b, 0, args);
    if (s != PTXEMU_OK)
        fail_msg("sm_%u%s%s %s: %s", f->c.sm, f->its ? " its" : "", f->timing ? " timing" : "", k,
                 ptxemu_last_error(f->c.ctx));
    if (f->timing) {
        ptxemu_counters c;
        ptxemu_get_counters(f->c.ctx, &c);
        assert_true(c.cycles > 0);
    }
}

static void launch1(fixture *f, const char *k, unsigned threads, void **args)
{
    launch(f, k, (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){threads, 1, 1}, args);
}

/* kernel(const uint32_t *in, uint32_t *out) on one block: test_corpus_run_io,
 * but launched by launch1 (the variant in messages, the cycle check) */
static void run_io(fixture *f, const char *k, unsigned threads, const void *in, size_t in_bytes,
                   void *out, size_t out_bytes)
{
    ptxemu_dptr din = test_corpus_upload(&f->c, in, in_bytes),
                dout = test_corpus_upload(&f->c, NULL, out_bytes);
    void *args[] = {&din, &dout};
    launch1(f, k, threads, args);
    test_corpus_download(&f->c, out, dout, out_bytes);
}

static void check(const fixture *f, const char *what, unsigned t, unsigned k, uint32_t got,
                  uint32_t want)
{
    if (got != want)
        fail_msg("sm_%u%s%s %s thread %u result %u: got 0x%08x, want 0x%08x", f->c.sm,
                 f->its ? " its" : "", f->timing ? " timing" : "", what, t, k, got, want);
}

/* Bits 0..n-1 set (n <= 32). */
static uint32_t low_bits(unsigned n)
{
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

/* 64 inputs with structure: lanes 8-15 odd (all() true in small tiles),
 * lanes 32-47 equal (match_all true), extremes at 48-51. */
static void make_inputs(uint32_t in[64], uint32_t seed)
{
    for (unsigned t = 0; t < 64; t++)
        in[t] = test_rng(&seed);
    for (unsigned t = 8; t < 16; t++)
        in[t] |= 1u;
    for (unsigned t = 32; t < 48; t++)
        in[t] = 0x12345677u;
    in[48] = 0;
    in[49] = 0xffffffffu;
    in[50] = 0x80000000u;
    in[51] = 0x7fffffffu;
    in[52] = 3;
    in[53] = 0x3u << 30;
}

/* ------------------------------------------------------------ block_grid */

static void run_block_grid(fixture *f, bool cooperative)
{
    const unsigned gx = 3, gy = 2, bx = 8, by = 4, bz = 2, nb = gx * gy, nt = bx * by * bz;
    uint32_t *out = g_new0(uint32_t, 32 * nb * nt);
    ptxemu_dptr dout = test_corpus_upload(&f->c, NULL, 32 * nb * nt * 4);
    void *args[] = {&dout};
    ptxemu_dim3 g = {gx, gy, 1}, b = {bx, by, bz};
    if (cooperative) {
        ptxemu_status s = ptxemu_launch_cooperative(f->c.mod, "_Z10block_gridPj", g, b, 0, args);
        if (s != PTXEMU_OK)
            fail_msg("sm_%u cooperative block_grid: %s", f->c.sm, ptxemu_last_error(f->c.ctx));
    } else {
        launch(f, "_Z10block_gridPj", g, b, args);
    }
    test_corpus_download(&f->c, out, dout, 32 * nb * nt * 4);
    for (unsigned cy = 0; cy < gy; cy++)
        for (unsigned cx = 0; cx < gx; cx++)
            for (unsigned z = 0; z < bz; z++)
                for (unsigned y = 0; y < by; y++)
                    for (unsigned x = 0; x < bx; x++) {
                        unsigned r = x + bx * (y + by * z), br = cx + gx * cy;
                        unsigned id = br * nt + r;
                        const uint32_t *o = out + 32 * id;
                        const uint32_t want[32] = {
                            r,  cx, cy, 0, x, y, z, bx, by, bz, nt, nt, id, br, nb, gx,
                            gy, 1,  cx, cy, 0, nb * nt, cooperative,
                            ((r + 1) % nt) * 7u + br, r, nt,
                            cx * bx + x, cy * by + y, z, gx * bx, gy * by, bz};
                        for (unsigned k = 0; k < 32; k++)
                            check(f, cooperative ? "block_grid (cooperative)" : "block_grid",
                                  id, k, o[k], want[k]);
                    }
    g_free(out);
}

static void test_block_grid(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        run_block_grid(&f, false);
        run_block_grid(&f, true);
        test_corpus_close(&f.c);
    }
}

/* ----------------------------------------------------------------- tiles */

static void test_tiles(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64];
        make_inputs(in, 11u + (uint32_t)v);
        size_t n = 24 * 64 * 6;
        uint32_t *out = g_new0(uint32_t, n);
        run_io(&f, "_Z5tilesPKjPj", 64, in, sizeof in, out, n * 4);
        for (unsigned k = 0; k < 6; k++) {
            unsigned S = 1u << k;
            char what[32];
            snprintf(what, sizeof what, "tile<%u>", S);
            for (unsigned t = 0; t < 64; t++) {
                const uint32_t *o = out + 24 * (64 * k + t);
                const uint32_t *tv = in + (t & ~(S - 1)); /* the tile's values by rank */
                unsigned r = t % S;
                uint32_t v0 = in[t], any = 0, all = 1, bal = 0, same3 = 0, eq = 1;
                for (unsigned j = 0; j < S; j++) {
                    any |= tv[j] & 1u;
                    all &= tv[j] & 1u;
                    bal |= (tv[j] & 1u) << j;
                    same3 |= (uint32_t)((tv[j] & 3u) == (v0 & 3u)) << j;
                    eq &= (tv[j] >> 8) == (tv[0] >> 8);
                }
                uint32_t want[24] = {
                    r,
                    S,
                    t / S,
                    64 / S,
                    tv[(r * 3 + 1) % S],
                    r >= 1 ? tv[r - 1] : v0,
                    r + 1 < S ? tv[r + 1] : v0,
                    tv[r ^ (S > 1 ? S / 2 : 0)],
                    any,
                    all,
                    bal,
                    same3,
                    eq ? low_bits(S) : 0,
                    eq,
                    tv[S - 1] ^ 0x5a5a5a5au,
                    tv[S - 1],
                    S > 1 && r + 1 < S ? tv[r + 1] : v0,
                    tv[(r + 1) % S] + 1u,
                    (t % 32) / S,
                    32 / S,
                    tv[0],
                    r | S << 8,
                    r | S << 8,
                    r | S << 8,
                };
                for (unsigned q = 0; q < 24; q++)
                    check(&f, what, t, q, o[q], want[q]);
            }
        }
        g_free(out);
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------- coalesced */

static void test_coalesced(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64];
        make_inputs(in, 23u + (uint32_t)v);
        uint32_t out[24 * 64];
        run_io(&f, "_Z9coalescedPKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned w = 0; w < 2; w++) {
            /* the group: the warp's lanes with in % 3 != 0, in lane order */
            uint32_t a[32], h[32];
            unsigned n = 0, nh = 0;
            for (unsigned l = 0; l < 32; l++) {
                uint32_t x = in[32 * w + l];
                if (x % 3 != 0) {
                    a[n++] = x;
                    if (x & 1)
                        h[nh++] = x;
                }
            }
            unsigned rank = 0, hrank = 0;
            for (unsigned l = 0; l < 32; l++) {
                unsigned t = 32 * w + l;
                uint32_t x = in[t];
                const uint32_t *o = out + 24 * t;
                if (x % 3 == 0) {
                    for (unsigned q = 0; q < 24; q++)
                        check(&f, "coalesced (inactive)", t, q, o[q], 0xffffffffu);
                    continue;
                }
                uint32_t any = 0, all = 1, bal = 0, same3 = 0, eq = 1, sum = 0, mx = 0, inc = 0;
                for (unsigned j = 0; j < n; j++) {
                    any |= (a[j] & 4u) != 0;
                    all &= a[j] & 1u;
                    bal |= (a[j] & 1u) << j;
                    same3 |= (uint32_t)((a[j] & 3u) == (x & 3u)) << j;
                    eq &= (a[j] & 0x80000000u) == (a[0] & 0x80000000u);
                    sum += a[j];
                    mx = a[j] > mx ? a[j] : mx;
                    if (j <= rank)
                        inc += a[j];
                }
                unsigned q4 = rank / 4 * 4, qn = n - q4 < 4 ? n - q4 : 4;
                uint32_t hx = 0;
                for (unsigned j = 0; j < nh; j++)
                    hx ^= h[j];
                uint32_t want[24] = {
                    rank,
                    n,
                    n,
                    a[0],
                    a[n - 1],
                    a[(rank + 1) % n],
                    rank >= 1 ? a[rank - 1] : x,
                    rank + 2 < n ? a[rank + 2] : x,
                    any,
                    all,
                    bal,
                    same3,
                    eq ? low_bits(n) : 0,
                    eq,
                    0 | 1u << 8,
                    sum,
                    mx,
                    inc,
                    inc - x,
                    (rank % 4) | qn << 8,
                    (rank / 4) | ((n + 3) / 4) << 8,
                    a[q4],
                    (x & 1) ? (hrank | nh << 8) : 0xffffffffu,
                    (x & 1) ? hx : 0xffffffffu,
                };
                for (unsigned q = 0; q < 24; q++)
                    if (!(q == 18 && rank == 0))
                        check(&f, "coalesced", t, q, o[q], want[q]);
                rank++;
                if (x & 1)
                    hrank++;
            }
        }
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------ partitions */

/* The partition of `vals[0..n-1]` by `label`: rank and size of element i's
 * group, the group's values in order, and the number of distinct labels. */
typedef struct part {
    unsigned rank, size, groups;
    uint32_t vals[32];
} part;

static part partition(const uint32_t *vals, unsigned n, const uint32_t *label, unsigned i)
{
    part p = {0};
    for (unsigned j = 0; j < n; j++) {
        bool first = true;
        for (unsigned k = 0; k < j; k++)
            first &= label[k] != label[j];
        p.groups += first;
        if (label[j] == label[i]) {
            if (j < i)
                p.rank++;
            p.vals[p.size++] = vals[j];
        }
    }
    return p;
}

static void test_partitions(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64];
        make_inputs(in, 37u + (uint32_t)v);
        uint32_t out[16 * 64];
        run_io(&f, "_Z10partitionsPKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 64; t++) {
            const uint32_t *o = out + 16 * t;
            const uint32_t *wv = in + (t & ~31u), *ev = in + (t & ~7u);
            uint32_t lab5[32], lab8[32], lab1[8], labb[8];
            for (unsigned j = 0; j < 32; j++) {
                lab5[j] = wv[j] % 5;
                lab8[j] = (wv[j] & 8) != 0;
            }
            for (unsigned j = 0; j < 8; j++) {
                lab1[j] = ev[j] & 1;
                labb[j] = ev[j] > 2000000000u;
            }
            part lp = partition(wv, 32, lab5, t % 32), bp = partition(wv, 32, lab8, t % 32);
            part lp8 = partition(ev, 8, lab1, t % 8), bp8 = partition(ev, 8, labb, t % 8);
            uint32_t sum = 0, bal = 0, mn = UINT32_MAX, ex = 0, orv = 0;
            for (unsigned j = 0; j < lp.size; j++) {
                sum += lp.vals[j];
                bal |= (lp.vals[j] & 1u) << j;
            }
            for (unsigned j = 0; j < bp.size; j++) {
                mn = bp.vals[j] < mn ? bp.vals[j] : mn;
                if (j < bp.rank)
                    ex += bp.vals[j];
            }
            for (unsigned j = 0; j < bp8.size; j++)
                orv |= bp8.vals[j];
            check(&f, "labeled_partition rank", t, 0, o[0], lp.rank);
            check(&f, "labeled_partition size", t, 1, o[1], lp.size);
            /* meta_group_rank: some rank below the number of groups */
            if (o[2] >= lp.groups)
                check(&f, "labeled_partition meta_group_rank", t, 2, o[2], 0);
            check(&f, "labeled_partition meta_group_size", t, 3, o[3], lp.groups);
            check(&f, "labeled_partition shfl", t, 4, o[4], lp.vals[lp.size - 1]);
            check(&f, "labeled_partition reduce", t, 5, o[5], sum);
            check(&f, "labeled_partition ballot", t, 6, o[6], bal);
            check(&f, "binary_partition rank", t, 7, o[7], bp.rank);
            check(&f, "binary_partition size", t, 8, o[8], bp.size);
            check(&f, "binary_partition meta_group_size", t, 9, o[9] >> 8, bp.groups);
            if ((o[9] & 0xffu) >= bp.groups)
                check(&f, "binary_partition meta_group_rank", t, 9, o[9] & 0xffu, 0);
            check(&f, "binary_partition reduce(less)", t, 10, o[10], mn);
            if (bp.rank > 0)
                check(&f, "binary_partition exclusive_scan", t, 11, o[11], ex);
            check(&f, "labeled_partition(tile<8>)", t, 12, o[12], lp8.rank | lp8.size << 8);
            check(&f, "labeled_partition(tile<8>) meta_group_size", t, 13, o[13] >> 8,
                  lp8.groups);
            if ((o[13] & 0xffu) >= lp8.groups)
                check(&f, "labeled_partition(tile<8>) meta_group_rank", t, 13, o[13] & 0xffu, 0);
            check(&f, "binary_partition(tile<8>)", t, 14, o[14], bp8.rank | bp8.size << 8);
            check(&f, "binary_partition(tile<8>) reduce(bit_or)", t, 15, o[15], orv);
        }
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------ reductions */

static int32_t sar(int32_t a, unsigned n)
{
    /* arithmetic shift right, spelled out (C leaves >> of negatives to the
     * implementation) */
    return a >= 0 ? a >> n : -(int32_t)(((uint32_t)-(a + 1) >> n) + 1);
}

static void test_reductions(void **state)
{
    static const unsigned sizes[3] = {4, 16, 32};
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64];
        make_inputs(in, 41u + (uint32_t)v);
        size_t n = 24 * 64 * 3;
        uint32_t *out = g_new0(uint32_t, n);
        uint64_t store[64 * 3];
        ptxemu_dptr din = test_corpus_upload(&f.c, in, sizeof in),
                    dout = test_corpus_upload(&f.c, NULL, n * 4);
        ptxemu_dptr dstore = test_corpus_upload(&f.c, NULL, sizeof store);
        void *args[] = {&din, &dout, &dstore};
        launch1(&f, "_Z10reductionsPKjPjPy", 64, args);
        test_corpus_download(&f.c, out, dout, n * 4);
        test_corpus_download(&f.c, store, dstore, sizeof store);
        for (unsigned k = 0; k < 3; k++) {
            unsigned S = sizes[k];
            char what[48];
            for (unsigned t = 0; t < 64; t++) {
                const uint32_t *o = out + 24 * (64 * k + t), *tv = in + (t & ~(S - 1));
                unsigned r = t % S;
                uint32_t sum = 0, mn = UINT32_MAX, mx = 0, an = UINT32_MAX, orv = 0, x = 0;
                int32_t smn = INT32_MAX, smx = INT32_MIN;
                uint32_t ssum = 0, isum = 0, ixor = 0, eor = 0, imax = 0, emin = UINT32_MAX,
                         issum = 0, b8 = 0, ib8 = 0;
                float fsum = 0;
                uint64_t wsum = 0, ewsum = 0;
                for (unsigned j = 0; j < S; j++) {
                    uint32_t a = tv[j];
                    int32_t s = sar((int32_t)(a ^ 0x80000000u), 8);
                    uint64_t w = (uint64_t)a * 0x10001ull;
                    sum += a;
                    mn = a < mn ? a : mn;
                    mx = a > mx ? a : mx;
                    an &= a;
                    orv |= a;
                    x ^= a;
                    smn = s < smn ? s : smn;
                    smx = s > smx ? s : smx;
                    ssum += (uint32_t)s;
                    fsum += (float)(int32_t)(a % 2001u) - 1000.0f;
                    wsum += w;
                    b8 += a & 0xffu;
                    if (j <= r) {
                        isum += a;
                        ixor ^= a;
                        imax = a > imax ? a : imax;
                        issum += (uint32_t)s;
                        ib8 += a & 0xffu;
                    }
                    if (j < r) {
                        eor |= a;
                        emin = a < emin ? a : emin;
                        ewsum += w;
                    }
                }
                uint32_t fbits;
                memcpy(&fbits, &fsum, 4);
                uint64_t upd = wsum + ib8;
                uint32_t want[24] = {sum,  mn,   mx,   an,    orv,  x,    (uint32_t)smn,
                                     (uint32_t)smx, ssum, fbits, (uint32_t)wsum,
                                     (uint32_t)(wsum >> 32), mx, isum, isum - tv[r], ixor,
                                     eor,  imax, emin, issum, (uint32_t)ewsum,
                                     (uint32_t)(ewsum >> 32), sum, (uint32_t)upd};
                static const char *const names[24] = {
                    "reduce plus",         "reduce less",        "reduce greater",
                    "reduce bit_and",      "reduce bit_or",      "reduce bit_xor",
                    "reduce less<int>",    "reduce greater<int>", "reduce plus<int>",
                    "reduce plus<float>",  "reduce plus<u64> lo", "reduce plus<u64> hi",
                    "reduce lambda max",   "inclusive_scan",     "exclusive_scan",
                    "inclusive_scan xor",  "exclusive_scan or",  "inclusive_scan greater",
                    "exclusive_scan less", "inclusive_scan int", "exclusive_scan u64 lo",
                    "exclusive_scan u64 hi", "reduce_store_async", "inclusive_scan_update"};
                for (unsigned q = 0; q < 24; q++) {
                    bool exclusive = q == 14 || q == 16 || q == 18 || q == 20 || q == 21;
                    if (exclusive && r == 0)
                        continue;
                    snprintf(what, sizeof what, "tile<%u> %s", S, names[q]);
                    check(&f, what, t, q, o[q], want[q]);
                }
                if (r == 0) {
                    unsigned m = t / S;
                    snprintf(what, sizeof what, "tile<%u> stored sum", S);
                    check(&f, what, t, 0, (uint32_t)store[64 * k + m], sum);
                    check(&f, what, t, 1, (uint32_t)(store[64 * k + m] >> 32), 0);
                    snprintf(what, sizeof what, "tile<%u> updated atomic", S);
                    check(&f, what, t, 0, (uint32_t)store[64 * k + 32 + m],
                          (uint32_t)(wsum + b8));
                    check(&f, what, t, 1, (uint32_t)(store[64 * k + 32 + m] >> 32),
                          (uint32_t)((wsum + b8) >> 32));
                }
            }
        }
        g_free(out);
        test_corpus_close(&f.c);
    }
}

/* --------------------------------------------------------- memcpy_async */

static void test_memcpy_async(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[512], seed = 53u + (uint32_t)v, out[400];
        uint8_t bytes[128];
        for (unsigned i = 0; i < 512; i++)
            in[i] = test_rng(&seed);
        for (unsigned i = 0; i < 128; i++)
            bytes[i] = (uint8_t)(test_rng(&seed) | 1u);
        ptxemu_dptr din = test_corpus_upload(&f.c, in, sizeof in),
                    db = test_corpus_upload(&f.c, bytes, sizeof bytes);
        ptxemu_dptr dout = test_corpus_upload(&f.c, NULL, sizeof out);
        void *args[] = {&din, &db, &dout};
        launch1(&f, "_Z8memcpy_kPKjPKhPj", 128, args);
        test_corpus_download(&f.c, out, dout, sizeof out);
        for (unsigned t = 0; t < 128; t++) {
            check(&f, "memcpy_async + wait_prior<1>", t, 0, out[t], in[t] + in[255 - t]);
            check(&f, "memcpy_async aligned_size_t<16> + wait", t, 1, out[128 + t],
                  in[256 + t] ^ in[384 + t]);
        }
        for (unsigned i = 0; i < 80; i++)
            check(&f, "memcpy_async(tile<32>) 61 bytes", i, 2, out[256 + i],
                  i >= 3 && i < 64 ? bytes[i + 1] : 0);
        for (unsigned i = 0; i < 64; i++)
            check(&f, "memcpy_async(tile<32>) 45 bytes", i, 3, out[336 + i],
                  i >= 2 && i < 47 ? bytes[i + 68] : 0);
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------- pipeline_prims */

static void test_pipeline_prims(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[768], seed = 61u + (uint32_t)v, out[8 * 64];
        for (unsigned i = 0; i < 768; i++)
            in[i] = test_rng(&seed);
        run_io(&f, "_Z14pipeline_primsPKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 64; t++) {
            const uint32_t *o = out + 8 * t;
            uint32_t zf = 0;
            for (unsigned j = 0; j < 4; j++)
                zf += (j < 4 - t % 4 ? in[448 + 4 * t + j] : 0) << j;
            check(&f, "__pipeline_memcpy_async 4", t, 0, o[0], in[t]);
            check(&f, "__pipeline_memcpy_async 8", t, 1, o[1],
                  in[64 + 2 * t] + 3u * in[65 + 2 * t]);
            check(&f, "__pipeline_memcpy_async 16", t, 2, o[2],
                  in[192 + 4 * t] ^ in[193 + 4 * t] ^ in[194 + 4 * t] ^ in[195 + 4 * t]);
            check(&f, "__pipeline_memcpy_async zfill", t, 3, o[3], zf);
            check(&f, "__pipeline_arrive_on", t, 4, o[4], in[704 + 63 - t]);
            check(&f, "__mbarrier_test_wait", t, 5, o[5], 1);
            check(&f, "__mbarrier_maximum_count", t, 6, o[6], 1);
            check(&f, "zero", t, 7, o[7], 0);
        }
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------ cuda_pipe */

static void test_cuda_pipeline(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[512], seed = 67u + (uint32_t)v, out[320];
        for (unsigned i = 0; i < 512; i++)
            in[i] = test_rng(&seed);
        run_io(&f, "_Z9cuda_pipePKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned i = 0; i < 256; i++)
            check(&f, "cuda::pipeline producer/consumer", i, 0, out[i],
                  in[i] * 3u + i / 32);
        for (unsigned t = 0; t < 64; t++)
            check(&f, "cuda::pipeline thread scope", t, 1, out[256 + t],
                  in[256 + t] + in[320 + t] + in[384 + t] + in[448 + t]);
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------- cuda_bar */

static void test_cuda_barrier(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64], seed = 71u + (uint32_t)v, out[384];
        for (unsigned i = 0; i < 64; i++)
            in[i] = test_rng(&seed);
        run_io(&f, "_Z8cuda_barPKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 64; t++) {
            check(&f, "cuda::memcpy_async(barrier)", t, 0, out[t], in[63 - t]);
            check(&f, "barrier arrive_and_wait", t, 1, out[64 + t], (63 - t) * 5u + 1u);
            check(&f, "barrier arrive + wait", t, 2, out[128 + t], (t + 1) % 64 + 100u);
            check(&f, "barrier completion function", t, 3, out[192 + t], 3);
            check(&f, "barrier after arrive_and_drop", t, 4, out[256 + t],
                  t < 32 ? (31 - t) * (31 - t) : 0);
            check(&f, "barrier after arrive_and_drop (2)", t, 5, out[320 + t],
                  t < 32 ? ((t + 5) % 32) ^ 0x55u : 0);
        }
        test_corpus_close(&f.c);
    }
}

/* ----------------------------------------------------------- multi_tiles */

static void test_multi_tiles(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[512], seed = 73u + (uint32_t)v;
        for (unsigned t = 0; t < 512; t++)
            in[t] = test_rng(&seed);
        for (unsigned t = 32; t < 48; t++)
            in[t] = 0x12345677u;
        in[100] = 0xffffffffu;
        size_t n = 12 * 512 * 4;
        uint32_t *out = g_new0(uint32_t, n);
        run_io(&f, "_Z11multi_tilesPKjPj", 512, in, sizeof in, out, n * 4);
        for (unsigned k = 0; k < 4; k++) {
            unsigned S = 64u << k;
            char what[32];
            snprintf(what, sizeof what, "tile<%u>", S);
            for (unsigned t = 0; t < 512; t++) {
                const uint32_t *o = out + 12 * (512 * k + t), *tv = in + (t & ~(S - 1));
                unsigned r = t % S;
                uint32_t any = 0, all = 1, sum = 0, mx = 0, inc = 0, exx = 0;
                for (unsigned j = 0; j < S; j++) {
                    any |= tv[j] == 0x12345677u;
                    all &= tv[j] != 0xffffffffu;
                    sum += tv[j];
                    mx = tv[j] > mx ? tv[j] : mx;
                    if (j <= r)
                        inc += tv[j];
                    if (j < r)
                        exx ^= tv[j];
                }
                const uint32_t want[12] = {r,   S,   t / S, 512 / S, tv[S / 2 + 3], any,
                                           all, sum, mx,    inc,     exx,
                                           tv[(r + 1) % S] ^ 0xffu};
                for (unsigned q = 0; q < 12; q++)
                    if (!(q == 10 && r == 0))
                        check(&f, what, t, q, o[q], want[q]);
            }
        }
        g_free(out);
        test_corpus_close(&f.c);
    }
}

/* -------------------------------------------------------------- invoke_k */

static void test_invoke_one(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64], out[4 * 64], counts[12];
        make_inputs(in, 79u + (uint32_t)v);
        ptxemu_dptr din = test_corpus_upload(&f.c, in, sizeof in),
                    dout = test_corpus_upload(&f.c, NULL, sizeof out);
        ptxemu_dptr dc = test_corpus_upload(&f.c, NULL, sizeof counts);
        void *args[] = {&din, &dout, &dc};
        launch1(&f, "_Z8invoke_kPKjPjS1_", 64, args);
        test_corpus_download(&f.c, out, dout, sizeof out);
        test_corpus_download(&f.c, counts, dc, sizeof counts);
        /* exactly one call per group; the broadcast value is the calling
         * thread's rank, the same for the whole group */
        for (unsigned g = 0; g < 10; g++)
            check(&f, "invoke_one calls", g, 0, counts[g], 1);
        for (unsigned w = 0; w < 2; w++) {
            unsigned n = 0;
            for (unsigned l = 0; l < 32; l++)
                n += (in[32 * w + l] & 2u) != 0;
            check(&f, "invoke_one(coalesced) calls", w, 0, counts[10 + w], n ? 1 : 0);
            unsigned rank = 0;
            for (unsigned l = 0; l < 32; l++) {
                unsigned t = 32 * w + l;
                const uint32_t *o = out + 4 * t;
                check(&f, "invoke_one_broadcast(tile<8>)", t, 0, o[0], out[4 * (t & ~7u)]);
                if (o[0] >= 8)
                    check(&f, "invoke_one_broadcast(tile<8>) rank", t, 0, o[0], 0);
                check(&f, "invoke_one_broadcast(tile<32>)", t, 1, o[1], out[4 * 32 * w + 1]);
                if (o[1] >= 32)
                    check(&f, "invoke_one_broadcast(tile<32>) rank", t, 1, o[1], 0);
                if (!(in[t] & 2u)) {
                    check(&f, "coalesced (inactive)", t, 2, o[2], 0xffffffffu);
                    check(&f, "coalesced (inactive)", t, 3, o[3], 0xffffffffu);
                    continue;
                }
                check(&f, "coalesced rank", t, 3, o[3], rank++);
                if (o[2] >= n)
                    check(&f, "invoke_one_broadcast(coalesced) rank", t, 2, o[2], 0);
                for (unsigned u = 32 * w; u < t; u++)
                    if (in[u] & 2u)
                        check(&f, "invoke_one_broadcast(coalesced)", t, 2, o[2], out[4 * u + 2]);
            }
        }
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------ shfl_edges */

static void test_shfl_edges(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64], out[8 * 64 * 2];
        make_inputs(in, 83u + (uint32_t)v);
        in[54] = 0x7fc00001u; /* quiet NaN with payload */
        in[55] = 0xff800000u; /* -inf */
        in[56] = 0x80000000u; /* -0 */
        in[57] = 0x00000001u; /* smallest subnormal */
        run_io(&f, "_Z10shfl_edgesPKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned k = 0; k < 2; k++) {
            unsigned S = k ? 32 : 8;
            char what[32];
            snprintf(what, sizeof what, "tile<%u> shfl edge", S);
            for (unsigned t = 0; t < 64; t++) {
                const uint32_t *o = out + 8 * (64 * k + t), *tv = in + (t & ~(S - 1));
                unsigned r = t % S, q = (r + 2) % S;
                const uint32_t want[8] = {in[t], tv[3], in[t],  in[t],
                                          tv[q], ~tv[q], q,     tv[r ^ 1u]};
                for (unsigned j = 0; j < 8; j++)
                    check(&f, what, t, j, o[j], want[j]);
            }
        }
        test_corpus_close(&f.c);
    }
}

/* -------------------------------------------------------- divergent_sync */

static void test_divergent_sync(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64], out[2 * 64];
        make_inputs(in, 89u + (uint32_t)v);
        ptxemu_dptr din = test_corpus_upload(&f.c, in, sizeof in),
                    dout = test_corpus_upload(&f.c, NULL, sizeof out);
        void *args[] = {&din, &dout};
        if (!f.its) {
            /* the SIMT stack runs one side of the branch to the CTA barrier
             * first: the barrier deadlocks, as on a pre-Volta GPU */
            ptxemu_status s = ptxemu_launch(f.c.mod, "_Z14divergent_syncPKjPj",
                                            (ptxemu_dim3){1, 1, 1}, (ptxemu_dim3){64, 1, 1}, 0,
                                            args);
            assert_int_not_equal(s, PTXEMU_OK);
            assert_non_null(strstr(ptxemu_last_error(f.c.ctx), "barrier deadlock"));
            test_corpus_close(&f.c);
            continue;
        }
        launch1(&f, "_Z14divergent_syncPKjPj", 64, args);
        test_corpus_download(&f.c, out, dout, sizeof out);
        for (unsigned t = 0; t < 64; t++) {
            const uint32_t *o = out + 2 * t;
            check(&f, "divergent warp.sync", t, 0, o[0],
                  (t & 1) ? in[t ^ 1u] + 7u : (in[t ^ 1u] * 3u) ^ 0x10000u);
            check(&f, "divergent block sync", t, 1, o[1], t < 16 ? 0 : t % 16);
        }
        test_corpus_close(&f.c);
    }
}

/* barrier.sync reached from two program points by some lanes while the
 * others exit: ITS parks the arrived lanes, then the warp waits as a whole */
static void test_barrier_exit(void **state)
{
    for (size_t v = 1; v < VARIANTS; v += 2) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t out[128];
        ptxemu_dptr dout = test_corpus_upload(&f.c, NULL, sizeof out);
        void *args[] = {&dout};
        launch(&f, "_Z12barrier_exitPj", (ptxemu_dim3){2, 1, 1}, (ptxemu_dim3){64, 1, 1},
               args);
        test_corpus_download(&f.c, out, dout, sizeof out);
        for (unsigned i = 0; i < 128; i++) {
            unsigned t = i % 64;
            check(&f, "barrier.sync with exited lanes", i, 0, out[i],
                  (t & 1) ? 7u : (t ^ 2u) + 1u + 1000u * (i / 64));
        }
        test_corpus_close(&f.c);
    }
}

/* shfl.sync / vote.sync of one membermask at two program points: legal on
 * sm_70+ (ITS runs them together, each lane with its own instruction's
 * operands); the SIMT stack runs each side alone and reads the other
 * side's lanes' registers (undefined there, not checked). */
static void test_divergent_shfl(void **state)
{
    for (size_t v = 1; v < VARIANTS; v += 2) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t in[64], out[2 * 64];
        make_inputs(in, 97u + (uint32_t)v);
        run_io(&f, "_Z14divergent_shflPKjPj", 64, in, sizeof in, out, sizeof out);
        for (unsigned w = 0; w < 2; w++) {
            const uint32_t *wv = in + 32 * w;
            uint32_t bal = 0;
            for (unsigned l = 0; l < 32; l++)
                bal |= (uint32_t)((l & 1) ? (wv[l] & 1u) : !(wv[l] & 1u)) << l;
            for (unsigned l = 0; l < 32; l++) {
                unsigned t = 32 * w + l;
                bool odd = l & 1;
                check(&f, "divergent warp.shfl", t, 0, out[2 * t], odd ? wv[0] + 1u : wv[31]);
                check(&f, "divergent warp.ballot", t, 1, out[2 * t + 1], odd ? bal : bal ^ 5u);
            }
        }
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------ grid_split */

static void test_grid_split(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t out[128];
        ptxemu_dptr dbuf = test_corpus_upload(&f.c, NULL, 16),
                    dout = test_corpus_upload(&f.c, NULL, sizeof out);
        void *args[] = {&dbuf, &dout};
        ptxemu_status s = ptxemu_launch_cooperative(f.c.mod, "_Z10grid_splitPjS_",
                                                    (ptxemu_dim3){4, 1, 1},
                                                    (ptxemu_dim3){32, 1, 1}, 0, args);
        if (s != PTXEMU_OK)
            fail_msg("sm_%u%s grid_split: %s", f.c.sm, f.its ? " its" : "",
                     ptxemu_last_error(f.c.ctx));
        test_corpus_download(&f.c, out, dout, sizeof out);
        for (unsigned b = 0; b < 4; b++)
            for (unsigned l = 0; l < 32; l++)
                check(&f, "grid barrier_arrive/wait", b * 32 + l, 0, out[b * 32 + l],
                      ((b + 1) % 4 + 1) * 32u + l + ((l + 1) % 32) * ((l + 1) % 32));
        test_corpus_close(&f.c);
    }
}

/* ------------------------------------------------------------- cluster_k */

static void test_cluster(void **state)
{
    for (size_t v = 0; v < VARIANTS; v++) {
        fixture f;
        load(&f, v, *state != NULL);
        uint32_t out[12 * 128];
        ptxemu_dptr dout = test_corpus_upload(&f.c, NULL, sizeof out);
        void *args[] = {&dout};
        launch(&f, "_Z9cluster_kPj", (ptxemu_dim3){2, 1, 1}, (ptxemu_dim3){64, 1, 1}, args);
        test_corpus_download(&f.c, out, dout, sizeof out);
        for (unsigned b = 0; b < 2; b++)
            for (unsigned t = 0; t < 64; t++) {
                const uint32_t *o = out + 12 * (64 * b + t);
                const uint32_t want[12] = {0,  1,  1u | 1u << 8 | 1u << 16, 0, t, 64, 64,
                                           (t + 1) % 64 + 1000u * b, 0, b | 2u << 8, b, 2};
                for (unsigned q = 0; q < 12; q++)
                    check(&f, "this_cluster", 64 * b + t, q, o[q],
                          f.c.sm >= 90 ? want[q] : 0xffffffffu);
            }
        test_corpus_close(&f.c);
    }
}

int main(void)
{
    /* each test functionally, then on the timing model (prestate non-NULL) */
    static const bool timing = true;
    void *const t = (void *)&timing;
#define BOTH(f) cmocka_unit_test(f), cmocka_unit_test_prestate(f, t)
    const struct CMUnitTest tests[] = {
        BOTH(test_block_grid),     BOTH(test_tiles),          BOTH(test_coalesced),
        BOTH(test_partitions),     BOTH(test_reductions),     BOTH(test_memcpy_async),
        BOTH(test_pipeline_prims), BOTH(test_cuda_pipeline),  BOTH(test_cuda_barrier),
        BOTH(test_multi_tiles),    BOTH(test_invoke_one),     BOTH(test_shfl_edges),
        BOTH(test_divergent_sync), BOTH(test_barrier_exit),   BOTH(test_divergent_shfl),
        BOTH(test_grid_split),     BOTH(test_cluster),
    };
#undef BOTH
    return cmocka_run_group_tests(tests, NULL, NULL);
}
