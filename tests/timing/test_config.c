/* tests/timing/test_config.c — GPU configuration: the defaults are the
 * generic Fermi GPU and GPGPU-Sim latencies they document, every kind of bad
 * input gives one message naming key and value, --set overrides, the key
 * reference (and the copy in configs/README.md) lists every key, and
 * configs survive a round trip (every key written, read back over another
 * preset).  The presets' paper values: test_config_presets.c.
 *
 * `test_timing_config --write-docs configs/README.md` regenerates the key
 * reference inside the README. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/support/test_util.h"
#include "timing/config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define KB(x) ((uint64_t)(x) * 1024)
#define BEGIN_MARK "<!-- BEGIN KEY REFERENCE"
#define END_MARK "<!-- END KEY REFERENCE -->"

static const char *const preset_names[] = {"c2050", "gtx480", "icc10x6", "icc15x4", "icc60",
                                           "icc6x10", "k20c", "k20x", "m2090", "onac32"};

/* ------------------------------------------------------------ helpers */

static gpu_config load_preset(const char *name)
{
    gpu_config c;
    GError *err = NULL;
    if (!gpu_config_load_preset(name, &c, &err))
        fail_msg("preset %s: %s", name, err->message);
    return c;
}

/* Loads INI text that must fail with `code`; returns the message. */
static char *load_fails(const char *text, gpu_config_error code)
{
    gpu_config c;
    GError *err = NULL;
    if (gpu_config_load_data(text, strlen(text), "test.ini", &c, &err))
        fail_msg("loaded but should fail: %s", text);
    assert_true(err->domain == GPU_CONFIG_ERROR);
    if (err->code != (gint)code)
        fail_msg("code %d, wanted %d: %s", err->code, code, err->message);
    char *m = g_strdup(err->message);
    g_error_free(err);
    return m;
}

/* The message is one line and contains every needle. */
static void assert_message(const char *msg, const char *const *needles)
{
    assert_null(strchr(msg, '\n'));
    for (unsigned i = 0; needles[i]; i++)
        if (!strstr(msg, needles[i]))
            fail_msg("message lacks '%s': %s", needles[i], msg);
}
#define MSG_HAS(msg, ...)                                                    \
    assert_message((msg), (const char *const[]){__VA_ARGS__, NULL})

/* ------------------------------------------------------------ table */

static void test_table_sane(void **state)
{
    (void)state;
    size_t n;
    const gpu_config_key *k = gpu_config_keys(&n);
    assert_true(n > 100);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++)
            if (!strcmp(k[i].group, k[j].group) && !strcmp(k[i].name, k[j].name))
                fail_msg("duplicate key %s.%s", k[i].group, k[j].name);
        assert_non_null(k[i].doc);
        assert_true(k[i].doc[0] != '\0');
        assert_null(strchr(k[i].doc, '|')); /* would break the Markdown */
        switch (k[i].kind) {
        case GPU_KIND_U32: case GPU_KIND_SIZE: case GPU_KIND_DBL:
            if (!(k[i].min <= k[i].def && k[i].def <= k[i].max))
                fail_msg("%s.%s default outside its range", k[i].group, k[i].name);
            break;
        case GPU_KIND_ENUM: case GPU_KIND_LIST:
            assert_non_null(k[i].names);
            break;
        default:
            break;
        }
        assert_ptr_equal(gpu_config_find_key(k[i].group, k[i].name), &k[i]);
    }
}

/* The defaults are a generic Fermi GPU (GF100/GF110, the generation of
 * the thesis's M2090): every number typed here comes from that chip or
 * from GPGPU-Sim 3.x's configs/GTX480/gpgpusim.config, which isa/latency.h
 * cites:
 *   -ptx_opcode_latency_int 4,13,4,5,145   (add, max, mul, mad, div)
 *   -ptx_opcode_latency_fp  4,13,4,5,39
 *   -ptx_opcode_latency_dp  8,19,8,8,330
 * SFU functions take the fp64 mul latency (8), everything else 1; the
 * dividers (latency of 32 cycles or more) hold their unit for 8 cycles. */
