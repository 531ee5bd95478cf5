/* runtime/reginit.h — which registers a warp must zero at CTA start
 * (runtime/reginit.c). */
#ifndef PTXEMU_RUNTIME_REGINIT_H
#define PTXEMU_RUNTIME_REGINIT_H

#include "runtime/exec.h"

/* Fills f->zero_all/zero_slots (the loader, once the function is decoded
 * and its reguse built). */
void ex_reginit_analyze(ex_func *f);

#endif
