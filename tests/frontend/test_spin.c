/* tests/frontend/test_spin.c — the setp-spin candidate pass
 * (frontend/spin.h): the spin seed's Listing 2 as a whole kernel, nvcc's
 * spin lock, hand-written positive cases (CAS loop, shared-memory flag,
 * acquire poll, plain poll, timed poll) and negative ones (counted loops,
 * loops that do not communicate, list walks, clock loops). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/cfg.h"
#include "frontend/parser.h"
#include "frontend/spin.h"
#include "tests/support/test_util.h"

#include <string.h>

typedef struct analysed {
    ptx_module *m;
    const ptx_func *f;
    ptx_cfg *cfg;
    ptx_spin_info *si;
} analysed;

static analysed analyse(const char *rel, const char *name)
{
    gsize len = 0;
    char *text = test_read_file(rel, &len);
    GError *err = NULL;
    analysed a = {ptx_parse_string(text, len, rel, &err), NULL, NULL, NULL};
    g_free(text);
    if (!a.m)
        fail_msg("%s", err->message);
    int32_t i = ptx_module_find_func(a.m, name);
    if (i < 0)
        fail_msg("no function '%s' in %s", name, rel);
    a.f = ptx_module_func(a.m, (uint32_t)i);
    a.cfg = ptx_cfg_build(a.m, a.f, &err);
    if (!a.cfg)
        fail_msg("%s", err->message);
    a.si = ptx_spin_analyze(a.m, a.cfg);
    return a;
}

static void release(analysed *a)
{
    ptx_spin_info_free(a->si);
    ptx_cfg_free(a->cfg);
    ptx_module_free(a->m);
}

/* Index of the n-th (0-based) instruction with opcode op. */
static uint32_t nth(const ptx_func *f, ptx_opcode op, unsigned n)
{
    for (uint32_t i = 0; i < f->instrs->len; i++)
        if (ptx_func_instr(f, i)->op == op && n-- == 0)
            return i;
    fail_msg("no instruction %u of that opcode", n);
    return 0;
}

/* Instruction index of the label's position. */
static uint32_t label_instr(const analysed *a, const char *name)
{
    for (guint k = 0; k < a->f->labels->len; k++) {
        const ptx_symbol *s = ptx_module_sym(a->m, g_array_index(a->f->labels, int32_t, k));
        if (strcmp(s->name, name) == 0)
            return (uint32_t)s->index;
    }
    fail_msg("no label %s", name);
    return 0;
}

static const ptx_spin_cand *cand_at(const analysed *a, uint32_t setp)
{
    if (!a->si->is_candidate[setp])
        fail_msg("instruction %u (line %u) is not a spin candidate", setp,
                 ptx_func_instr(a->f, setp)->loc.line);
    assert_int_not_equal(a->si->cand_of[setp], PTX_SPIN_NONE);
    const ptx_spin_cand *c = &g_array_index(a->si->cands, ptx_spin_cand, a->si->cand_of[setp]);
    assert_int_equal(c->setp, setp);
    return c;
}

static const ptx_loop *loop_of(const analysed *a, const ptx_spin_cand *c)
{
    assert_true(c->loop < a->cfg->loops->len);
    return &g_array_index(a->cfg->loops, ptx_loop, c->loop);
}

static void expect_count(const analysed *a, guint n)
{
    guint flagged = 0;
    for (uint32_t i = 0; i < a->si->ninstrs; i++)
        flagged += a->si->is_candidate[i];
    if (a->si->cands->len != n || flagged != n)
        fail_msg("%s: %u candidates (%u flagged), want %u", a->f->name, a->si->cands->len,
                 flagged, n);
}

/* Listing 2 of the spin seed: the CAS-result setp (PC-184) guards the
 * done-flag update, the done-flag setp (PC-272) decides the back edge. */
