// Exercises: device printf (vprintf call, .const format strings, local arg buffer) with %d %u %f %s %x %lld %c.
#include <cstdio>

extern "C" __global__ void print_kernel(int base)
{
    unsigned t = threadIdx.x;
    if (t < 4) {
        long long big = 1000000000000LL * (long long)(t + 1);
        printf("t=%d u=%u f=%f s=%s x=%x ll=%lld c=%c\n",
               base - (int)t, t, 0.5 * t, "ptx", 0xbeef + t, big, 'a' + (int)t);
    }
}
