/* runtime/exec_async.c — asynchronous copies and mbarriers (PTX ISA "Data
 * Movement and Conversion Instructions: cp.async, cp.async.bulk" and
 * "Parallel Synchronization and Communication Instructions: mbarrier").
 *
 * Functionally a copy lands when it is issued: the manual only promises
 * the data once cp.async.wait_group / an mbarrier phase says so, and
 * landing early is one of the executions it allows.  So commit and wait
 * are no-ops here; the timing model (timing/sm_async.c) keeps the copy in flight
 * in the memory system and holds the waits until it lands.  mbarrier
 * phases and counts are value operations on the 64-bit object
 * (isa/mbarrier.h).
 *
 * Operand fields of the decoded instruction:
 *   a, imm, space     the first address: cp destination, or the mbarrier
 *   vr[0..3]          cp source: base slot, offset low/high, ex_space
 *   b                 cp.async src-size / ignore-src, bulk size,
 *                     mbarrier count / txCount / state / parity
 *   c, target, rnd    bulk copy's mbarrier: base slot, offset, ex_space
 *   d                 mbarrier state / waitComplete / pending count
 *   size              cp.async cp-size
 *   type2             AF_* flags */
#include "runtime/exec_async.h"
#include "runtime/decode.h"
#include "isa/mbarrier.h"
#include "isa/opcodes.h"
#include "runtime/warp.h"

#include <string.h>

enum {
    AF_SRC_SIZE = 1u << 0,  /* b is src-size */
    AF_IGNORE_SRC = 1u << 1, /* b is the ignore-src predicate */
    AF_DROP = 1u << 2,      /* arrive_drop */
    AF_NO_COMPLETE = 1u << 3,
    AF_EXPECT_TX = 1u << 4, /* arrive.expect_tx: b is txCount */
    AF_COUNT = 1u << 5,     /* arrive with a count operand in b */
    AF_PARITY = 1u << 6,    /* test_wait/try_wait.parity */
    AF_NOINC = 1u << 7,     /* cp.async.mbarrier.arrive.noinc */
};


/* ------------------------------------------------------------ addresses */

static uint64_t addr_of(const ex_warp *w, uint32_t slot, int64_t off, unsigned l)
{
    return (slot == EX_NONE ? 0 : w->r[slot][l]) + (uint64_t)off;
}

static int64_t src_off(const ex_instr *in)
{
    return (int64_t)((uint64_t)in->vr[1] | (uint64_t)in->vr[2] << 32);
}

/* Resolves a generic address to (space, offset) without touching memory. */
static ex_space resolve(ex_space space, uint64_t *addr)
{
    if (space != EX_SPACE_GENERIC)
        return space;
    if (*addr - MEM_SHARED_WINDOW < MEM_WINDOW_SIZE) {
        *addr -= MEM_SHARED_WINDOW;
        return EX_SPACE_SHARED;
    }
    if (*addr - MEM_LOCAL_WINDOW < MEM_WINDOW_SIZE)
        return EX_SPACE_LOCAL;
    return EX_SPACE_GLOBAL;
}

/* Host pointer of a bulk range [addr, addr+n) that must lie in `want`
 * (shared or global), 16-byte aligned; NULL after a fault. */
static uint8_t *bulk_ptr(ex_warp *w, ex_space space, uint64_t addr, uint32_t n,
                         ex_space want, unsigned l, const char *what)
{
    uint64_t a = addr;
    ex_space s = resolve(space, &a);
    if (s != want) {
        ex_fault(w, (int)l, "cp.async.bulk %s address 0x%llx is not in %s memory", what,
                 (unsigned long long)addr, want == EX_SPACE_SHARED ? "shared" : "global");
        return NULL;
    }
    if (a & 15u) {
        ex_fault(w, (int)l, "cp.async.bulk %s address 0x%llx is not 16-byte aligned", what,
                 (unsigned long long)addr);
        return NULL;
    }
    uint8_t *p = NULL;
    if (s == EX_SPACE_SHARED)
        p = a + n <= w->cta->shared_size ? w->cta->shared + a : NULL;
    else
        p = mem_ptr(w->launch->mem, a, n ? n : 1, &w->hint);
    if (!p)
        ex_fault(w, (int)l, "cp.async.bulk %s range 0x%llx + %u bytes is out of bounds", what,
                 (unsigned long long)addr, n);
    return p;
}

