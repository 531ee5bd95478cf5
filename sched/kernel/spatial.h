/* sched/kernel/spatial.h — the state of the spatial and interleaved
 * kernel policies, for their tests (tests/timing/test_concurrent.c) to
 * drive the hooks and read the status blocks. */
#ifndef PTXEMU_SCHED_KERNEL_SPATIAL_H
#define PTXEMU_SCHED_KERNEL_SPATIAL_H

#include "sched/kernel/caps.h"
#include "sched/kernel/status.h"

typedef struct spatial_state {
    st_blocks b;
    uint64_t issuing;            /* rows issuing at the last remap */
} spatial_state;

typedef struct interleaved_state {
    st_blocks b;
    uint64_t sharing;            /* rows the caps were computed for */
    kcaps caps;                  /* kernel.caps */
    uint32_t opt[ST_ROWS];       /* a row's kernel.caps entry, 0 = none */
} interleaved_state;

extern const sched_kernel_ops sched_kernel_spatial, sched_kernel_interleaved;

#endif
