/* tests/frontend/test_phase.c — the latency table and the phase pass
 * (frontend/phase.h) against answers computed by hand from the PTX text and
 * the default table (int add 4, int mul 4, int mad 5, fp add/mul 4, fp div
 * 39, everything else 1), plus invariants over every corpus and benchmark
 * kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "frontend/cfg.h"
#include "frontend/parser.h"
#include "frontend/phase.h"
#include "frontend/spin.h"
#include "isa/latency.h"
#include "tests/support/test_util.h"

#include <string.h>

/* ---------------------------------------------------------------- helpers */

typedef struct analysed {
    ptx_module *m;
    const ptx_func *f;
    ptx_cfg *cfg;
    ptx_phase_info *pi;
} analysed;

static ptx_module *parse_text(const char *text, size_t len, const char *name)
{
    GError *err = NULL;
    ptx_module *m = ptx_parse_string(text, len, name, &err);
    if (!m)
        fail_msg("%s", err->message);
    return m;
}

static ptx_module *load(const char *rel)
{
    gsize len = 0;
    char *text = test_read_file(rel, &len);
    ptx_module *m = parse_text(text, len, rel);
    g_free(text);
    return m;
}

static void analyse_func(analysed *a, const char *name, const ptx_latency_table *lat)
{
    int32_t i = ptx_module_find_func(a->m, name);
    if (i < 0)
        fail_msg("no function '%s'", name);
    a->f = ptx_module_func(a->m, (uint32_t)i);
    GError *err = NULL;
    a->cfg = ptx_cfg_build(a->m, a->f, &err);
    if (!a->cfg)
        fail_msg("%s", err->message);
    a->pi = ptx_phase_analyze(a->cfg, lat);
}

static analysed analyse(const char *rel, const char *name, const ptx_latency_table *lat)
{
    analysed a = {load(rel), NULL, NULL, NULL};
    analyse_func(&a, name, lat);
    return a;
}

static void release(analysed *a)
{
    ptx_phase_info_free(a->pi);
    ptx_cfg_free(a->cfg);
    ptx_module_free(a->m);
}

/* Phase p covers [first, end), has `length` cycles and next phase `next`. */
static void check_phase(const ptx_phase_info *pi, uint32_t p, uint32_t first, uint32_t end,
                        uint32_t length, uint32_t next)
{
    assert_true(p < pi->nphases);
    const ptx_phase *ph = &pi->phases[p];
    assert_int_equal(ph->first, first);
    assert_int_equal(ph->end, end);
    assert_int_equal(ph->length, length);
    assert_int_equal(ph->next, next);
    for (uint32_t i = first; i < end; i++)
        assert_int_equal(pi->phase_of[i], p);
}

static void check_u32s(const uint32_t *got, const uint32_t *want, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (got[i] != want[i])
            fail_msg("instruction %u: got %u, want %u", i, got[i], want[i]);
    }
}

static int32_t reg_id(const ptx_func *f, const char *name)
{
    char buf[300];
    for (guint i = 0; i < f->regs->len; i++)
        if (strcmp(ptx_reg_name(f, i, buf, sizeof buf), name) == 0)
            return (int32_t)i;
    fail_msg("no register '%s'", name);
    return -1;
}

/* ------------------------------------------------------------ the table */

static ptx_type first_type(const ptx_instr *in)
{
    return in->ntypes ? (ptx_type)in->types[0] : PTX_T_NONE;
}

