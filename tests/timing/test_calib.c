/* tests/timing/test_calib.c — the mechanisms added to match GPGPU-Sim's
 * SM2_GTX480 model (issue 29), each against counts worked out by hand for
 * a tiny kernel on the gtx480 preset:
 *   - l2.memcpy_fill: after a 4 KB host-to-device copy the kernel's first
 *     reads of it hit in the L2 (32 lines, none from DRAM); without it
 *     they all miss; symbol copies and memsets leave the L2 alone and
 *     device-to-host copies fill it;
 *   - const_cache.kernel_params: one warp's two ld.param (one 64-byte
 *     constant line) are two constant-cache misses (the second merged)
 *     and one L2 read; the first read waits for a cold L2 miss, at least
 *     l2.hit_latency + dram.latency = 220 cycles more than the fixed
 *     const_cache.hit_latency; the next launch finds the line in the L2;
 *   - l1i: code lines per SM are the cold misses: a 12-instruction kernel
 *     (96 bytes at code offset 0) is one line, a second one placed after
 *     it in the PTX (offset 96) spans two; fetches bring 2 instructions,
 *     not past a line's end; a missing warp fetches again (a hit) when
 *     the line is back; the cache is kept across launches;
 *   - l2.write_ack: one warp's store of one 128-byte line comes back as
 *     4 one-flit acknowledgements (one per 32-byte sector) and the CTA
 *     ends only after them: at least l2.hit_latency + 2 x noc.latency =
 *     128 cycles later; a membar after the store does not wait for them;
 *   - noc.slice_ports: two SMs' reads of the two slices of one partition
 *     reach and leave the L2 on their own crossbar ports: the requests
 *     (1 flit) no longer go one cycle apart and the second reply no longer
 *     waits behind the first's 4 flits: the kernel ends 4 cycles sooner;
 *   - l1d.latency_queue: a load miss and a store's write leave for the L2
 *     l1d.hit_latency (35) cycles after issue instead of the next cycle:
 *     a one-load kernel and a one-store kernel (whose CTA waits for the
 *     ack) each end 34 cycles later. */
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* Each thread copies one word: in[i] -> out[i]. */
static const char *COPY_PTX =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".global .align 4 .b8 sym[4096];\n"
    ".visible .entry copy(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.u32 %r4, %r1, %r2, %r3;\n  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r1, [%rd4];\n"
    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.u32 [%rd5], %r1;\n"
    "  ret;\n}\n";

/* COPY_PTX with a second, identical kernel after the first: its code
 * starts at byte 12 x 8 = 96, so its instructions 4.. are on line 1. */
static char *two_kernels(void)
{
    const char *body = strstr(COPY_PTX, ".visible .entry copy(");
    GString *g = g_string_new(COPY_PTX);
    g_string_append(g, body);
    char *dup = strstr(g->str + strlen(COPY_PTX), "entry copy(");
    memcpy(dup, "entry cop2(", 11);
    return g_string_free(g, FALSE);
}

#define WORDS 1024u /* 4 KB: 32 lines of 128 bytes */

typedef struct calib_env {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
} calib_env;

static calib_env env_open(const char *const *sets, const char *ptx)
{
    calib_env e = {0};
    test_timing_open("gtx480", sets, ptx, "calib.ptx", &e.ctx, &e.mod);
    return e;
}

/* The idx-th number called `key` in the statistics JSON (kernels in launch
 * order, then the total). */
static uint64_t stat_nth(calib_env *e, const char *key, unsigned idx)
{
    return test_json_nth(ptxemu_timing_stats_json(e->ctx), key, idx);
}

/* ------------------------------------------------------------ memcpy fill */

enum { FILL_HTOD, FILL_NONE, FILL_SYMBOL, FILL_MEMSET, FILL_DTOH };

/* Runs copy over a 4 KB input prepared by `how`; returns its L2 hits and
 * misses.  4 CTAs of 256 threads: each CTA reads 1 KB = 8 lines on its own
 * SM, so the L2 sees 32 reads of 32 distinct lines. */
