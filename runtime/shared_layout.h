/* runtime/shared_layout.h — static shared-memory layout of a module
 * (runtime/shared_layout.c) and the size/alignment of a variable. */
#ifndef PTXEMU_RUNTIME_SHARED_LAYOUT_H
#define PTXEMU_RUNTIME_SHARED_LAYOUT_H

#include "runtime/exec.h"

/* Bytes of a variable (element size x vector width x array dimensions) and
 * its alignment (.align, else the element size). */
uint64_t ex_var_size(const ptx_var *v);
uint32_t ex_var_align(const ptx_var *v);
/* A function's .local or .param variable: it lives in each thread's frame
 * (an offset there), not at a module address. */
static inline bool ex_var_in_frame(const ptx_var *v)
{
    return v->func >= 0 && (v->space == PTX_SPACE_LOCAL || v->space == PTX_SPACE_PARAM);
}

/* Places the static .shared variables `vars` and the dynamic ones `dyn`
 * (indices into the module's variables): sets m->var_addr for each and
 * every function's shared_static and shared_reserved; returns the largest
 * static size of any kernel. */
uint32_t ex_layout_shared(ex_module *m, const GArray *vars, const GArray *dyn);

#endif
