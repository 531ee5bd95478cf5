/* reduction/driver.c — sum of N unsigned 32-bit integers (mod 2^32).
 *
 * Host flow (SDK reduction, kernel with shuffles, multi-pass): launch
 * reduce_sum with min(max_blocks, ceil(n / 512)) CTAs of 256 threads, then
 * relaunch on the CTA partials (ping-ponging two buffers) until one value is
 * left.  Check: exact (addition mod 2^32 is associative and commutative). */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define RED_THREADS 256

typedef struct red_size {
    unsigned n, max_blocks;
} red_size;

static red_size red_pick(bench_size s)
{
    switch (s) {
    case BENCH_TINY: /* 2 passes: 128 CTAs, then 1 */
        return (red_size){100000, 128};
    case BENCH_SMALL: /* 3 passes: 2048, 4, 1 CTAs */
        return (red_size){(1u << 22) + 17, 2048};
    default: /* SDK default: 2^24 elements, 64 CTAs max, 2 passes */
        return (red_size){1u << 24, 64};
    }
}

static bench_outcome red_device(bench_env *env, const red_size *sz,
                                const uint32_t *in, uint32_t *result,
                                unsigned *passes)
{
    ptxemu_dptr d_in, d_part[2];
    size_t part_bytes = (size_t)sz->max_blocks * sizeof(uint32_t);
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_in, (size_t)sz->n * sizeof(uint32_t)));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_part[0], part_bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_part[1], part_bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_in, in, (size_t)sz->n * sizeof(uint32_t)));

    ptxemu_dptr src = d_in;
    unsigned n = sz->n;
    *passes = 0;
    do {
        unsigned blocks = (n + 2 * RED_THREADS - 1) / (2 * RED_THREADS);
        if (blocks > sz->max_blocks)
            blocks = sz->max_blocks;
        ptxemu_dptr dst = d_part[*passes & 1];
        void *args[] = {&dst, &src, &n};
        BENCH_TRY(env, ptxemu_launch(env->mod, "reduce_sum", (ptxemu_dim3){blocks, 1, 1},
                                     (ptxemu_dim3){RED_THREADS, 1, 1},
                                     RED_THREADS * sizeof(uint32_t), args));
        src = dst;
        n = blocks;
        ++*passes;
    } while (n > 1);

    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, result, src, sizeof *result));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_in));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_part[0]));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_part[1]));
    return BENCH_PASS;
}

static bench_outcome red_run(bench_env *env)
{
    red_size sz = red_pick(env->size);
    uint32_t *in = malloc((size_t)sz.n * sizeof *in);
    if (!in) {
        snprintf(env->msg, sizeof env->msg, "reduction: out of host memory");
        return BENCH_ERROR;
    }
    uint64_t rng = env->seed;
    for (unsigned i = 0; i < sz.n; i++)
        in[i] = (uint32_t)bench_rng_next(&rng);

    uint32_t result = 0;
    unsigned passes = 0;
    bench_outcome rc = red_device(env, &sz, in, &result, &passes);
    if (rc == BENCH_PASS) {
        double t0 = bench_now();
        uint32_t ref = 0;
        for (unsigned i = 0; i < sz.n; i++)
            ref += in[i];
        env->ref_seconds = bench_now() - t0;
        if (env->break_reference)
            ref ^= 1u;
        if (result != ref) {
            snprintf(env->msg, sizeof env->msg,
                     "reduction: sum of %u elements after %u passes = %u, reference %u",
                     sz.n, passes, result, ref);
            rc = BENCH_FAIL;
        }
    }
    free(in);
    return rc;
}

const bench_def bench_reduction = {
    "reduction", "multi-pass integer sum (shared memory + warp shuffles)",
    "reduction/kernels.ptx", red_run};
