/* cudart/rt_stream.h — streams and events of the drop-in runtime. */
#ifndef PTXEMU_CUDART_RT_STREAM_H
#define PTXEMU_CUDART_RT_STREAM_H

#include "cudart/rt.h"

/* The default stream, cudaStreamLegacy, cudaStreamPerThread, or one the
 * program created and has not destroyed. */
bool rt_stream_valid(const cudart *rt, cudaStream_t s);
/* A launch of `cycles` simulated cycles finished on `s` (event times). */
void rt_stream_advance(cudart *rt, cudaStream_t s, uint64_t cycles);

#endif
