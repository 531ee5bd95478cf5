/* frontend/phase.c — phase formation, phase distance and phase length
 * (definitions in frontend/phase.h). */
#include "frontend/phase.h"

#include "isa/opcodes.h"

static bool space_is_long(ptx_space s)
{
    /* param, shared and const stay on chip; generic may be anything, so it
     * counts as the worst case (global). */
    return s == PTX_SPACE_GLOBAL || s == PTX_SPACE_LOCAL ||
           s == PTX_SPACE_TEX || s == PTX_SPACE_NONE || s == PTX_SPACE_GENERIC;
}

/* The row says which opcodes are long (OPF_LONG) and which are long only
 * off chip (OPF_LONG_SPACE: loads, stores, prefetches). */
bool ptx_instr_is_long_latency_opts(const ptx_instr *in, ptx_phase_loads loads)
{
    unsigned flags = ptx_opcode_info((ptx_opcode)in->op)->flags;
    if (flags & PTX_OPF_LONG_SPACE)
        return loads == PTX_PHASE_LOADS_ALL || space_is_long((ptx_space)in->space);
    return (flags & PTX_OPF_LONG) != 0;
}

bool ptx_instr_is_long_latency(const ptx_instr *in)
{
    return ptx_instr_is_long_latency_opts(in, PTX_PHASE_LOADS_OFFCHIP);
}

void ptx_phase_opts_init(ptx_phase_opts *o)
{
    o->blocks = PTX_PHASE_BLOCKS_SPLIT;
    o->loads = PTX_PHASE_LOADS_OFFCHIP;
}

const char *const ptx_phase_blocks_names[] = {"split", "linear", NULL};
const char *const ptx_phase_loads_names[] = {"offchip", "all", NULL};
#define blocks_names ptx_phase_blocks_names
#define loads_names ptx_phase_loads_names
#define N_BLOCKS 2u
#define N_LOADS 2u

const char *ptx_phase_blocks_name(ptx_phase_blocks b)
{
    return (unsigned)b < N_BLOCKS ? blocks_names[b] : "?";
}

const char *ptx_phase_loads_name(ptx_phase_loads l)
{
    return (unsigned)l < N_LOADS ? loads_names[l] : "?";
}

bool ptx_phase_blocks_lookup(const char *name, ptx_phase_blocks *out)
{
    for (unsigned k = 0; k < N_BLOCKS; k++)
        if (g_strcmp0(name, blocks_names[k]) == 0) {
            *out = (ptx_phase_blocks)k;
            return true;
        }
    return false;
}

bool ptx_phase_loads_lookup(const char *name, ptx_phase_loads *out)
{
    for (unsigned k = 0; k < N_LOADS; k++)
        if (g_strcmp0(name, loads_names[k]) == 0) {
            *out = (ptx_phase_loads)k;
            return true;
        }
    return false;
}

uint32_t ptx_instr_latency(const ptx_instr *in, const ptx_latency_table *lat)
{
    ptx_type t = in->ntypes ? (ptx_type)in->types[0] : PTX_T_NONE;
    return ptx_latency_cycles(lat, (ptx_opcode)in->op, t);
}

/* The block control reaches from b when its last instruction does not
 * branch (see next(P) in phase.h); PTX_CFG_NONE when there is none. */
static uint32_t fallthrough_block(const ptx_cfg *cfg, uint32_t b)
{
    const ptx_block *blk = &cfg->blocks[b];
    if (blk->end > blk->first) {
        const ptx_instr *last = ptx_func_instr(cfg->func, blk->end - 1);
        /* an unconditional jump or leave: only a direct branch to one
         * block has a next block */
        if (last->guard < 0 && ptx_opcode_has(last->op, PTX_OPF_ENDS_BLOCK)) {
            if (ptx_opcode_direct_branch(last->op) && blk->succs->len == 1) {
                uint32_t t = g_array_index(blk->succs, uint32_t, 0);
                return t < cfg->nblocks ? t : PTX_CFG_NONE;
            }
            return PTX_CFG_NONE;
        }
    }
    return b + 1 < cfg->nblocks ? b + 1 : PTX_CFG_NONE;
}

