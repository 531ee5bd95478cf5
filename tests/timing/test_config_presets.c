/* tests/timing/test_config_presets.c — every preset in configs/ loads,
 * validates and carries the numbers of the paper table it models (the
 * values typed here are the tables' own, as shared/SEED-TARGETS.md quotes
 * them), and the derived figures (clusters, warps per SM, L2 total, peak
 * DRAM bandwidth, peak SP GFLOPS, issue rate) equal values computed by hand
 * from the tables and the .ini comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/config.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#define KB(x) ((uint64_t)(x) * 1024)

static const char *const preset_names[] = {"c2050", "gtx480", "icc10x6", "icc15x4", "icc60",
                                           "icc6x10", "k20c", "k20x", "m2090", "onac32"};

static gpu_config load_preset(const char *name)
{
    gpu_config c;
    GError *err = NULL;
    if (!gpu_config_load_preset(name, &c, &err))
        fail_msg("preset %s: %s", name, err->message);
    return c;
}

/* Peak single-precision GFLOPS: SP lanes x SMs x 2 (a fused multiply-add)
 * x core clock. */
static double gflops_sp(const gpu_config *c)
{
    return (double)c->units.sp * c->gpu.num_sms * 2.0 * c->clock.core / 1000.0;
}

static void assert_close(double got, double want, const char *preset, const char *what)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want)))
        fail_msg("%s %s: %.6f, computed by hand %.6f", preset, what, got, want);
}

/* ------------------------------------------------------------ presets */

static void test_presets_listed(void **state)
{
    (void)state;
    GError *err = NULL;
    char **names = gpu_config_list_presets(&err);
    assert_non_null(names);
    assert_int_equal(g_strv_length(names), G_N_ELEMENTS(preset_names));
    for (unsigned i = 0; i < G_N_ELEMENTS(preset_names); i++) {
        assert_string_equal(names[i], preset_names[i]);
        gpu_config c = load_preset(names[i]);
        assert_true(gpu_config_validate(&c, names[i], &err));
    }
    g_strfreev(names);
}

static void test_preset_c2050(void **state)
{
    (void)state;
    gpu_config c = load_preset("c2050");       /* CLASO Table 1 */
    assert_int_equal(c.gpu.num_sms, 14);
    assert_int_equal(c.gpu.warp_size, 32);
    assert_int_equal(c.units.sp / c.core.warp_schedulers, 16); /* SIMD width */
    assert_int_equal(c.core.max_threads, 1024);
    assert_int_equal(c.core.registers, 32768);
    assert_int_equal(c.core.shared_mem, KB(48));
    assert_int_equal(c.const_cache.size, KB(8));
    assert_int_equal(c.const_cache.line, 64);
    assert_int_equal(c.const_cache.assoc, 2);
    assert_int_equal(c.tex_cache.size, KB(12));
    assert_int_equal(c.tex_cache.line, 128);
    assert_int_equal(c.tex_cache.assoc, 24);
    assert_int_equal(c.dram.partitions, 6);
    assert_int_equal(c.l1d.size, KB(16));
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.replacement, GPU_REPL_LRU);
    assert_int_equal(c.l2.partition_size, KB(128));
    assert_int_equal(c.l2.line, 128);
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal(c.clock.core, 1150);
    assert_int_equal(c.clock.icnt, 1150);
    assert_int_equal(c.clock.dram, 750);
    assert_int_equal(c.dram.queue_size, 16);
    assert_int_equal(c.dram.scheduler, GPU_DRAM_FR_FCFS);
    assert_int_equal(c.dram.tCL, 12);
    assert_int_equal(c.dram.tRP, 12);
    assert_int_equal(c.dram.tRC, 40);
    assert_int_equal(c.dram.tRAS, 28);
    assert_int_equal(c.dram.tRCD, 12);
    assert_int_equal(c.dram.tRRD, 6);
    assert_int_equal(c.dram.partitions * c.dram.bus_width, 384);
    assert_int_equal(c.warp.policy, 0 /* lrr */);
}