static void test_latency_table(void **state)
{
    (void)state;
    const ptx_latency_table *t = ptx_latency_default();
    /* GPGPU-Sim 3.x GTX480: int 4,13,4,5,145  fp 4,13,4,5,39  dp 8,19,8,8,330 */
    const uint32_t want[] = {4, 13, 4, 5, 145, 4, 13, 4, 5, 39, 8, 19, 8, 8, 330};
    for (unsigned c = 0; c <= PTX_LAT_DP_DIV; c++)
        assert_int_equal(t->cycles[c], want[c]);
    assert_int_equal(t->cycles[PTX_LAT_SFU], 8);
    assert_int_equal(t->cycles[PTX_LAT_OTHER], 1);
    assert_int_equal(t->cycles[PTX_LAT_MEM], 1);
    assert_int_equal(t->cycles[PTX_LAT_CTRL], 1);
    assert_int_equal(t->cycles[PTX_LAT_SYNC], 1);

    assert_int_equal(ptx_latency_class_of(PTX_OP_ADD, PTX_T_S32), PTX_LAT_INT_ADD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_ADD, PTX_T_F32), PTX_LAT_FP_ADD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_SUB, PTX_T_F64), PTX_LAT_DP_ADD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_ADD, PTX_T_F16X2), PTX_LAT_FP_ADD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_MAX, PTX_T_U32), PTX_LAT_INT_MAX);
    assert_int_equal(ptx_latency_class_of(PTX_OP_MUL, PTX_T_S32), PTX_LAT_INT_MUL);
    assert_int_equal(ptx_latency_class_of(PTX_OP_FMA, PTX_T_F32), PTX_LAT_FP_MAD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_FMA, PTX_T_F64), PTX_LAT_DP_MAD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_MAD, PTX_T_S32), PTX_LAT_INT_MAD);
    assert_int_equal(ptx_latency_class_of(PTX_OP_DIV, PTX_T_F32), PTX_LAT_FP_DIV);
    assert_int_equal(ptx_latency_class_of(PTX_OP_REM, PTX_T_S32), PTX_LAT_INT_DIV);
    assert_int_equal(ptx_latency_class_of(PTX_OP_SQRT, PTX_T_F32), PTX_LAT_SFU);
    assert_int_equal(ptx_latency_class_of(PTX_OP_EX2, PTX_T_F32), PTX_LAT_SFU);
    assert_int_equal(ptx_latency_class_of(PTX_OP_MOV, PTX_T_U32), PTX_LAT_OTHER);
    assert_int_equal(ptx_latency_class_of(PTX_OP_SETP, PTX_T_S32), PTX_LAT_OTHER);
    assert_int_equal(ptx_latency_class_of(PTX_OP_SHL, PTX_T_B32), PTX_LAT_OTHER);
    assert_int_equal(ptx_latency_class_of(PTX_OP_LD, PTX_T_F32), PTX_LAT_MEM);
    assert_int_equal(ptx_latency_class_of(PTX_OP_ATOM, PTX_T_B32), PTX_LAT_MEM);
    assert_int_equal(ptx_latency_class_of(PTX_OP_BRA, PTX_T_NONE), PTX_LAT_CTRL);
    assert_int_equal(ptx_latency_class_of(PTX_OP_BAR, PTX_T_NONE), PTX_LAT_SYNC);
    assert_int_equal(ptx_latency_class_of(PTX_OP_TEX, PTX_T_F32), PTX_LAT_TEX);
    assert_int_equal(ptx_latency_cycles(NULL, PTX_OP_DIV, PTX_T_F64), 330);

    ptx_lat_class c;
    assert_true(ptx_latency_class_lookup("fp_div", &c));
    assert_int_equal(c, PTX_LAT_FP_DIV);
    assert_string_equal(ptx_latency_class_name(PTX_LAT_INT_MAD), "int_mad");
    assert_false(ptx_latency_class_lookup("nonsense", &c));

    /* A table handed to the pass overrides the defaults: phase 2 of the
     * vector add (add.f32, add.s64, st, ret) becomes 4 + 10 + 1 + 1. */
    ptx_latency_table mine;
    ptx_latency_init(&mine);
    mine.cycles[PTX_LAT_INT_ADD] = 10;
    analysed a = analyse("tests/corpus/phase/fig32_vecadd.ptx", "vecadd", &mine);
    assert_int_equal(a.pi->phases[1].length, 16);
    assert_int_equal(first_type(ptx_func_instr(a.f, 13)), PTX_T_S64);
    assert_int_equal(a.pi->latency[13], 10);
    release(&a);
}

/* ------------------------------------------------------- hand examples */

/* Thesis Fig. 3.2 in PTX: phase 1 = index + loads, phase 2 starts at the
 * add that reads the loaded values (length 10, as in the thesis). */
