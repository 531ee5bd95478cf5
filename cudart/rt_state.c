/* cudart/rt_state.c — the process-wide runtime object of the drop-in
 * libcudart (see rt.h for why there is one): configuration from the
 * environment (PTXEMU_CONFIG, PTXEMU_MODE, PTXEMU_SET, PTXEMU_STATS,
 * PTXEMU_LOG), the ptxemu context, error bookkeeping, and what is written
 * when the program exits (functional-mode statistics, the summary that
 * `ptxemu exec` prints). */
#include "cudart/rt.h"
#include "cudart/rt_managed.h"
#include "cudart/rt_output.h"
#include "cudart/rt_stream.h"
#include "cudart/rt_texture.h"
#include "cudart/rt_graph.h"
#include "cudart/rt_mempool.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static cudart *the_runtime;
static GOnce runtime_once = G_ONCE_INIT;

static void rt_kernel_free(gpointer p)
{
    rt_kernel *k = p;
    g_free(k->name);
    g_free(k);
}

static void rt_var_free(gpointer p)
{
    rt_var *v = p;
    g_free(v->name);
    g_free(v);
}

static gint cmp_addr(gconstpointer a, gconstpointer b, gpointer user)
{
    (void)user;
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static rt_log_level parse_log(const char *s)
{
    if (!s || !*s)
        return RT_LOG_WARN;
    static const char *const names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; i++)
        if (!g_ascii_strcasecmp(s, names[i]))
            return (rt_log_level)i;
    fprintf(stderr, "ptxemu: PTXEMU_LOG=%s: expected error, warn, info or debug; using warn\n", s);
    return RT_LOG_WARN;
}

/* Reads PTXEMU_*; a bad value leaves the runtime without a device
 * (init_error) and says which variable and value. */
static void read_environment(cudart *rt)
{
    const char *mode = g_getenv("PTXEMU_MODE");
    rt->log = parse_log(g_getenv("PTXEMU_LOG"));
    if (mode && *mode && strcmp(mode, "functional") && strcmp(mode, "timing")) {
        rt_log(rt, RT_LOG_ERROR, "PTXEMU_MODE=%s: expected functional or timing", mode);
        rt->init_error = cudaErrorInitializationError;
    }
    rt->timing = mode && !strcmp(mode, "timing");
    const char *cfg = g_getenv("PTXEMU_CONFIG");
    rt->config_name = cfg && *cfg ? g_strdup(cfg) : NULL;
    const char *sets = g_getenv("PTXEMU_SET");
    rt->sets = sets && *sets ? g_strsplit(sets, ";", -1) : g_new0(char *, 1);
    const char *stats = g_getenv("PTXEMU_STATS");
    rt->stats_path = stats && *stats ? g_strdup(stats) : NULL;
    const char *summary = g_getenv("PTXEMU_SUMMARY");
    rt->summary_path = summary && *summary ? g_strdup(summary) : NULL;
    const char *keep = g_getenv("PTXEMU_KEEP_PTX");
    rt->keep_ptx_dir = keep && *keep ? g_strdup(keep) : NULL;
}

/* A launch has run (ptxemu calls this in launch order): its record's counts. */
static void launch_done(void *user, uint64_t warp, uint64_t thread)
{
    cudart *rt = user;
    while (rt->launches_done < rt->launches->len &&
           g_array_index(rt->launches, rt_launch_record, rt->launches_done).refused)
        rt->launches_done++;
    if (rt->launches_done >= rt->launches->len)
        return;
    rt_launch_record *r = &g_array_index(rt->launches, rt_launch_record, rt->launches_done++);
    r->warp_instructions = warp;
    r->thread_instructions = thread;
    rt_log(rt, RT_LOG_INFO, "launch %u: %s grid (%u,%u,%u) block (%u,%u,%u): %llu warp "
           "instructions", rt->launches_done, r->kernel, r->grid.x, r->grid.y, r->grid.z,
           r->block.x, r->block.y, r->block.z, (unsigned long long)warp);
}

/* Whether the program's config asks for a per-launch instruction limit:
 * limits.max_warp_instructions in PTXEMU_SET (ptxemu exec --set), or a
 * config file (PTXEMU_CONFIG) whose value differs from the default. */
static bool instr_limit_given(const cudart *rt)
{
    for (char *const *s = rt->sets; *s; s++) {
        const char *k = *s;
        while (g_ascii_isspace(*k))
            k++;
        if (g_str_has_prefix(k, "limits.max_warp_instructions"))
            return true;
    }
    gpu_config *d = g_new(gpu_config, 1);
    gpu_config_defaults(d);
    bool differs = d->limits.max_warp_instructions != rt->cfg.limits.max_warp_instructions;
    g_free(d);
    return differs;
}

