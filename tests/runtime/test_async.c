/* tests/runtime/test_async.c — cp.async, cp.async.bulk and mbarrier
 * (runtime/exec_async.c, timing/sm_async.c) and device malloc/free
 * (runtime/devheap.c) from hand-written PTX, checked against CPU models
 * and the PTX ISA's rules:
 *   - cp.async copies cp-size bytes; with src-size only src-size bytes are
 *     read and the rest of the destination is zero; ignore-src = true reads
 *     nothing and writes zeros; .cg copies 16;
 *   - a double-buffered cp.async pipeline (commit_group / wait_group 1)
 *     gives the CPU model's results functionally and under timing, and
 *     under timing it takes fewer cycles than the same kernel waiting for
 *     each copy right after issuing it (wait_group 0): the copy overlaps;
 *   - an mbarrier pipeline: the producer's arrive.expect_tx plus a bulk
 *     copy's complete_tx completes each phase; consumers wait with
 *     try_wait.parity; results match the CPU model in both modes;
 *   - misuse (misaligned source, src-size > cp-size, arrivals beyond the
 *     pending count, a bulk size not a multiple of 16) faults with the
 *     reason;
 *   - malloc returns 16-byte aligned, distinct, usable blocks, NULL once
 *     the 8 MiB default heap is exhausted, and free of a pointer malloc did
 *     not return faults. */
#include "api/ptxemu.h"

#include <glib.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"
#define TILE 64

typedef struct run {
    ptxemu_status st;
    char err[512];
    uint64_t cycles;
} run;

/* Loads `ptx`, copies bufs in, launches kernel (grid x block) with one
 * pointer per buffer and then `extra` u32 scalars, copies bufs back. */
static run launch(const char *ptx, const char *kernel, unsigned grid, unsigned block,
                  void **host, const size_t *bytes, unsigned nbufs, const uint32_t *extra,
                  unsigned nextra, bool timing)
{
    run r = {0};
    ptxemu_options o;
    memset(&o, 0, sizeof o);
    o.timing = timing;
    ptxemu_ctx *ctx = NULL;
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
    r.st = ptxemu_module_load_string(ctx, ptx, "async.ptx", &mod);
    ptxemu_dptr d[4] = {0};
    void *args[8];
    for (unsigned i = 0; r.st == PTXEMU_OK && i < nbufs; i++) {
        r.st = ptxemu_malloc(ctx, &d[i], bytes[i]);
        if (r.st == PTXEMU_OK)
            r.st = ptxemu_memcpy_htod(ctx, d[i], host[i], bytes[i]);
        args[i] = &d[i];
    }
    for (unsigned i = 0; i < nextra; i++)
        args[nbufs + i] = (void *)&extra[i];
    if (r.st == PTXEMU_OK) {
        ptxemu_dim3 g = {grid, 1, 1}, b = {block, 1, 1};
        r.st = ptxemu_launch(mod, kernel, g, b, 0, args);
    }
    for (unsigned i = 0; r.st == PTXEMU_OK && i < nbufs; i++)
        r.st = ptxemu_memcpy_dtoh(ctx, host[i], d[i], bytes[i]);
    snprintf(r.err, sizeof r.err, "%s", r.st == PTXEMU_OK ? "" : ptxemu_last_error(ctx));
    ptxemu_counters c;
    ptxemu_get_counters(ctx, &c);
    r.cycles = c.cycles;
    ptxemu_ctx_destroy(ctx);
    return r;
}

/* ---------------------------------------------------------- cp.async forms */

/* Thread t copies 16 bytes of src (t*16) to shared with a different form,
 * then shared to dst. t0: .ca 4, t1: .ca 8, t2: .ca 16, t3: .cg 16,
 * t4: .ca 16 with src-size 5, t5: .cg 16 with ignore-src true,
 * t6: .ca 16 with ignore-src false. */
