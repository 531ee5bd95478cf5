/* api/api.c — the public host API (api/ptxemu.h) over the parser,
 * loader, device memory and the launch drivers (functional, or the timing
 * model of timing/gpu.h when the context asks for it); device memory and
 * symbols are in api/memory.c. */
#include "api/ptxemu.h"
#include "frontend/parser.h"
#include "runtime/cdp.h"
#include "runtime/launch.h"
#include "runtime/loader.h"
#include "runtime/par_class.h"
#include "api/api_ctx.h"
#include "api/api_internal.h"
#include "timing/gpu.h"
#include "timing/outfile.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_LIVELOCK_LIMIT 100000000ull
#define DEFAULT_STACK_LIMIT (64u * 1024u)

ptxemu_status api_fail(ptxemu_ctx *ctx, ptxemu_status s, const char *fmt, ...)
{
    if (!ctx)
        return s;
    va_list ap;
    va_start(ap, fmt);
    g_string_vprintf(ctx->error, fmt, ap);
    va_end(ap);
    ptx_message_shorten(ctx->error);
    return s;
}

ptxemu_status api_ok(ptxemu_ctx *ctx)
{
    g_string_truncate(ctx->error, 0);
    return PTXEMU_OK;
}

const char *ptxemu_status_string(ptxemu_status s)
{
    switch (s) {
    case PTXEMU_OK: return "success";
    case PTXEMU_ERR_INVALID_VALUE: return "invalid value";
    case PTXEMU_ERR_PARSE: return "PTX parse error";
    case PTXEMU_ERR_UNSUPPORTED: return "not supported yet";
    case PTXEMU_ERR_NOT_FOUND: return "not found";
    case PTXEMU_ERR_OUT_OF_MEMORY: return "out of device memory";
    case PTXEMU_ERR_INVALID_ADDRESS: return "invalid device address";
    case PTXEMU_ERR_LAUNCH_RESOURCES: return "too many resources requested for launch";
    case PTXEMU_ERR_LAUNCH_FAILED: return "launch failed";
    case PTXEMU_ERR_IO: return "I/O error";
    case PTXEMU_ERR_NOT_READY: return "not ready";
    }
    return "unknown status";
}

/* The timing model of a context: config (preset or defaults), then the
 * scheduler shorthands, then every override; one message on failure. */
static bool timing_setup(ptxemu_ctx *c, const ptxemu_options *o)
{
    gpu_config cfg;
    GError *err = NULL;
    bool good = true;
    if (o->timing_config)
        good = gpu_config_load_preset(o->timing_config, &cfg, &err);
    else
        gpu_config_defaults(&cfg);
    GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
    if (o->warp_sched)
        g_ptr_array_add(sets, g_strdup_printf("warp.policy=%s", o->warp_sched));
    if (o->cta_sched)
        g_ptr_array_add(sets, g_strdup_printf("cta.policy=%s", o->cta_sched));
    if (o->step_every_cycle)
        g_ptr_array_add(sets, g_strdup("sim.step_every_cycle=true"));
    for (unsigned i = 0; o->timing_set && o->timing_set[i]; i++)
        g_ptr_array_add(sets, g_strdup(o->timing_set[i]));
    g_ptr_array_add(sets, NULL);
    if (good)
        good = gpu_config_apply_overrides(&cfg, (const char *const *)sets->pdata, &err);
    g_ptr_array_free(sets, TRUE);
    tm_options to = {0};
    to.trace = o->sched_trace;
    to.csv_dir = o->trace_csv_dir;
    to.csv_interval = o->trace_interval;
    to.regs_per_thread = o->regs_per_thread;
    to.host_threads = o->host_threads ? o->host_threads : cfg.sim.host_threads;
    if (good)
        c->gpu = tm_gpu_create(&cfg, &to, &err);
    if (!c->gpu) {
        g_string_printf(c->error, "%s", err ? err->message : "timing model set-up failed");
        g_clear_error(&err);
        c->opts.timing = 0;
        return false;
    }
    c->stats_path = g_strdup(o->stats_path);
    c->stats_json = g_string_new(NULL);
    return true;
}

