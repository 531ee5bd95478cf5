/* scan/driver.c — exclusive prefix sum of N unsigned integers (mod 2^32),
 * "scan of large arrays".
 *
 * Host flow (recursive, as the SDK's scanLargeArray): scan_block over
 * ceil(N/512) CTAs writes per-CTA totals; if there is more than one CTA the
 * host scans those totals in place with the same procedure (recursing while
 * a level needs more than one CTA) and then launches scan_add to add the
 * scanned totals back.  Check: exact against a sequential CPU scan. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define SCAN_THREADS 256 /* must match kernels.cu */
#define SCAN_ELEMS 512

static unsigned scan_n(bench_size s)
{
    switch (s) {
    case BENCH_TINY:
        return 12345; /* 2 levels: 25 CTAs, 1, 25 */
    case BENCH_SMALL:
        return 300000; /* 3 levels: 586, 2, 1, 2, 586 CTAs */
    case BENCH_CLASO:
        return 98765; /* CLASO Table 2 "SLA": 387 CTAs of 256 (193 + 1 + 193) */
    default:
        /* CLASO Table 2 "SLA" has 387 CTAs of 256 (98,765 elements here gave
         * 193 + 1 + 193, 3.4 waves per big kernel on the c2050 preset);
         * raised, as LIB and ST are, to 342 + 1 + 342 = 685 CTAs: 6.1
         * waves of 14 x 4 CTAs on the c2050 preset (1,024 threads per
         * core), 4.1 at Table 2's 6 CTAs per core */
        return 175000;
    }
}

/* Exclusive scan of `in` (n elements) into `out`; `out` may equal `in`. */
static bench_outcome scan_level(bench_env *env, ptxemu_dptr out, ptxemu_dptr in,
                                unsigned n, unsigned *launches)
{
    unsigned blocks = (n + SCAN_ELEMS - 1) / SCAN_ELEMS;
    ptxemu_dptr sums = 0; /* null: a single CTA needs no block sums */
    if (blocks > 1)
        BENCH_TRY(env, ptxemu_malloc(env->ctx, &sums, (size_t)blocks * sizeof(uint32_t)));

    void *args[] = {&out, &in, &sums, &n};
    BENCH_TRY(env, ptxemu_launch(env->mod, "scan_block", (ptxemu_dim3){blocks, 1, 1},
                                 (ptxemu_dim3){SCAN_THREADS, 1, 1}, 0, args));
    ++*launches;
    if (blocks > 1) {
        bench_outcome rc = scan_level(env, sums, sums, blocks, launches);
        if (rc != BENCH_PASS)
            return rc;
        void *add_args[] = {&out, &sums, &n};
        BENCH_TRY(env, ptxemu_launch(env->mod, "scan_add", (ptxemu_dim3){blocks, 1, 1},
                                     (ptxemu_dim3){SCAN_THREADS, 1, 1}, 0, add_args));
        ++*launches;
        BENCH_TRY(env, ptxemu_free(env->ctx, sums));
    }
    return BENCH_PASS;
}

static bench_outcome scan_device(bench_env *env, unsigned n, const uint32_t *in,
                                 uint32_t *out, unsigned *launches)
{
    size_t bytes = (size_t)n * sizeof(uint32_t);
    ptxemu_dptr d_in, d_out;
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_in, bytes));
    BENCH_TRY(env, ptxemu_malloc(env->ctx, &d_out, bytes));
    BENCH_TRY(env, ptxemu_memcpy_htod(env->ctx, d_in, in, bytes));
    bench_outcome rc = scan_level(env, d_out, d_in, n, launches);
    if (rc != BENCH_PASS)
        return rc;
    BENCH_TRY(env, ptxemu_synchronize(env->ctx));
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, out, d_out, bytes));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_in));
    BENCH_TRY(env, ptxemu_free(env->ctx, d_out));
    return BENCH_PASS;
}

static bench_outcome scan_run(bench_env *env)
{
    unsigned n = scan_n(env->size);
    uint32_t *in = malloc((size_t)n * sizeof *in);
    uint32_t *out = malloc((size_t)n * sizeof *out);
    uint32_t *ref = malloc((size_t)n * sizeof *ref);
    bench_outcome rc = BENCH_ERROR;
    if (!in || !out || !ref) {
        snprintf(env->msg, sizeof env->msg, "scan: out of host memory");
        goto done;
    }
    uint64_t rng = env->seed;
    for (unsigned i = 0; i < n; i++)
        in[i] = (uint32_t)bench_rng_next(&rng);

    unsigned launches = 0;
    rc = scan_device(env, n, in, out, &launches);
    if (rc != BENCH_PASS)
        goto done;

    double t0 = bench_now();
    uint32_t acc = 0;
    for (unsigned i = 0; i < n; i++) {
        ref[i] = acc;
        acc += in[i];
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[n - 1] += 1;

    for (unsigned i = 0; i < n; i++)
        if (out[i] != ref[i]) {
            snprintf(env->msg, sizeof env->msg,
                     "scan: out[%u] = %u, reference %u (%u launches)", i, out[i],
                     ref[i], launches);
            rc = BENCH_FAIL;
            break;
        }
done:
    free(in);
    free(out);
    free(ref);
    return rc;
}

const bench_def bench_scan = {
    "scan", "exclusive prefix sum of large u32 arrays (recursive block scan)",
    "scan/kernels.ptx", scan_run};
