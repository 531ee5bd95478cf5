/* cudart/rt_stream.c — streams and events on ptxemu's asynchronous stream
 * API (api/ptxemu.h "streams"), which queues work and runs it when the
 * host waits: functionally one operation after another in issue order,
 * under PTXEMU_MODE=timing all queued work together on the timing model,
 * where kernels of different streams overlap in simulated time.
 *
 * Mapping: the NULL stream and cudaStreamLegacy are ptxemu's default
 * stream, which synchronises with every blocking stream as CUDA's legacy
 * default stream does; cudaStreamNonBlocking streams are ptxemu's
 * non-blocking streams; cudaStreamPerThread is one blocking stream per host
 * thread, created on first use.  cudaDeviceReset destroys every stream and
 * event with the context, as in CUDA.
 *
 * Queries never return cudaErrorNotReady: the host has no concurrency
 * with the emulator, so a query runs the queued work and then reports it
 * complete (a polling loop ends).  Event times are simulated (cycle the
 * event's work completed / clock.core) under timing and host wall-clock
 * time when the work ran in functional mode. */
#include "cudart/rt_stream.h"
#include "cudart/rt_graph.h"
#include "cudart/rt_mempool.h"

#define CUDART_EXPORT __attribute__((visibility("default")))

/* cudaStreamLegacy and cudaStreamPerThread (driver_types.h). */
#define STREAM_LEGACY ((cudaStream_t)0x1)
#define STREAM_PER_THREAD ((cudaStream_t)0x2)
/* cudaStreamNonBlocking, cudaEventDisableTiming (driver_types.h). */
#define STREAM_NON_BLOCKING 0x1u
#define EVENT_DISABLE_TIMING 0x2u

/* What a cudaStream_t points to. */
typedef struct rt_stream {
    ptxemu_stream *ps;
    unsigned flags;
    int priority;
} rt_stream;

/* What a cudaEvent_t points to. */
typedef struct rt_event {
    ptxemu_event *pe;
    unsigned flags;
    bool recorded;
    rt_capture_mark mark;        /* last recorded in a capturing stream (rt_capture.c) */
} rt_event;

static void event_free(gpointer p)
{
    rt_event *ev = p;
    if (ev->mark.nodes)
        g_ptr_array_free(ev->mark.nodes, TRUE);
    g_free(ev);
}

bool rt_stream_valid(const cudart *rt, cudaStream_t s)
{
    return !s || s == STREAM_LEGACY || s == STREAM_PER_THREAD ||
           g_hash_table_contains(rt->streams, s);
}

ptxemu_stream *rt_stream_of(cudart *rt, cudaStream_t s)
{
    if (!s || s == STREAM_LEGACY || !rt->ctx)
        return NULL;
    if (s == STREAM_PER_THREAD) {
        ptxemu_stream *ps = g_hash_table_lookup(rt->per_thread, g_thread_self());
        if (!ps && ptxemu_stream_create(rt->ctx, &ps) == PTXEMU_OK)
            g_hash_table_insert(rt->per_thread, g_thread_self(), ps);
        return ps;
    }
    return ((rt_stream *)s)->ps;
}

void rt_streams_reset(cudart *rt)
{
    /* the ptxemu streams and events go with the context */
    g_hash_table_remove_all(rt->streams);
    g_hash_table_remove_all(rt->events);
    g_hash_table_remove_all(rt->per_thread);
}

cudaError_t rt_wait(cudart *rt, ptxemu_status s, const char *call)
{
    if (!rt->ctx)
        return rt->init_error ? rt->init_error : cudaErrorInitializationError;
    cudaError_t e = rt_status(rt, s, call);
    if (s == PTXEMU_OK) /* all queued work has run: frees in stream order are complete */
        rt_pools_synced(rt);
    return rt->sticky ? rt->sticky : e;
}

CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio)
{
    cudart *rt = rt_enter();
    if (!s || (flags & ~STREAM_NON_BLOCKING))
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    rt_stream *st = g_new0(rt_stream, 1);
    st->flags = flags;
    /* CUDA clamps a priority to cudaDeviceGetStreamPriorityRange's range,
     * which is 0..0 here (priorities are not modelled) */
    (void)prio;
    st->priority = 0;
    ptxemu_status ps = flags & STREAM_NON_BLOCKING ? ptxemu_stream_create_nonblocking(rt->ctx, &st->ps)
                                                   : ptxemu_stream_create(rt->ctx, &st->ps);
    if (ps != PTXEMU_OK) {
        g_free(st);
        return rt_leave(rt, rt_status(rt, ps, "cudaStreamCreate"));
    }
    g_hash_table_add(rt->streams, st);
    *s = (cudaStream_t)st;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    return cudaStreamCreateWithPriority(s, flags, 0);
}

