/* isa/mbarrier.c — mbarrier phases and counts as pure value operations
 * (encoding and rules in isa/mbarrier.h). */
#include "isa/mbarrier.h"

#define F21 ((1ull << 21) - 1)
#define SH_EXP 21
#define SH_TX 42
#define PHASE_BIT (1ull << 63)

uint32_t mbar_pending(uint64_t v) { return (uint32_t)(v & F21); }
uint32_t mbar_expected(uint64_t v) { return (uint32_t)((v >> SH_EXP) & F21); }
uint32_t mbar_phase(uint64_t v) { return (uint32_t)(v >> 63); }

int32_t mbar_tx(uint64_t v)
{
    uint32_t raw = (uint32_t)((v >> SH_TX) & F21);
    return raw & (1u << 20) ? (int32_t)raw - (1 << 21) : (int32_t)raw;
}

static uint64_t pack(uint32_t pending, uint32_t expected, int32_t tx, uint32_t phase)
{
    return (uint64_t)pending | (uint64_t)expected << SH_EXP |
           ((uint64_t)(uint32_t)tx & F21) << SH_TX | (phase ? PHASE_BIT : 0);
}

/* The phase completes when nothing is pending: flip it and reload. */
static uint64_t settle(uint32_t pending, uint32_t expected, int32_t tx, uint32_t phase)
{
    if (pending == 0 && tx == 0)
        return pack(expected, expected, 0, phase ^ 1u);
    return pack(pending, expected, tx, phase);
}

mbar_err mbar_init(uint64_t *v, uint32_t count)
{
    if (count < 1 || count > MBAR_COUNT_MAX)
        return MBAR_BAD_COUNT;
    *v = pack(count, count, 0, 0);
    return MBAR_OK;
}

mbar_err mbar_arrive(uint64_t *v, uint32_t count, bool drop, bool no_complete,
                     uint32_t tx, uint64_t *state)
{
    if (count < 1 || count > MBAR_COUNT_MAX)
        return MBAR_BAD_COUNT;
    uint32_t pending = mbar_pending(*v), expected = mbar_expected(*v), phase = mbar_phase(*v);
    int64_t t = (int64_t)mbar_tx(*v) + tx;
    if (tx > (uint32_t)MBAR_TX_MAX || t > MBAR_TX_MAX)
        return MBAR_TX_RANGE;
    if (count > pending || (drop && count > expected))
        return MBAR_UNDERFLOW;
    pending -= count;
    if (drop)
        expected -= count;
    if (no_complete && pending == 0 && t == 0)
        return MBAR_NO_COMPLETE;
    if (state)
        *state = (phase ? PHASE_BIT : 0) | pending;
    *v = settle(pending, expected, (int32_t)t, phase);
    return MBAR_OK;
}

mbar_err mbar_expect_tx(uint64_t *v, uint32_t bytes)
{
    int64_t t = (int64_t)mbar_tx(*v) + bytes;
    if (bytes > (uint32_t)MBAR_TX_MAX || t > MBAR_TX_MAX)
        return MBAR_TX_RANGE;
    *v = settle(mbar_pending(*v), mbar_expected(*v), (int32_t)t, mbar_phase(*v));
    return MBAR_OK;
}

mbar_err mbar_complete_tx(uint64_t *v, uint32_t bytes)
{
    int64_t t = (int64_t)mbar_tx(*v) - bytes;
    if (bytes > (uint32_t)MBAR_TX_MAX || t < -MBAR_TX_MAX)
        return MBAR_TX_RANGE;
    *v = settle(mbar_pending(*v), mbar_expected(*v), (int32_t)t, mbar_phase(*v));
    return MBAR_OK;
}

bool mbar_test_state(uint64_t v, uint64_t state)
{
    return mbar_phase(v) != (uint32_t)(state >> 63);
}

bool mbar_test_parity(uint64_t v, uint32_t parity)
{
    return mbar_phase(v) != (parity & 1u);
}

uint32_t mbar_state_pending(uint64_t state)
{
    return (uint32_t)(state & F21);
}

const char *mbar_err_text(mbar_err e)
{
    switch (e) {
    case MBAR_OK: return "ok";
    case MBAR_BAD_COUNT: return "count outside 1 .. 2^20-1";
    case MBAR_UNDERFLOW: return "more arrivals than the phase has pending";
    case MBAR_TX_RANGE: return "tx-count outside -(2^20-1) .. 2^20-1";
    case MBAR_NO_COMPLETE: return ".noComplete arrival would complete the phase";
    }
    return "?";
}
