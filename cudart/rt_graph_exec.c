/* cudart/rt_graph_exec.c — executable graphs: cudaGraphInstantiate
 * (a private copy of the graph, so later edits of the graph do not reach
 * it, as in CUDA), cudaGraphLaunch, cudaGraphExecKernelNodeSetParams and
 * cudaGraphExecUpdate for a graph of the same topology.
 *
 * A launch queues the graph's nodes on the launch stream in an order that
 * respects every dependency (rt_graph_order), through the same stream
 * operations as cudaLaunchKernel, cudaMemcpy2DAsync, cudaMemset2DAsync and
 * cudaLaunchHostFunc: so the graph runs after the stream's earlier work and
 * before its later work.  Independent branches of a graph therefore run one
 * after another, which is one order CUDA allows (under timing they do not
 * overlap each other in simulated time).  A launch into a capturing stream
 * is captured as a child graph node. */
#include "cudart/rt_graph.h"
#include "cudart/rt_stream.h"

#include <string.h>

#define CUDART_EXPORT __attribute__((visibility("default")))

/* cudaGraphInstantiateFlags */
#define INST_AUTO_FREE 1ull
#define INST_UPLOAD 2ull
#define INST_DEVICE_LAUNCH 4ull
#define INST_NODE_PRIORITY 8ull

typedef struct rt_graph_exec {
    rt_graph *g;                 /* private copy */
    GHashTable *map;             /* node of the program's graph -> its copy */
    unsigned long long flags;
} rt_graph_exec;

static void exec_free(gpointer p)
{
    rt_graph_exec *x = p;
    rt_graph_free(x->g);
    g_hash_table_destroy(x->map);
    g_free(x);
}

static rt_graph_exec *exec_of(const cudart *rt, cudaGraphExec_t e)
{
    return e && rt->graph_execs && g_hash_table_contains(rt->graph_execs, e) ? (rt_graph_exec *)e
                                                                             : NULL;
}

static cudaError_t instantiate(cudaGraphExec_t *pExec, cudaGraph_t graph, unsigned long long flags)
{
    cudart *rt = rt_enter();
    if (!pExec || !rt_graph_valid(rt, graph))
        return rt_leave(rt, cudaErrorInvalidValue);
    if (flags & ~(INST_AUTO_FREE | INST_DEVICE_LAUNCH | INST_NODE_PRIORITY))
        return rt_leave(rt, cudaErrorInvalidValue); /* Upload: only WithParams */
    if (flags & INST_DEVICE_LAUNCH)
        return rt_leave(rt, rt_unsupported(rt, "cudaGraphInstantiateFlagDeviceLaunch (graphs "
                                               "launched from the device)"));
    GPtrArray *order = rt_graph_order((rt_graph *)graph);
    if (!order)
        return rt_leave(rt, cudaErrorInvalidValue);
    g_ptr_array_free(order, TRUE);
    if (!rt->graph_execs)
        rt->graph_execs = g_hash_table_new_full(g_direct_hash, g_direct_equal, exec_free, NULL);
    rt_graph_exec *x = g_new0(rt_graph_exec, 1);
    x->map = g_hash_table_new(g_direct_hash, g_direct_equal);
    x->g = rt_graph_clone(rt, (rt_graph *)graph, x->map);
    x->flags = flags;
    g_hash_table_add(rt->graph_execs, x);
    *pExec = (cudaGraphExec_t)x;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pExec, cudaGraph_t graph,
                                               unsigned long long flags)
{
    return instantiate(pExec, graph, flags);
}

CUDART_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pExec,
                                                        cudaGraph_t graph,
                                                        unsigned long long flags)
{
    return instantiate(pExec, graph, flags);
}

CUDART_EXPORT cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long *flags)
{
    cudart *rt = rt_enter();
    rt_graph_exec *x = exec_of(rt, exec);
    if (!x || !flags)
        return rt_leave(rt, cudaErrorInvalidValue);
    *flags = x->flags;
    return rt_leave(rt, cudaSuccess);
}

CUDART_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    cudart *rt = rt_enter();
    rt_graph_exec *x = exec_of(rt, exec);
    if (!x)
        return rt_leave(rt, cudaErrorInvalidValue);
    /* queued work holds copies of everything it needs (arguments, staged
     * sources), so the graph may go now */
    g_hash_table_remove(rt->graph_execs, x);
    return rt_leave(rt, cudaSuccess);
}

