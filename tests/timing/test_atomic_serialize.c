/* tests/timing/test_atomic_serialize.c — l2.atomic_serialize: lanes of one
 * atomic instruction on the same bytes are separate transactions performed
 * one after another at L2 (GPGPU-Sim's atomic coalescing, which the spin
 * seed's GTX480 runs had), lanes on different words of a line share one.
 * The counts below are worked by hand from that rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/coalesce.h"
#include "timing/config.h"
#include "timing/memsys.h"

#include <string.h>

#define LINE 0x700000000ull

static ex_access atom(uint32_t mask)
{
    ex_access a;
    memset(&a, 0, sizeof a);
    a.mask = mask;
    a.space = EX_SPACE_GLOBAL;
    a.write = 1;
    a.atomic = 1;
    a.size = 4;
    return a;
}

static void test_split_rule(void **state)
{
    (void)state;
    coal_out co;
    /* 32 lanes on one word: 32 transactions of that line's first sector */
    ex_access a = atom(0xffffffffu);
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = LINE + 8;
    coalesce_atomic(&a, 128, &co);
    assert_int_equal(co.ntx, 32);
    for (unsigned i = 0; i < 32; i++) {
        assert_int_equal(co.tx[i].line, LINE);
        assert_int_equal(co.tx[i].sectors, 1);
    }
    /* 32 consecutive words: no byte shared, one transaction, 4 sectors */
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = LINE + 4u * l;
    coalesce_atomic(&a, 128, &co);
    assert_int_equal(co.ntx, 1);
    assert_int_equal(co.tx[0].sectors, 0xf);
    /* lanes 0-15 on word 0, lanes 16-31 on word 31: 16 transactions, each
     * holding one lane of each word (sectors 0 and 3) */
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = LINE + (l < 16 ? 0 : 124);
    coalesce_atomic(&a, 128, &co);
    assert_int_equal(co.ntx, 16);
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(co.tx[i].sectors, 0x9);
    /* two lines, two lanes on each of two words per line: 2 per line */
    a = atom(0xffu);
    static const uint64_t off[8] = {0, 0, 4, 4, 128, 128, 132, 132};
    for (unsigned l = 0; l < 8; l++)
        a.addr[l] = LINE + off[l];
    coalesce_atomic(&a, 128, &co);
    assert_int_equal(co.ntx, 4);
    /* coalesce() itself (serialize off) keeps one transaction per line */
    coalesce(&a, 0, 0, 128, &co);
    assert_int_equal(co.ntx, 2);
}

typedef struct run { uint64_t done; } run;

static void on_done(void *user, uint64_t token, uint64_t cycle)
{
    (void)token;
    ((run *)user)->done = cycle;
}

/* Cycles from issue to completion of one atomic with `lanes` lanes on one
 * word, alone in an idle gtx480 memory system; *tx gets its transactions. */
static uint64_t latency(uint32_t lanes, bool serialize, uint64_t *tx)
{
    gpu_config c;
    GError *err = NULL;
    if (!gpu_config_load_preset("gtx480", &c, &err))
        fail_msg("gtx480: %s", err->message);
    c.l2.atomic_serialize = serialize;
    run r = {UINT64_MAX};
    memsys *m = memsys_create(&c, on_done, &r);
    ex_access a = atom(lanes == 32 ? 0xffffffffu : (1u << lanes) - 1);
    for (unsigned l = 0; l < WARP_SIZE; l++)
        a.addr[l] = LINE;
    uint64_t cyc = 0, at = UINT64_MAX;
    for (; r.done == UINT64_MAX || !memsys_idle(m); cyc++) {
        assert_true(cyc < 100000);
        memsys_cycle(m, cyc);
        if (at == UINT64_MAX && memsys_issue(m, 0, 0, &a, 1, cyc))
            at = cyc;
    }
    memsys_stats st;
    memsys_get_stats(m, &st);
    *tx = st.transactions;
    memsys_destroy(m);
    return r.done - at;
}

static void test_serialized_at_l2(void **state)
{
    (void)state;
    uint64_t t1, t32, toff;
    uint64_t one = latency(1, true, &t1);
    uint64_t all = latency(32, true, &t32);
    uint64_t merged = latency(32, false, &toff);
    assert_int_equal(t1, 1);
    assert_int_equal(t32, 32);
    assert_int_equal(toff, 1);
    /* 31 more transactions: at least a cycle each at the port, the NoC and
     * the L2 slice (one per cycle there) */
    assert_true(all >= one + 31);
    assert_int_equal(merged, one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_rule),
        cmocka_unit_test(test_serialized_at_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
