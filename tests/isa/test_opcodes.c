/* tests/isa/test_opcodes.c — the per-opcode fact flags of isa/opcodes.def
 * against the PTX ISA manual (rows found by name, so an enum slip cannot
 * hide a wrong row):
 *   - "Parallel Synchronization and Communication Instructions": shfl.sync,
 *     vote.sync, match.sync, redux.sync and elect.sync take a membermask and
 *     exchange values among its lanes; bar/barrier synchronise the warp
 *     (bar.warp.sync) or the CTA; activemask only reads which lanes are
 *     active (no membermask, no .sync), and mbarrier, cp.async, membar and
 *     fence act per thread;
 *   - "Warp Level Matrix Multiply-Accumulate Instructions": mma, wmma,
 *     ldmatrix, stmatrix and movmatrix are .sync.aligned (the whole warp);
 *   - "Control Flow Instructions": bra jumps to one label, brx.idx to an
 *     entry of a .branchtargets list; call returns to the next instruction;
 *     ret and exit end the function / thread; trap aborts; brkpt only
 *     suspends (execution resumes after it);
 *   - sured and multimem (reduction on surfaces / multicast memory) combine
 *     values from every CTA, so their results depend on the CTAs' order;
 *   - cp.async copies and mbarrier phases complete asynchronously;
 *   - rem, and, or are integer-only, cvt has two types. */
#include "isa/opcodes.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

static unsigned flags_of(const char *name)
{
    ptx_opcode op = ptx_opcode_lookup(name, (unsigned)strlen(name));
    if (op == PTX_OP_INVALID)
        fail_msg("no opcode row named '%s'", name);
    return ptx_opcode_flags(op);
}

static void expect(const char *const *names, unsigned flag, bool want)
{
    for (const char *const *n = names; *n; n++)
        if (((flags_of(*n) & flag) != 0) != want)
            fail_msg("'%s' %s flag 0x%x", *n, want ? "lacks" : "has", flag);
}

static void test_collective(void **state)
{
    (void)state;
    static const char *const mask[] = {"shfl", "vote", "match", "redux", "elect", NULL};
    static const char *const warp[] = {"mma", "wmma", "ldmatrix", "stmatrix", "movmatrix",
                                       NULL};
    static const char *const bar[] = {"bar", "barrier", NULL};
    static const char *const none[] = {"activemask", "mbarrier", "cp", "membar", "fence",
                                       "add", "ld", "st", "atom", "red", "bra", "exit",
                                       "nanosleep", NULL};
    expect(mask, PTX_OPF_SYNC_MASK, true);
    expect(warp, PTX_OPF_SYNC_WARP, true);
    expect(bar, PTX_OPF_SYNC_BAR, true);
    expect(none, PTX_OPF_COLLECTIVE, false);
    /* the kinds exclude each other: its.c finds the waiting lanes by kind */
    expect(mask, PTX_OPF_SYNC_WARP | PTX_OPF_SYNC_BAR, false);
    expect(warp, PTX_OPF_SYNC_MASK | PTX_OPF_SYNC_BAR, false);
    expect(bar, PTX_OPF_SYNC_MASK | PTX_OPF_SYNC_WARP, false);
    /* wmma.load/.store are the decoded wmma: still the whole warp */
    assert_true(ptx_opcode_has(PTX_OP_WMMA_LOAD, PTX_OPF_SYNC_WARP));
    assert_true(ptx_opcode_has(PTX_OP_WMMA_STORE, PTX_OPF_SYNC_WARP));
}

static void test_control_flow(void **state)
{
    (void)state;
    static const char *const branch[] = {"bra", "brx", NULL};
    static const char *const leave[] = {"ret", "exit", "trap", NULL};
    static const char *const falls[] = {"call", "brkpt", "nanosleep", "bar", "add", "pmevent",
                                        NULL};
    expect(branch, PTX_OPF_BRANCH, true);
    expect(leave, PTX_OPF_LEAVE, true);
    expect(leave, PTX_OPF_BRANCH, false);
    expect(falls, PTX_OPF_ENDS_BLOCK, false);
    static const char *const call[] = {"call", NULL};
    static const char *const not_call[] = {"bra", "brx", "ret", "exit", NULL};
    expect(call, PTX_OPF_CALL, true);
    expect(not_call, PTX_OPF_CALL, false);
    /* bra names one label, brx.idx a .branchtargets list */
    assert_true(ptx_opcode_direct_branch(ptx_opcode_lookup("bra", 3)));
    assert_false(ptx_opcode_direct_branch(ptx_opcode_lookup("brx", 3)));
    assert_true(flags_of("brx") & PTX_OPF_BRANCH_LIST);
    assert_false(ptx_opcode_direct_branch(ptx_opcode_lookup("call", 4)));
}

/* Row-wide consistency: a branch names its targets in an 'l' operand
 * (frontend/cfg.c reads them there) and only branches take labels. */
static void test_rows_consistent(void **state)
{
    (void)state;
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        const ptx_opinfo *info = ptx_opcode_info((ptx_opcode)op);
        unsigned f = info->flags;
        bool has_l = strchr(info->shape, 'l') != NULL;
        if (((f & PTX_OPF_BRANCH) != 0) != has_l)
            fail_msg("'%s': branch flag and 'l' operand disagree", info->name);
        if ((f & PTX_OPF_BRANCH_LIST) && !(f & PTX_OPF_BRANCH))
            fail_msg("'%s': a branch list without the branch flag", info->name);
        if ((f & PTX_OPF_BRANCH) && (f & PTX_OPF_LEAVE))
            fail_msg("'%s': both branches and leaves", info->name);
        if ((f & PTX_OPF_TYPED_ARITH) && !(f & PTX_OPF_SAME_TYPE))
            fail_msg("'%s': typed arithmetic whose registers need not match", info->name);
    }
    assert_int_equal(ptx_opcode_flags(PTX_OP_COUNT), 0);
    assert_int_equal(ptx_opcode_flags(PTX_OP_INVALID), 0);
}

static void test_runtime_facts(void **state)
{
    (void)state;
    static const char *const order[] = {"sured", "multimem", NULL};
    static const char *const by_mods[] = {"atom", "red", "ld", "st", "cp", "membar", "add",
                                          NULL};
    expect(order, PTX_OPF_CTA_ORDER, true);
    expect(by_mods, PTX_OPF_CTA_ORDER, false);
    static const char *const async[] = {"cp", "mbarrier", NULL};
    static const char *const sync[] = {"ld", "st", "atom", "bar", "membar", NULL};
    expect(async, PTX_OPF_ASYNC, true);
    expect(sync, PTX_OPF_ASYNC, false);
}

static void test_parser_facts(void **state)
{
    (void)state;
    static const char *const typed[] = {"add", "sub", "mul", "mad", "div", "abs", "neg",
                                        "min", "max", "fma", NULL};
    static const char *const untyped[] = {"rem", "and", "or", "cvt", "setp", "mov", NULL};
    static const char *const same[] = {"add", "rem", "and", "or", "xor", "not", "mov", "selp",
                                       NULL};
    static const char *const mixed[] = {"cvt", "slct", "set", "ld", NULL};
    expect(typed, PTX_OPF_TYPED_ARITH, true);
    expect(untyped, PTX_OPF_TYPED_ARITH, false);
    expect(same, PTX_OPF_SAME_TYPE, true);
    expect(mixed, PTX_OPF_SAME_TYPE, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collective),
        cmocka_unit_test(test_control_flow),
        cmocka_unit_test(test_rows_consistent),
        cmocka_unit_test(test_runtime_facts),
        cmocka_unit_test(test_parser_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
