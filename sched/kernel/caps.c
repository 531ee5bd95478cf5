/* sched/kernel/caps.c — parsing and lookup of kernel.caps (caps.h). */
#include "sched/kernel/caps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool kcaps_parse(const char *text, kcaps *out, char *why, unsigned why_len)
{
    memset(out, 0, sizeof *out);
    const char *p = text ? text : "";
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        if (!colon || colon == p) {
            snprintf(why, why_len, "entry %u ('%.*s') is not NAME-PREFIX:N", out->n + 1,
                     (int)len, p);
            return false;
        }
        size_t plen = (size_t)(colon - p);
        if (plen >= KCAPS_PREFIX_LEN) {
            snprintf(why, why_len, "entry %u: prefix longer than %d characters", out->n + 1,
                     KCAPS_PREFIX_LEN - 1);
            return false;
        }
        char num[16] = {0};
        size_t nlen = len - plen - 1;
        if (nlen == 0 || nlen >= sizeof num) {
            snprintf(why, why_len, "entry %u ('%.*s'): N must be 1 to 64", out->n + 1,
                     (int)len, p);
            return false;
        }
        memcpy(num, colon + 1, nlen);
        char *stop;
        long v = strtol(num, &stop, 10);
        if (*stop || v < 1 || v > 64) {
            snprintf(why, why_len, "entry %u ('%.*s'): N must be 1 to 64", out->n + 1,
                     (int)len, p);
            return false;
        }
        if (out->n == KCAPS_MAX) {
            snprintf(why, why_len, "more than %d entries", KCAPS_MAX);
            return false;
        }
        memcpy(out->prefix[out->n], p, plen);
        out->cap[out->n++] = (uint32_t)v;
        p += len + (end ? 1 : 0);
    }
    return true;
}

uint32_t kcaps_lookup(const kcaps *c, const char *name)
{
    for (uint32_t i = 0; name && i < c->n; i++)
        if (strncmp(name, c->prefix[i], strlen(c->prefix[i])) == 0)
            return c->cap[i];
    return 0;
}
