/* isa/exec_atomic.c — atom and red (PTX ISA §9.7.13.5, §9.7.13.6).
 *
 * Lanes of a warp perform their atomics one after another in lane order, so
 * every run is deterministic and each lane sees the memory its lower lanes
 * left.  Scopes (.cta .gpu .sys .cluster), orders (.relaxed .acquire ...)
 * and cache hints change nothing functionally: there is one memory order.
 * atom/red.add.f32 flushes subnormals on .global memory and keeps them on
 * .shared (the manual's "current implementation" note); the half-precision
 * adds never flush (.noftz). */
#include "isa/fp.h"
#include "isa/half.h"
#include "runtime/decode.h"
#include "runtime/warp.h"

#include <string.h>

/* Lane l's address: base register (if any) + offset.  Frame-relative
 * (.local/.param) addresses are refused at load. */
static inline uint64_t atom_addr(const ex_warp *w, const ex_instr *in, unsigned l)
{
    uint64_t a = (uint64_t)in->imm;
    if (in->a != EX_NONE)
        a += w->r[in->a][l];
    return a;
}

static inline bool in_shared_window(uint64_t a)
{
    return a - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE;
}

/* Host pointer for an atomic access; NULL after a fault.  A generic address
 * must point at .global or .shared memory (the manual allows nothing else). */
static inline uint8_t *atom_ptr(ex_warp *w, const ex_instr *in, unsigned l, uint64_t a,
                                unsigned size)
{
    if (G_UNLIKELY(in->space == EX_SPACE_GENERIC && a - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE)) {
        ex_fault(w, (int)l, "atomic access to the .local address 0x%llx (atomics work on "
                            ".global and .shared memory only)", (unsigned long long)a);
        return NULL;
    }
    uint8_t *p = ex_addr(w, in, (ex_space)in->space, a, size, (int)l, true);
    if (G_UNLIKELY(w->rec != NULL)) /* a timing model records it: a read-modify-write */
        w->rec->atomic = 1;
    return p;
}

/* .add.f32 flushes subnormals unless the location is in shared memory. */
static inline bool f32_add_flushes(const ex_instr *in, uint64_t a)
{
    return in->space == EX_SPACE_GLOBAL || (in->space == EX_SPACE_GENERIC && !in_shared_window(a));
}

/* add.f32 with .ftz semantics: the host's .rn add is exact unless an input
 * is subnormal or the result is near the subnormal range; those go to the
 * soft-float path. */
static inline uint32_t f32_add_ftz(uint32_t a, uint32_t b)
{
    uint32_t r = ptx_f32_add_rn(a, b);
    if (G_LIKELY(!ptx_f32_issub(a) && !ptx_f32_issub(b) && (r & 0x7f000000u) != 0))
        return r;
    return ptx_f32_add(a, b, PTX_RND_RN, PTX_FP_FTZ);
}

/* One scalar handler: T is the unsigned memory type, EXPR computes the new
 * value `n` from the old value `o`, the operand `b` (and `c` for cas, `a`
 * the address).  The memory is written (and progress recorded) only when the
 * bits change, so a failed cas or an idempotent exch is not progress. */
#define ATOM_SCALAR(NAME, T, EXPR)                                             \
    static void NAME(ex_warp *w, const ex_instr *in, uint32_t mask)            \
    {                                                                          \
        bool changed = false;                                                  \
        const uint64_t *rb = w->r[in->b];                                      \
        EX_LANES(mask, l, {                                                    \
            uint64_t a = atom_addr(w, in, l);                                  \
            uint8_t *p = atom_ptr(w, in, l, a, sizeof(T));                     \
            if (!p)                                                            \
                return;                                                        \
            T o, n, b = (T)rb[l];                                              \
            (void)a;                                                           \
            (void)b;                                                           \
            if (G_UNLIKELY(w->launch->host_atomics) &&                         \
                (uintptr_t)p % sizeof(T) == 0) {                               \
                /* CTAs on other host threads: a compare-and-swap loop */     \
                T *q_ = (T *)(void *)p;                                        \
                o = __atomic_load_n(q_, __ATOMIC_RELAXED);                     \
                do                                                             \
                    n = (T)(EXPR);                                             \
                while (n != o && !__atomic_compare_exchange_n(                 \
                                     q_, &o, n, false, __ATOMIC_RELAXED,       \
                                     __ATOMIC_RELAXED));                       \
                changed |= n != o;                                             \
            } else {                                                           \
                memcpy(&o, p, sizeof o);                                       \
                n = (T)(EXPR);                                                 \
                if (n != o) {                                                  \
                    memcpy(p, &n, sizeof n);                                   \
                    changed = true;                                            \
                }                                                              \
            }                                                                  \
            if (in->d != EX_NONE)                                              \
                w->r[in->d][l] = o;                                            \
        });                                                                    \
        if (changed)                                                           \
            ex_mark_progress(w);                                               \
    }