/* The mbarrier object of lane l: 8 bytes, 8-byte aligned, in shared memory. */
static uint64_t *mbar_ptr(ex_warp *w, uint32_t slot, int64_t off, ex_space space, unsigned l,
                          uint32_t *shared_off)
{
    uint64_t raw = addr_of(w, slot, off, l), a = raw;
    if (resolve(space, &a) != EX_SPACE_SHARED) {
        ex_fault(w, (int)l, "mbarrier object at 0x%llx is not in shared memory",
                 (unsigned long long)raw);
        return NULL;
    }
    if ((a & 7u) || a + 8 > w->cta->shared_size) {
        ex_fault(w, (int)l, "mbarrier object at shared offset 0x%llx is %s",
                 (unsigned long long)a, (a & 7u) ? "not 8-byte aligned" : "out of bounds");
        return NULL;
    }
    if (shared_off)
        *shared_off = (uint32_t)a;
    return (uint64_t *)(void *)(w->cta->shared + a);
}

static bool mbar_check(ex_warp *w, unsigned l, mbar_err e, const char *op)
{
    if (e == MBAR_OK)
        return true;
    ex_fault(w, (int)l, "mbarrier.%s: %s", op, mbar_err_text(e));
    return false;
}

/* A timing record of a bulk copy: the global (or shared) side as lanes of
 * `chunk` bytes each, so the memory system sees every line it moves. */
static void record_bulk(ex_warp *w, ex_space space, uint64_t a, uint32_t n, bool write,
                        uint32_t mbar)
{
    ex_access *r = w->rec;
    if (!r || n == 0)
        return;
    uint32_t chunk = (n + WARP_SIZE - 1) / WARP_SIZE;
    chunk = (chunk + 15u) & ~15u;
    if (chunk > 0xffffu)
        chunk = 0xfff0u; /* the record's size field; larger copies are cut short */
    r->mask = 0;
    r->space = (uint8_t)space;
    r->size = (uint16_t)chunk;
    r->write = write;
    r->order = 0;
    for (unsigned k = 0; k < WARP_SIZE && (uint64_t)k * chunk < n; k++) {
        r->mask |= 1u << k;
        r->addr[k] = a + (uint64_t)k * chunk;
    }
    r->async = 2;
    r->mbar = mbar;
}

/* ------------------------------------------------------------- cp.async */

static void h_cp_async(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_access *rec = w->rec;
    unsigned cp = in->size;
    EX_LANES(mask, l, {
        uint32_t n = cp;
        if (in->type2 & AF_SRC_SIZE)
            n = (uint32_t)w->r[in->b][l];
        else if ((in->type2 & AF_IGNORE_SRC) && w->r[in->b][l])
            n = 0;
        if (n > cp) {
            ex_fault(w, (int)l, "cp.async src-size %u exceeds cp-size %u", n, cp);
            return;
        }
        uint64_t src = addr_of(w, in->vr[0], src_off(in), l);
        uint64_t s = src;
        if (resolve((ex_space)in->vr[3], &s) != EX_SPACE_GLOBAL || (s & (cp - 1))) {
            ex_fault(w, (int)l, "cp.async source 0x%llx is not a %u-byte aligned global address",
                     (unsigned long long)src, cp);
            return;
        }
        uint8_t buf[16] = {0};
        if (n) {
            const uint8_t *p = ex_addr(w, in, (ex_space)in->vr[3], src, n, (int)l, false);
            if (!p)
                return;
            memcpy(buf, p, n);
        }
        w->rec = NULL; /* the record is the global read; the shared write lands with it */
        uint8_t *q = ex_addr(w, in, (ex_space)in->space, addr_of(w, in->a, in->imm, l), cp,
                             (int)l, true);
        w->rec = rec;
        if (!q)
            return;
        memcpy(q, buf, cp);
    });
    if (rec) {
        rec->async = 1;
        rec->mbar = UINT32_MAX;
    }
    ex_mark_progress(w);
}

static void h_nothing(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    (void)w, (void)in, (void)mask;
}

/* cp.async.mbarrier.arrive: an arrive-on that triggers once the thread's
 * earlier cp.async have landed (here: already).  Without .noinc the
 * pending count is first raised by one, so only .noinc changes it. */
