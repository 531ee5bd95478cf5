/* tests/timing/test_memsys.c — the memory hierarchy driven directly with
 * synthetic warp accesses: latencies of an L1 hit, an L2 hit and a DRAM
 * access against the numbers the preset implies, streaming bandwidth
 * against the configured DRAM peak, coalescing, MSHR merging, FR-FCFS
 * ordering, determinism and intra-cluster coalescing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/coalesce.h"
#include "timing/config.h"
#include "timing/dram.h"
#include "timing/memsys.h"
#include "tests/support/memsys_harness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_TOKENS 65536
#define NOT_DONE MEMH_NOT_DONE

typedef memh harness;

/* Latency of one load issued alone (memsys otherwise idle). */
static uint64_t h_load_latency(harness *h, uint32_t sm, uint64_t addr, uint64_t token)
{
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, addr, 4, 4);
    uint64_t c = memh_issue(h, sm, 0, &a, token);
    while (h->done_at[token] == NOT_DONE) {
        assert_true(h->cycle - c < 100000);
        memh_step(h);
    }
    memh_drain(h);
    return h->done_at[token] - c;
}

static void assert_within(double measured, double expected, double tol, const char *what)
{
    if (fabs(measured - expected) > tol * expected)
        fail_msg("%s: measured %.1f, expected %.1f (+-%.0f%%)", what, measured, expected,
                 tol * 100);
}

/* ------------------------------------------------------------ latencies */

/* M2090 preset: core = NoC = L2 clock = 1300 MHz, DRAM 1850 MHz;
 * l1d.hit_latency 20, l2.hit_latency 100 (L2 cycles = core cycles here),
 * noc.latency 4, 32-byte channels, DRAM tRCD = tCL = 12, 64-bit bus,
 * burst 8, double data rate (64 B per column command, 4 bus cycles).
 *
 * L1 hit: l1d.hit_latency = 20 core cycles.
 *
 * L2 hit (line brought to L2 by another SM, L1 miss here):
 *   1  L1 tag check, miss into the SM's miss queue
 *   1  cluster bus into the injection port
 *   4  request crossbar: noc.latency + 1 flit - 1
 * 100  L2 hit latency
 *   1  L2 -> NoC port hand-over
 *   7  reply crossbar: noc.latency + 128 B / 32 B = 4 flits - 1
 *   1  L1 fill / write-back to the registers
 * = 115 core cycles.
 *
 * DRAM (cold miss): the L2-hit path plus the DRAM access before the L2
 * latency: ACT, tRCD = 12, first read, second read waits for the data bus
 * (4 cycles), tCL = 12, last burst 4 cycles: 12 + 4 + 12 + 4 = 32 DRAM
 * cycles = 32 x 1300 / 1850 = 22.5 core cycles, plus ~1 cycle to hand
 * the request to the DRAM clock: 115 + 22.5 + 1 = ~138 core cycles.
 * Reuse of the same line by the same SM: an L1 hit again (20). */
static void test_latencies_m2090(void **state)
{
    (void)state;
    harness *h = memh_new("m2090", NULL, MAX_TOKENS);
    uint64_t line = 0x700000000ull;

    uint64_t dram = h_load_latency(h, 0, line, 1);
    uint64_t l1 = h_load_latency(h, 0, line, 2);
    uint64_t l2 = h_load_latency(h, 1, line, 3);
    printf("# m2090 latencies: L1 hit %llu, L2 hit %llu, DRAM %llu core cycles\n",
           (unsigned long long)l1, (unsigned long long)l2, (unsigned long long)dram);
    assert_within((double)l1, 20, 0.10, "L1 hit");
    assert_within((double)l2, 115, 0.10, "L2 hit");
    assert_within((double)dram, 138, 0.10, "DRAM access");

    memsys_stats st;
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.l1_hits, 1);
    assert_int_equal(st.l1_misses, 2);
    assert_int_equal(st.l2_hits, 1);
    assert_int_equal(st.l2_misses, 1);
    assert_int_equal(st.dram_reads, 1);
    assert_int_equal(st.dram_row_misses, 1);
    assert_int_equal(st.latency_count, 3);
    assert_int_equal(st.latency_sum, l1 + l2 + dram);
    /* one load at a time: overlapped time equals the summed latencies */
    assert_int_equal(st.latency_overlapped_sum, l1 + l2 + dram);
    assert_int_equal(st.served_per_sm[0], 1);
    assert_int_equal(st.served_per_sm[1], 1);

    /* a volatile / .cg load skips the L1 copy: an L2 hit again */
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, line, 4, 4);
    uint64_t c = memh_step(h);
    assert_true(memsys_issue_flags(h->m, 0, 0, &a, 4, c, MEMSYS_BYPASS_L1));
    memh_drain(h);
    assert_int_equal(h->done_at[4] - c, l2);
    /* a kernel boundary empties the L1s: the line comes from L2 again */
    assert_int_equal(h_load_latency(h, 0, line, 5), l1);
    memsys_invalidate_l1(h->m);
    assert_int_equal(h_load_latency(h, 0, line, 6), l2);
    memh_free(h);
}