static void test_listing2(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/phase/listing2.ptx", "global_increment");
    expect_count(&a, 2);
    assert_int_equal(a.cfg->loops->len, 1);
    uint32_t pc184 = nth(a.f, PTX_OP_SETP, 0), pc272 = nth(a.f, PTX_OP_SETP, 1);
    uint32_t header = a.cfg->block_of[label_instr(&a, "BB0_2")];
    uint32_t latch = a.cfg->block_of[label_instr(&a, "BB0_4")];

    const ptx_spin_cand *c = cand_at(&a, pc272);
    assert_int_equal(c->role, PTX_SPIN_BACK_EDGE);
    assert_int_equal(c->via, nth(a.f, PTX_OP_BRA, 1)); /* @%p3 bra BB0_2 */
    const ptx_loop *l = loop_of(&a, c);
    assert_int_equal(l->header, header);
    assert_int_equal(l->latches->len, 1);
    assert_int_equal(g_array_index(l->latches, uint32_t, 0), latch);
    assert_true(c->mem & PTX_SPIN_MEM_ATOMIC);
    assert_int_equal(c->opnds, PTX_SPIN_OPND_CONST); /* done flag: constants 0/1 */
    assert_non_null(strstr(c->reason, "back edge"));

    c = cand_at(&a, pc184);
    assert_int_equal(c->role, PTX_SPIN_GUARD);
    assert_int_equal(c->via, nth(a.f, PTX_OP_BRA, 0)); /* @%p2 bra BB0_4 */
    assert_int_equal(c->decides, nth(a.f, PTX_OP_BRA, 1));
    assert_int_equal(loop_of(&a, c)->header, header);
    assert_true(c->opnds & PTX_SPIN_OPND_ATOMIC);
    assert_int_equal(a.si->cand_of[pc184], 0); /* candidates in instruction order */

    const ptx_spin_loop *sl = &g_array_index(a.si->loops, ptx_spin_loop, 0);
    assert_int_equal(sl->ncands, 2);
    assert_int_equal(sl->mem_instr[0], nth(a.f, PTX_OP_ATOM, 0));
    release(&a);
}

/* nvcc's spin lock: the setp on the CAS result that (through not.pred)
 * decides the back edge; the other setp only guards the critical section. */
static void test_nvcc_spinlock(void **state)
{
    (void)state;
    static const char *const files[] = {
        "tests/corpus/nvcc/spinlock.sm_75.ptx",
        "tests/corpus/nvcc/spinlock.sm_80.ptx",
        "tests/corpus/nvcc/spinlock.sm_90.ptx",
    };
    for (unsigned k = 0; k < 3; k++) {
        analysed a = analyse(files[k], "spinlock_count");
        expect_count(&a, 1);
        uint32_t setp = nth(a.f, PTX_OP_SETP, 0); /* setp.eq.s32 %p1, %r9, 0 */
        const ptx_spin_cand *c = cand_at(&a, setp);
        assert_int_equal(c->role, PTX_SPIN_BACK_EDGE);
        assert_int_equal(c->via, nth(a.f, PTX_OP_BRA, 1));
        assert_int_equal(loop_of(&a, c)->header, a.cfg->block_of[nth(a.f, PTX_OP_ATOM, 0)]);
        assert_int_equal(c->opnds, PTX_SPIN_OPND_ATOMIC | PTX_SPIN_OPND_CONST);
        assert_true(c->mem & PTX_SPIN_MEM_ATOMIC);
        assert_true(c->mem & PTX_SPIN_MEM_VOLATILE);
        assert_false(a.si->is_candidate[nth(a.f, PTX_OP_SETP, 1)]);
        release(&a);
    }
}

/* nvcc's consumer waiting on a volatile shared flag (`while (flag == 0);`). */
static void test_nvcc_flag_wait(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/nvcc/ldg_volatile.sm_75.ptx", "prod_cons");
    expect_count(&a, 1);
    uint32_t wait = label_instr(&a, "$L__BB0_5");
    const ptx_spin_cand *c = cand_at(&a, wait + 1); /* setp.eq.s32 %p4, %r3, 0 */
    assert_int_equal(c->role, PTX_SPIN_BACK_EDGE);
    assert_int_equal(loop_of(&a, c)->header, a.cfg->block_of[wait]);
    assert_int_equal(c->mem, PTX_SPIN_MEM_VOLATILE | PTX_SPIN_MEM_POLL);
    assert_int_equal(c->opnds, PTX_SPIN_OPND_LOAD | PTX_SPIN_OPND_CONST);
    release(&a);
}

static const char *const cases = "tests/corpus/phase/spin_cases.ptx";

