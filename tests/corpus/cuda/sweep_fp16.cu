// tests/corpus/cuda/sweep_fp16.cu — the cuda_fp16.h intrinsics sweep: every
// __device__ function the header declares for __half and __half2 (conversions,
// arithmetic, comparisons, math, warp shuffles, cache-hint loads and stores,
// atomicAdd), called from a few kernels that write raw result bits.
// tests/runtime/test_sweep_fp16.c runs the committed PTX for sm_75, sm_80 and
// sm_90 (scripts/regen-ptx.sh) and checks each result against a CPU model
// written from the CUDA Math API and PTX ISA manuals.
//
// Many functions lower differently per target (the header picks max.f16,
// max.NaN.f16, fma.rn.relu.f16 and cvt.rn.f16x2.f32 on sm_80+, float
// emulation or software fallbacks below), so all three targets are checked.
#include <cuda_fp16.h>

#define FULL 0xffffffffu

static __device__ __forceinline__ __half H(unsigned short b)
{
    return __ushort_as_half(b);
}
static __device__ __forceinline__ unsigned short B(__half h)
{
    return __half_as_ushort(h);
}
static __device__ __forceinline__ __half2 H2(unsigned v)
{
    __half2 r;
    *reinterpret_cast<unsigned *>(&r) = v;
    return r;
}
static __device__ __forceinline__ unsigned B2(__half2 h)
{
    return *reinterpret_cast<unsigned *>(&h);
}

// 40 results per input half: half -> float / integer conversions in every
// rounding mode, bit casts, classification, rounding to integral, neg, abs.
extern "C" __global__ void from_half(const unsigned short *in, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half h = H(in[i]);
    unsigned long long *o = out + 40 * i;
    o[0] = __float_as_uint(__half2float(h));
    o[1] = (unsigned)__half2int_rn(h);
    o[2] = (unsigned)__half2int_rz(h);
    o[3] = (unsigned)__half2int_rd(h);
    o[4] = (unsigned)__half2int_ru(h);
    o[5] = __half2uint_rn(h);
    o[6] = __half2uint_rz(h);
    o[7] = __half2uint_rd(h);
    o[8] = __half2uint_ru(h);
    o[9] = (unsigned long long)__half2ll_rn(h);
    o[10] = (unsigned long long)__half2ll_rz(h);
    o[11] = (unsigned long long)__half2ll_rd(h);
    o[12] = (unsigned long long)__half2ll_ru(h);
    o[13] = __half2ull_rn(h);
    o[14] = __half2ull_rz(h);
    o[15] = __half2ull_rd(h);
    o[16] = __half2ull_ru(h);
    o[17] = (unsigned short)__half2short_rn(h);
    o[18] = (unsigned short)__half2short_rz(h);
    o[19] = (unsigned short)__half2short_rd(h);
    o[20] = (unsigned short)__half2short_ru(h);
    o[21] = __half2ushort_rn(h);
    o[22] = __half2ushort_rz(h);
    o[23] = __half2ushort_rd(h);
    o[24] = __half2ushort_ru(h);
    o[25] = (unsigned char)__half2char_rz(h);
    o[26] = __half2uchar_rz(h);
    o[27] = (unsigned short)__half_as_short(h);
    o[28] = __half_as_ushort(h);
    o[29] = (unsigned)__hisnan(h);
    o[30] = (unsigned)__hisinf(h);
    o[31] = B(hceil(h));
    o[32] = B(hfloor(h));
    o[33] = B(htrunc(h));
    o[34] = B(hrint(h));
    o[35] = B(__hneg(h));
    o[36] = B(__habs(h));
    o[37] = B(__short_as_half(__half_as_short(h)));
    o[38] = __float_as_uint(__low2float(__half2half2(h)));
    o[39] = 0;
}