/* GTX480 (GPGPU-Sim SM2_GTX480): core = NoC = L2 = 700 MHz, DRAM 924 MHz
 * (x4); l1d.hit_latency 35, l2.hit_latency 120, noc.latency 4, 40-byte
 * flits, dram.latency 100 L2 cycles, tRCD = tCL = 12, 64 B per column
 * command in 2 DRAM cycles.
 * L1 hit: 35.
 * L2 hit: 1 (tag) + 1 (bus) + 4 (request crossbar, 1 flit) + 120 (L2)
 *   + 1 (hand-over) + 7 (reply: 4 + 128 B / 40 B = 4 flits - 1) + 1 (fill)
 *   = 135.
 * DRAM (cold miss): the L2-hit path + 100 (dram.latency) + ACT, tRCD 12,
 *   two reads 2 apart (data bus), tCL 12, last burst 2 = 28 DRAM cycles
 *   = 28 x 700 / 924 = 21.2 core cycles, + ~1 hand-over = ~257.
 * l1d.latency_queue (on in gtx480): the miss is found 35 cycles after
 *   issue, not 1: L2 hit 135 + 34 = 169, DRAM ~257 + 34 = ~291. */
static void test_latencies_gtx480(void **state)
{
    (void)state;
    harness *h = memh_new("gtx480", NULL, MAX_TOKENS);
    uint64_t line = 0x700000000ull;
    uint64_t dram = h_load_latency(h, 0, line, 1);
    uint64_t l1 = h_load_latency(h, 0, line, 2);
    uint64_t l2 = h_load_latency(h, 1, line, 3);
    printf("# gtx480 latencies: L1 hit %llu, L2 hit %llu, DRAM %llu core cycles\n",
           (unsigned long long)l1, (unsigned long long)l2, (unsigned long long)dram);
    assert_within((double)l1, 35, 0.10, "L1 hit");
    assert_within((double)l2, 135 + 34, 0.10, "L2 hit");
    assert_within((double)dram, 257 + 34, 0.10, "DRAM access");
    memh_free(h);
}

/* ------------------------------------------------------------ bandwidth */

/* Every SM streams loads over one array, grid-stride like a coalesced
 * kernel (SM s reads lines s, s + nsms, ...), retrying refused issues. */
static void stream(harness *h, uint32_t lines_per_sm, uint64_t *cycles)
{
    uint32_t nsms = h->cfg.gpu.num_sms;
    uint32_t line = h->cfg.l1d.line;
    uint32_t *next = g_new0(uint32_t, nsms);
    uint64_t start = h->cycle, token = 0, left = (uint64_t)nsms * lines_per_sm;
    while (left) {
        uint64_t c = memh_step(h);
        for (uint32_t s = 0; s < nsms; s++) {
            if (next[s] == lines_per_sm)
                continue;
            uint64_t addr = 0x700000000ull + ((uint64_t)next[s] * nsms + s) * line;
            ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, addr, 4, 4);
            if (memsys_issue(h->m, s, next[s] % 48, &a, token % MAX_TOKENS, c)) {
                h->done_at[token % MAX_TOKENS] = NOT_DONE;
                token++;
                next[s]++;
                left--;
            }
        }
    }
    memh_drain(h);
    *cycles = h->cycle - start;
    g_free(next);
}

static void on_done_count(void *user, uint64_t token, uint64_t cycle)
{
    (void)token;
    (void)cycle;
    (*(uint64_t *)user)++;
}

/* M2090: 6 partitions x 8 B x 2 transfers x 1850 MHz = 177.6 GB/s,
 * = 136.6 bytes per 1300 MHz core cycle. */