/* Options win over the config's [limits]; without a timing model the
 * config defaults apply. */
static void apply_limits(ptxemu_ctx *c)
{
    gpu_config *def = NULL;
    const gpu_config *cfg = c->gpu ? tm_gpu_config(c->gpu) : NULL;
    if (!cfg) {
        def = g_new(gpu_config, 1);
        gpu_config_defaults(def);
        cfg = def;
    }
    if (!c->opts.device_memory)
        c->opts.device_memory = cfg->limits.device_memory;
    if (!c->opts.max_warp_instructions)
        c->opts.max_warp_instructions = cfg->limits.max_warp_instructions;
    if (!c->opts.max_cycles)
        c->opts.max_cycles = cfg->limits.max_cycles;
    if (!c->opts.max_seconds)
        c->opts.max_seconds = cfg->limits.max_seconds;
    if (!c->opts.progress_seconds)
        c->opts.progress_seconds = cfg->limits.progress_seconds;
    if (!c->opts.malloc_heap)
        c->opts.malloc_heap = cfg->limits.malloc_heap;
    if (!c->opts.host_threads)
        c->opts.host_threads = cfg->sim.host_threads;
    c->mem.limit = c->opts.device_memory;
    c->cdp_max_depth = c->opts.cdp_max_depth ? c->opts.cdp_max_depth : cfg->cdp.max_depth;
    c->cdp_pending = c->opts.cdp_pending_launches ? c->opts.cdp_pending_launches
                                                  : cfg->cdp.pending_launches;
    c->device_launch_ids = 1u << 30;
    c->mem.heap_size = c->opts.malloc_heap;
    c->its_mode = cfg->warp.its;
    c->race_check = c->opts.race_check > 0 || (c->opts.race_check == 0 && cfg->check.races);
    if (c->race_check && c->gpu) {
        fprintf(stderr, "ptxemu: check.races (--race-check) checks functional runs only; "
                        "ignored under the timing model\n");
        c->race_check = false;
    }
    g_free(def);
}

ptxemu_status ptxemu_ctx_create(ptxemu_ctx **out, const ptxemu_options *opts)
{
    if (!out)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_ctx *c = g_new0(ptxemu_ctx, 1);
    mem_init(&c->mem);
    if (opts)
        c->opts = *opts;
    if (!c->opts.livelock_limit)
        c->opts.livelock_limit = DEFAULT_LIVELOCK_LIMIT;
    c->error = g_string_new(NULL);
    c->modules = g_ptr_array_new();
    api_queue_init(c);
    /* the caller's strings need not outlive this call */
    c->opts.timing_config = NULL;
    c->opts.timing_set = NULL;
    c->opts.warp_sched = c->opts.cta_sched = NULL;
    c->opts.stats_path = c->opts.trace_csv_dir = NULL;
    *out = c;
    if (opts && opts->timing && !timing_setup(c, opts))
        return PTXEMU_ERR_INVALID_VALUE;
    apply_limits(c);
    return PTXEMU_OK;
}

static void module_free(ptxemu_module *m)
{
    ex_module_free(m->ex);
    ptx_module_free(m->ir);
    g_free(m);
}

void ptxemu_ctx_destroy(ptxemu_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->lanes) /* host lanes left on: their threads are gone by now */
        ptxemu_lanes_end(ctx);
    api_queue_destroy(ctx); /* queued work that nobody waited for is dropped */
    for (guint i = 0; i < ctx->modules->len; i++)
        module_free(g_ptr_array_index(ctx->modules, i));
    g_ptr_array_free(ctx->modules, TRUE);
    tm_gpu_destroy(ctx->gpu);
    g_free(ctx->stats_path);
    if (ctx->stats_json)
        g_string_free(ctx->stats_json, TRUE);
    api_arrays_free(ctx);
    if (ctx->serial_noted)
        g_hash_table_destroy(ctx->serial_noted);
    mem_destroy(&ctx->mem);
    g_string_free(ctx->error, TRUE);
    g_free(ctx->race_report);
    g_free(ctx);
}

