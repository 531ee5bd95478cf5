/* tests/runtime/test_mma.c — mma.sync for every shape x type combination
 * PTX defines (PTX ISA "Warp Level Matrix Multiply-Accumulate
 * Instructions: mma"), against the CPU model of tests/support/mma_model.h.
 *
 * Each case draws A, B and C from a fixed seed, packs them into the 32
 * lanes' registers with the manual's fragment formulas ("Matrix Fragments
 * for mma.mXnYkZ", written out below shape by shape as the manual states
 * them), runs one mma through the executor and unpacks D the same way.
 * Hand-computed cases check single elements against the layout figures:
 * which lane, which register, which half. */
#include "tests/support/mma_model.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fenv.h>
#include <stdio.h>
#include <string.h>

#define SLOTS 16 /* registers per lane and operand in the buffers (8 bytes each) */

typedef struct mcase {
    unsigned m, n, k;
    tm_type at, bt, ct, dt;
    int alayout, blayout; /* 0 row, 1 col */
    bool satfinite;
    int bitop;
    int rnd; /* .f64: 0 none, 1 .rn, 2 .rz, 3 .rm, 4 .rp */
} mcase;

enum { OA, OB, OC, OD };

static tm_type type_of(const mcase *c, int o)
{
    return o == OA ? c->at : o == OB ? c->bt : o == OC ? c->ct : c->dt;
}

static bool is_m8n8k4_f16(const mcase *c)
{
    return c->m == 8 && c->k == 4 && c->at == TM_F16;
}

/* Elements per lane of operand o. */
static unsigned elems(const mcase *c, int o)
{
    unsigned r = o == OB ? c->k : c->m, cols = o == OA ? c->k : c->n;
    return (is_m8n8k4_f16(c) ? 4u : 1u) * r * cols / 32u;
}

static unsigned regs_of(const mcase *c, int o)
{
    unsigned b = tm_bits(type_of(c, o));
    return b == 64 ? elems(c, o) : elems(c, o) * b / 32u;
}

/* The manual's formulas: element i of lane's fragment of operand o is
 * (batch, row, col). */
static void layout(const mcase *c, int o, unsigned lane, unsigned i, unsigned *bt,
                   unsigned *row, unsigned *col)
{
    unsigned g = lane >> 2, t = lane % 4, hi = lane >= 16;
    tm_type ty = type_of(c, o);
    unsigned bits = tm_bits(ty), k = c->k;
    *bt = 0;
    if (is_m8n8k4_f16(c)) { /* four quad-pair products */
        *bt = (lane % 16) / 4;
        if (o == OA) {
            *row = c->alayout == 0 ? t + 4 * hi : i % 4 + 4 * hi;
            *col = c->alayout == 0 ? i : t;
        } else if (o == OB) {
            *row = c->blayout == 0 ? t : i;
            *col = c->blayout == 0 ? i + 4 * hi : t + 4 * hi;
        } else if (ty == TM_F16) {
            *row = t + 4 * hi;
            *col = i;
        } else {
            unsigned x = (t & 1) + (i & 2);
            *row = hi ? x + 4 : x;
            *col = (i & 4) + (t & 2) + (i & 1);
        }
        return;
    }
    if (o >= OC) {
        *row = c->m == 8 ? g : (i < 2 ? g : g + 8);
        *col = c->m == 8 ? t * 2 + i : t * 2 + (i & 1);
        return;
    }
    if (o == OA) {
        if (bits == 16 && k == 8) {
            *row = i < 2 ? g : g + 8;
            *col = t * 2 + (i & 1);
        } else if (bits == 16) { /* m16n8k16 */
            *row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
            *col = i < 4 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8;
        } else if (bits >= 32 && c->m == 8) { /* f64 m8n8k4 */
            *row = g;
            *col = t;
        } else if (bits >= 32 && k == 4) { /* tf32, f64 m16n8k4 */
            *row = i == 0 ? g : g + 8;
            *col = t;
        } else if (bits >= 32 && k == 8) { /* tf32, f64 m16n8k8 */
            *row = (i == 0 || i == 2) ? g : g + 8;
            *col = i < 2 ? t : t + 4;
        } else if (bits >= 32) { /* f64 m16n8k16 */
            *row = i % 2 == 0 ? g : g + 8;
            *col = i % 2 == 0 ? i * 2 + t : i * 2 - 2 + t;
        } else if (bits == 8 && c->m == 8) {
            *row = g;
            *col = t * 4 + i;
        } else if (bits == 8 && k == 16) {
            *row = i < 4 ? g : g + 8;
            *col = t * 4 + (i & 3);
        } else if (bits == 8) { /* k32 */
            *row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
            *col = i < 8 ? t * 4 + (i & 3) : t * 4 + (i & 3) + 16;
        } else if (bits == 4 && c->m == 8) {
            *row = g;
            *col = t * 8 + i;
        } else if (bits == 4 && k == 32) {
            *row = i < 8 ? g : g + 8;
            *col = t * 8 + (i & 7);
        } else if (bits == 4) { /* k64 */
            *row = (i < 8 || (i >= 16 && i < 24)) ? g : g + 8;
            *col = i < 16 ? t * 8 + (i & 7) : t * 8 + (i & 7) + 32;
        } else if (c->m == 8) { /* b1 m8n8k128 */
            *row = g;
            *col = t * 32 + i;
        } else if (k == 128) {
            *row = i < 32 ? g : g + 8;
            *col = t * 32 + (i & 31);
        } else { /* b1 k256 */
            *row = (i < 32 || (i >= 64 && i < 96)) ? g : g + 8;
            *col = i < 64 ? t * 32 + (i & 31) : t * 32 + (i & 31) + 128;
        }
        return;
    }
    *col = g; /* B */
    if (bits == 16)
        *row = k == 8 ? t * 2 + i : (i < 2 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8);
    else if (bits >= 32)
        *row = k == 4 ? t : t + 4 * i;
    else if (bits == 8)
        *row = k == 16 ? t * 4 + i : (i < 4 ? t * 4 + (i & 3) : t * 4 + (i & 3) + 16);
    else if (bits == 4)
        *row = k == 32 ? t * 8 + i : (i < 8 ? t * 8 + (i & 7) : t * 8 + (i & 7) + 32);
    else
        *row = k == 128 ? t * 32 + i : (i < 32 ? t * 32 + (i & 31) : t * 32 + (i & 31) + 128);
}

