/* cudart/rt_output.h — what the drop-in runtime writes at exit, and the
 * module (re)loading shared by registration and cudaDeviceReset. */
#ifndef PTXEMU_CUDART_RT_OUTPUT_H
#define PTXEMU_CUDART_RT_OUTPUT_H

#include "cudart/rt.h"

/* PTXEMU_STATS in functional mode: one JSON record per launch. */
void rt_write_functional_stats(cudart *rt);
/* PTXEMU_SUMMARY: key=value lines that `ptxemu exec` prints. */
void rt_write_summary(cudart *rt);
/* Remembers the first output file that could not be written (`message`
 * names it and the reason), for the summary: `ptxemu exec` then fails. */
void rt_output_failed(cudart *rt, const char *message);
/* Loads (again) the PTX of every registered fatbinary into rt->ctx. */
void rt_reload_fatbins(cudart *rt);

#endif
