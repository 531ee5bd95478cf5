/* tests/tools/test_correlate_stats.c — the statistics of `ptxemu correlate`
 * (tools/correlate_stats.c) against values computed by hand below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tools/correlate_stats.h"

#include <math.h>

#define EPS 1e-9

/* x = 1 2 3 4, y = 2 4 5 9: means 2.5 and 5; deviations -1.5 -0.5 0.5 1.5
 * and -3 -1 0 4; sxy = 4.5 + 0.5 + 0 + 6 = 11, sxx = 5, syy = 9 + 1 + 0 + 16
 * = 26; r = 11 / sqrt(130) = 0.96476382123773... */
static void test_pearson(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3, 4}, y[] = {2, 4, 5, 9};
    assert_float_equal(corr_pearson(x, y, 4), 11.0 / sqrt(130.0), EPS);
    assert_float_equal(corr_pearson(x, y, 4), 0.964763821237, 1e-12);
    /* symmetric in its arguments */
    assert_float_equal(corr_pearson(y, x, 4), 11.0 / sqrt(130.0), EPS);
    /* 6 4 2 falls exactly as 1 2 3 rises: -1 */
    const double a[] = {1, 2, 3}, b[] = {6, 4, 2};
    assert_float_equal(corr_pearson(a, b, 3), -1.0, EPS);
    /* y = 2x + 7: exactly 1, also for large counts (cycles near 1e9) */
    const double big[] = {1e9, 1e9 + 1, 1e9 + 3}, big2[] = {2e9 + 7, 2e9 + 9, 2e9 + 13};
    assert_float_equal(corr_pearson(big, big2, 3), 1.0, 1e-12);
}

static void test_pearson_undefined(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3}, flat[] = {5, 5, 5};
    assert_true(isnan(corr_pearson(x, flat, 3))); /* no variance */
    assert_true(isnan(corr_pearson(flat, x, 3)));
    assert_true(isnan(corr_pearson(x, x, 1)));    /* one point */
    assert_true(isnan(corr_pearson(x, x, 0)));
}

/* ptx 110 90 50 7 against ref 100 100 100 0: errors 10%, 10%, 50% and the
 * ref-0 row left out: (0.1 + 0.1 + 0.5) / 3 = 23.333...% */
static void test_mape(void **state)
{
    (void)state;
    const double ptx[] = {110, 90, 50, 7}, ref[] = {100, 100, 100, 0};
    unsigned used = 99, zero = 99;
    assert_float_equal(corr_mape(ptx, ref, 4, &used, &zero), 70.0 / 3.0, EPS);
    assert_int_equal(used, 3);
    assert_int_equal(zero, 1);
    const double z[] = {0, 0};
    assert_true(isnan(corr_mape(z, z, 2, &used, &zero)));
    assert_int_equal(used, 0);
    assert_int_equal(zero, 2);
}

/* ratios 2/1 and 8/2 = 2 and 4, the pair with a 0 left out:
 * sqrt(2 * 4) = 2.8284271247... */
static void test_geomean(void **state)
{
    (void)state;
    const double ptx[] = {2, 8, 0}, ref[] = {1, 2, 5};
    unsigned used = 99, skipped = 99;
    assert_float_equal(corr_geomean_ratio(ptx, ref, 3, &used, &skipped), sqrt(8.0), EPS);
    assert_int_equal(used, 2);
    assert_int_equal(skipped, 1);
    assert_true(isnan(corr_geomean_ratio(ptx + 2, ref + 2, 1, &used, &skipped)));
}

/* ptxemu exactly half the reference everywhere: r = 1, every error 50%,
 * ratio 0.5; twice the reference: r = 1, MAPE 100%, ratio 2. */
static void test_summary(void **state)
{
    (void)state;
    const double ref[] = {100, 300, 1000, 20}, half[] = {50, 150, 500, 10};
    corr_summary s;
    corr_summarise(half, ref, 4, &s);
    assert_int_equal(s.n, 4);
    assert_float_equal(s.r, 1.0, EPS);
    assert_float_equal(s.mape, 50.0, EPS);
    assert_float_equal(s.geomean, 0.5, EPS);
    assert_int_equal(s.mape_n, 4);
    assert_int_equal(s.ref_zero, 0);
    assert_int_equal(s.geo_n, 4);
    corr_summarise(ref, half, 4, &s);
    assert_float_equal(s.mape, 100.0, EPS);
    assert_float_equal(s.geomean, 2.0, EPS);
}

/* Rows: 0 = (bench 5, size 0, launch 1), 1 = (3, 1, 0), 2 = (5, 0, 0),
 * 3 = (3, 0, 2), 4 = (3, 0, 2) again.  By (bench, size, launch), equal keys
 * in row order: 3 4 1 2 0; five rows: the middle is 3, which is also the
 * boundary between bench 3 (three rows) and bench 5. */
static void test_order(void **state)
{
    (void)state;
    const corr_key keys[] = {{5, 0, 1}, {3, 1, 0}, {5, 0, 0}, {3, 0, 2}, {3, 0, 2}};
    unsigned order[6];
    assert_int_equal(corr_order(keys, 5, order), 3);
    const unsigned want[] = {3, 4, 1, 2, 0};
    for (int i = 0; i < 5; i++)
        assert_int_equal(order[i], want[i]);
    /* the first four rows sort 3 1 2 0: two of bench 3, two of bench 5;
     * the middle 2 is the boundary */
    assert_int_equal(corr_order(keys, 4, order), 2);
    /* rows of bench 1, 1, 1, 2: middle 2 is inside bench 1, the nearest
     * boundary is 3 */
    const corr_key four[] = {{1, 0, 0}, {1, 0, 1}, {1, 0, 2}, {2, 0, 0}};
    assert_int_equal(corr_order(four, 4, order), 3);
    /* one benchmark only: no boundary, the middle row ceil(3/2) = 2 */
    const corr_key one[] = {{7, 0, 0}, {7, 0, 1}, {7, 0, 2}};
    assert_int_equal(corr_order(one, 3, order), 2);
    /* boundaries at 1 and 5 of 6 rows, middle 3: both 2 away, the later
     * one wins */
    const corr_key six[] = {{1, 0, 0}, {2, 0, 0}, {2, 0, 1}, {2, 0, 2}, {2, 0, 3}, {3, 0, 0}};
    assert_int_equal(corr_order(six, 6, order), 5);
    /* one row is all first half */
    assert_int_equal(corr_order(keys, 1, order), 1);
    assert_int_equal(order[0], 0);
    assert_int_equal(corr_order(keys, 0, order), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pearson),  cmocka_unit_test(test_pearson_undefined),
        cmocka_unit_test(test_mape),     cmocka_unit_test(test_geomean),
        cmocka_unit_test(test_summary),  cmocka_unit_test(test_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
