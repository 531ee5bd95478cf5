/* isa/exec_video.c — executor handlers for the video family (decoded at load time). */
#include "runtime/exec.h"

bool ex_decode_video(ex_decoder *d, ex_instr *in)
{
    (void)d;
    (void)in;
    return false; /* no instruction of this family can run yet */
}
