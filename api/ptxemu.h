/* ptxemu.h — the public host API of ptxemu.
 *
 * Shaped like the CUDA driver API so that a host program ports line by line:
 * create a context, load a PTX module, allocate device memory, copy data in,
 * launch kernels by name with an array of pointers to argument values, copy
 * results back.  Every call returns a ptxemu_status; on failure the context
 * keeps a human-readable message (with file:line:col for PTX errors and
 * kernel/CTA/thread/PC for execution errors) that ptxemu_last_error returns.
 *
 * ptxemu_launch and the plain memory calls are synchronous: they wait for
 * all queued work, then run to completion before they return.  Streams and
 * events (below) queue work asynchronously, as CUDA streams do.
 */
#ifndef PTXEMU_H
#define PTXEMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptxemu_status {
    PTXEMU_OK = 0,
    PTXEMU_ERR_INVALID_VALUE,   /* bad argument (NULL, zero size, bad dims) */
    PTXEMU_ERR_PARSE,           /* module text is not valid PTX */
    PTXEMU_ERR_UNSUPPORTED,     /* valid PTX the emulator cannot run yet */
    PTXEMU_ERR_NOT_FOUND,       /* unknown kernel or symbol name */
    PTXEMU_ERR_OUT_OF_MEMORY,   /* device allocation failed */
    PTXEMU_ERR_INVALID_ADDRESS, /* host-side copy touches unallocated memory */
    PTXEMU_ERR_LAUNCH_RESOURCES,/* block too large, too much shared memory */
    PTXEMU_ERR_LAUNCH_FAILED,   /* fault, trap, deadlock or livelock in a kernel */
    PTXEMU_ERR_IO,              /* a file could not be read */
    PTXEMU_ERR_NOT_READY,       /* an event that was never recorded */
} ptxemu_status;

typedef struct ptxemu_ctx ptxemu_ctx;
typedef struct ptxemu_module ptxemu_module;
typedef uint64_t ptxemu_dptr;           /* a device (global) address */

typedef struct ptxemu_dim3 {
    unsigned x, y, z;
} ptxemu_dim3;

/* A device buffer's address and bytes, for comparing runs (validate). */
typedef void (*ptxemu_buffer_fn)(void *user, ptxemu_dptr addr, const void *bytes,
                                 size_t size);

