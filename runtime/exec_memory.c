/* runtime/exec_memory.c — ld, st, ldu, mov (values, vector packing, symbol
 * addresses, special registers); cvta and isspacep are runtime/exec_cvta.c. */
#include "runtime/decode.h"
#include "runtime/warp.h"

#include <string.h>

enum {
    MEMF_FRAME = EX_OP2_FRAME, /* address is relative to the thread's frame
                                  (ex_decode_address sets it) */
    MEMF_SEXT = 1u << 1,    /* sign-extend a narrow load into the register */
};

static inline uint64_t width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

static inline uint64_t sext(uint64_t v, unsigned bytes)
{
    unsigned sh = 64 - 8 * bytes;
    return bytes >= 8 ? v : (uint64_t)((int64_t)(v << sh) >> sh);
}

/* Address of lane l: register base (or none) + offset (+ frame base). */
static inline uint64_t lane_addr(const ex_warp *w, const ex_instr *in, unsigned l)
{
    uint64_t a = (uint64_t)in->imm;
    if (in->a != EX_NONE)
        a += w->r[in->a][l];
    if (in->op2 & MEMF_FRAME)
        a += w->fp;
    return a;
}

/* The common accesses, aligned and with no timing record to fill: shared
 * memory in bounds, or global (generic/constant landing in global memory)
 * inside the allocation the warp touched last.  NULL: take ex_addr (which
 * also faults). */
static inline uint8_t *fast_addr(const ex_warp *w, const ex_instr *in, uint64_t addr,
                                 unsigned bytes)
{
    if (w->rec || (addr & (bytes - 1)))
        return NULL;
    if (in->space == EX_SPACE_SHARED) {
        uint32_t n = w->cta->shared_size;
        return bytes <= n && addr <= n - bytes ? w->cta->shared + addr : NULL;
    }
    const mem_alloc *a = w->hint;
    if (!a || (in->space != EX_SPACE_GLOBAL && in->space != EX_SPACE_GENERIC &&
               in->space != EX_SPACE_CONST))
        return NULL;
    uint64_t off = addr - a->base;
    /* allocations lie above the shared and local windows, so a generic
     * address inside one is global */
    if (off >= a->size || a->size - off < bytes)
        return NULL;
    return a->data + off;
}

/* Fixed-size copies (a variable-size memcpy/memcmp is a libc call). */
static inline uint64_t load_bytes(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    switch (size) {
    case 1: v = *p; break;
    case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
    case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
    case 8: memcpy(&v, p, 8); break;
    default: memcpy(&v, p, size < 8 ? size : 8); break;
    }
    return v;
}

static inline bool store_bytes(uint8_t *p, uint64_t v, unsigned size)
{
    uint64_t old = load_bytes(p, size);
    uint64_t m = width_mask(size);
    if ((old & m) == (v & m))
        return false;
    switch (size) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, size < 8 ? size : 8); break;
    }
    return true;
}

/* The warp-wide fast path of ld/st: every active lane's address aligned and
 * inside one region (the CTA's shared memory, or the allocation that holds
 * the first active lane's address), checked in one branch-free pass instead
 * of a lookup per lane.  false: the per-lane path runs (and faults). */
typedef struct span {
    uint8_t *data;       /* host bytes of address `base` */
    uint64_t base;
    const uint64_t *A;   /* the address register (NULL: none) */
    uint64_t imm;
} span;

static inline uint8_t *span_at(const span *s, const uint64_t *A, unsigned l)
{
    return s->data + ((A ? A[l] : 0) + s->imm - s->base);
}

