/* tests/runtime/test_sweep_mma.c — the mma.h sweep:
 * tests/corpus/cuda/sweep_mma.cu as nvcc 13 compiles it for sm_75, sm_80
 * and sm_90 (committed PTX from scripts/regen-ptx.sh), run through the C
 * API.  Every nvcuda::wmma kernel (one per shape x operand type x
 * accumulator types) runs over every A/B layout pair the header declares,
 * both accumulator memory layouts (load_matrix_sync / store_matrix_sync
 * with mem_row_major and mem_col_major), leading dimensions equal to the
 * tile and larger (16 and 48 bytes of padding per row or column),
 * fill_fragment of A, B and C, an element-wise operation over x[0 ..
 * num_elements) (num_storage_elements for packed sub-byte fragments), and
 * random plus edge-case inputs.  D is checked against a CPU GEMM:
 *
 *   - integers (s8, u8, s4, u4 x s32) exactly: C + sum a*b in 64 bits,
 *     clamped to s32 when mma_sync is given satf = true, wrapped otherwise;
 *     b1: C + popc(a XOR b) (bmmaBitOpXOR, the default) or popc(a AND b)
 *     (bmmaBitOpAND, sm_80+);
 *   - floating point twice.  (1) Against the manual: the PTX ISA leaves the
 *     order and the intermediate rounding of the sum open, so D must lie
 *     within the worst-case error of any order of K+1 steps of an f32
 *     (f64 for double) accumulation: |D - exact| <= (K+1)(u sum|t| + tiny),
 *     u = 2^-23 for f32 (allowing truncating hardware), 2^-52 for f64, the
 *     exact sum taken in long double from exact products; .f16 D must lie
 *     between the f16 round-to-nearest of both ends.  NaN and infinities
 *     are order-independent and checked exactly (a NaN input, inf*0 or
 *     inf-inf gives NaN; one-signed infinities give that infinity), and so
 *     is the sign of an all-zero sum (-0 only when every term is -0).
 *     (2) Bit for bit against ptxemu's documented order (docs/isa-coverage.md
 *     "Tensor cores": C (+) a0*b0 (+) ... in k order, each an f32 fused
 *     multiply-add, one final rounding to .f16), the CPU model of
 *     tests/support/mma_model.h.
 * Element-wise fragment operations are modelled per element: f16/bf16
 * products rounded to nearest-even (__hmul), f32/f64 products (__fmul_rn,
 * __dmul_rn), s8/u8 products wrapped to 8 bits, s32 products wrapped,
 * packed s4/u4/b1 storage XORed with a word whose nibbles (bits) are all
 * equal, which is the same operation on every element whatever the
 * (unspecified) fragment layout; the factors for D are powers of two, so
 * the tolerance interval maps onto itself.  precision::tf32 operands go
 * through __float_to_tf32 (cvt.rna.tf32.f32: round to nearest, ties away
 * from zero, to 10 fraction bits), as the Programming Guide asks; one run
 * per layout uses inputs already exact in tf32 without it. */
#include "api/ptxemu.h"
#include "tests/support/mma_model.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

static const char *const archs[] = {"75", "80", "90"};

enum {
    A_COL = 1, B_COL = 2, C_COL = 4, D_COL = 8, FILL_C = 16, FILL_AB = 32, SATF = 64,
    OP_AB = 128, OP_D = 256, BIT_AND = 512, TF32_CVT = 1024, EXPLICIT = 2048
};

typedef enum { K_PLAIN, K_SATF, K_BMMA } kkind;

typedef struct kdesc {
    const char *name;
    unsigned m, n, k;
    tm_type at, ct, dt;
    kkind kind;
    unsigned min_sm;
    bool sub;   /* sub-byte: A row_major, B col_major only */
    int ne[6];  /* num_elements of A, B, C, D; num_storage_elements of A, B */
} kdesc;

#define F16K(s, M, N, K)                                                                     \
    {"wmma_f16_" #s "_f16_f16", M, N, K, TM_F16, TM_F16, TM_F16, K_PLAIN, 75, false,         \
     {16, 16, 8, 8, 16, 16}},                                                                \
    {"wmma_f16_" #s "_f16_f32", M, N, K, TM_F16, TM_F16, TM_F32, K_PLAIN, 75, false,         \
     {16, 16, 8, 8, 16, 16}},                                                                \
    {"wmma_f16_" #s "_f32_f16", M, N, K, TM_F16, TM_F32, TM_F16, K_PLAIN, 75, false,         \
     {16, 16, 8, 8, 16, 16}},                                                                \
    {"wmma_f16_" #s "_f32_f32", M, N, K, TM_F16, TM_F32, TM_F32, K_PLAIN, 75, false,         \
     {16, 16, 8, 8, 16, 16}}

