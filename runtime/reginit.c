/* runtime/reginit.c — which registers a warp must zero when a CTA starts.
 *
 * Registers start at zero so that a read before any write is deterministic
 * (the same answer whichever CTA ran in the warp's slot before).  Zeroing
 * the whole register file per warp costs 256 bytes per register, which for
 * a kernel with hundreds of registers and short CTAs is a tenth of the run.
 * Only the registers some thread may read before it has written them need
 * it: a forward "definitely written" dataflow over the CFG, per thread (a
 * lane runs exactly the instructions on its own path, whatever the SIMT
 * stack does with the others).  Conservative where it cannot see: guarded
 * writes do not count, instructions that read other lanes' registers
 * (shfl, mma, ...) zero everything they read, and a function with calls
 * zeroes the whole file. */
#include "runtime/reginit.h"
#include "runtime/exec.h"
#include "isa/opcodes.h"

#include <string.h>

/* Reads or writes registers of other lanes, or writes only some of its
 * destinations' lanes (a warp collective): nothing it touches is trusted. */
static bool cross_lane(const ex_instr *in)
{
    return ptx_opcode_has(in->op, PTX_OPF_COLLECTIVE);
}

typedef struct bitset {
    uint64_t *w;
    uint32_t nwords;
} bitset;

static inline bool bs_get(const uint64_t *b, uint32_t i)
{
    return (b[i >> 6] >> (i & 63)) & 1u;
}

static inline void bs_set(uint64_t *b, uint32_t i)
{
    b[i >> 6] |= 1ull << (i & 63);
}

/* Sets the registers instruction i writes in `set`. */
static void mark_writes(const ex_func *f, uint32_t i, uint64_t *set)
{
    const ex_reguse *u = &f->reguse[i];
    for (uint32_t k = 0; k < u->nwrite; k++) {
        uint32_t s = f->reg_slots[u->first + u->nread + k];
        if (s < f->nregs)
            bs_set(set, s);
    }
}

/* The registers definitely written on entry to block b: the intersection
 * over its predecessors' out-states; none for the entry block, even when a
 * branch leads back to it. */
static void block_in(const ptx_cfg *cfg, const uint64_t *out, uint32_t nw, uint32_t b,
                     uint64_t *cur)
{
    memset(cur, b == 0 ? 0 : 0xff, sizeof(uint64_t) * nw);
    const ptx_block *blk = &cfg->blocks[b];
    for (guint k = 0; b != 0 && k < blk->preds->len; k++) {
        uint32_t p = g_array_index(blk->preds, uint32_t, k);
        for (uint32_t x = 0; x < nw; x++)
            cur[x] &= out[(gsize)p * nw + x];
    }
}

void ex_reginit_analyze(ex_func *f)
{
    f->zero_all = true;
    f->nzero = 0;
    const ptx_cfg *cfg = f->cfg;
    uint32_t nregs = f->nregs;
    if (!cfg || !f->reguse || nregs == 0)
        return;
    for (uint32_t i = 0; i < f->ninstrs; i++)
        if (ptx_opcode_has(f->code[i].op, PTX_OPF_CALL) || !f->code[i].fn)
            return;
    uint32_t nw = (nregs + 63) / 64, nb = cfg->nblocks;
    /* out[b]: registers definitely written on every path to the end of b
     * (all ones until computed: the meet is an intersection) */
    uint64_t *out = g_new(uint64_t, (gsize)nw * (nb + 1));
    uint64_t *cur = g_new(uint64_t, nw);
    memset(out, 0xff, sizeof(uint64_t) * nw * (nb + 1));
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = 0; b < nb; b++) {
            const ptx_block *blk = &cfg->blocks[b];
            block_in(cfg, out, nw, b, cur);
            for (uint32_t i = blk->first; i < blk->end; i++) {
                const ex_instr *in = &f->code[i];
                if (in->guard == EX_NONE && !cross_lane(in))
                    mark_writes(f, i, cur);
            }
            uint64_t *o = &out[(gsize)b * nw];
            if (memcmp(o, cur, sizeof(uint64_t) * nw)) {
                memcpy(o, cur, sizeof(uint64_t) * nw);
                changed = true;
            }
        }
    }
    /* the reads that may come before a write, block by block */
    uint64_t *need = g_new0(uint64_t, nw);
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *blk = &cfg->blocks[b];
        block_in(cfg, out, nw, b, cur);
        for (uint32_t i = blk->first; i < blk->end; i++) {
            const ex_instr *in = &f->code[i];
            const ex_reguse *u = &f->reguse[i];
            bool all = cross_lane(in);
            for (uint32_t k = 0; k < u->nread; k++) {
                uint32_t s = f->reg_slots[u->first + k];
                if (s < nregs && (all || !bs_get(cur, s)))
                    bs_set(need, s);
            }
            if (all)
                mark_writes(f, i, need); /* only some lanes may be written */
            else if (in->guard == EX_NONE)
                mark_writes(f, i, cur);
        }
    }
    uint32_t n = 0;
    for (uint32_t s = 0; s < nregs; s++)
        n += bs_get(need, s);
    f->zero_slots = g_new(uint32_t, n ? n : 1);
    for (uint32_t s = 0; s < nregs; s++)
        if (bs_get(need, s))
            f->zero_slots[f->nzero++] = s;
    f->zero_all = false;
    g_free(need);
    g_free(cur);
    g_free(out);
}
