/* sched/cta/laperm.c — the LaPerm engine (sched/cta/laperm.h). */
#include "sched/cta/laperm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void laperm_init(laperm *s, laperm_mode mode, const char *name, const sched_env *env)
{
    s->mode = mode;
    s->name = name;
    s->nsms = env->nsms;
    s->own = calloc(env->nsms ? env->nsms : 1, sizeof *s->own);
    s->backup = malloc((env->nsms ? env->nsms : 1) * sizeof *s->backup);
    for (uint32_t i = 0; i < env->nsms; i++)
        s->backup[i] = SCHED_NONE;
    const sched_keys *k = env->keys;
    switch (mode) {
    case LAPERM_TBPRI:
        s->levels = k->laperm_tbpri_levels;
        s->queue_entries = k->laperm_tbpri_queue_entries;
        break;
    case LAPERM_SMXBIND:
        s->levels = k->laperm_smxbind_levels;
        s->queue_entries = k->laperm_smxbind_queue_entries;
        break;
    case LAPERM_ADAPTIVE:
        s->levels = k->laperm_adaptive_levels;
        s->queue_entries = k->laperm_adaptive_queue_entries;
        break;
    }
}

void laperm_destroy(laperm *s)
{
    free(s->own);
    free(s->backup);
}

static uint32_t level_of(const laperm *s, const sched_cta_group *g)
{
    return g->depth < s->levels ? g->depth : s->levels;
}

static uint32_t waiting(const sched_cta_group *g)
{
    return g->count - g->placed;
}

/* The highest level with waiting CTAs in kernel k; -1: none wait. */
static int32_t top_level(const laperm *s, const sched_kernel_info *k)
{
    int32_t top = -1;
    for (uint32_t i = 0; i < k->ngroups; i++)
        if (waiting(&k->groups[i]) && (int32_t)level_of(s, &k->groups[i]) > top)
            top = (int32_t)level_of(s, &k->groups[i]);
    return top;
}

void laperm_order_kernels(laperm *s, const sched_ctl *c, const sched_kernel_view *v,
                          sched_kernel_decision *out)
{
    memset(s->own, 0, s->nsms * sizeof *s->own);
    s->level0 = 0;
    for (uint32_t i = 0; i < v->nkernels; i++) {
        const sched_kernel_info *k = &v->kernels[i];
        for (uint32_t j = 0; j < k->ngroups; j++) {
            const sched_cta_group *g = &k->groups[j];
            if (level_of(s, g) == 0)
                s->level0 += waiting(g);
            else if (g->parent_sm < s->nsms)
                s->own[g->parent_sm] += waiting(g);
        }
    }
    for (uint32_t i = 0; i < s->nsms && s->mode != LAPERM_TBPRI; i++)
        if (s->own[i] > s->queue_entries) {
            s->overflow += s->own[i] - s->queue_entries;
            if (c->trace)
                c->log(c, s->name, "SM %u: %u CTAs queued, %u beyond the %u on-chip entries "
                       "(in memory)", i, s->own[i], s->own[i] - s->queue_entries,
                       s->queue_entries);
        }
    /* the kernel level's choice, plus every child kernel with CTAs waiting
     * (LaPerm's queues span kernels; host kernels keep the kernel level's
     * concurrency rule) */
    bool in[SCHED_MAX_KERNELS] = {false};
    for (uint32_t i = 0; i < out->count; i++)
        in[out->order[i]] = true;
    for (uint32_t i = 0; i < v->nkernels && out->count < SCHED_MAX_KERNELS; i++)
        if (!in[i] && top_level(s, &v->kernels[i]) > 0)
            out->order[out->count++] = i;
    s->level0_ready = 0; /* level-0 CTAs of the kernels offered CTAs */
    for (uint32_t i = 0; i < out->count; i++) {
        const sched_kernel_info *k = &v->kernels[out->order[i]];
        for (uint32_t j = 0; j < k->ngroups; j++)
            if (level_of(s, &k->groups[j]) == 0)
                s->level0_ready += waiting(&k->groups[j]);
    }
    /* stable insertion sort: higher waiting level first, else the order so
     * far (the kernel level's, then arrival: first come first served) */
    int32_t key[SCHED_MAX_KERNELS];
    for (uint32_t i = 0; i < out->count; i++)
        key[i] = top_level(s, &v->kernels[out->order[i]]);
    for (uint32_t i = 1; i < out->count; i++) {
        uint32_t o = out->order[i];
        int32_t kv = key[i];
        uint32_t j = i;
        while (j > 0 && key[j - 1] < kv) {
            out->order[j] = out->order[j - 1];
            key[j] = key[j - 1];
            j--;
        }
        out->order[j] = o;
        key[j] = kv;
    }
}

