// tests/cuda/rdc_second.cu — a second translation unit with device code,
// linked with rdc.cu under -rdc=true: ptxemu does not link PTX modules
// yet, so that program must stop with a clear "not supported yet" error.
__device__ int twice_device(int x) { return 2 * x; }

__global__ void twice(int *p) { p[threadIdx.x] = twice_device(p[threadIdx.x]); }