static void test_preset_m2090(void **state)
{
    (void)state;
    gpu_config c = load_preset("m2090");       /* thesis Tables 3.1, 4.1, 5.1 */
    assert_int_equal(c.gpu.num_sms, 16);
    assert_int_equal(c.units.sp * c.gpu.num_sms, 512);
    assert_int_equal(c.units.dp * c.gpu.num_sms, 256);
    assert_int_equal(c.clock.core, 1300);
    assert_int_equal(c.clock.dram, 1850);
    assert_int_equal(c.core.max_ctas, 8);
    assert_int_equal(gpu_config_max_warps(&c), 48);
    assert_int_equal(c.core.max_threads, 1536);
    assert_int_equal(c.core.registers * 4, KB(128));
    assert_int_equal(c.units.sp, 32);
    assert_int_equal(c.units.sfu, 4);
    assert_int_equal(c.units.ldst, 16);
    assert_int_equal(c.core.warp_schedulers, 2);
    assert_int_equal(c.core.issue_width, 1);
    assert_int_equal(c.core.dispatch_interval, 2);
    assert_true(fabs(gflops_sp(&c) - 1330) < 2);
    assert_true(fabs(gpu_config_dram_gbps(&c) - 177) < 1);
}

static void test_preset_k20x(void **state)
{
    (void)state;
    gpu_config c = load_preset("k20x");        /* thesis Table 4.1 */
    assert_int_equal(c.units.sp * c.gpu.num_sms, 2688);
    assert_int_equal(c.units.dp * c.gpu.num_sms, 896);
    assert_int_equal(c.gpu.num_sms, 14);
    assert_int_equal(c.core.registers * 4, KB(256));
    assert_int_equal(c.core.max_threads, 2048);
    assert_int_equal(c.core.max_ctas, 16);
    assert_int_equal(c.clock.dram, 2600);
    assert_true(fabs(gflops_sp(&c) - 3935) < 1);
    assert_true(fabs(gpu_config_dram_gbps(&c) - 250) < 1);
    assert_int_equal(gpu_config_l2_total(&c), KB(1536));
}

static void test_preset_onac32(void **state)
{
    (void)state;
    gpu_config c = load_preset("onac32");      /* thesis Table 4.3 */
    assert_int_equal(c.gpu.num_sms, 32);
    assert_int_equal(c.core.warp_schedulers, 2);
    assert_int_equal(c.warp.policy, 1 /* gto */);
    assert_int_equal(c.units.sp, 32);
    assert_int_equal(c.units.sfu, 4);
    assert_int_equal(c.units.ldst, 16);
    assert_int_equal(gpu_config_max_warps(&c), 48);
    assert_int_equal(c.core.max_ctas, 8);
    assert_int_equal(c.core.registers, 32768);
    assert_int_equal(c.core.shared_mem, KB(48));
    assert_int_equal(c.clock.core, 1300);
    assert_int_equal(c.clock.icnt, 1300);
    assert_int_equal(c.clock.dram, 1848);
    assert_int_equal(c.dram.partitions, 12);
    assert_int_equal(c.dram.bus_width, 32);
    assert_int_equal(c.dram.banks, 6);
    assert_true(fabs(gflops_sp(&c) - 2662.4) < 0.01);
    assert_true(fabs(gpu_config_dram_gbps(&c) - 177.4) < 0.1);
}