static void test_defaults(void **state)
{
    (void)state;
    /* Padding is zeroed whatever the memory held before (so memcmp and
     * gpu_config_equal agree). */
    gpu_config a, b;
    memset(&a, 0x00, sizeof a);
    memset(&b, 0xa5, sizeof b);
    gpu_config_defaults(&a);
    gpu_config_defaults(&b);
    assert_memory_equal(&a, &b, sizeof a);
    GError *err = NULL;
    assert_true(gpu_config_validate(&a, NULL, &err));
    assert_string_equal(a.gpu.name, "generic-fermi");
    assert_int_equal(a.gpu.num_sms, 15);
    assert_int_equal(a.gpu.warp_size, 32);
    assert_int_equal(a.clock.core, 1300);
    assert_int_equal(a.clock.dram, 1850);
    assert_int_equal(a.core.max_threads, 1536);
    assert_int_equal(a.core.max_ctas, 8);
    assert_int_equal(a.core.registers, 32768);
    assert_int_equal(a.core.shared_mem, KB(48));
    assert_int_equal(a.core.warp_schedulers, 2);
    assert_int_equal(a.core.issue_width, 1);
    assert_int_equal(a.core.dispatch_interval, 1);
    assert_int_equal(a.units.sp, 32);
    assert_int_equal(a.units.sfu, 4);
    assert_int_equal(a.units.dp, 16);
    assert_int_equal(a.units.ldst, 16);
    assert_int_equal(a.l1d.size, KB(16));
    assert_int_equal(a.l1d.line, 128);
    assert_int_equal(a.l1d.assoc, 4);
    assert_int_equal(a.l2.partition_size, KB(128));
    assert_int_equal(a.l2.assoc, 16);
    assert_int_equal(a.dram.partitions, 6);
    assert_int_equal(a.dram.bus_width, 64);
    /* 6 partitions x 8 B x 2 transfers x 1850 MHz = 177.6 GB/s, the
     * M2090's 177 GB/s; 6 x 128 KB = 768 KB of L2, GF110's. */
    assert_true(fabs(gpu_config_dram_gbps(&a) - 177.6) < 1e-9);
    assert_int_equal(gpu_config_l2_total(&a), KB(768));
    assert_int_equal(gpu_config_max_warps(&a), 48);
    assert_int_equal(a.icc.merge_table, 48);
    assert_int_equal(a.icc.coalesced_cache, 24);
    assert_int_equal(a.cta.filters.count, 0);

    static const struct { ptx_lat_class c; uint32_t lat, ii; } lat[] = {
        {PTX_LAT_INT_ADD, 4, 1},  {PTX_LAT_INT_MAX, 13, 1}, {PTX_LAT_INT_MUL, 4, 1},
        {PTX_LAT_INT_MAD, 5, 1},  {PTX_LAT_INT_DIV, 145, 8}, {PTX_LAT_FP_ADD, 4, 1},
        {PTX_LAT_FP_MAX, 13, 1},  {PTX_LAT_FP_MUL, 4, 1},  {PTX_LAT_FP_MAD, 5, 1},
        {PTX_LAT_FP_DIV, 39, 8},  {PTX_LAT_DP_ADD, 8, 1},  {PTX_LAT_DP_MAX, 19, 1},
        {PTX_LAT_DP_MUL, 8, 1},   {PTX_LAT_DP_MAD, 8, 1},  {PTX_LAT_DP_DIV, 330, 8},
        {PTX_LAT_SFU, 8, 1},      {PTX_LAT_OTHER, 1, 1},   {PTX_LAT_MEM, 1, 1},
        {PTX_LAT_CTRL, 1, 1},     {PTX_LAT_SYNC, 1, 1},    {PTX_LAT_TEX, 1, 1},
        {PTX_LAT_MMA, 32, 1}, /* no tensor cores in GPGPU-Sim's GTX480: isa/latency.h */
    };
    assert_int_equal(G_N_ELEMENTS(lat), PTX_LAT_COUNT);
    for (size_t i = 0; i < G_N_ELEMENTS(lat); i++) {
        if (a.latency.cycles[lat[i].c] != lat[i].lat)
            fail_msg("latency.%s = %u, GPGPU-Sim's GTX480 config says %u",
                     ptx_latency_class_name(lat[i].c), a.latency.cycles[lat[i].c], lat[i].lat);
        if (a.initiation.cycles[lat[i].c] != lat[i].ii)
            fail_msg("initiation.%s = %u, wanted %u", ptx_latency_class_name(lat[i].c),
                     a.initiation.cycles[lat[i].c], lat[i].ii);
    }
}

