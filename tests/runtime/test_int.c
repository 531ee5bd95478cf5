/* tests/runtime/test_int.c — integer, bit, logic and video instructions run
 * through the executor.
 *
 * Each case list is a table of hand-computed results (edge cases: shift
 * counts past the width, INT_MIN / -1, division by zero, bfe/bfi edge
 * positions, prmt modes, LUTs, all-zero and all-one inputs ...).  A kernel
 * runs one instruction with per-lane inputs over 100+ threads (several warps,
 * the last one partial): the table's lanes first, then random lanes checked
 * against a reference written here in plain C (__int128, bit loops,
 * following the ISA pseudo-code), independent of isa/intops.h.  Every
 * reference is also checked against the hand table.  Further tests cover
 * carry chains forming 128-bit sums and products, a guarded instruction, a
 * partial warp, divergent lanes, and the loader's refusals.
 *
 * Long because it is one kernel-per-instruction table over every integer,
 * bit, logic and video instruction; the cases share one harness.
 */
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* ------------------------------------------------------------- helpers */

static uint64_t wmask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* low `bits` bits of v as a signed number */
static int64_t sx(uint64_t v, unsigned bits)
{
    v &= wmask(bits);
    if (bits < 64 && (v >> (bits - 1)) & 1)
        return (int64_t)(v | ~wmask(bits));
    return (int64_t)v;
}

