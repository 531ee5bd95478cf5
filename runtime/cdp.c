/* runtime/cdp.c — the device-runtime calls of dynamic parallelism
 * (runtime/cdp.h): parameter buffers, device launches, device streams, and
 * clear errors for what CUDA 12 removed or ptxemu does not model yet. */
#include "runtime/cdp.h"
#include "runtime/warp.h"

#include <string.h>

enum {
    CDP_OP_PARAM_BUFFER_V2,   /* (func, dim3 grid, dim3 block, shmem) -> buffer */
    CDP_OP_PARAM_BUFFER,      /* (alignment, size) -> buffer (CDP1 style) */
    CDP_OP_LAUNCH_V2,         /* (buffer, stream) */
    CDP_OP_LAUNCH,            /* (func, buffer, grid, block, shmem, stream) */
    CDP_OP_STREAM_CREATE,     /* (cudaStream_t *, flags) */
    CDP_OP_STREAM_DESTROY,
    CDP_OP_GET_DEVICE,        /* (int *) */
    CDP_OP_GET_DEVICE_COUNT,  /* (int *) */
    CDP_OP_LAST_ERROR,        /* cudaGetLastError / cudaPeekAtLastError */
    CDP_OP_RUNTIME_VERSION,   /* (int *) */
    CDP_OP_SYNC_REMOVED,      /* cudaDeviceSynchronize: removed by CUDA 12 */
    CDP_OP_UNSUPPORTED,       /* a device-runtime call not modelled yet */
};

/* Named device streams get handles far from the special ones (0..4). */
#define CDP_STREAM_BASE 0x0000005300000000ull
/* Device launches of a tree whose caller keeps no id counter. */
#define CDP_LOCAL_ID_BASE (1u << 30)
/* cudaRuntimeGetVersion of the runtime nvcc 13 targets. */
#define CDP_RUNTIME_VERSION 13000

static const struct {
    const char *name; /* without the __cudaCDP2 prefix and the _ptsz suffix */
    int op;
} cdp_names[] = {
    {"cudaGetParameterBufferV2", CDP_OP_PARAM_BUFFER_V2},
    {"cudaGetParameterBuffer", CDP_OP_PARAM_BUFFER},
    {"cudaLaunchDeviceV2", CDP_OP_LAUNCH_V2},
    {"cudaLaunchDevice", CDP_OP_LAUNCH},
    {"cudaStreamCreateWithFlags", CDP_OP_STREAM_CREATE},
    {"cudaStreamDestroy", CDP_OP_STREAM_DESTROY},
    {"cudaGetDevice", CDP_OP_GET_DEVICE},
    {"cudaGetDeviceCount", CDP_OP_GET_DEVICE_COUNT},
    {"cudaGetLastError", CDP_OP_LAST_ERROR},
    {"cudaPeekAtLastError", CDP_OP_LAST_ERROR},
    {"cudaRuntimeGetVersion", CDP_OP_RUNTIME_VERSION},
    {"cudaDeviceSynchronize", CDP_OP_SYNC_REMOVED},
    {"cudaDeviceSynchronizeDeprecationAvoidance", CDP_OP_SYNC_REMOVED},
    {"cudaDeviceGetAttribute", CDP_OP_UNSUPPORTED},
    {"cudaDeviceGetLimit", CDP_OP_UNSUPPORTED},
    {"cudaDeviceGetCacheConfig", CDP_OP_UNSUPPORTED},
    {"cudaDeviceGetSharedMemConfig", CDP_OP_UNSUPPORTED},
    {"cudaGetErrorString", CDP_OP_UNSUPPORTED},
    {"cudaGetErrorName", CDP_OP_UNSUPPORTED},
    {"cudaStreamWaitEvent", CDP_OP_UNSUPPORTED},
    {"cudaEventCreateWithFlags", CDP_OP_UNSUPPORTED},
    {"cudaEventRecord", CDP_OP_UNSUPPORTED},
    {"cudaEventRecordWithFlags", CDP_OP_UNSUPPORTED},
    {"cudaEventDestroy", CDP_OP_UNSUPPORTED},
    {"cudaFuncGetAttributes", CDP_OP_UNSUPPORTED},
    {"cudaMalloc", CDP_OP_UNSUPPORTED},
    {"cudaFree", CDP_OP_UNSUPPORTED},
    {"cudaMemcpyAsync", CDP_OP_UNSUPPORTED},
    {"cudaMemcpy2DAsync", CDP_OP_UNSUPPORTED},
    {"cudaMemcpy3DAsync", CDP_OP_UNSUPPORTED},
    {"cudaMemsetAsync", CDP_OP_UNSUPPORTED},
    {"cudaMemset2DAsync", CDP_OP_UNSUPPORTED},
    {"cudaMemset3DAsync", CDP_OP_UNSUPPORTED},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", CDP_OP_UNSUPPORTED},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", CDP_OP_UNSUPPORTED},
    {"cudaGraphLaunch", CDP_OP_UNSUPPORTED},
};

