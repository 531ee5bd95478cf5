/* benchmarks/pointer-chase/driver.c — load-to-use latency of L1, L2 and
 * DRAM, measured the lat_mem_rd way: one thread (1 CTA x 1 thread) follows
 * a chain of indices, i = next[i], so every load waits for the one before.
 *
 * Chains.  Every node sits at the start of its own 128-byte line.  Sizes
 * are chosen for the Fermi presets (m2090, gtx480: 16 KiB 4-way L1 of
 * 128-byte lines, 768 KiB L2 = 6 partitions x 128 KiB, 16-way):
 *   L1    64 nodes on consecutive lines (8 KiB: 2 lines per L1 set, half
 *         the L1), one random cycle through all of them;
 *   L2    1024 nodes on consecutive lines (128 KiB): 32 lines per 4-way L1
 *         set, so with LRU every line is evicted before the cycle comes back
 *         to it; 1/6 of the L2 (under 3 lines per 16-way L2 set);
 *   DRAM  3N+1 nodes 192 KiB apart, followed in address order, each loaded
 *         once per run.  192 KiB = dram.row_buffer x dram.banks x
 *         dram.partitions (2 KiB x 16 x 6): with the 256-byte partition
 *         interleave every node falls in the same partition and bank, one
 *         row further on, so every step is an L1 and L2 miss and a DRAM row
 *         miss (precharge, activate, two 64-byte reads), never a row hit.
 *         With gtx480's 4 KiB rows consecutive nodes alternate between two
 *         banks, each found open on the row of two nodes back: a row miss
 *         too.
 *
 * Measurement (timing mode).  For each chain: a priming launch (L1, L2: one
 * whole cycle, which brings every node into L2; DRAM: one step on the last
 * node, which leaves the bank open on another row), a launch of W + N steps,
 * the priming launch again, a launch of W + 2N steps.  W, the in-kernel
 * warm-up, is one whole cycle for L1 and L2 (so the timed steps start from
 * the same L1 state whichever SM runs the CTA, and whether or not L1s are
 * emptied at kernel boundaries) and 0 for DRAM; the DRAM launches start at
 * nodes 0 and N so both touch only cold lines.  The two timed launches
 * differ only in N more steps, so
 *     cycles per step = (cycles(W + 2N) - cycles(W + N)) / N
 * exactly, free of launch, warm-up and drain overheads.  The kernel's
 * %clock64 is not used: in timing mode it counts warp instructions.
 *
 * Expected cycles per step (tests/timing/test_micro.c derives them): the
 * load latency of the level plus the loop's dependent instructions
 * (mul.wide.u32 4 + add.s64 4, cfg->latency int_mul/int_add) and the wait
 * for the next issue slot.  The counter add, setp and bra issue while the
 * load is outstanding.
 *
 * Functional check: the index each launch ends on, against a CPU walk of the
 * same chain (exact).  N: tiny 32, small 64, paper 128 steps. */
#include "benchmarks/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PC_LINE_WORDS 32u                         /* u32 slots per 128-byte line */
#define PC_DRAM_STRIDE_WORDS (2048u * 16u * 6u / 4u) /* 192 KiB */

typedef enum pc_level { PC_L1, PC_L2, PC_DRAM, PC_LEVELS } pc_level;

static const char *const pc_level_names[PC_LEVELS] = {"L1", "L2", "DRAM"};

/* What one chain measured. */
typedef struct pc_result {
    uint32_t nodes;           /* nodes in the chain */
    uint64_t span;            /* bytes from the first node to the last line */
    uint32_t steps;           /* N */
    uint64_t cycles[2];       /* of the W + N and W + 2N launches */
    double cycles_per_step;   /* NAN without timing */
} pc_result;

typedef struct pc_chain {
    uint32_t nodes, stride;   /* stride in u32 slots */
    uint32_t *succ;           /* node -> next node */
    uint32_t warm;            /* in-kernel warm-up steps */
    uint32_t prime_start, prime_steps;
    uint32_t start[2];        /* first node of the two timed launches */
} pc_chain;

static uint32_t pc_steps(bench_size size)
{
    return size == BENCH_TINY ? 32u : size == BENCH_SMALL ? 64u : 128u;
}

