/* isa/annot.h — compiler-side annotations of one instruction.
 *
 * The phase pass (frontend/phase.c) and the spin-candidate pass compute
 * them; the loader keeps a copy per decoded instruction (default latency
 * table) and the timing model one per GPU config (its own latencies, so
 * that phase distances are in the cycles the model runs).  The type lives
 * in isa/ because both the runtime and the scheduling policies (which see
 * only sched/ and isa/) read it. */
#ifndef PTXEMU_ISA_ANNOT_H
#define PTXEMU_ISA_ANNOT_H

#include <stdint.h>

typedef struct ptx_annot {
    uint32_t phase;             /* phase id within the function */
    uint32_t phase_distance;    /* cycles to the end of its phase */
    uint32_t phase_length;      /* cycles of its own phase */
    uint32_t next_phase_length; /* cycles of the phase that follows, 0 if none */
    uint8_t long_latency;       /* thesis §3.3.1 footnote 1 */
    uint8_t spin_candidate;     /* a setp-spin candidate (spin seed §2) */
    uint8_t spin_loop;          /* in a loop the spin pass reported a candidate
                                   for (issue slots spent spinning) */
} ptx_annot;

#endif