// 32 results per input: float / double / integer -> half in every rounding
// mode. The integer inputs are the truncations of one 64-bit value.
extern "C" __global__ void to_half(const float *fin, const double *din, const long long *lin,
                                   unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = fin[i];
    double d = din[i];
    long long l = lin[i];
    unsigned short *o = out + 32 * i;
    o[0] = B(__float2half(f));
    o[1] = B(__float2half_rn(f));
    o[2] = B(__float2half_rz(f));
    o[3] = B(__float2half_rd(f));
    o[4] = B(__float2half_ru(f));
    o[5] = B(__double2half(d));
    o[6] = B(__int2half_rn((int)l));
    o[7] = B(__int2half_rz((int)l));
    o[8] = B(__int2half_rd((int)l));
    o[9] = B(__int2half_ru((int)l));
    o[10] = B(__uint2half_rn((unsigned)l));
    o[11] = B(__uint2half_rz((unsigned)l));
    o[12] = B(__uint2half_rd((unsigned)l));
    o[13] = B(__uint2half_ru((unsigned)l));
    o[14] = B(__ll2half_rn(l));
    o[15] = B(__ll2half_rz(l));
    o[16] = B(__ll2half_rd(l));
    o[17] = B(__ll2half_ru(l));
    o[18] = B(__ull2half_rn((unsigned long long)l));
    o[19] = B(__ull2half_rz((unsigned long long)l));
    o[20] = B(__ull2half_rd((unsigned long long)l));
    o[21] = B(__ull2half_ru((unsigned long long)l));
    o[22] = B(__short2half_rn((short)l));
    o[23] = B(__short2half_rz((short)l));
    o[24] = B(__short2half_rd((short)l));
    o[25] = B(__short2half_ru((short)l));
    o[26] = B(__ushort2half_rn((unsigned short)l));
    o[27] = B(__ushort2half_rz((unsigned short)l));
    o[28] = B(__ushort2half_rd((unsigned short)l));
    o[29] = B(__ushort2half_ru((unsigned short)l));
    o[30] = B(__short_as_half((short)l));
    o[31] = B(__ushort_as_half((unsigned short)l));
}

// 32 results per (a, b, c): scalar arithmetic and comparisons.
extern "C" __global__ void half_arith(const unsigned short *ain, const unsigned short *bin,
                                      const unsigned short *cin, unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half a = H(ain[i]), b = H(bin[i]), c = H(cin[i]);
    unsigned short *o = out + 32 * i;
    o[0] = B(__hadd(a, b));
    o[1] = B(__hsub(a, b));
    o[2] = B(__hmul(a, b));
    o[3] = B(__hdiv(a, b));
    o[4] = B(__hadd_sat(a, b));
    o[5] = B(__hsub_sat(a, b));
    o[6] = B(__hmul_sat(a, b));
    o[7] = B(__hadd_rn(a, b));
    o[8] = B(__hsub_rn(a, b));
    o[9] = B(__hmul_rn(a, b));
    o[10] = B(__hfma(a, b, c));
    o[11] = B(__hfma_sat(a, b, c));
    o[12] = B(__hfma_relu(a, b, c));
    o[13] = B(__hmax(a, b));
    o[14] = B(__hmin(a, b));
    o[15] = B(__hmax_nan(a, b));
    o[16] = B(__hmin_nan(a, b));
    o[17] = __heq(a, b);
    o[18] = __hne(a, b);
    o[19] = __hle(a, b);
    o[20] = __hge(a, b);
    o[21] = __hlt(a, b);
    o[22] = __hgt(a, b);
    o[23] = __hequ(a, b);
    o[24] = __hneu(a, b);
    o[25] = __hleu(a, b);
    o[26] = __hgeu(a, b);
    o[27] = __hltu(a, b);
    o[28] = __hgtu(a, b);
    o[29] = 0;
    o[30] = 0;
    o[31] = 0;
}

