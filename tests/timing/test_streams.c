/* tests/timing/test_streams.c — streams, events and asynchronous launch
 * (api/ptxemu.h "streams"), functionally and on the timing model:
 *   - a chain in one stream (copy in, two dependent kernels, copy out) gives
 *     the CPU reference's answer in both modes, and under timing the second
 *     kernel arrives only after the first one's last cycle;
 *   - kernels in two streams overlap (the second places CTAs before the
 *     first finishes); a default-stream operation between them serialises
 *     them; an event wait orders a consumer after its producer (which it
 *     must: it reads the producer's output);
 *   - event cycles and elapsed milliseconds (cycles / clock.core);
 *     unrecorded events; errors of queued work reach the waiting call;
 *   - kernel.hw_queues = 1: one kernel resident at a time (the KDU);
 *   - a non-blocking stream does not wait for the default stream; a wait
 *     on an event with three predecessors keeps all three; the per-launch
 *     callback reports every launch in submission order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/api_internal.h"
#include "api/ptxemu.h"
#include "timing/stats.h"
#include "tests/support/test_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* b[i] = a[i] + 1 for i < n (a CTA barrier between load and store). */
#define KERNEL_FILE "tests/corpus/sched/copyadd.ptx"
#define BLOCK 64u
#define N (8 * BLOCK)
#define CLOCK_MHZ 1000u

typedef struct world {
    ptxemu_ctx *ctx;
    ptxemu_module *mod;
    bool timing;
    char *trace;
    size_t trace_len;
    FILE *trace_f;
} world;

