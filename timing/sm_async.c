/* timing/sm_async.c — asynchronous copies in flight on an SM: which
 * cp.async group or mbarrier each belongs to, and which waits they hold
 * (see sm_internal.h).  The executor has already moved the data when the
 * copy issues (runtime/exec_async.c); here the copy takes the memory
 * system's time, overlapped with whatever the warp does until its wait. */
#include "timing/sm_internal.h"
#include "runtime/exec_async.h"
#include "runtime/warp.h"

typedef struct tm_async {
    uint32_t tag;
    uint32_t group;     /* cp.async group or bulk async-group number */
    uint32_t mbar;      /* shared offset of the tracking mbarrier, or UINT32_MAX */
    bool bulk;          /* a bulk async-group copy (shared -> global) */
} tm_async;

void tm_async_reset(tm_warp *tw)
{
    tw->nasync = 0;
    tw->async_group = tw->bulk_group = 0;
}

void tm_async_free(tm_warp *tw)
{
    g_free(tw->async);
    tw->async = NULL;
    tw->nasync = 0;
}

/* Copies of groups older than the `n` most recent committed ones (n < 0:
 * wait_all, every copy including the uncommitted ones). */
static bool group_pending(const tm_warp *tw, bool bulk, int64_t n)
{
    uint32_t open = bulk ? tw->bulk_group : tw->async_group;
    for (uint32_t i = 0; i < tw->nasync; i++) {
        const tm_async *e = &tw->async[i];
        if (e->bulk != bulk)
            continue;
        if (n < 0 || (int64_t)e->group + n < (int64_t)open)
            return true;
    }
    return false;
}

static bool mbar_pending(const tm_sm *sm, const tm_warp *tw, uint32_t mbar)
{
    const tm_cta *c = tw->cta;
    for (uint32_t k = 0; k < c->nwarps; k++) {
        const tm_warp *o = &sm->warps[c->slots[k]];
        for (uint32_t i = 0; i < o->nasync; i++)
            if (o->async[i].mbar == mbar)
                return true;
    }
    return false;
}

bool tm_async_blocked(const tm_sm *sm, const tm_warp *tw, const ex_instr *in)
{
    switch (ex_async_kind(in)) {
    case EX_ASYNC_WAIT:
        return group_pending(tw, false, in->imm);
    case EX_ASYNC_BULK_WAIT:
        return group_pending(tw, true, in->imm);
    case EX_MBAR_WAIT: {
        const ex_warp *w = tw->w;
        uint32_t mask = ex_warp_active(w);
        uint32_t off = ex_async_mbar_offset(w, in, ex_warp_guard_mask(w, in, mask));
        return off != UINT32_MAX && mbar_pending(sm, tw, off);
    }
    case EX_ASYNC_COPY: case EX_ASYNC_BULK_G2S: case EX_ASYNC_BULK_S2S:
    case EX_ASYNC_BULK_S2G:
        return tw->nasync >= TM_MAX_ASYNC; /* room to track it */
    default:
        return false;
    }
}

void tm_async_issued(tm_warp *tw, const ex_instr *in, const ex_access *a, bool to_memsys,
                     uint32_t tag)
{
    ex_async_op op = ex_async_kind(in);
    if (op == EX_ASYNC_COMMIT) {
        tw->async_group++;
    } else if (op == EX_ASYNC_BULK_COMMIT) {
        tw->bulk_group++;
    } else if (op == EX_ASYNC_MBAR_ARRIVE && a->mask) {
        /* the thread's earlier cp.async now complete an arrival on it */
        for (uint32_t i = 0; i < tw->nasync; i++)
            if (!tw->async[i].bulk && tw->async[i].mbar == UINT32_MAX)
                tw->async[i].mbar = a->mbar;
    } else if (to_memsys && a->async) {
        if (!tw->async)
            tw->async = g_new0(tm_async, TM_MAX_ASYNC);
        bool bulk = op == EX_ASYNC_BULK_S2G;
        tw->async[tw->nasync++] = (tm_async){tag, bulk ? tw->bulk_group : tw->async_group,
                                             a->mbar, bulk};
    }
}

bool tm_async_landed(tm_warp *tw, uint32_t tag)
{
    for (uint32_t i = 0; i < tw->nasync; i++)
        if (tw->async[i].tag == tag) {
            bool mbar = tw->async[i].mbar != UINT32_MAX;
            tw->async[i] = tw->async[--tw->nasync];
            return mbar;
        }
    return false;
}