/* Options for a context; zero-initialise and set what you need. */
typedef struct ptxemu_options {
    FILE *printf_stream;        /* where device printf goes; NULL = stdout */
    uint64_t livelock_limit;    /* warp instructions without progress before a
                                   launch is stopped; 0 = default (1e8) */
    uint64_t seed;              /* seed for anything randomised; default 0 */
    int its;                    /* independent thread scheduling: per-lane PCs,
                                   so lanes of one warp may wait for each other
                                   (intra-warp locks); > 0 on, < 0 off (the
                                   SIMT stack), 0 = the config's warp.its */

    /* Timing model.  With `timing` set every launch runs on the cycle-level
     * model (timing/): memory ends up exactly as in a functional run, and
     * statistics are kept.  Strings are copied at ptxemu_ctx_create. */
    int timing;
    const char *timing_config;  /* preset name (configs/NAME.ini) or INI file;
                                   NULL = the built-in defaults */
    const char *const *timing_set; /* NULL-terminated "group.key=value" overrides */
    const char *warp_sched;     /* shorthand for warp.policy=NAME */
    const char *cta_sched;      /* shorthand for cta.policy=NAME */
    const char *stats_path;     /* JSON statistics of the run, rewritten after
                                   every launch; NULL = none */
    const char *trace_csv_dir;  /* CSV time series, one file per launch */
    uint32_t trace_interval;    /* cycles per CSV row; 0 = stats.interval */
    FILE *sched_trace;          /* scheduler decisions, one line each */
    uint32_t regs_per_thread;   /* occupancy: registers per thread; 0 =
                                   estimated from the kernel's PTX */
    int step_every_cycle;       /* shorthand for sim.step_every_cycle=true:
                                   no jumping over idle cycles (same results,
                                   slower; for checking the timing model) */
    /* Non-zero: after every launch, hash all device memory into
     * ptxemu_counters.memory_digest (to compare runs bit for bit). */
    int memory_digest;
    /* Run limits (functional and timing); 0 = the config's [limits] keys
     * (the built-in defaults without a timing config): device memory in
     * bytes, warp instructions per launch, core cycles per timing launch. */
    uint64_t device_memory;
    uint64_t max_warp_instructions;
    uint64_t max_cycles;
    /* Wall-clock seconds a launch may run (limits.max_seconds) and between
     * progress lines on stderr (limits.progress_seconds); 0 = the config's
     * key (off by default). */
    uint32_t max_seconds;
    uint32_t progress_seconds;
    /* Dynamic parallelism (docs/cdp.md); 0 = the config's [cdp] keys
     * (CUDA's defaults without one): deepest nesting of device launches,
     * and device launches pending at once. */
    uint32_t cdp_max_depth;
    uint32_t cdp_pending_launches;
    uint64_t malloc_heap;       /* device heap of malloc in kernels (limits.malloc_heap) */
    /* Host threads that run the CTAs of a functional launch (ptxemu -j N);
     * 0 = the config's sim.host_threads (1).  Kernels whose CTAs may observe
     * each other (global atomics, %clock, volatile loads, printf ...) run on
     * one thread, said once per kernel on stderr.  Memory and instruction
     * counts are those of one thread.  Under timing: the SMs of a cycle on
     * N threads (timing/gpu_par.c), statistics identical to one thread. */
    uint32_t host_threads;
    /* Optional: called with an allocation's final bytes just before
     * ptxemu_free releases it, so a caller can compare the buffers of a
     * host program that frees them before it returns. */
    ptxemu_buffer_fn on_free;
    void *on_free_user;
    /* Optional: called after each launch has run (failed or not), in
     * submission order, with its instruction counts: per-launch records for
     * a caller whose launches run later than its calls (streams). */
    void (*on_launch_done)(void *user, uint64_t warp_instructions,
                           uint64_t thread_instructions);
    void *on_launch_done_user;
    /* Data-race check of functional launches (runtime/race.h): > 0 on,
     * < 0 off, 0 = the config's check.races (off).  The first race of a
     * launch is reported on stderr; counters.races counts the launches
     * with one.  Ignored (said once) under the timing model. */
    int race_check;
} ptxemu_options;

/* Counters accumulated over every launch of a context. */
typedef struct ptxemu_counters {
    uint64_t launches;
    uint64_t warp_instructions;
    uint64_t thread_instructions;
    uint64_t cycles;            /* simulated core cycles (timing model) */
    uint64_t memory_digest;     /* options.memory_digest: chained hash of the
                                   device memory after each launch */
    uint64_t device_peak_bytes; /* most device memory allocated at once */
    double launch_seconds;      /* host wall time spent inside launches */
    double launch_cpu_seconds;  /* CPU time of the launching thread inside them
                                   (what shared machines do not distort) */
    uint64_t races;             /* options.race_check: launches with a race reported */
} ptxemu_counters;

/* options.race_check: the report of the last race found (both accesses,
 * as printed on stderr), or NULL; valid until the next launch. */
const char *ptxemu_race_report(const ptxemu_ctx *ctx);

/* What the timing model measured over every launch so far. */
typedef struct ptxemu_timing_summary {
    const char *gpu;            /* config name */
    const char *warp_sched, *cta_sched;
    unsigned num_sms, warp_schedulers, issue_width, dispatch_interval;
    uint64_t kernels, cycles, warp_instructions, thread_instructions;
    double ipc;
    /* scheduler issue slots: issued + idle_no_warp + idle_scoreboard +
     * idle_pipeline == issue_slots (thesis 3.5.3); stalls split ALU/MEM */
    uint64_t issue_slots, issued, idle_no_warp, idle_scoreboard, idle_pipeline;
    uint64_t scoreboard_alu, scoreboard_mem, pipeline_alu, pipeline_mem;
    double l1_hit_rate, l2_hit_rate, dram_row_hit_rate, amat;
} ptxemu_timing_summary;

const char *ptxemu_status_string(ptxemu_status s);

/* Context: owns device memory, modules and the last error message.  When
 * the timing options are invalid (unknown preset, bad override, policy not
 * implemented) it returns PTXEMU_ERR_INVALID_VALUE but still creates the
 * context, so ptxemu_last_error can say why; destroy it as usual. */
