/* tests/runtime/test_sweep_intrinsics.c — the intrinsics sweep:
 * tests/corpus/cuda/sweep_intrinsics.cu and sweep_atomics.cu as nvcc 13
 * compiles them for sm_75, sm_80 and sm_90 (committed PTX from
 * scripts/regen-ptx.sh), run through the C API.  Every result is checked
 * against a CPU model written from the CUDA Math API reference, the CUDA C++
 * Programming Guide (warp vote/shuffle, atomics) and the PTX ISA manual:
 *   simd_ops   all 82 SIMD video intrinsics, halfword and byte forms
 *              (__vabsdiffu4 and __vadd2 are in test_intrinsics.c as well);
 *   dpx_ops    the 36 DPX functions __viaddmax/__viaddmin/__vimax3/__vimin3
 *              (s16x2, s32, their _relu forms, u16x2, u32), __vimax/__vimin
 *              _relu, __vibmax/__vibmin with their predicates (native
 *              max/min/add .s16x2/.relu instructions on sm_90);
 *   int_ops    __hadd __urhadd __mulhi __mul64hi __umul64hi __sad __umul24
 *              __clzll __ffsll __popcll __brevll __funnelshift_l/r/lc/rc
 *              (shift >= 32 too) __dp4a __dp2a_lo __dp2a_hi (every overload)
 *              __fns (negative, positive and zero offsets);
 *   shfl_ops   __shfl_sync/_up/_down/_xor over int, unsigned, long,
 *              unsigned long, long long, unsigned long long, float, double
 *              at widths 32, 16 and 8;
 *   vote_ops   __all/__any/__uni/__ballot_sync, __activemask and
 *              __ballot_sync/__syncwarp in a divergent branch,
 *              __syncthreads_count/and/or, __threadfence{,_block,_system};
 *   barrier_ops  __barrier_sync, __barrier_sync_count (a named barrier for
 *              two of three warps), syncthreads_count/and/or (bool forms);
 *   space_ops  __isGlobal/__isShared/__isConstant/__isLocal/__isGridConstant
 *              and the __cvta_* conversions both ways;
 *   cache_*    __ldg/__ldcg/__ldca/__ldcs/__ldlu/__ldcv and
 *              __stwb/__stcg/__stcs/__stwt over all 30 scalar and vector
 *              types the headers declare them for;
 *   fp_ops     the directed-rounding double arithmetic of sm_20_intrinsics.h
 *              (__dadd/__dsub/__dmul/__ddiv/__drcp/__dsqrt/__fma _rn/_rz/_ru/
 *              _rd), __fmaf_ieee_*, and the double conversions, bit-exact
 *              against the host's IEEE arithmetic under fesetround (the
 *              manual leaves NaN payloads open: a NaN only has to be NaN);
 *   atomic_sequence  every atomic function of sweep_atomics.cu by one
 *              thread, each returned old value exact (global and shared);
 *   atomic_contend   256 threads (128 on shared memory): order-independent
 *              final values, returned old values as multisets. */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

static const char *const archs[] = {"75", "80", "90"};

static uint64_t rng64(uint32_t *s)
{
    uint64_t hi = test_rng(s);
    return hi << 32 | test_rng(s);
}

static void check(const test_corpus *f, const char *what, unsigned t, unsigned k, uint64_t got,
                  uint64_t want)
{
    if (got != want)
        fail_msg("sm_%u %s thread %u result %u: got 0x%llx, want 0x%llx", f->sm, what, t, k,
                 (unsigned long long)got, (unsigned long long)want);
}

/* ------------------------------------------------------------ SIMD video */

/* Lane i of a 32-bit word split into n lanes of 32/n bits. */
static int32_t lane_s(uint32_t v, unsigned n, unsigned i)
{
    unsigned w = 32 / n;
    int32_t x = (int32_t)((v >> (w * i)) & ((1u << w) - 1));
    return x >= (1 << (w - 1)) ? x - (1 << w) : x;
}

static int32_t lane_u(uint32_t v, unsigned n, unsigned i)
{
    unsigned w = 32 / n;
    return (int32_t)((v >> (w * i)) & ((1u << w) - 1));
}

