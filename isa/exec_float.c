/* isa/exec_float.c — executor handlers for the float family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_float(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