int ex_cdp_op(const char *name)
{
    char buf[96];
    bool cdp2 = g_str_has_prefix(name, "__cudaCDP2");
    if (cdp2)
        g_snprintf(buf, sizeof buf, "cuda%s", name + strlen("__cudaCDP2"));
    else
        g_strlcpy(buf, name, sizeof buf);
    if (g_str_has_suffix(buf, "_ptsz"))
        buf[strlen(buf) - 5] = '\0';
    for (size_t i = 0; i < G_N_ELEMENTS(cdp_names); i++)
        if (!strcmp(buf, cdp_names[i].name))
            return cdp_names[i].op;
    /* a CDP2 entry point newer than this table */
    return cdp2 ? CDP_OP_UNSUPPORTED : -1;
}

/* ------------------------------------------------------------ arguments */

/* Copies up to n bytes of argument i (a .param variable or a register). */
static void arg_bytes(ex_warp *w, const ex_call *c, unsigned i, unsigned lane, void *dst,
                      uint32_t n)
{
    memset(dst, 0, n);
    if (i >= c->nargs)
        return;
    if (c->arg_offsets[i] == EX_NONE) {
        uint64_t v = w->r[c->arg_sizes[i]][lane];
        memcpy(dst, &v, n < 8 ? n : 8);
        return;
    }
    uint32_t size = c->arg_sizes[i] < n ? c->arg_sizes[i] : n;
    memcpy(dst, w->stack + (gsize)lane * w->stack_cap + w->fp + c->arg_offsets[i], size);
}

static uint64_t arg_u64(ex_warp *w, const ex_call *c, unsigned i, unsigned lane)
{
    uint64_t v = 0;
    uint32_t n = 8;
    if (i < c->nargs && c->arg_offsets[i] != EX_NONE && c->arg_sizes[i] < 8)
        n = c->arg_sizes[i];
    arg_bytes(w, c, i, lane, &v, n);
    return v;
}

static void set_ret(ex_warp *w, const ex_call *c, unsigned lane, uint64_t v)
{
    if (c->nrets == 0)
        return;
    if (c->ret_offsets[0] == EX_NONE) {
        w->r[c->ret_sizes[0]][lane] = v;
        return;
    }
    uint32_t n = c->ret_sizes[0] < 8 ? c->ret_sizes[0] : 8;
    memcpy(w->stack + (gsize)lane * w->stack_cap + w->fp + c->ret_offsets[0], &v, n);
}

/* Stores `n` bytes through a generic pointer argument (cudaStream_t *, int *). */
static bool store_out(ex_warp *w, unsigned lane, uint64_t addr, const void *v, unsigned n)
{
    uint8_t *p = ex_addr(w, NULL, EX_SPACE_GENERIC, addr, n, (int)lane, true);
    if (!p)
        return false;
    memcpy(p, v, n);
    return true;
}

/* ---------------------------------------------------------------- tree */

static ex_cdp *tree_of(ex_launch *L)
{
    if (L->cdp)
        return L->cdp;
    ex_cdp *t = g_new0(ex_cdp, 1);
    t->launches = g_ptr_array_new();
    t->slots = g_ptr_array_new();
    t->free_slots = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    t->max_depth = L->cdp_max_depth ? L->cdp_max_depth : EX_CDP_DEFAULT_MAX_DEPTH;
    t->pending_limit = L->cdp_pending_limit ? L->cdp_pending_limit : EX_CDP_DEFAULT_PENDING;
    t->local_ids = CDP_LOCAL_ID_BASE;
    L->cdp = t;
    L->cdp_owner = true;
    return t;
}

/* A fresh parameter buffer of `size` bytes; its generic address, or 0 with
 * a fault. */