static int32_t sat(int32_t x, int32_t lo, int32_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* Kernel order within one lane width: 4 unary then 36 binary operations. */
enum {
    V_ABS, V_ABSSS, V_NEG, V_NEGSS,
    V_ADD, V_ADDSS, V_ADDUS, V_SUB, V_SUBSS, V_SUBUS, V_AVGS, V_AVGU, V_HADDU,
    V_ABSDIFFS, V_ABSDIFFU, V_SADS, V_SADU, V_MAXS, V_MAXU, V_MINS, V_MINU,
    V_CMPEQ, V_CMPNE, V_CMPGES, V_CMPGEU, V_CMPGTS, V_CMPGTU, V_CMPLES, V_CMPLEU, V_CMPLTS,
    V_CMPLTU,
    V_SETEQ, V_SETNE, V_SETGES, V_SETGEU, V_SETGTS, V_SETGTU, V_SETLES, V_SETLEU, V_SETLTS,
    V_SETLTU,
    V_COUNT
};

static const char *const v_names[V_COUNT] = {
    "vabs", "vabsss", "vneg", "vnegss", "vadd", "vaddss", "vaddus", "vsub", "vsubss", "vsubus",
    "vavgs", "vavgu", "vhaddu", "vabsdiffs", "vabsdiffu", "vsads", "vsadu", "vmaxs", "vmaxu",
    "vmins", "vminu", "vcmpeq", "vcmpne", "vcmpges", "vcmpgeu", "vcmpgts", "vcmpgtu", "vcmples",
    "vcmpleu", "vcmplts", "vcmpltu", "vseteq", "vsetne", "vsetges", "vsetgeu", "vsetgts",
    "vsetgtu", "vsetles", "vsetleu", "vsetlts", "vsetltu",
};

/* One SIMD intrinsic, lanes of 32/n bits (n = 2 or 4), from the Math API:
 * wrap-around add/sub/abs/neg, signed or unsigned saturation (ss/us), the
 * rounded averages (vavgu: (a+b+1)>>1; vavgs: PTX vavrg semantics, +1 before
 * the shift only when the sum is non-negative), the truncating vhaddu,
 * vcmp* giving an all-ones lane, vset* giving 1 per lane (PTX vset2/vset4),
 * vsad* the scalar sum of the lanes' absolute differences. */
static uint32_t m_simd(unsigned op, unsigned n, uint32_t a, uint32_t b)
{
    unsigned w = 32 / n;
    uint32_t lmask = (1u << w) - 1;
    int32_t smin = -(1 << (w - 1)), smax = (1 << (w - 1)) - 1, umax = (int32_t)lmask;
    uint32_t r = 0, sum = 0;
    for (unsigned i = 0; i < n; i++) {
        int32_t sa = lane_s(a, n, i), sb = lane_s(b, n, i);
        int32_t ua = lane_u(a, n, i), ub = lane_u(b, n, i);
        int32_t v = 0;
        bool c = false, cmp = false, set = false;
        switch (op) {
        case V_ABS: v = sa < 0 ? -sa : sa; break;
        case V_ABSSS: v = sat(sa < 0 ? -sa : sa, smin, smax); break;
        case V_NEG: v = -sa; break;
        case V_NEGSS: v = sat(-sa, smin, smax); break;
        case V_ADD: v = ua + ub; break;
        case V_ADDSS: v = sat(sa + sb, smin, smax); break;
        case V_ADDUS: v = sat(ua + ub, 0, umax); break;
        case V_SUB: v = ua - ub; break;
        case V_SUBSS: v = sat(sa - sb, smin, smax); break;
        case V_SUBUS: v = sat(ua - ub, 0, umax); break;
        case V_AVGS: v = sa + sb >= 0 ? (sa + sb + 1) >> 1 : (sa + sb) >> 1; break;
        case V_AVGU: v = (ua + ub + 1) >> 1; break;
        case V_HADDU: v = (ua + ub) >> 1; break;
        case V_ABSDIFFS: v = sa > sb ? sa - sb : sb - sa; break;
        case V_ABSDIFFU: v = ua > ub ? ua - ub : ub - ua; break;
        case V_SADS: sum += (uint32_t)(sa > sb ? sa - sb : sb - sa); break;
        case V_SADU: sum += (uint32_t)(ua > ub ? ua - ub : ub - ua); break;
        case V_MAXS: v = sa > sb ? sa : sb; break;
        case V_MAXU: v = ua > ub ? ua : ub; break;
        case V_MINS: v = sa < sb ? sa : sb; break;
        case V_MINU: v = ua < ub ? ua : ub; break;
        default: {
            unsigned k = op >= V_SETEQ ? op - V_SETEQ : op - V_CMPEQ;
            set = op >= V_SETEQ;
            cmp = !set;
            switch (k) {
            case 0: c = ua == ub; break;
            case 1: c = ua != ub; break;
            case 2: c = sa >= sb; break;
            case 3: c = ua >= ub; break;
            case 4: c = sa > sb; break;
            case 5: c = ua > ub; break;
            case 6: c = sa <= sb; break;
            case 7: c = ua <= ub; break;
            case 8: c = sa < sb; break;
            default: c = ua < ub; break;
            }
        }
        }
        if (cmp)
            v = c ? (int32_t)lmask : 0;
        if (set)
            v = c ? 1 : 0;
        r |= ((uint32_t)v & lmask) << (w * i);
    }
    return op == V_SADS || op == V_SADU ? sum : r;
}

static void test_simd_ops(void **state)
{
    (void)state;
    static const uint32_t edge[] = {
        0x00000000u, 0xffffffffu, 0x80008000u, 0x7fff7fffu, 0x80808080u, 0x7f7f7f7fu,
        0x7fff8000u, 0x00010001u, 0xffff0001u, 0x01ff80ffu, 0x807f017fu, 0xfffe0002u,
        0x00ff00ffu, 0xff00ff00u, 0x12345678u, 0x1234aba5u, 0x1234aba6u, 0xfefefefeu,
    };
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint32_t in[256], out[128 * 82], seed = 1234;
        for (unsigned i = 0; i < 256; i++)
            in[i] = test_rng(&seed);
        /* every pair of edge values in the first threads, in both orders */
        for (unsigned i = 0; i < 18; i++) {
            in[2 * i] = edge[i];
            in[2 * i + 1] = edge[(i * 5 + 3) % 18];
        }
        in[36] = 0x80008000u; in[37] = 0x80008000u; /* equal minimums */
        in[38] = 0x80808080u; in[39] = 0x7f7f7f7fu;
        in[40] = 0x7f7f7f7fu; in[41] = 0x80808080u;
        in[42] = 0xffffffffu; in[43] = 0x00010001u; /* -1 + 1, avg of -1 and 0 */
        in[44] = 0xfffdfffdu; in[45] = 0x00000000u; /* -3 + 0: halves round away */
        test_corpus_run_io(&f, "simd_ops", 1, 128, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 128; t++) {
            uint32_t a = in[2 * t], b = in[2 * t + 1];
            for (unsigned half = 0; half < 2; half++) {
                unsigned n = half ? 4 : 2;
                for (unsigned op = 0; op < V_COUNT; op++) {
                    uint32_t got = out[82 * t + 41 * half + op], want = m_simd(op, n, a, b);
                    if (got != want)
                        fail_msg("sm_%u __%s%u(0x%08x, 0x%08x): got 0x%08x, want 0x%08x", f.sm,
                                 v_names[op], n, a, b, got, want);
                }
            }
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------------------- DPX */

/* One lane (w = 16 or 32 bits, signed or not) of the DPX functions from the
 * Math API: a + b wraps around in the lane's width; relu = max(x, 0). */
static int64_t lane_val(uint32_t v, unsigned w, unsigned i, bool sgn)
{
    uint32_t x = w == 32 ? v : (v >> (16 * i)) & 0xffffu;
    if (!sgn)
        return x;
    return w == 32 ? (int64_t)(int32_t)x : (int64_t)(int16_t)x;
}

static int64_t wrap_lane(int64_t x, unsigned w, bool sgn)
{
    uint32_t m = w == 32 ? 0xffffffffu : 0xffffu;
    return lane_val((uint32_t)x & m, w, 0, sgn);
}

static int64_t max64(int64_t x, int64_t y)
{
    return x > y ? x : y;
}

static int64_t min64(int64_t x, int64_t y)
{
    return x < y ? x : y;
}

enum { D_ADDMAX, D_ADDMIN, D_MAX3, D_MIN3, D_MAX, D_MIN };

static uint32_t m_dpx(unsigned fn, unsigned w, bool sgn, bool relu, uint32_t a, uint32_t b,
                      uint32_t c)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32 / w; i++) {
        int64_t x = lane_val(a, w, i, sgn), y = lane_val(b, w, i, sgn), z = lane_val(c, w, i, sgn);
        int64_t v;
        switch (fn) {
        case D_ADDMAX: v = max64(wrap_lane(x + y, w, sgn), z); break;
        case D_ADDMIN: v = min64(wrap_lane(x + y, w, sgn), z); break;
        case D_MAX3: v = max64(max64(x, y), z); break;
        case D_MIN3: v = min64(min64(x, y), z); break;
        case D_MAX: v = max64(x, y); break;
        default: v = min64(x, y); break;
        }
        if (relu)
            v = max64(v, 0);
        r |= ((uint32_t)v & (w == 32 ? 0xffffffffu : 0xffffu)) << (w == 32 ? 0 : 16 * i);
    }
    return r;
}

static void test_dpx_ops(void **state)
{
    (void)state;
    static const uint32_t edge[] = {0, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x80008000u,
                                    0x7fff7fffu, 0x00010001u, 0xffff0000u, 0x8000ffffu, 1};
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint32_t in[96], out[32 * 48], seed = 90;
        for (unsigned i = 0; i < 96; i++)
            in[i] = i < 30 ? edge[(i * 7) % 10] : test_rng(&seed);
        test_corpus_run_io(&f, "dpx_ops", 1, 32, in, sizeof in, out, sizeof out);
        static const char *const fam[4] = {"__viaddmax", "__viaddmin", "__vimax3", "__vimin3"};
        for (unsigned t = 0; t < 32; t++) {
            uint32_t a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2], want[48];
            unsigned k = 0;
            for (unsigned fn = 0; fn < 4; fn++) {
                want[k++] = m_dpx(fn, 16, true, false, a, b, c);
                want[k++] = m_dpx(fn, 16, true, true, a, b, c);
                want[k++] = m_dpx(fn, 32, true, false, a, b, c);
                want[k++] = m_dpx(fn, 32, true, true, a, b, c);
                want[k++] = m_dpx(fn, 16, false, false, a, b, c);
                want[k++] = m_dpx(fn, 32, false, false, a, b, c);
            }
            want[k++] = m_dpx(D_MAX, 16, true, true, a, b, 0);
            want[k++] = m_dpx(D_MAX, 32, true, true, a, b, 0);
            want[k++] = m_dpx(D_MIN, 16, true, true, a, b, 0);
            want[k++] = m_dpx(D_MIN, 32, true, true, a, b, 0);
            for (unsigned mx = 0; mx < 2; mx++) { /* __vibmax then __vibmin */
                unsigned fn = mx ? D_MIN : D_MAX;
                for (unsigned form = 0; form < 4; form++) { /* s16x2 s32 u16x2 u32 */
                    unsigned w = form % 2 ? 32 : 16;
                    bool sgn = form < 2;
                    want[k++] = m_dpx(fn, w, sgn, false, a, b, 0);
                    for (unsigned i = w == 16 ? 2 : 1; i-- > 0;) { /* pred_hi, then pred_lo */
                        int64_t x = lane_val(a, w, i, sgn), y = lane_val(b, w, i, sgn);
                        want[k++] = mx ? x <= y : x >= y;
                    }
                }
            }
            for (k = 0; k < 48; k++)
                if (out[48 * t + k] != want[k])
                    fail_msg("sm_%u dpx_ops thread %u result %u (%s family %u)"
                             "(0x%08x, 0x%08x, 0x%08x): got 0x%08x, want 0x%08x", f.sm, t, k,
                             k < 24 ? fam[k / 6] : k < 28 ? "__vimax/__vimin_relu" : "__vib*",
                             k % 6, a, b, c, out[48 * t + k], want[k]);
        }
        test_corpus_close(&f);
    }
}

/* --------------------------------------------------------------- integer */

static uint64_t m_brev64(uint64_t a)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 64; i++)
        r |= ((a >> i) & 1u) << (63 - i);
    return r;
}

static uint32_t m_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    /* PTX ISA fns pseudo-code */
    if (offset == 0)
        return ((mask >> base) & 1u) ? base : 0xffffffffu;
    int pos = (int)base, count = (offset < 0 ? -offset : offset) - 1, inc = offset > 0 ? 1 : -1;
    while (pos >= 0 && pos < 32) {
        if ((mask >> pos) & 1u) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
        pos += inc;
    }
    return 0xffffffffu;
}

/* dp4a/dp2a from the Math API: products of (sign- or zero-extended) parts
 * summed into c, modulo 2^32. */
