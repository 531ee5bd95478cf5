/* tests/runtime/test_sweep_bf16.c — the cuda_bf16.h sweep:
 * tests/corpus/cuda/sweep_bf16.cu as nvcc 13 compiles it for sm_75, sm_80
 * and sm_90 (committed PTX from scripts/regen-ptx.sh), run through the C
 * API; every result is checked against a CPU model written from the CUDA
 * Math API (the doxygen text of cuda_bf16.h) and the PTX ISA manual.
 *
 * The model: a bfloat16 is the top 16 bits of a binary32.  Results that
 * the documentation defines as rounded ("in round-to-nearest-even mode",
 * "round-towards-zero", ...) are checked bit for bit against a rounding
 * of the exact value:
 *   - conversions round the exact source value once (integers of 64 bits
 *     are first rounded to odd at 53 bits, which is innocuous for a
 *     further rounding to 8 bits);
 *   - fma is the exact a*b (16 bits, exact in double) plus c, summed with
 *     TwoSum and rounded to odd at 53 bits, then rounded once to bf16 —
 *     plain double fma() followed by a bf16 rounding would double-round;
 *   - add/sub use the same round-to-odd sum; mul is exact in double;
 *     div is the double quotient (53 >= 2*8+2 bits: double rounding of a
 *     quotient is innocuous, Figueroa 1995).
 * NaN results are checked to be NaN; where the documentation says
 * "canonical NaN" (min/max, __hfma_relu) they must be 0x7fff.
 *
 * Approximate functions are computed by the header as an f32 .approx
 * instruction (or libdevice sinf/cosf) rounded to bf16; a result r is
 * accepted when RN(y - t) <= r <= RN(y + t), y the exact value (libm in
 * double), t the f32 error bound from the PTX ISA manual ("Floating Point
 * Instructions": rcp.approx 1 ulp, sqrt.approx relative 2^-23,
 * rsqrt.approx relative 2^-22.9, ex2.approx 2 ulp, lg2.approx absolute
 * 2^-22 on (0.5, 2) else relative 2^-22, tanh.approx.f32 relative 2^-11,
 * tanh.approx.bf16 absolute 2^-8) or the CUDA Programming Guide's
 * table for sinf/cosf (2 ulp), plus the error of the f32 scaling the
 * header does around them (x*log2(e), x*log2(10), log2(x)*ln(2)). */
#include "api/ptxemu.h"
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

enum { N = 256, BLOCK = 128 };
/* The conversion and math kernels take NU inputs: N edge cases and a
 * random batch as for the others, then NU - N more (bf16 inputs spread over
 * all bit patterns with stride US; random floats, doubles, integers). */
enum { NU = 1024, US = 85 };
/* The arithmetic kernels take NA inputs: N as above, then random operands
 * by class (subnormal, moderate, near overflow, any bits; fma cancellation). */
enum { NA = 4096 };
enum { RN, RZ, RD, RU };

/* ------------------------------------------------------------ the model */

static bool bnan(uint16_t h)
{
    return (h & 0x7fffu) > 0x7f80u;
}

static double bfv(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double f32v(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Rounds x (exact, or rounded to odd with >= 10 bits to spare) to bf16. */
static uint16_t rnd_bf16(double x, int mode)
{
    if (isnan(x))
        return 0x7fff;
    bool neg = signbit(x);
    uint16_t s = neg ? 0x8000u : 0;
    double ax = fabs(x);
    if (isinf(ax))
        return s | 0x7f80u;
    if (ax == 0)
        return s;
    int e;
    (void)frexp(ax, &e);
    int E = e - 1 < -126 ? -126 : e - 1;
    double q = ldexp(1.0, E - 7);
    double n = ax / q, fl = floor(n), fr = n - fl;
    bool up = false;
    switch (mode) {
    case RN: up = fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) == 1.0); break;
    case RZ: break;
    case RD: up = neg && fr > 0; break;
    case RU: up = !neg && fr > 0; break;
    }
    double mag = (fl + (up ? 1 : 0)) * q;
    if (mag >= 0x1p128) {
        bool inf = mode == RN || (mode == RD && neg) || (mode == RU && !neg);
        return s | (inf ? 0x7f80u : 0x7f7fu);
    }
    float f = (float)mag;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return s | (uint16_t)(u >> 16);
}

/* a*b + c rounded to odd at 53 bits; a*b must be exact in double. */
static double fma_odd(double a, double b, double c)
{
    double p = a * b, s = p + c;
    if (!isfinite(s))
        return s;
    double bb = s - p, err = (p - (s - bb)) + (c - bb);
    if (err != 0) {
        uint64_t u;
        memcpy(&u, &s, sizeof u);
        if (!(u & 1u))
            s = nextafter(s, err > 0 ? INFINITY : -INFINITY);
    }
    return s;
}

static uint16_t m_add(uint16_t a, uint16_t b)
{
    return rnd_bf16(fma_odd(bfv(a), 1.0, bfv(b)), RN);
}

static uint16_t m_sub(uint16_t a, uint16_t b)
{
    return rnd_bf16(fma_odd(bfv(a), 1.0, -bfv(b)), RN);
}

static uint16_t m_mul(uint16_t a, uint16_t b)
{
    return rnd_bf16(bfv(a) * bfv(b), RN);
}

/* __hdiv: the header divides with div.approx.f32 (b scaled by 1/4 when
 * |b| >= 2^126), whose 2-ulp bound makes the bf16 result correctly
 * rounded.  For a subnormal divisor (|b| < 2^-126) the manual gives no
 * bound, only the definition d = a * (1/b): modelled literally, in f32
 * (so 2^-133 / -2^-133 is -inf there, not -1). */
static uint16_t m_div(uint16_t a, uint16_t b)
{
    if ((b & 0x7f80u) == 0 && (b & 0x7fu) != 0) {
        float r = (float)(1.0 / bfv(b));
        float q = (float)(bfv(a) * (double)r);
        return rnd_bf16(q, RN);
    }
    return rnd_bf16(bfv(a) / bfv(b), RN);
}

static uint16_t m_fma(uint16_t a, uint16_t b, uint16_t c)
{
    return rnd_bf16(fma_odd(bfv(a), bfv(b), bfv(c)), RN);
}

/* _sat: clamp to [0.0, 1.0], NaN -> +0.0 (and -0.0 -> +0.0: max with +0
 * where +0.0 > -0.0). */
static uint16_t m_sat(uint16_t r)
{
    if (bnan(r) || (r & 0x8000u))
        return 0;
    return bfv(r) > 1.0 ? 0x3f80u : r;
}

/* _relu: negative results clamped to 0, NaN -> canonical NaN. */
static uint16_t m_relu(uint16_t r)
{
    if (bnan(r))
        return 0x7fff;
    return (r & 0x8000u) ? 0 : r;
}

