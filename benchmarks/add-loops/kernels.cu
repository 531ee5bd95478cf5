// add-loops: the thesis's compute benchmark add_x_loops (§5.3.1).  Each
// thread reads two floats, runs `loops` dependent multiply-add iterations on
// each (a long ALU phase between a short load phase and a store), and stores
// the sum.  `loops` is the x of add_x_loops.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void add_loops(const float *a, const float *b, float *c,
                                     unsigned n, unsigned loops)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    float y = b[i];
    for (unsigned k = 0; k < loops; k++) {
        x = __fmaf_rn(x, 0.999f, 0.5f);
        y = __fmaf_rn(y, 1.001f, -0.25f);
    }
    c[i] = x + y;
}
