/* sched/warp/two_level.h — the queues of the thesis's two-level warp
 * scheduler (Fig. 3.6), shared by tl-rr, tl-gto and pa-tl.
 *
 * Every warp of a scheduler is in exactly one queue:
 *   ready    at most fetch_group warps, the only ones that may issue;
 *   active   warps waiting for a ready slot, in the policy's order;
 *   pending  warps that reached a consumer of an outstanding long-latency
 *            result (a memory scoreboard wait), a barrier, or a backoff.
 * A ready warp that becomes pending leaves the ready queue; a pending warp
 * whose long-latency operations have all completed (no memory instruction
 * in flight and no longer waiting on one, a barrier or a backoff) joins
 * the active queue, which is then kept sorted by the policy's key (none:
 * the tail); the head of active fills a free ready slot.  New warps join
 * active as returning ones do; finished warps leave every queue.
 *
 * The queues are rebuilt from the views at every pick (O(warps), no
 * allocation), so no hook is needed and the issue path stays untouched:
 * a warp's arrival shows as a new age in its view, its departure as an
 * empty or completed view. */
#ifndef PTXEMU_SCHED_WARP_TWO_LEVEL_H
#define PTXEMU_SCHED_WARP_TWO_LEVEL_H

#include "sched/sched.h"

/* How the active queue is ordered. */
typedef enum tl_sort {
    TL_SORT_NONE,   /* arrival order: round robin over fetch groups */
    TL_SORT_AGE,    /* launch order, oldest first */
    TL_SORT_PHASE,  /* length of the phase the warp runs next, shortest
                       first; ties to the oldest */
} tl_sort;

/* How the ready queue picks the warp that issues. */
typedef enum tl_order {
    TL_ORDER_PA,    /* smallest phase distance; ties to the oldest */
    TL_ORDER_RR,    /* round robin from the warp after the last issued */
    TL_ORDER_GTO,   /* the last issued while it can, else the oldest */
    TL_ORDER_COUNT
} tl_order;

enum { TL_NONE, TL_READY, TL_ACTIVE, TL_PENDING };

typedef struct tl_queues {
    uint32_t fetch_group;
    tl_sort sort;
    tl_order order;
    uint8_t where[SCHED_MAX_WARP_SLOTS];    /* TL_* per view index */
    uint64_t age[SCHED_MAX_WARP_SLOTS];     /* the warp tracked in that view */
    uint16_t ready[SCHED_MAX_WARP_SLOTS];   /* view indices, entry order */
    uint16_t active[SCHED_MAX_WARP_SLOTS];  /* view indices, queue order */
    uint32_t nready, nactive;
    uint32_t rr_next;                       /* RR: ready position to try first */
    int32_t last;                           /* GTO: view index issued last */
    uint64_t last_age;
} tl_queues;

void tl_init(tl_queues *q, uint32_t fetch_group, tl_sort sort, tl_order order);

/* Brings the queues up to date with the views (the movements above). */
void tl_update(tl_queues *q, const sched_warp_view *views, uint32_t n);

/* The ready warp that issues now in the queue's order, or -1. */
int32_t tl_pick_ready(tl_queues *q, const sched_warp_view *views, uint32_t n);

/* The whole decision: update, then pick; `why` names the queue sizes. */
int32_t tl_pick(tl_queues *q, const sched_warp_ctx *ctx, const sched_warp_view *views,
                uint32_t n, char *why);

/* A warp's phase distance / phase length as the policies compare them
 * (UINT32_MAX without annotations, so such warps sort last). */
static inline uint32_t tl_distance(const sched_warp_view *v)
{
    return v->annot ? v->annot->phase_distance : UINT32_MAX;
}

static inline uint32_t tl_phase_length(const sched_warp_view *v)
{
    return v->annot ? v->annot->phase_length : UINT32_MAX;
}

#endif
