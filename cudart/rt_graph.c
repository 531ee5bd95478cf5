/* cudart/rt_graph.c — CUDA graphs: graph and node objects and the
 * explicit construction API (cudaGraphCreate, cudaGraphAdd*Node,
 * cudaGraphAddDependencies, queries).  A node keeps its own copy of its
 * parameters (a kernel node the argument values kernelParams points to);
 * a child graph node keeps a clone of the child graph, as CUDA does.
 * Instantiation and launch are rt_graph_exec.c; stream capture is
 * rt_capture.c.  Nodes supported: kernel, memcpy between pointers (1-D and
 * cudaMemcpy3DParms without arrays), memset, host, empty and child graph;
 * the other node kinds (event, semaphore, allocation, conditional) stay in
 * unsupported.def. */
#include "cudart/rt_graph.h"

#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

static void gnode_free(rt_gnode *n);

void rt_graphs_init(cudart *rt)
{
    rt->graphs = g_hash_table_new(g_direct_hash, g_direct_equal);
    rt->gnodes = g_hash_table_new(g_direct_hash, g_direct_equal);
}

rt_graph *rt_graph_new(cudart *rt)
{
    rt_graph *g = g_new0(rt_graph, 1);
    g->rt = rt;
    g->nodes = g_ptr_array_new();
    return g;
}

void rt_graph_free(rt_graph *g)
{
    if (!g)
        return;
    g_hash_table_remove(g->rt->graphs, g);
    for (guint i = 0; i < g->nodes->len; i++)
        gnode_free(g_ptr_array_index(g->nodes, i));
    g_ptr_array_free(g->nodes, TRUE);
    g_free(g);
}

static void gnode_free(rt_gnode *n)
{
    g_hash_table_remove(n->graph->rt->gnodes, n);
    if (n->type == cudaGraphNodeTypeKernel) {
        g_free(n->p.kernel.argbuf);
        g_free(n->p.kernel.args);
    } else if (n->type == cudaGraphNodeTypeGraph) {
        rt_graph_free(n->p.child);
    }
    g_ptr_array_free(n->deps, TRUE);
    g_ptr_array_free(n->out, TRUE);
    g_free(n);
}

bool rt_graph_valid(const cudart *rt, const void *g)
{
    return g && g_hash_table_contains(rt->graphs, g);
}

static rt_gnode *node_of(const cudart *rt, const void *n)
{
    return n && g_hash_table_contains(rt->gnodes, n) ? (rt_gnode *)n : NULL;
}

cudaError_t rt_graph_add(rt_graph *g, int type, const cudaGraphNode_t *deps, size_t ndeps,
                         rt_gnode **out)
{
    if (ndeps && !deps)
        return cudaErrorInvalidValue;
    for (size_t i = 0; i < ndeps; i++) {
        rt_gnode *d = node_of(g->rt, deps[i]);
        if (!d || d->graph != g)
            return cudaErrorInvalidValue;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return cudaErrorInvalidValue; /* a repeated dependency */
    }
    rt_gnode *n = g_new0(rt_gnode, 1);
    n->type = type;
    n->graph = g;
    n->index = g->nodes->len;
    n->deps = g_ptr_array_new();
    n->out = g_ptr_array_new();
    for (size_t i = 0; i < ndeps; i++) {
        rt_gnode *d = (rt_gnode *)deps[i];
        g_ptr_array_add(n->deps, d);
        g_ptr_array_add(d->out, n);
    }
    g_ptr_array_add(g->nodes, n);
    g_hash_table_add(g->rt->gnodes, n);
    *out = n;
    return cudaSuccess;
}

void rt_graph_drop_last(rt_graph *g)
{
    if (!g->nodes->len)
        return;
    rt_gnode *n = g_ptr_array_index(g->nodes, g->nodes->len - 1);
    for (guint i = 0; i < n->deps->len; i++)
        g_ptr_array_remove(((rt_gnode *)g_ptr_array_index(n->deps, i))->out, n);
    g_ptr_array_remove_index(g->nodes, g->nodes->len - 1);
    n->type = cudaGraphNodeTypeEmpty; /* its parameters were never set */
    gnode_free(n);
}

