/* tests/timing/test_noc.c — the crossbar's link and queueing counters on
 * cases worked by hand: N packets of F flits through one port, two inputs
 * contending for one output, and the flits a packet header adds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/noc.h"

#include <string.h>

typedef struct arrivals {
    uint64_t at[8];
    uint32_t n;
} arrivals;

/* As memsys does: the arrival tick becomes the packet's ready tick. */
static void on_arrive(void *ctx, uint32_t out, uint32_t p, uint64_t at)
{
    (void)out;
    arrivals *a = ctx;
    a->at[a->n++] = at;
    (void)p;
}

static void arrive_and_store(noc_pkt *pool, arrivals *a)
{
    for (uint32_t i = 0; i < a->n; i++)
        pool[i].ready = a->at[i];
}

static void make(noc_pkt *pool, uint32_t i, uint16_t dst, uint16_t flits)
{
    memset(&pool[i], 0, sizeof pool[i]);
    pool[i].dst = dst;
    pool[i].flits = flits;
    pool[i].ready = 0;
}

/* 3 packets of 2 flits, one input, one output, latency 4, all ready at 0:
 * grants at 0, 2, 4 (the port is held 2 cycles per packet), so injection
 * waits 0 + 2 + 4 = 6, max 4; arrivals 0+4+2-1 = 5, 7, 9; ejected
 * together at 10: ejection waits 5 + 3 + 1 = 9, max 5.  6 flits in the
 * 6 cycles 0..5 the input is busy: utilisation 1. */
static void test_one_port(void **state)
{
    (void)state;
    noc_xbar x;
    noc_pkt pool[3];
    arrivals a = {{0}, 0};
    noc_init(&x, 1, 1, 64, 4);
    for (uint32_t i = 0; i < 3; i++) {
        make(pool, i, 0, 2);
        noc_inject(&x, pool, 0, i);
    }
    uint64_t t = 0;
    for (; t < 10; t++)
        noc_step(&x, pool, t, on_arrive, &a);
    assert_int_equal(a.n, 3);
    assert_int_equal(a.at[0], 5);
    assert_int_equal(a.at[1], 7);
    assert_int_equal(a.at[2], 9);
    assert_int_equal(x.flits_sent, 6);
    assert_int_equal(x.packets_sent, 3);
    assert_int_equal(x.inj_wait_sum, 6);
    assert_int_equal(x.inj_wait_max, 4);
    arrive_and_store(pool, &a);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(noc_eject(&x, pool, 0, 10), i);
    assert_int_equal(x.ejected, 3);
    assert_int_equal(x.ej_wait_sum, 9);
    assert_int_equal(x.ej_wait_max, 5);
    noc_free(&x);
}

/* Two inputs, one packet of 3 flits each, both for output 0: input 0 is
 * granted at 0 (round-robin start), input 1 waits for the output until 3. */
static void test_contention(void **state)
{
    (void)state;
    noc_xbar x;
    noc_pkt pool[2];
    arrivals a = {{0}, 0};
    noc_init(&x, 2, 1, 64, 1);
    make(pool, 0, 0, 3);
    make(pool, 1, 0, 3);
    noc_inject(&x, pool, 0, 0);
    noc_inject(&x, pool, 1, 1);
    for (uint64_t t = 0; t < 6; t++)
        noc_step(&x, pool, t, on_arrive, &a);
    assert_int_equal(a.n, 2);
    assert_int_equal(a.at[0], 0 + 1 + 3 - 1);
    assert_int_equal(a.at[1], 3 + 1 + 3 - 1);
    assert_int_equal(x.inj_wait_sum, 3);
    assert_int_equal(x.inj_wait_max, 3);
    noc_free(&x);
}

/* A 128-byte reply on 64-byte flits: 2 flits without a header, 3 with
 * GPGPU-Sim's 8 control bytes; a read request (no data) is 1 either way. */
static void test_header_flits(void **state)
{
    (void)state;
    assert_int_equal(noc_flits(128, 0, 64), 2);
    assert_int_equal(noc_flits(128, 8, 64), 3);
    assert_int_equal(noc_flits(0, 8, 64), 1);
    assert_int_equal(noc_flits(0, 0, 64), 1);
    assert_int_equal(noc_flits(128, 8, 32), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_port),
        cmocka_unit_test(test_contention),
        cmocka_unit_test(test_header_flits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