/* The device: config (props), then the context (execution). */
static void make_device(cudart *rt)
{
    GError *err = NULL;
    bool good = rt->config_name ? gpu_config_load_preset(rt->config_name, &rt->cfg, &err)
                                : (gpu_config_defaults(&rt->cfg), true);
    if (good)
        good = gpu_config_apply_overrides(&rt->cfg, (const char *const *)rt->sets, &err);
    if (!good) {
        rt_log(rt, RT_LOG_ERROR, "PTXEMU_CONFIG/PTXEMU_SET: %s", err->message);
        g_clear_error(&err);
        rt->init_error = cudaErrorInitializationError;
        gpu_config_defaults(&rt->cfg);
    }
    if (rt->init_error)
        return;
    ptxemu_options o = {0};
    o.timing = rt->timing;
    o.timing_config = rt->config_name;
    o.timing_set = (const char *const *)rt->sets;
    o.stats_path = rt->timing ? rt->stats_path : NULL;
    o.device_memory = rt->cfg.limits.device_memory;
    /* A CUDA program's kernels may run long, so unless the config asks for
     * one there is no per-launch instruction limit (UINT64_MAX is never
     * reached); a kernel that spins without progress is still stopped by
     * the livelock detector, and under timing limits.max_cycles applies. */
    o.max_warp_instructions = instr_limit_given(rt) ? rt->cfg.limits.max_warp_instructions
                                                    : UINT64_MAX;
    o.max_cycles = rt->cfg.limits.max_cycles;
    o.host_threads = rt->cfg.sim.host_threads;
    o.race_check = rt->cfg.check.races ? 1 : -1; /* check.races (--race-check) */
    o.on_launch_done = launch_done;
    o.on_launch_done_user = rt;
    ptxemu_status s = ptxemu_ctx_create(&rt->ctx, &o);
    if (s != PTXEMU_OK) {
        rt_log(rt, RT_LOG_ERROR, "cannot create the emulated device: %s", ptxemu_last_error(rt->ctx));
        ptxemu_ctx_destroy(rt->ctx);
        rt->ctx = NULL;
        rt->init_error = cudaErrorInitializationError;
        return;
    }
    rt_log(rt, RT_LOG_INFO, "device: %s, %s mode, compute capability %u.%u", rt->cfg.gpu.name,
           rt->timing ? "timing" : "functional", rt->cfg.gpu.compute_capability / 10,
           rt->cfg.gpu.compute_capability % 10);
}

static gpointer create_runtime(gpointer unused)
{
    (void)unused;
    cudart *rt = g_new0(cudart, 1);
    g_rec_mutex_init(&rt->lock);
    read_environment(rt);
    rt->fatbins = g_ptr_array_new();
    rt->kernels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, rt_kernel_free);
    rt->vars = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, rt_var_free);
    rt->config_stack = g_array_new(FALSE, FALSE, sizeof(rt_call_config));
    rt->allocs = g_tree_new_full(cmp_addr, NULL, g_free, g_free);
    rt->host_allocs = g_hash_table_new(g_direct_hash, g_direct_equal);
    rt->host_registered = g_hash_table_new(g_direct_hash, g_direct_equal);
    rt->warned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    rt_streams_init(rt);
    rt_graphs_init(rt);
    rt_captures_init(rt);
    rt_pools_init(rt);
    rt->launches = g_array_new(FALSE, FALSE, sizeof(rt_launch_record));
    rt->arrays = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    rt->tex_objects = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    rt_managed_init(rt);
    make_device(rt);
    the_runtime = rt;
    return rt;
}

cudart *rt_enter(void)
{
    cudart *rt = g_once(&runtime_once, create_runtime, NULL);
    g_rec_mutex_lock(&rt->lock);
    return rt;
}

cudaError_t rt_leave(cudart *rt, cudaError_t err)
{
    if (err != cudaSuccess)
        rt->last_error = err;
    g_rec_mutex_unlock(&rt->lock);
    return err;
}

void rt_unlock(cudart *rt)
{
    g_rec_mutex_unlock(&rt->lock);
}