static uint32_t m_dp4a(uint32_t a, uint32_t b, uint32_t c, bool sgn)
{
    uint32_t r = c;
    for (unsigned i = 0; i < 4; i++) {
        int32_t x = sgn ? (int8_t)(a >> (8 * i)) : (int32_t)((a >> (8 * i)) & 255u);
        int32_t y = sgn ? (int8_t)(b >> (8 * i)) : (int32_t)((b >> (8 * i)) & 255u);
        r += (uint32_t)(x * y);
    }
    return r;
}

static uint32_t m_dp2a(uint32_t a, uint32_t b, uint32_t c, bool sgn, bool hi)
{
    uint32_t r = c;
    for (unsigned i = 0; i < 2; i++) {
        unsigned byte = (hi ? 2 : 0) + i;
        int32_t x = sgn ? (int16_t)(a >> (16 * i)) : (int32_t)((a >> (16 * i)) & 0xffffu);
        int32_t y = sgn ? (int8_t)(b >> (8 * byte)) : (int32_t)((b >> (8 * byte)) & 255u);
        r += (uint32_t)(x * y);
    }
    return r;
}

static void test_int_ops(void **state)
{
    (void)state;
    static const uint64_t edge[] = {
        0, 1, UINT64_MAX, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x80000000ull,
        0x7fffffff80000000ull, 0xffffffff00000001ull, 0x00ffffff00ffffffull,
        0x0000002100000020ull, 0x0000004000000040ull, 0xffffff80ff7f8001ull,
    };
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint64_t in[256], out[128 * 40];
        uint32_t seed = 4321;
        for (unsigned i = 0; i < 256; i++)
            in[i] = rng64(&seed);
        for (unsigned i = 0; i < 24; i++)
            in[i] = edge[(i * 7) % 12] ^ (i >= 12 ? edge[i % 12] : 0);
        test_corpus_run_io(&f, "int_ops", 1, 128, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 128; t++) {
            uint64_t x = in[2 * t], y = in[2 * t + 1];
            uint32_t a = (uint32_t)x, b = (uint32_t)y, c = (uint32_t)(x >> 32);
            int32_t sa = (int32_t)a, sb = (int32_t)b;
            unsigned sh = c & 63u, cl = sh < 32 ? sh : 32;
            uint64_t hilo = (uint64_t)b << 32 | a;
            int64_t d = (int64_t)sa - sb;
            unsigned clz = 0, ffs = 0, popc = 0;
            for (int i = 63; i >= 0 && !((x >> i) & 1u); i--)
                clz++;
            for (unsigned i = 0; i < 64; i++)
                if ((x >> i) & 1u) {
                    ffs = i + 1;
                    break;
                }
            for (unsigned i = 0; i < 64; i++)
                popc += (x >> i) & 1u;
            uint64_t want[29] = {
                (uint32_t)(int32_t)(((int64_t)sa + sb) >> 1),
                (uint32_t)(((uint64_t)a + b + 1) >> 1),
                (uint32_t)(((int64_t)sa * sb) >> 32),
                (uint64_t)(((__int128)(int64_t)x * (int64_t)y) >> 64),
                (uint64_t)(((unsigned __int128)x * y) >> 64),
                (uint32_t)((uint32_t)(d < 0 ? -d : d) + c),
                (uint32_t)((a & 0xffffffu) * (b & 0xffffffu)),
                clz, ffs, popc, m_brev64(x),
                (uint32_t)(hilo >> cl),
                (uint32_t)((hilo << cl) >> 32),
                (uint32_t)((hilo << (c & 31u)) >> 32),
                (uint32_t)(hilo >> (c & 31u)),
                m_dp4a(a, b, c, true), m_dp4a(a, b, c, false),
                m_dp4a(a, b, c, true), m_dp4a(a, b, c, false),
                m_dp2a(a, b, c, true, false), m_dp2a(a, b, c, false, false),
                m_dp2a(a, b, c, true, false), m_dp2a(a, b, c, false, false),
                m_dp2a(a, b, c, true, true), m_dp2a(a, b, c, false, true),
                m_dp2a(a, b, c, true, true), m_dp2a(a, b, c, false, true),
                m_fns(a, c & 31u, (int32_t)(b % 9u) - 4),
                m_fns(a, c & 31u, 0),
            };
            for (unsigned k = 0; k < 29; k++)
                check(&f, "int_ops", t, k, out[40 * t + k], want[k]);
        }
        test_corpus_close(&f);
    }
}

/* ---------------------------------------------------------------- shuffle */

/* Source lane per the Programming Guide: __shfl_sync reads srcLane modulo
 * width within the caller's segment; _up/_down keep the caller's own value
 * when lane -/+ delta leaves the segment; _xor may reach lower segments but
 * a lane of a higher segment gives back the caller's own value. */
static unsigned shfl_src(unsigned lane, unsigned slot)
{
    static const unsigned widths[3] = {32, 16, 8};
    static const unsigned up[3] = {3, 3, 2}, down[3] = {5, 5, 6}, xm[3] = {5, 9, 11};
    unsigned wi = slot / 4, w = widths[wi], seg = lane / w;
    switch (slot % 4) {
    case 0: return seg * w + (((lane * 7u + 3u) & 31u) % w);
    case 1: return lane % w >= up[wi] ? lane - up[wi] : lane;
    case 2: return lane % w + down[wi] < w ? lane + down[wi] : lane;
    default: {
        unsigned j = lane ^ xm[wi];
        return j / w > seg ? lane : j;
    }
    }
}

static void test_shfl_ops(void **state)
{
    (void)state;
    static const char *const types[8] = {"int", "unsigned", "long", "unsigned long",
                                         "long long", "unsigned long long", "float", "double"};
    static const bool wide[8] = {false, false, true, true, true, true, false, true};
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint64_t in[32], out[32 * 96];
        uint32_t seed = 77;
        for (unsigned i = 0; i < 32; i++)
            in[i] = rng64(&seed);
        in[3] = 0x7ff8000000000001ull; /* a NaN double travels bit for bit */
        in[4] = 0xffc00001fff00001ull;
        test_corpus_run_io(&f, "shfl_ops", 1, 32, in, sizeof in, out, sizeof out);
        for (unsigned lane = 0; lane < 32; lane++)
            for (unsigned ty = 0; ty < 8; ty++)
                for (unsigned s = 0; s < 12; s++) {
                    uint64_t v = in[shfl_src(lane, s)];
                    uint64_t want = wide[ty] ? v : (uint32_t)v;
                    uint64_t got = out[96 * lane + 12 * ty + s];
                    if (got != want)
                        fail_msg("sm_%u shfl %s slot %u lane %u: got 0x%llx, want 0x%llx", f.sm,
                                 types[ty], s, lane, (unsigned long long)got,
                                 (unsigned long long)want);
                }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------ vote and barriers */

static void run_vote(test_corpus *f, const uint32_t *in)
{
    uint32_t out[64 * 12];
    test_corpus_run_io(f, "vote_ops", 1, 64, in, 64 * sizeof *in, out, sizeof out);
    uint32_t cnt = 0, and_ = 1, or_ = 0;
    for (unsigned t = 0; t < 64; t++) {
        cnt += (in[t] & 16u) != 0;
        and_ &= (in[t] & 32u) != 0;
        or_ |= (in[t] & 64u) != 0;
    }
    for (unsigned t = 0; t < 64; t++) {
        unsigned w0 = t & ~31u;
        uint32_t all = 1, any = 0, n4 = 0, bal = 0, odd_bal = 0;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t v = in[w0 + l];
            all &= (v & 1u) != 0;
            any |= (v & 2u) != 0;
            n4 += (v & 4u) != 0;
            bal |= (uint32_t)((v & 8u) != 0) << l;
            if (l & 1u)
                odd_bal |= (uint32_t)((v & 128u) != 0) << l;
        }
        const uint32_t *r = out + 12 * t;
        uint32_t want[12] = {
            all, any, n4 == 0 || n4 == 32, 1, bal, cnt, and_, or_,
            (t & 1u) ? 0xaaaaaaaau : 0xdeadu, (t & 1u) ? odd_bal : 0xdeadu,
            in[63 - t] ^ 0x5a5a5a5au, 64,
        };
        for (unsigned k = 0; k < 12; k++)
            check(f, "vote_ops", t, k, r[k], want[k]);
    }
}

static void test_vote_ops(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint32_t in[64], seed = 5;
        for (unsigned t = 0; t < 64; t++)
            in[t] = test_rng(&seed);
        for (unsigned t = 0; t < 32; t++)
            in[t] |= 1u | 4u; /* warp 0: __all_sync and __uni_sync true */
        run_vote(&f, in);
        for (unsigned t = 0; t < 64; t++)
            in[t] = 0xffffffffu; /* every predicate true */
        run_vote(&f, in);
        for (unsigned t = 0; t < 64; t++)
            in[t] = t == 40 ? 0xffu : 0; /* a single thread's predicates */
        run_vote(&f, in);
        test_corpus_close(&f);
    }
}