/* The highest-level waiting group of k accepted by `want` (first come first
 * served within a level: the lowest group index); NULL: none. */
static const sched_cta_group *best_group(const laperm *s, const sched_kernel_info *k,
                                         bool level0, uint32_t bound_sm)
{
    const sched_cta_group *best = NULL;
    for (uint32_t i = 0; i < k->ngroups; i++) {
        const sched_cta_group *g = &k->groups[i];
        if (!waiting(g))
            continue;
        uint32_t lv = level_of(s, g);
        if (level0 ? lv != 0 : (bound_sm != SCHED_NONE && (lv == 0 || g->parent_sm != bound_sm)))
            continue;
        if (!best || lv > level_of(s, best))
            best = g;
    }
    return best;
}

/* The adaptive policy's backup SMX for s: the remembered one while its
 * queues hold CTAs, else the first SMX after s whose queues do. */
static uint32_t backup_of(laperm *s, uint32_t sm)
{
    uint32_t b = s->backup[sm];
    if (b < s->nsms && b != sm && s->own[b])
        return b;
    for (uint32_t k = 1; k < s->nsms; k++) {
        uint32_t c = (sm + k) % s->nsms;
        if (s->own[c]) {
            s->backup[sm] = c;
            return c;
        }
    }
    s->backup[sm] = SCHED_NONE;
    return SCHED_NONE;
}

/* What SM `sm` takes from kernel k now (a group), and which stage: with
 * `backup` false stages 1 and 2 (own queues, level-0 parents), with it
 * true stage 3 (adaptive only). */
static const sched_cta_group *choose(laperm *s, const sched_kernel_info *k, uint32_t sm,
                                     bool backup, const char **stage)
{
    const sched_cta_group *g;
    if (s->mode == LAPERM_TBPRI) {
        *stage = "highest priority level";
        return backup ? NULL : best_group(s, k, false, SCHED_NONE);
    }
    if (!backup) {
        if ((g = best_group(s, k, false, sm))) {
            *stage = "own queue";
            return g;
        }
        if (s->own[sm]) /* its own queues first: they hold CTAs of another kernel */
            return NULL;
        *stage = "level-0 parent";
        return best_group(s, k, true, SCHED_NONE);
    }
    if (s->mode != LAPERM_ADAPTIVE || s->level0 || s->own[sm])
        return NULL;
    uint32_t b = backup_of(s, sm);
    if (b == SCHED_NONE)
        return NULL;
    *stage = "backup SM queue";
    return best_group(s, k, false, b);
}

int32_t laperm_place(laperm *s, const sched_ctl *c, const sched_cta_view *v, char *why)
{
    /* every SM's own queues and the level-0 parents before any backup steal */
    uint32_t start = s->any ? s->last + 1 : 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < v->nsms; k++) {
            uint32_t sm = (start + k) % v->nsms;
            if (!v->sms[sm].eligible)
                continue;
            const char *stage = NULL;
            const sched_cta_group *g = choose(s, v->info, sm, pass == 1, &stage);
            if (!g && pass == 0 && s->mode != LAPERM_TBPRI &&
                (s->own[sm] || s->level0_ready)) {
                /* this SM's turn: its queues or the level-0 parents are
                 * another kernel's, which is offered it next */
                if (c->trace)
                    snprintf(why, SCHED_WHY_LEN, "SM %u's turn goes to another kernel", sm);
                return -1;
            }
            if (!g)
                continue;
            s->choice = g->next;
            s->choice_sm = sm;
            /* the counts of this pass follow the placement */
            if (level_of(s, g) == 0) {
                s->level0--;
                if (s->level0_ready)
                    s->level0_ready--;
            }
            else if (g->parent_sm < s->nsms && s->own[g->parent_sm])
                s->own[g->parent_sm]--;
            if (c->trace)
                snprintf(why, SCHED_WHY_LEN, "%s: level %u, CTA %u", stage, level_of(s, g),
                         g->next);
            return (int32_t)sm;
        }
    return -1;
}

uint32_t laperm_pick_cta(laperm *s, uint32_t sm)
{
    return sm == s->choice_sm ? s->choice : SCHED_NONE;
}

void laperm_cta_issued(laperm *s, const sched_cta_event *e)
{
    s->last = e->sm;
    s->any = true;
}
