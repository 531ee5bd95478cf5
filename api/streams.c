/* api/streams.c — streams, events and the queue of asynchronous work
 * (api/ptxemu.h "streams").
 *
 * Every asynchronous call appends one operation to the context's queue with
 * the operations it must follow: the previous operation of its stream, the
 * last default-stream operation, and for a default-stream operation the
 * last operation of every stream; a stream waiting on an event gets a
 * marker operation that follows the event's record.  Dependencies always
 * name earlier operations, so submission order is a valid order to run
 * them in: the functional drain does exactly that, and the timing drain
 * hands the whole queue to the GPU's KMU (timing/kmu.h) with the
 * dependencies, where kernels of different streams run concurrently. */
#include "api/api_ctx.h"
#include "api/ptxemu.h"
#include "runtime/hostmem.h"
#include "runtime/launch.h"

#include <string.h>

typedef enum api_op_kind {
    OP_KERNEL, OP_HTOD, OP_DTOH, OP_DTOD, OP_MEMSET, OP_MARK
} api_op_kind;

/* One queued operation. */
typedef struct api_op {
    api_op_kind kind;
    ptxemu_ctx *ctx;
    ex_launch L;                 /* OP_KERNEL */
    ptxemu_dptr dst, src;        /* device addresses of copies */
    void *host;                  /* OP_DTOH destination */
    uint8_t *bytes;              /* OP_HTOD: the source bytes, copied */
    size_t n;
    int value;                   /* OP_MEMSET */
    ptxemu_event *event;         /* OP_MARK: the event it records, or NULL */
    uint32_t generation;         /* of that record */
    uint32_t after[3];           /* dependencies (stream, default stream,
                                    event waited for), or ... */
    uint32_t nafter;
    GArray *after_many;          /* ... for a default-stream operation */
    uint64_t done;               /* cycle it finished (timing) */
    ptxemu_status status;        /* host operations: their result */
    char *msg;                   /* and its message when it failed */
} api_op;

struct ptxemu_stream {
    ptxemu_ctx *ctx;
    unsigned id;
    int32_t last;                /* its last queued operation, or -1 */
    bool nonblocking;            /* no ordering with the default stream */
};

struct ptxemu_event {
    ptxemu_ctx *ctx;
    bool recorded, complete;
    int32_t op;                  /* its queued record, or -1 */
    uint32_t generation;         /* records so far */
    uint64_t cycle;              /* timing: cycle it completed */
    gint64 host_us;              /* host monotonic time it completed */
};

void api_queue_init(ptxemu_ctx *ctx)
{
    ctx->ops = g_array_new(FALSE, TRUE, sizeof(api_op));
    ctx->streams = g_ptr_array_new();
    ctx->events = g_ptr_array_new();
    ctx->barrier = -1;
    ctx->next_stream_id = 1;
}

static void op_release(api_op *op)
{
    if (op->kind == OP_KERNEL)
        api_launch_release(&op->L);
    ex_host_free(op->bytes, op->n); /* large ones are mmapped: runtime/hostmem.h */
    g_free(op->msg);
    if (op->after_many)
        g_array_free(op->after_many, TRUE);
}

/* Empties the queue (run or dropped): streams and events forget it. */
static void queue_clear(ptxemu_ctx *ctx)
{
    for (guint i = 0; i < ctx->ops->len; i++)
        op_release(&g_array_index(ctx->ops, api_op, i));
    g_array_set_size(ctx->ops, 0);
    for (guint i = 0; i < ctx->streams->len; i++)
        ((ptxemu_stream *)g_ptr_array_index(ctx->streams, i))->last = -1;
    for (guint i = 0; i < ctx->events->len; i++)
        ((ptxemu_event *)g_ptr_array_index(ctx->events, i))->op = -1;
    ctx->barrier = -1;
}

void api_queue_destroy(ptxemu_ctx *ctx)
{
    queue_clear(ctx);
    for (guint i = 0; i < ctx->streams->len; i++)
        g_free(g_ptr_array_index(ctx->streams, i));
    for (guint i = 0; i < ctx->events->len; i++)
        g_free(g_ptr_array_index(ctx->events, i));
    g_array_free(ctx->ops, TRUE);
    g_ptr_array_free(ctx->streams, TRUE);
    g_ptr_array_free(ctx->events, TRUE);
}

