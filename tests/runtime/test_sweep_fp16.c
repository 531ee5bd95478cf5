/* tests/runtime/test_sweep_fp16.c — the cuda_fp16.h intrinsics sweep:
 * tests/corpus/cuda/sweep_fp16.cu as nvcc 13 compiles it for sm_75, sm_80
 * and sm_90 (committed PTX from scripts/regen-ptx.sh), run through the C API,
 * every result checked against a CPU model written from the CUDA Math API
 * documentation (the comments in cuda_fp16.h) and the PTX ISA manual.
 *
 * The model: a half is IEEE binary16.  Every exactly specified operation is
 * checked bit for bit: conversions round the exact input once in the named
 * mode (h_round below works on exact integer * 2^e values); add, sub, mul,
 * div and sqrt of halves are computed in double and rounded once (exact for
 * add/sub/mul; correct for div/sqrt since 53 >= 2*11 + 2); fma is the exact
 * product plus addend in scaled __int128 arithmetic, rounded once.  NaN
 * results are checked to be NaN, and to be the canonical NaN 0x7fff where the
 * Math API says so (__hmax/__hmin of two NaNs, the _nan forms, __hfma_relu).
 * The manuals do not say which sign a clamped zero takes in the .sat and
 * .relu forms, so a -0 result of those may come back as either zero.
 *
 * The math functions (hsqrt hrsqrt hrcp hexp hexp2 hexp10 hlog hlog2 hlog10
 * htanh and h2 forms): the Math API calls them "round-to-nearest-even" but
 * states no error bound; the header evaluates them in f32 with .approx.f32
 * instructions (PTX ISA bounds of about 2^-22 relative), then rounds once to
 * half, so the result must be one of the two halves that bracket the exact
 * value (at most 1 ulp away; special values exact as the Math API lists
 * them; see apply_spec for the header's per-input corrections).  hsin and
 * hcos use IEEE f32 operations only, so they are checked to be correctly
 * rounded, as the Math API says.  htanh_approx is tanh.approx.f16,
 * checked against the PTX ISA bound: absolute error at most 2^-10.987. */
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

/* n threads in blocks of 64 */
static void launch(test_corpus *f, const char *k, unsigned n, void **args)
{
    test_corpus_launch(f, k, (n + 63) / 64, 64, args);
}

/* kernel(const T *in, U *out, int n) on n threads */
static void run_n(test_corpus *f, const char *k, unsigned n, const void *in, size_t in_bytes,
                  void *out, size_t out_bytes)
{
    ptxemu_dptr din = test_corpus_upload(f, in, in_bytes),
                dout = test_corpus_upload(f, NULL, out_bytes);
    int nn = (int)n;
    void *args[] = {&din, &dout, &nn};
    launch(f, k, n, args);
    test_corpus_download(f, out, dout, out_bytes);
}

/* ------------------------------------------------------------ half model */

enum { RN, RZ, RD, RU };

static bool h_isnan(uint16_t h)
{
    return (h & 0x7fffu) > 0x7c00u;
}

static bool h_isinf(uint16_t h)
{
    return (h & 0x7fffu) == 0x7c00u;
}

