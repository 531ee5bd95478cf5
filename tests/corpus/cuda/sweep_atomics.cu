// tests/corpus/cuda/sweep_atomics.cu — intrinsics sweep, atomics: every
// atomic function of device_atomic_functions.h, sm_20/32/35/60_atomic_
// functions.h (atomicAdd Sub Exch Min Max Inc Dec CAS And Or Xor for each
// type it is declared for, with the _block and _system variants of sm_60)
// and the 16-bit atomicCAS of sm_70_rt.h.  tests/runtime/
// test_sweep_intrinsics.c checks the results against a CPU model written
// from the CUDA C++ Programming Guide's definitions of the atomics.
typedef unsigned long long ull;
typedef long long ll;

// ---------------------------------------------------- single-thread sequence
// One thread interprets a list of operations; each is one atomic function
// (type x operation x scope) on the one cell of its type, and the returned
// old value is recorded, so every return value is checked exactly.  With
// `in_shared` set the cells are copied to shared memory first (the atomics
// then go through generic addresses into the shared window).
struct Op {
    int code;
    int pad;
    ull a; // operand
    ull b; // compare value (atomicCAS)
};

struct Cells {
    int i;
    unsigned u;
    ull q;
    ll l;
    float f;
    unsigned pad0;
    double d;
    unsigned short s[4];
};

