/* runtime/its.c — independent thread scheduling (PTX ISA "Independent
 * Thread Scheduling", sm_70 and newer): every lane has its own PC, and the
 * warp issues one instruction for a convergent group, the lanes that share
 * a PC.  Groups merge again whenever their PCs meet.
 *
 * The SIMT stack stays the executor's mechanism: between instructions it
 * holds one entry, the group that issues next, so every handler (branches,
 * calls, barriers) works unchanged and ex_warp_next shows the timing model
 * the right instruction.  After each instruction the entries the group left
 * (a divergent branch leaves several) give its lanes' PCs.
 *
 * Which group issues:
 *   - the group with the lowest PC, so lanes that ran ahead wait for the
 *     ones behind and reconverge at the post-dominator in structured code;
 *   - a group waits at shfl/vote/match/redux/elect .sync until every live
 *     lane of its membermask has the same PC; at bar.warp.sync until every
 *     live member waits at a bar.warp.sync (any one: __syncwarp in both
 *     arms of a branch synchronises); at an aligned CTA barrier (bar.sync,
 *     barrier.sync.aligned) until all live lanes of the warp are there;
 *     at barrier.sync, which counts threads, it arrives on its own and its
 *     lanes are parked (its_parked) until the barrier completes, while the
 *     warp's other groups run on;
 *   - forward progress: when the issuing group takes ITS_PATIENCE backward
 *     branches with no change to memory (a spin loop), it yields to the
 *     next group by PC, which runs until it wraps around (finishes, blocks or
 *     loops below the yielding PC).  So a lane holding a lock runs its
 *     critical section and releases the lock while the others spin.
 * A call runs on the stack to its return with the lanes that made it. */
#include "runtime/warp.h"

#include <string.h>

#define ITS_PATIENCE 32u

void ex_its_init(ex_warp *w)
{
    memset(w->lpc, 0, sizeof w->lpc);
    w->its_group = w->valid;
    w->its_spins = 0;
    w->its_yield_pc = EX_NONE;
    w->its_released = 0;
    w->its_parked = 0;
    w->its_mark = w->launch->last_progress;
}