static const kdesc kernels[] = {
    F16K(m16n16k16, 16, 16, 16),
    F16K(m32n8k16, 32, 8, 16),
    F16K(m8n32k16, 8, 32, 16),
    {"wmma_s8_m16n16k16", 16, 16, 16, TM_S8, TM_S32, TM_S32, K_SATF, 75, false, {8, 8, 8, 8, 8, 8}},
    {"wmma_u8_m16n16k16", 16, 16, 16, TM_U8, TM_S32, TM_S32, K_SATF, 75, false, {8, 8, 8, 8, 8, 8}},
    {"wmma_s8_m32n8k16", 32, 8, 16, TM_S8, TM_S32, TM_S32, K_SATF, 75, false, {16, 4, 8, 8, 16, 4}},
    {"wmma_u8_m32n8k16", 32, 8, 16, TM_U8, TM_S32, TM_S32, K_SATF, 75, false, {16, 4, 8, 8, 16, 4}},
    {"wmma_s8_m8n32k16", 8, 32, 16, TM_S8, TM_S32, TM_S32, K_SATF, 75, false, {4, 16, 8, 8, 4, 16}},
    {"wmma_u8_m8n32k16", 8, 32, 16, TM_U8, TM_S32, TM_S32, K_SATF, 75, false, {4, 16, 8, 8, 4, 16}},
    {"wmma_s4_m8n8k32", 8, 8, 32, TM_S4, TM_S32, TM_S32, K_SATF, 75, true, {8, 8, 2, 2, 1, 1}},
    {"wmma_u4_m8n8k32", 8, 8, 32, TM_U4, TM_S32, TM_S32, K_SATF, 75, true, {8, 8, 2, 2, 1, 1}},
    {"wmma_b1_m8n8k128", 8, 8, 128, TM_B1, TM_S32, TM_S32, K_BMMA, 75, true, {32, 32, 2, 2, 1, 1}},
    {"wmma_bf16_m16n16k16", 16, 16, 16, TM_BF16, TM_F32, TM_F32, K_PLAIN, 80, false,
     {8, 8, 8, 8, 8, 8}},
    {"wmma_bf16_m32n8k16", 32, 8, 16, TM_BF16, TM_F32, TM_F32, K_PLAIN, 80, false,
     {16, 4, 8, 8, 16, 4}},
    {"wmma_bf16_m8n32k16", 8, 32, 16, TM_BF16, TM_F32, TM_F32, K_PLAIN, 80, false,
     {4, 16, 8, 8, 4, 16}},
    {"wmma_tf32_m16n16k8", 16, 16, 8, TM_TF32, TM_F32, TM_F32, K_PLAIN, 80, false,
     {4, 4, 8, 8, 4, 4}},
    {"wmma_f64_m8n8k4", 8, 8, 4, TM_F64, TM_F64, TM_F64, K_PLAIN, 80, false, {1, 1, 2, 2, 1, 1}},
    /* the same functions on __shared__ buffers */
    {"wmma_f16_m16n16k16_f32_f16_shared", 16, 16, 16, TM_F16, TM_F32, TM_F16, K_PLAIN, 75, false,
     {16, 16, 8, 8, 16, 16}},
    {"wmma_s8_m32n8k16_shared", 32, 8, 16, TM_S8, TM_S32, TM_S32, K_SATF, 75, false,
     {16, 4, 8, 8, 16, 4}},
    {"wmma_u4_m8n8k32_shared", 8, 8, 32, TM_U4, TM_S32, TM_S32, K_SATF, 75, true, {8, 8, 2, 2, 1, 1}},
    {"wmma_b1_m8n8k128_shared", 8, 8, 128, TM_B1, TM_S32, TM_S32, K_BMMA, 75, true,
     {32, 32, 2, 2, 1, 1}},
    {"wmma_bf16_m8n32k16_shared", 8, 32, 16, TM_BF16, TM_F32, TM_F32, K_PLAIN, 80, false,
     {4, 16, 8, 8, 4, 16}},
    {"wmma_tf32_m16n16k8_shared", 16, 16, 8, TM_TF32, TM_F32, TM_F32, K_PLAIN, 80, false,
     {4, 4, 8, 8, 4, 4}},
    {"wmma_f64_m8n8k4_shared", 8, 8, 4, TM_F64, TM_F64, TM_F64, K_PLAIN, 80, false,
     {1, 1, 2, 2, 1, 1}},
};

/* ------------------------------------------------------------ the API */

enum { MODE_PLAIN, MODE_ITS, MODE_TIMING };

/* mode: the plain functional run, independent thread scheduling (per-lane
 * PCs; the warp waits for all 32 lanes at each wmma), or the timing model */
static void load(test_corpus *f, const char *arch, int mode)
{
    ptxemu_options o = {0};
    o.its = mode == MODE_ITS ? 1 : -1;
    o.timing = mode == MODE_TIMING;
    test_corpus_load(f, "sweep_mma", arch, &o);
}

static void unload(test_corpus *f)
{
    ptxemu_module_unload(f->mod);
    test_corpus_close(f);
}

/* test_rng as tm_random's generator */
static uint32_t rng(void *st)
{
    return test_rng(st);
}

/* ------------------------------------------------- matrices in memory */

/* pad: extra 16-byte units per row (column); the filler is 0xa5 so that
 * a store into the padding shows */
static void mat_init(tm_mat *mm, unsigned rows, unsigned cols, tm_type t, bool col_major,
                     unsigned pad)
{
    unsigned lead = col_major ? rows : cols;
    mm->rows = rows, mm->cols = cols, mm->t = t, mm->col_major = col_major;
    mm->ld = lead + pad * (128 / tm_bits(t));
    mm->size = ((size_t)mm->ld * (col_major ? cols : rows) * tm_bits(t) + 7) / 8;
    mm->bytes = g_malloc(mm->size);
    memset(mm->bytes, 0xa5, mm->size);
}

/* ------------------------------------------------------------ values */

static tm_type tm_c(tm_type t)
{
    return t == TM_TF32 ? TM_F32 : t;
}

static long double fval(tm_type t, uint64_t v)
{
    if (t == TM_F64) {
        double d;
        memcpy(&d, &v, 8);
        return d;
    }
    return tm_to_f32(t, v);
}

static uint16_t f16_bits(double x)
{
    _Float16 h = (_Float16)x;
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
}

