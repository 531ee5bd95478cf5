/* tests/support/test_shard.h — sampling of the policy x benchmark cross
 * products.  The optimised build runs every benchmark under every policy;
 * the sanitizer build (about 5x slower) sets PTXEMU_TEST_SAMPLE=I/N on each
 * such test and runs only the benchmarks whose registry index is I modulo
 * N.  tests/meson.build rotates I over the policies, so every benchmark still
 * runs under some policy with the sanitizers on. */
#ifndef PTXEMU_TEST_SHARD_H
#define PTXEMU_TEST_SHARD_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

/* True when benchmark `index` belongs to this test's sample (always true
 * without PTXEMU_TEST_SAMPLE).  A malformed value runs everything. */
static inline bool test_in_sample(unsigned index)
{
    const char *s = g_getenv("PTXEMU_TEST_SAMPLE");
    unsigned i = 0, n = 1;
    if (!s || sscanf(s, "%u/%u", &i, &n) != 2 || n == 0 || i >= n)
        return true;
    return index % n == i;
}

#endif
