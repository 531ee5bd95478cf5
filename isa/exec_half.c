/* isa/exec_half.c — executor handlers for the half family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_half(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
