/* tests/runtime/test_wmma.c — wmma.load/mma/store end to end for every
 * shape x type PTX defines (PTX ISA "Warp Level Matrix Multiply-Accumulate
 * Instructions: wmma"), and ldmatrix, stmatrix, movmatrix against the
 * manual's fragment figures.
 *
 * wmma's fragment layout is implementation-defined, so wmma is checked the
 * way a program sees it: matrices in memory (row- or column-major, default
 * or padded strides), load, mma, store, and D compared with the CPU model
 * of tests/support/mma_model.h. */
#include "tests/support/mma_model.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#define HEADER ".version 8.7\n.target sm_90\n.address_size 64\n"

typedef struct wcase {
    unsigned m, n, k;
    tm_type at, ct, dt;   /* B has A's type (signedness may differ: bt) */
    tm_type bt;
    int bitop;
    bool satfinite;
} wcase;

/* Fragment registers per the manual's wmma fragment tables. */
static unsigned frag_regs(const wcase *c, int o)
{
    tm_type t = o == 0 ? c->at : o == 1 ? c->bt : o == 2 ? c->ct : c->dt;
    if (o >= 2)
        return t == TM_F16 ? 4 : t == TM_F64 || c->k >= 32 ? 2 : 8;
    if (t == TM_F16)
        return 8;
    unsigned rows = o == 0 ? c->m : c->k, cols = o == 0 ? c->k : c->n;
    unsigned bits = tm_bits(t);
    return bits == 64 ? rows * cols / 32 : rows * cols * bits / 32 / 32;
}

static const char *reg_decl(tm_type t)
{
    return t == TM_F64 ? "f64" : t == TM_F32 ? "f32" : "b32";
}

static void mat_init(tm_mat *mm, unsigned rows, unsigned cols, tm_type t, int col_major,
                     bool padded)
{
    unsigned lead = col_major ? rows : cols;
    mm->rows = rows, mm->cols = cols, mm->t = t, mm->col_major = col_major;
    mm->ld = lead + (padded ? 128 / tm_bits(t) : 0); /* padding keeps rows 16-byte aligned */
    mm->size = ((size_t)mm->ld * (col_major ? cols : rows) * tm_bits(t) + 7) / 8 + 32;
    mm->bytes = g_malloc0(mm->size);
}

static char *type_suffix(const wcase *c)
{
    if (c->at == TM_F16)
        return g_strdup_printf("%s.%s", tm_name(c->dt), tm_name(c->ct));
    return g_strdup_printf("%s.%s.%s.%s", tm_name(c->dt), tm_name(c->at), tm_name(c->bt),
                           tm_name(c->ct));
}

static void frag_list(GString *s, char name, unsigned n)
{
    g_string_append(s, "{");
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(s, "%s%%%c%u", i ? ", " : "", name, i);
    g_string_append(s, "}");
}

/* load a, b, c (layouts lay[0..2]), mma, store d (layout lay[3]); strides
 * are operands when `strided`. */
static char *wmma_kernel(const wcase *c, const int lay[4], const tm_mat mm[4], bool strided)
{
    GString *s = g_string_new(HEADER);
    g_string_append(s, ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, "
                       ".param .u64 pd)\n{\n  .reg .b64 %rd<5>;\n  .reg .b32 %s<4>;\n");
    static const char names[] = "abcd";
    tm_type ty[4] = {c->at, c->bt, c->ct, c->dt};
    for (int o = 0; o < 4; o++)
        g_string_append_printf(s, "  .reg .%s %%%c<%u>;\n", reg_decl(ty[o]), names[o],
                               frag_regs(c, o));
    for (int o = 0; o < 4; o++)
        g_string_append_printf(s, "  ld.param.u64 %%rd%d, [p%c];\n  mov.u32 %%s%d, %u;\n", o + 1,
                               names[o], o, mm[o].ld);
    char shape[32];
    snprintf(shape, sizeof shape, "m%un%uk%u", c->m, c->n, c->k);
    for (int o = 0; o < 3; o++) {
        g_string_append_printf(s, "  wmma.load.%c.sync.aligned.%s.%s.global.%s ", names[o],
                               lay[o] ? "col" : "row", shape, tm_name(ty[o]));
        frag_list(s, names[o], frag_regs(c, o));
        g_string_append_printf(s, ", [%%rd%d]", o + 1);
        if (strided)
            g_string_append_printf(s, ", %%s%d", o);
        g_string_append(s, ";\n");
    }
    char *types = type_suffix(c);
    g_string_append_printf(s, "  wmma.mma%s.sync.aligned.%s.%s.%s%s.%s ",
                           c->bitop == 1 ? ".xor.popc" : c->bitop == 2 ? ".and.popc" : "",
                           lay[0] ? "col" : "row", lay[1] ? "col" : "row", shape,
                           c->satfinite ? ".satfinite" : "", types);
    g_free(types);
    for (int o = 0; o < 4; o++) {
        int which = o == 0 ? 3 : o - 1;
        frag_list(s, names[which], frag_regs(c, which));
        g_string_append(s, o < 3 ? ", " : ";\n");
    }
    g_string_append_printf(s, "  wmma.store.d.sync.aligned.%s.%s.global.%s [%%rd4], ",
                           lay[3] ? "col" : "row", shape, tm_name(c->dt));
    frag_list(s, 'd', frag_regs(c, 3));
    g_string_append(s, strided ? ", %s3;\n  ret;\n}\n" : ";\n  ret;\n}\n");
    return g_string_free(s, FALSE);
}