static inline bool warp_span(ex_warp *w, const ex_instr *in, uint32_t mask, unsigned bytes,
                             span *s)
{
    if ((in->op2 & MEMF_FRAME) || !mask)
        return false;
    s->A = in->a != EX_NONE ? w->r[in->a] : NULL;
    s->imm = (uint64_t)in->imm;
    uint64_t size;
    if (in->space == EX_SPACE_SHARED) {
        s->data = w->cta->shared;
        s->base = 0;
        size = w->cta->shared_size;
    } else if (in->space == EX_SPACE_GLOBAL || in->space == EX_SPACE_CONST ||
               in->space == EX_SPACE_GENERIC) {
        uint64_t a0 = (s->A ? s->A[__builtin_ctz(mask)] : 0) + s->imm;
        mem_alloc *a = w->hint;
        if (!a || a0 - a->base >= a->size) {
            mem_alloc *b = w->hint2;
            if (b && a0 - b->base < b->size) {
                w->hint2 = a;
                a = b;
            } else {
                /* allocations lie above the shared and local windows, so a
                 * generic address inside one is global */
                b = mem_find(w->launch->mem, a0, 1);
                if (!b)
                    return false;
                w->hint2 = a;
                a = b;
            }
            w->hint = a;
        }
        s->data = a->data;
        s->base = a->base;
        size = a->size;
    } else {
        return false;
    }
    if (size < bytes)
        return false;
    uint64_t lim = size - bytes, any = 0, bad = 0;
    if (s->A) {
        const uint64_t *A = s->A;
        uint64_t off = s->imm - s->base;
        EX_LANES(mask, l, {
            uint64_t a = A[l] + s->imm;
            any |= a;
            bad |= (uint64_t)(A[l] + off > lim);
        });
    } else {
        any = s->imm;
        bad = s->imm - s->base > lim;
    }
    return !(any & (bytes - 1)) && !bad;
}

/* A timing model's record of a warp_span access, lane by lane as ex_addr
 * would have made it (the span holds no shared wrap-around, and a generic
 * address inside an allocation is global). */
static void span_record(ex_warp *w, const ex_instr *in, uint32_t mask, const span *s,
                        unsigned bytes, bool write)
{
    uint8_t space = in->space == EX_SPACE_GENERIC ? EX_SPACE_GLOBAL : in->space;
    EX_LANES(mask, l, ex_rec_lane(w, in, space, (s->A ? s->A[l] : 0) + s->imm, bytes, l,
                                  write););
}

/* Loads of one element per lane (vec 1) through warp_span. */
static bool ld_fast(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned size = in->size;
    if (in->space == EX_SPACE_KPARAM && in->a == EX_NONE && !(in->op2 & MEMF_SEXT)) {
        /* a kernel parameter: one address for the warp, one load */
        uint64_t addr = (uint64_t)in->imm;
        const ex_launch *L = w->launch;
        if ((addr & (size - 1)) || addr > L->kparam_size || L->kparam_size - addr < size)
            return false;
        if (w->rec)
            EX_LANES(mask, l, ex_rec_lane(w, in, EX_SPACE_KPARAM, addr, size, l, false););
        uint64_t v = load_bytes(L->kparams + addr, size), *D = w->r[in->d];
        EX_LANES(mask, l, D[l] = v;);
        return true;
    }
    span sp;
    if (!warp_span(w, in, mask, size, &sp))
        return false;
    if (w->rec)
        span_record(w, in, mask, &sp, size, false);
    const uint64_t *A = sp.A;
    uint64_t *D = w->r[in->d];
    if (in->op2 & MEMF_SEXT) {
        uint64_t dmask = width_mask(ptx_type_size((ptx_type)in->type2));
        EX_LANES(mask, l, D[l] = sext(load_bytes(span_at(&sp, A, l), size), size) & dmask;);
        return true;
    }
    switch (size) {
    case 4:
        EX_LANES(mask, l, {
            uint32_t x;
            memcpy(&x, span_at(&sp, A, l), 4);
            D[l] = x;
        });
        break;
    case 8:
        EX_LANES(mask, l, memcpy(&D[l], span_at(&sp, A, l), 8););
        break;
    default:
        EX_LANES(mask, l, D[l] = load_bytes(span_at(&sp, A, l), size););
        break;
    }
    return true;
}

