// The mma.h sweep (issue 17): every device function of nvcuda::wmma
// (crt/mma.h, crt/mma.hpp) as nvcc 13 compiles it for sm_75, sm_80 and
// sm_90 -- fill_fragment, load_matrix_sync (operands without a layout
// argument, accumulators with mem_row_major / mem_col_major), mma_sync
// (with and without satf where declared), bmma_sync (XOR and, from sm_80,
// AND), store_matrix_sync (both layouts), __float_to_tf32, and the
// fragment members x[], num_elements, num_storage_elements used
// uniformly -- for every fragment shape and type the header declares.
// tests/runtime/test_sweep_mma.c (runtime_sweep_mma) runs each kernel
// against a CPU GEMM.
//
// One kernel per (shape, operand type, C type, D type), one warp each:
//   k(a, b, c, d, cfg, info)
// cfg[0..3]  leading dimensions of A, B, C, D (elements)
// cfg[4]     flags (below); A/B fragment layouts are chosen at run time
//            among the four row/col instantiations
// cfg[5..6]  fill_fragment value for A and B (raw bits; double: lo, hi)
// cfg[7..8]  fill_fragment value for C
// cfg[9..10] element-wise operand for A's and B's fragments: multiplied
//            (s8/u8 wrap; f16/bf16 __hmul; f32/f64 rounded products),
//            for packed s4/u4/b1 storage XORed (a uniform NOT per element)
// cfg[11..12] element-wise factor for D's fragment
// cfg[13..16] buffer sizes in bytes (the *_shared kernels)
// info[0..5] num_elements of A, B, C, D, num_storage_elements of A, B
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

enum {
    A_COL = 1, B_COL = 2, C_COL = 4, D_COL = 8, FILL_C = 16, FILL_AB = 32, SATF = 64,
    OP_AB = 128, OP_D = 256, BIT_AND = 512, TF32_CVT = 1024, EXPLICIT = 2048
};

template <class T> __device__ T val(const int *p);
template <> __device__ __half val<__half>(const int *p) { return __ushort_as_half((unsigned short)p[0]); }
template <> __device__ __nv_bfloat16 val<__nv_bfloat16>(const int *p)
{
    return __ushort_as_bfloat16((unsigned short)p[0]);
}
template <> __device__ float val<float>(const int *p) { return __int_as_float(p[0]); }
template <> __device__ double val<double>(const int *p) { return __hiloint2double(p[1], p[0]); }
template <> __device__ int val<int>(const int *p) { return p[0]; }
template <> __device__ unsigned val<unsigned>(const int *p) { return (unsigned)p[0]; }
template <> __device__ signed char val<signed char>(const int *p) { return (signed char)p[0]; }
template <> __device__ unsigned char val<unsigned char>(const int *p) { return (unsigned char)p[0]; }

