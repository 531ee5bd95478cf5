/* timing/sm_instr.c — per-function timing tables read from the opcode rows
 * (unit, latency class, flags) and the loader's register lists (from the
 * rows' operand roles), and register liveness. */
#include "timing/sm_internal.h"
#include "isa/latency.h"
#include "isa/opcodes.h"
#include "runtime/exec_mma.h"
#include "runtime/loader.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ instruction tables */

static tm_unit unit_of(const gpu_config *cfg, ptx_opcode op, ptx_lat_class lc)
{
    if (lc >= PTX_LAT_DP_ADD && lc <= PTX_LAT_DP_DIV)
        return cfg->units.dp_on_sfu ? TM_UNIT_SFU : TM_UNIT_DP; /* Fermi GeForce: DP on SFU */
    switch (ptx_opcode_info(op)->unit) {
    case PTX_UNIT_SFU: return TM_UNIT_SFU;
    case PTX_UNIT_MEM: case PTX_UNIT_TEX: return TM_UNIT_LDST;
    case PTX_UNIT_MMA: return TM_UNIT_TENSOR;
    default: return TM_UNIT_SP; /* ALU, control and sync go down the SP pipe */
    }
}

/* Cycles a unit slice is busy with one warp instruction: 32 threads over
 * the lanes one scheduler owns (config [units]). */
uint32_t tm_unit_occupancy(const gpu_config *cfg, tm_unit u)
{
    if (u == TM_UNIT_TENSOR)
        return 1; /* per instruction: tensor_occupancy */
    uint32_t lanes = u == TM_UNIT_SP    ? cfg->units.sp
                   : u == TM_UNIT_SFU   ? cfg->units.sfu
                   : u == TM_UNIT_DP    ? cfg->units.dp
                                        : cfg->units.ldst;
    lanes /= cfg->core.warp_schedulers;
    if (lanes == 0)
        lanes = 1;
    return (cfg->gpu.warp_size + lanes - 1) / lanes;
}

/* Cycles the scheduler's tensor-core slice is busy with one MMA: its
 * .f16-equivalent multiply-adds (isa/mma.h ptx_mma_work) over the
 * slice's share of units.tensor. */
static uint32_t tensor_occupancy(const gpu_config *cfg, const ex_instr *in)
{
    uint32_t rate = cfg->units.tensor / cfg->core.warp_schedulers;
    if (rate == 0)
        rate = 1;
    uint64_t occ = ((uint64_t)ex_mma_work(in) + rate - 1) / rate;
    return occ == 0 ? 1 : occ > 65535 ? 65535 : (uint32_t)occ;
}

/* Widths (32-bit registers) of every slot, from the register declarations;
 * predicates live in their own file and cost nothing. */
static uint8_t *slot_widths(const ex_func *fn)
{
    uint8_t *w = g_new0(uint8_t, fn->nregs + 1);
    const ptx_func *f = fn->ir;
    uint32_t n = 0;
    for (guint i = 0; f && i < f->regs->len && n < fn->nregs; i++) {
        const ptx_reg *r = &g_array_index(f->regs, ptx_reg, i);
        unsigned cnt = ptx_reg_slots(r);
        unsigned sz = r->type == PTX_T_PRED ? 0 : ptx_type_size(r->type);
        if (r->type == PTX_T_B128)
            sz = 8; /* two 64-bit slots */
        for (unsigned k = 0; k < cnt && n < fn->nregs; k++)
            w[n++] = (uint8_t)((sz + 3) / 4);
    }
    return w;
}

/* Registers per thread a compiler would need: the most 32-bit registers
 * live at once (backward liveness over the CFG), since PTX declares
 * virtual registers far beyond what ptxas allocates. */
