// Exercises: .func calls (noinline), recursion with a depth bound, indirect calls via a function-pointer table (.callprototype).
typedef int (*binop_t)(int, int);

__device__ __noinline__ int mix(int a, int b)
{
    return a * 31 + (b ^ 0x5a);
}

__device__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }

__device__ binop_t op_table[3] = { op_add, op_sub, op_max };

extern "C" __global__ void calls_kernel(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    int depth = (x & 7) + 1;        /* depth bound: fib(1..8) */
    int r = mix(x, i);
    r += fib(depth);
    binop_t f = op_table[i % 3];
    out[i] = f(r, x);
}