static void test_preset_gtx480(void **state)
{
    (void)state;
    gpu_config c = load_preset("gtx480");      /* spin seed sections 3-4 */
    assert_int_equal(c.gpu.num_sms, 15);
    assert_int_equal(c.core.warp_schedulers, 2);
    assert_int_equal(gpu_config_max_warps(&c) / c.core.warp_schedulers, 24);
    assert_int_equal(gpu_config_l2_total(&c), KB(768));
    /* GPGPU-Sim SM2_GTX480 (gpgpusim.config, GPGPU-Sim commit 6b244a5),
     * the values typed from the file, line by line */
    assert_int_equal(c.clock.core, 700);        /* :28 700:700:700:924 */
    assert_int_equal(c.clock.icnt, 700);
    assert_int_equal(c.clock.l2, 700);
    assert_int_equal(c.clock.dram, 924);
    assert_int_equal(c.core.registers, 32768);  /* :31 */
    assert_int_equal(c.core.max_threads, 1536); /* :35 */
    assert_int_equal(c.core.max_ctas, 8);       /* :36 */
    assert_int_equal(c.core.shared_mem, 49152); /* :63 */
    assert_int_equal(c.core.shared_latency, 26); /* :69 */
    assert_int_equal(c.core.shared_banks, 32);  /* :95 */
    assert_true(c.units.dp_on_sfu);             /* :46 no DP units */
    /* :62 N:32:128:4,L:L:m:N:H,S:64:8,8 */
    assert_int_equal(c.l1d.size / c.l1d.line / c.l1d.assoc, 32);
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.set_index, GPU_SET_INDEX_FERMI_HASH);
    assert_int_equal(c.l1d.mshrs, 64);
    assert_int_equal(c.l1d.mshr_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 8);
    assert_int_equal(c.l1d.hit_latency, 35);    /* :68 */
    /* :77 S:64:128:8,L:B:m:L:L,A:256:4 per sub-partition, :22 two each */
    assert_int_equal(c.l2.slices_per_partition, 2);
    assert_int_equal(c.l2.partition_size / c.l2.slices_per_partition / c.l2.line / c.l2.assoc,
                     64);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l2.mshrs, 256);
    assert_int_equal(c.l2.mshr_merge, 4);
    assert_int_equal(c.l2.write_policy, GPU_WRITE_BACK);
    assert_int_equal(c.l2.hit_latency, 120);    /* :107 rop latency */
    assert_int_equal(c.noc.channel_width, 40);  /* :65 flit size */
    assert_int_equal(c.dram.partitions, 6);     /* :21 */
    assert_int_equal(c.dram.queue_size, 64);    /* :117 */
    assert_int_equal(c.dram.latency, 100);      /* :108 */
    assert_int_equal(c.dram.bus_width, 2 * 4 * 8); /* :121-122 */
    assert_int_equal(c.dram.burst_length, 8);   /* :123 */
    assert_int_equal(c.dram.data_rate, 4);      /* :124 */
    /* :130 nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:...:WR=12 */
    assert_int_equal(c.dram.banks, 16);
    assert_int_equal(c.dram.tCCD, 2);
    assert_int_equal(c.dram.tRRD, 6);
    assert_int_equal(c.dram.tRCD, 12);
    assert_int_equal(c.dram.tRAS, 28);
    assert_int_equal(c.dram.tRP, 12);
    assert_int_equal(c.dram.tRC, 40);
    assert_int_equal(c.dram.tCL, 12);
    assert_int_equal(c.dram.tWR, 12);
    /* :50-55 latencies; initiation intervals of SFU-hosted classes x 2 */
    static const struct { ptx_lat_class lc; uint32_t lat, ii; } ops[] = {
        {PTX_LAT_INT_ADD, 4, 1},   {PTX_LAT_INT_MAX, 13, 2}, {PTX_LAT_INT_MUL, 4, 2},
        {PTX_LAT_INT_MAD, 5, 1},   {PTX_LAT_INT_DIV, 145, 16}, {PTX_LAT_FP_ADD, 4, 1},
        {PTX_LAT_FP_MAX, 13, 2},   {PTX_LAT_FP_MUL, 4, 1},   {PTX_LAT_FP_MAD, 5, 1},
        {PTX_LAT_FP_DIV, 39, 8},   {PTX_LAT_DP_ADD, 8, 16},  {PTX_LAT_DP_MAX, 19, 32},
        {PTX_LAT_DP_MUL, 8, 16},   {PTX_LAT_DP_MAD, 8, 16},  {PTX_LAT_DP_DIV, 330, 260},
        {PTX_LAT_SFU, 8, 16}};
    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        assert_int_equal(c.latency.cycles[ops[i].lc], ops[i].lat);
        assert_int_equal(c.initiation.cycles[ops[i].lc], ops[i].ii);
    }
    assert_int_equal(c.warp.policy, 1 /* gto, :147 */);
}

static void test_preset_k20c(void **state)
{
    (void)state;
    gpu_config c = load_preset("k20c");        /* LaPerm Table I */
    assert_int_equal(c.gpu.num_sms, 13);
    assert_int_equal(c.clock.core, 706);
    assert_int_equal(c.clock.dram, 2600);
    assert_int_equal(c.core.max_threads, 2048);
    assert_int_equal(c.core.max_ctas, 16);
    assert_int_equal(c.core.registers, 65536);
    assert_int_equal(c.core.shared_mem, KB(32));
    assert_int_equal(c.l1d.size, KB(32));
    assert_int_equal(gpu_config_l2_total(&c), KB(1536));
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(c.l2.line, 128);
    assert_int_equal(c.warp.policy, 1 /* gto */);
}

