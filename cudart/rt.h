/* cudart/rt.h — the state of the drop-in CUDA runtime (libcudart.so.13).
 *
 * The CUDA runtime API has no handle: a program calls cudaMalloc, and the
 * runtime finds "the current device" itself.  So this library keeps ONE
 * process-wide runtime object, created on first use (rt_state.c); it is the
 * only global mutable state of ptxemu and exists because the interface it
 * implements demands it.  Every entry point brackets its work with
 * rt_enter / rt_leave, which hold a recursive lock (programs may call the
 * runtime from several threads) and record the call's error for
 * cudaGetLastError.
 *
 * Launches, async copies and memsets are queued on ptxemu's streams and run
 * when the host waits (rt_stream.c); synchronous calls wait for all queued
 * work first.  As in CUDA, an error inside a kernel (fault, trap, livelock)
 * is reported by the launch's later synchronising calls, and is sticky
 * until cudaDeviceReset. */
#ifndef PTXEMU_CUDART_RT_H
#define PTXEMU_CUDART_RT_H

#include "api/ptxemu.h"
#include "cudart/cuda_abi.h"
#include "timing/config.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Log levels of PTXEMU_LOG. */
typedef enum rt_log_level { RT_LOG_ERROR, RT_LOG_WARN, RT_LOG_INFO, RT_LOG_DEBUG } rt_log_level;

/* One registered fatbinary (one translation unit of the program). */
typedef struct rt_fatbin {
    const void *registered;      /* what __cudaRegisterFatBinary got */
    ptxemu_module *mod;          /* NULL when its PTX could not be loaded */
    uint32_t arch;               /* compute_XX of the PTX picked */
    cudaError_t load_error;      /* why mod is NULL */
    bool unregistered;
} rt_fatbin;

/* A kernel, keyed by its host stub's address (what <<<>>> passes). */
typedef struct rt_kernel {
    rt_fatbin *fb;
    char *name;                  /* mangled PTX entry name */
    /* cudaFuncSetAttribute (rt_launch.c); zero: not set */
    bool dyn_shared_set;         /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    int dyn_shared_max;
    bool carveout_set;           /* cudaFuncAttributePreferredSharedMemoryCarveout */
    int carveout;
    int non_portable_cluster;    /* cudaFuncAttributeNonPortableClusterSizeAllowed */
    int cluster_policy;          /* cudaFuncAttributeClusterSchedulingPolicyPreference */
} rt_kernel;

/* A __device__ / __constant__ variable, keyed by its host shadow's address. */
typedef struct rt_var {
    rt_fatbin *fb;
    char *name;
    size_t size;
    bool constant;
} rt_var;

/* A device range the program may name: a cudaMalloc block, or a module
 * variable whose address cudaGetSymbolAddress handed out. */
typedef struct rt_alloc {
    uint64_t size;
    bool symbol;                 /* not freeable */
} rt_alloc;

/* <<<grid, block, shared, stream>>> pushed by the host stub. */
typedef struct rt_call_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
} rt_call_config;

/* One launch, for PTXEMU_STATS in functional mode and the exit summary;
 * the counts are filled in when the launch has run. */
typedef struct rt_launch_record {
    const char *kernel;          /* owned by the rt_kernel */
    dim3 grid, block;
    uint64_t warp_instructions, thread_instructions;
    int status;                  /* cudaError_t of the launch */
    bool refused;                /* never queued (ptxemu refused it) */
} rt_launch_record;

