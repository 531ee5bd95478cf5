/* frontend/cfg.c — basic blocks, CFG, dominators, immediate post-dominators
 * (SIMT reconvergence points) and natural loops of one function.
 *
 * Successor order: the branch targets first (in .branchtargets order for
 * brx), then the fall-through or the virtual exit; duplicates are dropped.
 * Predecessor lists are in ascending block order. */
#include "frontend/cfg.h"

#include "frontend/print.h"
#include "isa/opcodes.h"

#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(ptx-cfg-error-quark, ptx_cfg_error)

/* The public struct comes first so a ptx_cfg* is also a cfg_impl*. */
typedef struct cfg_impl {
    ptx_cfg pub;
    uint32_t *loop_of; /* block -> innermost loop index, NONE */
} cfg_impl;

/* ------------------------------------------------------------ helpers */

static GArray *u32_array(void)
{
    return g_array_new(FALSE, FALSE, sizeof(uint32_t));
}

static uint32_t u32_at(const GArray *a, guint i)
{
    return g_array_index(a, uint32_t, i);
}

static bool u32_has(const GArray *a, uint32_t v)
{
    for (guint i = 0; i < a->len; i++)
        if (u32_at(a, i) == v)
            return true;
    return false;
}

static void u32_add_unique(GArray *a, uint32_t v)
{
    if (!u32_has(a, v))
        g_array_append_val(a, v);
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void u32_sort(GArray *a)
{
    if (a->len > 1)
        qsort(a->data, a->len, sizeof(uint32_t), u32_cmp);
}

bool ptx_instr_is_branch(const ptx_instr *in)
{
    return ptx_opcode_has(in->op, PTX_OPF_BRANCH);
}

/* Instructions after which control does not simply fall through. */
static bool ends_block(const ptx_instr *in)
{
    return ptx_opcode_has(in->op, PTX_OPF_ENDS_BLOCK);
}

/* The operand where a branch names its targets: the row's 'l' role. */
static unsigned target_operand(const ptx_instr *in)
{
    unsigned i = 0;
    for (const char *p = ptx_opcode_info((ptx_opcode)in->op)->shape; *p && *p != 'l'; p++)
        if (*p != '?' && *p != '+')
            i++;
    return i;
}

static void set_error(GError **err, const ptx_module *m, const ptx_instr *in,
                      const char *msg)
{
    g_set_error(err, PTX_CFG_ERROR, PTX_CFG_ERROR_TARGET, "%s:%u:%u: error: %s",
                m->source_name ? m->source_name : "<input>", in->loc.line, in->loc.col,
                msg);
}

/* Block id an instruction index leads to: index n (a label after the last
 * instruction) is the virtual exit. */
static uint32_t block_at(const ptx_cfg *cfg, uint32_t instr)
{
    return instr >= cfg->func->instrs->len ? cfg->nblocks : cfg->block_of[instr];
}

/* Resolves a label operand of this function to its instruction index. */
static bool label_target(const ptx_module *m, const ptx_func *f, int32_t sym,
                         uint32_t *instr)
{
    if (sym < 0 || (guint)sym >= m->syms->len)
        return false;
    const ptx_symbol *s = ptx_module_sym(m, sym);
    int32_t fidx = ptx_module_sym(m, f->sym)->index;
    if (s->kind != PTX_SYM_LABEL || s->index < 0 || s->func != fidx ||
        (guint)s->index > f->instrs->len)
        return false;
    *instr = (uint32_t)s->index;
    return true;
}

/* Adds the edges leaving block b (whose last instruction is `in`). */
static bool block_edges(ptx_cfg *cfg, const ptx_module *m, uint32_t b, GError **err)
{
    const ptx_func *f = cfg->func;
    const ptx_block *blk = &cfg->blocks[b];
    const ptx_instr *in = ptx_func_instr(f, blk->end - 1);
    GArray *succs = blk->succs;
    uint32_t next = b + 1; /* fall-through; b + 1 == nblocks is the exit */
    bool falls = true;
    uint32_t t;
    unsigned fl = ptx_opcode_flags(in->op), k = target_operand(in);

    if ((fl & PTX_OPF_BRANCH) && !(fl & PTX_OPF_BRANCH_LIST)) {
        const ptx_operand *o = ptx_instr_opnd(f, in, k);
        if (in->nopnds <= k || o->kind != PTX_OPND_SYM || !label_target(m, f, o->id, &t)) {
            set_error(err, m, in, "bra target is not a label of this function");
            return false;
        }
        u32_add_unique(succs, block_at(cfg, t));
        falls = in->guard >= 0;
    } else if (fl & PTX_OPF_BRANCH) {
        const ptx_operand *o = ptx_instr_opnd(f, in, k);
        const ptx_symbol *s = in->nopnds > k && o->kind == PTX_OPND_SYM
                              ? ptx_module_sym(m, o->id) : NULL;
        if (!s || s->kind != PTX_SYM_BRANCHTARGETS || s->index < 0 ||
            (guint)s->index >= f->targets->len) {
            set_error(err, m, in, "brx.idx needs a .branchtargets list of this function");
            return false;
        }
        const ptx_targets *tl = &g_array_index(f->targets, ptx_targets, s->index);
        for (guint i = 0; i < tl->syms->len; i++) {
            if (!label_target(m, f, g_array_index(tl->syms, int32_t, i), &t)) {
                set_error(err, m, in, "a .branchtargets entry is not a label of this function");
                return false;
            }
            u32_add_unique(succs, block_at(cfg, t));
        }
        falls = in->guard >= 0;
    } else if (fl & PTX_OPF_LEAVE) {
        u32_add_unique(succs, cfg->nblocks);
        falls = in->guard >= 0;
    }
    if (falls)
        u32_add_unique(succs, next);
    return true;
}

/* ---------------------------------------------------------- dominators */

/* Reverse postorder of the nodes reachable from `root`, following successors
 * (or predecessors when `reverse`).  Fills order[0..count) and num[node]
 * (NONE for nodes not reached); returns count. */
static uint32_t rev_postorder(const ptx_cfg *cfg, uint32_t root, bool reverse,
                              uint32_t *order, uint32_t *num)
{
    uint32_t n = cfg->nblocks + 1;
    uint32_t *stack = g_new(uint32_t, n), *edge = g_new0(uint32_t, n);
    bool *seen = g_new0(bool, n);
    uint32_t sp = 0, post = n; /* postorder written backwards = RPO */
    for (uint32_t i = 0; i < n; i++)
        num[i] = PTX_CFG_NONE;
    stack[sp++] = root;
    seen[root] = true;
    while (sp) {
        uint32_t v = stack[sp - 1];
        const GArray *next = reverse ? cfg->blocks[v].preds : cfg->blocks[v].succs;
        if (edge[v] < next->len) {
            uint32_t w = u32_at(next, edge[v]++);
            if (!seen[w]) {
                seen[w] = true;
                stack[sp++] = w;
            }
        } else {
            order[--post] = v;
            sp--;
        }
    }
    uint32_t count = n - post;
    memmove(order, order + post, count * sizeof(uint32_t));
    for (uint32_t i = 0; i < count; i++)
        num[order[i]] = i;
    g_free(stack);
    g_free(edge);
    g_free(seen);
    return count;
}

/* Cooper, Harvey & Kennedy, "A Simple, Fast Dominance Algorithm": iterate
 * idom over reverse postorder until nothing changes.  With `reverse` it runs
 * on the reversed graph and yields immediate post-dominators. */
static void dominators(const ptx_cfg *cfg, uint32_t root, bool reverse, uint32_t *dom)
{
    uint32_t n = cfg->nblocks + 1;
    uint32_t *order = g_new(uint32_t, n), *num = g_new(uint32_t, n);
    uint32_t count = rev_postorder(cfg, root, reverse, order, num);
    for (uint32_t i = 0; i < n; i++)
        dom[i] = PTX_CFG_NONE;
    dom[root] = root;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 1; i < count; i++) {
            uint32_t b = order[i];
            const GArray *in = reverse ? cfg->blocks[b].succs : cfg->blocks[b].preds;
            uint32_t nd = PTX_CFG_NONE;
            for (guint k = 0; k < in->len; k++) {
                uint32_t p = u32_at(in, k);
                if (num[p] == PTX_CFG_NONE || dom[p] == PTX_CFG_NONE)
                    continue; /* not reached yet, or not reachable at all */
                if (nd == PTX_CFG_NONE) {
                    nd = p;
                    continue;
                }
                uint32_t a = p, c = nd; /* intersect: walk up to the common ancestor */
                while (a != c) {
                    while (num[a] > num[c])
                        a = dom[a];
                    while (num[c] > num[a])
                        c = dom[c];
                }
                nd = a;
            }
            if (dom[b] != nd) {
                dom[b] = nd;
                changed = true;
            }
        }
    }
    dom[root] = PTX_CFG_NONE;
    g_free(order);
    g_free(num);
}