static void h_ld(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned size = in->size, n = in->vec;
    if (n == 1 && in->d != EX_NONE && ld_fast(w, in, mask))
        return;
    uint64_t dmask = width_mask(ptx_type_size((ptx_type)in->type2));
    bool sx = in->op2 & MEMF_SEXT;
    EX_LANES(mask, l, {
        uint64_t addr = lane_addr(w, in, l);
        uint8_t *p = fast_addr(w, in, addr, size * n);
        if (!p)
            p = ex_addr(w, in, (ex_space)in->space, addr, size * n, (int)l, false);
        if (!p)
            return;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = load_bytes(p + k * size, size);
            if (sx)
                v = sext(v, size) & dmask;
            uint32_t dst = n == 1 ? in->d : in->vr[k];
            if (dst != EX_NONE)
                w->r[dst][l] = v;
        }
    });
}

/* Stores of one element per lane (vec 1) through warp_span, in lane order
 * (the highest lane wins where two lanes store to one address). */
static bool st_fast(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned size = in->size;
    span sp;
    if (!warp_span(w, in, mask, size, &sp))
        return false;
    if (w->rec)
        span_record(w, in, mask, &sp, size, true);
    const uint64_t *A = sp.A;
    const uint64_t *B = in->b != EX_NONE ? w->r[in->b] : NULL;
    bool changed = false;
    if (size == 4 && B) {
        EX_LANES(mask, l, {
            uint8_t *q = span_at(&sp, A, l);
            uint32_t old, v = (uint32_t)B[l];
            memcpy(&old, q, 4);
            changed |= old != v;
            memcpy(q, &v, 4);
        });
    } else {
        EX_LANES(mask, l, changed |= store_bytes(span_at(&sp, A, l), B ? B[l] : 0, size););
    }
    if (changed)
        ex_mark_progress(w);
    return true;
}

static void h_st(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned size = in->size, n = in->vec;
    if (n == 1 && st_fast(w, in, mask))
        return;
    bool changed = false;
    EX_LANES(mask, l, {
        uint64_t addr = lane_addr(w, in, l);
        uint8_t *p = fast_addr(w, in, addr, size * n);
        if (!p)
            p = ex_addr(w, in, (ex_space)in->space, addr, size * n, (int)l, true);
        if (!p)
            return;
        for (unsigned k = 0; k < n; k++) {
            uint32_t src = n == 1 ? in->b : in->vr[k];
            uint64_t v = src != EX_NONE ? w->r[src][l] : 0;
            changed |= store_bytes(p + k * size, v, size);
        }
    });
    if (changed)
        ex_mark_progress(w);
}

/* ------------------------------------------------------------------- mov */

static void h_mov(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t m = (uint64_t)in->imm;
    const uint64_t *s = w->r[in->a];
    uint64_t *d = w->r[in->d];
    EX_LANES(mask, l, d[l] = s[l] & m;);
}

/* mov.v2/.v4: element k from the k-th source slot (a, b, c, e) to vr[k] */
static void h_movv(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint32_t src[4] = {in->a, in->b, in->c, in->e};
    uint64_t m = (uint64_t)in->imm;
    for (unsigned k = 0; k < in->vec; k++) {
        const uint64_t *sv = w->r[src[k]];
        uint64_t *dv = w->r[in->vr[k]];
        EX_LANES(mask, l, dv[l] = sv[l] & m;);
    }
}

static void h_mov_frame_addr(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    uint64_t v = w->fp + (uint64_t)in->imm;
    EX_LANES(mask, l, w->r[in->d][l] = v;);
}

/* mov.b64 d, {a, b}: elements from low to high */
static void h_pack(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned n = in->vec, bits = in->size * 8;
    uint64_t em = width_mask(in->size);
    EX_LANES(mask, l, {
        uint64_t v = 0;
        for (unsigned k = 0; k < n; k++)
            if (in->vr[k] != EX_NONE)
                v |= (w->r[in->vr[k]][l] & em) << (k * bits);
        w->r[in->d][l] = v;
    });
}