cudaError_t rt_gnode_set_kernel(cudart *rt, rt_gnode *n, const rt_kernel *k, dim3 grid,
                                dim3 block, size_t shared, void **args)
{
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    unsigned nargs = 0;
    const uint32_t *sizes = NULL;
    cudaError_t e = rt_kernel_params(k, &nargs, &sizes);
    if (e)
        return e;
    if (nargs && !args)
        return cudaErrorInvalidValue;
    size_t total = 0;
    for (unsigned i = 0; i < nargs; i++) {
        if (!args[i])
            return cudaErrorInvalidValue;
        total += (sizes[i] + 7u) / 8u * 8u;
    }
    uint8_t *buf = g_malloc0(total ? total : 1);
    void **ptrs = g_new0(void *, nargs ? nargs : 1);
    for (unsigned i = 0, off = 0; i < nargs; off += (sizes[i] + 7u) / 8u * 8u, i++) {
        memcpy(buf + off, args[i], sizes[i]);
        ptrs[i] = buf + off;
    }
    (void)rt;
    rt_gnode_kernel *kn = &n->p.kernel;
    g_free(kn->argbuf);
    g_free(kn->args);
    *kn = (rt_gnode_kernel){k, grid, block, shared, nargs, buf, ptrs};
    return cudaSuccess;
}

cudaError_t rt_gnode_set_copy(cudart *rt, rt_gnode *n, const struct cudaMemcpy3DParms *p)
{
    if (!p || p->kind < 0 || p->kind > 4)
        return cudaErrorInvalidValue;
    if (p->srcArray || p->dstArray)
        return rt_unsupported(rt, "a graph memcpy node with a CUDA array");
    if (!p->srcPtr.ptr || !p->dstPtr.ptr)
        return cudaErrorInvalidValue;
    const struct cudaExtent *x = &p->extent;
    if (x->width > p->srcPtr.pitch || x->width > p->dstPtr.pitch ||
        (x->depth > 1 && (x->height > p->srcPtr.ysize || x->height > p->dstPtr.ysize)))
        return cudaErrorInvalidValue;
    n->p.copy = *p;
    return cudaSuccess;
}

cudaError_t rt_gnode_set_memset(cudart *rt, rt_gnode *n, const struct cudaMemsetParams *p)
{
    (void)rt;
    if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return cudaErrorInvalidValue;
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return cudaErrorInvalidValue;
    n->p.set = *p;
    return cudaSuccess;
}

cudaError_t rt_gnode_copy_params(cudart *rt, rt_gnode *to, const rt_gnode *from)
{
    switch (from->type) {
    case cudaGraphNodeTypeKernel: {
        const rt_gnode_kernel *k = &from->p.kernel;
        return rt_gnode_set_kernel(rt, to, k->k, k->grid, k->block, k->shared, k->args);
    }
    case cudaGraphNodeTypeGraph: {
        rt_graph *c = rt_graph_clone(rt, from->p.child, NULL);
        c->owned = true;
        g_hash_table_add(rt->graphs, c);
        rt_graph_free(to->p.child);
        to->p.child = c;
        return cudaSuccess;
    }
    default:
        to->p = from->p;
        return cudaSuccess;
    }
}

