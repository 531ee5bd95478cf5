// tests/corpus/cuda/sweep_intrinsics.cu — intrinsics sweep: the device
// functions of sm_20/30/32/35/61_intrinsics.h (warp vote and shuffle,
// barriers with predicates, fences, address-space predicates and cvta,
// cache-hinted loads and stores over every scalar and vector type, funnel
// shifts, dp4a/dp2a, directed-rounding double arithmetic and conversions)
// and the SIMD video and integer intrinsics of the CUDA Math API that
// intrinsics_misc.cu does not already cover.  Every kernel is extern "C" so
// the test finds it by its plain name.  tests/runtime/test_sweep_intrinsics.c
// runs the committed PTX (scripts/regen-ptx.sh) and checks every result
// against a CPU model written from the CUDA Math API, the CUDA C++
// Programming Guide and the PTX ISA manual.
#include <cstdint>

#define FULL 0xffffffffu

// ------------------------------------------------------------ SIMD video
// 82 results per thread from the pair in[2t], in[2t+1]: 41 halfword forms,
// then the same 41 as byte forms.
extern "C" __global__ void simd_ops(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, a = in[2 * t], b = in[2 * t + 1];
    unsigned *o = out + 82 * t;
    int k = 0;
#define UN(n) o[k++] = __vabs##n(a); o[k++] = __vabsss##n(a); o[k++] = __vneg##n(a); \
    o[k++] = __vnegss##n(a);
#define BIN(n)                                                                    \
    o[k++] = __vadd##n(a, b); o[k++] = __vaddss##n(a, b); o[k++] = __vaddus##n(a, b); \
    o[k++] = __vsub##n(a, b); o[k++] = __vsubss##n(a, b); o[k++] = __vsubus##n(a, b); \
    o[k++] = __vavgs##n(a, b); o[k++] = __vavgu##n(a, b); o[k++] = __vhaddu##n(a, b); \
    o[k++] = __vabsdiffs##n(a, b); o[k++] = __vabsdiffu##n(a, b);                   \
    o[k++] = __vsads##n(a, b); o[k++] = __vsadu##n(a, b);                           \
    o[k++] = __vmaxs##n(a, b); o[k++] = __vmaxu##n(a, b);                           \
    o[k++] = __vmins##n(a, b); o[k++] = __vminu##n(a, b);                           \
    o[k++] = __vcmpeq##n(a, b); o[k++] = __vcmpne##n(a, b);                         \
    o[k++] = __vcmpges##n(a, b); o[k++] = __vcmpgeu##n(a, b);                       \
    o[k++] = __vcmpgts##n(a, b); o[k++] = __vcmpgtu##n(a, b);                       \
    o[k++] = __vcmples##n(a, b); o[k++] = __vcmpleu##n(a, b);                       \
    o[k++] = __vcmplts##n(a, b); o[k++] = __vcmpltu##n(a, b);                       \
    o[k++] = __vseteq##n(a, b); o[k++] = __vsetne##n(a, b);                         \
    o[k++] = __vsetges##n(a, b); o[k++] = __vsetgeu##n(a, b);                       \
    o[k++] = __vsetgts##n(a, b); o[k++] = __vsetgtu##n(a, b);                       \
    o[k++] = __vsetles##n(a, b); o[k++] = __vsetleu##n(a, b);                       \
    o[k++] = __vsetlts##n(a, b); o[k++] = __vsetltu##n(a, b);
    UN(2) BIN(2) UN(4) BIN(4)
#undef UN
#undef BIN
}