/* mov.b64 {a, b}, s */
static void h_unpack(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    unsigned n = in->vec, bits = in->size * 8;
    uint64_t em = width_mask(in->size);
    EX_LANES(mask, l, {
        uint64_t v = w->r[in->a][l];
        for (unsigned k = 0; k < n; k++)
            if (in->vr[k] != EX_NONE)
                w->r[in->vr[k]][l] = (v >> (k * bits)) & em;
    });
}

/* %tid.x, %ntid.*, %ctaid.*, %nctaid.* (the bulk of special-register reads):
 * lanes are consecutive threads, so tid.x steps by one and wraps at ntid.x
 * with a single division for the warp. */
static void h_sreg_fast(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const ex_launch *L = w->launch;
    unsigned comp = in->op2 ? in->op2 - 1u : 0;
    uint64_t *D = w->r[in->d];
    uint64_t dm = width_mask(ptx_type_size((ptx_type)in->type));
    uint64_t v;
    switch ((ptx_sreg)in->imm) {
    case PTX_SREG_TID: {
        uint32_t bx = L->block[0], x = ex_thread_linear(w, 0) % bx;
        EX_LANES(FULL_MASK, l, {
            if ((mask >> l) & 1u)
                D[l] = x & dm;
            x = x + 1 == bx ? 0 : x + 1;
        });
        return;
    }
    case PTX_SREG_NTID: v = L->block[comp]; break;
    case PTX_SREG_CTAID: v = w->cta->ctaid[comp]; break;
    default: v = L->grid[comp]; break; /* PTX_SREG_NCTAID */
    }
    v &= dm;
    EX_LANES(mask, l, D[l] = v;);
}

static void h_sreg(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const ex_launch *L = w->launch;
    const ex_cta *c = w->cta;
    unsigned comp = in->op2 ? in->op2 - 1u : 0;
    uint64_t dm = width_mask(ptx_type_size((ptx_type)in->type));
    /* functional runs count executed warp instructions; timing runs read the
     * simulated cycle */
    uint64_t clk = L->cycle_source ? *L->cycle_source : L->clock;
    EX_LANES(mask, l, {
        uint64_t v = 0;
        uint32_t t = ex_thread_linear(w, l);
        switch ((ptx_sreg)in->imm) {
        case PTX_SREG_TID:
            v = comp == 0 ? t % L->block[0]
              : comp == 1 ? (t / L->block[0]) % L->block[1]
                          : t / (L->block[0] * L->block[1]);
            break;
        case PTX_SREG_NTID: v = comp < 3 ? L->block[comp] : 0; break;
        case PTX_SREG_CTAID: case PTX_SREG_CLUSTERID: v = comp < 3 ? c->ctaid[comp] : 0; break;
        case PTX_SREG_NCTAID: case PTX_SREG_NCLUSTERID: v = comp < 3 ? L->grid[comp] : 0; break;
        case PTX_SREG_CLUSTER_CTAID: v = 0; break;
        case PTX_SREG_CLUSTER_NCTAID: v = 1; break;
        case PTX_SREG_CLUSTER_CTARANK: v = 0; break;
        case PTX_SREG_CLUSTER_NCTARANK: v = 1; break;
        case PTX_SREG_LANEID: v = l; break;
        case PTX_SREG_WARPID: v = w->warp_id; break;
        case PTX_SREG_NWARPID: v = 64; break;
        case PTX_SREG_SMID: v = L->smid; break;
        case PTX_SREG_NSMID: v = L->nsmid; break;
        case PTX_SREG_GRIDID: v = L->launch_id; break;
        case PTX_SREG_CLOCK: v = clk & 0xffffffffu; break;
        case PTX_SREG_CLOCK_HI: v = clk >> 32; break;
        case PTX_SREG_CLOCK64: v = clk; break;
        /* a deterministic 1 GHz clock stands in for wall time */
        case PTX_SREG_GLOBALTIMER: v = clk; break;
        case PTX_SREG_GLOBALTIMER_LO: v = clk & 0xffffffffu; break;
        case PTX_SREG_GLOBALTIMER_HI: v = clk >> 32; break;
        case PTX_SREG_LANEMASK_EQ: v = 1u << l; break;
        case PTX_SREG_LANEMASK_LE: v = (uint32_t)((2ull << l) - 1); break;
        case PTX_SREG_LANEMASK_LT: v = (1u << l) - 1; break;
        case PTX_SREG_LANEMASK_GE: v = ~((1u << l) - 1); break;
        case PTX_SREG_LANEMASK_GT: v = (uint32_t)~((2ull << l) - 1); break;
        case PTX_SREG_DYNAMIC_SMEM_SIZE: v = L->dyn_shared; break;
        /* total: the kernel's static and dynamic shared memory; aggr: also
         * the system's reserved region (PTX ISA, special registers) */
        case PTX_SREG_TOTAL_SMEM_SIZE: v = c->shared_size - L->kernel->shared_reserved; break;
        case PTX_SREG_AGGR_SMEM_SIZE: v = c->shared_size; break;
        /* the system's region [0, reserved) of the shared window (runtime/
         * loader.c: 1 KB from sm_80 on, empty before); offset_0 at its start,
         * offset_1 (cooperative_groups' tile scratch) at its middle */
        case PTX_SREG_RESERVED_SMEM_OFFSET: case PTX_SREG_RESERVED_SMEM_0: v = 0; break;
        case PTX_SREG_RESERVED_SMEM_END: case PTX_SREG_RESERVED_SMEM_CAP:
            v = L->kernel->shared_reserved;
            break;
        case PTX_SREG_RESERVED_SMEM_1: v = L->kernel->shared_reserved / 2; break;
        /* no kernel runs inside a CUDA graph */
        case PTX_SREG_CURRENT_GRAPH_EXEC: v = 0; break;
        /* a cooperative launch's grid-barrier workspace (cooperative_groups
         * reads it as %envreg2 | %envreg1 << 32); 0 otherwise */
        case PTX_SREG_ENVREG:
            v = comp == 1 ? L->grid_ws >> 32 : comp == 2 ? (uint32_t)L->grid_ws : 0;
            break;
        default: v = 0; break; /* %pmN, %is_explicit_cluster ... */
        }
        w->r[in->d][l] = v & dm;
    });
}