static void test_stream_bandwidth(void **state)
{
    (void)state;
    harness *h = memh_new("m2090", NULL, MAX_TOKENS);
    memsys_destroy(h->m);
    uint64_t completed = 0;
    h->m = memsys_create(&h->cfg, on_done_count, &completed);
    const uint32_t per_sm = 2048;  /* 16 SMs x 2048 x 128 B = 4 MiB >> L2 */
    uint64_t cycles;
    stream(h, per_sm, &cycles);
    memsys_stats st;
    memsys_extra_stats x;
    memsys_get_stats(h->m, &st);
    memsys_get_extra_stats(h->m, &x);
    uint64_t lines = (uint64_t)h->cfg.gpu.num_sms * per_sm;
    assert_int_equal(completed, lines);
    assert_int_equal(st.dram_reads, lines);
    assert_int_equal(x.dram_bytes, lines * 128);
    double peak_per_cycle = gpu_config_dram_gbps(&h->cfg) * 1e9 / (h->cfg.clock.core * 1e6);
    double got = (double)x.dram_bytes / (double)cycles;
    printf("# stream: %llu lines in %llu cycles: %.1f B/cycle of %.1f peak (%.1f%%), "
           "row hits %llu misses %llu, AMAT %.1f\n",
           (unsigned long long)lines, (unsigned long long)cycles, got, peak_per_cycle,
           100 * got / peak_per_cycle, (unsigned long long)st.dram_row_hits,
           (unsigned long long)st.dram_row_misses,
           (double)st.latency_sum / (double)st.latency_count);
    assert_true(got >= 0.70 * peak_per_cycle);
    assert_true(got <= peak_per_cycle);
    memh_free(h);
}

/* ------------------------------------------------------------ coalescing */

static void test_coalescing(void **state)
{
    (void)state;
    coal_out co;
    /* 32 lanes x 4 consecutive bytes: one 128-byte line, all 4 sectors */
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 4, 4);
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 1);
    assert_int_equal(co.tx[0].line, 0x700000000ull);
    assert_int_equal(co.tx[0].sectors, 0xf);
    /* misaligned by 64 bytes: two lines, 2 sectors each */
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000040ull, 4, 4);
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 2);
    assert_int_equal(co.tx[0].sectors, 0xc);
    assert_int_equal(co.tx[1].sectors, 0x3);
    /* 128-byte stride: one line per lane */
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 128, 4);
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 32);
    for (unsigned i = 0; i < 32; i++)
        assert_int_equal(co.tx[i].sectors, 1);
    /* lane l on line l % 8, sector l / 8: lines come back in first-touch
     * order, each with all 4 sectors (repeats are 8 lanes apart, past the
     * last-line check, so the lookup table finds them) */
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 0, 4);
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = 0x700000000ull + (l % 8) * 128 + (l / 8) * 32;
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 8);
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(co.tx[i].line, 0x700000000ull + i * 128);
        assert_int_equal(co.tx[i].sectors, 0xf);
    }
    /* the same with lane 30 misaligned (line 6, bytes 1..4: sector 0) and
     * lane 31 moved to a ninth line after it */
    a.addr[30] = 0x700000000ull + 6 * 128 + 1;
    a.addr[31] = 0x700000000ull + 9 * 128 + 96;
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 9);
    assert_int_equal(co.tx[6].sectors, 0x7);
    assert_int_equal(co.tx[7].sectors, 0x7);
    assert_int_equal(co.tx[8].line, 0x700000000ull + 9 * 128);
    assert_int_equal(co.tx[8].sectors, 0x8);
    /* all lanes on one word: one transaction */
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000010ull, 0, 4);
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 1);
    assert_int_equal(co.tx[0].sectors, 1);
    /* local: every lane at offset 8 -> one interleaved 128-byte chunk; an
     * 8-byte access at offset 0 -> two chunks */
    a = memh_access(EX_SPACE_LOCAL, false, FULL_MASK, 8, 0, 4);
    coalesce(&a, 3, 5, 128, &co);
    assert_int_equal(co.ntx, 1);
    assert_int_equal(co.tx[0].line, coal_local_addr(3, 5, 0, 8));
    a = memh_access(EX_SPACE_LOCAL, false, FULL_MASK, 0, 0, 8);
    coalesce(&a, 3, 5, 128, &co);
    assert_int_equal(co.ntx, 2);
    /* different warps' local memory never share lines */
    assert_true(coal_local_addr(0, 1, 0, 0) - coal_local_addr(0, 0, 0, 0) >= 128);
    /* constant: 32 lanes on 4 distinct addresses of one line = 4 passes */
    a = memh_access(EX_SPACE_CONST, false, FULL_MASK, 0x700000000ull, 0, 4);
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = 0x700000000ull + (l % 4) * 4;
    coalesce(&a, 0, 0, 64, &co);
    assert_int_equal(co.ntx, 1);
    assert_int_equal(co.naddrs, 4);

    /* a kernel parameter: every lane on one 8-byte word straddling two
     * lines (bytes 124..131): two transactions, one constant-cache pass */
    a = memh_access(EX_SPACE_KPARAM, false, FULL_MASK, 0x7c, 0, 8);
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 2);
    assert_int_equal(co.tx[0].line, COAL_KPARAM_BASE);
    assert_int_equal(co.tx[0].sectors, 0x8);
    assert_int_equal(co.tx[1].line, COAL_KPARAM_BASE + 128);
    assert_int_equal(co.tx[1].sectors, 0x1);
    assert_int_equal(co.naddrs, 1);
    /* the same but lane 5 on the next word: two passes */
    a.addr[5] = 0x84;
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 2);
    assert_int_equal(co.tx[1].sectors, 0x1);
    assert_int_equal(co.naddrs, 2);

    /* through memsys: transactions counted after coalescing */
    harness *h = memh_new("m2090", NULL, MAX_TOKENS);
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 4, 4);
    memh_issue(h, 0, 0, &a, 1);
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x710000000ull, 128, 4);
    memh_issue(h, 1, 0, &a, 2);
    memh_drain(h);
    memsys_stats st;
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.warp_accesses, 2);
    assert_int_equal(st.transactions, 33);
    assert_int_equal(st.noc_read_requests, 33);
    assert_int_equal(st.dram_reads, 33);
    memh_free(h);
}