static void test_fig32_vecadd(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/phase/fig32_vecadd.ptx", "vecadd", NULL);
    const ptx_phase_info *pi = a.pi;
    assert_int_equal(pi->ninstrs, 16);
    assert_int_equal(pi->nphases, 2);
    /* latencies: 3 ld.param, 3 mov = 1 each; mad 5; mul.wide 4; 2 add.s64 4;
     * 2 ld.global 1 | add.f32 4, add.s64 4, st 1, ret 1 */
    const uint32_t lat[] = {1, 1, 1, 1, 1, 1, 5, 4, 4, 4, 1, 1, 4, 4, 1, 1};
    check_u32s(pi->latency, lat, 16);
    const uint32_t dist[] = {25, 24, 23, 22, 21, 20, 19, 14, 10, 6, 2, 1, 10, 6, 2, 1};
    check_u32s(pi->distance, dist, 16);
    check_phase(pi, 0, 0, 12, 25, 1);
    check_phase(pi, 1, 12, 16, 10, PTX_PHASE_NONE);
    assert_int_equal(pi->phases[0].start, PTX_PHASE_START_BLOCK);
    assert_int_equal(pi->phases[1].start, PTX_PHASE_START_LONGOP);
    assert_int_equal(pi->phases[1].trigger_reg, reg_id(a.f, "%f1"));
    assert_int_equal(pi->phases[1].trigger_src, 10);
    for (uint32_t i = 0; i < 16; i++) {
        assert_int_equal(pi->next_length[i], i < 12 ? 10 : 0);
        bool want_long = i == 10 || i == 11 || i == 14 || i == 15;
        assert_int_equal(pi->is_long[i], want_long);
    }
    assert_int_equal(pi->nlong, 4);
    assert_int_equal(pi->longest, 25);
    assert_int_equal(pi->shortest, 10);
    assert_int_equal(pi->longest_phase, 0);
    assert_int_equal(pi->shortest_phase, 1);
    release(&a);
}

/* Several loads feeding one consumer; a consumer of an older load after the
 * set was cleared stays in the phase; a pointer chase makes one-instruction
 * phases; an overwritten long-op register no longer splits; param, shared
 * and const loads are not long-latency. */
static void test_several_loads(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/phase/loads.ptx", "several_loads", NULL);
    const ptx_phase_info *pi = a.pi;
    assert_int_equal(pi->ninstrs, 17);
    assert_int_equal(pi->nphases, 4);
    check_phase(pi, 0, 0, 7, 10, 1);   /* ld.param, 3 ld.global, ld.shared, ld.const, add */
    check_phase(pi, 1, 7, 10, 9, 2);   /* add(r1,r2) add(r7,r3) ld.u64 */
    check_phase(pi, 2, 10, 11, 1, 3);  /* ld [%rd2] */
    check_phase(pi, 3, 11, 17, 12, PTX_PHASE_NONE);
    const uint32_t dist[] = {10, 9, 8, 7, 6, 5, 4, 9, 5, 1, 1, 12, 11, 10, 6, 2, 1};
    check_u32s(pi->distance, dist, 17);
    const uint32_t next[] = {9, 9, 9, 9, 9, 9, 9, 1, 1, 1, 12, 0, 0, 0, 0, 0, 0};
    check_u32s(pi->next_length, next, 17);
    const bool lng[] = {false, true, true, true, false, false, false, false, false, true,
                        true, true, false, false, false, true, true};
    for (uint32_t i = 0; i < 17; i++)
        assert_int_equal(pi->is_long[i], lng[i]);
    assert_int_equal(pi->phases[1].trigger_reg, reg_id(a.f, "%r1"));
    assert_int_equal(pi->phases[2].trigger_reg, reg_id(a.f, "%rd2"));
    assert_int_equal(pi->phases[3].trigger_reg, reg_id(a.f, "%rd3"));
    assert_int_equal(pi->longest, 12);
    assert_int_equal(pi->shortest, 1);
    release(&a);
}

/* Every block starts a phase; next() follows the fall-through of a guarded
 * bra, the target of bra.uni, the fall-through into a label, and stops at
 * ret. */
static void test_blocks(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/phase/blocks.ptx", "branchy", NULL);
    const ptx_phase_info *pi = a.pi;
    assert_int_equal(a.cfg->nblocks, 4);
    assert_int_equal(pi->nphases, 5);
    check_phase(pi, 0, 0, 5, 5, 1);     /* block 0, ends in @%p1 bra */
    check_phase(pi, 1, 5, 8, 9, 2);     /* mul.wide 4, add.s64 4, ld 1 */
    check_phase(pi, 2, 8, 11, 6, 4);    /* mul.f32 4, st 1, bra.uni 1 -> $L_join */
    check_phase(pi, 3, 11, 13, 40, 4);  /* div.rn.f32 39, st 1; falls into $L_join */
    check_phase(pi, 4, 13, 14, 1, PTX_PHASE_NONE);
    for (uint32_t p = 0; p < 5; p++)
        assert_int_equal(pi->phases[p].start,
                         p == 2 ? PTX_PHASE_START_LONGOP : PTX_PHASE_START_BLOCK);
    const uint32_t next[] = {9, 9, 9, 9, 9, 6, 6, 6, 1, 1, 1, 1, 1, 0};
    check_u32s(pi->next_length, next, 14);
    assert_int_equal(pi->longest, 40);
    assert_int_equal(pi->shortest, 1);
    release(&a);
}