static bool tree_dominates(const uint32_t *dom, uint32_t a, uint32_t b)
{
    for (uint32_t x = b; x != PTX_CFG_NONE; x = dom[x])
        if (x == a)
            return true;
    return false;
}

bool ptx_cfg_dominates(const ptx_cfg *cfg, uint32_t a, uint32_t b)
{
    if (a > cfg->nblocks || b > cfg->nblocks)
        return false;
    return tree_dominates(cfg->idom, a, b);
}

bool ptx_cfg_postdominates(const ptx_cfg *cfg, uint32_t a, uint32_t b)
{
    if (a > cfg->nblocks || b > cfg->nblocks)
        return false;
    return tree_dominates(cfg->ipdom, a, b);
}

/* --------------------------------------------------------------- loops */

static bool reachable(const ptx_cfg *cfg, uint32_t b)
{
    return b == 0 || cfg->idom[b] != PTX_CFG_NONE;
}

/* The natural loop of header h: its latches are the reachable predecessors
 * that h dominates (the sources of back edges). */
static bool natural_loop(const ptx_cfg *cfg, uint32_t h, ptx_loop *loop)
{
    const GArray *preds = cfg->blocks[h].preds;
    GArray *latches = NULL;
    for (guint i = 0; i < preds->len; i++) {
        uint32_t p = u32_at(preds, i);
        if (reachable(cfg, p) && ptx_cfg_dominates(cfg, h, p)) {
            if (!latches)
                latches = u32_array();
            g_array_append_val(latches, p);
        }
    }
    if (!latches)
        return false;

    /* body: everything that reaches a latch backwards without passing h;
     * unreachable predecessors are left out (h does not dominate them) */
    uint32_t n = cfg->nblocks + 1;
    bool *in = g_new0(bool, n);
    uint32_t *work = g_new(uint32_t, n);
    uint32_t sp = 0;
    in[h] = true;
    for (guint i = 0; i < latches->len; i++) {
        uint32_t l = u32_at(latches, i);
        if (!in[l]) {
            in[l] = true;
            work[sp++] = l;
        }
    }
    while (sp) {
        uint32_t v = work[--sp];
        const GArray *pv = cfg->blocks[v].preds;
        for (guint i = 0; i < pv->len; i++) {
            uint32_t p = u32_at(pv, i);
            if (!in[p] && reachable(cfg, p)) {
                in[p] = true;
                work[sp++] = p;
            }
        }
    }
    loop->header = h;
    loop->latches = latches;
    loop->blocks = u32_array();
    loop->exits = u32_array();
    g_array_append_val(loop->blocks, h);
    for (uint32_t b = 0; b < n; b++) {
        if (!in[b])
            continue;
        if (b != h)
            g_array_append_val(loop->blocks, b);
        const GArray *s = cfg->blocks[b].succs;
        for (guint i = 0; i < s->len; i++)
            if (!in[u32_at(s, i)])
                u32_add_unique(loop->exits, u32_at(s, i));
    }
    u32_sort(loop->exits);
    loop->depth = 1;
    loop->parent = PTX_CFG_NONE;
    g_free(in);
    g_free(work);
    return true;
}