static uint16_t bf16_rn(float f)
{
    uint32_t u = tm_f2u(f);
    if (isnan(f))
        return (uint16_t)(u >> 16 | 0x40);
    u += 0x7fffu + (u >> 16 & 1u);
    return (uint16_t)(u >> 16);
}

static uint64_t d_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double d_val(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* cvt.rna.tf32.f32 (PTX ISA "cvt"): nearest, ties away from zero, to 10
 * fraction bits, the 13 low bits zero; NaN stays NaN, overflow gives inf. */
static uint32_t tf32_rna(uint32_t u)
{
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return u;
    if ((u & 0x7f800000u) == 0x7f800000u)
        return u;
    return (u + 0x1000u) & 0xffffe000u;
}

/* x * s for one element of type t (the fragment element-wise operation) */
static uint64_t elem_mul(tm_type t, uint64_t x, uint64_t s)
{
    switch (t) {
    case TM_F16: return f16_bits((double)(tm_to_f32(TM_F16, x) * tm_to_f32(TM_F16, s)));
    case TM_BF16: return bf16_rn(tm_to_f32(TM_BF16, x) * tm_to_f32(TM_BF16, s));
    case TM_TF32: case TM_F32: return tm_f2u(tm_u2f((uint32_t)x) * tm_u2f((uint32_t)s));
    case TM_F64: return d_bits(d_val(x) * d_val(s));
    case TM_S8: case TM_U8: return (uint8_t)(x * s);
    case TM_S32: return (uint32_t)(x * s);
    case TM_S4: case TM_U4: return (x ^ s) & 15u;
    default: return (x ^ s) & 1u;
    }
}

/* Special values of an operand type. */
enum { SP_PINF, SP_NINF, SP_NAN, SP_NZERO, SP_MINSUB, SP_MAXSUB, SP_BIG, SP_ONE, SP_HALFULP };

static uint64_t special(tm_type t, int which)
{
    static const uint64_t f16[] = {0x7c00, 0xfc00, 0x7e00, 0x8000, 0x0001, 0x03ff, 0x7bff,
                                   0x3c00, 0x1000 /* 2^-11 */};
    static const uint64_t bf16[] = {0x7f80, 0xff80, 0x7fc0, 0x8000, 0x0001, 0x007f,
                                    0x7180 /* 2^100 */, 0x3f80, 0x3380 /* 2^-24 */};
    static const uint64_t f32[] = {0x7f800000, 0xff800000, 0x7fc00000, 0x80000000, 0x00002000,
                                   0x007fe000, 0x71800000, 0x3f800000, 0x33800000 /* 2^-24 */};
    static const uint64_t f64[] = {0x7ff0000000000000ull, 0xfff0000000000000ull,
                                   0x7ff8000000000000ull, 0x8000000000000000ull, 1ull,
                                   0x000fffffffffffffull, 0x7e70000000000000ull /* 2^1000 */,
                                   0x3ff0000000000000ull, 0x3ca0000000000000ull /* 2^-53 */};
    switch (t) {
    case TM_F16: return f16[which];
    case TM_BF16: return bf16[which];
    case TM_F64: return f64[which];
    default: return f32[which];
    }
}

/* ------------------------------------------------------------ one run */

typedef struct run {
    int flags;
    unsigned pad[4];
    int inputs; /* 0 random, 1 edge cases */
    uint64_t fill_ab, fill_c, op_ab, op_d;
} run;

typedef struct mats {
    uint64_t *a, *b, *c; /* row-major raw elements, as the kernel sees them in memory */
} mats;

static void gen_inputs(const kdesc *kd, const run *r, mats *x, uint32_t *seed)
{
    unsigned m = kd->m, n = kd->n, k = kd->k;
    tm_type ct = kd->ct;
    for (unsigned i = 0; i < m * k; i++)
        x->a[i] = tm_random(kd->at, rng, seed);
    for (unsigned i = 0; i < k * n; i++)
        x->b[i] = tm_random(kd->at, rng, seed);
    for (unsigned i = 0; i < m * n; i++)
        x->c[i] = tm_random(ct, rng, seed);
    if (kd->at == TM_TF32 && !(r->flags & TF32_CVT)) { /* exact tf32 values */
        for (unsigned i = 0; i < m * k; i++)
            x->a[i] &= 0xffffe000u;
        for (unsigned i = 0; i < k * n; i++)
            x->b[i] &= 0xffffe000u;
    }
    if (!r->inputs)
        return;
    if (tm_is_float(kd->at)) {
        tm_type t = kd->at;
        /* row 0: +inf at k=0 (B(0,0) = 0 gives inf*0 = NaN in D(0,0));
         * row 1: NaN; row 2: +inf and -inf; row 3: -0 everywhere, B column 0
         * positive, C(3,0) = -0: D(3,0) = -0, C(3,1) = +0: D(3,1) = +0; row 4: subnormals; row 5: the
         * largest value (f16) or a big power of two; row 6: C infinities and
         * a NaN; row 7: 1 + half an ulp of the D type (a tie). */
        x->a[0 * k + 0] = special(t, SP_PINF);
        x->b[0 * n + 0] = 0;
        for (unsigned kk = 1; kk < k; kk++)
            x->b[kk * n + 0] &= t == TM_F64 ? ~(1ull << 63) : t == TM_F16 || t == TM_BF16
                                                                  ? 0x7fffu : 0x7fffffffu;
        x->a[1 * k + k / 2] = special(t, SP_NAN);
        x->a[2 * k + 0] = special(t, SP_PINF);
        x->a[2 * k + 1] = special(t, SP_NINF);
        for (unsigned kk = 0; kk < k; kk++) {
            x->a[3 * k + kk] = special(t, SP_NZERO);
            x->a[4 * k + kk] = special(t, kk % 2 ? SP_MINSUB : SP_MAXSUB) |
                               (kk % 3 ? 0 : special(t, SP_NZERO));
            x->a[5 * k + kk] = special(t, SP_BIG) | (kk % 2 ? special(t, SP_NZERO) : 0);
            x->a[7 * k + kk] = 0;
        }
        x->a[7 * k + 0] = special(t, SP_ONE);
        /* the tie of the D type: f16 D 2^-11, f32 D 2^-24 (an f16 subnormal) */
        x->a[7 * k + 1] = t == TM_F16 && kd->dt == TM_F32 ? 0x0001 : special(t, SP_HALFULP);
        x->b[0 * n + n - 1] = special(t, SP_ONE);
        x->b[1 * n + n - 1] = special(t, SP_ONE);
        /* B subnormals in column 1 (products of two subnormals) */
        for (unsigned kk = 0; kk < k; kk++)
            x->b[kk * n + 1] = special(t, kk % 2 ? SP_MAXSUB : SP_MINSUB);
        tm_type c = tm_c(ct);
        x->c[3 * n + 0] = special(c, SP_NZERO);
        x->c[3 * n + 1] = 0; /* -0 products and a +0: +0 */
        x->c[6 * n + 0] = special(c, SP_PINF);
        x->c[6 * n + 1] = special(c, SP_NAN);
        x->c[6 * n + 2] = special(c, SP_NINF);
        x->c[7 * n + n - 1] = 0;
        if (t == TM_TF32) /* halfway and just-below-halfway mantissas for the rounding */
            for (unsigned kk = 0; kk < k; kk++)
                x->b[kk * n + 2] = 0x3f801000u + (kk % 2 ? 0x2000u : 0) - (kk % 4 == 3);
    } else if (kd->at == TM_B1) {
        for (unsigned kk = 0; kk < k; kk++) {
            x->a[0 * k + kk] = 1, x->a[1 * k + kk] = 0;
            x->b[kk * n + 0] = 1, x->b[kk * n + 1] = 0;
        }
        x->c[0] = 0x7fffffffu - 20, x->c[1] = 0x80000000u;
    } else {
        /* the extreme values, and C next to the s32 limits so that the sum
         * leaves the range: satf clamps, otherwise it wraps */
        uint64_t hi = kd->at == TM_S8 ? 127 : kd->at == TM_U8 ? 255 : kd->at == TM_S4 ? 7 : 15;
        uint64_t lo = kd->at == TM_S8 ? 0x80 : kd->at == TM_S4 ? 8 : 0;
        for (unsigned kk = 0; kk < k; kk++) {
            x->a[0 * k + kk] = hi, x->a[1 * k + kk] = lo ? lo : hi;
            x->b[kk * n + 0] = hi, x->b[kk * n + 1] = lo;
        }
        for (unsigned j = 0; j < n; j++) {
            x->c[0 * n + j] = 0x7fffffffu - 5 * j;
            x->c[1 * n + j] = 0x80000000u + 5 * j;
        }
    }
}

typedef struct fexp {
    bool nan;
    long double lo, hi;
    int zsign; /* -1: must be -0; 1: must be +0; 0: no constraint */
} fexp;

/* The order-independent expectation for D(i,j) (see the file comment). */
static fexp f_expect(const kdesc *kd, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                     unsigned i, unsigned j)
{
    unsigned n = kd->n, k = kd->k;
    tm_type at = kd->at;
    long double s = 0, t = 0;
    bool nan = false, pinf = false, ninf = false, negz = true;
    for (unsigned kk = 0; kk <= k; kk++) {
        long double x = kk == k ? fval(kd->ct, c[i * n + j])
                                : fval(at, a[i * k + kk]) * fval(at, b[kk * n + j]);
        if (isnan(x))
            nan = true;
        else if (isinf(x))
            *(x > 0 ? &pinf : &ninf) = true;
        else {
            s += x;
            t += fabsl(x);
        }
        if (x != 0 || !signbit(x))
            negz = false;
    }
    fexp e = {nan || (pinf && ninf), 0, 0, 0};
    if (pinf || ninf) {
        e.lo = e.hi = pinf ? INFINITY : -INFINITY;
        return e;
    }
    bool f64 = at == TM_F64;
    long double u = f64 ? 0x1p-52L : 0x1p-23L, tiny = f64 ? 0x1p-1074L : 0x1p-149L;
    long double tol = (k + 1) * (u * t + tiny) + (k + 1) * 0x1p-62L * t;

    e.lo = s - tol;
    e.hi = s + tol;
    if (t == 0)
        e.zsign = negz ? -1 : 1;
    return e;
}

/* D's element-wise factor applied to the interval: d is a power of two, so
 * RN(x * d) is monotone and exact away from the range limits; the .f16
 * bounds are first rounded to f16 (RN is monotone too). */
static void check_float(const kdesc *kd, const fexp *e, uint64_t got, bool op, uint64_t opd,
                        const char *what)
{
    tm_type dt = kd->dt;
    long double g = fval(dt, got);
    if (e->nan) {
        if (!isnan(g))
            fail_msg("%s: %Lg, want NaN", what, g);
        return;
    }
    long double lo = e->lo, hi = e->hi, f = op ? fval(dt, opd) : 1;
    if (dt == TM_F16) {
        lo = tm_to_f32(TM_F16, f16_bits((double)lo));
        hi = tm_to_f32(TM_F16, f16_bits((double)hi));
        if (op) {
            lo = tm_to_f32(TM_F16, f16_bits((double)(lo * f)));
            hi = tm_to_f32(TM_F16, f16_bits((double)(hi * f)));
        }
    } else {
        lo *= f;
        hi *= f;
    }
    if (lo > hi) {
        long double x = lo;
        lo = hi, hi = x;
    }
    if (isnan(g) || g < lo || g > hi)
        fail_msg("%s: %.21Lg (0x%llx) outside [%.21Lg, %.21Lg]", what, g,
                 (unsigned long long)got, lo, hi);
    if (e->zsign && (g != 0 || (signbit(g) != 0) != ((e->zsign < 0) != (f < 0))))
        fail_msg("%s: %Lg, want %s0", what, g, (e->zsign < 0) != (f < 0) ? "-" : "+");
}

static void do_run(test_corpus *fx, const kdesc *kd, const run *r, uint32_t *seed)
{
    unsigned m = kd->m, n = kd->n, k = kd->k;
    tm_type ct = kd->ct, dt = kd->dt;
    int fl = r->flags;
    bool acol = kd->sub ? false : (fl & A_COL), bcol = kd->sub ? true : (fl & B_COL);
    mats x = {g_new0(uint64_t, m * k), g_new0(uint64_t, k * n), g_new0(uint64_t, m * n)};
    gen_inputs(kd, r, &x, seed);
    tm_mat mm[4];
    mat_init(&mm[0], m, k, kd->at, acol, r->pad[0]);
    mat_init(&mm[1], k, n, kd->at, bcol, r->pad[1]);
    mat_init(&mm[2], m, n, ct, fl & C_COL, r->pad[2]);
    mat_init(&mm[3], m, n, dt, fl & D_COL, r->pad[3]);
    for (unsigned i = 0; i < m; i++)
        for (unsigned kk = 0; kk < k; kk++)
            tm_mat_put(&mm[0], i, kk, x.a[i * k + kk]);
    for (unsigned kk = 0; kk < k; kk++)
        for (unsigned j = 0; j < n; j++)
            tm_mat_put(&mm[1], kk, j, x.b[kk * n + j]);
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++)
            tm_mat_put(&mm[2], i, j, x.c[i * n + j]);
    int32_t cfg[17] = {(int32_t)mm[0].ld, (int32_t)mm[1].ld, (int32_t)mm[2].ld,
                       (int32_t)mm[3].ld, fl,
                       (int32_t)(uint32_t)r->fill_ab, (int32_t)(uint32_t)(r->fill_ab >> 32),
                       (int32_t)(uint32_t)r->fill_c, (int32_t)(uint32_t)(r->fill_c >> 32),
                       (int32_t)(uint32_t)r->op_ab, (int32_t)(uint32_t)(r->op_ab >> 32),
                       (int32_t)(uint32_t)r->op_d, (int32_t)(uint32_t)(r->op_d >> 32),
                       (int32_t)mm[0].size, (int32_t)mm[1].size, (int32_t)mm[2].size,
                       (int32_t)mm[3].size};
    for (int o = 0; o < 4; o++) /* what the *_shared kernels copy in 16-byte units */
        assert_true(mm[o].size % 16 == 0 && mm[o].size <= 4096);
    int32_t info[8];
    memset(info, 0xff, sizeof info);
    ptxemu_dptr d[6];
    for (int o = 0; o < 4; o++)
        d[o] = test_corpus_upload(fx, mm[o].bytes, mm[o].size);
    d[4] = test_corpus_upload(fx, cfg, sizeof cfg);
    d[5] = test_corpus_upload(fx, info, sizeof info);
    void *args[6] = {&d[0], &d[1], &d[2], &d[3], &d[4], &d[5]};
    test_corpus_launch(fx, kd->name, 1, 32, args);
    uint8_t *before = g_memdup2(mm[3].bytes, mm[3].size);
    assert_int_equal(ptxemu_memcpy_dtoh(fx->ctx, mm[3].bytes, d[3], mm[3].size), PTXEMU_OK);
    assert_int_equal(ptxemu_memcpy_dtoh(fx->ctx, info, d[5], sizeof info), PTXEMU_OK);
    for (int o = 0; o < 6; o++)
        assert_int_equal(ptxemu_free(fx->ctx, d[o]), PTXEMU_OK);
    for (int i = 0; i < 6; i++)
        if (info[i] != kd->ne[i])
            fail_msg("sm_%u %s: info[%d] (num_elements) %d, header says %d", fx->sm, kd->name,
                     i, info[i], kd->ne[i]);

    /* the model's inputs: fills, element-wise operation, tf32 rounding */
    if (fl & FILL_AB) { /* fill_fragment takes the low bits of its argument */
        uint64_t v = r->fill_ab & (kd->at == TM_F64 ? ~0ull : (2ull << (tm_bits(kd->at) - 1)) - 1);
        for (unsigned i = 0; i < m * k; i++)
            x.a[i] = v;
        for (unsigned i = 0; i < k * n; i++)
            x.b[i] = v;
    }
    if (fl & FILL_C)
        for (unsigned i = 0; i < m * n; i++)
            x.c[i] = ct == TM_F16 ? (r->fill_c & 0xffffu) : ct == TM_F64 ? r->fill_c
                                                                          : (uint32_t)r->fill_c;
    for (unsigned i = 0; i < m * k; i++) {
        if (fl & OP_AB)
            x.a[i] = elem_mul(kd->at, x.a[i], r->op_ab);
        if (fl & TF32_CVT)
            x.a[i] = tf32_rna((uint32_t)x.a[i]);
    }
    for (unsigned i = 0; i < k * n; i++) {
        if (fl & OP_AB)
            x.b[i] = elem_mul(kd->at, x.b[i], r->op_ab);
        if (fl & TF32_CVT)
            x.b[i] = tf32_rna((uint32_t)x.b[i]);
    }

    char what[256];
    uint64_t *exact = g_new0(uint64_t, m * n);
    bool flt = tm_is_float(kd->at);
    if (flt) {
        tm_problem p = {m, n, k, kd->at, kd->at, ct, dt, false, 0};
        tm_model(&p, x.a, x.b, x.c, exact);
    }
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            uint64_t got = tm_mat_get(&mm[3], i, j), want;
            snprintf(what, sizeof what, "sm_%u %s flags 0x%x pads %u/%u/%u/%u inputs %d D(%u,%u)",
                     fx->sm, kd->name, fl, r->pad[0], r->pad[1], r->pad[2], r->pad[3], r->inputs,
                     i, j);
            if (flt) {
                fexp e = f_expect(kd, x.a, x.b, x.c, i, j);
                check_float(kd, &e, got, fl & OP_D, r->op_d, what);
                want = exact[i * n + j];
                if (fl & OP_D)
                    want = elem_mul(dt, want, r->op_d);
                if (got != want && !(isnan(fval(dt, got)) && isnan(fval(dt, want))))
                    fail_msg("%s: 0x%llx, ptxemu's documented order gives 0x%llx", what,
                             (unsigned long long)got, (unsigned long long)want);
                continue;
            }
            int64_t acc = (int32_t)(uint32_t)x.c[i * n + j];
            for (unsigned kk = 0; kk < k; kk++) {
                uint64_t va = x.a[i * k + kk], vb = x.b[kk * n + j];
                if (kd->kind == K_BMMA)
                    acc += (fl & BIT_AND) ? (int64_t)(va & vb & 1u) : (int64_t)((va ^ vb) & 1u);
                else
                    acc += tm_to_int(kd->at, va) * tm_to_int(kd->at, vb);
            }
            if ((fl & SATF) && (fl & EXPLICIT))
                acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            want = (uint32_t)acc;
            if (fl & OP_D)
                want = elem_mul(TM_S32, want, r->op_d);
            if (got != want)
                fail_msg("%s: %d, want %d", what, (int32_t)got, (int32_t)want);
        }
    /* nothing outside the tile written */
    for (size_t i = 0; i < mm[3].size; i++) {
        unsigned e = (unsigned)(i * 8 / tm_bits(dt)), lead = mm[3].col_major ? m : n;
        if (e % mm[3].ld >= lead && mm[3].bytes[i] != before[i])
            fail_msg("sm_%u %s: byte %zu in D's padding written", fx->sm, kd->name, i);
    }
    g_free(before);
    g_free(exact);
    for (int o = 0; o < 4; o++)
        g_free(mm[o].bytes);
    g_free(x.a);
    g_free(x.b);
    g_free(x.c);
}