const char *ptxemu_race_report(const ptxemu_ctx *ctx)
{
    return ctx ? ctx->race_report : NULL;
}

const char *ptxemu_last_error(const ptxemu_ctx *ctx)
{
    return ctx ? ctx->error->str : "no context";
}

void ptxemu_get_counters(const ptxemu_ctx *ctx, ptxemu_counters *out)
{
    if (ctx && out) {
        *out = ctx->counters;
        out->device_peak_bytes = ctx->mem.peak;
    }
}

/* ---------------------------------------------------------------- modules */

static ptxemu_status load_ir(ptxemu_ctx *ctx, ptx_module *ir, ptxemu_module **out)
{
    GPtrArray *unsupported = g_ptr_array_new_with_free_func(g_free);
    GError *err = NULL;
    ex_module *ex = ex_module_load_ex(ir, &ctx->mem, unsupported, &err);
    if (ex && ctx->gpu && /* the modelled GPU's shared memory per SM */
        !ex_module_check_shared(ex, tm_gpu_config(ctx->gpu)->core.shared_mem,
                                "per SM (core.shared_mem)", &err)) {
        ex_module_free(ex);
        ex = NULL;
    }
    if (!ex) {
        ptxemu_status s = api_fail(ctx, PTXEMU_ERR_PARSE, "%s", err ? err->message : "load failed");
        g_clear_error(&err);
        g_ptr_array_free(unsupported, TRUE);
        ptx_module_free(ir);
        return s;
    }
    if (unsupported->len) {
        GString *msg = g_string_new(NULL);
        for (guint i = 0; i < unsupported->len && i < 20; i++)
            g_string_append_printf(msg, "%s%s", i ? "\n" : "",
                                   (const char *)g_ptr_array_index(unsupported, i));
        if (unsupported->len > 20)
            g_string_append_printf(msg, "\n... and %u more", unsupported->len - 20);
        api_fail(ctx, PTXEMU_ERR_UNSUPPORTED, "%s", msg->str);
        g_string_free(msg, TRUE);
        g_ptr_array_free(unsupported, TRUE);
        ex_module_free(ex);
        ptx_module_free(ir);
        return PTXEMU_ERR_UNSUPPORTED;
    }
    g_ptr_array_free(unsupported, TRUE);
    ptxemu_module *m = g_new0(ptxemu_module, 1);
    m->ctx = ctx;
    m->ir = ir;
    m->ex = ex;
    g_ptr_array_add(ctx->modules, m);
    *out = m;
    return api_ok(ctx);
}

ptxemu_status ptxemu_module_load_string(ptxemu_ctx *ctx, const char *ptx, const char *name,
                                        ptxemu_module **out)
{
    if (!ctx || !ptx || !out)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "module_load_string: NULL argument");
    GError *err = NULL;
    ptx_module *ir = ptx_parse_string(ptx, strlen(ptx), name ? name : "<string>", &err);
    if (!ir) {
        ptxemu_status s = api_fail(ctx, PTXEMU_ERR_PARSE, "%s", err->message);
        g_error_free(err);
        return s;
    }
    return load_ir(ctx, ir, out);
}

ptxemu_status ptxemu_module_load_file(ptxemu_ctx *ctx, const char *path, ptxemu_module **out)
{
    if (!ctx || !path || !out)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "module_load_file: NULL argument");
    GError *err = NULL;
    ptx_module *ir = ptx_parse_file(path, &err);
    if (!ir) {
        ptxemu_status s = api_fail(ctx, err->code == PTX_PARSE_ERROR_IO ? PTXEMU_ERR_IO : PTXEMU_ERR_PARSE,
                               "%s", err->message);
        g_error_free(err);
        return s;
    }
    return load_ir(ctx, ir, out);
}

