/* tests/runtime/test_isa_gaps.c — the smaller instructions and operand
 * forms nvcc 13 and the CUDA headers emit (issue 17, "the rest"), each
 * checked against the PTX ISA's definition with a CPU model in the test:
 *   - .b128 registers: ld/st(.v2).b128 move 16 bytes, low half at the lower
 *     address (little-endian); mov.b128 packs/unpacks {lo, hi}; 16-byte
 *     alignment is required;
 *   - atom.cas.b128 / atom.exch.b128 (PTX 8.3): one 128-bit read-modify-write;
 *   - memory-order and scope qualifiers on ld/st/atom/red/fence are accepted
 *     and are sequentially consistent here (message passing works);
 *   - the sink `_` in d|_ and _|p destinations;
 *   - %reserved_smem_offset_* (no reserved region: 0), %current_graph_exec (0:
 *     not in a graph), %globaltimer and %clock64 never decrease;
 *   - the address of a kernel parameter: mov gives its .param address,
 *     cvta.param a generic one that ld reads (and st may not write);
 *   - applypriority / discard: [a] 128-byte aligned .global, size 128, no
 *     value changes; brkpt stops the launch with its location;
 *   - add/sub{.rnd}{.sat}.f32.f16/.bf16: a widened exactly, one f32 rounding;
 *   - function addresses in initialisers, .callprototype, .noreturn, and a
 *     clear error for launching a .extern .entry. */
#include "tests/support/test_util.h"

#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#define HEADER ".version 8.5\n.target sm_90\n.address_size 64\n"
#define N 70 /* three warps, the last one partial */

static void run_ok(const char *ptx, unsigned grid, unsigned block, test_buf *b, unsigned n)
{
    char *err = NULL;
    ptxemu_status st = test_run_ptx(ptx, "k", grid, block, b, n, &err);
    if (st != PTXEMU_OK)
        fail_msg("launch failed (%d): %s", st, err ? err : "?");
    g_free(err);
}

static void run_fails(const char *ptx, ptxemu_status want, const char *needle)
{
    uint64_t x[64] = {0};
    test_buf b = {x, sizeof x};
    char *err = NULL;
    ptxemu_status st = test_run_ptx(ptx, "k", 1, 32, &b, 1, &err);
    if (st != want || !err || !strstr(err, needle))
        fail_msg("status %d (want %d), message '%s' (want '%s')", st, want, err ? err : "",
                 needle);
    g_free(err);
}

/* ------------------------------------------------------------------ .b128 */

/* out[i] = in[i] with halves swapped, through ld/st.global.b128, a shared
 * round trip (st/ld.shared.b128) and mov.b128 unpack/pack; out2 gets
 * ld.v2.b128 pairs written back with st.v2.b128 in reverse order. */
static const char b128_kernel[] = HEADER
    ".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 out2)\n{\n"
    "  .reg .b128 %q<5>;\n  .reg .b64 %rd<12>;\n  .reg .u32 %r<3>;\n  .reg .pred %p1;\n"
    "  .shared .align 16 .b8 sh[2048];\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u64 %rd9, [out2];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  ld.global.b128 %q1, [%rd4];\n"
    "  mov.u64 %rd6, sh;\n  add.s64 %rd6, %rd6, %rd3;\n"
    "  st.shared.b128 [%rd6], %q1;\n"
    "  ld.shared.b128 %q2, [%rd6];\n"
    "  mov.b128 {%rd7, %rd8}, %q2;\n"
    "  mov.b128 %q3, {%rd8, %rd7};\n"
    "  st.global.b128 [%rd5], %q3;\n"
    "  setp.ge.u32 %p1, %r1, 35;\n  @%p1 bra done;\n"
    "  mul.wide.u32 %rd3, %r1, 32;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd10, %rd9, %rd3;\n"
    "  ld.global.v2.b128 {%q1, %q4}, [%rd4];\n"
    "  st.global.v2.b128 [%rd10], {%q4, %q1};\n"
    "done:\n  ret;\n}\n";

