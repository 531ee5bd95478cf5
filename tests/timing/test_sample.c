/* tests/timing/test_sample.c — sampled simulation (sample.mode = on,
 * timing/sample.h; issue 28):
 *
 *   memory   benchmarks at size tiny on a one-SM gtx480 with a sampler tuned
 *            to stop as early as it may (windows of 10 cycles, K = 2, any
 *            spread, no minimum fraction): each passes
 *            its CPU reference, launches as often as the functional run and
 *            leaves device memory bit for bit as the functional run does;
 *            and most of them really were sampled (a launch projected with
 *            CTAs run functionally);
 *   accuracy hotspot at size small, default sampler: its second launch is
 *            sampled (detailed CTA fraction < 1), the run's cycles are within
 *            5% of the full run's (measured: -0.3%, docs/sampling.md) and the
 *            memory equals the full run's;
 *   refused  a policy that declares its effect cannot be projected (onac,
 *            claso): every launch says sample.refused, none is projected and
 *            the cycles equal those of the run without sampling exactly;
 *   reuse    gaussian (launches of two kernels, each of one shape, repeat):
 *            a later launch takes the stable rate an earlier one measured,
 *            memory unchanged;
 *   energy   hotspot small on 3 of gtx480's 15 SMs (the throttle filter
 *            gates the other 12): the sampled run's energy is projected
 *            like its cycles, so its static energy (powered SM-cycles)
 *            is within 1% of the full run's and its total within 3%
 *            (measured: +0.004% and -0.3%; before the projection the
 *            gated SMs' cycles after the detailed part counted as powered).
 *
 *   test_sample memory|accuracy|refused|reuse|energy */
#include "benchmarks/harness.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One SM, so that tiny grids take several CTA waves, and a sampler that
 * stops as soon as the rules let it. */
static const char *const eager[] = {"gpu.num_sms=1", "sample.mode=on", "sample.window=10",
                                    "sample.windows=2", "sample.threshold=1",
                                    "sample.min_fraction=0", NULL};

/* b at `size` from opts: its counters in *c and, for timing runs, a copy
 * of its statistics JSON in *json; 0 when it passed its CPU reference. */
static int run(const char *name, bench_size size, const ptxemu_options *opts,
               ptxemu_counters *c, char **json)
{
    const bench_def *b = bench_find(name);
    if (!b) {
        printf("FAIL %s: no such benchmark\n", name);
        return 1;
    }
    ptxemu_ctx *ctx = NULL;
    char msg[512];
    bench_outcome o = bench_run_ctx(b, size, 1, opts, &ctx, msg);
    memset(c, 0, sizeof *c);
    if (json)
        *json = NULL;
    if (ctx) {
        ptxemu_get_counters(ctx, c);
        const char *js = opts->timing ? ptxemu_timing_stats_json(ctx) : NULL;
        if (json && js)
            *json = g_strdup(js);
    }
    ptxemu_ctx_destroy(ctx);
    if (o != BENCH_PASS) {
        printf("FAIL %s: %s\n", name, msg);
        return 1;
    }
    return 0;
}

static ptxemu_options timing_opts(const char *const *sets)
{
    ptxemu_options o = {0};
    o.memory_digest = 1;
    o.timing = 1;
    o.timing_config = "gtx480";
    o.timing_set = sets;
    return o;
}

/* The number after `"key": ` at its first occurrence from `from` on; -1
 * when absent. */
static double num_after(const char *from, const char *key)
{
    char *pat = g_strdup_printf("\"%s\": ", key);
    const char *p = from ? strstr(from, pat) : NULL;
    double v = p ? g_ascii_strtod(p + strlen(pat), NULL) : -1;
    g_free(pat);
    return v;
}

