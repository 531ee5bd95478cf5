/* frontend/spin_evidence.c — operand repeatability, predicate tracing and loop-memory evidence. */
#include "frontend/spin_internal.h"

#include "frontend/phase.h"

#include <string.h>

/* Instructions whose result comes from memory (or an opaque callee). */
unsigned spin_memory_origin(const ptx_instr *in)
{
    switch ((ptx_opcode)in->op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_TEX: case PTX_OP_TLD4:
    case PTX_OP_SULD: case PTX_OP_CALL: case PTX_OP_LDMATRIX:
        return PTX_SPIN_OPND_LOAD;
    case PTX_OP_ATOM:
        return PTX_SPIN_OPND_ATOMIC;
    default:
        return 0;
    }
}

/* Value-preserving instructions: a register that only copies itself round
 * the loop does not progress. */
static bool is_copy(const ptx_instr *in)
{
    switch ((ptx_opcode)in->op) {
    case PTX_OP_MOV: case PTX_OP_CVT: case PTX_OP_CVTA: case PTX_OP_SELP:
    case PTX_OP_SLCT: case PTX_OP_SHFL:
        return true;
    default:
        return false;
    }
}

static bool is_clock(int32_t sreg)
{
    switch (sreg) {
    case PTX_SREG_CLOCK: case PTX_SREG_CLOCK_HI: case PTX_SREG_CLOCK64:
    case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO:
    case PTX_SREG_GLOBALTIMER_HI:
        return true;
    default:
        return false;
    }
}

/* Leaf flags of one operand tree (immediates, symbols, special registers);
 * register ids go to `regs`. */
unsigned spin_operand_leaves(const ptx_func *f, const ptx_operand *o,
                             GArray *regs)
{
    switch ((ptx_operand_kind)o->kind) {
    case PTX_OPND_REG:
        g_array_append_val(regs, o->id);
        return 0;
    case PTX_OPND_PAIR:
        if (o->id >= 0)
            g_array_append_val(regs, o->id);
        if (o->id2 >= 0)
            g_array_append_val(regs, o->id2);
        return 0;
    case PTX_OPND_ADDR:
        if (o->id >= 0)
            g_array_append_val(regs, o->id);
        return PTX_SPIN_OPND_CONST;
    case PTX_OPND_IMM: case PTX_OPND_FIMM32: case PTX_OPND_FIMM64:
    case PTX_OPND_SYM:
        return PTX_SPIN_OPND_CONST;
    case PTX_OPND_SREG:
        return is_clock(o->id) ? OPND_PROGRESS : PTX_SPIN_OPND_SREG;
    case PTX_OPND_VEC: case PTX_OPND_LIST: case PTX_OPND_ADDRLIST: {
        unsigned fl = 0;
        for (int32_t k = 0; k < o->id2; k++)
            fl |= spin_operand_leaves(f, ptx_func_opnd(f, (uint32_t)(o->id + k)), regs);
        return fl;
    }
    default:
        return 0;
    }
}

/* The registers whose values flow into the result of `in`: its sources
 * except the guard and selp's selector predicate.  Returns leaf flags. */
unsigned spin_value_sources(const spin_ctx *c, const ptx_instr *in, GArray *regs)
{
    unsigned fl = 0;
    for (unsigned i = 0; i < in->nopnds; i++) {
        if ((in->op == PTX_OP_SELP && i == 3) || ptx_instr_operand_is_def(c->f, in, i))
            continue;
        fl |= spin_operand_leaves(c->f, ptx_instr_opnd(c->f, in, i), regs);
    }
    return fl;
}

static bool has_defs_in_loop(const spin_ctx *c, int32_t r)
{
    const GArray *d = c->defs[r];
    for (guint k = 0; d && k < d->len; k++)
        if (instr_in_loop(c, u32_at(d, k)))
            return true;
    return false;
}

/* Successor edges of register u in the loop's value graph: u <- s for every
 * in-loop definition of u that is not a memory result.  Calls fn for each
 * (s, arithmetic?) and ORs leaf flags into *leaves. */