static void world_open(world *w, bool timing, const char *extra)
{
    memset(w, 0, sizeof *w);
    ptxemu_options o = {0};
    const char *sets[] = {"gpu.num_sms=4", "clock.core=1000", extra, NULL};
    w->timing = timing;
    if (timing) {
        o.timing = 1;
        o.timing_set = sets;
        w->trace_f = open_memstream(&w->trace, &w->trace_len);
        o.sched_trace = w->trace_f;
    }
    if (ptxemu_ctx_create(&w->ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(w->ctx));
    char *path = test_source_path(KERNEL_FILE);
    if (ptxemu_module_load_file(w->ctx, path, &w->mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(w->ctx));
    g_free(path);
}

static void world_close(world *w)
{
    ptxemu_ctx_destroy(w->ctx);
    if (w->trace_f)
        fclose(w->trace_f);
    g_free(w->trace);
}

#define OK(w, call)                                                         \
    do {                                                                    \
        ptxemu_status st_ = (call);                                         \
        if (st_ != PTXEMU_OK)                                               \
            fail_msg("%s: %s", #call, ptxemu_last_error((w)->ctx));         \
    } while (0)

static ptxemu_dptr buffer(world *w)
{
    ptxemu_dptr p;
    OK(w, ptxemu_malloc(w->ctx, &p, N * 4));
    OK(w, ptxemu_memset(w->ctx, p, 0, N * 4));
    return p;
}

/* Launch arguments that stay valid until the launch is queued (values are
 * copied at the call). */
static void launch(world *w, ptxemu_dptr in, ptxemu_dptr out, ptxemu_stream *s)
{
    uint32_t n = N;
    void *args[] = {&in, &out, &n};
    OK(w, ptxemu_launch_async(w->mod, "copyadd", (ptxemu_dim3){N / BLOCK, 1, 1},
                              (ptxemu_dim3){BLOCK, 1, 1}, 0, args, s));
}

static void input(uint32_t *h, uint32_t base)
{
    for (uint32_t i = 0; i < N; i++)
        h[i] = base + 3u * i;
}

/* Device buffer == input(base) + add. */
static void expect(world *w, ptxemu_dptr p, uint32_t base, uint32_t add)
{
    uint32_t *h = g_new(uint32_t, N);
    OK(w, ptxemu_memcpy_dtoh(w->ctx, h, p, N * 4));
    for (uint32_t i = 0; i < N; i++)
        if (h[i] != base + 3u * i + add)
            fail_msg("[%u] = %u, expected %u", i, h[i], base + 3u * i + add);
    g_free(h);
}

static const tm_kernel_stats *kstats(world *w, uint32_t launch_id)
{
    const tm_stats *st = ptxemu_timing_stats(w->ctx);
    assert_non_null(st);
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        if (k->launch == launch_id)
            return k;
    }
    fail_msg("no statistics for launch %u", launch_id);
    return NULL;
}

/* Cycle of the first trace line containing `needle`. */
static uint64_t trace_cycle(world *w, const char *needle)
{
    fflush(w->trace_f);
    const char *p = strstr(w->trace, needle);
    if (!p)
        fail_msg("trace lacks '%s'", needle);
    while (p > w->trace && p[-1] != '\n')
        p--;
    assert_true(g_str_has_prefix(p, "cycle "));
    return g_ascii_strtoull(p + 6, NULL, 10);
}

/* ---------------------------------------------------------------- tests */

/* htod, k1 (a -> b), k2 (b -> c), dtoh in one stream, with events. */
static void chain(bool timing)
{
    world w;
    world_open(&w, timing, NULL);
    ptxemu_dptr a = buffer(&w), b = buffer(&w), c = buffer(&w);
    ptxemu_stream *s;
    ptxemu_event *e0, *e1, *e2;
    OK(&w, ptxemu_stream_create(w.ctx, &s));
    assert_int_equal(ptxemu_stream_id(s), 1);
    assert_int_equal(ptxemu_stream_id(NULL), 0);
    OK(&w, ptxemu_event_create(w.ctx, &e0));
    OK(&w, ptxemu_event_create(w.ctx, &e1));
    OK(&w, ptxemu_event_create(w.ctx, &e2));
    uint32_t *h = g_new(uint32_t, N), *out = g_new0(uint32_t, N);
    input(h, 10);
    OK(&w, ptxemu_event_record(e0, s));
    OK(&w, ptxemu_memcpy_htod_async(w.ctx, a, h, N * 4, s));
    memset(h, 0xff, N * 4); /* the copy took the bytes at the call */
    launch(&w, a, b, s);
    OK(&w, ptxemu_event_record(e1, s));
    launch(&w, b, c, s);
    OK(&w, ptxemu_memcpy_dtoh_async(w.ctx, out, c, N * 4, s));
    OK(&w, ptxemu_event_record(e2, s));
    ptxemu_counters cnt;
    ptxemu_get_counters(w.ctx, &cnt);
    assert_int_equal(cnt.launches, 0); /* queued, not run */
    assert_int_equal(out[0], 0);
    OK(&w, ptxemu_stream_synchronize(w.ctx, s));
    ptxemu_get_counters(w.ctx, &cnt);
    assert_int_equal(cnt.launches, 2);
    for (uint32_t i = 0; i < N; i++)
        if (out[i] != 10 + 3u * i + 2)
            fail_msg("out[%u] = %u, expected %u", i, out[i], 10 + 3u * i + 2);
    expect(&w, b, 10, 1);
    float ms = -1;
    OK(&w, ptxemu_event_elapsed_ms(&ms, e0, e2));
    assert_true(ms >= 0);
    uint64_t c0, c1, c2;
    if (timing) {
        const tm_kernel_stats *k1 = kstats(&w, 1), *k2 = kstats(&w, 2);
        /* stream order: k2 arrives the cycle after k1's last one */
        assert_int_equal(k2->start, k1->end + 1);
        OK(&w, ptxemu_event_cycle(e0, &c0));
        OK(&w, ptxemu_event_cycle(e1, &c1));
        OK(&w, ptxemu_event_cycle(e2, &c2));
        /* e0 before anything, e1 after k1, e2 after k2 and the copy */
        assert_true(c0 < k1->start || c0 == k1->start);
        assert_int_equal(c1, k1->end + 1);
        assert_int_equal(c2, k2->end + 1);
        /* elapsed = cycles / clock.core (MHz) in milliseconds */
        double want = (double)(c2 - c0) / (CLOCK_MHZ * 1000.0);
        assert_true(ms > 0 && (double)ms > want * 0.999 && (double)ms < want * 1.001);
    } else {
        assert_int_equal(ptxemu_event_cycle(e0, &c0), PTXEMU_ERR_INVALID_VALUE);
    }
    ptxemu_event_destroy(e0);
    ptxemu_event_destroy(e1);
    ptxemu_event_destroy(e2);
    OK(&w, ptxemu_stream_destroy(w.ctx, s));
    g_free(h);
    g_free(out);
    world_close(&w);
}

static void test_chain_functional(void **state)
{
    (void)state;
    chain(false);
}

static void test_chain_timing(void **state)
{
    (void)state;
    chain(true);
}

/* k1 in s1 and k2 in s2 on disjoint buffers; `between`: 0 nothing, 1 a
 * default-stream memset, 2 s2 waits for an event recorded after k1 (and k2
 * then reads k1's output). */
static void two_streams(world *w, int between)
{
    ptxemu_dptr a = buffer(w), b = buffer(w), x = buffer(w), y = buffer(w), z = buffer(w);
    uint32_t *h = g_new(uint32_t, N);
    input(h, 7);
    OK(w, ptxemu_memcpy_htod(w->ctx, a, h, N * 4));
    input(h, 1000);
    OK(w, ptxemu_memcpy_htod(w->ctx, x, h, N * 4));
    ptxemu_stream *s1, *s2;
    ptxemu_event *e;
    OK(w, ptxemu_stream_create(w->ctx, &s1));
    OK(w, ptxemu_stream_create(w->ctx, &s2));
    OK(w, ptxemu_event_create(w->ctx, &e));
    launch(w, a, b, s1);
    if (between == 1)
        OK(w, ptxemu_memset_async(w->ctx, z, 0x11, N * 4, NULL));
    if (between == 2) {
        OK(w, ptxemu_event_record(e, s1));
        OK(w, ptxemu_stream_wait_event(w->ctx, s2, e));
        launch(w, b, y, s2); /* consumes k1's output */
    } else {
        launch(w, x, y, s2);
    }
    OK(w, ptxemu_synchronize(w->ctx));
    expect(w, b, 7, 1);
    if (between == 2)
        expect(w, y, 7, 2);
    else
        expect(w, y, 1000, 1);
    if (between == 1) {
        uint32_t v;
        OK(w, ptxemu_memcpy_dtoh(w->ctx, &v, z + 40, 4));
        assert_int_equal(v, 0x11111111u);
    }
    ptxemu_event_destroy(e);
    OK(w, ptxemu_stream_destroy(w->ctx, s1));
    OK(w, ptxemu_stream_destroy(w->ctx, s2));
    g_free(h);
}

static void test_streams_overlap(void **state)
{
    (void)state;
    world w;
    world_open(&w, true, NULL);
    two_streams(&w, 0);
    const tm_kernel_stats *k1 = kstats(&w, 1), *k2 = kstats(&w, 2);
    /* both arrive together; k2 places a CTA while k1 still runs */
    assert_int_equal(k1->start, k2->start);
    uint64_t k2_first = trace_cycle(&w, "kernel 2 CTA 0 -> SM");
    assert_true(k2_first < k1->end);
    world_close(&w);
}

static void test_default_stream_serialises(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        world w;
        world_open(&w, mode == 1, NULL);
        two_streams(&w, 1);
        if (mode == 1) {
            const tm_kernel_stats *k1 = kstats(&w, 1), *k2 = kstats(&w, 2);
            /* k2 follows the memset, which follows k1 */
            assert_int_equal(k2->start, k1->end + 1);
        }
        world_close(&w);
    }
}

static void test_event_wait(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        world w;
        world_open(&w, mode == 1, NULL);
        two_streams(&w, 2);
        if (mode == 1) {
            const tm_kernel_stats *k1 = kstats(&w, 1), *k2 = kstats(&w, 2);
            assert_int_equal(k2->start, k1->end + 1);
        }
        world_close(&w);
    }
}

