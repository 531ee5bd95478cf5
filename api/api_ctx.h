/* api/api_ctx.h — the context and module records shared by the files of
 * the host API (api.c: contexts, modules, memory, launches; streams.c:
 * streams, events and the queue of asynchronous work).  Private to api/. */
#ifndef PTXEMU_API_CTX_H
#define PTXEMU_API_CTX_H

#include "api/ptxemu.h"
#include "frontend/ir.h"
#include "runtime/exec.h"
#include "timing/gpu.h"

#include <glib.h>

struct ptxemu_ctx {
    dev_memory mem;
    ptxemu_options opts;
    GString *error;
    GPtrArray *modules;      /* ptxemu_module* */
    ptxemu_counters counters;
    /* timing model (NULL when off); option strings are owned copies */
    tm_gpu *gpu;
    char *stats_path;
    GString *stats_json;
    /* asynchronous work not run yet (streams.c) */
    GArray *ops;             /* api_op, in submission order */
    GPtrArray *streams;      /* live ptxemu_stream* */
    GPtrArray *events;       /* live ptxemu_event* */
    int32_t barrier;         /* last pending default-stream op, or -1 */
    uint32_t next_stream_id;
    struct api_lanes *lanes; /* host lanes (lanes.c), or NULL */
    /* dynamic parallelism: the config's [cdp] limits, and the ids of
     * device-launched grids (from 2^30, so they never meet host ids) */
    uint32_t cdp_max_depth, cdp_pending;
    uint32_t device_launch_ids;
    GPtrArray *arrays;       /* live ptxemu_array* (textures.c), or NULL */
    bool race_check;         /* options.race_check / check.races, functional only */
    char *race_report;       /* the last race reported (ptxemu_race_report) */
    int32_t its_mode;        /* warp.its (gpu_its_mode): options.its overrides */
    GHashTable *serial_noted; /* ex_func* of kernels whose one-thread run was
                                 reported (host_threads > 1), or NULL */
};

struct ptxemu_module {
    ptxemu_ctx *ctx;
    ptx_module *ir;
    ex_module *ex;
};

ptxemu_status api_fail(ptxemu_ctx *ctx, ptxemu_status s, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
ptxemu_status api_ok(ptxemu_ctx *ctx);

/* Checks a launch and builds its ex_launch (kernel parameters copied). */
ptxemu_status api_launch_prepare(ptxemu_ctx *ctx, const ptxemu_launch_desc *d, ex_launch *L,
                                 uint32_t launch_id);
void api_launch_release(ex_launch *L);
/* With host_threads > 1: says once per kernel on stderr why a functional
 * launch runs its CTAs on one thread (runtime/par_class.c). */
void api_note_serial(ptxemu_ctx *ctx, const ex_launch *L);
unsigned api_target_sm(const char *target);
/* ptxemu_launch_batch, the launches cooperative or not. */
ptxemu_status api_launch_batch(ptxemu_ctx *ctx, const ptxemu_launch_desc *descs, unsigned n,
                               bool cooperative);
/* A cooperative launch's checks and grid-barrier workspace (api/coop.c);
 * releases L on failure. */
ptxemu_status api_coop_prepare(ptxemu_ctx *ctx, const ptxemu_launch_desc *d, ex_launch *L);
/* After launches ran (good or not): counters, the memory digest. */
void api_launches_done(ptxemu_ctx *ctx, ex_launch *Ls, unsigned n);
/* After a run that succeeded: the statistics file; a status. */
ptxemu_status api_run_finished(ptxemu_ctx *ctx);

/* Memory operations without waiting for queued work (streams.c runs them
 * in queue order). */
ptxemu_status api_htod(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src, size_t n);
ptxemu_status api_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n);
ptxemu_status api_dtod(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src, size_t n);
ptxemu_status api_memset(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t n);

/* streams.c: the queue's life with its context, and the wait every
 * synchronous call makes for the queued work (PTXEMU_OK, or the error of
 * the work that failed; the rest of the queue is then dropped). */
void api_queue_init(ptxemu_ctx *ctx);
void api_queue_destroy(ptxemu_ctx *ctx);
ptxemu_status api_queue_drain(ptxemu_ctx *ctx);
/* Synchronous copies and launches wait for queued work first (the default
 * stream): returns the queue's error from the calling function. */
#define WAIT_QUEUE(ctx)                                              \
    do {                                                             \
        ptxemu_status qs_ = ctx ? api_queue_drain(ctx) : PTXEMU_OK; \
        if (qs_ != PTXEMU_OK)                                        \
            return qs_;                                              \
    } while (0)
/* Runs the queue now (api_queue_drain does, or with host lanes the lane
 * that completes a round does). */
ptxemu_status api_queue_run(ptxemu_ctx *ctx);

/* textures.c: frees the arrays a context still holds (at destroy). */
void api_arrays_free(ptxemu_ctx *ctx);

/* lanes.c: with host lanes, a wait is the calling lane's turn ending. */
ptxemu_status api_lane_wait(ptxemu_ctx *ctx);
/* No work queued in `stream` or the default stream. */
bool api_stream_idle(const ptxemu_stream *stream);
/* The stream of the lane whose turn it is. */
ptxemu_stream *api_lane_stream(ptxemu_ctx *ctx);

#endif