void rt_log(const cudart *rt, rt_log_level level, const char *fmt, ...)
{
    if (level > rt->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxemu: %s\n", msg);
    g_free(msg);
}

cudaError_t rt_unsupported(cudart *rt, const char *what)
{
    if (!g_hash_table_contains(rt->warned, what)) {
        g_hash_table_add(rt->warned, g_strdup(what));
        fprintf(stderr, "ptxemu: not supported yet: %s (returns cudaErrorNotSupported)\n", what);
    }
    return cudaErrorNotSupported;
}

/* A failed launch's message says what went wrong; CUDA has one code each. */
static cudaError_t launch_failure(const char *msg)
{
    if (strstr(msg, "assertion"))
        return cudaErrorAssert;
    if (strstr(msg, "misaligned"))
        return cudaErrorMisalignedAddress;
    if (strstr(msg, "trap") || strstr(msg, "deadlock"))
        return cudaErrorLaunchFailure;
    if (strstr(msg, "livelock") || strstr(msg, "limit"))
        return cudaErrorLaunchTimeout;
    return cudaErrorIllegalAddress;
}

cudaError_t rt_status(cudart *rt, ptxemu_status s, const char *call)
{
    if (s == PTXEMU_OK)
        return cudaSuccess;
    const char *msg = ptxemu_last_error(rt->ctx);
    /* a location in the program's PTX names a file that exists only with
     * PTXEMU_KEEP_PTX (rt_register.c) */
    bool located = (s == PTXEMU_ERR_LAUNCH_FAILED || s == PTXEMU_ERR_PARSE ||
                    s == PTXEMU_ERR_UNSUPPORTED) && !rt->keep_ptx_dir && strstr(msg, ".ptx:");
    rt_log(rt, RT_LOG_WARN, "%s: %s%s", call, msg,
           located ? " (rerun with `ptxemu exec --keep-ptx DIR`, or PTXEMU_KEEP_PTX=DIR, to "
                     "get the PTX this location refers to)"
                   : "");
    if (s == PTXEMU_ERR_LAUNCH_FAILED) {
        /* asynchronous and sticky in CUDA; the launches not run fail with it */
        cudaError_t e = launch_failure(msg);
        rt->sticky = rt->last_error = e;
        for (guint i = rt->launches_done ? rt->launches_done - 1 : 0; i < rt->launches->len; i++)
            g_array_index(rt->launches, rt_launch_record, i).status = e;
        rt->launches_done = rt->launches->len;
        return e;
    }
    switch (s) {
    case PTXEMU_OK: return cudaSuccess;
    case PTXEMU_ERR_INVALID_VALUE:
    case PTXEMU_ERR_INVALID_ADDRESS: return cudaErrorInvalidValue;
    case PTXEMU_ERR_PARSE: return cudaErrorInvalidPtx;
    case PTXEMU_ERR_UNSUPPORTED: return cudaErrorNotSupported;
    case PTXEMU_ERR_NOT_FOUND: return cudaErrorInvalidSymbol;
    case PTXEMU_ERR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case PTXEMU_ERR_LAUNCH_RESOURCES: return cudaErrorLaunchOutOfResources;
    case PTXEMU_ERR_LAUNCH_FAILED: return launch_failure(msg);
    case PTXEMU_ERR_IO: /* an output file (statistics): the exec summary says so too */
        rt_output_failed(rt, msg);
        return cudaErrorUnknown;
    case PTXEMU_ERR_NOT_READY: return cudaErrorNotReady;
    }
    return cudaErrorUnknown;
}

bool rt_device_range(const cudart *rt, uint64_t p, size_t n)
{
    /* the greatest base <= p */
    uint64_t key = p;
    GTreeNode *node = g_tree_upper_bound(rt->allocs, &key);
    node = node ? g_tree_node_previous(node) : g_tree_node_last(rt->allocs);
    if (!node)
        return false;
    uint64_t base = *(uint64_t *)g_tree_node_key(node);
    uint64_t size = ((rt_alloc *)g_tree_node_value(node))->size;
    return p - base < size && size - (p - base) >= n;
}

rt_alloc *rt_alloc_at(const cudart *rt, uint64_t p)
{
    return g_tree_lookup(rt->allocs, &p);
}

uint64_t rt_host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

uint64_t rt_cycles(const cudart *rt)
{
    ptxemu_counters c = {0};
    if (rt->ctx)
        ptxemu_get_counters(rt->ctx, &c);
    return rt->reset_cycles + c.cycles;
}

void rt_reset(cudart *rt)
{
    /* modules, streams, events and arrays go with the context:
     * registrations reload their PTX; work still queued is dropped, as in
     * CUDA */
    rt->reset_cycles = rt_cycles(rt);
    rt_captures_reset(rt);
    rt_streams_reset(rt);
    rt_pools_reset(rt);
    rt_texture_reset(rt);
    rt->launches_done = rt->launches->len;
    ptxemu_ctx_destroy(rt->ctx);
    rt->ctx = NULL;
    g_tree_remove_all(rt->allocs);
    rt->allocated = 0;
    g_hash_table_remove_all(rt->host_registered); /* they belonged to the context */
    rt->sticky = rt->last_error = cudaSuccess;
    g_array_set_size(rt->config_stack, 0);
    if (rt->init_error == cudaSuccess)
        make_device(rt);
    rt_reload_fatbins(rt);
    rt_managed_reset(rt);
}

/* At exit: functional-mode statistics, the summary, then everything. */
__attribute__((destructor)) static void runtime_fini(void)
{
    cudart *rt = the_runtime;
    if (!rt)
        return;
    g_rec_mutex_lock(&rt->lock);
    /* work the program never waited for is not run: its copies could write
     * into host memory that no longer exists (a returned main's stack) */
    if (rt->stats_path && !rt->timing)
        rt_write_functional_stats(rt);
    if (rt->summary_path)
        rt_write_summary(rt);
    g_rec_mutex_unlock(&rt->lock);
}