rt_graph *rt_graph_clone(cudart *rt, const rt_graph *g, GHashTable *map)
{
    rt_graph *c = rt_graph_new(rt);
    for (guint i = 0; i < g->nodes->len; i++) {
        const rt_gnode *n = g_ptr_array_index(g->nodes, i);
        cudaGraphNode_t *deps = g_new0(cudaGraphNode_t, n->deps->len + 1);
        for (guint j = 0; j < n->deps->len; j++)
            deps[j] = g_ptr_array_index(c->nodes, ((rt_gnode *)g_ptr_array_index(n->deps, j))->index);
        rt_gnode *m = NULL;
        rt_graph_add(c, n->type, deps, n->deps->len, &m);
        g_free(deps);
        rt_gnode_copy_params(rt, m, n);
        if (map)
            g_hash_table_insert(map, (gpointer)n, m);
    }
    /* edges added later (cudaGraphAddDependencies) may point backwards */
    for (guint i = 0; i < g->nodes->len; i++) {
        const rt_gnode *n = g_ptr_array_index(g->nodes, i);
        rt_gnode *m = g_ptr_array_index(c->nodes, i);
        for (guint j = m->deps->len; j < n->deps->len; j++) {
            rt_gnode *d = g_ptr_array_index(c->nodes, ((rt_gnode *)g_ptr_array_index(n->deps, j))->index);
            g_ptr_array_add(m->deps, d);
            g_ptr_array_add(d->out, m);
        }
    }
    return c;
}

/* Kahn's algorithm, taking ready nodes in creation order. */
GPtrArray *rt_graph_order(const rt_graph *g)
{
    guint n = g->nodes->len;
    guint *pending = g_new0(guint, n + 1);
    GPtrArray *order = g_ptr_array_sized_new(n);
    GQueue ready = G_QUEUE_INIT;
    for (guint i = 0; i < n; i++) {
        rt_gnode *x = g_ptr_array_index(g->nodes, i);
        pending[i] = x->deps->len;
        if (!pending[i])
            g_queue_push_tail(&ready, x);
    }
    while (!g_queue_is_empty(&ready)) {
        rt_gnode *x = g_queue_pop_head(&ready);
        g_ptr_array_add(order, x);
        for (guint j = 0; j < x->out->len; j++) {
            rt_gnode *y = g_ptr_array_index(x->out, j);
            if (--pending[y->index] == 0)
                g_queue_push_tail(&ready, y);
        }
    }
    g_free(pending);
    if (order->len != n) {
        g_ptr_array_free(order, TRUE);
        return NULL;
    }
    return order;
}

/* ------------------------------------------------------------- the API */

static rt_graph *graph_of(const cudart *rt, cudaGraph_t g)
{
    return rt_graph_valid(rt, g) ? (rt_graph *)g : NULL;
}

CUDART_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned flags)
{
    cudart *rt = rt_enter();
    if (!pGraph || flags)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_graph *g = rt_graph_new(rt);
    g_hash_table_add(rt->graphs, g);
    *pGraph = (cudaGraph_t)g;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    cudart *rt = rt_enter();
    rt_graph *g = graph_of(rt, graph);
    if (!g || g->owned) /* a child graph node's graph goes with the node */
        return rt_leave(rt, cudaErrorInvalidValue);
    if (g->capturing) { /* CUDA: a graph being captured into may not be destroyed */
        rt_log(rt, RT_LOG_WARN, "cudaGraphDestroy: the graph is being captured into; end the "
               "capture first");
        return rt_leave(rt, cudaErrorIllegalState);
    }
    rt_graph_free(g);
    return rt_leave(rt, cudaSuccess);
}

/* Adds a node of `type` and lets `set` fill it; a refused node is removed. */
typedef cudaError_t (*set_fn)(cudart *rt, rt_gnode *n, const void *arg);

static cudaError_t add_node(cudaGraphNode_t *pNode, cudaGraph_t graph,
                            const cudaGraphNode_t *deps, size_t ndeps, int type, set_fn set,
                            const void *arg)
{
    cudart *rt = rt_enter();
    rt_graph *g = graph_of(rt, graph);
    if (!pNode || !g)
        return rt_leave(rt, cudaErrorInvalidValue);
    rt_gnode *n = NULL;
    cudaError_t e = rt_graph_add(g, type, deps, ndeps, &n);
    if (!e && set && (e = set(rt, n, arg)) != cudaSuccess)
        rt_graph_drop_last(g);
    if (!e)
        *pNode = (cudaGraphNode_t)n;
    return rt_leave(rt, e);
}