typedef void (*edge_fn)(spin_ctx *c, int32_t s, bool arith, void *data);

static void for_each_edge(spin_ctx *c, int32_t u, unsigned *leaves, edge_fn fn,
                          void *data)
{
    const GArray *d = c->defs[u];
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    for (guint k = 0; d && k < d->len; k++) {
        uint32_t i = u32_at(d, k);
        if (!instr_in_loop(c, i))
            continue;
        const ptx_instr *in = instr(c, i);
        unsigned mem = spin_memory_origin(in);
        if (mem) {
            if (leaves) {
                *leaves |= mem;
                unsigned bit = (unsigned)__builtin_ctz(mem);
                if (c->first_origin[bit] == PTX_SPIN_NONE)
                    c->first_origin[bit] = i;
            }
            continue;
        }
        g_array_set_size(regs, 0);
        unsigned fl = spin_value_sources(c, in, regs);
        if (leaves)
            *leaves |= fl;
        for (guint j = 0; j < regs->len; j++) {
            int32_t s = g_array_index(regs, int32_t, j);
            if (s >= 0 && (uint32_t)s < c->nregs)
                fn(c, s, !is_copy(in), data);
        }
    }
    g_array_free(regs, TRUE);
}

/* Depth-first reachability over the value graph. */
typedef struct reach_state {
    GArray *stack;
    GArray *seen;      /* registers reached, in order */
    unsigned leaves;
    bool collect_leaves;
} reach_state;

static void push_edge(spin_ctx *c, int32_t s, bool arith, void *data)
{
    (void)arith;
    reach_state *st = data;
    if (c->mark[s] == c->stamp)
        return;
    c->mark[s] = c->stamp;
    g_array_append_val(st->stack, s);
    g_array_append_val(st->seen, s);
}

/* Registers reachable from `from` (itself included); leaf flags too. */
static void reach(spin_ctx *c, int32_t from, reach_state *st)
{
    c->stamp++;
    g_array_set_size(st->stack, 0);
    g_array_set_size(st->seen, 0);
    c->mark[from] = c->stamp;
    g_array_append_val(st->stack, from);
    g_array_append_val(st->seen, from);
    while (st->stack->len) {
        int32_t u = g_array_index(st->stack, int32_t, st->stack->len - 1);
        g_array_set_size(st->stack, st->stack->len - 1);
        if (st->collect_leaves && !has_defs_in_loop(c, u))
            st->leaves |= PTX_SPIN_OPND_INVARIANT;
        for_each_edge(c, u, st->collect_leaves ? &st->leaves : NULL, push_edge, st);
    }
}

typedef struct arith_edges {
    GArray *to;
} arith_edges;

static void note_arith(spin_ctx *c, int32_t s, bool arith, void *data)
{
    (void)c;
    if (!arith)
        return;
    arith_edges *ae = data;
    g_array_append_val(ae->to, s);
}

static int address_fixed(spin_ctx *c, const ptx_instr *in);

/* Where the value of register r comes from inside the loop (PTX_SPIN_OPND_*)
 * plus OPND_PROGRESS when it depends on a register that an arithmetic
 * step derives from its own previous value, on a clock, or (check_addr) on
 * a load or atomic whose address moves from one iteration to the next (a
 * walk through memory, not a poll of one location). */
