// Exercises: __ldg (ld.global.nc) loads and volatile shared/global loads/stores: flag-polling producer/consumer in one block.
extern "C" __global__ void prod_cons(const int *__restrict__ in, int *out, volatile int *gflag)
{
    __shared__ volatile int flag;
    __shared__ volatile int value;
    unsigned t = threadIdx.x;

    if (t == 0) {
        flag = 0;
        *gflag = 0;
    }
    __syncthreads();

    /* The producer is in warp 0 and the consumer in warp 1, so the kernel also finishes
       when warps are run one after another in launch order. */
    if (t == 0) {                      /* producer: warp 0 */
        value = __ldg(&in[0]) * 2;
        __threadfence_block();
        flag = 1;
        *gflag = 1;
    } else if (t == 32) {              /* consumer: warp 1 */
        while (flag == 0)
            ;
        out[0] = value + __ldg(&in[1]);
        out[1] = *gflag;
    }
}