/* -------------------------------------------------------------- decoding */

static ptx_type reg_type(const ex_decoder *d, const ptx_operand *o)
{
    if (o->kind != PTX_OPND_REG)
        return PTX_T_NONE;
    return g_array_index(d->irf->regs, ptx_reg, o->id).type;
}

static bool decode_vec_slots(ex_decoder *d, const ptx_operand *v, ex_instr *in, ptx_type t)
{
    if (v->kind != PTX_OPND_VEC || v->id2 > 4)
        return false;
    for (int32_t k = 0; k < v->id2; k++) {
        const ptx_operand *e = ex_vec_elem(d, v, k);
        in->vr[k] = e->kind == PTX_OPND_SINK ? EX_NONE : ex_slot(d, e, t);
    }
    return true;
}

/* A .b128 access moves 64-bit halves, low half at the lower address (the
 * register's two slots, PTX being little-endian): ld/st.b128 and .v2.b128
 * become 2 or 4 eight-byte elements.  Operands must be .b128 registers (or
 * `_` for a load's vector element). */
static bool decode_b128_halves(ex_decoder *d, const ptx_operand *o, ex_instr *in,
                               bool allow_sink)
{
    unsigned n = d->pi->vec > 1 ? d->pi->vec : 1;
    if (n > 2) {
        g_string_assign(d->why, ".v4.b128 (at most .v2 of 128-bit elements)");
        return false;
    }
    for (unsigned k = 0; k < n; k++) {
        const ptx_operand *e = o;
        if (n > 1) {
            if (o->kind != PTX_OPND_VEC || (unsigned)o->id2 != n) {
                g_string_assign(d->why, "a .v2.b128 operand is a {a, b} list of 2 registers");
                return false;
            }
            e = ex_vec_elem(d, o, k);
        }
        if (e->kind == PTX_OPND_SINK && allow_sink) {
            in->vr[2 * k] = in->vr[2 * k + 1] = EX_NONE;
            continue;
        }
        if (e->kind != PTX_OPND_REG || e->comp ||
            g_array_index(d->irf->regs, ptx_reg, e->id).type != PTX_T_B128) {
            g_string_assign(d->why, "a 128-bit access needs .b128 registers");
            return false;
        }
        uint32_t s = ex_slot(d, e, PTX_T_B64);
        in->vr[2 * k] = s;
        in->vr[2 * k + 1] = s + 1;
    }
    in->size = 8;
    in->vec = (uint8_t)(2 * n);
    return true;
}