// 80 results per (a, b, c) half2 triple and float pair: vector arithmetic,
// comparisons (half2, mask and bool forms) and data movement.
extern "C" __global__ void half2_ops(const unsigned *ain, const unsigned *bin, const unsigned *cin,
                                     const float *fin, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 a = H2(ain[i]), b = H2(bin[i]), c = H2(cin[i]);
    float f0 = fin[2 * i], f1 = fin[2 * i + 1];
    unsigned *o = out + 80 * i;
    o[0] = B2(__hadd2(a, b));
    o[1] = B2(__hsub2(a, b));
    o[2] = B2(__hmul2(a, b));
    o[3] = B2(__h2div(a, b));
    o[4] = B2(__hadd2_sat(a, b));
    o[5] = B2(__hsub2_sat(a, b));
    o[6] = B2(__hmul2_sat(a, b));
    o[7] = B2(__hadd2_rn(a, b));
    o[8] = B2(__hsub2_rn(a, b));
    o[9] = B2(__hmul2_rn(a, b));
    o[10] = B2(__hfma2(a, b, c));
    o[11] = B2(__hfma2_sat(a, b, c));
    o[12] = B2(__hfma2_relu(a, b, c));
    o[13] = B2(__hmax2(a, b));
    o[14] = B2(__hmin2(a, b));
    o[15] = B2(__hmax2_nan(a, b));
    o[16] = B2(__hmin2_nan(a, b));
    o[17] = B2(__hcmadd(a, b, c));
    o[18] = B2(__hneg2(a));
    o[19] = B2(__habs2(a));
    o[20] = B2(__heq2(a, b));
    o[21] = B2(__hne2(a, b));
    o[22] = B2(__hle2(a, b));
    o[23] = B2(__hge2(a, b));
    o[24] = B2(__hlt2(a, b));
    o[25] = B2(__hgt2(a, b));
    o[26] = B2(__hequ2(a, b));
    o[27] = B2(__hneu2(a, b));
    o[28] = B2(__hleu2(a, b));
    o[29] = B2(__hgeu2(a, b));
    o[30] = B2(__hltu2(a, b));
    o[31] = B2(__hgtu2(a, b));
    o[32] = __heq2_mask(a, b);
    o[33] = __hne2_mask(a, b);
    o[34] = __hle2_mask(a, b);
    o[35] = __hge2_mask(a, b);
    o[36] = __hlt2_mask(a, b);
    o[37] = __hgt2_mask(a, b);
    o[38] = __hequ2_mask(a, b);
    o[39] = __hneu2_mask(a, b);
    o[40] = __hleu2_mask(a, b);
    o[41] = __hgeu2_mask(a, b);
    o[42] = __hltu2_mask(a, b);
    o[43] = __hgtu2_mask(a, b);
    o[44] = __hbeq2(a, b);
    o[45] = __hbne2(a, b);
    o[46] = __hble2(a, b);
    o[47] = __hbge2(a, b);
    o[48] = __hblt2(a, b);
    o[49] = __hbgt2(a, b);
    o[50] = __hbequ2(a, b);
    o[51] = __hbneu2(a, b);
    o[52] = __hbleu2(a, b);
    o[53] = __hbgeu2(a, b);
    o[54] = __hbltu2(a, b);
    o[55] = __hbgtu2(a, b);
    o[56] = B2(__hisnan2(a));
    o[57] = B2(__lowhigh2highlow(a));
    o[58] = B(__low2half(a));
    o[59] = B(__high2half(a));
    o[60] = B2(__halves2half2(__low2half(a), __high2half(b)));
    o[61] = B2(__low2half2(a));
    o[62] = B2(__high2half2(a));
    o[63] = B2(__lows2half2(a, b));
    o[64] = B2(__highs2half2(a, b));
    o[65] = B2(__half2half2(__high2half(c)));
    o[66] = __float_as_uint(__low2float(a));
    o[67] = __float_as_uint(__high2float(a));
    float2 g = __half22float2(b);
    o[68] = __float_as_uint(g.x);
    o[69] = __float_as_uint(g.y);
    o[70] = B2(__float22half2_rn(make_float2(f0, f1)));
    o[71] = B2(__float2half2_rn(f0));
    o[72] = B2(__floats2half2_rn(f0, f1));
    o[73] = B2(make_half2(__low2half(a), __low2half(b)));
    for (int k = 74; k < 80; k++)
        o[k] = 0;
}