/* Fill and element-wise values per operand type (raw bits). */
static void values(const kdesc *kd, run *r)
{
    switch (kd->at) {
    case TM_F16: r->fill_ab = 0x3e00, r->op_ab = 0xc000; break;          /* 1.5, -2 */
    case TM_BF16: r->fill_ab = 0x3fc0, r->op_ab = 0xc000; break;         /* 1.5, -2 */
    case TM_TF32: r->fill_ab = 0x3fc01234, r->op_ab = 0xc0000000; break; /* ~1.5, -2 */
    case TM_F64: r->fill_ab = d_bits(1.5), r->op_ab = d_bits(-2.0); break;
    case TM_S8: r->fill_ab = (uint32_t)-3, r->op_ab = (uint32_t)-1; break; /* -(-128) wraps */
    case TM_U8: r->fill_ab = 200, r->op_ab = 3; break;
    case TM_S4: r->fill_ab = 0x7ffffff9, r->op_ab = 0x99999999; break; /* -7; x ^ 9 */
    case TM_U4: r->fill_ab = 0x1d, r->op_ab = 0x99999999; break;       /* 13 */
    default: r->fill_ab = 3, r->op_ab = 0xffffffffu; break;            /* ones; NOT */
    }
    switch (kd->ct) {
    case TM_F16: r->fill_c = 0xbc00; break; /* -1 */
    case TM_F32: r->fill_c = tm_f2u(-0.75f); break;
    case TM_F64: r->fill_c = d_bits(-0.75); break;
    default: r->fill_c = (uint32_t)-1000; break;
    }
    switch (kd->dt) {
    case TM_F16: r->op_d = 0x3800; break; /* 0.5 */
    case TM_F32: r->op_d = tm_f2u(-0.5f); break;
    case TM_F64: r->op_d = d_bits(-0.5); break;
    default: r->op_d = (uint32_t)-3; break;
    }
}

