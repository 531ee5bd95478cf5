/* isa/exec_atomic.c — executor handlers for the atomic family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_atomic(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
