/* sched/filter/core_count.c — the detection machines of ONAC and Seq-Det
 * (thesis §4.4, SEED-TARGETS.md §3) and the driver the two policies share.
 *
 * ONAC: sample IPC_all with every core on; IPC_thr = frac x IPC_all
 * (frac = 0.98: the 2% rule).  Sample IPC_1 with one core.  First
 * estimate N = ceil(IPC_thr / IPC_1) (the line through the origin).  Check
 * with N cores: IPC >= IPC_thr stops with N_opt = N; otherwise the next
 * estimate is where the line through the last two points meets IPC_thr,
 * rounded up.  Readings of the [gap]s: a flat or falling line, or an
 * estimate outside [N_cur + 1, Ncores], is clamped into that range; at
 * Ncores the search stops there.
 *
 * Seq-Det: sample IPC_all with every core on; then remove one core per
 * sample while IPC stays >= frac x IPC_all (the same target as ONAC, a
 * reading of the [gap] "rule for comparing across cores"); the first count
 * that misses it returns to one more core.
 *
 * Driver: cores 0 .. N-1 are on, the others are drained (ctl->sm_drain: no
 * new CTAs, powered off once empty; they draw no static power while gated).
 * A sample starts once every core switched off is empty, so its IPC is
 * that of N cores (the thesis's drain-and-acknowledge).
 * CTAs go only to cores that are on.  A sample lasts `waves` CTA waves (a
 * wave = N x CTAs-per-core completions on the cores that are on; the thesis
 * uses four), and its IPC is the chip's warp instructions per cycle over it.
 * With a warm-up (key warmup > 0; the thesis names none) the first sample
 * starts after that many waves of completions on every core, so that
 * IPC_all leaves out the kernel's start-up transient.
 * Detection restarts when a kernel arrives on an idle GPU (concurrent
 * kernels share the first one's detection); every core is powered again
 * when the last kernel finishes. */
#include "sched/filter/core_count.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------ machines */

void cc_start(cc_fsm *m, cc_kind kind, uint32_t ncores, double frac)
{
    *m = (cc_fsm){0};
    m->kind = kind;
    m->ncores = ncores ? ncores : 1;
    m->n = m->ncores;
    m->frac = frac;
}

static uint32_t cc_finish(cc_fsm *m, uint32_t n)
{
    m->n = n;
    m->done = true;
    return n;
}

static uint32_t onac_sample(cc_fsm *m, double ipc)
{
    if (m->samples == 1) { /* every core on */
        m->thr = m->frac * ipc;
        if (m->ncores == 1)
            return cc_finish(m, 1);
        m->prev_n = m->ncores;
        m->prev_ipc = ipc;
        m->n = 1;
        return m->n;
    }
    if (ipc >= m->thr && m->samples > 2)
        return cc_finish(m, m->n);
    uint32_t cur = m->n;
    double est;
    if (m->samples == 2) { /* one core: the line through the origin */
        if (ipc >= m->thr)
            return cc_finish(m, 1);
        est = ipc > 0 ? ceil(m->thr / ipc - 1e-9) : m->ncores;
    } else {
        double slope = (ipc - m->prev_ipc) / ((double)cur - (double)m->prev_n);
        est = slope > 0 ? ceil(cur + (m->thr - ipc) / slope - 1e-9) : cur + 1;
    }
    if (est < cur + 1)
        est = cur + 1;
    if (est >= m->ncores)
        return cc_finish(m, m->ncores); /* the full chip is the answer */
    m->prev_n = cur;
    m->prev_ipc = ipc;
    m->n = (uint32_t)est;
    return m->n;
}

static uint32_t seq_sample(cc_fsm *m, double ipc)
{
    if (m->samples == 1) {
        m->thr = m->frac * ipc;
    } else if (ipc < m->thr) {
        return cc_finish(m, m->n + 1); /* N-1 missed: back to N */
    }
    if (m->n == 1)
        return cc_finish(m, 1);
    m->n--;
    return m->n;
}

uint32_t cc_sample(cc_fsm *m, double ipc)
{
    if (m->done)
        return m->n;
    m->samples++;
    return m->kind == CC_ONAC ? onac_sample(m, ipc) : seq_sample(m, ipc);
}

/* ------------------------------------------------------------ driver */

static const char *cc_name(const cc_state *s)
{
    return s->kind == CC_ONAC ? "onac" : "seq-det";
}

void cc_init(cc_state *s, cc_kind kind, const sched_env *env, double waves, double frac,
             double warmup)
{
    s->kind = kind;
    s->nsms = env->nsms;
    s->waves = waves;
    s->frac = frac;
    s->warmup = warmup;
    s->on = calloc(env->nsms, sizeof *s->on);
    for (uint32_t i = 0; i < env->nsms; i++)
        s->on[i] = true;
}