static uint32_t rnd32(void *st)
{
    return g_rand_int(st);
}

static void check_wmma(const wcase *c, const int lay[4], bool strided, GRand *rng)
{
    tm_type ty[4] = {c->at, c->bt, c->ct, c->dt};
    unsigned dims[4][2] = {{c->m, c->k}, {c->k, c->n}, {c->m, c->n}, {c->m, c->n}};
    tm_mat mm[4];
    uint64_t *mat[4], *want = g_new0(uint64_t, c->m * c->n);
    for (int o = 0; o < 4; o++) {
        mat_init(&mm[o], dims[o][0], dims[o][1], ty[o], lay[o], strided);
        mat[o] = g_new0(uint64_t, dims[o][0] * dims[o][1]);
        for (unsigned r = 0; o < 3 && r < dims[o][0]; r++)
            for (unsigned col = 0; col < dims[o][1]; col++) {
                uint64_t v = tm_random(ty[o], rnd32, rng);
                mat[o][r * dims[o][1] + col] = v;
                tm_mat_put(&mm[o], r, col, v);
            }
    }
    char *text = wmma_kernel(c, lay, mm, strided), *err = NULL;
    test_buf tb[4];
    for (int o = 0; o < 4; o++)
        tb[o] = (test_buf){mm[o].bytes, mm[o].size};
    if (test_run_ptx(text, "k", 1, 32, tb, 4, &err) != PTXEMU_OK)
        fail_msg("%s\n%s", err, text);
    tm_problem p = {c->m, c->n, c->k, c->at, c->bt, c->ct, c->dt, c->satfinite, c->bitop};
    tm_model(&p, mat[0], mat[1], mat[2], want);
    for (unsigned r = 0; r < c->m; r++)
        for (unsigned col = 0; col < c->n; col++) {
            uint64_t got = tm_mat_get(&mm[3], r, col);
            if (got != want[r * c->n + col])
                fail_msg("D(%u,%u) is 0x%llx, want 0x%llx\n%s", r, col, (unsigned long long)got,
                         (unsigned long long)want[r * c->n + col], text);
        }
    g_free(text);
    g_free(want);
    for (int o = 0; o < 4; o++) {
        g_free(mm[o].bytes);
        g_free(mat[o]);
    }
}