static unsigned sweep_kernel(test_corpus *fx, const kdesc *kd, uint32_t *seed)
{
    unsigned runs = 0;
    int variants[3] = {0, 0, 0};
    if (kd->kind == K_SATF)
        variants[1] = EXPLICIT, variants[2] = EXPLICIT | SATF;
    else if (kd->kind == K_BMMA)
        variants[1] = EXPLICIT, variants[2] = fx->sm >= 80 ? BIT_AND : EXPLICIT;
    int cvt = kd->at == TM_TF32 ? TF32_CVT : 0;
    for (int lay = 0; lay < 4; lay++) {
        for (int in = 0; in < 2; in++) {
            run r = {0};
            values(kd, &r);
            int cd = in ? 3 - lay : lay;
            r.flags = (kd->sub ? 0 : lay) | (cd & 1 ? C_COL : 0) | (cd & 2 ? D_COL : 0) |
                      variants[(lay + in) % 3] | cvt;
            for (int o = 0; o < 4; o++)
                r.pad[o] = (unsigned)((lay + in + o) % 3 == 2 ? 3 : (lay + in + o) % 3);
            r.inputs = in;
            do_run(fx, kd, &r, seed);
            runs++;
        }
        /* fills, element-wise operations, and tf32 without the conversion */
        run r = {0};
        values(kd, &r);
        r.flags = (kd->sub ? 0 : lay) | (lay & 1 ? D_COL : C_COL) | variants[lay % 3];
        switch (lay) {
        case 0: r.flags |= FILL_AB | FILL_C | OP_D | cvt; break;
        case 1: r.flags |= OP_AB | OP_D | cvt; break;
        case 2: r.flags |= FILL_C | OP_AB | cvt; break;
        default: r.flags |= kd->kind == K_PLAIN ? 0 : FILL_AB; break; /* tf32: no cvt */
        }
        r.pad[lay] = 1;
        do_run(fx, kd, &r, seed);
        runs++;
        if (kd->kind == K_SATF) { /* satf on the edge inputs for every layout */
            r.flags = (kd->sub ? 0 : lay) | (lay & 2 ? C_COL : D_COL) | EXPLICIT | SATF;
            r.inputs = 1;
            do_run(fx, kd, &r, seed);
            runs++;
        }
    }
    return runs;
}