static const char forms_ptx[] = HEADER
    ".visible .entry forms(.param .u64 src, .param .u64 dst)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<8>;\n  .reg .pred %p<8>;\n"
    "  .shared .align 16 .b8 sh[128];\n"
    "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [dst];\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 4;\n  mov.u32 %r3, sh;\n  add.u32 %r3, %r3, %r2;\n"
    "  cvt.u64.u32 %rd3, %r2;\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.shared.v4.u32 [%r3], {0xEEEEEEEE, 0xEEEEEEEE, 0xEEEEEEEE, 0xEEEEEEEE};\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 cp.async.ca.shared.global [%r3], [%rd4], 4;\n"
    "  setp.eq.u32 %p1, %r1, 1;\n  @%p1 cp.async.ca.shared.global [%r3], [%rd4], 8;\n"
    "  setp.eq.u32 %p1, %r1, 2;\n  @%p1 cp.async.ca.shared.global [%r3], [%rd4], 16;\n"
    "  setp.eq.u32 %p1, %r1, 3;\n  @%p1 cp.async.cg.shared.global [%r3], [%rd4], 16;\n"
    "  setp.eq.u32 %p1, %r1, 4;\n  mov.u32 %r4, 5;\n"
    "  @%p1 cp.async.ca.shared.global [%r3], [%rd4], 16, %r4;\n"
    "  setp.eq.u32 %p1, %r1, 5;\n  setp.ne.u32 %p2, %r1, 99;\n"
    "  @%p1 cp.async.cg.shared.global [%r3], [%rd4], 16, %p2;\n"
    "  setp.eq.u32 %p1, %r1, 6;\n  setp.eq.u32 %p2, %r1, 99;\n"
    "  @%p1 cp.async.ca.shared.global [%r3], [%rd4], 16, %p2;\n"
    "  cp.async.wait_all;\n"
    "  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r3];\n"
    "  st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};\n"
    "  ret;\n}\n";

static void test_cp_async_forms(void **state)
{
    (void)state;
    for (int timing = 0; timing < 2; timing++) {
        uint8_t src[128], dst[128];
        for (int i = 0; i < 128; i++)
            src[i] = (uint8_t)(i * 7 + 1);
        memset(dst, 0, sizeof dst);
        void *h[] = {src, dst};
        size_t b[] = {sizeof src, sizeof dst};
        run r = launch(forms_ptx, "forms", 1, 7, h, b, 2, NULL, 0, timing);
        if (r.st != PTXEMU_OK)
            fail_msg("%s", r.err);
        static const unsigned copied[] = {4, 8, 16, 16, 5, 0, 16};
        static const unsigned zeroed[] = {0, 0, 0, 0, 11, 16, 0};
        for (unsigned t = 0; t < 7; t++)
            for (unsigned k = 0; k < 16; k++) {
                uint8_t want = k < copied[t] ? src[t * 16 + k]
                             : k < copied[t] + zeroed[t] ? 0 : 0xEE;
                if (dst[t * 16 + k] != want)
                    fail_msg("thread %u byte %u: %u, expected %u", t, k, dst[t * 16 + k], want);
            }
    }
}

/* ------------------------------------------------------ cp.async pipeline */

/* CTA c handles `ntiles` tiles of TILE floats: while tile t is used, tile
 * t+1 is in flight.  out[t*TILE+i] = 2*in[t*TILE+(i+1)%TILE] + 1. */
