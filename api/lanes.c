/* api/lanes.c — host lanes (api/api_internal.h): host threads that share a
 * context take deterministic turns, and the work of a round runs together. */
#include "api/api_ctx.h"
#include "api/api_internal.h"

typedef enum lane_state { LANE_READY, LANE_WAITING, LANE_DONE } lane_state;

struct api_lanes {
    GMutex m;
    GCond cv;
    unsigned n;
    unsigned turn;               /* the lane that may run; n: none */
    lane_state *state;
    ptxemu_status *status;       /* of the round a waiting lane waited for */
    ptxemu_stream **streams;
};

/* The next lane to run after the current one, running the round's work
 * when every lane left waits (lock held; only the turn's thread is here). */
static unsigned next_turn(ptxemu_ctx *ctx)
{
    struct api_lanes *l = ctx->lanes;
    for (unsigned i = 1; i <= l->n; i++) {
        unsigned c = (l->turn + i) % l->n;
        if (l->state[c] == LANE_READY)
            return c;
    }
    bool waiting = false;
    for (unsigned c = 0; c < l->n; c++)
        waiting |= l->state[c] == LANE_WAITING;
    if (!waiting)
        return l->n;
    ptxemu_status s = api_queue_run(ctx);
    unsigned first = l->n;
    for (unsigned c = 0; c < l->n; c++)
        if (l->state[c] == LANE_WAITING) {
            l->state[c] = LANE_READY;
            l->status[c] = s;
            if (first == l->n)
                first = c;
        }
    return first;
}

ptxemu_status ptxemu_lanes_begin(ptxemu_ctx *ctx, unsigned n)
{
    if (!ctx || !n || ctx->lanes)
        return PTXEMU_ERR_INVALID_VALUE;
    ptxemu_status s = api_queue_run(ctx);
    if (s != PTXEMU_OK)
        return s;
    struct api_lanes *l = g_new0(struct api_lanes, 1);
    g_mutex_init(&l->m);
    g_cond_init(&l->cv);
    l->n = n;
    l->state = g_new0(lane_state, n);
    l->status = g_new0(ptxemu_status, n);
    l->streams = g_new0(ptxemu_stream *, n);
    for (unsigned i = 0; i < n; i++)
        ptxemu_stream_create(ctx, &l->streams[i]);
    ctx->lanes = l;
    return PTXEMU_OK;
}

void ptxemu_lane_enter(ptxemu_ctx *ctx, unsigned lane)
{
    struct api_lanes *l = ctx->lanes;
    g_mutex_lock(&l->m);
    while (l->turn != lane)
        g_cond_wait(&l->cv, &l->m);
    g_mutex_unlock(&l->m);
}

ptxemu_status api_lane_wait(ptxemu_ctx *ctx)
{
    struct api_lanes *l = ctx->lanes;
    g_mutex_lock(&l->m);
    unsigned me = l->turn;
    if (api_stream_idle(l->streams[me])) {
        /* nothing of this lane's is queued: its host program goes on (the
         * lanes' memory is disjoint, as with per-thread default streams) */
        g_mutex_unlock(&l->m);
        return PTXEMU_OK;
    }
    l->state[me] = LANE_WAITING;
    l->turn = next_turn(ctx);
    g_cond_broadcast(&l->cv);
    while (l->turn != me)
        g_cond_wait(&l->cv, &l->m);
    ptxemu_status s = l->status[me];
    l->status[me] = PTXEMU_OK;
    g_mutex_unlock(&l->m);
    return s;
}

void ptxemu_lane_leave(ptxemu_ctx *ctx)
{
    struct api_lanes *l = ctx->lanes;
    g_mutex_lock(&l->m);
    l->state[l->turn] = LANE_DONE;
    l->turn = next_turn(ctx);
    g_cond_broadcast(&l->cv);
    g_mutex_unlock(&l->m);
}

ptxemu_stream *api_lane_stream(ptxemu_ctx *ctx)
{
    struct api_lanes *l = ctx->lanes;
    return l->turn < l->n ? l->streams[l->turn] : NULL;
}

ptxemu_status ptxemu_lanes_end(ptxemu_ctx *ctx)
{
    struct api_lanes *l = ctx ? ctx->lanes : NULL;
    if (!l)
        return PTXEMU_ERR_INVALID_VALUE;
    ctx->lanes = NULL;
    ptxemu_status s = api_queue_run(ctx);
    for (unsigned i = 0; i < l->n; i++)
        ptxemu_stream_destroy(ctx, l->streams[i]);
    g_mutex_clear(&l->m);
    g_cond_clear(&l->cv);
    g_free(l->state);
    g_free(l->status);
    g_free(l->streams);
    g_free(l);
    return s;
}
