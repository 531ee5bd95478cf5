/* cudart/rt_capture.c — stream capture: between cudaStreamBeginCapture and
 * cudaStreamEndCapture the work issued to a capturing stream becomes graph
 * nodes instead of running (kernel launches, 1-D and 2-D async copies and
 * memsets, host functions, graph launches as child graph nodes).  Each
 * capturing stream keeps the set of nodes its next node waits for; an
 * event recorded in a capturing stream remembers that set, and a stream
 * that waits for such an event joins the capture (fork) or merges the set
 * into its own (join).  cudaStreamEndCapture on the stream that began it
 * returns the graph once every forked stream has joined back
 * (cudaErrorStreamCaptureUnjoined otherwise).
 *
 * Misuse is reported with CUDA's codes: a wait on a capturing stream
 * (cudaStreamSynchronize/Query) is cudaErrorStreamCaptureUnsupported and
 * invalidates the capture; so do cudaMalloc, cudaFree and
 * cudaDeviceSynchronize while a capture of mode Global (or ThreadLocal,
 * from its thread) runs, unless the calling thread is Relaxed
 * (cudaThreadExchangeStreamCaptureMode); legacy-stream work while a
 * blocking stream captures is cudaErrorStreamCaptureImplicit.  An
 * invalidated capture's later work returns cudaErrorStreamCaptureInvalidated
 * and cudaStreamEndCapture gives no graph. */
#include "cudart/rt_graph.h"
#include "cudart/rt_stream.h"

/* entry points of other files */
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);

#define CUDART_EXPORT __attribute__((visibility("default")))

#define STREAM_LEGACY ((cudaStream_t)0x1)
#define STREAM_NON_BLOCKING 0x1u

typedef struct rt_capture {
    uint64_t id;
    rt_graph *graph;
    int mode;                    /* enum cudaStreamCaptureMode */
    GThread *thread;             /* that began it */
    bool invalid;
    ptxemu_stream *origin;
} rt_capture;

/* A stream's part in a capture. */
typedef struct rt_capture_stream {
    rt_capture *cap;
    cudaStream_t handle;
    GPtrArray *deps;             /* rt_gnode*: what its next node waits for */
} rt_capture_stream;

static void cs_free(gpointer p)
{
    rt_capture_stream *cs = p;
    g_ptr_array_free(cs->deps, TRUE);
    g_free(cs);
}

void rt_captures_init(cudart *rt)
{
    rt->captures = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    rt->capture_of = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, cs_free);
}

/* Ends capture `c`: its streams leave it; the graph is kept (returned by
 * cudaStreamEndCapture) or freed. */
static void capture_end(cudart *rt, rt_capture *c, bool keep_graph)
{
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, rt->capture_of);
    while (g_hash_table_iter_next(&it, &k, &v))
        if (((rt_capture_stream *)v)->cap == c)
            g_hash_table_iter_remove(&it);
    c->graph->capturing = false;
    if (!keep_graph)
        rt_graph_free(c->graph);
    g_hash_table_remove(rt->captures, &c->id); /* frees c */
}

void rt_captures_reset(cudart *rt)
{
    GList *all = g_hash_table_get_values(rt->captures);
    for (GList *l = all; l; l = l->next)
        capture_end(rt, l->data, false);
    g_list_free(all);
}

static bool legacy(cudaStream_t s)
{
    return !s || s == STREAM_LEGACY;
}

static rt_capture_stream *lookup(cudart *rt, cudaStream_t s)
{
    if (legacy(s) || !rt->ctx || !g_hash_table_size(rt->capture_of))
        return NULL;
    ptxemu_stream *ps = rt_stream_of(rt, s);
    return ps ? g_hash_table_lookup(rt->capture_of, ps) : NULL;
}

bool rt_capturing(cudart *rt, cudaStream_t s)
{
    return lookup(rt, s) != NULL;
}

bool rt_capture_live(const cudart *rt, uint64_t id)
{
    return id && g_hash_table_contains(rt->captures, &id);
}