/* ------------------------------------------------------------ MSHRs */

static void test_mshr_merge(void **state)
{
    (void)state;
    harness *h = memh_new("m2090", NULL, MAX_TOKENS);
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 4, 4);
    uint64_t c0 = memh_issue(h, 0, 0, &a, 1);
    uint64_t c1 = memh_issue(h, 0, 1, &a, 2);
    assert_int_equal(c1, c0 + 1);
    memh_drain(h);
    memsys_stats st;
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.l1_misses, 2);
    assert_int_equal(st.l1_mshr_merges, 1);
    assert_int_equal(st.noc_read_requests, 1);
    assert_int_equal(st.dram_reads, 1);
    /* both finish with the one fill */
    assert_int_equal(h->done_at[1], h->done_at[2]);

    /* a full MSHR table refuses the whole instruction and counts it */
    uint32_t n = h->cfg.l1d.mshrs;
    for (uint32_t i = 0; i < n; i++) {
        a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x720000000ull + i * 128ull, 4, 4);
        assert_true(memsys_issue(h->m, 2, i, &a, 10 + i, h->cycle + i));
    }
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x730000000ull, 4, 4);
    assert_false(memsys_issue(h->m, 2, 0, &a, 99, h->cycle + n));
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.l1_reservation_fails, 1);
    memh_drain(h);
    memh_free(h);
}

/* ------------------------------------------------------------ FR-FCFS */

typedef struct dram_log {
    uint32_t order[8];
    uint64_t when[8];
    uint32_t n;
} dram_log;

static void dram_logger(void *ctx, const dram_req *r, uint64_t done)
{
    dram_log *l = ctx;
    l->order[l->n] = r->tag;
    l->when[l->n++] = done;
}

/* Bank 0 opened on row 0 by request A; then B (row 1, older) and C
 * (row 0, younger) queue up: FR-FCFS serves the row hit C before B;
 * FCFS serves B first. */
static void run_frfcfs(const char *sched, uint32_t expect_second, uint64_t *hits)
{
    const char *sets[] = {sched, NULL};
    gpu_config cfg = memh_config("m2090", sets);
    dram *d = dram_create(&cfg);
    uint64_t row_bytes = cfg.dram.row_buffer * cfg.dram.banks; /* next row, bank 0 */
    dram_req a = {0, 0, 0, 64, false}, b = {row_bytes, 1, 1, 64, false},
             c = {128, 2, 2, 64, false};
    dram_log log = {0};
    dram_push(d, &a, 0);
    dram_push(d, &b, 1);
    dram_push(d, &c, 2);
    uint64_t t = 0;
    for (uint64_t n = 0; !dram_empty(d); n++) {
        assert_true(n < 10000);
        uint64_t nx = dram_tick(d, t, dram_logger, &log);
        t = nx == DRAM_IDLE ? t + 1 : nx;
    }
    assert_int_equal(log.n, 3);
    assert_int_equal(log.order[0], 0);
    assert_int_equal(log.order[1], expect_second);
    assert_true(log.when[1] < log.when[2]);
    *hits = dram_get_stats(d)->row_hits;
    dram_destroy(d);
}

