// Exercises: __half/__half2 arithmetic and conversions (f16, f16x2 PTX) and double fma/div/sqrt (f64 PTX).
#include <cuda_fp16.h>

extern "C" __global__ void half_ops(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half a = __float2half(in[i]);
    __half b = __float2half_rz(0.5f * in[i]);
    __half s = __hadd(a, b);
    __half p = __hmul(a, b);
    __half f = __hfma(s, p, __int2half_rn(i & 15));
    __half2 v = __halves2half2(a, f);
    __half2 w = __floats2half2_rn(1.25f, -2.0f);
    __half2 x = __hadd2(v, w);
    x = __hmul2(x, w);
    out[i] = __half2float(f) + __low2float(x) + __high2float(x)
           + (float)__half2int_rz(s);
}

extern "C" __global__ void double_ops(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double a = in[i];
    double b = (double)i + 1.0;
    double f = fma(a, b, 0.25);
    double q = f / b;
    double r = sqrt(fabs(q) + 1.0);
    out[i] = r + (double)(float)q + (double)(long long)a;
}
