/* runtime/its.h — independent thread scheduling: per-lane PCs, with the
 * SIMT stack holding only the group issuing now (runtime/its.c). */
#ifndef PTXEMU_RUNTIME_ITS_H
#define PTXEMU_RUNTIME_ITS_H

#include "runtime/exec.h"

/* The ITS driver: one instruction of the issuing group at a time. */
void ex_its_run(ex_warp *w, uint64_t budget);
/* After one instruction of the issuing group: records the group's lanes'
 * PCs and puts the next group on the SIMT stack. */
void ex_its_settle(ex_warp *w);
/* Runs the issuing group's .sync collective together with the lanes that
 * wait at the same kind of instruction elsewhere (its_cross). */
void ex_its_cross_step(ex_warp *w);
/* Starts the per-lane PCs of a fresh warp (all lanes at pc 0). */
void ex_its_init(ex_warp *w);
/* Fills f->straight (the loader, once the function is decoded). */
void ex_its_straight(ex_func *f);

#endif