static uint64_t buffer_new(ex_warp *w, unsigned lane, const ex_func *kernel, uint32_t size)
{
    if (size > EX_CDP_SLOT_BYTES) {
        ex_fault(w, (int)lane, "device launch: a parameter buffer of %u bytes exceeds %u",
                 size, EX_CDP_SLOT_BYTES);
        return 0;
    }
    ex_cdp *t = tree_of(w->launch);
    uint32_t slot;
    if (t->free_slots->len) {
        slot = g_array_index(t->free_slots, uint32_t, t->free_slots->len - 1);
        g_array_set_size(t->free_slots, t->free_slots->len - 1);
    } else if (t->slots->len < EX_CDP_SLOTS) {
        slot = t->slots->len;
        g_ptr_array_add(t->slots, NULL);
    } else {
        ex_fault(w, (int)lane, "not supported yet: more than %u device-launch parameter "
                 "buffers taken and not launched at once", EX_CDP_SLOTS);
        return 0;
    }
    ex_cdp_launch *r = g_new0(ex_cdp_launch, 1);
    r->kernel = kernel;
    r->param_size = size;
    r->params = g_malloc0(size ? size : 1);
    r->slot = slot;
    t->slots->pdata[slot] = r;
    return MEM_CDP_WINDOW + (uint64_t)slot * EX_CDP_SLOT_BYTES;
}

uint8_t *ex_cdp_buffer(ex_warp *w, uint64_t addr, unsigned size)
{
    const ex_cdp *t = w->launch->cdp;
    uint64_t off = addr - MEM_CDP_WINDOW;
    if (!t || off >= MEM_WINDOW_SIZE)
        return NULL;
    uint64_t slot = off / EX_CDP_SLOT_BYTES, in = off % EX_CDP_SLOT_BYTES;
    if (slot >= t->slots->len)
        return NULL;
    ex_cdp_launch *r = t->slots->pdata[slot];
    if (!r || in + size > r->param_size)
        return NULL;
    return r->params + in;
}

/* The kernel a function address names; NULL with a fault. */
static const ex_func *kernel_at(ex_warp *w, unsigned lane, uint64_t v)
{
    const ex_module *m = w->launch->mod;
    uint64_t idx = (v - EX_FUNC_ADDR_BASE) / 16;
    if (v < EX_FUNC_ADDR_BASE || (v - EX_FUNC_ADDR_BASE) % 16 || idx >= m->nfuncs ||
        !m->funcs[idx].is_entry) {
        ex_fault(w, (int)lane, "device launch of 0x%llx, which is not a kernel (.entry) of "
                 "this module", (unsigned long long)v);
        return NULL;
    }
    const ex_func *f = &m->funcs[idx];
    if (!f->has_body) {
        ex_fault(w, (int)lane, "not supported yet: device launch of '%s', which this module "
                 "only declares (.extern .entry)", f->name);
        return NULL;
    }
    return f;
}

static bool check_shape(ex_warp *w, unsigned lane, const ex_func *k, const uint32_t g[3],
                        const uint32_t b[3])
{
    uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
    if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2] || threads > 1024 || b[2] > 64 ||
        g[1] > 65535 || g[2] > 65535) {
        ex_fault(w, (int)lane, "device launch of '%s' with grid (%u,%u,%u) and block (%u,%u,%u): "
                 "an invalid configuration (cudaErrorInvalidConfiguration)", k->name, g[0], g[1],
                 g[2], b[0], b[1], b[2]);
        return false;
    }
    return true;
}

/* The launch record owning the buffer at `addr`; NULL with a fault. */
static ex_cdp_launch *buffer_owner(ex_warp *w, unsigned lane, uint64_t addr)
{
    const ex_cdp *t = w->launch->cdp;
    uint64_t off = addr - MEM_CDP_WINDOW;
    ex_cdp_launch *r = NULL;
    if (t && off < MEM_WINDOW_SIZE && off % EX_CDP_SLOT_BYTES == 0 &&
        off / EX_CDP_SLOT_BYTES < t->slots->len)
        r = t->slots->pdata[off / EX_CDP_SLOT_BYTES];
    if (!r)
        ex_fault(w, (int)lane, "device launch with parameter buffer 0x%llx, which is not a "
                 "buffer from cudaGetParameterBuffer waiting to be launched",
                 (unsigned long long)addr);
    return r;
}

