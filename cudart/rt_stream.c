/* cudart/rt_stream.c — streams and events, synchronously.
 *
 * Why this is correct CUDA semantics: CUDA promises that the work of one
 * stream runs in issue order and that work of different streams MAY run
 * concurrently, never that it must.  Every call of this runtime finishes
 * its work before it returns, which is one valid schedule of any program
 * (all streams serialised in host issue order).  So a stream is a handle,
 * cudaStreamSynchronize/Query and cudaEventSynchronize/Query have nothing
 * to wait for (they report a kernel's sticky error), and cudaStreamWaitEvent
 * is already satisfied.  What is NOT modelled: concurrent kernels in the
 * timing model (the concurrent-kernels work of the C API), and programs
 * that rely on two streams making progress at once (a kernel spinning on a
 * flag that a later stream's work sets would livelock and be stopped).
 *
 * Event times: under PTXEMU_MODE=timing an event records the simulated
 * time (cycles of every launch so far / clock.core), so cudaEventElapsedTime
 * gives simulated milliseconds, deterministically; in functional mode there
 * is no device clock and it gives host wall-clock milliseconds. */
#include "cudart/rt_stream.h"

#define CUDART_EXPORT __attribute__((visibility("default")))

/* cudaStreamLegacy and cudaStreamPerThread (driver_types.h). */
#define STREAM_LEGACY ((cudaStream_t)0x1)
#define STREAM_PER_THREAD ((cudaStream_t)0x2)

typedef struct rt_event {
    bool recorded;
    double ms;
} rt_event;

bool rt_stream_valid(const cudart *rt, cudaStream_t s)
{
    return !s || s == STREAM_LEGACY || s == STREAM_PER_THREAD ||
           g_hash_table_contains(rt->streams, s);
}

void rt_stream_advance(cudart *rt, cudaStream_t s, uint64_t cycles)
{
    (void)s; /* one in-order device: every stream shares the clock */
    rt->device_cycles += cycles;
}

static double now_ms(const cudart *rt)
{
    if (rt->timing)
        return (double)rt->device_cycles / (rt->cfg.clock.core * 1000.0);
    return (double)g_get_monotonic_time() / 1000.0;
}

CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio)
{
    (void)flags, (void)prio;
    cudart *rt = rt_enter();
    if (!s)
        return rt_leave(rt, cudaErrorInvalidValue);
    *s = g_malloc0(1); /* a unique handle */
    g_hash_table_add(rt->streams, *s);
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

CUDART_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!s || !g_hash_table_remove(rt->streams, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    g_free(s);
    return rt_leave(rt, cudaSuccess);
}

static cudaError_t stream_wait(cudaStream_t s)
{
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    return rt_leave(rt, rt->sticky);
}

CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) { return stream_wait(s); }
CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) { return stream_wait(s); }

CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    (void)flags;
    cudart *rt = rt_enter();
    if (!rt_stream_valid(rt, s) || !g_hash_table_contains(rt->events, e))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    return rt_leave(rt, rt->sticky);
}

CUDART_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    cudart *rt = rt_enter();
    if (!e)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_event *ev = g_new0(rt_event, 1);
    *e = (cudaEvent_t)ev;
    g_hash_table_insert(rt->events, ev, ev);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    return cudaEventCreateWithFlags(e, 0);
}

CUDART_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    cudart *rt = rt_enter();
    if (!e || !g_hash_table_remove(rt->events, e))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    cudart *rt = rt_enter();
    rt_event *ev = e ? g_hash_table_lookup(rt->events, e) : NULL;
    if (!ev || !rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    ev->recorded = true;
    ev->ms = now_ms(rt);
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags)
{
    (void)flags;
    return cudaEventRecord(e, s);
}

static cudaError_t event_wait(cudaEvent_t e)
{
    cudart *rt = rt_enter();
    if (!e || !g_hash_table_contains(rt->events, e))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    return rt_leave(rt, rt->sticky);
}

CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) { return event_wait(e); }
CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) { return event_wait(e); }

CUDART_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudart *rt = rt_enter();
    if (!ms)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_event *a = start ? g_hash_table_lookup(rt->events, start) : NULL;
    rt_event *b = end ? g_hash_table_lookup(rt->events, end) : NULL;
    if (!a || !b || !a->recorded || !b->recorded)
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    *ms = (float)(b->ms - a->ms);
    return rt_leave(rt, cudaSuccess);
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

/* Stream capture (graphs) is not supported, so no stream is ever capturing
 * (cudaStreamCaptureStatusNone = 0); libraries ask before they launch. */
CUDART_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status)
{
    cudart *rt = rt_enter();
    if (!status)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    *status = 0;
    return rt_leave(rt, cudaSuccess);
}