/* ------------------------------------------------------------- enqueue */

static void op_after(api_op *op, int32_t dep)
{
    if (dep < 0)
        return;
    if (op->after_many) {
        for (guint i = 0; i < op->after_many->len; i++)
            if (g_array_index(op->after_many, uint32_t, i) == (uint32_t)dep)
                return;
        uint32_t d = (uint32_t)dep;
        g_array_append_val(op->after_many, d);
        return;
    }
    for (uint32_t i = 0; i < op->nafter; i++)
        if (op->after[i] == (uint32_t)dep)
            return;
    op->after[op->nafter++] = (uint32_t)dep;
}

static const uint32_t *op_deps(const api_op *op, uint32_t *n)
{
    if (op->after_many) {
        *n = op->after_many->len;
        return (const uint32_t *)(void *)op->after_many->data;
    }
    *n = op->nafter;
    return op->after;
}

/* Appends `op` to `stream` (NULL: the default stream) with its ordering. */
static int32_t enqueue(ptxemu_ctx *ctx, ptxemu_stream *stream, api_op *op)
{
    int32_t idx = (int32_t)ctx->ops->len;
    op->ctx = ctx;
    if (stream) {
        op_after(op, stream->last);
        if (!stream->nonblocking)
            op_after(op, ctx->barrier);
        stream->last = idx;
    } else {
        /* the default stream follows everything queued before it (but a
         * non-blocking stream), and keeps what the op already waits for
         * (an event, possibly of a non-blocking stream) */
        op->after_many = g_array_new(FALSE, FALSE, sizeof(uint32_t));
        g_array_append_vals(op->after_many, op->after, op->nafter);
        op->nafter = 0;
        op_after(op, ctx->barrier);
        for (guint i = 0; i < ctx->streams->len; i++) {
            const ptxemu_stream *s = g_ptr_array_index(ctx->streams, i);
            if (!s->nonblocking)
                op_after(op, s->last);
        }
        ctx->barrier = idx;
    }
    g_array_append_val(ctx->ops, *op);
    return idx;
}

static bool stream_ok(ptxemu_ctx *ctx, const ptxemu_stream *stream)
{
    return !stream || stream->ctx == ctx;
}

ptxemu_status ptxemu_launch_async(ptxemu_module *mod, const char *kernel, ptxemu_dim3 grid,
                                  ptxemu_dim3 block, size_t dyn_shared, void **args,
                                  ptxemu_stream *stream)
{
    if (!mod || !kernel)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_ctx *ctx = mod->ctx;
    if (!stream_ok(ctx, stream))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "launch_async: the stream belongs to "
                        "another context");
    uint32_t kernels = 0;
    for (guint i = 0; i < ctx->ops->len; i++)
        kernels += g_array_index(ctx->ops, api_op, i).kind == OP_KERNEL;
    ptxemu_launch_desc d = {mod, kernel, grid, block, dyn_shared, args, 0, -1};
    api_op op = {.kind = OP_KERNEL};
    ptxemu_status s = api_launch_prepare(ctx, &d, &op.L,
                                         (uint32_t)(ctx->counters.launches + 1 + kernels));
    if (s != PTXEMU_OK)
        return s;
    enqueue(ctx, stream, &op);
    return api_ok(ctx);
}

static ptxemu_status enqueue_copy(ptxemu_ctx *ctx, ptxemu_stream *stream, api_op *op,
                                  const char *what)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (!stream_ok(ctx, stream))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "%s: the stream belongs to another "
                        "context", what);
    enqueue(ctx, stream, op);
    return api_ok(ctx);
}