/* __hmax/__hmin (+ _nan): NaN rules of the documentation, +0.0 > -0.0.
 * Before sm_80 the header implements the _nan forms as
 * `__hge(a, b) ? a : b` / `__hle(a, b) ? a : b` (cuda_bf16.hpp), which
 * returns a for a zero of either sign against a zero: old_zero models that. */
static uint16_t m_minmax(uint16_t a, uint16_t b, bool max, bool nan_prop, bool old_zero)
{
    if (bnan(a) || bnan(b)) {
        if (nan_prop || (bnan(a) && bnan(b)))
            return 0x7fff;
        return bnan(a) ? b : a;
    }
    double x = bfv(a), y = bfv(b);
    if (x == 0 && y == 0) {
        if (old_zero)
            return a;
        bool pos = max ? !((a & b) & 0x8000u) : !((a | b) & 0x8000u);
        return pos ? 0 : 0x8000u;
    }
    return (max ? x > y : x < y) ? a : b;
}

enum { EQ, NE, LT, LE, GT, GE };

static bool m_cmp(uint16_t a, uint16_t b, int op, bool unordered)
{
    if (bnan(a) || bnan(b))
        return unordered;
    double x = bfv(a), y = bfv(b);
    switch (op) {
    case EQ: return x == y;
    case NE: return x != y;
    case LT: return x < y;
    case LE: return x <= y;
    case GT: return x > y;
    default: return x >= y;
    }
}

/* Integer -> bf16: |v| rounded to odd at 53 bits, then to bf16. */
static uint16_t m_int2bf(bool neg, uint64_t mag, int mode)
{
    double d;
    if (mag < (UINT64_C(1) << 53)) {
        d = (double)mag;
    } else {
        unsigned shift = 0;
        while ((mag >> shift) >= (UINT64_C(1) << 53))
            shift++;
        uint64_t keep = mag >> shift;
        if (mag & ((UINT64_C(1) << shift) - 1))
            keep |= 1;
        d = ldexp((double)keep, (int)shift);
    }
    return rnd_bf16(neg ? -d : d, mode);
}

static uint16_t m_s64(int64_t v, int mode)
{
    return m_int2bf(v < 0, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, mode);
}

/* bf16 -> integer of `bits` bits (signed or not): rounded in mode,
 * saturated; NaN -> 0, except 0x8000000000000000 for 64-bit results. */
static uint64_t m_bf2int(uint16_t h, int mode, unsigned bits, bool sgn)
{
    if (bnan(h))
        return bits == 64 ? UINT64_C(1) << 63 : 0;
    double x = bfv(h), r;
    switch (mode) {
    case RN: r = nearbyint(x); break;
    case RZ: r = trunc(x); break;
    case RD: r = floor(x); break;
    default: r = ceil(x); break;
    }
    double hi = sgn ? ldexp(1.0, (int)bits - 1) : ldexp(1.0, (int)bits);
    double lo = sgn ? -hi : 0;
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (r >= hi)
        return sgn ? (mask >> 1) : mask;
    if (r <= lo)
        return sgn ? ((mask >> 1) + 1) & mask : 0;
    if (r < 0)
        return (uint64_t)(int64_t)r & mask;
    return (uint64_t)r & mask;
}

/* ------------------------------------------------------------ checking */

typedef struct ctx {
    const test_corpus *f;
    const char *kernel;
    unsigned elem;
} ctx;

static void check_u32(const ctx *c, const char *what, uint32_t got, uint32_t want)
{
    if (got != want)
        fail_msg("sm_%u %s element %u %s: got 0x%08x, want 0x%08x", c->f->sm, c->kernel,
                 c->elem, what, got, want);
}

/* A bf16 result: bit-exact, or any NaN where the model gives NaN. */
static void check_bf(const ctx *c, const char *what, uint32_t got, uint16_t want)
{
    if (bnan(want) && want != 0x7fffu)
        want = 0x7fff;
    bool ok = bnan(want) ? got <= 0xffffu && bnan((uint16_t)got) : got == want;
    if (!ok)
        fail_msg("sm_%u %s element %u %s: got 0x%04x, want 0x%04x", c->f->sm, c->kernel,
                 c->elem, what, got, want);
}

/* Canonical NaN required. */
static void check_bf_exact(const ctx *c, const char *what, uint32_t got, uint16_t want)
{
    check_u32(c, what, got, want);
}

static void check_bf2(const ctx *c, const char *what, uint32_t got, uint16_t lo, uint16_t hi)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s.lo", what);
    check_bf(c, buf, got & 0xffffu, lo);
    snprintf(buf, sizeof buf, "%s.hi", what);
    check_bf(c, buf, got >> 16, hi);
}

static void check_f32(const ctx *c, const char *what, uint32_t got, uint16_t h)
{
    if (bnan(h)) {
        if (!isnan(f32v(got)))
            fail_msg("sm_%u %s element %u %s: got 0x%08x, want a NaN", c->f->sm, c->kernel,
                     c->elem, what, got);
        return;
    }
    check_u32(c, what, got, (uint32_t)h << 16);
}

/* Ordering of bf16 values as reals (NaN excluded by the caller). */
static bool bf_le(uint16_t a, uint16_t b)
{
    return bfv(a) <= bfv(b);
}

/* Approximate result: RN(y - t) <= got <= RN(y + t); a NaN y needs a NaN;
 * an infinite y or a zero y needs the value itself (sign included). */
static void check_approx(const ctx *c, const char *what, uint32_t got, double y, double t)
{
    uint16_t g = (uint16_t)got;
    bool ok;
    if (got > 0xffffu)
        ok = false;
    else if (isnan(y))
        ok = bnan(g);
    else if (isinf(y) || y == 0)
        ok = g == rnd_bf16(y, RN);
    else
        ok = !bnan(g) && bf_le(rnd_bf16(y - t, RN), g) && bf_le(g, rnd_bf16(y + t, RN));
    if (!ok)
        fail_msg("sm_%u %s element %u %s: got 0x%04x, want about %.9g (0x%04x, tolerance %g)",
                 c->f->sm, c->kernel, c->elem, what, got, y, rnd_bf16(y, RN), t);
}

/* ------------------------------------------------------------ inputs */

static const uint16_t bf_special[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080, 0x3f80, 0xbf80,
    0x3f00, 0xbf00, 0x3fc0, 0xbfc0, 0x4020, 0xc020, 0x4000, 0x3f81, 0x3b80, 0x3c40,
    0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x7fff, 0x4f00, 0xcf00,
    0x4f80, 0x5f00, 0xdf00, 0x5f80, 0x4700, 0xc700, 0x4780, 0x42ff, 0x4300, 0xc301,
    0x437f, 0x4380, 0x3f7f, 0x4049, 0xc2b0, 0x42b0, 0x4120, 0xc120, 0x3a80, 0xbc95,
};