cudaError_t rt_gnode_set_kernel_params(cudart *rt, rt_gnode *n,
                                       const struct cudaKernelNodeParams *p)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->extra) {
        if (p->kernelParams)
            return cudaErrorInvalidValue; /* both forms: CUDA's rule */
        return rt_unsupported(rt, "kernel node parameters in the 'extra' form");
    }
    return rt_gnode_set_kernel(rt, n, rt_find_kernel(rt, p->func), p->gridDim, p->blockDim,
                               p->sharedMemBytes, p->kernelParams);
}

static cudaError_t set_kernel(cudart *rt, rt_gnode *n, const void *arg)
{
    return rt_gnode_set_kernel_params(rt, n, arg);
}

static cudaError_t set_copy(cudart *rt, rt_gnode *n, const void *arg)
{
    return rt_gnode_set_copy(rt, n, arg);
}

static cudaError_t set_memset(cudart *rt, rt_gnode *n, const void *arg)
{
    return rt_gnode_set_memset(rt, n, arg);
}

static cudaError_t set_host(cudart *rt, rt_gnode *n, const void *arg)
{
    (void)rt;
    const struct cudaHostNodeParams *p = arg;
    if (!p || !p->fn)
        return cudaErrorInvalidValue;
    n->p.host = *p;
    return cudaSuccess;
}

static cudaError_t set_child(cudart *rt, rt_gnode *n, const void *arg)
{
    const rt_graph *child = graph_of(rt, (cudaGraph_t)arg);
    if (!child || child == n->graph)
        return cudaErrorInvalidValue;
    n->p.child = rt_graph_clone(rt, child, NULL);
    n->p.child->owned = true; /* cudaGraphChildGraphNodeGetGraph hands it out */
    g_hash_table_add(rt->graphs, n->p.child);
    return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *deps, size_t ndeps,
                                                 const struct cudaKernelNodeParams *p)
{
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeKernel, set_kernel, p);
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *deps, size_t ndeps,
                                                 const struct cudaMemcpy3DParms *p)
{
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeMemcpy, set_copy, p);
}

/* A 1-D copy as the one-row 3-D copy it is. */
static struct cudaMemcpy3DParms copy_1d(void *dst, const void *src, size_t count, int kind)
{
    struct cudaMemcpy3DParms p = {0};
    p.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
    p.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
    p.extent = (struct cudaExtent){count, 1, 1};
    p.kind = kind;
    return p;
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t *deps, size_t ndeps,
                                                   void *dst, const void *src, size_t count,
                                                   int kind)
{
    struct cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeMemcpy, set_copy, &p);
}

CUDART_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *deps, size_t ndeps,
                                                 const struct cudaMemsetParams *p)
{
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeMemset, set_memset, p);
}

CUDART_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *deps, size_t ndeps,
                                               const struct cudaHostNodeParams *p)
{
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeHost, set_host, p);
}

CUDART_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *deps, size_t ndeps)
{
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeEmpty, NULL, NULL);
}

CUDART_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *deps, size_t ndeps,
                                                     cudaGraph_t child)
{
    return add_node(pNode, graph, deps, ndeps, cudaGraphNodeTypeGraph, set_child, child);
}

/* Whether `to` reaches `from` (an edge from -> to would close a cycle). */
static bool reaches(const rt_gnode *to, const rt_gnode *from, GHashTable *seen)
{
    if (to == from)
        return true;
    if (!g_hash_table_add(seen, (gpointer)to))
        return false;
    for (guint i = 0; i < to->out->len; i++)
        if (reaches(g_ptr_array_index(to->out, i), from, seen))
            return true;
    return false;
}