/* Splits the blocks into phases (thesis §3.4.2.1, top-to-bottom walk). */
static void form_phases(ptx_phase_info *pi, const ptx_cfg *cfg, GArray *phases,
                        ptx_phase_blocks rule)
{
    const ptx_func *f = cfg->func;
    uint32_t nregs = f->regs->len;
    /* producer[r]: the long-latency instruction of the current phase whose
     * result register r holds, or PTX_PHASE_NONE. */
    uint32_t *producer = g_new(uint32_t, nregs ? nregs : 1);
    for (uint32_t r = 0; r < nregs; r++)
        producer[r] = PTX_PHASE_NONE;
    GArray *in_set = g_array_new(FALSE, FALSE, sizeof(int32_t));
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));

    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        const ptx_block *blk = &cfg->blocks[b];
        for (uint32_t i = blk->first; i < blk->end; i++) {
            const ptx_instr *in = ptx_func_instr(f, i);
            ptx_phase ph = {.first = i, .end = i, .block = b,
                            .next = PTX_PHASE_NONE, .trigger_reg = -1,
                            .trigger_src = PTX_PHASE_NONE};
            /* linear: only the function's first instruction starts a phase
             * without a long-op reason */
            bool start = rule == PTX_PHASE_BLOCKS_LINEAR ? phases->len == 0
                                                          : i == blk->first;
            if (start) {
                ph.start = PTX_PHASE_START_BLOCK;
            } else {
                g_array_set_size(regs, 0);
                ptx_instr_uses(f, in, regs);
                for (guint k = 0; k < regs->len; k++) {
                    int32_t r = g_array_index(regs, int32_t, k);
                    if (r >= 0 && (uint32_t)r < nregs &&
                        producer[r] != PTX_PHASE_NONE) {
                        start = true;
                        ph.start = PTX_PHASE_START_LONGOP;
                        ph.trigger_reg = r;
                        ph.trigger_src = producer[r];
                        break;
                    }
                }
            }
            if (start) {
                /* A new phase forgets the long ops of the previous one: the
                 * thesis assumes loads issued close together return
                 * together. */
                for (guint k = 0; k < in_set->len; k++)
                    producer[g_array_index(in_set, int32_t, k)] = PTX_PHASE_NONE;
                g_array_set_size(in_set, 0);
                g_array_append_val(phases, ph);
            }
            g_array_index(phases, ptx_phase, phases->len - 1).end = i + 1;
            pi->phase_of[i] = phases->len - 1;

            g_array_set_size(regs, 0);
            ptx_instr_defs(f, in, regs);
            for (guint k = 0; k < regs->len; k++) {
                int32_t r = g_array_index(regs, int32_t, k);
                if (r < 0 || (uint32_t)r >= nregs)
                    continue;
                /* A short instruction overwriting a long-op register means
                 * later readers no longer wait on the long op. */
                if (pi->is_long[i]) {
                    if (producer[r] == PTX_PHASE_NONE)
                        g_array_append_val(in_set, r);
                    producer[r] = i;
                } else {
                    producer[r] = PTX_PHASE_NONE;
                }
            }
        }
    }
    g_array_free(regs, TRUE);
    g_array_free(in_set, TRUE);
    g_free(producer);
}

ptx_phase_info *ptx_phase_analyze(const ptx_cfg *cfg,
                                  const ptx_latency_table *lat)
{
    return ptx_phase_analyze_opts(cfg, lat, NULL);
}

