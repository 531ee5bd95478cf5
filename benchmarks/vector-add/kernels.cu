// vector-add: c[i] = a[i] + b[i], one thread per element.
//
// The smallest data-parallel kernel there is: index computation, two loads,
// one add, one store (thesis Fig. 3.2 uses it to show phases).
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

extern "C" __global__ void vector_add(const float *a, const float *b, float *c,
                                      unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