ex_module *ptxemu_module_ex(ptxemu_module *mod)
{
    return mod ? mod->ex : NULL;
}

void ptxemu_module_unload(ptxemu_module *mod)
{
    if (!mod)
        return;
    api_queue_drain(mod->ctx); /* queued launches may use it */
    g_ptr_array_remove(mod->ctx->modules, mod);
    module_free(mod);
}

/* ----------------------------------------------------------------- launch */

#define MAX_SHARED_BYTES (228u * 1024u)

/* A 64-bit hash of every allocation (address, size, bytes), chained onto
 * `h`: equal digests mean equal memory after equal launch sequences. */
static uint64_t memory_digest(const dev_memory *m, uint64_t h)
{
    const uint64_t k = 0x9e3779b97f4a7c15ull;
    h ^= 0xcbf29ce484222325ull;
    for (guint i = 0; i < m->allocs->len; i++) {
        const mem_alloc *a = &g_array_index(m->allocs, mem_alloc, i);
        h = (h ^ a->base) * k;
        h = (h ^ a->size) * k;
        uint64_t n = a->size / 8, w;
        for (uint64_t j = 0; j < n; j++) {
            memcpy(&w, a->data + j * 8, 8);
            h = ((h ^ w) * k) ^ (h >> 29);
        }
        for (uint64_t j = n * 8; j < a->size; j++)
            h = ((h ^ a->data[j]) * k) ^ (h >> 29);
    }
    return h;
}