ptxemu_status ptxemu_ctx_create(ptxemu_ctx **out, const ptxemu_options *opts);
void ptxemu_ctx_destroy(ptxemu_ctx *ctx);
const char *ptxemu_last_error(const ptxemu_ctx *ctx);
void ptxemu_get_counters(const ptxemu_ctx *ctx, ptxemu_counters *out);

/* Modules: parsed, checked and decoded at load; freed with the context or
 * by ptxemu_module_unload.  `name` labels errors (file:line:col). */
ptxemu_status ptxemu_module_load_file(ptxemu_ctx *ctx, const char *path,
                                      ptxemu_module **out);
ptxemu_status ptxemu_module_load_string(ptxemu_ctx *ctx, const char *ptx,
                                        const char *name, ptxemu_module **out);
void ptxemu_module_unload(ptxemu_module *mod);

/* Device memory.  Addresses are 64-bit and never 0. */
ptxemu_status ptxemu_malloc(ptxemu_ctx *ctx, ptxemu_dptr *out, size_t bytes);
ptxemu_status ptxemu_free(ptxemu_ctx *ctx, ptxemu_dptr ptr);
ptxemu_status ptxemu_memcpy_htod(ptxemu_ctx *ctx, ptxemu_dptr dst,
                                 const void *src, size_t bytes);
ptxemu_status ptxemu_memcpy_dtoh(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src,
                                 size_t bytes);
ptxemu_status ptxemu_memcpy_dtod(ptxemu_ctx *ctx, ptxemu_dptr dst,
                                 ptxemu_dptr src, size_t bytes);
ptxemu_status ptxemu_memset(ptxemu_ctx *ctx, ptxemu_dptr dst, int value,
                            size_t bytes);
/* Calls fn for every live allocation in address order: user buffers and
 * module variables alike. */
void ptxemu_visit_buffers(const ptxemu_ctx *ctx, ptxemu_buffer_fn fn, void *user);

/* Module-scope .global and .const variables (cudaMemcpyToSymbol). */
ptxemu_status ptxemu_module_get_global(ptxemu_module *mod, const char *name,
                                       ptxemu_dptr *addr, size_t *bytes);
ptxemu_status ptxemu_memcpy_to_symbol(ptxemu_module *mod, const char *name,
                                      const void *src, size_t bytes,
                                      size_t offset);
ptxemu_status ptxemu_memcpy_from_symbol(ptxemu_module *mod, void *dst,
                                        const char *name, size_t bytes,
                                        size_t offset);

/* Launch `kernel` of `mod`.  args[i] points to the value of parameter i,
 * whose size is taken from the kernel's PTX signature (as cuLaunchKernel). */
ptxemu_status ptxemu_launch(ptxemu_module *mod, const char *kernel,
                            ptxemu_dim3 grid, ptxemu_dim3 block,
                            size_t dynamic_shared_bytes, void **args);
/* Several launches submitted together.  Under timing each arrives
 * `arrival` core cycles after the batch starts, and kernels that arrive
 * while others run share the GPU as kernel.policy allows (leftover: a
 * kernel places CTAs once the earlier ones have placed all of theirs).
 * With `append_to` = i >= 0 the launch's CTAs join the kernel of desc i
 * (an earlier desc with append_to = -1 arriving no later) after its own
 * CTAs, as dynamic-parallelism TB groups do.  Functionally the launches run
 * one after another in arrival order (ties in desc order), so memory ends
 * up the same in both modes when concurrent launches touch disjoint data. */
typedef struct ptxemu_launch_desc {
    ptxemu_module *mod;
    const char *kernel;
    ptxemu_dim3 grid, block;
    size_t dynamic_shared_bytes;
    void **args;
    uint64_t arrival;
    int append_to;
} ptxemu_launch_desc;
ptxemu_status ptxemu_launch_batch(ptxemu_ctx *ctx, const ptxemu_launch_desc *descs,
                                  unsigned n);
/* Sets the device heap of malloc in kernels (cudaLimitMallocHeapSize);
 * PTXEMU_ERR_INVALID_VALUE once a kernel has used the heap. */