/* One KDU entry: the second stream's kernel waits in the KMU. */
static void test_kdu_one_entry(void **state)
{
    (void)state;
    world w;
    world_open(&w, true, "kernel.hw_queues=1");
    two_streams(&w, 0);
    const tm_kernel_stats *k1 = kstats(&w, 1), *k2 = kstats(&w, 2);
    assert_int_equal(k2->start, k1->end + 1);
    world_close(&w);
}

/* Every allocation (address, size, bytes), in address order. */
static void collect(void *user, ptxemu_dptr addr, const void *bytes, size_t size)
{
    GByteArray *out = user;
    uint64_t hdr[2] = {addr, size};
    g_byte_array_append(out, (const guint8 *)hdr, sizeof hdr);
    g_byte_array_append(out, bytes, (guint)size);
}

/* The same work gives the same memory functionally and under timing. */
static void test_modes_agree(void **state)
{
    (void)state;
    GByteArray *mem[2];
    for (int mode = 0; mode < 2; mode++) {
        world w;
        world_open(&w, mode == 1, NULL);
        two_streams(&w, 0);
        two_streams(&w, 2);
        mem[mode] = g_byte_array_new();
        ptxemu_visit_buffers(w.ctx, collect, mem[mode]);
        world_close(&w);
    }
    assert_int_equal(mem[0]->len, mem[1]->len);
    assert_true(mem[0]->len > 10 * N * 4);
    assert_memory_equal(mem[0]->data, mem[1]->data, mem[0]->len);
    g_byte_array_free(mem[0], TRUE);
    g_byte_array_free(mem[1], TRUE);
}

