/* runtime/exec_int_internal.h — handler templates and decode helpers shared with exec_bits.c. */
#ifndef PTXEMU_ISA_EXEC_INT_INTERNAL_H
#define PTXEMU_ISA_EXEC_INT_INTERNAL_H

#include "isa/intops.h"
#include "runtime/decode.h"

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------ handler templates */

/* d = expr over a (and b, c, e); `bits` and `sgn` are compile-time constants
 * the expression may use. */
#define DEF1(name, W, S, ...)                                                 \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const unsigned bits = (W);                                            \
        const bool sgn = (S);                                                 \
        (void)bits;                                                           \
        (void)sgn;                                                            \
        const uint64_t *A = w->r[in->a];                                      \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, {                                                   \
            uint64_t a = A[l];                                                \
            D[l] = (__VA_ARGS__);                                             \
        });                                                                   \
    }

#define DEF2(name, W, S, ...)                                                 \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const unsigned bits = (W);                                            \
        const bool sgn = (S);                                                 \
        (void)bits;                                                           \
        (void)sgn;                                                            \
        const uint64_t *A = w->r[in->a], *B = w->r[in->b];                    \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, {                                                   \
            uint64_t a = A[l], b = B[l];                                      \
            D[l] = (__VA_ARGS__);                                             \
        });                                                                   \
    }

#define DEF3(name, W, S, ...)                                                 \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const unsigned bits = (W);                                            \
        const bool sgn = (S);                                                 \
        (void)bits;                                                           \
        (void)sgn;                                                            \
        const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];  \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, {                                                   \
            uint64_t a = A[l], b = B[l], c = C[l];                            \
            D[l] = (__VA_ARGS__);                                             \
        });                                                                   \
    }

#define DEF4(name, W, S, ...)                                                 \
    static void name(ex_warp *w, const ex_instr *in, uint32_t mask)           \
    {                                                                         \
        const unsigned bits = (W);                                            \
        const bool sgn = (S);                                                 \
        (void)bits;                                                           \
        (void)sgn;                                                            \
        const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];  \
        const uint64_t *E = w->r[in->e];                                      \
        uint64_t *D = w->r[in->d];                                            \
        EX_LANES(mask, l, {                                                   \
            uint64_t a = A[l], b = B[l], c = C[l], e = E[l];                  \
            D[l] = (__VA_ARGS__);                                             \
        });                                                                   \
    }

/* Instantiation over widths (16/32/64, 32/64, 16/32) and signedness.
 * Tables are indexed [signed][width index]. */