static void h_cp_mbar_arrive(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    EX_LANES(mask, l, {
        uint32_t off = 0;
        uint64_t *m = mbar_ptr(w, in->a, in->imm, (ex_space)in->space, l, &off);
        if (!m)
            return;
        if (in->type2 & AF_NOINC) {
            uint64_t v = *m, st;
            if (!mbar_check(w, l, mbar_arrive(&v, 1, false, false, 0, &st), "arrive"))
                return;
            *m = v;
        }
        if (w->rec) { /* the timing model ties this thread's copies to the barrier */
            w->rec->mask |= 1u << l;
            w->rec->space = EX_SPACE_SHARED;
            w->rec->size = 8;
            w->rec->write = 1;
            w->rec->addr[l] = off;
            w->rec->mbar = off;
        }
    });
    ex_mark_progress(w);
}

/* -------------------------------------------------------- cp.async.bulk */

static void h_bulk(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_async_op op = (ex_async_op)in->op2;
    EX_LANES(mask, l, {
        uint32_t n = (uint32_t)w->r[in->b][l];
        if (n % 16u) {
            ex_fault(w, (int)l, "cp.async.bulk size %u is not a multiple of 16", n);
            return;
        }
        uint64_t dst = addr_of(w, in->a, in->imm, l), src = addr_of(w, in->vr[0], src_off(in), l);
        ex_space ds = op == EX_ASYNC_BULK_S2G ? EX_SPACE_GLOBAL : EX_SPACE_SHARED;
        ex_space ss = op == EX_ASYNC_BULK_G2S ? EX_SPACE_GLOBAL : EX_SPACE_SHARED;
        uint8_t *q = bulk_ptr(w, (ex_space)in->space, dst, n, ds, l, "destination");
        const uint8_t *p = q ? bulk_ptr(w, (ex_space)in->vr[3], src, n, ss, l, "source") : NULL;
        if (!p)
            return;
        memmove(q, p, n);
        uint32_t moff = UINT32_MAX;
        if (op != EX_ASYNC_BULK_S2G) {
            uint64_t *m = mbar_ptr(w, in->c, (int32_t)in->target, (ex_space)in->rnd, l, &moff);
            if (!m)
                return;
            uint64_t v = *m;
            if (!mbar_check(w, l, mbar_complete_tx(&v, n), "complete_tx"))
                return;
            *m = v;
        }
        uint64_t ra = op == EX_ASYNC_BULK_G2S ? src : dst;
        ex_space rs = resolve(op == EX_ASYNC_BULK_G2S ? (ex_space)in->vr[3] : (ex_space)in->space,
                              &ra);
        record_bulk(w, rs, ra, n, op != EX_ASYNC_BULK_G2S, moff);
    });
    ex_mark_progress(w);
}

/* ------------------------------------------------------------- mbarrier */

static void h_mbar(ex_warp *w, const ex_instr *in, uint32_t mask)
{
    ex_async_op op = (ex_async_op)in->op2;
    if (op == EX_MBAR_PENDING_COUNT) {
        EX_LANES(mask, l, { w->r[in->d][l] = mbar_state_pending(w->r[in->a][l]); });
        return;
    }
    EX_LANES(mask, l, {
        uint64_t *m = mbar_ptr(w, in->a, in->imm, (ex_space)in->space, l, NULL);
        if (!m)
            return;
        uint64_t v = *m, st = 0;
        uint32_t b = in->b == EX_NONE ? 1 : (uint32_t)w->r[in->b][l];
        switch (op) {
        case EX_MBAR_INIT:
            if (!mbar_check(w, l, mbar_init(&v, b), "init"))
                return;
            break;
        case EX_MBAR_INVAL:
            v = 0;
            break;
        case EX_MBAR_ARRIVE: {
            bool tx = in->type2 & AF_EXPECT_TX;
            mbar_err e = mbar_arrive(&v, tx ? 1 : b, in->type2 & AF_DROP,
                                     in->type2 & AF_NO_COMPLETE, tx ? b : 0, &st);
            if (!mbar_check(w, l, e, (in->type2 & AF_DROP) ? "arrive_drop" : "arrive"))
                return;
            if (in->d != EX_NONE)
                w->r[in->d][l] = st;
            break;
        }
        case EX_MBAR_EXPECT_TX:
            if (!mbar_check(w, l, mbar_expect_tx(&v, b), "expect_tx"))
                return;
            break;
        case EX_MBAR_COMPLETE_TX:
            if (!mbar_check(w, l, mbar_complete_tx(&v, b), "complete_tx"))
                return;
            break;
        case EX_MBAR_WAIT: {
            uint64_t x = w->r[in->b][l];
            w->r[in->d][l] = (in->type2 & AF_PARITY) ? mbar_test_parity(v, (uint32_t)x)
                                                     : mbar_test_state(v, x);
            continue;
        }
        default:
            return;
        }
        *m = v;
    });
    if (op != EX_MBAR_WAIT)
        ex_mark_progress(w);
}

