/* timing/kmu.h — the kernel management unit (KMU) and the kernel dispatch
 * unit (KDU) of a timing run (thesis §5.4; LaPerm's baseline, SEED-TARGETS
 * §6): which submission arrives on the GPU when.
 *
 * A submission waits in the KMU until its arrival cycle has come and every
 * submission it depends on (tm_submit.after: stream order, events) has
 * finished.  A kernel then needs one of the KDU's `entries` (kernel.hw_queues,
 * 32 on Kepler): kernels resident at once; a ready kernel finding the KDU
 * full waits, and kernels enter first come first served (earliest ready,
 * ties in submission order).  Host operations (memory copies, event
 * records) take no entry and no time: they run the cycle they are ready.
 * CTAs appended to a kernel (tm_submit.append_to) join it once it is
 * resident.
 *
 * When a kernel finishes at cycle c its dependants may arrive at c + 1; a
 * host operation's dependants may arrive the same cycle. */
#ifndef PTXEMU_TIMING_KMU_H
#define PTXEMU_TIMING_KMU_H

#include "timing/gpu.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define TM_KMU_NONE UINT32_MAX

typedef struct tm_kmu_sub {
    tm_submit s;
    uint32_t kernel;             /* the run's kernel it forms or joins; NONE: host op */
    uint32_t waiting;            /* predecessors not finished */
    uint64_t ready;              /* earliest arrival allowed by arrival and
                                    finished predecessors */
    uint64_t done;               /* cycle it finished (TM_KMU_NOT_DONE: not yet) */
    bool arrived;
    bool released;               /* gave its KDU entry back before it finished */
} tm_kmu_sub;

#define TM_KMU_NOT_DONE UINT64_MAX

typedef struct tm_kmu {
    tm_kmu_sub *subs;
    uint32_t n, cap;
    uint32_t *succ_first;        /* [n + 1]: CSR of successors */
    uint32_t *succ;
    uint32_t entries, used;      /* KDU entries and those held */
    uint32_t unfinished;         /* submissions not finished */
} tm_kmu;

/* Takes the run's submissions (arrivals relative to `start`); `kernel_of`
 * gives each its kernel index (TM_KMU_NONE for host operations).  False
 * with a message when a dependency does not name an earlier submission. */
bool tm_kmu_init(tm_kmu *q, const tm_submit *subs, const uint32_t *kernel_of, uint32_t n,
                 uint64_t start, uint32_t entries, GError **error);
void tm_kmu_free(tm_kmu *q);

/* The next submission that arrives at `now` (marked arrived; a kernel takes
 * a KDU entry), or TM_KMU_NONE.  `resident(kernel)` tells whether a kernel
 * an appended submission joins is resident. */
uint32_t tm_kmu_pop(tm_kmu *q, uint64_t now, bool (*resident)(void *user, uint32_t kernel),
                    void *user);

/* A submission made during the run (a device-side launch, timing/gpu_cdp.c):
 * kernel `kernel` of launch L, ready from cycle `ready`, depending on
 * nothing.  Returns its index. */
uint32_t tm_kmu_add(tm_kmu *q, ex_launch *L, uint32_t kernel, uint64_t ready);
/* Kernel submission i leaves the KDU before it finishes (its CTAs are done
 * and it waits only for the grids it launched). */
void tm_kmu_release(tm_kmu *q, uint32_t i);

/* Submission i finished at `cycle` (a kernel: all of its submissions). */
void tm_kmu_finish(tm_kmu *q, uint32_t i, uint64_t cycle);

/* The earliest cycle at which a waiting submission may arrive (kernels only
 * while the KDU has a free entry); TM_NEVER when none can without an event. */
uint64_t tm_kmu_next_cycle(const tm_kmu *q);

static inline bool tm_kmu_all_done(const tm_kmu *q)
{
    return q->unfinished == 0;
}

#endif