/* ---------------------------------------------------------------- launch */

static char *at(const struct cudaPitchedPtr *p, struct cudaPos pos, size_t z)
{
    return (char *)p->ptr + (pos.z + z) * p->pitch * p->ysize + pos.y * p->pitch + pos.x;
}

static cudaError_t run_copy(cudart *rt, const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    const struct cudaExtent *x = &p->extent;
    cudaError_t e = cudaSuccess;
    for (size_t z = 0; !e && z < x->depth; z++)
        e = rt_copy_2d_async(rt, at(&p->dstPtr, p->dstPos, z), p->dstPtr.pitch,
                             at(&p->srcPtr, p->srcPos, z), p->srcPtr.pitch, x->width, x->height,
                             p->kind, s);
    return e;
}

/* A memset of 2- or 4-byte elements: bytewise when every byte of the value
 * is the same, else each row is copied from a host row of the pattern (the
 * copy stages its source when it is queued). */
static cudaError_t run_memset(cudart *rt, const struct cudaMemsetParams *p, cudaStream_t s)
{
    size_t es = p->elementSize, row = p->width * es, pitch = p->height > 1 ? p->pitch : row;
    uint32_t v = p->value;
    bool uniform = es == 1 || (es == 2 && (v & 0xff) == ((v >> 8) & 0xff)) ||
                   (es == 4 && v == (v & 0xff) * 0x01010101u);
    if (uniform)
        return rt_set_2d_async(rt, p->dst, pitch, (int)(v & 0xff), row, p->height, s);
    uint8_t *buf = g_try_malloc(row ? row : 1);
    if (!buf)
        return cudaErrorMemoryAllocation;
    for (size_t i = 0; i < p->width; i++)
        memcpy(buf + i * es, es == 2 ? (const void *)&(uint16_t){(uint16_t)v} : (const void *)&v,
               es);
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; !e && r < p->height; r++)
        e = rt_copy_async(rt, (char *)p->dst + r * pitch, buf, row, 4 /* cudaMemcpyDefault */, s);
    g_free(buf);
    return e;
}

static cudaError_t run_graph(cudart *rt, rt_graph *g, cudaStream_t s)
{
    GPtrArray *order = rt_graph_order(g);
    if (!order)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    for (guint i = 0; !e && i < order->len; i++) {
        rt_gnode *n = g_ptr_array_index(order, i);
        switch (n->type) {
        case cudaGraphNodeTypeKernel: {
            rt_gnode_kernel *k = &n->p.kernel;
            e = rt_launch_kernel(rt, k->k, k->grid, k->block, k->args, k->shared, s);
            break;
        }
        case cudaGraphNodeTypeMemcpy: e = run_copy(rt, &n->p.copy, s); break;
        case cudaGraphNodeTypeMemset: e = run_memset(rt, &n->p.set, s); break;
        case cudaGraphNodeTypeHost: e = rt_host_func(rt, s, n->p.host.fn, n->p.host.userData); break;
        case cudaGraphNodeTypeGraph: e = run_graph(rt, n->p.child, s); break;
        default: break; /* empty */
        }
    }
    g_ptr_array_free(order, TRUE);
    return e;
}

CUDART_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    cudart *rt = rt_enter();
    rt_graph_exec *x = exec_of(rt, exec);
    if (!x) {
        rt_log(rt, RT_LOG_INFO, "cudaGraphLaunch: %p is not an executable graph "
               "(cudaGraphInstantiate makes one)", (void *)exec);
        return rt_leave(rt, cudaErrorInvalidValue);
    }
    if (!rt_stream_valid(rt, stream))
        return rt_leave(rt, cudaErrorInvalidResourceHandle);
    if (!rt->ctx)
        return rt_leave(rt, rt->init_error);
    if (rt->sticky)
        return rt_leave(rt, rt->sticky);
    GPtrArray *deps = NULL;
    rt_graph *cg = NULL;
    cudaError_t e = rt_capture_begin_op(rt, stream, &cg, &deps);
    if (e)
        return rt_leave(rt, e);
    if (cg) { /* captured: a child graph node holding a copy of this graph */
        rt_gnode *n = NULL;
        e = rt_graph_add(cg, cudaGraphNodeTypeGraph, (const cudaGraphNode_t *)deps->pdata,
                         deps->len, &n);
        if (e)
            return rt_leave(rt, e);
        n->p.child = rt_graph_clone(rt, x->g, NULL);
        n->p.child->owned = true;
        g_hash_table_add(rt->graphs, n->p.child);
        rt_capture_added(rt, stream, n);
        return rt_leave(rt, cudaSuccess);
    }
    return rt_leave(rt, run_graph(rt, x->g, stream));
}