static void test_unknown_preset(void **state)
{
    (void)state;
    gpu_config c;
    GError *err = NULL;
    assert_false(gpu_config_load_preset("c2051", &c, &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_NO_PRESET);
    MSG_HAS(err->message, "c2051", "c2050", "icc60");
    g_clear_error(&err);
    assert_false(gpu_config_load_preset("/nonexistent/x.ini", &c, &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_FILE);
    MSG_HAS(err->message, "/nonexistent/x.ini");
    g_error_free(err);
}

/* ------------------------------------------------------------ errors */

static void test_unknown_key(void **state)
{
    (void)state;
    char *m = load_fails("[l1d]\nsise = 16K\n", GPU_CONFIG_ERROR_UNKNOWN_KEY);
    MSG_HAS(m, "test.ini", "l1d", "sise", "16K", "did you mean l1d.size?");
    g_free(m);
    /* Case slips and keys of another group are suggested too. */
    m = load_fails("[dram]\ntcl = 12\n", GPU_CONFIG_ERROR_UNKNOWN_KEY);
    MSG_HAS(m, "tcl", "dram.tCL");
    g_free(m);
    m = load_fails("[core]\nmshrs = 12\n", GPU_CONFIG_ERROR_UNKNOWN_KEY);
    MSG_HAS(m, "core.mshrs", "did you mean l1d.mshrs?");
    g_free(m);
}

static void test_unknown_group(void **state)
{
    (void)state;
    char *m = load_fails("[gpu]\nnum_sms = 4\n[l1]\nsize = 16K\n",
                         GPU_CONFIG_ERROR_UNKNOWN_GROUP);
    MSG_HAS(m, "test.ini", "[l1]", "size", "16K", "did you mean [l1d]?");
    g_free(m);
    m = load_fails("[bogus_stuff]\n", GPU_CONFIG_ERROR_UNKNOWN_GROUP);
    MSG_HAS(m, "[bogus_stuff]");
    g_free(m);
    m = load_fails("[zzzzzzzzzzzz]\nx = 1\n", GPU_CONFIG_ERROR_UNKNOWN_GROUP);
    MSG_HAS(m, "zzzzzzzzzzzz.x", "valid groups are gpu, clock", "stats");
    g_free(m);
}

static void test_bad_values(void **state)
{
    (void)state;
    char *m = load_fails("[l1d]\nassoc = four\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "test.ini", "l1d.assoc", "'four'", "not a whole number", "1 to 64");
    g_free(m);
    m = load_fails("[l1d]\nassoc = 4.5\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "l1d.assoc", "4.5");
    g_free(m);
    m = load_fails("[l1d]\nsize = 16Q\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "l1d.size", "16Q", "not a size", "1KB to 1MB");
    g_free(m);
    m = load_fails("[energy]\nl2_access = lots\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "energy.l2_access", "lots", "not a number");
    g_free(m);
    m = load_fails("[l1d]\nenabled = maybe\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "l1d.enabled", "maybe", "true, false");
    g_free(m);
    m = load_fails("[gpu]\nname = 0123456789012345678901234567890123456789"
                   "012345678901234567890123456789\n",
                   GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "gpu.name", "too long");
    g_free(m);
    m = load_fails("not an ini file\n", GPU_CONFIG_ERROR_FILE);
    MSG_HAS(m, "test.ini");
    g_free(m);
}

static void test_out_of_range(void **state)
{
    (void)state;
    char *m = load_fails("[gpu]\nnum_sms = 5000\n", GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(m, "gpu.num_sms", "5000", "out of range", "1 to 1024");
    g_free(m);
    m = load_fails("[gpu]\nnum_sms = -3\n", GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(m, "gpu.num_sms", "-3");
    g_free(m);
    m = load_fails("[gpu]\nnum_sms = 99999999999999999999999\n",
                   GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(m, "gpu.num_sms");
    g_free(m);
    m = load_fails("[l1d]\nline = 100\n", GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(m, "l1d.line", "100", "a power of two from 32 to 1024");
    g_free(m);
    m = load_fails("[core]\nshared_mem = 2M\n", GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(m, "core.shared_mem", "2M", "0 to 1MB");
    g_free(m);
    m = load_fails("[throttle]\nperiod = 0\n", GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(m, "throttle.period", "0", "1 to 100000000");
    g_free(m);
}

static void test_bad_enum(void **state)
{
    (void)state;
    char *m = load_fails("[warp]\npolicy = fifo\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "warp.policy", "fifo", "valid values are lrr, gto");
    g_free(m);
    m = load_fails("[cta]\nfilters = throttle, bogus\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "cta.filters", "'bogus' is not a valid choice", "throttle");
    g_free(m);
    m = load_fails("[cta]\nfilters = throttle,throttle\n", GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(m, "cta.filters", "listed twice");
    g_free(m);
}

static void test_inconsistent(void **state)
{
    (void)state;
    char *m = load_fails("[gpu]\nnum_sms = 14\nsms_per_cluster = 5\n",
                         GPU_CONFIG_ERROR_INCONSISTENT);
    MSG_HAS(m, "test.ini", "gpu.num_sms = 14", "gpu.sms_per_cluster = 5");
    g_free(m);
    m = load_fails("[l1d]\nsize = 48K\nassoc = 5\n", GPU_CONFIG_ERROR_INCONSISTENT);
    MSG_HAS(m, "l1d.size = 48KB", "l1d.assoc", "l1d.line");
    g_free(m);
    m = load_fails("[l2]\npartition_size = 100000\n", GPU_CONFIG_ERROR_INCONSISTENT);
    MSG_HAS(m, "l2.partition_size = 100000", "l2.assoc x l2.line = 16 x 128");
    g_free(m);
    m = load_fails("[l2]\nslices_per_partition = 3\n", GPU_CONFIG_ERROR_INCONSISTENT);
    MSG_HAS(m, "l2.partition_size = 128KB",
            "l2.slices_per_partition x l2.assoc x l2.line = 3 x 16 x 128");
    g_free(m);
    m = load_fails("[dram]\ntRAS = 50\n", GPU_CONFIG_ERROR_INCONSISTENT);
    MSG_HAS(m, "dram.tRAS = 50", "dram.tRC = 40");
    g_free(m);
}

static void test_file_errors_name_the_file(void **state)
{
    (void)state;
    char *dir = g_dir_make_tmp("ptxemu-cfg-XXXXXX", NULL);
    char *path = g_build_filename(dir, "bad.ini", NULL);
    assert_true(g_file_set_contents(path, "[l2]\nassoc = 0\n", -1, NULL));
    gpu_config c, before;
    gpu_config_defaults(&c);
    c.gpu.num_sms = 3;
    memcpy(&before, &c, sizeof c);
    GError *err = NULL;
    assert_false(gpu_config_load_file(path, &c, &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(err->message, path, "l2.assoc", "'0'", "1 to 64");
    assert_memory_equal(&c, &before, sizeof c); /* untouched on failure */
    g_clear_error(&err);
    /* merge_file starts from *cfg, load_file from the defaults. */
    assert_true(g_file_set_contents(path, "[l2]\nassoc = 8\n", -1, NULL));
    assert_true(gpu_config_merge_file(path, &c, &err));
    assert_int_equal(c.gpu.num_sms, 3);
    assert_int_equal(c.l2.assoc, 8);
    assert_true(gpu_config_load_file(path, &c, &err));
    assert_int_equal(c.gpu.num_sms, 15);
    g_remove(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

/* ------------------------------------------------------------ --set */

static void test_set(void **state)
{
    (void)state;
    gpu_config c = load_preset("icc60");
    GError *err = NULL;
    assert_true(gpu_config_set(&c, "l1d.size=32K", &err));
    assert_int_equal(c.l1d.size, KB(32));
    assert_true(gpu_config_set(&c, " warp.policy = gto ", &err));
    assert_string_equal(sched_names_warp[c.warp.policy], "gto");
    assert_true(gpu_config_set(&c, "warp.policy=pa-tl", &err));
    assert_string_equal(sched_names_warp[c.warp.policy], "pa-tl");
    /* the LaPerm policies, planned until issue 16, are choices now */
    assert_true(gpu_config_set(&c, "cta.policy=laperm-tbpri", &err));
    assert_string_equal(sched_names_cta[c.cta.policy], "laperm-tbpri");
    assert_false(gpu_config_set(&c, "cta.policy=no-such-policy", &err));
    assert_non_null(strstr(err->message, "laperm-adaptive"));
    g_clear_error(&err);
    assert_true(gpu_config_set(&c, "kernel.policy=interleaved", &err));
    assert_true(gpu_config_set(&c, "cta.filters=throttle", &err));
    assert_int_equal(c.cta.filters.count, 1);
    assert_string_equal(sched_names_filter[c.cta.filters.items[0]], "throttle");
    assert_true(gpu_config_set(&c, "cta.filters=throttle,claso", &err));
    assert_int_equal(c.cta.filters.count, 2);
    assert_string_equal(sched_names_filter[c.cta.filters.items[1]], "claso");
    /* '+' separates too (one value of a sweep's comma list), in order */
    assert_true(gpu_config_set(&c, "cta.filters=dyncta+claso", &err));
    assert_int_equal(c.cta.filters.count, 2);
    assert_string_equal(sched_names_filter[c.cta.filters.items[0]], "dyncta");
    assert_string_equal(sched_names_filter[c.cta.filters.items[1]], "claso");
    assert_false(gpu_config_set(&c, "cta.filters=claso+claso", &err));
    assert_non_null(strstr(err->message, "listed twice"));
    g_clear_error(&err);
    /* a policy's own keys live in its section */
    assert_true(gpu_config_set(&c, "throttle.burst=3", &err));
    assert_int_equal(c.policy.throttle_burst, 3);
    assert_false(gpu_config_set(&c, "throttle.burst=0", &err));
    assert_non_null(strstr(err->message, "throttle.burst"));
    g_clear_error(&err);
    assert_true(gpu_config_set(&c, "cta.filters=none", &err));
    assert_int_equal(c.cta.filters.count, 0);
    assert_true(gpu_config_set(&c, "latency.fp_add=7", &err));
    assert_int_equal(c.latency.cycles[PTX_LAT_FP_ADD], 7);
    assert_true(gpu_config_set(&c, "energy.static_core=1.25", &err));
    assert_true(c.energy.static_core == 1.25);
    assert_true(gpu_config_set(&c, "gpu.name=my gpu", &err));
    assert_string_equal(c.gpu.name, "my gpu");

    gpu_config before;
    memcpy(&before, &c, sizeof c);
    assert_false(gpu_config_set(&c, "l1d.size=abc", &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_BAD_VALUE);
    MSG_HAS(err->message, "--set", "l1d.size", "'abc'");
    g_clear_error(&err);
    assert_false(gpu_config_set(&c, "l1d.assoc=65", &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_OUT_OF_RANGE);
    MSG_HAS(err->message, "--set", "l1d.assoc", "'65'", "1 to 64");
    g_clear_error(&err);
    assert_false(gpu_config_set(&c, "l1d.asoc=4", &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_UNKNOWN_KEY);
    MSG_HAS(err->message, "l1d.asoc", "did you mean l1d.assoc?");
    g_clear_error(&err);
    assert_false(gpu_config_set(&c, "l1.size=4K", &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_UNKNOWN_GROUP);
    MSG_HAS(err->message, "[l1]", "did you mean [l1d]?");
    g_clear_error(&err);
    assert_false(gpu_config_set(&c, "kernel.policy=both", &err));
    MSG_HAS(err->message, "kernel.policy", "'both'", "leftover");
    g_clear_error(&err);
    assert_false(gpu_config_set(&c, "size=16K", &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_SYNTAX);
    g_clear_error(&err);
    assert_false(gpu_config_set(&c, "l1d.size", &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_SYNTAX);
    MSG_HAS(err->message, "l1d.size", "group.key=value");
    g_clear_error(&err);
    assert_memory_equal(&c, &before, sizeof c);
}

static void test_apply_overrides(void **state)
{
    (void)state;
    gpu_config c = load_preset("icc60"), before;
    GError *err = NULL;
    /* 48 SMs in clusters of 4: 48 is no multiple of icc60's 5 SMs per
     * cluster, so the first override alone would be invalid. */
    const char *const ok[] = {"gpu.num_sms=48", "gpu.sms_per_cluster=4", NULL};
    assert_true(gpu_config_apply_overrides(&c, ok, &err));
    assert_int_equal(gpu_config_num_clusters(&c), 12);
    /* Cross-key rules are checked once all overrides are in; a failure
     * leaves the config untouched. */
    memcpy(&before, &c, sizeof c);
    const char *const bad[] = {"l1d.line=64", "gpu.sms_per_cluster=5", NULL};
    assert_false(gpu_config_apply_overrides(&c, bad, &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_INCONSISTENT);
    MSG_HAS(err->message, "--set", "gpu.num_sms = 48", "gpu.sms_per_cluster = 5");
    g_clear_error(&err);
    const char *const bad_value[] = {"l1d.line=64", "l1d.line=65", NULL};
    assert_false(gpu_config_apply_overrides(&c, bad_value, &err));
    assert_int_equal(err->code, GPU_CONFIG_ERROR_OUT_OF_RANGE);
    g_clear_error(&err);
    assert_memory_equal(&c, &before, sizeof c);
}

/* ------------------------------------------------------------ docs */

static void test_docs_list_every_key(void **state)
{
    (void)state;
    char *docs = gpu_config_docs_markdown();
    size_t n;
    const gpu_config_key *k = gpu_config_keys(&n);
    for (size_t i = 0; i < n; i++) {
        char *row = g_strdup_printf("| `%s.%s` |", k[i].group, k[i].name);
        if (!strstr(docs, row))
            fail_msg("docs lack %s", row);
        g_free(row);
        char *head = g_strdup_printf("### [%s]\n\n", k[i].group);
        const char *h = strstr(docs, head);
        assert_non_null(h);
        assert_true(h[strlen(head)] != '\n'); /* every group is described */
        g_free(head);
    }
    /* One table row per key, nothing else starts with "| `". */
    unsigned rows = 0;
    for (const char *p = docs; (p = strstr(p, "\n| `")); p++)
        rows++;
    assert_int_equal(rows, n);
    /* The printer writes the same text. */
    FILE *f = tmpfile();
    gpu_config_print_docs(f);
    long len = ftell(f);
    assert_int_equal(len, (long)strlen(docs));
    fclose(f);
    g_free(docs);
}

/* The README's key reference is exactly what the table generates. */
static void test_readme_matches_table(void **state)
{
    (void)state;
    char *readme = test_read_file("configs/README.md", NULL);
    const char *b = strstr(readme, BEGIN_MARK);
    const char *e = strstr(readme, END_MARK);
    assert_non_null(b);
    assert_non_null(e);
    b = strchr(b, '\n') + 1;
    char *section = g_strndup(b, (size_t)(e - b));
    char *docs = gpu_config_docs_markdown();
    if (strcmp(section, docs) != 0)
        fail_msg("configs/README.md is out of date: run "
                 "test_timing_config --write-docs configs/README.md");
    g_free(docs);
    g_free(section);
    g_free(readme);
}

/* ------------------------------------------------------------ round trip */

/* A dump names every key of the table exactly once, in its own group, so
 * reading it back never leans on the defaults; it reads back equal. */
static void round_trip(const gpu_config *c, bool comments)
{
    gsize len;
    char *data = gpu_config_to_data(c, comments, &len);
    GKeyFile *kf = g_key_file_new();
    GError *err = NULL;
    if (!g_key_file_load_from_data(kf, data, len, G_KEY_FILE_NONE, &err))
        fail_msg("dump is no INI file: %s", err->message);
    size_t n;
    const gpu_config_key *k = gpu_config_keys(&n);
    for (size_t i = 0; i < n; i++)
        if (!g_key_file_has_key(kf, k[i].group, k[i].name, NULL))
            fail_msg("dump lacks %s.%s", k[i].group, k[i].name);
    gsize ngroups, total = 0;
    char **groups = g_key_file_get_groups(kf, &ngroups);
    for (gsize g = 0; g < ngroups; g++) {
        gsize nk;
        g_strfreev(g_key_file_get_keys(kf, groups[g], &nk, NULL));
        total += nk;
    }
    assert_int_equal(total, n); /* nothing but the table's keys */
    g_strfreev(groups);
    g_key_file_free(kf);
    gpu_config back;
    if (!gpu_config_load_data(data, len, "dump", &back, &err))
        fail_msg("dump does not load: %s", err->message);
    assert_true(gpu_config_equal(c, &back));
    assert_memory_equal(c, &back, sizeof back);
    g_free(data);
}

/* gpu_config_equal (which the round trips rely on) notices a change in
 * any single key. */
static void test_equal_sees_every_key(void **state)
{
    (void)state;
    gpu_config a;
    gpu_config_defaults(&a);
    size_t n;
    const gpu_config_key *k = gpu_config_keys(&n);
    for (size_t i = 0; i < n; i++) {
        gpu_config b = a;
        char *f = (char *)&b + k[i].offset;
        switch (k[i].kind) {
        case GPU_KIND_U32: (*(uint32_t *)f)++; break;
        case GPU_KIND_SIZE: (*(uint64_t *)f)++; break;
        case GPU_KIND_DBL: *(double *)f += 0.5; break;
        case GPU_KIND_BOOL: *(bool *)f = !*(bool *)f; break;
        case GPU_KIND_ENUM: *(int32_t *)f ^= 1; break;
        case GPU_KIND_LIST: {
            gpu_name_list *l = (gpu_name_list *)f;
            l->count = l->count ? (uint8_t)(l->count - 1) : 1;
            break;
        }
        case GPU_KIND_STR: f[0] ^= 1; break;
        }
        if (gpu_config_equal(&a, &b))
            fail_msg("gpu_config_equal misses a change of %s.%s", k[i].group, k[i].name);
    }
}

/* The dump of c2050 spells CLASO Table 1's values (typed here from the
 * table), and a dump merged over a *different* preset gives back exactly
 * the preset that was dumped. */
static void test_dump_over_other_preset(void **state)
{
    (void)state;
    gpu_config c = load_preset("c2050");
    gsize len;
    char *data = gpu_config_to_data(&c, false, &len);
    GKeyFile *kf = g_key_file_new();
    assert_true(g_key_file_load_from_data(kf, data, len, G_KEY_FILE_NONE, NULL));
    static const char *const table1[][3] = {
        {"gpu", "num_sms", "14"},        {"clock", "core", "1150"},
        {"clock", "icnt", "1150"},       {"clock", "dram", "750"},
        {"core", "max_threads", "1024"}, {"core", "registers", "32768"},
        {"core", "shared_mem", "48KB"},  {"const_cache", "size", "8KB"},
        {"const_cache", "line", "64"},   {"tex_cache", "size", "12KB"},
        {"tex_cache", "assoc", "24"},    {"l1d", "size", "16KB"},
        {"l1d", "replacement", "lru"},   {"l2", "partition_size", "128KB"},
        {"l2", "assoc", "16"},           {"dram", "partitions", "6"},
        {"dram", "queue_size", "16"},    {"dram", "scheduler", "fr-fcfs"},
        {"dram", "tRC", "40"},           {"dram", "tRAS", "28"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(table1); i++) {
        char *v = g_key_file_get_value(kf, table1[i][0], table1[i][1], NULL);
        if (!v || strcmp(v, table1[i][2]) != 0)
            fail_msg("dump says %s.%s = %s, Table 1 says %s", table1[i][0], table1[i][1],
                     v ? v : "(nothing)", table1[i][2]);
        g_free(v);
    }
    g_key_file_free(kf);
    g_free(data);

    char *dir = g_dir_make_tmp("ptxemu-rt-XXXXXX", NULL);
    char *path = g_build_filename(dir, "dump.ini", NULL);
    GError *err = NULL;
    for (unsigned i = 0; i < G_N_ELEMENTS(preset_names); i++) {
        gpu_config want = load_preset(preset_names[i]);
        gpu_config other = load_preset(preset_names[(i + 1) % G_N_ELEMENTS(preset_names)]);
        assert_false(gpu_config_equal(&want, &other));
        data = gpu_config_to_data(&want, true, &len);
        assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
        if (!gpu_config_merge_file(path, &other, &err))
            fail_msg("%s dump: %s", preset_names[i], err->message);
        if (!gpu_config_equal(&want, &other))
            fail_msg("%s dumped and merged over another preset is not %s", preset_names[i],
                     preset_names[i]);
        g_free(data);
    }
    g_remove(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

static void test_round_trip(void **state)
{
    (void)state;
    gpu_config c;
    gpu_config_defaults(&c);
    round_trip(&c, false);
    round_trip(&c, true);
    for (unsigned i = 0; i < G_N_ELEMENTS(preset_names); i++) {
        c = load_preset(preset_names[i]);
        round_trip(&c, true);
    }
    /* Awkward values of every kind. */
    gpu_config_defaults(&c);
    GError *err = NULL;
    const char *const sets[] = {
        "gpu.name=a name; with # and \\ and = signs", "energy.alu_inst=0.1",
        "energy.dram_access=0.30000000000000004", "core.shared_mem=1000",
        "l2.partition_size=3M", "cta.filters=throttle", "throttle.burst=7",
        "l1d.enabled=false", "dram.scheduler=fcfs", "initiation.sfu=3", NULL};
    assert_true(gpu_config_apply_overrides(&c, sets, &err));
    round_trip(&c, true);
    round_trip(&c, false);
    char *v = gpu_config_get_string(&c, "l2.partition_size");
    assert_string_equal(v, "3MB");
    g_free(v);
    v = gpu_config_get_string(&c, "cta.filters");
    assert_string_equal(v, "throttle");
    g_free(v);
    assert_null(gpu_config_get_string(&c, "l2.nope"));
    /* Another config differs somewhere. */
    gpu_config d;
    gpu_config_defaults(&d);
    assert_false(gpu_config_equal(&c, &d));
}

/* ------------------------------------------------------------ main */

/* Replaces the key reference between the markers of `path`. */
static int write_docs(const char *path)
{
    char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    char *b = strstr(text, BEGIN_MARK);
    char *e = b ? strstr(b, END_MARK) : NULL;
    if (!e) {
        fprintf(stderr, "%s has no %s ... %s section\n", path, BEGIN_MARK, END_MARK);
        return 1;
    }
    b = strchr(b, '\n') + 1;
    char *docs = gpu_config_docs_markdown();
    char *out = g_strdup_printf("%.*s%s%s", (int)(b - text), text, docs, e);
    int rc = g_file_set_contents(path, out, -1, NULL) ? 0 : 1;
    g_free(out);
    g_free(docs);
    g_free(text);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-docs") == 0)
        return write_docs(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sane),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_unknown_preset),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_unknown_group),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_bad_enum),
        cmocka_unit_test(test_inconsistent),
        cmocka_unit_test(test_file_errors_name_the_file),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_apply_overrides),
        cmocka_unit_test(test_docs_list_every_key),
        cmocka_unit_test(test_readme_matches_table),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_equal_sees_every_key),
        cmocka_unit_test(test_dump_over_other_preset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
