/* cudart/rt_ptsz.c — the per-thread default stream forms (_ptsz, _ptds)
 * that nvcc's --default-stream per-thread (CUDA_API_PER_THREAD_DEFAULT_STREAM)
 * selects.  In them the NULL stream means cudaStreamPerThread; everything
 * else is the ordinary call.  A synchronous _ptds call waits for all queued
 * work rather than only its thread's stream, which is a stronger wait and
 * so one valid schedule.  The 3-D and cooperative forms are not here
 * (unsupported.def). */
#include "cudart/rt.h"

#define CUDART_EXPORT __attribute__((visibility("default")))
#define STREAM_PER_THREAD ((cudaStream_t)0x2)

/* The ordinary calls (rt_memory.c, rt_stream.c). */
cudaError_t cudaMemcpy(void *, const void *, size_t, int);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t, int, cudaStream_t);
cudaError_t cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, int);
cudaError_t cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, int,
                              cudaStream_t);
cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, size_t, int);
cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, size_t, int);
cudaError_t cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t, int,
                                    cudaStream_t);
cudaError_t cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t, int, cudaStream_t);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t);
cudaError_t cudaMemset2D(void *, size_t, int, size_t, size_t);
cudaError_t cudaMemset2DAsync(void *, size_t, int, size_t, size_t, cudaStream_t);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamQuery(cudaStream_t);
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned);
cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned *);
cudaError_t cudaStreamGetPriority(cudaStream_t, int *);
cudaError_t cudaStreamIsCapturing(cudaStream_t, int *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t, cudaStream_t, unsigned);
cudaError_t cudaLaunchHostFunc(cudaStream_t, void (*)(void *), void *);
cudaError_t cudaStreamBeginCapture(cudaStream_t, int);
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t, int *, unsigned long long *, cudaGraph_t *,
                                     const cudaGraphNode_t **, const cudaGraphEdgeData **,
                                     size_t *);
cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaMallocAsync(void **, size_t, cudaStream_t);
cudaError_t cudaFreeAsync(void *, cudaStream_t);
cudaError_t cudaMallocFromPoolAsync(void **, size_t, cudaMemPool_t, cudaStream_t);
cudaError_t cudaStreamAddCallback(cudaStream_t, void (*)(cudaStream_t, cudaError_t, void *),
                                  void *, unsigned);

static cudaStream_t ptsz(cudaStream_t s)
{
    return s ? s : STREAM_PER_THREAD;
}

/* Prototypes first: the exported names are declared nowhere else. */
#define PTXEMU_PT(ret, name, params) CUDART_EXPORT ret name params; CUDART_EXPORT ret name params

PTXEMU_PT(cudaError_t, cudaMemcpy_ptds, (void *d, const void *s, size_t n, int k))
{
    return cudaMemcpy(d, s, n, k);
}