static const char *reg_decl(tm_type t)
{
    return t == TM_F64 ? "f64" : t == TM_F32 ? "f32" : "b32";
}

static const char *ld_type(tm_type t)
{
    return t == TM_F64 ? "f64" : t == TM_F32 ? "f32" : "u32";
}

/* The kernel: each lane loads its registers of A, B, C (8-byte slots,
 * SLOTS per lane), runs `instr` and stores D the same way. */
static char *kernel_text(const mcase *c, const char *instr)
{
    GString *s = g_string_new(".version 8.7\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .u64 pa, .param .u64 pb, "
                              ".param .u64 pc, .param .u64 pd)\n{\n"
                              "  .reg .b32 %l;\n  .reg .b64 %rd<12>;\n");
    static const char names[] = "abcd";
    for (int o = 0; o < 4; o++)
        g_string_append_printf(s, "  .reg .%s %%%c<%u>;\n", reg_decl(type_of(c, o)), names[o],
                                regs_of(c, o));
    g_string_append(s, "  mov.u32 %l, %tid.x;\n  mul.wide.u32 %rd0, %l, 128;\n");
    for (int o = 0; o < 4; o++)
        g_string_append_printf(s, "  ld.param.u64 %%rd%d, [p%c];\n  add.s64 %%rd%d, %%rd%d, %%rd0;\n",
                               o + 1, names[o], o + 1, o + 1);
    for (int o = 0; o < 3; o++)
        for (unsigned r = 0; r < regs_of(c, o); r++)
            g_string_append_printf(s, "  ld.global.%s %%%c%u, [%%rd%d+%u];\n", ld_type(type_of(c, o)),
                                   names[o], r, o + 1, 8 * r);
    g_string_append_printf(s, "  %s ", instr);
    for (int o = 0; o < 4; o++) {
        int which = o == 0 ? 3 : o - 1; /* d, a, b, c */
        g_string_append(s, "{");
        for (unsigned r = 0; r < regs_of(c, which); r++)
            g_string_append_printf(s, "%s%%%c%u", r ? ", " : "", names[which], r);
        g_string_append(s, o < 3 ? "}, " : "};\n");
    }
    for (unsigned r = 0; r < regs_of(c, OD); r++)
        g_string_append_printf(s, "  st.global.%s [%%rd4+%u], %%d%u;\n", ld_type(c->dt), 8 * r, r);
    g_string_append(s, "  ret;\n}\n");
    return g_string_free(s, FALSE);
}