CUDART_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                   const cudaGraphNode_t *to,
                                                   const cudaGraphEdgeData *edgeData, size_t n)
{
    cudart *rt = rt_enter();
    rt_graph *g = graph_of(rt, graph);
    if (!g || (n && (!from || !to)))
        return rt_leave(rt, cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++) {
        rt_gnode *a = node_of(rt, from[i]), *b = node_of(rt, to[i]);
        if (!a || !b || a->graph != g || b->graph != g)
            return rt_leave(rt, cudaErrorInvalidValue);
        if (edgeData) {
            static const cudaGraphEdgeData zero;
            if (memcmp(&edgeData[i], &zero, sizeof zero))
                return rt_leave(rt, rt_unsupported(rt, "graph edges with edge data (ports, "
                                                       "programmatic dependencies)"));
        }
        GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
        bool cycle = reaches(b, a, seen);
        g_hash_table_destroy(seen);
        bool dup = false;
        for (guint j = 0; j < b->deps->len; j++)
            dup = dup || g_ptr_array_index(b->deps, j) == a;
        if (cycle || dup)
            return rt_leave(rt, cudaErrorInvalidValue);
        g_ptr_array_add(b->deps, a);
        g_ptr_array_add(a->out, b);
    }
    return rt_leave(rt, cudaSuccess);
}

/* Nodes of `g` (all, or the roots) into nodes[*num] (NULL: just count). */
static cudaError_t list_nodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *num,
                              bool roots)
{
    cudart *rt = rt_enter();
    rt_graph *g = graph_of(rt, graph);
    if (!g || !num)
        return rt_leave(rt, cudaErrorInvalidValue);
    size_t k = 0;
    for (guint i = 0; i < g->nodes->len; i++) {
        rt_gnode *n = g_ptr_array_index(g->nodes, i);
        if (roots && n->deps->len)
            continue;
        if (nodes && k < *num)
            nodes[k] = (cudaGraphNode_t)n;
        k++;
    }
    if (nodes)
        for (size_t i = k; i < *num; i++)
            nodes[i] = NULL; /* CUDA zeroes the rest */
    if (!nodes || k < *num)
        *num = k;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                                            size_t *numNodes)
{
    return list_nodes(graph, nodes, numNodes, false);
}

CUDART_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                                                size_t *numNodes)
{
    return list_nodes(graph, nodes, numNodes, true);
}

CUDART_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, int *pType)
{
    cudart *rt = rt_enter();
    rt_gnode *n = node_of(rt, node);
    if (!n || !pType)
        return rt_leave(rt, cudaErrorInvalidValue);
    *pType = n->type;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                       struct cudaKernelNodeParams *p)
{
    cudart *rt = rt_enter();
    rt_gnode *n = node_of(rt, node);
    if (!n || !p || n->type != cudaGraphNodeTypeKernel)
        return rt_leave(rt, cudaErrorInvalidValue);
    const rt_gnode_kernel *k = &n->p.kernel;
    /* func: the host stub the kernel was registered with */
    void *stub = NULL;
    GHashTableIter it;
    gpointer key, val;
    g_hash_table_iter_init(&it, rt->kernels);
    while (!stub && g_hash_table_iter_next(&it, &key, &val))
        if (val == k->k)
            stub = key;
    *p = (struct cudaKernelNodeParams){stub, k->grid, k->block, (unsigned)k->shared, k->args,
                                       NULL};
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *p)
{
    cudart *rt = rt_enter();
    rt_gnode *n = node_of(rt, node);
    if (!n || n->type != cudaGraphNodeTypeKernel)
        return rt_leave(rt, cudaErrorInvalidValue);
    return rt_leave(rt, rt_gnode_set_kernel_params(rt, n, p));
}

CUDART_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
                                                          cudaGraph_t *pGraph)
{
    cudart *rt = rt_enter();
    rt_gnode *n = node_of(rt, node);
    if (!n || !pGraph || n->type != cudaGraphNodeTypeGraph)
        return rt_leave(rt, cudaErrorInvalidValue);
    *pGraph = (cudaGraph_t)n->p.child; /* owned by the node, as in CUDA */
    return rt_leave(rt, cudaSuccess);
}