PTXEMU_PT(cudaError_t, cudaMemcpyAsync_ptsz,
          (void *d, const void *s, size_t n, int k, cudaStream_t st))
{
    return cudaMemcpyAsync(d, s, n, k, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMemcpy2D_ptds,
          (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, int k))
{
    return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}

PTXEMU_PT(cudaError_t, cudaMemcpy2DAsync_ptsz, (void *d, size_t dp, const void *s, size_t sp,
                                                size_t w, size_t h, int k, cudaStream_t st))
{
    return cudaMemcpy2DAsync(d, dp, s, sp, w, h, k, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMemcpyToSymbol_ptds,
          (const void *sym, const void *s, size_t n, size_t off, int k))
{
    return cudaMemcpyToSymbol(sym, s, n, off, k);
}

PTXEMU_PT(cudaError_t, cudaMemcpyFromSymbol_ptds,
          (void *d, const void *sym, size_t n, size_t off, int k))
{
    return cudaMemcpyFromSymbol(d, sym, n, off, k);
}

PTXEMU_PT(cudaError_t, cudaMemcpyToSymbolAsync_ptsz,
          (const void *sym, const void *s, size_t n, size_t off, int k, cudaStream_t st))
{
    return cudaMemcpyToSymbolAsync(sym, s, n, off, k, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMemcpyFromSymbolAsync_ptsz,
          (void *d, const void *sym, size_t n, size_t off, int k, cudaStream_t st))
{
    return cudaMemcpyFromSymbolAsync(d, sym, n, off, k, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMemset_ptds, (void *p, int v, size_t n))
{
    return cudaMemset(p, v, n);
}

PTXEMU_PT(cudaError_t, cudaMemsetAsync_ptsz, (void *p, int v, size_t n, cudaStream_t st))
{
    return cudaMemsetAsync(p, v, n, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMemset2D_ptds, (void *p, size_t pitch, int v, size_t w, size_t h))
{
    return cudaMemset2D(p, pitch, v, w, h);
}

PTXEMU_PT(cudaError_t, cudaMemset2DAsync_ptsz,
          (void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t st))
{
    return cudaMemset2DAsync(p, pitch, v, w, h, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaStreamSynchronize_ptsz, (cudaStream_t st))
{
    return cudaStreamSynchronize(ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaStreamQuery_ptsz, (cudaStream_t st))
{
    return cudaStreamQuery(ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaStreamWaitEvent_ptsz, (cudaStream_t st, cudaEvent_t e, unsigned f))
{
    return cudaStreamWaitEvent(ptsz(st), e, f);
}

PTXEMU_PT(cudaError_t, cudaStreamGetFlags_ptsz, (cudaStream_t st, unsigned *f))
{
    return cudaStreamGetFlags(ptsz(st), f);
}

PTXEMU_PT(cudaError_t, cudaStreamGetPriority_ptsz, (cudaStream_t st, int *p))
{
    return cudaStreamGetPriority(ptsz(st), p);
}

PTXEMU_PT(cudaError_t, cudaStreamIsCapturing_ptsz, (cudaStream_t st, int *status))
{
    return cudaStreamIsCapturing(ptsz(st), status);
}

PTXEMU_PT(cudaError_t, cudaStreamBeginCapture_ptsz, (cudaStream_t st, int mode))
{
    return cudaStreamBeginCapture(ptsz(st), mode);
}

PTXEMU_PT(cudaError_t, cudaStreamEndCapture_ptsz, (cudaStream_t st, cudaGraph_t *g))
{
    return cudaStreamEndCapture(ptsz(st), g);
}

PTXEMU_PT(cudaError_t, cudaStreamGetCaptureInfo_ptsz,
          (cudaStream_t st, int *status, unsigned long long *id, cudaGraph_t *g,
           const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges, size_t *n))
{
    return cudaStreamGetCaptureInfo(ptsz(st), status, id, g, deps, edges, n);
}

PTXEMU_PT(cudaError_t, cudaGraphLaunch_ptsz, (cudaGraphExec_t x, cudaStream_t st))
{
    return cudaGraphLaunch(x, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMallocAsync_ptsz, (void **p, size_t n, cudaStream_t st))
{
    return cudaMallocAsync(p, n, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaFreeAsync_ptsz, (void *p, cudaStream_t st))
{
    return cudaFreeAsync(p, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaMallocFromPoolAsync_ptsz,
          (void **p, size_t n, cudaMemPool_t pool, cudaStream_t st))
{
    return cudaMallocFromPoolAsync(p, n, pool, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaEventRecord_ptsz, (cudaEvent_t e, cudaStream_t st))
{
    return cudaEventRecord(e, ptsz(st));
}

PTXEMU_PT(cudaError_t, cudaEventRecordWithFlags_ptsz,
          (cudaEvent_t e, cudaStream_t st, unsigned f))
{
    return cudaEventRecordWithFlags(e, ptsz(st), f);
}

PTXEMU_PT(cudaError_t, cudaLaunchHostFunc_ptsz,
          (cudaStream_t st, void (*fn)(void *), void *user))
{
    return cudaLaunchHostFunc(ptsz(st), fn, user);
}

PTXEMU_PT(cudaError_t, cudaStreamAddCallback_ptsz,
          (cudaStream_t st, void (*cb)(cudaStream_t, cudaError_t, void *), void *user,
           unsigned flags))
{
    return cudaStreamAddCallback(ptsz(st), cb, user, flags);
}