rt_graph *rt_capture_graph(cudart *rt, cudaStream_t s, GPtrArray **deps, cudaError_t *err)
{
    *err = cudaSuccess;
    rt_capture_stream *cs = lookup(rt, s);
    if (!cs)
        return NULL;
    if (cs->cap->invalid) {
        *err = cudaErrorStreamCaptureInvalidated;
        return NULL;
    }
    *deps = cs->deps;
    return cs->cap->graph;
}

void rt_capture_added(cudart *rt, cudaStream_t s, rt_gnode *n)
{
    rt_capture_stream *cs = lookup(rt, s);
    if (!cs)
        return;
    g_ptr_array_set_size(cs->deps, 0);
    g_ptr_array_add(cs->deps, n);
}

void rt_capture_invalidate(cudart *rt, cudaStream_t s)
{
    rt_capture_stream *cs = lookup(rt, s);
    if (cs)
        cs->cap->invalid = true;
}

cudaError_t rt_capture_refuse(cudart *rt, cudaStream_t s, const char *what)
{
    rt_capture_invalidate(rt, s);
    char *msg = g_strdup_printf("%s in stream capture (the capture is invalidated)", what);
    cudaError_t e = rt_unsupported(rt, msg);
    g_free(msg);
    return e;
}

/* The calling thread's capture interaction mode (cudaThreadExchangeStreamCaptureMode),
 * stored + 1 so that 0 is the default (Global). */
static GPrivate thread_mode;

static int my_mode(void)
{
    int m = GPOINTER_TO_INT(g_private_get(&thread_mode));
    return m ? m - 1 : cudaStreamCaptureModeGlobal;
}

cudaError_t rt_capture_unsafe_call(cudart *rt, const char *call)
{
    if (!g_hash_table_size(rt->captures) || my_mode() == cudaStreamCaptureModeRelaxed)
        return cudaSuccess;
    bool hit = false;
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, rt->captures);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        rt_capture *c = v;
        if (c->mode == cudaStreamCaptureModeGlobal ||
            (c->mode == cudaStreamCaptureModeThreadLocal && c->thread == g_thread_self())) {
            hit = hit || !c->invalid;
            c->invalid = true;
        }
    }
    if (hit)
        rt_log(rt, RT_LOG_INFO, "%s while a stream captures: not permitted "
               "(cudaErrorStreamCaptureUnsupported; the capture is invalidated)", call);
    return hit ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t rt_capture_legacy(cudart *rt, cudaStream_t s, bool invalidate)
{
    if (!legacy(s) || !g_hash_table_size(rt->capture_of))
        return cudaSuccess;
    bool hit = false;
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, rt->capture_of);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        rt_capture_stream *cs = v;
        unsigned flags = 0;
        if (cs->handle != (cudaStream_t)0x2) /* the per-thread stream is blocking */
            cudaStreamGetFlags(cs->handle, &flags);
        if (!(flags & STREAM_NON_BLOCKING)) {
            hit = true;
            if (invalidate)
                cs->cap->invalid = true;
        }
    }
    return hit ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

cudaError_t rt_capture_begin_op(cudart *rt, cudaStream_t s, rt_graph **graph, GPtrArray **deps)
{
    *graph = NULL;
    cudaError_t e = rt_capture_legacy(rt, s, true);
    if (e)
        return e;
    *graph = rt_capture_graph(rt, s, deps, &e);
    return e;
}

void rt_capture_record(cudart *rt, cudaStream_t s, rt_capture_mark *m)
{
    if (!m->nodes)
        m->nodes = g_ptr_array_new();
    g_ptr_array_set_size(m->nodes, 0);
    m->capture = 0;
    rt_capture_stream *cs = lookup(rt, s);
    if (!cs)
        return;
    m->capture = cs->cap->id;
    for (guint i = 0; i < cs->deps->len; i++)
        g_ptr_array_add(m->nodes, g_ptr_array_index(cs->deps, i));
}

static void add_unique(GPtrArray *set, gpointer n)
{
    for (guint i = 0; i < set->len; i++)
        if (g_ptr_array_index(set, i) == n)
            return;
    g_ptr_array_add(set, n);
}