CUDART_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    return cudaStreamCreateWithPriority(s, 0, 0);
}

/* CUDA returns at once and lets the stream's work finish; running it now
 * is one valid schedule of that. */
CUDART_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    cudart *rt = rt_enter();
    rt_stream *st = s && g_hash_table_contains(rt->streams, s) ? (rt_stream *)s : NULL;
    if (!st)
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    rt_capture_stream_gone(rt, s);
    ptxemu_status ps = ptxemu_stream_destroy(rt->ctx, st->ps);
    g_hash_table_remove(rt->streams, st); /* frees st */
    return rt_leave(rt, rt_wait(rt, ps, "cudaStreamDestroy"));
}

static cudaError_t stream_wait(cudaStream_t s, const char *call)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    if (rt_capturing(rt, s)) { /* a capturing stream has nothing to wait for */
        rt_capture_invalidate(rt, s);
        rt_log(rt, RT_LOG_INFO, "%s on a capturing stream: not permitted "
               "(cudaErrorStreamCaptureUnsupported; the capture is invalidated)", call);
        return rt_leave(rt, cudaErrorStreamCaptureUnsupported);
    }
    cudaError_t e = rt_capture_legacy(rt, s, true);
    if (e)
        return rt_leave(rt, e);
    ptxemu_status ps = ptxemu_stream_synchronize(rt->ctx, rt_stream_of(rt, s));
    return rt_leave(rt, rt_wait(rt, ps, call));
}

CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    return stream_wait(s, "cudaStreamSynchronize");
}

CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s)
{
    return stream_wait(s, "cudaStreamQuery");
}

CUDART_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    cudart *rt = rt_enter();
    if (!flags)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    *flags = s && s != STREAM_LEGACY && s != STREAM_PER_THREAD ? ((rt_stream *)s)->flags : 0;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    cudart *rt = rt_enter();
    if (!priority)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    *priority = s && s != STREAM_LEGACY && s != STREAM_PER_THREAD ? ((rt_stream *)s)->priority
                                                                 : 0;
    return rt_leave(rt, cudaSuccess);
}

static rt_event *event_of(const cudart *rt, cudaEvent_t e)
{
    return e && g_hash_table_contains(rt->events, e) ? (rt_event *)e : NULL;
}

CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    (void)flags;
    cudart *rt = rt_enter();
    rt_event *ev = event_of(rt, e);
    if (!rt_stream_valid(rt, s) || !ev)
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    bool handled = false;
    cudaError_t err = rt_capture_wait(rt, s, &ev->mark, &handled);
    if (handled || err)
        return rt_leave(rt, err);
    if (!ev->recorded) /* waiting for an event never recorded waits for nothing */
        return rt_leave(rt, cudaSuccess);
    ptxemu_status ps = ptxemu_stream_wait_event(rt->ctx, rt_stream_of(rt, s), ev->pe);
    return rt_leave(rt, rt_status(rt, ps, "cudaStreamWaitEvent"));
}

CUDART_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    cudart *rt = rt_enter();
    if (!e || (flags & ~0xfu))
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    rt_event *ev = g_new0(rt_event, 1);
    ev->flags = flags;
    ptxemu_status ps = ptxemu_event_create(rt->ctx, &ev->pe);
    if (ps != PTXEMU_OK) {
        g_free(ev);
        return rt_leave(rt, rt_status(rt, ps, "cudaEventCreate"));
    }
    g_hash_table_add(rt->events, ev);
    *e = (cudaEvent_t)ev;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    return cudaEventCreateWithFlags(e, 0);
}

CUDART_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    cudart *rt = rt_enter();
    rt_event *ev = event_of(rt, e);
    if (!ev)
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    ptxemu_event_destroy(ev->pe);
    g_hash_table_remove(rt->events, ev); /* frees ev (event_free) */
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    cudart *rt = rt_enter();
    rt_event *ev = event_of(rt, e);
    if (!ev || !rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    cudaError_t err = rt_capture_begin_op(rt, s, &cg, &deps);
    if (err)
        return rt_leave(rt, err);
    /* in capture the record marks the stream's current node set (for
     * waits in the capture) and adds no node */
    rt_capture_record(rt, s, &ev->mark);
    if (cg)
        return rt_leave(rt, cudaSuccess);
    ptxemu_status ps = ptxemu_event_record(ev->pe, rt_stream_of(rt, s));
    ev->recorded = ev->recorded || ps == PTXEMU_OK;
    return rt_leave(rt, rt_status(rt, ps, "cudaEventRecord"));
}