/* Checks a launch and builds its ex_launch (kparams allocated here). */
ptxemu_status api_launch_prepare(ptxemu_ctx *ctx, const ptxemu_launch_desc *d, ex_launch *L,
                                 uint32_t launch_id)
{
    ptxemu_module *mod = d->mod;
    const char *kernel = d->kernel;
    ptxemu_dim3 grid = d->grid, block = d->block;
    size_t dyn_shared = d->dynamic_shared_bytes;
    void **args = d->args;
    if (!mod || !kernel)
        return PTXEMU_ERR_INVALID_VALUE;
    ex_func *k = g_hash_table_lookup(mod->ex->kernels, kernel);
    if (!k) {
        /* `.extern .entry k(...)` declares a kernel another module defines */
        for (uint32_t i = 0; i < mod->ex->nfuncs; i++) {
            const ex_func *f = &mod->ex->funcs[i];
            if (f->is_entry && !f->has_body && strcmp(f->name, kernel) == 0)
                return api_fail(ctx, PTXEMU_ERR_NOT_FOUND, "%s:%u:%u: kernel '%s' is only declared "
                            "(.extern .entry): not supported yet: linking it from another "
                            "module", mod->ir->source_name, f->ir->loc.line, f->ir->loc.col,
                            kernel);
        }
        return api_fail(ctx, PTXEMU_ERR_NOT_FOUND, "no kernel (.entry) named '%s' in %s", kernel,
                    mod->ir->source_name);
    }
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch of '%s': grid and block dimensions "
                    "must be at least 1", kernel);
    if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        return api_fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': block (%u,%u,%u) exceeds "
                    "1024 threads or the per-dimension limits (1024,1024,64)", kernel, block.x,
                    block.y, block.z);
    if (grid.y > 65535 || grid.z > 65535)
        return api_fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': grid (%u,%u,%u) exceeds "
                    "65535 in y or z", kernel, grid.x, grid.y, grid.z);
    const ptx_perf *perf = &k->ir->perf;
    if (perf->has_reqntid && (block.x != perf->reqntid[0] || block.y != perf->reqntid[1] ||
                              block.z != perf->reqntid[2]))
        return api_fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': .reqntid %u,%u,%u requires "
                    "that block shape", kernel, perf->reqntid[0], perf->reqntid[1], perf->reqntid[2]);
    if (perf->has_maxntid &&
        threads > (uint64_t)perf->maxntid[0] * perf->maxntid[1] * perf->maxntid[2])
        return api_fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': %llu threads exceed "
                    ".maxntid", kernel, (unsigned long long)threads);
    if (k->shared_static + dyn_shared > MAX_SHARED_BYTES)
        return api_fail(ctx, PTXEMU_ERR_LAUNCH_RESOURCES, "launch of '%s': %zu bytes of shared memory "
                    "exceed %u", kernel, k->shared_static + dyn_shared, MAX_SHARED_BYTES);
    if (k->nparams && !args)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch of '%s': it takes %u parameters but "
                    "args is NULL", kernel, k->nparams);

    uint8_t *kparams = g_malloc0(k->kparam_size ? k->kparam_size : 1);
    for (uint32_t i = 0; i < k->nparams; i++) {
        if (!args[i]) {
            g_free(kparams);
            return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch of '%s': args[%u] is NULL",
                        kernel, i);
        }
        memcpy(kparams + k->param_offsets[i], args[i], k->param_sizes[i]);
    }
    memset(L, 0, sizeof *L);
    L->mod = mod->ex;
    L->kernel = k;
    L->mem = &ctx->mem;
    L->grid[0] = grid.x;
    L->grid[1] = grid.y;
    L->grid[2] = grid.z;
    L->block[0] = block.x;
    L->block[1] = block.y;
    L->block[2] = block.z;
    L->dyn_shared = (uint32_t)dyn_shared;
    L->kparams = kparams;
    L->kparam_size = k->kparam_size;
    L->printf_out = ctx->opts.printf_stream;
    L->livelock_limit = ctx->opts.livelock_limit;
    L->its = ctx->opts.its > 0 ||
             (ctx->opts.its == 0 && (ctx->its_mode == GPU_ITS_ON ||
                                     (ctx->its_mode == GPU_ITS_AUTO &&
                                      api_target_sm(mod->ir->target) >= 70)));
    L->max_warp_instrs = ctx->opts.max_warp_instructions;
    L->host_threads = ctx->gpu ? 1 : ctx->opts.host_threads;
    L->race_check = ctx->race_check;
    L->max_cycles = ctx->opts.max_cycles;
    L->max_seconds = ctx->opts.max_seconds;
    L->progress_seconds = ctx->opts.progress_seconds;
    L->stack_limit = DEFAULT_STACK_LIMIT;
    L->launch_id = launch_id;
    L->nsmid = 1;
    L->cdp_max_depth = ctx->cdp_max_depth;
    L->cdp_pending_limit = ctx->cdp_pending;
    L->cdp_next_id = &ctx->device_launch_ids;
    return PTXEMU_OK;
}

/* The SM number of a module's .target ("sm_90a, ..." -> 90; 0 if none). */
unsigned api_target_sm(const char *target)
{
    const char *p = target ? strstr(target, "sm_") : NULL;
    return p ? (unsigned)strtoul(p + 3, NULL, 10) : 0;
}

void api_note_serial(ptxemu_ctx *ctx, const ex_launch *L)
{
    if (L->host_threads < 2 || (uint64_t)L->grid[0] * L->grid[1] * L->grid[2] < 2)
        return;
    const char *why = ex_launch_serial_why(L);
    if (!why)
        return;
    if (!ctx->serial_noted)
        ctx->serial_noted = g_hash_table_new(g_direct_hash, g_direct_equal);
    if (!g_hash_table_add(ctx->serial_noted, (gpointer)L->kernel))
        return;
    fprintf(stderr, "ptxemu: kernel '%s' runs its CTAs on one thread: %s\n", L->kernel->name,
            why);
}