static void run_fill(bool fill, int how, uint64_t *hits, uint64_t *misses, uint64_t *dram)
{
    /* parameters and code without memory traffic: the L2 sees only the input */
    const char *sets[] = {fill ? "l2.memcpy_fill=true" : "l2.memcpy_fill=false",
                          "const_cache.kernel_params=false", "l1i.enabled=false", NULL};
    calib_env e = env_open(sets, COPY_PTX);
    uint32_t host[WORDS];
    for (uint32_t i = 0; i < WORDS; i++)
        host[i] = i * 7u + 1u;
    ptxemu_dptr in = 0, out = 0;
    size_t symbytes = 0;
    assert_int_equal(ptxemu_malloc(e.ctx, &out, sizeof host), PTXEMU_OK);
    switch (how) {
    case FILL_SYMBOL:
        assert_int_equal(ptxemu_module_get_global(e.mod, "sym", &in, &symbytes), PTXEMU_OK);
        assert_int_equal(symbytes, sizeof host);
        assert_int_equal(ptxemu_memcpy_to_symbol(e.mod, "sym", host, sizeof host, 0),
                         PTXEMU_OK);
        break;
    case FILL_MEMSET:
        assert_int_equal(ptxemu_malloc(e.ctx, &in, sizeof host), PTXEMU_OK);
        assert_int_equal(ptxemu_memset(e.ctx, in, 0, sizeof host), PTXEMU_OK);
        break;
    case FILL_DTOH:
        assert_int_equal(ptxemu_malloc(e.ctx, &in, sizeof host), PTXEMU_OK);
        assert_int_equal(ptxemu_memcpy_dtoh(e.ctx, host, in, sizeof host), PTXEMU_OK);
        break;
    default:
        assert_int_equal(ptxemu_malloc(e.ctx, &in, sizeof host), PTXEMU_OK);
        if (how == FILL_HTOD)
            assert_int_equal(ptxemu_memcpy_htod(e.ctx, in, host, sizeof host), PTXEMU_OK);
        break;
    }
    void *args[] = {&in, &out};
    assert_int_equal(ptxemu_launch(e.mod, "copy", (ptxemu_dim3){4, 1, 1},
                                   (ptxemu_dim3){256, 1, 1}, 0, args),
                     PTXEMU_OK);
    *hits = stat_nth(&e, "l2_hits", 0);
    *misses = stat_nth(&e, "l2_misses", 0);
    *dram = stat_nth(&e, "dram_reads", 0);
    ptxemu_ctx_destroy(e.ctx);
}

static void test_memcpy_fill(void **state)
{
    (void)state;
    uint64_t h, m, d;
    /* filled by the copy: every line hits, nothing comes from DRAM */
    run_fill(true, FILL_HTOD, &h, &m, &d);
    assert_int_equal(h, 32);
    assert_int_equal(m, 0);
    assert_int_equal(d, 0);
    /* the key off: the same copy leaves the L2 cold */
    run_fill(false, FILL_HTOD, &h, &m, &d);
    assert_int_equal(h, 0);
    assert_int_equal(m, 32);
    assert_int_equal(d, 32);
    /* a device-to-host copy of the buffer fills it too (GPGPU-Sim's
     * memcpy_from_gpu calls perf_memcpy_to_gpu on the source) */
    run_fill(true, FILL_DTOH, &h, &m, &d);
    assert_int_equal(h, 32);
    assert_int_equal(m, 0);
}

static void test_memcpy_fill_not_symbol_memset(void **state)
{
    (void)state;
    uint64_t h, m, d;
    run_fill(true, FILL_SYMBOL, &h, &m, &d);
    assert_int_equal(h, 0);
    assert_int_equal(m, 32);
    run_fill(true, FILL_MEMSET, &h, &m, &d);
    assert_int_equal(h, 0);
    assert_int_equal(m, 32);
    run_fill(true, FILL_NONE, &h, &m, &d);
    assert_int_equal(h, 0);
    assert_int_equal(m, 32);
}

/* ------------------------------------------------------------ kernel params */

typedef struct kp_run {
    uint64_t cycles[2], chits[2], cmisses[2], l2h[2], l2m[2];
} kp_run;