ptxemu_status ptxemu_set_malloc_heap(ptxemu_ctx *ctx, uint64_t bytes);
uint64_t ptxemu_malloc_heap(const ptxemu_ctx *ctx);
/* ptxemu_launch as a cooperative launch (cudaLaunchCooperativeKernel):
 * every CTA is resident at once, so cooperative_groups' grid.sync() works;
 * PTXEMU_ERR_LAUNCH_RESOURCES when the grid exceeds the CTAs the GPU config
 * holds at once (api/coop.c). */
ptxemu_status ptxemu_launch_cooperative(ptxemu_module *mod, const char *kernel,
                                        ptxemu_dim3 grid, ptxemu_dim3 block,
                                        size_t dynamic_shared_bytes, void **args);
/* The most CTAs of `kernel` with this block and dynamic shared memory that
 * can be resident at once (the bound of a cooperative launch). */
ptxemu_status ptxemu_max_coresident_ctas(ptxemu_module *mod, const char *kernel,
                                         ptxemu_dim3 block, size_t dynamic_shared_bytes,
                                         uint64_t *ctas);
/* Waits for all queued work (streams, below); PTXEMU_OK or the error of
 * the queued work that failed. */
ptxemu_status ptxemu_synchronize(ptxemu_ctx *ctx);

/* ---------------------------------------------------------------- streams
 *
 * Streams and events, as in CUDA.  A stream (ptxemu_stream_create) is an
 * in-order queue of kernels, memory copies and event records; NULL names
 * the default stream, which synchronises with every other stream (CUDA's
 * legacy default stream): its work starts once all work queued before it in
 * any stream has finished, and work queued after it in any stream starts
 * once it has finished.  ptxemu_stream_wait_event makes a stream's later
 * work wait for the work an event captured.
 *
 * When work runs.  Queued work runs when the host waits for it: at
 * ptxemu_synchronize, ptxemu_stream_synchronize, ptxemu_event_synchronize,
 * ptxemu_stream_query, ptxemu_event_query, ptxemu_event_elapsed_ms, and at
 * every synchronous call (ptxemu_launch, ptxemu_launch_batch, the plain
 * memcpy/memset calls, ptxemu_free, ptxemu_module_unload, ptxemu_stream
 * destroy).  Each such point runs everything queued so far, in either mode:
 *   - functionally, one operation after another in submission order (an
 *     order every stream and event dependency allows);
 *   - under timing, all together on the timing model: a kernel arrives at
 *     the GPU's kernel management unit once its stream predecessor and the
 *     events it waits for are done, takes one of kernel.hw_queues dispatch
 *     entries (first come first served) and shares the SMs with the other
 *     resident kernels as kernel.policy decides; copies and event records
 *     take no simulated time and happen the cycle their dependencies are
 *     done.
 * Both give the same memory whenever concurrent work touches disjoint
 * memory (work racing on the same bytes has no defined result, as in
 * CUDA).  Since the host has no concurrency with the emulator, the queries
 * run the queued work and then report it complete: they never return "not
 * ready", so a polling loop ends.  If queued work fails, the waiting call
 * returns its error (message in ptxemu_last_error) and the rest of the
 * queue is dropped.  Counters and timing statistics cover work that ran.
 *
 * Asynchronous copies: htod copies the host bytes at the call (the caller
 * may reuse `src` at once); dtoh writes `dst` when the copy runs, so read
 * it only after a wait. */
typedef struct ptxemu_stream ptxemu_stream;
typedef struct ptxemu_event ptxemu_event;

ptxemu_status ptxemu_stream_create(ptxemu_ctx *ctx, ptxemu_stream **out);
/* A stream that does not synchronise with the default stream (CUDA's
 * cudaStreamNonBlocking): its work neither waits for default-stream work
 * nor makes later default-stream work wait for it. */
ptxemu_status ptxemu_stream_create_nonblocking(ptxemu_ctx *ctx, ptxemu_stream **out);
/* Runs the queued work (as ptxemu_synchronize), then frees the stream. */
ptxemu_status ptxemu_stream_destroy(ptxemu_ctx *ctx, ptxemu_stream *stream);
/* A small number naming the stream in traces (the default stream is 0). */
unsigned ptxemu_stream_id(const ptxemu_stream *stream);
ptxemu_status ptxemu_stream_synchronize(ptxemu_ctx *ctx, ptxemu_stream *stream);
ptxemu_status ptxemu_stream_query(ptxemu_ctx *ctx, ptxemu_stream *stream);
/* The stream's later work waits for the work `event` captured when it was
 * last recorded (nothing, if it was never recorded). */