// ------------------------------------------------------ DPX (sm_90 native)
// 48 results per thread from a, b, c = in[3t], in[3t+1], in[3t+2]: the 36
// __vi* functions of the Math API's SIMD group (max/min with add, three-way,
// relu, and the __vibmax/__vibmin forms with their predicates).
extern "C" __global__ void dpx_ops(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    int sa = (int)a, sb = (int)b, sc = (int)c;
    unsigned *o = out + 48 * t;
    int k = 0;
#define ADDMM(F)                                                                      \
    o[k++] = F##_s16x2(a, b, c); o[k++] = F##_s16x2_relu(a, b, c);                  \
    o[k++] = (unsigned)F##_s32(sa, sb, sc); o[k++] = (unsigned)F##_s32_relu(sa, sb, sc); \
    o[k++] = F##_u16x2(a, b, c); o[k++] = F##_u32(a, b, c);
    ADDMM(__viaddmax) ADDMM(__viaddmin) ADDMM(__vimax3) ADDMM(__vimin3)
#undef ADDMM
    o[k++] = __vimax_s16x2_relu(a, b);
    o[k++] = (unsigned)__vimax_s32_relu(sa, sb);
    o[k++] = __vimin_s16x2_relu(a, b);
    o[k++] = (unsigned)__vimin_s32_relu(sa, sb);
    bool p, q;
#define BMM(F)                                                                        \
    o[k++] = F##_s16x2(a, b, &p, &q); o[k++] = p; o[k++] = q;                       \
    o[k++] = (unsigned)F##_s32(sa, sb, &p); o[k++] = p;                             \
    o[k++] = F##_u16x2(a, b, &p, &q); o[k++] = p; o[k++] = q;                       \
    o[k++] = F##_u32(a, b, &p); o[k++] = p;
    BMM(__vibmax) BMM(__vibmin)
#undef BMM
}

// --------------------------------------------------------------- integer
// 40 results per thread (64-bit slots) from in[2t], in[2t+1].
extern "C" __global__ void int_ops(const unsigned long long *in, unsigned long long *out)
{
    unsigned t = threadIdx.x;
    unsigned long long x = in[2 * t], y = in[2 * t + 1];
    unsigned a = (unsigned)x, b = (unsigned)y, c = (unsigned)(x >> 32);
    unsigned long long *o = out + 40 * t;
    o[0] = (unsigned)__hadd((int)a, (int)b);
    o[1] = __urhadd(a, b);
    o[2] = (unsigned)__mulhi((int)a, (int)b);
    o[3] = (unsigned long long)__mul64hi((long long)x, (long long)y);
    o[4] = __umul64hi(x, y);
    o[5] = __sad((int)a, (int)b, c);
    o[6] = __umul24(a, b);
    o[7] = (unsigned)__clzll((long long)x);
    o[8] = (unsigned)__ffsll((long long)x);
    o[9] = (unsigned)__popcll(x);
    o[10] = __brevll(x);
    o[11] = __funnelshift_rc(a, b, c & 63u);
    o[12] = __funnelshift_lc(a, b, c & 63u);
    o[13] = __funnelshift_l(a, b, c);
    o[14] = __funnelshift_r(a, b, c);
    o[15] = (unsigned)__dp4a((int)a, (int)b, (int)c);
    o[16] = __dp4a(a, b, c);
    char4 ca = *reinterpret_cast<const char4 *>(&a), cb = *reinterpret_cast<const char4 *>(&b);
    uchar4 ua = *reinterpret_cast<const uchar4 *>(&a), ub = *reinterpret_cast<const uchar4 *>(&b);
    short2 sa = *reinterpret_cast<const short2 *>(&a);
    ushort2 usa = *reinterpret_cast<const ushort2 *>(&a);
    o[17] = (unsigned)__dp4a(ca, cb, (int)c);
    o[18] = __dp4a(ua, ub, c);
    o[19] = (unsigned)__dp2a_lo((int)a, (int)b, (int)c);
    o[20] = __dp2a_lo(a, b, c);
    o[21] = (unsigned)__dp2a_lo(sa, cb, (int)c);
    o[22] = __dp2a_lo(usa, ub, c);
    o[23] = (unsigned)__dp2a_hi((int)a, (int)b, (int)c);
    o[24] = __dp2a_hi(a, b, c);
    o[25] = (unsigned)__dp2a_hi(sa, cb, (int)c);
    o[26] = __dp2a_hi(usa, ub, c);
    o[27] = __fns(a, c & 31u, (int)(b % 9u) - 4);
    o[28] = __fns(a, c & 31u, 0);
    for (int k = 29; k < 40; k++)
        o[k] = 0;
}

// ---------------------------------------------------------------- shuffle
// Per thread: 8 types x 4 shuffles x 3 widths, each as a 64-bit slot.
template <typename T> __device__ unsigned long long bits(T v)
{
    unsigned long long r = 0;
    memcpy(&r, &v, sizeof v);
    return r;
}