/* Two launches of copy with one warp over a filled 128-byte input. */
static kp_run run_kparams(bool on)
{
    const char *sets[] = {"l2.memcpy_fill=true", on ? "const_cache.kernel_params=true"
                             : "const_cache.kernel_params=false",
                          "l1i.enabled=false", NULL};
    calib_env e = env_open(sets, COPY_PTX);
    uint32_t host[32];
    for (uint32_t i = 0; i < 32; i++)
        host[i] = i;
    ptxemu_dptr in = 0, out = 0;
    assert_int_equal(ptxemu_malloc(e.ctx, &in, sizeof host), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(e.ctx, &out, sizeof host), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(e.ctx, in, host, sizeof host), PTXEMU_OK);
    void *args[] = {&in, &out};
    kp_run r;
    for (unsigned k = 0; k < 2; k++)
        assert_int_equal(ptxemu_launch(e.mod, "copy", (ptxemu_dim3){1, 1, 1},
                                       (ptxemu_dim3){32, 1, 1}, 0, args),
                         PTXEMU_OK);
    for (unsigned k = 0; k < 2; k++) {
        r.cycles[k] = stat_nth(&e, "cycles", k);
        r.chits[k] = stat_nth(&e, "const_hits", k);
        r.cmisses[k] = stat_nth(&e, "const_misses", k);
        r.l2h[k] = stat_nth(&e, "l2_hits", k);
        r.l2m[k] = stat_nth(&e, "l2_misses", k);
    }
    ptxemu_ctx_destroy(e.ctx);
    return r;
}

static void test_kernel_params(void **state)
{
    (void)state;
    kp_run off = run_kparams(false), on = run_kparams(true);
    /* off: parameters are no memory traffic; the input hits in the L2
     * (gtx480 fills it at the copy) */
    assert_int_equal(off.chits[0] + off.cmisses[0], 0);
    assert_int_equal(off.l2h[0], 1);
    assert_int_equal(off.l2m[0], 0);
    /* on: both reads miss the constant cache (the second merges into the
     * first's MSHR); the L2 sees the parameter line once, cold */
    assert_int_equal(on.chits[0], 0);
    assert_int_equal(on.cmisses[0], 2);
    assert_int_equal(on.l2h[0], 1);
    assert_int_equal(on.l2m[0], 1);
    uint64_t extra = on.cycles[0] - off.cycles[0];
    if (on.cycles[0] < off.cycles[0] + 220 || extra > 350)
        fail_msg("the first parameter read cost %llu extra cycles, expected 220..350",
                 (unsigned long long)extra);
    /* the next launch: the constant cache was dropped at the kernel
     * boundary, the L2 still has the line */
    assert_int_equal(on.cmisses[1], 2);
    assert_int_equal(on.l2h[1], 2);
    assert_int_equal(on.l2m[1], 0);
}

/* ------------------------------------------------------------ l1i */

typedef struct ic_run {
    uint64_t cycles[2], hits[2], misses[2];
} ic_run;

/* `kernel` twice, one warp each, on the gtx480 preset with l1i on/off. */
static ic_run run_icache(bool on, const char *kernel)
{
    const char *sets[] = {on ? "l1i.enabled=true" : "l1i.enabled=false",
                          "const_cache.kernel_params=false", NULL};
    char *ptx = two_kernels();
    calib_env e = env_open(sets, ptx);
    g_free(ptx);
    ptxemu_dptr in = 0, out = 0;
    uint32_t host[15 * 32] = {0};
    assert_int_equal(ptxemu_malloc(e.ctx, &in, sizeof host), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(e.ctx, &out, sizeof host), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(e.ctx, in, host, sizeof host), PTXEMU_OK);
    void *args[] = {&in, &out};
    ic_run r;
    memset(&r, 0, sizeof r);
    /* launch 0: one CTA per SM (15); launch 1: one CTA, on any SM */
    for (unsigned k = 0; k < 2; k++)
        assert_int_equal(ptxemu_launch(e.mod, kernel, (ptxemu_dim3){k ? 1 : 15, 1, 1},
                                       (ptxemu_dim3){32, 1, 1}, 0, args),
                         PTXEMU_OK);
    for (unsigned k = 0; k < 2; k++) {
        r.cycles[k] = stat_nth(&e, "cycles", k);
        if (on) {
            r.hits[k] = stat_nth(&e, "hits", k);
            r.misses[k] = stat_nth(&e, "misses", k);
        }
    }
    if (!on) /* no instruction-cache block without the cache */
        assert_null(strstr(ptxemu_timing_stats_json(e.ctx), "instruction_cache"));
    ptxemu_ctx_destroy(e.ctx);
    return r;
}