#define W3(DEF, name, S, ...)                                                 \
    DEF(name##_16, 16, S, __VA_ARGS__)                                        \
    DEF(name##_32, 32, S, __VA_ARGS__)                                        \
    DEF(name##_64, 64, S, __VA_ARGS__)
#define W2(DEF, name, S, ...)                                                 \
    DEF(name##_32, 32, S, __VA_ARGS__)                                        \
    DEF(name##_64, 64, S, __VA_ARGS__)
#define WL(DEF, name, S, ...)                                                 \
    DEF(name##_16, 16, S, __VA_ARGS__)                                        \
    DEF(name##_32, 32, S, __VA_ARGS__)
#define W3S(DEF, name, ...)                                                   \
    W3(DEF, name##_u, false, __VA_ARGS__) W3(DEF, name##_s, true, __VA_ARGS__)
#define W2S(DEF, name, ...)                                                   \
    W2(DEF, name##_u, false, __VA_ARGS__) W2(DEF, name##_s, true, __VA_ARGS__)
#define WLS(DEF, name, ...)                                                   \
    WL(DEF, name##_u, false, __VA_ARGS__) WL(DEF, name##_s, true, __VA_ARGS__)

#define T3(name) { name##_16, name##_32, name##_64 }
#define T2(name) { NULL, name##_32, name##_64 }
#define TL(name) { name##_16, name##_32, NULL }
#define T3S(name) { T3(name##_u), T3(name##_s) }
#define T2S(name) { T2(name##_u), T2(name##_s) }
#define TLS(name) { TL(name##_u), TL(name##_s) }

typedef ex_handler htab_w[3];
typedef ex_handler htab_sw[2][3];

/* ------------------------------------------------------ decoding helpers */

/* Accepts only the listed non-type modifiers (list ends with 0). */
static inline bool only_mods(ex_decoder *d, const uint16_t *allowed)
{
    const ptx_instr *pi = d->pi;
    for (unsigned i = 0; i < pi->nmods; i++) {
        uint16_t m = pi->mods[i];
        if (PTX_MOD_IS_TYPE(m))
            continue;
        bool ok = false;
        for (const uint16_t *p = allowed; *p && !ok; p++)
            ok = *p == m;
        if (!ok) {
            g_string_printf(d->why, "the .%s modifier on %s",
                            ptx_module_mod_name(d->ir, m),
                            ptx_opcode_info((ptx_opcode)pi->op)->name);
            return false;
        }
    }
    return true;
}
#define ONLY(d, ...) only_mods((d), (const uint16_t[]){__VA_ARGS__, 0})

static inline bool has(const ex_decoder *d, uint16_t m)
{
    return ptx_instr_has_mod(d->pi, m);
}

/* A source operand as a slot (register or constant of type t). */
static inline bool src(ex_decoder *d, unsigned i, ptx_type t, uint32_t *out)
{
    const ptx_operand *o = ex_opnd(d, i);
    if (!o) {
        g_string_printf(d->why, "missing operand %u", i + 1);
        return false;
    }
    if (o->kind == PTX_OPND_REG && o->comp > 4) {
        g_string_assign(d->why, "a byte/half-word selector on an operand");
        return false;
    }
    if (o->kind != PTX_OPND_REG && o->kind != PTX_OPND_IMM && o->kind != PTX_OPND_SYM) {
        g_string_printf(d->why, "operand %u is not a register or an integer constant", i + 1);
        return false;
    }
    if ((o->flags & PTX_OPNDF_NOT) && t != PTX_T_PRED) {
        g_string_printf(d->why, "'!' on operand %u", i + 1);
        return false;
    }
    *out = ex_slot(d, o, t);
    if (*out == EX_NONE) {
        g_string_printf(d->why, "operand %u has no value here", i + 1);
        return false;
    }
    return true;
}

static inline bool dst(ex_decoder *d, unsigned i, ptx_type t, uint32_t *out)
{
    const ptx_operand *o = ex_opnd(d, i);
    if (!o || o->kind != PTX_OPND_REG || o->comp > 4) {
        g_string_assign(d->why, "the destination must be a register");
        return false;
    }
    *out = ex_slot(d, o, t);
    return *out != EX_NONE;
}

static inline bool nopnds(ex_decoder *d, unsigned n)
{
    if (d->pi->nopnds != n) {
        g_string_printf(d->why, "%u operands (expected %u)", d->pi->nopnds, n);
        return false;
    }
    return true;
}

/* d, a[, b[, c[, e]]] with every operand of type t (sources of type ts). */
static inline bool operands(ex_decoder *d, ex_instr *in, unsigned nsrc, ptx_type td, ptx_type ts)
{
    uint32_t *slots[4] = {&in->a, &in->b, &in->c, &in->e};
    if (!nopnds(d, nsrc + 1) || !dst(d, 0, td, &in->d))
        return false;
    for (unsigned i = 0; i < nsrc; i++)
        if (!src(d, i + 1, ts, slots[i]))
            return false;
    return true;
}

static inline ex_handler pick(const htab_w tab, int wi)
{
    return wi >= 0 ? tab[wi] : NULL;
}

static inline ex_handler pick_s(const htab_sw tab, bool sgn, int wi)
{
    return wi >= 0 ? tab[sgn][wi] : NULL;
}

/* Sets in->fn, or explains why the type is not accepted. */
static inline bool set_fn(ex_decoder *d, ex_instr *in, ex_handler fn, ptx_type t)
{
    if (!fn) {
        g_string_printf(d->why, "%s with type .%s",
                        ptx_opcode_info((ptx_opcode)d->pi->op)->name, ptx_type_name(t));
        return false;
    }
    in->fn = fn;
    return true;
}

/* Bit-manipulation, shift and logic instructions (exec_bits.c); t, wi and
 * sgn as ex_decode_int computed them. */
bool ex_decode_int_bits(ex_decoder *d, ex_instr *in, ptx_type t, int wi, bool sgn);

#endif