template <typename T>
__device__ void shfl_all(T v, unsigned lane, unsigned long long *o)
{
    o[0] = bits(__shfl_sync(FULL, v, (int)((lane * 7u + 3u) & 31u)));
    o[1] = bits(__shfl_up_sync(FULL, v, 3u));
    o[2] = bits(__shfl_down_sync(FULL, v, 5u));
    o[3] = bits(__shfl_xor_sync(FULL, v, 0x5));
    o[4] = bits(__shfl_sync(FULL, v, (int)((lane * 7u + 3u) & 31u), 16));
    o[5] = bits(__shfl_up_sync(FULL, v, 3u, 16));
    o[6] = bits(__shfl_down_sync(FULL, v, 5u, 16));
    o[7] = bits(__shfl_xor_sync(FULL, v, 0x9, 16));
    o[8] = bits(__shfl_sync(FULL, v, (int)((lane * 7u + 3u) & 31u), 8));
    o[9] = bits(__shfl_up_sync(FULL, v, 2u, 8));
    o[10] = bits(__shfl_down_sync(FULL, v, 6u, 8));
    o[11] = bits(__shfl_xor_sync(FULL, v, 0xb, 8));
}

extern "C" __global__ void shfl_ops(const unsigned long long *in, unsigned long long *out)
{
    unsigned lane = threadIdx.x;
    unsigned long long v = in[lane];
    unsigned long long *o = out + 96 * lane;
    shfl_all((int)v, lane, o + 0);
    shfl_all((unsigned)v, lane, o + 12);
    shfl_all((long)v, lane, o + 24);
    shfl_all((unsigned long)v, lane, o + 36);
    shfl_all((long long)v, lane, o + 48);
    shfl_all(v, lane, o + 60);
    float f;
    unsigned u = (unsigned)v;
    memcpy(&f, &u, 4);
    shfl_all(f, lane, o + 72);
    double d;
    memcpy(&d, &v, 8);
    shfl_all(d, lane, o + 84);
}

// ------------------------------------------------------ vote and barriers
// 64 threads (two warps), 12 results per thread.
extern "C" __global__ void vote_ops(const unsigned *in, unsigned *out)
{
    __shared__ unsigned flag[64];
    unsigned t = threadIdx.x, v = in[t];
    unsigned *o = out + 12 * t;
    o[0] = (unsigned)__all_sync(FULL, v & 1u);
    o[1] = (unsigned)__any_sync(FULL, v & 2u);
    o[2] = (unsigned)__uni_sync(FULL, v & 4u);
    o[3] = (unsigned)__uni_sync(FULL, 1);
    o[4] = __ballot_sync(FULL, v & 8u);
    o[5] = (unsigned)__syncthreads_count(v & 16u);
    o[6] = (unsigned)__syncthreads_and(v & 32u);
    o[7] = (unsigned)__syncthreads_or(v & 64u);
    o[8] = 0xdeadu;
    o[9] = 0xdeadu;
    if (t & 1u) {
        // only the odd lanes: mask 0xaaaaaaaa
        o[8] = __activemask();
        o[9] = __ballot_sync(0xaaaaaaaau, v & 128u);
        __syncwarp(0xaaaaaaaau);
    }
    __syncwarp();
    // fences between a store and a barrier: the other warp sees the value
    flag[t] = v ^ 0x5a5a5a5au;
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    __syncthreads();
    o[10] = flag[63u - t];
    o[11] = (unsigned)__syncthreads_count(1);
}

// 96 threads (three warps), 8 results per thread: named barriers and the
// bool forms syncthreads_count/and/or of sm_20_intrinsics.h.  Warps 0 and 1
// meet at barrier 1 (a count of 64 threads) while warp 2 goes ahead to
// barrier 2, where all 96 meet.
extern "C" __global__ void barrier_ops(const unsigned *in, unsigned *out)
{
    __shared__ unsigned x[96];
    unsigned t = threadIdx.x, v = in[t];
    unsigned *o = out + 8 * t;
    x[t] = v;
    o[0] = 0;
    if (t < 64) {
        __barrier_sync_count(1, 64);
        o[0] = x[63 - t];
    }
    __barrier_sync(2);
    x[t] = v * 3u;
    __syncthreads();
    o[1] = x[95 - t];
    o[2] = (unsigned)syncthreads_count(v & 1u);
    o[3] = (unsigned)syncthreads_and(v & 2u);
    o[4] = (unsigned)syncthreads_or(v & 4u);
    o[5] = 0;
    o[6] = 0;
    o[7] = 0;
}