static void test_icache(void **state)
{
    (void)state;
    /* copy: 12 instructions in line 0.  Fetches of 2 per warp: pc 0
     * misses, then pc 0, 2, 4, 6, 8, 10 hit; 15 SMs */
    ic_run off = run_icache(false, "copy"), on = run_icache(true, "copy");
    assert_int_equal(on.misses[0], 15);
    assert_int_equal(on.hits[0], 15 * 6);
    /* the first fetch waits for a cold L2 miss */
    if (on.cycles[0] < off.cycles[0] + 220)
        fail_msg("a cold instruction miss cost %lld cycles, expected >= 220",
                 (long long)on.cycles[0] - (long long)off.cycles[0]);
    /* launch 2 finds the line in its SM's cache (every SM has it) */
    assert_int_equal(on.misses[1], 0);
    assert_int_equal(on.hits[1], 6);
    assert_int_equal(on.cycles[1], off.cycles[1]);
    /* cop2 at byte 96: pc 0-1 (96..111) and 2-3 (112..127) on line 0, pc 4
     * on line 1: misses at pc 0 and pc 4, each then fetched again; the
     * fetches are pc 0, 2, 4, 6, 8, 10 (pc 2 brings 2: it ends at 128) */
    ic_run two = run_icache(true, "cop2");
    assert_int_equal(two.misses[0], 15 * 2);
    assert_int_equal(two.hits[0], 15 * 6);
    assert_int_equal(two.misses[1], 0);
}

/* ------------------------------------------------------------ write ack */

/* One warp stores one line (32 words at out), then an add that needs
 * nothing from memory (st1), or a membar and a load of the line (st1f). */
static const char *STORE_PTX =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry st1(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n  add.u32 %r2, %r1, 1;\n  ret;\n}\n"
    ".visible .entry st1f(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n  membar.gl;\n  ld.global.u32 %r2, [%rd3];\n"
    "  add.u32 %r3, %r2, 1;\n  ret;\n}\n";

typedef struct wa_run {
    uint64_t cycles, flits;
    uint32_t out[32];
} wa_run;

static wa_run run_store_lq(bool ack, bool lq, const char *kernel)
{
    const char *sets[] = {ack ? "l2.write_ack=true" : "l2.write_ack=false",
                          lq ? "l1d.latency_queue=true" : "l1d.latency_queue=false",
                          "const_cache.kernel_params=false", "l1i.enabled=false", NULL};
    calib_env e = env_open(sets, STORE_PTX);
    ptxemu_dptr out = 0;
    assert_int_equal(ptxemu_malloc(e.ctx, &out, 128), PTXEMU_OK);
    void *args[] = {&out};
    assert_int_equal(ptxemu_launch(e.mod, kernel, (ptxemu_dim3){1, 1, 1},
                                   (ptxemu_dim3){32, 1, 1}, 0, args),
                     PTXEMU_OK);
    wa_run r;
    r.cycles = stat_nth(&e, "cycles", 0);
    r.flits = stat_nth(&e, "noc_flits", 0);
    assert_int_equal(ptxemu_memcpy_dtoh(e.ctx, r.out, out, sizeof r.out), PTXEMU_OK);
    ptxemu_ctx_destroy(e.ctx);
    return r;
}

static wa_run run_store(bool ack, const char *kernel)
{
    return run_store_lq(ack, false, kernel);
}

