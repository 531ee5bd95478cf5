/* sched/kernel/status.h — the kernel status block (thesis Fig. 5.6) and
 * the core status block (Fig. 5.7) that the concurrent-kernel policies
 * `spatial` and `interleaved` keep (SEED-TARGETS §4).
 *
 * Kernel status block: one row per resident kernel — valid, id, grid, next
 * block, registers / shared memory per block, active-core count.  A new
 * kernel takes the lowest invalid row (the driver's KDU, kernel.hw_queues
 * <= SCHED_MAX_KERNELS, never admits more kernels than there are rows, so
 * rule 1's "the launch fails" cannot happen); a finished kernel's row is
 * invalidated.
 *
 * Core status block: per core — full, core id, active kernel (the one whose
 * blocks it runs), assigned kernel (the one it will take blocks of: spatial
 * only), max blocks, active blocks.  Interleaved cores run every kernel:
 * their per-kernel max blocks is the row's `cap` and their active blocks
 * are `resident[row][core]`.
 *
 * The file is shared by the two policies and read by their tests; nothing
 * in it allocates after st_init. */
#ifndef PTXEMU_SCHED_KERNEL_STATUS_H
#define PTXEMU_SCHED_KERNEL_STATUS_H

#include "sched/sched.h"

#include <stdbool.h>
#include <stdint.h>

#define ST_ROWS SCHED_MAX_KERNELS
#define ST_NONE (-1)

typedef struct st_kernel_row {
    bool valid;
    uint32_t id;                 /* launch id */
    uint32_t grid[3];
    uint32_t total;              /* blocks in the grid */
    uint32_t next;               /* next block (linear): blocks issued */
    uint32_t regs, shared;       /* per block */
    uint32_t warps;              /* per block */
    uint32_t max_fit;            /* blocks of it an empty core holds */
    uint32_t cap;                /* interleaved: max blocks per core now */
    uint64_t seq;                /* arrival order */
} st_kernel_row;

typedef struct st_core_row {
    uint32_t core;
    int32_t active;              /* row whose blocks it runs, or ST_NONE */
    int32_t assigned;            /* row it takes blocks of next (spatial) */
} st_core_row;

typedef struct st_blocks {
    st_kernel_row rows[ST_ROWS];
    st_core_row *cores;
    uint32_t ncores;
    uint32_t *resident;          /* [row * ncores + core]: active blocks */
    uint64_t arrivals;
    /* the machine, for occupancy */
    uint32_t core_regs, core_shared, core_warps, core_ctas;
} st_blocks;

void st_init(st_blocks *b, const sched_env *env);
void st_destroy(st_blocks *b);

/* Events: return the row concerned, or ST_NONE. */
int32_t st_arrive(st_blocks *b, const sched_kernel_info *k);
int32_t st_finish(st_blocks *b, uint32_t id);
int32_t st_cta_issued(st_blocks *b, uint32_t id, uint32_t core);
int32_t st_cta_finished(st_blocks *b, uint32_t id, uint32_t core);
int32_t st_row_of(const st_blocks *b, uint32_t id);

static inline uint32_t st_active_blocks(const st_blocks *b, int32_t row, uint32_t core)
{
    return row < 0 ? 0 : b->resident[(size_t)row * b->ncores + core];
}

/* Cores whose active kernel is `row` (spatial), or that hold blocks of it. */
uint32_t st_active_cores(const st_blocks *b, int32_t row);
/* The next block as (x, y, z) in the row's grid. */
void st_next_block(const st_kernel_row *r, uint32_t out[3]);
/* Valid rows with blocks left to issue, in arrival order; returns how many. */
uint32_t st_issuing(const st_blocks *b, int32_t *rows);

#endif