static void make_bf_inputs(uint16_t *a, uint16_t *b, uint16_t *c, unsigned n, uint32_t seed)
{
    const unsigned S = G_N_ELEMENTS(bf_special);
    for (unsigned i = 0; i < N; i++) {
        if (i < 2 * S) {
            a[i] = bf_special[i % S];
            b[i] = bf_special[(i * 7 + i / S) % S];
            c[i] = bf_special[(i * 13 + 5) % S];
        } else if (i < 2 * S + 40) {
            /* moderate exponents: carries, ties, cancellation */
            a[i] = (uint16_t)(((test_rng(&seed) & 1u) << 15) |
                              ((0x78u + test_rng(&seed) % 16u) << 7) | (test_rng(&seed) & 0x7fu));
            b[i] = (uint16_t)(((test_rng(&seed) & 1u) << 15) |
                              ((0x78u + test_rng(&seed) % 16u) << 7) | (test_rng(&seed) & 0x7fu));
            c[i] = (uint16_t)(((test_rng(&seed) & 1u) << 15) |
                              ((0x70u + test_rng(&seed) % 32u) << 7) | (test_rng(&seed) & 0x7fu));
        } else {
            a[i] = (uint16_t)test_rng(&seed);
            b[i] = (uint16_t)test_rng(&seed);
            c[i] = (uint16_t)test_rng(&seed);
        }
    }
    /* beyond N: random operands by class (tiny/subnormal, moderate,
     * near overflow, any bits) */
    for (unsigned i = N; i < n; i++) {
        uint16_t *v[3] = {&a[i], &b[i], &c[i]};
        for (int k = 0; k < 3; k++) {
            uint32_t r = test_rng(&seed), e;
            switch (test_rng(&seed) % 4u) {
            case 0: e = test_rng(&seed) % 4u; break;
            case 1: e = 0x70u + test_rng(&seed) % 32u; break;
            case 2: e = 0xf8u + test_rng(&seed) % 7u; break;
            default: e = (r >> 7) & 0xffu; break;
            }
            *v[k] = (uint16_t)((r & 0x807fu) | e << 7);
        }
        if (i % 3 == 0) { /* fma cancellation */
            uint16_t p = m_mul(a[i], b[i]);
            if (!bnan(p))
                c[i] = (uint16_t)((p ^ 0x8000u) + test_rng(&seed) % 3u - 1u);
        }
    }
    /* fma with cancellation: c is about -RN(a*b) */
    for (unsigned i = 2 * S + 10; i < 2 * S + 40; i++) {
        uint16_t p = m_mul(a[i], b[i]);
        if (!bnan(p))
            c[i] = (uint16_t)((p ^ 0x8000u) + test_rng(&seed) % 3u - 1u);
    }
    /* fma: the product (1+2^-7)*1.5 is a tie; c = +-tiny decides it */
    a[2 * S] = 0x3f81, b[2 * S] = 0x3fc0, c[2 * S] = 0x8001;
    a[2 * S + 1] = 0x3f81, b[2 * S + 1] = 0x3fc0, c[2 * S + 1] = 0x0001;
    a[2 * S + 2] = 0x3f81, b[2 * S + 2] = 0x3fc0, c[2 * S + 2] = 0x0000;
    /* add: 1 + 2^-8 (tie, even down) and 1 + 3*2^-8 (tie, even up) */
    a[2 * S + 3] = 0x3f80, b[2 * S + 3] = 0x3b80;
    a[2 * S + 4] = 0x3f80, b[2 * S + 4] = 0x3c40;
    /* x - x = +0; -0 + -0 = -0; huge + tiny */
    a[2 * S + 5] = 0x4049, b[2 * S + 5] = 0x4049;
    a[2 * S + 6] = 0x8000, b[2 * S + 6] = 0x8000;
    a[2 * S + 7] = 0x7f7f, b[2 * S + 7] = 0x0001, c[2 * S + 7] = 0x8001;
    /* overflow by fma / add */
    a[2 * S + 8] = 0x7f7f, b[2 * S + 8] = 0x3f81, c[2 * S + 8] = 0x0000;
    a[2 * S + 9] = 0x7f7f, b[2 * S + 9] = 0x7b00, c[2 * S + 9] = 0xff7f;
}

/* ------------------------------------------------------------ conv_to */

enum { NCONV_TO = 40 };

