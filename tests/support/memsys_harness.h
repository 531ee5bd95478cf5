/* tests/support/memsys_harness.h — the memory hierarchy driven directly by
 * a test: a preset's memory system, a completion record per token and a
 * core-cycle clock, for tests that issue synthetic warp accesses. */
#ifndef PTXEMU_TEST_MEMSYS_HARNESS_H
#define PTXEMU_TEST_MEMSYS_HARNESS_H

#include "timing/config.h"
#include "timing/memsys.h"

#include <stdbool.h>
#include <stdint.h>

#define MEMH_NOT_DONE UINT64_MAX

typedef struct memh {
    gpu_config cfg;
    memsys *m;
    uint64_t *done_at; /* per token: completion cycle or MEMH_NOT_DONE */
    uint64_t ntokens;
    uint64_t ndone;
    uint64_t next_token; /* memh_token hands these out in order */
    uint64_t cycle; /* next core cycle to simulate */
} memh;

/* Preset `preset` with the "key=value" overrides `sets` (NULL-terminated,
 * may be NULL); fails the test on a bad preset or override. */
gpu_config memh_config(const char *preset, const char *const *sets);
/* A memory system of memh_config(preset, sets) with the "key=value" overrides `sets` (NULL-terminated,
 * room for tokens 0 .. ntokens-1.  A token may complete once. */
memh *memh_new(const char *preset, const char *const *sets, uint64_t ntokens);
void memh_free(memh *h);
/* The next unused token (fails the test past ntokens). */
uint64_t memh_token(memh *h);
/* One core cycle of the memory system; returns the cycle it simulated (the
 * caller may issue in that same cycle). */
uint64_t memh_step(memh *h);
/* Steps until the memory system is idle (fails after 10 M cycles). */
void memh_drain(memh *h);
/* A warp access: lanes in `mask`, lane l at base + l * stride. */
ex_access memh_access(uint8_t space, bool write, uint32_t mask, uint64_t base, uint64_t stride,
                      uint16_t size);
/* Issues `a` as `token` from (sm, warp), stepping while the memory system
 * refuses it; returns the issue cycle. */
uint64_t memh_issue(memh *h, uint32_t sm, uint32_t warp, const ex_access *a, uint64_t token);
/* Steps until `token` is done; returns its completion cycle. */
uint64_t memh_wait(memh *h, uint64_t token);

#endif