ptxemu_status ptxemu_stream_wait_event(ptxemu_ctx *ctx, ptxemu_stream *stream,
                                       ptxemu_event *event);

/* Queues a launch (checked now, as ptxemu_launch checks it; the argument
 * values are copied now). */
ptxemu_status ptxemu_launch_async(ptxemu_module *mod, const char *kernel, ptxemu_dim3 grid,
                                  ptxemu_dim3 block, size_t dynamic_shared_bytes, void **args,
                                  ptxemu_stream *stream);
ptxemu_status ptxemu_memcpy_htod_async(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src,
                                       size_t bytes, ptxemu_stream *stream);
ptxemu_status ptxemu_memcpy_dtoh_async(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src,
                                       size_t bytes, ptxemu_stream *stream);
ptxemu_status ptxemu_memcpy_dtod_async(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src,
                                       size_t bytes, ptxemu_stream *stream);
ptxemu_status ptxemu_memset_async(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t bytes,
                                  ptxemu_stream *stream);

/* Events mark a point in a stream.  An event completes when all work queued
 * in its stream before the record has finished (the default stream: all
 * work queued before it).  Its time is the simulated cycle at which that
 * happened under timing, and the host's monotonic clock when the work ran
 * functionally. */
ptxemu_status ptxemu_event_create(ptxemu_ctx *ctx, ptxemu_event **out);
void ptxemu_event_destroy(ptxemu_event *event);
/* Re-recording moves the event to the new point. */
ptxemu_status ptxemu_event_record(ptxemu_event *event, ptxemu_stream *stream);
ptxemu_status ptxemu_event_synchronize(ptxemu_event *event);
/* PTXEMU_OK once complete (it runs the queued work first; see above). */
ptxemu_status ptxemu_event_query(ptxemu_event *event);
/* Milliseconds from `start` to `end`: simulated (cycles / clock.core) under
 * timing, host time functionally; PTXEMU_ERR_NOT_READY if either event was
 * never recorded. */
ptxemu_status ptxemu_event_elapsed_ms(float *ms, ptxemu_event *start, ptxemu_event *end);
/* Under timing: the GPU cycle at which the event completed (cycles count on
 * from one run to the next).  PTXEMU_ERR_INVALID_VALUE when timing is off,
 * PTXEMU_ERR_NOT_READY when it was never recorded. */
ptxemu_status ptxemu_event_cycle(ptxemu_event *event, uint64_t *cycle);

/* Timing statistics of every launch so far.  The summary fails with
 * PTXEMU_ERR_INVALID_VALUE when timing is off; the JSON (schema
 * "ptxemu-timing-stats/1", see README) is NULL then, and otherwise stays
 * valid until the next launch or ptxemu_ctx_destroy. */
ptxemu_status ptxemu_get_timing_summary(const ptxemu_ctx *ctx,
                                        ptxemu_timing_summary *out);
const char *ptxemu_timing_stats_json(ptxemu_ctx *ctx);
/* A few lines for people: cycles, IPC, hit rates, stall breakdown. */
void ptxemu_print_timing_summary(const ptxemu_ctx *ctx, FILE *out);

/* ---- textures and surfaces (api/textures.c) ----
 * As in CUDA: arrays (laid out by the emulator; copied in and out by
 * region), resource and texture descriptors, and texture/surface objects
 * as 64-bit handles a kernel takes as .u64 parameters.  Module-scope
 * .texref/.surfref variables are bound to an object by name.  Enumerations
 * have CUDA's values (cudaChannelFormatKind, cudaResourceType,
 * cudaTextureAddressMode, cudaTextureFilterMode, cudaTextureReadMode,
 * cudaArray* flags). */
