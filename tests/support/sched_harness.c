/* tests/support/sched_harness.c — one policy instance outside the timing
 * model (tests/support/sched_harness.h). */
#include "tests/support/sched_harness.h"

/* cmocka needs these before cmocka.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ keys */

static void put_key(sched_keys *k, const sched_key_def *d, double v)
{
    char *f = (char *)k + d->offset;
    if (d->kind == SCHED_KEY_U32)
        *(uint32_t *)f = (uint32_t)v;
    else if (d->kind == SCHED_KEY_DBL)
        *(double *)f = v;
    else
        *(bool *)f = v != 0;
}

/* Parses `text` as a value of d's kind; false if it is not one. */
static bool parse_value(const sched_key_def *d, const char *text, double *v)
{
    if (d->kind == SCHED_KEY_BOOL) {
        if (!strcmp(text, "true") || !strcmp(text, "1"))
            *v = 1;
        else if (!strcmp(text, "false") || !strcmp(text, "0"))
            *v = 0;
        else
            return false;
        return true;
    }
    char *end;
    errno = 0;
    if (d->kind == SCHED_KEY_U32) {
        if (!g_ascii_isdigit(text[0]))
            return false;
        unsigned long long u = g_ascii_strtoull(text, &end, 10);
        *v = (double)u;
    } else {
        *v = g_ascii_strtod(text, &end);
    }
    return errno == 0 && end != text && *end == '\0';
}

void sh_set(sched_harness *sh, const char *assignment)
{
    if (sh->started)
        fail_msg("sh_set(%s) after sh_start: init has read the keys already", assignment);
    const char *dot = strchr(assignment, '.'), *eq = strchr(assignment, '=');
    if (!dot || !eq || eq < dot)
        fail_msg("sh_set(%s): want policy.key=value", assignment);
    size_t plen = (size_t)(dot - assignment), klen = (size_t)(eq - dot - 1);
    uint32_t n;
    const sched_key_def *d = sched_key_defs(&n);
    for (uint32_t i = 0; i < n; i++) {
        if (strlen(d[i].policy) != plen || strncmp(d[i].policy, assignment, plen) ||
            strlen(d[i].name) != klen || strncmp(d[i].name, dot + 1, klen))
            continue;
        double v = 0;
        if (!parse_value(&d[i], eq + 1, &v))
            fail_msg("sh_set(%s): not a value of this key's kind", assignment);
        if (v < d[i].min || v > d[i].max)
            fail_msg("sh_set(%s): out of the key's range [%g, %g]", assignment, d[i].min,
                     d[i].max);
        put_key(&sh->keys, &d[i], v);
        return;
    }
    fail_msg("sh_set(%s): no such key in sched/policies.def", assignment);
}

void sh_setv(sched_harness *sh, const char *const *assignments)
{
    for (const char *const *a = assignments; a && *a; a++)
        sh_set(sh, *a);
}

/* ------------------------------------------------------------ controls */

static sched_harness *harness_of(const sched_ctl *c)
{
    return c->drv;
}

static sched_sm_view *sm_of(const sched_ctl *c, uint32_t sm, const char *what)
{
    sched_harness *sh = harness_of(c);
    if (sm >= sh->env.nsms)
        fail_msg("%s: %s on SM %u of %u", sh->policy->name, what, sm, sh->env.nsms);
    return &sh->sms[sm];
}

static void ctl_log(const sched_ctl *c, const char *policy, const char *fmt, ...)
{
    sched_harness *sh = harness_of(c);
    g_string_append_printf(sh->log, "cycle %llu: %s: ", (unsigned long long)c->cycle, policy);
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(sh->log, fmt, ap);
    va_end(ap);
    g_string_append_c(sh->log, '\n');
}

static void ctl_pause(const sched_ctl *c, uint32_t sm)
{
    sm_of(c, sm, "pause")->paused = true;
}

/* Drain: no new CTAs, powered off once empty (the driver's semantics). */
static void ctl_drain(const sched_ctl *c, uint32_t sm)
{
    sched_sm_view *v = sm_of(c, sm, "drain");
    v->paused = true;
    if (v->resident == 0)
        v->gated = true;
    else
        v->draining = true;
}

static void ctl_gate(const sched_ctl *c, uint32_t sm)
{
    ctl_drain(c, sm); /* off now if empty, else once empty: what drain does */
}

static void ctl_resume(const sched_ctl *c, uint32_t sm)
{
    sched_sm_view *v = sm_of(c, sm, "resume");
    v->paused = v->draining = v->gated = false;
}

static void ctl_limit(const sched_ctl *c, uint32_t sm, uint32_t limit)
{
    sm_of(c, sm, "limit")->limit = limit;
}