ptxemu_status ptxemu_memcpy_htod_async(ptxemu_ctx *ctx, ptxemu_dptr dst, const void *src,
                                       size_t n, ptxemu_stream *stream)
{
    if (!ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    if (!src && n)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "memcpy_htod_async: NULL argument");
    api_op op = {.kind = OP_HTOD, .dst = dst, .n = n};
    /* the source is staged now: the caller may reuse it once this returns */
    op.bytes = n ? ex_host_alloc(n) : NULL;
    if (n && !op.bytes)
        return api_fail(ctx, PTXEMU_ERR_OUT_OF_MEMORY, "memcpy_htod_async: no host memory to "
                        "stage %zu bytes", n);
    if (n)
        memcpy(op.bytes, src, n);
    ptxemu_status s = enqueue_copy(ctx, stream, &op, "memcpy_htod_async");
    if (s != PTXEMU_OK)
        ex_host_free(op.bytes, n);
    return s;
}

ptxemu_status ptxemu_memcpy_dtoh_async(ptxemu_ctx *ctx, void *dst, ptxemu_dptr src, size_t n,
                                       ptxemu_stream *stream)
{
    if (ctx && !dst && n)
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "memcpy_dtoh_async: NULL argument");
    api_op op = {.kind = OP_DTOH, .host = dst, .src = src, .n = n};
    return enqueue_copy(ctx, stream, &op, "memcpy_dtoh_async");
}

ptxemu_status ptxemu_memcpy_dtod_async(ptxemu_ctx *ctx, ptxemu_dptr dst, ptxemu_dptr src,
                                       size_t n, ptxemu_stream *stream)
{
    api_op op = {.kind = OP_DTOD, .dst = dst, .src = src, .n = n};
    return enqueue_copy(ctx, stream, &op, "memcpy_dtod_async");
}

ptxemu_status ptxemu_memset_async(ptxemu_ctx *ctx, ptxemu_dptr dst, int value, size_t n,
                                  ptxemu_stream *stream)
{
    api_op op = {.kind = OP_MEMSET, .dst = dst, .value = value, .n = n};
    return enqueue_copy(ctx, stream, &op, "memset_async");
}

/* ----------------------------------------------------------------- run */

/* Runs host operation `op` (the cycle, under timing, is when). */
static void host_op_run(void *user, uint64_t cycle)
{
    api_op *op = user;
    ptxemu_ctx *ctx = op->ctx;
    switch (op->kind) {
    case OP_HTOD: op->status = api_htod(ctx, op->dst, op->bytes, op->n); break;
    case OP_DTOH: op->status = api_dtoh(ctx, op->host, op->src, op->n); break;
    case OP_DTOD: op->status = api_dtod(ctx, op->dst, op->src, op->n); break;
    case OP_MEMSET: op->status = api_memset(ctx, op->dst, op->value, op->n); break;
    case OP_MARK:
        if (op->event && op->event->generation == op->generation) {
            op->event->complete = true;
            op->event->cycle = cycle;
            op->event->host_us = g_get_monotonic_time();
        }
        break;
    case OP_KERNEL: break;
    }
    /* a later copy's success clears ctx->error: keep the message */
    if (op->status != PTXEMU_OK)
        op->msg = g_strdup(ctx->error->str);
}

static ptxemu_status drain_functional(ptxemu_ctx *ctx, GError **err)
{
    for (guint i = 0; i < ctx->ops->len; i++) {
        api_op *op = &g_array_index(ctx->ops, api_op, i);
        if (op->kind == OP_KERNEL) {
            api_note_serial(ctx, &op->L);
            bool good = ex_launch_run(&op->L, err);
            api_launches_done(ctx, &op->L, 1);
            if (!good)
                return PTXEMU_ERR_LAUNCH_FAILED;
            continue;
        }
        host_op_run(op, 0);
        if (op->status != PTXEMU_OK) {
            g_set_error(err, g_quark_from_static_string("ptxemu"), 1, "%s", op->msg);
            return op->status;
        }
    }
    return PTXEMU_OK;
}

