/* sched/kernel/interleaved.c — interleaved (intra-core) concurrent-kernel
 * policy of thesis §5.4 (SEED-TARGETS §4 "Interleaved rules"):
 *   1. every kernel maps to every core; each core holds the kernels with
 *      their own max blocks (the row's `cap`, the same on every core);
 *   2. at every kernel launch and exit the caps are recomputed from
 *      occupancy: the n kernels still issuing blocks split each core's
 *      registers, shared memory, warp slots and block slots evenly, and a
 *      kernel's cap is how many of its blocks fit its share (at least 1);
 *   3. a core issues blocks of a kernel only below its cap there;
 *   4. a kernel that has issued its last block stops sharing ("exit" as far
 *      as issue goes): the caps are recomputed without it, so its resources
 *      move to the kernels still issuing as its blocks end — with two
 *      kernels, the longer one gets the whole core (the 4+4 split case study:
 *      two kernels of 8-warp blocks on a 64-warp core run 4 + 4, then 8).
 * With kernel.caps (caps.h), a sharing kernel that matches an entry gets its
 * entry's cap (at most what fits an empty core) instead of its even share:
 * the thesis's Rodinia pairs run "with optimal number of CTA of each kernel"
 * (§5.5.2).  The cores' own resource checks still apply, so caps that add up
 * to more than a core holds leave the later kernel what is free.  A kernel
 * issuing alone is uncapped (rule 4).
 * Kernels are offered the cores in arrival order. */
#include "sched/kernel/spatial.h"

#include <stdio.h>

static uint32_t share_fit(uint32_t total, uint32_t n, uint32_t per_block)
{
    return per_block ? total / n / per_block : UINT32_MAX;
}

/* Rule 2: caps of the issuing kernels; logs them when traced. */
static void recompute(interleaved_state *s, const sched_ctl *c)
{
    st_blocks *b = &s->b;
    int32_t rows[ST_ROWS];
    uint32_t n = st_issuing(b, rows);
    s->sharing = 0;
    for (uint32_t i = 0; i < n; i++)
        s->sharing |= 1ull << rows[i];
    for (uint32_t i = 0; i < n; i++) {
        st_kernel_row *r = &b->rows[rows[i]];
        if (n > 1 && s->opt[rows[i]]) {
            r->cap = s->opt[rows[i]] < r->max_fit ? s->opt[rows[i]] : r->max_fit;
            r->cap = r->cap ? r->cap : 1;
            continue;
        }
        uint32_t cap = b->core_ctas / n;
        uint32_t f = share_fit(b->core_regs, n, r->regs);
        cap = f < cap ? f : cap;
        f = share_fit(b->core_shared, n, r->shared);
        cap = f < cap ? f : cap;
        f = share_fit(b->core_warps, n, r->warps);
        cap = f < cap ? f : cap;
        if (cap > r->max_fit)
            cap = r->max_fit;
        r->cap = cap ? cap : 1;
    }
    if (c && c->trace && n) {
        char line[SCHED_WHY_LEN];
        int len = snprintf(line, sizeof line, "caps");
        for (uint32_t i = 0; i < n && len < (int)sizeof line; i++)
            len += snprintf(line + len, sizeof line - (size_t)len, " K%u=%u",
                            b->rows[rows[i]].id, b->rows[rows[i]].cap);
        c->log(c, "interleaved", "%s", line);
    }
}

static void interleaved_init(void *st, const sched_env *env)
{
    interleaved_state *s = st;
    st_init(&s->b, env);
    char why[160];
    /* the config validated the text (gpu_config_validate) */
    if (!kcaps_parse(env->kernel_caps, &s->caps, why, sizeof why))
        s->caps.n = 0;
}

static void interleaved_destroy(void *st)
{
    st_destroy(&((interleaved_state *)st)->b);
}

static void interleaved_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    interleaved_state *s = st;
    int32_t row = st_arrive(&s->b, k);
    if (row == ST_NONE && c->trace)
        c->log(c, "interleaved", "no free row for kernel %u: launch fails", k->id);
    if (row != ST_NONE)
        s->opt[row] = kcaps_lookup(&s->caps, k->name);
    recompute(s, c);
}

static void interleaved_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    interleaved_state *s = st;
    st_finish(&s->b, k->id);
    recompute(s, c);
}

static void interleaved_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    st_cta_issued(&((interleaved_state *)st)->b, e->kernel, e->sm);
}

static void interleaved_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    st_cta_finished(&((interleaved_state *)st)->b, e->kernel, e->sm);
}

static void interleaved_decide(void *st, const sched_ctl *c, const sched_kernel_view *v,
                               sched_kernel_decision *out)
{
    interleaved_state *s = st;
    st_blocks *b = &s->b;
    uint64_t issuing = 0;
    for (int32_t r = 0; r < ST_ROWS; r++)
        if (b->rows[r].valid && b->rows[r].next < b->rows[r].total)
            issuing |= 1ull << r;
    if (issuing != s->sharing) /* rule 4: a kernel issued its last block */
        recompute(s, c);
    out->count = 0;
    for (uint32_t i = 0; i < v->nkernels && out->count < SCHED_MAX_KERNELS; i++) {
        const sched_kernel_info *k = &v->kernels[i];
        int32_t r = st_row_of(b, k->id);
        if (k->issued >= k->total_ctas || r == ST_NONE)
            continue;
        out->order[out->count++] = i;
        for (uint32_t core = 0; core < v->nsms; core++)
            out->limit[(size_t)i * v->nsms + core] = b->rows[r].cap;
    }
}

const sched_kernel_ops sched_kernel_interleaved = {
    .h = {.name = "interleaved",
          .summary = "every kernel on every core; per-core caps split registers, shared "
                     "memory and slots evenly, recomputed at launch and exit (thesis 5.4)",
          .state_size = sizeof(interleaved_state),
          .init = interleaved_init,
          .destroy = interleaved_destroy,
          .kernel_arrive = interleaved_arrive,
          .kernel_finish = interleaved_finish,
          .cta_issued = interleaved_issued,
          .cta_finished = interleaved_cta_finished},
    .decide = interleaved_decide,
};