/* exact value of a finite or infinite half */
static double h_val(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, -24);
    else
        v = ldexp(m | 0x400u, (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}

/* finite half as sign, integer significand, exponent: v = m * 2^e, e >= -24 */
static void h_split(uint16_t h, bool *neg, uint32_t *m, int *e)
{
    unsigned ex = (h >> 10) & 0x1fu;
    *neg = h >> 15;
    *m = ex ? (h & 0x3ffu) | 0x400u : h & 0x3ffu;
    *e = ex ? (int)ex - 25 : -24;
}

/* Rounds (-1)^neg * mag * 2^e, mag exact, to binary16 in `mode`. */
static uint16_t h_round(bool neg, unsigned __int128 mag, int e, int mode)
{
    uint16_t s = neg ? 0x8000u : 0;
    if (mag == 0)
        return s;
    int p = 127;
    while (!((mag >> p) & 1u))
        p--;
    int E = p + e;                     /* exponent of the leading bit */
    int qe = E - 10 > -24 ? E - 10 : -24; /* exponent of one ulp */
    int sh = qe - e;
    unsigned __int128 m;
    bool inexact = false, above = false, tie = false;
    if (sh <= 0) {
        m = mag << -sh;
    } else if (sh > 127) {
        m = 0;
        inexact = true;
    } else {
        m = mag >> sh;
        unsigned __int128 rem = mag & ((((unsigned __int128)1) << sh) - 1);
        unsigned __int128 half = ((unsigned __int128)1) << (sh - 1);
        inexact = rem != 0;
        above = rem > half;
        tie = rem == half;
    }
    bool up = false;
    switch (mode) {
    case RN: up = above || (tie && (m & 1u)); break;
    case RZ: up = false; break;
    case RD: up = neg && inexact; break;
    default: up = !neg && inexact; break;
    }
    if (up)
        m++;
    if (m >= 2048) {
        m >>= 1;
        qe++;
    }
    if (m == 0)
        return s;
    if (m < 1024)
        return (uint16_t)(s | (uint16_t)m);
    int field = qe + 25;
    if (field >= 31) {
        bool to_inf = mode == RN || (mode == RU && !neg) || (mode == RD && neg);
        return (uint16_t)(s | (to_inf ? 0x7c00u : 0x7bffu));
    }
    return (uint16_t)(s | (uint16_t)(field << 10) | (uint16_t)(m & 0x3ffu));
}

static uint16_t h_from_double(double d, int mode)
{
    if (isnan(d))
        return 0x7fff;
    if (isinf(d))
        return d < 0 ? 0xfc00u : 0x7c00u;
    int e;
    double fr = frexp(fabs(d), &e); /* fabs(d) = fr * 2^e, fr in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(fr, 53);
    return h_round(signbit(d) != 0, m, e - 53, mode);
}

static uint16_t h_from_i(bool neg, uint64_t mag, int mode)
{
    return h_round(neg, mag, 0, mode);
}

/* exact fma: all products and addends are multiples of 2^-48 */
static uint16_t h_fma(uint16_t a, uint16_t b, uint16_t c, int mode)
{
    if (h_isnan(a) || h_isnan(b) || h_isnan(c))
        return 0x7fff;
    bool pneg = (a ^ b) >> 15;
    bool ainf = h_isinf(a), binf = h_isinf(b), cinf = h_isinf(c);
    bool azero = !(a & 0x7fffu), bzero = !(b & 0x7fffu);
    if ((ainf && bzero) || (binf && azero))
        return 0x7fff;
    if (ainf || binf) {
        if (cinf && (c >> 15) != pneg)
            return 0x7fff;
        return pneg ? 0xfc00u : 0x7c00u;
    }
    if (cinf)
        return c;
    bool an, bn, cn;
    uint32_t am, bm, cm;
    int ae, be, ce;
    h_split(a, &an, &am, &ae);
    h_split(b, &bn, &bm, &be);
    h_split(c, &cn, &cm, &ce);
    __int128 p = (__int128)((uint64_t)am * bm) << (ae + be + 48);
    __int128 q = (__int128)cm << (ce + 48);
    __int128 sum = (pneg ? -p : p) + (cn ? -q : q);
    if (sum == 0) {
        bool zneg;
        if (p == 0 && q == 0 && pneg == cn)
            zneg = cn;
        else
            zneg = mode == RD;
        return zneg ? 0x8000u : 0;
    }
    bool neg = sum < 0;
    return h_round(neg, (unsigned __int128)(neg ? -sum : sum), -48, mode);
}

static uint16_t h_add(uint16_t a, uint16_t b)
{
    return h_fma(a, 0x3c00, b, RN);
}

static uint16_t h_sub(uint16_t a, uint16_t b)
{
    return h_fma(a, 0x3c00, b ^ 0x8000u, RN);
}

static uint16_t h_mul(uint16_t a, uint16_t b)
{
    /* a*b + (-0): exact product, sign of a zero product kept */
    return h_fma(a, b, 0x8000u, RN);
}

static uint16_t h_div(uint16_t a, uint16_t b)
{
    return h_from_double(h_val(a) / h_val(b), RN);
}

/* clamp to [0, 1], NaN -> +0 (PTX .sat; Math API "_sat") */
static uint16_t h_sat(uint16_t r)
{
    if (h_isnan(r))
        return 0;
    if (r & 0x8000u)
        return (r & 0x7fffu) ? 0 : r; /* -0 stays "a zero"; see same_zero() */
    return h_val(r) > 1.0 ? 0x3c00u : r;
}

static uint16_t h_relu(uint16_t r)
{
    if (h_isnan(r))
        return 0x7fff;
    return ((r & 0x8000u) && (r & 0x7fffu)) ? 0 : r;
}

/* __hmax/__hmin: NaN loses, two NaNs give the canonical NaN, +0 > -0 */
static uint16_t h_max(uint16_t a, uint16_t b, bool nan_wins, bool is_max)
{
    if (h_isnan(a) || h_isnan(b)) {
        if (nan_wins || (h_isnan(a) && h_isnan(b)))
            return 0x7fff;
        return h_isnan(a) ? b : a;
    }
    double x = h_val(a), y = h_val(b);
    if (x == y && x == 0) {
        bool aneg = a >> 15, bneg = b >> 15;
        if (is_max)
            return (aneg && bneg) ? 0x8000u : 0;
        return (aneg || bneg) ? 0x8000u : 0;
    }
    return is_max ? (x > y ? a : b) : (x < y ? a : b);
}

/* the 12 comparisons in header order: eq ne le ge lt gt, then unordered */
static bool h_cmp(uint16_t a, uint16_t b, unsigned k)
{
    bool un = h_isnan(a) || h_isnan(b);
    double x = h_val(a), y = h_val(b);
    bool r;
    switch (k % 6) {
    case 0: r = x == y; break;
    case 1: r = x != y; break;
    case 2: r = x <= y; break;
    case 3: r = x >= y; break;
    case 4: r = x < y; break;
    default: r = x > y; break;
    }
    if (un)
        return k >= 6; /* ordered forms false, unordered (..u) true */
    return r;
}

/* half -> integer: round in mode, clamp to [lo, hi], NaN -> nan_val */
static uint64_t h_to_int(uint16_t h, int mode, int64_t lo, uint64_t hi, bool is_signed,
                         uint64_t nan_val)
{
    if (h_isnan(h))
        return nan_val;
    double v = h_val(h), r;
    switch (mode) {
    case RN: r = nearbyint(v); break;
    case RZ: r = trunc(v); break;
    case RD: r = floor(v); break;
    default: r = ceil(v); break;
    }
    if (r < (double)lo)
        return (uint64_t)lo;
    if (r > (double)hi)
        return hi;
    if (is_signed)
        return (uint64_t)(int64_t)r;
    return (uint64_t)r;
}

static uint16_t h_rint(uint16_t h, int mode)
{
    if (h_isnan(h) || h_isinf(h))
        return h;
    double v = h_val(h), r;
    switch (mode) {
    case RN: r = nearbyint(v); break;
    case RZ: r = trunc(v); break;
    case RD: r = floor(v); break;
    default: r = ceil(v); break;
    }
    if (r == 0)
        return h & 0x8000u; /* keeps the sign of the input */
    return h_from_double(r, RN);
}

static uint32_t f_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float f_from(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ------------------------------------------------------------- checking */

static void fail_at(const test_corpus *f, const char *what, unsigned i, uint32_t in, uint64_t got,
                    uint64_t want)
{
    fail_msg("sm_%u %s input %u (0x%08x): got 0x%llx, want 0x%llx", f->sm, what, i, in,
             (unsigned long long)got, (unsigned long long)want);
}

static void check_eq(const test_corpus *f, const char *what, unsigned i, uint32_t in, uint64_t got,
                     uint64_t want)
{
    if (got != want)
        fail_at(f, what, i, in, got, want);
}

/* a half result: NaN matches any NaN unless the canonical NaN is required */
static void check_h(const test_corpus *f, const char *what, unsigned i, uint32_t in, uint16_t got,
                    uint16_t want)
{
    if (h_isnan(want) && want != 0x7fff) {
        if (!h_isnan(got))
            fail_at(f, what, i, in, got, want);
        return;
    }
    if (want == 0x7fff && h_isnan(got))
        return;
    check_eq(f, what, i, in, got, want);
}

static void check_h_canon(const test_corpus *f, const char *what, unsigned i, uint32_t in,
                          uint16_t got, uint16_t want)
{
    check_eq(f, what, i, in, got, want);
}

/* either zero where the model gives a zero of unspecified sign (-0 clamped) */
static void check_h_sat(const test_corpus *f, const char *what, unsigned i, uint32_t in,
                        uint16_t got, uint16_t want)
{
    if (want == 0x8000u && (got == 0 || got == 0x8000u))
        return;
    check_eq(f, what, i, in, got, want);
}

/* ------------------------------------------------------------ the inputs */

static const uint16_t edges[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400, 0x0401,
    0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x3c02, 0x3800, 0xb800, 0x3400, 0x3a00, 0x3e00, 0xbe00,
    0x4000, 0x4100, 0xc100, 0x4200, 0x4300, 0x4500, 0x4700, 0xc900, 0x3555, 0x2e66, 0x4248,
    0x5640, 0xd640, 0x5bff, 0x5c00, 0x6800, 0x6801, 0x7000, 0x7800, 0xf800, 0x7a00, 0x7bff,
    0xfbff, 0x7bfe, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x7fff, 0x1400, 0x9400, 0x5a00,
    0x57ff, 0x5800, 0x5801, 0xd801,
};
#define NEDGE (sizeof edges / sizeof edges[0])

/* random halves: half of them of moderate magnitude (2^-6 .. 2^6) so that
 * sums cancel and round, half any bit pattern */
static uint16_t rand_half(uint32_t *s)
{
    uint32_t r = test_rng(s);
    if (r & 1u)
        return (uint16_t)(r >> 16);
    uint32_t ex = 9 + (r >> 8) % 13;
    return (uint16_t)(((r >> 3) & 0x8000u) | (ex << 10) | ((r >> 17) & 0x3ffu));
}

/* one-operand inputs: the edges, then all 65536 patterns */
static unsigned unary_inputs(uint16_t *in, unsigned cap)
{
    unsigned n = 0;
    for (unsigned i = 0; i < NEDGE; i++)
        in[n++] = edges[i];
    for (uint32_t b = 0; b < 65536 && n < cap; b++)
        in[n++] = (uint16_t)b;
    uint32_t seed = 12345;
    while (n < cap)
        in[n++] = rand_half(&seed);
    return n;
}

/* ------------------------------------------------------------- from_half */

#define NU (65536 + 128) /* every half, after the edges */

static void test_from_half(void **state)
{
    (void)state;
    static uint16_t in[NU];
    static uint64_t out[NU * 40];
    unsigned n = unary_inputs(in, NU);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        run_n(&f, "from_half", n, in, sizeof in, out, sizeof out);
        static const char *const modes[] = {"rn", "rz", "rd", "ru"};
        for (unsigned i = 0; i < n; i++) {
            uint16_t h = in[i];
            const uint64_t *o = out + 40 * i;
            char what[64];
            uint32_t fb = f_bits((float)h_val(h));
            if (h_isnan(h)) {
                if (!isnan(f_from((uint32_t)o[0])))
                    fail_at(&f, "__half2float", i, h, o[0], 0x7fffffff);
            } else {
                check_eq(&f, "__half2float", i, h, o[0], fb);
            }
            for (int m = 0; m < 4; m++) {
                snprintf(what, sizeof what, "__half2int_%s", modes[m]);
                check_eq(&f, what, i, h, o[1 + m],
                         (uint32_t)h_to_int(h, m, INT32_MIN, INT32_MAX, true, 0));
                snprintf(what, sizeof what, "__half2uint_%s", modes[m]);
                check_eq(&f, what, i, h, o[5 + m], h_to_int(h, m, 0, UINT32_MAX, false, 0));
                snprintf(what, sizeof what, "__half2ll_%s", modes[m]);
                check_eq(&f, what, i, h, o[9 + m],
                         h_to_int(h, m, INT64_MIN, INT64_MAX, true, 0x8000000000000000ull));
                snprintf(what, sizeof what, "__half2ull_%s", modes[m]);
                check_eq(&f, what, i, h, o[13 + m],
                         h_to_int(h, m, 0, UINT64_MAX, false, 0x8000000000000000ull));
                snprintf(what, sizeof what, "__half2short_%s", modes[m]);
                check_eq(&f, what, i, h, o[17 + m],
                         (uint16_t)h_to_int(h, m, INT16_MIN, INT16_MAX, true, 0));
                snprintf(what, sizeof what, "__half2ushort_%s", modes[m]);
                check_eq(&f, what, i, h, o[21 + m], h_to_int(h, m, 0, UINT16_MAX, false, 0));
            }
            check_eq(&f, "__half2char_rz", i, h, o[25],
                     (uint8_t)h_to_int(h, RZ, INT8_MIN, INT8_MAX, true, 0));
            check_eq(&f, "__half2uchar_rz", i, h, o[26], h_to_int(h, RZ, 0, UINT8_MAX, false, 0));
            check_eq(&f, "__half_as_short", i, h, o[27], h);
            check_eq(&f, "__half_as_ushort", i, h, o[28], h);
            check_eq(&f, "__hisnan", i, h, o[29], h_isnan(h));
            check_eq(&f, "__hisinf", i, h, o[30],
                     h == 0x7c00 ? 1u : h == 0xfc00 ? 0xffffffffu : 0u);
            check_h(&f, "hceil", i, h, (uint16_t)o[31], h_rint(h, RU));
            check_h(&f, "hfloor", i, h, (uint16_t)o[32], h_rint(h, RD));
            check_h(&f, "htrunc", i, h, (uint16_t)o[33], h_rint(h, RZ));
            check_h(&f, "hrint", i, h, (uint16_t)o[34], h_rint(h, RN));
            /* neg and abs are sign-bit operations (PTX neg.f16 / abs.f16) */
            check_h(&f, "__hneg", i, h, (uint16_t)o[35], h ^ 0x8000u);
            check_h(&f, "__habs", i, h, (uint16_t)o[36], h & 0x7fffu);
            check_eq(&f, "__short_as_half", i, h, o[37], h);
            if (h_isnan(h)) {
                if (!isnan(f_from((uint32_t)o[38])))
                    fail_at(&f, "__half2half2+__low2float", i, h, o[38], 0x7fffffff);
            } else {
                check_eq(&f, "__half2half2+__low2float", i, h, o[38], fb);
            }
        }
        test_corpus_close(&f);
    }
}

/* --------------------------------------------------------------- to_half */

#define NT 640

static uint16_t from_float_bits(uint32_t u, int mode)
{
    float x = f_from(u);
    return h_from_double((double)x, mode);
}

static void test_to_half(void **state)
{
    (void)state;
    static float fin[NT];
    static double din[NT];
    static int64_t lin[NT];
    static uint16_t out[NT * 32];
    /* floats: exact halves, halfway points, overflow and underflow bounds */
    static const uint32_t fedge[] = {
        0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
        0xffc00001, 0x477fe000, /* 65504 */ 0x477ff000, /* 65520: halfway to 2^16 */
        0x477fefff, 0xc77ff000, 0x47800000, 0x7f7fffff, 0x33800000, /* 2^-24 */
        0x33000000, /* 2^-25: halfway to 0 */ 0x33000001, 0xb3000000, 0x33c00000, /* 1.5*2^-24 */
        0x34200000, /* 2.5*2^-24 */ 0x3f801000, /* 1 + 2^-11: tie to even */
        0x3f803000, /* 1 + 3*2^-11: tie to odd -> up */ 0x3f801001, 0xbf801000, 0x38800000,
        0x387fc000, /* below the smallest normal */ 0x387fe000, 0x00000001, 0x3eaaaaab,
    };
    static const int64_t ledge[] = {
        0, 1, -1, 2049, -2049, 2051, 4097, 65504, 65519, 65520, 65535, 65536, -65520, 32767,
        -32768, 0x7fffffff, INT64_MIN, INT64_MAX, -2, 0xffffffffll, 0x8000000000000000ll + 2049,
        (int64_t)0xfff0000000000000ll, 3071, 0x10000800, 12345678,
    };
    uint32_t seed = 777;
    for (unsigned i = 0; i < NT; i++) {
        uint32_t r = test_rng(&seed);
        if (i < G_N_ELEMENTS(fedge))
            fin[i] = f_from(fedge[i]);
        else if (r & 1u)
            fin[i] = f_from(test_rng(&seed));
        else /* around the half range */
            fin[i] = f_from(((r & 0x80000000u) | ((100u + (r >> 4) % 60u) << 23) |
                             (test_rng(&seed) & 0x7fffffu)));
        /* doubles: integers scaled into and around the half range */
        double d =
            ldexp((double)(int64_t)(test_rng(&seed) | 1u) * (r & 2u ? 1.0 : -1.0), -(int)(r % 60u));
        if (i < 24)
            d = (double)f_from(fedge[i]) * (1.0 + ldexp((double)(i & 3), -40));
        din[i] = d;
        if (i < G_N_ELEMENTS(ledge)) {
            lin[i] = ledge[i];
        } else {
            unsigned bits = (r >> 8) % 64u;
            uint64_t v = ((uint64_t)test_rng(&seed) << 32) | test_rng(&seed);
            v = bits ? v >> (64 - bits) : 0;
            lin[i] = (r & 4u) ? -(int64_t)v : (int64_t)v;
        }
    }
    din[30] = 65520.0;
    din[31] = 65519.99999999;
    din[32] = ldexp(1.0, -25);
    din[33] = ldexp(1.0, -25) * (1 + ldexp(1, -50));
    din[34] = NAN;
    din[35] = -INFINITY;
    din[36] = 1e300;
    din[37] = -1e-300;
    din[38] = 1.0 + ldexp(1.0, -11) + ldexp(1.0, -52); /* just above a tie */
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        ptxemu_dptr df = test_corpus_upload(&f, fin, sizeof fin),
                    dd = test_corpus_upload(&f, din, sizeof din),
                    dl = test_corpus_upload(&f, lin, sizeof lin),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        int nn = NT;
        void *args[] = {&df, &dd, &dl, &dout, &nn};
        launch(&f, "to_half", NT, args);
        test_corpus_download(&f, out, dout, sizeof out);
        static const char *const modes[] = {"rn", "rz", "rd", "ru"};
        for (unsigned i = 0; i < NT; i++) {
            const uint16_t *o = out + 32 * i;
            uint32_t fb = f_bits(fin[i]);
            int64_t l = lin[i];
            char what[64];
            check_h(&f, "__float2half", i, fb, o[0], from_float_bits(fb, RN));
            for (int m = 0; m < 4; m++) {
                snprintf(what, sizeof what, "__float2half_%s", modes[m]);
                check_h(&f, what, i, fb, o[1 + m], from_float_bits(fb, m));
            }
            check_h(&f, "__double2half", i, (uint32_t)i, o[5], h_from_double(din[i], RN));
            int32_t iv = (int32_t)(uint32_t)(uint64_t)l;
            uint32_t uv = (uint32_t)(uint64_t)l;
            int16_t sv = (int16_t)(uint16_t)(uint64_t)l;
            uint16_t usv = (uint16_t)(uint64_t)l;
            uint64_t ulv = (uint64_t)l;
            for (int m = 0; m < 4; m++) {
                snprintf(what, sizeof what, "__int2half_%s", modes[m]);
                check_eq(&f, what, i, uv, o[6 + m],
                         h_from_i(iv < 0, iv < 0 ? 0u - (uint64_t)(int64_t)iv : (uint64_t)iv, m));
                snprintf(what, sizeof what, "__uint2half_%s", modes[m]);
                check_eq(&f, what, i, uv, o[10 + m], h_from_i(false, uv, m));
                snprintf(what, sizeof what, "__ll2half_%s", modes[m]);
                check_eq(&f, what, i, uv, o[14 + m],
                         h_from_i(l < 0, l < 0 ? 0u - ulv : ulv, m));
                snprintf(what, sizeof what, "__ull2half_%s", modes[m]);
                check_eq(&f, what, i, uv, o[18 + m], h_from_i(false, ulv, m));
                snprintf(what, sizeof what, "__short2half_%s", modes[m]);
                check_eq(&f, what, i, uv, o[22 + m],
                         h_from_i(sv < 0, (uint64_t)(sv < 0 ? -(int32_t)sv : sv), m));
                snprintf(what, sizeof what, "__ushort2half_%s", modes[m]);
                check_eq(&f, what, i, uv, o[26 + m], h_from_i(false, usv, m));
            }
            check_eq(&f, "__short_as_half", i, uv, o[30], usv);
            check_eq(&f, "__ushort_as_half", i, uv, o[31], usv);
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------ binary operations */

#define NB (NEDGE * NEDGE + 512)

static void binary_inputs(uint16_t *a, uint16_t *b, uint16_t *c)
{
    uint32_t seed = 4242;
    unsigned n = 0;
    for (unsigned i = 0; i < NEDGE; i++)
        for (unsigned j = 0; j < NEDGE; j++, n++) {
            a[n] = edges[i];
            b[n] = edges[j];
            c[n] = (test_rng(&seed) & 1u) ? edges[(i * 7 + j * 3) % NEDGE] : rand_half(&seed);
        }
    for (; n < NB; n++) {
        a[n] = rand_half(&seed);
        b[n] = rand_half(&seed);
        c[n] = rand_half(&seed);
        if (n & 1u) { /* an addend that nearly cancels the product */
            double p = h_val(a[n]) * h_val(b[n]);
            if (isfinite(p))
                c[n] = h_from_double(-p, (int)(n >> 1) & 3) ^ (uint16_t)(test_rng(&seed) & 1u);
        }
    }
}

/* expected scalar results, index k as in half_arith (0..28) */
static uint16_t arith_model(uint16_t a, uint16_t b, uint16_t c, unsigned k)
{
    switch (k) {
    case 0: case 7: return h_add(a, b);
    case 1: case 8: return h_sub(a, b);
    case 2: case 9: return h_mul(a, b);
    case 3: return h_div(a, b);
    case 4: return h_sat(h_add(a, b));
    case 5: return h_sat(h_sub(a, b));
    case 6: return h_sat(h_mul(a, b));
    case 10: return h_fma(a, b, c, RN);
    case 11: return h_sat(h_fma(a, b, c, RN));
    case 12: return h_relu(h_fma(a, b, c, RN));
    case 13: return h_max(a, b, false, true);
    case 14: return h_max(a, b, false, false);
    case 15: return h_max(a, b, true, true);
    case 16: return h_max(a, b, true, false);
    default: return h_cmp(a, b, k - 17);
    }
}

static const char *const arith_names[] = {
    "__hadd", "__hsub", "__hmul", "__hdiv", "__hadd_sat", "__hsub_sat", "__hmul_sat",
    "__hadd_rn", "__hsub_rn", "__hmul_rn", "__hfma", "__hfma_sat", "__hfma_relu", "__hmax",
    "__hmin", "__hmax_nan", "__hmin_nan", "__heq", "__hne", "__hle", "__hge", "__hlt", "__hgt",
    "__hequ", "__hneu", "__hleu", "__hgeu", "__hltu", "__hgtu",
};

static void check_arith(const test_corpus *f, const char *name, unsigned i, uint32_t in, unsigned k,
                        uint16_t got, uint16_t want)
{
    if (k == 4 || k == 5 || k == 6 || k == 11 || k == 12)
        check_h_sat(f, name, i, in, got, want);
    else if (k >= 13 && k <= 16)
        check_h_canon(f, name, i, in, got, want);
    else if (k >= 17)
        check_eq(f, name, i, in, got, want);
    else
        check_h(f, name, i, in, got, want);
}

/* kernel(a, b, c, out, n) on NB threads: a and b halves, c halves or doubles */
static void run_abc(test_corpus *f, const char *k, const uint16_t a[NB], const uint16_t b[NB],
                    const void *c, size_t c_bytes, void *out, size_t out_bytes)
{
    ptxemu_dptr da = test_corpus_upload(f, a, NB * sizeof a[0]),
                db = test_corpus_upload(f, b, NB * sizeof b[0]),
                dc = test_corpus_upload(f, c, c_bytes),
                dout = test_corpus_upload(f, NULL, out_bytes);
    int nn = NB;
    void *args[] = {&da, &db, &dc, &dout, &nn};
    launch(f, k, NB, args);
    test_corpus_download(f, out, dout, out_bytes);
}

static void test_half_arith(void **state)
{
    (void)state;
    static uint16_t a[NB], b[NB], c[NB], out[NB * 32];
    binary_inputs(a, b, c);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        run_abc(&f, "half_arith", a, b, c, sizeof c, out, sizeof out);
        for (unsigned i = 0; i < NB; i++) {
            uint32_t in = (uint32_t)a[i] << 16 | b[i];
            for (unsigned k = 0; k < 29; k++) {
                char what[96];
                snprintf(what, sizeof what, "%s (c=0x%04x)", arith_names[k], c[i]);
                check_arith(&f, what, i, in, k, out[32 * i + k], arith_model(a[i], b[i], c[i], k));
            }
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------ half2 ops */

static uint16_t lo16(uint32_t v)
{
    return (uint16_t)v;
}

static uint16_t hi16(uint32_t v)
{
    return (uint16_t)(v >> 16);
}

static uint32_t pk(uint16_t lo, uint16_t hi)
{
    return (uint32_t)hi << 16 | lo;
}

/* a half2 result checked lane by lane with the scalar rules of result k */
static void check_h2(const test_corpus *f, const char *name, unsigned i, uint32_t in, unsigned k,
                     uint32_t got, uint32_t want)
{
    char what[96];
    snprintf(what, sizeof what, "%s (low)", name);
    check_arith(f, what, i, in, k, lo16(got), lo16(want));
    snprintf(what, sizeof what, "%s (high)", name);
    check_arith(f, what, i, in, k, hi16(got), hi16(want));
}

static void test_half2_ops(void **state)
{
    (void)state;
    static uint16_t a[NB], b[NB], c[NB];
    static uint32_t a2[NB], b2[NB], c2[NB], out[NB * 80];
    static float fin[2 * NB];
    binary_inputs(a, b, c);
    uint32_t seed = 99;
    for (unsigned i = 0; i < NB; i++) {
        unsigned j = (i * 37u + 11u) % NB;
        a2[i] = pk(a[i], a[j]);
        b2[i] = pk(b[i], b[j]);
        c2[i] = pk(c[i], c[j]);
        for (unsigned k = 0; k < 2; k++) {
            uint32_t r = test_rng(&seed);
            fin[2 * i + k] = (r & 1u) ? f_from(test_rng(&seed))
                                      : f_from((r & 0x80000000u) | ((100u + (r >> 4) % 50u) << 23) |
                                               (test_rng(&seed) & 0x7fffffu));
        }
    }
    fin[0] = f_from(0x3f801000); /* ties */
    fin[1] = f_from(0x477ff000);
    fin[2] = f_from(0x33000000);
    fin[3] = f_from(0x7fc00000);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        ptxemu_dptr da = test_corpus_upload(&f, a2, sizeof a2),
                    db = test_corpus_upload(&f, b2, sizeof b2),
                    dc = test_corpus_upload(&f, c2, sizeof c2),
                    dfin = test_corpus_upload(&f, fin, sizeof fin),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        int nn = NB;
        void *args[] = {&da, &db, &dc, &dfin, &dout, &nn};
        launch(&f, "half2_ops", NB, args);
        test_corpus_download(&f, out, dout, sizeof out);
        static const char *const names2[] = {
            "__hadd2", "__hsub2", "__hmul2", "__h2div", "__hadd2_sat", "__hsub2_sat",
            "__hmul2_sat", "__hadd2_rn", "__hsub2_rn", "__hmul2_rn", "__hfma2", "__hfma2_sat",
            "__hfma2_relu", "__hmax2", "__hmin2", "__hmax2_nan", "__hmin2_nan",
        };
        static const char *const cmp2[] = {"eq", "ne", "le", "ge", "lt", "gt",
                                           "equ", "neu", "leu", "geu", "ltu", "gtu"};
        for (unsigned i = 0; i < NB; i++) {
            const uint32_t *o = out + 80 * i;
            uint32_t x = a2[i], y = b2[i], z = c2[i];
            uint16_t xl = lo16(x), xh = hi16(x), yl = lo16(y), yh = hi16(y), zl = lo16(z),
                     zh = hi16(z);
            char what[96];
            for (unsigned k = 0; k < 17; k++)
                check_h2(&f, names2[k], i, x, k, o[k],
                         pk(arith_model(xl, yl, zl, k), arith_model(xh, yh, zh, k)));
            /* __hcmadd: the Math API gives it as two chained __hfma per lane */
            uint16_t re = h_fma(xh ^ 0x8000u, yh, h_fma(xl, yl, zl, RN), RN);
            uint16_t im = h_fma(xh, yl, h_fma(xl, yh, zh, RN), RN);
            check_h2(&f, "__hcmadd", i, x, 10, o[17], pk(re, im));
            check_h2(&f, "__hneg2", i, x, 0, o[18], x ^ 0x80008000u);
            check_h2(&f, "__habs2", i, x, 0, o[19], x & 0x7fff7fffu);
            for (unsigned k = 0; k < 12; k++) {
                bool rl = h_cmp(xl, yl, k), rh = h_cmp(xh, yh, k);
                snprintf(what, sizeof what, "__h%s2", cmp2[k]);
                check_eq(&f, what, i, x, o[20 + k],
                         pk(rl ? 0x3c00u : 0, rh ? 0x3c00u : 0));
                snprintf(what, sizeof what, "__h%s2_mask", cmp2[k]);
                check_eq(&f, what, i, x, o[32 + k], pk(rl ? 0xffffu : 0, rh ? 0xffffu : 0));
                snprintf(what, sizeof what, "__hb%s2", cmp2[k]);
                check_eq(&f, what, i, x, o[44 + k], rl && rh);
            }
            check_eq(&f, "__hisnan2", i, x, o[56],
                     pk(h_isnan(xl) ? 0x3c00u : 0, h_isnan(xh) ? 0x3c00u : 0));
            check_eq(&f, "__lowhigh2highlow", i, x, o[57], pk(xh, xl));
            check_eq(&f, "__low2half", i, x, o[58], xl);
            check_eq(&f, "__high2half", i, x, o[59], xh);
            check_eq(&f, "__halves2half2", i, x, o[60], pk(xl, yh));
            check_eq(&f, "__low2half2", i, x, o[61], pk(xl, xl));
            check_eq(&f, "__high2half2", i, x, o[62], pk(xh, xh));
            check_eq(&f, "__lows2half2", i, x, o[63], pk(xl, yl));
            check_eq(&f, "__highs2half2", i, x, o[64], pk(xh, yh));
            check_eq(&f, "__half2half2", i, x, o[65], pk(zh, zh));
            const uint32_t fl[4] = {o[66], o[67], o[68], o[69]};
            const uint16_t hs[4] = {xl, xh, yl, yh};
            static const char *const fnames[] = {"__low2float", "__high2float",
                                                 "__half22float2.x", "__half22float2.y"};
            for (unsigned k = 0; k < 4; k++) {
                if (h_isnan(hs[k])) {
                    if (!isnan(f_from(fl[k])))
                        fail_at(&f, fnames[k], i, x, fl[k], 0x7fffffff);
                } else {
                    check_eq(&f, fnames[k], i, x, fl[k], f_bits((float)h_val(hs[k])));
                }
            }
            uint32_t f0 = f_bits(fin[2 * i]), f1 = f_bits(fin[2 * i + 1]);
            uint16_t r0 = from_float_bits(f0, RN), r1 = from_float_bits(f1, RN);
            check_h2(&f, "__float22half2_rn", i, f0, 0, o[70], pk(r0, r1));
            check_h2(&f, "__float2half2_rn", i, f0, 0, o[71], pk(r0, r0));
            check_h2(&f, "__floats2half2_rn", i, f0, 0, o[72], pk(r0, r1));
            check_eq(&f, "make_half2", i, x, o[73], pk(xl, yl));
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------------ math */

typedef struct math_fn {
    const char *name;
    double (*fn)(double);
} math_fn;

static double m_rsqrt(double x)
{
    return 1.0 / sqrt(x);
}

static double m_rcp(double x)
{
    return 1.0 / x;
}

static double m_exp10(double x)
{
    return pow(10.0, x);
}

static const math_fn math_fns[] = {
    {"hsqrt", sqrt}, {"hrsqrt", m_rsqrt}, {"hrcp", m_rcp},  {"hexp", exp},
    {"hexp2", exp2}, {"hexp10", m_exp10}, {"hlog", log},    {"hlog2", log2},
    {"hlog10", log10}, {"hsin", sin},     {"hcos", cos},    {"htanh", tanh},
};

/* The header follows the rounded f32 result of hsin hcos hexp hexp10 hlog
 * hlog2 hlog10 with fixed corrections for single inputs (__SPEC_CASE in
 * cuda_fp16.hpp: `set.eq.f16.f16 p, i, SPC; fma.rn.f16 r, p, ULP, r`),
 * which undo the particular error of the GPU's MUFU approximation there.
 * The PTX ISA only bounds .approx.f32, so for those inputs a result one
 * correction away from a bracketing half is as valid: the model applies the
 * header's correction to both bracketing halves. */
typedef struct spec_case {
    uint16_t spc, ulp;
} spec_case;

static uint16_t apply_spec(unsigned k, uint16_t x, uint16_t r)
{
    static const spec_case sin_c[] = {{0x32b3, 0x0800}, {0x5cb0, 0x9000}};
    static const spec_case cos_c[] = {{0x2b7c, 0x1000}};
    static const spec_case exp_c[] = {
        {0x1f79, 0x9400}, {0x25cf, 0x9400}, {0xc13b, 0x0400}, {0xc1ef, 0x0200}};
    static const spec_case exp10_c[] = {
        {0x34de, 0x9800}, {0x9766, 0x9000}, {0x9972, 0x1000}, {0xa5c4, 0x1000}, {0xbf0a, 0x8100}};
    static const spec_case log_c[] = {
        {0x160d, 0x9c00}, {0x3bfe, 0x8010}, {0x3c0b, 0x8080}, {0x6051, 0x1c00}};
    static const spec_case log2_c[] = {{0xa2e2, 0x8080}, {0xbf46, 0x9400}};
    static const spec_case log10_c[] = {
        {0x338f, 0x1000}, {0x33f8, 0x9000}, {0x57e1, 0x9800}, {0x719d, 0x9c00}};
    const spec_case *c = NULL;
    size_t n = 0;
#define SPEC(t) (c = (t), n = G_N_ELEMENTS(t))
    switch (k) {
    case 3: SPEC(exp_c); break;
    case 5: SPEC(exp10_c); break;
    case 6: SPEC(log_c); break;
    case 7: SPEC(log2_c); break;
    case 8: SPEC(log10_c); break;
    case 9: SPEC(sin_c); break;
    case 10: SPEC(cos_c); break;
    default: return r;
    }
#undef SPEC
    uint16_t sign = 0;
    if (k == 9) { /* hsin: on |r| with the sign of r put back, keyed on |x| */
        sign = r & 0x8000u;
        r &= 0x7fffu;
    }
    /* hsin and hcos compare |x|, hlog2 the rounded result, the rest x */
    uint16_t key = k == 7 ? r : (k == 9 || k == 10) ? (uint16_t)(x & 0x7fffu) : x;
    for (size_t j = 0; j < n; j++)
        if (key == c[j].spc) /* set.eq on halves: bit equality here, no NaN/0 keys */
            r = h_fma(0x3c00, c[j].ulp, r, RN);
    return (uint16_t)(r | sign);
}

/* got must be one of the two halves bracketing the exact value y (after the
 * header's corrections, see apply_spec); special results (NaN, infinities,
 * exact zeros and exactly representable values) must be exact */
static void check_faithful(const test_corpus *f, unsigned k, const char *what, unsigned i,
                           uint16_t in, uint16_t got, double y)
{
    uint16_t lo = h_from_double(y, RD), hi = h_from_double(y, RU);
    if (isnan(y)) {
        if (!h_isnan(got))
            fail_at(f, what, i, in, got, 0x7fff);
        return;
    }
    if (got == lo || got == hi || got == apply_spec(k, in, lo) || got == apply_spec(k, in, hi))
        return;
    /* zero results: either sign only where the exact value is not zero */
    if (y != 0 && lo == 0x8000u && got == 0)
        return;
    if (y != 0 && hi == 0x0000u && got == 0x8000u)
        return;
    fail_msg("sm_%u %s input %u (0x%04x = %.9g): got 0x%04x (%.9g), want 0x%04x or 0x%04x "
             "(exact %.12g)",
             f->sm, what, i, in, h_val(in), got, h_val(got), lo, hi, y);
}

static void check_math(const test_corpus *f, unsigned k, unsigned i, uint16_t x, uint16_t got,
                       const char *suffix)
{
    char what[64];
    double v = h_val(x);
    if (k < 12) {
        snprintf(what, sizeof what, "%s%s", math_fns[k].name, suffix);
        double y = math_fns[k].fn(v);
        if (k == 2 && v == 0) /* 1/(+-0) = +-inf */
            y = signbit(v) ? -INFINITY : INFINITY;
        if (k == 1 && v == 0)
            y = signbit(v) ? -INFINITY : INFINITY;
        if (k == 9 || k == 10) {
            /* hsin/hcos: the header evaluates them with IEEE f32 operations
             * only (fma.rn, mul.rn, cvt.rn; no .approx), corrected per input
             * as the Math API's "round-to-nearest-even" requires: the result
             * is the correctly rounded one, bit for bit */
            if (isnan(y)) {
                if (!h_isnan(got))
                    fail_at(f, what, i, x, got, 0x7fff);
            } else {
                check_eq(f, what, i, x, got, h_from_double(y, RN));
            }
            return;
        }
        check_faithful(f, k, what, i, x, got, y);
        return;
    }
    /* htanh_approx: tanh.approx.f16, absolute error <= 2^-10.987 (PTX ISA);
     * Math API special values: +-0 -> +-0, +-inf -> +-1, NaN -> NaN */
    snprintf(what, sizeof what, "htanh_approx%s", suffix);
    if (h_isnan(x)) {
        if (!h_isnan(got))
            fail_at(f, what, i, x, got, 0x7fff);
        return;
    }
    if (!(x & 0x7fffu) || h_isinf(x)) {
        check_eq(f, what, i, x, got, !(x & 0x7fffu) ? x : (x & 0x8000u) | 0x3c00u);
        return;
    }
    if (h_isnan(got) || fabs(h_val(got) - tanh(v)) > exp2(-10.987))
        fail_msg("sm_%u %s input %u (0x%04x = %.9g): got 0x%04x (%.9g), exact %.9g", f->sm, what,
                 i, x, v, got, h_val(got), tanh(v));
}

static void test_half_math(void **state)
{
    (void)state;
    static uint16_t in[NU], out[NU * 16];
    static uint32_t in2[NU], out2[NU * 20];
    unsigned n = unary_inputs(in, NU);
    for (unsigned i = 0; i < n; i++)
        in2[i] = pk(in[i], in[(i * 13u + 5u) % n]);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        run_n(&f, "half_math", n, in, sizeof in, out, sizeof out);
        for (unsigned i = 0; i < n; i++)
            for (unsigned k = 0; k < 13; k++)
                check_math(&f, k, i, in[i], out[16 * i + k], "");
        run_n(&f, "half2_math", n, in2, sizeof in2, out2, sizeof out2);
        static const char *const rnames[] = {"h2ceil", "h2floor", "h2trunc", "h2rint"};
        static const int rmodes[] = {RU, RD, RZ, RN};
        for (unsigned i = 0; i < n; i++) {
            const uint32_t *o = out2 + 20 * i;
            for (unsigned k = 0; k < 13; k++) {
                check_math(&f, k, i, lo16(in2[i]), lo16(o[k]), " (h2, low)");
                check_math(&f, k, i, hi16(in2[i]), hi16(o[k]), " (h2, high)");
            }
            for (unsigned k = 0; k < 4; k++)
                check_h2(&f, rnames[k], i, in2[i], 0, o[13 + k],
                         pk(h_rint(lo16(in2[i]), rmodes[k]), h_rint(hi16(in2[i]), rmodes[k])));
        }
        test_corpus_close(&f);
    }
}

/* --------------------------------------------------------------- shuffles */

/* PTX shfl.sync with the c operand CUDA builds from width: lanes are split
 * in segments of `width`; out-of-segment sources return the own value */
static uint32_t m_shfl(const uint32_t *v, unsigned t, int mode, unsigned arg, unsigned width)
{
    unsigned base = t & ~(width - 1u), src;
    switch (mode) {
    case 0: src = base + (arg & (width - 1u)); break;
    case 1: src = t - arg; if ((int)(t - base) - (int)arg < 0) src = t; break;
    case 2: src = t + arg; if (src >= base + width) src = t; break;
    default: src = t ^ arg; if (src < base || src >= base + width) src = t; break;
    }
    return v[src];
}

static void test_half_shfl(void **state)
{
    (void)state;
    uint32_t in[32], out[32 * 12], seed = 5;
    for (unsigned t = 0; t < 32; t++)
        in[t] = pk(rand_half(&seed), rand_half(&seed));
    uint32_t lo[32];
    for (unsigned t = 0; t < 32; t++)
        lo[t] = lo16(in[t]);
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        test_corpus_run_io(&f, "half_shfl", 1, 32, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 32; t++) {
            const uint32_t *o = out + 12 * t;
            check_eq(&f, "__shfl_sync(half)", t, in[t], o[0], m_shfl(lo, t, 0, (t * 5u + 3u) & 31u, 32));
            check_eq(&f, "__shfl_up_sync(half)", t, in[t], o[1], m_shfl(lo, t, 1, 3, 32));
            check_eq(&f, "__shfl_down_sync(half)", t, in[t], o[2], m_shfl(lo, t, 2, 5, 32));
            check_eq(&f, "__shfl_xor_sync(half)", t, in[t], o[3], m_shfl(lo, t, 3, 9, 32));
            check_eq(&f, "__shfl_sync(half2)", t, in[t], o[4], m_shfl(in, t, 0, (t * 7u + 1u) & 31u, 32));
            check_eq(&f, "__shfl_up_sync(half2)", t, in[t], o[5], m_shfl(in, t, 1, 1, 32));
            check_eq(&f, "__shfl_down_sync(half2)", t, in[t], o[6], m_shfl(in, t, 2, 2, 32));
            check_eq(&f, "__shfl_xor_sync(half2)", t, in[t], o[7], m_shfl(in, t, 3, 17, 32));
            check_eq(&f, "__shfl_sync(half, width 8)", t, in[t], o[8], m_shfl(lo, t, 0, 3, 8));
            check_eq(&f, "__shfl_up_sync(half, width 16)", t, in[t], o[9], m_shfl(lo, t, 1, 2, 16));
            check_eq(&f, "__shfl_down_sync(half2, width 8)", t, in[t], o[10], m_shfl(in, t, 2, 3, 8));
            check_eq(&f, "__shfl_xor_sync(half2, width 16)", t, in[t], o[11], m_shfl(in, t, 3, 5, 16));
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------ loads and stores */

#define NL 96

static void test_half_ldst(void **state)
{
    (void)state;
    uint16_t h[NL], hst[4 * NL];
    uint32_t h2[NL], h2st[4 * NL], lout[12 * NL], seed = 31;
    for (unsigned i = 0; i < NL; i++) {
        h[i] = rand_half(&seed);
        h2[i] = pk(rand_half(&seed), rand_half(&seed));
        if (h_isnan(h[i])) /* neg/abs of a NaN need not keep the payload */
            h[i] = 0x3c00;
        if (h_isnan(lo16(h2[i])) || h_isnan(hi16(h2[i])))
            h2[i] = 0x3c00bc00u;
    }
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        ptxemu_dptr dh = test_corpus_upload(&f, h, sizeof h),
                    dh2 = test_corpus_upload(&f, h2, sizeof h2),
                    dl = test_corpus_upload(&f, NULL, sizeof lout),
                    ds = test_corpus_upload(&f, NULL, sizeof hst),
                    ds2 = test_corpus_upload(&f, NULL, sizeof h2st);
        int nn = NL;
        void *args[] = {&dh, &dh2, &dl, &ds, &ds2, &nn};
        launch(&f, "half_ldst", NL, args);
        test_corpus_download(&f, lout, dl, sizeof lout);
        test_corpus_download(&f, hst, ds, sizeof hst);
        test_corpus_download(&f, h2st, ds2, sizeof h2st);
        static const char *const ln[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"};
        for (unsigned i = 0; i < NL; i++) {
            char what[64];
            for (unsigned k = 0; k < 6; k++) {
                snprintf(what, sizeof what, "%s(__half)", ln[k]);
                check_eq(&f, what, i, h[i], lout[12 * i + k], h[i]);
                snprintf(what, sizeof what, "%s(__half2)", ln[k]);
                check_eq(&f, what, i, h2[i], lout[12 * i + 6 + k], h2[i]);
            }
            check_eq(&f, "__stwb(__half)", i, h[i], hst[4 * i], h[i]);
            check_eq(&f, "__stcg(__half)", i, h[i], hst[4 * i + 1], h[i] ^ 0x8000u);
            check_eq(&f, "__stcs(__half)", i, h[i], hst[4 * i + 2], h[i] & 0x7fffu);
            check_eq(&f, "__stwt(__half)", i, h[i], hst[4 * i + 3], h[i]);
            check_eq(&f, "__stwb(__half2)", i, h2[i], h2st[4 * i], h2[i]);
            check_eq(&f, "__stcg(__half2)", i, h2[i], h2st[4 * i + 1],
                     pk(hi16(h2[i]), lo16(h2[i])));
            check_eq(&f, "__stcs(__half2)", i, h2[i], h2st[4 * i + 2], h2[i] ^ 0x80008000u);
            check_eq(&f, "__stwt(__half2)", i, h2[i], h2st[4 * i + 3], h2[i]);
        }
        test_corpus_close(&f);
    }
}

/* ---------------------------------------------------------------- atomics */

#define NA 128 /* two blocks of 64 */

static void test_half_atomic(void **state)
{
    (void)state;
    uint16_t own[NA], v[NA], own_out[NA], ctr = 0, ctr_out;
    uint32_t own2[NA], v2[NA], own2_out[NA], ctr2 = 0, ctr2_out, old[6 * NA], shout[4],
        seed = 8;
    for (unsigned i = 0; i < NA; i++) {
        own[i] = rand_half(&seed);
        v[i] = i < 8 ? edges[i * 5] : rand_half(&seed);
        own2[i] = pk(rand_half(&seed), rand_half(&seed));
        v2[i] = pk(rand_half(&seed), rand_half(&seed));
    }
    own[0] = 0x3c00; /* 1 + 2^-11: a tie, rounds to even */
    v[0] = 0x1000;
    own[1] = 0x7bff; /* overflow to inf */
    v[1] = 0x5000;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        ptxemu_dptr dc = test_corpus_upload(&f, &ctr, sizeof ctr),
                    dc2 = test_corpus_upload(&f, &ctr2, sizeof ctr2),
                    dow = test_corpus_upload(&f, own, sizeof own),
                    dow2 = test_corpus_upload(&f, own2, sizeof own2),
                    dv = test_corpus_upload(&f, v, sizeof v),
                    dv2 = test_corpus_upload(&f, v2, sizeof v2),
                    dold = test_corpus_upload(&f, NULL, sizeof old),
                    dsh = test_corpus_upload(&f, NULL, sizeof shout);
        int nn = NA;
        void *args[] = {&dc, &dc2, &dow, &dow2, &dv, &dv2, &dold, &dsh, &nn};
        launch(&f, "half_atomic", NA, args);
        test_corpus_download(&f, &ctr_out, dc, sizeof ctr_out);
        test_corpus_download(&f, &ctr2_out, dc2, sizeof ctr2_out);
        test_corpus_download(&f, own_out, dow, sizeof own_out);
        test_corpus_download(&f, own2_out, dow2, sizeof own2_out);
        test_corpus_download(&f, old, dold, sizeof old);
        test_corpus_download(&f, shout, dsh, sizeof shout);
        /* the shared counters: every partial sum is exact, so the final
         * values are fixed and the old values are a permutation of them */
        check_eq(&f, "atomicAdd(__half) total", 0, 0, ctr_out, h_from_double(NA, RN));
        check_eq(&f, "atomicAdd(__half2) total", 0, 0, ctr2_out,
                 pk(h_from_double(0.5 * NA, RN), h_from_double(-2.0 * NA, RN)));
        for (unsigned blk = 0; blk < 2; blk++) {
            check_eq(&f, "atomicAdd(__shared__ __half) total", blk, 0, shout[2 * blk],
                     h_from_double(-0.25 * 64, RN));
            check_eq(&f, "atomicAdd(__shared__ __half2) total", blk, 0, shout[2 * blk + 1],
                     pk(h_from_double(2.0 * 64, RN), h_from_double(0.125 * 64, RN)));
        }
        bool seen[NA] = {false}, seen2[NA] = {false}, seen3[NA] = {false},
             seen4[NA] = {false};
        for (unsigned i = 0; i < NA; i++) {
            const uint32_t *o = old + 6 * i;
            double g = h_val((uint16_t)o[0]);
            double ol = h_val(lo16(o[1])), oh = h_val(hi16(o[1]));
            unsigned k = (unsigned)g, k2 = (unsigned)(ol * 2);
            if (g != k || k >= NA || seen[k])
                fail_at(&f, "atomicAdd(__half) old", i, 0, o[0], 0);
            seen[k] = true;
            if (ol * 2 != k2 || k2 >= NA || seen2[k2] || oh != -2.0 * k2)
                fail_at(&f, "atomicAdd(__half2) old", i, 0, o[1], 0);
            seen2[k2] = true;
            /* shared: per block, old values k * -0.25 and k * (2, 0.125) */
            unsigned base = (i / 64) * 64;
            double s1 = h_val((uint16_t)o[4]) / -0.25;
            double sl = h_val(lo16(o[5])) / 2.0, sh = h_val(hi16(o[5])) / 0.125;
            unsigned k3 = (unsigned)s1, k4 = (unsigned)sl;
            if (s1 != k3 || k3 >= 64 || seen3[base + k3])
                fail_at(&f, "atomicAdd(__shared__ __half) old", i, 0, o[4], 0);
            seen3[base + k3] = true;
            if (sl != k4 || sh != k4 || k4 >= 64 || seen4[base + k4])
                fail_at(&f, "atomicAdd(__shared__ __half2) old", i, 0, o[5], 0);
            seen4[base + k4] = true;
            /* own elements: one round-to-nearest add each (atom.add.noftz) */
            check_eq(&f, "atomicAdd(__half) old own", i, own[i], o[2], own[i]);
            check_h(&f, "atomicAdd(__half) own", i, own[i], own_out[i], h_add(own[i], v[i]));
            check_eq(&f, "atomicAdd(__half2) old own", i, own2[i], o[3], own2[i]);
            check_h2(&f, "atomicAdd(__half2) own", i, own2[i], 0, own2_out[i],
                     pk(h_add(lo16(own2[i]), lo16(v2[i])), h_add(hi16(own2[i]), hi16(v2[i]))));
        }
        test_corpus_close(&f);
    }
}

/* -------------------------------------------------------------- operators */

static void test_half_operators(void **state)
{
    (void)state;
    static uint16_t a[NB], b[NB], c[NB];
    static double d[NB];
    static uint32_t out[NB * 32];
    binary_inputs(a, b, c);
    uint32_t seed = 2024;
    for (unsigned i = 0; i < NB; i++) { /* |d| < 2^40: the int assignment is defined */
        uint32_t r = test_rng(&seed);
        d[i] = ldexp((double)test_rng(&seed) * ((r & 1u) ? 1.0 : -1.0), (int)(r >> 1) % 40 - 40);
    }
    d[0] = 65520.0;
    d[1] = 2049.0;
    d[2] = 1.0 + ldexp(1.0, -11) + ldexp(1.0, -40); /* rounds up once, ties via float */
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_fp16", archs[ai], NULL);
        run_abc(&f, "half_operators", a, b, d, sizeof d, out, sizeof out);
        for (unsigned i = 0; i < NB; i++) {
            const uint32_t *o = out + 32 * i;
            uint16_t x = a[i], y = b[i], one = 0x3c00;
            uint32_t in = (uint32_t)x << 16 | y;
            check_h(&f, "operator+", i, in, (uint16_t)o[0], h_add(x, y));
            check_h(&f, "operator-", i, in, (uint16_t)o[1], h_sub(x, y));
            check_h(&f, "operator*", i, in, (uint16_t)o[2], h_mul(x, y));
            check_h(&f, "operator/", i, in, (uint16_t)o[3], h_div(x, y));
            uint16_t t = h_add(x, y);
            check_h(&f, "operator+=", i, in, (uint16_t)o[4], t);
            t = h_sub(t, y);
            check_h(&f, "operator-=", i, in, (uint16_t)o[5], t);
            t = h_mul(t, y);
            check_h(&f, "operator*=", i, in, (uint16_t)o[6], t);
            t = h_div(t, y);
            check_h(&f, "operator/=", i, in, (uint16_t)o[7], t);
            uint16_t u = h_add(x, one);
            check_h(&f, "operator++ (prefix)", i, in, (uint16_t)o[8], u);
            check_h(&f, "operator++ (postfix)", i, in, (uint16_t)o[9], u);
            u = h_add(u, one);
            check_h(&f, "operator++ (after)", i, in, (uint16_t)o[10], u);
            u = h_sub(u, one);
            check_h(&f, "operator-- (prefix)", i, in, (uint16_t)o[11], u);
            check_h(&f, "operator-- (postfix)", i, in, (uint16_t)o[12], u);
            check_h(&f, "operator- (unary)", i, in, (uint16_t)o[13], x ^ 0x8000u);
            check_eq(&f, "operator+ (unary)", i, in, o[14], x);
            /* == eq, != neu (unordered), > gt, < lt, >= ge, <= le */
            uint32_t flags = (uint32_t)h_cmp(x, y, 0) | (uint32_t)h_cmp(x, y, 7) << 1 |
                             (uint32_t)h_cmp(x, y, 5) << 2 | (uint32_t)h_cmp(x, y, 4) << 3 |
                             (uint32_t)h_cmp(x, y, 3) << 4 | (uint32_t)h_cmp(x, y, 2) << 5;
            check_eq(&f, "operator== != > < >= <=", i, in, o[15], flags);
            /* half2: p = (x, y), q = (y, x) */
            uint32_t p = pk(x, y);
            check_h2(&f, "operator+ (half2)", i, in, 0, o[16], pk(h_add(x, y), h_add(y, x)));
            check_h2(&f, "operator- (half2)", i, in, 0, o[17], pk(h_sub(x, y), h_sub(y, x)));
            check_h2(&f, "operator* (half2)", i, in, 0, o[18], pk(h_mul(x, y), h_mul(y, x)));
            check_h2(&f, "operator/ (half2)", i, in, 0, o[19], pk(h_div(x, y), h_div(y, x)));
            uint16_t rl = h_div(h_sub(h_mul(h_add(x, y), y), y), y);
            uint16_t rh = h_div(h_sub(h_mul(h_add(y, x), x), x), x);
            check_h2(&f, "operator+= *= -= /= (half2)", i, in, 0, o[20], pk(rl, rh));
            uint16_t sl = h_add(x, one), sh = h_add(y, one);
            check_h2(&f, "operator++ (half2)", i, in, 0, o[21], pk(sl, sh));
            check_h2(&f, "operator-- (half2 postfix)", i, in, 0, o[22], pk(sl, sh));
            check_h2(&f, "operator- (half2 unary)", i, in, 0, o[23],
                     pk(h_sub(sl, one) ^ 0x8000u, h_sub(sh, one) ^ 0x8000u));
            /* both lanes: (x op y) and (y op x) */
            static const unsigned kk[6] = {0, 7, 5, 4, 3, 2};
            uint32_t f2 = 0;
            for (unsigned k = 0; k < 6; k++)
                f2 |= (uint32_t)(h_cmp(x, y, kk[k]) && h_cmp(y, x, kk[k])) << k;
            check_eq(&f, "operator== != > < >= <= (half2)", i, p, o[24], f2);
            check_eq(&f, "operator int", i, in, o[25],
                     (uint32_t)h_to_int(x, RZ, INT32_MIN, INT32_MAX, true, 0));
            check_eq(&f, "operator unsigned short", i, in, o[26],
                     h_to_int(x, RZ, 0, UINT16_MAX, false, 0));
            check_eq(&f, "operator signed char", i, in, o[27],
                     (uint32_t)(int32_t)(int8_t)(uint8_t)h_to_int(x, RZ, INT8_MIN, INT8_MAX, true, 0));
            if (h_isnan(x)) {
                if (!isnan(f_from(o[28])))
                    fail_at(&f, "operator float", i, in, o[28], 0x7fffffff);
            } else {
                check_eq(&f, "operator float", i, in, o[28], f_bits((float)h_val(x)));
            }
            check_h(&f, "operator=(double)", i, in, (uint16_t)o[29], h_from_double(d[i], RN));
            int32_t iv = (int32_t)(uint32_t)(uint64_t)(int64_t)d[i];
            check_h(&f, "operator=(int)", i, in, (uint16_t)o[30],
                    h_from_i(iv < 0, iv < 0 ? 0u - (uint64_t)(int64_t)iv : (uint64_t)iv, RN));
            check_h(&f, "operator=(float)", i, in, (uint16_t)o[31],
                    h_from_double((double)(float)d[i], RN));
        }
        test_corpus_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_half), cmocka_unit_test(test_to_half),
        cmocka_unit_test(test_half_arith), cmocka_unit_test(test_half2_ops),
        cmocka_unit_test(test_half_math), cmocka_unit_test(test_half_shfl),
        cmocka_unit_test(test_half_ldst), cmocka_unit_test(test_half_atomic),
        cmocka_unit_test(test_half_operators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
