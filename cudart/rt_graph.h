/* cudart/rt_graph.h — CUDA graphs of the drop-in runtime: the graph and
 * node objects (rt_graph.c), stream capture building them (rt_capture.c),
 * and the stream operations a node runs as, which the ordinary entry points
 * share (rt_memory.c, rt_launch.c, rt_stream.c). */
#ifndef PTXEMU_CUDART_RT_GRAPH_H
#define PTXEMU_CUDART_RT_GRAPH_H

#include "cudart/rt.h"

typedef struct rt_graph rt_graph;
typedef struct rt_gnode rt_gnode;

/* A node's parameters (its own copies: kernel arguments are copied when
 * the node is made, as CUDA does). */
typedef struct rt_gnode_kernel {
    const rt_kernel *k;
    dim3 grid, block;
    size_t shared;
    unsigned nargs;
    uint8_t *argbuf;             /* the argument values, back to back */
    void **args;                 /* nargs pointers into argbuf */
} rt_gnode_kernel;

struct rt_gnode {
    int type;                    /* enum cudaGraphNodeType */
    rt_graph *graph;             /* the graph that owns it */
    unsigned index;              /* creation order in its graph */
    GPtrArray *deps;             /* rt_gnode*: nodes it waits for */
    GPtrArray *out;              /* rt_gnode*: nodes that wait for it */
    union {
        rt_gnode_kernel kernel;
        struct cudaMemcpy3DParms copy;   /* pointers only (no arrays) */
        struct cudaMemsetParams set;
        struct cudaHostNodeParams host;
        rt_graph *child;         /* owned clone */
    } p;
};

struct rt_graph {
    cudart *rt;
    GPtrArray *nodes;            /* rt_gnode*, owned, in creation order */
    bool owned;                  /* a child graph node's: not destroyable */
    bool capturing;              /* a capture is adding to it (not destroyable) */
};

/* ------------------------------------------------------- rt_graph.c */
void rt_graphs_init(cudart *rt);
rt_graph *rt_graph_new(cudart *rt);
/* A node of `type` added to `g` after `deps` (checked: nodes of g, no
 * repeats); its parameters are filled by the caller. */
cudaError_t rt_graph_add(rt_graph *g, int type, const cudaGraphNode_t *deps, size_t ndeps,
                         rt_gnode **out);
/* Removes the last node added (a node whose parameters were refused). */
void rt_graph_drop_last(rt_graph *g);
/* Parameter makers, shared by the explicit API and capture. */
cudaError_t rt_gnode_set_kernel(cudart *rt, rt_gnode *n, const rt_kernel *k, dim3 grid,
                                dim3 block, size_t shared, void **args);
cudaError_t rt_gnode_set_kernel_params(cudart *rt, rt_gnode *n,
                                       const struct cudaKernelNodeParams *p);
cudaError_t rt_gnode_set_copy(cudart *rt, rt_gnode *n, const struct cudaMemcpy3DParms *p);
cudaError_t rt_gnode_set_memset(cudart *rt, rt_gnode *n, const struct cudaMemsetParams *p);
/* A deep copy (child graph nodes, instantiation, capture of a graph
 * launch); `map`, when given, gets each node of g -> its copy. */
rt_graph *rt_graph_clone(cudart *rt, const rt_graph *g, GHashTable *map);
/* Copies the parameters of `from` into `to` (same type). */
cudaError_t rt_gnode_copy_params(cudart *rt, rt_gnode *to, const rt_gnode *from);
void rt_graph_free(rt_graph *g);
/* Whether `g` is a graph the program holds. */
bool rt_graph_valid(const cudart *rt, const void *g);
/* Its nodes in an order that respects every dependency (creation order
 * where free); NULL on a cycle. */
GPtrArray *rt_graph_order(const rt_graph *g);

/* ------------------------------------------------------ rt_capture.c */
void rt_captures_init(cudart *rt);
void rt_captures_reset(cudart *rt);
/* The graph a capturing stream adds to and, through *deps, what its next
 * node waits for; NULL when `s` is not capturing.  An invalidated capture
 * gives NULL with *err = cudaErrorStreamCaptureInvalidated. */
