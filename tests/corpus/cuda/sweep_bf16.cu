// tests/corpus/cuda/sweep_bf16.cu — the cuda_bf16.h sweep: every __device__
// function of cuda_bf16.h on __nv_bfloat16 / __nv_bfloat162 that sm_75,
// sm_80 or sm_90 provides (conversions in every rounding mode, data movement,
// arithmetic, comparisons, math, warp shuffles, cache-hint loads and stores,
// atomicAdd). Functions a target lacks are guarded by __CUDA_ARCH__ and their
// slots are written as 0. tests/runtime/test_sweep_bf16.c runs the committed
// PTX (scripts/regen-ptx.sh) and checks every slot against a CPU model.
#include <cuda_bf16.h>

typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

static __device__ __forceinline__ u32 B(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
static __device__ __forceinline__ u32 B2(__nv_bfloat162 h)
{
    return B(__low2bfloat16(h)) | (B(__high2bfloat16(h)) << 16);
}
static __device__ __forceinline__ __nv_bfloat16 H(u16 x) { return __ushort_as_bfloat16(x); }
static __device__ __forceinline__ u32 F(float f) { return __float_as_uint(f); }

// 40 slots per element: conversions to bf16.
#define NCONV_TO 40
__global__ void conv_to_bf16(const float *fs, const double *ds, const long long *ls, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float f = fs[i], g = fs[i ^ 1];
    double d = ds[i];
    long long l = ls[i];
    u32 *o = out + NCONV_TO * i;
    o[0] = B(__float2bfloat16(f));
    o[1] = B(__float2bfloat16_rn(f));
    o[2] = B(__float2bfloat16_rz(f));
    o[3] = B(__float2bfloat16_rd(f));
    o[4] = B(__float2bfloat16_ru(f));
    o[5] = B(__double2bfloat16(d));
    o[6] = B(__int2bfloat16_rn((int)l));
    o[7] = B(__int2bfloat16_rz((int)l));
    o[8] = B(__int2bfloat16_rd((int)l));
    o[9] = B(__int2bfloat16_ru((int)l));
    o[10] = B(__uint2bfloat16_rn((unsigned)l));
    o[11] = B(__uint2bfloat16_rz((unsigned)l));
    o[12] = B(__uint2bfloat16_rd((unsigned)l));
    o[13] = B(__uint2bfloat16_ru((unsigned)l));
    o[14] = B(__short2bfloat16_rn((short)l));
    o[15] = B(__short2bfloat16_rz((short)l));
    o[16] = B(__short2bfloat16_rd((short)l));
    o[17] = B(__short2bfloat16_ru((short)l));
    o[18] = B(__ushort2bfloat16_rn((unsigned short)l));
    o[19] = B(__ushort2bfloat16_rz((unsigned short)l));
    o[20] = B(__ushort2bfloat16_rd((unsigned short)l));
    o[21] = B(__ushort2bfloat16_ru((unsigned short)l));
    o[22] = B(__ll2bfloat16_rn(l));
    o[23] = B(__ll2bfloat16_rz(l));
    o[24] = B(__ll2bfloat16_rd(l));
    o[25] = B(__ll2bfloat16_ru(l));
    o[26] = B(__ull2bfloat16_rn((u64)l));
    o[27] = B(__ull2bfloat16_rz((u64)l));
    o[28] = B(__ull2bfloat16_rd((u64)l));
    o[29] = B(__ull2bfloat16_ru((u64)l));
    o[30] = B2(__float2bfloat162_rn(f));
    o[31] = B2(__floats2bfloat162_rn(f, g));
    o[32] = B2(__float22bfloat162_rn(make_float2(g, f)));
    __nv_bfloat16 fromf(f);   // constructor: __float2bfloat16
    __nv_bfloat16 fromd(d);   // constructor: __double2bfloat16
    o[33] = B(fromf);
    o[34] = B(fromd);
    o[35] = B(__short_as_bfloat16((short)l));
    o[36] = B(__ushort_as_bfloat16((unsigned short)(l >> 16)));
    o[37] = B2(make_bfloat162(H((u16)l), H((u16)(l >> 16))));
    __nv_bfloat16 t;
    t = (int)l;               // operator=(int): __int2bfloat16_rn
    o[38] = B(t);
    t = (u64)l;               // operator=(unsigned long long): __ull2bfloat16_rn
    o[39] = B(t);
}

// 56 slots per element: conversions from bf16 and data movement.
#define NCONV_FROM 56
__global__ void conv_from_bf16(const u16 *hs, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 h = H(hs[i]), k = H(hs[i ^ 1]);
    __nv_bfloat162 p = __halves2bfloat162(h, k), q = __halves2bfloat162(k, h);
    u32 *o = out + NCONV_FROM * i;
    o[0] = F(__bfloat162float(h));
    o[1] = (u32)__bfloat162int_rn(h);
    o[2] = (u32)__bfloat162int_rz(h);
    o[3] = (u32)__bfloat162int_rd(h);
    o[4] = (u32)__bfloat162int_ru(h);
    o[5] = __bfloat162uint_rn(h);
    o[6] = __bfloat162uint_rz(h);
    o[7] = __bfloat162uint_rd(h);
    o[8] = __bfloat162uint_ru(h);
    o[9] = (u16)__bfloat162short_rn(h);
    o[10] = (u16)__bfloat162short_rz(h);
    o[11] = (u16)__bfloat162short_rd(h);
    o[12] = (u16)__bfloat162short_ru(h);
    o[13] = __bfloat162ushort_rn(h);
    o[14] = __bfloat162ushort_rz(h);
    o[15] = __bfloat162ushort_rd(h);
    o[16] = __bfloat162ushort_ru(h);
    o[17] = (unsigned char)__bfloat162char_rz(h);
    o[18] = __bfloat162uchar_rz(h);
    u64 ll[4] = {(u64)__bfloat162ll_rn(h), (u64)__bfloat162ll_rz(h), (u64)__bfloat162ll_rd(h),
                 (u64)__bfloat162ll_ru(h)};
    u64 ul[4] = {__bfloat162ull_rn(h), __bfloat162ull_rz(h), __bfloat162ull_rd(h),
                 __bfloat162ull_ru(h)};
    for (int j = 0; j < 4; j++) {
        o[19 + 2 * j] = (u32)ll[j];
        o[20 + 2 * j] = (u32)(ll[j] >> 32);
        o[27 + 2 * j] = (u32)ul[j];
        o[28 + 2 * j] = (u32)(ul[j] >> 32);
    }
    // 35..: data movement on the pair p = (h, k)
    float2 f2 = __bfloat1622float2(p);
    o[35] = F(f2.x);
    o[36] = F(f2.y);
    o[37] = F(__low2float(q));
    o[38] = F(__high2float(q));
    o[39] = B(__low2bfloat16(q)) | (B(__high2bfloat16(q)) << 16);
    o[40] = B2(__lowhigh2highlow(p));
    o[41] = B2(__low2bfloat162(q));
    o[42] = B2(__high2bfloat162(q));
    o[43] = B2(__lows2bfloat162(p, q));
    o[44] = B2(__highs2bfloat162(p, q));
    o[45] = B2(__bfloat162bfloat162(h));
    o[46] = (u16)__bfloat16_as_short(h);
    o[47] = F((float)h) ^ (u32)(float(k) < 0.0f);   // operator float
    // conversion operators: the _rz functions
    o[48] = (u32)(int)h;
    o[49] = (unsigned)h;
    o[50] = (u16)(short)h;
    o[51] = (unsigned short)h;
    o[52] = (unsigned char)(signed char)h;
    o[53] = (unsigned char)h;
    long long lh = (long long)h;
    o[54] = (u32)lh;
    o[55] = (u32)((u64)lh >> 32);
}

// 64 slots per element: bf16 arithmetic and comparisons on (a, b, c).
#define NARITH 64
__global__ void arith_bf16(const u16 *as, const u16 *bs, const u16 *cs, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 a = H(as[i]), b = H(bs[i]), c = H(cs[i]);
    u32 *o = out + NARITH * i;
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
#if __CUDA_ARCH__ >= 800
    o[10] = B(__hfma(a, b, c));
    o[11] = B(__hfma_sat(a, b, c));
    o[12] = B(__hfma_relu(a, b, c));
#else
    o[10] = o[11] = o[12] = 0;
#endif
    o[13] = B(__hneg(a));
    o[14] = B(__habs(a));
    o[15] = B(__hmax(a, b));
    o[16] = B(__hmin(a, b));
    o[17] = B(__hmax_nan(a, b));
    o[18] = B(__hmin_nan(a, b));
    o[19] = B(a + b);
    o[20] = B(a - b);
    o[21] = B(a * b);
    o[22] = B(a / b);
    o[23] = B(-a);
    o[24] = __heq(a, b);
    o[25] = __hne(a, b);
    o[26] = __hlt(a, b);
    o[27] = __hle(a, b);
    o[28] = __hgt(a, b);
    o[29] = __hge(a, b);
    o[30] = __hequ(a, b);
    o[31] = __hneu(a, b);
    o[32] = __hltu(a, b);
    o[33] = __hleu(a, b);
    o[34] = __hgtu(a, b);
    o[35] = __hgeu(a, b);
    o[36] = __hisnan(a);
    o[37] = (u32)__hisinf(a);
    o[38] = (a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5;
    __nv_bfloat16 x = a;
    x += b;
    o[39] = B(x);
    x = a;
    x -= b;
    o[40] = B(x);
    x = a;
    x *= b;
    o[41] = B(x);
    x = a;
    x /= b;
    o[42] = B(x);
    x = a;
    o[43] = B(x++) | B(x) << 16;
    x = a;
    o[44] = B(--x) | B(+a) << 16;
    for (int k = 45; k < NARITH; k++)
        o[k] = 0;
}

// 72 slots per element: bf162 arithmetic and comparisons on
// x = (a, b), y = (b, c), z = (c, a).
#define NARITH2 72
__global__ void arith_bf162(const u16 *as, const u16 *bs, const u16 *cs, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 a = H(as[i]), b = H(bs[i]), c = H(cs[i]);
    __nv_bfloat162 x = __halves2bfloat162(a, b), y = __halves2bfloat162(b, c),
                   z = __halves2bfloat162(c, a);
    u32 *o = out + NARITH2 * i;
    o[0] = B2(__hadd2(x, y));
    o[1] = B2(__hsub2(x, y));
    o[2] = B2(__hmul2(x, y));
    o[3] = B2(__h2div(x, y));
    o[4] = B2(__hadd2_sat(x, y));
    o[5] = B2(__hsub2_sat(x, y));
    o[6] = B2(__hmul2_sat(x, y));
    o[7] = B2(__hadd2_rn(x, y));
    o[8] = B2(__hsub2_rn(x, y));
    o[9] = B2(__hmul2_rn(x, y));
#if __CUDA_ARCH__ >= 800
    o[10] = B2(__hfma2(x, y, z));
    o[11] = B2(__hfma2_sat(x, y, z));
    o[12] = B2(__hfma2_relu(x, y, z));
    o[13] = B2(__hcmadd(x, y, z));
#else
    o[10] = o[11] = o[12] = o[13] = 0;
#endif
    o[14] = B2(__hneg2(x));
    o[15] = B2(__habs2(x));
    o[16] = B2(__hmax2(x, y));
    o[17] = B2(__hmin2(x, y));
    o[18] = B2(__hmax2_nan(x, y));
    o[19] = B2(__hmin2_nan(x, y));
    o[20] = B2(x + y);
    o[21] = B2(x - y);
    o[22] = B2(x * y);
    o[23] = B2(x / y);
    o[24] = B2(-x);
    o[25] = B2(__heq2(x, y));
    o[26] = B2(__hne2(x, y));
    o[27] = B2(__hlt2(x, y));
    o[28] = B2(__hle2(x, y));
    o[29] = B2(__hgt2(x, y));
    o[30] = B2(__hge2(x, y));
    o[31] = B2(__hequ2(x, y));
    o[32] = B2(__hneu2(x, y));
    o[33] = B2(__hltu2(x, y));
    o[34] = B2(__hleu2(x, y));
    o[35] = B2(__hgtu2(x, y));
    o[36] = B2(__hgeu2(x, y));
    o[37] = __heq2_mask(x, y);
    o[38] = __hne2_mask(x, y);
    o[39] = __hlt2_mask(x, y);
    o[40] = __hle2_mask(x, y);
    o[41] = __hgt2_mask(x, y);
    o[42] = __hge2_mask(x, y);
    o[43] = __hequ2_mask(x, y);
    o[44] = __hneu2_mask(x, y);
    o[45] = __hltu2_mask(x, y);
    o[46] = __hleu2_mask(x, y);
    o[47] = __hgtu2_mask(x, y);
    o[48] = __hgeu2_mask(x, y);
    o[49] = __hbeq2(x, y);
    o[50] = __hbne2(x, y);
    o[51] = __hblt2(x, y);
    o[52] = __hble2(x, y);
    o[53] = __hbgt2(x, y);
    o[54] = __hbge2(x, y);
    o[55] = __hbequ2(x, y);
    o[56] = __hbneu2(x, y);
    o[57] = __hbltu2(x, y);
    o[58] = __hbleu2(x, y);
    o[59] = __hbgtu2(x, y);
    o[60] = __hbgeu2(x, y);
    o[61] = B2(__hisnan2(x));
    o[62] = (x == y) | (x != y) << 1 | (x < y) << 2 | (x <= y) << 3 | (x > y) << 4 |
            (x >= y) << 5;
    __nv_bfloat162 w = x;
    w += y;
    o[63] = B2(w);
    w = x;
    w -= y;
    o[64] = B2(w);
    w = x;
    w *= y;
    o[65] = B2(w);
    w = x;
    w /= y;
    o[66] = B2(w);
    for (int k = 67; k < NARITH2; k++)
        o[k] = 0;
}

// 40 slots per element: math functions on a and on the pair (a, b).
#define NMATH 40
__global__ void math_bf16(const u16 *as, const u16 *bs, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 a = H(as[i]), b = H(bs[i]);
    __nv_bfloat162 x = __halves2bfloat162(a, b);
    u32 *o = out + NMATH * i;
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
    o[13] = B(hceil(a));
    o[14] = B(hfloor(a));
    o[15] = B(htrunc(a));
    o[16] = B(hrint(a));
    o[17] = B2(h2sqrt(x));
    o[18] = B2(h2rsqrt(x));
    o[19] = B2(h2rcp(x));
    o[20] = B2(h2exp(x));
    o[21] = B2(h2exp2(x));
    o[22] = B2(h2exp10(x));
    o[23] = B2(h2log(x));
    o[24] = B2(h2log2(x));
    o[25] = B2(h2log10(x));
    o[26] = B2(h2sin(x));
    o[27] = B2(h2cos(x));
    o[28] = B2(h2tanh(x));
    o[29] = B2(h2tanh_approx(x));
    o[30] = B2(h2ceil(x));
    o[31] = B2(h2floor(x));
    o[32] = B2(h2trunc(x));
    o[33] = B2(h2rint(x));
    for (int k = 34; k < NMATH; k++)
        o[k] = 0;
}

// Warp shuffles: 8 slots per lane; launched with 64 threads (two warps).
#define NSHFL 8
__global__ void shfl_bf16(const u16 *as, u32 *out)
{
    unsigned i = threadIdx.x;
    __nv_bfloat16 a = H(as[i]);
    __nv_bfloat162 x = __halves2bfloat162(a, H(as[i ^ 63]));
    u32 *o = out + NSHFL * i;
    o[0] = B(__shfl_sync(0xffffffffu, a, (int)(i * 7 + 3)));
    o[1] = B(__shfl_up_sync(0xffffffffu, a, 3));
    o[2] = B(__shfl_down_sync(0xffffffffu, a, 5));
    o[3] = B(__shfl_xor_sync(0xffffffffu, a, 9));
    o[4] = B2(__shfl_sync(0xffffffffu, x, (int)(i * 5 + 1), 16));
    o[5] = B2(__shfl_up_sync(0xffffffffu, x, 2, 8));
    o[6] = B2(__shfl_down_sync(0xffffffffu, x, 1, 4));
    o[7] = B2(__shfl_xor_sync(0xffffffffu, x, 6, 16));
}

// Cache-hint loads and stores: 16 slots per element.
#define NMEM 16
__global__ void mem_bf16(const __nv_bfloat16 *p, const __nv_bfloat162 *q, __nv_bfloat16 *sp,
                         __nv_bfloat162 *sq, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    u32 *o = out + NMEM * i;
    o[0] = B(__ldg(p + i));
    o[1] = B(__ldcg(p + i));
    o[2] = B(__ldca(p + i));
    o[3] = B(__ldcs(p + i));
    o[4] = B(__ldlu(p + i));
    o[5] = B(__ldcv(p + i));
    o[6] = B2(__ldg(q + i));
    o[7] = B2(__ldcg(q + i));
    o[8] = B2(__ldca(q + i));
    o[9] = B2(__ldcs(q + i));
    o[10] = B2(__ldlu(q + i));
    o[11] = B2(__ldcv(q + i));
    __nv_bfloat16 v = __ldg(p + i);
    __nv_bfloat162 w = __ldg(q + i);
    __stwb(sp + 4 * i + 0, v);
    __stcg(sp + 4 * i + 1, __hneg(v));
    __stcs(sp + 4 * i + 2, __habs(v));
    __stwt(sp + 4 * i + 3, __lowhigh2highlow(w).x);
    __stwb(sq + 4 * i + 0, w);
    __stcg(sq + 4 * i + 1, __lowhigh2highlow(w));
    __stcs(sq + 4 * i + 2, __hneg2(w));
    __stwt(sq + 4 * i + 3, __habs2(w));
    o[12] = o[13] = o[14] = o[15] = 0;
}

// atomicAdd on bf16 and bf162 (sm_80+ natively; the header has a CAS loop
// for older targets): every thread adds to its own slot (one rounding, the
// old value is returned) and to a shared counter (exact sums).
__global__ void atomic_bf16(const u16 *as, const u16 *bs, __nv_bfloat16 *acc, __nv_bfloat162 *acc2,
                            __nv_bfloat16 *ctr, __nv_bfloat162 *ctr2, u32 *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 a = H(as[i]), b = H(bs[i]);
    out[2 * i] = B(atomicAdd(acc + i, a));
    out[2 * i + 1] = B2(atomicAdd(acc2 + i, __halves2bfloat162(b, a)));
    atomicAdd(ctr, H(0x3f80));                                    // +1.0
    atomicAdd(ctr2, __halves2bfloat162(H(0x3f00), H(0xc000)));     // +0.5, -2.0
}
