/* sched/registry.c — the registry generated from sched/policies.def: the
 * policies of each level by name, their keys, and the planned names. */
#include "sched/sched.h"

#include <stddef.h>
#include <string.h>

/* The ops structs the policy files define. */
#define SCHED_POLICY(lv, id, name, ops) extern const sched_##lv##_ops_t ops;
#define SCHED_PLANNED(lv, name, where)
#define SCHED_KEY(id, name, key, KIND, def, lo, hi, unit, doc)
typedef sched_kernel_ops sched_KERNEL_ops_t;
typedef sched_cta_ops sched_CTA_ops_t;
typedef sched_filter_ops sched_FILTER_ops_t;
typedef sched_warp_ops sched_WARP_ops_t;
typedef sched_backoff_ops sched_BACKOFF_ops_t;
typedef sched_fetch_ops sched_FETCH_ops_t;
typedef sched_l1_ops sched_L1_ops_t;
#include "sched/policies.def"
#undef SCHED_POLICY

static const sched_policy policies[] = {
#define SCHED_POLICY(lv, id, name, ops) {SCHED_LEVEL_##lv, name, &ops.h},
#include "sched/policies.def"
#undef SCHED_POLICY
};
#undef SCHED_PLANNED
#undef SCHED_KEY

/* Names per level, NULL-terminated (the config's choices): policies.def is
 * included once per level with only that level's SELECT_<LEVEL> keeping
 * its names. */
#define SCHED_PLANNED(lv, name, where)
#define SCHED_KEY(id, name, key, KIND, def, lo, hi, unit, doc)
#define SCHED_POLICY(lv, id, name, ops) SELECT_##lv(name)
#define KEEP(n) n,
#define DROP(n)
#define SELECT_KERNEL DROP
#define SELECT_CTA DROP
#define SELECT_FILTER DROP
#define SELECT_WARP DROP
#define SELECT_BACKOFF DROP
#define SELECT_FETCH DROP
#define SELECT_L1 DROP
#undef SELECT_KERNEL
#define SELECT_KERNEL KEEP
const char *const sched_names_kernel[] = {
#include "sched/policies.def"
    NULL};
#undef SELECT_KERNEL
#define SELECT_KERNEL DROP
#undef SELECT_CTA
#define SELECT_CTA KEEP
const char *const sched_names_cta[] = {
#include "sched/policies.def"
    NULL};
#undef SELECT_CTA
#define SELECT_CTA DROP
#undef SELECT_FILTER
#define SELECT_FILTER KEEP
const char *const sched_names_filter[] = {
#include "sched/policies.def"
    NULL};
#undef SELECT_FILTER
#define SELECT_FILTER DROP
#undef SELECT_WARP
#define SELECT_WARP KEEP
const char *const sched_names_warp[] = {
#include "sched/policies.def"
    NULL};
#undef SELECT_WARP
#define SELECT_WARP DROP
#undef SELECT_BACKOFF
#define SELECT_BACKOFF KEEP
const char *const sched_names_backoff[] = {
#include "sched/policies.def"
    NULL};
#undef SELECT_BACKOFF
#define SELECT_BACKOFF DROP
#undef SELECT_FETCH
#define SELECT_FETCH KEEP
const char *const sched_names_fetch[] = {
#include "sched/policies.def"
    NULL};
#undef SELECT_FETCH
#define SELECT_FETCH DROP
#undef SELECT_L1
#define SELECT_L1 KEEP
const char *const sched_names_l1[] = {
#include "sched/policies.def"
    NULL};
#undef SCHED_POLICY
#undef SCHED_PLANNED
#undef SCHED_KEY

typedef struct planned {
    sched_level level;
    const char *name, *where;
} planned;
static const planned planned_list[] = {
#define SCHED_POLICY(lv, id, name, ops)
#define SCHED_PLANNED(lv, name, where) {SCHED_LEVEL_##lv, name, where},
#define SCHED_KEY(id, name, key, KIND, def, lo, hi, unit, doc)
#include "sched/policies.def"
#undef SCHED_POLICY
#undef SCHED_PLANNED
#undef SCHED_KEY
    {SCHED_LEVEL_COUNT, NULL, NULL},
};

#define KIND_U32 SCHED_KEY_U32
#define KIND_DBL SCHED_KEY_DBL
#define KIND_BOOL SCHED_KEY_BOOL
static const sched_key_def key_defs[] = {
#define SCHED_POLICY(lv, id, name, ops)
#define SCHED_PLANNED(lv, name, where)
#define SCHED_KEY(id, name, key, KIND, def, lo, hi, unit, doc)               \
    {name, #key, KIND_##KIND, offsetof(sched_keys, id##_##key), (double)(def),   \
     (double)(lo), (double)(hi), unit, doc},
#include "sched/policies.def"
#undef SCHED_POLICY
#undef SCHED_PLANNED
#undef SCHED_KEY
    {NULL, NULL, SCHED_KEY_U32, 0, 0, 0, 0, NULL, NULL},
};

static const char *const level_names[SCHED_LEVEL_COUNT] = {
    "kernel", "cta", "filter", "warp", "backoff", "fetch", "l1",
};

const char *const sched_warp_state_names[SCHED_WS_COUNT] = {
    "empty", "ibuffer_empty", "alu_scoreboard", "mem_scoreboard", "alu_stall",
    "mem_stall", "can_issue_alu", "can_issue_mem", "completed", "at_barrier",
    "backed_off",
};

const char *const sched_block_names[SCHED_BLOCK_COUNT] = {
    "none", "fetch", "scoreboard", "memory", "pipeline", "barrier", "backoff", "done",
};

const char *sched_level_name(sched_level level)
{
    return level < SCHED_LEVEL_COUNT ? level_names[level] : "?";
}

const char *const *sched_policy_names(sched_level level)
{
    static const char *const *const by_level[SCHED_LEVEL_COUNT] = {
        sched_names_kernel, sched_names_cta, sched_names_filter, sched_names_warp, sched_names_backoff, sched_names_fetch,
        sched_names_l1,
    };
    return by_level[level];
}

const sched_policy *sched_policies(sched_level level, uint32_t *n)
{
    /* a level's policies are the entries of that level, in order; the
     * first one's address and the count describe them because the lists in
     * policies.def are grouped by level (checked by the registry test) */
    const sched_policy *first = NULL;
    uint32_t count = 0;
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (policies[i].level == level) {
            if (!first)
                first = &policies[i];
            count++;
        }
    *n = count;
    return first;
}

const sched_policy *sched_find(sched_level level, const char *name)
{
    for (size_t i = 0; name && i < sizeof policies / sizeof policies[0]; i++)
        if (policies[i].level == level && strcmp(policies[i].name, name) == 0)
            return &policies[i];
    return NULL;
}

const sched_policy *sched_find_any(const char *name)
{
    for (size_t i = 0; name && i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i].name, name) == 0)
            return &policies[i];
    return NULL;
}

const char *sched_planned_list(uint32_t i, sched_level *level, const char **where)
{
    if (i + 1 >= sizeof planned_list / sizeof planned_list[0]) /* the last is the end mark */
        return NULL;
    *level = planned_list[i].level;
    *where = planned_list[i].where;
    return planned_list[i].name;
}

const char *sched_planned_where(sched_level level, const char *name)
{
    for (const planned *p = planned_list; p->name; p++)
        if (p->level == level && strcmp(p->name, name) == 0)
            return p->where;
    return NULL;
}

const sched_key_def *sched_key_defs(uint32_t *n)
{
    *n = (uint32_t)(sizeof key_defs / sizeof key_defs[0] - 1);
    return key_defs;
}