/* Appends loop i and then its children (by header) to `order`: a preorder of
 * the loop tree, so every loop comes after the loops enclosing it. */
static void loop_preorder(const GArray *loops, uint32_t i, GArray *order)
{
    g_array_append_val(order, i);
    for (guint k = 0; k < loops->len; k++)
        if (g_array_index(loops, ptx_loop, k).parent == i)
            loop_preorder(loops, k, order);
}

static void find_loops(cfg_impl *impl)
{
    ptx_cfg *cfg = &impl->pub;
    GArray *found = g_array_new(FALSE, FALSE, sizeof(ptx_loop));
    for (uint32_t h = 0; h < cfg->nblocks; h++) {
        ptx_loop l;
        if (reachable(cfg, h) && natural_loop(cfg, h, &l))
            g_array_append_val(found, l);
    }
    /* Natural loops with distinct headers are nested or disjoint; the parent
     * is the smallest other loop holding the header. */
    for (guint i = 0; i < found->len; i++) {
        ptx_loop *li = &g_array_index(found, ptx_loop, i);
        guint best = G_MAXUINT;
        for (guint j = 0; j < found->len; j++) {
            const ptx_loop *lj = &g_array_index(found, ptx_loop, j);
            if (j == i || !u32_has(lj->blocks, li->header))
                continue;
            if (best == G_MAXUINT ||
                lj->blocks->len < g_array_index(found, ptx_loop, best).blocks->len)
                best = j;
        }
        li->parent = best == G_MAXUINT ? PTX_CFG_NONE : best;
    }
    GArray *order = u32_array();
    for (guint i = 0; i < found->len; i++)
        if (g_array_index(found, ptx_loop, i).parent == PTX_CFG_NONE)
            loop_preorder(found, i, order);
    uint32_t *new_index = g_new(uint32_t, found->len + 1);
    for (guint k = 0; k < order->len; k++)
        new_index[u32_at(order, k)] = k;
    for (guint k = 0; k < order->len; k++) {
        ptx_loop l = g_array_index(found, ptx_loop, u32_at(order, k));
        if (l.parent != PTX_CFG_NONE) {
            l.parent = new_index[l.parent];
            l.depth = g_array_index(cfg->loops, ptx_loop, l.parent).depth + 1;
        }
        g_array_append_val(cfg->loops, l);
    }
    /* preorder: inner loops are written last, so the innermost one wins */
    for (guint k = 0; k < cfg->loops->len; k++) {
        const ptx_loop *l = &g_array_index(cfg->loops, ptx_loop, k);
        for (guint i = 0; i < l->blocks->len; i++)
            impl->loop_of[u32_at(l->blocks, i)] = k;
    }
    g_free(new_index);
    g_array_free(order, TRUE);
    g_array_free(found, TRUE);
}

