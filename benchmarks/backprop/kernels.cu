// backprop: one training step of a two-layer perceptron in the Rodinia
// style (n inputs -> 16 hidden units -> 1 output), with the two big
// input-layer phases on the GPU and the small layers on the host.
//
// Weights are stored (n+1) x (hid+1), row j = input unit j (row 0 is the
// bias unit), column k = hidden unit k (column 0 unused).  A 16 x 16 CTA
// covers 16 input units (threadIdx.y) x the 16 hidden units (threadIdx.x);
// the grid runs along y, one CTA per 16 inputs.
//
// bp_layerforward: each thread forms weight * input in shared memory, then a
// pairwise tree over threadIdx.y sums the CTA's 16 inputs for each hidden
// unit; row 0 of the tree is the CTA's partial sum, which the host adds up
// over CTAs.
// bp_adjust_weights: every input->hidden weight moves by
//   dw = eta * delta[k] * input[j] + momentum * previous dw,
// and the previous-dw array is updated; CTA 0 also updates the bias row.
//
// Regenerate kernels.ptx with scripts/regen-ptx.sh (nvcc -ptx -arch=sm_75).

#define BP_TILE 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

extern "C" __global__ void bp_layerforward(const float *input, const float *w,
                                           float *partial, int hid)
{
    __shared__ float in_s[BP_TILE];
    __shared__ float prod[BP_TILE][BP_TILE];

    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int j = BP_TILE * by + ty + 1;

    if (tx == 0)
        in_s[ty] = input[j];
    __syncthreads();

    prod[ty][tx] = w[j * (hid + 1) + tx + 1] * in_s[ty];
    __syncthreads();

    for (int s = 1; s < BP_TILE; s *= 2) {
        if (ty % (2 * s) == 0)
            prod[ty][tx] += prod[ty + s][tx];
        __syncthreads();
    }

    if (ty == 0)
        partial[by * hid + tx] = prod[0][tx];
}

extern "C" __global__ void bp_adjust_weights(const float *delta, int hid,
                                             const float *input, float *w,
                                             float *oldw)
{
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int j = BP_TILE * by + ty + 1;
    int k = tx + 1;
    int idx = j * (hid + 1) + k;

    float dw = BP_ETA * delta[k] * input[j] + BP_MOMENTUM * oldw[idx];
    w[idx] += dw;
    oldw[idx] = dw;

    if (by == 0 && ty == 0) {
        float db = BP_ETA * delta[k] + BP_MOMENTUM * oldw[k];
        w[k] += db;
        oldw[k] = db;
    }
}