static void test_barrier_ops(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        for (unsigned round = 0; round < 3; round++) {
            uint32_t in[96], out[96 * 8], seed = 17 + round;
            for (unsigned t = 0; t < 96; t++)
                in[t] = round == 0 ? test_rng(&seed) : round == 1 ? 7u : (t == 95 ? 7u : 0u);
            test_corpus_run_io(&f, "barrier_ops", 1, 96, in, sizeof in, out, sizeof out);
            uint32_t cnt = 0, and_ = 1, or_ = 0;
            for (unsigned t = 0; t < 96; t++) {
                cnt += in[t] & 1u;
                and_ &= (in[t] & 2u) != 0;
                or_ |= (in[t] & 4u) != 0;
            }
            for (unsigned t = 0; t < 96; t++) {
                uint32_t want[8] = {t < 64 ? in[63 - t] : 0, in[95 - t] * 3u, cnt, and_, or_,
                                    0, 0, 0};
                for (unsigned k = 0; k < 8; k++)
                    check(&f, "barrier_ops", t, k, out[8 * t + k], want[k]);
            }
        }
        test_corpus_close(&f);
    }
}

/* ----------------------------------------------- address-space predicates */

static void test_space_ops(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        int32_t pk[4] = {-5, 17, 123456, -99999}, g[32];
        uint32_t out[32 * 12];
        for (unsigned t = 0; t < 32; t++)
            g[t] = 5000 + (int32_t)t;
        static const int32_t cvals[4] = {11, 22, 33, 44};
        ptxemu_dptr dg = test_corpus_upload(&f, g, sizeof g),
                    dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {pk, &dg, &dout};
        test_corpus_launch(&f, "space_ops", 1, 32, args);
        test_corpus_download(&f, out, dout, sizeof out);
        for (unsigned t = 0; t < 32; t++) {
            const uint32_t *r = out + 12 * t;
            /* bit 0 __isGlobal, 1 __isShared, 2 __isConstant, 3 __isLocal,
             * 4 __isGridConstant.  Whether a kernel parameter's generic
             * address also counts as constant space is not specified, so
             * that one bit is not checked for the parameter. */
            check(&f, "isspace(global)", t, 0, r[0], 1);
            check(&f, "isspace(shared)", t, 1, r[1], 2);
            check(&f, "isspace(const)", t, 2, r[2], 4);
            check(&f, "isspace(local)", t, 3, r[3], 8);
            check(&f, "isspace(param)", t, 4, r[4] & ~4u, 16);
            check(&f, "cvta global", t, 5, r[5], 1000u + 5000u + t);
            check(&f, "cvta shared", t, 6, r[6], 1000u + 3u * t);
            check(&f, "cvta const", t, 7, r[7], 1000u + (uint32_t)cvals[t & 3u]);
            check(&f, "cvta local", t, 8, r[8], 1000u + 100u * t + (t & 3u));
            check(&f, "cvta param", t, 9, r[9], (uint32_t)(1000 + pk[t & 3u]));
            check(&f, "shared address delta", t, 10, r[10], 4u * t);
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------ cache-hinted loads and stores */

static void test_cache_ops(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        size_t size;
    } types[] = {
        {"char", 1},     {"schar", 1},      {"short", 2},     {"int", 4},
        {"long", 8},     {"longlong", 8},   {"uchar", 1},     {"ushort", 2},
        {"uint", 4},     {"ulong", 8},      {"ulonglong", 8}, {"float", 4},
        {"double", 8},   {"char2", 2},      {"char4", 4},     {"short2", 4},
        {"short4", 8},   {"int2", 8},       {"int4", 16},     {"longlong2", 16},
        {"uchar2", 2},   {"uchar4", 4},     {"ushort2", 4},   {"ushort4", 8},
        {"uint2", 8},    {"uint4", 16},     {"ulonglong2", 16}, {"float2", 8},
        {"float4", 16},  {"double2", 16},
    };
    static const char *const how[10] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu",
                                        "__ldcv", "__stwb", "__stcg", "__stcs", "__stwt"};
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint32_t seed = 31;
        for (size_t ti = 0; ti < G_N_ELEMENTS(types); ti++) {
            size_t sz = types[ti].size;
            uint8_t in[32 * 16], out[320 * 16];
            for (size_t i = 0; i < 32 * sz; i++)
                in[i] = (uint8_t)test_rng(&seed);
            if (sz >= 4)
                memcpy(in, &(uint32_t){0x7fa00001u}, 4); /* signalling NaN bits */
            memset(out, 0xcc, sizeof out);
            ptxemu_dptr din = test_corpus_upload(&f, in, 32 * sz),
                        dout = test_corpus_upload(&f, out, 320 * sz);
            void *args[] = {&din, &dout};
            char kname[64];
            snprintf(kname, sizeof kname, "cache_%s", types[ti].name);
            test_corpus_launch(&f, kname, 1, 32, args);
            test_corpus_download(&f, out, dout, 320 * sz);
            for (unsigned i = 0; i < 32; i++)
                for (unsigned j = 0; j < 10; j++)
                    if (memcmp(out + (10 * i + j) * sz, in + i * sz, sz) != 0)
                        fail_msg("sm_%u %s(%s) element %u differs", f.sm, how[j],
                                 types[ti].name, i);
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------ directed-rounding double arithmetic */

static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

/* The host's IEEE 754 operations under each rounding mode; the operands and
 * result pass through volatiles so that nothing is evaluated outside the
 * fesetround bracket. */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_RCP, OP_SQRT, OP_FMA, OP_D2F, OP_FMAF, OP_L2D,
       OP_UL2D };

static uint64_t host_op(int op, int mode, double x, double y, double z, uint64_t ll)
{
    volatile double vx = x, vy = y, vz = z;
    volatile float fx = (float)y, fy = (float)z, fz = (float)x;
    volatile uint64_t vl = ll;
    volatile double r = 0;
    volatile float rf = 0;
    fesetround(mode);
    switch (op) {
    case OP_ADD: r = vx + vy; break;
    case OP_SUB: r = vx - vy; break;
    case OP_MUL: r = vx * vy; break;
    case OP_DIV: r = vx / vy; break;
    case OP_RCP: r = 1.0 / vx; break;
    case OP_SQRT: r = sqrt(vx); break;
    case OP_FMA: r = fma(vx, vy, vz); break;
    case OP_D2F: rf = (float)vx; break;
    case OP_FMAF: rf = fmaf(fx, fy, fz); break;
    case OP_L2D: r = (double)(int64_t)vl; break;
    default: r = (double)vl; break;
    }
    fesetround(FE_TONEAREST);
    uint64_t bits = 0;
    if (op == OP_D2F || op == OP_FMAF) {
        float v = rf;
        uint32_t b32;
        memcpy(&b32, &v, 4);
        bits = b32;
    } else {
        double v = r;
        memcpy(&bits, &v, 8);
    }
    return bits;
}

static bool is_nan_bits(uint64_t b, bool single)
{
    if (single)
        return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0 && b >> 32 == 0;
    return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
           (b & 0xfffffffffffffull) != 0;
}

/* PTX cvt float-to-integer: round to an integral value in the given mode,
 * clamp to the destination range.  A NaN from an .f64 source gives
 * 1 << (width - 1) (PTX ISA 9.0, cvt: zero only when the source is not .f64
 * and the destination is not 64-bit). */
static uint64_t m_d2i(double x, int how, bool sgn, unsigned bits)
{
    if (isnan(x))
        return (uint64_t)1 << (bits - 1);
    double r = how == 0 ? nearbyint(x) : how == 1 ? ceil(x) : floor(x);
    if (sgn) {
        double lo = bits == 32 ? -2147483648.0 : -9223372036854775808.0;
        double hi = bits == 32 ? 2147483648.0 : 9223372036854775808.0;
        int64_t v = r < lo ? (bits == 32 ? INT32_MIN : INT64_MIN)
                    : r >= hi ? (bits == 32 ? INT32_MAX : INT64_MAX)
                              : (int64_t)r;
        return bits == 32 ? (uint32_t)(int32_t)v : (uint64_t)v;
    }
    double hi = bits == 32 ? 4294967296.0 : 18446744073709551616.0;
    if (r <= 0)
        return 0;
    if (r >= hi)
        return bits == 32 ? UINT32_MAX : UINT64_MAX;
    return (uint64_t)r;
}

static void test_fp_ops(void **state)
{
    (void)state;
    static const double edge[] = {
        0.0, -0.0, 1.0, -1.0, 3.0, 0.1, 1e308, -1e308, DBL_MIN, 4.9406564584124654e-324,
        -4.9406564584124654e-324, INFINITY, -INFINITY, NAN, 2147483647.5, -2147483648.5,
        4294967295.5, 2.5, -2.5, 0.5, 1.5, -0.5, 9223372036854775808.0, -9223372036854775808.0,
        18446744073709551616.0, 1e-310, 3.4028235677973366e38, 1.4e-45, 7.0, 1.0 / 3.0,
        -2147483649.0, 1e19,
    };
    static const char *const names[] = {"__dadd", "__dsub", "__dmul", "__ddiv", "__drcp",
                                        "__dsqrt", "__fma"};
    static const char *const rnd[] = {"rn", "rz", "ru", "rd"};
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_intrinsics", archs[ai], NULL);
        uint32_t seed = 999;
        /* round 0: edge values; 1, 2: random bits with exponents near 1 and
         * anywhere; 3: halfway cases of the integer conversions and fma
         * cancellation */
        for (unsigned round = 0; round < 4; round++) {
            double in[96];
            uint64_t out[32 * 64];
            for (unsigned t = 0; t < 32; t++) {
                in[3 * t] = edge[t];
                in[3 * t + 1] = t % 3 == 0
                                    ? edge[(t * 7 + 5) % 32]
                                    : ldexp((double)(int32_t)test_rng(&seed), (int)(t % 9) - 33);
                in[3 * t + 2] = t % 4 == 0
                                    ? edge[(t * 11 + 1) % 32]
                                    : ldexp((double)(int32_t)test_rng(&seed), (int)(t % 5) - 40);
            }
            in[3 * 2 + 1] = 3.0; /* 1/3: inexact in every mode */
            in[3 * 3 + 1] = -1.0; /* -1 + -1 ... */
            in[3 * 8 + 1] = -DBL_MIN; /* exact cancellation: -0 under rd */
            for (unsigned i = 0; round > 0 && i < 96; i++) {
                uint64_t bits = rng64(&seed);
                if (round == 1) /* exponent within 2^-64 .. 2^64 */
                    bits = (bits & 0x800fffffffffffffull) |
                           (uint64_t)(1023 - 64 + test_rng(&seed) % 129) << 52;
                memcpy(&in[i], &bits, 8);
                if (round == 3) {
                    double k = (double)((int32_t)test_rng(&seed) >> (test_rng(&seed) % 31));
                    in[i] = i % 3 == 0   ? k + 0.5
                            : i % 3 == 1 ? ldexp(k, -(int)(test_rng(&seed) % 20))
                                         : -in[i - 2] * in[i - 1];
                }
            }
            test_corpus_run_io(&f, "fp_ops", 1, 32, in, sizeof in, out, sizeof out);
            for (unsigned t = 0; t < 32; t++) {
                double x = in[3 * t], y = in[3 * t + 1], z = in[3 * t + 2];
                const uint64_t *r = out + 64 * t;
                uint64_t ly;
                memcpy(&ly, &y, 8);
                char what[64];
                for (unsigned op = 0; op < 7; op++)
                    for (unsigned m = 0; m < 4; m++) {
                        uint64_t want = host_op((int)op, modes[m], x, y, z, 0), got = r[4 * op + m];
                        snprintf(what, sizeof what, "%s_%s(%a, %a, %a)", names[op], rnd[m], x,
                                 y, z);
                        if (is_nan_bits(want, false))
                            check(&f, what, t, 4 * op + m, is_nan_bits(got, false), 1);
                        else
                            check(&f, what, t, 4 * op + m, got, want);
                    }
                for (unsigned m = 0; m < 4; m++) {
                    uint64_t want = host_op(OP_D2F, modes[m], x, y, z, 0), got = r[28 + m];
                    snprintf(what, sizeof what, "__double2float_%s(%a)", rnd[m], x);
                    if (is_nan_bits(want, true))
                        check(&f, what, t, 28 + m, is_nan_bits(got, true), 1);
                    else
                        check(&f, what, t, 28 + m, got, want);
                    want = host_op(OP_FMAF, modes[m], x, y, z, 0);
                    got = r[32 + m];
                    snprintf(what, sizeof what, "__fmaf_ieee_%s", rnd[m]);
                    if (is_nan_bits(want, true))
                        check(&f, what, t, 32 + m, is_nan_bits(got, true), 1);
                    else
                        check(&f, what, t, 32 + m, got, want);
                }
                static const struct {
                    bool sgn;
                    unsigned bits;
                } cv[4] = {{true, 32}, {false, 32}, {true, 64}, {false, 64}};
                for (unsigned c = 0; c < 4; c++)
                    for (unsigned h = 0; h < 3; h++) {
                        snprintf(what, sizeof what, "__double2%s_%s(%a)",
                                 c == 0 ? "int" : c == 1 ? "uint" : c == 2 ? "ll" : "ull",
                                 h == 0 ? "rn" : h == 1 ? "ru" : "rd", x);
                        check(&f, what, t, 36 + 3 * c + h, r[36 + 3 * c + h],
                              m_d2i(x, (int)h, cv[c].sgn, cv[c].bits));
                    }
                double di = (double)(int32_t)(uint32_t)ly, du = (double)(uint32_t)ly;
                uint64_t bi, bu;
                memcpy(&bi, &di, 8);
                memcpy(&bu, &du, 8);
                check(&f, "__int2double_rn", t, 48, r[48], bi);
                check(&f, "__uint2double_rn", t, 49, r[49], bu);
                for (unsigned m = 0; m < 4; m++) {
                    check(&f, "__ll2double", t, 50 + m, r[50 + m],
                          host_op(OP_L2D, modes[m], 0, 0, 0, ly));
                    check(&f, "__ull2double", t, 54 + m, r[54 + m],
                          host_op(OP_UL2D, modes[m], 0, 0, 0, ly));
                }
                uint64_t lx, lz;
                memcpy(&lx, &x, 8);
                memcpy(&lz, &z, 8);
                check(&f, "__double2hiint", t, 58, r[58], lx >> 32);
                check(&f, "__double2loint", t, 59, r[59], (uint32_t)lx);
                check(&f, "__hiloint2double", t, 60, r[60],
                      (uint64_t)(uint32_t)ly << 32 | lz >> 32);
                check(&f, "__longlong_as_double", t, 61, r[61], ly + 1);
            }
        }
        test_corpus_close(&f);
    }
}