/* The chain of `level` for timed launches of N and 2N steps. */
static void pc_chain_make(pc_chain *c, pc_level level, uint32_t n, uint64_t seed)
{
    c->nodes = level == PC_L1 ? 64u : level == PC_L2 ? 1024u : 3u * n + 1u;
    c->stride = level == PC_DRAM ? PC_DRAM_STRIDE_WORDS : PC_LINE_WORDS;
    c->succ = malloc(sizeof *c->succ * c->nodes);
    if (!c->succ)
        return;
    if (level == PC_DRAM) {
        for (uint32_t k = 0; k < c->nodes; k++)
            c->succ[k] = (k + 1) % c->nodes;
        c->warm = 0;
        c->prime_start = 3u * n;
        c->prime_steps = 1;
        c->start[0] = 0;
        c->start[1] = n;
        return;
    }
    /* Sattolo's shuffle: a random permutation that is one single cycle */
    uint32_t *order = malloc(sizeof *order * c->nodes);
    if (!order) {
        free(c->succ);
        c->succ = NULL;
        return;
    }
    uint64_t rng = seed;
    for (uint32_t k = 0; k < c->nodes; k++)
        order[k] = k;
    for (uint32_t k = c->nodes - 1; k > 0; k--) {
        uint32_t j = (uint32_t)(bench_rng_next(&rng) % k);
        uint32_t t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    for (uint32_t k = 0; k < c->nodes; k++)
        c->succ[order[k]] = order[(k + 1) % c->nodes];
    free(order);
    c->warm = c->nodes;
    c->prime_start = 0;
    c->prime_steps = c->nodes;
    c->start[0] = c->start[1] = 0;
}

/* One launch of `steps` steps from node `start`; checks the index it ended
 * on and returns the simulated cycles it took (0 without timing). */
static bench_outcome pc_launch(bench_env *env, const pc_chain *c, ptxemu_dptr dnext,
                               ptxemu_dptr dout, uint32_t start, uint32_t steps,
                               bool last, uint64_t *cycles)
{
    unsigned first = start * c->stride, n = steps;
    void *args[] = {&dnext, &first, &n, &dout};
    ptxemu_dim3 one = {1, 1, 1};
    ptxemu_counters before, after;
    ptxemu_get_counters(env->ctx, &before);
    BENCH_TRY(env, ptxemu_launch(env->mod, "pointer_chase", one, one, 0, args));
    ptxemu_get_counters(env->ctx, &after);
    *cycles = after.cycles - before.cycles;
    unsigned got;
    BENCH_TRY(env, ptxemu_memcpy_dtoh(env->ctx, &got, dout, sizeof got));

    double t0 = bench_now();
    uint32_t node = start;
    for (uint32_t k = 0; k < steps; k++)
        node = c->succ[node];
    unsigned want = node * c->stride;
    env->ref_seconds += bench_now() - t0;
    if (last && env->break_reference)
        want += c->stride;
    if (got != want) {
        snprintf(env->msg, sizeof env->msg,
                 "%u steps from index %u ended at index %u, reference %u", steps, first,
                 got, want);
        return BENCH_FAIL;
    }
    return BENCH_PASS;
}

/* Measures one chain with timed launches of W + N and W + 2N steps. */
static bench_outcome pc_measure(bench_env *env, pc_level level, uint32_t n, pc_result *r)
{
    pc_chain c = {0};
    pc_chain_make(&c, level, n, env->seed + (uint64_t)level);
    r->nodes = c.nodes;
    r->span = ((uint64_t)(c.nodes - 1) * c.stride + PC_LINE_WORDS) * 4u;
    r->steps = n;
    r->cycles[0] = r->cycles[1] = 0;
    r->cycles_per_step = NAN;
    if (!c.succ) {
        snprintf(env->msg, sizeof env->msg, "host allocation failed");
        return BENCH_ERROR;
    }
    bench_outcome out = BENCH_ERROR;
    ptxemu_dptr dnext = 0, dout = 0;
#define TRY(call) BENCH_TRY_DONE(env, out, call)
    TRY(ptxemu_malloc(env->ctx, &dnext, r->span));
    TRY(ptxemu_malloc(env->ctx, &dout, sizeof(unsigned)));
    /* the kernel reads only the nodes' slots: the rest stays unwritten */
    for (uint32_t k = 0; k < c.nodes; k++) {
        unsigned v = c.succ[k] * c.stride;
        TRY(ptxemu_memcpy_htod(env->ctx, dnext + (uint64_t)k * c.stride * 4u, &v, sizeof v));
    }
#undef TRY
    for (unsigned t = 0; t < 2; t++) {
        uint64_t ignored;
        out = pc_launch(env, &c, dnext, dout, c.prime_start, c.prime_steps, false, &ignored);
        if (out != BENCH_PASS)
            goto done;
        out = pc_launch(env, &c, dnext, dout, c.start[t], c.warm + n * (t + 1),
                        t == 1 && level == PC_DRAM, &r->cycles[t]);
        if (out != BENCH_PASS)
            goto done;
    }
    if (r->cycles[0] && r->cycles[1])
        r->cycles_per_step = ((double)r->cycles[1] - (double)r->cycles[0]) / n;
done:
    if (dnext)
        ptxemu_free(env->ctx, dnext);
    if (dout)
        ptxemu_free(env->ctx, dout);
    free(c.succ);
    return out;
}

static bench_outcome pointer_chase_run(bench_env *env)
{
    uint32_t n = pc_steps(env->size);
    pc_result r[PC_LEVELS];
    for (unsigned l = 0; l < PC_LEVELS; l++) {
        bench_outcome o = pc_measure(env, (pc_level)l, n, &r[l]);
        if (o != BENCH_PASS)
            return o;
    }
    if (isnan(r[0].cycles_per_step))
        return BENCH_PASS; /* functional run: no cycles to report */
    for (unsigned l = 0; l < PC_LEVELS; l++)
        printf("    pointer-chase %-4s %5u nodes, %9llu bytes: %7.1f cycles/step "
               "(%lld cycles for %u more steps)\n",
               pc_level_names[l], r[l].nodes, (unsigned long long)r[l].span,
               r[l].cycles_per_step, (long long)r[l].cycles[1] - (long long)r[l].cycles[0],
               r[l].steps);
    return BENCH_PASS;
}

const bench_def bench_pointer_chase = {
    "pointer-chase",
    "one thread follows i = next[i] through L1-, L2- and DRAM-sized chains: cycles per load",
    "pointer-chase/kernels.ptx", pointer_chase_run};
