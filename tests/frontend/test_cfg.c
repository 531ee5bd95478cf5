/* tests/frontend/test_cfg.c — basic blocks, edges, dominators, immediate
 * post-dominators (reconvergence points) and natural loops.  Every expected
 * value was worked out by hand from the PTX text (instruction numbers are
 * written next to the instructions in the small programs below).
 *
 * Long because each case is a hand-drawn CFG with every expected edge,
 * dominator and loop written out; splitting would scatter the fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/cfg.h"
#include "frontend/parser.h"
#include "tests/support/test_util.h"

#include <string.h>

#define NONE PTX_CFG_NONE

/* ------------------------------------------------------------ helpers */

typedef struct fixture {
    ptx_module *m;
    const ptx_func *f;
    ptx_cfg *cfg;
} fixture;

/* Parses a module and builds the CFG of the function `name`. */
static fixture load_text(const char *text, const char *name)
{
    fixture fx = {0};
    GError *err = NULL;
    fx.m = ptx_parse_string(text, strlen(text), "test.ptx", &err);
    if (!fx.m) {
        fail_msg("parse failed: %s", err->message);
    }
    int32_t fi = ptx_module_find_func(fx.m, name);
    assert_true(fi >= 0);
    fx.f = ptx_module_func(fx.m, (uint32_t)fi);
    fx.cfg = ptx_cfg_build(fx.m, fx.f, &err);
    if (!fx.cfg) {
        fail_msg("cfg failed: %s", err->message);
    }
    return fx;
}

static fixture load_file(const char *relative, const char *name)
{
    gsize len;
    char *text = test_read_file(relative, &len);
    fixture fx = load_text(text, name);
    g_free(text);
    return fx;
}

static void unload(fixture *fx)
{
    ptx_cfg_free(fx->cfg);
    ptx_module_free(fx->m);
}

/* Wraps a kernel body in a module header. */
static char *kernel(const char *name, const char *body)
{
    return g_strdup_printf(".version 8.0\n.target sm_80\n.address_size 64\n"
                           ".visible .entry %s()\n{\n"
                           "\t.reg .pred %%p<8>;\n\t.reg .b32 %%r<8>;\n%s}\n",
                           name, body);
}

static fixture load_kernel(const char *body)
{
    char *text = kernel("k", body);
    fixture fx = load_text(text, "k");
    g_free(text);
    return fx;
}

/* Asserts an id list equals the values given (count first). */
static void check_list(const GArray *a, unsigned n, ...)
{
    va_list ap;
    va_start(ap, n);
    assert_int_equal(a->len, n);
    for (unsigned i = 0; i < n; i++) {
        unsigned want = va_arg(ap, unsigned);
        assert_int_equal(g_array_index(a, uint32_t, i), want);
    }
    va_end(ap);
}

static void check_block(const ptx_cfg *cfg, uint32_t b, uint32_t first, uint32_t end)
{
    assert_int_equal(cfg->blocks[b].first, first);
    assert_int_equal(cfg->blocks[b].end, end);
    for (uint32_t i = first; i < end; i++)
        assert_int_equal(cfg->block_of[i], b);
}

/* Instruction index of a label of the fixture's function. */
static uint32_t label_index(const fixture *fx, const char *name)
{
    for (guint k = 0; k < fx->f->labels->len; k++) {
        const ptx_symbol *s = ptx_module_sym(fx->m, g_array_index(fx->f->labels, int32_t, k));
        if (strcmp(s->name, name) == 0)
            return (uint32_t)s->index;
    }
    fail_msg("no label %s", name);
    return NONE;
}

/* Name of the label at instruction i, or NULL. */
static const char *label_at(const fixture *fx, uint32_t i)
{
    for (guint k = 0; k < fx->f->labels->len; k++) {
        const ptx_symbol *s = ptx_module_sym(fx->m, g_array_index(fx->f->labels, int32_t, k));
        if (s->kind == PTX_SYM_LABEL && (uint32_t)s->index == i)
            return s->name;
    }
    return NULL;
}

static const ptx_loop *loop(const ptx_cfg *cfg, uint32_t i)
{
    assert_true(i < cfg->loops->len);
    return &g_array_index(cfg->loops, ptx_loop, i);
}

/* Only the listed instructions have a reconvergence point. */
static void check_branches(const fixture *fx, unsigned n, const uint32_t *instrs)
{
    for (uint32_t i = 0; i < fx->f->instrs->len; i++) {
        bool listed = false;
        for (unsigned k = 0; k < n; k++)
            listed = listed || instrs[k] == i;
        assert_int_equal(fx->cfg->reconv[i] != NONE, listed);
    }
}

/* ------------------------------------------------------ small programs */

