/* runtime/printf.h — the device-side system calls the executor provides. */
#ifndef PTXEMU_RUNTIME_PRINTF_H
#define PTXEMU_RUNTIME_PRINTF_H

#include "runtime/exec.h"

void ex_vprintf(ex_warp *w, const ex_call *c, uint32_t mask);
void ex_assertfail(ex_warp *w, const ex_call *c, uint32_t mask);

#endif