static void test_b128_load_store_mov(void **state)
{
    (void)state;
    uint64_t in[2 * N], out[2 * N], out2[2 * N];
    for (unsigned i = 0; i < 2 * N; i++)
        in[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    memset(out, 0, sizeof out);
    memset(out2, 0, sizeof out2);
    test_buf b[] = {{in, sizeof in}, {out, sizeof out}, {out2, sizeof out2}};
    run_ok(b128_kernel, 1, N, b, 3);
    for (unsigned i = 0; i < N; i++) {
        assert_int_equal(out[2 * i], in[2 * i + 1]); /* low half <- old high */
        assert_int_equal(out[2 * i + 1], in[2 * i]);
    }
    /* element pairs (32 bytes) reversed as whole 16-byte elements */
    for (unsigned j = 0; j < N; j++) {
        unsigned pair = j / 2, elem = j % 2;
        unsigned from = 2 * pair + (1 - elem);
        assert_int_equal(out2[2 * j], in[2 * from]);
        assert_int_equal(out2[2 * j + 1], in[2 * from + 1]);
    }
}

static void test_b128_refusals(void **state)
{
    (void)state;
    /* 16-byte accesses need 16-byte alignment */
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .b128 %q1;\n"
              "  .reg .u64 %rd1;\n  ld.param.u64 %rd1, [x];\n"
              "  ld.global.b128 %q1, [%rd1+8];\n  ret;\n}\n",
              PTXEMU_ERR_LAUNCH_FAILED, "misaligned 16-byte");
    /* .b128 data lives in .b128 registers */
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n"
              "  .reg .u64 %rd<3>;\n  ld.param.u64 %rd1, [x];\n"
              "  ld.global.b128 %rd2, [%rd1];\n  ret;\n}\n",
              PTXEMU_ERR_UNSUPPORTED, ".b128 registers");
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .b128 %q1;\n"
              "  .reg .u64 %rd<3>;\n  ld.param.u64 %rd1, [x];\n"
              "  atom.global.add.b128 %q1, [%rd1], %q1;\n  ret;\n}\n",
              PTXEMU_ERR_UNSUPPORTED, "only .exch and .cas");
}

/* Every thread adds {1, tid} to one 128-bit counter with a cas loop (both
 * halves in one atomic), then exchanges {tid, ~tid} into a second slot.
 * Model: the counter ends at {N, sum tid}; the exch results plus the final
 * value are the initial value and every thread's value, each once. */
static const char atom128_kernel[] = HEADER
    ".visible .entry k(.param .u64 buf, .param .u64 olds)\n{\n"
    "  .reg .b128 %q<4>;\n  .reg .b64 %rd<12>;\n  .reg .u32 %r<3>;\n  .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u64 %rd2, [olds];\n"
    "  mov.u32 %r1, %tid.x;\n  cvt.u64.u32 %rd3, %r1;\n"
    "  ld.global.relaxed.gpu.b128 %q1, [%rd1];\n"
    "retry:\n"
    "  mov.b128 {%rd4, %rd5}, %q1;\n"
    "  add.s64 %rd6, %rd4, 1;\n  add.s64 %rd7, %rd5, %rd3;\n"
    "  mov.b128 %q2, {%rd6, %rd7};\n"
    "  atom.global.acq_rel.gpu.cas.b128 %q3, [%rd1], %q1, %q2;\n"
    "  mov.b128 {%rd8, %rd9}, %q3;\n"
    "  setp.ne.s64 %p1, %rd8, %rd4;\n"
    "  mov.b128 %q1, %q3;\n"
    "  @%p1 bra retry;\n"
    "  setp.ne.s64 %p1, %rd9, %rd5;\n"
    "  @%p1 bra retry;\n"
    "  not.b64 %rd10, %rd3;\n"
    "  mov.b128 %q2, {%rd3, %rd10};\n"
    "  atom.exch.b128 %q3, [%rd1+16], %q2;\n"
    "  mul.wide.u32 %rd11, %r1, 16;\n  add.s64 %rd11, %rd2, %rd11;\n"
    "  st.global.b128 [%rd11], %q3;\n"
    "  ret;\n}\n";

