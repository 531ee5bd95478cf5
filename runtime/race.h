/* runtime/race.h — the functional data-race check (--race-check,
 * config key check.races).
 *
 * While a launch runs functionally with L->race_check set, every warp
 * instruction runs with a memory record (the one the timing model uses),
 * and each plain global load or store (ld, ldu, st; not atomics, not
 * .volatile or strong .relaxed/.acquire/.release accesses, not cp.async)
 * is checked against a shadow of global memory in 4-byte granules: the
 * last write and the last read of each granule, with the warp that made
 * it, its CTA's barrier epoch and the launch's fence count at the time.
 * Two accesses of the same bytes, at least one a write, by different warps
 * conflict unless
 *   - both warps are in the same CTA and a CTA barrier completed between
 *     them (the CTA's barrier epoch differs), or
 *   - a membar/fence ran anywhere in the launch between them (the
 *     fence + atomic-flag and grid-sync patterns: taken as ordering, so
 *     they are never reported, at the price of missing races in kernels
 *     that fence).
 * Accesses of one warp are ordered; launches are ordered.  The first
 * conflict of a launch is reported on stderr with both accesses (kernel,
 * CTA, warp, thread, function, pc, file:line:col and PTX text) and the
 * check stops for that launch.  Only the last reader of a granule is
 * remembered, so a write may miss a race with an earlier reader.
 *
 * Nothing here runs when the option is off: the functional driver takes
 * one branch per quantum of a warp (runtime/launch.c). */
#ifndef PTXEMU_RUNTIME_RACE_H
#define PTXEMU_RUNTIME_RACE_H

#include "runtime/exec.h"

typedef struct ex_race ex_race;

ex_race *ex_race_new(ex_launch *L);
void ex_race_free(ex_race *r);
/* Runs up to `budget` instructions of `w` as ex_warp_run does, checking
 * their global accesses. */
void ex_race_run(ex_race *r, ex_warp *w, uint64_t budget);
/* The report of the first race found ("race: ..."), or NULL. */
const char *ex_race_report(const ex_race *r);

#endif
