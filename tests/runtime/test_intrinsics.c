/* tests/runtime/test_intrinsics.c — tests/corpus/cuda/intrinsics_misc.cu as
 * nvcc 13 compiles it for sm_75, sm_80 and sm_90 (committed PTX from
 * scripts/regen-ptx.sh), run through the C API; every result is checked
 * against a CPU model written from the CUDA Math API and PTX ISA manuals:
 *   warp_ops   __match_any/all_sync (match.sync .b32/.b64, d|p), the
 *              __reduce_*_sync family (redux.sync, sm_80+), __activemask,
 *              __ballot_sync;
 *   bit_ops    __brev __clz __ffs __popc __byte_perm __funnelshift_l/r/lc
 *              __fns __vabsdiffu4 __vadd2 __usad __umulhi __mul24 __rhadd
 *              __uhadd;
 *   time_ops   clock64 and %globaltimer advance across __nanosleep;
 *   param_*    a __grid_constant__ parameter by address: `mov.b64 %rd,
 *              param` + ld.param [%rd], and cvta.param to a generic pointer
 *              handed to a function that is not inlined. */
#include "api/ptxemu.h"
#include "tests/support/test_util.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

static const char *const archs[] = {"75", "80", "90"};

static void check(const test_corpus *f, const char *what, unsigned t, unsigned k, uint32_t got,
                  uint32_t want)
{
    if (got != want)
        fail_msg("sm_%u %s thread %u result %u: got 0x%08x, want 0x%08x", f->sm, what, t, k,
                 got, want);
}

/* --------------------------------------------------------------- warp_ops */

static void test_warp_ops(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "intrinsics_misc", archs[ai], NULL);
        uint32_t in[32], out[32 * 16], seed = 7;
        for (unsigned t = 0; t < 32; t++)
            in[t] = test_rng(&seed) % 5000u;
        test_corpus_run_io(&f, "_Z8warp_opsPKjPj", 1, 32, in, sizeof in, out, sizeof out);
        uint32_t sum = 0, mn = UINT32_MAX, mx = 0, an = UINT32_MAX, o = 0, x = 0, bal = 0;
        int32_t smn = INT32_MAX, smx = INT32_MIN;
        bool all_same = true;
        for (unsigned t = 0; t < 32; t++) {
            uint32_t v = in[t];
            sum += v;
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
            int32_t sv = (int32_t)v - 1000;
            smn = sv < smn ? sv : smn;
            smx = sv > smx ? sv : smx;
            an &= v | 0x80000000u;
            o |= v;
            x ^= v;
            bal |= (v & 1u) << t;
            all_same &= v == in[0];
        }
        for (unsigned t = 0; t < 32; t++) {
            const uint32_t *r = out + 16 * t;
            uint32_t same3 = 0, same_par = 0;
            for (unsigned u = 0; u < 32; u++) {
                same3 |= (uint32_t)((in[u] & 3u) == (in[t] & 3u)) << u;
                same_par |= (uint32_t)((in[u] & 1u) == (in[t] & 1u)) << u;
            }
            check(&f, "match_any", t, 0, r[0], same3);
            check(&f, "match_all(equal)", t, 1, r[1], 0xffffffffu);
            check(&f, "match_all pred", t, 2, r[2], 1);
            check(&f, "match_all(differ)", t, 3, r[3], all_same ? 0xffffffffu : 0);
            check(&f, "match_all pred", t, 4, r[4], all_same);
            check(&f, "match_any.b64", t, 5, r[5], same_par);
            bool redux = f.sm >= 80;
            check(&f, "reduce_add", t, 6, r[6], redux ? sum : 0);
            check(&f, "reduce_min", t, 7, r[7], redux ? mn : 0);
            check(&f, "reduce_max", t, 8, r[8], redux ? mx : 0);
            check(&f, "reduce_min.s32", t, 9, r[9], redux ? (uint32_t)smn : 0);
            check(&f, "reduce_max.s32", t, 10, r[10], redux ? (uint32_t)smx : 0);
            check(&f, "reduce_and", t, 11, r[11], redux ? an : 0);
            check(&f, "reduce_or", t, 12, r[12], redux ? o : 0);
            check(&f, "reduce_xor", t, 13, r[13], redux ? x : 0);
            check(&f, "activemask", t, 14, r[14], 0xffffffffu);
            check(&f, "ballot", t, 15, r[15], bal);
        }
        test_corpus_close(&f);
    }
}

/* ---------------------------------------------------------------- bit_ops */

static uint32_t m_brev(uint32_t a)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= ((a >> i) & 1u) << (31 - i);
    return r;
}

static uint32_t m_clz(uint32_t a)
{
    uint32_t n = 0;
    for (int i = 31; i >= 0 && !((a >> i) & 1u); i--)
        n++;
    return n;
}

static uint32_t m_ffs(uint32_t a)
{
    for (unsigned i = 0; i < 32; i++)
        if ((a >> i) & 1u)
            return i + 1;
    return 0;
}