rt_graph *rt_capture_graph(cudart *rt, cudaStream_t s, GPtrArray **deps, cudaError_t *err);
/* After a node was added to the capture of `s`: it is the stream's new
 * dependency set. */
void rt_capture_added(cudart *rt, cudaStream_t s, rt_gnode *n);
/* Ends the capture `s` is in without a graph (an operation it cannot
 * hold); later captured calls and cudaStreamEndCapture report it. */
void rt_capture_invalidate(cudart *rt, cudaStream_t s);
/* Whether `s` is in a capture (active or invalidated). */
bool rt_capturing(cudart *rt, cudaStream_t s);
/* A call that is unsafe while a capture runs (synchronous copies and
 * memsets, cudaMalloc, cudaDeviceSynchronize): cudaErrorStreamCaptureUnsupported
 * and the captures it would disturb are invalidated, or cudaSuccess. */
cudaError_t rt_capture_unsafe_call(cudart *rt, const char *call);
/* Legacy-stream work (s is the NULL stream or cudaStreamLegacy) while a
 * blocking stream captures: cudaErrorStreamCaptureImplicit, and with
 * `invalidate` the capture is invalidated; else cudaSuccess. */
cudaError_t rt_capture_legacy(cudart *rt, cudaStream_t s, bool invalidate);
/* An operation capture cannot hold yet, issued to capturing stream `s`:
 * says so, invalidates the capture, cudaErrorNotSupported. */
cudaError_t rt_capture_refuse(cudart *rt, cudaStream_t s, const char *what);
/* What an async call on `s` does first: the legacy-stream check, then,
 * when `s` captures, *graph and *deps for the node to add (NULL: not
 * capturing); an error ends the call. */
cudaError_t rt_capture_begin_op(cudart *rt, cudaStream_t s, rt_graph **graph, GPtrArray **deps);
/* Event records and waits in capture (rt_stream.c): the event's captured
 * node set, and a stream joining a capture through a wait. */
typedef struct rt_capture_mark {
    uint64_t capture;            /* capture id, 0: recorded outside capture */
    GPtrArray *nodes;            /* rt_gnode*, owned */
} rt_capture_mark;
void rt_capture_record(cudart *rt, cudaStream_t s, rt_capture_mark *m);
/* A wait on an event with mark `m`: *handled says whether capture took
 * it (a captured event, or a capturing stream). */
cudaError_t rt_capture_wait(cudart *rt, cudaStream_t s, const rt_capture_mark *m, bool *handled);
/* A wait for an event (cudaEventSynchronize/Query): cudaErrorCapturedEvent
 * when it was last recorded in a capture still in progress. */
cudaError_t rt_capture_event_sync(cudart *rt, const rt_capture_mark *m);
/* Whether capture id `id` is still being captured. */
bool rt_capture_live(const cudart *rt, uint64_t id);
void rt_capture_stream_gone(cudart *rt, cudaStream_t s);

/* ---------------------------------- stream operations (not captured) */
cudaError_t rt_copy_async(cudart *rt, void *dst, const void *src, size_t n, int kind,
                          cudaStream_t s);
cudaError_t rt_copy_2d_async(cudart *rt, void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height, int kind,
                             cudaStream_t s);
cudaError_t rt_set_2d_async(cudart *rt, void *ptr, size_t pitch, int value, size_t width,
                            size_t height, cudaStream_t s);
cudaError_t rt_launch_kernel(cudart *rt, const rt_kernel *k, dim3 grid, dim3 block,
                             void **args, size_t shared, cudaStream_t s);
cudaError_t rt_host_func(cudart *rt, cudaStream_t s, cudaHostFn_t fn, void *user);
/* The kernel of a host stub or cudaKernel_t; its parameter sizes. */
const rt_kernel *rt_find_kernel(const cudart *rt, const void *func);
cudaError_t rt_kernel_params(const rt_kernel *k, unsigned *n, const uint32_t **sizes);

#endif