/* ---------------------------------------------------------------- atomics */

/* Host mirror of sweep_atomics.cu's Op and Cells (same layout). */
typedef struct {
    int32_t code, pad;
    uint64_t a, b;
} atom_op;

typedef struct {
    int32_t i;
    uint32_t u;
    uint64_t q;
    int64_t l;
    float f;
    uint32_t pad0;
    double d;
    uint16_t s[4];
} atom_cells;

enum { A_ADD, A_SUB, A_EXCH, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_CAS };
enum { T_I, T_U, T_Q, T_L, T_F, T_D };

/* The 36 functions of one scope, in the kernel's order. */
static const struct {
    uint8_t type, fn;
} atom_table[36] = {
    {T_I, A_ADD}, {T_I, A_SUB}, {T_I, A_EXCH}, {T_I, A_MIN}, {T_I, A_MAX}, {T_I, A_AND},
    {T_I, A_OR},  {T_I, A_XOR}, {T_I, A_CAS},
    {T_U, A_ADD}, {T_U, A_SUB}, {T_U, A_EXCH}, {T_U, A_MIN}, {T_U, A_MAX}, {T_U, A_INC},
    {T_U, A_DEC}, {T_U, A_AND}, {T_U, A_OR},  {T_U, A_XOR}, {T_U, A_CAS},
    {T_Q, A_ADD}, {T_Q, A_EXCH}, {T_Q, A_MIN}, {T_Q, A_MAX}, {T_Q, A_AND}, {T_Q, A_OR},
    {T_Q, A_XOR}, {T_Q, A_CAS},
    {T_L, A_MIN}, {T_L, A_MAX}, {T_L, A_AND}, {T_L, A_OR}, {T_L, A_XOR},
    {T_F, A_ADD}, {T_F, A_EXCH}, {T_D, A_ADD},
};
#define ATOM_CODES 109 /* 3 scopes x 36, then the 16-bit atomicCAS */

/* atomicInc/atomicDec from the Programming Guide:
 *   inc: ((old >= val) ? 0 : (old + 1));
 *   dec: (((old == 0) || (old > val)) ? val : (old - 1)). */
static uint32_t m_inc(uint32_t old, uint32_t val)
{
    return old >= val ? 0 : old + 1;
}

static uint32_t m_dec(uint32_t old, uint32_t val)
{
    return old == 0 || old > val ? val : old - 1;
}

