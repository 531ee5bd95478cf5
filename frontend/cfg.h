/* frontend/cfg.h — basic blocks, control-flow graph, dominators, immediate
 * post-dominators (reconvergence points) and natural loops of one function.
 *
 * Blocks are numbered in instruction order; block `nblocks` is a virtual
 * exit that every ret/exit/trap (and falling off the end) leads to, so a
 * function with several exits still has one post-dominator tree. */
#ifndef PTXEMU_FRONTEND_CFG_H
#define PTXEMU_FRONTEND_CFG_H

#include "frontend/ir.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#define PTX_CFG_NONE UINT32_MAX

/* Errors of ptx_cfg_build (an unresolvable branch target). */
#define PTX_CFG_ERROR (ptx_cfg_error_quark())
GQuark ptx_cfg_error_quark(void);
enum { PTX_CFG_ERROR_TARGET = 1 };

typedef struct ptx_block {
    uint32_t first;  /* first instruction index */
    uint32_t end;    /* one past the last instruction */
    GArray *succs;   /* uint32_t block ids (the virtual exit included) */
    GArray *preds;   /* uint32_t block ids */
} ptx_block;

typedef struct ptx_loop {
    uint32_t header;     /* block id */
    GArray *blocks;      /* uint32_t block ids of the loop body, header first */
    GArray *latches;     /* uint32_t: sources of back edges to the header */
    GArray *exits;       /* uint32_t: blocks outside the loop reached from it */
    uint32_t depth;      /* 1 = outermost */
    uint32_t parent;     /* index of the enclosing loop, PTX_CFG_NONE */
} ptx_loop;

typedef struct ptx_cfg {
    const ptx_func *func;
    uint32_t nblocks;        /* real blocks; id nblocks is the virtual exit */
    ptx_block *blocks;       /* nblocks + 1 entries */
    uint32_t *block_of;      /* instruction index -> block id */
    uint32_t *idom;          /* block -> immediate dominator (entry: NONE) */
    uint32_t *ipdom;         /* block -> immediate post-dominator (exit: NONE);
                                NONE also for blocks that cannot reach the exit */
    uint32_t *reconv;        /* instruction -> reconvergence instruction index of
                                a branch (first instruction of the branch block's
                                ipdom), func->instrs->len when that is the exit
                                or when the block cannot reach the exit at all
                                (an infinite loop: lanes meet only at the end),
                                NONE for non-branches */
    GArray *loops;           /* ptx_loop, outer loops before inner ones */
} ptx_cfg;

/* Builds the CFG of a function with a body.  Returns NULL and sets *err
 * (with file:line:col) when a branch target cannot be resolved. */
ptx_cfg *ptx_cfg_build(const ptx_module *m, const ptx_func *f, GError **err);
void ptx_cfg_free(ptx_cfg *cfg);

bool ptx_cfg_dominates(const ptx_cfg *cfg, uint32_t a, uint32_t b);
bool ptx_cfg_postdominates(const ptx_cfg *cfg, uint32_t a, uint32_t b);
/* Innermost loop containing block b, or PTX_CFG_NONE. */
uint32_t ptx_cfg_loop_of(const ptx_cfg *cfg, uint32_t b);
bool ptx_cfg_loop_contains(const ptx_cfg *cfg, uint32_t loop, uint32_t b);
/* Is the instruction a branch whose edges leave its block (bra, brx)? */
bool ptx_instr_is_branch(const ptx_instr *in);

/* Text and Graphviz renderings (`ptxemu cfg`). */
void ptx_cfg_print(GString *out, const ptx_module *m, const ptx_cfg *cfg);
void ptx_cfg_print_dot(GString *out, const ptx_module *m, const ptx_cfg *cfg);
/* The nodes and edges of ptx_cfg_print_dot without the enclosing digraph,
 * node ids prefixed with `prefix`, to put several functions in one graph. */
void ptx_cfg_print_dot_subgraph(GString *out, const ptx_module *m, const ptx_cfg *cfg,
                                const char *prefix);

#endif
