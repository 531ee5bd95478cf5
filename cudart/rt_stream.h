/* cudart/rt_stream.h — streams and events of the drop-in runtime
 * (rt_stream.c: how they map onto ptxemu's streams). */
#ifndef PTXEMU_CUDART_RT_STREAM_H
#define PTXEMU_CUDART_RT_STREAM_H

#include "cudart/rt.h"

/* The tables of rt.h, and emptying them at cudaDeviceReset. */
void rt_streams_init(cudart *rt);
void rt_streams_reset(cudart *rt);
/* The default stream, cudaStreamLegacy, cudaStreamPerThread, or one the
 * program created and has not destroyed. */
bool rt_stream_valid(const cudart *rt, cudaStream_t s);
/* The ptxemu stream behind a valid `s` (NULL: the default stream). */
ptxemu_stream *rt_stream_of(cudart *rt, cudaStream_t s);
/* The result of a call that waited for queued work: its error (a kernel's
 * failure becomes the sticky error, rt_status), or the sticky error. */
cudaError_t rt_wait(cudart *rt, ptxemu_status s, const char *call);

#endif