static void test_wmma_all(void **state)
{
    (void)state;
    static const unsigned shapes16[][3] = {{16, 16, 16}, {32, 8, 16}, {8, 32, 16}};
    GRand *rng = g_rand_new_with_seed(17);
    unsigned runs = 0;
    for (int s = 0; s < 3; s++) {
        unsigned m = shapes16[s][0], n = shapes16[s][1], k = shapes16[s][2];
        /* .f16: every accumulator pair, every layout of A, B, C, D */
        for (int ct = 0; ct < 2; ct++)
            for (int dt = 0; dt < 2; dt++)
                for (int lay = 0; lay < 16; lay++) {
                    wcase c = {m, n, k, TM_F16, ct ? TM_F32 : TM_F16, dt ? TM_F32 : TM_F16,
                               TM_F16, 0, false};
                    int l[4] = {lay & 1, lay >> 1 & 1, lay >> 2 & 1, lay >> 3 & 1};
                    check_wmma(&c, l, lay % 3 == 0, rng);
                    runs++;
                }
        for (int lay = 0; lay < 4; lay++) {
            int l[4] = {lay & 1, lay >> 1 & 1, lay & 1, lay >> 1 & 1};
            wcase bf = {m, n, k, TM_BF16, TM_F32, TM_F32, TM_BF16, 0, false};
            check_wmma(&bf, l, lay == 1, rng);
            for (int sg = 0; sg < 4; sg++) {
                wcase i8 = {m, n, k, sg & 1 ? TM_U8 : TM_S8, TM_S32, TM_S32,
                            sg & 2 ? TM_U8 : TM_S8, 0, lay == 2};
                check_wmma(&i8, l, lay == 3, rng);
            }
            runs += 5;
        }
    }
    for (int lay = 0; lay < 4; lay++) {
        int l[4] = {lay & 1, lay >> 1 & 1, lay >> 1 & 1, lay & 1};
        wcase tf = {16, 16, 8, TM_TF32, TM_F32, TM_F32, TM_TF32, 0, false};
        check_wmma(&tf, l, lay == 2, rng);
        wcase f64 = {8, 8, 4, TM_F64, TM_F64, TM_F64, TM_F64, 0, false};
        check_wmma(&f64, l, lay == 1, rng);
        runs += 2;
    }
    /* sub-byte: A .row, B .col only */
    for (int sg = 0; sg < 4; sg++)
        for (int strided = 0; strided < 2; strided++) {
            int l[4] = {0, 1, strided, !strided};
            wcase i4 = {8, 8, 32, sg & 1 ? TM_U4 : TM_S4, TM_S32, TM_S32, sg & 2 ? TM_U4 : TM_S4,
                        0, sg == 3};
            check_wmma(&i4, l, strided, rng);
            wcase b1 = {8, 8, 128, TM_B1, TM_S32, TM_S32, TM_B1, 1 + (sg & 1), false};
            check_wmma(&b1, l, strided, rng);
            runs += 2;
        }
    g_rand_free(rng);
    assert_int_equal(runs, 3 * (64 + 20) + 8 + 16);
}

/* wmma.load needs a 256-bit aligned address (PTX ISA "Matrix Storage for
 * WMMA"): 16 bytes off is a located fault naming the address. */
static void test_wmma_misaligned(void **state)
{
    (void)state;
    static const char text[] = HEADER
        ".visible .entry k(.param .u64 pa)\n{\n  .reg .b64 %rd<3>;\n  .reg .b32 %a<8>;\n"
        "  ld.param.u64 %rd1, [pa];\n  add.s64 %rd2, %rd1, 16;\n"
        "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0,%a1,%a2,%a3,%a4,%a5,%a6,%a7}, "
        "[%rd2];\n  ret;\n}\n";
    uint8_t buf[1024] = {0};
    test_buf tb = {buf, sizeof buf};
    char *err = NULL;
    assert_int_not_equal(test_run_ptx(text, "k", 1, 32, &tb, 1, &err), PTXEMU_OK);
    assert_non_null(strstr(err, "32-byte aligned"));
    g_free(err);
}

/* ldmatrix / stmatrix .m8n8 .b16 (PTX ISA "ldmatrix" figures): lane 8j + r
 * gives the address of row r of matrix j; lane l receives in register j
 * row l/4, elements 2(l%4) and 2(l%4)+1 (.trans: column l/4, rows 2(l%4)
 * and 2(l%4)+1).  Rows are 32 bytes apart in shared memory, matrices 256;
 * with .x1/.x2 the lanes from 8 and 16 on give addresses outside shared
 * memory, which must be ignored. */