static ptxemu_status drain_timing(ptxemu_ctx *ctx, GError **err)
{
    guint n = ctx->ops->len;
    tm_submit *subs = g_new0(tm_submit, n);
    uint32_t kernels = 0;
    for (guint i = 0; i < n; i++) {
        api_op *op = &g_array_index(ctx->ops, api_op, i);
        tm_submit *s = &subs[i];
        s->append_to = -1;
        s->after = op_deps(op, &s->nafter);
        s->done_at = &op->done;
        if (op->kind == OP_KERNEL) {
            s->L = &op->L;
            kernels++;
        } else {
            s->host = host_op_run;
            s->host_user = op;
        }
    }
    uint64_t c0 = tm_gpu_cycle(ctx->gpu);
    bool good = tm_gpu_run_at(ctx->gpu, subs, n, err);
    ctx->counters.cycles += tm_gpu_cycle(ctx->gpu) - c0;
    g_free(subs);
    ex_launch *Ls = g_new0(ex_launch, kernels ? kernels : 1);
    uint32_t k = 0;
    ptxemu_status st = good ? PTXEMU_OK : PTXEMU_ERR_LAUNCH_FAILED;
    for (guint i = 0; i < n; i++) {
        api_op *op = &g_array_index(ctx->ops, api_op, i);
        if (op->kind == OP_KERNEL) /* counts only: the launches stay owned by the ops */
            Ls[k++] = op->L;
        else if (good && op->status != PTXEMU_OK && st == PTXEMU_OK) {
            st = op->status;
            g_set_error(err, g_quark_from_static_string("ptxemu"), 1, "%s", op->msg);
        }
    }
    api_launches_done(ctx, Ls, kernels);
    g_free(Ls);
    return st;
}

ptxemu_status api_queue_drain(ptxemu_ctx *ctx)
{
    return ctx->lanes ? api_lane_wait(ctx) : api_queue_run(ctx);
}

ptxemu_status api_queue_run(ptxemu_ctx *ctx)
{
    if (!ctx->ops->len)
        return PTXEMU_OK;
    GError *err = NULL;
    g_string_truncate(ctx->error, 0);
    ptxemu_status st = ctx->gpu ? drain_timing(ctx, &err) : drain_functional(ctx, &err);
    queue_clear(ctx);
    if (st != PTXEMU_OK) {
        st = api_fail(ctx, st, "%s", err ? err->message : "queued work failed");
        g_clear_error(&err);
        return st;
    }
    return api_run_finished(ctx);
}

/* ------------------------------------------------------------- streams */

ptxemu_status ptxemu_stream_create(ptxemu_ctx *ctx, ptxemu_stream **out)
{
    if (!ctx || !out)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_stream *s = g_new0(ptxemu_stream, 1);
    s->ctx = ctx;
    s->id = ctx->next_stream_id++;
    s->last = -1;
    g_ptr_array_add(ctx->streams, s);
    *out = s;
    return api_ok(ctx);
}

ptxemu_status ptxemu_stream_create_nonblocking(ptxemu_ctx *ctx, ptxemu_stream **out)
{
    ptxemu_status s = ptxemu_stream_create(ctx, out);
    if (s == PTXEMU_OK)
        (*out)->nonblocking = true;
    return s;
}

ptxemu_status ptxemu_stream_destroy(ptxemu_ctx *ctx, ptxemu_stream *stream)
{
    if (!ctx || !stream || stream->ctx != ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_status s = api_queue_drain(ctx);
    g_ptr_array_remove(ctx->streams, stream);
    g_free(stream);
    return s;
}

bool api_stream_idle(const ptxemu_stream *stream)
{
    return stream->last < 0 && stream->ctx->barrier < 0;
}

unsigned ptxemu_stream_id(const ptxemu_stream *stream)
{
    return stream ? stream->id : 0;
}

ptxemu_status ptxemu_stream_synchronize(ptxemu_ctx *ctx, ptxemu_stream *stream)
{
    if (!ctx || !stream_ok(ctx, stream))
        return PTXEMU_ERR_INVALID_VALUE;
    return api_queue_drain(ctx);
}

ptxemu_status ptxemu_stream_query(ptxemu_ctx *ctx, ptxemu_stream *stream)
{
    return ptxemu_stream_synchronize(ctx, stream);
}

ptxemu_status ptxemu_stream_wait_event(ptxemu_ctx *ctx, ptxemu_stream *stream,
                                       ptxemu_event *event)
{
    if (!ctx || !event || event->ctx != ctx || !stream_ok(ctx, stream))
        return ctx ? api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "stream_wait_event: bad stream "
                              "or event") : PTXEMU_ERR_INVALID_VALUE;
    if (event->op < 0) /* never recorded, or its work already ran */
        return api_ok(ctx);
    api_op op = {.kind = OP_MARK};
    op_after(&op, event->op);
    enqueue(ctx, stream, &op);
    return api_ok(ctx);
}

