/* isa/mbarrier.h — the mbarrier object as a value (PTX ISA "Parallel
 * Synchronization and Communication Instructions: mbarrier").
 *
 * An mbarrier is an opaque 64-bit object in shared memory with a current
 * phase, a pending arrival count, an expected arrival count (what the
 * pending count is reset to when a phase completes) and a tx-count (bytes
 * of asynchronous transactions still expected).  A phase completes when the
 * pending count and the tx-count are both zero; the phase then flips, the
 * pending count is reloaded from the expected count and the tx-count is 0.
 *
 * ptxemu's encoding of the object (the manual leaves it opaque):
 *   bits  0-20  pending arrival count  (0 .. 2^20-1)
 *   bits 21-41  expected arrival count (0 .. 2^20-1)
 *   bits 42-62  tx-count, two's complement in 21 bits
 *   bit  63     current phase parity
 * and of the state an arrive returns: bit 63 the phase parity it arrived
 * in, bits 0-20 the pending count after the arrive.  Counts of an init or
 * arrive are 1 .. 2^20-1; tx-counts of expect_tx/complete_tx 0 .. 2^20-1. */
#ifndef PTXEMU_ISA_MBARRIER_H
#define PTXEMU_ISA_MBARRIER_H

#include <stdbool.h>
#include <stdint.h>

#define MBAR_COUNT_MAX ((1u << 20) - 1)
#define MBAR_TX_MAX ((1 << 20) - 1)

/* Why an operation is undefined behaviour (the executor faults). */
typedef enum mbar_err {
    MBAR_OK,
    MBAR_BAD_COUNT,     /* count outside 1 .. 2^20-1 */
    MBAR_UNDERFLOW,     /* more arrivals than pending in this phase */
    MBAR_TX_RANGE,      /* tx-count left its range */
    MBAR_NO_COMPLETE,   /* .noComplete arrival completed the phase */
} mbar_err;

uint32_t mbar_pending(uint64_t v);
uint32_t mbar_expected(uint64_t v);
int32_t mbar_tx(uint64_t v);
uint32_t mbar_phase(uint64_t v);

/* mbarrier.init: phase 0, pending = expected = count, tx-count 0. */
mbar_err mbar_init(uint64_t *v, uint32_t count);
/* An arrive-on operation of `count` arrivals (arrive_drop: the expected
 * count of later phases drops by `count` too), after adding `tx` to the
 * tx-count (arrive.expect_tx).  *state gets the state to wait on. */
mbar_err mbar_arrive(uint64_t *v, uint32_t count, bool drop, bool no_complete,
                     uint32_t tx, uint64_t *state);
/* expect_tx (+bytes) and complete_tx (-bytes); complete_tx may complete
 * the phase. */
mbar_err mbar_expect_tx(uint64_t *v, uint32_t bytes);
mbar_err mbar_complete_tx(uint64_t *v, uint32_t bytes);
/* test_wait with a state from an arrive: has the phase it names completed? */
bool mbar_test_state(uint64_t v, uint64_t state);
/* test_wait.parity: has the phase with this parity completed (the current
 * phase has the other parity)? */
bool mbar_test_parity(uint64_t v, uint32_t parity);
/* mbarrier.pending_count of a state. */
uint32_t mbar_state_pending(uint64_t state);
const char *mbar_err_text(mbar_err e);

#endif