static void test_diamond(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, %tid.x;\n"          /* 0 */
                             "\tsetp.eq.u32 %p1, %r1, 0;\n"      /* 1 */
                             "\t@%p1 bra ELSE;\n"                /* 2  B0 */
                             "\tadd.u32 %r2, %r1, 1;\n"          /* 3 */
                             "\tbra JOIN;\n"                     /* 4  B1 */
                             "ELSE:\n"
                             "\tadd.u32 %r2, %r1, 2;\n"          /* 5  B2 */
                             "JOIN:\n"
                             "\tmov.u32 %r3, %r2;\n"             /* 6 */
                             "\tret;\n");                        /* 7  B3 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 4);
    check_block(c, 0, 0, 3);
    check_block(c, 1, 3, 5);
    check_block(c, 2, 5, 6);
    check_block(c, 3, 6, 8);
    check_block(c, 4, 8, 8);
    check_list(c->blocks[0].succs, 2, 2, 1); /* taken first, then fall-through */
    check_list(c->blocks[1].succs, 1, 3);
    check_list(c->blocks[2].succs, 1, 3);
    check_list(c->blocks[3].succs, 1, 4);
    check_list(c->blocks[3].preds, 2, 1, 2);
    check_list(c->blocks[4].preds, 1, 3);
    check_list(c->blocks[0].preds, 0);
    assert_int_equal(c->idom[0], NONE);
    assert_int_equal(c->idom[1], 0);
    assert_int_equal(c->idom[2], 0);
    assert_int_equal(c->idom[3], 0);
    assert_int_equal(c->idom[4], 3);
    assert_int_equal(c->ipdom[0], 3);
    assert_int_equal(c->ipdom[1], 3);
    assert_int_equal(c->ipdom[2], 3);
    assert_int_equal(c->ipdom[3], 4);
    assert_int_equal(c->ipdom[4], NONE);
    /* both the conditional and the jump over the else reconverge at JOIN */
    assert_int_equal(c->reconv[2], 6);
    assert_int_equal(c->reconv[4], 6);
    assert_int_equal(c->reconv[2], label_index(&fx, "JOIN"));
    check_branches(&fx, 2, (const uint32_t[]){2, 4});
    assert_true(ptx_cfg_dominates(c, 0, 3));
    assert_true(ptx_cfg_dominates(c, 3, 3));
    assert_false(ptx_cfg_dominates(c, 1, 3));
    assert_false(ptx_cfg_dominates(c, 2, 3));
    assert_true(ptx_cfg_postdominates(c, 3, 0));
    assert_true(ptx_cfg_postdominates(c, 4, 1));
    assert_false(ptx_cfg_postdominates(c, 1, 0));
    assert_int_equal(c->loops->len, 0);
    assert_int_equal(ptx_cfg_loop_of(c, 1), NONE);
    unload(&fx);
}

static void test_if_without_else(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, %tid.x;\n"          /* 0 */
                             "\tsetp.lt.u32 %p1, %r1, 4;\n"      /* 1 */
                             "\t@!%p1 bra DONE;\n"               /* 2  B0 */
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 3  B1 */
                             "DONE:\n"
                             "\tret;\n");                        /* 4  B2 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 3);
    check_block(c, 0, 0, 3);
    check_block(c, 1, 3, 4);
    check_block(c, 2, 4, 5);
    check_list(c->blocks[0].succs, 2, 2, 1);
    check_list(c->blocks[1].succs, 1, 2);
    check_list(c->blocks[2].preds, 2, 0, 1);
    assert_int_equal(c->idom[2], 0);
    assert_int_equal(c->ipdom[0], 2);
    assert_int_equal(c->ipdom[1], 2);
    assert_int_equal(c->reconv[2], 4);
    check_branches(&fx, 1, (const uint32_t[]){2});
    unload(&fx);
}

/* A branch to a label that follows the last instruction goes to the exit. */
static void test_label_at_end(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, %tid.x;\n"          /* 0 */
                             "\tsetp.lt.u32 %p1, %r1, 4;\n"      /* 1 */
                             "\t@%p1 bra END;\n"                 /* 2  B0 */
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 3  B1 */
                             "END:\n");
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 2);
    check_block(c, 0, 0, 3);
    check_block(c, 1, 3, 4);
    check_list(c->blocks[0].succs, 2, 2, 1);
    check_list(c->blocks[1].succs, 1, 2);
    check_list(c->blocks[2].preds, 2, 0, 1);
    assert_int_equal(c->ipdom[0], 2);
    assert_int_equal(c->reconv[2], 4); /* = instrs->len: the exit */
    unload(&fx);
}