static void test_frfcfs(void **state)
{
    (void)state;
    uint64_t hits;
    run_frfcfs("dram.scheduler=fr-fcfs", 2, &hits);
    assert_int_equal(hits, 1); /* C hit the open row */
    run_frfcfs("dram.scheduler=fcfs", 1, &hits);
    assert_int_equal(hits, 0); /* B closed row 0 before C came */
}

/* The DRAM timing of one isolated read matches the parameters. */
static void test_dram_timing(void **state)
{
    (void)state;
    gpu_config cfg = memh_config("m2090", NULL);
    dram *d = dram_create(&cfg);
    dram_req r = {0, 7, 0, 128, false};
    dram_log log = {0};
    dram_push(d, &r, 10);
    uint64_t t = 0;
    while (!dram_empty(d)) {
        uint64_t nx = dram_tick(d, t, dram_logger, &log);
        t = nx == DRAM_IDLE ? t + 1 : nx;
    }
    /* ACT at 10, RD at 10 + tRCD = 22, RD at 26 (bus), data ends
     * 26 + tCL + 4 = 42 */
    assert_int_equal(log.when[0], 42);
    dram_destroy(d);
}

/* ------------------------------------------------------------ determinism */

static void mixed_run(memsys_stats *st, uint64_t *sum_done, uint64_t **served)
{
    harness *h = memh_new("icc60", (const char *const[]){"icc.mode=icc-cc", NULL}, MAX_TOKENS);
    uint32_t nsms = h->cfg.gpu.num_sms;
    uint64_t token = 1;
    for (uint32_t round = 0; round < 40; round++) {
        for (uint32_t s = 0; s < nsms; s += 3) {
            uint64_t base = 0x700000000ull + ((round * 7 + s) % 97) * 512ull;
            ex_access a = memh_access(EX_SPACE_GLOBAL, (round + s) % 5 == 0, FULL_MASK,
                                   base, (round % 3) ? 4 : 64, 4);
            uint64_t c = memh_step(h);
            if (memsys_issue(h->m, s, round % 48, &a, token, c))
                token++;
        }
    }
    memh_drain(h);
    memsys_get_stats(h->m, st);
    *served = g_new(uint64_t, nsms);
    memcpy(*served, st->served_per_sm, sizeof(uint64_t) * nsms);
    st->served_per_sm = NULL;
    *sum_done = 0;
    for (uint64_t t = 1; t < token; t++) {
        assert_true(h->done_at[t] != NOT_DONE);
        *sum_done = *sum_done * 31 + h->done_at[t];
    }
    memh_free(h);
}

static void test_determinism(void **state)
{
    (void)state;
    memsys_stats a, b;
    uint64_t da, db, *sa, *sb;
    mixed_run(&a, &da, &sa);
    mixed_run(&b, &db, &sb);
    assert_true(a.transactions > 0);
    assert_int_equal(da, db);
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_equal(sa, sb, sizeof(uint64_t) * a.nsms);
    g_free(sa);
    g_free(sb);
}

/* ------------------------------------------------------------ ICC */

/* Two SMs of one cluster read the same line in the same window: with ICC
 * the second request joins the merge-table entry and never crosses the
 * NoC; both get the data.  Without ICC both go out, and the second is
 * counted as a redundant request either way. */
static void icc_pair(const char *mode, uint64_t *noc_reads, memsys_stats *out)
{
    const char *sets[] = {mode, NULL};
    harness *h = memh_new("icc60", sets, MAX_TOKENS);
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 4, 4);
    memh_issue(h, 0, 0, &a, 1);
    memh_issue(h, 1, 0, &a, 2);  /* SM 1: same cluster (5 SMs per cluster) */
    memh_drain(h);
    assert_true(h->done_at[1] != NOT_DONE && h->done_at[2] != NOT_DONE);
    memsys_get_stats(h->m, out);
    *noc_reads = out->noc_read_requests;
    memh_free(h);
}