static bool decode_ld(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_type t = (ptx_type)pi->types[0];
    in->size = (uint8_t)ptx_type_size(t);
    const ptx_operand *dst = ex_opnd(d, 0);
    if (t == PTX_T_B128) {
        if (!ex_decode_address(d, ex_opnd(d, 1), in, (ptx_space)pi->space) ||
            !decode_b128_halves(d, dst, in, true))
            return false;
        in->type2 = PTX_T_B64;
        in->fn = h_ld;
        return true;
    }
    if (in->size == 0 || in->size > 8) {
        g_string_printf(d->why, "%u-byte element loads", in->size);
        return false;
    }
    if (!ex_decode_address(d, ex_opnd(d, 1), in, (ptx_space)pi->space))
        return false;
    if (pi->vec > 1) {
        if (!decode_vec_slots(d, dst, in, t))
            return false;
        in->type2 = t;
    } else {
        in->d = ex_slot(d, dst, t);
        ptx_type rt = reg_type(d, dst);
        in->type2 = rt != PTX_T_NONE ? rt : t;
        if (ptx_type_is_signed(t) && ptx_type_size(rt) > in->size)
            in->op2 |= MEMF_SEXT;
    }
    in->fn = h_ld;
    return true;
}

static bool decode_st(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    ptx_type t = (ptx_type)pi->types[0];
    in->size = (uint8_t)ptx_type_size(t);
    if (t != PTX_T_B128 && (in->size == 0 || in->size > 8)) {
        g_string_printf(d->why, "%u-byte element stores", in->size);
        return false;
    }
    if (ex_opnd(d, 0)->kind != PTX_OPND_ADDR)
        return false;
    if (!ex_decode_address(d, ex_opnd(d, 0), in, (ptx_space)pi->space))
        return false;
    const ptx_operand *src = ex_opnd(d, 1);
    if (t == PTX_T_B128) {
        if (!decode_b128_halves(d, src, in, false))
            return false;
        in->fn = h_st;
        return true;
    }
    if (pi->vec > 1) {
        if (!decode_vec_slots(d, src, in, t))
            return false;
    } else {
        in->b = ex_slot(d, src, t);
        if (in->b == EX_NONE)
            return false;
    }
    in->fn = h_st;
    return true;
}

/* Slot of element k of a vector operand: {a, b, ...} or a .v2/.v4 register. */
static uint32_t vec_elem_slot(ex_decoder *d, const ptx_operand *o, unsigned k, ptx_type t)
{
    if (o->kind == PTX_OPND_VEC)
        return ex_slot(d, ex_vec_elem(d, o, k), t);
    if (o->kind == PTX_OPND_REG && !o->comp) {
        uint32_t s = ex_slot(d, o, t);
        return s == EX_NONE ? EX_NONE : s + k;
    }
    return EX_NONE;
}