/* Nested loops: one phase per block except where a load's consumer splits
 * the inner body. */
static void test_nested_loops(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/phase/nested_loops.ptx", "nested", NULL);
    const ptx_phase_info *pi = a.pi;
    assert_int_equal(a.cfg->nblocks, 5);
    assert_int_equal(a.cfg->loops->len, 2);
    assert_int_equal(pi->nphases, 6);
    check_phase(pi, 0, 0, 4, 4, 1);
    check_phase(pi, 1, 4, 7, 6, 2);     /* outer header: mov, mov, mul.lo */
    check_phase(pi, 2, 7, 11, 13, 3);   /* inner header up to the load */
    check_phase(pi, 3, 11, 15, 10, 4);  /* add.f32 reads the load; back edge falls to 4 */
    check_phase(pi, 4, 15, 19, 7, 5);   /* atom, add, setp, bra */
    check_phase(pi, 5, 19, 20, 1, PTX_PHASE_NONE);
    const uint32_t dist[] = {4, 3, 2, 1, 6, 5, 4, 13, 9, 5, 1, 10, 6, 2, 1, 7, 6, 2, 1, 1};
    check_u32s(pi->distance, dist, 20);
    assert_int_equal(pi->phases[3].start, PTX_PHASE_START_LONGOP);
    assert_int_equal(pi->phases[3].trigger_reg, reg_id(a.f, "%f2"));
    assert_int_equal(pi->longest, 13);
    assert_int_equal(pi->shortest, 1);
    release(&a);
}

/* The phase-rule options (ptx_phase_opts) on a hand-worked kernel
 * (tests/corpus/phase/rules_loop.ptx; blocks 0-7, 8-11 loop, 12-17).
 * Latencies: ld/st/mov/setp/bra/bar/ret 1, mul.wide 4, add.s64/s32/f32 4.
 *   split/offchip:  [0-7] 14 | [8-11] 10 | [12-17] 9          -> 3 / 14 / 9
 *   linear/offchip: [0-7] 14 | [8-17] 19 (the loop's add reads the
 *                   global load across the block boundary)     -> 2 / 19 / 14
 *   split/all:      [0-3] 7 | [4-7] 7 (reads ld.param %rd1) | [8-11] 10 |
 *                   [12-14] 3 | [15-17] 6 (reads ld.shared %f3) -> 5 / 10 / 3
 *   linear/all:     [0-3] 7 | [4-7] 7 | [8-14] 13 | [15-17] 6   -> 4 / 13 / 6 */
static ptx_phase_info *analyse_opts(analysed *a, ptx_phase_blocks b, ptx_phase_loads l)
{
    ptx_phase_opts o;
    ptx_phase_opts_init(&o);
    o.blocks = b;
    o.loads = l;
    return ptx_phase_analyze_opts(a->cfg, NULL, &o);
}