/* atom.add.f32 rounds to nearest even and flushes subnormal inputs and
 * results to sign-preserving zero on global memory; on shared memory it
 * keeps them (PTX ISA, atom: the notes on the current implementation);
 * .f64 never flushes. */
static float ftz(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static uint64_t m_apply(atom_cells *c, const atom_op *op, bool shared)
{
    if (op->code == 108) {
        uint16_t *p = &c->s[(op->b >> 16) & 3u], old = *p;
        if (old == (uint16_t)op->b)
            *p = (uint16_t)op->a;
        return old;
    }
    unsigned fn = atom_table[op->code % 36].fn;
    switch (atom_table[op->code % 36].type) {
    case T_I: {
        int32_t old = c->i, a = (int32_t)op->a, r = old;
        switch (fn) {
        case A_ADD: r = (int32_t)((uint32_t)old + (uint32_t)a); break;
        case A_SUB: r = (int32_t)((uint32_t)old - (uint32_t)a); break;
        case A_EXCH: r = a; break;
        case A_MIN: r = a < old ? a : old; break;
        case A_MAX: r = a > old ? a : old; break;
        case A_AND: r = old & a; break;
        case A_OR: r = old | a; break;
        case A_XOR: r = old ^ a; break;
        default: r = old == (int32_t)op->b ? a : old; break;
        }
        c->i = r;
        return (uint64_t)(int64_t)old;
    }
    case T_U: {
        uint32_t old = c->u, a = (uint32_t)op->a, r = old;
        switch (fn) {
        case A_ADD: r = old + a; break;
        case A_SUB: r = old - a; break;
        case A_EXCH: r = a; break;
        case A_MIN: r = a < old ? a : old; break;
        case A_MAX: r = a > old ? a : old; break;
        case A_INC: r = m_inc(old, a); break;
        case A_DEC: r = m_dec(old, a); break;
        case A_AND: r = old & a; break;
        case A_OR: r = old | a; break;
        case A_XOR: r = old ^ a; break;
        default: r = old == (uint32_t)op->b ? a : old; break;
        }
        c->u = r;
        return old;
    }
    case T_Q: {
        uint64_t old = c->q, a = op->a, r = old;
        switch (fn) {
        case A_ADD: r = old + a; break;
        case A_EXCH: r = a; break;
        case A_MIN: r = a < old ? a : old; break;
        case A_MAX: r = a > old ? a : old; break;
        case A_AND: r = old & a; break;
        case A_OR: r = old | a; break;
        case A_XOR: r = old ^ a; break;
        default: r = old == op->b ? a : old; break;
        }
        c->q = r;
        return old;
    }
    case T_L: {
        int64_t old = c->l, a = (int64_t)op->a, r = old;
        switch (fn) {
        case A_MIN: r = a < old ? a : old; break;
        case A_MAX: r = a > old ? a : old; break;
        case A_AND: r = old & a; break;
        case A_OR: r = old | a; break;
        default: r = old ^ a; break;
        }
        c->l = r;
        return (uint64_t)old;
    }
    case T_F: {
        float old = c->f, a;
        uint32_t ab = (uint32_t)op->a, ob;
        memcpy(&a, &ab, 4);
        c->f = fn != A_ADD ? a : shared ? old + a : ftz(ftz(old) + ftz(a));
        memcpy(&ob, &old, 4);
        return ob;
    }
    default: {
        double old = c->d, a;
        uint64_t ob;
        memcpy(&a, &op->a, 8);
        c->d = old + a;
        memcpy(&ob, &old, 8);
        return ob;
    }
    }
}

/* An operand for op `code` given the model's current cells. */
static atom_op make_op(int32_t code, const atom_cells *c, uint32_t *seed)
{
    static const uint64_t pool[] = {
        0, 1, 2, 5, 100, 0x7fffffffull, 0x80000000ull, 0xffffffffull, 0xfffffffeull,
        0x7fffffffffffffffull, 0x8000000000000000ull, UINT64_MAX, 0x00000000ffffffffull,
        0x123456789abcdef0ull,
    };
    static const float fpool[] = {0.5f, -0.25f, 1e-40f, -1e-40f, 3.0f, 1e30f, -1e30f,
                                  1.17549435e-38f, 0.0f, -0.0f, 16777216.0f, 1.0f};
    atom_op op = {code, 0, 0, 0};
    uint32_t r = test_rng(seed);
    op.a = r % 3 == 0 ? pool[test_rng(seed) % G_N_ELEMENTS(pool)]
                      : rng64(seed) >> (test_rng(seed) % 64);
    if (r % 5 == 0)
        op.a = ~op.a;
    if (code == 108) {
        unsigned k = test_rng(seed) % 4;
        uint16_t cmp = test_rng(seed) % 2 ? c->s[k] : (uint16_t)test_rng(seed);
        op.b = (uint64_t)k << 16 | cmp;
        return op;
    }
    unsigned type = atom_table[code % 36].type, fn = atom_table[code % 36].fn;
    if (fn == A_INC || fn == A_DEC) { /* limits around the current value */
        static const int32_t d[] = {0, 1, -1, 2, -2};
        op.a = r % 2 ? (uint32_t)((int32_t)c->u + d[test_rng(seed) % 5]) : pool[test_rng(seed) % 5];
    }
    if (fn == A_CAS) {
        uint64_t cur = type == T_I ? (uint64_t)(uint32_t)c->i : type == T_U ? c->u : c->q;
        op.b = test_rng(seed) % 2 ? cur : op.a ^ 1;
    }
    if (type == T_F) {
        float f = fpool[test_rng(seed) % G_N_ELEMENTS(fpool)];
        uint32_t b;
        memcpy(&b, &f, 4);
        op.a = b;
    }
    if (type == T_D) {
        double dv = ldexp((double)(int32_t)test_rng(seed), (int)(test_rng(seed) % 40) - 60);
        if (r % 7 == 0)
            dv = 4.9406564584124654e-324; /* no flushing for .f64 */
        memcpy(&op.a, &dv, 8);
    }
    return op;
}

static void test_atomic_sequence(void **state)
{
    (void)state;
    enum { N = 600 };
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_atomics", archs[ai], NULL);
        for (int32_t in_shared = 0; in_shared < 2; in_shared++) {
            atom_cells init = {-5, 7, 1ull << 40, -(1ll << 50), 1.5f, 0, -2.0, {1, 0xffff, 3, 4}};
            atom_cells model = init;
            atom_op ops[N];
            uint64_t want[N], got[N];
            uint32_t seed = 2024u + (uint32_t)in_shared;
            for (int i = 0; i < N; i++) {
                int32_t code = i < 2 * ATOM_CODES ? i % ATOM_CODES
                                                  : (int32_t)(test_rng(&seed) % ATOM_CODES);
                ops[i] = make_op(code, &model, &seed);
                want[i] = m_apply(&model, &ops[i], in_shared != 0);
            }
            ptxemu_dptr dops = test_corpus_upload(&f, ops, sizeof ops),
                        dc = test_corpus_upload(&f, &init, sizeof init);
            ptxemu_dptr dout = test_corpus_upload(&f, NULL, sizeof got);
            int32_t n = N;
            void *args[] = {&dops, &n, &dc, &dout, &in_shared};
            test_corpus_launch(&f, "atomic_sequence", 1, 32, args);
            test_corpus_download(&f, got, dout, sizeof got);
            atom_cells fin;
            test_corpus_download(&f, &fin, dc, sizeof fin);
            for (int i = 0; i < N; i++)
                if (got[i] != want[i])
                    fail_msg("sm_%u%s op %d (code %d, a 0x%llx, b 0x%llx): returned 0x%llx, "
                             "want 0x%llx", f.sm, in_shared ? " shared" : "", i, ops[i].code,
                             (unsigned long long)ops[i].a, (unsigned long long)ops[i].b,
                             (unsigned long long)got[i], (unsigned long long)want[i]);
            model.pad0 = fin.pad0 = 0;
            if (memcmp(&fin, &model, sizeof fin) != 0)
                fail_msg("sm_%u%s: final cells differ", f.sm, in_shared ? " shared" : "");
        }
        test_corpus_close(&f);
    }
}

/* The kernel's per-thread values (sweep_atomics.cu vals()). */
static uint32_t k_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

typedef struct {
    int32_t i;
    uint32_t u;
    uint64_t q;
    int64_t l;
    float f;
    double d;
} k_vals;

