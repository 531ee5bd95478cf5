/* tests/runtime/test_memory.c — the device-memory allocator's accounting
 * (runtime/memory.c): `total` and `peak` after allocations and frees,
 * computed here by hand.  mem_init runs on a struct full of garbage, as a
 * caller's stack or g_new would leave it, so a field it forgets to set
 * shows as a wrong number (valgrind saw `peak` read uninitialised in
 * mem_alloc_bytes). */
#include "runtime/memory.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

static void init_dirty(dev_memory *m)
{
    memset(m, 0xa5, sizeof *m);
    mem_init(m);
}

static void peak_starts_at_zero(void **state)
{
    (void)state;
    dev_memory m;
    init_dirty(&m);
    assert_int_equal(m.total, 0);
    assert_int_equal(m.peak, 0);
    mem_destroy(&m);
}

static void peak_follows_the_most_allocated_at_once(void **state)
{
    (void)state;
    dev_memory m;
    init_dirty(&m);
    uint64_t a = mem_alloc_bytes(&m, 1000, false);
    uint64_t b = mem_alloc_bytes(&m, 3000, false);
    assert_true(a && b);
    assert_int_equal(m.total, 4000);
    assert_int_equal(m.peak, 4000);
    assert_true(mem_free(&m, b));
    assert_int_equal(m.total, 1000);
    assert_int_equal(m.peak, 4000);        /* the footprint stays */
    uint64_t c = mem_alloc_bytes(&m, 2000, false);
    assert_true(c);
    assert_int_equal(m.total, 3000);
    assert_int_equal(m.peak, 4000);        /* 3000 < 4000 */
    assert_true(mem_alloc_bytes(&m, 1500, false));
    assert_int_equal(m.peak, 4500);
    /* a size of 0 takes one byte */
    assert_true(mem_alloc_bytes(&m, 0, false));
    assert_int_equal(m.peak, 4501);
    mem_destroy(&m);
}

static void refused_allocation_changes_nothing(void **state)
{
    (void)state;
    dev_memory m;
    init_dirty(&m);
    m.limit = 10000;
    assert_true(mem_alloc_bytes(&m, 6000, false));
    assert_int_equal(mem_alloc_bytes(&m, 5000, false), 0); /* past the limit */
    assert_int_equal(m.total, 6000);
    assert_int_equal(m.peak, 6000);
    mem_destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(peak_starts_at_zero),
        cmocka_unit_test(peak_follows_the_most_allocated_at_once),
        cmocka_unit_test(refused_allocation_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