static const char *rnd_name(int rnd)
{
    static const char *const n[] = {"", ".rn", ".rz", ".rm", ".rp"};
    return n[rnd];
}

static int rnd_mode(int rnd)
{
    static const int m[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    return m[rnd];
}

static char *mma_instr(const mcase *c)
{
    return g_strdup_printf("mma.sync.aligned.m%un%uk%u.%s.%s%s%s.%s.%s.%s.%s%s", c->m, c->n, c->k,
                           c->alayout ? "col" : "row", c->blayout ? "col" : "row", rnd_name(c->rnd),
                           c->satfinite ? ".satfinite" : "", tm_name(c->dt), tm_name(c->at),
                           tm_name(c->bt), tm_name(c->ct),
                           c->bitop == 1 ? ".xor.popc" : c->bitop == 2 ? ".and.popc" : "");
}

static void put_elem(uint64_t *reg, unsigned bits, unsigned i, uint64_t v)
{
    if (bits == 64) {
        reg[i] = v;
        return;
    }
    unsigned per = 32 / bits, sh = (i % per) * bits;
    uint64_t mask = ((bits == 32 ? 0xffffffffull : (1ull << bits) - 1)) << sh;
    reg[i / per] = (reg[i / per] & ~mask) | ((v << sh) & mask);
}

static uint64_t get_elem(const uint64_t *reg, unsigned bits, unsigned i)
{
    if (bits == 64)
        return reg[i];
    unsigned per = 32 / bits, sh = (i % per) * bits;
    return (reg[i / per] >> sh) & (bits == 32 ? 0xffffffffull : (1ull << bits) - 1);
}

static uint32_t rnd32(void *st)
{
    return g_rand_int(st);
}

/* Runs one case with matrices mat[A..C] (batch x rows x cols, raw bits);
 * returns D in mat[D]. */
static void run_case(const mcase *c, uint64_t *mat[4])
{
    uint64_t *buf[4];
    for (int o = 0; o < 4; o++)
        buf[o] = g_new0(uint64_t, 32 * SLOTS);
    for (int o = 0; o < 3; o++)
        for (unsigned l = 0; l < 32; l++)
            for (unsigned i = 0; i < elems(c, o); i++) {
                unsigned b, r, col, cols = o == OA ? c->k : c->n, rows = o == OB ? c->k : c->m;
                layout(c, o, l, i, &b, &r, &col);
                put_elem(buf[o] + l * SLOTS, tm_bits(type_of(c, o)), i,
                         mat[o][b * rows * cols + r * cols + col]);
            }
    char *instr = mma_instr(c), *text = kernel_text(c, instr), *err = NULL;
    test_buf tb[4];
    for (int o = 0; o < 4; o++)
        tb[o] = (test_buf){buf[o], 32 * SLOTS * 8};
    ptxemu_status st = test_run_ptx(text, "k", 1, 32, tb, 4, &err);
    if (st != PTXEMU_OK)
        fail_msg("%s: %s", instr, err ? err : "?");
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < elems(c, OD); i++) {
            unsigned b, r, col;
            layout(c, OD, l, i, &b, &r, &col);
            mat[OD][b * c->m * c->n + r * c->n + col] =
                get_elem(buf[OD] + l * SLOTS, tm_bits(c->dt), i);
        }
    g_free(instr);
    g_free(text);
    for (int o = 0; o < 4; o++)
        g_free(buf[o]);
}