static void test_loop_with_break(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, 0;\n"               /* 0  B0 */
                             "LOOP:\n"
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 1 */
                             "\tsetp.eq.u32 %p1, %r1, 7;\n"      /* 2 */
                             "\t@%p1 bra BREAK;\n"               /* 3  B1 */
                             "\tsetp.lt.u32 %p2, %r1, 100;\n"    /* 4 */
                             "\t@%p2 bra LOOP;\n"                /* 5  B2 */
                             "\tmov.u32 %r2, 1;\n"               /* 6 */
                             "\tbra DONE;\n"                     /* 7  B3 */
                             "BREAK:\n"
                             "\tmov.u32 %r2, 2;\n"               /* 8  B4 */
                             "DONE:\n"
                             "\tret;\n");                        /* 9  B5 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 6);
    check_block(c, 0, 0, 1);
    check_block(c, 1, 1, 4);
    check_block(c, 2, 4, 6);
    check_block(c, 3, 6, 8);
    check_block(c, 4, 8, 9);
    check_block(c, 5, 9, 10);
    check_list(c->blocks[1].succs, 2, 4, 2);
    check_list(c->blocks[2].succs, 2, 1, 3);
    check_list(c->blocks[1].preds, 2, 0, 2);
    check_list(c->blocks[5].preds, 2, 3, 4);
    assert_int_equal(c->idom[1], 0);
    assert_int_equal(c->idom[2], 1);
    assert_int_equal(c->idom[3], 2);
    assert_int_equal(c->idom[4], 1);
    assert_int_equal(c->idom[5], 1);
    /* the break leaves the loop from B1, the normal exit from B2: both
     * paths meet only at DONE */
    assert_int_equal(c->ipdom[1], 5);
    assert_int_equal(c->ipdom[2], 5);
    assert_int_equal(c->ipdom[3], 5);
    assert_int_equal(c->reconv[3], 9);
    assert_int_equal(c->reconv[5], 9);
    assert_int_equal(c->reconv[7], 9);
    check_branches(&fx, 3, (const uint32_t[]){3, 5, 7});

    assert_int_equal(c->loops->len, 1);
    const ptx_loop *l = loop(c, 0);
    assert_int_equal(l->header, 1);
    check_list(l->latches, 1, 2);
    check_list(l->blocks, 2, 1, 2);
    check_list(l->exits, 2, 3, 4);
    assert_int_equal(l->depth, 1);
    assert_int_equal(l->parent, NONE);
    assert_int_equal(ptx_cfg_loop_of(c, 2), 0);
    assert_int_equal(ptx_cfg_loop_of(c, 3), NONE);
    assert_true(ptx_cfg_loop_contains(c, 0, 1));
    assert_false(ptx_cfg_loop_contains(c, 0, 4));
    unload(&fx);
}

/* A `continue` gives the header a second back edge: one loop, two latches. */
static void test_loop_two_latches(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, 0;\n"               /* 0  B0 */
                             "HEAD:\n"
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 1 */
                             "\tand.b32 %r2, %r1, 1;\n"          /* 2 */
                             "\tsetp.eq.u32 %p1, %r2, 0;\n"      /* 3 */
                             "\t@%p1 bra HEAD;\n"                /* 4  B1 */
                             "\tsetp.lt.u32 %p2, %r1, 10;\n"     /* 5 */
                             "\t@%p2 bra HEAD;\n"                /* 6  B2 */
                             "\tret;\n");                        /* 7  B3 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 4);
    check_block(c, 1, 1, 5);
    check_block(c, 2, 5, 7);
    check_list(c->blocks[1].preds, 3, 0, 1, 2);
    assert_int_equal(c->loops->len, 1);
    const ptx_loop *l = loop(c, 0);
    assert_int_equal(l->header, 1);
    check_list(l->latches, 2, 1, 2);
    check_list(l->blocks, 2, 1, 2);
    check_list(l->exits, 1, 3);
    assert_int_equal(c->ipdom[1], 2);
    assert_int_equal(c->reconv[4], 5);
    assert_int_equal(c->reconv[6], 7);
    unload(&fx);
}

static void test_nested_loops(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, 0;\n"               /* 0  B0 */
                             "OUTER:\n"
                             "\tmov.u32 %r2, 0;\n"               /* 1  B1 */
                             "INNER1:\n"
                             "\tadd.u32 %r2, %r2, 1;\n"          /* 2 */
                             "\tsetp.lt.u32 %p1, %r2, 4;\n"      /* 3 */
                             "\t@%p1 bra INNER1;\n"              /* 4  B2 */
                             "INNER2:\n"
                             "\tadd.u32 %r2, %r2, -1;\n"         /* 5 */
                             "\tsetp.gt.u32 %p1, %r2, 0;\n"      /* 6 */
                             "\t@%p1 bra INNER2;\n"              /* 7  B3 */
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 8 */
                             "\tsetp.lt.u32 %p2, %r1, 8;\n"      /* 9 */
                             "\t@%p2 bra OUTER;\n"               /* 10 B4 */
                             "SECOND:\n"
                             "\tadd.u32 %r1, %r1, -1;\n"         /* 11 */
                             "\tsetp.ne.u32 %p2, %r1, 0;\n"      /* 12 */
                             "\t@%p2 bra SECOND;\n"              /* 13 B5 */
                             "\tret;\n");                        /* 14 B6 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 7);
    check_block(c, 1, 1, 2);
    check_block(c, 2, 2, 5);
    check_block(c, 3, 5, 8);
    check_block(c, 4, 8, 11);
    check_block(c, 5, 11, 14);
    check_block(c, 6, 14, 15);
    assert_int_equal(c->reconv[4], 5);
    assert_int_equal(c->reconv[7], 8);
    assert_int_equal(c->reconv[10], 11);
    assert_int_equal(c->reconv[13], 14);

    /* outer loops first: OUTER, its two inner loops, then SECOND */
    assert_int_equal(c->loops->len, 4);
    const ptx_loop *outer = loop(c, 0), *in1 = loop(c, 1), *in2 = loop(c, 2),
                   *second = loop(c, 3);
    assert_int_equal(outer->header, 1);
    check_list(outer->blocks, 4, 1, 2, 3, 4);
    check_list(outer->latches, 1, 4);
    check_list(outer->exits, 1, 5);
    assert_int_equal(outer->depth, 1);
    assert_int_equal(outer->parent, NONE);
    assert_int_equal(in1->header, 2);
    check_list(in1->blocks, 1, 2);
    check_list(in1->latches, 1, 2);
    check_list(in1->exits, 1, 3);
    assert_int_equal(in1->depth, 2);
    assert_int_equal(in1->parent, 0);
    assert_int_equal(in2->header, 3);
    check_list(in2->blocks, 1, 3);
    check_list(in2->exits, 1, 4);
    assert_int_equal(in2->depth, 2);
    assert_int_equal(in2->parent, 0);
    assert_int_equal(second->header, 5);
    check_list(second->blocks, 1, 5);
    check_list(second->exits, 1, 6);
    assert_int_equal(second->depth, 1);
    assert_int_equal(second->parent, NONE);

    assert_int_equal(ptx_cfg_loop_of(c, 0), NONE);
    assert_int_equal(ptx_cfg_loop_of(c, 1), 0);
    assert_int_equal(ptx_cfg_loop_of(c, 2), 1);
    assert_int_equal(ptx_cfg_loop_of(c, 3), 2);
    assert_int_equal(ptx_cfg_loop_of(c, 4), 0);
    assert_int_equal(ptx_cfg_loop_of(c, 5), 3);
    assert_int_equal(ptx_cfg_loop_of(c, 6), NONE);
    assert_true(ptx_cfg_loop_contains(c, 0, 2));
    assert_true(ptx_cfg_loop_contains(c, 0, 3));
    assert_false(ptx_cfg_loop_contains(c, 1, 3));
    assert_false(ptx_cfg_loop_contains(c, 0, 5));
    unload(&fx);
}

