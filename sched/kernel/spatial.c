/* sched/kernel/spatial.c — spatial concurrent-kernel policy, the baseline of
 * thesis §5.4 (SEED-TARGETS §4 "Baseline (spatial) rules"): each core runs
 * blocks of one kernel at a time.
 *   1. a new kernel takes an invalid row of the kernel status block;
 *   2. the kernels with blocks left to issue are mapped to cores round robin
 *      (core c gets the (c mod n)-th of them in arrival order), remapped at
 *      every arrival, every finish and whenever a kernel issues its last
 *      block (its cores go to the kernels still issuing);
 *   3. a core issues blocks only of a kernel that is both its active and its
 *      assigned kernel, up to max blocks (what fits an empty core);
 *   4. a core whose active kernel differs from its assigned one drains: when
 *      its last block of the old kernel ends, the assigned kernel becomes
 *      active.
 * Documented rule (the thesis leaves it open): a new kernel waits for
 * cores, never for a row — it takes a row at once (the KDU bounds the
 * kernels resident) and starts on the cores assigned to it as their old
 * kernels drain. */
#include "sched/kernel/spatial.h"

#include <stdio.h>
#include <string.h>

/* Cores go to the issuing kernels round robin; a core that holds no blocks
 * of its active kernel switches at once. */
static void remap(spatial_state *s, const sched_ctl *c)
{
    st_blocks *b = &s->b;
    int32_t rows[ST_ROWS];
    uint32_t n = st_issuing(b, rows);
    s->issuing = 0;
    for (uint32_t i = 0; i < n; i++)
        s->issuing |= 1ull << rows[i];
    if (!n)
        return;
    for (uint32_t k = 0; k < b->ncores; k++) {
        st_core_row *core = &b->cores[k];
        core->assigned = rows[k % n];
        if (core->active == ST_NONE || st_active_blocks(b, core->active, k) == 0)
            core->active = core->assigned;
    }
    if (c && c->trace) {
        char line[SCHED_WHY_LEN];
        int len = snprintf(line, sizeof line, "cores mapped round robin to");
        for (uint32_t i = 0; i < n && len < (int)sizeof line; i++)
            len += snprintf(line + len, sizeof line - (size_t)len, " K%u", b->rows[rows[i]].id);
        c->log(c, "spatial", "%s", line);
    }
}

static void spatial_init(void *st, const sched_env *env)
{
    spatial_state *s = st;
    st_init(&s->b, env);
}

static void spatial_destroy(void *st)
{
    st_destroy(&((spatial_state *)st)->b);
}

static void spatial_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    spatial_state *s = st;
    if (st_arrive(&s->b, k) == ST_NONE && c->trace)
        c->log(c, "spatial", "no free row for kernel %u: launch fails", k->id);
    remap(s, c);
}

static void spatial_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    spatial_state *s = st;
    st_finish(&s->b, k->id);
    remap(s, c);
}

static void spatial_issued(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    spatial_state *s = st;
    st_cta_issued(&s->b, e->kernel, e->sm);
}

static void spatial_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    (void)c;
    spatial_state *s = st;
    int32_t r = st_cta_finished(&s->b, e->kernel, e->sm);
    st_core_row *core = e->sm < s->b.ncores ? &s->b.cores[e->sm] : NULL;
    /* rule 4: the old kernel drained, the assigned one becomes active */
    if (r != ST_NONE && core && core->active == r && core->assigned != r &&
        st_active_blocks(&s->b, r, e->sm) == 0)
        core->active = core->assigned;
}

static void spatial_decide(void *st, const sched_ctl *c, const sched_kernel_view *v,
                           sched_kernel_decision *out)
{
    spatial_state *s = st;
    st_blocks *b = &s->b;
    /* a kernel that issued its last block gives its cores up */
    uint64_t issuing = 0;
    for (int32_t r = 0; r < ST_ROWS; r++)
        if (b->rows[r].valid && b->rows[r].next < b->rows[r].total)
            issuing |= 1ull << r;
    if (issuing != s->issuing)
        remap(s, c);
    out->count = 0;
    for (uint32_t i = 0; i < v->nkernels && out->count < SCHED_MAX_KERNELS; i++) {
        const sched_kernel_info *k = &v->kernels[i];
        int32_t r = st_row_of(b, k->id);
        if (k->issued >= k->total_ctas || r == ST_NONE)
            continue;
        out->order[out->count++] = i;
        for (uint32_t core = 0; core < v->nsms && core < b->ncores; core++) {
            const st_core_row *cr = &b->cores[core];
            /* rule 3 */
            out->limit[(size_t)i * v->nsms + core] =
                cr->active == r && cr->assigned == r ? b->rows[r].max_fit : 0;
        }
    }
}

const sched_kernel_ops sched_kernel_spatial = {
    .h = {.name = "spatial",
          .summary = "each core runs one kernel; kernels mapped to cores round robin, a core "
                     "switches when its old kernel drains (thesis 5.4 baseline)",
          .state_size = sizeof(spatial_state),
          .init = spatial_init,
          .destroy = spatial_destroy,
          .kernel_arrive = spatial_arrive,
          .kernel_finish = spatial_finish,
          .cta_issued = spatial_issued,
          .cta_finished = spatial_cta_finished},
    .decide = spatial_decide,
};