// ----------------------------------------------- address-space predicates
__constant__ int cvals[4] = {11, 22, 33, 44};

struct Pack {
    int v[4];
};

// Not inlined, so nvcc cannot see which space p points into.
__device__ __noinline__ unsigned classify(const void *p)
{
    return __isGlobal(p) | __isShared(p) << 1 | __isConstant(p) << 2 | __isLocal(p) << 3 |
           __isGridConstant(p) << 4;
}

__device__ __noinline__ int via_spaces(const int *p, unsigned which)
{
    // generic -> space -> generic must give back the same pointer
    const void *q = 0;
    switch (which) {
    case 0: q = __cvta_global_to_generic(__cvta_generic_to_global(p)); break;
    case 1: q = __cvta_shared_to_generic(__cvta_generic_to_shared(p)); break;
    case 2: q = __cvta_constant_to_generic(__cvta_generic_to_constant(p)); break;
    case 3: q = __cvta_local_to_generic(__cvta_generic_to_local(p)); break;
    default: q = __cvta_grid_constant_to_generic(__cvta_generic_to_grid_constant(p)); break;
    }
    return (q == (const void *)p ? 1000 : 0) + *(const int *)q;
}

__device__ __noinline__ unsigned long long shared_delta(const int *p, const int *q)
{
    return __cvta_generic_to_shared(q) - __cvta_generic_to_shared(p);
}

// 32 threads, 12 results per thread.
extern "C" __global__ void space_ops(const __grid_constant__ Pack pk, int *g, unsigned *out)
{
    __shared__ int sh[32];
    volatile int loc[4];
    unsigned t = threadIdx.x;
    unsigned *o = out + 12 * t;
    sh[t] = (int)t * 3;
    for (int i = 0; i < 4; i++)
        loc[i] = (int)(t * 100u) + i;
    __syncthreads();
    const int *lp = (const int *)&loc[t & 3u];
    // an opaque copy of the parameter's generic address: handed straight to
    // classify(), nvcc 13 passes the .param-space address without cvta.param
    const int *pp = &pk.v[t & 3u];
    asm volatile("" : "+l"(pp));
    o[0] = classify(g + t);
    o[1] = classify(sh + t);
    o[2] = classify(cvals + (t & 3u));
    o[3] = classify(lp);
    o[4] = classify(pp);
    o[5] = (unsigned)via_spaces(g + t, 0);
    o[6] = (unsigned)via_spaces(sh + t, 1);
    o[7] = (unsigned)via_spaces(cvals + (t & 3u), 2);
    o[8] = (unsigned)via_spaces(lp, 3);
    o[9] = (unsigned)via_spaces(pp, 4);
    o[10] = (unsigned)shared_delta(sh, sh + t);
    o[11] = 0;
}

// ------------------------------------------ cache-hinted loads and stores
// For each type T, cache_T(in, out): element i is loaded with each of the
// six __ld* hints and stored plainly (out[10i+0..5]), then loaded plainly and
// stored with each of the four __st* hints (out[10i+6..9]).
#define CACHE_KERNEL(T, NAME)                                                   \
    extern "C" __global__ void cache_##NAME(const T *in, T *out)                \
    {                                                                           \
        unsigned i = threadIdx.x;                                               \
        T *o = out + 10 * i;                                                    \
        o[0] = __ldg(in + i);                                                   \
        o[1] = __ldcg(in + i);                                                  \
        o[2] = __ldca(in + i);                                                  \
        o[3] = __ldcs(in + i);                                                  \
        o[4] = __ldlu(in + i);                                                  \
        o[5] = __ldcv(in + i);                                                  \
        T v = in[i];                                                            \
        __stwb(o + 6, v);                                                       \
        __stcg(o + 7, v);                                                       \
        __stcs(o + 8, v);                                                       \
        __stwt(o + 9, v);                                                       \
    }