uint32_t ptx_cfg_loop_of(const ptx_cfg *cfg, uint32_t b)
{
    if (b > cfg->nblocks)
        return PTX_CFG_NONE;
    return ((const cfg_impl *)cfg)->loop_of[b];
}

bool ptx_cfg_loop_contains(const ptx_cfg *cfg, uint32_t loop, uint32_t b)
{
    for (uint32_t l = ptx_cfg_loop_of(cfg, b); l != PTX_CFG_NONE;
         l = g_array_index(cfg->loops, ptx_loop, l).parent)
        if (l == loop)
            return true;
    return false;
}

/* --------------------------------------------------------------- build */

void ptx_cfg_free(ptx_cfg *cfg)
{
    if (!cfg)
        return;
    cfg_impl *impl = (cfg_impl *)cfg;
    for (uint32_t b = 0; b <= cfg->nblocks; b++) {
        g_array_free(cfg->blocks[b].succs, TRUE);
        g_array_free(cfg->blocks[b].preds, TRUE);
    }
    for (guint i = 0; i < cfg->loops->len; i++) {
        ptx_loop *l = &g_array_index(cfg->loops, ptx_loop, i);
        g_array_free(l->blocks, TRUE);
        g_array_free(l->latches, TRUE);
        g_array_free(l->exits, TRUE);
    }
    g_array_free(cfg->loops, TRUE);
    g_free(cfg->blocks);
    g_free(cfg->block_of);
    g_free(cfg->idom);
    g_free(cfg->ipdom);
    g_free(cfg->reconv);
    g_free(impl->loop_of);
    g_free(impl);
}

