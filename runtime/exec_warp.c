/* isa/exec_warp.c — warp-level instructions (PTX ISA §9.7.8 / §9.7.13):
 * shfl(.sync), vote(.sync), match.sync, redux.sync, activemask, elect.sync.
 *
 * The lanes that take part are the handler's `mask`: active lanes whose
 * guard predicate holds.  With .sync, every such lane must be in its own
 * membermask (the manual leaves anything else undefined): a lane that is not
 * is reported as a fault.  A reduction or vote covers the lanes of the
 * membermask that take part; members that are inactive (diverged elsewhere
 * or predicated off) cannot join under stack-based reconvergence, and
 * reading a register of such a lane (shfl from an inactive source, which the
 * manual calls unpredictable) gives that lane's current register value, so
 * results stay deterministic. */
#include "isa/fp.h"
#include "runtime/decode.h"
#include "runtime/warp.h"

#include <string.h>

enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
enum { MATCH_ANY, MATCH_ALL };
enum { RX_ADD, RX_MIN_U, RX_MAX_U, RX_MIN_S, RX_MAX_S, RX_AND, RX_OR, RX_XOR, RX_MIN_F,
       RX_MAX_F };

/* EXF_UNI on these instructions: the membermask is an immediate, the same
 * for every lane, so one check and one group serve the whole warp. */

/* Checks that every lane of `mask` is in its own membermask (slot in->e). */
static bool members_ok(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint64_t *m = w->r[in->e];
    uint32_t bad = 0;
    if (in->flags & EXF_UNI)
        bad = mask & ~(uint32_t)m[0];
    else
        EX_LANES(mask, l, bad |= (uint32_t)(~(m[l] >> l) & 1u) << l;);
    if (G_LIKELY(!bad))
        return true;
    unsigned l = (unsigned)__builtin_ctz(bad);
    ex_fault(w, (int)l, "lane %u executes this .sync instruction but membermask 0x%08x does "
                        "not include it (undefined behaviour in the PTX ISA; the active "
                        "lanes here are 0x%08x)", l, (uint32_t)m[l], mask);
    return false;
}

/* The lanes every lane synchronises with when that is the same for the
 * whole warp (non-.sync forms: all lanes taking part; an immediate
 * membermask: its lanes that take part), else 0: see group_of. */
static inline uint32_t uniform_group(const ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (in->e == EX_NONE)
        return mask;
    return (in->flags & EXF_UNI) ? (uint32_t)w->r[in->e][0] & mask : 0;
}

/* Lanes lane l synchronises with: its membermask among the lanes that take
 * part. */
static inline uint32_t group_of(const ex_warp *w, const ex_instr *in, uint32_t mask, unsigned l)
{
    return in->e == EX_NONE ? mask : (uint32_t)w->r[in->e][l] & mask;
}

/* ------------------------------------------------------------------- shfl */

/* The manual's pseudo-code: c[4:0] is the clamp value, c[12:8] the segment
 * mask; an out-of-range source lane copies the lane's own value and clears
 * the optional predicate. */
#define SHFL_HANDLER(NAME, MODE)                                               \
    static void NAME(ex_warp *w, const ex_instr *in, uint32_t mask)            \
    {                                                                          \
        if (in->e != EX_NONE && !members_ok(w, in, mask))                      \
            return;                                                            \
        uint32_t src[WARP_SIZE];                                               \
        const uint64_t *ra = w->r[in->a], *rb = w->r[in->b], *rc = w->r[in->c];\
        for (unsigned k = 0; k < WARP_SIZE; k++)                               \
            src[k] = (uint32_t)ra[k];                                          \
        uint64_t *rd = in->d != EX_NONE ? w->r[in->d] : NULL;                 \
        uint64_t *rp = in->d2 != EX_NONE ? w->r[in->d2] : NULL;               \
        EX_LANES(mask, l, {                                                    \
            int bval = (int)(rb[l] & 31u);                                     \
            int cval = (int)(rc[l] & 31u), seg = (int)((rc[l] >> 8) & 31u);    \
            int lane = (int)l;                                                 \
            int max_lane = (lane & seg) | (cval & ~seg);                       \
            int j;                                                             \
            bool pv;                                                           \
            if (MODE == SHFL_UP) {                                             \
                j = lane - bval;                                               \
                pv = j >= max_lane;                                            \
            } else if (MODE == SHFL_DOWN) {                                    \
                j = lane + bval;                                               \
                pv = j <= max_lane;                                            \
            } else if (MODE == SHFL_BFLY) {                                    \
                j = lane ^ bval;                                               \
                pv = j <= max_lane;                                            \
            } else {                                                           \
                j = (lane & seg) | (bval & ~seg);                              \
                pv = j <= max_lane;                                            \
            }                                                                  \
            if (!pv)                                                           \
                j = lane;                                                      \
            if (rd)                                                            \
                rd[l] = src[j];                                                \
            if (rp)                                                            \
                rp[l] = pv;                                                    \
        });                                                                    \
    }