static void test_preset_icc60(void **state)
{
    (void)state;
    gpu_config c = load_preset("icc60");       /* ICC Table 2, section 7 */
    assert_int_equal(c.gpu.num_sms, 60);
    assert_int_equal(gpu_config_num_clusters(&c), 12);
    assert_int_equal(c.gpu.sms_per_cluster, 5);
    assert_int_equal(c.dram.partitions, 8);
    assert_int_equal(c.clock.core, 1400);
    assert_int_equal(c.clock.dram, 1400);
    assert_int_equal(c.core.warp_schedulers, 2);
    assert_int_equal(c.warp.policy, 1 /* gto */);
    assert_int_equal(c.l1d.size, KB(48));
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.mshrs, 32);
    assert_int_equal(c.core.shared_mem, KB(64));
    assert_int_equal(c.l2.partition_size, KB(512));
    assert_int_equal(c.l2.line, 128);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l2.mshrs, 32);
    assert_int_equal(c.noc.channel_width, 64);
    /* 8 ports x 64 B x 1.4 GHz = Table 2's 716.8 GB/s NoC bandwidth. */
    assert_true(fabs(c.dram.partitions * c.noc.channel_width * c.clock.icnt / 1000.0 -
                     716.8) < 0.01);
    assert_true(fabs(gpu_config_dram_gbps(&c) - 720) < 5);
    assert_int_equal(c.dram.tCL, 12);
    assert_int_equal(c.dram.tRP, 12);
    assert_int_equal(c.dram.tRC, 40);
    assert_int_equal(c.dram.tRAS, 28);
    assert_int_equal(c.dram.tRCD, 12);
    assert_int_equal(c.dram.tRRD, 6);
    assert_int_equal(c.dram.tCCD, 2);
    assert_int_equal(c.dram.tWR, 12);
    assert_int_equal(c.icc.merge_table, 48);
    assert_int_equal(c.icc.coalesced_cache, 24);
    assert_int_equal(c.icc.latency, 1);
    /* Section 4.1: distributed CTA scheduling is the baseline */
    assert_string_equal(sched_names_cta[c.cta.policy], "distributed");
}

/* The cluster-size presets (ICC §7, Figs. 14-15): icc60 but for the
 * grouping, the merge table the seed pairs with it, and 6 clusters' NoC at
 * 1.9 GHz. */
static void test_preset_icc_clusters(void **state)
{
    (void)state;
    static const struct { const char *name; uint32_t per, table, icnt; } want[] = {
        {"icc6x10", 10, 96, 1900}, {"icc10x6", 6, 60, 1400}, {"icc15x4", 4, 40, 1400}};
    gpu_config base = load_preset("icc60");
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
        gpu_config c = load_preset(want[i].name);
        assert_int_equal(c.gpu.num_sms, 60);
        assert_int_equal(c.gpu.sms_per_cluster, want[i].per);
        assert_int_equal(c.icc.merge_table, want[i].table);
        assert_int_equal(c.clock.icnt, want[i].icnt);
        /* everything else is icc60's */
        c.gpu.sms_per_cluster = base.gpu.sms_per_cluster;
        c.icc.merge_table = base.icc.merge_table;
        c.clock.icnt = base.clock.icnt;
        memcpy(c.gpu.name, base.gpu.name, sizeof c.gpu.name);
        assert_memory_equal(&c, &base, sizeof c);
    }
}

/* ------------------------------------------------------------ derived */

typedef struct derived {
    const char *preset;
    uint32_t clusters;    /* gpu.num_sms / gpu.sms_per_cluster */
    uint32_t max_warps;   /* core.max_threads / 32 */
    uint32_t simd_width;  /* SP lanes behind one scheduler */
    uint64_t l2_total;    /* dram.partitions x l2.partition_size */
    double dram_gbps;     /* partitions x bus bytes x transfers/clock x MHz / 1000 */
    double sp_gflops;     /* SMs x SP lanes x 2 x GHz */
    double issue;         /* warp instructions per SM per core cycle at most */
} derived;