__device__ __half mul(__half a, __half b) { return __hmul(a, b); }
#if __CUDA_ARCH__ >= 800
__device__ __nv_bfloat16 mul(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
#endif
__device__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ int mul(int a, int b) { return (int)((unsigned)a * (unsigned)b); }
__device__ signed char mul(signed char a, signed char b) { return (signed char)(a * b); }
__device__ unsigned char mul(unsigned char a, unsigned char b) { return (unsigned char)(a * b); }

// x[i] op for every storage element of a fragment whose element type is T
template <class T> struct elem {
    template <class F> static __device__ void op(F &f, const int *p)
    {
        typedef typename F::storage_element_type S;
        S s = val<S>(p);
        for (int i = 0; i < f.num_elements; i++)
            f.x[i] = mul(f.x[i], s);
    }
};
template <class T> struct packed {
    template <class F> static __device__ void op(F &f, const int *p)
    {
        typedef typename F::storage_element_type S;
        S s = val<S>(p);
        for (int i = 0; i < f.num_storage_elements; i++)
            f.x[i] ^= s;
    }
};
template <> struct elem<wmma::experimental::precision::s4> : packed<int> {};
template <> struct elem<wmma::experimental::precision::u4> : packed<unsigned> {};
template <> struct elem<wmma::experimental::precision::b1> : packed<unsigned> {};

enum { PLAIN, SATFINITE, BMMA };

template <class T> struct is_tf32 { enum { value = 0 }; };
#if __CUDA_ARCH__ >= 800
template <> struct is_tf32<wmma::precision::tf32> { enum { value = 1 }; };
#endif

template <int M, int N, int K, class T, class LA, class LB, class TC, class TD, int KIND, class E>
__device__ void run(const void *a, const void *b, const void *c, void *d, const int *cfg, int *info)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
    wmma::fragment<wmma::accumulator, M, N, K, TD> fd;
    typedef typename wmma::helper_traits<T>::fill_argument_type FA;
    int fl = cfg[4];
    if (fl & FILL_AB) {
        wmma::fill_fragment(fa, val<FA>(cfg + 5));
        wmma::fill_fragment(fb, val<FA>(cfg + 5));
    } else {
        wmma::load_matrix_sync(fa, (const E *)a, cfg[0]);
        wmma::load_matrix_sync(fb, (const E *)b, cfg[1]);
    }
    if (fl & FILL_C)
        wmma::fill_fragment(fc, val<TC>(cfg + 7));
    else
        wmma::load_matrix_sync(fc, (const TC *)c, cfg[2],
                               (fl & C_COL) ? wmma::mem_col_major : wmma::mem_row_major);
    if (fl & OP_AB) {
        elem<T>::op(fa, cfg + 9);
        elem<T>::op(fb, cfg + 9);
    }
#if __CUDA_ARCH__ >= 800
    if (is_tf32<T>::value && (fl & TF32_CVT)) { // the documented preparation of tf32 operands
        for (int i = 0; i < fa.num_elements; i++)
            fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
        for (int i = 0; i < fb.num_elements; i++)
            fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    }
#endif
    if constexpr (KIND == SATFINITE) {
        if (fl & EXPLICIT)
            wmma::mma_sync(fd, fa, fb, fc, (fl & SATF) != 0);
        else
            wmma::mma_sync(fd, fa, fb, fc);
    } else if constexpr (KIND == BMMA) {
#if __CUDA_ARCH__ >= 800
        if (fl & BIT_AND)
            wmma::bmma_sync(fd, fa, fb, fc, wmma::experimental::bmmaBitOpAND,
                            wmma::experimental::bmmaAccumulateOpPOPC);
        else
#endif
        if (fl & EXPLICIT)
            wmma::bmma_sync(fd, fa, fb, fc, wmma::experimental::bmmaBitOpXOR,
                            wmma::experimental::bmmaAccumulateOpPOPC);
        else
            wmma::bmma_sync(fd, fa, fb, fc);
    } else {
        wmma::mma_sync(fd, fa, fb, fc);
    }
    if (fl & OP_D)
        elem<TD>::op(fd, cfg + 11);
    wmma::store_matrix_sync((TD *)d, fd, cfg[3],
                            (fl & D_COL) ? wmma::mem_col_major : wmma::mem_row_major);
    if (threadIdx.x == 0) {
        info[0] = fa.num_elements;
        info[1] = fb.num_elements;
        info[2] = fc.num_elements;
        info[3] = fd.num_elements;
        info[4] = fa.num_storage_elements;
        info[5] = fb.num_storage_elements;
    }
}

// the four A/B layouts, chosen by cfg[4] bits 0 and 1
template <int M, int N, int K, class T, class TC, class TD, int KIND, class E>
__device__ void run4(const void *a, const void *b, const void *c, void *d, const int *cfg,
                     int *info)
{
    typedef wmma::row_major R;
    typedef wmma::col_major C;
    switch (cfg[4] & 3) {
    case 0: run<M, N, K, T, R, R, TC, TD, KIND, E>(a, b, c, d, cfg, info); break;
    case 1: run<M, N, K, T, C, R, TC, TD, KIND, E>(a, b, c, d, cfg, info); break;
    case 2: run<M, N, K, T, R, C, TC, TD, KIND, E>(a, b, c, d, cfg, info); break;
    default: run<M, N, K, T, C, C, TC, TD, KIND, E>(a, b, c, d, cfg, info); break;
    }
}

// The same through shared memory (wmma.load/store .shared): A, B, C and
// D's buffer (with its padding) copied in, D copied back; cfg[13..16] are
// the four buffer sizes in bytes (multiples of 16, at most 4096).
__device__ void copy16(void *dst, const void *src, int bytes)
{
    for (int i = threadIdx.x; i < bytes / 16; i += 32)
        ((uint4 *)dst)[i] = ((const uint4 *)src)[i];
}

template <int M, int N, int K, class T, class TC, class TD, int KIND, class E, bool SUB>
__device__ void run_shared(const void *a, const void *b, const void *c, void *d, const int *cfg,
                           int *info)
{
    __shared__ __align__(128) unsigned char sa[4096], sb[4096], sc[4096], sd[4096];
    copy16(sa, a, cfg[13]);
    copy16(sb, b, cfg[14]);
    copy16(sc, c, cfg[15]);
    copy16(sd, d, cfg[16]);
    __syncwarp();
    if constexpr (SUB)
        run<M, N, K, T, wmma::row_major, wmma::col_major, TC, TD, KIND, E>(sa, sb, sc, sd, cfg,
                                                                           info);
    else
        run4<M, N, K, T, TC, TD, KIND, E>(sa, sb, sc, sd, cfg, info);
    __syncwarp();
    copy16(d, sd, cfg[16]);
}

