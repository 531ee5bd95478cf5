/* timing/sm_internal.h — what sm.c shares with sm_instr.c (the instruction tables). */
#ifndef PTXEMU_TIMING_SM_INTERNAL_H
#define PTXEMU_TIMING_SM_INTERNAL_H

#include "timing/sm.h"

#include <stdint.h>

/* Cycles a unit slice is busy with one warp instruction (sm_instr.c). */
uint32_t tm_unit_occupancy(const gpu_config *cfg, tm_unit u);

#endif