/* mov.v2/.v4 d, a: whole vectors, element by element */
static bool decode_movv(ex_decoder *d, ex_instr *in, ptx_type t)
{
    const ptx_operand *dst = ex_opnd(d, 0), *src = ex_opnd(d, 1);
    unsigned n = d->pi->vec;
    if (n > 4 || (dst->kind == PTX_OPND_VEC && (unsigned)dst->id2 != n) ||
        (src->kind == PTX_OPND_VEC && (unsigned)src->id2 != n)) {
        g_string_assign(d->why, "vector operands must have as many elements as .vN");
        return false;
    }
    if (dst->kind == PTX_OPND_REG &&
        g_array_index(d->irf->regs, ptx_reg, dst->id).vec < n) {
        g_string_assign(d->why, "destination register is not a vector of that width");
        return false;
    }
    if (src->kind == PTX_OPND_REG && g_array_index(d->irf->regs, ptx_reg, src->id).vec < n) {
        g_string_assign(d->why, "source register is not a vector of that width");
        return false;
    }
    uint32_t *srcs[4] = {&in->a, &in->b, &in->c, &in->e};
    for (unsigned k = 0; k < n; k++) {
        in->vr[k] = vec_elem_slot(d, dst, k, t);
        *srcs[k] = vec_elem_slot(d, src, k, t);
        if (in->vr[k] == EX_NONE || *srcs[k] == EX_NONE)
            return false;
    }
    in->imm = (int64_t)width_mask(ptx_type_size(t));
    in->fn = h_movv;
    return true;
}

/* mov.b128: 128-bit registers are two 64-bit slots; element k of {lo, hi}
 * (sink: EX_NONE) from source slot a/b */
static void h_mov128(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    const uint32_t src[2] = {in->a, in->b};
    for (unsigned k = 0; k < 2; k++) {
        if (in->vr[k] == EX_NONE)
            continue;
        const uint64_t *sv = w->r[src[k]];
        uint64_t *dv = w->r[in->vr[k]];
        EX_LANES(mask, l, dv[l] = sv[l];);
    }
}

/* Slots of the two halves of a .b128 operand: a .b128 register, or a
 * {lo, hi} list of 64-bit registers/immediates (sinks allowed when
 * `write`). */
static bool b128_slots(ex_decoder *d, const ptx_operand *o, uint32_t out[2], bool write)
{
    if (o->kind == PTX_OPND_REG && !o->comp &&
        g_array_index(d->irf->regs, ptx_reg, o->id).type == PTX_T_B128) {
        out[0] = ex_slot(d, o, PTX_T_B64);
        out[1] = out[0] + 1;
        return out[0] != EX_NONE;
    }
    if (o->kind != PTX_OPND_VEC || o->id2 != 2) {
        g_string_assign(d->why, "mov.b128 moves a .b128 register or a {lo, hi} pair of "
                                "64-bit values");
        return false;
    }
    for (unsigned k = 0; k < 2; k++) {
        const ptx_operand *e = ex_vec_elem(d, o, k);
        if (e->kind == PTX_OPND_SINK && write) {
            out[k] = EX_NONE;
            continue;
        }
        if (e->kind == PTX_OPND_REG &&
            ptx_type_size(g_array_index(d->irf->regs, ptx_reg, e->id).type) != 8) {
            g_string_assign(d->why, "the halves of a mov.b128 pair are 64-bit registers");
            return false;
        }
        out[k] = ex_slot(d, e, PTX_T_B64);
        if (out[k] == EX_NONE)
            return false;
    }
    return true;
}