/* --------------------------------------------------------------- decode */

ex_async_op ex_async_kind(const ex_instr *in)
{
    if (in->op != PTX_OP_CP && in->op != PTX_OP_MBARRIER)
        return EX_ASYNC_NONE;
    return (ex_async_op)in->op2;
}

uint32_t ex_async_mbar_offset(const ex_warp *w, const ex_instr *in, uint32_t mask)
{
    if (!mask)
        return UINT32_MAX;
    unsigned l = (unsigned)__builtin_ctz(mask);
    uint64_t a = addr_of(w, in->a, in->imm, l);
    return resolve((ex_space)in->space, &a) == EX_SPACE_SHARED && a < UINT32_MAX ? (uint32_t)a
                                                                                 : UINT32_MAX;
}

/* The modifiers of the instruction that are not types, as one set. */
typedef struct mods {
    const char *name[PTX_MAX_MODS];
    unsigned n;
} mods;

static void mods_of(const ex_decoder *d, mods *m)
{
    m->n = 0;
    for (unsigned i = 0; i < d->pi->nmods; i++)
        if (!PTX_MOD_IS_TYPE(d->pi->mods[i]))
            m->name[m->n++] = ptx_module_mod_name(d->ir, d->pi->mods[i]);
}

static bool has(const mods *m, const char *name)
{
    for (unsigned i = 0; i < m->n; i++)
        if (strcmp(m->name[i], name) == 0)
            return true;
    return false;
}