// 16 results per input half: math functions.
extern "C" __global__ void half_math(const unsigned short *in, unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half a = H(in[i]);
    unsigned short *o = out + 16 * i;
    o[0] = B(hsqrt(a));
    o[1] = B(hrsqrt(a));
    o[2] = B(hrcp(a));
    o[3] = B(hexp(a));
    o[4] = B(hexp2(a));
    o[5] = B(hexp10(a));
    o[6] = B(hlog(a));
    o[7] = B(hlog2(a));
    o[8] = B(hlog10(a));
    o[9] = B(hsin(a));
    o[10] = B(hcos(a));
    o[11] = B(htanh(a));
    o[12] = B(htanh_approx(a));
    o[13] = 0;
    o[14] = 0;
    o[15] = 0;
}

// 20 results per input half2: the h2 math functions.
extern "C" __global__ void half2_math(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 a = H2(in[i]);
    unsigned *o = out + 20 * i;
    o[0] = B2(h2sqrt(a));
    o[1] = B2(h2rsqrt(a));
    o[2] = B2(h2rcp(a));
    o[3] = B2(h2exp(a));
    o[4] = B2(h2exp2(a));
    o[5] = B2(h2exp10(a));
    o[6] = B2(h2log(a));
    o[7] = B2(h2log2(a));
    o[8] = B2(h2log10(a));
    o[9] = B2(h2sin(a));
    o[10] = B2(h2cos(a));
    o[11] = B2(h2tanh(a));
    o[12] = B2(h2tanh_approx(a));
    o[13] = B2(h2ceil(a));
    o[14] = B2(h2floor(a));
    o[15] = B2(h2trunc(a));
    o[16] = B2(h2rint(a));
    o[17] = 0;
    o[18] = 0;
    o[19] = 0;
}

// 12 results per lane (one warp): shuffles of __half and __half2.
extern "C" __global__ void half_shfl(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    __half2 v = H2(in[t]);
    __half h = __low2half(v);
    unsigned *o = out + 12 * t;
    o[0] = B(__shfl_sync(FULL, h, (int)((t * 5u + 3u) & 31u)));
    o[1] = B(__shfl_up_sync(FULL, h, 3u));
    o[2] = B(__shfl_down_sync(FULL, h, 5u));
    o[3] = B(__shfl_xor_sync(FULL, h, 9));
    o[4] = B2(__shfl_sync(FULL, v, (int)((t * 7u + 1u) & 31u)));
    o[5] = B2(__shfl_up_sync(FULL, v, 1u));
    o[6] = B2(__shfl_down_sync(FULL, v, 2u));
    o[7] = B2(__shfl_xor_sync(FULL, v, 17));
    o[8] = B(__shfl_sync(FULL, h, 3, 8));
    o[9] = B(__shfl_up_sync(FULL, h, 2u, 16));
    o[10] = B2(__shfl_down_sync(FULL, v, 3u, 8));
    o[11] = B2(__shfl_xor_sync(FULL, v, 5, 16));
}

// Cache-hint loads and stores: per thread 12 loaded values into lout, and
// the four store flavours into hst[4 * i + k] / h2st[4 * i + k].
extern "C" __global__ void half_ldst(const __half *h, const __half2 *h2, unsigned *lout,
                                     __half *hst, __half2 *h2st, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned *o = lout + 12 * i;
    o[0] = B(__ldg(h + i));
    o[1] = B(__ldcg(h + i));
    o[2] = B(__ldca(h + i));
    o[3] = B(__ldcs(h + i));
    o[4] = B(__ldlu(h + i));
    o[5] = B(__ldcv(h + i));
    o[6] = B2(__ldg(h2 + i));
    o[7] = B2(__ldcg(h2 + i));
    o[8] = B2(__ldca(h2 + i));
    o[9] = B2(__ldcs(h2 + i));
    o[10] = B2(__ldlu(h2 + i));
    o[11] = B2(__ldcv(h2 + i));
    __half x = h[i];
    __half2 y = h2[i];
    __stwb(hst + 4 * i + 0, x);
    __stcg(hst + 4 * i + 1, __hneg(x));
    __stcs(hst + 4 * i + 2, __habs(x));
    __stwt(hst + 4 * i + 3, x);
    __stwb(h2st + 4 * i + 0, y);
    __stcg(h2st + 4 * i + 1, __lowhigh2highlow(y));
    __stcs(h2st + 4 * i + 2, __hneg2(y));
    __stwt(h2st + 4 * i + 3, y);
}

