/* isa/exec_convert.c — executor handlers for the convert family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_convert(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