static void test_event_errors(void **state)
{
    (void)state;
    world w;
    world_open(&w, false, NULL);
    ptxemu_event *e, *f;
    float ms;
    OK(&w, ptxemu_event_create(w.ctx, &e));
    OK(&w, ptxemu_event_create(w.ctx, &f));
    /* never recorded: complete (as CUDA), but it has no time */
    assert_int_equal(ptxemu_event_query(e), PTXEMU_OK);
    assert_int_equal(ptxemu_event_elapsed_ms(&ms, e, f), PTXEMU_ERR_NOT_READY);
    assert_non_null(strstr(ptxemu_last_error(w.ctx), "never recorded"));
    /* a bad launch fails at the call; a bad copy at the wait */
    uint32_t n = 1;
    void *args[] = {&n, &n, &n};
    assert_int_equal(ptxemu_launch_async(w.mod, "nosuch", (ptxemu_dim3){1, 1, 1},
                                         (ptxemu_dim3){1, 1, 1}, 0, args, NULL),
                     PTXEMU_ERR_NOT_FOUND);
    uint32_t v;
    OK(&w, ptxemu_event_record(e, NULL));
    OK(&w, ptxemu_memcpy_dtoh_async(w.ctx, &v, 0x10, 4, NULL));
    OK(&w, ptxemu_event_record(f, NULL));
    assert_int_equal(ptxemu_synchronize(w.ctx), PTXEMU_ERR_INVALID_ADDRESS);
    assert_non_null(strstr(ptxemu_last_error(w.ctx), "memcpy_dtoh"));
    /* the queue after the failure was dropped: f never completed */
    assert_int_equal(ptxemu_event_query(e), PTXEMU_OK);
    assert_int_equal(ptxemu_event_elapsed_ms(&ms, e, f), PTXEMU_ERR_NOT_READY);
    ptxemu_event_destroy(e);
    ptxemu_event_destroy(f);
    world_close(&w);
}

