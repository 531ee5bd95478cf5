/* sched/filter/perf_sat.h — the Perf-Sat detection state machine (thesis
 * §4.3.2, Fig. 4.4) on its own, so that tests can drive it with a scripted
 * stall curve S(N).  sched/filter/perf_sat.c runs one per core. */
#ifndef PTXEMU_SCHED_FILTER_PERF_SAT_H
#define PTXEMU_SCHED_FILTER_PERF_SAT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum psat_mode { PSAT_WI, PSAT_WD, PSAT_SI, PSAT_SD, PSAT_DONE } psat_mode;

typedef struct psat_fsm {
    uint32_t n, nmax, c;       /* current cap, the most that fit, the start */
    psat_mode mode;
    bool d, h;                 /* direction confirmed; history bit */
    bool fell;                 /* in a weak mode after a strong sample was discarded */
    uint64_t p;                /* stored sample */
    uint32_t samples;
    uint32_t weak_toggles;     /* WI <-> WD */
    uint32_t strong_toggles;   /* weak <-> strong */
} psat_fsm;

/* Start on a kernel: cap N = ceil(nmax / 2). */
void psat_start(psat_fsm *m, uint32_t nmax);
/* One sample: s = stalled cycles measured with the cap at m->n.  Returns the
 * cap for the next sample; m->mode == PSAT_DONE once N is fixed. */
uint32_t psat_sample(psat_fsm *m, uint64_t s);

#endif