void cc_destroy(void *st)
{
    cc_state *s = st;
    free(s->on);
    s->on = NULL;
}

static uint64_t chip_instrs(const sched_ctl *c, uint32_t nsms)
{
    uint64_t t = 0;
    for (uint32_t sm = 0; sm < nsms; sm++)
        t += c->sm_view(c, sm)->warp_instrs;
    return t;
}

/* Cores 0 .. n-1 on, the rest drained; controls only where a core changes. */
static void cc_apply(cc_state *s, const sched_ctl *c, uint32_t n)
{
    for (uint32_t sm = 0; sm < s->nsms; sm++) {
        bool want = sm < n;
        if (want == s->on[sm])
            continue;
        s->on[sm] = want;
        if (want)
            c->sm_resume(c, sm);
        else
            c->sm_drain(c, sm);
    }
}

/* Every core switched off is empty (its CTAs drained): a sample with N
 * cores measures N cores only (the thesis's pause acknowledgement). */
static bool cc_drained(const cc_state *s, const sched_ctl *c)
{
    for (uint32_t sm = 0; sm < s->nsms; sm++)
        if (!s->on[sm] && c->sm_view(c, sm)->resident)
            return false;
    return true;
}

/* CTA completions that make `waves` waves on n cores (at least one). */
static uint64_t cc_completions(const cc_state *s, double waves, uint32_t n)
{
    double t = waves * n * (s->max_fit ? s->max_fit : 1);
    return t < 1 ? 1 : (uint64_t)ceil(t);
}

static void cc_begin_sample(cc_state *s, const sched_ctl *c)
{
    s->start = c->cycle;
    s->base_instrs = chip_instrs(c, s->nsms);
    s->base_finished = s->finished;
    s->target = cc_completions(s, s->waves, s->m.n);
}

void cc_kernel_arrive(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    cc_state *s = st;
    if (s->running++)
        return;
    cc_start(&s->m, s->kind, s->nsms, s->frac);
    s->max_fit = k->max_fit;
    s->detecting = true;
    s->settling = false;
    s->warming = false;
    s->finished = 0;
    cc_apply(s, c, s->m.n);
    if (s->warmup > 0) {
        /* every core runs the warm-up; the first sample starts after it */
        s->warming = true;
        s->base_finished = 0;
        s->target = cc_completions(s, s->warmup, s->m.n);
        return;
    }
    cc_begin_sample(s, c);
}

void cc_kernel_finish(void *st, const sched_ctl *c, const sched_kernel_info *k)
{
    (void)k;
    cc_state *s = st;
    if (s->running && --s->running)
        return;
    s->detecting = false;
    cc_apply(s, c, s->nsms);
}

void cc_cta_finished(void *st, const sched_ctl *c, const sched_cta_event *e)
{
    cc_state *s = st;
    if (!s->detecting || e->sm >= s->nsms)
        return;
    if (s->settling) {
        if (!cc_drained(s, c))
            return;
        s->settling = false;
        cc_begin_sample(s, c);
        return;
    }
    if (!s->on[e->sm])
        return;
    if (++s->finished - s->base_finished < s->target)
        return;
    if (s->warming) {
        s->warming = false;
        if (c->trace)
            c->log(c, cc_name(s), "warm-up over after %llu completions", (unsigned long long)s->target);
        cc_begin_sample(s, c);
        return;
    }
    uint64_t cycles = c->cycle > s->start ? c->cycle - s->start : 1;
    double ipc = (double)(chip_instrs(c, s->nsms) - s->base_instrs) / (double)cycles;
    uint32_t before = s->m.n;
    uint32_t n = cc_sample(&s->m, ipc);
    if (c->trace)
        c->log(c, cc_name(s), "IPC with %u cores = %.4f over %llu cycles -> %u cores%s",
               before, ipc, (unsigned long long)cycles, n, s->m.done ? " (N_opt)" : "");
    cc_apply(s, c, n);
    if (s->m.done) {
        s->detecting = false;
    } else if (cc_drained(s, c)) {
        cc_begin_sample(s, c);
    } else {
        s->settling = true; /* the next sample starts once they are empty */
    }
}

sched_verdict cc_admit(void *st, const sched_ctl *c, const sched_cta_view *v, uint32_t sm,
                       bool refused, char *why)
{
    (void)v, (void)refused;
    cc_state *s = st;
    if (sm < s->nsms && s->on[sm])
        return SCHED_ADMIT;
    if (c->trace)
        snprintf(why, SCHED_WHY_LEN, "core %u is off", sm);
    return SCHED_REFUSE; /* drained cores take none (the driver skips them too) */
}