cudaError_t rt_capture_wait(cudart *rt, cudaStream_t s, const rt_capture_mark *m, bool *handled)
{
    rt_capture_stream *cs = lookup(rt, s);
    bool captured = m && rt_capture_live(rt, m->capture);
    *handled = cs || captured;
    if (!*handled)
        return cudaSuccess;
    if (cs && cs->cap->invalid)
        return cudaErrorStreamCaptureInvalidated;
    if (!captured) { /* a capturing stream waits for work outside the capture */
        cs->cap->invalid = true;
        rt_log(rt, RT_LOG_INFO, "cudaStreamWaitEvent: a capturing stream waits for an event "
               "recorded outside the capture (cudaErrorStreamCaptureIsolation)");
        return cudaErrorStreamCaptureIsolation;
    }
    rt_capture *c = g_hash_table_lookup(rt->captures, &m->capture);
    if (c->invalid)
        return cudaErrorStreamCaptureInvalidated;
    if (cs && cs->cap != c) {
        cs->cap->invalid = c->invalid = true;
        return cudaErrorStreamCaptureMerge;
    }
    if (legacy(s)) {
        c->invalid = true;
        return cudaErrorStreamCaptureImplicit;
    }
    if (!cs) { /* a fork: s joins the capture */
        cs = g_new0(rt_capture_stream, 1);
        cs->cap = c;
        cs->handle = s;
        cs->deps = g_ptr_array_new();
        g_hash_table_insert(rt->capture_of, rt_stream_of(rt, s), cs);
    }
    for (guint i = 0; i < m->nodes->len; i++)
        add_unique(cs->deps, g_ptr_array_index(m->nodes, i));
    return cudaSuccess;
}

cudaError_t rt_capture_event_sync(cudart *rt, const rt_capture_mark *m)
{
    return m && rt_capture_live(rt, m->capture) ? cudaErrorCapturedEvent : cudaSuccess;
}

void rt_capture_stream_gone(cudart *rt, cudaStream_t s)
{
    rt_capture_stream *cs = lookup(rt, s);
    if (!cs)
        return;
    cs->cap->invalid = true;
    g_hash_table_remove(rt->capture_of, rt_stream_of(rt, s));
}

/* ------------------------------------------------------------- the API */

CUDART_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode)
{
    cudart *rt = rt_enter();
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    if (legacy(s)) {
        rt_log(rt, RT_LOG_INFO, "cudaStreamBeginCapture: the legacy default stream cannot be "
               "captured (use a stream made with cudaStreamCreate)");
        return rt_leave(rt, cudaErrorStreamCaptureUnsupported);
    }
    if (lookup(rt, s))
        return rt_leave(rt, cudaErrorIllegalState);
    rt_capture *c = g_new0(rt_capture, 1);
    c->id = ++rt->next_capture_id;
    c->graph = rt_graph_new(rt);
    c->graph->capturing = true;
    g_hash_table_add(rt->graphs, c->graph);
    c->mode = mode;
    c->thread = g_thread_self();
    c->origin = rt_stream_of(rt, s);
    g_hash_table_insert(rt->captures, &c->id, c);
    rt_capture_stream *cs = g_new0(rt_capture_stream, 1);
    cs->cap = c;
    cs->handle = s;
    cs->deps = g_ptr_array_new();
    g_hash_table_insert(rt->capture_of, c->origin, cs);
    return rt_leave(rt, cudaSuccess);
}

/* Whether every node of `set` is in, or an ancestor of, `joined`. */
static bool all_joined(const GPtrArray *set, const GPtrArray *joined)
{
    GHashTable *anc = g_hash_table_new(g_direct_hash, g_direct_equal);
    GQueue todo = G_QUEUE_INIT;
    for (guint i = 0; i < joined->len; i++)
        g_queue_push_tail(&todo, g_ptr_array_index(joined, i));
    while (!g_queue_is_empty(&todo)) {
        rt_gnode *n = g_queue_pop_head(&todo);
        if (!g_hash_table_add(anc, n))
            continue;
        for (guint i = 0; i < n->deps->len; i++)
            g_queue_push_tail(&todo, g_ptr_array_index(n->deps, i));
    }
    bool ok = true;
    for (guint i = 0; ok && i < set->len; i++)
        ok = g_hash_table_contains(anc, g_ptr_array_index(set, i));
    g_hash_table_destroy(anc);
    return ok;
}