static char *ldst_kernel(unsigned nmat, bool trans, bool store)
{
    GString *s = g_string_new(HEADER);
    g_string_append(s, ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                       "  .shared .align 16 .b8 sm[1024];\n"
                       "  .reg .b32 %l, %j, %r<4>, %v;\n  .reg .b64 %rd<10>;\n  .reg .pred %p;\n"
                       "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
                       "  mov.u32 %l, %tid.x;\n  mul.wide.u32 %rd3, %l, 32;\n"
                       "  mov.u64 %rd4, sm;\n  add.s64 %rd5, %rd4, %rd3;\n"
                       "  add.s64 %rd6, %rd1, %rd3;\n");
    if (!store) /* shared <- in (1024 bytes, 32 per lane) */
        for (int i = 0; i < 8; i++)
            g_string_append_printf(s, "  ld.global.u32 %%v, [%%rd6+%d];\n"
                                      "  st.shared.u32 [%%rd5+%d], %%v;\n", 4 * i, 4 * i);
    g_string_append(s, "  bar.sync 0;\n"
                       "  shr.u32 %j, %l, 3;\n  and.b32 %v, %l, 7;\n"
                       "  mul.wide.u32 %rd7, %j, 256;\n  mul.wide.u32 %rd8, %v, 32;\n"
                       "  add.s64 %rd7, %rd7, %rd8;\n  add.s64 %rd7, %rd7, %rd4;\n");
    g_string_append_printf(s, "  setp.ge.u32 %%p, %%l, %u;\n  @%%p mov.u64 %%rd7, 0xfff000;\n",
                           8 * nmat);
    g_string_append(s, "  mul.wide.u32 %rd9, %l, 16;\n  add.s64 %rd9, %rd9, %rd");
    g_string_append(s, store ? "1;\n" : "2;\n");
    GString *regs = g_string_new("{");
    for (unsigned j = 0; j < nmat; j++)
        g_string_append_printf(regs, "%s%%r%u", j ? ", " : "", j);
    g_string_append(regs, "}");
    if (store) {
        for (unsigned j = 0; j < nmat; j++)
            g_string_append_printf(s, "  ld.global.u32 %%r%u, [%%rd9+%u];\n", j, 4 * j);
        g_string_append_printf(s, "  stmatrix.sync.aligned.m8n8.x%u%s.shared.b16 [%%rd7], %s;\n"
                                  "  bar.sync 0;\n", nmat, trans ? ".trans" : "", regs->str);
        g_string_append(s, "  add.s64 %rd6, %rd2, %rd3;\n");
        for (int i = 0; i < 8; i++)
            g_string_append_printf(s, "  ld.shared.u32 %%v, [%%rd5+%d];\n"
                                      "  st.global.u32 [%%rd6+%d], %%v;\n", 4 * i, 4 * i);
    } else {
        g_string_append_printf(s, "  ldmatrix.sync.aligned.m8n8.x%u%s.shared.b16 %s, [%%rd7];\n",
                               nmat, trans ? ".trans" : "", regs->str);
        for (unsigned j = 0; j < nmat; j++)
            g_string_append_printf(s, "  st.global.u32 [%%rd9+%u], %%r%u;\n", 4 * j, j);
    }
    g_string_append(s, "  ret;\n}\n");
    g_string_free(regs, TRUE);
    return g_string_free(s, FALSE);
}

/* Element (r, c) of matrix j as the lane fragment holds it. */
static uint16_t frag_elem(const uint32_t *frag, unsigned j, unsigned r, unsigned c, bool trans)
{
    unsigned rr = trans ? c : r, cc = trans ? r : c; /* fragment row/col */
    uint32_t v = frag[(rr * 4 + cc / 2) * 4 + j];
    return (uint16_t)(v >> (16 * (cc % 2)));
}

