/* api/api_internal.h — what the ptxemu program (tools/) needs beyond the
 * public API: the decoded module behind a handle. */
#ifndef PTXEMU_RUNTIME_API_INTERNAL_H
#define PTXEMU_RUNTIME_API_INTERNAL_H

#include "runtime/exec.h"
#include "api/ptxemu.h"

ex_module *ptxemu_module_ex(ptxemu_module *mod);

/* Host lanes: `n` host threads share one context, each running its own
 * host program (`ptxemu bench pair`).  They take turns, lane 0 first: a
 * lane runs until it waits for work of its own (a synchronous call while
 * its stream has queued work; in a lane such a call never runs work
 * itself, and one with nothing of the lane's queued goes straight on), then
 * the next lane not waiting runs;
 * when every lane waits, the work all of them queued runs together (under
 * timing, concurrently: each lane's launches go to its own stream), and
 * the turns start again from lane 0.  The interleaving, and so every
 * result, is deterministic.  Each thread calls ptxemu_lane_enter with its
 * lane before its first call and ptxemu_lane_leave after its last; the
 * creating thread calls ptxemu_lanes_end after joining them. */
ptxemu_status ptxemu_lanes_begin(ptxemu_ctx *ctx, unsigned n);
void ptxemu_lane_enter(ptxemu_ctx *ctx, unsigned lane);
void ptxemu_lane_leave(ptxemu_ctx *ctx);
ptxemu_status ptxemu_lanes_end(ptxemu_ctx *ctx);

/* The timing statistics of a context (NULL when timing is off). */
typedef struct tm_stats tm_stats;
const tm_stats *ptxemu_timing_stats(const ptxemu_ctx *ctx);
/* The GPU configuration of a context's timing model, overrides applied
 * (NULL when timing is off). */
typedef struct gpu_config gpu_config;
const gpu_config *ptxemu_timing_config(const ptxemu_ctx *ctx);

#endif
