/* sched/backoff/spin_stats.h — what the spin policies (greedy, ddos) count
 * on one SM, and the summary line they write to the decision trace when
 * the SM's last warp leaves (the framework has no per-SM end hook).
 *
 * Counted: detections (backoffs decided) per PC, backoff cycles granted,
 * distinct warps backed off, releases, and false detections of two kinds:
 * decisions at a PC the static spin-candidate pass did not flag (ddos: a
 * traversal that ran no flagged setp), and decisions after which the
 * warp's next iteration changed memory (from the decision to the warp's
 * next issue of the same PC it stored, or swapped or released a lock: the
 * loop made progress there, e.g. it took the lock it had waited for).
 * Per-PC counts keep
 * the first SPIN_STATS_PCS PCs seen; later PCs add to `other_pcs`. */
#ifndef PTXEMU_SCHED_BACKOFF_SPIN_STATS_H
#define PTXEMU_SCHED_BACKOFF_SPIN_STATS_H

#include "sched/sched.h"

#include <stdio.h>
#include <string.h>

#define SPIN_STATS_PCS 8

typedef struct spin_stats {
    uint32_t pc[SPIN_STATS_PCS];
    uint64_t count[SPIN_STATS_PCS];
    uint32_t npcs;
    uint64_t other_pcs;
    uint64_t detections, false_detections, backoff_cycles, releases, warps_backed_off;
    uint64_t false_memory;       /* the next iteration changed memory */
    uint32_t live;               /* warps resident on the SM */
} spin_stats;

/* One warp slot's last decision, until the warp next issues its PC. */
typedef struct spin_watch {
    uint32_t pc, writes, kernel, cta, warp;
    bool armed;
} spin_watch;

/* A decision at e: watch the warp's next iteration. */
static inline void spin_watch_arm(spin_watch *w, const sched_issue *e)
{
    *w = (spin_watch){e->pc, e->writes, e->kernel, e->cta, e->warp, true};
}

/* e issued by the warp of slot e->slot: at the watched PC (the next
 * iteration) count a false detection if memory changed in between. */
static inline void spin_watch_check(spin_stats *s, spin_watch *w, const sched_issue *e)
{
    if (!w->armed || e->pc != w->pc)
        return;
    w->armed = false;
    if (e->kernel == w->kernel && e->cta == w->cta && e->warp == w->warp)
        s->false_memory += e->writes != w->writes;
}

/* One detection at pc that backs a warp off for `cycles`; `flagged` when
 * the static pass agrees (the setp, or for ddos a setp of the traversal,
 * is a spin candidate); `first` when this warp had not been backed off
 * before. */
static inline void spin_stats_detect(spin_stats *s, uint32_t pc, bool flagged, uint64_t cycles,
                                     bool first)
{
    s->detections++;
    s->backoff_cycles += cycles;
    s->warps_backed_off += first;
    s->false_detections += !flagged;
    for (uint32_t i = 0; i < s->npcs; i++)
        if (s->pc[i] == pc) {
            s->count[i]++;
            return;
        }
    if (s->npcs < SPIN_STATS_PCS) {
        s->pc[s->npcs] = pc;
        s->count[s->npcs++] = 1;
    } else {
        s->other_pcs++;
    }
}

/* The trace summary: "<name>: SM n: detections D (pc P: C, ...), false F,
 * false (memory changed) M, warps W, backoff cycles B, releases R". */
static inline void spin_stats_log(const spin_stats *s, const sched_ctl *c, const char *name,
                                  uint32_t sm)
{
    if (!c->trace)
        return;
    char pcs[160] = "";
    size_t off = 0;
    for (uint32_t i = 0; i < s->npcs && off < sizeof pcs; i++)
        off += (size_t)snprintf(pcs + off, sizeof pcs - off, "%spc %u: %llu", i ? ", " : "",
                                s->pc[i], (unsigned long long)s->count[i]);
    if (s->other_pcs && off < sizeof pcs)
        snprintf(pcs + off, sizeof pcs - off, ", other: %llu", (unsigned long long)s->other_pcs);
    c->log(c, name,
           "SM %u summary: detections %llu (%s), false %llu, false (memory changed) %llu, "
           "warps %llu, backoff cycles %llu, releases %llu",
           sm, (unsigned long long)s->detections, pcs, (unsigned long long)s->false_detections,
           (unsigned long long)s->false_memory,
           (unsigned long long)s->warps_backed_off, (unsigned long long)s->backoff_cycles,
           (unsigned long long)s->releases);
}

#endif