CUDART_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec,
                                                           cudaGraphNode_t node,
                                                           const struct cudaKernelNodeParams *p)
{
    cudart *rt = rt_enter();
    rt_graph_exec *x = exec_of(rt, exec);
    rt_gnode *n = x ? g_hash_table_lookup(x->map, node) : NULL;
    if (!n || n->type != cudaGraphNodeTypeKernel)
        return rt_leave(rt, cudaErrorInvalidValue);
    return rt_leave(rt, rt_gnode_set_kernel_params(rt, n, p));
}

/* Whether graph b has a's topology: the same number of nodes, of the same
 * types, with the same dependencies (nodes paired in creation order, as
 * CUDA pairs the nodes of a graph and its captured or rebuilt twin). */
static bool same_topology(const rt_graph *a, const rt_graph *b, cudaGraphExecUpdateResultInfo *info)
{
    if (a->nodes->len != b->nodes->len) {
        info->result = cudaGraphExecUpdateErrorTopologyChanged;
        return false;
    }
    for (guint i = 0; i < a->nodes->len; i++) {
        const rt_gnode *m = g_ptr_array_index(a->nodes, i), *n = g_ptr_array_index(b->nodes, i);
        if (m->type != n->type) {
            info->result = cudaGraphExecUpdateErrorNodeTypeChanged;
            info->errorNode = (cudaGraphNode_t)n;
            return false;
        }
        bool same = m->deps->len == n->deps->len;
        for (guint j = 0; same && j < m->deps->len; j++) {
            guint want = ((rt_gnode *)g_ptr_array_index(m->deps, j))->index;
            bool found = false;
            for (guint k = 0; k < n->deps->len; k++)
                found = found || ((rt_gnode *)g_ptr_array_index(n->deps, k))->index == want;
            same = found;
        }
        if (!same) {
            info->result = cudaGraphExecUpdateErrorTopologyChanged;
            info->errorNode = (cudaGraphNode_t)n;
            return false;
        }
        if (m->type == cudaGraphNodeTypeGraph && !same_topology(m->p.child, n->p.child, info)) {
            info->errorNode = (cudaGraphNode_t)n;
            return false;
        }
    }
    return true;
}

CUDART_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                              cudaGraphExecUpdateResultInfo *info)
{
    cudart *rt = rt_enter();
    cudaGraphExecUpdateResultInfo local;
    if (!info)
        info = &local;
    *info = (cudaGraphExecUpdateResultInfo){cudaGraphExecUpdateError, NULL, NULL};
    rt_graph_exec *x = exec_of(rt, exec);
    if (!x || !rt_graph_valid(rt, graph))
        return rt_leave(rt, cudaErrorInvalidValue);
    const rt_graph *g = (const rt_graph *)graph;
    if (!same_topology(x->g, g, info)) {
        rt_log(rt, RT_LOG_INFO, "cudaGraphExecUpdate: the graph's topology differs from the "
               "executable graph's (result %d)", info->result);
        return rt_leave(rt, cudaErrorGraphExecUpdateFailure);
    }
    for (guint i = 0; i < g->nodes->len; i++) {
        rt_gnode *to = g_ptr_array_index(x->g->nodes, i);
        const rt_gnode *from = g_ptr_array_index(g->nodes, i);
        cudaError_t e = rt_gnode_copy_params(rt, to, from);
        if (e) {
            info->result = cudaGraphExecUpdateErrorParametersChanged;
            info->errorNode = (cudaGraphNode_t)from;
            return rt_leave(rt, cudaErrorGraphExecUpdateFailure);
        }
        /* the new graph's nodes name the same executable nodes */
        g_hash_table_insert(x->map, (gpointer)from, to);
    }
    info->result = cudaGraphExecUpdateSuccess;
    return rt_leave(rt, cudaSuccess);
}