static const char pipe_ptx[] = HEADER
    ".visible .entry pipe(.param .u64 in, .param .u64 out, .param .u32 ntiles)\n{\n"
    "  .reg .u32 %r<20>;\n  .reg .u64 %rd<10>;\n  .reg .f32 %f<4>;\n  .reg .pred %p<4>;\n"
    "  .shared .align 16 .f32 buf[128];\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r1, [ntiles];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, buf;\n  shl.b32 %r4, %r2, 2;\n"
    "  mov.u32 %r5, %ctaid.x;\n  mul.lo.u32 %r6, %r5, %r1;\n  shl.b32 %r6, %r6, 6;\n"
    "  add.u32 %r7, %r6, %r2;\n  mul.wide.u32 %rd3, %r7, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  add.u32 %r8, %r3, %r4;\n"
    "  cp.async.ca.shared.global [%r8], [%rd4], 4;\n  cp.async.commit_group;\n"
    "  mov.u32 %r9, 0;\n"
    "LOOP:\n"
    "  add.u32 %r10, %r9, 1;\n  setp.lt.u32 %p1, %r10, %r1;\n"
    "  and.b32 %r11, %r10, 1;\n  shl.b32 %r11, %r11, 8;\n  add.u32 %r11, %r11, %r3;\n"
    "  add.u32 %r11, %r11, %r4;\n"
    "  shl.b32 %r12, %r10, 6;\n  add.u32 %r12, %r12, %r6;\n  add.u32 %r12, %r12, %r2;\n"
    "  mul.wide.u32 %rd5, %r12, 4;\n  add.s64 %rd6, %rd1, %rd5;\n"
    "  @%p1 cp.async.ca.shared.global [%r11], [%rd6], 4;\n"
    "  cp.async.commit_group;\n  cp.async.wait_group WAITN;\n  bar.sync 0;\n"
    "  and.b32 %r13, %r9, 1;\n  shl.b32 %r13, %r13, 8;\n  add.u32 %r13, %r13, %r3;\n"
    "  add.u32 %r14, %r2, 1;\n  and.b32 %r14, %r14, 63;\n  shl.b32 %r14, %r14, 2;\n"
    "  add.u32 %r14, %r14, %r13;\n  ld.shared.f32 %f1, [%r14];\n"
    "  fma.rn.f32 %f2, %f1, 0f40000000, 0f3F800000;\n"
    "  shl.b32 %r15, %r9, 6;\n  add.u32 %r15, %r15, %r6;\n  add.u32 %r15, %r15, %r2;\n"
    "  mul.wide.u32 %rd7, %r15, 4;\n  add.s64 %rd8, %rd2, %rd7;\n  st.global.f32 [%rd8], %f2;\n"
    "  bar.sync 0;\n  mov.u32 %r9, %r10;\n  setp.lt.u32 %p2, %r9, %r1;\n  @%p2 bra LOOP;\n"
    "  ret;\n}\n";

static char *pipe_with_wait(int n)
{
    GString *s = g_string_new(pipe_ptx);
    char num[4];
    snprintf(num, sizeof num, "%d", n);
    g_string_replace(s, "WAITN", num, 1);
    return g_string_free(s, FALSE);
}

#define PCTAS 4
#define PTILES 8
#define PN (PCTAS * PTILES * TILE)

static uint64_t run_pipe(int waitn, bool timing)
{
    static float in[PN], out[PN];
    for (int i = 0; i < PN; i++)
        in[i] = (float)((i * 37) % 101) - 50.0f;
    memset(out, 0, sizeof out);
    char *ptx = pipe_with_wait(waitn);
    void *h[] = {in, out};
    size_t b[] = {sizeof in, sizeof out};
    uint32_t nt = PTILES;
    run r = launch(ptx, "pipe", PCTAS, TILE, h, b, 2, &nt, 1, timing);
    g_free(ptx);
    if (r.st != PTXEMU_OK)
        fail_msg("%s", r.err);
    for (int c = 0; c < PCTAS; c++)
        for (int t = 0; t < PTILES; t++)
            for (int i = 0; i < TILE; i++) {
                int base = (c * PTILES + t) * TILE;
                float want = 2.0f * in[base + (i + 1) % TILE] + 1.0f;
                if (out[base + i] != want)
                    fail_msg("cta %d tile %d thread %d: %g, expected %g", c, t, i,
                             (double)out[base + i], (double)want);
            }
    return r.cycles;
}