static void test_icc_merge(void **state)
{
    (void)state;
    memsys_stats st;
    uint64_t reads;
    icc_pair("icc.mode=off", &reads, &st);
    assert_int_equal(reads, 2);
    assert_int_equal(st.icc_merges, 0);
    assert_int_equal(st.redundant_requests, 1);
    icc_pair("icc.mode=icc", &reads, &st);
    assert_int_equal(reads, 1);
    assert_int_equal(st.icc_merges, 1);
    assert_int_equal(st.redundant_requests, 1);
    assert_int_equal(st.dram_reads, 1);

    /* icc-cc: a coalesced line stays in the coalesced cache, so a third SM
     * of the cluster reading it later is served inside the cluster */
    const char *sets[] = {"icc.mode=icc-cc", NULL};
    harness *h = memh_new("icc60", sets, MAX_TOKENS);
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 4, 4);
    memh_issue(h, 0, 0, &a, 1);
    memh_issue(h, 1, 0, &a, 2);
    memh_drain(h);
    uint64_t c = memh_issue(h, 2, 0, &a, 3);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.icc_merges, 1);
    assert_int_equal(st.icc_cache_hits, 1);
    assert_int_equal(st.noc_read_requests, 1);
    /* tag check + icc.latency + bus + fill: a few cycles, not a NoC trip */
    assert_true(h->done_at[3] - c < 10);

    /* an SM of another cluster (SM 5) is not merged */
    a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700001000ull, 4, 4);
    memh_issue(h, 0, 0, &a, 4);
    memh_issue(h, 5, 0, &a, 5);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.icc_merges, 1);
    assert_int_equal(st.noc_read_requests, 3);
    memh_free(h);
}

/* The ICC seed's test (SEED-TARGETS.md §8, last row; §6.1-6.3): three SMs
 * of one cluster read line X while it is outstanding -> one NoC request,
 * the reply broadcast to all three, X into the coalesced cache; a fourth SM
 * reading X later hits the coalesced cache; a write bypasses the merge
 * table and invalidates X there; a full table sends requests untracked;
 * a kernel boundary empties the coalesced caches. */
static void test_icc_seed_row(void **state)
{
    (void)state;
    const char *sets[] = {"icc.mode=icc-cc", NULL};
    harness *h = memh_new("icc60", sets, MAX_TOKENS);
    const uint64_t X = 0x700000000ull;
    ex_access rx = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, X, 4, 4);
    for (uint32_t sm = 0; sm < 3; sm++) /* SMs 0-2: cluster 0 (5 SMs each) */
        memh_issue(h, sm, 0, &rx, 1 + sm);
    memh_drain(h);
    memsys_stats st;
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.noc_read_requests, 1);
    assert_int_equal(st.icc_merges, 2);
    assert_int_equal(st.dram_reads, 1);
    /* broadcast: the one reply completes all three, in the same cycle */
    for (uint32_t t = 1; t <= 3; t++)
        assert_true(h->done_at[t] != NOT_DONE);
    assert_int_equal(h->done_at[2], h->done_at[1]);
    assert_int_equal(h->done_at[3], h->done_at[1]);
    /* a later read by SM 3 hits the coalesced cache: no NoC request */
    uint64_t c = memh_issue(h, 3, 0, &rx, 4);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.icc_cache_hits, 1);
    assert_int_equal(st.noc_read_requests, 1);
    assert_true(h->done_at[4] - c < 10);
    /* a write by SM 0 bypasses the merge table and invalidates X in the
     * coalesced cache: SM 4's read goes to L2 again */
    ex_access wx = memh_access(EX_SPACE_GLOBAL, true, 1, X, 4, 4);
    memh_issue(h, 0, 0, &wx, 5);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.noc_write_requests, 1);
    assert_int_equal(st.icc_merges, 2);
    memh_issue(h, 4, 0, &rx, 6);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.icc_cache_hits, 1);
    assert_int_equal(st.noc_read_requests, 2);
    /* a single requester does not fill the coalesced cache: line Z read by
     * SM 1 alone, then by SM 2, crosses the NoC twice */
    const uint64_t Z = X + 0x10000;
    ex_access rz = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, Z, 4, 4);
    memh_issue(h, 1, 0, &rz, 7);
    memh_drain(h);
    memh_issue(h, 2, 0, &rz, 8);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.noc_read_requests, 4);
    assert_int_equal(st.icc_cache_hits, 1);
    /* a coalesced line (W, SMs 0 and 1) serves SM 2, but is gone after a
     * kernel boundary: SM 3 then reads it over the NoC */
    ex_access rw = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, X + 0x40000, 4, 4);
    memh_issue(h, 0, 0, &rw, 9);
    memh_issue(h, 1, 0, &rw, 10);
    memh_drain(h);
    memh_issue(h, 2, 0, &rw, 11);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.noc_read_requests, 5);
    assert_int_equal(st.icc_cache_hits, 2);
    memsys_invalidate_l1(h->m);
    memh_issue(h, 3, 0, &rw, 12);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.icc_cache_hits, 2);
    assert_int_equal(st.noc_read_requests, 6);
    memh_free(h);

    /* a full table (1 entry): SM 0's read of A takes it; SM 1's read of B
     * goes out untracked; SM 2's read of B is not merged (B is not in the
     * table) but SM 3's read of A is */
    const char *one[] = {"icc.mode=icc", "icc.merge_table=1", NULL};
    h = memh_new("icc60", one, MAX_TOKENS);
    ex_access ra = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, X, 4, 4);
    ex_access rb = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, X + 0x20000, 4, 4);
    memh_issue(h, 0, 0, &ra, 1);
    memh_issue(h, 1, 0, &rb, 2);
    memh_issue(h, 2, 0, &rb, 3);
    memh_issue(h, 3, 0, &ra, 4);
    memh_drain(h);
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.noc_read_requests, 3);
    assert_int_equal(st.icc_merges, 1);
    for (uint32_t t = 1; t <= 4; t++)
        assert_true(h->done_at[t] != NOT_DONE);
    assert_int_equal(h->done_at[4], h->done_at[1]);
    memh_free(h);
}