SHFL_HANDLER(h_shfl_up, SHFL_UP)
SHFL_HANDLER(h_shfl_down, SHFL_DOWN)
SHFL_HANDLER(h_shfl_bfly, SHFL_BFLY)
SHFL_HANDLER(h_shfl_idx, SHFL_IDX)

/* ------------------------------------------------------------------- vote */

static inline uint64_t vote_of(unsigned mode, uint32_t ballot, uint32_t g)
{
    switch (mode) {
    case VOTE_ALL: return ballot == g;
    case VOTE_ANY: return ballot != 0;
    case VOTE_UNI: return ballot == 0 || ballot == g;
    default: return ballot;
    }
}

static void h_vote(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (in->e != EX_NONE && !members_ok(w, in, mask))
        return;
    const uint64_t *ra = w->r[in->a];
    uint32_t neg = (in->flags & EXF_NOT_A) ? 1u : 0u, pbits = 0;
    EX_LANES(mask, l, pbits |= ((uint32_t)(ra[l] != 0) ^ neg) << l;);
    uint64_t *rd = w->r[in->d];
    unsigned mode = in->op2;
    uint32_t ug = uniform_group(w, in, mask);
    if (ug) {
        uint64_t v = vote_of(mode, pbits & ug, ug);
        EX_LANES(mask, l, rd[l] = v;);
        return;
    }
    EX_LANES(mask, l, {
        uint32_t g = group_of(w, in, mask, l);
        rd[l] = vote_of(mode, pbits & g, g);
    });
}

/* ------------------------------------------------------------------ match */

static void h_match(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (!members_ok(w, in, mask))
        return;
    uint64_t vals[WARP_SIZE];
    const uint64_t *ra = w->r[in->a];
    uint64_t vm = (uint64_t)in->imm;
    for (unsigned k = 0; k < WARP_SIZE; k++)
        vals[k] = ra[k] & vm;
    uint64_t *rd = w->r[in->d];
    uint64_t *rp = in->d2 != EX_NONE ? w->r[in->d2] : NULL;
    bool all = in->op2 == MATCH_ALL;
    EX_LANES(mask, l, {
        uint32_t g = group_of(w, in, mask, l), same = 0;
        for (uint32_t m = g; m; m &= m - 1) {
            unsigned k = (unsigned)__builtin_ctz(m);
            same |= (uint32_t)(vals[k] == vals[l]) << k;
        }
        if (all) {
            bool eq = same == g;
            rd[l] = eq ? g : 0;
            if (rp)
                rp[l] = eq;
        } else {
            rd[l] = same;
        }
    });
}

/* ------------------------------------------------------------------ redux */

