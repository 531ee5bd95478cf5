/* timing/coalesce.h — one warp instruction's per-lane accesses -> the set
 * of distinct line transactions, each with the 32-byte sectors it touches.
 *
 * Granularity: one transaction per distinct cache line (the line size of
 * the cache the space goes through: l1d.line for global and local,
 * const_cache.line for constants).  The sector mask says how many bytes a
 * transaction really needs (writes, atomics and L1-bypassing loads move
 * only their sectors; cached loads fetch the whole line).
 *
 * Every space is mapped into one "timing address space" so caches and
 * partitions see one kind of address:
 *  - global and const: the address itself (device addresses);
 *  - kernel parameters: COAL_KPARAM_BASE + offset (one bank per launch);
 *  - local and function parameters (per-thread offsets): a private region
 *    per (SM, warp slot), interleaved by 4-byte words across the 32 lanes
 *    like the hardware's local memory, so the same offset in every lane of
 *    a warp is one contiguous 128-byte chunk:
 *      COAL_LOCAL_BASE + sm * 2^47 + warp * 2^37 + (off / 4) * 128
 *        + lane * 4 + off % 4
 *    (offsets below 4 GiB per thread, warp slots below 1024). */
#ifndef PTXEMU_TIMING_COALESCE_H
#define PTXEMU_TIMING_COALESCE_H

#include "runtime/exec.h"

#include <stdint.h>

#define COAL_SECTOR 32u
#define COAL_KPARAM_BASE 0x0F00000000000000ull
#define COAL_LOCAL_BASE 0x1000000000000000ull
/* 32 lanes x up to 4 words each for local vectors of 16 bytes */
#define COAL_MAX_TX 128u

typedef struct coal_tx {
    uint64_t line;      /* line-aligned timing address */
    uint32_t sectors;   /* bit i: bytes [32i, 32i + 32) of the line */
} coal_tx;

typedef struct coal_out {
    uint32_t ntx;
    uint32_t naddrs;    /* distinct lane addresses (constant-cache passes) */
    coal_tx tx[COAL_MAX_TX];
} coal_out;

/* Whether a space goes through the constant cache rather than the L1D. */
static inline bool coal_is_const(uint8_t space)
{
    return space == EX_SPACE_CONST || space == EX_SPACE_KPARAM;
}
static inline bool coal_is_local(uint8_t space)
{
    return space == EX_SPACE_LOCAL || space == EX_SPACE_FPARAM;
}

/* Timing address of byte `off` of a local-space access by (sm, warp, lane). */
static inline uint64_t coal_local_addr(uint32_t sm, uint32_t warp, uint32_t lane,
                                       uint64_t off)
{
    return COAL_LOCAL_BASE + ((uint64_t)sm << 47) + ((uint64_t)(warp & 1023u) << 37) +
           (off >> 2) * 128u + lane * 4u + (off & 3u);
}

/* Coalesces acc (lanes in acc->mask) into `out` at `line` bytes per line
 * (a power of two, at least 32).  `sm` and `warp` place local accesses. */
void coalesce(const ex_access *acc, uint32_t sm, uint32_t warp, uint32_t line,
              coal_out *out);

/* A global atomic: as coalesce, except that a lane whose bytes overlap a
 * lane already in a transaction of its line starts another transaction of
 * that line, so n lanes on one word are n transactions, performed one
 * after another at L2.  This is GPGPU-Sim's atomic coalescing (a lane joins
 * a transaction only if no byte conflicts), which the spin seed's GTX480
 * runs had; lanes on different words of a line still share one. */
void coalesce_atomic(const ex_access *acc, uint32_t line, coal_out *out);

#endif