static const sched_sm_view *ctl_sm_view(const sched_ctl *c, uint32_t sm)
{
    sched_harness *sh = harness_of(c);
    return sm < sh->env.nsms ? &sh->sms[sm] : NULL;
}

static void ctl_cta_retry(const sched_ctl *c, uint64_t cycle)
{
    sched_harness *sh = harness_of(c);
    sh->retry_at = cycle;
    sh->retries++;
}

/* ------------------------------------------------------------ lifetime */

static bool per_gpu(sched_level level)
{
    return level == SCHED_LEVEL_KERNEL || level == SCHED_LEVEL_CTA ||
           level == SCHED_LEVEL_FILTER;
}

void sh_open(sched_harness *sh, sched_level level, const char *name)
{
    memset(sh, 0, sizeof *sh);
    sh->policy = sched_find(level, name);
    if (!sh->policy)
        fail_msg("no %s policy '%s' in sched/policies.def", sched_level_name(level), name);
    sh->h = sh->policy->hooks;
    /* the keys the policy declares, at their declared defaults */
    uint32_t n;
    const sched_key_def *d = sched_key_defs(&n);
    for (uint32_t i = 0; i < n; i++)
        put_key(&sh->keys, &d[i], d[i].def);
    uint32_t inst = per_gpu(level) ? SCHED_NONE : 0;
    sh->env = (sched_env){.keys = &sh->keys, .nsms = 1, .sms_per_cluster = 1,
                          .schedulers = 1, .warp_slots = 8, .max_ctas = 8, .sm = inst,
                          .scheduler = level == SCHED_LEVEL_WARP ? 0 : SCHED_NONE,
                          .nslots = level == SCHED_LEVEL_WARP ? 8 : 0,
                          .sm_registers = 32768, .sm_shared = 48 * 1024};
    sh->retry_at = SCHED_NEVER;
    sh->log = g_string_new("");
}

void sh_start(sched_harness *sh)
{
    if (sh->started)
        fail_msg("sh_start twice");
    if (sh->env.nsms == 0)
        fail_msg("sh_start: env.nsms is 0");
    /* the driver allocates at least a byte, so a stateless policy still
     * gets a distinct non-NULL pointer */
    sh->st = g_malloc0(sh->h->state_size ? sh->h->state_size : 1);
    sh->sms = g_new0(sched_sm_view, sh->env.nsms);
    sh->cta_sms = g_new0(sched_cta_sm_view, sh->env.nsms);
    for (uint32_t i = 0; i < sh->env.nsms; i++) {
        sh->sms[i].sm = i;
        sh->sms[i].cluster = sh->env.sms_per_cluster ? i / sh->env.sms_per_cluster : 0;
        sh->sms[i].limit = SCHED_NO_LIMIT;
    }
    sh->ctl = (sched_ctl){sh->ctl.cycle, sh->ctl.trace, sh, ctl_log, ctl_pause, ctl_drain,
                          ctl_gate, ctl_resume, ctl_limit, ctl_sm_view, ctl_cta_retry};
    sh->env.keys = &sh->keys; /* in case a test copied the harness */
    if (sh->h->init)
        sh->h->init(sh->st, &sh->env);
    sh->started = true;
}

void sh_close(sched_harness *sh)
{
    if (sh->started && sh->h->destroy)
        sh->h->destroy(sh->st);
    g_free(sh->st);
    g_free(sh->sms);
    g_free(sh->cta_sms);
    if (sh->log)
        g_string_free(sh->log, TRUE);
    if (sh->sink)
        fclose(sh->sink);
    memset(sh, 0, sizeof *sh);
}

void sh_trace(sched_harness *sh, bool on)
{
    /* the policy only tests ctl.trace for NULL; what it logs goes through
     * ctl.log into sh->log, so the stream itself stays empty */
    if (on && !sh->sink) {
        sh->sink = fopen("/dev/null", "w");
        if (!sh->sink)
            fail_msg("sh_trace: cannot open /dev/null");
    }
    sh->ctl.trace = on ? sh->sink : NULL;
}

/* ------------------------------------------------------------ views */

void sh_warps(sched_harness *sh, uint32_t n, const uint64_t *ages)
{
    if (n > SCHED_MAX_WARP_SLOTS)
        fail_msg("sh_warps: %u warps, at most %u", n, SCHED_MAX_WARP_SLOTS);
    sh->nwarps = n;
    for (uint32_t i = 0; i < n; i++) {
        memset(&sh->annot[i], 0, sizeof sh->annot[i]);
        sh->warps[i] = (sched_warp_view){.age = ages ? ages[i] : i,
                                         .last_issue = SCHED_NEVER,
                                         .slot = i,
                                         .annot = &sh->annot[i],
                                         .state = SCHED_WS_ISSUE_ALU};
    }
    if (!sh->started) {
        sh->env.warp_slots = n;
        if (sh->policy->level == SCHED_LEVEL_WARP)
            sh->env.nslots = n;
    }
}

