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
 *     lane of its membermask has the same PC (when every group waits, the
 *     lowest one runs its .sync together with members that wait at the same
 *     kind of instruction elsewhere: ex_its_cross_step); at bar.warp.sync until every
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
#include "runtime/its.h"
#include "runtime/warp.h"
#include "isa/opcodes.h"

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
    w->its_cross = 0;
    w->its_bar_wait = 0;
    w->its_mark = ex_progress_mark(w->launch);
}

static bool is_warp_barrier(const ex_instr *in)
{
    return ptx_opcode_has(in->op, PTX_OPF_SYNC_BAR) && !(in->flags & EXF_CTA_BARRIER);
}

/* Membermask lanes a .sync instruction of group g waits for (0: none). */
static uint32_t sync_members(const ex_warp *w, const ex_instr *in, uint32_t g)
{
    uint32_t slot;
    unsigned fl = ptx_opcode_flags(in->op);
    if (fl & PTX_OPF_SYNC_BAR) {
        if (in->flags & EXF_CTA_BARRIER)
            return 0;
        if (in->a == EX_NONE)
            return FULL_MASK; /* bar.warp.sync without a mask operand */
        slot = in->a;
    } else if (fl & PTX_OPF_SYNC_MASK) {
        slot = in->e; /* the membermask (runtime/exec_warp.c) */
    } else if (fl & PTX_OPF_SYNC_WARP) {
        return FULL_MASK; /* .sync.aligned: the whole warp (runtime/exec_mma.c) */
    } else {
        return 0;
    }
    if (slot == EX_NONE)
        return 0;
    uint32_t m = 0;
    EX_LANES(g, l, m |= (uint32_t)w->r[slot][l];);
    return m;
}

/* An instruction that may make a group wait for lanes elsewhere, or that
 * settles differently: a .sync collective, a warp or CTA barrier. */
static bool may_wait(const ex_instr *in)
{
    return ptx_opcode_has(in->op, PTX_OPF_COLLECTIVE) || (in->flags & EXF_CTA_BARRIER) != 0;
}

void ex_its_straight(ex_func *f)
{
    f->straight = g_new0(uint32_t, f->ninstrs + 1);
    for (uint32_t i = f->ninstrs; i-- > 0;) {
        const ex_instr *in = &f->code[i];
        bool plain = in->fn && !(in->flags & EXF_CONTROL) && !may_wait(in);
        f->straight[i] = plain ? f->straight[i + 1] + 1 : 0;
    }
}

/* A group that must wait for lanes still elsewhere.  bar.warp.sync
 * (__syncwarp) matches any bar.warp.sync: once every live member waits at
 * one, all of them are released (its_released) and pass theirs. */