/* nb (non-blocking): k1; default stream: memset; s2: k2.  k2 waits for the
 * memset, which does not wait for k1, so k1 and k2 arrive together. */
static void test_nonblocking_stream(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        world w;
        world_open(&w, mode == 1, NULL);
        ptxemu_dptr a = buffer(&w), b = buffer(&w), x = buffer(&w), y = buffer(&w),
                    z = buffer(&w);
        uint32_t *h = g_new(uint32_t, N);
        input(h, 5);
        OK(&w, ptxemu_memcpy_htod(w.ctx, a, h, N * 4));
        input(h, 50);
        OK(&w, ptxemu_memcpy_htod(w.ctx, x, h, N * 4));
        ptxemu_stream *nb, *s2;
        OK(&w, ptxemu_stream_create_nonblocking(w.ctx, &nb));
        OK(&w, ptxemu_stream_create(w.ctx, &s2));
        launch(&w, a, b, nb);
        OK(&w, ptxemu_memset_async(w.ctx, z, 0x22, N * 4, NULL));
        launch(&w, x, y, s2);
        OK(&w, ptxemu_synchronize(w.ctx));
        expect(&w, b, 5, 1);
        expect(&w, y, 50, 1);
        if (mode == 1)
            assert_int_equal(kstats(&w, 1)->start, kstats(&w, 2)->start);
        OK(&w, ptxemu_stream_destroy(w.ctx, nb));
        OK(&w, ptxemu_stream_destroy(w.ctx, s2));
        g_free(h);
        world_close(&w);
    }
}

/* The default stream waits for an event of a non-blocking stream: its
 * kernel reads the non-blocking stream's kernel's output. */
static void test_default_waits_nonblocking_event(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        world w;
        world_open(&w, mode == 1, NULL);
        ptxemu_dptr a = buffer(&w), b = buffer(&w), c = buffer(&w);
        uint32_t *h = g_new(uint32_t, N);
        input(h, 21);
        OK(&w, ptxemu_memcpy_htod(w.ctx, a, h, N * 4));
        ptxemu_stream *nb;
        ptxemu_event *e;
        OK(&w, ptxemu_stream_create_nonblocking(w.ctx, &nb));
        OK(&w, ptxemu_event_create(w.ctx, &e));
        launch(&w, a, b, nb);
        OK(&w, ptxemu_event_record(e, nb));
        OK(&w, ptxemu_stream_wait_event(w.ctx, NULL, e));
        launch(&w, b, c, NULL);
        OK(&w, ptxemu_synchronize(w.ctx));
        expect(&w, c, 21, 2);
        if (mode == 1)
            assert_true(kstats(&w, 2)->start > kstats(&w, 1)->end);
        ptxemu_event_destroy(e);
        OK(&w, ptxemu_stream_destroy(w.ctx, nb));
        g_free(h);
        world_close(&w);
    }
}

/* s2's wait follows its own last op, the pending default-stream op and the
 * event (three dependencies); its next kernel reads the event's kernel's
 * output, so it must start after that kernel ends. */