/* ret, a guarded exit and a guarded trap all lead to the virtual exit; code
 * after the last ret is unreachable but kept and falls off the end. */
static void test_early_exits(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, %tid.x;\n"          /* 0 */
                             "\tsetp.eq.u32 %p1, %r1, 0;\n"      /* 1 */
                             "\t@%p1 bra EARLY;\n"               /* 2  B0 */
                             "\tsetp.eq.u32 %p2, %r1, 1;\n"      /* 3 */
                             "\t@%p2 exit;\n"                    /* 4  B1 */
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 5 */
                             "\tret;\n"                          /* 6  B2 */
                             "EARLY:\n"
                             "\tsetp.eq.u32 %p3, %r1, 0;\n"      /* 7 */
                             "\t@%p3 trap;\n"                    /* 8  B3 */
                             "\tmov.u32 %r1, 5;\n"               /* 9 */
                             "\tret;\n"                          /* 10 B4 */
                             "\tmov.u32 %r1, 9;\n");             /* 11 B5 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 6);
    check_block(c, 0, 0, 3);
    check_block(c, 1, 3, 5);
    check_block(c, 2, 5, 7);
    check_block(c, 3, 7, 9);
    check_block(c, 4, 9, 11);
    check_block(c, 5, 11, 12);
    check_list(c->blocks[0].succs, 2, 3, 1);
    check_list(c->blocks[1].succs, 2, 6, 2);
    check_list(c->blocks[2].succs, 1, 6);
    check_list(c->blocks[3].succs, 2, 6, 4);
    check_list(c->blocks[4].succs, 1, 6);
    check_list(c->blocks[5].succs, 1, 6);
    check_list(c->blocks[5].preds, 0);
    check_list(c->blocks[6].preds, 5, 1, 2, 3, 4, 5);
    assert_int_equal(c->idom[5], NONE); /* unreachable */
    assert_int_equal(c->idom[6], 0);
    assert_int_equal(c->ipdom[0], 6);
    assert_int_equal(c->ipdom[1], 6);
    assert_int_equal(c->ipdom[3], 6);
    assert_int_equal(c->ipdom[5], 6);
    assert_int_equal(c->reconv[2], 12); /* the exit: instrs->len */
    check_branches(&fx, 1, (const uint32_t[]){2});
    assert_false(ptx_cfg_dominates(c, 0, 5));
    assert_int_equal(c->loops->len, 0);
    unload(&fx);
}