static bool decode_mov(ex_decoder *d, ex_instr *in)
{
    if (d->pi->types[0] == PTX_T_B128) {
        uint32_t dst[2], src[2];
        if (d->pi->vec > 1) {
            g_string_assign(d->why, "vectors of .b128");
            return false;
        }
        if (!b128_slots(d, ex_opnd(d, 0), dst, true) || !b128_slots(d, ex_opnd(d, 1), src, false))
            return false;
        in->vr[0] = dst[0];
        in->vr[1] = dst[1];
        in->a = src[0];
        in->b = src[1];
        in->fn = h_mov128;
        return true;
    }
    const ptx_instr *pi = d->pi;
    ptx_type t = (ptx_type)pi->types[0];
    const ptx_operand *dst = ex_opnd(d, 0), *src = ex_opnd(d, 1);
    unsigned tsz = ptx_type_size(t);
    if (pi->vec > 1)
        return decode_movv(d, in, t);
    if (src->kind == PTX_OPND_VEC || dst->kind == PTX_OPND_VEC) {
        const ptx_operand *v = src->kind == PTX_OPND_VEC ? src : dst;
        if (v->id2 < 1 || v->id2 > 4 || tsz % (unsigned)v->id2)
            return false;
        in->vec = (uint8_t)v->id2;
        in->size = (uint8_t)(tsz / (unsigned)v->id2);
        ptx_type et = in->size == 1 ? PTX_T_B8 : in->size == 2 ? PTX_T_B16
                    : in->size == 4 ? PTX_T_B32 : PTX_T_B64;
        decode_vec_slots(d, v, in, et);
        if (v == src) {
            in->d = ex_slot(d, dst, t);
            in->fn = h_pack;
        } else {
            in->a = ex_slot(d, src, t);
            in->fn = h_unpack;
        }
        return in->d != EX_NONE || in->a != EX_NONE;
    }
    in->d = ex_slot(d, dst, t);
    if (in->d == EX_NONE)
        return false;
    if (src->kind == PTX_OPND_SREG) {
        in->imm = src->id;
        in->op2 = src->comp;
        if (src->id == PTX_SREG_ENVREG) /* the index, read back as the component */
            in->op2 = (uint8_t)(src->val + 1);
        in->fn = h_sreg;
        bool xyz = in->op2 >= 1 && in->op2 <= 3;
        if ((src->id == PTX_SREG_TID && in->op2 == 1) ||
            (xyz && (src->id == PTX_SREG_NTID || src->id == PTX_SREG_CTAID ||
                     src->id == PTX_SREG_NCTAID)))
            in->fn = h_sreg_fast;
        return true;
    }
    if (src->kind == PTX_OPND_SYM) {
        const ptx_symbol *s = ptx_module_sym(d->ir, src->id);
        if (s->kind == PTX_SYM_VAR) {
            const ptx_var *v = ptx_module_var(d->ir, s->index);
            bool frame = v->func >= 0 && (v->space == PTX_SPACE_LOCAL || v->space == PTX_SPACE_PARAM);
            bool kparam = false;
            for (guint i = 0; frame && d->fn->is_entry && i < d->irf->params->len; i++)
                kparam |= g_array_index(d->irf->params, int32_t, i) == s->index;
            if (frame && !kparam) {
                in->imm = (int64_t)(d->mod->var_addr[s->index] + (uint64_t)src->val);
                in->fn = h_mov_frame_addr;
                return true;
            }
            if (kparam) { /* its address in the .param space: the buffer offset */
                ptx_operand off = {0};
                off.kind = PTX_OPND_IMM;
                off.val = (int64_t)(d->mod->var_addr[s->index] + (uint64_t)src->val);
                in->a = ex_slot(d, &off, t);
                in->imm = (int64_t)width_mask(tsz);
                in->fn = h_mov;
                return in->a != EX_NONE;
            }
        }
    }
    in->a = ex_slot(d, src, t);
    if (in->a == EX_NONE)
        return false;
    in->imm = (int64_t)(t == PTX_T_PRED ? 1 : width_mask(tsz));
    in->fn = h_mov;
    return true;
}

bool ex_decode_memory(ex_decoder *d, ex_instr *in)
{
    const ptx_instr *pi = d->pi;
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        if (ptx_instr_has_mod(pi, PTX_MOD_ASYNC) || pi->nopnds > 3)
            return false;
        return decode_ld(d, in);
    case PTX_OP_ST:
        if (ptx_instr_has_mod(pi, PTX_MOD_ASYNC) || pi->nopnds > 3) {
            g_string_assign(d->why, "st.async");
            return false;
        }
        return decode_st(d, in);
    case PTX_OP_MOV:
        return decode_mov(d, in);
    case PTX_OP_CVTA: case PTX_OP_ISSPACEP:
        return ex_decode_cvta(d, in);
    default:
        return false;
    }
}