sched_kernel_info sh_kernel(uint32_t id, uint32_t ctas, uint32_t max_fit,
                            uint32_t warps_per_cta)
{
    /* no CTA groups (ngroups 0): a kernel_info does not own storage for
     * them, so a test of a policy that reads groups points at its own */
    return (sched_kernel_info){.id = id, .total_ctas = ctas, .max_fit = max_fit,
                               .warps_per_cta = warps_per_cta, .grid = {ctas, 1, 1}};
}

static void need_started(const sched_harness *sh, const char *what)
{
    if (!sh->started)
        fail_msg("%s before sh_start", what);
}

const sched_cta_view *sh_cta_view(sched_harness *sh, const sched_kernel_info *k)
{
    need_started(sh, "sh_cta_view");
    for (uint32_t i = 0; i < sh->env.nsms; i++) {
        const sched_sm_view *s = &sh->sms[i];
        uint32_t cap = k->max_fit < s->limit ? k->max_fit : s->limit;
        uint32_t fit = cap > s->resident ? cap - s->resident : 0;
        sh->cta_sms[i] = (sched_cta_sm_view){
            .sm = s, .resident_kernel = s->resident, .fit = fit, .limit = SCHED_NO_LIMIT,
            .issued = s->ctas_issued, .finished = s->ctas_finished,
            .eligible = fit > 0 && !s->paused && !s->draining && !s->gated};
    }
    sh->cta = (sched_cta_view){.cycle = sh->ctl.cycle, .kernel = k->id,
                               .next_cta = k->issued, .total_ctas = k->total_ctas,
                               .issued = k->issued, .max_fit = k->max_fit,
                               .nsms = sh->env.nsms,
                               .sms_per_cluster = sh->env.sms_per_cluster,
                               .sms = sh->cta_sms, .info = k};
    return &sh->cta;
}

/* ------------------------------------------------------------ decisions */

static const void *ops_of(sched_harness *sh, sched_level level, const char *what)
{
    need_started(sh, what);
    if (sh->policy->level != level)
        fail_msg("%s: %s is a %s policy", what, sh->policy->name,
                 sched_level_name(sh->policy->level));
    sh->why[0] = '\0';
    return sh->h; /* the hooks are the first member of every ops struct */
}

int32_t sh_pick(sched_harness *sh)
{
    const sched_warp_ops *ops = ops_of(sh, SCHED_LEVEL_WARP, "sh_pick");
    sched_warp_ctx ctx = {sh->ctl.cycle, sh->env.sm, sh->env.scheduler, sh->ctl.trace};
    return ops->pick(sh->st, &ctx, sh->warps, sh->nwarps, sh->why);
}

uint64_t sh_observe(sched_harness *sh, const sched_issue *e)
{
    const sched_backoff_ops *ops = ops_of(sh, SCHED_LEVEL_BACKOFF, "sh_observe");
    return ops->observe(sh->st, &sh->ctl, e, sh->why);
}

int32_t sh_release(sched_harness *sh)
{
    const sched_backoff_ops *ops = ops_of(sh, SCHED_LEVEL_BACKOFF, "sh_release");
    sched_warp_ctx ctx = {sh->ctl.cycle, sh->env.sm, 0, sh->ctl.trace};
    return ops->release(sh->st, &ctx, sh->warps, sh->nwarps, sh->why);
}

void sh_decide(sched_harness *sh, const sched_kernel_info *ks, uint32_t n,
               sched_kernel_decision *out, uint32_t *limit)
{
    const sched_kernel_ops *ops = ops_of(sh, SCHED_LEVEL_KERNEL, "sh_decide");
    for (uint32_t i = 0; i < n * sh->env.nsms; i++)
        limit[i] = SCHED_NO_LIMIT;
    memset(out, 0, sizeof *out);
    out->limit = limit;
    sched_kernel_view v = {sh->ctl.cycle, n, ks, sh->env.nsms};
    ops->decide(sh->st, &sh->ctl, &v, out);
}

int32_t sh_place(sched_harness *sh, const sched_kernel_info *k)
{
    const sched_cta_ops *ops = ops_of(sh, SCHED_LEVEL_CTA, "sh_place");
    const sched_cta_view *v = sh_cta_view(sh, k);
    return ops->place(sh->st, &sh->ctl, v, sh->why);
}