static void test_atom_b128(void **state)
{
    (void)state;
    uint64_t buf[4] = {0, 0, 0x1111, 0x2222}, olds[2 * N];
    memset(olds, 0, sizeof olds);
    test_buf b[] = {{buf, sizeof buf}, {olds, sizeof olds}};
    run_ok(atom128_kernel, 1, N, b, 2);
    assert_int_equal(buf[0], N);
    assert_int_equal(buf[1], (uint64_t)N * (N - 1) / 2);
    /* the exch chain: N + 1 values, each seen exactly once */
    unsigned seen_init = 0, seen[N] = {0};
    for (unsigned i = 0; i <= N; i++) {
        uint64_t lo = i < N ? olds[2 * i] : buf[2], hi = i < N ? olds[2 * i + 1] : buf[3];
        if (lo == 0x1111 && hi == 0x2222) {
            seen_init++;
            continue;
        }
        assert_true(lo < N);
        assert_int_equal(hi, ~lo);
        seen[lo]++;
    }
    assert_int_equal(seen_init, 1);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
}

/* ------------------------------------------------ memory-order qualifiers */

/* Warp 1 publishes data with st.release and a flag; warp 0 waits for the
 * flag with ld.acquire and reads the data; then counters through atom/red
 * with orders and scopes, and fences of every kind in between. */
static const char order_kernel[] = HEADER
    ".visible .entry k(.param .u64 buf)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n  .reg .f32 %f1;\n  .reg .pred %p<3>;\n"
    "  .shared .u32 scnt;\n"
    "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 st.relaxed.cta.shared::cta.u32 [scnt], 0;\n"
    "  bar.sync 0;\n"
    "  setp.eq.u32 %p1, %r1, 32;\n  @!%p1 bra wait;\n"
    "  st.global.relaxed.gpu.u32 [%rd1+4], 1234;\n"
    "  fence.acq_rel.gpu;\n"
    "  st.release.gpu.global.u32 [%rd1], 1;\n"
    "  bra counters;\n"
    "wait:\n"
    "  setp.ne.u32 %p2, %r1, 0;\n  @%p2 bra counters;\n"
    "spin:\n"
    "  ld.acquire.gpu.global.u32 %r2, [%rd1];\n"
    "  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra spin;\n"
    "  ld.relaxed.sys.global.u32 %r3, [%rd1+4];\n"
    "  ld.volatile.global.u32 %r4, [%rd1+4];\n"
    "  ld.mmio.relaxed.sys.global.u32 %r5, [%rd1+4];\n"
    "  add.u32 %r3, %r3, %r4;\n  add.u32 %r3, %r3, %r5;\n"
    "  st.global.u32 [%rd1+8], %r3;\n"
    "counters:\n"
    "  fence.sc.sys;\n  fence.proxy.alias;\n  membar.cta;\n  membar.gl;\n"
    "  atom.acq_rel.gpu.global.add.u32 %r6, [%rd1+12], 1;\n"
    "  red.release.sys.global.add.u32 [%rd1+16], %r1;\n"
    "  atom.acquire.cta.shared::cta.add.u32 %r7, [scnt], 2;\n"
    "  red.relaxed.cluster.global.add.f32 [%rd1+20], 0f3F000000;\n"
    "  bar.sync 0;\n"
    "  @!%p1 bra done;\n"
    "  ld.relaxed.cta.shared::cta.u32 %r7, [scnt];\n"
    "  st.global.u32 [%rd1+24], %r7;\n"
    "done:\n  ret;\n}\n";

static void test_memory_orders(void **state)
{
    (void)state;
    uint32_t buf[8] = {0};
    test_buf b = {buf, sizeof buf};
    run_ok(order_kernel, 1, 64, &b, 1);
    assert_int_equal(buf[0], 1);
    assert_int_equal(buf[1], 1234);
    assert_int_equal(buf[2], 3 * 1234); /* the acquiring thread saw the data */
    assert_int_equal(buf[3], 64);
    assert_int_equal(buf[4], 64 * 63 / 2);
    float f;
    memcpy(&f, &buf[5], 4);
    assert_true(f == 32.0f);
    assert_int_equal(buf[6], 2 * 64); /* thread 32 reads the shared counter */
}

/* ------------------------------------------------------------------ sinks */

/* shfl.sync.down with d|_ (data only) and _|p (predicate only), setp
 * with _|q, atom and mov with `_`.  Model: shfl.down by 1 gives lane l the
 * value of lane l+1 and p = (l+1 <= 31). */