#define I_OPS(X, S)                                                                   \
    X(atomicAdd##S, i, int) X(atomicSub##S, i, int) X(atomicExch##S, i, int)          \
    X(atomicMin##S, i, int) X(atomicMax##S, i, int) X(atomicAnd##S, i, int)           \
    X(atomicOr##S, i, int) X(atomicXor##S, i, int) XC(atomicCAS##S, i, int)           \
    X(atomicAdd##S, u, unsigned) X(atomicSub##S, u, unsigned)                         \
    X(atomicExch##S, u, unsigned) X(atomicMin##S, u, unsigned)                        \
    X(atomicMax##S, u, unsigned) X(atomicInc##S, u, unsigned)                         \
    X(atomicDec##S, u, unsigned) X(atomicAnd##S, u, unsigned)                         \
    X(atomicOr##S, u, unsigned) X(atomicXor##S, u, unsigned)                          \
    XC(atomicCAS##S, u, unsigned)                                                     \
    X(atomicAdd##S, q, ull) X(atomicExch##S, q, ull) X(atomicMin##S, q, ull)          \
    X(atomicMax##S, q, ull) X(atomicAnd##S, q, ull) X(atomicOr##S, q, ull)            \
    X(atomicXor##S, q, ull) XC(atomicCAS##S, q, ull)                                  \
    X(atomicMin##S, l, ll) X(atomicMax##S, l, ll) X(atomicAnd##S, l, ll)              \
    X(atomicOr##S, l, ll) X(atomicXor##S, l, ll)                                      \
    XF(atomicAdd##S, f, float) XF(atomicExch##S, f, float) XD(atomicAdd##S, d, double)

__device__ __forceinline__ float as_f(ull a) { return __uint_as_float((unsigned)a); }
__device__ __forceinline__ double as_d(ull a) { return __longlong_as_double((ll)a); }

// 36 operations per scope, in the order of I_OPS; scope 0 none, 1 _block,
// 2 _system; code 108 is atomicCAS(unsigned short *) on c->s[k], k = b >> 16.
__device__ __noinline__ ull apply(Cells *c, const Op &op)
{
    int code = 0;
#define X(F, M, T)                                                                    \
    if (op.code == code++)                                                            \
        return (ull)(T)F(&c->M, (T)op.a);
#define XC(F, M, T)                                                                   \
    if (op.code == code++)                                                            \
        return (ull)(T)F(&c->M, (T)op.b, (T)op.a);
#define XF(F, M, T)                                                                   \
    if (op.code == code++)                                                            \
        return (ull)__float_as_uint(F(&c->M, as_f(op.a)));
#define XD(F, M, T)                                                                   \
    if (op.code == code++)                                                            \
        return (ull)__double_as_longlong(F(&c->M, as_d(op.a)));
    I_OPS(X, )
    I_OPS(X, _block)
    I_OPS(X, _system)
#undef X
#undef XC
#undef XF
#undef XD
    if (op.code == code)
        return atomicCAS(&c->s[(op.b >> 16) & 3u], (unsigned short)op.b, (unsigned short)op.a);
    return ~0ull;
}

extern "C" __global__ void atomic_sequence(const Op *ops, int n, Cells *cells, ull *out,
                                           int in_shared)
{
    __shared__ Cells sh;
    if (threadIdx.x != 0)
        return;
    Cells *c = cells;
    if (in_shared) {
        sh = *cells;
        c = &sh;
    }
    for (int i = 0; i < n; i++)
        out[i] = apply(c, ops[i]);
    if (in_shared)
        *cells = sh;
}

// ------------------------------------------------------------- contention
// Every thread of every block applies the same operations to shared cells;
// the final values do not depend on the order (sums of exact values,
// min/max, and/or/xor, a fixed number of atomicInc/Dec steps with one
// limit), and for add-one, exchange, Inc/Dec and compare-and-swap loops the
// multiset of returned old values does not either.
//
// Cell sets per scope (12 cells per type): set 0 for the plain functions,
// set 1 + blockIdx.x for _block (one set per block: block scope promises
// atomicity only within the block), set 3 for _system.
struct Vals {
    int i;
    unsigned u;
    ull q;
    ll l;
    float f;
    double d;
};

__device__ __forceinline__ unsigned hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#define CONTEND(S)                                                                    \
    {                                                                                 \
        atomicAdd##S(ci + 0, v.i);                                                    \
        o[0] = (ull)(unsigned)atomicAdd##S(ci + 1, 1);                                \
        atomicSub##S(ci + 2, v.i);                                                    \
        o[1] = (ull)(unsigned)atomicExch##S(ci + 3, (int)gid + 1000);                  \
        atomicMin##S(ci + 4, v.i);                                                    \
        atomicMax##S(ci + 5, v.i);                                                    \
        atomicAnd##S(ci + 6, v.i | (1 << (gid % 31u)));                               \
        atomicOr##S(ci + 7, v.i & (v.i >> 3));                                        \
        atomicXor##S(ci + 8, v.i);                                                    \
        {                                                                             \
            int old = *(volatile int *)(ci + 9), prev;                                \
            while ((prev = atomicCAS##S(ci + 9, old, old + 1)) != old)                \
                old = prev;                                                           \
            o[2] = (ull)(unsigned)old;                                                \
        }                                                                             \
        atomicAdd##S(cu + 0, v.u);                                                    \
        o[3] = atomicAdd##S(cu + 1, 1u);                                              \
        atomicSub##S(cu + 2, v.u);                                                    \
        o[4] = atomicExch##S(cu + 3, gid * 3u);                                       \
        atomicMin##S(cu + 4, v.u);                                                    \
        atomicMax##S(cu + 5, v.u);                                                    \
        atomicAnd##S(cu + 6, v.u | (1u << (gid % 29u)));                              \
        atomicOr##S(cu + 7, v.u & (v.u >> 5));                                        \
        atomicXor##S(cu + 8, v.u);                                                    \
        {                                                                             \
            unsigned old = *(volatile unsigned *)(cu + 9), prev;                      \
            while ((prev = atomicCAS##S(cu + 9, old, old * 3u + 1u)) != old)          \
                old = prev;                                                           \
            o[5] = old;                                                               \
        }                                                                             \
        o[6] = atomicInc##S(cu + 10, 100u);                                           \
        o[7] = atomicDec##S(cu + 11, 100u);                                           \
        atomicAdd##S(cq + 0, v.q);                                                    \
        o[8] = atomicAdd##S(cq + 1, 1ull);                                            \
        o[9] = atomicExch##S(cq + 2, v.q);                                            \
        atomicMin##S(cq + 3, v.q);                                                    \
        atomicMax##S(cq + 4, v.q);                                                    \
        atomicAnd##S(cq + 5, v.q | (1ull << (gid % 61u)));                            \
        atomicOr##S(cq + 6, v.q & (v.q >> 7));                                        \
        atomicXor##S(cq + 7, v.q);                                                    \
        {                                                                             \
            ull old = *(volatile ull *)(cq + 8), prev;                                \
            while ((prev = atomicCAS##S(cq + 8, old, old + 0x100000001ull)) != old)   \
                old = prev;                                                           \
            o[10] = old;                                                              \
        }                                                                             \
        atomicMin##S(cl + 0, v.l);                                                    \
        atomicMax##S(cl + 1, v.l);                                                    \
        atomicAnd##S(cl + 2, v.l | (1ll << (gid % 59u)));                             \
        atomicOr##S(cl + 3, v.l & (v.l >> 9));                                        \
        atomicXor##S(cl + 4, v.l);                                                    \
        atomicAdd##S(cf + 0, v.f);                                                    \
        o[11] = __float_as_uint(atomicExch##S(cf + 1, v.f));                           \
        atomicAdd##S(cd + 0, v.d);                                                    \
    }

__device__ __forceinline__ Vals vals(unsigned gid)
{
    Vals v;
    unsigned h = hash(gid + 17u), h2 = hash(gid * 7u + 3u);
    v.i = (int)(h % 2001u) - 1000;
    if (gid % 17u == 5u)
        v.i = gid & 1u ? 0x7fffffff : (int)0x80000000;
    v.u = h2;
    v.q = (ull)h << 32 | h2;
    v.l = (ll)v.q;
    v.f = (float)((int)(h2 % 129u) - 64) * 0.25f;
    v.d = (double)((int)(h % 4097u) - 2048) * 0.125;
    return v;
}

// Per scope 12 ints, 12 unsigned, 12 ull, 12 ll, 2 floats, 1 double per
// set; olds: 16 slots per thread and scope (12 used), then 2 for the
// 16-bit compare-and-swap.
__device__ __forceinline__ void contend(int *gi, unsigned *gu, ull *gq, ll *gl, float *gf,
                                        double *gd, ull *olds, unsigned gid, unsigned set0,
                                        unsigned setb, unsigned sets, unsigned short *us)
{
    Vals v = vals(gid);
    {
        int *ci = gi + 12 * set0;
        unsigned *cu = gu + 12 * set0;
        ull *cq = gq + 12 * set0;
        ll *cl = gl + 12 * set0;
        float *cf = gf + 2 * set0;
        double *cd = gd + set0;
        ull *o = olds;
        CONTEND()
    }
    {
        int *ci = gi + 12 * setb;
        unsigned *cu = gu + 12 * setb;
        ull *cq = gq + 12 * setb;
        ll *cl = gl + 12 * setb;
        float *cf = gf + 2 * setb;
        double *cd = gd + setb;
        ull *o = olds + 16;
        CONTEND(_block)
    }
    {
        int *ci = gi + 12 * sets;
        unsigned *cu = gu + 12 * sets;
        ull *cq = gq + 12 * sets;
        ll *cl = gl + 12 * sets;
        float *cf = gf + 2 * sets;
        double *cd = gd + sets;
        ull *o = olds + 32;
        CONTEND(_system)
    }
    // two 16-bit counters in one word: even threads count one, odd the other
    unsigned short *p = us + (gid & 1u);
    unsigned short old = *(volatile unsigned short *)p, prev;
    while ((prev = atomicCAS(p, old, (unsigned short)(old + 3u))) != old)
        old = prev;
    olds[48] = old;
}

extern "C" __global__ void atomic_contend(int *gi, unsigned *gu, ull *gq, ll *gl, float *gf,
                                          double *gd, unsigned short *us, ull *olds)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    contend(gi, gu, gq, gl, gf, gd, olds + 49 * gid, gid, 0, 1 + blockIdx.x, 3, us);
}

// The same on cells in shared memory (one block; the three scopes use sets
// 0, 1 and 2), copied in from and back out to global memory around it.
extern "C" __global__ void atomic_contend_shared(int *gi, unsigned *gu, ull *gq, ll *gl,
                                                 float *gf, double *gd, unsigned short *us,
                                                 ull *olds)
{
    __shared__ int si[36];
    __shared__ unsigned su[36];
    __shared__ ull sq[36];
    __shared__ ll sl[36];
    __shared__ float sf[6];
    __shared__ double sd[3];
    __shared__ unsigned short ss[4];
    unsigned t = threadIdx.x;
    if (t < 36) {
        si[t] = gi[t];
        su[t] = gu[t];
        sq[t] = gq[t];
        sl[t] = gl[t];
    }
    if (t < 6)
        sf[t] = gf[t];
    if (t < 3)
        sd[t] = gd[t];
    if (t < 4)
        ss[t] = us[t];
    __syncthreads();
    contend(si, su, sq, sl, sf, sd, olds + 49 * t, t, 0, 1, 2, ss);
    __syncthreads();
    if (t < 36) {
        gi[t] = si[t];
        gu[t] = su[t];
        gq[t] = sq[t];
        gl[t] = sl[t];
    }
    if (t < 6)
        gf[t] = sf[t];
    if (t < 3)
        gd[t] = sd[t];
    if (t < 4)
        us[t] = ss[t];
}