static bool blocked(ex_warp *w, uint32_t pc, uint32_t g, uint32_t alive)
{
    if (pc >= w->fn->ninstrs)
        return false;
    const ex_instr *in = &w->code[pc];
    if (in->flags & EXF_CTA_BARRIER) { /* barrier.sync (not .aligned) counts threads */
        if (in->op2 == EX_BAR_SYNC_THREADS || !(alive & ~g))
            return false;
        /* an aligned barrier waits for the warp's other live lanes: those
         * that exit instead make it divergent (h_bar warns) */
        w->its_bar_wait |= alive & ~g;
        return true;
    }
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

/* sm_70+ lets a shfl/vote/match/redux/elect .sync meet the same kind of
 * instruction at another program point (PTX ISA: a .sync instruction waits
 * for every non-exited membermask thread to execute one "with the same
 * qualifiers and the same membermask").  When every group waits, the
 * lowest one's missing members may be such lanes: then they execute
 * together (its_cross, cross_step), each lane reading its sources from and
 * writing its results to its own instruction's registers. */
static bool cross_compatible(const ex_instr *i, const ex_instr *j)
{
    if (j->fn != i->fn || j->op != i->op || j->op2 != i->op2 || j->type != i->type ||
        j->flags != i->flags || j->guard != EX_NONE || j->imm != i->imm)
        return false;
    const uint32_t si[6] = {i->a, i->b, i->c, i->e, i->d, i->d2};
    const uint32_t sj[6] = {j->a, j->b, j->c, j->e, j->d, j->d2};
    for (unsigned x = 0; x < 6; x++)
        if ((si[x] == EX_NONE) != (sj[x] == EX_NONE))
            return false;
    return true;
}

/* The lanes that execute with group g at pc, or 0 (then a fault says why). */
static uint32_t cross_lanes(ex_warp *w, uint32_t pc, uint32_t g, uint32_t alive)
{
    if (pc >= w->fn->ninstrs)
        return 0;
    const ex_instr *in = &w->code[pc];
    if (is_warp_barrier(in) || (in->flags & EXF_CTA_BARRIER) || in->guard != EX_NONE ||
        sync_members(w, in, g) == 0)
        return 0;
    uint32_t u = g, todo = g;
    while (todo) {
        unsigned l0 = (unsigned)__builtin_ctz(todo);
        uint32_t p = w->lpc[l0], grp = 0;
        EX_LANES(alive, l, grp |= (uint32_t)(w->lpc[l] == p) << l;);
        todo &= ~grp;
        uint32_t missing = sync_members(w, &w->code[p], grp) & alive & ~u;
        EX_LANES(missing, l, {
            uint32_t q = w->lpc[l];
            if (q >= w->fn->ninstrs || !cross_compatible(in, &w->code[q])) {
                ex_fault(w, (int)l, "lane %u waits elsewhere while the %s.sync at this "
                                    "program point needs it (independent thread scheduling: "
                                    "only the same kind of instruction can meet it)",
                         l, ptx_opcode_info((ptx_opcode)in->op)->name);
                return 0;
            }
            uint32_t qg = 0;
            EX_LANES(alive, k, qg |= (uint32_t)(w->lpc[k] == q) << k;);
            u |= qg;
            todo |= qg;
        });
    }
    return u == g ? 0 : u;
}

void ex_its_cross_step(ex_warp *w)
{
    ex_simt *top = &g_array_index(w->simt, ex_simt, w->simt->len - 1);
    uint32_t pc = top->pc, u = w->its_cross;
    const ex_instr *in = &w->code[pc];
    w->its_cross = 0;
    /* the handler runs on a scratch register window of six slots: each
     * lane's sources from its own instruction, its results copied back to
     * its own destinations */
    enum { A, B, C, E, D, D2, NS };
    uint64_t scratch[NS][WARP_SIZE];
    memset(scratch, 0, sizeof scratch);
    ex_instr tmp = *in;
    tmp.a = in->a != EX_NONE ? A : EX_NONE;
    tmp.b = in->b != EX_NONE ? B : EX_NONE;
    tmp.c = in->c != EX_NONE ? C : EX_NONE;
    tmp.e = in->e != EX_NONE ? E : EX_NONE;
    tmp.d = in->d != EX_NONE ? D : EX_NONE;
    tmp.d2 = in->d2 != EX_NONE ? D2 : EX_NONE;
    uint32_t pcs_seen[WARP_SIZE], npcs = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        const ex_instr *j = ((u >> l) & 1u) ? &w->code[w->lpc[l]] : in;
        const uint32_t js[NS] = {j->a, j->b, j->c, j->e, j->d, j->d2};
        for (unsigned x = 0; x < NS; x++)
            if (js[x] != EX_NONE)
                scratch[x][l] = w->r[js[x]][l];
        if (((u >> l) & 1u) && w->lpc[l] != pc) {
            bool seen = false;
            for (uint32_t k = 0; k < npcs; k++)
                seen |= pcs_seen[k] == w->lpc[l];
            if (!seen)
                pcs_seen[npcs++] = w->lpc[l];
        }
    }
    w->instrs += 1 + npcs;
    w->thread_instrs += ex_popc(u);
    uint64_t (*regs)[WARP_SIZE] = w->r;
    w->r = scratch;
    in->fn(w, &tmp, u);
    w->r = regs;
    top->pc = pc + 1;
    if (w->state == WARP_FAULT)
        return;
    EX_LANES(u, l, {
        const ex_instr *j = &w->code[w->lpc[l]];
        if (j->d != EX_NONE)
            w->r[j->d][l] = scratch[D][l];
        if (j->d2 != EX_NONE)
            w->r[j->d2][l] = scratch[D2][l];
        if (w->lpc[l] != pc)
            w->lpc[l]++;
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
    uint64_t mark = ex_progress_mark(L);
    if (mark != w->its_mark) {
        w->its_mark = mark;
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
        w->its_cross = cross_lanes(w, pc, w->its_group, alive & ~w->its_parked);
}

/* ------------------------------------------------------ the fast path */

/* While the issuing group stays the one `pick` would choose, settling after
 * each instruction reduces to bookkeeping and the group's lanes keep their
 * PC in the stack entry (lpc is written back before anything reads it).
 * That holds while the group runs straight on the stack (one entry, same
 * lanes, no call) and either is the whole warp (nothing can block it) or
 * stays below every other group's PC, with no yield pending, and does not
 * reach an instruction that could make it wait for other lanes. */
typedef struct its_fast {
    uint32_t g;          /* the issuing group */
    uint32_t whole;      /* g is every live, unparked lane */
    uint32_t min_other;  /* lowest PC of the other live, unparked lanes */
    uint32_t parked;     /* its_parked on entry: a barrier.sync that parks the
                            group or releases others ends the fast path */
} its_fast;

static bool fast_enter(const ex_warp *w, its_fast *f)
{
    uint32_t g = w->its_group;
    if (w->state != WARP_RUNNING || w->simt->len != 1 || w->calls->len != 0 || w->its_cross ||
        !g || g_array_index(w->simt, ex_simt, 0).mask != g)
        return false;
    uint32_t live = w->valid & ~w->exited & ~w->its_parked;
    if (g & ~live)
        return false;
    f->g = g;
    f->parked = w->its_parked;
    f->whole = g == live;
    f->min_other = EX_NONE;
    EX_LANES(live & ~g, l, f->min_other = w->lpc[l] < f->min_other ? w->lpc[l] : f->min_other;);
    return true;
}

/* After one instruction from old_pc: true when the group stays the issuer,
 * with ex_its_settle's bookkeeping done; false (nothing changed) when the
 * full settle must run. */
static bool fast_settle(ex_warp *w, const its_fast *f, uint32_t old_pc)
{
    if (w->state != WARP_RUNNING || w->simt->len != 1 || w->calls->len != 0)
        return false;
    ex_simt *e = &g_array_index(w->simt, ex_simt, 0);
    if (e->mask != f->g || w->its_parked != f->parked)
        return false;
    uint32_t pc = e->pc;
    ex_launch *L = w->launch;
    uint64_t mark = ex_progress_mark(L);
    bool progress = mark != w->its_mark;
    bool yields = !progress && pc <= old_pc && w->its_spins + 1 >= ITS_PATIENCE;
    if (!f->whole) {
        if (yields || w->its_yield_pc != EX_NONE || pc >= f->min_other)
            return false;
        if (pc < w->fn->ninstrs) {
            const ex_instr *in = &w->code[pc];
            if ((in->flags & EXF_CTA_BARRIER) || is_warp_barrier(in) ||
                sync_members(w, in, f->g) != 0)
                return false;
        }
    }
    if (progress) {
        w->its_mark = mark;
        w->its_spins = 0;
    } else if (pc <= old_pc && ++w->its_spins >= ITS_PATIENCE) {
        w->its_spins = 0;
        w->its_yield_pc = old_pc;
    }
    w->its_released &= ~f->g;
    if (f->whole && pc < w->fn->ninstrs && is_warp_barrier(&w->code[pc]))
        w->its_released |= f->g; /* `blocked` lets a whole warp through its bar.warp.sync */
    if (w->its_yield_pc != EX_NONE && !(pc > w->its_yield_pc))
        w->its_yield_pc = EX_NONE;
    e->rpc = EX_NONE;
    e->call_depth = 0;
    return true;
}

void ex_its_run(ex_warp *w, uint64_t budget)
{
    its_fast f;
    while (budget > 0 && w->state == WARP_RUNNING) {
        if (fast_enter(w, &f)) {
            /* lpc of the group's lanes is stale from here until the write-back */
            uint32_t old_pc = g_array_index(w->simt, ex_simt, 0).pc;
            bool left = false;
            while (budget > 0 && !left) {
                /* plain instructions run as one batch: settling after each
                 * would only move the group's pc (no backward branch, no
                 * wait, no regrouping below the other groups' PCs) */
                uint32_t pc = g_array_index(w->simt, ex_simt, 0).pc, k = 1;
                if (w->its_yield_pc == EX_NONE && pc < w->fn->ninstrs) {
                    k = w->fn->straight[pc];
                    if (!f.whole && f.min_other != EX_NONE && f.min_other - pc < k)
                        k = f.min_other - pc;
                    if (k > budget)
                        k = (uint32_t)budget;
                    if (k == 0)
                        k = 1;
                }
                budget -= k;
                if (k > 1)
                    ex_warp_run_plain(w, k);
                else
                    ex_warp_run_stack(w, 1);
                if (k > 1)
                    old_pc = pc + k - 1; /* the batch's last instruction */
                left = !fast_settle(w, &f, old_pc);
                if (!left)
                    old_pc = g_array_index(w->simt, ex_simt, 0).pc;
            }
            EX_LANES(f.g, l, w->lpc[l] = old_pc;);
            if (left && w->calls->len == 0)
                ex_its_settle(w);
            continue;
        }
        budget--;
        /* one instruction of the issuing group, then choose again (calls run
         * to their return on the stack with the lanes that made them) */
        if (G_UNLIKELY(w->its_cross))
            ex_its_cross_step(w);
        else
            ex_warp_run_stack(w, 1);
        if (w->calls->len == 0)
            ex_its_settle(w);
    }
}