static void test_brx(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, %tid.x;\n"          /* 0 */
                             "\trem.u32 %r2, %r1, 3;\n"          /* 1 */
                             "\tts: .branchtargets C0, C1, C2;\n"
                             "\tbrx.idx %r2, ts;\n"              /* 2  B0 */
                             "C0:\n"
                             "\tmov.u32 %r3, 10;\n"              /* 3 */
                             "\tbra.uni J;\n"                    /* 4  B1 */
                             "C1:\n"
                             "\tmov.u32 %r3, 20;\n"              /* 5 */
                             "\tbra.uni J;\n"                    /* 6  B2 */
                             "C2:\n"
                             "\tmov.u32 %r3, 30;\n"              /* 7  B3 */
                             "J:\n"
                             "\tsetp.eq.u32 %p1, %r3, 0;\n"      /* 8 */
                             "\tt2: .branchtargets C2, K, C2;\n"
                             "\t@%p1 brx.idx %r2, t2;\n"         /* 9  B4 */
                             "K:\n"
                             "\tret;\n");                        /* 10 B5 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 6);
    check_block(c, 0, 0, 3);
    check_block(c, 1, 3, 5);
    check_block(c, 2, 5, 7);
    check_block(c, 3, 7, 8);
    check_block(c, 4, 8, 10);
    check_block(c, 5, 10, 11);
    /* unguarded brx: exactly its targets, no fall-through */
    check_list(c->blocks[0].succs, 3, 1, 2, 3);
    check_list(c->blocks[4].preds, 3, 1, 2, 3);
    /* guarded: targets (duplicates dropped) plus the fall-through (= K) */
    check_list(c->blocks[4].succs, 2, 3, 5);
    check_list(c->blocks[3].preds, 2, 0, 4);
    assert_int_equal(c->ipdom[0], 4);
    assert_int_equal(c->reconv[2], 8);
    assert_int_equal(c->reconv[4], 8);
    assert_int_equal(c->reconv[6], 8);
    assert_int_equal(c->reconv[9], 10);
    check_branches(&fx, 4, (const uint32_t[]){2, 4, 6, 9});
    /* B3 <-> B4 is a cycle entered at both B3 (from B0) and B4 (from B1,
     * B2): irreducible, so neither dominates the other and it is no loop */
    assert_int_equal(c->idom[3], 0);
    assert_int_equal(c->idom[4], 0);
    assert_int_equal(c->ipdom[3], 4);
    assert_int_equal(c->loops->len, 0);
    unload(&fx);
}

/* Blocks that never reach the exit have no post-dominator; their branches
 * reconverge at the function end. */
static void test_infinite_loop(void **state)
{
    (void)state;
    fixture fx = load_kernel("\tmov.u32 %r1, %tid.x;\n"          /* 0 */
                             "\tsetp.eq.u32 %p1, %r1, 0;\n"      /* 1 */
                             "\t@%p1 bra SPIN;\n"                /* 2  B0 */
                             "\tret;\n"                          /* 3  B1 */
                             "SPIN:\n"
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 4 */
                             "\tsetp.ne.u32 %p2, %r1, 0;\n"      /* 5 */
                             "\t@%p2 bra SPIN;\n"                /* 6  B2 */
                             "FOREVER:\n"
                             "\tbra.uni FOREVER;\n");            /* 7  B3 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 4);
    check_list(c->blocks[2].succs, 2, 2, 3);
    check_list(c->blocks[3].succs, 1, 3);
    check_list(c->blocks[4].preds, 1, 1);
    assert_int_equal(c->ipdom[2], NONE);
    assert_int_equal(c->ipdom[3], NONE);
    assert_int_equal(c->ipdom[1], 4);
    /* the only way to the exit from B0 is B1 */
    assert_int_equal(c->ipdom[0], 1);
    assert_int_equal(c->reconv[2], 3);
    assert_int_equal(c->reconv[6], 8);
    assert_int_equal(c->reconv[7], 8);
    assert_int_equal(c->loops->len, 2);
    const ptx_loop *spin = loop(c, 0), *forever = loop(c, 1);
    assert_int_equal(spin->header, 2);
    check_list(spin->blocks, 1, 2);
    check_list(spin->exits, 1, 3);
    assert_int_equal(spin->depth, 1);
    assert_int_equal(forever->header, 3);
    check_list(forever->latches, 1, 3);
    check_list(forever->exits, 0);
    assert_int_equal(forever->depth, 1);
    assert_int_equal(forever->parent, NONE);
    unload(&fx);
}

/* The whole function is one self-loop: the entry is a loop header and the
 * exit has no predecessors. */
static void test_entry_self_loop(void **state)
{
    (void)state;
    fixture fx = load_kernel("L:\n"
                             "\tadd.u32 %r1, %r1, 1;\n"          /* 0 */
                             "\tbra L;\n");                      /* 1  B0 */
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 1);
    check_list(c->blocks[0].succs, 1, 0);
    check_list(c->blocks[0].preds, 1, 0);
    check_list(c->blocks[1].preds, 0);
    assert_int_equal(c->idom[0], NONE);
    assert_int_equal(c->idom[1], NONE);
    assert_int_equal(c->ipdom[0], NONE);
    assert_int_equal(c->reconv[1], 2);
    assert_int_equal(c->loops->len, 1);
    assert_int_equal(loop(c, 0)->header, 0);
    unload(&fx);
}