CUDART_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags)
{
    (void)flags; /* cudaEventRecordExternal matters to graphs only */
    return cudaEventRecord(e, s);
}

/* An event never recorded is complete (CUDA: cudaSuccess). */
static cudaError_t event_wait(cudaEvent_t e, const char *call)
{
    cudart *rt = rt_enter();
    rt_event *ev = event_of(rt, e);
    if (!ev)
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    cudaError_t err = rt_capture_event_sync(rt, &ev->mark);
    if (err)
        return rt_leave(rt, err);
    if (!ev->recorded)
        return rt_leave(rt, rt->sticky);
    return rt_leave(rt, rt_wait(rt, ptxemu_event_synchronize(ev->pe), call));
}

CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    return event_wait(e, "cudaEventSynchronize");
}

CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e)
{
    return event_wait(e, "cudaEventQuery");
}

CUDART_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudart *rt = rt_enter();
    if (!ms)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_event *a = event_of(rt, start), *b = event_of(rt, end);
    if (!a || !b || !a->recorded || !b->recorded || ((a->flags | b->flags) & EVENT_DISABLE_TIMING))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    ptxemu_status ps = ptxemu_event_elapsed_ms(ms, a->pe, b->pe);
    return rt_leave(rt, rt_wait(rt, ps, "cudaEventElapsedTime"));
}

/* Host functions in a stream run after the stream's earlier work and
 * before its later work.  Here the call runs all queued work, then the
 * function: one valid schedule (under timing it ends the overlap of the
 * work queued so far with the work queued after).  A host function must
 * not call the CUDA API (CUDA's rule), so the lock is not held. */
typedef void (*rt_host_fn)(void *user);
typedef void (*rt_stream_callback)(cudaStream_t stream, cudaError_t status, void *user);

static cudaError_t host_work(cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    return rt_leave(rt, rt_wait(rt, ptxemu_synchronize(rt->ctx), "cudaLaunchHostFunc"));
}

/* The host function of a graph node (rt_graph_exec.c): as cudaLaunchHostFunc. */
cudaError_t rt_host_func(cudart *rt, cudaStream_t s, cudaHostFn_t fn, void *user)
{
    (void)rt;
    cudaError_t e = host_work(s);
    if (e == cudaSuccess)
        fn(user);
    return e;
}

CUDART_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, rt_host_fn fn, void *user)
{
    cudart *rt = rt_enter();
    if (!fn)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    cudaError_t e = rt_capture_begin_op(rt, s, &cg, &deps);
    if (e || cg) { /* captured: a host node */
        rt_gnode *n = NULL;
        if (!e && !(e = rt_graph_add(cg, cudaGraphNodeTypeHost,
                                     (const cudaGraphNode_t *)deps->pdata, deps->len, &n))) {
            n->p.host = (struct cudaHostNodeParams){fn, user};
            rt_capture_added(rt, s, n);
        }
        return rt_leave(rt, e);
    }
    rt_unlock(rt);
    e = host_work(s);
    if (e == cudaSuccess)
        fn(user);
    return e;
}

/* The callback runs even after a failure, with the error (CUDA's rule). */
CUDART_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, rt_stream_callback cb, void *user,
                                                unsigned flags)
{
    if (!cb || flags)
        return rt_leave(rt_enter(), cudaErrorInvalidValue);
    cudart *rt = rt_enter();
    if (rt_capturing(rt, s)) /* CUDA: use cudaLaunchHostFunc in graphs */
        return rt_leave(rt, rt_capture_refuse(rt, s, "cudaStreamAddCallback"));
    rt_unlock(rt);
    cudaError_t e = host_work(s);
    if (e == cudaErrorInvalidResourceHandle)
        return e;
    cb(s, e, user);
    return cudaSuccess;
}

/* Priorities: this device has none, which CUDA reports as 0 and 0. */
CUDART_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    cudart *rt = rt_enter();
    if (least)
        *least = 0;
    if (greatest)
        *greatest = 0;
    return rt_leave(rt, cudaSuccess);
}

/* Tables of rt.h: handles freed with them. */
void rt_streams_init(cudart *rt)
{
    rt->streams = g_hash_table_new_full(g_direct_hash, g_direct_equal, g_free, NULL);
    rt->events = g_hash_table_new_full(g_direct_hash, g_direct_equal, event_free, NULL);
    rt->per_thread = g_hash_table_new(g_direct_hash, g_direct_equal);
}