CACHE_KERNEL(char, char)
CACHE_KERNEL(signed char, schar)
CACHE_KERNEL(short, short)
CACHE_KERNEL(int, int)
CACHE_KERNEL(long, long)
CACHE_KERNEL(long long, longlong)
CACHE_KERNEL(unsigned char, uchar)
CACHE_KERNEL(unsigned short, ushort)
CACHE_KERNEL(unsigned int, uint)
CACHE_KERNEL(unsigned long, ulong)
CACHE_KERNEL(unsigned long long, ulonglong)
CACHE_KERNEL(float, float)
CACHE_KERNEL(double, double)
CACHE_KERNEL(char2, char2)
CACHE_KERNEL(char4, char4)
CACHE_KERNEL(short2, short2)
CACHE_KERNEL(short4, short4)
CACHE_KERNEL(int2, int2)
CACHE_KERNEL(int4, int4)
CACHE_KERNEL(longlong2, longlong2)
CACHE_KERNEL(uchar2, uchar2)
CACHE_KERNEL(uchar4, uchar4)
CACHE_KERNEL(ushort2, ushort2)
CACHE_KERNEL(ushort4, ushort4)
CACHE_KERNEL(uint2, uint2)
CACHE_KERNEL(uint4, uint4)
CACHE_KERNEL(ulonglong2, ulonglong2)
CACHE_KERNEL(float2, float2)
CACHE_KERNEL(float4, float4)
CACHE_KERNEL(double2, double2)

// ------------------------------------ directed-rounding double arithmetic
// 64 results per thread (64-bit slots) from x = in[3t], y = in[3t+1],
// z = in[3t+2].
#define R4(OP, ...) OP##_rn(__VA_ARGS__), OP##_rz(__VA_ARGS__), OP##_ru(__VA_ARGS__), \
                    OP##_rd(__VA_ARGS__)
extern "C" __global__ void fp_ops(const double *in, unsigned long long *out)
{
    unsigned t = threadIdx.x;
    double x = in[3 * t], y = in[3 * t + 1], z = in[3 * t + 2];
    unsigned long long *o = out + 64 * t;
    int k = 0;
    double d[] = {R4(__dadd, x, y), R4(__dsub, x, y), R4(__dmul, x, y), R4(__ddiv, x, y),
                  R4(__drcp, x),    R4(__dsqrt, x),   R4(__fma, x, y, z)};
    for (unsigned i = 0; i < 28; i++)
        o[k++] = (unsigned long long)__double_as_longlong(d[i]);
    float xf = __double2float_rn(y), yf = __double2float_rn(z), zf = __double2float_rn(x);
    float f[] = {__double2float_rn(x), __double2float_rz(x), __double2float_ru(x),
                 __double2float_rd(x), R4(__fmaf_ieee, xf, yf, zf)};
    for (unsigned i = 0; i < 8; i++)
        o[k++] = __float_as_uint(f[i]);
    o[k++] = (unsigned)__double2int_rn(x);
    o[k++] = (unsigned)__double2int_ru(x);
    o[k++] = (unsigned)__double2int_rd(x);
    o[k++] = __double2uint_rn(x);
    o[k++] = __double2uint_ru(x);
    o[k++] = __double2uint_rd(x);
    o[k++] = (unsigned long long)__double2ll_rn(x);
    o[k++] = (unsigned long long)__double2ll_ru(x);
    o[k++] = (unsigned long long)__double2ll_rd(x);
    o[k++] = __double2ull_rn(x);
    o[k++] = __double2ull_ru(x);
    o[k++] = __double2ull_rd(x);
    long long lx = __double_as_longlong(y);
    o[k++] = (unsigned long long)__double_as_longlong(__int2double_rn((int)lx));
    o[k++] = (unsigned long long)__double_as_longlong(__uint2double_rn((unsigned)lx));
    double l[] = {R4(__ll2double, lx), R4(__ull2double, (unsigned long long)lx)};
    for (unsigned i = 0; i < 8; i++)
        o[k++] = (unsigned long long)__double_as_longlong(l[i]);
    o[k++] = (unsigned)__double2hiint(x);
    o[k++] = (unsigned)__double2loint(x);
    o[k++] = (unsigned long long)__double_as_longlong(
        __hiloint2double(__double2loint(y), __double2hiint(z)));
    o[k++] = (unsigned long long)__double_as_longlong(__longlong_as_double(lx + 1));
    while (k < 64)
        o[k++] = 0;
}