/* A random case against the model; returns the elements compared. */
static unsigned check_random(const mcase *c, GRand *rng)
{
    unsigned batch = is_m8n8k4_f16(c) ? 4 : 1, dims[4][2] = {
        {c->m, c->k}, {c->k, c->n}, {c->m, c->n}, {c->m, c->n}};
    uint64_t *mat[4], *want = g_new0(uint64_t, batch * c->m * c->n);
    for (int o = 0; o < 4; o++) {
        unsigned n = batch * dims[o][0] * dims[o][1];
        mat[o] = g_new0(uint64_t, n);
        for (unsigned i = 0; o < 3 && i < n; i++)
            mat[o][i] = tm_random(type_of(c, o), rnd32, rng);
    }
    if (c->ct == TM_S32) { /* accumulators at the edges: .satfinite clamps, else wraps */
        mat[OC][0] = 0x7ffffff0u;
        mat[OC][1] = 0x80000010u;
    }
    run_case(c, mat);
    tm_problem p = {c->m, c->n, c->k, c->at, c->bt, c->ct, c->dt, c->satfinite, c->bitop};
    int saved = fegetround();
    fesetround(rnd_mode(c->rnd)); /* the model's fma() chain in the instruction's mode */
    for (unsigned b = 0; b < batch; b++)
        tm_model(&p, mat[OA] + b * c->m * c->k, mat[OB] + b * c->k * c->n,
                 mat[OC] + b * c->m * c->n, want + b * c->m * c->n);
    fesetround(saved);
    unsigned n = batch * c->m * c->n;
    for (unsigned i = 0; i < n; i++)
        if (want[i] != mat[OD][i]) {
            char *instr = mma_instr(c);
            fail_msg("%s: D element %u (batch %u row %u col %u) is 0x%llx, want 0x%llx", instr, i,
                     i / (c->m * c->n), i % (c->m * c->n) / c->n, i % c->n,
                     (unsigned long long)mat[OD][i], (unsigned long long)want[i]);
        }
    for (int o = 0; o < 4; o++)
        g_free(mat[o]);
    g_free(want);
    return n;
}

#define CASE(M, N, K, A, B, C, D) {M, N, K, TM_##A, TM_##B, TM_##C, TM_##D, 0, 1, false, 0, 0}

static void test_float_shapes(void **state)
{
    (void)state;
    static const mcase cases[] = {
        CASE(16, 8, 8, F16, F16, F32, F32),   CASE(16, 8, 8, F16, F16, F16, F16),
        CASE(16, 8, 8, F16, F16, F16, F32),   CASE(16, 8, 8, F16, F16, F32, F16),
        CASE(16, 8, 16, F16, F16, F32, F32),  CASE(16, 8, 16, F16, F16, F16, F16),
        CASE(16, 8, 16, F16, F16, F16, F32),  CASE(16, 8, 16, F16, F16, F32, F16),
        CASE(16, 8, 8, BF16, BF16, F32, F32), CASE(16, 8, 16, BF16, BF16, F32, F32),
        CASE(16, 8, 4, TF32, TF32, F32, F32), CASE(16, 8, 8, TF32, TF32, F32, F32),
        CASE(8, 8, 4, F64, F64, F64, F64),    CASE(16, 8, 4, F64, F64, F64, F64),
        CASE(16, 8, 8, F64, F64, F64, F64),   CASE(16, 8, 16, F64, F64, F64, F64),
        CASE(16, 8, 32, E4M3, E4M3, F32, F32), CASE(16, 8, 32, E4M3, E5M2, F32, F32),
        CASE(16, 8, 32, E5M2, E4M3, F16, F16), CASE(16, 8, 32, E5M2, E5M2, F32, F32),
        CASE(16, 8, 16, E4M3, E4M3, F32, F32), CASE(16, 8, 16, E5M2, E5M2, F16, F16),
    };
    GRand *rng = g_rand_new_with_seed(17);
    unsigned total = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
        total += check_random(&cases[i], rng);
    /* m8n8k4 .f16: every layout pair and accumulator pair */
    for (int al = 0; al < 2; al++)
        for (int bl = 0; bl < 2; bl++)
            for (int ct = 0; ct < 2; ct++)
                for (int dt = 0; dt < 2; dt++) {
                    mcase c = {8, 8, 4, TM_F16, TM_F16, ct ? TM_F32 : TM_F16,
                               dt ? TM_F32 : TM_F16, al, bl, false, 0, 0};
                    total += check_random(&c, rng);
                }
    /* .f64 in each rounding mode: results differ between modes */
    for (int r = 1; r <= 4; r++) {
        mcase c = CASE(16, 8, 16, F64, F64, F64, F64);
        c.rnd = r;
        total += check_random(&c, rng);
    }
    g_rand_free(rng);
    assert_true(total > 2000);
}