static void test_cp_async_pipeline(void **state)
{
    (void)state;
    run_pipe(1, false);
    uint64_t overlapped = run_pipe(1, true);
    uint64_t serial = run_pipe(0, true);
    print_message("pipeline cycles: wait_group 1 %llu, wait_group 0 %llu\n",
                  (unsigned long long)overlapped, (unsigned long long)serial);
    assert_true(overlapped > 0);
    assert_true(overlapped < serial);
}

/* ------------------------------------------------------ mbarrier pipeline */

/* One CTA: thread 0 is the producer, for each tile an arrive.expect_tx of
 * TILE*4 bytes and a bulk copy that completes them; everyone waits for the
 * phase with try_wait.parity, out[t*TILE+i] = in[t*TILE+TILE-1-i] + t. */
static const char mbar_ptx[] = HEADER
    ".visible .entry mpipe(.param .u64 in, .param .u64 out, .param .u32 ntiles)\n{\n"
    "  .reg .u32 %r<20>;\n  .reg .u64 %rd<10>;\n  .reg .pred %p<4>;\n"
    "  .shared .align 16 .b32 buf[64];\n  .shared .align 8 .b64 bar;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r1, [ntiles];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, bar;\n  mov.u32 %r4, buf;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [%r3], 1;\n  bar.sync 0;\n"
    "  mov.u32 %r5, 0;\n  mov.u32 %r6, 0;\n" /* tile, parity */
    "LOOP:\n"
    "  shl.b32 %r7, %r5, 8;\n  cvt.u64.u32 %rd3, %r7;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 256;\n"
    "  @%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd4], 256, [%r3];\n"
    "WAIT:\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], %r6;\n  @!%p2 bra WAIT;\n"
    "  sub.u32 %r8, 63, %r2;\n  shl.b32 %r8, %r8, 2;\n  add.u32 %r8, %r8, %r4;\n"
    "  ld.shared.u32 %r9, [%r8];\n  add.u32 %r9, %r9, %r5;\n"
    "  shl.b32 %r10, %r5, 6;\n  add.u32 %r10, %r10, %r2;\n  mul.wide.u32 %rd5, %r10, 4;\n"
    "  add.s64 %rd6, %rd2, %rd5;\n  st.global.u32 [%rd6], %r9;\n"
    "  xor.b32 %r6, %r6, 1;\n  bar.sync 0;\n"
    "  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %p3, %r5, %r1;\n  @%p3 bra LOOP;\n"
    "  @%p1 mbarrier.inval.shared.b64 [%r3];\n"
    "  ret;\n}\n";

static void test_mbarrier_pipeline(void **state)
{
    (void)state;
    enum { NT = 6 };
    for (int timing = 0; timing < 2; timing++) {
        uint32_t in[NT * TILE], out[NT * TILE];
        for (int i = 0; i < NT * TILE; i++)
            in[i] = (uint32_t)i * 2654435761u;
        memset(out, 0, sizeof out);
        void *h[] = {in, out};
        size_t b[] = {sizeof in, sizeof out};
        uint32_t nt = NT;
        run r = launch(mbar_ptx, "mpipe", 1, TILE, h, b, 2, &nt, 1, timing);
        if (r.st != PTXEMU_OK)
            fail_msg("%s", r.err);
        for (int t = 0; t < NT; t++)
            for (int i = 0; i < TILE; i++)
                assert_int_equal(out[t * TILE + i], in[t * TILE + TILE - 1 - i] + (uint32_t)t);
    }
}

/* ------------------------------------------------------------- misuse */