static void test_write_ack(void **state)
{
    (void)state;
    wa_run off = run_store(false, "st1"), on = run_store(true, "st1");
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(on.out[i], i);
    /* the write is 4 flits (128 bytes over 40-byte flits) either way; the
     * acknowledgement adds one flit per sector */
    assert_int_equal(off.flits, 4);
    assert_int_equal(on.flits, 4 + 4);
    /* the CTA waits for the round trip: into the L2, its 120-cycle
     * pipeline, back through the reply crossbar */
    if (on.cycles < off.cycles + 120 + 2 * 4)
        fail_msg("the acknowledged store ended %lld cycles later, expected >= 128",
                 (long long)on.cycles - (long long)off.cycles);
    /* a membar waits for loads only: the load after it goes out at once
     * and its round trip (L2 pipeline and both crossbar legs, as the
     * acknowledgement's) overlaps the acknowledgement's; waiting for the
     * acknowledgement first would add another >= 128 cycles */
    wa_run fence = run_store(true, "st1f");
    if (fence.cycles > on.cycles + 64)
        fail_msg("the membar waited for the acknowledgement: %llu cycles, %llu without it",
                 (unsigned long long)fence.cycles, (unsigned long long)on.cycles);
}

/* ------------------------------------------------------------ slice ports */

/* CTA c reads the line at in + 128 c (one thread). */
static const char *LINE_PTX =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry rd(.param .u64 in)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [in];\n  mov.u32 %r1, %ctaid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 128;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";

static uint64_t run_slices(bool ports, bool lq, unsigned ctas)
{
    const char *sets[] = {ports ? "noc.slice_ports=true" : "noc.slice_ports=false",
                          lq ? "l1d.latency_queue=true" : "l1d.latency_queue=false",
                          "const_cache.kernel_params=false", "l1i.enabled=false",
                          "l2.memcpy_fill=true", NULL};
    calib_env e = env_open(sets, LINE_PTX);
    ptxemu_dptr in = 0;
    uint32_t host[64] = {0};
    /* 256 bytes at a 256-byte boundary: one partition (dram.interleave
     * 256), lines 0 and 1 in its slices 0 and 1; the copy puts them in L2 */
    assert_int_equal(ptxemu_malloc(e.ctx, &in, 4096), PTXEMU_OK);
    assert_int_equal(in % 256, 0);
    assert_int_equal(ptxemu_memcpy_htod(e.ctx, in, host, sizeof host), PTXEMU_OK);
    void *args[] = {&in};
    assert_int_equal(ptxemu_launch(e.mod, "rd", (ptxemu_dim3){ctas, 1, 1},
                                   (ptxemu_dim3){1, 1, 1}, 0, args),
                     PTXEMU_OK);
    assert_int_equal(stat_nth(&e, "l2_hits", 0), ctas);
    uint64_t cycles = stat_nth(&e, "cycles", 0);
    ptxemu_ctx_destroy(e.ctx);
    return cycles;
}

static void test_slice_ports(void **state)
{
    (void)state;
    uint64_t shared = run_slices(false, false, 2), own = run_slices(true, false, 2);
    /* shared port: requests 1 cycle apart, the second reply granted when
     * the first's 4 flits are through, i.e. 4 cycles after it; own
     * ports: both in parallel */
    assert_int_equal(shared, own + 4);
}

/* ------------------------------------------------------------ L1 latency queue */

static void test_latency_queue(void **state)
{
    (void)state;
    /* one load that misses in L1 and hits in L2: found missing at issue +
     * 35 instead of issue + 1 */
    uint64_t ld0 = run_slices(true, false, 1), ld1 = run_slices(true, true, 1);
    assert_int_equal(ld1, ld0 + 34);
    /* one acknowledged store: its write leaves 34 cycles later, and the
     * CTA waits for the ack */
    wa_run st0 = run_store_lq(true, false, "st1"), st1 = run_store_lq(true, true, "st1");
    assert_int_equal(st1.cycles, st0.cycles + 34);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memcpy_fill),
        cmocka_unit_test(test_memcpy_fill_not_symbol_memset),
        cmocka_unit_test(test_kernel_params),
        cmocka_unit_test(test_icache),
        cmocka_unit_test(test_write_ack),
        cmocka_unit_test(test_slice_ports),
        cmocka_unit_test(test_latency_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