void api_launch_release(ex_launch *L)
{
    ex_cdp_release(L); /* the device launches' tree (runtime/cdp.h) */
    if (L->grid_ws)
        mem_free(L->mem, L->grid_ws);
    L->grid_ws = 0;
    g_free(L->kparams);
    L->kparams = NULL;
    if (L->error)
        g_string_free(L->error, TRUE);
    L->error = NULL;
    if (L->race_report)
        g_string_free(L->race_report, TRUE);
    L->race_report = NULL;
}

/* Functional order of a batch: by arrival, ties in submission order. */
typedef struct batch_order {
    uint64_t arrival;
    unsigned index;
} batch_order;

static int cmp_order(const void *a, const void *b)
{
    const batch_order *x = a, *y = b;
    if (x->arrival != y->arrival)
        return x->arrival < y->arrival ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

ptxemu_status ptxemu_launch_batch(ptxemu_ctx *ctx, const ptxemu_launch_desc *descs,
                                  unsigned n)
{
    return api_launch_batch(ctx, descs, n, false);
}

ptxemu_status api_launch_batch(ptxemu_ctx *ctx, const ptxemu_launch_desc *descs, unsigned n,
                               bool cooperative)
{
    if (!ctx || (n && !descs))
        return PTXEMU_ERR_INVALID_VALUE;
    WAIT_QUEUE(ctx); /* a synchronous launch waits for queued work */
    gint64 t0 = g_get_monotonic_time();
    struct timespec c0;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    ex_launch *Ls = g_new0(ex_launch, n ? n : 1);
    ptxemu_status st = PTXEMU_OK;
    unsigned prepared = 0;
    for (unsigned i = 0; i < n && st == PTXEMU_OK; i++) {
        const ptxemu_launch_desc *d = &descs[i];
        if (d->mod && d->mod->ctx != ctx)
            st = api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch %u: its module belongs to "
                      "another context", i);
        else if (d->append_to >= (int)i || d->append_to < -1)
            st = api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch %u: append_to = %d must name an "
                      "earlier launch of the batch", i, d->append_to);
        else
            st = api_launch_prepare(ctx, d, &Ls[i], (uint32_t)(ctx->counters.launches + 1 + i));
        if (st == PTXEMU_OK && cooperative)
            st = api_coop_prepare(ctx, d, &Ls[i]);
        if (st == PTXEMU_OK)
            prepared++;
    }
    GError *err = NULL;
    bool good = st == PTXEMU_OK;
    if (good && ctx->gpu) {
        tm_submit *subs = g_new0(tm_submit, n ? n : 1);
        for (unsigned i = 0; i < n; i++)
            subs[i] = (tm_submit){.L = &Ls[i], .arrival = descs[i].arrival,
                                  .append_to = descs[i].append_to};
        uint64_t c0 = tm_gpu_cycle(ctx->gpu);
        good = tm_gpu_run_at(ctx->gpu, subs, n, &err);
        ctx->counters.cycles += tm_gpu_cycle(ctx->gpu) - c0;
        g_free(subs);
    } else if (good) {
        batch_order *ord = g_new(batch_order, n ? n : 1);
        for (unsigned i = 0; i < n; i++)
            ord[i] = (batch_order){descs[i].arrival, i};
        qsort(ord, n, sizeof *ord, cmp_order);
        for (unsigned i = 0; i < n && good; i++) {
            api_note_serial(ctx, &Ls[ord[i].index]);
            good = ex_launch_run(&Ls[ord[i].index], &err);
        }
        g_free(ord);
    }
    /* the launch times end here: the memory digest (options.memory_digest)
     * that api_launches_done may hash is not part of them */
    ctx->counters.launch_seconds += (double)(g_get_monotonic_time() - t0) / 1e6;
    struct timespec c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    ctx->counters.launch_cpu_seconds +=
        (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
    if (st == PTXEMU_OK)
        api_launches_done(ctx, Ls, n);
    for (unsigned i = 0; i < prepared; i++)
        api_launch_release(&Ls[i]);
    g_free(Ls);
    if (st != PTXEMU_OK)
        return st;
    if (!good) {
        ptxemu_status s = api_fail(ctx, PTXEMU_ERR_LAUNCH_FAILED, "%s", err->message);
        g_error_free(err);
        return s;
    }
    return api_run_finished(ctx);
}