/* Reduction over the lanes of g (never empty: it holds the lane itself). */
static uint32_t redux_over(const uint64_t *ra, uint32_t g, unsigned op, unsigned fflags)
{
    unsigned k0 = (unsigned)__builtin_ctz(g);
    uint32_t acc = (uint32_t)ra[k0];
    bool abs = op >= RX_MIN_F && (fflags & PTX_FP_ABS);
    if (abs)
        acc &= 0x7fffffffu;
    for (uint32_t m = g & (g - 1); m; m &= m - 1) {
        uint32_t v = (uint32_t)ra[__builtin_ctz(m)];
        switch (op) {
        case RX_ADD: acc += v; break;
        case RX_MIN_U: acc = v < acc ? v : acc; break;
        case RX_MAX_U: acc = v > acc ? v : acc; break;
        case RX_MIN_S: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
        case RX_MAX_S: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
        case RX_AND: acc &= v; break;
        case RX_OR: acc |= v; break;
        case RX_XOR: acc ^= v; break;
        case RX_MIN_F: case RX_MAX_F: {
            unsigned f = fflags & PTX_FP_NAN;
            if (abs)
                v &= 0x7fffffffu;
            acc = op == RX_MIN_F ? ptx_f32_min(acc, v, f) : ptx_f32_max(acc, v, f);
            break;
        }
        default: break;
        }
    }
    if (op >= RX_MIN_F && ptx_f32_isnan(acc))
        acc = PTX_F32_CANON_NAN;
    return acc;
}

static void h_redux(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (!members_ok(w, in, mask))
        return;
    const uint64_t *ra = w->r[in->a];
    uint64_t *rd = w->r[in->d];
    uint32_t ug = uniform_group(w, in, mask);
    if (ug) {
        uint64_t v = redux_over(ra, ug, in->op2, (unsigned)in->imm);
        EX_LANES(mask, l, rd[l] = v;);
        return;
    }
    /* the sources, before d (which may be the same register) changes */
    uint64_t src[WARP_SIZE];
    memcpy(src, ra, sizeof src);
    uint32_t last_g = 0, last_v = 0;
    EX_LANES(mask, l, {
        uint32_t g = group_of(w, in, mask, l);
        if (g != last_g) { /* neighbouring lanes usually share a membermask */
            last_g = g;
            last_v = redux_over(src, g, in->op2, (unsigned)in->imm);
        }
        rd[l] = last_v;
    });
}

/* ------------------------------------------------------ activemask, elect */

static void h_activemask(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t *rd = w->r[in->d];
    EX_LANES(mask, l, rd[l] = mask;);
}

/* The leader is the lowest lane of the membermask that takes part. */
static void h_elect(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (!members_ok(w, in, mask))
        return;
    EX_LANES(mask, l, {
        uint32_t leader = (uint32_t)__builtin_ctz(group_of(w, in, mask, l));
        if (in->d != EX_NONE)
            w->r[in->d][l] = leader;
        if (in->d2 != EX_NONE)
            w->r[in->d2][l] = leader == l;
    });
}

/* ---------------------------------------------------------------- decoding */

/* d or d|p destination into in->d (and in->d2). */
static bool decode_dest(ex_decoder *d, ex_instr *in, ptx_type t, bool allow_pair)
{
    const ptx_operand *o = ex_opnd(d, 0);
    if (!o)
        return false;
    if (o->kind == PTX_OPND_PAIR) {
        if (!allow_pair) {
            g_string_assign(d->why, "a d|p destination this form does not have");
            return false;
        }
        /* `d|_` and `_|p` (sinks, id -1) leave that half unwritten */
        in->d = o->id >= 0 ? ex_reg_slot(d, o->id) : EX_NONE;
        in->d2 = o->id2 >= 0 ? ex_reg_slot(d, o->id2) : EX_NONE;
        if (in->d == EX_NONE && d->pi->op != PTX_OP_SHFL && d->pi->op != PTX_OP_ELECT) {
            g_string_assign(d->why, "a sink `_` for the data half of d|p");
            return false;
        }
        return in->d != EX_NONE || in->d2 != EX_NONE;
    }
    in->d = ex_slot(d, o, t);
    return in->d != EX_NONE;
}

/* Membermask operand i into in->e; an immediate one is uniform. */
static bool decode_members(ex_decoder *d, ex_instr *in, unsigned i)
{
    const ptx_operand *o = ex_opnd(d, i);
    in->e = o ? ex_slot(d, o, PTX_T_B32) : EX_NONE;
    if (in->e == EX_NONE) {
        g_string_assign(d->why, "membermask must be a register or an immediate");
        return false;
    }
    if (o->kind == PTX_OPND_IMM)
        in->flags |= EXF_UNI;
    return true;
}