typedef struct cudart {
    GRecMutex lock;
    /* environment (PTXEMU_*), read once */
    bool timing;
    char *config_name;           /* PTXEMU_CONFIG: preset or file; NULL = defaults */
    char **sets;                 /* PTXEMU_SET, NULL-terminated */
    char *stats_path;            /* PTXEMU_STATS */
    char *summary_path;          /* PTXEMU_SUMMARY (written by ptxemu exec's child) */
    char *keep_ptx_dir;          /* PTXEMU_KEEP_PTX: the program's PTX is written here */
    char *output_error;          /* the first output file that could not be written */
    rt_log_level log;
    /* the device */
    gpu_config cfg;              /* device properties come from here */
    ptxemu_ctx *ctx;             /* NULL when the set-up failed (init_error) */
    cudaError_t init_error;
    /* registrations */
    GPtrArray *fatbins;          /* rt_fatbin*, owned */
    GHashTable *kernels;         /* host stub -> rt_kernel* (owned) */
    GHashTable *vars;            /* host shadow -> rt_var* (owned) */
    GArray *config_stack;        /* rt_call_config */
    /* memory: live device ranges, base -> rt_alloc, for pointer kinds */
    GTree *allocs;
    uint64_t allocated;          /* bytes of cudaMalloc blocks live */
    GHashTable *host_allocs;     /* cudaMallocHost blocks -> size */
    GHashTable *host_registered; /* cudaHostRegister ranges: base -> size */
    GPtrArray *managed;          /* managed blocks and variables (rt_managed.c) */
    GHashTable *arrays;          /* ptxemu_array* -> rt_texture.c's record */
    GHashTable *tex_objects;     /* texture/surface handle -> its CUDA descriptors */
    /* errors */
    cudaError_t last_error;      /* cudaGetLastError */
    cudaError_t sticky;          /* a kernel's failure, until cudaDeviceReset */
    GHashTable *warned;          /* names of unsupported calls already reported */
    /* streams and events (rt_stream.c) */
    GHashTable *streams;         /* cudaStream_t handles created (owned) */
    GHashTable *events;          /* cudaEvent_t handles created (owned) */
    GHashTable *per_thread;      /* GThread* -> its cudaStreamPerThread stream */
    /* graphs and stream capture (rt_graph.c, rt_graph_exec.c, rt_capture.c) */
    GHashTable *graphs;          /* rt_graph* the program holds */
    GHashTable *gnodes;          /* rt_gnode* alive */
    GHashTable *graph_execs;     /* rt_graph_exec* */
    GHashTable *captures;        /* capture id -> rt_capture* (owned) */
    GHashTable *capture_of;      /* ptxemu_stream* -> rt_capture_stream* (owned) */
    uint64_t next_capture_id;
    /* stream-ordered allocation (rt_mempool.c) */
    GHashTable *pools;           /* rt_pool* created by the program, and the default one */
    void *default_pool, *current_pool;
    /* what ran */
    GArray *launches;            /* rt_launch_record, in launch order */
    guint launches_done;         /* records whose launch has run */
    uint64_t reset_cycles;       /* simulated cycles of contexts cudaDeviceReset dropped */
    int device;                  /* cudaSetDevice (only 0 exists) */
} cudart;

/* The runtime, locked; creates it (and the ptxemu context) on first use. */
cudart *rt_enter(void);
/* Records `err` as the last error when it is one, unlocks, returns it. */
cudaError_t rt_leave(cudart *rt, cudaError_t err);
/* Unlocks without touching the last error (cudaGetLastError itself). */
void rt_unlock(cudart *rt);

/* Prints "ptxemu: <message>" to stderr when `level` is enabled. */
void rt_log(const cudart *rt, rt_log_level level, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* cudaErrorNotSupported, naming `what` on stderr the first time. */
cudaError_t rt_unsupported(cudart *rt, const char *what);
/* The error a ptxemu status becomes; prints the context's message.  A
 * kernel's execution failure (from a launch or from any call that waited
 * for queued work) becomes the sticky error. */
cudaError_t rt_status(cudart *rt, ptxemu_status s, const char *call);

/* Simulated cycles of every launch so far. */
uint64_t rt_cycles(const cudart *rt);

/* Creates the ptxemu context and device again (cudaDeviceReset). */
void rt_reset(cudart *rt);

/* Bytes of physical memory of the host (page-locked memory must fit). */
uint64_t rt_host_memory(void);

/* Threads a block may have on the configured device (<= 1024). */
unsigned rt_max_threads_per_block(const cudart *rt);
/* Shared memory per block (rt_device.c): without opt-in (at most 48 KiB),
 * the system's reserved region (sm_80+: 1 KiB), and the opt-in maximum
 * (the SM's shared memory less the reserved region). */
size_t rt_shared_per_block(const cudart *rt);
size_t rt_shared_reserved(const cudart *rt);
size_t rt_shared_per_block_optin(const cudart *rt);

/* Whether [p, p+n) lies in one live device range (n = 0: p in one). */
bool rt_device_range(const cudart *rt, uint64_t p, size_t n);
/* The live range starting exactly at p, or NULL. */
rt_alloc *rt_alloc_at(const cudart *rt, uint64_t p);

#endif
