/* cudart/rt_output.h — what the drop-in runtime writes at exit, and the
 * module (re)loading shared by registration and cudaDeviceReset. */
#ifndef PTXEMU_CUDART_RT_OUTPUT_H
#define PTXEMU_CUDART_RT_OUTPUT_H

#include "cudart/rt.h"

/* PTXEMU_STATS in functional mode: one JSON record per launch. */
void rt_write_functional_stats(cudart *rt);
/* PTXEMU_SUMMARY: key=value lines that `ptxemu exec` prints. */
void rt_write_summary(cudart *rt);
/* Loads (again) the PTX of every registered fatbinary into rt->ctx. */
void rt_reload_fatbins(cudart *rt);

#endif