static void test_ldmatrix_stmatrix(void **state)
{
    (void)state;
    static const unsigned nmats[] = {1, 2, 4};
    for (int st = 0; st < 2; st++)
        for (size_t x = 0; x < 3; x++)
            for (int tr = 0; tr < 2; tr++) {
                unsigned nmat = nmats[x];
                uint16_t smem[512];   /* matrix j row r col c at j*128 + r*16 + c */
                uint32_t frag[32 * 4];/* lane l register j at l*4 + j */
                for (unsigned i = 0; i < 512; i++)
                    smem[i] = (uint16_t)(0x1000u + i);
                for (unsigned i = 0; i < 128; i++)
                    frag[i] = 0x80000000u + 0x10001u * i;
                uint8_t in[1024], out[1024];
                memset(out, 0, sizeof out);
                if (st)
                    memcpy(in, frag, sizeof frag);
                else
                    memcpy(in, smem, sizeof smem);
                char *text = ldst_kernel(nmat, tr, st), *err = NULL;
                test_buf tb[2] = {{in, sizeof in}, {out, sizeof out}};
                if (test_run_ptx(text, "k", 1, 32, tb, 2, &err) != PTXEMU_OK)
                    fail_msg("%s\n%s", err, text);
                const uint16_t *o16 = (const uint16_t *)out;
                const uint32_t *o32 = (const uint32_t *)out;
                for (unsigned j = 0; j < nmat; j++)
                    for (unsigned r = 0; r < 8; r++)
                        for (unsigned c = 0; c < 8; c++) {
                            if (st) /* shared row r of matrix j = the fragment's element */
                                assert_int_equal(o16[j * 128 + r * 16 + c],
                                                 frag_elem(frag, j, r, c, tr));
                            else
                                assert_int_equal(frag_elem(o32, j, r, c, tr),
                                                 smem[j * 128 + r * 16 + c]);
                        }
                g_free(text);
            }
}

/* movmatrix.m8n8.trans.b16: lane l's result is column l/4, rows 2(l%4)
 * and 2(l%4)+1 of the source fragment. */
static void test_movmatrix(void **state)
{
    (void)state;
    static const char text[] = HEADER
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .b32 %l, %a, %d;\n  .reg .b64 %rd<5>;\n"
        "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
        "  mov.u32 %l, %tid.x;\n  mul.wide.u32 %rd3, %l, 4;\n"
        "  add.s64 %rd1, %rd1, %rd3;\n  add.s64 %rd2, %rd2, %rd3;\n"
        "  ld.global.u32 %a, [%rd1];\n"
        "  movmatrix.sync.aligned.m8n8.trans.b16 %d, %a;\n"
        "  st.global.u32 [%rd2], %d;\n  ret;\n}\n";
    uint32_t in[32], out[32] = {0};
    for (unsigned l = 0; l < 32; l++) /* source row l/4 cols 2(l%4), +1: value 16*row + col */
        in[l] = (16u * (l / 4) + 2 * (l % 4)) | (16u * (l / 4) + 2 * (l % 4) + 1) << 16;
    test_buf tb[2] = {{in, sizeof in}, {out, sizeof out}};
    char *err = NULL;
    assert_int_equal(test_run_ptx(text, "k", 1, 32, tb, 2, &err), PTXEMU_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned col = l / 4, r0 = 2 * (l % 4);
        assert_int_equal(out[l], (16u * r0 + col) | (16u * (r0 + 1) + col) << 16);
    }
}

static uint16_t rand_half(GRand *rng)
{
    return (uint16_t)tm_random(TM_F16, rnd32, rng);
}

/* tests/corpus/cuda/tensor_cores.cu as nvcc 13 compiled it (sm_75: two
 * m16n8k8; sm_80 and sm_90: m16n8k16), against CPU references: the wmma
 * GEMM (32x32x32, four warps, nvcuda::wmma with an element-wise x2 of the
 * accumulator) and the ldmatrix + mma.sync tile with movmatrix. */