/* ------------------------------------------------------------ stores */

static void test_stores_and_atomics(void **state)
{
    (void)state;
    harness *h = memh_new("m2090", NULL, MAX_TOKENS);
    uint64_t line = 0x700000000ull;
    h_load_latency(h, 0, line, 1);                 /* line now in L1 */
    ex_access w = memh_access(EX_SPACE_GLOBAL, true, FULL_MASK, line, 4, 4);
    uint64_t c = memh_issue(h, 0, 0, &w, 2);
    memh_drain(h);
    /* write-evict (Fermi): accepted after one L1 cycle, line evicted */
    assert_int_equal(h->done_at[2] - c, 1);
    uint64_t lat = h_load_latency(h, 0, line, 3);
    assert_true(lat > 100);                        /* L1 miss, L2 hit */
    memsys_stats st;
    memsys_get_stats(h->m, &st);
    assert_int_equal(st.noc_write_requests, 1);
    assert_int_equal(st.l2_hits, 1);               /* write-allocated in L2 */
    /* an atomic goes to L2 and back */
    ex_access at = w;
    at.atomic = 1;
    c = memh_issue(h, 0, 0, &at, 4);
    memh_drain(h);
    assert_true(h->done_at[4] - c > 100);
    /* a local store then load: write-back L1, so the load hits */
    ex_access ls = memh_access(EX_SPACE_LOCAL, true, FULL_MASK, 16, 0, 4);
    memh_issue(h, 0, 3, &ls, 5);
    memh_drain(h);
    ex_access ll = ls;
    ll.write = 0;
    c = memh_issue(h, 0, 3, &ll, 6);
    memh_drain(h);
    assert_int_equal(h->done_at[6] - c, h->cfg.l1d.hit_latency);
    assert_true(memsys_idle(h->m));
    memh_free(h);
}

/* ------------------------------------------------------------ clocks */

/* memsys_next_cycle lets a driver skip idle cycles with the same result. */
static void test_skip_cycles(void **state)
{
    (void)state;
    harness *h = memh_new("gtx480", NULL, MAX_TOKENS);
    harness *g = memh_new("gtx480", NULL, MAX_TOKENS);
    ex_access a = memh_access(EX_SPACE_GLOBAL, false, FULL_MASK, 0x700000000ull, 4, 4);
    assert_true(memsys_issue(h->m, 0, 0, &a, 1, 5));
    assert_true(memsys_issue(g->m, 0, 0, &a, 1, 5));
    for (uint64_t c = 5; !memsys_idle(h->m); c++)
        memsys_cycle(h->m, c);
    uint64_t steps = 0;
    while (!memsys_idle(g->m)) {
        uint64_t n = memsys_next_cycle(g->m);
        assert_true(n != UINT64_MAX);
        memsys_cycle(g->m, n);
        steps++;
    }
    assert_int_equal(h->done_at[1], g->done_at[1]);
    assert_true(steps < h->done_at[1] / 2);
    assert_int_equal(memsys_next_cycle(g->m), UINT64_MAX);
    memh_free(h);
    memh_free(g);
}