static unsigned classify_reg(spin_ctx *c, int32_t r, bool check_addr)
{
    reach_state st = {g_array_new(FALSE, FALSE, sizeof(int32_t)),
                      g_array_new(FALSE, FALSE, sizeof(int32_t)), 0, true};
    reach(c, r, &st);
    unsigned flags = st.leaves;
    GArray *nodes = g_array_new(FALSE, FALSE, sizeof(int32_t));
    g_array_append_vals(nodes, st.seen->data, st.seen->len);
    st.collect_leaves = false;
    /* A cycle with an arithmetic step: an edge u -> v (u computed from v by
     * arithmetic) where v reaches u again. */
    for (guint k = 0; k < nodes->len && !(flags & OPND_PROGRESS); k++) {
        int32_t u = g_array_index(nodes, int32_t, k);
        arith_edges ae = {g_array_new(FALSE, FALSE, sizeof(int32_t))};
        for_each_edge(c, u, NULL, note_arith, &ae);
        for (guint j = 0; j < ae.to->len && !(flags & OPND_PROGRESS); j++) {
            int32_t v = g_array_index(ae.to, int32_t, j);
            if (v == u) {
                flags |= OPND_PROGRESS;
                break;
            }
            reach(c, v, &st);
            for (guint q = 0; q < st.seen->len; q++)
                if (g_array_index(st.seen, int32_t, q) == u) {
                    flags |= OPND_PROGRESS;
                    break;
                }
        }
        g_array_free(ae.to, TRUE);
    }
    for (guint k = 0; check_addr && k < nodes->len && !(flags & OPND_PROGRESS); k++) {
        const GArray *d = c->defs[g_array_index(nodes, int32_t, k)];
        for (guint j = 0; d && j < d->len; j++) {
            uint32_t i = u32_at(d, j);
            if (instr_in_loop(c, i) && spin_memory_origin(instr(c, i)) &&
                address_fixed(c, instr(c, i)) == 0)
                flags |= OPND_PROGRESS;
        }
    }
    g_array_free(nodes, TRUE);
    g_array_free(st.stack, TRUE);
    g_array_free(st.seen, TRUE);
    return flags;
}

/* Classifies one compared operand of a setp. */
unsigned spin_classify_operand(spin_ctx *c, const ptx_operand *o)
{
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    unsigned fl = spin_operand_leaves(c->f, o, regs);
    for (guint k = 0; k < regs->len; k++) {
        int32_t r = g_array_index(regs, int32_t, k);
        if (r >= 0 && (uint32_t)r < c->nregs)
            fl |= classify_reg(c, r, true);
    }
    g_array_free(regs, TRUE);
    return fl;
}

/* ----------------------------------------------------------- predicates */

static bool is_pred_move(const ptx_instr *in)
{
    switch ((ptx_opcode)in->op) {
    case PTX_OP_MOV: case PTX_OP_NOT: case PTX_OP_AND: case PTX_OP_OR:
    case PTX_OP_XOR: case PTX_OP_CNOT:
        return in->ntypes && in->types[0] == PTX_T_PRED;
    default:
        return false;
    }
}

/* Collects the in-loop setp/set instructions that produce predicate p,
 * through predicate moves, negations and boolean combinations. */
static void trace_pred(spin_ctx *c, int32_t p, GArray *setps, GHashTable *seen)
{
    if (p < 0 || (uint32_t)p >= c->nregs ||
        g_hash_table_contains(seen, GINT_TO_POINTER(p + 1)))
        return;
    g_hash_table_add(seen, GINT_TO_POINTER(p + 1));
    const GArray *d = c->defs[p];
    for (guint k = 0; d && k < d->len; k++) {
        uint32_t i = u32_at(d, k);
        if (!instr_in_loop(c, i))
            continue;
        const ptx_instr *in = instr(c, i);
        if (in->op == PTX_OP_SETP || in->op == PTX_OP_SET) {
            bool dup = false;
            for (guint j = 0; j < setps->len; j++)
                dup |= u32_at(setps, j) == i;
            if (!dup)
                g_array_append_val(setps, i);
            /* setp.op.bool: the combined predicate decides too */
            if (in->nopnds >= 4) {
                const ptx_operand *o = ptx_instr_opnd(c->f, in, 3);
                if (o->kind == PTX_OPND_REG)
                    trace_pred(c, o->id, setps, seen);
            }
        } else if (is_pred_move(in)) {
            GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
            spin_value_sources(c, in, regs);
            for (guint j = 0; j < regs->len; j++)
                trace_pred(c, g_array_index(regs, int32_t, j), setps, seen);
            g_array_free(regs, TRUE);
        }
    }
}

void spin_setps_of_pred(spin_ctx *c, int32_t p, GArray *setps)
{
    GHashTable *seen = g_hash_table_new(NULL, NULL);
    trace_pred(c, p, setps, seen);
    g_hash_table_destroy(seen);
}