static void expect_fault(const char *body, const char *needle)
{
    GString *k = g_string_new(HEADER ".visible .entry k(.param .u64 x)\n{\n"
                                     "  .reg .u32 %r<4>;\n  .reg .u64 %rd<4>;\n"
                                     "  .reg .pred %p1;\n  .shared .align 16 .b8 sh[64];\n"
                                     "  ld.param.u64 %rd1, [x];\n  mov.u32 %r1, sh;\n");
    g_string_append(k, body);
    g_string_append(k, "  ret;\n}\n");
    uint8_t x[64] = {0};
    void *h[] = {x};
    size_t b[] = {sizeof x};
    run r = launch(k->str, "k", 1, 1, h, b, 1, NULL, 0, false);
    g_string_free(k, TRUE);
    if (r.st == PTXEMU_OK)
        fail_msg("expected a fault with '%s'", needle);
    if (!strstr(r.err, needle))
        fail_msg("message '%s' lacks '%s'", r.err, needle);
}

static void test_misuse_faults(void **state)
{
    (void)state;
    expect_fault("  add.s64 %rd2, %rd1, 4;\n  cp.async.ca.shared.global [%r1], [%rd2], 8;\n",
                 "8-byte aligned global");
    expect_fault("  mov.u32 %r2, 9;\n  cp.async.ca.shared.global [%r1], [%rd1], 8, %r2;\n",
                 "src-size 9 exceeds cp-size 8");
    expect_fault("  mbarrier.init.shared.b64 [%r1], 1;\n"
                 "  mbarrier.arrive.shared.b64 %rd2, [%r1], 2;\n",
                 "more arrivals than the phase has pending");
    expect_fault("  mbarrier.init.shared.b64 [%r1], 0;\n", "count outside");
    expect_fault("  mbarrier.init.shared.b64 [%r1], 1;\n  mov.u32 %r2, 24;\n"
                 "  add.u32 %r3, %r1, 16;\n"
                 "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], %r2, [%r1];\n",
                 "not a multiple of 16");
    expect_fault("  mbarrier.init.b64 [%rd1], 1;\n", "not in shared memory");
}

/* ------------------------------------------------------------- device heap */

/* Thread t mallocs `bytes` (a kernel parameter), stores the pointer in
 * out[t] and, when it got one, writes t into the block's first and last
 * word. */
static const char heap_ptx[] = HEADER
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
    ".extern .func free(.param .b64 free_param_0);\n"
    ".visible .entry h(.param .u64 out, .param .u32 bytes)\n{\n"
    "  .reg .u32 %r<4>;\n  .reg .u64 %rd<8>;\n  .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [bytes];\n  cvt.u64.u32 %rd2, %r1;\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0], %rd2;\n  .param .b64 retval0;\n"
    "  call.uni (retval0), malloc, (param0);\n  ld.param.b64 %rd3, [retval0]; }\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd4, %r2, 8;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u64 [%rd5], %rd3;\n  setp.eq.u64 %p1, %rd3, 0;\n  @%p1 ret;\n"
    "  st.u32 [%rd3], %r2;\n  add.s64 %rd6, %rd3, %rd2;\n  st.u32 [%rd6+-4], %r2;\n"
    "  ret;\n}\n"
    ".visible .entry badfree(.param .u64 out, .param .u32 bytes)\n{\n"
    "  .reg .u64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n"
    "  { .param .b64 param0;\n  st.param.b64 [param0], %rd1;\n"
    "  call.uni free, (param0); }\n  ret;\n}\n";