static void sweep(int mode)
{
    uint32_t seed = 17;
    for (size_t a = 0; a < G_N_ELEMENTS(archs); a++) {
        test_corpus fx;
        load(&fx, archs[a], mode);
        unsigned runs = 0, kernels_run = 0;
        for (size_t i = 0; i < G_N_ELEMENTS(kernels); i++) {
            if (fx.sm < kernels[i].min_sm)
                continue;
            runs += sweep_kernel(&fx, &kernels[i], &seed);
            kernels_run++;
        }
        assert_int_equal(kernels_run, fx.sm >= 80 ? 33 : 25);
        assert_int_equal(runs, fx.sm >= 80 ? 436 : 340);
        unload(&fx);
    }
}

static void test_wmma_kernels(void **state)
{
    (void)state;
    sweep(MODE_PLAIN);
}

static void test_wmma_kernels_its(void **state)
{
    (void)state;
    sweep(MODE_ITS);
}

static void test_wmma_kernels_timing(void **state)
{
    (void)state;
    sweep(MODE_TIMING);
}

/* __float_to_tf32 alone (sm_80+): edge cases and random floats against
 * cvt.rna.tf32.f32 (nearest, ties away from zero). */
static void test_float_to_tf32(void **state)
{
    (void)state;
    enum { NV = 1024 };
    static const uint32_t edge[] = {
        0x00000000, 0x80000000, 0x00000001, 0x00000fff, 0x00001000, 0x00001fff, 0x00002000,
        0x007fffff, 0x807fffff, 0x00800000, 0x3f800000, 0x3f800fff, 0x3f801000, 0x3f801001,
        0x3f803000, 0x3f802fff, 0xbf801000, 0xbf800fff, 0x7f7fffff, 0xff7fffff, 0x7f7fefff,
        0x7f7ff000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3fffffff};
    for (size_t a = 1; a < G_N_ELEMENTS(archs); a++) {
        test_corpus fx;
        load(&fx, archs[a], MODE_PLAIN);
        uint32_t in[NV], out[NV], seed = 99;
        for (unsigned i = 0; i < NV; i++)
            in[i] = i < G_N_ELEMENTS(edge) ? edge[i] : rng(&seed);
        int nv = NV;
        ptxemu_dptr din = test_corpus_upload(&fx, in, sizeof in),
                    dout = test_corpus_upload(&fx, in, sizeof in);
        void *args[3] = {&din, &dout, &nv};
        test_corpus_launch(&fx, "float_to_tf32", NV / 128, 128, args);
        assert_int_equal(ptxemu_memcpy_dtoh(fx.ctx, out, dout, sizeof out), PTXEMU_OK);
        for (unsigned i = 0; i < NV; i++) {
            uint32_t want = tf32_rna(in[i]);
            bool nan = (in[i] & 0x7fffffffu) > 0x7f800000u;
            if (nan ? (out[i] & 0x7fffffffu) <= 0x7f800000u : out[i] != want)
                fail_msg("sm_%u __float_to_tf32(0x%08x) = 0x%08x, want 0x%08x", fx.sm, in[i],
                         out[i], want);
        }
        unload(&fx);
    }
}