static k_vals vals_of(uint32_t gid)
{
    k_vals v;
    uint32_t h = k_hash(gid + 17u), h2 = k_hash(gid * 7u + 3u);
    v.i = (int32_t)(h % 2001u) - 1000;
    if (gid % 17u == 5u)
        v.i = gid & 1u ? INT32_MAX : INT32_MIN;
    v.u = h2;
    v.q = (uint64_t)h << 32 | h2;
    v.l = (int64_t)v.q;
    v.f = (float)((int32_t)(h2 % 129u) - 64) * 0.25f;
    v.d = (double)((int32_t)(h % 4097u) - 2048) * 0.125;
    return v;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorted `got` equals sorted `want` (both n long; sorted in place). */
static void check_multiset(const test_corpus *f, const char *what, unsigned set, uint64_t *got,
                           uint64_t *want, size_t n)
{
    qsort(got, n, sizeof *got, cmp_u64);
    qsort(want, n, sizeof *want, cmp_u64);
    for (size_t k = 0; k < n; k++)
        if (got[k] != want[k])
            fail_msg("sm_%u %s (cell set %u): returned values differ at sorted position %zu: "
                     "0x%llx, want 0x%llx", f->sm, what, set, k, (unsigned long long)got[k],
                     (unsigned long long)want[k]);
}

typedef struct {
    int32_t gi[48];
    uint32_t gu[48];
    uint64_t gq[48];
    int64_t gl[48];
    float gf[8];
    double gd[4];
    uint16_t us[4];
} contend_cells;

static void contend_init(contend_cells *c)
{
    static const int32_t i0[12] = {7, 100, -3, -1, 0, 0, -1, 0, 0x5555, 10, 0, 0};
    static const uint32_t u0[12] = {1, 0xfffffff0u, 0, 5, 0x80000000u, 0x80000000u,
                                    0xffffffffu, 0, 0x12345678u, 1, 0, 5};
    static const uint64_t q0[12] = {1ull << 40, UINT64_MAX - 5, 77, 1ull << 63, 1ull << 63,
                                    UINT64_MAX, 0, 0xabcdef, 0, 0, 0, 0};
    static const int64_t l0[12] = {0, 0, -1, 0, 12345, 0, 0, 0, 0, 0, 0, 0};
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned k = 0; k < 12; k++) {
            c->gi[12 * s + k] = i0[k] + (k == 0 ? (int32_t)s : 0);
            c->gu[12 * s + k] = u0[k];
            c->gq[12 * s + k] = q0[k];
            c->gl[12 * s + k] = l0[k];
        }
        c->gf[2 * s] = 0.5f;
        c->gf[2 * s + 1] = -2.0f;
        c->gd[s] = -1.0;
    }
    c->us[0] = 0xfff0;
    c->us[1] = 7;
    c->us[2] = 0x1234;
    c->us[3] = 0xfedc;
}

/* Checks one cell set that the threads gids[0..n) hit through the olds
 * slots at `slot` (0, 16 or 32). */
static void check_set(const test_corpus *f, const contend_cells *init, const contend_cells *fin,
                      unsigned set, const uint32_t *gids, size_t n, const uint64_t *olds,
                      const uint32_t *tids, unsigned slot)
{
    const int32_t *i0 = init->gi + 12 * set, *i1 = fin->gi + 12 * set;
    const uint32_t *u0 = init->gu + 12 * set, *u1 = fin->gu + 12 * set;
    const uint64_t *q0 = init->gq + 12 * set, *q1 = fin->gq + 12 * set;
    const int64_t *l0 = init->gl + 12 * set, *l1 = fin->gl + 12 * set;
    uint32_t isum = (uint32_t)i0[0], isub = (uint32_t)i0[2], usum = u0[0], usub = u0[2];
    int32_t imin = i0[4], imax = i0[5], iand = i0[6], ior = i0[7], ixor = i0[8];
    uint32_t umin = u0[4], umax = u0[5], uand = u0[6], uor = u0[7], uxor = u0[8];
    uint64_t qsum = q0[0], qmin = q0[3], qmax = q0[4], qand = q0[5], qor = q0[6], qxor = q0[7];
    int64_t lmin = l0[0], lmax = l0[1], land = l0[2], lor = l0[3], lxor = l0[4];
    float fsum = init->gf[2 * set];
    double dsum = init->gd[set];
    uint64_t *got = g_new(uint64_t, n + 1), *want = g_new(uint64_t, n + 1);
    for (size_t k = 0; k < n; k++) {
        uint32_t gid = gids[k];
        k_vals v = vals_of(gid);
        isum += (uint32_t)v.i;
        isub -= (uint32_t)v.i;
        imin = v.i < imin ? v.i : imin;
        imax = v.i > imax ? v.i : imax;
        iand &= v.i | (int32_t)(1u << (gid % 31u));
        ior |= v.i & (v.i >> 3);
        ixor ^= v.i;
        usum += v.u;
        usub -= v.u;
        umin = v.u < umin ? v.u : umin;
        umax = v.u > umax ? v.u : umax;
        uand &= v.u | (1u << (gid % 29u));
        uor |= v.u & (v.u >> 5);
        uxor ^= v.u;
        qsum += v.q;
        qmin = v.q < qmin ? v.q : qmin;
        qmax = v.q > qmax ? v.q : qmax;
        qand &= v.q | (1ull << (gid % 61u));
        qor |= v.q & (v.q >> 7);
        qxor ^= v.q;
        lmin = v.l < lmin ? v.l : lmin;
        lmax = v.l > lmax ? v.l : lmax;
        land &= v.l | (int64_t)(1ull << (gid % 59u));
        lor |= v.l & (v.l >> 9);
        lxor ^= v.l;
        fsum += v.f;
        dsum += v.d;
    }
    uint32_t ucnt = (uint32_t)n;
    const struct {
        const char *what;
        uint64_t got, want;
    } finals[] = {
        {"atomicAdd(int)", (uint32_t)i1[0], isum},
        {"atomicAdd(int, 1)", (uint32_t)i1[1], (uint32_t)i0[1] + ucnt},
        {"atomicSub(int)", (uint32_t)i1[2], isub},
        {"atomicMin(int)", (uint32_t)i1[4], (uint32_t)imin},
        {"atomicMax(int)", (uint32_t)i1[5], (uint32_t)imax},
        {"atomicAnd(int)", (uint32_t)i1[6], (uint32_t)iand},
        {"atomicOr(int)", (uint32_t)i1[7], (uint32_t)ior},
        {"atomicXor(int)", (uint32_t)i1[8], (uint32_t)ixor},
        {"atomicCAS(int) loop", (uint32_t)i1[9], (uint32_t)i0[9] + ucnt},
        {"atomicAdd(unsigned)", u1[0], usum},
        {"atomicAdd(unsigned, 1)", u1[1], u0[1] + ucnt},
        {"atomicSub(unsigned)", u1[2], usub},
        {"atomicMin(unsigned)", u1[4], umin},
        {"atomicMax(unsigned)", u1[5], umax},
        {"atomicAnd(unsigned)", u1[6], uand},
        {"atomicOr(unsigned)", u1[7], uor},
        {"atomicXor(unsigned)", u1[8], uxor},
        {"atomicAdd(ull)", q1[0], qsum},
        {"atomicAdd(ull, 1)", q1[1], q0[1] + ucnt},
        {"atomicMin(ull)", q1[3], qmin},
        {"atomicMax(ull)", q1[4], qmax},
        {"atomicAnd(ull)", q1[5], qand},
        {"atomicOr(ull)", q1[6], qor},
        {"atomicXor(ull)", q1[7], qxor},
        {"atomicCAS(ull) loop", q1[8], q0[8] + 0x100000001ull * ucnt},
        {"atomicMin(ll)", (uint64_t)l1[0], (uint64_t)lmin},
        {"atomicMax(ll)", (uint64_t)l1[1], (uint64_t)lmax},
        {"atomicAnd(ll)", (uint64_t)l1[2], (uint64_t)land},
        {"atomicOr(ll)", (uint64_t)l1[3], (uint64_t)lor},
        {"atomicXor(ll)", (uint64_t)l1[4], (uint64_t)lxor},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(finals); k++)
        if (finals[k].got != finals[k].want)
            fail_msg("sm_%u %s (cell set %u): final 0x%llx, want 0x%llx", f->sm, finals[k].what,
                     set, (unsigned long long)finals[k].got, (unsigned long long)finals[k].want);
    if (fin->gf[2 * set] != fsum)
        fail_msg("sm_%u atomicAdd(float) (cell set %u): %a, want %a", f->sm, set,
                 (double)fin->gf[2 * set], (double)fsum);
    if (fin->gd[set] != dsum)
        fail_msg("sm_%u atomicAdd(double) (cell set %u): %a, want %a", f->sm, set, fin->gd[set],
                 dsum);

    /* returned old values */
#define OLDS(k) olds[49 * tids[j] + slot + (k)]
    size_t j;
    /* add one and compare-and-swap +1: init, init+1, ..., init+n-1 */
    for (j = 0; j < n; j++) {
        got[j] = OLDS(0);
        want[j] = (uint32_t)i0[1] + (uint32_t)j;
    }
    check_multiset(f, "atomicAdd(int, 1) olds", set, got, want, n);
    for (j = 0; j < n; j++) {
        got[j] = OLDS(2);
        want[j] = (uint32_t)i0[9] + (uint32_t)j;
    }
    check_multiset(f, "atomicCAS(int) olds", set, got, want, n);
    for (j = 0; j < n; j++) {
        got[j] = OLDS(3);
        want[j] = (uint32_t)(u0[1] + (uint32_t)j);
    }
    check_multiset(f, "atomicAdd(unsigned, 1) olds", set, got, want, n);
    for (j = 0; j < n; j++) {
        got[j] = OLDS(8);
        want[j] = q0[1] + j;
    }
    check_multiset(f, "atomicAdd(ull, 1) olds", set, got, want, n);
    for (j = 0; j < n; j++) {
        got[j] = OLDS(10);
        want[j] = q0[8] + 0x100000001ull * j;
    }
    check_multiset(f, "atomicCAS(ull) olds", set, got, want, n);
    /* compare-and-swap x -> 3x + 1, atomicInc and atomicDec with limit 100:
     * the chain of values is fixed whatever the order */
    uint32_t x = u0[9], xi = u0[10], xd = u0[11];
    uint64_t *got2 = g_new(uint64_t, n + 1), *want2 = g_new(uint64_t, n + 1);
    uint64_t *got3 = g_new(uint64_t, n + 1), *want3 = g_new(uint64_t, n + 1);
    for (j = 0; j < n; j++) {
        got[j] = OLDS(5);
        want[j] = x;
        x = x * 3u + 1u;
        got2[j] = OLDS(6);
        want2[j] = xi;
        xi = m_inc(xi, 100);
        got3[j] = OLDS(7);
        want3[j] = xd;
        xd = m_dec(xd, 100);
    }
    check(f, "atomicCAS(unsigned) chain final", set, 9, u1[9], x);
    check(f, "atomicInc(unsigned, 100) final", set, 10, u1[10], xi);
    check(f, "atomicDec(unsigned, 100) final", set, 11, u1[11], xd);
    check_multiset(f, "atomicCAS(unsigned) olds", set, got, want, n);
    check_multiset(f, "atomicInc olds", set, got2, want2, n);
    check_multiset(f, "atomicDec olds", set, got3, want3, n);
    /* exchange: the olds and the final value are the initial value and
     * every value stored */
    for (j = 0; j < n; j++) {
        got[j] = OLDS(1);
        want[j] = (uint32_t)((int32_t)gids[j] + 1000);
        got2[j] = OLDS(4);
        want2[j] = gids[j] * 3u;
        got3[j] = OLDS(9);
        want3[j] = vals_of(gids[j]).q;
    }
    got[n] = (uint32_t)i1[3];
    want[n] = (uint32_t)i0[3];
    got2[n] = u1[3];
    want2[n] = u0[3];
    got3[n] = q1[2];
    want3[n] = q0[2];
    check_multiset(f, "atomicExch(int) olds", set, got, want, n + 1);
    check_multiset(f, "atomicExch(unsigned) olds", set, got2, want2, n + 1);
    check_multiset(f, "atomicExch(ull) olds", set, got3, want3, n + 1);
    for (j = 0; j < n; j++) {
        float vf = vals_of(gids[j]).f;
        uint32_t b;
        memcpy(&b, &vf, 4);
        got[j] = OLDS(11);
        want[j] = b;
    }
    uint32_t fb;
    memcpy(&fb, &fin->gf[2 * set + 1], 4);
    got[n] = fb;
    memcpy(&fb, &init->gf[2 * set + 1], 4);
    want[n] = fb;
    check_multiset(f, "atomicExch(float) olds", set, got, want, n + 1);
#undef OLDS
    g_free(got);
    g_free(want);
    g_free(got2);
    g_free(want2);
    g_free(got3);
    g_free(want3);
}

