/* tests/isa/test_mbarrier.c — mbarrier phases as the PTX ISA defines them
 * ("Parallel Synchronization and Communication Instructions: mbarrier"):
 *   - init: current phase 0, pending = expected = count, tx-count 0;
 *     count must be in 1 .. 2^20-1;
 *   - a phase completes when the pending count and the tx-count are both
 *     zero; then the phase advances, pending is reloaded with the expected
 *     count and the tx-count is 0;
 *   - arrive_drop also lowers the expected count of later phases;
 *   - expect_tx raises the tx-count; complete_tx lowers it and may complete
 *     the phase;
 *   - test_wait(state) is true once the phase the state was taken in has
 *     completed; test_wait.parity(p) is true once the phase of parity p has
 *     completed (the current phase has parity !p);
 *   - .noComplete must not complete the phase (undefined: refused here).
 * Every expected value is worked out by hand from these rules. */
#include "isa/mbarrier.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static void test_init(void **state)
{
    (void)state;
    uint64_t v = ~0ull;
    assert_int_equal(mbar_init(&v, 3), MBAR_OK);
    assert_int_equal(mbar_phase(v), 0);
    assert_int_equal(mbar_pending(v), 3);
    assert_int_equal(mbar_expected(v), 3);
    assert_int_equal(mbar_tx(v), 0);
    assert_int_equal(mbar_init(&v, 0), MBAR_BAD_COUNT);
    assert_int_equal(mbar_init(&v, 1u << 20), MBAR_BAD_COUNT);
    assert_int_equal(mbar_init(&v, (1u << 20) - 1), MBAR_OK);
    assert_int_equal(mbar_pending(v), (1u << 20) - 1);
}

/* Three arrivals complete phase 0; the states taken in phase 0 then test
 * true, a state of phase 1 tests false; parity 0 completed, parity 1 not. */
static void test_phases_and_parity(void **state)
{
    (void)state;
    uint64_t v, s1, s2, s3, s4;
    mbar_init(&v, 3);
    assert_int_equal(mbar_arrive(&v, 1, false, false, 0, &s1), MBAR_OK);
    assert_false(mbar_test_state(v, s1));
    assert_false(mbar_test_parity(v, 0));
    assert_int_equal(mbar_arrive(&v, 1, false, false, 0, &s2), MBAR_OK);
    assert_int_equal(mbar_pending(v), 1);
    assert_int_equal(mbar_arrive(&v, 1, false, false, 0, &s3), MBAR_OK);
    assert_int_equal(mbar_phase(v), 1);      /* phase 0 completed */
    assert_int_equal(mbar_pending(v), 3);    /* reloaded */
    assert_true(mbar_test_state(v, s1) && mbar_test_state(v, s2) && mbar_test_state(v, s3));
    assert_true(mbar_test_parity(v, 0));
    assert_false(mbar_test_parity(v, 1));
    assert_int_equal(mbar_arrive(&v, 2, false, false, 0, &s4), MBAR_OK); /* count 2 */
    assert_false(mbar_test_state(v, s4));
    assert_int_equal(mbar_pending(v), 1);
    assert_int_equal(mbar_arrive(&v, 1, false, false, 0, NULL), MBAR_OK);
    assert_int_equal(mbar_phase(v), 0);      /* phase 1 completed: parity back to 0 */
    assert_true(mbar_test_state(v, s4));
    assert_true(mbar_test_parity(v, 1));
    assert_false(mbar_test_parity(v, 0));
    /* more arrivals than pending is undefined */
    assert_int_equal(mbar_arrive(&v, 4, false, false, 0, NULL), MBAR_UNDERFLOW);
    assert_int_equal(mbar_arrive(&v, 0, false, false, 0, NULL), MBAR_BAD_COUNT);
}

/* arrive_drop: expected 4 -> 3 for the next phase; this phase still needs
 * the remaining arrivals. */
static void test_arrive_drop(void **state)
{
    (void)state;
    uint64_t v, s;
    mbar_init(&v, 4);
    assert_int_equal(mbar_arrive(&v, 1, true, false, 0, &s), MBAR_OK);
    assert_int_equal(mbar_pending(v), 3);
    assert_int_equal(mbar_expected(v), 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(mbar_arrive(&v, 1, false, false, 0, NULL), MBAR_OK);
    assert_true(mbar_test_state(v, s));
    assert_int_equal(mbar_pending(v), 3); /* the dropped thread no longer counts */
}

/* tx-count: expect 256 bytes with the producer's arrival; the phase waits
 * for complete_tx of all 256 (in two pieces), whatever order they come in. */
static void test_transactions(void **state)
{
    (void)state;
    uint64_t v, s;
    mbar_init(&v, 1);
    assert_int_equal(mbar_arrive(&v, 1, false, false, 256, &s), MBAR_OK); /* arrive.expect_tx */
    assert_int_equal(mbar_pending(v), 0);
    assert_int_equal(mbar_tx(v), 256);
    assert_false(mbar_test_state(v, s));
    assert_int_equal(mbar_complete_tx(&v, 128), MBAR_OK);
    assert_false(mbar_test_state(v, s));
    assert_int_equal(mbar_complete_tx(&v, 128), MBAR_OK);
    assert_true(mbar_test_state(v, s));
    assert_int_equal(mbar_tx(v), 0);
    assert_int_equal(mbar_pending(v), 1);
    /* the copy's complete_tx lands before the expect_tx: tx goes negative,
     * the arrival with expect_tx brings it back to zero and completes */
    assert_int_equal(mbar_complete_tx(&v, 64), MBAR_OK);
    assert_int_equal(mbar_tx(v), -64);
    assert_int_equal(mbar_arrive(&v, 1, false, false, 64, &s), MBAR_OK);
    assert_true(mbar_test_state(v, s));
    assert_true(mbar_test_parity(v, 1));
    /* separate expect_tx, then the arrival, then the bytes */
    assert_int_equal(mbar_expect_tx(&v, 32), MBAR_OK);
    assert_int_equal(mbar_arrive(&v, 1, false, false, 0, &s), MBAR_OK);
    assert_false(mbar_test_state(v, s));
    assert_int_equal(mbar_complete_tx(&v, 32), MBAR_OK);
    assert_true(mbar_test_state(v, s));
    /* range: tx-count stays within +-(2^20-1) */
    assert_int_equal(mbar_expect_tx(&v, 1u << 20), MBAR_TX_RANGE);
    assert_int_equal(mbar_complete_tx(&v, 1u << 20), MBAR_TX_RANGE);
}

/* .noComplete: pending_count reads the arrivals still missing; an arrival
 * that would complete the phase is refused. */
static void test_no_complete(void **state)
{
    (void)state;
    uint64_t v, s;
    mbar_init(&v, 5);
    assert_int_equal(mbar_arrive(&v, 2, false, true, 0, &s), MBAR_OK);
    assert_int_equal(mbar_state_pending(s), 3);
    assert_int_equal(mbar_arrive(&v, 3, false, true, 0, &s), MBAR_NO_COMPLETE);
    assert_int_equal(mbar_pending(v), 3); /* unchanged by the refused arrival */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_phases_and_parity),
        cmocka_unit_test(test_arrive_drop),
        cmocka_unit_test(test_transactions),
        cmocka_unit_test(test_no_complete),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