static bool has_prefix(const mods *m, const char *prefix)
{
    for (unsigned i = 0; i < m->n; i++)
        if (strncmp(m->name[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

static bool fail(ex_decoder *d, const char *msg)
{
    g_string_assign(d->why, msg);
    return false;
}

/* The state space the modifiers name for operand `which` (0 the first
 * space modifier, 1 the second): shared (::cta, ::cluster), global, or
 * generic when none is written. */
static ex_space space_mod(const mods *m, unsigned which)
{
    unsigned k = 0;
    for (unsigned i = 0; i < m->n; i++) {
        const char *s = m->name[i];
        ex_space sp = strcmp(s, "global") == 0 ? EX_SPACE_GLOBAL
                      : strcmp(s, "shared") == 0 || strcmp(s, "shared::cta") == 0 ||
                              strcmp(s, "shared::cluster") == 0
                          ? EX_SPACE_SHARED
                          : EX_SPACE_GENERIC;
        if (sp != EX_SPACE_GENERIC && k++ == which)
            return sp;
    }
    return EX_SPACE_GENERIC;
}

/* Decodes an address operand into (slot, offset); the space comes from the
 * modifiers, so a variable's address is used as written. */
static bool addr_opnd(ex_decoder *d, unsigned i, ex_space space, uint32_t *slot, int64_t *off)
{
    const ptx_operand *o = ex_opnd(d, i);
    if (!o || o->kind != PTX_OPND_ADDR)
        return fail(d, "expected an address operand [..]");
    ex_instr tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.a = EX_NONE;
    ptx_space ps = space == EX_SPACE_SHARED ? PTX_SPACE_SHARED
                   : space == EX_SPACE_GLOBAL ? PTX_SPACE_GLOBAL
                                              : PTX_SPACE_NONE;
    if (!ex_decode_address(d, o, &tmp, ps))
        return false;
    if (tmp.op2 != 0 || (tmp.space != space && !(space == EX_SPACE_GENERIC &&
                                                 tmp.space == EX_SPACE_GLOBAL)))
        return fail(d, "address operand in an unexpected state space");
    *slot = tmp.a;
    *off = tmp.imm;
    return true;
}

static uint32_t u32_opnd(ex_decoder *d, unsigned i)
{
    const ptx_operand *o = ex_opnd(d, i);
    return o ? ex_slot(d, o, PTX_T_U32) : EX_NONE;
}

static bool set_src(ex_decoder *d, ex_instr *in, unsigned i, ex_space space)
{
    uint32_t slot;
    int64_t off;
    if (!addr_opnd(d, i, space, &slot, &off))
        return false;
    in->vr[0] = slot;
    in->vr[1] = (uint32_t)(uint64_t)off;
    in->vr[2] = (uint32_t)((uint64_t)off >> 32);
    in->vr[3] = space;
    return true;
}

static bool set_dst(ex_decoder *d, ex_instr *in, unsigned i, ex_space space)
{
    int64_t off;
    if (!addr_opnd(d, i, space, &in->a, &off))
        return false;
    in->imm = off;
    in->space = (uint8_t)space;
    return true;
}

static bool decode_cp_async(ex_decoder *d, ex_instr *in, const mods *m)
{
    const ptx_instr *pi = d->pi;
    if (has(m, "commit_group")) {
        in->op2 = EX_ASYNC_COMMIT;
        in->fn = h_nothing;
        return true;
    }
    if (has(m, "wait_group") || has(m, "wait_all")) {
        const ptx_operand *o = ex_opnd(d, 0);
        if (has(m, "wait_group") && (!o || o->kind != PTX_OPND_IMM || o->val < 0))
            return fail(d, "cp.async.wait_group takes an integer constant N");
        in->op2 = EX_ASYNC_WAIT;
        in->imm = has(m, "wait_group") ? o->val : -1; /* wait_all: the open group too */
        in->fn = h_nothing;
        return true;
    }
    if (has(m, "mbarrier")) { /* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a] */
        if (!has(m, "arrive") || pi->nopnds != 1)
            return fail(d, "cp.async.mbarrier takes .arrive and one address");
        in->op2 = EX_ASYNC_MBAR_ARRIVE;
        in->type2 = has(m, "noinc") ? AF_NOINC : 0;
        in->fn = h_cp_mbar_arrive;
        return set_dst(d, in, 0, space_mod(m, 0));
    }
    bool ca = has(m, "ca"), cg = has(m, "cg");
    if (ca == cg)
        return fail(d, "cp.async needs one of .ca and .cg");
    if (space_mod(m, 0) != EX_SPACE_SHARED || space_mod(m, 1) != EX_SPACE_GLOBAL)
        return fail(d, "cp.async copies .shared{::cta} <- .global");
    const ptx_operand *sz = ex_opnd(d, 2);
    if (!sz || sz->kind != PTX_OPND_IMM || (sz->val != 4 && sz->val != 8 && sz->val != 16))
        return fail(d, "cp.async cp-size must be the constant 4, 8 or 16");
    if (cg && sz->val != 16)
        return fail(d, "cp.async.cg copies 16 bytes");
    in->size = (uint8_t)sz->val;
    in->op2 = EX_ASYNC_COPY;
    in->b = EX_NONE;
    /* optional: src-size (integer) or ignore-src (predicate), then a
     * cache-policy when .L2::cache_hint is given (ignored: no value changes) */
    unsigned want = 3 + (has(m, "L2::cache_hint") ? 1u : 0u);
    if (pi->nopnds == want + 1) {
        const ptx_operand *o = ex_opnd(d, 3);
        bool pred = o->kind == PTX_OPND_REG &&
                    g_array_index(d->irf->regs, ptx_reg, o->id).type == PTX_T_PRED;
        if (o->flags & PTX_OPNDF_NOT)
            return fail(d, "cp.async with a negated ignore-src predicate");
        in->b = ex_slot(d, o, pred ? PTX_T_PRED : PTX_T_U32);
        in->type2 = pred ? AF_IGNORE_SRC : AF_SRC_SIZE;
        if (in->b == EX_NONE)
            return fail(d, "cp.async src-size or ignore-src operand");
    } else if (pi->nopnds != want) {
        return fail(d, "cp.async operand count");
    }
    in->fn = h_cp_async;
    return set_dst(d, in, 0, EX_SPACE_SHARED) && set_src(d, in, 1, EX_SPACE_GLOBAL);
}

static bool decode_bulk(ex_decoder *d, ex_instr *in, const mods *m)
{
    const ptx_instr *pi = d->pi;
    if (has(m, "commit_group")) {
        in->op2 = EX_ASYNC_BULK_COMMIT;
        in->fn = h_nothing;
        return true;
    }
    if (has(m, "wait_group")) {
        const ptx_operand *o = ex_opnd(d, 0);
        if (!o || o->kind != PTX_OPND_IMM || o->val < 0)
            return fail(d, "cp.async.bulk.wait_group takes an integer constant N");
        in->op2 = EX_ASYNC_BULK_WAIT;
        in->imm = o->val;
        in->fn = h_nothing;
        return true;
    }
    if (has(m, "prefetch")) {
        in->op2 = EX_ASYNC_BULK_PREFETCH;
        in->fn = h_nothing;
        return true;
    }
    if (has(m, "tensor") || has_prefix(m, "multicast") || has(m, "reduce"))
        return fail(d, "cp.async.bulk with a tensor map, multicast or reduction");
    ex_space s0 = space_mod(m, 0), s1 = space_mod(m, 1);
    bool mbar = has(m, "mbarrier::complete_tx::bytes");
    if (s0 == EX_SPACE_SHARED && s1 == EX_SPACE_GLOBAL && mbar)
        in->op2 = EX_ASYNC_BULK_G2S;
    else if (s0 == EX_SPACE_SHARED && s1 == EX_SPACE_SHARED && mbar)
        in->op2 = EX_ASYNC_BULK_S2S;
    else if (s0 == EX_SPACE_GLOBAL && s1 == EX_SPACE_SHARED && has(m, "bulk_group"))
        in->op2 = EX_ASYNC_BULK_S2G;
    else
        return fail(d, "this cp.async.bulk form (spaces and completion mechanism)");
    if (has(m, "cp_mask"))
        return fail(d, "cp.async.bulk with .cp_mask");
    unsigned want = mbar ? 4u : 3u;
    if (pi->nopnds != want + (has(m, "L2::cache_hint") ? 1u : 0u))
        return fail(d, "cp.async.bulk operand count");
    in->b = u32_opnd(d, 2);
    if (in->b == EX_NONE)
        return fail(d, "cp.async.bulk size operand");
    if (mbar) {
        int64_t off;
        if (!addr_opnd(d, 3, EX_SPACE_SHARED, &in->c, &off))
            return false;
        in->target = (uint32_t)(int32_t)off;
        in->rnd = EX_SPACE_SHARED;
    }
    in->fn = h_bulk;
    return set_dst(d, in, 0, s0) && set_src(d, in, 1, s1);
}

static bool decode_mbarrier(ex_decoder *d, ex_instr *in, const mods *m)
{
    const ptx_instr *pi = d->pi;
    if (pi->ntypes != 1 || pi->types[0] != PTX_T_B64)
        return fail(d, "mbarrier needs the .b64 type");
    ex_space sp = space_mod(m, 0);
    in->b = EX_NONE;
    in->d = EX_NONE;
    in->fn = h_mbar;
    if (has(m, "pending_count")) {
        if (pi->nopnds != 2)
            return fail(d, "mbarrier.pending_count takes count, state");
        in->op2 = EX_MBAR_PENDING_COUNT;
        in->d = ex_opnd_slot(d, 0, PTX_T_U32);
        in->a = ex_opnd_slot(d, 1, PTX_T_B64);
        return in->d != EX_NONE && in->a != EX_NONE;
    }
    if (has(m, "init") || has(m, "inval") || has(m, "expect_tx") || has(m, "complete_tx")) {
        bool arrive = has(m, "arrive") || has(m, "arrive_drop");
        if (!arrive) {
            in->op2 = has(m, "init")       ? EX_MBAR_INIT
                      : has(m, "inval")    ? EX_MBAR_INVAL
                      : has(m, "expect_tx") ? EX_MBAR_EXPECT_TX
                                            : EX_MBAR_COMPLETE_TX;
            if (pi->nopnds != (in->op2 == EX_MBAR_INVAL ? 1u : 2u))
                return fail(d, "mbarrier operand count");
            if (in->op2 != EX_MBAR_INVAL && (in->b = u32_opnd(d, 1)) == EX_NONE)
                return fail(d, "mbarrier count operand");
            return set_dst(d, in, 0, sp);
        }
    }
    if (has(m, "arrive") || has(m, "arrive_drop")) {
        in->op2 = EX_MBAR_ARRIVE;
        in->type2 = (uint8_t)((has(m, "arrive_drop") ? AF_DROP : 0) |
                              (has(m, "noComplete") ? AF_NO_COMPLETE : 0) |
                              (has(m, "expect_tx") ? AF_EXPECT_TX : 0));
        const ptx_operand *o = ex_opnd(d, 0);
        if (pi->nopnds < 2 || pi->nopnds > 3)
            return fail(d, "mbarrier.arrive operand count");
        if ((in->type2 & (AF_NO_COMPLETE | AF_EXPECT_TX)) && pi->nopnds != 3)
            return fail(d, "mbarrier.arrive.noComplete / .expect_tx need a count operand");
        if (o->kind != PTX_OPND_SINK && (in->d = ex_slot(d, o, PTX_T_B64)) == EX_NONE)
            return fail(d, "mbarrier.arrive state operand");
        if (pi->nopnds == 3) {
            in->type2 |= AF_COUNT;
            if ((in->b = u32_opnd(d, 2)) == EX_NONE)
                return fail(d, "mbarrier.arrive count operand");
        }
        return set_dst(d, in, 1, sp);
    }
    if (has(m, "test_wait") || has(m, "try_wait")) {
        in->op2 = EX_MBAR_WAIT;
        in->type2 = has(m, "parity") ? AF_PARITY : 0;
        /* try_wait's optional suspendTimeHint changes no result */
        if (pi->nopnds < 3 || pi->nopnds > (has(m, "try_wait") ? 4u : 3u))
            return fail(d, "mbarrier wait operand count");
        in->d = ex_opnd_slot(d, 0, PTX_T_PRED);
        in->b = ex_opnd_slot(d, 2, (in->type2 & AF_PARITY) ? PTX_T_U32 : PTX_T_B64);
        if (in->d == EX_NONE || in->b == EX_NONE)
            return fail(d, "mbarrier wait operands");
        return set_dst(d, in, 1, sp);
    }
    return fail(d, "this mbarrier operation");
}

/* Every modifier these forms may carry; anything else (multicast, tensor
 * maps, .cp_mask, newer mbarrier layouts ...) is refused by name. */
static const char *unknown_mod(const mods *m)
{
    static const char *const known[] = {
        "async", "ca", "cg", "shared", "shared::cta", "shared::cluster", "global",
        "commit_group", "wait_group", "wait_all", "mbarrier", "arrive", "noinc", "bulk",
        "bulk_group", "mbarrier::complete_tx::bytes", "prefetch", "L2", "read",
        "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B", "init", "inval", "arrive_drop",
        "noComplete", "expect_tx", "complete_tx", "test_wait", "try_wait", "parity",
        "pending_count", "release", "acquire", "relaxed", "cta", "cluster", "tensor",
        "multicast::cluster", "reduce", "cp_mask"};
    for (unsigned i = 0; i < m->n; i++) {
        bool ok = false;
        for (size_t k = 0; k < G_N_ELEMENTS(known) && !ok; k++)
            ok = strcmp(m->name[i], known[k]) == 0;
        if (!ok)
            return m->name[i];
    }
    return NULL;
}

bool ex_decode_async(ex_decoder *d, ex_instr *in)
{
    mods m;
    mods_of(d, &m);
    if (d->pi->op != PTX_OP_CP && d->pi->op != PTX_OP_MBARRIER)
        return fail(d, "multimem and tensormap instructions are planned for a later issue");
    const char *bad = unknown_mod(&m);
    if (bad) {
        g_string_printf(d->why, "%s with .%s", d->pi->op == PTX_OP_CP ? "cp" : "mbarrier", bad);
        return false;
    }
    in->a = in->b = in->c = in->d = EX_NONE;
    in->vr[0] = EX_NONE;
    if (d->pi->op == PTX_OP_MBARRIER)
        return decode_mbarrier(d, in, &m);
    if (!has(&m, "async"))
        return fail(d, "cp without .async (cp.reduce.async.bulk ...) is planned for a later issue");
    if (has(&m, "bulk"))
        return decode_bulk(d, in, &m);
    return decode_cp_async(d, in, &m);
}