// atomicAdd on __half and __half2: every thread adds to one global counter
// and one __shared__ counter of its block (exactly representable sums, so
// the order does not matter) and to its own element (one correctly rounded
// add each); the old values come back, the shared totals go to shout.
// Launched with n a multiple of the block size.
extern "C" __global__ void half_atomic(__half *ctr, __half2 *ctr2, __half *own, __half2 *own2,
                                       const unsigned short *v, const unsigned *v2,
                                       unsigned *old, unsigned *shout, int n)
{
    __shared__ __half sh;
    __shared__ __half2 sh2;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        sh = __float2half(0.0f);
        sh2 = __floats2half2_rn(0.0f, 0.0f);
    }
    __syncthreads();
    unsigned *o = old + 6 * i;
    o[0] = B(atomicAdd(ctr, __float2half(1.0f)));
    o[1] = B2(atomicAdd(ctr2, __floats2half2_rn(0.5f, -2.0f)));
    o[2] = B(atomicAdd(own + i, H(v[i])));
    o[3] = B2(atomicAdd(own2 + i, H2(v2[i])));
    o[4] = B(atomicAdd(&sh, __float2half(-0.25f)));
    o[5] = B2(atomicAdd(&sh2, __floats2half2_rn(2.0f, 0.125f)));
    __syncthreads();
    if (threadIdx.x == 0) {
        shout[2 * blockIdx.x] = B(sh);
        shout[2 * blockIdx.x + 1] = B2(sh2);
    }
    (void)n;
}

// 32 results per (a, b, d): the C++ operators and conversions of __half and
// __half2 (cuda_fp16.hpp defines them through the functions above: + - * /
// are __hadd..__hdiv, != is the unordered __hneu, half2 comparisons are the
// __hb*2 forms, conversions to integers truncate, assignments round to
// nearest).
extern "C" __global__ void half_operators(const unsigned short *ain, const unsigned short *bin,
                                          const double *din, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half a = H(ain[i]), b = H(bin[i]);
    double d = din[i];
    unsigned *o = out + 32 * i;
    o[0] = B(a + b);
    o[1] = B(a - b);
    o[2] = B(a * b);
    o[3] = B(a / b);
    __half x = a;
    x += b;
    o[4] = B(x);
    x -= b;
    o[5] = B(x);
    x *= b;
    o[6] = B(x);
    x /= b;
    o[7] = B(x);
    __half y = a;
    o[8] = B(++y);
    o[9] = B(y++);
    o[10] = B(y);
    o[11] = B(--y);
    o[12] = B(y--);
    o[13] = B(-a);
    o[14] = B(+a);
    o[15] = (unsigned)(a == b) | (unsigned)(a != b) << 1 | (unsigned)(a > b) << 2 |
            (unsigned)(a < b) << 3 | (unsigned)(a >= b) << 4 | (unsigned)(a <= b) << 5;
    __half2 p = __halves2half2(a, b), q = __halves2half2(b, a);
    o[16] = B2(p + q);
    o[17] = B2(p - q);
    o[18] = B2(p * q);
    o[19] = B2(p / q);
    __half2 r = p;
    r += q;
    r *= q;
    r -= q;
    r /= q;
    o[20] = B2(r);
    __half2 s = p;
    o[21] = B2(++s);
    o[22] = B2(s--);
    o[23] = B2(-s);
    o[24] = (unsigned)(p == q) | (unsigned)(p != q) << 1 | (unsigned)(p > q) << 2 |
            (unsigned)(p < q) << 3 | (unsigned)(p >= q) << 4 | (unsigned)(p <= q) << 5;
    o[25] = (unsigned)(int)a;
    o[26] = (unsigned)(unsigned short)a;
    o[27] = (unsigned)(signed char)a;
    o[28] = __float_as_uint((float)a);
    __half z;
    z = d;
    o[29] = B(z);
    z = (int)(long long)d;
    o[30] = B(z);
    z = (float)d;
    o[31] = B(z);
}