#define CAS_C(T) ((T)w->r[in->c][l])

/* inc/dec per the manual: inc(r,s) = r >= s ? 0 : r+1;
 * dec(r,s) = (r == 0 || r > s) ? s : r-1. */
#define ATOM_INT_FAMILY(W, T, ST)                                              \
    ATOM_SCALAR(h_add_##W, T, o + b)                                           \
    ATOM_SCALAR(h_min_u##W, T, o < b ? o : b)                                  \
    ATOM_SCALAR(h_max_u##W, T, o > b ? o : b)                                  \
    ATOM_SCALAR(h_min_s##W, T, (ST)o < (ST)b ? o : b)                          \
    ATOM_SCALAR(h_max_s##W, T, (ST)o > (ST)b ? o : b)                          \
    ATOM_SCALAR(h_inc_##W, T, o >= b ? 0 : o + 1)                              \
    ATOM_SCALAR(h_dec_##W, T, (o == 0 || o > b) ? b : o - 1)                   \
    ATOM_SCALAR(h_and_##W, T, o & b)                                           \
    ATOM_SCALAR(h_or_##W, T, o | b)                                            \
    ATOM_SCALAR(h_xor_##W, T, o ^ b)                                           \
    ATOM_SCALAR(h_exch_##W, T, b)                                              \
    ATOM_SCALAR(h_cas_##W, T, o == b ? CAS_C(T) : o)

ATOM_INT_FAMILY(32, uint32_t, int32_t)
ATOM_INT_FAMILY(64, uint64_t, int64_t)
ATOM_SCALAR(h_cas_16, uint16_t, o == b ? CAS_C(uint16_t) : o)
ATOM_SCALAR(h_exch_16, uint16_t, b)

ATOM_SCALAR(h_add_f32, uint32_t,
            f32_add_flushes(in, a) ? f32_add_ftz(o, b) : ptx_f32_add_rn(o, b))
ATOM_SCALAR(h_add_f64, uint64_t, ptx_f64_add_rn(o, b))

/* ------------------------------------------------- element-wise float ops */

/* Half-precision adds/min/max (scalar or .v2/.v4/.v8-free vectors) and the
 * vector .f32 add: one element function over raw bits. */
typedef struct atom_elem_op {
    uint32_t (*fn)(uint32_t o, uint32_t b, bool ftz);
} atom_elem_op;

static uint32_t e_add_f32(uint32_t o, uint32_t b, bool ftz)
{
    return ftz ? f32_add_ftz(o, b) : ptx_f32_add_rn(o, b);
}
#define HALF_OPS(NAME, FN, T)                                                  \
    static uint32_t NAME(uint32_t o, uint32_t b, bool ftz)                     \
    {                                                                          \
        (void)ftz;                                                             \
        return FN((T)o, (T)b, 0);                                              \
    }
HALF_OPS(e_add_f16, ptx_f16_add, uint16_t)
HALF_OPS(e_min_f16, ptx_f16_min, uint16_t)
HALF_OPS(e_max_f16, ptx_f16_max, uint16_t)
HALF_OPS(e_add_bf16, ptx_bf16_add, uint16_t)
HALF_OPS(e_min_bf16, ptx_bf16_min, uint16_t)
HALF_OPS(e_max_bf16, ptx_bf16_max, uint16_t)
HALF_OPS(e_add_f16x2, ptx_f16x2_add, uint32_t)
HALF_OPS(e_min_f16x2, ptx_f16x2_min, uint32_t)
HALF_OPS(e_max_f16x2, ptx_f16x2_max, uint32_t)
HALF_OPS(e_add_bf16x2, ptx_bf16x2_add, uint32_t)
HALF_OPS(e_min_bf16x2, ptx_bf16x2_min, uint32_t)
HALF_OPS(e_max_bf16x2, ptx_bf16x2_max, uint32_t)

static const atom_elem_op op_add_f32 = {e_add_f32};
static const atom_elem_op op_add_f16 = {e_add_f16}, op_min_f16 = {e_min_f16},
                          op_max_f16 = {e_max_f16};
static const atom_elem_op op_add_bf16 = {e_add_bf16}, op_min_bf16 = {e_min_bf16},
                          op_max_bf16 = {e_max_bf16};
static const atom_elem_op op_add_f16x2 = {e_add_f16x2}, op_min_f16x2 = {e_min_f16x2},
                          op_max_f16x2 = {e_max_f16x2};
static const atom_elem_op op_add_bf16x2 = {e_add_bf16x2}, op_min_bf16x2 = {e_min_bf16x2},
                          op_max_bf16x2 = {e_max_bf16x2};

/* Elements: size in->size, count in->vec; sources in vr[], destinations in
 * d, c, e, d2 (atom.v4 needs eight register slots).  Each element is its own
 * atomic (manual: atomicity is per scalar element). */
static void h_atom_elem(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const atom_elem_op *op = in->ext;
    unsigned n = in->vec, es = in->size;
    const uint32_t dst[4] = {in->d, in->c, in->e, in->d2};
    bool changed = false;
    EX_LANES(mask, l, {
        uint64_t a = atom_addr(w, in, l);
        uint8_t *p = atom_ptr(w, in, l, a, es * n);
        if (!p)
            return;
        bool ftz = f32_add_flushes(in, a);
        uint32_t src[4]; /* read before any destination (d may be b) changes */
        for (unsigned k = 0; k < n; k++)
            src[k] = (uint32_t)w->r[in->vr[k]][l];
        for (unsigned k = 0; k < n; k++) {
            uint32_t o = 0;
            memcpy(&o, p + k * es, es);
            uint32_t v = op->fn(o, src[k], ftz);
            if (memcmp(&v, &o, es) != 0) {
                memcpy(p + k * es, &v, es);
                changed = true;
            }
            if (dst[k] != EX_NONE)
                w->r[dst[k]][l] = o;
        }
    });
    if (changed)
        ex_mark_progress(w);
}

/* ---------------------------------------------------------------- decoding */

enum { A_NONE, A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS };

static int atom_op_of(const ptx_instr *pi)
{
    static const struct { uint16_t mod; int op; } map[] = {
        {PTX_MOD_ADD, A_ADD}, {PTX_MOD_MIN, A_MIN}, {PTX_MOD_MAX, A_MAX},
        {PTX_MOD_INC, A_INC}, {PTX_MOD_DEC, A_DEC}, {PTX_MOD_AND, A_AND},
        {PTX_MOD_OR, A_OR},   {PTX_MOD_XOR, A_XOR}, {PTX_MOD_EXCH, A_EXCH},
        {PTX_MOD_CAS, A_CAS},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(map); i++)
        if (ptx_instr_has_mod(pi, map[i].mod))
            return map[i].op;
    return A_NONE;
}

static const atom_elem_op *half_op(ptx_type t, int op)
{
    static const atom_elem_op *const tab[4][3] = {
        {&op_add_f16, &op_min_f16, &op_max_f16},
        {&op_add_bf16, &op_min_bf16, &op_max_bf16},
        {&op_add_f16x2, &op_min_f16x2, &op_max_f16x2},
        {&op_add_bf16x2, &op_min_bf16x2, &op_max_bf16x2},
    };
    int row = t == PTX_T_F16 ? 0 : t == PTX_T_BF16 ? 1 : t == PTX_T_F16X2 ? 2
            : t == PTX_T_BF16X2 ? 3 : -1;
    int col = op == A_ADD ? 0 : op == A_MIN ? 1 : op == A_MAX ? 2 : -1;
    return row < 0 || col < 0 ? NULL : tab[row][col];
}

/* Scalar integer/bit handler for (op, kind, size); NULL when the PTX ISA
 * has no such form. */
static ex_handler int_handler(int op, ptx_type_kind k, unsigned size)
{
    bool w32 = size == 4, w64 = size == 8;
    bool bits = k == PTX_TK_B || k == PTX_TK_U || k == PTX_TK_S;
    switch (op) {
    case A_ADD:
        if (!bits)
            return NULL;
        return w32 ? h_add_32 : w64 ? h_add_64 : NULL;
    case A_MIN: case A_MAX: {
        bool s = k == PTX_TK_S;
        if (k != PTX_TK_U && !s)
            return NULL;
        if (op == A_MIN)
            return w32 ? (s ? h_min_s32 : h_min_u32) : w64 ? (s ? h_min_s64 : h_min_u64) : NULL;
        return w32 ? (s ? h_max_s32 : h_max_u32) : w64 ? (s ? h_max_s64 : h_max_u64) : NULL;
    }
    case A_INC: case A_DEC:
        if (k != PTX_TK_U)
            return NULL;
        if (op == A_INC)
            return w32 ? h_inc_32 : w64 ? h_inc_64 : NULL;
        return w32 ? h_dec_32 : w64 ? h_dec_64 : NULL;
    case A_AND: case A_OR: case A_XOR:
        if (!bits)
            return NULL;
        if (op == A_AND)
            return w32 ? h_and_32 : w64 ? h_and_64 : NULL;
        if (op == A_OR)
            return w32 ? h_or_32 : w64 ? h_or_64 : NULL;
        return w32 ? h_xor_32 : w64 ? h_xor_64 : NULL;
    case A_EXCH: /* a bit copy: any 16/32/64-bit type */
        if (k == PTX_TK_P || k == PTX_TK_O)
            return NULL;
        return size == 2 ? h_exch_16 : w32 ? h_exch_32 : w64 ? h_exch_64 : NULL;
    case A_CAS:
        if (k == PTX_TK_P || k == PTX_TK_O)
            return NULL;
        return size == 2 ? h_cas_16 : w32 ? h_cas_32 : w64 ? h_cas_64 : NULL;
    default:
        return NULL;
    }
}

static bool decode_vector(ex_decoder *d, ex_instr *in, bool is_red, int op, ptx_type t,
                          unsigned ai)
{
    const ptx_instr *pi = d->pi;
    const char *name = is_red ? "red" : "atom";
    if (pi->vec > 4) {
        g_string_printf(d->why, "%s.v%u (more than four elements)", name, pi->vec);
        return false;
    }
    if (in->space == EX_SPACE_SHARED) {
        g_string_printf(d->why, "vector %s works on .global memory only", name);
        return false;
    }
    const atom_elem_op *eop = t == PTX_T_F32 && op == A_ADD ? &op_add_f32 : half_op(t, op);
    if (!eop) {
        g_string_printf(d->why, "vector %s.%s", name, ptx_type_name(t));
        return false;
    }
    const ptx_operand *bv = ex_opnd(d, ai + 1);
    if (!bv || bv->kind != PTX_OPND_VEC || bv->id2 != pi->vec) {
        g_string_printf(d->why, "vector %s needs a {...} source of %u elements", name, pi->vec);
        return false;
    }
    for (int32_t k = 0; k < bv->id2; k++) {
        in->vr[k] = ex_slot(d, ex_vec_elem(d, bv, k), t);
        if (in->vr[k] == EX_NONE) {
            g_string_printf(d->why, "vector %s source element %d", name, k);
            return false;
        }
    }
    if (!is_red) {
        const ptx_operand *dv = ex_opnd(d, 0);
        if (!dv || dv->kind != PTX_OPND_VEC || dv->id2 != pi->vec) {
            g_string_printf(d->why, "vector atom needs a {...} destination of %u elements",
                            pi->vec);
            return false;
        }
        uint32_t *dst[4] = {&in->d, &in->c, &in->e, &in->d2};
        for (int32_t k = 0; k < dv->id2; k++) {
            const ptx_operand *e = ex_vec_elem(d, dv, k);
            *dst[k] = e->kind == PTX_OPND_SINK ? EX_NONE : ex_slot(d, e, t);
        }
    }
    in->size = (uint8_t)ptx_type_size(t);
    in->vec = pi->vec;
    in->ext = eop;
    in->fn = h_atom_elem;
    return true;
}

/* ------------------------------------------------------------ 128-bit */

/* atom.exch.b128 and atom.cas.b128 (PTX ISA 8.3, sm_90): the 16 bytes are
 * read and written as one value, low half at the lower address; the
 * registers are .b128 (two slots, low half first). */
static void h_atom128(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    bool changed = false, cas = in->op2 != 0;
    EX_LANES(mask, l, {
        uint8_t *p = atom_ptr(w, in, l, atom_addr(w, in, l), 16);
        if (!p)
            return;
        uint64_t o[2], n[2];
        memcpy(o, p, 16);
        uint64_t b0 = w->r[in->b][l], b1 = w->r[in->b + 1][l];
        if (cas) {
            bool eq = o[0] == b0 && o[1] == b1;
            n[0] = eq ? w->r[in->c][l] : o[0];
            n[1] = eq ? w->r[in->c + 1][l] : o[1];
        } else {
            n[0] = b0;
            n[1] = b1;
        }
        if (memcmp(o, n, 16) != 0) {
            memcpy(p, n, 16);
            changed = true;
        }
        if (in->d != EX_NONE) {
            w->r[in->d][l] = o[0];
            w->r[in->d + 1][l] = o[1];
        }
    });
    if (changed)
        ex_mark_progress(w);
}

/* Slot of a .b128 register operand; `_` gives EX_NONE when allowed. */
static bool b128_reg(ex_decoder *d, const ptx_operand *o, bool sink_ok, uint32_t *slot)
{
    if (o && o->kind == PTX_OPND_SINK && sink_ok) {
        *slot = EX_NONE;
        return true;
    }
    if (!o || o->kind != PTX_OPND_REG || o->comp ||
        g_array_index(d->irf->regs, ptx_reg, o->id).type != PTX_T_B128) {
        g_string_assign(d->why, "atom .b128 operands are .b128 registers");
        return false;
    }
    *slot = ex_slot(d, o, PTX_T_B64);
    return *slot != EX_NONE;
}

static bool decode_atom128(ex_decoder *d, ex_instr *in, int op, ptx_space sp)
{
    if (op != A_EXCH && op != A_CAS) {
        g_string_assign(d->why, "atom .b128 has only .exch and .cas");
        return false;
    }
    if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED) {
        g_string_assign(d->why, "atom .b128 on a space other than .global or .shared");
        return false;
    }
    const ptx_operand *ao = ex_opnd(d, 1);
    if (!ao || ao->kind != PTX_OPND_ADDR || !ex_decode_address(d, ao, in, sp))
        return false;
    if (in->op2 != 0) {
        g_string_assign(d->why, "atom on a .local or .param variable");
        return false;
    }
    in->op2 = op == A_CAS;
    if (!b128_reg(d, ex_opnd(d, 0), true, &in->d) || !b128_reg(d, ex_opnd(d, 2), false, &in->b) ||
        (op == A_CAS && !b128_reg(d, ex_opnd(d, 3), false, &in->c)))
        return false;
    in->size = 16;
    in->fn = h_atom128;
    return true;
}

bool ex_decode_atomic(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    bool is_red;
    if (pi->op == PTX_OP_ATOM)
        is_red = false;
    else if (pi->op == PTX_OP_RED)
        is_red = true;
    else
        return false;
    const char *name = is_red ? "red" : "atom";
    int op = atom_op_of(pi);
    if (op == A_NONE) {
        g_string_printf(d->why, "%s without an operation", name);
        return false;
    }
    if (is_red && (op == A_EXCH || op == A_CAS)) {
        g_string_printf(d->why, "red has no .%s (use atom)", op == A_CAS ? "cas" : "exch");
        return false;
    }
    if (pi->ntypes != 1) {
        g_string_printf(d->why, "%s needs exactly one type", name);
        return false;
    }
    ptx_type t = (ptx_type)pi->types[0];
    if (t == PTX_T_B128 && !is_red && pi->vec <= 1)
        return decode_atom128(d, in, op, (ptx_space)pi->space);
    if (ptx_type_size(t) > 8) {
        g_string_printf(d->why, "%u-bit %s (registers hold at most 64 bits)",
                        ptx_type_size(t) * 8, name);
        return false;
    }
    if (ptx_instr_has_mod(pi, PTX_MOD_ASYNC)) {
        g_string_printf(d->why, "%s.async (mbarrier completion)", name);
        return false;
    }
    /* .ftz, .NaN-group and directed rounding are not atom/red modifiers */
    if (ptx_instr_has_mod(pi, PTX_MOD_FTZ) || ptx_instr_has_mod(pi, PTX_MOD_NAN) ||
        ptx_instr_has_mod(pi, PTX_MOD_ABS) || ptx_instr_has_mod(pi, PTX_MOD_XORSIGN) ||
        ptx_instr_has_mod(pi, PTX_MOD_OOB) ||
        (pi->rnd != PTX_RND_NONE && pi->rnd != PTX_RND_RN)) {
        g_string_printf(d->why, "%s with a .ftz/.NaN/rounding modifier the PTX ISA does not "
                                "define for it", name);
        return false;
    }
    ptx_space sp = (ptx_space)pi->space;
    if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED) {
        g_string_printf(d->why, "%s on the .%s space (only .global and .shared)", name,
                        ptx_space_name(sp));
        return false;
    }
    unsigned ai = is_red ? 0 : 1;
    const ptx_operand *ao = ex_opnd(d, ai);
    if (!ao || ao->kind != PTX_OPND_ADDR) {
        g_string_printf(d->why, "%s needs a [address] operand", name);
        return false;
    }
    if (!ex_decode_address(d, ao, in, sp))
        return false;
    if (in->op2 != 0 || (in->space != EX_SPACE_GLOBAL && in->space != EX_SPACE_SHARED &&
                         in->space != EX_SPACE_GENERIC)) {
        g_string_printf(d->why, "%s on a .local or .param variable", name);
        return false;
    }
    if (pi->vec > 1)
        return decode_vector(d, in, is_red, op, t, ai);

    if (!is_red) {
        in->d = ex_opnd_slot(d, 0, t); /* EX_NONE for the sink '_' */
    }
    const ptx_operand *bo = ex_opnd(d, ai + 1);
    in->b = bo ? ex_slot(d, bo, t) : EX_NONE;
    if (in->b == EX_NONE) {
        g_string_printf(d->why, "%s source operand", name);
        return false;
    }
    if (op == A_CAS) {
        const ptx_operand *co = ex_opnd(d, ai + 2);
        in->c = co ? ex_slot(d, co, t) : EX_NONE;
        if (in->c == EX_NONE) {
            g_string_assign(d->why, "atom.cas needs a new-value operand");
            return false;
        }
    }
    /* a trailing cache-policy operand is only a hint */
    in->size = (uint8_t)ptx_type_size(t);
    const atom_elem_op *hop = half_op(t, op);
    if (t == PTX_T_F32 && op == A_ADD) {
        in->fn = h_add_f32;
    } else if (t == PTX_T_F64 && op == A_ADD) {
        in->fn = h_add_f64;
    } else if (hop) {
        in->vr[0] = in->b;
        in->vec = 1;
        in->ext = hop;
        in->fn = h_atom_elem;
    } else {
        in->fn = int_handler(op, ptx_type_kind_of(t), in->size);
    }
    if (!in->fn) {
        static const char *const opn[] = {"", "add", "min", "max", "inc", "dec", "and", "or",
                                          "xor", "exch", "cas"};
        g_string_printf(d->why, "%s.%s.%s is not a form the PTX ISA defines", name, opn[op],
                        ptx_type_name(t));
        return false;
    }
    return true;
}
