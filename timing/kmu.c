/* timing/kmu.c — kernel management and dispatch units (timing/kmu.h). */
#include "timing/kmu.h"
#include "timing/sm.h"

#include <string.h>

bool tm_kmu_init(tm_kmu *q, const tm_submit *subs, const uint32_t *kernel_of, uint32_t n,
                 uint64_t start, uint32_t entries, GError **error)
{
    memset(q, 0, sizeof *q);
    q->subs = g_new0(tm_kmu_sub, n ? n : 1);
    q->n = n;
    q->cap = n ? n : 1;
    q->entries = entries ? entries : 1;
    q->unfinished = n;
    q->succ_first = g_new0(uint32_t, (size_t)n + 1);
    uint32_t edges = 0;
    for (uint32_t i = 0; i < n; i++) {
        const tm_submit *s = &subs[i];
        tm_kmu_sub *u = &q->subs[i];
        u->s = *s;
        u->kernel = kernel_of[i];
        u->ready = start + s->arrival;
        u->done = TM_KMU_NOT_DONE;
        u->waiting = s->nafter;
        for (uint32_t d = 0; d < s->nafter; d++) {
            if (s->after[d] >= i) {
                g_set_error(error, g_quark_from_static_string("ptxemu"), 1,
                            "submission %u depends on submission %u, which is not an "
                            "earlier one", i, s->after[d]);
                return false;
            }
            q->succ_first[s->after[d] + 1]++;
        }
        edges += s->nafter;
    }
    for (uint32_t i = 0; i < n; i++)
        q->succ_first[i + 1] += q->succ_first[i];
    q->succ = g_new(uint32_t, edges ? edges : 1);
    uint32_t *fill = g_new(uint32_t, (size_t)n + 1);
    memcpy(fill, q->succ_first, sizeof(uint32_t) * ((size_t)n + 1));
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t d = 0; d < subs[i].nafter; d++)
            q->succ[fill[subs[i].after[d]]++] = i;
    g_free(fill);
    return true;
}

void tm_kmu_free(tm_kmu *q)
{
    g_free(q->subs);
    g_free(q->succ_first);
    g_free(q->succ);
    memset(q, 0, sizeof *q);
}

static bool is_kernel(const tm_kmu_sub *u)
{
    return u->s.L && u->s.append_to < 0;
}

uint32_t tm_kmu_pop(tm_kmu *q, uint64_t now, bool (*resident)(void *user, uint32_t kernel),
                    void *user)
{
    uint32_t best = TM_KMU_NONE;
    for (uint32_t i = 0; i < q->n; i++) {
        tm_kmu_sub *u = &q->subs[i];
        if (u->arrived || u->waiting || u->ready > now)
            continue;
        if (is_kernel(u) && q->used >= q->entries)
            continue; /* the KDU is full: it waits in the KMU */
        if (u->s.L && u->s.append_to >= 0 && !resident(user, u->kernel))
            continue;
        /* first come first served: earliest ready, ties in submission order */
        if (best == TM_KMU_NONE || u->ready < q->subs[best].ready)
            best = i;
    }
    if (best != TM_KMU_NONE) {
        q->subs[best].arrived = true;
        if (is_kernel(&q->subs[best]))
            q->used++;
    }
    return best;
}

void tm_kmu_finish(tm_kmu *q, uint32_t i, uint64_t cycle)
{
    tm_kmu_sub *u = &q->subs[i];
    if (u->done != TM_KMU_NOT_DONE)
        return;
    u->done = cycle;
    q->unfinished--;
    if (u->s.done_at)
        *u->s.done_at = cycle;
    if (is_kernel(u) && q->used && !u->released)
        q->used--;
    /* a kernel's dependants start the cycle after its last one */
    uint64_t next = u->s.L ? cycle + 1 : cycle;
    for (uint32_t e = q->succ_first[i]; e < q->succ_first[i + 1]; e++) {
        tm_kmu_sub *v = &q->subs[q->succ[e]];
        v->waiting--;
        if (v->ready < next)
            v->ready = next;
    }
}

uint64_t tm_kmu_next_cycle(const tm_kmu *q)
{
    uint64_t next = TM_NEVER;
    for (uint32_t i = 0; i < q->n; i++) {
        const tm_kmu_sub *u = &q->subs[i];
        if (u->arrived || u->waiting || (is_kernel(u) && q->used >= q->entries))
            continue;
        if (u->ready < next)
            next = u->ready;
    }
    return next;
}

uint32_t tm_kmu_add(tm_kmu *q, ex_launch *L, uint32_t kernel, uint64_t ready)
{
    if (q->n == q->cap) {
        q->cap *= 2;
        q->subs = g_renew(tm_kmu_sub, q->subs, q->cap);
    }
    q->succ_first = g_renew(uint32_t, q->succ_first, (size_t)q->n + 2);
    q->succ_first[q->n + 1] = q->succ_first[q->n]; /* no successors */
    uint32_t i = q->n++;
    tm_kmu_sub *u = &q->subs[i];
    memset(u, 0, sizeof *u);
    u->s.L = L;
    u->s.append_to = -1;
    u->kernel = kernel;
    u->ready = ready;
    u->done = TM_KMU_NOT_DONE;
    q->unfinished++;
    return i;
}

void tm_kmu_release(tm_kmu *q, uint32_t i)
{
    tm_kmu_sub *u = &q->subs[i];
    if (u->released || !u->arrived || u->done != TM_KMU_NOT_DONE || !is_kernel(u))
        return;
    u->released = true;
    if (q->used)
        q->used--;
}