static void test_conv_to(void **state)
{
    (void)state;
    static const uint32_t fspecial[] = {
        0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f808000, 0x3f818000, 0x3f808001,
        0x3f807fff, 0xbf808000, 0xbf818000, 0x7f7fffff, 0x7f7f8000, 0x7f7f7fff, 0xff7fffff,
        0xff7f8000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x00000001,
        0x80000001, 0x00008000, 0x00018000, 0x007fffff, 0x00800000, 0x3fffffff, 0x4b800001,
        0x80008000, 0x807fffff, 0x3effffff, 0x33800000,
    };
    static const double dspecial[] = {
        1.0 + 0x1p-8 + 0x1p-40, 1.0 + 0x1p-8, 1.0 + 0x1p-8 - 0x1p-40, 1.0 + 0x1p-7 + 0x1p-8,
        -(1.0 + 0x1p-8 + 0x1p-40), 1e300, -1e300, 1e-300, -1e-300, 0x1p-1074, 0x1.ffp127,
        0x1.ffp127 - 0x1p80, 0x1p-134, 0x1p-134 + 0x1p-200, -0x1p-134, 0x1.fep127, 0x1p-133,
        0x1.80p-133, 0x1.7fffffffffp-133, 0.0, -0.0, 3.0e38, 3.5e38, 1.0 / 3.0,
    };
    static const int64_t lspecial[] = {
        0, 1, -1, 255, 256, 257, 258, 259, 0x01010001, -0x01010001, INT32_MAX, INT32_MIN,
        0xffffffffLL, 65535, 32767, -32768, 0x8001, 0x8080, 0x8180, INT64_MAX, INT64_MIN,
        0x0101000000000001LL, (int64_t)UINT64_C(0x8080000000000001), (int64_t)UINT64_C(0xff7fffffffffffff),
        -2, 0x7f80, 0x10000ff01LL, 0x7fffff80LL, 0x7fffffc0LL, (int64_t)UINT64_C(0xffffffffffffffff),
    };
    static float fs[NU];
    static double ds[NU];
    static int64_t ls[NU];
    uint32_t seed = 99;
    for (unsigned i = 0; i < NU; i++) {
        uint32_t fu = i < G_N_ELEMENTS(fspecial) ? fspecial[i] : test_rng(&seed);
        if (i >= N && i % 4 == 0) /* a tie, or one below / above it */
            fu = (fu & 0xffff0000u) | (0x7fffu + test_rng(&seed) % 3u);
        memcpy(&fs[i], &fu, sizeof fu);
        if (i < G_N_ELEMENTS(dspecial)) {
            ds[i] = dspecial[i];
        } else {
            uint64_t du = ((uint64_t)test_rng(&seed) << 32) | test_rng(&seed);
            /* keep most exponents in bf16 range */
            if (i & 1)
                du = (du & UINT64_C(0x800fffffffffffff)) |
                     ((uint64_t)(1023 - 140 + test_rng(&seed) % 270u) << 52);
            memcpy(&ds[i], &du, sizeof du);
        }
        if (i < G_N_ELEMENTS(lspecial)) {
            ls[i] = lspecial[i];
        } else {
            uint64_t lu = ((uint64_t)test_rng(&seed) << 32) | test_rng(&seed);
            ls[i] = (int64_t)(lu >> (test_rng(&seed) % 64u));
            if (i & 2)
                ls[i] = -ls[i];
        }
    }
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[NU * NCONV_TO];
        ptxemu_dptr df = test_corpus_upload(&f, fs, sizeof fs),
                    dd = test_corpus_upload(&f, ds, sizeof ds),
                    dl = test_corpus_upload(&f, ls, sizeof ls),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {&df, &dd, &dl, &dout};
        test_corpus_launch(&f, "_Z12conv_to_bf16PKfPKdPKxPj", NU / BLOCK, BLOCK, args);
        test_corpus_download(&f, out, dout, sizeof out);
        for (unsigned i = 0; i < NU; i++) {
            const uint32_t *o = out + NCONV_TO * i;
            ctx c = {&f, "conv_to_bf16", i};
            double fv = fs[i], gv = fs[i ^ 1];
            int64_t l = ls[i];
            static const char *const fn[] = {"__float2bfloat16", "__float2bfloat16_rn",
                                             "__float2bfloat16_rz", "__float2bfloat16_rd",
                                             "__float2bfloat16_ru"};
            static const int fm[] = {RN, RN, RZ, RD, RU};
            for (int k = 0; k < 5; k++)
                check_bf(&c, fn[k], o[k], rnd_bf16(fv, fm[k]));
            check_bf(&c, "__double2bfloat16", o[5], rnd_bf16(ds[i], RN));
            static const char *const sfx[] = {"_rn", "_rz", "_rd", "_ru"};
            static const int im[] = {RN, RZ, RD, RU};
            char name[64];
            for (int k = 0; k < 4; k++) {
                snprintf(name, sizeof name, "__int2bfloat16%s", sfx[k]);
                check_bf(&c, name, o[6 + k], m_s64((int32_t)l, im[k]));
                snprintf(name, sizeof name, "__uint2bfloat16%s", sfx[k]);
                check_bf(&c, name, o[10 + k], m_int2bf(false, (uint32_t)l, im[k]));
                snprintf(name, sizeof name, "__short2bfloat16%s", sfx[k]);
                check_bf(&c, name, o[14 + k], m_s64((int16_t)l, im[k]));
                snprintf(name, sizeof name, "__ushort2bfloat16%s", sfx[k]);
                check_bf(&c, name, o[18 + k], m_int2bf(false, (uint16_t)l, im[k]));
                snprintf(name, sizeof name, "__ll2bfloat16%s", sfx[k]);
                check_bf(&c, name, o[22 + k], m_s64(l, im[k]));
                snprintf(name, sizeof name, "__ull2bfloat16%s", sfx[k]);
                check_bf(&c, name, o[26 + k], m_int2bf(false, (uint64_t)l, im[k]));
            }
            uint16_t rf = rnd_bf16(fv, RN), rg = rnd_bf16(gv, RN);
            check_bf2(&c, "__float2bfloat162_rn", o[30], rf, rf);
            check_bf2(&c, "__floats2bfloat162_rn", o[31], rf, rg);
            check_bf2(&c, "__float22bfloat162_rn", o[32], rg, rf);
            check_bf(&c, "__nv_bfloat16(float)", o[33], rf);
            check_bf(&c, "__nv_bfloat16(double)", o[34], rnd_bf16(ds[i], RN));
            check_u32(&c, "__short_as_bfloat16", o[35], (uint16_t)l);
            check_u32(&c, "__ushort_as_bfloat16", o[36], (uint16_t)(l >> 16));
            check_u32(&c, "make_bfloat162", o[37],
                      (uint16_t)l | (uint32_t)(uint16_t)(l >> 16) << 16);
            check_bf(&c, "operator=(int)", o[38], m_s64((int32_t)l, RN));
            check_bf(&c, "operator=(unsigned long long)", o[39],
                     m_int2bf(false, (uint64_t)l, RN));
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ conv_from */

enum { NCONV_FROM = 56 };

static void test_conv_from(void **state)
{
    (void)state;
    static uint16_t hs[NU], b[NU], cc[NU];
    make_bf_inputs(hs, b, cc, N, 5);
    for (unsigned i = N; i < NU; i++)
        hs[i] = (uint16_t)((i - N) * US + 0x13);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[NU * NCONV_FROM];
        test_corpus_run_io(&f, "_Z14conv_from_bf16PKtPj", NU / BLOCK, BLOCK, hs, sizeof hs,
                           out, sizeof out);
        for (unsigned i = 0; i < NU; i++) {
            const uint32_t *o = out + NCONV_FROM * i;
            ctx c = {&f, "conv_from_bf16", i};
            uint16_t h = hs[i], k = hs[i ^ 1];
            check_f32(&c, "__bfloat162float", o[0], h);
            static const char *const sfx[] = {"_rn", "_rz", "_rd", "_ru"};
            static const int im[] = {RN, RZ, RD, RU};
            char name[64];
            for (int j = 0; j < 4; j++) {
                snprintf(name, sizeof name, "__bfloat162int%s", sfx[j]);
                check_u32(&c, name, o[1 + j], (uint32_t)m_bf2int(h, im[j], 32, true));
                snprintf(name, sizeof name, "__bfloat162uint%s", sfx[j]);
                check_u32(&c, name, o[5 + j], (uint32_t)m_bf2int(h, im[j], 32, false));
                snprintf(name, sizeof name, "__bfloat162short%s", sfx[j]);
                check_u32(&c, name, o[9 + j], (uint32_t)m_bf2int(h, im[j], 16, true));
                snprintf(name, sizeof name, "__bfloat162ushort%s", sfx[j]);
                check_u32(&c, name, o[13 + j], (uint32_t)m_bf2int(h, im[j], 16, false));
                uint64_t ll = m_bf2int(h, im[j], 64, true), ul = m_bf2int(h, im[j], 64, false);
                snprintf(name, sizeof name, "__bfloat162ll%s", sfx[j]);
                check_u32(&c, name, o[19 + 2 * j], (uint32_t)ll);
                check_u32(&c, name, o[20 + 2 * j], (uint32_t)(ll >> 32));
                snprintf(name, sizeof name, "__bfloat162ull%s", sfx[j]);
                check_u32(&c, name, o[27 + 2 * j], (uint32_t)ul);
                check_u32(&c, name, o[28 + 2 * j], (uint32_t)(ul >> 32));
            }
            check_u32(&c, "__bfloat162char_rz", o[17], (uint32_t)m_bf2int(h, RZ, 8, true));
            check_u32(&c, "__bfloat162uchar_rz", o[18], (uint32_t)m_bf2int(h, RZ, 8, false));
            check_f32(&c, "__bfloat1622float2.x", o[35], h);
            check_f32(&c, "__bfloat1622float2.y", o[36], k);
            check_f32(&c, "__low2float", o[37], k);
            check_f32(&c, "__high2float", o[38], h);
            uint32_t hk = h | (uint32_t)k << 16, kh = k | (uint32_t)h << 16;
            check_u32(&c, "__low2bfloat16/__high2bfloat16", o[39], kh);
            check_u32(&c, "__lowhigh2highlow", o[40], kh);
            check_u32(&c, "__low2bfloat162", o[41], k | (uint32_t)k << 16);
            check_u32(&c, "__high2bfloat162", o[42], h | (uint32_t)h << 16);
            check_u32(&c, "__lows2bfloat162", o[43], hk);
            check_u32(&c, "__highs2bfloat162", o[44], kh);
            check_u32(&c, "__bfloat162bfloat162", o[45], h | (uint32_t)h << 16);
            check_u32(&c, "__bfloat16_as_short", o[46], h);
            uint32_t kneg = !bnan(k) && bfv(k) < 0;
            if (bnan(h)) { /* a NaN: its low bit cannot be told from the xor */
                if (!isnan(f32v(o[47])))
                    fail_msg("sm_%u operator float element %u: got 0x%08x", f.sm, i, o[47]);
            } else {
                check_u32(&c, "operator float / operator<", o[47], ((uint32_t)h << 16) ^ kneg);
            }
            check_u32(&c, "operator int", o[48], (uint32_t)m_bf2int(h, RZ, 32, true));
            check_u32(&c, "operator unsigned", o[49], (uint32_t)m_bf2int(h, RZ, 32, false));
            check_u32(&c, "operator short", o[50], (uint32_t)m_bf2int(h, RZ, 16, true));
            check_u32(&c, "operator unsigned short", o[51], (uint32_t)m_bf2int(h, RZ, 16, false));
            check_u32(&c, "operator signed char", o[52], (uint32_t)m_bf2int(h, RZ, 8, true));
            check_u32(&c, "operator unsigned char", o[53], (uint32_t)m_bf2int(h, RZ, 8, false));
            uint64_t llz = m_bf2int(h, RZ, 64, true);
            check_u32(&c, "operator long long", o[54], (uint32_t)llz);
            check_u32(&c, "operator long long", o[55], (uint32_t)(llz >> 32));
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ arith */

enum { NARITH = 64, NARITH2 = 72 };

/* kernel(a, b, c, out) on NA threads */
static void run_arith(test_corpus *f, const char *k, const uint16_t a[NA], const uint16_t b[NA],
                      const uint16_t c[NA], uint32_t *out, size_t out_bytes)
{
    ptxemu_dptr da = test_corpus_upload(f, a, NA * sizeof a[0]),
                db = test_corpus_upload(f, b, NA * sizeof b[0]),
                dc = test_corpus_upload(f, c, NA * sizeof c[0]),
                dout = test_corpus_upload(f, NULL, out_bytes);
    void *args[] = {&da, &db, &dc, &dout};
    test_corpus_launch(f, k, NA / BLOCK, BLOCK, args);
    test_corpus_download(f, out, dout, out_bytes);
}

static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};

static void test_arith(void **state)
{
    (void)state;
    static uint16_t a[NA], b[NA], c[NA];
    make_bf_inputs(a, b, c, NA, 17);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[NA * NARITH];
        run_arith(&f, "_Z10arith_bf16PKtS0_S0_Pj", a, b, c, out, sizeof out);
        for (unsigned i = 0; i < NA; i++) {
            const uint32_t *o = out + NARITH * i;
            ctx cx = {&f, "arith_bf16", i};
            uint16_t x = a[i], y = b[i], z = c[i];
            uint16_t add = m_add(x, y), sub = m_sub(x, y), mul = m_mul(x, y), dv = m_div(x, y);
            check_bf(&cx, "__hadd", o[0], add);
            check_bf(&cx, "__hsub", o[1], sub);
            check_bf(&cx, "__hmul", o[2], mul);
            check_bf(&cx, "__hdiv", o[3], dv);
            check_bf(&cx, "__hadd_sat", o[4], m_sat(add));
            check_bf(&cx, "__hsub_sat", o[5], m_sat(sub));
            check_bf(&cx, "__hmul_sat", o[6], m_sat(mul));
            check_bf(&cx, "__hadd_rn", o[7], add);
            check_bf(&cx, "__hsub_rn", o[8], sub);
            check_bf(&cx, "__hmul_rn", o[9], mul);
            if (f.sm >= 80) {
                uint16_t fm = m_fma(x, y, z);
                check_bf(&cx, "__hfma", o[10], fm);
                check_bf(&cx, "__hfma_sat", o[11], m_sat(fm));
                check_bf_exact(&cx, "__hfma_relu", o[12], m_relu(fm));
            }
            if (!bnan(x)) {
                check_u32(&cx, "__hneg", o[13], x ^ 0x8000u);
                check_u32(&cx, "__habs", o[14], x & 0x7fffu);
                check_u32(&cx, "operator-(unary)", o[23], x ^ 0x8000u);
            } else {
                check_bf(&cx, "__hneg", o[13], 0x7fff);
                check_bf(&cx, "__habs", o[14], 0x7fff);
                check_bf(&cx, "operator-(unary)", o[23], 0x7fff);
            }
            check_bf_exact(&cx, "__hmax", o[15], m_minmax(x, y, true, false, false));
            check_bf_exact(&cx, "__hmin", o[16], m_minmax(x, y, false, false, false));
            check_bf_exact(&cx, "__hmax_nan", o[17], m_minmax(x, y, true, true, f.sm < 80));
            check_bf_exact(&cx, "__hmin_nan", o[18], m_minmax(x, y, false, true, f.sm < 80));
            check_bf(&cx, "operator+", o[19], add);
            check_bf(&cx, "operator-", o[20], sub);
            check_bf(&cx, "operator*", o[21], mul);
            check_bf(&cx, "operator/", o[22], dv);
            char name[32];
            for (int op = 0; op < 6; op++) {
                snprintf(name, sizeof name, "__h%s", cmp_names[op]);
                check_u32(&cx, name, o[24 + op], m_cmp(x, y, op, false));
                snprintf(name, sizeof name, "__h%su", cmp_names[op]);
                check_u32(&cx, name, o[30 + op], m_cmp(x, y, op, true));
            }
            check_u32(&cx, "__hisnan", o[36], bnan(x));
            check_u32(&cx, "__hisinf", o[37],
                      x == 0x7f80u ? 1u : x == 0xff80u ? UINT32_MAX : 0u);
            uint32_t ops = m_cmp(x, y, EQ, false) | m_cmp(x, y, NE, true) << 1 |
                           m_cmp(x, y, LT, false) << 2 | m_cmp(x, y, LE, false) << 3 |
                           m_cmp(x, y, GT, false) << 4 | m_cmp(x, y, GE, false) << 5;
            check_u32(&cx, "operator== != < <= > >=", o[38], ops);
            check_bf(&cx, "operator+=", o[39], add);
            check_bf(&cx, "operator-=", o[40], sub);
            check_bf(&cx, "operator*=", o[41], mul);
            check_bf(&cx, "operator/=", o[42], dv);
            check_bf(&cx, "operator++(int) old", o[43] & 0xffffu, bnan(x) ? 0x7fff : x);
            check_bf(&cx, "operator++(int) new", o[43] >> 16, m_add(x, 0x3f80));
            check_bf(&cx, "operator--()", o[44] & 0xffffu, m_sub(x, 0x3f80));
            check_bf(&cx, "operator+(unary)", o[44] >> 16, bnan(x) ? 0x7fff : x);
        }
        test_corpus_close(&f);
    }
}

static uint16_t m_cmadd_re(uint16_t ax, uint16_t ay, uint16_t bx, uint16_t by, uint16_t cx)
{
    uint16_t r = m_fma(ax, bx, cx);
    return m_fma(ay ^ 0x8000u, by, r);
}

static uint16_t m_cmadd_im(uint16_t ax, uint16_t ay, uint16_t bx, uint16_t by, uint16_t cy)
{
    uint16_t r = m_fma(ax, by, cy);
    return m_fma(ay, bx, r);
}

static void test_arith2(void **state)
{
    (void)state;
    static uint16_t a[NA], b[NA], c[NA];
    make_bf_inputs(a, b, c, NA, 23);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[NA * NARITH2];
        run_arith(&f, "_Z11arith_bf162PKtS0_S0_Pj", a, b, c, out, sizeof out);
        for (unsigned i = 0; i < NA; i++) {
            const uint32_t *o = out + NARITH2 * i;
            ctx cx = {&f, "arith_bf162", i};
            /* x = (a, b), y = (b, c), z = (c, a) */
            uint16_t xl = a[i], xh = b[i], yl = b[i], yh = c[i], zl = c[i], zh = a[i];
            uint16_t addl = m_add(xl, yl), addh = m_add(xh, yh);
            uint16_t subl = m_sub(xl, yl), subh = m_sub(xh, yh);
            uint16_t mull = m_mul(xl, yl), mulh = m_mul(xh, yh);
            uint16_t divl = m_div(xl, yl), divh = m_div(xh, yh);
            check_bf2(&cx, "__hadd2", o[0], addl, addh);
            check_bf2(&cx, "__hsub2", o[1], subl, subh);
            check_bf2(&cx, "__hmul2", o[2], mull, mulh);
            check_bf2(&cx, "__h2div", o[3], divl, divh);
            check_bf2(&cx, "__hadd2_sat", o[4], m_sat(addl), m_sat(addh));
            check_bf2(&cx, "__hsub2_sat", o[5], m_sat(subl), m_sat(subh));
            check_bf2(&cx, "__hmul2_sat", o[6], m_sat(mull), m_sat(mulh));
            check_bf2(&cx, "__hadd2_rn", o[7], addl, addh);
            check_bf2(&cx, "__hsub2_rn", o[8], subl, subh);
            check_bf2(&cx, "__hmul2_rn", o[9], mull, mulh);
            if (f.sm >= 80) {
                uint16_t fl = m_fma(xl, yl, zl), fh = m_fma(xh, yh, zh);
                check_bf2(&cx, "__hfma2", o[10], fl, fh);
                check_bf2(&cx, "__hfma2_sat", o[11], m_sat(fl), m_sat(fh));
                check_u32(&cx, "__hfma2_relu", o[12], m_relu(fl) | (uint32_t)m_relu(fh) << 16);
                check_bf2(&cx, "__hcmadd", o[13], m_cmadd_re(xl, xh, yl, yh, zl),
                          m_cmadd_im(xl, xh, yl, yh, zh));
            }
            uint16_t nl = bnan(xl) ? 0x7fff : xl ^ 0x8000u, nh = bnan(xh) ? 0x7fff : xh ^ 0x8000u;
            check_bf2(&cx, "__hneg2", o[14], nl, nh);
            check_bf2(&cx, "__habs2", o[15], bnan(xl) ? 0x7fff : xl & 0x7fffu,
                      bnan(xh) ? 0x7fff : xh & 0x7fffu);
            check_u32(&cx, "__hmax2", o[16],
                      m_minmax(xl, yl, true, false, false) | (uint32_t)m_minmax(xh, yh, true, false, false) << 16);
            check_u32(&cx, "__hmin2", o[17],
                      m_minmax(xl, yl, false, false, false) |
                          (uint32_t)m_minmax(xh, yh, false, false, false) << 16);
            check_u32(&cx, "__hmax2_nan", o[18],
                      m_minmax(xl, yl, true, true, f.sm < 80) | (uint32_t)m_minmax(xh, yh, true, true, f.sm < 80) << 16);
            check_u32(&cx, "__hmin2_nan", o[19],
                      m_minmax(xl, yl, false, true, f.sm < 80) | (uint32_t)m_minmax(xh, yh, false, true, f.sm < 80) << 16);
            check_bf2(&cx, "operator+", o[20], addl, addh);
            check_bf2(&cx, "operator-", o[21], subl, subh);
            check_bf2(&cx, "operator*", o[22], mull, mulh);
            check_bf2(&cx, "operator/", o[23], divl, divh);
            check_bf2(&cx, "operator-(unary)", o[24], nl, nh);
            char name[32];
            uint32_t ops = 0;
            for (int op = 0; op < 6; op++) {
                bool ol = m_cmp(xl, yl, op, false), oh = m_cmp(xh, yh, op, false);
                bool ul = m_cmp(xl, yl, op, true), uh = m_cmp(xh, yh, op, true);
                snprintf(name, sizeof name, "__h%s2", cmp_names[op]);
                check_u32(&cx, name, o[25 + op], (ol ? 0x3f80u : 0) | (oh ? 0x3f800000u : 0));
                snprintf(name, sizeof name, "__h%su2", cmp_names[op]);
                check_u32(&cx, name, o[31 + op], (ul ? 0x3f80u : 0) | (uh ? 0x3f800000u : 0));
                snprintf(name, sizeof name, "__h%s2_mask", cmp_names[op]);
                check_u32(&cx, name, o[37 + op], (ol ? 0xffffu : 0) | (oh ? 0xffff0000u : 0));
                snprintf(name, sizeof name, "__h%su2_mask", cmp_names[op]);
                check_u32(&cx, name, o[43 + op], (ul ? 0xffffu : 0) | (uh ? 0xffff0000u : 0));
                snprintf(name, sizeof name, "__hb%s2", cmp_names[op]);
                check_u32(&cx, name, o[49 + op], ol && oh);
                snprintf(name, sizeof name, "__hb%su2", cmp_names[op]);
                check_u32(&cx, name, o[55 + op], ul && uh);
                bool opv = op == NE ? ul && uh : ol && oh;
                ops |= (uint32_t)opv << op;
            }
            check_u32(&cx, "__hisnan2", o[61],
                      (bnan(xl) ? 0x3f80u : 0) | (bnan(xh) ? 0x3f800000u : 0));
            check_u32(&cx, "operator== != < <= > >=", o[62], ops);
            check_bf2(&cx, "operator+=", o[63], addl, addh);
            check_bf2(&cx, "operator-=", o[64], subl, subh);
            check_bf2(&cx, "operator*=", o[65], mull, mulh);
            check_bf2(&cx, "operator/=", o[66], divl, divh);
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ math */

enum { NMATH = 40 };

enum {
    F_SQRT, F_RSQRT, F_RCP, F_EXP, F_EXP2, F_EXP10, F_LOG, F_LOG2, F_LOG10, F_SIN, F_COS,
    F_TANH, F_TANH_APPROX, F_NFUNC
};

static const char *const math_names[] = {"sqrt", "rsqrt", "rcp", "exp", "exp2", "exp10",
                                         "log", "log2", "log10", "sin", "cos", "tanh",
                                         "tanh_approx"};

/* Exact value (double libm) and the tolerance t described at the top. */
static double m_math(int fn, uint16_t h, unsigned sm, double *t)
{
    double x = bfv(h), y;
    const double sub = 0x1p-148; /* 2 ulp of an f32 subnormal */
    switch (fn) {
    case F_SQRT: y = sqrt(x); *t = 0x1p-23 * fabs(y); break;
    case F_RSQRT: y = 1.0 / sqrt(x); *t = exp2(-22.9) * fabs(y); break;
    case F_RCP: y = 1.0 / x; *t = 0x1p-23 * fabs(y) + sub; break;
    case F_EXP: y = exp(x); *t = (0x1p-22 + fabs(x) * 0x1p-22) * fabs(y) + sub; break;
    case F_EXP2: y = exp2(x); *t = 0x1p-22 * fabs(y) + sub; break;
    case F_EXP10:
        y = pow(10.0, x);
        *t = (0x1p-22 + fabs(x) * log(10.0) * 0x1p-22) * fabs(y) + sub;
        break;
    case F_LOG: y = log(x); *t = 0x1p-21 * fabs(y) + 0x1p-22; break;
    case F_LOG2: y = log2(x); *t = 0x1p-22 * fabs(y) + 0x1p-22; break;
    case F_LOG10: y = log10(x); *t = 0x1p-21 * fabs(y) + 0x1p-22; break;
    case F_SIN: y = sin(x); *t = 0x1p-22 * fabs(y) + sub; break;
    case F_COS: y = cos(x); *t = 0x1p-22 * fabs(y) + sub; break;
    case F_TANH: y = tanh(x); *t = 0x1p-11 * fabs(y); break;
    default:
        y = tanh(x);
        *t = sm >= 90 ? 0x1p-8 : 0x1p-11 * fabs(y);
        break;
    }
    if (bnan(h))
        y = NAN;
    return y;
}

static uint16_t m_round_int(uint16_t h, int mode)
{
    if (bnan(h))
        return 0x7fff;
    double x = bfv(h), r;
    switch (mode) {
    case RN: r = nearbyint(x); break;
    case RZ: r = trunc(x); break;
    case RD: r = floor(x); break;
    default: r = ceil(x); break;
    }
    return rnd_bf16(copysign(r, x), RN);
}

static void test_math(void **state)
{
    (void)state;
    static uint16_t a[NU], b[NU], c[NU];
    make_bf_inputs(a, b, c, N, 31);
    for (unsigned i = N; i < NU; i++) {
        a[i] = (uint16_t)((i - N) * US + 0x13);
        b[i] = a[i] ^ 0x8000u;
    }
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[NU * NMATH];
        ptxemu_dptr da = test_corpus_upload(&f, a, sizeof a),
                    db = test_corpus_upload(&f, b, sizeof b),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {&da, &db, &dout};
        test_corpus_launch(&f, "_Z9math_bf16PKtS0_Pj", NU / BLOCK, BLOCK, args);
        test_corpus_download(&f, out, dout, sizeof out);
        for (unsigned i = 0; i < NU; i++) {
            const uint32_t *o = out + NMATH * i;
            ctx cx = {&f, "math_bf16", i};
            char name[40];
            for (int fn = 0; fn < F_NFUNC; fn++) {
                double t, y = m_math(fn, a[i], f.sm, &t);
                snprintf(name, sizeof name, "h%s", math_names[fn]);
                check_approx(&cx, name, o[fn], y, t);
                double tl, yl = m_math(fn, a[i], f.sm, &tl);
                double th, yh = m_math(fn, b[i], f.sm, &th);
                snprintf(name, sizeof name, "h2%s.lo", math_names[fn]);
                check_approx(&cx, name, o[17 + fn] & 0xffffu, yl, tl);
                snprintf(name, sizeof name, "h2%s.hi", math_names[fn]);
                check_approx(&cx, name, o[17 + fn] >> 16, yh, th);
            }
            static const char *const rn[] = {"hceil", "hfloor", "htrunc", "hrint"};
            static const int rm[] = {RU, RD, RZ, RN};
            for (int k = 0; k < 4; k++) {
                check_bf(&cx, rn[k], o[13 + k], m_round_int(a[i], rm[k]));
                snprintf(name, sizeof name, "h2%s", rn[k] + 1);
                check_bf2(&cx, name, o[30 + k], m_round_int(a[i], rm[k]),
                          m_round_int(b[i], rm[k]));
            }
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ shfl */

enum { NSHFL = 8 };

static unsigned shfl_idx(unsigned lane, unsigned src, unsigned width)
{
    return (lane & ~(width - 1)) + (src % width);
}

static unsigned shfl_up(unsigned lane, unsigned d, unsigned width)
{
    return (lane % width) >= d ? lane - d : lane;
}

static unsigned shfl_down(unsigned lane, unsigned d, unsigned width)
{
    return (lane % width) + d < width ? lane + d : lane;
}

static void test_shfl(void **state)
{
    (void)state;
    uint16_t a[N], b[N], c[N];
    make_bf_inputs(a, b, c, N, 41);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        uint32_t out[64 * NSHFL];
        test_corpus_run_io(&f, "_Z9shfl_bf16PKtPj", 1, 64, a, 64 * sizeof a[0], out, sizeof out);
        for (unsigned i = 0; i < 64; i++) {
            const uint32_t *o = out + NSHFL * i;
            ctx cx = {&f, "shfl_bf16", i};
            unsigned lane = i & 31, base = i & ~31u;
#define X2(t) (a[base + (t)] | (uint32_t)a[(base + (t)) ^ 63] << 16)
            check_u32(&cx, "__shfl_sync", o[0], a[base + shfl_idx(lane, i * 7 + 3, 32)]);
            check_u32(&cx, "__shfl_up_sync", o[1], a[base + shfl_up(lane, 3, 32)]);
            check_u32(&cx, "__shfl_down_sync", o[2], a[base + shfl_down(lane, 5, 32)]);
            check_u32(&cx, "__shfl_xor_sync", o[3], a[base + (lane ^ 9)]);
            check_u32(&cx, "__shfl_sync(bf162, 16)", o[4], X2(shfl_idx(lane, i * 5 + 1, 16)));
            check_u32(&cx, "__shfl_up_sync(bf162, 8)", o[5], X2(shfl_up(lane, 2, 8)));
            check_u32(&cx, "__shfl_down_sync(bf162, 4)", o[6], X2(shfl_down(lane, 1, 4)));
            check_u32(&cx, "__shfl_xor_sync(bf162, 16)", o[7], X2(lane ^ 6));
#undef X2
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ memory */

enum { NMEM = 16 };

static void test_mem(void **state)
{
    (void)state;
    uint16_t a[N], b[N], c[N];
    make_bf_inputs(a, b, c, N, 53);
    uint32_t q[N];
    for (unsigned i = 0; i < N; i++)
        q[i] = b[i] | (uint32_t)c[i] << 16;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[N * NMEM], sq[4 * N];
        static uint16_t sp[4 * N];
        ptxemu_dptr dp = test_corpus_upload(&f, a, sizeof a),
                    dq = test_corpus_upload(&f, q, sizeof q),
                    dsp = test_corpus_upload(&f, NULL, sizeof sp),
                    dsq = test_corpus_upload(&f, NULL, sizeof sq),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {&dp, &dq, &dsp, &dsq, &dout};
        test_corpus_launch(&f, "_Z8mem_bf16PK13__nv_bfloat16PK14__nv_bfloat162PS_PS2_Pj", N / BLOCK,
                           BLOCK, args);
        test_corpus_download(&f, out, dout, sizeof out);
        test_corpus_download(&f, sp, dsp, sizeof sp);
        test_corpus_download(&f, sq, dsq, sizeof sq);
        static const char *const ld[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu",
                                         "__ldcv"};
        for (unsigned i = 0; i < N; i++) {
            const uint32_t *o = out + NMEM * i;
            ctx cx = {&f, "mem_bf16", i};
            char name[40];
            for (int k = 0; k < 6; k++) {
                snprintf(name, sizeof name, "%s(bf16)", ld[k]);
                check_u32(&cx, name, o[k], a[i]);
                snprintf(name, sizeof name, "%s(bf162)", ld[k]);
                check_u32(&cx, name, o[6 + k], q[i]);
            }
            uint16_t v = a[i], wl = b[i], wh = c[i];
            check_u32(&cx, "__stwb(bf16)", sp[4 * i], v);
            if (bnan(v)) {
                check_bf(&cx, "__stcg(bf16, __hneg)", sp[4 * i + 1], 0x7fff);
                check_bf(&cx, "__stcs(bf16, __habs)", sp[4 * i + 2], 0x7fff);
            } else {
                check_u32(&cx, "__stcg(bf16, __hneg)", sp[4 * i + 1], v ^ 0x8000u);
                check_u32(&cx, "__stcs(bf16, __habs)", sp[4 * i + 2], v & 0x7fffu);
            }
            check_u32(&cx, "__stwt(bf16)", sp[4 * i + 3], wh);
            check_u32(&cx, "__stwb(bf162)", sq[4 * i], q[i]);
            check_u32(&cx, "__stcg(bf162)", sq[4 * i + 1], wh | (uint32_t)wl << 16);
            check_bf2(&cx, "__stcs(bf162, __hneg2)", sq[4 * i + 2],
                      bnan(wl) ? 0x7fff : wl ^ 0x8000u, bnan(wh) ? 0x7fff : wh ^ 0x8000u);
            check_bf2(&cx, "__stwt(bf162, __habs2)", sq[4 * i + 3],
                      bnan(wl) ? 0x7fff : wl & 0x7fffu, bnan(wh) ? 0x7fff : wh & 0x7fffu);
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ atomics */

static void test_atomic(void **state)
{
    (void)state;
    uint16_t a[N], b[N], c[N];
    make_bf_inputs(a, b, c, N, 67);
    uint32_t acc2[N];
    for (unsigned i = 0; i < N; i++)
        acc2[i] = a[i] | (uint32_t)b[i] << 16;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_bf16", archs[ai], NULL);
        static uint32_t out[2 * N], racc2[N];
        static uint16_t racc[N];
        uint16_t ctr[2] = {0, 0};
        uint32_t ctr2[2] = {0, 0};
        ptxemu_dptr da = test_corpus_upload(&f, a, sizeof a),
                    db = test_corpus_upload(&f, b, sizeof b),
                    dacc = test_corpus_upload(&f, b, sizeof b),
                    dacc2 = test_corpus_upload(&f, acc2, sizeof acc2),
                    dctr = test_corpus_upload(&f, ctr, sizeof ctr),
                    dctr2 = test_corpus_upload(&f, ctr2, sizeof ctr2),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {&da, &db, &dacc, &dacc2, &dctr, &dctr2, &dout};
        test_corpus_launch(&f, "_Z11atomic_bf16PKtS0_P13__nv_bfloat16P14__nv_bfloat162S2_S4_Pj",
                           N / BLOCK, BLOCK, args);
        test_corpus_download(&f, out, dout, sizeof out);
        test_corpus_download(&f, racc, dacc, sizeof racc);
        test_corpus_download(&f, racc2, dacc2, sizeof racc2);
        test_corpus_download(&f, ctr, dctr, sizeof ctr);
        test_corpus_download(&f, ctr2, dctr2, sizeof ctr2);
        for (unsigned i = 0; i < N; i++) {
            ctx cx = {&f, "atomic_bf16", i};
            check_u32(&cx, "atomicAdd(bf16) old", out[2 * i], b[i]);
            check_bf(&cx, "atomicAdd(bf16) new", racc[i], m_add(b[i], a[i]));
            check_u32(&cx, "atomicAdd(bf162) old", out[2 * i + 1], acc2[i]);
            check_bf2(&cx, "atomicAdd(bf162) new", racc2[i], m_add(a[i], b[i]),
                      m_add(b[i], a[i]));
        }
        ctx cx = {&f, "atomic_bf16", 0};
        check_u32(&cx, "atomicAdd(bf16) counter", ctr[0], 0x4380); /* 256.0 */
        check_u32(&cx, "atomicAdd(bf162) counter", ctr2[0], 0x4300u | 0xc4000000u); /* 128, -512 */
        test_corpus_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv_to), cmocka_unit_test(test_conv_from),
        cmocka_unit_test(test_arith),   cmocka_unit_test(test_arith2),
        cmocka_unit_test(test_math),    cmocka_unit_test(test_shfl),
        cmocka_unit_test(test_mem),     cmocka_unit_test(test_atomic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