/* The two 16-bit counters: even threads add 3 to us[0], odd ones to us[1],
 * each by a compare-and-swap loop; us[2], us[3] stay. */
static void check_us(const test_corpus *f, const contend_cells *init, const contend_cells *fin,
                     const uint64_t *olds, size_t nthreads)
{
    for (unsigned k = 0; k < 2; k++) {
        size_t n = 0;
        uint64_t *got = g_new(uint64_t, nthreads), *want = g_new(uint64_t, nthreads);
        uint16_t x = init->us[k];
        for (size_t t = k; t < nthreads; t += 2) {
            got[n] = olds[49 * t + 48];
            want[n++] = x;
            x = (uint16_t)(x + 3u);
        }
        check(f, "atomicCAS(unsigned short) final", k, 0, fin->us[k], x);
        check_multiset(f, "atomicCAS(unsigned short) olds", k, got, want, n);
        g_free(got);
        g_free(want);
    }
    check(f, "16-bit neighbour untouched", 2, 0, fin->us[2], init->us[2]);
    check(f, "16-bit neighbour untouched", 3, 0, fin->us[3], init->us[3]);
}

static void test_atomic_contend(void **state)
{
    (void)state;
    enum { BLOCKS = 2, THREADS = 128, N = BLOCKS * THREADS };
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "sweep_atomics", archs[ai], NULL);
        for (int sh = 0; sh < 2; sh++) {
            contend_cells init, fin;
            memset(&init, 0, sizeof init);
            contend_init(&init);
            size_t nthreads = sh ? THREADS : N;
            uint64_t *olds = g_new0(uint64_t, 49 * N);
            ptxemu_dptr di = test_corpus_upload(&f, init.gi, sizeof init.gi);
            ptxemu_dptr du = test_corpus_upload(&f, init.gu, sizeof init.gu);
            ptxemu_dptr dq = test_corpus_upload(&f, init.gq, sizeof init.gq);
            ptxemu_dptr dl = test_corpus_upload(&f, init.gl, sizeof init.gl);
            ptxemu_dptr dfl = test_corpus_upload(&f, init.gf, sizeof init.gf);
            ptxemu_dptr dd = test_corpus_upload(&f, init.gd, sizeof init.gd);
            ptxemu_dptr dus = test_corpus_upload(&f, init.us, sizeof init.us);
            ptxemu_dptr dolds = test_corpus_upload(&f, NULL, 49 * N * sizeof *olds);
            void *args[] = {&di, &du, &dq, &dl, &dfl, &dd, &dus, &dolds};
            test_corpus_launch(&f, sh ? "atomic_contend_shared" : "atomic_contend", sh ? 1 : BLOCKS,
                        THREADS, args);
            fin = init;
            test_corpus_download(&f, fin.gi, di, sizeof fin.gi);
            test_corpus_download(&f, fin.gu, du, sizeof fin.gu);
            test_corpus_download(&f, fin.gq, dq, sizeof fin.gq);
            test_corpus_download(&f, fin.gl, dl, sizeof fin.gl);
            test_corpus_download(&f, fin.gf, dfl, sizeof fin.gf);
            test_corpus_download(&f, fin.gd, dd, sizeof fin.gd);
            test_corpus_download(&f, fin.us, dus, sizeof fin.us);
            test_corpus_download(&f, olds, dolds, 49 * N * sizeof *olds);
            uint32_t gids[N];
            for (uint32_t t = 0; t < N; t++)
                gids[t] = t;
            if (sh) {
                /* sets 0, 1, 2: plain, _block, _system, all 128 threads */
                for (unsigned s = 0; s < 3; s++)
                    check_set(&f, &init, &fin, s, gids, THREADS, olds, gids, 16 * s);
            } else {
                check_set(&f, &init, &fin, 0, gids, N, olds, gids, 0);
                check_set(&f, &init, &fin, 1, gids, THREADS, olds, gids, 16);
                check_set(&f, &init, &fin, 2, gids + THREADS, THREADS, olds, gids + THREADS, 16);
                check_set(&f, &init, &fin, 3, gids, N, olds, gids, 32);
            }
            check_us(&f, &init, &fin, olds, nthreads);
            g_free(olds);
        }
        test_corpus_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simd_ops),  cmocka_unit_test(test_dpx_ops),
        cmocka_unit_test(test_int_ops),
        cmocka_unit_test(test_shfl_ops),  cmocka_unit_test(test_vote_ops),
        cmocka_unit_test(test_barrier_ops),
        cmocka_unit_test(test_space_ops), cmocka_unit_test(test_cache_ops),
        cmocka_unit_test(test_fp_ops),    cmocka_unit_test(test_atomic_sequence),
        cmocka_unit_test(test_atomic_contend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
