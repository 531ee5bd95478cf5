/* sched/registry.c — every scheduling policy by name: one line per policy.
 * A new policy is one file under sched/<level>/ plus one line here. */
#include "sched/sched.h"

#include <string.h>

extern const sched_warp_ops sched_warp_lrr;
extern const sched_warp_ops sched_warp_gto;
extern const sched_cta_ops sched_cta_rr;
extern const sched_kernel_ops sched_kernel_leftover;

/* The spin level's baseline does nothing, so it needs no file of its own. */
static const sched_spin_ops spin_none = {
    "none", "no spin detection: warps are never backed off", 0, 0, NULL, NULL, NULL,
};

static const sched_warp_ops *const warp_list[] = {
    &sched_warp_lrr,
    &sched_warp_gto,
    NULL,
};
static const sched_spin_ops *const spin_list[] = {
    &spin_none,
    NULL,
};
static const sched_cta_ops *const cta_list[] = {
    &sched_cta_rr,
    NULL,
};
static const sched_cta_filter_ops *const filter_list[] = {
    NULL,
};
static const sched_kernel_ops *const kernel_list[] = {
    &sched_kernel_leftover,
    NULL,
};

const char *const sched_warp_state_names[SCHED_WS_COUNT] = {
    "empty", "ibuffer_empty", "alu_scoreboard", "mem_scoreboard", "alu_stall",
    "mem_stall", "can_issue_alu", "can_issue_mem", "completed", "at_barrier",
    "backed_off",
};

/* Each list holds structs whose first member is the name. */
#define LOOKUP(fn, type, list)                                               \
    const type *fn(const char *name)                                         \
    {                                                                        \
        for (unsigned i = 0; name && list[i]; i++)                           \
            if (strcmp(list[i]->name, name) == 0)                            \
                return list[i];                                              \
        return NULL;                                                         \
    }
LOOKUP(sched_warp_lookup, sched_warp_ops, warp_list)
LOOKUP(sched_spin_lookup, sched_spin_ops, spin_list)
LOOKUP(sched_cta_lookup, sched_cta_ops, cta_list)
LOOKUP(sched_cta_filter_lookup, sched_cta_filter_ops, filter_list)
LOOKUP(sched_kernel_lookup, sched_kernel_ops, kernel_list)
#undef LOOKUP

const sched_warp_ops *const *sched_warp_policies(void) { return warp_list; }
const sched_spin_ops *const *sched_spin_policies(void) { return spin_list; }
const sched_cta_ops *const *sched_cta_policies(void) { return cta_list; }
const sched_cta_filter_ops *const *sched_cta_filter_policies(void) { return filter_list; }
const sched_kernel_ops *const *sched_kernel_policies(void) { return kernel_list; }

/* "lrr, gto" — the names a level offers, for the error message. */
#define AVAILABLE(buf, list)                                                 \
    do {                                                                     \
        for (unsigned i_ = 0; list[i_]; i_++)                                \
            g_string_append_printf(buf, "%s%s", i_ ? ", " : "", list[i_]->name); \
        if (!list[0])                                                        \
            g_string_append(buf, "none yet");                                \
    } while (0)

#define MISSING(key, value, list)                                            \
    do {                                                                     \
        GString *av_ = g_string_new(NULL);                                   \
        AVAILABLE(av_, list);                                                \
        g_set_error(error, GPU_CONFIG_ERROR, GPU_CONFIG_ERROR_BAD_VALUE,     \
                    "%s = %s: this policy is not implemented yet "           \
                    "(implemented: %s)", key, value, av_->str);              \
        g_string_free(av_, TRUE);                                            \
        return false;                                                        \
    } while (0)

bool sched_select(const gpu_config *cfg, sched_selection *out, GError **error)
{
    memset(out, 0, sizeof *out);
    const char *n = gpu_config_choice_name(gpu_warp_policy_names, cfg->warp.policy);
    if (!(out->warp = sched_warp_lookup(n)))
        MISSING("warp.policy", n, warp_list);
    n = gpu_config_choice_name(gpu_spin_policy_names, cfg->spin.policy);
    if (!(out->spin = sched_spin_lookup(n)))
        MISSING("spin.policy", n, spin_list);
    n = gpu_config_choice_name(gpu_cta_policy_names, cfg->cta.policy);
    if (!(out->cta = sched_cta_lookup(n)))
        MISSING("cta.policy", n, cta_list);
    for (unsigned i = 0; i < cfg->cta.filters.count; i++) {
        n = gpu_config_choice_name(gpu_cta_filter_names, cfg->cta.filters.items[i]);
        if (!(out->filters[i] = sched_cta_filter_lookup(n)))
            MISSING("cta.filters", n, filter_list);
        out->nfilters = i + 1;
    }
    n = gpu_config_choice_name(gpu_kernel_policy_names, cfg->kernel.policy);
    if (!(out->kernel = sched_kernel_lookup(n)))
        MISSING("kernel.policy", n, kernel_list);
    return true;
}