static void test_integer_shapes(void **state)
{
    (void)state;
    static const unsigned shapes8[][3] = {{8, 8, 16}, {16, 8, 16}, {16, 8, 32}};
    static const unsigned shapes4[][3] = {{8, 8, 32}, {16, 8, 32}, {16, 8, 64}};
    static const unsigned shapes1[][3] = {{8, 8, 128}, {16, 8, 128}, {16, 8, 256}};
    GRand *rng = g_rand_new_with_seed(17);
    for (int s = 0; s < 3; s++)
        for (int sa = 0; sa < 2; sa++)
            for (int sb = 0; sb < 2; sb++)
                for (int sat = 0; sat < 2; sat++) {
                    mcase c8 = {shapes8[s][0], shapes8[s][1], shapes8[s][2], sa ? TM_U8 : TM_S8,
                                sb ? TM_U8 : TM_S8, TM_S32, TM_S32, 0, 1, sat, 0, 0};
                    check_random(&c8, rng);
                    mcase c4 = {shapes4[s][0], shapes4[s][1], shapes4[s][2], sa ? TM_U4 : TM_S4,
                                sb ? TM_U4 : TM_S4, TM_S32, TM_S32, 0, 1, sat, 0, 0};
                    check_random(&c4, rng);
                }
    for (int s = 0; s < 3; s++)
        for (int op = 1; op <= 2; op++) {
            mcase c = {shapes1[s][0], shapes1[s][1], shapes1[s][2], TM_B1, TM_B1, TM_S32, TM_S32,
                       0, 1, false, op, 0};
            check_random(&c, rng);
        }
    g_rand_free(rng);
}

/* Runs `c` with A holding a single `one` at (ar, ac) and B, C given, and
 * returns the lanes' raw D registers (32 x SLOTS). */
static uint64_t *run_regs(const mcase *c, const uint64_t *areg_lane, unsigned alane,
                          const uint64_t *b, const uint64_t *cc)
{
    uint64_t *buf[4];
    for (int o = 0; o < 4; o++)
        buf[o] = g_new0(uint64_t, 32 * SLOTS);
    memcpy(buf[OA] + alane * SLOTS, areg_lane, SLOTS * 8);
    memcpy(buf[OB], b, 32 * SLOTS * 8);
    memcpy(buf[OC], cc, 32 * SLOTS * 8);
    char *instr = mma_instr(c), *text = kernel_text(c, instr), *err = NULL;
    test_buf tb[4];
    for (int o = 0; o < 4; o++)
        tb[o] = (test_buf){buf[o], 32 * SLOTS * 8};
    assert_int_equal(test_run_ptx(text, "k", 1, 32, tb, 4, &err), PTXEMU_OK);
    g_free(instr);
    g_free(text);
    g_free(err);
    for (int o = 0; o < 3; o++)
        g_free(buf[o]);
    return buf[OD];
}

/* Hand cases from the layout figures.
 * m16n8k16 .f16 (Figures "fragment layout for matrix A/B/C"): A(9,4) lies
 * in lane groupID 1, threadID 2 (lane 6), a2 (register 1, low half).  With
 * A = e(9,4) and B(k,n) = k + 2n + 1 (exact in .f16), D row 9 = B row 4:
 * D(9,n) sits in lane 4 + n/2, c2/c3 (registers 2, 3); every other D is 0.
 * B(k,n) is in lane 4n + (k%8)/2, register k/8, half k%2. */
static void test_hand_m16n8k16(void **state)
{
    (void)state;
    mcase c = CASE(16, 8, 16, F16, F16, F32, F32);
    uint64_t a6[SLOTS] = {0}, *b = g_new0(uint64_t, 32 * SLOTS), *cc = g_new0(uint64_t, 32 * SLOTS);
    a6[1] = 0x3c00; /* 1.0 in the low half of register 1 */
    for (unsigned k = 0; k < 16; k++)
        for (unsigned n = 0; n < 8; n++) {
            _Float16 h = (_Float16)(float)(k + 2 * n + 1);
            uint16_t bits;
            memcpy(&bits, &h, 2);
            unsigned lane = 4 * n + (k % 8) / 2;
            b[lane * SLOTS + k / 8] |= (uint64_t)bits << (16 * (k % 2));
        }
    uint64_t *d = run_regs(&c, a6, 6, b, cc);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned r = 0; r < 4; r++) {
            float want = 0.0f;
            if (l >= 4 && l < 8 && r >= 2)
                want = (float)(4 + 2 * (2 * (l - 4) + (r - 2)) + 1);
            assert_int_equal(d[l * SLOTS + r], tm_f2u(want));
        }
    g_free(d);
    g_free(b);
    g_free(cc);
}