static void test_nvcc_kernels(void **state)
{
    (void)state;
    static const char *const files[] = {"tests/corpus/nvcc/tensor_cores.sm_75.ptx",
                                        "tests/corpus/nvcc/tensor_cores.sm_80.ptx",
                                        "tests/corpus/nvcc/tensor_cores.sm_90.ptx"};
    GRand *rng = g_rand_new_with_seed(17);
    for (size_t f = 0; f < G_N_ELEMENTS(files); f++) {
        char *ptx = test_read_file(files[f], NULL), *err = NULL;
        uint16_t a[32 * 32], b[32 * 32];
        float c[32 * 32];
        for (unsigned i = 0; i < 32 * 32; i++) {
            a[i] = rand_half(rng);
            b[i] = rand_half(rng);
        }
        test_buf gb[3] = {{a, sizeof a}, {b, sizeof b}, {c, sizeof c}};
        if (test_run_ptx(ptx, "wmma_gemm", 1, 128, gb, 3, &err) != PTXEMU_OK)
            fail_msg("%s: %s", files[f], err);
        for (unsigned i = 0; i < 32; i++)
            for (unsigned j = 0; j < 32; j++) {
                float acc = 0.0f; /* b is column-major */
                for (unsigned k = 0; k < 32; k++)
                    acc = fmaf(tm_to_f32(TM_F16, a[i * 32 + k]), tm_to_f32(TM_F16, b[j * 32 + k]),
                               acc);
                assert_int_equal(tm_f2u(c[i * 32 + j]), tm_f2u(2.0f * acc));
            }
        float d[16 * 8];
        uint32_t t[32];
        test_buf tb[4] = {{a, 16 * 16 * 2}, {b, 16 * 8 * 2}, {d, sizeof d}, {t, sizeof t}};
        if (test_run_ptx(ptx, "mma_tile", 1, 32, tb, 4, &err) != PTXEMU_OK)
            fail_msg("%s: %s", files[f], err);
        for (unsigned i = 0; i < 16; i++)
            for (unsigned j = 0; j < 8; j++) {
                float acc = 0.0f; /* a 16x16 and b 16x8, both row-major */
                for (unsigned k = 0; k < 16; k++)
                    acc = fmaf(tm_to_f32(TM_F16, a[i * 16 + k]), tm_to_f32(TM_F16, b[k * 8 + j]),
                               acc);
                assert_int_equal(tm_f2u(d[i * 8 + j]), tm_f2u(acc));
            }
        for (unsigned l = 0; l < 32; l++) {
            unsigned col = l / 4, r0 = 2 * (l % 4);
            assert_int_equal(t[l], a[r0 * 16 + col] | (uint32_t)a[(r0 + 1) * 16 + col] << 16);
        }
        g_free(ptx);
    }
    g_rand_free(rng);
}

/* wmma.mma .satfinite with .f16 D (PTX ISA wmma.mma): a sum beyond the
 * .f16 range is +inf without it and the largest finite value (65504,
 * 0x7bff) with it.  A = B = 256 everywhere: each D = 16 x 65536. */
static void test_wmma_satfinite(void **state)
{
    (void)state;
    for (int sat = 0; sat < 2; sat++) {
        char *text = g_strdup_printf(
            HEADER ".visible .entry k(.param .u64 pa, .param .u64 pd)\n{\n"
            "  .reg .b64 %%rd<3>;\n  .reg .b32 %%a<8>, %%c<4>, %%d<4>;\n"
            "  ld.param.u64 %%rd1, [pa];\n  ld.param.u64 %%rd2, [pd];\n"
            "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%%a0,%%a1,%%a2,%%a3,%%a4,%%a5,%%a6,%%a7}, [%%rd1];\n"
            "  mov.b32 %%c0, 0;\n  mov.b32 %%c1, 0;\n  mov.b32 %%c2, 0;\n  mov.b32 %%c3, 0;\n"
            "  wmma.mma.sync.aligned.row.row.m16n16k16%s.f16.f16 {%%d0,%%d1,%%d2,%%d3}, "
            "{%%a0,%%a1,%%a2,%%a3,%%a4,%%a5,%%a6,%%a7}, {%%a0,%%a1,%%a2,%%a3,%%a4,%%a5,%%a6,%%a7}, "
            "{%%c0,%%c1,%%c2,%%c3};\n"
            "  wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%%rd2], {%%d0,%%d1,%%d2,%%d3};\n"
            "  ret;\n}\n", sat ? ".satfinite" : "");
        uint16_t a[256], d[256];
        for (unsigned i = 0; i < 256; i++)
            a[i] = 0x5c00; /* 256.0 */
        memset(d, 0, sizeof d);
        test_buf tb[2] = {{a, sizeof a}, {d, sizeof d}};
        char *err = NULL;
        if (test_run_ptx(text, "k", 1, 32, tb, 2, &err) != PTXEMU_OK)
            fail_msg("%s", err);
        for (unsigned i = 0; i < 256; i++)
            assert_int_equal(d[i], sat ? 0x7bff : 0x7c00);
        g_free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmma_all),
        cmocka_unit_test(test_wmma_misaligned),
        cmocka_unit_test(test_wmma_satfinite),
        cmocka_unit_test(test_ldmatrix_stmatrix),
        cmocka_unit_test(test_movmatrix),
        cmocka_unit_test(test_nvcc_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