void api_launches_done(ptxemu_ctx *ctx, ex_launch *Ls, unsigned n)
{
    ctx->counters.launches += n;
    for (unsigned i = 0; i < n; i++) {
        ctx->counters.warp_instructions += Ls[i].warp_instrs;
        ctx->counters.thread_instructions += Ls[i].thread_instrs;
        if (Ls[i].race_report) {
            fprintf(stderr, "ptxemu: %s\n", Ls[i].race_report->str);
            ctx->counters.races++;
            g_free(ctx->race_report);
            ctx->race_report = g_strdup(Ls[i].race_report->str);
        }
        if (ctx->opts.on_launch_done)
            ctx->opts.on_launch_done(ctx->opts.on_launch_done_user, Ls[i].warp_instrs,
                                     Ls[i].thread_instrs);
    }
    if (ctx->opts.memory_digest)
        ctx->counters.memory_digest = memory_digest(&ctx->mem, ctx->counters.memory_digest);
}

ptxemu_status api_run_finished(ptxemu_ctx *ctx)
{
    GError *err = NULL;
    if (ctx->gpu && ctx->stats_path) {
        const char *json = ptxemu_timing_stats_json(ctx);
        if (!out_file_write_all(ctx->stats_path, json, strlen(json), &err)) {
            ptxemu_status s = api_fail(ctx, PTXEMU_ERR_IO, "statistics: %s", err->message);
            g_error_free(err);
            return s;
        }
    }
    return api_ok(ctx);
}

ptxemu_status ptxemu_launch(ptxemu_module *mod, const char *kernel, ptxemu_dim3 grid,
                            ptxemu_dim3 block, size_t dyn_shared, void **args)
{
    if (!mod || !kernel)
        return PTXEMU_ERR_INVALID_VALUE;
    if (mod->ctx->lanes) { /* a lane's launch runs beside the other lanes' */
        ptxemu_status s = ptxemu_launch_async(mod, kernel, grid, block, dyn_shared, args,
                                              api_lane_stream(mod->ctx));
        return s != PTXEMU_OK ? s : api_queue_drain(mod->ctx);
    }
    ptxemu_launch_desc d = {mod, kernel, grid, block, dyn_shared, args, 0, -1};
    return ptxemu_launch_batch(mod->ctx, &d, 1);
}

ptxemu_status ptxemu_synchronize(ptxemu_ctx *ctx)
{
    return ctx ? api_queue_drain(ctx) : PTXEMU_ERR_INVALID_VALUE;
}

/* ----------------------------------------------------------------- timing */

const tm_stats *ptxemu_timing_stats(const ptxemu_ctx *ctx)
{
    return ctx && ctx->gpu ? tm_gpu_stats(ctx->gpu) : NULL;
}

const gpu_config *ptxemu_timing_config(const ptxemu_ctx *ctx)
{
    return ctx && ctx->gpu ? tm_gpu_config(ctx->gpu) : NULL;
}

const char *ptxemu_timing_stats_json(ptxemu_ctx *ctx)
{
    if (!ctx || !ctx->gpu)
        return NULL;
    g_string_truncate(ctx->stats_json, 0);
    tm_stats_write_json(tm_gpu_stats(ctx->gpu), tm_gpu_config(ctx->gpu), ctx->stats_json);
    return ctx->stats_json->str;
}

