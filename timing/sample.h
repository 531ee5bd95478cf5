/* timing/sample.h — sampled simulation (sample.mode = on; docs/sampling.md).
 *
 * In the spirit of Principal Kernel Analysis (Baddouh et al., MICRO 2021:
 * a kernel's IPC settles after a while, so the rest can be projected):
 * every launch starts in detail.  Its IPC is measured over windows of
 * sample.window cycles.  It is *stable* once
 *   - every SM that received its CTAs has retired one CTA wave of it
 *     (ctas_per_sm of them, or the SM's policy cap if lower),
 *   - at least sample.min_fraction of its CTAs have been placed, and
 *   - each of the last K = sample.windows windows is within
 *     sample.threshold (epsilon) of their mean IPC, and that mean is within
 *     epsilon of the mean of the K windows before (no trend)
 * (or, with sample.reuse, the last windows agree with the stable IPC an
 * earlier launch of the same kernel and shape measured).  Windows last
 * sample.window cycles, and once the first wave has retired at least that
 * wave's time / K, so that K windows span a CTA's lifetime (CTAs that load
 * and compute in step make IPC swing over it); after 2K windows without a
 * verdict they double, up to 64 x sample.window (memory-bound IPC that
 * swings from window to window).  From then on its
 * CTAs not yet placed are held back; those in flight finish in detail (the
 * drain, which keeps the launch's tail in the detailed part).  When the last
 * one has finished, the held CTAs run on the functional driver
 * (ex_launch_run_ctas: the same code as a functional run, so memory is
 * exactly the functional run's).  Their cycles at the stable rate are
 *   held warp instructions / stable IPC
 * (the instruction counts of the held CTAs are exact, only the rate is
 * estimated); a kernel with spin loops (isa/annot.h spin_loop) spins
 * differently when run functionally, so for it
 *   held CTAs x cycles per finished CTA since the first wave retired.
 * The projection replays the held CTAs, each taking (those cycles / held
 * CTAs) x slots, onto the slots the drained CTAs freed, each CTA on the
 * slot that frees first, as the CTA scheduler refills them; the launch
 * ends when the last slot does.  So a last wave that is only partly full
 * still lasts a CTA's lifetime when CTAs run in step (montecarlo), and
 * slots freed early in the drain take held CTAs then.  The simulated clock
 * advances to that end: the next launch starts where the full run would
 * have started it, give or take the error.  The error: the 95% Student-t
 * half-width of the K windows' mean IPC (the CTA rate: 1.96 / sqrt(CTAs it
 * was measured over)), relative, times the projected cycles; it does not
 * see bias (an IPC that still drifts, cache state the functional part does
 * not leave behind).
 *
 * A launch runs in full, with a warning and sample.refused in the
 * statistics, when a chosen policy declares (sched_hooks.sample_refuse)
 * that its effect cannot be projected, when it is cooperative, takes part in
 * dynamic parallelism, has TB groups appended, while CSV time series are
 * written, or when another kernel is resident or may arrive before it ends
 * (concurrent kernels).  A launch too short to become stable runs in full
 * without a warning. */
#ifndef PTXEMU_TIMING_SAMPLE_H
#define PTXEMU_TIMING_SAMPLE_H

#include "timing/gpu_internal.h"

typedef struct tm_sampler tm_sampler;
typedef struct tm_sample_k tm_sample_k;

/* NULL when cfg->sample.mode is off. */
tm_sampler *tm_sampler_create(const gpu_config *cfg);
void tm_sampler_destroy(tm_sampler *s);

/* Kernel k arrived at `now` (after its counters' baselines are taken). */
void tm_sample_begin(tm_gpu *g, tm_kernel *k, uint64_t now);
/* Before CTAs are placed at cycle `now`: closes the IPC windows that ended
 * and tests stability; a stable kernel starts holding its CTAs. */
void tm_sample_step(tm_gpu *g, uint64_t now);
/* In the loop's completion check: false while held kernel k may not finish
 * at `now`.  Once its detailed CTAs have all finished it runs the held ones
 * functionally and sets its projected end. */
bool tm_sample_settle(tm_gpu *g, tm_kernel *k, uint64_t now);
/* The projected end of the kernel waiting for it; TM_NEVER: none. */
uint64_t tm_sample_next(const tm_gpu *g);
/* Kernel k finished: its statistics get the sample record; a sampled
 * launch's core counters are cut back to its detailed part. */
void tm_sample_finish(tm_gpu *g, tm_kernel *k, tm_kernel_stats *ks);
void tm_sample_kernel_free(tm_sample_k *s);

#endif
