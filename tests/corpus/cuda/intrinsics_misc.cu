// tests/corpus/cuda/intrinsics_misc.cu — device intrinsics from
// sm_*_intrinsics.h and device_functions.h that lower to single PTX
// instructions (match, redux, bit and byte operations, SIMD video, time
// and sleep), plus a __grid_constant__ parameter whose address is taken.
// tests/runtime/test_intrinsics.c runs the committed PTX (scripts/regen-ptx.sh)
// and checks every result against a CPU model written from the CUDA and
// PTX manuals.
#include <cstdint>

#define FULL 0xffffffffu

// 16 results per thread: warp-level match and reduce.
__global__ void warp_ops(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, v = in[t];
    unsigned *o = out + 16 * t;
    int pred = 0;
    o[0] = __match_any_sync(FULL, v & 3u);
    o[1] = __match_all_sync(FULL, v & 0u, &pred);
    o[2] = (unsigned)pred;
    o[3] = __match_all_sync(FULL, v, &pred);
    o[4] = (unsigned)pred;
    o[5] = __match_any_sync(FULL, (unsigned long long)(v & 1u) << 40);
#if __CUDA_ARCH__ >= 800
    o[6] = __reduce_add_sync(FULL, v);
    o[7] = __reduce_min_sync(FULL, v);
    o[8] = __reduce_max_sync(FULL, v);
    o[9] = (unsigned)__reduce_min_sync(FULL, (int)v - 1000);
    o[10] = (unsigned)__reduce_max_sync(FULL, (int)v - 1000);
    o[11] = __reduce_and_sync(FULL, v | 0x80000000u);
    o[12] = __reduce_or_sync(FULL, v);
    o[13] = __reduce_xor_sync(FULL, v);
#else
    for (int k = 6; k < 14; k++)
        o[k] = 0;
#endif
    o[14] = __activemask();
    o[15] = __ballot_sync(FULL, v & 1u);
}

// 16 results per thread: bit and byte intrinsics.
__global__ void bit_ops(const unsigned *in, unsigned *out)
{
    unsigned t = threadIdx.x, a = in[2 * t], b = in[2 * t + 1];
    unsigned *o = out + 16 * t;
    o[0] = __brev(a);
    o[1] = (unsigned)__clz(a);
    o[2] = (unsigned)__ffs(a);
    o[3] = (unsigned)__popc(a);
    o[4] = __byte_perm(a, b, 0x5140u + (t & 7u));
    o[5] = __funnelshift_l(a, b, t);
    o[6] = __funnelshift_r(a, b, t);
    o[7] = __funnelshift_lc(a, b, t + 20);
    o[8] = __fns(a, t, 2);
    o[9] = __vabsdiffu4(a, b);
    o[10] = __vadd2(a, b);
    o[11] = __usad(a, b, t);
    o[12] = __umulhi(a, b);
    o[13] = (unsigned)__mul24((int)a, (int)b);
    o[14] = (unsigned)__rhadd((int)a, (int)b);
    o[15] = __uhadd(a, b);
}

// Clocks never run backwards and __nanosleep returns.
__global__ void time_ops(unsigned long long *out)
{
    unsigned long long g0, g1;
    long long c0 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    __nanosleep(100);
    long long c1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    out[0] = (unsigned long long)c0;
    out[1] = (unsigned long long)c1;
    out[2] = g0;
    out[3] = g1;
}

struct Coeffs {
    int v[8];
};

// The address of a __grid_constant__ parameter is a generic address into
// the kernel's parameter space (PTX: mov of the parameter, cvta.param).
__global__ void param_address(const __grid_constant__ Coeffs c, int *out)
{
    const int *p = &c.v[0];
    unsigned t = threadIdx.x;
    out[t] = p[t & 7] * (int)(t + 1);
}

// Passed on as a generic pointer (a call that is not inlined), the
// parameter's address goes through cvta.param.
__device__ __noinline__ int pick(const int *p, unsigned i)
{
    return p[i];
}

__global__ void param_generic(const __grid_constant__ Coeffs c, int *out)
{
    unsigned t = threadIdx.x;
    out[t] = pick(c.v, 7u - (t & 7u)) + (int)t;
}