sched_verdict sh_admit(sched_harness *sh, const sched_kernel_info *k, uint32_t cta,
                       uint32_t sm, bool refused)
{
    const sched_filter_ops *ops = ops_of(sh, SCHED_LEVEL_FILTER, "sh_admit");
    sh_cta_view(sh, k);
    sh->cta.next_cta = cta;
    return ops->admit(sh->st, &sh->ctl, &sh->cta, sm, refused, sh->why);
}

uint32_t sh_fetch_pick(sched_harness *sh, const sched_fetch_req *q, uint32_t n)
{
    const sched_fetch_ops *ops = ops_of(sh, SCHED_LEVEL_FETCH, "sh_fetch_pick");
    return ops->pick(sh->st, &sh->ctl, q, n);
}

uint32_t sh_l1_pick(sched_harness *sh, const sched_l1_req *q, uint32_t n)
{
    const sched_l1_ops *ops = ops_of(sh, SCHED_LEVEL_L1, "sh_l1_pick");
    return ops->pick(sh->st, &sh->ctl, q, n);
}

/* ------------------------------------------------------------ hooks */

uint64_t sh_tick(sched_harness *sh)
{
    need_started(sh, "sh_tick");
    return sh->h->tick ? sh->h->tick(sh->st, &sh->ctl) : SCHED_NEVER;
}

void sh_kernel_arrive(sched_harness *sh, const sched_kernel_info *k)
{
    need_started(sh, "sh_kernel_arrive");
    if (sh->h->kernel_arrive)
        sh->h->kernel_arrive(sh->st, &sh->ctl, k);
}

void sh_kernel_finish(sched_harness *sh, const sched_kernel_info *k)
{
    need_started(sh, "sh_kernel_finish");
    if (sh->h->kernel_finish)
        sh->h->kernel_finish(sh->st, &sh->ctl, k);
}

void sh_cta_issued(sched_harness *sh, uint32_t kernel, uint32_t cta, uint32_t sm)
{
    need_started(sh, "sh_cta_issued");
    if (sm < sh->env.nsms) {
        sh->sms[sm].resident++;
        sh->sms[sm].ctas_issued++;
    }
    sched_cta_event e = {kernel, cta, sm, NULL};
    if (sh->h->cta_issued)
        sh->h->cta_issued(sh->st, &sh->ctl, &e);
}

void sh_cta_finished(sched_harness *sh, uint32_t kernel, uint32_t cta, uint32_t sm)
{
    need_started(sh, "sh_cta_finished");
    if (sm < sh->env.nsms) {
        sched_sm_view *v = &sh->sms[sm];
        if (v->resident == 0)
            fail_msg("sh_cta_finished: SM %u holds no CTA", sm);
        v->resident--;
        v->ctas_finished++;
        if (v->draining && v->resident == 0) {
            v->draining = false;
            v->gated = true;
        }
    }
    sched_cta_event e = {kernel, cta, sm, NULL};
    if (sh->h->cta_finished)
        sh->h->cta_finished(sh->st, &sh->ctl, &e);
}

void sh_cta_dropped(sched_harness *sh, uint32_t kernel, uint32_t cta, uint32_t sm,
                    const char *why)
{
    need_started(sh, "sh_cta_dropped");
    sched_cta_event e = {kernel, cta, sm, why};
    if (sh->h->cta_dropped)
        sh->h->cta_dropped(sh->st, &sh->ctl, &e);
}

/* The four warp events share one shape: hook `member` of sched_hooks. */
#define WARP_EVENT(fn, member)                                            \
    void fn(sched_harness *sh, const sched_warp_event *e)                 \
    {                                                                     \
        need_started(sh, #fn);                                            \
        if (sh->h->member)                                                \
            sh->h->member(sh->st, &sh->ctl, e);                           \
    }
WARP_EVENT(sh_warp_arrive, warp_arrive)
WARP_EVENT(sh_warp_leave, warp_leave)
WARP_EVENT(sh_barrier, barrier)
WARP_EVENT(sh_exit, exit)
#undef WARP_EVENT

void sh_issued(sched_harness *sh, const sched_issue *e)
{
    need_started(sh, "sh_issued");
    if (sh->h->issued)
        sh->h->issued(sh->st, &sh->ctl, e);
}

void sh_mem_reply(sched_harness *sh, const sched_mem_reply *e)
{
    need_started(sh, "sh_mem_reply");
    if (sh->h->mem_reply)
        sh->h->mem_reply(sh->st, &sh->ctl, e);
}
