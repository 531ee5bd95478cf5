/* benchmarks/cdp-regx/driver.c — regular-expression matching with
 * device-side launches (LaPerm seed's regx, after Gregex) on its two
 * inputs: cdp-regx-darpa (packet payloads shaped like the DARPA 1999
 * intrusion-detection traces) and cdp-regx-string (random printable
 * strings); benchmarks/cdp_regx_inputs.c generates both (2,048 / 8,192 /
 * 262,144 strings at tiny / small / paper; the seed gives no count).
 * The expression is the alternation of 12 literal signatures, compiled on
 * the host into an anchored DFA (a trie) that the kernels walk from every
 * candidate position.  Host flow: one regx_parent launch (64-thread TBs, one
 * string per thread; a string with more than CDP_REGX_THRESH candidate
 * positions goes to a child TB).
 * Check: exact, every string's match count equals the CPU's, which compares
 * every signature at every position (no DFA). */
#include "benchmarks/bench.h"
#include "benchmarks/cdp_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PB 64
#define CDP_REGX_THRESH 16

static bench_outcome regx_run(bench_env *env, cdp_regx_kind kind)
{
    cdp_strings c;
    cdp_regx_dfa d = {0};
    char err[256];
    if (!cdp_strings_make(&c, kind, env->size, env->seed, err)) {
        snprintf(env->msg, sizeof env->msg, "%s", err);
        return BENCH_ERROR;
    }
    bench_outcome out = BENCH_ERROR;
    int n = c.n, nblocks = (n + PB - 1) / PB, *count = malloc((size_t)n * sizeof(int));
    ptxemu_dptr dtext = 0, doff = 0, dfirst = 0, dnext = 0, dout = 0, dheavy = 0, dcount = 0;
    if (!count || !cdp_regx_dfa_make(&d)) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }
    size_t bytes = (size_t)c.off[n] + 1;

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dtext, bytes));
    TRY(ptxemu_malloc(env->ctx, &doff, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dfirst, 256));
    TRY(ptxemu_malloc(env->ctx, &dnext, (size_t)d.nstates * 256 * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dout, (size_t)d.nstates * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dheavy, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_malloc(env->ctx, &dcount, (size_t)n * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dtext, c.text, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, doff, c.off, ((size_t)n + 1) * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dfirst, d.first, 256));
    TRY(ptxemu_memcpy_htod(env->ctx, dnext, d.next, (size_t)d.nstates * 256 * sizeof(int)));
    TRY(ptxemu_memcpy_htod(env->ctx, dout, d.out, (size_t)d.nstates * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dheavy, 0, (size_t)nblocks * PB * sizeof(int)));
    TRY(ptxemu_memset(env->ctx, dcount, 0, (size_t)n * sizeof(int)));

    ptxemu_dim3 grid = {(unsigned)nblocks, 1, 1}, block = {PB, 1, 1};
    int thresh = CDP_REGX_THRESH;
    void *args[] = {&dtext, &doff, &dfirst, &dnext, &dout, &dheavy, &dcount, &n, &thresh};
    TRY(ptxemu_launch(env->mod, "regx_parent", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, count, dcount, (size_t)n * sizeof(int)));
#undef TRY

    double t0 = bench_now();
    int fail_at = -1, want = 0;
    for (int i = 0; i < n && fail_at < 0; i++) {
        want = cdp_ref_regx(c.text + c.off[i], c.off[i + 1] - c.off[i]);
        if (env->break_reference && i == n / 2)
            want += 1;
        if (count[i] != want)
            fail_at = i;
    }
    env->ref_seconds = bench_now() - t0;
    out = BENCH_PASS;
    if (fail_at >= 0) {
        snprintf(env->msg, sizeof env->msg, "%s: string %d (%d bytes) has %d matches, expected %d",
                 cdp_regx_name(kind), fail_at, c.off[fail_at + 1] - c.off[fail_at],
                 count[fail_at], want);
        out = BENCH_FAIL;
    }
done:
    if (dtext) ptxemu_free(env->ctx, dtext);
    if (doff) ptxemu_free(env->ctx, doff);
    if (dfirst) ptxemu_free(env->ctx, dfirst);
    if (dnext) ptxemu_free(env->ctx, dnext);
    if (dout) ptxemu_free(env->ctx, dout);
    if (dheavy) ptxemu_free(env->ctx, dheavy);
    if (dcount) ptxemu_free(env->ctx, dcount);
    free(count);
    cdp_regx_dfa_free(&d);
    cdp_strings_free(&c);
    return out;
}

static bench_outcome regx_darpa(bench_env *env) { return regx_run(env, CDP_REGX_DARPA); }
static bench_outcome regx_string(bench_env *env) { return regx_run(env, CDP_REGX_STRING); }

const bench_def bench_cdp_regx_darpa = {
    "cdp-regx-darpa",
    "regex (signature alternation, DFA) matching with a child TB per string of many candidates, DARPA-like packets",
    "cdp-regx/kernels.ptx", regx_darpa};
const bench_def bench_cdp_regx_string = {
    "cdp-regx-string",
    "regex (signature alternation, DFA) matching with a child TB per string of many candidates, random strings",
    "cdp-regx/kernels.ptx", regx_string};