static uint64_t bit(uint64_t v, unsigned i)
{
    return i < 64 ? (v >> i) & 1 : 0;
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next64(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Random inputs, biased towards boundary values and small counts. */
static uint64_t rand_operand(rng *r)
{
    static const uint64_t special[] = {
        0, 1, 2, 3, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x7fffffff,
        0x80000000, 0xffffffff, 0x7fff, 0x8000, 0xffff, 0xffffffff80000000ull, 31, 32,
        33, 63, 64, 0x80, 0xff, 0xfffffffe,
    };
    uint64_t k = next64(r);
    switch (k & 7) {
    case 0: case 1: case 2:
        return special[(k >> 3) % (sizeof special / sizeof special[0])];
    case 3:
        return (k >> 8) & 0x7f; /* small: shift counts, positions */
    case 4:
        return (uint64_t)-(int64_t)((k >> 8) & 0xff);
    default:
        return next64(r);
    }
}

/* ------------------------------------------------- one-instruction runner */

/* Register classes of the operands a, b, c, e and results d, f:
 * 'h' .b16, 'r' .b32, 'l' .b64, 'p' .pred, '-' unused. */
typedef void (*ref_fn)(const uint64_t in[4], uint64_t out[2]);

typedef struct spec {
    const char *instr;          /* text using %xa %xb %xc %xe -> %xd %xf */
    const char *cls;            /* six classes: a b c e d f */
    ref_fn ref;                 /* NULL: the table alone, cycled over the lanes */
    const uint64_t (*cases)[6]; /* a b c e -> d f */
    unsigned ncases;
} spec;

#define CASES(t) (t), (unsigned)(sizeof(t) / sizeof((t)[0]))

static unsigned cls_bits(char c)
{
    switch (c) {
    case 'h': return 16;
    case 'r': return 32;
    case 'l': return 64;
    case 'p': return 1;
    default: return 0;
    }
}

static const char *cls_decl(char c)
{
    switch (c) {
    case 'h': return ".b16";
    case 'r': return ".b32";
    case 'l': return ".b64";
    default: return ".pred";
    }
}

static const char *cls_mem(char c)
{
    switch (c) {
    case 'h': return "u16";
    case 'l': return "u64";
    default: return "u32";
    }
}

static char *build_kernel(const char *body, const char *cls)
{
    static const char *const names[6] = {"%xa", "%xb", "%xc", "%xe", "%xd", "%xf"};
    static const char *const params[6] = {"pa", "pb", "pc", "pe", "pd", "pf"};
    GString *k = g_string_new(HEADER);
    g_string_append(k, ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, "
                       ".param .u64 pe, .param .u64 pd, .param .u64 pf)\n{\n"
                       ".reg .b32 %i, %t32, %t; .reg .b64 %off, %ptr, %base, %t64;\n"
                       ".reg .pred %pz, %tp;\n");
    for (unsigned i = 0; i < 6; i++)
        if (cls[i] != '-')
            g_string_append_printf(k, ".reg %s %s;\n", cls_decl(cls[i]), names[i]);
    g_string_append(k, "mov.u32 %i, %tid.x;\nmul.wide.u32 %off, %i, 8;\nmov.pred %pz, 0;\n");
    for (unsigned i = 0; i < 4; i++) {
        if (cls[i] == '-')
            continue;
        g_string_append_printf(k, "ld.param.u64 %%base, [%s];\nadd.s64 %%ptr, %%base, %%off;\n",
                               params[i]);
        if (cls[i] == 'p')
            g_string_append_printf(k, "ld.global.u32 %%t32, [%%ptr];\n"
                                      "lop3.or.b32 %%t32|%s, %%t32, 0, 0, 0xf0, %%pz;\n",
                                   names[i]);
        else
            g_string_append_printf(k, "ld.global.%s %s, [%%ptr];\n", cls_mem(cls[i]),
                                   names[i]);
    }
    g_string_append_printf(k, "%s\n", body);
    for (unsigned i = 4; i < 6; i++) {
        if (cls[i] == '-')
            continue;
        g_string_append_printf(k, "ld.param.u64 %%base, [%s];\nadd.s64 %%ptr, %%base, %%off;\n",
                               params[i]);
        if (cls[i] == 'p')
            g_string_append_printf(k, "@%s st.global.u32 [%%ptr], 1;\n", names[i]);
        else
            g_string_append_printf(k, "st.global.%s [%%ptr], %s;\n", cls_mem(cls[i]), names[i]);
    }
    g_string_append(k, "ret;\n}\n");
    return g_string_free(k, FALSE);
}

#define NRAND 90

static int run_spec(const spec *s, uint64_t seed)
{
    unsigned n = s->ncases + NRAND;
    if (!s->ref)
        n = s->ncases * ((40 + s->ncases - 1) / s->ncases); /* at least 40 lanes */
    uint64_t *buf[6];
    for (unsigned i = 0; i < 6; i++)
        buf[i] = g_new0(uint64_t, n);
    uint64_t *want[2] = {g_new0(uint64_t, n), g_new0(uint64_t, n)};
    int failures = 0;
    rng r = {seed};
    for (unsigned l = 0; l < n; l++) {
        uint64_t in[4], out[2] = {0, 0};
        bool from_table = l < s->ncases || !s->ref;
        const uint64_t *row = from_table ? s->cases[l % s->ncases] : NULL;
        for (unsigned i = 0; i < 4; i++) {
            uint64_t v = row ? row[i] : rand_operand(&r);
            unsigned b = cls_bits(s->cls[i]);
            in[i] = b == 1 ? v != 0 : v & wmask(b);
            buf[i][l] = in[i];
        }
        if (s->ref)
            s->ref(in, out);
        if (row) {
            /* the reference must agree with the hand table */
            for (unsigned j = 0; s->ref && j < 2; j++) {
                uint64_t m = wmask(cls_bits(s->cls[4 + j]));
                if ((out[j] & m) != (row[4 + j] & m)) {
                    print_error("%s: reference disagrees with table row %u: %llx vs %llx\n",
                                s->instr, l, (unsigned long long)out[j],
                                (unsigned long long)row[4 + j]);
                    failures++;
                }
            }
            out[0] = row[4];
            out[1] = row[5];
        }
        for (unsigned j = 0; j < 2; j++)
            want[j][l] = out[j] & wmask(cls_bits(s->cls[4 + j]));
    }
    char *ptx = build_kernel(s->instr, s->cls);
    test_buf bufs[6];
    for (unsigned i = 0; i < 6; i++)
        bufs[i] = (test_buf){buf[i], n * sizeof(uint64_t)};
    char *err = NULL;
    ptxemu_status st = test_run_ptx(ptx, "k", 1, n, bufs, 6, &err);
    if (st != PTXEMU_OK) {
        print_error("%s: %s\n", s->instr, err ? err : "?");
        failures++;
    } else {
        for (unsigned l = 0; l < n && failures < 10; l++)
            for (unsigned j = 0; j < 2; j++) {
                if (s->cls[4 + j] == '-' || buf[4 + j][l] == want[j][l])
                    continue;
                print_error("%s lane %u: a=%llx b=%llx c=%llx e=%llx: %c got %llx, want %llx\n",
                            s->instr, l, (unsigned long long)buf[0][l],
                            (unsigned long long)buf[1][l], (unsigned long long)buf[2][l],
                            (unsigned long long)buf[3][l], j ? 'f' : 'd',
                            (unsigned long long)buf[4 + j][l], (unsigned long long)want[j][l]);
                failures++;
            }
    }
    g_free(err);
    g_free(ptx);
    for (unsigned i = 0; i < 6; i++)
        g_free(buf[i]);
    g_free(want[0]);
    g_free(want[1]);
    return failures;
}

static void run_specs(const spec *s, unsigned n)
{
    int failures = 0;
    for (unsigned i = 0; i < n; i++)
        failures += run_spec(&s[i], 0x1234 + i);
    assert_int_equal(failures, 0);
}

#define REF(name) static void name(const uint64_t in[4], uint64_t out[2])
#define A in[0]
#define B in[1]
#define C in[2]
#define E in[3]

/* ------------------------------------------------------------ add / sub */

static int64_t clamp_s32(i128 v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int64_t)v;
}

REF(r_add) { out[0] = A + B; }
REF(r_sub) { out[0] = A - B; }
REF(r_add_sat) { out[0] = (uint64_t)clamp_s32((i128)sx(A, 32) + sx(B, 32)); }
REF(r_sub_sat) { out[0] = (uint64_t)clamp_s32((i128)sx(A, 32) - sx(B, 32)); }
REF(r_add_16x2)
{
    out[0] = ((A + B) & 0xffff) | ((((A >> 16) + (B >> 16)) & 0xffff) << 16);
}
/* carry-out as a 0/1 value in f */
REF(r_add_cc32) { out[0] = A + B; out[1] = (A + B) >> 32; }
REF(r_sub_cc32) { out[0] = A - B; out[1] = A < B; }
REF(r_add_cc64) { u128 s = (u128)A + B; out[0] = (uint64_t)s; out[1] = (uint64_t)(s >> 64); }
REF(r_sub_cc64) { out[0] = A - B; out[1] = A < B; }
/* c != 0 sets the carry before addc/subc */
REF(r_addc32) { uint64_t s = A + B + (C != 0); out[0] = s; out[1] = s >> 32; }
REF(r_subc32)
{
    out[0] = A - B - (C != 0);
    out[1] = (u128)A < (u128)B + (C != 0);
}
REF(r_addc64)
{
    u128 s = (u128)A + B + (C != 0);
    out[0] = (uint64_t)s;
    out[1] = (uint64_t)(s >> 64);
}
REF(r_subc64)
{
    out[0] = A - B - (C != 0);
    out[1] = (u128)A < (u128)B + (C != 0);
}

static const uint64_t c_add_s32[][6] = {
    {0x7fffffff, 1, 0, 0, 0x80000000, 0}, {0xffffffff, 1, 0, 0, 0, 0},
    {5, 0xfffffffd, 0, 0, 2, 0}, {0, 0, 0, 0, 0, 0},
};
static const uint64_t c_add_u16[][6] = {
    {0xffff, 1, 0, 0, 0, 0}, {0x1234, 0x1111, 0, 0, 0x2345, 0},
};
static const uint64_t c_add_s64[][6] = {
    {0x7fffffffffffffff, 1, 0, 0, 0x8000000000000000, 0}, {~0ull, 1, 0, 0, 0, 0},
    {0xffffffff, 1, 0, 0, 0x100000000, 0},
};
static const uint64_t c_sub_s32[][6] = {
    {0, 1, 0, 0, 0xffffffff, 0}, {0x80000000, 1, 0, 0, 0x7fffffff, 0},
};
static const uint64_t c_sub_u64[][6] = {
    {0, 1, 0, 0, ~0ull, 0}, {0x100000000, 1, 0, 0, 0xffffffff, 0},
};
static const uint64_t c_add_sat[][6] = {
    {0x7fffffff, 1, 0, 0, 0x7fffffff, 0}, {0x80000000, 0xffffffff, 0, 0, 0x80000000, 0},
    {5, 0xfffffffd, 0, 0, 2, 0}, {0x7ffffff0, 0x10, 0, 0, 0x7fffffff, 0},
};
static const uint64_t c_sub_sat[][6] = {
    {0x80000000, 1, 0, 0, 0x80000000, 0}, {0x7fffffff, 0xffffffff, 0, 0, 0x7fffffff, 0},
    {3, 5, 0, 0, 0xfffffffe, 0},
};
static const uint64_t c_add_16x2[][6] = {
    {0xffff0001, 0x00010001, 0, 0, 0x00000002, 0}, {0x8000ffff, 0x80000001, 0, 0, 0, 0},
};
static const uint64_t c_add_cc32[][6] = {
    {0xffffffff, 1, 0, 0, 0, 1}, {1, 1, 0, 0, 2, 0}, {0xffffffff, 0xffffffff, 0, 0, 0xfffffffe, 1},
};
static const uint64_t c_sub_cc32[][6] = {
    {0, 1, 0, 0, 0xffffffff, 1}, {5, 3, 0, 0, 2, 0}, {3, 3, 0, 0, 0, 0},
};
static const uint64_t c_add_cc64[][6] = {
    {~0ull, 1, 0, 0, 0, 1}, {0xffffffff, 1, 0, 0, 0x100000000, 0},
};
static const uint64_t c_sub_cc64[][6] = {
    {0, 1, 0, 0, ~0ull, 1}, {7, 7, 0, 0, 0, 0},
};
static const uint64_t c_addc32[][6] = {
    {0xffffffff, 0, 1, 0, 0, 1}, {0xffffffff, 0, 0, 0, 0xffffffff, 0},
    {1, 2, 1, 0, 4, 0}, {0xffffffff, 0xffffffff, 1, 0, 0xffffffff, 1},
};
static const uint64_t c_subc32[][6] = {
    {0, 0, 1, 0, 0xffffffff, 1}, {5, 3, 1, 0, 1, 0}, {5, 5, 0, 0, 0, 0},
    {5, 5, 1, 0, 0xffffffff, 1},
};
static const uint64_t c_addc64[][6] = {
    {~0ull, 0, 1, 0, 0, 1}, {~0ull, ~0ull, 1, 0, ~0ull, 1}, {1, 2, 0, 0, 3, 0},
};
static const uint64_t c_subc64[][6] = {
    {0, 0, 1, 0, ~0ull, 1}, {0, ~0ull, 1, 0, 0, 1}, {9, 4, 1, 0, 4, 0},
};

static void test_add_sub(void **state)
{
    (void)state;
    static const spec s[] = {
        {"add.s32 %xd, %xa, %xb;", "rr--r-", r_add, CASES(c_add_s32)},
        {"add.u32 %xd, %xa, %xb;", "rr--r-", r_add, CASES(c_add_s32)},
        {"add.u16 %xd, %xa, %xb;", "hh--h-", r_add, CASES(c_add_u16)},
        {"add.s16 %xd, %xa, %xb;", "hh--h-", r_add, CASES(c_add_u16)},
        {"add.s64 %xd, %xa, %xb;", "ll--l-", r_add, CASES(c_add_s64)},
        {"add.u64 %xd, %xa, %xb;", "ll--l-", r_add, CASES(c_add_s64)},
        {"sub.s32 %xd, %xa, %xb;", "rr--r-", r_sub, CASES(c_sub_s32)},
        {"sub.u64 %xd, %xa, %xb;", "ll--l-", r_sub, CASES(c_sub_u64)},
        {"sub.u16 %xd, %xa, %xb;", "hh--h-", r_sub, CASES(c_sub_s32)},
        {"add.sat.s32 %xd, %xa, %xb;", "rr--r-", r_add_sat, CASES(c_add_sat)},
        {"sub.sat.s32 %xd, %xa, %xb;", "rr--r-", r_sub_sat, CASES(c_sub_sat)},
        {"add.u16x2 %xd, %xa, %xb;", "rr--r-", r_add_16x2, CASES(c_add_16x2)},
        {"add.s16x2 %xd, %xa, %xb;", "rr--r-", r_add_16x2, CASES(c_add_16x2)},
        {"add.cc.u32 %xd, %xa, %xb; addc.u32 %xf, 0, 0;", "rr--rr", r_add_cc32,
         CASES(c_add_cc32)},
        {"sub.cc.s32 %xd, %xa, %xb; addc.u32 %xf, 0, 0;", "rr--rr", r_sub_cc32,
         CASES(c_sub_cc32)},
        {"add.cc.s64 %xd, %xa, %xb; addc.u32 %xf, 0, 0;", "ll--lr", r_add_cc64,
         CASES(c_add_cc64)},
        {"sub.cc.u64 %xd, %xa, %xb; addc.u32 %xf, 0, 0;", "ll--lr", r_sub_cc64,
         CASES(c_sub_cc64)},
        {"add.cc.u32 %t, %xc, 0xffffffff; addc.cc.u32 %xd, %xa, %xb; addc.u32 %xf, 0, 0;",
         "rrr-rr", r_addc32, CASES(c_addc32)},
        {"sub.cc.u32 %t, 0, %xc; subc.cc.u32 %xd, %xa, %xb; addc.u32 %xf, 0, 0;", "rrr-rr",
         r_subc32, CASES(c_subc32)},
        {"add.cc.u32 %t, %xc, 0xffffffff; addc.cc.u64 %xd, %xa, %xb; addc.u32 %xf, 0, 0;",
         "llr-lr", r_addc64, CASES(c_addc64)},
        {"sub.cc.u32 %t, 0, %xc; subc.cc.s64 %xd, %xa, %xb; addc.u32 %xf, 0, 0;", "llr-lr",
         r_subc64, CASES(c_subc64)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* addc without .cc reads the carry but leaves it alone */
static const uint64_t c_addc_keep[][6] = {
    {1, 2, 1, 0, 4, 1}, {1, 2, 0, 0, 3, 0},
};
REF(r_addc_keep) { out[0] = (A + B + (C != 0)) & 0xffffffff; out[1] = C != 0; }

static void test_addc_keeps_carry(void **state)
{
    (void)state;
    static const spec s[] = {
        {"add.cc.u32 %t, %xc, 0xffffffff; addc.u32 %xd, %xa, %xb; addc.u32 %xf, 0, 0;",
         "rrr-rr", r_addc_keep, CASES(c_addc_keep)},
    };
    run_specs(s, 1);
}

/* --------------------------------------------------------------- multiply */

REF(r_mul_lo) { out[0] = A * B; }
REF(r_mul_hi_s16) { out[0] = (uint64_t)((sx(A, 16) * sx(B, 16)) >> 16); }
REF(r_mul_hi_u16) { out[0] = (A * B) >> 16; }
REF(r_mul_hi_s32) { out[0] = (uint64_t)((sx(A, 32) * sx(B, 32)) >> 32); }
REF(r_mul_hi_u32) { out[0] = (A * B) >> 32; }
REF(r_mul_hi_s64) { out[0] = (uint64_t)(((i128)(int64_t)A * (int64_t)B) >> 64); }
REF(r_mul_hi_u64) { out[0] = (uint64_t)(((u128)A * B) >> 64); }
REF(r_mul_wide_s32) { out[0] = (uint64_t)(sx(A, 32) * sx(B, 32)); }
REF(r_mul_wide_u32) { out[0] = A * B; }
REF(r_mul_wide_s16) { out[0] = (uint64_t)(sx(A, 16) * sx(B, 16)); }
REF(r_mad_lo) { out[0] = A * B + C; }
REF(r_mad_hi_s32) { out[0] = (uint64_t)((sx(A, 32) * sx(B, 32)) >> 32) + C; }
REF(r_mad_hi_u64) { out[0] = (uint64_t)(((u128)A * B) >> 64) + C; }
REF(r_mad_wide_s32) { out[0] = (uint64_t)(sx(A, 32) * sx(B, 32)) + C; }
REF(r_mad_wide_u16) { out[0] = A * B + C; }
REF(r_mad_hi_sat)
{
    int64_t hi = (sx(A, 32) * sx(B, 32)) >> 32;
    out[0] = (uint64_t)clamp_s32((i128)hi + sx(C, 32));
}
/* mul24: the low 24 bits of each operand */
REF(r_mul24_lo_u) { out[0] = (A & 0xffffff) * (B & 0xffffff); }
REF(r_mul24_hi_u) { out[0] = ((A & 0xffffff) * (B & 0xffffff)) >> 16; }
REF(r_mul24_hi_s) { out[0] = (uint64_t)(sx(A, 24) * sx(B, 24)) >> 16; }
REF(r_mad24_lo_s) { out[0] = (uint64_t)(sx(A, 24) * sx(B, 24)) + C; }
REF(r_mad24_hi_sat)
{
    int64_t t = sx((uint64_t)(sx(A, 24) * sx(B, 24)) >> 16, 32);
    out[0] = (uint64_t)clamp_s32((i128)t + sx(C, 32));
}
REF(r_sad_u) { out[0] = C + ((A > B) ? A - B : B - A); }
REF(r_sad_s32)
{
    int64_t x = sx(A, 32), y = sx(B, 32);
    out[0] = C + (uint64_t)(x > y ? x - y : y - x);
}
REF(r_sad_s16)
{
    int64_t x = sx(A, 16), y = sx(B, 16);
    out[0] = C + (uint64_t)(x > y ? x - y : y - x);
}

static const uint64_t c_mul_lo_s32[][6] = {
    {0x10000, 0x10000, 0, 0, 0, 0}, {0xffffffff, 0xffffffff, 0, 0, 1, 0},
    {7, 0xfffffffd, 0, 0, 0xffffffeb, 0}, {0x80000000, 2, 0, 0, 0, 0},
};
static const uint64_t c_mul_lo_u16[][6] = {
    {0xffff, 0xffff, 0, 0, 1, 0}, {0x100, 0x100, 0, 0, 0, 0}, {300, 7, 0, 0, 2100, 0},
};
static const uint64_t c_mul_lo_u64[][6] = {
    {0x100000000, 0x100000000, 0, 0, 0, 0}, {~0ull, ~0ull, 0, 0, 1, 0},
    {0x123456789, 0x10, 0, 0, 0x1234567890, 0},
};
static const uint64_t c_mul_hi_s16[][6] = {
    {0x8000, 0x8000, 0, 0, 0x4000, 0}, {0xffff, 0x0001, 0, 0, 0xffff, 0},
    {0x7fff, 0x7fff, 0, 0, 0x3fff, 0},
};
static const uint64_t c_mul_hi_u16[][6] = {
    {0xffff, 0xffff, 0, 0, 0xfffe, 0}, {0x8000, 2, 0, 0, 1, 0},
};
static const uint64_t c_mul_hi_s32[][6] = {
    {0x80000000, 0x80000000, 0, 0, 0x40000000, 0}, {0xffffffff, 0xffffffff, 0, 0, 0, 0},
    {0xffffffff, 1, 0, 0, 0xffffffff, 0}, {0x10000, 0x10000, 0, 0, 1, 0},
};
static const uint64_t c_mul_hi_u32[][6] = {
    {0xffffffff, 0xffffffff, 0, 0, 0xfffffffe, 0}, {0x80000000, 2, 0, 0, 1, 0},
    {0x10000, 0xffff, 0, 0, 0, 0},
};
static const uint64_t c_mul_hi_s64[][6] = {
    {0x8000000000000000, 0x8000000000000000, 0, 0, 0x4000000000000000, 0},
    {~0ull, ~0ull, 0, 0, 0, 0}, {~0ull, 5, 0, 0, ~0ull, 0},
    {0x100000000, 0x100000000, 0, 0, 1, 0},
};
static const uint64_t c_mul_hi_u64[][6] = {
    {~0ull, ~0ull, 0, 0, 0xfffffffffffffffe, 0}, {0x8000000000000000, 4, 0, 0, 2, 0},
};
static const uint64_t c_mul_wide_s32[][6] = {
    {0x80000000, 0x80000000, 0, 0, 0x4000000000000000, 0},
    {0xffffffff, 0xffffffff, 0, 0, 1, 0}, {0xffffffff, 2, 0, 0, 0xfffffffffffffffe, 0},
    {0x7fffffff, 0x80000000, 0, 0, 0xc000000080000000, 0},
};
static const uint64_t c_mul_wide_u32[][6] = {
    {0xffffffff, 0xffffffff, 0, 0, 0xfffffffe00000001, 0}, {0x80000000, 2, 0, 0, 0x100000000, 0},
};
static const uint64_t c_mul_wide_s16[][6] = {
    {0x8000, 0x8000, 0, 0, 0x40000000, 0}, {0xffff, 3, 0, 0, 0xfffffffd, 0},
};
static const uint64_t c_mad_lo_s32[][6] = {
    {3, 4, 5, 0, 17, 0}, {0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0},
    {0x10000, 0x10000, 7, 0, 7, 0},
};
static const uint64_t c_mad_hi_s32[][6] = {
    {0x80000000, 0x80000000, 1, 0, 0x40000001, 0}, {0xffffffff, 1, 1, 0, 0, 0},
};
static const uint64_t c_mad_hi_u64[][6] = {
    {~0ull, ~0ull, 2, 0, 0, 0}, {0x8000000000000000, 4, 5, 0, 7, 0},
};
static const uint64_t c_mad_wide_s32[][6] = {
    {0xffffffff, 2, 10, 0, 8, 0}, {0x80000000, 0x80000000, 1, 0, 0x4000000000000001, 0},
};
static const uint64_t c_mad_wide_u16[][6] = {
    {0xffff, 0xffff, 0x1ffff, 0, 0, 0}, {2, 3, 4, 0, 10, 0},
};
static const uint64_t c_mad_hi_sat[][6] = {
    {0x80000000, 0x80000000, 0x7fffffff, 0, 0x7fffffff, 0}, /* 2^30 + MAX clamps */
    {0xffffffff, 1, 0x80000000, 0, 0x80000000, 0},          /* -1 + MIN clamps */
    {0x10000, 0x10000, 5, 0, 6, 0},
};
static const uint64_t c_mul24_lo_u[][6] = {
    {0xff000002, 0x01000003, 0, 0, 6, 0}, {0xffffff, 0xffffff, 0, 0, 0xfe000001, 0},
};
static const uint64_t c_mul24_hi_u[][6] = {
    {0xffffff, 0xffffff, 0, 0, 0xfffffe00, 0}, {0x10000, 0x10000, 0, 0, 0x10000, 0},
};
static const uint64_t c_mul24_hi_s[][6] = {
    {0x800000, 0x800000, 0, 0, 0x40000000, 0}, /* (-2^23)^2 = 2^46 -> >> 16 */
    {0xffffff, 0x000002, 0, 0, 0xffffffff, 0}, /* -2 -> bits 47..16 all ones */
};
static const uint64_t c_mad24_lo_s[][6] = {
    {0xffffff, 0xffffff, 5, 0, 6, 0}, {0x800000, 2, 0, 0, 0xff000000, 0},
};
static const uint64_t c_mad24_hi_sat[][6] = {
    {0x800000, 0x800000, 0x7fffffff, 0, 0x7fffffff, 0}, {0x10000, 0x10000, 1, 0, 0x10001, 0},
};
static const uint64_t c_sad_u32[][6] = {
    {1, 0xffffffff, 0, 0, 0xfffffffe, 0}, {10, 3, 100, 0, 107, 0},
};
static const uint64_t c_sad_s32[][6] = {
    {1, 0xffffffff, 0, 0, 2, 0}, {0x80000000, 0x7fffffff, 0, 0, 0xffffffff, 0},
    {3, 10, 5, 0, 12, 0},
};
static const uint64_t c_sad_s16[][6] = {
    {0x8000, 0x7fff, 1, 0, 0, 0}, {0xffff, 1, 0, 0, 2, 0},
};

static void test_mul(void **state)
{
    (void)state;
    static const spec s[] = {
        {"mul.lo.s32 %xd, %xa, %xb;", "rr--r-", r_mul_lo, CASES(c_mul_lo_s32)},
        {"mul.lo.u16 %xd, %xa, %xb;", "hh--h-", r_mul_lo, CASES(c_mul_lo_u16)},
        {"mul.lo.u64 %xd, %xa, %xb;", "ll--l-", r_mul_lo, CASES(c_mul_lo_u64)},
        {"mul.hi.s16 %xd, %xa, %xb;", "hh--h-", r_mul_hi_s16, CASES(c_mul_hi_s16)},
        {"mul.hi.u16 %xd, %xa, %xb;", "hh--h-", r_mul_hi_u16, CASES(c_mul_hi_u16)},
        {"mul.hi.s32 %xd, %xa, %xb;", "rr--r-", r_mul_hi_s32, CASES(c_mul_hi_s32)},
        {"mul.hi.u32 %xd, %xa, %xb;", "rr--r-", r_mul_hi_u32, CASES(c_mul_hi_u32)},
        {"mul.hi.s64 %xd, %xa, %xb;", "ll--l-", r_mul_hi_s64, CASES(c_mul_hi_s64)},
        {"mul.hi.u64 %xd, %xa, %xb;", "ll--l-", r_mul_hi_u64, CASES(c_mul_hi_u64)},
        {"mul.wide.s32 %xd, %xa, %xb;", "rr--l-", r_mul_wide_s32, CASES(c_mul_wide_s32)},
        {"mul.wide.u32 %xd, %xa, %xb;", "rr--l-", r_mul_wide_u32, CASES(c_mul_wide_u32)},
        {"mul.wide.s16 %xd, %xa, %xb;", "hh--r-", r_mul_wide_s16, CASES(c_mul_wide_s16)},
        {"mad.lo.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_mad_lo, CASES(c_mad_lo_s32)},
        {"mad.hi.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_mad_hi_s32, CASES(c_mad_hi_s32)},
        {"mad.hi.u64 %xd, %xa, %xb, %xc;", "lll-l-", r_mad_hi_u64, CASES(c_mad_hi_u64)},
        {"mad.wide.s32 %xd, %xa, %xb, %xc;", "rrl-l-", r_mad_wide_s32, CASES(c_mad_wide_s32)},
        {"mad.wide.u16 %xd, %xa, %xb, %xc;", "hhr-r-", r_mad_wide_u16, CASES(c_mad_wide_u16)},
        {"mad.hi.sat.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_mad_hi_sat, CASES(c_mad_hi_sat)},
        {"mul24.lo.u32 %xd, %xa, %xb;", "rr--r-", r_mul24_lo_u, CASES(c_mul24_lo_u)},
        {"mul24.hi.u32 %xd, %xa, %xb;", "rr--r-", r_mul24_hi_u, CASES(c_mul24_hi_u)},
        {"mul24.hi.s32 %xd, %xa, %xb;", "rr--r-", r_mul24_hi_s, CASES(c_mul24_hi_s)},
        {"mad24.lo.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_mad24_lo_s, CASES(c_mad24_lo_s)},
        {"mad24.hi.sat.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_mad24_hi_sat,
         CASES(c_mad24_hi_sat)},
        {"sad.u32 %xd, %xa, %xb, %xc;", "rrr-r-", r_sad_u, CASES(c_sad_u32)},
        {"sad.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_sad_s32, CASES(c_sad_s32)},
        {"sad.s16 %xd, %xa, %xb, %xc;", "hhh-h-", r_sad_s16, CASES(c_sad_s16)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* ------------------------------------------------------ divide, abs, min */

/* Division by zero gives all ones, x % 0 gives x; MIN / -1 wraps to MIN. */
#define DIV_REFS(bits)                                                        \
    REF(r_div_u##bits)                                                        \
    {                                                                         \
        uint64_t x = A & wmask(bits), y = B & wmask(bits);                    \
        out[0] = y ? x / y : wmask(bits);                                     \
    }                                                                         \
    REF(r_rem_u##bits)                                                        \
    {                                                                         \
        uint64_t x = A & wmask(bits), y = B & wmask(bits);                    \
        out[0] = y ? x % y : x;                                               \
    }                                                                         \
    REF(r_div_s##bits)                                                        \
    {                                                                         \
        i128 x = sx(A, bits), y = sx(B, bits);                                \
        out[0] = y ? (uint64_t)(x / y) : wmask(bits);                         \
    }                                                                         \
    REF(r_rem_s##bits)                                                        \
    {                                                                         \
        i128 x = sx(A, bits), y = sx(B, bits);                                \
        out[0] = y ? (uint64_t)(x % y) : (uint64_t)x;                         \
    }
DIV_REFS(16)
DIV_REFS(32)
DIV_REFS(64)

REF(r_abs32) { int64_t x = sx(A, 32); out[0] = (uint64_t)(x < 0 ? -x : x); }
REF(r_abs16) { int64_t x = sx(A, 16); out[0] = (uint64_t)(x < 0 ? -x : x); }
REF(r_abs64) { out[0] = (int64_t)A < 0 ? 0 - A : A; }
REF(r_neg) { out[0] = 0 - A; }
REF(r_min_s32) { out[0] = (uint64_t)(sx(A, 32) < sx(B, 32) ? sx(A, 32) : sx(B, 32)); }
REF(r_max_s32) { out[0] = (uint64_t)(sx(A, 32) > sx(B, 32) ? sx(A, 32) : sx(B, 32)); }
REF(r_min_u) { out[0] = A < B ? A : B; }
REF(r_max_u) { out[0] = A > B ? A : B; }
REF(r_min_s16) { out[0] = (uint64_t)(sx(A, 16) < sx(B, 16) ? sx(A, 16) : sx(B, 16)); }
REF(r_max_s64) { out[0] = (int64_t)A > (int64_t)B ? A : B; }
REF(r_min_relu)
{
    int64_t m = sx(A, 32) < sx(B, 32) ? sx(A, 32) : sx(B, 32);
    out[0] = m < 0 ? 0 : (uint64_t)m;
}
REF(r_max_relu)
{
    int64_t m = sx(A, 32) > sx(B, 32) ? sx(A, 32) : sx(B, 32);
    out[0] = m < 0 ? 0 : (uint64_t)m;
}
static uint64_t half_op(uint64_t a, uint64_t b, bool is_max, bool sgn, bool relu)
{
    uint64_t d = 0;
    for (unsigned h = 0; h < 2; h++) {
        uint64_t x = (a >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff;
        int64_t vx = sgn ? sx(x, 16) : (int64_t)x, vy = sgn ? sx(y, 16) : (int64_t)y;
        int64_t r = is_max ? (vx > vy ? vx : vy) : (vx < vy ? vx : vy);
        if (relu && r < 0)
            r = 0;
        d |= ((uint64_t)r & 0xffff) << (16 * h);
    }
    return d;
}
REF(r_min_u16x2) { out[0] = half_op(A, B, false, false, false); }
REF(r_max_s16x2) { out[0] = half_op(A, B, true, true, false); }
REF(r_max_relu_s16x2) { out[0] = half_op(A, B, true, true, true); }
REF(r_min_relu_s16x2) { out[0] = half_op(A, B, false, true, true); }

static const uint64_t c_div_s32[][6] = {
    {0x80000000, 0xffffffff, 0, 0, 0x80000000, 0}, /* INT_MIN / -1 */
    {7, 0, 0, 0, 0xffffffff, 0},                   /* x / 0 */
    {0xfffffff9, 2, 0, 0, 0xfffffffd, 0},          /* -7 / 2 = -3 */
    {7, 0xfffffffe, 0, 0, 0xfffffffd, 0},          /* 7 / -2 = -3 */
    {0x80000000, 1, 0, 0, 0x80000000, 0},
};
static const uint64_t c_div_u32[][6] = {
    {0xffffffff, 2, 0, 0, 0x7fffffff, 0}, {5, 0, 0, 0, 0xffffffff, 0}, {3, 7, 0, 0, 0, 0},
};
static const uint64_t c_div_s64[][6] = {
    {0x8000000000000000, ~0ull, 0, 0, 0x8000000000000000, 0},
    {1, 0, 0, 0, ~0ull, 0}, {~0ull - 6, 2, 0, 0, ~0ull - 2, 0},
};
static const uint64_t c_div_u16[][6] = {
    {0xffff, 0x10, 0, 0, 0xfff, 0}, {9, 0, 0, 0, 0xffff, 0},
};
static const uint64_t c_div_s16[][6] = {
    {0x8000, 0xffff, 0, 0, 0x8000, 0}, {0xfff9, 2, 0, 0, 0xfffd, 0},
};
static const uint64_t c_div_u64[][6] = {
    {~0ull, 10, 0, 0, 0x1999999999999999, 0}, {5, 0, 0, 0, ~0ull, 0},
};
static const uint64_t c_rem_u32[][6] = {
    {0xffffffff, 10, 0, 0, 5, 0}, {7, 0, 0, 0, 7, 0},
};
static const uint64_t c_rem_s16[][6] = {
    {0x8000, 0xffff, 0, 0, 0, 0}, {0xfff9, 2, 0, 0, 0xffff, 0}, {9, 0, 0, 0, 9, 0},
};
static const uint64_t c_rem_s32[][6] = {
    {0x80000000, 0xffffffff, 0, 0, 0, 0}, /* INT_MIN % -1 */
    {7, 0, 0, 0, 7, 0},                   /* x % 0 = x */
    {0xfffffff9, 2, 0, 0, 0xffffffff, 0}, /* -7 % 2 = -1 */
    {7, 0xfffffffe, 0, 0, 1, 0},          /* 7 % -2 = 1 */
};
static const uint64_t c_rem_u64[][6] = {
    {~0ull, 10, 0, 0, 5, 0}, {12345, 0, 0, 0, 12345, 0},
};
static const uint64_t c_rem_s64[][6] = {
    {0x8000000000000000, ~0ull, 0, 0, 0, 0}, {~0ull - 6, 2, 0, 0, ~0ull, 0},
};
static const uint64_t c_rem_u16[][6] = {
    {0xffff, 0x10, 0, 0, 0xf, 0}, {9, 0, 0, 0, 9, 0},
};
static const uint64_t c_abs32[][6] = {
    {0x80000000, 0, 0, 0, 0x80000000, 0}, {0xffffffff, 0, 0, 0, 1, 0}, {5, 0, 0, 0, 5, 0},
    {0, 0, 0, 0, 0, 0},
};
static const uint64_t c_abs16[][6] = {
    {0x8000, 0, 0, 0, 0x8000, 0}, {0xfffe, 0, 0, 0, 2, 0},
};
static const uint64_t c_abs64[][6] = {
    {0x8000000000000000, 0, 0, 0, 0x8000000000000000, 0}, {~0ull, 0, 0, 0, 1, 0},
};
static const uint64_t c_neg32[][6] = {
    {0x80000000, 0, 0, 0, 0x80000000, 0}, {1, 0, 0, 0, 0xffffffff, 0}, {0, 0, 0, 0, 0, 0},
};
static const uint64_t c_neg64[][6] = {
    {1, 0, 0, 0, ~0ull, 0}, {0x8000000000000000, 0, 0, 0, 0x8000000000000000, 0},
};
static const uint64_t c_min_s32[][6] = {
    {0xffffffff, 1, 0, 0, 0xffffffff, 0}, {0x80000000, 0x7fffffff, 0, 0, 0x80000000, 0},
    {3, 3, 0, 0, 3, 0},
};
static const uint64_t c_min_u32[][6] = {
    {0xffffffff, 1, 0, 0, 1, 0}, {0x80000000, 0x7fffffff, 0, 0, 0x7fffffff, 0},
};
static const uint64_t c_max_s32[][6] = {
    {0xffffffff, 1, 0, 0, 1, 0}, {0x80000000, 0x7fffffff, 0, 0, 0x7fffffff, 0},
};
static const uint64_t c_max_u16[][6] = {
    {0xffff, 1, 0, 0, 0xffff, 0}, {0x8000, 0x7fff, 0, 0, 0x8000, 0},
};
static const uint64_t c_min_s16[][6] = {
    {0xffff, 1, 0, 0, 0xffff, 0}, {0x8000, 0x7fff, 0, 0, 0x8000, 0},
};
static const uint64_t c_max_s64[][6] = {
    {~0ull, 1, 0, 0, 1, 0}, {0x8000000000000000, 0, 0, 0, 0, 0},
};
static const uint64_t c_min_u64[][6] = {
    {~0ull, 1, 0, 0, 1, 0}, {0x8000000000000000, 0x7fffffffffffffff, 0, 0,
                             0x7fffffffffffffff, 0},
};
static const uint64_t c_max_relu[][6] = {
    {0xffffffff, 0xfffffffe, 0, 0, 0, 0}, {0xffffffff, 5, 0, 0, 5, 0},
};
static const uint64_t c_min_relu[][6] = {
    {0xffffffff, 5, 0, 0, 0, 0}, {7, 5, 0, 0, 5, 0},
};
static const uint64_t c_min_u16x2[][6] = {
    {0xffff0001, 0x0002ffff, 0, 0, 0x00020001, 0},
};
static const uint64_t c_max_s16x2[][6] = {
    {0xffff0001, 0x0002ffff, 0, 0, 0x00020001, 0}, {0x80007fff, 0x7fff8000, 0, 0, 0x7fff7fff, 0},
};
static const uint64_t c_max_relu_s16x2[][6] = {
    {0xffff8000, 0xfffe8001, 0, 0, 0, 0}, {0xffff0003, 0xfffe0004, 0, 0, 4, 0},
};
static const uint64_t c_min_relu_s16x2[][6] = {
    {0x0005ffff, 0x00070003, 0, 0, 0x00050000, 0},
};

static void test_div_abs_min(void **state)
{
    (void)state;
    static const spec s[] = {
        {"div.s32 %xd, %xa, %xb;", "rr--r-", r_div_s32, CASES(c_div_s32)},
        {"div.u32 %xd, %xa, %xb;", "rr--r-", r_div_u32, CASES(c_div_u32)},
        {"div.s64 %xd, %xa, %xb;", "ll--l-", r_div_s64, CASES(c_div_s64)},
        {"div.u64 %xd, %xa, %xb;", "ll--l-", r_div_u64, CASES(c_div_u64)},
        {"div.u16 %xd, %xa, %xb;", "hh--h-", r_div_u16, CASES(c_div_u16)},
        {"div.s16 %xd, %xa, %xb;", "hh--h-", r_div_s16, CASES(c_div_s16)},
        {"rem.s32 %xd, %xa, %xb;", "rr--r-", r_rem_s32, CASES(c_rem_s32)},
        {"rem.u32 %xd, %xa, %xb;", "rr--r-", r_rem_u32, CASES(c_rem_u32)},
        {"rem.u64 %xd, %xa, %xb;", "ll--l-", r_rem_u64, CASES(c_rem_u64)},
        {"rem.s64 %xd, %xa, %xb;", "ll--l-", r_rem_s64, CASES(c_rem_s64)},
        {"rem.u16 %xd, %xa, %xb;", "hh--h-", r_rem_u16, CASES(c_rem_u16)},
        {"rem.s16 %xd, %xa, %xb;", "hh--h-", r_rem_s16, CASES(c_rem_s16)},
        {"abs.s32 %xd, %xa;", "r---r-", r_abs32, CASES(c_abs32)},
        {"abs.s16 %xd, %xa;", "h---h-", r_abs16, CASES(c_abs16)},
        {"abs.s64 %xd, %xa;", "l---l-", r_abs64, CASES(c_abs64)},
        {"neg.s32 %xd, %xa;", "r---r-", r_neg, CASES(c_neg32)},
        {"neg.s64 %xd, %xa;", "l---l-", r_neg, CASES(c_neg64)},
        {"min.s32 %xd, %xa, %xb;", "rr--r-", r_min_s32, CASES(c_min_s32)},
        {"min.u32 %xd, %xa, %xb;", "rr--r-", r_min_u, CASES(c_min_u32)},
        {"max.s32 %xd, %xa, %xb;", "rr--r-", r_max_s32, CASES(c_max_s32)},
        {"max.u16 %xd, %xa, %xb;", "hh--h-", r_max_u, CASES(c_max_u16)},
        {"min.s16 %xd, %xa, %xb;", "hh--h-", r_min_s16, CASES(c_min_s16)},
        {"max.s64 %xd, %xa, %xb;", "ll--l-", r_max_s64, CASES(c_max_s64)},
        {"min.u64 %xd, %xa, %xb;", "ll--l-", r_min_u, CASES(c_min_u64)},
        {"max.relu.s32 %xd, %xa, %xb;", "rr--r-", r_max_relu, CASES(c_max_relu)},
        {"min.relu.s32 %xd, %xa, %xb;", "rr--r-", r_min_relu, CASES(c_min_relu)},
        {"min.u16x2 %xd, %xa, %xb;", "rr--r-", r_min_u16x2, CASES(c_min_u16x2)},
        {"max.s16x2 %xd, %xa, %xb;", "rr--r-", r_max_s16x2, CASES(c_max_s16x2)},
        {"max.relu.s16x2 %xd, %xa, %xb;", "rr--r-", r_max_relu_s16x2,
         CASES(c_max_relu_s16x2)},
        {"min.relu.s16x2 %xd, %xa, %xb;", "rr--r-", r_min_relu_s16x2,
         CASES(c_min_relu_s16x2)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* ---------------------------------------------------------- bit counting */

#define BITREFS(bits)                                                         \
    REF(r_popc##bits)                                                         \
    {                                                                         \
        unsigned n = 0;                                                       \
        for (unsigned i = 0; i < bits; i++)                                   \
            n += (unsigned)bit(A, i);                                         \
        out[0] = n;                                                           \
    }                                                                         \
    REF(r_clz##bits)                                                          \
    {                                                                         \
        unsigned n = 0;                                                       \
        while (n < bits && !bit(A, bits - 1 - n))                             \
            n++;                                                              \
        out[0] = n;                                                           \
    }                                                                         \
    REF(r_brev##bits)                                                         \
    {                                                                         \
        uint64_t d = 0;                                                       \
        for (unsigned i = 0; i < bits; i++)                                   \
            d |= bit(A, i) << (bits - 1 - i);                                 \
        out[0] = d;                                                           \
    }                                                                         \
    REF(r_bfind_u##bits)                                                      \
    {                                                                         \
        out[0] = 0xffffffff;                                                  \
        for (unsigned i = 0; i < bits; i++)                                   \
            if (bit(A, i))                                                    \
                out[0] = i;                                                   \
    }                                                                         \
    REF(r_bfind_s##bits)                                                      \
    {                                                                         \
        uint64_t s = bit(A, bits - 1);                                        \
        out[0] = 0xffffffff;                                                  \
        for (unsigned i = 0; i < bits; i++)                                   \
            if (bit(A, i) != s)                                               \
                out[0] = i;                                                   \
    }                                                                         \
    REF(r_bfind_sa_u##bits)                                                   \
    {                                                                         \
        r_bfind_u##bits(in, out);                                             \
        if (out[0] != 0xffffffff)                                             \
            out[0] = bits - 1 - out[0];                                       \
    }                                                                         \
    REF(r_bfind_sa_s##bits)                                                   \
    {                                                                         \
        r_bfind_s##bits(in, out);                                             \
        if (out[0] != 0xffffffff)                                             \
            out[0] = bits - 1 - out[0];                                       \
    }
BITREFS(32)
BITREFS(64)

static const uint64_t c_popc32[][6] = {
    {0, 0, 0, 0, 0, 0}, {0xffffffff, 0, 0, 0, 32, 0}, {0x80000001, 0, 0, 0, 2, 0},
};
static const uint64_t c_popc64[][6] = {
    {0, 0, 0, 0, 0, 0}, {~0ull, 0, 0, 0, 64, 0}, {0x8000000100000001, 0, 0, 0, 3, 0},
};
static const uint64_t c_clz32[][6] = {
    {0, 0, 0, 0, 32, 0}, {0xffffffff, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 31, 0},
    {0x00010000, 0, 0, 0, 15, 0},
};
static const uint64_t c_clz64[][6] = {
    {0, 0, 0, 0, 64, 0}, {~0ull, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 63, 0},
    {0x80000000, 0, 0, 0, 32, 0},
};
static const uint64_t c_brev32[][6] = {
    {0, 0, 0, 0, 0, 0}, {0xffffffff, 0, 0, 0, 0xffffffff, 0}, {1, 0, 0, 0, 0x80000000, 0},
    {0x12345678, 0, 0, 0, 0x1e6a2c48, 0},
};
static const uint64_t c_brev64[][6] = {
    {0, 0, 0, 0, 0, 0}, {~0ull, 0, 0, 0, ~0ull, 0}, {1, 0, 0, 0, 0x8000000000000000, 0},
    {0xf0, 0, 0, 0, 0x0f00000000000000, 0},
};
static const uint64_t c_bfind_u32[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {1, 0, 0, 0, 0, 0}, {0x80000000, 0, 0, 0, 31, 0},
    {0xffffffff, 0, 0, 0, 31, 0},
};
static const uint64_t c_bfind_s32[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {0xffffffff, 0, 0, 0, 0xffffffff, 0},
    {0xfffffffe, 0, 0, 0, 0, 0}, {0x7fffffff, 0, 0, 0, 30, 0}, {0x80000000, 0, 0, 0, 30, 0},
    {5, 0, 0, 0, 2, 0},
};
static const uint64_t c_bfind_sa_u32[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {1, 0, 0, 0, 31, 0}, {0x80000000, 0, 0, 0, 0, 0},
};
static const uint64_t c_bfind_sa_s32[][6] = {
    {0xffffffff, 0, 0, 0, 0xffffffff, 0}, {1, 0, 0, 0, 31, 0}, {0x80000000, 0, 0, 0, 1, 0},
};
static const uint64_t c_bfind_sa_u64[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {1, 0, 0, 0, 63, 0}, {0x8000000000000000, 0, 0, 0, 0, 0},
};
static const uint64_t c_bfind_u64[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {0x8000000000000000, 0, 0, 0, 63, 0},
    {0x100000000, 0, 0, 0, 32, 0},
};
static const uint64_t c_bfind_s64[][6] = {
    {~0ull, 0, 0, 0, 0xffffffff, 0}, {0x8000000000000000, 0, 0, 0, 62, 0},
    {0xffffffff, 0, 0, 0, 31, 0},
};
static const uint64_t c_bfind_sa_s64[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {1, 0, 0, 0, 63, 0}, {0xfffffffffffffffe, 0, 0, 0, 63, 0},
};

static void test_bit_counting(void **state)
{
    (void)state;
    static const spec s[] = {
        {"popc.b32 %xd, %xa;", "r---r-", r_popc32, CASES(c_popc32)},
        {"popc.b64 %xd, %xa;", "l---r-", r_popc64, CASES(c_popc64)},
        {"clz.b32 %xd, %xa;", "r---r-", r_clz32, CASES(c_clz32)},
        {"clz.b64 %xd, %xa;", "l---r-", r_clz64, CASES(c_clz64)},
        {"brev.b32 %xd, %xa;", "r---r-", r_brev32, CASES(c_brev32)},
        {"brev.b64 %xd, %xa;", "l---l-", r_brev64, CASES(c_brev64)},
        {"bfind.u32 %xd, %xa;", "r---r-", r_bfind_u32, CASES(c_bfind_u32)},
        {"bfind.s32 %xd, %xa;", "r---r-", r_bfind_s32, CASES(c_bfind_s32)},
        {"bfind.shiftamt.u32 %xd, %xa;", "r---r-", r_bfind_sa_u32, CASES(c_bfind_sa_u32)},
        {"bfind.shiftamt.s32 %xd, %xa;", "r---r-", r_bfind_sa_s32, CASES(c_bfind_sa_s32)},
        {"bfind.u64 %xd, %xa;", "l---r-", r_bfind_u64, CASES(c_bfind_u64)},
        {"bfind.shiftamt.u64 %xd, %xa;", "l---r-", r_bfind_sa_u64, CASES(c_bfind_sa_u64)},
        {"bfind.s64 %xd, %xa;", "l---r-", r_bfind_s64, CASES(c_bfind_s64)},
        {"bfind.shiftamt.s64 %xd, %xa;", "l---r-", r_bfind_sa_s64, CASES(c_bfind_sa_s64)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* ------------------------------------------------------------ bit fields */

/* bfe, following the ISA pseudo-code bit by bit */
static uint64_t ref_bfe(uint64_t a, uint64_t b, uint64_t c, unsigned bits, bool sgn)
{
    unsigned msb = bits - 1, pos = b & 0xff, len = c & 0xff;
    uint64_t sbit = 0;
    if (sgn && len != 0)
        sbit = bit(a, pos + len - 1 < msb ? pos + len - 1 : msb);
    uint64_t d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        uint64_t v = (i < len && pos + i <= msb) ? bit(a, pos + i) : sbit;
        d |= v << i;
    }
    return d;
}
REF(r_bfe_u32) { out[0] = ref_bfe(A, B, C, 32, false); }
REF(r_bfe_s32) { out[0] = ref_bfe(A, B, C, 32, true); }
REF(r_bfe_u64) { out[0] = ref_bfe(A, B, C, 64, false); }
REF(r_bfe_s64) { out[0] = ref_bfe(A, B, C, 64, true); }

static uint64_t ref_bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t e, unsigned bits)
{
    unsigned pos = c & 0xff, len = e & 0xff;
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i < bits; i++)
        f = (f & ~(1ull << (pos + i))) | (bit(a, i) << (pos + i));
    return f;
}
REF(r_bfi32) { out[0] = ref_bfi(A, B, C, E, 32); }
REF(r_bfi64) { out[0] = ref_bfi(A, B, C, E, 64); }

/* fns: the ISA pseudo-code; base > 31 (undefined) is taken as "not found" */
REF(r_fns)
{
    uint32_t mask = (uint32_t)A, base = (uint32_t)B;
    int32_t offset = (int32_t)(uint32_t)C;
    out[0] = 0xffffffff;
    if (base > 31)
        return;
    if (offset == 0) {
        if (bit(mask, base))
            out[0] = base;
        return;
    }
    int64_t pos = base, count = (offset < 0 ? -(int64_t)offset : offset) - 1;
    int inc = offset > 0 ? 1 : -1;
    while (pos >= 0 && pos < 32) {
        if (bit(mask, (unsigned)pos)) {
            if (count == 0) {
                out[0] = (uint64_t)pos;
                return;
            }
            count--;
        }
        pos += inc;
    }
}

static uint64_t ref_bmsk(uint32_t a, uint32_t b, bool clamp)
{
    uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum < 32 ? ~0u << sum : 0;
    bool over = sum >= 32;
    if (clamp && a >= 32) {
        over = true;
        mask0 = 0;
    }
    if (clamp && b >= 32)
        over = true;
    if (over)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    return mask0 & ~mask1;
}
REF(r_bmsk_clamp) { out[0] = ref_bmsk((uint32_t)A, (uint32_t)B, true); }
REF(r_bmsk_wrap) { out[0] = ref_bmsk((uint32_t)A, (uint32_t)B, false); }

static uint64_t ref_szext(uint32_t a, uint32_t b, bool clamp, bool sgn)
{
    uint32_t b1 = b & 31;
    bool too_large = b >= 32 && clamp;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    bool sbit = !(b1 == 0 || too_large || !sgn) && ((a >> ((b1 - 1) & 31)) & 1);
    return (a & ~mask) | (sbit ? mask : 0);
}
REF(r_szext_clamp_s) { out[0] = ref_szext((uint32_t)A, (uint32_t)B, true, true); }
REF(r_szext_wrap_s) { out[0] = ref_szext((uint32_t)A, (uint32_t)B, false, true); }
REF(r_szext_clamp_u) { out[0] = ref_szext((uint32_t)A, (uint32_t)B, true, false); }
REF(r_szext_wrap_u) { out[0] = ref_szext((uint32_t)A, (uint32_t)B, false, false); }

static const uint64_t c_bfe_u32[][6] = {
    {0xf0, 4, 4, 0, 0xf, 0},        {0x12345678, 0, 0, 0, 0, 0},
    {0xffffffff, 31, 8, 0, 1, 0},   {0xffffffff, 32, 8, 0, 0, 0},
    {0xffffffff, 0, 32, 0, 0xffffffff, 0}, {0xffffffff, 0x104, 0x104, 0, 0xf, 0}, /* & 0xff */
    {0xabcd1234, 8, 255, 0, 0xabcd12, 0},
};
static const uint64_t c_bfe_s32[][6] = {
    {0xf0, 4, 4, 0, 0xffffffff, 0},       {0x70, 4, 4, 0, 7, 0},
    {0x80000000, 40, 5, 0, 0xffffffff, 0}, /* past the msb: sign of a[31] */
    {0x7fffffff, 40, 5, 0, 0, 0},         {0xffffffff, 3, 0, 0, 0, 0}, /* len 0 */
    {0x80000000, 28, 8, 0, 0xfffffff8, 0},
};
static const uint64_t c_bfe_u64[][6] = {
    {0xf000000000000000, 60, 4, 0, 0xf, 0}, {~0ull, 63, 8, 0, 1, 0}, {~0ull, 64, 8, 0, 0, 0},
};
static const uint64_t c_bfe_s64[][6] = {
    {0xf000000000000000, 60, 4, 0, ~0ull, 0}, {0x8000000000000000, 100, 1, 0, ~0ull, 0},
    {0x00000000f0000000, 28, 4, 0, ~0ull, 0}, {0x0000000070000000, 28, 4, 0, 7, 0},
};
static const uint64_t c_bfi32[][6] = {
    {0xf, 0xffff0000, 4, 4, 0xffff00f0, 0}, {0xf, 0x12345678, 4, 0, 0x12345678, 0},
    {0xf, 0x12345678, 32, 4, 0x12345678, 0}, {0xff, 0, 30, 8, 0xc0000000, 0},
    {0xffffffff, 0, 0, 32, 0xffffffff, 0}, {0, 0xffffffff, 0x108, 0x104, 0xfffff0ff, 0},
};
static const uint64_t c_bfi64[][6] = {
    {0xff, 0, 60, 8, 0xf000000000000000, 0}, {0x1, 0, 63, 1, 0x8000000000000000, 0},
    {0x1, 5, 64, 1, 5, 0},
};
static const uint64_t c_fns[][6] = {
    {0xaaaaaaaa, 3, 1, 0, 3, 0},          {0xaaaaaaaa, 3, 0xffffffff, 0, 3, 0},
    {0xaaaaaaaa, 2, 1, 0, 3, 0},          {0xaaaaaaaa, 2, 0xffffffff, 0, 1, 0},
    {0xaaaaaaaa, 2, 0, 0, 0xffffffff, 0}, {0xaaaaaaaa, 3, 0, 0, 3, 0},
    {0xffffffff, 0, 32, 0, 31, 0},        {0xffffffff, 0, 33, 0, 0xffffffff, 0},
    {0, 0, 1, 0, 0xffffffff, 0},
};
static const uint64_t c_bmsk_clamp[][6] = {
    {1, 2, 0, 0, 6, 0}, {0, 32, 0, 0, 0xffffffff, 0}, {32, 1, 0, 0, 0, 0},
    {28, 8, 0, 0, 0xf0000000, 0}, {4, 0, 0, 0, 0, 0},
};
static const uint64_t c_bmsk_wrap[][6] = {
    {1, 2, 0, 0, 6, 0}, {0, 32, 0, 0, 0, 0}, {33, 2, 0, 0, 6, 0},
};
static const uint64_t c_szext_clamp_s[][6] = {
    {0x80, 8, 0, 0, 0xffffff80, 0}, {0x7f, 8, 0, 0, 0x7f, 0}, {0x12345678, 0, 0, 0, 0, 0},
    {0x87654321, 40, 0, 0, 0x87654321, 0},
};
static const uint64_t c_szext_wrap_s[][6] = {
    {0xffffffff, 0, 0, 0, 0, 0}, {0x80, 40, 0, 0, 0xffffff80, 0}, /* 40 & 31 = 8 */
};
static const uint64_t c_szext_u[][6] = {
    {0xffffffff, 8, 0, 0, 0xff, 0}, {0xffffffff, 0, 0, 0, 0, 0},
};

static void test_bit_fields(void **state)
{
    (void)state;
    static const spec s[] = {
        {"bfe.u32 %xd, %xa, %xb, %xc;", "rrr-r-", r_bfe_u32, CASES(c_bfe_u32)},
        {"bfe.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_bfe_s32, CASES(c_bfe_s32)},
        {"bfe.u64 %xd, %xa, %xb, %xc;", "lrr-l-", r_bfe_u64, CASES(c_bfe_u64)},
        {"bfe.s64 %xd, %xa, %xb, %xc;", "lrr-l-", r_bfe_s64, CASES(c_bfe_s64)},
        {"bfi.b32 %xd, %xa, %xb, %xc, %xe;", "rrrrr-", r_bfi32, CASES(c_bfi32)},
        {"bfi.b64 %xd, %xa, %xb, %xc, %xe;", "llrrl-", r_bfi64, CASES(c_bfi64)},
        {"fns.b32 %xd, %xa, %xb, %xc;", "rrr-r-", r_fns, CASES(c_fns)},
        {"bmsk.clamp.b32 %xd, %xa, %xb;", "rr--r-", r_bmsk_clamp, CASES(c_bmsk_clamp)},
        {"bmsk.wrap.b32 %xd, %xa, %xb;", "rr--r-", r_bmsk_wrap, CASES(c_bmsk_wrap)},
        {"szext.clamp.s32 %xd, %xa, %xb;", "rr--r-", r_szext_clamp_s, CASES(c_szext_clamp_s)},
        {"szext.wrap.s32 %xd, %xa, %xb;", "rr--r-", r_szext_wrap_s, CASES(c_szext_wrap_s)},
        {"szext.clamp.u32 %xd, %xa, %xb;", "rr--r-", r_szext_clamp_u, CASES(c_szext_u)},
        {"szext.wrap.u32 %xd, %xa, %xb;", "rr--r-", r_szext_wrap_u, CASES(c_szext_u)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
    /* immediate operands: the manual's example */
    static const uint64_t imm_row[][6] = {{0, 0, 0, 0, 6, 0}};
    static const spec s2[] = {{"bmsk.wrap.b32 %xd, 1, 2;", "----r-", NULL, CASES(imm_row)}};
    run_specs(s2, 1);
}

/* --------------------------------------------------- dot products, prmt */

static int64_t byte_of(uint64_t v, unsigned i, bool sgn)
{
    uint64_t x = (v >> (8 * i)) & 0xff;
    return sgn ? sx(x, 8) : (int64_t)x;
}
static int64_t half_of(uint64_t v, unsigned i, bool sgn)
{
    uint64_t x = (v >> (16 * i)) & 0xffff;
    return sgn ? sx(x, 16) : (int64_t)x;
}
#define DP4REF(name, AS, BS)                                                  \
    REF(name)                                                                 \
    {                                                                         \
        int64_t s = 0;                                                        \
        for (unsigned i = 0; i < 4; i++)                                      \
            s += byte_of(A, i, AS) * byte_of(B, i, BS);                       \
        out[0] = C + (uint64_t)s;                                             \
    }
#define DP2REF(name, AS, BS, HI)                                              \
    REF(name)                                                                 \
    {                                                                         \
        int64_t s = 0;                                                        \
        for (unsigned i = 0; i < 2; i++)                                      \
            s += half_of(A, i, AS) * byte_of(B, (HI ? 2 : 0) + i, BS);        \
        out[0] = C + (uint64_t)s;                                             \
    }
DP4REF(r_dp4a_uu, false, false)
DP4REF(r_dp4a_ss, true, true)
DP4REF(r_dp4a_su, true, false)
DP2REF(r_dp2a_lo_ss, true, true, false)
DP2REF(r_dp2a_hi_us, false, true, true)

static const uint64_t c_dp4a_uu[][6] = {
    {0x01020304, 0x01010101, 0, 0, 10, 0}, {0xffffffff, 0xffffffff, 1, 0, 4 * 255 * 255 + 1, 0},
};
static const uint64_t c_dp4a_ss[][6] = {
    {0xffffffff, 0xffffffff, 0, 0, 4, 0},      /* (-1)(-1) x 4 */
    {0x80808080, 0x7f7f7f7f, 0, 0, 0xffff0200, 0}, /* 4 x (-128 x 127) = -65024 */
    {0x000000ff, 0x00000001, 5, 0, 4, 0},
};
static const uint64_t c_dp4a_su[][6] = {
    {0x000000ff, 0x000000ff, 0, 0, 0xffffff01, 0}, /* -1 x 255 */
};
static const uint64_t c_dp2a_lo_ss[][6] = {
    {0xffff0002, 0x00000305, 0, 0, 7, 0}, /* 2*5 + (-1)*3 */
    {0x80008000, 0x00008080, 0, 0, 0x00800000, 0},
};
static const uint64_t c_dp2a_hi_us[][6] = {
    {0xffff0002, 0xff050000, 0, 0, 0xffff000b, 0}, /* 2*5 + 65535*(-1) = -65525 */
};

/* prmt mode tables (PTX ISA): destination bytes 3..2..1..0 per c[1:0] */
static const uint8_t prmt_modes[6][4][4] = {
    /* f4e */ {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}},
    /* b4e */ {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}},
    /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecl */ {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecr */ {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}},
    /* rc16 */ {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}},
};
static uint64_t ref_prmt(uint64_t a, uint64_t b, uint64_t c, int mode)
{
    uint64_t src = (b & 0xffffffff) << 32 | (a & 0xffffffff);
    uint64_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel;
        uint64_t v;
        if (mode < 0) {
            sel = (c >> (4 * i)) & 0xf;
            v = (src >> (8 * (sel & 7))) & 0xff;
            if (sel & 8)
                v = (v & 0x80) ? 0xff : 0;
        } else {
            sel = prmt_modes[mode][c & 3][3 - i];
            v = (src >> (8 * sel)) & 0xff;
        }
        d |= v << (8 * i);
    }
    return d;
}
REF(r_prmt) { out[0] = ref_prmt(A, B, C, -1); }
#define PRMTREF(k) REF(r_prmt_##k) { out[0] = ref_prmt(A, B, C, k); }
PRMTREF(0)
PRMTREF(1)
PRMTREF(2)
PRMTREF(3)
PRMTREF(4)
PRMTREF(5)

/* a = bytes 3..0 = 03 02 01 00, b = 07 06 05 04: results show byte numbers */
#define AB 0x03020100, 0x07060504
static const uint64_t c_prmt[][6] = {
    {AB, 0x3210, 0, 0x03020100, 0}, {AB, 0x7654, 0, 0x07060504, 0},
    {AB, 0x0123, 0, 0x00010203, 0}, {AB, 0x4444, 0, 0x04040404, 0},
    {0x00008000, 0x80000000, 0x8f9b, 0, 0x00ffff00, 0}, /* sign replication */
    {0x00007f00, 0, 0x0999, 0, 0x00000000, 0}, {0x00008000, 0, 0x1119, 0, 0x808080ff, 0},
};
static const uint64_t c_f4e[][6] = {
    {AB, 0, 0, 0x03020100, 0}, {AB, 1, 0, 0x04030201, 0}, {AB, 2, 0, 0x05040302, 0},
    {AB, 3, 0, 0x06050403, 0}, {AB, 0xfffffffd, 0, 0x04030201, 0},
};
static const uint64_t c_b4e[][6] = {
    {AB, 0, 0, 0x05060700, 0}, {AB, 1, 0, 0x06070001, 0}, {AB, 2, 0, 0x07000102, 0},
    {AB, 3, 0, 0x00010203, 0},
};
static const uint64_t c_rc8[][6] = {
    {AB, 0, 0, 0x00000000, 0}, {AB, 1, 0, 0x01010101, 0}, {AB, 2, 0, 0x02020202, 0},
    {AB, 3, 0, 0x03030303, 0},
};
static const uint64_t c_ecl[][6] = {
    {AB, 0, 0, 0x03020100, 0}, {AB, 1, 0, 0x03020101, 0}, {AB, 2, 0, 0x03020202, 0},
    {AB, 3, 0, 0x03030303, 0},
};
static const uint64_t c_ecr[][6] = {
    {AB, 0, 0, 0x00000000, 0}, {AB, 1, 0, 0x01010100, 0}, {AB, 2, 0, 0x02020100, 0},
    {AB, 3, 0, 0x03020100, 0},
};
static const uint64_t c_rc16[][6] = {
    {AB, 0, 0, 0x01000100, 0}, {AB, 1, 0, 0x03020302, 0}, {AB, 2, 0, 0x01000100, 0},
    {AB, 3, 0, 0x03020302, 0},
};

static void test_dp_prmt(void **state)
{
    (void)state;
    static const spec s[] = {
        {"dp4a.u32.u32 %xd, %xa, %xb, %xc;", "rrr-r-", r_dp4a_uu, CASES(c_dp4a_uu)},
        {"dp4a.s32.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_dp4a_ss, CASES(c_dp4a_ss)},
        {"dp4a.s32.u32 %xd, %xa, %xb, %xc;", "rrr-r-", r_dp4a_su, CASES(c_dp4a_su)},
        {"dp2a.lo.s32.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_dp2a_lo_ss, CASES(c_dp2a_lo_ss)},
        {"dp2a.hi.u32.s32 %xd, %xa, %xb, %xc;", "rrr-r-", r_dp2a_hi_us, CASES(c_dp2a_hi_us)},
        {"prmt.b32 %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt, CASES(c_prmt)},
        {"prmt.b32.f4e %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt_0, CASES(c_f4e)},
        {"prmt.b32.b4e %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt_1, CASES(c_b4e)},
        {"prmt.b32.rc8 %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt_2, CASES(c_rc8)},
        {"prmt.b32.ecl %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt_3, CASES(c_ecl)},
        {"prmt.b32.ecr %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt_4, CASES(c_ecr)},
        {"prmt.b32.rc16 %xd, %xa, %xb, %xc;", "rrr-r-", r_prmt_5, CASES(c_rc16)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* ------------------------------------------------------ shifts and logic */

static uint64_t shf_n(uint64_t c, bool clamp)
{
    uint32_t v = (uint32_t)c;
    return clamp ? (v < 32 ? v : 32) : (v & 31);
}
static uint64_t ref_shf(uint64_t a, uint64_t b, uint64_t c, bool left, bool clamp)
{
    uint64_t n = shf_n(c, clamp);
    a &= 0xffffffff;
    b &= 0xffffffff;
    if (left)
        return n == 0 ? b : n == 32 ? a : ((b << n) | (a >> (32 - n))) & 0xffffffff;
    return n == 0 ? a : n == 32 ? b : ((b << (32 - n)) | (a >> n)) & 0xffffffff;
}
REF(r_shf_l_clamp) { out[0] = ref_shf(A, B, C, true, true); }
REF(r_shf_l_wrap) { out[0] = ref_shf(A, B, C, true, false); }
REF(r_shf_r_clamp) { out[0] = ref_shf(A, B, C, false, true); }
REF(r_shf_r_wrap) { out[0] = ref_shf(A, B, C, false, false); }

#define SHIFTREFS(bits)                                                       \
    REF(r_shl##bits) { out[0] = (uint32_t)B >= bits ? 0 : A << (uint32_t)B; } \
    REF(r_shr_u##bits) { out[0] = (uint32_t)B >= bits ? 0 : A >> (uint32_t)B; } \
    REF(r_shr_s##bits)                                                        \
    {                                                                         \
        uint32_t n = (uint32_t)B;                                             \
        int64_t x = sx(A, bits);                                              \
        out[0] = (uint64_t)(n >= bits ? (x < 0 ? -1 : 0) : x >> n);           \
    }
SHIFTREFS(16)
SHIFTREFS(32)
SHIFTREFS(64)

REF(r_and) { out[0] = A & B; }
REF(r_or) { out[0] = A | B; }
REF(r_xor) { out[0] = A ^ B; }
REF(r_not) { out[0] = ~A; }
REF(r_cnot16) { out[0] = (A & 0xffff) == 0; }
REF(r_cnot32) { out[0] = (A & 0xffffffff) == 0; }
REF(r_cnot64) { out[0] = A == 0; }
REF(r_pand_nb) { out[0] = A && !B; }
REF(r_por) { out[0] = A || B; }
REF(r_pxor) { out[0] = (A != 0) != (B != 0); }
REF(r_pnot) { out[0] = !A; }
REF(r_pnot_n) { out[0] = A != 0; }

static const uint64_t c_shf_l_clamp[][6] = {
    {0x80000000, 0x1, 1, 0, 0x3, 0}, {0x12345678, 0x9abcdef0, 0, 0, 0x9abcdef0, 0},
    {0x12345678, 0x9abcdef0, 32, 0, 0x12345678, 0}, {0x12345678, 0x9abcdef0, 100, 0, 0x12345678, 0},
    {0x12345678, 0x9abcdef0, 8, 0, 0xbcdef012, 0},
};
static const uint64_t c_shf_l_wrap[][6] = {
    {0x12345678, 0x9abcdef0, 32, 0, 0x9abcdef0, 0}, {0x12345678, 0x9abcdef0, 40, 0, 0xbcdef012, 0},
};
static const uint64_t c_shf_r_clamp[][6] = {
    {0x1, 0x1, 1, 0, 0x80000000, 0}, {0x12345678, 0x9abcdef0, 32, 0, 0x9abcdef0, 0},
    {0x12345678, 0x9abcdef0, 0xffffffff, 0, 0x9abcdef0, 0},
    {0x12345678, 0x9abcdef0, 8, 0, 0xf0123456, 0},
};
static const uint64_t c_shf_r_wrap[][6] = {
    {0x12345678, 0x9abcdef0, 32, 0, 0x12345678, 0}, {0x12345678, 0x9abcdef0, 36, 0, 0x01234567, 0},
};
static const uint64_t c_shl32[][6] = {
    {1, 31, 0, 0, 0x80000000, 0}, {1, 32, 0, 0, 0, 0}, {1, 0xffffffff, 0, 0, 0, 0},
    {0xffffffff, 4, 0, 0, 0xfffffff0, 0}, {5, 0, 0, 0, 5, 0},
};
static const uint64_t c_shl64[][6] = {
    {1, 63, 0, 0, 0x8000000000000000, 0}, {1, 64, 0, 0, 0, 0}, {0xffffffff, 32, 0, 0, 0xffffffff00000000, 0},
};
static const uint64_t c_shl16[][6] = {
    {1, 15, 0, 0, 0x8000, 0}, {1, 16, 0, 0, 0, 0}, {0xffff, 8, 0, 0, 0xff00, 0},
};
static const uint64_t c_shr_u32[][6] = {
    {0x80000000, 31, 0, 0, 1, 0}, {0x80000000, 32, 0, 0, 0, 0}, {0xffffffff, 4, 0, 0, 0x0fffffff, 0},
};
static const uint64_t c_shr_s32[][6] = {
    {0x80000000, 31, 0, 0, 0xffffffff, 0}, {0x80000000, 40, 0, 0, 0xffffffff, 0},
    {0x40000000, 40, 0, 0, 0, 0}, {0xfffffff0, 2, 0, 0, 0xfffffffc, 0},
    {0x80000000, 0xffffffff, 0, 0, 0xffffffff, 0},
};
static const uint64_t c_shr_u16[][6] = {
    {0x8000, 15, 0, 0, 1, 0}, {0x8000, 16, 0, 0, 0, 0},
};
static const uint64_t c_shr_s16[][6] = {
    {0x8000, 15, 0, 0, 0xffff, 0}, {0x8000, 16, 0, 0, 0xffff, 0}, {0x7000, 4, 0, 0, 0x0700, 0},
};
static const uint64_t c_shr_s64[][6] = {
    {0x8000000000000000, 63, 0, 0, ~0ull, 0}, {0x8000000000000000, 64, 0, 0, ~0ull, 0},
    {0x4000000000000000, 100, 0, 0, 0, 0},
};
static const uint64_t c_shr_b64[][6] = {
    {0x8000000000000000, 63, 0, 0, 1, 0}, {~0ull, 64, 0, 0, 0, 0},
};
static const uint64_t c_and32[][6] = {
    {0xff00ff00, 0x0ff00ff0, 0, 0, 0x0f000f00, 0}, {0xffffffff, 0, 0, 0, 0, 0},
};
static const uint64_t c_or32[][6] = {
    {0xff00ff00, 0x0ff00ff0, 0, 0, 0xfff0fff0, 0},
};
static const uint64_t c_xor64[][6] = {
    {~0ull, 0x0ff00ff00ff00ff0, 0, 0, 0xf00ff00ff00ff00f, 0},
};
static const uint64_t c_not16[][6] = {
    {0, 0, 0, 0, 0xffff, 0}, {0x00ff, 0, 0, 0, 0xff00, 0},
};
static const uint64_t c_not32[][6] = {
    {0, 0, 0, 0, 0xffffffff, 0}, {0x00ff, 0, 0, 0, 0xffffff00, 0},
};
static const uint64_t c_not64[][6] = {
    {0, 0, 0, 0, ~0ull, 0},
};
static const uint64_t c_cnot[][6] = {
    {0, 0, 0, 0, 1, 0}, {5, 0, 0, 0, 0, 0}, {~0ull, 0, 0, 0, 0, 0},
};
static const uint64_t c_pand_nb[][6] = {
    {1, 0, 0, 0, 1, 0}, {1, 1, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0},
};
static const uint64_t c_por[][6] = {
    {0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 1, 0}, {0, 1, 0, 0, 1, 0},
};
static const uint64_t c_pxor[][6] = {
    {1, 1, 0, 0, 0, 0}, {1, 0, 0, 0, 1, 0},
};
static const uint64_t c_pnot[][6] = {
    {1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 1, 0},
};
static const uint64_t c_pnot_n[][6] = {
    {1, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 0},
};

static void test_shift_logic(void **state)
{
    (void)state;
    static const spec s[] = {
        {"shf.l.clamp.b32 %xd, %xa, %xb, %xc;", "rrr-r-", r_shf_l_clamp, CASES(c_shf_l_clamp)},
        {"shf.l.wrap.b32 %xd, %xa, %xb, %xc;", "rrr-r-", r_shf_l_wrap, CASES(c_shf_l_wrap)},
        {"shf.r.clamp.b32 %xd, %xa, %xb, %xc;", "rrr-r-", r_shf_r_clamp, CASES(c_shf_r_clamp)},
        {"shf.r.wrap.b32 %xd, %xa, %xb, %xc;", "rrr-r-", r_shf_r_wrap, CASES(c_shf_r_wrap)},
        {"shl.b32 %xd, %xa, %xb;", "rr--r-", r_shl32, CASES(c_shl32)},
        {"shl.b64 %xd, %xa, %xb;", "lr--l-", r_shl64, CASES(c_shl64)},
        {"shl.b16 %xd, %xa, %xb;", "hr--h-", r_shl16, CASES(c_shl16)},
        {"shr.u32 %xd, %xa, %xb;", "rr--r-", r_shr_u32, CASES(c_shr_u32)},
        {"shr.b32 %xd, %xa, %xb;", "rr--r-", r_shr_u32, CASES(c_shr_u32)},
        {"shr.s32 %xd, %xa, %xb;", "rr--r-", r_shr_s32, CASES(c_shr_s32)},
        {"shr.s16 %xd, %xa, %xb;", "hr--h-", r_shr_s16, CASES(c_shr_s16)},
        {"shr.u16 %xd, %xa, %xb;", "hr--h-", r_shr_u16, CASES(c_shr_u16)},
        {"shr.s64 %xd, %xa, %xb;", "lr--l-", r_shr_s64, CASES(c_shr_s64)},
        {"shr.b64 %xd, %xa, %xb;", "lr--l-", r_shr_u64, CASES(c_shr_b64)},
        {"and.b32 %xd, %xa, %xb;", "rr--r-", r_and, CASES(c_and32)},
        {"or.b32 %xd, %xa, %xb;", "rr--r-", r_or, CASES(c_or32)},
        {"xor.b64 %xd, %xa, %xb;", "ll--l-", r_xor, CASES(c_xor64)},
        {"and.b16 %xd, %xa, %xb;", "hh--h-", r_and, CASES(c_and32)},
        {"not.b16 %xd, %xa;", "h---h-", r_not, CASES(c_not16)},
        {"not.b32 %xd, %xa;", "r---r-", r_not, CASES(c_not32)},
        {"not.b64 %xd, %xa;", "l---l-", r_not, CASES(c_not64)},
        {"cnot.b16 %xd, %xa;", "h---h-", r_cnot16, CASES(c_cnot)},
        {"cnot.b32 %xd, %xa;", "r---r-", r_cnot32, CASES(c_cnot)},
        {"cnot.b64 %xd, %xa;", "l---l-", r_cnot64, CASES(c_cnot)},
        {"and.pred %xd, %xa, !%xb;", "pp--p-", r_pand_nb, CASES(c_pand_nb)},
        {"or.pred %xd, %xa, %xb;", "pp--p-", r_por, CASES(c_por)},
        {"xor.pred %xd, %xa, %xb;", "pp--p-", r_pxor, CASES(c_pxor)},
        {"not.pred %xd, %xa;", "p---p-", r_pnot, CASES(c_pnot)},
        {"not.pred %xd, !%xa;", "p---p-", r_pnot_n, CASES(c_pnot_n)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* lop3: bit i of the result is LUT bit (a_i << 2 | b_i << 1 | c_i) */
static uint64_t ref_lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut)
{
    uint64_t d = 0;
    for (unsigned i = 0; i < 32; i++) {
        unsigned k = (unsigned)(bit(a, i) << 2 | bit(b, i) << 1 | bit(c, i));
        d |= (uint64_t)((lut >> k) & 1) << i;
    }
    return d;
}

static void test_lop3(void **state)
{
    (void)state;
    /* LUT, a, b, c, expected for one hand-computed row */
    static const struct {
        unsigned lut;
        uint64_t a, b, c, d;
    } rows[] = {
        {0x80, 0xff00ff00, 0xf0f0f0f0, 0xcccccccc, 0xc000c000}, /* a & b & c */
        {0xfe, 0xff000000, 0x00ff0000, 0x0000ff00, 0xffffff00}, /* a | b | c */
        {0x96, 0xff00ff00, 0xf0f0f0f0, 0xcccccccc, 0xc33cc33c}, /* a ^ b ^ c */
        {0xe8, 0xff00ff00, 0xf0f0f0f0, 0xcccccccc, 0xfcc0fcc0}, /* majority */
        {0x40, 0xffffffff, 0xffffffff, 0x0000ffff, 0xffff0000}, /* a & b & ~c */
        {0x1a, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0x1a1a1a1a}, /* (a & b | c) ^ a */
        {0xca, 0xffff0000, 0x12345678, 0x9abcdef0, 0x1234def0}, /* a ? b : c */
        {0x00, 0xffffffff, 0xffffffff, 0xffffffff, 0},
        {0xff, 0, 0, 0, 0xffffffff},
        {0xf0, 0x12345678, 0, 0, 0x12345678},                   /* a */
        {0x0f, 0x12345678, 0, 0, 0xedcba987},                   /* ~a */
    };
    int failures = 0;
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[96];
        snprintf(text, sizeof text, "lop3.b32 %%xd, %%xa, %%xb, %%xc, 0x%x;", rows[i].lut);
        uint64_t row[1][6] = {{rows[i].a, rows[i].b, rows[i].c, 0, rows[i].d, 0}};
        assert_int_equal(ref_lop3(rows[i].a, rows[i].b, rows[i].c, rows[i].lut), rows[i].d);
        /* random lanes against the bit-loop reference for this LUT */
        unsigned lut = rows[i].lut;
        uint64_t rnd[80][6];
        rng r = {lut + 99};
        for (unsigned l = 0; l < 80; l++) {
            rnd[l][0] = next64(&r) & 0xffffffff;
            rnd[l][1] = next64(&r) & 0xffffffff;
            rnd[l][2] = next64(&r) & 0xffffffff;
            rnd[l][3] = 0;
            rnd[l][4] = ref_lop3(rnd[l][0], rnd[l][1], rnd[l][2], lut);
            rnd[l][5] = 0;
        }
        memcpy(rnd[0], row[0], sizeof row[0]);
        spec s = {text, "rrr-r-", NULL, (const uint64_t (*)[6])rnd, 80};
        failures += run_spec(&s, i);
    }
    /* the predicate form: p = (d != 0) op q, with q or !q */
    static const uint64_t c_or[][6] = {
        {0x1, 0, 0, 0, 0x1, 1}, {0, 0, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 1}, {0x10, 0, 0, 1, 0x10, 1},
    };
    static const uint64_t c_and[][6] = {
        {0x1, 0, 0, 1, 0x1, 1}, {0, 0, 0, 1, 0, 0}, {0x1, 0, 0, 0, 0x1, 0},
    };
    static const uint64_t c_and_nq[][6] = {
        {0x1, 0, 0, 1, 0x1, 0}, {0x1, 0, 0, 0, 0x1, 1},
    };
    static const spec sp[] = {
        {"lop3.or.b32 %xd|%xf, %xa, %xb, %xc, 0xf0, %xe;", "rrrprp", NULL, CASES(c_or)},
        {"lop3.and.b32 %xd|%xf, %xa, %xb, %xc, 0xf0, %xe;", "rrrprp", NULL, CASES(c_and)},
        {"lop3.and.b32 %xd|%xf, %xa, %xb, %xc, 0xf0, !%xe;", "rrrprp", NULL, CASES(c_and_nq)},
    };
    for (unsigned i = 0; i < 3; i++)
        failures += run_spec(&sp[i], 7 + i);
    assert_int_equal(failures, 0);
}

/* ---------------------------------------------------------------- video */

/* Hand-computed from the ISA pseudo-code; the semantics themselves are
 * tested in depth by tests/isa/test_video.c, so these check the decoding of
 * types, selectors and modifiers. */
static const uint64_t v_add_u[][6] = {
    {1, 2, 0, 0, 3, 0}, {0xffffffff, 1, 0, 0, 0, 0},
};
static const uint64_t v_add_u_sat[][6] = {
    {0xffffffff, 1, 0, 0, 0xffffffff, 0}, {1, 2, 0, 0, 3, 0},
};
static const uint64_t v_add_s_sat[][6] = {
    {0x7fffffff, 1, 0, 0, 0x7fffffff, 0}, {0x80000000, 0xffffffff, 0, 0, 0x80000000, 0},
    {0x80000000, 0x7fffffff, 0, 0, 0xffffffff, 0},
};
static const uint64_t v_add_s_sat_c[][6] = { /* c is present but unused */
    {0x7fffffff, 1, 5, 0, 0x7fffffff, 0}, {2, 3, 0xffffffff, 0, 5, 0},
};
static const uint64_t v_sub_sel[][6] = {
    {0x000000ff, 0x0000ff00, 0, 0, 0xffffff00, 0}, /* a.b0 = -1 (s32), b.b1 = 255 (u32) */
    {0x00000001, 0x0000ff00, 0, 0, 0xffffff02, 0},
    {0x12345680, 0x00000100, 0, 0, 0xffffff7f, 0}, /* -128 - 1 */
};
static const uint64_t v_absdiff_h[][6] = {
    {0x0000ffff, 0x00010000, 0, 0, 2, 0}, {0x00008000, 0x7fff0000, 0, 0, 0xffff, 0},
};
static const uint64_t v_min_add[][6] = {
    {5, 0xfffffffd, 10, 0, 7, 0}, {0x80000000, 0, 0x80000000, 0, 0, 0}, /* wraps */
};
static const uint64_t v_max_max[][6] = {
    {5, 7, 6, 0, 7, 0}, {5, 7, 100, 0, 100, 0}, {0xffffffff, 0, 1, 0, 0xffffffff, 0},
};
static const uint64_t v_shl_clamp[][6] = {
    {1, 31, 0, 0, 0x80000000, 0}, {1, 32, 0, 0, 0, 0}, {1, 40, 0, 0, 0, 0}, {3, 4, 0, 0, 48, 0},
};
static const uint64_t v_shl_wrap[][6] = {
    {1, 33, 0, 0, 2, 0}, {1, 32, 0, 0, 1, 0},
};
static const uint64_t v_shr_s_clamp[][6] = {
    {0x80000000, 40, 0, 0, 0xffffffff, 0}, {0x80000000, 4, 0, 0, 0xf8000000, 0},
    {0x40000000, 40, 0, 0, 0, 0},
};
static const uint64_t v_set_lt_u[][6] = {
    {1, 2, 0, 0, 1, 0}, {2, 1, 0, 0, 0, 0}, {0xffffffff, 0, 0, 0, 0, 0},
};
static const uint64_t v_set_lt_su[][6] = {
    {0xffffffff, 0, 0, 0, 1, 0}, {0, 0xffffffff, 0, 0, 1, 0}, /* -1 < 0; 0 < 2^32-1 */
};
static const uint64_t v_set_ge_add[][6] = {
    {3, 3, 10, 0, 11, 0}, {2, 3, 10, 0, 10, 0},
};
static const uint64_t v_merge_b1[][6] = {
    {0x10, 0x20, 0xaabbccdd, 0, 0xaabb30dd, 0}, {0xff, 0x02, 0x11223344, 0, 0x11220144, 0},
};
static const uint64_t v_merge_b1_sat[][6] = {
    {0xf0, 0x20, 0xaabbccdd, 0, 0xaabbffdd, 0}, {0x10, 0x20, 0xaabbccdd, 0, 0xaabb30dd, 0},
};
static const uint64_t v_mad[][6] = {
    {3, 4, 5, 0, 17, 0}, {0xffffffff, 0xffffffff, 0, 0, 1, 0},
};
static const uint64_t v_mad_po[][6] = {
    {3, 4, 5, 0, 18, 0},
};
static const uint64_t v_mad_shr15[][6] = {
    {0x00008000, 0x7fff0000, 0, 0, 0xffff8001, 0}, /* -32768 * 32767 >> 15 */
    {0x00000002, 0x40000000, 0, 0, 1, 0},          /* 2 * 16384 >> 15 */
};
static const uint64_t v_mad_sat[][6] = {
    {0x10000, 0x10000, 0, 0, 0xffffffff, 0}, {2, 3, 4, 0, 10, 0},
};
static const uint64_t v_add2[][6] = {
    {0x0001ffff, 0x00020001, 0, 0, 0x00030000, 0},
};
static const uint64_t v_add2_sat[][6] = {
    {0x7fff8000, 0x0001ffff, 0, 0, 0x7fff8000, 0}, {0x00010002, 0x00030004, 0, 0, 0x00040006, 0},
};
static const uint64_t v_sub4_sat[][6] = {
    {0x10203040, 0x20102010, 0, 0, 0x00101030, 0},
};
static const uint64_t v_avrg4[][6] = {
    {0x01020304, 0x02020202, 0, 0, 0x02020303, 0},
};
static const uint64_t v_avrg2_s[][6] = {
    {0xfffd0003, 0, 0, 0, 0xfffe0002, 0}, /* -3 -> floor(-1.5) = -2; 3 -> 2 */
};
static const uint64_t v_set4[][6] = {
    {0x01050309, 0x02040308, 0, 0, 0x01000000, 0},
};
static const uint64_t v_set2_add[][6] = {
    {0x00010002, 0x00010003, 100, 0, 101, 0},
};
static const uint64_t v_min2_add[][6] = {
    {0xffff0005, 0x00020003, 10, 0, 12, 0},
};
static const uint64_t v_max4[][6] = {
    {0x01ff0310, 0x02fe0420, 0, 0, 0x02ff0420, 0},
};
static const uint64_t v_add2_h1[][6] = {
    {0x00010001, 0x00020002, 0xaaaabbbb, 0, 0x0003bbbb, 0},
};
static const uint64_t v_add4_b2[][6] = {
    {0x01010101, 0x02020202, 0xaabbccdd, 0, 0xaa03ccdd, 0},
};
static const uint64_t v_absdiff4[][6] = {
    {0x80ff0102, 0x7f010201, 0, 0, 0xff020101, 0},
};

static void test_video(void **state)
{
    (void)state;
    static const spec s[] = {
        {"vadd.u32.u32.u32 %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_add_u)},
        {"vadd.u32.u32.u32.sat %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_add_u_sat)},
        {"vadd.s32.s32.s32.sat %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_add_s_sat)},
        {"vadd.s32.s32.s32.sat %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_add_s_sat_c)},
        {"vsub.s32.s32.u32.sat %xd, %xa.b0, %xb.b1;", "rrr-r-", NULL, CASES(v_sub_sel)},
        {"vabsdiff.u32.s32.s32 %xd, %xa.h0, %xb.h1;", "rrr-r-", NULL, CASES(v_absdiff_h)},
        {"vmin.s32.s32.s32.add %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_min_add)},
        {"vmax.u32.u32.u32.max %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_max_max)},
        {"vshl.u32.u32.u32.clamp %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_shl_clamp)},
        {"vshl.u32.u32.u32.wrap %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_shl_wrap)},
        {"vshr.s32.s32.u32.clamp %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_shr_s_clamp)},
        {"vset.u32.u32.lt %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_set_lt_u)},
        {"vset.s32.u32.lt %xd, %xa, %xb;", "rrr-r-", NULL, CASES(v_set_lt_su)},
        {"vset.u32.u32.ge.add %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_set_ge_add)},
        {"vadd.u32.u32.u32 %xd.b1, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_merge_b1)},
        {"vadd.u32.u32.u32.sat %xd.b1, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_merge_b1_sat)},
        {"vmad.u32.u32.u32 %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_mad)},
        {"vmad.u32.u32.u32.po %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_mad_po)},
        {"vmad.s32.s32.s32.shr15 %xd, %xa.h0, %xb.h1, %xc;", "rrr-r-", NULL,
         CASES(v_mad_shr15)},
        {"vmad.u32.u32.u32.sat %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_mad_sat)},
        {"vadd2.u32.u32.u32 %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_add2)},
        {"vadd2.s32.s32.s32.sat %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_add2_sat)},
        {"vsub4.u32.u32.u32.sat %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_sub4_sat)},
        {"vavrg4.u32.u32.u32 %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_avrg4)},
        {"vavrg2.s32.s32.s32 %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_avrg2_s)},
        {"vset4.u32.u32.lt %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_set4)},
        {"vset2.s32.s32.ne.add %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_set2_add)},
        {"vmin2.s32.s32.s32.add %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_min2_add)},
        {"vmax4.u32.u32.u32 %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_max4)},
        {"vadd2.u32.u32.u32 %xd.h1, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_add2_h1)},
        {"vadd4.u32.u32.u32 %xd.b2, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_add4_b2)},
        {"vabsdiff4.u32.s32.s32 %xd, %xa, %xb, %xc;", "rrr-r-", NULL, CASES(v_absdiff4)},
    };
    run_specs(s, sizeof s / sizeof s[0]);
}

/* ---------------------------------------------------------- carry chains */

/* x + y and x - y as 128-bit numbers from four 32-bit limbs (carry through
 * add.cc/addc.cc/addc) and from two 64-bit limbs; x * y + z as a 96-bit
 * product from mad.lo.cc/madc.hi.cc/madc. */
static const char chain_ptx[] = HEADER
    ".visible .entry k(.param .u64 px, .param .u64 py, .param .u64 ps, .param .u64 pd,\n"
    "                  .param .u64 pw, .param .u64 pm)\n{\n"
    ".reg .b32 %i, %x<4>, %y<4>, %s<4>, %m<3>; .reg .b64 %off, %p<6>, %X<2>, %Y<2>, %S<2>;\n"
    "mov.u32 %i, %tid.x;\n"
    "mul.wide.u32 %off, %i, 16;\n"
    "ld.param.u64 %p0, [px]; add.s64 %p0, %p0, %off;\n"
    "ld.param.u64 %p1, [py]; add.s64 %p1, %p1, %off;\n"
    "ld.param.u64 %p2, [ps]; add.s64 %p2, %p2, %off;\n"
    "ld.param.u64 %p3, [pd]; add.s64 %p3, %p3, %off;\n"
    "ld.param.u64 %p4, [pw]; add.s64 %p4, %p4, %off;\n"
    "ld.param.u64 %p5, [pm]; add.s64 %p5, %p5, %off;\n"
    "ld.global.v4.u32 {%x0, %x1, %x2, %x3}, [%p0];\n"
    "ld.global.v4.u32 {%y0, %y1, %y2, %y3}, [%p1];\n"
    "add.cc.u32 %s0, %x0, %y0;\n"
    "addc.cc.u32 %s1, %x1, %y1;\n"
    "addc.cc.u32 %s2, %x2, %y2;\n"
    "addc.u32 %s3, %x3, %y3;\n"
    "st.global.v4.u32 [%p2], {%s0, %s1, %s2, %s3};\n"
    "sub.cc.u32 %s0, %x0, %y0;\n"
    "subc.cc.u32 %s1, %x1, %y1;\n"
    "subc.cc.u32 %s2, %x2, %y2;\n"
    "subc.u32 %s3, %x3, %y3;\n"
    "st.global.v4.u32 [%p3], {%s0, %s1, %s2, %s3};\n"
    "ld.global.v2.u64 {%X0, %X1}, [%p0];\n"
    "ld.global.v2.u64 {%Y0, %Y1}, [%p1];\n"
    "add.cc.s64 %S0, %X0, %Y0;\n"
    "addc.s64 %S1, %X1, %Y1;\n"
    "sub.cc.u64 %X0, %X0, %Y0;\n"
    "subc.u64 %X1, %X1, %Y1;\n"
    "add.cc.u64 %S0, %S0, %X0;\n" /* (x + y) + (x - y) = 2x, checked below */
    "addc.u64 %S1, %S1, %X1;\n"
    "st.global.v2.u64 [%p4], {%S0, %S1};\n"
    /* x0 * {y1:y0} + {x2:x1} as 96 bits */
    "mad.lo.cc.u32 %m0, %x0, %y0, %x1;\n"
    "madc.hi.cc.u32 %m1, %x0, %y0, %x2;\n"
    "madc.hi.u32 %m2, %x0, %y1, 0;\n"
    "mad.lo.cc.u32 %m1, %x0, %y1, %m1;\n"
    "addc.u32 %m2, %m2, 0;\n"
    "st.global.v4.u32 [%p5], {%m0, %m1, %m2, %i};\n"
    "ret;\n}\n";

static void test_carry_chains(void **state)
{
    (void)state;
    enum { N = 96 };
    static uint32_t x[N][4], y[N][4], s[N][4], d[N][4], w2[N][4], m[N][4];
    rng r = {77};
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++) {
            uint64_t v = rand_operand(&r);
            x[l][k] = (uint32_t)(l % 3 == 0 ? ~0ull : v);
            y[l][k] = (uint32_t)(l % 5 == 0 ? (k == 0 ? 1 : 0) : rand_operand(&r) >> 7);
        }
    /* edge rows: carries and borrows rippling through every limb */
    memcpy(x[1], (uint32_t[4]){0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff}, 16);
    memcpy(y[1], (uint32_t[4]){1, 0, 0, 0}, 16);
    memcpy(x[2], (uint32_t[4]){0, 0, 0, 0}, 16);
    memcpy(y[2], (uint32_t[4]){1, 0, 0, 0}, 16);
    test_buf b[6] = {{x, sizeof x}, {y, sizeof y}, {s, sizeof s},
                     {d, sizeof d}, {w2, sizeof w2}, {m, sizeof m}};
    char *err = NULL;
    ptxemu_status st = test_run_ptx(chain_ptx, "k", 1, N, b, 6, &err);
    if (st != PTXEMU_OK)
        print_error("%s\n", err);
    g_free(err);
    assert_int_equal(st, PTXEMU_OK);
    for (unsigned l = 0; l < N; l++) {
        u128 X = 0, Y = 0, S = 0, D = 0, W = 0;
        for (int k = 3; k >= 0; k--) {
            X = X << 32 | x[l][k];
            Y = Y << 32 | y[l][k];
            S = S << 32 | s[l][k];
            D = D << 32 | d[l][k];
            W = W << 32 | w2[l][k];
        }
        assert_true(S == X + Y);
        assert_true(D == X - Y);
        assert_true(W == X + X);
        u128 prod = (u128)x[l][0] * ((u128)y[l][1] << 32 | y[l][0]) +
                    ((u128)x[l][2] << 32 | x[l][1]);
        u128 got = (u128)m[l][2] << 64 | (u128)m[l][1] << 32 | m[l][0];
        assert_true(got == prod);
        assert_int_equal(m[l][3], l);
    }
    assert_int_equal(s[1][3], 0x80000000u);
    assert_int_equal(d[2][0], 0xffffffffu);
    assert_int_equal(d[2][3], 0xffffffffu);
}

/* ---------------------------------- guards, partial warps, divergence */

/* 40 threads (one full warp and 8 lanes of a second): lanes with odd a add,
 * the others keep the old value of d; a guarded add.cc leaves the carry of
 * the other lanes alone; a branch around mul.lo keeps d of the skipped
 * lanes.  Threads 40..63 do not exist and leave their slots untouched. */
static const char guard_ptx[] = HEADER
    ".visible .entry k(.param .u64 pa, .param .u64 pd, .param .u64 pc, .param .u64 pm)\n{\n"
    ".reg .b32 %i, %a, %d, %t, %c, %m; .reg .b64 %off, %p0, %p1, %p2, %p3;\n"
    ".reg .pred %odd, %z, %big;\n"
    "mov.u32 %i, %tid.x;\n"
    "mul.wide.u32 %off, %i, 8;\n"
    "ld.param.u64 %p0, [pa]; add.s64 %p0, %p0, %off;\n"
    "ld.param.u64 %p1, [pd]; add.s64 %p1, %p1, %off;\n"
    "ld.param.u64 %p2, [pc]; add.s64 %p2, %p2, %off;\n"
    "ld.param.u64 %p3, [pm]; add.s64 %p3, %p3, %off;\n"
    "ld.global.u32 %a, [%p0];\n"
    "mov.pred %z, 0;\n"
    "and.b32 %t, %a, 1;\n"
    "lop3.or.b32 %t|%odd, %t, 0, 0, 0xf0, %z;\n"
    "mov.u32 %d, 0x12345678;\n"
    "@%odd add.s32 %d, %a, 1000;\n"
    "st.global.u32 [%p1], %d;\n"
    /* carry: set everywhere, then cleared only where odd */
    "add.cc.u32 %t, 0xffffffff, 1;\n"
    "@%odd add.cc.u32 %t, 1, 1;\n"
    "addc.u32 %c, 0, 0;\n"
    "st.global.u32 [%p2], %c;\n"
    /* divergence: lanes with a >= 16 skip the multiply */
    "mov.u32 %m, 7;\n"
    "shr.u32 %t, %a, 4;\n"
    "lop3.or.b32 %t|%big, %t, 0, 0, 0xf0, %z;\n"
    "@%big bra SKIP;\n"
    "mul.lo.s32 %m, %a, 3;\n"
    "SKIP:\n"
    "add.u32 %m, %m, 1;\n"
    "st.global.u32 [%p3], %m;\n"
    "ret;\n}\n";

static void test_guard_partial_warp(void **state)
{
    (void)state;
    enum { N = 64, T = 40 };
    static uint64_t a[N], d[N], c[N], m[N];
    const uint64_t sentinel = 0xdeadbeefcafef00dull;
    for (unsigned l = 0; l < N; l++) {
        a[l] = (l * 7 + 3) % 29; /* mixes odd/even and small/big per lane */
        d[l] = c[l] = m[l] = sentinel;
    }
    test_buf b[4] = {{a, sizeof a}, {d, sizeof d}, {c, sizeof c}, {m, sizeof m}};
    char *err = NULL;
    ptxemu_status st = test_run_ptx(guard_ptx, "k", 1, T, b, 4, &err);
    if (st != PTXEMU_OK)
        print_error("%s\n", err);
    g_free(err);
    assert_int_equal(st, PTXEMU_OK);
    const uint64_t hi = sentinel & 0xffffffff00000000ull; /* st.u32 keeps the upper half */
    for (unsigned l = 0; l < N; l++) {
        if (l >= T) {
            assert_true(d[l] == sentinel && c[l] == sentinel && m[l] == sentinel);
            continue;
        }
        bool odd = a[l] & 1;
        assert_true(d[l] == (hi | (odd ? a[l] + 1000 : 0x12345678)));
        assert_true(c[l] == (hi | (odd ? 0 : 1)));
        assert_true(m[l] == (hi | (a[l] >= 16 ? 8 : a[l] * 3 + 1)));
    }
}

/* ---------------------------------------------------------- refusals */

static void expect_refusal(const char *instr, const char *decls, const char *fragment)
{
    char *ptx = g_strdup_printf(HEADER ".visible .entry k()\n{\n%s\n%s\nret;\n}\n", decls,
                                instr);
    char *err = NULL;
    ptxemu_status st = test_run_ptx(ptx, "k", 1, 32, NULL, 0, &err);
    if (st == PTXEMU_OK || !err || !strstr(err, fragment))
        print_error("'%s': status %d, message: %s\n", instr, st, err ? err : "(none)");
    assert_int_not_equal(st, PTXEMU_OK);
    assert_non_null(err);
    assert_non_null(strstr(err, fragment));
    g_free(err);
    g_free(ptx);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *regs = ".reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .b16 %h<4>;";
    expect_refusal("add.sat.u32 %r1, %r2, %r3;", regs, "not supported yet");
    expect_refusal("add.cc.u16 %h1, %h2, %h3;", regs, "not supported yet");
    expect_refusal("mul.wide.u64 %rd1, %rd2, %rd3;", regs, "not supported yet");
    expect_refusal("mad.lo.sat.s32 %r1, %r2, %r3, %r0;", regs, ".sat");
    expect_refusal("min.s32 %r1, %r2, %r3, %r0;", regs, "three-input");
    expect_refusal("vadd2.u32.u32.u32 %r1.h0, %r2.h0, %r3, %r0;", regs, "selectors");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub),
        cmocka_unit_test(test_addc_keeps_carry),
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_div_abs_min),
        cmocka_unit_test(test_bit_counting),
        cmocka_unit_test(test_bit_fields),
        cmocka_unit_test(test_dp_prmt),
        cmocka_unit_test(test_shift_logic),
        cmocka_unit_test(test_lop3),
        cmocka_unit_test(test_video),
        cmocka_unit_test(test_carry_chains),
        cmocka_unit_test(test_guard_partial_warp),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