static void test_empty_body(void **state)
{
    (void)state;
    fixture fx = load_kernel("");
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 0);
    check_list(c->blocks[0].preds, 0);
    check_list(c->blocks[0].succs, 0);
    assert_int_equal(c->idom[0], NONE);
    assert_int_equal(c->ipdom[0], NONE);
    assert_int_equal(c->loops->len, 0);
    GString *s = g_string_new(NULL);
    ptx_cfg_print(s, fx.m, c);
    ptx_cfg_print_dot(s, fx.m, c);
    g_string_free(s, TRUE);
    unload(&fx);
}

/* Calls do not end blocks; a guarded ret does (exit + fall-through). */
static void test_call_and_guarded_ret(void **state)
{
    (void)state;
    const char *text =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".func g()\n{\n\tret;\n}\n"
        ".func f()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n"
        "\tmov.u32 %r1, %tid.x;\n"                                /* 0 */
        "\tcall g, ();\n"                                         /* 1 */
        "\tsetp.eq.u32 %p1, %r1, 0;\n"                            /* 2 */
        "\t@%p1 ret;\n"                                           /* 3  B0 */
        "\tcall.uni g, ();\n"                                     /* 4 */
        "\tret;\n"                                                /* 5  B1 */
        "}\n";
    fixture fx = load_text(text, "f");
    const ptx_cfg *c = fx.cfg;
    assert_int_equal(c->nblocks, 2);
    check_block(c, 0, 0, 4);
    check_block(c, 1, 4, 6);
    check_list(c->blocks[0].succs, 2, 2, 1);
    check_list(c->blocks[2].preds, 2, 0, 1);
    assert_int_equal(c->ipdom[0], 2);
    check_branches(&fx, 0, NULL);
    unload(&fx);
}

/* A branch naming the wrong kind of target never reaches the CFG: the
 * parser rejects it with the operand's location. */
static void expect_error(const char *body, const char *needle)
{
    char *text = kernel("bad", body);
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(text, strlen(text), "bad.ptx", &err);
    g_free(text);
    assert_null(m);
    assert_non_null(err);
    if (!strstr(err->message, needle))
        fail_msg("message '%s' lacks '%s'", err->message, needle);
    g_error_free(err);
}

static void test_errors(void **state)
{
    (void)state;
    /* brx.idx needs a .branchtargets list, bra a plain label */
    expect_error("\tmov.u32 %r1, 0;\nL:\n\tbrx.idx %r1, L;\n",
                 "bad.ptx:10:2: error: the second operand of 'brx' must be a .branchtargets list");
    expect_error("\tts: .branchtargets L;\n\tbra ts;\nL:\n\tret;\n",
                 "bad.ptx:9:2: error: the first operand of 'bra' must be a label");
}

/* -------------------------------------------------------- nvcc corpus */

static const char *const targets[] = {"sm_75", "sm_80", "sm_90"};

static fixture load_corpus(const char *base, const char *target, const char *func)
{
    char *rel = g_strdup_printf("tests/corpus/nvcc/%s.%s.ptx", base, target);
    fixture fx = load_file(rel, func);
    g_free(rel);
    return fx;
}

/* Expected facts of each conditional branch: its instruction and the label
 * of its reconvergence point (NULL: an unlabelled instruction `at`). */
typedef struct branch_fact {
    uint32_t instr;
    uint32_t at;
    const char *label;
} branch_fact;

static void check_branch_facts(const fixture *fx, unsigned n, const branch_fact *b)
{
    uint32_t instrs[16];
    for (unsigned k = 0; k < n; k++) {
        assert_true(ptx_instr_is_branch(ptx_func_instr(fx->f, b[k].instr)));
        assert_int_equal(fx->cfg->reconv[b[k].instr], b[k].at);
        const char *l = label_at(fx, b[k].at);
        if (b[k].label)
            assert_string_equal(l, b[k].label);
        else
            assert_null(l);
        instrs[k] = b[k].instr;
    }
    check_branches(fx, n, instrs);
}

static void test_nvcc_vector_add(void **state)
{
    (void)state;
    for (unsigned t = 0; t < G_N_ELEMENTS(targets); t++) {
        fixture fx = load_corpus("vector_add", targets[t], "vector_add");
        const ptx_cfg *c = fx.cfg;
        assert_int_equal(fx.f->instrs->len, 22);
        assert_int_equal(c->nblocks, 3);
        check_block(c, 0, 0, 10);   /* params .. @%p1 bra $L__BB0_2 */
        check_block(c, 1, 10, 21);  /* the guarded add */
        check_block(c, 2, 21, 22);  /* $L__BB0_2: ret */
        check_list(c->blocks[0].succs, 2, 2, 1);
        check_list(c->blocks[2].preds, 2, 0, 1);
        check_branch_facts(&fx, 1, (const branch_fact[]){{9, 21, "$L__BB0_2"}});
        assert_int_equal(c->loops->len, 0);
        unload(&fx);
    }
}