ptx_cfg *ptx_cfg_build(const ptx_module *m, const ptx_func *f, GError **err)
{
    uint32_t n = f->instrs->len;
    cfg_impl *impl = g_new0(cfg_impl, 1);
    ptx_cfg *cfg = &impl->pub;
    cfg->func = f;
    cfg->loops = g_array_new(FALSE, FALSE, sizeof(ptx_loop));

    /* leaders: the first instruction, every label, whatever follows a
     * control transfer (calls return, so they do not end blocks) */
    bool *leader = g_new0(bool, n + 1);
    if (n)
        leader[0] = true;
    for (guint i = 0; i < f->labels->len; i++) {
        const ptx_symbol *s = ptx_module_sym(m, g_array_index(f->labels, int32_t, i));
        if (s->kind == PTX_SYM_LABEL && s->index >= 0 && (uint32_t)s->index < n)
            leader[s->index] = true;
    }
    for (uint32_t i = 0; i < n; i++)
        if (ends_block(ptx_func_instr(f, i)))
            leader[i + 1] = true;
    for (uint32_t i = 0; i < n; i++)
        cfg->nblocks += leader[i];

    cfg->blocks = g_new0(ptx_block, cfg->nblocks + 1);
    cfg->block_of = g_new(uint32_t, n ? n : 1);
    for (uint32_t i = 0, b = 0; i < n; i++) {
        if (leader[i] && i) {
            cfg->blocks[b].end = i;
            b++;
        }
        if (leader[i])
            cfg->blocks[b].first = i;
        cfg->block_of[i] = b;
    }
    if (cfg->nblocks)
        cfg->blocks[cfg->nblocks - 1].end = n;
    cfg->blocks[cfg->nblocks].first = cfg->blocks[cfg->nblocks].end = n;
    g_free(leader);
    for (uint32_t b = 0; b <= cfg->nblocks; b++) {
        cfg->blocks[b].succs = u32_array();
        cfg->blocks[b].preds = u32_array();
    }
    cfg->idom = g_new(uint32_t, cfg->nblocks + 1);
    cfg->ipdom = g_new(uint32_t, cfg->nblocks + 1);
    cfg->reconv = g_new(uint32_t, n ? n : 1);
    impl->loop_of = g_new(uint32_t, cfg->nblocks + 1);
    for (uint32_t b = 0; b <= cfg->nblocks; b++)
        impl->loop_of[b] = PTX_CFG_NONE;

    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        if (!block_edges(cfg, m, b, err)) {
            ptx_cfg_free(cfg);
            return NULL;
        }
    }
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        const GArray *s = cfg->blocks[b].succs;
        for (guint i = 0; i < s->len; i++)
            g_array_append_val(cfg->blocks[u32_at(s, i)].preds, b);
    }

    if (cfg->nblocks) {
        dominators(cfg, 0, false, cfg->idom);
    } else {
        cfg->idom[0] = PTX_CFG_NONE;
    }
    /* Blocks that cannot reach the exit (a loop with no way out) are not on
     * the reverse graph and keep ipdom NONE; a block that can reach it gets
     * its ipdom from the successors that can.  Branches in NONE blocks get
     * the function end (instrs->len) as reconvergence point below, so for
     * the executor such a divergence reconverges only at function end, i.e.
     * never while threads stay in the loop: the SIMT stack entry is popped
     * when its threads have all exited, and the threads parked under it
     * wait (as on pre-Volta hardware); that is not an error. */
    dominators(cfg, cfg->nblocks, true, cfg->ipdom);

    for (uint32_t i = 0; i < n; i++) {
        cfg->reconv[i] = PTX_CFG_NONE;
        if (!ptx_instr_is_branch(ptx_func_instr(f, i)))
            continue;
        uint32_t p = cfg->ipdom[cfg->block_of[i]];
        cfg->reconv[i] = p == PTX_CFG_NONE ? n : cfg->blocks[p].first;
    }
    find_loops(impl);
    return cfg;
}