static void test_wait_three_deps(void **state)
{
    (void)state;
    world w;
    world_open(&w, true, NULL);
    ptxemu_dptr a = buffer(&w), b = buffer(&w), c = buffer(&w), x = buffer(&w),
                y = buffer(&w), z = buffer(&w);
    uint32_t *h = g_new(uint32_t, N);
    input(h, 9);
    OK(&w, ptxemu_memcpy_htod(w.ctx, a, h, N * 4));
    OK(&w, ptxemu_memcpy_htod(w.ctx, x, h, N * 4));
    ptxemu_stream *s1, *s2;
    ptxemu_event *e;
    OK(&w, ptxemu_stream_create(w.ctx, &s1));
    OK(&w, ptxemu_stream_create(w.ctx, &s2));
    OK(&w, ptxemu_event_create(w.ctx, &e));
    OK(&w, ptxemu_memset_async(w.ctx, z, 0, N * 4, NULL)); /* the barrier */
    launch(&w, a, b, s1);                                   /* kernel 1 */
    launch(&w, x, y, s2);                                   /* kernel 2 */
    OK(&w, ptxemu_event_record(e, s1));
    OK(&w, ptxemu_stream_wait_event(w.ctx, s2, e));
    launch(&w, b, c, s2);                                   /* kernel 3 */
    OK(&w, ptxemu_synchronize(w.ctx));
    expect(&w, c, 9, 2);
    assert_true(kstats(&w, 3)->start > kstats(&w, 1)->end);
    assert_true(kstats(&w, 3)->start > kstats(&w, 2)->end);
    ptxemu_event_destroy(e);
    OK(&w, ptxemu_stream_destroy(w.ctx, s1));
    OK(&w, ptxemu_stream_destroy(w.ctx, s2));
    g_free(h);
    world_close(&w);
}

typedef struct done_log {
    unsigned calls;
    uint64_t warp[4];
} done_log;

static void on_done(void *user, uint64_t warp, uint64_t thread)
{
    done_log *d = user;
    assert_true(thread >= warp);
    if (d->calls < 4)
        d->warp[d->calls] = warp;
    d->calls++;
}

/* Launches of different sizes queued on two streams, then run together:
 * the callback sees them in submission order with their own counts. */
static void test_launch_done_callback(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        done_log d = {0};
        ptxemu_options o = {0};
        const char *sets[] = {"gpu.num_sms=4", NULL};
        o.timing = mode;
        o.timing_set = sets;
        o.on_launch_done = on_done;
        o.on_launch_done_user = &d;
        world w = {0};
        if (ptxemu_ctx_create(&w.ctx, &o) != PTXEMU_OK)
            fail_msg("context: %s", ptxemu_last_error(w.ctx));
        char *path = test_source_path(KERNEL_FILE);
        OK(&w, ptxemu_module_load_file(w.ctx, path, &w.mod));
        g_free(path);
        ptxemu_dptr in = buffer(&w), out = buffer(&w);
        ptxemu_stream *s[2];
        OK(&w, ptxemu_stream_create(w.ctx, &s[0]));
        OK(&w, ptxemu_stream_create(w.ctx, &s[1]));
        for (uint32_t k = 0; k < 3; k++) { /* 1, 2, 4 CTAs */
            uint32_t n = BLOCK << k;
            void *args[] = {&in, &out, &n};
            OK(&w, ptxemu_launch_async(w.mod, "copyadd", (ptxemu_dim3){1u << k, 1, 1},
                                       (ptxemu_dim3){BLOCK, 1, 1}, 0, args, s[k & 1]));
        }
        assert_int_equal(d.calls, 0);
        OK(&w, ptxemu_synchronize(w.ctx));
        assert_int_equal(d.calls, 3);
        /* the same code per CTA: counts double with the CTAs */
        assert_true(d.warp[0] > 0);
        assert_int_equal(d.warp[1], 2 * d.warp[0]);
        assert_int_equal(d.warp[2], 4 * d.warp[0]);
        OK(&w, ptxemu_stream_destroy(w.ctx, s[0]));
        OK(&w, ptxemu_stream_destroy(w.ctx, s[1]));
        ptxemu_ctx_destroy(w.ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_functional),
        cmocka_unit_test(test_chain_timing),
        cmocka_unit_test(test_streams_overlap),
        cmocka_unit_test(test_default_stream_serialises),
        cmocka_unit_test(test_event_wait),
        cmocka_unit_test(test_kdu_one_entry),
        cmocka_unit_test(test_modes_agree),
        cmocka_unit_test(test_event_errors),
        cmocka_unit_test(test_nonblocking_stream),
        cmocka_unit_test(test_wait_three_deps),
        cmocka_unit_test(test_default_waits_nonblocking_event),
        cmocka_unit_test(test_launch_done_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