static uint32_t estimate_regs(const ex_func *fn, const tm_ins *ins)
{
    const ptx_cfg *cfg = fn->cfg;
    if (!cfg || fn->nregs == 0 || fn->ninstrs == 0)
        return 0;
    uint32_t words = (fn->nregs + 63) / 64, nb = cfg->nblocks;
    uint64_t *live_in = g_new0(uint64_t, (size_t)(nb + 1) * words);
    uint64_t *cur = g_new0(uint64_t, words);
    uint8_t *width = slot_widths(fn);
    bool changed = true;
    for (unsigned iter = 0; changed && iter < 1000; iter++) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            const ptx_block *blk = &cfg->blocks[b];
            memset(cur, 0, words * sizeof *cur);
            for (guint s = 0; s < blk->succs->len; s++) {
                uint32_t sb = g_array_index(blk->succs, uint32_t, s);
                for (uint32_t k = 0; k < words; k++)
                    cur[k] |= live_in[(size_t)sb * words + k];
            }
            for (uint32_t i = blk->end; i-- > blk->first;) {
                const tm_ins *t = &ins[i];
                for (unsigned j = 0; j < t->ndst; j++)
                    cur[t->dst[j] / 64] &= ~(1ull << (t->dst[j] % 64));
                for (unsigned j = 0; j < t->nsrc; j++)
                    cur[t->src[j] / 64] |= 1ull << (t->src[j] % 64);
            }
            uint64_t *in = &live_in[(size_t)b * words];
            if (memcmp(in, cur, words * sizeof *cur) != 0) {
                memcpy(in, cur, words * sizeof *cur);
                changed = true;
            }
        }
    }
    /* the peak: walk each block once more, weighing the live set */
    uint32_t peak = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *blk = &cfg->blocks[b];
        memset(cur, 0, words * sizeof *cur);
        for (guint s = 0; s < blk->succs->len; s++) {
            uint32_t sb = g_array_index(blk->succs, uint32_t, s);
            for (uint32_t k = 0; k < words; k++)
                cur[k] |= live_in[(size_t)sb * words + k];
        }
        uint32_t weight = 0;
        for (uint32_t r = 0; r < fn->nregs; r++)
            if (cur[r / 64] >> (r % 64) & 1)
                weight += width[r];
        for (uint32_t i = blk->end; i-- > blk->first;) {
            const tm_ins *t = &ins[i];
            for (unsigned j = 0; j < t->ndst; j++) {
                uint32_t r = t->dst[j];
                if (cur[r / 64] >> (r % 64) & 1) {
                    cur[r / 64] &= ~(1ull << (r % 64));
                    weight -= width[r];
                }
            }
            for (unsigned j = 0; j < t->nsrc; j++) {
                uint32_t r = t->src[j];
                if (!(cur[r / 64] >> (r % 64) & 1)) {
                    cur[r / 64] |= 1ull << (r % 64);
                    weight += width[r];
                }
            }
            /* a destination needs a register even when it is dead */
            uint32_t dw = 0;
            for (unsigned j = 0; j < t->ndst; j++)
                dw += width[t->dst[j]];
            if (weight + dw > peak)
                peak = weight + dw;
        }
    }
    g_free(width);
    g_free(cur);
    g_free(live_in);
    return peak;
}

tm_func *tm_func_build(const gpu_config *cfg, const ex_func *fn)
{
    tm_func *f = g_new0(tm_func, 1);
    f->fn = fn;
    f->ins = g_new0(tm_ins, fn->ninstrs + 1);
    /* phases in this config's latencies: what the schedulers see */
    ptx_phase_opts po = {(ptx_phase_blocks)cfg->phase.blocks, (ptx_phase_loads)cfg->phase.loads};
    f->annot = ex_func_annotate(fn, &cfg->latency, &po);
    for (uint32_t i = 0; i < fn->ninstrs; i++) {
        const ex_instr *in = &fn->code[i];
        tm_ins *t = &f->ins[i];
        ptx_opcode op = (ptx_opcode)in->op;
        ptx_lat_class lc = ptx_latency_class_of(op, (ptx_type)in->type);
        tm_unit u = unit_of(cfg, op, lc);
        uint32_t occ = u == TM_UNIT_TENSOR ? tensor_occupancy(cfg, in) : tm_unit_occupancy(cfg, u);
        if (cfg->initiation.cycles[lc] > occ)
            occ = cfg->initiation.cycles[lc];
        t->unit = (uint8_t)u;
        t->lat_class = (uint16_t)lc;
        t->occupancy = (uint16_t)(occ > 65535 ? 65535 : occ);
        t->latency = cfg->latency.cycles[lc];
        unsigned rf = ptx_opcode_info(op)->flags;
        if (rf & PTX_OPF_WINDOW)
            t->flags |= TM_INS_DRAIN;
        if (rf & PTX_OPF_FENCE)
            t->flags |= TM_INS_FENCE;
        if (rf & PTX_OPF_BARRIER_EVENT)
            t->flags |= TM_INS_WAKE_CTA;
        if (rf & PTX_OPF_ASYNC)
            t->flags |= TM_INS_ASYNC;
        if (op == PTX_OP_SETP)
            t->flags |= TM_INS_SETP;
        if (ptx_opcode_direct_branch(op))
            t->flags |= TM_INS_BRANCH;
        if (op == PTX_OP_ATOM && in->c != EX_NONE && in->d != EX_NONE)
            t->flags |= TM_INS_CAS;
        if (f->annot[i].spin_loop)
            t->flags |= TM_INS_SPIN_LOOP;
        /* registers: the loader's lists, from the row's operand roles */
        const ex_reguse *ru = &fn->reguse[i];
        t->src = fn->reg_slots + ru->first;
        t->nsrc = ru->nread;
        t->dst = t->src + ru->nread;
        t->ndst = ru->nwrite;
    }
    f->regs32 = estimate_regs(fn, f->ins);
    return f;
}

void tm_func_free(tm_func *f)
{
    if (!f)
        return;
    g_free(f->ins);
    g_free(f->annot);
    g_free(f);
}