static void test_rule_options(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/phase/rules_loop.ptx", "rules_loop", NULL);
    assert_int_equal(a.pi->ninstrs, 18);
    assert_int_equal(a.cfg->nblocks, 3);

    /* the default options are ptx_phase_analyze's */
    ptx_phase_info *pi = analyse_opts(&a, PTX_PHASE_BLOCKS_SPLIT, PTX_PHASE_LOADS_OFFCHIP);
    assert_int_equal(pi->nphases, 3);
    check_phase(pi, 0, 0, 8, 14, 1);
    check_phase(pi, 1, 8, 12, 10, 2);
    check_phase(pi, 2, 12, 18, 9, PTX_PHASE_NONE);
    assert_int_equal(a.pi->nphases, 3);
    assert_int_equal(pi->longest, 14);
    assert_int_equal(pi->shortest, 9);
    ptx_phase_info_free(pi);

    pi = analyse_opts(&a, PTX_PHASE_BLOCKS_LINEAR, PTX_PHASE_LOADS_OFFCHIP);
    assert_int_equal(pi->nphases, 2);
    check_phase(pi, 0, 0, 8, 14, 1);
    check_phase(pi, 1, 8, 18, 19, PTX_PHASE_NONE);
    assert_int_equal(pi->phases[1].start, PTX_PHASE_START_LONGOP);
    assert_int_equal(pi->phases[1].trigger_reg, reg_id(a.f, "%f1"));
    assert_int_equal(pi->phases[1].trigger_src, 5);
    const uint32_t dist[] = {14, 13, 12, 11, 7, 3, 2, 1, 19, 15, 11, 10, 9, 8, 7, 6, 2, 1};
    check_u32s(pi->distance, dist, 18);
    assert_int_equal(pi->longest, 19);
    assert_int_equal(pi->shortest, 14);
    assert_int_equal(pi->nlong, 5); /* ld.global, bra, bar, st.global, ret */
    ptx_phase_info_free(pi);

    pi = analyse_opts(&a, PTX_PHASE_BLOCKS_SPLIT, PTX_PHASE_LOADS_ALL);
    assert_int_equal(pi->nphases, 5);
    check_phase(pi, 0, 0, 4, 7, 1);
    check_phase(pi, 1, 4, 8, 7, 2);
    check_phase(pi, 2, 8, 12, 10, 3);
    check_phase(pi, 3, 12, 15, 3, 4);
    check_phase(pi, 4, 15, 18, 6, PTX_PHASE_NONE);
    assert_int_equal(pi->phases[1].trigger_reg, reg_id(a.f, "%rd1"));
    assert_int_equal(pi->phases[4].trigger_reg, reg_id(a.f, "%f3"));
    assert_int_equal(pi->longest, 10);
    assert_int_equal(pi->shortest, 3);
    assert_int_equal(pi->nlong, 9); /* + 2 ld.param, st.shared, ld.shared */
    ptx_phase_info_free(pi);

    pi = analyse_opts(&a, PTX_PHASE_BLOCKS_LINEAR, PTX_PHASE_LOADS_ALL);
    assert_int_equal(pi->nphases, 4);
    check_phase(pi, 0, 0, 4, 7, 1);
    check_phase(pi, 1, 4, 8, 7, 2);
    check_phase(pi, 2, 8, 15, 13, 3); /* %r1 (ld.param) was dropped at phase 1 */
    check_phase(pi, 3, 15, 18, 6, PTX_PHASE_NONE);
    assert_int_equal(pi->longest, 13);
    assert_int_equal(pi->shortest, 6);
    ptx_phase_info_free(pi);

    ptx_phase_blocks b;
    ptx_phase_loads l;
    assert_true(ptx_phase_blocks_lookup("linear", &b));
    assert_int_equal(b, PTX_PHASE_BLOCKS_LINEAR);
    assert_true(ptx_phase_loads_lookup("all", &l));
    assert_int_equal(l, PTX_PHASE_LOADS_ALL);
    assert_false(ptx_phase_blocks_lookup("blocks", &b));
    assert_string_equal(ptx_phase_blocks_name(PTX_PHASE_BLOCKS_SPLIT), "split");
    assert_string_equal(ptx_phase_loads_name(PTX_PHASE_LOADS_OFFCHIP), "offchip");
    release(&a);
}

/* nvcc's vector add (bounds check: three blocks). */
static void test_nvcc_vector_add(void **state)
{
    (void)state;
    analysed a = analyse("tests/corpus/nvcc/vector_add.sm_75.ptx", "vector_add", NULL);
    const ptx_phase_info *pi = a.pi;
    assert_int_equal(pi->ninstrs, 22);
    assert_int_equal(pi->nphases, 4);
    check_phase(pi, 0, 0, 10, 14, 1);  /* 4 ld.param, 3 mov, mad 5, setp, bra */
    check_phase(pi, 1, 10, 17, 16, 2); /* cvta, mul.wide 4, add 4, cvta, add 4, 2 ld */
    check_phase(pi, 2, 17, 21, 10, 3); /* add.f32 4, cvta 1, add.s64 4, st 1 */
    check_phase(pi, 3, 21, 22, 1, PTX_PHASE_NONE);
    assert_int_equal(pi->phases[2].trigger_reg, reg_id(a.f, "%f2"));
    assert_int_equal(pi->longest, 16);
    assert_int_equal(pi->shortest, 1);
    release(&a);
}