/* Worked by hand from each paper's table and the .ini comments:
 * c2050   14 SMs / 1 = 14; 1024 / 32 = 32 warps; 32 SP / 2 schedulers = 16
 *         (Table 1's SIMD width); 6 x 128 KB = 768 KB; 6 x 8 B x 4 x 750 MHz
 *         = 144.0 GB/s (the C2050's); 14 x 32 x 2 x 1.15 = 1030.4 GFLOPS
 *         (the C2050's 1.03 TFLOPS); 2 schedulers x 1 / 1 = 2.
 * gtx480  GPGPU-Sim SM2_GTX480 (gpgpusim.config): 15 clusters x 1 core = 15;
 *         1536 / 32 = 48 (2 x 24 slots); 2 SP units of a warp per cycle
 *         = 64 lanes / 2 schedulers = 32; 6 partitions x 2 sub-partitions x
 *         64 sets x 128 B x 8 ways = 6 x 128 KB = 768 KB; 2 chips x 4 B =
 *         8 B x 4 (QDR) x 924 MHz x 6 = 177.408 GB/s; 15 x 64 x 2 x 0.7 =
 *         1344.0 (the GTX 480's 480 cores x 2 x 1.4 GHz); 2.
 * icc60   60 / 5 = 12 (Table 2); 48; 16; 8 x 512 KB = 4 MB;
 *         8 x 16 x 4 x 1400 = 716.8 GB/s (Table 2's ~720);
 *         60 x 32 x 2 x 1.4 = 5376; 2.
 * icc6x10, icc10x6, icc15x4: icc60 regrouped, 60 / 10 = 6, 60 / 6 = 10,
 *         60 / 4 = 15 clusters; the rest as icc60.
 * k20c    13; 2048 / 32 = 64; 192 / 4 = 48; 6 x 256 KB = 1536 KB (Table I);
 *         6 x 8 x 2 x 2600 = 249.6 GB/s; 13 x 192 x 2 x 0.706 = 3524.352
 *         (the K20c's 3.52 TFLOPS); 4 x 2 / 1 = 8.
 * k20x    14; 64; 48; 1536 KB; 249.6 GB/s (Table 4.1's 250); 2688 x 2 x
 *         0.732 = 3935.232 (Table 4.1's 3935); 8.
 * m2090   16; 1536 / 32 = 48 (Table 3.1); 16; 6 x 128 KB = 768 KB;
 *         6 x 8 x 2 x 1850 = 177.6 GB/s (Table 3.1's 177); 16 x 32 x 2 x
 *         1.3 = 1331.2 (Table 3.1's 1330); 2 schedulers x 1 instruction
 *         every 2 cycles = 1.
 * onac32  32; 48 (Table 4.3); 16; 12 x 64 KB = 768 KB; 12 x 4 x 2 x 1848
 *         = 177.408 GB/s (Table 4.3's 177.4); 32 x 32 x 2 x 1.3 = 2662.4
 *         (Table 4.3); 2. */
static const derived derived_table[] = {
    {"c2050", 14, 32, 16, KB(768), 144.0, 1030.4, 2},
    {"gtx480", 15, 48, 32, KB(768), 177.408, 1344.0, 2},
    {"icc10x6", 10, 48, 16, KB(4096), 716.8, 5376.0, 2},
    {"icc15x4", 15, 48, 16, KB(4096), 716.8, 5376.0, 2},
    {"icc60", 12, 48, 16, KB(4096), 716.8, 5376.0, 2},
    {"icc6x10", 6, 48, 16, KB(4096), 716.8, 5376.0, 2},
    {"k20c", 13, 64, 48, KB(1536), 249.6, 3524.352, 8},
    {"k20x", 14, 64, 48, KB(1536), 249.6, 3935.232, 8},
    {"m2090", 16, 48, 16, KB(768), 177.6, 1331.2, 1},
    {"onac32", 32, 48, 16, KB(768), 177.408, 2662.4, 2},
};

static void test_derived(void **state)
{
    (void)state;
    assert_int_equal(G_N_ELEMENTS(derived_table), G_N_ELEMENTS(preset_names));
    for (size_t i = 0; i < G_N_ELEMENTS(derived_table); i++) {
        const derived *d = &derived_table[i];
        assert_string_equal(d->preset, preset_names[i]);
        gpu_config c = load_preset(d->preset);
        if (gpu_config_num_clusters(&c) != d->clusters)
            fail_msg("%s clusters: %u, by hand %u", d->preset, gpu_config_num_clusters(&c),
                     d->clusters);
        if (gpu_config_max_warps(&c) != d->max_warps)
            fail_msg("%s warps per SM: %u, by hand %u", d->preset, gpu_config_max_warps(&c),
                     d->max_warps);
        if (c.units.sp / c.core.warp_schedulers != d->simd_width)
            fail_msg("%s SIMD width: %u, by hand %u", d->preset,
                     c.units.sp / c.core.warp_schedulers, d->simd_width);
        if (gpu_config_l2_total(&c) != d->l2_total)
            fail_msg("%s L2 total: %llu, by hand %llu", d->preset,
                     (unsigned long long)gpu_config_l2_total(&c),
                     (unsigned long long)d->l2_total);
        assert_close(gpu_config_dram_gbps(&c), d->dram_gbps, d->preset, "DRAM GB/s");
        assert_close(gflops_sp(&c), d->sp_gflops, d->preset, "SP GFLOPS");
        assert_close((double)c.core.warp_schedulers * c.core.issue_width /
                         c.core.dispatch_interval,
                     d->issue, d->preset, "issue rate");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_listed),
        cmocka_unit_test(test_preset_c2050),
        cmocka_unit_test(test_preset_m2090),
        cmocka_unit_test(test_preset_k20x),
        cmocka_unit_test(test_preset_onac32),
        cmocka_unit_test(test_preset_gtx480),
        cmocka_unit_test(test_preset_k20c),
        cmocka_unit_test(test_preset_icc60),
        cmocka_unit_test(test_preset_icc_clusters),
        cmocka_unit_test(test_derived),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