/* ------------------------------------------------------------ stress */

/* Random mixed traffic (loads, stores, atomics, local, constant,
 * divergent) over config variants: every instruction completes exactly
 * once, memsys ends idle, and DRAM never beats its peak. */
static void stress(const char *preset, const char *const *sets, uint32_t seed)
{
    harness *h = memh_new(preset, sets, MAX_TOKENS);
    uint32_t nsms = h->cfg.gpu.num_sms;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1, token = 0;
    const uint8_t spaces[] = {EX_SPACE_GLOBAL, EX_SPACE_GLOBAL, EX_SPACE_GLOBAL,
                              EX_SPACE_LOCAL, EX_SPACE_CONST, EX_SPACE_KPARAM,
                              EX_SPACE_SHARED};
    for (uint32_t n = 0; n < 3000; n++) {
        uint64_t c = memh_step(h);
        for (uint32_t s = 0; s < nsms; s++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            if ((x >> 60) > 5)
                continue;
            uint8_t sp = spaces[(x >> 20) % sizeof spaces];
            uint16_t size = (uint16_t)(1u << ((x >> 24) % 5));  /* 1..16 */
            uint64_t stride = ((x >> 28) % 4 == 0) ? 128 + size : size;
            uint64_t base = (sp == EX_SPACE_LOCAL || sp == EX_SPACE_KPARAM)
                                ? ((x >> 32) % 64) * 16
                                : 0x700000000ull + ((x >> 32) % 4096) * 64;
            ex_access a = memh_access(sp, (x >> 40) % 4 == 0, (uint32_t)(x >> 8) | 1, base,
                                   stride, size);
            if (sp == EX_SPACE_GLOBAL && (x >> 44) % 8 == 0)
                a.atomic = a.write = 1;
            for (unsigned l = 0; l < WARP_SIZE; l++)
                a.addr[l] &= ~(uint64_t)(size - 1);  /* aligned, as the executor requires */
            if (memsys_issue(h->m, s, (uint32_t)(x >> 50) % 48, &a, token, c))
                token++;
            assert_true(token < MAX_TOKENS);
        }
    }
    memh_drain(h);
    assert_int_equal(h->ndone, token);
    memsys_stats st;
    memsys_extra_stats xs;
    memsys_get_stats(h->m, &st);
    memsys_get_extra_stats(h->m, &xs);
    assert_true(st.transactions > 0);
    double peak = gpu_config_dram_gbps(&h->cfg) * 1e9 / (h->cfg.clock.core * 1e6);
    assert_true((double)xs.dram_bytes <= peak * (double)h->cycle);
    assert_int_equal(memsys_next_cycle(h->m), UINT64_MAX);
    memh_free(h);
}

static void test_stress(void **state)
{
    (void)state;
    stress("m2090", NULL, 1);
    stress("gtx480", (const char *const[]){"l1d.enabled=false", "dram.scheduler=fcfs", NULL}, 2);
    stress("icc60", (const char *const[]){"icc.mode=icc-cc", "icc.merge_table=4",
                                          "icc.coalesced_cache=2", NULL}, 3);
    stress("icc60", (const char *const[]){"icc.mode=icc", "l1d.write_policy=write-back",
                                          "l1d.write_allocate=true", "l1d.size=4K",
                                          "l1d.mshrs=4", "l1d.mshr_merge=2", NULL}, 4);
    stress("m2090", (const char *const[]){"l1d.write_policy=write-through",
                                          "l1d.write_allocate=true", "l2.write_policy=write-through",
                                          "l2.slices_per_partition=2", "l2.mshrs=2",
                                          "l2.mshr_merge=1", "dram.queue_size=2",
                                          "noc.queue_depth=1", "noc.channel_width=4", NULL}, 5);
    stress("k20x", (const char *const[]){"l2.write_policy=write-evict",
                                         "l2.write_allocate=false", "clock.icnt=333",
                                         "clock.l2=2999", "clock.dram=97", NULL}, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latencies_m2090),
        cmocka_unit_test(test_latencies_gtx480),
        cmocka_unit_test(test_stream_bandwidth),
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_frfcfs),
        cmocka_unit_test(test_dram_timing),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_icc_merge),
        cmocka_unit_test(test_icc_seed_row),
        cmocka_unit_test(test_stores_and_atomics),
        cmocka_unit_test(test_skip_cycles),
        cmocka_unit_test(test_stress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