/* ------------------------------------------------------------ printing */

/* Labels defined at instruction i, space-separated ("" when none). */
static void labels_at(GString *out, const ptx_module *m, const ptx_func *f, uint32_t i,
                      const char *sep)
{
    bool first = true;
    for (guint k = 0; k < f->labels->len; k++) {
        const ptx_symbol *s = ptx_module_sym(m, g_array_index(f->labels, int32_t, k));
        if (s->kind == PTX_SYM_LABEL && s->index >= 0 && (uint32_t)s->index == i) {
            g_string_append_printf(out, "%s%s", first ? "" : sep, s->name);
            first = false;
        }
    }
}

static void block_name(GString *out, const ptx_cfg *cfg, uint32_t b)
{
    if (b == PTX_CFG_NONE)
        g_string_append_c(out, '-');
    else if (b == cfg->nblocks)
        g_string_append(out, "exit");
    else
        g_string_append_printf(out, "B%u", b);
}

static void block_list(GString *out, const ptx_cfg *cfg, const GArray *a)
{
    if (!a->len)
        g_string_append(out, " -");
    for (guint i = 0; i < a->len; i++) {
        g_string_append_c(out, ' ');
        block_name(out, cfg, u32_at(a, i));
    }
}

/* "B1 [13,19) $L__BB0_1": id, instruction range, labels at its start. */
static void block_title(GString *out, const ptx_module *m, const ptx_cfg *cfg, uint32_t b)
{
    const ptx_block *blk = &cfg->blocks[b];
    g_string_append_printf(out, "B%u [%u,%u)", b, blk->first, blk->end);
    gsize len = out->len;
    g_string_append_c(out, ' ');
    labels_at(out, m, cfg->func, blk->first, " ");
    if (out->len == len + 1)
        g_string_truncate(out, len);
}

/* "24 ($L__BB0_3)", "26 (B4)", "exit". */
static void point_name(GString *out, const ptx_module *m, const ptx_cfg *cfg, uint32_t i)
{
    if (i >= cfg->func->instrs->len) {
        g_string_append(out, "exit");
        return;
    }
    g_string_append_printf(out, "%u (", i);
    gsize len = out->len;
    labels_at(out, m, cfg->func, i, " ");
    if (out->len == len)
        block_name(out, cfg, cfg->block_of[i]);
    g_string_append_c(out, ')');
}

