/* tests/support/mma_model.h — a CPU model of warp-level MMA arithmetic
 * for the tensor-core tests, written from the PTX ISA and ptxemu's
 * documented rounding (docs/isa-coverage.md "Tensor cores"), independent
 * of isa/mma.c: element decoding by hand, the compiler's _Float16 for the
 * f32 -> f16 rounding, the C library's fmaf/fma for each step.
 *
 *   D[i][j] = C[i][j] (+) A[i][0]*B[0][j] (+) ... (+) A[i][k-1]*B[k-1][j]
 * each (+) one fused multiply-add rounded to f32 (f64 for .f64 inputs),
 * then one round-to-nearest to f16 when D is .f16; integers exact, then
 * clamped to s32 with .satfinite or wrapped without; .b1 adds popc of
 * a XOR b (or a AND b) bit by bit.
 *
 * tm_mat: an operand or result matrix as a program stores it in memory. */
#ifndef PTXEMU_TEST_MMA_MODEL_H
#define PTXEMU_TEST_MMA_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef enum { TM_F16, TM_BF16, TM_TF32, TM_F32, TM_F64, TM_S8, TM_U8, TM_S4, TM_U4,
               TM_B1, TM_S32, TM_E4M3, TM_E5M2 } tm_type;

static inline const char *tm_name(tm_type t)
{
    static const char *const n[] = {"f16", "bf16", "tf32", "f32", "f64", "s8", "u8",
                                    "s4", "u4", "b1", "s32", "e4m3", "e5m2"};
    return n[t];
}

static inline unsigned tm_bits(tm_type t)
{
    switch (t) {
    case TM_F16: case TM_BF16: return 16;
    case TM_F64: return 64;
    case TM_S8: case TM_U8: case TM_E4M3: case TM_E5M2: return 8;
    case TM_S4: case TM_U4: return 4;
    case TM_B1: return 1;
    default: return 32;
    }
}

static inline bool tm_is_float(tm_type t)
{
    return t <= TM_F64 || t == TM_E4M3 || t == TM_E5M2;
}