static unsigned count(const char *s, const char *what)
{
    unsigned n = 0;
    for (const char *p = s; p && (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static int test_memory(void)
{
    static const char *const names[] = {
        "vector-add", "hotspot", "backprop", "pathfinder", "nn", "srad", "kmeans", "2dconv",
        "bfs", "histogram", "hashtable", "transactions", "matrixmul", "b+tree", "reduction",
        "gaussian"};
    unsigned bad = 0, sampled = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        ptxemu_options f = {0};
        f.memory_digest = 1;
        ptxemu_options o = timing_opts(eager);
        ptxemu_counters want, got;
        char *js = NULL;
        if (run(names[i], BENCH_TINY, &f, &want, NULL) ||
            run(names[i], BENCH_TINY, &o, &got, &js)) {
            bad++;
        } else if (got.memory_digest != want.memory_digest) {
            printf("FAIL %s: device memory differs from the functional run\n", names[i]);
            bad++;
        } else if (got.launches != want.launches) {
            printf("FAIL %s: %llu launches, functional %llu\n", names[i],
                   (unsigned long long)got.launches, (unsigned long long)want.launches);
            bad++;
        } else {
            unsigned n = count(js, "\"sampled\": true");
            sampled += n > 0;
            printf("ok %s: %u launches sampled\n", names[i], n);
        }
        g_free(js);
    }
    /* the eager sampler stops every launch with two windows and a wave to
     * spare; grids of a wave or two run in full */
    if (sampled < G_N_ELEMENTS(names) / 2) {
        printf("FAIL only %u of %u benchmarks had a sampled launch\n", sampled,
               (unsigned)G_N_ELEMENTS(names));
        bad++;
    }
    return bad != 0;
}

static int test_accuracy(void)
{
    const char *const off[] = {NULL};
    const char *const on[] = {"sample.mode=on", NULL};
    ptxemu_options fo = timing_opts(off), so = timing_opts(on);
    ptxemu_counters fc, sc;
    char *fj = NULL, *sj = NULL;
    int bad = run("hotspot", BENCH_SMALL, &fo, &fc, &fj) ||
              run("hotspot", BENCH_SMALL, &so, &sc, &sj);
    if (!bad) {
        const char *smp = strstr(sj, "\"sampled\": true");
        double frac = num_after(smp, "detailed_cta_fraction");
        double full = num_after(strstr(fj, "\"total\""), "cycles");
        double got = num_after(strstr(sj, "\"total\""), "cycles");
        double err = full > 0 ? (got - full) / full : 1;
        printf("hotspot small: full %.0f cycles, sampled %.0f (%+.2f%%), detailed CTA "
               "fraction %.3f\n", full, got, 100 * err, frac);
        if (!smp || frac <= 0 || frac >= 1) {
            printf("FAIL no launch of hotspot (small) was sampled\n");
            bad = 1;
        } else if (err > 0.05 || err < -0.05) {
            printf("FAIL sampled cycles more than 5%% from the full run's\n");
            bad = 1;
        } else if (sc.memory_digest != fc.memory_digest) {
            printf("FAIL sampled memory differs from the full run's\n");
            bad = 1;
        }
    }
    g_free(fj);
    g_free(sj);
    return bad;
}

static int test_energy(void)
{
    const char *const off[] = {"cta.filters=throttle", "throttle.active_sms=3",
                                "throttle.burst=1048576", NULL};
    const char *const on[] = {"cta.filters=throttle", "throttle.active_sms=3",
                              "throttle.burst=1048576", "sample.mode=on", NULL};
    ptxemu_options fo = timing_opts(off), so = timing_opts(on);
    ptxemu_counters fc, sc;
    char *fj = NULL, *sj = NULL;
    int bad = run("hotspot", BENCH_SMALL, &fo, &fc, &fj) ||
              run("hotspot", BENCH_SMALL, &so, &sc, &sj);
    if (!bad) {
        const char *ft = strstr(fj, "\"total\""), *st = strstr(sj, "\"total\"");
        double fs = num_after(ft, "static_j"), ss = num_after(st, "static_j");
        double fe = num_after(ft, "energy_j"), se = num_after(st, "energy_j");
        double es = fs > 0 ? (ss - fs) / fs : 1, ee = fe > 0 ? (se - fe) / fe : 1;
        printf("hotspot small, 3 SMs: static %.4g J full, %.4g sampled (%+.3f%%); total %.4g "
               "J full, %.4g sampled (%+.3f%%)\n", fs, ss, 100 * es, fe, se, 100 * ee);
        if (!strstr(sj, "\"sampled\": true")) {
            printf("FAIL no launch was sampled\n");
            bad = 1;
        } else if (es > 0.01 || es < -0.01 || ee > 0.03 || ee < -0.03) {
            printf("FAIL sampled energy too far from the full run's\n");
            bad = 1;
        }
    }
    g_free(fj);
    g_free(sj);
    return bad;
}

static int refused_by(const char *filter)
{
    char *f = g_strdup_printf("cta.filters=%s", filter);
    const char *const off[] = {f, "gpu.num_sms=1", NULL};
    const char *on[G_N_ELEMENTS(eager) + 1];
    on[0] = f;
    memcpy(on + 1, eager, sizeof eager);
    ptxemu_options fo = timing_opts(off), so = timing_opts(on);
    ptxemu_counters fc, sc;
    char *fj = NULL, *sj = NULL;
    int bad = run("hotspot", BENCH_TINY, &fo, &fc, &fj) ||
              run("hotspot", BENCH_TINY, &so, &sc, &sj);
    char *why = g_strdup_printf("\"refused\": \"%s", filter);
    if (!bad) {
        unsigned launches = count(sj, "\"launch\": ");
        if (count(sj, why) != launches || launches == 0) {
            printf("FAIL %s: %u of %u launches say %s\"\n", filter, count(sj, why), launches,
                   why);
            bad = 1;
        } else if (strstr(sj, "\"sampled\": true")) {
            printf("FAIL %s: a launch was sampled although refused\n", filter);
            bad = 1;
        } else if (fc.cycles != sc.cycles || fc.memory_digest != sc.memory_digest) {
            printf("FAIL %s: refused sampling changed the run (%llu vs %llu cycles)\n", filter,
                   (unsigned long long)sc.cycles, (unsigned long long)fc.cycles);
            bad = 1;
        } else {
            printf("ok %s: %u launches refused, %llu cycles as without sampling\n", filter,
                   launches, (unsigned long long)sc.cycles);
        }
    }
    g_free(why);
    g_free(fj);
    g_free(sj);
    g_free(f);
    return bad;
}

static int test_reuse(void)
{
    ptxemu_options f = {0};
    f.memory_digest = 1;
    ptxemu_options o = timing_opts(eager);
    ptxemu_counters want, got;
    char *js = NULL;
    int bad = run("gaussian", BENCH_TINY, &f, &want, NULL) ||
              run("gaussian", BENCH_TINY, &o, &got, &js);
    if (!bad && !strstr(js, "\"reused_from_launch\"")) {
        printf("FAIL gaussian: no launch reused an earlier launch's rate\n");
        bad = 1;
    } else if (!bad && got.memory_digest != want.memory_digest) {
        printf("FAIL gaussian: device memory differs from the functional run\n");
        bad = 1;
    } else if (!bad) {
        printf("ok gaussian: %u launches reused a rate\n", count(js, "\"reused_from_launch\""));
    }
    g_free(js);
    return bad;
}

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    if (!strcmp(what, "memory"))
        return test_memory();
    if (!strcmp(what, "accuracy"))
        return test_accuracy();
    if (!strcmp(what, "refused"))
        return refused_by("onac") | refused_by("claso");
    if (!strcmp(what, "reuse"))
        return test_reuse();
    if (!strcmp(what, "energy"))
        return test_energy();
    printf("usage: test_sample memory|accuracy|refused|reuse|energy\n");
    return 1;
}
