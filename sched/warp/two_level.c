/* sched/warp/two_level.c — the ready/active/pending queues of the
 * two-level warp schedulers (thesis §3.4.3, Fig. 3.6); see two_level.h. */
#include "sched/warp/two_level.h"

#include <stdio.h>
#include <string.h>

void tl_init(tl_queues *q, uint32_t fetch_group, tl_sort sort, tl_order order)
{
    memset(q, 0, sizeof *q);
    q->fetch_group = fetch_group ? fetch_group : 1;
    q->sort = sort;
    q->order = order < TL_ORDER_COUNT ? order : TL_ORDER_PA;
    q->last = -1;
}

/* Waiting on a long-latency operation: a memory result, a barrier or a
 * backoff (thesis §3.3.1 footnote 1: loads, stores, branches, sync). */
static bool long_wait(uint8_t state)
{
    return state == SCHED_WS_SB_MEM || state == SCHED_WS_BARRIER || state == SCHED_WS_BACKOFF;
}

static bool gone(uint8_t state)
{
    return state == SCHED_WS_EMPTY || state == SCHED_WS_DONE;
}

static void drop_ready(tl_queues *q, uint32_t v)
{
    for (uint32_t j = 0; j < q->nready; j++)
        if (q->ready[j] == v) {
            memmove(&q->ready[j], &q->ready[j + 1], (q->nready - j - 1) * sizeof q->ready[0]);
            q->nready--;
            if (j < q->rr_next)
                q->rr_next--;
            return;
        }
}

static void drop_active(tl_queues *q, uint32_t v)
{
    for (uint32_t j = 0; j < q->nactive; j++)
        if (q->active[j] == v) {
            memmove(&q->active[j], &q->active[j + 1],
                    (q->nactive - j - 1) * sizeof q->active[0]);
            q->nactive--;
            return;
        }
}

static void leave(tl_queues *q, uint32_t v)
{
    if (q->where[v] == TL_READY)
        drop_ready(q, v);
    else if (q->where[v] == TL_ACTIVE)
        drop_active(q, v);
    q->where[v] = TL_NONE;
}

/* Does a come before b in the active queue? */
static bool before(const tl_queues *q, const sched_warp_view *views, uint16_t a, uint16_t b)
{
    if (q->sort == TL_SORT_PHASE) {
        uint32_t la = tl_phase_length(&views[a]), lb = tl_phase_length(&views[b]);
        if (la != lb)
            return la < lb;
    }
    return views[a].age < views[b].age;
}

/* Stable insertion sort of active[from..]: the entries before `from` were
 * sorted, so re-sorting after arrivals costs little. */
static void sort_active(tl_queues *q, const sched_warp_view *views)
{
    for (uint32_t i = 1; i < q->nactive; i++) {
        uint16_t x = q->active[i];
        uint32_t j = i;
        while (j > 0 && before(q, views, x, q->active[j - 1])) {
            q->active[j] = q->active[j - 1];
            j--;
        }
        q->active[j] = x;
    }
}

void tl_update(tl_queues *q, const sched_warp_view *views, uint32_t n)
{
    if (n > SCHED_MAX_WARP_SLOTS)
        n = SCHED_MAX_WARP_SLOTS;
    uint16_t arrived[SCHED_MAX_WARP_SLOTS];
    uint32_t narrived = 0;
    for (uint32_t i = 0; i < n; i++) {
        const sched_warp_view *v = &views[i];
        if (q->where[i] != TL_NONE && (gone(v->state) || q->age[i] != v->age))
            leave(q, i); /* finished, or its slot holds a new warp */
        if (gone(v->state))
            continue;
        switch (q->where[i]) {
        case TL_NONE: /* a new warp */
            q->age[i] = v->age;
            arrived[narrived++] = (uint16_t)i;
            break;
        case TL_READY:
            if (long_wait(v->state)) {
                drop_ready(q, i);
                q->where[i] = TL_PENDING;
            }
            break;
        case TL_PENDING:
            if (!long_wait(v->state) && v->outstanding == 0)
                arrived[narrived++] = (uint16_t)i;
            break;
        default:
            break;
        }
    }
    if (narrived) {
        /* arrivals of one update join in launch order */
        for (uint32_t a = 1; a < narrived; a++) {
            uint16_t x = arrived[a];
            uint32_t j = a;
            while (j > 0 && views[x].age < views[arrived[j - 1]].age) {
                arrived[j] = arrived[j - 1];
                j--;
            }
            arrived[j] = x;
        }
        for (uint32_t a = 0; a < narrived; a++) {
            q->active[q->nactive++] = arrived[a];
            q->where[arrived[a]] = TL_ACTIVE;
        }
        if (q->sort != TL_SORT_NONE)
            sort_active(q, views);
    }
    /* the head of active fills the free ready slots */
    uint32_t take = 0;
    while (q->nready < q->fetch_group && take < q->nactive) {
        uint16_t x = q->active[take++];
        q->ready[q->nready++] = x;
        q->where[x] = TL_READY;
    }
    if (take) {
        memmove(&q->active[0], &q->active[take], (q->nactive - take) * sizeof q->active[0]);
        q->nactive -= take;
    }
}

int32_t tl_pick_ready(tl_queues *q, const sched_warp_view *views, uint32_t n)
{
    int32_t best = -1;
    uint32_t pos = 0;
    switch (q->order) {
    case TL_ORDER_RR:
        for (uint32_t k = 0; k < q->nready; k++) {
            uint32_t p = (q->rr_next + k) % q->nready;
            if (sched_ws_can_issue(views[q->ready[p]].state)) {
                best = q->ready[p];
                pos = p;
                break;
            }
        }
        if (best >= 0)
            q->rr_next = pos + 1;
        break;
    case TL_ORDER_GTO:
        if (q->last >= 0 && (uint32_t)q->last < n && q->where[q->last] == TL_READY &&
            views[q->last].age == q->last_age && sched_ws_can_issue(views[q->last].state))
            return q->last;
        for (uint32_t p = 0; p < q->nready; p++) {
            uint16_t x = q->ready[p];
            if (sched_ws_can_issue(views[x].state) && (best < 0 || views[x].age < views[best].age))
                best = x;
        }
        break;
    default: /* TL_ORDER_PA */
        for (uint32_t p = 0; p < q->nready; p++) {
            uint16_t x = q->ready[p];
            if (!sched_ws_can_issue(views[x].state))
                continue;
            if (best < 0 || tl_distance(&views[x]) < tl_distance(&views[best]) ||
                (tl_distance(&views[x]) == tl_distance(&views[best]) &&
                 views[x].age < views[best].age))
                best = x;
        }
        break;
    }
    if (best >= 0) {
        q->last = best;
        q->last_age = views[best].age;
    }
    return best;
}

int32_t tl_pick(tl_queues *q, const sched_warp_ctx *ctx, const sched_warp_view *views,
                uint32_t n, char *why)
{
    tl_update(q, views, n);
    int32_t i = tl_pick_ready(q, views, n);
    if (ctx->trace) {
        uint32_t pending = 0;
        for (uint32_t v = 0; v < n && v < SCHED_MAX_WARP_SLOTS; v++)
            pending += q->where[v] == TL_PENDING;
        snprintf(why, SCHED_WHY_LEN, "ready %u/%u, active %u, pending %u%s", q->nready,
                 q->fetch_group, q->nactive, pending,
                 i < 0 ? ": no ready warp can issue" : "");
    }
    return i;
}