/* Found by the sweep's *_shared kernels under the timing model: the
 * loader laid every static .shared variable of a module end to end, so
 * each kernel's shared size was the module's total (seven 16 KB kernels
 * did not fit the modelled 48 KB).  Now each kernel gets the variables it
 * and its callees name: six kernels of 40 KB each load and run, plain and
 * timed; %total_smem_size is the kernel's own; a variable two kernels
 * share through a function overlaps neither kernel's array. */
static char *six_kernels(void)
{
    GString *s = g_string_new(".version 8.0\n.target sm_80\n.address_size 64\n"
                              ".shared .align 16 .b8 common[64];\n");
    for (int i = 0; i < 6; i++)
        g_string_append_printf(s, ".shared .align 16 .b8 big%d[40960];\n", i);
    g_string_append(s, ".visible .func touch(.param .b32 pa)\n{\n  .reg .b32 %a, %p;\n"
                       "  ld.param.b32 %a, [pa];\n  and.b32 %a, %a, 15;\n  shl.b32 %a, %a, 2;\n"
                       "  mov.u32 %p, common;\n  add.u32 %p, %p, %a;\n"
                       "  st.shared.u32 [%p], 0xdeadbeef;\n  ret;\n}\n");
    for (int i = 0; i < 6; i++) {
        g_string_append_printf(s,
            ".visible .entry k%d(.param .u64 out)\n{\n"
            "  .reg .b32 %%t, %%v, %%p, %%w, %%z;\n  .reg .b64 %%rd<4>;\n"
            "  mov.u32 %%t, %%tid.x;\n  shl.b32 %%p, %%t, 2;\n  mov.u32 %%w, big%d;\n"
            "  add.u32 %%p, %%p, %%w;\n  add.u32 %%v, %%t, %d;\n  st.shared.u32 [%%p], %%v;\n"
            "  st.shared.u32 [big%d+40956], %%v;\n", i, i, 100 * i, i);
        if (i < 2)
            g_string_append(s, "  { .param .b32 a0;\n  st.param.b32 [a0], %t;\n"
                               "  call touch, (a0);\n  }\n");
        g_string_append_printf(s,
            "  bar.sync 0;\n  ld.shared.u32 %%v, [%%p];\n  ld.shared.u32 %%w, [big%d+40956];\n"
            "  mov.u32 %%z, %%total_smem_size;\n"
            "  ld.param.u64 %%rd1, [out];\n  mul.wide.u32 %%rd2, %%t, 12;\n"
            "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%v;\n"
            "  st.global.u32 [%%rd3+4], %%w;\n  st.global.u32 [%%rd3+8], %%z;\n  ret;\n}\n", i);
    }
    return g_string_free(s, FALSE);
}