static uint32_t m_popc(uint32_t a)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < 32; i++)
        n += (a >> i) & 1u;
    return n;
}

/* __byte_perm: bytes 0-3 of x, 4-7 of y; selector nibble n picks byte n */
static uint32_t m_byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint8_t in[8];
    for (unsigned i = 0; i < 4; i++) {
        in[i] = (uint8_t)(x >> (8 * i));
        in[4 + i] = (uint8_t)(y >> (8 * i));
    }
    uint32_t r = 0;
    for (unsigned n = 0; n < 4; n++)
        r |= (uint32_t)in[(s >> (4 * n)) & 7u] << (8 * n);
    return r;
}

/* PTX fns pseudo-code */
static uint32_t m_fns(uint32_t mask, uint32_t base, int32_t offset)
{
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

static int32_t sext24(uint32_t v)
{
    return (int32_t)(v << 8) >> 8;
}

static void test_bit_ops(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "intrinsics_misc", archs[ai], NULL);
        uint32_t in[64], out[32 * 16], seed = 99;
        for (unsigned i = 0; i < 64; i++)
            in[i] = test_rng(&seed);
        in[0] = 0; /* clz/ffs of zero */
        in[3] = 0x80000000u;
        test_corpus_run_io(&f, "_Z7bit_opsPKjPj", 1, 32, in, sizeof in, out, sizeof out);
        for (unsigned t = 0; t < 32; t++) {
            uint32_t a = in[2 * t], b = in[2 * t + 1];
            const uint32_t *r = out + 16 * t;
            uint64_t hilo = (uint64_t)b << 32 | a;
            unsigned lc = t + 20 < 32 ? t + 20 : 32;
            uint32_t vabs = 0, vadd = 0;
            for (unsigned k = 0; k < 4; k++) {
                int da = (int)((a >> (8 * k)) & 255u) - (int)((b >> (8 * k)) & 255u);
                vabs |= (uint32_t)(da < 0 ? -da : da) << (8 * k);
            }
            for (unsigned k = 0; k < 2; k++)
                vadd |= ((((a >> (16 * k)) & 0xffffu) + ((b >> (16 * k)) & 0xffffu)) & 0xffffu)
                        << (16 * k);
            uint32_t want[16] = {
                m_brev(a), m_clz(a), m_ffs(a), m_popc(a),
                m_byte_perm(a, b, 0x5140u + (t & 7u)),
                (uint32_t)((hilo << (t & 31u)) >> 32),
                (uint32_t)(hilo >> (t & 31u)),
                (uint32_t)((hilo << lc) >> 32),
                m_fns(a, t, 2),
                vabs, vadd,
                (a > b ? a - b : b - a) + t,
                (uint32_t)(((uint64_t)a * b) >> 32),
                (uint32_t)((int64_t)sext24(a) * sext24(b)),
                (uint32_t)(int32_t)(((int64_t)(int32_t)a + (int32_t)b + 1) >> 1),
                (uint32_t)(((uint64_t)a + b) >> 1),
            };
            for (unsigned k = 0; k < 16; k++)
                check(&f, "bit_ops", t, k, r[k], want[k]);
        }
        test_corpus_close(&f);
    }
}

/* ------------------------------------------------------- time and params */

static void test_time_ops(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "intrinsics_misc", archs[ai], NULL);
        uint64_t out[4];
        ptxemu_dptr dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {&dout};
        test_corpus_launch(&f, "_Z8time_opsPy", 1, 1, args);
        test_corpus_download(&f, out, dout, sizeof out);
        assert_true(out[1] > out[0]); /* clock64 */
        assert_true(out[3] > out[2]); /* %globaltimer */
        test_corpus_close(&f);
    }
}

static void test_param_address(void **state)
{
    (void)state;
    for (size_t ai = 0; ai < G_N_ELEMENTS(archs); ai++) {
        test_corpus f;
        test_corpus_load(&f, "intrinsics_misc", archs[ai], NULL);
        int32_t coeffs[8] = {3, -7, 11, 100, -250, 9, 0, 42}, out[40];
        ptxemu_dptr dout = test_corpus_upload(&f, NULL, sizeof out);
        void *args[] = {coeffs, &dout};
        test_corpus_launch(&f, "_Z13param_address6CoeffsPi", 1, 40, args);
        test_corpus_download(&f, out, dout, sizeof out);
        for (unsigned t = 0; t < 40; t++)
            check(&f, "param_address", t, 0, (uint32_t)out[t],
                  (uint32_t)(coeffs[t & 7] * (int32_t)(t + 1)));
        test_corpus_launch(&f, "_Z13param_generic6CoeffsPi", 1, 40, args);
        test_corpus_download(&f, out, dout, sizeof out);
        for (unsigned t = 0; t < 40; t++)
            check(&f, "param_generic", t, 0, (uint32_t)out[t],
                  (uint32_t)(coeffs[7 - (t & 7)] + (int32_t)t));
        test_corpus_close(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_bit_ops),
        cmocka_unit_test(test_time_ops),
        cmocka_unit_test(test_param_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
