/* benchmarks/pair.c — two benchmarks run concurrently in one context
 * (`ptxemu bench pair A B`): each driver runs in its own host thread on a
 * host lane of the context (api/api_internal.h), so their launches go to
 * two streams and, under timing, share the GPU as kernel.policy decides.
 * The lanes take deterministic turns: results do not depend on thread
 * timing.  Each driver still checks its own CPU reference. */
#include "api/api_internal.h"
#include "benchmarks/harness.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

typedef struct pair_lane {
    ptxemu_ctx *ctx;
    unsigned lane;
    const bench_def *def;
    bench_env env;
    bench_outcome out;
} pair_lane;

static gpointer lane_main(gpointer p)
{
    pair_lane *l = p;
    ptxemu_lane_enter(l->ctx, l->lane);
    l->out = l->def->run(&l->env);
    ptxemu_lane_leave(l->ctx);
    return NULL;
}

bool bench_run_pair_ctx(const bench_def *const defs[2], bench_size size, uint64_t seed,
                        const ptxemu_options *opts, ptxemu_ctx **ctx_out,
                        bench_outcome out[2], char msg[2][512])
{
    ptxemu_ctx *ctx;
    *ctx_out = NULL;
    for (int i = 0; i < 2; i++) {
        out[i] = BENCH_ERROR;
        msg[i][0] = '\0';
    }
    if (ptxemu_ctx_create(&ctx, opts) != PTXEMU_OK) {
        snprintf(msg[0], 512, "%s", ptxemu_last_error(ctx));
        *ctx_out = ctx;
        return false;
    }
    *ctx_out = ctx;
    pair_lane lanes[2];
    memset(lanes, 0, sizeof lanes);
    for (unsigned i = 0; i < 2; i++) {
        if (!bench_has_size(defs[i], size)) {
            snprintf(msg[i], 512, "not supported yet: %s has no input for size %s",
                     defs[i]->name, bench_size_name(size));
            return false;
        }
        char *path = bench_ptx_path(defs[i]);
        ptxemu_module *mod;
        ptxemu_status s = ptxemu_module_load_file(ctx, path, &mod);
        g_free(path);
        if (s != PTXEMU_OK) {
            snprintf(msg[i], 512, "%s", ptxemu_last_error(ctx));
            return false;
        }
        lanes[i] = (pair_lane){ctx, i, defs[i], {0}, BENCH_ERROR};
        lanes[i].env.ctx = ctx;
        lanes[i].env.mod = mod;
        lanes[i].env.size = size;
        lanes[i].env.seed = seed;
    }
    if (ptxemu_lanes_begin(ctx, 2) != PTXEMU_OK) {
        snprintf(msg[0], 512, "%s", ptxemu_last_error(ctx));
        return false;
    }
    GThread *t[2];
    for (unsigned i = 0; i < 2; i++)
        t[i] = g_thread_new(defs[i]->name, lane_main, &lanes[i]);
    for (unsigned i = 0; i < 2; i++)
        g_thread_join(t[i]);
    ptxemu_status end = ptxemu_lanes_end(ctx);
    for (unsigned i = 0; i < 2; i++) {
        out[i] = lanes[i].out;
        memcpy(msg[i], lanes[i].env.msg, 512);
    }
    if (end != PTXEMU_OK && out[0] == BENCH_PASS && out[1] == BENCH_PASS) {
        snprintf(msg[0], 512, "%s", ptxemu_last_error(ctx));
        out[0] = BENCH_ERROR;
    }
    return true;
}