static bool classify_stream(ex_warp *w, unsigned lane, ex_cdp *t, uint64_t s, uint8_t *kind)
{
    if (s == 0 || s == 1 || s == 2) /* NULL, legacy, per-thread: the implicit stream */
        *kind = EX_CDP_STREAM_NULL;
    else if (s == EX_CDP_STREAM_TAIL_HANDLE)
        *kind = EX_CDP_STREAM_TAIL;
    else if (s == EX_CDP_STREAM_FIRE_HANDLE)
        *kind = EX_CDP_STREAM_FIRE;
    else if (s > CDP_STREAM_BASE && s <= CDP_STREAM_BASE + t->streams)
        *kind = EX_CDP_STREAM_NAMED;
    else {
        ex_fault(w, (int)lane, "device launch into stream 0x%llx, which is not a device "
                 "stream (cudaErrorInvalidResourceHandle)", (unsigned long long)s);
        return false;
    }
    return true;
}

/* LaunchDevice: checks the limits, records the origin, hands the launch to
 * the driver. */
static bool launch(ex_warp *w, unsigned lane, ex_cdp_launch *r, uint64_t stream)
{
    ex_launch *L = w->launch;
    ex_cdp *t = tree_of(L);
    uint8_t kind;
    if (!classify_stream(w, lane, t, stream, &kind))
        return false;
    uint32_t depth = (L->origin ? L->origin->depth : 0) + 1;
    if (depth > t->max_depth) {
        ex_fault(w, (int)lane, "device launch of '%s' at nesting depth %u exceeds cdp.max_depth "
                 "= %u (cudaErrorLaunchMaxDepthExceeded)", r->kernel->name, depth, t->max_depth);
        return false;
    }
    if (t->pending >= t->pending_limit) {
        ex_fault(w, (int)lane, "device launch of '%s': %u launches already pending, the limit "
                 "cdp.pending_launches = %u (cudaErrorLaunchPendingCountExceeded)",
                 r->kernel->name, t->pending, t->pending_limit);
        return false;
    }
    t->slots->pdata[r->slot] = NULL;
    g_array_append_val(t->free_slots, r->slot);
    r->slot = EX_NONE;
    r->launched = true;
    r->stream_kind = kind;
    r->stream = stream;
    r->seq = t->launches->len;
    r->id = L->cdp_next_id ? ++*L->cdp_next_id : t->local_ids++;
    r->depth = depth;
    r->parent_id = L->launch_id;
    r->parent_cta = w->cta->linear_id;
    r->parent_thread = ex_thread_linear(w, lane);
    r->parent_sm = L->smid;
    r->launch_cycle = L->cycle_source ? *L->cycle_source : L->clock;
    g_ptr_array_add(t->launches, r);
    if (!L->cdp_kids)
        L->cdp_kids = g_ptr_array_new();
    g_ptr_array_add(L->cdp_kids, r);
    t->pending++;
    const char *why = NULL;
    if (L->on_device_launch && !L->on_device_launch(L->device_launch_user, L, r, &why)) {
        ex_fault(w, (int)lane, "device launch of '%s': %s", r->kernel->name,
                 why ? why : "the driver refused it");
        return false;
    }
    return true;
}

static void read_dim3(ex_warp *w, const ex_call *c, unsigned i, unsigned lane, uint32_t d[3])
{
    arg_bytes(w, c, i, lane, d, 12);
}