/* Source operand i (register or immediate) as type t. */
static bool decode_src(ex_decoder *d, unsigned i, ptx_type t, uint32_t *slot)
{
    const ptx_operand *o = ex_opnd(d, i);
    *slot = o ? ex_slot(d, o, t) : EX_NONE;
    if (*slot == EX_NONE) {
        g_string_printf(d->why, "operand %u must be a register or an immediate", i + 1);
        return false;
    }
    return true;
}

static bool decode_shfl(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    bool sync = ptx_instr_has_mod(pi, PTX_MOD_SYNC);
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_B32;
    if (ptx_type_size(t) != 4) {
        g_string_printf(d->why, "shfl.%s (only 32-bit data)", ptx_type_name(t));
        return false;
    }
    if (ptx_instr_has_mod(pi, PTX_MOD_UP))
        in->fn = h_shfl_up;
    else if (ptx_instr_has_mod(pi, PTX_MOD_DOWN))
        in->fn = h_shfl_down;
    else if (ptx_instr_has_mod(pi, PTX_MOD_BFLY))
        in->fn = h_shfl_bfly;
    else if (ptx_instr_has_mod(pi, PTX_MOD_IDX))
        in->fn = h_shfl_idx;
    else {
        g_string_assign(d->why, "shfl without a mode (.up .down .bfly .idx)");
        return false;
    }
    if (pi->nopnds != (sync ? 5u : 4u)) {
        g_string_printf(d->why, "shfl%s takes %u operands", sync ? ".sync" : "", sync ? 5 : 4);
        in->fn = NULL;
        return false;
    }
    bool ok = decode_dest(d, in, PTX_T_B32, true) && decode_src(d, 1, PTX_T_B32, &in->a) &&
              decode_src(d, 2, PTX_T_B32, &in->b) && decode_src(d, 3, PTX_T_B32, &in->c) &&
              (!sync || decode_members(d, in, 4));
    if (!ok) {
        in->fn = NULL;
        if (!d->why->len)
            g_string_assign(d->why, "shfl destination");
    }
    return ok;
}

static bool decode_vote(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    bool sync = ptx_instr_has_mod(pi, PTX_MOD_SYNC);
    ptx_type dt = PTX_T_PRED;
    if (ptx_instr_has_mod(pi, PTX_MOD_BALLOT)) {
        in->op2 = VOTE_BALLOT;
        dt = PTX_T_B32;
    } else if (ptx_instr_has_mod(pi, PTX_MOD_ALL)) {
        in->op2 = VOTE_ALL;
    } else if (ptx_instr_has_mod(pi, PTX_MOD_ANY)) {
        in->op2 = VOTE_ANY;
    } else if (ptx_instr_has_mod(pi, PTX_MOD_UNI)) {
        in->op2 = VOTE_UNI;
    } else {
        g_string_assign(d->why, "vote without a mode (.all .any .uni .ballot)");
        return false;
    }
    if (pi->nopnds != (sync ? 3u : 2u)) {
        g_string_printf(d->why, "vote%s takes %u operands", sync ? ".sync" : "", sync ? 3 : 2);
        return false;
    }
    if (!decode_dest(d, in, dt, false)) {
        if (!d->why->len)
            g_string_assign(d->why, "vote destination");
        return false;
    }
    if (!decode_src(d, 1, PTX_T_PRED, &in->a))
        return false;
    if (ex_opnd(d, 1)->flags & PTX_OPNDF_NOT)
        in->flags |= EXF_NOT_A;
    if (sync && !decode_members(d, in, 2))
        return false;
    in->fn = h_vote;
    return true;
}