static void test_device_heap(void **state)
{
    (void)state;
    enum { T = 40 };
    uint64_t out[T];
    memset(out, 0, sizeof out);
    void *h[] = {out};
    size_t b[] = {sizeof out};
    uint32_t bytes = 1000; /* rounds up to 1008 */
    run r = launch(heap_ptx, "h", 1, T, h, b, 1, &bytes, 1, false);
    if (r.st != PTXEMU_OK)
        fail_msg("%s", r.err);
    for (int t = 0; t < T; t++) {
        assert_true(out[t] != 0 && out[t] % 16 == 0);
        for (int u = 0; u < t; u++) /* disjoint blocks */
            assert_true(out[u] + 1000 <= out[t] || out[t] + 1000 <= out[u]);
    }
    /* 8 MiB default heap: 3 MiB blocks, two fit (6 MiB), the third is NULL */
    bytes = 3u << 20;
    memset(out, 0xff, sizeof out);
    r = launch(heap_ptx, "h", 1, 3, h, b, 1, &bytes, 1, false);
    if (r.st != PTXEMU_OK)
        fail_msg("%s", r.err);
    assert_true(out[0] != 0 && out[1] != 0);
    assert_int_equal(out[2], 0);
    r = launch(heap_ptx, "badfree", 1, 1, h, b, 1, &bytes, 1, false);
    assert_int_equal(r.st, PTXEMU_ERR_LAUNCH_FAILED);
    assert_non_null(strstr(r.err, "not a block that device malloc returned"));
}

/* Device-side CUDA graph calls are refused at load, naming the call. */
static void test_graph_call_refused(void **state)
{
    (void)state;
    static const char ptx[] = HEADER
        ".extern .func cudaGraphSetConditional(.param .b64 a, .param .b32 b);\n"
        ".visible .entry g()\n{\n  .reg .u64 %rd1;\n  mov.u64 %rd1, 0;\n"
        "  { .param .b64 p0;\n  .param .b32 p1;\n  st.param.b64 [p0], %rd1;\n"
        "  st.param.b32 [p1], 1;\n  call.uni cudaGraphSetConditional, (p0, p1); }\n  ret;\n}\n";
    ptxemu_ctx *ctx = NULL;
    ptxemu_module *mod = NULL;
    assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
    assert_int_equal(ptxemu_module_load_string(ctx, ptx, "g.ptx", &mod), PTXEMU_ERR_UNSUPPORTED);
    const char *e = ptxemu_last_error(ctx);
    assert_non_null(strstr(e, "not supported yet"));
    assert_non_null(strstr(e, "cudaGraphSetConditional"));
    ptxemu_ctx_destroy(ctx);
}

/* Forms that need a tensor map, multicast or reduction are refused at
 * load with "not supported yet" and the reason. */
static void test_unsupported_forms(void **state)
{
    (void)state;
    static const struct {
        const char *instr, *why;
    } cases[] = {
        {"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
         "[%r1], [%rd1, {%r2, %r3}], [%r1];", "cp with .2d"},
        {"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], 32;",
         "cp with .add"},
        {"mbarrier.try_wait.parity.phase_type::conditional.b64 %p1, [%r1], 1;",
         "mbarrier with .phase_type::conditional"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GString *k = g_string_new(HEADER ".visible .entry k(.param .u64 x)\n{\n"
                                         "  .reg .u32 %r<4>;\n  .reg .u64 %rd<4>;\n"
                                         "  .reg .pred %p1;\n  ");
        g_string_append_printf(k, "%s\n  ret;\n}\n", cases[i].instr);
        ptxemu_ctx *ctx = NULL;
        ptxemu_module *mod = NULL;
        assert_int_equal(ptxemu_ctx_create(&ctx, NULL), PTXEMU_OK);
        assert_int_equal(ptxemu_module_load_string(ctx, k->str, "u.ptx", &mod),
                         PTXEMU_ERR_UNSUPPORTED);
        const char *e = ptxemu_last_error(ctx);
        if (!strstr(e, "not supported yet") || !strstr(e, cases[i].why))
            fail_msg("'%s' lacks '%s'", e, cases[i].why);
        ptxemu_ctx_destroy(ctx);
        g_string_free(k, TRUE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cp_async_forms),
        cmocka_unit_test(test_cp_async_pipeline),
        cmocka_unit_test(test_mbarrier_pipeline),
        cmocka_unit_test(test_misuse_faults),
        cmocka_unit_test(test_device_heap),
        cmocka_unit_test(test_graph_call_refused),
        cmocka_unit_test(test_unsupported_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
