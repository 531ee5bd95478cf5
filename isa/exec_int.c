/* isa/exec_int.c — executor handlers for the int family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_int(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