void ptx_cfg_print(GString *out, const ptx_module *m, const ptx_cfg *cfg)
{
    const ptx_func *f = cfg->func;
    g_string_append_printf(out, "%s %s: %u instructions, %u blocks, %u loop%s\n",
                           f->is_entry ? ".entry" : ".func", f->name, f->instrs->len,
                           cfg->nblocks, cfg->loops->len, cfg->loops->len == 1 ? "" : "s");
    for (uint32_t b = 0; b <= cfg->nblocks; b++) {
        const ptx_block *blk = &cfg->blocks[b];
        g_string_append(out, "  ");
        if (b < cfg->nblocks) {
            block_title(out, m, cfg, b);
            g_string_append(out, ": succ");
            block_list(out, cfg, blk->succs);
            g_string_append(out, "; pred");
        } else {
            g_string_append(out, "exit: pred");
        }
        block_list(out, cfg, blk->preds);
        g_string_append(out, "; idom ");
        block_name(out, cfg, cfg->idom[b]);
        g_string_append(out, "; ipdom ");
        block_name(out, cfg, cfg->ipdom[b]);
        if (b < cfg->nblocks && cfg->ipdom[b] == PTX_CFG_NONE)
            g_string_append(out, " (cannot reach exit)");
        if (b != 0 && b < cfg->nblocks && cfg->idom[b] == PTX_CFG_NONE)
            g_string_append(out, " (unreachable)");
        g_string_append_c(out, '\n');
    }
    bool header = false;
    for (uint32_t i = 0; i < f->instrs->len; i++) {
        if (cfg->reconv[i] == PTX_CFG_NONE)
            continue;
        if (!header)
            g_string_append(out, "  branches:\n");
        header = true;
        g_string_append_printf(out, "    %u: ", i);
        ptx_print_instr(out, m, f, ptx_func_instr(f, i));
        g_string_append(out, "  reconverge at ");
        point_name(out, m, cfg, cfg->reconv[i]);
        if (cfg->ipdom[cfg->block_of[i]] == PTX_CFG_NONE)
            g_string_append(out, " [no post-dominator]");
        g_string_append_c(out, '\n');
    }
    if (cfg->loops->len)
        g_string_append(out, "  loops:\n");
    for (guint k = 0; k < cfg->loops->len; k++) {
        const ptx_loop *l = &g_array_index(cfg->loops, ptx_loop, k);
        g_string_append_printf(out, "    L%u: header B%u", k, l->header);
        gsize len = out->len;
        g_string_append(out, " (");
        labels_at(out, m, f, cfg->blocks[l->header].first, " ");
        if (out->len == len + 2)
            g_string_truncate(out, len);
        else
            g_string_append_c(out, ')');
        g_string_append_printf(out, "; depth %u; parent ", l->depth);
        if (l->parent == PTX_CFG_NONE)
            g_string_append_c(out, '-');
        else
            g_string_append_printf(out, "L%u", l->parent);
        g_string_append(out, "; latches");
        block_list(out, cfg, l->latches);
        g_string_append(out, "; exits");
        block_list(out, cfg, l->exits);
        g_string_append(out, "; blocks");
        block_list(out, cfg, l->blocks);
        g_string_append_c(out, '\n');
    }
}

/* Text inside a dot "..." string. */
static void dot_escape(GString *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            g_string_append_c(out, '\\');
        g_string_append_c(out, *s);
    }
}

void ptx_cfg_print_dot_subgraph(GString *out, const ptx_module *m, const ptx_cfg *cfg,
                                const char *prefix)
{
    const ptx_func *f = cfg->func;
    GString *t = g_string_new(NULL);
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        const ptx_block *blk = &cfg->blocks[b];
        g_string_assign(t, "");
        block_title(t, m, cfg, b);
        g_string_append(t, "  ipdom ");
        block_name(t, cfg, cfg->ipdom[b]);
        g_string_append_printf(out, "    \"%sB%u\" [label=\"", prefix, b);
        dot_escape(out, t->str);
        g_string_append(out, "\\l");
        for (uint32_t i = blk->first; i < blk->end; i++) {
            g_string_assign(t, "");
            g_string_append_printf(t, "%u: ", i);
            ptx_print_instr(t, m, f, ptx_func_instr(f, i));
            dot_escape(out, t->str);
            g_string_append(out, "\\l");
        }
        g_string_append(out, "\"];\n");
    }
    g_string_append_printf(out, "    \"%sexit\" [label=\"exit\", shape=ellipse];\n", prefix);
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        const GArray *s = cfg->blocks[b].succs;
        for (guint i = 0; i < s->len; i++) {
            uint32_t to = u32_at(s, i);
            g_string_append_printf(out, "    \"%sB%u\" -> \"%s", prefix, b, prefix);
            block_name(out, cfg, to);
            g_string_append_c(out, '"');
            if (reachable(cfg, b) && ptx_cfg_dominates(cfg, to, b))
                g_string_append(out, " [color=blue, style=bold]"); /* back edge */
            g_string_append(out, ";\n");
        }
    }
    g_string_free(t, TRUE);
}

void ptx_cfg_print_dot(GString *out, const ptx_module *m, const ptx_cfg *cfg)
{
    g_string_append(out, "digraph \"");
    dot_escape(out, cfg->func->name);
    g_string_append(out, "\" {\n    node [shape=box, fontname=monospace];\n");
    ptx_cfg_print_dot_subgraph(out, m, cfg, "");
    g_string_append(out, "}\n");
}