/* ------------------------------------------------------ loop evidence */

static bool load_is_ordered(const ptx_instr *in)
{
    return ptx_instr_has_mod(in, PTX_MOD_VOLATILE) || ptx_instr_has_mod(in, PTX_MOD_CV) ||
           ptx_instr_has_mod(in, PTX_MOD_RELAXED) || ptx_instr_has_mod(in, PTX_MOD_ACQUIRE);
}

/* Spaces other threads can write: global, shared, generic. */
static bool shared_space(ptx_space s)
{
    return s == PTX_SPACE_GLOBAL || s == PTX_SPACE_SHARED || s == PTX_SPACE_NONE ||
           s == PTX_SPACE_GENERIC;
}

static bool is_generic(ptx_space s)
{
    return s == PTX_SPACE_NONE || s == PTX_SPACE_GENERIC;
}

/* 1 when the address of `in` is the same every iteration (its base
 * register is not written in the loop, or only from invariant values and
 * constants), 0 when it moves, -1 when `in` has no address operand. */
static int address_fixed(spin_ctx *c, const ptx_instr *in)
{
    for (unsigned i = 0; i < in->nopnds; i++) {
        const ptx_operand *o = ptx_instr_opnd(c->f, in, i);
        if (o->kind != PTX_OPND_ADDR)
            continue;
        if (o->id < 0 || !has_defs_in_loop(c, o->id))
            return 1;
        unsigned fl = classify_reg(c, o->id, false);
        return !(fl & (OPND_PROGRESS | PTX_SPIN_OPND_LOAD | PTX_SPIN_OPND_ATOMIC));
    }
    return -1;
}

static void note_mem(ptx_spin_loop *sl, unsigned bit, uint32_t i)
{
    unsigned k = (unsigned)__builtin_ctz(bit);
    if (!(sl->mem & bit))
        sl->mem_instr[k] = i;
    sl->mem |= bit;
}

void spin_loop_evidence(spin_ctx *c, ptx_spin_loop *sl)
{
    bool w_global = false, w_shared = false, w_generic = false;
    GArray *loads = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    const ptx_loop *l = c->loop;
    for (guint k = 0; k < l->blocks->len; k++) {
        const ptx_block *blk = &c->cfg->blocks[u32_at(l->blocks, k)];
        for (uint32_t i = blk->first; i < blk->end; i++) {
            const ptx_instr *in = instr(c, i);
            ptx_space s = (ptx_space)in->space;
            switch ((ptx_opcode)in->op) {
            case PTX_OP_ATOM: case PTX_OP_RED:
                note_mem(sl, PTX_SPIN_MEM_ATOMIC, i);
                /* an atomic writes its space too */
                __attribute__((fallthrough));
            case PTX_OP_ST:
                w_global |= s == PTX_SPACE_GLOBAL;
                w_shared |= s == PTX_SPACE_SHARED;
                w_generic |= is_generic(s);
                break;
            case PTX_OP_LD:
                if (shared_space(s) && !ptx_instr_has_mod(in, PTX_MOD_NC))
                    g_array_append_val(loads, i);
                break;
            default:
                break;
            }
        }
    }
    for (guint k = 0; k < loads->len; k++) {
        uint32_t i = u32_at(loads, k);
        const ptx_instr *in = instr(c, i);
        ptx_space s = (ptx_space)in->space;
        if (load_is_ordered(in))
            note_mem(sl, PTX_SPIN_MEM_VOLATILE, i);
        bool aliased = w_generic || (s == PTX_SPACE_GLOBAL && w_global) ||
                       (s == PTX_SPACE_SHARED && w_shared) ||
                       (is_generic(s) && (w_global || w_shared));
        if (aliased)
            note_mem(sl, PTX_SPIN_MEM_SHARED_RW, i);
        if (address_fixed(c, in) == 1)
            note_mem(sl, PTX_SPIN_MEM_POLL, i);
    }
    g_array_free(loads, TRUE);
}