typedef enum ptxemu_channel_kind {
    PTXEMU_CHANNEL_SIGNED = 0, PTXEMU_CHANNEL_UNSIGNED = 1, PTXEMU_CHANNEL_FLOAT = 2,
} ptxemu_channel_kind;
typedef struct ptxemu_channel_desc {
    int x, y, z, w;             /* bits per channel (8, 16, 32; 0 = absent) */
    ptxemu_channel_kind f;
} ptxemu_channel_desc;
enum {
    PTXEMU_ARRAY_LAYERED = 1, PTXEMU_ARRAY_SURFACE = 2, PTXEMU_ARRAY_CUBEMAP = 4,
    PTXEMU_ARRAY_GATHER = 8,
};
/* width, height (0: 1D), depth (0: 1D/2D; layers when layered; 6 for a
 * cube map, 6 * n for a layered cube map) as cudaExtent */
typedef struct ptxemu_extent {
    size_t width, height, depth;
} ptxemu_extent;
typedef struct ptxemu_array ptxemu_array;
ptxemu_status ptxemu_array_create(ptxemu_ctx *ctx, ptxemu_array **out,
                                  const ptxemu_channel_desc *fmt, ptxemu_extent ext,
                                  unsigned flags, unsigned levels);
/* Arrays not destroyed go with their context. */
ptxemu_status ptxemu_array_destroy(ptxemu_ctx *ctx, ptxemu_array *a);
/* Mipmap level `level` of an array as an array of its own (owned by `a`);
 * NULL when out of range. */
ptxemu_array *ptxemu_array_level(ptxemu_array *a, unsigned level);
void ptxemu_array_get_info(const ptxemu_array *a, ptxemu_channel_desc *fmt,
                           ptxemu_extent *ext, unsigned *flags, unsigned *levels);
/* One side of an array copy: host memory (host != NULL) or device memory
 * at dev, rows `pitch` bytes apart, slices `height` rows apart. */
typedef struct ptxemu_copy_side {
    void *host;
    ptxemu_dptr dev;
    size_t pitch, height;
} ptxemu_copy_side;
/* Copies a box of width_bytes x height x depth between `mem` and the array
 * at byte offset x, row y, slice/layer z (to_array: into the array). */
ptxemu_status ptxemu_array_copy(ptxemu_ctx *ctx, ptxemu_array *a, int to_array, size_t x,
                                size_t y, size_t z, const ptxemu_copy_side *mem,
                                size_t width_bytes, size_t height, size_t depth);

typedef enum ptxemu_resource_type {
    PTXEMU_RES_ARRAY = 0, PTXEMU_RES_MIPMAPPED = 1, PTXEMU_RES_LINEAR = 2,
    PTXEMU_RES_PITCH2D = 3,
} ptxemu_resource_type;
typedef struct ptxemu_resource_desc {
    ptxemu_resource_type type;
    ptxemu_array *array;        /* ARRAY (or one level of it), MIPMAPPED */
    ptxemu_dptr ptr;            /* LINEAR, PITCH2D */
    ptxemu_channel_desc fmt;    /* LINEAR, PITCH2D */
    size_t size_bytes;          /* LINEAR */
    size_t width, height, pitch_bytes; /* PITCH2D */
} ptxemu_resource_desc;
typedef struct ptxemu_texture_desc {
    int addr[3];                /* 0 wrap, 1 clamp, 2 mirror, 3 border */
    int filter;                 /* 0 point, 1 linear */
    int read_normalized;        /* 8/16-bit integers read as floats in [0,1] / [-1,1] */
    int srgb;
    float border[4];
    int normalized;             /* coordinates in [0, 1) */
    unsigned max_aniso;
    int mip_filter;
    float lod_bias, min_lod, max_lod;
} ptxemu_texture_desc;
ptxemu_status ptxemu_texture_create(ptxemu_ctx *ctx, uint64_t *tex,
                                    const ptxemu_resource_desc *res,
                                    const ptxemu_texture_desc *desc);
/* Surfaces need an array made with PTXEMU_ARRAY_SURFACE. */
ptxemu_status ptxemu_surface_create(ptxemu_ctx *ctx, uint64_t *surf,
                                    const ptxemu_resource_desc *res);
/* Destroys a texture or surface object. */
ptxemu_status ptxemu_object_destroy(ptxemu_ctx *ctx, uint64_t handle);
/* Binds a module's .global .texref/.surfref `name` to an object (0 unbinds). */
ptxemu_status ptxemu_module_bind_ref(ptxemu_module *mod, const char *name, uint64_t handle);

#ifdef __cplusplus
}
#endif
#endif /* PTXEMU_H */