/* Which instructions are long-latency (thesis §3.3.1 footnote 1). */
static void test_long_latency_classes(void **state)
{
    (void)state;
    static const char text[] =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".const .u32 k;\n"
        ".func f() { ret; }\n"
        ".visible .entry e(.param .u64 p)\n{\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n  .reg .pred %q;\n"
        "  .shared .u32 s;\n  .local .u32 l;\n"
        "  ld.param.u64 %rd1, [p];\n"      /* 0 no  */
        "  ld.global.u32 %r1, [%rd1];\n"   /* 1 yes */
        "  ld.u32 %r1, [%rd1];\n"          /* 2 yes: generic */
        "  ld.local.u32 %r1, [l];\n"       /* 3 yes */
        "  ld.shared.u32 %r1, [s];\n"      /* 4 no  */
        "  ld.const.u32 %r1, [k];\n"       /* 5 no  */
        "  st.shared.u32 [s], %r1;\n"      /* 6 no  */
        "  st.global.u32 [%rd1], %r1;\n"   /* 7 yes */
        "  st.u32 [%rd1], %r1;\n"          /* 8 yes */
        "  atom.shared.add.u32 %r2, [s], 1;\n" /* 9 yes */
        "  red.global.add.u32 [%rd1], 1;\n"    /* 10 yes */
        "  bar.sync 0;\n"                  /* 11 yes */
        "  membar.gl;\n"                   /* 12 yes */
        "  shfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;\n" /* 13 no */
        "  ldu.global.u32 %r1, [%rd1];\n"  /* 14 yes */
        "  setp.eq.u32 %q, %r1, 0;\n"      /* 15 no */
        "  call f;\n"                      /* 16 yes */
        "  @%q bra L;\n"                   /* 17 yes */
        "  mov.u32 %r1, 1;\n"              /* 18 no */
        "L:\n  exit;\n"                    /* 19 yes */
        "}\n";
    const bool want[] = {false, true, true, true, false, false, false, true, true, true,
                         true, true, true, false, true, false, true, true, false, true};
    ptx_module *m = parse_text(text, sizeof text - 1, "classes.ptx");
    const ptx_func *f = ptx_module_func(m, (uint32_t)ptx_module_find_func(m, "e"));
    assert_int_equal(f->instrs->len, 20);
    for (uint32_t i = 0; i < 20; i++) {
        if (ptx_instr_is_long_latency(ptx_func_instr(f, i)) != want[i])
            fail_msg("instruction %u: long-latency should be %d", i, want[i]);
    }
    /* uses/defs: atom writes %r2 and reads the address and its operand */
    GArray *regs = g_array_new(FALSE, FALSE, sizeof(int32_t));
    ptx_instr_defs(f, ptx_func_instr(f, 9), regs);
    assert_int_equal(regs->len, 1);
    assert_int_equal(g_array_index(regs, int32_t, 0), reg_id(f, "%r2"));
    g_array_set_size(regs, 0);
    ptx_instr_uses(f, ptx_func_instr(f, 7), regs); /* st [%rd1], %r1 */
    assert_int_equal(regs->len, 2);
    g_array_set_size(regs, 0);
    ptx_instr_uses(f, ptx_func_instr(f, 17), regs); /* @%q bra: the guard */
    assert_int_equal(regs->len, 1);
    assert_int_equal(g_array_index(regs, int32_t, 0), reg_id(f, "%q"));
    g_array_free(regs, TRUE);
    ptx_module_free(m);
}

/* ------------------------------------------------ every kernel we have */