static const char sink_kernel[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<4>;\n  .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.lo.u32 %r2, %r1, 7;\n"
    "  shfl.sync.down.b32 %r3|_, %r2, 1, 31, -1;\n"
    "  shfl.sync.down.b32 _|%p1, %r2, 1, 31, -1;\n"
    "  setp.lt.u32 _|%p2, %r1, 5;\n" /* p2 = !(tid < 5) */
    "  atom.global.add.u32 _, [%rd1+256], 1;\n"
    "  mov.b64 %rd2, 0x0000000500000009;\n"
    "  mov.b64 {_, %r4}, %rd2;\n"
    "  selp.u32 %r5, 1, 0, %p1;\n  selp.u32 %r6, 2, 0, %p2;\n"
    "  add.u32 %r5, %r5, %r6;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd3, %rd1, %rd3;\n"
    "  st.global.v2.u32 [%rd3], {%r3, %r5};\n"
    "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 st.global.u32 [%rd1+260], %r4;\n"
    "  ret;\n}\n";

static void test_sinks(void **state)
{
    (void)state;
    uint32_t out[66] = {0};
    test_buf b = {out, sizeof out};
    run_ok(sink_kernel, 1, 32, &b, 1);
    for (unsigned l = 0; l < 32; l++) {
        unsigned src = l + 1 <= 31 ? l + 1 : l;
        assert_int_equal(out[2 * l], src * 7);
        assert_int_equal(out[2 * l + 1], (l + 1 <= 31 ? 1u : 0u) + (l < 5 ? 0u : 2u));
    }
    assert_int_equal(out[64], 32);
    assert_int_equal(out[65], 5); /* the high half of 0x0000000500000009 */
}

/* ------------------------------------------------------ special registers */

static const char sreg_kernel[] = HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .u32 %r<8>;\n  .reg .u64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %reserved_smem_offset_begin;\n"
    "  mov.u32 %r2, %reserved_smem_offset_end;\n"
    "  mov.u32 %r3, %reserved_smem_offset_cap;\n"
    "  mov.u32 %r4, %reserved_smem_offset_0;\n"
    "  mov.u32 %r5, %reserved_smem_offset_1;\n"
    "  mov.u64 %rd2, %current_graph_exec;\n"
    "  mov.u64 %rd3, %globaltimer;\n  mov.u64 %rd4, %clock64;\n"
    "  add.u32 %r1, %r1, 7;\n  add.u32 %r1, %r1, 7;\n  nanosleep.u32 1000;\n"
    "  mov.u64 %rd5, %globaltimer;\n  mov.u64 %rd6, %clock64;\n"
    "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
    "  st.global.u32 [%rd1+16], %r5;\n"
    "  st.global.v2.u64 [%rd1+32], {%rd2, %rd3};\n"
    "  st.global.v2.u64 [%rd1+48], {%rd4, %rd5};\n"
    "  st.global.u64 [%rd1+64], %rd6;\n"
    "  ret;\n}\n";

/* The reserved shared-memory region: 1 KB per CTA from sm_80 on (CUDA's
 * reserved shared memory per block), empty before; cooperative_groups needs
 * at least 288 bytes from %reserved_smem_offset_1 to the region's end. */
static void check_sregs(const char *target, uint32_t reserved)
{
    gchar *ptx = g_strdup_printf(".version 8.5\n.target %s\n.address_size 64\n%s", target,
                                 sreg_kernel + strlen(HEADER));
    uint64_t out[10] = {0};
    test_buf b = {out, sizeof out};
    run_ok(ptx, 1, 1, &b, 1);
    g_free(ptx);
    uint32_t w[6];
    memcpy(w, out, sizeof w);
    assert_int_equal(w[0], 14); /* begin = 0, then +7 +7 */
    assert_int_equal(w[1], reserved);   /* end */
    assert_int_equal(w[2], reserved);   /* cap */
    assert_int_equal(w[3], 0);          /* offset_0 */
    assert_true(w[4] + 288 <= reserved || reserved == 0); /* offset_1 */
    assert_int_equal(w[4] % 8, 0);
    assert_int_equal(out[4], 0);        /* %current_graph_exec */
    assert_true(out[7] > out[5]);       /* %globaltimer advances */
    assert_true(out[8] > out[6]);       /* %clock64 advances */
}

static void test_special_registers(void **state)
{
    (void)state;
    check_sregs("sm_75", 0);
    check_sregs("sm_80", 1024);
    check_sregs("sm_90", 1024);
}

/* -------------------------------------------------- kernel param address */

static const char param_kernel[] = HEADER
    ".visible .entry k(.param .u64 out, .param .u64 other)\n{\n"
    "  .reg .u64 %rd<10>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.b64 %rd2, other;\n"               /* .param address of `other` */
    "  ld.param.u64 %rd3, [%rd2];\n"
    "  cvta.param.u64 %rd4, %rd2;\n"          /* generic address */
    "  ld.u64 %rd5, [%rd4];\n"
    "  cvta.param.u64 %rd6, out;\n"
    "  ld.u64 %rd7, [%rd6];\n"
    "  cvta.to.param.u64 %rd8, %rd4;\n"
    "  st.global.v2.u64 [%rd1], {%rd3, %rd5};\n"
    "  st.global.v2.u64 [%rd1+16], {%rd7, %rd8};\n"
    "  st.global.u64 [%rd1+32], %rd2;\n"
    "  ret;\n}\n";

static void test_kernel_param_address(void **state)
{
    (void)state;
    uint64_t out[5] = {0}, other = 0;
    test_buf b[] = {{out, sizeof out}, {&other, sizeof other}};
    run_ok(param_kernel, 1, 1, b, 2);
    /* `other` holds the device pointer of buffer 1, `out` of buffer 0 */
    assert_int_not_equal(out[0], 0);
    assert_int_equal(out[1], out[0]);   /* generic load = .param load */
    assert_int_not_equal(out[2], 0);
    assert_int_not_equal(out[2], out[0]);
    assert_int_equal(out[3], out[4]);   /* cvta.to.param undoes cvta.param */
    assert_int_equal(out[4], 8);        /* second u64 parameter: offset 8 */
    /* kernel parameters are read-only */
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .u64 %rd<3>;\n"
              "  mov.b64 %rd1, x;\n  cvta.param.u64 %rd2, %rd1;\n"
              "  st.u64 [%rd2], %rd1;\n  ret;\n}\n",
              PTXEMU_ERR_LAUNCH_FAILED, "store");
}

