/* runtime/exec_mma.h — the matrix family's decoded form, as far as the
 * timing model needs it (runtime/exec_mma.c). */
#ifndef PTXEMU_RUNTIME_EXEC_MMA_H
#define PTXEMU_RUNTIME_EXEC_MMA_H

#include "runtime/exec.h"

typedef struct ex_mma_desc ex_mma_desc;

/* Multiply-adds of an mma.sync / wmma.mma warp instruction in units of
 * .f16 ones (isa/mma.h ptx_mma_work); 0 for every other instruction. */
uint32_t ex_mma_work(const ex_instr *in);

#endif
