/* benchmarks/stream-words/driver.c — the thesis's stream_x_words memory
 * benchmark (§5.3.2): each thread loads x words and stores them elsewhere.
 *
 * CTAs of 256 threads (8 warps): tiny 40, small 160, paper 640 (the thesis's
 * grid); the I/O size scales with x as in Table 5.2.  stream-words is
 * stream_3_words (Figs. 5.3, 5.5); stream-1/2/4-words are the other columns
 * of Table 5.2.  The check is exact (a copy of integers). */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define SW_BLOCK 256u

static bench_outcome sw_run(bench_env *env, unsigned words)
{
    static const char *const kernel[] = {NULL, "stream_1_words",
                                         "stream_2_words", "stream_3_words",
                                         "stream_4_words"};
    unsigned ctas = env->size == BENCH_TINY    ? 40u
                    : env->size == BENCH_SMALL ? 160u
                                               : 640u;
    unsigned nthreads = ctas * SW_BLOCK;
    size_t n = (size_t)nthreads * words;
    size_t bytes = n * sizeof(unsigned);
    unsigned *in = malloc(bytes), *got = malloc(bytes);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr din = 0, dout = 0;
    if (!in || !got) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (size_t i = 0; i < n; i++)
        in[i] = (unsigned)bench_rng_next(&rng);

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &din, bytes));
    TRY(ptxemu_malloc(env->ctx, &dout, bytes));
    TRY(ptxemu_memcpy_htod(env->ctx, din, in, bytes));
    TRY(ptxemu_memset(env->ctx, dout, 0, bytes));
    void *args[] = {&din, &dout, &nthreads};
    ptxemu_dim3 grid = {ctas, 1, 1};
    ptxemu_dim3 block = {SW_BLOCK, 1, 1};
    TRY(ptxemu_launch(env->mod, kernel[words], grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, got, dout, bytes));
#undef TRY

    /* The reference of a copy is the input itself: copy it in the kernel's
     * order, thread by thread, so the timing is of comparable work. */
    double t0 = bench_now();
    unsigned *ref = malloc(bytes);
    if (!ref) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        out = BENCH_ERROR;
        goto done;
    }
    for (unsigned t = 0; t < nthreads; t++)
        for (unsigned k = 0; k < words; k++)
            ref[(size_t)k * nthreads + t] = in[(size_t)k * nthreads + t];
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n / 2] ^= 1u;

    out = BENCH_PASS;
    for (size_t i = 0; i < n; i++) {
        if (got[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "out[%zu] (thread %zu, word %zu) = 0x%08x, expected 0x%08x",
                     i, i % nthreads, i / nthreads, got[i], ref[i]);
            out = BENCH_FAIL;
            break;
        }
    }
    free(ref);
done:
    if (din) ptxemu_free(env->ctx, din);
    if (dout) ptxemu_free(env->ctx, dout);
    free(in);
    free(got);
    return out;
}

static bench_outcome sw_run_3(bench_env *env) { return sw_run(env, 3u); }
static bench_outcome sw_run_1(bench_env *env) { return sw_run(env, 1u); }
static bench_outcome sw_run_2(bench_env *env) { return sw_run(env, 2u); }
static bench_outcome sw_run_4(bench_env *env) { return sw_run(env, 4u); }

const bench_def bench_stream_words = {
    "stream-words",
    "stream_3_words: each thread loads 3 coalesced words, then stores them",
    "stream-words/kernels.ptx", sw_run_3};
const bench_def bench_stream_1_words = {
    "stream-1-words", "stream_x_words with x = 1 (thesis Table 5.2)",
    "stream-words/kernels.ptx", sw_run_1};
const bench_def bench_stream_2_words = {
    "stream-2-words", "stream_x_words with x = 2 (thesis Table 5.2)",
    "stream-words/kernels.ptx", sw_run_2};
const bench_def bench_stream_4_words = {
    "stream-4-words", "stream_x_words with x = 4 (thesis Table 5.2)",
    "stream-words/kernels.ptx", sw_run_4};
