/* isa/exec_warp.c — executor handlers for the warp family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_warp(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
