/* timing/sm_internal.h — what sm.c shares with sm_instr.c (the instruction tables). */
#ifndef PTXEMU_TIMING_SM_INTERNAL_H
#define PTXEMU_TIMING_SM_INTERNAL_H

#include "timing/sm.h"

#include <stdint.h>

/* Cycles a unit slice is busy with one warp instruction (sm_instr.c). */
uint32_t tm_unit_occupancy(const gpu_config *cfg, tm_unit u);

/* Asynchronous copies (timing/sm_async.c): a cp.async or cp.async.bulk is
 * issued to the memory system like a load but holds no register, so the
 * warp runs on; cp.async.wait_group / cp.async.bulk.wait_group hold the
 * warp until the copies of the groups they name have landed, and
 * mbarrier.test_wait/try_wait until the copies tracked by that mbarrier
 * (any warp of the CTA) have. */
#define TM_MAX_ASYNC 64u
/* True when `in` must wait for copies in flight. */
bool tm_async_blocked(const tm_sm *sm, const tm_warp *tw, const ex_instr *in);
/* After `in` issued: starts tracking a copy (to_memsys: it went to the
 * memory system with `tag`), closes a group, or ties copies to an mbarrier. */
void tm_async_issued(tm_warp *tw, const ex_instr *in, const ex_access *a, bool to_memsys,
                     uint32_t tag);
/* Memory reply `tag` of tw: true when it was a copy an mbarrier tracks
 * (the CTA's waiting warps must look again). */
bool tm_async_landed(tm_warp *tw, uint32_t tag);
void tm_async_reset(tm_warp *tw);
void tm_async_free(tm_warp *tw);

#endif