/* Invariants of any phase annotation. */
static void check_invariants(const ptx_cfg *cfg, const ptx_phase_info *pi, const char *what)
{
    uint32_t n = pi->ninstrs;
    if (pi->nphases < cfg->nblocks)
        fail_msg("%s: %u phases for %u blocks", what, pi->nphases, cfg->nblocks);
    uint32_t expect_first = 0, lo = UINT32_MAX, hi = 0;
    for (uint32_t p = 0; p < pi->nphases; p++) {
        const ptx_phase *ph = &pi->phases[p];
        if (ph->first != expect_first || ph->end <= ph->first)
            fail_msg("%s: phase %u does not continue the previous one", what, p);
        expect_first = ph->end;
        assert_int_equal(pi->distance[ph->first], ph->length);
        assert_int_equal(pi->distance[ph->end - 1], pi->latency[ph->end - 1]);
        for (uint32_t i = ph->first; i + 1 < ph->end; i++)
            assert_int_equal(pi->distance[i], pi->distance[i + 1] + pi->latency[i]);
        for (uint32_t i = ph->first; i < ph->end; i++) {
            assert_int_equal(pi->phase_of[i], p);
            assert_int_equal(cfg->block_of[i], ph->block);
            assert_int_equal(pi->next_length[i],
                             ph->next == PTX_PHASE_NONE ? 0 : pi->phases[ph->next].length);
        }
        if (ph->next != PTX_PHASE_NONE)
            assert_true(ph->next < pi->nphases);
        lo = ph->length < lo ? ph->length : lo;
        hi = ph->length > hi ? ph->length : hi;
    }
    assert_int_equal(expect_first, n);
    for (uint32_t b = 0; b < cfg->nblocks; b++) {
        uint32_t p = pi->phase_of[cfg->blocks[b].first];
        if (pi->phases[p].first != cfg->blocks[b].first)
            fail_msg("%s: block %u does not start a phase", what, b);
    }
    if (pi->nphases) {
        assert_int_equal(pi->longest, hi);
        assert_int_equal(pi->shortest, lo);
    }
}

static unsigned check_file(const char *rel)
{
    ptx_module *m = load(rel);
    unsigned funcs = 0;
    for (guint k = 0; k < m->funcs->len; k++) {
        const ptx_func *f = ptx_module_func(m, k);
        if (!f->has_body)
            continue;
        GError *err = NULL;
        ptx_cfg *cfg = ptx_cfg_build(m, f, &err);
        if (!cfg)
            fail_msg("%s", err->message);
        ptx_phase_info *pi = ptx_phase_analyze(cfg, NULL);
        char *what = g_strdup_printf("%s:%s", rel, f->name);
        check_invariants(cfg, pi, what);
        ptx_spin_info *si = ptx_spin_analyze(m, cfg);
        for (guint c = 0; c < si->cands->len; c++) {
            const ptx_spin_cand *cd = &g_array_index(si->cands, ptx_spin_cand, c);
            uint16_t op = ptx_func_instr(f, cd->setp)->op;
            assert_true(op == PTX_OP_SETP || op == PTX_OP_SET);
            assert_true(ptx_cfg_loop_contains(cfg, cd->loop, cfg->block_of[cd->setp]));
            assert_non_null(cd->reason);
        }
        g_free(what);
        ptx_spin_info_free(si);
        ptx_phase_info_free(pi);
        ptx_cfg_free(cfg);
        funcs++;
    }
    ptx_module_free(m);
    return funcs;
}

static unsigned check_dir(const char *rel_dir, const char *only_name)
{
    char *dir = test_source_path(rel_dir);
    GDir *d = g_dir_open(dir, 0, NULL);
    unsigned funcs = 0;
    if (!d) {
        g_free(dir);
        return 0;
    }
    const char *name;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    while ((name = g_dir_read_name(d)))
        g_ptr_array_add(names, g_strdup(name));
    g_dir_close(d);
    for (guint k = 0; k < names->len; k++) {
        const char *e = g_ptr_array_index(names, k);
        char *rel = only_name ? g_build_filename(rel_dir, e, only_name, NULL)
                              : g_build_filename(rel_dir, e, NULL);
        char *abs = test_source_path(rel);
        if (g_str_has_suffix(rel, ".ptx") && g_file_test(abs, G_FILE_TEST_IS_REGULAR))
            funcs += check_file(rel);
        g_free(abs);
        g_free(rel);
    }
    g_ptr_array_free(names, TRUE);
    g_free(dir);
    return funcs;
}

static void test_corpus_invariants(void **state)
{
    (void)state;
    assert_true(check_dir("tests/corpus/nvcc", NULL) > 0);
    assert_true(check_dir("tests/corpus/hand", NULL) > 0);
    assert_true(check_dir("tests/corpus/phase", NULL) >= 6);
}

/* Every benchmark kernel that exists (benchmarks/NAME/kernels.ptx). */
static void test_benchmark_invariants(void **state)
{
    (void)state;
    check_dir("benchmarks", "kernels.ptx");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_table),
        cmocka_unit_test(test_fig32_vecadd),
        cmocka_unit_test(test_several_loads),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_rule_options),
        cmocka_unit_test(test_nvcc_vector_add),
        cmocka_unit_test(test_long_latency_classes),
        cmocka_unit_test(test_corpus_invariants),
        cmocka_unit_test(test_benchmark_invariants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