static bool is_warp_barrier(const ex_instr *in)
{
    return (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
           !(in->flags & EXF_CTA_BARRIER);
}

/* Membermask lanes a .sync instruction of group g waits for (0: none). */
static uint32_t sync_members(const ex_warp *w, const ex_instr *in, uint32_t g)
{
    uint32_t slot = EX_NONE;
    switch ((ptx_opcode)in->op) {
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (in->flags & EXF_CTA_BARRIER)
            return 0;
        if (in->a == EX_NONE)
            return FULL_MASK; /* bar.warp.sync without a mask operand */
        slot = in->a;
        break;
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX:
    case PTX_OP_ELECT:
        slot = in->e;
        break;
    case PTX_OP_MMA: case PTX_OP_WMMA: case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE:
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
        return FULL_MASK; /* .sync.aligned: the whole warp (runtime/exec_mma.c) */
    default:
        return 0;
    }
    if (slot == EX_NONE)
        return 0;
    uint32_t m = 0;
    EX_LANES(g, l, m |= (uint32_t)w->r[slot][l];);
    return m;
}

/* A group that must wait for lanes still elsewhere.  bar.warp.sync
 * (__syncwarp) matches any bar.warp.sync: once every live member waits at
 * one, all of them are released (its_released) and pass theirs. */
static bool blocked(ex_warp *w, uint32_t pc, uint32_t g, uint32_t alive)
{
    if (pc >= w->fn->ninstrs)
        return false;
    const ex_instr *in = &w->code[pc];
    if (in->flags & EXF_CTA_BARRIER) /* barrier.sync (not .aligned) counts threads */
        return in->op2 != EX_BAR_SYNC_THREADS && (alive & ~g) != 0;
    uint32_t members = sync_members(w, in, g) & alive;
    if (!is_warp_barrier(in))
        return (members & ~g) != 0;
    if (!(g & ~w->its_released))
        return false;
    uint32_t waiting = 0;
    EX_LANES(alive, l, {
        uint32_t p = w->lpc[l];
        waiting |= (uint32_t)(p < w->fn->ninstrs && is_warp_barrier(&w->code[p])) << l;
    });
    if (members & ~waiting)
        return true;
    w->its_released |= members | g;
    return false;
}

/* sm_70+ lets a shfl/vote/match/redux .sync meet the same instruction kind
 * at another program point (same membermask): not supported yet, so a group
 * whose missing members wait at such an instruction stops with a message
 * instead of running without them. */
static void unsupported_cross_pc(ex_warp *w, uint32_t pc, uint32_t g, uint32_t alive)
{
    if (pc >= w->fn->ninstrs)
        return;
    const ex_instr *in = &w->code[pc];
    if (is_warp_barrier(in) || (in->flags & EXF_CTA_BARRIER))
        return;
    uint32_t missing = sync_members(w, in, g) & alive & ~g;
    EX_LANES(missing, l, {
        uint32_t p = w->lpc[l];
        if (p != pc && p < w->fn->ninstrs && w->code[p].op == in->op) {
            ex_fault(w, (int)l, "not supported yet: a warp-synchronous %s whose membermask "
                                "lanes wait at another %s instruction (at another program "
                                "point; independent thread scheduling)",
                     ptx_opcode_info((ptx_opcode)in->op)->name,
                     ptx_opcode_info((ptx_opcode)in->op)->name);
            return;
        }
    });
}

/* The next group: lanes grouped by PC in PC order; the lowest unblocked
 * one, or after a yield the first unblocked one above the yielding PC. */
static uint32_t pick(ex_warp *w, uint32_t alive, uint32_t *pc_out, bool *stuck)
{
    uint32_t pcs[WARP_SIZE], masks[WARP_SIZE], n = 0;
    EX_LANES(alive, l, {
        uint32_t k = 0;
        while (k < n && pcs[k] != w->lpc[l])
            k++;
        if (k == n) {
            pcs[n] = w->lpc[l];
            masks[n++] = 0;
        }
        masks[k] |= 1u << l;
    });
    int best = -1, above = -1;
    for (uint32_t k = 0; k < n; k++) {
        if (blocked(w, pcs[k], masks[k], alive))
            continue;
        if (best < 0 || pcs[k] < pcs[best])
            best = (int)k;
        if (w->its_yield_pc != EX_NONE && pcs[k] > w->its_yield_pc &&
            (above < 0 || pcs[k] < pcs[above]))
            above = (int)k;
    }
    if (above >= 0) {
        best = above;
    } else {
        w->its_yield_pc = EX_NONE; /* wrapped around: back to lowest PC first */
        if (best < 0) { /* every group waits: let the lowest PC run (and fault) */
            best = 0;
            for (uint32_t k = 1; k < n; k++)
                if (pcs[k] < pcs[best])
                    best = (int)k;
            *stuck = true;
        }
    }
    *pc_out = pcs[best];
    return masks[best];
}

void ex_its_settle(ex_warp *w)
{
    if (w->state != WARP_RUNNING && w->state != WARP_DONE)
        return; /* at a CTA barrier (the whole warp) or faulted */
    uint32_t g = w->its_group;
    uint32_t old_pc = EX_NONE;
    for (guint i = 0; i < w->simt->len; i++) {
        const ex_simt *e = &g_array_index(w->simt, ex_simt, i);
        EX_LANES(e->mask & g, l, {
            if (old_pc == EX_NONE)
                old_pc = w->lpc[l];
            w->lpc[l] = e->pc;
        });
    }
    /* a spin loop: backward branches while memory stays the same */
    uint32_t alive = w->valid & ~w->exited;
    ex_launch *L = w->launch;
    bool back = false;
    EX_LANES(g & alive, l, back |= w->lpc[l] <= old_pc && old_pc != EX_NONE;);
    if (L->last_progress != w->its_mark) {
        w->its_mark = L->last_progress;
        w->its_spins = 0;
    } else if (back && ++w->its_spins >= ITS_PATIENCE) {
        w->its_spins = 0;
        w->its_yield_pc = old_pc;
    }
    w->its_released &= ~g; /* a released group has passed its bar.warp.sync */
    g_array_set_size(w->simt, 0);
    if (!alive) {
        w->state = WARP_DONE;
        return;
    }
    if (!(alive & ~w->its_parked)) {
        /* every live lane waits at a barrier.sync (the others have exited
         * since): the warp waits there as a whole, the lowest group on the
         * stack to go on with once the barrier completes */
        uint32_t low = EX_NONE, lg = 0;
        EX_LANES(alive, l, low = w->lpc[l] < low ? w->lpc[l] : low;);
        EX_LANES(alive, l, lg |= (uint32_t)(w->lpc[l] == low) << l;);
        w->its_group = lg;
        ex_simt e = {low, EX_NONE, lg, 0};
        g_array_append_val(w->simt, e);
        w->state = WARP_AT_BARRIER;
        w->bar_lanes = w->its_parked;
        w->bar_dst = EX_NONE;
        w->bar_redop = 0;
        w->its_parked = 0;
        return;
    }
    uint32_t pc;
    bool stuck = false;
    w->its_group = pick(w, alive & ~w->its_parked, &pc, &stuck);
    ex_simt e = {pc, EX_NONE, w->its_group, 0};
    g_array_append_val(w->simt, e);
    w->state = WARP_RUNNING;
    if (stuck)
        unsupported_cross_pc(w, pc, w->its_group, alive & ~w->its_parked);
}