/* -------------------------------------------------------------- events */

ptxemu_status ptxemu_event_create(ptxemu_ctx *ctx, ptxemu_event **out)
{
    if (!ctx || !out)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_event *e = g_new0(ptxemu_event, 1);
    e->ctx = ctx;
    e->op = -1;
    g_ptr_array_add(ctx->events, e);
    *out = e;
    return api_ok(ctx);
}

void ptxemu_event_destroy(ptxemu_event *event)
{
    if (!event)
        return;
    ptxemu_ctx *ctx = event->ctx;
    for (guint i = 0; i < ctx->ops->len; i++) { /* its queued records record nothing */
        api_op *op = &g_array_index(ctx->ops, api_op, i);
        if (op->event == event)
            op->event = NULL;
    }
    g_ptr_array_remove(ctx->events, event);
    g_free(event);
}

ptxemu_status ptxemu_event_record(ptxemu_event *event, ptxemu_stream *stream)
{
    if (!event)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_ctx *ctx = event->ctx;
    if (!stream_ok(ctx, stream))
        return api_fail(ctx, PTXEMU_ERR_INVALID_VALUE, "event_record: the stream belongs to "
                        "another context");
    api_op op = {.kind = OP_MARK, .event = event, .generation = ++event->generation};
    event->recorded = true;
    event->complete = false;
    event->op = enqueue(ctx, stream, &op);
    return api_ok(ctx);
}

ptxemu_status ptxemu_event_synchronize(ptxemu_event *event)
{
    if (!event)
        return PTXEMU_ERR_INVALID_VALUE;
    return api_queue_drain(event->ctx);
}

ptxemu_status ptxemu_event_query(ptxemu_event *event)
{
    return ptxemu_event_synchronize(event);
}

/* Waits for the event's work; NOT_READY when it was never recorded. */
static ptxemu_status event_done(ptxemu_event *e, const char *what)
{
    if (!e)
        return PTXEMU_ERR_INVALID_VALUE;
    if (!e->recorded)
        return api_fail(e->ctx, PTXEMU_ERR_NOT_READY, "%s: the event was never recorded", what);
    ptxemu_status s = api_queue_drain(e->ctx);
    if (s == PTXEMU_OK && !e->complete)
        return api_fail(e->ctx, PTXEMU_ERR_NOT_READY, "%s: the event's work was dropped after "
                        "an error", what);
    return s;
}

ptxemu_status ptxemu_event_elapsed_ms(float *ms, ptxemu_event *start, ptxemu_event *end)
{
    if (!ms || !start || !end || start->ctx != end->ctx)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_status s = event_done(start, "event_elapsed_ms");
    if (s == PTXEMU_OK)
        s = event_done(end, "event_elapsed_ms");
    if (s != PTXEMU_OK)
        return s;
    ptxemu_ctx *ctx = start->ctx;
    if (ctx->gpu) {
        double mhz = tm_gpu_config(ctx->gpu)->clock.core;
        *ms = (float)(((double)end->cycle - (double)start->cycle) / (mhz * 1000.0));
    } else {
        *ms = (float)((double)(end->host_us - start->host_us) / 1000.0);
    }
    return api_ok(ctx);
}

ptxemu_status ptxemu_event_cycle(ptxemu_event *event, uint64_t *cycle)
{
    if (!event || !cycle)
        return PTXEMU_ERR_INVALID_VALUE;
    if (!event->ctx->gpu)
        return api_fail(event->ctx, PTXEMU_ERR_INVALID_VALUE, "event_cycle: timing is off");
    ptxemu_status s = event_done(event, "event_cycle");
    if (s == PTXEMU_OK)
        *cycle = event->cycle;
    return s;
}