static void test_nvcc_reduction(void **state)
{
    (void)state;
    for (unsigned t = 0; t < G_N_ELEMENTS(targets); t++) {
        fixture fx = load_corpus("reduction", targets[t], "block_reduce");
        const ptx_cfg *c = fx.cfg;
        assert_int_equal(fx.f->instrs->len, 64);
        assert_int_equal(c->nblocks, 12);
        static const uint32_t starts[] = {0, 10, 14, 21, 25, 28, 32, 35, 39, 41, 61, 63, 64};
        for (uint32_t b = 0; b < 12; b++)
            check_block(c, b, starts[b], starts[b + 1]);
        /* the tid < 32 block and the tid == 0 atomic both skip to the ret */
        check_list(c->blocks[8].succs, 2, 11, 9);
        check_list(c->blocks[9].succs, 2, 11, 10);
        check_list(c->blocks[11].preds, 3, 8, 9, 10);
        assert_int_equal(c->idom[11], 8);
        check_branch_facts(&fx, 6, (const branch_fact[]){
            {9, 14, "$L__BB0_2"}, {20, 25, "$L__BB0_4"}, {27, 32, "$L__BB0_6"},
            {34, 39, "$L__BB0_8"}, {40, 63, "$L__BB0_11"}, {60, 63, "$L__BB0_11"}});
        assert_int_equal(c->loops->len, 0); /* nvcc unrolled both loops */
        unload(&fx);
    }
}

static void test_nvcc_spinlock(void **state)
{
    (void)state;
    for (unsigned t = 0; t < G_N_ELEMENTS(targets); t++) {
        fixture fx = load_corpus("spinlock", targets[t], "spinlock_count");
        const ptx_cfg *c = fx.cfg;
        assert_int_equal(fx.f->instrs->len, 27);
        assert_int_equal(c->nblocks, 5);
        check_block(c, 0, 0, 13);
        check_block(c, 1, 13, 19);  /* $L__BB0_1: cas, @%p2 bra $L__BB0_3 */
        check_block(c, 2, 19, 24);  /* critical section */
        check_block(c, 3, 24, 26);  /* $L__BB0_3: @%p3 bra $L__BB0_1 */
        check_block(c, 4, 26, 27);  /* ret */
        check_list(c->blocks[1].succs, 2, 3, 2);
        check_list(c->blocks[3].succs, 2, 1, 4);
        check_list(c->blocks[1].preds, 2, 0, 3);
        assert_int_equal(c->ipdom[1], 3);
        assert_int_equal(c->ipdom[3], 4);
        /* the lock-taken test reconverges at the loop latch; the loop
         * branch at the unlabelled ret after the loop */
        check_branch_facts(&fx, 2, (const branch_fact[]){{18, 24, "$L__BB0_3"}, {25, 26, NULL}});
        assert_int_equal(c->loops->len, 1);
        const ptx_loop *l = loop(c, 0);
        assert_int_equal(l->header, 1);
        assert_string_equal(label_at(&fx, c->blocks[l->header].first), "$L__BB0_1");
        check_list(l->latches, 1, 3);
        check_list(l->blocks, 3, 1, 2, 3);
        check_list(l->exits, 1, 4);
        assert_int_equal(l->depth, 1);
        unload(&fx);
    }
}

static void test_nvcc_stencil2d(void **state)
{
    (void)state;
    for (unsigned t = 0; t < G_N_ELEMENTS(targets); t++) {
        fixture fx = load_corpus("stencil2d", targets[t], "stencil5");
        const ptx_cfg *c = fx.cfg;
        assert_int_equal(fx.f->instrs->len, 87);
        assert_int_equal(c->nblocks, 11);
        static const uint32_t starts[] = {0, 29, 36, 38, 45, 48, 56, 58, 66, 71, 86, 87};
        for (uint32_t b = 0; b < 11; b++)
            check_block(c, b, starts[b], starts[b + 1]);
        /* four halo loads, each an if without else, then the bounds check */
        check_branch_facts(&fx, 5, (const branch_fact[]){
            {28, 36, "$L__BB0_2"}, {37, 45, "$L__BB0_4"}, {47, 56, "$L__BB0_6"},
            {57, 66, "$L__BB0_8"}, {70, 86, "$L__BB0_10"}});
        for (uint32_t b = 2; b <= 8; b += 2)
            assert_int_equal(c->idom[b], b - 2);
        assert_int_equal(c->loops->len, 0);
        unload(&fx);
    }
}

/* ------------------------------------------- invariants over the corpus */

/* Structural facts any CFG must satisfy, checked on every corpus function:
 * blocks tile the instructions, succ/pred mirror each other, idom/ipdom are
 * real (post-)dominators, every branch reconverges at a block start. */
