/* scripts/gpgpusim/launch_push.c — LD_PRELOAD adapter used only when the
 * benchmark programs run under GPGPU-Sim to record reference figures
 * (scripts/gpgpusim-reference.py).  The programs launch with the public
 * cudaLaunchKernel (tests/cuda/bench/ptxemu_on_cuda.c), which real CUDA
 * accepts as it is; GPGPU-Sim's cudaLaunchKernel reads a call configuration
 * that only nvcc's `<<<>>>` code pushes (it aborts with "empty launch
 * stack").  This pushes the same grid, block, shared size and stream first
 * and then calls GPGPU-Sim's cudaLaunchKernel; nothing else changes.  No
 * GPGPU-Sim code is here: it is found with dlsym at run time. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

typedef struct { unsigned x, y, z; } dim3_abi; /* CUDA's dim3, same layout */
typedef int (*launch_fn)(const void *, dim3_abi, dim3_abi, void **, size_t, void *);
typedef unsigned (*push_fn)(dim3_abi, dim3_abi, size_t, void *);

int cudaLaunchKernel(const void *func, dim3_abi grid, dim3_abi block, void **args,
                     size_t shared, void *stream)
{
    launch_fn real = (launch_fn)dlsym(RTLD_NEXT, "cudaLaunchKernel");
    push_fn push = (push_fn)dlsym(RTLD_NEXT, "__cudaPushCallConfiguration");
    if (!real || !push)
        return 1; /* cudaErrorInvalidValue: not running on a libcudart */
    push(grid, block, shared, stream);
    return real(func, grid, block, args, shared, stream);
}