/* m8n8k4 .f16 .row.row with .f32 C/D: quad-pair 2 is lanes 8-11 and
 * 24-27.  A(5,3) of its product is held by lane 24 + 1 (row 5 = (lane%4)
 * + 4 in the high group), a3 (register 1, high half).  B row 3 with .row
 * is in lane 8 + 3 (cols 0-3) and 24 + 3 (cols 4-7), b0..b3 = B(3, i)
 * and B(3, i + 4).  Then D row 5 of product 2 = B row 3; with .f32 D,
 * row 5 = X + 4 with X = (lane%4 & 1) + (i & 2) = 1: lanes 25 (i = 0, 1,
 * 4, 5: cols 0 1 4 5) and 27 (cols 2 3 6 7) hold it. */
static void test_hand_m8n8k4(void **state)
{
    (void)state;
    mcase c = {8, 8, 4, TM_F16, TM_F16, TM_F32, TM_F32, 0, 0, false, 0, 0};
    uint64_t a25[SLOTS] = {0}, *b = g_new0(uint64_t, 32 * SLOTS), *cc = g_new0(uint64_t, 32 * SLOTS);
    a25[1] = 0x3c00ull << 16;
    static const float brow[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (unsigned i = 0; i < 4; i++)
        for (unsigned hi = 0; hi < 2; hi++) {
            _Float16 h = (_Float16)brow[i + 4 * hi];
            uint16_t bits;
            memcpy(&bits, &h, 2);
            b[(hi ? 27 : 11) * SLOTS + i / 2] |= (uint64_t)bits << (16 * (i % 2));
        }
    uint64_t *d = run_regs(&c, a25, 25, b, cc);
    static const unsigned cols25[8] = {0, 1, 99, 99, 4, 5, 99, 99}; /* i & 2 set: row 7 */
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 8; i++) {
            float want = 0.0f;
            if (l == 25 && cols25[i] != 99)
                want = brow[cols25[i]];
            if (l == 27 && cols25[i] != 99)
                want = brow[cols25[i] + 2];
            assert_int_equal(d[l * SLOTS + i], tm_f2u(want));
        }
    g_free(d);
    g_free(b);
    g_free(cc);
}

/* Forms PTX does not define are refused at load, naming the reason. */
static void test_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32",  /* no k16 for tf32 */
        "mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16",  /* bf16 needs f32 */
        "mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32",    /* .row.col only */
        "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32",     /* .b1 needs .xor/.and.popc */
        "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", /* sparse: not yet */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *text = g_strdup_printf(".version 8.7\n.target sm_90\n.address_size 64\n"
                                     ".visible .entry k()\n{\n .reg .b32 %%r<8>;\n .reg .f32 %%f<8>;\n"
                                     " %s {%%f0,%%f1,%%f2,%%f3}, {%%r0,%%r1,%%r2,%%r3}, {%%r4,%%r5}, "
                                     "{%%f4,%%f5,%%f6,%%f7};\n ret;\n}\n", bad[i]);
        char *err = NULL;
        assert_int_not_equal(test_run_ptx(text, "k", 1, 32, NULL, 0, &err), PTXEMU_OK);
        assert_non_null(err);
        if (!strstr(err, "not supported yet"))
            fail_msg("%s: %s", bad[i], err);
        g_free(err);
        g_free(text);
    }
}

/* .sync.aligned: fewer than 32 lanes is a located fault, not a result. */
static void test_partial_warp(void **state)
{
    (void)state;
    mcase c = CASE(16, 8, 8, F16, F16, F32, F32);
    char *instr = mma_instr(&c), *text = kernel_text(&c, instr), *err = NULL;
    uint64_t *buf[4];
    test_buf tb[4];
    for (int o = 0; o < 4; o++) {
        buf[o] = g_new0(uint64_t, 32 * SLOTS);
        tb[o] = (test_buf){buf[o], 32 * SLOTS * 8};
    }
    assert_int_not_equal(test_run_ptx(text, "k", 1, 20, tb, 4, &err), PTXEMU_OK);
    assert_non_null(strstr(err, "all 32 lanes"));
    g_free(err);
    g_free(instr);
    g_free(text);
    for (int o = 0; o < 4; o++)
        g_free(buf[o]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_shapes),   cmocka_unit_test(test_integer_shapes),
        cmocka_unit_test(test_hand_m16n8k16),  cmocka_unit_test(test_hand_m8n8k4),
        cmocka_unit_test(test_refused),        cmocka_unit_test(test_partial_warp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