#define PARAMS const void *a, const void *b, const void *c, void *d, const int *cfg, int *info
#define KS(name, M, N, K, T, TC, TD, KIND, E, SUB)                                             \
    extern "C" __global__ void name(PARAMS)                                                    \
    {                                                                                          \
        run_shared<M, N, K, T, TC, TD, KIND, E, SUB>(a, b, c, d, cfg, info);                   \
    }
#define K4(name, M, N, K, T, TC, TD, KIND, E)                                                  \
    extern "C" __global__ void name(PARAMS) { run4<M, N, K, T, TC, TD, KIND, E>(a, b, c, d, cfg, info); }

#define F16_SHAPE(s, M, N, K)                                                                  \
    K4(wmma_f16_##s##_f16_f16, M, N, K, __half, __half, __half, PLAIN, __half)                 \
    K4(wmma_f16_##s##_f16_f32, M, N, K, __half, __half, float, PLAIN, __half)                  \
    K4(wmma_f16_##s##_f32_f16, M, N, K, __half, float, __half, PLAIN, __half)                  \
    K4(wmma_f16_##s##_f32_f32, M, N, K, __half, float, float, PLAIN, __half)                   \
    K4(wmma_s8_##s, M, N, K, signed char, int, int, SATFINITE, signed char)                    \
    K4(wmma_u8_##s, M, N, K, unsigned char, int, int, SATFINITE, unsigned char)

F16_SHAPE(m16n16k16, 16, 16, 16)
F16_SHAPE(m32n8k16, 32, 8, 16)
F16_SHAPE(m8n32k16, 8, 32, 16)

// sub-byte: A row_major, B col_major only
extern "C" __global__ void wmma_s4_m8n8k32(PARAMS)
{
    run<8, 8, 32, wmma::experimental::precision::s4, wmma::row_major, wmma::col_major, int, int,
        SATFINITE, void>(a, b, c, d, cfg, info);
}
extern "C" __global__ void wmma_u4_m8n8k32(PARAMS)
{
    run<8, 8, 32, wmma::experimental::precision::u4, wmma::row_major, wmma::col_major, int, int,
        SATFINITE, void>(a, b, c, d, cfg, info);
}
extern "C" __global__ void wmma_b1_m8n8k128(PARAMS)
{
    run<8, 8, 128, wmma::experimental::precision::b1, wmma::row_major, wmma::col_major, int, int,
        BMMA, void>(a, b, c, d, cfg, info);
}

KS(wmma_f16_m16n16k16_f32_f16_shared, 16, 16, 16, __half, float, __half, PLAIN, __half, false)
KS(wmma_s8_m32n8k16_shared, 32, 8, 16, signed char, int, int, SATFINITE, signed char, false)
KS(wmma_u4_m8n8k32_shared, 8, 8, 32, wmma::experimental::precision::u4, int, int, SATFINITE, void,
   true)
KS(wmma_b1_m8n8k128_shared, 8, 8, 128, wmma::experimental::precision::b1, int, int, BMMA, void,
   true)

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
KS(wmma_bf16_m8n32k16_shared, 8, 32, 16, __nv_bfloat16, float, float, PLAIN, __nv_bfloat16, false)
KS(wmma_tf32_m16n16k8_shared, 16, 16, 8, wmma::precision::tf32, float, float, PLAIN, float, false)
KS(wmma_f64_m8n8k4_shared, 8, 8, 4, double, double, double, PLAIN, double, false)
K4(wmma_bf16_m16n16k16, 16, 16, 16, __nv_bfloat16, float, float, PLAIN, __nv_bfloat16)
K4(wmma_bf16_m32n8k16, 32, 8, 16, __nv_bfloat16, float, float, PLAIN, __nv_bfloat16)
K4(wmma_bf16_m8n32k16, 8, 32, 16, __nv_bfloat16, float, float, PLAIN, __nv_bfloat16)
K4(wmma_tf32_m16n16k8, 16, 16, 8, wmma::precision::tf32, float, float, PLAIN, float)
K4(wmma_f64_m8n8k4, 8, 8, 4, double, double, double, PLAIN, double)

// __float_to_tf32 on its own: out[i] = __float_to_tf32(in[i])
extern "C" __global__ void float_to_tf32(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = wmma::__float_to_tf32(in[i]);
}
#endif
