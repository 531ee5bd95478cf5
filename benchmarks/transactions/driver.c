/* benchmarks/transactions/driver.c — the spin seed's Transactions
 * Benchmark: random transfers between accounts, each done while holding the
 * locks of both accounts.
 *
 * Threads / transactions / accounts (the named count is the paper's):
 *   tiny   1,536 (3 CTAs of 512)  /   6,144 / paper accounts / 16
 *   small  6,144 (12 CTAs of 512) /  30,720 / paper accounts / 4
 *   paper 23,040 (45 CTAs of 512) / 122,880 / 2k, 4k or 8k accounts
 * Paper size is the seed's: 23k threads fill a GTX480, 122k transactions,
 * 2k/4k/8k accounts for high/mid/low contention (Figs. 6-8).
 * The check is exact: every final balance equals the CPU's (initial balance
 * plus incoming minus outgoing amounts, which is order-independent), and the
 * total over all accounts is unchanged. */
#include "benchmarks/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define TX_BLOCK 512u

static bench_outcome tx_run(bench_env *env, unsigned paper_accounts)
{
    unsigned nthreads, ntx, naccounts;
    switch (env->size) {
    case BENCH_TINY:
        nthreads = 1536u; ntx = 6144u; naccounts = paper_accounts / 16u;
        break;
    case BENCH_SMALL:
        nthreads = 6144u; ntx = 30720u; naccounts = paper_accounts / 4u;
        break;
    default:
        nthreads = 23040u; ntx = 122880u; naccounts = paper_accounts;
        break;
    }
    size_t txbytes = (size_t)ntx * sizeof(int);
    size_t acbytes = (size_t)naccounts * sizeof(int);
    int *src = malloc(txbytes), *dst = malloc(txbytes), *amt = malloc(txbytes);
    int *init = malloc(acbytes), *got = malloc(acbytes), *ref = malloc(acbytes);
    int *locks = malloc(acbytes);
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dsrc = 0, ddst = 0, damt = 0, dbal = 0, dlocks = 0;
    if (!src || !dst || !amt || !init || !got || !ref || !locks) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        goto done;
    }

    uint64_t rng = env->seed;
    for (unsigned a = 0; a < naccounts; a++)
        init[a] = (int)(bench_rng_next(&rng) % 10000u);
    for (unsigned t = 0; t < ntx; t++) {
        src[t] = (int)(bench_rng_next(&rng) % naccounts);
        /* a different destination: src + 1 .. src + naccounts - 1 (mod) */
        dst[t] = (int)((src[t] + 1u + bench_rng_next(&rng) % (naccounts - 1u)) %
                       naccounts);
        amt[t] = (int)(1u + bench_rng_next(&rng) % 100u);
    }

#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dsrc, txbytes));
    TRY(ptxemu_malloc(env->ctx, &ddst, txbytes));
    TRY(ptxemu_malloc(env->ctx, &damt, txbytes));
    TRY(ptxemu_malloc(env->ctx, &dbal, acbytes));
    TRY(ptxemu_malloc(env->ctx, &dlocks, acbytes));
    TRY(ptxemu_memcpy_htod(env->ctx, dsrc, src, txbytes));
    TRY(ptxemu_memcpy_htod(env->ctx, ddst, dst, txbytes));
    TRY(ptxemu_memcpy_htod(env->ctx, damt, amt, txbytes));
    TRY(ptxemu_memcpy_htod(env->ctx, dbal, init, acbytes));
    TRY(ptxemu_memset(env->ctx, dlocks, 0, acbytes));
    void *args[] = {&dsrc, &ddst, &damt, &dbal, &dlocks, &ntx};
    ptxemu_dim3 grid = {nthreads / TX_BLOCK, 1, 1};
    ptxemu_dim3 block = {TX_BLOCK, 1, 1};
    TRY(ptxemu_launch(env->mod, "transactions", grid, block, 0, args));
    TRY(ptxemu_memcpy_dtoh(env->ctx, got, dbal, acbytes));
    TRY(ptxemu_memcpy_dtoh(env->ctx, locks, dlocks, acbytes));
#undef TRY

    double t0 = bench_now();
    for (unsigned a = 0; a < naccounts; a++)
        ref[a] = init[a];
    for (unsigned t = 0; t < ntx; t++) {
        ref[src[t]] -= amt[t];
        ref[dst[t]] += amt[t];
    }
    env->ref_seconds = bench_now() - t0;
    if (env->break_reference)
        ref[naccounts / 2] += 1;

    out = BENCH_PASS;
    long long total_init = 0, total_got = 0;
    for (unsigned a = 0; a < naccounts; a++) {
        total_init += init[a];
        total_got += got[a];
    }
    for (unsigned a = 0; a < naccounts; a++) {
        if (got[a] != ref[a]) {
            snprintf(env->msg, sizeof env->msg,
                     "balance[%u] = %d, expected %d", a, got[a], ref[a]);
            out = BENCH_FAIL;
            goto done;
        }
        if (locks[a] != 0) {
            snprintf(env->msg, sizeof env->msg,
                     "lock[%u] = %d after the kernel, expected 0 (free)", a,
                     locks[a]);
            out = BENCH_FAIL;
            goto done;
        }
    }
    if (total_got != total_init) {
        snprintf(env->msg, sizeof env->msg,
                 "total balance %lld, expected %lld (money not conserved)",
                 total_got, total_init);
        out = BENCH_FAIL;
    }
done:
    if (dsrc) ptxemu_free(env->ctx, dsrc);
    if (ddst) ptxemu_free(env->ctx, ddst);
    if (damt) ptxemu_free(env->ctx, damt);
    if (dbal) ptxemu_free(env->ctx, dbal);
    if (dlocks) ptxemu_free(env->ctx, dlocks);
    free(src);
    free(dst);
    free(amt);
    free(init);
    free(got);
    free(ref);
    free(locks);
    return out;
}

static bench_outcome tx_run_2k(bench_env *env) { return tx_run(env, 2048u); }
static bench_outcome tx_run_4k(bench_env *env) { return tx_run(env, 4096u); }
static bench_outcome tx_run_8k(bench_env *env) { return tx_run(env, 8192u); }

const bench_def bench_transactions = {
    "transactions",
    "random transfers between 4k accounts, both account locks held per transfer",
    "transactions/kernels.ptx", tx_run_4k};
const bench_def bench_transactions_2k = {
    "transactions-2k", "transactions with 2k accounts (high contention)",
    "transactions/kernels.ptx", tx_run_2k};
const bench_def bench_transactions_8k = {
    "transactions-8k", "transactions with 8k accounts (low contention)",
    "transactions/kernels.ptx", tx_run_8k};
