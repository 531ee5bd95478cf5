/* runtime/cdp.h — the device runtime of CUDA dynamic parallelism (CDP2, the
 * CUDA 12+ model): kernels launching kernels.
 *
 * nvcc 13 (-rdc=true) turns `child<<<g, b, shmem, s>>>(args)` in device code
 * into two calls of bodiless functions (docs/cdp.md shows the PTX):
 *   buf = __cudaCDP2GetParameterBufferV2(&child, g, b, shmem);
 *   ... stores of the arguments into buf ...
 *   __cudaCDP2LaunchDeviceV2(buf, s);
 * The loader binds these (and the few other device-runtime calls below) to
 * EX_BUILTIN_CDP; ex_cdp_call executes them per calling lane, in lane order.
 *
 * A parameter buffer lives in its own generic-address window
 * (MEM_CDP_WINDOW): buffer slot i covers [window + i * EX_CDP_SLOT_BYTES,
 * + kernel parameter bytes).  A launch records an ex_cdp_launch in the
 * launch tree (ex_cdp, shared by a host launch and all of its descendants);
 * the driver runs it later: runtime/cdp_run.c in functional mode, the timing
 * model through ex_launch.on_device_launch. */
#ifndef PTXEMU_RUNTIME_CDP_H
#define PTXEMU_RUNTIME_CDP_H

#include "runtime/exec.h"

/* Generic window of the parameter buffers (below the function addresses). */
#define MEM_CDP_WINDOW 0x0000000400000000ull
/* Bytes per parameter-buffer slot (CUDA's kernel parameters: at most 32764). */
#define EX_CDP_SLOT_BYTES 0x8000u
#define EX_CDP_SLOTS ((uint32_t)(MEM_WINDOW_SIZE / EX_CDP_SLOT_BYTES))

/* CUDA's defaults: nesting depth is limited in hardware to 24 levels, and the
 * pending-launch buffer (cudaLimitDevRuntimePendingLaunchCount) holds 2048. */
#define EX_CDP_DEFAULT_MAX_DEPTH 24u
#define EX_CDP_DEFAULT_PENDING 2048u

/* The special stream handles of cuda_device_runtime_api.h. */
#define EX_CDP_STREAM_TAIL_HANDLE 0x3u
#define EX_CDP_STREAM_FIRE_HANDLE 0x4u

typedef enum ex_cdp_stream {
    EX_CDP_STREAM_NULL,     /* the implicit (NULL) stream */
    EX_CDP_STREAM_NAMED,    /* a cudaStreamCreateWithFlags stream */
    EX_CDP_STREAM_TAIL,     /* cudaStreamTailLaunch: after the parent grid and its work */
    EX_CDP_STREAM_FIRE,     /* cudaStreamFireAndForget */
} ex_cdp_stream;

/* One device-side launch and where it came from. */
typedef struct ex_cdp_launch {
    const ex_func *kernel;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint8_t *params;            /* the kernel's parameter bytes (kparam_size) */
    uint32_t param_size;
    uint32_t slot;              /* its parameter buffer; EX_NONE once launched */
    bool launched;              /* LaunchDevice has taken it */
    bool started;               /* a driver has begun running it */
    uint8_t stream_kind;        /* ex_cdp_stream */
    uint64_t stream;            /* the handle it was launched into */
    uint32_t seq;               /* launch order within the tree, from 0 */
    uint32_t id;                /* launch id of the child grid */
    /* origin (host launches have depth 0 and no ex_cdp_launch) */
    uint32_t depth;             /* the parent's depth + 1 */
    uint32_t parent_id;         /* launch id of the parent grid */
    uint32_t parent_cta;        /* linear CTA id of the launching thread's CTA */
    uint32_t parent_thread;     /* linear thread id within that CTA */
    uint32_t parent_sm;         /* SM that CTA ran on (0 in functional mode) */
    uint64_t launch_cycle;      /* %clock of the launch: a core cycle in timing mode */
} ex_cdp_launch;

/* The device runtime of one host launch's tree. */
typedef struct ex_cdp {
    GPtrArray *launches;        /* ex_cdp_launch*, in the order made (owned) */
    GPtrArray *slots;           /* slot -> ex_cdp_launch* owning that buffer, or NULL */
    GArray *free_slots;         /* uint32_t */
    uint32_t pending;           /* launched, not yet started */
    uint32_t max_depth, pending_limit;
    uint32_t streams;           /* named streams created so far */
    uint32_t local_ids;         /* launch ids when the caller keeps none */
} ex_cdp;

/* Executes a device-runtime call (EX_BUILTIN_CDP) for the lanes in `mask`. */
void ex_cdp_call(ex_warp *w, const ex_call *c, uint32_t mask);
/* The device-runtime operation named `name` (a CDP_OP_*), or -1. */
int ex_cdp_op(const char *name);

/* Host pointer for `size` bytes at generic address `addr` inside a parameter
 * buffer of the warp's tree, or NULL (ex_addr's slow path). */
uint8_t *ex_cdp_buffer(ex_warp *w, uint64_t addr, unsigned size);

/* ---- functional order and the tree's lifetime (runtime/cdp_run.c) ---- */
/* Runs the grids L launched and, recursively, theirs (docs/cdp.md); false
 * with L->error set when one fails. */
bool ex_cdp_run_children(ex_launch *L);
/* A child grid's ex_launch from its record (kparams borrowed from it);
 * the inherited settings come from `parent`. */
void ex_cdp_child_launch(ex_launch *child, const ex_launch *parent, ex_cdp_launch *rec);
/* Frees L's record of its children, and the tree when L owns it. */
void ex_cdp_release(ex_launch *L);

#endif