/* --------------------------------------------- cache hints and breakpoints */

static void test_line_hints(void **state)
{
    (void)state;
    uint32_t buf[64];
    for (unsigned i = 0; i < 64; i++)
        buf[i] = i * 3 + 1;
    test_buf b = {buf, sizeof buf};
    run_ok(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .u64 %rd<3>;\n"
           "  .reg .u32 %r1;\n  ld.param.u64 %rd1, [x];\n"
           "  applypriority.global.L2::evict_normal [%rd1], 128;\n"
           "  discard.global.L2 [%rd1+128], 128;\n"
           "  applypriority.L2::evict_normal [%rd1+128], 128;\n"
           "  prefetch.global.L2::evict_last [%rd1];\n"
           "  ld.global.u32 %r1, [%rd1+4];\n  st.global.u32 [%rd1], %r1;\n"
           "  ret;\n}\n", 1, 32, &b, 1);
    assert_int_equal(buf[0], 4);
    for (unsigned i = 1; i < 64; i++)
        assert_int_equal(buf[i], i * 3 + 1);
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .u64 %rd1;\n"
              "  ld.param.u64 %rd1, [x];\n  discard.global.L2 [%rd1+64], 128;\n  ret;\n}\n",
              PTXEMU_ERR_LAUNCH_FAILED, "not 128-byte aligned");
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .u64 %rd1;\n"
              "  ld.param.u64 %rd1, [x];\n  discard.global.L2 [%rd1], 64;\n  ret;\n}\n",
              PTXEMU_ERR_UNSUPPORTED, "size must be 128");
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .u64 %rd1;\n"
              "  ld.param.u64 %rd1, [x];\n  applypriority.global.L2::evict_last [%rd1], 128;\n"
              "  ret;\n}\n",
              PTXEMU_ERR_UNSUPPORTED, "evict_last");
    /* 512 bytes: the second line is past the buffer */
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .u64 %rd1;\n"
              "  ld.param.u64 %rd1, [x];\n  applypriority.global.L2::evict_normal [%rd1+512], "
              "128;\n  ret;\n}\n",
              PTXEMU_ERR_LAUNCH_FAILED, "not 128 bytes of .global memory");
}

