/* tests/timing/test_spin_stats.c — the spin seed's lock statistics (issue
 * 12) against counts worked out by hand on tests/corpus/sched/lockinc.ptx:
 * lock acquisitions and failed attempts (atom.cas lanes that swapped / did
 * not), and the warp instructions issued inside the loops of the front
 * end's setp-spin candidates, with their share of all issued instructions.
 *
 * lockinc, one CTA of 64 threads, n = 40: warp 0 has 32 lanes at work,
 * warp 1 has 8 (lanes 8..31 leave at the bounds check).  Each warp has its
 * own lock, so the counts do not depend on timing or on the policies:
 *   - a warp of k lanes traverses LOOP k times; in traversal i (1-based)
 *     k - i + 1 lanes try the CAS and one wins: k acquisitions and
 *     (k-1) + ... + 1 + 0 = k(k-1)/2 failures.  Warps of 32 and 8 lanes:
 *     32 + 8 = 40 acquisitions, 496 + 28 = 524 failed attempts.
 *   - warp instructions: 14 before LOOP (9 to the bounds branch, 5 after
 *     it), 11 per traversal (CAS, setp, bra; ld, add, st, membar, exch,
 *     mov for the winner; setp, bra), 1 ret: warp 0 14 + 32 x 11 + 1 = 367,
 *     warp 1 14 + 8 x 11 + 1 = 103, 470 in all; in the spin loop (LOOP,
 *     the winner's block, SKIP) 32 x 11 + 8 x 11 = 440; share 440 / 470. */
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
#include <string.h>

typedef struct lock_counts {
    uint64_t acquisitions, failed, spin_instrs, warp_instrs;
    char *json;
} lock_counts;

/* lockinc on gtx480 with `sets`; checks the counters and sums the stats. */
static void run_lockinc(const char *const *sets, lock_counts *out)
{
    memset(out, 0, sizeof *out);
    ptxemu_options o = {0};
    o.timing = 1;
    o.timing_config = "gtx480";
    o.timing_set = sets;
    ptxemu_ctx *ctx;
    if (ptxemu_ctx_create(&ctx, &o) != PTXEMU_OK)
        fail_msg("context: %s", ptxemu_last_error(ctx));
    char *path = test_source_path("tests/corpus/sched/lockinc.ptx");
    ptxemu_module *mod;
    if (ptxemu_module_load_file(ctx, path, &mod) != PTXEMU_OK)
        fail_msg("load: %s", ptxemu_last_error(ctx));
    g_free(path);
    uint32_t n = 40, zero[2] = {0, 0}, got[2];
    ptxemu_dptr locks, counters;
    assert_int_equal(ptxemu_malloc(ctx, &locks, sizeof zero), PTXEMU_OK);
    assert_int_equal(ptxemu_malloc(ctx, &counters, sizeof zero), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, locks, zero, sizeof zero), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_htod(ctx, counters, zero, sizeof zero), PTXEMU_OK);
    void *args[] = {&locks, &counters, &n};
    ptxemu_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    if (ptxemu_launch(mod, "lockinc", grid, block, 0, args) != PTXEMU_OK)
        fail_msg("launch: %s", ptxemu_last_error(ctx));
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, got, counters, sizeof got), PTXEMU_OK);
    assert_int_equal(got[0], 32); /* every lane's increment, under the lock */
    assert_int_equal(got[1], 8);
    assert_int_equal(ptxemu_memcpy_dtoh(ctx, got, locks, sizeof got), PTXEMU_OK);
    assert_int_equal(got[0], 0); /* released */
    assert_int_equal(got[1], 0);
    const tm_stats *st = ptxemu_timing_stats(ctx);
    for (guint i = 0; i < st->kernels->len; i++) {
        const tm_kernel_stats *k = g_ptr_array_index(st->kernels, i);
        out->acquisitions += k->total.lock_acquisitions;
        out->failed += k->total.lock_failed_attempts;
        out->spin_instrs += k->total.spin_loop_instrs;
        out->warp_instrs += k->total.warp_instrs;
    }
    const char *js = ptxemu_timing_stats_json(ctx);
    assert_non_null(js);
    out->json = g_strdup(js);
    ptxemu_ctx_destroy(ctx);
}

/* The run-total "spin" object of the statistics JSON. */
static const char *total_spin(const char *json)
{
    const char *t = strstr(json, "\"total\"");
    assert_non_null(t);
    const char *s = strstr(t, "\"spin\"");
    assert_non_null(s);
    return s;
}

static void test_lock_counts_by_hand(void **state)
{
    (void)state;
    const char *const none[] = {"spin.policy=none", NULL};
    const char *const greedy[] = {"spin.policy=greedy", "greedy.backoff=250", NULL};
    const char *const ddos[] = {"spin.policy=ddos", "ddos.backoff=250", NULL};
    const char *const lrr[] = {"warp.policy=lrr", NULL};
    const char *const *all[] = {none, greedy, ddos, lrr};
    for (size_t i = 0; i < G_N_ELEMENTS(all); i++) {
        lock_counts c;
        run_lockinc(all[i], &c);
        assert_int_equal(c.acquisitions, 40);
        assert_int_equal(c.failed, 496 + 28);
        assert_int_equal(c.warp_instrs, 367 + 103);
        assert_int_equal(c.spin_instrs, 32 * 11 + 8 * 11);
        const char *s = total_spin(c.json);
        assert_non_null(strstr(s, "\"lock_acquisitions\": 40,"));
        assert_non_null(strstr(s, "\"lock_failed_attempts\": 524,"));
        assert_non_null(strstr(s, "\"spin_loop_instructions\": 440,"));
        assert_non_null(strstr(s, "\"spin_loop_issue_fraction\": 0.936170")); /* 440/470 */
        g_free(c.json);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lock_counts_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