static bool decode_match(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_NONE;
    unsigned sz = ptx_type_size(t);
    if (sz != 4 && sz != 8) {
        g_string_printf(d->why, "match.%s (only .b32 and .b64)", ptx_type_name(t));
        return false;
    }
    bool all = ptx_instr_has_mod(pi, PTX_MOD_ALL);
    if (!all && !ptx_instr_has_mod(pi, PTX_MOD_ANY)) {
        g_string_assign(d->why, "match without a mode (.any .all)");
        return false;
    }
    if (pi->nopnds != 3) {
        g_string_assign(d->why, "match.sync takes 3 operands");
        return false;
    }
    in->op2 = all ? MATCH_ALL : MATCH_ANY;
    in->imm = (int64_t)(sz == 8 ? ~0ull : 0xffffffffull);
    if (!decode_dest(d, in, PTX_T_B32, all)) {
        if (!d->why->len)
            g_string_assign(d->why, "match destination");
        return false;
    }
    if (!decode_src(d, 1, t, &in->a) || !decode_members(d, in, 2))
        return false;
    in->fn = h_match;
    return true;
}

static bool decode_redux(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_type t = pi->ntypes ? (ptx_type)pi->types[0] : PTX_T_NONE;
    ptx_type_kind k = ptx_type_kind_of(t);
    bool s = k == PTX_TK_S, f = t == PTX_T_F32;
    bool add = ptx_instr_has_mod(pi, PTX_MOD_ADD), mn = ptx_instr_has_mod(pi, PTX_MOD_MIN),
         mx = ptx_instr_has_mod(pi, PTX_MOD_MAX);
    bool abs = ptx_instr_has_mod(pi, PTX_MOD_ABS), nan = ptx_instr_has_mod(pi, PTX_MOD_NAN);
    int op = -1;
    if (ptx_type_size(t) != 4 || (k != PTX_TK_B && k != PTX_TK_U && !s && !f)) {
        g_string_printf(d->why, "redux.sync.%s (only 32-bit types)", ptx_type_name(t));
        return false;
    }
    if (f) {
        op = mn ? RX_MIN_F : mx ? RX_MAX_F : -1;
    } else if (abs || nan) {
        g_string_assign(d->why, ".abs/.NaN need redux.sync.min/max.f32");
        return false;
    } else if (add) {
        op = RX_ADD;
    } else if (mn) {
        op = s ? RX_MIN_S : RX_MIN_U;
    } else if (mx) {
        op = s ? RX_MAX_S : RX_MAX_U;
    } else if (ptx_instr_has_mod(pi, PTX_MOD_AND)) {
        op = RX_AND;
    } else if (ptx_instr_has_mod(pi, PTX_MOD_OR)) {
        op = RX_OR;
    } else if (ptx_instr_has_mod(pi, PTX_MOD_XOR)) {
        op = RX_XOR;
    }
    if (op < 0) {
        g_string_printf(d->why, "redux.sync operation for .%s", ptx_type_name(t));
        return false;
    }
    if (pi->nopnds != 3) {
        g_string_assign(d->why, "redux.sync takes 3 operands");
        return false;
    }
    in->op2 = (uint8_t)op;
    in->imm = (abs ? PTX_FP_ABS : 0) | (nan ? PTX_FP_NAN : 0);
    if (!decode_dest(d, in, t, false)) {
        if (!d->why->len)
            g_string_assign(d->why, "redux destination");
        return false;
    }
    if (!decode_src(d, 1, t, &in->a) || !decode_members(d, in, 2))
        return false;
    in->fn = h_redux;
    return true;
}

bool ex_decode_warp(ex_decoder *d, ex_instr *in)
{
    switch ((ptx_opcode)d->pi->op) {
    case PTX_OP_SHFL:
        return decode_shfl(d, in);
    case PTX_OP_VOTE:
        return decode_vote(d, in);
    case PTX_OP_MATCH:
        return decode_match(d, in);
    case PTX_OP_REDUX:
        return decode_redux(d, in);
    case PTX_OP_ACTIVEMASK:
        if (!decode_dest(d, in, PTX_T_B32, false)) {
            g_string_assign(d->why, "activemask destination");
            return false;
        }
        in->fn = h_activemask;
        return true;
    case PTX_OP_ELECT:
        if (d->pi->nopnds != 2) {
            g_string_assign(d->why, "elect.sync takes 2 operands");
            return false;
        }
        if (!decode_dest(d, in, PTX_T_B32, true) || !decode_members(d, in, 1)) {
            if (!d->why->len)
                g_string_assign(d->why, "elect.sync operands");
            return false;
        }
        in->fn = h_elect;
        return true;
    default:
        return false;
    }
}
