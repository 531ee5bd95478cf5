/* api/api_internal.h — what the ptxemu program (tools/) needs beyond the
 * public API: the decoded module behind a handle. */
#ifndef PTXEMU_RUNTIME_API_INTERNAL_H
#define PTXEMU_RUNTIME_API_INTERNAL_H

#include "runtime/exec.h"
#include "api/ptxemu.h"

ex_module *ptxemu_module_ex(ptxemu_module *mod);

/* The timing statistics of a context (NULL when timing is off). */
typedef struct tm_stats tm_stats;
const tm_stats *ptxemu_timing_stats(const ptxemu_ctx *ctx);

#endif