/* One lane's call; false when it faulted. */
static bool call_lane(ex_warp *w, const ex_call *c, unsigned l)
{
    ex_launch *L = w->launch;
    switch (c->cdp_op) {
    case CDP_OP_PARAM_BUFFER_V2: {
        const ex_func *k = kernel_at(w, l, arg_u64(w, c, 0, l));
        uint32_t g[3], b[3];
        read_dim3(w, c, 1, l, g);
        read_dim3(w, c, 2, l, b);
        if (!k || !check_shape(w, l, k, g, b))
            return false;
        uint64_t buf = buffer_new(w, l, k, k->kparam_size);
        if (!buf)
            return false;
        ex_cdp_launch *r = L->cdp->slots->pdata[(buf - MEM_CDP_WINDOW) / EX_CDP_SLOT_BYTES];
        memcpy(r->grid, g, sizeof g);
        memcpy(r->block, b, sizeof b);
        r->dyn_shared = (uint32_t)arg_u64(w, c, 3, l);
        set_ret(w, c, l, buf);
        return true;
    }
    case CDP_OP_PARAM_BUFFER: {
        uint64_t size = arg_u64(w, c, 1, l);
        uint64_t buf = buffer_new(w, l, NULL, size > EX_CDP_SLOT_BYTES ? UINT32_MAX
                                                                        : (uint32_t)size);
        if (!buf)
            return false;
        set_ret(w, c, l, buf);
        return true;
    }
    case CDP_OP_LAUNCH_V2: {
        ex_cdp_launch *r = buffer_owner(w, l, arg_u64(w, c, 0, l));
        if (!r)
            return false;
        if (!r->kernel) {
            ex_fault(w, (int)l, "cudaLaunchDeviceV2 with a buffer from cudaGetParameterBuffer, "
                     "which names no kernel: use cudaLaunchDevice");
            return false;
        }
        if (!launch(w, l, r, arg_u64(w, c, 1, l)))
            return false;
        set_ret(w, c, l, 0);
        return true;
    }
    case CDP_OP_LAUNCH: {
        const ex_func *k = kernel_at(w, l, arg_u64(w, c, 0, l));
        ex_cdp_launch *r = k ? buffer_owner(w, l, arg_u64(w, c, 1, l)) : NULL;
        uint32_t g[3], b[3];
        read_dim3(w, c, 2, l, g);
        read_dim3(w, c, 3, l, b);
        if (!r || !check_shape(w, l, k, g, b))
            return false;
        if (r->param_size < k->kparam_size) { /* the buffer holds the parameters we read */
            r->params = g_realloc(r->params, k->kparam_size);
            memset(r->params + r->param_size, 0, k->kparam_size - r->param_size);
            r->param_size = k->kparam_size;
        }
        r->kernel = k;
        memcpy(r->grid, g, sizeof g);
        memcpy(r->block, b, sizeof b);
        r->dyn_shared = (uint32_t)arg_u64(w, c, 4, l);
        if (!launch(w, l, r, arg_u64(w, c, 5, l)))
            return false;
        set_ret(w, c, l, 0);
        return true;
    }
    case CDP_OP_STREAM_CREATE: {
        ex_cdp *t = tree_of(L);
        uint64_t h = CDP_STREAM_BASE + ++t->streams;
        if (!store_out(w, l, arg_u64(w, c, 0, l), &h, 8))
            return false;
        set_ret(w, c, l, 0);
        return true;
    }
    case CDP_OP_STREAM_DESTROY: {
        /* work already in the stream still runs (CUDA: destroy is deferred) */
        ex_cdp *t = tree_of(L);
        uint8_t kind;
        if (!classify_stream(w, l, t, arg_u64(w, c, 0, l), &kind))
            return false;
        set_ret(w, c, l, 0);
        return true;
    }
    case CDP_OP_GET_DEVICE:
    case CDP_OP_GET_DEVICE_COUNT:
    case CDP_OP_RUNTIME_VERSION: {
        int32_t v = c->cdp_op == CDP_OP_GET_DEVICE ? 0
                    : c->cdp_op == CDP_OP_GET_DEVICE_COUNT ? 1 : CDP_RUNTIME_VERSION;
        if (!store_out(w, l, arg_u64(w, c, 0, l), &v, 4))
            return false;
        set_ret(w, c, l, 0);
        return true;
    }
    case CDP_OP_LAST_ERROR:
        /* every device-runtime error stops the launch here, so none is left */
        set_ret(w, c, l, 0);
        return true;
    case CDP_OP_SYNC_REMOVED:
        ex_fault(w, (int)l, "cudaDeviceSynchronize() in device code: CUDA 12 removed "
                 "device-side synchronisation with child grids (CDP2), and ptxemu runs the "
                 "CDP2 model; wait for children with a tail launch (cudaStreamTailLaunch) or a "
                 "later kernel instead (docs/cdp.md)");
        return false;
    default:
        break;
    }
    ex_fault(w, (int)l, "not supported yet: device-runtime call '%s' (docs/cdp.md lists the "
             "supported ones)", w->launch->mod->funcs[c->callee].name);
    return false;
}

void ex_cdp_call(ex_warp *w, const ex_call *c, uint32_t mask)
{
    /* every calling thread makes its own call, in lane order */
    EX_LANES(mask, l, {
        if (!call_lane(w, c, l))
            return;
    });
}