ptx_phase_info *ptx_phase_analyze_opts(const ptx_cfg *cfg, const ptx_latency_table *lat,
                                       const ptx_phase_opts *opts)
{
    ptx_phase_opts o;
    if (opts)
        o = *opts;
    else
        ptx_phase_opts_init(&o);
    const ptx_func *f = cfg->func;
    ptx_phase_info *pi = g_new0(ptx_phase_info, 1);
    uint32_t n = f->instrs->len;
    pi->func = f;
    pi->ninstrs = n;
    pi->phase_of = g_new0(uint32_t, n ? n : 1);
    pi->distance = g_new0(uint32_t, n ? n : 1);
    pi->next_length = g_new0(uint32_t, n ? n : 1);
    pi->latency = g_new0(uint32_t, n ? n : 1);
    pi->is_long = g_new0(bool, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        const ptx_instr *in = ptx_func_instr(f, i);
        pi->latency[i] = ptx_instr_latency(in, lat);
        pi->is_long[i] = ptx_instr_is_long_latency_opts(in, o.loads);
        pi->nlong += pi->is_long[i];
        pi->phase_of[i] = PTX_PHASE_NONE; /* instructions outside any block */
    }

    GArray *phases = g_array_new(FALSE, FALSE, sizeof(ptx_phase));
    form_phases(pi, cfg, phases, o.blocks);
    pi->nphases = phases->len;
    pi->phases = (ptx_phase *)(void *)g_array_free(phases, FALSE);

    /* Backward walk: distance accumulates from the last instruction up. */
    for (uint32_t p = 0; p < pi->nphases; p++) {
        ptx_phase *ph = &pi->phases[p];
        uint32_t acc = 0;
        for (uint32_t i = ph->end; i-- > ph->first;) {
            acc += pi->latency[i];
            pi->distance[i] = acc;
        }
        ph->length = acc;
    }

    /* next(P): the phase of the instruction after P's last one when that
     * is in the same block, else the first phase of the fall-through block
     * (skipping empty blocks).  With blocks=split this is the next phase of
     * the same block or the fall-through block's first phase. */
    uint32_t *block_of = g_new(uint32_t, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        block_of[i] = PTX_CFG_NONE;
    for (uint32_t b = 0; b < cfg->nblocks; b++)
        for (uint32_t i = cfg->blocks[b].first; i < cfg->blocks[b].end && i < n; i++)
            block_of[i] = b;
    for (uint32_t p = 0; p < pi->nphases; p++) {
        ptx_phase *ph = &pi->phases[p];
        uint32_t b = block_of[ph->end - 1];
        if (b == PTX_CFG_NONE)
            continue;
        if (ph->end < cfg->blocks[b].end) {
            ph->next = pi->phase_of[ph->end];
            continue;
        }
        for (uint32_t steps = 0; steps < cfg->nblocks; steps++) {
            b = fallthrough_block(cfg, b);
            if (b == PTX_CFG_NONE)
                break;
            if (cfg->blocks[b].end > cfg->blocks[b].first) {
                ph->next = pi->phase_of[cfg->blocks[b].first];
                break;
            }
        }
    }
    g_free(block_of);

    pi->longest_phase = pi->shortest_phase = PTX_PHASE_NONE;
    for (uint32_t p = 0; p < pi->nphases; p++) {
        const ptx_phase *ph = &pi->phases[p];
        if (pi->longest_phase == PTX_PHASE_NONE || ph->length > pi->longest) {
            pi->longest = ph->length;
            pi->longest_phase = p;
        }
        if (pi->shortest_phase == PTX_PHASE_NONE || ph->length < pi->shortest) {
            pi->shortest = ph->length;
            pi->shortest_phase = p;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = pi->phase_of[i];
        if (p != PTX_PHASE_NONE && pi->phases[p].next != PTX_PHASE_NONE)
            pi->next_length[i] = pi->phases[pi->phases[p].next].length;
    }
    return pi;
}

void ptx_phase_info_free(ptx_phase_info *pi)
{
    if (!pi)
        return;
    g_free(pi->phase_of);
    g_free(pi->distance);
    g_free(pi->next_length);
    g_free(pi->latency);
    g_free(pi->is_long);
    g_free(pi->phases);
    g_free(pi);
}