static inline float tm_u2f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static inline uint32_t tm_f2u(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* minifloat with e exponent bits, m mantissa bits, bias, and whether the
 * all-ones exponent is inf/NaN (IEEE) or only S.1111.111 is NaN (e4m3) */
static inline float tm_minifloat(uint32_t v, int e, int m, int bias, bool ieee)
{
    uint32_t s = v >> (e + m) & 1u, ex = v >> m & ((1u << e) - 1u), mt = v & ((1u << m) - 1u);
    float r;
    if (ieee && ex == (1u << e) - 1u)
        r = mt ? NAN : INFINITY;
    else if (!ieee && ex == (1u << e) - 1u && mt == (1u << m) - 1u)
        r = NAN;
    else if (ex == 0)
        r = ldexpf((float)mt, 1 - bias - m);
    else
        r = ldexpf((float)(mt + (1u << m)), (int)ex - bias - m);
    return s ? -r : r;
}

static inline float tm_to_f32(tm_type t, uint64_t v)
{
    switch (t) {
    case TM_F16: {
        uint16_t h = (uint16_t)v;
        _Float16 x;
        memcpy(&x, &h, 2);
        return (float)x;
    }
    case TM_BF16: return tm_u2f((uint32_t)v << 16);
    case TM_TF32: return tm_u2f((uint32_t)v & 0xffffe000u); /* low 13 bits ignored */
    case TM_E4M3: return tm_minifloat((uint32_t)v, 4, 3, 7, false);
    case TM_E5M2: return tm_minifloat((uint32_t)v, 5, 2, 15, true);
    default: return tm_u2f((uint32_t)v);
    }
}

static inline uint64_t tm_from_f32(tm_type t, float f)
{
    if (t == TM_F16) {
        if (isnan(f))
            return 0x7fffu;
        _Float16 x = (_Float16)f;
        uint16_t h;
        memcpy(&h, &x, 2);
        return h;
    }
    return isnan(f) ? 0x7fffffffu : tm_f2u(f);
}

static inline int64_t tm_to_int(tm_type t, uint64_t v)
{
    switch (t) {
    case TM_S8: return (int8_t)(uint8_t)v;
    case TM_U8: return (uint8_t)v;
    case TM_S4: return (v & 8u) ? (int64_t)(v & 15u) - 16 : (int64_t)(v & 15u);
    case TM_U4: return (int64_t)(v & 15u);
    case TM_S32: return (int32_t)(uint32_t)v;
    default: return (int64_t)(v & 1u);
    }
}

typedef struct tm_problem {
    unsigned m, n, k;
    tm_type at, bt, ct, dt;
    bool satfinite;
    int bitop; /* 0 none, 1 xor, 2 and */
} tm_problem;

/* d = a x b + c on row-major raw element bits. */
static inline void tm_model(const tm_problem *p, const uint64_t *a, const uint64_t *b,
                            const uint64_t *c, uint64_t *d)
{
    for (unsigned i = 0; i < p->m; i++)
        for (unsigned j = 0; j < p->n; j++) {
            unsigned o = i * p->n + j;
            if (p->at == TM_F64) {
                double acc, x, y;
                memcpy(&acc, &c[o], 8);
                for (unsigned kk = 0; kk < p->k; kk++) {
                    memcpy(&x, &a[i * p->k + kk], 8);
                    memcpy(&y, &b[kk * p->n + j], 8);
                    acc = fma(x, y, acc);
                }
                memcpy(&d[o], &acc, 8);
            } else if (tm_is_float(p->at)) {
                float acc = tm_to_f32(p->ct, c[o]);
                for (unsigned kk = 0; kk < p->k; kk++)
                    acc = fmaf(tm_to_f32(p->at, a[i * p->k + kk]),
                               tm_to_f32(p->bt, b[kk * p->n + j]), acc);
                d[o] = tm_from_f32(p->dt, acc);
            } else {
                int64_t acc = tm_to_int(TM_S32, c[o]);
                for (unsigned kk = 0; kk < p->k; kk++) {
                    uint64_t x = a[i * p->k + kk], y = b[kk * p->n + j];
                    if (p->bitop == 1)
                        acc += (int64_t)((x ^ y) & 1u);
                    else if (p->bitop == 2)
                        acc += (int64_t)(x & y & 1u);
                    else
                        acc += tm_to_int(p->at, x) * tm_to_int(p->bt, y);
                }
                if (p->satfinite)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                d[o] = (uint32_t)acc;
            }
        }
}

/* A random element of type t (finite floats of moderate size so sums
 * exercise rounding without overflowing). */
static inline uint64_t tm_random(tm_type t, uint32_t (*rnd)(void *), void *st)
{
    uint32_t r = rnd(st);
    switch (t) {
    case TM_F16: { /* exponent in [-6, 3]: values about 2^-6 .. 16 */
        uint32_t e = 9u + r % 10u;
        return (r >> 16 & 0x8000u) | e << 10 | (r >> 4 & 0x3ffu);
    }
    case TM_BF16: {
        uint32_t e = 121u + r % 10u;
        return (r >> 16 & 0x8000u) | e << 7 | (r >> 4 & 0x7fu);
    }
    case TM_TF32: case TM_F32: { /* tf32 keeps random low bits: they must be ignored */
        uint32_t e = 121u + r % 10u;
        return (r & 0x80000000u) | e << 23 | (rnd(st) & 0x7fffffu);
    }
    case TM_F64: {
        uint64_t e = 1018u + r % 10u;
        uint64_t mant = ((uint64_t)rnd(st) << 32 | rnd(st)) & 0xfffffffffffffull;
        return (uint64_t)(r >> 31) << 63 | e << 52 | mant;
    }
    case TM_E4M3: { /* anything but NaN (S.1111.111) */
        uint32_t v = r & 0xffu;
        return (v & 0x7fu) == 0x7fu ? v & 0xf0u : v;
    }
    case TM_E5M2: { /* finite: exponent below 31 */
        uint32_t v = r & 0xffu;
        return (v & 0x7cu) == 0x7cu ? v & 0x83u : v;
    }
    case TM_S32: return r;
    default: return r & ((1u << tm_bits(t)) - 1u);
    }
}

/* A matrix in memory, row- or column-major; ld is the number of elements
 * between rows (row-major) or columns (column-major).  Sub-byte elements
 * are packed from bit 0 of each byte up. */
typedef struct tm_mat {
    unsigned rows, cols, ld;
    bool col_major;
    tm_type t;
    uint8_t *bytes;
    size_t size;
} tm_mat;

/* Bit offset of element (r, c). */
static inline size_t tm_mat_bit(const tm_mat *mm, unsigned r, unsigned c)
{
    size_t e = mm->col_major ? (size_t)c * mm->ld + r : (size_t)r * mm->ld + c;
    return e * tm_bits(mm->t);
}

static inline void tm_mat_put(tm_mat *mm, unsigned r, unsigned c, uint64_t v)
{
    size_t bit = tm_mat_bit(mm, r, c);
    unsigned bits = tm_bits(mm->t);
    if (bits >= 8) {
        for (unsigned i = 0; i < bits / 8; i++)
            mm->bytes[bit / 8 + i] = (uint8_t)(v >> (8 * i));
    } else {
        unsigned sh = bit % 8, mask = (1u << bits) - 1;
        mm->bytes[bit / 8] = (uint8_t)((mm->bytes[bit / 8] & ~(mask << sh)) | ((v & mask) << sh));
    }
}

static inline uint64_t tm_mat_get(const tm_mat *mm, unsigned r, unsigned c)
{
    size_t bit = tm_mat_bit(mm, r, c);
    unsigned bits = tm_bits(mm->t);
    uint64_t v = 0;
    if (bits >= 8) {
        for (unsigned i = 0; i < bits / 8; i++)
            v |= (uint64_t)mm->bytes[bit / 8 + i] << (8 * i);
        return v;
    }
    return (mm->bytes[bit / 8] >> (bit % 8)) & ((1u << bits) - 1);
}

#endif