static void test_brkpt_is_located(void **state)
{
    (void)state;
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .pred %p1;\n"
              "  .reg .u32 %r1;\n  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 7;\n"
              "  @%p1 brkpt;\n  ret;\n}\n",
              PTXEMU_ERR_LAUNCH_FAILED, "brkpt instruction executed");
    run_fails(HEADER ".visible .entry k(.param .u64 x)\n{\n  .reg .pred %p1;\n"
              "  .reg .u32 %r1;\n  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 7;\n"
              "  @%p1 brkpt;\n  ret;\n}\n",
              PTXEMU_ERR_LAUNCH_FAILED, "thread (7,0,0), function 'k' pc 2 (test.ptx:10:8");
}

/* -------------------------------------------------- mixed-precision add */

/* IEEE binary16 -> binary32, from the format's definition. */
static float f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (e == 0)
        return sign * ldexpf((float)m, -24);
    if (e == 31)
        return m ? NAN : sign * INFINITY;
    return sign * ldexpf((float)(1024 + m), e - 25);
}

static float bf16_value(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static float sat01(float x)
{
    return isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* The host FPU in the requested rounding mode is the model of one f32
 * rounding. */
static float host_op(float a, float c, bool sub, int mode)
{
    int old = fegetround();
    fesetround(mode);
    volatile float va = a, vc = c;
    volatile float r = sub ? va - vc : va + vc;
    fesetround(old);
    return r;
}

static const char mixed_kernel[] = HEADER
    ".visible .entry k(.param .u64 a, .param .u64 c, .param .u64 out)\n{\n"
    "  .reg .b16 %h1;\n  .reg .f32 %f<3>;\n  .reg .u32 %r1;\n  .reg .u64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [c];\n  ld.param.u64 %rd3, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 2;\n  add.s64 %rd4, %rd1, %rd4;\n  ld.global.b16 %h1, [%rd4];\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd5, %rd2, %rd5;\n  ld.global.f32 %f1, [%rd5];\n"
    "  mul.wide.u32 %rd6, %r1, 32;\n  add.s64 %rd6, %rd3, %rd6;\n"
    "  add.f32.f16 %f2, %h1, %f1;\n        st.global.f32 [%rd6], %f2;\n"
    "  add.rz.f32.f16 %f2, %h1, %f1;\n     st.global.f32 [%rd6+4], %f2;\n"
    "  sub.rm.f32.f16 %f2, %h1, %f1;\n     st.global.f32 [%rd6+8], %f2;\n"
    "  add.rp.sat.f32.f16 %f2, %h1, %f1;\n st.global.f32 [%rd6+12], %f2;\n"
    "  add.rn.f32.bf16 %f2, %h1, %f1;\n    st.global.f32 [%rd6+16], %f2;\n"
    "  sub.rz.f32.bf16 %f2, %h1, %f1;\n    st.global.f32 [%rd6+20], %f2;\n"
    "  sub.sat.f32.bf16 %f2, %h1, %f1;\n   st.global.f32 [%rd6+24], %f2;\n"
    "  fma.rn.f32.f16 %f2, %h1, %h1, %f1;\n st.global.f32 [%rd6+28], %f2;\n"
    "  ret;\n}\n";

static void test_mixed_precision_add(void **state)
{
    (void)state;
    enum { M = 64 };
    uint16_t a[M];
    float c[M], out[M * 8];
    for (unsigned i = 0; i < M; i++) {
        /* halves across the range (normals, subnormals, signs), and f32
         * addends chosen so the exact sum needs rounding */
        a[i] = (uint16_t)(i * 0x0409u + (i & 1 ? 0x8000u : 0));
        if ((a[i] & 0x7c00) == 0x7c00)
            a[i] &= 0x83ff; /* no inf/NaN inputs */
        c[i] = ldexpf(1.0f + (float)i / 7.0f, (int)(i % 9) - 4) * (i % 3 ? 1.0f : -1.0f);
    }
    test_buf b[] = {{a, sizeof a}, {c, sizeof c}, {out, sizeof out}};
    run_ok(mixed_kernel, 1, M, b, 3);
    for (unsigned i = 0; i < M; i++) {
        float h = f16_value(a[i]), bf = bf16_value(a[i]);
        float want[8] = {
            host_op(h, c[i], false, FE_TONEAREST),
            host_op(h, c[i], false, FE_TOWARDZERO),
            host_op(h, c[i], true, FE_DOWNWARD),
            sat01(host_op(h, c[i], false, FE_UPWARD)),
            host_op(bf, c[i], false, FE_TONEAREST),
            host_op(bf, c[i], true, FE_TOWARDZERO),
            sat01(host_op(bf, c[i], true, FE_TONEAREST)),
            fmaf(h, h, c[i]),
        };
        for (unsigned k = 0; k < 8; k++) {
            uint32_t gw, gg;
            memcpy(&gw, &want[k], 4);
            memcpy(&gg, &out[i * 8 + k], 4);
            if (gw != gg)
                fail_msg("lane %u form %u: a=0x%04x c=%a: got %a, want %a", i, k, a[i],
                         (double)c[i], (double)out[i * 8 + k], (double)want[k]);
        }
    }
}

/* ------------------------------------------- module-level declarations */

/* A table of function addresses in a .global initialiser, called through
 * a .callprototype; a .noreturn function that traps; a .extern .entry that
 * is only declared.  Model: even threads f1(x) = x + 1, odd f2(x) = 3x. */
static const char funcs_module[] = HEADER
    ".func (.param .b32 r) f1 (.param .b32 a)\n{\n  .reg .b32 %r<3>;\n"
    "  ld.param.b32 %r1, [a];\n  add.s32 %r2, %r1, 1;\n  st.param.b32 [r], %r2;\n  ret;\n}\n"
    ".func (.param .b32 r) f2 (.param .b32 a)\n{\n  .reg .b32 %r<3>;\n"
    "  ld.param.b32 %r1, [a];\n  mul.lo.s32 %r2, %r1, 3;\n  st.param.b32 [r], %r2;\n  ret;\n}\n"
    ".func die () .noreturn\n{\n  trap;\n}\n"
    ".global .align 8 .u64 table[2] = {f1, f2};\n"
    ".extern .entry other (.param .u64 p);\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n  mul.wide.u32 %rd2, %r2, 8;\n"
    "  mov.u64 %rd3, table;\n  add.s64 %rd3, %rd3, %rd2;\n  ld.global.u64 %rd4, [%rd3];\n"
    "  setp.eq.u64 %p1, %rd4, 0;\n  @%p1 call.uni die, ();\n"
    "  {\n  .param .b32 pa;\n  .param .b32 pr;\n"
    "  st.param.b32 [pa], %r1;\n"
    "  proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (pr), %rd4, (pa), proto;\n"
    "  ld.param.b32 %r3, [pr];\n  }\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd5, %rd1, %rd5;\n"
    "  st.global.u32 [%rd5], %r3;\n  ret;\n}\n";

static void test_module_declarations(void **state)
{
    (void)state;
    uint32_t out[N] = {0};
    test_buf b = {out, sizeof out};
    char *err = NULL;
    ptxemu_status st = test_run_ptx(funcs_module, "k", 1, N, &b, 1, &err);
    if (st != PTXEMU_OK)
        fail_msg("launch failed: %s", err ? err : "?");
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(out[i], i % 2 ? 3 * i : i + 1);
    st = test_run_ptx(funcs_module, "other", 1, 1, &b, 1, &err);
    assert_int_equal(st, PTXEMU_ERR_NOT_FOUND);
    assert_non_null(err);
    assert_non_null(strstr(err, "only declared (.extern .entry)"));
    g_free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_b128_load_store_mov),
        cmocka_unit_test(test_b128_refusals),
        cmocka_unit_test(test_atom_b128),
        cmocka_unit_test(test_memory_orders),
        cmocka_unit_test(test_sinks),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_kernel_param_address),
        cmocka_unit_test(test_line_hints),
        cmocka_unit_test(test_brkpt_is_located),
        cmocka_unit_test(test_mixed_precision_add),
        cmocka_unit_test(test_module_declarations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