static void test_shared_per_kernel(void **state)
{
    (void)state;
    char *text = six_kernels();
    for (int mode = MODE_PLAIN; mode <= MODE_TIMING; mode++) {
        ptxemu_options o = {0};
        o.its = mode == MODE_ITS ? 1 : -1;
        o.timing = mode == MODE_TIMING;
        ptxemu_ctx *ctx;
        ptxemu_module *mod;
        assert_int_equal(ptxemu_ctx_create(&ctx, &o), PTXEMU_OK);
        if (ptxemu_module_load_string(ctx, text, "six.ptx", &mod) != PTXEMU_OK)
            fail_msg("mode %d: %s", mode, ptxemu_last_error(ctx));
        for (int i = 0; i < 6; i++) {
            uint32_t out[32 * 3];
            ptxemu_dptr d;
            assert_int_equal(ptxemu_malloc(ctx, &d, sizeof out), PTXEMU_OK);
            void *args[1] = {&d};
            char name[16];
            snprintf(name, sizeof name, "k%d", i);
            ptxemu_dim3 g = {1, 1, 1}, b = {32, 1, 1};
            if (ptxemu_launch(mod, name, g, b, 0, args) != PTXEMU_OK)
                fail_msg("mode %d %s: %s", mode, name, ptxemu_last_error(ctx));
            assert_int_equal(ptxemu_memcpy_dtoh(ctx, out, d, sizeof out), PTXEMU_OK);
            for (unsigned t = 0; t < 32; t++) {
                assert_int_equal(out[3 * t], t + 100u * (unsigned)i);
                assert_int_equal(out[3 * t + 1], 31u + 100u * (unsigned)i);
                assert_int_equal(out[3 * t + 2], 40960u + (i < 2 ? 64u : 0u));
            }
        }
        ptxemu_module_unload(mod);
        ptxemu_ctx_destroy(ctx);
    }
    g_free(text);
}

/* .shared addresses are 32 bits: nvcc computes x + 4*(63 - t) into a
 * 32-bit register (negative for t = 64) and loads [%r+128]; with x at
 * offset 0 the sum must wrap to 124, not reach 2^32 + 124
 * (tests/corpus/cuda/sweep_intrinsics.cu barrier_ops faulted once the
 * per-kernel layout put its array at offset 0). */
static void test_shared_addr_wraps(void **state)
{
    (void)state;
    static const char text[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".shared .align 4 .b8 w[16];\n"
        ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<5>;\n  .reg .b64 %rd1;\n"
        "  mov.u32 %r1, w;\n  add.s32 %r2, %r1, -4;\n  mov.u32 %r3, 7;\n"
        "  st.shared.u32 [%r2+8], %r3;\n  ld.shared.u32 %r4, [w+4];\n"
        "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r4;\n  ret;\n}\n";
    uint32_t out = 0;
    test_buf tb = {&out, sizeof out};
    char *err = NULL;
    if (test_run_ptx(text, "k", 1, 1, &tb, 1, &err) != PTXEMU_OK)
        fail_msg("%s", err);
    assert_int_equal(out, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmma_kernels),
        cmocka_unit_test(test_wmma_kernels_its),
        cmocka_unit_test(test_wmma_kernels_timing),
        cmocka_unit_test(test_float_to_tf32),
        cmocka_unit_test(test_shared_per_kernel),
        cmocka_unit_test(test_shared_addr_wraps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