static void check_invariants(const ptx_module *m, const ptx_func *f)
{
    GError *err = NULL;
    ptx_cfg *c = ptx_cfg_build(m, f, &err);
    if (!c)
        fail_msg("%s: %s", f->name, err->message);
    uint32_t n = f->instrs->len, nb = c->nblocks;
    uint32_t next = 0;
    for (uint32_t b = 0; b < nb; b++) {
        assert_int_equal(c->blocks[b].first, next);
        assert_true(c->blocks[b].end > c->blocks[b].first);
        next = c->blocks[b].end;
        for (guint i = 0; i < c->blocks[b].succs->len; i++) {
            uint32_t s = g_array_index(c->blocks[b].succs, uint32_t, i);
            assert_true(s <= nb);
            bool back = false;
            for (guint k = 0; k < c->blocks[s].preds->len; k++)
                back = back || g_array_index(c->blocks[s].preds, uint32_t, k) == b;
            assert_true(back);
        }
        if (c->idom[b] != NONE) {
            assert_true(ptx_cfg_dominates(c, c->idom[b], b));
            assert_true(ptx_cfg_dominates(c, 0, b));
        }
        if (c->ipdom[b] != NONE)
            assert_true(ptx_cfg_postdominates(c, nb, b));
    }
    assert_int_equal(next, n);
    for (uint32_t i = 0; i < n; i++) {
        if (c->reconv[i] == NONE)
            continue;
        assert_true(ptx_instr_is_branch(ptx_func_instr(f, i)));
        uint32_t r = c->reconv[i];
        assert_true(r == n || c->blocks[c->block_of[r]].first == r);
    }
    for (guint k = 0; k < c->loops->len; k++) {
        const ptx_loop *l = &g_array_index(c->loops, ptx_loop, k);
        for (guint i = 0; i < l->blocks->len; i++)
            assert_true(ptx_cfg_dominates(c, l->header, g_array_index(l->blocks, uint32_t, i)));
        if (l->parent != NONE)
            assert_true(l->parent < k); /* outer before inner */
    }
    GString *s = g_string_new(NULL);
    ptx_cfg_print(s, m, c);
    ptx_cfg_print_dot(s, m, c);
    assert_true(s->len > 0);
    g_string_free(s, TRUE);
    ptx_cfg_free(c);
}

static void test_corpus_invariants(void **state)
{
    (void)state;
    const char *dirs[] = {"tests/corpus/nvcc", "tests/corpus/hand"};
    for (unsigned d = 0; d < G_N_ELEMENTS(dirs); d++) {
        char *dir = test_source_path(dirs[d]);
        GDir *gd = g_dir_open(dir, 0, NULL);
        assert_non_null(gd);
        const char *name;
        while ((name = g_dir_read_name(gd))) {
            if (!g_str_has_suffix(name, ".ptx"))
                continue;
            char *path = g_build_filename(dir, name, NULL);
            GError *err = NULL;
            ptx_module *m = ptx_parse_file(path, &err);
            if (!m)
                fail_msg("%s", err->message);
            for (guint k = 0; k < m->funcs->len; k++)
                if (ptx_module_func(m, k)->has_body)
                    check_invariants(m, ptx_module_func(m, k));
            ptx_module_free(m);
            g_free(path);
        }
        g_dir_close(gd);
        g_free(dir);
    }
}

/* The text printer names reconvergence points by label. */
static void test_print(void **state)
{
    (void)state;
    fixture fx = load_corpus("spinlock", "sm_75", "spinlock_count");
    GString *s = g_string_new(NULL);
    ptx_cfg_print(s, fx.m, fx.cfg);
    assert_non_null(strstr(s->str, "B1 [13,19) $L__BB0_1: succ B3 B2; pred B0 B3; "
                                   "idom B0; ipdom B3\n"));
    assert_non_null(strstr(s->str, "18: @%p2 bra $L__BB0_3;  reconverge at 24 ($L__BB0_3)\n"));
    assert_non_null(strstr(s->str, "header B1 ($L__BB0_1); depth 1; parent -; "
                                   "latches B3; exits B4"));
    g_string_truncate(s, 0);
    ptx_cfg_print_dot(s, fx.m, fx.cfg);
    assert_true(g_str_has_prefix(s->str, "digraph \"spinlock_count\" {"));
    assert_non_null(strstr(s->str, "\"B3\" -> \"B1\" [color=blue, style=bold];"));
    assert_non_null(strstr(s->str, "\"B4\" -> \"exit\";"));
    g_string_free(s, TRUE);
    unload(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diamond),
        cmocka_unit_test(test_if_without_else),
        cmocka_unit_test(test_label_at_end),
        cmocka_unit_test(test_loop_with_break),
        cmocka_unit_test(test_loop_two_latches),
        cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_early_exits),
        cmocka_unit_test(test_brx),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_entry_self_loop),
        cmocka_unit_test(test_empty_body),
        cmocka_unit_test(test_call_and_guarded_ret),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nvcc_vector_add),
        cmocka_unit_test(test_nvcc_reduction),
        cmocka_unit_test(test_nvcc_spinlock),
        cmocka_unit_test(test_nvcc_stencil2d),
        cmocka_unit_test(test_corpus_invariants),
        cmocka_unit_test(test_print),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