CUDART_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *pGraph)
{
    cudart *rt = rt_enter();
    if (!pGraph)
        return rt_leave(rt, cudaErrorInvalidValue);
    if (!rt_stream_valid(rt, s))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    rt_capture_stream *cs = lookup(rt, s);
    if (!cs)
        return rt_leave(rt, legacy(s) ? cudaErrorStreamCaptureUnsupported : cudaErrorIllegalState);
    rt_capture *c = cs->cap;
    if (c->origin != rt_stream_of(rt, s)) {
        c->invalid = true;
        return rt_leave(rt, cudaErrorStreamCaptureUnmatched);
    }
    if (c->mode != cudaStreamCaptureModeRelaxed && c->thread != g_thread_self())
        return rt_leave(rt, cudaErrorStreamCaptureWrongThread);
    *pGraph = NULL;
    if (c->invalid) {
        capture_end(rt, c, false);
        return rt_leave(rt, cudaErrorStreamCaptureInvalidated);
    }
    GHashTableIter it;
    gpointer k, v;
    bool joined = true;
    g_hash_table_iter_init(&it, rt->capture_of);
    while (joined && g_hash_table_iter_next(&it, &k, &v)) {
        rt_capture_stream *o = v;
        if (o->cap == c && o != cs)
            joined = all_joined(o->deps, cs->deps);
    }
    if (!joined) {
        rt_log(rt, RT_LOG_INFO, "cudaStreamEndCapture: a stream forked from the capture did not "
               "join back (cudaErrorStreamCaptureUnjoined)");
        capture_end(rt, c, false);
        return rt_leave(rt, cudaErrorStreamCaptureUnjoined);
    }
    rt_graph *g = c->graph;
    capture_end(rt, c, true);
    *pGraph = (cudaGraph_t)g;
    return rt_leave(rt, cudaSuccess);
}

/* Where stream s stands (None, Active, Invalidated) and its capture
 * record; the errors cudaStreamIsCapturing and ...GetCaptureInfo share. */
static cudaError_t capture_status(cudart *rt, cudaStream_t s, rt_capture_stream **cs,
                                  int *status)
{
    if (!rt_stream_valid(rt, s))
        return cudaErrorInvalidResourceHandle;
    cudaError_t e = rt_capture_legacy(rt, s, false);
    if (e)
        return e;
    *cs = lookup(rt, s);
    *status = !*cs ? cudaStreamCaptureStatusNone
                   : (*cs)->cap->invalid ? cudaStreamCaptureStatusInvalidated
                                         : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status)
{
    cudart *rt = rt_enter();
    if (!status)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_capture_stream *cs;
    return rt_leave(rt, capture_status(rt, s, &cs, status));
}

CUDART_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status,
                                                   unsigned long long *id, cudaGraph_t *graph,
                                                   const cudaGraphNode_t **deps,
                                                   const cudaGraphEdgeData **edges,
                                                   size_t *ndeps)
{
    cudart *rt = rt_enter();
    if (!status || (edges && !deps))
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_capture_stream *cs;
    cudaError_t e = capture_status(rt, s, &cs, status);
    if (e)
        return rt_leave(rt, e);
    if (*status != cudaStreamCaptureStatusActive)
        return rt_leave(rt, cudaSuccess);
    if (id)
        *id = cs->cap->id;
    if (graph)
        *graph = (cudaGraph_t)cs->cap->graph;
    if (deps)
        *deps = (const cudaGraphNode_t *)cs->deps->pdata;
    if (edges)
        *edges = NULL; /* every edge is a plain one (no edge data) */
    if (ndeps)
        *ndeps = cs->deps->len;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    cudart *rt = rt_enter();
    if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
        return rt_leave(rt, cudaErrorInvalidValue);
    int old = my_mode();
    g_private_set(&thread_mode, GINT_TO_POINTER(*mode + 1));
    *mode = old;
    return rt_leave(rt, cudaSuccess);
}
