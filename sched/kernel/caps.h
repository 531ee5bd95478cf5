/* sched/kernel/caps.h — per-kernel CTA caps for the interleaved policy
 * (config key kernel.caps): thesis §5.5.2 runs each Rodinia pair "with
 * optimal number of CTA of each kernel", found by the Fig. 5.1 sweep of
 * active CTAs per core.  The key is a comma list of NAME-PREFIX:N; a kernel
 * whose name starts with PREFIX (first match wins) may hold at most N CTAs
 * per core while it shares the cores.  Empty = no caps (the even split). */
#ifndef PTXEMU_SCHED_KERNEL_CAPS_H
#define PTXEMU_SCHED_KERNEL_CAPS_H

#include <stdbool.h>
#include <stdint.h>

#define KCAPS_MAX 8
#define KCAPS_PREFIX_LEN 32

typedef struct kcaps {
    uint32_t n;
    char prefix[KCAPS_MAX][KCAPS_PREFIX_LEN];
    uint32_t cap[KCAPS_MAX];
} kcaps;

/* Parses `text` (NULL or "" gives no caps).  On a malformed entry returns
 * false and writes the reason into `why` (at least 128 bytes). */
bool kcaps_parse(const char *text, kcaps *out, char *why, unsigned why_len);
/* The cap for kernel `name`, or 0 when no prefix matches. */
uint32_t kcaps_lookup(const kcaps *c, const char *name);

#endif