/* One candidate: the n-th setp of `kernel`, with this role and evidence. */
static void expect_single(const char *kernel, unsigned n, ptx_spin_role role, unsigned mem,
                          unsigned opnds)
{
    analysed a = analyse(cases, kernel);
    expect_count(&a, 1);
    const ptx_spin_cand *c = cand_at(&a, nth(a.f, PTX_OP_SETP, n));
    assert_int_equal(c->role, role);
    if ((c->mem & mem) != mem)
        fail_msg("%s: loop evidence %#x lacks %#x", kernel, c->mem, mem);
    assert_int_equal(c->opnds, opnds);
    release(&a);
}

static void test_positive_cases(void **state)
{
    (void)state;
    /* CAS loop: both compared values come from the atom (one via a copy) */
    expect_single("cas_add", 0, PTX_SPIN_BACK_EDGE, PTX_SPIN_MEM_ATOMIC, PTX_SPIN_OPND_ATOMIC);
    /* shared-memory flag, volatile (first setp is the tid test) */
    expect_single("shared_flag", 1, PTX_SPIN_BACK_EDGE, PTX_SPIN_MEM_VOLATILE | PTX_SPIN_MEM_POLL,
                  PTX_SPIN_OPND_LOAD | PTX_SPIN_OPND_CONST);
    expect_single("acquire_poll", 0, PTX_SPIN_BACK_EDGE, PTX_SPIN_MEM_VOLATILE,
                  PTX_SPIN_OPND_LOAD | PTX_SPIN_OPND_CONST);
    /* a plain load of a loop-invariant address: only another thread can
     * change what it reads */
    expect_single("plain_poll", 0, PTX_SPIN_BACK_EDGE, PTX_SPIN_MEM_POLL,
                  PTX_SPIN_OPND_LOAD | PTX_SPIN_OPND_CONST);
    /* timed poll: the flag setp (exit) is a candidate, the clock one is not */
    expect_single("timed_poll", 0, PTX_SPIN_EXIT, PTX_SPIN_MEM_VOLATILE,
                  PTX_SPIN_OPND_LOAD | PTX_SPIN_OPND_CONST);

    analysed a = analyse(cases, "shared_flag");
    const ptx_spin_loop *sl = &g_array_index(a.si->loops, ptx_spin_loop, 0);
    assert_int_equal(sl->mem, PTX_SPIN_MEM_VOLATILE | PTX_SPIN_MEM_POLL);
    assert_false(a.si->is_candidate[nth(a.f, PTX_OP_SETP, 0)]); /* not in a loop */
    release(&a);
}

static void expect_none(const char *rel, const char *kernel, unsigned loop_mem)
{
    analysed a = analyse(rel, kernel);
    expect_count(&a, 0);
    unsigned mem = 0;
    for (guint k = 0; k < a.si->loops->len; k++)
        mem |= g_array_index(a.si->loops, ptx_spin_loop, k).mem;
    if (mem != loop_mem)
        fail_msg("%s: loop evidence %#x, want %#x", kernel, mem, loop_mem);
    release(&a);
}

static void test_negative_cases(void **state)
{
    (void)state;
    /* counted loops, even with communication in the loop */
    expect_none(cases, "counted_atomic", PTX_SPIN_MEM_ATOMIC);
    expect_none(cases, "counted_cycle", PTX_SPIN_MEM_VOLATILE | PTX_SPIN_MEM_POLL);
    expect_none("tests/corpus/phase/nested_loops.ptx", "nested",
                PTX_SPIN_MEM_ATOMIC | PTX_SPIN_MEM_SHARED_RW);
    /* loops that do not talk to other threads */
    expect_none(cases, "list_walk", 0);
    expect_none(cases, "const_walk", 0);
    /* a volatile walk: the address moves, so the loaded value is progress */
    expect_none(cases, "volatile_walk", PTX_SPIN_MEM_VOLATILE);
    /* nvcc kernels without loops */
    expect_none("tests/corpus/nvcc/reduction.sm_75.ptx", "block_reduce", 0);
    expect_none("tests/corpus/nvcc/vector_add.sm_75.ptx", "vector_add", 0);

    analysed a = analyse(cases, "timed_poll");
    assert_false(a.si->is_candidate[nth(a.f, PTX_OP_SETP, 1)]); /* the clock compare */
    release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listing2),
        cmocka_unit_test(test_nvcc_spinlock),
        cmocka_unit_test(test_nvcc_flag_wait),
        cmocka_unit_test(test_positive_cases),
        cmocka_unit_test(test_negative_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
