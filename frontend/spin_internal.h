/* frontend/spin_internal.h — analysis context and evidence helpers shared with spin_evidence.c. */
#ifndef PTXEMU_FRONTEND_SPIN_INTERNAL_H
#define PTXEMU_FRONTEND_SPIN_INTERNAL_H

#include "frontend/spin.h"

#include <stdbool.h>
#include <stdint.h>

/* Result flag of the operand walk beyond the public PTX_SPIN_OPND_* bits. */
#define OPND_PROGRESS (1u << 16)

typedef struct spin_ctx {
    const ptx_module *m;
    const ptx_cfg *cfg;
    const ptx_func *f;
    uint32_t nregs;
    GArray **defs;        /* per register: uint32_t instrs writing it, or NULL */
    bool *in_loop;        /* per block: part of the loop being examined */
    const ptx_loop *loop;
    uint32_t *mark;       /* per register: DFS stamp */
    uint32_t stamp;
    uint32_t *first_origin; /* per PTX_SPIN_OPND bit: instr, for reasons */
} spin_ctx;

static inline uint32_t u32_at(const GArray *a, guint i)
{
    return g_array_index(a, uint32_t, i);
}

static inline bool instr_in_loop(const spin_ctx *c, uint32_t i)
{
    uint32_t b = c->cfg->block_of[i];
    return b < c->cfg->nblocks && c->in_loop[b];
}

static inline const ptx_instr *instr(const spin_ctx *c, uint32_t i)
{
    return ptx_func_instr(c->f, i);
}

/* spin_evidence.c */
unsigned spin_memory_origin(const ptx_instr *in);
unsigned spin_operand_leaves(const ptx_func *f, const ptx_operand *o, GArray *regs);
unsigned spin_value_sources(const spin_ctx *c, const ptx_instr *in, GArray *regs);
unsigned spin_classify_operand(spin_ctx *c, const ptx_operand *o);
void spin_setps_of_pred(spin_ctx *c, int32_t p, GArray *setps);
void spin_loop_evidence(spin_ctx *c, ptx_spin_loop *sl);

#endif