ptxemu_status ptxemu_get_timing_summary(const ptxemu_ctx *ctx, ptxemu_timing_summary *out)
{
    if (!ctx || !out || !ctx->gpu)
        return PTXEMU_ERR_INVALID_VALUE;
    const gpu_config *cfg = tm_gpu_config(ctx->gpu);
    const tm_stats *st = tm_gpu_stats(ctx->gpu);
    tm_run_totals t;
    tm_stats_totals(st, &t);
    memset(out, 0, sizeof *out);
    out->gpu = cfg->gpu.name;
    out->warp_sched = gpu_config_choice_name(sched_names_warp, cfg->warp.policy);
    out->cta_sched = gpu_config_choice_name(sched_names_cta, cfg->cta.policy);
    out->num_sms = cfg->gpu.num_sms;
    out->warp_schedulers = cfg->core.warp_schedulers;
    out->issue_width = cfg->core.issue_width;
    out->dispatch_interval = cfg->core.dispatch_interval;
    out->kernels = st->kernels->len;
    out->cycles = t.cycles;
    out->warp_instructions = t.warp_instrs;
    out->thread_instructions = t.thread_instrs;
    out->ipc = tm_ratio(t.warp_instrs, t.cycles);
    const tm_sched_counters *s = &t.core.sched;
    out->issue_slots = s->slots;
    out->issued = s->issued;
    out->idle_no_warp = s->idle_no_warp;
    out->idle_scoreboard = s->idle_scoreboard;
    out->idle_pipeline = s->idle_pipeline;
    out->scoreboard_alu = s->sb_alu;
    out->scoreboard_mem = s->sb_mem;
    out->pipeline_alu = s->pipe_alu;
    out->pipeline_mem = s->pipe_mem;
    const tm_mem_counters *m = &t.mem;
    out->l1_hit_rate = tm_ratio(m->l1_hits, m->l1_hits + m->l1_misses);
    out->l2_hit_rate = tm_ratio(m->l2_hits, m->l2_hits + m->l2_misses);
    out->dram_row_hit_rate = tm_ratio(m->dram_row_hits, m->dram_row_hits + m->dram_row_misses);
    out->amat = tm_ratio(m->latency_sum, m->latency_count);
    return PTXEMU_OK;
}

void ptxemu_print_timing_summary(const ptxemu_ctx *ctx, FILE *out)
{
    ptxemu_timing_summary s;
    if (ptxemu_get_timing_summary(ctx, &s) != PTXEMU_OK)
        return;
    double peak = (double)s.num_sms * s.warp_schedulers * s.issue_width / s.dispatch_interval;
    double slots = s.issue_slots ? (double)s.issue_slots / 100.0 : 1.0;
    fprintf(out, "timing: %s, %u SMs, warp scheduler %s, CTA scheduler %s\n", s.gpu,
            s.num_sms, s.warp_sched, s.cta_sched);
    fprintf(out, "  cycles %llu, IPC %.3f (peak %.1f), %llu kernel%s\n",
            (unsigned long long)s.cycles, s.ipc, peak, (unsigned long long)s.kernels,
            s.kernels == 1 ? "" : "s");
    tm_stats_print_sample(tm_gpu_stats(ctx->gpu), out); /* sample.mode = on only */
    fprintf(out, "  L1 hit rate %.1f%%, L2 hit rate %.1f%%, DRAM row-hit rate %.1f%%, "
                 "AMAT %.1f cycles\n", 100 * s.l1_hit_rate, 100 * s.l2_hit_rate,
            100 * s.dram_row_hit_rate, s.amat);
    fprintf(out, "  issue slots: issued %.1f%%, no warp %.1f%%, scoreboard %.1f%% "
                 "(ALU %.1f%%, MEM %.1f%%), pipeline %.1f%% (ALU %.1f%%, MEM %.1f%%)\n",
            s.issued / slots, s.idle_no_warp / slots, s.idle_scoreboard / slots,
            s.scoreboard_alu / slots, s.scoreboard_mem / slots, s.idle_pipeline / slots,
            s.pipeline_alu / slots, s.pipeline_mem / slots);
}
